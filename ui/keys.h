/*
 * keys.h -- the keys: the one key table (keys.c: each row's keys, its
 * action and its words for the bottom line, the help and stairs(1)),
 * one key handled (keys-handle.c), and the actions (keys-*.c), which
 * change the view or send a command to the daemon and tell the main
 * loop what to do next.
 */
#ifndef STAIRS_UI_KEYS_H
#define STAIRS_UI_KEYS_H

#include "model.h"

struct grid;
struct view;

/* Reaction flags: what a key asks of the main loop. */
#define KEYS_HANDLED	0x1
#define KEYS_REDRAW	0x2
#define KEYS_QUIT	0x4	/* detach, leave the daemon running */
#define KEYS_SHUTDOWN	0x8	/* `shutdown` sent: quit on its reply */
#define KEYS_TABLE	0x10	/* selection changed: fetch its table */
#define KEYS_MARKS	0x20	/* a new session: fetch its marks */

#define KEYS_SECOND	1000	/* ticks the b and f keys move */

#define KEYS_FPS	30	/* frames a second the client asks for */
#define KEYS_WHEEL	3	/* rows (events, tasks) a wheel turn moves */

/* What the keys (keys-*.c) act on, and how they reach the daemon. */
struct keys_env {
	struct model	*model;
	struct view	*view;
	const struct grid *grid;	/* the screen drawn: what a click hits */
	const struct mtask *task;	/* the selected one, for KEYS_TASK */
	/* Send one command line (no newline); -1 if it could not be sent. */
	int		(*send)(void *, enum model_pend, const char *);
	void		*arg;
};

/* How the bottom line tells a key (keys_bar): its forms, widest first. */
enum keys_form {
	KEYS_BAR,		/* the bottom line: "s sleep" */
	KEYS_BRIEF,		/* its narrowest: "s/S sleep" */
	KEYS_PAST,		/* in the past: "←/→ a tick" */
	KEYS_PAST_BRIEF,	/* its narrowest: "←/→ tick" */
	KEYS_PAST_REAL,		/* in the past, with real tasks */
	KEYS_FORMS
};

/* The prompt line open (view.prompt). */
enum keys_prompt {
	PROMPT_NONE,
	PROMPT_SLEEP,
	PROMPT_AFFINITY,
	PROMPT_NEW,
	PROMPT_FIND,
	PROMPT_SPEED,
	PROMPT_COMPARE,		/* a policy to compare with */
	PROMPT_GOTO,		/* a tick or a mark to seek to */
	PROMPT_PART,		/* a part of the recording played */
	PROMPT_LOAD,		/* a scenario file's path to load */
	PROMPT_KILL,		/* y/N: kill prompt_task */
	PROMPT_SHUTDOWN,	/* y/N: stop the daemon for everyone */
	PROMPT_RESET,		/* y/N: reset, dropping the session */
	PROMPT_BRANCH		/* y/N: resume from the past, dropping the
				   ticks after it */
};
/* The y/N questions (keys_prompt_confirm answers them). */
#define KEYS_PROMPT_YN(p)	((p) >= PROMPT_KILL)

/* keys.c: the key table */
#define KEYS_ALIASES	9	/* keys a row binds at most */
#define KEYS_CHANGES	0x1	/* changes the daemon: read-only refuses */
#define KEYS_REWIND	0x2	/* the help lists it under "Rewind" */
#define KEYS_TASK	0x4	/* acts on the selected task (e->task) */

/* What a row of the key table does: keys-handle.c runs it. */
enum keys_action {
	KEYS_DO_SELECT_KEY,
	KEYS_DO_SELECT_FIND,
	KEYS_DO_TASK_SLEEP,
	KEYS_DO_TASK_SLEEP_ASK,
	KEYS_DO_TASK_NICE,
	KEYS_DO_TASK_AFFINITY,
	KEYS_DO_TASK_KILL,
	KEYS_DO_TASK_NEW,
	KEYS_DO_CLOCK_PAUSE,
	KEYS_DO_CLOCK_STEP,
	KEYS_DO_CLOCK_SPEED,
	KEYS_DO_CLOCK_SPEED_ASK,
	KEYS_DO_CLOCK_SEEK,
	KEYS_DO_CLOCK_MARK,
	KEYS_DO_ROOM_ANSWER,
	KEYS_DO_SESSION_PART,
	KEYS_DO_CLOCK_PRESENT,
	KEYS_DO_CLOCK_GOTO,
	KEYS_DO_SESSION_PICKER,
	KEYS_DO_SESSION_RESET,
	KEYS_DO_SESSION_QUIT,
	KEYS_DO_SESSION_SHUTDOWN,
	KEYS_DO_VIEW_SCROLL,
	KEYS_DO_VIEW_CPUS,
	KEYS_DO_VIEW_ARTICLE,
	KEYS_DO_VIEW_HELP,
	KEYS_DO_VIEW_COMPARE,
	KEYS_DO_VIEW_HISTORY,
	KEYS_DO_VIEW_ZOOM,
	KEYS_DO_VIEW_EVENTS,
	KEYS_DO_VIEW_THEME,
	KEYS_DO_VIEW_BIG,
	KEYS_ACTIONS
};

