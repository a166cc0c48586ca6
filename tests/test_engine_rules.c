/*
 * test_engine_rules.c -- the staircase rules of SPEC.md section 1 on one
 * CPU: the article's tables, expiry, fall-off, the bottom dwell, the climb
 * on waking, sleep_min, nice changes, preemption, runtime and kill.
 *
 * Every expected number is worked out by hand in the comment above it,
 * with rr = 10 unless said otherwise.  Rows are read after the tick they
 * describe: RUN_TO(e, t) then ROW(e, cpu, task, rank, iter, left).
 */
#include "engine_test.h"
#include "staircase.h"

#define MAXDESC	64

/* Ticks a task ran per descent and rank, summed over every CPU. */
struct table {
	uint32_t	ticks[MAXDESC][ENGINE_NRANKS];
	uint32_t	maxdesc;
};

/* Run n ticks, adding the task's rows to the table. */
static void
table_run(struct engine *e, int id, uint64_t n, struct table *tb)
{
	struct engine_cpu_info	ci;
	const struct engine_params *p = engine_params(e);
	uint64_t		i;
	int			c;

	for (i = 0; i < n; i++) {
		engine_tick(e);
		for (c = 0; c < p->cpus; c++) {
			engine_cpu_info(e, c, &ci);
			if (ci.task != id)
				continue;
			assert_in_range(ci.field[STAIRCASE_DESCENT], 1, MAXDESC - 1);
			assert_in_range(ci.rank, 0, ENGINE_BOTTOM);
			tb->ticks[ci.field[STAIRCASE_DESCENT]][ci.rank]++;
			if (ci.field[STAIRCASE_DESCENT] > tb->maxdesc)
				tb->maxdesc = ci.field[STAIRCASE_DESCENT];
		}
	}
}

/*
 * A hog alone: descent d runs at k = min(d, L): k*rr ticks at top(k) =
 * prio + k - 1, then rr at each rank below it down to 139, nothing above.
 * Each descent is thus L*rr ticks long.
 */
static void
table_check_hog(const struct table *tb, int prio, int rr, uint32_t ndesc)
{
	int		L = 140 - prio, k, r, want;
	uint32_t	d;

	assert_int_equal(tb->maxdesc, ndesc);
	for (d = 1; d <= ndesc; d++) {
		k = (int)d < L ? (int)d : L;
		for (r = 0; r < ENGINE_NRANKS; r++) {
			if (r < prio + k - 1)
				want = 0;
			else if (r == prio + k - 1)
				want = k * rr;
			else
				want = rr;
			if ((int)tb->ticks[d][r] != want) {
				print_error("descent %u rank %d: want %d ticks, "
				    "got %u\n", d, r, want, tb->ticks[d][r]);
				fail();
			}
		}
	}
}

/*
 * The article's table: a nice-0 hog alone on one CPU, rr 10, 600 ticks.
 * Descent 1: 120..139, 10 ticks each (200).  Fall-off: k=2, r=121,
 * left=20; descent 2: 20 at 121 then 10 each 122..139 (200).  Descent 3:
 * 30 at 122, then 10 each 123..139 (200).  600 ticks = exactly 3 rows.
 * In units of rr (the article's cells):
 *   1 | 1 1 1 1 ... 1
 *   2 |   2 1 1 ... 1
 *   3 |     3 1 ... 1
 */
static void
test_article_table(void **state)
{
	static const uint8_t	 want[4][20] = {
		{ 0 },
		{ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 },
		{ 0, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 },
		{ 0, 0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 },
	};
	struct table		*tb = calloc(1, sizeof *tb);
	struct engine		*e = et_engine(1, 10, 0, 0);
	int			 id, d, col;

	id = et_hog(e, "hog", 0, 0, NULL);
	table_run(e, id, 600, tb);
	assert_int_equal(tb->maxdesc, 3);
	for (d = 1; d <= 3; d++) {
		for (col = 0; col < 20; col++)
			assert_int_equal(tb->ticks[d][120 + col],
			    want[d][col] * 10);
		for (col = 0; col < 120; col++)
			assert_int_equal(tb->ticks[d][col], 0);
	}
	table_check_hog(tb, 120, 10, 3);
	engine_free(e);
	free(tb);
}

/*
 * A nice +10 hog: static 130, L = 10 stairs (130..139), 100 ticks a
 * descent.  Row 1: 10 each 130..139; row 2: 20 at 131, 10 each 132..139;
 * row 3: 30 at 132, 10 each 133..139; row 4: 40 at 133, ...  400 ticks.
 */
static void
test_table_nice10(void **state)
{
	struct table	*tb = calloc(1, sizeof *tb);
	struct engine	*e = et_engine(1, 10, 0, 0);
	int		 id;

	assert_int_equal((ENGINE_NRANKS - NICE_TO_PRIO(10)), 10);
	id = et_hog(e, "hog", 10, 0, NULL);
	table_run(e, id, 400, tb);
	assert_int_equal(tb->ticks[2][131], 20);
	assert_int_equal(tb->ticks[4][133], 40);
	assert_int_equal(tb->ticks[4][139], 10);
	table_check_hog(tb, 130, 10, 4);
	engine_free(e);
	free(tb);
}

/*
 * A nice -5 hog: static 115, L = 25 stairs (115..139), 250 ticks a
 * descent.  Row 1: 10 each 115..139; row 2: 20 at 116, then 10 each;
 * row 3: 30 at 117, 10 each 118..139.  750 ticks.
 */
static void
test_table_nice_minus5(void **state)
{
	struct table	*tb = calloc(1, sizeof *tb);
	struct engine	*e = et_engine(1, 10, 0, 0);
	int		 id;

	assert_int_equal((ENGINE_NRANKS - NICE_TO_PRIO(-5)), 25);
	id = et_hog(e, "hog", -5, 0, NULL);
	table_run(e, id, 750, tb);
	assert_int_equal(tb->ticks[1][115], 10);
	assert_int_equal(tb->ticks[3][117], 30);
	assert_int_equal(tb->ticks[3][116], 0);
	table_check_hog(tb, 115, 10, 3);
	engine_free(e);
	free(tb);
}

/* The number of stairs: L = 140 - (120 + nice). */
static void
test_stairs(void **state)
{
	assert_int_equal((ENGINE_NRANKS - NICE_TO_PRIO(0)), 20);
	assert_int_equal((ENGINE_NRANKS - NICE_TO_PRIO(-20)), 40);
	assert_int_equal((ENGINE_NRANKS - NICE_TO_PRIO(19)), 1);
	assert_int_equal((ENGINE_NRANKS - NICE_TO_PRIO(1)), 19);
}

/*
 * Step down and fall-off, row by row.  A new task: 120, k 1, left 10.
 * Tick 9: left 1, expires -> 121, left 10 at tick 10.  Tick 199: 139 left
 * 1 -> falls off: k 2, r = top(2) = 121, left = 2*10 = 20 (descent 2).
 * Tick 219: 121 left 1 -> 122, left 10 (k stays 2).
 */
static void
test_step_and_falloff(void **state)
{
	struct engine		*e = et_engine(1, 10, 0, 0);
	struct engine_task_info	 ti;
	int			 id;

	id = et_hog(e, "hog", 0, 0, NULL);
	ti = et_info(e, id);
	assert_int_equal(ti.nice, 0);
	assert_int_equal(ti.prio, 120);
	STAIR(e, id, 120, 1, 10);
	RUN_TO(e, 0);
	ROW(e, 0, id, 120, 1, 10);
	assert_int_equal(et_row(e, 0).field[STAIRCASE_DESCENT], 1);
	assert_int_equal(et_row(e, 0).nr, 1);
	STAIR(e, id, 120, 1, 9);
	RUN_TO(e, 9);
	ROW(e, 0, id, 120, 1, 1);
	STAIR(e, id, 121, 1, 10);
	RUN_TO(e, 10);
	ROW(e, 0, id, 121, 1, 10);
	RUN_TO(e, 199);
	ROW(e, 0, id, 139, 1, 1);
	assert_int_equal(et_row(e, 0).field[STAIRCASE_DESCENT], 1);
	RUN_TO(e, 200);
	ROW(e, 0, id, 121, 2, 20);
	assert_int_equal(et_row(e, 0).field[STAIRCASE_DESCENT], 2);
	RUN_TO(e, 219);
	ROW(e, 0, id, 121, 2, 1);
	RUN_TO(e, 220);
	ROW(e, 0, id, 122, 2, 10);
	ti = et_info(e, id);
	assert_int_equal(ti.ran, 221);
	assert_int_equal(ti.state, ENGINE_RUNNABLE);
	assert_int_equal(ti.running, 1);
	assert_int_equal(ti.cpu, 0);
	engine_free(e);
}

