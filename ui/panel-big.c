/*
 * panel-big.c -- big type (the B key), for one or two CPUs with room to
 * spare: whether the panels are drawn with two or three rows a rank
 * (panel_big), and the name of the task running in big letters in a
 * panel's top right corner (panel_big_banner), so the staircase fills a
 * large screen and reads from the back of a room.  Pure: into a grid.
 */
#include <string.h>
#include <wchar.h>

#include "grid.h"
#include "model.h"
#include "pane.h"
#include "panel-int.h"
#include "view.h"

#define PANEL_BIG_MINW	60	/* big type: a panel this wide at least */

/*
 * Big type's letters: 3 x 5 pixels each, a row of 3 bits (the left one
 * 4) per pixel row, drawn with half blocks two pixel rows a cell row:
 * a letter is 3 columns by 3 rows.  Names are letters, digits, - _ .;
 * letters are capitals, anything else a '?'.
 */
static const struct {
	char		 ch;
	unsigned char	 rows[5];
} panel_big_font[] = {
	{ 'A', { 2, 5, 7, 5, 5 } }, { 'B', { 6, 5, 6, 5, 6 } },
	{ 'C', { 3, 4, 4, 4, 3 } }, { 'D', { 6, 5, 5, 5, 6 } },
	{ 'E', { 7, 4, 6, 4, 7 } }, { 'F', { 7, 4, 6, 4, 4 } },
	{ 'G', { 3, 4, 5, 5, 3 } }, { 'H', { 5, 5, 7, 5, 5 } },
	{ 'I', { 7, 2, 2, 2, 7 } }, { 'J', { 1, 1, 1, 5, 2 } },
	{ 'K', { 5, 5, 6, 5, 5 } }, { 'L', { 4, 4, 4, 4, 7 } },
	{ 'M', { 5, 7, 7, 5, 5 } }, { 'N', { 6, 5, 5, 5, 5 } },
	{ 'O', { 2, 5, 5, 5, 2 } }, { 'P', { 6, 5, 6, 4, 4 } },
	{ 'Q', { 2, 5, 5, 6, 3 } }, { 'R', { 6, 5, 6, 5, 5 } },
	{ 'S', { 3, 4, 2, 1, 6 } }, { 'T', { 7, 2, 2, 2, 2 } },
	{ 'U', { 5, 5, 5, 5, 7 } }, { 'V', { 5, 5, 5, 5, 2 } },
	{ 'W', { 5, 5, 7, 7, 5 } }, { 'X', { 5, 5, 2, 5, 5 } },
	{ 'Y', { 5, 5, 2, 2, 2 } }, { 'Z', { 7, 1, 2, 4, 7 } },
	{ '0', { 7, 5, 5, 5, 7 } }, { '1', { 2, 6, 2, 2, 7 } },
	{ '2', { 6, 1, 2, 4, 7 } }, { '3', { 6, 1, 2, 1, 6 } },
	{ '4', { 5, 5, 7, 1, 1 } }, { '5', { 7, 4, 6, 1, 6 } },
	{ '6', { 3, 4, 7, 5, 7 } }, { '7', { 7, 1, 2, 2, 2 } },
	{ '8', { 7, 5, 7, 5, 7 } }, { '9', { 7, 5, 7, 1, 6 } },
	{ '-', { 0, 0, 7, 0, 0 } }, { '_', { 0, 0, 0, 0, 7 } },
	{ '.', { 0, 0, 0, 0, 2 } }, { '?', { 6, 1, 2, 0, 2 } },
};

/* A character's pixel rows in the big letters ('?' if none). */
static const unsigned char *
panel_big_glyph(char c)
{
	size_t	i, n = sizeof panel_big_font / sizeof panel_big_font[0];

	if (c >= 'a' && c <= 'z')
		c -= 'a' - 'A';
	for (i = 0; i < n; i++) {
		if (panel_big_font[i].ch == c)
			return (panel_big_font[i].rows);
	}
	return (panel_big_font[n - 1].rows);
}

/* Whether the cells [x0, x1] x [y0, y1] are blank. */
static int
panel_big_blank(const struct grid *g, int x0, int y0, int x1, int y1)
{
	const struct cell	*c;
	int			 x, y;

	if (x0 < 0 || y0 < 0 || x1 >= g->w || y1 >= g->h)
		return (0);
	for (y = y0; y <= y1; y++) {
		for (x = x0; x <= x1; x++) {
			c = &g->cells[y * g->w + x];
			if (c->ch != L' ' || c->col != COL_DEFAULT)
				return (0);
		}
	}
	return (1);
}

/*
 * Big type: the name of the task running on the CPU in big letters in
 * the panel's top right corner (inside [x0, x1] x [y0, y1]), where the
 * staircase leaves room, for the back of the room: 3 rows, 4 columns a
 * character.  Only where every cell it takes, and one around, is blank;
 * not in ASCII (no half blocks).
 */
void
panel_big_banner(struct draw *d, int cpu, int x0, int y0, int x1, int y1)
{
	static const wchar_t	 half[4] = { L' ', L'▄', L'▀', L'█' };
	const struct mcpu	*c = &d->m->cpus[cpu];
	const struct mtask	*t;
	const unsigned char	*gl;
	size_t			 i, n;
	int			 w, x, row, px, top, bot;

	if (d->g->ascii || c->task <= 0 ||
	    (t = model_task(d->m, c->task)) == NULL ||
	    t->state != MTASK_RUNNING || t->cpu != cpu)
		return;
	n = strlen(t->name);
	w = 4 * (int)n - 1;
	x = x1 - 1 - w;
	if (n == 0 || y0 + 3 > y1 || x < x0 + (x1 - x0) / 3 ||
	    !panel_big_blank(d->g, x - 1, y0, x1 - 1, y0 + 3))
		return;
	for (i = 0; i < n; i++, x += 4) {
		gl = panel_big_glyph(t->name[i]);
		for (row = 0; row < 3; row++) {
			for (px = 0; px < 3; px++) {
				top = (gl[2 * row] >> (2 - px)) & 1;
				bot = row < 2 ?
				    (gl[2 * row + 1] >> (2 - px)) & 1 : 0;
				grid_put(d->g, x + px, y0 + row,
				    half[top * 2 + bot], COL_TITLE);
			}
		}
	}
}

/*
 * Big type: the rows each rank would take in avail lines (2 or 3), 1
 * where big type is asked for (B) but there is not the room, 0 for the
 * normal layout: more than two CPUs, panels narrower than
 * PANEL_BIG_MINW, the list asked for, or no room in auto.
 */
int
panel_big(const struct draw *d, int avail)
{
	const struct model	*m = d->m;
	const struct view	*v = d->v;
	int			 nrank, tall;

	if (v->big == BIG_OFF || m->ncpus < 1 || m->ncpus > 2 ||
	    v->cpu_view == VIEW_LIST || !picture_stairs(m) ||
	    d->g->w / m->ncpus < PANEL_BIG_MINW)
		return (0);
	nrank = d->bottom - d->top_static + 1;
	tall = nrank > 1 ? (avail - 3) / (nrank - 1) : PANEL_BIG_TALL;
	if (tall > PANEL_BIG_TALL)
		tall = PANEL_BIG_TALL;
	if (tall < 2)
		return (v->big == BIG_ON);
	return (tall);
}
