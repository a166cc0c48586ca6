/*
 * proc-wake.c -- the kernel's records acted on as they are read, between
 * ticks too: a wake of a task the engine holds asleep because it blocked
 * is acted on at once (proc_enforce_wake: stop what it preempts, or stop
 * it until it is picked), and a wake of a task held stopped asks for a
 * look (continued from outside?).  procs_wakeups is the loop's call when
 * the events' descriptor is readable; after a tick's signals,
 * proc_wake_settle reads what they made.  proc-ring.c reads the rings
 * and hands each record to proc_wake_calls (given to proc_event_start):
 * wakes to this file, switches and lost records to proc-kernel.c.
 */
#include <stdint.h>

#include "monotonic.h"
#include "proc-int.h"

/*
 * A wake-up of pid at time ts: the kernel says it is runnable; if it
 * belongs to a task we put to sleep because it blocked, act on it at
 * once (proc_enforce_wake).
 */
static void
proc_wake_record(struct procs *ps, pid_t pid, uint64_t ts)
{
	struct proc		*p;
	struct proc_member	*m;

	if ((p = proc_kernel_find(ps, pid, &m)) == NULL)
		return;
	ps->evstats.wakeups++;
	proc_kernel_state(m, ts, 'r');
	if (p->stopped) {
		/*
		 * Held, and woken after our stop: a SIGCONT from outside, a
		 * kill, or (a sleep the stop could not interrupt ending, a
		 * record stamped late) nothing: look (proc_spawn_continued
		 * decides).  Before our stop, our own signals' wakes.
		 */
		if (ts > p->stop_ns)
			ps->ev_held_woke = 1;
	} else if (p->watch && !p->ev_woken) {
		p->ev_woken = 1;
		ps->ev_news = 1;
		if (ps->ev_early < 1)
			ps->ev_early = 1;
		proc_enforce_wake(ps, p, ts);
	}
}

/* Where the rings' records go (proc_event_start). */
const struct proc_ring_calls proc_wake_calls = {
	proc_wake_record,	/* a sched_waking */
	proc_kernel_switch,	/* a sched_switch */
	proc_kernel_lost		/* records lost */
};

/*
 * A task we hold stopped woke: continued from outside (or killed)?  Look
 * now, not at the next tick: paused, there is none.
 */
static void
proc_wake_look(struct procs *ps)
{
	if (ps->ev_held_woke || ps->ev_lost)
		proc_spawn_wait(ps);
}

/* The descriptor to watch for wakes (readable: call procs_wakeups). */
int
procs_event_fd(struct procs *ps)
{
	return (ps->ev != NULL ? ps->ev->epfd : -1);
}

/*
 * The event descriptor is readable: take its readiness and act on the
 * wakes recorded since (the loop calls this as soon as one arrives).
 */
void
procs_wakeups(struct procs *ps)
{
	if (ps->ev == NULL)
		return;
	ps->evstats.readies++;
	ps->ev->read_ns = monotonic_ns();	/* the loop's own part from here */
	proc_ring_unready(ps);
	ps->evstats.ready_wakes += proc_ring_read_set(ps, &ps->ev->set,
	    NULL);
	proc_wake_look(ps);
}

/*
 * After the tick's signals (procs_enforce): read the records they made
 * (our continues) and any wake since, so the loop does not wake for
 * them.
 */
void
proc_wake_settle(struct procs *ps)
{
	proc_ring_read(ps);
	proc_wake_look(ps);
}
