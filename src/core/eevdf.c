/*
 * eevdf.c -- Earliest Eligible Virtual Deadline First as Linux 6.6 has
 * it (kernel/sched/fair.c and kernel/sched/core.c at v6.6, with the
 * fixes merged before the release), at 1 ms ticks.  docs/POLICIES.md
 * cites the lines read and every choice the whole ticks force.
 *
 * Each task has a vruntime that grows by the ns it runs times 1024 /
 * its weight (calc_delta_fair, prio_to_weight as cfs).  A CPU's virtual
 * time V is the weight-average of the vruntimes queued there, the
 * running task's included (avg_vruntime), kept as the kernel keeps it:
 * sums of (vruntime - min_vruntime) x weight and of the weights, updated
 * as a task joins or leaves the queue and as min_vruntime moves.  A
 * task's lag, what it is owed, is (V - vruntime) x weight / 1024; it is
 * eligible when that is >= 0 (entity_eligible, compared without the
 * division), and its request of base_slice ms ends at the virtual
 * deadline vruntime + base_slice x 1024 / weight.  The CPU runs the
 * eligible task with the earliest deadline (pick_eevdf), but only when
 * it reschedules: when the running task has run its request
 * (update_deadline renews it), leaves, or a woken task would now be
 * picked (check_preempt_wakeup), which RUN_TO_PARITY refuses while the
 * running task is eligible and still on the request it was picked with.
 * A task that leaves keeps its lag (vlag, clamped to two requests) and
 * is placed back with it (place_entity, scaled by (load + w) / load).
 *
 * The tree: the kernel's rbtree ordered by vruntime and augmented with
 * the subtree's earliest deadline becomes here three heaps per CPU, in
 * arrays: the eligible tasks by (deadline, vruntime, queued order), the
 * others by vruntime, and all of them by vruntime (its top is the
 * leftmost task, for min_vruntime).  A pick first moves into the first
 * heap the tasks V has reached, least vruntime first, and out of its
 * top those V has left behind; then its top is the pick.  Every step is
 * O(log n) and a task moves about once each way per request: no pass
 * over the tasks, and, unlike a tree, no pointers to chase.  Each
 * task's place in the heaps is kept in the core's link arrays, so a
 * task leaves from where it is.  V itself is kept from tick to tick as
 * a quotient and remainder, with no division, and the calc_delta_fair
 * values a tick needs are computed once per runqueue, by nice.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "log.h"
#include "weight.h"
#include "xmalloc.h"

#define EEVDF_NS		1000000LL	/* ns per tick: TICK_NSEC */
#define EEVDF_NCOLS		4	/* vruntime, lag, deadline, eligible */

/*
 * A task's state (32 bytes).  vlag is V - vruntime kept while the task
 * is off the runqueue; while it runs it holds, as in the kernel, the
 * deadline it was picked with (set_next_entity's "HACK"), which is how
 * RUN_TO_PARITY knows the request has not been renewed since.
 */
struct eevdf_task {
	int64_t		vruntime;	/* ns, virtual */
	int64_t		deadline;	/* ns, virtual */
	int64_t		vlag;
	int16_t		cpu;		/* rq it was last queued on, -1: none */
	int8_t		nice;
	uint8_t		left;		/* ticks to the deadline (eevdf_ticks) */
};

/*
 * A waiting task in its CPU's heap of eligible or of ineligible tasks
 * (32 bytes): its keys, its queued order (the last tie-break) and who
 * it is.
 */
struct eevdf_node {
	int64_t		deadline;
	int64_t		vruntime;
	uint64_t	seq;		/* queued order */
	int32_t		id;
};

/* A waiting task in its CPU's heap of every waiting task (24 bytes). */
struct eevdf_vnode {
	int64_t		vruntime;
	uint64_t	stamp;		/* its place in cfs_tasks, for steal */
	int32_t		id;
};

/*
 * What eevdf_why needs that the state no longer shows, kept only while
 * explaining; each stamped with the tick it concerns + 1 (0: none): the
 * running task's request used up (update_deadline), a wake or a renice
 * that would now be picked (check_preempt_wakeup).
 */
struct eevdf_why {
	uint64_t	req_at;		/* the tick after the request ended */
	int		req_task;
	uint64_t	woke_at;
	int		woke_task;
};

/*
 * A CPU's runqueue (struct cfs_rq's EEVDF part).  The waiting tasks are
 * in two heaps: `elig` by (deadline, vruntime, queued order), holding
 * every eligible one, and `inel` by vruntime, holding the rest; and all
 * of them in a third, `all`, by vruntime, for min_vruntime.  A task's
 * places: links.next[id] i + 1 in elig, -(i + 1) in inel; links.prev[id]
 * i + 1 in all; 0 when it waits in none.
 */
struct eevdf_rq {
	struct eevdf_node  *elig;
	struct eevdf_node  *inel;
	struct eevdf_vnode *all;
	int		 nelig, ninel, nall;	/* nall: the tasks waiting */
	int		 selig, sinel, sall;	/* slots allocated */
	int		 nr;		/* nr_running: the running one too */
	int		 curr;		/* running task, 0: none */
	int		 need_resched;
	uint64_t	 seq;		/* next queued order */
	uint64_t	 curr_stamp;	/* the running task's place in cfs_tasks */
	int64_t		 min_vruntime;
	int64_t		 avg_vruntime;	/* \Sum (v - min_vruntime) * w, waiting */
	int64_t		 avg_load;	/* \Sum w, waiting */
	/*
	 * V - min_vruntime while a task runs, kept from tick to tick with
	 * no division: the sums with the running task in are vq * vload +
	 * vr, 0 <= vr < vload, and a tick adds dq * vload + dr; computed
	 * again (vvalid 0) once the tasks queued or the running one change.
	 */
	int		 vvalid;
	int64_t		 vq, vr, vload, dq, dr;
	/* By nice + 20, set from base_slice: calc_delta_fair of a tick, */
	int64_t		 vtick[40];
	int64_t		 vslice[40];	/* of the request, */
	int64_t		 vlimit[40];	/* of update_entity_lag's clamp; */
	uint8_t		 req[40];	/* the ticks a request lasts */
	struct eevdf_why why;		/* explaining only */
};

_Static_assert(sizeof (struct eevdf_task) <= ENGINE_PRIV_SIZE,
    "eevdf's task state must fit the engine's");

