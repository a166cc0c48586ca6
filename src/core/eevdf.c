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
 * vruntime grows), O(log n) with no pass over the tasks; a removal
 * starts from the node (parent links), and only the least vruntimes it
 * may change are computed again.  Its nodes live in a pool of the
 * runqueue, found by index, what a descent reads apart from the rest;
 * the heap priorities come from a hash of the queued order, so the same
 * calls give the same tree.  The calc_delta_fair values a tick needs are
 * computed once per runqueue, by nice.
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
	int32_t		node;		/* in its CPU's tree, 0: not there */
	int16_t		cpu;		/* rq it was last queued on, -1: none */
	int8_t		nice;
	uint8_t		left;		/* ticks to the deadline (eevdf_ticks) */
};

/*
 * A node of the tree, what a descent reads (40 bytes): a waiting task's
 * keys, its subtree's least vruntime, its children and parent.  Node 0
 * is no node: its least vruntime is the largest there is, so a missing
 * child is never eligible and never lowers a least vruntime.
 */
struct eevdf_node {
	int64_t		deadline;
	int64_t		vruntime;
	int64_t		min_vruntime;	/* of the subtree */
	int32_t		child[2];	/* left, right; 0: none */
	int32_t		parent;		/* 0: the root */
};

/* The rest of a node, read on a tie, a rotation, a pick or a steal. */
struct eevdf_cold {
	uint64_t	seq;		/* queued order: the last tie-break */
	uint64_t	stamp;		/* its place in cfs_tasks, for steal */
	uint32_t	prio;		/* the treap's heap order */
	int32_t		id;		/* the task, 0: a free node */
};

