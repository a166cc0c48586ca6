/*
 * session-shadow.c -- live side by side (SPEC.md section 6): a shadow
 * engine under another policy over the same workload, a copy of the
 * present switched to that policy, given every later change and tick of
 * the enforced one; a branch starts it again from the tick gone back to.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conffile.h"
#include "journal.h"
#include "ledger.h"
#include "lesson.h"
#include "log.h"
#include "runs.h"
#include "session-int.h"
#include "xmalloc.h"

/*
 * The shadow runs the same tick.  A scenario's policy event switches the
 * enforced engine only: the shadow, switched by it too, goes back to its
 * own policy after that tick (its tasks start their state afresh).
 */
void
session_shadow_tick(struct session *s)
{
	engine_tick(s->shadow);
	if (engine_get_policy(s->shadow) != s->shadow_policy)
		engine_set_policy(s->shadow, s->shadow_policy);
}

/*
 * A change made to the enforced engine is made to the shadow too, at
 * the same tick.  It may not apply there (a real task seen blocking that
 * the shadow has asleep already): that is how the two differ, so it is
 * only logged.  An added task has the same id in both.
 */
void
session_shadow_change(struct session *s, const struct change *ch, int id)
{
	char	*why = NULL;
	int	 r;

	r = session_apply(s, s->shadow, ch, &why);
	if (r < 0) {
		log_debug("shadow: tick %llu: %s", (unsigned long long)ch->at,
		    why);
		free(why);
	} else if (ch->kind == CHANGE_ADD && r != id)
		log_warnx("shadow: task %d added as %d", id, r);
}

/*
 * Start (pol) or stop (NULL) the shadow: a copy of the present engine
 * switched to pol, every task starting its policy state afresh there.
 * 0, or -1 with *cause (while the past is viewed: it has no shadow).
 */
int
session_compare(struct session *s, const struct engine_policy *pol,
    char **cause)
{
	if (pol != NULL && s->view != NULL) {
		*cause = xstrdup("compare: viewing the past, resume first");
		return (-1);
	}
	engine_free(s->shadow);
	s->shadow = NULL;
	engine_free(s->view_shadow);	/* (compare off while viewing) */
	s->view_shadow = NULL;
	s->shadow_policy = pol;
	if (pol != NULL) {
		s->shadow = engine_clone(s->e);
		engine_set_policy(s->shadow, pol);
		/* Read whole for its frames: its log would go unread. */
		engine_track_changes(s->shadow, NULL);
	}
	return (0);
}

/*
 * The shadow engine shown, to read; NULL: none.  While the past is
 * viewed, the shadow at that tick (session_seek).
 */
const struct engine *
session_shadow(const struct session *s)
{
	return (s->view != NULL ? s->view_shadow : s->shadow);
}

/* The shadow's policy (compare NAME), kept while the past is viewed. */
const struct engine_policy *
session_shadow_policy(const struct session *s)
{
	return (s->shadow_policy);
}
