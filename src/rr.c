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
#include "engine.h"
#include "xmalloc.h"

/* A task's state. */
struct rr_task {
	int	nice;
	int	left;		/* ticks left in this slice */
};

/* A CPU's FIFO, threaded through the engine's links. */
struct rr_rq {
	int	head, tail, nr;
};

_Static_assert(sizeof (struct rr_task) <= ENGINE_PRIV_SIZE,
    "rr's task state must fit the engine's");

/* An empty FIFO. */
static void
rr_rq_init(const struct engine_env *env, void *rq)
{
	struct rr_rq	*q = rq;

	(void)env;
	q->head = q->tail = q->nr = 0;
}

/* Append id at the tail. */
static void
rr_add_tail(const struct engine_env *env, struct rr_rq *q, int id)
{
	env->links.next[id] = 0;
	env->links.prev[id] = q->tail;
	if (q->tail != 0)
		env->links.next[q->tail] = id;
	else
		q->head = id;
	q->tail = id;
	q->nr++;
}

/* Take id off the FIFO. */
static void
rr_del(const struct engine_env *env, struct rr_rq *q, int id)
{
	int	prev = env->links.prev[id], next = env->links.next[id];

	if (prev != 0)
		env->links.next[prev] = next;
	else
		q->head = next;
	if (next != 0)
		env->links.prev[next] = prev;
	else
		q->tail = prev;
	env->links.prev[id] = env->links.next[id] = 0;
	q->nr--;
}

/* A new task: a full slice. */
static void
rr_task_init(const struct engine_env *env, void *ts, int nice)
{
	struct rr_task	*t = ts;

	t->nice = nice;
	t->left = env->rr_interval;
}

/* Every arrival, wake or move goes to the tail. */
static void
rr_enqueue(const struct engine_env *env, void *rq, int id, void *ts,
    enum engine_enq why)
{
	(void)ts;
	(void)why;
	rr_add_tail(env, rq, id);
}

/* Off the FIFO. */
static void
rr_dequeue(const struct engine_env *env, void *rq, int id, void *ts,
    enum engine_deq why)
{
	(void)ts;
	(void)why;
	rr_del(env, rq, id);
}

/* The head runs. */
static int
rr_pick(const struct engine_env *env, void *rq)
{
	(void)env;
	return (((struct rr_rq *)rq)->head);
}

/* One tick: at the end of its slice the task goes to the tail. */
static void
rr_tick(const struct engine_env *env, void *rq, int id, void *ts,
    struct engine_cpu_info *row)
{
	struct rr_task	*t = ts;

	row->rank = 120 + t->nice;
	row->iter = 1;
	row->left = t->left;
	row->descent = 1;
	row->col[0] = t->left;
	if (--t->left > 0)
		return;
	t->left = env->rr_interval;
	rr_del(env, rq, id);
	rr_add_tail(env, rq, id);
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
	struct rr_rq	*q = rq;
	int		 id;

	for (id = q->tail; id != 0 && id != q->head;
	    id = env->links.prev[id])
		if (engine_task_allowed(env->e, id, dst))
			return (id);
	return (0);
}

/* Audit the FIFO; returns the number queued. */
static int
rr_check(const struct engine_env *env, const void *rq, int cpu, char **cause)
{
	const struct rr_rq	*q = rq;
	int			 id, prev = 0, n = 0;

	for (id = q->head; id != 0; id = env->links.next[id]) {
		if (env->links.prev[id] != prev) {
			*cause = xasprintf("fifo: bad link at %d", id);
			return (-1);
		}
		if (engine_check_queued(env->e, id, cpu, cause) != 0)
			return (-1);
		prev = id;
		if (++n > engine_ntasks(env->e)) {
			*cause = xasprintf("fifo: loop");
			return (-1);
		}
	}
	if (q->tail != prev || q->nr != n) {
		*cause = xasprintf("fifo: bad tail or count (%d, %d queued)",
		    q->nr, n);
		return (-1);
	}
	return (n);
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

	(void)env;
	ti->rank = 120 + t->nice;
	ti->col[0] = t->left;
	engine_stair_flat(ti, t->nice, t->left);
}

/* The trace's column: left. */
static char *
rr_format(const struct engine_cpu_info *row, char *p)
{
	return (engine_itoa(p, row->col[0]));
}

const struct engine_policy engine_policy_rr = {
	.name = "rr",
	.columns = "left",
	.ncols = 1,
	.rq_size = sizeof (struct rr_rq),
	.rq_init = rr_rq_init,
	.rq_free = NULL,
	.task_init = rr_task_init,
	.enqueue = rr_enqueue,
	.dequeue = rr_dequeue,
	.pick = rr_pick,
	.tick = rr_tick,
	.wake = rr_wake,
	.renice = rr_renice,
	.steal = rr_steal,
	.check = rr_check,
	.check_task = rr_check_task,
	.info = rr_info,
	.format = rr_format
};
