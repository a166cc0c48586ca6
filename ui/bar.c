/*
 * bar.c -- the one-line bars of the screen: the status line at the top,
 * the caption line (the scenario's caption and the last key's outcome)
 * and the bottom line of keys or the open prompt.  Pure: into a grid.
 * The keys the bottom line (and the status line's "? help  q detach")
 * names are tagged on their cells: a click there is that key.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include <curses.h>

#include "caption.h"
#include "grid.h"
#include "keys.h"
#include "model.h"
#include "pane.h"
#include "view.h"
#include "xmalloc.h"

#define nitems(a)	(sizeof (a) / sizeof (a)[0])

#define BAR_HINT_MAX	256	/* characters of a hint line */
#define BAR_WORD_KEYS	8	/* keys one word of it names */
#define BAR_ITEMS	24	/* keys a hint line names */

/*
 * The key one part of a hint's key word names ("s", "space", "←"): the
 * key, 0 for a part that names keys but none to click ("arrows"), -1 for
 * a part that is not a key.  The names are those the hint lines below
 * use.
 */
static int
bar_key_part(const wchar_t *w, int n)
{
	static const struct {
		const wchar_t	*name;
		int		 key;
	} names[] = {
		{ L"space", ' ' }, { L"spc", ' ' }, { L"arrows", 0 }
	};
	size_t	i;

	if (n == 1) {
		if (w[0] == L'←')
			return (KEY_LEFT);
		if (w[0] == L'→')
			return (KEY_RIGHT);
		return (w[0] > 32 && w[0] < 127 ? (int)w[0] : -1);
	}
	for (i = 0; i < nitems(names); i++) {
		if (wcslen(names[i].name) == (size_t)n &&
		    wcsncmp(names[i].name, w, n) == 0)
			return (names[i].key);
	}
	return (-1);
}

/*
 * The keys a word of a hint line names, their columns in keys/at/len
 * (at most BAR_WORD_KEYS): "x", "+/-", "←/→", "q/Q", "arrows/j/k",
 * "<>" (two), "space:" (a trailing colon).  after_key: the word before
 * named keys too, when only a lone mark counts ("[ ]", "{ }"), so that
 * "←/→ a tick" reads a as a word.  Returns how many, -1 if it is no key
 * word.
 */
static int
bar_word_keys(const wchar_t *w, int n, int after_key, int *keys, int *at,
    int *len)
{
	int	i, start, k, nk = 0, slash = 0;

	if (after_key) {
		if (n != 1 || w[0] <= 32 || w[0] >= 127 || iswalnum(w[0]))
			return (-1);
		keys[0] = (int)w[0];
		at[0] = 0;
		len[0] = 1;
		return (1);
	}
	if (n > 1 && w[n - 1] == L':')
		n--;
	for (i = 0; i < n; i++)
		slash += w[i] == L'/';
	if (n == 1 || slash == 0) {
		if ((k = bar_key_part(w, n)) >= 0) {
			keys[0] = k;
			at[0] = 0;
			len[0] = n;
			return (k > 0);
		}
		/* "<>", "{}": each a key. */
		for (i = 0; i < n && i < BAR_WORD_KEYS; i++) {
			if (w[i] >= 127 || w[i] <= 32 || iswalnum(w[i]))
				return (-1);
			keys[i] = (int)w[i];
			at[i] = i;
			len[i] = 1;
		}
		return (i);
	}
	for (start = 0, i = 0; i <= n; i++) {
		if (i < n && w[i] != L'/')
			continue;
		if (i == start || (k = bar_key_part(w + start, i - start)) < 0)
			return (-1);
		if (k > 0 && nk < BAR_WORD_KEYS) {
			keys[nk] = k;
			at[nk] = start;
			len[nk++] = i - start;
		}
		start = i + 1;
	}
	return (nk);
}

/* A group of key words named one key: its words are that key too. */
static void
bar_tag_group(struct grid *g, int x, int y, int from, int to, int nkeys,
    int key)
{
	if (from >= 0 && nkeys == 1)
		grid_tag(g, x + from, y, to - from, GRID_KEY(key));
}

/*
 * Tag the keys a hint line drawn at (x, y) names: each key's own cells,
 * and where a group of key words names one key, the words after it that
 * describe it too ("x kill", "space pause"); "+/- nice" leaves "nice"
 * untagged, which of the two it is being unclear.
 */
