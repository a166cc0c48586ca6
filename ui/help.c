/*
 * help.c -- the help, in a box over the middle of the screen.  Pure:
 * into a grid.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "stairs.h"
#include "xmalloc.h"

/* The help, in a box over the middle of the screen. */
void
help_draw(struct draw *d, const char *const *help)
{
	struct grid	*g = d->g;
	int		 n, w, i, x, y, bw, bh;

	for (n = w = 0; help[n] != NULL; n++) {
		if (grid_width(help[n]) > w)
			w = grid_width(help[n]);
	}
	bw = w + 4;
	bh = n + 2;
	if (bw > g->w)
		bw = g->w;
	if (bh > g->h)
		bh = g->h;
	x = (g->w - bw) / 2;
	y = (g->h - bh) / 2;
	for (i = 0; i < bh; i++)
		grid_fill(g, x, y + i, bw, L' ', COL_HELP);
	grid_put(g, x, y, d->gl->tl, COL_HELP);
	grid_fill(g, x + 1, y, bw - 2, d->gl->h, COL_HELP);
	grid_put(g, x + bw - 1, y, d->gl->tr, COL_HELP);
	grid_put(g, x, y + bh - 1, d->gl->bl, COL_HELP);
	grid_fill(g, x + 1, y + bh - 1, bw - 2, d->gl->h, COL_HELP);
	grid_put(g, x + bw - 1, y + bh - 1, d->gl->br, COL_HELP);
	for (i = 1; i < bh - 1; i++) {
		grid_put(g, x, y + i, d->gl->v, COL_HELP);
		grid_put(g, x + bw - 1, y + i, d->gl->v, COL_HELP);
		grid_text(d->g, x + 2, y + i, x + bw - 2, help[i - 1], COL_HELP);
	}
	grid_text(d->g, x + 2, y, x + bw - 2, " help: any key closes ", COL_HELP);
}
