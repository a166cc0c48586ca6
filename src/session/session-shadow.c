/*
 * session-shadow.c -- live side by side (SPEC.md sections 6 and 10): up
 * to three shadow engines under other policies over the same workload,
 * each a copy of the present switched to its policy, given every later
 * change and tick of the enforced one, and what every engine's tasks
 * got since (tally.c); a branch starts them again from the tick gone
 * back to.
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
#include "tally.h"
#include "xmalloc.h"

/* Free the shadows of the past viewed. */
void
session_view_shadows_free(struct session *s)
{
	int	i;

	for (i = 0; i < SESSION_SHADOWS; i++) {
		engine_free(s->view_shadow[i]);
		s->view_shadow[i] = NULL;
	}
}
/*
 * The shadows run the same tick, and every engine's tasks are counted.
 * A scenario's policy event switches the enforced engine only: a
 * shadow, switched by it too, goes back to its own policy after that
 * tick (its tasks start their state afresh).
 */
void
session_shadow_tick(struct session *s, uint64_t tick)
{
	int	i;

	session_shadows_step(s->shadow);
	if (s->tallies[0] == NULL)
		return;
	tally_tick(s->tallies[0], s->e, tick);
	for (i = 0; i < s->nshadows; i++)
		tally_tick(s->tallies[i + 1], s->shadow[i], tick);
}

/*
 * One tick of shadow engines sh (the live ones, or the past's; NULL:
 * none there), each under its own policy (engine_hold_policy: the
 * scenario's policy events switch the enforced engine only).
 */
void
session_shadows_step(struct engine *const *sh)
{
	int	i;

	for (i = 0; i < SESSION_SHADOWS; i++) {
		if (sh[i] != NULL)
			engine_tick(sh[i]);
	}
}

/*
 * A change made to the enforced engine is made to shadow engines sh
 * too (the live ones, or the past's; NULL: none there), at the same
 * tick, but a policy change: each keeps its own.  It may not apply
 * there (a real task seen blocking that a shadow has asleep already):
 * that is how they differ, so it is only logged.  An added task has the
 * same id in all; id 0: the id is not known (the past's replay).
 */
void
session_shadows_apply(struct session *s, struct engine *const *sh,
    const struct change *ch, int id)
{
	char	*why = NULL;
	int	 i, r;

	if (ch->kind == CHANGE_POLICY)
		return;
	for (i = 0; i < SESSION_SHADOWS; i++) {
		if (sh[i] == NULL)
			continue;
		r = session_apply(s, sh[i], ch, &why);
		if (r < 0) {
			log_debug("shadow %s: tick %llu: %s",
			    s->shadow_policy[i]->name,
			    (unsigned long long)ch->at, why);
			free(why);
			why = NULL;
		} else if (ch->kind == CHANGE_ADD && id > 0 && r != id)
			log_warnx("shadow: task %d added as %d", id, r);
	}
}

/* Drop the shadows and the tallies (the policies are kept). */
static void
session_shadows_free(struct session *s)
{
	int	i;

	for (i = 0; i < SESSION_SHADOWS; i++) {
		engine_free(s->shadow[i]);
		s->shadow[i] = NULL;
	}
	for (i = 0; i <= SESSION_SHADOWS; i++) {
		tally_free(s->tallies[i]);
		s->tallies[i] = NULL;
	}
}

/*
 * Start the shadows of pol[0..n-1] (n 0: none; at most SESSION_SHADOWS),
 * each a copy of the present engine switched to its policy, every task
 * starting its policy state afresh there; and count every engine's
 * tasks from now on.  0, or -1 with *cause (while the past is viewed:
 * it has no shadows; too many).
 */
