/*
 * staircase.c -- the staircase policy (Con Kolivas, 2004), as SPEC.md
 * section 1 states it.
 *
 * A task walks down its stairs one rank every rr ticks.  Falling off the
 * bottom starts a new descent one stair lower than the last, with k*rr
 * ticks on its top stair, so every descent costs the same L = 20 - nice
 * intervals.  A sleep climbs one stair back up.  Only the numbers in
 * struct engine_stair change here; the engine core does all queueing.
 */
#include "engine.h"

/* The number of stairs of a nice level: 140 - (120 + nice). */
int
engine_stairs(int nice)
{
	return (ENGINE_NRANKS - (120 + nice));
}

/* The top stair of descent k. */
static int
staircase_top(const struct engine_stair *st, int k)
{
	return (st->prio + k - 1);
}

/* Ticks allotted at rank r in descent k: k*rr on the top stair, else rr. */
static int
staircase_allot(const struct engine_stair *st, int r, int k, int rr)
{
	return (r == staircase_top(st, k) ? k * rr : rr);
}

/* A new task starts on its static stair, first descent, one interval. */
static void
staircase_init(struct engine_stair *st, int nice, int rr)
{
	st->nice = nice;
	st->prio = 120 + nice;
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
static int
staircase_charge(struct engine_stair *st, int rr)
{
	int	L = engine_stairs(st->nice);

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
staircase_wake(struct engine_stair *st, int rr)
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
staircase_renice(struct engine_stair *st, int nice, int rr)
{
	int	prio = 120 + nice, L = engine_stairs(nice), r, k, a;

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

const struct engine_policy engine_policy_staircase = {
	"staircase",
	staircase_init,
	staircase_charge,
	staircase_wake,
	staircase_renice
};
