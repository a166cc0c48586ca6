/*
 * readconf.c -- read a libconfig file safely, for config.c and
 * scenario.c (and anything else that reads a file a user names).
 *
 * libconfig 1.5 has no include hook (config_set_include_func came in
 * 1.7), so libconfig is never let open a file: the file's text is read
 * here and scanned the way libconfig's scanner reads it (comments,
 * strings, "@include" at the start of a line, integers).  Every @include
 * is resolved against the directory of the file that holds it (the
 * current directory for a text with no file), read and scanned in turn,
 * and its text spliced in where the @include stood, so libconfig parses
 * one text.  A file that is not a regular file is refused without being
 * waited on, and an integer libconfig would silently wrap (a plain one
 * outside 32 bits, an L one outside 64) is refused with the FILE:LINE
 * where it is written.
 *
 * Splicing also keeps the parse linear: libconfig's scanner reads an
 * included file from a FILE 8 KiB at a time and scans a token that
 * spans a refill again from its start, so one long line in an include
 * took time quadratic in its length (4 MB: 8 s, against 0.03 s inline).
 * A map of the spliced text's lines (which file, which line) turns
 * libconfig's line numbers back into each file's own: every setting's
 * config_setting_source_file() and _line() are set from it after the
 * parse, so an @include'd setting names its file as if libconfig had
 * read it, and its file name lives as long as the config.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libconfig.h>

#include "readconf.h"
#include "number.h"
#include "xmalloc.h"

#define READCONF_QUOTE_MAX	40	/* characters of input in a message */

/* A run of the spliced text's lines, from one file. */
struct readconf_seg {
	int		 first;		/* its first line in the spliced text */
	const char	*file;		/* an included file; NULL: the top */
	int		 line;		/* the same line in that file */
};

/* The included files' names, hooked on the config's root setting. */
struct readconf_names {
	char		**v;
	int		  n;
};

/* What one read carries: files so far, error, the spliced text. */
struct readconf_ctx {
	int			 topfile;	/* the top text is a file */
	int			 nfiles;
	size_t			 total;	/* bytes of every file read */
	char			*error;

	char			*out;	/* NULL until the first @include */
	size_t			 len, size;
	int			 line;	/* the line out ends on */
	struct readconf_seg	*seg;
	size_t			 nseg;
	struct readconf_names	*names;
};

static int	readconf_error(struct readconf_ctx *, const char *, int,
		    const char *, ...) __attribute__((format(printf, 4, 5)));
static int	readconf_scan(struct readconf_ctx *, const char *, size_t,
		    const char *, const char *, int);

/*
 * Record the first error about a file's contents in *error (a later one
 * is dropped): "FILE:LINE: message", or "FILE: message" when line is 0.
 * FILE is readconf_name(top, file): the file libconfig names for a
 * setting (an @include'd one names itself), else top.  Returns -1.
 */
int
readconf_verror(char **error, const char *top, const char *file, int line,
    const char *fmt, va_list ap)
{
	char	*name;

	if (*error != NULL)
		return (-1);
	name = readconf_name(top, file);
	*error = xvasprintf_at(name, line, fmt, ap);
	free(name);
	return (-1);
}

/* Record the first error of this read at LABEL:LINE; returns -1. */
static int
readconf_error(struct readconf_ctx *ctx, const char *label, int line,
    const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	readconf_verror(&ctx->error, label, NULL, line, fmt, ap);
	va_end(ap);
	return (-1);
}

/* Why a file of this mode is not read; NULL for a regular file. */
static const char *
readconf_kind(mode_t mode)
{
	if (S_ISREG(mode))
		return (NULL);
	if (S_ISDIR(mode))
		return ("not a regular file (a directory)");
	if (S_ISFIFO(mode))
		return ("not a regular file (a FIFO)");
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return ("not a regular file (a device)");
	if (S_ISSOCK(mode))
		return ("not a regular file (a socket)");
	return ("not a regular file");
}

/*
 * Open path for reading if it is a regular file: its fd, or -1 with
 * *why (a constant or strerror text).  The file is looked at before it
 * is opened (opening a device or a FIFO can block or have effects) and
 * again after (it may have been replaced); O_NONBLOCK makes sure even a
 * FIFO swapped in between does not block the open.
 */
