/*
 * tasklife.h -- each task's life in a scheduler trace (SPEC.md section
 * 11): its CPU bursts and sleeps as it ran them, and what the kernel did
 * with it (CPU time, runs, wake-up latencies), built event by event
 * from ktrace.c's events.
 */
#ifndef STAIRS_TASKLIFE_H
#define STAIRS_TASKLIFE_H

#include <stddef.h>
#include <stdint.h>

#include "ktrace.h"

/* One life of one pid: a pid used again is a new life. */
struct tasklife_task {
	char		 comm[KTRACE_COMM_MAX + 1];
	int		 pid;
	int		 life;		/* 1, then 2, ... for a reused pid */
	int		 prio;		/* as first seen, or KTRACE_NOPRIO */
	uint64_t	 start;		/* ns: first runnable */
	uint64_t	*bursts;	/* ns: run, sleep, run, ... */
	size_t		 nbursts, bursts_size;
	uint64_t	 cpu;		/* ns of CPU in all */
	uint64_t	 runs;		/* switched in */
	uint64_t	*lat;		/* ns from wake to run */
	size_t		 nlat, lat_size;

	/* While reading. */
	int		 state;
	int		 on_cpu;
	uint64_t	 since;		/* ran, slept or woke since */
	uint64_t	 run;		/* ns of this run burst so far */
	int		 waking;	/* a wake-up latency runs */
	int		 exiting;	/* sched_process_exit seen */
};

struct tasklife_opts {
	uint64_t	 from, to;	/* ns after the first event; to 0: end */
};

struct tasklife {
	struct tasklife_opts	 o;
	struct ktrace		 kt;
	struct tasklife_task	*tasks;
	size_t			 ntasks, tasks_size;
	int			*slots;		/* open hash: pid -> index + 1 */
	size_t			 nslots;
	struct tasklife_cpu	*cpus;
	int			 ncpus;		/* CPUs seen */
	uint64_t		 t0;		/* the first event */
	uint64_t		 begin, end;	/* the span, ns */
	int			 started;
	int			 lossy;		/* events were lost */
	uint64_t		 reused;	/* pids used again */
	uint64_t		 repaired;	/* impossible steps after a loss */
	uint64_t		 gaps;		/* switches the trace misses */
	int			 errline;	/* the line an error is about, if
						   not the one read */
	int			 lineno;
	uint64_t		 events;
};

void	tasklife_init(struct tasklife *, const struct tasklife_opts *);
int	tasklife_line(struct tasklife *, char *line, int lineno, char **cause);
int	tasklife_finish(struct tasklife *, char **cause);
void	tasklife_free(struct tasklife *);
/* CPUs of the trace: its header's count, else those seen. */
int	tasklife_ncpus(const struct tasklife *);

#endif
