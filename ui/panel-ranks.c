/*
 * panel-ranks.c -- the rank rows of one row of CPU panels: every rank
 * from the row's best static rank down to the bottom when they fit;
 * else the ranks in use, the static ranks and the bottom, with the
 * ranks nearest those (just below a task first, where it goes next)
 * filling what room is left, and a skip mark where ranks are left out.
 * The panels of a row share them, so a rank is on the same screen line
 * across the row.  And the ranks all the panels span (panel_ranks_span),
 * from the best a live task may take to the worst.  Pure: no grid.
 */
#include <string.h>

#include "model.h"
#include "pane.h"
#include "panel-int.h"

/* Add a rank to a sorted set of ranks (no duplicates). */
static void
panel_ranks_add(int *set, int *n, int rank)
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
panel_ranks_lines(const int *set, int n)
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
panel_ranks_del(int *set, int *n, int rank)
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
 * panel is as full a staircase as fits.  With gaps, a skip takes a line
 * of its own.  Without, it is a mark beside the rank and each rank
 * added takes one line, so the few there are room for go to the ranks
 * in use (inuse) first.  set has room for every rank.
 */
static int
panel_ranks_fill(int *set, int n, int first, int bottom, int lines, int gaps,
    const char *inuse)
{
	int	orig[MODEL_BOTTOM + 1], norig, d, i, k, r, before, pass;

	memcpy(orig, set, n * sizeof *set);
	norig = n;
	for (d = 1; d <= bottom - first; d++)
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < norig; i++) {
			if (inuse == NULL ? pass > 0 :
			    (inuse[orig[i]] != 0) == pass)
				continue;
			for (k = 0; k < 2; k++) {
				r = k == 0 ? orig[i] + d : orig[i] - d;
				if (r < first || r > bottom)
					continue;
				before = n;
				panel_ranks_add(set, &n, r);
				if (n == before)
					continue;
				if (!gaps) {
					if (n == lines)
						return (n);
					continue;
				}
				if (panel_ranks_lines(set, n) > lines)
					panel_ranks_del(set, &n, r);
				if (panel_ranks_lines(set, n) == lines)
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
int
panel_ranks(struct draw *d, int c0, int c1, int lines, struct prow *rows,
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
		panel_ranks_add(all, &nall, some[i]);
	panel_ranks_add(all, &nall, d->bottom);
	panel_ranks_add(some, &nsome, d->bottom);
	if (panel_ranks_lines(all, nall) <= lines) {
		set = all;
		n = nall;
	} else if (panel_ranks_lines(some, nsome) <= lines) {
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
	gaps = panel_ranks_lines(set, n) <= lines;
	if (gaps || n < lines)
		n = panel_ranks_fill(set, n, first, d->bottom, lines, gaps,
		    gaps ? NULL : mused);
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

/*
 * The ranks the CPU panels span: from the best rank a live task can
 * take to the worst, as the daemon says (a task line's top= and
 * bottom=: the policy's, which the client does not know).  Nothing
 * live: the rank of every task shown, or 120.
 */
void
panel_ranks_span(struct draw *d)
{
	const struct model	*m = d->m;
	const struct mtask	*t;
	int			 i, any = 0;

	d->top_static = MODEL_BOTTOM;
	d->bottom = 0;
	for (i = 0; i < m->ntasks; i++) {
		t = &m->tasks[i];
		if (t->state == MTASK_EXITED)
			continue;
		any = 1;
		if (t->top < d->top_static)
			d->top_static = t->top;
		if (t->bottom > d->bottom)
			d->bottom = t->bottom;
	}
	for (i = 0; i < m->ntasks; i++) {
		t = &m->tasks[i];
		if (t->rank > d->bottom)
			d->bottom = t->rank;
		if (!any && t->rank < d->top_static)
			d->top_static = t->rank;
	}
	if (m->ntasks == 0) {
		d->top_static = 120;
		d->bottom = MODEL_BOTTOM;
	}
	if (d->bottom < d->top_static)
		d->bottom = d->top_static;
}
