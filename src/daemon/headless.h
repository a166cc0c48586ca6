/*
 * headless.h -- stairsd --headless: a scenario or a journal run with no
 * socket and no clock, as fast as it can (headless.c).
 */
#ifndef STAIRS_HEADLESS_H
#define STAIRS_HEADLESS_H

#include <stdint.h>

struct engine_params;
struct engine_policy;
struct scenario;
struct session;

int	headless_main(int argc, char **argv);

/* headless.c and headless-compare.c: what the command line asked for. */
/* What the command line asked for. */
struct headless_opts {
	const char	*scenario;
	uint64_t	 ticks;
	int		 has_ticks;
	const char	*trace;
	const char	*table;
	const char	*perfetto;	/* --perfetto PATH */
	int		 cpus;		/* 0: from the scenario */
	int		 rr;		/* 0: from the scenario */
	const char	*policy;	/* NULL: the scenario's */
	const char	*compare;	/* NULL: no comparison */
	const char	*replay;	/* --replay JOURNAL */
};

/* headless.c */
struct session *headless_session(const struct scenario *,
	    const struct engine_params *, const struct engine_policy *,
	    char **cause);

/* headless-compare.c */
int	headless_compare(const struct headless_opts *,
	    const struct scenario *, const struct engine_params *);

#endif
