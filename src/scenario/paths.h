/*
 * paths.h -- where an installed (or built) stairsd finds what it reads:
 * its configuration, its scenarios by name.  See paths.c.
 */
#ifndef STAIRS_PATHS_H
#define STAIRS_PATHS_H

struct scenario;

/* The system's configuration directory (the Makefile may set it). */
#ifndef STAIRS_SYSCONFDIR
#define STAIRS_SYSCONFDIR	"/etc"
#endif

/* The installation prefix of the running program, or NULL; malloc'd. */
char		*paths_prefix(void);
/* The installed scenarios' directory of prefix; malloc'd. */
char		*paths_scenario_dir(const char *prefix);
/* The configuration read without -c, or NULL (defaults); malloc'd. */
char		*paths_config(const char *sysconfdir);
/*
 * Load a scenario named on the command line or in the configuration:
 * NULL, "" or "demo": the built-in demo; an existing file; a built-in
 * scenario's name ("article", or "article.cfg"); a scenario installed in
 * the prefix's share/stairs/scenarios.  *label (if label is not NULL)
 * is "demo", the built-in's name or the file's absolute path.
 */
struct scenario	*paths_scenario_load(const char *arg, char **label,
		    char **cause);

#endif
