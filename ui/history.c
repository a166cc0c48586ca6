/*
 * history.c -- what happened in the last seconds, in three panes over
 * the same time axis: the timeline (a strip per CPU, a letter per task
 * for each cell of ticks, with a legend), the selected task's rank over
 * time (a line: the sawtooth of its descents, the jump back up when it
 * falls off the bottom, the climbs after sleeps, its sleeps marked) and
 * the event log (the last MODEL_LOG events with their ticks, scrollable).
 *
 * The timeline and the rank line come from the frames' runs lines
 * (docs/PROTOCOL.md, "Runs"), which say exactly what each CPU ran at
 * each tick; the model keeps them in a struct runs (src/wire/runs.c).
 * A cell of the timeline covers `zoom` ticks (z and Z change it) and
 * shows a short turn there, the selected task, or the task that ran
 * most of them (history_strip).  Sleeps are known from the frames:
 * the selected task's state at each frame (history_sample), so a sleep
 * shorter than a frame may be missed, and from the climbs (a staircase
 * task only ranks up after a sleep).  Pure: into a grid.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid.h"
#include "model.h"
#include "pane.h"
#include "protocol.h"
#include "runs.h"
#include "view.h"
#include "xmalloc.h"

#define HISTORY_SAMPLES	512	/* as view->samples */
#define HISTORY_LABEL	6	/* "CPU12 " */
#define HISTORY_NONE	INT_MIN	/* a strip's cell: no tick kept */

/* The letters tasks are drawn with, in order of id within the window. */
static const char history_letters[] =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/* A frame came: remember whether the selected task sleeps now. */
void
history_sample(const struct model *m, struct view *v)
{
	const struct mtask	*t;
	int			 i;

	if (v->selected == 0 || (t = model_task(m, v->selected)) == NULL)
		return;
	i = v->nsamples % HISTORY_SAMPLES;
	v->samples[i].tick = m->tick;
	v->samples[i].task = t->id;
	v->samples[i].sleeping = t->state == MTASK_SLEEPING;
	v->nsamples++;
}

/*
 * Whether the timeline's legend wants a second row: the names of the
 * tasks, every one the legend could name, are wider than the screen.
 * Asked of the tasks, not of those that ran in the window, so the
 * timeline keeps its height (and the panels above theirs) as
 * the window moves and when the runs come after a w.  Eight CPUs of
 * three tasks each at 200 columns left video3 and video4 unnamed on
 * one row.
 */
static int
history_legend_wide(const struct draw *d)
{
	const struct model	*m = d->m;
	int			 width = 1, i;

	for (i = 0; i < m->ntasks && width <= d->g->w; i++)
		width += 3 + (int)strlen(m->tasks[i].name);
	return (width > d->g->w);
}

/*
 * The pane heights for the screen: timeline, rank line, event log, out
 * of avail rows less those kept for the CPUs (3; both policies' panels
 * when comparing, compare_min_lines).  Past that the log shrinks
 * first (to 3 rows), then the rank line (to 4), then the timeline (to
 * its title, 1 CPU and the legend); then the log goes, then the rank
 * line, then the timeline.
 */
static void
history_heights(struct draw *d, int avail, int *tl, int *rk, int *ev)
{
	const struct view	*v = d->v;
	int			 big = d->g->h >= 40, ncpus;
	int			 budget = avail - compare_min_lines(d);

	ncpus = d->m->runs != NULL ? runs_ncpus(d->m->runs) : d->m->ncpus;
	if (ncpus < 1)
		ncpus = 1;
	/* With the kernel's runs: a kern row a CPU, and their legend. */
	*tl = v->show_timeline ? 2 + ncpus + history_legend_wide(d) : 0;
	if (v->show_timeline && d->m->kruns != NULL)
		*tl += ncpus + 1;
	*rk = v->show_ranks ? (big ? 12 : 7) : 0;
	*ev = v->show_events ? (big ? 10 : 6) : 0;
	while (*tl + *rk + *ev > budget) {
		if (*ev > 3)
			(*ev)--;
		else if (*rk > 4)
			(*rk)--;
		else if (*tl > 3)
			(*tl)--;
		else if (*ev > 0)
			*ev = 0;
		else if (*rk > 0)
			*rk = 0;
		else {
			*tl = 0;
			break;
		}
	}
}

