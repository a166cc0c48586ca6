/*
 * test_kticks.c -- the kernel's runs on the engine's ticks (src/kticks.c):
 * a tick gets what held the CPU longest in its span; a child's run is
 * its task, the gap after it what it switched to, up to the next run
 * (cut in the middle when the next run's switch in says otherwise); the
 * run open now holds up to now; before the first run, across runs
 * missing (a seq that jumps) and after lost records nothing is known;
 * spans go forward and memory stays bounded.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kticks.h"

/* A closed run of task (pid) on cpu, [from, to), between prev and next. */
static struct procs_krun
run(uint64_t seq, int cpu, int task, uint64_t from, uint64_t to, pid_t prev,
    pid_t next)
{
	struct procs_krun	r;

	memset(&r, 0, sizeof r);
	r.seq = seq;
	r.cpu = cpu;
	r.task = task;
	r.pid = 1000 + task;
	r.prio = 120;
	r.from_ns = from;
	r.to_ns = to;
	r.state = 'R';
	r.prev = prev;
	r.next = next;
	return (r);
}

/* Runs, the gaps between them, the open run. */
static void
test_runs_and_gaps(void **state)
{
	struct kticks		*k = kticks_create(2);
	struct procs_krun	 r, open;

	/* Task 1 ran 1000-2000 then idle; task 2 3000-5000 then another. */
	r = run(1, 0, 1, 1000, 2000, 0, 0);
	kticks_add(k, &r);
	r = run(2, 0, 2, 3000, 5000, 0, 4242);
	kticks_add(k, &r);
	open = run(0, 0, 1, 6000, 0, 4242, 0);
	assert_int_equal(kticks_tick(k, 0, 0, 1000, &open), KRUNS_UNKNOWN);
	assert_int_equal(kticks_tick(k, 0, 1000, 2000, &open), 1);
	assert_int_equal(kticks_tick(k, 0, 2000, 3000, &open), KRUNS_IDLE);
	assert_int_equal(kticks_tick(k, 0, 3000, 4000, &open), 2);
	assert_int_equal(kticks_tick(k, 0, 5000, 6000, &open), KRUNS_OTHER);
	assert_int_equal(kticks_tick(k, 0, 6000, 7000, &open), 1);
	assert_int_equal(kticks_tick(k, 0, 90000, 91000, &open), 1);
	/* Without the open run: what task 2 switched to, up to now. */
	assert_int_equal(kticks_tick(k, 0, 90000, 91000, NULL), KRUNS_OTHER);
	/* The other CPU has nothing; CPUs out of range, empty spans. */
	assert_int_equal(kticks_tick(k, 1, 0, 1000, NULL), KRUNS_UNKNOWN);
	assert_int_equal(kticks_tick(k, 2, 0, 1000, NULL), KRUNS_UNKNOWN);
	assert_int_equal(kticks_tick(k, -1, 0, 1000, NULL), KRUNS_UNKNOWN);
	assert_int_equal(kticks_tick(k, 0, 7000, 7000, &open), KRUNS_UNKNOWN);
	kticks_free(k);
}

/* What covers most of the span wins; a gap whose ends disagree is cut. */
static void
test_majority_and_cut(void **state)
{
	struct kticks		*k = kticks_create(1);
	struct procs_krun	 r;

	r = run(1, 0, 1, 1000, 2000, 0, 0);
	kticks_add(k, &r);
	/* Idle after task 1, and task 3 came from another process. */
	r = run(2, 0, 3, 4000, 5000, 77, 0);
	kticks_add(k, &r);
	/* 500 of task 1 against 600 idle. */
	assert_int_equal(kticks_tick(k, 0, 1500, 2600, NULL), KRUNS_IDLE);
	/* The gap 2000-4000: idle to 3000, another process from there. */
	assert_int_equal(kticks_tick(k, 0, 2000, 2900, NULL), KRUNS_IDLE);
	assert_int_equal(kticks_tick(k, 0, 2500, 3600, NULL), KRUNS_OTHER);
	assert_int_equal(kticks_tick(k, 0, 3100, 3900, NULL), KRUNS_OTHER);
	/* 600 of task 3 against 400 of the gap. */
	assert_int_equal(kticks_tick(k, 0, 3600, 4600, NULL), 3);
	/* Spans go forward: what ended before was forgotten. */
	assert_int_equal(kticks_tick(k, 0, 1000, 2000, NULL), KRUNS_UNKNOWN);
	kticks_free(k);
}