static void
bar_tag_hints(struct grid *g, int x, int y, const char *text)
{
	wchar_t	 wc[BAR_HINT_MAX];
	int	 keys[BAR_WORD_KEYS], at[BAR_WORD_KEYS], len[BAR_WORD_KEYS];
	int	 n, i, j, k, nk, nkeys = 0, key = 0, from = -1, to = 0;
	int	 in_keys = 0;

	n = grid_decode(text, wc, BAR_HINT_MAX);
	for (i = 0; i < n; i = j) {
		if (wc[i] == L' ') {
			j = i + 1;
			continue;
		}
		for (j = i; j < n && wc[j] != L' '; j++)
			;
		nk = bar_word_keys(wc + i, j - i, in_keys, keys, at, len);
		if (nk < 0) {
			/* A word describing the keys before it. */
			to = j;
			in_keys = 0;
			continue;
		}
		if (!in_keys) {
			bar_tag_group(g, x, y, from, to, nkeys, key);
			from = i;
			nkeys = 0;
		}
		for (k = 0; k < nk; k++)
			grid_tag(g, x + i + at[k], y, len[k], GRID_KEY(keys[k]));
		if (nk > 0)
			key = keys[0];
		nkeys += nk;
		to = j;
		in_keys = 1;
	}
	bar_tag_group(g, x, y, from, to, nkeys, key);
}

/* Draw a hint line at (x, y) up to xmax, its keys clickable. */
static int
bar_hint(struct grid *g, int x, int y, int xmax, const char *text,
    enum col col)
{
	int	end;

	end = grid_text(g, x, y, xmax, text, col);
	bar_tag_hints(g, x, y, text);
	/* What did not fit is not there to click. */
	grid_tag(g, end, y, x + grid_width(text) - end, 0);
	return (end);
}

/* One key's words on a hint line: the key, and which of its forms. */
struct bar_item {
	int		 key;
	enum keys_form	 form;
};

#define B(k)	{ (k), KEYS_BAR }
#define N(k)	{ (k), KEYS_BRIEF }
#define P(k)	{ (k), KEYS_PAST }
#define PN(k)	{ (k), KEYS_PAST_BRIEF }

/*
 * A hint line: what it starts with, then each key's words (keys.c's
 * table says them, keys_bar) apart by sep.
 */
struct bar_line {
	int		 readonly;
	const char	*lead;
	const char	*sep;
	struct bar_item	 items[BAR_ITEMS];	/* key 0 ends */
};

/* The bottom line's, widest first: the longest that fits is drawn. */
static const struct bar_line bar_lines[] = {
	{ 0, "", "  ", { B('s'), B('S'), B('+'), B('a'), B('x'), B('n'),
	    B(' '), B('.'), B('i'), B('E'), B('<'), B('*'), B(KEY_LEFT),
	    B('l'), B('R'), B('/'), B('t'), B('?'), B('q'), B('Q') } },
	{ 0, "", "  ", { B('s'), B('S'), B('+'), B('a'), B('x'), B('n'),
	    B(' '), B('.'), B('i'), B('E'), B('<'), B(KEY_LEFT), B('l'),
	    B('t'), B('?'), B('q'), B('Q') } },
	{ 0, "", "  ", { B('s'), B('S'), B('+'), B('a'), B('x'), B('n'),
	    B(' '), B('.'), B('<'), B('t'), B('?'), B('q'), B('Q') } },
	{ 0, "", "  ", { B('s'), B('S'), B('+'), B('a'), B('x'), B('n'),
	    B(' '), B('.'), B('<'), B('t'), B('?'), N('q') } },
	{ 1, "read-only:  ", "  ", { B(KEY_UP), B('t'), B('['), B('?'),
	    B('q') } },
	{ 0, "", " ", { N('s'), N('+'), N('a'), N('x'), N('n'), N(' '),
	    N('.'), N('<'), N('?'), N('q') } },
	{ 1, "read-only: ", "  ", { N(KEY_UP), B('t'), B('?'), B('q') } },
};

