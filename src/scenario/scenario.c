/*
 * scenario.c -- a loaded scenario (scenario-parse.c reads it): freed,
 * its engine parameters, its marks, checked against an engine's CPUs,
 * and applied: the engine's groups, tasks and the events that are the
 * engine's own (a lesson's are the session's: session/lesson.c).
 *
 * CPU lists are parsed at load (against the largest engine) but checked
 * against the engine's actual CPU count only in scenario_check(), because
 * that count may come from the command line rather than the file.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "readconf.h"
#include "engine.h"
#include "scenario-int.h"
#include "scenario.h"
#include "xmalloc.h"

/* The engine's action of each of the engine's own. */
static const enum engine_action scenario_engine_action[] = {
	[SCENARIO_SLEEP] = ENGINE_ACT_SLEEP,
	[SCENARIO_NICE] = ENGINE_ACT_NICE,
	[SCENARIO_AFFINITY] = ENGINE_ACT_AFFINITY,
	[SCENARIO_KILL] = ENGINE_ACT_KILL,
	[SCENARIO_POLICY] = ENGINE_ACT_POLICY
};

#define SCENARIO_OVERRIDE(param, has, field)				\
	{ param, offsetof(struct scenario, has),			\
	    offsetof(struct scenario, field) }
const struct scenario_override scenario_overrides[] = {
	SCENARIO_OVERRIDE(ENGINE_PARAM_CPUS, has_cpus, cpus),
	SCENARIO_OVERRIDE(ENGINE_PARAM_RR_INTERVAL, has_rr, rr_interval),
	SCENARIO_OVERRIDE(ENGINE_PARAM_SLEEP_MIN, has_sleep_min, sleep_min),
	SCENARIO_OVERRIDE(ENGINE_PARAM_BALANCE_INTERVAL, has_balance,
	    balance_interval),
	SCENARIO_OVERRIDE(ENGINE_PARAM_BASE_SLICE, has_base_slice,
	    base_slice),
};
const size_t scenario_noverrides =
    sizeof scenario_overrides / sizeof scenario_overrides[0];

/* Size an index for n names: a power of two at least twice n. */
void
scenario_index_init(struct scenario_index *ix, size_t n)
{
	size_t	size = 16;

	while (size < n * 2)
		size *= 2;
	ix->slots = xcalloc(size, sizeof *ix->slots);
	ix->size = size;
}

/* The slot holding name, or the free slot where it would go. */
static struct scenario_slot *
scenario_index_slot(const struct scenario_index *ix, const char *name)
{
	const unsigned char	*p;
	uint32_t		 h = 2166136261u;	/* FNV-1a */
	size_t			 i;

	for (p = (const unsigned char *)name; *p != '\0'; p++)
		h = (h ^ *p) * 16777619u;
	i = h & (ix->size - 1);
	while (ix->slots[i].name != NULL &&
	    strcmp(ix->slots[i].name, name) != 0)
		i = (i + 1) & (ix->size - 1);
	return (&ix->slots[i]);
}

/*
 * Add name (owned by the caller, kept alive) at index, named at line;
 * if the name is already there, return the line it was named at, else -1.
 */
int
scenario_index_add(struct scenario_index *ix, const char *name, size_t index,
    int line)
{
	struct scenario_slot	*slot = scenario_index_slot(ix, name);

	if (slot->name != NULL)
		return (slot->line);
	slot->name = name;
	slot->index = index;
	slot->line = line;
	return (-1);
}

/* The index of name, or -1. */
static int
scenario_index_find(const struct scenario_index *ix, const char *name)
{
	const struct scenario_slot	*slot;

	if (ix->size == 0)
		return (-1);
	slot = scenario_index_slot(ix, name);
	return (slot->name != NULL ? (int)slot->index : -1);
}

/* Record the first error as "LABEL:LINE: message"; returns -1. */
int
scenario_error(struct scenario_ctx *ctx, int line, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	readconf_verror(&ctx->error, ctx->label, NULL, line, fmt, ap);
	va_end(ap);
	return (-1);
}

/* Find a task by name in the scenario; its index, or -1 if none. */
int
scenario_find_task(const struct scenario *sc, const char *name)
{
	return (scenario_index_find(&sc->task_index, name));
}

/* Find a group by name in the scenario; -1 if none. */
int
scenario_find_group(const struct scenario *sc, const char *name)
{
	return (scenario_index_find(&sc->group_index, name));
}

