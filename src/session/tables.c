/*
 * tables.c -- the article's table of every task, for `table`.
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

#include "tables.h"
#include "table.h"
#include "xmalloc.h"

struct tables {
	struct table	**tasks;	/* tasks[id - 1], NULL: not run */
	int		  ntasks;
	int		  max_rows;
	uint64_t	  since;	/* the ticks before are not counted */
};

/* Empty tables keeping at most max_rows descents per task. */
struct tables *
tables_create(int max_rows)
{
	struct tables	*l;

	l = xcalloc(1, sizeof *l);
	l->max_rows = max_rows;
	return (l);
}

/* Free the tables. */
void
tables_free(struct tables *l)
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
tables_add(struct tables *l, int id, uint32_t descent, int stair)
{
	if (id < 1 || stair < 0 || stair >= TABLE_STAIRS)
		return;
	l->tasks = xgrowto(l->tasks, &l->ntasks, id, sizeof *l->tasks);
	if (l->tasks[id - 1] == NULL)
		l->tasks[id - 1] = table_create(l->max_rows);
	table_add(l->tasks[id - 1], descent, stair);
}

/* Task id's table, or NULL if it has not run. */
const struct table *
tables_table(const struct tables *l, int id)
{
	if (id < 1 || id > l->ntasks)
		return (NULL);
	return (l->tasks[id - 1]);
}

/* The bytes the tables have allocated. */
size_t
tables_memory(const struct tables *l)
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
tables_set_since(struct tables *l, uint64_t since)
{
	l->since = since;
}

/* The tick the counts start at. */
uint64_t
tables_since(const struct tables *l)
{
	return (l->since);
}

/* How many descents are kept for a task. */
int
tables_rows(const struct tables *l, int id)
{
	const struct table	*t = tables_table(l, id);

	return (t != NULL ? (int)table_nrows(t) : 0);
}
