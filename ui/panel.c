/*
 * panel.c -- the CPU panels: one staircase per CPU, each task on its
 * rank's stair (the running one with its gauge), laid out side by side
 * and wrapped into rows, compressed to the ranks that matter when the
 * screen is short.  Pure: into a grid.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "stairs.h"
#include "xmalloc.h"

#define DRAW_PANEL_MIN	24	/* a comfortable panel width */
#define DRAW_PANEL_TINY	14	/* the narrowest panel */
#define DRAW_LABEL	4	/* "139⋮" before the stairs */
#define DRAW_ROOM	20	/* kept right of the last stair for names */
#define DRAW_GAUGE	10	/* the widest `left` gauge */

/*
 * Sort the tasks on the stairs by CPU (a counting sort, so each CPU's
 * stay in id order): one pass for all panels instead of one per row.
 */
static void
panel_index(struct draw *d)
{
	const struct model	*m = d->m;
	const struct mtask	*t;
	int			*pos, i, c;

	d->cstart = xcalloc(m->ncpus + 1, sizeof *d->cstart);
	d->bycpu = xcalloc(m->ntasks + 1, sizeof *d->bycpu);
	d->pl = xcalloc(m->ntasks + 1, sizeof *d->pl);
	pos = xcalloc(m->ncpus + 1, sizeof *pos);
	for (i = 0; i < m->ntasks; i++) {
		t = &m->tasks[i];
		if (t->state != MTASK_EXITED && t->cpu >= 0 &&
		    t->cpu < m->ncpus)
			d->cstart[t->cpu + 1]++;
	}
	for (c = 0; c < m->ncpus; c++) {
		d->cstart[c + 1] += d->cstart[c];
		pos[c] = d->cstart[c];
	}
	for (i = 0; i < m->ntasks; i++) {
		t = &m->tasks[i];
		if (t->state != MTASK_EXITED && t->cpu >= 0 &&
		    t->cpu < m->ncpus)
			d->bycpu[pos[t->cpu]++] = t;
	}
	free(pos);
}

/* Sort one CPU's tasks by rank, running, runnable, then sleeping. */
static void
panel_index_cpu(struct draw *d, int cpu)
{
	static const enum mtask_state	 order[] = {
		MTASK_RUNNING, MTASK_RUNNABLE, MTASK_SLEEPING
	};
	const struct mtask		*t;
	int				 pos[MODEL_BOTTOM + 1], i, r, k;

	memset(d->rstart, 0, sizeof d->rstart);
	for (i = d->cstart[cpu]; i < d->cstart[cpu + 1]; i++)
		d->rstart[d->bycpu[i]->rank + 1]++;
	for (r = 0; r <= MODEL_BOTTOM; r++) {
		d->rstart[r + 1] += d->rstart[r];
		pos[r] = d->rstart[r];
	}
	for (k = 0; k < 3; k++) {
		for (i = d->cstart[cpu]; i < d->cstart[cpu + 1]; i++) {
			t = d->bycpu[i];
			if (t->state == order[k])
				d->pl[pos[t->rank]++] = t;
		}
	}
}

/* A rank row a panel shows, and what is on it. */
struct prow {
	int		 rank;
	int		 gap;		/* a skip mark line, not a rank */
	int		 skipped_after;	/* ranks skipped below this one */
};

/* Add a rank to a sorted set of ranks (no duplicates). */
static void
panel_rank_add(int *set, int *n, int rank)
{
	int	i, j;

	for (i = 0; i < *n; i++) {
		if (set[i] == rank)
			return;
		if (set[i] > rank)
			break;
	}
	for (j = *n; j > i; j--)
		set[j] = set[j - 1];
	set[i] = rank;
	(*n)++;
}

/* How many lines a rank set takes with a skip line at each gap. */
static int
panel_rank_lines(const int *set, int n)
{
	int	i, lines = n;

	for (i = 1; i < n; i++) {
		if (set[i] != set[i - 1] + 1)
			lines++;
	}
	return (lines);
}

