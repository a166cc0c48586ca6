/*
 * log.c -- logging to stderr (foreground) or syslog (detached), with a
 * level threshold.  fatal/fatalx log and exit 1.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "log.h"

static const char	*log_progname = "stairs";
static int		 log_foreground = 1;
static enum log_level	 log_threshold = LOG_LEVEL_INFO;

static const char *log_names[] = { "error", "warn", "info", "debug" };

/* Set where logs go and how much is said. */
void
log_init(const char *progname, int foreground, enum log_level level)
{
	log_progname = progname;
	log_foreground = foreground;
	log_threshold = level;
	if (!foreground)
		openlog(progname, LOG_PID | LOG_NDELAY, LOG_DAEMON);
}

/* Change the threshold (on a config reload). */
void
log_set_level(enum log_level level)
{
	log_threshold = level;
}

/* Parse "error", "warn", "info" or "debug". */
int
log_level_parse(const char *s, enum log_level *level)
{
	size_t	i;

	for (i = 0; i < sizeof log_names / sizeof log_names[0]; i++) {
		if (strcmp(s, log_names[i]) == 0) {
			*level = (enum log_level)i;
			return (0);
		}
	}
	return (-1);
}

/* The name of a level. */
const char *
log_level_name(enum log_level level)
{
	return (log_names[level]);
}

/* Write one message at a level, with errno text if err is not 0. */
static void
log_vwrite(enum log_level level, int err, const char *fmt, va_list ap)
{
	static const int prio[] = { LOG_ERR, LOG_WARNING, LOG_INFO, LOG_DEBUG };
	char	msg[1024];

	if (level > log_threshold)
		return;
	vsnprintf(msg, sizeof msg, fmt, ap);
	if (log_foreground) {
		if (err != 0)
			fprintf(stderr, "%s: %s: %s\n", log_progname, msg,
			    strerror(err));
		else
			fprintf(stderr, "%s: %s\n", log_progname, msg);
		fflush(stderr);
	} else if (err != 0)
		syslog(prio[level], "%s: %s", msg, strerror(err));
	else
		syslog(prio[level], "%s", msg);
}

#define LOG_BODY(level, err) do {		\
	va_list	ap;				\
	va_start(ap, fmt);			\
	log_vwrite((level), (err), fmt, ap);	\
	va_end(ap);				\
} while (0)

/* Debugging detail. */
void
log_debug(const char *fmt, ...)
{
	LOG_BODY(LOG_LEVEL_DEBUG, 0);
}

/* Something worth knowing. */
void
log_info(const char *fmt, ...)
{
	LOG_BODY(LOG_LEVEL_INFO, 0);
}

/* A problem, with errno's text. */
void
log_warn(const char *fmt, ...)
{
	int	err = errno;

	LOG_BODY(LOG_LEVEL_WARN, err);
}

/* A problem, without errno. */
void
log_warnx(const char *fmt, ...)
{
	LOG_BODY(LOG_LEVEL_WARN, 0);
}

/* A fatal error with errno's text: log and exit 1. */
void
fatal(const char *fmt, ...)
{
	int	err = errno;

	LOG_BODY(LOG_LEVEL_ERROR, err);
	exit(1);
}

/* A fatal error without errno: log and exit 1. */
void
fatalx(const char *fmt, ...)
{
	LOG_BODY(LOG_LEVEL_ERROR, 0);
	exit(1);
}