/* Free a scenario and everything it holds. */
void
scenario_free(struct scenario *sc)
{
	size_t	i;

	if (sc == NULL)
		return;
	for (i = 0; i < sc->ngroups; i++) {
		free(sc->groups[i].name);
		free(sc->groups[i].cpus);
	}
	for (i = 0; i < sc->ntasks; i++) {
		free(sc->tasks[i].name);
		free(sc->tasks[i].pattern);
		free(sc->tasks[i].cpus);
		free(sc->tasks[i].group);
		argv_free(sc->tasks[i].argv);
	}
	for (i = 0; i < sc->nevents; i++) {
		free(sc->events[i].task);
		free(sc->events[i].cpus);
		free(sc->events[i].text);
		free(sc->events[i].answer);
		strv_free(sc->events[i].choices,
		    (size_t)sc->events[i].nchoices);
	}
	free(sc->groups);
	free(sc->tasks);
	free(sc->events);
	kernelrow_free(&sc->kernel);
	free(sc->task_index.slots);
	free(sc->group_index.slots);
	free(sc->name);
	free(sc->description);
	free(sc->policy);
	free(sc->compare);
	free(sc->path);
	free(sc->text);
	free(sc);
}

/* Apply the scenario's engine overrides on top of *p. */
void
scenario_params(const struct scenario *sc, struct engine_params *p)
{
	const struct scenario_override	*o;
	const char			*from = (const char *)sc;
	size_t				 i;

	for (i = 0; i < scenario_noverrides; i++) {
		o = &scenario_overrides[i];
		if (*(const int *)(from + o->has))
			engine_param_set(p, o->param,
			    *(const int *)(from + o->value));
	}
}

/* Number of command (real process) tasks. */
size_t
scenario_ncommands(const struct scenario *sc)
{
	size_t	i, n = 0;

	for (i = 0; i < sc->ntasks; i++) {
		if (sc->tasks[i].argv != NULL)
			n++;
	}
	return (n);
}

/* Check one CPU list against ncpus; the list is named by what. */
static int
scenario_check_mask(struct scenario_ctx *ctx, const struct cpumask *m,
    const char *text, int line, int ncpus, const char *what)
{
	int	c, last = -1;

	CPUMASK_FOREACH(c, m)
		last = c;
	if (last < ncpus)
		return (0);
	return (scenario_error(ctx, line, "%s \"%s\": cpu %d is outside "
	    "0..%d (the engine has %d cpu%s)", what, text, last, ncpus - 1,
	    ncpus, ncpus == 1 ? "" : "s"));
}

/* Check CPU lists against ncpus engine CPUs; 0 or -1 with *cause. */
int
scenario_check(const struct scenario *sc, int ncpus, char **cause)
{
	struct scenario_ctx		 ctx;
	const struct scenario_task	*t;
	const struct scenario_event	*ev;
	const struct scenario_group	*g;
	struct cpumask			 m;
	size_t				 i;
	int				 gi;

	ctx.label = sc->path;
	ctx.error = NULL;
	for (i = 0; i < sc->ngroups; i++) {
		g = &sc->groups[i];
		if (scenario_check_mask(&ctx, &g->mask, g->cpus, g->cpus_line,
		    ncpus, "group cpus") != 0)
			goto fail;
	}
	for (i = 0; i < sc->ntasks; i++) {
		t = &sc->tasks[i];
		if (t->has_cpus && scenario_check_mask(&ctx, &t->mask,
		    t->cpus, t->cpus_line, ncpus, "task cpus") != 0)
			goto fail;
		if (!t->has_cpus || t->group == NULL)
			continue;
		gi = scenario_find_group(sc, t->group);
		cpumask_and(&m, &t->mask, &sc->groups[gi].mask);
		if (cpumask_empty(&m)) {
			scenario_error(&ctx, t->line, "task \"%s\" may run on "
			    "no cpu: its cpus \"%s\" and group \"%s\" (cpus "
			    "\"%s\") do not overlap", t->name, t->cpus,
			    t->group, sc->groups[gi].cpus);
			goto fail;
		}
	}
	for (i = 0; i < sc->nevents; i++) {
		ev = &sc->events[i];
		if (ev->action == SCENARIO_AFFINITY &&
		    scenario_check_mask(&ctx, &ev->mask, ev->cpus,
		    ev->cpus_line, ncpus, "affinity cpus") != 0)
			goto fail;
	}
	return (0);
fail:
	*cause = ctx.error;
	return (-1);
}

/* Wrap an engine or spawn error with the scenario's FILE:LINE. */
static int
scenario_wrap(const struct scenario *sc, int line, const char *what,
    char *inner, char **cause)
{
	*cause = xasprintf("%s:%d: %s: %s", sc->path, line, what, inner);
	free(inner);
	return (-1);
}

/* Order events by tick, then by place in the file (for qsort). */
static int
scenario_event_cmp(const void *a, const void *b)
{
	const struct scenario_event	*x = *(const struct scenario_event **)a;
	const struct scenario_event	*y = *(const struct scenario_event **)b;

	if (x->at != y->at)
		return (x->at < y->at ? -1 : 1);
	return (x < y ? -1 : x > y);
}

/*
 * The scenario's marks (chapters), in time order, file order within a
 * tick: a malloc'd array of *n (NULL if none), pointing into sc.
 */
