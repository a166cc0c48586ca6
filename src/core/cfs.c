/*
 * cfs.c -- the Completely Fair Scheduler as Linux 2.6.24 has it
 * (kernel/sched_fair.c and the CFS parts of kernel/sched.c), at 1 ms
 * ticks.  docs/POLICIES.md cites the lines read and every choice made.
 *
 * Each task has a vruntime: the ns it ran, scaled by 1024 / its weight
 * (prio_to_weight, nice 0 = 1024, each nice level about 1.25x).  Each
 * CPU keeps its waiting tasks ordered by vruntime (the kernel's rbtree,
 * here a binary heap with the insertion order breaking ties, as the
 * rbtree puts equal keys to the right; its nodes carry their keys and
 * each task's place in it is kept in the engine's link array, so a sift
 * touches neither the tasks nor their cache lines) and runs the leftmost.  The
 * running task is out of the tree.  It is charged every tick and gives
 * way when it ran more than its slice of the period (sched_latency 20 ms
 * shared by weight, stretched past 5 tasks), or when a task woken with
 * a vruntime more than wakeup_granularity (10 ms, scaled by the current
 * task's weight) below its own arrives.  min_vruntime follows the
 * smallest vruntime and only grows; a sleeper is placed no lower than
 * min_vruntime - sched_latency; a new task at min_vruntime plus its
 * share of the period (START_DEBIT).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "weight.h"
#include "xmalloc.h"

#define CFS_NS			1000000ULL	/* ns per tick */
#define CFS_LATENCY		20000000ULL	/* sysctl_sched_latency */
#define CFS_MIN_GRANULARITY	4000000ULL	/* sysctl_sched_min_granularity */
#define CFS_NR_LATENCY		5		/* latency / min_granularity */
#define CFS_WAKEUP_GRANULARITY	10000000ULL	/* sysctl_sched_wakeup_... */
#define CFS_WMULT_CONST		(1ULL << 32)
#define CFS_WMULT_SHIFT		32
#define CFS_SRR(x, y)		(((x) + (1ULL << ((y) - 1))) >> (y))

/* A task's state (16 bytes). */
struct cfs_task {
	int64_t		vruntime;	/* ns, on the rq of `cpu` */
	uint32_t	slice_ran;	/* ticks since picked */
	int16_t		cpu;		/* rq it was last queued on, -1: none */
	int8_t		nice;
};

/* A waiting task in the heap: its key, then who it is. */
struct cfs_node {
	int64_t		vruntime;
	uint64_t	seq;		/* insertion order, for ties */
	int		id;
};

/*
 * What cfs_why needs that the state no longer shows, kept only while
 * explaining; each stamped with the tick it concerns + 1 (0: none): the
 * running task past its slice, a wake that preempted, an arrival that
 * rescheduled.
 */
struct cfs_why {
	uint64_t	slice_at;	/* the tick after the slice ended */
	int		slice_task;
	uint64_t	slice_ns;	/* its slice */
	int		slice_nr;	/* tasks sharing the period */
	uint64_t	woke_at;
	int		woke_task;
	int64_t		woke_gran;	/* wakeup_granularity, scaled */
	int64_t		woke_curr;	/* the running task's vruntime */
	uint64_t	new_at;
	int		new_task;
};

/* A CPU's runqueue. */
struct cfs_rq {
	struct cfs_node	*heap;		/* waiting tasks, a min-heap */
	int		 nheap, heap_size;
	uint64_t	 seq;
	int64_t		 min_vruntime;
	uint64_t	 load;		/* weights of nr tasks */
	int		 nr;		/* runnable, current included */
	int		 curr;		/* running task, 0: none */
	int		 need_resched;
	struct cfs_why	 why;		/* explaining only */
};

_Static_assert(sizeof (struct cfs_task) <= ENGINE_PRIV_SIZE,
    "cfs's task state must fit the engine's");

/* A nice level's weight. */
static uint32_t
cfs_weight(int nice)
{
	return (sched_prio_to_weight[nice + 20]);
}

