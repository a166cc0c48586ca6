/*
 * keys-mouse.c -- the mouse: a click on a task (the grid's tags) or on
 * a task's row selects it, a click on a key of the keys bar is that
 * key, and the wheel scrolls what it is over.
 */
#include <curses.h>

#include "grid.h"
#include "keys.h"
#include "model.h"
#include "view.h"

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
		return (keys_view_help_key(v, KEY_MOUSE));
	tag = e->grid != NULL ? grid_tag_at(e->grid, x, y) : 0;
	if (tag < 0)
		return (keys_handle(e, -tag));
	if (tag > 0)
		return (keys_select_id(e, tag));
	if (y < v->task_y || y >= v->task_y + v->task_rows)
		return (0);
	i = v->task_top + (y - v->task_y);
	if (i < 0 || i >= e->model->ntasks)
		return (0);
	return (keys_select_id(e, e->model->tasks[i].id));
}

/*
 * The mouse wheel at (x, y), up (dir -1) or down (1): over the event
 * log it scrolls the log (up: older), over the CPUs it scrolls their
 * rows as [ and ] do, in the picker it moves the selection, in the help
 * it scrolls it (keys_view_help_key), elsewhere it moves the task
 * selection (the task table follows) by KEYS_WHEEL.
 */
int
keys_wheel(struct keys_env *e, int x, int y, int dir)
{
	struct view	*v = e->view;

	if (v->prompt != PROMPT_NONE)
		return (0);
	if (v->show_help)	/* it scrolls */
		return (keys_view_help_key(v, dir < 0 ? KEY_UP : KEY_DOWN));
	if (v->picker)
		return (keys_session_picker_key(e, dir < 0 ? KEY_UP :
		    KEY_DOWN));
	if (v->events_rows > 0 && y >= v->events_y &&
	    y < v->events_y + v->events_rows) {
		keys_view_events_by(v, -dir * KEYS_WHEEL);
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	if (y >= v->cpus_y && y < v->cpus_y + v->cpus_rows &&
	    v->cpu_rows > v->cpu_rows_shown)
		return (keys_view_scroll(e, dir < 0 ? '[' : ']'));
	return (keys_select_move(e, dir * KEYS_WHEEL));
}
