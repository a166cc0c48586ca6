/*
 * session.c -- one run of one scenario: the only code that changes an
 * engine (see session.h).  A session is made from a scenario's text and
 * final engine params; it then runs tick by tick (session_tick), its
 * lesson's events fired and its outputs written (session-out.c); every
 * change from outside the scenario goes through session_change, which
 * applies it at engine_now() and keeps it in the journal
 * (session-journal.c, docs/JOURNAL.md), and a replay's feed makes a
 * journal's changes again here.  The past (session-rewind.c) and a
 * shadow under another policy (session-shadow.c) are its too; every
 * change reaches an engine through session-apply.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "readconf.h"
#include "journal.h"
#include "tables.h"
#include "lesson.h"
#include "log.h"
#include "runs.h"
#include "session-int.h"
#include "xmalloc.h"

/* A real task of a replayed scenario: no process, the journal moves it. */
static int
session_no_spawn(void *arg, struct engine *e, int id,
    const struct scenario_task *t, char **cause)
{
	return (0);
}

/* Start a session of sc as setup says. */
struct session *
session_create(const struct session_setup *set, const struct scenario *sc,
    char **cause)
{
	struct session		*s;
	scenario_spawn_cb	 spawn = set->spawn;
	uint64_t		 keep;
	size_t			 cap;
	int			 id;

	if (spawn == NULL && set->real_ok)
		spawn = session_no_spawn;
	s = xcalloc(1, sizeof *s);
	s->label = xstrdup(set->label);
	s->name = xstrdup(sc->name != NULL ? sc->name : "-");
	s->description = xstrdup(sc->description != NULL ? sc->description :
	    "");
	s->text = xstrdup(set->text);
	s->params = set->params;
	s->note = set->note;
	s->exit_reason = set->exit_reason;
	s->arg = set->arg;
	s->e = engine_create(&set->params, set->policy);
	engine_narrate(s->e, s->note != NULL);
	engine_track_changes(s->e, set->track_changes ? &s->epochs : NULL);
	if (scenario_apply(sc, s->e, spawn, set->spawn_arg, cause) != 0) {
		session_free(s);
		return (NULL);
	}
	if (set->max_tasks > 0 && engine_ntasks(s->e) > set->max_tasks) {
		*cause = xasprintf("%s: %d tasks, more than max_tasks (%d)",
		    s->label, engine_ntasks(s->e), set->max_tasks);
		session_free(s);
		return (NULL);
	}
	s->ntasks0 = engine_ntasks(s->e);
	s->speed = sc->has_speed ? sc->speed : 0;
	s->policy0 = engine_get_policy(s->e);
	if (set->tables_rows > 0)
		s->tables = tables_create(set->tables_rows);
	s->tables_rows = set->tables_rows;
	s->ever_real = scenario_ncommands(sc) > 0;
	if (!set->no_runs) {
		keep = set->runs_keep > RUNS_KEEP_TICKS ? set->runs_keep :
		    RUNS_KEEP_TICKS;
		cap = keep < RUNS_KEEP_CAP ? RUNS_KEEP_CAP :
		    keep > RUNS_HISTORY_CAP ? RUNS_HISTORY_CAP : (size_t)keep;
		s->runs = runs_create(set->params.cpus, cap, keep);
	}
	s->lesson = lesson_create(sc);
	s->history = set->history;
	if (s->history > 0)
		session_key_add(s);
	for (id = 1; id <= engine_ntasks(s->e); id++)
		session_seen_update(s, id);
	return (s);
}

/* Free a session (the trace and record files stay the caller's). */
void
session_free(struct session *s)
{
	size_t	i;
	int	id;

	if (s == NULL)
		return;
	journal_changes_clear(s->journal, s->njournal);
	free(s->journal);
	for (i = 0; i < s->nkeys; i++) {
		engine_free(s->keys[i].e);
		for (id = 0; id < SESSION_SHADOWS; id++)
			engine_free(s->keys[i].shadow[id]);
	}
	free(s->keys);
	engine_free(s->view);
	session_view_shadows_free(s);
	session_shadows_end(s);
	lesson_free(s->lesson);
	for (id = 1; id <= s->nnames; id++)
		free((char *)s->names[id]);
	free(s->names);
	free(s->seen);
	tables_free(s->tables);
	runs_free(s->runs);
	tables_free(s->view_tables);
	engine_free(s->e);
	free(s->label);
	free(s->name);
	free(s->description);
	free(s->text);
	free(s);
}

/* The engine shown, to read: the past being viewed, else the present. */
const struct engine *
session_engine(const struct session *s)
{
	return (s->view != NULL ? s->view : s->e);
}

