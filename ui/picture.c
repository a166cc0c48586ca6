/*
 * picture.c -- each policy's picture of a CPU (SPEC.md section 10), for
 * the policies that are not drawn as stairs: o1's two arrays, cfs's
 * vruntime axis, eevdf's lag line and virtual deadlines, rr's FIFO;
 * under each, why the CPU runs what it runs (its policy's why line).
 * Everything drawn is what the frames carry (the task and cpu lines'
 * quantities, the why lines): the client places, labels and scales
 * them, and knows no policy's arithmetic.  The panels are laid out like
 * the stairs' (as many a row as are readable, wrapped, scrolled by
 * whole rows with [ and ]); a panel too short for its picture shows it
 * on one line.  Pure: into a grid.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid.h"
#include "model.h"
#include "pane.h"
#include "panel-int.h"
#include "view.h"

#define PIC_MIN_W	38	/* the narrowest panel of a picture */
#define PIC_NAME_W	10	/* the name column of the axes */
#define PIC_GAUGE	10	/* the running task's gauge */
#define PIC_TASKS	512	/* tasks of a CPU a picture places */

/* Which picture a model's CPUs are drawn with. */
enum pic {
	PIC_STAIRS,
	PIC_ARRAYS,
	PIC_VRUNTIME,
	PIC_LAG,
	PIC_QUEUE
};

static enum pic
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

/* Milliseconds from microseconds, one decimal, signed if sign. */
static const char *
picture_ms(char *buf, size_t len, long us, int sign)
{
	snprintf(buf, len, sign ? "%+.1f" : "%.1f", us / 1000.0);
	return (buf);
}

/* The colour a task is drawn in: selected, running, queued, asleep. */
static enum col
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
static int
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
static int
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
static int
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
static int
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
static int
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
static int
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
static void
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
static int
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
static void
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

/*
 * A picture too short for its rows: its tasks written one after the
 * other, wrapped over the rows [y, y + h) (indented after the first),
 * those that do not fit counted and said ("+3") at the end.
 */
struct flow {
	struct draw	*d;
	int		 x, y, w, h;
	int		 xx, r;
	int		 dropped;
	const char	*pending;	/* a heading not yet written */
};

static void
flow_start(struct flow *f, struct draw *d, int x, int y, int w, int h)
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
static int
flow_room(struct flow *f, int width)
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
static void
flow_word_now(struct flow *f, const char *s)
{
	if (!flow_room(f, grid_width(s) + 1))
		return;
	f->xx = grid_text(f->d->g, f->xx, f->r, f->x + f->w, s,
	    COL_HEADER) + 1;
}

/* A heading for the tasks that follow: said only if one does. */
static void
flow_word(struct flow *f, const char *s)
{
	f->pending = s;
}

/* A task and what follows its name ("+1.2"). */
static void
flow_task(struct flow *f, const struct mtask *t, const char *suffix)
{
	if (f->pending != NULL) {
		flow_word_now(f, f->pending);
		f->pending = NULL;
	}
	if (!flow_room(f, (int)strlen(t->name) + grid_width(suffix) + 2)) {
		f->dropped++;
		return;
	}
	f->xx = picture_name(f->d, t, f->xx, f->r, f->x + f->w);
	f->xx = grid_text(f->d->g, f->xx + 1, f->r, f->x + f->w, suffix,
	    COL_RANK) + 2;
}

/* The end: how many did not fit. */
static void
flow_end(struct flow *f)
{
	if (f->dropped > 0)
		grid_textf(f->d->g, f->x + f->w - 3, f->r, f->x + f->w,
		    COL_SKIP, "+%d", f->dropped);
}

/* The CPU's why (its policy's, as the frame sent it) in the rows
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

/*
 * o1: the active array on the left, the expired on the right, a row per
 * prio in use (its rank), each task with its bonus as a signed bar; the
 * expired array's age and the age it starves at over it.
 */
