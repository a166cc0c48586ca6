/*
 * test_policy_eevdf.c -- the eevdf policy's rules on cases worked by hand
 * from Linux 6.6's kernel/sched/fair.c (docs/POLICIES.md): weights and
 * calc_delta_fair, placement at V, requests and their renewal
 * (update_deadline), the pick (eligible, earliest deadline), the share
 * of nice 0 against nice 5, LWN's worked example step by step,
 * RUN_TO_PARITY, wake preemption with the lag kept over a sleep, nice
 * changes; over random mixes on several CPUs, the lags of each CPU's
 * queue summing to zero at every tick; and a clone's future.
 *
 * eevdf's columns (engine_task_info col[] and the trace row), in us:
 * 0 vruntime - V, 1 lag ((V - vruntime) * weight / 1024), 2 deadline - V,
 * 3 eligible.  engine_check, which audits the tree, the sums behind V
 * and the lags' sum exactly, runs after every tick of every test here.
 */
#include "engine_test.h"

/* Virtual ns of 1 ms at nice 5: 1e6 * (1024 * 12820798 >> 2) >> 30. */
#define D5	3056716LL
/* A 3 ms request at nice 5: 3e6 * 3282124288 >> 30. */
#define R5	9170149LL

/* An eevdf engine with base_slice slice (0: the default, 3). */
static struct engine *
ev_engine(int cpus, int slice)
{
	struct engine_params	 p;
	struct engine		*e;
	char			*cause = NULL;

	engine_params_default(&p);
	p.cpus = cpus;
	if (slice > 0)
		p.base_slice = slice;
	if (engine_params_check(&p, &cause) != 0)
		fail_msg("engine_params_check: %s", cause);
	e = engine_create(&p, &engine_policy_eevdf);
	assert_non_null(e);
	return (e);
}

/* Run to tick t, auditing the engine after every tick. */
static void
ev_run_to(struct engine *e, uint64_t t, int line)
{
	char	*cause = NULL;

	while (engine_now(e) <= t) {
		engine_tick(e);
		if (engine_check(e, &cause) != 0)
			fail_msg("line %d tick %llu: %s", line,
			    (unsigned long long)engine_now(e) - 1, cause);
	}
}
#define EV_RUN_TO(e, t)	ev_run_to((e), (t), __LINE__)

/* The last tick's row on CPU 0: task, vruntime, lag, deadline, eligible. */
static void
ev_row(struct engine *e, int id, long long v, long long lag, long long d,
    int elig, int line)
{
	struct engine_cpu_info	ci = et_row(e, 0);

	if (ci.task != id || ci.field[0] != v || ci.field[1] != lag ||
	    ci.field[2] != d || ci.field[3] != elig)
		fail_msg("line %d tick %llu: want task %d v %lld lag %lld "
		    "d %lld e %d; got task %d v %lld lag %lld d %lld e %lld",
		    line, (unsigned long long)engine_now(e) - 1, id, v, lag,
		    d, elig, ci.task, (long long)ci.field[0],
		    (long long)ci.field[1], (long long)ci.field[2],
		    (long long)ci.field[3]);
}
#define EV_ROW(e, id, v, l, d, el)	ev_row((e), (id), (v), (l), (d), \
					    (el), __LINE__)

/* A task's lag (us) and eligibility now. */
static void
ev_lag(struct engine *e, int id, long long lag, int elig, int line)
{
	struct engine_task_info	ti = et_info(e, id);

	if (ti.field[1] != lag || ti.field[3] != elig)
		fail_msg("line %d after tick %llu: %s: want lag %lld e %d, "
		    "got lag %lld e %lld", line,
		    (unsigned long long)engine_now(e) - 1, ti.name, lag, elig,
		    (long long)ti.field[1], (long long)ti.field[3]);
}
#define EV_LAG(e, id, l, el)	ev_lag((e), (id), (l), (el), __LINE__)

/*
 * Weights and requests: A (nice 0, 1024) and B (nice 5, 335) arrive at
 * 0, both at V = 0 with no lag.  A's request ends at 3 ms, B's at
 * calc_delta_fair(3 ms) = R5: A runs first, 3 ticks, until its
 * vruntime reaches its deadline.  At 3, V = 3 ms * 1024 / 1359 =
 * 2260485 ns: A is past it (not eligible), B behind it (lag 2260485 *
 * 335 / 1024 = 739510 ns).  B then runs 4 ticks: 3 D5 falls 1 ns short
 * of R5.
 */
