/*
 * keys-session.c -- the keys of the session: the scenario picker (l:
 * the daemon's list, then a load), a reset to tick 0 (R), detaching
 * (q) and stopping the daemon for every client (Q, after asking).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "draw.h"
#include "keys.h"
#include "model.h"
#include "path.h"
#include "view.h"
#include "xmalloc.h"

static int	keys_session_reset_do(struct keys_env *, const char *);
static int	keys_session_part_done(struct keys_env *, const char *);
static int	keys_session_load_path(struct keys_env *, const char *);

/* The row of the current scenario in the picker's list, else 0. */
static int
keys_session_current(const struct model *m)
{
	int	i;

	for (i = 0; i < m->nscenarios; i++) {
		if (strcmp(m->scenarios[i].name, m->scenario) == 0)
			return (i);
	}
	return (0);
}

/* l: open the scenario picker, asking the daemon for the list. */
int
keys_session_picker(struct keys_env *e, int key)
{
	struct view	*v = e->view;

	v->picker = 1;
	v->picker_top = 0;
	v->picker_sel = -1;
	if (e->model->scenarios_valid && e->model->nscenarios > 0)
		v->picker_sel = keys_session_current(e->model);
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
		v->picker_sel = keys_session_current(m);
	if (v->picker_sel >= m->nscenarios)
		v->picker_sel = m->nscenarios - 1;
}

/* A key while the picker is open: move, load, or close. */
int
keys_session_picker_key(struct keys_env *e, int key)
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
	case 'o':
	case '/':
	case '.':
	case '~':
		/* A file by its path: o asks; the others begin it. */
		v->picker = 0;
		what[0] = '\0';
		if (key != 'o')
			snprintf(what, sizeof what, "%c", key);
		keys_prompt_ask(e, PROMPT_LOAD, "load a scenario file (its "
		    "path)", what, keys_session_load_path);
		e->view->prompt_fresh = 0;
		return (KEYS_HANDLED | KEYS_REDRAW);
	case 'g':
		key = KEY_HOME;
		break;
	case 'G':
		key = KEY_END;
		break;
	}
	if (!keys_select_list(key, &v->picker_sel, page, n - 1))
		return (KEYS_HANDLED);
	if (v->picker_sel >= n)
		v->picker_sel = n - 1;
	if (v->picker_sel < 0)
		v->picker_sel = n > 0 ? 0 : -1;
	return (KEYS_HANDLED | KEYS_REDRAW);
}

/*
 * The path prompt was entered: load that file.  The daemon takes only a
 * whole path (it has a directory of its own), so a path of ours is made
 * whole first: ~/ is $HOME, a relative one is under this client's
 * directory.
 */
static int
keys_session_load_path(struct keys_env *e, const char *path)
{
	const char	*home = getenv("HOME");
	char		*full, *cmd, what[96];
	int		 r;

	if (strncmp(path, "~/", 2) == 0 && home != NULL && *home != '\0')
		full = xasprintf("%s/%s", home, path + 2);
	else
		full = path_absolute(path);
	if (strpbrk(full, " \t") != NULL) {
		draw_message(e->view, 1, "load: a path with a space cannot be "
		    "sent: %s", full);
		free(full);
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	cmd = xasprintf("load %s", full);
	snprintf(what, sizeof what, "load %.80s", path);
	r = keys_send(e, PEND_ACTION, what, cmd);
	free(cmd);
	free(full);
	return (r);
}

/*
 * R: the scenario again from tick 0, for every client, after asking:
 * the session so far and every client's history go.
 */
int
keys_session_reset(struct keys_env *e, int key)
{
	char	label[160];

	snprintf(label, sizeof label, "reset %.40s for all, dropping %ld "
	    "ticks and all history? y/N", e->model->scenario[0] != '\0' ?
	    e->model->scenario : "the scenario", e->model->now);
	return (keys_prompt_ask(e, PROMPT_RESET, label, "",
	    keys_session_reset_do));
}

/* The y/N of R was y. */
static int
keys_session_reset_do(struct keys_env *e, const char *yes)
{
	char	what[96];

	if (e->model->scenario[0] != '\0')
		snprintf(what, sizeof what, "reset %s", e->model->scenario);
	else
		snprintf(what, sizeof what, "reset");
	return (keys_send(e, PEND_ACTION, what, "reset"));
}

/* P: a recording played (stairs --replay): ask which part to open. */
int
keys_session_part(struct keys_env *e, int key)
{
	char	label[64], init[16];

	if (e->model->parts == 0) {
		draw_message(e->view, 0, "P: not a recording (stairs --replay "
		    "FILE plays one)");
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	snprintf(label, sizeof label, "part (1..%d)", e->model->parts);
	snprintf(init, sizeof init, "%d", e->model->part < e->model->parts ?
	    e->model->part + 1 : 1);
	return (keys_prompt_ask(e, PROMPT_PART, label, init,
	    keys_session_part_done));
}

/* The part prompt was entered: open that part, at tick 0, paused. */
static int
keys_session_part_done(struct keys_env *e, const char *s)
{
	char	*end, cmd[32], what[48];
	long	 n;

	n = strtol(s, &end, 10);
	if (end == s || *end != '\0' || n < 1 || n > e->model->parts) {
		draw_message(e->view, 1, "part: a number from 1 to %d, not %s",
		    e->model->parts, s);
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	snprintf(cmd, sizeof cmd, "part %ld", n);
	snprintf(what, sizeof what, "part %ld of %d", n, e->model->parts);
	return (keys_send(e, PEND_ACTION, what, cmd));
}

/* q: detach, leaving the daemon running. */
int
keys_session_quit(struct keys_env *e, int key)
{
	return (KEYS_HANDLED | KEYS_QUIT);
}

/* Q: ask, then shut the daemon down (for every client) and quit. */
int
keys_session_shutdown(struct keys_env *e, int key)
{
	return (keys_prompt_open(e, PROMPT_SHUTDOWN,
	    "stop the daemon for every client? y/N", ""));
}
