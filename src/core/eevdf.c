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
 * as a task joins or leaves the tree and as min_vruntime moves.  A
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
 * the subtree's earliest deadline (6.6) becomes here a treap ordered by
 * (deadline, vruntime, queued order) and augmented with the subtree's
 * smallest vruntime, as the kernel's tree is from 6.8.  The pick is one
 * descent: the first task in that order whose vruntime is eligible,
 * found by the subtrees' smallest vruntimes (eligibility only falls as
 * vruntime grows), O(log n) with no pass over the tasks.  Its nodes live
 * in a pool of the runqueue, found by index; the heap priorities come
 * from a hash of the queued order, so the same calls give the same tree.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "log.h"
#include "xmalloc.h"

#define EEVDF_NS		1000000LL	/* ns per tick: TICK_NSEC */
#define EEVDF_NICE_0_LOAD	1024

/* kernel/sched/core.c: sched_prio_to_weight, nice -20..19. */
static const uint32_t eevdf_prio_to_weight[40] = {
 /* -20 */	88761,	71755,	56483,	46273,	36291,
 /* -15 */	29154,	23254,	18705,	14949,	11916,
 /* -10 */	9548,	7620,	6100,	4904,	3906,
 /*  -5 */	3121,	2501,	1991,	1586,	1277,
 /*   0 */	1024,	820,	655,	526,	423,
 /*   5 */	335,	272,	215,	172,	137,
 /*  10 */	110,	87,	70,	56,	45,
 /*  15 */	36,	29,	23,	18,	15,
};

/* kernel/sched/core.c: sched_prio_to_wmult, 2^32 / weight. */
static const uint32_t eevdf_prio_to_wmult[40] = {
 /* -20 */	48388,	59856,	76040,	92818,	118348,
 /* -15 */	147320,	184698,	229616,	287308,	360437,
 /* -10 */	449829,	563644,	704093,	875809,	1099582,
 /*  -5 */	1376151,	1717300,	2157191,	2708050,	3363326,
 /*   0 */	4194304,	5237765,	6557202,	8165337,	10153587,
 /*   5 */	12820798,	15790321,	19976592,	24970740,	31350126,
 /*  10 */	39045157,	49367440,	61356676,	76695844,	95443717,
 /*  15 */	119304647,	148102320,	186737708,	238609294,	286331153,
};

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
	int32_t		node;		/* in its CPU's tree, -1: not there */
	int16_t		cpu;		/* rq it was last queued on, -1: none */
	int8_t		nice;
	int8_t		unused;
};

/* A node of the tree: a waiting task's keys, its subtree's least vruntime. */
struct eevdf_node {
	int64_t		deadline;
	int64_t		vruntime;
	int64_t		min_vruntime;	/* of the subtree */
	uint64_t	seq;		/* queued order: the last tie-break */
	uint64_t	stamp;		/* its place in cfs_tasks, for steal */
	uint32_t	prio;		/* the treap's heap order */
	int32_t		left, right;	/* nodes, -1: none */
	int32_t		id;		/* the task, 0: a free node */
};

/* A CPU's runqueue (struct cfs_rq's EEVDF part). */
struct eevdf_rq {
	struct eevdf_node *node;	/* the pool */
	int		 nnode;		/* slots used or freed */
	int		 node_size;	/* slots allocated */
	int		 free;		/* free slots, chained by left; -1 */
	int		 root;		/* -1: empty */
	int		 ntree;		/* tasks in the tree */
	int		 nr;		/* nr_running: the running one too */
	int		 curr;		/* running task, 0: none */
	int		 need_resched;
	uint64_t	 seq;		/* next queued order */
	uint64_t	 curr_seq;	/* the running task's, when picked */
	uint64_t	 curr_stamp;
	int64_t		 min_vruntime;
	int64_t		 avg_vruntime;	/* \Sum (v - min_vruntime) * w, tree */
	int64_t		 avg_load;	/* \Sum w, tree */
};