/*
 * calc_delta_mine(delta, weight, lw) of 2.6.24: delta * weight / lw's
 * weight, through lw's inverse with shift-and-round.
 */
static uint64_t
cfs_calc_delta_mine(uint64_t delta, uint64_t weight, int lw_nice)
{
	uint64_t	tmp, inv = sched_prio_to_wmult[lw_nice + 20];

	tmp = delta * weight;
	if (tmp > CFS_WMULT_CONST)
		tmp = CFS_SRR(CFS_SRR(tmp, CFS_WMULT_SHIFT / 2) * inv,
		    CFS_WMULT_SHIFT / 2);
	else
		tmp = CFS_SRR(tmp * inv, CFS_WMULT_SHIFT);
	return (tmp > INT64_MAX ? INT64_MAX : tmp);
}

/* calc_delta_fair: delta * 1024 / weight (nice 0: delta itself). */
static uint64_t
cfs_delta_fair(uint64_t delta, int nice)
{
	if (cfs_weight(nice) == NICE_0_LOAD)
		return (delta);
	return (cfs_calc_delta_mine(delta, NICE_0_LOAD, nice));
}

/* __sched_period: sched_latency, or latency * nr / 5 past 5 tasks. */
static uint64_t
cfs_period(uint64_t nr)
{
	if (nr > CFS_NR_LATENCY)
		return (CFS_LATENCY * nr / CFS_NR_LATENCY);
	return (CFS_LATENCY);
}

/* sched_slice: period(nr_running) * weight / rq weight, ns. */
static uint64_t
cfs_slice(const struct cfs_rq *q, int nice)
{
	if (q->load == 0)
		return (CFS_LATENCY);
	return (cfs_period((uint64_t)q->nr) * cfs_weight(nice) / q->load);
}

/* --- The heap (the rbtree's order). ---------------------------------- */

/* Does a come before b: smaller vruntime, then inserted earlier? */
static int
cfs_before(const struct cfs_node *a, const struct cfs_node *b)
{
	int64_t	d = (int64_t)((uint64_t)a->vruntime - (uint64_t)b->vruntime);

	return (d < 0 || (d == 0 && a->seq < b->seq));
}

/* A task's index in its CPU's heap, or -1 (kept in links.next, + 1). */
static int
cfs_pos(const struct engine_env *env, int id)
{
	return (env->links.next[id] - 1);
}

/* Put node n at heap index i and note where it is. */
static void
cfs_heap_set(const struct engine_env *env, struct cfs_rq *q, int i,
    const struct cfs_node *n)
{
	q->heap[i] = *n;
	env->links.next[n->id] = i + 1;
}

/* Move the node at i up or down until the heap holds. */
static void
cfs_heap_fix(const struct engine_env *env, struct cfs_rq *q, int i)
{
	struct cfs_node	n = q->heap[i];
	int		p, c;

	while (i > 0) {
		p = (i - 1) / 2;
		if (!cfs_before(&n, &q->heap[p]))
			break;
		cfs_heap_set(env, q, i, &q->heap[p]);
		i = p;
	}
	for (;;) {
		c = 2 * i + 1;
		if (c >= q->nheap)
			break;
		if (c + 1 < q->nheap && cfs_before(&q->heap[c + 1],
		    &q->heap[c]))
			c++;
		if (!cfs_before(&q->heap[c], &n))
			break;
		cfs_heap_set(env, q, i, &q->heap[c]);
		i = c;
	}
	cfs_heap_set(env, q, i, &n);
}

/* __enqueue_entity: into the tree, after any equal keys. */
static void
cfs_heap_add(const struct engine_env *env, struct cfs_rq *q, int id,
    const struct cfs_task *t)
{
	struct cfs_node	*n;

	if (q->nheap == q->heap_size) {
		q->heap_size = q->heap_size ? q->heap_size * 2 : 16;
		q->heap = xreallocarray(q->heap, q->heap_size,
		    sizeof *q->heap);
	}
	n = &q->heap[q->nheap++];
	n->vruntime = t->vruntime;
	n->seq = q->seq++;
	n->id = id;
	env->links.next[id] = q->nheap;
	cfs_heap_fix(env, q, q->nheap - 1);
}

