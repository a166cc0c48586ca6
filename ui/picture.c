/*
 * picture.c -- each policy's picture of a CPU (SPEC.md section 10), for
 * the policies that are not drawn as stairs: o1's two arrays, cfs's
 * vruntime axis, eevdf's lag line and virtual deadlines, rr's FIFO;
 * under each, why the CPU runs what it runs (its policy's why line).
 * Everything drawn is what the frames carry (the task and cpu lines'
 * quantities, the why lines): the client places, labels and scales
 * them, and knows no policy's arithmetic.  Here: a CPU's box with its
 * title and why, and the layout: the panels as many a row as are
 * readable, wrapped, scrolled by whole rows with [ and ].  The pictures
 * are picture-draw.c's, their helpers picture-base.c's (picture-int.h).
 * Pure: into a grid.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid.h"
#include "model.h"
#include "pane.h"
#include "panel-int.h"
#include "picture-int.h"
#include "view.h"

/*
 * The CPU's why (its policy's, as the frame sent it) in the rows
 * [y, y + h) from x to xmax, wrapped; a CPU that has none yet says so.
 */
static void
picture_why_rows(struct draw *d, int cpu, int x, int y, int xmax, int h)
{
	const struct mwhy	*w = model_why(d->m, d->m->cpus[cpu].id);
	const char		*s;
	size_t			 n;
	int			 r, xx;
	char			 line[MODEL_TEXT_MAX];

	if (h <= 0 || xmax - x < 8)
		return;
	s = w != NULL ? w->text : !d->m->live ? "(said of the present only)" :
	    "no switch yet";
	if (w != NULL && xmax - x > 60)
		xx = grid_textf(d->g, x, y, xmax, COL_HEADER, "why (%ld ms): ",
		    w->tick);
	else
		xx = grid_text(d->g, x, y, xmax, "why: ", COL_HEADER);
	for (r = 0; r < h && *s != '\0'; r++) {
		n = bar_wrap(s, xmax - xx);
		if (r == h - 1 && s[n] != '\0' && n > 0) {
			/* The last row: cut, with an ellipsis. */
			snprintf(line, sizeof line, "%.*s", (int)n, s);
			xx = grid_text(d->g, xx, y + r, xmax - 1, line,
			    COL_CAPTION);
			grid_put(d->g, xmax - 1, y + r, L'…', COL_CAPTION);
			break;
		}
		snprintf(line, sizeof line, "%.*s", (int)n, s);
		grid_text(d->g, xx, y + r, xmax, line, COL_CAPTION);
		s += n;
		while (*s == ' ')
			s++;
		xx = x + 5;
	}
}

/* The title's policy words: what the picture is ordered by, now. */
static void
picture_title(struct draw *d, int cpu, enum pic pic, int x, int y, int xmax)
{
	const struct mcpu	*c = &d->m->cpus[cpu];
	const struct mtask	*t;
	char			 ms[32];
	long			 v, a = 0, e = 0;

	x = grid_textf(d->g, x, y, xmax, COL_TITLE, " CPU%d %s ", c->id,
	    d->m->policy);
	t = c->task > 0 ? model_task(d->m, c->task) : NULL;
	if (t == NULL)
		x = grid_text(d->g, x, y, xmax, "idle ", COL_TITLE);
	else {
		x = grid_text(d->g, x, y, xmax, "run: ", COL_TITLE);
		x = picture_name(d, t, x, y, xmax);
		x = grid_text(d->g, x, y, xmax, " ", COL_TITLE);
	}
	switch (pic) {
	case PIC_ARRAYS:
		model_cq(c, MCQ_NR_ACTIVE, &a);
		model_cq(c, MCQ_NR_EXPIRED, &e);
		grid_textf(d->g, x, y, xmax, COL_TITLE,
		    " %ld active, %ld expired ", a, e);
		break;
	case PIC_VRUNTIME:
		if (model_cq(c, MCQ_MIN_VRUNTIME, &v) == 0)
			x = grid_textf(d->g, x, y, xmax, COL_TITLE,
			    " min_vruntime %s ms ", picture_ms(ms, sizeof ms,
			    v, 0));
		if (model_cq(c, MCQ_PERIOD, &v) == 0)
			grid_textf(d->g, x, y, xmax, COL_TITLE,
			    " period %s ms ", picture_ms(ms, sizeof ms, v, 0));
		break;
	case PIC_LAG:
		if (model_cq(c, MCQ_V, &v) == 0)
			grid_textf(d->g, x, y, xmax, COL_TITLE, " V %s ms ",
			    picture_ms(ms, sizeof ms, v, 0));
		break;
	case PIC_QUEUE:
		grid_textf(d->g, x, y, xmax, COL_TITLE, " nr %d ", c->nr);
		break;
	case PIC_STAIRS:
		break;
	}
}