/* Rows the history panes want out of avail (0: none shown). */
int
history_lines(struct draw *d, int avail)
{
	int	tl, rk, ev;

	history_heights(d, avail, &tl, &rk, &ev);
	return (tl + rk + ev);
}

/* The window: cells across, ticks a cell, the first tick shown. */
static void
history_window(struct draw *d, int *cells, int *zoom, long *first)
{
	*zoom = d->v->zoom > 0 ? d->v->zoom : HISTORY_ZOOM;
	*cells = d->g->w - HISTORY_LABEL;
	if (*cells < 1)
		*cells = 1;
	*first = d->m->tick - (long)*cells * *zoom;
}

/*
 * The past beyond the runs the daemon sent (as far back as its history
 * reaches, 10 s before the tick shown at most, docs/PROTOCOL.md
 * "Runs"): while the past is
 * shown and no CPU has a run in the window [first, tick), the note the
 * timeline and the rank line show instead of blank rows, in buf; 0
 * when there is none to show.
 */
static int
history_unkept(const struct draw *d, long first, char *buf, size_t len)
{
	const struct model	*m = d->m;
	long			 before = -1;
	int			 c;

	if (m->live || m->tick <= 0)
		return (0);
	if (first < 0)
		first = 0;
	for (c = 0; m->runs != NULL && c < runs_ncpus(m->runs); c++) {
		if (runs_end(m->runs, c) > runs_first(m->runs, c) &&
		    (long)runs_end(m->runs, c) > first &&
		    (long)runs_first(m->runs, c) < m->tick)
			return (0);
		/* Where the runs the daemon sent begin, on any CPU. */
		if (before < 0 || (long)runs_first(m->runs, c) < before)
			before = (long)runs_first(m->runs, c);
	}
	if (before > first)
		snprintf(buf, len, "no runs kept before tick %ld (the "
		    "daemon's history starts there)", before);
	else
		snprintf(buf, len, "no runs kept for these ticks");
	return (1);
}

/* Two tasks of a cell, the one with the most ticks first. */
struct hpair {
	int		 task[2];	/* HISTORY_NONE where none */
	uint64_t	 n[2];
};

/* What a strip's cell holds, before it is chosen what it shows. */
struct hcell {
	struct hpair	 most;		/* the tasks that ran most there */
	struct hpair	 claim;		/* the longest short turns there */
	int		 mixed;		/* more than one task ran there */
	int		 sel;		/* the selected task ran there */
};

/* Count n ticks of task into p (a task already there adds up). */
static void
history_pair_add(struct hpair *p, int task, uint64_t n)
{
	int		 t;
	uint64_t	 k;

	if (p->task[0] == task)
		p->n[0] += n;
	else if (p->task[1] == task)
		p->n[1] += n;
	else if (n > p->n[1]) {
		p->task[1] = task;
		p->n[1] = n;
	} else
		return;
	if (p->n[1] > p->n[0]) {
		t = p->task[0];
		p->task[0] = p->task[1];
		p->task[1] = t;
		k = p->n[0];
		p->n[0] = p->n[1];
		p->n[1] = k;
	}
}

/*
 * Which of p's two a cell shows after one that showed prev: the first,
 * unless it is prev and the second ran half as much or more (two tasks
 * taking turns of half a cell alternate, where one would win every
 * cell).  HISTORY_NONE when p is empty.
 */
static int
history_pair_pick(const struct hpair *p, int prev)
{
	if (p->task[0] == prev && p->task[1] != HISTORY_NONE &&
	    p->n[1] * 2 >= p->n[0])
		return (p->task[1]);
	return (p->task[0]);
}

/*
 * The cell a strip's walk is in: the ticks each task ran there so far
 * (the tasks past HISTORY_CELL_TASKS are not counted).
 */
