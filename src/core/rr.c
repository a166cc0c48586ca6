/*
 * rr.c -- plain round-robin (SPEC.md section 6): one FIFO per CPU,
 * rr_interval slices, nice ignored.
 *
 * The head of the FIFO runs.  It stays at the head until its slice of
 * rr_interval ticks is used up, when it goes to the tail with a new one,
 * or until it sleeps.  A task that arrives, wakes or moves here goes to
 * the tail with a full slice.  Nice only shows in the rank, 120 + nice,
 * so the same scale as the other policies can draw it.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "xmalloc.h"

/*
 * A task's state.  The FIFO is a prio array with one list, 0, on which
 * every task goes to the tail: the core queues and picks inline, as for
 * the staircase (rank_offset points at `list`).
 */
struct rr_task {
	int	list;		/* always 0 */
	int	nice;
	int	left;		/* ticks left in this slice */
};

_Static_assert(sizeof (struct rr_task) <= ENGINE_PRIV_SIZE,
    "rr's task state must fit the engine's");

/* A new task: a full slice. */
static void
rr_task_init(const struct engine_env *env, void *ts, int nice)
{
	struct rr_task	*t = ts;

	t->list = 0;
	t->nice = nice;
	t->left = env->rr_interval;
}

/* One tick: at the end of its slice the task goes to the tail. */
static void
rr_tick(const struct engine_env *env, void *rq, int id, void *ts,
    struct engine_cpu_info *row)
{
	struct rr_task	*t = ts;

	row->rank = NICE_TO_PRIO(t->nice);
	row->left = t->left;
	row->col[0] = t->left;
	if (--t->left > 0)
		return;
	t->left = env->rr_interval;
	prio_array_del(rq, &env->links, id, 0);
	prio_array_add_tail(rq, &env->links, id, 0);
}

/* Woken: a full slice (enqueue puts it at the tail). */
static void
rr_wake(const struct engine_env *env, void *ts, uint64_t slept)
{
	(void)slept;
	((struct rr_task *)ts)->left = env->rr_interval;
}

/* Nice changed: only the rank moves; the FIFO order stays. */
static void
rr_renice(const struct engine_env *env, void *rq, int id, void *ts, int nice)
{
	(void)env;
	(void)rq;
	(void)id;
	((struct rr_task *)ts)->nice = nice;
}

/* The task to give away: from the tail, not the head, allowed on dst. */
static int
rr_steal(const struct engine_env *env, void *rq, int dst)
{
	const struct prio_array	*q = rq;
	int			 id;

	for (id = q->tail[0]; id != 0 && id != q->head[0];
	    id = env->links.prev[id])
		if (engine_task_allowed(env->e, id, dst))
			return (id);
	return (0);
}

/* What rr_check() passes to its visitor. */
struct rr_visit {
	const struct engine_env	*env;
	int			 cpu;
};

/* A queued task: rightly there, and on list 0. */
static int
rr_visit(void *arg, int id, int list, char **cause)
{
	struct rr_visit	*v = arg;

	if (engine_check_queued(v->env->e, id, v->cpu, cause) != 0)
		return (-1);
	if (list != 0 || ((const struct rr_task *)engine_ts(v->env,
	    id))->list != 0) {
		*cause = xasprintf("task %d on list %d", id, list);
		return (-1);
	}
	return (0);
}

/* Audit the FIFO; returns the number queued. */
static int
rr_check(const struct engine_env *env, const void *rq, int cpu, char **cause)
{
	struct rr_visit	v = { env, cpu };

	if (prio_array_check(rq, &env->links, engine_ntasks(env->e),
	    rr_visit, &v, cause) != 0)
		return (-1);
	return (((const struct prio_array *)rq)->nr);
}

/* A task's state: nice as given, a slice within 1..rr_interval. */
static int
rr_check_task(const struct engine_env *env, const void *ts, int nice,
    char **cause)
{
	const struct rr_task	*t = ts;

	if (t->nice != nice || t->left < 1 || t->left > env->rr_interval) {
		*cause = xasprintf("bad rr state nice=%d left=%d", t->nice,
		    t->left);
		return (-1);
	}
	return (0);
}