/* One CPU's panel of its picture in the box at (x, y), w x h. */
static void
picture_one(struct draw *d, enum pic pic, int cpu, int x, int y, int w,
    int h)
{
	struct grid	*g = d->g;
	int		 i, ih, iw, whyl;

	grid_put(g, x, y, d->gl->tl, COL_BORDER);
	grid_fill(g, x + 1, y, w - 2, d->gl->h, COL_BORDER);
	grid_put(g, x + w - 1, y, d->gl->tr, COL_BORDER);
	for (i = 1; i < h - 1; i++) {
		grid_put(g, x, y + i, d->gl->v, COL_BORDER);
		grid_put(g, x + w - 1, y + i, d->gl->v, COL_BORDER);
	}
	grid_put(g, x, y + h - 1, d->gl->bl, COL_BORDER);
	grid_fill(g, x + 1, y + h - 1, w - 2, d->gl->h, COL_BORDER);
	grid_put(g, x + w - 1, y + h - 1, d->gl->br, COL_BORDER);
	picture_title(d, cpu, pic, x + 1, y, x + w - 1);
	ih = h - 2;
	iw = w - 4;
	/* The why below the picture: two rows when there is room. */
	whyl = ih >= 14 ? 3 : ih >= 8 ? 2 : 0;
	if (whyl == 0)
		picture_why_border(d, cpu, x + 1, y + h - 1, x + w - 1);
	else
		picture_why_rows(d, cpu, x + 2, y + 1 + ih - whyl, x + 2 + iw,
		    whyl);
	ih -= whyl;
	if (ih <= 0)
		return;
	switch (pic) {
	case PIC_ARRAYS:
		picture_arrays(d, cpu, x + 2, y + 1, iw, ih);
		break;
	case PIC_VRUNTIME:
		picture_vruntime(d, cpu, x + 2, y + 1, iw, ih);
		break;
	case PIC_LAG:
		picture_lag(d, cpu, x + 2, y + 1, iw, ih);
		break;
	case PIC_QUEUE:
		picture_queue(d, cpu, x + 2, y + 1, iw, ih);
		break;
	case PIC_STAIRS:
		break;
	}
}

/*
 * The rows a CPU's picture wants inside its box: its heading or scale,
 * a row per queued task (o1: per prio, at most), the sleeping ones'
 * row, and two for the why.
 */
static int
picture_want(const struct draw *d, enum pic pic, int cpu)
{
	int	i, nq = 0, ns = 0;

	for (i = d->cstart[cpu]; i < d->cstart[cpu + 1]; i++) {
		if (d->bycpu[i]->state == MTASK_SLEEPING)
			ns = 1;
		else
			nq++;
	}
	switch (pic) {
	case PIC_QUEUE:
		return (1 + nq / 4 + ns + 2);
	case PIC_VRUNTIME:
		return (2 + nq + ns + 2);
	default:
		return (1 + nq + ns + 2);
	}
}

/*
 * The CPUs as a list, one line each: the CPU, its picture's one-line
 * form, its why where there is room; two columns from 160, scrolled by
 * lines with [ and ].  For many CPUs (what v asks, or boxes that would
 * not all show).  Returns the lines used.
 */