static void
test_weights_requests(void **state)
{
	struct engine	*e = ev_engine(1, 0);
	int		 a, b, t;

	a = et_hog(e, "A", 0, 0, NULL);
	b = et_hog(e, "B", 5, 0, NULL);
	EV_RUN_TO(e, 0);
	EV_ROW(e, a, 0, 0, 3000, 1);
	assert_int_equal(et_row(e, 0).left, 3);
	/* B's request: ceil(R5 / D5) = 4 ticks. */
	assert_int_equal(et_info(e, b).slice, 4);
	assert_int_equal(et_info(e, b).left, 4);
	EV_RUN_TO(e, 1);
	/* V = 1 ms * 1024 / 1359 = 753495: A 246505 ns ahead. */
	EV_ROW(e, a, 246, -246, 2246, 0);
	EV_RUN_TO(e, 3);
	EV_ROW(e, b, -2260, 739, (R5 - 2260485) / 1000, 1);
	for (t = 4; t <= 6; t++) {
		EV_RUN_TO(e, (uint64_t)t);
		assert_int_equal(et_row(e, 0).task, b);
	}
	/* B used its request: 4 D5 >= R5; A, eligible again, runs. */
	EV_RUN_TO(e, 7);
	assert_int_equal(et_row(e, 0).task, a);
	assert_int_equal(et_info(e, b).left, 4);
	engine_free(e);
}

/*
 * Nice 0 against nice 5, two hogs on one CPU: weights 1024 : 335, the
 * nice 0 hog's share 75.35 %, within a request or so over 100 000
 * ticks.
 */
static void
test_share(void **state)
{
	struct engine	*e = ev_engine(1, 0);
	uint64_t	 ra, rb;
	int		 a, b;

	a = et_hog(e, "A", 0, 0, NULL);
	b = et_hog(e, "B", 5, 0, NULL);
	RUN_TO(e, 99999);
	ra = et_info(e, a).ran;
	rb = et_info(e, b).ran;
	assert_int_equal(ra + rb, 100000);
	/* 100000 * 1024 / 1359 = 75349.5 */
	if (ra < 75340 || ra > 75360)
		fail_msg("nice 0 ran %llu of 100000 ticks",
		    (unsigned long long)ra);
	engine_free(e);
}

/*
 * LWN 925371's worked example: three CPU-bound tasks A, B, C start
 * together with no lag; with 30 ms requests A runs first and after its
 * 30 ms the lags are -20, 10, 10 ms; A is not eligible, B runs its 30
 * ms: -10, -10, 20; now only C is eligible, and it runs; then all three
 * are back at zero lag and A goes again.  The lags sum to zero
 * throughout.
 */
static void
test_lwn_example(void **state)
{
	struct engine	*e = ev_engine(1, 30);
	int		 a, b, c, t;

	a = et_hog(e, "A", 0, 0, NULL);
	b = et_hog(e, "B", 0, 0, NULL);
	c = et_hog(e, "C", 0, 0, NULL);
	EV_RUN_TO(e, 0);
	EV_ROW(e, a, 0, 0, 30000, 1);
	for (t = 1; t < 30; t++) {
		EV_RUN_TO(e, (uint64_t)t);
		assert_int_equal(et_row(e, 0).task, a);
		/* RUN_TO_PARITY is not the rule here: A is not eligible. */
		assert_int_equal(et_row(e, 0).field[3], 0);
	}
	EV_LAG(e, a, -20000, 0);
	EV_LAG(e, b, 10000, 1);
	EV_LAG(e, c, 10000, 1);
	for (t = 30; t < 60; t++) {
		EV_RUN_TO(e, (uint64_t)t);
		assert_int_equal(et_row(e, 0).task, b);
	}
	EV_LAG(e, a, -10000, 0);
	EV_LAG(e, b, -10000, 0);
	EV_LAG(e, c, 20000, 1);
	for (t = 60; t < 90; t++) {
		EV_RUN_TO(e, (uint64_t)t);
		assert_int_equal(et_row(e, 0).task, c);
		/* C runs owed: eligible to the end of its request. */
		assert_int_equal(et_row(e, 0).field[3], 1);
	}
	EV_LAG(e, a, 0, 1);
	EV_LAG(e, b, 0, 1);
	EV_LAG(e, c, 0, 1);
	EV_RUN_TO(e, 90);
	assert_int_equal(et_row(e, 0).task, a);
	engine_free(e);
}

