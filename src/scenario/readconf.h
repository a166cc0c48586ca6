/*
 * readconf.h -- read a libconfig file (the daemon's config, a scenario)
 * safely: only regular files are opened, never waited on, and nothing
 * libconfig would misread reaches it.
 *
 * libconfig 1.5 (Debian 12) has no include hook, exits the program when
 * its scanner cannot read a file, blocks in fopen() on a FIFO and wraps
 * integers that do not fit in 32 bits.  So before libconfig sees a file,
 * its text and that of every @include are read here (regular files
 * only, opened with O_NONBLOCK) and scanned: an @include of anything but
 * a regular file, or an integer that would wrap, is "FILE:LINE: message".
 */
#ifndef STAIRS_READCONF_H
#define STAIRS_READCONF_H

#include <stdarg.h>
#include <stddef.h>

#include <libconfig.h>

#define READCONF_MAX_SIZE	(64u << 20)	/* bytes in one file */
#define READCONF_MAX_DEPTH	10		/* @include nesting */
#define READCONF_MAX_FILES	256		/* files in one read */

char   *readconf_slurp(const char *path, size_t *len, char **cause);
/* With text (or spliced): the text parsed, every @include spliced in. */
int	readconf_read(config_t *, const char *path, char **text,
	    char **cause);
int	readconf_read_string(config_t *, const char *text, const char *label,
	    char **spliced, char **cause);
char   *readconf_name(const char *top, const char *file);
int	readconf_verror(char **error, const char *top, const char *file,
	    int line, const char *fmt, va_list);

#endif