/*
 * The bottom dwell, nice 19: static 139, L = 1.  It starts at 139, k 1,
 * left 10; every expiry is a fall-off to top(min(2, 1)) = 139 with left
 * 1*10: 10 ticks a descent, the descent counter moving every 10 ticks.
 */
static void
test_bottom_nice19(void **state)
{
	struct engine	*e = et_engine(1, 10, 0, 0);
	int		 id;
	uint64_t	 t;

	id = et_hog(e, "lazy", 19, 0, NULL);
	for (t = 0; t < 50; t++) {
		RUN_TO(e, t);
		ROW(e, 0, id, 139, 1, 10 - (int)(t % 10));
		assert_int_equal(et_row(e, 0).field[STAIRCASE_DESCENT], t / 10 + 1);
	}
	engine_free(e);
}

/*
 * The bottom dwell of a nice-0 hog: descent d lasts 200 ticks and starts
 * at 200*(d-1).  Descent 19 (k 19, top 138) starts at 3600: 190 ticks at
 * 138, then 139 for 10 (3790..3799).  Descent 20 at 3800: k 20, top(20) =
 * 139, left 200.  At 4000 it falls off again: k = min(21, 20) = 20, r 139,
 * left 200 (descent 21), and again at 4200 (descent 22).
 */
static void
test_bottom_nice0(void **state)
{
	struct engine	*e = et_engine(1, 10, 0, 0);
	int		 id;

	id = et_hog(e, "hog", 0, 0, NULL);
	RUN_TO(e, 3789);
	ROW(e, 0, id, 138, 19, 1);
	RUN_TO(e, 3799);
	ROW(e, 0, id, 139, 19, 1);
	assert_int_equal(et_row(e, 0).field[STAIRCASE_DESCENT], 19);
	RUN_TO(e, 3800);
	ROW(e, 0, id, 139, 20, 200);
	assert_int_equal(et_row(e, 0).field[STAIRCASE_DESCENT], 20);
	RUN_TO(e, 3999);
	ROW(e, 0, id, 139, 20, 1);
	RUN_TO(e, 4000);
	ROW(e, 0, id, 139, 20, 200);
	assert_int_equal(et_row(e, 0).field[STAIRCASE_DESCENT], 21);
	RUN_TO(e, 4200);
	ROW(e, 0, id, 139, 20, 200);
	assert_int_equal(et_row(e, 0).field[STAIRCASE_DESCENT], 22);
	engine_free(e);
}

/*
 * Climb without a change of descent.  Hog: 120 for 0..9, 121 for 10..19,
 * 122 from 20; after tick 24 it is at 122, k 1, left 5.  An injected sleep
 * of 5 at tick 25 makes it runnable at 30 (ticks 25..29 idle).  Waking
 * after 5 >= sleep_min ticks: r 121 >= top(1) = 120 so k stays 1, left =
 * allot(121, 1) = rr = 10.  It then steps down at 40 as usual.
 */
static void
test_climb_same_descent(void **state)
{
	struct engine		*e = et_engine(1, 10, 0, 0);
	struct engine_task_info	 ti;
	char			*cause = NULL;
	int			 id;

	id = et_hog(e, "hog", 0, 0, NULL);
	RUN_TO(e, 24);
	ROW(e, 0, id, 122, 1, 6);
	assert_int_equal(engine_task_sleep(e, id, 5, &cause), 0);
	ti = et_info(e, id);
	assert_int_equal(ti.state, ENGINE_SLEEPING);
	assert_int_equal(ti.wake, 30);
	assert_int_equal(ti.injected, 1);
	STAIR(e, id, 122, 1, 5);		/* a sleeper keeps r, k, left */
	RUN_TO(e, 25);
	IDLE(e, 0);
	assert_int_equal(et_row(e, 0).nr, 0);
	RUN_TO(e, 29);
	IDLE(e, 0);
	assert_int_equal(et_info(e, id).state, ENGINE_SLEEPING);
	RUN_TO(e, 30);
	ROW(e, 0, id, 121, 1, 10);
	assert_int_equal(et_row(e, 0).field[STAIRCASE_DESCENT], 1);
	RUN_TO(e, 39);
	ROW(e, 0, id, 121, 1, 1);
	RUN_TO(e, 40);
	ROW(e, 0, id, 122, 1, 10);
	engine_free(e);
}

/*
 * Climb onto the top of the descent: allot is k*rr there.  Descent 2
 * starts at 200 (121, k 2, left 20); 122 from 220; after tick 222 left 7.
 * Sleep 2 at 223 -> runnable at 225: r 121 = top(2), k stays 2, left =
 * allot(121, 2) = 2*10 = 20.
 */
static void
test_climb_to_top(void **state)
{
	struct engine	*e = et_engine(1, 10, 0, 0);
	char		*cause = NULL;
	int		 id;

	id = et_hog(e, "hog", 0, 0, NULL);
	RUN_TO(e, 222);
	ROW(e, 0, id, 122, 2, 8);
	assert_int_equal(engine_task_sleep(e, id, 2, &cause), 0);
	RUN_TO(e, 224);
	IDLE(e, 0);
	RUN_TO(e, 225);
	ROW(e, 0, id, 121, 2, 20);
	engine_free(e);
}

/*
 * Climb with a change of descent.  Descent 3 starts at 400: 122 = top(3),
 * k 3, left 30; after tick 404 left 25.  Sleep 10 at 405 -> runnable at
 * 415: r 121 < top(3) = 122, so k = 2, and left = allot(121, 2) = 20 since
 * 121 = top(2).  The descent counter (fall-offs + 1) stays 3.  Then 20
 * ticks at 121 (415..434), 122 with left 10 from 435, 10 ticks each down
 * to 139 (18 ranks: 435..614), and the fall-off at 615 goes to k = 3 from
 * the current k 2: r = 122, left 30, descent 4.
 */
static void
test_climb_change_descent(void **state)
{
	struct engine	*e = et_engine(1, 10, 0, 0);
	char		*cause = NULL;
	int		 id;

	id = et_hog(e, "hog", 0, 0, NULL);
	RUN_TO(e, 400);
	ROW(e, 0, id, 122, 3, 30);
	assert_int_equal(et_row(e, 0).field[STAIRCASE_DESCENT], 3);
	RUN_TO(e, 404);
	assert_int_equal(engine_task_sleep(e, id, 10, &cause), 0);
	RUN_TO(e, 414);
	IDLE(e, 0);
	RUN_TO(e, 415);
	ROW(e, 0, id, 121, 2, 20);
	assert_int_equal(et_row(e, 0).field[STAIRCASE_DESCENT], 3);
	RUN_TO(e, 434);
	ROW(e, 0, id, 121, 2, 1);
	RUN_TO(e, 435);
	ROW(e, 0, id, 122, 2, 10);
	RUN_TO(e, 614);
	ROW(e, 0, id, 139, 2, 1);
	RUN_TO(e, 615);
	ROW(e, 0, id, 122, 3, 30);
	assert_int_equal(et_row(e, 0).field[STAIRCASE_DESCENT], 4);
	engine_free(e);
}

/*
 * A task at static keeps its rank and gets a fresh allot: 3 ticks at 120
 * (left 7), sleep 1 at tick 3 -> runnable at 4, at 120 with left =
 * allot(120, 1) = 10.
 */
