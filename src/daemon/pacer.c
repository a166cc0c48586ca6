/*
 * pacer.c -- the live daemon's clock: it runs the session's ticks
 * against the wall clock (struct clock, clock.c, says which are due), on
 * a periodic timerfd of its own.
 *
 * Three ways to run:
 * - ticking, with a real task alive and `batch` off: a wake-up each
 *   period (a tick, but at least 1 ms), every tick enforced on time;
 * - batching, with no real task alive (nothing outside the engine moves
 *   with the wall clock): a wake-up each 250 ms at most, and the engine
 *   caught up (pacer_catchup) before anything reads or changes it, so
 *   what is shown or changed lands at the tick the wall clock says;
 * - sleeping, with real tasks alive whose blocks and wakes the kernel's
 *   events bring at once: through the ticks engine_quiet promises change
 *   nothing, waking for the first that may, or earlier for a block or a
 *   wake (an early tick: procs_early, clock_early_ns).
 * A `step N` runs its ticks in slices of a few ms, each a turn of the
 * event loop, so other clients and signals are served meanwhile, and
 * tells whoever waits (struct pacer_wait) when it is over.
 */
#include <sys/timerfd.h>

#include <event2/event.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bridge.h"
#include "clock.h"
#include "config.h"
#include "engine.h"
#include "log.h"
#include "monotonic.h"
#include "notes.h"
#include "pacer.h"
#include "proc.h"
#include "protocol.h"
#include "session.h"
#include "sinks.h"
#include "xmalloc.h"

#define PACER_STEP_SLICE_NS	5000000ULL	/* a step's ticks per turn */
#define PACER_BATCH_NS		250000000ULL	/* longest sleep, batching */
#define PACER_BATCH_TICKS	1000		/* most ticks a batch owes */
#define PACER_QUIET_TICKS	50		/* most a sleeping clock owes */

/* A `step N` under way. */
struct pacer_step {
	struct event		*ev;		/* the next slice */
	uint64_t		 total, done;
	int			 active;
	struct pacer_wait	*wait;		/* told the reply; NULL */
	/*
	 * `step event`: stop after the tick that brought an event line (the
	 * line count as it started).  A caption is one too: every new
	 * caption, question or answer is narrated.
	 */
	int			 until_event;
	uint64_t		 event_seq;
	/*
	 * With real tasks alive the ticks take their wall time (at the
	 * speed), as when running, from t0: the children run for what
	 * the engine charges them.  Without, they run at once.
	 */
	int			 paced;
	uint64_t		 t0;
};

struct pacer {
	const struct config	*cfg;
	struct notes		*notes;
	struct sinks		*sinks;
	struct bridge		*bridge;
	struct pacer_hooks	 hooks;
	struct session		*session;
	struct event_base	*base;
	struct clock		 clock;
	struct event		*timer;		/* on tick_fd */
	struct event		*wake;		/* a real task woke */
	int			 tick_fd;	/* a periodic timerfd */
	int			 batched;	/* tick_fd armed for a batch */
	/*
	 * tick_fd armed past quiet ticks (pacer_sleeping), their number;
	 * in_ticks: running ticks (a change then re-arms after them).
	 */
	int			 sleeping;
	uint64_t		 quiet;
	int			 in_ticks;
	int			 stopped;	/* exiting: no more ticks */
	struct pacer_step	 step;
};

static void	pacer_arm(struct pacer *, uint64_t);
static void	pacer_step_slice(evutil_socket_t, short, void *);

/* A pacer for the daemon configured by cfg, paused, not running yet. */
struct pacer *
pacer_create(const struct config *cfg, struct notes *notes,
    struct sinks *sinks, struct bridge *bridge,
    const struct pacer_hooks *hooks)
{
	struct pacer	*p;

	p = xcalloc(1, sizeof *p);
	p->cfg = cfg;
	p->notes = notes;
	p->sinks = sinks;
	p->bridge = bridge;
	p->hooks = *hooks;
	p->tick_fd = -1;
	clock_init(&p->clock, 1.0, monotonic_ns(), 0);
	clock_pause(&p->clock);
	return (p);
}

