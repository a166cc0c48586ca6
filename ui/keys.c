/*
 * keys.c -- the key table: each key maps to an action that changes the
 * view or sends a command to the daemon, and returns reaction flags
 * (KEYS_HANDLED, KEYS_REDRAW, ...) telling the main loop what to do.
 * Actions that change the daemon are marked, so a read-only client
 * refuses them in one place.  Also the prompt line (S, a, n, *), the
 * scenario picker (l), the rewind keys (seek) and the mouse: a click on
 * a task (on the stairs or in the table) selects it, a click on a key
 * of the keys bar is that key, the wheel scrolls what it is over.  No
 * ncurses calls: only its key codes.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "protocol.h"
#include "stairs.h"

enum keys_prompt {
	PROMPT_NONE,
	PROMPT_SLEEP,
	PROMPT_AFFINITY,
	PROMPT_NEW,
	PROMPT_FIND,
	PROMPT_SPEED,
	PROMPT_COMPARE,		/* a policy to compare with */
	PROMPT_KILL,		/* y/N: kill prompt_task */
	PROMPT_SHUTDOWN		/* y/N: stop the daemon for everyone */
};

struct keys_binding {
	int		 key;
	int		 alt;		/* another key for it, or 0 */
	int		 changes;	/* changes the daemon: not read-only */
	int		(*fn)(struct keys_env *, int);
};

/* The task selected, or NULL (with a message saying so). */
static const struct mtask *
keys_selected(struct keys_env *e)
{
	const struct mtask	*t;

	t = model_task(e->model, e->view->selected);
	if (t == NULL)
		draw_message(e->view, 1, "no task selected");
	return (t);
}

