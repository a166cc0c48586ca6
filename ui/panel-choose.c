/*
 * panel-choose.c -- how many CPU panels a row: each balanced layout
 * whose rows fit is drawn aside and scored (runnable tasks hidden,
 * names cut, ranks skipped, how steep the stairs), and the best kept;
 * the CPU list when no layout shows every task.  The choice stays while
 * the screen keeps its size unless another is clearly better, so the
 * layout does not flip between equals (panel_choose_keep).  And the
 * CPUs drawn as chosen (panel_draw): big type, the list, or panels.
 */
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "grid.h"
#include "model.h"
#include "pane.h"
#include "panel-int.h"
#include "view.h"

#define PANEL_KEEP_FRAMES 30	/* frames a layout choice is kept */

/* How good one layout looked: lower is better, in this order. */
struct pscore {
	int		 hidden;	/* runnable tasks not written */
	int		 cut;		/* tasks not by their whole name */
	int		 skipped;	/* ranks not drawn */
	int		 ranks;		/* ranks to draw, drawn or not */
	int		 step;		/* -(columns a stair steps, x100) */
	int		 cols;		/* fewer rows (more columns) is better */
};

/*
 * How layouts a and b compare on the tasks they show and name whole:
 * below 0 a does better, above 0 b, 0 the same.
 */
static int
panel_choose_shows(const struct pscore *a, const struct pscore *b)
{
	if (a->hidden != b->hidden)
		return (a->hidden - b->hidden);
	return (a->cut - b->cut);
}

/*
 * Whether a layout's stairs step half a column a stair at least (two
 * ranks to a column), or less: flat, a column of stairs.
 */
#define PANEL_FLAT(a)	((a)->step > -50)

/*
 * Whether a layout draws stairs that step and at least half the ranks:
 * a staircase, though it skip some.
 */
static int
panel_choose_stairs(const struct pscore *a)
{
	return (!PANEL_FLAT(a) && a->skipped * 2 <= a->ranks);
}

/* Whether layout a looked better than b. */
static int
panel_choose_better(const struct pscore *a, const struct pscore *b)
{
	int	r;

	if ((r = panel_choose_shows(a, b)) != 0)
		return (r < 0);
	/*
	 * Stairs before every rank: eight panels a row at 200x60 with the
	 * timeline drew all twenty ranks, each stair in the same column,
	 * where two rows of four skip two ranks and step.
	 */
	if (panel_choose_stairs(a) != panel_choose_stairs(b) &&
	    (PANEL_FLAT(a) || PANEL_FLAT(b)))
		return (panel_choose_stairs(a));
	if (a->skipped != b->skipped)
		return (a->skipped < b->skipped);
	if (a->step != b->step)
		return (a->step < b->step);
	return (a->cols > b->cols);
}

/*
 * Whether layout a is enough better than b, the layout on screen, to
 * change to it: it shows or names more tasks whole, skips a fifth fewer
 * ranks, or draws stairs where b's are flat (under a column a stair)
 * and skips no more.  Smaller gains do not move a screen people are
 * watching (the demo at 80x24 went from side by side to stacked while
 * the cruncher's stairs started at 110, and back: 48 ranks skipped
 * against 44, test_layout_steady).
 */
static int
panel_choose_worth(const struct pscore *a, const struct pscore *b)
{
	int	r;

	if ((r = panel_choose_shows(a, b)) != 0)
		return (r < 0);
	if (panel_choose_stairs(b) && PANEL_FLAT(a))
		return (0);
	if (a->skipped * 5 < b->skipped * 4)
		return (1);
	return (b->step > -100 && a->step <= -100 &&
	    a->skipped <= b->skipped);
}

/*
 * Draw a layout aside (cols panels a row, or 0 for the list) and score
 * it; the view's scrolling is left as it was.
 */
static void
panel_choose_try(struct draw *d, struct grid *scratch, int y, int avail,
    int cols, struct pscore *sc)
{
	struct grid	*real = d->g;
	struct view	*v = d->v;
	int		 top = v->cpu_top, rows = v->cpu_rows;
	int		 shown = v->cpu_rows_shown;

	d->g = scratch;
	d->st_hidden = d->st_cut = d->st_skipped = d->st_step = 0;
	d->st_ranks = 0;
	if (cols == 0)
		cpulist_draw(d, y, avail);
	else
		panel_layout(d, y, avail, cols);
	sc->hidden = d->st_hidden;
	sc->cut = d->st_cut;
	sc->skipped = d->st_skipped;
	sc->ranks = d->st_ranks;
	/* Two columns a stair read as a staircase: no need for more. */
	sc->step = -(d->st_step < 200 ? d->st_step : 200);
	sc->cols = cols;
	d->g = real;
	v->cpu_top = top;
	v->cpu_rows = rows;
	v->cpu_rows_shown = shown;
}

/*
 * Choose how to show up to PANEL_MAX_CPUS CPUs in avail lines: each
 * count of panels a row whose rows all fit (balanced, no narrower than
 * PANEL_TINY) is drawn aside and the best kept; the list when no layout
 * shows every runnable task and the list shows more, unless panels were
 * asked for.  The choice stays while the screen keeps its size unless
 * another is enough better (panel_choose_worth), so the layout does not flip
 * between equals, nor as a rank or two comes and goes.
 * Returns the panels a row, 0 for the list, or -1 when no panel layout
 * fits and panels were asked for.
 */
