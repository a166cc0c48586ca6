/*
 * runs.c -- per-CPU rings of run-length encoded runs (see runs.h).
 *
 * Each CPU holds its runs oldest first in a ring that grows by doubling
 * up to the cap; a run's length is the next run's start less its own
 * (the newest one's: the CPU's end).  Past the cap the oldest run goes;
 * ticks older than keep before the end are not given out.
 */
#include <stdlib.h>
#include <string.h>

#include "runs.h"
#include "xmalloc.h"

struct runs_slot {
	uint64_t	from;
	int		task;
	int		rank;
};

struct runs_cpu {
	struct runs_slot	*ring;
	size_t			 size;	/* a power of two, or 0 */
	size_t			 head;	/* the oldest */
	size_t			 n;
	uint64_t		 start;	/* when empty: the first tick */
	uint64_t		 end;	/* the tick after the newest */
};

struct runs {
	struct runs_cpu		*cpus;
	int			 ncpus;
	size_t			 cap;
	uint64_t		 keep;
};

/* Empty rings for ncpus CPUs. */
struct runs *
runs_create(int ncpus, size_t cap, uint64_t keep)
{
	struct runs	*r;

	r = xcalloc(1, sizeof *r);
	r->cpus = xcalloc(ncpus > 0 ? ncpus : 1, sizeof *r->cpus);
	r->ncpus = ncpus;
	r->cap = cap < 2 ? 2 : cap;
	r->keep = keep;
	return (r);
}

/* Free the rings. */
void
runs_free(struct runs *r)
{
	int	c;

	if (r == NULL)
		return;
	for (c = 0; c < r->ncpus; c++)
		free(r->cpus[c].ring);
	free(r->cpus);
	free(r);
}

/* How many CPUs. */
int
runs_ncpus(const struct runs *r)
{
	return (r->ncpus);
}

/* Runs a CPU at most. */
size_t
runs_cap(const struct runs *r)
{
	return (r->cap);
}

/* Ticks kept before a CPU's end. */
uint64_t
runs_keep(const struct runs *r)
{
	return (r->keep);
}

/* The i-th run of a CPU, oldest first. */
static struct runs_slot *
runs_slot(const struct runs_cpu *rc, size_t i)
{
	return (&rc->ring[(rc->head + i) & (rc->size - 1)]);
}

/* Grow a CPU's ring (doubling, in order), or drop its oldest run. */
static void
runs_room(struct runs *r, struct runs_cpu *rc)
{
	struct runs_slot	*ring;
	size_t			 size, i;

	if (rc->n < rc->size)
		return;
	if (rc->size >= r->cap) {
		rc->start = runs_slot(rc, 1)->from;
		rc->head = (rc->head + 1) & (rc->size - 1);
		rc->n--;
		return;
	}
	size = rc->size ? rc->size * 2 : 16;
	ring = xcalloc(size, sizeof *ring);
	for (i = 0; i < rc->n; i++)
		ring[i] = *runs_slot(rc, i);
	free(rc->ring);
	rc->ring = ring;
	rc->size = size;
	rc->head = 0;
}

/* Add n ticks of task at rank on cpu from tick from. */
int
runs_put(struct runs *r, int cpu, uint64_t from, int task, int rank,
    uint64_t n)
{
	struct runs_cpu		*rc;
	struct runs_slot	*s;
	int			 again = 0;

	if (cpu < 0 || cpu >= r->ncpus)
		return (0);
	rc = &r->cpus[cpu];
	if (from != rc->end) {
		rc->n = 0;
		rc->head = 0;
		rc->start = rc->end = from;
		again = 1;
	}
	if (n == 0)
		return (again);
	if (task == 0)
		rank = -1;
	if (rc->n > 0) {
		s = runs_slot(rc, rc->n - 1);
		if (s->task == task && s->rank == rank) {
			rc->end += n;
			return (again);
		}
	}
	runs_room(r, rc);
	s = runs_slot(rc, rc->n++);
	s->from = from;
	s->task = task;
	s->rank = rank;
	rc->end = from + n;
	return (again);
}

/* The first tick given out for a CPU. */
uint64_t
runs_first(const struct runs *r, int cpu)
{
	const struct runs_cpu	*rc = &r->cpus[cpu];
	uint64_t		 first;

	first = rc->n > 0 ? runs_slot(rc, 0)->from : rc->end;
	if (first < rc->start)
		first = rc->start;
	if (rc->end > r->keep && first < rc->end - r->keep)
		first = rc->end - r->keep;
	return (first);
}

/* The tick after a CPU's newest. */
uint64_t
runs_end(const struct runs *r, int cpu)
{
	return (r->cpus[cpu].end);
}

/* Drop every tick from `tick` on. */
void
runs_truncate(struct runs *r, uint64_t tick)
{
	struct runs_cpu	*rc;
	int		 c;

	for (c = 0; c < r->ncpus; c++) {
		rc = &r->cpus[c];
		if (rc->end <= tick)
			continue;
		while (rc->n > 0 && runs_slot(rc, rc->n - 1)->from >= tick)
			rc->n--;
		rc->end = tick;
		if (rc->n == 0)
			rc->start = tick;
	}
}

/* Forget every run; each CPU starts at tick. */
void
runs_clear(struct runs *r, uint64_t tick)
{
	int	c;

	for (c = 0; c < r->ncpus; c++) {
		r->cpus[c].n = 0;
		r->cpus[c].head = 0;
		r->cpus[c].start = r->cpus[c].end = tick;
	}
}

/* The index of the run holding tick (one kept), by bisection. */
static size_t
runs_find(const struct runs_cpu *rc, uint64_t tick)
{
	size_t	lo = 0, hi = rc->n, mid;

	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (runs_slot(rc, mid)->from <= tick)
			lo = mid;
		else
			hi = mid;
	}
	return (lo);
}

/* Up to max runs of cpu within [from, to), in order. */
size_t
runs_get(const struct runs *r, int cpu, uint64_t from, uint64_t to,
    struct runs_run *out, size_t max)
{
	const struct runs_cpu	*rc;
	const struct runs_slot	*s;
	uint64_t		 first, end;
	size_t			 i, k = 0;

	if (cpu < 0 || cpu >= r->ncpus)
		return (0);
	rc = &r->cpus[cpu];
	first = runs_first(r, cpu);
	if (from < first)
		from = first;
	if (to > rc->end)
		to = rc->end;
	if (rc->n == 0 || from >= to)
		return (0);
	for (i = runs_find(rc, from); i < rc->n && k < max; i++) {
		s = runs_slot(rc, i);
		if (s->from >= to)
			break;
		end = i + 1 < rc->n ? runs_slot(rc, i + 1)->from : rc->end;
		if (end > to)
			end = to;
		out[k].from = s->from > from ? s->from : from;
		out[k].n = end - out[k].from;
		out[k].task = s->task;
		out[k].rank = s->rank;
		k++;
	}
	return (k);
}

/* The task on cpu at tick, its rank in *rank; -1 if not kept. */
int
runs_at(const struct runs *r, int cpu, uint64_t tick, int *rank)
{
	const struct runs_cpu	*rc;
	const struct runs_slot	*s;

	if (cpu < 0 || cpu >= r->ncpus)
		return (-1);
	rc = &r->cpus[cpu];
	if (rc->n == 0 || tick < runs_first(r, cpu) || tick >= rc->end)
		return (-1);
	s = runs_slot(rc, runs_find(rc, tick));
	if (rank != NULL)
		*rank = s->rank;
	return (s->task);
}
