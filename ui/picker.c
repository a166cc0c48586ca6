/*
 * picker.c -- the scenario picker (the l key), in a box over the middle
 * of the screen: the scenarios of the daemon's `scenarios` reply, a row
 * each (its name, CPUs, tasks, whether it runs real processes, which is
 * the current one), the selected one reversed, and below them the
 * selected one's description, wrapped.  The list scrolls to keep the
 * selection in view.  Pure: into a grid.
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

#define PICKER_DESC_LINES	6	/* of the description, at most */
#define PICKER_NAME_MAX		24	/* columns for a name, at most */

/* A row of the box: its sides, blank inside. */
static void
picker_row(struct draw *d, int x, int y, int bw)
{
	grid_fill(d->g, x, y, bw, L' ', COL_HELP);
	grid_put(d->g, x, y, d->gl->v, COL_HELP);
	grid_put(d->g, x + bw - 1, y, d->gl->v, COL_HELP);
}

/* A horizontal edge of the box from its left and right corners. */
static void
picker_edge(struct draw *d, int x, int y, int bw, wchar_t l, wchar_t r)
{
	grid_put(d->g, x, y, l, COL_HELP);
	grid_fill(d->g, x + 1, y, bw - 2, d->gl->h, COL_HELP);
	grid_put(d->g, x + bw - 1, y, r, COL_HELP);
}

/* How many lines text takes wrapped at width (at most max). */
static int
picker_lines(const char *text, int width, int max)
{
	size_t	n;
	int	lines = 0;

	while (*text != '\0' && lines < max) {
		n = bar_wrap(text, width);
		if (n == 0)
			break;
		text += n;
		while (*text == ' ')
			text++;
		lines++;
	}
	return (lines);
}

/* The picker, over whatever is drawn. */
void
picker_draw(struct draw *d)
{
	const struct model	*m = d->m;
	struct view		*v = d->v;
	struct grid		*g = d->g;
	const struct mscenario	*sc;
	const char		*text;
	char			 buf[MODEL_DESC_MAX];
	int			 bw, bh, x, y, i, n, nw, rows, dl, tw, row;
	size_t			 k;

	n = m->nscenarios;
	bw = g->w - 2 > 100 ? 100 : g->w - 2;
	if (bw < 12)
		bw = g->w;
	x = (g->w - bw) / 2;
	tw = bw - 4;

	/* The description's lines, then as many rows of names as fit. */
	text = "";
	if (v->picker_sel >= 0 && v->picker_sel < n)
		text = m->scenarios[v->picker_sel].text;
	dl = picker_lines(text, tw, PICKER_DESC_LINES);
	if (dl < 1)
		dl = 1;
	rows = n > 0 ? n : 1;
	if (2 + rows + 1 + dl > g->h - 2)
		rows = g->h - 2 - 3 - dl;
	if (rows < 1) {
		rows = 1;
		dl = g->h - 2 - 4 > 0 ? g->h - 2 - 4 : 0;
	}
	bh = 2 + rows + (dl > 0 ? 1 + dl : 0);
	y = (g->h - bh) / 2;
	if (y < 0)
		y = 0;
	v->picker_rows = rows;

	/* Keep the selection in view. */
	if (v->picker_sel >= 0 && v->picker_sel < v->picker_top)
		v->picker_top = v->picker_sel;
	if (v->picker_sel >= v->picker_top + rows)
		v->picker_top = v->picker_sel - rows + 1;
	if (v->picker_top > n - rows)
		v->picker_top = n - rows;
	if (v->picker_top < 0)
		v->picker_top = 0;

	picker_edge(d, x, y, bw, d->gl->tl, d->gl->tr);
	if (n > rows)
		grid_textf(g, x + 2, y, x + bw - 2, COL_HELP,
		    " scenarios %d-%d/%d: Enter loads, o a file, Esc closes ",
		    v->picker_top + 1, v->picker_top + rows, n);
	else
		grid_text(g, x + 2, y, x + bw - 2,
		    " scenarios: Enter loads, o a file by path, Esc closes ", COL_HELP);

	for (nw = 4, i = 0; i < n; i++) {
		if (grid_width(m->scenarios[i].name) > nw)
			nw = grid_width(m->scenarios[i].name);
	}
	if (nw > PICKER_NAME_MAX)
		nw = PICKER_NAME_MAX;
	for (row = 0; row < rows; row++) {
		picker_row(d, x, y + 1 + row, bw);
		if (n == 0) {
			grid_text(g, x + 2, y + 1, x + bw - 2,
			    m->scenarios_valid ? "(no scenarios)" :
			    "asking the daemon for its scenarios...", COL_HELP);
			continue;
		}
		i = v->picker_top + row;
		if (i >= n)
			continue;
		sc = &m->scenarios[i];
		snprintf(buf, sizeof buf, "%-*.*s %2d CPU%s %4d task%s%s%s",
		    nw, nw, sc->name, sc->cpus,
		    sc->cpus == 1 ? " " : "s", sc->tasks,
		    sc->tasks == 1 ? " " : "s", sc->real ? "  real" : "      ",
		    strcmp(sc->name, m->scenario) == 0 ? "  (current)" : "");
		if (i == v->picker_sel) {
			grid_fill(g, x + 1, y + 1 + row, bw - 2, L' ',
			    COL_SELECTED);
			grid_put(g, x + 1, y + 1 + row, d->gl->sel,
			    COL_SELECTED);
		}
		grid_text(g, x + 2, y + 1 + row, x + bw - 1, buf,
		    i == v->picker_sel ? COL_SELECTED : COL_HELP);
	}
	if (dl == 0) {
		picker_edge(d, x, y + bh - 1, bw, d->gl->bl, d->gl->br);
		return;
	}

	/* The selected scenario's description, wrapped. */
	picker_edge(d, x, y + 1 + rows, bw, d->gl->v, d->gl->v);
	for (i = 0; i < dl; i++) {
		picker_row(d, x, y + 2 + rows + i, bw);
		if (*text == '\0')
			continue;
		k = bar_wrap(text, tw);
		if (i == dl - 1 && text[k] != '\0')
			bar_cut(text, tw, buf, sizeof buf);	/* still more */
		else
			snprintf(buf, sizeof buf, "%.*s", (int)k, text);
		grid_text(g, x + 2, y + 2 + rows + i, x + bw - 2, buf,
		    COL_HELP);
		text += k;
		while (*text == ' ')
			text++;
	}
	picker_edge(d, x, y + bh - 1, bw, d->gl->bl, d->gl->br);
}
