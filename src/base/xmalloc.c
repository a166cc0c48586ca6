/*
 * xmalloc.c -- allocation helpers that abort with a message instead of
 * returning NULL.  Kept free of the logging code so the engine can use
 * them without pulling in any I/O setup.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

/* Out of memory: nothing sensible is left to do. */
static void __attribute__((noreturn))
xmalloc_fail(size_t n)
{
	fprintf(stderr, "stairs: out of memory allocating %zu bytes\n", n);
	abort();
}

/* malloc that never fails; a zero size gives a valid pointer. */
void *
xmalloc(size_t n)
{
	void	*p;

	if ((p = malloc(n ? n : 1)) == NULL)
		xmalloc_fail(n);
	return (p);
}

/* calloc that never fails. */
void *
xcalloc(size_t nmemb, size_t size)
{
	void	*p;

	if (nmemb == 0 || size == 0)
		nmemb = size = 1;
	if ((p = calloc(nmemb, size)) == NULL)
		xmalloc_fail(nmemb * size);
	return (p);
}

/* realloc that never fails. */
void *
xrealloc(void *old, size_t n)
{
	void	*p;

	if ((p = realloc(old, n ? n : 1)) == NULL)
		xmalloc_fail(n);
	return (p);
}

/* realloc of nmemb * size with an overflow check. */
void *
xreallocarray(void *old, size_t nmemb, size_t size)
{
	if (size != 0 && nmemb > SIZE_MAX / size)
		xmalloc_fail(SIZE_MAX);
	return (xrealloc(old, nmemb * size));
}

/*
 * Resize an array of oldn elements to newn, as OpenBSD's recallocarray:
 * the elements added are zeroed.
 */
void *
xrecallocarray(void *p, size_t oldn, size_t newn, size_t size)
{
	p = xreallocarray(p, newn, size);
	if (newn > oldn)
		memset((char *)p + oldn * size, 0, (newn - oldn) * size);
	return (p);
}

/*
 * A growing array's next size: *size elements of elemsize bytes become
 * twice as many (first, the first time) and p is reallocated to them.
 */
void *
xgrow(void *p, size_t *size, size_t first, size_t elemsize)
{
	*size = *size != 0 ? *size * 2 : first;
	return (xreallocarray(p, *size, elemsize));
}

/*
 * Room for element want - 1 of an array of *n elements of elemsize bytes
 * (one indexed by id - 1, ids from 1): grown to want or to twice *n,
 * whichever is more, with the elements added zeroed.
 */
void *
xgrowto(void *p, int *n, int want, size_t elemsize)
{
	int	m;

	if (want <= *n)
		return (p);
	m = want > *n * 2 ? want : *n * 2;
	p = xrecallocarray(p, (size_t)*n, (size_t)m, elemsize);
	*n = m;
	return (p);
}

/* strdup that never fails. */
char *
xstrdup(const char *s)
{
	return (xstrndup(s, strlen(s)));
}

/* strndup that never fails. */
char *
xstrndup(const char *s, size_t n)
{
	char	*p;
	size_t	 len = strnlen(s, n);

	p = xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return (p);
}

/* vasprintf that never fails. */
char *
xvasprintf(const char *fmt, va_list ap)
{
	char	*s;

	if (vasprintf(&s, fmt, ap) == -1)
		xmalloc_fail(strlen(fmt));
	return (s);
}

/*
 * What is wrong at a place in a file, as every reader of files here says
 * it: "LABEL:LINE: message", or "LABEL: message" when line is 0.
 */
char *
xvasprintf_at(const char *label, int line, const char *fmt, va_list ap)
{
	char	*msg, *s;

	msg = xvasprintf(fmt, ap);
	if (line > 0)
		s = xasprintf("%s:%d: %s", label, line, msg);
	else
		s = xasprintf("%s: %s", label, msg);
	free(msg);
	return (s);
}

/* asprintf that never fails. */
char *
xasprintf(const char *fmt, ...)
{
	va_list	 ap;
	char	*s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return (s);
}

/* A copy of an argv: a NULL-ended vector of strings, each copied. */
char **
argv_copy(char *const *argv)
{
	char	**v;
	size_t	  n, i;

	for (n = 0; argv[n] != NULL; n++)
		;
	v = xcalloc(n + 1, sizeof *v);
	for (i = 0; i < n; i++)
		v[i] = xstrdup(argv[i]);
	return (v);
}

/* Free an argv (up to its NULL) and its strings; NULL is none. */
void
argv_free(char **argv)
{
	char	**p;

	if (argv == NULL)
		return;
	for (p = argv; *p != NULL; p++)
		free(*p);
	free(argv);
}

/* A copy of a vector of n strings, each copied; NULL when n is 0. */
char **
strv_copy(char *const *v, size_t n)
{
	char	**c;
	size_t	  i;

	if (n == 0)
		return (NULL);
	c = xcalloc(n, sizeof *c);
	for (i = 0; i < n; i++)
		c[i] = xstrdup(v[i]);
	return (c);
}

/* Free a vector of n strings and the strings. */
void
strv_free(char **v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}