static void
test_climb_at_static(void **state)
{
	struct engine	*e = et_engine(1, 10, 0, 0);
	char		*cause = NULL;
	int		 id;

	id = et_hog(e, "hog", 0, 0, NULL);
	RUN_TO(e, 2);
	STAIR(e, id, 120, 1, 7);
	assert_int_equal(engine_task_sleep(e, id, 1, &cause), 0);
	RUN_TO(e, 3);
	IDLE(e, 0);
	RUN_TO(e, 4);
	ROW(e, 0, id, 120, 1, 10);
	engine_free(e);
}

/*
 * sleep_min = 5.  After tick 24 the hog is at 122, left 5.  Sleep 4 at 25
 * -> runnable at 29 having slept 4 < 5 ticks: nothing changes, it runs at
 * 122 with left 5.  After tick 29, left 4; sleep 5 at 30 -> runnable at
 * 35 having slept 5 >= 5: climbs to 121, left 10.
 */
static void
test_sleep_min(void **state)
{
	struct engine	*e = et_engine(1, 10, 5, 0);
	char		*cause = NULL;
	int		 id;

	id = et_hog(e, "hog", 0, 0, NULL);
	RUN_TO(e, 24);
	assert_int_equal(engine_task_sleep(e, id, 4, &cause), 0);
	RUN_TO(e, 28);
	IDLE(e, 0);
	RUN_TO(e, 29);
	ROW(e, 0, id, 122, 1, 5);
	assert_int_equal(engine_task_sleep(e, id, 5, &cause), 0);
	RUN_TO(e, 34);
	IDLE(e, 0);
	RUN_TO(e, 35);
	ROW(e, 0, id, 121, 1, 10);
	engine_free(e);
}

/*
 * Nice changes from the state after tick 404 (122, k 3, left 25; nice 0).
 * To +5: static 125, r = 122+5 = 127, L' 15, k = min(3, 15, 127-125+1) =
 * 3, top(3) = 127, left = min(25, allot(127, 3) = 30) = 25.
 * To -5: static 115, r 117, k = min(3, 25, 3) = 3, left 25.
 * To +19: static 139, r = 141 clamped to 139, L' 1, k = min(3, 1, 1) = 1,
 * left = min(25, allot(139, 1) = 10) = 10.
 */
static void
test_nice_change(void **state)
{
	static const int	 nices[3] = { 5, -5, 19 };
	static const int	 want[3][4] = {
		{ 125, 127, 3, 25 },
		{ 115, 117, 3, 25 },
		{ 139, 139, 1, 10 },
	};
	struct engine		*e;
	struct engine_task_info	 ti;
	char			*cause = NULL;
	int			 i, id;

	for (i = 0; i < 3; i++) {
		e = et_engine(1, 10, 0, 0);
		id = et_hog(e, "hog", 0, 0, NULL);
		RUN_TO(e, 404);
		STAIR(e, id, 122, 3, 25);
		assert_int_equal(engine_task_nice(e, id, nices[i], &cause), 0);
		ti = et_info(e, id);
		assert_int_equal(ti.nice, nices[i]);
		assert_int_equal(ti.prio, want[i][0]);
		STAIR(e, id, want[i][1], want[i][2], want[i][3]);
		RUN_TO(e, 405);
		ROW(e, 0, id, want[i][1], want[i][2], want[i][3]);
		engine_free(e);
	}
}

/*
 * Nice change clamping k to L'.  A nice-0 hog in descent 15 (starts at
 * 2800: k 15, top 134, 150 ticks at 134 = 2800..2949, then 135 from
 * 2950).  After tick 2952: 135, k 15, left 7.  Nice +10: static 130,
 * r = 145 -> 139, L' = 10, k = min(15, 10, 139-130+1 = 10) = 10, top(10) =
 * 139 so allot = 100, left = min(7, 100) = 7.  Ticks 2953..2959 use those
 * 7; at 2960 it falls off: k = min(11, 10) = 10, r = 139, left 100,
 * descent 16.
 */
static void
test_nice_clamp_k(void **state)
{
	struct engine	*e = et_engine(1, 10, 0, 0);
	char		*cause = NULL;
	int		 id;

	id = et_hog(e, "hog", 0, 0, NULL);
	RUN_TO(e, 2952);
	ROW(e, 0, id, 135, 15, 8);
	assert_int_equal(engine_task_nice(e, id, 10, &cause), 0);
	STAIR(e, id, 139, 10, 7);
	RUN_TO(e, 2953);
	ROW(e, 0, id, 139, 10, 7);
	RUN_TO(e, 2959);
	ROW(e, 0, id, 139, 10, 1);
	assert_int_equal(et_row(e, 0).field[STAIRCASE_DESCENT], 15);
	RUN_TO(e, 2960);
	ROW(e, 0, id, 139, 10, 100);
	assert_int_equal(et_row(e, 0).field[STAIRCASE_DESCENT], 16);
	engine_free(e);
}

/*
 * A reniced task goes to the tail of its new rank.  A (nice 0), B (nice
 * 1), C (nice 0): 120 = [A, C], 121 = [B].  A runs tick 0 (left 9).  Nice
 * A to 1 at tick 1: static 121, r 121, k 1, left min(9, 10) = 9, tail of
 * 121 = [B, A].  C runs 1..10 at 120, then goes to 121 = [B, A, C].  B
 * runs 11..20, A 21..29 (its 9 left), C 30..39, B at 122 from 40.
 */
static void
test_nice_goes_to_tail(void **state)
{
	struct engine	*e = et_engine(1, 10, 0, 0);
	char		*cause = NULL;
	int		 a, b, c;

	a = et_hog(e, "a", 0, 0, NULL);
	b = et_hog(e, "b", 1, 0, NULL);
	c = et_hog(e, "c", 0, 0, NULL);
	RUN_TO(e, 0);
	ROW(e, 0, a, 120, 1, 10);
	assert_int_equal(et_row(e, 0).nr, 3);
	assert_int_equal(engine_task_nice(e, a, 1, &cause), 0);
	STAIR(e, a, 121, 1, 9);
	RUN_TO(e, 1);
	ROW(e, 0, c, 120, 1, 10);
	RUN_TO(e, 10);
	ROW(e, 0, c, 120, 1, 1);
	RUN_TO(e, 11);
	ROW(e, 0, b, 121, 1, 10);
	RUN_TO(e, 21);
	ROW(e, 0, a, 121, 1, 9);
	RUN_TO(e, 29);
	ROW(e, 0, a, 121, 1, 1);
	RUN_TO(e, 30);
	ROW(e, 0, c, 121, 1, 10);
	RUN_TO(e, 40);
	ROW(e, 0, b, 122, 1, 10);
	engine_free(e);
}

/*
 * A better rank preempts at the next tick.  A hog (id 1) and B [1, 34]
 * (id 2), both nice 0: 120 = [A, B].  A runs 0..9, B runs 10 (left 10,
 * burst over) and sleeps: runnable at 10 + 34 + 1 = 45.  A: 121 at
 * 11..20, 122 at 21..30, 123 at 31..40, 124 from 41 (left 10 at 41, 6
 * left after tick 44).  At 45 B wakes at 120 (static: fresh allot 10) and
 * runs in that very tick; A resumes at 46 with its 6 ticks left at 124.
 */
static void
test_better_rank_preempts(void **state)
{
	struct engine	*e = et_engine(1, 10, 0, 0);
	int		 a, b;

	a = et_hog(e, "a", 0, 0, NULL);
	b = et_pat(e, "b", 0, 0, 1, 34, NULL);
	RUN_TO(e, 9);
	ROW(e, 0, a, 120, 1, 1);
	RUN_TO(e, 10);
	ROW(e, 0, b, 120, 1, 10);
	assert_int_equal(et_info(e, b).state, ENGINE_SLEEPING);
	assert_int_equal(et_info(e, b).wake, 45);
	RUN_TO(e, 44);
	ROW(e, 0, a, 124, 1, 7);
	RUN_TO(e, 45);
	ROW(e, 0, b, 120, 1, 10);
	assert_int_equal(et_info(e, a).running, 0);
	RUN_TO(e, 46);
	ROW(e, 0, a, 124, 1, 6);
	engine_free(e);
}

/*
 * An arrival at a better rank runs in the tick it arrives: A hog is at 122
 * at tick 25; B (nice 0, start 25) arrives at 120 and runs at 25.
 */
