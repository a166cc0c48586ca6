/*
 * file.h -- open a file that stairs writes (file.c): a journal, a trace,
 * a Perfetto trace, a child's output.
 *
 * Every such file is opened through file_open or file_fopen, which
 * promise (SPEC.md section 12):
 *
 * - created 0600, whatever the umask; an existing file keeps its mode;
 * - never through a symbolic link, in any component of the path (the
 *   process made none of them, so none is trusted): openat2(2) with
 *   RESOLVE_NO_SYMLINKS where the kernel has it, else each directory
 *   opened in turn with O_NOFOLLOW; a regular file with more than one
 *   hard link is refused too (a link to someone else's file);
 * - never blocking: only a regular file or a character device (such as
 *   /dev/null or a terminal) is opened; a FIFO, a socket, a directory or
 *   a block device is refused, and the open itself cannot wait for a
 *   FIFO's reader;
 * - "-" is standard output, whatever it is.
 *
 * On failure they return -1 (NULL) and *cause says why, naming the path:
 * "PATH: a FIFO, not a regular file", "PATH: a symbolic link (refused)",
 * "PATH: DIR: a symbolic link (refused)" (a directory on the way),
 * "PATH: No such file or directory".
 */
#ifndef STAIRS_FILE_H
#define STAIRS_FILE_H

#include <stdio.h>

#define FILE_TRUNCATE	0x0	/* an existing file is emptied (default) */
#define FILE_APPEND	0x1	/* written at its end, never emptied */
#define FILE_WALK	0x2	/* check each directory by hand even where
				   openat2 exists (so tests try both) */

/*
 * A descriptor open for writing (close-on-exec, blocking again once
 * open); "-" gives a new descriptor for standard output.  The caller
 * closes it.
 */
int	 file_open(const char *path, int flags, char **cause);

/*
 * The same as a stdio stream ("w", or "a" with FILE_APPEND).  "-" gives
 * stdout itself: close either with file_close, which flushes stdout and
 * leaves it open.
 */
FILE	*file_fopen(const char *path, int flags, char **cause);

/*
 * Flush and close a stream from file_fopen (stdout: flush only); -1 if a
 * write failed, now or before, with *cause saying so.
 */
int	 file_close(FILE *f, char **cause);

#endif