/* Free the pacer and its events (its timerfd stays its owner's). */
void
pacer_free(struct pacer *p)
{
	if (p == NULL)
		return;
	if (p->timer != NULL)
		event_free(p->timer);
	if (p->wake != NULL)
		event_free(p->wake);
	if (p->step.ev != NULL)
		event_free(p->step.ev);
	free(p);
}

/* The session whose ticks are paced. */
void
pacer_session(struct pacer *p, struct session *s)
{
	p->session = s;
}

/* The clock's timer fired: run the ticks that are due. */
static void
pacer_timer(evutil_socket_t fd, short events, void *arg)
{
	uint64_t	expirations;

	(void)read(fd, &expirations, sizeof expirations);
	pacer_catchup(arg);
}

/* Run on base, with tick_fd; the clock goes from the session's tick. */
void
pacer_start(struct pacer *p, struct event_base *base, int tick_fd)
{
	p->base = base;
	p->tick_fd = tick_fd;
	p->timer = event_new(base, tick_fd, EV_READ | EV_PERSIST, pacer_timer,
	    p);
	event_add(p->timer, NULL);
	p->step.ev = evtimer_new(base, pacer_step_slice, p);
	pacer_arm(p, monotonic_ns());
}

/* Stop the clock, and the real tasks (if any) with it. */
static void
pacer_hold(struct pacer *p)
{
	clock_pause(&p->clock);
	if (bridge_procs(p->bridge) != NULL)
		procs_hold(bridge_procs(p->bridge));
}

/* A new session's clock: speed, from its present tick, paused or not. */
void
pacer_restart(struct pacer *p, double speed, int paused)
{
	clock_init(&p->clock, speed, monotonic_ns(), session_now(p->session));
	if (paused)
		pacer_hold(p);
	if (p->timer != NULL)
		pacer_arm(p, monotonic_ns());
}

/* Exiting: no more ticks, no more steps. */
void
pacer_stop(struct pacer *p)
{
	p->stopped = 1;
}

/*
 * Whether the clock may run in batches: no real task alive (nothing
 * outside the engine moves with the wall clock) and not disabled by
 * `batch = false`.
 */
static int
pacer_batching(struct pacer *p)
{
	return (p->cfg->batch && !bridge_real_live(p->bridge, p->session));
}

/*
 * Whether the clock may sleep through quiet ticks: real tasks alive,
 * whose blocks and wakes the kernel's events bring at once (procs_quiet
 * says whether it may now), and `batch` not turned off.  The ticks
 * engine_quiet promises run what the last one ran on every CPU, so no
 * real task need be signalled for them: the clock wakes for the first
 * tick that may change, runs the quiet ones before it at once (each
 * stamped with its own time: procs_stamp) and enforces that one.  A
 * wake or block between comes through the watched fd (pacer_woken) and
 * brings the next tick back to its own time.
 */
static int
pacer_sleeping(struct pacer *p)
{
	const struct engine	*e = session_live_engine(p->session);
	struct procs		*procs = bridge_procs(p->bridge);

	return (p->cfg->batch && procs != NULL &&
	    bridge_real_live(p->bridge, p->session) &&
	    engine_get_policy(e)->quiet != NULL && procs_quiet(procs) != -1);
}

/*
 * When tick became due (run, as ticking, on time): what a tick run late,
 * not the last of its run, is stamped with.
 */
uint64_t
pacer_due(const struct pacer *p, uint64_t tick)
{
	uint64_t	at = clock_next_ns(&p->clock, tick + 1), now;

	now = monotonic_ns();
	return (at < now ? at : now);
}

/*
 * How long a batching clock sleeps: PACER_BATCH_NS, but no longer than
 * PACER_BATCH_TICKS take at the speed (at speed 100, 10 ms), so that a
 * batch never holds up the loop much longer than ticking would; at
 * least 1 ms, the ticking clock's own shortest period.
 */