static void
picture_arrays(struct draw *d, int cpu, int x, int y, int w, int h)
{
	const struct mcpu	*c = &d->m->cpus[cpu];
	const struct mtask	*list[PIC_TASKS], *t;
	int			 n, nq, i, a, half, row[2], x0, xx, xmax, k;
	int			 lastrank[2] = { -1, -1 }, more[2] = { 0, 0 };
	int			 rstep;
	long			 v, age = 0, starve = 0, arr;
	char			 buf[64];
	struct flow		 fl;

	n = picture_tasks(d, cpu, list, &nq, picture_by_rank);
	half = w / 2;
	model_cq(c, MCQ_EXPIRED_MS, &age);
	model_cq(c, MCQ_STARVE_MS, &starve);
	for (i = k = 0; i < nq; i++)
		k += model_q(list[i], MQ_ARRAY, &arr) == 0 && arr != 0;
	if (h < 3 || nq - k > h - 1 - (n > nq) || k > h - 1) {
		/* Short: "active: 125 editor hog1 expired: hog2". */
		flow_start(&fl, d, x, y, w, h);
		for (k = 0; k < 2; k++) {
			flow_word_now(&fl, k ? "expired:" :
			    "active (prio bonus):");
			for (i = 0; i < nq; i++) {
				arr = 0;
				model_q(list[i], MQ_ARRAY, &arr);
				if ((arr != 0) != k)
					continue;
				v = 0;
				model_q(list[i], MQ_BONUS, &v);
				snprintf(buf, sizeof buf, "%d %+ld",
				    list[i]->rank, v);
				flow_task(&fl, list[i], buf);
			}
		}
		flow_end(&fl);
		return;
	}
	/* The headings. */
	xx = grid_text(d->g, x, y, x + half, "active", COL_HEADER);
	if (half > 30)
		grid_text(d->g, xx, y, x + half - 1, "  prio, bonus",
		    COL_HEADER);
	xx = grid_text(d->g, x + half + 1, y, x + w, "expired", COL_HEADER);
	/* Its age, and the age it starves at when there is room. */
	if (age > 0 && x + w - xx >= 32)
		grid_textf(d->g, xx, y, x + w, COL_HEADER,
		    "  %ld ms old, starves at %ld", age, starve);
	else if (age > 0)
		grid_textf(d->g, xx, y, x + w, COL_HEADER, " %ld ms", age);
	for (i = 0; i < h; i++)
		grid_put(d->g, x + half - 1, y + i, d->gl->v, COL_BORDER);
	/* A row per task, in prio order, on its array's side. */
	row[0] = row[1] = y;
	/* Room to spare: up to three rows a task, as on the axes. */
	rstep = picture_step_rows(h - 1, nq - k > k ? nq - k : k,
	    (nq - k > k ? nq - k : k) + (n > nq));
	for (i = 0; i < nq; i++) {
		t = list[i];
		arr = 0;
		model_q(t, MQ_ARRAY, &arr);
		a = arr != 0;
		x0 = a ? x + half + 1 : x;
		xmax = a ? x + w : x + half - 2;
		if (row[a] + rstep >= y + h - (n > nq && !a)) {
			more[a]++;
			continue;
		}
		row[a] += rstep;
		xx = x0;
		if (t->rank != lastrank[a])
			grid_textf(d->g, x0, row[a], xmax, COL_RANK, "%3d",
			    t->rank);
		lastrank[a] = t->rank;
		xx += 3;
		if (t->state == MTASK_RUNNING) {
			xx = grid_text(d->g, xx + 1, row[a], xmax, "[",
			    COL_RUNNING);
			xx = picture_name(d, t, xx, row[a], xmax);
			k = xmax - xx - 22 > PIC_GAUGE ? PIC_GAUGE :
			    xmax - xx - 22;
			if (k >= 3) {
				xx = grid_text(d->g, xx, row[a], xmax, " ",
				    COL_RUNNING);
				xx = picture_gauge(d, t, xx, row[a], xmax, k);
				xx = grid_textf(d->g, xx, row[a], xmax,
				    COL_RUNNING, " %d/%d ms", t->left,
				    t->slice);
			}
			xx = grid_text(d->g, xx, row[a], xmax, "]",
			    COL_RUNNING);
		} else
			xx = picture_name(d, t, xx + 1, row[a], xmax);
		/* The bonus: ◀ a prio better each, ▶ a prio worse each. */
		if (model_q(t, MQ_BONUS, &v) == 0 && xmax - xx > 3) {
			snprintf(buf, sizeof buf, " %.*s%+ld",
			    xmax - xx > 9 ? (int)(labs(v) > 5 ? 5 :
			    labs(v)) * 3 : 0,
			    v > 0 ? "◀◀◀◀◀" : "▶▶▶▶▶", v);
			grid_text(d->g, xx, row[a], xmax, buf,
			    v > 0 ? COL_GAUGE : v < 0 ? COL_SLEEPING :
			    COL_RANK);
		}
	}
	for (a = 0; a < 2; a++) {
		if (more[a] > 0)
			grid_textf(d->g, (a ? x + w : x + half - 2) - 4,
			    row[a], a ? x + w : x + half - 1, COL_SKIP,
			    "+%d", more[a]);
	}
	picture_asleep(d, list, nq, n, x, y + h - 1, x + half - 2, 0);
}

