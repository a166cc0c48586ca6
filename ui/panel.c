/*
 * panel.c -- the CPU panels: one staircase per CPU, each task on its
 * rank's stair (the running one with its gauge), laid out side by side
 * and wrapped into rows.  Here: the tasks indexed by CPU and rank, a
 * panel's box, title and stairs, and a layout of so many panels a row
 * drawn; the rank rows a row of panels shows are panel-ranks.c's, the
 * tasks on a stair panel-line.c's, the choice of layout (and panel_draw,
 * which draws the CPUs as chosen) panel-choose.c's, big type
 * panel-big.c's.  Beyond PANEL_MAX_CPUS, or when no layout shows every
 * task, the CPUs are a list instead (cpulist.c).  Pure: into a grid.
 *
 * Big type (panel_big), for one or two CPUs with room to spare: each
 * rank takes two or three rows, the stairs step wider and join with a
 * riser, the running task's gauge is twice as long and its name is in
 * big letters in the corner (panel_big_banner).
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

#define PANEL_MIN	24	/* a comfortable panel width */
#define PANEL_LABEL	4	/* "139⋮" before the stairs */
#define PANEL_ROOM	20	/* at most kept right of the last stair */
#define PANEL_BIG_STEP	8	/* big type: columns a stair at most */

/*
 * Sort the tasks on the stairs by CPU (a counting sort, so each CPU's
 * stay in id order): one pass for all panels instead of one per row.
 */
void
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
void
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

/* The runnable tasks of a CPU (the running one included). */
static int
panel_nrun(const struct draw *d, int cpu)
{
	int	i, n = 0;

	for (i = d->cstart[cpu]; i < d->cstart[cpu + 1]; i++)
		n += d->bycpu[i]->state != MTASK_SLEEPING;
	return (n);
}

/* A task's label in a panel's title, in parentheses if paren. */
static int
panel_title_label(struct grid *g, int x, int y, int xmax, const char *label,
    enum col col, int paren)
{
	if (paren)
		x = grid_text(g, x, y, xmax, "(", col);
	x = grid_text(g, x, y, xmax, label, col);
	if (paren)
		x = grid_text(g, x, y, xmax, ")", col);
	return (x);
}

/*
 * The title of a panel from x to xmax: the CPU, the task that ran in
 * the last tick, nr and the task's group if it has one and it fits;
 * nr dropped before the name is cut, then the
 * label shortened like those on the stairs.  A task that has just slept (put to sleep
 * while paused: the CPU picks another at the next tick) is in
 * parentheses, as on its stair.  A click on the label selects the task.
 */
static void
panel_title(struct draw *d, int cpu, int x, int y, int xmax)
{
	const struct model	*m = d->m;
	const struct mcpu	*c = &m->cpus[cpu];
	const struct mtask	*t;
	struct grid		*g = d->g;
	char			 buf[MODEL_NAME_MAX + 8], nr[32];
	int			 nrw, w, cut, x0, paren;
	enum col		 col;

	x = grid_textf(g, x, y, xmax, COL_TITLE, " CPU%d ", c->id);
	x0 = x;
	nrw = snprintf(nr, sizeof nr, " nr %d ", c->nr);
	t = c->task > 0 ? model_task(m, c->task) : NULL;
	if (t == NULL) {
		x = grid_text(g, x, y, xmax, "idle", COL_TITLE);
		grid_text(g, x, y, xmax, nr, COL_TITLE);
		return;
	}
	col = t->state == MTASK_RUNNING && t->cpu == cpu ? COL_RUNNING :
	    COL_TITLE;
	paren = t->state == MTASK_SLEEPING ? 2 : 0;
	w = panel_line_label(d, t, xmax - x - nrw - paren, buf, sizeof buf,
	    &cut);
	/*
	 * The whole name without nr rather than a cut one with it: the
	 * title says the name the stairs say (build10, not #10).
	 */
	if (w > 0 && (!cut || grid_width(t->name) > xmax - x - paren)) {
		x = panel_title_label(g, x, y, xmax, buf, col, paren);
		grid_tag(g, x0, y, x - x0, GRID_TASK(t->id));
		x = grid_text(g, x, y, xmax, nr, COL_TITLE);
		/* Its group, where it fits whole (the cpuset it runs in). */
		if (t->group[0] != '\0' && strcmp(t->group, "-") != 0 &&
		    xmax - x >= 7 + grid_width(t->group))
			grid_textf(g, x, y, xmax, COL_TITLE, "group %s ",
			    t->group);
		return;
	}
	if (panel_line_label(d, t, xmax - x - paren, buf, sizeof buf,
	    &cut) > 0) {
		x = panel_title_label(g, x, y, xmax, buf, col, paren);
		grid_tag(g, x0, y, x - x0, GRID_TASK(t->id));
	}
}

