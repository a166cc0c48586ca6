/*
 * test_session.c -- the session (src/session.c), without a daemon:
 * - a seek shows exactly the state a fresh session run to that tick has
 *   (every task and cpu line), changes made before it included, back
 *   and forward, across keyframes, with lesson events (an ask's answer,
 *   a policy event) in the scenario;
 * - a branch goes on from the tick sought as if the changes after it had
 *   never been made;
 * - a journal recorded, read back (journal_parse) and fed to a new
 *   session gives the same state and the same trace, branch included;
 * - keyframes older than the history are dropped, and a seek before
 *   them is refused with the bounds.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "change.h"
#include "format.h"
#include "journal.h"
#include "protocol.h"
#include "scenario.h"
#include "session.h"
#include "tally.h"

static const char test_text[] =
"name = \"t\";\n"
"cpus = 2;\n"
"tasks = ( { name = \"hog\"; }, { name = \"ed\"; pattern = [ 2, 8 ]; },\n"
"  { name = \"low\"; nice = 7; } );\n"
"events = (\n"
"  { at = 4000; action = \"nice\"; task = \"hog\"; value = 3; },\n"
"  { at = 9000; action = \"ask\"; text = \"Who runs next?\";\n"
"    answer = \"ed: it just woke\"; },\n"
"  { at = 16000; action = \"policy\"; value = \"o1\"; },\n"
"  { at = 21000; action = \"policy\"; value = \"staircase\"; },\n"
"  { at = 100; action = \"mark\"; text = \"one\"; }\n"
");\n";

/* Keep the engine's log of changes in the sessions made (as the daemon). */
static int	track_changes;

/*
 * A session of scenario text (named label), with what set already says
 * (history, policy, note...; zeroed otherwise).
 */
static struct session *
session_of(const char *text, const char *label, struct session_setup *set)
{
	struct scenario		*sc;
	struct session		*s;
	char			*cause = NULL;

	sc = scenario_load_string(text, label, &cause);
	assert_non_null(sc);
	set->label = label;
	set->text = text;
	engine_params_default(&set->params);
	scenario_params(sc, &set->params);
	s = session_create(set, sc, &cause);
	assert_non_null(s);
	scenario_free(sc);
	return (s);
}

/* A session of test_text keeping history ticks, under policy pol. */
static struct session *
new_session_policy(uint64_t history, const struct engine_policy *pol)
{
	struct session_setup	 set;

	memset(&set, 0, sizeof set);
	set.history = history;
	set.policy = pol;
	set.track_changes = track_changes;
	return (session_of(test_text, "t.cfg", &set));
}

/* A session of test_text keeping history ticks. */
static struct session *
new_session(uint64_t history)
{
	return (new_session_policy(history, NULL));
}

/* Make one change (the test's script) at the session's tick. */
static void
poke(struct session *s, enum change_kind kind, int task, long value)
{
	static const uint32_t	 pat[] = { 5, 5 };
	struct change		 ch;
	char			*cause = NULL;

	memset(&ch, 0, sizeof ch);
	ch.kind = kind;
	ch.task = task;
	ch.value = value;
	if (kind == CHANGE_ADD) {
		ch.name = "extra";
		ch.nice = 2;
		ch.pattern = pat;
		ch.npattern = 2;
	}
	if (session_change(s, &ch, &cause) < 0)
		fail_msg("change: %s", cause);
}

/* Run to tick, making the script's changes on the way. */
static void
run_to(struct session *s, uint64_t tick)
{
	uint64_t	t;

	while ((t = session_now(s)) < tick) {
		if (t == 1000)
			poke(s, CHANGE_SLEEP, 2, 70);
		if (t == 7000)
			poke(s, CHANGE_ADD, 0, 0);
		if (t == 12000)
			poke(s, CHANGE_NICE, 3, -4);
		if (t == 18000)
			poke(s, CHANGE_KILL, 4, 0);
		session_tick(s);
	}
}

/* Every task and cpu line of an engine, as one string. */
static char *
engine_state(const struct engine *e)
{
	struct engine_task_info	 ti;
	struct engine_cpu_info	 ci;
	char			*out;
	size_t			 len = 0, size = 1 << 16;
	int			 id, c;

	out = malloc(size);
	assert_non_null(out);
	len += snprintf(out, size, "now %llu policy %s\n",
	    (unsigned long long)engine_now(e), engine_get_policy(e)->name);
	for (id = 1; id <= engine_ntasks(e); id++) {
		assert_int_equal(engine_task_info(e, id, &ti), 0);
		len += format_task_line(out + len, size - len, e, &ti, NULL);
		out[len++] = '\n';
	}
	for (c = 0; c < engine_params(e)->cpus; c++) {
		engine_cpu_info(e, c, &ci);
		len += format_cpu_line(out + len, size - len, e, &ci);
		out[len++] = '\n';
	}
	out[len] = '\0';
	return (out);
}

