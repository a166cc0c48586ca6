/*
 * model-parse.c -- one line read: its kind found among those a reader
 * knows (model_read), a malformed one remembered (model_bad), and its
 * fields into the model's values: numbers
 * (a dash for "none" where the protocol allows one), the header of a
 * frame or status line, a session's fields, a cpu and a task line, free
 * text; and whether a line no client knows is a newer daemon's.  The
 * line was cut by the wire's tokenizer (protocol_line); a value that
 * does not read gives -1 and the caller counts the line malformed.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model-int.h"
#include "model.h"
#include "protocol.h"
#include "fields.h"
#include "xmalloc.h"

/* The keys of the lines read here, from fields.c. */
#define KH(k)	wire_key(&wire_frame, WIRE_HEAD_##k)
#define KC(k)	wire_key(&wire_cpu, WIRE_CPU_##k)

/* Remember a malformed line and say so. */
enum model_got
model_bad(struct model *m, const char *line, const char *why)
{
	m->nbad++;
	snprintf(m->bad, sizeof m->bad, "%s: %.*s", why, 120, line);
	return (MODEL_BAD);
}

/*
 * Append elem (size bytes) to the array p of *n elements, *alloc of
 * them allocated, growing it; returns the array.
 */
void *
model_append(void *p, int *n, int *alloc, const void *elem, size_t size)
{
	if (*n >= *alloc) {
		*alloc = *alloc == 0 ? 16 : *alloc * 2;
		p = xreallocarray(p, *alloc, size);
	}
	memcpy((char *)p + (size_t)*n * size, elem, size);
	(*n)++;
	return (p);
}

/*
 * Read a line of one of the kinds given (by its keyword) with that
 * kind's reader: MODEL_NOTHING, or MODEL_BAD (counted, remembered) if
 * the reader found it malformed.  -1 if it is of none of them.
 */
int
model_read(struct model *m, const struct model_kind *kinds, size_t n,
    struct proto_fields *f, const char *line)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (strcmp(f->word, kinds[i].line->word) != 0)
			continue;
		if (kinds[i].read != NULL && kinds[i].read(m, f) != 0)
			return (model_bad(m, line, kinds[i].bad));
		return (MODEL_NOTHING);
	}
	return (-1);
}

/*
 * A line of a kind this client does not know, written as the protocol
 * writes lines (a lowercase keyword, then key=value fields, the last of
 * which may be bare, as a runs line's runs): a newer
 * daemon's, to be ignored (docs/PROTOCOL.md, "Compatibility"); counted
 * in nunknown.  Anything else is malformed.
 */
int
model_parse_unknown(struct model *m, const struct proto_fields *f)
{
	const char	*p;
	int		 i;

	if (*f->word < 'a' || *f->word > 'z')
		return (0);
	for (p = f->word; *p != '\0'; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		    *p == '_'))
			return (0);
	}
	for (i = 0; i < f->n; i++) {
		/* The last may be bare after a key=value: runs. */
		if (f->f[i].value == NULL && (i == 0 || i + 1 < f->n))
			return (0);
	}
	m->nunknown++;
	return (1);
}

/* Parse a whole decimal number; "-" gives dash (if allowed). */
int
model_parse_num(const char *s, long *out, long dash)
{
	char	*end;
	long	 v;

	if (s == NULL || *s == '\0')
		return (-1);
	if (strcmp(s, "-") == 0) {
		if (dash == LONG_MIN)
			return (-1);
		*out = dash;
		return (0);
	}
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return (-1);
	*out = v;
	return (0);
}

/* Read an int field into *out; missing keeps *out unless required. */
int
model_parse_int(struct proto_fields *f, const char *key, int *out, int required,
    int dash)
{
	const char	*s;
	long		 v;

	if ((s = protocol_get(f, key)) == NULL)
		return (required ? -1 : 0);
	if (model_parse_num(s, &v, dash ? -1 : LONG_MIN) != 0 || v < INT_MIN ||
	    v > INT_MAX)
		return (-1);
	*out = (int)v;
	return (0);
}

