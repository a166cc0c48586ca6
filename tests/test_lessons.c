/*
 * test_lessons.c -- the lesson additions to scenarios (SPEC.md section
 * 7): the top-level speed and the pause, speed, mark, ask and policy
 * events.  Loading: every wrong key, type and range is "FILE:LINE:
 * message".  The lesson (session/lesson.c): it fires each at its tick,
 * makes a pause's text and an ask's question the caption and the answer
 * on lesson_answer; the engine switches the policy itself at a policy
 * event's tick, inside the tick, exactly as engine_set_policy between
 * ticks, and a lesson changes nothing it decides.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine.h"
#include "lesson.h"
#include "scenario.h"
#include "staircase.h"

/* Load text that must fail; check "bad.cfg:LINE: " and each word. */
static void
expect_error(const char *text, int line, ...)
{
	struct scenario	*sc;
	va_list		 ap;
	const char	*word;
	char		*cause = NULL, prefix[64];

	sc = scenario_load_string(text, "bad.cfg", &cause);
	if (sc != NULL)
		fail_msg("loaded but should not have:\n%s", text);
	assert_non_null(cause);
	snprintf(prefix, sizeof prefix, "bad.cfg:%d: ", line);
	if (strncmp(cause, prefix, strlen(prefix)) != 0)
		fail_msg("want \"%s...\", got \"%s\"", prefix, cause);
	va_start(ap, line);
	while ((word = va_arg(ap, const char *)) != NULL) {
		if (strstr(cause, word) == NULL)
			fail_msg("\"%s\" lacks \"%s\"", cause, word);
	}
	va_end(ap);
	free(cause);
}

/* Load text that must succeed. */
static struct scenario *
load_ok(const char *text)
{
	struct scenario	*sc;
	char		*cause = NULL;

	sc = scenario_load_string(text, "ok.cfg", &cause);
	if (sc == NULL)
		fail_msg("did not load: %s", cause);
	return (sc);
}

static const char lesson[] =
"name = \"lesson\";\n"						/* 1 */
"speed = 2.5;\n"						/* 2 */
"cpus = 1;\n"							/* 3 */
"tasks = ( { name = \"hog\"; }, { name = \"ed\"; pattern = [ 2, 8 ]; } );\n"
"events = (\n"							/* 5 */
"  { at = 30; action = \"mark\"; text = \"Chapter two\"; },\n"	/* 6 */
"  { at = 10; action = \"mark\"; text = \"Chapter one\"; },\n"	/* 7 */
"  { at = 12; action = \"pause\"; },\n"				/* 8 */
"  { at = 14; action = \"pause\"; text = \"Look at ed\"; },\n"	/* 9 */
"  { at = 16; action = \"speed\"; value = 0.5; },\n"		/* 10 */
"  { at = 17; action = \"speed\"; value = 100; },\n"		/* 11 */
"  { at = 20; action = \"ask\"; text = \"Who runs next?\";\n"	/* 12 */
"    answer = \"ed: it just woke\"; },\n"			/* 13 */
"  { at = 25; action = \"policy\"; value = \"cfs\"; },\n"	/* 14 */
"  { at = 30; action = \"mark\"; text = \"Chapter three\"; }\n"	/* 15 */
");\n";

