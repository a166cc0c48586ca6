/*
 * pacer.h -- the live daemon's clock (pacer.c): when the session's
 * ticks run against the wall clock -- ticking, in batches, or sleeping
 * through quiet ticks -- with early ticks for what real tasks did,
 * catching up before anything reads or changes the engine, and `step`.
 */
#ifndef STAIRS_PACER_H
#define STAIRS_PACER_H

#include <stdint.h>

struct bridge;
struct config;
struct event_base;
struct notes;
struct pacer;
struct session;
struct sinks;

/* What the pacer asks of its owner (the live daemon). */
struct pacer_hooks {
	/*
	 * Run one tick of the session; last: the last of those run now
	 * (the present: it observes and enforces real tasks).
	 */
	void	(*tick)(void *, int last);
	/* A run of ticks cut short (a lesson's speed): enforce the last. */
	void	(*enforce)(void *);
	void	 *arg;
};

/*
 * Who waits for the end of a `step`: done is called once with its reply
 * line ("ok\n", "ok N\n" or "err …\n"), unless pacer_step_forget says
 * the waiter has gone first.
 */
struct pacer_wait {
	void	(*done)(struct pacer_wait *, const char *line);
};

struct pacer	*pacer_create(const struct config *, struct notes *,
		    struct sinks *, struct bridge *,
		    const struct pacer_hooks *);
void		 pacer_free(struct pacer *);
/* Run on base with tick_fd (a timerfd); until then nothing ticks. */
void		 pacer_start(struct pacer *, struct event_base *, int tick_fd);
/* The session whose ticks it paces (at a load: a new one, at tick). */
void		 pacer_session(struct pacer *, struct session *);
/* A new session's clock: speed from its tick, paused or not. */
void		 pacer_restart(struct pacer *, double speed, int paused);
/* Watch fd for the real tasks' wakes (-1: none). */
void		 pacer_watch(struct pacer *, int fd);
/* Exiting: no more ticks. */
void		 pacer_stop(struct pacer *);

/* Run the ticks the wall clock says are due, before a look or change. */
void		 pacer_catchup(struct pacer *);
/* The engine changed from outside (a command, a real task). */
void		 pacer_changed(struct pacer *);
/* Is a sleeping clock behind the wall clock (a wake lands later)? */
int		 pacer_behind(const struct pacer *);
/* When tick became due (what a tick run late is stamped with). */
uint64_t	 pacer_due(const struct pacer *, uint64_t tick);

void		 pacer_pause(struct pacer *);
void		 pacer_resume(struct pacer *);
int		 pacer_paused(const struct pacer *);
double		 pacer_speed(const struct pacer *);
uint64_t	 pacer_lag(const struct pacer *);
/* Change the speed as of tick, saying so ("speed A -> B" and why). */
void		 pacer_speed_to(struct pacer *, double speed, uint64_t tick,
		    const char *why);
/* The configuration's speed changed (a reload). */
void		 pacer_set_speed(struct pacer *, double speed);

/*
 * Run n ticks (pausing the clock first); until_event: until the tick
 * that brings an event line, at most n.  wait (or NULL) is told the
 * reply when they have run.  A step under way is cancelled first.
 */
void		 pacer_step(struct pacer *, uint64_t n, int until_event,
		    struct pacer_wait *);
/* Cancel the step under way (why: by what); 1 if there was one. */
int		 pacer_step_cancel(struct pacer *, const char *why);
/* Is this waiter's the step under way (not a load's wait, say)? */
int		 pacer_step_of(const struct pacer *, const struct pacer_wait *);
/* A waiter went away: the step runs on with no one to tell. */
void		 pacer_step_forget(struct pacer *, struct pacer_wait *);

#endif