static uint64_t
pacer_batch_ns(const struct pacer *p)
{
	long double	ns = PACER_BATCH_TICKS * 1e6L / p->clock.speed;

	if (ns > PACER_BATCH_NS)
		return (PACER_BATCH_NS);
	if (ns < 1000000)
		return (1000000);
	return ((uint64_t)ns);
}

/*
 * From when the tick in progress may run early, for a block or wake the
 * real tasks' events brought (procs_early: how far ahead); 0 if nothing
 * asks.  pacer_catchup runs it, pacer_arm wakes for it.
 */
static uint64_t
pacer_early_ns(struct pacer *p)
{
	if (bridge_procs(p->bridge) == NULL)
		return (0);
	return (clock_early_ns(&p->clock, session_now(p->session),
	    procs_early(bridge_procs(p->bridge))));
}

/* Put at into its when, as a timerfd's absolute time. */
static void
pacer_at(struct timespec *when, uint64_t at)
{
	when->tv_sec = (time_t)(at / 1000000000ULL);
	when->tv_nsec = (long)(at % 1000000000ULL);
}

/*
 * Arm the clock's timerfd.  Ticking (a real task alive): first when the
 * next tick is due, then every period (one tick, but at least 1 ms: at
 * high speed one wake-up runs several ticks).  A periodic timerfd
 * re-arms itself in the kernel, so a wake-up costs one read(), not a
 * timerfd_settime() as libevent's own timers would.  Batching: once,
 * pacer_batch_ns() from now (or when the next tick is due, if later);
 * frames and commands catch the engine up in between (pacer_catchup)
 * and push the wake-up back.  Sleeping (pacer_sleeping): once, when the
 * first tick after the quiet ones is due, or sooner for an early tick
 * that could not run yet.  Paused or stopped: disarmed.
 */
static void
pacer_arm(struct pacer *p, uint64_t now)
{
	struct itimerspec	 its;
	struct procs		*procs = bridge_procs(p->bridge);
	uint64_t		 at, period, early;
	int			 run = !p->clock.paused && !p->stopped;

	memset(&its, 0, sizeof its);
	p->batched = 0;
	p->sleeping = run && pacer_sleeping(p);
	p->quiet = 0;
	/*
	 * The children's blocks wake the loop only while the clock sleeps
	 * (a ticking one reads them at the tick: a wake-up each is waste).
	 */
	if (procs != NULL)
		procs_block_wakeups(procs, p->sleeping);
	period = clock_period_ns(&p->clock);
	if (p->sleeping) {
		/* Once, at the first tick that may change. */
		if (procs_quiet(procs) == 1)
			p->quiet = session_quiet(p->session,
			    PACER_QUIET_TICKS);
		at = clock_next_ns(&p->clock, session_now(p->session) +
		    p->quiet + 1);
		/*
		 * An early tick asked for that could not run yet (the engine
		 * already at its lead, or asked by what the enforcing read,
		 * which takes the rings' readiness): when it may.
		 */
		if ((early = pacer_early_ns(p)) != 0 && early < at)
			at = early;
		if (p->clock.speed > 1 && at < now + period)
			at = now + period;
		pacer_at(&its.it_value, at);
	} else if (run && pacer_batching(p)) {
		p->batched = 1;
		at = clock_next_ns(&p->clock, session_now(p->session) + 1);
		if (at < now + pacer_batch_ns(p))
			at = now + pacer_batch_ns(p);
		pacer_at(&its.it_value, at);
	} else if (run) {
		at = clock_next_ns(&p->clock, session_now(p->session) + 1);
		if (p->clock.speed > 1 && at < now + period)
			at = now + period;
		pacer_at(&its.it_value, at);
		pacer_at(&its.it_interval, period);
	}
	if (timerfd_settime(p->tick_fd, TFD_TIMER_ABSTIME, &its, NULL) != 0)
		fatal("timerfd_settime");
}

