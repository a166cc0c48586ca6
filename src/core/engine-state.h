/*
 * engine-state.h -- the engine's insides, shared by its files alone:
 * engine-state.c (lookups, placement, the slow paths of the queues),
 * engine-info.c (snapshots, the log of changes, notes, audits, clones),
 * engine-why.c (the why of each pick), engine-task.c (tasks, names,
 * groups, live changes) and engine-tick.c (the engine's life and its
 * tick), each file calling only those before it.  Nothing outside
 * src/core/engine*.c includes it: the rest of the program sees engine.h.
 */
#ifndef STAIRS_ENGINE_STATE_H
#define STAIRS_ENGINE_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "prio_array.h"

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
	int			 once;		/* exit after the last run */
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
	int				 policy_held;	/* policy events pass */
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

	struct engine_notes		 notes;		/* of the last tick */
	/* Explaining: the why lines of the last tick (engine-why.c). */
	int				 explaining;
	struct engine_whys		 whys;

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
};

/* engine-state.c */
struct task	*engine_get(const struct engine *, int id);
struct task	*engine_get_live(struct engine *, int id, char **cause);
int		 engine_place(const struct engine *, const struct task *);
struct task	*engine_tasks_resize(struct task *, int n, int size);
void		 engine_bucket_grow(struct bucket *);
void		 engine_changes_reset(struct engine *);
void		 engine_log_full(struct engine *);

/* engine-why.c */
void		 engine_why_tick(struct engine *, const int *picks);

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

#endif