/* Read a long field like model_parse_int. */
int
model_parse_long(struct proto_fields *f, const char *key, long *out,
    int required)
{
	const char	*s;

	if ((s = protocol_get(f, key)) == NULL)
		return (required ? -1 : 0);
	return (model_parse_num(s, out, -1));
}

/* Read the header fields shared by `frame` and `status`. */
int
model_parse_header(struct proto_fields *f, long *tick, int *paused,
    double *speed, int *rr, int *sleep_ms)
{
	const char	*s;
	char		*end;
	double		 d;

	if (model_parse_long(f, KH(TICK), tick, 1) != 0)
		return (-1);
	if (model_parse_int(f, KH(PAUSED), paused, 0, 0) != 0)
		return (-1);
	if ((s = protocol_get(f, KH(SPEED))) != NULL) {
		d = strtod(s, &end);
		if (*end != '\0' || !(d > 0))
			return (-1);
		*speed = d;
	}
	if (model_parse_int(f, KH(RR), rr, 0, 0) != 0 || *rr <= 0)
		return (-1);
	/* Not in protocol 1, but used if a daemon offers it. */
	if (sleep_ms != NULL) {
		if (model_parse_int(f, KH(SLEEP), sleep_ms, 0, 0) != 0 ||
		    *sleep_ms <= 0)
			return (-1);
	}
	return (0);
}

/*
 * Read the session's fields of a `frame` or `status` line: live=0/1,
 * now=T, alive=N and scenario=NAME (kept as it was when not given).  An
 * older daemon's live=N was the count of live tasks: without alive= it
 * is read as that, and the tick shown is the present.
 */
int
model_parse_session(struct proto_fields *f, int *live, long *now, int *alive,
    char *scenario, size_t len)
{
	const char	*s;
	int		 l = 1, a = -1;
	long		 n = -1;

	if (model_parse_int(f, KH(LIVE), &l, 0, 0) != 0 ||
	    model_parse_int(f, KH(ALIVE), &a, 0, 0) != 0 ||
	    model_parse_long(f, KH(NOW), &n, 0) != 0 || n < -1)
		return (-1);
	if (protocol_get(f, KH(ALIVE)) == NULL) {
		a = protocol_get(f, KH(LIVE)) != NULL ? l : -1;
		l = 1;
	} else if ((l != 0 && l != 1) || a < 0)
		return (-1);
	if ((s = protocol_get(f, KH(SCENARIO))) != NULL) {
		if (*s == '\0' || strlen(s) >= len)
			return (-1);
		snprintf(scenario, len, "%s", s);
	}
	*live = l;
	*now = n;
	*alive = a;
	return (0);
}

/* The names of the policies' quantities (enum mq, enum mcq). */
static const char *const model_q_names[MQ_MAX] = {
	"descent", "array", "bonus", "sleep_avg", "vruntime_us", "slice_us",
	"left_us", "lag_us", "deadline_us", "eligible", "weight"
};
static const char *const model_cq_names[MCQ_MAX] = {
	"expired_ms", "starve_ms", "best_expired", "nr_active", "nr_expired",
	"min_vruntime_us", "next", "period_us", "V_us"
};

/*
 * A key the line's reader does not know: one of the policy's
 * quantities (names, n of them) into q and *has, or nothing (a newer
 * daemon's).  -1: a quantity that is not a whole number.
 */
static int
model_parse_q(const char *key, const char *s, const char *const *names,
    int n, long *q, unsigned *has)
{
	long	v;
	int	k;

	for (k = 0; k < n; k++) {
		if (strcmp(key, names[k]) != 0)
			continue;
		if (model_parse_num(s, &v, LONG_MIN) != 0)
			return (-1);
		q[k] = v;
		*has |= 1u << k;
		return (0);
	}
	return (0);
}

/* The order= of an rr cpu line: ids from the head, or - for none. */
static int
model_parse_order(const char *s, struct mcpu *c)
{
	char	*end;
	long	 v;

	c->norder = 0;
	if (strcmp(s, "-") == 0)
		return (0);
	for (;;) {
		v = strtol(s, &end, 10);
		if (end == s || v <= 0 || v > INT_MAX)
			return (-1);
		if (c->norder < MODEL_ORDER)
			c->order[c->norder++] = (int)v;
		if (*end == '\0')
			return (0);
		if (*end != ',')
			return (-1);
		s = end + 1;
	}
}