/* The past's (after a seek), after what space does there. */
static const struct bar_line bar_past_lines[] = {
	{ 0, "  ", "  ", { P(KEY_LEFT), P('{'), P('b'), P('('), P('?') } },
	{ 0, "  ", "  ", { PN(KEY_LEFT), PN('{'), PN('b'), PN('(') } },
	{ 0, "  ", "  ", { PN(KEY_LEFT), PN('b') } },
};
static const struct bar_line bar_past_readonly =
	{ 1, "  ", "  ", { N(KEY_UP), B('?'), B('q') } };

/* The status line's, on its right. */
static const struct bar_line bar_status_line =
	{ 0, "", "  ", { B('?'), B('q') } };

/* Make a hint line into buf from the key table's words. */
static const char *
bar_make(const struct bar_line *l, char *buf, size_t len)
{
	const struct bar_item	*it;
	const char		*w, *sep = "";
	int			 o;

	o = snprintf(buf, len, "%s", l->lead);
	for (it = l->items; it < l->items + BAR_ITEMS && it->key != 0; it++) {
		if ((w = keys_bar(it->key, it->form)) == NULL)
			continue;
		if (o >= 0 && (size_t)o < len)
			o += snprintf(buf + o, len - o, "%s%s", sep, w);
		sep = l->sep;
	}
	return (buf);
}

/* One piece of the status line, and whether it goes when short. */
struct bar_piece {
	char		 text[MODEL_WORD_MAX + 32];
	enum col	 col;
	int		 drop;		/* 0 never, else the order it goes */
};

/*
 * The status line: the scenario, what the daemon is doing, and how to
 * get help.  In the past (after a seek) the tick says "T of NOW" and
 * the state is PAST.  When it does not fit, the least needed pieces go
 * first (the program's name, rr, the task count, the speed, the CPU
 * count, the policy last), so the state and READ-ONLY stay.
 */
void
bar_status(struct draw *d)
{
	const struct model	*m = d->m;
	struct grid		*g = d->g;
	struct bar_piece	 p[15];
	char			 right[64];
	int			 x, rx, i, n = 0, w, drop;

	memset(p, 0, sizeof p);
	/* The program's name goes first, when the scenario's is there. */
	snprintf(p[n].text, sizeof p[n].text, "stairs");
	p[n++].drop = m->scenario[0] != '\0';
	if (m->scenario[0] != '\0')
		snprintf(p[n++].text, sizeof p[0].text, "%s", m->scenario);
	if (m->live)
		snprintf(p[n++].text, sizeof p[0].text, "tick %ld", m->tick);
	else
		snprintf(p[n++].text, sizeof p[0].text, "tick %ld of %ld",
		    m->tick, m->now);
	snprintf(p[n].text, sizeof p[0].text, "%d CPU%s", m->ncpus,
	    m->ncpus == 1 ? "" : "s");
	p[n++].drop = 5;
	snprintf(p[n].text, sizeof p[0].text, "%d task%s", m->ntasks,
	    m->ntasks == 1 ? "" : "s");
	p[n++].drop = 3;
	snprintf(p[n].text, sizeof p[0].text, "rr %dms", m->rr);
	p[n++].drop = 2;
	snprintf(p[n].text, sizeof p[0].text, "speed %gx", m->speed);
	p[n++].drop = 4;
	/*
	 * The policy, which a class is told to watch, goes last; with a
	 * shadow both, and they stay.
	 */
	if (m->shadow != NULL)
		snprintf(p[n++].text, sizeof p[0].text, "%.24s vs %.24s",
		    m->policy, m->shadow_policy);
	else if (m->policy[0] != '\0') {
		snprintf(p[n].text, sizeof p[0].text, "%s", m->policy);
		p[n++].drop = 6;
	}
	p[n].col = COL_STATUS;
	if (!m->greeted || m->frames == 0) {
		snprintf(p[n].text, sizeof p[0].text, "CONNECTING");
		p[n].col = COL_PAUSED;
	} else if (!m->live) {
		snprintf(p[n].text, sizeof p[0].text, "PAST");
		p[n].col = COL_PAUSED;
	} else if (m->paused) {
		snprintf(p[n].text, sizeof p[0].text, "PAUSED");
		p[n].col = COL_PAUSED;
	} else
		snprintf(p[n].text, sizeof p[0].text, "RUNNING");
	n++;
	if (d->v->readonly) {
		snprintf(p[n].text, sizeof p[0].text, "READ-ONLY");
		p[n++].col = COL_READONLY;
	}
	if (m->parts > 0) {
		snprintf(p[n].text, sizeof p[0].text, "REPLAY part %d/%d",
		    m->part, m->parts);
		p[n++].col = COL_PAUSED;
	}
	if (m->dropped > 0)
		snprintf(p[n++].text, sizeof p[0].text, "dropped %ld",
		    m->dropped);

	/* Drop what is least needed until the rest fits. */
	for (drop = 1; drop <= 6; drop++) {
		for (w = 1, i = 0; i < n; i++) {
			if (p[i].text[0] != '\0')
				w += grid_width(p[i].text) + 2;
		}
		if (w - 2 <= g->w)
			break;
		for (i = 0; i < n; i++) {
			if (p[i].drop == drop)
				p[i].text[0] = '\0';
		}
	}

	grid_fill(g, 0, 0, g->w, L' ', COL_STATUS);
	x = 1;
	for (i = 0; i < n; i++) {
		if (p[i].text[0] == '\0')
			continue;
		if (x > 1)
			x = grid_text(d->g, x, 0, g->w, "  ", COL_STATUS);
		x = grid_text(d->g, x, 0, g->w, p[i].text,
		    p[i].col == COL_DEFAULT ? COL_STATUS : p[i].col);
	}
	x += 2;
	bar_make(&bar_status_line, right, sizeof right - 1);
	strcat(right, " ");
	rx = g->w - grid_width(right);
	if (rx > x + 1)
		bar_hint(d->g, rx, 0, g->w, right, COL_STATUS);
}