/* Runs missing (seq jumps), records lost: the gaps are not known. */
static void
test_missing_and_lost(void **state)
{
	struct kticks		*k = kticks_create(1);
	struct procs_krun	 r, open;

	r = run(1, 0, 1, 1000, 2000, 0, 0);
	kticks_add(k, &r);
	r = run(5, 0, 2, 3000, 4000, 0, 0);	/* 2, 3, 4 gone */
	kticks_add(k, &r);
	assert_int_equal(kticks_tick(k, 0, 2000, 3000, NULL), KRUNS_UNKNOWN);
	assert_int_equal(kticks_tick(k, 0, 3000, 4000, NULL), 2);
	assert_int_equal(kticks_tick(k, 0, 4000, 5000, NULL), KRUNS_IDLE);
	kticks_lost(k, 0);
	assert_int_equal(kticks_tick(k, 0, 5000, 6000, NULL), KRUNS_UNKNOWN);
	/* The next run's start is known again; its gap's start is not. */
	open = run(0, 0, 1, 8000, 0, 0, 0);
	assert_int_equal(kticks_tick(k, 0, 6000, 7000, &open), KRUNS_UNKNOWN);
	assert_int_equal(kticks_tick(k, 0, 8000, 9000, &open), 1);
	r = run(6, 0, 1, 8000, 9000, 0, 0);
	kticks_add(k, &r);
	assert_int_equal(kticks_tick(k, 0, 9000, 9500, NULL), KRUNS_IDLE);
	/* A run still open (to_ns 0) is not added. */
	r = run(7, 0, 2, 9500, 0, 0, 0);
	kticks_add(k, &r);
	assert_int_equal(kticks_tick(k, 0, 9500, 9900, NULL), KRUNS_IDLE);
	/*
	 * Records lost before a run whose seq goes on (the lost one was the
	 * open run, dropped): the gap before it is not known, though both
	 * ends say idle.
	 */
	r = run(7, 0, 2, 11000, 12000, 0, 0);
	r.lost = 1;
	kticks_add(k, &r);
	assert_int_equal(kticks_tick(k, 0, 10000, 11000, NULL), KRUNS_UNKNOWN);
	assert_int_equal(kticks_tick(k, 0, 11000, 12000, NULL), 2);
	kticks_free(k);
}

/*
 * Records lost: only the CPUs that closed no run since say unknown after
 * their last run; a run closed after the loss (r.lost) says its gap
 * before is unknown and what came after it (here idle) again.
 */
static void
test_lost_per_cpu(void **state)
{
	struct kticks		*k = kticks_create(2);
	struct procs_krun	 r;

	r = run(1, 0, 1, 1000, 2000, 0, 0);
	kticks_add(k, &r);
	r = run(1, 1, 2, 1000, 2000, 0, 0);
	kticks_add(k, &r);
	/* The loss: CPU 0 closes a run after it, CPU 1 none. */
	r = run(2, 0, 3, 3000, 4000, 0, 0);
	r.lost = 1;
	kticks_add(k, &r);
	kticks_lost(k, 1);
	assert_int_equal(kticks_tick(k, 0, 2000, 3000, NULL), KRUNS_UNKNOWN);
	assert_int_equal(kticks_tick(k, 0, 3000, 4000, NULL), 3);
	assert_int_equal(kticks_tick(k, 0, 4000, 5000, NULL), KRUNS_IDLE);
	assert_int_equal(kticks_tick(k, 1, 2000, 3000, NULL), KRUNS_UNKNOWN);
	/* Idle after CPU 0's run still, when its next run comes. */
	r = run(3, 0, 1, 6000, 7000, 0, 0);
	kticks_add(k, &r);
	assert_int_equal(kticks_tick(k, 0, 5000, 6000, NULL), KRUNS_IDLE);
	kticks_lost(k, 5);		/* no such CPU: nothing */
	kticks_free(k);
}

/*
 * Many short runs between two ticks, and a long time never asked: the
 * answers stay right and what is kept stays bounded (ASan sees leaks).
 */
static void
test_many(void **state)
{
	struct kticks		*k = kticks_create(1);
	struct procs_krun	 r;
	uint64_t		 t = 0, seq = 0;
	int			 i, j;

	for (i = 0; i < 200; i++) {
		/* A tick of 1000 ns: task 1 for 700, then 100 x 3 of 2. */
		r = run(++seq, 0, 1, t, t + 700, 0, 1002);
		kticks_add(k, &r);
		for (j = 0; j < 100; j++) {
			r = run(++seq, 0, 2, t + 700 + 3 * j,
			    t + 703 + 3 * j, 1001, j < 99 ? 1002 : 1001);
			kticks_add(k, &r);
		}
		assert_int_equal(kticks_tick(k, 0, t, t + 1000, NULL), 1);
		t += 1000;
	}
	/* 100 000 runs never asked for: the oldest go. */
	for (i = 0; i < 100000; i++) {
		r = run(++seq, 0, 1 + i % 2, t, t + 10, 0, 0);
		kticks_add(k, &r);
		t += 10;
	}
	assert_int_equal(kticks_tick(k, 0, t - 10, t, NULL), 2);
	assert_int_equal(kticks_tick(k, 0, t, t + 10, NULL), KRUNS_IDLE);
	kticks_free(k);
}

/* Run the tests. */
int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runs_and_gaps),
		cmocka_unit_test(test_majority_and_cut),
		cmocka_unit_test(test_missing_and_lost),
		cmocka_unit_test(test_lost_per_cpu),
		cmocka_unit_test(test_many),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