/*
 * RUN_TO_PARITY and wake preemption, on LWN's example: S (nice -10,
 * weight 9548) arrives with no lag at V, its 30 ms request ending
 * calc_delta_fair(30 ms) = 3217421 ns later, before anyone else's.
 * At 10, A runs past V (not eligible): pick_eevdf would pick S, so S
 * preempts at once.  At 70, C runs owed (eligible) on the request it
 * was picked with: RUN_TO_PARITY keeps it on the CPU until that
 * request ends at 90, though S's deadline is earlier; then S runs.
 */
static void
test_run_to_parity(void **state)
{
	struct engine	*e;
	int		 s;

	e = ev_engine(1, 30);
	et_hog(e, "A", 0, 0, NULL);
	et_hog(e, "B", 0, 0, NULL);
	et_hog(e, "C", 0, 0, NULL);
	s = et_hog(e, "S", -10, 10, NULL);
	EV_RUN_TO(e, 10);
	/* V = 10 ms / 3: S at V, deadline 3217421 ns on. */
	EV_ROW(e, s, 0, 0, 3217, 1);
	engine_free(e);

	e = ev_engine(1, 30);
	et_hog(e, "A", 0, 0, NULL);
	et_hog(e, "B", 0, 0, NULL);
	et_hog(e, "C", 0, 0, NULL);
	s = et_hog(e, "S", -10, 70, NULL);
	EV_RUN_TO(e, 70);
	assert_int_equal(et_row(e, 0).task, 3);
	assert_int_equal(et_info(e, s).field[3], 1);
	assert_true(et_info(e, s).field[2] < et_info(e, 3).field[2]);
	EV_RUN_TO(e, 89);
	assert_int_equal(et_row(e, 0).task, 3);
	EV_RUN_TO(e, 90);
	assert_int_equal(et_row(e, 0).task, s);
	/*
	 * Its request is 31 ticks (30 of calc_delta_fair(1 ms) = 107247
	 * fall short); then, still owed and with the earliest deadline,
	 * it is picked again.
	 */
	EV_RUN_TO(e, 120);
	assert_int_equal(et_row(e, 0).task, s);
	assert_int_equal(et_row(e, 0).left, 1);
	EV_RUN_TO(e, 121);
	assert_int_equal(et_row(e, 0).task, s);
	assert_int_equal(et_row(e, 0).left, 31);
	engine_free(e);
}

/*
 * A sleeper keeps its lag and is placed back with it: S (nice 0, run 1
 * ms, sleep 9) and hog A start at 0.  S first runs at 3 (A used its
 * request) and sleeps owed 1 ms (V = 2 ms, S at 1 ms).  At 13 it wakes:
 * A ran alone, V = A's 12 ms; the lag scaled by (1024 + 1024) / 1024
 * puts S at 10 ms, so V is 11 ms and S's lag 1 ms again.  A is past V,
 * S eligible with the earliest deadline: S preempts at once.  It sleeps
 * again owed 0.5 ms and preempts at 23.  This time it sleeps level with
 * A (both at 21 ms): at 33 it comes back at V with no lag, its deadline
 * and vruntime equal to A's (A renewed its request at 30 ms): a tie,
 * which A, queued first, wins; S runs at 36, when A's request ends.
 */