/* Every task and cpu line of the engine shown, as one string. */
static char *
state(const struct session *s)
{
	return (engine_state(session_engine(s)));
}

/* The state of a fresh session run to tick with the same changes. */
static char *
fresh_state(uint64_t tick)
{
	struct session	*s = new_session(0);
	char		*st;

	run_to(s, tick);
	st = state(s);
	session_free(s);
	return (st);
}

/* Seek back and forward: each time the state of a fresh run. */
static void
test_seek_equals_fresh(void **unused)
{
	static const uint64_t	 ticks[] = { 15000, 3000, 0, 9001, 9500,
	    19999, 20000, 24999, 7000, 7001 };
	struct session		*s = new_session(1000000);
	char			*a, *b, *cause = NULL;
	size_t			 i;

	run_to(s, 25000);
	for (i = 0; i < sizeof ticks / sizeof ticks[0]; i++) {
		assert_int_equal(session_seek(s, ticks[i], &cause), 0);
		assert_true(session_viewing(s) == (ticks[i] != 25000));
		assert_int_equal(session_now(s), 25000);
		a = state(s);
		b = fresh_state(ticks[i]);
		if (strcmp(a, b) != 0)
			fail_msg("seek %llu:\n%s\nfresh:\n%s",
			    (unsigned long long)ticks[i], a, b);
		free(a);
		free(b);
	}
	assert_int_equal(session_seek(s, 25000, &cause), 0);
	assert_false(session_viewing(s));
	assert_int_equal(session_seek(s, 25001, &cause), -1);
	assert_string_equal(cause, "seek: tick 25001 is outside the history "
	    "0..25000");
	free(cause);
	session_free(s);
}

/*
 * A branch at 10000 goes on as if nothing after it had happened: run
 * on to 25000 with the script (whose changes after 10000 come again),
 * the state is the first run's.
 */
static void
test_branch(void **unused)
{
	struct session	*s = new_session(1000000);
	char		*a, *b, *cause = NULL;

	run_to(s, 14000);
	poke(s, CHANGE_NICE, 1, 19);	/* dropped by the branch */
	run_to(s, 15000);
	assert_int_equal(session_seek(s, 10000, &cause), 0);
	assert_int_equal(session_branch(s, &cause), 0);
	assert_false(session_viewing(s));
	assert_int_equal(session_now(s), 10000);
	run_to(s, 25000);
	a = state(s);
	b = fresh_state(25000);
	assert_string_equal(a, b);
	free(a);
	free(b);
	session_free(s);
}

/* Record a session with a branch, read it back, replay: same trace. */
static void
test_journal_replay(void **unused)
{
	struct session	*s = new_session(1000000), *r;
	struct journal	*j;
	char		*live, *re, *jt, *cause = NULL, *a, *b;
	size_t		 livelen, relen, jlen;
	FILE		*lf, *rf, *jf;

	lf = open_memstream(&live, &livelen);
	jf = open_memstream(&jt, &jlen);
	session_trace(s, lf);
	assert_int_equal(session_record(s, jf, &cause), 0);
	run_to(s, 15000);
	assert_int_equal(session_seek(s, 8000, &cause), 0);
	assert_int_equal(session_branch(s, &cause), 0);
	run_to(s, 20000);
	session_end(s);
	fclose(jf);
	fclose(lf);
	a = state(s);
	session_free(s);
	assert_non_null(strstr(jt, "\n15000 branch tick=8000\n"));

	j = journal_parse(jt, jlen, "j", &cause);
	if (j == NULL)
		fail_msg("%s", cause);
	assert_int_equal(j->end, 20000);
	r = new_session(1000000);
	rf = open_memstream(&re, &relen);
	session_trace(r, rf);
	session_feed(r, j->changes, j->nchanges, 0, "j");
	while (session_now(r) < j->end || session_feed_branch_ahead(r))
		session_tick(r);
	fclose(rf);
	b = state(r);
	assert_string_equal(a, b);
	assert_int_equal(livelen, relen);
	assert_memory_equal(live, re, livelen);
	session_free(r);
	journal_free(j);
	free(a);
	free(b);
	free(live);
	free(re);
	free(jt);
}

