/*
 * picture-draw.c -- the pictures themselves (SPEC.md section 10): o1's
 * active and expired arrays, cfs's vruntime axis, eevdf's lag line and
 * virtual deadlines, rr's FIFO, each in a box's inside from what the
 * task and cpu lines carry (picture-base.c's helpers).  Pure.
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
 * o1: the active array on the left, the expired on the right, a row per
 * prio in use (its rank), each task with its bonus as a signed bar; the
 * expired array's age and the age it starves at over it.
 */
void
picture_arrays(struct draw *d, int cpu, int x, int y, int w, int h)
{
	const struct mcpu	*c = &d->m->cpus[cpu];
	const struct mtask	*list[PIC_TASKS], *t;
	int			 n, nq, i, a, half, row[2], x0, xx, xmax, k;
	int			 lastrank[2] = { -1, -1 }, more[2] = { 0, 0 };
	int			 rstep;
	long			 v, age = 0, starve = 0, arr;
	char			 buf[64];
	struct picture_flow		 fl;

	n = picture_tasks(d, cpu, list, &nq, picture_by_rank);
	half = w / 2;
	model_cq(c, MCQ_EXPIRED_MS, &age);
	model_cq(c, MCQ_STARVE_MS, &starve);
	for (i = k = 0; i < nq; i++)
		k += model_q(list[i], MQ_ARRAY, &arr) == 0 && arr != 0;
	if (h < 3 || nq - k > h - 1 - (n > nq) || k > h - 1) {
		/* Short: "active: 125 editor hog1 expired: hog2". */
		picture_flow_start(&fl, d, x, y, w, h);
		for (k = 0; k < 2; k++) {
			picture_flow_word_now(&fl, k ? "expired:" : h == 1 ?
			    "active:" : "active (prio bonus):");
			for (i = 0; i < nq; i++) {
				arr = 0;
				model_q(list[i], MQ_ARRAY, &arr);
				if ((arr != 0) != k)
					continue;
				v = 0;
				model_q(list[i], MQ_BONUS, &v);
				snprintf(buf, sizeof buf, "%d %+ld",
				    list[i]->rank, v);
				picture_flow_task(&fl, list[i], buf);
			}
		}
		picture_flow_end(&fl);
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
void
picture_vruntime(struct draw *d, int cpu, int x, int y, int w, int h)
{
	const struct mcpu	*c = &d->m->cpus[cpu];
	const struct mtask	*list[PIC_TASKS], *t;
	int			 n, nq, i, ax, aw, xx, px, r, nw, nlab, rows;
	int			 hdr, rstep;
	long			 v, vmax = 0, step, span, next = 0, sl, lf;
	char			 ms[32], ms2[64];
	struct picture_flow		 fl;

	n = picture_tasks(d, cpu, list, &nq, picture_by_vruntime);
	model_cq(c, MCQ_NEXT, &next);
	if (h < 2 || picture_fit(h - 1, nq, n) < nq) {
		/* Short: in vruntime order, each by how far past min. */
		picture_flow_start(&fl, d, x, y, w, h);
		picture_flow_word(&fl, "vruntime:");
		for (i = 0; i < nq; i++) {
			v = 0;
			model_q(list[i], MQ_VRUNTIME, &v);
			picture_flow_task(&fl, list[i], list[i]->id == next ?
			    "◀ next" : picture_ms(ms, sizeof ms, v, 1));
		}
		picture_flow_end(&fl);
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
void
picture_lag(struct draw *d, int cpu, int x, int y, int w, int h)
{
	const struct mcpu	*c = &d->m->cpus[cpu];
	const struct mtask	*list[PIC_TASKS], *t;
	int			 n, nq, i, ax, aw, vx, half, p0, p1, r, nw, xx;
	int			 rows, k, hdr, step;
	long			 v, dl, lag, R = 1000, next = 0, el;
	char			 ms[32], ms2[64];
	struct picture_flow		 fl;

	n = picture_tasks(d, cpu, list, &nq, picture_by_vruntime);
	model_cq(c, MCQ_NEXT, &next);
	if (picture_fit(h, nq, n) < nq) {
		/* Short: the eligible ones, then the others, by lag. */
		picture_flow_start(&fl, d, x, y, w, h);
		for (k = 1; k >= 0; k--) {
			picture_flow_word(&fl, k ? "eligible:" : "not:");
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
				picture_flow_task(&fl, list[i], ms2);
			}
		}
		picture_flow_end(&fl);
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
void
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
