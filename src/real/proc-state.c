/*
 * proc-state.c -- the real-process layer's state as its files read it
 * (the structs of proc-int.h): a task by id or by process group, the
 * clock, what goes out of the layer (a change for the engine, a notice
 * for users, a signal to a task), and what callers ask of it that needs
 * no work: how it observes and what that saw, the ticks' time line (each
 * stamped when enforced), the CPU map, the cgroups of groups.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cgroup.h"
#include "change.h"
#include "engine.h"
#include "log.h"
#include "proc-int.h"
#include "xmalloc.h"

/* Find a task by its process group. */
struct proc *
proc_by_pid(struct procs *ps, pid_t pid)
{
	int	i;

	for (i = 1; i < ps->nt; i++) {
		if (ps->t[i] != NULL && ps->t[i]->live &&
		    ps->t[i]->pid == pid)
			return (ps->t[i]);
	}
	return (NULL);
}

/* The task of an id, NULL if it is not a real task we know. */
struct proc *
proc_get(struct procs *ps, int id)
{
	if (id <= 0 || id >= ps->nt)
		return (NULL);
	return (ps->t[id]);
}

/*
 * Tell the engine's owner that task id was seen blocked, runnable again
 * or dead (kind: CHANGE_BLOCK, CHANGE_WAKE, CHANGE_EXIT): the layer never
 * changes the engine itself.  0, or -1 with *cause.
 */
int
proc_change(struct procs *ps, int kind, int id, char **cause)
{
	struct change	ch;

	if (ps->change == NULL) {
		*cause = xstrdup("no change callback");
		return (-1);
	}
	memset(&ch, 0, sizeof ch);
	ch.kind = (enum change_kind)kind;
	ch.task = id;
	return (ps->change(ps->change_arg, &ch, cause));
}

/*
 * Something the caller's users should hear of (a continue from outside, a
 * replaced watchdog, a process tree past its cap): logged, and handed to
 * the caller's notice callback, which the daemon turns into an event.
 */
void
proc_notice(struct procs *ps, const char *fmt, ...)
{
	va_list	 ap;
	char	 text[512];

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	log_warnx("%s", text);
	if (ps->notice != NULL)
		ps->notice(ps->notice_arg, text);
}

/* Send a signal to a task's process group. */
void
proc_signal(struct proc *p, int sig)
{
	if (kill(-p->pid, sig) != 0 && errno != ESRCH)
		log_warn("task %s: kill %d", p->name, sig);
}

/*
 * The engine to read from now on: the session's present after a branch
 * (a seek, then resume), which only a session without real tasks makes,
 * so no task of the layer's changes.
 */
void
procs_set_engine(struct procs *ps, const struct engine *e)
{
	ps->e = e;
}

/* "v2", "v1" or "none". */
const char *
procs_cgroup_mode(struct procs *ps)
{
	return (ps->cg != NULL ? cgroup_mode(ps->cg) : "none");
}

/* The pids cgroup holding max_task_procs: "v2", "v1" or "none". */
const char *
procs_pids_mode(struct procs *ps)
{
	return (ps->pids != NULL ? "v1" : "none");
}

/* How wakes of blocked tasks are seen: "events" or "proc". */
const char *
procs_observe_mode(struct procs *ps)
{
	return (ps->ev != NULL ? "events" : "proc");
}

/* What the event reader saw. */
void
procs_event_stats(struct procs *ps, struct procs_event_stats *st)
{
	*st = ps->evstats;
}

/*
 * When the decisions of the tick just run take effect (procs_tick_ns): ns.
 * procs_enforce stamps the present; a tick run late with others (which
 * ran what the one before it ran) its own time.
 */
void
procs_stamp(struct procs *ps, uint64_t ns)
{
	uint64_t	tick;

	if ((tick = engine_now(ps->e)) == 0)
		return;
	tick--;
	/*
	 * After the tick before it (a late one's stamp is now): a window of
	 * a ns still says what ran then, where none would say nothing.
	 */
	if (tick > 0 && procs_tick_ns(ps, tick - 1) >= ns)
		ns = procs_tick_ns(ps, tick - 1) + 1;
	ps->tick_ns[tick % PROC_TICK_TIMES] = ns;
	ps->tick_of[tick % PROC_TICK_TIMES] = tick + 1;
	if (ps->tick_first == 0 || tick + 1 < ps->tick_first)
		ps->tick_first = tick + 1;
}

