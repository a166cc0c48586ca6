/*
 * keys-select.c -- the selected task: moving the selection (arrows, j
 * and k, pages, the ends), a click on a task, the prompt for a task to
 * find, and the task the keys that act on one are about.
 */
#include <curses.h>

#include "stairs.h"

/* The task selected, or NULL (with a message saying so). */
const struct mtask *
keys_select_task(struct keys_env *e)
{
	const struct mtask	*t;

	t = model_task(e->model, e->view->selected);
	if (t == NULL)
		draw_message(e->view, 1, "no task selected");
	return (t);
}

/* Move the selection by n rows (clamped). */
int
keys_select_move(struct keys_env *e, int n)
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
int
keys_select_up(struct keys_env *e, int key)
{
	return (keys_select_move(e, -1));
}

/* Down / j: the task below. */
int
keys_select_down(struct keys_env *e, int key)
{
	return (keys_select_move(e, 1));
}

/* PgUp / PgDn: a page of tasks. */
int
keys_select_page(struct keys_env *e, int key)
{
	int	n = e->view->task_rows > 1 ? e->view->task_rows - 1 : 1;

	return (keys_select_move(e, key == KEY_PPAGE ? -n : n));
}

/* Home / End, g / G: the first or last task. */
int
keys_select_ends(struct keys_env *e, int key)
{
	int	first = key == KEY_HOME || key == 'g';

	return (keys_select_move(e, first ? -e->model->ntasks :
	    e->model->ntasks));
}

/* /: ask for a task to find. */
int
keys_select_find(struct keys_env *e, int key)
{
	return (keys_prompt_open(e, PROMPT_FIND, "find a task (name or id)",
	    ""));
}

/* Select the first task if nothing (or a task now gone) is selected. */
void
keys_select_first(struct model *m, struct view *v)
{
	if (m->ntasks > 0 && model_task_index(m, v->selected) < 0)
		v->selected = m->tasks[0].id;
}

/* Select task id (a click on it); 0 if it is not there. */
int
keys_select_id(struct keys_env *e, int id)
{
	if (model_task(e->model, id) == NULL)
		return (0);
	if (id == e->view->selected)
		return (KEYS_HANDLED);
	e->view->selected = id;
	return (KEYS_HANDLED | KEYS_REDRAW | KEYS_TABLE);
}
