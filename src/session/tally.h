/*
 * tally.h -- what each task of an engine got, counted tick by tick from
 * a start (SPEC.md section 10, the live side by side): ticks run, runs
 * (starts after not running) and wake-up latencies (ticks from becoming
 * runnable to running), counted as headless --compare counts them
 * (SPEC.md section 6), so that the live numbers are its numbers.
 */
#ifndef STAIRS_TALLY_H
#define STAIRS_TALLY_H

#include <stdint.h>

#include "engine.h"

/* Latencies kept per task for its percentiles: the last this many. */
#define TALLY_WINDOW	256

struct tally;

/* One task's numbers. */
struct tally_row {
	uint64_t	ran;		/* ticks run */
	uint64_t	runs;		/* starts after not running */
	uint64_t	wakes;		/* latencies counted (all of them) */
	uint64_t	p50, p95;	/* nearest rank, of the last window */
	uint64_t	max;		/* of all */
};

/* A tally from tick since on. */
struct tally	*tally_create(uint64_t since);
void		 tally_free(struct tally *);
/* Count tick (just run by e): its wakes, then what each CPU ran. */
void		 tally_tick(struct tally *, const struct engine *,
		    uint64_t tick);
uint64_t	 tally_since(const struct tally *);
uint64_t	 tally_ticks(const struct tally *);	/* counted */
/* Task id's numbers (all 0 for one never counted); caches percentiles. */
void		 tally_row(struct tally *, int id, struct tally_row *);

#endif
