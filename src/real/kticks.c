/*
 * kticks.c -- the kernel's runs of the children on the engine's ticks
 * (kticks.h).
 *
 * Per physical CPU, time is cut into segments, each held by one thing:
 * a child's run (from its switch in to its switch out), or a gap between
 * two runs.  What held a gap is known only at its ends, from the two
 * switches that bound it: the first run's switch out names what came
 * next (idle or another process), the second run's switch in what came
 * before.  The kernel's events name only switches with a child on one
 * side, so what happened in between is not known: when the two ends
 * agree the gap is theirs, when not (the CPU went idle, and the child
 * came back from another process) it is cut in the middle.  After the
 * last run closed: what it switched to, up to the run open now, if any.
 * A gap with no known start (before the first run, after lost records,
 * or where runs are missing: a seq that jumps) is not known.  A tick's
 * answer is what covers most of its span.
 */
#include <stdlib.h>
#include <string.h>

#include "kticks.h"
#include "xmalloc.h"

#define KRUNS_SEGS	(4 * PROCS_KRUNS)	/* kept per CPU at most */
#define KRUNS_VOTES	16			/* kinds counted in a tick */

/* [from, to) held by what (a task id or KRUNS_*). */
struct kticks_seg {
	uint64_t	from;
	uint64_t	to;
	int		what;
};

/* One physical CPU: its segments oldest first, seg[first..n). */
struct kticks_cpu {
	struct kticks_seg	*seg;
	size_t			 first, n, size;
	uint64_t		 seq;		/* the last run's; 0: none yet */
	uint64_t		 end;		/* where it ended */
	int			 after;		/* what it switched to */
};

struct kticks {
	int			 ncpu;
	struct kticks_cpu	*cpu;
};

/* Runs for nphys physical CPUs. */
struct kticks *
kticks_create(int nphys)
{
	struct kticks	*k;
	int		 c;

	k = xcalloc(1, sizeof *k);
	k->ncpu = nphys > 0 ? nphys : 0;
	k->cpu = xcalloc(k->ncpu > 0 ? k->ncpu : 1, sizeof *k->cpu);
	for (c = 0; c < k->ncpu; c++)
		k->cpu[c].after = KRUNS_UNKNOWN;
	return (k);
}

/* Free them. */
void
kticks_free(struct kticks *k)
{
	int	c;

	if (k == NULL)
		return;
	for (c = 0; c < k->ncpu; c++)
		free(k->cpu[c].seg);
	free(k->cpu);
	free(k);
}

/* What a switch's other side was: 0 the idle task, else a process. */
static int
kticks_what(pid_t pid)
{
	return (pid == 0 ? KRUNS_IDLE : KRUNS_OTHER);
}

/*
 * Add a segment at the end (the oldest goes past KRUNS_SEGS).  The array
 * is compacted only once the segments gone are as many as those kept, so
 * a CPU at KRUNS_SEGS moves them once per KRUNS_SEGS pushes, not each.
 */
static void
kticks_push(struct kticks_cpu *kc, uint64_t from, uint64_t to, int what)
{
	if (to <= from)
		return;
	if (kc->n - kc->first >= KRUNS_SEGS)
		kc->first++;
	if (kc->n == kc->size) {
		if (kc->first > 0 && kc->first >= kc->n - kc->first) {
			memmove(kc->seg, kc->seg + kc->first,
			    (kc->n - kc->first) * sizeof *kc->seg);
			kc->n -= kc->first;
			kc->first = 0;
		}
		if (kc->n == kc->size)
			kc->seg = xgrow(kc->seg, &kc->size, 64,
			    sizeof *kc->seg);
	}
	kc->seg[kc->n].from = from;
	kc->seg[kc->n].to = to;
	kc->seg[kc->n].what = what;
	kc->n++;
}

/*
 * The segments of a gap [from, to) whose start was held by a and end by
 * b, into out (at most 2); returns how many.
 */