_Static_assert(sizeof (struct eevdf_task) <= ENGINE_PRIV_SIZE,
    "eevdf's task state must fit the engine's");

/* A nice level's weight (scale_load_down of the task's load). */
static int64_t
eevdf_weight(int nice)
{
	return (eevdf_prio_to_weight[nice + 20]);
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

	if (eevdf_weight(nice) == EEVDF_NICE_0_LOAD)
		return (delta);
	fact = (uint64_t)EEVDF_NICE_0_LOAD * eevdf_prio_to_wmult[nice + 20];
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
 * The sums avg_vruntime() and entity_eligible() use: the tree's, plus
 * the running task's (the kernel's `if (curr && curr->on_rq)`).
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
	    EEVDF_NICE_0_LOAD);
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
	int64_t	vlag, limit, slice = eevdf_slice(env);

	vlag = eevdf_V(env, q) - t->vruntime;
	limit = eevdf_delta_fair(2 * slice > EEVDF_NS ? 2 * slice : EEVDF_NS,
	    t->nice);
	if (vlag > limit)
		vlag = limit;
	if (vlag < -limit)
		vlag = -limit;
	t->vlag = vlag;
}

/*
 * update_min_vruntime(): the least of the running task's vruntime and
 * the tree's, never backwards; the sums follow (avg_vruntime_update).
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
	if (q->root >= 0) {
		m = q->node[q->root].min_vruntime;
		v = q->curr == 0 || m < v ? m : v;
	}
	if (v > q->min_vruntime) {
		q->avg_vruntime -= q->avg_load * (v - q->min_vruntime);
		q->min_vruntime = v;
	}
}

/* --- The tree (a treap in the pool). ---------------------------------- */

/* The heap priority of the node queued seq-th: a fixed hash of it. */
static uint32_t
eevdf_prio(uint64_t seq)
{
	seq += 0x9e3779b97f4a7c15ULL;
	seq = (seq ^ (seq >> 30)) * 0xbf58476d1ce4e5b9ULL;
	seq = (seq ^ (seq >> 27)) * 0x94d049bb133111ebULL;
	return ((uint32_t)(seq ^ (seq >> 31)));
}

/* Does a come before b: earlier deadline, less vruntime, queued first? */
static int
eevdf_before(const struct eevdf_node *a, const struct eevdf_node *b)
{
	if (a->deadline != b->deadline)
		return (a->deadline < b->deadline);
	if (a->vruntime != b->vruntime)
		return (a->vruntime < b->vruntime);
	return (a->seq < b->seq);
}

/* A node's subtree least vruntime, from its children's. */
static void
eevdf_pull(struct eevdf_rq *q, int n)
{
	struct eevdf_node	*N = &q->node[n];
	int64_t			 m = N->vruntime;

	if (N->left >= 0 && q->node[N->left].min_vruntime < m)
		m = q->node[N->left].min_vruntime;
	if (N->right >= 0 && q->node[N->right].min_vruntime < m)
		m = q->node[N->right].min_vruntime;
	N->min_vruntime = m;
}

/* Node n into the subtree at t; returns the subtree's new root. */
static int
eevdf_insert(struct eevdf_rq *q, int t, int n)
{
	struct eevdf_node	*T;
	int			 c;

	if (t < 0)
		return (n);
	T = &q->node[t];
	if (eevdf_before(&q->node[n], T)) {
		T->left = eevdf_insert(q, T->left, n);
		c = T->left;
		if (q->node[c].prio > T->prio) {
			T->left = q->node[c].right;
			q->node[c].right = t;
			eevdf_pull(q, t);
			eevdf_pull(q, c);
			return (c);
		}
	} else {
		T->right = eevdf_insert(q, T->right, n);
		c = T->right;
		if (q->node[c].prio > T->prio) {
			T->right = q->node[c].left;
			q->node[c].left = t;
			eevdf_pull(q, t);
			eevdf_pull(q, c);
			return (c);
		}
	}
	eevdf_pull(q, t);
	return (t);
}