/* A nice level's weight (scale_load_down of the task's load). */
static int64_t
eevdf_weight(int nice)
{
	return (sched_prio_to_weight[nice + 20]);
}

/*
 * calc_delta_fair(delta, se): delta * 1024 / weight, as 6.6's
 * __calc_delta(delta, NICE_0_LOAD, &se->load) computes it: 1024 times
 * the inverse weight, shifted down to 32 bits (fls), then
 * mul_u64_u32_shr, truncating.  Nice 0: delta itself.
 */
static int64_t
eevdf_delta_fair(int64_t delta, int nice)
{
	uint64_t	fact, d = (uint64_t)delta, ret;
	uint32_t	hi;
	int		shift = 32, fs;

	if (eevdf_weight(nice) == NICE_0_LOAD)
		return (delta);
	fact = (uint64_t)NICE_0_LOAD * sched_prio_to_wmult[nice + 20];
	if ((hi = (uint32_t)(fact >> 32)) != 0) {
		fs = 32 - __builtin_clz(hi);
		shift -= fs;
		fact >>= fs;
	}
	ret = ((uint64_t)(uint32_t)d * fact) >> shift;
	if ((d >> 32) != 0)
		ret += ((d >> 32) * fact) << (32 - shift);
	return ((int64_t)ret);
}

/* The request in ns: sysctl_sched_base_slice, whole ticks here. */
static int64_t
eevdf_slice(const struct engine_env *env)
{
	return ((int64_t)env->base_slice * EEVDF_NS);
}

/* The ticks a task runs for vns of virtual time: ceil(vns / its tick). */
static int
eevdf_ticks(int64_t vns, int nice)
{
	int64_t	d = eevdf_delta_fair(EEVDF_NS, nice);

	if (vns <= 0)
		return (0);
	return ((int)((vns + d - 1) / d));
}

/* The CPU index of a runqueue. */
static int
eevdf_cpu_of(const struct engine_env *env, const void *rq)
{
	return ((int)(((const char *)rq - env->rqs) / env->rq_stride));
}

/* --- V, lag and eligibility. ----------------------------------------- */

/*
 * The sums avg_vruntime() and entity_eligible() use: the waiting
 * tasks', plus the running task's (the kernel's `if (curr &&
 * curr->on_rq)`).
 */
static void
eevdf_sums(const struct engine_env *env, const struct eevdf_rq *q,
    int64_t *avg, int64_t *load)
{
	const struct eevdf_task	*c;

	*avg = q->avg_vruntime;
	*load = q->avg_load;
	if (q->curr != 0) {
		c = engine_ts(env, q->curr);
		*avg += (c->vruntime - q->min_vruntime) * eevdf_weight(c->nice);
		*load += eevdf_weight(c->nice);
	}
}

/*
 * avg_vruntime() from its sums: V - min_vruntime, avg / load rounded
 * down (the 6.6 fix: a task placed at V must come out eligible).
 */
static int64_t
eevdf_Vrel(int64_t avg, int64_t load)
{
	if (load == 0)
		return (avg);
	if (avg < 0)
		avg -= load - 1;
	return (avg / load);
}

/* avg_vruntime(): V. */
static int64_t
eevdf_V(const struct engine_env *env, const struct eevdf_rq *q)
{
	int64_t	avg, load;

	eevdf_sums(env, q, &avg, &load);
	return (q->min_vruntime + eevdf_Vrel(avg, load));
}

/*
 * entity_eligible(): lag >= 0, compared as the kernel does, without the
 * division: avg >= (vruntime - min_vruntime) * load (in 128 bits here,
 * where the kernel's s64 would wrap on the most extreme mixes).
 */
static int
eevdf_eligible(int64_t avg, int64_t load, int64_t min_vruntime,
    int64_t vruntime)
{
	return ((__int128)avg >=
	    (__int128)(vruntime - min_vruntime) * (__int128)load);
}

/* A task's lag in ns of CPU: (V - vruntime) * weight / 1024. */
static int64_t
eevdf_lag(int64_t V, const struct eevdf_task *t)
{
	return ((V - t->vruntime) * eevdf_weight(t->nice) /
	    NICE_0_LOAD);
}

/*
 * update_entity_lag(), as a task leaves: vlag = V - vruntime, V with the
 * task still counted, clamped to calc_delta_fair(max(2 * slice,
 * TICK_NSEC)).
 */
static void
eevdf_update_lag(const struct engine_env *env, const struct eevdf_rq *q,
    struct eevdf_task *t)
{
	int64_t	vlag, limit = q->vlimit[t->nice + 20];

	vlag = eevdf_V(env, q) - t->vruntime;
	if (vlag > limit)
		vlag = limit;
	if (vlag < -limit)
		vlag = -limit;
	t->vlag = vlag;
}

/*
 * update_min_vruntime(): the least of the running task's vruntime and
 * the waiting tasks', never backwards; the sums follow
 * (avg_vruntime_update), and V as the ticks keep it.
 */
static void
eevdf_update_min_vruntime(const struct engine_env *env, struct eevdf_rq *q)
{
	const struct eevdf_task	*c;
	int64_t			 v = q->min_vruntime, m;

	if (q->curr != 0) {
		c = engine_ts(env, q->curr);
		v = c->vruntime;
	}
	if (q->nall > 0) {
		m = q->all[0].vruntime;
		v = q->curr == 0 || m < v ? m : v;
	}
	if (v > q->min_vruntime) {
		q->avg_vruntime -= q->avg_load * (v - q->min_vruntime);
		q->vq -= v - q->min_vruntime;	/* vload fell as much */
		q->min_vruntime = v;
	}
}

/* --- The heaps (the rbtree's work). ----------------------------------- */

/*
 * Does a come before b in elig (byd: earlier deadline, less vruntime,
 * queued first) or in inel (less vruntime)?
 */
static inline __attribute__((always_inline)) int
eevdf_before(const struct eevdf_node *a, const struct eevdf_node *b,
    int byd)
{
	if (!byd)
		return (a->vruntime < b->vruntime);
	if (a->deadline != b->deadline)
		return (a->deadline < b->deadline);
	if (a->vruntime != b->vruntime)
		return (a->vruntime < b->vruntime);
	return (a->seq < b->seq);
}

/*
 * The heaps are 4-ary: half the levels of a binary heap, and a node's
 * children share a cache line or two, what counts with many tasks.
 */
