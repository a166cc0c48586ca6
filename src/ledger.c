/*
 * ledger.c -- ticks per (descent, rank) for every task, for `table`.
 *
 * A task's descents only grow, so each task keeps an array of rows and
 * only ever adds to the last one or appends.  Ticks are counted by stair
 * (rank less the static priority at that tick: the table's columns Base,
 * -1, -2 ...), so a nice change in the middle of a run keeps the columns
 * meaning what they say.  Rows past max_rows are not kept (the table
 * says how many were dropped), and room for more is never allocated:
 * memory stays bounded per task (max_rows rows of LEDGER_STAIRS counts,
 * 32 KB for the daemon's 200) however long the daemon runs, and the
 * daemon's max_tasks bounds the tasks.
 */
#include <event2/buffer.h>

#include <stdlib.h>
#include <string.h>

#include "ledger.h"
#include "xmalloc.h"

#define LEDGER_STAIRS	40	/* nice -20: 40 stairs */

struct ledger_row {
	uint32_t	descent;
	uint32_t	ticks[LEDGER_STAIRS];
};

struct ledger_task {
	struct ledger_row	*rows;
	int			 nrows, size;
	int			 widest;	/* highest stair run + 1 */
	uint64_t		 dropped;	/* ticks in rows not kept */
};

struct ledger {
	struct ledger_task	*tasks;		/* tasks[id - 1] */
	int			 ntasks;
	int			 max_rows;
};

/* An empty ledger keeping at most max_rows descents per task. */
struct ledger *
ledger_create(int max_rows)
{
	struct ledger	*l;

	l = xcalloc(1, sizeof *l);
	l->max_rows = max_rows;
	return (l);
}

/* Free a ledger. */
void
ledger_free(struct ledger *l)
{
	int	i;

	if (l == NULL)
		return;
	for (i = 0; i < l->ntasks; i++)
		free(l->tasks[i].rows);
	free(l->tasks);
	free(l);
}

/* Count one tick run by task id at stair (rank - static) in descent. */
void
ledger_add(struct ledger *l, int id, uint32_t descent, int stair)
{
	struct ledger_task	*t;
	struct ledger_row	*r;
	int			 n;

	if (id < 1 || stair < 0 || stair >= LEDGER_STAIRS)
		return;
	if (id > l->ntasks) {
		n = id > l->ntasks * 2 ? id : l->ntasks * 2;
		l->tasks = xreallocarray(l->tasks, n, sizeof *l->tasks);
		memset(l->tasks + l->ntasks, 0,
		    (n - l->ntasks) * sizeof *l->tasks);
		l->ntasks = n;
	}
	t = &l->tasks[id - 1];
	if (t->nrows == 0 || t->rows[t->nrows - 1].descent != descent) {
		if (t->nrows == l->max_rows) {
			t->dropped++;
			return;
		}
		if (t->nrows == t->size) {
			/* Doubling, but never past max_rows: bounded per task. */
			t->size = t->size ? t->size * 2 : 4;
			if (t->size > l->max_rows)
				t->size = l->max_rows;
			t->rows = xreallocarray(t->rows, t->size,
			    sizeof *t->rows);
		}
		r = &t->rows[t->nrows++];
		memset(r, 0, sizeof *r);
		r->descent = descent;
	}
	t->rows[t->nrows - 1].ticks[stair]++;
	if (stair + 1 > t->widest)
		t->widest = stair + 1;
}

/* The bytes the ledger has allocated. */
size_t
ledger_memory(const struct ledger *l)
{
	size_t	n = sizeof *l + (size_t)l->ntasks * sizeof *l->tasks;
	int	i;

	for (i = 0; i < l->ntasks; i++)
		n += (size_t)l->tasks[i].size * sizeof *l->tasks[i].rows;
	return (n);
}

/* How many descents are kept for a task. */
int
ledger_rows(const struct ledger *l, int id)
{
	if (id < 1 || id > l->ntasks)
		return (0);
	return (l->tasks[id - 1].nrows);
}

/*
 * The table's lines for a task: a header, then one row per descent with
 * the ticks run on each stair from Base down.  There are as many columns
 * as the task has stairs now, or more if it ran lower before a renice.
 */
void
ledger_write(const struct ledger *l, int id, const struct engine_task_info *ti,
    int rr, struct evbuffer *out)
{
	const struct ledger_task	*t = NULL;
	const struct ledger_row		*r;
	int				 i, j, cols;

	if (id >= 1 && id <= l->ntasks)
		t = &l->tasks[id - 1];
	cols = ENGINE_NRANKS - ti->stair.prio;
	if (t != NULL && t->widest > cols)
		cols = t->widest;
	evbuffer_add_printf(out, "table task=%d name=%s base=%d stairs=%d "
	    "rr=%d rows=%d dropped=%llu\n", id, ti->name, ti->stair.prio,
	    cols, rr, t != NULL ? t->nrows : 0,
	    t != NULL ? (unsigned long long)t->dropped : 0ULL);
	if (t == NULL)
		return;
	for (i = 0; i < t->nrows; i++) {
		r = &t->rows[i];
		evbuffer_add_printf(out, "row iter=%u ticks=", r->descent);
		for (j = 0; j < cols; j++)
			evbuffer_add_printf(out, "%s%u", j == 0 ? "" : ",",
			    r->ticks[j]);
		evbuffer_add(out, "\n", 1);
	}
}