static void
test_arrival_preempts(void **state)
{
	struct engine		*e = et_engine(1, 10, 0, 0);
	struct engine_task_info	 ti;
	int			 a, b;

	a = et_hog(e, "a", 0, 0, NULL);
	b = et_hog(e, "b", 0, 25, NULL);
	RUN_TO(e, 24);
	ROW(e, 0, a, 122, 1, 6);
	ti = et_info(e, b);
	assert_int_equal(ti.state, ENGINE_WAITING);
	assert_int_equal(ti.cpu, -1);
	assert_int_equal(ti.ran, 0);
	RUN_TO(e, 25);
	ROW(e, 0, b, 120, 1, 10);
	assert_int_equal(et_row(e, 0).nr, 2);
	assert_int_equal(et_info(e, b).state, ENGINE_RUNNABLE);
	assert_int_equal(et_info(e, b).running, 1);
	engine_free(e);
}

/*
 * An equal rank waits its turn: A hog at 122 from 20 (left 5 after 24); B
 * (nice 2, start 25) arrives at its static 122 behind A.  A keeps the head
 * for its 5 ticks (25..29), B runs 30..39 at 122, A 40..49 at 123, B
 * 50..59 at 123.
 */
static void
test_equal_rank_waits(void **state)
{
	struct engine	*e = et_engine(1, 10, 0, 0);
	int		 a, b;

	a = et_hog(e, "a", 0, 0, NULL);
	b = et_hog(e, "b", 2, 25, NULL);
	RUN_TO(e, 25);
	ROW(e, 0, a, 122, 1, 5);
	RUN_TO(e, 29);
	ROW(e, 0, a, 122, 1, 1);
	RUN_TO(e, 30);
	ROW(e, 0, b, 122, 1, 10);
	RUN_TO(e, 40);
	ROW(e, 0, a, 123, 1, 10);
	RUN_TO(e, 50);
	ROW(e, 0, b, 123, 1, 10);
	engine_free(e);
}

/*
 * Two equal hogs share round-robin: A 0..9 at 120, B 10..19 at 120, A
 * 20..29 at 121, B 30..39 at 121.
 */
static void
test_round_robin(void **state)
{
	struct engine	*e = et_engine(1, 10, 0, 0);
	int		 a, b;

	a = et_hog(e, "a", 0, 0, NULL);
	b = et_hog(e, "b", 0, 0, NULL);
	RUN_TO(e, 9);
	ROW(e, 0, a, 120, 1, 1);
	STAIR(e, b, 120, 1, 10);
	RUN_TO(e, 10);
	ROW(e, 0, b, 120, 1, 10);
	RUN_TO(e, 20);
	ROW(e, 0, a, 121, 1, 10);
	RUN_TO(e, 30);
	ROW(e, 0, b, 121, 1, 10);
	engine_free(e);
}

/*
 * Runtime: A (nice 0, runtime 15) runs 0..9 at 120 and 10..14 at 121 and
 * exits at the end of tick 14 (ran = 15, left 6 during it); B (nice 5,
 * static 125) runs from 15.
 */
static void
test_runtime_exit(void **state)
{
	struct engine		*e = et_engine(1, 10, 0, 0);
	struct engine_task_info	 ti;
	int			 a, b;

	a = et_add(e, "a", ENGINE_SIM, 0, 0, NULL, 0, 15, NULL, -1);
	b = et_hog(e, "b", 5, 0, NULL);
	assert_int_equal(engine_nlive(e), 2);
	RUN_TO(e, 13);
	ti = et_info(e, a);
	assert_int_equal(ti.state, ENGINE_RUNNABLE);
	assert_int_equal(ti.ran, 14);
	RUN_TO(e, 14);
	ROW(e, 0, a, 121, 1, 6);
	ti = et_info(e, a);
	assert_int_equal(ti.state, ENGINE_EXITED);
	assert_int_equal(ti.exit, ENGINE_EXIT_RUNTIME);
	assert_int_equal(ti.ran, 15);
	assert_int_equal(engine_nlive(e), 1);
	RUN_TO(e, 15);
	ROW(e, 0, b, 125, 1, 10);
	assert_int_equal(et_row(e, 0).nr, 1);
	engine_free(e);
}

/*
 * Kill ends a task at once: A runs 0..4 (head of 120); killed before tick
 * 5, B runs at 5 with a full slice.  Unknown ids are refused with a cause.
 */
static void
test_kill(void **state)
{
	struct engine		*e = et_engine(1, 10, 0, 0);
	struct engine_task_info	 ti;
	char			*cause = NULL;
	int			 a, b;

	a = et_hog(e, "a", 0, 0, NULL);
	b = et_hog(e, "b", 0, 0, NULL);
	RUN_TO(e, 4);
	ROW(e, 0, a, 120, 1, 6);
	assert_int_equal(engine_task_kill(e, a, &cause), 0);
	ti = et_info(e, a);
	assert_int_equal(ti.state, ENGINE_EXITED);
	assert_int_equal(ti.exit, ENGINE_EXIT_KILLED);
	assert_int_equal(engine_nlive(e), 1);
	RUN_TO(e, 5);
	ROW(e, 0, b, 120, 1, 10);
	assert_int_equal(et_row(e, 0).nr, 1);
	assert_int_equal(engine_task_kill(e, 99, &cause), -1);
	assert_non_null(cause);
	free(cause);
	engine_free(e);
}

/*
 * Pattern [2, 40]: runs ticks 0 and 1 (left 10, 9), its burst ends at 1:
 * runnable again at 1 + 40 + 1 = 42 (idle 2..41).  At 42 it wakes at
 * static: fresh allot 10.  Runs 42, 43, then runnable at 43 + 41 = 84.
 */
static void
test_pattern(void **state)
{
	struct engine		*e = et_engine(1, 10, 0, 0);
	struct engine_task_info	 ti;
	int			 id;

	id = et_pat(e, "ed", 0, 0, 2, 40, NULL);
	RUN_TO(e, 0);
	ROW(e, 0, id, 120, 1, 10);
	RUN_TO(e, 1);
	ROW(e, 0, id, 120, 1, 9);
	ti = et_info(e, id);
	assert_int_equal(ti.state, ENGINE_SLEEPING);
	assert_int_equal(ti.wake, 42);
	assert_int_equal(ti.injected, 0);
	/* Ran in tick 1 but no longer runnable: not "running". */
	assert_int_equal(ti.running, 0);
	RUN_TO(e, 2);
	IDLE(e, 0);
	assert_int_equal(et_info(e, id).running, 0);
	RUN_TO(e, 41);
	IDLE(e, 0);
	RUN_TO(e, 42);
	ROW(e, 0, id, 120, 1, 10);
	RUN_TO(e, 43);
	ROW(e, 0, id, 120, 1, 9);
	assert_int_equal(et_info(e, id).wake, 84);
	RUN_TO(e, 83);
	IDLE(e, 0);
	RUN_TO(e, 84);
	ROW(e, 0, id, 120, 1, 10);
	assert_int_equal(et_info(e, id).ran, 5);
	engine_free(e);
}

/*
 * A four-entry pattern [3, 5, 1, 2] cycles: runs 0..2, runnable at
 * 2+5+1 = 8, runs 8, runnable at 8+2+1 = 11, runs 11..13, runnable at 19.
 */
static void
test_pattern_cycle(void **state)
{
	static const uint32_t	 pat[4] = { 3, 5, 1, 2 };
	struct engine		*e = et_engine(1, 10, 0, 0);
	int			 id;

	id = et_add(e, "p", ENGINE_SIM, 0, 0, pat, 4, 0, NULL, -1);
	RUN_TO(e, 2);
	assert_int_equal(et_info(e, id).wake, 8);
	RUN_TO(e, 7);
	IDLE(e, 0);
	RUN_TO(e, 8);
	ROW(e, 0, id, 120, 1, 10);
	assert_int_equal(et_info(e, id).wake, 11);
	RUN_TO(e, 10);
	IDLE(e, 0);
	RUN_TO(e, 13);
	ROW(e, 0, id, 120, 1, 8);
	assert_int_equal(et_info(e, id).state, ENGINE_SLEEPING);
	assert_int_equal(et_info(e, id).wake, 19);
	engine_free(e);
}

