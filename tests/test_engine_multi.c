/*
 * test_engine_multi.c -- the multi-CPU rules of SPEC.md section 1:
 * placement (its four branches), idle pull, periodic balance, affinity
 * and group changes, and refusing an empty allowed set.
 *
 * Expected numbers are worked out in the comment above each test; rr 10.
 * Placement of tasks arriving in the same tick is sequential, in id order,
 * each seeing the nr left by the ones before it.
 */
#include "engine_test.h"

/* Set a task's affinity; fails the test if refused. */
static void
set_affinity(struct engine *e, int id, const char *list)
{
	struct cpumask	 m = et_mask(list);
	char		*cause = NULL;

	if (engine_task_affinity(e, id, &m, &cause) != 0)
		fail_msg("engine_task_affinity %d %s: %s", id, list, cause);
}

/*
 * Placement, first branch: the last CPU if allowed and idle.  2 CPUs: A
 * hog (id 1) -> CPU 0 (lowest idle), X [1, 20] (id 2) -> CPU 1 (CPU 0 has
 * nr 1).  X runs tick 0 on CPU 1 and sleeps until 21.  A is killed before
 * tick 10, so at 21 both CPUs are idle: X goes back to CPU 1, its last,
 * not to the lowest idle CPU 0.
 */
static void
test_place_last_idle(void **state)
{
	struct engine	*e = et_engine(2, 10, 0, 0);
	char		*cause = NULL;
	int		 a, x;

	a = et_hog(e, "a", 0, 0, NULL);
	x = et_pat(e, "x", 0, 0, 1, 20, NULL);
	RUN_TO(e, 0);
	ROW(e, 0, a, 120, 1, 10);
	ROW(e, 1, x, 120, 1, 10);
	RUN_TO(e, 9);
	assert_int_equal(engine_task_kill(e, a, &cause), 0);
	RUN_TO(e, 20);
	IDLE(e, 0);
	IDLE(e, 1);
	assert_int_equal(et_info(e, x).cpu, 1);	/* its last CPU */
	RUN_TO(e, 21);
	IDLE(e, 0);
	ROW(e, 1, x, 120, 1, 10);
	assert_int_equal(et_info(e, x).cpu, 1);
	engine_free(e);
}

/*
 * Second branch: the lowest idle allowed CPU.  3 CPUs: A -> 0, B -> 1, X
 * [1, 20] -> 2; X runs at 0 on CPU 2, sleeps until 21.  A is killed before
 * tick 10 (CPU 0 idle); C (hog pinned to 2, start 15) keeps CPU 2 busy.
 * At 21 X's last CPU 2 is busy and CPU 0 is idle: X goes to CPU 0.
 */
static void
test_place_lowest_idle(void **state)
{
	struct engine	*e = et_engine(3, 10, 0, 0);
	char		*cause = NULL;
	int		 a, b, x, c;

	a = et_hog(e, "a", 0, 0, NULL);
	b = et_hog(e, "b", 0, 0, NULL);
	x = et_pat(e, "x", 0, 0, 1, 20, NULL);
	c = et_hog(e, "c", 0, 15, "2");
	RUN_TO(e, 0);
	ROW(e, 0, a, 120, 1, 10);
	ROW(e, 1, b, 120, 1, 10);
	ROW(e, 2, x, 120, 1, 10);
	RUN_TO(e, 9);
	assert_int_equal(engine_task_kill(e, a, &cause), 0);
	RUN_TO(e, 15);
	ROW(e, 2, c, 120, 1, 10);
	IDLE(e, 0);
	RUN_TO(e, 21);
	ROW(e, 0, x, 120, 1, 10);
	ROW(e, 1, b, -1, -1, -1);
	ROW(e, 2, c, 120, 1, 4);
	assert_int_equal(et_info(e, x).cpu, 0);
	engine_free(e);
}

