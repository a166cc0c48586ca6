/*
 * session-out.c -- what a session's tick writes out: the CSV trace's
 * rows (SPEC.md section 3), the table's counts, what each CPU ran (the
 * runs the client's timeline draws), and the narration of what happened
 * (the scenario's events that fired, migrations, what the policy told,
 * the tasks that ended), for whoever listens.
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

/* Say something about tick, if anybody listens. */
void __attribute__((format(printf, 3, 4)))
session_note(struct session *s, uint64_t tick, const char *fmt, ...)
{
	va_list	 ap;
	char	*text;

	if (s->note == NULL)
		return;
	va_start(ap, fmt);
	text = xvasprintf(fmt, ap);
	va_end(ap);
	s->note(s->arg, tick, text);
	free(text);
}

/* Remember a task's nice, affinity and whether it exited. */
void
session_seen_update(struct session *s, int id)
{
	struct engine_task_info	ti;

	if (id < 1)
		return;
	s->seen = xgrowto(s->seen, &s->nseen, id, sizeof *s->seen);
	if (engine_task_info(s->e, id, &ti) == 0) {
		s->seen[id - 1].nice = ti.nice;
		s->seen[id - 1].affinity = ti.affinity;
		s->seen[id - 1].exited = ti.state == ENGINE_EXITED;
	}
}

/* Refresh the id -> name cache (tasks are only ever added). */
static void
session_names(struct session *s)
{
	struct engine_task_info	 ti;
	int			 n = engine_ntasks(s->e), id;

	if (n <= s->nnames)
		return;
	s->names = xreallocarray(s->names, n + 1, sizeof *s->names);
	for (id = s->nnames + 1; id <= n; id++) {
		if (engine_task_info(s->e, id, &ti) == 0)
			s->names[id] = xstrdup(ti.name);
		else
			s->names[id] = xstrdup("?");
	}
	s->nnames = n;
}

/* An idle CPU's row after tick,cpu for the policy: a dash per column. */
static void
session_idle_row(struct session *s, const struct engine_policy *pol)
{
	char	*p = s->idle;
	int	 i;

	memcpy(p, "-,-", 3);
	p += 3;
	for (i = 0; i < pol->ncols; i++) {
		memcpy(p, ",-", 2);
		p += 2;
	}
	*p++ = '\n';
	s->idle_len = p - s->idle;
	s->idle_policy = pol;
}

/* Write the trace to f from now on (its header first). */
void
session_trace(struct session *s, FILE *f)
{
	s->trace = f;
	if (f == NULL)
		return;
	fprintf(f, "tick,cpu,task,rank,%s\n",
	    engine_get_policy(s->e)->columns);
}

/* Write the trace rows of tick, just run. */
void
session_trace_rows(struct session *s, uint64_t tick)
{
	const struct engine_policy	*pol = engine_get_policy(s->e);
	const struct engine_cpu_info	*ci;
	char				 line[128], *p;
	const char			*name;
	size_t				 len;
	int				 c;

	if (pol != s->idle_policy)
		session_idle_row(s, pol);
	for (c = 0; c < s->params.cpus; c++) {
		ci = engine_cpu_last(s->e, c);
		p = engine_utoa(line, tick);
		*p++ = ',';
		p = engine_utoa(p, (uint64_t)c);
		*p++ = ',';
		if (ci->task == 0) {
			memcpy(p, s->idle, s->idle_len);
			p += s->idle_len;
		} else {
			if (ci->task > s->nnames)
				session_names(s);
			name = s->names[ci->task];
			len = strlen(name);
			memcpy(p, name, len);
			p += len;
			*p++ = ',';
			p = engine_utoa(p, (uint64_t)ci->rank);
			*p++ = ',';
			p = engine_format_row(pol, ci, p);
			*p++ = '\n';
		}
		fwrite(line, 1, p - line, s->trace);
	}
}

/*
 * Count the tick each CPU's task of e ran into the table counts l: its
 * rank's stair below its static one, in its descent (a policy without
 * descents has one).
 */
void
session_count(struct tables *l, struct engine *e, int cpus)
{
	struct engine_cpu_info	 ci;
	struct engine_task_info	 ti;
	int			 c, d;

	d = engine_policy_field(engine_get_policy(e), "descent");
	for (c = 0; c < cpus; c++) {
		engine_cpu_info(e, c, &ci);
		if (ci.task == 0 || engine_task_info(e, ci.task, &ti) != 0)
			continue;
		/* A nice change fired this tick applied before it ran. */
		tables_add(l, ci.task, d >= 0 ? (uint32_t)ci.field[d] : 1,
		    ci.rank - ti.prio);
	}
}