/* A step of the axes: 1, 2 or 5 times a power of ten, in us. */
static long
picture_step(long range, int cells)
{
	static const int	mant[] = { 1, 2, 5 };
	long			p;
	int			i;

	if (cells < 1)
		cells = 1;
	for (p = 100; p < 1000000000L; p *= 10) {
		for (i = 0; i < 3; i++) {
			if (range / (p * mant[i]) <= cells)
				return (p * mant[i]);
		}
	}
	return (p);
}

/*
 * cfs: the vruntime axis from min_vruntime rightwards, a row per
 * queued task in vruntime order, each a mark at its vruntime; the
 * running one with the gauge of its slice left, the next (the leftmost
 * waiting one) marked.
 */
static void
picture_vruntime(struct draw *d, int cpu, int x, int y, int w, int h)
{
	const struct mcpu	*c = &d->m->cpus[cpu];
	const struct mtask	*list[PIC_TASKS], *t;
	int			 n, nq, i, ax, aw, xx, px, r, nw, nlab, rows;
	int			 hdr, rstep;
	long			 v, vmax = 0, step, span, next = 0, sl, lf;
	char			 ms[32], ms2[64];
	struct flow		 fl;

	n = picture_tasks(d, cpu, list, &nq, picture_by_vruntime);
	model_cq(c, MCQ_NEXT, &next);
	if (h < 2 || picture_fit(h - 1, nq, n) < nq) {
		/* Short: in vruntime order, each by how far past min. */
		flow_start(&fl, d, x, y, w, h);
		flow_word(&fl, "vruntime:");
		for (i = 0; i < nq; i++) {
			v = 0;
			model_q(list[i], MQ_VRUNTIME, &v);
			flow_task(&fl, list[i], list[i]->id == next ?
			    "◀ next" : picture_ms(ms, sizeof ms, v, 1));
		}
		flow_end(&fl);
		return;
	}
	nw = PIC_NAME_W < w / 4 ? PIC_NAME_W : w / 4;
	ax = x + nw + 1;
	/* Room for a label after a mark (wide: the name too). */
	aw = w - nw - 1 - (w >= 100 ? 36 + PIC_NAME_W : w >= 60 ? 22 : 7);
	if (aw < 10)
		aw = w - nw - 1;
	for (i = 0; i < nq; i++) {
		if (model_q(list[i], MQ_VRUNTIME, &v) == 0 && v > vmax)
			vmax = v;
	}
	nlab = aw / 8;
	step = picture_step(vmax > 1000 ? vmax : 1000, nlab);
	span = (vmax + step - 1) / step * step;
	if (span < step)
		span = step;
	/*
	 * The scale: 0 at min_vruntime, ms to the right; its numbers over
	 * the axis, or on it when the rows are few.
	 */
	hdr = picture_fit(h - 2, nq, n) == nq ? 2 : 1;
	for (px = ax; px < ax + aw; px++)
		grid_put(d->g, px, y + hdr - 1, d->gl->h, COL_STAIR);
	for (v = 0; v <= span; v += step) {
		px = ax + (int)(v * (aw - 1) / span);
		grid_put(d->g, px, y + hdr - 1, L'┼', COL_STAIR);
		grid_text(d->g, px + (hdr == 1), y, x + w,
		    picture_ms(ms, sizeof ms, v, 0), COL_RANK);
	}
	if (hdr == 2)
		grid_text(d->g, x, y, ax, "ms past", COL_HEADER);
	grid_text(d->g, x, y + hdr - 1, ax, hdr == 2 ? "min_vrt" :
	    "vruntime", COL_HEADER);
	rows = picture_fit(h - hdr, nq, n);
	rstep = picture_step_rows(h - hdr, nq, n);
	for (i = 0, r = y + hdr + (rstep > 1); i < rows; i++, r += rstep) {
		t = list[i];
		v = 0;
		model_q(t, MQ_VRUNTIME, &v);
		picture_name(d, t, x, r, ax - 1);
		px = ax + (int)((v < 0 ? 0 : v > span ? span : v) * (aw - 1) /
		    span);
		grid_put(d->g, px, r, L'●', picture_col(d, t));
		grid_tag(d->g, px, r, 1, GRID_TASK(t->id));
		xx = px + 2;
		/* Wide: the name again by its mark, for the back row. */
		if (w >= 100)
			xx = picture_name(d, t, xx, r, x + w) + 1;
		if (t->state == MTASK_RUNNING) {
			xx = grid_text(d->g, xx, r, x + w, "runs ",
			    COL_RUNNING);
			if (x + w - xx > PIC_GAUGE + 14 &&
			    model_q(t, MQ_SLICE_US, &sl) == 0 &&
			    model_q(t, MQ_LEFT_US, &lf) == 0) {
				xx = picture_gauge(d, t, xx, r, x + w,
				    PIC_GAUGE);
				xx = grid_textf(d->g, xx, r, x + w,
				    COL_RUNNING, " %s of %s ms",
				    picture_ms(ms, sizeof ms,
				    lf < 0 ? 0 : lf, 0), picture_ms(ms2,
				    sizeof ms2, sl, 0));
			}
		} else if (t->id == next) {
			/* Narrow: the short word, not a cut long one. */
			snprintf(ms2, sizeof ms2, "◀ next: smallest (%s)",
			    picture_ms(ms, sizeof ms, v, 1));
			xx = grid_text(d->g, xx, r, x + w, x + w - xx >=
			    grid_width(ms2) ? ms2 : "◀ next", COL_TITLE);
		}
		else
			xx = grid_text(d->g, xx, r, x + w,
			    picture_ms(ms, sizeof ms, v, 1), COL_RANK);
		picture_weight(d, t, x + w - xx > 14 ? xx : -1, r, x + w);
	}
	if (i < nq)
		grid_textf(d->g, x, r, x + w, COL_SKIP, "+%d more", nq - i);
	else if (r < y + h)
		picture_asleep(d, list, nq, n, x, y + h - 1, x + w, 0);
}

