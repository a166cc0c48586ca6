/*
 * draw.c -- the client's screen drawn into a grid of cells: the status
 * line, one staircase panel per CPU, the task table, the article's table
 * for the selected task, the caption line and the key hints (or a
 * prompt), and the help over them.  Pure: no ncurses, no I/O, so the
 * tests compare grids with golden text files; crt.c puts a grid on the
 * terminal.
 *
 * The screen is laid out from the top down.  The panels get what is
 * left after the status, caption and key lines and the minimum of the
 * tables; a panel shows every rank from the best static rank down to 139
 * when it can, else only the ranks in use and the tasks' static ranks
 * with a skip mark between them, so that every CPU stays on screen at
 * 80x24.  Panels that still do not fit wrap into rows and scroll.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "stairs.h"
#include "xmalloc.h"

#define DRAW_PANEL_MIN	24	/* a comfortable panel width */
#define DRAW_PANEL_TINY	14	/* the narrowest panel */
#define DRAW_LABEL	4	/* "139⋮" before the stairs */
#define DRAW_ROOM	20	/* kept right of the last stair for names */
#define DRAW_GAUGE	10	/* the widest `left` gauge */

#define nitems(a)	(sizeof (a) / sizeof (a)[0])

/* The characters a screen is drawn with: UTF-8 or plain ASCII. */
struct glyphs {
	wchar_t		 h, v, tl, tr, bl, br;
	wchar_t		 stair, full, empty, skip, sel, quote, times, vbar;
};

static const struct glyphs draw_utf8 = {
	L'─', L'│', L'┌', L'┐', L'└', L'┘',
	L'▁', L'█', L'░', L'⋮', L'▶', L'»', L'×', L'│'
};
static const struct glyphs draw_ascii = {
	L'-', L'|', L'+', L'+', L'+', L'+',
	L'_', L'#', L'.', L':', L'>', L'>', L'x', L'|'
};

/* One letter per colour, for golden dumps. */
static const char draw_letters[COL_MAX] = {
	[COL_DEFAULT] = ' ', [COL_BORDER] = 'b', [COL_TITLE] = 'T',
	[COL_RANK] = 'n', [COL_STAIR] = 's', [COL_SKIP] = ':',
	[COL_RUNNING] = 'R', [COL_GAUGE] = 'G', [COL_GAUGE_EMPTY] = 'g',
	[COL_QUEUED] = 'q', [COL_SLEEPING] = 'z', [COL_EXITED] = 'x',
	[COL_SELECTED] = 'S', [COL_MARK] = 'M', [COL_HEADER] = 'H',
	[COL_STATUS] = 'A', [COL_PAUSED] = 'P', [COL_READONLY] = 'O',
	[COL_CAPTION] = 'C', [COL_ERROR] = 'E', [COL_KEYS] = 'K',
	[COL_CELL] = 'c', [COL_PROMPT] = 'p', [COL_HELP] = 'h'
};

/* Everything one draw needs. */
struct draw {
	struct grid		*g;
	const struct model	*m;
	struct view		*v;
	const struct glyphs	*gl;
	int			 top_static;	/* best static rank in use */

	/* The tasks on the stairs by CPU: bycpu[cstart[c] .. cstart[c+1]). */
	const struct mtask	**bycpu;
	int			 *cstart;
	/*
	 * One panel's tasks by rank: pl[rstart[r] .. rstart[r + 1]), the
	 * running one first, then the runnable, then the sleeping ones.
	 */
	const struct mtask	**pl;
	int			  rstart[MODEL_BOTTOM + 2];
};

/* Make a grid of w x h blank cells. */
void
draw_grid_init(struct grid *g, int w, int h)
{
	int	i;

	g->w = w < 1 ? 1 : w;
	g->h = h < 1 ? 1 : h;
	g->cells = xreallocarray(NULL, (size_t)g->w * g->h, sizeof *g->cells);
	for (i = 0; i < g->w * g->h; i++) {
		g->cells[i].ch = L' ';
		g->cells[i].col = COL_DEFAULT;
	}
}

/* Free a grid's cells. */
void
draw_grid_free(struct grid *g)
{
	free(g->cells);
	g->cells = NULL;
	g->w = g->h = 0;
}

/* The dump letter of a colour. */
char
draw_col_letter(enum col c)
{
	return (draw_letters[c]);
}

/* Set the message on the caption line (the last key's outcome). */
void
draw_message(struct view *v, int error, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(v->message, sizeof v->message, fmt, ap);
	va_end(ap);
	v->message_error = error;
}

/* Put one character; outside the grid it is dropped. */
static void
draw_put(struct grid *g, int x, int y, wchar_t ch, enum col col)
{
	struct cell	*c;

	if (x < 0 || y < 0 || x >= g->w || y >= g->h)
		return;
	c = &g->cells[y * g->w + x];
	c->ch = ch;
	c->col = col;
}

/* Fill n cells of a row. */
static void
draw_fill(struct grid *g, int x, int y, int n, wchar_t ch, enum col col)
{
	while (n-- > 0)
		draw_put(g, x++, y, ch, col);
}

/* Set the colour of n cells, keeping their characters. */
static void
draw_paint(struct grid *g, int x, int y, int n, enum col col)
{
	for (; n > 0; n--, x++) {
		if (x >= 0 && y >= 0 && x < g->w && y < g->h)
			g->cells[y * g->w + x].col = col;
	}
}

