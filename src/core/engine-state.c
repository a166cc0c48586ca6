/*
 * engine-state.c -- what every file of the engine shares: finding a
 * task, placing one on a CPU, and the slow paths of the queues and of
 * the log of changes (engine-state.h has their fast paths inline).
 */
#include <stdlib.h>
#include <string.h>

#include "engine-state.h"
#include "log.h"
#include "xmalloc.h"

/* The task with this id, or NULL. */
struct task *
engine_get(const struct engine *e, int id)
{
	if (id < 1 || id > e->ntasks)
		return (NULL);
	return (&e->tasks[id - 1]);
}

/* A live task by id, or NULL with *cause set. */
struct task *
engine_get_live(struct engine *e, int id, char **cause)
{
	struct task	*t;

	if ((t = engine_get(e, id)) == NULL) {
		*cause = xasprintf("no task with id %d", id);
		return (NULL);
	}
	if (t->state == ENGINE_EXITED) {
		*cause = xasprintf("task %s has exited", t->name);
		return (NULL);
	}
	return (t);
}

/*
 * Choose a CPU for an arriving or waking task: its last CPU if allowed
 * and idle; else the lowest idle allowed CPU; else its last CPU if
 * allowed; else the allowed CPU with the fewest runnable tasks.
 */
int
engine_place(const struct engine *e, const struct task *t)
{
	struct cpumask	idle;
	int		c, best = -1, lc = t->last_cpu;

	if (lc >= 0 && cpumask_test(&t->allowed, lc) && e->cpus[lc].nr == 0)
		return (lc);
	cpumask_and(&idle, &t->allowed, &e->idle);
	if ((c = cpumask_first(&idle)) >= 0)
		return (c);
	if (lc >= 0 && cpumask_test(&t->allowed, lc))
		return (lc);
	CPUMASK_FOREACH(c, &t->allowed) {
		if (c >= e->p.cpus)
			break;
		if (best < 0 || e->cpus[c].nr < e->cpus[best].nr)
			best = c;
	}
	return (best);
}

/*
 * Grow the task array.  struct task asks for 64-byte alignment (its hot
 * fields fill one cache line), which realloc does not give: allocate
 * aligned and copy.
 */
struct task *
engine_tasks_resize(struct task *old, int n, int size)
{
	struct task	*t;

	if (posix_memalign((void **)&t, _Alignof(struct task),
	    (size_t)size * sizeof *t) != 0) {
		fatalx("out of memory for %d tasks", size);
	}
	if (n > 0)
		memcpy(t, old, (size_t)n * sizeof *t);
	free(old);
	return (t);
}

/* A full bucket of the timing wheel: twice the room. */
void __attribute__((noinline))
engine_bucket_grow(struct bucket *b)
{
	b->v = xgrow(b->v, &b->size, 8, sizeof *b->v);
}

/*
 * Start the log of changes again: anything may have changed.  Its new
 * epoch comes from the counter the tracker keeps for all its engines
 * (engine_track_changes): a reader that kept an epoch never sees it
 * again in another of them (a clone, one allocated where a freed one
 * was) or after a log started again.
 */
void
engine_changes_reset(struct engine *e)
{
	e->nlog = 0;
	e->epoch = e->epochs != NULL ? ++*e->epochs : 0;
}

/*
 * The log of changes is full: grow it to at least 64 Ki entries and 4
 * per task, or, that big already, start it again.  Out of line, so the
 * queue operations that log stay small.
 */
void __attribute__((noinline))
engine_log_full(struct engine *e)
{
	size_t	want;

	want = (size_t)e->ntasks * 4;
	if (want < 65536)
		want = 65536;
	if (e->log_size >= want) {
		engine_changes_reset(e);
	} else {
		e->log = xreallocarray(e->log, want, sizeof *e->log);
		e->log_size = want;
	}
}