/* Remove a rank from a sorted set. */
static void
panel_rank_del(int *set, int *n, int rank)
{
	int	i;

	for (i = 0; i < *n; i++) {
		if (set[i] == rank) {
			memmove(&set[i], &set[i + 1],
			    (*n - i - 1) * sizeof *set);
			(*n)--;
			return;
		}
	}
}

/*
 * Use the lines a compressed panel has left for the ranks nearest those
 * it shows, the ones just below first (where tasks go next), so the
 * panel is as full a staircase as fits.  set has room for every rank.
 */
static int
panel_rank_fill(int *set, int n, int first, int lines)
{
	int	orig[MODEL_BOTTOM + 1], norig, d, i, k, r, before;

	memcpy(orig, set, n * sizeof *set);
	norig = n;
	for (d = 1; d <= MODEL_BOTTOM - first; d++) {
		for (i = 0; i < norig; i++) {
			for (k = 0; k < 2; k++) {
				r = k == 0 ? orig[i] + d : orig[i] - d;
				if (r < first || r > MODEL_BOTTOM)
					continue;
				before = n;
				panel_rank_add(set, &n, r);
				if (n == before)
					continue;
				if (panel_rank_lines(set, n) > lines)
					panel_rank_del(set, &n, r);
				if (panel_rank_lines(set, n) == lines)
					return (n);
			}
		}
	}
	return (n);
}

/*
 * Choose the rows of one panel: every rank if they fit, else the ranks
 * in use, the tasks' static ranks and the bottom, with skip lines where
 * there is room for them.  Returns the number of rows.
 */
static int
panel_rows(struct draw *d, int cpu, int lines, struct prow *rows)
{
	const struct mtask	*t;
	int			 used[MODEL_BOTTOM + 1], nused = 0;
	int			 all[MODEL_BOTTOM + 1], nall = 0;
	int			 some[MODEL_BOTTOM + 1], nsome = 0;
	char			 mused[MODEL_BOTTOM + 1];
	char			 mall[MODEL_BOTTOM + 1];
	char			 msome[MODEL_BOTTOM + 1];
	int			*set, n, i, j, gaps, first, st;

	/* From the best static rank of this CPU's tasks (any, if none). */
	first = MODEL_BOTTOM + 1;
	memset(mused, 0, sizeof mused);
	memset(mall, 0, sizeof mall);
	memset(msome, 0, sizeof msome);
	for (i = d->cstart[cpu]; i < d->cstart[cpu + 1]; i++) {
		t = d->bycpu[i];
		st = 120 + t->nice;
		if (t->rank < first)
			first = t->rank;
		if (st < first)
			first = st;
		if (t->state != MTASK_SLEEPING)
			mused[t->rank] = msome[t->rank] = msome[st] = 1;
		mall[t->rank] = mall[st] = 1;
	}
	for (i = 0; i <= MODEL_BOTTOM; i++) {
		if (mused[i])
			used[nused++] = i;
		if (msome[i])
			some[nsome++] = i;
		if (mall[i])
			all[nall++] = i;
	}
	if (first > MODEL_BOTTOM)
		first = d->top_static;
	if (lines <= 0)
		return (0);
	if (MODEL_BOTTOM - first + 1 <= lines) {
		for (i = 0; i <= MODEL_BOTTOM - first; i++) {
			memset(&rows[i], 0, sizeof rows[i]);
			rows[i].rank = first + i;
		}
		return (i);
	}
	for (i = 0; i < nsome; i++)
		panel_rank_add(all, &nall, some[i]);
	panel_rank_add(all, &nall, MODEL_BOTTOM);
	panel_rank_add(some, &nsome, MODEL_BOTTOM);
	if (panel_rank_lines(all, nall) <= lines) {
		set = all;
		n = nall;
	} else if (panel_rank_lines(some, nsome) <= lines) {
		set = some;
		n = nsome;
	} else if (nsome <= lines) {
		set = some;
		n = nsome;
	} else if (nused > 0) {
		/* Only the best ranks in use fit; the rest are "+N". */
		set = used;
		n = nused < lines ? nused : lines;
	} else {
		set = some;
		n = lines;
	}
	gaps = panel_rank_lines(set, n) <= lines;
	if (gaps)
		n = panel_rank_fill(set, n, first, lines);
	for (i = j = 0; i < n && j < lines; i++) {
		memset(&rows[j], 0, sizeof rows[j]);
		rows[j].rank = set[i];
		if (i + 1 < n && set[i + 1] != set[i] + 1) {
			if (gaps && j + 1 < lines) {
				j++;
				memset(&rows[j], 0, sizeof rows[j]);
				rows[j].gap = 1;
				rows[j].rank = set[i];
			} else
				rows[j].skipped_after = 1;
		}
		j++;
	}
	return (j);
}

