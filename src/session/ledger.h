/*
 * ledger.h -- the article's table (table.h) of every task, kept live by
 * the daemon for the protocol's `table` command (SPEC.md section 3, as
 * raw tick counts).
 */
#ifndef STAIRS_LEDGER_H
#define STAIRS_LEDGER_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"

struct ledger;
struct table;

struct ledger *ledger_create(int max_rows);
void	ledger_free(struct ledger *);
void	ledger_add(struct ledger *, int id, uint32_t descent, int stair);
int	ledger_rows(const struct ledger *, int id);
/* The tick the counts start at (0 unless counted again from later). */
void	ledger_set_since(struct ledger *, uint64_t);
uint64_t ledger_since(const struct ledger *);
size_t	ledger_memory(const struct ledger *);
/* Task id's table, NULL until it has run. */
const struct table *ledger_table(const struct ledger *, int id);

#endif
