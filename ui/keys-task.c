/*
 * keys-task.c -- the keys that act on the selected task: sleep it (s,
 * or S for how long), nice it (+ and -, counting from the nice last
 * sent), its CPUs (a), kill it (x, after asking), and a new task (n).
 * Each sends its command, or opens the prompt that will.  Their rows
 * of the key table say KEYS_TASK: keys_handle finds the selected task
 * for them (e->task), or says there is none.
 */
#include <stdio.h>
#include <string.h>

#include <curses.h>

#include "draw.h"
#include "keys.h"
#include "model.h"
#include "view.h"

/* s: the default sleep for the selected task. */
int
keys_task_sleep(struct keys_env *e, int key)
{
	const struct mtask	*t = e->task;
	char			 cmd[64], what[96];

	snprintf(cmd, sizeof cmd, "sleep %d %d", t->id, e->model->sleep_ms);
	snprintf(what, sizeof what, "%s sleeps %d ms", t->name,
	    e->model->sleep_ms);
	return (keys_send(e, PEND_ACTION, what, cmd));
}

/* S: ask how long the selected task sleeps. */
int
keys_task_sleep_ask(struct keys_env *e, int key)
{
	const struct mtask	*t = e->task;
	char			 label[64], init[16];

	snprintf(label, sizeof label, "sleep %s for how many ms", t->name);
	snprintf(init, sizeof init, "%d", e->model->sleep_ms);
	return (keys_prompt_open(e, PROMPT_SLEEP, label, init));
}

/* + / -: nice up or down by one. */
int
keys_task_nice(struct keys_env *e, int key)
{
	const struct mtask	*t = e->task;
	char			 cmd[64], what[96];
	int			 n;

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
int
keys_task_affinity(struct keys_env *e, int key)
{
	const struct mtask	*t = e->task;
	char			 label[64];

	snprintf(label, sizeof label, "CPUs for %s (like 0-2,5)", t->name);
	return (keys_prompt_open(e, PROMPT_AFFINITY, label,
	    strcmp(t->cpus, "-") == 0 ? "" : t->cpus));
}

/* x / F9: ask, then kill the selected task. */
int
keys_task_kill(struct keys_env *e, int key)
{
	const struct mtask	*t = e->task;
	char			 label[64];

	snprintf(label, sizeof label, "kill %.31s (id %d)? y/N", t->name,
	    t->id);
	return (keys_prompt_open(e, PROMPT_KILL, label, ""));
}

/* n: ask for a new scripted task. */
int
keys_task_new(struct keys_env *e, int key)
{
	return (keys_prompt_open(e, PROMPT_NEW,
	    "new task: NAME [RUN,SLEEP,...] [nice=N]", ""));
}
