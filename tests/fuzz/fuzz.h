/*
 * fuzz.h -- shared by the libFuzzer harnesses in tests/fuzz (make fuzz,
 * docs/FUZZING.md): the entry points libFuzzer calls, and the helper the
 * line-based harnesses (protocol, model) use, cutting the input into lines.
 */
#ifndef STAIRS_FUZZ_H
#define STAIRS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);
int	LLVMFuzzerInitialize(int *, char ***);

/*
 * Call fn on each line of data (without its \n) as the daemon and the
 * client see lines: a copy ending in a NUL, with its length.  Stops early
 * when fn returns nonzero; returns that value, or 0.
 */
static inline int
fuzz_lines(const uint8_t *data, size_t size,
    int (*fn)(void *, char *, size_t), void *arg)
{
	const uint8_t	*p = data, *end = data + size, *nl;
	char		 line[8192 + 1];
	size_t		 len;
	int		 r;

	while (p < end) {
		if ((nl = memchr(p, '\n', end - p)) == NULL)
			nl = end;
		len = nl - p;
		if (len > sizeof line - 1)
			len = sizeof line - 1;	/* over every limit anyway */
		memcpy(line, p, len);
		line[len] = '\0';
		if ((r = fn(arg, line, len)) != 0)
			return (r);
		p = nl + 1;
	}
	return (0);
}

#endif
