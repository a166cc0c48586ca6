/*
 * protocol.c -- parse command lines and format reply lines for the stairs
 * socket protocol (docs/PROTOCOL.md).  Pure: no I/O.
 *
 * Parsing is strict on purpose: a person types these by hand, and a typo
 * that silently becomes "0" or "sleep forever" is worse than an error
 * that names the word it did not like.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "number.h"
#include "protocol.h"
#include "quote.h"
#include "runs.h"
#include "fields.h"
#include "xmalloc.h"


/* Is s a decimal number made of digits only? */
static int
protocol_digits(const char *s)
{
	if (*s == '\0')
		return (0);
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9')
			return (0);
	}
	return (1);
}

/* Parse a positive whole number of ms, 1..PROTO_MS_MAX. */
int
protocol_parse_ms(const char *what, const char *s, uint64_t *out,
    char **cause)
{
	unsigned long long	 v;
	char			 q[64];

	if (!protocol_digits(s)) {
		*cause = xasprintf("bad %s %s: expected a whole number of ms, "
		    "1 to %llu", what, quote_word(s, q, sizeof q),
		    PROTO_MS_MAX);
		return (-1);
	}
	errno = 0;
	v = strtoull(s, NULL, 10);
	if (errno == ERANGE || v > PROTO_MS_MAX) {
		*cause = xasprintf("bad %s %s: more than %llu", what,
		    quote_word(s, q, sizeof q), PROTO_MS_MAX);
		return (-1);
	}
	if (v == 0) {
		*cause = xasprintf("bad %s %s: expected a whole number of ms, "
		    "1 to %llu", what, quote_word(s, q, sizeof q),
		    PROTO_MS_MAX);
		return (-1);
	}
	*out = v;
	return (0);
}

/* Parse a whole number in min..max: an optional '-', then digits only. */
int
protocol_parse_int(const char *what, const char *s, long min, long max,
    long *out, char **cause)
{
	long	 v;
	char	 q[64];

	if (!protocol_digits(s[0] == '-' || s[0] == '+' ? s + 1 : s))
		goto bad;
	errno = 0;
	v = strtol(s, NULL, 10);
	if (errno == ERANGE || v < min || v > max)
		goto bad;
	*out = v;
	return (0);
bad:
	*cause = xasprintf("bad %s %s: expected a whole number in %ld..%ld",
	    what, quote_word(s, q, sizeof q), min, max);
	return (-1);
}

/* Parse a speed: a plain decimal number in 0.01..100. */
int
protocol_parse_speed(const char *s, double *out, char **cause)
{
	const char	*p;
	char		*end, q[64];
	double		 v;
	int		 digits = 0, dots = 0;

	for (p = s; *p != '\0'; p++) {
		if (*p >= '0' && *p <= '9')
			digits++;
		else if (*p == '.' && dots == 0)
			dots++;
		else
			goto bad;
	}
	if (digits == 0)
		goto bad;
	v = strtod(s, &end);
	if (*end != '\0' || !isfinite(v) || v < PROTO_SPEED_MIN - 1e-12 ||
	    v > PROTO_SPEED_MAX)
		goto bad;
	*out = v;
	return (0);
bad:
	*cause = xasprintf("bad speed %s: expected a number in 0.01..100",
	    quote_word(s, q, sizeof q));
	return (-1);
}

/* Parse a pattern "R,S,R,S": an even number of positive ms. */
int
protocol_parse_pattern(const char *s, uint32_t **out, size_t *n,
    char **cause)
{
	char		*copy, *word, *last, q[64];
	uint32_t	*v = NULL;
	uint64_t	 ms;
	size_t		 nv = 0;

	copy = xstrdup(s);
	for (word = strtok_r(copy, ",", &last); word != NULL;
	    word = strtok_r(NULL, ",", &last)) {
		if (nv == PROTO_PATTERN_MAX) {
			*cause = xasprintf("bad pattern %s: more than %d "
			    "numbers", quote_word(s, q, sizeof q),
			    PROTO_PATTERN_MAX);
			goto fail;
		}
		if (protocol_parse_ms("pattern ms", word, &ms, cause) != 0)
			goto fail;
		v = xreallocarray(v, nv + 1, sizeof *v);
		v[nv++] = (uint32_t)ms;
	}
	if (nv == 0 || nv % 2 != 0 || s[strlen(s) - 1] == ',' || s[0] == ',' ||
	    strstr(s, ",,") != NULL) {
		*cause = xasprintf("bad pattern %s: expected run,sleep pairs "
		    "of positive ms, e.g. 2,40",
		    quote_word(s, q, sizeof q));
		goto fail;
	}
	free(copy);
	*out = v;
	*n = nv;
	return (0);
fail:
	free(copy);
	free(v);
	return (-1);
}

