/*
 * bursts.h -- a task's recorded bursts (SPEC.md section 11: the task key
 * `bursts`, run and sleep times in microseconds) as engine ticks.
 */
#ifndef STAIRS_BURSTS_H
#define STAIRS_BURSTS_H

#include <stddef.h>
#include <stdint.h>

#define BURSTS_MAX_US	INT64_C(1000000000000)	/* one value: ~11.6 days */

/* What bursts_ticks() made of a list. */
struct bursts_ticks {
	uint32_t	*pattern;	/* run, sleep, ...: even, for the
					   engine; the last sleep unused */
	size_t		 npattern;
	uint64_t	 lead;		/* ticks of sleep before the first run */
	uint64_t	 ran;		/* ticks of CPU in all */
	size_t		 runs;		/* run bursts kept */
	size_t		 runs_in;	/* run bursts given (non-zero) */
};

int	bursts_ticks(const uint64_t *us, size_t n, struct bursts_ticks *,
	    char **cause);
void	bursts_free(struct bursts_ticks *);

#endif
