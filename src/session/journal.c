/*
 * journal.c -- write and read a session's journal (docs/JOURNAL.md).
 *
 * The journal is text, one entry per line, every line ending in a
 * newline:
 *
 *	stairs-journal 1
 *	scenario name="demo" tasks=3 lines=2
 *	text "tasks = ( { name = \"a\"; } );"
 *	text ""
 *	params cpus=2 rr_interval=10 sleep_min=1 balance_interval=100
 *	policy name=staircase
 *	120 sleep task=2 ms=300
 *	140 add name=new1 nice=0 pattern=2,40 runtime=0 cpus=- real=0
 *	end 5000
 *
 * The scenario's text is cut at each newline into `lines` pieces (one
 * more than it has newlines), each written quoted; joined again with
 * newlines they give the text back byte for byte.  A reader must see the
 * whole of it: a file that does not end in "end TICK\n" is truncated, a
 * tick lower than the one before (other than after a branch) is
 * reordered, and anything else unexpected is garbled; each is refused
 * with "FILE:LINE: message" and nothing of the journal is returned.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "readconf.h"
#include "cpumask.h"
#include "journal.h"
#include "protocol.h"
#include "xmalloc.h"

#define JOURNAL_MAGIC		"stairs-journal"
#define JOURNAL_MAX_FIELDS	8
#define JOURNAL_QUOTE_MAX	40	/* characters of input in a message */
/* The params a journal always has; a later one only when not default. */
#define JOURNAL_PARAMS_ALWAYS	ENGINE_PARAM_BASE_SLICE

/* The reader's state over one journal. */
struct journal_ctx {
	const char		*label;
	int			 line;
	char			**cause;
	struct journal		*j;
	struct proto_fields	 f;		/* the line's, cut strictly */
	size_t			 alloc;		/* of j->changes */
	int			 nadds;
	uint64_t		 prev;		/* tick of the last change */
	int			 prev_line;
	struct journal_part	*parts;		/* the parts ended so far */
	int			 nparts;
};

static const char *journal_kinds[] = {
	[CHANGE_SLEEP] = "sleep",
	[CHANGE_NICE] = "nice",
	[CHANGE_AFFINITY] = "affinity",
	[CHANGE_KILL] = "kill",
	[CHANGE_EXIT] = "exit",
	[CHANGE_ADD] = "add",
	[CHANGE_BLOCK] = "block",
	[CHANGE_WAKE] = "wake",
	[CHANGE_POLICY] = "policy",
	[CHANGE_BRANCH] = "branch",
	[CHANGE_TALLY] = "tally"
};
#define JOURNAL_NKINDS (sizeof journal_kinds / sizeof journal_kinds[0])

static void	journal_parts_free(struct journal_part *, int);
static int	journal_votes(struct journal_ctx *, struct change *);
static int	journal_error(struct journal_ctx *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));

/* The name a change kind has in the journal. */
const char *
journal_kind_name(enum change_kind kind)
{
	if ((size_t)kind >= JOURNAL_NKINDS || journal_kinds[kind] == NULL)
		return ("?");
	return (journal_kinds[kind]);
}

/*
 * Write s (len bytes) quoted: a backslash, a double quote and every
 * control byte are escaped (\\ \" \t \r \n \xHH); other bytes, UTF-8
 * included, are written as they are.
 */