/*
 * eevdf: the line V down the middle; a row per queued task, its mark
 * at its vruntime (left of V: owed, eligible) and its bar to its
 * virtual deadline; the pick (eligible, earliest deadline) marked.
 */
static void
picture_lag(struct draw *d, int cpu, int x, int y, int w, int h)
{
	const struct mcpu	*c = &d->m->cpus[cpu];
	const struct mtask	*list[PIC_TASKS], *t;
	int			 n, nq, i, ax, aw, vx, half, p0, p1, r, nw, xx;
	int			 rows, k, hdr, step;
	long			 v, dl, lag, R = 1000, next = 0, el;
	char			 ms[32], ms2[64];
	struct flow		 fl;

	n = picture_tasks(d, cpu, list, &nq, picture_by_vruntime);
	model_cq(c, MCQ_NEXT, &next);
	if (picture_fit(h, nq, n) < nq) {
		/* Short: the eligible ones, then the others, by lag. */
		flow_start(&fl, d, x, y, w, h);
		for (k = 1; k >= 0; k--) {
			flow_word(&fl, k ? "eligible:" : "not:");
			for (i = 0; i < nq; i++) {
				el = 0;
				model_q(list[i], MQ_ELIGIBLE, &el);
				if ((el != 0) != k)
					continue;
				lag = 0;
				model_q(list[i], MQ_LAG, &lag);
				snprintf(ms2, sizeof ms2, "%s%s",
				    picture_ms(ms, sizeof ms, lag, 1),
				    list[i]->id == next ? " ◀ next" : "");
				flow_task(&fl, list[i], ms2);
			}
		}
		flow_end(&fl);
		return;
	}
	nw = PIC_NAME_W < w / 4 ? PIC_NAME_W : w / 4;
	ax = x + nw + 1;
	aw = w - nw - 1 - 9;		/* " d 12.3" after a deadline */
	if (aw < 9)
		aw = w - nw - 1;
	half = (aw - 1) / 2;
	vx = ax + half;
	for (i = 0; i < nq; i++) {
		if (model_q(list[i], MQ_VRUNTIME, &v) == 0 && labs(v) > R)
			R = labs(v);
		if (model_q(list[i], MQ_DEADLINE, &v) == 0 && labs(v) > R)
			R = labs(v);
	}
	/* The heading: owed on the left of V, ahead on its right. */
	hdr = picture_fit(h - 1, nq, n) == nq;
	if (hdr) {
		xx = half > 22 ? vx - 18 : ax;
		grid_text(d->g, xx, y, vx - 1, half > 22 ?
		    "◀ owed: eligible" : "◀ owed", COL_HEADER);
		grid_put(d->g, vx, y, L'V', COL_TITLE);
		grid_text(d->g, vx + 2, y, x + w, half > 22 ?
		    "ahead: not eligible ▶" : "ahead ▶", COL_HEADER);
	}
	rows = picture_fit(h - hdr, nq, n);
	step = picture_step_rows(h - hdr, nq, n);
	for (i = 0, r = y + hdr + (step > 1); i < rows; i++, r += step) {
		if (step > 1)
			grid_put(d->g, vx, r - 1, d->gl->v, COL_TITLE);
		t = list[i];
		v = dl = lag = 0;
		model_q(t, MQ_VRUNTIME, &v);
		model_q(t, MQ_DEADLINE, &dl);
		model_q(t, MQ_LAG, &lag);
		picture_name(d, t, x, r, ax - 1);
		p0 = vx + (int)(v * half / R);
		p1 = vx + (int)(dl * half / R);
		if (p1 <= p0)
			p1 = p0 + 1;
		grid_put(d->g, vx, r, d->gl->v, COL_TITLE);
		for (xx = p0 + 1; xx < p1; xx++)
			grid_put(d->g, xx, r, xx == vx ? L'┿' : L'━',
			    picture_col(d, t));
		grid_put(d->g, p0, r, L'●', picture_col(d, t));
		grid_put(d->g, p1, r, L'┫', picture_col(d, t));
		grid_tag(d->g, p0, r, p1 - p0 + 1, GRID_TASK(t->id));
		xx = grid_textf(d->g, p1 + 1, r, x + w, COL_RANK, " d %s",
		    picture_ms(ms, sizeof ms, dl, 0));
		picture_weight(d, t, t->state != MTASK_RUNNING &&
		    t->id != next ? xx : -1, r, x + w);
		if (t->state == MTASK_RUNNING || t->id == next) {
			/* Left of the bar, when it has room there. */
			snprintf(ms2, sizeof ms2, "%s lag %s",
			    t->state == MTASK_RUNNING ? "runs," : "next,",
			    picture_ms(ms, sizeof ms, lag, 1));
			if (p0 - ax > grid_width(ms2) + 1)
				grid_text(d->g, p0 - grid_width(ms2) - 1, r,
				    p0, ms2, t->state == MTASK_RUNNING ?
				    COL_RUNNING : COL_TITLE);
			else if (x + w - xx - 1 >= grid_width(ms2))
				grid_text(d->g, xx + 1, r, x + w, ms2,
				    t->state == MTASK_RUNNING ? COL_RUNNING :
				    COL_TITLE);
			else if (t->id == next && x + w - xx >= 6)
				grid_text(d->g, xx + 1, r, x + w, "◀ next",
				    COL_TITLE);
		}
	}
	if (i < nq)
		grid_textf(d->g, x, r, x + w, COL_SKIP, "+%d more", nq - i);
	else if (r < y + h)
		picture_asleep(d, list, nq, n, x, y + h - 1, x + w, 1);
}