/*
 * A pattern resumes where it was after an injected sleep mid-burst:
 * [5, 20] runs 0, 1; sleep 10 at tick 2 -> runnable at 12; the remaining
 * 3 ticks of the burst run 12..14 (fresh allot 10 on waking at static),
 * then the pattern sleep: runnable at 14 + 20 + 1 = 35.
 */
static void
test_pattern_resumes(void **state)
{
	struct engine		*e = et_engine(1, 10, 0, 0);
	struct engine_task_info	 ti;
	char			*cause = NULL;
	int			 id;

	id = et_pat(e, "p", 0, 0, 5, 20, NULL);
	RUN_TO(e, 1);
	assert_int_equal(engine_task_sleep(e, id, 10, &cause), 0);
	assert_int_equal(et_info(e, id).wake, 12);
	RUN_TO(e, 11);
	IDLE(e, 0);
	RUN_TO(e, 12);
	ROW(e, 0, id, 120, 1, 10);
	RUN_TO(e, 13);
	assert_int_equal(et_info(e, id).state, ENGINE_RUNNABLE);
	RUN_TO(e, 14);
	ROW(e, 0, id, 120, 1, 8);
	ti = et_info(e, id);
	assert_int_equal(ti.state, ENGINE_SLEEPING);
	assert_int_equal(ti.wake, 35);
	assert_int_equal(ti.injected, 0);
	RUN_TO(e, 15);
	IDLE(e, 0);
	RUN_TO(e, 35);
	ROW(e, 0, id, 120, 1, 10);
	engine_free(e);
}

/*
 * An injected sleep on a sleeping task extends the sleep to the later
 * wake, and the climb counts the whole sleep.  sleep_min 42.  [25, 30]
 * runs 0..24 (120 for 0..9, 121 for 10..19, 122 for 20..24: left 5),
 * sleeps from 25, runnable at 24 + 30 + 1 = 55.  Sleep 40 at 30 -> wake
 * at max(55, 70) = 70.  Whole sleep 25..69 = 45 >= 42 ticks: climbs to
 * 121, left 10 (neither the pattern's 30 nor the injected 40 alone would
 * reach 42).  Then a new burst of 25: 121 for 70..79, 122 80..89, 123
 * 90..94, runnable again at 94 + 31 = 125.
 */
static void
test_sleep_extends(void **state)
{
	struct engine	*e = et_engine(1, 10, 42, 0);
	char		*cause = NULL;
	int		 id;

	id = et_pat(e, "p", 0, 0, 25, 30, NULL);
	RUN_TO(e, 24);
	ROW(e, 0, id, 122, 1, 6);
	assert_int_equal(et_info(e, id).wake, 55);
	RUN_TO(e, 29);
	assert_int_equal(engine_task_sleep(e, id, 40, &cause), 0);
	assert_int_equal(et_info(e, id).state, ENGINE_SLEEPING);
	assert_int_equal(et_info(e, id).wake, 70);
	RUN_TO(e, 55);
	IDLE(e, 0);
	RUN_TO(e, 69);
	IDLE(e, 0);
	RUN_TO(e, 70);
	ROW(e, 0, id, 121, 1, 10);
	RUN_TO(e, 94);
	ROW(e, 0, id, 123, 1, 6);
	assert_int_equal(et_info(e, id).state, ENGINE_SLEEPING);
	assert_int_equal(et_info(e, id).wake, 125);
	engine_free(e);
}

/*
 * A shorter injected sleep on a sleeping task does not shorten it: as
 * above, sleep 10 at 30 would end at 40 < 55, so the wake stays 55.  The
 * whole sleep 25..54 is 30 < 42 ticks: no climb, 122 with left 5.
 */
static void
test_sleep_no_shorten(void **state)
{
	struct engine	*e = et_engine(1, 10, 42, 0);
	char		*cause = NULL;
	int		 id;

	id = et_pat(e, "p", 0, 0, 25, 30, NULL);
	RUN_TO(e, 29);
	assert_int_equal(engine_task_sleep(e, id, 10, &cause), 0);
	assert_int_equal(et_info(e, id).wake, 55);
	RUN_TO(e, 54);
	IDLE(e, 0);
	RUN_TO(e, 55);
	ROW(e, 0, id, 122, 1, 5);
	engine_free(e);
}

/*
 * Real tasks are hogs until blocked.  122 with left 5 after tick 24;
 * blocked at 25 it sleeps with no wake (idle for as long as we look);
 * woken at 60 it runs in tick 60, climbed to 121 with left 10.
 */
static void
test_real_task(void **state)
{
	struct engine		*e = et_engine(1, 10, 0, 0);
	struct engine_task_info	 ti;
	char			*cause = NULL;
	int			 id;

	id = et_add(e, "burn", ENGINE_REAL, 0, 0, NULL, 0, 0, NULL, -1);
	assert_int_equal(et_info(e, id).kind, ENGINE_REAL);
	RUN_TO(e, 24);
	ROW(e, 0, id, 122, 1, 6);
	assert_int_equal(engine_task_block(e, id, &cause), 0);
	ti = et_info(e, id);
	assert_int_equal(ti.state, ENGINE_SLEEPING);
	RUN_TO(e, 59);
	IDLE(e, 0);
	assert_int_equal(et_info(e, id).state, ENGINE_SLEEPING);
	assert_int_equal(engine_task_wake(e, id, &cause), 0);
	RUN_TO(e, 60);
	ROW(e, 0, id, 121, 1, 10);
	assert_int_equal(et_info(e, id).state, ENGINE_RUNNABLE);
	engine_free(e);
}

/*
 * engine_wake_query is pure and agrees with the tick that follows the
 * wake.  A real task blocked after tick 0 beside a hog that has descended
 * to 122 by tick 29: woken now it climbs to 120 and would preempt (1,
 * CPU 0, rank 120); asking changes nothing (its state and stair, the
 * next tick's row); woken, it runs in the next tick at 120.  Then at
 * nice 19 beside a nice -20 hog (at 101..): rank 139, no preemption,
 * and the hog runs.  A scripted or runnable task is no blocked real one.
 */