/* The rank rows that fit in lines, a rank every tall lines. */
static int
panel_fit(int lines, int tall)
{
	return (lines >= 1 ? (lines - 1) / tall + 1 : 0);
}

/* Where stairs go: the same for every panel of one size. */
struct pgeom {
	int		 nstep;		/* stairs the span is cut into */
	int		 span;		/* columns the stairs step over */
	int		 tall;		/* rows a rank (big type), else 1 */
};

/*
 * Draw one CPU's panel in the box at (x, y), w x h, with the rank rows
 * of its panel row.
 */
static void
panel_one(struct draw *d, int cpu, int x, int y, int w, int h,
    const struct prow *rows, int n, const struct pgeom *pg)
{
	struct grid		*g = d->g;
	const struct mtask	**list;
	int			 i, ix, iw, k, sx, sw, yy, cnt, more, r, j;
	int			 rise = 0, spread, prev = 0;
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
	panel_title(d, cpu, x + 1, y, x + w - 1);

	ix = x + 1;
	iw = w - 2;
	panel_index_cpu(d, cpu);
	if (n == 0) {
		d->st_hidden += panel_nrun(d, cpu);
		return;
	}
	for (i = k = 0; i < n; i++) {
		/*
		 * A rank's row; in big type the ranks spread over the
		 * panel's lines, 2 or 3 rows apart (PANEL_BIG_TALL at most).
		 */
		yy = y + 1 + i;
		if (pg->tall > 1 && n > 1) {
			spread = h - 3;
			if (spread > (n - 1) * PANEL_BIG_TALL)
				spread = (n - 1) * PANEL_BIG_TALL;
			yy = y + 1 + i * spread / (n - 1);
		}
		sx = ix + PANEL_LABEL + k * pg->span / pg->nstep;
		sw = ix + PANEL_LABEL + (k + 1) * pg->span / pg->nstep - sx;
		if (sw < 1)
			sw = 1;
		if (sx + sw > ix + iw)
			sx = ix + iw - sw;
		if (rows[i].gap) {
			grid_put(g, ix + 1, yy, d->gl->skip, COL_SKIP);
			grid_put(g, sx, yy, d->gl->skip, COL_SKIP);
			rise = 0;
			continue;
		}
		snprintf(label, sizeof label, "%3d", rows[i].rank);
		grid_text(g, ix, yy, ix + iw, label, COL_RANK);
		if (rows[i].skipped_after)
			grid_put(g, ix + 3, yy, d->gl->skip, COL_SKIP);
		/* Big type: the rise from the stair above down to this one. */
		for (j = prev + 1; rise && j <= yy &&
		    sx - 1 >= ix + PANEL_LABEL; j++)
			grid_put(g, sx - 1, j, d->gl->riser, COL_STAIR);
		grid_fill(g, sx, yy, sw, d->gl->stair, COL_STAIR);
		rise = pg->tall > 1;
		prev = yy;
		/* Running, then runnable, then sleeping, each in id order. */
		list = d->pl + d->rstart[rows[i].rank];
		cnt = d->rstart[rows[i].rank + 1] - d->rstart[rows[i].rank];
		/* The last row also counts the runnable tasks below it. */
		more = 0;
		for (r = rows[i].rank + 1; i == n - 1 && r <= MODEL_BOTTOM;
		    r++) {
			for (j = d->rstart[r]; j < d->rstart[r + 1]; j++)
				more += d->pl[j]->state != MTASK_SLEEPING;
		}
		panel_line(d, list, cnt, more, sx + sw + 1, yy, ix + iw, 0);
		k++;
	}
	if (pg->tall > 1)
		panel_big_banner(d, cpu, ix, y + 1, ix + iw - 1, y + h - 1);
	/* Why the CPU runs what it runs, on the bottom border. */
	if (h >= 3)
		picture_why_border(d, cpu, x, y + h - 1, x + w);
}

/*
 * The CPUs' rows (panel rows, or the list's lines): rows in all, shown
 * on the screen; the first shown is kept where the last row shows.
 */
void
panel_scroll(struct view *v, int rows, int shown)
{
	v->cpu_rows = rows;
	v->cpu_rows_shown = shown;
	if (v->cpu_top > rows - shown)
		v->cpu_top = rows - shown;
	if (v->cpu_top < 0)
		v->cpu_top = 0;
}

/*
 * The panel rows and columns the old way, for many CPUs: as many a row
 * as fit at a comfortable width, narrower when the rows do not fit,
 * balanced.
 */