#define HISTORY_CELL_TASKS	32
struct hacc {
	int		 x;		/* the cell, -1 none */
	int		 ntask;
	int		 task[HISTORY_CELL_TASKS];
	uint64_t	 n[HISTORY_CELL_TASKS];
};

/* The walk left cell a->x: its two tasks that ran most, whether mixed. */
static void
history_acc_end(struct hacc *a, struct hcell *cells)
{
	int	k;

	if (a->x < 0)
		return;
	cells[a->x].mixed = a->ntask > 1;
	for (k = 0; k < a->ntask; k++)
		history_pair_add(&cells[a->x].most, a->task[k], a->n[k]);
	a->x = -1;
	a->ntask = 0;
}

/* Task ran n ticks in cell x (the selected one, sel, marks it). */
static void
history_acc_add(struct hacc *a, struct hcell *cells, int x, int task,
    uint64_t n, int sel)
{
	int	k;

	if (x != a->x) {
		history_acc_end(a, cells);
		a->x = x;
	}
	for (k = 0; k < a->ntask && a->task[k] != task; k++)
		;
	if (k == a->ntask) {
		if (k == HISTORY_CELL_TASKS)
			return;
		a->task[a->ntask] = task;
		a->n[a->ntask++] = 0;
	}
	a->n[k] += n;
	if (task == sel && sel > 0)
		cells[x].sel = 1;
}

/* A run [from, from + n) of task, cut at the cells' edges, into them. */
static void
history_run_cells(struct hacc *a, struct hcell *cells, int ncells,
    long first, int zoom, const struct runs_run *run, int sel)
{
	long	pos = (long)run->from, end = pos + (long)run->n, x, stop;

	for (; pos < end; pos = stop) {
		x = (pos - first) / zoom;
		stop = first + (x + 1) * zoom;
		if (stop > end)
			stop = end;
		if (x >= 0 && x < ncells)
			history_acc_add(a, cells, (int)x, run->task,
			    (uint64_t)(stop - pos), sel);
	}
}

/*
 * A turn (task ran n ticks from tick `from`, in a row) in the window of
 * cells from tick first: one that lies within two cells is short, and
 * it claims the cell holding more of it (the first on a tie), where it
 * shows rather than what ran most there, if that is a fifth of the
 * cell or more (at 5 ticks a cell, any turn).  A turn cut by the
 * window's ends (start, end) is not known to be short.
 */
static void
history_turn(struct hcell *cells, int ncells, long first, int zoom,
    int task, long from, long n, long start, long end)
{
	long		 c0, c1, in0;

	if (task <= 0 || n <= 0 || from <= start || from + n >= end)
		return;
	c0 = (from - first) / zoom;
	c1 = (from + n - 1 - first) / zoom;
	if (c0 < 0 || c1 >= ncells || c1 - c0 > 1)
		return;
	in0 = first + (c0 + 1) * zoom - from;
	if (in0 > n)
		in0 = n;
	if (n - in0 > in0) {
		c0 = c1;
		in0 = n - in0;
	}
	/* Under a fifth of the cell it would stand for far more. */
	if (in0 * 5 < zoom)
		return;
	history_pair_add(&cells[c0].claim, task, (uint64_t)in0);
}

/*
 * What each of ncells cells of zoom ticks from tick first shows for cpu
 * in runs r: into task[] (a task id, 0 idle, RUNS_OTHER or RUNS_UNKNOWN
 * from the kernel's runs, HISTORY_NONE where nothing is kept) and
 * mixed[] (another ran there too).  A cell shows a short turn that
 * claims it (history_turn), so that a turn is not lost in a cell of
 * another's (an editor's 2 ms among hogs, the selected one included);
 * else the selected task (sel) if it ran there at all; else the task
 * that ran most of it; and of two the one the cell before did not
 * show, if it ran half as much (history_pair_pick).
 */
