/*
 * keys-handle.c -- one key handled: an open prompt, the picker or the
 * help takes it first; else its row of the key table (keys.c) says
 * which action runs, refused here for a read-only client when it would
 * change the daemon, and given the selected task when it acts on one.
 * The actions are keys-*.c's; each row's action is one of
 * keys_actions.
 */
#include <stdio.h>

#include <curses.h>

#include "draw.h"
#include "keys.h"
#include "view.h"

#define nitems(a)	(sizeof (a) / sizeof (a)[0])

/* The actions the key table's rows name. */
static int (*const keys_actions[KEYS_ACTIONS])(struct keys_env *, int) = {
	[KEYS_DO_SELECT_KEY] = keys_select_key,
	[KEYS_DO_SELECT_FIND] = keys_select_find,
	[KEYS_DO_TASK_SLEEP] = keys_task_sleep,
	[KEYS_DO_TASK_SLEEP_ASK] = keys_task_sleep_ask,
	[KEYS_DO_TASK_NICE] = keys_task_nice,
	[KEYS_DO_TASK_AFFINITY] = keys_task_affinity,
	[KEYS_DO_TASK_KILL] = keys_task_kill,
	[KEYS_DO_TASK_NEW] = keys_task_new,
	[KEYS_DO_CLOCK_PAUSE] = keys_clock_pause,
	[KEYS_DO_CLOCK_STEP] = keys_clock_step,
	[KEYS_DO_CLOCK_SPEED] = keys_clock_speed,
	[KEYS_DO_CLOCK_SPEED_ASK] = keys_clock_speed_ask,
	[KEYS_DO_CLOCK_SEEK] = keys_clock_seek,
	[KEYS_DO_CLOCK_MARK] = keys_clock_mark,
	[KEYS_DO_ROOM_ANSWER] = keys_room_answer,
	[KEYS_DO_SESSION_PART] = keys_session_part,
	[KEYS_DO_CLOCK_PRESENT] = keys_clock_present,
	[KEYS_DO_CLOCK_GOTO] = keys_clock_goto,
	[KEYS_DO_SESSION_PICKER] = keys_session_picker,
	[KEYS_DO_SESSION_RESET] = keys_session_reset,
	[KEYS_DO_SESSION_QUIT] = keys_session_quit,
	[KEYS_DO_SESSION_SHUTDOWN] = keys_session_shutdown,
	[KEYS_DO_VIEW_SCROLL] = keys_view_scroll,
	[KEYS_DO_VIEW_CPUS] = keys_view_cpus,
	[KEYS_DO_VIEW_ARTICLE] = keys_view_article,
	[KEYS_DO_VIEW_HELP] = keys_view_help,
	[KEYS_DO_VIEW_COMPARE] = keys_view_compare,
	[KEYS_DO_VIEW_HISTORY] = keys_view_history,
	[KEYS_DO_VIEW_ZOOM] = keys_view_zoom,
	[KEYS_DO_VIEW_EVENTS] = keys_view_events,
	[KEYS_DO_VIEW_THEME] = keys_view_theme,
	[KEYS_DO_VIEW_BIG] = keys_view_big,
};

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

	for (i = 0; i < nitems(names); i++) {
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
	const struct keys_entry	*k;
	char			 name[16];

	if (e->view->prompt != PROMPT_NONE)
		return (keys_prompt_key(e, key));
	if (e->view->picker)
		return (keys_session_picker_key(e, key));
	if (e->view->show_help)
		return (keys_view_help_key(e->view, key)); /* scroll, close */
	if (key != 0 && (k = keys_find(key)) != NULL) {
		if ((k->flags & KEYS_CHANGES) && e->view->readonly) {
			if (keys_name(key, name, sizeof name) == NULL)
				snprintf(name, sizeof name, "key %d", key);
			draw_message(e->view, 1, "read-only client: %s refused "
			    "(it would change the daemon)", name);
			return (KEYS_HANDLED | KEYS_REDRAW);
		}
		e->task = NULL;
		if ((k->flags & KEYS_TASK) &&
		    (e->task = keys_select_task(e)) == NULL)
			return (KEYS_HANDLED | KEYS_REDRAW);
		return (keys_actions[k->action](e, key));
	}
	/* A key that does nothing says so, rather than nothing. */
	if (key == ' ' || keys_name(key, name, sizeof name) == NULL)
		return (0);
	draw_message(e->view, 0, "%s does nothing here (? lists the keys)",
	    name);
	return (KEYS_HANDLED | KEYS_REDRAW);
}
