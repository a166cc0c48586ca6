/*
 * session-int.h -- a session's insides, shared by its files alone,
 * each calling only those before it: session-apply.c (a change made to
 * an engine), session-out.c (what a tick writes out and narrates),
 * session-shadow.c (the shadow engine of compare), session-journal.c
 * (the journal and its record), session-rewind.c (keyframes, seek,
 * branch and the past's counts) and session.c (making one, its tick,
 * its changes, a replay's feed).  Nothing outside src/session/session*.c
 * includes it.
 */
#ifndef STAIRS_SESSION_INT_H
#define STAIRS_SESSION_INT_H

#include <stdint.h>
#include <stdio.h>

#include "change.h"
#include "cpumask.h"
#include "engine.h"
#include "session.h"

struct tables;
struct lesson;
struct lesson_event;
struct runs;
struct tally;

/*
 * A keyframe every SESSION_KEY_TICKS ticks: a seek clones the nearest
 * one at or before its tick and runs at most this many ticks from it.
 * A seek's cost and the keyframes' memory are measured by
 * tests/bench_seek.c (docs/BENCH.md).
 */
#define SESSION_KEY_TICKS	10000
/*
 * The keyframes' memory is bounded too: past this the oldest go, and the
 * history reaches less far back (100 000 tasks: a keyframe is ~33 MB).
 */
#define SESSION_KEY_BYTES	(512UL << 20)

/* What the session remembers about each task to describe changes. */
struct session_seen {
	int		nice;
	int		exited;
	struct cpumask	affinity;
	int		ran;		/* 1: it ran, last on cpu */
	int		cpu;
};

/* A copy of the engine at a tick (before that tick's changes). */
struct session_key {
	uint64_t		 tick;
	struct engine		*e;
	/* The shadows then (compare was on), under shadow_policy. */
	struct engine		*shadow[SESSION_SHADOWS];
	const struct engine_policy *shadow_policy[SESSION_SHADOWS];
	size_t			 njournal;	/* changes made before it */
	size_t			 bytes;		/* engine_memory, all */
};

struct session {
	struct engine		*e;
	uint64_t		 epochs;	/* its engines' change logs */
	char			*label;
	char			*name;
	char			*description;	/* the scenario's, or "" */
	char			*text;
	struct engine_params	 params;
	int			 ntasks0;	/* the scenario's tasks */
	double			 speed;		/* the scenario's; 0: none */
	/* The policy at tick 0. */
	const struct engine_policy *policy0;
	struct tables		*tables;
	struct runs		*runs;		/* what each CPU ran */
	int			 tables_rows;
	/* The table counts of the past shown (view), counted again. */
	struct tables		*view_tables;
	uint64_t		 view_tables_tick;

	/* The caller's narration and exit reasons (session_setup). */
	void		(*note)(void *, uint64_t, const char *);
	int		(*exit_reason)(void *, int, char *, size_t);
	void		*arg;
	struct session_seen	*seen;		/* seen[id - 1] */
	int			 nseen;

	/* The lesson, and its events fired in the last tick. */
	struct lesson		*lesson;
	const struct lesson_event *fired;
	size_t			 nfired;

	/* The trace writer (the caller's file). */
	FILE			*trace;
	const char		**names;	/* by id; [0] unused */
	int			 nnames;
	/* The idle row, made for this policy's columns. */
	const struct engine_policy *idle_policy;
	char			 idle[2 * ENGINE_MAX_COLS + 8];
	size_t			 idle_len;

	/* The journal: every change made, and the record file. */
	struct change		*journal;
	size_t			 njournal, sizejournal;
	FILE			*record;

	/* History: keyframes, oldest first, and the past being viewed. */
	uint64_t		 history;	/* ticks kept; 0: none */
	struct session_key	*keys;
	size_t			 nkeys, sizekeys;
	size_t			 keybytes;	/* their engines' */
	struct engine		*view;		/* NULL: the present */
	size_t			 view_j;	/* next journal change for it */
	struct engine		*view_shadow[SESSION_SHADOWS]; /* the
						   shadows at the view */
	int			 ever_real;	/* a real task: no branch */
	int			 view_only;	/* a replay: no branch but
						   the feed's own */

	/* A replay's changes to make. */
	const struct change	*feed;
	size_t			 nfeed, nextfeed;
	size_t			 feed_branch;	/* last branch + 1; 0: none */
	int			 keep_policy;
	const char		*feed_label;	/* the journal's, in messages */
	size_t			 feed_errors;	/* changes not made again */

	/*
	 * Live side by side (SPEC.md sections 6 and 10): up to
	 * SESSION_SHADOWS shadow engines under other policies, given the
	 * same changes and ticks, and what each engine's tasks got
	 * (tallies[0]: the enforced engine's, [i + 1]: shadow i's).
	 */
	struct engine			*shadow[SESSION_SHADOWS];
	const struct engine_policy	*shadow_policy[SESSION_SHADOWS];
	int				 nshadows;
	struct tally			*tallies[SESSION_SHADOWS + 1];

	/* The engines explain each pick (session_explain; SPEC.md 10). */
	int				 explain;
};

/* session-apply.c */
int		 session_apply(struct session *, struct engine *,
		    const struct change *, char **cause);

/* session-out.c */
void		 session_note(struct session *, uint64_t, const char *, ...)
		    __attribute__((format(printf, 3, 4)));
void		 session_seen_update(struct session *, int id);
void		 session_trace_rows(struct session *, uint64_t tick);
void		 session_count(struct tables *, struct engine *, int cpus);
void		 session_runs_tick(struct session *, uint64_t tick);
void		 session_fired(struct session *, uint64_t tick);
void		 session_exits(struct session *, uint64_t tick);

/* session-journal.c */
void		 session_journal_add(struct session *, const struct change *);
void		 session_record_change(struct session *,
		    const struct change *);

/* session-rewind.c */
void		 session_key_add(struct session *);
struct tables	*session_tables(struct session *);
struct tables	*session_recount(struct session *, uint64_t tick);
int		 session_branch_as(struct session *, int fed, char **);

/* session-shadow.c */
void		 session_shadow_tick(struct session *, uint64_t tick);
void		 session_shadows_step(
		     struct engine *const *);
void		 session_shadows_apply(struct session *,
		     struct engine *const *, const struct change *, int id);
void		 session_shadows_restart(struct session *);
void		 session_shadows_end(struct session *);
void		 session_view_shadows_free(struct session *);

#endif
