/*
 * session-rewind.c -- a session's past (SPEC.md section 7): keyframes
 * every SESSION_KEY_TICKS ticks within the history, a seek that shows
 * the state at a tick (a clone of the keyframe before it, run forward
 * with the journal's changes), the table counted again there, the way
 * back to the present, and a branch that makes the past the present.
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

static struct engine *session_key_shadow(const struct session *,
		    const struct session_key *, int);

/*
 * A keyframe of the present at its tick (between ticks, before any
 * change at that tick), and the keyframes older than the history
 * dropped: the oldest kept is the newest at or before now - history.
 */
void
session_key_add(struct session *s)
{
	struct session_key	*k;
	uint64_t		 now = engine_now(s->e), lo;
	size_t			 drop;
	int			 i;

	if (s->nkeys == s->sizekeys)
		s->keys = xgrow(s->keys, &s->sizekeys, 16, sizeof *s->keys);
	k = &s->keys[s->nkeys++];
	k->tick = now;
	k->e = engine_clone(s->e);
	k->njournal = s->njournal;
	k->bytes = engine_memory(k->e);
	/* The shadows too, so the past shows them as they were. */
	for (i = 0; i < SESSION_SHADOWS; i++) {
		k->shadow[i] = i < s->nshadows && s->shadow[i] != NULL ?
		    engine_clone(s->shadow[i]) : NULL;
		k->shadow_policy[i] = k->shadow[i] != NULL ?
		    s->shadow_policy[i] : NULL;
		if (k->shadow[i] != NULL)
			k->bytes += engine_memory(k->shadow[i]);
	}
	s->keybytes += k->bytes;
	lo = now > s->history ? now - s->history : 0;
	for (drop = 0; drop + 1 < s->nkeys && (s->keys[drop + 1].tick <= lo ||
	    s->keybytes > SESSION_KEY_BYTES); drop++) {
		s->keybytes -= s->keys[drop].bytes;
		engine_free(s->keys[drop].e);
		for (i = 0; i < SESSION_SHADOWS; i++)
			engine_free(s->keys[drop].shadow[i]);
	}
	if (drop > 0) {
		memmove(s->keys, s->keys + drop, (s->nkeys - drop) *
		    sizeof *s->keys);
		s->nkeys -= drop;
	}
}

/* The oldest tick a seek reaches. */
uint64_t
session_first(const struct session *s)
{
	return (s->nkeys > 0 ? s->keys[0].tick : engine_now(s->e));
}

/* Bytes the history holds: its keyframes. */
size_t
session_history_memory(const struct session *s)
{
	size_t	i, n = s->sizekeys * sizeof *s->keys;
	int	k;

	for (i = 0; i < s->nkeys; i++) {
		n += engine_memory(s->keys[i].e);
		for (k = 0; k < SESSION_SHADOWS; k++) {
			if (s->keys[i].shadow[k] != NULL)
				n += engine_memory(s->keys[i].shadow[k]);
		}
	}
	return (n);
}

/*
 * The table counts of ticks 0..tick-1 counted again: a copy of the
 * oldest keyframe run on to tick with the journal's changes, as
 * session_seek runs the past.  Exact when that keyframe is tick 0; an
 * older history than the keyframes' is not counted (tables_since says
 * from when).  The present's counts run on untouched.
 */
struct tables *
session_recount(struct session *s, uint64_t tick)
{
	const struct change	*ch;
	struct tables		*l;
	struct engine		*v;
	uint64_t		 t;
	size_t			 j;
	char			*why;

	l = tables_create(s->tables_rows);
	if (s->nkeys == 0 || s->keys[0].tick > tick) {
		/* Nothing to count from: none counted, from tick on. */
		tables_set_since(l, tick);
		return (l);
	}
	tables_set_since(l, s->keys[0].tick);
	v = engine_clone(s->keys[0].e);
	j = s->keys[0].njournal;
	while ((t = engine_now(v)) < tick) {
		for (; j < s->njournal && (ch = &s->journal[j])->at <= t;
		    j++) {
			why = NULL;
			if (session_apply(s, v, ch, &why) < 0)
				free(why);
		}
		engine_tick(v);
		session_count(l, v, s->params.cpus);
	}
	engine_free(v);
	return (l);
}


/*
 * The table counts of the state shown, NULL if not kept: the present's,
 * or while the past is shown its own, counted again once per tick shown.
 */
struct tables *
session_tables(struct session *s)
{
	if (s->view == NULL || s->tables == NULL)
		return (s->tables);
	if (s->view_tables == NULL ||
	    s->view_tables_tick != engine_now(s->view)) {
		tables_free(s->view_tables);
		s->view_tables = session_recount(s, engine_now(s->view));
		s->view_tables_tick = engine_now(s->view);
	}
	return (s->view_tables);
}

/*
 * Can tick be seen (the present, or a tick the history keeps)?  0, or
 * -1 with *cause: a seek refused this way changes nothing.
 */
int
session_seek_check(struct session *s, uint64_t tick, char **cause)
{
	uint64_t	now = engine_now(s->e);

	if (tick != now && (s->nkeys == 0 || tick > now ||
	    tick < s->keys[0].tick)) {
		*cause = xasprintf("seek: tick %llu is outside the history "
		    "%llu..%llu", (unsigned long long)tick,
		    (unsigned long long)session_first(s),
		    (unsigned long long)now);
		return (-1);
	}
	return (0);
}

/*
 * Show the state at tick (the engine after ticks 0..tick-1, before the
 * changes made at tick): a copy of the newest keyframe at or before it
 * (or the view already shown, when that is on the way), run on with the
 * journal's changes.  The present runs on untouched.  At the present
 * tick the view ends.  0, or -1 with *cause.
 */
