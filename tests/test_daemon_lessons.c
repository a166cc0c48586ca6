/*
 * test_daemon_lessons.c -- a scenario's lesson events in a real stairsd
 * (SPEC.md section 7): the scenario's speed starts the clock; a pause
 * event stops it right after its tick (one at tick 0 before anything
 * runs, as the session opens), its text the caption; a speed
 * event sets the speed; an ask pauses with the question as the caption,
 * and the next resume shows the answer; marks and pauses are narrated
 * as event lines, and so are captions, questions and answers (their
 * text: a client keeps each on screen, and its event log keeps them);
 * `step event` stops at the next event or caption.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "daemon_harness.h"

/* Read frames until a line containing want shows up; 0 if it did. */
static int
wait_frame_line(struct tconn *c, const char *want)
{
	char	line[8192];
	long	end = td_ms() + TD_DEADLINE_MS;

	while (td_ms() < end) {
		if (tc_line(c, line, sizeof line, (int)(end - td_ms())) != 0)
			break;
		if (strstr(line, want) != NULL)
			return (0);
	}
	td_timed_out(TD_DEADLINE_MS, "a line with \"%s\"", want);
	return (-1);
}

/* The status line's speed= word ("0.5", "20"). */
static void
status_speed(struct tconn *c, char *buf, size_t len)
{
	char	data[4096], final[256], *p;

	assert_int_equal(tc_cmd(c, "status", data, sizeof data, final,
	    sizeof final), 0);
	assert_non_null(p = strstr(data, " speed="));
	p += 7;
	snprintf(buf, len, "%.*s", (int)strcspn(p, " \n"), p);
}

static const char lesson[] =
    "name = \"lesson\";\n"
    "speed = 0.5;\n"
    "cpus = 1;\n"
    "tasks = ( { name = \"hog\"; }, { name = \"ed\"; pattern = [ 2, 40 ]; "
    "} );\n"
    "events = (\n"
    "  { at = 0; action = \"pause\"; text = \"Ready?\"; },\n"
    "  { at = 40; action = \"mark\"; text = \"Part one\"; },\n"
    "  { at = 50; action = \"speed\"; value = 20; },\n"
    "  { at = 300; action = \"pause\"; text = \"Stop here\"; },\n"
    "  { at = 600; action = \"ask\"; text = \"Who runs next?\";\n"
    "    answer = \"ed: it just woke, one stair up\"; }\n"
    ");\n";

/*
 * The whole lesson, live: paused at tick 0 at the scenario's speed (not
 * the configuration's), a speed event, a pause at exactly its tick, an
 * ask and its answer on resume.
 */
