/*
 * sock.c -- what the daemon and the client both trust about the control
 * socket: its default path, its directory (ours or root's, private or
 * sticky) and the uid at the other end (ours or root's, by SO_PEERCRED).
 * One place, so the two ends cannot drift apart.
 */
#include <sys/socket.h>
#include <sys/stat.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sock.h"
#include "xmalloc.h"

/* How to get out of a refused directory; said after every refusal. */
#define SOCK_FIX	"remove it, or choose another socket with -S PATH " \
			"or XDG_RUNTIME_DIR"

/* $XDG_RUNTIME_DIR/stairs/socket, else /tmp/stairs-UID/socket. */
char *
sock_default_path(void)
{
	const char	*xdg = getenv("XDG_RUNTIME_DIR");

	if (xdg != NULL && *xdg == '/')
		return (xasprintf("%s/stairs/socket", xdg));
	return (xasprintf("/tmp/stairs-%ld/socket", (long)getuid()));
}

/*
 * Check the directory of the socket at path: it must be a directory (not
 * a symbolic link) owned by us or root that group and others cannot
 * write to, unless it is sticky like /tmp.  With create, a missing
 * directory is made 0700; without, a missing one is fine (nothing can
 * listen in it).  0, or -1 with *cause naming the directory, what is
 * wrong with it and the way out.
 */
int
sock_check_dir(const char *path, int create, char **cause)
{
	struct stat	 sb;
	char		*dir, *slash;
	int		 rc = -1;

	dir = xstrdup(path);
	if ((slash = strrchr(dir, '/')) == NULL) {
		/* The current directory. */
		free(dir);
		dir = xstrdup(".");
	} else if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	if (create && mkdir(dir, 0700) == 0) {
		free(dir);
		return (0);
	}
	if (create && errno != EEXIST) {
		*cause = xasprintf("mkdir %s: %s", dir, strerror(errno));
		goto out;
	}
	if (lstat(dir, &sb) != 0) {
		if (!create && errno == ENOENT)
			rc = 0;
		else
			*cause = xasprintf("%s: %s", dir, strerror(errno));
		goto out;
	}
	if (!S_ISDIR(sb.st_mode)) {
		*cause = xasprintf("the socket directory %s is not a "
		    "directory: " SOCK_FIX, dir);
		goto out;
	}
	if (sb.st_uid != geteuid() && sb.st_uid != 0) {
		*cause = xasprintf("the socket directory %s belongs to uid "
		    "%ld, not to us (uid %ld): " SOCK_FIX, dir,
		    (long)sb.st_uid, (long)geteuid());
		goto out;
	}
	if ((sb.st_mode & (S_IWGRP | S_IWOTH)) && !(sb.st_mode & S_ISVTX)) {
		*cause = xasprintf("the socket directory %s is writable by "
		    "others (mode %03o): " SOCK_FIX, dir,
		    (unsigned)(sb.st_mode & 0777));
		goto out;
	}
	rc = 0;
out:
	free(dir);
	return (rc);
}

/*
 * Check the uid at the other end of a connected unix socket: ours or
 * root's.  0, or -1 with the uid (-1 if unknown) in *uid.
 */
int
sock_check_peer(int fd, long *uid)
{
	struct ucred	cred;
	socklen_t	len = sizeof cred;

	*uid = -1;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 ||
	    len != sizeof cred)
		return (-1);
	*uid = (long)cred.uid;
	if (cred.uid != geteuid() && cred.uid != 0)
		return (-1);
	return (0);
}
