/*
 * staircase.c -- the staircase policy (Con Kolivas, 2004), as SPEC.md
 * section 1 states it.
 *
 * A task walks down its stairs one rank every rr ticks.  Falling off the
 * bottom starts a new descent one stair lower than the last, with k*rr
 * ticks on its top stair, so every descent costs the same L = 20 - nice
 * intervals.  A sleep climbs one stair back up.
 *
 * Each CPU's runqueue is one priority array (prio_array.h) indexed by
 * rank; the pick is the head of the best rank (the core does it inline:
 * pick is NULL).  The task that runs stays
 * at the head of its list until it expires or sleeps, so a task woken at
 * a better rank preempts at the next tick and one at an equal rank waits.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "staircase.h"
#include "xmalloc.h"

/* A task's place on its stairs (SPEC.md 1): the staircase's own state. */
struct stair {
	int		nice;		/* -20..19 */
	int		prio;		/* static priority */
	int		rank;		/* r: prio..139 */
	int		iter;		/* k: 1..L */
	int		left;		/* ticks left at this rank */
	uint32_t	descent;	/* 1 + number of fall-offs (table row) */
	int		woke_at;	/* explaining: its rank before a wake */
};

_Static_assert(sizeof (struct stair) <= ENGINE_PRIV_SIZE,
    "the staircase's task state must fit the engine's");

/* The number of stairs of a nice level: L = 140 - static. */
static int
staircase_stairs(int nice)
{
	return (ENGINE_NRANKS - NICE_TO_PRIO(nice));
}

/* The top stair of descent k. */
static int
staircase_top(const struct stair *st, int k)
{
	return (st->prio + k - 1);
}

/* Ticks allotted at rank r in descent k: k*rr on the top stair, else rr. */
static int
staircase_allot(const struct stair *st, int r, int k, int rr)
{
	return (r == staircase_top(st, k) ? k * rr : rr);
}

/* A new task starts on its static stair, first descent, one interval. */
static void
staircase_stair_init(struct stair *st, int nice, int rr)
{
	st->nice = nice;
	st->prio = NICE_TO_PRIO(nice);
	st->rank = st->prio;
	st->iter = 1;
	st->left = rr;
	st->descent = 1;
}

/*
 * Charge one tick.  At the end of an allotment the task steps down; at
 * the bottom it falls off to the top of its next descent.  Either way it
 * goes to the tail of its (new) rank, so this returns 1.
 */
static inline int
staircase_charge(struct stair *st, int rr)
{
	int	L = staircase_stairs(st->nice);

	if (--st->left > 0)
		return (0);
	if (st->rank < ENGINE_BOTTOM) {
		st->rank++;
		st->left = rr;
	} else {
		if (st->iter < L)
			st->iter++;
		st->rank = staircase_top(st, st->iter);
		st->left = st->iter * rr;
		st->descent++;
	}
	return (1);
}

/*
 * Woken after a real sleep: one stair up, back into the previous descent
 * if that climbs above the top of this one, and a fresh allotment.
 */
static void
staircase_climb(struct stair *st, int rr)
{
	if (st->rank > st->prio) {
		st->rank--;
		if (st->rank < staircase_top(st, st->iter))
			st->iter--;
	}
	st->left = staircase_allot(st, st->rank, st->iter, rr);
}

/*
 * A nice change moves the task's rank with its static priority, clamped
 * to the new stairs, and keeps it within a descent that fits them.
 */
static void
staircase_stair_renice(struct stair *st, int nice, int rr)
{
	int	prio = NICE_TO_PRIO(nice), L = staircase_stairs(nice), r, k, a;

	r = st->rank + (prio - st->prio);
	if (r < prio)
		r = prio;
	if (r > ENGINE_BOTTOM)
		r = ENGINE_BOTTOM;
	k = st->iter;
	if (k > L)
		k = L;
	if (k > r - prio + 1)
		k = r - prio + 1;
	st->nice = nice;
	st->prio = prio;
	st->rank = r;
	st->iter = k;
	a = staircase_allot(st, r, k, rr);
	if (st->left > a)
		st->left = a;
	if (st->left < 1)
		st->left = 1;
}

/* --- The class operations. ------------------------------------------ */

/* A new task. */
static void
staircase_task_init(const struct engine_env *env, void *ts, int nice)
{
	staircase_stair_init(ts, nice, env->rr_interval);
}

/*
 * Run one tick: the row keeps the stair as it was during the tick; an
 * expiry requeues at the tail of the (new) rank.  A fall-off (a new
 * descent: the article's table's next row) is told.
 */
static void
staircase_tick(const struct engine_env *env, void *rq, int id, void *ts,
    struct engine_cpu_info *row)
{
	struct stair	*st = ts;
	int		 r = st->rank, next;

