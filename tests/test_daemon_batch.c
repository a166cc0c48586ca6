/*
 * test_daemon_batch.c -- the batching clock (docs/DAEMON.md, "The
 * clock"): with no real task the daemon runs the engine in batches, yet
 * the trace is the one the ticking clock writes (scenario events, a
 * subscriber's frames and a command landing mid-batch), a command sees
 * the engine at the tick the wall clock says with no lag counted, and
 * a paused daemon with no subscriber does not wake.
 */
#include <setjmp.h>

#include "daemon_harness.h"

#include <cmocka.h>

/* A scenario whose events fall across the run, a caption among them. */
static const char batch_scenario[] =
    "name = \"batch\";\ncpus = 2;\ntasks = (\n"
    "  { name = \"hog\"; },\n"
    "  { name = \"editor\"; pattern = [ 2, 40 ]; },\n"
    "  { name = \"build\"; nice = 5; pattern = [ 30, 7 ]; }\n);\n"
    "events = (\n"
    "  { at = 150; action = \"nice\"; task = \"hog\"; value = 3; },\n"
    "  { at = 400; action = \"affinity\"; task = \"hog\"; cpus = \"0\"; },\n"
    "  { at = 650; action = \"caption\"; text = \"half way\"; },\n"
    "  { at = 900; action = \"sleep\"; task = \"build\"; ms = 120; },\n"
    "  { at = 1100; action = \"nice\"; task = \"editor\"; value = -4; }\n"
    ");\n";

/* A whole file, or NULL. */
static char *
slurp(const char *path)
{
	char	*s;
	long	 n;
	FILE	*f;

	if ((f = fopen(path, "r")) == NULL)
		return (NULL);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	s = malloc((size_t)n + 1);
	n = (long)fread(s, 1, (size_t)n, f);
	s[n] = '\0';
	fclose(f);
	return (s);
}

/* The trace's text up to (not including) the rows of tick limit. */
static size_t
trace_upto(const char *trace, long long limit)
{
	const char	*p = strchr(trace, '\n');

	if (p == NULL)
		return (0);
	for (p++; *p != '\0'; p = strchr(p, '\n') + 1) {
		if (strtoll(p, NULL, 10) >= limit || strchr(p, '\n') == NULL)
			break;
	}
	return ((size_t)(p - trace));
}

/*
 * The reference: the same scenario on a daemon with batching off, the
 * command at tick at (pausing and stepping to it), then ticking on its
 * clock for a while.  Returns the trace and the tick reached.
 */
static char *
reference(const char *cmd, long long at, long long *end)
{
	struct td	 t;
	struct tconn	*c;
	char		 trace[PATH_MAX + 32], step[64], *text;
	char		*extra[] = { "--scenario", t.scen, "--trace", trace,
			    NULL };
	long long	 tick;

	td_init(&t, "realtime = false;\nlog_level = \"warn\";\n"
	    "batch = false;\n", batch_scenario);
	snprintf(trace, sizeof trace, "%s/trace.csv", t.dir);
	td_start_args(&t, extra);
	assert_non_null(c = tc_open(&t));
	tc_expect(c, "pause", "ok");
	tick = tc_status(c, "tick");
	assert_true(tick < at);
	snprintf(step, sizeof step, "step %lld", at - tick);
	tc_expect(c, step, "ok");
	assert_int_equal(tc_status(c, "tick"), at);
	tc_expect(c, cmd, "ok");
	tc_expect(c, "resume", "ok");
	td_nap(400);
	tc_expect(c, "pause", "ok");
	*end = tc_status(c, "tick");
	tc_close(c);
	assert_non_null(text = slurp(trace));	/* flushed by pause */
	assert_int_equal(td_stop(&t), 0);
	return (text);
}

/* The tick of each "status" reply among n replies read from c. */
static int
replies(struct tconn *c, int n, long long *ticks, int nticks)
{
	char	line[8192];
	int	got = 0, k = 0;

	while (got < n) {
		if (tc_line(c, line, sizeof line, TD_DEADLINE_MS) != 0)
			return (-1);
		if (strncmp(line, "status ", 7) == 0 && k < nticks)
			ticks[k++] = td_field(line, "tick");
		if (strncmp(line, "ok", 2) == 0 || strncmp(line, "err", 3) == 0)
			got++;
	}
	return (k);
}

/*
 * The trace of a batching daemon -- scenario events, a subscriber for a
 * while, then none, and a command arriving mid-batch -- is the trace of
 * the ticking daemon with the command at the same tick.
 */