/*
 * Third branch: the last CPU if allowed, though busy.  2 CPUs: X [1, 20]
 * (id 1) -> CPU 0; A, B (hogs pinned to 0) -> CPU 0; C (hog) -> CPU 1, the
 * idle one.  X runs at 0 (head of 120 = [X, A, B]) and sleeps until 21.
 * At 21 no CPU is idle; CPU 0 has nr 2, CPU 1 nr 1, but X goes back to
 * CPU 0, its last, and runs there at once (120 beats A and B at 121).
 */
static void
test_place_last_busy(void **state)
{
	struct engine	*e = et_engine(2, 10, 0, 0);
	int		 x, a, b, c;

	x = et_pat(e, "x", 0, 0, 1, 20, NULL);
	a = et_hog(e, "a", 0, 0, "0");
	b = et_hog(e, "b", 0, 0, "0");
	c = et_hog(e, "c", 0, 0, NULL);
	RUN_TO(e, 0);
	ROW(e, 0, x, 120, 1, 10);
	ROW(e, 1, c, 120, 1, 10);
	RUN_TO(e, 1);
	ROW(e, 0, a, 120, 1, 10);
	RUN_TO(e, 11);
	ROW(e, 0, b, 120, 1, 10);
	RUN_TO(e, 21);
	ROW(e, 0, x, 120, 1, 10);
	ROW(e, 1, c, 122, 1, 9);
	assert_int_equal(et_info(e, x).cpu, 0);
	engine_free(e);
}

/*
 * Fourth branch: the allowed CPU with the fewest nr, ties to the lowest
 * index.  3 CPUs: A, B pinned to 0 (nr 2), C pinned to 1, D pinned to 2
 * (nr 1 each).  X (start 5, no last CPU, nothing idle) -> CPU 1 (nr 1,
 * lower than 2).  Then Y (start 5, cpus 0,2) -> CPU 2 (nr 1 < 2).
 */
static void
test_place_fewest(void **state)
{
	struct engine	*e = et_engine(3, 10, 0, 0);
	int		 c, d, x, y;

	et_hog(e, "a", 0, 0, "0");
	et_hog(e, "b", 0, 0, "0");
	c = et_hog(e, "c", 0, 0, "1");
	d = et_hog(e, "d", 0, 0, "2");
	x = et_hog(e, "x", 0, 5, NULL);
	y = et_hog(e, "y", 0, 5, "0,2");
	RUN_TO(e, 5);
	assert_int_equal(et_info(e, x).cpu, 1);
	assert_int_equal(et_info(e, y).cpu, 2);
	ROW(e, 1, c, 120, 1, 5);		/* C keeps the head of 120 */
	ROW(e, 2, d, 120, 1, 5);
	assert_int_equal(et_row(e, 0).nr, 2);
	assert_int_equal(et_row(e, 1).nr, 2);
	assert_int_equal(et_row(e, 2).nr, 2);
	RUN_TO(e, 10);
	ROW(e, 1, x, 120, 1, 10);
	ROW(e, 2, y, 120, 1, 10);
	engine_free(e);
}

/*
 * Arrivals in one tick are placed one after the other: 4 CPUs, 6 hogs
 * at 0 -> CPUs 0, 1, 2, 3 (idle ones), then 0 and 1 (fewest nr, lowest
 * index).
 */
static void
test_place_spread(void **state)
{
	struct engine	*e = et_engine(4, 10, 0, 0);
	static const int want[6] = { 0, 1, 2, 3, 0, 1 };
	char		 name[16];
	int		 i, id[6];

	for (i = 0; i < 6; i++) {
		snprintf(name, sizeof name, "h%d", i);
		id[i] = et_hog(e, name, 0, 0, NULL);
	}
	RUN_TO(e, 0);
	for (i = 0; i < 6; i++)
		assert_int_equal(et_info(e, id[i]).cpu, want[i]);
	for (i = 0; i < 4; i++)
		ROW(e, i, id[i], 120, 1, 10);
	engine_free(e);
}