/*
 * Run the ticks the wall clock says are due.  The timer calls it, and so
 * does every way in that shows or changes the engine, once, first: a
 * frame, a command (pause, speed and shutdown too) and a signal (exit,
 * reload).  With the clock batching, the engine is first caught up to
 * the tick the wall clock says, so what it shows or changes lands at the
 * same tick as if it had ticked all along.  Batching, the ticks slept
 * through on purpose are run, not lag.
 */
void
pacer_catchup(struct pacer *p)
{
	uint64_t	now, n, allow = 0, early;
	int		enforced = 1;	/* the last tick run was */
	double		speed = p->clock.speed;

	/* A real task came or went (a ticking clock is not re-armed). */
	bridge_off(p->bridge, p->session);
	if (p->clock.paused || p->stopped || p->timer == NULL)
		return;
	now = monotonic_ns();
	if (p->batched)
		allow = clock_ticks_in(&p->clock, pacer_batch_ns(p));
	else if (p->sleeping)
		allow = p->quiet;
	n = clock_take_more(&p->clock, now, session_now(p->session), allow);
	/*
	 * Sleeping, a task the engine runs blocked (its CPU idles until
	 * the tick in progress runs) or a wake was acted on (the engine is
	 * to hear of it at that tick): run it now, before its time, as
	 * the kernel's schedule() would not wait (pacer_early_ns).
	 */
	if (n == 0 && p->sleeping && (early = pacer_early_ns(p)) != 0 &&
	    now >= early)
		n = 1;
	/* A scenario's pause, ask or speed event ends the run here. */
	p->in_ticks = 1;
	while (n-- > 0 && !p->stopped && !p->clock.paused &&
	    p->clock.speed == speed)
		p->hooks.tick(p->hooks.arg, (enforced = n == 0));
	/*
	 * A lesson's speed ended the run early: enforce its end (a pause
	 * held every real task, as it should stay).
	 */
	if (!enforced && !p->clock.paused && !p->stopped)
		p->hooks.enforce(p->hooks.arg);
	p->in_ticks = 0;
	/*
	 * Batching: sleep a full batch again; sleeping: to the next tick
	 * that may change; or the mode changed.
	 */
	if (p->batched || p->sleeping || pacer_batching(p) != p->batched ||
	    pacer_sleeping(p))
		pacer_arm(p, now);
}

/*
 * The engine changed from outside.  A real task added to a batching
 * clock: back to ticking; a sleeping clock's quiet ticks may end sooner.
 */
void
pacer_changed(struct pacer *p)
{
	if (p->timer != NULL && !p->clock.paused && !p->in_ticks &&
	    (pacer_batching(p) != p->batched || p->sleeping ||
	    pacer_sleeping(p)))
		pacer_arm(p, monotonic_ns());
}

/* A real task woke (the kernel's event): act on it now, not at the tick. */
static void
pacer_woken(evutil_socket_t fd, short events, void *arg)
{
	struct pacer	*p = arg;
	struct procs	*procs = bridge_procs(p->bridge);

	if (procs == NULL)
		return;
	procs_wakeups(procs);
	/*
	 * A sleeping clock: the ticks slept through so far run now, the
	 * last of them telling the engine (none due: it hears of it at the
	 * next tick, at its own time).
	 */
	if (p->sleeping && procs_quiet(procs) != 1)
		pacer_catchup(p);
}

/* Watch fd for the real tasks' wakes; -1 stops. */
void
pacer_watch(struct pacer *p, int fd)
{
	if (p->wake != NULL) {
		event_free(p->wake);
		p->wake = NULL;
	}
	if (fd == -1 || p->base == NULL)
		return;
	p->wake = event_new(p->base, fd, EV_READ | EV_PERSIST, pacer_woken,
	    p);
	event_add(p->wake, NULL);
}

/*
 * A sleeping clock behind the wall clock: the ticks due run next, the
 * last one with a wake, which shows from its tick (a wake stamped now
 * would map onto the last tick run, before it happened).
 */
