/*
 * tasklife.c -- each task's life from a scheduler trace (tasklife.h).
 *
 * A task is, at each moment, running on a CPU, runnable but waiting
 * (preempted, or woken and not yet run), asleep, or dead.  Its workload
 * is what it asked for: the CPU it ran (a run burst lasts from a wake
 * to the next sleep, summed over the times it was preempted meanwhile)
 * and how long it slept (from its switch-out asleep to its wake).  The
 * time it waited while runnable is the scheduler's doing, not the
 * task's, and is left out; it is what the kernel's figures measure
 * instead: a wake-up latency runs from the first wake event (waking,
 * wakeup, wakeup_new) to the switch-in.
 *
 * A task running when the trace begins ran since its beginning; one
 * running when it ends is cut at its end.
 *
 * Real traces miss a switch now and then with no word of it (tracefs on
 * a VM here dropped one in 9000 events; perf stops recording each CPU
 * at its own time), so a CPU that switches out a task it was not seen
 * to run is a gap: the step is repaired and counted.  What no missing
 * event explains is an error: a task switched in on one CPU while it
 * runs on another, when that other CPU then switches it out (it ran on
 * both at once); and a CPU's clock going back.  Once events were lost
 * (a line says so), even those are repaired and counted.
 */
#include <stdlib.h>
#include <string.h>

#include "tasklife.h"
#include "xmalloc.h"

/* A trace's longest span: its bursts stay within a scenario's bounds. */
#define TASKLIFE_MAX_SPAN	(UINT64_C(1000000) * 1000000000)	/* ns */

enum {
	L_NEW,			/* forked, not yet woken */
	L_RUNNING,
	L_RUNNABLE,		/* preempted */
	L_WOKEN,		/* woken, waiting for its first run */
	L_SLEEPING,
	L_DEAD
};

struct tasklife_cpu {
	int		cur;	/* task index + 1; 0 idle; -1 unknown */
	int		seen;
	uint64_t	last;
	int		switched;	/* a switch was seen here */
	uint64_t	last_switch;	/* ... at this time */
	int		twice;	/* task index + 1 switched in elsewhere */
	int		twice_line;
	int		twice_cpu;
};

/*
 * The time from since to ts, or 0: each CPU's clock only goes forward,
 * but an event of one CPU about a task of another (a wake) may carry a
 * time before what that task last did.
 */
static uint64_t
tasklife_after(uint64_t ts, uint64_t since)
{
	return (ts > since ? ts - since : 0);
}

/* Start reading a trace's lives. */
void
tasklife_init(struct tasklife *h, const struct tasklife_opts *o)
{
	memset(h, 0, sizeof *h);
	h->o = *o;
	ktrace_init(&h->kt);
}

/* Free everything the lives hold. */
void
tasklife_free(struct tasklife *h)
{
	size_t	i;

	for (i = 0; i < h->ntasks; i++) {
		free(h->tasks[i].bursts);
		free(h->tasks[i].lat);
	}
	free(h->tasks);
	free(h->slots);
	free(h->cpus);
	memset(h, 0, sizeof *h);
}

/* The CPUs of the trace: its header's count, else those seen. */
int
tasklife_ncpus(const struct tasklife *h)
{
	if (h->kt.ncpus > h->ncpus)
		return (h->kt.ncpus);
	return (h->ncpus > 0 ? h->ncpus : 1);
}

/* The hash slot of pid: where it is, or the free one it would take. */
static size_t
tasklife_slot(const struct tasklife *h, int pid)
{
	size_t	i, mask = h->nslots - 1;

	i = ((uint32_t)pid * 2654435761u) & mask;
	while (h->slots[i] != 0 && h->tasks[h->slots[i] - 1].pid != pid)
		i = (i + 1) & mask;
	return (i);
}

/* The current life of pid, or NULL. */
static struct tasklife_task *
tasklife_find(const struct tasklife *h, int pid)
{
	size_t	i;

	if (h->nslots == 0)
		return (NULL);
	i = tasklife_slot(h, pid);
	return (h->slots[i] == 0 ? NULL : &h->tasks[h->slots[i] - 1]);
}

/* Double the hash, or make its first. */
static void
tasklife_grow(struct tasklife *h)
{
	size_t	i, old = h->nslots;
	int    *slots = h->slots;

	h->nslots = old ? old * 2 : 1024;
	h->slots = xcalloc(h->nslots, sizeof *h->slots);
	for (i = 0; i < old; i++) {
		if (slots[i] != 0)
			h->slots[tasklife_slot(h, h->tasks[slots[i] - 1].pid)] =
			    slots[i];
	}
	free(slots);
}

