/*
 * proc-enforce.c -- make the children obey the engine after each tick.
 *
 * Each task keeps what was last done to it (stopped or continued, the
 * physical CPU it was pinned to) and only changes are signalled; a task
 * is pinned while still stopped (~2 us, against ~53 us running), then
 * continued; stops go out before continues so a switch frees the CPU
 * first.  Pausing the clock stops every real task (procs_hold).
 */
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "engine.h"
#include "log.h"
#include "monotonic.h"
#include "proc-int.h"
#include "xmalloc.h"

/* Pin every thread of every member of a task to a CPU; 0 or an errno. */
static int
proc_enforce_pin(struct procs *ps, struct proc *p, int phys)
{
	cpu_set_t	 set;
	DIR		*d;
	struct dirent	*de;
	char		 path[64], *end;
	pid_t		 tid;
	int		 i, failed = 0;

	CPU_ZERO(&set);
	CPU_SET(phys, &set);
	if (p->nm == 0 && sched_setaffinity(p->pid, sizeof set, &set) != 0 &&
	    errno != ESRCH)
		failed = errno;
	for (i = 0; i < p->nm; i++) {
		snprintf(path, sizeof path, "/proc/%ld/task",
		    (long)p->m[i].pid);
		if ((d = opendir(path)) == NULL) {
			sched_setaffinity(p->m[i].pid, sizeof set, &set);
			continue;
		}
		while ((de = readdir(d)) != NULL) {
			tid = (pid_t)strtol(de->d_name, &end, 10);
			if (*end != '\0' || tid <= 0)
				continue;
			if (sched_setaffinity(tid, sizeof set, &set) != 0 &&
			    errno != ESRCH)
				failed = errno;
		}
		closedir(d);
	}
	return (failed);
}

/* Continue a task's process group. */
void
proc_enforce_cont(struct procs *ps, struct proc *p)
{
	proc_signal(p, SIGCONT);
	p->stopped = 0;
}

/* Stop a task if it is not stopped already. */
static void
proc_enforce_stop(struct proc *p)
{
	if (p->stopped)
		return;
	proc_sample_unpick(p, 1);
	proc_signal(p, SIGSTOP);
	p->stopped = 1;
	p->stop_ns = monotonic_ns();
}

/* Pin a task to a physical CPU (while stopped) and continue it. */
static void
proc_enforce_run(struct procs *ps, struct proc *p, int phys)
{
	char	*cause = NULL;
	int	 err;

	proc_sample_pick(p);
	if (p->pinned != phys) {
		err = proc_enforce_pin(ps, p, phys);
		/*
		 * Outside its group's cpuset (the group's CPUs changed
		 * since the cpuset was written): update it and try again.
		 */
		if (err == EINVAL && p->group >= 0 && ps->cg != NULL) {
			if (procs_group_setup(ps, p->group, &cause) == 0)
				err = proc_enforce_pin(ps, p, phys);
			else {
				log_warnx("task %s: %s", p->name, cause);
				free(cause);
			}
		}
		if (err != 0 && p->pinned != -2)
			log_warnx("task %s: sched_setaffinity cpu %d: %s",
			    p->name, phys, strerror(err));
		p->pinned = err != 0 ? -2 : phys;
	}
	if (p->stopped) {
		proc_enforce_cont(ps, p);
		p->scan_blocked = 0;	/* what was seen before is stale */
	}
	p->ran = 1;
	p->forked = 1;
}

/*
 * The kernel just woke p (at ts, CLOCK_MONOTONIC ns), a task the engine
 * holds asleep because it blocked: act now, as the kernel's wake-up
 * preemption would, rather than at the next tick.  The engine says (a
 * pure query) where the wake would place it and whether it would be
 * picked there ahead of what runs: if so, that task is stopped and p
 * runs on (pinned to that CPU); if not, p is stopped until it is picked.
 * A task let run so since the tick counts as what runs on its CPU.  The
 * engine itself hears of the wake at the next tick (procs_observe).
 */
