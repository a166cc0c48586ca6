/*
 * emit.h -- the tasks' lives (tasklife.h) as a scenario (SPEC.md sections 2
 * and 11): the tasks chosen, each with its bursts, and the kernel's
 * rows (kernelrow.h) in comments.
 */
#ifndef STAIRS_EMIT_H
#define STAIRS_EMIT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tasklife.h"

struct emit_opts {
	const int	*pids;		/* --pid: only these (npids > 0) */
	size_t		 npids;
	char * const	*comms;		/* --comm: only these */
	size_t		 ncomms;
	int		 top;		/* --top: the N with most CPU; 0 all */
	int		 cpus;		/* --cpus; 0: the trace's */
	int		 kthreads;	/* keep kernel threads */
	const int	*kpids;		/* kernel threads known (capture) */
	size_t		 nkpids;
	const char	*source;	/* what was read, for the header */
	FILE		*notes;		/* realtime tasks listed here */
};

struct emit_result {
	size_t		 written;
	size_t		 kthreads;	/* left out */
	size_t		 realtime;	/* left out (and listed) */
	size_t		 idle;		/* never ran in the window */
	size_t		 unselected;	/* by --pid, --comm, --top */
	uint64_t	 runs;		/* run bursts of those written */
	uint64_t	 runs_kept;	/* ... that ticks keep apart */
	uint64_t	 span_ms;
};

int	emit_is_kthread(const char *comm, int pid);
void	emit_name(const struct tasklife_task *, char *buf, size_t len);
int	emit_scenario(FILE *, const struct tasklife *,
	    const struct emit_opts *, struct emit_result *, char **cause);

#endif