	row->rank = r;
	row->left = st->left;
	row->col[0] = row->field[STAIRCASE_ITER] = st->iter;
	row->col[1] = st->left;
	row->field[STAIRCASE_DESCENT] = st->descent;
	if (staircase_charge(st, env->rr_interval)) {
		prio_array_del(rq, &env->links, id, r);
		prio_array_add_tail(rq, &env->links, id, st->rank);
		if ((next = prio_array_first(rq)) != 0)
			__builtin_prefetch(engine_ts(env, next));
		if (r == ENGINE_BOTTOM)
			engine_note(env, id, "fell off the bottom: descent %u "
			    "(k=%d) starts at %d with %d ms", st->descent,
			    st->iter, st->rank, st->left);
	}
}

/* Woken: a sleep of at least sleep_min ticks climbs one stair. */
static void
staircase_wake(const struct engine_env *env, void *ts, uint64_t slept)
{
	struct stair	*st = ts;
	int		 r = st->rank;

	if (env->explain)
		st->woke_at = r;
	if (slept < (uint64_t)env->sleep_min)
		return;
	staircase_climb(st, env->rr_interval);
	if (st->rank < r)
		engine_note(env, engine_ts_id(env, ts), "woke and climbed "
		    "%d -> %d", r, st->rank);
}

/* Nice changed: a queued task goes to the tail of its new rank. */
static void
staircase_renice(const struct engine_env *env, void *rq, int id, void *ts,
    int nice)
{
	struct stair	*st = ts;

	if (rq != NULL)
		prio_array_del(rq, &env->links, id, st->rank);
	staircase_stair_renice(st, nice, env->rr_interval);
	if (rq != NULL)
		prio_array_add_tail(rq, &env->links, id, st->rank);
}

/*
 * The task to give away: not the head of the best rank (it would run
 * next), allowed on dst; the best-ranked, and within a rank the one
 * nearest the tail.
 */
static int
staircase_steal(const struct engine_env *env, void *rq, int dst)
{
	const struct prio_array	*a = rq;
	int			 best, r, id;

	best = prio_array_best(a);
	for (r = best; r >= 0; r = prio_array_next(a, r)) {
		for (id = a->tail[r]; id != 0; id = env->links.prev[id]) {
			if (r == best && id == a->head[r])
				continue;
			if (engine_task_allowed(env->e, id, dst))
				return (id);
		}
	}
	return (0);
}

/* What staircase_check() passes to its visitor. */
struct staircase_visit {
	const struct engine_env	*env;
	int			 cpu;
};

/* A queued task: rightly there, and on the list of its rank. */
static int
staircase_visit(void *arg, int id, int r, char **cause)
{
	struct staircase_visit	*v = arg;
	struct stair	*st = engine_ts(v->env, id);

	if (engine_check_queued(v->env->e, id, v->cpu, cause) != 0)
		return (-1);
	if (st->rank != r) {
		*cause = xasprintf("task %d at rank %d is on list %d", id,
		    st->rank, r);
		return (-1);
	}
	return (0);
}

/* Audit the array; returns the number queued. */
static int
staircase_check(const struct engine_env *env, const void *rq, int cpu,
    char **cause)
{
	struct staircase_visit	v = { env, cpu };

	if (prio_array_check(rq, &env->links, engine_ntasks(env->e),
	    staircase_visit, &v, cause) != 0)
		return (-1);
	return (((const struct prio_array *)rq)->nr);
}

/* A task's stair against the invariants of SPEC.md section 1. */
static int
staircase_check_task(const struct engine_env *env, const void *ts, int nice,
    char **cause)
{
	const struct stair	*st = ts;
	int				 L = staircase_stairs(st->nice), top;

	top = st->prio + st->iter - 1;
	if (st->nice != nice || st->prio != NICE_TO_PRIO(st->nice) ||
	    st->rank < st->prio ||
	    st->rank > ENGINE_BOTTOM || st->iter < 1 || st->iter > L ||
	    st->rank < top || st->left < 1 ||
	    st->left > (st->rank == top ? st->iter : 1) * env->rr_interval) {
		*cause = xasprintf("bad stair nice=%d rank=%d iter=%d "
		    "left=%d", st->nice, st->rank, st->iter, st->left);
		return (-1);
	}
	return (0);
}

/* A task's snapshot: its stair; fields iter and descent. */
static void
staircase_info(const struct engine_env *env, const void *ts,
    struct engine_task_info *ti)
{
	const struct stair	*st = ts;

	ti->rank = st->rank;
	ti->left = st->left;
	ti->slice = staircase_allot(st, st->rank, st->iter, env->rr_interval);
	ti->top = st->prio;
	ti->bottom = ENGINE_BOTTOM;
	ti->field[STAIRCASE_ITER] = st->iter;
	ti->field[STAIRCASE_DESCENT] = st->descent;
}

/* How the staircase's pick came to be where it is, into buf. */
static void
staircase_how(const struct engine_switch *sw, const struct stair *n,
    char *buf, size_t len)
{
	if (sw->woke && n->woke_at > n->rank)
		snprintf(buf, len, "woke and climbed %d -> %d", n->woke_at,
		    n->rank);
	else if (sw->woke)
		snprintf(buf, len, "%s at rank %d", sw->fresh ? "arrived" :
		    "woke", n->rank);
	else if (sw->from_cpu >= 0)
		snprintf(buf, len, "moved here from cpu %d, at rank %d",
		    sw->from_cpu, n->rank);
	else
		snprintf(buf, len, "rank %d", n->rank);
}

