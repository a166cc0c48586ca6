/*
 * test_clock.c -- the tick clock's arithmetic: due ticks without drift,
 * bounded catch-up with lag, pause, resume and speed changes exact.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "clock.h"

#define MS	1000000ULL

/* At speed 1 tick n is due after n ms, whatever the wake-up pattern. */
static void
test_due(void **state)
{
	struct clock	c;
	uint64_t	t0 = 5000 * MS, tick = 0, now;

	clock_init(&c, 1.0, t0, 0);
	assert_int_equal(clock_due(&c, t0), 0);
	assert_int_equal(clock_due(&c, t0 + MS - 1), 0);
	assert_int_equal(clock_due(&c, t0 + MS), 1);
	assert_int_equal(clock_due(&c, t0 + 60000 * MS), 60000);
	/* Irregular wake-ups: no drift accumulates. */
	for (now = t0; now < t0 + 10000 * MS; now += 1300000 + now % 7)
		tick += clock_take(&c, now, tick);
	assert_true(tick >= 9998 && tick <= 10000);
	assert_int_equal(c.lag, 0);
	/* Speed 0.5: one tick per 2 ms; speed 10: ten per ms. */
	clock_init(&c, 0.5, t0, 7);
	assert_int_equal(clock_due(&c, t0 + 2 * MS - 1), 7);
	assert_int_equal(clock_due(&c, t0 + 2 * MS), 8);
	clock_init(&c, 10, t0, 0);
	assert_int_equal(clock_due(&c, t0 + MS), 10);
	/* The next due time is when the tick becomes due. */
	clock_init(&c, 1.0, t0, 0);
	assert_int_equal(clock_due(&c, clock_next_ns(&c, 5)), 5);
	assert_int_equal(clock_due(&c, clock_next_ns(&c, 5) - 2), 4);
	clock_init(&c, 0.3, t0, 0);
	assert_int_equal(clock_due(&c, clock_next_ns(&c, 3)), 3);
}

/* A late wake-up runs at most max_batch ticks; the rest is lag. */
static void
test_lag(void **state)
{
	struct clock	c;
	uint64_t	t0 = MS, n;

	clock_init(&c, 1.0, t0, 0);
	assert_int_equal(c.max_batch, 100);
	n = clock_take(&c, t0 + 50 * MS, 0);
	assert_int_equal(n, 50);
	n = clock_take(&c, t0 + 500 * MS, 50);
	assert_int_equal(n, 100);
	assert_int_equal(c.lag, 350);
	/* The dropped ticks are not owed: next ms, one tick. */
	n = clock_take(&c, t0 + 501 * MS, 150);
	assert_int_equal(n, 1);
	assert_int_equal(c.lag, 350);
	/* High speed: a 1 ms wake-up legitimately carries speed ticks. */
	clock_init(&c, 100, t0, 0);
	assert_int_equal(clock_take(&c, t0 + MS, 0), 100);
	assert_int_equal(c.lag, 0);
}

/*
 * A batching caller that sleeps through allow ticks on purpose runs them
 * all; only lateness past allow + max_batch is lag, as in test_lag.
 */
static void
test_take_more(void **state)
{
	struct clock	c;
	uint64_t	t0 = MS, n;

	clock_init(&c, 1.0, t0, 0);
	assert_int_equal(clock_ticks_in(&c, 250 * MS), 250);
	n = clock_take_more(&c, t0 + 250 * MS, 0, 250);
	assert_int_equal(n, 250);
	assert_int_equal(c.lag, 0);
	/* 350 owed plus 250 allowed: 350 run, none dropped. */
	n = clock_take_more(&c, t0 + 600 * MS, 250, 250);
	assert_int_equal(n, 350);
	assert_int_equal(c.lag, 0);
	/* 500 owed, at most 350 may run: 150 dropped, not owed later. */
	n = clock_take_more(&c, t0 + 1100 * MS, 600, 250);
	assert_int_equal(n, 350);
	assert_int_equal(c.lag, 150);
	assert_int_equal(clock_take_more(&c, t0 + 1101 * MS, 950, 250), 1);
	clock_init(&c, 4, t0, 0);
	assert_int_equal(clock_ticks_in(&c, 250 * MS), 1000);
}

/* Paused, nothing is due; resume and speed restart from now. */
static void
test_pause_speed(void **state)
{
	struct clock	c;
	uint64_t	t0 = MS;

	clock_init(&c, 1.0, t0, 0);
	assert_int_equal(clock_take(&c, t0 + 10 * MS, 0), 10);
	clock_pause(&c);
	assert_int_equal(clock_take(&c, t0 + 1000 * MS, 10), 0);
	/* Steps happened while paused (engine at 15); resume at 1000 ms. */
	clock_resume(&c, t0 + 1000 * MS, 15);
	assert_int_equal(clock_take(&c, t0 + 1000 * MS, 15), 0);
	assert_int_equal(clock_take(&c, t0 + 1003 * MS, 15), 3);
	clock_set_speed(&c, 2.0, t0 + 1003 * MS, 18);
	assert_int_equal(clock_take(&c, t0 + 1004 * MS, 18), 2);
	assert_int_equal(c.lag, 0);
	/* A speed change while paused applies on resume. */
	clock_pause(&c);
	clock_set_speed(&c, 4.0, t0 + 2000 * MS, 20);
	assert_int_equal(clock_take(&c, t0 + 3000 * MS, 20), 0);
	clock_resume(&c, t0 + 3000 * MS, 20);
	assert_int_equal(clock_take(&c, t0 + 3001 * MS, 20), 4);
	assert_true(clock_period_ns(&c) == MS);
	clock_set_speed(&c, 0.25, t0, 0);
	assert_true(clock_period_ns(&c) == 4 * MS);
}

/*
 * An early tick: the engine's next tick may run once running it leaves
 * the engine at most lead ticks ahead of the wall clock.
 */
static void
test_early(void **state)
{
	struct clock	c;
	uint64_t	t0 = 5000 * MS;

	clock_init(&c, 1.0, t0, 100);
	/* Nothing asks. */
	assert_int_equal(clock_early_ns(&c, 100, 0), 0);
	/* Tick 100 runs early once tick 100 itself is due (lead 1). */
	assert_true(clock_early_ns(&c, 100, 1) == c.origin_ns);
	/* Tick 105, lead 1: when 105 is due; lead 2: when 104 is. */
	assert_int_equal(clock_due(&c, clock_early_ns(&c, 105, 1)), 105);
	assert_int_equal(clock_due(&c, clock_early_ns(&c, 105, 1) - 2), 104);
	assert_int_equal(clock_due(&c, clock_early_ns(&c, 105, 2)), 104);
	/* Ahead by more than the lead: not before the wall clock catches up. */
	assert_true(clock_early_ns(&c, 105, 2) == clock_next_ns(&c, 104));
	/* Before the origin: the origin. */
	assert_true(clock_early_ns(&c, 0, 2) == c.origin_ns);
	/* At half speed a tick is 2 ms. */
	clock_init(&c, 0.5, t0, 0);
	assert_true(clock_early_ns(&c, 9, 1) - t0 >= 18 * MS);
	assert_true(clock_early_ns(&c, 9, 1) - t0 < 18 * MS + 2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_due),
		cmocka_unit_test(test_lag),
		cmocka_unit_test(test_take_more),
		cmocka_unit_test(test_pause_speed),
		cmocka_unit_test(test_early),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