/* Old keyframes go; a seek before the oldest kept is refused. */
static void
test_history_bound(void **unused)
{
	struct session	*s = new_session(25000);
	char		*cause = NULL;

	run_to(s, 60000);
	/* Keyframes every 10 000 ticks: 30000 is the newest <= 35000. */
	assert_int_equal(session_first(s), 30000);
	assert_int_equal(session_seek(s, 29999, &cause), -1);
	assert_string_equal(cause, "seek: tick 29999 is outside the history "
	    "30000..60000");
	free(cause);
	assert_int_equal(session_seek(s, 30000, &cause), 0);
	assert_true(session_history_memory(s) > 0);
	session_free(s);
}

/*
 * s's shadow is the engine of a fresh cfs session run to the shadow's
 * tick, held to cfs (the scenario's policy event switches it to
 * nothing, as it does the shadow).
 */
static void
check_shadow_cfs(const struct session *s)
{
	struct session	*f = new_session_policy(0, &engine_policy_cfs);
	char		*a, *b;

	engine_hold_policy((struct engine *)session_engine(f));
	run_to(f, engine_now(session_shadow(s)));
	assert_ptr_equal(engine_get_policy(session_engine(f)),
	    &engine_policy_cfs);
	a = engine_state(session_shadow(s));
	b = state(f);
	assert_string_equal(a, b);
	free(a);
	free(b);
	session_free(f);
}

/*
 * compare (SPEC.md section 6): a shadow started at tick 0 under cfs,
 * given the script's changes, is the session a fresh run under cfs is
 * (up to the scenario's policy event at 16000); after that event the
 * shadow is still cfs, its tasks' state untouched, while the enforced
 * engine is o1.  The past shows
 * its shadow (SPEC.md section 12: from the keyframe's, run on), that of
 * a fresh cfs run there, and refuses compare; a branch starts it again
 * from its tick; compare off drops it.
 */
static void
test_compare(void **unused)
{
	struct session	*s = new_session(1000000);
	char		*a, *b, *cause = NULL;

	assert_null(session_shadow(s));
	assert_int_equal(session_compare(s, &engine_policy_cfs, &cause), 0);
	assert_non_null(session_shadow(s));
	assert_ptr_equal(session_shadow_policy(s), &engine_policy_cfs);
	run_to(s, 15000);
	check_shadow_cfs(s);
	/* The enforced engine is the staircase's, as without a shadow. */
	a = state(s);
	b = fresh_state(15000);
	assert_string_equal(a, b);
	free(a);
	free(b);

	run_to(s, 17000);
	assert_ptr_equal(engine_get_policy(session_engine(s)),
	    &engine_policy_o1);
	assert_ptr_equal(engine_get_policy(session_shadow(s)),
	    &engine_policy_cfs);
	assert_int_equal(engine_now(session_shadow(s)), 17000);
	/*
	 * And its tasks kept their cfs state through the event: it is a
	 * cfs run the event did not touch (the shadow ran that tick under
	 * o1, then cfs afresh).
	 */
	check_shadow_cfs(s);

	assert_int_equal(session_seek(s, 12000, &cause), 0);
	assert_non_null(session_shadow(s));
	assert_int_equal(engine_now(session_shadow(s)), 12000);
	check_shadow_cfs(s);
	assert_int_equal(session_compare(s, &engine_policy_rr, &cause), -1);
	free(cause);
	cause = NULL;
	assert_int_equal(session_branch(s, &cause), 0);
	assert_non_null(session_shadow(s));
	assert_int_equal(engine_now(session_shadow(s)), 12000);
	assert_ptr_equal(engine_get_policy(session_shadow(s)),
	    &engine_policy_cfs);
	run_to(s, 12500);
	assert_int_equal(engine_now(session_shadow(s)), 12500);
	assert_int_equal(session_compare(s, NULL, &cause), 0);
	assert_null(session_shadow(s));
	assert_null(session_shadow_policy(s));
	run_to(s, 13000);
	session_free(s);
}

/* The epoch of an engine's log of changes: 0 when it is not kept. */
/*
 * compare a,b,c (SPEC.md section 10): three shadows, each the engine a
 * single one of its policy would be; a fourth refused, the shadows left
 * as they were; the tallies of a shadow under the enforced policy equal
 * the enforced engine's; every tally counts the same ticks, and each
 * task's ran and runs are what its engine ran.  A branch starts all
 * three again; explaining reaches every shadow.
 */
