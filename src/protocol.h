/*
 * protocol.h -- the stairs socket protocol (docs/PROTOCOL.md): parse a
 * command line into a struct proto_cmd, and format the lines the daemon
 * sends (greeting, status, task, cpu, frame, caption, event).
 *
 * Pure: no I/O, no engine state beyond the snapshots passed in, so it can
 * be unit-tested and fuzzed.  Bump PROTO_VERSION on an incompatible change.
 */
#ifndef STAIRS_PROTOCOL_H
#define STAIRS_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"

#define PROTO_VERSION		2
#define PROTO_LINE_MAX		4096	/* bytes in a line, without the \n */
#define PROTO_TEXT_MAX		1024	/* caption and event text */
#define PROTO_MS_MAX		100000000ULL	/* sleep, runtime, pattern */
#define PROTO_STEP_MAX		1000000ULL
#define PROTO_STEP_EVENT	60000ULL	/* step event: ticks at most, default */
#define PROTO_FPS_DEFAULT	30
#define PROTO_FPS_MAX		120
#define PROTO_SPEED_MIN		0.01
#define PROTO_SPEED_MAX		100.0
#define PROTO_PATTERN_MAX	64	/* numbers in a pattern */
#define PROTO_ARGV_MAX		64	/* words after -- in spawn */
#define PROTO_QUOTE_MAX		40	/* characters of a quoted word */
#define PROTO_QUOTE_SIZE	48	/* buffer for protocol_quote */
#define PROTO_VIEW_MAX		16	/* key=value pairs of a view */

enum proto_type {
	PROTO_NONE,		/* an empty line: no reply */
	PROTO_HELP,
	PROTO_STATUS,
	PROTO_TASKS,
	PROTO_CPUS,
	PROTO_TABLE,
	PROTO_SLEEP,
	PROTO_NICE,
	PROTO_AFFINITY,
	PROTO_KILL,
	PROTO_ADD,
	PROTO_SPAWN,
	PROTO_PAUSE,
	PROTO_RESUME,
	PROTO_STEP,
	PROTO_SPEED,
	PROTO_SUBSCRIBE,
	PROTO_UNSUBSCRIBE,
	PROTO_SHUTDOWN,
	PROTO_QUIT,
	PROTO_POLICY,
	PROTO_SCENARIOS,
	PROTO_LOAD,
	PROTO_RESET,
	PROTO_RECORD,
	PROTO_READONLY,
	PROTO_SEEK,
	PROTO_MARKS,
	PROTO_COMPARE,
	PROTO_VIEW
};

struct daemon;
struct evbuffer;
struct proto_cmd;

/*
 * One command: an entry of command_table (command.c, where the recipe for
 * adding one is).  The parse side (name, words, args) is used here in
 * protocol.c; the rest by command.c and the server.
 */
#define PROTO_CHANGES	0x1	/* changes the daemon: read-only refused */
#define PROTO_ENGINE	0x2	/* changes the engine: refused in the past */
struct proto_def {
	const char	*name;
	enum proto_type	 type;
	int		 min, max;	/* words after the name; -1: any */
	int		 flags;		/* PROTO_CHANGES, PROTO_ENGINE */
	const char	*usage;		/* "usage: " errors and help */
	const char	*help;		/* help's text after the usage */
	/* The words after the name into the command; NULL: none to read. */
	int		(*args)(struct proto_cmd *, char **, int, char **);
	/* Run it: the reply into the evbuffer; COMMAND_* flags. */
	int		(*exec)(struct daemon *, const struct proto_cmd *,
			    struct evbuffer *);
};
extern const struct proto_def command_table[];	/* ends with a NULL name */

/* One parsed command; protocol_cmd_free() releases it. */
struct proto_cmd {
	enum proto_type	 type;
	const struct proto_def *def;	/* NULL: an empty line */
	char		*task;		/* <task>, or the name (add, spawn) */
	int		 has_ms;	/* sleep: ms given (else the default) */
	uint64_t	 ms;		/* sleep */
	int		 nice;		/* nice; add/spawn nice= */
	int		 has_nice;
	char		*cpus;		/* affinity, cpus= (unparsed) */
	uint32_t	*pattern;	/* add pattern= */
	size_t		 npattern;
	uint64_t	 runtime;	/* add runtime=, 0: none */
	uint64_t	 steps;		/* step, default 1 */
	int		 step_event;	/* step event: stop at the next event */
	double		 speed;		/* speed */
	int		 fps;		/* subscribe */
	int		 delta;		/* subscribe ... delta */
	int		 runs;		/* subscribe ... runs: runs lines */
	int		 kruns;		/* subscribe ... kruns: kruns lines */
	int		 view;		/* subscribe ... view: view lines */
	char	       **argv;		/* spawn, NULL-terminated */
	int		 argc;
	const struct engine_policy *policy;	/* policy; compare (NULL: off) */
	char		*path;		/* load, record; view: its pairs */
	uint64_t	 tick;		/* seek */
};

