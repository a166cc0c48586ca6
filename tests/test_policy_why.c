/*
 * test_policy_why.c -- the why of each pick (SPEC.md section 10), from
 * each policy's own why op, on small cases whose reason is known: the
 * staircase's stair used up, fall-off and wake preemption; O(1)'s
 * expiry into the expired array, array switch and wake preemption by
 * prio; CFS's smallest vruntime, slice and wakeup_granularity; EEVDF's
 * eligible task with the earliest deadline, a request used up, an
 * earlier deadline passed over for not being eligible; rr's FIFO.  Each
 * line must name the rule and the numbers compared; and explaining
 * must not change a single pick or trace row of any policy.
 *
 * STAIRS_WHY_DUMP=1 prints every line of every case (to write a test).
 */
#include "engine_test.h"

#define WHY_MAX	4096

/* The why lines of a run: tick, cpu, text. */
struct why_log {
	uint64_t	tick[WHY_MAX];
	int		cpu[WHY_MAX];
	char		text[WHY_MAX][ENGINE_WHY_MAX];
	size_t		n;
};

static struct why_log	why_log;

/* An explaining engine of policy pol, rr 10 ms. */
static struct engine *
why_engine(const struct engine_policy *pol, int cpus)
{
	struct engine	*e = et_engine_pol(pol, cpus, 10, 0, 0);

	engine_explain(e, 1);
	why_log.n = 0;
	return (e);
}

/* Run to tick t (included), keeping every why line. */
static void
why_run(struct engine *e, uint64_t t)
{
	const struct engine_why	*w;
	size_t			 i, n;
	uint64_t		 now;

	while ((now = engine_now(e)) <= t) {
		engine_tick(e);
		w = engine_whys(e, &n);
		for (i = 0; i < n && why_log.n < WHY_MAX; i++) {
			why_log.tick[why_log.n] = now;
			why_log.cpu[why_log.n] = w[i].cpu;
			snprintf(why_log.text[why_log.n], ENGINE_WHY_MAX, "%s",
			    w[i].text);
			if (getenv("STAIRS_WHY_DUMP") != NULL)
				printf("%s %llu %d %s\n",
				    engine_get_policy(e)->name,
				    (unsigned long long)now, w[i].cpu,
				    w[i].text);
			why_log.n++;
		}
	}
}

/* The line at tick on cpu must be text, exactly. */
static void
why_is(uint64_t tick, int cpu, const char *text, int line)
{
	size_t	i;

	for (i = 0; i < why_log.n; i++) {
		if (why_log.tick[i] != tick || why_log.cpu[i] != cpu)
			continue;
		if (strcmp(why_log.text[i], text) != 0)
			fail_msg("line %d: tick %llu cpu %d:\n want \"%s\"\n "
			    "got  \"%s\"", line, (unsigned long long)tick, cpu,
			    text, why_log.text[i]);
		return;
	}
	fail_msg("line %d: no why line at tick %llu cpu %d (want \"%s\")",
	    line, (unsigned long long)tick, cpu, text);
}
#define WHY_IS(t, c, s)	why_is((t), (c), (s), __LINE__)

/* No line at tick on cpu: its runner did not change. */
static void
why_none(uint64_t tick, int cpu, int line)
{
	size_t	i;

	for (i = 0; i < why_log.n; i++)
		if (why_log.tick[i] == tick && why_log.cpu[i] == cpu)
			fail_msg("line %d: a why line at tick %llu cpu %d: "
			    "\"%s\"", line, (unsigned long long)tick, cpu,
			    why_log.text[i]);
}
#define WHY_NONE(t, c)	why_none((t), (c), __LINE__)

/* The first line (from tick on) holding every one of the words. */
static size_t
why_find(uint64_t from, const char *a, const char *b, const char *c,
    int line)
{
	size_t	i;

	for (i = 0; i < why_log.n; i++) {
		if (why_log.tick[i] < from)
			continue;
		if (strstr(why_log.text[i], a) != NULL && (b == NULL ||
		    strstr(why_log.text[i], b) != NULL) && (c == NULL ||
		    strstr(why_log.text[i], c) != NULL))
			return (i);
	}
	fail_msg("line %d: no why line from tick %llu with \"%s\" \"%s\" "
	    "\"%s\"", line, (unsigned long long)from, a, b ? b : "",
	    c ? c : "");
	return (0);
}
#define WHY_FIND(f, a, b, c)	why_find((f), (a), (b), (c), __LINE__)

/* Three hogs and an editor (2 ms of every 42) on one CPU, as o1-vs-. */
static void
why_mix(struct engine *e)
{
	et_hog(e, "hog1", 0, 0, NULL);
	et_hog(e, "hog2", 0, 0, NULL);
	et_hog(e, "hog3", 0, 0, NULL);
	et_pat(e, "editor", 0, 0, 2, 40, NULL);
}