/* Draw a gauge of `left` (full part = ticks left of the slice). */
static int
panel_gauge(struct draw *d, int x, int y, int width, const struct mtask *t)
{
	int	allot, fill, i;

	allot = model_allot(t->nice, t->rank, t->iter, d->m->rr);
	if (allot <= 0)
		allot = 1;
	fill = (t->left * width + allot - 1) / allot;
	if (fill > width)
		fill = width;
	if (fill < 0)
		fill = 0;
	for (i = 0; i < width; i++) {
		if (i < fill)
			grid_put(d->g, x + i, y, d->gl->full, COL_GAUGE);
		else
			grid_put(d->g, x + i, y, d->gl->empty, COL_GAUGE_EMPTY);
	}
	return (x + width);
}

/*
 * Draw the tasks on one stair from x to xmax: the running one first,
 * bracketed with its gauge, then the queued ones, then the sleeping
 * ones in parentheses; what does not fit is counted as "+N".  extra
 * adds tasks from ranks not shown below this row.
 */
static void
panel_stair_tasks(struct draw *d, const struct prow *row, int last, int x,
    int y, int xmax)
{
	const struct mtask	**list, *t;
	int			  n, more = 0, i, r, need, gw, sel, rest;
	enum col		  col;
	char			  num[16];

	/* Running, then runnable, then sleeping, each in id order. */
	list = d->pl + d->rstart[row->rank];
	n = d->rstart[row->rank + 1] - d->rstart[row->rank];
	/* The last row also counts the runnable tasks below it. */
	for (r = row->rank + 1; last && r <= MODEL_BOTTOM; r++) {
		for (i = d->rstart[r]; i < d->rstart[r + 1]; i++)
			more += d->pl[i]->state != MTASK_SLEEPING;
	}

	for (i = 0; i < n; i++) {
		t = list[i];
		sel = t->id == d->v->selected;
		snprintf(num, sizeof num, "+%d", n - i + more);
		need = grid_width(t->name);
		if (t->state == MTASK_RUNNING)
			need += 2 + 4;
		else if (t->state == MTASK_SLEEPING)
			need += 2;
		/* Leave room to say how many more did not fit: " +N". */
		rest = 0;
		if (i + 1 < n || more > 0)
			rest = 2 + snprintf(NULL, 0, "%d", n - i - 1 + more);
		if (x + need > xmax - rest) {
			if (t->state == MTASK_RUNNING && x + 3 < xmax) {
				/* The running one always shows, cut short. */
				x = grid_text(d->g, x, y, xmax - 3, "[",
				    COL_RUNNING);
				x = grid_text(d->g, x, y, xmax - 4, t->name,
				    COL_RUNNING);
				x = grid_text(d->g, x, y, xmax - 3, "]",
				    COL_RUNNING);
				x++;
				snprintf(num, sizeof num, "+%d",
				    n - i - 1 + more);
				if (n - i - 1 + more > 0)
					grid_text(d->g, x, y, xmax, num,
					    COL_QUEUED);
				return;
			}
			grid_text(d->g, x, y, xmax, num, COL_QUEUED);
			return;
		}
		if (t->state == MTASK_RUNNING) {
			x = grid_text(d->g, x, y, xmax, "[", COL_RUNNING);
			x = grid_text(d->g, x, y, xmax, t->name, COL_RUNNING);
			gw = xmax - x - 2 - rest;
			if (gw > DRAW_GAUGE)
				gw = DRAW_GAUGE;
			if (gw >= 3) {
				x = grid_text(d->g, x, y, xmax, " ", COL_RUNNING);
				x = panel_gauge(d, x, y, gw, t);
			}
			x = grid_text(d->g, x, y, xmax, "]", COL_RUNNING);
		} else if (t->state == MTASK_SLEEPING) {
			col = sel ? COL_MARK : COL_SLEEPING;
			x = grid_text(d->g, x, y, xmax, "(", col);
			x = grid_text(d->g, x, y, xmax, t->name, col);
			x = grid_text(d->g, x, y, xmax, ")", col);
		} else
			x = grid_text(d->g, x, y, xmax, t->name,
			    sel ? COL_MARK : COL_QUEUED);
		x++;
	}
	if (more > 0) {
		snprintf(num, sizeof num, "+%d", more);
		grid_text(d->g, x, y, xmax, num, COL_QUEUED);
	}
}

