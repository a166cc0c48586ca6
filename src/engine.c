/*
 * engine.c -- the multi-CPU engine core: per-CPU runqueues, the tick order,
 * placement, idle pull and periodic balance (SPEC.md section 1).
 *
 * Each CPU keeps 140 doubly linked lists, one per rank, threaded through
 * the tasks by id (0 = none), and a 140-bit bitmap of the non-empty ones;
 * the pick is a find-first-set.  Sleeping tasks wait in a hashed timing
 * wheel keyed by their wake tick, so a tick costs the same whatever the
 * number of tasks.  Nothing here does I/O, reads a clock or touches a
 * global: the same calls give the same trace.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "xmalloc.h"

#define BITMAP_WORDS	((ENGINE_NRANKS + 63) / 64)
#define WHEEL_SIZE	4096		/* power of two */

/*
 * A task.  The first 64 bytes hold what a tick touches when the task runs
 * (its stair, queue position, burst and CPU time); names, masks and the
 * pattern follow.  With 100 000 tasks a switch then costs one cold line.
 */
struct task {
	struct engine_stair	 st;
	int			 cpu;		/* queued on, or -1 */
	int			 qrank;		/* the rank list it is on */
	int			 last_cpu;	/* last ran on, or -1 */
	enum engine_state	 state;
	uint32_t		 burst_left;	/* ticks left in this run */
	int			 id;
	uint64_t		 ran;
	uint64_t		 runtime;	/* 0: none */

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
	uint64_t	bitmap[BITMAP_WORDS];
	int		head[ENGINE_NRANKS];
	int		tail[ENGINE_NRANKS];
	struct engine_cpu_info last;
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

	struct cpu			*cpus;
	struct cpumask			 idle;		/* CPUs with nr == 0 */
	struct task			*tasks;		/* tasks[id - 1] */
	/*
	 * The rank lists' links live apart from the tasks, indexed by id:
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
	int				*due;		/* scratch: ids due */
	size_t				 due_size;

	struct engine_event		*events;	/* sorted by at */
	size_t				 nevents, events_size, next_event;
	struct engine_event		*fired;
	size_t				 nfired, fired_size;

	char				*caption;
	uint64_t			 caption_seq;
};

/* Fill the spec's defaults. */
void
engine_params_default(struct engine_params *p)
{
	p->cpus = 1;
	p->rr_interval = 10;
	p->sleep_min = 1;
	p->balance_interval = 100;
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
	return (0);
}

