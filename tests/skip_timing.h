/*
 * skip_timing.h -- for the tests that sample real processes' timing
 * (test_proc, test_observe, test_hold, test_perfetto ...).
 */
#ifndef STAIRS_SKIP_TIMING_H
#define STAIRS_SKIP_TIMING_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Should the checks that sample real processes' timing be skipped?  The
 * SAN=1 run sets STAIRS_SKIP_TIMING=1: those checks ran in the plain
 * build, and under ASan they measure the sanitizer, not the scheduler.
 * Says so if they are.
 */
static __attribute__((unused)) int
harness_skip_timing(const char *what)
{
	const char	*env = getenv("STAIRS_SKIP_TIMING");

	if (env == NULL || *env == '\0' || strcmp(env, "0") == 0)
		return (0);
	fprintf(stderr, "# skipped %s: it samples timing, checked in the "
	    "plain build (STAIRS_SKIP_TIMING is set)\n", what);
	return (1);
}

#endif
