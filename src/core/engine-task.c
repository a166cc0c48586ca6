/*
 * engine-task.c -- the engine's tasks and groups: names (an open-
 * addressing hash of name to id), adding tasks and groups, finding them,
 * and every live change to a task -- sleep, nice, affinity, kill, and a
 * real task's blocks and wakes -- each applied at once between ticks.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "engine-state.h"
#include "log.h"
#include "xmalloc.h"

/*
 * Two tables share this code: task names (kind ENGINE_NAMES_TASKS, value
 * the task id) and group names (ENGINE_NAMES_GROUPS, value the group's
 * index + 1); 0 is a free slot.
 */
#define ENGINE_NAMES_TASKS	0
#define ENGINE_NAMES_GROUPS	1

/* FNV-1a. */
static size_t
engine_hash(const char *s)
{
	uint64_t	h = 1469598103934665603ULL;

	while (*s != '\0')
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return ((size_t)h);
}

/* The name under value v in a table of this kind. */
static const char *
engine_names_key(const struct engine *e, int kind, int v)
{
	if (kind == ENGINE_NAMES_GROUPS)
		return (e->groups[v - 1].name);
	return (e->tasks[v - 1].name);
}

/* Insert v under its name; the table must have room. */
static void
engine_names_put(int *names, size_t size, const struct engine *e, int kind,
    int v)
{
	size_t	i = engine_hash(engine_names_key(e, kind, v)) & (size - 1);

	while (names[i] != 0)
		i = (i + 1) & (size - 1);
	names[i] = v;
}

/* Keep a name table under half full with room for one more. */
static void
engine_names_grow(struct engine *e, int kind)
{
	int	**tab = kind == ENGINE_NAMES_GROUPS ? &e->gnames : &e->names;
	size_t	 *tsize = kind == ENGINE_NAMES_GROUPS ? &e->gnames_size :
		    &e->names_size;
	size_t	  size, i;
	int	  n = kind == ENGINE_NAMES_GROUPS ? e->ngroups : e->ntasks;
	int	 *names;

	if ((size_t)(n + 1) * 2 <= *tsize)
		return;
	size = *tsize ? *tsize * 2 : 64;
	names = xcalloc(size, sizeof *names);
	for (i = 0; i < *tsize; i++)
		if ((*tab)[i] != 0)
			engine_names_put(names, size, e, kind, (*tab)[i]);
	free(*tab);
	*tab = names;
	*tsize = size;
}

/* The value under name in a table of this kind, or 0. */
static int
engine_names_get(const struct engine *e, int kind, const char *name)
{
	const int	*names = kind == ENGINE_NAMES_GROUPS ? e->gnames :
			    e->names;
	size_t		 size = kind == ENGINE_NAMES_GROUPS ? e->gnames_size :
			    e->names_size, i;

	if (size == 0)
		return (0);
	i = engine_hash(name) & (size - 1);
	while (names[i] != 0) {
		if (strcmp(engine_names_key(e, kind, names[i]), name) == 0)
			return (names[i]);
		i = (i + 1) & (size - 1);
	}
	return (0);
}

/*
 * The one rule for task and group names, used by the engine, the
 * protocol (add, spawn) and scenario files: 1-31 of [A-Za-z0-9_.-], not
 * all digits (it would read as a task id) and not ".", ".." or "-"
 * (they read as paths, and "-" as the protocol's "none").  NULL if name
 * is good, else why not, to follow the quoted name in a message.
 */
const char *
engine_name_check(const char *name)
{
	size_t	n;
	int	digits = 1;

	for (n = 0; name[n] != '\0'; n++) {
		if (name[n] >= '0' && name[n] <= '9')
			continue;
		digits = 0;
		if (!((name[n] >= 'a' && name[n] <= 'z') ||
		    (name[n] >= 'A' && name[n] <= 'Z') ||
		    name[n] == '_' || name[n] == '.' || name[n] == '-'))
			return ("has a bad character (use A-Z a-z 0-9 _ . -)");
	}
	if (n == 0)
		return ("is empty");
	if (n > ENGINE_NAME_MAX)
		return ("is too long (at most 31 characters)");
	if (digits)
		return ("is all digits (it would read as a task id)");
	if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0 ||
	    strcmp(name, "-") == 0)
		return ("is reserved (. .. and - are not names)");
	return (NULL);
}

