/*
 * proc-kernel.c -- the kernel's own runs of the children, from its
 * sched_switch records (read by proc-ring.c): per physical CPU, which
 * child thread ran from when to when, in a bounded ring behind
 * procs_kernel_runs; and each member's last state as the kernel said it
 * (switched in, woken, or switched out asleep, stopped, dead), with
 * which procs_observe sees a running task block without reading /proc.
 *
 * The records of one CPU's ring come in time order; a child switched in
 * opens a run on that CPU, switched out closes it.  When the children's
 * pids change, proc-event.c opens a new set of events before it closes
 * the old one, so the records of the few microseconds in between come
 * twice (each copy with its own clock read, a few ns apart).  The second
 * copy changes nothing: a switch-in of the thread already running there,
 * or earlier than the CPU's last close, is dropped, and so is a
 * switch-out of a thread that is not running there.  A member's state
 * is only ever replaced by a later record's, as the wake of a thread and
 * its switches come through different CPUs' rings, read one after the
 * other.  When records were lost, every member's state is forgotten
 * (the next tick polls /proc) and the open runs, whose ends may be gone,
 * are dropped.
 */
#include <stdlib.h>
#include <string.h>

#include "proc-int.h"
#include "xmalloc.h"

/* One physical CPU. */
struct proc_kernel_cpu {
	struct procs_krun	*ring;		/* PROCS_KRUNS; NULL: no run yet */
	uint64_t		 seq;		/* runs closed so far */
	struct procs_krun	 open;		/* pid 0: none */
	uint64_t		 last_to;	/* the last close */
	int			 lost;		/* records lost since */
};

struct proc_kernel {
	int			 ncpu;
	struct proc_kernel_cpu	*cpu;
};

/* Keep runs for ncpu physical CPUs (the switch events work). */
void
proc_kernel_create(struct procs *ps, int ncpu)
{
	struct proc_kernel	*kr;

	kr = xcalloc(1, sizeof *kr);
	kr->ncpu = ncpu;
	kr->cpu = xcalloc(ncpu, sizeof *kr->cpu);
	ps->kr = kr;
}

/* Free the runs. */
void
proc_kernel_free(struct procs *ps)
{
	struct proc_kernel	*kr = ps->kr;
	int			 c;

	if (kr == NULL)
		return;
	for (c = 0; c < kr->ncpu; c++)
		free(kr->cpu[c].ring);
	free(kr->cpu);
	free(kr);
	ps->kr = NULL;
}

/* The live task a thread id belongs to as a member, and the member. */
struct proc *
proc_kernel_find(struct procs *ps, pid_t pid, struct proc_member **mp)
{
	struct proc	*p;
	int		 i, j;

	if (pid <= 0)
		return (NULL);
	for (i = 1; i < ps->nt; i++) {
		if ((p = ps->t[i]) == NULL || !p->live)
			continue;
		for (j = 0; j < p->nm; j++) {
			if (p->m[j].pid == pid) {
				*mp = &p->m[j];
				return (p);
			}
		}
	}
	return (NULL);
}

/* A member's state as of ts, unless a later record said otherwise. */
void
proc_kernel_state(struct proc_member *m, uint64_t ts, char state)
{
	if (m->kstate != 0 && ts < m->kstate_ns)
		return;
	m->kstate = state;
	m->kstate_ns = ts;
}

/*
 * The letter of a sched_switch prev_state, as the kernel prints it: the
 * task_state_index bit (1 << (index - 1): S, D, T, t, X, Z, P, I), none
 * for running; TASK_REPORT_MAX, above them all, when preempted ("R+").
 */
static char
proc_kernel_letter(long st, int *preempted)
{
	static const char	letters[] = "SDTtXZPI";
	int			i;

	*preempted = 0;
	for (i = 0; i < 8; i++) {
		if (st & (1L << i))
			return (letters[i]);
	}
	*preempted = st != 0;
	return ('R');
}

/*
 * Close the run open on a CPU at ts, as it left (state, preempted), for
 * next.
 */
static void
proc_kernel_close(struct proc_kernel_cpu *kc, uint64_t ts, char state,
    int preempted, pid_t next)
{
	struct procs_krun	*r;

	if (kc->ring == NULL)
		kc->ring = xcalloc(PROCS_KRUNS, sizeof *kc->ring);
	r = &kc->ring[kc->seq % PROCS_KRUNS];
	*r = kc->open;
	r->seq = ++kc->seq;
	r->to_ns = ts;
	r->state = state;
	r->preempted = preempted;
	r->next = next;
	r->lost = kc->lost;
	kc->lost = 0;
	kc->last_to = ts;
	memset(&kc->open, 0, sizeof kc->open);
}

/*
 * A sched_switch on physical cpu at ts: prev (left in prev_state) off the
 * CPU, next (at kernel priority prio) on.  Either may be no child of ours
 * (the filter names the children on one side or the other).
 */
