/*
 * number.h -- whole numbers and hex digits read from text (number.c).
 */
#ifndef STAIRS_NUMBER_H
#define STAIRS_NUMBER_H

int	number_parse(const char *s, long long min, long long max,
	    long long *out);
int	number_option(const char *prog, const char *opt, const char *arg,
	    long long min, long long max, const char *what, long long *out);
int	number_hex(char c);

#endif