/* --- The tokenizer: commands, data lines and the journal. ---------- */

_Static_assert(PROTO_FIELDS_MAX <= 32, "proto_fields.used has a bit a field");

/* Is c a blank between words (a tab too with PROTO_TABS)? */
static int
protocol_blank(int c, int flags)
{
	return (c == ' ' || (c == '\t' && (flags & PROTO_TABS)));
}

/*
 * Cut the next word off *sp in place (NUL-ended) and move *sp past the
 * blank after it.  Loose (the default): blanks before it are skipped,
 * and NULL comes at the end of the line.  PROTO_STRICT (the journal):
 * the word starts at *sp, ends at the next space, and *sp becomes NULL
 * when the line ends there instead, so "a " gives "a" then "" then
 * NULL: a caller finds a missing or a doubled space by that.
 */
char *
protocol_next(char **sp, int flags)
{
	char	*s = *sp, *w;

	if (s == NULL)
		return (NULL);
	if (flags & PROTO_STRICT) {
		w = s;
		s = strchrnul(s, ' ');
		if (*s == '\0')
			*sp = NULL;
		else {
			*s = '\0';
			*sp = s + 1;
		}
		return (w);
	}
	while (protocol_blank(*s, flags))
		s++;
	if (*s == '\0') {
		*sp = s;
		return (NULL);
	}
	w = s;
	while (*s != '\0' && !protocol_blank(*s, flags))
		s++;
	if (*s != '\0')
		*s++ = '\0';
	*sp = s;
	return (w);
}

/* Split a line into words at spaces and tabs; returns the count. */
int
protocol_split(char *line, char ***words)
{
	char	**v = NULL, *p = line, *w;
	int	  n = 0;

	while ((w = protocol_next(&p, PROTO_TABS)) != NULL) {
		v = xreallocarray(v, n + 1, sizeof *v);
		v[n++] = w;
	}
	*words = v;
	return (n);
}

/* A lowercase hex digit's value (quoting writes no other), or -1. */
static int
protocol_hex(char c)
{
	return (c >= 'A' && c <= 'F' ? -1 : number_hex(c));
}

/*
 * Unquote the quoted string at *sp in place (docs/JOURNAL.md,
 * "Quoting": \\ \" \t \r \n and \xHH, two lowercase hex digits, not
 * 00): its text ends at the returned pointer's NUL, *sp moves past the
 * closing quote.  NULL with *why when it is not a well-formed quoted
 * string; why is a phrase to follow the name of what was quoted (it
 * starts with a space).
 */
char *
protocol_unquote(char **sp, const char **why)
{
	char	*s = *sp, *out, *start;
	int	 hi, lo;

	if (*s != '"') {
		*why = " is not quoted";
		return (NULL);
	}
	start = out = ++s;
	for (;;) {
		if (*s == '\0') {
			*why = " has no closing quote";
			return (NULL);
		}
		if (*s == '"')
			break;
		if ((unsigned char)*s < 0x20 || *s == 0x7f) {
			*why = " has a control character (escape it)";
			return (NULL);
		}
		if (*s != '\\') {
			*out++ = *s++;
			continue;
		}
		switch (s[1]) {
		case '\\':
		case '"':
			*out++ = s[1];
			s += 2;
			break;
		case 't':
			*out++ = '\t';
			s += 2;
			break;
		case 'r':
			*out++ = '\r';
			s += 2;
			break;
		case 'n':
			*out++ = '\n';
			s += 2;
			break;
		case 'x':
			if ((hi = protocol_hex(s[2])) == -1 ||
			    (lo = protocol_hex(s[3])) == -1) {
				*why = " has a bad \\x escape (two lowercase "
				    "hex digits)";
				return (NULL);
			}
			if (hi == 0 && lo == 0) {
				*why = " has a NUL byte";
				return (NULL);
			}
			*out++ = (char)(hi * 16 + lo);
			s += 4;
			break;
		default:
			*why = " has an unknown escape";
			return (NULL);
		}
	}
	*sp = s + 1;
	*out = '\0';
	return (start);
}

