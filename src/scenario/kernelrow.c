/*
 * kernelrow.c -- read the "# kernel:" comments of an imported scenario
 * (kernelrow.h): libconfig drops comments, so they are read from the
 * text here.  Strict like the rest of the loader: a "# kernel:" line
 * with a key we do not know, a value that is not one, or a line the
 * header has not come before is "FILE:LINE: message".  Whether each
 * row's task exists is the scenario's to check (scenario.c).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernelrow.h"
#include "xmalloc.h"

/* Fill *cause with "LABEL:LINE: message"; returns -1. */
static int __attribute__((format(printf, 4, 5)))
kernelrow_error(char **cause, const char *label, int line, const char *fmt,
    ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	*cause = xvasprintf_at(label, line, fmt, ap);
	va_end(ap);
	return (-1);
}

/* A whole unsigned decimal; -1 if s is not one. */
static int
kernelrow_u64(const char *s, uint64_t *out)
{
	unsigned long long	 v;
	char			*end;

	if (*s < '0' || *s > '9')
		return (-1);
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return (-1);
	*out = v;
	return (0);
}

/* A finite, non-negative decimal; -1 if s is not one. */
static int
kernelrow_double(const char *s, double *out)
{
	char	*end;
	double	 v;

	if ((*s < '0' || *s > '9') && *s != '.')
		return (-1);
	v = strtod(s, &end);
	if (*end != '\0' || !isfinite(v) || v < 0)
		return (-1);
	*out = v;
	return (0);
}

/* One "key=value" of a task row into r; 0, or -1 if it is not one. */
static int
kernelrow_task_key(struct kernelrow *r, const char *key, const char *val,
    unsigned *seen)
{
	static const char	*lat[3] = { "lat_p50", "lat_p95", "lat_max" };
	uint64_t		 u;
	char			*end;
	long			 l;
	int			 i;

	if (strcmp(key, "task") == 0) {
		if (*val == '\0')
			return (-1);
		free(r->task);
		r->task = xstrdup(val);
		*seen |= 1;
		return (0);
	}
	if (strcmp(key, "nice") == 0) {
		errno = 0;
		l = strtol(val, &end, 10);
		if (*val == '\0' || *end != '\0' || errno != 0 || l < -20 ||
		    l > 19)
			return (-1);
		r->nice = (int)l;
		return (0);
	}
	if (strcmp(key, "share") == 0)
		return (kernelrow_double(val, &r->share));
	if (strcmp(key, "ran_us") == 0)
		return (kernelrow_u64(val, &r->ran_us));
	if (strcmp(key, "runs") == 0) {
		if (kernelrow_u64(val, &u) != 0)
			return (-1);
		r->runs = u;
		return (0);
	}
	for (i = 0; i < 3; i++) {
		if (strcmp(key, lat[i]) != 0)
			continue;
		if (strcmp(val, "-") == 0)
			return (0);
		if (kernelrow_double(val, &r->lat[i]) != 0)
			return (-1);
		r->has_lat = 1;
		return (0);
	}
	return (-1);
}

/* One "key=value" of the header; 0, or -1 if it is not one. */
static int
kernelrow_head_key(struct kernelrows *kr, const char *key, const char *val)
{
	uint64_t	u;

	if (strcmp(key, "span_us") == 0)
		return (kernelrow_u64(val, &kr->span_us));
	if (strcmp(key, "cpus") == 0) {
		if (kernelrow_u64(val, &u) != 0 || u < 1 || u > 4096)
			return (-1);
		kr->cpus = (int)u;
		return (0);
	}
	return (-1);
}

/* One "# kernel:" line (its text after the prefix, a copy to cut). */
static int
kernelrow_line(struct kernelrows *kr, char *s, const char *label, int line,
    size_t *size, char **cause)
{
	struct kernelrow	 r;
	char			*word, *eq;
	unsigned		 seen = 0;
	int			 is_task;

	while (*s == ' ' || *s == '\t')
		s++;
	is_task = strncmp(s, "task=", 5) == 0;
	if (!is_task && kr->span_us != 0)
		return (kernelrow_error(cause, label, line, "a second kernel "
		    "header (the first at line %d)", kr->line));
	if (is_task && kr->span_us == 0)
		return (kernelrow_error(cause, label, line, "a kernel row "
		    "before the \"%s span_us=... cpus=...\" header",
		    KERNELROW_PREFIX));
	memset(&r, 0, sizeof r);
	r.line = line;
	while ((word = strsep(&s, " \t")) != NULL) {
		if (*word == '\0')
			continue;
		if ((eq = strchr(word, '=')) == NULL) {
			free(r.task);
			return (kernelrow_error(cause, label, line, "kernel "
			    "comment: \"%s\" is not key=value", word));
		}
		*eq++ = '\0';
		if (is_task ? kernelrow_task_key(&r, word, eq, &seen) :
		    kernelrow_head_key(kr, word, eq)) {
			free(r.task);
			return (kernelrow_error(cause, label, line, "kernel "
			    "comment: bad %s \"%s\" (known: %s)", word, eq,
			    is_task ? "task, nice, share, ran_us, runs, "
			    "lat_p50, lat_p95, lat_max" : "span_us, cpus"));
		}
	}
	if (!is_task) {
		if (kr->span_us == 0)
			return (kernelrow_error(cause, label, line, "kernel "
			    "header without a span_us above 0"));
		if (kr->cpus == 0)
			kr->cpus = 1;
		kr->line = line;
		return (0);
	}
	if (kr->nrows == *size)
		kr->rows = xgrow(kr->rows, size, 16, sizeof *kr->rows);
	kr->rows[kr->nrows++] = r;
	return (0);
}

/*
 * Read every line of text that starts "# kernel:" into kr; 0, or -1
 * with *cause ("LABEL:LINE: message").  No such line: kr stays empty.
 */
int
kernelrow_parse(const char *text, const char *label, struct kernelrows *kr,
    char **cause)
{
	const char	*p = text, *nl;
	size_t		 plen = strlen(KERNELROW_PREFIX), size = 0;
	char		*copy;
	int		 line = 1, r;

	memset(kr, 0, sizeof *kr);
	for (; *p != '\0'; p = nl + 1, line++) {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);
		if (strncmp(p, KERNELROW_PREFIX, plen) == 0) {
			copy = xstrndup(p + plen, (size_t)(nl - p) - plen);
			r = kernelrow_line(kr, copy, label, line, &size,
			    cause);
			free(copy);
			if (r != 0) {
				kernelrow_free(kr);
				return (-1);
			}
		}
		if (*nl == '\0')
			break;
	}
	return (0);
}

/* Free the rows. */
void
kernelrow_free(struct kernelrows *kr)
{
	size_t	i;

	for (i = 0; i < kr->nrows; i++)
		free(kr->rows[i].task);
	free(kr->rows);
	memset(kr, 0, sizeof *kr);
}
