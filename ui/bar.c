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

/* The caption line: the scenario's caption, and the last key's outcome. */
void
bar_caption(struct draw *d, int y)
{
	const struct model	*m = d->m;
	struct view		*v = d->v;
	struct grid		*g = d->g;
	const char		*right, *event;
	enum col		 col;
	int			 x, mx, mw;

	grid_put(g, 1, y, d->gl->quote, COL_CAPTION);
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
		mw = grid_width(right) + 2;
		if (mw > g->w - 3)
			mw = g->w - 3;
		mx = g->w - mw;
		grid_text(d->g, mx + 1, y, g->w, right, col);
	}
	if (m->caption[0] != '\0')
		grid_text(d->g, x, y, mx - 1, m->caption, COL_CAPTION);
	else if (event != NULL && right != event)
		grid_text(d->g, x, y, mx - 1, event, COL_SLEEPING);
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
