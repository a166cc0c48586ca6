/*
 * keys-view.c -- the keys that change only what this screen shows: the
 * CPUs' scrolling and form (panels, list, both policies), the article's
 * table, the history panes and the timeline's zoom, the theme and big
 * type, the help and its scrolling.  None changes the daemon (but c
 * with no comparison yet, which asks for one), and a follower keeps its
 * own.
 */
#include <stdio.h>
#include <string.h>

#include <curses.h>

#include "draw.h"
#include "keys.h"
#include "model.h"
#include "pane.h"
#include "theme.h"
#include "view.h"

/* [ / ]: scroll the CPU panels by a row. */
int
keys_view_scroll(struct keys_env *e, int key)
{
	struct view	*v = e->view;

	if (key == '[' && v->cpu_top == 0)
		return (KEYS_HANDLED);		/* at the top: nothing moves */
	v->cpu_top += key == '[' ? -1 : 1;
	return (KEYS_HANDLED | KEYS_REDRAW);
}

/* Scroll the event log n events back (negative: on), not past now. */
void
keys_view_events_by(struct view *v, int n)
{
	v->events_back += n;
	if (v->events_back < 0)
		v->events_back = 0;
}

/* v: the CPUs as panels, as a list, or chosen from the screen. */
int
keys_view_cpus(struct keys_env *e, int key)
{
	static const char *const names[] = {
		[VIEW_AUTO] = "as fits the screen",
		[VIEW_PANELS] = "panels",
		[VIEW_LIST] = "a list"
	};
	struct view	*v = e->view;

	v->cpu_view = (v->cpu_view + 1) % 3;
	v->cpu_top = 0;
	draw_message(v, 0, "CPUs: %s", names[v->cpu_view]);
	return (KEYS_HANDLED | KEYS_REDRAW);
}

/*
 * The policies a comparison starts with: the current shadows, else the
 * first three that are not enforced, in the order of their history
 * (the staircase, what it replaced, what replaced it).
 */
static void
keys_view_compare_default(const struct model *m, char *buf, size_t len)
{
	static const char *const policies[] = {
		"staircase", "o1", "cfs", "eevdf", "rr"
	};
	size_t	i, n = 0, k = 0;

	if (m->nshadows > 0) {
		snprintf(buf, len, "%s", m->shadow_policy);
		return;
	}
	buf[0] = '\0';
	for (i = 0; i < sizeof policies / sizeof policies[0] && k < 3; i++) {
		if (strcmp(policies[i], m->policy) == 0)
			continue;
		n += snprintf(buf + n, len - n, "%s%s", k > 0 ? "," : "",
		    policies[i]);
		k++;
		if (n >= len)
			break;
	}
}

/*
 * c: every policy compared side by side (compare a,b,c), or the
 * enforced one alone.  With no comparison yet, and always with C, ask
 * which policies to compare with (a read-only client may not: it
 * changes every client's frames).
 */
int
keys_view_compare(struct keys_env *e, int key)
{
	struct view	*v = e->view;
	char		 def[MODEL_WORD_MAX];

	if (e->model->nshadows == 0 || key == 'C') {
		if (v->readonly) {
			draw_message(v, 1, "read-only client: %c refused (a "
			    "comparison would change the daemon)", key);
			return (KEYS_HANDLED | KEYS_REDRAW);
		}
		keys_view_compare_default(e->model, def, sizeof def);
		return (keys_prompt_open(e, PROMPT_COMPARE, "compare with "
		    "(up to 3, or off)", def));
	}
	v->compare_off = !v->compare_off;
	v->layout_cols = -1;
	draw_message(v, 0, "CPUs: %s", v->compare_off ? e->model->policy :
	    "every policy side by side");
	return (KEYS_HANDLED | KEYS_REDRAW);
}

/* t: the article's table on or off. */
int
keys_view_article(struct keys_env *e, int key)
{
	e->view->show_table = !e->view->show_table;
	draw_message(e->view, 0, "article table %s",
	    e->view->show_table ? "on" : "off");
	return (KEYS_HANDLED | KEYS_REDRAW | KEYS_TABLE);
}

