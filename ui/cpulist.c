/*
 * cpulist.c -- the CPUs as a list, one line each: the CPU and nr, then
 * its tasks by rank, each rank written before its tasks, the running
 * one first with its gauge.  For more CPUs than panels show well
 * (beyond PANEL_MAX_CPUS, or when no panel layout shows every task):
 * the lines wrap into columns, and scroll with [ and ] when even those
 * do not fit.  Pure: into a grid.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid.h"
#include "model.h"
#include "pane.h"
#include "panel-int.h"
#include "view.h"
#include "xmalloc.h"

#define CPULIST_MIN	40	/* the narrowest column of lines */

/*
 * One CPU's runnable tasks for its line: the running one, then the
 * queued ones by rank (best first), each rank in id order.
 */
static int
cpulist_tasks(struct draw *d, int cpu, const struct mtask **list)
{
	const struct mtask	*t;
	int			 i, n = 0;

	panel_index_cpu(d, cpu);
	for (i = d->cstart[cpu]; i < d->cstart[cpu + 1]; i++) {
		if (d->bycpu[i]->state == MTASK_RUNNING)
			list[n++] = d->bycpu[i];
	}
	for (i = 0; i < d->cstart[cpu + 1] - d->cstart[cpu]; i++) {
		t = d->pl[i];
		if (t->state == MTASK_RUNNABLE)
			list[n++] = t;
	}
	return (n);
}

/*
 * Draw the CPUs as a list in the rows [y, y + avail): a heading, then a
 * line a CPU, in as many columns as it takes (each CPULIST_MIN wide at
 * least), scrolling by lines when they do not fit.  Returns the lines
 * used.
 */
int
cpulist_draw(struct draw *d, int y, int avail)
{
	const struct model	*m = d->m;
	struct view		*v = d->v;
	struct grid		*g = d->g;
	const struct mtask	**list;
	int			 ncpu = m->ncpus, lines, cols, maxcols, per;
	int			 shown, colw, idw, nrw, c, i, cpu, x, xmax, n;
	int			 k, head, x2, lx;
	char			 label[64];
	static const char	*heads[] = { "rank [running left] queued",
				    "rank [running left]", "rank" };

	if (ncpu == 0 || avail < 1)
		return (0);
	head = avail >= 2;
	lines = avail - head;
	maxcols = g->w / CPULIST_MIN;
	if (maxcols < 1)
		maxcols = 1;
	cols = (ncpu + lines - 1) / lines;
	if (cols > maxcols)
		cols = maxcols;
	per = (ncpu + cols - 1) / cols;
	shown = per < lines ? per : lines;
	panel_scroll(v, per, shown);
	colw = g->w / cols;
	idw = grid_digits(ncpu - 1);
	for (i = nrw = 0; i < ncpu; i++) {
		k = grid_digits(m->cpus[i].nr);
		if (k > nrw)
			nrw = k;
	}

	if (head) {
		grid_fill(g, 0, y, g->w, L' ', COL_HEADER);
		/*
		 * Scrolled: which rows of each column are shown (rows, not
		 * CPUs: each column shows its own), at the right; the
		 * headings before it leave out what does not fit whole.
		 */
		lx = g->w;
		if (shown < per) {
			n = snprintf(label, sizeof label, " rows %d-%d/%d "
			    "[ ] ", v->cpu_top + 1, v->cpu_top + shown, per);
			lx = g->w - n;
			grid_text(g, lx, y, g->w, label, COL_HEADER);
		}
		for (c = 0; c < cols; c++) {
			xmax = c == cols - 1 || (c + 1) * colw > lx ? lx :
			    (c + 1) * colw;
			for (k = 0; k < 3; k++) {
				n = snprintf(label, sizeof label, " %-*s%*s "
				    "%s", 3 + idw, "CPU", 1 + nrw, "nr",
				    heads[k]);
				if (c * colw + n <= xmax || k == 2)
					break;
			}
			if (c * colw < xmax)
				grid_text(g, c * colw, y, xmax, label,
				    COL_HEADER);
		}
	}
	list = xcalloc(m->ntasks + 1, sizeof *list);
	for (c = 0; c < cols; c++) {
		x = c * colw;
		/* Each line starts with a blank: that parts the columns. */
		xmax = c == cols - 1 ? g->w : x + colw;
		for (i = 0; i < per; i++) {
			cpu = c * per + i;
			if (cpu >= ncpu)
				break;
			n = cpulist_tasks(d, cpu, list);
			if (i < v->cpu_top || i >= v->cpu_top + shown) {
				d->st_hidden += n;
				continue;
			}
			k = y + head + i - v->cpu_top;
			x2 = grid_textf(g, x, k, xmax, COL_TITLE, " CPU%-*d",
			    idw, m->cpus[cpu].id);
			x2 = grid_textf(g, x2, k, xmax, COL_DEFAULT, " %*d ",
			    nrw, m->cpus[cpu].nr);
			if (n == 0)
				grid_text(g, x2, k, xmax, "idle", COL_SLEEPING);
			else
				panel_line(d, list, n, 0, x2, k, xmax, 1);
			picture_why_after(d, cpu, k, x2, xmax);
		}
	}
	free(list);
	return (head + shown);
}