/* Every lesson key and action loads with its fields. */
static void
test_load(void **state)
{
	struct scenario		*sc;
	struct scenario_event	*ev;
	struct scenario_mark	*m;
	size_t			 n;

	sc = load_ok(lesson);
	assert_int_equal(sc->has_speed, 1);
	assert_true(sc->speed == 2.5);
	assert_int_equal(sc->nevents, 9);
	ev = sc->events;
	assert_int_equal(ev[0].action, SCENARIO_MARK);
	assert_string_equal(ev[0].text, "Chapter two");
	assert_int_equal(ev[2].action, SCENARIO_PAUSE);
	assert_null(ev[2].text);
	assert_null(ev[2].task);
	assert_int_equal(ev[3].action, SCENARIO_PAUSE);
	assert_string_equal(ev[3].text, "Look at ed");
	assert_int_equal(ev[4].action, SCENARIO_SPEED);
	assert_true(ev[4].speed == 0.5);
	assert_true(ev[5].speed == 100);
	assert_int_equal(ev[6].action, SCENARIO_ASK);
	assert_string_equal(ev[6].text, "Who runs next?");
	assert_string_equal(ev[6].answer, "ed: it just woke");
	assert_int_equal(ev[6].line, 12);
	assert_int_equal(ev[7].action, SCENARIO_POLICY);
	assert_ptr_equal(ev[7].policy, &engine_policy_cfs);

	/* Marks in time order, file order within a tick. */
	m = scenario_marks(sc, &n);
	assert_int_equal(n, 3);
	assert_int_equal(m[0].at, 10);
	assert_string_equal(m[0].text, "Chapter one");
	assert_int_equal(m[1].at, 30);
	assert_string_equal(m[1].text, "Chapter two");
	assert_int_equal(m[2].at, 30);
	assert_string_equal(m[2].text, "Chapter three");
	free(m);
	scenario_free(sc);

	/* No marks: none, and no array. */
	sc = load_ok("tasks = ( { name = \"a\"; } );\n");
	assert_int_equal(sc->has_speed, 0);
	m = scenario_marks(sc, &n);
	assert_int_equal(n, 0);
	assert_null(m);
	scenario_free(sc);

	/* An integer speed; the speed command's bounds, both ends. */
	sc = load_ok("speed = 100;\nevents = ( { at = 1; action = \"speed\"; "
	    "value = 0.01; } );\n");
	assert_true(sc->speed == 100);
	assert_true(sc->events[0].speed == 0.01);
	scenario_free(sc);
}