static int
kticks_gap(uint64_t from, uint64_t to, int a, int b, struct kticks_seg *out)
{
	uint64_t	mid;

	if (to <= from)
		return (0);
	if (a == KRUNS_UNKNOWN || a == b) {
		out[0].from = from;
		out[0].to = to;
		out[0].what = a;
		return (1);
	}
	mid = from + (to - from) / 2;
	out[0].from = from;
	out[0].to = mid;
	out[0].what = a;
	out[1].from = mid;
	out[1].to = to;
	out[1].what = b;
	return (2);
}

/* A run the kernel closed on its CPU. */
void
kticks_add(struct kticks *k, const struct procs_krun *r)
{
	struct kticks_cpu	*kc;
	struct kticks_seg	 gap[2];
	uint64_t		 from = r->from_ns;
	int			 i, n, a;

	if (r->cpu < 0 || r->cpu >= k->ncpu || r->to_ns == 0)
		return;
	kc = &k->cpu[r->cpu];
	if (from < kc->end)
		from = kc->end;		/* never back in time */
	a = kc->after;
	if ((kc->seq != 0 && r->seq != kc->seq + 1) || r->lost)
		a = KRUNS_UNKNOWN;	/* runs missing in between */
	n = kticks_gap(kc->end, from, a, kticks_what(r->prev), gap);
	for (i = 0; i < n; i++)
		kticks_push(kc, gap[i].from, gap[i].to, gap[i].what);
	kticks_push(kc, from, r->to_ns, r->task);
	kc->seq = r->seq;
	if (r->to_ns > kc->end)
		kc->end = r->to_ns;
	kc->after = kticks_what(r->next);
}

/* Records lost: what a CPU switched to last may be stale. */
void
kticks_lost(struct kticks *k, int phys)
{
	if (phys >= 0 && phys < k->ncpu)
		k->cpu[phys].after = KRUNS_UNKNOWN;
}

/* Count the part of s inside [from, to) for what held it. */
static void
kticks_vote(const struct kticks_seg *s, uint64_t from, uint64_t to,
    int *what, uint64_t *ns, int *nv)
{
	uint64_t	lo, hi;
	int		i;

	lo = s->from > from ? s->from : from;
	hi = s->to < to ? s->to : to;
	if (hi <= lo)
		return;
	for (i = 0; i < *nv && what[i] != s->what; i++)
		;
	if (i == *nv) {
		if (*nv == KRUNS_VOTES)
			return;		/* 16 kinds in one tick: enough */
		what[i] = s->what;
		ns[i] = 0;
		(*nv)++;
	}
	ns[i] += hi - lo;
}

/* What held physical CPU phys longest in [from_ns, to_ns). */
int
kticks_tick(struct kticks *k, int phys, uint64_t from_ns, uint64_t to_ns,
    const struct procs_krun *open)
{
	struct kticks_cpu	*kc;
	struct kticks_seg	 tail[3];
	uint64_t		 ns[KRUNS_VOTES], best = 0;
	size_t			 i;
	int			 what[KRUNS_VOTES], nv = 0, nt, j, answer;

	if (phys < 0 || phys >= k->ncpu || to_ns <= from_ns)
		return (KRUNS_UNKNOWN);
	kc = &k->cpu[phys];
	while (kc->first < kc->n && kc->seg[kc->first].to <= from_ns)
		kc->first++;
	for (i = kc->first; i < kc->n && kc->seg[i].from < to_ns; i++)
		kticks_vote(&kc->seg[i], from_ns, to_ns, what, ns, &nv);

	/* Past the last run closed: what it switched to, then the open. */
	if (open != NULL && open->from_ns >= kc->end) {
		nt = kticks_gap(kc->end, open->from_ns, kc->after,
		    kticks_what(open->prev), tail);
		tail[nt].from = open->from_ns;
		tail[nt].to = UINT64_MAX;
		tail[nt].what = open->task;
		nt++;
	} else {
		tail[0].from = kc->end;
		tail[0].to = UINT64_MAX;
		tail[0].what = kc->after;
		nt = 1;
	}
	for (j = 0; j < nt; j++)
		kticks_vote(&tail[j], from_ns, to_ns, what, ns, &nv);

	answer = KRUNS_UNKNOWN;
	for (j = 0; j < nv; j++) {
		if (ns[j] > best) {
			best = ns[j];
			answer = what[j];
		}
	}
	return (answer);
}
