/*
 * prio_array.c -- the priority array's cold half: walking the bitmap
 * and the audit (the hot half is inline in prio_array.h; an array of
 * zeroes is empty).
 */

#include "cpumask.h"
#include "prio_array.h"
#include "xmalloc.h"

/* The next non-empty rank above r, or -1. */
int
prio_array_next(const struct prio_array *a, int r)
{
	return (cpumask_bits_next(a->bitmap, PRIO_WORDS, r));
}

/*
 * Who runs after id, queued at rank r, if it left now: the next in its
 * rank's list, else the head of the next rank in use; 0 if none.
 */
int
prio_array_after(const struct prio_array *a, const struct prio_links *l,
    int id, int r)
{
	int	next;

	if ((next = l->next[id]) == 0 && (r = prio_array_next(a, r)) >= 0)
		next = a->head[r];
	return (next);
}

/* Audit links, tails, bitmap and count, visiting every queued id. */
int
prio_array_check(const struct prio_array *a, const struct prio_links *l,
    int maxid, int (*visit)(void *, int, int, char **), void *arg,
    char **cause)
{
	int	r, id, prev, bit, n = 0;

	for (r = 0; r < PRIO_NRANKS; r++) {
		bit = (a->bitmap[r / 64] >> (r % 64)) & 1;
		if (bit != (a->head[r] != 0)) {
			*cause = xasprintf("rank %d: bitmap %d but head %d", r,
			    bit, a->head[r]);
			return (-1);
		}
		prev = 0;
		for (id = a->head[r]; id != 0; id = l->next[id]) {
			if (id < 1 || id > maxid || l->prev[id] != prev) {
				*cause = xasprintf("rank %d: bad link at %d",
				    r, id);
				return (-1);
			}
			if (visit != NULL && visit(arg, id, r, cause) != 0)
				return (-1);
			prev = id;
			if (++n > maxid) {
				*cause = xasprintf("rank %d: loop", r);
				return (-1);
			}
		}
		if (a->tail[r] != prev) {
			*cause = xasprintf("rank %d: bad tail", r);
			return (-1);
		}
	}
	if (n != a->nr) {
		*cause = xasprintf("nr %d but %d queued", a->nr, n);
		return (-1);
	}
	return (0);
}
