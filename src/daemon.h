/*
 * daemon.h -- the live daemon's shared state and the calls that change it,
 * used by daemon.c (main, clock, signals), command.c (what each protocol
 * command does) and server*.c (the socket and its clients).
 */
#ifndef STAIRS_DAEMON_H
#define STAIRS_DAEMON_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "clock.h"
#include "config.h"
#include "engine.h"
#include "protocol.h"

struct event_base;
struct event;
struct evbuffer;
struct server;
struct server_client;
struct procs;
struct session;
struct change;

#define DAEMON_EVENTS	256	/* event lines kept for subscribers */

/* One human line about something that happened ("hog sleeps 1000 ms"). */
struct daemon_event {
	uint64_t	 seq;
	uint64_t	 tick;
	char		*text;
};

/*
 * A `step N` under way: its ticks run in slices of a few ms, each a turn
 * of the event loop, so other clients and signals are served meanwhile.
 */
struct daemon_step {
	struct event		*ev;		/* the next slice */
	uint64_t		 total, done;
	int			 active;
	struct server_client	*client;	/* waits for the reply; NULL */
};

/* A scenario's real task: checked at load, spawned once detached. */
struct daemon_pending {
	int	  id;
	char	**argv;
};

struct daemon {
	struct event_base	*base;
	struct config		 cfg;
	char			*config_path;	/* NULL: defaults only */
	char			*socket_path;
	/* The scenario run now: engine, trace rows, table, journal. */
	struct session		*session;
	struct clock		 clock;
	struct event		*timer;		/* on tick_fd */
	struct event		*wake;		/* procs_event_fd: a child woke */
	int			 tick_fd;	/* a periodic timerfd */
	int			 batched;	/* tick_fd armed for a batch */
	int			 real_ntasks;	/* daemon_real_live's cache: */
	int			 real_nlive;	/* the counts it was taken at */
	int			 real_live;	/* and what it found */
	uint64_t		 ticks_run;	/* since start, by the clock */

	FILE			*trace;		/* --trace (session writes) */
	char			*trace_path;	/* NULL: stdout or none */
	FILE			*record;	/* --record / record: journal */
	struct event		*flush;		/* flushes trace and record */
	char			*record_path;
	struct server		*server;
	struct procs		*procs;		/* NULL: no real processes */
	char			*bindir;	/* real tasks' programs */
	char		       **scenario_dirs;	/* scenario_path, absolute */
	size_t			 nscenario_dirs;
	char			*child_output;	/* children's logs */
	struct daemon_pending	*pending;	/* real tasks to spawn */
	size_t			 npending;

	struct daemon_event	 events[DAEMON_EVENTS];
	uint64_t		 event_seq;	/* seq of the newest event */
	/* The presenter's view (`view`) for followers; view_seq: its count. */
	char			 view[512];
	uint64_t		 view_seq;
	uint64_t		 gen;		/* moves on every change */
	struct daemon_step	 step;
	int			 exiting;
};

/* The engine, to read (the session changes it). */
const struct engine *daemon_engine(const struct daemon *);

/* daemon.c */
int	daemon_load(struct daemon *, const char *scenario, char **cause);
int	daemon_switch(struct daemon *, const char *scenario, char **cause);
int	daemon_change(struct daemon *, const struct change *, char **cause);
int	daemon_record(struct daemon *, const char *path, char **cause);
char   *daemon_scenario_file(struct daemon *, const char *name);
void	daemon_free(struct daemon *);
void	daemon_note(struct daemon *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	daemon_changed(struct daemon *);
void	daemon_catchup(struct daemon *);
void	daemon_pause(struct daemon *);
void	daemon_resume(struct daemon *);
void	daemon_leave_past(struct daemon *);
void	daemon_step_start(struct daemon *, uint64_t,
	    struct server_client *);
int	daemon_step_cancel(struct daemon *, const char *why);
void	daemon_set_speed(struct daemon *, double);
void	daemon_shutdown(struct daemon *);
void	daemon_status(struct daemon *, struct proto_status *);
int	daemon_real(struct daemon *, int id, struct proto_real *,
	    char *exitbuf, size_t len);

/* command.c */
#define COMMAND_SUBSCRIBE	0x1
#define COMMAND_UNSUBSCRIBE	0x2
#define COMMAND_QUIT		0x4
#define COMMAND_STEP		0x8	/* start cmd->steps; reply comes later */
#define COMMAND_READONLY	0x10	/* the connection changes nothing now */
int	command_run(struct daemon *, const struct proto_cmd *,
	    struct evbuffer *);
void	command_task_lines(struct daemon *, struct evbuffer *);
void	command_cpu_lines(struct daemon *, struct evbuffer *);

#endif
