/*
 * table.c -- the article's table: ticks run per rank per descent.
 *
 * The article (LWN, 2004) shows a CPU hog's life as rows of slices: one
 * row per descent of the staircase, one column per rank below its static
 * priority, each cell the time spent there in units of rr_interval.  We
 * count ticks per (descent, rank) and divide by rr only when printing.
 *
 * Memory is bounded: only the max_rows most recent descents are kept, so
 * a daemon can keep a table per task for as long as it runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "table.h"
#include "xmalloc.h"

struct table {
	int		 base;		/* static priority: column 0 */
	int		 stairs;	/* columns: base..139 */
	int		 rr;
	size_t		 max_rows;
	size_t		 nrows;
	size_t		 alloc;		/* rows allocated */
	uint32_t	*descents;	/* descent of each row, oldest first */
	uint32_t	*ticks;		/* nrows * stairs counts */
};

/* Create an empty table for a task of this nice value. */
struct table *
table_create(int nice, int rr, int max_rows)
{
	struct table	*t;

	if (nice < -20)
		nice = -20;
	if (nice > 19)
		nice = 19;
	t = xcalloc(1, sizeof *t);
	t->base = 120 + nice;
	t->stairs = ENGINE_BOTTOM + 1 - t->base;
	t->rr = rr < 1 ? 1 : rr;
	t->max_rows = max_rows < 1 ? 1 : (size_t)max_rows;
	return (t);
}

/* Free a table. */
void
table_free(struct table *t)
{
	if (t == NULL)
		return;
	free(t->descents);
	free(t->ticks);
	free(t);
}

/* Append an empty row for descent d, dropping the oldest if full. */
static size_t
table_new_row(struct table *t, uint32_t d)
{
	size_t	w = t->stairs;

	if (t->nrows == t->max_rows) {
		memmove(t->descents, t->descents + 1,
		    (t->nrows - 1) * sizeof *t->descents);
		memmove(t->ticks, t->ticks + w,
		    (t->nrows - 1) * w * sizeof *t->ticks);
		t->nrows--;
	} else if (t->nrows == t->alloc) {
		t->alloc = t->alloc == 0 ? 16 : t->alloc * 2;
		if (t->alloc > t->max_rows)
			t->alloc = t->max_rows;
		t->descents = xreallocarray(t->descents, t->alloc,
		    sizeof *t->descents);
		t->ticks = xreallocarray(t->ticks, t->alloc * w,
		    sizeof *t->ticks);
	}
	t->descents[t->nrows] = d;
	memset(t->ticks + t->nrows * w, 0, w * sizeof *t->ticks);
	return (t->nrows++);
}

/*
 * Count one tick run at rank in descent.  Ranks outside base..139 (the
 * task was reniced: the caller should start a new table) and descents
 * older than the oldest row kept are ignored.
 */
void
table_add(struct table *t, uint32_t descent, int rank)
{
	size_t	i;

	if (rank < t->base || rank > ENGINE_BOTTOM)
		return;
	if (t->nrows == 0 || descent > t->descents[t->nrows - 1])
		i = table_new_row(t, descent);
	else {
		/* Almost always the last row; search back otherwise. */
		i = t->nrows;
		while (i > 0 && t->descents[i - 1] > descent)
			i--;
		if (i == 0 || t->descents[i - 1] != descent)
			return;
		i--;
	}
	t->ticks[i * t->stairs + (rank - t->base)]++;
}

/*
 * One cell's text: ticks / rr, whole or with one decimal, "" if zero.
 * Blank is the only zero: a share too small to round to 0.1 shows 0.1.
 */
void
table_cell(uint32_t ticks, int rr, char *buf, size_t len)
{
	uint64_t	tenths;

	if (ticks == 0) {
		snprintf(buf, len, "%s", "");
		return;
	}
	if (rr < 1)
		rr = 1;
	tenths = ((uint64_t)ticks * 10 + (uint64_t)rr / 2) / (uint64_t)rr;
	if (tenths == 0)
		tenths = 1;
	if (tenths % 10 == 0)
		snprintf(buf, len, "%llu", (unsigned long long)(tenths / 10));
	else
		snprintf(buf, len, "%llu.%llu",
		    (unsigned long long)(tenths / 10),
		    (unsigned long long)(tenths % 10));
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
 * The table as text: "Iteration | Base | -1 | ... | -(L-1)", then one
 * "D | c | c ..." row per descent kept, cells joined by " | " (so a blank
 * cell reads "|  |").
 */
char *
table_format(const struct table *t)
{
	char		*buf = NULL, cell[32];
	size_t		 len = 0, size = 0, i;
	int		 c;

	table_append(&buf, &len, &size, "Iteration | Base");
	for (c = 1; c < t->stairs; c++) {
		snprintf(cell, sizeof cell, " | -%d", c);
		table_append(&buf, &len, &size, cell);
	}
	table_append(&buf, &len, &size, "\n");
	for (i = 0; i < t->nrows; i++) {
		snprintf(cell, sizeof cell, "%u", t->descents[i]);
		table_append(&buf, &len, &size, cell);
		for (c = 0; c < t->stairs; c++) {
			table_append(&buf, &len, &size, " | ");
			table_cell(t->ticks[i * t->stairs + c], t->rr, cell,
			    sizeof cell);
			table_append(&buf, &len, &size, cell);
		}
		table_append(&buf, &len, &size, "\n");
	}
	return (buf);
}

/* The static priority: the rank of column 0 ("Base"). */
int
table_base(const struct table *t)
{
	return (t->base);
}

/* The number of columns: the task's stairs. */
int
table_stairs(const struct table *t)
{
	return (t->stairs);
}

/* The rr_interval cells are divided by. */
int
table_rr(const struct table *t)
{
	return (t->rr);
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
	if (i >= t->nrows) {
		*ticks = NULL;
		return (0);
	}
	*ticks = t->ticks + i * t->stairs;
	return (t->descents[i]);
}
