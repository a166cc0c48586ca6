/*
 * test_table.c -- the article's table (table.c): rows per descent,
 * columns per stair, cells in units of rr (the one rule the client's
 * view uses too), the formatting of SPEC.md section 3, a ring of the
 * newest descents with its dropped count, bounded memory.
 *
 * The hog's staircase is fed by hand from the rules of SPEC.md section 1
 * (a lone hog spends k*rr ticks at the top of descent k, rr at each rank
 * below); the expected text is written out literally.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "protocol.h"
#include "table.h"

/* Feed one whole descent k of a lone hog of this nice value. */
static void
feed_descent(struct table *t, int nice, int rr, uint32_t k)
{
	int	base = 120 + nice, L = 20 - nice, top, r, i, n;

	top = base + ((int)k > L ? L : (int)k) - 1;
	for (r = top; r <= 139; r++) {
		n = r == top ? ((int)k > L ? L : (int)k) * rr : rr;
		for (i = 0; i < n; i++)
			table_add(t, k, r - base);
	}
}

/* Line n (0: header) of s, copied. */
static char *
line_of(const char *s, int n)
{
	const char	*end;

	while (n-- > 0) {
		if ((s = strchr(s, '\n')) == NULL)
			return (strdup("<no such line>"));
		s++;
	}
	end = strchr(s, '\n');
	return (strndup(s, end ? (size_t)(end - s) : strlen(s)));
}

/* Assert line n of s. */
static void
assert_line(const char *s, int n, const char *want)
{
	char	*got = line_of(s, n);

	assert_string_equal(got, want);
	free(got);
}

/* Number of lines in s. */
static int
count_lines(const char *s)
{
	int	n = 0;

	for (; *s != '\0'; s++)
		n += *s == '\n';
	return (n);
}

/* The article's three rows for a nice-0 hog. */
static void
test_article(void **state)
{
	struct table	*t = table_create(100);
	char		*s;

	feed_descent(t, 0, 10, 1);
	feed_descent(t, 0, 10, 2);
	feed_descent(t, 0, 10, 3);
	s = table_format(t, 120, 10);
	assert_line(s, 0, "Iteration | Base | -1 | -2 | -3 | -4 | -5 | -6 | "
	    "-7 | -8 | -9 | -10 | -11 | -12 | -13 | -14 | -15 | -16 | -17 | "
	    "-18 | -19");
	assert_line(s, 1, "1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | "
	    "1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1");
	assert_line(s, 2, "2 |  | 2 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | "
	    "1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1");
	assert_line(s, 3, "3 |  |  | 3 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | "
	    "1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1");
	assert_int_equal(count_lines(s), 4);
	free(s);
	table_free(t);
}

/* A nice +10 hog: 10 stairs, then stuck on 139. */
static void
test_nice_plus10(void **state)
{
	struct table	*t = table_create(100);
	uint32_t	 k;
	char		*s;

	assert_int_equal(table_columns(t, 130), 10);
	for (k = 1; k <= 11; k++)
		feed_descent(t, 10, 10, k);
	assert_int_equal(table_columns(t, 130), 10);
	s = table_format(t, 130, 10);
	assert_line(s, 0, "Iteration | Base | -1 | -2 | -3 | -4 | -5 | -6 | "
	    "-7 | -8 | -9");
	assert_line(s, 1, "1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1");
	assert_line(s, 2, "2 |  | 2 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1");
	assert_line(s, 3, "3 |  |  | 3 | 1 | 1 | 1 | 1 | 1 | 1 | 1");
	assert_line(s, 9, "9 |  |  |  |  |  |  |  |  | 9 | 1");
	assert_line(s, 10, "10 |  |  |  |  |  |  |  |  |  | 10");
	/* Descents already start at 139: it stays there, L*rr at a time. */
	assert_line(s, 11, "11 |  |  |  |  |  |  |  |  |  | 10");
	assert_int_equal(count_lines(s), 12);
	free(s);
	table_free(t);
}