/*
 * Build the idle-pull case: CPU 1 holds E (pinned to 1, runtime 5), CPU 0
 * holds A (nice 0), B (nice 3), C (nice 1), D (nice 1), all created
 * pinned to 0 and widened to 0-1 before tick 1 (those in widen[]).  A
 * runs 0..9 at the head of 120; 121 = [C, D], 123 = [B].  E exits at the
 * end of tick 4, so CPU 1 is idle at tick 5.
 */
static struct engine *
pull_setup(int *ids, const char *widen)
{
	struct engine	*e = et_engine(2, 10, 0, 0);
	int		 i;

	ids[0] = et_add(e, "e", ENGINE_SIM, 0, 0, NULL, 0, 5, "1", -1);
	ids[1] = et_hog(e, "a", 0, 0, "0");
	ids[2] = et_hog(e, "b", 3, 0, "0");
	ids[3] = et_hog(e, "c", 1, 0, "0");
	ids[4] = et_hog(e, "d", 1, 0, "0");
	RUN_TO(e, 0);
	ROW(e, 0, ids[1], 120, 1, 10);
	ROW(e, 1, ids[0], 120, 1, 10);
	for (i = 0; widen[i] != '\0'; i++)
		set_affinity(e, ids[widen[i] - 'a' + 1], "0-1");
	for (i = 1; i <= 4; i++)
		assert_int_equal(et_info(e, ids[i]).cpu, 0);
	RUN_TO(e, 4);
	ROW(e, 1, ids[0], 120, 1, 6);
	assert_int_equal(et_info(e, ids[0]).state, ENGINE_EXITED);
	return (e);
}

/*
 * Idle pull: at tick 5 CPU 1 is idle and CPU 0 (nr 4 >= 2) is the
 * busiest.  A is at the head of the best rank, so not a candidate; of C,
 * D (121) and B (123) the best-ranked is 121 and, nearest the tail, D.
 * D keeps 121, k 1, left 10 and runs on CPU 1 at once.
 */
static void
test_idle_pull(void **state)
{
	struct engine	*e;
	int		 ids[5];

	e = pull_setup(ids, "bcd");
	RUN_TO(e, 5);
	ROW(e, 0, ids[1], 120, 1, 5);
	ROW(e, 1, ids[4], 121, 1, 10);
	assert_int_equal(et_info(e, ids[4]).cpu, 1);
	assert_int_equal(et_info(e, ids[3]).cpu, 0);
	assert_int_equal(et_row(e, 0).nr, 3);
	assert_int_equal(et_row(e, 1).nr, 1);
	/* One task per idle CPU per tick: nothing else moves. */
	RUN_TO(e, 6);
	assert_int_equal(et_row(e, 0).nr, 3);
	engine_free(e);
}

/*
 * Idle pull takes only tasks allowed on the idle CPU: with D left pinned
 * to 0, the candidates are C (121) and B (123): C moves.
 */
static void
test_idle_pull_allowed(void **state)
{
	struct engine	*e;
	int		 ids[5];

	e = pull_setup(ids, "bc");
	RUN_TO(e, 5);
	ROW(e, 1, ids[3], 121, 1, 10);
	assert_int_equal(et_info(e, ids[4]).cpu, 0);
	engine_free(e);
}

/*
 * Idle pull takes a worse rank when the better ones may not move: only B
 * widened -> B (123, left 10) moves to CPU 1.
 */
static void
test_idle_pull_worse_rank(void **state)
{
	struct engine	*e;
	int		 ids[5];

	e = pull_setup(ids, "b");
	RUN_TO(e, 5);
	ROW(e, 1, ids[2], 123, 1, 10);
	engine_free(e);
}

/*
 * Nothing to pull: with nothing widened no task may run on CPU 1, which
 * stays idle; the head of the best rank is never taken either (a CPU with
 * nr 1 gives nothing: the last check).
 */