/* __dequeue_entity: out of the tree. */
static void
cfs_heap_del(const struct engine_env *env, struct cfs_rq *q, int id)
{
	int	i = cfs_pos(env, id);

	env->links.next[id] = 0;
	if (i == --q->nheap)
		return;
	cfs_heap_set(env, q, i, &q->heap[q->nheap]);
	cfs_heap_fix(env, q, i);
}

/* The CPU index of a runqueue. */
static int
cfs_cpu_of(const struct engine_env *env, const void *rq)
{
	return ((int)(((const char *)rq - env->rqs) / env->rq_stride));
}

/* --- The class operations. ------------------------------------------ */

/* An empty runqueue. */
static void
cfs_rq_init(const struct engine_env *env, void *rq)
{
	struct cfs_rq	*q = rq;

	(void)env;
	q->heap = NULL;
	q->nheap = q->heap_size = 0;
	q->seq = 0;
	q->min_vruntime = 0;
	q->load = 0;
	q->nr = q->curr = q->need_resched = 0;
}

/* Free the heap. */
static void
cfs_rq_free(void *rq)
{
	free(((struct cfs_rq *)rq)->heap);
}

/* Snapshots: dst holds src's bytes; give it its own heap. */
static void
cfs_rq_clone(const struct engine_env *env, void *dst, const void *src)
{
	struct cfs_rq		*d = dst;
	const struct cfs_rq	*q = src;

	(void)env;
	d->heap = NULL;
	d->heap_size = q->nheap;
	if (q->nheap > 0) {
		d->heap = xreallocarray(NULL, q->nheap, sizeof *d->heap);
		memcpy(d->heap, q->heap, (size_t)q->nheap * sizeof *d->heap);
	}
}

/* The heap's bytes. */
static size_t
cfs_rq_memory(const void *rq)
{
	return ((size_t)((const struct cfs_rq *)rq)->heap_size *
	    sizeof (struct cfs_node));
}

/* A new task: placed when it is first queued. */
static void
cfs_task_init(const struct engine_env *env, void *ts, int nice)
{
	struct cfs_task	*t = ts;

	(void)env;
	t->vruntime = 0;
	t->slice_ran = 0;
	t->cpu = -1;
	t->nice = (int8_t)nice;
}

/*
 * check_preempt_wakeup: the current task gives way if the newcomer's
 * vruntime is more than wakeup_granularity (scaled by the current
 * task's weight) below its own.
 */
static void
cfs_preempt_check(const struct engine_env *env, struct cfs_rq *q,
    const struct cfs_task *t)
{
	const struct cfs_task	*c;
	int64_t			 gran;

	if (q->curr == 0)
		return;
	c = engine_ts(env, q->curr);
	gran = (int64_t)cfs_delta_fair(CFS_WAKEUP_GRANULARITY, c->nice);
	if ((int64_t)((uint64_t)c->vruntime - (uint64_t)t->vruntime) > gran) {
		q->need_resched = 1;
		if (env->explain) {
			q->why.woke_at = env->now + 1;
			q->why.woke_task = engine_ts_id(env, t);
			q->why.woke_gran = gran;
			q->why.woke_curr = c->vruntime;
		}
	}
}

/*
 * Queue a task.  One that last ran on another CPU has its vruntime
 * moved by the difference of the two min_vruntimes (set_task_cpu).  A
 * new one is placed at min_vruntime + its vslice (task_new_fair, with
 * START_DEBIT) and the current task is rescheduled; a woken one no
 * lower than min_vruntime - sched_latency (place_entity,
 * NEW_FAIR_SLEEPERS).  A woken or pulled task may preempt.
 */