void
proc_kernel_switch(struct procs *ps, int cpu, uint64_t ts, pid_t prev,
    long prev_state, pid_t next, int prio)
{
	struct proc_kernel	*kr = ps->kr;
	struct proc_kernel_cpu	*kc;
	struct proc_member	*m;
	struct proc		*p;
	char			 st;
	int			 pre;

	ps->evstats.switches++;
	if (kr == NULL || cpu < 0 || cpu >= kr->ncpu)
		return;
	kc = &kr->cpu[cpu];
	st = proc_kernel_letter(prev_state, &pre);
	if (prev > 0 && (p = proc_kernel_find(ps, prev, &m)) != NULL) {
		proc_kernel_state(m, ts, st == 'R' ? 'r' : st);
		/*
		 * Blocked: the next observe may tell the engine.  The record
		 * names the main thread; of a process of several, it is no
		 * news while another thread runs (/proc says): a sleeping
		 * clock sleeps on.
		 */
		if ((st == 'S' || st == 'D') &&
		    (proc_sample_threads(m) == 1 || proc_sample_blocked(p))) {
			ps->ev_news = 1;
			if (p->picked && (m->threads > 1 ||
			    proc_kernel_blocked(ps, p) == 1))
				ps->ev_early = 2;
		}
	}
	/* Its run ends (a reaped task's too: no lookup). */
	if (prev > 0 && kc->open.pid == prev && ts >= kc->open.from_ns)
		proc_kernel_close(kc, ts, st, pre, next);
	if (next <= 0 || (p = proc_kernel_find(ps, next, &m)) == NULL)
		return;
	proc_kernel_state(m, ts, 'r');
	if (kc->open.pid == next || ts < kc->last_to)
		return;		/* a copy, from two sets' overlap */
	/* One open already: its switch-out was lost, its end unknown. */
	kc->open.pid = next;
	kc->open.task = p->id;
	kc->open.cpu = cpu;
	kc->open.prio = prio;
	kc->open.from_ns = ts;
	kc->open.prev = prev;
	kc->open.to_ns = 0;
	kc->open.seq = 0;
}

/* Records were lost: what was said of the members may be stale. */
void
proc_kernel_lost(struct procs *ps)
{
	struct proc	*p;
	int		 i, j, c;

	for (i = 1; i < ps->nt; i++) {
		if ((p = ps->t[i]) == NULL)
			continue;
		for (j = 0; j < p->nm; j++)
			p->m[j].kstate = 0;
	}
	if (ps->kr == NULL)
		return;
	for (c = 0; c < ps->kr->ncpu; c++) {
		memset(&ps->kr->cpu[c].open, 0, sizeof ps->kr->cpu[c].open);
		ps->kr->cpu[c].lost = 1;	/* said by the next run */
	}
}

/*
 * Has a task blocked, as the kernel's switches say: 1 if all its
 * processes were last switched out asleep (S or D; the dead ones aside),
 * 0 if one runs, is runnable or stopped, -1 if it cannot say (no switch
 * events, a member it has heard nothing of yet, or one of several
 * threads, whose main thread alone the records name): the caller reads
 * /proc then.
 */
int
proc_kernel_blocked(struct procs *ps, struct proc *p)
{
	int	i, blocked = 0;

	if (!proc_event_switches(ps) || p->nm == 0)
		return (-1);
	for (i = 0; i < p->nm; i++) {
		switch (p->m[i].kstate) {
		case 0:
			return (-1);
		case 'S':
		case 'D':
			if (p->m[i].threads > 1)
				return (-1);
			blocked = 1;
			break;
		case 'X':
		case 'Z':
			break;
		default:
			return (0);
		}
	}
	return (blocked ? 1 : -1);
}

/* Physical CPUs that may have runs (0: no switch events here). */
int
procs_kernel_ncpus(struct procs *ps)
{
	return (ps->kr != NULL ? ps->kr->ncpu : 0);
}

/* Records lost since the last run closed on physical cpu? */
int
procs_kernel_lost(struct procs *ps, int cpu)
{
	if (ps->kr == NULL || cpu < 0 || cpu >= ps->kr->ncpu)
		return (0);
	return (ps->kr->cpu[cpu].lost);
}

/*
 * The runs of physical cpu closed since *cursor, in order, at most max;
 * *cursor moves to the last one given.
 */
size_t
procs_kernel_runs(struct procs *ps, int cpu, uint64_t *cursor,
    struct procs_krun *out, size_t max)
{
	struct proc_kernel_cpu	*kc;
	uint64_t		 s, oldest;
	size_t			 n = 0;

	if (ps->kr == NULL || cpu < 0 || cpu >= ps->kr->ncpu)
		return (0);
	kc = &ps->kr->cpu[cpu];
	if (kc->ring == NULL)
		return (0);
	oldest = kc->seq > PROCS_KRUNS ? kc->seq - PROCS_KRUNS + 1 : 1;
	s = *cursor + 1;
	if (s < oldest)
		s = oldest;
	for (; s <= kc->seq && n < max; s++)
		out[n++] = kc->ring[(s - 1) % PROCS_KRUNS];
	if (n > 0)
		*cursor = out[n - 1].seq;
	return (n);
}

/* The run open on physical cpu now: 1 (to_ns 0), or 0 if none. */
int
procs_kernel_running(struct procs *ps, int cpu, struct procs_krun *run)
{
	struct proc_kernel_cpu	*kc;

	if (ps->kr == NULL || cpu < 0 || cpu >= ps->kr->ncpu)
		return (0);
	kc = &ps->kr->cpu[cpu];
	if (kc->open.pid == 0)
		return (0);
	*run = kc->open;
	return (1);
}