/* The present engine, to read (whatever is viewed). */
const struct engine *
session_live_engine(const struct session *s)
{
	return (s->e);
}

/* The present tick. */
uint64_t
session_now(const struct session *s)
{
	return (engine_now(s->e));
}

/* Is the past being viewed? */
int
session_viewing(const struct session *s)
{
	return (s->view != NULL);
}

/* Did the session ever have a real task (a seek is then view-only)? */
int
session_has_real(const struct session *s)
{
	return (s->ever_real);
}

/*
 * A recording replayed live (stairsd --replay): its past is view-only,
 * as a real session's (resume goes on from the present), but for the
 * branches its journal makes itself.
 */
void
session_view_only(struct session *s)
{
	s->view_only = 1;
}

/* The scenario's marks, in time order. */
const struct lesson_mark *
session_marks(const struct session *s, size_t *n)
{
	return (lesson_marks(s->lesson, n));
}

/* The scenario's name. */
const char *
session_name(const struct session *s)
{
	return (s->name);
}

/* The scenario's file, or built-in name. */
const char *
session_label(const struct session *s)
{
	return (s->label);
}

/* The scenario's description ("" if it has none). */
const char *
session_description(const struct session *s)
{
	return (s->description);
}

/* What each CPU of the present ran, over the last few seconds. */
const struct runs *
session_runs(const struct session *s)
{
	return (s->runs);
}

/* A task's id by name or decimal id; 0 if there is none. */
int
session_task_find(struct session *s, const char *name)
{
	return (engine_task_find(s->e, name));
}

/* The scenario's own speed (ticks per ms), 0 if it has none. */
double
session_speed(const struct session *s)
{
	return (s->speed);
}

/*
 * The speed the lesson had at tick (lesson_speed_at): its last speed
 * event's, the scenario's, 0 for the configured one, or -1 for none.
 */
double
session_speed_at(const struct session *s, uint64_t tick)
{
	return (lesson_speed_at(s->lesson, tick));
}

/*
 * After a scenario's ask, the answer becomes the caption (the live
 * daemon's resume); returns it, or NULL when none waits.
 */
const char *
session_answer(struct session *s)
{
	uint64_t	now = engine_now(s->e);

	return (lesson_answer(s->lesson, now > 0 ? now - 1 : 0));
}

/* The caption shown, and the tick it fired at. */
const char *
session_caption(const struct session *s, uint64_t *tick)
{
	uint64_t	t;

	/* The past's own caption; when it fired is not kept there. */
	if (s->view != NULL) {
		t = engine_now(s->view);
		if (tick != NULL)
			*tick = t;
		return (t > 0 ? lesson_caption_at(s->lesson, t - 1) : NULL);
	}
	return (lesson_caption(s->lesson, tick));
}

/* The lesson's events fired in the last tick, in order. */
const struct lesson_event *
session_lessons(const struct session *s, size_t *n)
{
	*n = s->nfired;
	return (s->fired);
}

/* Fire the lesson's events of the present tick, before it runs. */
const struct lesson_event *
session_lessons_now(struct session *s, size_t *n)
{
	s->fired = lesson_fire(s->lesson, engine_now(s->e), &s->nfired);
	*n = s->nfired;
	return (s->fired);
}

/*
 * Ticks from now that surely run what the last one did, with no lesson
 * event among them (a pause or a speed must come on time): at most most.
 */
uint64_t
session_quiet(const struct session *s, uint64_t most)
{
	uint64_t	q = engine_quiet(s->e, most);

	return (lesson_quiet(s->lesson, engine_now(s->e), q));
}


/*
 * A fed change could not be made again: say so at its journal line.
 * The replay is then not the recording (under its own policy).
 */
static void
session_feed_error(struct session *s, const struct change *ch,
    uint64_t now, char *cause)
{
	fprintf(stderr, "%s:%d: %s (at tick %llu)\n", s->feed_label,
	    ch->line, cause, (unsigned long long)now);
	free(cause);
	s->feed_errors++;
}

