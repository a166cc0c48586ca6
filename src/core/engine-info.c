/*
 * engine-info.c -- what can be read back of an engine: snapshots of
 * tasks and CPUs, the log of changes (what changed between looks), the
 * notes its policy gives, the events fired and tasks woken in the last
 * tick, the audit of its runqueues, the policies by name, and clones
 * (deep copies, for the session's keyframes) with their memory.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine-state.h"
#include "log.h"
#include "quote.h"
#include "xmalloc.h"

/*
 * Keep the log of changes (epochs: the tracker's counter of epochs, for
 * all its engines) or not (NULL, as an engine starts): only a reader
 * that wants to know what changed between looks (the live daemon's
 * frames) needs it, and a tick costs less without.  Either way a new
 * epoch: what a reader kept no longer counts.
 */
void
engine_track_changes(struct engine *e, uint64_t *epochs)
{
	e->tracking = epochs != NULL;
	e->epochs = epochs;
	engine_changes_reset(e);
	if (!e->tracking) {
		free(e->log);
		e->log = NULL;
		e->log_size = 0;
	}
}

/* The next tick to run. */
uint64_t
engine_now(const struct engine *e)
{
	return (e->now);
}

/* The engine's parameters. */
const struct engine_params *
engine_params(const struct engine *e)
{
	return (&e->p);
}

/* The engine's policy. */
const struct engine_policy *
engine_get_policy(const struct engine *e)
{
	return (e->policy);
}

/* The highest task id. */
int
engine_ntasks(const struct engine *e)
{
	return (e->ntasks);
}

/* Tasks that have not exited. */
int
engine_nlive(const struct engine *e)
{
	return (e->nlive);
}

/* The number of groups. */
int
engine_ngroups(const struct engine *e)
{
	return (e->ngroups);
}

/* A group's name, or NULL. */
const char *
engine_group_name(const struct engine *e, int group)
{
	if (group < 0 || group >= e->ngroups)
		return (NULL);
	return (e->groups[group].name);
}

/* A group's engine CPUs; -1 if there is no such group. */
int
engine_group_cpus(const struct engine *e, int group, struct cpumask *cpus)
{
	if (group < 0 || group >= e->ngroups)
		return (-1);
	*cpus = e->groups[group].cpus;
	return (0);
}

/* Fill a snapshot of a task; -1 if there is no such id. */
int
engine_task_info(const struct engine *e, int id, struct engine_task_info *ti)
{
	const struct task	*t;

	if ((t = engine_get(e, id)) == NULL)
		return (-1);
	memset(ti, 0, sizeof *ti);
	ti->id = t->id;
	ti->name = t->name;
	ti->kind = t->kind;
	ti->state = t->state;
	ti->exit = t->exit;
	ti->cpu = t->state == ENGINE_RUNNABLE ? t->cpu : t->last_cpu;
	ti->running = t->state == ENGINE_RUNNABLE && t->last_cpu == t->cpu &&
	    e->cpus[t->cpu].last.task == t->id;
	ti->group = t->group;
	ti->nice = t->nice;
	ti->prio = NICE_TO_PRIO(t->nice);
	e->policy->info(&e->env, t->ts, ti);
	ti->ran = t->ran;
	ti->wake = t->state == ENGINE_SLEEPING || t->state == ENGINE_WAITING ?
	    t->wake : 0;
	ti->injected = t->injected;
	ti->affinity = t->affinity;
	ti->allowed = t->allowed;
	return (0);
}

/*
 * A task's state alone (and whether its sleep was injected), or -1: what
 * the real-process layer's pass over every task reads each tick, without
 * the whole snapshot engine_task_info fills.
 */
int
engine_task_state(const struct engine *e, int id, int *injected)
{
	const struct task	*t;

	if ((t = engine_get(e, id)) == NULL)
		return (-1);
	*injected = t->injected;
	return ((int)t->state);
}

/*
 * The log of changes: ids[0..*n) are the tasks whose snapshot
 * (engine_task_info) may have changed since the log began, oldest
 * first, with repeats; besides them, the tasks the CPUs ran in the last
 * tick (engine_cpu_info), which a tick changes without logging them (a
 * task is logged when it stops running, so one that ran is either
 * logged or still there).  A reader keeps the epoch returned and *n: while
 * the epoch is the same, ids from its *n on are the tasks touched
 * since.  Another epoch (another engine, a clone, the log full and
 * started again, a policy switch) means any task may have changed; so
 * does 0, returned for a policy whose snapshots read its runqueue (cfs:
 * a task's slice depends on the others queued) and while the log is not
 * kept (engine_track_changes; then *n is 0).
 */