/* A strict line's fault: pre, the word at (quoted by the caller), post. */
static int
protocol_refuse(struct proto_fields *f, const char *pre, const char *at,
    const char *post)
{
	f->pre = pre;
	f->at = at;
	f->post = post;
	return (-1);
}

/* Add field key=value (value NULL: a bare word) to f. */
static void
protocol_field_add(struct proto_fields *f, char *key, char *value)
{
	f->f[f->n].key = key;
	f->f[f->n].value = value;
	f->n++;
}

/*
 * Cut s, the rest of a line after its leading words (protocol_next),
 * into fields in place.  Loose (the protocol's data lines): fields are
 * apart by any number of spaces, each key=value or a bare word (value
 * NULL); past PROTO_FIELDS_MAX they are dropped (f->dropped counts
 * them); with PROTO_TEXT a field text= takes the rest of the line
 * (f->text).  PROTO_STRICT (the journal): fields are apart by one space
 * with none before or after, each key=value with a key, once, its
 * value bare (not empty) or quoted (protocol_unquote); -1 at the first
 * fault, which f->pre, f->at and f->post say.  s NULL: no fields.
 */
int
protocol_fields(char *s, int flags, struct proto_fields *f)
{
	const char	*why;
	char		*w, *eq, *v;
	int		 i;

	f->n = f->dropped = 0;
	f->used = 0;
	f->text = NULL;
	f->pre = f->at = f->post = NULL;
	if (!(flags & PROTO_STRICT)) {
		while (s != NULL) {
			while (protocol_blank(*s, flags))
				s++;
			if ((flags & PROTO_TEXT) && strncmp(s, "text=", 5) == 0) {
				f->text = s + 5;
				break;
			}
			if ((w = protocol_next(&s, flags)) == NULL)
				break;
			if (f->n == PROTO_FIELDS_MAX) {
				f->dropped++;
				continue;
			}
			if ((eq = strchr(w, '=')) != NULL)
				*eq++ = '\0';
			protocol_field_add(f, w, eq);
		}
		return (0);
	}
	while (s != NULL) {
		if (*s == ' ' || *s == '\0')
			return (protocol_refuse(f, "bad spacing (fields are "
			    "separated by one space)", NULL, ""));
		if ((eq = strchr(s, '=')) == NULL || eq == s ||
		    memchr(s, ' ', eq - s) != NULL) {
			*strchrnul(s, ' ') = '\0';
			return (protocol_refuse(f, "bad field ", s,
			    " (expected key=value)"));
		}
		*eq = '\0';
		for (i = 0; i < f->n; i++) {
			if (strcmp(f->f[i].key, s) == 0)
				return (protocol_refuse(f, "duplicate field ",
				    s, ""));
		}
		if (f->n == PROTO_FIELDS_MAX)
			return (protocol_refuse(f, "too many fields", NULL, ""));
		w = s;
		s = eq + 1;
		if (*s == '"') {
			if ((v = protocol_unquote(&s, &why)) == NULL)
				return (protocol_refuse(f, "field ", w, why));
			if (*s != '\0' && *s != ' ')
				return (protocol_refuse(f, "field ", w,
				    ": text after the closing quote"));
		} else {
			v = s;
			s = strchrnul(s, ' ');
			if (s == v)
				return (protocol_refuse(f, "field ", w,
				    " is empty"));
		}
		protocol_field_add(f, w, v);
		if (*s == '\0')
			break;
		*s++ = '\0';
	}
	return (0);
}

/*
 * Cut a data line in place: its keyword (f->word, "" for a blank line),
 * then its fields (protocol_fields, loose, with flags).
 */
void
protocol_line(char *line, int flags, struct proto_fields *f)
{
	char	*word;

	if ((word = protocol_next(&line, flags & ~PROTO_STRICT)) == NULL)
		word = line;
	protocol_fields(line, flags & ~PROTO_STRICT, f);
	f->word = word;
}