static void
test_lesson(void **state)
{
	struct td	 t;
	struct tconn	*sub, *c;
	char		 line[8192], speed[32];
	long		 end;

	td_init(&t, "realtime = false;\nspeed = 3;\n", lesson);
	td_start(&t);
	assert_non_null(c = tc_open(&t));
	assert_non_null(sub = tc_open(&t));

	/* The pause at tick 0: acted on as the session opened. */
	TD_UNTIL(tc_status(c, "paused") == 1, "the pause at tick 0");
	assert_int_equal(tc_status(c, "tick"), 0);
	status_speed(c, speed, sizeof speed);
	assert_string_equal(speed, "0.5");	/* the scenario's, not 3 */
	tc_sendf(sub, "subscribe 30");
	assert_int_equal(tc_line(sub, line, sizeof line, TD_DEADLINE_MS), 0);
	assert_string_equal(line, "ok");
	assert_int_equal(wait_frame_line(sub, "caption tick=0 text=Ready?"),
	    0);

	/* Resume: the mark and the speed event, then the pause at 300. */
	tc_expect(c, "resume", "ok");
	assert_int_equal(wait_frame_line(sub, "text=mark: Part one"), 0);
	assert_int_equal(wait_frame_line(sub, "text=speed 0.5 -> 20"), 0);
	assert_int_equal(wait_frame_line(sub, "caption tick=300 text=Stop "
	    "here"), 0);
	/* Its text as an event line too, after it in the frame. */
	assert_int_equal(wait_frame_line(sub, "event tick=300 text=caption: "
	    "Stop here"), 0);
	TD_UNTIL(tc_status(c, "paused") == 1, "the pause at tick 300");
	/* Exactly after its tick, however many ticks the clock had due. */
	assert_int_equal(tc_status(c, "tick"), 301);
	status_speed(c, speed, sizeof speed);
	assert_string_equal(speed, "20");
	td_nap(100);
	assert_int_equal(tc_status(c, "tick"), 301);

	/* The ask: paused after 600, the question is the caption. */
	tc_expect(c, "resume", "ok");
	assert_int_equal(wait_frame_line(sub, "caption tick=600 text=Who runs "
	    "next?"), 0);
	TD_UNTIL(tc_status(c, "paused") == 1, "the pause of the ask at 600");
	assert_int_equal(tc_status(c, "tick"), 601);
	assert_int_equal(wait_frame_line(sub, "event tick=600 text=question: "
	    "Who runs next?"), 0);
	assert_int_equal(wait_frame_line(sub, "text=paused by the scenario: "
	    "a question"), 0);

	/* The next resume shows the answer, and the clock goes on. */
	tc_expect(c, "resume", "ok");
	assert_int_equal(wait_frame_line(sub, "caption tick=600 text=ed: it "
	    "just woke, one stair up"), 0);
	/* Its text as an event line too, after it in the frame. */
	assert_int_equal(wait_frame_line(sub, "event tick=600 text=answer: ed: "
	    "it just woke, one stair up"), 0);
	TD_UNTIL(tc_status(c, "tick") > 700, "the clock to go on");
	assert_int_equal(tc_status(c, "paused"), 0);
	/* A pause and resume later: no answer again, the caption stays. */
	tc_expect(c, "pause", "ok");
	tc_expect(c, "resume", "ok");
	tc_sendf(sub, "unsubscribe");
	end = td_ms() + TD_DEADLINE_MS;
	for (;;) {
		if (td_ms() >= end) {
			td_timed_out(TD_DEADLINE_MS, "ok to unsubscribe");
			fail();
		}
		assert_int_equal(tc_line(sub, line, sizeof line,
		    TD_DEADLINE_MS), 0);
		if (strncmp(line, "caption ", 8) == 0 &&
		    strstr(line, "text=ed: it just woke") == NULL)
			fail_msg("the caption changed: %s", line);
		if (strcmp(line, "ok") == 0)
			break;
	}
	tc_close(sub);
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

static const char first[] =
    "name = \"first\";\n"
    "speed = 0.01;\n"
    "cpus = 1;\n"
    "tasks = ( { name = \"hog\"; } );\n"
    "events = (\n"
    "  { at = 0; action = \"pause\"; text = \"Before anything\"; },\n"
    "  { at = 3; action = \"caption\"; text = \"Later\"; }\n"
    ");\n";

/*
 * Tick 0's lesson events act before any command (issue 27, item 9): at
 * speed 0.01 the clock's first tick is 100 ms away, and a command that
 * came before it used to find the clock running and no caption.  Now
 * the first command finds the lesson paused at tick 0 with its caption;
 * the resume runs tick 0 without pausing again.
 */
static void
test_first_tick(void **state)
{
	struct td	 t;
	struct tconn	*c;

	td_init(&t, NULL, first);
	td_start(&t);
	assert_non_null(c = tc_open(&t));
	assert_int_equal(tc_status(c, "paused"), 1);
	assert_int_equal(tc_status(c, "tick"), 0);
	tc_expect(c, "subscribe 30", "ok");
	assert_int_equal(wait_frame_line(c, "caption tick=0 text=Before "
	    "anything"), 0);
	tc_expect(c, "unsubscribe", "ok");
	/* Space: tick 0 runs and the clock goes on (no second pause). */
	tc_expect(c, "speed 1", "ok");
	tc_expect(c, "resume", "ok");
	TD_UNTIL(tc_status(c, "tick") > 10, "the clock to go on past 0");
	assert_int_equal(tc_status(c, "paused"), 0);
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

/*
 * A step through a pause or an ask: the steps all run (the clock is
 * paused already); the question is the caption and the next resume
 * shows the answer.
 */
static void
test_step_through(void **state)
{
	struct td	 t;
	struct tconn	*sub, *c;
	char		 line[8192];

	td_init(&t, NULL, lesson);
	td_start(&t);
	assert_non_null(c = tc_open(&t));
	assert_non_null(sub = tc_open(&t));
	TD_UNTIL(tc_status(c, "paused") == 1, "the pause at tick 0");
	tc_expect(c, "step 701", "ok");
	assert_int_equal(tc_status(c, "tick"), 701);
	assert_int_equal(tc_status(c, "paused"), 1);
	tc_sendf(sub, "subscribe 30");
	assert_int_equal(tc_line(sub, line, sizeof line, TD_DEADLINE_MS), 0);
	assert_string_equal(line, "ok");
	assert_int_equal(wait_frame_line(sub, "caption tick=600 text=Who runs "
	    "next?"), 0);
	tc_expect(c, "resume", "ok");
	assert_int_equal(wait_frame_line(sub, "text=ed: it just woke"), 0);
	tc_close(sub);
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

static const char moments[] =
    "name = \"moments\";\n"
    "cpus = 1;\n"
    "tasks = ( { name = \"hog\"; } );\n"
    "events = (\n"
    "  { at = 0; action = \"pause\"; },\n"
    "  { at = 50; action = \"caption\"; text = \"Look\"; },\n"
    "  { at = 120; action = \"sleep\"; task = \"hog\"; ms = 5; }\n"
    ");\n";

/*
 * step event: from the pause at tick 0 (before it runs), to the caption
 * at 50 (its tick run: the clock shows 51), then to the sleep at 120 (its event
 * line reaches a subscriber), then at most N ticks when nothing comes
 * sooner, said as "no event"; the reply counts the ticks run.  A bad
 * count or another word is refused.
 */
static void
test_step_event(void **state)
{
	struct td	 t;
	struct tconn	*sub, *c;
	char		 line[8192];

	td_init(&t, NULL, moments);
	td_start(&t);
	assert_non_null(c = tc_open(&t));
	assert_non_null(sub = tc_open(&t));
	TD_UNTIL(tc_status(c, "paused") == 1, "the pause at tick 0");
	assert_int_equal(tc_status(c, "tick"), 0);
	tc_sendf(sub, "subscribe 30");
	assert_int_equal(tc_line(sub, line, sizeof line, TD_DEADLINE_MS), 0);
	assert_string_equal(line, "ok");

	tc_expect(c, "step event", "ok 51");
	assert_int_equal(tc_status(c, "tick"), 51);
	assert_int_equal(tc_status(c, "paused"), 1);
	assert_int_equal(wait_frame_line(sub, "caption tick=50 text=Look"), 0);
	/* Its text as an event line too, after it in the frame. */
	assert_int_equal(wait_frame_line(sub, "event tick=50 text=caption: "
	    "Look"), 0);
	tc_expect(c, "step event", "ok 70");
	assert_int_equal(tc_status(c, "tick"), 121);
	assert_int_equal(wait_frame_line(sub, "event tick=120 text=hog sleeps "
	    "5 ms"), 0);
	/* The hog wakes at 125 and runs again at once: no event before. */
	tc_expect(c, "step event 3", "ok 3");
	assert_int_equal(tc_status(c, "tick"), 124);
	assert_int_equal(wait_frame_line(sub, "text=stepped 3 ticks: no event"),
	    0);
	/* A plain step still says how many. */
	tc_expect(c, "step 2", "ok");
	assert_int_equal(tc_status(c, "tick"), 126);

	tc_expect(c, "step event 0", "err bad steps");
	tc_expect(c, "step event x", "err bad steps");
	tc_expect(c, "step 3 event", "err usage: step [event] [N]");
	tc_expect(c, "step later", "err bad steps");
	tc_close(sub);
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

/* A lesson at 0.5, then 20 from tick 50, then 4 from 200; its hog. */
#define SLOW(name, hog)							\
    "name = \"" name "\";\n"						\
    "speed = 0.5;\n"							\
    "cpus = 1;\n"								\
    "tasks = ( { name = \"hog\";" hog " } );\n"				\
    "events = (\n"								\
    "  { at = 0; action = \"pause\"; },\n"					\
    "  { at = 50; action = \"speed\"; value = 20; },\n"			\
    "  { at = 200; action = \"speed\"; value = 4; }\n"			\
    ");\n"
static const char slow[] = SLOW("slow", "");

/*
 * Start a daemon (configured speed 3) on a SLOW lesson and run it to tick
 * 401 (it stopped itself at 0): at the lesson's speed 4.
 */
static struct tconn *
slow_open(struct td *t, const char *scenario)
{
	struct tconn	*c;
	char		 speed[32];

	td_init(t, "realtime = false;\nspeed = 3;\n", scenario);
	td_start(t);
	assert_non_null(c = tc_open(t));
	TD_UNTIL(tc_status(c, "paused") == 1, "the pause at tick 0");
	tc_expect(c, "step 401", "ok");
	status_speed(c, speed, sizeof speed);
	assert_string_equal(speed, "4");
	return (c);
}

/*
 * A seek restores the speed the lesson had at that tick (the last speed
 * event at or before it, else the scenario's), and resuming from there
 * plays the speed events again: the slow part replays slowly.
 */
static void
test_seek_speed(void **state)
{
	struct td	 t;
	struct tconn	*c;
	char		 speed[32];

	c = slow_open(&t, slow);
	tc_expect(c, "seek 120", "ok");
	status_speed(c, speed, sizeof speed);
	assert_string_equal(speed, "20");
	tc_expect(c, "seek 30", "ok");
	status_speed(c, speed, sizeof speed);
	assert_string_equal(speed, "0.5");	/* the scenario's, not 3 */
	tc_expect(c, "seek 200", "ok");
	status_speed(c, speed, sizeof speed);
	assert_string_equal(speed, "4");	/* at or before the tick */
	/* Back to the present: the lesson's speed there. */
	tc_expect(c, "seek 401", "ok");
	status_speed(c, speed, sizeof speed);
	assert_string_equal(speed, "4");

	/*
	 * From tick 40 on again: the speed event at 50 plays again.  A
	 * step, not resume: at speed 20 the clock runs from 50 to the next
	 * speed event at 200 in 7.5 ms, before a status could see 20.
	 */
	tc_expect(c, "seek 40", "ok");
	status_speed(c, speed, sizeof speed);
	assert_string_equal(speed, "0.5");
	tc_expect(c, "step 15", "ok");
	assert_int_equal(tc_status(c, "tick"), 55);	/* past 50 */
	status_speed(c, speed, sizeof speed);
	assert_string_equal(speed, "20");
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

/* The same lesson with a real task (a rewind views the past only). */
static const char slow_real[] = SLOW("slow-real",
    " command = [ \"stairs-load\" ];");

/*
 * With real tasks a seek only views the past, and resuming goes back to
 * the present: at the present's speed, not the tick viewed (it stayed
 * at 0.5 for good, the speed events after it never to play again).
 */
static void
test_seek_speed_real(void **state)
{
	struct td	 t;
	struct tconn	*c;
	char		 speed[32];

	c = slow_open(&t, slow_real);
	tc_expect(c, "seek 30", "ok");
	status_speed(c, speed, sizeof speed);
	assert_string_equal(speed, "0.5");
	tc_expect(c, "resume", "ok");
	status_speed(c, speed, sizeof speed);
	assert_string_equal(speed, "4");	/* the present's */
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

static const char falls[] =
    "name = \"falls\";\n"
    "cpus = 2;\n"
    "tasks = (\n"
    "  { name = \"hog\"; cpus = \"0\"; },\n"
    "  { name = \"hog2\"; cpus = \"0\"; },\n"
    "  { name = \"cruncher\"; cpus = \"1\"; },\n"
    "  { name = \"editor\"; cpus = \"1\"; pattern = [ 2, 40 ]; }\n"
    ");\n"
    "events = ( { at = 0; action = \"pause\"; } );\n";

/*
 * A subscriber that steps to the next event gets, without asking again,
 * the frame of the tick the step reached soon after the step's "ok":
 * the frame clock goes on while paused.  Each round also sends a `view`
 * behind the step (it waits for the step's reply) on odd rounds.
 */
static void
test_step_event_frame(void **state)
{
	struct td	 t;
	struct tconn	*c;
	char		 line[8192];
	long long	 tick, want, last = -1;
	long		 end;
	int		 i, got, oks, inwant = 0;

	td_init(&t, NULL, falls);
	td_start(&t);
	assert_non_null(c = tc_open(&t));
	TD_UNTIL(tc_status(c, "paused") == 1, "the pause at tick 0");
	tc_expect(c, "subscribe 30 delta runs view kruns", "ok");
	for (i = 0; i < 20; i++) {
		tick = tc_status(c, "tick");
		assert_true(tick >= 0);
		want = -1;
		oks = 0;
		td_nap(i * 7 % 33);
		tc_sendf(c, "step event 500");
		if (i % 2 == 1) {
			tc_sendf(c, "view task=%d", i);
			oks = 1;
		}
		if (i % 4 == 3) {
			tc_sendf(c, "table 2");
			tc_sendf(c, "status");
			oks += 2;
		}
		end = td_ms() + 1000;
		got = 0;
		while ((!got || oks > 0) && td_ms() < end) {
			if (tc_line(c, line, sizeof line,
			    (int)(end - td_ms())) != 0)
				break;
			if (want < 0 && strncmp(line, "ok ", 3) == 0) {
				want = tick + strtoll(line + 3, NULL, 10);
				end = td_ms() + 1000;
			} else if (strcmp(line, "ok") == 0)
				oks--;
			else if (strncmp(line, "frame ", 6) == 0) {
				last = td_field(line, "tick");
				inwant = want >= 0 && last == want;
			} else if (strcmp(line, "end") == 0 && inwant)
				got = 1;	/* the whole frame read */
		}
		if (!got)
			fail_msg("round %d: step from %lld: ok for tick %lld, "
			    "last frame tick %lld, none with it in 1 s", i,
			    tick, want, last);
	}
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lesson),
		cmocka_unit_test(test_first_tick),
		cmocka_unit_test(test_seek_speed),
		cmocka_unit_test(test_seek_speed_real),
		cmocka_unit_test(test_step_through),
		cmocka_unit_test(test_step_event),
		cmocka_unit_test(test_step_event_frame),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