/*
 * One row of the key table: the keys that do one thing and its action,
 * and how the bottom line, the help and stairs(1) tell them.
 */
struct keys_entry {
	int		 keys[KEYS_ALIASES];	/* 0 ends */
	int		 flags;
	enum keys_action action;	/* what they do (keys-handle.c) */
	const char	*help_keys;	/* the help's; NULL: the row above's */
	const char	*help;
	const char	*bar[KEYS_FORMS];	/* NULL: keys_bar's fallback */
	const char	*man;		/* stairs(1)'s text, in mdoc */
};

const struct keys_entry *keys_find(int key);
const char	*keys_bar(int key, enum keys_form);
const char *const *keys_help(void);
char		*keys_man(void);

/* keys-handle.c */
int		 keys_handle(struct keys_env *, int key);

/* keys-send.c */
int		 keys_send(struct keys_env *, enum model_pend, const char *what,
		     const char *cmd);
int		 keys_send_speed(struct keys_env *, double);
void		 keys_reply(struct model *, struct view *);
int		 keys_frame(struct model *, struct view *);

/* keys-select.c */
const struct mtask *keys_select_task(struct keys_env *);
int		 keys_select_list(int key, int *pos, int page, int last);
int		 keys_select_move(struct keys_env *, int n);
int		 keys_select_key(struct keys_env *, int);
int		 keys_select_find(struct keys_env *, int);
void		 keys_select_first(struct model *, struct view *);
int		 keys_select_id(struct keys_env *, int id);

/* keys-task.c */
int		 keys_task_sleep(struct keys_env *, int);
int		 keys_task_sleep_ask(struct keys_env *, int);
int		 keys_task_nice(struct keys_env *, int);
int		 keys_task_affinity(struct keys_env *, int);
int		 keys_task_kill(struct keys_env *, int);
int		 keys_task_new(struct keys_env *, int);

/* keys-view.c */
int		 keys_view_scroll(struct keys_env *, int);
void		 keys_view_events_by(struct view *, int n);
int		 keys_view_cpus(struct keys_env *, int);
int		 keys_view_compare(struct keys_env *, int);
int		 keys_view_article(struct keys_env *, int);
int		 keys_view_history(struct keys_env *, int);
int		 keys_view_theme(struct keys_env *, int);
int		 keys_view_big(struct keys_env *, int);
int		 keys_view_zoom(struct keys_env *, int);
int		 keys_view_events(struct keys_env *, int);
int		 keys_view_help(struct keys_env *, int);
int		 keys_view_help_key(struct view *, int key);

/* keys-clock.c */
int		 keys_clock_pause(struct keys_env *, int);
int		 keys_clock_seek(struct keys_env *, int);
int		 keys_clock_mark(struct keys_env *, int);
int		 keys_room_answer(struct keys_env *, int);
int		 keys_session_part(struct keys_env *, int);

int		 keys_clock_present(struct keys_env *, int);
int		 keys_clock_goto(struct keys_env *, int);

int		 keys_clock_step(struct keys_env *, int);
int		 keys_clock_speed_ask(struct keys_env *, int);
int		 keys_clock_speed(struct keys_env *, int);

/* keys-session.c */
int		 keys_session_picker(struct keys_env *, int);
void		 keys_scenarios(struct model *, struct view *);
int		 keys_session_picker_key(struct keys_env *, int);
int		 keys_session_reset(struct keys_env *, int);
int		 keys_session_quit(struct keys_env *, int);
int		 keys_session_shutdown(struct keys_env *, int);

/* keys-prompt.c */
int		 keys_prompt_open(struct keys_env *, int kind,
		     const char *label, const char *init);
int		 keys_prompt_ask(struct keys_env *, int kind,
		     const char *label, const char *init,
		     int (*)(struct keys_env *, const char *));
int		 keys_prompt_key(struct keys_env *, int);

/* keys-mouse.c */
int		 keys_click(struct keys_env *, int x, int y);
int		 keys_wheel(struct keys_env *, int x, int y, int dir);

#endif