/* A nice -5 hog: 25 stairs. */
static void
test_nice_minus5(void **state)
{
	struct table	*t = table_create(100);
	uint32_t	 k;
	char		*s;

	assert_int_equal(table_columns(t, 115), 25);
	for (k = 1; k <= 25; k++)
		feed_descent(t, -5, 10, k);
	s = table_format(t, 115, 10);
	assert_line(s, 0, "Iteration | Base | -1 | -2 | -3 | -4 | -5 | -6 | "
	    "-7 | -8 | -9 | -10 | -11 | -12 | -13 | -14 | -15 | -16 | -17 | "
	    "-18 | -19 | -20 | -21 | -22 | -23 | -24");
	assert_line(s, 1, "1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | "
	    "1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1");
	assert_line(s, 2, "2 |  | 2 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | "
	    "1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1");
	assert_line(s, 24, "24 |  |  |  |  |  |  |  |  |  |  |  |  |  |  |  "
	    "|  |  |  |  |  |  |  |  | 24 | 1");
	assert_line(s, 25, "25 |  |  |  |  |  |  |  |  |  |  |  |  |  |  |  "
	    "|  |  |  |  |  |  |  |  |  | 25");
	assert_int_equal(count_lines(s), 26);
	free(s);
	table_free(t);
}

/*
 * Cells: ticks / rr rounded to one decimal, whole numbers without ".0",
 * blank for zero.  2 ticks of rr 3 are 0.7 (the client truncated them to
 * 0.6 while headless rounded: one rule now, and this is it).
 */
static void
test_cells(void **state)
{
	char	buf[32];

	protocol_table_cell(0, 10, 0, buf, sizeof buf);
	assert_string_equal(buf, "");
	protocol_table_cell(4, 10, 0, buf, sizeof buf);
	assert_string_equal(buf, "0.4");
	protocol_table_cell(15, 10, 0, buf, sizeof buf);
	assert_string_equal(buf, "1.5");
	protocol_table_cell(20, 10, 0, buf, sizeof buf);
	assert_string_equal(buf, "2");
	protocol_table_cell(1, 3, 0, buf, sizeof buf);
	assert_string_equal(buf, "0.3");
	protocol_table_cell(2, 3, 0, buf, sizeof buf);
	assert_string_equal(buf, "0.7");
	protocol_table_cell(5, 3, 0, buf, sizeof buf);
	assert_string_equal(buf, "1.7");
	protocol_table_cell(7, 1, 0, buf, sizeof buf);
	assert_string_equal(buf, "7");
	/* 29 / 30 rounds up to a whole 1, not "0.10". */
	protocol_table_cell(29, 30, 0, buf, sizeof buf);
	assert_string_equal(buf, "1");
	protocol_table_cell(199, 20, 0, buf, sizeof buf);
	assert_string_equal(buf, "10");
	/* Blank means zero, so a tick that rounds to 0.0 shows as 0.1. */
	protocol_table_cell(1, 30, 0, buf, sizeof buf);
	assert_string_equal(buf, "0.1");
	/* Past 32 bits (the client reads longs), no overflow. */
	protocol_table_cell(UINT64_MAX, 1, 0, buf, sizeof buf);
	assert_string_equal(buf, "18446744073709551615");
	protocol_table_cell(UINT64_MAX, 10, 0, buf, sizeof buf);
	assert_string_equal(buf, "1844674407370955161.5");
	/* rr below 1 counts as 1. */
	protocol_table_cell(3, 0, 0, buf, sizeof buf);
	assert_string_equal(buf, "3");
}

