/*
 * tables.h -- the article's table (table.h) of every task, kept live by
 * the daemon for the protocol's `table` command (SPEC.md section 3, as
 * raw tick counts).
 */
#ifndef STAIRS_TABLES_H
#define STAIRS_TABLES_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"

struct tables;
struct table;

struct tables *tables_create(int max_rows);
void	tables_free(struct tables *);
void	tables_add(struct tables *, int id, uint32_t descent, int stair);
int	tables_rows(const struct tables *, int id);
/* The tick the counts start at (0 unless counted again from later). */
void	tables_set_since(struct tables *, uint64_t);
uint64_t tables_since(const struct tables *);
size_t	tables_memory(const struct tables *);
/* Task id's table, NULL until it has run. */
const struct table *tables_table(const struct tables *, int id);

#endif
