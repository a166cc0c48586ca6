/*
 * quantile.c -- percentiles of samples (latencies, delays): sorted once,
 * then read at a rank.  --compare's and stairs-import's latency columns
 * read theirs this way; the real layer sorts its wake delays with it.
 */
#include <stdint.h>
#include <stdlib.h>

#include "quantile.h"

/* Compare two samples (qsort's). */
static int
quantile_cmp(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y ? -1 : x > y);
}

/* Sort v[0..n-1] ascending (none: nothing to do). */
void
quantile_sort(uint64_t *v, size_t n)
{
	if (n > 0)
		qsort(v, n, sizeof *v, quantile_cmp);
}

/* The nearest-rank pct-th percentile of sorted v[0..n-1], n > 0. */
uint64_t
quantile_rank(const uint64_t *v, size_t n, int pct)
{
	size_t	rank;

	rank = ((size_t)pct * n + 99) / 100;	/* ceil(pct / 100 * n) */
	if (rank < 1)
		rank = 1;
	return (v[rank - 1]);
}