/* rr: the FIFO from its head (the cpu line's order=), wrapped. */
static void
picture_queue(struct draw *d, int cpu, int x, int y, int w, int h)
{
	const struct mcpu	*c = &d->m->cpus[cpu];
	const struct mtask	*list[PIC_TASKS], *t;
	int			 n, nq, i, xx, r = y, need, k;
	char			 buf[MODEL_NAME_MAX + 8];

	n = picture_tasks(d, cpu, list, &nq, NULL);
	xx = grid_text(d->g, x, r, x + w, "head ", COL_HEADER);
	for (i = 0; i < c->norder; i++) {
		if ((t = model_task(d->m, c->order[i])) == NULL)
			continue;
		need = (int)strlen(t->name) + 3;
		if (t->state == MTASK_RUNNING)
			need += PIC_GAUGE + 14;
		if (i > 0 && xx + need > x + w) {
			if (r + 1 >= y + h - (n > nq && h > 2)) {
				grid_textf(d->g, x + w - 4, r, x + w, COL_SKIP,
				    "+%d", c->norder - i);
				break;
			}
			r++;
			xx = x + 5;
		}
		if (i > 0)
			xx = grid_text(d->g, xx, r, x + w, "→ ", COL_STAIR);
		if (t->state == MTASK_RUNNING) {
			xx = grid_text(d->g, xx, r, x + w, "[", COL_RUNNING);
			xx = picture_name(d, t, xx, r, x + w);
			xx = grid_text(d->g, xx, r, x + w, " ", COL_RUNNING);
			xx = picture_gauge(d, t, xx, r, x + w, PIC_GAUGE);
			xx = grid_textf(d->g, xx, r, x + w, COL_RUNNING,
			    " %d of %d ms]", t->left, t->slice);
			xx++;
		} else
			xx = picture_name(d, t, xx, r, x + w) + 1;
	}
	if (c->norder <= 0) {
		k = snprintf(buf, sizeof buf, "empty");
		grid_text(d->g, xx, r, xx + k, buf, COL_SKIP);
	}
	if (r + 1 < y + h)
		picture_asleep(d, list, nq, n, x, y + h - 1, x + w, 0);
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
