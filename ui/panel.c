/*
 * panel.c -- the CPU panels: one staircase per CPU, each task on its
 * rank's stair (the running one with its gauge), laid out side by side
 * and wrapped into rows, compressed to the ranks that matter when the
 * screen is short.  Pure: into a grid.
 *
 * Every runnable task must be readable on its stair: a task is written
 * with its whole name when there is room, else with the longest prefix
 * of its name that no other task's name starts with and an ellipsis,
 * else as "#id"; only what does not fit even so is counted as "+N".
 * The panels of one row share their rank rows, so a rank is on the same
 * screen line across the row.  The layout (how many panels a row) is
 * chosen by drawing each candidate aside and keeping the one that hides
 * and cuts the fewest tasks, then skips the fewest ranks; beyond
 * PANEL_MAX_CPUS, or when no layout shows every task, the CPUs are a
 * list instead (cpulist.c).
 *
 * Big type (panel_big), for one or two CPUs with room to spare: each
 * rank takes two or three rows, the stairs step wider and join with a
 * riser, the running task's gauge is twice as long and its name is in
 * big letters in the corner (panel_banner), so the staircase fills a
 * large screen and reads from the back of a room.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "stairs.h"
#include "xmalloc.h"

#define PANEL_MIN	24	/* a comfortable panel width */
#define PANEL_TINY	14	/* the narrowest panel */
#define PANEL_LABEL	4	/* "139⋮" before the stairs */
#define PANEL_ROOM	20	/* at most kept right of the last stair */
#define PANEL_GAUGE	10	/* the widest `left` gauge */
#define PANEL_GAUGE_MIN	2	/* the narrowest */
#define PANEL_GAUGE_LIST 5	/* the widest in the CPU list */
#define PANEL_ITEMS	128	/* tasks a line can show at most */
#define PANEL_KEEP_FRAMES 30	/* frames a layout choice is kept */
#define PANEL_BIG_TALL	3	/* big type: rows a rank at most */
#define PANEL_BIG_MINW	60	/* big type: a panel this wide at least */
#define PANEL_BIG_STEP	8	/* big type: columns a stair at most */
#define PANEL_BIG_GAUGE	20	/* big type: the widest gauge */

/*
 * Sort the tasks on the stairs by CPU (a counting sort, so each CPU's
 * stay in id order): one pass for all panels instead of one per row.
 */
static void
panel_index(struct draw *d)
{
	const struct model	*m = d->m;
	const struct mtask	*t;
	int			*pos, i, c;

	d->cstart = xcalloc(m->ncpus + 1, sizeof *d->cstart);
	d->bycpu = xcalloc(m->ntasks + 1, sizeof *d->bycpu);
	d->pl = xcalloc(m->ntasks + 1, sizeof *d->pl);
	pos = xcalloc(m->ncpus + 1, sizeof *pos);
	for (i = 0; i < m->ntasks; i++) {
		t = &m->tasks[i];
		if (t->state != MTASK_EXITED && t->cpu >= 0 &&
		    t->cpu < m->ncpus)
			d->cstart[t->cpu + 1]++;
	}
	for (c = 0; c < m->ncpus; c++) {
		d->cstart[c + 1] += d->cstart[c];
		pos[c] = d->cstart[c];
	}
	for (i = 0; i < m->ntasks; i++) {
		t = &m->tasks[i];
		if (t->state != MTASK_EXITED && t->cpu >= 0 &&
		    t->cpu < m->ncpus)
			d->bycpu[pos[t->cpu]++] = t;
	}
	free(pos);
}

/* Sort one CPU's tasks by rank, running, runnable, then sleeping. */
void
panel_index_cpu(struct draw *d, int cpu)
{
	static const enum mtask_state	 order[] = {
		MTASK_RUNNING, MTASK_RUNNABLE, MTASK_SLEEPING
	};
	const struct mtask		*t;
	int				 pos[MODEL_BOTTOM + 1], i, r, k;

	memset(d->rstart, 0, sizeof d->rstart);
	for (i = d->cstart[cpu]; i < d->cstart[cpu + 1]; i++)
		d->rstart[d->bycpu[i]->rank + 1]++;
	for (r = 0; r <= MODEL_BOTTOM; r++) {
		d->rstart[r + 1] += d->rstart[r];
		pos[r] = d->rstart[r];
	}
	for (k = 0; k < 3; k++) {
		for (i = d->cstart[cpu]; i < d->cstart[cpu + 1]; i++) {
			t = d->bycpu[i];
			if (t->state == order[k])
				d->pl[pos[t->rank]++] = t;
		}
	}
}

