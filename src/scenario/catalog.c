/*
 * catalog.c -- the one place a scenario is looked up by name: the
 * scenarios compiled into stairsd (their texts and teaching order come
 * from the generated table, tests/embed.sh), a scenario path of
 * directories -- the configuration's scenario_path, then, for an
 * installed stairsd, PREFIX/share/stairs/scenarios -- and files.  The
 * live daemon, its `load` and `scenarios` commands and a headless run
 * all find a name the same way (catalog.h says which way).
 */
#include <sys/stat.h>

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog.h"
#include "readconf.h"
#include "path.h"
#include "scenario.h"
#include "xmalloc.h"

struct catalog {
	char	**dirs;		/* absolute */
	size_t	  ndirs;
};

/* Every built-in scenario, in teaching order; *n of them. */
const struct catalog_builtin *
catalog_builtins(size_t *n)
{
	*n = catalog_count;
	return (catalog_table);
}

/* The built-in scenario named name, or name less ".cfg"; NULL if none. */
const struct catalog_builtin *
catalog_builtin(const char *name)
{
	size_t	i, len;

	if (name == NULL || strchr(name, '/') != NULL)
		return (NULL);
	len = strlen(name);
	if (len > 4 && strcmp(name + len - 4, ".cfg") == 0)
		len -= 4;
	for (i = 0; i < catalog_count; i++) {
		if (strncmp(catalog_table[i].name, name, len) == 0 &&
		    catalog_table[i].name[len] == '\0')
			return (&catalog_table[i]);
	}
	return (NULL);
}

/* The installation prefix of the running program, or NULL; malloc'd. */
char *
catalog_prefix(void)
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

/* Add a directory (malloc'd, absolute) to the path. */
static void
catalog_add(struct catalog *c, char *dir)
{
	c->dirs = xreallocarray(c->dirs, c->ndirs + 1, sizeof *c->dirs);
	c->dirs[c->ndirs++] = dir;
}

/*
 * A catalog of the built-ins and of scenario_path (DIR:DIR, each made
 * absolute; NULL or "": none), then an installed tree's scenarios.
 */
struct catalog *
catalog_create(const char *scenario_path)
{
	struct catalog	*c;
	struct stat	 sb;
	char		*copy, *p, *dir, *prefix;

	c = xcalloc(1, sizeof *c);
	if (scenario_path != NULL && *scenario_path != '\0') {
		copy = p = xstrdup(scenario_path);
		while ((dir = strsep(&p, ":")) != NULL)
			if (*dir != '\0')
				catalog_add(c, path_absolute(dir));
		free(copy);
	}
	if ((prefix = catalog_prefix()) == NULL)
		return (c);
	dir = xasprintf("%s/share/stairs/scenarios", prefix);
	free(prefix);
	if (stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode))
		catalog_add(c, dir);
	else
		free(dir);
	return (c);
}

/* Free the catalog. */
void
catalog_free(struct catalog *c)
{
	if (c == NULL)
		return;
	strv_free(c->dirs, c->ndirs);
	free(c);
}

/*
 * The file of a scenario named name in the path (DIR/NAME.cfg, NAME
 * less .cfg too, the first directory that has it), or NULL; malloc'd.
 */
static char *
catalog_file(const struct catalog *c, const char *name)
{
	char	*path, *base;
	size_t	 i, len = strlen(name);

	if (strchr(name, '/') != NULL || *name == '.' || len == 0)
		return (NULL);
	base = xstrdup(name);
	if (len > 4 && strcmp(base + len - 4, ".cfg") == 0)
		base[len - 4] = '\0';
	for (i = 0; i < c->ndirs; i++) {
		path = xasprintf("%s/%s.cfg", c->dirs[i], base);
		if (access(path, R_OK) == 0) {
			free(base);
			return (path);
		}
		free(path);
	}
	free(base);
	return (NULL);
}

/* Is a bare name a scenario's (a built-in, or one of the path)? */
int
catalog_known(const struct catalog *c, const char *name)
{
	char	*file;

	if (catalog_builtin(name) != NULL)
		return (1);
	if ((file = catalog_file(c, name)) == NULL)
		return (0);
	free(file);
	return (1);
}

/* Load name as catalog.h says; NULL with *cause. */
struct scenario *
catalog_load(const struct catalog *c, const char *name, int here,
    char **label, char **cause)
{
	const struct catalog_builtin	*b = NULL;
	struct scenario			*sc;
	char				*file = NULL;

	if (name == NULL || *name == '\0')
		name = "demo";
	if (strchr(name, '/') == NULL && (!here || access(name, F_OK) != 0)) {
		if ((b = catalog_builtin(name)) == NULL &&
		    (file = catalog_file(c, name)) == NULL && !here) {
			*cause = xasprintf("%s: no such scenario (`scenarios` "
			    "lists them; a file needs its absolute path)",
			    name);
			return (NULL);
		}
	}
	if (b != NULL) {
		if ((sc = scenario_load_string(b->text, b->name,
		    cause)) == NULL)
			return (NULL);
		if (label != NULL)
			*label = xstrdup(b->name);
		return (sc);
	}
	if (file == NULL)
		file = xstrdup(name);
	if ((sc = scenario_load_file(file, cause)) == NULL) {
		free(file);
		return (NULL);
	}
	if (label != NULL)
		*label = path_absolute(file);
	free(file);
	return (sc);
}

/* Does a directory entry name a scenario file (NAME.cfg)? */
static int
catalog_is_cfg(const struct dirent *de)
{
	size_t	n = strlen(de->d_name);

	return (n > 4 && de->d_name[0] != '.' &&
	    strcmp(de->d_name + n - 4, ".cfg") == 0);
}

/* Every scenario, as catalog.h says; how many. */
size_t
catalog_list(const struct catalog *c, void (*cb)(void *, const char *,
    const char *, const struct scenario *), void *arg, size_t *skipped)
{
	struct dirent	**de;
	struct scenario	 *sc;
	char		 *path, *name, *cause, *first;
	size_t		  i, lines = 0, bad = 0;
	int		  n, k;

	for (i = 0; i < catalog_count; i++) {
		if ((sc = scenario_load_string(catalog_table[i].text,
		    catalog_table[i].name, &cause)) == NULL) {
			free(cause);	/* tests/test_builtin.c: cannot be */
			bad++;
			continue;
		}
		cb(arg, catalog_table[i].name, "builtin", sc);
		scenario_free(sc);
		lines++;
	}
	for (i = 0; i < c->ndirs; i++) {
		if ((n = scandir(c->dirs[i], &de, catalog_is_cfg,
		    alphasort)) < 0)
			continue;
		for (k = 0; k < n; k++) {
			name = xstrndup(de[k]->d_name,
			    strlen(de[k]->d_name) - 4);
			path = xasprintf("%s/%s", c->dirs[i], de[k]->d_name);
			first = catalog_file(c, name);
			if (catalog_builtin(name) == NULL && first != NULL &&
			    strcmp(first, path) == 0) {
				if ((sc = scenario_load_file(path,
				    &cause)) != NULL) {
					cb(arg, name, path, sc);
					scenario_free(sc);
					lines++;
				} else {
					free(cause);
					bad++;
				}
			}
			free(first);
			free(path);
			free(name);
			free(de[k]);
		}
		free(de);
	}
	if (skipped != NULL)
		*skipped = bad;
	return (lines);
}
