/*
 * kticks.h -- what the kernel ran, tick by tick: the kernel's own runs of
 * the children (struct procs_krun, from its sched_switch events, on
 * CLOCK_MONOTONIC) put on the engine's time line.  For each engine tick
 * the daemon gives the span between the tick's decisions being enforced
 * and the next tick's (procs_tick_ns), and gets back what held the
 * physical CPU longest in it: a task's id, idle, another process (no
 * child of ours), or not known.  The daemon keeps the answers per
 * engine CPU in a struct runs for the frames' `kruns` lines
 * (docs/PROTOCOL.md, "Kernel runs").  Pure: no clock, no I/O.
 */
#ifndef STAIRS_KTICKS_H
#define STAIRS_KTICKS_H

#include <stdint.h>

#include "proc.h"
#include "runs.h"

/* What held a CPU, besides a task's id (> 0). */
#define KRUNS_IDLE	0		/* the kernel's idle task */
#define KRUNS_OTHER	RUNS_OTHER	/* a process, no child of ours */
#define KRUNS_UNKNOWN	RUNS_UNKNOWN	/* no record says (before the
					   first, or records lost) */

struct kticks;

/* For physical CPUs 0..nphys-1. */
struct kticks *kticks_create(int nphys);
void	kticks_free(struct kticks *);
/*
 * A run the kernel closed (procs_kernel_runs: per CPU in seq order; a
 * seq that jumps, or r->lost, says runs were lost in between).
 */
void	kticks_add(struct kticks *, const struct procs_krun *);
/*
 * Records were lost since the last run added on physical CPU phys
 * (procs_kernel_lost): until its next run, what it ran is not known.
 */
void	kticks_lost(struct kticks *, int phys);
/*
 * What held physical CPU phys longest in [from_ns, to_ns): a task id,
 * KRUNS_IDLE, KRUNS_OTHER or KRUNS_UNKNOWN.  open is the run open on it
 * now (procs_kernel_running), or NULL.  Spans asked go forward in time:
 * what ended before from_ns is forgotten.
 */
int	kticks_tick(struct kticks *, int phys, uint64_t from_ns, uint64_t to_ns,
	    const struct procs_krun *open);

#endif