/* Append v to a growing array of uint64_t. */
static void
tasklife_push(uint64_t **v, size_t *n, size_t *size, uint64_t x)
{
	if (*n == *size)
		*v = xgrow(*v, size, 8, sizeof **v);
	(*v)[(*n)++] = x;
}

/* Close a run burst: its CPU time, if any, is the next run. */
static void
tasklife_push_run(struct tasklife_task *t)
{
	if (t->run == 0)
		return;
	if (t->nbursts % 2 == 1)
		t->bursts[t->nbursts - 1] += t->run;
	else
		tasklife_push(&t->bursts, &t->nbursts, &t->bursts_size, t->run);
	t->run = 0;
}

/* A sleep of ns ended: after a run it is the next sleep. */
static void
tasklife_push_sleep(struct tasklife_task *t, uint64_t ns)
{
	if (t->nbursts == 0)
		return;		/* before its first run: its start says it */
	if (t->nbursts % 2 == 0)
		t->bursts[t->nbursts - 1] += ns;
	else
		tasklife_push(&t->bursts, &t->nbursts, &t->bursts_size, ns);
}

/* The CPU c, grown into. */
static struct tasklife_cpu *
tasklife_cpu(struct tasklife *h, int c)
{
	int	i;

	if (c >= h->ncpus) {
		h->cpus = xreallocarray(h->cpus, (size_t)c + 1,
		    sizeof *h->cpus);
		for (i = h->ncpus; i <= c; i++) {
			memset(&h->cpus[i], 0, sizeof h->cpus[i]);
			h->cpus[i].cur = -1;
		}
		h->ncpus = c + 1;
	}
	return (&h->cpus[c]);
}

/* Stop a running task's run at ts (its CPU forgets it). */
static void
tasklife_stop(struct tasklife *h, struct tasklife_task *t, uint64_t ts)
{
	if (t->state != L_RUNNING)
		return;
	if (ts > t->since) {
		t->cpu += ts - t->since;
		t->run += ts - t->since;
	}
	if (t->on_cpu >= 0 && t->on_cpu < h->ncpus &&
	    h->cpus[t->on_cpu].cur == (int)(t - h->tasks) + 1)
		h->cpus[t->on_cpu].cur = -1;
	t->state = L_RUNNABLE;
	t->since = ts;
}

/*
 * A new life for pid from ts: its first, or a later one where the pid
 * was used again (the earlier life ends there).
 */
static struct tasklife_task *
tasklife_new(struct tasklife *h, const struct ktrace_task *kt, uint64_t ts,
    int state)
{
	struct tasklife_task	*t, *old;
	size_t			 i;
	int			 life = 1;

	if ((old = tasklife_find(h, kt->pid)) != NULL) {
		tasklife_stop(h, old, ts);
		tasklife_push_run(old);
		old->state = L_DEAD;
		life = old->life + 1;
		h->reused++;
	}
	if (h->ntasks == h->tasks_size)
		h->tasks = xgrow(h->tasks, &h->tasks_size, 64,
		    sizeof *h->tasks);
	if ((h->ntasks + 1) * 2 > h->nslots)
		tasklife_grow(h);
	t = &h->tasks[h->ntasks++];
	memset(t, 0, sizeof *t);
	strcpy(t->comm, kt->comm);
	t->pid = kt->pid;
	t->life = life;
	t->prio = kt->prio;
	t->start = ts;
	t->state = state;
	t->since = ts;
	t->on_cpu = -1;
	i = tasklife_slot(h, kt->pid);
	h->slots[i] = (int)h->ntasks;
	return (t);
}

/* Note what a line says of a task's name and priority. */
static void
tasklife_seen(struct tasklife_task *t, const struct ktrace_task *kt)
{
	if (kt->comm[0] != '\0')
		strcpy(t->comm, kt->comm);
	if (t->prio == KTRACE_NOPRIO)
		t->prio = kt->prio;
}

/* Something impossible: an error, or after lost events a repair. */
static int
tasklife_odd(struct tasklife *h, char **cause, char *why)
{
	if (h->lossy) {
		h->repaired++;
		free(why);
		return (0);
	}
	*cause = why;
	return (-1);
}

/* sched_switch: prev leaves CPU c, next comes on. */
static int
tasklife_switch(struct tasklife *h, const struct ktrace_event *ev,
    struct tasklife_cpu *cpu, char **cause)
{
	struct tasklife_task	*t, *cur;
	uint64_t		 base;
	int			 c = ev->cpu;

