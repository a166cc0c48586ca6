/*
 * test_policy_o1.c -- the o1 policy's rules on small cases worked by hand
 * from /work/shared/O1-SCHEDULER.md (its sections are "O1 §n"): the
 * per-nice timeslices of the BASE_TIMESLICE table, the bonus from
 * sleep_avg (worked example B, a 2 ms / 40 ms sleeper beside a hog), the
 * long-sleep rule, TASK_INTERACTIVE reinsertion into the active array,
 * a non-interactive expiry into the expired array, the granularity
 * requeue, EXPIRED_STARVING, and the first-second CPU splits of O1 §7.
 *
 * o1's columns (the trace row's col[]; a snapshot's left and field[]): 0 array
 * (1: expired), 1 slice left, 2 bonus, 3 sleep_avg in ms.
 */
#include "engine_test.h"

/* A one-CPU o1 engine. */
static struct engine *
o1_engine(int cpus)
{
	return (et_engine_pol(&engine_policy_o1, cpus, 0, 0, 0));
}

/* The last tick's row on CPU 0 must be task id at prio, slice left. */
static void
o1_row(struct engine *e, int id, int prio, int left, int bonus, int avg_ms,
    int line)
{
	struct engine_cpu_info	ci = et_row(e, 0);

	if (ci.task != id || ci.rank != prio || ci.col[1] != left ||
	    ci.col[2] != bonus || ci.col[3] != avg_ms)
		fail_msg("line %d tick %llu: want task %d prio %d left %d "
		    "bonus %d sleep_avg %d; got task %d prio %d left %lld "
		    "bonus %lld sleep_avg %lld", line,
		    (unsigned long long)engine_now(e) - 1, id, prio, left,
		    bonus, avg_ms, ci.task, ci.rank, (long long)ci.col[1],
		    (long long)ci.col[2], (long long)ci.col[3]);
}
#define O1_ROW(e, id, p, l, b, a)	o1_row((e), (id), (p), (l), (b), (a), \
	__LINE__)

/*
 * Per-nice timeslices (O1 §1's table): 10 + 190 * (139 - static) / 39,
 * integer division; a lone hog runs a whole slice at prio static + 5.
 */
static void
test_timeslices(void **state)
{
	static const int	nice[] = { -20, -19, -12, -4, 0, 4, 5, 10, 12,
	    19 };
	static const int	ms[] = { 200, 195, 161, 122, 102, 83, 78, 53,
	    44, 10 };
	struct engine		*e;
	size_t			 i;
	int			 id, prio;

	for (i = 0; i < sizeof nice / sizeof *nice; i++) {
		e = o1_engine(1);
		id = et_hog(e, "hog", nice[i], 0, NULL);
		prio = 120 + nice[i] + 5;
		if (prio > 139)
			prio = 139;
		RUN_TO(e, 0);
		O1_ROW(e, id, prio, ms[i], 0, 0);
		/* Its last tick, then a fresh slice (alone: arrays swap). */
		RUN_TO(e, (uint64_t)ms[i] - 1);
		O1_ROW(e, id, prio, 1, 0, 0);
		RUN_TO(e, (uint64_t)ms[i]);
		O1_ROW(e, id, prio, ms[i], 0, 0);
		engine_free(e);
	}
}

/*
 * The bonus from sleep_avg (O1 §3.1, worked example B): S runs 2 ms and
 * sleeps 40, H is a hog, S queued first.  Each wake adds the sleep times
 * (10 - bonus), each schedule() takes the run back; prio = 125 - bonus.
 */
