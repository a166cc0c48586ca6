/*
 * quote.c -- a word from outside (a client, a file, a command line)
 * quoted for an error message or a log line, so that whatever came in
 * is echoed back as printable ASCII of a bounded length.
 */
#include <stddef.h>
#include <string.h>

#include "quote.h"

/*
 * Quote a word from the user for an error message or a log line: the one
 * place client input is echoed back.  Between double quotes, printable
 * ASCII stays as it is (a '"' or '\' is escaped with a backslash) and any
 * other byte becomes \xNN, so the result is printable ASCII whatever came
 * in; at most QUOTE_MAX characters of that go between the quotes,
 * and a longer word is cut and marked "...".  buf needs QUOTE_SIZE
 * bytes to hold the longest result; a smaller one cuts sooner.
 */
char *
quote_word(const char *s, char *buf, size_t len)
{
	static const char	 hex[] = "0123456789abcdef";
	const unsigned char	*u = (const unsigned char *)s;
	char			 e[4];
	size_t			 i, o = 0, n, room;

	if (len < 8) {
		if (len > 0)
			buf[0] = '\0';
		return (buf);
	}
	room = len - 6 < QUOTE_MAX ? len - 6 : QUOTE_MAX;
	buf[o++] = '"';
	for (i = 0; u[i] != '\0'; i++) {
		if (u[i] == '"' || u[i] == '\\') {
			e[0] = '\\';
			e[1] = (char)u[i];
			n = 2;
		} else if (u[i] >= 0x20 && u[i] < 0x7f) {
			e[0] = (char)u[i];
			n = 1;
		} else {
			e[0] = '\\';
			e[1] = 'x';
			e[2] = hex[u[i] >> 4];
			e[3] = hex[u[i] & 0xf];
			n = 4;
		}
		if (o - 1 + n > room) {
			memcpy(buf + o, "...", 3);
			o += 3;
			break;
		}
		memcpy(buf + o, e, n);
		o += n;
	}
	buf[o++] = '"';
	buf[o] = '\0';
	return (buf);
}