#define EEVDF_ARITY	4

/* The first of node i's children among nh, or -1: the one that comes first. */
static inline __attribute__((always_inline)) int
eevdf_heap_child(const struct eevdf_node *h, int nh, int i, int byd)
{
	int	c = EEVDF_ARITY * i + 1, e, k;

	if (c >= nh)
		return (-1);
	e = c + EEVDF_ARITY < nh ? c + EEVDF_ARITY : nh;
	for (k = c + 1; k < e; k++)
		if (eevdf_before(&h[k], &h[c], byd))
			c = k;
	return (c);
}

/*
 * Move node n, at index i of elig (byd) or inel, up or down until the
 * heap holds, noting each node's place as it moves.
 */
static inline __attribute__((always_inline)) void
eevdf_heap_fix(const struct engine_env *env, struct eevdf_node *h, int nh,
    int i, struct eevdf_node n, int byd)
{
	int	p, c, *pos = env->links.next;

	while (i > 0) {
		p = (i - 1) / EEVDF_ARITY;
		if (!eevdf_before(&n, &h[p], byd))
			break;
		h[i] = h[p];
		pos[h[i].id] = byd ? i + 1 : -(i + 1);
		i = p;
	}
	while ((c = eevdf_heap_child(h, nh, i, byd)) >= 0 &&
	    eevdf_before(&h[c], &n, byd)) {
		h[i] = h[c];
		pos[h[i].id] = byd ? i + 1 : -(i + 1);
		i = c;
	}
	h[i] = n;
	pos[n.id] = byd ? i + 1 : -(i + 1);
}

/*
 * Fill the hole at index i of elig (byd) or inel of nh nodes with node
 * n, the one that was last: the hole goes down to a leaf, the first
 * child up into it at each level (no comparison with n, a late one that
 * seldom comes back up far), then n goes up from there.
 */
static inline __attribute__((always_inline)) void
eevdf_heap_fill(const struct engine_env *env, struct eevdf_node *h, int nh,
    int i, struct eevdf_node n, int byd)
{
	int	c, *pos = env->links.next;

	while ((c = eevdf_heap_child(h, nh, i, byd)) >= 0) {
		h[i] = h[c];
		pos[h[i].id] = byd ? i + 1 : -(i + 1);
		i = c;
	}
	eevdf_heap_fix(env, h, nh, i, n, byd);
}

/* Node n into elig (byd) or inel, growing it if it must. */
static void
eevdf_heap_push(const struct engine_env *env, struct eevdf_rq *q,
    const struct eevdf_node *n, int byd)
{
	struct eevdf_node	**h = byd ? &q->elig : &q->inel;
	int			 *nh = byd ? &q->nelig : &q->ninel;
	int			 *sh = byd ? &q->selig : &q->sinel;

	if (*nh == *sh) {
		*sh = *sh ? *sh * 2 : 16;
		*h = xreallocarray(*h, *sh, sizeof **h);
	}
	(*nh)++;
	if (byd)
		eevdf_heap_fix(env, q->elig, q->nelig, q->nelig - 1, *n, 1);
	else
		eevdf_heap_fix(env, q->inel, q->ninel, q->ninel - 1, *n, 0);
}

/* The node at index i out of elig (byd) or inel; returns it. */
static struct eevdf_node
eevdf_heap_take(const struct engine_env *env, struct eevdf_rq *q, int i,
    int byd)
{
	struct eevdf_node	n;

	if (byd) {
		n = q->elig[i];
		if (i != --q->nelig)
			eevdf_heap_fill(env, q->elig, q->nelig, i,
			    q->elig[q->nelig], 1);
	} else {
		n = q->inel[i];
		if (i != --q->ninel)
			eevdf_heap_fill(env, q->inel, q->ninel, i,
			    q->inel[q->ninel], 0);
	}
	env->links.next[n.id] = 0;
	return (n);
}

/* Move vnode n, at index i of all, up or down until the heap holds. */
static void
eevdf_all_fix(const struct engine_env *env, struct eevdf_rq *q, int i,
    struct eevdf_vnode n)
{
	struct eevdf_vnode	*h = q->all;
	int			 p, c, e, k, nh = q->nall;
	int			*pos = env->links.prev;

	while (i > 0) {
		p = (i - 1) / EEVDF_ARITY;
		if (n.vruntime >= h[p].vruntime)
			break;
		h[i] = h[p];
		pos[h[i].id] = i + 1;
		i = p;
	}
	while ((c = EEVDF_ARITY * i + 1) < nh) {
		e = c + EEVDF_ARITY < nh ? c + EEVDF_ARITY : nh;
		for (k = c + 1; k < e; k++)
			if (h[k].vruntime < h[c].vruntime)
				c = k;
		if (h[c].vruntime >= n.vruntime)
			break;
		h[i] = h[c];
		pos[h[i].id] = i + 1;
		i = c;
	}
	h[i] = n;
	pos[n.id] = i + 1;
}

/*
 * __enqueue_entity(): a task into the heaps and into the sums
 * (avg_vruntime_add), queued last; into elig if elig says it is
 * eligible (eevdf_settle moves it if not); at cfs_tasks' head unless
 * *stamp says where it was (the running task put back keeps its place).
 */
static void
eevdf_tree_add(const struct engine_env *env, struct eevdf_rq *q, int id,
    const struct eevdf_task *t, const uint64_t *stamp, int elig)
{
	struct eevdf_node	n;
	struct eevdf_vnode	v;

	n.deadline = t->deadline;
	n.vruntime = t->vruntime;
	n.seq = q->seq++;
	n.id = id;
	eevdf_heap_push(env, q, &n, elig);
	if (q->nall == q->sall) {
		q->sall = q->sall ? q->sall * 2 : 16;
		q->all = xreallocarray(q->all, q->sall, sizeof *q->all);
	}
	v.vruntime = t->vruntime;
	v.stamp = stamp != NULL ? *stamp : n.seq;
	v.id = id;
	q->nall++;
	eevdf_all_fix(env, q, q->nall - 1, v);
	q->avg_vruntime += (t->vruntime - q->min_vruntime) *
	    eevdf_weight(t->nice);
	q->avg_load += eevdf_weight(t->nice);
	q->vvalid = 0;
}