/* Every wrong key, type and range, with its line. */
static void
test_errors(void **state)
{
	/* The top-level speed. */
	expect_error("cpus = 1;\nspeed = 0;\n", 2,
	    "speed 0 is outside 0.01..100", NULL);
	expect_error("speed = 100.5;\n", 1, "speed 100.5 is outside", NULL);
	expect_error("speed = -1;\n", 1, "speed -1 is outside", NULL);
	expect_error("speed = \"fast\";\n", 1,
	    "speed must be a number, not a string", NULL);
	expect_error("speeed = 1;\n", 1, "unknown top-level key \"speeed\"",
	    "speed, cpus", NULL);

	/* Unknown actions name the lesson ones too. */
	expect_error("events = (\n { at = 1; action = \"quiz\"; }\n);\n", 2,
	    "unknown action \"quiz\"", "pause, speed, mark, ask or policy",
	    NULL);
	expect_error("events = (\n { at = 1; text = \"x\"; }\n);\n", 2,
	    "event has no action", "ask or policy", NULL);
	expect_error("events = (\n { at = 1; action = \"ask\";\n"
	    "   text = \"q\"; answer = \"a\"; why = 1; }\n);\n", 3,
	    "unknown event key \"why\"", "text, answer", NULL);
	expect_error("events = (\n { action = \"mark\"; text = \"a\"; }\n);\n",
	    2, "mark event has no at", NULL);

	/* ask's choices (SPEC.md section 12): 1 to 9 texts, none empty. */
	expect_error("events = (\n { at = 1; action = \"ask\";\n"
	    "   text = \"q\"; answer = \"a\"; choices = \"yes\"; }\n);\n",
	    3, "choices must be a list of texts", NULL);
	expect_error("events = (\n { at = 1; action = \"ask\";\n"
	    "   text = \"q\"; answer = \"a\"; choices = [ ]; }\n);\n",
	    3, "choices has 0 items; a question has 1 to 9", NULL);
	expect_error("events = (\n { at = 1; action = \"ask\";\n"
	    "   text = \"q\"; answer = \"a\";\n"
	    "   choices = [ \"1\", \"2\", \"3\", \"4\", \"5\", \"6\", "
	    "\"7\", \"8\", \"9\", \"10\" ]; }\n);\n",
	    4, "choices has 10 items", NULL);
	expect_error("events = (\n { at = 1; action = \"ask\";\n"
	    "   text = \"q\"; answer = \"a\"; choices = [ \"x\", \"\" ]; }"
	    "\n);\n", 3, "choice is empty", NULL);
	expect_error("events = (\n { at = 1; action = \"caption\";\n"
	    "   text = \"q\"; choices = [ \"x\" ]; }\n);\n", 3,
	    "key \"choices\" does not belong in a caption event", NULL);

	/* pause: an optional text, nothing else. */
	expect_error("tasks = ( { name = \"a\"; } );\nevents = (\n"
	    " { at = 1; action = \"pause\";\n   task = \"a\"; }\n);\n", 4,
	    "key \"task\" does not belong in a pause event", NULL);
	expect_error("events = (\n { at = 1; action = \"pause\";\n"
	    "   value = 3; }\n);\n", 3,
	    "key \"value\" does not belong in a pause event", NULL);
	expect_error("events = (\n { at = 1; action = \"pause\";\n"
	    "   text = 3; }\n);\n", 3,
	    "pause text must be a string, not an integer", NULL);
	expect_error("events = (\n { at = 1; action = \"pause\";\n"
	    "   text = \"\"; }\n);\n", 3, "pause text is empty", NULL);

	/* speed: a number in 0.01..100. */
	expect_error("events = (\n { at = 1; action = \"speed\"; }\n);\n", 2,
	    "speed event has no value (ticks per ms, 0.01..100)", NULL);
	expect_error("events = (\n { at = 1; action = \"speed\";\n"
	    "   value = \"2\"; }\n);\n", 3,
	    "speed value must be a number, not a string", NULL);
	expect_error("events = (\n { at = 1; action = \"speed\";\n"
	    "   value = 0.001; }\n);\n", 3,
	    "speed value 0.001 is outside 0.01..100", NULL);
	expect_error("events = (\n { at = 1; action = \"speed\";\n"
	    "   value = 1000; }\n);\n", 3,
	    "speed value 1000 is outside 0.01..100", NULL);
	expect_error("events = (\n { at = 1; action = \"speed\"; value = 2;\n"
	    "   text = \"faster\"; }\n);\n", 3,
	    "key \"text\" does not belong in a speed event", NULL);

	/* mark: a non-empty text. */
	expect_error("events = (\n { at = 1; action = \"mark\"; }\n);\n", 2,
	    "mark event has no text (the chapter's name)", NULL);
	expect_error("events = (\n { at = 1; action = \"mark\";\n"
	    "   text = \"\"; }\n);\n", 3, "mark text is empty", NULL);
	expect_error("events = (\n { at = 1; action = \"mark\";\n"
	    "   text = [ \"a\" ]; }\n);\n", 3,
	    "mark text must be a string, not an array", NULL);
	expect_error("events = (\n { at = 1; action = \"mark\"; text = \"a\";\n"
	    "   answer = \"b\"; }\n);\n", 3,
	    "key \"answer\" does not belong in a mark event", NULL);

	/* ask: a question and its answer. */
	expect_error("events = (\n { at = 1; action = \"ask\";\n"
	    "   answer = \"b\"; }\n);\n", 2,
	    "ask event has no text (the question)", NULL);
	expect_error("events = (\n { at = 1; action = \"ask\";\n"
	    "   text = \"q\"; }\n);\n", 2,
	    "ask event has no answer (shown on the next resume)", NULL);
	expect_error("events = (\n { at = 1; action = \"ask\"; text = \"q\";\n"
	    "   answer = \"\"; }\n);\n", 3, "ask answer is empty", NULL);
	expect_error("events = (\n { at = 1; action = \"ask\"; text = \"q\";\n"
	    "   answer = 4; }\n);\n", 3,
	    "ask answer must be a string, not an integer", NULL);
	expect_error("events = (\n { at = 1; action = \"ask\"; answer = \"a\";"
	    "\n   text = \"\"; }\n);\n", 3, "ask text is empty", NULL);
	/* answer belongs to ask only. */
	expect_error("events = (\n { at = 1; action = \"caption\"; text = \"c\";"
	    "\n   answer = \"a\"; }\n);\n", 3,
	    "key \"answer\" does not belong in a caption event", NULL);

	/* policy: a known policy's name, refused at load otherwise. */
	expect_error("events = (\n { at = 1; action = \"policy\"; }\n);\n", 2,
	    "policy event has no value (a policy: staircase, o1, cfs, eevdf, "
	    "rr)",
	    NULL);
	expect_error("events = (\n { at = 1; action = \"policy\";\n"
	    "   value = \"bfs\"; }\n);\n", 3,
	    "unknown policy \"bfs\" (known: staircase, o1, cfs, eevdf, rr)",
	    NULL);
	expect_error("events = (\n { at = 1; action = \"policy\";\n"
	    "   value = 2; }\n);\n", 3,
	    "policy value must be a string, not an integer", NULL);
	expect_error("tasks = ( { name = \"a\"; } );\nevents = (\n"
	    " { at = 1; action = \"policy\"; value = \"o1\";\n"
	    "   task = \"a\"; }\n);\n", 4,
	    "key \"task\" does not belong in a policy event", NULL);
}