static void
history_strip(const struct runs *r, int cpu, long first, int zoom,
    int ncells, int sel, int *task, char *mixed)
{
	struct hcell	*cells;
	struct hacc	 acc;
	struct runs_run	 run[64];
	long		 start, end, from, tfrom = 0, tn = 0;
	size_t		 n, i;
	int		 x, prev = HISTORY_NONE, cur = HISTORY_NONE;

	cells = xcalloc(ncells, sizeof *cells);
	for (x = 0; x < ncells; x++) {
		cells[x].most.task[0] = cells[x].most.task[1] = HISTORY_NONE;
		cells[x].claim = cells[x].most;
	}
	acc.x = -1;
	acc.ntask = 0;
	start = first > 0 ? first : 0;
	end = first + (long)ncells * zoom;
	if (r != NULL && cpu < runs_ncpus(r) &&
	    (long)runs_first(r, cpu) > start)
		start = (long)runs_first(r, cpu);
	/*
	 * One walk of the runs: what ran in each cell, and the turns (runs
	 * of one task in a row: its rank may change).
	 */
	for (from = start; r != NULL && cpu < runs_ncpus(r) && from < end;
	    from = (long)(run[n - 1].from + run[n - 1].n)) {
		n = runs_get(r, cpu, (uint64_t)from, (uint64_t)end, run, 64);
		if (n == 0)
			break;
		for (i = 0; i < n; i++) {
			history_run_cells(&acc, cells, ncells, first, zoom,
			    &run[i], sel);
			if (run[i].task == cur && (long)run[i].from ==
			    tfrom + tn) {
				tn += (long)run[i].n;
				continue;
			}
			history_turn(cells, ncells, first, zoom, cur, tfrom,
			    tn, start, end);
			cur = run[i].task;
			tfrom = (long)run[i].from;
			tn = (long)run[i].n;
		}
	}
	history_acc_end(&acc, cells);
	history_turn(cells, ncells, first, zoom, cur, tfrom, tn, start, end);
	for (x = 0; x < ncells; x++) {
		if (cells[x].claim.task[0] != HISTORY_NONE)
			task[x] = history_pair_pick(&cells[x].claim, prev);
		else if (cells[x].sel)
			task[x] = sel;
		else
			task[x] = history_pair_pick(&cells[x].most, prev);
		mixed[x] = (char)cells[x].mixed;
		prev = task[x];
	}
	free(cells);
}

/* The letter of task id among the ids shown (sorted), '*' past them. */
static char
history_letter(const int *ids, int nids, int id)
{
	int	i;

	for (i = 0; i < nids; i++) {
		if (ids[i] == id)
			return (i < (int)sizeof history_letters - 1 ?
			    history_letters[i] : '*');
	}
	return ('*');
}

/* Add id to the sorted set ids (at most max). */
static void
history_add_id(int *ids, int *nids, int max, int id)
{
	int	i;

	for (i = 0; i < *nids && ids[i] < id; i++)
		;
	if (i < *nids && ids[i] == id)
		return;
	if (*nids == max)
		return;
	memmove(ids + i + 1, ids + i, (*nids - i) * sizeof *ids);
	ids[i] = id;
	(*nids)++;
}

/*
 * Does the kernel's cell (what it ran) differ from the engine's: one of
 * them ran a task of ours and the other did not run that one.  Idle
 * against another process is no difference (neither ran ours), and
 * what is not known is none.
 */
static int
history_differs(int engine, int kern)
{
	if (engine == HISTORY_NONE || kern == HISTORY_NONE ||
	    kern == RUNS_UNKNOWN)
		return (0);
	if (engine <= 0 && kern <= 0)
		return (0);
	return (engine != kern);
}

/* One cell of a strip at (x, y): task's letter, '.' idle, '#' other. */
static void
history_put(struct draw *d, const int *ids, int nids, int x, int y, int task,
    int mixed, int differs)
{
	enum col	col;

	if (task == HISTORY_NONE || task == RUNS_UNKNOWN)
		return;
	if (task == 0) {
		grid_put(d->g, x, y, L'.', differs ? COL_KERN_DIFF :
		    COL_SLEEPING);
		return;
	}
	if (task < 0) {
		grid_put(d->g, x, y, L'#', differs ? COL_KERN_DIFF :
		    COL_KERN_OTHER);
		return;
	}
	col = task == d->v->selected ? COL_RUNNING : mixed ? COL_QUEUED :
	    COL_DEFAULT;
	grid_put(d->g, x, y, (wchar_t)history_letter(ids, nids, task),
	    differs ? COL_KERN_DIFF : col);
}