static int
readconf_open_why(const char *path, const char **why)
{
	struct stat	st;
	int		fd, saved;

	if (stat(path, &st) != 0) {
		*why = strerror(errno);
		return (-1);
	}
	if ((*why = readconf_kind(st.st_mode)) != NULL)
		return (-1);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd == -1) {
		*why = strerror(errno);
		return (-1);
	}
	if (fstat(fd, &st) != 0) {
		saved = errno;
		close(fd);
		*why = strerror(saved);
		return (-1);
	}
	if ((*why = readconf_kind(st.st_mode)) != NULL) {
		close(fd);
		return (-1);
	}
	return (fd);
}

/* Read a regular file whole (NUL-ended); NULL with *why. */
static char *
readconf_slurp_why(const char *path, size_t *lenp, const char **why)
{
	struct stat	 st;
	char		*buf = NULL;
	size_t		 len = 0, size = 0;
	ssize_t		 n;
	int		 fd, saved;

	if ((fd = readconf_open_why(path, why)) == -1)
		return (NULL);
	/* Too large by its size: refused before a byte is read. */
	if (fstat(fd, &st) == 0 && st.st_size > (off_t)READCONF_MAX_SIZE) {
		*why = "larger than 64 MiB";
		goto fail;
	}
	for (;;) {
		if (len > READCONF_MAX_SIZE) {
			*why = "larger than 64 MiB";
			goto fail;
		}
		/* Room for at most READCONF_MAX_SIZE + 1 bytes and the NUL. */
		if (len + 1 >= size) {
			size = size == 0 ? 8192 : size * 2;
			if (size > READCONF_MAX_SIZE + 2)
				size = READCONF_MAX_SIZE + 2;
			buf = xrealloc(buf, size);
		}
		n = read(fd, buf + len, size - len - 1);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			saved = errno;
			*why = strerror(saved);
			goto fail;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	if (memchr(buf, '\0', len) != NULL) {
		*why = "has a NUL byte (not a text file)";
		free(buf);
		return (NULL);
	}
	*lenp = len;
	return (buf);
fail:
	close(fd);
	free(buf);
	return (NULL);
}

/* Read a regular file whole (NUL-ended); NULL with *cause "PATH: why". */
char *
readconf_slurp(const char *path, size_t *len, char **cause)
{
	const char	*why;
	char		*text;

	if ((text = readconf_slurp_why(path, len, &why)) == NULL)
		*cause = xasprintf("%s: %s", path, why);
	return (text);
}

/* Add n bytes to the spliced text, counting its lines. */
static void
readconf_out(struct readconf_ctx *ctx, const char *p, size_t n)
{
	const char	*end = p + n, *nl;

	if (ctx->len + n + 1 > ctx->size) {
		ctx->size = ctx->size == 0 ? 8192 : ctx->size;
		while (ctx->len + n + 1 > ctx->size)
			ctx->size *= 2;
		ctx->out = xrealloc(ctx->out, ctx->size);
	}
	memcpy(ctx->out + ctx->len, p, n);
	ctx->len += n;
	ctx->out[ctx->len] = '\0';
	while ((nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		ctx->line++;
		p = nl + 1;
	}
}

/* From the spliced text's current line on, lines are file's from line. */
static void
readconf_seg(struct readconf_ctx *ctx, const char *file, int line)
{
	struct readconf_seg	*sg;

	if (ctx->nseg > 0 && ctx->seg[ctx->nseg - 1].first == ctx->line)
		ctx->nseg--;		/* an empty run: replaced */
	ctx->seg = xreallocarray(ctx->seg, ctx->nseg + 1, sizeof *ctx->seg);
	sg = &ctx->seg[ctx->nseg++];
	sg->first = ctx->line;
	sg->file = file;
	sg->line = line;
}

/*
 * Read, check and scan one @include'd file named name (namelen bytes),
 * written at label:line, whose directory is dir (NULL: the current one).
 */
static int
readconf_include(struct readconf_ctx *ctx, const char *label, int line,
    const char *dir, const char *name, size_t namelen, int depth)
{
	struct readconf_names	*nm = ctx->names;
	const char		*why, *more;
	char			*file, *path, *text;
	size_t			 len;
	int			 shown, rc;

	more = namelen > READCONF_QUOTE_MAX ? "..." : "";
	shown = namelen > READCONF_QUOTE_MAX ? READCONF_QUOTE_MAX :
	    (int)namelen;
	if (depth >= READCONF_MAX_DEPTH)
		return (readconf_error(ctx, label, line, "@include \"%.*s%s\": "
		    "nested more than %d deep", shown, name, more,
		    READCONF_MAX_DEPTH));
	if (++ctx->nfiles > READCONF_MAX_FILES)
		return (readconf_error(ctx, label, line, "@include \"%.*s%s\": "
		    "more than %d files", shown, name, more,
		    READCONF_MAX_FILES));
	file = xstrndup(name, namelen);
	if (*file != '/' && dir != NULL)
		path = xasprintf("%s/%s", dir, file);
	else
		path = xstrdup(file);
	free(file);
	if ((text = readconf_slurp_why(path, &len, &why)) == NULL) {
		free(path);
		return (readconf_error(ctx, label, line, "@include \"%.*s%s\": "
		    "%s", shown, name, more, why));
	}
	if (len > READCONF_MAX_SIZE - ctx->total) {
		free(text);
		free(path);
		return (readconf_error(ctx, label, line, "@include \"%.*s%s\": "
		    "the files together are larger than 64 MiB", shown, name,
		    more));
	}
	ctx->total += len;
	/* The name lives with the config: settings point at it. */
	nm->v = xreallocarray(nm->v, nm->n + 1, sizeof *nm->v);
	nm->v[nm->n++] = path;
	rc = readconf_scan(ctx, text, len, path, path, depth + 1);
	free(text);
	return (rc);
}

/*
 * Check one number token (tok, n characters): a plain integer must fit
 * in 32 bits and one with an L suffix in 64, as libconfig stores them;
 * floats and anything that is not an integer are left to libconfig.
 */
static int
readconf_number(struct readconf_ctx *ctx, const char *label, int line,
    const char *key, size_t keylen, const char *tok, size_t n)
{
	const char	*s = tok, *e = tok + n, *q, *more;
	uint64_t	 v = 0, limit;
	int		 neg = 0, base = 10, wide = 0, over = 0, d, shown;

	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	if (e - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (e > s && e[-1] == 'L') {
		wide = 1;
		if (--e > s && e[-1] == 'L')
			e--;
	}
	if (s == e)
		return (0);
	for (q = s; q < e; q++) {
		if ((d = number_hex(*q)) == -1 || d >= base)
			return (0);	/* a float, or libconfig's to refuse */
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			over = 1;
		else
			v = v * (uint64_t)base + (uint64_t)d;
	}
	limit = wide ? INT64_MAX : INT32_MAX;
	if (neg && base == 10)
		limit++;
	if (!over && v <= limit)
		return (0);
	shown = n > READCONF_QUOTE_MAX ? READCONF_QUOTE_MAX : (int)n;
	more = n > READCONF_QUOTE_MAX ? "..." : "";
	if (keylen > READCONF_QUOTE_MAX)
		keylen = READCONF_QUOTE_MAX;
	if (wide)
		return (readconf_error(ctx, label, line, "%.*s%s%.*s%s: does "
		    "not fit in a 64-bit integer", (int)keylen, key,
		    keylen ? " = " : "number ", shown, tok, more));
	return (readconf_error(ctx, label, line, "%.*s%s%.*s%s: does not fit "
	    "in a plain integer (-2147483648..2147483647); write a 64-bit "
	    "value with an L, e.g. 5000000000L", (int)keylen, key,
	    keylen ? " = " : "number ", shown, tok, more));
}

/* Is c part of a libconfig name? */
static int
readconf_namechar(char c)
{
	return ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '*');
}

/*
 * Scan text (len bytes, named label in messages; file is its name in the
 * line map, NULL for the top text) as libconfig's scanner would: skip
 * comments and strings, follow "@include" at the start of a line (after
 * blanks) and check every integer; and splice it, its includes in their
 * places, into ctx->out.  0, or -1 with ctx->error.
 */
static int
readconf_scan(struct readconf_ctx *ctx, const char *text, size_t len,
    const char *label, const char *file, int depth)
{
	const char	*p = text, *end = text + len, *q, *key = NULL;
	const char	*copied = text, *slash, *open = NULL, *at;
	char		*dir = NULL;
	size_t		 keylen = 0;
	int		 line = 1, bol = 1, hex, rc = -1;

	/* Includes resolve against this file's directory. */
	if ((slash = strrchr(label, '/')) != NULL && (depth > 0 ||
	    ctx->topfile))
		dir = xstrndup(label, slash == label ? 1 :
		    (size_t)(slash - label));
	if (depth > 0)
		readconf_seg(ctx, file, 1);
	while (p < end) {
		if (*p == '\n') {
			line++;
			bol = 1;
			p++;
			continue;
		}
		if (*p == ' ' || *p == '\t') {
			p++;
			continue;
		}
		if (*p == '@' && bol && end - p > 9 &&
		    strncmp(p, "@include", 8) == 0 &&
		    (p[8] == ' ' || p[8] == '\t')) {
			at = p;
			for (q = p + 8; q < end && (*q == ' ' || *q == '\t');
			    q++)
				;
			if (q < end && *q == '"') {
				p = ++q;
				while (q < end && *q != '"' && *q != '\n' &&
				    *q != '\\')
					q++;
				if (q == end || *q != '"') {
					readconf_error(ctx, label, line,
					    "@include needs a plain \"file\" "
					    "name on one line");
					goto out;
				}
				/* What came before, the file, the rest. */
				readconf_out(ctx, copied,
				    (size_t)(at - copied));
				if (readconf_include(ctx, label, line, dir, p,
				    (size_t)(q - p), depth) != 0)
					goto out;
				if (ctx->len > 0 &&
				    ctx->out[ctx->len - 1] != '\n')
					readconf_out(ctx, "\n", 1);
				readconf_seg(ctx, file, line);
				copied = p = q + 1;
				bol = 0;
				continue;
			}
		}
		bol = 0;
		if (*p == '#' || (*p == '/' && p + 1 < end && p[1] == '/')) {
			while (p < end && *p != '\n')
				p++;
		} else if (*p == '/' && p + 1 < end && p[1] == '*') {
			open = "a comment";
			for (p += 2; p < end && !(*p == '*' && p + 1 < end &&
			    p[1] == '/'); p++) {
				if (*p == '\n')
					line++;
			}
			if (p < end)
				open = NULL;
			p = p < end ? p + 2 : end;
		} else if (*p == '"') {
			open = "a string";
			for (p++; p < end && *p != '"'; p++) {
				if (*p == '\\' && p + 1 < end)
					p++;
				if (*p == '\n')
					line++;
			}
			if (p < end) {
				open = NULL;
				p++;
			}
		} else if ((*p >= 'a' && *p <= 'z') ||
		    (*p >= 'A' && *p <= 'Z') || *p == '*') {
			for (q = p; q < end && readconf_namechar(*q); q++)
				;
			key = p;
			keylen = (size_t)(q - p);
			p = q;
		} else if ((*p >= '0' && *p <= '9') || ((*p == '-' ||
		    *p == '+') && p + 1 < end && p[1] >= '0' && p[1] <= '9')) {
			q = p + 1;
			hex = end - q > 1 && q[-1] == '0' &&
			    (*q == 'x' || *q == 'X');
			for (; q < end; q++) {
				if (readconf_namechar(*q) && *q != '-' &&
				    *q != '*')
					continue;
				if (*q == '.')
					continue;
				if ((*q == '-' || *q == '+') && !hex &&
				    (q[-1] == 'e' || q[-1] == 'E'))
					continue;
				break;
			}
			if (readconf_number(ctx, label, line, key, keylen, p,
			    (size_t)(q - p)) != 0)
				goto out;
			p = q;
		} else
			p++;
	}
	/*
	 * An included file that ends inside a string or a comment would
	 * swallow what follows its @include once spliced.
	 */
	if (depth > 0 && open != NULL) {
		readconf_error(ctx, label, line, "ends inside %s", open);
		goto out;
	}
	if (ctx->out != NULL)
		readconf_out(ctx, copied, (size_t)(end - copied));
	rc = 0;
out:
	free(dir);
	return (rc);
}

/*
 * The name to show for a file a setting names (config_setting_source_
 * file(), set from the line map after the parse): top itself if file is
 * NULL, else file, the path as it was opened.  The result is allocated.
 */
char *
readconf_name(const char *top, const char *file)
{
	return (xstrdup(file != NULL ? file : top));
}

/* Where line of the spliced text was written: *file (NULL: the top). */
static int
readconf_where(const struct readconf_ctx *ctx, int line, const char **file)
{
	size_t	lo = 0, hi = ctx->nseg, mid;

	*file = NULL;
	if (ctx->nseg == 0 || line < 1)
		return (line);
	/* The last run that starts at or before line. */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (ctx->seg[mid].first <= line)
			lo = mid;
		else
			hi = mid;
	}
	*file = ctx->seg[lo].file;
	return (ctx->seg[lo].line + (line - ctx->seg[lo].first));
}

/* Each setting's file and line, from the spliced text's to its own. */
static void
readconf_remap(const struct readconf_ctx *ctx, config_setting_t *s)
{
	config_setting_t	*e;
	const char		*file;
	int			 i;

	s->line = (unsigned int)readconf_where(ctx, (int)s->line, &file);
	s->file = file;
	if (!config_setting_is_aggregate(s))
		return;
	for (i = 0; (e = config_setting_get_elem(s, i)) != NULL; i++)
		readconf_remap(ctx, e);
}

/* Free the included files' names with the config (its destructor). */
static void
readconf_names_free(void *arg)
{
	struct readconf_names	*nm = arg;

	strv_free(nm->v, (size_t)nm->n);
	free(nm);
}

/* libconfig's error as "FILE:LINE: message" (the file it was in). */
static char *
readconf_config_error(const struct readconf_ctx *ctx, const config_t *cf,
    const char *label)
{
	const char	*file;
	int		 line;

	line = readconf_where(ctx, config_error_line(cf), &file);
	if (file == NULL)
		file = label;
	if (line > 0)
		return (xasprintf("%s:%d: %s", file, line,
		    config_error_text(cf)));
	return (xasprintf("%s: %s", file, config_error_text(cf)));
}

/*
 * Scan text and its includes, splice them, then let libconfig parse the
 * one text into cf; topfile: label is the path text was read from.  With
 * spliced, *spliced is the one text parsed (every @include replaced by
 * its file's text), the caller's to free.
 */
static int
readconf_parse(config_t *cf, const char *text, size_t len,
    const char *label, int topfile, char **spliced, char **cause)
{
	struct readconf_ctx	ctx;
	int			rc = -1;

	memset(&ctx, 0, sizeof ctx);
	ctx.topfile = topfile;
	ctx.nfiles = 1;
	ctx.total = len;
	ctx.line = 1;
	ctx.names = xcalloc(1, sizeof *ctx.names);
	readconf_seg(&ctx, NULL, 1);
	if (readconf_scan(&ctx, text, len, label, NULL, 0) != 0) {
		*cause = ctx.error;
		goto out;
	}
	if (config_read_string(cf, ctx.out != NULL ? ctx.out : text) !=
	    CONFIG_TRUE) {
		*cause = readconf_config_error(&ctx, cf, label);
		goto out;
	}
	if (ctx.names->n > 0) {
		readconf_remap(&ctx, config_root_setting(cf));
		config_set_destructor(cf, readconf_names_free);
		config_setting_set_hook(config_root_setting(cf), ctx.names);
		ctx.names = NULL;
	}
	if (spliced != NULL) {
		*spliced = ctx.out != NULL ? ctx.out : xstrndup(text, len);
		ctx.out = NULL;
	}
	rc = 0;
out:
	if (ctx.names != NULL)
		readconf_names_free(ctx.names);
	free(ctx.seg);
	free(ctx.out);
	return (rc);
}

/*
 * Read the file at path into cf (from config_init): an @include is
 * relative to the directory of the file that holds it.  Settings from
 * path itself have no config_setting_source_file(); those from an
 * include have theirs, the path it was read from.  With text, *text is
 * what was parsed, includes spliced in (readconf_parse).  0, or -1 with
 * *cause ("FILE:LINE: message" or "FILE: message").
 */
int
readconf_read(config_t *cf, const char *path, char **text, char **cause)
{
	char	*top;
	size_t	 len;
	int	 rc;

	if ((top = readconf_slurp(path, &len, cause)) == NULL)
		return (-1);
	rc = readconf_parse(cf, top, len, path, 1, text, cause);
	free(top);
	return (rc);
}

/*
 * Read text into cf as readconf_read does; label names it in messages,
 * its own @include paths are relative to the current directory.
 */
int
readconf_read_string(config_t *cf, const char *text, const char *label,
    char **spliced, char **cause)
{
	return (readconf_parse(cf, text, strlen(text), label, 0, spliced,
	    cause));
}