static void
cfs_enqueue(const struct engine_env *env, void *rq, int id, void *ts,
    enum engine_enq why)
{
	struct cfs_rq		*q = rq;
	struct cfs_task		*t = ts;
	const struct cfs_rq	*old;
	int			 cpu = cfs_cpu_of(env, rq);
	int64_t			 v;
	uint64_t		 w = cfs_weight(t->nice);

	if (why != ENGINE_ENQ_NEW && t->cpu >= 0 && t->cpu != cpu) {
		old = engine_rq(env, t->cpu);
		t->vruntime -= old->min_vruntime - q->min_vruntime;
	}
	t->cpu = (int16_t)cpu;
	if (why == ENGINE_ENQ_NEW) {
		t->vruntime = q->min_vruntime + (int64_t)(cfs_period(
		    (uint64_t)q->nr + 1) * NICE_0_LOAD / (q->load + w));
	} else if (why == ENGINE_ENQ_WAKE) {
		v = q->min_vruntime - (int64_t)CFS_LATENCY;
		if ((int64_t)((uint64_t)t->vruntime - (uint64_t)v) < 0)
			t->vruntime = v;
	}
	cfs_heap_add(env, q, id, t);
	q->load += w;
	q->nr++;
	if (why == ENGINE_ENQ_NEW) {
		if (q->curr != 0)
			q->need_resched = 1;
		if (q->curr != 0 && env->explain) {
			q->why.new_at = env->now + 1;
			q->why.new_task = id;
		}
	} else
		cfs_preempt_check(env, q, t);
}

/* Off the runqueue: out of the tree, or no longer current. */
static void
cfs_dequeue(const struct engine_env *env, void *rq, int id, void *ts,
    enum engine_deq why)
{
	struct cfs_rq	*q = rq;
	struct cfs_task	*t = ts;

	(void)why;
	if (q->curr == id) {
		q->curr = 0;
		q->need_resched = 0;
	} else
		cfs_heap_del(env, q, id);
	q->load -= cfs_weight(t->nice);
	q->nr--;
}

/*
 * schedule(): when the current task left or must give way, put it back
 * into the tree (put_prev_entity) and take the leftmost
 * (pick_next_entity), whose slice starts now (prev_sum_exec_runtime).
 */
static int
cfs_pick(const struct engine_env *env, void *rq)
{
	struct cfs_rq	*q = rq;
	struct cfs_task	*t;
	int		 next;

	if (q->curr != 0 && !q->need_resched)
		return (q->curr);
	if (q->curr != 0)
		cfs_heap_add(env, q, q->curr, engine_ts(env, q->curr));
	q->curr = 0;
	q->need_resched = 0;
	if (q->nheap == 0)
		return (0);
	next = q->heap[0].id;
	t = engine_ts(env, next);
	cfs_heap_del(env, q, next);
	t->slice_ran = 0;
	q->curr = next;
	return (next);
}

/*
 * One tick (update_curr, entity_tick): the row keeps vruntime (against
 * min_vruntime), the slice and what is left of it as during the tick;
 * then 1 ms of weighted time, min_vruntime follows, and with others
 * waiting the task gives way once it ran more than its slice.
 */
static void
cfs_tick(const struct engine_env *env, void *rq, int id, void *ts,
    struct engine_cpu_info *row)
{
	struct cfs_rq		*q = rq;
	struct cfs_task		*t = ts;
	uint64_t		 slice = cfs_slice(q, t->nice);
	int64_t			 v;

	(void)id;
	row->rank = NICE_TO_PRIO(t->nice);
	/* The protocol's left: ms of the slice left, never below 0. */
	row->left = (int)(((int64_t)slice -
	    (int64_t)t->slice_ran * (int64_t)CFS_NS) / 1000000);
	if (row->left < 0)
		row->left = 0;
	row->col[0] = row->field[0] = (t->vruntime - q->min_vruntime) / 1000;
	row->col[1] = row->field[1] = (int64_t)slice / 1000;
	row->col[2] = row->field[2] = ((int64_t)slice -
	    (int64_t)t->slice_ran * (int64_t)CFS_NS) / 1000;