/*
 * The caption to show: the one the caption line's hold has up (each
 * stays long enough to read, caption.c; a view it was never fed for
 * shows the frame's), else (none up) the scenario's description, from
 * the `scenarios` reply or `status`.
 */
static const char *
bar_caption_text(struct draw *d)
{
	const struct model	*m = d->m;
	const char		*cap = m->caption;

	if (d->v->captions.fed)
		cap = caption_text(&d->v->captions, d->caption_buf,
		    sizeof d->caption_buf);
	if (cap[0] != '\0')
		return (cap);
	return (model_description(m));
}

static int	bar_right_x(struct draw *, const char *);
static int	bar_room_answer(struct draw *);

/*
 * What the right of the caption line shows: the last key's outcome, or
 * when there is none (or it is old) and a caption is up, what just
 * happened (the newest event).  NULL for nothing.
 */
static const char *
bar_right(struct draw *d, enum col *col)
{
	const struct model	*m = d->m;
	const char		*event = model_last_event(m);

	*col = d->v->message_error ? COL_ERROR : COL_KEYS;
	if (d->v->message[0] != '\0') {
		/*
		 * An answer up that the outcome beside it would cut (a
		 * student's "your answer" at 80 columns) has the line.
		 */
		if (!d->v->message_error && d->v->captions.shown.answer &&
		    grid_width(bar_caption_text(d)) >
		    2 * (bar_right_x(d, d->v->message) - 4))
			return (NULL);
		return (d->v->message);
	}
	if (event != NULL && bar_caption_text(d)[0] != '\0') {
		*col = COL_SLEEPING;
		return (event);
	}
	return (NULL);
}

/* The column where the right part starts (g->w when there is none). */
static int
bar_right_x(struct draw *d, const char *right)
{
	int	mw;

	if (right == NULL)
		return (d->g->w);
	mw = grid_width(right) + 2;
	if (mw > d->g->w - 3)
		mw = d->g->w - 3;
	return (d->g->w - mw);
}

/*
 * s cut to width columns after a word, an ellipsis saying so, in buf
 * (len bytes); returns buf.
 */
const char *
bar_cut(const char *s, int width, char *buf, size_t len)
{
	size_t	n = bar_wrap(s, width > 1 ? width - 1 : 0);

	while (n > 0 && s[n - 1] == ' ')
		n--;
	snprintf(buf, len, "%.*s…", (int)n, s);
	return (buf);
}

/*
 * How many bytes of s fit in width columns, cut after a word when
 * there is one to cut at (every character counted one column wide).
 */
