/*
 * live-int.h -- the live daemon's insides, shared by its files alone,
 * each calling only those before it: live-room.c (the room's question
 * and its votes), live.c (the shell: made and freed, what it serves,
 * the tick, the clock's verbs, the lesson's events, status, reload) and
 * live-load.c (sessions made and switched to: load, reset, a
 * recording's parts, a client's load, record, the shadows).  Nothing
 * outside src/daemon/live*.c includes it; the rest of the daemon uses
 * live.h, which each of them includes too.
 */
#ifndef STAIRS_LIVE_INT_H
#define STAIRS_LIVE_INT_H

#include <stdint.h>

#include "config.h"
#include "scenario.h"
#include "session.h"

struct bridge;
struct catalog;
struct event_base;
struct journal;
struct lesson_event;
struct loader;
struct notes;
struct pacer;
struct pacer_wait;
struct sinks;
struct whys;

struct live {
	struct config		 cfg;
	char			*config_path;	/* NULL: defaults only */
	struct session		*session;
	/* compare a,b,c: the shadows' policies, kept across loads. */
	const struct engine_policy *compare[SESSION_SHADOWS];
	int			 ncompare;	/* 0: off */
	char			 compare_text[SESSION_SHADOWS * 16];
	struct notes		*notes;
	struct whys		*whys;		/* each CPU's last why */
	struct sinks		*sinks;
	struct bridge		*bridge;
	struct pacer		*pacer;
	struct event_base	*base;
	int			 real;		/* real processes are run */
	int			 exiting;
	struct catalog		*catalog;	/* scenarios by name */
	struct loader		*loader;	/* a client's load, parsed */
	struct pacer_wait	*load_wait;	/* who waits for it */
	int			 load_run;	/* load ... run: running */
	void			(*loaded)(void *);
	void			*loaded_arg;
	/*
	 * The room (SPEC.md section 12): the question asked (its event,
	 * open until the resume or step that reveals it, then revealed
	 * until the next lesson event), a number that tells one question from the
	 * next (a connection's vote counts for that one only), the votes
	 * per choice, and them as status and frames say them.
	 */
	enum { LIVE_ASK_NONE, LIVE_ASK_OPEN, LIVE_ASK_REVEALED } ask;
	const struct lesson_event *ask_ev;
	uint64_t		 ask_serial;
	uint32_t		 votes[SCENARIO_CHOICES_MAX];
	char			 votes_text[SCENARIO_CHOICES_MAX * 11 + 1];
	/*
	 * A recording replayed on the clock (stairsd --replay, SPEC.md
	 * section 12): its path, the part shown (its journal feeds the
	 * session) and how many the file has; NULL: a live daemon.
	 */
	char			*replay;
	struct journal		*replay_j;
};

/* live-room.c */
/* A lesson event fired: a question revealed is closed, an ask opens. */
void	live_room_event(struct live *, const struct lesson_event *);
/* No question any more (a new session, a branch back before it). */
void	live_room_close(struct live *);
/* The clock goes on: the lesson's answer said, the votes revealed. */
void	live_room_go_on(struct live *);

/* live.c */
/* A session opens: its lesson events of tick 0 act now. */
void	live_open(struct live *);
/* The real processes of the session started, and stopped. */
void	live_procs_start(struct live *);
void	live_procs_stop(struct live *);

#endif