/* A narrow column: ".7" below one, else rounded to whole. */
static void
test_narrow(void **state)
{
	char	buf[32];

	protocol_table_cell(2, 3, 2, buf, sizeof buf);
	assert_string_equal(buf, ".7");
	protocol_table_cell(2, 3, 3, buf, sizeof buf);
	assert_string_equal(buf, "0.7");
	protocol_table_cell(1, 30, 2, buf, sizeof buf);
	assert_string_equal(buf, ".1");
	protocol_table_cell(4, 3, 3, buf, sizeof buf);
	assert_string_equal(buf, "1.3");
	protocol_table_cell(4, 3, 2, buf, sizeof buf);
	assert_string_equal(buf, "1");
	protocol_table_cell(5, 3, 2, buf, sizeof buf);
	assert_string_equal(buf, "2");
	protocol_table_cell(125, 10, 3, buf, sizeof buf);
	assert_string_equal(buf, "13");
	protocol_table_cell(124, 10, 3, buf, sizeof buf);
	assert_string_equal(buf, "12");
	protocol_table_cell(124, 10, 4, buf, sizeof buf);
	assert_string_equal(buf, "12.4");
	/* Whole numbers are never cut here. */
	protocol_table_cell(1230, 10, 2, buf, sizeof buf);
	assert_string_equal(buf, "123");
	protocol_table_cell(0, 10, 1, buf, sizeof buf);
	assert_string_equal(buf, "");
}

/* A part-run descent shows what ran so far, in tenths, blank elsewhere. */
static void
test_partial_row(void **state)
{
	struct table	*t = table_create(100);
	int		 i;
	char		*s;

	/* nice 19 has one stair: the table has one column. */
	assert_int_equal(table_columns(t, 139), 1);
	for (i = 0; i < 4; i++)
		table_add(t, 1, 0);
	s = table_format(t, 139, 10);
	assert_string_equal(s, "Iteration | Base\n1 | 0.4\n");
	free(s);
	table_free(t);

	t = table_create(100);
	for (i = 0; i < 15; i++)
		table_add(t, 1, 1);
	table_add(t, 1, TABLE_STAIRS);	/* out of range: ignored */
	table_add(t, 1, -1);
	s = table_format(t, 137, 10);
	assert_string_equal(s, "Iteration | Base | -1 | -2\n1 |  | 1.5 | \n");
	assert_int_equal(table_dropped(t), 0);
	free(s);
	table_free(t);
}

/*
 * A ring of the newest max_rows descents: past the bound the oldest is
 * dropped, its ticks counted in dropped; raw rows read back oldest first.
 */
static void
test_bounded(void **state)
{
	struct table	*t = table_create(3);
	const uint32_t	*ticks;
	uint32_t	 k;
	char		*s;

	for (k = 1; k <= 7; k++)
		feed_descent(t, 0, 10, k);
	assert_int_equal(table_nrows(t), 3);
	/* Descents 1-4 dropped: 200 ticks each. */
	assert_int_equal(table_dropped(t), 800);
	assert_int_equal(table_row(t, 0, &ticks), 5);
	assert_int_equal(ticks[0], 0);
	assert_int_equal(ticks[4], 50);
	assert_int_equal(ticks[5], 10);
	assert_int_equal(table_row(t, 2, &ticks), 7);
	assert_int_equal(ticks[6], 70);
	assert_int_equal(table_row(t, 3, &ticks), 0);
	assert_null(ticks);
	s = table_format(t, 120, 10);
	assert_int_equal(count_lines(s), 4);
	assert_line(s, 1, "5 |  |  |  |  | 5 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | "
	    "1 | 1 | 1 | 1 | 1 | 1 | 1 | 1");
	assert_line(s, 2, "6 |  |  |  |  |  | 6 | 1 | 1 | 1 | 1 | 1 | 1 | "
	    "1 | 1 | 1 | 1 | 1 | 1 | 1 | 1");
	assert_line(s, 3, "7 |  |  |  |  |  |  | 7 | 1 | 1 | 1 | 1 | 1 | "
	    "1 | 1 | 1 | 1 | 1 | 1 | 1 | 1");
	free(s);
	/* Around the ring again: still the newest three, in order. */
	for (k = 8; k <= 12; k++)
		feed_descent(t, 0, 10, k);
	assert_int_equal(table_nrows(t), 3);
	assert_int_equal(table_row(t, 0, &ticks), 10);
	assert_int_equal(table_row(t, 1, &ticks), 11);
	assert_int_equal(table_row(t, 2, &ticks), 12);
	assert_int_equal(table_dropped(t), 800 + 200 * 5);
	table_free(t);
}