	/* A task switched in elsewhere while it ran here: did it? */
	if (cpu->twice != 0) {
		t = &h->tasks[cpu->twice - 1];
		if (t->pid == ev->a.pid && t->state != L_DEAD) {
			h->errline = cpu->twice_line;
			if (tasklife_odd(h, cause, xasprintf("pid %d (%s) is "
			    "switched in on CPU %d while it runs on CPU %d: no "
			    "switch-out between", t->pid, t->comm,
			    cpu->twice_cpu, c)) != 0)
				return (-1);
			h->errline = 0;
		} else
			h->gaps++;
		cpu->twice = 0;
	}
	if (cpu->cur > 0 && h->tasks[cpu->cur - 1].pid != ev->a.pid) {
		/*
		 * The switch from cur to prev is missing: when, the trace
		 * does not say; prev, which the line shows running, is
		 * given the time since the last switch here.
		 */
		cur = &h->tasks[cpu->cur - 1];
		tasklife_stop(h, cur, cur->since);
		cpu->cur = -1;
		h->gaps++;
	} else if (cpu->cur == 0 && ev->a.pid != 0) {
		cpu->cur = -1;
		h->gaps++;
	}
	/* Since when prev ran if its switch-in is not in the trace. */
	base = cpu->switched ? cpu->last_switch : h->begin;
	cpu->switched = 1;
	cpu->last_switch = ev->ts;
	if (ev->a.pid != 0) {
		if ((t = tasklife_find(h, ev->a.pid)) == NULL ||
		    t->state == L_DEAD) {
			t = tasklife_new(h, &ev->a, base, L_RUNNING);
			t->on_cpu = c;
		} else if (t->state != L_RUNNING || t->on_cpu != c) {
			if (t->state == L_RUNNING) {
				/* Its switch-out there is missing. */
				tasklife_stop(h, t, ev->ts);
				h->gaps++;
			}
			/* Its switch-in was before the trace (or lost). */
			t->waking = 0;
			if (t->state == L_SLEEPING || t->since < base)
				t->since = base;
			t->state = L_RUNNING;
			t->on_cpu = c;
		}
		tasklife_seen(t, &ev->a);
		if (ev->ts > t->since) {
			t->cpu += ev->ts - t->since;
			t->run += ev->ts - t->since;
		}
		t->since = ev->ts;
		t->on_cpu = -1;
		if (ev->preempted && !ev->dead)
			t->state = L_RUNNABLE;
		else {
			tasklife_push_run(t);
			t->state = ev->dead ? L_DEAD : L_SLEEPING;
		}
	}
	cpu->cur = 0;
	if (ev->b.pid == 0)
		return (0);
	if ((t = tasklife_find(h, ev->b.pid)) == NULL || t->state == L_DEAD)
		t = tasklife_new(h, &ev->b, ev->ts, L_WOKEN);
	switch (t->state) {
	case L_RUNNING:
		/*
		 * Running on another CPU: if that CPU next switches it out,
		 * it ran on both at once; else a switch there is missing
		 * (or its recording ended first, as perf's may).
		 */
		if (t->on_cpu >= 0 && t->on_cpu < h->ncpus &&
		    t->on_cpu != c) {
			h->cpus[t->on_cpu].twice = (int)(t - h->tasks) + 1;
			h->cpus[t->on_cpu].twice_line = h->lineno;
			h->cpus[t->on_cpu].twice_cpu = c;
		}
		tasklife_stop(h, t, ev->ts);
		break;
	case L_SLEEPING:
		/* Woken unseen: the sleep lasted to here. */
		tasklife_push_sleep(t, tasklife_after(ev->ts, t->since));
		break;
	case L_NEW:
	case L_WOKEN:
		tasklife_push(&t->lat, &t->nlat, &t->lat_size,
		    tasklife_after(ev->ts, t->since));
		break;
	default:
		break;
	}
	tasklife_seen(t, &ev->b);
	t->state = L_RUNNING;
	t->on_cpu = c;
	t->since = ev->ts;
	t->runs++;
	cpu->cur = (int)(t - h->tasks) + 1;
	return (0);
}

