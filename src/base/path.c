/*
 * path.c -- the two facts about paths every program here needs: a path
 * made absolute (the daemon changes to / when it detaches, so whatever
 * it was given relative is resolved first), and the directory holding
 * the running program (where stairs-load and an installed tree are).
 */
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "path.h"
#include "xmalloc.h"

/* A path made absolute against the current directory; malloc'd. */
char *
path_absolute(const char *path)
{
	char	cwd[PATH_MAX];

	if (path[0] == '/' || getcwd(cwd, sizeof cwd) == NULL)
		return (xstrdup(path));
	return (xasprintf("%s/%s", cwd, path));
}

/* The directory holding the running program, NULL if unknown. */
char *
path_self_dir(void)
{
	char	buf[PATH_MAX], *slash;
	ssize_t	n;

	if ((n = readlink("/proc/self/exe", buf, sizeof buf - 1)) <= 0)
		return (NULL);
	buf[n] = '\0';
	if ((slash = strrchr(buf, '/')) == NULL)
		return (NULL);
	*slash = '\0';
	return (xstrdup(buf[0] == '\0' ? "/" : buf));
}