uint64_t
engine_changes(const struct engine *e, const int **ids, size_t *n)
{
	*ids = e->log;
	*n = e->nlog;
	if (e->policy->info_rq || !e->tracking)
		return (0);
	return (e->epoch);
}

/* What a CPU ran in the last tick. */
void
engine_cpu_info(const struct engine *e, int cpu, struct engine_cpu_info *ci)
{
	*ci = e->cpus[cpu].last;
	ci->cpu = cpu;
	ci->nr = e->cpus[cpu].nr;
}

/* The row cpu ran in the last tick (engine.h says what it holds). */
const struct engine_cpu_info *
engine_cpu_last(const struct engine *e, int cpu)
{
	return (&e->cpus[cpu].last);
}

/* The events fired in the last tick. */
const struct engine_event *
engine_fired(const struct engine *e, size_t *n)
{
	*n = e->nfired;
	return (e->fired);
}

/* The tasks made runnable in the last tick (woken or started). */
const int *
engine_woken(const struct engine *e, size_t *n)
{
	*n = e->ndue;
	return (e->due);
}

/* Is task id rightly queued on cpu (runnable, there, allowed)? */
int
engine_check_queued(const struct engine *e, int id, int cpu, char **cause)
{
	const struct task	*t;

	if (id < 1 || id > e->ntasks) {
		*cause = xasprintf("cpu %d: no task %d", cpu, id);
		return (-1);
	}
	t = &e->tasks[id - 1];
	if (t->cpu != cpu || t->state != ENGINE_RUNNABLE ||
	    !cpumask_test(&t->allowed, cpu)) {
		*cause = xasprintf("cpu %d: task %s misfiled (cpu %d state %s)",
		    cpu, t->name, t->cpu, engine_state_name(t->state));
		return (-1);
	}
	return (0);
}

/* Audit every runqueue and task. */
int
engine_check(const struct engine *e, char **cause)
{
	const struct task	*t;
	char			*why;
	int			 c, id, n, runnable = 0, queued = 0;

	if (e->tasks != NULL &&
	    (uintptr_t)e->tasks % _Alignof(struct task) != 0) {
		*cause = xasprintf("task array at %p is not %zu-byte aligned",
		    (void *)e->tasks, _Alignof(struct task));
		return (-1);
	}
	for (c = 0; c < e->p.cpus; c++) {
		n = e->policy->check(&e->env, e->cpus[c].rq, c, &why);
		if (n < 0) {
			*cause = xasprintf("cpu %d: %s", c, why);
			free(why);
			return (-1);
		}
		if (n != e->cpus[c].nr) {
			*cause = xasprintf("cpu %d: nr %d but %d queued", c,
			    e->cpus[c].nr, n);
			return (-1);
		}
		if ((n == 0) != cpumask_test(&e->idle, c)) {
			*cause = xasprintf("cpu %d: idle mask wrong", c);
			return (-1);
		}
		queued += n;
	}
	for (id = 1; id <= e->ntasks; id++) {
		t = &e->tasks[id - 1];
		if (t->state == ENGINE_RUNNABLE)
			runnable++;
		if (t->state == ENGINE_EXITED)
			continue;
		if (e->policy->check_task(&e->env, t->ts, t->nice, &why) != 0) {
			*cause = xasprintf("task %s: %s", t->name, why);
			free(why);
			return (-1);
		}
	}
	if (runnable != queued) {
		*cause = xasprintf("%d runnable tasks but %d queued", runnable,
		    queued);
		return (-1);
	}
	return (0);
}

/* The protocol's name for a state. */
const char *
engine_state_name(enum engine_state s)
{
	switch (s) {
	case ENGINE_WAITING:
	case ENGINE_SLEEPING:
		return ("sleeping");
	case ENGINE_RUNNABLE:
		return ("runnable");
	case ENGINE_EXITED:
		return ("exited");
	}
	return ("?");
}

/*
 * Keep the notes policies give of each tick (on), or not (off: a tick
 * costs nothing more).  The live daemon narrates; headless runs do not.
 */
void
engine_narrate(struct engine *e, int on)
{
	e->env.notes = on ? &e->notes : NULL;
	e->notes.n = 0;
}

/* The notes of the last tick, in the order they were given. */
const struct engine_note *
engine_notes(const struct engine *e, size_t *n)
{
	*n = e->env.notes != NULL ? e->notes.n : 0;
	return (e->notes.v);
}

/* A policy's note on task id in this tick, if narrating. */
void
engine_note(const struct engine_env *env, int id, const char *fmt, ...)
{
	struct engine_notes	*ns = env->notes;
	va_list			 ap;

	if (ns == NULL)
		return;
	if (ns->n == ns->size)
		ns->v = xgrow(ns->v, &ns->size, 8, sizeof *ns->v);
	ns->v[ns->n].task = id;
	va_start(ap, fmt);
	vsnprintf(ns->v[ns->n].text, sizeof ns->v[ns->n].text, fmt, ap);
	va_end(ap);
	ns->n++;
}