int
panel_cols_default(const struct draw *d, int avail)
{
	int	ncpu = d->m->ncpus, cols, prow, maxrow;

	cols = d->g->w / PANEL_MIN;
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
		if (cols > d->g->w / PANEL_TINY)
			cols = d->g->w / PANEL_TINY;
		if (cols < 1)
			cols = 1;
	}
	prow = (ncpu + cols - 1) / cols;
	/* Balance the rows: 8 CPUs at 5 a row are better 4 and 4. */
	return ((ncpu + prow - 1) / prow);
}

/*
 * Lay the panels out cols to a row in the rows [y, y + avail), wrapping,
 * and scrolling by whole rows when even the smallest panels do not fit.
 * Returns the lines used.
 */
int
panel_layout(struct draw *d, int y, int avail, int cols)
{
	const struct model	*m = d->m;
	struct view		*v = d->v;
	struct grid		*g = d->g;
	struct prow		 rows[2 * (MODEL_BOTTOM + 1)];
	struct pgeom		 pg;
	int			 ncpu = m->ncpus, prow, maxrow, ph, pw, room;
	int			 natural, shown, r, col, cpu, x, w, i, n, c0;
	int			 c1, first, nrank;

	prow = (ncpu + cols - 1) / cols;
	pw = g->w / cols;
	maxrow = avail / 3;
	if (maxrow < 1)
		maxrow = 1;
	pg.tall = d->tall > 0 ? d->tall : 1;
	if (pg.tall > 1)	/* big type: spread over what there is */
		natural = (d->bottom - d->top_static) * PANEL_BIG_TALL + 3;
	else
		natural = d->bottom - d->top_static + 1 + 2;
	shown = prow < maxrow ? prow : maxrow;
	ph = avail / shown;
	if (ph > natural)
		ph = natural;
	if (ph < 2)
		ph = 2;

	/*
	 * Stairs step right by as much as leaves half the panel (PANEL_ROOM
	 * columns at least) after the bottom stair for its tasks (where
	 * hogs live, several to a stair): the span in
	 * columns over nstep stairs, fractional steps (a stair can be one
	 * column, or share its column with the next: narrow panels are
	 * steep), at most 4 a stair.
	 * The same on every panel of this size, whatever ranks each shows,
	 * so that nothing jumps when tasks move.
	 */
	pg.nstep = d->bottom - d->top_static + 1;
	if (pg.nstep > panel_fit(ph - 2, pg.tall))
		pg.nstep = panel_fit(ph - 2, pg.tall);
	if (pg.nstep < 1)
		pg.nstep = 1;
	room = (pw - 2 - PANEL_LABEL) / 2;
	/* Big type: two thirds of the panel for wider stairs. */
	if (d->tall > 0)
		room = (pw - 2 - PANEL_LABEL) / 3;
	if (room < PANEL_ROOM)
		room = PANEL_ROOM;
	pg.span = pw - 2 - PANEL_LABEL - room;
	if (pg.span > (d->tall > 0 ? PANEL_BIG_STEP : 4) * pg.nstep)
		pg.span = (d->tall > 0 ? PANEL_BIG_STEP : 4) * pg.nstep;
	if (pg.span < 0)
		pg.span = 0;

	panel_scroll(v, prow, shown);
	for (r = 0; r < shown; r++) {
		c0 = (v->cpu_top + r) * cols;
		c1 = c0 + cols < ncpu ? c0 + cols : ncpu;
		n = panel_ranks(d, c0, c1, panel_fit(ph - 2, pg.tall), rows,
		    &first);
		for (i = nrank = 0; i < n; i++)
			nrank += !rows[i].gap;
		if (pg.nstep < nrank)
			pg.nstep = nrank;
		d->st_skipped += (d->bottom - first + 1 - nrank) *
		    (c1 - c0);
		d->st_ranks += (d->bottom - first + 1) * (c1 - c0);
		d->st_step = pg.span * 100 / pg.nstep;
		for (col = 0; col < cols; col++) {
			cpu = c0 + col;
			if (cpu >= ncpu)
				break;
			x = col * pw;
			w = col == cols - 1 ? g->w - x : pw;
			panel_one(d, cpu, x, y + r * ph, w, ph, rows, n, &pg);
		}
	}
	/* The CPUs scrolled away hide their tasks. */
	for (cpu = 0; cpu < ncpu; cpu++) {
		if (cpu < v->cpu_top * cols ||
		    cpu >= (v->cpu_top + shown) * cols)
			d->st_hidden += panel_nrun(d, cpu);
	}
	if (shown < prow) {
		/* Say that there is more, on the last panel row's border. */
		i = y + shown * ph - 1;
		grid_textf(g, g->w - 24, i, g->w, COL_TITLE,
		    " CPU rows %d-%d/%d [ ] ", v->cpu_top + 1,
		    v->cpu_top + shown, prow);
	}
	return (shown * ph);
}