	t->slice_ran++;
	t->vruntime += (int64_t)cfs_delta_fair(CFS_NS, t->nice);
	v = t->vruntime;
	if (q->nheap > 0 &&
	    (int64_t)((uint64_t)q->heap[0].vruntime - (uint64_t)v) < 0)
		v = q->heap[0].vruntime;
	if ((int64_t)((uint64_t)v - (uint64_t)q->min_vruntime) > 0)
		q->min_vruntime = v;
	if (q->nr > 1 && (uint64_t)t->slice_ran * CFS_NS > slice) {
		q->need_resched = 1;
		if (env->explain) {
			q->why.slice_at = env->now + 1;
			q->why.slice_task = id;
			q->why.slice_ns = slice;
			q->why.slice_nr = q->nr;
		}
	}
}

/*
 * How long the current task keeps its CPU (engine_quiet): with others
 * waiting, until the tick whose charge takes it past its slice
 * (cfs_tick); alone, for as long as it stays alone.  The slice depends
 * on the queue's tasks and load only, which the core's stops (a wake,
 * an arrival, a balance) change.
 */
static int
cfs_quiet(const struct engine_env *env, const void *rq, int id,
    const void *ts)
{
	const struct cfs_rq	*q = rq;
	const struct cfs_task	*t = ts;
	uint64_t		 over;

	(void)env;
	if (q->curr != id || q->need_resched)
		return (0);
	if (q->nr <= 1)
		return (INT_MAX);
	/* The first slice_ran with slice_ran x 1 ms > slice. */
	over = cfs_slice(q, t->nice) / CFS_NS + 1;
	if (over <= t->slice_ran)
		return (1);
	return (over - t->slice_ran > INT_MAX ? INT_MAX :
	    (int)(over - t->slice_ran));
}

/* Woken: placed when queued, on the CPU chosen then. */
static void
cfs_wake(const struct engine_env *env, void *ts, uint64_t slept)
{
	(void)env;
	(void)ts;
	(void)slept;
}

/*
 * set_user_nice (2.6.24): out of the tree and back with the new weight,
 * vruntime unchanged; reschedule if the priority rose, or fell while it
 * runs.
 */
static void
cfs_renice(const struct engine_env *env, void *rq, int id, void *ts,
    int nice)
{
	struct cfs_rq	*q = rq;
	struct cfs_task	*t = ts;
	int		 delta = nice - t->nice;

	if (delta == 0)
		return;
	if (q == NULL) {
		t->nice = (int8_t)nice;
		return;
	}
	if (q->curr != id)
		cfs_heap_del(env, q, id);
	q->load -= cfs_weight(t->nice);
	t->nice = (int8_t)nice;
	q->load += cfs_weight(t->nice);
	if (q->curr != id)
		cfs_heap_add(env, q, id, t);
	if (delta < 0 || (delta > 0 && q->curr == id))
		q->need_resched = 1;
}

/*
 * The task to give away (load_balance_fair's iterator): the tree from
 * its leftmost, so the waiting task with the smallest vruntime allowed
 * on dst; never the running one (it is out of the tree).
 */
static int
cfs_steal(const struct engine_env *env, void *rq, int dst)
{
	struct cfs_rq		*q = rq;
	const struct cfs_node	*best = NULL;
	int			 i;

	for (i = 0; i < q->nheap; i++) {
		if ((best == NULL || cfs_before(&q->heap[i], best)) &&
		    engine_task_allowed(env->e, q->heap[i].id, dst))
			best = &q->heap[i];
	}
	return (best != NULL ? best->id : 0);
}