/* Join subtrees a and b, every node of a before every node of b. */
static int
eevdf_merge(struct eevdf_rq *q, int a, int b)
{
	if (a < 0)
		return (b);
	if (b < 0)
		return (a);
	if (q->node[a].prio >= q->node[b].prio) {
		q->node[a].right = eevdf_merge(q, q->node[a].right, b);
		eevdf_pull(q, a);
		return (a);
	}
	q->node[b].left = eevdf_merge(q, a, q->node[b].left);
	eevdf_pull(q, b);
	return (b);
}

/* Node n out of the subtree at t; returns the subtree's new root. */
static int
eevdf_erase(struct eevdf_rq *q, int t, int n)
{
	struct eevdf_node	*T;

	if (t < 0)
		fatalx("eevdf: node %d is not in the tree", n);
	T = &q->node[t];
	if (t == n)
		return (eevdf_merge(q, T->left, T->right));
	if (eevdf_before(&q->node[n], T))
		T->left = eevdf_erase(q, T->left, n);
	else
		T->right = eevdf_erase(q, T->right, n);
	eevdf_pull(q, t);
	return (t);
}

/*
 * __enqueue_entity(): a task into the tree and into the sums
 * (avg_vruntime_add), queued last; at cfs_tasks' head unless *stamp
 * says where it was (the running task put back keeps its place).
 */
static void
eevdf_tree_add(const struct engine_env *env, struct eevdf_rq *q, int id,
    struct eevdf_task *t, const uint64_t *stamp)
{
	struct eevdf_node	*N;
	int			 n;

	if (q->free >= 0) {
		n = q->free;
		q->free = q->node[n].left;
	} else {
		if (q->nnode == q->node_size) {
			q->node_size = q->node_size ? q->node_size * 2 : 16;
			q->node = xreallocarray(q->node, q->node_size,
			    sizeof *q->node);
		}
		n = q->nnode++;
	}
	N = &q->node[n];
	N->deadline = t->deadline;
	N->vruntime = N->min_vruntime = t->vruntime;
	N->seq = q->seq++;
	N->stamp = stamp != NULL ? *stamp : N->seq;
	N->prio = eevdf_prio(N->seq);
	N->left = N->right = -1;
	N->id = id;
	t->node = n;
	q->avg_vruntime += (t->vruntime - q->min_vruntime) *
	    eevdf_weight(t->nice);
	q->avg_load += eevdf_weight(t->nice);
	q->root = eevdf_insert(q, q->root, n);
	q->ntree++;
}

/* __dequeue_entity(): out of the tree and the sums (avg_vruntime_sub). */
static void
eevdf_tree_del(struct eevdf_rq *q, struct eevdf_task *t)
{
	int	n = t->node;

	q->root = eevdf_erase(q, q->root, n);
	q->avg_vruntime -= (t->vruntime - q->min_vruntime) *
	    eevdf_weight(t->nice);
	q->avg_load -= eevdf_weight(t->nice);
	q->node[n].id = 0;
	q->node[n].left = q->free;
	q->free = n;
	t->node = -1;
	q->ntree--;
}

/*
 * The tree's pick: the first node in (deadline, vruntime, queued) order
 * whose vruntime is eligible under the sums given, or -1.  A left
 * subtree holding an eligible task holds the answer; else this node if
 * it is eligible; else the right subtree.
 */
static int
eevdf_tree_pick(const struct eevdf_rq *q, int64_t avg, int64_t load)
{
	int	n = q->root, l;

	while (n >= 0) {
		l = q->node[n].left;
		if (l >= 0 && eevdf_eligible(avg, load, q->min_vruntime,
		    q->node[l].min_vruntime)) {
			n = l;
			continue;
		}
		if (eevdf_eligible(avg, load, q->min_vruntime,
		    q->node[n].vruntime))
			return (n);
		n = q->node[n].right;
	}
	return (-1);
}