/*
 * The timeline: a title with the scale, a strip per CPU, the legend.
 * With the kernel's runs (kruns lines came), under each CPU's strip a
 * "kern" strip of what the kernel ran there, its cells marked where
 * they are not what the engine ran, and a line saying so; if the pane
 * has no room for a CPU's two strips and that line, the engine's alone,
 * and the legend says the kernel's need a taller screen.
 */
static void
history_timeline(struct draw *d, int y, int h)
{
	const struct model	*m = d->m;
	struct grid		*g = d->g;
	int			*ids, nids = 0, cells, zoom, ncpus, c, x;
	int			 rows, i, xl, kern, per, shown, row, hidden;
	int			*tasks, *e, lrows, ly;
	long			 first;
	char			 buf[96], *mixed;

	history_window(d, &cells, &zoom, &first);
	ncpus = m->runs != NULL ? runs_ncpus(m->runs) : m->ncpus;
	kern = m->kruns != NULL;
	/* A second legend row, when wanted, only if every strip fits. */
	lrows = history_legend_wide(d) && h - 3 >= (kern ? 2 * ncpus + 1 :
	    ncpus) ? 2 : 1;
	h -= lrows - 1;
	rows = h - 2;
	per = 1;
	shown = ncpus;
	if (kern && rows - 1 >= 2 * ncpus) {
		per = 2;		/* every CPU's two strips, their line */
		shown = ncpus;
	} else if (kern && rows - 1 >= 3) {
		per = 2;		/* as many as fit, a line for the rest */
		shown = (rows - 2) / 2;
	} else if (ncpus > rows) {
		/*
		 * Too few rows for the CPUs: the last says how many are
		 * left out (with one row, the legend's line does), not
		 * over a strip.
		 */
		shown = rows >= 2 ? rows - 1 : rows;
	}
	hidden = ncpus - shown;
	snprintf(buf, sizeof buf, " who ran when: a cell is %d tick%s, "
	    "ticks %ld..%ld (w: off, z/Z: zoom) ", zoom, zoom == 1 ? "" : "s",
	    first > 0 ? first : 0, m->tick);
	grid_fill(g, 0, y, g->w, d->gl->h, COL_BORDER);
	grid_text(g, 1, y, g->w, buf, COL_TITLE);
	/* Every strip chosen first: the legend names the tasks shown. */
	tasks = xcalloc((size_t)shown * per * cells, sizeof *tasks);
	mixed = xcalloc((size_t)shown * per * cells, 1);
	for (c = 0; c < shown * per; c++)
		history_strip(c % per ? m->kruns : m->runs, c / per, first,
		    zoom, cells, d->v->selected, &tasks[c * cells],
		    &mixed[c * cells]);
	ids = xcalloc(sizeof history_letters, sizeof *ids);
	for (i = 0; i < shown * per * cells; i++) {
		if (tasks[i] > 0)
			history_add_id(ids, &nids,
			    (int)sizeof history_letters - 1, tasks[i]);
	}
	for (c = 0; c < shown; c++) {
		row = y + 1 + c * per;
		grid_textf(g, 0, row, HISTORY_LABEL, COL_TITLE, "CPU%d", c);
		if (per == 2)
			grid_text(g, 0, row + 1, HISTORY_LABEL, "kern",
			    COL_BORDER);
		e = &tasks[c * per * cells];
		for (x = 0; x < cells; x++) {
			history_put(d, ids, nids, HISTORY_LABEL + x, row, e[x],
			    mixed[c * per * cells + x], 0);
			if (per < 2)
				continue;
			history_put(d, ids, nids, HISTORY_LABEL + x, row + 1,
			    e[cells + x], mixed[(c * per + 1) * cells + x],
			    history_differs(e[x], e[cells + x]));
		}
	}
	free(tasks);
	free(mixed);
	if (hidden > 0 && (per == 2 || shown < rows))
		grid_textf(g, 0, y + 1 + per * shown, g->w, COL_SKIP,
		    "(+%d CPU%s: a taller screen shows them)", hidden,
		    hidden == 1 ? "" : "s");
	if (rows > 0 && history_unkept(d, first, buf, sizeof buf))
		grid_text(g, HISTORY_LABEL, y + 1, g->w, buf, COL_SKIP);
	/* What the kern strips show, in their own colours. */
	if (per == 2) {
		xl = grid_text(g, 0, y + h - 2, g->w, " kern: the kernel's "
		    "runs  ", COL_DEFAULT);
		grid_put(g, xl, y + h - 2, L'.', COL_SLEEPING);
		xl = grid_text(g, xl + 1, y + h - 2, g->w, " idle  ",
		    COL_DEFAULT);
		grid_put(g, xl, y + h - 2, L'#', COL_KERN_OTHER);
		xl = grid_text(g, xl + 1, y + h - 2, g->w, " another process  ",
		    COL_DEFAULT);
		grid_put(g, xl, y + h - 2, L'x', COL_KERN_DIFF);
		grid_text(g, xl + 1, y + h - 2, g->w, " not what the engine "
		    "ran", COL_DEFAULT);
	}
	/* The legend: letter=name for each task in the window. */
	xl = grid_text(g, 0, y + h - 1, g->w, " ", COL_DEFAULT);
	if (kern && per < 2)
		xl = grid_text(g, xl, y + h - 1, g->w, "(kern: a taller "
		    "screen shows it) ", COL_SKIP);
	if (hidden > 0 && per < 2 && shown == rows)
		xl = grid_textf(g, xl, y + h - 1, g->w, COL_SKIP, "(+%d CPU%s) ",
		    hidden, hidden == 1 ? "" : "s");
	ly = y + h - 1;
	for (i = 0; i < nids && xl < g->w; i++) {
		const struct mtask *t = model_task(m, ids[i]);

		snprintf(buf, sizeof buf, "%c=%s ", history_letter(ids, nids,
		    ids[i]), t != NULL ? t->name : "?");
		if (xl + (int)strlen(buf) > g->w && ly < y + h - 2 + lrows) {
			ly++;
			xl = 1;
		}
		if (xl + (int)strlen(buf) > g->w) {
			grid_text(g, xl, ly, g->w, "…", COL_SKIP);
			break;
		}
		xl = grid_text(g, xl, ly, g->w, buf,
		    ids[i] == d->v->selected ? COL_RUNNING : COL_DEFAULT);
	}
	free(ids);
}