static int
picture_list(struct draw *d, enum pic pic, int y, int avail)
{
	const struct model	*m = d->m;
	struct view		*v = d->v;
	int			 ncpu = m->ncpus, cols, per, shown, i, c, cpu;
	int			 x, w, row, x2;

	cols = d->g->w >= 160 && ncpu > 1 ? 2 : 1;
	per = (ncpu + cols - 1) / cols;
	shown = per <= avail ? per : avail - 1;
	if (shown < 1)
		return (0);
	panel_scroll(v, per, shown);
	for (c = 0; c < cols; c++) {
		x = c * (d->g->w / cols);
		w = c == cols - 1 ? d->g->w - x : d->g->w / cols;
		for (i = 0; i < shown; i++) {
			cpu = c * per + v->cpu_top + i;
			if (v->cpu_top + i >= per || cpu >= ncpu)
				break;
			row = y + i;
			x2 = grid_textf(d->g, x, row, x + w, COL_TITLE,
			    " CPU%-2d ", m->cpus[cpu].id);
			switch (pic) {
			case PIC_ARRAYS:
				picture_arrays(d, cpu, x2, row, x + w - x2, 1);
				break;
			case PIC_VRUNTIME:
				picture_vruntime(d, cpu, x2, row, x + w - x2,
				    1);
				break;
			case PIC_LAG:
				picture_lag(d, cpu, x2, row, x + w - x2, 1);
				break;
			case PIC_QUEUE:
				picture_queue(d, cpu, x2, row, x + w - x2, 1);
				break;
			case PIC_STAIRS:
				break;
			}
			picture_why_after(d, cpu, row, x2, x + w);
		}
	}
	if (shown < per) {
		grid_textf(d->g, 1, y + shown, d->g->w, COL_TITLE,
		    "CPU lines %d-%d/%d ([ ] scroll)", v->cpu_top + 1,
		    v->cpu_top + shown, per);
		return (shown + 1);
	}
	return (shown);
}

/*
 * Lay the CPUs' pictures out in the rows [y, y + avail): as many a row
 * as are PIC_MIN_W wide (one CPU: the whole width), each as tall as the
 * tallest wants or as the rows allow, scrolled by whole rows when even
 * four rows a panel do not fit.  Returns the lines used.
 */
int
picture_layout(struct draw *d, int y, int avail)
{
	const struct model	*m = d->m;
	struct view		*v = d->v;
	enum pic		 pic = picture_of(m);
	int			 ncpu = m->ncpus, cols, prow, shown, ph;
	int			 want = 0;
	int			 r, col, cpu, pw, x, w, c;

	cols = d->g->w / PIC_MIN_W;
	if (cols < 1)
		cols = 1;
	if (cols > ncpu)
		cols = ncpu;
	prow = (ncpu + cols - 1) / cols;
	/* Balance the rows: 8 CPUs at 5 a row are better 4 and 4. */
	cols = (ncpu + prow - 1) / prow;
	for (c = 0; c < ncpu; c++) {
		r = picture_want(d, pic, c);
		if (r > want)
			want = r;
	}
	shown = avail / 4;
	if (shown < 1)
		shown = 1;
	if (shown > prow)
		shown = prow;
	/* A list when asked (v), or for many CPUs whose boxes do not fit. */
	if (v->cpu_view == VIEW_LIST || (v->cpu_view == VIEW_AUTO &&
	    ncpu > PANEL_MAX_CPUS && shown < prow))
		return (picture_list(d, pic, y, avail));
	/* Scrolled: a line under the panels says which rows show. */
	if (shown < prow && avail > 4) {
		avail--;
		shown = avail / 4 > 0 ? avail / 4 : 1;
	}
	ph = avail / shown;
	/* All in view: room to spare spreads the rows (up to 3 a task). */
	if (shown == prow && pic != PIC_QUEUE)
		want += 2 * (want - 4);
	if (ph > want + 2)
		ph = want + 2;
	if (ph < 3)
		ph = avail < 3 ? avail : 3;
	if (ph < 2)
		return (0);
	panel_scroll(v, prow, shown);
	pw = d->g->w / cols;
	for (r = 0; r < shown; r++) {
		for (col = 0; col < cols; col++) {
			cpu = (v->cpu_top + r) * cols + col;
			if (cpu >= ncpu)
				break;
			x = col * pw;
			w = col == cols - 1 ? d->g->w - x : pw;
			picture_one(d, pic, cpu, x, y + r * ph, w, ph);
		}
	}
	if (shown < prow) {
		grid_textf(d->g, 1, y + shown * ph, d->g->w, COL_TITLE,
		    "CPU rows %d-%d/%d ([ ] scroll)", v->cpu_top + 1,
		    v->cpu_top + shown, prow);
		return (shown * ph + 1);
	}
	return (shown * ph);
}