/* w, r, e: the timeline, the rank line, the event log on or off. */
int
keys_view_history(struct keys_env *e, int key)
{
	struct view	*v = e->view;
	int		*on;
	const char	*what;

	switch (key) {
	case 'w':
		on = &v->show_timeline;
		what = "timeline (who ran when)";
		break;
	case 'r':
		on = &v->show_ranks;
		what = "the selected task's rank line";
		break;
	default:
		on = &v->show_events;
		what = "event log";
		break;
	}
	*on = !*on;
	draw_message(v, 0, "%s %s", what, *on ? "on" : "off");
	return (KEYS_HANDLED | KEYS_REDRAW);
}

/*
 * T: the next theme.  Like B, a key of the room: a follower keeps its
 * own, for the projector's screen is not the laptop's.
 */
int
keys_view_theme(struct keys_env *e, int key)
{
	struct view	*v = e->view;

	v->theme = (v->theme + 1) % THEME_MAX;
	draw_message(v, 0, "theme: %s (%s)", theme_name(v->theme),
	    theme_what(v->theme));
	return (KEYS_HANDLED | KEYS_REDRAW);
}

/* B: big type as fits the screen, always, never. */
int
keys_view_big(struct keys_env *e, int key)
{
	static const char *const big[] = {
		[BIG_AUTO] = "when one or two CPUs have room",
		[BIG_ON] = "on (one or two CPUs)",
		[BIG_OFF] = "off"
	};
	struct view	*v = e->view;

	v->big = (v->big + 1) % BIG_MAX;
	v->layout_cols = -1;
	/* Many CPUs: say that it does nothing here. */
	if (v->big != BIG_OFF && e->model->ncpus > 2)
		draw_message(v, 0, "big type: %s, but there are %d CPUs",
		    big[v->big], e->model->ncpus);
	else
		draw_message(v, 0, "big type: %s", big[v->big]);
	return (KEYS_HANDLED | KEYS_REDRAW);
}

/* z / Z: the timeline's cells cover fewer / more ticks. */
int
keys_view_zoom(struct keys_env *e, int key)
{
	static const int	 steps[] = { 1, 2, 5, 10, 20, 50, 100, 200 };
	struct view		*v = e->view;
	int			 z = v->zoom > 0 ? v->zoom : HISTORY_ZOOM, i, n;

	n = (int)(sizeof steps / sizeof steps[0]);
	for (i = 0; i < n - 1 && steps[i] < z; i++)
		;
	if (key == 'z' && i > 0)
		i--;
	else if (key == 'Z' && i < n - 1)
		i++;
	v->zoom = steps[i];
	draw_message(v, 0, "timeline: %d tick%s a cell", v->zoom,
	    v->zoom == 1 ? "" : "s");
	return (KEYS_HANDLED | KEYS_REDRAW);
}

/* u / d: the event log a few events back (older) / on (newer). */
int
keys_view_events(struct keys_env *e, int key)
{
	struct view	*v = e->view;

	if (!v->show_events)
		v->show_events = 1;
	keys_view_events_by(v, key == 'u' ? 5 : -5);
	return (KEYS_HANDLED | KEYS_REDRAW);
}

/* ? / F1: the help. */
int
keys_view_help(struct keys_env *e, int key)
{
	e->view->show_help = !e->view->show_help;
	return (KEYS_HANDLED | KEYS_REDRAW);
}

/*
 * A key while the help is open: Up/Down (k/j), PgUp/PgDn (and space),
 * Home/End scroll it; any other key closes it (q and Q too: they do not
 * quit from here).
 */
int
keys_view_help_key(struct view *v, int key)
{
	int	page = v->help_rows > 1 ? v->help_rows - 1 : 1;

	if (key == ' ')
		key = KEY_NPAGE;	/* a page on, as in less */
	if (!keys_select_list(key, &v->help_top, page, HELP_LINES)) {
		v->show_help = 0;
		v->help_top = 0;
	}
	if (v->help_top < 0)
		v->help_top = 0;
	return (KEYS_HANDLED | KEYS_REDRAW);
}
