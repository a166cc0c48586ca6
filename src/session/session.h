/*
 * session.h -- one run of one scenario (SPEC.md section 7): the engine,
 * the scenario it came from, the trace writer, the table counts, the
 * narration of what fired, and the journal of every change made from
 * outside the scenario.
 *
 * The session is the only code that changes an engine: the scenario at
 * creation, session_tick for a tick, session_change for anything else
 * (a client's command, a real process seen blocking, waking or dying).
 * Both `stairsd --headless` and the live daemon drive one; everybody
 * else reads the engine through session_engine().
 */
#ifndef STAIRS_SESSION_H
#define STAIRS_SESSION_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "change.h"
#include "engine.h"
#include "scenario.h"

struct tables;
struct lesson_event;
struct lesson_mark;
struct runs;
struct session;

struct session_setup {
	const char			*label;	/* file, or built-in name */
	const char			*text;	/* its text, for the journal */
	struct engine_params		 params;	/* final (checked) */
	const struct engine_policy	*policy;	/* NULL: staircase */
	int				 max_tasks;	/* 0: no limit */
	/*
	 * A real (command) task of the scenario, once the engine has it:
	 * spawn it, or NULL to refuse real tasks.  real_ok with no spawn
	 * adds them with no process (a replay: the journal moves them).
	 */
	scenario_spawn_cb		 spawn;
	void				*spawn_arg;
	int				 real_ok;
	int				 tables_rows;	/* 0: no table counts */
	/* Ticks of keyframes kept for session_seek; 0: no rewind. */
	uint64_t			 history;
	/*
	 * Ticks of what each CPU ran kept (session_runs), at least
	 * RUNS_KEEP_TICKS and RUNS_KEEP_CAP runs, at most RUNS_HISTORY_CAP
	 * runs a CPU: the live daemon's, its history (SPEC.md section 12).
	 */
	uint64_t			 runs_keep;
	/*
	 * Keep the engine's log of changes (engine_track_changes), for a
	 * reader of what changed between looks: the live daemon's frames.
	 * Its clones (keyframes, the past viewed, a branch) keep it too.
	 */
	int				 track_changes;
	/*
	 * Keep no runs (session_runs gives NULL): a headless run that
	 * reads none, whose quiet ticks session_advance may then skip.
	 */
	int				 no_runs;
	/* A human line about something at tick (narration); may be NULL. */
	void	(*note)(void *, uint64_t tick, const char *text);
	/* Why a real task ended, as its process says; -1 if it does not. */
	int	(*exit_reason)(void *, int id, char *buf, size_t len);
	void				*arg;	/* for note and exit_reason */
};

/* Start a session of sc (its text in setup); NULL with *cause. */
struct session *session_create(const struct session_setup *,
	    const struct scenario *, char **cause);
void	session_free(struct session *);


/* The engine shown (the past being viewed, else the present). */
const struct engine *session_engine(const struct session *);
const struct engine *session_live_engine(const struct session *);
uint64_t session_now(const struct session *);	/* the present tick */
int	session_viewing(const struct session *);
int	session_has_real(const struct session *);
/* A recording replayed live: the past is view-only (no branch). */
void	session_view_only(struct session *);
const struct lesson_mark *session_marks(const struct session *, size_t *);
const char *session_name(const struct session *);	/* scenario's name */
const char *session_label(const struct session *);	/* file or built-in */
const char *session_description(const struct session *);
/* The table counts of the tick shown (the past's too); NULL: none. */
struct tables *session_tables(struct session *);
/* What each CPU ran over the last few seconds of the present (runs.h). */
const struct runs *session_runs(const struct session *);
/* A task's id by name or decimal id, 0 if none. */
int	session_task_find(struct session *, const char *name_or_id);
/* The scenario's own speed (ticks per ms), 0 if it has none. */
double	session_speed(const struct session *);
/* The lesson's speed at a tick (its last speed event); 0: the
 * configured one; -1: the scenario has no speed (leave the clock's). */
double	session_speed_at(const struct session *, uint64_t tick);
/* After an ask, its answer becomes the caption; NULL if none waits. */
const char *session_answer(struct session *);
/* The room's votes at a question's reveal, into the journal. */
void	session_votes(struct session *, const uint32_t *votes, size_t n);
/* The lesson's events fired in the last tick (lesson.h), in order. */
const struct lesson_event *session_lessons(const struct session *,
	    size_t *n);
