/*
 * tasktab.c -- the task table: one row per task (htop's process list),
 * columns shrunk and dropped on narrow screens, the selected row kept in
 * view so thousands of tasks scroll.  Pure: into a grid.
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
#include "view.h"
#include "xmalloc.h"

/* Format milliseconds for the table: 4.81s, 312s, 95m. */
static void
tasktab_ms(char *buf, size_t len, long ms)
{
	if (ms < 0)
		snprintf(buf, len, "-");
	else if (ms < 100000)
		snprintf(buf, len, "%ld.%02lds", ms / 1000, (ms % 1000) / 10);
	else if (ms < 10000000)
		snprintf(buf, len, "%lds", ms / 1000);
	else
		snprintf(buf, len, "%ldm", ms / 60000);
}

/* A task table column. */
struct tcol {
	const char	*title;
	int		 width;
	int		 right;		/* right-aligned */
	int		 drop;		/* dropped first when narrow (higher) */
};

enum {
	TC_ID, TC_NAME, TC_GROUP, TC_KIND, TC_PID, TC_NI, TC_CPU, TC_RANK,
	TC_IT,
	TC_LEFT, TC_STATE, TC_RAN, TC_CPUTIME, TC_STOLEN, TC_PCT, TC_MAX
};

static const struct tcol tasktab_cols[TC_MAX] = {
	[TC_ID] = { "ID", 4, 1, 0 },
	[TC_NAME] = { "NAME", 16, 0, 0 },
	/* Only when a task is in a group (the scenario's groups). */
	[TC_GROUP] = { "GROUP", 8, 0, 1 },
	[TC_KIND] = { "KIND", 4, 0, 3 },
	[TC_PID] = { "PID", 7, 1, 2 },
	[TC_NI] = { "NI", 3, 1, 0 },
	[TC_CPU] = { "CPU", 3, 1, 0 },
	[TC_RANK] = { "RANK", 4, 1, 0 },
	/* The staircase's k (iter=), not the descent count (Desc). */
	[TC_IT] = { "K", 4, 1, 0 },
	[TC_LEFT] = { "LEFT", 4, 1, 0 },
	[TC_STATE] = { "STATE", 8, 0, 0 },
	[TC_RAN] = { "RAN", 7, 1, 0 },
	[TC_CPUTIME] = { "CPUTIME", 7, 1, 1 },
	/* Real tasks' stolen= (only when a task line has it). */
	[TC_STOLEN] = { "STOLEN", 7, 1, 1 },
	[TC_PCT] = { "%CPU", 4, 1, 0 },
};

