/*
 * table.h -- the article's table for one task (SPEC.md section 3): for
 * each descent of its staircase, the ticks it ran at each rank from its
 * static priority down to 139.  Pure: fed one tick at a time, formatted
 * to text, or read back row by row for the protocol's "table" command.
 */
#ifndef STAIRS_TABLE_H
#define STAIRS_TABLE_H

#include <stddef.h>
#include <stdint.h>

struct table;

struct table	*table_create(int nice, int rr, int max_rows);
void		 table_free(struct table *);
/* One tick run at rank in descent (struct engine_cpu_info's fields). */
void		 table_add(struct table *, uint32_t descent, int rank);
/* The text of SPEC.md section 3; the caller frees it. */
char		*table_format(const struct table *);

/* Raw reading: the static priority (column 0), columns, rr, rows. */
int		 table_base(const struct table *);
int		 table_stairs(const struct table *);
int		 table_rr(const struct table *);
size_t		 table_nrows(const struct table *);
/* Row i (oldest first): its descent; *ticks gets table_stairs() counts. */
uint32_t	 table_row(const struct table *, size_t i,
		    const uint32_t **ticks);
/* One cell's text: ticks / rr, whole or with one decimal, "" if zero. */
void		 table_cell(uint32_t ticks, int rr, char *buf, size_t len);

#endif