/*
 * The value of field key (the first with a value), marked used; NULL
 * if the line has none.
 */
const char *
protocol_get(struct proto_fields *f, const char *key)
{
	int	i;

	for (i = 0; i < f->n; i++) {
		if (f->f[i].value != NULL && strcmp(f->f[i].key, key) == 0) {
			f->used |= 1U << i;
			return (f->f[i].value);
		}
	}
	return (NULL);
}

/* The first field protocol_get has not read, or NULL. */
const char *
protocol_unused(const struct proto_fields *f)
{
	int	i;

	for (i = 0; i < f->n; i++) {
		if (!(f->used & 1U << i))
			return (f->f[i].key);
	}
	return (NULL);
}

/* --- Formatting. ----------------------------------------------------- */

/* Clamp an snprintf result to what was written. */
static size_t
protocol_len(int n, size_t len)
{
	if (n < 0)
		return (0);
	if ((size_t)n >= len)
		return (len > 0 ? len - 1 : 0);
	return ((size_t)n);
}

/* The greeting: "stairs <protocol> <version>". */
size_t
protocol_greeting(char *buf, size_t len)
{
	return (protocol_len(snprintf(buf, len, "stairs %d %s",
	    PROTO_VERSION, STAIRS_VERSION), len));
}

/* A speed as the shortest decimal ("1", "0.5", "2.25"). */
char *
protocol_format_speed(double speed, char *buf, size_t len)
{
	snprintf(buf, len, "%g", speed);
	return (buf);
}

/*
 * Copy free text into buf at o (the end of a line: len bytes in all),
 * at most max bytes of it, control characters and DEL as blanks so one
 * line stays one line; NUL-terminated.  Returns the new end.
 */
static size_t
protocol_text_copy(char *buf, size_t len, size_t o, const char *text,
    size_t max)
{
	size_t	i;

	for (i = 0; text != NULL && text[i] != '\0' && i < max && o + 1 < len;
	    i++) {
		buf[o++] = (unsigned char)text[i] < 0x20 || text[i] == 0x7f ?
		    ' ' : text[i];
	}
	if (len > 0)
		buf[o < len ? o : len - 1] = '\0';
	return (o);
}

/*
 * A `scenarios` reply line: "scenario name=N file=F cpus=N tasks=N
 * real=0/1 text=DESCRIPTION", the text to the end of the line (control
 * bytes made spaces), name and file one word each.
 */
size_t
protocol_scenario_line(char *buf, size_t len, const char *name,
    const char *file, int cpus, int tasks, int real, const char *text)
{
	char	n[64], f[QUOTE_SIZE];
	size_t	o;

	protocol_word(name, n, sizeof n);
	protocol_word(file, f, sizeof f);
#define K(id)	wire_key(&wire_scenario, id)
	o = protocol_len(snprintf(buf, len, "%s %s=%s %s=%s %s=%d %s=%d %s=%d "
	    "%s=", wire_scenario.word, K(WIRE_SCEN_NAME), n, K(WIRE_SCEN_FILE),
	    f, K(WIRE_SCEN_CPUS), cpus, K(WIRE_SCEN_TASKS), tasks,
	    K(WIRE_SCEN_REAL), real != 0, K(WIRE_SCEN_TEXT)), len);
#undef K
	return (protocol_text_copy(buf, len, o, text, SIZE_MAX));
}

/* Copy an exit text with spaces (and anything odd) made '_'. */
void
protocol_word(const char *s, char *buf, size_t len)
{
	size_t	i;

	for (i = 0; s[i] != '\0' && i + 1 < len; i++)
		buf[i] = isgraph((unsigned char)s[i]) ? s[i] : '_';
	buf[i] = '\0';
	if (i == 0 && len > 1)
		snprintf(buf, len, "-");
}

/* Append a string (truncated at the end of the buffer). */
void
protocol_out_str(struct protocol_out *o, const char *s)
{
	while (*s != '\0' && o->len + 1 < o->size)
		o->p[o->len++] = *s++;
	o->p[o->len] = '\0';
}