int
session_seek(struct session *s, uint64_t tick, char **cause)
{
	const struct change	*ch;
	struct engine		*v;
	uint64_t		 now = engine_now(s->e), t;
	size_t			 k;
	char			*why;
	int			 i;

	if (tick == now) {
		session_view_end(s);
		return (0);
	}
	if (session_seek_check(s, tick, cause) != 0)
		return (-1);
	for (k = s->nkeys - 1; k > 0 && s->keys[k].tick > tick; k--)
		;
	if (s->view == NULL || engine_now(s->view) > tick ||
	    engine_now(s->view) < s->keys[k].tick ||
	    (s->nshadows > 0) != (s->view_shadow[0] != NULL)) {
		engine_free(s->view);
		s->view = engine_clone(s->keys[k].e);
		s->view_j = s->keys[k].njournal;
		for (i = 0; i < SESSION_SHADOWS; i++) {
			engine_free(s->view_shadow[i]);
			s->view_shadow[i] = session_key_shadow(s, &s->keys[k],
			    i);
		}
	}
	v = s->view;
	while ((t = engine_now(v)) < tick) {
		for (; s->view_j < s->njournal &&
		    (ch = &s->journal[s->view_j])->at <= t; s->view_j++) {
			/* It was made live: it is made here too. */
			why = NULL;
			if (session_apply(s, v, ch, &why) < 0)
				free(why);
			/* And to the shadows, as session_change does. */
			session_shadows_apply(s, s->view_shadow, ch, 0);
		}
		engine_tick(v);
		session_shadows_step(s->view_shadow);
	}
	return (0);
}

/*
 * The shadow of the past from keyframe k (compare on now): the shadow
 * kept with it when it is under the same policy, else the keyframe's
 * engine switched to the shadow's policy there (as `compare` starts
 * one); NULL when compare is off.
 */
static struct engine *
session_key_shadow(const struct session *s, const struct session_key *k,
    int i)
{
	struct engine	*sh;

	if (i >= s->nshadows || s->shadow_policy[i] == NULL)
		return (NULL);
	if (k->shadow[i] != NULL && k->shadow_policy[i] == s->shadow_policy[i])
		return (engine_clone(k->shadow[i]));
	sh = engine_clone(k->e);
	engine_set_policy(sh, s->shadow_policy[i]);
	engine_hold_policy(sh);
	engine_track_changes(sh, NULL);
	return (sh);
}

/* Stop viewing the past: the present is shown again. */
void
session_view_end(struct session *s)
{
	engine_free(s->view);
	s->view = NULL;
	session_view_shadows_free(s);
	tables_free(s->view_tables);
	s->view_tables = NULL;
}

/*
 * The past viewed becomes the present (a seek, then resume, with
 * scripted tasks only): the changes made at or after its tick and the
 * keyframes after it are dropped, and the record gets a branch line.
 * The trace goes on from that tick (its rows repeat the ticks gone
 * back over); the table counts are those of the past (counted again,
 * session_recount), not the future's.  0, or -1 with *cause.
 */
int
session_branch(struct session *s, char **cause)
{
	return (session_branch_as(s, 0, cause));
}

/*
 * session_branch, or (fed 1) a branch a journal fed makes again: a
 * recording replayed is view-only to its clients, not to its own lines.
 */
int
session_branch_as(struct session *s, int fed, char **cause)
{
	struct change	 br;
	struct tables	*l;
	uint64_t	 tick;
	int		 id, i;

	if (s->view == NULL)
		return (0);
	if (s->ever_real) {
		*cause = xstrdup("the session has real tasks: the past is "
		    "view-only");
		return (-1);
	}
	if (s->view_only && !fed) {
		*cause = xstrdup("a recording replayed: the past is "
		    "view-only");
		return (-1);
	}
	tick = engine_now(s->view);
	if (s->tables != NULL) {
		l = session_tables(s);		/* the past's */
		s->view_tables = NULL;
		tables_free(s->tables);
		s->tables = l;
	}
	memset(&br, 0, sizeof br);
	br.at = engine_now(s->e);
	br.kind = CHANGE_BRANCH;
	br.value = (long)tick;
	session_record_change(s, &br);
	journal_changes_clear(s->journal + s->view_j,
	    s->njournal - s->view_j);
	s->njournal = s->view_j;
	while (s->nkeys > 0 && s->keys[s->nkeys - 1].tick > tick) {
		s->keybytes -= s->keys[--s->nkeys].bytes;
		engine_free(s->keys[s->nkeys].e);
		for (i = 0; i < SESSION_SHADOWS; i++)
			engine_free(s->keys[s->nkeys].shadow[i]);
	}
	engine_free(s->e);
	s->e = s->view;
	s->view = NULL;
	session_view_shadows_free(s);	/* they start again, below */
	engine_narrate(s->e, s->note != NULL);
	engine_explain(s->e, s->explain);
	/* Ids added after tick may come back with other names. */
	for (id = 1; id <= s->nnames; id++)
		free((char *)s->names[id]);
	s->nnames = 0;
	for (id = 1; id <= engine_ntasks(s->e); id++)
		session_seen_update(s, id);
	for (id = 1; id <= s->nseen; id++)
		s->seen[id - 1].ran = 0;
	if (s->runs != NULL)
		runs_truncate(s->runs, tick);
	lesson_rewind(s->lesson, tick);
	s->nfired = 0;
	/* The shadows start again from the tick gone back to. */
	session_shadows_restart(s);
	return (0);
}