/* Make the fed changes due at this tick. */
static void
session_feed_due(struct session *s)
{
	const struct change	*ch;
	uint64_t		 now = engine_now(s->e);
	char			*cause;

	while (s->nextfeed < s->nfeed && s->feed[s->nextfeed].at <= now) {
		ch = &s->feed[s->nextfeed++];
		if ((ch->kind == CHANGE_POLICY && s->keep_policy) ||
		    ch->kind == CHANGE_TALLY)
			continue;
		cause = NULL;
		if (ch->kind == CHANGE_BRANCH) {
			/* Back to its tick, as the live session went. */
			if (session_seek(s, (uint64_t)ch->value, &cause) == 0 &&
			    session_branch_as(s, 1, &cause) == 0)
				now = engine_now(s->e);
			else
				session_feed_error(s, ch, now, cause);
			continue;
		}
		/* Made live, so it is made again; say if not. */
		if (session_change(s, ch, &cause) < 0)
			session_feed_error(s, ch, now, cause);
	}
}

/*
 * Make the changes fed from a journal (label: its name, in messages) as
 * their ticks come.
 */
void
session_feed(struct session *s, const struct change *ch, size_t n,
    int keep_policy, const char *label)
{
	size_t	i;

	s->feed_label = label;
	s->feed_errors = 0;
	s->feed = ch;
	s->nfeed = n;
	s->nextfeed = 0;
	s->feed_branch = 0;
	for (i = 0; i < n; i++) {
		if (ch[i].kind == CHANGE_BRANCH)
			s->feed_branch = i + 1;
	}
	s->keep_policy = keep_policy;
}

/* How many fed changes could not be made again. */
size_t
session_feed_errors(const struct session *s)
{
	return (s->feed_errors);
}

/* Is a branch still ahead in the fed changes? */
int
session_feed_branch_ahead(const struct session *s)
{
	return (s->nextfeed < s->feed_branch);
}

/*
 * How many of the next ticks (at most most) session_advance may run at
 * once: those session_quiet promises, when the engine is all that acts
 * in a tick (no feed, trace, shadow, table counts, narration, runs or
 * keyframes); else 0.
 */
uint64_t
session_skippable(const struct session *s, uint64_t most)
{
	if (s->feed != NULL || s->trace != NULL || s->nshadows > 0 ||
	    s->tables != NULL || s->note != NULL || s->runs != NULL ||
	    s->history > 0)
		return (0);
	return (session_quiet(s, most));
}

/* Run n ticks session_skippable allowed, as n session_tick would. */
void
session_advance(struct session *s, uint64_t n)
{
	s->nfired = 0;
	engine_advance(s->e, n);
}

/* Run one tick and what follows from it. */
void
session_tick(struct session *s)
{
	uint64_t	tick;
	int		nlive;

	if (s->feed != NULL)
		session_feed_due(s);
	tick = engine_now(s->e);
	nlive = engine_nlive(s->e);
	s->fired = lesson_fire(s->lesson, tick, &s->nfired);
	engine_tick(s->e);
	session_runs_tick(s, tick);
	if (s->nshadows > 0)
		session_shadow_tick(s, tick);
	if (s->trace != NULL)
		session_trace_rows(s, tick);
	if (s->tables != NULL)
		session_count(s->tables, s->e, s->params.cpus);
	if (s->note != NULL) {
		session_fired(s, tick);
		if (engine_nlive(s->e) < nlive)
			session_exits(s, tick);
	}
	if (s->history > 0 && engine_now(s->e) % SESSION_KEY_TICKS == 0)
		session_key_add(s);
}

/*
 * The room's answers to a question, at its reveal (SPEC.md section 12):
 * kept in the journal (a tally line), the engine untouched.
 */
void
session_votes(struct session *s, const uint32_t *votes, size_t n)
{
	struct change	c;

	memset(&c, 0, sizeof c);
	c.at = engine_now(s->e);
	c.kind = CHANGE_TALLY;
	c.pattern = votes;
	c.npattern = n;
	session_journal_add(s, &c);
	session_record_change(s, &c);
}

/* The one path for a change from outside the scenario. */
int
session_change(struct session *s, const struct change *ch, char **cause)
{
	struct change	c = *ch;
	int		r;

	c.at = engine_now(s->e);
	if ((r = session_apply(s, s->e, &c, cause)) < 0)
		return (-1);
	if (c.kind == CHANGE_ADD && c.real)
		s->ever_real = 1;
	session_journal_add(s, &c);
	session_record_change(s, &c);
	/*
	 * An exit made between ticks (a kill, a real process that ended)
	 * is narrated now, before the task is marked seen exited.
	 */
	if ((c.kind == CHANGE_EXIT || c.kind == CHANGE_KILL) &&
	    s->note != NULL)
		session_exits(s, c.at);
	session_seen_update(s, c.kind == CHANGE_ADD ? r : c.task);
	if (s->nshadows > 0)
		session_shadows_apply(s, s->shadow, &c, r);
	return (c.kind == CHANGE_ADD ? r : 0);
}
