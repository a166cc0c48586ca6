/*
 * paths.c -- where stairsd finds what it reads when it is installed
 * rather than run from its build tree (issue 14):
 *
 * - the configuration, without -c: $XDG_CONFIG_HOME/stairs/stairsd.cfg
 *   (else ~/.config/stairs/stairsd.cfg), then SYSCONFDIR/stairs/stairsd.cfg;
 * - a scenario by name: a file of that name if there is one, else the
 *   built-in scenario (every scenario shipped is compiled in), else
 *   PREFIX/share/stairs/scenarios/NAME.cfg, PREFIX being the directory
 *   above the bin/ the running program is in (so an installation can be
 *   moved, and DESTDIR installs work);
 * - real tasks' programs (stairs-load): beside the running program
 *   (path_self_dir, base/path.c), which is PREFIX/bin when installed.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "path.h"
#include "paths.h"
#include "scenario.h"
#include "xmalloc.h"

#define PATHS_CONFIG	"stairs/stairsd.cfg"

/* The installation prefix of the running program, or NULL; malloc'd. */
char *
paths_prefix(void)
{
	char	*dir, *slash;

	if ((dir = path_self_dir()) == NULL)
		return (NULL);
	slash = strrchr(dir, '/');
	if (slash == NULL || strcmp(slash, "/bin") != 0) {
		free(dir);
		return (NULL);
	}
	*slash = '\0';
	if (*dir == '\0') {	/* /bin: the prefix is / */
		free(dir);
		return (xstrdup(""));
	}
	return (dir);
}

/* The installed scenarios' directory of prefix; malloc'd. */
char *
paths_scenario_dir(const char *prefix)
{
	return (xasprintf("%s/share/stairs/scenarios", prefix));
}

/* The configuration read without -c, or NULL (defaults); malloc'd. */
char *
paths_config(const char *sysconfdir)
{
	const char	*xdg = getenv("XDG_CONFIG_HOME"), *home;
	char		*path;

	if (xdg != NULL && *xdg == '/')
		path = xasprintf("%s/%s", xdg, PATHS_CONFIG);
	else if ((home = getenv("HOME")) != NULL && *home == '/')
		path = xasprintf("%s/.config/%s", home, PATHS_CONFIG);
	else
		path = NULL;
	if (path != NULL && access(path, F_OK) == 0)
		return (path);
	free(path);
	if (sysconfdir == NULL)
		return (NULL);
	path = xasprintf("%s/%s", sysconfdir, PATHS_CONFIG);
	if (access(path, F_OK) == 0)
		return (path);
	free(path);
	return (NULL);
}

/* The installed file of a scenario's name, or NULL; malloc'd. */
static char *
paths_installed(const char *name)
{
	char	*prefix, *dir, *path;

	if ((prefix = paths_prefix()) == NULL)
		return (NULL);
	dir = paths_scenario_dir(prefix);
	free(prefix);
	path = xasprintf("%s/%s.cfg", dir, name);
	free(dir);
	if (access(path, F_OK) == 0)
		return (path);
	free(path);
	return (NULL);
}

/* Load a scenario by name or file (paths.h); NULL with *cause. */
struct scenario *
paths_scenario_load(const char *arg, char **label, char **cause)
{
	const struct builtin_scenario	*b;
	struct scenario			*sc;
	char				*name, *dot, *file = NULL;

	if (arg == NULL || *arg == '\0' || strcmp(arg, "demo") == 0) {
		if (label != NULL)
			*label = xstrdup("demo");
		return (scenario_load_string(stairs_demo_scenario, "demo",
		    cause));
	}
	/* A name: no '/', and no file of that name here. */
	if (strchr(arg, '/') == NULL && access(arg, F_OK) != 0) {
		name = xstrdup(arg);
		if ((dot = strrchr(name, '.')) != NULL &&
		    strcmp(dot, ".cfg") == 0)
			*dot = '\0';
		if ((b = builtin_find(name)) != NULL) {
			free(name);
			if (label != NULL)
				*label = xstrdup(b->name);
			return (scenario_load_string(b->text, b->name,
			    cause));
		}
		file = paths_installed(name);
		free(name);
	}
	sc = scenario_load_file(file != NULL ? file : arg, cause);
	if (sc != NULL && label != NULL)
		*label = path_absolute(file != NULL ? file : arg);
	free(file);
	return (sc);
}