static void
test_staircase(void **state)
{
	struct engine	*e = why_engine(&engine_policy_staircase, 1);

	(void)state;
	why_mix(e);
	why_run(e, 2000);
	WHY_IS(0, 0, "hog1: arrived at rank 120, the best here (4 queued); "
	    "next hog2 at 120");
	WHY_IS(10, 0, "hog1 used its 10 ms at rank 120, down to 121; hog2 "
	    "at 120 is the best rank now; next hog3 at 120");
	WHY_NONE(11, 0);
	WHY_IS(32, 0, "editor slept; hog1: rank 121, the best here "
	    "(3 queued); next hog2 at 121");
	WHY_IS(62, 0, "hog3 used its 10 ms at rank 121, down to 122; hog1, "
	    "also at 122, was there first; next hog2 at 122");
	WHY_IS(618, 0, "editor preempts hog1: woke at rank 120, above 121; "
	    "next hog1 at 121");
	engine_free(e);

	/* A fall-off, with a task arriving as it happens. */
	e = why_engine(&engine_policy_staircase, 1);
	et_hog(e, "hog", 0, 0, NULL);
	et_hog(e, "late", 0, 200, NULL);
	why_run(e, 200);
	WHY_IS(200, 0, "hog fell off the bottom: descent 2 (k=2) starts at "
	    "121 with 20 ms; late at 120 is the best rank now; next hog at "
	    "121");
	engine_free(e);
}

static void
test_o1(void **state)
{
	struct engine	*e = why_engine(&engine_policy_o1, 1);

	(void)state;
	why_mix(e);
	why_run(e, 1000);
	WHY_IS(0, 0, "hog1 arrived; hog1 heads the active array at prio 125, "
	    "bonus -5 (4 active, 0 expired); next hog2 at prio 125");
	WHY_IS(102, 0, "hog1 moved to the expired array: its timeslice ran "
	    "out, not interactive (prio 125, bonus -5); hog2 heads the active "
	    "array at prio 125, bonus -5 (3 active, 1 expired); next hog3 at "
	    "prio 125");
	WHY_IS(306, 0, "hog3 moved to the expired array: its timeslice ran "
	    "out, not interactive (prio 125, bonus -5); editor heads the "
	    "active array at prio 125, bonus -5 (1 active, 3 expired); then "
	    "the arrays swap");
	WHY_IS(308, 0, "editor slept; the active array ran empty: the arrays "
	    "swap; hog1 heads the new active array at prio 125, bonus -5; next "
	    "hog2 at prio 125");
	WHY_IS(348, 0, "editor preempts hog1: woke at prio 122, bonus -2, "
	    "above 125; next hog1 at prio 125");
	engine_free(e);

	/* Two interactive tasks: the granularity requeue, the reinsert. */
	e = why_engine(&engine_policy_o1, 1);
	et_hog(e, "hog", 0, 0, NULL);
	et_pat(e, "chat1", 0, 0, 20, 10, NULL);
	et_pat(e, "chat2", 0, 0, 20, 10, NULL);
	why_run(e, 3000);
	WHY_FIND(0, "requeued after", "its granularity (interactive",
	    "bonus +");
	engine_free(e);
}

static void
test_cfs(void **state)
{
	struct engine	*e = why_engine(&engine_policy_cfs, 1);

	(void)state;
	why_mix(e);
	why_run(e, 100);
	WHY_IS(0, 0, "editor arrived; editor: smallest vruntime 5.0 ms "
	    "(min_vruntime 0.0; next hog3 at 6.6)");
	WHY_IS(9, 0, "hog3 ran past its slice, 6.6 ms of the 20.0 ms period "
	    "shared by 3, now at vruntime 13.6; hog2: smallest vruntime "
	    "10.0 ms (min_vruntime 10.0; next hog3 at 13.6)");
	WHY_IS(42, 0, "editor preempts hog3: woke at vruntime 7.0 ms, more "
	    "than wakeup_granularity 10.0 ms below hog3's 25.6");
	engine_free(e);
}

static void
test_eevdf(void **state)
{
	struct engine	*e = why_engine(&engine_policy_eevdf, 1);

	(void)state;
	why_mix(e);
	why_run(e, 100);
	WHY_IS(0, 0, "hog1 arrived; hog1: eligible (lag +0.0 ms), earliest "
	    "deadline 3.0 ms; next eligible hog2 at 3.0 ms");
	WHY_IS(3, 0, "hog1 used its request: new deadline 5.2 ms, lag -2.2 "
	    "ms; hog2: eligible (lag +0.7 ms), earliest deadline 2.2 ms; "
	    "next eligible hog3 at 2.2 ms");
	WHY_IS(9, 0, "hog3 used its request: new deadline 3.7 ms, lag -0.7 "
	    "ms; editor: eligible (lag +2.2 ms), earliest deadline 0.7 ms; "
	    "no other is eligible");
	WHY_NONE(10, 0);
	engine_free(e);

	/* A heavy task's short requests against a light one's long one. */
	e = why_engine(&engine_policy_eevdf, 1);
	et_hog(e, "heavy", -5, 0, NULL);
	et_hog(e, "light", 10, 0, NULL);
	et_pat(e, "ed", 0, 0, 1, 7, NULL);
	why_run(e, 100);
	WHY_IS(4, 0, "heavy used its request: new deadline 1.3 ms, lag -1.0 "
	    "ms; ed: eligible (lag +0.9 ms), earliest deadline 2.0 ms; "
	    "heavy's 1.3 ms is earlier but it is not eligible (lag -1.0 ms)");
	WHY_IS(86, 0, "ed preempts heavy, no longer eligible (lag -0.5 ms); "
	    "ed: eligible (lag +1.9 ms), earliest deadline 1.0 ms; heavy's "
	    "0.1 ms is earlier but it is not eligible (lag -0.5 ms)");
	engine_free(e);
}