static void
test_idle_pull_none(void **state)
{
	struct engine	*e;
	int		 ids[5];
	char		*cause = NULL;

	e = pull_setup(ids, "");
	RUN_TO(e, 5);
	IDLE(e, 1);
	assert_int_equal(et_row(e, 0).nr, 4);
	/* Leave A alone on CPU 0, allowed anywhere: it stays put. */
	assert_int_equal(engine_task_kill(e, ids[2], &cause), 0);
	assert_int_equal(engine_task_kill(e, ids[3], &cause), 0);
	assert_int_equal(engine_task_kill(e, ids[4], &cause), 0);
	set_affinity(e, ids[1], "0-1");
	RUN_TO(e, 6);
	ROW(e, 0, ids[1], 120, 1, 4);
	IDLE(e, 1);
	engine_free(e);
}

/*
 * Idle pull from the busiest, ties to the lowest index: 3 CPUs; E (pinned
 * to 2, runtime 5); A, B pinned to 0; C, D pinned to 1; B and D widened
 * to 0-2 before tick 1.  At 5 CPU 2 is idle, CPUs 0 and 1 both have nr 2:
 * it pulls from CPU 0, so B (120, left 10) runs on CPU 2.
 */
static void
test_idle_pull_tie(void **state)
{
	struct engine	*e = et_engine(3, 10, 0, 0);
	int		 b, d;

	et_add(e, "e", ENGINE_SIM, 0, 0, NULL, 0, 5, "2", -1);
	et_hog(e, "a", 0, 0, "0");
	b = et_hog(e, "b", 0, 0, "0");
	et_hog(e, "c", 0, 0, "1");
	d = et_hog(e, "d", 0, 0, "1");
	RUN_TO(e, 0);
	set_affinity(e, b, "0-2");
	set_affinity(e, d, "0-2");
	RUN_TO(e, 5);
	ROW(e, 2, b, 120, 1, 10);
	assert_int_equal(et_info(e, d).cpu, 1);
	engine_free(e);
}

/*
 * Build the balance case: CPU 1 holds nfill hogs pinned to 1; CPU 0 holds
 * A, B, C, D (nice 0 hogs created pinned to 0; B, C, D widened to 0-1
 * after tick 0).  On CPU 0 they take turns, 10 ticks each per rank: A, B,
 * C, D at 120 (0..39), at 121 (40..79), then A 80..89 and B 90..99 at
 * 122.  At 100: 122 = [C, D] with C at the head, 123 = [A, B].
 */
static struct engine *
balance_setup(int nfill, int *ids)
{
	struct engine	*e = et_engine(2, 10, 0, 0);
	char		 name[16];
	int		 i;

	for (i = 0; i < nfill; i++) {
		snprintf(name, sizeof name, "f%d", i);
		et_hog(e, name, 0, 0, "1");
	}
	ids[0] = et_hog(e, "a", 0, 0, "0");
	ids[1] = et_hog(e, "b", 0, 0, "0");
	ids[2] = et_hog(e, "c", 0, 0, "0");
	ids[3] = et_hog(e, "d", 0, 0, "0");
	RUN_TO(e, 0);
	for (i = 1; i < 4; i++)
		set_affinity(e, ids[i], "0-1");
	return (e);
}

/*
 * Periodic balance at t = 100: CPU 0 (nr 4) has 3 more than CPU 1 (nr 1),
 * >= 2, so CPU 1 takes one task chosen as idle pull does: not C (head of
 * the best rank 122), D (122, nearest the tail).  CPU 1's hog has run 100
 * ticks alone (120..129): it is at 130, so D (122, left 10) runs there at
 * once.  Nothing moves before 100 (not a balance tick, and CPU 1 is never
 * idle).
 */
static void
test_balance(void **state)
{
	struct engine	*e;
	int		 ids[4], i;

	e = balance_setup(1, ids);
	RUN_TO(e, 99);
	for (i = 0; i < 4; i++)
		assert_int_equal(et_info(e, ids[i]).cpu, 0);
	ROW(e, 0, ids[1], 122, 1, 1);
	ROW(e, 1, 1, 129, 1, 1);
	RUN_TO(e, 100);
	ROW(e, 0, ids[2], 122, 1, 10);
	ROW(e, 1, ids[3], 122, 1, 10);
	assert_int_equal(et_info(e, ids[3]).cpu, 1);
	assert_int_equal(et_row(e, 0).nr, 3);
	assert_int_equal(et_row(e, 1).nr, 2);
	/* 3 vs 2 is balanced enough: nothing moves at 200. */
	RUN_TO(e, 200);
	assert_int_equal(et_row(e, 0).nr, 3);
	assert_int_equal(et_row(e, 1).nr, 2);
	engine_free(e);
}

