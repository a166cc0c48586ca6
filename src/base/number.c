/*
 * number.c -- the strict readings of numbers that the options and files
 * of every program here share: digits only, nothing after them.
 */
#include <errno.h>
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
