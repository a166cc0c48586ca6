/*
 * tally.c -- what each task of an engine got since a start (tally.h):
 * the counting of headless --compare (headless-compare.c), kept per
 * task as the ticks come, with the last TALLY_WINDOW latencies in a
 * ring for the percentiles (all of them for the max).
 */
#include <stdlib.h>
#include <string.h>

#include "tally.h"
#include "xmalloc.h"

struct tally_task {
	uint64_t	 ran, runs;
	uint64_t	 last;		/* last tick run + 1; 0: never */
	uint64_t	 ready;		/* runnable since (pending) */
	int		 pending;
	uint64_t	 wakes, max;
	uint32_t	*ring;		/* TALLY_WINDOW; NULL: no wake yet */
	/* The percentiles as of pct_wakes wakes (computed when asked). */
	uint64_t	 pct_wakes;
	uint32_t	 p50, p95;
};

struct tally {
	uint64_t		 since, ticks;
	struct tally_task	*t;		/* t[id - 1] */
	int			 n;
};

struct tally *
tally_create(uint64_t since)
{
	struct tally	*y = xcalloc(1, sizeof *y);

	y->since = since;
	return (y);
}

void
tally_free(struct tally *y)
{
	int	i;

	if (y == NULL)
		return;
	for (i = 0; i < y->n; i++)
		free(y->t[i].ring);
	free(y->t);
	free(y);
}

/* Task id's counts, made room for. */
static struct tally_task *
tally_task(struct tally *y, int id)
{
	y->t = xgrowto(y->t, &y->n, id, sizeof *y->t);
	return (&y->t[id - 1]);
}

/* Count tick: the tasks it made runnable wait from it; what ran. */
void
tally_tick(struct tally *y, const struct engine *e, uint64_t tick)
{
	struct engine_cpu_info	 ci;
	struct tally_task	*t;
	const int		*woken;
	size_t			 i, n;
	uint64_t		 lat;
	int			 c;

	y->ticks++;
	woken = engine_woken(e, &n);
	for (i = 0; i < n; i++) {
		t = tally_task(y, woken[i]);
		t->ready = tick;
		t->pending = 1;
	}
	for (c = 0; c < engine_params(e)->cpus; c++) {
		engine_cpu_info(e, c, &ci);
		if (ci.task <= 0)
			continue;
		t = tally_task(y, ci.task);
		t->ran++;
		if (t->ran == 1 || t->last != tick)
			t->runs++;
		t->last = tick + 1;
		if (!t->pending)
			continue;
		lat = tick - t->ready;
		if (t->ring == NULL)
			t->ring = xcalloc(TALLY_WINDOW, sizeof *t->ring);
		t->ring[t->wakes % TALLY_WINDOW] = lat > UINT32_MAX ?
		    UINT32_MAX : (uint32_t)lat;
		t->wakes++;
		if (lat > t->max)
			t->max = lat;
		t->pending = 0;
	}
}

uint64_t
tally_since(const struct tally *y)
{
	return (y->since);
}

uint64_t
tally_ticks(const struct tally *y)
{
	return (y->ticks);
}

/* Order latencies (qsort). */
static int
tally_cmp(const void *a, const void *b)
{
	uint32_t	x = *(const uint32_t *)a, z = *(const uint32_t *)b;

	return ((x > z) - (x < z));
}

/*
 * Task id's numbers; percentiles by nearest rank over the window,
 * computed again only when a wake came since they last were (a frame
 * asks for every task's, many times a second).
 */
void
tally_row(struct tally *y, int id, struct tally_row *r)
{
	struct tally_task	*t;
	uint32_t		 v[TALLY_WINDOW];
	size_t			 n, rank;

	memset(r, 0, sizeof *r);
	if (id < 1 || id > y->n)
		return;
	t = &y->t[id - 1];
	r->ran = t->ran;
	r->runs = t->runs;
	r->wakes = t->wakes;
	r->max = t->max;
	if (t->wakes == 0)
		return;
	if (t->pct_wakes != t->wakes) {
		n = t->wakes < TALLY_WINDOW ? (size_t)t->wakes : TALLY_WINDOW;
		memcpy(v, t->ring, n * sizeof *v);
		qsort(v, n, sizeof *v, tally_cmp);
		rank = (50 * n + 99) / 100;
		t->p50 = v[(rank < 1 ? 1 : rank) - 1];
		rank = (95 * n + 99) / 100;
		t->p95 = v[(rank < 1 ? 1 : rank) - 1];
		t->pct_wakes = t->wakes;
	}
	r->p50 = t->p50;
	r->p95 = t->p95;
}