/* Format a count for a table: "-" when it is negative (unknown). */
void
tasktab_num(char *buf, size_t len, long n)
{
	if (n < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%ld", n);
}

/* Format one cell of the task table. */
static void
tasktab_cell(char *buf, size_t len, int c, const struct model *m,
    const struct mtask *t)
{
	switch (c) {
	case TC_NAME:
		snprintf(buf, len, "%s", t->name);
		break;
	case TC_GROUP:
		snprintf(buf, len, "%s", t->group);
		break;
	case TC_KIND:
		snprintf(buf, len, "%s", t->real ? "real" : "sim");
		break;
	case TC_STATE:
		snprintf(buf, len, "%s", model_state_name(t->state));
		break;
	case TC_NI:
		snprintf(buf, len, "%d", t->nice);
		break;
	case TC_ID:
		tasktab_num(buf, len, t->id);
		break;
	case TC_PID:
		tasktab_num(buf, len, t->pid);
		break;
	case TC_CPU:
		tasktab_num(buf, len, t->cpu);
		break;
	case TC_RANK:
		tasktab_num(buf, len, t->rank);
		break;
	case TC_IT:
		tasktab_num(buf, len, t->iter);
		break;
	case TC_LEFT:
		tasktab_num(buf, len, t->left);
		break;
	case TC_PCT:
		tasktab_num(buf, len, model_pct(m, t));
		break;
	case TC_RAN:
		tasktab_ms(buf, len, t->ran);
		break;
	case TC_CPUTIME:
		tasktab_ms(buf, len, t->cputime);
		break;
	case TC_STOLEN:
		tasktab_ms(buf, len, t->stolen);
		break;
	}
}

/*
 * A table of the tasks with rows rows: scroll it (v->task_top) so that
 * the selected task is in view, and say how many rows it has; the
 * selected task's index, or -1.
 */
int
tasktab_keep(const struct model *m, struct view *v, int rows)
{
	int	sel = model_task_index(m, v->selected);

	if (sel >= 0) {
		if (sel < v->task_top)
			v->task_top = sel;
		if (sel >= v->task_top + rows)
			v->task_top = sel - rows + 1;
	}
	if (v->task_top > m->ntasks - rows)
		v->task_top = m->ntasks - rows;
	if (v->task_top < 0)
		v->task_top = 0;
	v->task_rows = rows;
	return (sel);
}

/* Draw the task table in rows [y, y + h): a heading, then tasks. */
void
tasktab_draw(struct draw *d, int y, int h)
{
	const struct model	*m = d->m;
	struct view		*v = d->v;
	struct grid		*g = d->g;
	const struct mtask	*t;
	int			 width[TC_MAX], on[TC_MAX], total, c, drop;
	int			 rows, sel, i, j, x, row, cw;
	enum col		 col, rowcol;
	char			 buf[64];

	v->task_y = y + 1;
	v->task_rows = 0;
	if (h < 2)
		return;
	/*
	 * Columns: shrink the name, then drop the least needed ones.
	 * STOLEN only when the daemon says it of a task (real ones).
	 */
	for (i = 0; i < m->ntasks && m->tasks[i].stolen == -2; i++)
		;
	for (j = 0; j < m->ntasks && (m->tasks[j].group[0] == '\0' ||
	    strcmp(m->tasks[j].group, "-") == 0); j++)
		;
	total = 2;
	for (c = 0; c < TC_MAX; c++) {
		if ((c == TC_STOLEN && i == m->ntasks) ||
		    (c == TC_GROUP && j == m->ntasks)) {
			on[c] = 0;
			continue;
		}
		width[c] = tasktab_cols[c].width;
		/* Ids past 9999 (the tasks are by id: the last is largest). */
		if (c == TC_ID && m->ntasks > 0 &&
		    grid_digits(m->tasks[m->ntasks - 1].id) > width[c])
			width[c] = grid_digits(m->tasks[m->ntasks - 1].id);
		on[c] = 1;
		total += width[c] + 1;
	}
	if (total > g->w) {
		cw = width[TC_NAME] - (total - g->w);
		if (cw < 8)
			cw = 8;
		total -= width[TC_NAME] - cw;
		width[TC_NAME] = cw;
	}
	for (drop = 1; drop <= 3 && total > g->w; drop++) {
		for (c = 0; c < TC_MAX; c++) {
			if (tasktab_cols[c].drop == drop && on[c]) {
				on[c] = 0;
				total -= width[c] + 1;
			}
		}
	}

	x = 2;
	for (c = 0; c < TC_MAX; c++) {
		if (!on[c])
			continue;
		if (tasktab_cols[c].right)
			grid_textf(d->g, x, y, g->w, COL_HEADER, "%*s", width[c],
			    tasktab_cols[c].title);
		else
			grid_text(d->g, x, y, g->w, tasktab_cols[c].title,
			    COL_HEADER);
		x += width[c] + 1;
	}
	grid_paint(g, 0, y, g->w, COL_HEADER);

	rows = h - 1;
	sel = tasktab_keep(m, v, rows);

	for (row = 0; row < rows; row++) {
		i = v->task_top + row;
		if (i >= m->ntasks)
			break;
		t = &m->tasks[i];
		rowcol = COL_DEFAULT;
		if (t->state == MTASK_EXITED)
			rowcol = COL_EXITED;
		if (i == sel) {
			rowcol = COL_SELECTED;
			grid_fill(g, 0, y + 1 + row, g->w, L' ', COL_SELECTED);
			grid_put(g, 0, y + 1 + row, d->gl->sel, COL_SELECTED);
		}
		x = 2;
		for (c = 0; c < TC_MAX; c++) {
			if (!on[c])
				continue;
			tasktab_cell(buf, sizeof buf, c, m, t);
			col = rowcol;
			if (c == TC_STATE && rowcol != COL_SELECTED) {
				if (t->state == MTASK_RUNNING)
					col = COL_RUNNING;
				else if (t->state == MTASK_SLEEPING)
					col = COL_SLEEPING;
			}
			if (tasktab_cols[c].right)
				grid_textf(d->g, x, y + 1 + row, x + width[c],
				    col, "%*s", width[c], buf);
			else
				grid_text(d->g, x, y + 1 + row, x + width[c], buf,
				    col);
			x += width[c] + 1;
		}
	}
}