/*
 * No balance when the busiest has only 1 more: CPU 1 holds 3 pinned
 * hogs, CPU 0 4: nothing moves at 100.
 */
static void
test_balance_one_more(void **state)
{
	struct engine	*e;
	int		 ids[4], i;

	e = balance_setup(3, ids);
	RUN_TO(e, 100);
	for (i = 0; i < 4; i++)
		assert_int_equal(et_info(e, ids[i]).cpu, 0);
	assert_int_equal(et_row(e, 0).nr, 4);
	assert_int_equal(et_row(e, 1).nr, 3);
	engine_free(e);
}

/*
 * The balance interval is a parameter: with balance_interval 30, the move
 * of test_balance happens at 30 instead.  At 30 CPU 0 has run A, B, C at
 * 120 (0..29): 120 = [D], 121 = [A, B, C].  D heads the best rank, so
 * the pick is C (121, nearest the tail of 121); CPU 1's hog is at 123.
 */
static void
test_balance_interval(void **state)
{
	struct engine	*e = et_engine(2, 10, 0, 30);
	int		 ids[4], i;

	et_hog(e, "f0", 0, 0, "1");
	ids[0] = et_hog(e, "a", 0, 0, "0");
	ids[1] = et_hog(e, "b", 0, 0, "0");
	ids[2] = et_hog(e, "c", 0, 0, "0");
	ids[3] = et_hog(e, "d", 0, 0, "0");
	RUN_TO(e, 0);
	for (i = 1; i < 4; i++)
		set_affinity(e, ids[i], "0-1");
	RUN_TO(e, 29);
	assert_int_equal(et_info(e, ids[2]).cpu, 0);
	RUN_TO(e, 30);
	ROW(e, 0, ids[3], 120, 1, 10);
	ROW(e, 1, ids[2], 121, 1, 10);
	engine_free(e);
}

/*
 * An affinity change that excludes the current CPU moves the task at once
 * by the placement rule.  2 CPUs: A -> 0, B -> 1.  After tick 4 A (120,
 * left 6 during tick 4, 5 after) is set to CPU 1 only: it moves there
 * before tick 5, to the tail of 120 behind B, keeping 120, k 1, left 5.
 * CPU 0 stays idle from 5 to 9: CPU 1 has nr 2, but B heads its best rank
 * and A may not run on 0.  B expires after tick 9 (-> 121), A leads 120,
 * so at 10 the idle CPU 0 pulls B (121, left 10); A runs its 5 ticks on
 * CPU 1 (10..14), then 121 with left 10 at 15, alone there.
 */
static void
test_affinity_moves(void **state)
{
	struct engine	*e = et_engine(2, 10, 0, 0);
	struct engine_task_info ti;
	int		 a, b;

	a = et_hog(e, "a", 0, 0, NULL);
	b = et_hog(e, "b", 0, 0, NULL);
	RUN_TO(e, 4);
	ROW(e, 0, a, 120, 1, 6);
	set_affinity(e, a, "1");
	ti = et_info(e, a);
	assert_int_equal(ti.cpu, 1);
	assert_true(cpumask_equal(&ti.affinity, &(struct cpumask){ { 2 } }));
	assert_true(cpumask_equal(&ti.allowed, &(struct cpumask){ { 2 } }));
	STAIR(e, a, 120, 1, 5);
	RUN_TO(e, 5);
	IDLE(e, 0);
	ROW(e, 1, b, 120, 1, 5);
	assert_int_equal(et_row(e, 1).nr, 2);
	RUN_TO(e, 9);
	IDLE(e, 0);
	ROW(e, 1, b, 120, 1, 1);
	RUN_TO(e, 10);
	ROW(e, 0, b, 121, 1, 10);
	ROW(e, 1, a, 120, 1, 5);
	RUN_TO(e, 15);
	ROW(e, 1, a, 121, 1, 10);
	assert_int_equal(et_row(e, 1).nr, 1);
	engine_free(e);
}

