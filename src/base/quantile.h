/*
 * quantile.h -- percentiles of a set of uint64_t samples (quantile.c).
 */
#ifndef STAIRS_QUANTILE_H
#define STAIRS_QUANTILE_H

#include <stddef.h>
#include <stdint.h>

void		quantile_sort(uint64_t *v, size_t n);
uint64_t	quantile_rank(const uint64_t *v, size_t n, int pct);

#endif