/* An engine set up from a scenario's text. */
static struct engine *
engine_from(const char *text, const struct engine_policy *pol)
{
	struct scenario		*sc = load_ok(text);
	struct engine_params	 p;
	struct engine		*e;
	char			*cause = NULL;

	engine_params_default(&p);
	scenario_params(sc, &p);
	e = engine_create(&p, pol);
	if (scenario_apply(sc, e, NULL, NULL, &cause) != 0)
		fail_msg("apply: %s", cause);
	scenario_free(sc);
	return (e);
}

/* Run to just before tick `to`, checking the engine after each tick. */
static void
run_to(struct engine *e, uint64_t to)
{
	char	*cause = NULL;

	while (engine_now(e) < to) {
		engine_tick(e);
		if (engine_check(e, &cause) != 0)
			fail_msg("tick %llu: %s", (unsigned long long)
			    (engine_now(e) - 1), cause);
	}
}

/* The one lesson event of tick, of that action. */
static const struct lesson_event *
fired_one(struct lesson *l, uint64_t tick, enum scenario_action action)
{
	const struct lesson_event	*f;
	size_t				 n;

	f = lesson_fire(l, tick, &n);
	if (n != 1)
		fail_msg("tick %llu: %zu events fired, want 1",
		    (unsigned long long)tick, n);
	assert_int_equal(f->action, action);
	return (f);
}

/* Fire the lesson's events of ticks from..to-1, none expected. */
static void
fire_none(struct lesson *l, uint64_t from, uint64_t to)
{
	size_t	n;

	for (; from < to; from++) {
		lesson_fire(l, from, &n);
		if (n != 0)
			fail_msg("tick %llu: %zu events fired, want none",
			    (unsigned long long)from, n);
	}
}

/*
 * The lesson fires every event at its tick; a pause's text and an ask's
 * question become the caption, the answer comes once with lesson_answer;
 * mark and speed leave the caption.  The policy event is the engine's.
 */
static void
test_fire(void **state)
{
	struct scenario			*sc = load_ok(lesson);
	struct lesson			*l = lesson_create(sc);
	struct engine			*e;
	const struct lesson_event	*f;
	const struct engine_event	*ef;
	uint64_t			 at;
	size_t				 n;

	assert_null(lesson_answer(l, 0));	/* nothing asked yet */
	fire_none(l, 0, 10);
	f = fired_one(l, 10, SCENARIO_MARK);
	assert_int_equal(f->at, 10);
	assert_string_equal(f->text, "Chapter one");
	assert_null(lesson_caption(l, &at));	/* a mark is no caption */

	fire_none(l, 11, 12);
	f = fired_one(l, 12, SCENARIO_PAUSE);
	assert_null(f->text);
	assert_null(lesson_caption(l, NULL));	/* no text: none */
	fire_none(l, 13, 14);
	fired_one(l, 14, SCENARIO_PAUSE);
	assert_string_equal(lesson_caption(l, &at), "Look at ed");
	assert_int_equal(at, 14);

	fire_none(l, 15, 16);
	f = fired_one(l, 16, SCENARIO_SPEED);
	assert_true(f->speed == 0.5);
	f = fired_one(l, 17, SCENARIO_SPEED);
	assert_true(f->speed == 100);
	assert_string_equal(lesson_caption(l, &at), "Look at ed");
	assert_int_equal(at, 14);
	assert_true(lesson_speed_at(l, 16) == 0.5);
	assert_true(lesson_speed_at(l, 15) == 2.5);	/* the scenario's */

	fire_none(l, 18, 20);
	f = fired_one(l, 20, SCENARIO_ASK);
	assert_string_equal(f->text, "Who runs next?");
	assert_string_equal(f->answer, "ed: it just woke");
	assert_string_equal(lesson_caption(l, &at), "Who runs next?");
	assert_int_equal(at, 20);
	/* The answer, once. */
	assert_string_equal(lesson_answer(l, 21), "ed: it just woke");
	assert_string_equal(lesson_caption(l, &at), "ed: it just woke");
	assert_int_equal(at, 21);
	assert_null(lesson_answer(l, 22));
	assert_string_equal(lesson_caption(l, NULL), "ed: it just woke");
	/* The past's caption: the question, as it stood then. */
	assert_string_equal(lesson_caption_at(l, 20), "Who runs next?");
	assert_string_equal(lesson_caption_at(l, 19), "Look at ed");
	assert_null(lesson_caption_at(l, 13));

	fire_none(l, 21, 30);
	lesson_fire(l, 30, &n);
	assert_int_equal(n, 2);			/* the two marks at 30 */
	assert_int_equal(lesson_quiet(l, 31, 100), 100);
	lesson_free(l);

	/* The policy event is the engine's own, at its tick. */
	e = engine_from(lesson, NULL);
	run_to(e, 25);
	engine_fired(e, &n);
	assert_int_equal(n, 0);
	run_to(e, 26);
	ef = engine_fired(e, &n);
	assert_int_equal(n, 1);
	assert_int_equal(ef->action, ENGINE_ACT_POLICY);
	assert_ptr_equal(ef->policy, &engine_policy_cfs);
	assert_ptr_equal(engine_get_policy(e), &engine_policy_cfs);
	run_to(e, 2000);
	engine_free(e);
	scenario_free(sc);
}

