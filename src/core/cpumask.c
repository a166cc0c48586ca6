/*
 * cpumask.c -- CPU sets: bit operations, and the "0-2,5" list syntax used
 * by scenario files, protocol commands and cgroup cpuset files.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpumask.h"
#include "quote.h"
#include "xmalloc.h"

/* Empty the set. */
void
cpumask_zero(struct cpumask *m)
{
	memset(m, 0, sizeof *m);
}

/* Set CPUs 0..ncpus-1 and nothing else. */
void
cpumask_fill(struct cpumask *m, int ncpus)
{
	int	c;

	cpumask_zero(m);
	for (c = 0; c < ncpus && c < CPUMASK_MAX; c++)
		cpumask_set(m, c);
}

/* Add one CPU. */
void
cpumask_set(struct cpumask *m, int cpu)
{
	if (cpu >= 0 && cpu < CPUMASK_MAX)
		m->bits[cpu / 64] |= (uint64_t)1 << (cpu % 64);
}

/* Remove one CPU. */
void
cpumask_clear(struct cpumask *m, int cpu)
{
	if (cpu >= 0 && cpu < CPUMASK_MAX)
		m->bits[cpu / 64] &= ~((uint64_t)1 << (cpu % 64));
}

/* Is this CPU in the set? */
int
cpumask_test(const struct cpumask *m, int cpu)
{
	if (cpu < 0 || cpu >= CPUMASK_MAX)
		return (0);
	return ((m->bits[cpu / 64] >> (cpu % 64)) & 1);
}

/* Is the set empty? */
int
cpumask_empty(const struct cpumask *m)
{
	int	i;

	for (i = 0; i < CPUMASK_WORDS; i++)
		if (m->bits[i] != 0)
			return (0);
	return (1);
}

/* How many CPUs are in the set. */
int
cpumask_count(const struct cpumask *m)
{
	int	i, n = 0;

	for (i = 0; i < CPUMASK_WORDS; i++)
		n += __builtin_popcountll(m->bits[i]);
	return (n);
}

/* The lowest CPU in the set, or -1. */
int
cpumask_first(const struct cpumask *m)
{
	return (cpumask_next(m, -1));
}

/* The lowest CPU above cpu in the set, or -1. */
int
cpumask_next(const struct cpumask *m, int cpu)
{
	return (cpumask_bits_next(m->bits, CPUMASK_WORDS, cpu));
}

/*
 * The lowest set bit above `after` in nwords words, or -1.  Also serves
 * the engine's 140-bit rank bitmaps.
 */
int
cpumask_bits_next(const uint64_t *words, int nwords, int after)
{
	int		i, bit = after + 1;
	uint64_t	w;

	if (bit < 0)
		bit = 0;
	for (i = bit / 64; i < nwords; i++) {
		w = words[i];
		if (i == bit / 64)
			w &= ~(uint64_t)0 << (bit % 64);
		if (w != 0)
			return (i * 64 + __builtin_ctzll(w));
	}
	return (-1);
}

/* Are two sets the same? */
int
cpumask_equal(const struct cpumask *a, const struct cpumask *b)
{
	return (memcmp(a, b, sizeof *a) == 0);
}

/* dst = a & b. */
void
cpumask_and(struct cpumask *dst, const struct cpumask *a,
    const struct cpumask *b)
{
	int	i;

	for (i = 0; i < CPUMASK_WORDS; i++)
		dst->bits[i] = a->bits[i] & b->bits[i];
}

/* Read one decimal CPU number at *sp; -1 if there is none. */
static long
cpumask_number(const char **sp)
{
	const char	*s = *sp;
	long		 n = 0;

	if (!isdigit((unsigned char)*s))
		return (-1);
	while (isdigit((unsigned char)*s)) {
		n = n * 10 + (*s - '0');
		if (n > INT_MAX)
			return (-1);
		s++;
	}
	*sp = s;
	return (n);
}

/*
 * Parse a CPU list such as "0-2,5" into m.  Every CPU must be below ncpus;
 * an empty list is an error.  Returns 0, or -1 with *cause set.
 */
int
cpumask_parse(const char *s, int ncpus, struct cpumask *m, char **cause)
{
	const char	*p = s;
	char		 q[QUOTE_SIZE];
	long		 lo, hi, c;

	cpumask_zero(m);
	for (;;) {
		if ((lo = cpumask_number(&p)) < 0)
			goto bad;
		hi = lo;
		if (*p == '-') {
			p++;
			if ((hi = cpumask_number(&p)) < 0 || hi < lo)
				goto bad;
		}
		if (hi >= ncpus) {
			/* The first CPU of the range that is outside. */
			*cause = xasprintf("cpu %ld is outside 0..%d in %s",
			    lo >= ncpus ? lo : (long)ncpus, ncpus - 1,
			    quote_word(s, q, sizeof q));
			return (-1);
		}
		for (c = lo; c <= hi; c++)
			cpumask_set(m, (int)c);
		if (*p == '\0')
			break;
		if (*p != ',')
			goto bad;
		p++;
	}
	return (0);
bad:
	*cause = xasprintf("bad cpu list %s (expected e.g. 0-2,5)",
	    quote_word(s, q, sizeof q));
	return (-1);
}

/* Format m as a CPU list into buf ("-" when empty); returns buf. */
char *
cpumask_format(const struct cpumask *m, char *buf, size_t len)
{
	size_t	off = 0;
	int	c, end;

	if (len == 0)
		return (buf);
	buf[0] = '\0';
	for (c = cpumask_first(m); c >= 0; c = cpumask_next(m, end)) {
		end = c;
		while (cpumask_test(m, end + 1))
			end++;
		if (off < len) {
			if (end == c)
				off += snprintf(buf + off, len - off, "%s%d",
				    off ? "," : "", c);
			else
				off += snprintf(buf + off, len - off, "%s%d-%d",
				    off ? "," : "", c, end);
		}
	}
	if (off == 0)
		snprintf(buf, len, "-");
	return (buf);
}