/* --- Placing and preempting. ----------------------------------------- */

/*
 * place_entity() at 6.6: the request is base_slice again; with others
 * queued (the running task counts), the lag kept is scaled by
 * (load + w) / load so that it comes out the same once the task is in
 * V; vruntime = V - lag, deadline = vruntime + the request's virtual
 * length.  PLACE_DEADLINE_INITIAL's half request does not reach a new
 * task in 6.6 (wake_up_new_task's enqueue places it again without
 * ENQUEUE_INITIAL), so a new task has the whole request too.
 */
static void
eevdf_place(const struct engine_env *env, const struct eevdf_rq *q,
    struct eevdf_task *t)
{
	const struct eevdf_task	*c;
	int64_t			 V = eevdf_V(env, q), lag = 0, load;

	if (q->nr > 0) {
		load = q->avg_load;
		if (q->curr != 0) {
			c = engine_ts(env, q->curr);
			load += eevdf_weight(c->nice);
		}
		if (load == 0)
			fatalx("eevdf: %d queued, no load", q->nr);
		lag = (int64_t)((__int128)t->vlag *
		    (load + eevdf_weight(t->nice)) / load);
	}
	t->vruntime = V - lag;
	t->deadline = t->vruntime + eevdf_delta_fair(eevdf_slice(env), t->nice);
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
	const struct eevdf_task	*c;
	struct eevdf_node	 cn;
	int64_t			 avg, load;
	int			 n, ce;

	if (q->curr == 0 || q->need_resched)
		return;
	c = engine_ts(env, q->curr);
	eevdf_sums(env, q, &avg, &load);
	ce = eevdf_eligible(avg, load, q->min_vruntime, c->vruntime);
	if (ce && c->vlag == c->deadline)
		return;
	if ((n = eevdf_tree_pick(q, avg, load)) < 0)
		return;
	if (ce) {
		cn.deadline = c->deadline;
		cn.vruntime = c->vruntime;
		cn.seq = q->curr_seq;
		if (eevdf_before(&cn, &q->node[n]))
			return;
	}
	if (q->node[n].id == id)
		q->need_resched = 1;
}

/* --- The class operations. ------------------------------------------ */

/* An empty runqueue. */
static void
eevdf_rq_init(const struct engine_env *env, void *rq)
{
	struct eevdf_rq	*q = rq;

	(void)env;
	memset(q, 0, sizeof *q);
	q->node = NULL;
	q->free = q->root = -1;
}

/* Free the pool. */
static void
eevdf_rq_free(void *rq)
{
	free(((struct eevdf_rq *)rq)->node);
}

/* Snapshots: dst holds src's bytes; give it its own pool. */
static void
eevdf_rq_clone(const struct engine_env *env, void *dst, const void *src)
{
	struct eevdf_rq		*d = dst;
	const struct eevdf_rq	*q = src;

	(void)env;
	d->node = NULL;
	d->node_size = q->nnode;
	if (q->nnode > 0) {
		d->node = xreallocarray(NULL, q->nnode, sizeof *d->node);
		memcpy(d->node, q->node, (size_t)q->nnode * sizeof *d->node);
	}
}

/* The pool's bytes. */
static size_t
eevdf_rq_memory(const void *rq)
{
	return ((size_t)((const struct eevdf_rq *)rq)->node_size *
	    sizeof (struct eevdf_node));
}

/* A new task (__sched_fork: no lag); placed when it is first queued. */
static void
eevdf_task_init(const struct engine_env *env, void *ts, int nice)
{
	struct eevdf_task	*t = ts;

	(void)env;
	memset(t, 0, sizeof *t);
	t->node = -1;
	t->cpu = -1;
	t->nice = (int8_t)nice;
}