static void
test_rr(void **state)
{
	struct engine	*e = why_engine(&engine_policy_rr, 1);

	(void)state;
	why_mix(e);
	why_run(e, 200);
	WHY_IS(0, 0, "hog1: arrived, at the head of the FIFO (4 queued); "
	    "then hog2");
	WHY_IS(10, 0, "hog1 used its 10 ms slice: to the tail; hog2, next in "
	    "the FIFO (4 queued), takes its turn; then hog3");
	WHY_IS(32, 0, "editor slept; hog1, next in the FIFO (3 queued), takes "
	    "its turn; then hog2");
	engine_free(e);
}

/*
 * Explaining changes nothing the engine decides: every policy, on two
 * CPUs with sleepers, moves and a renice, gives the same rows and the
 * same tasks with explaining on and off; off, there are no lines.
 */
static void
test_same(void **state)
{
	static const struct engine_policy *pol[] = { &engine_policy_staircase,
	    &engine_policy_o1, &engine_policy_cfs, &engine_policy_eevdf,
	    &engine_policy_rr };
	struct engine		*a, *b;
	struct engine_cpu_info	 ca, cb;
	struct engine_task_info	 ta, tb;
	size_t			 i, n;
	int			 k, c, id, lines = 0;
	char			*cause = NULL;

	(void)state;
	for (k = 0; k < 5; k++) {
		a = et_engine_pol(pol[k], 2, 0, 0, 0);
		b = et_engine_pol(pol[k], 2, 0, 0, 0);
		engine_explain(b, 1);
		for (i = 0; i < 2; i++) {
			struct engine *e = i == 0 ? a : b;

			why_mix(e);
			et_pat(e, "player", 5, 30, 3, 7, NULL);
			et_hog(e, "pinned", -3, 100, "1");
		}
		while (engine_now(a) < 5000) {
			if (engine_now(a) == 2500) {
				assert_int_equal(engine_task_nice(a, 1, -4,
				    &cause), 0);
				assert_int_equal(engine_task_nice(b, 1, -4,
				    &cause), 0);
			}
			engine_tick(a);
			engine_tick(b);
			(void)engine_whys(a, &n);
			assert_int_equal(n, 0);
			(void)engine_whys(b, &n);
			lines += (int)n;
			for (c = 0; c < 2; c++) {
				memset(&ca, 0, sizeof ca);
				memset(&cb, 0, sizeof cb);
				engine_cpu_info(a, c, &ca);
				engine_cpu_info(b, c, &cb);
				if (memcmp(&ca, &cb, sizeof ca) != 0)
					fail_msg("%s: tick %llu cpu %d differs",
					    pol[k]->name, (unsigned long long)
					    engine_now(a) - 1, c);
			}
		}
		for (id = 1; id <= engine_ntasks(a); id++) {
			ta = et_info(a, id);
			tb = et_info(b, id);
			tb.name = ta.name;	/* each engine's own copy */
			assert_memory_equal(&ta, &tb, sizeof ta);
		}
		engine_free(a);
		engine_free(b);
	}
	assert_true(lines > 1000);
}

/*
 * Quiet ticks run at once (engine_advance) change no runner: after
 * them the engine gives no why line, not the last switch's again.
 */
static void
test_advance(void **state)
{
	struct engine	*e = why_engine(&engine_policy_staircase, 1);
	size_t		 n = 0;
	int		 i;

	(void)state;
	et_hog(e, "hog1", 0, 0, NULL);
	et_hog(e, "hog2", 0, 0, NULL);
	for (i = 0; i < 100 && n == 0; i++) {
		engine_tick(e);
		(void)engine_whys(e, &n);
	}
	assert_true(n > 0);
	assert_true(engine_quiet(e, 5) > 0);
	engine_advance(e, 1);
	(void)engine_whys(e, &n);
	assert_int_equal(n, 0);
	engine_free(e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_staircase),
		cmocka_unit_test(test_o1),
		cmocka_unit_test(test_cfs),
		cmocka_unit_test(test_eevdf),
		cmocka_unit_test(test_rr),
		cmocka_unit_test(test_same),
		cmocka_unit_test(test_advance),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