static void
test_wake_query(void **state)
{
	struct engine		*e = et_engine(1, 10, 0, 0);
	struct engine_task_info	 a, b;
	char			*cause = NULL;
	int			 id, hog, cpu = -1, rank = -1;

	id = et_add(e, "real", ENGINE_REAL, 0, 0, NULL, 0, 0, NULL, -1);
	hog = et_hog(e, "hog", 0, 0, NULL);
	RUN_TO(e, 0);
	assert_int_equal(engine_wake_query(e, id, &cpu, &rank), -1);
	assert_int_equal(engine_task_block(e, id, &cause), 0);
	assert_int_equal(engine_wake_query(e, hog, &cpu, &rank), -1);
	RUN_TO(e, 29);
	ROW(e, 0, hog, 122, 1, 2);
	a = et_info(e, id);
	assert_int_equal(engine_wake_query(e, id, &cpu, &rank), 1);
	assert_int_equal(cpu, 0);
	assert_int_equal(rank, 120);
	b = et_info(e, id);
	assert_int_equal(a.state, b.state);
	assert_int_equal(a.rank, b.rank);
	assert_int_equal(a.left, b.left);
	assert_memory_equal(a.field, b.field, sizeof a.field);
	assert_int_equal(engine_task_wake(e, id, &cause), 0);
	RUN_TO(e, 30);
	ROW(e, 0, id, 120, 1, 10);
	engine_free(e);

	e = et_engine(1, 10, 0, 0);
	id = et_add(e, "real", ENGINE_REAL, 19, 0, NULL, 0, 0, NULL, -1);
	hog = et_hog(e, "hog", -20, 0, NULL);
	RUN_TO(e, 0);
	assert_int_equal(engine_task_block(e, id, &cause), 0);
	RUN_TO(e, 29);
	assert_int_equal(engine_wake_query(e, id, &cpu, &rank), 0);
	assert_int_equal(rank, 139);
	assert_int_equal(engine_task_wake(e, id, &cause), 0);
	RUN_TO(e, 30);
	assert_int_equal(et_row(e, 0).task, hog);
	engine_free(e);

	/*
	 * What runs now is what the next tick picks, not the row of the
	 * last one: a hog that ran its last tick at 120 has stepped down to
	 * 121, so a wake at 120 preempts it.
	 */
	e = et_engine(1, 10, 0, 0);
	id = et_add(e, "real", ENGINE_REAL, 0, 0, NULL, 0, 0, NULL, -1);
	hog = et_hog(e, "hog", 0, 0, NULL);
	RUN_TO(e, 0);
	assert_int_equal(engine_task_block(e, id, &cause), 0);
	RUN_TO(e, 10);
	ROW(e, 0, hog, 120, 1, 1);
	assert_int_equal(engine_wake_query(e, id, &cpu, &rank), 1);
	assert_int_equal(rank, 120);
	assert_int_equal(engine_task_wake(e, id, &cause), 0);
	RUN_TO(e, 11);
	ROW(e, 0, id, 120, 1, 10);
	engine_free(e);

	/*
	 * A task whose run burst ended in the last tick has left the CPU:
	 * a wake at 123 is compared with the hog left queued at 125, not
	 * with the sleeper's 120, and preempts.
	 */
	e = et_engine(1, 10, 0, 0);
	id = et_add(e, "real", ENGINE_REAL, 3, 0, NULL, 0, 0, NULL, -1);
	(void)et_pat(e, "burst", 0, 1, 5, 100, NULL);
	hog = et_hog(e, "hog", 5, 0, NULL);
	RUN_TO(e, 0);
	ROW(e, 0, id, 123, 1, 10);
	assert_int_equal(engine_task_block(e, id, &cause), 0);
	RUN_TO(e, 5);
	ROW(e, 0, 2, 120, 1, 6);
	assert_int_equal(engine_wake_query(e, id, &cpu, &rank), 1);
	assert_int_equal(rank, 123);
	assert_int_equal(engine_task_wake(e, id, &cause), 0);
	RUN_TO(e, 6);
	ROW(e, 0, id, 123, -1, -1);
	engine_free(e);

	/*
	 * rr: a woken task goes to the tail of the FIFO and never preempts,
	 * whatever its nice (rank 115 beside a hog at 120).
	 */
	e = et_engine_pol(&engine_policy_rr, 1, 10, 0, 0);
	id = et_add(e, "real", ENGINE_REAL, -5, 0, NULL, 0, 0, NULL, -1);
	hog = et_hog(e, "hog", 0, 0, NULL);
	RUN_TO(e, 0);
	assert_int_equal(engine_task_block(e, id, &cause), 0);
	RUN_TO(e, 4);
	assert_int_equal(et_row(e, 0).task, hog);
	assert_int_equal(engine_wake_query(e, id, &cpu, &rank), 0);
	assert_int_equal(rank, 115);
	assert_int_equal(engine_task_wake(e, id, &cause), 0);
	RUN_TO(e, 5);
	assert_int_equal(et_row(e, 0).task, hog);
	engine_free(e);
}

/*
 * Ids are 1-based in the order added; later tasks get the next id.  A
 * name or id string finds the task; anything else finds no task (the
 * engine returns 0, never a valid id).
 */
static void
test_ids_and_find(void **state)
{
	struct engine	*e = et_engine(1, 10, 0, 0);
	int		 a, b, c, d;

	a = et_hog(e, "alpha", 0, 0, NULL);
	b = et_hog(e, "beta", 0, 0, NULL);
	c = et_pat(e, "gamma.1", 0, 0, 2, 3, NULL);
	assert_int_equal(a, 1);
	assert_int_equal(b, 2);
	assert_int_equal(c, 3);
	assert_int_equal(engine_ntasks(e), 3);
	RUN_TO(e, 49);
	d = et_hog(e, "delta", 0, 50, NULL);
	assert_int_equal(d, 4);
	assert_int_equal(engine_ntasks(e), 4);
	assert_int_equal(engine_task_find(e, "alpha"), 1);
	assert_int_equal(engine_task_find(e, "gamma.1"), 3);
	assert_int_equal(engine_task_find(e, "delta"), 4);
	assert_int_equal(engine_task_find(e, "2"), 2);
	assert_int_equal(engine_task_find(e, "4"), 4);
	assert_true(engine_task_find(e, "nope") <= 0);
	assert_true(engine_task_find(e, "5") <= 0);
	assert_true(engine_task_find(e, "0") <= 0);
	assert_true(engine_task_find(e, "") <= 0);
	assert_string_equal(et_info(e, 2).name, "beta");
	assert_int_equal(et_info(e, 2).id, 2);
	assert_int_equal(engine_task_info(e, 5, &(struct engine_task_info){0}),
	    -1);
	assert_int_equal(engine_task_info(e, 0, &(struct engine_task_info){0}),
	    -1);
	engine_free(e);
}

/* Bad task specs are refused with a cause. */
static void
test_add_refused(void **state)
{
	static const uint32_t	 odd[3] = { 1, 2, 3 };
	static const uint32_t	 zero[2] = { 0, 5 };
	struct engine		*e = et_engine(2, 10, 0, 0);
	struct engine_task_spec	 s;
	static const char	*reserved[5] = { ".", "..", "-", "42", "" };
	struct cpumask		 m;
	char			*cause;
	int			 i;

	memset(&s, 0, sizeof s);
	s.name = "x";
	s.group = -1;
	s.nice = 20;
	cause = NULL;
	assert_int_equal(engine_task_add(e, &s, &cause), -1);
	assert_non_null(cause);
	free(cause);
	s.nice = -21;
	cause = NULL;
	assert_int_equal(engine_task_add(e, &s, &cause), -1);
	assert_non_null(cause);
	free(cause);
	s.nice = 0;
	s.pattern = odd;
	s.npattern = 3;
	cause = NULL;
	assert_int_equal(engine_task_add(e, &s, &cause), -1);
	assert_non_null(cause);
	free(cause);
	s.pattern = zero;
	s.npattern = 2;
	cause = NULL;
	assert_int_equal(engine_task_add(e, &s, &cause), -1);
	assert_non_null(cause);
	free(cause);
	s.pattern = NULL;
	s.npattern = 0;
	/* Names that read as paths, as "none" or as an id: one rule. */
	for (i = 0; i < 5; i++) {
		s.name = reserved[i];
		cause = NULL;
		assert_int_equal(engine_task_add(e, &s, &cause), -1);
		assert_non_null(cause);
		assert_non_null(strstr(cause, "bad task name"));
		free(cause);
		cause = NULL;
		cpumask_fill(&m, 2);
		assert_int_equal(engine_group_add(e, reserved[i], &m, &cause),
		    -1);
		assert_non_null(cause);
		free(cause);
		assert_int_equal(engine_name_check(reserved[i]) != NULL, 1);
	}
	assert_null(engine_name_check("..."));
	assert_null(engine_name_check("-x"));
	assert_null(engine_name_check("a1"));
	s.name = "x";
	cpumask_zero(&m);
	cpumask_set(&m, 5);			/* outside 0..1 */
	s.cpus = &m;
	cause = NULL;
	assert_int_equal(engine_task_add(e, &s, &cause), -1);
	assert_non_null(cause);
	free(cause);
	assert_int_equal(engine_ntasks(e), 0);
	engine_free(e);
}

/*
 * Scenario events fire at their tick, in the order added, before the
 * arrivals of that tick.  Added: {20 nice 3}, {10 nice 5}, {10 nice 10},
 * {15 nice 7}: nice 10 after tick 10, 7 after 15, 3 after 20.
 */
static void
test_events_order(void **state)
{
	struct engine		*e = et_engine(1, 10, 0, 0);
	struct engine_event	 ev;
	static const long	 at[4] = { 20, 10, 10, 15 };
	static const long	 val[4] = { 3, 5, 10, 7 };
	int			 id, i;

	id = et_hog(e, "hog", 0, 0, NULL);
	for (i = 0; i < 4; i++) {
		memset(&ev, 0, sizeof ev);
		ev.at = at[i];
		ev.action = ENGINE_ACT_NICE;
		ev.task = id;
		ev.value = val[i];
		engine_event_add(e, &ev);
	}
	RUN_TO(e, 9);
	assert_int_equal(et_info(e, id).nice, 0);
	RUN_TO(e, 10);
	assert_int_equal(et_info(e, id).nice, 10);
	RUN_TO(e, 14);
	assert_int_equal(et_info(e, id).nice, 10);
	RUN_TO(e, 15);
	assert_int_equal(et_info(e, id).nice, 7);
	RUN_TO(e, 20);
	assert_int_equal(et_info(e, id).nice, 3);
	engine_free(e);
}