/* Add a group with its CPU set; returns its id (0-based). */
int
engine_group_add(struct engine *e, const char *name,
    const struct cpumask *cpus, char **cause)
{
	struct cpumask	 all, m;
	const char	*why;

	if ((why = engine_name_check(name)) != NULL) {
		*cause = xasprintf("bad group name \"%.*s\": %s",
		    ENGINE_NAME_MAX, name, why);
		return (-1);
	}
	if (engine_group_find(e, name) >= 0) {
		*cause = xasprintf("duplicate group \"%s\"", name);
		return (-1);
	}
	cpumask_fill(&all, e->p.cpus);
	cpumask_and(&m, cpus, &all);
	if (cpumask_empty(&m)) {
		*cause = xasprintf("group \"%s\" has no CPU", name);
		return (-1);
	}
	engine_names_grow(e, ENGINE_NAMES_GROUPS);
	if (e->ngroups == e->groups_size) {
		e->groups_size = e->groups_size ? e->groups_size * 2 : 8;
		e->groups = xreallocarray(e->groups, e->groups_size,
		    sizeof *e->groups);
	}
	e->groups[e->ngroups].name = xstrdup(name);
	e->groups[e->ngroups].cpus = m;
	e->ngroups++;
	engine_names_put(e->gnames, e->gnames_size, e, ENGINE_NAMES_GROUPS,
	    e->ngroups);
	return (e->ngroups - 1);
}

/* A group's id by name, or -1. */
int
engine_group_find(struct engine *e, const char *name)
{
	return (engine_names_get(e, ENGINE_NAMES_GROUPS, name) - 1);
}

/* Compute what a task may use from an affinity and a group. */
static void
engine_allowed(const struct engine *e, const struct cpumask *affinity,
    int group, struct cpumask *out)
{
	struct cpumask	all;

	cpumask_fill(&all, e->p.cpus);
	cpumask_and(out, affinity, &all);
	if (group >= 0)
		cpumask_and(out, out, &e->groups[group].cpus);
}

/* A queued task on a CPU it may no longer use moves at once. */
static void
engine_migrate_if_needed(struct engine *e, struct task *t)
{
	if (t->state != ENGINE_RUNNABLE || cpumask_test(&t->allowed, t->cpu))
		return;
	engine_dequeue(e, t, ENGINE_DEQ_MIGRATE);
	engine_enqueue(e, t, engine_place(e, t), ENGINE_ENQ_MIGRATE);
}

/* Change a group's CPUs; refused if any member would have none left. */
int
engine_group_set_cpus(struct engine *e, int group, const struct cpumask *cpus,
    char **cause)
{
	struct cpumask	 old, m;
	struct task	*t;
	int		 i;

	if (group < 0 || group >= e->ngroups) {
		*cause = xasprintf("no group %d", group);
		return (-1);
	}
	old = e->groups[group].cpus;
	e->groups[group].cpus = *cpus;
	for (i = 0; i < e->ntasks; i++) {
		t = &e->tasks[i];
		if (t->group != group || t->state == ENGINE_EXITED)
			continue;
		engine_allowed(e, &t->affinity, group, &m);
		if (cpumask_empty(&m)) {
			e->groups[group].cpus = old;
			*cause = xasprintf("task %s would have no CPU left",
			    t->name);
			return (-1);
		}
	}
	for (i = 0; i < e->ntasks; i++) {
		t = &e->tasks[i];
		if (t->group != group || t->state == ENGINE_EXITED)
			continue;
		engine_allowed(e, &t->affinity, group, &t->allowed);
		engine_touch(e, t->id);
		engine_migrate_if_needed(e, t);
	}
	return (0);
}

