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

#include "protocol.h"
#include "runs.h"
#include "wire.h"
#include "xmalloc.h"

static void	protocol_word(const char *, char *, size_t);

/* The command_table entry named name, or NULL. */
const struct proto_def *
protocol_find(const char *name)
{
	const struct proto_def	*def;

	for (def = command_table; def->name != NULL; def++) {
		if (strcmp(name, def->name) == 0)
			return (def);
	}
	return (NULL);
}

/* Does the command change the daemon (refused to read-only clients)? */
int
protocol_changes(const struct proto_cmd *cmd)
{
	return (cmd->def != NULL && (cmd->def->flags & PROTO_CHANGES));
}

/*
 * Quote a word from the user for an error message or a log line: the one
 * place client input is echoed back.  Between double quotes, printable
 * ASCII stays as it is (a '"' or '\' is escaped with a backslash) and any
 * other byte becomes \xNN, so the result is printable ASCII whatever came
 * in; at most PROTO_QUOTE_MAX characters of that go between the quotes,
 * and a longer word is cut and marked "...".  buf needs PROTO_QUOTE_SIZE
 * bytes to hold the longest result; a smaller one cuts sooner.
 */
char *
protocol_quote(const char *s, char *buf, size_t len)
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
	room = len - 6 < PROTO_QUOTE_MAX ? len - 6 : PROTO_QUOTE_MAX;
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
		    "1 to %llu", what, protocol_quote(s, q, sizeof q),
		    PROTO_MS_MAX);
		return (-1);
	}
	errno = 0;
	v = strtoull(s, NULL, 10);
	if (errno == ERANGE || v > PROTO_MS_MAX) {
		*cause = xasprintf("bad %s %s: more than %llu", what,
		    protocol_quote(s, q, sizeof q), PROTO_MS_MAX);
		return (-1);
	}
	if (v == 0) {
		*cause = xasprintf("bad %s %s: expected a whole number of ms, "
		    "1 to %llu", what, protocol_quote(s, q, sizeof q),
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
	    what, protocol_quote(s, q, sizeof q), min, max);
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
	    protocol_quote(s, q, sizeof q));
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
			    "numbers", protocol_quote(s, q, sizeof q),
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
		    protocol_quote(s, q, sizeof q));
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

/* Split a line into words at spaces and tabs; returns the count. */
static int
protocol_split(char *line, char ***words)
{
	char	**v = NULL, *p = line;
	int	  n = 0;

	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			break;
		v = xreallocarray(v, n + 1, sizeof *v);
		v[n++] = p;
		while (*p != '\0' && *p != ' ' && *p != '\t')
			p++;
		if (*p != '\0')
			*p++ = '\0';
	}
	*words = v;
	return (n);
}

/* Parse the key=value options of add and spawn. */
static int
protocol_parse_options(struct proto_cmd *cmd, char **w, int n,
    char **cause)
{
	char	 q[64];
	long	 v;
	int	 i;

	for (i = 0; i < n; i++) {
		if (strncmp(w[i], "nice=", 5) == 0 && !cmd->has_nice) {
			if (protocol_parse_int("nice", w[i] + 5, -20, 19, &v,
			    cause) != 0)
				return (-1);
			cmd->nice = (int)v;
			cmd->has_nice = 1;
		} else if (strncmp(w[i], "cpus=", 5) == 0 &&
		    cmd->cpus == NULL) {
			cmd->cpus = xstrdup(w[i] + 5);
		} else if (cmd->type == PROTO_ADD &&
		    strncmp(w[i], "pattern=", 8) == 0 && cmd->pattern == NULL) {
			if (protocol_parse_pattern(w[i] + 8, &cmd->pattern,
			    &cmd->npattern, cause) != 0)
				return (-1);
		} else if (cmd->type == PROTO_ADD &&
		    strncmp(w[i], "runtime=", 8) == 0 && cmd->runtime == 0) {
			if (protocol_parse_ms("runtime", w[i] + 8,
			    &cmd->runtime, cause) != 0)
				return (-1);
		} else {
			*cause = xasprintf("bad option %s for %s (expected %s)",
			    protocol_quote(w[i], q, sizeof q), cmd->def->name,
			    cmd->type == PROTO_ADD ?
			    "nice=, cpus=, pattern= or runtime=, once each" :
			    "nice= or cpus=, once each, then --");
			return (-1);
		}
	}
	return (0);
}