/*
 * An ask's answer waits past later ticks and captions, until asked; a
 * rewind (a branch back) fires the events after it again.
 */
static void
test_answer_waits(void **state)
{
	struct scenario	*sc;
	struct lesson	*l;
	size_t		 n;

	sc = load_ok("tasks = ( { name = \"a\"; } );\nevents = (\n"
	    " { at = 5; action = \"ask\"; text = \"q1\"; answer = \"a1\"; },\n"
	    " { at = 6; action = \"caption\"; text = \"c\"; },\n"
	    " { at = 8; action = \"ask\"; text = \"q2\"; answer = \"a2\"; }\n"
	    ");\n");
	l = lesson_create(sc);
	assert_int_equal(lesson_quiet(l, 0, 100), 5);
	fire_none(l, 0, 5);
	fired_one(l, 5, SCENARIO_ASK);
	fired_one(l, 6, SCENARIO_CAPTION);
	assert_string_equal(lesson_caption(l, NULL), "c");
	assert_string_equal(lesson_answer(l, 7), "a1");
	fire_none(l, 7, 8);
	fired_one(l, 8, SCENARIO_ASK);
	assert_string_equal(lesson_caption(l, NULL), "q2");
	/* Not answered: a later question's answer replaces it. */
	fire_none(l, 9, 100);
	assert_string_equal(lesson_answer(l, 100), "a2");
	assert_null(lesson_answer(l, 100));
	/* Back to 6: the caption of 5, the events from 6 on again. */
	lesson_rewind(l, 6);
	assert_string_equal(lesson_caption(l, NULL), "q1");
	lesson_fire(l, 6, &n);
	assert_int_equal(n, 1);
	assert_string_equal(lesson_caption(l, NULL), "c");
	lesson_free(l);
	scenario_free(sc);
}

/* Every CPU's row of the last tick, as text, appended to buf. */
static void
rows(struct engine *e, char *buf, size_t size)
{
	struct engine_cpu_info	ci;
	size_t			len = strlen(buf);
	int			c, j;

	for (c = 0; c < engine_params(e)->cpus; c++) {
		engine_cpu_info(e, c, &ci);
		len += snprintf(buf + len, size - len, "%llu,%d,%d,%d,%d",
		    (unsigned long long)(engine_now(e) - 1), c, ci.task,
		    ci.rank, ci.left);
		for (j = 0; j < ENGINE_MAX_COLS; j++)
			len += snprintf(buf + len, size - len, ",%lld",
			    (long long)ci.col[j]);
		len += snprintf(buf + len, size - len, "\n");
		assert_true(len < size);
	}
}

/*
 * A policy event switches inside the tick (step 1, before wakes, balance
 * and the picks): the run equals one where engine_set_policy is called
 * between the ticks, as the policy command does, for every pair of
 * policies and with tasks waking on the switch's tick; the engine's
 * audit holds after every tick.
 */