/*
 * Why the pick changed (SPEC.md section 10): the head of the best rank
 * runs, and the one that ran either used up its time on its stair
 * (down a stair, or off the bottom into a new descent), or lost to a
 * better rank (woken, maybe climbed a stair), or left the queue.
 */
static void
staircase_why_line(const struct engine_env *env, const void *rq,
    const struct engine_switch *sw, char *buf, size_t len)
{
	const struct prio_array	*a = rq;
	const struct stair	*p, *n;
	const char		*pn = engine_task_name(env->e, sw->prev);
	const char		*nn = engine_task_name(env->e, sw->next);
	char			 how[96], tail[128], f[32];
	int			 r0 = sw->row->rank;

	if (engine_why_idle(env, sw, buf, len))
		return;
	n = engine_ts(env, sw->next);
	staircase_how(sw, n, how, sizeof how);
	if (sw->fate != ENGINE_FATE_QUEUED) {
		if (sw->fate == ENGINE_FATE_IDLE)
			snprintf(buf, len, "%s: %s, the best here (%d queued)",
			    nn, how, a->nr);
		else
			snprintf(buf, len, "%s %s; %s: %s, the best here "
			    "(%d queued)", pn, engine_fate_text(sw, f,
			    sizeof f), nn, how, a->nr);
		return;
	}
	p = engine_ts(env, sw->prev);
	if (n->rank < p->rank)
		snprintf(tail, sizeof tail, "%s at %d is the best rank now",
		    nn, n->rank);
	else
		snprintf(tail, sizeof tail, "%s, also at %d, was there first",
		    nn, n->rank);
	if (sw->row->left == 1 && r0 == ENGINE_BOTTOM)
		snprintf(buf, len, "%s fell off the bottom: descent %u (k=%d) "
		    "starts at %d with %d ms; %s", pn, p->descent, p->iter,
		    p->rank, p->left, tail);
	else if (sw->row->left == 1)
		snprintf(buf, len, "%s used its %d ms at rank %d, down to %d; "
		    "%s", pn, staircase_allot(p, r0, p->iter,
		    env->rr_interval), r0, p->rank, tail);
	else if (p->rank != r0)
		snprintf(buf, len, "%s moved %d -> %d (nice %d); %s", pn, r0,
		    p->rank, p->nice, tail);
	else
		snprintf(buf, len, "%s preempts %s: %s, above %d", nn, pn, how,
		    p->rank);
}

/*
 * The why line, then who runs after the pick if it left now: the next
 * in its rank's queue, else the head of the next rank in use.
 */
static void
staircase_why(const struct engine_env *env, const void *rq,
    const struct engine_switch *sw, char *buf, size_t len)
{
	const struct prio_array	*a = rq;
	const struct stair	*n, *x;
	size_t			 at;
	int			 id;

	staircase_why_line(env, rq, sw, buf, len);
	if (sw->next == 0 || (at = strlen(buf)) + 1 >= len)
		return;
	n = engine_ts(env, sw->next);
	if ((id = prio_array_after(a, &env->links, sw->next, n->rank)) == 0) {
		snprintf(buf + at, len - at, "; nothing else queued");
		return;
	}
	x = engine_ts(env, id);
	snprintf(buf + at, len - at, "; next %s at %d",
	    engine_task_name(env->e, id), x->rank);
}

/* The head keeps its CPU for what is left of its allotment. */
static int
staircase_quiet(const struct engine_env *env, const void *rq, int id,
    const void *ts)
{
	(void)env;
	(void)rq;
	(void)id;
	return (((const struct stair *)ts)->left);
}

const struct engine_policy engine_policy_staircase = {
	.name = "staircase",
	.columns = "iter,left",
	.ncols = 2,
	.fields = "iter,descent",
	.nfields = 2,
	.picture = "stairs",
	.rq_size = sizeof (struct prio_array),
	/* Plain data (one prio array of ids): zeroed, it is empty; */
	.rq_init = NULL,
	.rq_free = NULL,
	/* and a snapshot copies its bytes. */
	.rq_clone = NULL,
	.rq_memory = NULL,
	.task_init = staircase_task_init,
	/* Every arrival, wake or move to the tail of its rank: inline. */
	.enqueue = NULL,
	.dequeue = NULL,
	.rank_offset = offsetof(struct stair, rank),
	.pick = NULL,		/* the head of the best rank: inline */
	.tick = staircase_tick,
	.wake = staircase_wake,
	.renice = staircase_renice,
	.steal = staircase_steal,
	.check = staircase_check,
	.check_task = staircase_check_task,
	.info = staircase_info,
	.quiet = staircase_quiet,
	.why = staircase_why
};
