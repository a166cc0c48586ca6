/*
 * test_daemon_cmds.c -- every protocol command against a real stairsd on
 * a temporary socket: the ok replies, the err replies (unknown command,
 * unknown task, bad, negative and overflowing numbers), long lines,
 * binary bytes, pause/step exactness and scenario events reaching a
 * subscriber.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "daemon_harness.h"

/* Run cmd, check the final line, return the data lines in data. */
static void
expect_data(struct tconn *c, const char *cmd, const char *want, char *data,
    size_t size)
{
	char	final[1024];

	assert_int_equal(tc_cmd(c, cmd, data, size, final, sizeof final), 0);
	if (strncmp(final, want, strlen(want)) != 0) {
		fprintf(stderr, "%s -> %s (wanted %s)\n", cmd, final, want);
		fail();
	}
}

/* The greeting, and every command's ok reply. */
static void
test_commands_ok(void **state)
{
	struct td	 t;
	struct tconn	*c;
	char		 data[16384];

	td_init(&t, NULL, NULL);
	td_start(&t);
	assert_non_null(c = tc_open(&t));
	assert_string_equal(c->greet, "stairs 2 " STAIRS_VERSION);

	expect_data(c, "help", "ok", data, sizeof data);
	assert_non_null(strstr(data, "help subscribe"));
	expect_data(c, "status", "ok", data, sizeof data);
	assert_true(strncmp(data, "status tick=", 12) == 0);
	assert_int_equal(td_field(data, "cpus"), 2);
	assert_int_equal(td_field(data, "tasks"), 2);
	assert_non_null(strstr(data, " scenario=test"));
	assert_int_equal(td_field(data, "sleep"), 1000);
	expect_data(c, "tasks", "ok 2", data, sizeof data);
	assert_non_null(strstr(data, "task id=1 name=hog kind=sim pid=- "));
	assert_non_null(strstr(data, "task id=2 name=editor "));
	expect_data(c, "cpus", "ok 2", data, sizeof data);
	assert_true(strncmp(data, "cpu id=0 task=", 14) == 0);
	assert_non_null(strstr(data, "\ncpu id=1 "));
	expect_data(c, "table hog", "ok", data, sizeof data);
	assert_true(strncmp(data, "table task=1 name=hog base=120 stairs=20 "
	    "rr=10", 40) == 0);

	/* Tasks start at tick 0: wait until it has run. */
	TD_UNTIL(tc_status(c, "tick") >= 1, "the clock to reach tick 1");
	tc_expect(c, "sleep hog 50", "ok");
	tc_expect(c, "sleep 1", "ok");		/* by id, default length */
	tc_expect(c, "nice hog 5", "ok");
	expect_data(c, "tasks", "ok 2", data, sizeof data);
	assert_non_null(strstr(data, "name=hog kind=sim pid=- nice=5 "));
	tc_expect(c, "affinity editor 1", "ok");
	expect_data(c, "tasks", "ok 2", data, sizeof data);
	assert_non_null(strstr(data, "cpus=1 "));
	tc_expect(c, "add ed2 nice=-3 cpus=0-1 pattern=2,40,5,10 runtime=100",
	    "ok 3");
	tc_expect(c, "add hog2", "ok 4");
	tc_expect(c, "kill hog2", "ok");
	expect_data(c, "tasks", "ok 4", data, sizeof data);
	assert_non_null(strstr(data, "name=hog2 kind=sim pid=- nice=0"));
	assert_non_null(strstr(data, "state=exited"));
	assert_non_null(strstr(data, "exit=killed"));
	tc_expect(c, "pause", "ok");
	tc_expect(c, "step", "ok");
	tc_expect(c, "step 3", "ok");
	tc_expect(c, "speed 2.5", "ok");
	expect_data(c, "status", "ok", data, sizeof data);
	assert_non_null(strstr(data, " speed=2.5 "));
	tc_expect(c, "resume", "ok");
	tc_expect(c, "speed 1", "ok");
	tc_expect(c, "subscribe 10", "ok");
	tc_expect(c, "unsubscribe", "ok");
	tc_expect(c, "quit", "ok");
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

/* Every kind of error names what was wrong; the connection stays up. */
static void
test_commands_err(void **state)
{
	struct td	 t;
	struct tconn	*c;

	td_init(&t, NULL, NULL);
	td_start(&t);
	assert_non_null(c = tc_open(&t));

	tc_expect(c, "frob", "err unknown command \"frob\" (try help)");
	tc_expect(c, "sleep foo 10", "err unknown task \"foo\"");
	tc_expect(c, "sleep 99 10", "err unknown task \"99\"");
	tc_expect(c, "sleep hog -5",
	    "err bad ms \"-5\": expected a whole number of ms, 1 to 100000000");
	tc_expect(c, "sleep hog 0", "err bad ms \"0\"");
	tc_expect(c, "sleep hog 10x", "err bad ms \"10x\"");
	tc_expect(c, "sleep hog 99999999999999999999999", "err bad ms");
	tc_expect(c, "sleep hog 1.5", "err bad ms");
	tc_expect(c, "sleep", "err usage: sleep <task> [ms]");
	tc_expect(c, "sleep hog 1 2", "err usage");
	tc_expect(c, "nice hog 20", "err bad nice \"20\": expected a whole "
	    "number in -20..19");
	tc_expect(c, "nice hog -21", "err bad nice");
	tc_expect(c, "nice hog 5abc", "err bad nice");
	tc_expect(c, "nice nobody 1", "err unknown task \"nobody\"");
	tc_expect(c, "affinity hog 7", "err cpu 7 is outside 0..1");
	tc_expect(c, "affinity hog x", "err bad cpu list");
	tc_expect(c, "kill nobody", "err unknown task");
	tc_expect(c, "table nobody", "err unknown task");
	tc_expect(c, "add hog", "err task \"hog\" exists");
	tc_expect(c, "add 12", "err bad name \"12\"");
	tc_expect(c, "add a/b", "err bad name");
	tc_expect(c, "add x pattern=2", "err bad pattern");
	tc_expect(c, "add x pattern=2,-1", "err bad pattern ms");
	tc_expect(c, "add x frob=1", "err bad option \"frob=1\"");
	tc_expect(c, "add x cpus=5", "err cpu 5 is outside");
	tc_expect(c, "spawn x -- /nonexistent/prog", "err cannot start "
	    "\"/nonexistent/prog\": No such file or directory");
	tc_expect(c, "spawn x /bin/true", "err usage");
	tc_expect(c, "spawn x nice=1 --", "err usage");
	tc_expect(c, "step 0", "err bad steps");
	tc_expect(c, "step -1", "err bad steps");
	tc_expect(c, "step 1 2", "err usage");
	tc_expect(c, "speed 0", "err bad speed \"0\": expected a number in "
	    "0.01..100");
	tc_expect(c, "speed 101", "err bad speed");
	tc_expect(c, "speed -1", "err bad speed");
	tc_expect(c, "speed 1e2", "err bad speed");
	tc_expect(c, "speed nan", "err bad speed");
	tc_expect(c, "subscribe 0", "err bad fps");
	tc_expect(c, "subscribe 121", "err bad fps");
	tc_expect(c, "status now", "err usage: status (no arguments)");
	/* Still usable after all that. */
	tc_expect(c, "status", "ok");
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

/* A 5000-byte line (whole or in pieces) errs; the next line works. */
static void
test_long_line(void **state)
{
	struct td	 t;
	struct tconn	*c;
	char		 big[5001], final[256];

	td_init(&t, NULL, NULL);
	td_start(&t);
	assert_non_null(c = tc_open(&t));
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	assert_int_equal(tc_cmd(c, big, NULL, 0, final, sizeof final), 0);
	assert_string_equal(final, "err line too long (max 4096 bytes)");
	tc_expect(c, "status", "ok");

	/* In pieces, the tail arriving later: one error, then usable. */
	tc_send(c, big, 3000);
	td_nap(50);		/* so the pieces arrive apart */
	tc_send(c, big, 3000);
	td_nap(50);
	tc_send(c, "tail\nstatus\n", 12);
	assert_int_equal(tc_line(c, final, sizeof final, TD_DEADLINE_MS), 0);
	assert_string_equal(final, "err line too long (max 4096 bytes)");
	assert_int_equal(tc_line(c, final, sizeof final, TD_DEADLINE_MS), 0);
	assert_true(strncmp(final, "status tick=", 12) == 0);
	assert_int_equal(tc_line(c, final, sizeof final, TD_DEADLINE_MS), 0);
	assert_string_equal(final, "ok");

	/* Exactly 4096 bytes is allowed (an unknown command). */
	memset(big, 'b', 4096);
	big[4096] = '\0';
	assert_int_equal(tc_cmd(c, big, NULL, 0, final, sizeof final), 0);
	assert_true(strncmp(final, "err unknown command \"bbb", 24) == 0);
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

/* Binary bytes, CRLF and blank lines. */
static void
test_binary(void **state)
{
	struct td	 t;
	struct tconn	*c;
	char		 line[256];
	static const char nul[] = "sta\0tus\n";
	static const char ctl[] = "status\x01\n";
	static const char high[] = "\xff\xfe\x80 hog\n";

	td_init(&t, NULL, NULL);
	td_start(&t);
	assert_non_null(c = tc_open(&t));
	tc_send(c, nul, sizeof nul - 1);
	assert_int_equal(tc_line(c, line, sizeof line, TD_DEADLINE_MS), 0);
	assert_string_equal(line, "err NUL byte in line");
	tc_send(c, ctl, sizeof ctl - 1);
	assert_int_equal(tc_line(c, line, sizeof line, TD_DEADLINE_MS), 0);
	assert_string_equal(line, "err control byte 0x01 in line");
	tc_send(c, high, sizeof high - 1);
	assert_int_equal(tc_line(c, line, sizeof line, TD_DEADLINE_MS), 0);
	assert_string_equal(line, "err unknown command \"\\xff\\xfe\\x80\" "
	    "(try help)");
	/* A blank line gets no reply; CRLF is accepted. */
	tc_send(c, "\n  \nstatus\r\n", 12);
	assert_int_equal(tc_line(c, line, sizeof line, TD_DEADLINE_MS), 0);
	assert_true(strncmp(line, "status tick=", 12) == 0);
	assert_int_equal(tc_line(c, line, sizeof line, TD_DEADLINE_MS), 0);
	assert_string_equal(line, "ok");
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

/* While paused the tick does not move; step N moves it by exactly N. */
static void
test_pause_step(void **state)
{
	struct td	 t;
	struct tconn	*c;
	long long	 t0;

	td_init(&t, NULL, NULL);
	td_start(&t);
	assert_non_null(c = tc_open(&t));
	tc_expect(c, "pause", "ok");
	t0 = tc_status(c, "tick");
	assert_true(t0 >= 0);
	assert_int_equal(tc_status(c, "paused"), 1);
	td_nap(100);		/* a window for the clock to move in */
	assert_int_equal(tc_status(c, "tick"), t0);
	tc_expect(c, "step 5", "ok");
	assert_int_equal(tc_status(c, "tick"), t0 + 5);
	tc_expect(c, "step", "ok");
	assert_int_equal(tc_status(c, "tick"), t0 + 6);
	tc_expect(c, "step 1000", "ok");
	assert_int_equal(tc_status(c, "tick"), t0 + 1006);
	/* step while running pauses first (documented). */
	tc_expect(c, "resume", "ok");
	assert_int_equal(tc_status(c, "paused"), 0);
	tc_expect(c, "step 2", "ok");
	assert_int_equal(tc_status(c, "paused"), 1);
	t0 = tc_status(c, "tick");
	tc_expect(c, "step 2", "ok");
	assert_int_equal(tc_status(c, "tick"), t0 + 2);
	/* The clock moves again after resume. */
	tc_expect(c, "resume", "ok");
	TD_UNTIL(tc_status(c, "tick") > t0 + 2,
	    "the clock to move past tick %lld after resume", t0 + 2);
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

/* Read frames until a line containing want shows up; 0 if it did. */
static int
wait_frame_line(struct tconn *c, const char *want, char *found, size_t len)
{
	char	line[8192];
	long	end = td_ms() + TD_DEADLINE_MS;

	while (td_ms() < end) {
		if (tc_line(c, line, sizeof line, (int)(end - td_ms())) != 0)
			break;
		if (strstr(line, want) != NULL) {
			if (found != NULL)
				snprintf(found, len, "%s", line);
			return (0);
		}
	}
	td_timed_out(TD_DEADLINE_MS, "a line with \"%s\"", want);
	return (-1);
}

/*
 * Scenario events fire live at their tick and reach subscribers as
 * event lines; captions as caption lines; actions by another client too.
 */
static void
test_events(void **state)
{
	struct td	 t;
	struct tconn	*sub, *c;
	char		 line[8192];
	long		 end;

	td_init(&t, NULL,
	    "name = \"events\";\ncpus = 1;\n"
	    "tasks = ( { name = \"hog\"; }, { name = \"ed\"; pattern = "
	    "[ 2, 40 ]; } );\n"
	    "events = (\n"
	    "  { at = 1000; action = \"sleep\"; task = \"hog\"; ms = 100; },\n"
	    "  { at = 1100; action = \"nice\"; task = \"hog\"; value = 5; },\n"
	    "  { at = 1200; action = \"caption\";\n"
	    "    text = \"The hog climbs\"; },\n"
	    "  { at = 1300; action = \"kill\"; task = \"ed\"; }\n);\n");
	td_start(&t);
	assert_non_null(sub = tc_open(&t));
	assert_non_null(c = tc_open(&t));
	/* Pause while subscribing: the events (at 1000+) must come after. */
	tc_expect(c, "pause", "ok");
	assert_true(tc_status(c, "tick") < 1000);
	tc_sendf(sub, "subscribe 30");
	assert_int_equal(tc_line(sub, line, sizeof line, TD_DEADLINE_MS), 0);
	assert_string_equal(line, "ok");
	assert_int_equal(tc_line(sub, line, sizeof line, TD_DEADLINE_MS), 0);
	assert_true(strncmp(line, "frame tick=", 11) == 0);
	assert_int_equal(td_field(line, "dropped"), 0);
	tc_expect(c, "resume", "ok");

	assert_int_equal(wait_frame_line(sub, "text=hog sleeps 100 ms", line,
	    sizeof line), 0);
	assert_true(strncmp(line, "event tick=1000 ", 16) == 0);
	assert_int_equal(wait_frame_line(sub, "text=hog nice 0 -> 5", line,
	    sizeof line), 0);
	assert_true(strncmp(line, "event tick=1100 ", 16) == 0);
	assert_int_equal(wait_frame_line(sub, "caption tick=1200 text=The hog "
	    "climbs", NULL, 0), 0);
	assert_int_equal(wait_frame_line(sub, "text=ed killed", NULL, 0), 0);
	/* Another client's action shows up too. */
	tc_expect(c, "nice hog -2", "ok");
	assert_int_equal(wait_frame_line(sub, "text=hog nice 5 -> -2", NULL,
	    0), 0);
	tc_expect(c, "pause", "ok");
	assert_int_equal(wait_frame_line(sub, "text=paused", NULL, 0), 0);
	/* Replies to the subscriber's own commands come between frames. */
	tc_sendf(sub, "unsubscribe");
	end = td_ms() + TD_DEADLINE_MS;
	for (;;) {
		if (td_ms() >= end) {
			td_timed_out(TD_DEADLINE_MS, "ok to unsubscribe");
			fail();
		}
		assert_int_equal(tc_line(sub, line, sizeof line,
		    TD_DEADLINE_MS), 0);
		if (strcmp(line, "ok") == 0)
			break;
	}
	tc_close(sub);
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

/* A frame is a well-formed block: header, cpus, tasks, end. */
static void
test_frame_format(void **state)
{
	struct td	 t;
	struct tconn	*c;
	char		 line[8192];
	long		 end;
	int		 cpus = 0, tasks = 0, whys = 0;

	td_init(&t, NULL, NULL);
	td_start(&t);
	assert_non_null(c = tc_open(&t));
	tc_expect(c, "pause", "ok");
	tc_sendf(c, "subscribe");
	assert_int_equal(tc_line(c, line, sizeof line, TD_DEADLINE_MS), 0);
	assert_string_equal(line, "ok");
	assert_int_equal(tc_line(c, line, sizeof line, TD_DEADLINE_MS), 0);
	assert_true(strncmp(line, "frame tick=", 11) == 0);
	assert_int_equal(td_field(line, "cpus"), 2);
	assert_int_equal(td_field(line, "tasks"), 2);
	assert_int_equal(td_field(line, "paused"), 1);
	end = td_ms() + TD_DEADLINE_MS;
	for (;;) {
		if (td_ms() >= end) {
			td_timed_out(TD_DEADLINE_MS, "the frame's end line");
			fail();
		}
		assert_int_equal(tc_line(c, line, sizeof line, TD_DEADLINE_MS),
		    0);
		if (strcmp(line, "end") == 0)
			break;
		if (strncmp(line, "cpu ", 4) == 0)
			cpus++;
		else if (strncmp(line, "task ", 5) == 0)
			tasks++;
		else if (strncmp(line, "why cpu=", 8) == 0)
			whys++;
		else
			assert_true(strncmp(line, "event ", 6) == 0 ||
			    strncmp(line, "caption ", 8) == 0 ||
			    strncmp(line, "runs cpu=", 9) == 0);
	}
	assert_int_equal(cpus, 2);
	assert_int_equal(tasks, 2);
	assert_true(whys <= 2);		/* at most one per CPU */
	/* Paused, nothing changes: the next frame comes with a step. */
	tc_sendf(c, "step 1");
	assert_int_equal(wait_frame_line(c, "text=stepped 1 tick", NULL, 0),
	    0);
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

/* The now= of a status line. */
static unsigned long long
status_now(struct tconn *c)
{
	char	data[1024], *p;

	expect_data(c, "status", "ok", data, sizeof data);
	assert_non_null(p = strstr(data, " now="));
	return (strtoull(p + 5, NULL, 10));
}

/*
 * table: a lone hog's descents, counted per stair; renice keeps columns.
 * The hog is added while paused, alone on CPU 0, so the count does not
 * depend on how long the daemon ran before the test got to it.
 */
static void
test_table(void **state)
{
	struct td	 t;
	struct tconn	*c;
	char		 data[8192], *p, *e;

	td_init(&t, NULL, "cpus = 2;\ntasks = ( { name = \"other\"; "
	    "cpus = \"1\"; } );\n");
	td_start(&t);
	assert_non_null(c = tc_open(&t));
	tc_expect(c, "pause", "ok");
	tc_expect(c, "add hog cpus=0", "ok 2");
	tc_expect(c, "step 400", "ok");
	expect_data(c, "table hog", "ok", data, sizeof data);
	/* now= is the present tick, wherever the test started its steps. */
	assert_non_null(p = strstr(data, " now="));
	assert_int_equal(strtoull(p + 5, &e, 10), status_now(c));
	memmove(p, e, strlen(e) + 1);
	assert_string_equal(data,
	    "table task=2 name=hog base=120 stairs=20 rr=10 rows=2 dropped=0 "
	    "descent=3\n"
	    "row iter=1 ticks=10,10,10,10,10,10,10,10,10,10,10,10,10,10,10,10,"
	    "10,10,10,10\n"
	    "row iter=2 ticks=0,20,10,10,10,10,10,10,10,10,10,10,10,10,10,10,"
	    "10,10,10,10\n");
	/* Renice to 10: 10 stairs now, but the columns it ran stay. */
	tc_expect(c, "nice hog 10", "ok");
	tc_expect(c, "step 5", "ok");
	expect_data(c, "table 2", "ok", data, sizeof data);
	assert_true(strncmp(data, "table task=2 name=hog base=130 stairs=20 "
	    "rr=10 rows=3 ", 54) == 0);
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

/*
 * The table follows the tick shown: after a seek it is the past's (not
 * the present's counts), and after a branch (a step from the past) the
 * ticks of the future gone are not counted.
 */
static void
test_table_past(void **state)
{
	struct td	 t;
	struct tconn	*c;
	char		 a[8192], a1[8192], b[8192], data[8192], cmd[64];
	long long	 tick;

	td_init(&t, NULL, "cpus = 2;\ntasks = ( { name = \"other\"; "
	    "cpus = \"1\"; } );\n");
	td_start(&t);
	assert_non_null(c = tc_open(&t));
	tc_expect(c, "pause", "ok");
	tc_expect(c, "add hog cpus=0", "ok 2");
	tc_expect(c, "step 300", "ok");
	tick = tc_status(c, "tick");
	expect_data(c, "table hog", "ok", a, sizeof a);
	tc_expect(c, "step 1", "ok");
	expect_data(c, "table hog", "ok", a1, sizeof a1);
	tc_expect(c, "nice hog 10", "ok");
	tc_expect(c, "step 500", "ok");
	expect_data(c, "table hog", "ok", b, sizeof b);
	assert_string_not_equal(a, b);

	/* The past's table, not the present's. */
	snprintf(cmd, sizeof cmd, "seek %lld", tick);
	tc_expect(c, cmd, "ok");
	expect_data(c, "table hog", "ok", data, sizeof data);
	assert_string_equal(data, a);

	/* A branch from there counts as if the future never was. */
	tc_expect(c, "step 1", "ok");
	assert_int_equal(tc_status(c, "live"), 1);
	assert_int_equal(tc_status(c, "tick"), tick + 1);
	expect_data(c, "table hog", "ok", data, sizeof data);
	assert_string_equal(data, a1);
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

/*
 * The descent the task is in (descent=), which the client's article table
 * highlights: right after a fall-off it is a row the table has not got
 * yet (the task has not run in it), at the present and after a seek back
 * to that tick; it is the descent count, not k (a sleep lowers k only).
 */
static void
test_table_descent(void **state)
{
	struct td	 t;
	struct tconn	*c;
	char		 a[8192], data[8192], cmd[64];
	long long	 tick;

	td_init(&t, NULL, "cpus = 2;\ntasks = ( { name = \"other\"; "
	    "cpus = \"1\"; } );\n");
	td_start(&t);
	assert_non_null(c = tc_open(&t));
	tc_expect(c, "pause", "ok");
	tc_expect(c, "add hog cpus=0", "ok 2");
	tc_expect(c, "step 399", "ok");
	expect_data(c, "table hog", "ok", data, sizeof data);
	assert_int_equal(td_field(data, "rows"), 2);
	assert_int_equal(td_field(data, "descent"), 2);
	/* Tick 400 falls off: descent 3 at 122, not run in yet. */
	tc_expect(c, "step 1", "ok");
	tick = tc_status(c, "tick");
	expect_data(c, "table hog", "ok", a, sizeof a);
	assert_int_equal(td_field(a, "rows"), 2);
	assert_int_equal(td_field(a, "descent"), 3);
	tc_expect(c, "step 1", "ok");
	expect_data(c, "table hog", "ok", data, sizeof data);
	assert_int_equal(td_field(data, "rows"), 3);
	assert_int_equal(td_field(data, "descent"), 3);
	/* A sleep climbs to 121, above descent 3's top: k is 2 again. */
	tc_expect(c, "sleep hog 5", "ok");
	tc_expect(c, "step 10", "ok");
	expect_data(c, "tasks", "ok", data, sizeof data);
	assert_non_null(strstr(data, "name=hog kind=sim pid=- nice=0 cpu=0 "
	    "rank=121 iter=2 "));
	expect_data(c, "table hog", "ok", data, sizeof data);
	assert_int_equal(td_field(data, "descent"), 3);
	/* The past: the same table, the same descent. */
	snprintf(cmd, sizeof cmd, "seek %lld", tick);
	tc_expect(c, cmd, "ok");
	expect_data(c, "table hog", "ok", data, sizeof data);
	assert_string_equal(data, a);
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

/* The ticks a table reply counts: dropped plus every row's cells. */
static long long
table_ticks(const char *data)
{
	const char	*p = data;
	char		*end;
	long long	 n = td_field(data, "dropped");

	while ((p = strstr(p, "ticks=")) != NULL) {
		p += 6;
		for (;;) {
			n += strtoll(p, &end, 10);
			p = end;
			if (*p != ',')
				break;
			p++;
		}
	}
	return (n);
}

/*
 * A history shorter than the session: the past's table is counted from
 * the oldest keyframe kept, and says so (since=).
 */
static void
test_table_since(void **state)
{
	struct td	 t;
	struct tconn	*c;
	char		 data[8192];

	td_init(&t, "history = 1;\n", "cpus = 1;\ntasks = ( { name = "
	    "\"hog\"; } );\n");
	td_start(&t);
	assert_non_null(c = tc_open(&t));
	tc_expect(c, "pause", "ok");
	tc_expect(c, "seek 0", "ok");
	expect_data(c, "table hog", "ok", data, sizeof data);
	assert_null(strstr(data, "since="));
	tc_expect(c, "step 22000", "ok");
	expect_data(c, "table hog", "ok", data, sizeof data);
	assert_null(strstr(data, "since="));	/* the present's: all */
	tc_expect(c, "seek 21500", "ok");
	expect_data(c, "table hog", "ok", data, sizeof data);
	/* Keyframes at 10000 and 20000 are kept (21500 - 1000 s). */
	assert_int_equal(td_field(data, "since"), 10000);
	assert_int_equal(table_ticks(data), 21500 - 10000);
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

/* --trace writes the CSV of SPEC.md section 3 live, every tick. */
static void
test_trace(void **state)
{
	struct td	 t;
	struct tconn	*c;
	char		 trace[PATH_MAX + 32], line[256], first[256];
	char		*extra[] = { "--scenario", t.scen, "--trace", trace,
			    NULL };
	long long	 tick;
	long		 rows = 0, lasttick = -1;
	FILE		*f;

	td_init(&t, NULL, NULL);
	snprintf(trace, sizeof trace, "%s/trace.csv", t.dir);
	td_start_args(&t, extra);
	assert_non_null(c = tc_open(&t));
	tc_expect(c, "pause", "ok");
	tick = tc_status(c, "tick");
	tc_expect(c, "step 10", "ok");
	assert_non_null(f = fopen(trace, "r"));
	assert_non_null(fgets(first, sizeof first, f));
	assert_string_equal(first, "tick,cpu,task,rank,iter,left\n");
	while (fgets(line, sizeof line, f) != NULL) {
		rows++;
		lasttick = strtol(line, NULL, 10);
		if (rows == 1)
			assert_true(strncmp(line, "0,0,", 4) == 0);
	}
	fclose(f);
	/* Two CPUs, a row each per tick run, flushed at every step. */
	assert_int_equal(rows, (tick + 10) * 2);
	assert_int_equal(lasttick, tick + 9);
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

/*
 * Policies live (SPEC.md section 6): a scenario's policy key; status and
 * frames say policy=NAME; "policy NAME" switches between ticks, every
 * task starting afresh under it; an unknown name is refused with the list.
 */
static void
test_policy(void **state)
{
	struct td	 t;
	struct tconn	*c;
	char		 data[16384];

	td_init(&t, NULL, "cpus = 1;\npolicy = \"rr\";\ntasks = ( "
	    "{ name = \"hog\"; nice = 5; }, { name = \"ed\"; "
	    "pattern = [ 2, 40 ]; } );\n");
	td_start(&t);
	assert_non_null(c = tc_open(&t));
	tc_expect(c, "pause", "ok");
	expect_data(c, "status", "ok", data, sizeof data);
	assert_non_null(strstr(data, " policy=rr"));
	tc_expect(c, "step 3", "ok");
	/* rr: rank 120 + nice. */
	expect_data(c, "tasks", "ok 2", data, sizeof data);
	assert_non_null(strstr(data, "name=hog kind=sim pid=- nice=5 "));
	assert_non_null(strstr(data, " rank=125 "));
	tc_expect(c, "policy o1", "ok");
	expect_data(c, "status", "ok", data, sizeof data);
	assert_non_null(strstr(data, " policy=o1"));
	tc_expect(c, "step", "ok");
	/* o1 afresh: sleep_avg 0, prio static + 5 = 130 for nice 5. */
	expect_data(c, "tasks", "ok 2", data, sizeof data);
	assert_non_null(strstr(data, " rank=130 "));
	tc_expect(c, "policy staircase", "ok");
	tc_expect(c, "step", "ok");
	expect_data(c, "tasks", "ok 2", data, sizeof data);
	assert_non_null(strstr(data, "name=hog kind=sim pid=- nice=5 "));
	tc_expect(c, "policy bfs", "err unknown policy \"bfs\" (known: "
	    "staircase, o1, cfs, eevdf, rr)");
	tc_expect(c, "subscribe", "ok");
	tc_expect(c, "unsubscribe", "ok");
	tc_expect(c, "quit", "ok");
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

/*
 * An affinity wider than the task's group allows is kept (the group's
 * CPUs may change), and the event says where the task may run now: on
 * its group's CPUs only.
 */
static void
test_affinity_group(void **state)
{
	struct td	 t;
	struct tconn	*sub, *c;
	char		 line[8192];

	td_init(&t, NULL,
	    "name = \"g\";\ncpus = 2;\n"
	    "groups = ( { name = \"batch\"; cpus = \"1\"; } );\n"
	    "tasks = ( { name = \"h\"; group = \"batch\"; } );\n");
	td_start(&t);
	assert_non_null(sub = tc_open(&t));
	assert_non_null(c = tc_open(&t));
	tc_expect(sub, "subscribe 30", "ok");
	tc_expect(c, "affinity h 0-1", "ok");
	assert_int_equal(wait_frame_line(sub, "text=h cpus 0-255 -> 0-1 (it "
	    "runs on 1 only: its group batch has 1)", NULL, 0), 0);
	tc_expect(c, "affinity h 1", "ok");
	assert_int_equal(wait_frame_line(sub, "text=h cpus 0-1 -> 1", line,
	    sizeof line), 0);
	assert_null(strstr(line, "only"));
	tc_expect(c, "affinity h 0", "err task h may not run on cpus 0 in "
	    "group batch");
	tc_close(sub);
	tc_close(c);
	td_stop(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_commands_ok),
		cmocka_unit_test(test_commands_err),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_binary),
		cmocka_unit_test(test_pause_step),
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_frame_format),
		cmocka_unit_test(test_trace),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_table_past),
		cmocka_unit_test(test_table_descent),
		cmocka_unit_test(test_table_since),
		cmocka_unit_test(test_policy),
		cmocka_unit_test(test_affinity_group),
	};

	signal(SIGPIPE, SIG_IGN);
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
