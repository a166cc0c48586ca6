/*
 * article.c -- the article's table for the selected task: descents down,
 * ranks across, each cell the ticks run there in rr intervals (the
 * table in Kolivas's staircase write-up).  Each cell is protocol_table_cell()'s,
 * the rule headless `--table` prints with (src/table.c).  Pure: into a
 * grid.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "grid.h"
#include "model.h"
#include "pane.h"
#include "protocol.h"
#include "xmalloc.h"

/*
 * Whether the task is in a descent newer than the table's rows: right
 * after it falls off the bottom it has not run in the new one yet (the
 * daemon says which it is in: descent=).  That row is drawn, empty.
 */
static int
article_pending(const struct draw *d)
{
	const struct mtable	*t = &d->m->table;
	const struct mtask	*task = model_task(d->m, t->task);

	return (t->nrows > 0 && t->descent > t->iters[t->nrows - 1] &&
	    task != NULL && task->state != MTASK_EXITED);
}

/* The rows to draw: the descents kept, and the one the task is in. */
int
article_rows(const struct draw *d)
{
	return (d->m->table.nrows + article_pending(d));
}

/*
 * The row of the descent the task is in: the one the daemon names, the
 * newest of that number (another policy's rows restart at 1); without
 * descent= (an older daemon), or when no row has it, the newest row.
 */
static int
article_now_row(const struct draw *d)
{
	const struct mtable	*t = &d->m->table;
	int			 r;

	if (article_pending(d))
		return (t->nrows);
	for (r = t->nrows - 1; r >= 0; r--)
		if (t->iters[r] == t->descent)
			return (r);
	return (t->nrows - 1);
}

/* How many lines the article's table wants (0: nothing to show). */
int
article_lines(struct draw *d, int most)
{
	const struct mtable	*t = &d->m->table;
	int			 rows;

	if (!d->v->show_table || !t->valid || t->task != d->v->selected ||
	    most < 3)
		return (0);
	rows = article_rows(d);
	if (rows < 1)
		rows = 1;
	if (rows > most - 2)
		rows = most - 2;
	return (2 + rows);
}

/*
 * Draw the article's table for the selected task in rows [y, y + h):
 * descents down, ranks across, the newest descents when not all fit.
 */
void
article_draw(struct draw *d, int y, int h)
{
	const struct mtable	*t = &d->m->table;
	const struct mtask	*task;
	struct grid		*g = d->g;
	int			 cw, ncol, c, c0, r, first, x, nrows;
	char			 buf[32];

	x = grid_textf(d->g, 1, y, g->w, COL_HEADER, "%s: descents ",
	    t->name[0] != '\0' ? t->name : "?");
	grid_put(g, x, y, d->gl->times, COL_HEADER);
	grid_textf(d->g, x + 1, y, g->w, COL_HEADER,
	    " ranks, in rr intervals (%d ms)", t->rr);
	/*
	 * Columns of 3 to 5; 4 at least past -9, so that every heading keeps
	 * its minus.  When not all fit, the window follows the task's rank.
	 */
	cw = (g->w - 6) / t->stairs;
	if (cw > 5)
		cw = 5;
	if (cw < 3)
		cw = 3;
	if (cw < 4 && t->stairs > 10)
		cw = 4;
	ncol = (g->w - 6) / cw;
	if (ncol > t->stairs)
		ncol = t->stairs;
	task = model_task(d->m, t->task);
	c0 = 0;
	if (task != NULL && task->rank - t->base >= ncol)
		c0 = task->rank - t->base - ncol + 1;
	if (c0 > t->stairs - ncol)
		c0 = t->stairs - ncol;
	if (c0 < 0)
		c0 = 0;
	grid_text(d->g, 0, y + 1, g->w, "Desc", COL_HEADER);
	grid_put(g, 4, y + 1, d->gl->vbar, COL_BORDER);
	for (c = 0; c < ncol; c++) {
		x = 5 + c * cw;
		if (c0 + c == 0)
			grid_textf(d->g, x, y + 1, x + cw, COL_HEADER, "%*s", cw,
			    cw > 3 ? "Base" : "B");
		else
			grid_textf(d->g, x, y + 1, x + cw, COL_HEADER, "%*d",
			    cw, -(c0 + c));
	}
	/* The rows kept, and the descent the task is in if it has none. */
	nrows = article_rows(d);
	first = nrows - (h - 2);
	if (first < 0)
		first = 0;
	for (r = first; r < nrows && y + 2 + r - first < y + h; r++) {
		x = y + 2 + r - first;
		grid_textf(d->g, 0, x, 4, COL_HEADER, "%4d",
		    r < t->nrows ? t->iters[r] : t->descent);
		grid_put(g, 4, x, d->gl->vbar, COL_BORDER);
		for (c = 0; c < ncol && r < t->nrows; c++) {
			protocol_table_cell((uint64_t)t->ticks[(size_t)r * t->stairs +
			    c0 + c], t->rr, cw - 1, buf, sizeof buf);
			grid_textf(d->g, 5 + c * cw, x, 5 + (c + 1) * cw,
			    COL_CELL, "%*s", cw, buf);
		}
	}
	if (t->nrows == 0) {
		grid_text(d->g, 5, y + 2, g->w, "(has not run yet)", COL_SLEEPING);
		return;
	}
	/* Where the task is now: its rank in the descent it is in. */
	r = article_now_row(d);
	if (task != NULL && task->state != MTASK_EXITED && r >= first &&
	    y + 2 + r - first < y + h) {
		c = task->rank - t->base - c0;
		x = 5 + c * cw;
		/* A row not run in yet: a marker where the count will go. */
		if (c >= 0 && c < ncol && r == t->nrows)
			grid_put(g, x + cw - 1, y + 2 + r - first, d->gl->sel,
			    COL_CELL);
		if (c >= 0 && c < ncol)
			grid_paint(g, x + 1, y + 2 + r - first, cw - 1,
			    task->state == MTASK_RUNNING ? COL_RUNNING :
			    COL_MARK);
	}
}
