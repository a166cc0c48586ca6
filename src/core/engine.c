/*
 * engine.c -- the multi-CPU engine core: tasks, names, the tick order,
 * events, placement, idle pull and periodic balance (SPEC.md section 1).
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "log.h"
#include "xmalloc.h"

#define WHEEL_SIZE	4096		/* power of two */

/*
 * A task.  The first 64 bytes hold what a tick touches when the task runs
 * (the policy's state, queue, burst and CPU time); names, masks and the
 * pattern follow.  With 100 000 tasks a switch then costs one cold line.
 * The policy's state comes first: engine_ts() finds it there.
 */
struct task {
	uint64_t		 ts[ENGINE_PRIV_SIZE / 8];
	int16_t			 cpu;		/* queued on, or -1 */
	int16_t			 last_cpu;	/* last ran on, or -1 */
	uint32_t		 burst_left;	/* ticks left in this run */
	int			 id;
	enum engine_state	 state;
	uint64_t		 ran;
	uint64_t		 runtime;	/* 0: none */

	int			 nice;

	uint32_t		*pattern;	/* run, sleep, ... */
	size_t			 npattern;
	size_t			 pidx;		/* index of the current run */
	uint64_t		 wake;		/* when sleeping or waiting */
	uint64_t		 sleep_start;	/* first tick not run */
	int			 injected;
	enum engine_kind	 kind;
	enum engine_exit	 exit;
	int			 group;
	struct cpumask		 affinity;
	struct cpumask		 allowed;
	char			 name[ENGINE_NAME_MAX + 1];
} __attribute__((aligned(64)));

struct cpu {
	int		nr;
	void	       *rq;		/* the policy's runqueue */
	struct engine_cpu_info last;	/* engine_cpu_info sets cpu and nr */
};

struct group {
	char		*name;
	struct cpumask	 cpus;
};

struct wake {
	uint64_t	tick;
	int		id;
};

struct bucket {
	struct wake	*v;
	size_t		 n, size;
};

struct engine {
	struct engine_params		 p;
	const struct engine_policy	*policy;
	uint64_t			 now;
	struct engine_env		 env;		/* lent to the policy */
	char				*rqs;		/* the policy's, per CPU */
	size_t				 rq_stride;

	struct cpu			*cpus;
	struct cpumask			 idle;		/* CPUs with nr == 0 */
	struct task			*tasks;		/* tasks[id - 1] */
	/*
	 * The prio arrays' links live apart from the tasks, indexed by id:
	 * a requeue then touches 8 bytes of its neighbours, not their
	 * whole struct (docs/BENCH.md has what that saves).
	 */
	int				*next, *prev;
	int				 ntasks, tasks_size;
	int				 nlive;

	int				*names;		/* open hash: id or 0 */
	size_t				 names_size;

	struct group			*groups;
	int				 ngroups, groups_size;
	int				*gnames;	/* open hash: index+1 */
	size_t				 gnames_size;

	struct bucket			 wheel[WHEEL_SIZE];
	int				*due;		/* ids due; the first
							   ndue: woken last tick */
	size_t				 ndue, due_size;

	struct engine_event		*events;	/* sorted by at */
	size_t				 nevents, events_size, next_event;
	struct engine_event		*fired;
	size_t				 nfired, fired_size;

	char				*caption;
	uint64_t			 caption_seq;

	/*
	 * The log of changes (engine_changes): the id of every task whose
	 * snapshot may have changed, appended as it is touched (repeats
	 * and all), so a reader finds what changed without a pass over
	 * every task.  A new epoch (from *epochs) starts it again.
	 * Kept only while tracking (engine_track_changes): it costs ~5-8 %
	 * of a tick's instructions, for the live daemon's frames alone.
	 */
	int				 tracking;
	int				*log;
	size_t				 nlog, log_size;
	uint64_t			 epoch;
	uint64_t			*epochs;	/* the tracker's counter */
	size_t				 asked;		/* 1 + index in events[]
							   of an ask not yet
							   answered; 0: none */
};

/*
 * Start the log of changes again: anything may have changed.  Its new
 * epoch comes from the counter the tracker keeps for all its engines
 * (engine_track_changes): a reader that kept an epoch never sees it
 * again in another of them (a clone, one allocated where a freed one
 * was) or after a log started again.
 */
static void
engine_changes_reset(struct engine *e)
{
	e->nlog = 0;
	e->epoch = e->epochs != NULL ? ++*e->epochs : 0;
}

/*
 * The log of changes is full: grow it to at least 64 Ki entries and 4
 * per task, or, that big already, start it again.  Out of line, so the
 * queue operations that log stay small.
 */
static void __attribute__((noinline))
engine_log_full(struct engine *e)
{
	size_t	want;

	want = (size_t)e->ntasks * 4;
	if (want < 65536)
		want = 65536;
	if (e->log_size >= want) {
		engine_changes_reset(e);
	} else {
		e->log = xreallocarray(e->log, want, sizeof *e->log);
		e->log_size = want;
	}
}

/* Note that task id's snapshot may change (engine_changes), if tracked. */
static inline void
engine_touch(struct engine *e, int id)
{
	if (e->tracking) {
		if (e->nlog == e->log_size)
			engine_log_full(e);
		e->log[e->nlog++] = id;
	}
}

/*
 * Keep the log of changes (epochs: the tracker's counter of epochs, for
 * all its engines) or not (NULL, as an engine starts): only a reader
 * that wants to know what changed between looks (the live daemon's
 * frames) needs it, and a tick costs less without.  Either way a new
 * epoch: what a reader kept no longer counts.
 */
void
engine_track_changes(struct engine *e, uint64_t *epochs)
{
	e->tracking = epochs != NULL;
	e->epochs = epochs;
	engine_changes_reset(e);
	if (!e->tracking) {
		free(e->log);
		e->log = NULL;
		e->log_size = 0;
	}
}

/* Fill the spec's defaults. */
void
engine_params_default(struct engine_params *p)
{
	p->cpus = 1;
	p->rr_interval = 10;
	p->sleep_min = 1;
	p->balance_interval = 100;
	p->base_slice = 3;
}

