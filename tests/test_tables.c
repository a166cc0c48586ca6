/*
 * test_tables.c -- the daemon's per-task table counts: rows per descent,
 * columns per stair, the row bound (the newest descents kept, as
 * headless keeps them) and its dropped count, and the columns kept after
 * a renice.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>

#include <cmocka.h>

#include "format.h"
#include "tables.h"
#include "staircase.h"

/*
 * The tables' lines for task id, in descent d now, as one string (caller
 * frees).
 */
static char *
lines(struct tables *l, int id, int prio, uint32_t d)
{
	struct engine_params	 p;
	struct engine		*e;
	struct engine_task_info	 ti;
	struct evbuffer		*b = evbuffer_new();
	size_t			 n;
	char			*s;

	engine_params_default(&p);	/* rr_interval 10 */
	e = engine_create(&p, &engine_policy_staircase);
	memset(&ti, 0, sizeof ti);
	ti.id = id;
	ti.name = "t";
	ti.prio = prio;
	ti.field[STAIRCASE_DESCENT] = d;
	format_table_lines(l, e, &ti, 0, b);
	engine_free(e);
	n = evbuffer_get_length(b);
	s = calloc(1, n + 1);
	evbuffer_remove(b, s, n);
	evbuffer_free(b);
	return (s);
}

/* Rows per descent, columns per stair. */
static void
test_rows(void **state)
{
	struct tables	*l = tables_create(10);
	char		*s;
	int		 i;

	s = lines(l, 1, 138, 1);
	assert_string_equal(s, "table task=1 name=t base=138 stairs=2 rr=10 "
	    "rows=0 dropped=0 now=0 descent=1\n");
	free(s);
	for (i = 0; i < 10; i++)
		tables_add(l, 1, 1, 0);
	for (i = 0; i < 3; i++)
		tables_add(l, 1, 1, 1);
	for (i = 0; i < 20; i++)
		tables_add(l, 1, 2, 1);
	s = lines(l, 1, 138, 2);
	assert_string_equal(s, "table task=1 name=t base=138 stairs=2 rr=10 "
	    "rows=2 dropped=0 now=0 descent=2\nrow iter=1 ticks=10,3\nrow iter=2 ticks=0,20\n");
	free(s);
	/* A renice to 19 (1 stair): the second column stays. */
	/* Fallen off, not run yet: descent 3 has no row. */
	s = lines(l, 1, 139, 3);
	assert_string_equal(s, "table task=1 name=t base=139 stairs=2 rr=10 "
	    "rows=2 dropped=0 now=0 descent=3\nrow iter=1 ticks=10,3\nrow iter=2 ticks=0,20\n");
	free(s);
	/* Another task, a far id: its own rows. */
	tables_add(l, 1000, 1, 0);
	assert_int_equal(tables_rows(l, 1000), 1);
	assert_int_equal(tables_rows(l, 999), 0);
	assert_int_equal(tables_rows(l, 1), 2);
	/* Out of range is ignored. */
	tables_add(l, 0, 1, 0);
	tables_add(l, 1, 3, 40);
	tables_add(l, 1, 3, -1);
	assert_int_equal(tables_rows(l, 1), 2);
	tables_free(l);
}

/*
 * At most max_rows descents, the newest: past the bound the oldest goes
 * (it froze at the first 200 before, while headless kept the newest),
 * and dropped counts its ticks.
 */
static void
test_bound(void **state)
{
	struct tables	*l = tables_create(3);
	char		*s;
	uint32_t	 d;

	for (d = 1; d <= 5; d++) {
		tables_add(l, 1, d, 0);
		tables_add(l, 1, d, 0);
	}
	assert_int_equal(tables_rows(l, 1), 3);
	s = lines(l, 1, 120, 5);
	assert_string_equal(s, "table task=1 name=t base=120 stairs=20 rr=10 "
	    "rows=3 dropped=4 now=0 descent=5\n"
	    "row iter=3 ticks=2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0\n"
	    "row iter=4 ticks=2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0\n"
	    "row iter=5 ticks=2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0\n");
	free(s);
	assert_non_null(tables_table(l, 1));
	assert_null(tables_table(l, 2));
	assert_null(tables_table(l, 0));
	tables_free(l);
}

/*
 * Memory per task is bounded: 200 rows kept (the daemon's bound) take
 * room for 200 rows, not the 256 a doubling array would reach, however
 * many descents there are; and tasks that never ran take nothing.
 */
static void
test_memory(void **state)
{
	struct tables	*l = tables_create(200);
	size_t		 one;
	uint32_t	 d;

	for (d = 1; d <= 100000; d++)
		tables_add(l, 1, d, (int)(d % 40));
	assert_int_equal(tables_rows(l, 1), 200);
	one = tables_memory(l);
	assert_true(one <= 200 * (4 + 40 * 4) + 256);
	for (d = 1; d <= 100000; d++)
		tables_add(l, 1, d, 1);
	assert_true(tables_memory(l) == one);
	tables_free(l);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_memory),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
