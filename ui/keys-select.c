/*
 * keys-select.c -- the selected task: moving the selection (arrows, j
 * and k, pages, the ends), a click on a task, the prompt for a task to
 * find, and the task the keys that act on one are about.
 */
#include <curses.h>

#include "draw.h"
#include "keys.h"
#include "model.h"
#include "view.h"

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

/*
 * A key that moves in a list (the tasks, the picker's scenarios, the
 * help's lines): Up and Down (k, j) a row, PgUp and PgDn a page, Home
 * and End to 0 and last.  Moves *pos (unclamped) and returns 1; 0 for
 * any other key.
 */
int
keys_select_list(int key, int *pos, int page, int last)
{
	switch (key) {
	case KEY_UP:
	case 'k':
		(*pos)--;
		break;
	case KEY_DOWN:
	case 'j':
		(*pos)++;
		break;
	case KEY_PPAGE:
		*pos -= page;
		break;
	case KEY_NPAGE:
		*pos += page;
		break;
	case KEY_HOME:
		*pos = 0;
		break;
	case KEY_END:
		*pos = last;
		break;
	default:
		return (0);
	}
	return (1);
}

/* Select the task at row i of the table (clamped). */
static int
keys_select_row(struct keys_env *e, int i)
{
	struct model	*m = e->model;

	if (i >= m->ntasks)
		i = m->ntasks - 1;
	if (i < 0)
		i = 0;
	if (m->tasks[i].id == e->view->selected)
		return (KEYS_HANDLED);
	e->view->selected = m->tasks[i].id;
	return (KEYS_HANDLED | KEYS_REDRAW | KEYS_TABLE);
}

/* Move the selection by n rows (the wheel); with none, the first. */
int
keys_select_move(struct keys_env *e, int n)
{
	int	i;

	if (e->model->ntasks == 0)
		return (KEYS_HANDLED);
	i = model_task_index(e->model, e->view->selected);
	return (keys_select_row(e, i < 0 ? 0 : i + n));
}

/*
 * Up, Down (k, j), PgUp, PgDn, Home, End (g, G): the task above, below,
 * a page on, the first or last; with none selected, the first.
 */
int
keys_select_key(struct keys_env *e, int key)
{
	struct model	*m = e->model;
	int		 i, page;

	if (m->ntasks == 0)
		return (KEYS_HANDLED);
	page = e->view->task_rows > 1 ? e->view->task_rows - 1 : 1;
	if (key == 'g' || key == 'G')
		key = key == 'g' ? KEY_HOME : KEY_END;
	if ((i = model_task_index(m, e->view->selected)) < 0)
		i = 0;
	else
		keys_select_list(key, &i, page, m->ntasks - 1);
	return (keys_select_row(e, i));
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