/* Draw one CPU's panel in the box at (x, y), w x h. */
static void
panel_one(struct draw *d, int cpu, int x, int y, int w, int h)
{
	const struct model	*m = d->m;
	const struct mcpu	*c = &m->cpus[cpu];
	const struct mtask	*t;
	struct grid		*g = d->g;
	struct prow		 rows[2 * (MODEL_BOTTOM + 1)];
	int			 i, n, ix, iw, nrank, k, nstep, span, sx, sw;
	int			 tx, yy;
	char			 label[8];

	if (w < 4 || h < 2)
		return;
	/* The box. */
	grid_put(g, x, y, d->gl->tl, COL_BORDER);
	grid_fill(g, x + 1, y, w - 2, d->gl->h, COL_BORDER);
	grid_put(g, x + w - 1, y, d->gl->tr, COL_BORDER);
	for (i = 1; i < h - 1; i++) {
		grid_put(g, x, y + i, d->gl->v, COL_BORDER);
		grid_put(g, x + w - 1, y + i, d->gl->v, COL_BORDER);
	}
	if (h >= 3) {
		grid_put(g, x, y + h - 1, d->gl->bl, COL_BORDER);
		grid_fill(g, x + 1, y + h - 1, w - 2, d->gl->h, COL_BORDER);
		grid_put(g, x + w - 1, y + h - 1, d->gl->br, COL_BORDER);
	}

	/* The title: the CPU, what runs on it, how many are runnable. */
	tx = grid_textf(d->g, x + 1, y, x + w - 1, COL_TITLE, " CPU%d ", c->id);
	/* The task that ran in the last tick, even if it has just slept. */
	t = c->task > 0 ? model_task(m, c->task) : NULL;
	if (t != NULL)
		tx = grid_text(d->g, tx, y, x + w - 1, t->name,
		    t->state == MTASK_RUNNING && t->cpu == cpu ? COL_RUNNING :
		    COL_TITLE);
	else
		tx = grid_text(d->g, tx, y, x + w - 1, "idle", COL_TITLE);
	grid_textf(d->g, tx, y, x + w - 1, COL_TITLE, " nr %d ", c->nr);

	ix = x + 1;
	iw = w - 2;
	panel_index_cpu(d, cpu);
	n = panel_rows(d, cpu, h - 2, rows);
	for (i = nrank = 0; i < n; i++)
		nrank += !rows[i].gap;
	if (nrank == 0)
		return;
	/*
	 * Stairs step right by as much as leaves room for the names on the
	 * bottom stair: span columns over nstep stairs, in fractional steps
	 * (stairs one or two wide when that is what fits), at most 4 a
	 * stair.  The same on every panel of this size, whatever ranks
	 * each shows, so that nothing jumps when tasks move.
	 */
	nstep = MODEL_BOTTOM - d->top_static + 1;
	if (nstep > h - 2)
		nstep = h - 2;
	if (nstep < nrank)
		nstep = nrank;
	span = iw - DRAW_LABEL - DRAW_ROOM;
	if (span > 4 * nstep)
		span = 4 * nstep;
	if (span < nstep)
		span = nstep;
	for (i = k = 0; i < n; i++) {
		yy = y + 1 + i;
		sx = ix + DRAW_LABEL + k * span / nstep;
		sw = ix + DRAW_LABEL + (k + 1) * span / nstep - sx;
		if (sx + sw > ix + iw)
			sx = ix + iw - sw;
		if (rows[i].gap) {
			grid_put(g, ix + 1, yy, d->gl->skip, COL_SKIP);
			grid_put(g, sx, yy, d->gl->skip, COL_SKIP);
			continue;
		}
		snprintf(label, sizeof label, "%3d", rows[i].rank);
		grid_text(d->g, ix, yy, ix + iw, label, COL_RANK);
		if (rows[i].skipped_after)
			grid_put(g, ix + 3, yy, d->gl->skip, COL_SKIP);
		grid_fill(g, sx, yy, sw, d->gl->stair, COL_STAIR);
		panel_stair_tasks(d, &rows[i], i == n - 1, sx + sw + 1, yy,
		    ix + iw);
		k++;
	}
}

