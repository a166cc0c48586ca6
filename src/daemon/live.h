/*
 * live.h -- the live daemon around its session (live.c; its sessions
 * made in live-load.c, its room in live-room.c): the session run now
 * and the parts that serve it -- the clock (pacer.c), the real
 * processes (bridge.c), the output files (sinks.c) and what subscribers
 * are told (notes.c).  Commands act through it; frames read it.
 */
#ifndef STAIRS_LIVE_H
#define STAIRS_LIVE_H

#include <stddef.h>
#include <stdint.h>

struct bridge;
struct catalog;
struct change;
struct config;
struct engine;
struct engine_policy;
struct engine_task_info;
struct event_base;
struct notes;
struct pacer;
struct pacer_wait;
struct proto_status;
struct session;
struct sinks;
struct live;
struct whys;

/*
 * A live daemon configured by cfg (its strings are the live daemon's
 * from now on; the caller keeps no copy) and read from config_path
 * (NULL: defaults only), with no session yet.
 */
struct live	*live_create(const struct config *cfg,
		    const char *config_path);
void		 live_free(struct live *);
/* The first session: a built-in name, a file, NULL: the demo. */
int		 live_load(struct live *, const char *name, char **cause);
/*
 * Run on base (after detaching): the clock on tick_fd, the real tasks
 * spawned if real (the protocol fuzzer runs none).
 */
void		 live_begin(struct live *, struct event_base *, int tick_fd,
		    int real);
/* The end: the session's files ended, real children killed. */
void		 live_end(struct live *);
/* A new session was made: cb(arg), for the frames kept of the old. */
void		 live_on_load(struct live *, void (*)(void *), void *);

struct session	*live_session(const struct live *);
/* The engine shown: the past being viewed, else the present. */
const struct engine *live_engine(const struct live *);
const struct config *live_config(const struct live *);
struct notes	*live_notes(const struct live *);
struct pacer	*live_pacer(const struct live *);
struct bridge	*live_bridge(const struct live *);
struct sinks	*live_sinks(const struct live *);
struct event_base *live_base(const struct live *);
int		 live_exiting(const struct live *);
/* The scenarios this daemon knows by name. */
const struct catalog *live_catalog(const struct live *);
/* Each CPU's last why line, the shadows' too (whys.h). */
const struct whys *live_whys(const struct live *);

/* Catch the engine up to the wall clock (before a look or change). */
void		 live_catchup(struct live *);
/* A change through the session, journalled; CHANGE_ADD: the new id. */
int		 live_change(struct live *, const struct change *,
		    char **cause);
/*
 * A connection's answer to the room's question (SPEC.md section 12):
 * which question (live's number for it; 0: none) and the choice.
 */
struct live_vote {
	uint64_t	ask;
	int		choice;
};
/* `answer N`: 0, or -1 with *cause (no question open, N out of range). */
int		 live_answer(struct live *, struct live_vote *, int n,
		    char **cause);
/*
 * A recording replayed on the clock (stairsd --replay PATH, SPEC.md
 * section 12): the first session its part 1 (instead of live_load);
 * `part N` another part; its parts (0: not replaying) and the one
 * shown; its path.
 */
int		 live_replay(struct live *, const char *path, char **cause);
int		 live_part(struct live *, int part, int run, char **cause);
int		 live_parts(const struct live *, int *part);
const struct journal_part *live_part_info(const struct live *, int n);
const char	*live_replay_path(const struct live *);
/* The votes ("3,0,1"; "-": none) and the choices shown (NULL: none). */
const char	*live_votes(struct live *);
char *const	*live_choices(const struct live *, int *n);
/*
 * `load` and `reset`: a new session at tick 0, paused unless run; err
 * leaves the current one.
 */
int		 live_switch(struct live *, const char *name, int run,
		    char **cause);
/*
 * A client's load: parsed on a thread of its own while the loop goes
 * on, then switched to as live_switch does (paused unless run); w is
 * told "ok" or "err ...".  -1 with *cause when a load is under way
 * already, or a recording is replayed.
 */
int		 live_load_client(struct live *, const char *name, int run,
		    struct pacer_wait *w, char **cause);
/* The client waiting w went away. */
void		 live_load_forget(struct live *, struct pacer_wait *w);
int		 live_record(struct live *, const char *path, char **cause);
/* compare: up to three shadows' policies (n 0: off). */
int		 live_compare(struct live *,
		    const struct engine_policy *const *, int n, char **cause);
int		 live_seek(struct live *, uint64_t tick, char **cause);
/* The clock: each cancels a step under way first. */
void		 live_pause(struct live *, const char *why);
void		 live_resume(struct live *);
void		 live_step(struct live *, uint64_t n, int until_event,
		    struct pacer_wait *);
void		 live_status(struct live *, struct proto_status *,
		    int clients);
/* Task ti's line (of engine e), with a real task's part if real. */
size_t		 live_task_line(struct live *, const struct engine *,
		    const struct engine_task_info *, int real, char *,
		    size_t);
void		 live_shutdown(struct live *);
/* SIGHUP: read the configuration again, apply what can change live. */
void		 live_reload(struct live *);

#endif