/* Parse a `cpu` line. */
int
model_parse_cpu(struct proto_fields *f, struct mcpu *c)
{
	int	i;

	memset(c, 0, sizeof *c);
	c->rank = c->iter = c->left = -1;
	c->norder = -1;
	for (i = 0; i < f->n; i++) {
		if (f->f[i].value == NULL)
			continue;
		if (strcmp(f->f[i].key, "order") == 0) {
			if (model_parse_order(f->f[i].value, c) != 0)
				return (-1);
		} else if (model_parse_q(f->f[i].key, f->f[i].value,
		    model_cq_names, MCQ_MAX, c->q, &c->qhas) != 0)
			return (-1);
	}
	if (model_parse_int(f, KC(ID), &c->id, 1, 0) != 0 || c->id < 0)
		return (-1);
	if (model_parse_int(f, KC(TASK), &c->task, 0, 0) != 0 || c->task < 0)
		return (-1);
	if (model_parse_int(f, KC(NR), &c->nr, 0, 0) != 0 ||
	    model_parse_int(f, KC(RANK), &c->rank, 0, 1) != 0 ||
	    model_parse_int(f, KC(ITER), &c->iter, 0, 1) != 0 ||
	    model_parse_int(f, KC(LEFT), &c->left, 0, 1) != 0)
		return (-1);
	if (c->task == 0)
		c->rank = c->iter = c->left = -1;
	return (0);
}

/* Copy a string value, refusing one that does not fit. */
int
model_parse_copy(char *dst, size_t len, const char *s)
{
	size_t	n = strlen(s);

	if (n >= len)
		return (-1);
	memcpy(dst, s, n + 1);
	return (0);
}

/*
 * Parse a `task` line in one pass over its fields (this is most of a
 * frame: keep it cheap).  id, name and state are required; unknown keys
 * are skipped, so a newer daemon may add some.
 */