/*
 * Lay the panels out in the rows [y, y + avail): as many per row as fit
 * at a comfortable width, wrapping, and scrolling by whole rows when
 * even the smallest panels do not fit.  Returns the lines used.
 */
static int
panel_layout(struct draw *d, int y, int avail)
{
	const struct model	*m = d->m;
	struct view		*v = d->v;
	struct grid		*g = d->g;
	int			 ncpu = m->ncpus, cols, prow, maxrow, ph, pw;
	int			 natural, shown, r, col, cpu, x, w, i;

	if (ncpu == 0 || avail < 2)
		return (0);
	cols = g->w / DRAW_PANEL_MIN;
	if (cols < 1)
		cols = 1;
	if (cols > ncpu)
		cols = ncpu;
	maxrow = avail / 3;
	if (maxrow < 1)
		maxrow = 1;
	prow = (ncpu + cols - 1) / cols;
	if (prow > maxrow) {
		/* Narrower panels, down to the tiny width. */
		cols = (ncpu + maxrow - 1) / maxrow;
		if (cols > g->w / DRAW_PANEL_TINY)
			cols = g->w / DRAW_PANEL_TINY;
		if (cols < 1)
			cols = 1;
	}
	prow = (ncpu + cols - 1) / cols;
	/* Balance the rows: 8 CPUs at 5 a row are better 4 and 4. */
	cols = (ncpu + prow - 1) / prow;
	pw = g->w / cols;

	natural = MODEL_BOTTOM - d->top_static + 1 + 2;
	shown = prow < maxrow ? prow : maxrow;
	ph = avail / shown;
	if (ph > natural)
		ph = natural;
	if (ph < 2)
		ph = 2;

	v->cpu_rows = prow;
	v->cpu_rows_shown = shown;
	if (v->cpu_top > prow - shown)
		v->cpu_top = prow - shown;
	if (v->cpu_top < 0)
		v->cpu_top = 0;
	for (r = 0; r < shown; r++) {
		for (col = 0; col < cols; col++) {
			cpu = (v->cpu_top + r) * cols + col;
			if (cpu >= ncpu)
				break;
			x = col * pw;
			w = col == cols - 1 ? g->w - x : pw;
			panel_one(d, cpu, x, y + r * ph, w, ph);
		}
	}
	if (shown < prow) {
		/* Say that there is more, on the last panel row's border. */
		i = y + shown * ph - 1;
		grid_textf(d->g, g->w - 24, i, g->w, COL_TITLE,
		    " CPU rows %d-%d/%d [ ] ", v->cpu_top + 1,
		    v->cpu_top + shown, prow);
	}
	return (shown * ph);
}

/*
 * Draw the CPU panels in the rows [y, y + avail): index the tasks by CPU
 * once for all panels, lay the panels out.  Returns the lines used.
 */
int
panel_draw(struct draw *d, int y, int avail)
{
	int	lines;

	panel_index(d);
	lines = panel_layout(d, y, avail);
	free(d->bycpu);
	free(d->cstart);
	free(d->pl);
	d->bycpu = d->pl = NULL;
	d->cstart = NULL;
	return (lines);
}
