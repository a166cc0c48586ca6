/*
 * bridge.h -- what real child processes add to the live daemon's ticks
 * (bridge.c): the real-process layer (src/real/) for the session, the
 * scenario's real tasks spawned once the daemon is ready, what the
 * kernel ran beside what the engine decided, and the loop kept off the
 * children's CPUs.
 */
#ifndef STAIRS_BRIDGE_H
#define STAIRS_BRIDGE_H

#include <stddef.h>
#include <stdint.h>

struct change;
struct config;
struct engine;
struct format_real;
struct notes;
struct procs;
struct runs;
struct scenario_task;
struct session;
struct sinks;
struct bridge;

/* What the bridge tells its owner (the live daemon). */
struct bridge_hooks {
	/* A block, wake or exit seen on a real process: a change. */
	int	(*change)(void *, const struct change *, char **cause);
	/* A woken task let run at once on engine CPU cpu, at ns. */
	void	(*woke)(void *, int cpu, int task, int rank, uint64_t ns);
	void	 *arg;
};

struct bridge	*bridge_create(const struct config *, struct notes *,
		    struct sinks *);
void		 bridge_free(struct bridge *);

/*
 * A scenario's real task, met as its session is made (a session_setup's
 * spawn): its program checked now, spawned by bridge_start.  The first
 * argument is the bridge.
 */
int		 bridge_pending(void *, struct engine *, int id,
		    const struct scenario_task *, char **cause);
/* A session that failed to start: its real tasks are not spawned. */
void		 bridge_pending_drop(struct bridge *);

/* Start the real-process layer for session s; end it. */
void		 bridge_start(struct bridge *, struct session *,
		    const struct bridge_hooks *);
void		 bridge_stop(struct bridge *);
/* The session's present engine changed (a branch). */
void		 bridge_set_engine(struct bridge *, const struct engine *);

/* The layer (NULL before bridge_start, or where it is not run). */
struct procs	*bridge_procs(const struct bridge *);
/* Is a real task of session s alive (cached on the task counts)? */
int		 bridge_real_live(struct bridge *, struct session *);
/* The counts changed beyond what the cache can see (a branch). */
void		 bridge_forget(struct bridge *);
/* Keep the loop off the children's CPUs while a real task lives. */
void		 bridge_off(struct bridge *, struct session *);

/*
 * A tick: what the children did, read before it (the last of several
 * run at once only); after it, make them do what it decided and settle
 * what the kernel ran; or, not the last, stamp it with its time.
 */
void		 bridge_observe(struct bridge *);
void		 bridge_enforce(struct bridge *, struct session *,
		    uint64_t tick);
void		 bridge_stamp(struct bridge *, uint64_t ns);
/* The kernel's last runs into the Perfetto trace, before it closes. */
void		 bridge_perfetto_end(struct bridge *, struct session *);

/* A real task's part of its line; -1 if it has none. */
int		 bridge_real(struct bridge *, int id, struct format_real *,
		    char *exitbuf, size_t len);
/* Why a real task ended, as its process says; -1 if it does not. */
int		 bridge_exit_reason(struct bridge *, int id, char *buf,
		    size_t len);
/* What the kernel ran, tick by tick (NULL: not known). */
const struct runs *bridge_kruns(const struct bridge *);

#endif