/*
 * enqueue_entity(): placed with the lag it kept (a new task has none),
 * counted, into the tree; then, arrived (wake_up_new_task), woken
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

	t->cpu = (int16_t)eevdf_cpu_of(env, rq);
	if (why == ENGINE_ENQ_NEW)
		t->vlag = 0;
	eevdf_place(env, q, t);
	q->nr++;
	eevdf_tree_add(env, q, id, t, NULL);
	eevdf_preempt_check(env, q, id);
}

/*
 * dequeue_entity(): the lag is kept (update_entity_lag, V with the task
 * still in it), then out of the tree or no longer running, and
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
	} else
		eevdf_tree_del(q, t);
	q->nr--;
	eevdf_update_min_vruntime(env, q);
}

/*
 * schedule(): when the running task left or must give way, it goes back
 * into the tree (put_prev_entity) and the pick is the eligible task with
 * the earliest deadline (pick_eevdf); the task picked leaves the tree,
 * goes to cfs_tasks' head and has its deadline stashed in vlag
 * (set_next_entity).
 */
static int
eevdf_pick(const struct engine_env *env, void *rq)
{
	struct eevdf_rq		*q = rq;
	struct eevdf_task	*t;
	int64_t			 avg, load;
	int			 n, id;

	if (q->curr != 0 && !q->need_resched)
		return (q->curr);
	if (q->curr != 0)
		eevdf_tree_add(env, q, q->curr, engine_ts(env, q->curr),
		    &q->curr_stamp);
	q->curr = 0;
	q->need_resched = 0;
	if (q->root < 0)
		return (0);
	eevdf_sums(env, q, &avg, &load);
	if ((n = eevdf_tree_pick(q, avg, load)) < 0)
		fatalx("eevdf: no eligible task among %d", q->ntree);
	id = q->node[n].id;
	t = engine_ts(env, id);
	q->curr_seq = q->node[n].seq;
	eevdf_tree_del(q, t);
	q->curr = id;
	q->curr_stamp = q->seq++;
	t->vlag = t->deadline;
	return (id);
}