/* The index of a policy's field named name, or -1. */
int
engine_policy_field(const struct engine_policy *pol, const char *name)
{
	const char	*p = pol->fields;
	size_t		 len = strlen(name);
	int		 i;

	for (i = 0; i < pol->nfields && p != NULL; i++) {
		if (strncmp(p, name, len) == 0 &&
		    (p[len] == ',' || p[len] == '\0'))
			return (i);
		if ((p = strchr(p, ',')) != NULL)
			p++;
	}
	return (-1);
}

/* Write v in decimal at p; returns the end. */
char *
engine_utoa(char *p, uint64_t v)
{
	char	tmp[24];
	int	n = 0;

	do {
		tmp[n++] = '0' + v % 10;
		v /= 10;
	} while (v != 0);
	while (n > 0)
		*p++ = tmp[--n];
	return (p);
}

/* Write a signed v in decimal at p; returns the end. */
char *
engine_itoa(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		return (engine_utoa(p, (uint64_t)0 - (uint64_t)v));
	}
	return (engine_utoa(p, (uint64_t)v));
}

/*
 * A trace row's columns at p: the policy's format, or its ncols columns
 * in decimal, comma-separated; returns the end.
 */
char *
engine_format_row(const struct engine_policy *pol,
    const struct engine_cpu_info *row, char *p)
{
	int	i;

	if (pol->format != NULL)
		return (pol->format(row, p));
	for (i = 0; i < pol->ncols; i++) {
		if (i > 0)
			*p++ = ',';
		p = engine_itoa(p, row->col[i]);
	}
	return (p);
}

/* The known policies, the default first. */
static const struct engine_policy *const engine_policies[] = {
	&engine_policy_staircase,
	&engine_policy_o1,
	&engine_policy_cfs,
	&engine_policy_eevdf,
	&engine_policy_rr
};

/* A policy by name, or NULL. */
const struct engine_policy *
engine_policy_find(const char *name)
{
	size_t	i;

	for (i = 0; i < sizeof engine_policies / sizeof *engine_policies; i++)
		if (strcmp(engine_policies[i]->name, name) == 0)
			return (engine_policies[i]);
	return (NULL);
}

/*
 * Policies by a comma-separated list of names ("o1,cfs,eevdf"), at
 * most max, into pol; how many, or -1 with *cause (an unknown or empty
 * name, too many).
 */
int
engine_policy_list(const char *list, const struct engine_policy **pol,
    int max, char **cause)
{
	char	 name[32], q[QUOTE_SIZE];
	size_t	 len;
	int	 n = 0;

	for (;;) {
		len = strcspn(list, ",");
		if (len == 0 || len >= sizeof name) {
			*cause = xasprintf("bad policy list %s (expected up "
			    "to %d of %s, comma-separated)", quote_word(list,
			    q, sizeof q), max, engine_policy_names());
			return (-1);
		}
		memcpy(name, list, len);
		name[len] = '\0';
		if (n == max) {
			*cause = xasprintf("at most %d policies in a list",
			    max);
			return (-1);
		}
		if ((pol[n] = engine_policy_find(name)) == NULL) {
			*cause = xasprintf("unknown policy %s (known: %s)",
			    quote_word(name, q, sizeof q),
			    engine_policy_names());
			return (-1);
		}
		n++;
		if (list[len] == '\0')
			return (n);
		list += len + 1;
	}
}

/* The known policies' names, comma-separated. */
const char *
engine_policy_names(void)
{
	return ("staircase, o1, cfs, eevdf, rr");
}

/* A malloc'd copy of the first n of size elements at p (NULL if none). */
static void *
engine_dup(const void *p, size_t n, size_t size)
{
	void	*q;

	if (p == NULL || n == 0)
		return (NULL);
	q = xreallocarray(NULL, n, size);
	memcpy(q, p, n * size);
	return (q);
}

/*
 * A deep copy of e: every array it owns is copied (to its used length:
 * the spare room of the original is not state), every string duplicated,
 * and the pointers the policy is lent (env) pointed at the copy's own.
 * The name hashes keep their size, as a name's slot depends on it.  A
 * new pointer in struct engine needs its copy here and its bytes in
 * engine_memory(); test_engine_clone runs a clone on after its original
 * is freed, so ASan finds one forgotten.
 */