/* A rank row a panel shows, and what is on it. */
struct prow {
	int		 rank;
	int		 gap;		/* a skip mark line, not a rank */
	int		 skipped_after;	/* ranks skipped below this one */
};

/* Add a rank to a sorted set of ranks (no duplicates). */
static void
panel_rank_add(int *set, int *n, int rank)
{
	int	i, j;

	for (i = 0; i < *n; i++) {
		if (set[i] == rank)
			return;
		if (set[i] > rank)
			break;
	}
	for (j = *n; j > i; j--)
		set[j] = set[j - 1];
	set[i] = rank;
	(*n)++;
}

/* How many lines a rank set takes with a skip line at each gap. */
static int
panel_rank_lines(const int *set, int n)
{
	int	i, lines = n;

	for (i = 1; i < n; i++) {
		if (set[i] != set[i - 1] + 1)
			lines++;
	}
	return (lines);
}

/* Remove a rank from a sorted set. */
static void
panel_rank_del(int *set, int *n, int rank)
{
	int	i;

	for (i = 0; i < *n; i++) {
		if (set[i] == rank) {
			memmove(&set[i], &set[i + 1],
			    (*n - i - 1) * sizeof *set);
			(*n)--;
			return;
		}
	}
}

/*
 * Use the lines a compressed panel has left for the ranks nearest those
 * it shows, the ones just below first (where tasks go next), so the
 * panel is as full a staircase as fits.  set has room for every rank.
 */
static int
panel_rank_fill(int *set, int n, int first, int bottom, int lines)
{
	int	orig[MODEL_BOTTOM + 1], norig, d, i, k, r, before;

	memcpy(orig, set, n * sizeof *set);
	norig = n;
	for (d = 1; d <= bottom - first; d++) {
		for (i = 0; i < norig; i++) {
			for (k = 0; k < 2; k++) {
				r = k == 0 ? orig[i] + d : orig[i] - d;
				if (r < first || r > bottom)
					continue;
				before = n;
				panel_rank_add(set, &n, r);
				if (n == before)
					continue;
				if (panel_rank_lines(set, n) > lines)
					panel_rank_del(set, &n, r);
				if (panel_rank_lines(set, n) == lines)
					return (n);
			}
		}
	}
	return (n);
}

/*
 * Choose the rank rows of the panels of CPUs [c0, c1), one panel row:
 * every rank if they fit, else the ranks in use, the tasks' static ranks
 * and the bottom, with skip lines where there is room for them.  The
 * panels of a row share them, so a rank is on the same line in each.
 * Returns the number of rows; *firstp is the best rank they start from.
 */
static int
panel_rows(struct draw *d, int c0, int c1, int lines, struct prow *rows,
    int *firstp)
{
	const struct mtask	*t;
	int			 used[MODEL_BOTTOM + 1], nused = 0;
	int			 all[MODEL_BOTTOM + 1], nall = 0;
	int			 some[MODEL_BOTTOM + 1], nsome = 0;
	char			 mused[MODEL_BOTTOM + 1];
	char			 mall[MODEL_BOTTOM + 1];
	char			 msome[MODEL_BOTTOM + 1];
	int			*set, n, i, j, gaps, first, st;

	/* From the best static rank of these CPUs' tasks (any, if none). */
	first = MODEL_BOTTOM + 1;
	memset(mused, 0, sizeof mused);
	memset(mall, 0, sizeof mall);
	memset(msome, 0, sizeof msome);
	for (i = d->cstart[c0]; i < d->cstart[c1]; i++) {
		t = d->bycpu[i];
		st = t->top;
		if (t->rank < first)
			first = t->rank;
		if (st < first)
			first = st;
		if (t->state != MTASK_SLEEPING)
			mused[t->rank] = msome[t->rank] = msome[st] = 1;
		mall[t->rank] = mall[st] = 1;
	}
	for (i = 0; i <= MODEL_BOTTOM; i++) {
		if (mused[i])
			used[nused++] = i;
		if (msome[i])
			some[nsome++] = i;
		if (mall[i])
			all[nall++] = i;
	}
	if (first > MODEL_BOTTOM)
		first = d->top_static;
	*firstp = first;
	if (lines <= 0)
		return (0);
	if (d->bottom - first + 1 <= lines) {
		for (i = 0; i <= d->bottom - first; i++) {
			memset(&rows[i], 0, sizeof rows[i]);
			rows[i].rank = first + i;
		}
		return (i);
	}
	for (i = 0; i < nsome; i++)
		panel_rank_add(all, &nall, some[i]);
	panel_rank_add(all, &nall, d->bottom);
	panel_rank_add(some, &nsome, d->bottom);
	if (panel_rank_lines(all, nall) <= lines) {
		set = all;
		n = nall;
	} else if (panel_rank_lines(some, nsome) <= lines) {
		set = some;
		n = nsome;
	} else if (nsome <= lines) {
		set = some;
		n = nsome;
	} else if (nused > 0) {
		/* Only the best ranks in use fit; the rest are "+N". */
		set = used;
		n = nused < lines ? nused : lines;
	} else {
		set = some;
		n = lines;
	}
	gaps = panel_rank_lines(set, n) <= lines;
	if (gaps)
		n = panel_rank_fill(set, n, first, d->bottom, lines);
	for (i = j = 0; i < n && j < lines; i++) {
		memset(&rows[j], 0, sizeof rows[j]);
		rows[j].rank = set[i];
		if (i + 1 < n && set[i + 1] != set[i] + 1) {
			if (gaps && j + 1 < lines) {
				j++;
				memset(&rows[j], 0, sizeof rows[j]);
				rows[j].gap = 1;
				rows[j].rank = set[i];
			} else
				rows[j].skipped_after = 1;
		}
		j++;
	}
	return (j);
}