int
model_parse_task(const struct proto_fields *f, struct mtask *t)
{
	const char	*s;
	long		 v = 0;
	int		 i, key, seen = 0, hint = 0;
	size_t		 j;

	memset(t, 0, sizeof *t);
	t->pid = t->cpu = -1;
	t->cputime = -1;
	t->stolen = -2;
	t->rank = 120;
	t->iter = 1;
	t->cpus[0] = t->group[0] = t->exit[0] = '-';

	for (i = 0; i < f->n; i++) {
		if ((s = f->f[i].value) == NULL)
			continue;
		if ((key = wire_find(&wire_task, f->f[i].key, &hint)) < 0) {
			/* The policy's quantities, or a newer daemon's. */
			if (model_parse_q(f->f[i].key, s, model_q_names,
			    MQ_MAX, t->q, &t->qhas) != 0)
				return (-1);
			continue;
		}
		switch (wire_task.field[key].type) {
		case WIRE_INT:
		case WIRE_INT_DASH:
		case WIRE_COUNT:
		case WIRE_COUNT_DASH:
			if (model_parse_num(s, &v, wire_task.field[key].type ==
			    WIRE_INT_DASH || wire_task.field[key].type ==
			    WIRE_COUNT_DASH ? -1 : LONG_MIN) != 0)
				return (-1);
			if (wire_task.field[key].type != WIRE_COUNT &&
			    wire_task.field[key].type != WIRE_COUNT_DASH &&
			    (v < INT_MIN || v > INT_MAX))
				return (-1);
			break;
		default:
			break;
		}
		switch ((enum wire_task)key) {
		case WIRE_TASK_NAME:
			if (*s == '\0' || model_parse_copy(t->name,
			    sizeof t->name, s) != 0)
				return (-1);
			break;
		case WIRE_TASK_KIND:
			if (strcmp(s, "real") == 0)
				t->real = 1;
			else if (strcmp(s, "sim") != 0)
				return (-1);
			break;
		case WIRE_TASK_STATE:
			for (j = 0; j <= MTASK_EXITED; j++) {
				if (strcmp(s, model_state_name(j)) == 0)
					break;
			}
			if (j > MTASK_EXITED)
				return (-1);
			t->state = (enum mtask_state)j;
			break;
		case WIRE_TASK_CPUS:
			if (model_parse_copy(t->cpus, sizeof t->cpus, s) != 0)
				return (-1);
			break;
		case WIRE_TASK_GROUP:
			if (model_parse_copy(t->group, sizeof t->group, s) != 0)
				return (-1);
			break;
		case WIRE_TASK_EXIT:
			/* Free text with _ for spaces: cut, never refused. */
			snprintf(t->exit, sizeof t->exit, "%s", s);
			break;
		case WIRE_TASK_ID:
			t->id = (int)v;
			break;
		case WIRE_TASK_PID:
			t->pid = (int)v;
			break;
		case WIRE_TASK_NICE:
			t->nice = (int)v;
			break;
		case WIRE_TASK_CPU:
			t->cpu = (int)v;
			break;
		case WIRE_TASK_RANK:
			t->rank = (int)v;
			break;
		case WIRE_TASK_ITER:
			t->iter = (int)v;
			break;
		case WIRE_TASK_LEFT:
			t->left = (int)v;
			break;
		case WIRE_TASK_RAN:
			t->ran = v;
			break;
		case WIRE_TASK_CPUTIME:
			t->cputime = v;
			break;
		case WIRE_TASK_STOLEN:
			t->stolen = v;
			break;
		case WIRE_TASK_SLICE:
			t->slice = (int)v;
			break;
		case WIRE_TASK_TOP:
			t->top = (int)v;
			break;
		case WIRE_TASK_BOTTOM:
			t->bottom = (int)v;
			break;
		case WIRE_TASK_MAX:
			break;
		}
		seen |= 1 << key;
	}
	if ((seen & (1 << WIRE_TASK_ID | 1 << WIRE_TASK_NAME |
	    1 << WIRE_TASK_STATE)) != (1 << WIRE_TASK_ID |
	    1 << WIRE_TASK_NAME | 1 << WIRE_TASK_STATE) || t->id <= 0 ||
	    t->nice < -20 || t->nice > 19 || t->rank < 0 ||
	    t->rank > MODEL_BOTTOM || t->iter < 0 || t->iter > 40 ||
	    t->left < 0)
		return (-1);
	/* A daemon that says nothing of the policy: what the line shows. */
	if (!(seen & 1 << WIRE_TASK_SLICE))
		t->slice = t->left;
	if (!(seen & 1 << WIRE_TASK_TOP))
		t->top = t->rank;
	if (!(seen & 1 << WIRE_TASK_BOTTOM))
		t->bottom = t->rank;
	if (t->slice < 0 || t->top < 0 || t->top > MODEL_BOTTOM ||
	    t->bottom < t->top || t->bottom > MODEL_BOTTOM)
		return (-1);
	return (0);
}

/*
 * Copy free text (a text= field) into dst: as it is, or unquoted when
 * the daemon quoted it ("...", with \" \\ and \xNN).  Control bytes
 * become spaces, so it draws on one line.
 */
void
model_parse_text(char *dst, size_t len, const char *s)
{
	size_t	n = strlen(s), i, o = 0;
	char	hex[3] = "";
	int	c;

	if (len == 0)
		return;
	if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
		s++;
		n -= 2;
	} else
		n = SIZE_MAX;	/* not quoted: no escapes */
	for (i = 0; s[i] != '\0' && i < n && o + 1 < len; i++) {
		c = (unsigned char)s[i];
		if (n != SIZE_MAX && c == '\\' && i + 1 < n) {
			c = (unsigned char)s[++i];
			if (c == 'x' && i + 2 < n && isxdigit((unsigned char)
			    s[i + 1]) && isxdigit((unsigned char)s[i + 2])) {
				hex[0] = s[i + 1];
				hex[1] = s[i + 2];
				c = (int)strtol(hex, NULL, 16);
				i += 2;
			}
		}
		dst[o++] = c < 0x20 || c == 0x7f ? ' ' : (char)c;
	}
	dst[o] = '\0';
}
