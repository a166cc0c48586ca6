/*
 * scenario-int.h -- what scenario.c and scenario-parse.c share alone.
 */
#ifndef STAIRS_SCENARIO_INT_H
#define STAIRS_SCENARIO_INT_H

#include "scenario.h"

/* What the parser carries: the label for messages and the first error. */
struct scenario_ctx {
	const char	*label;
	char		*error;
};

/* Record the first error as "LABEL:LINE: message"; returns -1. */
int	scenario_error(struct scenario_ctx *, int line, const char *, ...)
	    __attribute__((format(printf, 3, 4)));
/* A group's index in sc by name, or -1. */
int	scenario_find_group(const struct scenario *, const char *name);

#endif