/* Append text to the end of the line, control characters as blanks. */
void
protocol_out_text(struct protocol_out *o, const char *s)
{
	o->len = protocol_text_copy(o->p, o->size, o->len, s, SIZE_MAX);
}

/* Append a signed decimal number. */
void
protocol_out_num(struct protocol_out *o, long long v)
{
	if (v >= 0) {
		protocol_out_unum(o, (unsigned long long)v);
		return;
	}
	if (o->len + 1 < o->size)
		o->p[o->len++] = '-';
	protocol_out_unum(o, -(unsigned long long)v);
}

/* Append an unsigned decimal number. */
void
protocol_out_unum(struct protocol_out *o, unsigned long long u)
{
	char	tmp[24];
	int	n = 0;

	do
		tmp[n++] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	while (n > 0 && o->len + 1 < o->size)
		o->p[o->len++] = tmp[--n];
	o->p[o->len] = '\0';
}

/* Append field number i of line (its keyword first): "[word] key=". */
void
protocol_out_key(struct protocol_out *o, const struct wire_line *line, int i)
{
	if (i == 0) {
		protocol_out_str(o, line->word);
		protocol_out_str(o, " ");
	} else
		protocol_out_str(o, " ");
	protocol_out_str(o, line->field[line->order[i]].key);
	protocol_out_str(o, "=");
}

/* s, or dflt where s is NULL (a field st leaves unset). */
static const char *
protocol_or(const char *s, const char *dflt)
{
	return (s != NULL ? s : dflt);
}

/* A frame or status line: fields.c's order, values from st. */
static size_t
protocol_head_line(char *buf, size_t len, const struct wire_line *line,
    const struct proto_status *st, uint64_t dropped, int delta)
{
	struct protocol_out	o = { buf, 0, len };
	char			sp[32], name[64];
	int			i;

	if (len == 0)
		return (0);
	buf[0] = '\0';
	protocol_word(protocol_or(st->scenario, "-"), name, sizeof name);
	for (i = 0; i < line->n; i++) {
		if (line->order[i] == WIRE_HEAD_DELTA && delta < 0)
			continue;
		if (line->order[i] == WIRE_HEAD_SHADOW &&
		    (st->compare == NULL || !st->shadow))
			continue;
		if (line->order[i] == WIRE_HEAD_TEXT &&
		    st->description == NULL)
			continue;
		if ((line->order[i] == WIRE_HEAD_PART ||
		    line->order[i] == WIRE_HEAD_PARTS) && st->parts == 0)
			continue;
		if (line->order[i] == WIRE_HEAD_PICTURE && st->picture == NULL)
			continue;
		protocol_out_key(&o, line, i);
		switch ((enum wire_head)line->order[i]) {
		case WIRE_HEAD_TICK:
			protocol_out_unum(&o, st->tick);
			break;
		case WIRE_HEAD_CPUS:
			protocol_out_num(&o, st->cpus);
			break;
		case WIRE_HEAD_TASKS:
			protocol_out_num(&o, st->tasks);
			break;
		case WIRE_HEAD_PAUSED:
			protocol_out_num(&o, st->paused);
			break;
		case WIRE_HEAD_SPEED:
			protocol_out_str(&o, protocol_format_speed(st->speed, sp,
			    sizeof sp));
			break;
		case WIRE_HEAD_RR:
			protocol_out_num(&o, st->rr);
			break;
		case WIRE_HEAD_CGROUPS:
			protocol_out_str(&o, protocol_or(st->cgroups, "none"));
			break;
		case WIRE_HEAD_DROPPED:
			protocol_out_unum(&o, dropped);
			break;
		case WIRE_HEAD_ALIVE:
			protocol_out_num(&o, st->alive);
			break;
		case WIRE_HEAD_LAG:
			protocol_out_unum(&o, st->lag);
			break;
		case WIRE_HEAD_CLIENTS:
			protocol_out_num(&o, st->clients);
			break;
		case WIRE_HEAD_SCENARIO:
			protocol_out_str(&o, name);
			break;
		case WIRE_HEAD_SLEEP:
			protocol_out_num(&o, st->sleep);
			break;
		case WIRE_HEAD_OBSERVE:
			protocol_out_str(&o, protocol_or(st->observe, "proc"));
			break;
		case WIRE_HEAD_POLICY:
			protocol_out_str(&o, protocol_or(st->policy,
			    "staircase"));
			break;
		case WIRE_HEAD_NOW:
			protocol_out_unum(&o, st->now);
			break;
		case WIRE_HEAD_LIVE:
			protocol_out_num(&o, st->live);
			break;
		case WIRE_HEAD_DELTA:
			protocol_out_num(&o, delta != 0);
			break;
		case WIRE_HEAD_COMPARE:
		case WIRE_HEAD_SHADOW:
			protocol_out_str(&o, protocol_or(st->compare, "off"));
			break;
		case WIRE_HEAD_RECORD:
			protocol_out_str(&o, protocol_or(st->record, "off"));
			break;
		case WIRE_HEAD_ASK:
			protocol_out_str(&o, protocol_or(st->ask, "none"));
			break;
		case WIRE_HEAD_VOTES:
			protocol_out_str(&o, protocol_or(st->votes, "-"));
			break;
		case WIRE_HEAD_PART:
			protocol_out_num(&o, st->part);
			break;
		case WIRE_HEAD_PARTS:
			protocol_out_num(&o, st->parts);
			break;
		case WIRE_HEAD_TEXT:
			protocol_out_text(&o, st->description);
			break;
		case WIRE_HEAD_PICTURE:
			protocol_out_str(&o, st->picture);
			break;
		case WIRE_HEAD_MAX:
			break;
		}
	}
	return (o.len);
}

