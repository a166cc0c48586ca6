/*
 * fuzz_journal.c -- libFuzzer harness for the journal reader (journal.c,
 * docs/JOURNAL.md): the input is a journal's text, read with
 * journal_parse().  A refusal must say "fuzz:LINE: message"; a journal
 * that reads is written back (header, changes, end) and read again, and
 * the second writing must equal the first byte for byte: what the reader
 * accepts, the writer writes so that it reads back the same.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "journal.h"
#include "fuzz.h"

/* Write j to a malloc'd string. */
static char *
fuzz_write(const struct journal *j, size_t *len)
{
	FILE	*f;
	char	*buf = NULL;
	size_t	 i;

	if ((f = open_memstream(&buf, len)) == NULL)
		abort();
	journal_write_header(f, &j->header);
	for (i = 0; i < j->nchanges; i++)
		journal_write_change(f, &j->changes[i]);
	journal_write_end(f, j->end);
	if (fclose(f) != 0)
		abort();
	return (buf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct journal	*j, *j2;
	char		*cause = NULL, *a, *b;
	size_t		 alen, blen;

	if ((j = journal_parse((const char *)data, size, "fuzz",
	    &cause)) == NULL) {
		if (strncmp(cause, "fuzz:", 5) != 0)
			abort();
		free(cause);
		return (0);
	}
	a = fuzz_write(j, &alen);
	if ((j2 = journal_parse(a, alen, "again", &cause)) == NULL) {
		fprintf(stderr, "written journal refused: %s\n", cause);
		abort();
	}
	b = fuzz_write(j2, &blen);
	if (alen != blen || memcmp(a, b, alen) != 0)
		abort();
	free(a);
	free(b);
	journal_free(j2);
	journal_free(j);
	return (0);
}