static void
test_trace_identity(void **state)
{
	struct td	 t;
	struct tconn	*c, *s;
	char		 trace[PATH_MAX + 32], *got, *want;
	char		*extra[] = { "--scenario", t.scen, "--trace", trace,
			    NULL };
	static const char cmds[] = "status\nnice build -7\nstatus\n";
	long long	 ticks[2], end, refend, limit;
	size_t		 n;
	int		 i, ok = 0;

	td_init(&t, "realtime = false;\nlog_level = \"warn\";\n",
	    batch_scenario);
	snprintf(trace, sizeof trace, "%s/trace.csv", t.dir);
	td_start_args(&t, extra);
	assert_non_null(c = tc_open(&t));
	assert_non_null(s = tc_open(&t));
	tc_sendf(s, "subscribe 30");
	td_nap(500);
	tc_close(s);
	/* No subscriber: the engine runs in batches; a command lands. */
	td_nap(430);
	(void)tc_status(c, "tick");
	tc_send(c, cmds, sizeof cmds - 1);
	assert_int_equal(replies(c, 3, ticks, 2), 2);
	assert_true(ticks[0] > 0 && ticks[1] >= ticks[0]);
	td_nap(400);
	tc_expect(c, "pause", "ok");
	end = tc_status(c, "tick");
	assert_int_equal(tc_status(c, "lag"), 0);
	tc_close(c);
	assert_non_null(got = slurp(trace));	/* flushed by pause */
	assert_int_equal(td_stop(&t), 0);

	/*
	 * The command landed at a tick between the two status replies
	 * (nearly always the same one): one of them gives the reference.
	 */
	for (i = 0; i < 2 && !ok; i++) {
		if (i == 1 && ticks[1] == ticks[0])
			break;
		want = reference("nice build -7", ticks[i], &refend);
		limit = end < refend ? end : refend;
		assert_true(limit > ticks[1] + 100);
		n = trace_upto(want, limit);
		ok = n == trace_upto(got, limit) && n > 1000 &&
		    memcmp(got, want, n) == 0;
		free(want);
	}
	if (!ok)
		fprintf(stderr, "batched trace differs (command at tick %lld"
		    "..%lld); kept in STAIRS_KEEP=1 runs\n", ticks[0],
		    ticks[1]);
	assert_true(ok);
	free(got);
}

/*
 * Batching, a command sees the engine where the wall clock says, with no
 * tick counted as lag, whatever the phase of the batch wake-up.  At
 * speed 1 the clock started at most tick0 ms before the first reply
 * came back, so a status sent ms later shows at least tick0 + ms - 2
 * (td_ms rounds down).  Without the catch-up it would lag a batch.
 */
static void
test_catch_up(void **state)
{
	struct td	 t;
	struct tconn	*c;
	long		 t0, sent;
	long long	 tick0, tick;
	int		 i;

	td_init(&t, "realtime = false;\nlog_level = \"warn\";\n",
	    batch_scenario);
	td_start(&t);
	assert_non_null(c = tc_open(&t));
	tick0 = tc_status(c, "tick");
	t0 = td_ms();
	for (i = 0; i < 6; i++) {
		td_nap(130 + 40 * i);
		sent = td_ms() - t0;
		tick = tc_status(c, "tick");
		if (tick < tick0 + sent - 2)
			fprintf(stderr, "tick %lld, %ld ms after tick %lld\n",
			    tick, sent, tick0);
		assert_true(tick >= tick0 + sent - 2);
	}
	assert_int_equal(tc_status(c, "lag"), 0);
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

/*
 * Wake-ups: batching with no subscriber, a few a second (not one a
 * tick); with a real task alive, one a tick, and batches again once it
 * is gone; paused with no subscriber, none.  Batching off: one a tick.
 */
static void
test_wakes(void **state)
{
	struct td	 t;
	struct tconn	*c;
	long		 w0, w1;

	td_init(&t, "realtime = false;\nlog_level = \"warn\";\n",
	    batch_scenario);
	td_start(&t);
	assert_non_null(c = tc_open(&t));
	w0 = td_wakes(t.pid);
	td_nap(1000);
	w1 = td_wakes(t.pid);
	if (w1 - w0 > 20)
		fprintf(stderr, "running, batching: %ld wake-ups in 1 s\n",
		    w1 - w0);
	assert_true(w0 >= 0 && w1 - w0 <= 20);
	/* A real task alive: one wake-up a tick; ended: batches again. */
	tc_expect(c, "spawn burn -- stairs-load --run 5 --sleep 5", "ok");
	w0 = td_wakes(t.pid);
	td_nap(1000);
	w1 = td_wakes(t.pid);
	if (w1 - w0 < 100)
		fprintf(stderr, "a real task: %ld wake-ups in 1 s\n", w1 - w0);
	assert_true(w1 - w0 >= 100);	/* 1 000 less the load's merges */
	tc_expect(c, "kill burn", "ok");
	td_nap(300);
	w0 = td_wakes(t.pid);
	td_nap(1000);
	w1 = td_wakes(t.pid);
	if (w1 - w0 > 20)
		fprintf(stderr, "real task gone: %ld wake-ups in 1 s\n",
		    w1 - w0);
	assert_true(w1 - w0 <= 20);
	tc_expect(c, "pause", "ok");
	w0 = td_wakes(t.pid);
	td_nap(1000);
	w1 = td_wakes(t.pid);
	if (w1 - w0 > 1)
		fprintf(stderr, "paused: %ld wake-ups in 1 s\n", w1 - w0);
	assert_true(w1 - w0 <= 1);
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);

	td_init(&t, "realtime = false;\nlog_level = \"warn\";\n"
	    "batch = false;\n", batch_scenario);
	td_start(&t);
	w0 = td_wakes(t.pid);
	td_nap(1000);
	w1 = td_wakes(t.pid);
	if (w1 - w0 < 100)
		fprintf(stderr, "batch = false: %ld wake-ups in 1 s\n",
		    w1 - w0);
	assert_true(w1 - w0 >= 100);
	assert_int_equal(td_stop(&t), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trace_identity),
		cmocka_unit_test(test_catch_up),
		cmocka_unit_test(test_wakes),
	};

	signal(SIGPIPE, SIG_IGN);
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