/* __dequeue_entity(): out of the heaps and the sums (avg_vruntime_sub). */
static void
eevdf_tree_del(const struct engine_env *env, struct eevdf_rq *q, int id,
    const struct eevdf_task *t)
{
	int	p = env->links.next[id], i = env->links.prev[id] - 1;

	(void)eevdf_heap_take(env, q, p > 0 ? p - 1 : -p - 1, p > 0);
	env->links.prev[id] = 0;
	if (i != --q->nall)
		eevdf_all_fix(env, q, i, q->all[q->nall]);
	q->avg_vruntime -= (t->vruntime - q->min_vruntime) *
	    eevdf_weight(t->nice);
	q->avg_load -= eevdf_weight(t->nice);
	q->vvalid = 0;
}

/*
 * pick_eevdf()'s search, for V: the waiting task first in (deadline,
 * vruntime, queued) order among those whose vruntime is eligible, that
 * is no greater than V (avg_vruntime rounded down: for a whole number k
 * and load > 0, avg >= k * load exactly when k <= floor(avg / load), so
 * this is entity_eligible's test; eevdf_check holds the two equal), or
 * 0.  First the ineligible tasks V has reached move to elig, least
 * vruntime first, until inel holds only tasks above V, so that elig
 * holds every eligible task; then those at elig's top that V has left
 * behind (it falls when a task joins below it or leaves above it) move
 * to inel, until the top is eligible.  Each move is O(log n), and a
 * task moves once each way per request or so; no pass over the tasks.
 */
static int
eevdf_settle(const struct engine_env *env, struct eevdf_rq *q, int64_t V)
{
	struct eevdf_node	n;

	while (q->ninel > 0 && q->inel[0].vruntime <= V) {
		n = eevdf_heap_take(env, q, 0, 0);
		eevdf_heap_push(env, q, &n, 1);
	}
	while (q->nelig > 0 && q->elig[0].vruntime > V) {
		n = eevdf_heap_take(env, q, 0, 1);
		eevdf_heap_push(env, q, &n, 0);
	}
	return (q->nelig > 0 ? q->elig[0].id : 0);
}

/* --- Placing and preempting. ----------------------------------------- */

/*
 * place_entity() at 6.6: the request is base_slice again; with others
 * queued (the running task counts), the lag kept is scaled by
 * (load + w) / load so that it comes out the same once the task is in
 * V; vruntime = V - lag, deadline = vruntime + the request's virtual
 * length.  PLACE_DEADLINE_INITIAL's half request does not reach a new
 * task in 6.6 (wake_up_new_task's enqueue places it again without
 * ENQUEUE_INITIAL), so a new task has the whole request too.  Returns
 * V before the task joins: it is eligible if its vruntime is no greater.
 */
static int64_t
eevdf_place(const struct engine_env *env, const struct eevdf_rq *q,
    struct eevdf_task *t)
{
	const struct eevdf_task	*c;
	int64_t			 V = eevdf_V(env, q), lag = 0, load, m;

	if (q->nr > 0 && t->vlag != 0) {
		load = q->avg_load;
		if (q->curr != 0) {
			c = engine_ts(env, q->curr);
			load += eevdf_weight(c->nice);
		}
		if (load == 0)
			fatalx("eevdf: %d queued, no load", q->nr);
		/* div_s64: toward zero; in 128 bits only if it must. */
		if (__builtin_mul_overflow(t->vlag, load +
		    eevdf_weight(t->nice), &m))
			lag = (int64_t)((__int128)t->vlag *
			    (load + eevdf_weight(t->nice)) / load);
		else
			lag = m / load;
	}
	t->vruntime = V - lag;
	t->deadline = t->vruntime + q->vslice[t->nice + 20];
	t->left = q->req[t->nice + 20];
	return (V);
}

/*
 * check_preempt_wakeup() at 6.6: the running task gives way if
 * pick_eevdf() would now pick task id, just queued.  With
 * RUN_TO_PARITY it keeps the CPU while it is eligible and still on the
 * request it was picked with (vlag == deadline); else the eligible task
 * with the earliest deadline wins, the running one among them.
 */
static void
eevdf_preempt_check(const struct engine_env *env, struct eevdf_rq *q,
    int id)
{
	const struct eevdf_task	*c, *t;
	int64_t			 avg, load;
	int			 ce;

	if (q->curr == 0 || q->need_resched)
		return;
	c = engine_ts(env, q->curr);
	t = engine_ts(env, id);
	eevdf_sums(env, q, &avg, &load);
	ce = eevdf_eligible(avg, load, q->min_vruntime, c->vruntime);
	/* RUN_TO_PARITY; or the woken task is not eligible. */
	if ((ce && c->vlag == c->deadline) ||
	    !eevdf_eligible(avg, load, q->min_vruntime, t->vruntime))
		return;
	/* The running task's keys against the woken one's (queued last). */
	if (ce && (c->deadline < t->deadline || (c->deadline == t->deadline &&
	    c->vruntime <= t->vruntime)))
		return;
	if (eevdf_settle(env, q, q->min_vruntime + eevdf_Vrel(avg, load)) ==
	    id) {
		q->need_resched = 1;
		if (env->explain) {
			q->why.woke_at = env->now + 1;
			q->why.woke_task = id;
		}
	}
}

/* --- The class operations. ------------------------------------------ */

/* An empty runqueue. */
static void
eevdf_rq_init(const struct engine_env *env, void *rq)
{
	struct eevdf_rq	*q = rq;
	int64_t		 slice = eevdf_slice(env);
	int		 nice;

	memset(q, 0, sizeof *q);
	q->elig = q->inel = NULL;
	q->all = NULL;
	for (nice = -20; nice < 20; nice++) {
		q->vtick[nice + 20] = eevdf_delta_fair(EEVDF_NS, nice);
		q->vslice[nice + 20] = eevdf_delta_fair(slice, nice);
		q->vlimit[nice + 20] = eevdf_delta_fair(2 * slice > EEVDF_NS ?
		    2 * slice : EEVDF_NS, nice);
		q->req[nice + 20] = (uint8_t)eevdf_ticks(
		    q->vslice[nice + 20], nice);
	}
}

/* Free the heaps. */
static void
eevdf_rq_free(void *rq)
{
	struct eevdf_rq	*q = rq;

	free(q->elig);
	free(q->inel);
	free(q->all);
}

