/*
 * test_daemon_delta.c -- delta frames from a real stairsd: a subscriber
 * that asked for `subscribe N delta` rebuilds the task set from its full
 * first frame and the delta frames after it (task lines replace, `gone`
 * lines remove), and that set equals the `tasks` reply at the same tick
 * (the clock paused, so the tick is fixed): after steps, add, kill, nice,
 * and after frames dropped while it did not read (a stalled reader whose
 * queued output is past the daemon's bound), after subscribing again
 * and after a reconnect.  A subscriber without
 * `delta` still gets full frames without a delta= key.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "daemon_harness.h"

/*
 * Enough tasks that the first (full) frame, about 1.5 MB, stays queued
 * past the 1 MiB bound while the subscriber does not read: the frames
 * after it are dropped.
 */
#define NTASKS		12000
#define MAXID		(NTASKS + 16)

/* A subscriber's task set, rebuilt from frames: one line per id. */
struct rebuilt {
	char	*line[MAXID + 1];
	int	 frames, deltas, dropped, task_lines, gone_lines;
};

/* Forget every task. */
static void
rebuilt_clear(struct rebuilt *r)
{
	int	i;

	for (i = 0; i <= MAXID; i++) {
		free(r->line[i]);
		r->line[i] = NULL;
	}
}

/* The tasks as a `tasks` reply would list them (lines joined by \n). */
static char *
rebuilt_text(struct rebuilt *r)
{
	size_t	 size = 1, off = 0;
	char	*s;
	int	 i;

	for (i = 1; i <= MAXID; i++)
		if (r->line[i] != NULL)
			size += strlen(r->line[i]) + 1;
	s = malloc(size);
	s[0] = '\0';
	for (i = 1; i <= MAXID; i++) {
		if (r->line[i] != NULL)
			off += (size_t)snprintf(s + off, size - off, "%s\n",
			    r->line[i]);
	}
	return (s);
}

/*
 * Read frames (skipping reply lines), applying each, until one carries
 * an event line ending in marker: it was built after that action, so
 * it shows the state the test compares.  The last frame's header goes
 * into head, the task lines it carried into *ntask.
 */
static void
rebuilt_until(struct tconn *s, struct rebuilt *r, const char *marker,
    char *head, size_t hsize, int *ntask)
{
	char	 line[8192];
	long	 end = td_ms() + TD_DEADLINE_MS;
	int	 in = 0, found = 0, id;
	size_t	 n, m = strlen(marker);

	for (;;) {
		if (td_ms() >= end) {
			td_timed_out(TD_DEADLINE_MS, "a frame with \"%s\"",
			    marker);
			fail();
		}
		assert_int_equal(tc_line(s, line, sizeof line, TD_DEADLINE_MS),
		    0);
		if (!in) {
			if (strncmp(line, "frame ", 6) != 0)
				continue;
			in = 1;
			snprintf(head, hsize, "%s", line);
			/* A marker may be in the header: " live=0". */
			if (strstr(line, marker) != NULL)
				found = 1;
			*ntask = 0;
			r->frames++;
			if (td_field(line, "delta") == 1)
				r->deltas++;
			else
				rebuilt_clear(r);
			if (td_field(line, "dropped") > 0)
				r->dropped += (int)td_field(line, "dropped");
			continue;
		}
		if (strcmp(line, "end") == 0) {
			in = 0;
			if (found)
				return;
			continue;
		}
		if (strncmp(line, "task ", 5) == 0) {
			id = (int)td_field(line, "id");
			assert_true(id >= 1 && id <= MAXID);
			free(r->line[id]);
			r->line[id] = strdup(line);
			(*ntask)++;
			r->task_lines++;
		} else if (strncmp(line, "gone ", 5) == 0) {
			id = (int)td_field(line, "id");
			assert_true(id >= 1 && id <= MAXID);
			free(r->line[id]);
			r->line[id] = NULL;
			r->gone_lines++;
		} else if (strncmp(line, "event ", 6) == 0) {
			n = strlen(line);
			if (n >= m && strcmp(line + n - m, marker) == 0)
				found = 1;
		}
	}
}

/* The rebuilt set equals the `tasks` reply, now (paused: same tick). */
static void
rebuilt_check(struct tconn *c, struct rebuilt *r, const char *head)
{
	static char	 data[4 << 20];
	char		 final[256], *mine;

	assert_int_equal(tc_cmd(c, "tasks", data, sizeof data, final,
	    sizeof final), 0);
	assert_true(strncmp(final, "ok ", 3) == 0);
	assert_int_equal(td_field(head, "tick"), tc_status(c, "tick"));
	mine = rebuilt_text(r);
	if (strcmp(mine, data) != 0) {
		fprintf(stderr, "rebuilt set (%zu bytes) != tasks (%zu bytes) "
		    "after %s\n", strlen(mine), strlen(data), head);
		free(mine);
		fail();
	}
	free(mine);
	assert_int_equal(td_field(head, "tasks"), strtol(final + 3, NULL,
	    10));
}

/* A scenario of n hogs on 2 CPUs. */
static char *
hogs(int n)
{
	size_t	 size = 64 + (size_t)n * 40, off;
	char	*s = malloc(size);
	int	 i;

	off = (size_t)snprintf(s, size, "name = \"hogs\";\ncpus = 2;\n"
	    "tasks = (\n");
	for (i = 1; i <= n; i++)
		off += (size_t)snprintf(s + off, size - off,
		    "%s{ name = \"t%d\"; }\n", i > 1 ? "," : "", i);
	snprintf(s + off, size - off, ");\n");
	return (s);
}