/* Decode one UTF-8 character; bad bytes come out as '?'. */
static int
draw_utf8_next(const char *s, wchar_t *out)
{
	const unsigned char	*p = (const unsigned char *)s;
	uint32_t		 c;
	int			 n, i;

	if (p[0] < 0x80) {
		*out = p[0];
		return (1);
	}
	if ((p[0] & 0xe0) == 0xc0) {
		c = p[0] & 0x1f;
		n = 2;
	} else if ((p[0] & 0xf0) == 0xe0) {
		c = p[0] & 0x0f;
		n = 3;
	} else if ((p[0] & 0xf8) == 0xf0) {
		c = p[0] & 0x07;
		n = 4;
	} else {
		*out = L'?';
		return (1);
	}
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80) {
			*out = L'?';
			return (1);
		}
		c = (c << 6) | (p[i] & 0x3f);
	}
	*out = (wchar_t)c;
	return (n);
}

/* The ASCII stand-in for a character of ours, or '?'. */
static wchar_t
draw_ascii_of(wchar_t ch)
{
	static const wchar_t	from[] = L"─│┌┐└┘▁█░⋮▶»×…→";
	static const wchar_t	to[] = L"-|++++_#.:>>x.>";
	size_t			i;

	for (i = 0; from[i] != L'\0'; i++) {
		if (from[i] == ch)
			return (to[i]);
	}
	return (L'?');
}

/*
 * Write UTF-8 text from x, stopping before xmax; returns the x after it.
 * Control characters become '?'; drawing in ASCII, so does anything not
 * ASCII that has no stand-in.
 */
static int
draw_text(struct draw *d, int x, int y, int xmax, const char *s,
    enum col col)
{
	wchar_t	 ch;
	int	 w;

	if (xmax > d->g->w)
		xmax = d->g->w;
	while (*s != '\0' && x < xmax) {
		s += draw_utf8_next(s, &ch);
		if (ch < 32 || ch == 127)
			ch = L'?';
		else if (d->gl == &draw_ascii && ch > 127)
			ch = draw_ascii_of(ch);
		w = ch < 128 ? 1 : wcwidth(ch);
		if (w == 0)
			continue;
		if (w < 0)
			w = 1;
		if (x + w > xmax)
			break;
		draw_put(d->g, x, y, ch, col);
		if (w == 2)
			draw_put(d->g, x + 1, y, 0, col);
		x += w;
	}
	return (x);
}

/* Write formatted text like draw_text. */
static int __attribute__((format(printf, 6, 7)))
draw_textf(struct draw *d, int x, int y, int xmax, enum col col,
    const char *fmt, ...)
{
	va_list	 ap;
	char	 buf[512];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return (draw_text(d, x, y, xmax, buf, col));
}

/* The width text would take on screen (ASCII-only text is the norm). */
static int
draw_width(const char *s)
{
	wchar_t	ch;
	int	n = 0, w;

	while (*s != '\0') {
		s += draw_utf8_next(s, &ch);
		w = ch < 128 ? 1 : wcwidth(ch);
		n += w < 0 ? 1 : w;
	}
	return (n);
}

/* Format milliseconds for the table: 4.81s, 312s, 95m. */
static void
draw_ms(char *buf, size_t len, long ms)
{
	if (ms < 0)
		snprintf(buf, len, "-");
	else if (ms < 100000)
		snprintf(buf, len, "%ld.%02lds", ms / 1000, (ms % 1000) / 10);
	else if (ms < 10000000)
		snprintf(buf, len, "%lds", ms / 1000);
	else
		snprintf(buf, len, "%ldm", ms / 60000);
}

/* The status line: what the daemon is doing, and how to get help. */
static void
draw_status(struct draw *d)
{
	const struct model	*m = d->m;
	struct grid		*g = d->g;
	char			 right[64];
	int			 x, rx, n;

	draw_fill(g, 0, 0, g->w, L' ', COL_STATUS);
	x = draw_textf(d, 1, 0, g->w, COL_STATUS,
	    "stairs  tick %ld  %d CPU%s  %d task%s  rr %dms  speed %gx  ",
	    m->tick, m->ncpus, m->ncpus == 1 ? "" : "s", m->ntasks,
	    m->ntasks == 1 ? "" : "s", m->rr, m->speed);
	if (!m->greeted || m->frames == 0)
		x = draw_text(d, x, 0, g->w, "CONNECTING", COL_PAUSED);
	else if (m->paused)
		x = draw_text(d, x, 0, g->w, "PAUSED", COL_PAUSED);
	else
		x = draw_text(d, x, 0, g->w, "RUNNING", COL_STATUS);
	if (d->v->readonly) {
		x = draw_text(d, x, 0, g->w, "  ", COL_STATUS);
		x = draw_text(d, x, 0, g->w, "READ-ONLY", COL_READONLY);
	}
	if (m->dropped > 0)
		x = draw_textf(d, x, 0, g->w, COL_STATUS, "  dropped %ld",
		    m->dropped);
	n = snprintf(right, sizeof right, "? help  q detach ");
	rx = g->w - n;
	if (rx > x + 1)
		draw_text(d, rx, 0, g->w, right, COL_STATUS);
}

/*
 * Sort the tasks on the stairs by CPU (a counting sort, so each CPU's
 * stay in id order): one pass for all panels instead of one per row.
 */