struct engine *
engine_clone(const struct engine *e)
{
	struct engine	*c;
	size_t		 j;
	int		 i;

	c = xmalloc(sizeof *c);
	*c = *e;

	c->tasks = NULL;
	c->tasks_size = e->ntasks;
	if (e->ntasks > 0) {
		c->tasks = engine_tasks_resize(NULL, 0, e->ntasks);
		memcpy(c->tasks, e->tasks, (size_t)e->ntasks * sizeof *c->tasks);
	}
	for (i = 0; i < e->ntasks; i++)
		c->tasks[i].pattern = engine_dup(e->tasks[i].pattern,
		    e->tasks[i].npattern, sizeof *e->tasks[i].pattern);
	c->next = engine_dup(e->next, (size_t)e->ntasks + 1, sizeof *e->next);
	c->prev = engine_dup(e->prev, (size_t)e->ntasks + 1, sizeof *e->prev);

	c->names = engine_dup(e->names, e->names_size, sizeof *e->names);
	c->gnames = engine_dup(e->gnames, e->gnames_size, sizeof *e->gnames);
	c->groups = engine_dup(e->groups, (size_t)e->ngroups,
	    sizeof *e->groups);
	c->groups_size = e->ngroups;
	for (i = 0; i < e->ngroups; i++)
		c->groups[i].name = xstrdup(e->groups[i].name);

	for (j = 0; j < WHEEL_SIZE; j++) {
		c->wheel[j].v = engine_dup(e->wheel[j].v, e->wheel[j].n,
		    sizeof *e->wheel[j].v);
		c->wheel[j].size = e->wheel[j].n;
	}
	c->due = engine_dup(e->due, e->ndue, sizeof *e->due);
	c->due_size = e->ndue;

	c->events = engine_dup(e->events, e->nevents, sizeof *e->events);
	c->events_size = e->nevents;
	c->fired = engine_dup(e->fired, e->nfired, sizeof *e->fired);
	c->fired_size = e->nfired;
	/* A clone (a keyframe, the past viewed) says nothing. */
	memset(&c->notes, 0, sizeof c->notes);
	c->env.notes = NULL;
	memset(&c->whys, 0, sizeof c->whys);
	c->explaining = c->env.explain = 0;
	/*
	 * A clone's log starts empty, at a new epoch: all may differ.  It
	 * is tracked if the original's is (keyframes, seeks, branches).
	 */
	c->log = NULL;
	c->log_size = 0;
	engine_changes_reset(c);

	c->cpus = engine_dup(e->cpus, (size_t)e->p.cpus, sizeof *e->cpus);
	if (posix_memalign((void **)&c->rqs, 64,
	    e->rq_stride * (size_t)e->p.cpus) != 0) {
		fatalx("out of memory for runqueues");
	}
	memcpy(c->rqs, e->rqs, e->rq_stride * (size_t)e->p.cpus);

	c->env.tasks = (char *)c->tasks;
	c->env.links.next = c->next;
	c->env.links.prev = c->prev;
	c->env.rqs = c->rqs;
	c->env.e = c;
	for (i = 0; i < e->p.cpus; i++) {
		c->cpus[i].rq = c->rqs + c->rq_stride * (size_t)i;
		if (c->policy->rq_clone != NULL)
			c->policy->rq_clone(&c->env, c->cpus[i].rq,
			    e->cpus[i].rq);
	}
	return (c);
}

/* The bytes e holds: itself and every array and string it owns. */
size_t
engine_memory(const struct engine *e)
{
	size_t	n, j;
	int	i;

	n = sizeof *e;
	n += (size_t)e->tasks_size * sizeof *e->tasks;
	for (i = 0; i < e->ntasks; i++)
		n += e->tasks[i].npattern * sizeof *e->tasks[i].pattern;
	if (e->next != NULL)
		n += 2 * ((size_t)e->tasks_size + 1) * sizeof *e->next;
	n += e->names_size * sizeof *e->names;
	n += e->gnames_size * sizeof *e->gnames;
	n += (size_t)e->groups_size * sizeof *e->groups;
	for (i = 0; i < e->ngroups; i++)
		n += strlen(e->groups[i].name) + 1;
	for (j = 0; j < WHEEL_SIZE; j++)
		n += e->wheel[j].size * sizeof *e->wheel[j].v;
	n += e->due_size * sizeof *e->due;
	n += e->events_size * sizeof *e->events;
	n += e->fired_size * sizeof *e->fired;
	n += e->log_size * sizeof *e->log;
	n += e->whys.size * sizeof *e->whys.v;
	n += (size_t)e->p.cpus * (sizeof *e->cpus + e->rq_stride);
	for (i = 0; i < e->p.cpus; i++) {
		if (e->policy->rq_memory != NULL)
			n += e->policy->rq_memory(e->cpus[i].rq);
	}
	return (n);
}
