/*
 * prio_array.h -- a priority array: 140 FIFO lists, one per rank, and a
 * bitmap of the non-empty ones, as the 2.6 kernel's struct prio_array.
 *
 * The staircase keeps one per CPU, the O(1) scheduler two (active and
 * expired).  The lists are threaded through tasks by id (0 = none) in
 * link arrays the engine owns (struct prio_links), so a requeue touches
 * 8 bytes of its neighbours, not their whole task; a task is on at most
 * one list at a time.  The hot operations are inline: the engine runs
 * them several times per CPU-tick.
 */
#ifndef STAIRS_PRIO_ARRAY_H
#define STAIRS_PRIO_ARRAY_H

#include <stdint.h>

#define PRIO_NRANKS	140
#define PRIO_WORDS	((PRIO_NRANKS + 63) / 64)

/* The links of every task, indexed by id; [0] is unused. */
struct prio_links {
	int	*next, *prev;
};

struct prio_array {
	int		nr;			/* tasks on the lists */
	uint64_t	bitmap[PRIO_WORDS];
	int		head[PRIO_NRANKS];
	int		tail[PRIO_NRANKS];
};

/* The next non-empty rank above r, or -1. */
int	prio_array_next(const struct prio_array *, int r);
/* Who runs after id, queued at rank r, if it left: 0 if none. */
int	prio_array_after(const struct prio_array *, const struct prio_links *,
	    int id, int r);
/*
 * Audit the lists and bitmap; each queued id is passed to visit (which
 * returns -1 with *cause set to stop).  Returns 0, or -1 with *cause.
 */
int	prio_array_check(const struct prio_array *, const struct prio_links *,
	    int maxid, int (*visit)(void *, int id, int rank, char **),
	    void *arg, char **cause);

/* Append id at the tail of rank r's list. */
static inline void
prio_array_add_tail(struct prio_array *a, const struct prio_links *l, int id,
    int r)
{
	l->next[id] = 0;
	l->prev[id] = a->tail[r];
	if (a->tail[r] != 0)
		l->next[a->tail[r]] = id;
	else
		a->head[r] = id;
	a->tail[r] = id;
	a->bitmap[(unsigned)r / 64] |= (uint64_t)1 << ((unsigned)r % 64);
	a->nr++;
}

/* Take id off rank r's list. */
static inline void
prio_array_del(struct prio_array *a, const struct prio_links *l, int id, int r)
{
	int	prev = l->prev[id], next = l->next[id];

	if (prev != 0)
		l->next[prev] = next;
	else
		a->head[r] = next;
	if (next != 0)
		l->prev[next] = prev;
	else
		a->tail[r] = prev;
	if (a->head[r] == 0)
		a->bitmap[(unsigned)r / 64] &= ~((uint64_t)1 <<
		    ((unsigned)r % 64));
	a->nr--;
	l->prev[id] = l->next[id] = 0;
}

/* The best (lowest) non-empty rank, or -1. */
static inline int
prio_array_best(const struct prio_array *a)
{
	int	i;

	for (i = 0; i < PRIO_WORDS; i++)
		if (a->bitmap[i] != 0)
			return (i * 64 + __builtin_ctzll(a->bitmap[i]));
	return (-1);
}

/* The head of the best non-empty rank, or 0. */
static inline int
prio_array_first(const struct prio_array *a)
{
	int	r = prio_array_best(a);

	return (r < 0 ? 0 : a->head[r]);
}

#endif
