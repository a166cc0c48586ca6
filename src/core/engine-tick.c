/*
 * engine-tick.c -- the multi-CPU engine core's tick (SPEC.md section
 * 1): creating an engine, switching its policy, the runqueues, idle
 * pull and periodic balance, sleeping and waking, scenario events and
 * the tick order itself.  Tasks and their live changes are in
 * engine-task.c, what can be read back in engine-info.c, lookups and
 * placement in engine-state.c.
 *
 * The order of each CPU's runqueue belongs to the policy, a scheduling
 * class (struct engine_policy): the core tells it what arrives, wakes,
 * moves, sleeps or exits, asks it what to run and charges it the tick.
 * The core keeps each CPU's count of runnable tasks, which placement and
 * balancing read.  Sleeping tasks wait in a hashed timing
 * wheel keyed by their wake tick, so a tick costs the same whatever the
 * number of tasks.  Nothing here does I/O, reads a clock or touches a
 * global: the same calls give the same trace.
 */
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "engine-state.h"
#include "log.h"
#include "xmalloc.h"

#define ENGINE_PARAM(name, min, max, def) \
	{ #name, min, max, def, offsetof(struct engine_params, name) }
const struct engine_param engine_param_list[ENGINE_NPARAMS] = {
	[ENGINE_PARAM_CPUS] = ENGINE_PARAM(cpus, 1, ENGINE_MAX_CPUS, 1),
	[ENGINE_PARAM_RR_INTERVAL] = ENGINE_PARAM(rr_interval, 1, 1000, 10),
	[ENGINE_PARAM_SLEEP_MIN] = ENGINE_PARAM(sleep_min, 0, 100000, 1),
	[ENGINE_PARAM_BALANCE_INTERVAL] =
	    ENGINE_PARAM(balance_interval, 1, 1000000, 100),
	/* eevdf's request, ms. */
	[ENGINE_PARAM_BASE_SLICE] = ENGINE_PARAM(base_slice, 1, 100, 3),
};
#undef ENGINE_PARAM

/* A parameter's value (ENGINE_PARAM_*). */
int
engine_param_get(const struct engine_params *p, int param)
{
	return (*(const int *)((const char *)p +
	    engine_param_list[param].offset));
}

/* Set a parameter (ENGINE_PARAM_*); engine_params_check checks it. */
void
engine_param_set(struct engine_params *p, int param, int v)
{
	*(int *)((char *)p + engine_param_list[param].offset) = v;
}

/* Fill the spec's defaults. */
void
engine_params_default(struct engine_params *p)
{
	int	i;

	for (i = 0; i < ENGINE_NPARAMS; i++)
		engine_param_set(p, i, engine_param_list[i].def);
}

/* Check parameters against their bounds. */
int
engine_params_check(const struct engine_params *p, char **cause)
{
	const struct engine_param	*d;
	int				 i, v;

	for (i = 0; i < ENGINE_NPARAMS; i++) {
		d = &engine_param_list[i];
		v = engine_param_get(p, i);
		if (v < d->min || v > d->max) {
			*cause = xasprintf("%s %d is outside %d..%d", d->name,
			    v, d->min, d->max);
			return (-1);
		}
	}
	return (0);
}

/* Give each CPU an empty runqueue of policy pol. */
static void
engine_rqs_create(struct engine *e, const struct engine_policy *pol)
{
	int	c;

	e->policy = pol;
	e->rq_stride = (pol->rq_size + 63) & ~(size_t)63;
	if (posix_memalign((void **)&e->rqs, 64,
	    e->rq_stride * (size_t)e->p.cpus) != 0) {
		fatalx("out of memory for runqueues");
	}
	memset(e->rqs, 0, e->rq_stride * (size_t)e->p.cpus);
	e->env.rqs = e->rqs;
	e->env.rq_stride = e->rq_stride;
	for (c = 0; c < e->p.cpus; c++) {
		e->cpus[c].rq = e->rqs + e->rq_stride * (size_t)c;
		if (pol->rq_init != NULL)
			pol->rq_init(&e->env, e->cpus[c].rq);
	}
}

/* Free the runqueues. */
static void
engine_rqs_free(struct engine *e)
{
	int	c;

	for (c = 0; c < e->p.cpus; c++)
		if (e->policy->rq_free != NULL)
			e->policy->rq_free(e->cpus[c].rq);
	free(e->rqs);
	e->rqs = NULL;
}

/* Create an engine; the parameters must have passed engine_params_check. */
struct engine *
engine_create(const struct engine_params *p, const struct engine_policy *pol)
{
	struct engine	*e;

	e = xcalloc(1, sizeof *e);
	e->p = *p;
	e->cpus = xcalloc(p->cpus, sizeof *e->cpus);
	cpumask_fill(&e->idle, p->cpus);
	e->env.rr_interval = p->rr_interval;
	e->env.sleep_min = p->sleep_min;
	e->env.base_slice = p->base_slice;
	e->env.ncpus = p->cpus;
	e->env.stride = sizeof (struct task);
	e->env.e = e;
	engine_rqs_create(e, pol != NULL ? pol : &engine_policy_staircase);
	engine_changes_reset(e);
	return (e);
}

/* Free an engine and everything it holds. */
void
engine_free(struct engine *e)
{
	int	i;
	size_t	j;

	if (e == NULL)
		return;
	engine_rqs_free(e);
	for (i = 0; i < e->ntasks; i++)
		free(e->tasks[i].pattern);
	free(e->tasks);
	free(e->next);
	free(e->prev);
	free(e->names);
	free(e->gnames);
	for (i = 0; i < e->ngroups; i++)
		free(e->groups[i].name);
	free(e->groups);
	for (j = 0; j < WHEEL_SIZE; j++)
		free(e->wheel[j].v);
	free(e->due);
	free(e->events);
	free(e->fired);
	free(e->notes.v);
	free(e->whys.v);
	free(e->log);
	free(e->cpus);
	free(e);
}

/* Keep the policy whatever the scenario's events say (engine.h). */
void
engine_hold_policy(struct engine *e)
{
	e->policy_held = 1;
}

/*
 * Switch the policy (SPEC.md section 6): every task keeps its nice,
 * affinity, group, pattern position, sleep and CPU time and starts its
 * policy state afresh, as a new task of that policy would; the runnable
 * ones are queued again where they were, in id order.
 */
void
engine_set_policy(struct engine *e, const struct engine_policy *pol)
{
	struct task	*t;
	int		 i, c;

	engine_rqs_free(e);
	engine_rqs_create(e, pol);
	engine_changes_reset(e);	/* every task starts afresh */
	for (c = 0; c < e->p.cpus; c++)
		e->cpus[c].nr = 0;
	cpumask_fill(&e->idle, e->p.cpus);
	/*
	 * Exited tasks too: their snapshots are read through the new
	 * policy, which must not take the old one's bytes for its own.
	 */
	for (i = 0; i < e->ntasks; i++) {
		t = &e->tasks[i];
		memset(t->ts, 0, sizeof t->ts);
		e->next[t->id] = e->prev[t->id] = 0;
		pol->task_init(&e->env, t->ts, t->nice);
		if (t->state == ENGINE_RUNNABLE)
			engine_enqueue(e, t, t->cpu, ENGINE_ENQ_NEW);
	}
}

/* The CPU with the most runnable tasks, lowest index on ties. */
static int
engine_busiest(const struct engine *e)
{
	int	c, best = 0;

	for (c = 1; c < e->p.cpus; c++)
		if (e->cpus[c].nr > e->cpus[best].nr)
			best = c;
	return (best);
}

/* May task id run on cpu? */
int
engine_task_allowed(const struct engine *e, int id, int cpu)
{
	return (cpumask_test(&e->tasks[id - 1].allowed, cpu));
}

/*
 * Move one task from src to dst if the policy gives one away (one that
 * would not run next on src, allowed on dst); 1 if moved.
 */
static int
engine_pull(struct engine *e, int src, int dst)
{
	struct task	*t;
	int		 id;

	if ((id = e->policy->steal(&e->env, e->cpus[src].rq, dst)) == 0)
		return (0);
	t = &e->tasks[id - 1];
	engine_dequeue(e, t, ENGINE_DEQ_MIGRATE);
	engine_enqueue(e, t, dst, ENGINE_ENQ_MIGRATE);
	return (1);
}

/* Step 3: idle pull, then periodic balance when it is due. */
static void
engine_balance(struct engine *e, uint64_t now)
{
	struct cpumask	idle = e->idle;
	int		c, b = -1;

	/*
	 * A pull only turns the puller busy and leaves the source with at
	 * least one task, so the idle set can be walked as it was at the
	 * start, and the busiest CPU only changes after a pull.
	 */
	CPUMASK_FOREACH(c, &idle) {
		if (b < 0)
			b = engine_busiest(e);
		if (e->cpus[b].nr < 2)
			break;
		if (engine_pull(e, b, c))
			b = -1;
	}
	if (now == 0 || now % (uint64_t)e->p.balance_interval != 0)
		return;
	for (c = 0; c < e->p.cpus; c++) {
		b = engine_busiest(e);
		if (e->cpus[b].nr >= e->cpus[c].nr + 2)
			engine_pull(e, b, c);
	}
}

/*
 * Make a task runnable at tick now: a sleeper is woken with its sleep's
 * length (the policy decides what that earns), then placed and queued.
 */
static void
engine_make_runnable(struct engine *e, struct task *t, uint64_t now)
{
	enum engine_enq	why = ENGINE_ENQ_NEW;

	if (t->state == ENGINE_SLEEPING) {
		e->policy->wake(&e->env, t->ts, now - t->sleep_start);
		why = ENGINE_ENQ_WAKE;
	}
	t->state = ENGINE_RUNNABLE;
	t->injected = 0;
	t->wake = 0;
	engine_enqueue(e, t, engine_place(e, t), why);
}

/*
 * Sort ids ascending.  A tick wakes a handful of tasks, often already in
 * order: insertion sort beats qsort's set-up by far at that size.
 */
static void
engine_sort_ids(int *v, size_t n)
{
	size_t	i, j;
	int	x;

	for (i = 1; i < n; i++) {
		x = v[i];
		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/*
 * Step 2: everything due at `now` becomes runnable, in id order; those
 * ids stay in e->due[0..ndue) for engine_woken().
 */
static void
engine_wake_due(struct engine *e, uint64_t now)
{
	struct bucket	*b = &e->wheel[now & (WHEEL_SIZE - 1)];
	struct task	*t;
	size_t		 i, n = 0, keep = 0;

	for (i = 0; i < b->n; i++) {
		if (b->v[i].tick != now) {
			if (b->v[i].tick > now)
				b->v[keep++] = b->v[i];
			continue;
		}
		t = &e->tasks[b->v[i].id - 1];
		if ((t->state != ENGINE_SLEEPING &&
		    t->state != ENGINE_WAITING) || t->wake != now)
			continue;	/* stale: woken or moved since */
		if (n == e->due_size)
			e->due = xgrow(e->due, &e->due_size, 64,
			    sizeof *e->due);
		e->due[n++] = t->id;
	}
	b->n = keep;
	engine_sort_ids(e->due, n);
	e->ndue = 0;
	for (i = 0; i < n; i++) {
		if (e->ndue > 0 && e->due[i] == e->due[e->ndue - 1])
			continue;
		e->due[e->ndue++] = e->due[i];
		engine_make_runnable(e, &e->tasks[e->due[i] - 1], now);
	}
}

/* Schedule a scenario event; kept in order of `at`, then of addition. */
void
engine_event_add(struct engine *e, const struct engine_event *ev)
{
	size_t	i;

	if (e->nevents == e->events_size)
		e->events = xgrow(e->events, &e->events_size, 16,
		    sizeof *e->events);
	i = e->nevents;
	while (i > e->next_event && e->events[i - 1].at > ev->at) {
		e->events[i] = e->events[i - 1];
		i--;
	}
	e->events[i] = *ev;
	if (e->events[i].at < e->now)
		e->events[i].at = e->now;
	e->nevents++;
}

/* Step 1: apply one scenario event; a failing one is skipped. */
static void
engine_event_apply(struct engine *e, const struct engine_event *ev)
{
	char	*cause = NULL;
	int	 rc = 0;

	switch (ev->action) {
	case ENGINE_ACT_SLEEP:
		rc = engine_task_sleep(e, ev->task, (uint64_t)ev->value,
		    &cause);
		break;
	case ENGINE_ACT_NICE:
		rc = engine_task_nice(e, ev->task, (int)ev->value, &cause);
		break;
	case ENGINE_ACT_AFFINITY:
		rc = engine_task_affinity(e, ev->task, &ev->cpus, &cause);
		break;
	case ENGINE_ACT_KILL:
		rc = engine_task_kill(e, ev->task, &cause);
		break;
	case ENGINE_ACT_POLICY:
		/*
		 * Step 1, before wakes, balance and picks: the whole tick
		 * runs under the new policy (engine_tick reads the policy's
		 * pick after the events).
		 */
		if (ev->policy == NULL)
			rc = -1;
		else if (!e->policy_held)
			engine_set_policy(e, ev->policy);
		break;
	}
	free(cause);
	if (rc != 0)
		return;
	if (e->nfired == e->fired_size)
		e->fired = xgrow(e->fired, &e->fired_size, 8,
		    sizeof *e->fired);
	e->fired[e->nfired++] = *ev;
}

/*
 * Step 5 for one CPU: run its pick for one tick.  The policy writes the
 * trace row as the task was during the tick and charges the tick; then
 * a finished runtime or run burst ends it.
 */
static inline __attribute__((always_inline)) void
engine_run(struct engine *e, int c, struct task *t, uint64_t now)
{
	struct cpu	*cpu = &e->cpus[c];
	int		 id;

	/* Not logged: a reader looks at the CPUs' last tasks itself. */
	cpu->last.task = t->id;
	t->ran++;
	t->last_cpu = c;
	e->policy->tick(&e->env, cpu->rq, t->id, t->ts, &cpu->last);
	if (t->runtime != 0 && t->ran >= t->runtime) {
		engine_dequeue(e, t, ENGINE_DEQ_EXIT);
		t->state = ENGINE_EXITED;
		t->exit = ENGINE_EXIT_RUNTIME;
		e->nlive--;
		return;
	}
	if (t->npattern == 0 || --t->burst_left > 0)
		return;
	/* The last run of a pattern played once: the task's life ends. */
	if (t->once && t->pidx + 2 >= t->npattern) {
		engine_dequeue(e, t, ENGINE_DEQ_EXIT);
		t->state = ENGINE_EXITED;
		t->exit = ENGINE_EXIT_DONE;
		e->nlive--;
		return;
	}
	/* The run burst ended: sleep, and set up the next burst now. */
	engine_sleep_until(e, t, now + 1, now + t->pattern[t->pidx + 1] + 1);
	t->pidx = (t->pidx + 2) % t->npattern;
	t->burst_left = t->pattern[t->pidx];
	/* Start loading the task likely to run next while others go. */
	if (e->policy->pick == NULL && (id = prio_array_first(cpu->rq)) != 0)
		__builtin_prefetch(&e->tasks[id - 1]);
}

/*
 * Step 5 for every CPU: run its pick, or idle.  Inline with tracking a
 * constant, so the loop has no test for the log when it is not kept.
 */
static inline __attribute__((always_inline)) void
engine_run_cpus(struct engine *e, const int *picks, uint64_t now,
    int tracking)
{
	struct cpu	*cpu;
	int		 c;

	for (c = 0; c < e->p.cpus; c++) {
		cpu = &e->cpus[c];
		/* The task it ran last tick is no longer running. */
		if (tracking && cpu->last.task != 0 &&
		    cpu->last.task != picks[c])
			engine_touch(e, cpu->last.task);
		if (picks[c] == 0) {
			cpu->last.task = 0;
			cpu->last.rank = cpu->last.left = 0;
			memset(cpu->last.col, 0, sizeof cpu->last.col);
		} else
			engine_run(e, c, &e->tasks[picks[c] - 1], now);
	}
}

/* Run one tick in the order of SPEC.md section 1. */
void
engine_tick(struct engine *e)
{
	uint64_t	 now = e->now;
	int		 c, picks[ENGINE_MAX_CPUS];
	int		 (*pick)(const struct engine_env *, void *);

	e->nfired = 0;
	e->env.now = now;
	e->notes.n = 0;
	while (e->next_event < e->nevents &&
	    e->events[e->next_event].at <= now)
		engine_event_apply(e, &e->events[e->next_event++]);
	/* After the events: a policy event may have switched the class. */
	pick = e->policy->pick;
	engine_wake_due(e, now);
	engine_balance(e, now);
	if (pick == NULL) {
		for (c = 0; c < e->p.cpus; c++)
			picks[c] = prio_array_first(e->cpus[c].rq);
	} else {
		for (c = 0; c < e->p.cpus; c++)
			picks[c] = pick(&e->env, e->cpus[c].rq);
	}
	/* Before they run: the CPU rows still say what ran last. */
	if (e->explaining)
		engine_why_tick(e, picks);
	if (e->tracking)
		engine_run_cpus(e, picks, now, 1);
	else
		engine_run_cpus(e, picks, now, 0);
	e->now = now + 1;
}

/*
 * How many ticks from now on (at most `most`) surely run on every CPU
 * what the last tick ran there, if nothing from outside changes the
 * engine meanwhile (a command, a real task seen blocked or woken): 0
 * when the next tick may already run something else.  Pure, and a lower
 * bound: every rule below stops it at the first tick where the engine
 * might pick otherwise.  A daemon whose real tasks need a tick's wall
 * time need not wake for these ticks: it may run them late, together
 * with the first one that may change (docs/DAEMON.md, the sleeping
 * clock).  Only for a class that says how long what runs keeps its CPU
 * (every class here); 0 for one that does not.
 */
uint64_t
engine_quiet(const struct engine *e, uint64_t most)
{
	const struct cpu	*cpu;
	const struct task	*t;
	const struct bucket	*b;
	uint64_t		 q = most, now = e->now, at, j;
	size_t			 i;
	int			 c, lo = INT_MAX, hi = 0, idle = 0, bi;

	if (e->policy->quiet == NULL)
		return (0);
	/* A scenario event. */
	if (e->next_event < e->nevents) {
		if ((at = e->events[e->next_event].at) <= now)
			return (0);
		if (at - now < q)
			q = at - now;
	}
	for (c = 0; c < e->p.cpus; c++) {
		cpu = &e->cpus[c];
		if (cpu->nr < lo)
			lo = cpu->nr;
		if (cpu->nr > hi)
			hi = cpu->nr;
		if (cpu->nr == 0)
			idle = 1;
		/*
		 * Inline, the head runs next: if it is not what ran, it
		 * changes.  An idle CPU with a task queued picks it.
		 */
		if (e->policy->pick == NULL &&
		    prio_array_first(cpu->rq) != cpu->last.task)
			return (0);
		if (cpu->last.task == 0) {
			if (cpu->nr != 0)
				return (0);
			continue;
		}
		t = &e->tasks[cpu->last.task - 1];
		at = (uint64_t)e->policy->quiet(&e->env, cpu->rq,
		    cpu->last.task, t->ts);
		if (at == 0)
			return (0);
		/* The end of its runtime (an exit), or of its run burst. */
		if (t->runtime != 0 && t->runtime - t->ran < at)
			at = t->runtime - t->ran;
		if (t->npattern != 0 && t->burst_left < at)
			at = t->burst_left;
		if (at < q)
			q = at;
	}
	/* An idle CPU pulls from one with two or more (engine_balance). */
	if (idle && hi >= 2)
		return (0);
	/* The periodic balance, when it has something to even out. */
	bi = e->p.balance_interval;
	if (hi - lo >= 2) {
		if (now > 0 && now % (uint64_t)bi == 0)
			return (0);
		at = (now / (uint64_t)bi + 1) * (uint64_t)bi - now;
		if (at < q)
			q = at;
	}
	/* A sleeper's wake (engine_wake_due): the first tick with one. */
	if (q > WHEEL_SIZE)
		q = WHEEL_SIZE;		/* the wheel's reach */
	for (j = 0; j < q; j++) {
		b = &e->wheel[(now + j) & (WHEEL_SIZE - 1)];
		for (i = 0; i < b->n; i++) {
			if (b->v[i].tick != now + j)
				continue;
			t = &e->tasks[b->v[i].id - 1];
			if ((t->state == ENGINE_SLEEPING ||
			    t->state == ENGINE_WAITING) && t->wake == now + j)
				return (j);
		}
	}
	return (q);
}

/*
 * Run n ticks that engine_quiet(e, n) promised (at least n): each runs
 * on every CPU what the last tick ran there, so this is engine_tick with
 * what cannot act left out: no scenario event is due, no sleeper wakes,
 * a balance has nothing to move, and a pick would give what ran (an
 * inline class's head; a class's pick op returns its current task
 * untouched while it needs no reschedule, which engine_quiet's class
 * op checks).  What runs is charged as engine_tick charges it, so the
 * engine ends as n engine_tick calls leave it, byte for byte; a
 * headless run skips with it the ticks in which nothing is decided.
 */
void
engine_advance(struct engine *e, uint64_t n)
{
	uint64_t	now;
	int		c, id;

	for (; n > 0; n--) {
		now = e->now;
		e->nfired = 0;
		e->env.now = now;
		e->notes.n = 0;
		e->ndue = 0;
		e->whys.n = 0;		/* no runner changes: nothing to explain */
		for (c = 0; c < e->p.cpus; c++) {
			if ((id = e->cpus[c].last.task) != 0)
				engine_run(e, c, &e->tasks[id - 1], now);
		}
		e->now = now + 1;
	}
}