/* The status line; a scenario name's blanks become '_' (one word). */
size_t
protocol_status_line(char *buf, size_t len, const struct proto_status *st)
{
	return (protocol_head_line(buf, len, &wire_status, st, 0, -1));
}

/* The first line of a frame; delta < 0: no delta= field. */
size_t
protocol_frame_line(char *buf, size_t len, const struct proto_status *st,
    uint64_t dropped, int delta)
{
	return (protocol_head_line(buf, len, &wire_frame, st, dropped,
	    delta));
}

/*
 * A line ending in free text: "KEYWORD tick=N text=...".  Control bytes
 * in the text become spaces so one line stays one line.
 */
size_t
protocol_text_line(char *buf, size_t len, const char *keyword, uint64_t tick,
    const char *text)
{
	size_t	n;

	n = protocol_len(snprintf(buf, len, "%s %s=%llu %s=", keyword,
	    wire_key(&wire_mark, WIRE_TEXT_TICK), (unsigned long long)tick,
	    wire_key(&wire_mark, WIRE_TEXT_TEXT)), len);
	return (protocol_text_copy(buf, len, n, text, PROTO_TEXT_MAX));
}

/* One run of a runs line: "ID:RANK*N", or "0*N" when idle. */
size_t
protocol_runs_item(char *buf, size_t len, int task, int rank, uint64_t n)
{
	if (task == 0)
		return (protocol_len(snprintf(buf, len, "0*%llu",
		    (unsigned long long)n), len));
	return (protocol_len(snprintf(buf, len, "%d:%d*%llu", task, rank,
	    (unsigned long long)n), len));
}

/*
 * One run of a kruns line: "ID*N" a child (task ID), "0*N" idle, "-*N"
 * another process, "?*N" not known.
 */
size_t
protocol_kruns_item(char *buf, size_t len, int task, uint64_t n)
{
	if (task >= 0)
		return (protocol_len(snprintf(buf, len, "%d*%llu", task,
		    (unsigned long long)n), len));
	return (protocol_len(snprintf(buf, len, "%c*%llu",
	    task == RUNS_OTHER ? '-' : '?', (unsigned long long)n), len));
}

static int	protocol_run_task(const char **, int *);
static int	protocol_run_count(const char **, uint64_t *);

/*
 * Read one run of a runs line at *p ("ID:RANK*N", or "0*N" idle), then a
 * comma (not last) or the end, *p moved past it: its task, rank (-1 when
 * idle; at most the bottom rank) and ticks (at least 1); 0, or -1 if it
 * is not one.
 */
