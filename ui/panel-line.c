/*
 * panel-line.c -- the tasks on one stair (or one line of the CPU list):
 * the running one bracketed with the gauge of its `left`, the queued
 * ones, the sleeping ones in parentheses.  Every runnable task must be
 * readable: by its whole name when there is room, else by the longest
 * prefix that no other task's name starts with and an ellipsis, else
 * as "#id"; only what does not fit even so is counted as "+N".  Pure:
 * into a grid.
 */
#include <stdio.h>
#include <string.h>

#include "grid.h"
#include "model.h"
#include "pane.h"
#include "panel-int.h"

#define PANEL_GAUGE	10	/* the widest `left` gauge */
#define PANEL_GAUGE_MIN	2	/* the narrowest */
#define PANEL_GAUGE_LIST 5	/* the widest in the CPU list */
#define PANEL_BIG_GAUGE	20	/* big type: the widest gauge */
#define PANEL_ITEMS	128	/* tasks a line can show at most */

/* Draw a gauge of `left` (full part = ticks left of the slice). */
static int
panel_line_gauge(struct draw *d, int x, int y, int width, const struct mtask *t)
{
	int	allot, fill, i;

	/* The slice the daemon says `left` counts down from. */
	allot = t->slice;
	if (allot <= 0)
		allot = 1;
	fill = (t->left * width + allot - 1) / allot;
	if (fill > width)
		fill = width;
	if (fill < 0)
		fill = 0;
	for (i = 0; i < width; i++) {
		if (i < fill)
			grid_put(d->g, x + i, y, d->gl->full, COL_GAUGE);
		else
			grid_put(d->g, x + i, y, d->gl->empty, COL_GAUGE_EMPTY);
	}
	return (x + width);
}

/* The length of the common prefix of two strings. */
static size_t
panel_line_lcp(const char *a, const char *b)
{
	size_t	n = 0;

	while (a[n] != '\0' && a[n] == b[n])
		n++;
	return (n);
}

/*
 * The shortest prefix of a name that no other task's name starts with,
 * so that "prefix…" names that task alone; 0 when there is none shorter
 * than the name (it is a prefix of another name, or another task has it
 * too) or the name is not ASCII.  The names are sorted, so the names
 * that share most of it are its neighbours.
 */