/* <task>: table, kill. */
int
protocol_args_task(struct proto_cmd *cmd, char **w, int n, char **cause)
{
	cmd->task = xstrdup(w[0]);
	return (0);
}

/* <task> [ms] */
int
protocol_args_sleep(struct proto_cmd *cmd, char **w, int n, char **cause)
{
	cmd->task = xstrdup(w[0]);
	if (n == 2) {
		if (protocol_parse_ms("ms", w[1], &cmd->ms, cause) != 0)
			return (-1);
		cmd->has_ms = 1;
	}
	return (0);
}

/* <task> <-20..19> */
int
protocol_args_nice(struct proto_cmd *cmd, char **w, int n, char **cause)
{
	long	v;

	cmd->task = xstrdup(w[0]);
	if (protocol_parse_int("nice", w[1], -20, 19, &v, cause) != 0)
		return (-1);
	cmd->nice = (int)v;
	cmd->has_nice = 1;
	return (0);
}

/* <task> <cpulist> (parsed against the engine's CPUs when run) */
int
protocol_args_affinity(struct proto_cmd *cmd, char **w, int n, char **cause)
{
	cmd->task = xstrdup(w[0]);
	cmd->cpus = xstrdup(w[1]);
	return (0);
}

/* A new task's name: the engine's rules (reserved, digits, too long ...). */
static int
protocol_args_name(struct proto_cmd *cmd, const char *name, char **cause)
{
	const char	*why;
	char		 q[PROTO_QUOTE_SIZE];

	if ((why = engine_name_check(name)) != NULL) {
		*cause = xasprintf("bad name %s: %s",
		    protocol_quote(name, q, sizeof q), why);
		return (-1);
	}
	cmd->task = xstrdup(name);
	return (0);
}

/* <name> [nice=N] [cpus=LIST] [pattern=R,S,...] [runtime=MS] */
int
protocol_args_add(struct proto_cmd *cmd, char **w, int n, char **cause)
{
	if (protocol_args_name(cmd, w[0], cause) != 0)
		return (-1);
	return (protocol_parse_options(cmd, w + 1, n - 1, cause));
}

/* <name> [nice=N] [cpus=LIST] -- <program> [args...] */
int
protocol_args_spawn(struct proto_cmd *cmd, char **w, int n, char **cause)
{
	int	i, dash;

	if (protocol_args_name(cmd, w[0], cause) != 0)
		return (-1);
	for (dash = 1; dash < n; dash++) {
		if (strcmp(w[dash], "--") == 0)
			break;
	}
	if (dash >= n - 1) {
		*cause = xasprintf("usage: %s", cmd->def->usage);
		return (-1);
	}
	if (n - dash - 1 > PROTO_ARGV_MAX) {
		*cause = xasprintf("spawn: more than %d arguments",
		    PROTO_ARGV_MAX);
		return (-1);
	}
	if (protocol_parse_options(cmd, w + 1, dash - 1, cause) != 0)
		return (-1);
	cmd->argc = n - dash - 1;
	cmd->argv = xcalloc(cmd->argc + 1, sizeof *cmd->argv);
	for (i = 0; i < cmd->argc; i++)
		cmd->argv[i] = xstrdup(w[dash + 1 + i]);
	return (0);
}

/*
 * [N], default 1; or event [N]: until the next event or caption, at most
 * N ticks (default PROTO_STEP_EVENT).
 */
int
protocol_args_step(struct proto_cmd *cmd, char **w, int n, char **cause)
{
	long	v;

	cmd->steps = 1;
	if (n > 0 && strcmp(w[0], "event") == 0) {
		cmd->step_event = 1;
		cmd->steps = PROTO_STEP_EVENT;
		w++;
		n--;
	} else if (n > 1) {
		*cause = xasprintf("usage: %s", cmd->def->usage);
		return (-1);
	}
	if (n == 1) {
		if (protocol_parse_int("steps", w[0], 1, PROTO_STEP_MAX, &v,
		    cause) != 0)
			return (-1);
		cmd->steps = (uint64_t)v;
	}
	return (0);
}

/* <0.01..100> */
int
protocol_args_speed(struct proto_cmd *cmd, char **w, int n, char **cause)
{
	return (protocol_parse_speed(w[0], &cmd->speed, cause));
}

/* <path>: load, record. */
int
protocol_args_path(struct proto_cmd *cmd, char **w, int n, char **cause)
{
	cmd->path = xstrdup(w[0]);
	return (0);
}

