/*
 * kernelrow.h -- what the kernel did with a recorded workload, kept in
 * the comments of the scenario stairs-import wrote (SPEC.md section 11,
 * "The kernel as a row"), for the `kernel` block of --compare:
 *
 *	# kernel: span_us=60000000 cpus=16
 *	# kernel: task=make-1234 nice=0 share=12.5 ran_us=7500000 runs=41
 *	    lat_p50=0.012 lat_p95=0.310 lat_max=2.004
 *
 * (one line each; latencies in ms, "-" where the task never waited).
 */
#ifndef STAIRS_KERNELROW_H
#define STAIRS_KERNELROW_H

#include <stddef.h>
#include <stdint.h>

#define KERNELROW_PREFIX	"# kernel:"

struct kernelrow {
	char		*task;
	int		 nice;
	double		 share;		/* % of the span on one CPU */
	uint64_t	 ran_us;
	uint64_t	 runs;
	int		 has_lat;	/* 0: never waited */
	double		 lat[3];	/* p50, p95, max: ms */
	int		 line;
};

struct kernelrows {
	uint64_t	 span_us;	/* 0: no header line */
	int		 cpus;
	struct kernelrow *rows;
	size_t		 nrows;
	int		 line;		/* the header's line */
};

int	kernelrow_parse(const char *text, const char *label,
	    struct kernelrows *, char **cause);
void	kernelrow_free(struct kernelrows *);

#endif
