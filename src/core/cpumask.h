/*
 * cpumask.h -- fixed-size CPU sets for up to CPUMASK_MAX engine CPUs.
 *
 * A plain value type: copy it, compare it, no allocation.  Parsing and
 * formatting use the kernel's list syntax ("0-2,5").
 */
#ifndef STAIRS_CPUMASK_H
#define STAIRS_CPUMASK_H

#include <stddef.h>
#include <stdint.h>

#define CPUMASK_MAX	256
#define CPUMASK_WORDS	(CPUMASK_MAX / 64)

struct cpumask {
	uint64_t	bits[CPUMASK_WORDS];
};

void	cpumask_zero(struct cpumask *);
void	cpumask_fill(struct cpumask *, int ncpus);
void	cpumask_set(struct cpumask *, int cpu);
void	cpumask_clear(struct cpumask *, int cpu);
int	cpumask_test(const struct cpumask *, int cpu);
int	cpumask_empty(const struct cpumask *);
int	cpumask_count(const struct cpumask *);
int	cpumask_first(const struct cpumask *);
int	cpumask_next(const struct cpumask *, int cpu);
int	cpumask_equal(const struct cpumask *, const struct cpumask *);
void	cpumask_and(struct cpumask *, const struct cpumask *,
	    const struct cpumask *);
int	cpumask_parse(const char *, int ncpus, struct cpumask *,
	    char **cause);
/* The lowest set bit above `after` in an array of words, or -1. */
int	cpumask_bits_next(const uint64_t *, int nwords, int after);
char   *cpumask_format(const struct cpumask *, char *buf, size_t len);

#define CPUMASK_FOREACH(c, m) \
	for ((c) = cpumask_first(m); (c) >= 0; (c) = cpumask_next((m), (c)))

#endif
