/*
 * picture-base.c -- what each policy's picture (picture-draw.c) is drawn
 * with: which picture, milliseconds from the frames' microseconds, a
 * task's colour, name and gauge, a CPU's tasks in the order its picture
 * places them, how many rows the tasks get, the sleeping ones' line, the
 * wrapped line a box too short for its picture writes its tasks on; and
 * the why under a CPU of the stairs (a panel's border, the list's line).
 * Pure.
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

/* Milliseconds from microseconds, one decimal, signed if sign. */
const char *
picture_ms(char *buf, size_t len, long us, int sign)
{
	snprintf(buf, len, sign ? "%+.1f" : "%.1f", us / 1000.0);
	return (buf);
}

/* The colour a task is drawn in: selected, running, queued, asleep. */
enum col
picture_col(const struct draw *d, const struct mtask *t)
{
	if (t->id == d->v->selected)
		return (COL_MARK);
	if (t->state == MTASK_RUNNING)
		return (COL_RUNNING);
	if (t->state == MTASK_SLEEPING)
		return (COL_SLEEPING);
	return (COL_QUEUED);
}

/* A task's name (or its shortest unique label) at x; returns the x after. */
int
picture_name(struct draw *d, const struct mtask *t, int x, int y, int xmax)
{
	char	buf[MODEL_NAME_MAX + 8];
	int	cut, x0 = x;

	if (panel_line_label(d, t, xmax - x, buf, sizeof buf, &cut) <= 0)
		return (x);
	x = grid_text(d->g, x, y, xmax, buf, picture_col(d, t));
	grid_tag(d->g, x0, y, x - x0, GRID_TASK(t->id));
	return (x);
}

/* The running task's gauge of its slice left (left of slice, ticks). */
int
picture_gauge(struct draw *d, const struct mtask *t, int x, int y, int xmax,
    int width)
{
	int	fill, i, allot = t->slice > 0 ? t->slice : 1;

	if (x + width > xmax)
		width = xmax - x;
	fill = (t->left * width + allot - 1) / allot;
	if (fill > width)
		fill = width;
	for (i = 0; i < width; i++)
		grid_put(d->g, x + i, y, i < fill ? d->gl->full : d->gl->empty,
		    i < fill ? COL_GAUGE : COL_GAUGE_EMPTY);
	return (x + (width > 0 ? width : 0));
}

/*
 * The tasks of a CPU (not exited), the queued ones (running and
 * runnable) first in the order cmp gives, then the sleeping ones; the
 * number queued in *nq.
 */
int
picture_tasks(const struct draw *d, int cpu, const struct mtask **out,
    int *nq, int (*cmp)(const void *, const void *))
{
	const struct mtask	*t;
	int			 i, n = 0, k;

	for (k = 0; k < 2; k++) {
		for (i = d->cstart[cpu]; i < d->cstart[cpu + 1] &&
		    n < PIC_TASKS; i++) {
			t = d->bycpu[i];
			if ((t->state == MTASK_SLEEPING) == k)
				out[n++] = t;
		}
		if (k == 0) {
			*nq = n;
			if (cmp != NULL)
				qsort(out, n, sizeof *out, cmp);
		}
	}
	return (n);
}

/* By the quantity the axes order by: vruntime, then id. */
int
picture_by_vruntime(const void *a, const void *b)
{
	const struct mtask	*x = *(const struct mtask *const *)a;
	const struct mtask	*y = *(const struct mtask *const *)b;
	long			 vx = 0, vy = 0;

	model_q(x, MQ_VRUNTIME, &vx);
	model_q(y, MQ_VRUNTIME, &vy);
	if (vx != vy)
		return (vx < vy ? -1 : 1);
	return ((x->id > y->id) - (x->id < y->id));
}

/* By rank (o1's prio), then id. */
int
picture_by_rank(const void *a, const void *b)
{
	const struct mtask	*x = *(const struct mtask *const *)a;
	const struct mtask	*y = *(const struct mtask *const *)b;

	if (x->rank != y->rank)
		return (x->rank - y->rank);
	return ((x->id > y->id) - (x->id < y->id));
}

/*
 * The task rows of an axis with room rows: every queued task, the row
 * for the sleeping ones kept when there are some; else all but the
 * last, which says how many more.
 */
int
picture_fit(int room, int nq, int n)
{
	if (n > nq && room > 1)
		room--;
	if (nq <= room)
		return (nq);
	return (room > 1 ? room - 1 : 0);
}

/*
 * A task's weight, when it is not nice 0's (1024): how fast its mark
 * moves, as the daemon says it; at x (-1: no room).
 */
void
picture_weight(struct draw *d, const struct mtask *t, int x, int y, int xmax)
{
	long	wt;

	if (x < 0 || model_q(t, MQ_WEIGHT, &wt) != 0 || wt == 1024)
		return;
	grid_textf(d->g, x, y, xmax, COL_SKIP, "  weight %ld", wt);
}

/*
 * Rows a task of an axis takes when there is room to spare: 1 to 3,
 * so one CPU on a big screen is drawn big enough for the back row.
 */
int
picture_step_rows(int room, int nq, int n)
{
	int	step;

	if (n > nq)
		room--;
	if (nq <= 0 || room <= nq + 1)
		return (1);
	step = (room - 1) / nq;
	return (step > 3 ? 3 : step);
}

