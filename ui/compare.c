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
 * Copy the rows [y, y + h) of src into g at x (the same rows), with
 * their tags: a click on a task on either side selects it.
 */
static void
compare_blit(struct grid *g, const struct grid *src, int x, int y, int h)
{
	int	r, w = src->w;

	if (x + w > g->w)
		w = g->w - x;
	for (r = y; r < y + h && r < g->h && r < src->h; r++) {
		memcpy(&g->cells[r * g->w + x], &src->cells[r * src->w],
		    w * sizeof *g->cells);
		memcpy(&g->tags[r * g->w + x], &src->tags[r * src->w],
		    w * sizeof *g->tags);
	}
}

/* One side: its title on row y, its CPUs below; returns the lines used. */
static int
compare_side(struct draw *d, const struct model *m, struct view *v,
    const char *title, int x, int w, int y, int avail)
{
	struct draw	 side = *d;
	struct grid	 sub;
	int		 lines;

	grid_init(&sub, w, d->g->h);
	sub.ascii = d->g->ascii;
	for (lines = 0; lines < w * d->g->h; lines++) {
		sub.cells[lines].ch = L' ';
		sub.cells[lines].col = COL_DEFAULT;
	}
	grid_fill(&sub, 0, y, w, L' ', COL_HEADER);
	grid_text(&sub, 1, y, w, title, COL_HEADER);
	side.g = &sub;
	side.m = m;
	side.v = v;
	panel_ranks_span(&side);
	lines = panel_draw(&side, y + 1, avail - 1);
	compare_blit(d->g, &sub, x, y, lines + 1);
	grid_free(&sub);
	return (lines + 1);
}

/*
 * The shadow side's view: the enforced side's, just laid out, so that
 * it keeps the same layout (panels a row, scrolling) while it shows all
 * it must, and chooses its own when not.
 */
static void
compare_view(struct view *sv, const struct view *v, const struct model *sh)
{
	*sv = *v;
	sv->layout_frames = sh->frames;
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
 * Draw every engine's CPUs in the rows [y, y + avail): the enforced
 * one's first, then each shadow's, two sides a row on a wide screen
 * (four policies: two by two), stacked on a narrow one.  Returns the
 * lines used.  Only with a shadow.
 */
int
compare_draw(struct draw *d, int y, int avail)
{
	const struct model	*m = d->m, *sm;
	struct view		 sv;
	char			 title[MODEL_WORD_MAX + 32];
	int			 w = d->g->w, n = 1 + m->nshadows, cols, rows;
	int			 i, r, used = 0, rowh, a, most, x, sw;

	cols = compare_cols(d, n);
	rows = (n + cols - 1) / cols;
	for (r = 0; r < rows; r++) {
		rowh = (avail - used) / (rows - r);
		most = 0;
		for (i = r * cols; i < (r + 1) * cols && i < n; i++) {
			sm = i == 0 ? m : m->shadows[i - 1];
			if (i == 0)
				snprintf(title, sizeof title, "%s (enforced)",
				    m->policy);
			else
				snprintf(title, sizeof title,
				    "%s (shadow%s%.0d)", sm->policy,
				    n > 2 ? " " : "", n > 2 ? i : 0);
			x = (i - r * cols) * (w / cols);
			sw = i - r * cols == cols - 1 ? w - x : w / cols;
			if (i == 0)
				a = compare_side(d, m, d->v, title, x, sw,
				    y + used, rowh);
			else {
				compare_view(&sv, d->v, sm);
				a = compare_side(d, sm, &sv, title, x, sw,
				    y + used, rowh);
			}
			if (a > most)
				most = a;
		}
		used += most;
	}
	return (used);
}
