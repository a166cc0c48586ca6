/*
 * xmalloc.h -- allocation helpers that never return NULL: running out of
 * memory is fatal, so callers need no checks.
 */
#ifndef STAIRS_XMALLOC_H
#define STAIRS_XMALLOC_H

#include <stdarg.h>
#include <stddef.h>

void   *xmalloc(size_t);
void   *xcalloc(size_t, size_t);
void   *xrealloc(void *, size_t);
void   *xreallocarray(void *, size_t, size_t);
void   *xrecallocarray(void *, size_t, size_t, size_t);
void   *xgrow(void *, size_t *, size_t, size_t);
/* Room for element want - 1 of an array indexed by id - 1 (zeroed). */
void   *xgrowto(void *, int *n, int want, size_t);
char   *xstrdup(const char *);
char   *xstrndup(const char *, size_t);
char   *xasprintf(const char *, ...) __attribute__((format(printf, 1, 2)));
char   *xvasprintf(const char *, va_list) __attribute__((format(printf, 1, 0)));
char   *xvasprintf_at(const char *label, int line, const char *, va_list)
	    __attribute__((format(printf, 3, 0)));

/* NULL-ended vectors of strings (an argv). */
char  **argv_copy(char *const *);
void	argv_free(char **);
/* Vectors of n strings (NULL: none). */
char  **strv_copy(char *const *, size_t n);
void	strv_free(char **, size_t n);

#endif
