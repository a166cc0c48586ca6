/*
 * table.c -- the article's table: ticks run per stair per descent.
 *
 * The article (LWN, 2004) shows a CPU hog's life as rows of slices: one
 * row per descent of the staircase, one column per stair below its static
 * priority, each cell the time spent there in units of rr_interval.  We
 * count ticks per (descent, stair) and divide by rr only when printing,
 * with protocol_table_cell() (wire/protocol.c): headless `--table`, the daemon's `table` reply read
 * by the client, and the client's article view all show the same cells.
 *
 * A column is a stair, rank less the static priority at the tick it ran,
 * so a renice keeps the columns meaning what they say.  The rows are a
 * ring of the max_rows most recent descents, oldest first: a new descent
 * past that drops the oldest, whose ticks go to the dropped count.  Room
 * for more is never allocated, so memory stays bounded (max_rows rows of
 * TABLE_STAIRS counts, 33 KB for TABLE_ROWS) however long it runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "protocol.h"
#include "table.h"
#include "xmalloc.h"

struct table_row {
	uint32_t	descent;
	uint32_t	ticks[TABLE_STAIRS];
};

struct table {
	struct table_row	*rows;		/* the ring */
	size_t			 alloc;		/* rows allocated */
	size_t			 max_rows;
	size_t			 head;		/* the oldest row, once full */
	size_t			 nrows;
	int			 widest;	/* highest stair run + 1 */
	uint64_t		 dropped;	/* ticks in rows not kept */
};

/* An empty table keeping at most max_rows descents. */
struct table *
table_create(int max_rows)
{
	struct table	*t;

	t = xcalloc(1, sizeof *t);
	t->max_rows = max_rows < 1 ? 1 : (size_t)max_rows;
	return (t);
}

/* Free a table. */
void
table_free(struct table *t)
{
	if (t == NULL)
		return;
	free(t->rows);
	free(t);
}

/* Row i, oldest first. */
static struct table_row *
table_at(const struct table *t, size_t i)
{
	return (&t->rows[(t->head + i) % t->alloc]);
}

/* Sum a row's ticks. */
static uint64_t
table_row_ticks(const struct table_row *r)
{
	uint64_t	n = 0;
	int		s;

	for (s = 0; s < TABLE_STAIRS; s++)
		n += r->ticks[s];
	return (n);
}

/*
 * A new, empty newest row for descent d.  Until the ring is full it
 * grows by doubling (never past max_rows) and head stays 0; once full,
 * the oldest row is dropped and reused.
 */
static struct table_row *
table_new_row(struct table *t, uint32_t d)
{
	struct table_row	*r;

	if (t->nrows == t->max_rows) {
		r = table_at(t, 0);
		t->dropped += table_row_ticks(r);
		t->head = (t->head + 1) % t->alloc;
	} else {
		if (t->nrows == t->alloc) {
			t->alloc = t->alloc == 0 ? 4 : t->alloc * 2;
			if (t->alloc > t->max_rows)
				t->alloc = t->max_rows;
			t->rows = xreallocarray(t->rows, t->alloc,
			    sizeof *t->rows);
		}
		r = &t->rows[t->nrows++];
	}
	memset(r, 0, sizeof *r);
	r->descent = d;
	return (r);
}

/*
 * Count one tick run on stair in descent: in the newest row if it is that
 * descent's, else in a new row.  Under the staircase a task's descents
 * only grow; another policy reports descent 1 throughout (engine.h), so
 * its ticks after a switch make a row of their own, in the order run.
 * A stair outside 0..TABLE_STAIRS-1 is ignored.
 */
void
table_add(struct table *t, uint32_t descent, int stair)
{
	struct table_row	*r;

	if (stair < 0 || stair >= TABLE_STAIRS)
		return;
	if (t->nrows == 0 ||
	    (r = table_at(t, t->nrows - 1))->descent != descent)
		r = table_new_row(t, descent);
	r->ticks[stair]++;
	if (stair + 1 > t->widest)
		t->widest = stair + 1;
}

/* The number of rows kept. */
size_t
table_nrows(const struct table *t)
{
	return (t->nrows);
}

/* Row i, oldest first: returns its descent, points *ticks at its counts. */
uint32_t
table_row(const struct table *t, size_t i, const uint32_t **ticks)
{
	const struct table_row	*r;

	if (i >= t->nrows) {
		*ticks = NULL;
		return (0);
	}
	r = table_at(t, i);
	*ticks = r->ticks;
	return (r->descent);
}

/*
 * The columns to show for a task of static priority base now: its
 * stairs, base..139, or more if it ran lower before a renice.
 */
int
table_columns(const struct table *t, int base)
{
	int	cols = ENGINE_BOTTOM + 1 - base;

	if (cols < 1)
		cols = 1;
	if (cols > TABLE_STAIRS)
		cols = TABLE_STAIRS;
	if (t != NULL && t->widest > cols)
		cols = t->widest;
	return (cols);
}

/* The ticks counted in descents no longer kept. */
uint64_t
table_dropped(const struct table *t)
{
	return (t->dropped);
}

/* The bytes the table has allocated. */
size_t
table_memory(const struct table *t)
{
	return (sizeof *t + t->alloc * sizeof *t->rows);
}


/* Append to a growing string. */
static void
table_append(char **buf, size_t *len, size_t *size, const char *s)
{
	size_t	n = strlen(s);

	if (*len + n + 1 > *size) {
		while (*len + n + 1 > *size)
			*size = *size == 0 ? 256 : *size * 2;
		*buf = xrealloc(*buf, *size);
	}
	memcpy(*buf + *len, s, n + 1);
	*len += n;
}

/*
 * The table as text for a task of static priority base: "Iteration |
 * Base | -1 | ... | -(L-1)", then one "D | c | c ..." row per descent
 * kept, cells joined by " | " (so a blank cell reads "|  |").
 */
char *
table_format(const struct table *t, int base, int rr)
{
	const uint32_t	*ticks;
	char		*buf = NULL, cell[32];
	size_t		 len = 0, size = 0, i;
	uint32_t	 d;
	int		 c, cols = table_columns(t, base);

	table_append(&buf, &len, &size, "Iteration | Base");
	for (c = 1; c < cols; c++) {
		snprintf(cell, sizeof cell, " | -%d", c);
		table_append(&buf, &len, &size, cell);
	}
	table_append(&buf, &len, &size, "\n");
	for (i = 0; i < t->nrows; i++) {
		d = table_row(t, i, &ticks);
		snprintf(cell, sizeof cell, "%u", d);
		table_append(&buf, &len, &size, cell);
		for (c = 0; c < cols; c++) {
			table_append(&buf, &len, &size, " | ");
			protocol_table_cell(ticks[c], rr, 0, cell, sizeof cell);
			table_append(&buf, &len, &size, cell);
		}
		table_append(&buf, &len, &size, "\n");
	}
	return (buf);
}