/* Draw a gauge of `left` (full part = ticks left of the slice). */
static int
panel_gauge(struct draw *d, int x, int y, int width, const struct mtask *t)
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

/* How many digits n has. */
int
panel_digits(int n)
{
	int	k = 1;

	while (n >= 10) {
		n /= 10;
		k++;
	}
	return (k);
}

/* The length of the common prefix of two strings. */
static size_t
panel_lcp(const char *a, const char *b)
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
panel_unique_prefix(const struct draw *d, const char *name)
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
		l = panel_lcp(name, d->names[lo + 1]);
		if (l + 1 > need)
			need = l + 1;
	}
	if (lo > 0) {
		l = panel_lcp(name, d->names[lo - 1]);
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
static int
panel_label(const struct draw *d, const struct mtask *t, int budget,
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
	p = panel_unique_prefix(d, t->name);
	if (p > 0 && (int)p + 1 <= budget) {
		snprintf(buf, len, "%.*s…", budget - 1, t->name);
		return (budget);
	}
	idw = 1 + panel_digits(t->id);
	if (idw <= budget) {
		snprintf(buf, len, "#%d", t->id);
		return (idw);
	}
	buf[0] = '\0';
	return (0);
}

/* The narrowest label that names a task: name, "prefix…" or "#id". */
static int
panel_label_min(const struct draw *d, const struct mtask *t)
{
	size_t	p;
	int	w, idw;

	w = grid_width(t->name);
	idw = 1 + panel_digits(t->id);
	p = panel_unique_prefix(d, t->name);
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
panel_extra(const struct pitem *it)
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
		it[i].w = panel_label_min(d, t);
		rest = n - i - 1 + more;
		reserve = rest > 0 ? 2 + panel_digits(rest) : 0;
		need = (i > 0) + it[i].tag + it[i].w + panel_extra(&it[i]);
		if (used + need + reserve > xmax - x &&
		    t->state == MTASK_RUNNING) {
			/* No room for a gauge: the name alone. */
			it[i].gauge = -1;
			need = (i > 0) + it[i].tag + it[i].w + 2;
		}
		if (used + need + reserve > xmax - x)
			break;
		panel_label(d, t, it[i].w, it[i].label, sizeof it[i].label,
		    &it[i].cut);
		used += need;
		prev = t->rank;
	}
	shown = i;
	rest = n - shown + more;
	reserve = rest > 0 ? 2 + panel_digits(rest) : 0;
	surplus = xmax - x - used - reserve;

	/* Whole names again (or longer prefixes) where there is room. */
	for (i = 0; i < shown && surplus > 0; i++) {
		if (!it[i].cut)
			continue;
		full = grid_width(it[i].t->name);
		w = it[i].w + surplus;
		if (w > full)
			w = full;
		w = panel_label(d, it[i].t, w, buf, sizeof buf, &cut);
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
				x = panel_gauge(d, x, y, it[i].gauge, t);
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

/* The runnable tasks of a CPU (the running one included). */
static int
panel_nrun(const struct draw *d, int cpu)
{
	int	i, n = 0;

	for (i = d->cstart[cpu]; i < d->cstart[cpu + 1]; i++)
		n += d->bycpu[i]->state != MTASK_SLEEPING;
	return (n);
}

/* A task's label in a panel's title, in parentheses if paren. */
static int
panel_title_label(struct grid *g, int x, int y, int xmax, const char *label,
    enum col col, int paren)
{
	if (paren)
		x = grid_text(g, x, y, xmax, "(", col);
	x = grid_text(g, x, y, xmax, label, col);
	if (paren)
		x = grid_text(g, x, y, xmax, ")", col);
	return (x);
}

/*
 * The title of a panel from x to xmax: the CPU, the task that ran in
 * the last tick and nr; the task's label shortened like those on the
 * stairs, nr dropped last.  A task that has just slept (put to sleep
 * while paused: the CPU picks another at the next tick) is in
 * parentheses, as on its stair.  A click on the label selects the task.
 */
static void
panel_title(struct draw *d, int cpu, int x, int y, int xmax)
{
	const struct model	*m = d->m;
	const struct mcpu	*c = &m->cpus[cpu];
	const struct mtask	*t;
	struct grid		*g = d->g;
	char			 buf[MODEL_NAME_MAX + 8], nr[32];
	int			 nrw, w, cut, x0, paren;
	enum col		 col;

	x = grid_textf(g, x, y, xmax, COL_TITLE, " CPU%d ", c->id);
	x0 = x;
	nrw = snprintf(nr, sizeof nr, " nr %d ", c->nr);
	t = c->task > 0 ? model_task(m, c->task) : NULL;
	if (t == NULL) {
		x = grid_text(g, x, y, xmax, "idle", COL_TITLE);
		grid_text(g, x, y, xmax, nr, COL_TITLE);
		return;
	}
	col = t->state == MTASK_RUNNING && t->cpu == cpu ? COL_RUNNING :
	    COL_TITLE;
	paren = t->state == MTASK_SLEEPING ? 2 : 0;
	w = panel_label(d, t, xmax - x - nrw - paren, buf, sizeof buf, &cut);
	if (w > 0) {
		x = panel_title_label(g, x, y, xmax, buf, col, paren);
		grid_tag(g, x0, y, x - x0, GRID_TASK(t->id));
		grid_text(g, x, y, xmax, nr, COL_TITLE);
		return;
	}
	if (panel_label(d, t, xmax - x - paren, buf, sizeof buf, &cut) > 0) {
		x = panel_title_label(g, x, y, xmax, buf, col, paren);
		grid_tag(g, x0, y, x - x0, GRID_TASK(t->id));
	}
}

/* The rank rows that fit in lines, a rank every tall lines. */
static int
panel_fit(int lines, int tall)
{
	return (lines >= 1 ? (lines - 1) / tall + 1 : 0);
}

/*
 * Big type's letters: 3 x 5 pixels each, a row of 3 bits (the left one
 * 4) per pixel row, drawn with half blocks two pixel rows a cell row:
 * a letter is 3 columns by 3 rows.  Names are letters, digits, - _ .;
 * letters are capitals, anything else a '?'.
 */
static const struct {
	char		 ch;
	unsigned char	 rows[5];
} panel_font[] = {
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
panel_glyph(char c)
{
	size_t	i, n = sizeof panel_font / sizeof panel_font[0];

	if (c >= 'a' && c <= 'z')
		c -= 'a' - 'A';
	for (i = 0; i < n; i++) {
		if (panel_font[i].ch == c)
			return (panel_font[i].rows);
	}
	return (panel_font[n - 1].rows);
}

/* Whether the cells [x0, x1] x [y0, y1] are blank. */
static int
panel_blank(const struct grid *g, int x0, int y0, int x1, int y1)
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
static void
panel_banner(struct draw *d, int cpu, int x0, int y0, int x1, int y1)
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
	    !panel_blank(d->g, x - 1, y0, x1 - 1, y0 + 3))
		return;
	for (i = 0; i < n; i++, x += 4) {
		gl = panel_glyph(t->name[i]);
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

/* Where stairs go: the same for every panel of one size. */
struct pgeom {
	int		 nstep;		/* stairs the span is cut into */
	int		 span;		/* columns the stairs step over */
	int		 tall;		/* rows a rank (big type), else 1 */
};

/*
 * Draw one CPU's panel in the box at (x, y), w x h, with the rank rows
 * of its panel row.
 */
static void
panel_one(struct draw *d, int cpu, int x, int y, int w, int h,
    const struct prow *rows, int n, const struct pgeom *pg)
{
	struct grid		*g = d->g;
	const struct mtask	**list;
	int			 i, ix, iw, k, sx, sw, yy, cnt, more, r, j;
	int			 rise = 0, spread, prev = 0;
	char			 label[8];

	if (w < 4 || h < 2)
		return;
	/* The box. */
	grid_put(g, x, y, d->gl->tl, COL_BORDER);
	grid_fill(g, x + 1, y, w - 2, d->gl->h, COL_BORDER);
	grid_put(g, x + w - 1, y, d->gl->tr, COL_BORDER);
	for (i = 1; i < h - 1; i++) {
		grid_put(g, x, y + i, d->gl->v, COL_BORDER);
		grid_put(g, x + w - 1, y + i, d->gl->v, COL_BORDER);
	}
	if (h >= 3) {
		grid_put(g, x, y + h - 1, d->gl->bl, COL_BORDER);
		grid_fill(g, x + 1, y + h - 1, w - 2, d->gl->h, COL_BORDER);
		grid_put(g, x + w - 1, y + h - 1, d->gl->br, COL_BORDER);
	}
	panel_title(d, cpu, x + 1, y, x + w - 1);

	ix = x + 1;
	iw = w - 2;
	panel_index_cpu(d, cpu);
	if (n == 0) {
		d->st_hidden += panel_nrun(d, cpu);
		return;
	}
	for (i = k = 0; i < n; i++) {
		/*
		 * A rank's row; in big type the ranks spread over the
		 * panel's lines, 2 or 3 rows apart (PANEL_BIG_TALL at most).
		 */
		yy = y + 1 + i;
		if (pg->tall > 1 && n > 1) {
			spread = h - 3;
			if (spread > (n - 1) * PANEL_BIG_TALL)
				spread = (n - 1) * PANEL_BIG_TALL;
			yy = y + 1 + i * spread / (n - 1);
		}
		sx = ix + PANEL_LABEL + k * pg->span / pg->nstep;
		sw = ix + PANEL_LABEL + (k + 1) * pg->span / pg->nstep - sx;
		if (sw < 1)
			sw = 1;
		if (sx + sw > ix + iw)
			sx = ix + iw - sw;
		if (rows[i].gap) {
			grid_put(g, ix + 1, yy, d->gl->skip, COL_SKIP);
			grid_put(g, sx, yy, d->gl->skip, COL_SKIP);
			rise = 0;
			continue;
		}
		snprintf(label, sizeof label, "%3d", rows[i].rank);
		grid_text(g, ix, yy, ix + iw, label, COL_RANK);
		if (rows[i].skipped_after)
			grid_put(g, ix + 3, yy, d->gl->skip, COL_SKIP);
		/* Big type: the rise from the stair above down to this one. */
		for (j = prev + 1; rise && j <= yy &&
		    sx - 1 >= ix + PANEL_LABEL; j++)
			grid_put(g, sx - 1, j, d->gl->riser, COL_STAIR);
		grid_fill(g, sx, yy, sw, d->gl->stair, COL_STAIR);
		rise = pg->tall > 1;
		prev = yy;
		/* Running, then runnable, then sleeping, each in id order. */
		list = d->pl + d->rstart[rows[i].rank];
		cnt = d->rstart[rows[i].rank + 1] - d->rstart[rows[i].rank];
		/* The last row also counts the runnable tasks below it. */
		more = 0;
		for (r = rows[i].rank + 1; i == n - 1 && r <= MODEL_BOTTOM;
		    r++) {
			for (j = d->rstart[r]; j < d->rstart[r + 1]; j++)
				more += d->pl[j]->state != MTASK_SLEEPING;
		}
		panel_line(d, list, cnt, more, sx + sw + 1, yy, ix + iw, 0);
		k++;
	}
	if (pg->tall > 1)
		panel_banner(d, cpu, ix, y + 1, ix + iw - 1, y + h - 1);
}

/*
 * The panel rows and columns the old way, for many CPUs: as many a row
 * as fit at a comfortable width, narrower when the rows do not fit,
 * balanced.
 */
static int
panel_cols_default(const struct draw *d, int avail)
{
	int	ncpu = d->m->ncpus, cols, prow, maxrow;

	cols = d->g->w / PANEL_MIN;
	if (cols < 1)
		cols = 1;
	if (cols > ncpu)
		cols = ncpu;
	maxrow = avail / 3;
	if (maxrow < 1)
		maxrow = 1;
	prow = (ncpu + cols - 1) / cols;
	if (prow > maxrow) {
		/* Narrower panels, down to the tiny width. */
		cols = (ncpu + maxrow - 1) / maxrow;
		if (cols > d->g->w / PANEL_TINY)
			cols = d->g->w / PANEL_TINY;
		if (cols < 1)
			cols = 1;
	}
	prow = (ncpu + cols - 1) / cols;
	/* Balance the rows: 8 CPUs at 5 a row are better 4 and 4. */
	return ((ncpu + prow - 1) / prow);
}

/*
 * Lay the panels out cols to a row in the rows [y, y + avail), wrapping,
 * and scrolling by whole rows when even the smallest panels do not fit.
 * Returns the lines used.
 */
static int
panel_layout(struct draw *d, int y, int avail, int cols)
{
	const struct model	*m = d->m;
	struct view		*v = d->v;
	struct grid		*g = d->g;
	struct prow		 rows[2 * (MODEL_BOTTOM + 1)];
	struct pgeom		 pg;
	int			 ncpu = m->ncpus, prow, maxrow, ph, pw, room;
	int			 natural, shown, r, col, cpu, x, w, i, n, c0;
	int			 c1, first, nrank;

	prow = (ncpu + cols - 1) / cols;
	pw = g->w / cols;
	maxrow = avail / 3;
	if (maxrow < 1)
		maxrow = 1;
	pg.tall = d->tall > 0 ? d->tall : 1;
	if (pg.tall > 1)	/* big type: spread over what there is */
		natural = (d->bottom - d->top_static) * PANEL_BIG_TALL + 3;
	else
		natural = d->bottom - d->top_static + 1 + 2;
	shown = prow < maxrow ? prow : maxrow;
	ph = avail / shown;
	if (ph > natural)
		ph = natural;
	if (ph < 2)
		ph = 2;

	/*
	 * Stairs step right by as much as leaves half the panel (PANEL_ROOM
	 * columns at least) after the bottom stair for its tasks (where
	 * hogs live, several to a stair): the span in
	 * columns over nstep stairs, fractional steps (a stair can be one
	 * column, or share its column with the next: narrow panels are
	 * steep), at most 4 a stair.
	 * The same on every panel of this size, whatever ranks each shows,
	 * so that nothing jumps when tasks move.
	 */
	pg.nstep = d->bottom - d->top_static + 1;
	if (pg.nstep > panel_fit(ph - 2, pg.tall))
		pg.nstep = panel_fit(ph - 2, pg.tall);
	if (pg.nstep < 1)
		pg.nstep = 1;
	room = (pw - 2 - PANEL_LABEL) / 2;
	/* Big type: two thirds of the panel for wider stairs. */
	if (d->tall > 0)
		room = (pw - 2 - PANEL_LABEL) / 3;
	if (room < PANEL_ROOM)
		room = PANEL_ROOM;
	pg.span = pw - 2 - PANEL_LABEL - room;
	if (pg.span > (d->tall > 0 ? PANEL_BIG_STEP : 4) * pg.nstep)
		pg.span = (d->tall > 0 ? PANEL_BIG_STEP : 4) * pg.nstep;
	if (pg.span < 0)
		pg.span = 0;

	v->cpu_rows = prow;
	v->cpu_rows_shown = shown;
	if (v->cpu_top > prow - shown)
		v->cpu_top = prow - shown;
	if (v->cpu_top < 0)
		v->cpu_top = 0;
	for (r = 0; r < shown; r++) {
		c0 = (v->cpu_top + r) * cols;
		c1 = c0 + cols < ncpu ? c0 + cols : ncpu;
		n = panel_rows(d, c0, c1, panel_fit(ph - 2, pg.tall), rows,
		    &first);
		for (i = nrank = 0; i < n; i++)
			nrank += !rows[i].gap;
		if (pg.nstep < nrank)
			pg.nstep = nrank;
		d->st_skipped += (d->bottom - first + 1 - nrank) *
		    (c1 - c0);
		d->st_step = pg.span * 100 / pg.nstep;
		for (col = 0; col < cols; col++) {
			cpu = c0 + col;
			if (cpu >= ncpu)
				break;
			x = col * pw;
			w = col == cols - 1 ? g->w - x : pw;
			panel_one(d, cpu, x, y + r * ph, w, ph, rows, n, &pg);
		}
	}
	/* The CPUs scrolled away hide their tasks. */
	for (cpu = 0; cpu < ncpu; cpu++) {
		if (cpu < v->cpu_top * cols ||
		    cpu >= (v->cpu_top + shown) * cols)
			d->st_hidden += panel_nrun(d, cpu);
	}
	if (shown < prow) {
		/* Say that there is more, on the last panel row's border. */
		i = y + shown * ph - 1;
		grid_textf(g, g->w - 24, i, g->w, COL_TITLE,
		    " CPU rows %d-%d/%d [ ] ", v->cpu_top + 1,
		    v->cpu_top + shown, prow);
	}
	return (shown * ph);
}

/* How good one layout looked: lower is better, in this order. */
struct pscore {
	int		 hidden;	/* runnable tasks not written */
	int		 cut;		/* tasks not by their whole name */
	int		 skipped;	/* ranks not drawn */
	int		 step;		/* -(columns a stair steps, x100) */
	int		 cols;		/* fewer rows (more columns) is better */
};

/*
 * How layouts a and b compare on the tasks they show and name whole:
 * below 0 a does better, above 0 b, 0 the same.
 */
static int
panel_shows(const struct pscore *a, const struct pscore *b)
{
	if (a->hidden != b->hidden)
		return (a->hidden - b->hidden);
	return (a->cut - b->cut);
}

/* Whether layout a looked better than b. */
static int
panel_better(const struct pscore *a, const struct pscore *b)
{
	int	r;

	if ((r = panel_shows(a, b)) != 0)
		return (r < 0);
	if (a->skipped != b->skipped)
		return (a->skipped < b->skipped);
	if (a->step != b->step)
		return (a->step < b->step);
	return (a->cols > b->cols);
}

/*
 * Whether layout a is enough better than b, the layout on screen, to
 * change to it: it shows or names more tasks whole, skips a fifth fewer
 * ranks, or draws stairs where b's are flat (under a column a stair)
 * and skips no more.  Smaller gains do not move a screen people are
 * watching (the demo at 80x24 went from side by side to stacked while
 * the cruncher's stairs started at 110, and back: 48 ranks skipped
 * against 44, test_layout_steady).
 */
static int
panel_worth(const struct pscore *a, const struct pscore *b)
{
	int	r;

	if ((r = panel_shows(a, b)) != 0)
		return (r < 0);
	if (a->skipped * 5 < b->skipped * 4)
		return (1);
	return (b->step > -100 && a->step <= -100 &&
	    a->skipped <= b->skipped);
}

/*
 * Draw a layout aside (cols panels a row, or 0 for the list) and score
 * it; the view's scrolling is left as it was.
 */
static void
panel_try(struct draw *d, struct grid *scratch, int y, int avail, int cols,
    struct pscore *sc)
{
	struct grid	*real = d->g;
	struct view	*v = d->v;
	int		 top = v->cpu_top, rows = v->cpu_rows;
	int		 shown = v->cpu_rows_shown;

	d->g = scratch;
	d->st_hidden = d->st_cut = d->st_skipped = d->st_step = 0;
	if (cols == 0)
		cpulist_draw(d, y, avail);
	else
		panel_layout(d, y, avail, cols);
	sc->hidden = d->st_hidden;
	sc->cut = d->st_cut;
	sc->skipped = d->st_skipped;
	/* Two columns a stair read as a staircase: no need for more. */
	sc->step = -(d->st_step < 200 ? d->st_step : 200);
	sc->cols = cols;
	d->g = real;
	v->cpu_top = top;
	v->cpu_rows = rows;
	v->cpu_rows_shown = shown;
}

/*
 * Choose how to show up to PANEL_MAX_CPUS CPUs in avail lines: each
 * count of panels a row whose rows all fit (balanced, no narrower than
 * PANEL_TINY) is drawn aside and the best kept; the list when no layout
 * shows every runnable task and the list shows more, unless panels were
 * asked for.  The choice stays while the screen keeps its size unless
 * another is enough better (panel_worth), so the layout does not flip
 * between equals, nor as a rank or two comes and goes.
 * Returns the panels a row, 0 for the list, or -1 when no panel layout
 * fits and panels were asked for.
 */
static int
panel_choose(struct draw *d, int y, int avail)
{
	struct view	*v = d->v;
	struct grid	 scratch;
	struct pscore	 sc, best, keep;
	int		 ncpu = d->m->ncpus, cols, prow, bestcols = -1;
	int		 keepcols = -1;

	grid_init(&scratch, d->g->w, d->g->h);
	scratch.ascii = d->g->ascii;
	memset(&best, 0, sizeof best);
	memset(&keep, 0, sizeof keep);
	for (cols = ncpu; cols >= 1; cols--) {
		prow = (ncpu + cols - 1) / cols;
		if ((ncpu + prow - 1) / prow != cols)
			continue;	/* unbalanced: 8 as 5 + 3 */
		if (d->g->w / cols < PANEL_TINY || prow * 3 > avail)
			continue;
		panel_try(d, &scratch, y, avail, cols, &sc);
		if (bestcols < 0 || panel_better(&sc, &best)) {
			best = sc;
			bestcols = cols;
		}
		if (cols == v->layout_cols) {
			keep = sc;
			keepcols = cols;
		}
	}
	if (v->cpu_view != VIEW_PANELS && (bestcols < 0 || best.hidden > 0)) {
		panel_try(d, &scratch, y, avail, 0, &sc);
		if (bestcols < 0 || sc.hidden < best.hidden) {
			best = sc;
			bestcols = 0;
		}
		if (v->layout_cols == 0) {
			keep = sc;
			keepcols = 0;
		}
	}
	grid_free(&scratch);
	if (keepcols >= 0 && v->layout_w == d->g->w &&
	    v->layout_h == avail && v->layout_n == ncpu &&
	    !panel_worth(&best, &keep))
		bestcols = keepcols;
	v->layout_w = d->g->w;
	v->layout_h = avail;
	v->layout_n = ncpu;
	v->layout_cols = bestcols;
	v->layout_frames = d->m->frames;
	v->layout_hidden = bestcols == keepcols ? keep.hidden : best.hidden;
	v->layout_cut = bestcols == keepcols ? keep.cut : best.cut;
	return (bestcols);
}

/* What a count chosen with may grow to before choosing again. */
static int
panel_slack(int n)
{
	return (n <= 0 ? n : n + n / 10 + 1);
}

/*
 * Draw the layout chosen last, if the screen has kept its size and the
 * choice is less than a second of frames old (and not the list where
 * panels are asked for), and it hides and cuts no more tasks than when
 * it was chosen: choosing draws every candidate aside, which costs.  Else the rows are blanked again and 0 returned,
 * to choose afresh.
 */
static int
panel_keep(struct draw *d, int y, int avail, int *lines)
{
	struct view	*v = d->v;
	struct grid	*g = d->g;
	int		 i;

	if (v->layout_w != g->w || v->layout_h != avail ||
	    v->layout_n != d->m->ncpus || v->layout_cols < 0 ||
	    (v->layout_cols == 0 && v->cpu_view == VIEW_PANELS) ||
	    d->m->frames - v->layout_frames >= PANEL_KEEP_FRAMES ||
	    d->m->frames < v->layout_frames)
		return (0);
	d->st_hidden = d->st_cut = d->st_skipped = 0;
	if (v->layout_cols == 0)
		*lines = cpulist_draw(d, y, avail);
	else
		*lines = panel_layout(d, y, avail, v->layout_cols);
	/*
	 * A layout that showed every task must still; one that could not
	 * (crowded stairs) may hide a tenth more before choosing again, or
	 * a crowd would choose at every frame.
	 */
	if (d->st_hidden <= panel_slack(v->layout_hidden) &&
	    d->st_cut <= panel_slack(v->layout_cut))
		return (1);
	for (i = y; i < y + avail && i < g->h; i++)
		grid_fill(g, 0, i, g->w, L' ', COL_DEFAULT);
	return (0);
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
	    v->cpu_view == VIEW_LIST ||
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

/*
 * Draw the CPUs in the rows [y, y + avail): index the tasks by CPU once
 * for all panels, then panels (as chosen, or asked for with the view
 * key) or the list.  Returns the lines used.
 */
int
panel_draw(struct draw *d, int y, int avail)
{
	const struct model	*m = d->m;
	struct view		*v = d->v;
	int			 lines = 0, cols;

	if (m->ncpus == 0 || avail < 2)
		return (0);
	panel_index(d);
	/* Sorted by the model: sorting them each draw was most of a draw. */
	d->names = m->names;
	d->nnames = m->nnames;

	d->tall = panel_big(d, avail);
	v->big_shown = d->tall > 0;
	if (d->tall > 0)
		cols = m->ncpus;	/* side by side: one row */
	else if (v->cpu_view == VIEW_LIST ||
	    (v->cpu_view == VIEW_AUTO && m->ncpus > PANEL_MAX_CPUS))
		cols = 0;
	else if (m->ncpus > PANEL_MAX_CPUS)
		cols = panel_cols_default(d, avail);
	else if (panel_keep(d, y, avail, &lines))
		cols = -1;	/* drawn */
	else {
		cols = panel_choose(d, y, avail);
		if (cols < 0)
			cols = panel_cols_default(d, avail);
	}
	d->st_hidden = d->st_cut = d->st_skipped = 0;
	if (cols == 0)
		lines = cpulist_draw(d, y, avail);
	else if (cols > 0)
		lines = panel_layout(d, y, avail, cols);

	d->names = NULL;
	d->nnames = 0;
	d->tall = 0;
	free(d->bycpu);
	free(d->cstart);
	free(d->pl);
	d->bycpu = d->pl = NULL;
	d->cstart = NULL;
	return (lines);
}
