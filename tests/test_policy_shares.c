/*
 * test_policy_shares.c -- two CPU hogs, nice 0 and nice 5, on one CPU,
 * under each policy, against the share its rules give (SPEC.md 6); and
 * rr's rules: equal shares whatever the nice, rr_interval turns, a woken
 * task at the tail.
 *
 *   staircase  both end on rank 139 (top(L) = 139 for nice 0 and 5), where
 *              a task runs L * rr at a time: 200 : 150 ticks, 57.14 %
 *   o1         neither is interactive: full slices through the arrays,
 *              102 : 78 ms (BASE_TIMESLICE), 56.67 %
 *   cfs        weights 1024 : 335, 75.35 %
 *   eevdf      the same weights, 75.35 %
 *   rr         nice ignored: 10 : 10, 50 %
 */
#include "engine_test.h"

/*
 * Run a nice 0 and a nice 5 hog under pol; return the nice 0 hog's ticks
 * in [from, to), and check the two together had every tick.
 */
static uint64_t
share_run(const struct engine_policy *pol, uint64_t from, uint64_t to)
{
	struct engine	*e = et_engine_pol(pol, 1, 0, 0, 0);
	uint64_t	 a0, b0, a1, b1;
	int		 a, b;

	a = et_hog(e, "A", 0, 0, NULL);
	b = et_hog(e, "B", 5, 0, NULL);
	if (from > 0)
		RUN_TO(e, from - 1);
	a0 = et_info(e, a).ran;
	b0 = et_info(e, b).ran;
	RUN_TO(e, to - 1);
	a1 = et_info(e, a).ran;
	b1 = et_info(e, b).ran;
	assert_int_equal((a1 - a0) + (b1 - b0), to - from);
	engine_free(e);
	return (a1 - a0);
}

/* The staircase: 100 whole turns of 200 + 150 ticks at rank 139. */
static void
test_share_staircase(void **state)
{
	assert_int_equal(share_run(&engine_policy_staircase, 20000, 55000),
	    20000);
}

/* o1: 100 whole rounds of 102 + 78 ms. */
static void
test_share_o1(void **state)
{
	assert_int_equal(share_run(&engine_policy_o1, 0, 18000), 10200);
}

/* cfs: 1024 / 1359 of the CPU, within the lag of one slice. */
static void
test_share_cfs(void **state)
{
	uint64_t	a = share_run(&engine_policy_cfs, 0, 20000);

	assert_true(a >= 15020 && a <= 15120);	/* 15070 = 75.35 % */
}

/* eevdf: 1024 / 1359 of the CPU, within a request. */
static void
test_share_eevdf(void **state)
{
	uint64_t	a = share_run(&engine_policy_eevdf, 0, 20000);

	assert_true(a >= 15060 && a <= 15080);	/* 15070 = 75.35 % */
}

/* rr: 10-tick turns whatever the nice. */
static void
test_share_rr(void **state)
{
	assert_int_equal(share_run(&engine_policy_rr, 0, 20000), 10000);
}

/*
 * rr's rules: nice -20 and nice 19 hogs alternate rr_interval ticks each
 * (rr 7 here); a task woken goes to the tail, behind the waiting hog,
 * with a fresh slice; the rank is 120 + nice.
 */
static void
test_rr_rules(void **state)
{
	struct engine	*e = et_engine_pol(&engine_policy_rr, 1, 7, 0, 0);
	int		 a, b, s, t;

	a = et_hog(e, "A", -20, 0, NULL);
	b = et_hog(e, "B", 19, 0, NULL);
	for (t = 0; t < 28; t++) {
		RUN_TO(e, (uint64_t)t);
		assert_int_equal(et_row(e, 0).task, (t / 7) % 2 ? b : a);
		assert_int_equal(et_row(e, 0).col[0], 7 - t % 7);
		assert_int_equal(et_row(e, 0).rank, (t / 7) % 2 ? 139 : 100);
	}
	/* S arrives at 30 while A runs (28-34): it waits for A, then B. */
	s = et_pat(e, "S", -20, 30, 1, 3, NULL);
	RUN_TO(e, 34);
	assert_int_equal(et_row(e, 0).task, a);
	RUN_TO(e, 41);
	assert_int_equal(et_row(e, 0).task, b);
	RUN_TO(e, 42);
	assert_int_equal(et_row(e, 0).task, s);
	assert_int_equal(et_row(e, 0).col[0], 7);
	/* It slept 43-45 and woke at 46 at the tail, behind A and B. */
	RUN_TO(e, 49);
	assert_int_equal(et_row(e, 0).task, a);
	RUN_TO(e, 50);
	assert_int_equal(et_row(e, 0).task, b);
	RUN_TO(e, 57);
	assert_int_equal(et_row(e, 0).task, s);
	engine_free(e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_share_staircase),
		cmocka_unit_test(test_share_o1),
		cmocka_unit_test(test_share_cfs),
		cmocka_unit_test(test_share_eevdf),
		cmocka_unit_test(test_share_rr),
		cmocka_unit_test(test_rr_rules),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
