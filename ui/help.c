/*
 * help.c -- the help, in a box over the middle of the screen: the
 * scenario running (its name and description), the keys (laid out by
 * keys_help from the key table), how a stair's tasks are drawn, and what
 * the screen shows (rank, stairs, LEFT, k, descents, rr, nr, why %CPU is
 * engine time).  It scrolls when it is taller than the
 * screen: the keys that scroll it are keys_view_help_key's (keys-view.c),
 * any other closes it.
 * Pure: into a grid.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <curses.h>

#include "grid.h"
#include "model.h"
#include "pane.h"
#include "view.h"
#include "xmalloc.h"

#define HELP_WIDTH	72	/* the text's width, at most */

/* How a stair's tasks are drawn. */
static const char *const help_legend[] = {
	"[hog ███░░]  runs now; the bar is `left` of its slice",
	"name  queued on its stair   (name) sleeping   +3 more",
	NULL
};

/*
 * What the screen shows, for a newcomer.  The staircase's rules are
 * docs/SPEC.md section 1's; the other policies' ranks are their own.
 */
static const char *const help_concepts[] = {
	"What the screen shows (the staircase policy):",
	"rank     a task's priority, 100..139: lower runs first. A CPU runs",
	"         the head of its best stair (rank) that has a task; a task",
	"         of nice 0 starts at 120, its static rank; 139 is the bottom.",
	"stairs   each time a task uses up its time on a stair it steps one",
	"         rank down (r+1); tasks on one stair take turns.",
	"LEFT     ticks (1 tick = 1 ms) left of its time on this stair: the",
	"         bar in [hog ███░░]. rr ticks a stair; k×rr on the top one.",
	"k (K)    the staircase's iteration: its top stair is static+k-1, with",
	"         k×rr ticks there. Falling off 139 makes it k+1 (at most 20 at",
	"         nice 0), one stair lower: a hog sinks. A sleep can lower it.",
	"nice     -20..19 (+ -): where a staircase starts and how long it is:",
	"         nice 0 at rank 120 with 20 stairs, nice 5 at 125 with 15.",
	"descent  one walk down the stairs: a row (Desc) of the article's table.",
	"         Each fall-off starts the next; past 20 or after a sleep, not k.",
	"sleep    a task that wakes from a sleep climbs one stair, with its",
	"         time there afresh: tasks that sleep stay near the top.",
	"rr       the round-robin interval (rr 10ms on the status line): the",
	"         time a task runs on a stair before it steps down.",
	"nr       a CPU's runnable tasks, the running one included.",
	"balance  an idle CPU takes a task from the busiest; every 100 ticks",
	"         the busiest gives one away to a CPU with 2 fewer.",
	"affinity the CPUs a task may use (a): balancing never breaks it.",
	"groups   tasks that share a set of CPUs (GROUP; for real tasks a",
	"         cpuset cgroup): they never spill onto other CPUs.",
	"%CPU     the share of an engine CPU's ticks the task ran over the",
	"         last few seconds: engine time, not your machine's. A",
	"         simulated task costs the host nothing; a real process's",
	"         host time is CPUTIME. Paused, engine time stands still.",
	"o1       its picture: the active and expired arrays, a row a task",
	"         by prio, its bonus ◀ better, ▶ worse; the expired's age.",
	"cfs      an axis of vruntime from min_vruntime: the leftmost runs",
	"         next (◀ next); the runner's slice left.",
	"eevdf    the line V: left of it a task is owed time (eligible); its",
	"         bar ends at its virtual deadline (┫ d). The eligible task",
	"         with the earliest deadline runs.",
	"rr       the queue from its head: each runs its slice, then goes",
	"         to the tail.",
	"why      under each CPU: its policy's reason for its last switch.",
	"C, c     compare up to three policies with this one; all / one.",
	NULL
};

/* Add a line (NULL: an empty one) to the help's lines. */
static void
help_add(char **lines, int *n, const char *s)
{
	if (*n < HELP_LINES)
		lines[(*n)++] = xstrdup(s != NULL ? s : "");
}

/* Add text wrapped at a word to width columns, after a first prefix. */
static void
help_wrap(char **lines, int *n, const char *prefix, const char *s, int width)
{
	char	 buf[MODEL_DESC_MAX + 64];
	size_t	 k;
	int	 first = 1, pw = grid_width(prefix);

	while (*s == ' ')
		s++;
	while (*s != '\0') {
		k = bar_wrap(s, width - pw);
		if (first)
			snprintf(buf, sizeof buf, "%s%.*s", prefix, (int)k, s);
		else
			snprintf(buf, sizeof buf, "%*s%.*s", pw, "", (int)k, s);
		help_add(lines, n, buf);
		s += k;
		while (*s == ' ')
			s++;
		first = 0;
	}
}

/*
 * The help's lines: the scenario, the keys (after a hint that there is
 * more below), what the screen shows.  Returns how many; the caller
 * frees them.
 */