/* A copy of n elements of size bytes at p, or NULL for none. */
static void *
eevdf_dup(const void *p, int n, size_t size)
{
	void	*d;

	if (n == 0)
		return (NULL);
	d = xreallocarray(NULL, (size_t)n, size);
	memcpy(d, p, (size_t)n * size);
	return (d);
}

/* Snapshots: dst holds src's bytes; give it its own heaps. */
static void
eevdf_rq_clone(const struct engine_env *env, void *dst, const void *src)
{
	struct eevdf_rq		*d = dst;
	const struct eevdf_rq	*q = src;

	(void)env;
	d->elig = eevdf_dup(q->elig, d->selig = q->nelig, sizeof *q->elig);
	d->inel = eevdf_dup(q->inel, d->sinel = q->ninel, sizeof *q->inel);
	d->all = eevdf_dup(q->all, d->sall = q->nall, sizeof *q->all);
}

/* The heaps' bytes. */
static size_t
eevdf_rq_memory(const void *rq)
{
	const struct eevdf_rq	*q = rq;

	return ((size_t)(q->selig + q->sinel) * sizeof (struct eevdf_node) +
	    (size_t)q->sall * sizeof (struct eevdf_vnode));
}

/* A new task (__sched_fork: no lag); placed when it is first queued. */
static void
eevdf_task_init(const struct engine_env *env, void *ts, int nice)
{
	struct eevdf_task	*t = ts;

	(void)env;
	memset(t, 0, sizeof *t);
	t->cpu = -1;
	t->nice = (int8_t)nice;
}

/*
 * enqueue_entity(): placed with the lag it kept (a new task has none),
 * counted, into the heaps; then, arrived (wake_up_new_task), woken
 * (ttwu) or pulled (attach_task), it may preempt.  A task from another
 * CPU brings its lag, not its vruntime: 6.6 has no min_vruntime
 * renormalising any more.
 */
static void
eevdf_enqueue(const struct engine_env *env, void *rq, int id, void *ts,
    enum engine_enq why)
{
	struct eevdf_rq		*q = rq;
	struct eevdf_task	*t = ts;
	int64_t			 V;

	t->cpu = (int16_t)eevdf_cpu_of(env, rq);
	if (why == ENGINE_ENQ_NEW)
		t->vlag = 0;
	V = eevdf_place(env, q, t);
	q->nr++;
	eevdf_tree_add(env, q, id, t, NULL, t->vruntime <= V);
	eevdf_preempt_check(env, q, id);
}

/*
 * dequeue_entity(): the lag is kept (update_entity_lag, V with the task
 * still in it), then out of the heaps or no longer running, and
 * min_vruntime may move on.
 */
static void
eevdf_dequeue(const struct engine_env *env, void *rq, int id, void *ts,
    enum engine_deq why)
{
	struct eevdf_rq		*q = rq;
	struct eevdf_task	*t = ts;

	(void)why;
	eevdf_update_lag(env, q, t);
	if (q->curr == id) {
		q->curr = 0;
		q->need_resched = 0;
		q->vvalid = 0;
	} else
		eevdf_tree_del(env, q, id, t);
	q->nr--;
	eevdf_update_min_vruntime(env, q);
}

/*
 * schedule(): when the running task left or must give way, it goes back
 * into the heaps (put_prev_entity) and the pick is the eligible task with
 * the earliest deadline (pick_eevdf); the task picked leaves the heaps,
 * goes to cfs_tasks' head and has its deadline stashed in vlag
 * (set_next_entity).
 */
static int
eevdf_pick(const struct engine_env *env, void *rq)
{
	struct eevdf_rq		*q = rq;
	struct eevdf_task	*t;
	int64_t			 V;
	int			 id;

	if (q->curr != 0 && !q->need_resched)
		return (q->curr);
	/* V is the same with the running task in the heaps or not. */
	V = eevdf_V(env, q);
	if (q->curr != 0) {
		t = engine_ts(env, q->curr);
		eevdf_tree_add(env, q, q->curr, t, &q->curr_stamp,
		    t->vruntime <= V);
	}
	q->curr = 0;
	q->need_resched = 0;
	if (q->nall == 0)
		return (0);
	if ((id = eevdf_settle(env, q, V)) == 0)
		fatalx("eevdf: no eligible task among %d", q->nall);
	t = engine_ts(env, id);
	eevdf_tree_del(env, q, id, t);
	q->curr = id;
	q->curr_stamp = q->seq++;
	t->vlag = t->deadline;
	return (id);
}

/* Fill a trace row's or snapshot's columns for a queued task, at V. */
static void
eevdf_cols(int64_t V, const struct eevdf_task *t, int64_t *col)
{
	col[0] = (t->vruntime - V) / 1000;
	col[1] = eevdf_lag(V, t) / 1000;
	col[2] = (t->deadline - V) / 1000;
	col[3] = t->vruntime <= V;	/* entity_eligible (eevdf_settle) */
}

/* Compute V - min_vruntime and its step by a tick of running task t. */
static void
eevdf_vcache(const struct engine_env *env, struct eevdf_rq *q,
    const struct eevdf_task *t)
{
	int64_t	avg, load, d = q->vtick[t->nice + 20] * eevdf_weight(t->nice);

	eevdf_sums(env, q, &avg, &load);
	q->vq = eevdf_Vrel(avg, load);
	q->vr = avg - q->vq * load;
	q->vload = load;
	q->dq = d / load;
	q->dr = d % load;
	q->vvalid = 1;
}

/*
 * One tick (update_curr, entity_tick): the row keeps vruntime and
 * deadline against V, the lag and eligibility as during the tick; then
 * 1 ms of weighted time, and when the request is used up
 * (update_deadline: vruntime >= deadline) a new one is issued from
 * where the task is, and with others queued the CPU reschedules;
 * min_vruntime follows.
 */
static void
eevdf_tick(const struct engine_env *env, void *rq, int id, void *ts,
    struct engine_cpu_info *row)
{
	struct eevdf_rq		*q = rq;
	struct eevdf_task	*t = ts;

	row->rank = NICE_TO_PRIO(t->nice);
	row->left = t->left;
	if (!q->vvalid)
		eevdf_vcache(env, q, t);
	eevdf_cols(q->min_vruntime + q->vq, t, row->col);
	memcpy(row->field, row->col, EEVDF_NCOLS * sizeof row->col[0]);

