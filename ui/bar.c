/*
 * bar.c -- the one-line bars of the screen: the status line at the top,
 * the caption line (the scenario's caption and the last key's outcome)
 * and the bottom line of keys or the open prompt.  Pure: into a grid.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "stairs.h"
#include "xmalloc.h"

#define nitems(a)	(sizeof (a) / sizeof (a)[0])


/* The status line: what the daemon is doing, and how to get help. */
void
bar_status(struct draw *d)
{
	const struct model	*m = d->m;
	struct grid		*g = d->g;
	char			 right[64];
	int			 x, rx, n;

	grid_fill(g, 0, 0, g->w, L' ', COL_STATUS);
	x = grid_textf(d->g, 1, 0, g->w, COL_STATUS,
	    "stairs  tick %ld  %d CPU%s  %d task%s  rr %dms  speed %gx  ",
	    m->tick, m->ncpus, m->ncpus == 1 ? "" : "s", m->ntasks,
	    m->ntasks == 1 ? "" : "s", m->rr, m->speed);
	if (!m->greeted || m->frames == 0)
		x = grid_text(d->g, x, 0, g->w, "CONNECTING", COL_PAUSED);
	else if (m->paused)
		x = grid_text(d->g, x, 0, g->w, "PAUSED", COL_PAUSED);
	else
		x = grid_text(d->g, x, 0, g->w, "RUNNING", COL_STATUS);
	if (d->v->readonly) {
		x = grid_text(d->g, x, 0, g->w, "  ", COL_STATUS);
		x = grid_text(d->g, x, 0, g->w, "READ-ONLY", COL_READONLY);
	}
	if (m->dropped > 0)
		x = grid_textf(d->g, x, 0, g->w, COL_STATUS, "  dropped %ld",
		    m->dropped);
	n = snprintf(right, sizeof right, "? help  q detach ");
	rx = g->w - n;
	if (rx > x + 1)
		grid_text(d->g, rx, 0, g->w, right, COL_STATUS);
}

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
	if (d->v->message[0] != '\0')
		return (d->v->message);
	if (event != NULL && m->caption[0] != '\0') {
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
 * How many bytes of s fit in width columns, cut after a word when
 * there is one to cut at (every character counted one column wide).
 */
static size_t
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
	const char	*right;
	enum col	 col;

	if (d->m->caption[0] == '\0')
		return (1);
	right = bar_right(d, &col);
	if (grid_width(d->m->caption) <= bar_right_x(d, right) - 4)
		return (1);
	return (2);
}

/*
 * The caption line(s) from y: the scenario's caption, wrapped on two
 * lines when there are, and the last key's outcome on the right of the
 * last.  With no caption, the newest event, unless a key's outcome is
 * up: that is the same action said twice.
 */
void
bar_caption(struct draw *d, int y, int lines)
{
	const struct model	*m = d->m;
	struct grid		*g = d->g;
	const char		*right, *event, *cap = m->caption;
	enum col		 col;
	int			 mx, last = y + lines - 1;
	size_t			 n;
	char			 buf[MODEL_TEXT_MAX];

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
	if (grid_width(cap) > mx - 4) {
		/* Still too long: cut, and say so. */
		n = bar_wrap(cap, mx - 5);
		snprintf(buf, sizeof buf, "%.*s…", (int)n, cap);
		cap = buf;
	}
	grid_text(g, 3, last, mx - 1, cap, COL_CAPTION);
}

/* The bottom line: a prompt, or the keys. */
void
bar_keys(struct draw *d, int y)
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
		grid_fill(g, 0, y, g->w, L' ', COL_PROMPT);
		x = grid_textf(d->g, 1, y, g->w, COL_PROMPT, "%s: ",
		    v->prompt_label);
		x = grid_text(d->g, x, y, g->w, v->prompt_buf,
		    v->prompt_fresh ? COL_SELECTED : COL_PROMPT);
		grid_put(g, x, y, L'_', COL_PROMPT);
		return;
	}
	/* The longest hint line that fits (else the shortest, cut). */
	text = NULL;
	for (i = 0; i < nitems(hints); i++) {
		if (hints[i].readonly != v->readonly)
			continue;
		text = hints[i].text;
		if (grid_width(text) + 1 <= g->w)
			break;
	}
	grid_text(d->g, 1, y, g->w, text, COL_KEYS);
}