/* Add a task; it becomes runnable at spec->start (or now, if earlier). */
int
engine_task_add(struct engine *e, const struct engine_task_spec *spec,
    char **cause)
{
	struct task	*t;
	struct cpumask	 affinity, allowed;
	const char	*why;
	size_t		 i;

	if ((why = engine_name_check(spec->name)) != NULL) {
		*cause = xasprintf("bad task name \"%.*s\": %s",
		    ENGINE_NAME_MAX, spec->name, why);
		return (-1);
	}
	if (engine_names_get(e, ENGINE_NAMES_TASKS, spec->name) != 0) {
		*cause = xasprintf("duplicate task name \"%s\"", spec->name);
		return (-1);
	}
	if (spec->nice < ENGINE_NICE_MIN || spec->nice > ENGINE_NICE_MAX) {
		*cause = xasprintf("nice %d is outside -20..19", spec->nice);
		return (-1);
	}
	if (spec->npattern % 2 != 0) {
		*cause = xasprintf("pattern has %zu values: it needs run, "
		    "sleep pairs", spec->npattern);
		return (-1);
	}
	for (i = 0; i < spec->npattern; i++) {
		if (spec->pattern[i] == 0) {
			*cause = xasprintf("pattern value %zu is 0: every run "
			    "and sleep must be at least 1 ms", i + 1);
			return (-1);
		}
	}
	if (spec->group >= e->ngroups || spec->group < -1) {
		*cause = xasprintf("no group %d", spec->group);
		return (-1);
	}
	if (spec->cpus != NULL)
		affinity = *spec->cpus;
	else
		cpumask_fill(&affinity, CPUMASK_MAX);
	engine_allowed(e, &affinity, spec->group, &allowed);
	if (cpumask_empty(&allowed)) {
		*cause = xasprintf("task %s would have no CPU to run on",
		    spec->name);
		return (-1);
	}
	if (e->ntasks == INT_MAX - 1) {
		*cause = xasprintf("too many tasks");
		return (-1);
	}
	engine_names_grow(e, ENGINE_NAMES_TASKS);
	if (e->ntasks == e->tasks_size) {
		e->tasks_size = e->tasks_size ? e->tasks_size * 2 : 64;
		e->tasks = engine_tasks_resize(e->tasks, e->ntasks,
		    e->tasks_size);
		e->next = xreallocarray(e->next, e->tasks_size + 1,
		    sizeof *e->next);
		e->prev = xreallocarray(e->prev, e->tasks_size + 1,
		    sizeof *e->prev);
		e->env.tasks = (char *)e->tasks;
		e->env.links.next = e->next;
		e->env.links.prev = e->prev;
	}
	t = &e->tasks[e->ntasks];
	memset(t, 0, sizeof *t);
	t->id = ++e->ntasks;
	engine_touch(e, t->id);
	e->next[t->id] = e->prev[t->id] = 0;
	strcpy(t->name, spec->name);
	t->kind = spec->kind;
	t->cpu = t->last_cpu = -1;
	t->group = spec->group;
	t->affinity = affinity;
	t->allowed = allowed;
	t->runtime = spec->runtime;
	if (spec->npattern > 0) {
		t->pattern = xreallocarray(NULL, spec->npattern,
		    sizeof *t->pattern);
		memcpy(t->pattern, spec->pattern,
		    spec->npattern * sizeof *t->pattern);
		t->npattern = spec->npattern;
		t->burst_left = t->pattern[0];
		t->once = spec->once;
	}
	t->nice = spec->nice;
	e->policy->task_init(&e->env, t->ts, spec->nice);
	t->state = ENGINE_WAITING;
	t->wake = spec->start > e->now ? spec->start : e->now;
	engine_wheel_add(e, t->id, t->wake);
	engine_names_put(e->names, e->names_size, e, ENGINE_NAMES_TASKS,
	    t->id);
	e->nlive++;
	return (t->id);
}

/* A task id from a name, or from a decimal id; 0 if there is none. */
int
engine_task_find(struct engine *e, const char *s)
{
	char	*end;
	long	 id;
	int	 found;

	if ((found = engine_names_get(e, ENGINE_NAMES_TASKS, s)) != 0)
		return (found);
	if (*s < '0' || *s > '9')
		return (0);
	id = strtol(s, &end, 10);
	if (*end != '\0' || id < 1 || id > e->ntasks)
		return (0);
	return ((int)id);
}

/*
 * Injected sleep: runnable again m ticks from now.  A sleeping task
 * sleeps until whichever wake is later, and keeps its sleep's start so
 * the climb counts the whole sleep.  The pattern pauses where it was.
 */
int
engine_task_sleep(struct engine *e, int id, uint64_t ms, char **cause)
{
	struct task	*t;
	uint64_t	 wake;

	if ((t = engine_get_live(e, id, cause)) == NULL)
		return (-1);
	engine_touch(e, id);
	if (t->state == ENGINE_WAITING) {
		*cause = xasprintf("task %s has not started yet", t->name);
		return (-1);
	}
	if (ms == 0 || ms > UINT64_MAX / 2 - e->now) {
		*cause = xasprintf("bad sleep length %llu ms",
		    (unsigned long long)ms);
		return (-1);
	}
	wake = e->now + ms;
	if (t->state == ENGINE_SLEEPING) {
		if (t->wake != ENGINE_NEVER && t->wake >= wake) {
			t->injected = 1;
			return (0);
		}
		t->wake = wake;
		t->injected = 1;
		engine_wheel_add(e, t->id, wake);
		return (0);
	}
	engine_sleep_until(e, t, e->now, wake);
	t->injected = 1;
	return (0);
}

/* Change a task's nice level; a queued task goes to the tail. */
int
engine_task_nice(struct engine *e, int id, int nice, char **cause)
{
	struct task	*t;

	if ((t = engine_get_live(e, id, cause)) == NULL)
		return (-1);
	engine_touch(e, id);
	if (nice < ENGINE_NICE_MIN || nice > ENGINE_NICE_MAX) {
		*cause = xasprintf("nice %d is outside -20..19", nice);
		return (-1);
	}
	t->nice = nice;
	e->policy->renice(&e->env, t->state == ENGINE_RUNNABLE ?
	    e->cpus[t->cpu].rq : NULL, t->id, t->ts, nice);
	return (0);
}