/* Fill a trace row's or snapshot's columns for a queued task. */
static void
eevdf_cols(const struct engine_env *env, const struct eevdf_rq *q,
    const struct eevdf_task *t, int64_t *col)
{
	int64_t	avg, load, V;

	eevdf_sums(env, q, &avg, &load);
	V = q->min_vruntime + eevdf_Vrel(avg, load);
	col[0] = (t->vruntime - V) / 1000;
	col[1] = eevdf_lag(V, t) / 1000;
	col[2] = (t->deadline - V) / 1000;
	col[3] = eevdf_eligible(avg, load, q->min_vruntime, t->vruntime);
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

	(void)id;
	row->rank = 120 + t->nice;
	row->iter = 1;
	row->descent = 1;
	row->left = eevdf_ticks(t->deadline - t->vruntime, t->nice);
	eevdf_cols(env, q, t, row->col);

	t->vruntime += eevdf_delta_fair(EEVDF_NS, t->nice);
	if (t->vruntime >= t->deadline) {
		t->deadline = t->vruntime +
		    eevdf_delta_fair(eevdf_slice(env), t->nice);
		if (q->nr > 1)
			q->need_resched = 1;
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
	int			 n;

	(void)env;
	if (q->curr != id || q->need_resched)
		return (0);
	if (q->nr <= 1)
		return (INT_MAX);
	n = eevdf_ticks(t->deadline - t->vruntime, t->nice);
	return (n > 0 ? n : 1);
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
	int64_t			 wold = eevdf_weight(t->nice);
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
		eevdf_tree_del(q, t);
	q->nr--;
	t->vlag = t->vlag * wold / eevdf_weight(nice);
	t->nice = (int8_t)nice;
	eevdf_place(env, q, t);
	q->nr++;
	eevdf_tree_add(env, q, id, t, NULL);
	if (running) {
		q->curr_seq = q->node[t->node].seq;
		q->curr_stamp = q->node[t->node].stamp;
		eevdf_tree_del(q, t);
		q->curr = id;
		t->vlag = t->deadline;
	}
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

	for (i = 0; i < q->nnode; i++) {
		if (q->node[i].id == 0 ||
		    (best >= 0 && q->node[i].stamp >= q->node[best].stamp))
			continue;
		if (engine_task_allowed(env->e, q->node[i].id, dst))
			best = i;
	}
	return (best >= 0 ? q->node[best].id : 0);
}

/* What eevdf_check_tree gathers while it walks the tree in order. */
struct eevdf_audit {
	int		 prev;		/* the node before, -1 */
	int		 count;
	int64_t		 avg, load;
};

/*
 * Audit the subtree at n: in order, heap-ordered, its least vruntime
 * right, each node's task queued here and pointing back at it, and the
 * sums.
 */
static int
eevdf_check_tree(const struct engine_env *env, const struct eevdf_rq *q,
    int n, int cpu, struct eevdf_audit *a, char **cause)
{
	const struct eevdf_node	*N;
	const struct eevdf_task	*t;
	int64_t			 m;

	if (n < 0)
		return (0);
	if (n >= q->nnode || ++a->count > q->ntree) {
		*cause = xasprintf("tree: node %d out of the pool or a cycle",
		    n);
		return (-1);
	}
	N = &q->node[n];
	if (eevdf_check_tree(env, q, N->left, cpu, a, cause) != 0)
		return (-1);
	if (engine_check_queued(env->e, N->id, cpu, cause) != 0)
		return (-1);
	t = engine_ts(env, N->id);
	m = N->vruntime;
	if (N->left >= 0 && q->node[N->left].min_vruntime < m)
		m = q->node[N->left].min_vruntime;
	if (N->right >= 0 && q->node[N->right].min_vruntime < m)
		m = q->node[N->right].min_vruntime;
	if (t->node != n || t->cpu != cpu || t->vruntime != N->vruntime ||
	    t->deadline != N->deadline || N->min_vruntime != m ||
	    (a->prev >= 0 && !eevdf_before(&q->node[a->prev], N)) ||
	    (N->left >= 0 && q->node[N->left].prio > N->prio) ||
	    (N->right >= 0 && q->node[N->right].prio > N->prio)) {
		*cause = xasprintf("tree: task %d misplaced at node %d",
		    N->id, n);
		return (-1);
	}
	a->prev = n;
	a->avg += (N->vruntime - q->min_vruntime) * eevdf_weight(t->nice);
	a->load += eevdf_weight(t->nice);
	return (eevdf_check_tree(env, q, N->right, cpu, a, cause));
}

/*
 * Audit a runqueue: the tree, the free nodes, the counts, the sums kept
 * against the tree's, the running task out of the tree, and the lags
 * summing to zero: with W the weights queued and V rounded down,
 * \Sum w_i (V - v_i) lies in (-W, 0].  Returns the number queued.
 */
static int
eevdf_check(const struct engine_env *env, const void *rq, int cpu,
    char **cause)
{
	const struct eevdf_rq	*q = rq;
	const struct eevdf_task	*t;
	struct eevdf_audit	 a;
	int64_t			 avg, load;
	__int128		 sum;
	int			 n, nfree = 0;

	memset(&a, 0, sizeof a);
	a.prev = -1;
	if (eevdf_check_tree(env, q, q->root, cpu, &a, cause) != 0)
		return (-1);
	for (n = q->free; n >= 0 && nfree <= q->nnode; n = q->node[n].left) {
		if (q->node[n].id != 0)
			break;
		nfree++;
	}
	if (a.count != q->ntree || n >= 0 || nfree + q->ntree != q->nnode) {
		*cause = xasprintf("tree: %d nodes found, %d kept, %d free of "
		    "%d", a.count, q->ntree, nfree, q->nnode);
		return (-1);
	}
	if (a.avg != q->avg_vruntime || a.load != q->avg_load) {
		*cause = xasprintf("avg_vruntime %lld load %lld, the tree's "
		    "%lld %lld", (long long)q->avg_vruntime,
		    (long long)q->avg_load, (long long)a.avg,
		    (long long)a.load);
		return (-1);
	}
	if (q->curr != 0) {
		t = engine_ts(env, q->curr);
		if (engine_check_queued(env->e, q->curr, cpu, cause) != 0)
			return (-1);
		if (t->node != -1 || t->cpu != cpu) {
			*cause = xasprintf("current task %d in the tree",
			    q->curr);
			return (-1);
		}
	}
	if (q->nr != q->ntree + (q->curr != 0)) {
		*cause = xasprintf("nr %d but %d waiting", q->nr, q->ntree);
		return (-1);
	}
	eevdf_sums(env, q, &avg, &load);
	sum = (__int128)eevdf_Vrel(avg, load) * load - avg;
	if (sum > 0 || (load > 0 && sum <= -load)) {
		*cause = xasprintf("lags sum to %lld / 1024 ns, weights %lld",
		    (long long)sum, (long long)load);
		return (-1);
	}
	return (q->nr);
}

/*
 * A task's nice matches; its CPU is one of the engine's; a task that
 * says it is in a tree has a node there with its keys.
 */
static int
eevdf_check_task(const struct engine_env *env, const void *ts, int nice,
    char **cause)
{
	const struct eevdf_task	*t = ts;
	const struct eevdf_rq	*q;

	if (t->nice != nice || t->cpu < -1 || t->cpu >= env->ncpus ||
	    (t->node >= 0 && t->cpu < 0)) {
		*cause = xasprintf("bad eevdf state nice=%d cpu=%d node=%d",
		    t->nice, t->cpu, t->node);
		return (-1);
	}
	if (t->node < 0)
		return (0);
	q = engine_rq(env, t->cpu);
	if (t->node >= q->nnode || q->node[t->node].id == 0 ||
	    q->node[t->node].vruntime != t->vruntime ||
	    q->node[t->node].deadline != t->deadline) {
		*cause = xasprintf("eevdf node %d on cpu %d is not the task's",
		    t->node, t->cpu);
		return (-1);
	}
	return (0);
}

/*
 * A task's snapshot: rank 120 + nice; queued, vruntime and deadline
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

	ti->rank = 120 + t->nice;
	memset(ti->col, 0, sizeof ti->col);
	if (ti->state == ENGINE_RUNNABLE && t->cpu >= 0) {
		eevdf_cols(env, engine_rq(env, t->cpu), t, ti->col);
		left = eevdf_ticks(t->deadline - t->vruntime, t->nice);
		slice = eevdf_ticks(eevdf_delta_fair(eevdf_slice(env),
		    t->nice), t->nice);
	} else {
		ti->col[0] = -t->vlag / 1000;
		ti->col[1] = t->vlag * eevdf_weight(t->nice) /
		    EEVDF_NICE_0_LOAD / 1000;
	}
	engine_stair_flat(ti, t->nice, left);
	ti->slice = slice;
	ti->top = ti->bottom = 120 + t->nice;
}

/* The trace's columns: vruntime_us,lag_us,deadline_us,eligible. */
static char *
eevdf_format(const struct engine_cpu_info *row, char *p)
{
	p = engine_itoa(p, row->col[0]);
	*p++ = ',';
	p = engine_itoa(p, row->col[1]);
	*p++ = ',';
	p = engine_itoa(p, row->col[2]);
	*p++ = ',';
	return (engine_itoa(p, row->col[3]));
}

const struct engine_policy engine_policy_eevdf = {
	.name = "eevdf",
	.columns = "vruntime_us,lag_us,deadline_us,eligible",
	.ncols = 4,
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
	.format = eevdf_format
};