/* A task's snapshot: rank 120 + nice, column left. */
static void
rr_info(const struct engine_env *env, const void *ts,
    struct engine_task_info *ti)
{
	const struct rr_task	*t = ts;

	ti->rank = NICE_TO_PRIO(t->nice);
	ti->left = t->left;
	ti->slice = env->rr_interval;
	ti->top = ti->bottom = NICE_TO_PRIO(t->nice);
}

/*
 * Why the pick changed (SPEC.md section 10): the FIFO's head runs;
 * the one that ran used up its slice and went to the tail, or left.
 */
static void
rr_why_line(const struct engine_env *env, const void *rq,
    const struct engine_switch *sw, char *buf, size_t len)
{
	const struct prio_array	*q = rq;
	const char		*pn = engine_task_name(env->e, sw->prev);
	const char		*nn = engine_task_name(env->e, sw->next);
	char			 f[32];

	if (sw->next == 0)
		snprintf(buf, len, "idle: %s %s, the FIFO is empty", pn,
		    engine_fate_text(sw, f, sizeof f));
	else if (sw->fate == ENGINE_FATE_IDLE)
		snprintf(buf, len, "%s: %s, at the head of the FIFO (%d "
		    "queued)", nn, sw->woke ? (sw->fresh ? "arrived" : "woke") :
		    "moved here", q->nr);
	else if (sw->fate == ENGINE_FATE_QUEUED && sw->row->left == 1)
		snprintf(buf, len, "%s used its %d ms slice: to the tail; %s, "
		    "next in the FIFO (%d queued), takes its turn", pn,
		    env->rr_interval, nn, q->nr);
	else if (sw->fate == ENGINE_FATE_QUEUED)
		snprintf(buf, len, "%s: at the head of the FIFO, ahead of %s "
		    "(%d queued)", nn, pn, q->nr);
	else
		snprintf(buf, len, "%s %s; %s, next in the FIFO (%d queued), "
		    "takes its turn", pn, engine_fate_text(sw, f, sizeof f), nn,
		    q->nr);
}

/* The why line, then who follows the pick in the FIFO. */
static void
rr_why(const struct engine_env *env, const void *rq,
    const struct engine_switch *sw, char *buf, size_t len)
{
	size_t	at;
	int	id;

	rr_why_line(env, rq, sw, buf, len);
	if (sw->next == 0 || (at = strlen(buf)) + 1 >= len)
		return;
	if ((id = env->links.next[sw->next]) != 0)
		snprintf(buf + at, len - at, "; then %s",
		    engine_task_name(env->e, id));
}

/* The FIFO from its head, the running task first: at most max ids. */
static int
rr_order(const struct engine_env *env, const void *rq, int *ids, int max)
{
	const struct prio_array	*q = rq;
	int			 id, n = 0;

	for (id = q->head[0]; id != 0 && n < max; id = env->links.next[id])
		ids[n++] = id;
	return (n);
}

/* The head keeps its CPU for what is left of its allotment. */
static int
rr_quiet(const struct engine_env *env, const void *rq, int id,
    const void *ts)
{
	(void)env;
	(void)rq;
	(void)id;
	return (((const struct rr_task *)ts)->left);
}

const struct engine_policy engine_policy_rr = {
	.name = "rr",
	.columns = "left",
	.ncols = 1,
	.picture = "queue",
	.rq_size = sizeof (struct prio_array),
	/* Plain data (one prio array of ids): zeroed, it is empty; */
	.rq_init = NULL,
	.rq_free = NULL,
	/* and a snapshot copies its bytes. */
	.rq_clone = NULL,
	.rq_memory = NULL,
	.task_init = rr_task_init,
	/* Every arrival, wake or move to the tail of list 0: inline. */
	.enqueue = NULL,
	.dequeue = NULL,
	.rank_offset = offsetof(struct rr_task, list),
	.pick = NULL,		/* the FIFO's head: inline */
	.tick = rr_tick,
	.wake = rr_wake,
	.renice = rr_renice,
	.steal = rr_steal,
	.check = rr_check,
	.check_task = rr_check_task,
	.info = rr_info,
	.quiet = rr_quiet,
	.why = rr_why,
	.order = rr_order
};
