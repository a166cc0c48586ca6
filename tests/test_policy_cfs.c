/*
 * test_policy_cfs.c -- the cfs policy's rules on small cases worked by
 * hand from Linux 2.6.24's kernel/sched_fair.c and kernel/sched.c
 * (docs/POLICIES.md): weights (prio_to_weight, calc_delta_mine with
 * prio_to_wmult), new-task placement (START_DEBIT), vruntime after N
 * ticks and min_vruntime, slices (sched_slice, check_preempt_tick's
 * "more than the slice"), sleeper placement (NEW_FAIR_SLEEPERS) and
 * wake-up preemption by wakeup_granularity.
 *
 * cfs's columns (engine_task_info col[] and the trace row), in us:
 * 0 vruntime - min_vruntime, 1 slice, 2 slice left.
 */
#include "engine_test.h"

/* Vruntime of 1 ms at nice 5: SRR(1e6 * 1024 * 12820798, 32). */
#define D5	3056716LL

/* A cfs engine. */
static struct engine *
cfs_engine(int cpus)
{
	return (et_engine_pol(&engine_policy_cfs, cpus, 0, 0, 0));
}

/* The last tick's row on CPU 0: task id, vruntime, slice, left (us). */
static void
cfs_row(struct engine *e, int id, long long v, long long slice,
    long long left, int line)
{
	struct engine_cpu_info	ci = et_row(e, 0);

	if (ci.task != id || ci.col[0] != v || ci.col[1] != slice ||
	    ci.col[2] != left)
		fail_msg("line %d tick %llu: want task %d v %lld slice %lld "
		    "left %lld; got task %d v %lld slice %lld left %lld", line,
		    (unsigned long long)engine_now(e) - 1, id, v, slice, left,
		    ci.task, (long long)ci.col[0], (long long)ci.col[1],
		    (long long)ci.col[2]);
}
#define CFS_ROW(e, id, v, s, l)	cfs_row((e), (id), (v), (s), (l), __LINE__)

/*
 * Weights, placement and vruntime: A (nice 0, 1024) and B (nice 5,
 * 335) arrive at 0 on one CPU.  A is placed at min_vruntime + 20 ms *
 * 1024 / 1024 = 20 ms, B at 20 ms * 1024 / 1359 = 15069904 ns, so B runs
 * first.  B's slice is 20 ms * 335 / 1359 = 4930095 ns: it gives way
 * after 5 ticks (more than its slice), each adding D5 ns; A's slice is
 * 15069904 ns: 16 ticks, each adding 1 ms.
 */
static void
test_weights_vruntime(void **state)
{
	struct engine	*e = cfs_engine(1);
	int		 a, b, t;

	a = et_hog(e, "A", 0, 0, NULL);
	b = et_hog(e, "B", 5, 0, NULL);
	RUN_TO(e, 0);
	CFS_ROW(e, b, 15069, 4930, 4930);
	/*
	 * After tick 0 min_vruntime = min(B, A) = B; after tick 1 it is
	 * A's 20 ms: at tick 2, B - min = 15069904 + 2 D5 - 20000000.
	 */
	RUN_TO(e, 2);
	CFS_ROW(e, b, (15069904 + 2 * D5 - 20000000) / 1000, 4930, 2930);
	RUN_TO(e, 4);
	CFS_ROW(e, b, (15069904 + 4 * D5 - 20000000) / 1000, 4930, 930);
	/* vruntime after 5 ticks: 15069904 + 5 D5 = 30353484 ns. */
	assert_int_equal(et_info(e, b).field[0],
	    (15069904 + 5 * D5 - 20000000) / 1000);
	for (t = 5; t <= 20; t++) {
		RUN_TO(e, (uint64_t)t);
		assert_int_equal(et_row(e, 0).task, a);
		/* At 16 A (31 ms) has passed B (30353484): min is B's. */
		if (t == 16)
			CFS_ROW(e, a, (31000000 - 15069904 - 5 * D5) / 1000,
			    15069, 15069 - 11000);
	}
	RUN_TO(e, 21);
	assert_int_equal(et_row(e, 0).task, b);
	engine_free(e);
}

/*
 * Sleeper placement: S (nice 0, [1 ms, 1000 ms]) and a hog A.  S is
 * placed at 10 ms, A at 20 ms; S runs tick 0 (11 ms) and sleeps to 1001.
 * A alone runs to 1020 ms = min_vruntime.  S comes back at
 * max(11 ms, 1020 - 20 ms) = 1000 ms: 20 ms below A, more than the
 * 10 ms wakeup granularity, so it preempts at once.
 */
static void
test_sleeper_placement(void **state)
{
	struct engine	*e = cfs_engine(1);
	int		 a, s;

	a = et_hog(e, "A", 0, 0, NULL);
	s = et_pat(e, "S", 0, 0, 1, 1000, NULL);
	RUN_TO(e, 0);
	CFS_ROW(e, s, 10000, 10000, 10000);
	RUN_TO(e, 1000);
	CFS_ROW(e, a, 0, 20000, 20000 - 999000);
	RUN_TO(e, 1001);
	CFS_ROW(e, s, -20000, 10000, 10000);
	engine_free(e);
}

/*
 * Wake-up preemption needs more than wakeup_granularity: S ([5, 3])
 * placed at 10 ms runs ticks 0-4 (15 ms) and sleeps to 8; A (20 ms)
 * runs 5-7 (23 ms).  S wakes 8 ms below A: no preemption.  A runs on to
 * the end of its 10 ms slice (11 ticks, 5-15); S runs at 16.
 */
static void
test_wakeup_granularity(void **state)
{
	struct engine	*e = cfs_engine(1);
	int		 a, s, t;

	a = et_hog(e, "A", 0, 0, NULL);
	s = et_pat(e, "S", 0, 0, 5, 3, NULL);
	for (t = 0; t <= 4; t++) {
		RUN_TO(e, (uint64_t)t);
		assert_int_equal(et_row(e, 0).task, s);
	}
	for (t = 5; t <= 15; t++) {
		RUN_TO(e, (uint64_t)t);
		assert_int_equal(et_row(e, 0).task, a);
		if (t >= 8)
			assert_int_equal(et_info(e, s).state,
			    ENGINE_RUNNABLE);
	}
	/* min_vruntime stayed at A's 23 ms: S shows 15 - 23 ms. */
	RUN_TO(e, 16);
	CFS_ROW(e, s, -8000, 10000, 10000);
	engine_free(e);
}

/*
 * Weights on a longer run: a nice 0 and a nice 5 hog share one CPU in
 * proportion 1024 : 335 (75.35 % : 24.65 %).
 */
static void
test_weights_share(void **state)
{
	struct engine	*e = cfs_engine(1);
	int		 a, b;
	double		 share;

	a = et_hog(e, "A", 0, 0, NULL);
	b = et_hog(e, "B", 5, 0, NULL);
	RUN_TO(e, 19999);
	share = (double)et_info(e, a).ran / 20000.0;
	assert_true(share > 0.7485 && share < 0.7585);
	assert_int_equal(et_info(e, a).ran + et_info(e, b).ran, 20000);
	engine_free(e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_weights_vruntime),
		cmocka_unit_test(test_sleeper_placement),
		cmocka_unit_test(test_wakeup_granularity),
		cmocka_unit_test(test_weights_share),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
