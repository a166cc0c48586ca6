/*
 * file.c -- open a file that stairs writes, safely (file.h says what is
 * promised).
 *
 * The path is split at its last '/'.  The directory part is opened as an
 * O_PATH descriptor without following any symbolic link: by openat2(2)
 * with RESOLVE_NO_SYMLINKS where the kernel has it, else one component
 * at a time with O_NOFOLLOW, each opened relative to the one before, so
 * nothing can be swapped in between.  The last component is then opened
 * relative to that descriptor with O_NOFOLLOW (a link there is ELOOP)
 * and O_NONBLOCK (a FIFO without a reader is ENXIO at once instead of a
 * wait), first with O_CREAT | O_EXCL, so we know whether we made it.
 * Only then is it looked at: a regular file of one link, or a character
 * device, is kept; a regular file is emptied only now (O_TRUNC would
 * have emptied a file before it was checked), a file we made is set to
 * 0600 whatever the umask, and O_NONBLOCK is dropped again.
 */
#include <sys/stat.h>
#include <sys/syscall.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(SYS_openat2) && defined(__has_include)
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#define FILE_OPENAT2
#endif
#endif

#include "file.h"
#include "xmalloc.h"

/* What a file that is not regular is, for a message. */
static const char *
file_kind(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFIFO:
		return ("a FIFO");
	case S_IFSOCK:
		return ("a socket");
	case S_IFDIR:
		return ("a directory");
	case S_IFBLK:
		return ("a block device");
	case S_IFLNK:
		return ("a symbolic link");
	}
	return ("not a file");
}

/*
 * The directory part of path, dirlen bytes of it, opened one component
 * at a time without following a link; an O_PATH descriptor, or -1.
 */
static int
file_walk(const char *path, size_t dirlen, char **cause)
{
	struct stat	 st;
	const char	*p = path, *end = path + dirlen;
	char		*name;
	size_t		 n;
	int		 fd, next, saved;

	if ((fd = open(*p == '/' ? "/" : ".",
	    O_PATH | O_DIRECTORY | O_CLOEXEC)) == -1) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return (-1);
	}
	while (p < end) {
		if (*p == '/') {
			p++;
			continue;
		}
		n = strcspn(p, "/");
		if (p + n > end)
			n = end - p;
		name = xstrndup(p, n);
		next = openat(fd, name,
		    O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		saved = errno;
		if (next == -1) {
			/* O_PATH | O_NOFOLLOW gives a link ENOTDIR. */
			if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISLNK(st.st_mode))
				*cause = xasprintf("%s: %.*s: a symbolic link "
				    "(refused)", path, (int)(p + n - path),
				    path);
			else
				*cause = xasprintf("%s: %s", path,
				    strerror(saved));
		}
		free(name);
		close(fd);
		if (next == -1)
			return (-1);
		fd = next;
		p += n;
	}
	return (fd);
}

/*
 * The directory part of path as an O_PATH descriptor, reached through
 * no symbolic link: openat2 if the kernel has it, else the walk (which
 * also names the link when openat2 found one).
 */
static int
file_dir(const char *path, size_t dirlen, int flags, char **cause)
{
#ifdef FILE_OPENAT2
	struct open_how	 how;
	char		*dir;
	int		 fd, saved;

	if (~flags & FILE_WALK) {
		if (dirlen == 0)
			dir = xstrdup(*path == '/' ? "/" : ".");
		else
			dir = xstrndup(path, dirlen);
		memset(&how, 0, sizeof how);
		how.flags = O_PATH | O_DIRECTORY | O_CLOEXEC;
		how.resolve = RESOLVE_NO_SYMLINKS;
		fd = (int)syscall(SYS_openat2, AT_FDCWD, dir, &how,
		    sizeof how);
		saved = errno;
		free(dir);
		if (fd != -1)
			return (fd);
		if (saved != ENOSYS && saved != ELOOP) {
			*cause = xasprintf("%s: %s", path, strerror(saved));
			return (-1);
		}
	}
#endif
	return (file_walk(path, dirlen, cause));
}

/*
 * Open name in dirfd for writing as file.h promises; path is the whole
 * path, for messages.
 */
