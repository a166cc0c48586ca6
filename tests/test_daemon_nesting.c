/*
 * test_daemon_nesting.c -- no command runs inside another (issue 27,
 * items 1 and 2): a client waiting for its step has lines queued behind
 * it; when another client's command ends that step, the waiting lines
 * run from the event loop, after that command, never inside it.
 *
 * Each test holds client A in a long step (a real task makes the step
 * take its wall time: a million ticks are seventeen minutes), with lines
 * queued behind it, and has client B end it with a command.  Before the
 * fix, A's lines ran in the middle of B's command: a `reset` freed the
 * session B's `load` was ending (a double free), a `step` ran a million
 * ticks of the present while B's `seek` showed the past, and the ticks
 * leaked into B's new session.  What makes them deterministic is the
 * step, not a sleep: B acts once the status says the clock is stepping.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "daemon_harness.h"

/* The scenario: two real hogs and a real sleeper (real-mixed). */
#define NEST_SCENARIO	"real-mixed"

/* A daemon on real-mixed; t set up and started. */
static void
nest_start(struct td *t)
{
	char	*extra[] = { "--scenario", NEST_SCENARIO, NULL };

	td_init(t, NULL, NULL);
	td_start_args(t, extra);
}

/* A field of a status line, as a number; -1 if it is not there. */
static long long
nest_field(const char *line, const char *key)
{
	char		 k[64];
	const char	*p;

	snprintf(k, sizeof k, " %s=", key);
	if ((p = strstr(line, k)) == NULL)
		return (-1);
	return (strtoll(p + strlen(k), NULL, 10));
}

/* The status line, through c; fails the test without one. */
static void
nest_status(struct tconn *c, char *line, size_t len)
{
	char	final[256];

	assert_int_equal(tc_cmd(c, "status", line, len, final,
	    sizeof final), 0);
	assert_string_equal(final, "ok");
}

/* Wait until a step is under way: the clock paused, the tick moving. */
static void
nest_stepping(struct tconn *b)
{
	char		line[2048];
	long		end = td_ms() + TD_DEADLINE_MS;
	long long	first = -1, tick;

	while (td_ms() < end) {
		nest_status(b, line, sizeof line);
		tick = nest_field(line, "tick");
		if (nest_field(line, "paused") == 1) {
			if (first == -1)
				first = tick;
			else if (tick > first)
				return;
		}
		td_nap(5);
	}
	td_timed_out(TD_DEADLINE_MS, "a step to run");
	fail();
}

/* The next line from c must start with want. */
static void
nest_expect(struct tconn *c, const char *want)
{
	char	line[2048];

	if (tc_line(c, line, sizeof line, TD_DEADLINE_MS) != 0)
		fail_msg("no line, wanted \"%s\"", want);
	if (strncmp(line, want, strlen(want)) != 0)
		fail_msg("got \"%s\", wanted \"%s\"", line, want);
}

/* Stop the daemon: a clean exit, and no sanitizer report in its log. */
static void
nest_stop(struct td *t)
{
	assert_int_equal(td_log_has(t, "ERROR: AddressSanitizer"), 0);
	assert_int_equal(td_log_has(t, "runtime error"), 0);
	assert_int_equal(td_stop(t), 0);
}

/*
 * Item 1: A steps, with a `reset` queued; B's `load` ends the step.  A's
 * reset runs after B's load (not inside it, freeing the session the load
 * was ending): A gets the cancelled step's err, then its reset's ok, and
 * the daemon serves on.
 */
static void
test_load_cancels_step(void **state)
{
	struct td	 t;
	struct tconn	*a, *b;
	char		 line[2048], final[256];

	nest_start(&t);
	a = tc_open(&t);
	b = tc_open(&t);
	assert_non_null(a);
	assert_non_null(b);
	tc_send(a, "step 1000000\nreset\n", 19);
	nest_stepping(b);
	assert_int_equal(tc_cmd(b, "load article", NULL, 0, final,
	    sizeof final), 0);
	assert_string_equal(final, "ok");
	nest_expect(a, "err step cancelled after ");
	nest_expect(a, "ok");
	nest_status(b, line, sizeof line);
	assert_non_null(strstr(line, " scenario=article "));
	nest_status(a, line, sizeof line);
	tc_close(a);
	tc_close(b);
	nest_stop(&t);
}

/*
 * Item 2: A steps with `status` and `step` queued; B's `step 5` ends
 * A's step.  A's status runs after B's command, then A's second step
 * (which ends B's, if still under way); A's `pause` ends it, and its
 * status comes.  Seventy rounds, each client closed: every connection
 * is freed (no "err too many clients").
 */