	t->vruntime += q->vtick[t->nice + 20];
	q->vq += q->dq;
	if ((q->vr += q->dr) >= q->vload) {
		q->vr -= q->vload;
		q->vq++;
	}
	t->left--;
	if (t->vruntime >= t->deadline) {
		t->deadline = t->vruntime + q->vslice[t->nice + 20];
		t->left = q->req[t->nice + 20];
		if (q->nr > 1) {
			q->need_resched = 1;
			if (env->explain) {
				q->why.req_at = env->now + 1;
				q->why.req_task = id;
			}
		}
	}
	eevdf_update_min_vruntime(env, q);
}

/*
 * How long the running task keeps its CPU (engine_quiet): with others
 * queued, through the tick whose charge reaches its deadline; alone, for
 * as long as it stays alone.  Only an arrival, a wake, a pull or a
 * change from outside (the core's stops) reschedule otherwise.
 */
static int
eevdf_quiet(const struct engine_env *env, const void *rq, int id,
    const void *ts)
{
	const struct eevdf_rq	*q = rq;
	const struct eevdf_task	*t = ts;

	(void)env;
	if (q->curr != id || q->need_resched)
		return (0);
	if (q->nr <= 1)
		return (INT_MAX);
	return (t->left > 0 ? t->left : 1);
}

/* Woken: placed when queued, on the CPU chosen then. */
static void
eevdf_wake(const struct engine_env *env, void *ts, uint64_t slept)
{
	(void)env;
	(void)ts;
	(void)slept;
}

/*
 * set_user_nice() at 6.6: a queued task is dequeued (DEQUEUE_SAVE: its
 * lag kept, min_vruntime left where it is) and, running, put back;
 * reweight_entity() scales the kept lag by old / new weight (lag_i =
 * w_i * vlag_i stays); enqueue_task() places it again; a running task is
 * set running again (its deadline stashed).  Then prio_changed_fair():
 * with others queued, the running task reschedules if its nice rose; a
 * waiting one is tested as a woken one.  A task not queued only has its
 * lag scaled.
 */
static void
eevdf_renice(const struct engine_env *env, void *rq, int id, void *ts,
    int nice)
{
	struct eevdf_rq		*q = rq;
	struct eevdf_task	*t = ts;
	int64_t			 wold = eevdf_weight(t->nice), V;
	int			 delta = nice - t->nice, running;

	if (delta == 0)
		return;
	if (q == NULL) {
		t->vlag = t->vlag * wold / eevdf_weight(nice);
		t->nice = (int8_t)nice;
		return;
	}
	running = q->curr == id;
	eevdf_update_lag(env, q, t);
	if (running)
		q->curr = 0;
	else
		eevdf_tree_del(env, q, id, t);
	q->nr--;
	t->vlag = t->vlag * wold / eevdf_weight(nice);
	t->nice = (int8_t)nice;
	V = eevdf_place(env, q, t);
	q->nr++;
	if (running) {
		/* Queued (at cfs_tasks' head) and set running again. */
		q->curr_stamp = q->seq++;
		q->curr = id;
		q->vvalid = 0;
		t->vlag = t->deadline;
	} else
		eevdf_tree_add(env, q, id, t, NULL, t->vruntime <= V);
	if (q->nr == 1)
		return;
	if (running) {
		if (delta > 0)
			q->need_resched = 1;
	} else
		eevdf_preempt_check(env, q, id);
}

/*
 * The task to give away (detach_tasks): cfs_tasks from its tail, the
 * task queued or run the longest ago, allowed on dst; never the running
 * one.  The tasks skipped are not rotated to the head as the kernel
 * does, and there is no cache-hot test.
 */
static int
eevdf_steal(const struct engine_env *env, void *rq, int dst)
{
	const struct eevdf_rq	*q = rq;
	int			 i, best = -1;

	for (i = 0; i < q->nall; i++) {
		if (best >= 0 && q->all[i].stamp >= q->all[best].stamp)
			continue;
		if (engine_task_allowed(env->e, q->all[i].id, dst))
			best = i;
	}
	return (best >= 0 ? q->all[best].id : 0);
}

/* The id of the task whose class state is ts. */
static int
eevdf_id_of(const struct engine_env *env, const void *ts)
{
	return ((int)(((const char *)ts - env->tasks) / env->stride) + 1);
}

/*
 * Audit a heap, elig (byd) or inel: each node after its parent, and
 * where it is noted in links.next.
 */
static int
eevdf_check_heap(const struct engine_env *env, const struct eevdf_node *h,
    int nh, int byd, char **cause)
{
	int	i, id;

	for (i = 0; i < nh; i++) {
		id = h[i].id;
		if (id < 1 || id > engine_ntasks(env->e) ||
		    env->links.next[id] != (byd ? i + 1 : -(i + 1)) ||
		    (i > 0 && eevdf_before(&h[i], &h[(i - 1) / EEVDF_ARITY], byd))) {
			*cause = xasprintf("%s heap: task %d misplaced at %d",
			    byd ? "eligible" : "ineligible", id, i);
			return (-1);
		}
	}
	return (0);
}

/*
 * Audit V as the ticks keep it, if kept: against avg / load, the sums
 * with the running task in, and its step against the running task's.
 */
static int
eevdf_check_vcache(const struct engine_env *env, const struct eevdf_rq *q,
    int64_t avg, int64_t load, char **cause)
{
	const struct eevdf_task	*c;

	if (!q->vvalid)
		return (0);
	if (q->curr == 0) {
		*cause = xasprintf("V kept with no task running");
		return (-1);
	}
	c = engine_ts(env, q->curr);
	if (q->vload != load || q->vq != eevdf_Vrel(avg, load) ||
	    q->vr != avg - q->vq * load || q->dr < 0 || q->dr >= load ||
	    q->dq * load + q->dr != q->vtick[c->nice + 20] *
	    eevdf_weight(c->nice)) {
		*cause = xasprintf("V kept %lld + %lld / %lld, the sums' "
		    "%lld / %lld", (long long)q->vq, (long long)q->vr,
		    (long long)q->vload, (long long)avg, (long long)load);
		return (-1);
	}
	return (0);
}