/* <tick>: seek. */
int
protocol_args_tick(struct proto_cmd *cmd, char **w, int n, char **cause)
{
	long	v;

	if (protocol_parse_int("tick", w[0], 0, INT64_MAX, &v, cause) != 0)
		return (-1);
	cmd->tick = (uint64_t)v;
	return (0);
}

/* <policy name> */
int
protocol_args_policy(struct proto_cmd *cmd, char **w, int n, char **cause)
{
	char	q[PROTO_QUOTE_SIZE];

	if ((cmd->policy = engine_policy_find(w[0])) == NULL) {
		*cause = xasprintf("unknown policy %s (known: %s)",
		    protocol_quote(w[0], q, sizeof q), engine_policy_names());
		return (-1);
	}
	return (0);
}

/* <policy name> or off: compare (cmd->policy NULL: off). */
int
protocol_args_compare(struct proto_cmd *cmd, char **w, int n, char **cause)
{
	if (strcmp(w[0], "off") == 0)
		return (0);
	return (protocol_args_policy(cmd, w, n, cause));
}

/*
 * [fps] [delta] [runs] [kruns] [view]: the words last, once each: "delta"
 * (frames after the first carry only changes), "runs" (what each CPU
 * ran), "kruns" (what the kernel ran there, real tasks), "view" (the
 * presenter's view): lines older clients do not know.
 */
int
protocol_args_subscribe(struct proto_cmd *cmd, char **w, int n, char **cause)
{
	char	q[PROTO_QUOTE_SIZE];
	long	v;

	cmd->fps = PROTO_FPS_DEFAULT;
	while (n > 0) {
		if (strcmp(w[n - 1], "delta") == 0 && !cmd->delta)
			cmd->delta = 1;
		else if (strcmp(w[n - 1], "runs") == 0 && !cmd->runs)
			cmd->runs = 1;
		else if (strcmp(w[n - 1], "kruns") == 0 && !cmd->kruns)
			cmd->kruns = 1;
		else if (strcmp(w[n - 1], "view") == 0 && !cmd->view)
			cmd->view = 1;
		else
			break;
		n--;
	}
	if (n > 1) {
		*cause = xasprintf("usage: %s (%s: not one of delta, runs, "
		    "kruns, view once each, after the fps)", cmd->def->usage,
		    protocol_quote(w[n - 1], q, sizeof q));
		return (-1);
	}
	if (n == 1) {
		if (protocol_parse_int("fps", w[0], 1, PROTO_FPS_MAX, &v,
		    cause) != 0)
			return (-1);
		cmd->fps = (int)v;
	}
	return (0);
}

/*
 * A view's pairs (`view task=3 timeline=1 …`): each key 1-16 of [a-z],
 * each value a whole number of at most 12 characters; kept joined by
 * spaces for the followers.
 */
int
protocol_args_view(struct proto_cmd *cmd, char **w, int n, char **cause)
{
	char		 q[PROTO_QUOTE_SIZE], *eq, *end;
	size_t		 len = 0, k;
	int		 i;

	for (i = 0; i < n; i++) {
		eq = strchr(w[i], '=');
		k = eq != NULL ? (size_t)(eq - w[i]) : 0;
		if (eq == NULL || k < 1 || k > 16 ||
		    strspn(w[i], "abcdefghijklmnopqrstuvwxyz") != k ||
		    strlen(eq + 1) < 1 || strlen(eq + 1) > 12 ||
		    (strtol(eq + 1, &end, 10), *end != '\0')) {
			*cause = xasprintf("bad view pair %s (expected "
			    "key=number)", protocol_quote(w[i], q, sizeof q));
			return (-1);
		}
		len += strlen(w[i]) + 1;
	}
	cmd->path = xcalloc(1, len + 1);
	for (i = 0; i < n; i++) {
		if (i > 0)
			strcat(cmd->path, " ");
		strcat(cmd->path, w[i]);
	}
	return (0);
}

/*
 * Parse one line (without its \n) into cmd.  An empty line gives
 * PROTO_NONE.  On error cmd holds nothing and *cause says what was wrong,
 * ready to follow "err ".
 */
