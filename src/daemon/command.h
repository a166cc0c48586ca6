/*
 * command.h -- the protocol's commands as the daemon reads them: one
 * entry of command_table (command.c) per command, and a line parsed
 * into a struct proto_cmd (cmd-parse.c) by the entry's argument reader.
 */
#ifndef STAIRS_COMMAND_H
#define STAIRS_COMMAND_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "protocol.h"

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


#endif