/* When the decisions of tick were enforced, CLOCK_MONOTONIC; 0: unknown. */
uint64_t
procs_tick_ns(struct procs *ps, uint64_t tick)
{
	if (ps->tick_of[tick % PROC_TICK_TIMES] != tick + 1)
		return (0);
	return (ps->tick_ns[tick % PROC_TICK_TIMES]);
}

/* A kernel time on the engine's time line (proc.h). */
uint64_t
procs_engine_ns(struct procs *ps, uint64_t ns)
{
	uint64_t	lo, hi, mid, last, at, off;

	if ((last = engine_now(ps->e)) == 0)
		return (0);
	last--;				/* the last tick enforced */
	lo = last >= PROC_TICK_TIMES ? last - PROC_TICK_TIMES + 1 : 0;
	/* Ticks before the layer came (a spawn mid-run) have no stamp. */
	if (ps->tick_first > 0 && ps->tick_first - 1 > lo)
		lo = ps->tick_first - 1;
	while (lo < last && procs_tick_ns(ps, lo) == 0)
		lo++;			/* any other tick not enforced */
	if ((at = procs_tick_ns(ps, lo)) == 0 || ns <= at)
		return (lo * 1000000ULL);
	/* The last tick in [lo, last] enforced at or before ns. */
	hi = last;
	while (lo < hi) {
		mid = lo + (hi - lo + 1) / 2;
		at = procs_tick_ns(ps, mid);
		if (at != 0 && at <= ns)
			lo = mid;
		else
			hi = mid - 1;
	}
	off = ns - procs_tick_ns(ps, lo);
	if (off > 999000)
		off = 999000;		/* 1 us before the next tick */
	return (lo * 1000000ULL + off);
}

/* The watchdog's pid, 0 if there is none. */
pid_t
procs_watchdog(struct procs *ps)
{
	return (ps->watchdog);
}

/* The cgroup directory of an engine group, NULL without one. */
const char *
procs_cgroup_path(struct procs *ps, int group)
{
	if (ps->cg == NULL)
		return (NULL);
	return (cgroup_group_path(ps->cg, group));
}

/* The physical CPU of an engine CPU. */
int
procs_phys_cpu(struct procs *ps, int cpu)
{
	if (cpu < 0 || cpu >= ps->ncpus)
		return (-1);
	return (ps->map[cpu]);
}

/*
 * The CPUs of ours that no engine CPU is mapped to, for a loop to keep
 * off its children's (each of its wake-ups on one preempts the child
 * there); all of ours unless two are left: confined to one, a loop at
 * SCHED_FIFO is starved there by any other real-time task (seen under
 * the suite's parallel tests: 100 ms late, its children's ticks given
 * to the wrong one), where the kernel would have moved it.
 */
void
procs_off_cpus(struct procs *ps, const cpu_set_t *ours, cpu_set_t *off)
{
	int	c;

	*off = *ours;
	for (c = 0; c < ps->ncpus; c++) {
		if (ps->map[c] >= 0 && ps->map[c] < CPU_SETSIZE)
			CPU_CLR(ps->map[c], off);
	}
	if (CPU_COUNT(off) < 2)
		*off = *ours;
}

/* Create (or update) the cgroup of an engine group. */
int
procs_group_setup(struct procs *ps, int group, char **cause)
{
	struct cpumask	 eng, phys;
	const char	*name;
	int		 c;

	if (ps->cg == NULL)
		return (0);
	if ((name = engine_group_name(ps->e, group)) == NULL) {
		*cause = xasprintf("no group %d", group);
		return (-1);
	}
	if (engine_group_cpus(ps->e, group, &eng) != 0) {
		*cause = xasprintf("no group %d", group);
		return (-1);
	}
	cpumask_zero(&phys);
	CPUMASK_FOREACH(c, &eng) {
		if (c < ps->ncpus)
			cpumask_set(&phys, ps->map[c]);
	}
	return (cgroup_group(ps->cg, group, name, &phys, cause));
}