int
protocol_parse(const char *line, struct proto_cmd *cmd, char **cause)
{
	const struct proto_def	*def = NULL;
	char			*copy, **w = NULL, q[64];
	size_t			 i;
	int			 n, rc = -1;

	memset(cmd, 0, sizeof *cmd);
	for (i = 0; line[i] != '\0'; i++) {
		if ((unsigned char)line[i] < 0x20 && line[i] != '\t') {
			*cause = xasprintf("control byte 0x%02x in line",
			    (unsigned char)line[i]);
			return (-1);
		}
	}
	copy = xstrdup(line);
	if ((n = protocol_split(copy, &w)) == 0) {
		cmd->type = PROTO_NONE;
		rc = 0;
		goto out;
	}
	if ((def = protocol_find(w[0])) == NULL) {
		*cause = xasprintf("unknown command %s (try help)",
		    protocol_quote(w[0], q, sizeof q));
		goto out;
	}
	if (n - 1 < def->min) {
		*cause = xasprintf("usage: %s", def->usage);
		goto out;
	}
	if (def->max >= 0 && n - 1 > def->max) {
		if (def->max == 0)
			*cause = xasprintf("usage: %s (no arguments)",
			    def->usage);
		else
			*cause = xasprintf("usage: %s (at most %d words after "
			    "%s)", def->usage, def->max, def->name);
		goto out;
	}
	cmd->type = def->type;
	cmd->def = def;
	if (def->args != NULL &&
	    (rc = def->args(cmd, w + 1, n - 1, cause)) != 0)
		protocol_cmd_free(cmd);
	else
		rc = 0;
out:
	free(w);
	free(copy);
	return (rc);
}

