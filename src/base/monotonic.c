/*
 * monotonic.c -- CLOCK_MONOTONIC in ns, the time base of the daemon's
 * clock and of the real processes' layer alike (so their times compare).
 */
#include <stdint.h>
#include <time.h>

#include "monotonic.h"

/* CLOCK_MONOTONIC in ns. */
uint64_t
monotonic_ns(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec);
}