/*
 * Audit a runqueue: the heaps in order, every waiting task in `all` and
 * in one of elig and inel with its keys (the counts make that one to
 * one), queued here, with v <= V and entity_eligible the same; the sums
 * kept against the tasks'; the running task in no heap; and the lags
 * summing to zero: with W the weights queued and V rounded down,
 * \Sum w_i (V - v_i) lies in (-W, 0].  Returns the number queued.
 */
static int
eevdf_check(const struct engine_env *env, const void *rq, int cpu,
    char **cause)
{
	const struct eevdf_rq	*q = rq;
	const struct eevdf_task	*t;
	const struct eevdf_node	*n;
	int64_t			 avg, load, a = 0, l = 0, V;
	__int128		 sum;
	int			 i, id, p;

	if (eevdf_check_heap(env, q->elig, q->nelig, 1, cause) != 0 ||
	    eevdf_check_heap(env, q->inel, q->ninel, 0, cause) != 0)
		return (-1);
	if (q->nelig + q->ninel != q->nall || q->nelig > q->selig ||
	    q->ninel > q->sinel || q->nall > q->sall) {
		*cause = xasprintf("heaps: %d + %d waiting but %d", q->nelig,
		    q->ninel, q->nall);
		return (-1);
	}
	eevdf_sums(env, q, &avg, &load);
	V = q->min_vruntime + eevdf_Vrel(avg, load);
	for (i = 0; i < q->nall; i++) {
		id = q->all[i].id;
		if (id < 1 || id > engine_ntasks(env->e) ||
		    env->links.prev[id] != i + 1 || (i > 0 &&
		    q->all[i].vruntime < q->all[(i - 1) / EEVDF_ARITY].vruntime)) {
			*cause = xasprintf("heap: task %d misplaced at %d", id,
			    i);
			return (-1);
		}
		if (engine_check_queued(env->e, id, cpu, cause) != 0)
			return (-1);
		t = engine_ts(env, id);
		p = env->links.next[id];
		n = p > 0 && p <= q->nelig ? &q->elig[p - 1] :
		    p < 0 && -p <= q->ninel ? &q->inel[-p - 1] : NULL;
		if (n == NULL || n->id != id || t->cpu != cpu ||
		    t->vruntime != n->vruntime || t->deadline != n->deadline ||
		    t->vruntime != q->all[i].vruntime ||
		    t->left != eevdf_ticks(t->deadline - t->vruntime, t->nice)) {
			*cause = xasprintf("task %d: keys or place wrong", id);
			return (-1);
		}
		if ((t->vruntime <= V) != eevdf_eligible(avg, load,
		    q->min_vruntime, t->vruntime)) {
			*cause = xasprintf("task %d: v <= V and "
			    "entity_eligible differ", id);
			return (-1);
		}
		a += (t->vruntime - q->min_vruntime) * eevdf_weight(t->nice);
		l += eevdf_weight(t->nice);
	}
	if (a != q->avg_vruntime || l != q->avg_load) {
		*cause = xasprintf("avg_vruntime %lld load %lld, the tasks' "
		    "%lld %lld", (long long)q->avg_vruntime,
		    (long long)q->avg_load, (long long)a, (long long)l);
		return (-1);
	}
	if (q->curr != 0) {
		t = engine_ts(env, q->curr);
		if (engine_check_queued(env->e, q->curr, cpu, cause) != 0)
			return (-1);
		if (env->links.next[q->curr] != 0 ||
		    env->links.prev[q->curr] != 0 || t->cpu != cpu ||
		    t->left != eevdf_ticks(t->deadline - t->vruntime, t->nice)) {
			*cause = xasprintf("current task %d in a heap",
			    q->curr);
			return (-1);
		}
	}
	if (q->nr != q->nall + (q->curr != 0)) {
		*cause = xasprintf("nr %d but %d waiting", q->nr, q->nall);
		return (-1);
	}
	if (eevdf_check_vcache(env, q, avg, load, cause) != 0)
		return (-1);
	sum = (__int128)eevdf_Vrel(avg, load) * load - avg;
	if (sum > 0 || (load > 0 && sum <= -load)) {
		*cause = xasprintf("lags sum to %lld / 1024 ns, weights %lld",
		    (long long)sum, (long long)load);
		return (-1);
	}
	return (q->nr);
}

/*
 * A task's nice matches; its CPU is one of the engine's; a task noted
 * in a heap is there, on its CPU's runqueue, with its keys.
 */
static int
eevdf_check_task(const struct engine_env *env, const void *ts, int nice,
    char **cause)
{
	const struct eevdf_task	*t = ts;
	const struct eevdf_rq	*q;
	int			 id = eevdf_id_of(env, ts), i;

	i = env->links.prev[id] - 1;
	if (t->nice != nice || t->cpu < -1 || t->cpu >= env->ncpus ||
	    i < -1 || (i >= 0 && t->cpu < 0)) {
		*cause = xasprintf("bad eevdf state nice=%d cpu=%d heap=%d",
		    t->nice, t->cpu, i);
		return (-1);
	}
	if (i < 0)
		return (0);
	q = engine_rq(env, t->cpu);
	if (i >= q->nall || q->all[i].id != id ||
	    q->all[i].vruntime != t->vruntime) {
		*cause = xasprintf("eevdf heap place %d on cpu %d is not the "
		    "task's", i, t->cpu);
		return (-1);
	}
	return (0);
}

/*
 * A task's snapshot: its static rank; queued, vruntime and deadline
 * against its CPU's V, its lag in us of CPU, eligible, and the ticks
 * left of its request; off the runqueue, the lag it keeps (vruntime
 * then says where it would be put against V, before the scaling).
 */
static void
eevdf_info(const struct engine_env *env, const void *ts,
    struct engine_task_info *ti)
{
	const struct eevdf_task	*t = ts;
	int			 left = 0, slice = 0;

	ti->rank = NICE_TO_PRIO(t->nice);
	memset(ti->field, 0, sizeof ti->field);
	if (ti->state == ENGINE_RUNNABLE && t->cpu >= 0) {
		eevdf_cols(eevdf_V(env, engine_rq(env, t->cpu)), t,
		    ti->field);
		left = t->left;
		slice = eevdf_ticks(eevdf_delta_fair(eevdf_slice(env),
		    t->nice), t->nice);
	} else {
		ti->field[0] = -t->vlag / 1000;
		ti->field[1] = t->vlag * eevdf_weight(t->nice) /
		    NICE_0_LOAD / 1000;
	}
	/* Its weight: the lag's scale and how fast its vruntime grows. */
	ti->field[EEVDF_NCOLS] = eevdf_weight(t->nice);
	ti->left = left;
	ti->slice = slice;
	ti->top = ti->bottom = NICE_TO_PRIO(t->nice);
}