/* Free what a parsed command holds. */
void
protocol_cmd_free(struct proto_cmd *cmd)
{
	int	i;

	free(cmd->task);
	free(cmd->path);
	free(cmd->cpus);
	free(cmd->pattern);
	if (cmd->argv != NULL) {
		for (i = 0; i < cmd->argc; i++)
			free(cmd->argv[i]);
		free(cmd->argv);
	}
	memset(cmd, 0, sizeof *cmd);
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
	char	n[64], f[PROTO_QUOTE_SIZE];
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

/* The protocol's name for a task's state. */
const char *
protocol_state_name(const struct engine_task_info *ti)
{
	switch (ti->state) {
	case ENGINE_RUNNABLE:
		return (ti->running ? "running" : "runnable");
	case ENGINE_EXITED:
		return ("exited");
	default:
		return ("sleeping");
	}
}

/* Why a task ended, as the engine knows it. */
const char *
protocol_exit_name(enum engine_exit why)
{
	switch (why) {
	case ENGINE_EXIT_RUNTIME:
		return ("runtime");
	case ENGINE_EXIT_KILLED:
		return ("killed");
	default:
		return ("-");
	}
}

/* Copy an exit text with spaces (and anything odd) made '_'. */
static void
protocol_word(const char *s, char *buf, size_t len)
{
	size_t	i;

	for (i = 0; s[i] != '\0' && i + 1 < len; i++)
		buf[i] = isgraph((unsigned char)s[i]) ? s[i] : '_';
	buf[i] = '\0';
	if (i == 0 && len > 1)
		snprintf(buf, len, "-");
}

/*
 * A bounded string being built.  Task lines are formatted for every
 * frame (30 a second, 1 000 tasks), so they are built with these plain
 * appends rather than snprintf, which costs several times more.
 */
struct proto_out {
	char	*p;
	size_t	 len, size;	/* size > 0; len < size always */
};

/* Append a string (truncated at the end of the buffer). */
static void
proto_out_str(struct proto_out *o, const char *s)
{
	while (*s != '\0' && o->len + 1 < o->size)
		o->p[o->len++] = *s++;
	o->p[o->len] = '\0';
}

/* Append text to the end of the line, control characters as blanks. */
static void
proto_out_text(struct proto_out *o, const char *s)
{
	o->len = protocol_text_copy(o->p, o->size, o->len, s, SIZE_MAX);
}

/* Append a signed decimal number. */
static void
proto_out_num(struct proto_out *o, long long v)
{
	char			 tmp[24];
	int			 n = 0;
	unsigned long long	 u = v < 0 ? -(unsigned long long)v :
				    (unsigned long long)v;

	do
		tmp[n++] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		tmp[n++] = '-';
	while (n > 0 && o->len + 1 < o->size)
		o->p[o->len++] = tmp[--n];
	o->p[o->len] = '\0';
}

/* Append an unsigned decimal number. */
static void
proto_out_unum(struct proto_out *o, unsigned long long u)
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
static void
proto_out_key(struct proto_out *o, const struct wire_line *line, int i)
{
	if (i == 0) {
		proto_out_str(o, line->word);
		proto_out_str(o, " ");
	} else
		proto_out_str(o, " ");
	proto_out_str(o, line->field[line->order[i]].key);
	proto_out_str(o, "=");
}

/* A frame or status line: wire.c's order, values from st. */
static size_t
protocol_head_line(char *buf, size_t len, const struct wire_line *line,
    const struct proto_status *st, uint64_t dropped, int delta)
{
	struct proto_out	o = { buf, 0, len };
	char			sp[32], name[64];
	int			i;

	if (len == 0)
		return (0);
	buf[0] = '\0';
	protocol_word(st->scenario != NULL ? st->scenario : "-", name,
	    sizeof name);
	for (i = 0; i < line->n; i++) {
		if (line->order[i] == WIRE_HEAD_DELTA && delta < 0)
			continue;
		if (line->order[i] == WIRE_HEAD_SHADOW &&
		    (st->compare == NULL || !st->shadow))
			continue;
		if (line->order[i] == WIRE_HEAD_TEXT &&
		    st->description == NULL)
			continue;
		proto_out_key(&o, line, i);
		switch ((enum wire_head)line->order[i]) {
		case WIRE_HEAD_TICK:
			proto_out_unum(&o, st->tick);
			break;
		case WIRE_HEAD_CPUS:
			proto_out_num(&o, st->cpus);
			break;
		case WIRE_HEAD_TASKS:
			proto_out_num(&o, st->tasks);
			break;
		case WIRE_HEAD_PAUSED:
			proto_out_num(&o, st->paused);
			break;
		case WIRE_HEAD_SPEED:
			proto_out_str(&o, protocol_format_speed(st->speed, sp,
			    sizeof sp));
			break;
		case WIRE_HEAD_RR:
			proto_out_num(&o, st->rr);
			break;
		case WIRE_HEAD_CGROUPS:
			proto_out_str(&o, st->cgroups != NULL ? st->cgroups :
			    "none");
			break;
		case WIRE_HEAD_DROPPED:
			proto_out_unum(&o, dropped);
			break;
		case WIRE_HEAD_ALIVE:
			proto_out_num(&o, st->alive);
			break;
		case WIRE_HEAD_LAG:
			proto_out_unum(&o, st->lag);
			break;
		case WIRE_HEAD_CLIENTS:
			proto_out_num(&o, st->clients);
			break;
		case WIRE_HEAD_SCENARIO:
			proto_out_str(&o, name);
			break;
		case WIRE_HEAD_SLEEP:
			proto_out_num(&o, st->sleep);
			break;
		case WIRE_HEAD_OBSERVE:
			proto_out_str(&o, st->observe != NULL ? st->observe :
			    "proc");
			break;
		case WIRE_HEAD_POLICY:
			proto_out_str(&o, st->policy != NULL ? st->policy :
			    "staircase");
			break;
		case WIRE_HEAD_NOW:
			proto_out_unum(&o, st->now);
			break;
		case WIRE_HEAD_LIVE:
			proto_out_num(&o, st->live);
			break;
		case WIRE_HEAD_DELTA:
			proto_out_num(&o, delta != 0);
			break;
		case WIRE_HEAD_COMPARE:
		case WIRE_HEAD_SHADOW:
			proto_out_str(&o, st->compare != NULL ? st->compare :
			    "off");
			break;
		case WIRE_HEAD_TEXT:
			proto_out_text(&o, st->description);
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

/* One task line: wire.c's order, values from ti and real. */
size_t
protocol_task_line(char *buf, size_t len, const struct engine_task_info *ti,
    const struct proto_real *real, const char *group)
{
	const struct wire_line	*line = &wire_task;
	struct proto_out	 o = { buf, 0, len };
	char			 cpus[160], ex[96];
	int			 i, started;

	if (len == 0)
		return (0);
	buf[0] = '\0';
	started = real != NULL && real->pid > 0;
	for (i = 0; i < line->n; i++) {
		/* Real tasks only: sim lines stay as they were. */
		if (line->order[i] == WIRE_TASK_STOLEN &&
		    ti->kind != ENGINE_REAL)
			continue;
		proto_out_key(&o, line, i);
		switch ((enum wire_task)line->order[i]) {
		case WIRE_TASK_ID:
			proto_out_num(&o, ti->id);
			break;
		case WIRE_TASK_NAME:
			proto_out_str(&o, ti->name);
			break;
		case WIRE_TASK_KIND:
			proto_out_str(&o, ti->kind == ENGINE_REAL ? "real" :
			    "sim");
			break;
		case WIRE_TASK_PID:
			if (started)
				proto_out_num(&o, real->pid);
			else
				proto_out_str(&o, "-");
			break;
		case WIRE_TASK_NICE:
			proto_out_num(&o, ti->stair.nice);
			break;
		case WIRE_TASK_CPU:
			if (ti->cpu >= 0)
				proto_out_num(&o, ti->cpu);
			else
				proto_out_str(&o, "-");
			break;
		case WIRE_TASK_RANK:
			proto_out_num(&o, ti->stair.rank);
			break;
		case WIRE_TASK_ITER:
			proto_out_num(&o, ti->stair.iter);
			break;
		case WIRE_TASK_LEFT:
			proto_out_num(&o, ti->stair.left);
			break;
		case WIRE_TASK_STATE:
			proto_out_str(&o, protocol_state_name(ti));
			break;
		case WIRE_TASK_RAN:
			proto_out_unum(&o, ti->ran);
			break;
		case WIRE_TASK_CPUTIME:
			if (started)
				proto_out_unum(&o, real->cputime_ms);
			else
				proto_out_str(&o, "-");
			break;
		case WIRE_TASK_STOLEN:
			if (started)
				proto_out_unum(&o, real->stolen_ms);
			else
				proto_out_str(&o, "-");
			break;
		case WIRE_TASK_CPUS:
			proto_out_str(&o, cpumask_format(&ti->allowed, cpus,
			    sizeof cpus));
			break;
		case WIRE_TASK_GROUP:
			proto_out_str(&o, group != NULL ? group : "-");
			break;
		case WIRE_TASK_EXIT:
			if (real != NULL && real->exit != NULL &&
			    real->exit[0] != '\0' &&
			    ti->exit != ENGINE_EXIT_RUNTIME)
				protocol_word(real->exit, ex, sizeof ex);
			else
				protocol_word(protocol_exit_name(ti->exit), ex,
				    sizeof ex);
			proto_out_str(&o, ex);
			break;
		case WIRE_TASK_SLICE:
			proto_out_num(&o, ti->slice);
			break;
		case WIRE_TASK_TOP:
			proto_out_num(&o, ti->top);
			break;
		case WIRE_TASK_BOTTOM:
			proto_out_num(&o, ti->bottom);
			break;
		case WIRE_TASK_MAX:
			break;
		}
	}
	return (o.len);
}

/* One cpu line: an idle CPU (task=0) has no rank, iter or left. */
size_t
protocol_cpu_line(char *buf, size_t len, const struct engine_cpu_info *ci)
{
	const struct wire_line	*line = &wire_cpu;
	struct proto_out	 o = { buf, 0, len };
	int			 i;

	if (len == 0)
		return (0);
	buf[0] = '\0';
	for (i = 0; i < line->n; i++) {
		proto_out_key(&o, line, i);
		switch ((enum wire_cpu)line->order[i]) {
		case WIRE_CPU_ID:
			proto_out_num(&o, ci->cpu);
			break;
		case WIRE_CPU_TASK:
			proto_out_num(&o, ci->task);
			break;
		case WIRE_CPU_NR:
			proto_out_num(&o, ci->nr);
			break;
		case WIRE_CPU_RANK:
		case WIRE_CPU_ITER:
		case WIRE_CPU_LEFT:
			if (ci->task == 0)
				proto_out_str(&o, "-");
			else
				proto_out_num(&o, line->order[i] ==
				    WIRE_CPU_RANK ? ci->rank : line->order[i] ==
				    WIRE_CPU_ITER ? ci->iter : ci->left);
			break;
		case WIRE_CPU_MAX:
			break;
		}
	}
	return (o.len);
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

	if (*s < '0' || *s > '9')
		return (-1);
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || v > INT_MAX)
		return (-1);
	*task = (int)v;
	*rank = -1;
	s = end;
	if (*s == ':') {
		if (*++s < '0' || *s > '9')
			return (-1);
		v = strtol(s, &end, 10);
		if (v >= ENGINE_NRANKS)
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
	const char		*s = *p;
	char			*end;
	long			 id;

	if (*s == '-' || *s == '?') {
		*task = *s == '-' ? RUNS_OTHER : RUNS_UNKNOWN;
		s++;
	} else {
		if (*s < '0' || *s > '9')
			return (-1);
		errno = 0;
		id = strtol(s, &end, 10);
		if (errno != 0 || id > INT_MAX)
			return (-1);
		*task = (int)id;
		s = end;
	}
	if (protocol_run_count(&s, n) != 0)
		return (-1);
	*p = s;
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
