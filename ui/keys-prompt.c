/*
 * keys-prompt.c -- the prompt line (S, a, n, /, *, c) and the y/N
 * questions (x, Q): opening one, editing it, and acting on it when
 * Enter (or y) comes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "draw.h"
#include "keys.h"
#include "model.h"
#include "view.h"

/* Open the prompt line. */
int
keys_prompt_open(struct keys_env *e, int kind, const char *label,
    const char *init)
{
	return (keys_prompt_ask(e, kind, label, init, NULL));
}

/*
 * Open the prompt line for its owner: done is called with the line
 * entered (a y/N question's: "y" when answered y).
 */
int
keys_prompt_ask(struct keys_env *e, int kind, const char *label,
    const char *init, int (*done)(struct keys_env *, const char *))
{
	struct view	*v = e->view;

	v->prompt = kind;
	v->prompt_done = done;
	v->prompt_task = v->selected;
	snprintf(v->prompt_label, sizeof v->prompt_label, "%s", label);
	snprintf(v->prompt_buf, sizeof v->prompt_buf, "%s", init);
	v->prompt_fresh = 1;
	return (KEYS_HANDLED | KEYS_REDRAW);
}

/*
 * Find the task the prompt names: a number is an id, else the first
 * task after the selected one (wrapping) whose name has the text.
 */
static int
keys_prompt_find(struct keys_env *e)
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
keys_prompt_speed(struct keys_env *e)
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
	return (keys_send_speed(e, s));
}

/* A key at a y/N question: y does it, anything else cancels. */
static int
keys_prompt_confirm(struct keys_env *e, int key)
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
	if (v->prompt_done != NULL)
		return (v->prompt_done(e, "y"));
	if ((t = model_task(e->model, v->prompt_task)) == NULL) {
		draw_message(v, 1, "that task is gone");
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	snprintf(cmd, sizeof cmd, "kill %d", t->id);
	snprintf(what, sizeof what, "kill %s", t->name);
	return (keys_send(e, PEND_ACTION, what, cmd));
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
		return (keys_prompt_find(e));
	if (kind == PROMPT_SPEED)
		return (keys_prompt_speed(e));
	if (v->prompt_done != NULL)
		return (v->prompt_done(e, v->prompt_buf));
	if (kind == PROMPT_COMPARE) {
		/* "o1 cfs" and "o1, cfs" are "o1,cfs"; four is too many. */
		for (p = v->prompt_buf, ms = 0; *p != '\0'; p++) {
			if (*p == ' ' && (p == v->prompt_buf || p[-1] == ',' ||
			    p[1] == ',' || p[1] == ' ' || p[1] == '\0')) {
				memmove(p, p + 1, strlen(p));
				p--;
				continue;
			}
			if (*p == ' ')
				*p = ',';
			ms += *p == ',';
		}
		if (ms > 2 || v->prompt_buf[0] == '\0') {
			draw_message(v, 1, "compare: up to three policies, "
			    "like o1,cfs,eevdf (or off)");
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
int
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
	if (KEYS_PROMPT_YN(v->prompt))
		return (keys_prompt_confirm(e, key));
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
