/*
 * proc-tick.c -- the real-process layer around each engine tick (proc.h):
 * before it, procs_observe tells the engine which real tasks blocked or
 * woke, from the kernel's records where they say (proc-event.c,
 * proc-ring.c, proc-kernel.c) and from /proc where they cannot
 * (proc-sample.c); after it, procs_enforce makes the children obey the
 * tick (proc-enforce.c) and reads the records its own signals made.  And
 * may a loop sleep through ticks that change nothing (procs_quiet), or
 * should it run the one in progress early (procs_early)?  It and
 * proc-life.c stand on top: they call into the jobs below, none calls
 * them.
 */
#include <stdlib.h>

#include "change.h"
#include "engine.h"
#include "log.h"
#include "monotonic.h"
#include "proc-int.h"

#define PROC_SWEEP_NS		(500 * 1000000ULL)	/* members, at most */
#define PROC_LOOK_TICKS		4	/* state of blocked tasks, every */
#define PROC_CPUTIME_NS		(100 * 1000000ULL)	/* measured CPU time */
#define PROC_EVENT_LOOK_NS	100000000ULL	/* with events: /proc look,
						   every (100 ms) */

/* Before a tick: tell the engine which real tasks blocked or woke. */
void
procs_observe(struct procs *ps)
{
	struct engine_task_info	 ti;
	struct proc		*p;
	uint64_t		 now = monotonic_ns();
	char			*cause;
	int			 i, swept = 0, woken, blocked, look;

	ps->ticks++;
	/* The safety net's look, every PROC_EVENT_LOOK_NS of wall time. */
	if ((look = now - ps->last_look >= PROC_EVENT_LOOK_NS))
		ps->last_look = now;
	if (ps->ev != NULL) {
		proc_event_filter(ps);
		proc_ring_read(ps);
		ps->ev_news = 0;	/* what was read is applied below */
		ps->ev_early = 0;
	}
	/*
	 * Reap, and see a continue from outside.  With events the loop
	 * reaps on SIGCHLD and a held task's wake asks for a look: the poll
	 * (~2.5 µs, more with more children) runs only then, and every
	 * PROC_EVENT_LOOK_NS or after a loss of records as a safety net.
	 */
	if (ps->ev == NULL || ps->ev_lost || ps->ev_held_woke || look)
		proc_spawn_wait(ps);
	if (now - ps->last_cap >= PROC_SWEEP_NS) {
		ps->last_cap = now;
		proc_sample_cap(ps);
	}
	/* At most every 500 ms, fork or not (the look is a /proc read). */
	if (now - ps->last_sweep >= PROC_SWEEP_NS) {
		if (proc_sample_forked(ps)) {
			proc_sample_sweep(ps, now);
			swept = 1;
		} else
			ps->last_sweep = now;
	}
	for (i = 1; i < ps->nt; i++) {
		if ((p = ps->t[i]) == NULL || !p->live)
			continue;
		proc_sample_settle(p);	/* the last stop, once it landed */
		/* Stopped, unless woken and stopped until it is picked. */
		if (p->stopped && !(p->watch && p->ev_woken))
			continue;
		if (engine_task_info(ps->e, p->id, &ti) != 0)
			continue;
		cause = NULL;
		if (ti.state == ENGINE_RUNNABLE && ti.running) {
			/*
			 * The kernel's switches say, where they can (and
			 * no record was lost); /proc now and then anyway.
			 */
			blocked = -1;
			if (!ps->ev_lost && !look)
				blocked = proc_kernel_blocked(ps, p);
			if (blocked == -1)
				blocked = proc_sample_blocked(p);
			else if (blocked)
				ps->evstats.blocks++;
			if (!blocked)
				continue;
			/* A new member may be running: look before deciding. */
			if (!swept && p->forked && proc_sample_forked(ps)) {
				proc_sample_sweep(ps, now);
				swept = 1;
				if (!proc_sample_blocked(p))
					continue;
			}
			/* Over the window, baselines are per member. */
			if (p->nm <= PROC_WINDOW)
				p->blocked_pcount = proc_sample_pcount(p);
			p->watch = 1;
			p->ev_woken = 0;
			proc_sample_unpick(p, 0);
			if (proc_change(ps, CHANGE_BLOCK, p->id, &cause) != 0)
				goto warn;
		} else if (ti.state == ENGINE_SLEEPING && !ti.injected) {
			if (ps->ev != NULL) {
				/*
				 * The kernel said so, or (records lost, or
				 * now and then for other threads) /proc.
				 */
				woken = p->ev_woken || ((ps->ev_lost ||
				    look) &&
				    proc_sample_woken(p, 1));
			} else
				woken = proc_sample_woken(p,
				    ps->ticks % PROC_LOOK_TICKS == 0);
			if (!woken)
				continue;
			p->watch = 0;
			if (proc_change(ps, CHANGE_WAKE, p->id, &cause) != 0)
				goto warn;
			/*
			 * Blocked again already (a short run, its block read
			 * with the wake): the engine hears of that at the next
			 * tick, which a sleeping clock must not sleep past.
			 */
			if (proc_kernel_blocked(ps, p) == 1)
				ps->ev_news = 1;
		}
		continue;
warn:
		log_warnx("task %s: %s", p->name, cause);
		free(cause);
	}
	ps->ev_lost = 0;
	if (now - ps->last_cputime >= PROC_CPUTIME_NS) {
		ps->last_cputime = now;
		for (i = 1; i < ps->nt; i++) {
			if ((p = ps->t[i]) == NULL || !p->live || !p->ran)
				continue;
			proc_sample_cputime(p);
			p->ran = !p->stopped;
		}
	}
}

/*
 * After a tick: continue and pin what the engine ran, stop the rest
 * (proc_enforce_tick), the tick stamped as enforced now; then read the
 * records those signals made (our continues) and any wake since.
 */
void
procs_enforce(struct procs *ps)
{
	procs_stamp(ps, monotonic_ns());
	proc_enforce_tick(ps);
	if (ps->ev != NULL)
		proc_wake_settle(ps);
}

/* May the caller sleep through quiet ticks?  See proc.h. */
int
procs_quiet(struct procs *ps)
{
	if (!proc_event_blocks(ps))
		return (-1);
	return (proc_event_blocks_on(ps) && !ps->ev_news && !ps->ev_lost &&
	    !ps->ev_held_woke && !ps->members_changed && !ps->held_all);
}

/* Run the tick in progress early, for what was read?  proc.h. */
int
procs_early(struct procs *ps)
{
	return (ps->ev != NULL ? ps->ev_early : 0);
}