int
panel_choose(struct draw *d, int y, int avail)
{
	struct view	*v = d->v;
	struct grid	 scratch;
	struct pscore	 sc, best, keep;
	int		 ncpu = d->m->ncpus, cols, prow, bestcols = -1;
	int		 keepcols = -1;

	grid_init(&scratch, d->g->w, d->g->h);
	scratch.ascii = d->g->ascii;
	memset(&best, 0, sizeof best);
	memset(&keep, 0, sizeof keep);
	for (cols = ncpu; cols >= 1; cols--) {
		prow = (ncpu + cols - 1) / cols;
		if ((ncpu + prow - 1) / prow != cols)
			continue;	/* unbalanced: 8 as 5 + 3 */
		if (d->g->w / cols < PANEL_TINY || prow * 3 > avail)
			continue;
		panel_choose_try(d, &scratch, y, avail, cols, &sc);
		if (bestcols < 0 || panel_choose_better(&sc, &best)) {
			best = sc;
			bestcols = cols;
		}
		if (cols == v->layout_cols) {
			keep = sc;
			keepcols = cols;
		}
	}
	if (v->cpu_view != VIEW_PANELS && (bestcols < 0 || best.hidden > 0)) {
		panel_choose_try(d, &scratch, y, avail, 0, &sc);
		if (bestcols < 0 || sc.hidden < best.hidden) {
			best = sc;
			bestcols = 0;
		}
		if (v->layout_cols == 0) {
			keep = sc;
			keepcols = 0;
		}
	}
	grid_free(&scratch);
	if (keepcols >= 0 && v->layout_w == d->g->w &&
	    v->layout_h == avail && v->layout_n == ncpu &&
	    !panel_choose_worth(&best, &keep))
		bestcols = keepcols;
	v->layout_w = d->g->w;
	v->layout_h = avail;
	v->layout_n = ncpu;
	v->layout_cols = bestcols;
	v->layout_frames = d->m->frames;
	v->layout_hidden = bestcols == keepcols ? keep.hidden : best.hidden;
	v->layout_cut = bestcols == keepcols ? keep.cut : best.cut;
	return (bestcols);
}

/* What a count chosen with may grow to before choosing again. */
static int
panel_choose_slack(int n)
{
	return (n <= 0 ? n : n + n / 10 + 1);
}

/*
 * Draw the layout chosen last, if the screen has kept its size and the
 * choice is less than a second of frames old (and not the list where
 * panels are asked for), and it hides and cuts no more tasks than when
 * it was chosen: choosing draws every candidate aside, which costs.
 * Else the rows are blanked again and 0 returned, to choose afresh.
 */
int
panel_choose_keep(struct draw *d, int y, int avail, int *lines)
{
	struct view	*v = d->v;
	struct grid	*g = d->g;
	int		 i;

	if (v->layout_w != g->w || v->layout_h != avail ||
	    v->layout_n != d->m->ncpus || v->layout_cols < 0 ||
	    (v->layout_cols == 0 && v->cpu_view == VIEW_PANELS) ||
	    d->m->frames - v->layout_frames >= PANEL_KEEP_FRAMES ||
	    d->m->frames < v->layout_frames)
		return (0);
	d->st_hidden = d->st_cut = d->st_skipped = 0;
	if (v->layout_cols == 0)
		*lines = cpulist_draw(d, y, avail);
	else
		*lines = panel_layout(d, y, avail, v->layout_cols);
	/*
	 * A layout that showed every task must still; one that could not
	 * (crowded stairs) may hide a tenth more before choosing again, or
	 * a crowd would choose at every frame.
	 */
	if (d->st_hidden <= panel_choose_slack(v->layout_hidden) &&
	    d->st_cut <= panel_choose_slack(v->layout_cut))
		return (1);
	for (i = y; i < y + avail && i < g->h; i++)
		grid_fill(g, 0, i, g->w, L' ', COL_DEFAULT);
	return (0);
}

/*
 * Draw the CPUs in the rows [y, y + avail): index the tasks by CPU once
 * for all panels, then panels (as chosen, or asked for with the view
 * key) or the list.  Returns the lines used.
 */
int
panel_draw(struct draw *d, int y, int avail)
{
	const struct model	*m = d->m;
	struct view		*v = d->v;
	int			 lines = 0, cols;

	if (m->ncpus == 0 || avail < 2)
		return (0);
	panel_index(d);
	/* Sorted by the model: sorting them each draw was most of a draw. */
	d->names = m->names;
	d->nnames = m->nnames;

	/* A policy drawn other than as stairs: its picture (picture.c). */
	if (!picture_stairs(m)) {
		v->big_shown = 0;
		lines = picture_layout(d, y, avail);
		goto out;
	}
	d->tall = panel_big(d, avail);
	v->big_shown = d->tall > 0;
	if (d->tall > 0)
		cols = m->ncpus;	/* side by side: one row */
	else if (v->cpu_view == VIEW_LIST ||
	    (v->cpu_view == VIEW_AUTO && m->ncpus > PANEL_MAX_CPUS))
		cols = 0;
	else if (m->ncpus > PANEL_MAX_CPUS)
		cols = panel_cols_default(d, avail);
	else if (panel_choose_keep(d, y, avail, &lines))
		cols = -1;	/* drawn */
	else {
		cols = panel_choose(d, y, avail);
		if (cols < 0)
			cols = panel_cols_default(d, avail);
	}
	d->st_hidden = d->st_cut = d->st_skipped = 0;
	if (cols == 0)
		lines = cpulist_draw(d, y, avail);
	else if (cols > 0)
		lines = panel_layout(d, y, avail, cols);
out:
	d->names = NULL;
	d->nnames = 0;
	d->tall = 0;
	free(d->bycpu);
	free(d->cstart);
	free(d->pl);
	d->bycpu = d->pl = NULL;
	d->cstart = NULL;
	return (lines);
}