/* "asleep: a b c" on row y: the tasks from i on (all sleeping). */
void
picture_asleep(struct draw *d, const struct mtask **list, int i, int n,
    int x, int y, int xmax, int withlag)
{
	char	ms[32];
	long	v;

	if (i >= n)
		return;
	x = grid_text(d->g, x, y, xmax, "asleep:", COL_SLEEPING);
	for (; i < n && x < xmax - 2; i++) {
		x = picture_name(d, list[i], x + 1, y, xmax);
		if (withlag && model_q(list[i], MQ_LAG, &v) == 0 && v != 0)
			x = grid_textf(d->g, x, y, xmax, COL_SLEEPING,
			    " (lag %s)", picture_ms(ms, sizeof ms, v, 1));
	}
	if (i < n)
		grid_textf(d->g, xmax - 3, y, xmax, COL_SLEEPING, "+%d", n - i);
}


void
picture_flow_start(struct picture_flow *f, struct draw *d, int x, int y, int w,
    int h)
{
	f->d = d;
	f->x = x;
	f->y = y;
	f->w = w;
	f->h = h;
	f->xx = x;
	f->r = y;
	f->dropped = 0;
	f->pending = NULL;
}

/* Room for width more columns (wrapping): 0 when the rows are full. */
int
picture_flow_room(struct picture_flow *f, int width)
{
	if (f->dropped > 0)
		return (0);
	if (f->xx + width > f->x + f->w - 3 && f->xx > f->x + 2) {
		if (f->r + 1 >= f->y + f->h)
			return (0);
		f->r++;
		f->xx = f->x + 2;
	}
	return (1);
}

/* A heading word ("expired:"), written with the next task (pending). */
void
picture_flow_word_now(struct picture_flow *f, const char *s)
{
	if (!picture_flow_room(f, grid_width(s) + 1))
		return;
	f->xx = grid_text(f->d->g, f->xx, f->r, f->x + f->w, s,
	    COL_HEADER) + 1;
}

/* A heading for the tasks that follow: said only if one does. */
void
picture_flow_word(struct picture_flow *f, const char *s)
{
	f->pending = s;
}

/* A task and what follows its name ("+1.2"). */
void
picture_flow_task(struct picture_flow *f, const struct mtask *t,
    const char *suffix)
{
	if (f->pending != NULL) {
		picture_flow_word_now(f, f->pending);
		f->pending = NULL;
	}
	if (!picture_flow_room(f, (int)strlen(t->name) + grid_width(suffix) +
	    2)) {
		f->dropped++;
		return;
	}
	f->xx = picture_name(f->d, t, f->xx, f->r, f->x + f->w);
	f->xx = grid_text(f->d->g, f->xx + 1, f->r, f->x + f->w, suffix,
	    COL_RANK) + 2;
}

/* The end: how many did not fit. */
void
picture_flow_end(struct picture_flow *f)
{
	if (f->dropped > 0)
		grid_textf(f->d->g, f->x + f->w - 3, f->r, f->x + f->w,
		    COL_SKIP, "+%d", f->dropped);
}

/* Which picture the model's CPUs are drawn with (picture=). */
enum pic
picture_of(const struct model *m)
{
	static const char *const names[] = {
		"stairs", "arrays", "vruntime", "lag", "queue"
	};
	size_t	i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (strcmp(m->picture, names[i]) == 0)
			return ((enum pic)i);
	}
	return (PIC_STAIRS);
}

/* Whether the model's CPUs are stairs (panel.c's), not a picture here. */
int
picture_stairs(const struct model *m)
{
	return (picture_of(m) == PIC_STAIRS);
}

/* The why on a panel's bottom border (the stairs, and short panels). */
void
picture_why_border(struct draw *d, int cpu, int x, int y, int xmax)
{
	const struct mwhy	*w = model_why(d->m, d->m->cpus[cpu].id);

	if (w == NULL || xmax - x < 12)
		return;
	x = grid_text(d->g, x + 1, y, xmax - 1, " why: ", COL_HEADER);
	x = grid_text(d->g, x, y, xmax - 2, w->text, COL_CAPTION);
	if (x >= xmax - 2 && grid_width(w->text) > 0)
		grid_put(d->g, xmax - 2, y, L'…', COL_CAPTION);
	else
		grid_put(d->g, x, y, L' ', COL_CAPTION);
}

/*
 * The why after what a line of the CPU list shows (from x0, the line
 * ending before xmax), when there are 20 columns left for it.
 */
void
picture_why_after(struct draw *d, int cpu, int y, int x0, int xmax)
{
	const struct mwhy	*w = model_why(d->m, d->m->cpus[cpu].id);
	int			 x;

	if (w == NULL)
		return;
	for (x = xmax; x > x0 && d->g->cells[y * d->g->w + x - 1].ch ==
	    L' '; x--)
		;
	if (xmax - x < 20)
		return;
	x = grid_text(d->g, x + 2, y, xmax - 1, "why: ", COL_HEADER);
	x = grid_text(d->g, x, y, xmax - 1, w->text, COL_CAPTION);
	if (x >= xmax - 1)
		grid_put(d->g, xmax - 2, y, L'…', COL_CAPTION);
}
