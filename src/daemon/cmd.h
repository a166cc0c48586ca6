/*
 * cmd.h -- the protocol's commands, as tmux writes them: one entry and
 * one function per command (cmd-*.c), in one table (cmd.c).  An entry
 * says what the command targets and what it may do, so the lookup of a
 * task and the refusals are written once (cmd_run):
 *
 *	CMD_TASK	its first word names a task: looked up before it
 *			runs ("err unknown task" otherwise), in ctx->task
 *	CMD_WRITE	it changes something: refused to a read-only client
 *	CMD_ENGINE	it changes the engine: refused while the past is
 *			viewed (it would change the present, out of sight)
 *
 * A command writes its reply (data lines, then one "ok ..." or "err
 * ...") into ctx->out and returns CMD_NORMAL; or CMD_WAIT when its reply
 * comes later (step: ctx->wait is told it); or what the connection
 * itself is to do (CMD_SUBSCRIBE, ...), which only the client acts on.
 * No command holds a client: a command acts on the live daemon and its
 * session, and a later reply goes through ctx->wait.
 *
 * To add a command: a cmd_NAME_entry in a cmd-*.c (name, words after
 * the name, flags, usage and help, its argument reader from cmd-parse.c
 * or none, its exec), and its line in cmd.c's table; docs/PROTOCOL.md
 * and man/stairs-protocol.7 say what it does (tests/e2e_man.sh checks
 * the man page lists every command).
 */
#ifndef STAIRS_CMD_H
#define STAIRS_CMD_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "protocol.h"
#include "session.h"

struct evbuffer;
struct live;
struct live_vote;
struct pacer_wait;

#define CMD_TASK	0x1
#define CMD_WRITE	0x2
#define CMD_ENGINE	(0x4|CMD_WRITE)

/* What a command's exec returns: its reply is done, or more to do. */
enum cmd_retval {
	CMD_NORMAL,		/* the reply is in ctx->out */
	CMD_WAIT,		/* the reply comes later, through ctx->wait */
	CMD_SUBSCRIBE,		/* and the connection streams frames */
	CMD_UNSUBSCRIBE,	/* and stops them */
	CMD_READONLY,		/* and changes nothing from now */
	CMD_QUIT		/* and closes once the reply is sent */
};

struct cmd;
struct cmd_ctx;

struct cmd_entry {
	const char	*name;
	int		 min, max;	/* words after the name; -1: any */
	int		 flags;		/* CMD_TASK, CMD_WRITE, CMD_ENGINE */
	const char	*usage;		/* "usage: " errors and help */
	const char	*help;		/* help's text after the usage */
	/* The words after the name into the command; NULL: none to read. */
	int		(*args)(struct cmd *, char **, int, char **cause);
	enum cmd_retval	(*exec)(struct cmd *, struct cmd_ctx *);
};

/* One parsed command line; cmd_free() releases it. */
struct cmd {
	const struct cmd_entry *entry;	/* NULL: an empty line */
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
	const struct engine_policy *policy;	/* policy */
	/* compare: its policies (0: off). */
	const struct engine_policy *policies[SESSION_SHADOWS];
	int		 npolicies;
	char		*path;		/* load, record; view: its pairs */
	uint64_t	 tick;		/* seek */
	int		 run;		/* load, reset: run (else paused) */
	int		 answer;	/* answer: the choice, 1.. */
};

/* Where a command runs. */
struct cmd_ctx {
	struct live		*live;
	struct evbuffer		*out;		/* its reply */
	struct pacer_wait	*wait;		/* a later reply; NULL: none */
	int			 readonly;	/* the client changes nothing */
	struct live_vote	*vote;		/* its answer (NULL: none) */
	int			 clients;	/* connected, for status */
	/* CMD_TASK: the task named, and a snapshot of it. */
	int			 task;
	struct engine_task_info	 ti;
};

/* cmd.c */
extern const struct cmd_entry *const cmd_table[];	/* NULL-ended */
const struct cmd_entry *cmd_find(const char *name);
int		 cmd_parse(const char *line, struct cmd *, char **cause);
void		 cmd_free(struct cmd *);
enum cmd_retval	 cmd_run(struct cmd *, struct cmd_ctx *);
/* Reply helpers: "err CAUSE" (cause freed), "ok", "ok N", a line. */
enum cmd_retval	 cmd_error(struct cmd_ctx *, char *cause);
enum cmd_retval	 cmd_ok(struct cmd_ctx *);
enum cmd_retval	 cmd_ok_n(struct cmd_ctx *, long long n);
void		 cmd_line(struct cmd_ctx *, const char *, size_t);
/* Say what a command did, at the present tick (notes.c). */
void		 cmd_note(struct cmd_ctx *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
/* A file a client names must be absolute; else -1 and the err line. */
int		 cmd_absolute(struct cmd_ctx *, const char *path);

/* cmd-parse.c: the argument readers entries share. */
int	cmd_parse_task(struct cmd *, char **, int, char **);
int	cmd_parse_sleep(struct cmd *, char **, int, char **);
int	cmd_parse_nice(struct cmd *, char **, int, char **);
int	cmd_parse_affinity(struct cmd *, char **, int, char **);
int	cmd_parse_add(struct cmd *, char **, int, char **);
int	cmd_parse_spawn(struct cmd *, char **, int, char **);
int	cmd_parse_step(struct cmd *, char **, int, char **);
int	cmd_parse_speed(struct cmd *, char **, int, char **);
int	cmd_parse_path(struct cmd *, char **, int, char **);
int	cmd_parse_load(struct cmd *, char **, int, char **);
int	cmd_parse_tick(struct cmd *, char **, int, char **);
int	cmd_parse_answer(struct cmd *, char **, int, char **);
int	cmd_parse_part(struct cmd *, char **, int, char **);
int	cmd_parse_policy(struct cmd *, char **, int, char **);
int	cmd_parse_compare(struct cmd *, char **, int, char **);
int	cmd_parse_subscribe(struct cmd *, char **, int, char **);
int	cmd_parse_view(struct cmd *, char **, int, char **);

/* The entries (cmd-show.c, cmd-task.c, cmd-clock.c, cmd-session.c,
 * cmd-client.c). */
extern const struct cmd_entry cmd_help_entry, cmd_status_entry,
    cmd_tasks_entry, cmd_cpus_entry, cmd_table_entry, cmd_sleep_entry,
    cmd_nice_entry, cmd_affinity_entry, cmd_kill_entry, cmd_add_entry,
    cmd_spawn_entry, cmd_pause_entry, cmd_resume_entry, cmd_step_entry,
    cmd_speed_entry, cmd_subscribe_entry, cmd_unsubscribe_entry,
    cmd_shutdown_entry, cmd_quit_entry, cmd_policy_entry,
    cmd_scenarios_entry, cmd_load_entry, cmd_reset_entry, cmd_record_entry,
    cmd_readonly_entry, cmd_seek_entry, cmd_marks_entry,
    cmd_compare_entry, cmd_view_entry, cmd_answer_entry, cmd_parts_entry,
    cmd_part_entry;

#endif
