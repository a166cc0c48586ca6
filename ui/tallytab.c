/*
 * tallytab.c -- with policies side by side (compare a,b,c), the task
 * table says what each task got under each policy since the comparison
 * started, as headless --compare prints it (SPEC.md section 10): its
 * share of a CPU, its runs and its wake-up latency p50/p95/max in ms
 * (ticks), a block of columns per policy, the enforced one first.  The
 * numbers are the daemon's tally lines, drawn as they came.  A row per
 * task like the task table's (the same selection and scrolling), so
 * clicks and keys select as there.  Pure: into a grid.
 */
#include <stdio.h>
#include <string.h>

#include "grid.h"
#include "model.h"
#include "pane.h"
#include "view.h"

#define TALLY_ID	4
#define TALLY_NAME	9
#define TALLY_WIDE	36	/* this wide: share runs wait ms p50/p95/max */

/* The tally of task id under policy i (0 enforced), or NULL. */
static const struct mtally *
tallytab_of(const struct model *m, int i, int id)
{
	const struct model	*pm = i == 0 ? m : m->shadows[i - 1];
	const struct mtask	*t;

	if (pm == NULL || (t = model_task(pm, id)) == NULL || !t->tally.valid)
		return (NULL);
	return (&t->tally);
}

/* One block: share, runs, latency, in bw columns from x. */
static void
tallytab_block(struct draw *d, const struct mtally *ty, int x, int y, int bw,
    enum col col)
{
	int	x0 = x;

	char	a[24], b[24], c[24], lat[80];

	if (ty == NULL) {
		grid_text(d->g, x, y, x + bw, "      -", col);
		return;
	}
	tasktab_num(a, sizeof a, ty->p50);
	tasktab_num(b, sizeof b, ty->p95);
	tasktab_num(c, sizeof c, ty->max);
	if (ty->p50 < 0)
		snprintf(lat, sizeof lat, "-");
	else
		snprintf(lat, sizeof lat, "%s/%s/%s", a, b, c);
	if (bw >= TALLY_WIDE)
		grid_textf(d->g, x, y, x + bw, col, "%5d.%d%% %5ld  %s",
		    ty->share10 / 10, ty->share10 % 10, ty->runs, lat);
	else {
		/* A decimal when there is room for it, as --compare's. */
		if (bw >= 22)
			x = grid_textf(d->g, x, y, x0 + bw, col, "%3d.%d %4ld ",
			    ty->share10 / 10, ty->share10 % 10, ty->runs);
		else
			x = grid_textf(d->g, x, y, x0 + bw, col, "%3d %3ld ",
			    (ty->share10 + 5) / 10, ty->runs);
		/* Cut: its end an ellipsis, not a number that looks whole. */
		if (grid_width(lat) > x0 + bw - x && x0 + bw - x > 1) {
			lat[x0 + bw - x - 1] = '\0';
			x = grid_text(d->g, x, y, x0 + bw, lat, col);
			grid_put(d->g, x, y, L'…', col);
		} else
			grid_text(d->g, x, y, x0 + bw, lat, col);
	}
}

/* The table in rows [y, y + h): a heading, then a row per task. */
void
tallytab_draw(struct draw *d, int y, int h)
{
	const struct model	*m = d->m;
	struct view		*v = d->v;
	struct grid		*g = d->g;
	const struct mtask	*t;
	const char		*pol;
	int			 np = 1 + m->nshadows, bw, i, k, x, row, rows;
	int			 sel, nw = TALLY_NAME;
	enum col		 col;

	v->task_y = y + 1;
	v->task_rows = 0;
	if (h < 2)
		return;
	bw = (g->w - 2 - TALLY_ID - 1 - nw) / np;
	if (bw > 40) {
		/* Room to spare: whole names. */
		nw += (bw - 40) * np / 2;
		if (nw > MODEL_NAME_MAX)
			nw = MODEL_NAME_MAX;
		bw = (g->w - 2 - TALLY_ID - 1 - nw) / np;
	}
	grid_fill(g, 0, y, g->w, L' ', COL_HEADER);
	/* Narrow: the blocks' columns said once, where ID NAME were. */
	if (bw < TALLY_WIDE)
		grid_text(g, 1, y, 2 + TALLY_ID + nw, "% runs wait ms",
		    COL_HEADER);
	else
		grid_textf(g, 2, y, g->w, COL_HEADER, "%*s %-*s", TALLY_ID,
		    "ID", nw - 1, "NAME");
	for (k = 0; k < np; k++) {
		pol = k == 0 ? m->policy : m->shadows[k - 1]->policy;
		x = 2 + TALLY_ID + 1 + nw + k * bw;
		grid_put(g, x - 1, y, d->gl->v, COL_HEADER);
		if (bw >= TALLY_WIDE)
			grid_textf(g, x, y, x + bw - 1, COL_HEADER,
			    "%-9.9s runs  wait ms p50/p95/max", pol);
		else
			grid_text(g, x + 1, y, x + bw - 1, pol, COL_HEADER);
	}
	rows = h - 1;
	sel = tasktab_keep(m, v, rows);
	for (row = 0; row < rows; row++) {
		i = v->task_top + row;
		if (i >= m->ntasks)
			break;
		t = &m->tasks[i];
		col = t->state == MTASK_EXITED ? COL_EXITED : COL_DEFAULT;
		if (i == sel) {
			col = COL_SELECTED;
			grid_fill(g, 0, y + 1 + row, g->w, L' ', COL_SELECTED);
			grid_put(g, 0, y + 1 + row, d->gl->sel, COL_SELECTED);
		}
		grid_textf(g, 2, y + 1 + row, 2 + TALLY_ID + 1 + nw, col,
		    "%*d %.*s", TALLY_ID, t->id, nw - 1, t->name);
		for (k = 0; k < np; k++) {
			x = 2 + TALLY_ID + 1 + nw + k * bw;
			grid_put(g, x - 1, y + 1 + row, d->gl->v,
			    col == COL_SELECTED ? col : COL_BORDER);
			tallytab_block(d, tallytab_of(m, k, t->id), x,
			    y + 1 + row, bw - 1, col);
		}
	}
}