/* Audit the heap, positions, load and counts; returns the number queued. */
static int
cfs_check(const struct engine_env *env, const void *rq, int cpu,
    char **cause)
{
	const struct cfs_rq	*q = rq;
	const struct cfs_task	*t;
	uint64_t		 load = 0;
	int			 i;

	for (i = 0; i < q->nheap; i++) {
		t = engine_ts(env, q->heap[i].id);
		if (engine_check_queued(env->e, q->heap[i].id, cpu,
		    cause) != 0)
			return (-1);
		if (cfs_pos(env, q->heap[i].id) != i || t->cpu != cpu ||
		    t->vruntime != q->heap[i].vruntime ||
		    (i > 0 && cfs_before(&q->heap[i], &q->heap[(i - 1) / 2]))) {
			*cause = xasprintf("heap: task %d misplaced at %d",
			    q->heap[i].id, i);
			return (-1);
		}
		load += cfs_weight(t->nice);
	}
	if (q->curr != 0) {
		t = engine_ts(env, q->curr);
		if (engine_check_queued(env->e, q->curr, cpu, cause) != 0)
			return (-1);
		if (cfs_pos(env, q->curr) != -1 || t->cpu != cpu) {
			*cause = xasprintf("current task %d in the heap",
			    q->curr);
			return (-1);
		}
		load += cfs_weight(t->nice);
	}
	if (q->nr != q->nheap + (q->curr != 0) || q->load != load) {
		*cause = xasprintf("nr %d load %llu but %d waiting, load %llu",
		    q->nr, (unsigned long long)q->load, q->nheap,
		    (unsigned long long)load);
		return (-1);
	}
	return (q->nr);
}

/* A task's nice matches; its CPU is one of the engine's. */
static int
cfs_check_task(const struct engine_env *env, const void *ts, int nice,
    char **cause)
{
	const struct cfs_task	*t = ts;

	if (t->nice != nice || t->cpu < -1 || t->cpu >= env->ncpus) {
		*cause = xasprintf("bad cfs state nice=%d cpu=%d", t->nice,
		    t->cpu);
		return (-1);
	}
	return (0);
}

/*
 * A task's snapshot: its static rank; vruntime against its CPU's
 * min_vruntime and its slice there, in us; what is left of the slice,
 * in ticks.
 */
static void
cfs_info(const struct engine_env *env, const void *ts,
    struct engine_task_info *ti)
{
	const struct cfs_task	*t = ts;
	const struct cfs_rq	*q;
	int64_t			 slice = 0, left_us = 0;

	ti->rank = NICE_TO_PRIO(t->nice);
	ti->field[0] = ti->field[1] = ti->field[2] = 0;
	/* Its load weight: how fast its mark moves along the axis. */
	ti->field[3] = cfs_weight(t->nice);
	if (t->cpu >= 0) {
		q = engine_rq(env, t->cpu);
		ti->field[0] = (t->vruntime - q->min_vruntime) / 1000;
		if (ti->state == ENGINE_RUNNABLE) {
			slice = (int64_t)cfs_slice(q, t->nice);
			ti->field[1] = slice / 1000;
			left_us = (slice - (int64_t)t->slice_ran *
			    (int64_t)CFS_NS) / 1000;
			ti->field[2] = left_us;
		}
	}
	/* In whole ticks; the rank is fixed. */
	ti->left = left_us > 0 ? (int)(left_us / 1000) : 0;
	ti->slice = (int)(slice / 1000000);
	ti->top = ti->bottom = NICE_TO_PRIO(t->nice);
}

/*
 * The pick's part of a why line: the smallest vruntime runs, against
 * min_vruntime and the next smallest still waiting.
 */
static void
cfs_why_head(const struct engine_env *env, const struct cfs_rq *q,
    const char *nn, const struct cfs_task *n, char *buf, size_t len)
{
	char	a[24], b[24], c[24];

	engine_ms(n->vruntime, 0, a, sizeof a);
	engine_ms(q->min_vruntime, 0, b, sizeof b);
	if (q->nheap == 0)
		snprintf(buf, len, "%s: vruntime %s ms, alone here "
		    "(min_vruntime %s)", nn, a, b);
	else
		snprintf(buf, len, "%s: smallest vruntime %s ms (min_vruntime "
		    "%s; next %s at %s)", nn, a, b,
		    engine_task_name(env->e, q->heap[0].id),
		    engine_ms(q->heap[0].vruntime, 0, c, sizeof c));
}