int
protocol_runs_parse(const char **p, int *task, int *rank, uint64_t *n)
{
	const char	*s = *p;
	char		*end;
	long		 v;

	if (protocol_run_task(&s, task) != 0)
		return (-1);
	*rank = -1;
	if (*s == ':') {
		if (*++s < '0' || *s > '9')
			return (-1);
		v = strtol(s, &end, 10);
		if (v > PROTO_RANK_MAX)
			return (-1);
		*rank = (int)v;
		s = end;
	}
	if (protocol_run_count(&s, n) != 0)
		return (-1);
	*p = s;
	return (0);
}

/*
 * Read one run of a kruns line at *p, then a comma (not last) or the
 * end, *p moved past it: its task (RUNS_OTHER, RUNS_UNKNOWN) and ticks
 * (at least 1); 0, or -1 if it is not one.
 */
int
protocol_kruns_parse(const char **p, int *task, uint64_t *n)
{
	const char	*s = *p;

	if (*s == '-' || *s == '?') {
		*task = *s == '-' ? RUNS_OTHER : RUNS_UNKNOWN;
		s++;
	} else if (protocol_run_task(&s, task) != 0)
		return (-1);
	if (protocol_run_count(&s, n) != 0)
		return (-1);
	*p = s;
	return (0);
}

/*
 * The task of a run of a runs or kruns line at *p: a whole number up to
 * INT_MAX; *p moved past it.  0, or -1 if it is not one.
 */
static int
protocol_run_task(const char **p, int *task)
{
	char	*end;
	long	 v;

	if (**p < '0' || **p > '9')
		return (-1);
	errno = 0;
	v = strtol(*p, &end, 10);
	if (errno != 0 || v > INT_MAX)
		return (-1);
	*task = (int)v;
	*p = end;
	return (0);
}

/*
 * The end of a run of a runs or kruns line at *p: "*N" (N at least 1),
 * then a comma (not last) or the end; *p moved past it.  0, or -1 if it
 * is not so.
 */
static int
protocol_run_count(const char **p, uint64_t *n)
{
	const char		*s = *p;
	char			*end;
	unsigned long long	 v;

	if (*s++ != '*' || *s < '0' || *s > '9')
		return (-1);
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || v == 0)
		return (-1);
	s = end;
	if (*s == ',' && s[1] != '\0')
		s++;
	else if (*s != '\0')
		return (-1);
	*n = v;
	*p = s;
	return (0);
}

/*
 * One cell's text, the one rule for every table shown: ticks / rr rounded
 * half up to one decimal, whole without ".0", "" if zero.  Blank is the
 * only zero: a share too small to round to 0.1 shows 0.1.  A cell wider
 * than width (if width > 0) loses its leading zero (".7") below one, or
 * else its decimal, rounded from ticks ("12.5" is "13"); a whole number
 * still wider is left for the caller to cut.
 */
void
protocol_table_cell(uint64_t ticks, int rr, int width, char *buf, size_t len)
{
	uint64_t	r, whole, tenth;
	int		n;

	if (ticks == 0) {
		snprintf(buf, len, "%s", "");
		return;
	}
	r = rr < 1 ? 1 : (uint64_t)rr;
	whole = ticks / r;
	tenth = (ticks % r * 10 + r / 2) / r;
	if (tenth == 10) {
		whole++;
		tenth = 0;
	}
	if (whole == 0 && tenth == 0)
		tenth = 1;
	if (tenth == 0) {
		snprintf(buf, len, "%llu", (unsigned long long)whole);
		return;
	}
	n = snprintf(buf, len, "%llu.%llu", (unsigned long long)whole,
	    (unsigned long long)tenth);
	if (width <= 0 || n <= width)
		return;
	if (whole == 0)
		snprintf(buf, len, ".%llu", (unsigned long long)tenth);
	else
		snprintf(buf, len, "%llu", (unsigned long long)
		    (ticks / r + (ticks % r + r / 2) / r));
}

/* An open question's choice: "choice n=N text=..." (SPEC.md 12). */
size_t
protocol_choice_line(char *buf, size_t len, int n, const char *text)
{
	size_t	k;

	k = protocol_len(snprintf(buf, len, "%s %s=%d %s=", wire_choice.word,
	    wire_key(&wire_choice, WIRE_CHOICE_N), n,
	    wire_key(&wire_choice, WIRE_CHOICE_TEXT)), len);
	return (protocol_text_copy(buf, len, k, text, PROTO_TEXT_MAX));
}