static void
test_compare_three(void **unused)
{
	const struct engine_policy *pol[4] = { &engine_policy_cfs,
	    &engine_policy_staircase, &engine_policy_eevdf,
	    &engine_policy_rr };
	struct session		*s = new_session(1000000), *f;
	struct tally_row	 ra, rb;
	size_t			 n;
	char			*a, *b, *cause = NULL;
	int			 i, id;

	assert_int_equal(session_compare_set(s, pol, 4, &cause), -1);
	free(cause);
	cause = NULL;
	assert_int_equal(session_nshadows(s), 0);
	assert_null(session_tally(s, 0));
	session_explain(s, 1);
	assert_int_equal(session_compare_set(s, pol, 3, &cause), 0);
	assert_int_equal(session_nshadows(s), 3);
	for (i = 0; i < 3; i++)
		assert_ptr_equal(session_shadow_policy_at(s, i), pol[i]);
	assert_null(session_shadow_at(s, 3));
	run_to(s, 9000);
	/* Shadow 1 runs the staircase, as the enforced engine does. */
	a = engine_state(session_shadow_at(s, 1));
	b = state(s);
	assert_string_equal(a, b);
	free(a);
	free(b);
	for (id = 1; id <= engine_ntasks(session_engine(s)); id++) {
		tally_row(session_tally(s, 0), id, &ra);
		tally_row(session_tally(s, 2), id, &rb);
		assert_memory_equal(&ra, &rb, sizeof ra);
	}
	for (i = 0; i <= 3; i++)
		assert_int_equal(tally_ticks(session_tally(s, i)), 9000);
	/* Shadow 2 (eevdf) is what a fresh eevdf run is. */
	f = new_session_policy(0, &engine_policy_eevdf);
	run_to(f, 9000);
	a = engine_state(session_shadow_at(s, 2));
	b = state(f);
	assert_string_equal(a, b);
	free(a);
	free(b);
	session_free(f);
	/* The shadows explain too: a cfs CPU switches within 500 ticks. */
	for (i = 0, n = 0; i < 500 && n == 0; i++) {
		session_tick(s);
		(void)engine_whys(session_shadow_at(s, 0), &n);
	}
	assert_true(n > 0);

	assert_int_equal(session_seek(s, 5000, &cause), 0);
	/* The past shows the shadows at its tick; the tallies are not. */
	assert_int_equal(session_nshadows(s), 3);
	for (i = 0; i < 3; i++) {
		assert_ptr_equal(engine_get_policy(session_shadow_at(s, i)),
		    pol[i]);
		assert_int_equal(engine_now(session_shadow_at(s, i)), 5000);
	}
	assert_null(session_tally(s, 0));
	assert_int_equal(session_branch(s, &cause), 0);
	assert_int_equal(session_nshadows(s), 3);
	for (i = 0; i < 3; i++) {
		assert_ptr_equal(engine_get_policy(session_shadow_at(s, i)),
		    pol[i]);
		assert_int_equal(engine_now(session_shadow_at(s, i)), 5000);
	}
	assert_int_equal(tally_since(session_tally(s, 0)), 5000);
	assert_int_equal(session_compare_set(s, NULL, 0, &cause), 0);
	assert_int_equal(session_nshadows(s), 0);
	session_free(s);
}

static uint64_t
epoch_of(const struct engine *e)
{
	const int	*ids;
	size_t		 n;

	return (engine_changes(e, &ids, &n));
}

/*
 * track_changes (the daemon's): the present's log is kept through
 * ticks, policy events and a branch, the past viewed has one too; the
 * shadow's is not (it is read whole).  Without it (headless, the
 * bench) no engine keeps one.  The state is the same either way.
 */
static void
test_track_changes(void **unused)
{
	struct session	*s, *u;
	uint64_t	 ep;
	char		*a, *b, *cause = NULL;

	track_changes = 1;
	s = new_session(1000000);
	track_changes = 0;
	u = new_session(1000000);
	assert_true((ep = epoch_of(session_engine(s))) != 0);
	assert_int_equal(epoch_of(session_engine(u)), 0);
	run_to(s, 15000);
	run_to(u, 15000);
	assert_int_equal(epoch_of(session_engine(s)), ep);
	assert_int_equal(epoch_of(session_engine(u)), 0);
	a = state(s);
	b = state(u);
	assert_string_equal(a, b);
	free(a);
	free(b);
	assert_int_equal(session_compare(s, &engine_policy_rr, &cause), 0);
	assert_int_equal(epoch_of(session_shadow(s)), 0);
	run_to(s, 22000);	/* through the policy events */
	run_to(u, 22000);
	assert_true(epoch_of(session_engine(s)) != 0);
	assert_int_equal(epoch_of(session_shadow(s)), 0);
	assert_int_equal(session_seek(s, 10000, &cause), 0);
	assert_true(epoch_of(session_engine(s)) != 0);
	assert_int_equal(session_branch(s, &cause), 0);
	assert_true(epoch_of(session_engine(s)) != 0);
	assert_int_equal(epoch_of(session_shadow(s)), 0);
	assert_int_equal(session_seek(u, 10000, &cause), 0);
	assert_int_equal(epoch_of(session_engine(u)), 0);
	assert_int_equal(session_branch(u, &cause), 0);
	assert_int_equal(epoch_of(session_engine(u)), 0);
	run_to(s, 25000);
	run_to(u, 25000);
	a = state(s);
	b = state(u);
	assert_string_equal(a, b);
	free(a);
	free(b);
	session_free(s);
	session_free(u);
}