struct scenario_mark *
scenario_marks(const struct scenario *sc, size_t *n)
{
	const struct scenario_event	**order;
	struct scenario_mark		 *marks = NULL;
	size_t				  i, k = 0;

	order = xcalloc(sc->nevents + 1, sizeof *order);
	for (i = 0; i < sc->nevents; i++) {
		if (sc->events[i].action == SCENARIO_MARK)
			order[k++] = &sc->events[i];
	}
	qsort(order, k, sizeof *order, scenario_event_cmp);
	if (k != 0)
		marks = xcalloc(k, sizeof *marks);
	for (i = 0; i < k; i++) {
		marks[i].at = order[i]->at;
		marks[i].text = order[i]->text;
	}
	free(order);
	*n = k;
	return (marks);
}

/*
 * Add task t to e (gids: the engine's ids of the groups), and hand a
 * command task to spawn: its id, or -1 with *cause at its line.
 */
static int
scenario_apply_task(const struct scenario *sc, const struct scenario_task *t,
    struct engine *e, const int *gids, scenario_spawn_cb spawn, void *arg,
    char **cause)
{
	struct engine_task_spec	 spec;
	char			*inner, *what;
	int			 id;

	memset(&spec, 0, sizeof spec);
	spec.name = t->name;
	spec.kind = t->argv != NULL ? ENGINE_REAL : ENGINE_SIM;
	spec.nice = t->nice;
	spec.start = t->start + t->lead;
	spec.pattern = t->pattern;
	spec.npattern = t->npattern;
	spec.once = t->once;
	spec.runtime = t->runtime;
	spec.cpus = t->has_cpus ? &t->mask : NULL;
	spec.group = -1;
	if (t->group != NULL)
		spec.group = gids[scenario_find_group(sc, t->group)];
	if ((id = engine_task_add(e, &spec, &inner)) != -1 &&
	    (t->argv == NULL || spawn(arg, e, id, t, &inner) == 0))
		return (id);
	what = xasprintf("task \"%s\"", t->name);
	scenario_wrap(sc, t->line, what, inner, cause);
	free(what);
	return (-1);
}

/*
 * Add the scenario's groups, tasks and events to e.  Command tasks are
 * added as real tasks and handed to spawn; without spawn they are refused
 * before anything is added.  On failure the engine may hold part of the
 * scenario: the caller should free it.
 */
int
scenario_apply(const struct scenario *sc, struct engine *e,
    scenario_spawn_cb spawn, void *arg, char **cause)
{
	const struct scenario_task	*t;
	const struct scenario_event	*ev;
	struct engine_event		 eev;
	const struct scenario_event	**order;
	char				*inner;
	int				*ids, *gids;
	size_t				 i;

	if (scenario_check(sc, engine_params(e)->cpus, cause) != 0)
		return (-1);
	if (spawn == NULL) {
		for (i = 0; i < sc->ntasks; i++) {
			t = &sc->tasks[i];
			if (t->argv == NULL)
				continue;
			*cause = xasprintf("%s:%d: task \"%s\" runs a command "
			    "(%s); real processes are not run here",
			    sc->path, t->line, t->name, t->argv[0]);
			return (-1);
		}
	}

	gids = xcalloc(sc->ngroups + 1, sizeof *gids);
	for (i = 0; i < sc->ngroups; i++) {
		if ((gids[i] = engine_group_add(e, sc->groups[i].name,
		    &sc->groups[i].mask, &inner)) == -1) {
			free(gids);
			return (scenario_wrap(sc, sc->groups[i].line, "group",
			    inner, cause));
		}
	}

	ids = xcalloc(sc->ntasks + 1, sizeof *ids);
	for (i = 0; i < sc->ntasks; i++) {
		if ((ids[i] = scenario_apply_task(sc, &sc->tasks[i], e, gids,
		    spawn, arg, cause)) == -1) {
			free(gids);
			free(ids);
			return (-1);
		}
	}

	free(gids);

	/*
	 * Events in time order (file order within a tick): the engine keeps
	 * its queue sorted by insertion, which is linear per event unless
	 * they come sorted.
	 */
	order = xcalloc(sc->nevents + 1, sizeof *order);
	for (i = 0; i < sc->nevents; i++)
		order[i] = &sc->events[i];
	qsort(order, sc->nevents, sizeof *order, scenario_event_cmp);
	for (i = 0; i < sc->nevents; i++) {
		ev = order[i];
		if (SCENARIO_LESSON(ev->action))
			continue;		/* the session's */
		memset(&eev, 0, sizeof eev);
		eev.at = ev->at;
		eev.action = scenario_engine_action[ev->action];
		eev.task = 0;
		if (ev->task != NULL)
			eev.task = ids[scenario_find_task(sc, ev->task)];
		eev.value = ev->value;
		eev.cpus = ev->mask;
		eev.policy = ev->policy;
		engine_event_add(e, &eev);
	}
	free(order);
	free(ids);
	return (0);
}