size_t
bar_wrap(const char *s, int width)
{
	size_t	i, cut = 0;
	int	cols = 0;

	for (i = 0; s[i] != '\0'; i++) {
		if (((unsigned char)s[i] & 0xc0) == 0x80)
			continue;
		if (cols == width)
			return (cut > 0 ? cut : i);
		if (s[i] == ' ')
			cut = i + 1;
		cols++;
	}
	return (i);
}

/*
 * The lines the caption wants: two when it does not fit beside the
 * key's outcome on one (at 60 to 80 columns it was cut).
 */
int
bar_caption_lines(struct draw *d)
{
	const char	*right, *cap = bar_caption_text(d);
	enum col	 col;
	int		 room = bar_room_shown(d);

	if (cap[0] == '\0')
		return (1 + room);
	right = bar_right(d, &col);
	if (grid_width(cap) <= bar_right_x(d, right) - 4)
		return (1 + room);
	return (2 + room);
}

/*
 * Is the room's question shown (SPEC.md section 12): open, or revealed
 * with its votes beside the answer, with its choices known?  A line of
 * its own above the caption then.
 */
int
bar_room_shown(struct draw *d)
{
	const struct model	*m = d->m;

	if (!m->live)
		return (0);
	return (bar_room_answer(d) || model_asking(m));
}

/*
 * Is an answer up (held by the caption line) with the votes it was
 * revealed with?  Then those show beside it, though the clock already
 * waits on the next question (up once the answer's hold ends).
 */
static int
bar_room_answer(struct draw *d)
{
	return (d->m->rnchoices > 0 && d->v->captions.fed &&
	    d->v->captions.shown.answer);
}

/*
 * The columns each of the n choices (choices[1..n]) may take in room
 * columns: the short ones take what they need and leave the rest to
 * the long, which share it (4 at least).
 */
static int
bar_room_each(const char choices[][MODEL_WORD_MAX], int n, int room)
{
	int	i, left, each = 4, more, fit[MODEL_CHOICES_MAX + 1];

	memset(fit, 0, sizeof fit);
	for (more = 1; more && n > 0; ) {
		more = 0;
		left = n;
		for (i = 1; i <= n; i++)
			left -= fit[i];
		if (left == 0)
			break;
		each = room / left;
		for (i = 1; i <= n; i++) {
			if (!fit[i] && grid_width(choices[i]) <= each) {
				fit[i] = 1;
				room -= grid_width(choices[i]);
				more = 1;
			}
		}
	}
	return (each < 4 ? 4 : each);
}

/*
 * The room's line at y: each choice by its digit with its votes ("1
 * At once 0 · 2 At 20 ms 3 · ..."), how to answer while it is open, the
 * total; a choice's text cut to share the width.
 */
static void
bar_room(struct draw *d, int y)
{
	const struct model	*m = d->m;
	struct grid		*g = d->g;
	char			 head[64];
	const int		*votes;
	const char		*text;
	char			 cut[MODEL_WORD_MAX + 4];
	int			 i, x, n, total = 0, each, open;

	open = model_asking(m) && !bar_room_answer(d);
	n = open ? m->nchoices : m->rnchoices;
	votes = open ? m->votes : m->rvotes;
	for (i = 1; i <= n; i++)
		total += votes[i];
	if (open)
		snprintf(head, sizeof head, "answer 1-%d (%d so far):", n,
		    total);
	else
		snprintf(head, sizeof head, "the room answered (%d):", total);
	x = grid_text(g, 1, y, g->w, head, COL_PAUSED);
	each = bar_room_each(open ? m->choices : m->rchoices, n,
	    g->w - x - 1 - n * 6);
	for (i = 1; i <= n && x < g->w - 1; i++) {
		text = open ? m->choices[i] : m->rchoices[i];
		x = grid_textf(g, x + 1, y, g->w, COL_CAPTION, " %d ", i);
		if (grid_width(text) > each)
			text = bar_cut(text, each, cut, sizeof cut);
		x = grid_text(g, x, y, g->w, text, COL_DEFAULT);
		x = grid_textf(g, x, y, g->w, COL_RUNNING, " %d", votes[i]);
	}
}