/*
 * Events come before arrivals.  A hog is at 122 (left 5) at tick 25.  At
 * 25 an event renices A to 2: static 122, r 124, k 1, left min(5, 10) = 5,
 * queued at the tail of 124.  B (nice 4, start 25) arrives at 124 after
 * it: 124 = [A, B], so A runs at 25 with its 5 ticks.  Were arrivals
 * first, B would lead 124 and run at 25.
 */
static void
test_events_before_arrivals(void **state)
{
	struct engine		*e = et_engine(1, 10, 0, 0);
	struct engine_event	 ev;
	int			 a, b;

	a = et_hog(e, "a", 0, 0, NULL);
	b = et_hog(e, "b", 4, 25, NULL);
	memset(&ev, 0, sizeof ev);
	ev.at = 25;
	ev.action = ENGINE_ACT_NICE;
	ev.task = a;
	ev.value = 2;
	engine_event_add(e, &ev);
	RUN_TO(e, 25);
	ROW(e, 0, a, 124, 1, 5);
	RUN_TO(e, 29);
	ROW(e, 0, a, 124, 1, 1);
	RUN_TO(e, 30);
	ROW(e, 0, b, 124, 1, 10);
	engine_free(e);
}

/*
 * Sleep and kill events act like the calls: a sleep event of 5 ms at 25
 * gives the climb of test_climb_same_descent (121, left 10 at 30); a kill
 * event at 50 ends it before it runs in tick 50.
 */
static void
test_events_sleep_kill(void **state)
{
	struct engine		*e = et_engine(1, 10, 0, 0);
	struct engine_event	 ev;
	int			 id;

	id = et_hog(e, "hog", 0, 0, NULL);
	memset(&ev, 0, sizeof ev);
	ev.at = 25;
	ev.action = ENGINE_ACT_SLEEP;
	ev.task = id;
	ev.value = 5;
	engine_event_add(e, &ev);
	ev.at = 50;
	ev.action = ENGINE_ACT_KILL;
	engine_event_add(e, &ev);
	RUN_TO(e, 25);
	IDLE(e, 0);
	RUN_TO(e, 30);
	ROW(e, 0, id, 121, 1, 10);
	RUN_TO(e, 49);
	ROW(e, 0, id, 122, 1, 1);
	RUN_TO(e, 50);
	IDLE(e, 0);
	assert_int_equal(et_info(e, id).state, ENGINE_EXITED);
	assert_int_equal(et_info(e, id).exit, ENGINE_EXIT_KILLED);
	engine_free(e);
}

/* The defaults of SPEC.md section 1, and bad parameters refused. */
static void
test_params(void **state)
{
	struct engine_params	 p;
	char			*cause;

	engine_params_default(&p);
	assert_int_equal(p.cpus, 1);
	assert_int_equal(p.rr_interval, 10);
	assert_int_equal(p.sleep_min, 1);
	assert_int_equal(p.balance_interval, 100);
	cause = NULL;
	assert_int_equal(engine_params_check(&p, &cause), 0);
	p.cpus = 0;
	assert_int_equal(engine_params_check(&p, &cause), -1);
	assert_non_null(cause);
	free(cause);
	p.cpus = ENGINE_MAX_CPUS + 1;
	cause = NULL;
	assert_int_equal(engine_params_check(&p, &cause), -1);
	free(cause);
	p.cpus = 64;
	p.rr_interval = 0;
	cause = NULL;
	assert_int_equal(engine_params_check(&p, &cause), -1);
	free(cause);
}

/* A different rr: rr 3, a nice-0 hog steps every 3 ticks, falls at 60. */
static void
test_rr3(void **state)
{
	struct engine	*e = et_engine(1, 3, 0, 0);
	int		 id;

	id = et_hog(e, "hog", 0, 0, NULL);
	RUN_TO(e, 2);
	ROW(e, 0, id, 120, 1, 1);
	RUN_TO(e, 3);
	ROW(e, 0, id, 121, 1, 3);
	RUN_TO(e, 59);
	ROW(e, 0, id, 139, 1, 1);
	RUN_TO(e, 60);
	ROW(e, 0, id, 121, 2, 6);
	engine_free(e);
}

/*
 * sleep_min with pattern sleeps: a pattern sleep of b ms is b ticks of
 * sleep.  sleep_min 5; [25, 4] runs 0..24 (122, left 5 after), sleeps 4
 * ticks (25..28), runnable at 29: 4 < 5, no climb: 122, left 5.  [25, 5]
 * sleeps 5 (25..29), runnable at 30: climbs to 121, left 10.
 */
static void
test_sleep_min_pattern(void **state)
{
	struct engine	*e;
	int		 id;

	e = et_engine(1, 10, 5, 0);
	id = et_pat(e, "p", 0, 0, 25, 4, NULL);
	RUN_TO(e, 28);
	IDLE(e, 0);
	RUN_TO(e, 29);
	ROW(e, 0, id, 122, 1, 5);
	engine_free(e);

	e = et_engine(1, 10, 5, 0);
	id = et_pat(e, "p", 0, 0, 25, 5, NULL);
	RUN_TO(e, 29);
	IDLE(e, 0);
	RUN_TO(e, 30);
	ROW(e, 0, id, 121, 1, 10);
	engine_free(e);
}

/*
 * A nice change while asleep: [25, 10] sleeps after 24 at 122, left 5,
 * runnable at 35.  Nice 5 at 30: static 125, r 127, k 1, left min(5, 10)
 * = 5; it stays asleep until 35, then climbs from 127: 126, left 10.
 */
static void
test_nice_while_asleep(void **state)
{
	struct engine	*e = et_engine(1, 10, 0, 0);
	char		*cause = NULL;
	int		 id;

	id = et_pat(e, "p", 0, 0, 25, 10, NULL);
	RUN_TO(e, 29);
	assert_int_equal(engine_task_nice(e, id, 5, &cause), 0);
	assert_int_equal(et_info(e, id).state, ENGINE_SLEEPING);
	assert_int_equal(et_info(e, id).wake, 35);
	STAIR(e, id, 127, 1, 5);
	RUN_TO(e, 34);
	IDLE(e, 0);
	RUN_TO(e, 35);
	ROW(e, 0, id, 126, 1, 10);
	engine_free(e);
}

/*
 * Runtime wins over a burst ending in the same tick: [5, 10] with runtime
 * 5 runs 0..4 and exits (not asleep) at the end of tick 4.  Killing a
 * sleeping task ends it too: it never wakes.
 */
static void
test_runtime_burst_and_kill_sleeper(void **state)
{
	static const uint32_t	 pat[2] = { 5, 10 };
	struct engine		*e = et_engine(1, 10, 0, 0);
	struct engine_task_info	 ti;
	char			*cause = NULL;
	int			 a, b;

	a = et_add(e, "a", ENGINE_SIM, 0, 0, pat, 2, 5, NULL, -1);
	b = et_pat(e, "b", 5, 0, 1, 10, NULL);
	RUN_TO(e, 4);
	ROW(e, 0, a, 120, 1, 6);
	ti = et_info(e, a);
	assert_int_equal(ti.state, ENGINE_EXITED);
	assert_int_equal(ti.exit, ENGINE_EXIT_RUNTIME);
	RUN_TO(e, 5);
	ROW(e, 0, b, 125, 1, 10);		/* then asleep until 16 */
	assert_int_equal(et_info(e, b).wake, 16);
	assert_int_equal(engine_task_kill(e, b, &cause), 0);
	assert_int_equal(et_info(e, b).state, ENGINE_EXITED);
	assert_int_equal(engine_nlive(e), 0);
	RUN_TO(e, 30);
	IDLE(e, 0);
	assert_int_equal(et_info(e, b).state, ENGINE_EXITED);
	engine_free(e);
}

