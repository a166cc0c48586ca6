/*
 * quote.h -- quote a word from outside for a message (quote.c).
 */
#ifndef STAIRS_QUOTE_H
#define STAIRS_QUOTE_H

#include <stddef.h>

#define QUOTE_MAX	40	/* characters of a quoted word */
#define QUOTE_SIZE	48	/* buffer for quote_word */

char	*quote_word(const char *s, char *buf, size_t len);

#endif