static void
test_policy_switch(void **state)
{
	const struct engine_policy	*pols[] = { &engine_policy_staircase,
	    &engine_policy_o1, &engine_policy_cfs, &engine_policy_eevdf,
	    &engine_policy_rr };
	struct engine			*a, *b;
	char				 text[2048], *ta, *tb, *cause = NULL;
	size_t				 i, j, size = 1 << 20;
	int				 t;

	ta = malloc(size);
	tb = malloc(size);
	assert_non_null(ta);
	assert_non_null(tb);
	for (i = 0; i < 4; i++) {
		for (j = 0; j < 4; j++) {
			/* ed wakes at 250 (2 run, 8 sleep), as the switch. */
			snprintf(text, sizeof text, "cpus = 2;\n"
			    "tasks = ( { name = \"h1\"; }, { name = \"h2\"; "
			    "nice = 5; },\n { name = \"h3\"; cpus = \"1\"; },\n"
			    " { name = \"ed\"; pattern = [ 2, 8 ]; } );\n"
			    "events = ( { at = 250; action = \"policy\"; "
			    "value = \"%s\"; },\n"
			    " { at = 600; action = \"policy\"; value = \"%s\"; "
			    "} );\n", pols[j]->name, pols[i]->name);
			a = engine_from(text, pols[i]);
			b = engine_from("cpus = 2;\n"
			    "tasks = ( { name = \"h1\"; }, { name = \"h2\"; "
			    "nice = 5; },\n { name = \"h3\"; cpus = \"1\"; },\n"
			    " { name = \"ed\"; pattern = [ 2, 8 ]; } );\n",
			    pols[i]);
			ta[0] = tb[0] = '\0';
			for (t = 0; t < 1000; t++) {
				if (t == 250)
					engine_set_policy(b, pols[j]);
				if (t == 600)
					engine_set_policy(b, pols[i]);
				engine_tick(a);
				engine_tick(b);
				if (engine_check(a, &cause) != 0)
					fail_msg("%s -> %s, tick %d: %s",
					    pols[i]->name, pols[j]->name, t,
					    cause);
				rows(a, ta, size);
				rows(b, tb, size);
			}
			assert_ptr_equal(engine_get_policy(a), pols[i]);
			if (strcmp(ta, tb) != 0)
				fail_msg("%s -> %s: the event's run differs "
				    "from engine_set_policy's",
				    pols[i]->name, pols[j]->name);
			engine_free(a);
			engine_free(b);
		}
	}
	free(ta);
	free(tb);
}

/* The same scenario twice: the same rows (a policy event included). */
static void
test_deterministic(void **state)
{
	struct engine	*a, *b;
	char		*ta, *tb;
	size_t		 size = 1 << 20;
	int		 t;

	ta = calloc(1, size);
	tb = calloc(1, size);
	assert_non_null(ta);
	assert_non_null(tb);
	a = engine_from(lesson, NULL);
	b = engine_from(lesson, NULL);
	for (t = 0; t < 3000; t++) {
		engine_tick(a);
		engine_tick(b);
		rows(a, ta, size);
		rows(b, tb, size);
	}
	assert_string_equal(ta, tb);
	engine_free(a);
	engine_free(b);
	free(ta);
	free(tb);
}

/*
 * Pause, speed, mark and ask change nothing the engine decides: a
 * scenario's rows are the same with them as without (what lets the
 * shipped lessons keep their headless traces).
 */
static void
test_trace_unchanged(void **state)
{
	static const char	 base[] = "cpus = 2;\n"
	    "tasks = ( { name = \"h1\"; }, { name = \"h2\"; nice = 5; },\n"
	    " { name = \"ed\"; pattern = [ 2, 40 ]; start = 5; } );\n";
	char			 text[2048], *ta, *tb;
	struct engine		*a, *b;
	size_t			 size = 1 << 20;
	int			 t;

	snprintf(text, sizeof text, "%s"
	    "events = ( { at = 0; action = \"pause\"; text = \"p\"; },\n"
	    " { at = 0; action = \"mark\"; text = \"m\"; },\n"
	    " { at = 5; action = \"ask\"; text = \"q\"; answer = \"a\"; },\n"
	    " { at = 5; action = \"speed\"; value = 0.01; },\n"
	    " { at = 300; action = \"pause\"; },\n"
	    " { at = 301; action = \"caption\"; text = \"c\"; } );\n", base);
	ta = calloc(1, size);
	tb = calloc(1, size);
	assert_non_null(ta);
	assert_non_null(tb);
	a = engine_from(base, NULL);
	b = engine_from(text, NULL);
	for (t = 0; t < 2000; t++) {
		engine_tick(a);
		engine_tick(b);
		rows(a, ta, size);
		rows(b, tb, size);
	}
	assert_string_equal(ta, tb);
	engine_free(a);
	engine_free(b);
	free(ta);
	free(tb);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_fire),
		cmocka_unit_test(test_answer_waits),
		cmocka_unit_test(test_policy_switch),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_trace_unchanged),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