static void
test_sleeper_lag(void **state)
{
	struct engine	*e = ev_engine(1, 0);
	int		 a, s;

	a = et_hog(e, "A", 0, 0, NULL);
	s = et_pat(e, "S", 0, 0, 1, 9, NULL);
	EV_RUN_TO(e, 3);
	assert_int_equal(et_row(e, 0).task, s);
	EV_RUN_TO(e, 12);
	assert_int_equal(et_row(e, 0).task, a);
	/* Asleep, it keeps V - v = 1 ms. */
	assert_int_equal(et_info(e, s).field[1], 1000);
	EV_RUN_TO(e, 13);
	EV_ROW(e, s, -1000, 1000, 2000, 1);
	EV_RUN_TO(e, 22);
	assert_int_equal(et_info(e, s).field[1], 500);
	EV_RUN_TO(e, 23);
	EV_ROW(e, s, -500, 500, 2500, 1);
	EV_RUN_TO(e, 32);
	assert_int_equal(et_info(e, s).field[1], 0);
	EV_RUN_TO(e, 33);
	EV_ROW(e, a, 0, 0, 3000, 1);
	/* After A's tick: V 0.5 ms on. */
	EV_LAG(e, s, 500, 1);
	EV_RUN_TO(e, 35);
	assert_int_equal(et_row(e, 0).task, a);
	EV_RUN_TO(e, 36);
	EV_ROW(e, s, -1500, 1500, 1500, 1);
	engine_free(e);
}

/*
 * A nice change (set_user_nice at 6.6): the running task whose nice
 * rises gives way at once; a waiting task renice'd keeps its lag in ns
 * of CPU, whatever the weight.
 */
static void
test_renice(void **state)
{
	struct engine	*e = ev_engine(1, 0);
	char		*cause = NULL;
	long long	 before;
	int		 a, b, c;

	a = et_hog(e, "A", 0, 0, NULL);
	b = et_hog(e, "B", 0, 0, NULL);
	c = et_hog(e, "C", 0, 0, NULL);
	EV_RUN_TO(e, 0);
	assert_int_equal(et_row(e, 0).task, a);
	assert_int_equal(engine_task_nice(e, a, 10, &cause), 0);
	EV_RUN_TO(e, 1);
	assert_int_equal(et_row(e, 0).task, b);
	before = et_info(e, c).field[1];
	assert_true(before > 0);
	assert_int_equal(engine_task_nice(e, c, -5, &cause), 0);
	if (et_info(e, c).field[1] < before - 1 ||
	    et_info(e, c).field[1] > before + 1)
		fail_msg("C's lag %lld us before the nice change, %lld after",
		    before, (long long)et_info(e, c).field[1]);
	if (engine_check(e, &cause) != 0)
		fail_msg("%s", cause);
	engine_free(e);
}

/* xorshift64*, as test_engine_random. */
static uint64_t
ev_rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return (*s * 2685821657736338717ULL);
}

/* A number in lo..hi. */
static int
ev_range(uint64_t *s, int lo, int hi)
{
	return (lo + (int)(ev_rnd(s) % (uint64_t)(hi - lo + 1)));
}

/*
 * The lags of each CPU's queue sum to zero (each task's truncated to
 * whole us: within one us a task), at every tick, over random mixes:
 * hogs and sleepers of every nice on 1, 3 and 8 CPUs, with nice
 * changes, affinity changes, injected sleeps, kills and arrivals
 * between ticks.  engine_check audits the exact sums meanwhile.
 */