static void
test_step_cancels_step(void **state)
{
	struct td	 t;
	struct tconn	*a, *b;
	char		 line[2048], final[256];
	long		 end;
	int		 round;

	nest_start(&t);
	b = tc_open(&t);
	assert_non_null(b);
	for (round = 0; round < 70; round++) {
		a = tc_open(&t);
		assert_non_null(a);
		assert_string_not_equal(a->greet, "err too many clients");
		tc_send(a, "step 1000000\nstatus\nstep 1000000\n", 33);
		nest_stepping(b);
		assert_int_equal(tc_cmd(b, "step 5", NULL, 0, final,
		    sizeof final), 0);
		assert_true(strcmp(final, "ok") == 0 ||
		    strncmp(final, "err step cancelled", 18) == 0);
		nest_expect(a, "err step cancelled after ");
		nest_expect(a, "status ");
		nest_expect(a, "ok");
		/* A's second step is under way; its pause ends it. */
		nest_stepping(b);
		tc_send(a, "pause\nstatus\n", 13);
		nest_expect(a, "err step cancelled after ");
		nest_expect(a, "ok");
		nest_expect(a, "status ");
		nest_expect(a, "ok");
		tc_close(a);
		/* A is gone: B alone again. */
		end = td_ms() + TD_DEADLINE_MS;
		do {
			nest_status(b, line, sizeof line);
		} while (nest_field(line, "clients") != 1 && td_ms() < end &&
		    (td_nap(5), 1));
		assert_int_equal(nest_field(line, "clients"), 1);
	}
	tc_close(b);
	nest_stop(&t);
}

/*
 * Item 2, seek: B's `seek 1` ends A's step.  A's queued step runs after
 * the seek, leaving the past first (real tasks: back to the present), so
 * the present never runs on while the past is shown: a status with
 * live=0 is followed by one with the same now.
 */
static void
test_seek_cancels_step(void **state)
{
	struct td	 t;
	struct tconn	*a, *b;
	char		 line[2048], line2[2048], final[256];
	int		 i;

	nest_start(&t);
	a = tc_open(&t);
	b = tc_open(&t);
	tc_send(a, "step 1000000\nstatus\nstep 1000000\nstatus\n", 40);
	nest_stepping(b);
	assert_int_equal(tc_cmd(b, "seek 1", NULL, 0, final,
	    sizeof final), 0);
	assert_string_equal(final, "ok");
	nest_expect(a, "err step cancelled after ");
	nest_expect(a, "status ");
	nest_expect(a, "ok");
	for (i = 0; i < 20; i++) {
		nest_status(b, line, sizeof line);
		td_nap(20);
		nest_status(b, line2, sizeof line2);
		if (nest_field(line, "live") == 0 &&
		    nest_field(line2, "live") == 0)
			assert_int_equal(nest_field(line, "now"),
			    nest_field(line2, "now"));
	}
	tc_close(a);
	tc_close(b);
	nest_stop(&t);
}

/*
 * Item 2, load: B's `load article` ends A's step; B's next line sees the
 * new session at tick 0: none of the old step's ticks ran into it.  A's
 * queued status runs after the load, not inside it: it shows the new
 * scenario.
 */
static void
test_load_starts_at_zero(void **state)
{
	struct td	 t;
	struct tconn	*a, *b;
	char		 line[2048];

	nest_start(&t);
	a = tc_open(&t);
	b = tc_open(&t);
	tc_send(a, "step 1000000\nstatus\nstep 1000000\nstatus\n", 40);
	nest_stepping(b);
	tc_send(b, "load article\nstatus\n", 20);
	nest_expect(b, "ok");
	if (tc_line(b, line, sizeof line, TD_DEADLINE_MS) != 0)
		fail_msg("no status after the load");
	assert_non_null(strstr(line, " scenario=article "));
	assert_int_equal(nest_field(line, "tick"), 0);
	nest_expect(b, "ok");
	nest_expect(a, "err step cancelled after ");
	if (tc_line(a, line, sizeof line, TD_DEADLINE_MS) != 0)
		fail_msg("no status from A after its step");
	assert_non_null(strstr(line, " scenario=article "));
	nest_expect(a, "ok");
	tc_close(a);
	tc_close(b);
	nest_stop(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_cancels_step),
		cmocka_unit_test(test_step_cancels_step),
		cmocka_unit_test(test_seek_cancels_step),
		cmocka_unit_test(test_load_starts_at_zero),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
