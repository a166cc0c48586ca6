/*
 * test_runs.c -- the per-CPU rings of runs (src/runs.c): runs merge
 * while task and rank stay, split when either changes; a put that does
 * not go on starts the CPU again; the ring drops its oldest runs past
 * the cap and gives out no tick older than keep; truncate drops the
 * ticks after a branch's tick; get clips to the range asked, in order.
 * Checked against a plain array of every tick.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "runs.h"

/* Runs merge and split; get and at read them back, clipped. */
static void
test_merge(void **state)
{
	struct runs	*r = runs_create(2, 64, 1000);
	struct runs_run	 out[8];
	int		 rank;

	assert_int_equal(runs_put(r, 0, 0, 1, 120, 5), 0);
	assert_int_equal(runs_put(r, 0, 5, 1, 120, 5), 0);	/* merges */
	assert_int_equal(runs_put(r, 0, 10, 1, 121, 3), 0);	/* rank */
	assert_int_equal(runs_put(r, 0, 13, 0, 7, 2), 0);	/* idle */
	assert_int_equal(runs_put(r, 0, 15, 2, 120, 1), 0);
	assert_int_equal(runs_end(r, 0), 16);
	assert_int_equal(runs_first(r, 0), 0);
	assert_int_equal(runs_get(r, 0, 0, 16, out, 8), 4);
	assert_int_equal(out[0].n, 10);
	assert_int_equal(out[1].rank, 121);
	assert_int_equal(out[2].task, 0);
	assert_int_equal(out[2].rank, -1);
	assert_int_equal(runs_get(r, 0, 7, 14, out, 8), 3);
	assert_int_equal(out[0].from, 7);
	assert_int_equal(out[0].n, 3);
	assert_int_equal(out[2].from, 13);
	assert_int_equal(out[2].n, 1);
	assert_int_equal(runs_get(r, 0, 0, 16, out, 2), 2);
	assert_int_equal(runs_at(r, 0, 12, &rank), 1);
	assert_int_equal(rank, 121);
	assert_int_equal(runs_at(r, 0, 16, NULL), -1);
	assert_int_equal(runs_at(r, 1, 0, NULL), -1);	/* nothing yet */
	/* Not where it ended: starts again there. */
	assert_int_equal(runs_put(r, 0, 100, 3, 130, 4), 1);
	assert_int_equal(runs_first(r, 0), 100);
	assert_int_equal(runs_at(r, 0, 12, NULL), -1);
	assert_int_equal(runs_at(r, 0, 103, NULL), 3);
	runs_free(r);
}

/*
 * A long random run against a plain array: past the cap the oldest
 * runs go, past keep the oldest ticks are not given out; a truncate
 * goes back; what is given out is always the array's.
 */
static void
test_ring(void **state)
{
	enum { N = 20000, CAP = 256, KEEP = 3000 };
	struct runs	*r = runs_create(1, CAP, KEEP);
	struct runs_run	 out[64];
	static int	 task[N], rank[N];
	uint64_t	 t, from, first, end = 0;
	size_t		 n, i, j;
	int		 k;

	srandom(7);
	for (t = 0; t < N; t++) {
		task[t] = t > 0 && random() % 4 ? task[t - 1] :
		    (int)(random() % 4);
		rank[t] = task[t] == 0 ? -1 : 120 + (int)(t / 50 % 20);
		runs_put(r, 0, t, task[t], rank[t], 1);
		end = t + 1;
		if (t == N / 2) {
			/* A branch back 500 ticks, then on again. */
			runs_truncate(r, t - 500);
			assert_int_equal(runs_end(r, 0), t - 500);
			for (j = t - 500; j <= t; j++)
				runs_put(r, 0, j, task[j], rank[j], 1);
		}
	}
	first = runs_first(r, 0);
	assert_true(first >= end - KEEP);
	assert_true(end - first <= KEEP);
	for (from = first; from < end;) {
		n = runs_get(r, 0, from, end, out, 64);
		assert_true(n > 0);
		for (i = 0; i < n; i++) {
			assert_int_equal(out[i].from, from);
			for (j = 0; j < out[i].n; j++) {
				assert_int_equal(out[i].task, task[from + j]);
				assert_int_equal(out[i].rank, rank[from + j]);
			}
			from += out[i].n;
		}
	}
	for (t = first; t < end; t += 37) {
		assert_int_equal(runs_at(r, 0, t, &k), task[t]);
		assert_int_equal(k, rank[t]);
	}
	assert_int_equal(runs_at(r, 0, first > 0 ? first - 1 : end, NULL), -1);
	runs_clear(r, 5);
	assert_int_equal(runs_end(r, 0), 5);
	assert_int_equal(runs_get(r, 0, 0, 10, out, 64), 0);
	runs_free(r);
}

/* Run the tests. */
/*
 * The live daemon's rings (SPEC.md section 12): 600 s of history, at
 * most RUNS_HISTORY_CAP runs a CPU.  A CPU that switches every tick for
 * 600 000 ticks keeps its last 524 288 runs (ticks), the oldest gone;
 * one that switches every 2 ticks keeps all 600 s of them.
 */
static void
test_history_bound(void **state)
{
	struct runs	*r = runs_create(2, RUNS_HISTORY_CAP, 600000);
	struct runs_run	 run[4];
	uint64_t	 t;

	assert_int_equal(runs_cap(r), RUNS_HISTORY_CAP);
	assert_int_equal(runs_keep(r), 600000);
	for (t = 0; t < 600000; t++) {
		runs_put(r, 0, t, 1 + (int)(t % 2), 120, 1);
		runs_put(r, 1, t, 1 + (int)(t / 2 % 2), 120, 1);
	}
	assert_int_equal(runs_first(r, 0), 600000 - RUNS_HISTORY_CAP);
	assert_int_equal(runs_first(r, 1), 0);
	assert_int_equal(runs_get(r, 1, 0, 4, run, 4), 2);
	assert_int_equal(run[0].task, 1);
	assert_int_equal(run[0].n, 2);
	assert_int_equal(runs_at(r, 0, 599999, NULL), 2);
	assert_int_equal(runs_at(r, 0, 600000 - RUNS_HISTORY_CAP - 1, NULL),
	    -1);
	runs_free(r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_ring),
		cmocka_unit_test(test_history_bound),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
