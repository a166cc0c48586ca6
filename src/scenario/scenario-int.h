/*
 * scenario-int.h -- what scenario.c gives scenario-parse.c alone (the
 * parser calls down into scenario.c, never the other way).
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

/* A names' index for n names; add one: -1, or the line it was named at. */
void	scenario_index_init(struct scenario_index *, size_t n);
int	scenario_index_add(struct scenario_index *, const char *name,
	    size_t index, int line);

/*
 * An engine override a scenario sets at its top level ("cpus = 2;"):
 * the engine parameter (ENGINE_PARAM_*: its key, its range) and the
 * scenario's int fields that keep it (has, value).
 */
struct scenario_override {
	int		 param;
	size_t		 has;		/* offsetof struct scenario */
	size_t		 value;		/* offsetof struct scenario */
};
extern const struct scenario_override scenario_overrides[];
extern const size_t scenario_noverrides;

/* The int field at offset off of a struct at base. */
#define SCENARIO_FIELD(base, off)	((int *)((char *)(base) + (off)))

#endif