/* Check parameters against their bounds. */
int
engine_params_check(const struct engine_params *p, char **cause)
{
	if (p->cpus < 1 || p->cpus > ENGINE_MAX_CPUS) {
		*cause = xasprintf("cpus %d is outside 1..%d", p->cpus,
		    ENGINE_MAX_CPUS);
		return (-1);
	}
	if (p->rr_interval < 1 || p->rr_interval > 1000) {
		*cause = xasprintf("rr_interval %d is outside 1..1000",
		    p->rr_interval);
		return (-1);
	}
	if (p->sleep_min < 0 || p->sleep_min > 100000) {
		*cause = xasprintf("sleep_min %d is outside 0..100000",
		    p->sleep_min);
		return (-1);
	}
	if (p->balance_interval < 1 || p->balance_interval > 1000000) {
		*cause = xasprintf("balance_interval %d is outside 1..1000000",
		    p->balance_interval);
		return (-1);
	}
	if (p->base_slice < 1 || p->base_slice > 100) {
		*cause = xasprintf("base_slice %d is outside 1..100",
		    p->base_slice);
		return (-1);
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
	for (j = 0; j < e->nevents; j++) {
		free((char *)e->events[j].text);
		free((char *)e->events[j].answer);
	}
	free(e->events);
	free(e->fired);
	free(e->caption);
	free(e->log);
	free(e->cpus);
	free(e);
}

/* The task with this id, or NULL. */
static struct task *
engine_get(const struct engine *e, int id)
{
	if (id < 1 || id > e->ntasks)
		return (NULL);
	return (&e->tasks[id - 1]);
}

/* A live task by id, or NULL with *cause set. */
static struct task *
engine_get_live(struct engine *e, int id, char **cause)
{
	struct task	*t;

	if ((t = engine_get(e, id)) == NULL) {
		*cause = xasprintf("no task with id %d", id);
		return (NULL);
	}
	if (t->state == ENGINE_EXITED) {
		*cause = xasprintf("task %s has exited", t->name);
		return (NULL);
	}
	return (t);
}

/* --- Names: an open-addressing hash of name -> id. ------------------- */

/* FNV-1a. */
static size_t
engine_hash(const char *s)
{
	uint64_t	h = 1469598103934665603ULL;

	while (*s != '\0')
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return ((size_t)h);
}

/*
 * Two tables share this code: task names (kind ENGINE_NAMES_TASKS, value
 * the task id) and group names (ENGINE_NAMES_GROUPS, value the group's
 * index + 1); 0 is a free slot.
 */
#define ENGINE_NAMES_TASKS	0
#define ENGINE_NAMES_GROUPS	1

/* The name under value v in a table of this kind. */
static const char *
engine_names_key(const struct engine *e, int kind, int v)
{
	if (kind == ENGINE_NAMES_GROUPS)
		return (e->groups[v - 1].name);
	return (e->tasks[v - 1].name);
}

/* Insert v under its name; the table must have room. */
static void
engine_names_put(int *names, size_t size, const struct engine *e, int kind,
    int v)
{
	size_t	i = engine_hash(engine_names_key(e, kind, v)) & (size - 1);

	while (names[i] != 0)
		i = (i + 1) & (size - 1);
	names[i] = v;
}

/* Keep a name table under half full with room for one more. */
static void
engine_names_grow(struct engine *e, int kind)
{
	int	**tab = kind == ENGINE_NAMES_GROUPS ? &e->gnames : &e->names;
	size_t	 *tsize = kind == ENGINE_NAMES_GROUPS ? &e->gnames_size :
		    &e->names_size;
	size_t	  size, i;
	int	  n = kind == ENGINE_NAMES_GROUPS ? e->ngroups : e->ntasks;
	int	 *names;

	if ((size_t)(n + 1) * 2 <= *tsize)
		return;
	size = *tsize ? *tsize * 2 : 64;
	names = xcalloc(size, sizeof *names);
	for (i = 0; i < *tsize; i++)
		if ((*tab)[i] != 0)
			engine_names_put(names, size, e, kind, (*tab)[i]);
	free(*tab);
	*tab = names;
	*tsize = size;
}

/* The value under name in a table of this kind, or 0. */
static int
engine_names_get(const struct engine *e, int kind, const char *name)
{
	const int	*names = kind == ENGINE_NAMES_GROUPS ? e->gnames :
			    e->names;
	size_t		 size = kind == ENGINE_NAMES_GROUPS ? e->gnames_size :
			    e->names_size, i;

	if (size == 0)
		return (0);
	i = engine_hash(name) & (size - 1);
	while (names[i] != 0) {
		if (strcmp(engine_names_key(e, kind, names[i]), name) == 0)
			return (names[i]);
		i = (i + 1) & (size - 1);
	}
	return (0);
}

/* --- Runqueues. ---------------------------------------------------- */

/* Queue a task on cpu c, for the reason given. */
static inline __attribute__((always_inline)) void
engine_enqueue(struct engine *e, struct task *t, int c, enum engine_enq why)
{
	struct cpu	*cpu = &e->cpus[c];

	engine_touch(e, t->id);
	t->cpu = c;
	if (e->policy->enqueue == NULL)
		prio_array_add_tail(cpu->rq, &e->env.links, t->id,
		    *(int *)((char *)t->ts + e->policy->rank_offset));
	else
		e->policy->enqueue(&e->env, cpu->rq, t->id, t->ts, why);
	if (cpu->nr++ == 0)
		cpumask_clear(&e->idle, c);
}

/* Take a task off its CPU's runqueue. */
static inline __attribute__((always_inline)) void
engine_dequeue(struct engine *e, struct task *t, enum engine_deq why)
{
	struct cpu	*cpu = &e->cpus[t->cpu];

	engine_touch(e, t->id);
	if (e->policy->dequeue == NULL)
		prio_array_del(cpu->rq, &e->env.links, t->id,
		    *(int *)((char *)t->ts + e->policy->rank_offset));
	else
		e->policy->dequeue(&e->env, cpu->rq, t->id, t->ts, why);
	if (--cpu->nr == 0)
		cpumask_set(&e->idle, t->cpu);
	t->cpu = -1;
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

/* --- Placement and balancing. --------------------------------------- */

/*
 * Choose a CPU for an arriving or waking task: its last CPU if allowed
 * and idle; else the lowest idle allowed CPU; else its last CPU if
 * allowed; else the allowed CPU with the fewest runnable tasks.
 */
static int
engine_place(const struct engine *e, const struct task *t)
{
	struct cpumask	idle;
	int		c, best = -1, lc = t->last_cpu;

	if (lc >= 0 && cpumask_test(&t->allowed, lc) && e->cpus[lc].nr == 0)
		return (lc);
	cpumask_and(&idle, &t->allowed, &e->idle);
	if ((c = cpumask_first(&idle)) >= 0)
		return (c);
	if (lc >= 0 && cpumask_test(&t->allowed, lc))
		return (lc);
	CPUMASK_FOREACH(c, &t->allowed) {
		if (c >= e->p.cpus)
			break;
		if (best < 0 || e->cpus[c].nr < e->cpus[best].nr)
			best = c;
	}
	return (best);
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

/* --- Sleeping and waking. ------------------------------------------- */

/* A full bucket of the timing wheel: twice the room. */
static void __attribute__((noinline))
engine_bucket_grow(struct bucket *b)
{
	b->size = b->size ? b->size * 2 : 8;
	b->v = xreallocarray(b->v, b->size, sizeof *b->v);
}

/* File a wake for tick `tick` in the timing wheel. */
static inline void
engine_wheel_add(struct engine *e, int id, uint64_t tick)
{
	struct bucket	*b = &e->wheel[tick & (WHEEL_SIZE - 1)];

	if (b->n == b->size)
		engine_bucket_grow(b);
	b->v[b->n].tick = tick;
	b->v[b->n].id = id;
	b->n++;
}

/* Put a task to sleep from tick `from`, runnable again at `wake`. */
static inline __attribute__((always_inline)) void
engine_sleep_until(struct engine *e, struct task *t, uint64_t from,
    uint64_t wake)
{
	if (t->state == ENGINE_RUNNABLE)
		engine_dequeue(e, t, ENGINE_DEQ_SLEEP);	/* logs it */
	else
		engine_touch(e, t->id);
	t->state = ENGINE_SLEEPING;
	t->sleep_start = from;
	t->wake = wake;
	if (wake != ENGINE_NEVER)
		engine_wheel_add(e, t->id, wake);
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
		if (n == e->due_size) {
			e->due_size = e->due_size ? e->due_size * 2 : 64;
			e->due = xreallocarray(e->due, e->due_size,
			    sizeof *e->due);
		}
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

/* --- Setup. ---------------------------------------------------------- */

/*
 * The one rule for task and group names, used by the engine, the
 * protocol (add, spawn) and scenario files: 1-31 of [A-Za-z0-9_.-], not
 * all digits (it would read as a task id) and not ".", ".." or "-"
 * (they read as paths, and "-" as the protocol's "none").  NULL if name
 * is good, else why not, to follow the quoted name in a message.
 */
const char *
engine_name_check(const char *name)
{
	size_t	n;
	int	digits = 1;

	for (n = 0; name[n] != '\0'; n++) {
		if (name[n] >= '0' && name[n] <= '9')
			continue;
		digits = 0;
		if (!((name[n] >= 'a' && name[n] <= 'z') ||
		    (name[n] >= 'A' && name[n] <= 'Z') ||
		    name[n] == '_' || name[n] == '.' || name[n] == '-'))
			return ("has a bad character (use A-Z a-z 0-9 _ . -)");
	}
	if (n == 0)
		return ("is empty");
	if (n > ENGINE_NAME_MAX)
		return ("is too long (at most 31 characters)");
	if (digits)
		return ("is all digits (it would read as a task id)");
	if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0 ||
	    strcmp(name, "-") == 0)
		return ("is reserved (. .. and - are not names)");
	return (NULL);
}

/* Add a group with its CPU set; returns its id (0-based). */
int
engine_group_add(struct engine *e, const char *name,
    const struct cpumask *cpus, char **cause)
{
	struct cpumask	 all, m;
	const char	*why;

	if ((why = engine_name_check(name)) != NULL) {
		*cause = xasprintf("bad group name \"%.*s\": %s",
		    ENGINE_NAME_MAX, name, why);
		return (-1);
	}
	if (engine_group_find(e, name) >= 0) {
		*cause = xasprintf("duplicate group \"%s\"", name);
		return (-1);
	}
	cpumask_fill(&all, e->p.cpus);
	cpumask_and(&m, cpus, &all);
	if (cpumask_empty(&m)) {
		*cause = xasprintf("group \"%s\" has no CPU", name);
		return (-1);
	}
	engine_names_grow(e, ENGINE_NAMES_GROUPS);
	if (e->ngroups == e->groups_size) {
		e->groups_size = e->groups_size ? e->groups_size * 2 : 8;
		e->groups = xreallocarray(e->groups, e->groups_size,
		    sizeof *e->groups);
	}
	e->groups[e->ngroups].name = xstrdup(name);
	e->groups[e->ngroups].cpus = m;
	e->ngroups++;
	engine_names_put(e->gnames, e->gnames_size, e, ENGINE_NAMES_GROUPS,
	    e->ngroups);
	return (e->ngroups - 1);
}

/* A group's id by name, or -1. */
int
engine_group_find(struct engine *e, const char *name)
{
	return (engine_names_get(e, ENGINE_NAMES_GROUPS, name) - 1);
}

/* Compute what a task may use from an affinity and a group. */
static void
engine_allowed(const struct engine *e, const struct cpumask *affinity,
    int group, struct cpumask *out)
{
	struct cpumask	all;

	cpumask_fill(&all, e->p.cpus);
	cpumask_and(out, affinity, &all);
	if (group >= 0)
		cpumask_and(out, out, &e->groups[group].cpus);
}

/* A queued task on a CPU it may no longer use moves at once. */
static void
engine_migrate_if_needed(struct engine *e, struct task *t)
{
	if (t->state != ENGINE_RUNNABLE || cpumask_test(&t->allowed, t->cpu))
		return;
	engine_dequeue(e, t, ENGINE_DEQ_MIGRATE);
	engine_enqueue(e, t, engine_place(e, t), ENGINE_ENQ_MIGRATE);
}

/* Change a group's CPUs; refused if any member would have none left. */
int
engine_group_set_cpus(struct engine *e, int group, const struct cpumask *cpus,
    char **cause)
{
	struct cpumask	 old, m;
	struct task	*t;
	int		 i;

	if (group < 0 || group >= e->ngroups) {
		*cause = xasprintf("no group %d", group);
		return (-1);
	}
	old = e->groups[group].cpus;
	e->groups[group].cpus = *cpus;
	for (i = 0; i < e->ntasks; i++) {
		t = &e->tasks[i];
		if (t->group != group || t->state == ENGINE_EXITED)
			continue;
		engine_allowed(e, &t->affinity, group, &m);
		if (cpumask_empty(&m)) {
			e->groups[group].cpus = old;
			*cause = xasprintf("task %s would have no CPU left",
			    t->name);
			return (-1);
		}
	}
	for (i = 0; i < e->ntasks; i++) {
		t = &e->tasks[i];
		if (t->group != group || t->state == ENGINE_EXITED)
			continue;
		engine_allowed(e, &t->affinity, group, &t->allowed);
		engine_touch(e, t->id);
		engine_migrate_if_needed(e, t);
	}
	return (0);
}

/*
 * Grow the task array.  struct task asks for 64-byte alignment (its hot
 * fields fill one cache line), which realloc does not give: allocate
 * aligned and copy.
 */
static struct task *
engine_tasks_resize(struct task *old, int n, int size)
{
	struct task	*t;

	if (posix_memalign((void **)&t, _Alignof(struct task),
	    (size_t)size * sizeof *t) != 0) {
		fatalx("out of memory for %d tasks", size);
	}
	if (n > 0)
		memcpy(t, old, (size_t)n * sizeof *t);
	free(old);
	return (t);
}

/* Add a task; it becomes runnable at spec->start (or now, if earlier). */
int
engine_task_add(struct engine *e, const struct engine_task_spec *spec,
    char **cause)
{
	struct task	*t;
	struct cpumask	 affinity, allowed;
	const char	*why;
	size_t		 i;

	if ((why = engine_name_check(spec->name)) != NULL) {
		*cause = xasprintf("bad task name \"%.*s\": %s",
		    ENGINE_NAME_MAX, spec->name, why);
		return (-1);
	}
	if (engine_names_get(e, ENGINE_NAMES_TASKS, spec->name) != 0) {
		*cause = xasprintf("duplicate task name \"%s\"", spec->name);
		return (-1);
	}
	if (spec->nice < -20 || spec->nice > 19) {
		*cause = xasprintf("nice %d is outside -20..19", spec->nice);
		return (-1);
	}
	if (spec->npattern % 2 != 0) {
		*cause = xasprintf("pattern has %zu values: it needs run, "
		    "sleep pairs", spec->npattern);
		return (-1);
	}
	for (i = 0; i < spec->npattern; i++) {
		if (spec->pattern[i] == 0) {
			*cause = xasprintf("pattern value %zu is 0: every run "
			    "and sleep must be at least 1 ms", i + 1);
			return (-1);
		}
	}
	if (spec->group >= e->ngroups || spec->group < -1) {
		*cause = xasprintf("no group %d", spec->group);
		return (-1);
	}
	if (spec->cpus != NULL)
		affinity = *spec->cpus;
	else
		cpumask_fill(&affinity, CPUMASK_MAX);
	engine_allowed(e, &affinity, spec->group, &allowed);
	if (cpumask_empty(&allowed)) {
		*cause = xasprintf("task %s would have no CPU to run on",
		    spec->name);
		return (-1);
	}
	if (e->ntasks == INT_MAX - 1) {
		*cause = xasprintf("too many tasks");
		return (-1);
	}
	engine_names_grow(e, ENGINE_NAMES_TASKS);
	if (e->ntasks == e->tasks_size) {
		e->tasks_size = e->tasks_size ? e->tasks_size * 2 : 64;
		e->tasks = engine_tasks_resize(e->tasks, e->ntasks,
		    e->tasks_size);
		e->next = xreallocarray(e->next, e->tasks_size + 1,
		    sizeof *e->next);
		e->prev = xreallocarray(e->prev, e->tasks_size + 1,
		    sizeof *e->prev);
		e->env.tasks = (char *)e->tasks;
		e->env.links.next = e->next;
		e->env.links.prev = e->prev;
	}
	t = &e->tasks[e->ntasks];
	memset(t, 0, sizeof *t);
	t->id = ++e->ntasks;
	engine_touch(e, t->id);
	e->next[t->id] = e->prev[t->id] = 0;
	strcpy(t->name, spec->name);
	t->kind = spec->kind;
	t->cpu = t->last_cpu = -1;
	t->group = spec->group;
	t->affinity = affinity;
	t->allowed = allowed;
	t->runtime = spec->runtime;
	if (spec->npattern > 0) {
		t->pattern = xreallocarray(NULL, spec->npattern,
		    sizeof *t->pattern);
		memcpy(t->pattern, spec->pattern,
		    spec->npattern * sizeof *t->pattern);
		t->npattern = spec->npattern;
		t->burst_left = t->pattern[0];
	}
	t->nice = spec->nice;
	e->policy->task_init(&e->env, t->ts, spec->nice);
	t->state = ENGINE_WAITING;
	t->wake = spec->start > e->now ? spec->start : e->now;
	engine_wheel_add(e, t->id, t->wake);
	engine_names_put(e->names, e->names_size, e, ENGINE_NAMES_TASKS,
	    t->id);
	e->nlive++;
	return (t->id);
}

/* A task id from a name, or from a decimal id; 0 if there is none. */
int
engine_task_find(struct engine *e, const char *s)
{
	char	*end;
	long	 id;
	int	 found;

	if ((found = engine_names_get(e, ENGINE_NAMES_TASKS, s)) != 0)
		return (found);
	if (*s < '0' || *s > '9')
		return (0);
	id = strtol(s, &end, 10);
	if (*end != '\0' || id < 1 || id > e->ntasks)
		return (0);
	return ((int)id);
}

/* --- Live changes. --------------------------------------------------- */

/*
 * Injected sleep: runnable again m ticks from now.  A sleeping task
 * sleeps until whichever wake is later, and keeps its sleep's start so
 * the climb counts the whole sleep.  The pattern pauses where it was.
 */
int
engine_task_sleep(struct engine *e, int id, uint64_t ms, char **cause)
{
	struct task	*t;
	uint64_t	 wake;

	if ((t = engine_get_live(e, id, cause)) == NULL)
		return (-1);
	engine_touch(e, id);
	if (t->state == ENGINE_WAITING) {
		*cause = xasprintf("task %s has not started yet", t->name);
		return (-1);
	}
	if (ms == 0 || ms > UINT64_MAX / 2 - e->now) {
		*cause = xasprintf("bad sleep length %llu ms",
		    (unsigned long long)ms);
		return (-1);
	}
	wake = e->now + ms;
	if (t->state == ENGINE_SLEEPING) {
		if (t->wake != ENGINE_NEVER && t->wake >= wake) {
			t->injected = 1;
			return (0);
		}
		t->wake = wake;
		t->injected = 1;
		engine_wheel_add(e, t->id, wake);
		return (0);
	}
	engine_sleep_until(e, t, e->now, wake);
	t->injected = 1;
	return (0);
}

/* Change a task's nice level; a queued task goes to the tail. */
int
engine_task_nice(struct engine *e, int id, int nice, char **cause)
{
	struct task	*t;

	if ((t = engine_get_live(e, id, cause)) == NULL)
		return (-1);
	engine_touch(e, id);
	if (nice < -20 || nice > 19) {
		*cause = xasprintf("nice %d is outside -20..19", nice);
		return (-1);
	}
	t->nice = nice;
	e->policy->renice(&e->env, t->state == ENGINE_RUNNABLE ?
	    e->cpus[t->cpu].rq : NULL, t->id, t->ts, nice);
	return (0);
}

/* Change a task's affinity; refused if nothing would be allowed. */
int
engine_task_affinity(struct engine *e, int id, const struct cpumask *cpus,
    char **cause)
{
	struct task	*t;
	struct cpumask	 allowed;
	char		 buf[128];

	if ((t = engine_get_live(e, id, cause)) == NULL)
		return (-1);
	engine_allowed(e, cpus, t->group, &allowed);
	if (cpumask_empty(&allowed)) {
		*cause = xasprintf("task %s may not run on cpus %s%s%s",
		    t->name, cpumask_format(cpus, buf, sizeof buf),
		    t->group >= 0 ? " in group " : "",
		    t->group >= 0 ? e->groups[t->group].name : "");
		return (-1);
	}
	engine_touch(e, id);
	t->affinity = *cpus;
	t->allowed = allowed;
	engine_migrate_if_needed(e, t);
	return (0);
}

/* End a task at once. */
int
engine_task_kill(struct engine *e, int id, char **cause)
{
	struct task	*t;

	if ((t = engine_get_live(e, id, cause)) == NULL)
		return (-1);
	engine_touch(e, id);
	if (t->state == ENGINE_RUNNABLE)
		engine_dequeue(e, t, ENGINE_DEQ_EXIT);
	t->state = ENGINE_EXITED;
	t->exit = ENGINE_EXIT_KILLED;
	t->injected = 0;
	e->nlive--;
	return (0);
}

/* A real task seen blocked: it sleeps from now until engine_task_wake. */
int
engine_task_block(struct engine *e, int id, char **cause)
{
	struct task	*t;

	if ((t = engine_get_live(e, id, cause)) == NULL)
		return (-1);
	if (t->state != ENGINE_RUNNABLE) {
		*cause = xasprintf("task %s is not runnable", t->name);
		return (-1);
	}
	engine_sleep_until(e, t, e->now, ENGINE_NEVER);
	return (0);
}

/* A blocked real task seen runnable: it wakes at the next tick. */
int
engine_task_wake(struct engine *e, int id, char **cause)
{
	struct task	*t;

	if ((t = engine_get_live(e, id, cause)) == NULL)
		return (-1);
	engine_touch(e, id);
	if (t->state != ENGINE_SLEEPING || t->injected) {
		*cause = xasprintf("task %s is not blocked", t->name);
		return (-1);
	}
	if (t->wake != e->now) {
		t->wake = e->now;
		engine_wheel_add(e, t->id, e->now);
	}
	return (0);
}

/*
 * A pure query for a blocked real task the kernel just woke: were it
 * woken at the next tick (after sleeping since it blocked, so with the
 * climb if that is sleep_min or more), which CPU would it be placed on
 * (*cpu), at which rank (*rank), and would it be picked there ahead of
 * what that CPU runs now (1), or not (0)?  Ties go to the task queued
 * first, as a woken task joins the tail of its rank.  -1 if the task is
 * not a blocked real task.  Nothing changes: the wake itself is still
 * engine_task_wake, effective at the next tick.
 */
int
engine_wake_query(const struct engine *e, int id, int *cpu, int *rank)
{
	const struct task	*t;
	struct engine_task_info	 ti;
	uint64_t		 ts[ENGINE_PRIV_SIZE / 8];
	const struct cpu	*cp;
	int			 c;

	if ((t = engine_get(e, id)) == NULL || t->kind != ENGINE_REAL ||
	    t->state != ENGINE_SLEEPING || t->injected)
		return (-1);
	/* The policy's wake on a copy of its state: nothing changes. */
	memcpy(ts, t->ts, sizeof ts);
	e->policy->wake(&e->env, ts, e->now - t->sleep_start);
	memset(&ti, 0, sizeof ti);
	e->policy->info(&e->env, ts, &ti);
	if ((c = engine_place(e, t)) < 0)
		return (-1);
	*cpu = c;
	*rank = ti.rank;
	cp = &e->cpus[c];
	if (cp->nr == 0)
		return (1);
	/*
	 * A prio-array class (the staircase, rr) picks the head of its best
	 * list: it joins the tail of its own list, so it runs if that list
	 * is better than the best one as it stands after the last tick's
	 * charge, with whatever left the CPU gone.
	 */
	if (e->policy->pick == NULL)
		return (*(int *)((char *)ts + e->policy->rank_offset) <
		    prio_array_best(cp->rq));
	/* A class with its own pick: ahead of what ran last tick, if any. */
	if (cp->last.task == 0)
		return (1);
	return (ti.rank < cp->last.rank);
}

/* Schedule a scenario event; kept in order of `at`, then of addition. */
void
engine_event_add(struct engine *e, const struct engine_event *ev)
{
	size_t	i;

	if (e->nevents == e->events_size) {
		e->events_size = e->events_size ? e->events_size * 2 : 16;
		e->events = xreallocarray(e->events, e->events_size,
		    sizeof *e->events);
	}
	i = e->nevents;
	while (i > e->next_event && e->events[i - 1].at > ev->at) {
		e->events[i] = e->events[i - 1];
		i--;
	}
	/* (An ask waiting for its answer fired: it is before i, unmoved.) */
	e->events[i] = *ev;
	if (e->events[i].at < e->now)
		e->events[i].at = e->now;
	if (ev->text != NULL)
		e->events[i].text = xstrdup(ev->text);
	if (ev->answer != NULL)
		e->events[i].answer = xstrdup(ev->answer);
	e->nevents++;
}

/* Make text the caption; the counter moves. */
static void
engine_set_caption(struct engine *e, const char *text)
{
	free(e->caption);
	e->caption = xstrdup(text != NULL ? text : "");
	e->caption_seq++;
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
	case ENGINE_ACT_CAPTION:
		engine_set_caption(e, ev->text);
		break;
	case ENGINE_ACT_PAUSE:
		if (ev->text != NULL)
			engine_set_caption(e, ev->text);
		break;
	case ENGINE_ACT_ASK:
		engine_set_caption(e, ev->text);
		e->asked = (size_t)(ev - e->events) + 1;
		break;
	case ENGINE_ACT_SPEED:
	case ENGINE_ACT_MARK:
		break;
	case ENGINE_ACT_POLICY:
		/*
		 * Step 1, before wakes, balance and picks: the whole tick
		 * runs under the new policy (engine_tick reads the policy's
		 * pick after the events).
		 */
		if (ev->policy == NULL)
			rc = -1;
		else
			engine_set_policy(e, ev->policy);
		break;
	}
	free(cause);
	if (rc != 0)
		return;
	if (e->nfired == e->fired_size) {
		e->fired_size = e->fired_size ? e->fired_size * 2 : 8;
		e->fired = xreallocarray(e->fired, e->fired_size,
		    sizeof *e->fired);
	}
	e->fired[e->nfired++] = *ev;
}

/* --- The tick. ------------------------------------------------------- */

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
			cpu->last.rank = cpu->last.iter = cpu->last.left = 0;
			cpu->last.descent = 0;
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

/* --- Reading back. --------------------------------------------------- */

/* The next tick to run. */
uint64_t
engine_now(const struct engine *e)
{
	return (e->now);
}

/* The engine's parameters. */
const struct engine_params *
engine_params(const struct engine *e)
{
	return (&e->p);
}

/* The engine's policy. */
const struct engine_policy *
engine_get_policy(const struct engine *e)
{
	return (e->policy);
}

/* The highest task id. */
int
engine_ntasks(const struct engine *e)
{
	return (e->ntasks);
}

/* Tasks that have not exited. */
int
engine_nlive(const struct engine *e)
{
	return (e->nlive);
}

/* The number of groups. */
int
engine_ngroups(const struct engine *e)
{
	return (e->ngroups);
}

/* A group's name, or NULL. */
const char *
engine_group_name(const struct engine *e, int group)
{
	if (group < 0 || group >= e->ngroups)
		return (NULL);
	return (e->groups[group].name);
}

/* A group's engine CPUs; -1 if there is no such group. */
int
engine_group_cpus(const struct engine *e, int group, struct cpumask *cpus)
{
	if (group < 0 || group >= e->ngroups)
		return (-1);
	*cpus = e->groups[group].cpus;
	return (0);
}

/* Fill a snapshot of a task; -1 if there is no such id. */
int
engine_task_info(const struct engine *e, int id, struct engine_task_info *ti)
{
	const struct task	*t;

	if ((t = engine_get(e, id)) == NULL)
		return (-1);
	memset(ti, 0, sizeof *ti);
	ti->id = t->id;
	ti->name = t->name;
	ti->kind = t->kind;
	ti->state = t->state;
	ti->exit = t->exit;
	ti->cpu = t->state == ENGINE_RUNNABLE ? t->cpu : t->last_cpu;
	ti->running = t->state == ENGINE_RUNNABLE && t->last_cpu == t->cpu &&
	    e->cpus[t->cpu].last.task == t->id;
	ti->group = t->group;
	e->policy->info(&e->env, t->ts, ti);
	ti->ran = t->ran;
	ti->wake = t->state == ENGINE_SLEEPING || t->state == ENGINE_WAITING ?
	    t->wake : 0;
	ti->injected = t->injected;
	ti->affinity = t->affinity;
	ti->allowed = t->allowed;
	return (0);
}

/*
 * A task's state alone (and whether its sleep was injected), or -1: what
 * the real-process layer's pass over every task reads each tick, without
 * the whole snapshot engine_task_info fills.
 */
int
engine_task_state(const struct engine *e, int id, int *injected)
{
	const struct task	*t;

	if ((t = engine_get(e, id)) == NULL)
		return (-1);
	*injected = t->injected;
	return ((int)t->state);
}

/*
 * The log of changes: ids[0..*n) are the tasks whose snapshot
 * (engine_task_info) may have changed since the log began, oldest
 * first, with repeats; besides them, the tasks the CPUs ran in the last
 * tick (engine_cpu_info), which a tick changes without logging them (a
 * task is logged when it stops running, so one that ran is either
 * logged or still there).  A reader keeps the epoch returned and *n: while
 * the epoch is the same, ids from its *n on are the tasks touched
 * since.  Another epoch (another engine, a clone, the log full and
 * started again, a policy switch) means any task may have changed; so
 * does 0, returned for a policy whose snapshots read its runqueue (cfs:
 * a task's slice depends on the others queued) and while the log is not
 * kept (engine_track_changes; then *n is 0).
 */
uint64_t
engine_changes(const struct engine *e, const int **ids, size_t *n)
{
	*ids = e->log;
	*n = e->nlog;
	if (e->policy->info_rq || !e->tracking)
		return (0);
	return (e->epoch);
}

/* What a CPU ran in the last tick. */
void
engine_cpu_info(const struct engine *e, int cpu, struct engine_cpu_info *ci)
{
	*ci = e->cpus[cpu].last;
	ci->cpu = cpu;
	ci->nr = e->cpus[cpu].nr;
}

/* The events fired in the last tick. */
const struct engine_event *
engine_fired(const struct engine *e, size_t *n)
{
	*n = e->nfired;
	return (e->fired);
}

/* The tasks made runnable in the last tick (woken or started). */
const int *
engine_woken(const struct engine *e, size_t *n)
{
	*n = e->ndue;
	return (e->due);
}

/* The current caption (NULL if none yet) and its sequence number. */
const char *
engine_caption(const struct engine *e, uint64_t *seq)
{
	if (seq != NULL)
		*seq = e->caption_seq;
	return (e->caption);
}

/*
 * The answer to the last ask fired becomes the caption, once; returns
 * it, or NULL if no ask waits for its answer.
 */
const char *
engine_answer(struct engine *e)
{
	const struct engine_event	*ev;

	if (e->asked == 0)
		return (NULL);
	ev = &e->events[e->asked - 1];
	e->asked = 0;
	engine_set_caption(e, ev->answer);
	return (e->caption);
}

/* Is task id rightly queued on cpu (runnable, there, allowed)? */
int
engine_check_queued(const struct engine *e, int id, int cpu, char **cause)
{
	const struct task	*t;

	if (id < 1 || id > e->ntasks) {
		*cause = xasprintf("cpu %d: no task %d", cpu, id);
		return (-1);
	}
	t = &e->tasks[id - 1];
	if (t->cpu != cpu || t->state != ENGINE_RUNNABLE ||
	    !cpumask_test(&t->allowed, cpu)) {
		*cause = xasprintf("cpu %d: task %s misfiled (cpu %d state %s)",
		    cpu, t->name, t->cpu, engine_state_name(t->state));
		return (-1);
	}
	return (0);
}

/* Audit every runqueue and task. */
int
engine_check(const struct engine *e, char **cause)
{
	const struct task	*t;
	char			*why;
	int			 c, id, n, runnable = 0, queued = 0;

	if (e->tasks != NULL &&
	    (uintptr_t)e->tasks % _Alignof(struct task) != 0) {
		*cause = xasprintf("task array at %p is not %zu-byte aligned",
		    (void *)e->tasks, _Alignof(struct task));
		return (-1);
	}
	for (c = 0; c < e->p.cpus; c++) {
		n = e->policy->check(&e->env, e->cpus[c].rq, c, &why);
		if (n < 0) {
			*cause = xasprintf("cpu %d: %s", c, why);
			free(why);
			return (-1);
		}
		if (n != e->cpus[c].nr) {
			*cause = xasprintf("cpu %d: nr %d but %d queued", c,
			    e->cpus[c].nr, n);
			return (-1);
		}
		if ((n == 0) != cpumask_test(&e->idle, c)) {
			*cause = xasprintf("cpu %d: idle mask wrong", c);
			return (-1);
		}
		queued += n;
	}
	for (id = 1; id <= e->ntasks; id++) {
		t = &e->tasks[id - 1];
		if (t->state == ENGINE_RUNNABLE)
			runnable++;
		if (t->state == ENGINE_EXITED)
			continue;
		if (e->policy->check_task(&e->env, t->ts, t->nice, &why) != 0) {
			*cause = xasprintf("task %s: %s", t->name, why);
			free(why);
			return (-1);
		}
	}
	if (runnable != queued) {
		*cause = xasprintf("%d runnable tasks but %d queued", runnable,
		    queued);
		return (-1);
	}
	return (0);
}

/* The protocol's name for a state. */
const char *
engine_state_name(enum engine_state s)
{
	switch (s) {
	case ENGINE_WAITING:
	case ENGINE_SLEEPING:
		return ("sleeping");
	case ENGINE_RUNNABLE:
		return ("runnable");
	case ENGINE_EXITED:
		return ("exited");
	}
	return ("?");
}

/*
 * The stair of a task under a class without stairs: nice and its static
 * priority, the class's rank, the slice left, one descent of one stair.
 */
void
engine_stair_flat(struct engine_task_info *ti, int nice, int left)
{
	ti->stair.nice = nice;
	ti->stair.prio = 120 + nice;
	ti->stair.rank = ti->rank;
	ti->stair.iter = 1;
	ti->stair.left = left;
	ti->stair.descent = 1;
}

/* Write v in decimal at p; returns the end. */
char *
engine_utoa(char *p, uint64_t v)
{
	char	tmp[24];
	int	n = 0;

	do {
		tmp[n++] = '0' + v % 10;
		v /= 10;
	} while (v != 0);
	while (n > 0)
		*p++ = tmp[--n];
	return (p);
}

/* Write a signed v in decimal at p; returns the end. */
char *
engine_itoa(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		return (engine_utoa(p, (uint64_t)0 - (uint64_t)v));
	}
	return (engine_utoa(p, (uint64_t)v));
}

/* The known policies, the default first. */
static const struct engine_policy *const engine_policies[] = {
	&engine_policy_staircase,
	&engine_policy_o1,
	&engine_policy_cfs,
	&engine_policy_eevdf,
	&engine_policy_rr
};

/* A policy by name, or NULL. */
const struct engine_policy *
engine_policy_find(const char *name)
{
	size_t	i;

	for (i = 0; i < sizeof engine_policies / sizeof *engine_policies; i++)
		if (strcmp(engine_policies[i]->name, name) == 0)
			return (engine_policies[i]);
	return (NULL);
}

/* The known policies' names, comma-separated. */
const char *
engine_policy_names(void)
{
	return ("staircase, o1, cfs, eevdf, rr");
}

/* --- Snapshots. ------------------------------------------------------ */

/* A malloc'd copy of the first n of size elements at p (NULL if none). */
static void *
engine_dup(const void *p, size_t n, size_t size)
{
	void	*q;

	if (p == NULL || n == 0)
		return (NULL);
	q = xreallocarray(NULL, n, size);
	memcpy(q, p, n * size);
	return (q);
}

/*
 * A deep copy of e: every array it owns is copied (to its used length:
 * the spare room of the original is not state), every string duplicated,
 * and the pointers the policy is lent (env) pointed at the copy's own.
 * The name hashes keep their size, as a name's slot depends on it.  A
 * new pointer in struct engine needs its copy here and its bytes in
 * engine_memory(); test_engine_clone runs a clone on after its original
 * is freed, so ASan finds one forgotten.
 */
struct engine *
engine_clone(const struct engine *e)
{
	struct engine	*c;
	size_t		 j, k;
	int		 i;

	c = xmalloc(sizeof *c);
	*c = *e;

	c->tasks = NULL;
	c->tasks_size = e->ntasks;
	if (e->ntasks > 0) {
		c->tasks = engine_tasks_resize(NULL, 0, e->ntasks);
		memcpy(c->tasks, e->tasks, (size_t)e->ntasks * sizeof *c->tasks);
	}
	for (i = 0; i < e->ntasks; i++)
		c->tasks[i].pattern = engine_dup(e->tasks[i].pattern,
		    e->tasks[i].npattern, sizeof *e->tasks[i].pattern);
	c->next = engine_dup(e->next, (size_t)e->ntasks + 1, sizeof *e->next);
	c->prev = engine_dup(e->prev, (size_t)e->ntasks + 1, sizeof *e->prev);

	c->names = engine_dup(e->names, e->names_size, sizeof *e->names);
	c->gnames = engine_dup(e->gnames, e->gnames_size, sizeof *e->gnames);
	c->groups = engine_dup(e->groups, (size_t)e->ngroups,
	    sizeof *e->groups);
	c->groups_size = e->ngroups;
	for (i = 0; i < e->ngroups; i++)
		c->groups[i].name = xstrdup(e->groups[i].name);

	for (j = 0; j < WHEEL_SIZE; j++) {
		c->wheel[j].v = engine_dup(e->wheel[j].v, e->wheel[j].n,
		    sizeof *e->wheel[j].v);
		c->wheel[j].size = e->wheel[j].n;
	}
	c->due = engine_dup(e->due, e->ndue, sizeof *e->due);
	c->due_size = e->ndue;

	c->events = engine_dup(e->events, e->nevents, sizeof *e->events);
	c->events_size = e->nevents;
	for (j = 0; j < e->nevents; j++) {
		if (e->events[j].text != NULL)
			c->events[j].text = xstrdup(e->events[j].text);
		if (e->events[j].answer != NULL)	/* an ask's */
			c->events[j].answer = xstrdup(e->events[j].answer);
	}
	/*
	 * A fired event is a copy of one of the events run so far, its text
	 * that event's: point it at the copy's (searching back from the
	 * last run, where it is).
	 */
	c->fired = engine_dup(e->fired, e->nfired, sizeof *e->fired);
	c->fired_size = e->nfired;
	for (j = 0; j < e->nfired; j++) {
		if (e->fired[j].text == NULL)
			continue;
		for (k = e->next_event; k > 0; k--) {
			if (e->events[k - 1].text == e->fired[j].text)
				break;
		}
		if (k == 0) {
			fatalx("engine_clone: a fired event that is not "
			    "an event");
		}
		c->fired[j].text = c->events[k - 1].text;
		c->fired[j].answer = c->events[k - 1].answer;
	}
	c->caption = e->caption != NULL ? xstrdup(e->caption) : NULL;
	/*
	 * A clone's log starts empty, at a new epoch: all may differ.  It
	 * is tracked if the original's is (keyframes, seeks, branches).
	 */
	c->log = NULL;
	c->log_size = 0;
	engine_changes_reset(c);

	c->cpus = engine_dup(e->cpus, (size_t)e->p.cpus, sizeof *e->cpus);
	if (posix_memalign((void **)&c->rqs, 64,
	    e->rq_stride * (size_t)e->p.cpus) != 0) {
		fatalx("out of memory for runqueues");
	}
	memcpy(c->rqs, e->rqs, e->rq_stride * (size_t)e->p.cpus);

	c->env.tasks = (char *)c->tasks;
	c->env.links.next = c->next;
	c->env.links.prev = c->prev;
	c->env.rqs = c->rqs;
	c->env.e = c;
	for (i = 0; i < e->p.cpus; i++) {
		c->cpus[i].rq = c->rqs + c->rq_stride * (size_t)i;
		if (c->policy->rq_clone != NULL)
			c->policy->rq_clone(&c->env, c->cpus[i].rq,
			    e->cpus[i].rq);
	}
	return (c);
}

/* The bytes e holds: itself and every array and string it owns. */
size_t
engine_memory(const struct engine *e)
{
	size_t	n, j;
	int	i;

	n = sizeof *e;
	n += (size_t)e->tasks_size * sizeof *e->tasks;
	for (i = 0; i < e->ntasks; i++)
		n += e->tasks[i].npattern * sizeof *e->tasks[i].pattern;
	if (e->next != NULL)
		n += 2 * ((size_t)e->tasks_size + 1) * sizeof *e->next;
	n += e->names_size * sizeof *e->names;
	n += e->gnames_size * sizeof *e->gnames;
	n += (size_t)e->groups_size * sizeof *e->groups;
	for (i = 0; i < e->ngroups; i++)
		n += strlen(e->groups[i].name) + 1;
	for (j = 0; j < WHEEL_SIZE; j++)
		n += e->wheel[j].size * sizeof *e->wheel[j].v;
	n += e->due_size * sizeof *e->due;
	n += e->events_size * sizeof *e->events;
	for (j = 0; j < e->nevents; j++) {
		if (e->events[j].text != NULL)
			n += strlen(e->events[j].text) + 1;
	}
	n += e->fired_size * sizeof *e->fired;
	n += e->log_size * sizeof *e->log;
	if (e->caption != NULL)
		n += strlen(e->caption) + 1;
	n += (size_t)e->p.cpus * (sizeof *e->cpus + e->rq_stride);
	for (i = 0; i < e->p.cpus; i++) {
		if (e->policy->rq_memory != NULL)
			n += e->policy->rq_memory(e->cpus[i].rq);
	}
	return (n);
}
