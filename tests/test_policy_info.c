/*
 * test_policy_info.c -- what each policy tells a client about a task
 * (issue 8: the client knows no policy's rules): engine_task_info's
 * slice, top and bottom, filled by the policy's info op, on small cases
 * whose values the rules give (docs/POLICIES.md), and over a few
 * thousand ticks of a mix under every policy: the rank stays within
 * top..bottom and left within 0..slice.
 */
#include "engine_test.h"
#include "staircase.h"

/* The staircase: the allotment at the rank, static rank to 139. */
static void
test_staircase(void **unused)
{
	struct engine		*e = et_engine(1, 10, 0, 0);
	struct engine_task_info	 ti;
	int			 i;

	et_hog(e, "hog", 0, 0, NULL);
	et_hog(e, "low", 5, 0, NULL);
	RUN_TO(e, 0);
	ti = et_info(e, 1);
	assert_int_equal(ti.slice, 10);
	assert_int_equal(ti.top, 120);
	assert_int_equal(ti.bottom, 139);
	ti = et_info(e, 2);
	assert_int_equal(ti.top, 125);
	assert_int_equal(ti.bottom, 139);
	/* On every tick: k * rr on the top stair of descent k, else rr. */
	for (i = 0; i < 3000; i++) {
		engine_tick(e);
		ti = et_info(e, 1);
		assert_int_equal(ti.slice, et_allot(120, ti.rank,
		    ti.field[STAIRCASE_ITER], 10));
	}
	engine_free(e);
}

/* o1: the timeslice of the nice; static prio -5..+5 in 100..139. */
static void
test_o1(void **unused)
{
	struct engine		*e = et_engine_pol(&engine_policy_o1, 1, 0,
				    0, 0);
	struct engine_task_info	 ti;

	et_hog(e, "hog", 0, 0, NULL);
	et_hog(e, "top", -20, 0, NULL);
	et_hog(e, "low", 19, 0, NULL);
	et_hog(e, "five", 5, 0, NULL);
	RUN_TO(e, 0);
	ti = et_info(e, 1);
	assert_int_equal(ti.slice, 102);
	assert_int_equal(ti.top, 115);
	assert_int_equal(ti.bottom, 125);
	ti = et_info(e, 2);
	assert_int_equal(ti.slice, 200);
	assert_int_equal(ti.top, 100);
	assert_int_equal(ti.bottom, 105);
	ti = et_info(e, 3);
	assert_int_equal(ti.slice, 10);
	assert_int_equal(ti.top, 134);
	assert_int_equal(ti.bottom, 139);
	ti = et_info(e, 4);
	assert_int_equal(ti.slice, 78);
	engine_free(e);
}

/* cfs: the ideal slice (two nice-0 hogs on a CPU: 20 ms / 2), 120+nice. */
static void
test_cfs(void **unused)
{
	struct engine		*e = et_engine_pol(&engine_policy_cfs, 1, 0,
				    0, 0);
	struct engine_task_info	 ti;

	et_hog(e, "a", 0, 0, NULL);
	et_hog(e, "b", 0, 0, NULL);
	RUN_TO(e, 5);
	ti = et_info(e, 1);
	assert_int_equal(ti.slice, 10);
	assert_int_equal(ti.top, 120);
	assert_int_equal(ti.bottom, 120);
	engine_free(e);
	e = et_engine_pol(&engine_policy_cfs, 1, 0, 0, 0);
	et_hog(e, "c", 5, 0, NULL);
	RUN_TO(e, 5);
	ti = et_info(e, 1);
	assert_int_equal(ti.top, 125);
	assert_int_equal(ti.bottom, 125);
	engine_free(e);
}

/*
 * eevdf: the request in ticks (3 ms; at nice 5, 4 ticks, as 3 ticks'
 * virtual time falls 1 ns short of the virtual request), 120 + nice.
 */
static void
test_eevdf(void **unused)
{
	struct engine		*e = et_engine_pol(&engine_policy_eevdf, 1, 0,
				    0, 0);
	struct engine_task_info	 ti;

	et_hog(e, "a", 0, 0, NULL);
	et_hog(e, "b", 5, 0, NULL);
	RUN_TO(e, 0);
	ti = et_info(e, 1);
	assert_int_equal(ti.slice, 3);
	assert_int_equal(ti.left, 2);
	assert_int_equal(ti.top, 120);
	assert_int_equal(ti.bottom, 120);
	ti = et_info(e, 2);
	assert_int_equal(ti.slice, 4);
	assert_int_equal(ti.rank, 125);
	assert_int_equal(ti.top, 125);
	engine_free(e);
}

/* rr: rr_interval, whatever the nice; 120 + nice. */
static void
test_rr(void **unused)
{
	struct engine		*e = et_engine_pol(&engine_policy_rr, 1, 7,
				    0, 0);
	struct engine_task_info	 ti;

	et_hog(e, "a", -3, 0, NULL);
	RUN_TO(e, 3);
	ti = et_info(e, 1);
	assert_int_equal(ti.slice, 7);
	assert_int_equal(ti.top, 117);
	assert_int_equal(ti.bottom, 117);
	engine_free(e);
}

/* Every policy, a mix on 2 CPUs: top <= rank <= bottom, left <= slice. */
static void
test_bounds(void **unused)
{
	const struct engine_policy *pols[] = { &engine_policy_staircase,
	    &engine_policy_o1, &engine_policy_cfs, &engine_policy_eevdf,
	    &engine_policy_rr };
	struct engine		*e;
	struct engine_task_info	 ti;
	size_t			 p;
	int			 i, id;

	for (p = 0; p < sizeof pols / sizeof pols[0]; p++) {
		e = et_engine_pol(pols[p], 2, 0, 0, 0);
		et_hog(e, "hog", 0, 0, NULL);
		et_hog(e, "nice", 10, 0, NULL);
		et_hog(e, "mean", -8, 0, NULL);
		et_pat(e, "ed", 0, 0, 2, 30, NULL);
		et_pat(e, "play", 3, 5, 6, 9, NULL);
		for (i = 0; i < 4000; i++) {
			engine_tick(e);
			for (id = 1; id <= engine_ntasks(e); id++) {
				ti = et_info(e, id);
				if (ti.top > ti.rank || ti.rank > ti.bottom ||
				    ti.top < 100 || ti.bottom > 139 ||
				    ti.left < 0 || ti.slice < 0 ||
				    (ti.state == ENGINE_RUNNABLE &&
				    ti.left > ti.slice))
					fail_msg("%s tick %d %s: rank %d top %d "
					    "bottom %d left %d slice %d",
					    pols[p]->name, i, ti.name, ti.rank,
					    ti.top, ti.bottom, ti.left,
					    ti.slice);
			}
		}
		engine_free(e);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_staircase),
		cmocka_unit_test(test_o1),
		cmocka_unit_test(test_cfs),
		cmocka_unit_test(test_eevdf),
		cmocka_unit_test(test_rr),
		cmocka_unit_test(test_bounds),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