/*
 * Did the selected task sleep within [t0, t1]: a frame saw it sleeping,
 * or an injected sleep's event ("NAME sleeps N ms") covers a tick?
 */
static int
history_slept(const struct model *m, const struct view *v,
    const struct mtask *t, long t0, long t1)
{
	const struct mevent	*ev;
	size_t			 len = strlen(t->name);
	long			 j, ms;
	int			 i, n, k, task = t->id;

	for (j = m->nlog - 1; j >= 0 && j >= m->nlog - MODEL_LOG; j--) {
		ev = &m->log[j % MODEL_LOG];
		if (ev->tick > t1 || strncmp(ev->text, t->name, len) != 0 ||
		    sscanf(ev->text + len, " sleeps %ld ms", &ms) != 1)
			continue;
		if (ev->tick + ms > t0)
			return (1);
	}

	n = v->nsamples < HISTORY_SAMPLES ? v->nsamples : HISTORY_SAMPLES;
	for (i = 0; i < n; i++) {
		k = (v->nsamples - 1 - i) % HISTORY_SAMPLES;
		if (v->samples[k].tick < t0)
			break;
		if (v->samples[k].task == task && v->samples[k].sleeping &&
		    v->samples[k].tick <= t1)
			return (1);
	}
	return (0);
}