/* The real-process part of a task line; NULL for scripted tasks. */
struct proto_real {
	long		 pid;		/* 0: not started */
	uint64_t	 cputime_ms;
	uint64_t	 stolen_ms;	/* run while the engine had not picked it */
	const char	*exit;		/* "status=0"...; NULL: engine's */
};

/* What the status line and a frame header say. */
struct proto_status {
	uint64_t	 tick;		/* the tick shown */
	uint64_t	 now;		/* the present tick */
	int		 live;		/* 1: tick is the present */
	int		 cpus;
	int		 tasks;		/* task lines: every id, exited too */
	int		 alive;		/* tasks not exited */
	int		 paused;
	double		 speed;
	int		 rr;
	const char	*cgroups;	/* "v1", "v2", "none" */
	const char	*observe;	/* "events", "proc"; NULL: "proc" */
	uint64_t	 lag;		/* ticks dropped by the clock */
	int		 clients;
	const char	*scenario;	/* its name, "-" if none */
	int		 sleep;		/* default injected sleep, ms */
	const char	*policy;	/* the engine's policy */
	const char	*compare;	/* the shadow's policy; NULL: off */
	int		 shadow;	/* frames carry the shadow's lines */
	const char	*description;	/* status: text=; NULL: none */
};

int	protocol_parse(const char *line, struct proto_cmd *, char **cause);
/* Does the command change the daemon (refused to read-only clients)? */
int	protocol_changes(const struct proto_cmd *);
const struct proto_def *protocol_find(const char *name);
void	protocol_cmd_free(struct proto_cmd *);

/* Argument readers for command_table's args (after the name's words). */
int	protocol_args_task(struct proto_cmd *, char **, int, char **);
int	protocol_args_sleep(struct proto_cmd *, char **, int, char **);
int	protocol_args_nice(struct proto_cmd *, char **, int, char **);
int	protocol_args_affinity(struct proto_cmd *, char **, int, char **);
int	protocol_args_add(struct proto_cmd *, char **, int, char **);
int	protocol_args_spawn(struct proto_cmd *, char **, int, char **);
int	protocol_args_step(struct proto_cmd *, char **, int, char **);
int	protocol_args_speed(struct proto_cmd *, char **, int, char **);
int	protocol_args_path(struct proto_cmd *, char **, int, char **);
int	protocol_args_tick(struct proto_cmd *, char **, int, char **);
int	protocol_args_policy(struct proto_cmd *, char **, int, char **);
int	protocol_args_compare(struct proto_cmd *, char **, int, char **);
int	protocol_args_subscribe(struct proto_cmd *, char **, int, char **);
int	protocol_args_view(struct proto_cmd *, char **, int, char **);

int	protocol_parse_ms(const char *what, const char *s, uint64_t *,
	    char **cause);
int	protocol_parse_int(const char *what, const char *s, long min,
	    long max, long *, char **cause);
int	protocol_parse_speed(const char *s, double *, char **cause);
int	protocol_parse_pattern(const char *s, uint32_t **, size_t *,
	    char **cause);
char   *protocol_quote(const char *s, char *buf, size_t len);

/* Formatting: each writes one line, no \n, into buf; returns its length. */
size_t	protocol_greeting(char *buf, size_t len);
size_t	protocol_status_line(char *buf, size_t len,
	    const struct proto_status *);
size_t	protocol_frame_line(char *buf, size_t len,
	    const struct proto_status *, uint64_t dropped, int delta);
size_t	protocol_task_line(char *buf, size_t len,
	    const struct engine_task_info *, const struct proto_real *,
	    const char *group);
size_t	protocol_cpu_line(char *buf, size_t len,
	    const struct engine_cpu_info *);
size_t	protocol_scenario_line(char *, size_t, const char *name,
	    const char *file, int cpus, int tasks, int real, const char *text);
size_t	protocol_text_line(char *buf, size_t len, const char *keyword,
	    uint64_t tick, const char *text);
/* One run of a runs line ("ID:RANK*N", "0*N"), no comma. */
size_t	protocol_runs_item(char *buf, size_t len, int task, int rank,
	    uint64_t n);
/* One run of a kruns line ("ID*N", "0*N", "-*N", "?*N"), no comma. */
size_t	protocol_kruns_item(char *buf, size_t len, int task, uint64_t n);
/* Read one at *p (then a comma or the end); 0, or -1 if it is not. */
int	protocol_kruns_parse(const char **p, int *task, uint64_t *n);
/* Read one run of a runs line at *p (then a comma or the end); 0, -1. */
int	protocol_runs_parse(const char **p, int *task, int *rank,
	    uint64_t *n);
const char *protocol_state_name(const struct engine_task_info *);
const char *protocol_exit_name(enum engine_exit);
char   *protocol_format_speed(double, char *buf, size_t len);

#endif