/* A delta subscriber's rebuilt tasks equal `tasks`, drops included. */
static void
test_delta_rebuild(void **state)
{
	static struct rebuilt	 r;
	struct td		 t;
	struct tconn		*c, *sub, *old;
	char			 head[1024], line[8192], *scen;
	int			 ntask, full = 0, deltakey = 0;
	long			 now;

	scen = hogs(NTASKS);
	td_init(&t, "realtime = false;\nlog_level = \"info\";\n", scen);
	free(scen);
	td_start(&t);
	assert_non_null(c = tc_open(&t));
	tc_expect(c, "pause", "ok");
	assert_non_null(sub = tc_open(&t));

	/*
	 * Stalled: subscribe, then read nothing while the clock steps and
	 * tasks come and go.  The full first frame fills the socket and
	 * the daemon's bound, so the frames after it are dropped.
	 */
	tc_sendf(sub, "subscribe 60 delta");
	td_nap(100);
	tc_expect(c, "step 3", "ok");
	td_nap(100);
	tc_expect(c, "add newbie", "ok 12001");
	tc_expect(c, "kill t5", "ok");
	td_nap(100);
	tc_expect(c, "nice t7 5", "ok");
	tc_expect(c, "step 2", "ok");
	td_nap(200);

	/* Now read: the full frame, then one delta with all since. */
	rebuilt_until(sub, &r, "text=stepped 2 ticks", head, sizeof head,
	    &ntask);
	assert_true(r.frames >= 2);
	assert_true(r.dropped >= 1);
	assert_int_equal(td_field(head, "delta"), 1);
	rebuilt_check(c, &r, head);
	assert_non_null(r.line[12001]);
	assert_non_null(strstr(r.line[5], " state=exited "));
	assert_non_null(strstr(r.line[7], " nice=5 "));

	/* Reading along: each delta carries only what changed. */
	tc_expect(c, "add late", "ok 12002");
	tc_expect(c, "kill newbie", "ok");
	tc_expect(c, "step 5", "ok");
	rebuilt_until(sub, &r, "text=stepped 5 ticks", head, sizeof head,
	    &ntask);
	assert_int_equal(td_field(head, "delta"), 1);
	assert_int_equal(td_field(head, "dropped"), 0);
	assert_true(ntask > 0 && ntask < 100);
	rebuilt_check(c, &r, head);
	assert_non_null(strstr(r.line[12001], " state=exited "));
	assert_non_null(r.line[12002]);

	/*
	 * Subscribing again starts with a full frame.  The set rebuilt so
	 * far would pass the check after a delta too: count the full ones.
	 */
	full = r.frames - r.deltas;
	tc_expect(c, "affinity late 1", "ok");
	tc_sendf(sub, "subscribe 30 delta");
	tc_expect(c, "step 1", "ok");
	rebuilt_until(sub, &r, "text=stepped 1 tick", head, sizeof head,
	    &ntask);
	assert_true(r.frames - r.deltas > full);
	full = 0;
	rebuilt_check(c, &r, head);

	/* A reconnect: a new connection starts from a full frame. */
	tc_close(sub);
	rebuilt_clear(&r);
	assert_non_null(sub = tc_open(&t));
	tc_sendf(sub, "subscribe 60 delta");
	tc_expect(c, "nice late -3", "ok");
	tc_expect(c, "step 4", "ok");
	rebuilt_until(sub, &r, "text=stepped 4 ticks", head, sizeof head,
	    &ntask);
	rebuilt_check(c, &r, head);
	assert_non_null(strstr(r.line[12002], " nice=-3 "));

	/*
	 * Past the engine's log of changes (64 Ki entries: 40 000 ticks
	 * of 2 CPUs), a seek into the past (another engine), back to the
	 * present, and cfs (whose lines the log cannot tell) and back.
	 */
	tc_expect(c, "step 40000", "ok");
	rebuilt_until(sub, &r, "text=stepped 40000 ticks", head, sizeof head,
	    &ntask);
	rebuilt_check(c, &r, head);
	now = tc_status(c, "tick");
	tc_expect(c, "seek 100", "ok");
	rebuilt_until(sub, &r, " tick=100 ", head, sizeof head, &ntask);
	assert_int_equal(td_field(head, "live"), 0);
	assert_int_equal(td_field(head, "delta"), 1);
	rebuilt_check(c, &r, head);
	snprintf(line, sizeof line, "seek %ld", now);
	tc_expect(c, line, "ok");
	rebuilt_until(sub, &r, " live=1 ", head, sizeof head, &ntask);
	assert_int_equal(td_field(head, "tick"), now);
	rebuilt_check(c, &r, head);
	tc_expect(c, "policy cfs", "ok");
	tc_expect(c, "step 3", "ok");
	rebuilt_until(sub, &r, "text=stepped 3 ticks", head, sizeof head,
	    &ntask);
	rebuilt_check(c, &r, head);
	tc_expect(c, "policy staircase", "ok");
	tc_expect(c, "step 7", "ok");
	rebuilt_until(sub, &r, "text=stepped 7 ticks", head, sizeof head,
	    &ntask);
	rebuilt_check(c, &r, head);

	/* An old client: full frames, every task, no delta= key. */
	assert_non_null(old = tc_open(&t));
	tc_sendf(old, "subscribe 30");
	for (;;) {
		assert_int_equal(tc_line(old, line, sizeof line,
		    TD_DEADLINE_MS), 0);
		if (strncmp(line, "frame ", 6) == 0) {
			deltakey = strstr(line, " delta=") != NULL;
			continue;
		}
		if (strncmp(line, "task ", 5) == 0)
			full++;
		if (strcmp(line, "end") == 0)
			break;
	}
	assert_int_equal(deltakey, 0);
	assert_int_equal(full, NTASKS + 2);

	rebuilt_clear(&r);
	tc_close(old);
	tc_close(sub);
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delta_rebuild),
	};

	signal(SIGPIPE, SIG_IGN);
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
