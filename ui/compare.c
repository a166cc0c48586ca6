/*
 * compare.c -- two policies side by side (SPEC.md section 6, "Live side
 * by side"): when the daemon runs a shadow engine (`compare NAME`) the
 * CPUs are drawn twice, the enforced policy's on the left and the
 * shadow's on the right, each titled with its policy, the selected task
 * marked in both.  On a screen too narrow for two columns of panels
 * they are stacked, the enforced one on top.  Each side is drawn by
 * panel.c into a grid of its own and copied in, so the panels need not
 * know; the shadow's side gets a copy of the view (its scrolling and
 * layout are its own and not kept).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid.h"
#include "model.h"
#include "pane.h"
#include "view.h"

/* Narrower than this, the two sides are stacked. */
#define COMPARE_SIDE_MIN	100
/* Three or four policies: two a row from this wide. */
#define COMPARE_GRID_MIN	80

/*
 * Copy the rows [0, h) of src into g at (x, y), with their tags: a
 * click on a task on either side selects it.
 */
static void
compare_blit(struct grid *g, const struct grid *src, int x, int y, int h)
{
	int	r, w = src->w;

	if (x + w > g->w)
		w = g->w - x;
	for (r = 0; r < h && y + r < g->h && r < src->h; r++) {
		memcpy(&g->cells[(y + r) * g->w + x], &src->cells[r * src->w],
		    w * sizeof *g->cells);
		memcpy(&g->tags[(y + r) * g->w + x], &src->tags[r * src->w],
		    w * sizeof *g->tags);
	}
}

/* A grid of w x h, blank (grid_init). */
static void
compare_grid(struct grid *g, int w, int h, int ascii)
{
	grid_init(g, w, h);
	g->ascii = ascii;
}

/*
 * One side into dst at column x from its row 0: its title, its CPUs
 * below in at most avail - 1 lines; returns the lines used.
 */
static int
compare_side(struct draw *d, struct grid *dst, const struct model *m,
    struct view *v, const char *title, int x, int w, int avail)
{
	struct draw	 side = *d;
	struct grid	 sub;
	int		 lines;

	compare_grid(&sub, w, d->g->h, d->g->ascii);
	grid_fill(&sub, 0, 0, w, L' ', COL_HEADER);
	grid_text(&sub, 1, 0, w, title, COL_HEADER);
	side.g = &sub;
	side.m = m;
	side.v = v;
	panel_ranks_span(&side);
	lines = panel_draw(&side, 1, avail - 1);
	compare_blit(dst, &sub, x, 0, lines + 1);
	grid_free(&sub);
	return (lines + 1);
}

/*
 * The shadow side's view: the enforced side's, as laid out at its last
 * draw (the shadows' rows are drawn before its own), for the rows the
 * shadow's CPUs have (avail), so that it keeps the same layout (panels
 * a row, scrolling) while it shows all it must, and chooses its own
 * when not.  Asked for the enforced side's rows, it chose afresh at
 * every frame.
 */
static void
compare_view(struct view *sv, const struct view *v, const struct model *sh,
    int avail)
{
	*sv = *v;
	sv->layout_frames = sh->frames;
	sv->layout_h = avail;
}

/* The columns of sides: two side by side when wide enough, else one. */
static int
compare_cols(const struct draw *d, int n)
{
	if (n <= 1)
		return (1);
	if (n == 2)
		return (d->g->w >= COMPARE_SIDE_MIN ? 2 : 1);
	return (d->g->w >= COMPARE_GRID_MIN ? 2 : 1);
}

/*
 * The rows the CPUs keep for themselves when the history panes want
 * the screen (history.c shrinks the panes first): 3 for one policy's
 * panels; with shadows shown, a heading and 3 rows a side, in rows of
 * sides (compare_cols).
 */
int
compare_min_lines(const struct draw *d)
{
	int	n = 1 + d->m->nshadows, cols;

	if (d->m->nshadows == 0 || d->v->compare_off)
		return (3);
	cols = compare_cols(d, n);
	return ((n + cols - 1) / cols * (1 + 3));
}

/*
 * Row r of sides (cols a row, n in all) into rg from its row 0, in at
 * most avail lines; returns the lines used (its tallest side's).
 */
static int
compare_row(struct draw *d, struct grid *rg, int r, int cols, int n,
    int avail)
{
	const struct model	*m = d->m, *sm;
	struct view		 sv;
	char			 title[MODEL_WORD_MAX + 32];
	int			 w = d->g->w, i, a, most = 0, x, sw;

	grid_clear(rg);
	for (i = r * cols; i < (r + 1) * cols && i < n; i++) {
		sm = i == 0 ? m : m->shadows[i - 1];
		if (i == 0)
			snprintf(title, sizeof title, "%s (enforced)",
			    m->policy);
		else
			snprintf(title, sizeof title, "%s (shadow%s%.0d)",
			    sm->policy, n > 2 ? " " : "", n > 2 ? i : 0);
		x = (i - r * cols) * (w / cols);
		sw = i - r * cols == cols - 1 ? w - x : w / cols;
		if (i == 0)
			a = compare_side(d, rg, m, d->v, title, x, sw, avail);
		else {
			compare_view(&sv, d->v, sm, avail - 1);
			a = compare_side(d, rg, sm, &sv, title, x, sw, avail);
		}
		if (a > most)
			most = a;
	}
	return (most);
}

/* Most rows of sides: every policy stacked on a narrow screen. */
#define COMPARE_ROWS	(1 + MODEL_SHADOWS)

/*
 * Draw every engine's CPUs in the rows [y, y + avail): the enforced
 * one's first, then each shadow's, two sides a row on a wide screen
 * (four policies: two by two), stacked on a narrow one.  Returns the
 * lines used.  Only with a shadow.
 *
 * The shadows' rows are drawn first, each in an even share; the
 * enforced one's row takes the rest, so the rows a picture does not
 * need (an o1 box of one task) go to the staircase, not blank under
 * the table.  What the enforced row leaves goes to a shadows' row
 * that used all its share.  Only the enforced side's view is kept
 * (its layout choice), and it is drawn once.
 */
int
compare_draw(struct draw *d, int y, int avail)
{
	struct grid	 rg[COMPARE_ROWS];
	int		 n = 1 + d->m->nshadows, cols, rows, r, share, rest;
	int		 used[COMPARE_ROWS], spare, more, lines;

	cols = compare_cols(d, n);
	rows = (n + cols - 1) / cols;
	share = (avail + rows - 1) / rows;
	rest = avail;
	for (r = rows - 1; r >= 0; r--) {
		compare_grid(&rg[r], d->g->w, d->g->h, d->g->ascii);
		used[r] = compare_row(d, &rg[r], r, cols, n, r > 0 ? share :
		    rest);
		rest -= used[r];
	}
	spare = rest;
	for (r = 1; r < rows && spare > 0; r++) {
		if (used[r] < share)
			continue;
		more = compare_row(d, &rg[r], r, cols, n, share + spare);
		spare -= more - used[r];
		used[r] = more;
	}
	lines = 0;
	for (r = 0; r < rows; r++) {
		compare_blit(d->g, &rg[r], 0, y + lines, used[r]);
		lines += used[r];
		grid_free(&rg[r]);
	}
	return (lines);
}