/*
 * Another policy reports descent 1 throughout: after a switch its ticks
 * make a new row, after the staircase's, and the staircase's next
 * descent another; rows stay in the order run.
 */
static void
test_switch(void **state)
{
	struct table	*t = table_create(10);
	const uint32_t	*ticks;

	table_add(t, 1, 0);
	table_add(t, 2, 1);
	table_add(t, 1, 3);
	table_add(t, 1, 3);
	table_add(t, 3, 2);
	assert_int_equal(table_nrows(t), 4);
	assert_int_equal(table_row(t, 0, &ticks), 1);
	assert_int_equal(table_row(t, 1, &ticks), 2);
	assert_int_equal(table_row(t, 2, &ticks), 1);
	assert_int_equal(ticks[3], 2);
	assert_int_equal(table_row(t, 3, &ticks), 3);
	assert_int_equal(table_dropped(t), 0);
	table_free(t);
}

/*
 * Columns are stairs: after a renice to fewer stairs the columns it ran
 * stay, so a task of base 135 (5 stairs) that ran on stair 7 shows 8.
 */
static void
test_renice(void **state)
{
	struct table	*t = table_create(10);
	char		*s;

	table_add(t, 1, 7);
	assert_int_equal(table_columns(t, 135), 8);
	assert_int_equal(table_columns(t, 120), 20);
	assert_int_equal(table_columns(t, 100), 40);
	assert_int_equal(table_columns(NULL, 139), 1);
	s = table_format(t, 135, 1);
	assert_string_equal(s, "Iteration | Base | -1 | -2 | -3 | -4 | -5 | "
	    "-6 | -7\n1 |  |  |  |  |  |  |  | 1\n");
	free(s);
	table_free(t);
}

/*
 * Memory is bounded: TABLE_ROWS rows kept take room for TABLE_ROWS
 * rows, not the 256 a doubling array would reach, however many descents.
 */
static void
test_memory(void **state)
{
	struct table	*t = table_create(TABLE_ROWS);
	size_t		 one;
	uint32_t	 d;

	assert_true(table_memory(t) < 256);
	for (d = 1; d <= 100000; d++)
		table_add(t, d, (int)(d % TABLE_STAIRS));
	assert_int_equal(table_nrows(t), TABLE_ROWS);
	one = table_memory(t);
	assert_true(one <= TABLE_ROWS * (4 + TABLE_STAIRS * 4) + 256);
	for (d = 100001; d <= 200000; d++)
		table_add(t, d, 1);
	assert_true(table_memory(t) == one);
	assert_int_equal(table_dropped(t), 200000 - TABLE_ROWS);
	table_free(t);
}

/* A task that never ran: the header alone. */
static void
test_empty(void **state)
{
	struct table	*t = table_create(10);
	char		*s;

	assert_int_equal(table_nrows(t), 0);
	s = table_format(t, 120, 10);
	assert_int_equal(count_lines(s), 1);
	free(s);
	table_free(t);
}

/* Run the tests. */
int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_article),
		cmocka_unit_test(test_nice_plus10),
		cmocka_unit_test(test_nice_minus5),
		cmocka_unit_test(test_cells),
		cmocka_unit_test(test_partial_row),
		cmocka_unit_test(test_narrow),
		cmocka_unit_test(test_bounded),
		cmocka_unit_test(test_switch),
		cmocka_unit_test(test_renice),
		cmocka_unit_test(test_memory),
		cmocka_unit_test(test_empty),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
