/*
 * table.h -- the article's table for one task (SPEC.md section 3): for
 * each of its most recent descents, the ticks it ran on each stair from
 * its static priority down.  The one accumulator behind headless
 * `--table` and the daemon's `table` command (tables.c keeps one per
 * task), and the one cell rule, which the client's article view uses too.
 */
#ifndef STAIRS_TABLE_H
#define STAIRS_TABLE_H

#include <stddef.h>
#include <stdint.h>

#define TABLE_STAIRS	40	/* the most stairs a task has: nice -20 */
#define TABLE_ROWS	200	/* descents kept, headless and live */

struct table;

struct table	*table_create(int max_rows);
void		 table_free(struct table *);
/* One tick run on stair (rank less the static priority then) in descent. */
void		 table_add(struct table *, uint32_t descent, int stair);
/* The text of SPEC.md section 3 for static priority base; caller frees. */
char		*table_format(const struct table *, int base, int rr);

/* Raw reading, for the protocol's `table` reply. */
size_t		 table_nrows(const struct table *);
/* Row i (oldest first): its descent; *ticks gets TABLE_STAIRS counts. */
uint32_t	 table_row(const struct table *, size_t i,
		    const uint32_t **ticks);
/* Columns: a task of static priority base's stairs, or more if it ran lower. */
int		 table_columns(const struct table *, int base);
/* Ticks counted in descents no longer kept. */
uint64_t	 table_dropped(const struct table *);
size_t		 table_memory(const struct table *);

#endif