/* A CPU's runqueue (struct cfs_rq's EEVDF part). */
struct eevdf_rq {
	struct eevdf_node *node;	/* the pool, node 0 unused */
	struct eevdf_cold *cold;
	int		 nnode;		/* slots used or freed, node 0 too */
	int		 node_size;	/* slots allocated */
	int		 free;		/* free slots, chained by child[0]; 0 */
	int		 root;		/* 0: empty */
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
	/* By nice + 20, set from base_slice: calc_delta_fair of a tick, */
	int64_t		 vtick[40];
	int64_t		 vslice[40];	/* of the request, */
	int64_t		 vlimit[40];	/* of update_entity_lag's clamp; */
	uint8_t		 req[40];	/* the ticks a request lasts */
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
	if (q->root != 0) {
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

/* Does node a come before b: earlier deadline, less vruntime, queued first? */
static inline __attribute__((always_inline)) int
eevdf_before(const struct eevdf_rq *q, int a, int b)
{
	const struct eevdf_node	*A = &q->node[a], *B = &q->node[b];

	if (A->deadline != B->deadline)
		return (A->deadline < B->deadline);
	if (A->vruntime != B->vruntime)
		return (A->vruntime < B->vruntime);
	return (q->cold[a].seq < q->cold[b].seq);
}

/* A node's subtree least vruntime, from its children's. */
static void
eevdf_pull(struct eevdf_rq *q, int n)
{
	struct eevdf_node	*N = &q->node[n];
	int64_t			 m = N->vruntime, l, r;

	l = q->node[N->child[0]].min_vruntime;
	r = q->node[N->child[1]].min_vruntime;
	m = l < m ? l : m;
	N->min_vruntime = r < m ? r : m;
}

/* Put n where child c of node p was (p 0: the root); n's parent is p. */
static void
eevdf_replace(struct eevdf_rq *q, int p, int c, int n)
{
	if (p == 0)
		q->root = n;
	else
		q->node[p].child[q->node[p].child[1] == c] = n;
	q->node[n].parent = p;
}

/*
 * Rotate child c of node p up into p's place; p becomes c's child on
 * the other side and takes c's subtree on that side.  The least
 * vruntimes are the caller's.
 */
static void
eevdf_rotate_up(struct eevdf_rq *q, int p, int c)
{
	struct eevdf_node	*P = &q->node[p], *C = &q->node[c];
	int			 sd = P->child[1] == c, m = C->child[!sd];

	eevdf_replace(q, P->parent, p, c);
	P->child[sd] = m;
	q->node[m].parent = p;
	C->child[!sd] = p;
	P->parent = c;
}

/*
 * Node n into the tree: down to a leaf in order, lowering the least
 * vruntimes on the way (a new node comes after its equals: its queued
 * order is the latest, so the seq tie-break is never read), then up by
 * rotations while its priority beats its parent's; only the two nodes a
 * rotation moves are computed again.
 */
static void
eevdf_insert(struct eevdf_rq *q, int n)
{
	struct eevdf_node	*N = &q->node[n], *T;
	int			 t = q->root, p = 0, sd = 0;

	/* Written without branches on the keys: they are not predictable. */
	while (t != 0) {
		T = &q->node[t];
		__builtin_prefetch(&q->node[T->child[0]]);
		__builtin_prefetch(&q->node[T->child[1]]);
		T->min_vruntime = N->vruntime < T->min_vruntime ?
		    N->vruntime : T->min_vruntime;
		sd = (N->deadline > T->deadline) | ((N->deadline ==
		    T->deadline) & (N->vruntime >= T->vruntime));
		p = t;
		t = T->child[sd];
	}
	N->parent = p;
	if (p == 0)
		q->root = n;
	else
		q->node[p].child[sd] = n;
	while ((p = N->parent) != 0 && q->cold[n].prio > q->cold[p].prio) {
		eevdf_rotate_up(q, p, n);
		eevdf_pull(q, p);
		eevdf_pull(q, n);
	}
	/* Node 0's parent is written by rotations of a leaf: keep it 0. */
	q->node[0].parent = 0;
}

/*
 * Node n out of the tree, from where it is: rotated down (the child of
 * higher priority up in its place) until it has at most one child,
 * which takes its place.  The least vruntimes are computed again from
 * there up: every node the rotations moved, and above them the
 * ancestors whose least vruntime was n's.
 */
static void
eevdf_erase(struct eevdf_rq *q, int n)
{
	struct eevdf_node	*N = &q->node[n];
	int			 c, p, r = 0;

	while (N->child[0] != 0 && N->child[1] != 0) {
		c = N->child[q->cold[N->child[0]].prio <=
		    q->cold[N->child[1]].prio];
		eevdf_rotate_up(q, n, c);
		r++;
	}
	c = N->child[0] != 0 ? N->child[0] : N->child[1];
	p = N->parent;
	eevdf_replace(q, p, n, c);
	q->node[0].parent = 0;
	for (; p != 0; p = q->node[p].parent, r--) {
		if (r <= 0 && q->node[p].min_vruntime != N->vruntime)
			break;
		eevdf_pull(q, p);
	}
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
	struct eevdf_cold	*C;
	int			 n;

	if (q->free != 0) {
		n = q->free;
		q->free = q->node[n].child[0];
	} else {
		if (q->nnode == q->node_size) {
			q->node_size = q->node_size ? q->node_size * 2 : 16;
			q->node = xreallocarray(q->node, q->node_size,
			    sizeof *q->node);
			q->cold = xreallocarray(q->cold, q->node_size,
			    sizeof *q->cold);
		}
		if (q->nnode == 0) {
			/* Node 0: no node. */
			memset(&q->node[0], 0, sizeof q->node[0]);
			memset(&q->cold[0], 0, sizeof q->cold[0]);
			q->node[0].vruntime = q->node[0].min_vruntime =
			    INT64_MAX;
			q->nnode = 1;
		}
		n = q->nnode++;
	}
	N = &q->node[n];
	C = &q->cold[n];
	N->deadline = t->deadline;
	N->vruntime = N->min_vruntime = t->vruntime;
	N->child[0] = N->child[1] = N->parent = 0;
	C->seq = q->seq++;
	C->stamp = stamp != NULL ? *stamp : C->seq;
	C->prio = eevdf_prio(C->seq);
	C->id = id;
	t->node = n;
	q->avg_vruntime += (t->vruntime - q->min_vruntime) *
	    eevdf_weight(t->nice);
	q->avg_load += eevdf_weight(t->nice);
	eevdf_insert(q, n);
	q->ntree++;
}

/* __dequeue_entity(): out of the tree and the sums (avg_vruntime_sub). */
static void
eevdf_tree_del(struct eevdf_rq *q, struct eevdf_task *t)
{
	int	n = t->node;

	eevdf_erase(q, n);
	q->avg_vruntime -= (t->vruntime - q->min_vruntime) *
	    eevdf_weight(t->nice);
	q->avg_load -= eevdf_weight(t->nice);
	q->cold[n].id = 0;
	q->node[n].child[0] = q->free;
	q->free = n;
	t->node = 0;
	q->ntree--;
}

/*
 * The tree's pick: the first node in (deadline, vruntime, queued) order
 * whose vruntime is eligible, that is no greater than V (avg_vruntime
 * rounded down: for a whole number k and load > 0, avg >= k * load
 * exactly when k <= floor(avg / load), so this is entity_eligible's
 * test; eevdf_check holds the two equal), or 0.  A left subtree
 * holding an eligible task holds the answer; else this node if it is
 * eligible; else the right subtree.
 */
static int
eevdf_tree_pick(const struct eevdf_rq *q, int64_t V)
{
	const struct eevdf_node	*N;
	int			 n = q->root, left;

	while (n != 0) {
		N = &q->node[n];
		__builtin_prefetch(&q->node[N->child[1]]);
		left = q->node[N->child[0]].min_vruntime <= V;
		if (!left && N->vruntime <= V)
			return (n);
		n = N->child[!left];
	}
	return (0);
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
	const struct eevdf_node	*W;
	int64_t			 avg, load;
	int			 n, ce;

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
	W = &q->node[t->node];
	if (ce && (c->deadline < W->deadline || (c->deadline == W->deadline &&
	    c->vruntime <= W->vruntime)))
		return;
	n = eevdf_tree_pick(q, q->min_vruntime + eevdf_Vrel(avg, load));
	if (n != 0 && q->cold[n].id == id)
		q->need_resched = 1;
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
	q->node = NULL;
	q->cold = NULL;
	for (nice = -20; nice < 20; nice++) {
		q->vtick[nice + 20] = eevdf_delta_fair(EEVDF_NS, nice);
		q->vslice[nice + 20] = eevdf_delta_fair(slice, nice);
		q->vlimit[nice + 20] = eevdf_delta_fair(2 * slice > EEVDF_NS ?
		    2 * slice : EEVDF_NS, nice);
		q->req[nice + 20] = (uint8_t)eevdf_ticks(
		    q->vslice[nice + 20], nice);
	}
}

/* Free the pool. */
static void
eevdf_rq_free(void *rq)
{
	free(((struct eevdf_rq *)rq)->node);
	free(((struct eevdf_rq *)rq)->cold);
}

/* Snapshots: dst holds src's bytes; give it its own pool. */
static void
eevdf_rq_clone(const struct engine_env *env, void *dst, const void *src)
{
	struct eevdf_rq		*d = dst;
	const struct eevdf_rq	*q = src;

	(void)env;
	d->node = NULL;
	d->cold = NULL;
	d->node_size = q->nnode;
	if (q->nnode > 0) {
		d->node = xreallocarray(NULL, q->nnode, sizeof *d->node);
		memcpy(d->node, q->node, (size_t)q->nnode * sizeof *d->node);
		d->cold = xreallocarray(NULL, q->nnode, sizeof *d->cold);
		memcpy(d->cold, q->cold, (size_t)q->nnode * sizeof *d->cold);
	}
}

/* The pool's bytes. */
static size_t
eevdf_rq_memory(const void *rq)
{
	return ((size_t)((const struct eevdf_rq *)rq)->node_size *
	    (sizeof (struct eevdf_node) + sizeof (struct eevdf_cold)));
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
	int			 n, id;

	if (q->curr != 0 && !q->need_resched)
		return (q->curr);
	if (q->curr != 0)
		eevdf_tree_add(env, q, q->curr, engine_ts(env, q->curr),
		    &q->curr_stamp);
	q->curr = 0;
	q->need_resched = 0;
	if (q->root == 0)
		return (0);
	if ((n = eevdf_tree_pick(q, eevdf_V(env, q))) == 0)
		fatalx("eevdf: no eligible task among %d", q->ntree);
	id = q->cold[n].id;
	t = engine_ts(env, id);
	q->curr_seq = q->cold[n].seq;
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
	col[3] = t->vruntime <= V;	/* entity_eligible (eevdf_tree_pick) */
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
	row->left = t->left;
	eevdf_cols(env, q, t, row->col);

	t->vruntime += q->vtick[t->nice + 20];
	t->left--;
	if (t->vruntime >= t->deadline) {
		t->deadline = t->vruntime + q->vslice[t->nice + 20];
		t->left = q->req[t->nice + 20];
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
		q->curr_seq = q->cold[t->node].seq;
		q->curr_stamp = q->cold[t->node].stamp;
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

	for (i = 1; i < q->nnode; i++) {
		if (q->cold[i].id == 0 ||
		    (best >= 0 && q->cold[i].stamp >= q->cold[best].stamp))
			continue;
		if (engine_task_allowed(env->e, q->cold[i].id, dst))
			best = i;
	}
	return (best >= 0 ? q->cold[best].id : 0);
}

/* What eevdf_check_tree gathers while it walks the tree in order. */
struct eevdf_audit {
	int		 prev;		/* the node before, 0 */
	int		 count;
	int64_t		 avg, load;
	int64_t		 kavg, kload;	/* the kept sums, curr in */
	int64_t		 V;
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
	int			 id, l, r;

	if (n == 0)
		return (0);
	if (n < 0 || n >= q->nnode || ++a->count > q->ntree) {
		*cause = xasprintf("tree: node %d out of the pool or a cycle",
		    n);
		return (-1);
	}
	N = &q->node[n];
	l = N->child[0];
	r = N->child[1];
	id = q->cold[n].id;
	if (eevdf_check_tree(env, q, l, cpu, a, cause) != 0)
		return (-1);
	if (engine_check_queued(env->e, id, cpu, cause) != 0)
		return (-1);
	t = engine_ts(env, id);
	m = N->vruntime;
	if (q->node[l].min_vruntime < m)
		m = q->node[l].min_vruntime;
	if (q->node[r].min_vruntime < m)
		m = q->node[r].min_vruntime;
	if (t->node != n || t->cpu != cpu || t->vruntime != N->vruntime ||
	    t->deadline != N->deadline || N->min_vruntime != m ||
	    t->left != eevdf_ticks(t->deadline - t->vruntime, t->nice) ||
	    (l != 0 && q->node[l].parent != n) ||
	    (r != 0 && q->node[r].parent != n) ||
	    (n == q->root && N->parent != 0) ||
	    (a->prev != 0 && !eevdf_before(q, a->prev, n)) ||
	    (l != 0 && q->cold[l].prio > q->cold[n].prio) ||
	    (r != 0 && q->cold[r].prio > q->cold[n].prio)) {
		*cause = xasprintf("tree: task %d misplaced at node %d", id,
		    n);
		return (-1);
	}
	if ((N->vruntime <= a->V) != eevdf_eligible(a->kavg, a->kload,
	    q->min_vruntime, N->vruntime)) {
		*cause = xasprintf("task %d: v <= V and entity_eligible "
		    "differ", id);
		return (-1);
	}
	a->prev = n;
	a->avg += (N->vruntime - q->min_vruntime) * eevdf_weight(t->nice);
	a->load += eevdf_weight(t->nice);
	return (eevdf_check_tree(env, q, r, cpu, a, cause));
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
	eevdf_sums(env, q, &a.kavg, &a.kload);
	a.V = q->min_vruntime + eevdf_Vrel(a.kavg, a.kload);
	if (eevdf_check_tree(env, q, q->root, cpu, &a, cause) != 0)
		return (-1);
	for (n = q->free; n > 0 && n < q->nnode && nfree <= q->nnode;
	    n = q->node[n].child[0]) {
		if (q->cold[n].id != 0)
			break;
		nfree++;
	}
	if (a.count != q->ntree || n != 0 ||
	    (q->nnode > 0 && nfree + q->ntree + 1 != q->nnode) ||
	    (q->nnode > 0 && (q->node[0].min_vruntime != INT64_MAX ||
	    q->node[0].child[0] != 0 || q->node[0].child[1] != 0))) {
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
		if (t->node != 0 || t->cpu != cpu ||
		    t->left != eevdf_ticks(t->deadline - t->vruntime, t->nice)) {
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
	    t->node < 0 || (t->node > 0 && t->cpu < 0)) {
		*cause = xasprintf("bad eevdf state nice=%d cpu=%d node=%d",
		    t->nice, t->cpu, t->node);
		return (-1);
	}
	if (t->node == 0)
		return (0);
	q = engine_rq(env, t->cpu);
	if (t->node >= q->nnode || q->cold[t->node].id == 0 ||
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
		left = t->left;
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