/*
 * The rank of task in [t0, t1): the rank of its last tick run there,
 * or -1 if it did not run (*ran the ticks it ran, *firstrank the rank
 * of its first tick there).
 */
static int
history_rank(const struct model *m, int task, long t0, long t1, int *ran,
    int *firstrank)
{
	struct runs_run	 run[32];
	size_t		 n, i;
	int		 c, rank = -1;
	uint64_t	 last = 0, first = UINT64_MAX;

	*ran = 0;
	*firstrank = -1;
	if (m->runs == NULL || t1 <= 0)
		return (-1);
	if (t0 < 0)
		t0 = 0;
	for (c = 0; c < runs_ncpus(m->runs); c++) {
		n = runs_get(m->runs, c, (uint64_t)t0, (uint64_t)t1, run, 32);
		for (i = 0; i < n; i++) {
			if (run[i].task != task)
				continue;
			*ran += (int)run[i].n;
			if (run[i].from < first) {
				first = run[i].from;
				*firstrank = run[i].rank;
			}
			if (run[i].from + run[i].n > last) {
				last = run[i].from + run[i].n;
				rank = run[i].rank;
			}
		}
	}
	return (rank);
}

/* The selected task's rank over the window, as a line. */
static void
history_ranks(struct draw *d, int y, int h)
{
	const struct model	*m = d->m;
	const struct mtask	*t;
	struct grid		*g = d->g;
	int			*rk, *rk0, cells, zoom, x, lo = MODEL_BOTTOM, hi;
	int			 rows, slept, climbed;
	int			 ran, row, prev = -1, last = -1, r, i, gap0;
	long			 first, t0;
	char			 buf[128];

	history_window(d, &cells, &zoom, &first);
	t = model_task(m, d->v->selected);
	grid_fill(g, 0, y, g->w, d->gl->h, COL_BORDER);
	snprintf(buf, sizeof buf, " rank of %s: %s ran  %s waited  z slept "
	    "(r: off) ", t != NULL ? t->name : "(no task selected)",
	    g->ascii ? "*" : "•", g->ascii ? "." : "·");
	grid_text(g, 1, y, g->w, buf, COL_TITLE);
	rows = h - 1;
	if (t == NULL || rows < 2)
		return;
	if (history_unkept(d, first, buf, sizeof buf)) {
		grid_text(g, HISTORY_LABEL, y + 1, g->w, buf, COL_SKIP);
		return;
	}
	rk = xcalloc(cells, sizeof *rk);
	rk0 = xcalloc(cells, sizeof *rk0);
	hi = t->top;	/* the best rank it may take now: on the axis */
	for (x = 0; x < cells; x++) {
		t0 = first + (long)x * zoom;
		rk[x] = history_rank(m, t->id, t0, t0 + zoom, &ran, &rk0[x]);
		if (rk[x] >= 0 && rk[x] < lo)
			lo = rk[x];
		if (rk[x] > hi)
			hi = rk[x];
	}
	if (lo > hi)
		lo = hi;
	if (lo > t->top)
		lo = t->top;
	if (hi - lo < 1)
		hi = lo + 1;
	/* The axis: the top and bottom ranks shown. */
	grid_textf(g, 0, y + 1, HISTORY_LABEL, COL_RANK, "%d", lo);
	grid_textf(g, 0, y + rows, HISTORY_LABEL, COL_RANK, "%d", hi);
	gap0 = -1;
	for (x = 0; x <= cells; x++) {
		r = x < cells ? rk[x] : -1;
		if (r < 0) {
			if (gap0 < 0)
				gap0 = x;
			if (x < cells)
				continue;
		}
		/* A gap ends: it waited, or slept (seen, or it climbed). */
		if (gap0 >= 0 && last >= 0) {
			climbed = x < cells && rk0[x] >= 0 && rk0[x] < last;
			row = 1 + (last - lo) * (rows - 1) / (hi - lo);
			for (i = gap0; i < x; i++) {
				t0 = first + (long)i * zoom;
				slept = climbed || history_slept(m, d->v, t, t0,
				    t0 + zoom - 1);
				grid_put(g, HISTORY_LABEL + i, y + row,
				    slept ? L'z' : g->ascii ? L'.' : L'·',
				    slept ? COL_SLEEPING : COL_QUEUED);
			}
		}
		gap0 = -1;
		if (x == cells)
			break;
		row = 1 + (r - lo) * (rows - 1) / (hi - lo);
		/* Join a jump to the cell before with a vertical stroke. */
		if (prev >= 0 && x > 0 && rk[x - 1] >= 0 && prev != row) {
			for (i = prev < row ? prev + 1 : row + 1;
			    i < (prev < row ? row : prev); i++)
				grid_put(g, HISTORY_LABEL + x, y + i,
				    d->gl->v, COL_STAIR);
		}
		grid_put(g, HISTORY_LABEL + x, y + row, g->ascii ? L'*' : L'•',
		    COL_RUNNING);
		prev = row;
		last = r;
	}
	free(rk);
	free(rk0);
}

