/*
 * bursts.c -- a recorded task's bursts, run and sleep microseconds in
 * turn, as the engine's whole ticks (docs/IMPORT.md, "Sub-tick bursts").
 *
 * Runs and sleeps are rounded each on its own running sum: a run that
 * ends at c microseconds of CPU in all ends at round(c / 1000) ticks of
 * CPU in all.  So the ticks of CPU never stray by half a tick from the
 * microseconds however short the bursts, and the task's total is its
 * recorded total rounded.  A run whose share rounds to no tick is not a
 * run of its own: its microseconds wait in the sum for the next run, and
 * the sleeps around it become one; likewise a sleep that rounds to no
 * tick joins the runs around it.  That loses the wakes ticks cannot
 * show (two runs less than half a millisecond apart, or a run of a few
 * microseconds between sleeps), and keeps every other one.
 */
#include <stdlib.h>
#include <string.h>

#include "bursts.h"
#include "xmalloc.h"

/* Append v of kind k (0 run, 1 sleep), joining a last value of k. */
static int
bursts_put(struct bursts_ticks *bt, size_t *size, int k, uint64_t v,
    char **cause)
{
	uint64_t	sum;

	if (bt->npattern == 0 && k == 1) {
		bt->lead += v;		/* a sleep before any run: a later start */
		return (0);
	}
	if (bt->npattern > 0 && (int)((bt->npattern - 1) % 2) == k) {
		sum = bt->pattern[bt->npattern - 1] + v;
		if (sum > UINT32_MAX)
			goto long_burst;
		bt->pattern[bt->npattern - 1] = (uint32_t)sum;
		return (0);
	}
	if (v > UINT32_MAX)
		goto long_burst;
	if (bt->npattern + 2 > *size)
		bt->pattern = xgrow(bt->pattern, size, 16,
		    sizeof *bt->pattern);
	bt->pattern[bt->npattern++] = (uint32_t)v;
	if (k == 0)
		bt->runs++;
	return (0);
long_burst:
	*cause = xasprintf("a %s of over %u ms", k == 0 ? "run" : "sleep",
	    UINT32_MAX);
	return (-1);
}

/*
 * Turn n microsecond values, run, sleep, run, ... (an even count ends
 * with a sleep, which is unused) into bt; 0, or -1 with *cause.  A list
 * with some CPU time that rounds to none gets one tick: a task that ran
 * runs.
 */
int
bursts_ticks(const uint64_t *us, size_t n, struct bursts_ticks *bt,
    char **cause)
{
	uint64_t	cum[2] = { 0, 0 }, done[2] = { 0, 0 }, want;
	size_t		i, size = 0;
	int		k;

	memset(bt, 0, sizeof *bt);
	for (i = 0; i < n; i++) {
		if (us[i] > (uint64_t)BURSTS_MAX_US) {
			*cause = xasprintf("value %zu (%llu us) is over %lld us",
			    i + 1, (unsigned long long)us[i],
			    (long long)BURSTS_MAX_US);
			goto fail;
		}
		k = (int)(i % 2);
		if (k == 0 && us[i] != 0)
			bt->runs_in++;
		cum[k] += us[i];
		want = (cum[k] + 500) / 1000 - done[k];
		if (want == 0)
			continue;
		done[k] += want;
		if (bursts_put(bt, &size, k, want, cause) != 0)
			goto fail;
	}
	if (bt->runs_in == 0) {
		*cause = xasprintf("no run has any CPU time");
		goto fail;
	}
	if (bt->npattern == 0 && bursts_put(bt, &size, 0, 1, cause) != 0)
		goto fail;
	/* Its last sleep is none: the task ends with its last run. */
	if (bt->npattern % 2 == 0)
		bt->npattern--;
	for (i = 0; i < bt->npattern; i += 2)
		bt->ran += bt->pattern[i];
	/* The engine wants pairs: a last sleep it will not use. */
	if (bursts_put(bt, &size, 1, 1, cause) != 0)
		goto fail;
	return (0);
fail:
	bursts_free(bt);
	return (-1);
}

/* Free what bursts_ticks() made. */
void
bursts_free(struct bursts_ticks *bt)
{
	free(bt->pattern);
	bt->pattern = NULL;
	bt->npattern = 0;
}
