/*
 * number.c -- the strict readings of numbers that the options and files
 * of every program here share: digits only, nothing after them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "number.h"

/*
 * A whole decimal number within min..max: digits only (no sign, no
 * blanks, nothing after them).  0, or -1 if s is not one.
 */
int
number_parse(const char *s, long long min, long long max, long long *out)
{
	char		*end;
	long long	 v;

	if (*s < '0' || *s > '9')
		return (-1);
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < min || v > max)
		return (-1);
	*out = v;
	return (0);
}

/*
 * An option's whole number within min..max, as number_parse; if arg is
 * none, say so on stderr, "PROG: --OPT "ARG": not WHAT" (a NULL what:
 * "a number in MIN..MAX"), and return -1.
 */
int
number_option(const char *prog, const char *opt, const char *arg,
    long long min, long long max, const char *what, long long *out)
{
	if (number_parse(arg, min, max, out) == 0)
		return (0);
	if (what != NULL)
		fprintf(stderr, "%s: --%s \"%s\": not %s\n", prog, opt, arg,
		    what);
	else
		fprintf(stderr, "%s: --%s \"%s\": not a number in "
		    "%lld..%lld\n", prog, opt, arg, min, max);
	return (-1);
}

/* The value of a hex digit, either case; -1 if c is none (NUL too). */
int
number_hex(char c)
{
	if (c >= '0' && c <= '9')
		return (c - '0');
	if (c >= 'a' && c <= 'f')
		return (c - 'a' + 10);
	if (c >= 'A' && c <= 'F')
		return (c - 'A' + 10);
	return (-1);
}
