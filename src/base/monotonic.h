/*
 * monotonic.h -- the one reading of CLOCK_MONOTONIC (monotonic.c).
 */
#ifndef STAIRS_MONOTONIC_H
#define STAIRS_MONOTONIC_H

#include <stdint.h>

uint64_t	monotonic_ns(void);

#endif
