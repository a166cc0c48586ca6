/*
 * headless-compare.h -- stairsd --headless --compare: one scenario run
 * under each policy of a list, side by side (headless-compare.c).
 */
#ifndef STAIRS_HEADLESS_COMPARE_H
#define STAIRS_HEADLESS_COMPARE_H

#include <stdint.h>

struct scenario;
struct session_setup;

/* 0 if every name of the comma-separated list is a policy or "kernel". */
int	headless_compare_check(const char *names);
/* Run sc for ticks under each policy of names, from base; 0 or 2. */
int	headless_compare(const char *names, uint64_t ticks,
	    const struct scenario *sc, const struct session_setup *base,
	    int every_tick);

#endif