/* The event log: the newest at the bottom, scrolled back by u and d. */
static void
history_events(struct draw *d, int y, int h)
{
	const struct model	*m = d->m;
	struct view		*v = d->v;
	struct grid		*g = d->g;
	const struct mevent	*ev;
	long			 n, newest, k, oldest, end;
	int			 rows = h - 1, i;
	char			 buf[96];

	v->events_y = y;
	v->events_rows = h;
	n = m->nlog < MODEL_LOG ? m->nlog : MODEL_LOG;
	oldest = m->nlog - n;
	/* The past: the events up to the tick shown (end: past them). */
	for (end = m->nlog; !m->live && end > oldest &&
	    m->log[(end - 1) % MODEL_LOG].tick > m->tick; end--)
		;
	n = end - oldest;
	if (v->events_back > n - rows)
		v->events_back = n - rows > 0 ? (int)(n - rows) : 0;
	if (v->events_back < 0)
		v->events_back = 0;
	newest = end - 1 - v->events_back;
	if (m->live)
		snprintf(buf, sizeof buf, " events %ld of %ld%s (e: off, u/d: "
		    "scroll) ", n == 0 ? 0 : newest - oldest + 1, n,
		    v->events_back > 0 ? ", scrolled back" : "");
	else
		snprintf(buf, sizeof buf, " events up to tick %ld: %ld of %ld%s "
		    "(e: off, u/d: scroll) ", m->tick, n == 0 ? 0 :
		    newest - oldest + 1, n, v->events_back > 0 ?
		    ", scrolled back" : "");
	grid_fill(g, 0, y, g->w, d->gl->h, COL_BORDER);
	grid_text(g, 1, y, g->w, buf, COL_TITLE);
	if (n == 0 && end < m->nlog && rows > 0)
		grid_textf(g, 9, y + 1, g->w, COL_SKIP, "no events kept "
		    "before tick %ld", m->log[oldest % MODEL_LOG].tick);
	for (i = 0; i < rows; i++) {
		k = newest - (rows - 1 - i);
		if (k < 0 || k < oldest || k > newest)
			continue;
		ev = &m->log[k % MODEL_LOG];
		grid_textf(g, 0, y + 1 + i, g->w, COL_RANK, "%8ld", ev->tick);
		grid_text(g, 9, y + 1 + i, g->w, ev->text, COL_DEFAULT);
	}
}

/*
 * Draw the history panes shown from row y, avail as given to
 * history_lines; returns the rows used.
 */
int
history_draw(struct draw *d, int y, int avail)
{
	int	tl, rk, ev;

	history_heights(d, avail, &tl, &rk, &ev);
	if (tl > 0)
		history_timeline(d, y, tl);
	if (rk > 0)
		history_ranks(d, y + tl, rk);
	if (ev > 0)
		history_events(d, y + tl + rk, ev);
	return (tl + rk + ev);
}