static int
file_last(int dirfd, const char *path, const char *name, int flags,
    char **cause)
{
	struct stat	st;
	int		fd, oflags, created = 0, tries, saved;

	oflags = O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
	if (flags & FILE_APPEND)
		oflags |= O_APPEND;
	for (tries = 0;; tries++) {
		fd = openat(dirfd, name, oflags | O_CREAT | O_EXCL, 0600);
		if (fd != -1) {
			created = 1;
			break;
		}
		if (errno != EEXIST)
			break;
		fd = openat(dirfd, name, oflags);
		/* Removed since the first open: create it again. */
		if (fd != -1 || errno != ENOENT || tries == 3)
			break;
	}
	if (fd == -1) {
		saved = errno;
		/* A link is ELOOP, a FIFO with no reader ENXIO: say which. */
		if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			*cause = xasprintf("%s: %s", path, strerror(saved));
		else if (S_ISLNK(st.st_mode))
			*cause = xasprintf("%s: a symbolic link (refused)",
			    path);
		else if (!S_ISREG(st.st_mode) && !S_ISCHR(st.st_mode))
			*cause = xasprintf("%s: %s, not a regular file", path,
			    file_kind(st.st_mode));
		else
			*cause = xasprintf("%s: %s", path, strerror(saved));
		return (-1);
	}
	if (fstat(fd, &st) != 0) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		goto fail;
	}
	if (S_ISREG(st.st_mode)) {
		if (!created && st.st_nlink > 1) {
			*cause = xasprintf("%s: a file with %lu links "
			    "(refused)", path, (unsigned long)st.st_nlink);
			goto fail;
		}
		if (!created && (~flags & FILE_APPEND) && st.st_size != 0 &&
		    ftruncate(fd, 0) != 0) {
			*cause = xasprintf("%s: %s", path, strerror(errno));
			goto fail;
		}
		/* The umask may have taken bits away; 0600 exactly. */
		if (created && fchmod(fd, 0600) != 0) {
			*cause = xasprintf("%s: %s", path, strerror(errno));
			goto fail;
		}
	} else if (!S_ISCHR(st.st_mode)) {
		*cause = xasprintf("%s: %s, not a regular file", path,
		    file_kind(st.st_mode));
		goto fail;
	}
	/* O_NONBLOCK was for the open; writes to a device may wait. */
	if ((oflags = fcntl(fd, F_GETFL)) == -1 ||
	    fcntl(fd, F_SETFL, oflags & ~O_NONBLOCK) == -1) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		goto fail;
	}
	return (fd);

fail:
	close(fd);
	return (-1);
}

/* Open path for writing, as file.h says. */
int
file_open(const char *path, int flags, char **cause)
{
	const char	*slash, *name;
	size_t		 dirlen;
	int		 dirfd, fd;

	if (strcmp(path, "-") == 0) {
		if ((fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0)) == -1)
			*cause = xasprintf("standard output: %s",
			    strerror(errno));
		return (fd);
	}
	if (*path == '\0') {
		*cause = xstrdup("an empty path");
		return (-1);
	}
	if ((slash = strrchr(path, '/')) != NULL) {
		name = slash + 1;
		dirlen = slash - path;
	} else {
		name = path;
		dirlen = 0;
	}
	if (*name == '\0' || strcmp(name, ".") == 0 ||
	    strcmp(name, "..") == 0) {
		*cause = xasprintf("%s: a directory, not a regular file",
		    path);
		return (-1);
	}
	if ((dirfd = file_dir(path, dirlen, flags, cause)) == -1)
		return (-1);
	fd = file_last(dirfd, path, name, flags, cause);
	close(dirfd);
	return (fd);
}

/* The same as a stdio stream; "-" is stdout itself. */
FILE *
file_fopen(const char *path, int flags, char **cause)
{
	FILE	*f;
	int	 fd;

	if (strcmp(path, "-") == 0)
		return (stdout);
	if ((fd = file_open(path, flags, cause)) == -1)
		return (NULL);
	if ((f = fdopen(fd, (flags & FILE_APPEND) ? "a" : "w")) == NULL) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		close(fd);
		return (NULL);
	}
	return (f);
}

/* Flush and close a stream from file_fopen; stdout is flushed only. */
int
file_close(FILE *f, char **cause)
{
	int	failed, saved;

	errno = 0;
	failed = fflush(f) != 0 || ferror(f);
	saved = errno;
	if (f != stdout && fclose(f) != 0 && !failed) {
		failed = 1;
		saved = errno;
	}
	if (!failed)
		return (0);
	*cause = xstrdup(saved != 0 ? strerror(saved) : "a write failed");
	return (-1);
}
