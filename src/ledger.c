/*
 * ledger.c -- the article's table of every task, for `table`.
 *
 * A map from task id to its table (table.c: a ring of its most recent
 * descents, ticks counted per stair), made when the task first runs, and
 * the protocol's lines for one.  Memory is bounded per task by the
 * table's row bound, and the daemon's max_tasks bounds the tasks; a task
 * that never ran takes a pointer.
 */
#include <event2/buffer.h>

#include <stdlib.h>
#include <string.h>

#include "ledger.h"
#include "table.h"
#include "wire.h"
#include "xmalloc.h"

struct ledger {
	struct table	**tasks;	/* tasks[id - 1], NULL: not run */
	int		  ntasks;
	int		  max_rows;
	uint64_t	  since;	/* the ticks before are not counted */
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
		table_free(l->tasks[i]);
	free(l->tasks);
	free(l);
}

/* Count one tick run by task id at stair (rank - static) in descent. */
void
ledger_add(struct ledger *l, int id, uint32_t descent, int stair)
{
	int	n;

	if (id < 1 || stair < 0 || stair >= TABLE_STAIRS)
		return;
	if (id > l->ntasks) {
		n = id > l->ntasks * 2 ? id : l->ntasks * 2;
		l->tasks = xreallocarray(l->tasks, n, sizeof *l->tasks);
		memset(l->tasks + l->ntasks, 0,
		    (n - l->ntasks) * sizeof *l->tasks);
		l->ntasks = n;
	}
	if (l->tasks[id - 1] == NULL)
		l->tasks[id - 1] = table_create(l->max_rows);
	table_add(l->tasks[id - 1], descent, stair);
}

/* Task id's table, or NULL if it has not run. */
const struct table *
ledger_table(const struct ledger *l, int id)
{
	if (id < 1 || id > l->ntasks)
		return (NULL);
	return (l->tasks[id - 1]);
}

/* The bytes the ledger has allocated. */
size_t
ledger_memory(const struct ledger *l)
{
	size_t	n = sizeof *l + (size_t)l->ntasks * sizeof *l->tasks;
	int	i;

	for (i = 0; i < l->ntasks; i++) {
		if (l->tasks[i] != NULL)
			n += table_memory(l->tasks[i]);
	}
	return (n);
}

/* Say the counts start at tick since (the ticks before not counted). */
void
ledger_set_since(struct ledger *l, uint64_t since)
{
	l->since = since;
}

/* The tick the counts start at. */
uint64_t
ledger_since(const struct ledger *l)
{
	return (l->since);
}

/* How many descents are kept for a task. */
int
ledger_rows(const struct ledger *l, int id)
{
	const struct table	*t = ledger_table(l, id);

	return (t != NULL ? (int)table_nrows(t) : 0);
}

/*
 * The table's lines for a task: a header, then one row per descent kept,
 * oldest first, with the ticks run on each stair from Base down.  There
 * are as many columns as the task has stairs now, or more if it ran
 * lower before a renice.  The counts are up to tick now, which the
 * line says (now=): the tick shown (session_ledger gives the past's
 * counts while the past is shown).  descent= is the descent ti is in
 * then: right after a fall-off, one no row counts yet.
 */
void
ledger_write(const struct ledger *l, int id, const struct engine_task_info *ti,
    int rr, uint64_t now, struct evbuffer *out)
{
	const struct table	*t = ledger_table(l, id);
	const uint32_t		*ticks;
	uint32_t		 d;
	size_t			 i, n;
	int			 j, cols;

	cols = table_columns(t, ti->stair.prio);
	n = t != NULL ? table_nrows(t) : 0;
#define K(id)	wire_key(&wire_table, id)
	evbuffer_add_printf(out, "%s %s=%d %s=%s %s=%d %s=%d %s=%d %s=%zu "
	    "%s=%llu %s=%llu %s=%lu", wire_table.word, K(WIRE_TABLE_TASK), id,
	    K(WIRE_TABLE_NAME), ti->name, K(WIRE_TABLE_BASE), ti->stair.prio,
	    K(WIRE_TABLE_STAIRS), cols, K(WIRE_TABLE_RR), rr,
	    K(WIRE_TABLE_ROWS), n, K(WIRE_TABLE_DROPPED),
	    t != NULL ? (unsigned long long)table_dropped(t) : 0ULL,
	    K(WIRE_TABLE_NOW), (unsigned long long)now,
	    K(WIRE_TABLE_DESCENT), (unsigned long)ti->stair.descent);
	/* Counted again from a keyframe after tick 0 (session.c). */
	if (l->since > 0)
		evbuffer_add_printf(out, " %s=%llu", K(WIRE_TABLE_SINCE),
		    (unsigned long long)l->since);
#undef K
	evbuffer_add(out, "\n", 1);
	for (i = 0; i < n; i++) {
		d = table_row(t, i, &ticks);
		evbuffer_add_printf(out, "%s %s=%u %s=", wire_row.word,
		    wire_key(&wire_row, WIRE_ROW_ITER), d,
		    wire_key(&wire_row, WIRE_ROW_TICKS));
		for (j = 0; j < cols; j++)
			evbuffer_add_printf(out, "%s%u", j == 0 ? "" : ",",
			    ticks[j]);
		evbuffer_add(out, "\n", 1);
	}
}