static void
test_bonus(void **state)
{
	struct engine	*e = o1_engine(1);
	int		 s, h;

	s = et_pat(e, "S", 0, 0, 2, 40, NULL);
	h = et_hog(e, "H", 0, 0, NULL);
	RUN_TO(e, 0);
	O1_ROW(e, s, 125, 102, 0, 0);
	RUN_TO(e, 2);
	O1_ROW(e, h, 125, 102, 0, 0);
	/* Woken at 42: 40 ms x 10 = 400 ms, bonus 3, preempts H. */
	RUN_TO(e, 42);
	O1_ROW(e, s, 122, 100, 3, 400);
	/* 398 + 40 x 7 = 678 ms: bonus 6. */
	RUN_TO(e, 84);
	O1_ROW(e, s, 119, 98, 6, 678);
	/* H's own 102 ticks ran out at 107: a fresh slice at 108. */
	RUN_TO(e, 108);
	O1_ROW(e, h, 125, 102, 0, 0);
	/* 676 + 40 x 4 = 836: bonus 8. */
	RUN_TO(e, 126);
	O1_ROW(e, s, 117, 96, 8, 836);
	/* 990 + 40 reaches the cap: 1020 ms, bonus 10, prio 115. */
	RUN_TO(e, 252);
	O1_ROW(e, s, 115, 90, 10, 1020);
	/* End of the first second (O1 §7 B): H has 68 ms left. */
	RUN_TO(e, 999);
	assert_int_equal(et_info(e, h).rank, 125);
	assert_int_equal(et_info(e, h).left, 68);
	assert_int_equal(et_info(e, s).rank, 115);
	assert_int_equal(et_info(e, s).field[2], 1018);
	assert_int_equal(et_info(e, s).left, 54);
	assert_int_equal(et_info(e, s).ran, 48);
	assert_int_equal(et_info(e, h).ran, 952);
	engine_free(e);
}

/*
 * A sleep longer than INTERACTIVE_SLEEP (815 ms at nice 0) sets sleep_avg
 * to 1020 - 102 = 918 ms, bonus 9, whatever it was (O1 §3.1).
 */
static void
test_long_sleep(void **state)
{
	struct engine	*e = o1_engine(1);
	int		 s;

	s = et_pat(e, "S", 0, 0, 1, 900, NULL);
	RUN_TO(e, 0);
	O1_ROW(e, s, 125, 102, 0, 0);
	RUN_TO(e, 901);
	O1_ROW(e, s, 116, 101, 9, 918);
	engine_free(e);
}

/*
 * Expiry (O1 §4): the interactive sleeper S of example B, its 102 ms
 * slice used up after 51 bursts, goes back into the ACTIVE array with a
 * new slice (at 2101 and 4243); the hog H, never interactive, goes to
 * the EXPIRED array.
 */
static void
test_expiry_arrays(void **state)
{
	struct engine		*e = o1_engine(1);
	struct engine_cpu_info	 ci;
	struct engine_task_info	 ti;
	int			 s, h, seen_h = 0;
	uint64_t		 t, s_expiries[2];
	int			 ns = 0;

	s = et_pat(e, "S", 0, 0, 2, 40, NULL);
	h = et_hog(e, "H", 0, 0, NULL);
	for (t = 0; t < 4500; t++) {
		engine_tick(e);
		ci = et_row(e, 0);
		if (ci.col[1] != 1)
			continue;
		ti = et_info(e, ci.task);
		if (ci.task == s) {
			if (ns < 2)
				s_expiries[ns] = t;
			ns++;
			if (ti.state == ENGINE_RUNNABLE)
				assert_int_equal(ti.field[0], 0);
			assert_int_equal(ti.left, 102);
			assert_true(ti.rank <= 118);	/* interactive */
		} else if (ci.task == h && ti.state == ENGINE_RUNNABLE) {
			/*
			 * H is expired (S sleeps most of the time, so the
			 * arrays swap only at the next pick).
			 */
			assert_int_equal(ti.field[0], 1);
			seen_h++;
		}
	}
	assert_int_equal(ns, 2);
	assert_int_equal(s_expiries[0], 2101);
	assert_int_equal(s_expiries[1], 4243);
	assert_true(seen_h > 0);	/* the expired-array check ran */
	engine_free(e);
}

/*
 * The granularity requeue (O1 §4): an interactive task running at bonus
 * 9 (granularity 10 ms) is put at the tail of its list every 10 ms of
 * its slice, so an equal-prio task there runs.  Two tasks that both
 * slept 900 ms (bonus 9, prio 116) take turns 10 ms at a time instead of
 * a whole slice each.
 */