/*
 * A sleeping task whose affinity changes is placed by its new mask when it
 * wakes: X [1, 20] runs on CPU 0 at 0; set to CPU 1 while asleep, it wakes
 * at 21 on CPU 1.
 */
static void
test_affinity_sleeping(void **state)
{
	struct engine	*e = et_engine(2, 10, 0, 0);
	int		 x;

	x = et_pat(e, "x", 0, 0, 1, 20, NULL);
	RUN_TO(e, 0);
	ROW(e, 0, x, 120, 1, 10);
	set_affinity(e, x, "1");
	RUN_TO(e, 21);
	IDLE(e, 0);
	ROW(e, 1, x, 120, 1, 10);
	engine_free(e);
}

/*
 * A group change moves its tasks at once: group g = 0-1; A (in g) -> CPU
 * 0, B (no group) -> CPU 1.  After tick 4, g's cpus become 1: A moves to
 * CPU 1 (nr 1, the only allowed CPU).
 */
static void
test_group_moves(void **state)
{
	struct engine		*e = et_engine(2, 10, 0, 0);
	struct engine_task_info	 ti;
	struct cpumask		 m;
	char			*cause = NULL;
	int			 g, a, b;

	m = et_mask("0-1");
	g = engine_group_add(e, "g", &m, &cause);
	assert_true(g >= 0);
	assert_int_equal(engine_group_find(e, "g"), g);
	assert_int_equal(engine_group_find(e, "nope"), -1);
	assert_int_equal(engine_ngroups(e), 1);
	assert_string_equal(engine_group_name(e, g), "g");
	assert_int_equal(engine_group_cpus(e, g, &m), 0);
	assert_true(cpumask_equal(&m, &(struct cpumask){ .bits = { 3 } }));
	assert_int_equal(engine_group_cpus(e, g + 1, &m), -1);
	m = et_mask("0-1");
	a = et_add(e, "a", ENGINE_SIM, 0, 0, NULL, 0, 0, NULL, g);
	b = et_hog(e, "b", 0, 0, NULL);
	RUN_TO(e, 4);
	assert_int_equal(et_info(e, a).cpu, 0);
	assert_int_equal(et_info(e, a).group, g);
	m = et_mask("1");
	assert_int_equal(engine_group_set_cpus(e, g, &m, &cause), 0);
	assert_int_equal(engine_group_cpus(e, g, &ti.allowed), 0);
	assert_true(cpumask_equal(&ti.allowed, &m));
	ti = et_info(e, a);
	assert_int_equal(ti.cpu, 1);
	assert_true(cpumask_equal(&ti.allowed, &m));
	RUN_TO(e, 5);
	IDLE(e, 0);
	ROW(e, 1, b, 120, 1, 5);
	RUN_TO(e, 10);
	ROW(e, 1, a, 120, 1, 5);
	engine_free(e);
}

/*
 * The allowed set is affinity & group cpus.  Group g = 1: a task pinned to
 * 0 in g is refused (empty), as are an affinity change to 0 for a task in
 * g, a group change that empties a member's set, and an empty mask.  The
 * refused changes leave everything as it was.
 */
