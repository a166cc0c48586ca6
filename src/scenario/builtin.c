/*
 * builtin.c -- the scenarios compiled into stairsd (builtin.h).  The
 * texts and their order come from the generated table; this file only
 * looks them up.
 */
#include <stddef.h>
#include <string.h>

#include "builtin.h"

/* Every built-in scenario, in teaching order; *n of them. */
const struct builtin_scenario *
builtin_scenarios(size_t *n)
{
	*n = builtin_count;
	return (builtin_table);
}

/* The built-in scenario named name (a file name less ".cfg"), or NULL. */
const struct builtin_scenario *
builtin_find(const char *name)
{
	size_t	i;

	if (name == NULL)
		return (NULL);
	for (i = 0; i < builtin_count; i++) {
		if (strcmp(builtin_table[i].name, name) == 0)
			return (&builtin_table[i]);
	}
	return (NULL);
}