static void
test_lag_sum(void **state)
{
	static const int	 ncpus[] = { 1, 3, 8 };
	struct engine		*e;
	struct engine_task_info	 ti;
	struct cpumask		 m;
	char			*cause = NULL, name[32];
	int64_t			 sum[ENGINE_MAX_CPUS];
	int			 n[ENGINE_MAX_CPUS];
	uint64_t		 s;
	size_t			 k;
	int			 i, id, c, cpus, slice;

	for (k = 0; k < sizeof ncpus / sizeof ncpus[0]; k++) {
		cpus = ncpus[k];
		s = 0x5eed + k;
		slice = 1 + (int)k * 4;
		e = ev_engine(cpus, slice);
		for (i = 0; i < 12 * cpus; i++) {
			snprintf(name, sizeof name, "t%d", i);
			if (i % 3 == 0)
				et_hog(e, name, ev_range(&s, -20, 19),
				    (uint64_t)ev_range(&s, 0, 50), NULL);
			else
				et_pat(e, name, ev_range(&s, -20, 19),
				    (uint64_t)ev_range(&s, 0, 50),
				    (uint32_t)ev_range(&s, 1, 8),
				    (uint32_t)ev_range(&s, 1, 40), NULL);
		}
		while (engine_now(e) < 4000) {
			id = ev_range(&s, 1, engine_ntasks(e));
			switch (ev_range(&s, 0, 15)) {
			case 0:
				(void)engine_task_nice(e, id,
				    ev_range(&s, -20, 19), &cause);
				break;
			case 1:
				cpumask_zero(&m);
				cpumask_set(&m, ev_range(&s, 0, cpus - 1));
				if (ev_range(&s, 0, 1))
					cpumask_set(&m, ev_range(&s, 0,
					    cpus - 1));
				(void)engine_task_affinity(e, id, &m, &cause);
				break;
			case 2:
				(void)engine_task_sleep(e, id,
				    (uint64_t)ev_range(&s, 1, 30), &cause);
				break;
			case 3:
				if (ev_range(&s, 0, 9) == 0)
					(void)engine_task_kill(e, id, &cause);
				break;
			case 4:
				snprintf(name, sizeof name, "n%d",
				    engine_ntasks(e));
				et_pat(e, name, ev_range(&s, -20, 19),
				    engine_now(e), (uint32_t)ev_range(&s, 1,
				    20), (uint32_t)ev_range(&s, 1, 20), NULL);
				break;
			}
			free(cause);
			cause = NULL;
			engine_tick(e);
			if (engine_check(e, &cause) != 0)
				fail_msg("%d cpus tick %llu: %s", cpus,
				    (unsigned long long)engine_now(e) - 1,
				    cause);
			memset(sum, 0, sizeof sum);
			memset(n, 0, sizeof n);
			for (id = 1; id <= engine_ntasks(e); id++) {
				ti = et_info(e, id);
				if (ti.state != ENGINE_RUNNABLE)
					continue;
				sum[ti.cpu] += ti.field[1];
				n[ti.cpu]++;
			}
			for (c = 0; c < cpus; c++) {
				if (sum[c] > n[c] || sum[c] < -n[c])
					fail_msg("%d cpus tick %llu cpu %d: "
					    "%d lags sum to %lld us", cpus,
					    (unsigned long long)engine_now(e) -
					    1, c, n[c], (long long)sum[c]);
			}
		}
		engine_free(e);
	}
}

/*
 * A clone runs the same future: the original and a clone made at 500
 * give the same rows and snapshots for 1500 more ticks, the original
 * freed halfway.
 */
static void
test_clone(void **state)
{
	struct engine		*e = ev_engine(2, 0), *c;
	struct engine_cpu_info	 a, b;
	struct engine_task_info	 ta, tb;
	char			 name[16];
	int			 i, cpu, id;

	for (i = 0; i < 6; i++) {
		snprintf(name, sizeof name, "h%d", i);
		et_hog(e, name, i * 3 - 8, (uint64_t)i, NULL);
		snprintf(name, sizeof name, "p%d", i);
		et_pat(e, name, 7 - i * 2, (uint64_t)i, (uint32_t)(i + 1),
		    (uint32_t)(5 * i + 3), NULL);
	}
	RUN_TO(e, 499);
	c = engine_clone(e);
	for (i = 0; i < 1500; i++) {
		if (i == 750) {
			engine_free(e);
			e = engine_clone(c);
		}
		engine_tick(e);
		engine_tick(c);
		for (cpu = 0; cpu < 2; cpu++) {
			engine_cpu_info(e, cpu, &a);
			engine_cpu_info(c, cpu, &b);
			assert_memory_equal(&a, &b, sizeof a);
		}
		for (id = 1; id <= engine_ntasks(e); id++) {
			ta = et_info(e, id);
			tb = et_info(c, id);
			assert_memory_equal(ta.field, tb.field, sizeof ta.field);
			assert_int_equal(ta.ran, tb.ran);
		}
	}
	engine_free(e);
	engine_free(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_weights_requests),
		cmocka_unit_test(test_share),
		cmocka_unit_test(test_lwn_example),
		cmocka_unit_test(test_run_to_parity),
		cmocka_unit_test(test_sleeper_lag),
		cmocka_unit_test(test_renice),
		cmocka_unit_test(test_lag_sum),
		cmocka_unit_test(test_clone),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