static void
test_empty_allowed(void **state)
{
	struct engine		*e = et_engine(2, 10, 0, 0);
	struct engine_task_spec	 s;
	struct engine_task_info	 ti;
	struct cpumask		 m, zero;
	char			*cause;
	int			 g, id, n;

	m = et_mask("1");
	cause = NULL;
	g = engine_group_add(e, "g", &m, &cause);
	assert_true(g >= 0);
	memset(&s, 0, sizeof s);
	s.name = "bad";
	s.group = g;
	m = et_mask("0");
	s.cpus = &m;
	cause = NULL;
	assert_int_equal(engine_task_add(e, &s, &cause), -1);
	assert_non_null(cause);
	free(cause);
	n = engine_ntasks(e);
	assert_int_equal(n, 0);

	id = et_add(e, "ok", ENGINE_SIM, 0, 0, NULL, 0, 0, "0-1", g);
	RUN_TO(e, 0);
	ROW(e, 1, id, 120, 1, 10);
	ti = et_info(e, id);
	assert_true(cpumask_equal(&ti.allowed, &(struct cpumask){ { 2 } }));

	m = et_mask("0");
	cause = NULL;
	assert_int_equal(engine_task_affinity(e, id, &m, &cause), -1);
	assert_non_null(cause);
	free(cause);
	ti = et_info(e, id);
	assert_true(cpumask_equal(&ti.affinity, &(struct cpumask){ { 3 } }));
	assert_int_equal(ti.cpu, 1);

	cpumask_zero(&zero);
	cause = NULL;
	assert_int_equal(engine_task_affinity(e, id, &zero, &cause), -1);
	assert_non_null(cause);
	free(cause);

	set_affinity(e, id, "1");
	m = et_mask("0");
	cause = NULL;
	assert_int_equal(engine_group_set_cpus(e, g, &m, &cause), -1);
	assert_non_null(cause);
	free(cause);
	ti = et_info(e, id);
	assert_true(cpumask_equal(&ti.allowed, &(struct cpumask){ { 2 } }));
	RUN_TO(e, 1);
	ROW(e, 1, id, 120, 1, 9);
	engine_free(e);
}

/*
 * An affinity event fires before the arrivals of its tick: X (start 10)
 * would land on CPU 0, the lowest idle; the event at 10 pins it to 1.
 */
static void
test_affinity_event(void **state)
{
	struct engine		*e = et_engine(2, 10, 0, 0);
	struct engine_event	 ev;
	int			 x;

	x = et_hog(e, "x", 0, 10, NULL);
	memset(&ev, 0, sizeof ev);
	ev.at = 10;
	ev.action = ENGINE_ACT_AFFINITY;
	ev.task = x;
	ev.cpus = et_mask("1");
	engine_event_add(e, &ev);
	RUN_TO(e, 10);
	IDLE(e, 0);
	ROW(e, 1, x, 120, 1, 10);
	engine_free(e);
}

/* 64 CPUs and more work: a hog pinned to CPU 63 runs there. */
static void
test_many_cpus(void **state)
{
	struct engine	*e = et_engine(64, 10, 0, 0);
	int		 id, c;

	id = et_hog(e, "far", 0, 0, "63");
	RUN_TO(e, 0);
	for (c = 0; c < 63; c++)
		IDLE(e, c);
	ROW(e, 63, id, 120, 1, 10);
	assert_int_equal(et_row(e, 63).cpu, 63);
	engine_free(e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_place_last_idle),
		cmocka_unit_test(test_place_lowest_idle),
		cmocka_unit_test(test_place_last_busy),
		cmocka_unit_test(test_place_fewest),
		cmocka_unit_test(test_place_spread),
		cmocka_unit_test(test_idle_pull),
		cmocka_unit_test(test_idle_pull_allowed),
		cmocka_unit_test(test_idle_pull_worse_rank),
		cmocka_unit_test(test_idle_pull_none),
		cmocka_unit_test(test_idle_pull_tie),
		cmocka_unit_test(test_balance),
		cmocka_unit_test(test_balance_one_more),
		cmocka_unit_test(test_balance_interval),
		cmocka_unit_test(test_affinity_moves),
		cmocka_unit_test(test_affinity_sleeping),
		cmocka_unit_test(test_group_moves),
		cmocka_unit_test(test_empty_allowed),
		cmocka_unit_test(test_affinity_event),
		cmocka_unit_test(test_many_cpus),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