static int
help_lines(struct draw *d, const char *const *keys, char **lines, int hint)
{
	const struct model	*m = d->m;
	const char		*desc = model_description(m);
	char			 buf[MODEL_WORD_MAX + 64];
	int			 n = 0, i;

	if (m->scenario[0] != '\0') {
		snprintf(buf, sizeof buf, "Scenario %s: ", m->scenario);
		if (desc[0] != '\0')
			help_wrap(lines, &n, buf, desc, HELP_WIDTH);
		else
			help_add(lines, &n, buf);
		if (m->caption[0] != '\0')
			help_wrap(lines, &n, "Now: ", m->caption, HELP_WIDTH);
		help_add(lines, &n, NULL);
	}
	if (hint)
		help_add(lines, &n, "PgDn: what rank, stairs, LEFT, k, descents, "
		    "rr, nr and %CPU mean.");
	for (i = 0; keys[i] != NULL; i++)
		help_add(lines, &n, keys[i]);
	help_add(lines, &n, NULL);
	for (i = 0; help_legend[i] != NULL; i++)
		help_add(lines, &n, help_legend[i]);
	help_add(lines, &n, NULL);
	for (i = 0; help_concepts[i] != NULL; i++)
		help_add(lines, &n, help_concepts[i]);
	return (n);
}

/* The help's box: bw by bh at x, y, blank inside. */
static void
help_box(struct draw *d, int x, int y, int bw, int bh)
{
	struct grid	*g = d->g;
	int		 i;

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
	}
}

/*
 * Where to cut lines[0..n) into two columns side by side: at the empty
 * line that best evens them, if both then fit in h rows (their box's
 * borders aside); else -1.
 */
static int
help_split(char *const *lines, int n, int h)
{
	int	i, best = -1, tall, best_tall = 0;

	for (i = 1; i < n - 1; i++) {
		if (lines[i][0] != '\0')
			continue;
		tall = i > n - i - 1 ? i : n - i - 1;
		if (tall + 2 <= h && (best < 0 || tall < best_tall)) {
			best = i;
			best_tall = tall;
		}
	}
	return (best);
}

/*
 * The help in two columns, the left lines[0..cut), the right after the
 * empty line at cut, in a box of width bw; with a wide screen (a
 * projector) it then fits whole, where one column would scroll.
 */
static void
help_draw_two(struct draw *d, char *const *lines, int n, int cut, int w)
{
	struct grid	*g = d->g;
	int		 i, x, y, bw, bh, rows;

	rows = cut > n - cut - 1 ? cut : n - cut - 1;
	bw = 2 * w + 7;
	bh = rows + 2;
	x = (g->w - bw) / 2;
	y = (g->h - bh) / 2;
	d->v->help_rows = bh;	/* nothing to scroll */
	d->v->help_top = 0;
	help_box(d, x, y, bw, bh);
	for (i = 1; i < bh - 1; i++) {
		if (i - 1 < cut)
			grid_text(g, x + 2, y + i, x + 2 + w, lines[i - 1],
			    COL_HELP);
		if (cut + i < n)
			grid_text(g, x + w + 5, y + i, x + bw - 2,
			    lines[cut + i], COL_HELP);
	}
	grid_text(g, x + 2, y, x + bw - 2, " help: any key closes ", COL_HELP);
}

/* The help, in a box over the middle of the screen, from help_top. */
void
help_draw(struct draw *d, const char *const *keys)
{
	struct grid	*g = d->g;
	struct view	*v = d->v;
	char		*lines[HELP_LINES];
	int		 n, w, i, x, y, bw, bh, rows, cut;

	n = help_lines(d, keys, lines, 0);
	/* Too tall for one column: two, where the screen is wide enough. */
	for (i = w = 0; i < n; i++) {
		if (grid_width(lines[i]) > w)
			w = grid_width(lines[i]);
	}
	if (n + 2 > g->h && 2 * w + 7 <= g->w &&
	    (cut = help_split(lines, n, g->h)) > 0) {
		help_draw_two(d, lines, n, cut, w);
		for (i = 0; i < n; i++)
			free(lines[i]);
		return;
	}
	/* Taller than the screen: the first line says what is further. */
	if (n + 2 > g->h) {
		for (i = 0; i < n; i++)
			free(lines[i]);
		n = help_lines(d, keys, lines, 1);
	}
	for (i = w = 0; i < n; i++) {
		if (grid_width(lines[i]) > w)
			w = grid_width(lines[i]);
	}
	bw = w + 4;
	bh = n + 2;
	if (bw > g->w)
		bw = g->w;
	if (bh > g->h)
		bh = g->h;
	rows = bh - 2;
	v->help_rows = rows;
	if (v->help_top > n - rows)
		v->help_top = n - rows;
	if (v->help_top < 0)
		v->help_top = 0;
	x = (g->w - bw) / 2;
	y = (g->h - bh) / 2;
	help_box(d, x, y, bw, bh);
	for (i = 1; i < bh - 1; i++) {
		if (v->help_top + i - 1 < n)
			grid_text(g, x + 2, y + i, x + bw - 2,
			    lines[v->help_top + i - 1], COL_HELP);
	}
	if (rows < n) {
		grid_text(g, x + 2, y, x + bw - 2, " help: Up/Down PgUp/PgDn "
		    "scroll, any other key closes ", COL_HELP);
		grid_textf(g, x + bw - 24, y + bh - 1, x + bw - 2, COL_HELP,
		    " lines %d-%d of %d ", v->help_top + 1,
		    v->help_top + rows, n);
	} else
		grid_text(g, x + 2, y, x + bw - 2, " help: any key closes ",
		    COL_HELP);
	for (i = 0; i < n; i++)
		free(lines[i]);
}