/*
 * The caption line(s) from y: the scenario's caption (or, with none
 * up, its description), wrapped on two lines when there are, and the
 * last key's outcome on the right of the last.  With no caption nor
 * description, the newest event, unless a key's outcome is up: that is
 * the same action said twice.
 */
void
bar_caption(struct draw *d, int y, int lines)
{
	const struct model	*m = d->m;
	struct grid		*g = d->g;
	const char		*right, *event, *cap = bar_caption_text(d);
	enum col		 col;
	int			 mx, last = y + lines - 1;
	size_t			 n;
	char			 buf[MODEL_DESC_MAX];

	if (bar_room_shown(d) && lines > 1) {
		bar_room(d, y);
		y++;
		lines--;
	}
	grid_put(g, 1, y, d->gl->quote, COL_CAPTION);
	right = bar_right(d, &col);
	mx = bar_right_x(d, right);
	if (right != NULL)
		grid_text(g, mx + 1, last, g->w, right, col);
	if (cap[0] == '\0') {
		event = model_last_event(m);
		if (event != NULL && right == NULL)
			grid_text(g, 3, y, mx - 1, event, COL_SLEEPING);
		return;
	}
	if (lines > 1) {
		n = bar_wrap(cap, g->w - 4);
		snprintf(buf, sizeof buf, "%.*s", (int)n, cap);
		grid_text(g, 3, y, g->w - 1, buf, COL_CAPTION);
		cap += n;
	}
	if (grid_width(cap) > mx - 4)
		cap = bar_cut(cap, mx - 4, buf, sizeof buf);	/* still long */
	grid_text(g, 3, last, mx - 1, cap, COL_CAPTION);
}

/*
 * The bottom line in the past (after a seek): that it is the past, the
 * tick shown of the present one, and the keys that move in it.
 */
static void
bar_past(struct draw *d, int y)
{
	const struct model	*m = d->m;
	struct grid		*g = d->g;
	const char		*resume;
	char			 buf[BAR_HINT_MAX];
	size_t			 i;
	int			 x;

	grid_fill(g, 0, y, g->w, L' ', COL_KEYS);
	x = grid_textf(g, 1, y, g->w, COL_PAUSED,
	    "viewing the past — tick %ld of %ld", m->tick, m->now);
	if (d->v->readonly) {
		bar_hint(g, x, y, g->w, bar_make(&bar_past_readonly, buf,
		    sizeof buf), COL_KEYS);
		return;
	}
	resume = keys_bar(' ', model_has_real(m) ? KEYS_PAST_REAL :
	    KEYS_PAST);
	snprintf(buf, sizeof buf, "  %s", resume != NULL ? resume : "");
	if (x + grid_width(buf) < g->w)
		x = bar_hint(g, x, y, g->w, buf, COL_KEYS);
	for (i = 0; i < nitems(bar_past_lines); i++) {
		bar_make(&bar_past_lines[i], buf, sizeof buf);
		if (x + grid_width(buf) < g->w) {
			bar_hint(g, x, y, g->w, buf, COL_KEYS);
			break;
		}
	}
}

/* The bottom line: a prompt, or the keys. */
void
bar_keys(struct draw *d, int y)
{
	struct view	*v = d->v;
	struct grid	*g = d->g;
	char		 buf[BAR_HINT_MAX];
	const char	*text;
	size_t		 i;
	int		 x;

	if (v->prompt) {
		grid_fill(g, 0, y, g->w, L' ', COL_PROMPT);
		x = grid_textf(d->g, 1, y, g->w, COL_PROMPT, "%s: ",
		    v->prompt_label);
		x = grid_text(d->g, x, y, g->w, v->prompt_buf,
		    v->prompt_fresh ? COL_SELECTED : COL_PROMPT);
		grid_put(g, x, y, L'_', COL_PROMPT);
		return;
	}
	if (!d->m->live && d->m->frames > 0) {
		bar_past(d, y);
		return;
	}
	/* The longest hint line that fits (else the shortest, cut). */
	text = NULL;
	for (i = 0; i < nitems(bar_lines); i++) {
		if (bar_lines[i].readonly != v->readonly)
			continue;
		text = bar_make(&bar_lines[i], buf, sizeof buf);
		if (grid_width(text) + 1 <= g->w)
			break;
	}
	bar_hint(d->g, 1, y, g->w, text, COL_KEYS);
}
