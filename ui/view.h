/*
 * view.h -- what the user is looking at (struct view): the selection,
 * scrolling, panes shown, prompt and messages, kept by the keys
 * (keys-*.c) and the main loop, read by the panes, said to followers
 * (follow.c).  Types only.
 */
#ifndef STAIRS_UI_VIEW_H
#define STAIRS_UI_VIEW_H

#include "caption.h"
#include "model.h"
#include "theme.h"

/* Big type (the B key): chosen from the screen, always, or never. */
enum view_big {
	BIG_AUTO,		/* one or two CPUs with room to spare */
	BIG_ON,
	BIG_OFF,
	BIG_MAX
};

/* How the CPUs are shown (the `v` key). */
enum view_cpus {
	VIEW_AUTO,		/* panels up to PANEL_MAX_CPUS, else a list */
	VIEW_PANELS,
	VIEW_LIST
};

/* What the user is looking at: selection, scrolling, prompt, messages. */
struct keys_env;

struct view {
	int		 selected;	/* task id, 0 none */
	int		 task_top;	/* first task row shown */
	int		 cpu_top;	/* first panel row (list line) shown */
	enum view_cpus	 cpu_view;
	/* The layout chosen last (panels a row, 0 the list) and for what. */
	int		 layout_cols;
	int		 layout_w, layout_h, layout_n;
	long		 layout_frames;	/* model frames when chosen */
	int		 layout_hidden, layout_cut;	/* as it was then */
	int		 show_table;	/* the article's table */
	int		 compare_off;	/* c: one policy's CPUs, not both */
	int		 show_help;
	int		 ascii;		/* no UTF-8: _ # . : */
	enum theme	 theme;		/* colours (crt.c), thick stairs */
	enum view_big	 big;		/* big type for one or two CPUs */
	int		 big_shown;	/* draw says: big type is on screen */
	int		 help_top;	/* the help's first line shown */
	int		 help_rows;	/* lines of it shown (draw sets it) */
	int		 readonly;
	int		 prompt;	/* a prompt is open (enum keys_prompt) */
	int		 prompt_task;	/* the task it is about */
	/*
	 * What the prompt's owner does with it (keys_prompt_ask): the
	 * line entered, or for a y/N question "y"; NULL: keys-prompt.c's
	 * own kinds.
	 */
	int		(*prompt_done)(struct keys_env *, const char *);
	char		 prompt_label[128];
	char		 prompt_buf[128];
	int		 prompt_fresh;	/* still the default: typing replaces it */
	char		 message[MODEL_TEXT_MAX];	/* last key's outcome */

	/* The scenario picker (l): open, the row selected, the first shown. */
	int		 picker;
	int		 picker_sel;	/* -1: none yet (the list is coming) */
	int		 picker_top;
	int		 picker_rows;	/* rows of names shown (draw sets it) */

	/*
	 * The last seek sent, until a frame shows it: rewind keys pressed
	 * in quick succession count from it, as + and - do.
	 */
	int		 seeking;
	long		 seek_tick;
	long		 seek_frames;

	/* The session the view was made for (the model's sessions). */
	long		 sessions;
	char		 scenario[MODEL_WORD_MAX];

	/*
	 * The last nice sent, until a frame shows it: + and - pressed in
	 * quick succession count from it, not from a stale frame.
	 */
	int		 nice_task;	/* 0: none */
	int		 nice_value;
	long		 nice_frames;	/* model frames when it was sent */
	double		 speed_sent;	/* the same for speed (0: none) */
	long		 speed_frames;
	int		 pause_sent;	/* and pause/resume (-1: none) */
	long		 pause_frames;
	long		 pause_replied;	/* frames at its reply; -1: none */
	int		 message_error;
	int		 message_note;	/* said by a key, not a command's */
	long		 message_frames;	/* frames when it was new */
	char		 message_seen[MODEL_TEXT_MAX];

	/*
	 * Filled by draw_screen: where things landed, for the mouse (the
	 * grid's tags say what a click on a cell means).
	 */
	int		 task_y;	/* screen row of the first task row */
	int		 task_rows;	/* task rows shown */
	int		 cpus_y, cpus_rows;	/* the CPUs' rows */
	int		 events_y, events_rows;	/* the event log's (0: none) */
	int		 cpu_rows;	/* panel rows in all */
	int		 cpu_rows_shown;

	/* History panes (history.c): on or off, zoom, the log's scroll. */
	int		 show_timeline;
	int		 show_ranks;
	int		 show_events;
	int		 zoom;		/* ticks a timeline cell; 0: default */
	int		 events_back;	/* events scrolled back from the newest */
	/* The selected task's state at each frame, for the rank line. */
	struct {
		long	 tick;
		int	 task;
		int	 sleeping;
	}		 samples[512];
	int		 nsamples;	/* total; newest at (n-1) % 512 */
	int		 follow;	/* --follow: take the presenter's view */
	struct captions	 captions;	/* the caption line's hold */
};

#endif
