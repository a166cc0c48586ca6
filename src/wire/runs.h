/*
 * runs.h -- what each CPU ran, tick by tick, over a bounded recent past:
 * per CPU a ring of runs (a task id and its rank, for so many ticks in a
 * row), run-length encoded.  The session keeps one of the present for
 * the frames' `runs` lines (docs/PROTOCOL.md); the client keeps one of
 * what the frames said, for its timeline and rank line.
 */
#ifndef STAIRS_RUNS_H
#define STAIRS_RUNS_H

#include <stddef.h>
#include <stdint.h>

struct runs;

/*
 * A ring of what the kernel ran (the `kruns` lines, src/kticks.c) holds,
 * besides task ids and 0 (idle), these (at rank -1).
 */
#define RUNS_OTHER	(-1)	/* a process that is no child of ours */
#define RUNS_UNKNOWN	(-2)	/* not known */

/*
 * What a ring keeps per CPU by default: the last 10 000 ticks (10 s at
 * speed 1), at most 8 192 runs a CPU; and what a frame's `runs` and
 * `kruns` lines carry when they start again (the first frame, a seek):
 * the 10 000 ticks before the tick shown (docs/PROTOCOL.md, "Runs").
 * The live daemon keeps as far back as a seek reaches (its history,
 * SPEC.md section 12), at most RUNS_HISTORY_CAP runs a CPU (16 bytes
 * each: 8 MiB a CPU; past it the oldest go).
 */
#define RUNS_KEEP_TICKS	10000
#define RUNS_KEEP_CAP	8192
#define RUNS_HISTORY_CAP	((size_t)1 << 19)

/* A run: task (0: idle) at rank for n ticks from tick `from`. */
struct runs_run {
	uint64_t	from;
	uint64_t	n;
	int		task;
	int		rank;		/* -1 when idle */
};

/*
 * At most cap runs per CPU and ticks no older than keep ticks before a
 * CPU's end are kept.
 */
struct runs *runs_create(int ncpus, size_t cap, uint64_t keep);
void	runs_free(struct runs *);
int	runs_ncpus(const struct runs *);
/* What it keeps: runs a CPU at most, and ticks before a CPU's end. */
size_t	runs_cap(const struct runs *);
uint64_t runs_keep(const struct runs *);
/*
 * n ticks of task at rank on cpu from tick `from`.  A from that is not
 * the CPU's end starts the CPU again at from (what it had is dropped);
 * returns 1 then, else 0.
 */
int	runs_put(struct runs *, int cpu, uint64_t from, int task, int rank,
	    uint64_t n);
/* The first tick kept and the tick after the last, of a CPU. */
uint64_t runs_first(const struct runs *, int cpu);
uint64_t runs_end(const struct runs *, int cpu);
/* Drop every tick from `tick` on (a branch goes back in time). */
void	runs_truncate(struct runs *, uint64_t tick);
/* Forget everything; each CPU starts again at tick. */
void	runs_clear(struct runs *, uint64_t tick);
/*
 * Up to max runs of cpu clipped to [from, to), in order; returns how
 * many.  Ask again from the last one's end for more.
 */
size_t	runs_get(const struct runs *, int cpu, uint64_t from, uint64_t to,
	    struct runs_run *, size_t max);
/* The task that ran on cpu at tick (its rank in *rank), -1 if not kept. */
int	runs_at(const struct runs *, int cpu, uint64_t tick, int *rank);

#endif
