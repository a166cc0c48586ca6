/*
 * weight.h -- the load weights of the fair schedulers (weight.c), the
 * same in 2.6.24's CFS and 6.6's EEVDF: nice 0 weighs 1024 and each
 * nice level about 1.25 times the next.
 */
#ifndef STAIRS_WEIGHT_H
#define STAIRS_WEIGHT_H

#include <stdint.h>

#define NICE_0_LOAD	1024

/* Indexed by nice + 20: the weight, and 2^32 / weight. */
extern const uint32_t sched_prio_to_weight[40];
extern const uint32_t sched_prio_to_wmult[40];

#endif