void
proc_enforce_wake(struct procs *ps, struct proc *p, uint64_t ts)
{
	struct engine_cpu_info	 ci;
	struct engine_task_info	 ti;
	struct proc		*q;
	int			 c, rank, pre;

	if (p->stopped || p->killed ||
	    (pre = engine_wake_query(ps->e, p->id, &c, &rank)) < 0 ||
	    c >= ps->ncpus)
		return;
	if (ps->woke[c] != 0 && ps->woke[c] != p->id) {
		q = proc_get(ps, ps->woke[c]);
		pre = rank < ps->woke_rank[c];
		if (pre && q != NULL && q->live && !q->killed)
			proc_enforce_stop(q);	/* unpicks it */
	} else if (pre) {
		engine_cpu_info(ps->e, c, &ci);
		q = proc_get(ps, ci.task);
		if (q != NULL && q != p && q->live && !q->killed &&
		    engine_task_info(ps->e, q->id, &ti) == 0 &&
		    ti.state == ENGINE_RUNNABLE)
			proc_enforce_stop(q);
	}
	if (!pre) {
		proc_enforce_stop(p);
		proc_ring_delay(ps, ts);
		return;
	}
	ps->woke[c] = p->id;
	ps->woke_rank[c] = rank;
	proc_ring_delay(ps, ts);
	proc_sample_pick(p);	/* the engine's answer: not stolen */
	if (p->pinned != ps->map[c])
		p->pinned = proc_enforce_pin(ps, p, ps->map[c]) != 0 ? -2 :
		    ps->map[c];
	p->ran = 1;
	p->forked = 1;
	if (ps->woke_cb != NULL)
		ps->woke_cb(ps->woke_arg, c, p->id, rank, monotonic_ns());
}

/* After a tick: continue and pin what the engine ran, stop the rest. */
void
proc_enforce_tick(struct procs *ps)
{
	struct engine_cpu_info	 ci;
	struct proc		*p;
	int			 i, c, injected;

	ps->held_all = 0;
	ps->runcpu = xreallocarray(ps->runcpu, ps->nt > 0 ? ps->nt : 1,
	    sizeof *ps->runcpu);
	for (i = 0; i < ps->nt; i++)
		ps->runcpu[i] = -1;
	for (c = 0; c < ps->ncpus; c++)
		ps->woke[c] = 0;	/* the tick decided again */
	for (c = 0; c < ps->ncpus; c++) {
		engine_cpu_info(ps->e, c, &ci);
		if (ci.task > 0 && ci.task < ps->nt)
			ps->runcpu[ci.task] = c;
	}
	/* Stops first, so a switch frees the CPU before the next one runs. */
	for (i = 1; i < ps->nt; i++) {
		if ((p = ps->t[i]) == NULL || !p->live || p->killed ||
		    ps->runcpu[i] != -1)
			continue;
		switch (engine_task_state(ps->e, i, &injected)) {
		case -1:
			break;
		case ENGINE_EXITED:
			kill(-p->pid, SIGKILL);
			kill(-p->pid, SIGCONT);
			p->killed = 1;
			break;
		case ENGINE_SLEEPING:
			/* Seen blocked: left running so it can wake. */
			if (injected)
				proc_enforce_stop(p);
			break;
		default:
			proc_enforce_stop(p);
			break;
		}
	}
	for (i = 1; i < ps->nt; i++) {
		if ((p = ps->t[i]) == NULL || !p->live || p->killed ||
		    (c = ps->runcpu[i]) == -1)
			continue;
		proc_enforce_run(ps, p, ps->map[c]);
	}
}

/*
 * The clock is paused: stop every real task, so none runs and no
 * measured CPU time drifts from the engine's.  Tasks blocked in the
 * kernel, which enforcement leaves running so they can wake, are marked
 * to be let go again by procs_release; the ones the engine picks are
 * continued by the next procs_enforce.
 */
void
procs_hold(struct procs *ps)
{
	struct engine_task_info	 ti;
	struct proc		*p;
	int			 i;

	/*
	 * Take the reports of our own last continues first, so that one
	 * from outside while held is told apart (proc_spawn_continued).
	 */
	proc_spawn_wait(ps);
	ps->held_all = 1;
	for (i = 1; i < ps->nt; i++) {
		if ((p = ps->t[i]) == NULL || !p->live || p->killed ||
		    p->stopped)
			continue;
		if (engine_task_info(ps->e, i, &ti) == 0 &&
		    ti.state == ENGINE_SLEEPING && !ti.injected)
			p->held = 1;
		proc_enforce_stop(p);
	}
}

/*
 * The daemon went on after a stop (SIGCONT): the watchdog stopped every
 * child meanwhile (proc-watch.c), so continue again each task this
 * layer last continued.  What it stopped itself stays stopped.
 */
void
procs_reassert(struct procs *ps)
{
	struct proc	*p;
	int		 i;

	for (i = 1; i < ps->nt; i++) {
		if ((p = ps->t[i]) != NULL && p->live && !p->killed &&
		    !p->stopped)
			proc_signal(p, SIGCONT);
	}
}

/* The clock runs again: continue the blocked tasks procs_hold stopped. */
void
procs_release(struct procs *ps)
{
	struct proc	*p;
	int		 i;

	for (i = 1; i < ps->nt; i++) {
		if ((p = ps->t[i]) == NULL || !p->held)
			continue;
		p->held = 0;
		if (p->live && !p->killed && p->stopped)
			proc_enforce_cont(ps, p);
	}
	/*
	 * What was read while held asks for no early tick: the first tick
	 * after comes at its own time (nothing asks procs_early until then).
	 */
	ps->ev_early = 0;
}