/* The ids engine_woken gives after tick t: want[0..n). */
static void
et_woken(struct engine *e, uint64_t t, const int *want, size_t n)
{
	const int	*w;
	size_t		 got, i;

	RUN_TO(e, t);
	w = engine_woken(e, &got);
	assert_int_equal(got, n);
	for (i = 0; i < n; i++)
		assert_int_equal(w[i], want[i]);
}

/*
 * engine_woken lists the tasks made runnable in the last tick, in id
 * order: started (tick 0: h and p; tick 2: late) or woken (p at 4 from
 * [1, 3]); a sleep injected into p asleep moves its wake from 8 to 15,
 * and only 15 shows; a blocked real task shows at the tick after its
 * engine_task_wake, once however often it was called.
 */
static void
test_woken(void **state)
{
	struct engine	*e = et_engine(1, 10, 0, 0);
	char		*cause = NULL;
	int		 h, p, late, real;

	h = et_hog(e, "h", 0, 0, NULL);
	p = et_pat(e, "p", -1, 0, 1, 3, NULL);
	late = et_hog(e, "late", 0, 2, NULL);
	real = et_add(e, "real", ENGINE_REAL, 0, 20, NULL, 0, 0, NULL, -1);
	et_woken(e, 0, (int []){ h, p }, 2);
	et_woken(e, 1, NULL, 0);
	et_woken(e, 2, (int []){ late }, 1);
	et_woken(e, 4, (int []){ p }, 1);
	ROW(e, 0, p, 119, 1, 10);
	assert_int_equal(engine_task_sleep(e, p, 10, &cause), 0);
	et_woken(e, 8, NULL, 0);
	et_woken(e, 15, (int []){ p }, 1);
	et_woken(e, 20, (int []){ real }, 1);
	assert_int_equal(engine_task_block(e, real, &cause), 0);
	et_woken(e, 21, NULL, 0);
	assert_int_equal(engine_task_wake(e, real, &cause), 0);
	assert_int_equal(engine_task_wake(e, real, &cause), 0);
	et_woken(e, 22, (int []){ real }, 1);
	engine_free(e);
}

/*
 * engine_fired lists the events that took effect in the last tick, in
 * order; a failing one (kill of an exited task) is skipped.  Tick 10:
 * sleep 5 of A, nice 3, kill of the already-killed task B.
 */
static void
test_fired(void **state)
{
	struct engine			*e = et_engine(1, 10, 0, 0);
	struct engine_event		 ev;
	const struct engine_event	*f;
	char				*cause = NULL;
	size_t				 n;
	int				 a, b;

	a = et_hog(e, "a", 0, 0, NULL);
	b = et_hog(e, "b", 0, 0, NULL);
	memset(&ev, 0, sizeof ev);
	ev.at = 10;
	ev.action = ENGINE_ACT_SLEEP;
	ev.task = a;
	ev.value = 5;
	engine_event_add(e, &ev);
	ev.action = ENGINE_ACT_NICE;
	ev.value = 3;
	engine_event_add(e, &ev);
	ev.action = ENGINE_ACT_KILL;
	ev.task = b;
	engine_event_add(e, &ev);
	RUN_TO(e, 0);
	assert_int_equal(engine_task_kill(e, b, &cause), 0);
	RUN_TO(e, 9);
	engine_fired(e, &n);
	assert_int_equal(n, 0);
	RUN_TO(e, 10);
	f = engine_fired(e, &n);
	assert_int_equal(n, 2);
	assert_int_equal(f[0].action, ENGINE_ACT_SLEEP);
	assert_int_equal(f[1].action, ENGINE_ACT_NICE);
	assert_int_equal(f[1].task, a);
	assert_int_equal(et_info(e, a).nice, 3);
	RUN_TO(e, 11);
	engine_fired(e, &n);
	assert_int_equal(n, 0);
	engine_free(e);
}

/* Live changes on unknown ids are refused with a cause. */
static void
test_unknown_ids(void **state)
{
	struct engine	*e = et_engine(1, 10, 0, 0);
	struct cpumask	 m = et_mask("0");
	char		*cause;

	et_hog(e, "a", 0, 0, NULL);
	cause = NULL;
	assert_int_equal(engine_task_sleep(e, 2, 5, &cause), -1);
	assert_non_null(cause);
	free(cause);
	cause = NULL;
	assert_int_equal(engine_task_nice(e, 0, 5, &cause), -1);
	assert_non_null(cause);
	free(cause);
	cause = NULL;
	assert_int_equal(engine_task_affinity(e, 7, &m, &cause), -1);
	assert_non_null(cause);
	free(cause);
	cause = NULL;
	assert_int_equal(engine_task_nice(e, 1, 20, &cause), -1);
	assert_non_null(cause);
	free(cause);
	assert_int_equal(et_info(e, 1).nice, 0);
	engine_free(e);
}

/*
 * Long sleeps: injected sleeps of 4095, 4096 and 8193 ticks (around any
 * power-of-two wrap an implementation may use) each wake exactly m ticks
 * later, climbing one stair each time: 122 -> 121 -> 120 -> 120.
 */
static void
test_long_sleeps(void **state)
{
	static const uint64_t	 ms[3] = { 4095, 4096, 8193 };
	static const int	 rank[3] = { 121, 120, 120 };
	struct engine		*e = et_engine(1, 10, 0, 0);
	char			*cause = NULL;
	uint64_t		 t;
	int			 id, i;

	id = et_hog(e, "hog", 0, 0, NULL);
	RUN_TO(e, 24);
	for (i = 0; i < 3; i++) {
		t = engine_now(e);
		assert_int_equal(engine_task_sleep(e, id, ms[i], &cause), 0);
		RUN_TO(e, t + ms[i] - 1);
		IDLE(e, 0);
		RUN_TO(e, t + ms[i]);
		ROW(e, 0, id, rank[i], 1, 10);
	}
	engine_free(e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stairs),
		cmocka_unit_test(test_params),
		cmocka_unit_test(test_article_table),
		cmocka_unit_test(test_table_nice10),
		cmocka_unit_test(test_table_nice_minus5),
		cmocka_unit_test(test_step_and_falloff),
		cmocka_unit_test(test_rr3),
		cmocka_unit_test(test_bottom_nice19),
		cmocka_unit_test(test_bottom_nice0),
		cmocka_unit_test(test_climb_same_descent),
		cmocka_unit_test(test_climb_to_top),
		cmocka_unit_test(test_climb_change_descent),
		cmocka_unit_test(test_climb_at_static),
		cmocka_unit_test(test_sleep_min),
		cmocka_unit_test(test_nice_change),
		cmocka_unit_test(test_nice_clamp_k),
		cmocka_unit_test(test_nice_goes_to_tail),
		cmocka_unit_test(test_better_rank_preempts),
		cmocka_unit_test(test_arrival_preempts),
		cmocka_unit_test(test_equal_rank_waits),
		cmocka_unit_test(test_round_robin),
		cmocka_unit_test(test_runtime_exit),
		cmocka_unit_test(test_kill),
		cmocka_unit_test(test_pattern),
		cmocka_unit_test(test_pattern_cycle),
		cmocka_unit_test(test_pattern_resumes),
		cmocka_unit_test(test_sleep_extends),
		cmocka_unit_test(test_sleep_no_shorten),
		cmocka_unit_test(test_real_task),
		cmocka_unit_test(test_ids_and_find),
		cmocka_unit_test(test_add_refused),
		cmocka_unit_test(test_events_order),
		cmocka_unit_test(test_events_before_arrivals),
		cmocka_unit_test(test_events_sleep_kill),
		cmocka_unit_test(test_sleep_min_pattern),
		cmocka_unit_test(test_nice_while_asleep),
		cmocka_unit_test(test_runtime_burst_and_kill_sleeper),
		cmocka_unit_test(test_fired),
		cmocka_unit_test(test_unknown_ids),
		cmocka_unit_test(test_long_sleeps),
		cmocka_unit_test(test_wake_query),
		cmocka_unit_test(test_woken),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