static void
journal_quote(FILE *f, const char *s, size_t len)
{
	unsigned char	c;
	size_t		i;

	fputc('"', f);
	for (i = 0; i < len; i++) {
		c = (unsigned char)s[i];
		if (c == '\\' || c == '"') {
			fputc('\\', f);
			fputc(c, f);
		} else if (c == '\t')
			fputs("\\t", f);
		else if (c == '\r')
			fputs("\\r", f);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* Write the header: magic, scenario and its text, params, policy. */
int
journal_write_header(FILE *f, const struct journal_header *h)
{
	const char		*text = h->text != NULL ? h->text : "";
	const char		*name = h->scenario != NULL ? h->scenario : "";
	const char		*p, *nl;
	size_t			 lines = 1;
	int			 i, v;

	for (p = text; (p = strchr(p, '\n')) != NULL; p++)
		lines++;
	fprintf(f, "%s %d\n", JOURNAL_MAGIC, JOURNAL_VERSION);
	fputs("scenario name=", f);
	journal_quote(f, name, strlen(name));
	fprintf(f, " tasks=%d lines=%zu\n", h->ntasks, lines);
	for (p = text;; p = nl + 1) {
		nl = strchr(p, '\n');
		fputs("text ", f);
		journal_quote(f, p, nl != NULL ? (size_t)(nl - p) : strlen(p));
		fputc('\n', f);
		if (nl == NULL)
			break;
	}
	fputs("params", f);
	for (i = 0; i < ENGINE_NPARAMS; i++) {
		v = engine_param_get(&h->params, i);
		/* Newer ones only when set: old journals stay as they were. */
		if (i < JOURNAL_PARAMS_ALWAYS || v != engine_param_list[i].def)
			fprintf(f, " %s=%d", engine_param_list[i].name, v);
	}
	fputc('\n', f);
	fprintf(f, "policy name=%s\n", h->policy != NULL ? h->policy :
	    engine_policy_staircase.name);
	return (ferror(f) ? -1 : 0);
}

/* Write one change as a line: its tick, its kind, its fields. */
int
journal_write_change(FILE *f, const struct change *c)
{
	char	buf[CPUMASK_MAX * 4 + 8];
	size_t	i;

	fprintf(f, "%llu %s", (unsigned long long)c->at,
	    journal_kind_name(c->kind));
	switch (c->kind) {
	case CHANGE_SLEEP:
		fprintf(f, " task=%d ms=%ld", c->task, c->value);
		break;
	case CHANGE_NICE:
		fprintf(f, " task=%d nice=%ld", c->task, c->value);
		break;
	case CHANGE_AFFINITY:
		fprintf(f, " task=%d cpus=%s", c->task,
		    cpumask_format(&c->cpus, buf, sizeof buf));
		break;
	case CHANGE_KILL:
	case CHANGE_EXIT:
	case CHANGE_BLOCK:
	case CHANGE_WAKE:
		fprintf(f, " task=%d", c->task);
		break;
	case CHANGE_ADD:
		fprintf(f, " name=%s nice=%d pattern=", c->name, c->nice);
		if (c->pattern == NULL || c->npattern == 0)
			fputc('-', f);
		for (i = 0; c->pattern != NULL && i < c->npattern; i++)
			fprintf(f, "%s%u", i ? "," : "", c->pattern[i]);
		fprintf(f, " runtime=%llu cpus=%s real=%d",
		    (unsigned long long)c->runtime, c->has_cpus ?
		    cpumask_format(&c->cpus, buf, sizeof buf) : "-",
		    c->real ? 1 : 0);
		break;
	case CHANGE_POLICY:
		fprintf(f, " name=%s", c->name);
		break;
	case CHANGE_BRANCH:
		fprintf(f, " tick=%ld", c->value);
		break;
	case CHANGE_TALLY:
		fputs(" votes=", f);
		for (i = 0; i < c->npattern; i++)
			fprintf(f, "%s%u", i ? "," : "", c->pattern[i]);
		break;
	}
	fputc('\n', f);
	return (ferror(f) ? -1 : 0);
}

/* Write the end line: the last tick the session ran. */
int
journal_write_end(FILE *f, uint64_t last_tick)
{
	fprintf(f, "end %llu\n", (unsigned long long)last_tick);
	return (ferror(f) ? -1 : 0);
}

/* Set *cause to "LABEL:LINE: message"; returns -1. */
static int
journal_error(struct journal_ctx *ctx, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	*ctx->cause = xvasprintf_at(ctx->label, ctx->line, fmt, ap);
	va_end(ap);
	return (-1);
}

/* Copy s into q as a short printable quote for a message. */
static const char *
journal_show(const char *s, char *q, size_t qlen)
{
	size_t	i, o = 0;

	q[o++] = '"';
	for (i = 0; s[i] != '\0' && o + 5 < qlen; i++) {
		if (i == JOURNAL_QUOTE_MAX) {
			memcpy(q + o, "...", 3);
			o += 3;
			break;
		}
		q[o++] = ((unsigned char)s[i] < 0x20 ||
		    (unsigned char)s[i] == 0x7f) ? '?' : s[i];
	}
	q[o++] = '"';
	q[o] = '\0';
	return (q);
}

/*
 * Cut s, the rest of a line after its first words (NULL: nothing
 * followed them), into key=value fields separated by one space; a value
 * is bare (up to the next space) or quoted.  The wire's tokenizer
 * (protocol_fields) in its strict form; a fault is refused here.
 */
static int
journal_fields(struct journal_ctx *ctx, char *s)
{
	char	q[64];

	if (protocol_fields(s, PROTO_STRICT, &ctx->f) != 0)
		return (journal_error(ctx, "%s%s%s", ctx->f.pre,
		    ctx->f.at != NULL ? journal_show(ctx->f.at, q, sizeof q) :
		    "", ctx->f.post));
	if (ctx->f.n > JOURNAL_MAX_FIELDS)
		return (journal_error(ctx, "too many fields"));
	return (0);
}

/* The value of field key, marked used; NULL with an error if missing. */
static const char *
journal_get(struct journal_ctx *ctx, const char *what, const char *key)
{
	const char	*v;

	if ((v = protocol_get(&ctx->f, key)) == NULL)
		journal_error(ctx, "%s: missing %s=", what, key);
	return (v);
}

/* Is there a field key (not marked used)? */
static int
journal_has(const struct journal_ctx *ctx, const char *key)
{
	int	i;

	for (i = 0; i < ctx->f.n; i++) {
		if (strcmp(ctx->f.f[i].key, key) == 0)
			return (1);
	}
	return (0);
}

/* Every field must have been used: refuse the first unknown one. */
static int
journal_unused(struct journal_ctx *ctx, const char *what)
{
	const char	*key;
	char		 q[64];

	if ((key = protocol_unused(&ctx->f)) != NULL)
		return (journal_error(ctx, "%s: unknown field %s", what,
		    journal_show(key, q, sizeof q)));
	return (0);
}

/* A known policy's name (a change's, the header's), copied to *out. */
static int
journal_policy(struct journal_ctx *ctx, const char *s, const char **out)
{
	char	q[64];

	if (engine_policy_find(s) == NULL)
		return (journal_error(ctx, "policy: unknown policy %s (known: "
		    "%s)", journal_show(s, q, sizeof q),
		    engine_policy_names()));
	*out = xstrdup(s);
	return (0);
}

/* Strict decimal: optional '-', digits, no leading zeros; into *v. */
static int
journal_decimal(const char *s, long long min, long long max, long long *v)
{
	const char		*p = s;
	unsigned long long	 n = 0, lim;
	int			 neg = 0;

	if (*p == '-') {
		neg = 1;
		p++;
	}
	if (*p < '0' || *p > '9' || (*p == '0' && p[1] != '\0'))
		return (-1);
	lim = neg ? (unsigned long long)LLONG_MAX + 1 : LLONG_MAX;
	for (; *p != '\0'; p++) {
		if (*p < '0' || *p > '9')
			return (-1);
		if (n > (lim - (unsigned)(*p - '0')) / 10)
			return (-1);
		n = n * 10 + (unsigned)(*p - '0');
	}
	if (neg && n == 0)
		return (-1);	/* "-0" */
	*v = neg ? (n == (unsigned long long)LLONG_MAX + 1 ? LLONG_MIN :
	    -(long long)n) : (long long)n;
	if (*v < min || *v > max)
		return (-1);
	return (0);
}

/* A numeric field key in min..max. */
static int
journal_number(struct journal_ctx *ctx, const char *what, const char *key,
    long long min, long long max, long long *v)
{
	const char	*s;
	char		 q[64];

	if ((s = journal_get(ctx, what, key)) == NULL)
		return (-1);
	if (journal_decimal(s, min, max, v) != 0)
		return (journal_error(ctx, "%s: bad %s=%s (expected %lld..%lld)",
		    what, key, journal_show(s, q, sizeof q), min, max));
	return (0);
}

/* The task= field of a change: an id that can exist at this point. */
static int
journal_task(struct journal_ctx *ctx, const char *what, int *id)
{
	long long	v, max = (long long)ctx->j->header.ntasks + ctx->nadds;

	if (journal_number(ctx, what, "task", 1, INT_MAX, &v) != 0)
		return (-1);
	if (v > max)
		return (journal_error(ctx, "%s: task %lld cannot exist (the "
		    "scenario has %d tasks and %d were added)", what, v,
		    ctx->j->header.ntasks, ctx->nadds));
	*id = (int)v;
	return (0);
}

/* A cpus= field: a CPU list of the journal's CPUs, or "-" if may_none. */
static int
journal_cpus(struct journal_ctx *ctx, const char *what, int may_none,
    struct change *c)
{
	const char	*s;
	char		*cause;

	if ((s = journal_get(ctx, what, "cpus")) == NULL)
		return (-1);
	if (may_none && strcmp(s, "-") == 0) {
		c->has_cpus = 0;
		return (0);
	}
	if (cpumask_parse(s, ctx->j->header.params.cpus, &c->cpus,
	    &cause) != 0) {
		journal_error(ctx, "%s: %s", what, cause);
		free(cause);
		return (-1);
	}
	c->has_cpus = 1;
	return (0);
}

/* An add's pattern=: "-" (a hog) or an even list of ms. */
static int
journal_pattern(struct journal_ctx *ctx, struct change *c)
{
	const char	*s, *p;
	char		 num[32], q[64];
	uint32_t	*pat = NULL;
	size_t		 n = 0, len;
	long long	 v;

	if ((s = journal_get(ctx, "add", "pattern")) == NULL)
		return (-1);
	if (strcmp(s, "-") == 0)
		return (0);
	for (p = s;; p += len + 1) {
		len = strcspn(p, ",");
		if (len >= sizeof num || n == JOURNAL_MAX_PATTERN)
			goto bad;
		memcpy(num, p, len);
		num[len] = '\0';
		if (journal_decimal(num, 0, JOURNAL_MS_MAX, &v) != 0)
			goto bad;
		pat = xreallocarray(pat, n + 1, sizeof *pat);
		pat[n++] = (uint32_t)v;
		if (p[len] == '\0')
			break;
	}
	if (n % 2 != 0)
		goto bad;
	c->pattern = pat;
	c->npattern = n;
	return (0);
bad:
	free(pat);
	return (journal_error(ctx, "add: bad pattern=%s (expected - or an "
	    "even list of at most %d ms, each 0..%ld)", journal_show(s, q,
	    sizeof q), JOURNAL_MAX_PATTERN, JOURNAL_MS_MAX));
}

/* A change's fields, by its kind. */
static int
journal_change_fields(struct journal_ctx *ctx, struct change *c)
{
	const char	*what = journal_kind_name(c->kind), *s, *why;
	char		 q[64];
	long long	 v;

	switch (c->kind) {
	case CHANGE_SLEEP:
		if (journal_task(ctx, what, &c->task) != 0 ||
		    journal_number(ctx, what, "ms", 0, JOURNAL_MS_MAX,
		    &v) != 0)
			return (-1);
		c->value = (long)v;
		break;
	case CHANGE_NICE:
		if (journal_task(ctx, what, &c->task) != 0 ||
		    journal_number(ctx, what, "nice", -20, 19, &v) != 0)
			return (-1);
		c->value = (long)v;
		break;
	case CHANGE_AFFINITY:
		if (journal_task(ctx, what, &c->task) != 0 ||
		    journal_cpus(ctx, what, 0, c) != 0)
			return (-1);
		break;
	case CHANGE_KILL:
	case CHANGE_EXIT:
	case CHANGE_BLOCK:
	case CHANGE_WAKE:
		if (journal_task(ctx, what, &c->task) != 0)
			return (-1);
		break;
	case CHANGE_ADD:
		if ((s = journal_get(ctx, what, "name")) == NULL)
			return (-1);
		if ((why = engine_name_check(s)) != NULL)
			return (journal_error(ctx, "add: name=%s %s",
			    journal_show(s, q, sizeof q), why));
		c->name = xstrdup(s);
		if (journal_number(ctx, what, "nice", -20, 19, &v) != 0)
			return (-1);
		c->nice = (int)v;
		if (journal_pattern(ctx, c) != 0)
			return (-1);
		if (journal_number(ctx, what, "runtime", 0, JOURNAL_MS_MAX,
		    &v) != 0)
			return (-1);
		c->runtime = (uint64_t)v;
		if (journal_cpus(ctx, what, 1, c) != 0)
			return (-1);
		if (journal_number(ctx, what, "real", 0, 1, &v) != 0)
			return (-1);
		c->real = (int)v;
		ctx->nadds++;
		break;
	case CHANGE_POLICY:
		if ((s = journal_get(ctx, what, "name")) == NULL ||
		    journal_policy(ctx, s, &c->name) != 0)
			return (-1);
		break;
	case CHANGE_BRANCH:
		if (journal_number(ctx, what, "tick", 0, (long long)c->at,
		    &v) != 0)
			return (-1);
		c->value = (long)v;
		break;
	case CHANGE_TALLY:
		if (journal_votes(ctx, c) != 0)
			return (-1);
		break;
	}
	return (journal_unused(ctx, what));
}

/*
 * A tally's votes=: 1 to JOURNAL_CHOICES_MAX counts, each 0..2^31-1,
 * comma-separated (the choices of a question, in order).
 */
static int
journal_votes(struct journal_ctx *ctx, struct change *c)
{
	const char	*s;
	char		*copy, *p, *item, q[64];
	uint32_t	*v;
	long long	 n;
	size_t		 k = 0;

	if ((s = journal_get(ctx, "tally", "votes")) == NULL)
		return (-1);
	v = xcalloc(JOURNAL_CHOICES_MAX, sizeof *v);
	copy = p = xstrdup(s);
	while ((item = strsep(&p, ",")) != NULL) {
		if (k == JOURNAL_CHOICES_MAX || journal_decimal(item, 0,
		    INT_MAX, &n) != 0) {
			free(copy);
			free(v);
			return (journal_error(ctx, "tally: bad votes=%s "
			    "(expected 1 to %d counts, like 3,0,1)",
			    journal_show(s, q, sizeof q),
			    JOURNAL_CHOICES_MAX));
		}
		v[k++] = (uint32_t)n;
	}
	free(copy);
	c->pattern = v;
	c->npattern = k;
	return (0);
}

/* A change line: "TICK KIND FIELDS". */
static int
journal_change_line(struct journal_ctx *ctx, char *line)
{
	struct change	*c, tmp;
	char		*sp = line, *tick, *kind, q[64];
	long long	 at;
	size_t		 k;

	tick = protocol_next(&sp, PROTO_STRICT);
	if ((kind = protocol_next(&sp, PROTO_STRICT)) == NULL)
		return (journal_error(ctx, "a change with no kind"));
	if (journal_decimal(tick, 0, (long long)JOURNAL_TICK_MAX, &at) != 0)
		return (journal_error(ctx, "bad tick %s (expected 0..%llu)",
		    journal_show(tick, q, sizeof q),
		    (unsigned long long)JOURNAL_TICK_MAX));
	memset(&tmp, 0, sizeof tmp);
	for (k = 0; k < JOURNAL_NKINDS; k++) {
		if (strcmp(kind, journal_kinds[k]) == 0)
			break;
	}
	if (k == JOURNAL_NKINDS)
		return (journal_error(ctx, "unknown change %s",
		    journal_show(kind, q, sizeof q)));
	tmp.kind = (enum change_kind)k;
	tmp.at = (uint64_t)at;
	tmp.line = ctx->line;
	if (tmp.at < ctx->prev)
		return (journal_error(ctx, "reordered: tick %llu is before "
		    "tick %llu (line %d)", (unsigned long long)tmp.at,
		    (unsigned long long)ctx->prev, ctx->prev_line));
	if (journal_fields(ctx, sp) != 0 ||
	    journal_change_fields(ctx, &tmp) != 0) {
		journal_changes_clear(&tmp, 1);
		return (-1);
	}
	if (ctx->j->nchanges == ctx->alloc)
		ctx->j->changes = xgrow(ctx->j->changes, &ctx->alloc, 64,
		    sizeof *ctx->j->changes);
	c = &ctx->j->changes[ctx->j->nchanges++];
	*c = tmp;
	/* After a branch, the session runs again from the tick it names. */
	ctx->prev = c->kind == CHANGE_BRANCH ? (uint64_t)c->value : c->at;
	ctx->prev_line = ctx->line;
	return (0);
}

/*
 * Cut line's first word (NUL-ended in place) from the rest: the rest
 * after one space, or NULL when the line is that word alone.
 */
static char *
journal_word(char *line)
{
	protocol_next(&line, PROTO_STRICT);
	return (line);
}

/* The header lines after the magic: scenario, text, params, policy. */
static int
journal_header_line(struct journal_ctx *ctx, char *line, int *state,
    size_t *ntext, size_t *text_len, size_t *text_size)
{
	struct journal_header	*h = &ctx->j->header;
	const struct engine_param *d;
	const char		*s, *why;
	char			*rest, *cause, q[64];
	long long		 v;
	size_t			 n;
	int			 i;

	if (*state == 1) {
		rest = journal_word(line);
		if (strcmp(line, "scenario") != 0)
			return (journal_error(ctx, "expected the scenario "
			    "line, not %s", journal_show(line, q, sizeof q)));
		if (journal_fields(ctx, rest) != 0 ||
		    (s = journal_get(ctx, "scenario", "name")) == NULL)
			return (-1);
		h->scenario = xstrdup(s);
		if (journal_number(ctx, "scenario", "tasks", 0,
		    JOURNAL_TASKS_MAX, &v) != 0)
			return (-1);
		h->ntasks = (int)v;
		if (journal_number(ctx, "scenario", "lines", 1, INT_MAX,
		    &v) != 0 || journal_unused(ctx, "scenario") != 0)
			return (-1);
		*ntext = (size_t)v;
		*state = 2;
		return (0);
	}
	if (*state == 2) {
		if (strncmp(line, "text ", 5) != 0)
			return (journal_error(ctx, "expected a text line of "
			    "the scenario (%zu more)", *ntext));
		rest = line + 5;
		if ((s = protocol_unquote(&rest, &why)) == NULL)
			return (journal_error(ctx, "text%s", why));
		if (*rest != '\0')
			return (journal_error(ctx, "text after the closing "
			    "quote"));
		n = strlen(s);
		if (*text_len + n + 2 > *text_size) {
			*text_size = (*text_len + n + 2) * 2;
			h->text = xrealloc((char *)h->text, *text_size);
		}
		memcpy((char *)h->text + *text_len, s, n);
		*text_len += n;
		if (--*ntext > 0)
			((char *)h->text)[(*text_len)++] = '\n';
		((char *)h->text)[*text_len] = '\0';
		if (*ntext == 0)
			*state = 3;
		return (0);
	}
	if (*state == 3) {
		rest = journal_word(line);
		if (strcmp(line, "params") != 0)
			return (journal_error(ctx, "expected the params "
			    "line, not %s", journal_show(line, q, sizeof q)));
		if (journal_fields(ctx, rest) != 0)
			return (-1);
		engine_params_default(&h->params);
		for (i = 0; i < ENGINE_NPARAMS; i++) {
			d = &engine_param_list[i];
			if (i >= JOURNAL_PARAMS_ALWAYS &&
			    !journal_has(ctx, d->name))
				continue;
			if (journal_number(ctx, "params", d->name, d->min,
			    INT_MAX, &v) != 0)
				return (-1);
			engine_param_set(&h->params, i, (int)v);
		}
		if (journal_unused(ctx, "params") != 0)
			return (-1);
		if (engine_params_check(&h->params, &cause) != 0) {
			journal_error(ctx, "params: %s", cause);
			free(cause);
			return (-1);
		}
		*state = 4;
		return (0);
	}
	/* state 4: the policy line. */
	rest = journal_word(line);
	if (strcmp(line, "policy") != 0)
		return (journal_error(ctx, "expected the policy line, not %s",
		    journal_show(line, q, sizeof q)));
	if (journal_fields(ctx, rest) != 0 ||
	    (s = journal_get(ctx, "policy", "name")) == NULL ||
	    journal_unused(ctx, "policy") != 0 ||
	    journal_policy(ctx, s, &h->policy) != 0)
		return (-1);
	*state = 5;
	return (0);
}

/* Free n part summaries. */
static void
journal_parts_free(struct journal_part *parts, int n)
{
	int	i;

	for (i = 0; parts != NULL && i < n; i++) {
		free(parts[i].scenario);
		free(parts[i].policy);
	}
	free(parts);
}

/*
 * A part ended (its end line read) and another begins: keep the one
 * ended if it is the part wanted (0: the last so far), start the next
 * afresh.  *kept: the part kept (NULL: none yet).
 */
static void
journal_next_part(struct journal_ctx *ctx, int want, struct journal **kept)
{
	struct journal_part	*jp;

	ctx->parts = xreallocarray(ctx->parts, (size_t)ctx->nparts + 1,
	    sizeof *ctx->parts);
	jp = &ctx->parts[ctx->nparts++];
	jp->scenario = xstrdup(ctx->j->header.scenario);
	jp->policy = xstrdup(ctx->j->header.policy);
	jp->cpus = ctx->j->header.params.cpus;
	jp->ntasks = ctx->j->header.ntasks;
	jp->nchanges = ctx->j->nchanges;
	jp->end = ctx->j->end;
	if (want == 0 || ctx->j->part == want) {
		journal_free(*kept);
		*kept = ctx->j;
	} else
		journal_free(ctx->j);
	ctx->j = xcalloc(1, sizeof *ctx->j);
	ctx->alloc = 0;
	ctx->nadds = 0;
	ctx->prev = 0;
	ctx->prev_line = 0;
}

/* Parse text (len bytes, any NUL refused) as a journal named label. */
struct journal *
journal_parse(const char *text, size_t len, const char *label, char **cause)
{
	return (journal_parse_part(text, len, label, 0, cause));
}

/*
 * Parse text as a journal of one or more parts (docs/JOURNAL.md), every
 * part checked; return part want (1-based; 0: the last).
 */
struct journal *
journal_parse_part(const char *text, size_t len, const char *label, int want,
    char **cause)
{
	struct journal_ctx	 ctx;
	struct journal		*j, *kept = NULL;
	const char		*p, *end = text + len, *nl;
	char			*line = NULL, *rest, q[64];
	size_t			 ntext = 0, text_len = 0, text_size = 0, n;
	size_t			 size = 0;
	long long		 v;
	int			 state = 0, ended = 0;

	memset(&ctx, 0, sizeof ctx);
	ctx.label = label;
	ctx.cause = cause;
	ctx.j = j = xcalloc(1, sizeof *j);
	j->part = 1;

	if (len == 0) {
		ctx.line = 1;
		journal_error(&ctx, "truncated: the journal is empty");
		goto fail;
	}
	if (memchr(text, '\0', len) != NULL) {
		ctx.line = 1;
		for (p = text; *p != '\0'; p++)
			ctx.line += *p == '\n';
		journal_error(&ctx, "a NUL byte (not a text file)");
		goto fail;
	}
	if (text[len - 1] != '\n') {
		ctx.line = 1;
		for (p = text; p < end; p++)
			ctx.line += *p == '\n';
		journal_error(&ctx, "truncated: the last line has no newline");
		goto fail;
	}
	for (p = text; p < end; p = nl + 1) {
		nl = memchr(p, '\n', end - p);
		n = nl - p;
		ctx.line++;
		/* Room for the line, a NUL and the splits' extra bytes. */
		if (n + 3 > size) {
			size = n + 3;
			line = xrealloc(line, size);
		}
		memcpy(line, p, n);
		line[n] = '\0';
		line[n + 1] = '\0';
		if (ended) {
			/* Another part (a load or reset of the daemon). */
			if (strncmp(line, JOURNAL_MAGIC " ",
			    sizeof JOURNAL_MAGIC) != 0) {
				journal_error(&ctx, "an entry after the end "
				    "line");
				goto fail;
			}
			journal_next_part(&ctx, want, &kept);
			ctx.j->part = ctx.nparts + 1;
			state = 0;
			ended = 0;
			ntext = text_len = text_size = 0;
		}
		if (n == 0) {
			journal_error(&ctx, "an empty line");
			goto fail;
		}
		if (state == 0) {
			rest = journal_word(line);
			if (strcmp(line, JOURNAL_MAGIC) != 0) {
				journal_error(&ctx, "not a stairs journal (it "
				    "starts with \"%s %d\")", JOURNAL_MAGIC,
				    JOURNAL_VERSION);
				goto fail;
			}
			if (rest == NULL ||
			    journal_decimal(rest, 0, INT_MAX, &v) != 0) {
				journal_error(&ctx, "bad journal version %s",
				    journal_show(rest != NULL ? rest : "", q,
				    sizeof q));
				goto fail;
			}
			if (v != JOURNAL_VERSION) {
				journal_error(&ctx, "journal version %lld is "
				    "not supported (this stairs reads %d)", v,
				    JOURNAL_VERSION);
				goto fail;
			}
			state = 1;
			continue;
		}
		if (state < 5) {
			if (journal_header_line(&ctx, line, &state, &ntext,
			    &text_len, &text_size) != 0)
				goto fail;
			continue;
		}
		if (line[0] >= '0' && line[0] <= '9') {
			if (journal_change_line(&ctx, line) != 0)
				goto fail;
			continue;
		}
		rest = journal_word(line);
		if (strcmp(line, "end") == 0) {
			if (rest == NULL || journal_decimal(rest, 0,
			    (long long)JOURNAL_TICK_MAX, &v) != 0) {
				journal_error(&ctx, "bad end tick %s (expected "
				    "0..%llu)", journal_show(rest != NULL ?
				    rest : "", q, sizeof q),
				    (unsigned long long)JOURNAL_TICK_MAX);
				goto fail;
			}
			if ((uint64_t)v < ctx.prev) {
				journal_error(&ctx, "reordered: end tick %lld "
				    "is before tick %llu (line %d)", v,
				    (unsigned long long)ctx.prev,
				    ctx.prev_line);
				goto fail;
			}
			ctx.j->end = (uint64_t)v;
			ended = 1;
			continue;
		}
		journal_error(&ctx, "unknown entry %s",
		    journal_show(line, q, sizeof q));
		goto fail;
	}
	if (!ended) {
		journal_error(&ctx, "truncated: no end line%s", state < 5 ?
		    " (the header is incomplete)" : "");
		goto fail;
	}
	journal_next_part(&ctx, want, &kept);
	journal_free(ctx.j);
	free(line);
	if (kept == NULL) {
		journal_parts_free(ctx.parts, ctx.nparts);
		*cause = xasprintf("%s: no part %d (the journal has %d part%s)",
		    label, want, ctx.nparts, ctx.nparts == 1 ? "" : "s");
		return (NULL);
	}
	kept->nparts = ctx.nparts;
	kept->parts = ctx.parts;
	return (kept);
fail:
	free(line);
	journal_free(ctx.j);
	journal_free(kept);
	journal_parts_free(ctx.parts, ctx.nparts);
	return (NULL);
}

/* Read the journal at path (a regular file, at most 256 MiB). */
struct journal *
journal_read(const char *path, char **cause)
{
	return (journal_read_part(path, 0, cause));
}

/* Read part want (1-based; 0: the last) of the journal at path. */
struct journal *
journal_read_part(const char *path, int want, char **cause)
{
	struct journal	*j;
	char		*text;
	size_t		 len;

	if ((text = readconf_slurp(path, &len, cause)) == NULL)
		return (NULL);
	j = journal_parse_part(text, len, path, want, cause);
	free(text);
	return (j);
}

/* Free the copies of names and patterns that n changes own. */
void
journal_changes_clear(struct change *ch, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free((char *)ch[i].name);
		free((uint32_t *)ch[i].pattern);
	}
}

/* Free a journal read by journal_read() or journal_parse(). */
void
journal_free(struct journal *j)
{
	if (j == NULL)
		return;
	journal_parts_free(j->parts, j->nparts);
	journal_changes_clear(j->changes, j->nchanges);
	free(j->changes);
	free((char *)j->header.scenario);
	free((char *)j->header.text);
	free((char *)j->header.policy);
	free(j);
}
