/*
 * catalog.h -- the one place a scenario is looked up by name (catalog.c):
 * the scenarios built into stairsd, a scenario path of directories (the
 * configuration's scenario_path, then an installed tree's), and files.
 */
#ifndef STAIRS_CATALOG_H
#define STAIRS_CATALOG_H

#include <stddef.h>

struct scenario;

/* A built-in scenario: scenarios/NAME.cfg compiled in. */
struct catalog_builtin {
	const char	*name;	/* file name without .cfg: "demo", "article" */
	const char	*text;	/* the file's text */
};

/* The generated table (build/.../gen/builtin_scenarios.c). */
extern const struct catalog_builtin catalog_table[];
extern const size_t catalog_count;
/* The demo scenario's text, compiled in (scenarios/demo.cfg). */
extern const char stairs_demo_scenario[];

/* Every built-in scenario, in teaching order (scenarios/README's). */
const struct catalog_builtin *catalog_builtins(size_t *n);
/* The built-in scenario of that name ("article" or "article.cfg"). */
const struct catalog_builtin *catalog_builtin(const char *name);

struct catalog;

/* A catalog of the built-ins and scenario_path ("DIR:DIR"; NULL: none). */
struct catalog	*catalog_create(const char *scenario_path);
void		 catalog_free(struct catalog *);

/*
 * A scenario found, loaded (a file through its @includes), with its
 * label (the built-in's name or the file's absolute path); its text,
 * includes spliced in, is the scenario's (sc->text).
 * The order, the same for every caller:
 *   - NULL, "" : the demo;
 *   - a name with a '/': that file;
 *   - a bare name: a file of that name in the current directory, where
 *     the caller has one (here: the command line, not a client's
 *     `load`), then a built-in (NAME, or NAME less .cfg), then NAME.cfg
 *     in the scenario path's directories in order.
 * NULL with *cause ("FILE:LINE: message", or that there is none).
 */
struct scenario	*catalog_load(const struct catalog *, const char *name,
		    int here, char **label, char **cause);
/* Just whether a bare name is one (no file of the current directory). */
int		 catalog_known(const struct catalog *, const char *name);

/*
 * Every scenario: the built-ins in teaching order, then each directory
 * of the path's NAME.cfg files by name, less those a built-in or an
 * earlier directory has already (load finds that one).  cb gets each
 * loaded scenario with its name and file ("builtin" for a built-in);
 * one that does not load is passed over, said in *skipped (may be
 * NULL).  Returns how many.
 */
size_t		 catalog_list(const struct catalog *, void (*cb)(void *,
		    const char *name, const char *file,
		    const struct scenario *), void *arg, size_t *skipped);

/* The installation prefix of the running program, or NULL; malloc'd. */
char		*catalog_prefix(void);

#endif