static void
draw_index(struct draw *d)
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
static void
draw_index_panel(struct draw *d, int cpu)
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
draw_rank_add(int *set, int *n, int rank)
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
draw_rank_lines(const int *set, int n)
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
draw_rank_del(int *set, int *n, int rank)
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
draw_rank_fill(int *set, int n, int first, int lines)
{
	int	orig[MODEL_BOTTOM + 1], norig, d, i, k, r, before;

	memcpy(orig, set, n * sizeof *set);
	norig = n;
	for (d = 1; d <= MODEL_BOTTOM - first; d++) {
		for (i = 0; i < norig; i++) {
			for (k = 0; k < 2; k++) {
				r = k == 0 ? orig[i] + d : orig[i] - d;
				if (r < first || r > MODEL_BOTTOM)
					continue;
				before = n;
				draw_rank_add(set, &n, r);
				if (n == before)
					continue;
				if (draw_rank_lines(set, n) > lines)
					draw_rank_del(set, &n, r);
				if (draw_rank_lines(set, n) == lines)
					return (n);
			}
		}
	}
	return (n);
}

/*
 * Choose the rows of one panel: every rank if they fit, else the ranks
 * in use, the tasks' static ranks and the bottom, with skip lines where
 * there is room for them.  Returns the number of rows.
 */