/*
 * Fire the lesson's events of the tick the session stands at, before it
 * runs (the live daemon, as a session opens: tick 0's pause or caption
 * acts before any command); session_tick then finds them fired.
 */
const struct lesson_event *session_lessons_now(struct session *, size_t *n);
/* Ticks from now with no change and no lesson event; at most most. */
uint64_t session_quiet(const struct session *, uint64_t most);
uint64_t session_skippable(const struct session *, uint64_t most);
void	 session_advance(struct session *, uint64_t n);
/* The caption shown (NULL: none) and the tick it fired at. */
const char *session_caption(const struct session *, uint64_t *tick);

/*
 * Write the trace to f from now on: the header (tick,cpu,task,rank and
 * the policy's columns), then a row per CPU per tick.  f stays the
 * caller's; NULL stops.
 */
void	session_trace(struct session *, FILE *f);
/*
 * Record the journal to f: the header and every change so far, then
 * each change as it is made; session_end writes the end line.  f stays
 * the caller's.  0, or -1 with *cause (a write failed).
 */
int	session_record(struct session *, FILE *f, char **cause);
void	session_end(struct session *);

/*
 * The one path for a change from outside the scenario: applied to the
 * engine at engine_now() and kept in the journal.  Returns 0 (for
 * CHANGE_ADD the new task's id), or -1 with *cause.
 */
int	session_change(struct session *, const struct change *, char **cause);
/*
 * Have the present engine and the shadow explain each pick (SPEC.md
 * section 10), or not (as a session starts): after a tick, the why
 * lines are engine_whys() of session_live_engine and session_shadow.
 * Off, the engines' ticks and traces are as without it.
 */
void	session_explain(struct session *, int on);
/* Run one tick: its trace rows, table counts and narration. */
void	session_tick(struct session *);

/*
 * Replay: changes (sorted by tick) to make as the ticks come, the way
 * they were made live; they stay the caller's until the session ends.
 * With a policy fixed (replay --policy), CHANGE_POLICY is skipped.
 */
void	session_feed(struct session *, const struct change *, size_t n,
	    int keep_policy, const char *label);
size_t	session_feed_errors(const struct session *);
/* Is a branch still ahead in the fed changes (run on until it is made)? */
int	session_feed_branch_ahead(const struct session *);

/*
 * Live side by side (SPEC.md sections 6 and 10): up to SESSION_SHADOWS
 * shadow engines with other policies over the same workload, each a
 * copy of the present switched to its policy, given every later change
 * and tick of the enforced one; and what every engine's tasks got from
 * then on (tally.h: ran, runs, wake-up latencies).  A branch starts
 * them again from the tick gone back to.  session_compare_set of n = 0
 * drops them.  0, or -1 with *cause (the past is viewed, too many).
 * While the past is viewed there are none to read (they have no past).
 */
#define SESSION_SHADOWS	3
struct tally;
int	session_compare_set(struct session *,
	    const struct engine_policy *const *, int n, char **cause);
/* One shadow, or none (NULL). */
int	session_compare(struct session *, const struct engine_policy *,
	    char **cause);
int	session_nshadows(const struct session *);
const struct engine *session_live_shadow_at(const struct session *, int i);
const struct engine *session_shadow_at(const struct session *, int i);
const struct engine_policy *session_shadow_policy_at(const struct session *,
	    int i);
/* The first shadow and its policy (NULL: none). */
const struct engine *session_shadow(const struct session *);
const struct engine_policy *session_shadow_policy(const struct session *);
/* i 0: the enforced engine's tally, i + 1: shadow i's; NULL: none. */
struct tally *session_tally(const struct session *, int i);

/*
 * Rewind (SPEC.md section 7): keyframes every few thousand ticks within
 * the history; session_seek shows the state at a tick (a view; the
 * present is untouched), session_view_end goes back to the present,
 * session_branch makes the view the present (scripted tasks only).
 */
uint64_t session_first(const struct session *);
size_t	session_history_memory(const struct session *);
int	session_seek(struct session *, uint64_t tick, char **cause);
int	session_seek_check(struct session *, uint64_t tick, char **cause);
void	session_view_end(struct session *);
int	session_branch(struct session *, char **cause);

#endif