static size_t
panel_line_prefix(const struct draw *d, const char *name)
{
	const unsigned char	*p;
	size_t			 lo = 0, hi = d->nnames, mid, need = 1, l;

	for (p = (const unsigned char *)name; *p != '\0'; p++) {
		if (*p >= 128)
			return (0);
	}
	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (strcmp(d->names[mid], name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= d->nnames || strcmp(d->names[lo], name) != 0)
		return (0);
	if (lo + 1 < d->nnames) {
		l = panel_line_lcp(name, d->names[lo + 1]);
		if (l + 1 > need)
			need = l + 1;
	}
	if (lo > 0) {
		l = panel_line_lcp(name, d->names[lo - 1]);
		if (l + 1 > need)
			need = l + 1;
	}
	if (need >= strlen(name))
		return (0);
	return (need);
}

/*
 * Write a task's label in at most budget columns: its name, else the
 * longest prefix that only it has with "…", else "#id".  Returns the
 * width, 0 when not even that fits; *cut says it is not the name.
 */
int
panel_line_label(const struct draw *d, const struct mtask *t, int budget,
    char *buf, size_t len, int *cut)
{
	size_t	p;
	int	w, idw;

	*cut = 0;
	w = grid_width(t->name);
	if (w <= budget) {
		snprintf(buf, len, "%s", t->name);
		return (w);
	}
	*cut = 1;
	p = panel_line_prefix(d, t->name);
	if (p > 0 && (int)p + 1 <= budget) {
		snprintf(buf, len, "%.*s…", budget - 1, t->name);
		return (budget);
	}
	idw = 1 + grid_digits(t->id);
	if (idw <= budget) {
		snprintf(buf, len, "#%d", t->id);
		return (idw);
	}
	buf[0] = '\0';
	return (0);
}

/* The narrowest label that names a task: name, "prefix…" or "#id". */
static int
panel_line_min(const struct draw *d, const struct mtask *t)
{
	size_t	p;
	int	w, idw;

	w = grid_width(t->name);
	idw = 1 + grid_digits(t->id);
	p = panel_line_prefix(d, t->name);
	if (p > 0 && (int)p + 1 < w)
		w = (int)p + 1;
	return (w < idw ? w : idw);
}

/* One task on a line, as it will be drawn. */
struct pitem {
	const struct mtask	*t;
	int			 tag;	/* width of its rank before it */
	int			 w;	/* its label's width */
	int			 gauge;	/* the running one's gauge, -1 none */
	int			 cut;	/* the label is not the whole name */
	char			 label[MODEL_NAME_MAX + 8];
};

/* The columns a task takes around its label: [ gauge ], ( ). */
static int
panel_line_extra(const struct pitem *it)
{
	if (it->t->state == MTASK_RUNNING)
		return (it->gauge < 0 ? 2 : 3 + it->gauge);
	if (it->t->state == MTASK_SLEEPING)
		return (2);
	return (0);
}

/*
 * Draw tasks on one line from x to xmax: the running one bracketed with
 * its gauge, queued ones, sleeping ones in parentheses, in list order.
 * First as many as fit in their narrowest labels; then, in order, the
 * room left makes labels whole again, and then the gauge wider; what
 * does not fit is "+N", counting `more` besides (tasks of this panel not
 * on any line).  tagrank writes a task's rank before it where the rank
 * changes (the list view).  Counts hidden and cut tasks in d.  Each
 * task's cells are tagged with its id: a click there selects it.
 */
void
panel_line(struct draw *d, const struct mtask *const *list, int n, int more,
    int x, int y, int xmax, int tagrank)
{
	struct pitem		 it[PANEL_ITEMS];
	struct grid		*g = d->g;
	const struct mtask	*t;
	int			 i, shown, used, need, rest, reserve, surplus;
	int			 prev, full, w, cut, sel, x0;
	enum col		 col;
	char			 buf[MODEL_NAME_MAX + 8];

	/* The narrowest forms, as many as fit in order. */
	prev = -1;
	used = 0;
	for (i = 0; i < n && i < PANEL_ITEMS; i++) {
		t = list[i];
		memset(&it[i], 0, sizeof it[i]);
		it[i].t = t;
		it[i].tag = tagrank && t->rank != prev ? 4 : 0;
		it[i].gauge = t->state == MTASK_RUNNING ? PANEL_GAUGE_MIN : 0;
		it[i].w = panel_line_min(d, t);
		rest = n - i - 1 + more;
		reserve = rest > 0 ? 2 + grid_digits(rest) : 0;
		need = (i > 0) + it[i].tag + it[i].w + panel_line_extra(&it[i]);
		if (used + need + reserve > xmax - x &&
		    t->state == MTASK_RUNNING) {
			/* No room for a gauge: the name alone. */
			it[i].gauge = -1;
			need = (i > 0) + it[i].tag + it[i].w + 2;
		}
		if (used + need + reserve > xmax - x)
			break;
		panel_line_label(d, t, it[i].w, it[i].label, sizeof it[i].label,
		    &it[i].cut);
		used += need;
		prev = t->rank;
	}
	shown = i;
	rest = n - shown + more;
	reserve = rest > 0 ? 2 + grid_digits(rest) : 0;
	surplus = xmax - x - used - reserve;

	/* Whole names again (or longer prefixes) where there is room. */
	for (i = 0; i < shown && surplus > 0; i++) {
		if (!it[i].cut)
			continue;
		full = grid_width(it[i].t->name);
		w = it[i].w + surplus;
		if (w > full)
			w = full;
		w = panel_line_label(d, it[i].t, w, buf, sizeof buf, &cut);
		if (w <= it[i].w)
			continue;
		surplus -= w - it[i].w;
		it[i].w = w;
		it[i].cut = cut;
		memcpy(it[i].label, buf, sizeof it[i].label);
	}
	/*
	 * Then a wider gauge; in the list, of one width, so that lines with
	 * names alike line up.
	 */
	for (i = 0; i < shown && surplus > 0; i++) {
		if (it[i].gauge <= 0)
			continue;
		w = (tagrank ? PANEL_GAUGE_LIST : d->tall > 0 ?
		    PANEL_BIG_GAUGE : PANEL_GAUGE) - it[i].gauge;
		if (w > surplus)
			w = surplus;
		it[i].gauge += w;
		surplus -= w;
	}

	for (i = 0; i < shown; i++) {
		t = it[i].t;
		sel = t->id == d->v->selected;
		if (i > 0)
			x++;
		if (it[i].tag > 0) {
			grid_textf(g, x, y, xmax, COL_RANK, "%3d", t->rank);
			x += it[i].tag;
		}
		d->st_cut += it[i].cut;
		x0 = x;
		if (t->state == MTASK_RUNNING) {
			x = grid_text(g, x, y, xmax, "[", COL_RUNNING);
			x = grid_text(g, x, y, xmax, it[i].label, COL_RUNNING);
			if (it[i].gauge > 0) {
				x = grid_text(g, x, y, xmax, " ", COL_RUNNING);
				x = panel_line_gauge(d, x, y, it[i].gauge, t);
			}
			x = grid_text(g, x, y, xmax, "]", COL_RUNNING);
		} else if (t->state == MTASK_SLEEPING) {
			col = sel ? COL_MARK : COL_SLEEPING;
			x = grid_text(g, x, y, xmax, "(", col);
			x = grid_text(g, x, y, xmax, it[i].label, col);
			x = grid_text(g, x, y, xmax, ")", col);
		} else
			x = grid_text(g, x, y, xmax, it[i].label,
			    sel ? COL_MARK : COL_QUEUED);
		grid_tag(g, x0, y, x - x0, GRID_TASK(t->id));
	}
	if (rest > 0) {
		if (shown > 0)
			x++;
		grid_textf(g, x, y, xmax, COL_QUEUED, "+%d", rest);
	}
	/* What a reader cannot find: runnable tasks not written. */
	for (i = shown; i < n; i++)
		d->st_hidden += list[i]->state != MTASK_SLEEPING;
	d->st_hidden += more;
}