static int
draw_panel_rows(struct draw *d, int cpu, int lines, struct prow *rows)
{
	const struct mtask	*t;
	int			 used[MODEL_BOTTOM + 1], nused = 0;
	int			 all[MODEL_BOTTOM + 1], nall = 0;
	int			 some[MODEL_BOTTOM + 1], nsome = 0;
	char			 mused[MODEL_BOTTOM + 1];
	char			 mall[MODEL_BOTTOM + 1];
	char			 msome[MODEL_BOTTOM + 1];
	int			*set, n, i, j, gaps, first, st;

	/* From the best static rank of this CPU's tasks (any, if none). */
	first = MODEL_BOTTOM + 1;
	memset(mused, 0, sizeof mused);
	memset(mall, 0, sizeof mall);
	memset(msome, 0, sizeof msome);
	for (i = d->cstart[cpu]; i < d->cstart[cpu + 1]; i++) {
		t = d->bycpu[i];
		st = 120 + t->nice;
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
	if (lines <= 0)
		return (0);
	if (MODEL_BOTTOM - first + 1 <= lines) {
		for (i = 0; i <= MODEL_BOTTOM - first; i++) {
			memset(&rows[i], 0, sizeof rows[i]);
			rows[i].rank = first + i;
		}
		return (i);
	}
	for (i = 0; i < nsome; i++)
		draw_rank_add(all, &nall, some[i]);
	draw_rank_add(all, &nall, MODEL_BOTTOM);
	draw_rank_add(some, &nsome, MODEL_BOTTOM);
	if (draw_rank_lines(all, nall) <= lines) {
		set = all;
		n = nall;
	} else if (draw_rank_lines(some, nsome) <= lines) {
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
	gaps = draw_rank_lines(set, n) <= lines;
	if (gaps)
		n = draw_rank_fill(set, n, first, lines);
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
draw_gauge(struct draw *d, int x, int y, int width, const struct mtask *t)
{
	int	allot, fill, i;

	allot = model_allot(t->nice, t->rank, t->iter, d->m->rr);
	if (allot <= 0)
		allot = 1;
	fill = (t->left * width + allot - 1) / allot;
	if (fill > width)
		fill = width;
	if (fill < 0)
		fill = 0;
	for (i = 0; i < width; i++) {
		if (i < fill)
			draw_put(d->g, x + i, y, d->gl->full, COL_GAUGE);
		else
			draw_put(d->g, x + i, y, d->gl->empty, COL_GAUGE_EMPTY);
	}
	return (x + width);
}

/*
 * Draw the tasks on one stair from x to xmax: the running one first,
 * bracketed with its gauge, then the queued ones, then the sleeping
 * ones in parentheses; what does not fit is counted as "+N".  extra
 * adds tasks from ranks not shown below this row.
 */
static void
draw_stair_tasks(struct draw *d, const struct prow *row, int last, int x,
    int y, int xmax)
{
	const struct mtask	**list, *t;
	int			  n, more = 0, i, r, need, gw, sel, rest;
	enum col		  col;
	char			  num[16];

	/* Running, then runnable, then sleeping, each in id order. */
	list = d->pl + d->rstart[row->rank];
	n = d->rstart[row->rank + 1] - d->rstart[row->rank];
	/* The last row also counts the runnable tasks below it. */
	for (r = row->rank + 1; last && r <= MODEL_BOTTOM; r++) {
		for (i = d->rstart[r]; i < d->rstart[r + 1]; i++)
			more += d->pl[i]->state != MTASK_SLEEPING;
	}

	for (i = 0; i < n; i++) {
		t = list[i];
		sel = t->id == d->v->selected;
		snprintf(num, sizeof num, "+%d", n - i + more);
		need = draw_width(t->name);
		if (t->state == MTASK_RUNNING)
			need += 2 + 4;
		else if (t->state == MTASK_SLEEPING)
			need += 2;
		/* Leave room to say how many more did not fit: " +N". */
		rest = 0;
		if (i + 1 < n || more > 0)
			rest = 2 + snprintf(NULL, 0, "%d", n - i - 1 + more);
		if (x + need > xmax - rest) {
			if (t->state == MTASK_RUNNING && x + 3 < xmax) {
				/* The running one always shows, cut short. */
				x = draw_text(d, x, y, xmax - 3, "[",
				    COL_RUNNING);
				x = draw_text(d, x, y, xmax - 4, t->name,
				    COL_RUNNING);
				x = draw_text(d, x, y, xmax - 3, "]",
				    COL_RUNNING);
				x++;
				snprintf(num, sizeof num, "+%d",
				    n - i - 1 + more);
				if (n - i - 1 + more > 0)
					draw_text(d, x, y, xmax, num,
					    COL_QUEUED);
				return;
			}
			draw_text(d, x, y, xmax, num, COL_QUEUED);
			return;
		}
		if (t->state == MTASK_RUNNING) {
			x = draw_text(d, x, y, xmax, "[", COL_RUNNING);
			x = draw_text(d, x, y, xmax, t->name, COL_RUNNING);
			gw = xmax - x - 2 - rest;
			if (gw > DRAW_GAUGE)
				gw = DRAW_GAUGE;
			if (gw >= 3) {
				x = draw_text(d, x, y, xmax, " ", COL_RUNNING);
				x = draw_gauge(d, x, y, gw, t);
			}
			x = draw_text(d, x, y, xmax, "]", COL_RUNNING);
		} else if (t->state == MTASK_SLEEPING) {
			col = sel ? COL_MARK : COL_SLEEPING;
			x = draw_text(d, x, y, xmax, "(", col);
			x = draw_text(d, x, y, xmax, t->name, col);
			x = draw_text(d, x, y, xmax, ")", col);
		} else
			x = draw_text(d, x, y, xmax, t->name,
			    sel ? COL_MARK : COL_QUEUED);
		x++;
	}
	if (more > 0) {
		snprintf(num, sizeof num, "+%d", more);
		draw_text(d, x, y, xmax, num, COL_QUEUED);
	}
}

/* Draw one CPU's panel in the box at (x, y), w x h. */
static void
draw_panel(struct draw *d, int cpu, int x, int y, int w, int h)
{
	const struct model	*m = d->m;
	const struct mcpu	*c = &m->cpus[cpu];
	const struct mtask	*t;
	struct grid		*g = d->g;
	struct prow		 rows[2 * (MODEL_BOTTOM + 1)];
	int			 i, n, ix, iw, nrank, k, nstep, span, sx, sw;
	int			 tx, yy;
	char			 label[8];

	if (w < 4 || h < 2)
		return;
	/* The box. */
	draw_put(g, x, y, d->gl->tl, COL_BORDER);
	draw_fill(g, x + 1, y, w - 2, d->gl->h, COL_BORDER);
	draw_put(g, x + w - 1, y, d->gl->tr, COL_BORDER);
	for (i = 1; i < h - 1; i++) {
		draw_put(g, x, y + i, d->gl->v, COL_BORDER);
		draw_put(g, x + w - 1, y + i, d->gl->v, COL_BORDER);
	}
	if (h >= 3) {
		draw_put(g, x, y + h - 1, d->gl->bl, COL_BORDER);
		draw_fill(g, x + 1, y + h - 1, w - 2, d->gl->h, COL_BORDER);
		draw_put(g, x + w - 1, y + h - 1, d->gl->br, COL_BORDER);
	}

	/* The title: the CPU, what runs on it, how many are runnable. */
	tx = draw_textf(d, x + 1, y, x + w - 1, COL_TITLE, " CPU%d ", c->id);
	/* The task that ran in the last tick, even if it has just slept. */
	t = c->task > 0 ? model_task(m, c->task) : NULL;
	if (t != NULL)
		tx = draw_text(d, tx, y, x + w - 1, t->name,
		    t->state == MTASK_RUNNING && t->cpu == cpu ? COL_RUNNING :
		    COL_TITLE);
	else
		tx = draw_text(d, tx, y, x + w - 1, "idle", COL_TITLE);
	draw_textf(d, tx, y, x + w - 1, COL_TITLE, " nr %d ", c->nr);

	ix = x + 1;
	iw = w - 2;
	draw_index_panel(d, cpu);
	n = draw_panel_rows(d, cpu, h - 2, rows);
	for (i = nrank = 0; i < n; i++)
		nrank += !rows[i].gap;
	if (nrank == 0)
		return;
	/*
	 * Stairs step right by as much as leaves room for the names on the
	 * bottom stair: span columns over nstep stairs, in fractional steps
	 * (stairs one or two wide when that is what fits), at most 4 a
	 * stair.  The same on every panel of this size, whatever ranks
	 * each shows, so that nothing jumps when tasks move.
	 */
	nstep = MODEL_BOTTOM - d->top_static + 1;
	if (nstep > h - 2)
		nstep = h - 2;
	if (nstep < nrank)
		nstep = nrank;
	span = iw - DRAW_LABEL - DRAW_ROOM;
	if (span > 4 * nstep)
		span = 4 * nstep;
	if (span < nstep)
		span = nstep;
	for (i = k = 0; i < n; i++) {
		yy = y + 1 + i;
		sx = ix + DRAW_LABEL + k * span / nstep;
		sw = ix + DRAW_LABEL + (k + 1) * span / nstep - sx;
		if (sx + sw > ix + iw)
			sx = ix + iw - sw;
		if (rows[i].gap) {
			draw_put(g, ix + 1, yy, d->gl->skip, COL_SKIP);
			draw_put(g, sx, yy, d->gl->skip, COL_SKIP);
			continue;
		}
		snprintf(label, sizeof label, "%3d", rows[i].rank);
		draw_text(d, ix, yy, ix + iw, label, COL_RANK);
		if (rows[i].skipped_after)
			draw_put(g, ix + 3, yy, d->gl->skip, COL_SKIP);
		draw_fill(g, sx, yy, sw, d->gl->stair, COL_STAIR);
		draw_stair_tasks(d, &rows[i], i == n - 1, sx + sw + 1, yy,
		    ix + iw);
		k++;
	}
}

/*
 * Lay the panels out in the rows [y, y + avail): as many per row as fit
 * at a comfortable width, wrapping, and scrolling by whole rows when
 * even the smallest panels do not fit.  Returns the lines used.
 */
static int
draw_panels(struct draw *d, int y, int avail)
{
	const struct model	*m = d->m;
	struct view		*v = d->v;
	struct grid		*g = d->g;
	int			 ncpu = m->ncpus, cols, prow, maxrow, ph, pw;
	int			 natural, shown, r, col, cpu, x, w, i;

	if (ncpu == 0 || avail < 2)
		return (0);
	cols = g->w / DRAW_PANEL_MIN;
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
		if (cols > g->w / DRAW_PANEL_TINY)
			cols = g->w / DRAW_PANEL_TINY;
		if (cols < 1)
			cols = 1;
	}
	prow = (ncpu + cols - 1) / cols;
	/* Balance the rows: 8 CPUs at 5 a row are better 4 and 4. */
	cols = (ncpu + prow - 1) / prow;
	pw = g->w / cols;

	natural = MODEL_BOTTOM - d->top_static + 1 + 2;
	shown = prow < maxrow ? prow : maxrow;
	ph = avail / shown;
	if (ph > natural)
		ph = natural;
	if (ph < 2)
		ph = 2;

	v->cpu_rows = prow;
	v->cpu_rows_shown = shown;
	if (v->cpu_top > prow - shown)
		v->cpu_top = prow - shown;
	if (v->cpu_top < 0)
		v->cpu_top = 0;
	for (r = 0; r < shown; r++) {
		for (col = 0; col < cols; col++) {
			cpu = (v->cpu_top + r) * cols + col;
			if (cpu >= ncpu)
				break;
			x = col * pw;
			w = col == cols - 1 ? g->w - x : pw;
			draw_panel(d, cpu, x, y + r * ph, w, ph);
		}
	}
	if (shown < prow) {
		/* Say that there is more, on the last panel row's border. */
		i = y + shown * ph - 1;
		draw_textf(d, g->w - 24, i, g->w, COL_TITLE,
		    " CPU rows %d-%d/%d [ ] ", v->cpu_top + 1,
		    v->cpu_top + shown, prow);
	}
	return (shown * ph);
}

/* A task table column. */
struct tcol {
	const char	*title;
	int		 width;
	int		 right;		/* right-aligned */
	int		 drop;		/* dropped first when narrow (higher) */
};

enum {
	TC_ID, TC_NAME, TC_KIND, TC_PID, TC_NI, TC_CPU, TC_RANK, TC_IT,
	TC_LEFT, TC_STATE, TC_RAN, TC_CPUTIME, TC_PCT, TC_MAX
};

static const struct tcol draw_tcols[TC_MAX] = {
	[TC_ID] = { "ID", 4, 1, 0 },
	[TC_NAME] = { "NAME", 16, 0, 0 },
	[TC_KIND] = { "KIND", 4, 0, 3 },
	[TC_PID] = { "PID", 7, 1, 2 },
	[TC_NI] = { "NI", 3, 1, 0 },
	[TC_CPU] = { "CPU", 3, 1, 0 },
	[TC_RANK] = { "RANK", 4, 1, 0 },
	[TC_IT] = { "IT", 3, 1, 0 },
	[TC_LEFT] = { "LEFT", 4, 1, 0 },
	[TC_STATE] = { "STATE", 8, 0, 0 },
	[TC_RAN] = { "RAN", 7, 1, 0 },
	[TC_CPUTIME] = { "CPUTIME", 7, 1, 1 },
	[TC_PCT] = { "%CPU", 4, 1, 0 },
};

/* Format one cell of the task table. */
static void
draw_tcell(char *buf, size_t len, int c, const struct mtask *t)
{
	switch (c) {
	case TC_ID:
		snprintf(buf, len, "%d", t->id);
		break;
	case TC_NAME:
		snprintf(buf, len, "%s", t->name);
		break;
	case TC_KIND:
		snprintf(buf, len, "%s", t->real ? "real" : "sim");
		break;
	case TC_PID:
		if (t->pid < 0)
			snprintf(buf, len, "-");
		else
			snprintf(buf, len, "%d", t->pid);
		break;
	case TC_NI:
		snprintf(buf, len, "%d", t->nice);
		break;
	case TC_CPU:
		if (t->cpu < 0)
			snprintf(buf, len, "-");
		else
			snprintf(buf, len, "%d", t->cpu);
		break;
	case TC_RANK:
		snprintf(buf, len, "%d", t->rank);
		break;
	case TC_IT:
		snprintf(buf, len, "%d", t->iter);
		break;
	case TC_LEFT:
		snprintf(buf, len, "%d", t->left);
		break;
	case TC_STATE:
		snprintf(buf, len, "%s", model_state_name(t->state));
		break;
	case TC_RAN:
		draw_ms(buf, len, t->ran);
		break;
	case TC_CPUTIME:
		draw_ms(buf, len, t->cputime);
		break;
	case TC_PCT:
		if (t->pct < 0)
			snprintf(buf, len, "-");
		else
			snprintf(buf, len, "%d", t->pct);
		break;
	}
}

/* Draw the task table in rows [y, y + h): a heading, then tasks. */
static void
draw_tasks(struct draw *d, int y, int h)
{
	const struct model	*m = d->m;
	struct view		*v = d->v;
	struct grid		*g = d->g;
	const struct mtask	*t;
	int			 width[TC_MAX], on[TC_MAX], total, c, drop;
	int			 rows, sel, i, x, row, cw;
	enum col		 col, rowcol;
	char			 buf[64];

	v->task_y = y + 1;
	v->task_rows = 0;
	if (h < 2)
		return;
	/* Columns: shrink the name, then drop the least needed ones. */
	total = 2;
	for (c = 0; c < TC_MAX; c++) {
		width[c] = draw_tcols[c].width;
		on[c] = 1;
		total += width[c] + 1;
	}
	if (total > g->w) {
		cw = width[TC_NAME] - (total - g->w);
		if (cw < 8)
			cw = 8;
		total -= width[TC_NAME] - cw;
		width[TC_NAME] = cw;
	}
	for (drop = 1; drop <= 3 && total > g->w; drop++) {
		for (c = 0; c < TC_MAX; c++) {
			if (draw_tcols[c].drop == drop && on[c]) {
				on[c] = 0;
				total -= width[c] + 1;
			}
		}
	}

	x = 2;
	for (c = 0; c < TC_MAX; c++) {
		if (!on[c])
			continue;
		if (draw_tcols[c].right)
			draw_textf(d, x, y, g->w, COL_HEADER, "%*s", width[c],
			    draw_tcols[c].title);
		else
			draw_text(d, x, y, g->w, draw_tcols[c].title,
			    COL_HEADER);
		x += width[c] + 1;
	}
	draw_paint(g, 0, y, g->w, COL_HEADER);

	/* Keep the selected row in view. */
	rows = h - 1;
	sel = model_task_index(m, v->selected);
	if (sel >= 0) {
		if (sel < v->task_top)
			v->task_top = sel;
		if (sel >= v->task_top + rows)
			v->task_top = sel - rows + 1;
	}
	if (v->task_top > m->ntasks - rows)
		v->task_top = m->ntasks - rows;
	if (v->task_top < 0)
		v->task_top = 0;
	v->task_rows = rows;

	for (row = 0; row < rows; row++) {
		i = v->task_top + row;
		if (i >= m->ntasks)
			break;
		t = &m->tasks[i];
		rowcol = COL_DEFAULT;
		if (t->state == MTASK_EXITED)
			rowcol = COL_EXITED;
		if (i == sel) {
			rowcol = COL_SELECTED;
			draw_fill(g, 0, y + 1 + row, g->w, L' ', COL_SELECTED);
			draw_put(g, 0, y + 1 + row, d->gl->sel, COL_SELECTED);
		}
		x = 2;
		for (c = 0; c < TC_MAX; c++) {
			if (!on[c])
				continue;
			draw_tcell(buf, sizeof buf, c, t);
			col = rowcol;
			if (c == TC_STATE && rowcol != COL_SELECTED) {
				if (t->state == MTASK_RUNNING)
					col = COL_RUNNING;
				else if (t->state == MTASK_SLEEPING)
					col = COL_SLEEPING;
			}
			if (draw_tcols[c].right)
				draw_textf(d, x, y + 1 + row, x + width[c],
				    col, "%*s", width[c], buf);
			else
				draw_text(d, x, y + 1 + row, x + width[c], buf,
				    col);
			x += width[c] + 1;
		}
	}
}

/* How many lines the article's table wants (0: nothing to show). */
static int
draw_table_lines(struct draw *d, int most)
{
	const struct mtable	*t = &d->m->table;
	int			 rows;

	if (!d->v->show_table || !t->valid || t->task != d->v->selected ||
	    most < 3)
		return (0);
	rows = t->nrows < 1 ? 1 : t->nrows;
	if (rows > most - 2)
		rows = most - 2;
	return (2 + rows);
}

/*
 * Format ticks in rr intervals: a whole number or one decimal, in at
 * most width characters (narrow: ".4" below one, else rounded).
 */
static void
draw_rr(char *buf, size_t len, long ticks, int rr, int width)
{
	if (ticks == 0)
		buf[0] = '\0';
	else if (ticks % rr == 0)
		snprintf(buf, len, "%ld", ticks / rr);
	else {
		snprintf(buf, len, "%ld.%ld", ticks / rr,
		    (ticks % rr) * 10 / rr);
		if ((int)strlen(buf) > width && ticks < rr)
			snprintf(buf, len, ".%ld", ticks * 10 / rr);
		else if ((int)strlen(buf) > width)
			snprintf(buf, len, "%ld", (ticks + rr / 2) / rr);
	}
}

/*
 * Draw the article's table for the selected task in rows [y, y + h):
 * descents down, ranks across, the newest descents when not all fit.
 */
static void
draw_table(struct draw *d, int y, int h)
{
	const struct mtable	*t = &d->m->table;
	const struct mtask	*task;
	struct grid		*g = d->g;
	int			 cw, ncol, c, r, first, x;
	char			 buf[32];

	x = draw_textf(d, 1, y, g->w, COL_HEADER, "%s: descents ",
	    t->name[0] != '\0' ? t->name : "?");
	draw_put(g, x, y, d->gl->times, COL_HEADER);
	draw_textf(d, x + 1, y, g->w, COL_HEADER,
	    " ranks, in rr intervals (%d ms)", t->rr);
	cw = (g->w - 6) / t->stairs;
	if (cw > 5)
		cw = 5;
	if (cw < 3)
		cw = 3;
	ncol = (g->w - 6) / cw;
	if (ncol > t->stairs)
		ncol = t->stairs;
	draw_text(d, 1, y + 1, g->w, "It", COL_HEADER);
	draw_put(g, 4, y + 1, d->gl->vbar, COL_BORDER);
	for (c = 0; c < ncol; c++) {
		x = 5 + c * cw;
		if (c == 0)
			draw_textf(d, x, y + 1, x + cw, COL_HEADER, "%*s", cw,
			    cw > 4 ? "Base" : "B");
		else if (c < 10 || cw > 3)
			draw_textf(d, x, y + 1, x + cw, COL_HEADER, "%*d",
			    cw, -c);
		else	/* no room for the minus */
			draw_textf(d, x, y + 1, x + cw, COL_HEADER, "%*d",
			    cw, c);
	}
	first = t->nrows - (h - 2);
	if (first < 0)
		first = 0;
	for (r = first; r < t->nrows && y + 2 + r - first < y + h; r++) {
		x = y + 2 + r - first;
		draw_textf(d, 0, x, 4, COL_HEADER, "%3d", t->iters[r]);
		draw_put(g, 4, x, d->gl->vbar, COL_BORDER);
		for (c = 0; c < ncol; c++) {
			draw_rr(buf, sizeof buf,
			    t->ticks[(size_t)r * t->stairs + c], t->rr, cw - 1);
			draw_textf(d, 5 + c * cw, x, 5 + (c + 1) * cw,
			    COL_CELL, "%*s", cw, buf);
		}
	}
	if (t->nrows == 0) {
		draw_text(d, 5, y + 2, g->w, "(has not run yet)", COL_SLEEPING);
		return;
	}
	/* Where the task is now: its rank in the newest descent. */
	task = model_task(d->m, t->task);
	r = t->nrows - 1;
	if (task != NULL && task->state != MTASK_EXITED &&
	    y + 2 + r - first < y + h) {
		c = task->rank - t->base;
		if (c >= 0 && c < ncol)
			draw_paint(g, 5 + c * cw + 1, y + 2 + r - first, cw - 1,
			    task->state == MTASK_RUNNING ? COL_RUNNING :
			    COL_MARK);
	}
}

/* The caption line: the scenario's caption, and the last key's outcome. */
static void
draw_caption(struct draw *d, int y)
{
	const struct model	*m = d->m;
	struct view		*v = d->v;
	struct grid		*g = d->g;
	const char		*right, *event;
	enum col		 col;
	int			 x, mx, mw;

	draw_put(g, 1, y, d->gl->quote, COL_CAPTION);
	x = 3;
	mx = g->w;
	/*
	 * On the right, the last key's outcome; when there is none (or it
	 * is old), what just happened: the newest event.
	 */
	event = model_last_event(m);
	right = v->message;
	col = v->message_error ? COL_ERROR : COL_KEYS;
	if (right[0] == '\0' && event != NULL && m->caption[0] != '\0') {
		right = event;
		col = COL_SLEEPING;
	}
	if (right[0] != '\0') {
		mw = draw_width(right) + 2;
		if (mw > g->w - 3)
			mw = g->w - 3;
		mx = g->w - mw;
		draw_text(d, mx + 1, y, g->w, right, col);
	}
	if (m->caption[0] != '\0')
		draw_text(d, x, y, mx - 1, m->caption, COL_CAPTION);
	else if (event != NULL && right != event)
		draw_text(d, x, y, mx - 1, event, COL_SLEEPING);
}

/* The bottom line: a prompt, or the keys. */
static void
draw_keys(struct draw *d, int y)
{
	static const struct {
		int		 readonly;
		const char	*text;
	} hints[] = {
		{ 0, "s sleep  S sleep..  +/- nice  a affinity  x kill  n new  "
		    "space pause  . step  </> speed  t table  ? help  "
		    "q detach  Q quit" },
		{ 0, "s sleep  S sleep..  +/- nice  a affinity  x kill  n new  "
		    "space pause  . step  </> speed  t table  ? help  q/Q" },
		{ 1, "read-only:  arrows/j/k select  t table  [ ] CPUs  "
		    "? help  q detach" },
		{ 0, "s/S sleep +/- nice a cpus x kill n new spc pause . step "
		    "<> speed ? help q/Q" },
		{ 1, "read-only: j/k select  t table  ? help  q detach" },
	};
	struct view	*v = d->v;
	struct grid	*g = d->g;
	const char	*text;
	size_t		 i;
	int		 x;

	if (v->prompt) {
		draw_fill(g, 0, y, g->w, L' ', COL_PROMPT);
		x = draw_textf(d, 1, y, g->w, COL_PROMPT, "%s: ",
		    v->prompt_label);
		x = draw_text(d, x, y, g->w, v->prompt_buf,
		    v->prompt_fresh ? COL_SELECTED : COL_PROMPT);
		draw_put(g, x, y, L'_', COL_PROMPT);
		return;
	}
	/* The longest hint line that fits (else the shortest, cut). */
	text = NULL;
	for (i = 0; i < nitems(hints); i++) {
		if (hints[i].readonly != v->readonly)
			continue;
		text = hints[i].text;
		if (draw_width(text) + 1 <= g->w)
			break;
	}
	draw_text(d, 1, y, g->w, text, COL_KEYS);
}

/* The help, in a box over the middle of the screen. */
static void
draw_help(struct draw *d, const char *const *help)
{
	struct grid	*g = d->g;
	int		 n, w, i, x, y, bw, bh;

	for (n = w = 0; help[n] != NULL; n++) {
		if (draw_width(help[n]) > w)
			w = draw_width(help[n]);
	}
	bw = w + 4;
	bh = n + 2;
	if (bw > g->w)
		bw = g->w;
	if (bh > g->h)
		bh = g->h;
	x = (g->w - bw) / 2;
	y = (g->h - bh) / 2;
	for (i = 0; i < bh; i++)
		draw_fill(g, x, y + i, bw, L' ', COL_HELP);
	draw_put(g, x, y, d->gl->tl, COL_HELP);
	draw_fill(g, x + 1, y, bw - 2, d->gl->h, COL_HELP);
	draw_put(g, x + bw - 1, y, d->gl->tr, COL_HELP);
	draw_put(g, x, y + bh - 1, d->gl->bl, COL_HELP);
	draw_fill(g, x + 1, y + bh - 1, bw - 2, d->gl->h, COL_HELP);
	draw_put(g, x + bw - 1, y + bh - 1, d->gl->br, COL_HELP);
	for (i = 1; i < bh - 1; i++) {
		draw_put(g, x, y + i, d->gl->v, COL_HELP);
		draw_put(g, x + bw - 1, y + i, d->gl->v, COL_HELP);
		draw_text(d, x + 2, y + i, x + bw - 2, help[i - 1], COL_HELP);
	}
	draw_text(d, x + 2, y, x + bw - 2, " help: any key closes ", COL_HELP);
}

/* Draw the whole screen into g (already sized). */
void
draw_screen(struct grid *g, const struct model *m, struct view *v,
    const char *const *help)
{
	struct draw	 d;
	int		 i, avail, th, tmin, ph, y, want;

	memset(&d, 0, sizeof d);
	d.g = g;
	d.m = m;
	d.v = v;
	d.gl = v->ascii ? &draw_ascii : &draw_utf8;
	d.top_static = MODEL_BOTTOM;
	for (i = 0; i < m->ntasks; i++) {
		if (m->tasks[i].state != MTASK_EXITED &&
		    120 + m->tasks[i].nice < d.top_static)
			d.top_static = 120 + m->tasks[i].nice;
	}
	if (m->ntasks == 0)
		d.top_static = 120;

	for (i = 0; i < g->w * g->h; i++) {
		g->cells[i].ch = L' ';
		g->cells[i].col = COL_DEFAULT;
	}
	v->task_rows = 0;
	draw_status(&d);
	if (g->h < 4) {
		if (g->h >= 2)
			draw_caption(&d, g->h - 1);
		return;
	}

	/* Rows 1 .. h-3 hold the panels and the tables. */
	avail = g->h - 3;
	tmin = 1 + (m->ntasks < 3 ? m->ntasks : 3);
	if (g->h >= 30 && m->ntasks >= 5)
		tmin = 1 + 5;
	th = draw_table_lines(&d, g->h >= 30 ? 7 : 4);
	if (avail - th - tmin < 6)
		th = 0;
	if (avail - tmin < 3)
		tmin = avail > 3 ? avail - 3 : 0;
	draw_index(&d);
	ph = draw_panels(&d, 1, avail - th - tmin);
	free(d.bycpu);
	free(d.cstart);
	free(d.pl);
	y = 1 + ph;
	/* The task table takes what is left, the article's table below. */
	want = avail - ph - th;
	if (th > 0 && 1 + m->ntasks < want) {
		/* Few tasks: their spare lines show more descents. */
		th += want - (1 + m->ntasks);
		want = 1 + m->ntasks;
		i = m->table.nrows < 1 ? 1 : m->table.nrows;
		if (th > 2 + i)
			th = 2 + i;
	}
	draw_tasks(&d, y, want);
	if (th > 0)
		draw_table(&d, y + want, th);
	draw_caption(&d, g->h - 2);
	draw_keys(&d, g->h - 1);
	if (v->show_help && help != NULL)
		draw_help(&d, help);
}

/* Encode one character as UTF-8. */
static size_t
draw_utf8_put(char *out, wchar_t wc)
{
	uint32_t	c = (uint32_t)wc;

	if (c < 0x80) {
		out[0] = (char)c;
		return (1);
	}
	if (c < 0x800) {
		out[0] = (char)(0xc0 | (c >> 6));
		out[1] = (char)(0x80 | (c & 0x3f));
		return (2);
	}
	if (c < 0x10000) {
		out[0] = (char)(0xe0 | (c >> 12));
		out[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		out[2] = (char)(0x80 | (c & 0x3f));
		return (3);
	}
	out[0] = (char)(0xf0 | (c >> 18));
	out[1] = (char)(0x80 | ((c >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((c >> 6) & 0x3f));
	out[3] = (char)(0x80 | (c & 0x3f));
	return (4);
}

/*
 * Dump a grid as text: its rows in UTF-8, trailing blanks cut; with
 * colours, a "--" line and then one letter per cell (draw_col_letter).
 * The caller frees the result.
 */
char *
draw_dump(const struct grid *g, int with_colours)
{
	char		*buf, *p, *line;
	size_t		 size;
	int		 x, y;
	const struct cell *c;

	size = (size_t)g->w * g->h * 5 + (size_t)g->h * 2 + 8;
	buf = p = xmalloc(size);
	for (y = 0; y < g->h; y++) {
		line = p;
		for (x = 0; x < g->w; x++) {
			c = &g->cells[y * g->w + x];
			if (c->ch != 0)
				p += draw_utf8_put(p, c->ch);
		}
		while (p > line && p[-1] == ' ')
			p--;
		*p++ = '\n';
	}
	if (with_colours) {
		*p++ = '-';
		*p++ = '-';
		*p++ = '\n';
		for (y = 0; y < g->h; y++) {
			line = p;
			for (x = 0; x < g->w; x++)
				*p++ = draw_letters[g->cells[y * g->w + x].col];
			while (p > line && p[-1] == ' ')
				p--;
			*p++ = '\n';
		}
	}
	*p = '\0';
	return (buf);
}
