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

/*
 * The rows the CPUs keep for themselves when the history panes want
 * the screen (history.c shrinks the panes first): 3 for one policy's
 * panels; with a shadow shown, a heading and 3 rows a side, the sides
 * stacked on a narrow screen.
 */
int
compare_min_lines(const struct draw *d)
{
	if (d->m->shadow == NULL || d->v->compare_off)
		return (3);
	return (d->g->w >= COMPARE_SIDE_MIN ? 1 + 3 : 2 * (1 + 3));
}

/*
 * Draw both engines' CPUs in the rows [y, y + avail); returns the lines
 * used.  Only with a shadow (m->shadow).
 */
int
compare_draw(struct draw *d, int y, int avail)
{
	const struct model	*m = d->m;
	struct view		 sv;
	char			 left[MODEL_WORD_MAX + 16];
	char			 right[MODEL_WORD_MAX + 16];
	int			 w = d->g->w, half, a, b;

	snprintf(left, sizeof left, "%s (enforced)", m->policy);
	snprintf(right, sizeof right, "%s (shadow)", m->shadow_policy);
	if (w >= COMPARE_SIDE_MIN) {
		half = w / 2;
		a = compare_side(d, m, d->v, left, 0, half, y, avail);
		compare_view(&sv, d->v, m->shadow);
		b = compare_side(d, m->shadow, &sv, right, half, w - half, y,
		    avail);
		return (a > b ? a : b);
	}
	half = avail / 2;
	a = compare_side(d, m, d->v, left, 0, w, y, half);
	compare_view(&sv, d->v, m->shadow);
	b = compare_side(d, m->shadow, &sv, right, 0, w, y + a, avail - a);
	return (a + b);
}