/*
 * Why the pick changed (SPEC.md section 10): the task with the smallest
 * vruntime runs; the one that ran used up its slice of the period,
 * gave way to a woken task more than wakeup_granularity behind it, to
 * an arrival, or left.
 */
static void
cfs_why(const struct engine_env *env, const void *rq,
    const struct engine_switch *sw, char *buf, size_t len)
{
	const struct cfs_rq	*q = rq;
	const struct cfs_task	*n, *p;
	const char		*pn = engine_task_name(env->e, sw->prev);
	const char		*nn = engine_task_name(env->e, sw->next);
	char			 head[200], a[24], b[24], c[24];

	if (engine_why_idle(env, sw, buf, len))
		return;
	n = engine_ts(env, sw->next);
	cfs_why_head(env, q, nn, n, head, sizeof head);
	if (engine_why_left(env, sw, head, buf, len))
		return;
	p = engine_ts(env, sw->prev);
	engine_ms(p->vruntime, 0, c, sizeof c);
	if (q->why.woke_at == env->now + 1 && q->why.woke_task == sw->next)
		snprintf(buf, len, "%s preempts %s: woke at vruntime %s ms, "
		    "more than wakeup_granularity %s ms below %s's %s", nn, pn,
		    engine_ms(n->vruntime, 0, a, sizeof a),
		    engine_ms(q->why.woke_gran, 0, b, sizeof b), pn,
		    engine_ms(q->why.woke_curr, 0, c, sizeof c));
	else if (q->why.slice_at == env->now &&
	    q->why.slice_task == sw->prev)
		snprintf(buf, len, "%s ran past its slice, %s ms of the %s ms "
		    "period shared by %d, now at vruntime %s; %s", pn,
		    engine_ms((int64_t)q->why.slice_ns, 0, a, sizeof a),
		    engine_ms((int64_t)cfs_period((uint64_t)q->why.slice_nr),
		    0, b, sizeof b), q->why.slice_nr, c, head);
	else if (q->why.new_at == env->now + 1)
		snprintf(buf, len, "%s arrived, so %s gives way (at vruntime "
		    "%s); %s", engine_task_name(env->e, q->why.new_task), pn,
		    c, head);
	else
		snprintf(buf, len, "%s gives way at vruntime %s; %s", pn, c,
		    head);
}

/*
 * A runqueue's quantities: min_vruntime (us, the axis's zero), the
 * leftmost waiting task (the next to run; 0: none) and the period its
 * tasks share now (us).
 */
static void
cfs_rq_info(const struct engine_env *env, const void *rq, int64_t *out)
{
	const struct cfs_rq	*q = rq;

	out[0] = q->min_vruntime / 1000;
	out[1] = q->nheap > 0 ? q->heap[0].id : 0;
	out[2] = (int64_t)(cfs_period((uint64_t)q->nr) / 1000);
}

const struct engine_policy engine_policy_cfs = {
	.name = "cfs",
	.columns = "vruntime_us,slice_us,left_us",
	.ncols = 3,
	.fields = "vruntime_us,slice_us,left_us,weight",
	.nfields = 4,
	.rq_fields = "min_vruntime_us,next,period_us",
	.nrq_fields = 3,
	.picture = "vruntime",
	.info_rq = 1,
	.rq_size = sizeof (struct cfs_rq),
	.rq_init = cfs_rq_init,
	.rq_clone = cfs_rq_clone,
	.rq_memory = cfs_rq_memory,
	.rq_free = cfs_rq_free,
	.task_init = cfs_task_init,
	.enqueue = cfs_enqueue,
	.dequeue = cfs_dequeue,
	.pick = cfs_pick,
	.tick = cfs_tick,
	.wake = cfs_wake,
	.renice = cfs_renice,
	.steal = cfs_steal,
	.check = cfs_check,
	.check_task = cfs_check_task,
	.info = cfs_info,
	.quiet = cfs_quiet,
	.rq_info = cfs_rq_info,
	.why = cfs_why
};
