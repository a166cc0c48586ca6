/*
 * daemon.h -- the live daemon (daemon.c: main, clock, signals) as the
 * rest sees it: an opaque struct daemon and the calls that read and
 * change it, used by command.c (what each protocol command does) and
 * server*.c (the socket and its clients).  None of them reaches into
 * another's struct: the daemon calls server_* (server.h), the server
 * calls daemon_* and command_run, the commands daemon_* and session_*.
 */
#ifndef STAIRS_DAEMON_H
#define STAIRS_DAEMON_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "clock.h"
#include "config.h"
#include "engine.h"
#include "command.h"
#include "format.h"
#include "protocol.h"

struct event_base;
struct event;
struct evbuffer;
struct server;
struct server_client;
struct procs;
struct runs;
struct session;
struct change;

#define DAEMON_EVENTS	256	/* event lines kept for subscribers */

/* One human line about something that happened ("hog sleeps 1000 ms"). */
struct daemon_event {
	uint64_t	 seq;
	uint64_t	 tick;
	char		*text;
};

/* The live daemon: opaque, its fields are daemon.c's. */
struct daemon;

/* The engine, to read (the session changes it). */
const struct engine *daemon_engine(const struct daemon *);

/*
 * What the server (server*.c) and the commands (command.c) may see of
 * the daemon: they call these; struct daemon is daemon.c's alone.
 */
struct session	*daemon_session(const struct daemon *);
const struct config *daemon_config(const struct daemon *);
struct event_base *daemon_base(const struct daemon *);
struct procs	*daemon_procs(const struct daemon *);
const struct runs *daemon_kruns(const struct daemon *);
int		 daemon_paused(const struct daemon *);
double		 daemon_speed(const struct daemon *);
uint64_t	 daemon_gen(const struct daemon *);
uint64_t	 daemon_event_seq(const struct daemon *);
const struct daemon_event *daemon_event(const struct daemon *, uint64_t);
uint64_t	 daemon_event_first(const struct daemon *);
const char	*daemon_view(const struct daemon *, uint64_t *);
void		 daemon_set_view(struct daemon *, const char *);
char *const	*daemon_scenario_dirs(const struct daemon *, size_t *);
void		 daemon_step_forget(struct daemon *, struct server_client *);

/* daemon.c */
struct daemon *daemon_create(struct event_base *, int tick_fd,
	    const char *scenario, char **cause);
int	daemon_exiting(const struct daemon *);
int	daemon_load(struct daemon *, const char *scenario, char **cause);
int	daemon_switch(struct daemon *, const char *scenario, char **cause);
int	daemon_change(struct daemon *, const struct change *, char **cause);
int	daemon_compare(struct daemon *, const struct engine_policy *,
	    char **cause);
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
void	daemon_step_start(struct daemon *, uint64_t, int until_event,
	    struct server_client *);
int	daemon_step_cancel(struct daemon *, const char *why);
void	daemon_speed_to(struct daemon *, double, uint64_t tick,
	    const char *why);
void	daemon_seek_speed(struct daemon *, uint64_t tick);
void	daemon_shutdown(struct daemon *);
void	daemon_status(struct daemon *, struct proto_status *);
int	daemon_real(struct daemon *, int id, struct format_real *,
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
