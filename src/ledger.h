/*
 * ledger.h -- per-task counts of the ticks run at each rank in each
 * descent, kept live by the daemon for the protocol's `table` command
 * (the article's table, SPEC.md section 3, as raw tick counts).
 */
#ifndef STAIRS_LEDGER_H
#define STAIRS_LEDGER_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"

struct evbuffer;
struct ledger;

struct ledger *ledger_create(int max_rows);
void	ledger_free(struct ledger *);
void	ledger_add(struct ledger *, int id, uint32_t descent, int stair);
int	ledger_rows(const struct ledger *, int id);
size_t	ledger_memory(const struct ledger *);
void	ledger_write(const struct ledger *, int id,
	    const struct engine_task_info *, int rr, struct evbuffer *);

#endif
