/*
 * engine-why.c -- the why of each pick (SPEC.md section 10): while the
 * engine explains, after a tick's picks and before they run, each CPU
 * whose task is not the one it ran the tick before gets one line from
 * its policy's why op, saying the task, the rule and the numbers
 * compared; and what a client draws a runqueue with besides its tasks
 * (the policy's rq_fields, rr's FIFO in order).
 *
 * The core tells the policy only what it saw (struct engine_switch):
 * what became of the task that ran, whether the new one was just made
 * runnable or came from elsewhere, the old one's trace row.  The rule
 * and its numbers are the policy's own, from its own state: nothing
 * outside the engine composes a why line.  Off (as an engine starts),
 * a tick pays one test for all this.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine-state.h"
#include "xmalloc.h"

/* Explain each tick, or not; either way the last tick's lines go. */
void
engine_explain(struct engine *e, int on)
{
	e->explaining = on != 0;
	e->env.explain = on != 0;
	e->whys.n = 0;
}

/* The why lines of the last tick, in CPU order (none: not explaining). */
const struct engine_why *
engine_whys(const struct engine *e, size_t *n)
{
	*n = e->explaining ? e->whys.n : 0;
	return (e->whys.v);
}

/* A task's name, for a class's why line; "?" if there is no such id. */
const char *
engine_task_name(const struct engine *e, int id)
{
	const struct task	*t;

	if ((t = engine_get(e, id)) == NULL)
		return ("?");
	return (t->name);
}

/*
 * ns as ms with one decimal, toward zero, into buf: "412.3", "-1.5",
 * with plus "+1.5" (a lag's sign says which side it is on).
 */
const char *
engine_ms(int64_t ns, int plus, char *buf, size_t len)
{
	uint64_t	a = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;

	snprintf(buf, len, "%s%llu.%llu", ns < 0 ? "-" : plus ? "+" : "",
	    (unsigned long long)(a / 1000000),
	    (unsigned long long)(a / 100000 % 10));
	return (buf);
}

/* What became of sw's prev, as words after its name. */
const char *
engine_fate_text(const struct engine_switch *sw, char *buf, size_t len)
{
	switch (sw->fate) {
	case ENGINE_FATE_SLEPT:
		return ("slept");
	case ENGINE_FATE_EXITED:
		return ("exited");
	case ENGINE_FATE_MOVED:
		snprintf(buf, len, "moved to cpu %d", sw->to_cpu);
		return (buf);
	case ENGINE_FATE_QUEUED:
		return ("waits");
	default:
		return ("idle");
	}
}

/* The CPU runs nothing (engine.h). */
int
engine_why_idle(const struct engine_env *env, const struct engine_switch *sw,
    char *buf, size_t len)
{
	char	f[32];

	if (sw->next != 0)
		return (0);
	snprintf(buf, len, "idle: %s %s, nothing queued",
	    engine_task_name(env->e, sw->prev), engine_fate_text(sw, f,
	    sizeof f));
	return (1);
}

/* The pick did not take the CPU from a queued task (engine.h). */
int
engine_why_left(const struct engine_env *env, const struct engine_switch *sw,
    const char *head, char *buf, size_t len)
{
	char	f[32];

	if (sw->fate == ENGINE_FATE_QUEUED)
		return (0);
	if (sw->fate == ENGINE_FATE_IDLE)
		snprintf(buf, len, "%s %s; %s", engine_task_name(env->e,
		    sw->next), sw->woke ? (sw->fresh ? "arrived" : "woke") :
		    "moved here", head);
	else
		snprintf(buf, len, "%s %s; %s", engine_task_name(env->e,
		    sw->prev), engine_fate_text(sw, f, sizeof f), head);
	return (1);
}

/* Is id among the tasks made runnable this tick (e->due, ascending)? */
static int
engine_why_woke(const struct engine *e, int id)
{
	size_t	lo = 0, hi = e->ndue, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (e->due[mid] == id)
			return (1);
		if (e->due[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (0);
}

/* What became of the task that ran on cpu c the tick before. */
static enum engine_fate
engine_why_fate(const struct engine *e, int prev, int c, int *to)
{
	const struct task	*t;

	*to = -1;
	if ((t = engine_get(e, prev)) == NULL)
		return (ENGINE_FATE_IDLE);
	switch (t->state) {
	case ENGINE_RUNNABLE:
		if (t->cpu == c)
			return (ENGINE_FATE_QUEUED);
		*to = t->cpu;
		return (ENGINE_FATE_MOVED);
	case ENGINE_EXITED:
		return (ENGINE_FATE_EXITED);
	default:
		return (ENGINE_FATE_SLEPT);
	}
}

/* Room for one more why line. */
static struct engine_why *
engine_why_add(struct engine *e)
{
	struct engine_whys	*w = &e->whys;

	if (w->n == w->size) {
		w->size = w->size != 0 ? w->size * 2 : 8;
		w->v = xreallocarray(w->v, w->size, sizeof *w->v);
	}
	return (&w->v[w->n++]);
}

/*
 * After the picks of a tick, before they run: a why line for each CPU
 * whose task changed (picks[c] against what it ran the tick before).
 */
void
engine_why_tick(struct engine *e, const int *picks)
{
	struct engine_switch	 sw;
	struct engine_why	*w;
	const struct task	*t;
	int			 c;

	e->whys.n = 0;
	for (c = 0; c < e->p.cpus; c++) {
		if (picks[c] == e->cpus[c].last.task)
			continue;
		memset(&sw, 0, sizeof sw);
		sw.cpu = c;
		sw.prev = e->cpus[c].last.task;
		sw.next = picks[c];
		sw.fate = engine_why_fate(e, sw.prev, c, &sw.to_cpu);
		sw.from_cpu = -1;
		if ((t = engine_get(e, sw.next)) != NULL) {
			sw.woke = engine_why_woke(e, sw.next);
			sw.fresh = t->ran == 0;
			if (t->last_cpu >= 0 && t->last_cpu != c)
				sw.from_cpu = t->last_cpu;
		}
		sw.row = &e->cpus[c].last;
		w = engine_why_add(e);
		w->cpu = c;
		w->task = sw.next;
		w->text[0] = '\0';
		if (e->policy->why != NULL)
			e->policy->why(&e->env, e->cpus[c].rq, &sw, w->text,
			    sizeof w->text);
		else if (sw.next != 0)
			snprintf(w->text, sizeof w->text, "%s runs",
			    engine_task_name(e, sw.next));
		else
			snprintf(w->text, sizeof w->text, "idle");
	}
}

/* A CPU's runqueue in the policy's terms; how many fields (0: none). */
int
engine_cpu_rq(const struct engine *e, int cpu, int64_t *out)
{
	memset(out, 0, ENGINE_MAX_RQ_FIELDS * sizeof *out);
	if (cpu < 0 || cpu >= e->p.cpus || e->policy->rq_info == NULL)
		return (0);
	e->policy->rq_info(&e->env, e->cpus[cpu].rq, out);
	return (e->policy->nrq_fields);
}

/* A CPU's runqueue in run order, if the policy's is a queue; or -1. */
int
engine_cpu_order(const struct engine *e, int cpu, int *ids)
{
	if (cpu < 0 || cpu >= e->p.cpus || e->policy->order == NULL)
		return (-1);
	return (e->policy->order(&e->env, e->cpus[cpu].rq, ids,
	    ENGINE_ORDER_MAX));
}