/*
 * The ineligible waiting task with the earliest deadline, if it is
 * earlier than d: the one the rule passes over (a why line says so).
 * A scan of the ineligible heap, at most its first EEVDF_WHY_SCAN:
 * only while explaining.
 */
#define EEVDF_WHY_SCAN	256
static int
eevdf_why_passed(const struct eevdf_rq *q, int64_t d)
{
	int	i, best = -1;

	for (i = 0; i < q->ninel && i < EEVDF_WHY_SCAN; i++)
		if (q->inel[i].deadline < d && (best < 0 ||
		    q->inel[i].deadline < q->inel[best].deadline))
			best = i;
	return (best >= 0 ? q->inel[best].id : 0);
}

/*
 * The pick's part of a why line: eligible (its lag), the earliest
 * deadline (against V), the next eligible deadline, and an earlier
 * deadline passed over because its task is not eligible.
 */
static void
eevdf_why_head(const struct engine_env *env, const struct eevdf_rq *q,
    int64_t V, int id, char *buf, size_t len)
{
	const struct eevdf_task	*n = engine_ts(env, id), *o;
	const char		*nn = engine_task_name(env->e, id);
	char			 a[24], b[24], c[24], more[144];
	int			 x;

	more[0] = '\0';
	if ((x = eevdf_why_passed(q, n->deadline)) != 0) {
		o = engine_ts(env, x);
		snprintf(more, sizeof more, "; %s's %s ms is earlier but it "
		    "is not eligible (lag %s ms)", engine_task_name(env->e, x),
		    engine_ms(o->deadline - V, 0, b, sizeof b),
		    engine_ms(eevdf_lag(V, o), 1, c, sizeof c));
	} else if (q->nelig > 0)
		snprintf(more, sizeof more, "; next eligible %s at %s ms",
		    engine_task_name(env->e, q->elig[0].id),
		    engine_ms(q->elig[0].deadline - V, 0, b, sizeof b));
	else if (q->ninel > 0)
		snprintf(more, sizeof more, "; no other is eligible");
	snprintf(buf, len, "%s: eligible (lag %s ms), earliest deadline %s ms%s",
	    nn, engine_ms(eevdf_lag(V, n), 1, a, sizeof a),
	    engine_ms(n->deadline - V, 0, c, sizeof c), more);
}

/*
 * Why the pick changed (SPEC.md section 10): the eligible task (lag >=
 * 0) with the earliest virtual deadline runs, deadlines counted from
 * V; the one that ran used up its request (a new deadline further on),
 * gave way to a woken task pick_eevdf would now pick, or left.
 */
static void
eevdf_why(const struct engine_env *env, const void *rq,
    const struct engine_switch *sw, char *buf, size_t len)
{
	const struct eevdf_rq	*q = rq;
	const struct eevdf_task	*p;
	const char		*pn = engine_task_name(env->e, sw->prev);
	const char		*nn = engine_task_name(env->e, sw->next);
	char			 head[240], a[24], b[24];
	int64_t			 V;

	if (engine_why_idle(env, sw, buf, len))
		return;
	V = eevdf_V(env, q);
	eevdf_why_head(env, q, V, sw->next, head, sizeof head);
	if (engine_why_left(env, sw, head, buf, len))
		return;
	p = engine_ts(env, sw->prev);
	engine_ms(eevdf_lag(V, p), 1, a, sizeof a);
	engine_ms(p->deadline - V, 0, b, sizeof b);
	if (q->why.woke_at == env->now + 1 && q->why.woke_task == sw->next &&
	    eevdf_lag(V, p) < 0)
		snprintf(buf, len, "%s preempts %s, no longer eligible (lag "
		    "%s ms); %s", nn, pn, a, head);
	else if (q->why.woke_at == env->now + 1 &&
	    q->why.woke_task == sw->next)
		snprintf(buf, len, "%s preempts %s, whose deadline is %s ms; "
		    "%s", nn, pn, b, head);
	else if (q->why.req_at == env->now && q->why.req_task == sw->prev)
		snprintf(buf, len, "%s used its request: new deadline %s ms, "
		    "lag %s ms; %s", pn, b, a, head);
	else
		snprintf(buf, len, "%s gives way (lag %s ms, deadline %s ms); "
		    "%s",
		    pn, a, b, head);
}

/*
 * A runqueue's quantities: V and min_vruntime (us of virtual time; V
 * is the axis's zero, min_vruntime is said against it) and the
 * eligible task with the earliest deadline waiting (0: none).
 */
static void
eevdf_rq_info(const struct engine_env *env, const void *rq, int64_t *out)
{
	const struct eevdf_rq	*q = rq;
	int64_t			 V = eevdf_V(env, q);

	out[0] = V / 1000;
	out[1] = (q->min_vruntime - V) / 1000;
	out[2] = q->nelig > 0 ? q->elig[0].id : 0;
}

const struct engine_policy engine_policy_eevdf = {
	.name = "eevdf",
	.columns = "vruntime_us,lag_us,deadline_us,eligible",
	.ncols = EEVDF_NCOLS,
	.fields = "vruntime_us,lag_us,deadline_us,eligible,weight",
	.nfields = EEVDF_NCOLS + 1,
	.rq_fields = "V_us,min_vruntime_us,next",
	.nrq_fields = 3,
	.picture = "lag",
	.info_rq = 1,
	.rq_size = sizeof (struct eevdf_rq),
	.rq_init = eevdf_rq_init,
	.rq_clone = eevdf_rq_clone,
	.rq_memory = eevdf_rq_memory,
	.rq_free = eevdf_rq_free,
	.task_init = eevdf_task_init,
	.enqueue = eevdf_enqueue,
	.dequeue = eevdf_dequeue,
	.pick = eevdf_pick,
	.tick = eevdf_tick,
	.wake = eevdf_wake,
	.renice = eevdf_renice,
	.steal = eevdf_steal,
	.check = eevdf_check,
	.check_task = eevdf_check_task,
	.info = eevdf_info,
	.quiet = eevdf_quiet,
	.rq_info = eevdf_rq_info,
	.why = eevdf_why
};