/*
 * Keep what each CPU ran in the tick just run, and narrate its moments:
 * a task that ran on another CPU than last time (a migration), and what
 * the policy told of its tasks (engine_notes: the staircase's fall-offs
 * and climbs).
 */
void
session_runs_tick(struct session *s, uint64_t tick)
{
	const struct engine_note	*note;
	const struct engine_cpu_info	*ci;
	struct engine_task_info		 ti;
	struct session_seen		*seen;
	size_t				 i, n;
	int				 c;

	for (c = 0; c < s->params.cpus; c++) {
		ci = engine_cpu_last(s->e, c);
		if (s->runs != NULL)
			runs_put(s->runs, c, tick, ci->task, ci->rank, 1);
		if (s->note == NULL || ci->task == 0 || ci->task > s->nseen)
			continue;
		seen = &s->seen[ci->task - 1];
		if (seen->ran && seen->cpu != c &&
		    engine_task_info(s->e, ci->task, &ti) == 0)
			session_note(s, tick, "%s moved from cpu %d to cpu %d",
			    ti.name, seen->cpu, c);
		seen->ran = 1;
		seen->cpu = c;
	}
	note = engine_notes(s->e, &n);
	for (i = 0; i < n; i++) {
		if (engine_task_info(s->e, note[i].task, &ti) == 0)
			session_note(s, tick, "%s %s", ti.name, note[i].text);
	}
}

/* Describe the scenario events that fired in the tick just run. */
void
session_fired(struct session *s, uint64_t tick)
{
	const struct engine_event	*ev;
	struct engine_task_info		 ti;
	struct session_seen		*seen;
	char				 a[160], b[160];
	size_t				 i, n;

	ev = engine_fired(s->e, &n);
	for (i = 0; i < n; i++, ev++) {
		if (engine_task_info(s->e, ev->task, &ti) != 0)
			continue;
		seen = ev->task <= s->nseen ? &s->seen[ev->task - 1] : NULL;
		switch (ev->action) {
		case ENGINE_ACT_SLEEP:
			session_note(s, tick, "%s sleeps %ld ms", ti.name,
			    ev->value);
			break;
		case ENGINE_ACT_NICE:
			session_note(s, tick, "%s nice %d -> %ld", ti.name,
			    seen != NULL ? seen->nice : 0, ev->value);
			if (seen != NULL)
				seen->nice = (int)ev->value;
			break;
		case ENGINE_ACT_AFFINITY:
			session_note(s, tick, "%s cpus %s -> %s", ti.name,
			    seen != NULL ? cpumask_format(&seen->affinity, a,
			    sizeof a) : "?", cpumask_format(&ev->cpus, b,
			    sizeof b));
			if (seen != NULL)
				seen->affinity = ev->cpus;
			break;
		case ENGINE_ACT_KILL:
			session_note(s, tick, "%s killed", ti.name);
			if (seen != NULL)
				seen->exited = 1;
			break;
		default:
			break;
		}
	}
}

/* Note the tasks that ended since the last look (the tick, a change). */
void
session_exits(struct session *s, uint64_t tick)
{
	struct engine_task_info	ti;
	char			why[320];
	int			id;

	for (id = 1; id <= s->nseen && id <= engine_ntasks(s->e); id++) {
		if (s->seen[id - 1].exited ||
		    engine_task_info(s->e, id, &ti) != 0 ||
		    ti.state != ENGINE_EXITED)
			continue;
		s->seen[id - 1].exited = 1;
		if (ti.kind == ENGINE_REAL && s->exit_reason != NULL &&
		    s->exit_reason(s->arg, id, why, sizeof why) == 0)
			session_note(s, tick, "%s exited, %s", ti.name, why);
		else if (ti.exit == ENGINE_EXIT_RUNTIME)
			session_note(s, tick, "%s finished its runtime",
			    ti.name);
		else if (ti.exit == ENGINE_EXIT_KILLED)
			session_note(s, tick, "%s killed", ti.name);
		else if (ti.exit == ENGINE_EXIT_DONE)
			session_note(s, tick, "%s: its recorded life ends",
			    ti.name);
	}
}