int
pacer_behind(const struct pacer *p)
{
	return (p->sleeping && clock_due(&p->clock, monotonic_ns()) >
	    session_now(p->session));
}

/* Stop the clock (the caller caught the engine up); files flushed. */
void
pacer_pause(struct pacer *p)
{
	pacer_hold(p);
	if (p->timer != NULL)
		pacer_arm(p, monotonic_ns());
	sinks_flush(p->sinks);
	notes_changed(p->notes);
}

/* Restart the clock from the session's present tick. */
void
pacer_resume(struct pacer *p)
{
	uint64_t	now = monotonic_ns();

	clock_resume(&p->clock, now, session_now(p->session));
	if (bridge_procs(p->bridge) != NULL)
		procs_release(bridge_procs(p->bridge));
	if (p->timer != NULL)
		pacer_arm(p, now);
	notes_changed(p->notes);
}

/* Is the clock paused? */
int
pacer_paused(const struct pacer *p)
{
	return (p->clock.paused);
}

/* The clock's speed, ticks per ms. */
double
pacer_speed(const struct pacer *p)
{
	return (p->clock.speed);
}

/* Ticks the clock dropped after late wake-ups. */
uint64_t
pacer_lag(const struct pacer *p)
{
	return (p->clock.lag);
}

/* Change the speed from now on (the engine caught up at the old one). */
void
pacer_set_speed(struct pacer *p, double speed)
{
	uint64_t	now = monotonic_ns();

	clock_set_speed(&p->clock, speed, now, session_now(p->session));
	if (!p->clock.paused && p->timer != NULL)
		pacer_arm(p, now);
	notes_changed(p->notes);
}

/*
 * Change the clock's speed and say so, as having happened at tick:
 * "speed A -> B" and why (text to add, "" for none).
 */
void
pacer_speed_to(struct pacer *p, double speed, uint64_t tick, const char *why)
{
	char	a[32], b[32];

	protocol_format_speed(p->clock.speed, a, sizeof a);
	protocol_format_speed(speed, b, sizeof b);
	pacer_set_speed(p, speed);
	notes_add(p->notes, tick, "speed %s -> %s%s", a, b, why);
}

/* Has `step event` found one? */
static int
pacer_step_found(const struct pacer *p)
{
	return (p->step.until_event &&
	    notes_seq(p->notes) != p->step.event_seq);
}

/* When the step's tick number done is due, paced (CLOCK_MONOTONIC ns). */
static uint64_t
pacer_step_due(const struct pacer *p, uint64_t done)
{
	return (p->step.t0 + (uint64_t)((long double)done * 1e6L /
	    p->clock.speed));
}

/*
 * Run the step's ticks until it is done, the slice's time is up, or
 * (paced) the next tick is not due yet; 1 when the step is over.
 */
static int
pacer_step_run(struct pacer *p)
{
	struct procs	*procs = bridge_procs(p->bridge);
	uint64_t	 end = monotonic_ns() + PACER_STEP_SLICE_NS;

	while (p->step.done < p->step.total && !p->stopped) {
		if (p->step.paced &&
		    monotonic_ns() < pacer_step_due(p, p->step.done))
			break;
		p->hooks.tick(p->hooks.arg, 1);
		p->step.done++;
		if (pacer_step_found(p))
			break;
		if ((p->step.done & 15) == 0 && monotonic_ns() >= end)
			break;
	}
	/* Run in no wall time, real tasks (if any) stay stopped. */
	if (!p->step.paced && procs != NULL && p->clock.paused)
		procs_hold(procs);
	if (p->step.done < p->step.total && !pacer_step_found(p))
		return (0);
	/* Paced: the last tick's time too, before the children stop. */
	return (!p->step.paced ||
	    monotonic_ns() >= pacer_step_due(p, p->step.done));
}

/*
 * The step is over, done or cancelled (why says by what): say so, and
 * tell whoever waits "ok" or the err line.
 */