/* Change a task's affinity; refused if nothing would be allowed. */
int
engine_task_affinity(struct engine *e, int id, const struct cpumask *cpus,
    char **cause)
{
	struct task	*t;
	struct cpumask	 allowed;
	char		 buf[128];

	if ((t = engine_get_live(e, id, cause)) == NULL)
		return (-1);
	engine_allowed(e, cpus, t->group, &allowed);
	if (cpumask_empty(&allowed)) {
		*cause = xasprintf("task %s may not run on cpus %s%s%s",
		    t->name, cpumask_format(cpus, buf, sizeof buf),
		    t->group >= 0 ? " in group " : "",
		    t->group >= 0 ? e->groups[t->group].name : "");
		return (-1);
	}
	engine_touch(e, id);
	t->affinity = *cpus;
	t->allowed = allowed;
	engine_migrate_if_needed(e, t);
	return (0);
}

/* End a task at once. */
int
engine_task_kill(struct engine *e, int id, char **cause)
{
	struct task	*t;

	if ((t = engine_get_live(e, id, cause)) == NULL)
		return (-1);
	engine_touch(e, id);
	if (t->state == ENGINE_RUNNABLE)
		engine_dequeue(e, t, ENGINE_DEQ_EXIT);
	t->state = ENGINE_EXITED;
	t->exit = ENGINE_EXIT_KILLED;
	t->injected = 0;
	e->nlive--;
	return (0);
}

/* A real task seen blocked: it sleeps from now until engine_task_wake. */
int
engine_task_block(struct engine *e, int id, char **cause)
{
	struct task	*t;

	if ((t = engine_get_live(e, id, cause)) == NULL)
		return (-1);
	if (t->state != ENGINE_RUNNABLE) {
		*cause = xasprintf("task %s is not runnable", t->name);
		return (-1);
	}
	engine_sleep_until(e, t, e->now, ENGINE_NEVER);
	return (0);
}

/* A blocked real task seen runnable: it wakes at the next tick. */
int
engine_task_wake(struct engine *e, int id, char **cause)
{
	struct task	*t;

	if ((t = engine_get_live(e, id, cause)) == NULL)
		return (-1);
	engine_touch(e, id);
	if (t->state != ENGINE_SLEEPING || t->injected) {
		*cause = xasprintf("task %s is not blocked", t->name);
		return (-1);
	}
	if (t->wake != e->now) {
		t->wake = e->now;
		engine_wheel_add(e, t->id, e->now);
	}
	return (0);
}

/*
 * A pure query for a blocked real task the kernel just woke: were it
 * woken at the next tick (after sleeping since it blocked, so with the
 * climb if that is sleep_min or more), which CPU would it be placed on
 * (*cpu), at which rank (*rank), and would it be picked there ahead of
 * what that CPU runs now (1), or not (0)?  Ties go to the task queued
 * first, as a woken task joins the tail of its rank.  -1 if the task is
 * not a blocked real task.  Nothing changes: the wake itself is still
 * engine_task_wake, effective at the next tick.
 */
int
engine_wake_query(const struct engine *e, int id, int *cpu, int *rank)
{
	const struct task	*t;
	struct engine_task_info	 ti;
	uint64_t		 ts[ENGINE_PRIV_SIZE / 8];
	const struct cpu	*cp;
	int			 c;

	if ((t = engine_get(e, id)) == NULL || t->kind != ENGINE_REAL ||
	    t->state != ENGINE_SLEEPING || t->injected)
		return (-1);
	/* The policy's wake on a copy of its state: nothing changes. */
	memcpy(ts, t->ts, sizeof ts);
	e->policy->wake(&e->env, ts, e->now - t->sleep_start);
	memset(&ti, 0, sizeof ti);
	e->policy->info(&e->env, ts, &ti);
	if ((c = engine_place(e, t)) < 0)
		return (-1);
	*cpu = c;
	*rank = ti.rank;
	cp = &e->cpus[c];
	if (cp->nr == 0)
		return (1);
	/*
	 * A prio-array class (the staircase, rr) picks the head of its best
	 * list: it joins the tail of its own list, so it runs if that list
	 * is better than the best one as it stands after the last tick's
	 * charge, with whatever left the CPU gone.
	 */
	if (e->policy->pick == NULL)
		return (*(int *)((char *)ts + e->policy->rank_offset) <
		    prio_array_best(cp->rq));
	/* A class with its own pick: ahead of what ran last tick, if any. */
	if (cp->last.task == 0)
		return (1);
	return (ti.rank < cp->last.rank);
}
