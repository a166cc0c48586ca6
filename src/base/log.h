/*
 * log.h -- daemon logging in the OpenBSD style: to stderr in the
 * foreground, to syslog otherwise.  The "x" variants add no errno text.
 */
#ifndef STAIRS_LOG_H
#define STAIRS_LOG_H

#include <stdarg.h>

enum log_level {
	LOG_LEVEL_ERROR,
	LOG_LEVEL_WARN,
	LOG_LEVEL_INFO,
	LOG_LEVEL_DEBUG
};

void	log_init(const char *progname, int foreground, enum log_level);
void	log_set_level(enum log_level);
int	log_level_parse(const char *, enum log_level *);
const char *log_level_name(enum log_level);
void	log_debug(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_info(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_warn(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_warnx(const char *, ...) __attribute__((format(printf, 1, 2)));
void	fatal(const char *, ...)
	    __attribute__((format(printf, 1, 2), noreturn));
void	fatalx(const char *, ...)
	    __attribute__((format(printf, 1, 2), noreturn));

#endif