/* Send a command; say so if it could not be sent. */
static int
keys_send(struct keys_env *e, enum model_pend kind, const char *what,
    const char *cmd)
{
	if (e->send(e->arg, kind, cmd) != 0 ||
	    model_sent(e->model, kind, what) != 0) {
		draw_message(e->view, 1, "%s: not sent", what);
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	draw_message(e->view, 0, "%s ...", what);
	e->view->message_note = 0;
	return (KEYS_HANDLED | KEYS_REDRAW);
}

/* Move the selection by n rows (clamped). */
static int
keys_move(struct keys_env *e, int n)
{
	struct model	*m = e->model;
	int		 i;

	if (m->ntasks == 0)
		return (KEYS_HANDLED);
	i = model_task_index(m, e->view->selected);
	if (i < 0)
		i = 0;
	else
		i += n;
	if (i >= m->ntasks)
		i = m->ntasks - 1;
	if (i < 0)
		i = 0;
	if (m->tasks[i].id == e->view->selected)
		return (KEYS_HANDLED);
	e->view->selected = m->tasks[i].id;
	return (KEYS_HANDLED | KEYS_REDRAW | KEYS_TABLE);
}

/* Up / k: the task above. */
static int
keys_up(struct keys_env *e, int key)
{
	return (keys_move(e, -1));
}

/* Down / j: the task below. */
static int
keys_down(struct keys_env *e, int key)
{
	return (keys_move(e, 1));
}

/* PgUp / PgDn: a page of tasks. */
static int
keys_page(struct keys_env *e, int key)
{
	int	n = e->view->task_rows > 1 ? e->view->task_rows - 1 : 1;

	return (keys_move(e, key == KEY_PPAGE ? -n : n));
}

/* Home / End, g / G: the first or last task. */
static int
keys_ends(struct keys_env *e, int key)
{
	int	first = key == KEY_HOME || key == 'g';

	return (keys_move(e, first ? -e->model->ntasks : e->model->ntasks));
}

/* [ / ]: scroll the CPU panels by a row. */
static int
keys_cpus(struct keys_env *e, int key)
{
	struct view	*v = e->view;

	if (key == '[' && v->cpu_top == 0)
		return (KEYS_HANDLED);		/* at the top: nothing moves */
	v->cpu_top += key == '[' ? -1 : 1;
	return (KEYS_HANDLED | KEYS_REDRAW);
}

/* Scroll the event log n events back (negative: on), not past now. */
static void
keys_events_by(struct view *v, int n)
{
	v->events_back += n;
	if (v->events_back < 0)
		v->events_back = 0;
}

/* s: the default sleep for the selected task. */
static int
keys_sleep(struct keys_env *e, int key)
{
	const struct mtask	*t;
	char			 cmd[64], what[96];

	if ((t = keys_selected(e)) == NULL)
		return (KEYS_HANDLED | KEYS_REDRAW);
	snprintf(cmd, sizeof cmd, "sleep %d %d", t->id, e->model->sleep_ms);
	snprintf(what, sizeof what, "%s sleeps %d ms", t->name,
	    e->model->sleep_ms);
	return (keys_send(e, PEND_ACTION, what, cmd));
}

/* Open the prompt line. */
static int
keys_prompt_open(struct keys_env *e, int kind, const char *label,
    const char *init)
{
	struct view	*v = e->view;

	v->prompt = kind;
	v->prompt_task = v->selected;
	snprintf(v->prompt_label, sizeof v->prompt_label, "%s", label);
	snprintf(v->prompt_buf, sizeof v->prompt_buf, "%s", init);
	v->prompt_fresh = 1;
	return (KEYS_HANDLED | KEYS_REDRAW);
}

/* S: ask how long the selected task sleeps. */
static int
keys_sleep_ask(struct keys_env *e, int key)
{
	const struct mtask	*t;
	char			 label[64], init[16];

	if ((t = keys_selected(e)) == NULL)
		return (KEYS_HANDLED | KEYS_REDRAW);
	snprintf(label, sizeof label, "sleep %s for how many ms", t->name);
	snprintf(init, sizeof init, "%d", e->model->sleep_ms);
	return (keys_prompt_open(e, PROMPT_SLEEP, label, init));
}

/* + / -: nice up or down by one. */
static int
keys_nice(struct keys_env *e, int key)
{
	const struct mtask	*t;
	char			 cmd[64], what[96];
	int			 n;

	if ((t = keys_selected(e)) == NULL)
		return (KEYS_HANDLED | KEYS_REDRAW);
	n = t->nice;
	if (e->view->nice_task == t->id)
		n = e->view->nice_value;
	n += key == '-' || key == KEY_F(7) ? -1 : 1;
	if (n < -20 || n > 19) {
		draw_message(e->view, 1, "%s: nice stays in -20..19", t->name);
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	snprintf(cmd, sizeof cmd, "nice %d %d", t->id, n);
	snprintf(what, sizeof what, "%s nice %d", t->name, n);
	e->view->nice_task = t->id;
	e->view->nice_value = n;
	e->view->nice_frames = e->model->frames;
	return (keys_send(e, PEND_ACTION, what, cmd));
}

/* a: ask for the selected task's CPUs. */
static int
keys_affinity(struct keys_env *e, int key)
{
	const struct mtask	*t;
	char			 label[64];

	if ((t = keys_selected(e)) == NULL)
		return (KEYS_HANDLED | KEYS_REDRAW);
	snprintf(label, sizeof label, "CPUs for %s (like 0-2,5)", t->name);
	return (keys_prompt_open(e, PROMPT_AFFINITY, label,
	    strcmp(t->cpus, "-") == 0 ? "" : t->cpus));
}

/* x / F9: ask, then kill the selected task. */
static int
keys_kill(struct keys_env *e, int key)
{
	const struct mtask	*t;
	char			 label[64];

	if ((t = keys_selected(e)) == NULL)
		return (KEYS_HANDLED | KEYS_REDRAW);
	snprintf(label, sizeof label, "kill %.31s (id %d)? y/N", t->name,
	    t->id);
	return (keys_prompt_open(e, PROMPT_KILL, label, ""));
}

/* /: ask for a task to find. */
static int
keys_find(struct keys_env *e, int key)
{
	return (keys_prompt_open(e, PROMPT_FIND, "find a task (name or id)",
	    ""));
}

/* v: the CPUs as panels, as a list, or chosen from the screen. */
static int
keys_view(struct keys_env *e, int key)
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
 * c: both policies side by side (compare NAME), or the enforced one.
 * With no comparison yet, ask which policy to compare with (a read-only
 * client may not start one: it changes every client's frames).
 */
static int
keys_compare(struct keys_env *e, int key)
{
	struct view	*v = e->view;

	if (e->model->shadow == NULL) {
		if (v->readonly) {
			draw_message(v, 1, "read-only client: c refused (a "
			    "comparison would change the daemon)");
			return (KEYS_HANDLED | KEYS_REDRAW);
		}
		return (keys_prompt_open(e, PROMPT_COMPARE, "compare with "
		    "which policy (staircase, o1, cfs, eevdf, rr)",
		    strcmp(e->model->policy, "o1") == 0 ? "staircase" : "o1"));
	}
	v->compare_off = !v->compare_off;
	v->layout_cols = -1;
	draw_message(v, 0, "CPUs: %s", v->compare_off ? e->model->policy :
	    "both policies side by side");
	return (KEYS_HANDLED | KEYS_REDRAW);
}

/* n: ask for a new scripted task. */
static int
keys_new(struct keys_env *e, int key)
{
	return (keys_prompt_open(e, PROMPT_NEW,
	    "new task: NAME [RUN,SLEEP,...] [nice=N]", ""));
}

/*
 * space: pause or resume.  Resuming from the past goes on from the tick
 * shown (a new branch), or with real tasks back to the present.
 */
static int
keys_pause(struct keys_env *e, int key)
{
	struct model	*m = e->model;
	struct view	*v = e->view;
	char		 what[96];
	int		 paused = m->paused;

	if (v->pause_sent != -1)
		paused = v->pause_sent;
	v->pause_sent = !paused;
	v->pause_frames = m->frames;
	if (!paused)
		return (keys_send(e, PEND_ACTION, "pause", "pause"));
	if (m->live)
		snprintf(what, sizeof what, "resume");
	else if (model_has_real(m))
		snprintf(what, sizeof what, "resume: back to the present");
	else
		snprintf(what, sizeof what, "resume from tick %ld", m->tick);
	return (keys_send(e, PEND_ACTION, what, "resume"));
}

/* R: the scenario again from tick 0, for every client. */
static int
keys_reset(struct keys_env *e, int key)
{
	char	what[96];

	if (e->model->scenario[0] != '\0')
		snprintf(what, sizeof what, "reset %s", e->model->scenario);
	else
		snprintf(what, sizeof what, "reset");
	return (keys_send(e, PEND_ACTION, what, "reset"));
}

/* The tick the rewind keys count from: the last seek sent, else shown. */
static long
keys_seek_base(struct keys_env *e)
{
	if (e->view->seeking)
		return (e->view->seek_tick);
	return (e->model->tick);
}

/* Send `seek tick`, saying what; the daemon pauses there. */
static int
keys_seek_to(struct keys_env *e, long tick, const char *what)
{
	struct view	*v = e->view;
	char		 cmd[64];

	snprintf(cmd, sizeof cmd, "seek %ld", tick);
	v->seeking = 1;
	v->seek_tick = tick;
	v->seek_frames = e->model->frames;
	return (keys_send(e, PEND_ACTION, what, cmd));
}

/*
 * Left/Right, { }, b/f: back or forward by a tick, an rr interval or a
 * second (KEYS_SECOND ticks), never past tick 0 or the present.
 */
static int
keys_seek(struct keys_env *e, int key)
{
	struct model	*m = e->model;
	long		 base = keys_seek_base(e), to, by;
	char		 what[96];
	const char	*unit;

	switch (key) {
	case KEY_LEFT:
	case KEY_RIGHT:
		by = 1;
		unit = "a tick";
		break;
	case '{':
	case '}':
	case KEY_SLEFT:
	case KEY_SRIGHT:
		by = m->rr;
		unit = "an rr interval";
		break;
	default:
		by = KEYS_SECOND;
		unit = "a second";
		break;
	}
	if (key == KEY_LEFT || key == '{' || key == KEY_SLEFT || key == 'b')
		by = -by;
	to = base + by;
	if (to > m->now)
		to = m->now;
	if (to < 0)
		to = 0;
	if (to == base) {
		if (by > 0 && !m->paused)
			draw_message(e->view, 0, "the present, running: "
			    "nothing ahead yet (space pauses)");
		else if (by > 0)
			draw_message(e->view, 0, "tick %ld is the present: "
			    ". steps, space resumes", base);
		else
			draw_message(e->view, 0, "tick %ld: the start", base);
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	snprintf(what, sizeof what, "%s %s: tick %ld", by < 0 ? "back" :
	    "forward", unit, to);
	return (keys_seek_to(e, to, what));
}

/* ( ): to the previous or next mark of the scenario. */
static int
keys_mark(struct keys_env *e, int key)
{
	struct model		*m = e->model;
	const struct mmark	*mk = NULL;
	long			 base = keys_seek_base(e);
	char			 what[MODEL_TEXT_MAX + 64];
	int			 i;

	if (m->nmarks == 0) {
		draw_message(e->view, 0, "no marks in this scenario");
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	for (i = 0; i < m->nmarks; i++) {
		if (key == '(' && m->marks[i].tick < base)
			mk = &m->marks[i];
		if (key == ')' && m->marks[i].tick > base) {
			mk = &m->marks[i];
			break;
		}
	}
	if (mk == NULL) {
		draw_message(e->view, 0, "no mark %s tick %ld",
		    key == '(' ? "before" : "after", base);
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	if (mk->tick > m->now) {
		draw_message(e->view, 0, "mark %.80s (tick %ld) is not run "
		    "yet: the present is tick %ld", mk->text, mk->tick, m->now);
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	snprintf(what, sizeof what, "mark %.80s: tick %ld", mk->text, mk->tick);
	return (keys_seek_to(e, mk->tick, what));
}

/* The row of the current scenario in the picker's list, else 0. */
static int
keys_picker_current(const struct model *m)
{
	int	i;

	for (i = 0; i < m->nscenarios; i++) {
		if (strcmp(m->scenarios[i].name, m->scenario) == 0)
			return (i);
	}
	return (0);
}

/* l: open the scenario picker, asking the daemon for the list. */
static int
keys_picker(struct keys_env *e, int key)
{
	struct view	*v = e->view;

	v->picker = 1;
	v->picker_top = 0;
	v->picker_sel = -1;
	if (e->model->scenarios_valid && e->model->nscenarios > 0)
		v->picker_sel = keys_picker_current(e->model);
	if (e->send(e->arg, PEND_SCENARIOS, "scenarios") != 0 ||
	    model_sent(e->model, PEND_SCENARIOS, "scenarios") != 0) {
		v->picker = 0;
		draw_message(v, 1, "scenarios: not sent");
	}
	return (KEYS_HANDLED | KEYS_REDRAW);
}

/*
 * The `scenarios` reply came: the open picker shows it (on the current
 * scenario if nothing was selected yet), or closes saying why not.
 */
void
keys_scenarios(struct model *m, struct view *v)
{
	if (!v->picker)
		return;
	if (!m->reply_ok) {
		v->picker = 0;
		draw_message(v, 1, "refused: scenarios: %s", m->reply_text);
		return;
	}
	if (m->nscenarios == 0) {
		v->picker = 0;
		draw_message(v, 1, "the daemon knows no scenarios");
		return;
	}
	if (v->picker_sel < 0)
		v->picker_sel = keys_picker_current(m);
	if (v->picker_sel >= m->nscenarios)
		v->picker_sel = m->nscenarios - 1;
}

/* A key while the picker is open: move, load, or close. */
static int
keys_picker_key(struct keys_env *e, int key)
{
	struct model		*m = e->model;
	struct view		*v = e->view;
	const struct mscenario	*sc;
	char			 cmd[320], what[96];
	int			 n = m->nscenarios, page;

	page = v->picker_rows > 1 ? v->picker_rows - 1 : 1;
	switch (key) {
	case 27:	/* Escape */
	case 7:		/* ^G */
	case 'q':
	case 'l':
		v->picker = 0;
		return (KEYS_HANDLED | KEYS_REDRAW);
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (v->picker_sel < 0 || v->picker_sel >= n)
			return (KEYS_HANDLED);
		v->picker = 0;
		sc = &m->scenarios[v->picker_sel];
		/* A file of the scenario path by its path: names may repeat. */
		if (strcmp(sc->file, "builtin") != 0 && sc->file[0] != '\0' &&
		    strchr(sc->file, ' ') == NULL)
			snprintf(cmd, sizeof cmd, "load %s", sc->file);
		else
			snprintf(cmd, sizeof cmd, "load %s", sc->name);
		snprintf(what, sizeof what, "load %s", sc->name);
		return (keys_send(e, PEND_ACTION, what, cmd));
	case KEY_UP:
	case 'k':
		v->picker_sel--;
		break;
	case KEY_DOWN:
	case 'j':
		v->picker_sel++;
		break;
	case KEY_PPAGE:
		v->picker_sel -= page;
		break;
	case KEY_NPAGE:
		v->picker_sel += page;
		break;
	case KEY_HOME:
	case 'g':
		v->picker_sel = 0;
		break;
	case KEY_END:
	case 'G':
		v->picker_sel = n - 1;
		break;
	default:
		return (KEYS_HANDLED);
	}
	if (v->picker_sel >= n)
		v->picker_sel = n - 1;
	if (v->picker_sel < 0)
		v->picker_sel = n > 0 ? 0 : -1;
	return (KEYS_HANDLED | KEYS_REDRAW);
}

/* .: one tick; i: one rr interval; E: to the next event or caption. */
static int
keys_step(struct keys_env *e, int key)
{
	char	cmd[64], what[64];
	int	rr = e->model->rr > 0 ? e->model->rr : 1;

	if (key == 'E')
		return (keys_send(e, PEND_STEP_EVENT, "step to the next event",
		    "step event"));
	if (key == 'i') {
		snprintf(cmd, sizeof cmd, "step %d", rr);
		snprintf(what, sizeof what, "step an rr interval (%d tick%s)",
		    rr, rr == 1 ? "" : "s");
		return (keys_send(e, PEND_ACTION, what, cmd));
	}
	return (keys_send(e, PEND_ACTION, "step 1 tick", "step 1"));
}

/*
 * Ask for speed s, held to the daemon's limits (saying so): a speed
 * out of them is the nearest limit, not an error.
 */
static int
keys_speed_set(struct keys_env *e, double s)
{
	struct view	*v = e->view;
	char		 cmd[64], what[96];
	const char	*limit = "";

	if (s < PROTO_SPEED_MIN) {
		s = PROTO_SPEED_MIN;
		limit = " (the slowest)";
	}
	if (s > PROTO_SPEED_MAX) {
		s = PROTO_SPEED_MAX;
		limit = " (the fastest)";
	}
	v->speed_sent = s;
	v->speed_frames = e->model->frames;
	snprintf(cmd, sizeof cmd, "speed %g", s);
	snprintf(what, sizeof what, "speed %gx%s", s, limit);
	return (keys_send(e, PEND_ACTION, what, cmd));
}

/* *: ask for a speed. */
static int
keys_speed_ask(struct keys_env *e, int key)
{
	char	label[64], init[32];
	double	s = e->model->speed;

	if (e->view->speed_sent > 0)
		s = e->view->speed_sent;
	snprintf(label, sizeof label, "speed (%g to %g ticks a ms)",
	    PROTO_SPEED_MIN, PROTO_SPEED_MAX);
	snprintf(init, sizeof init, "%g", s);
	return (keys_prompt_open(e, PROMPT_SPEED, label, init));
}

/* < / >: halve or double the speed. */
static int
keys_speed(struct keys_env *e, int key)
{
	struct view	*v = e->view;
	double		 s = e->model->speed;

	if (v->speed_sent > 0)
		s = v->speed_sent;
	/* The daemon's limits: stop there, instead of an error. */
	if (key == '<' && s <= PROTO_SPEED_MIN) {
		draw_message(v, 0, "speed %gx is the slowest", s);
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	if (key == '>' && s >= PROTO_SPEED_MAX) {
		draw_message(v, 0, "speed %gx is the fastest", s);
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	return (keys_speed_set(e, s * (key == '<' ? 0.5 : 2)));
}

/* t: the article's table on or off. */
static int
keys_table(struct keys_env *e, int key)
{
	e->view->show_table = !e->view->show_table;
	draw_message(e->view, 0, "article table %s",
	    e->view->show_table ? "on" : "off");
	return (KEYS_HANDLED | KEYS_REDRAW | KEYS_TABLE);
}

/* w, r, e: the timeline, the rank line, the event log on or off. */
static int
keys_history(struct keys_env *e, int key)
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
 * The keys of the room: T the next theme, B big type as fits the screen,
 * always, never.  Neither changes the daemon, and a follower keeps its
 * own: the projector's screen is not the laptop's.
 */
static int
keys_theme(struct keys_env *e, int key)
{
	struct view	*v = e->view;

	v->theme = (v->theme + 1) % THEME_MAX;
	draw_message(v, 0, "theme: %s (%s)", theme_name(v->theme),
	    theme_what(v->theme));
	return (KEYS_HANDLED | KEYS_REDRAW);
}

static int
keys_big(struct keys_env *e, int key)
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
static int
keys_zoom(struct keys_env *e, int key)
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
static int
keys_events(struct keys_env *e, int key)
{
	struct view	*v = e->view;

	if (!v->show_events)
		v->show_events = 1;
	keys_events_by(v, key == 'u' ? 5 : -5);
	return (KEYS_HANDLED | KEYS_REDRAW);
}

/* ? / F1: the help. */
static int
keys_help_key(struct keys_env *e, int key)
{
	e->view->show_help = !e->view->show_help;
	return (KEYS_HANDLED | KEYS_REDRAW);
}

/* q: detach, leaving the daemon running. */
static int
keys_quit(struct keys_env *e, int key)
{
	return (KEYS_HANDLED | KEYS_QUIT);
}

/* Q: ask, then shut the daemon down (for every client) and quit. */
static int
keys_shutdown(struct keys_env *e, int key)
{
	return (keys_prompt_open(e, PROMPT_SHUTDOWN,
	    "stop the daemon for every client? y/N", ""));
}

static const struct keys_binding keys_table_[] = {
	{ KEY_UP, 'k', 0, keys_up },
	{ KEY_DOWN, 'j', 0, keys_down },
	{ KEY_PPAGE, 0, 0, keys_page },
	{ KEY_NPAGE, 0, 0, keys_page },
	{ KEY_HOME, 'g', 0, keys_ends },
	{ KEY_END, 'G', 0, keys_ends },
	{ '/', 0, 0, keys_find },
	{ '[', ']', 0, keys_cpus },
	{ 'v', 0, 0, keys_view },
	{ 'c', 0, 0, keys_compare },
	{ 's', 0, 1, keys_sleep },
	{ 'S', 0, 1, keys_sleep_ask },
	{ '+', '=', 1, keys_nice },
	{ '-', KEY_F(7), 1, keys_nice },
	{ KEY_F(8), 0, 1, keys_nice },
	{ 'a', 0, 1, keys_affinity },
	{ 'x', KEY_F(9), 1, keys_kill },
	{ 'n', 0, 1, keys_new },
	{ ' ', 0, 1, keys_pause },
	{ '.', 0, 1, keys_step },
	{ 'i', 0, 1, keys_step },
	{ 'E', 0, 1, keys_step },
	{ KEY_LEFT, 0, 1, keys_seek },
	{ KEY_RIGHT, 0, 1, keys_seek },
	{ '{', KEY_SLEFT, 1, keys_seek },
	{ '}', KEY_SRIGHT, 1, keys_seek },
	{ 'b', 0, 1, keys_seek },
	{ 'f', 0, 1, keys_seek },
	{ '(', ')', 1, keys_mark },
	{ 'l', 0, 1, keys_picker },
	{ 'R', 0, 1, keys_reset },
	{ '<', '>', 1, keys_speed },
	{ '*', 0, 1, keys_speed_ask },
	{ 't', 0, 0, keys_table },
	{ 'w', 0, 0, keys_history },
	{ 'r', 0, 0, keys_history },
	{ 'e', 0, 0, keys_history },
	{ 'z', 'Z', 0, keys_zoom },
	{ 'T', 0, 0, keys_theme },
	{ 'B', 0, 0, keys_big },
	{ 'u', 'd', 0, keys_events },
	{ '?', KEY_F(1), 0, keys_help_key },
	{ 'q', KEY_F(10), 0, keys_quit },
	{ 'Q', 0, 1, keys_shutdown },
};

static const char *const keys_help_text[] = {
	"Up/Down j/k  select a task (or click) PgUp/PgDn   page the tasks",
	"g/G Home/End the first / last task    /           find a task",
	"[ ]          scroll the CPUs          "
	    "v           CPUs: panels/list/fit",
	"s            sleep (default ms)       S           sleep: how long?",
	"+ - F8 F7    nice up / down           "
	    "a           CPUs the task may use",
	"x F9         kill the task (asks)     "
	    "n           new task NAME [R,S,..]",
	"space        pause / resume           t           the article's table",
	". i E        step: a tick, an rr interval, to the next event or caption",
	"< > *        speed: halve / double / type it (0.01x .. 100x)",
	"l            load a scenario (list)   R           reset: from tick 0",
	"? F1         this help                "
	    "q F10       detach (daemon stays)",
	"Q            stop the daemon (asks)   "
	    "c           two policies / one",
	"w r e        timeline/rank line/log   z Z u d     zoom; log older/newer",
	"T            theme: dark/light/proj.  "
	    "B           big type: auto/on/off",
	"",
	"Rewind (a seek pauses there, never past the present):",
	"Left Right   a tick back / forward    { } S-Lt/Rt an rr interval",
	"b f          a second (1000 ticks)    "
	    "( )         previous / next mark",
	"In the past (PAST, tick T of NOW) space resumes from T;",
	"with real tasks it goes back to the present.",
	"",
	"[hog ███░░]  runs now; the bar is `left` of its slice",
	"name  queued on its stair   (name) sleeping   +3 more",
	NULL
};

/* The help text, one line a string, NULL-terminated. */
const char *const *
keys_help(void)
{
	return (keys_help_text);
}

/* Select the first task if nothing (or a task now gone) is selected. */
void
keys_select_first(struct model *m, struct view *v)
{
	if (m->ntasks > 0 && model_task_index(m, v->selected) < 0)
		v->selected = m->tasks[0].id;
}

/*
 * A frame came.  A key's outcome stays on the caption line for about
 * five seconds of frames (errors twenty), then gives way to the
 * scenario's events.  The last nice, speed, pause or seek sent is
 * forgotten once a frame shows it (or after a second of frames, if
 * something else changed it meanwhile).  A new session (a load, a reset)
 * forgets them all; another scenario starts the view again (selection,
 * scrolling).  Returns KEYS_MARKS when the session is new: its marks
 * are to be asked for.
 */
int
keys_frame(struct model *m, struct view *v)
{
	const struct mtask	*t;
	long			 keep;
	int			 flags = 0;

	if (v->sessions != m->sessions) {
		v->sessions = m->sessions;
		v->seeking = 0;
		v->nice_task = 0;
		/* The old session's sleeps seen and log scrolled: gone. */
		v->nsamples = 0;
		v->events_back = 0;
		flags |= KEYS_MARKS;
	}
	if (strcmp(v->scenario, m->scenario) != 0) {
		if (v->scenario[0] != '\0') {
			v->selected = 0;
			v->task_top = 0;
			v->cpu_top = 0;
		}
		memcpy(v->scenario, m->scenario, sizeof v->scenario);
		flags |= KEYS_MARKS;
	}

	history_sample(m, v);
	if (v->message[0] != '\0') {
		keep = (v->message_error ? 20 : 5) * KEYS_FPS;
		if (strcmp(v->message, v->message_seen) != 0) {
			memcpy(v->message_seen, v->message,
			    sizeof v->message_seen);
			v->message_frames = m->frames;
		} else if (m->frames - v->message_frames > keep) {
			v->message[0] = '\0';
			v->message_seen[0] = '\0';
		}
	}

	if (v->speed_sent > 0 && (m->speed == v->speed_sent ||
	    m->frames > v->speed_frames + 30))
		v->speed_sent = 0;
	if (v->pause_sent != -1 && (m->paused == v->pause_sent ||
	    m->frames > v->pause_frames + 30))
		v->pause_sent = -1;
	if (v->seeking && (m->tick == v->seek_tick ||
	    m->frames > v->seek_frames + 30))
		v->seeking = 0;
	if (v->nice_task == 0)
		return (flags);
	t = model_task(m, v->nice_task);
	if (t == NULL || t->nice == v->nice_value ||
	    m->frames > v->nice_frames + 30)
		v->nice_task = 0;
	return (flags);
}

/*
 * Find the task the prompt names: a number is an id, else the first
 * task after the selected one (wrapping) whose name has the text.
 */
static int
keys_find_done(struct keys_env *e)
{
	struct model		*m = e->model;
	struct view		*v = e->view;
	const struct mtask	*t = NULL;
	char			*end;
	long			 id;
	int			 i, k, start;

	id = strtol(v->prompt_buf, &end, 10);
	if (*end == '\0')
		t = model_task(m, (int)id);
	start = model_task_index(m, v->selected);	/* -1: none */
	for (k = 1; t == NULL && k <= m->ntasks; k++) {
		i = (start + k) % m->ntasks;
		if (strstr(m->tasks[i].name, v->prompt_buf) != NULL)
			t = &m->tasks[i];
	}
	if (t == NULL) {
		draw_message(v, 0, "no task matches %s", v->prompt_buf);
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	draw_message(v, 0, "found %s (id %d)", t->name, t->id);
	v->selected = t->id;
	return (KEYS_HANDLED | KEYS_REDRAW | KEYS_TABLE);
}

/* The speed prompt was entered: "2", "0.5", "10x". */
static int
keys_speed_done(struct keys_env *e)
{
	struct view	*v = e->view;
	char		*end;
	double		 s;

	s = strtod(v->prompt_buf, &end);
	if (end != v->prompt_buf && (*end == 'x' || *end == 'X'))
		end++;
	if (end == v->prompt_buf || *end != '\0' || !(s > 0)) {
		draw_message(v, 1, "speed: not a speed: %s (a number above "
		    "0, like 2 or 0.5)", v->prompt_buf);
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	return (keys_speed_set(e, s));
}

/* A key at a y/N question: y does it, anything else cancels. */
static int
keys_confirm(struct keys_env *e, int key)
{
	struct view		*v = e->view;
	const struct mtask	*t;
	char			 cmd[64], what[96];
	int			 kind = v->prompt;

	v->prompt = PROMPT_NONE;
	if (key != 'y' && key != 'Y') {
		draw_message(v, 0, "cancelled");
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	if (kind == PROMPT_SHUTDOWN) {
		keys_send(e, PEND_SHUTDOWN, "shutdown", "shutdown");
		return (KEYS_HANDLED | KEYS_REDRAW | KEYS_SHUTDOWN);
	}
	if ((t = model_task(e->model, v->prompt_task)) == NULL) {
		draw_message(v, 1, "that task is gone");
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	snprintf(cmd, sizeof cmd, "kill %d", t->id);
	snprintf(what, sizeof what, "kill %s", t->name);
	return (keys_send(e, PEND_ACTION, what, cmd));
}

/*
 * A reply to an action came: say how it went.  A refusal says so first
 * ("hog on CPUs 9: cpu 9 is outside 0..1" read like a success).  A
 * success does not replace what a key said since it was sent (f at the
 * present, pressed before the seeks before it were answered).
 */
void
keys_reply(struct model *m, struct view *v)
{
	if (m->reply_ok) {
		if (v->message_note && v->message[0] != '\0')
			return;
		if (m->reply_kind == PEND_STEP_EVENT) {
			/* E: the event it stopped at says what happened. */
			v->message[0] = '\0';
			v->message_note = 0;
			return;
		}
		if (m->reply_text[0] != '\0')
			draw_message(v, 0, "%s: ok %s", m->reply_what,
			    m->reply_text);
		else
			draw_message(v, 0, "%s", m->reply_what);
		v->message_note = 0;
		return;
	}
	draw_message(v, 1, "refused: %s: %s", m->reply_what, m->reply_text);
	v->message_note = 0;
	v->nice_task = 0;
	v->speed_sent = 0;
	v->pause_sent = -1;
	v->seeking = 0;
}

/* The prompt line was entered: act on it. */
static int
keys_prompt_done(struct keys_env *e)
{
	struct view		*v = e->view;
	const struct mtask	*t = NULL;
	char			 cmd[320], what[320], name[64], rest[128];
	char			*end, *p;
	long			 ms;
	int			 kind = v->prompt;

	v->prompt = PROMPT_NONE;
	if (v->prompt_buf[0] == '\0') {
		draw_message(v, 0, "cancelled");
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	if (kind == PROMPT_FIND)
		return (keys_find_done(e));
	if (kind == PROMPT_SPEED)
		return (keys_speed_done(e));
	if (kind == PROMPT_COMPARE) {
		if (strchr(v->prompt_buf, ' ') != NULL) {
			draw_message(v, 1, "compare: one policy name, like o1");
			return (KEYS_HANDLED | KEYS_REDRAW);
		}
		snprintf(cmd, sizeof cmd, "compare %s", v->prompt_buf);
		snprintf(what, sizeof what, "compare %s", v->prompt_buf);
		return (keys_send(e, PEND_ACTION, what, cmd));
	}
	if (kind != PROMPT_NEW &&
	    (t = model_task(e->model, v->prompt_task)) == NULL) {
		draw_message(v, 1, "that task is gone");
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	switch (kind) {
	case PROMPT_SLEEP:
		ms = strtol(v->prompt_buf, &end, 10);
		if (*end != '\0' || ms <= 0 || ms > 100000000) {
			draw_message(v, 1, "sleep: not a whole number of ms "
			    "from 1 to 100000000: %s", v->prompt_buf);
			return (KEYS_HANDLED | KEYS_REDRAW);
		}
		snprintf(cmd, sizeof cmd, "sleep %d %ld", t->id, ms);
		snprintf(what, sizeof what, "%s sleeps %ld ms", t->name, ms);
		break;
	case PROMPT_AFFINITY:
		if (strchr(v->prompt_buf, ' ') != NULL) {
			draw_message(v, 1, "affinity: no spaces in a cpu list");
			return (KEYS_HANDLED | KEYS_REDRAW);
		}
		snprintf(cmd, sizeof cmd, "affinity %d %s", t->id,
		    v->prompt_buf);
		snprintf(what, sizeof what, "%s on CPUs %s", t->name,
		    v->prompt_buf);
		break;
	case PROMPT_NEW:
		/* NAME [pattern] [nice=N] [cpus=L]; a bare list: pattern. */
		name[0] = rest[0] = '\0';
		p = strtok(v->prompt_buf, " ");
		snprintf(name, sizeof name, "%s", p != NULL ? p : "");
		while ((p = strtok(NULL, " ")) != NULL) {
			if (strlen(rest) + strlen(p) + 10 >= sizeof rest)
				break;
			if (strchr(p, '=') == NULL)
				strcat(rest, " pattern=");
			else
				strcat(rest, " ");
			strcat(rest, p);
		}
		snprintf(cmd, sizeof cmd, "add %s%s", name, rest);
		snprintf(what, sizeof what, "new task %s", name);
		break;
	default:
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	return (keys_send(e, PEND_ACTION, what, cmd));
}

/* A key while the prompt is open: edit, enter or cancel. */
static int
keys_prompt_key(struct keys_env *e, int key)
{
	struct view	*v = e->view;
	size_t		 len = strlen(v->prompt_buf);
	int		 fresh = v->prompt_fresh;

	/*
	 * The default shows as if selected: the first character typed
	 * replaces it, while Backspace or ^U edit it.
	 */
	v->prompt_fresh = 0;
	if (v->prompt == PROMPT_KILL || v->prompt == PROMPT_SHUTDOWN)
		return (keys_confirm(e, key));
	switch (key) {
	case '\n':
	case '\r':
	case KEY_ENTER:
		return (keys_prompt_done(e));
	case 27:	/* Escape */
	case 7:		/* ^G */
		v->prompt = PROMPT_NONE;
		draw_message(v, 0, "cancelled");
		break;
	case KEY_BACKSPACE:
	case 127:
	case 8:
		if (len > 0)
			v->prompt_buf[len - 1] = '\0';
		break;
	case 21:	/* ^U */
		v->prompt_buf[0] = '\0';
		break;
	default:
		if (fresh && key >= 32 && key < 127) {
			v->prompt_buf[0] = '\0';
			len = 0;
		}
		if (key >= 32 && key < 127 && len + 1 < sizeof v->prompt_buf) {
			v->prompt_buf[len] = (char)key;
			v->prompt_buf[len + 1] = '\0';
		}
		break;
	}
	return (KEYS_HANDLED | KEYS_REDRAW);
}

/* A key's name for a message: 'x', space, F9, Left; NULL for others. */
static const char *
keys_name(int key, char *buf, size_t len)
{
	static const struct {
		int		 key;
		const char	*name;
	} names[] = {
		{ ' ', "space" }, { KEY_LEFT, "Left" }, { KEY_RIGHT, "Right" },
		{ KEY_SLEFT, "S-Left" }, { KEY_SRIGHT, "S-Right" }
	};
	size_t	i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (key == names[i].key) {
			snprintf(buf, len, "%s", names[i].name);
			return (buf);
		}
	}
	if (key >= KEY_F(0) && key <= KEY_F(63))
		snprintf(buf, len, "F%d", key - KEY_F0);
	else if (key > 32 && key < 127)
		snprintf(buf, len, "'%c'", key);
	else
		return (NULL);
	return (buf);
}

/* Handle one key; returns reaction flags (0: not a key of ours). */
int
keys_handle(struct keys_env *e, int key)
{
	const struct keys_binding	*b;
	size_t				 i;
	char				 name[16];

	if (e->view->prompt != PROMPT_NONE)
		return (keys_prompt_key(e, key));
	if (e->view->picker)
		return (keys_picker_key(e, key));
	if (e->view->show_help)
		return (help_key(e->view, key));	/* scroll, or close */
	for (i = 0; i < sizeof keys_table_ / sizeof keys_table_[0]; i++) {
		b = &keys_table_[i];
		if (key != b->key && (b->alt == 0 || key != b->alt))
			continue;
		if (b->changes && e->view->readonly) {
			if (keys_name(key, name, sizeof name) == NULL)
				snprintf(name, sizeof name, "key %d", key);
			draw_message(e->view, 1, "read-only client: %s refused "
			    "(it would change the daemon)", name);
			return (KEYS_HANDLED | KEYS_REDRAW);
		}
		return (b->fn(e, key));
	}
	/* A key that does nothing says so, rather than nothing. */
	if (key == ' ' || keys_name(key, name, sizeof name) == NULL)
		return (0);
	draw_message(e->view, 0, "%s does nothing here (? lists the keys)",
	    name);
	return (KEYS_HANDLED | KEYS_REDRAW);
}

/* Select task id (a click on it); 0 if it is not there. */
static int
keys_select(struct keys_env *e, int id)
{
	if (model_task(e->model, id) == NULL)
		return (0);
	if (id == e->view->selected)
		return (KEYS_HANDLED);
	e->view->selected = id;
	return (KEYS_HANDLED | KEYS_REDRAW | KEYS_TABLE);
}

/*
 * A mouse click at (x, y): on a task (a stair, a panel's title, the
 * list, either side of compare: the grid's tags) or on a task's row,
 * that task is selected; on a key of the keys bar or the status line,
 * that key is pressed.  With the help up a click closes it, as a key
 * does; with a prompt or the picker open it does nothing.
 */
int
keys_click(struct keys_env *e, int x, int y)
{
	struct view	*v = e->view;
	int		 i, tag;

	if (v->prompt != PROMPT_NONE || v->picker)
		return (0);
	if (v->show_help)	/* a click closes it, as a key does */
		return (help_key(v, KEY_MOUSE));
	tag = e->grid != NULL ? grid_tag_at(e->grid, x, y) : 0;
	if (tag < 0)
		return (keys_handle(e, -tag));
	if (tag > 0)
		return (keys_select(e, tag));
	if (y < v->task_y || y >= v->task_y + v->task_rows)
		return (0);
	i = v->task_top + (y - v->task_y);
	if (i < 0 || i >= e->model->ntasks)
		return (0);
	return (keys_select(e, e->model->tasks[i].id));
}

/*
 * The mouse wheel at (x, y), up (dir -1) or down (1): over the event
 * log it scrolls the log (up: older), over the CPUs it scrolls their
 * rows as [ and ] do, in the picker it moves the selection, in the help
 * it scrolls it (help_key), elsewhere it moves the task selection (the
 * task table follows) by KEYS_WHEEL.
 */
int
keys_wheel(struct keys_env *e, int x, int y, int dir)
{
	struct view	*v = e->view;

	if (v->prompt != PROMPT_NONE)
		return (0);
	if (v->show_help)	/* it scrolls */
		return (help_key(v, dir < 0 ? KEY_UP : KEY_DOWN));
	if (v->picker)
		return (keys_picker_key(e, dir < 0 ? KEY_UP : KEY_DOWN));
	if (v->events_rows > 0 && y >= v->events_y &&
	    y < v->events_y + v->events_rows) {
		keys_events_by(v, -dir * KEYS_WHEEL);
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	if (y >= v->cpus_y && y < v->cpus_y + v->cpus_rows &&
	    v->cpu_rows > v->cpu_rows_shown)
		return (keys_cpus(e, dir < 0 ? '[' : ']'));
	return (keys_move(e, dir * KEYS_WHEEL));
}
