/*
 * session-apply.c -- a change made to an engine: the one place where the
 * session layer writes to an engine between ticks, for the present
 * (session.c), a past replayed (session-rewind.c) and the shadow
 * (session-shadow.c) alike.
 */
#include <string.h>

#include "session-int.h"
#include "xmalloc.h"

/* Apply a change to engine e; 0 (ADD: the id) or -1 with *cause. */
int
session_apply(struct session *s, struct engine *e, const struct change *ch,
    char **cause)
{
	struct engine_task_spec		 spec;
	const struct engine_policy	*pol;

	switch (ch->kind) {
	case CHANGE_SLEEP:
		return (engine_task_sleep(e, ch->task, (uint64_t)ch->value,
		    cause));
	case CHANGE_NICE:
		return (engine_task_nice(e, ch->task, (int)ch->value,
		    cause));
	case CHANGE_AFFINITY:
		return (engine_task_affinity(e, ch->task, &ch->cpus,
		    cause));
	case CHANGE_KILL:
	case CHANGE_EXIT:
		return (engine_task_kill(e, ch->task, cause));
	case CHANGE_BLOCK:
		return (engine_task_block(e, ch->task, cause));
	case CHANGE_WAKE:
		return (engine_task_wake(e, ch->task, cause));
	case CHANGE_ADD:
		memset(&spec, 0, sizeof spec);
		spec.name = ch->name;
		spec.kind = ch->real ? ENGINE_REAL : ENGINE_SIM;
		spec.nice = ch->nice;
		spec.start = engine_now(e);
		if (!ch->real) {
			spec.pattern = ch->pattern;
			spec.npattern = ch->npattern;
			spec.runtime = ch->runtime;
		}
		spec.cpus = ch->has_cpus ? &ch->cpus : NULL;
		spec.group = -1;
		return (engine_task_add(e, &spec, cause));
	case CHANGE_POLICY:
		if (ch->name == NULL ||
		    (pol = engine_policy_find(ch->name)) == NULL) {
			*cause = xasprintf("unknown policy \"%s\"",
			    ch->name != NULL ? ch->name : "");
			return (-1);
		}
		engine_set_policy(e, pol);
		return (0);
	case CHANGE_BRANCH:
		*cause = xstrdup("branch: not supported yet");
		return (-1);
	case CHANGE_TALLY:
		return (0);	/* the room's, not the engine's */
	}
	*cause = xstrdup("unknown change");
	return (-1);
}