static void
test_granularity(void **state)
{
	struct engine	*e = o1_engine(1);
	int		 a, b;

	a = et_hog(e, "A", 0, 0, NULL);
	b = et_hog(e, "B", 0, 0, NULL);
	RUN_TO(e, 0);
	engine_task_sleep(e, a, 900, NULL);
	engine_task_sleep(e, b, 900, NULL);
	/*
	 * A ran tick 0 (101 ms left); both wake at 901 after 900 ms, more
	 * than INTERACTIVE_SLEEP: 918 ms, bonus 9, prio 116; A first.
	 */
	RUN_TO(e, 901);
	O1_ROW(e, a, 116, 101, 9, 918);
	/* Bonus 9: granularity 10; (102 - 92) % 10 == 0 after tick 909. */
	RUN_TO(e, 909);
	O1_ROW(e, a, 116, 93, 9, 918);
	/* B waited 9 ms on the queue: on-runqueue credit, 9 x 1 (O1 §3.2). */
	RUN_TO(e, 910);
	O1_ROW(e, b, 116, 102, 9, 927);
	/* B's 10 ms (102 -> 92), then A again, its slice not lost. */
	RUN_TO(e, 919);
	assert_int_equal(et_row(e, 0).task, b);
	RUN_TO(e, 920);
	assert_int_equal(et_row(e, 0).task, a);
	assert_int_equal(et_row(e, 0).col[1], 92);
	engine_free(e);
}

/*
 * EXPIRED_STARVING, "a better static prio has expired" (O1 §4): M, a
 * nice -5 hog alone, expires every 126 ms into the expired array and the
 * arrays swap.  I, a nice 0 hog, slept from tick 1 to 1008: 1007 ms,
 * a long sleep, so 918 ms, bonus 9, prio 116.  M's 8th expiry (jiffy
 * 1008) leaves it in the expired array with best_expired_prio 115 while
 * I wakes into the active one, so no swap.  When I's slice runs out it
 * is still interactive, yet goes to the EXPIRED array: 120 > 115.
 * Without M it goes back into the active array.
 */
static void
test_expired_starving(void **state)
{
	struct engine	*e;
	int		 i, m, with;

	for (with = 1; with >= 0; with--) {
		e = o1_engine(1);
		i = et_hog(e, "I", 0, 0, NULL);
		m = with ? et_hog(e, "M", -5, 0, NULL) : 0;
		RUN_TO(e, 0);
		assert_int_equal(et_row(e, 0).task, with ? m : i);
		engine_task_sleep(e, i, 1007, NULL);
		RUN_TO(e, 1007);
		assert_int_equal(et_row(e, 0).task, with ? m : 0);
		RUN_TO(e, 1008);
		O1_ROW(e, i, 116, with ? 102 : 101, 9, 918);
		while (et_row(e, 0).task != i || et_row(e, 0).col[1] != 1)
			engine_tick(e);
		assert_true(et_info(e, i).rank <= 118);	/* interactive */
		assert_int_equal(et_info(e, i).field[0], with);
		if (with)
			assert_int_equal(et_info(e, m).field[0], 1);
		engine_free(e);
	}
}

/*
 * The first-second splits of O1 §7 (B, B', and the hog pairs): worked
 * through the same rules by the note's model.
 */
static void
test_first_second(void **state)
{
	static const struct {
		int	nice_a, nice_b;
		int	ran_a, ran_b;
	} pairs[] = {
		{ 0, 0, 510, 490 },
		{ -5, 0, 592, 408 },
		{ 0, 10, 682, 318 },
	};
	struct engine	*e;
	size_t		 k;
	int		 a, b;

	for (k = 0; k < sizeof pairs / sizeof *pairs; k++) {
		e = o1_engine(1);
		a = et_hog(e, "A", pairs[k].nice_a, 0, NULL);
		b = et_hog(e, "B", pairs[k].nice_b, 0, NULL);
		RUN_TO(e, 999);
		assert_int_equal(et_info(e, a).ran, pairs[k].ran_a);
		assert_int_equal(et_info(e, b).ran, pairs[k].ran_b);
		engine_free(e);
	}
	/* B': the hog queued first; S first runs at 102. */
	e = o1_engine(1);
	b = et_hog(e, "H", 0, 0, NULL);
	a = et_pat(e, "S", 0, 0, 2, 40, NULL);
	RUN_TO(e, 101);
	assert_int_equal(et_info(e, a).ran, 0);
	RUN_TO(e, 102);
	O1_ROW(e, a, 125, 102, 0, 0);
	RUN_TO(e, 999);
	assert_int_equal(et_info(e, b).ran, 956);
	assert_int_equal(et_info(e, a).ran, 44);
	engine_free(e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timeslices),
		cmocka_unit_test(test_bonus),
		cmocka_unit_test(test_long_sleep),
		cmocka_unit_test(test_expiry_arrays),
		cmocka_unit_test(test_granularity),
		cmocka_unit_test(test_expired_starving),
		cmocka_unit_test(test_first_second),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
