/*
 * builtin.h -- the scenarios compiled into stairsd: every scenarios/NAME.cfg,
 * as text, in the teaching order of scenarios/README (tests/embed.sh
 * generates the table), so `scenarios` and `load` work from any
 * directory and the client can start the demo anywhere.
 */
#ifndef STAIRS_BUILTIN_H
#define STAIRS_BUILTIN_H

#include <stddef.h>

struct builtin_scenario {
	const char	*name;	/* file name without .cfg: "demo", "article" */
	const char	*text;	/* the file's text */
};

/* Every scenarios/NAME.cfg, in teaching order (scenarios/README's order). */
const struct builtin_scenario *builtin_scenarios(size_t *n);
/* The built-in scenario of that name, or NULL. */
const struct builtin_scenario *builtin_find(const char *name);

/* The demo scenario's text, compiled in (scenarios/demo.cfg). */
extern const char stairs_demo_scenario[];

/* The generated table (build/.../gen/builtin_scenarios.c). */
extern const struct builtin_scenario builtin_table[];
extern const size_t builtin_count;

#endif