static void
pacer_step_end(struct pacer *p, const char *why)
{
	struct pacer_wait	*w = p->step.wait;
	struct procs		*procs = bridge_procs(p->bridge);
	unsigned long long	 done = p->step.done, total = p->step.total;
	uint64_t		 now = session_now(p->session);
	char			 line[160];

	p->step.active = 0;
	p->step.wait = NULL;
	evtimer_del(p->step.ev);
	/* Paced, the children ran between its ticks: stopped again. */
	if (p->step.paced && procs != NULL && p->clock.paused)
		procs_hold(procs);
	sinks_flush(p->sinks);
	if (why == NULL && p->step.until_event) {
		/* The event found says what happened; none: say so. */
		if (!pacer_step_found(p))
			notes_add(p->notes, now, "stepped %llu tick%s: no "
			    "event", done, done == 1 ? "" : "s");
		snprintf(line, sizeof line, "ok %llu\n", done);
	} else if (why == NULL) {
		notes_add(p->notes, now, "stepped %llu tick%s", total,
		    total == 1 ? "" : "s");
		snprintf(line, sizeof line, "ok\n");
	} else {
		notes_add(p->notes, now, "step cancelled after %llu of %llu "
		    "ticks (%s)", done, total, why);
		snprintf(line, sizeof line, "err step cancelled after %llu of "
		    "%llu ticks (%s)\n", done, total, why);
	}
	if (w != NULL)
		w->done(w, line);
}

/* The next slice of the step. */
static void
pacer_step_slice(evutil_socket_t fd, short events, void *arg)
{
	struct pacer	*p = arg;
	struct timeval	 tv = { 0, 0 };
	uint64_t	 now, due;

	if (!p->step.active || p->stopped)
		return;
	if (pacer_step_run(p)) {
		pacer_step_end(p, NULL);
		return;
	}
	if (p->step.paced &&
	    (due = pacer_step_due(p, p->step.done)) > (now = monotonic_ns())) {
		tv.tv_sec = (time_t)((due - now) / 1000000000ULL);
		tv.tv_usec = (suseconds_t)((due - now) % 1000000000ULL / 1000);
	}
	evtimer_add(p->step.ev, &tv);
}

/*
 * Start running n ticks (pausing the clock first), for wait (or NULL),
 * which is told "ok" when they have run; until_event: until the tick
 * that brings an event line, at most n ("ok T", the ticks run).  A step
 * already under way is cancelled.  The first slice runs now: a short
 * step is done at once.
 */
void
pacer_step(struct pacer *p, uint64_t n, int until_event,
    struct pacer_wait *wait)
{
	struct procs	*procs = bridge_procs(p->bridge);

	pacer_step_cancel(p, "a new step");
	if (!p->clock.paused) {
		pacer_pause(p);
		notes_add(p->notes, session_now(p->session), "paused");
	}
	p->step.total = n;
	p->step.done = 0;
	p->step.wait = wait;
	p->step.active = 1;
	p->step.until_event = until_event;
	p->step.event_seq = notes_seq(p->notes);
	p->step.paced = procs != NULL &&
	    bridge_real_live(p->bridge, p->session);
	p->step.t0 = monotonic_ns();
	/* The blocked ones may wake, as when running (procs_hold took). */
	if (p->step.paced)
		procs_release(procs);
	pacer_step_slice(-1, 0, p);
}

/* Cancel the step under way, if any (why: by what); 1 if there was one. */
int
pacer_step_cancel(struct pacer *p, const char *why)
{
	if (!p->step.active)
		return (0);
	pacer_step_end(p, why);
	return (1);
}

/* Is w waiting for the step under way? */
int
pacer_step_of(const struct pacer *p, const struct pacer_wait *w)
{
	return (p->step.active && p->step.wait == w);
}

/* A waiter is gone: a step it waited for runs on, telling no one. */
void
pacer_step_forget(struct pacer *p, struct pacer_wait *w)
{
	if (p->step.wait == w)
		p->step.wait = NULL;
}