/* A wake: sched_waking, sched_wakeup or sched_wakeup_new. */
static void
tasklife_wake(struct tasklife *h, const struct ktrace_event *ev)
{
	struct tasklife_task	*t;

	if (ev->a.pid == 0)
		return;
	t = tasklife_find(h, ev->a.pid);
	if (t == NULL || t->state == L_DEAD ||
	    (ev->kind == KTRACE_WAKEUP_NEW && t->state != L_NEW)) {
		tasklife_new(h, &ev->a, ev->ts, L_WOKEN);
		return;
	}
	tasklife_seen(t, &ev->a);
	switch (t->state) {
	case L_SLEEPING:
		tasklife_push_sleep(t, tasklife_after(ev->ts, t->since));
		t->state = L_WOKEN;
		t->since = ev->ts;
		break;
	case L_NEW:
		t->state = L_WOKEN;
		t->start = t->since = ev->ts;
		break;
	default:
		break;		/* runnable already: the first wake counts */
	}
}

/* An event within the window. */
static int
tasklife_event(struct tasklife *h, const struct ktrace_event *ev,
    struct tasklife_cpu *cpu, char **cause)
{
	struct tasklife_task	*t;

	switch (ev->kind) {
	case KTRACE_SWITCH:
		return (tasklife_switch(h, ev, cpu, cause));
	case KTRACE_WAKEUP:
	case KTRACE_WAKING:
	case KTRACE_WAKEUP_NEW:
		tasklife_wake(h, ev);
		break;
	case KTRACE_FORK:
		if (ev->b.pid != 0)
			tasklife_new(h, &ev->b, ev->ts, L_NEW);
		break;
	case KTRACE_EXIT:
		if ((t = tasklife_find(h, ev->a.pid)) != NULL)
			t->exiting = 1;
		break;
	}
	return (0);
}

/* Read one line of the trace; 0, or -1 with *cause (no FILE:LINE). */
int
tasklife_line(struct tasklife *h, char *line, int lineno, char **cause)
{
	struct ktrace_event	 ev;
	struct tasklife_cpu	*cpu;
	int			 r, c;

	if ((r = ktrace_line(&h->kt, line, lineno, &ev, cause)) == -1)
		return (-1);
	if (r == KTRACE_NONE)
		return (0);
	h->lineno = lineno;
	h->errline = 0;
	if (r == KTRACE_LOST) {
		h->lossy = 1;
		for (c = 0; c < h->ncpus; c++) {
			if (ev.cpu == -1 || ev.cpu == c) {
				h->cpus[c].cur = -1;
				h->cpus[c].twice = 0;
			}
		}
		return (0);
	}
	cpu = tasklife_cpu(h, ev.cpu);
	if (cpu->seen && ev.ts < cpu->last) {
		*cause = xasprintf("time goes back on CPU %d: %llu.%06llu "
		    "after %llu.%06llu", ev.cpu,
		    (unsigned long long)(ev.ts / 1000000000),
		    (unsigned long long)(ev.ts % 1000000000 / 1000),
		    (unsigned long long)(cpu->last / 1000000000),
		    (unsigned long long)(cpu->last % 1000000000 / 1000));
		return (-1);
	}
	cpu->seen = 1;
	cpu->last = ev.ts;
	if (h->started && ev.ts > h->t0 + TASKLIFE_MAX_SPAN) {
		*cause = xasprintf("the trace spans more than %llu s",
		    (unsigned long long)(TASKLIFE_MAX_SPAN / 1000000000));
		return (-1);
	}
	if (!h->started) {
		h->started = 1;
		h->t0 = ev.ts;
		h->begin = ev.ts + h->o.from;
		h->end = h->begin;
	}
	if (ev.ts < h->begin)
		return (0);
	if (h->o.to != 0 && ev.ts > h->t0 + h->o.to) {
		h->end = h->t0 + h->o.to;
		return (0);
	}
	if (ev.ts > h->end)
		h->end = ev.ts;
	h->events++;
	return (tasklife_event(h, &ev, cpu, cause));
}

/*
 * The trace has ended: a task still running is cut at its end, one
 * preempted keeps the run it had.  0, or -1 with *cause if the trace
 * held no event.
 */
int
tasklife_finish(struct tasklife *h, char **cause)
{
	struct tasklife_task	*t;
	size_t			 i;

	if (h->events == 0) {
		*cause = xasprintf(h->started ? "no scheduler event in the "
		    "window asked for" : "no scheduler event (sched_switch, "
		    "sched_wakeup, ...) in the trace");
		return (-1);
	}
	/* A CPU whose recording ended before it switched a task out. */
	for (i = 0; i < (size_t)h->ncpus; i++) {
		if (h->cpus[i].twice != 0)
			h->gaps++;
	}
	for (i = 0; i < h->ntasks; i++) {
		t = &h->tasks[i];
		if (t->state == L_RUNNING)
			tasklife_stop(h, t, h->end);
		if (t->state == L_RUNNABLE)
			tasklife_push_run(t);
	}
	return (0);
}