int
session_compare_set(struct session *s, const struct engine_policy *const *pol,
    int n, char **cause)
{
	int	i;

	if (n < 0 || n > SESSION_SHADOWS) {
		*cause = xasprintf("compare: %d policies, at most %d", n,
		    SESSION_SHADOWS);
		return (-1);
	}
	if (n > 0 && s->view != NULL) {
		*cause = xstrdup("compare: viewing the past, resume first");
		return (-1);
	}
	session_shadows_free(s);
	session_view_shadows_free(s);	/* (compare off while viewing) */
	s->nshadows = 0;
	for (i = 0; i < SESSION_SHADOWS; i++)
		s->shadow_policy[i] = i < n ? pol[i] : NULL;
	s->nshadows = n;
	for (i = 0; i < n; i++) {
		s->shadow[i] = engine_clone(s->e);
		engine_set_policy(s->shadow[i], pol[i]);
		engine_hold_policy(s->shadow[i]);
		engine_explain(s->shadow[i], s->explain);
		/* Read whole for its frames: its log would go unread. */
		engine_track_changes(s->shadow[i], NULL);
	}
	if (n > 0) {
		for (i = 0; i <= n; i++)
			s->tallies[i] = tally_create(engine_now(s->e));
	}
	return (0);
}

/* One shadow (pol), or none (NULL): session_compare_set of it. */
int
session_compare(struct session *s, const struct engine_policy *pol,
    char **cause)
{
	return (session_compare_set(s, &pol, pol != NULL, cause));
}

/* Start the shadows again, from the present (a branch went back). */
void
session_shadows_restart(struct session *s)
{
	const struct engine_policy	*pol[SESSION_SHADOWS];
	char				*cause = NULL;
	int				 i, n = s->nshadows;

	if (n == 0)
		return;
	for (i = 0; i < n; i++)
		pol[i] = s->shadow_policy[i];
	if (session_compare_set(s, pol, n, &cause) != 0) {
		log_warnx("%s", cause);
		free(cause);
	}
}

/* Free what the shadows hold (session_free). */
void
session_shadows_end(struct session *s)
{
	session_shadows_free(s);
	s->nshadows = 0;
}

/* The engines explain each pick, or not (session.h). */
void
session_explain(struct session *s, int on)
{
	int	i;

	s->explain = on != 0;
	engine_explain(s->e, s->explain);
	for (i = 0; i < s->nshadows; i++)
		engine_explain(s->shadow[i], s->explain);
}

/*
 * How many shadows there are; while the past is viewed, its shadows
 * (session_seek: SPEC.md section 12, shadows shown in the past).
 */
int
session_nshadows(const struct session *s)
{
	return (s->nshadows);
}

/* Shadow i of the present, to read, whatever is viewed; NULL: none. */
const struct engine *
session_live_shadow_at(const struct session *s, int i)
{
	if (i < 0 || i >= s->nshadows)
		return (NULL);
	return (s->shadow[i]);
}

/* Shadow i's engine, to read (the past's while it is viewed); NULL. */
const struct engine *
session_shadow_at(const struct session *s, int i)
{
	if (i < 0 || i >= s->nshadows)
		return (NULL);
	return (s->view != NULL ? s->view_shadow[i] : s->shadow[i]);
}

/* Shadow i's policy, kept while the past is viewed; NULL: none. */
const struct engine_policy *
session_shadow_policy_at(const struct session *s, int i)
{
	if (i < 0 || i >= s->nshadows)
		return (NULL);
	return (s->shadow_policy[i]);
}

/* The first shadow's engine (NULL: none). */
const struct engine *
session_shadow(const struct session *s)
{
	return (session_shadow_at(s, 0));
}

/* The first shadow's policy (NULL: none). */
const struct engine_policy *
session_shadow_policy(const struct session *s)
{
	return (session_shadow_policy_at(s, 0));
}

/*
 * What each engine's tasks got since the shadows started (tally.h):
 * i 0 the enforced engine's, i + 1 shadow i's; NULL: no shadows, or
 * the past is viewed.
 */
struct tally *
session_tally(const struct session *s, int i)
{
	if (s->view != NULL || s->nshadows == 0 || i < 0 ||
	    i > s->nshadows)
		return (NULL);
	return (s->tallies[i]);
}