/* Create an engine; the parameters must have passed engine_params_check. */
struct engine *
engine_create(const struct engine_params *p, const struct engine_policy *pol)
{
	struct engine	*e;
	int		 c;

	e = xcalloc(1, sizeof *e);
	e->p = *p;
	e->policy = pol != NULL ? pol : &engine_policy_staircase;
	e->cpus = xcalloc(p->cpus, sizeof *e->cpus);
	cpumask_fill(&e->idle, p->cpus);
	for (c = 0; c < p->cpus; c++)
		e->cpus[c].last.cpu = c;
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
	for (j = 0; j < e->nevents; j++)
		free((char *)e->events[j].text);
	free(e->events);
	free(e->fired);
	free(e->caption);
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

/* Append a task at the tail of its rank's list on cpu c. */
static void
engine_enqueue(struct engine *e, struct task *t, int c)
{
	struct cpu	*cpu = &e->cpus[c];
	int		 r = t->st.rank;

	t->cpu = c;
	t->qrank = r;
	e->next[t->id] = 0;
	e->prev[t->id] = cpu->tail[r];
	if (cpu->tail[r] != 0)
		e->next[cpu->tail[r]] = t->id;
	else
		cpu->head[r] = t->id;
	cpu->tail[r] = t->id;
	cpu->bitmap[r / 64] |= (uint64_t)1 << (r % 64);
	if (cpu->nr++ == 0)
		cpumask_clear(&e->idle, c);
}

/* Take a task off its CPU's list. */
static void
engine_dequeue(struct engine *e, struct task *t)
{
	struct cpu	*cpu = &e->cpus[t->cpu];
	int		 r = t->qrank;	/* the policy may have moved st.rank */

	int		 id = t->id, prev = e->prev[id], next = e->next[id];

	if (prev != 0)
		e->next[prev] = next;
	else
		cpu->head[r] = next;
	if (next != 0)
		e->prev[next] = prev;
	else
		cpu->tail[r] = prev;
	if (cpu->head[r] == 0)
		cpu->bitmap[r / 64] &= ~((uint64_t)1 << (r % 64));
	if (--cpu->nr == 0)
		cpumask_set(&e->idle, t->cpu);
	t->cpu = -1;
	e->prev[id] = e->next[id] = 0;
}

/* The best (lowest) non-empty rank on a CPU, or -1. */
static int
engine_best_rank(const struct cpu *cpu)
{
	int	i;

	for (i = 0; i < BITMAP_WORDS; i++)
		if (cpu->bitmap[i] != 0)
			return (i * 64 + __builtin_ctzll(cpu->bitmap[i]));
	return (-1);
}

/* The next non-empty rank above r on a CPU, or -1. */
static int
engine_next_rank(const struct cpu *cpu, int r)
{
	return (cpumask_bits_next(cpu->bitmap, BITMAP_WORDS, r));
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

/*
 * The task to move from CPU src to CPU dst: not the head of src's best
 * rank (it would run there next), allowed on dst; the best-ranked, and
 * within a rank the one nearest the tail.
 */
static struct task *
engine_steal_candidate(struct engine *e, int src, int dst)
{
	const struct cpu	*cpu = &e->cpus[src];
	struct task		*t;
	int			 best, r, id;

	best = engine_best_rank(cpu);
	for (r = best; r >= 0; r = engine_next_rank(cpu, r)) {
		for (id = cpu->tail[r]; id != 0; id = e->prev[id]) {
			if (r == best && id == cpu->head[r])
				continue;
			t = &e->tasks[id - 1];
			if (cpumask_test(&t->allowed, dst))
				return (t);
		}
	}
	return (NULL);
}

/* Move one task from src to dst if there is a candidate; 1 if moved. */
static int
engine_pull(struct engine *e, int src, int dst)
{
	struct task	*t;

	if ((t = engine_steal_candidate(e, src, dst)) == NULL)
		return (0);
	engine_dequeue(e, t);
	engine_enqueue(e, t, dst);
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

/* File a wake for tick `tick` in the timing wheel. */
static void
engine_wheel_add(struct engine *e, int id, uint64_t tick)
{
	struct bucket	*b = &e->wheel[tick & (WHEEL_SIZE - 1)];

	if (b->n == b->size) {
		b->size = b->size ? b->size * 2 : 8;
		b->v = xreallocarray(b->v, b->size, sizeof *b->v);
	}
	b->v[b->n].tick = tick;
	b->v[b->n].id = id;
	b->n++;
}

/* Put a task to sleep from tick `from`, runnable again at `wake`. */
static void
engine_sleep_until(struct engine *e, struct task *t, uint64_t from,
    uint64_t wake)
{
	if (t->state == ENGINE_RUNNABLE)
		engine_dequeue(e, t);
	t->state = ENGINE_SLEEPING;
	t->sleep_start = from;
	t->wake = wake;
	if (wake != ENGINE_NEVER)
		engine_wheel_add(e, t->id, wake);
}

/* Make a task runnable at tick now: climb if it slept long enough, place. */
static void
engine_make_runnable(struct engine *e, struct task *t, uint64_t now)
{
	if (t->state == ENGINE_SLEEPING &&
	    now - t->sleep_start >= (uint64_t)e->p.sleep_min)
		e->policy->wake(&t->st, e->p.rr_interval);
	t->state = ENGINE_RUNNABLE;
	t->injected = 0;
	t->wake = 0;
	engine_enqueue(e, t, engine_place(e, t));
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

/* Step 2: everything due at `now` becomes runnable, in id order. */
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
	for (i = 0; i < n; i++) {
		if (i > 0 && e->due[i] == e->due[i - 1])
			continue;
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
	engine_dequeue(e, t);
	engine_enqueue(e, t, engine_place(e, t));
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
		fprintf(stderr, "stairs: out of memory for %d tasks\n", size);
		abort();
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
	}
	t = &e->tasks[e->ntasks];
	memset(t, 0, sizeof *t);
	t->id = ++e->ntasks;
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
	e->policy->init(&t->st, spec->nice, e->p.rr_interval);
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
	int		 c;

	if ((t = engine_get_live(e, id, cause)) == NULL)
		return (-1);
	if (nice < -20 || nice > 19) {
		*cause = xasprintf("nice %d is outside -20..19", nice);
		return (-1);
	}
	if (t->state == ENGINE_RUNNABLE) {
		c = t->cpu;
		engine_dequeue(e, t);
		e->policy->renice(&t->st, nice, e->p.rr_interval);
		engine_enqueue(e, t, c);
	} else
		e->policy->renice(&t->st, nice, e->p.rr_interval);
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
	if (t->state == ENGINE_RUNNABLE)
		engine_dequeue(e, t);
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
	struct engine_stair	 st;
	int			 c, best;

	if ((t = engine_get(e, id)) == NULL || t->kind != ENGINE_REAL ||
	    t->state != ENGINE_SLEEPING || t->injected)
		return (-1);
	st = t->st;
	if (e->now - t->sleep_start >= (uint64_t)e->p.sleep_min)
		e->policy->wake(&st, e->p.rr_interval);
	if ((c = engine_place(e, t)) < 0)
		return (-1);
	*cpu = c;
	*rank = st.rank;
	best = engine_best_rank(&e->cpus[c]);
	return (best < 0 || st.rank < best);
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
	e->events[i] = *ev;
	if (e->events[i].at < e->now)
		e->events[i].at = e->now;
	if (ev->text != NULL)
		e->events[i].text = xstrdup(ev->text);
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
	case ENGINE_ACT_CAPTION:
		free(e->caption);
		e->caption = xstrdup(ev->text != NULL ? ev->text : "");
		e->caption_seq++;
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
 * The running task just left the head: start loading the one likely to
 * run next, while the other CPUs take their turn.
 */
static void
engine_prefetch_pick(const struct engine *e, const struct cpu *cpu)
{
	int	r;

	if ((r = engine_best_rank(cpu)) >= 0)
		__builtin_prefetch(&e->tasks[cpu->head[r] - 1]);
}

/*
 * Step 5 for one CPU: run its pick for one tick.  The trace row keeps
 * the stair as it was during the tick; then the tick is charged, expiry
 * requeues at the tail, and a finished run burst or runtime ends it.
 */
static void
engine_run(struct engine *e, int c, struct task *t, uint64_t now)
{
	struct cpu	*cpu = &e->cpus[c];

	cpu->last.task = t->id;
	cpu->last.rank = t->st.rank;
	cpu->last.iter = t->st.iter;
	cpu->last.left = t->st.left;
	cpu->last.descent = t->st.descent;
	t->ran++;
	t->last_cpu = c;
	if (e->policy->charge(&t->st, e->p.rr_interval)) {
		engine_dequeue(e, t);
		engine_enqueue(e, t, c);
		engine_prefetch_pick(e, cpu);
	}
	if (t->runtime != 0 && t->ran >= t->runtime) {
		engine_dequeue(e, t);
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
	engine_prefetch_pick(e, cpu);
}

/* Run one tick in the order of SPEC.md section 1. */
void
engine_tick(struct engine *e)
{
	uint64_t	 now = e->now;
	struct cpu	*cpu;
	int		 c, r, picks[ENGINE_MAX_CPUS];

	e->nfired = 0;
	while (e->next_event < e->nevents &&
	    e->events[e->next_event].at <= now)
		engine_event_apply(e, &e->events[e->next_event++]);
	engine_wake_due(e, now);
	engine_balance(e, now);
	for (c = 0; c < e->p.cpus; c++) {
		cpu = &e->cpus[c];
		r = engine_best_rank(cpu);
		picks[c] = r < 0 ? 0 : cpu->head[r];
	}
	for (c = 0; c < e->p.cpus; c++) {
		cpu = &e->cpus[c];
		if (picks[c] == 0) {
			cpu->last.task = 0;
			cpu->last.rank = cpu->last.iter = cpu->last.left = 0;
			cpu->last.descent = 0;
		} else
			engine_run(e, c, &e->tasks[picks[c] - 1], now);
		cpu->last.nr = cpu->nr;
	}
	e->now = now + 1;
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
	ti->stair = t->st;
	ti->ran = t->ran;
	ti->wake = t->state == ENGINE_SLEEPING || t->state == ENGINE_WAITING ?
	    t->wake : 0;
	ti->injected = t->injected;
	ti->affinity = t->affinity;
	ti->allowed = t->allowed;
	return (0);
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

/* The current caption (NULL if none yet) and its sequence number. */
const char *
engine_caption(const struct engine *e, uint64_t *seq)
{
	if (seq != NULL)
		*seq = e->caption_seq;
	return (e->caption);
}

/* Check one task's stair against the staircase invariants. */
static int
engine_check_stair(const struct engine *e, const struct task *t, char **cause)
{
	const struct engine_stair	*st = &t->st;
	int				 L = engine_stairs(st->nice), top;

	top = st->prio + st->iter - 1;
	if (st->prio != 120 + st->nice || st->rank < st->prio ||
	    st->rank > ENGINE_BOTTOM || st->iter < 1 || st->iter > L ||
	    st->rank < top || st->left < 1 ||
	    st->left > (st->rank == top ? st->iter : 1) * e->p.rr_interval) {
		*cause = xasprintf("task %s: bad stair nice=%d rank=%d "
		    "iter=%d left=%d", t->name, st->nice, st->rank, st->iter,
		    st->left);
		return (-1);
	}
	return (0);
}

/* Audit every runqueue and task. */
int
engine_check(const struct engine *e, char **cause)
{
	const struct cpu	*cpu;
	const struct task	*t;
	int			 c, r, id, prev, n, runnable = 0, queued = 0;
	int			 bit;

	if (e->tasks != NULL &&
	    (uintptr_t)e->tasks % _Alignof(struct task) != 0) {
		*cause = xasprintf("task array at %p is not %zu-byte aligned",
		    (void *)e->tasks, _Alignof(struct task));
		return (-1);
	}

	for (c = 0; c < e->p.cpus; c++) {
		cpu = &e->cpus[c];
		n = 0;
		for (r = 0; r < ENGINE_NRANKS; r++) {
			bit = (cpu->bitmap[r / 64] >> (r % 64)) & 1;
			if (bit != (cpu->head[r] != 0)) {
				*cause = xasprintf("cpu %d rank %d: bitmap %d "
				    "but head %d", c, r, bit, cpu->head[r]);
				return (-1);
			}
			prev = 0;
			for (id = cpu->head[r]; id != 0; id = e->next[id]) {
				t = &e->tasks[id - 1];
				if (e->prev[id] != prev || t->cpu != c ||
				    t->qrank != r || t->st.rank != r ||
				    t->state != ENGINE_RUNNABLE ||
				    !cpumask_test(&t->allowed, c)) {
					*cause = xasprintf("cpu %d rank %d: task "
					    "%s misfiled (cpu %d rank %d)", c,
					    r, t->name, t->cpu, t->st.rank);
					return (-1);
				}
				prev = id;
				if (++n > e->ntasks) {
					*cause = xasprintf("cpu %d: loop", c);
					return (-1);
				}
			}
			if (cpu->tail[r] != prev) {
				*cause = xasprintf("cpu %d rank %d: bad tail",
				    c, r);
				return (-1);
			}
		}
		if (n != cpu->nr) {
			*cause = xasprintf("cpu %d: nr %d but %d queued", c,
			    cpu->nr, n);
			return (-1);
		}
		queued += n;
	}
	for (id = 1; id <= e->ntasks; id++) {
		t = &e->tasks[id - 1];
		if (t->state == ENGINE_RUNNABLE)
			runnable++;
		if (t->state != ENGINE_EXITED &&
		    engine_check_stair(e, t, cause) != 0)
			return (-1);
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