/* The notes (narration) a session gave, one a line. */
static char	notes[16384];

static void
note_keep(void *arg, uint64_t tick, const char *text)
{
	size_t	n = strlen(notes);

	(void)arg;
	snprintf(notes + n, sizeof notes - n, "%llu %s\n",
	    (unsigned long long)tick, text);
}

/*
 * A fall-off is narrated with both numbers: the descent (every fall-off
 * counted, the article table's row) and k (the rank and slice follow
 * it; a sleep's climb above the top stair lowers it).  A lone hog's
 * third descent starts at 122 with 30 ms; a sleep there climbs it to
 * 121, k 2; its next fall-off starts descent 4 with k 3, at 122.
 */
static void
test_fall_off_note(void **unused)
{
	static const char	 text[] = "name = \"f\";\n"
	    "tasks = ( { name = \"hog\"; } );\n";
	struct session_setup	 set;
	struct session		*s;

	memset(&set, 0, sizeof set);
	set.note = note_keep;
	s = session_of(text, "f.cfg", &set);
	notes[0] = '\0';
	while (session_now(s) < 401)
		session_tick(s);
	if (strstr(notes, "hog fell off the bottom: descent 3 (k=3) starts "
	    "at 122 with 30 ms\n") == NULL)
		fail_msg("no descent 3 (k=3): %s", notes);
	poke(s, CHANGE_SLEEP, 1, 5);
	while (session_now(s) < 900)
		session_tick(s);
	if (strstr(notes, "hog fell off the bottom: descent 4 (k=3) starts "
	    "at 122 with 30 ms\n") == NULL)
		fail_msg("no descent 4 (k=3): %s", notes);
	session_free(s);
}

/* A real task's process status, as the daemon's real-process layer says. */
static int
exit_reason_status3(void *arg, int id, char *buf, size_t len)
{
	(void)arg;
	(void)id;
	snprintf(buf, len, "status=3");
	return (0);
}

/*
 * An exit made between ticks is narrated when it is made, once: a real
 * task whose process ended (CHANGE_EXIT, from the real-process layer's
 * reap) with its reason, and a task killed (CHANGE_KILL, the kill
 * command); the ticks after say nothing more of either.
 */
static void
test_exit_note(void **unused)
{
	static const char	 text[] = "name = \"x\";\n"
	    "tasks = ( { name = \"hog\"; } );\n";
	struct session_setup	 set;
	struct session		*s;
	struct change		 ch;
	char			*cause = NULL;
	int			 id;

	memset(&set, 0, sizeof set);
	set.note = note_keep;
	set.exit_reason = exit_reason_status3;
	s = session_of(text, "x.cfg", &set);
	memset(&ch, 0, sizeof ch);
	ch.kind = CHANGE_ADD;
	ch.name = "proc";
	ch.real = 1;
	id = session_change(s, &ch, &cause);
	assert_true(id > 0);
	while (session_now(s) < 100)
		session_tick(s);
	notes[0] = '\0';
	memset(&ch, 0, sizeof ch);
	ch.kind = CHANGE_EXIT;
	ch.task = id;
	assert_int_equal(session_change(s, &ch, &cause), 0);
	ch.kind = CHANGE_KILL;
	ch.task = 1;
	assert_int_equal(session_change(s, &ch, &cause), 0);
	while (session_now(s) < 200)
		session_tick(s);
	assert_string_equal(notes,
	    "100 proc exited, status=3\n100 hog killed\n");
	session_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seek_equals_fresh),
		cmocka_unit_test(test_branch),
		cmocka_unit_test(test_journal_replay),
		cmocka_unit_test(test_history_bound),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_compare_three),
		cmocka_unit_test(test_track_changes),
		cmocka_unit_test(test_fall_off_note),
		cmocka_unit_test(test_exit_note),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
