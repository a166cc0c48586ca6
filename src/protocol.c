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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol.h"
#include "xmalloc.h"

static void	protocol_word(const char *, char *, size_t);

/*
 * Command names, with how many words they take (after the name), and
 * whether they change the daemon (a read-only connection is refused
 * those: `err read-only`).
 */
static int	protocol_parse_view(struct proto_cmd *, char **, int, char **);

static const struct proto_def {
	const char	*name;
	enum proto_type	 type;
	int		 min, max;	/* -1: any number */
	int		 changes;
	const char	*usage;
} proto_defs[] = {
	{ "help", PROTO_HELP, 0, 0, 0, "help" },
	{ "status", PROTO_STATUS, 0, 0, 0, "status" },
	{ "tasks", PROTO_TASKS, 0, 0, 0, "tasks" },
	{ "cpus", PROTO_CPUS, 0, 0, 0, "cpus" },
	{ "table", PROTO_TABLE, 1, 1, 0, "table <task>" },
	{ "sleep", PROTO_SLEEP, 1, 2, 1, "sleep <task> [ms]" },
	{ "nice", PROTO_NICE, 2, 2, 1, "nice <task> <-20..19>" },
	{ "affinity", PROTO_AFFINITY, 2, 2, 1, "affinity <task> <cpulist>" },
	{ "kill", PROTO_KILL, 1, 1, 1, "kill <task>" },
	{ "add", PROTO_ADD, 1, 5, 1,
	    "add <name> [nice=N] [cpus=LIST] [pattern=R,S,...] [runtime=MS]" },
	{ "spawn", PROTO_SPAWN, 3, -1, 1,
	    "spawn <name> [nice=N] [cpus=LIST] -- <program> [args...]" },
	{ "pause", PROTO_PAUSE, 0, 0, 1, "pause" },
	{ "resume", PROTO_RESUME, 0, 0, 1, "resume" },
	{ "step", PROTO_STEP, 0, 1, 1, "step [N]" },
	{ "speed", PROTO_SPEED, 1, 1, 1, "speed <0.01..100>" },
	{ "subscribe", PROTO_SUBSCRIBE, 0, 4, 0,
	    "subscribe [fps] [delta] [runs] [view]" },
	{ "unsubscribe", PROTO_UNSUBSCRIBE, 0, 0, 0, "unsubscribe" },
	{ "shutdown", PROTO_SHUTDOWN, 0, 0, 1, "shutdown" },
	{ "quit", PROTO_QUIT, 0, 0, 0, "quit" },
	{ "policy", PROTO_POLICY, 1, 1, 1, "policy <staircase|o1|cfs|rr>" },
	{ "scenarios", PROTO_SCENARIOS, 0, 0, 0, "scenarios" },
	{ "load", PROTO_LOAD, 1, 1, 1, "load <name|path>" },
	{ "reset", PROTO_RESET, 0, 0, 1, "reset" },
	{ "record", PROTO_RECORD, 1, 1, 1, "record <path>" },
	{ "readonly", PROTO_READONLY, 0, 0, 0, "readonly" },
	{ "seek", PROTO_SEEK, 1, 1, 1, "seek <tick>" },
	{ "marks", PROTO_MARKS, 0, 0, 0, "marks" },
	{ "view", PROTO_VIEW, 0, PROTO_VIEW_MAX, 1, "view [key=value ...]" },
};
#define PROTO_NDEFS (sizeof proto_defs / sizeof proto_defs[0])

const char *const protocol_help[] = {
	"help                      this list",
	"status                    tick, cpus, tasks, paused, speed, lag",
	"tasks                     one task line per task",
	"cpus                      one cpu line per engine CPU",
	"table <task>              ticks at each rank in each descent",
	"sleep <task> [ms]         injected sleep (default from the config)",
	"nice <task> <n>           nice -20..19",
	"affinity <task> <cpus>    allowed engine CPUs, e.g. 0-2,5",
	"kill <task>               end a task now",
	"add <name> [nice=N] [cpus=LIST] [pattern=R,S,...] [runtime=MS]",
	"spawn <name> [nice=N] [cpus=LIST] -- <program> [args...]",
	"pause | resume            stop or restart the clock",
	"step [N]                  run N ticks (default 1); pauses the clock",
	"speed <x>                 ticks per ms of wall time, 0.01..100",
	"subscribe [fps] [delta] [runs] [view]  stream frames, at most fps a second",
	"unsubscribe               stop the frames",
	"shutdown                  stop the daemon",
	"quit                      close this connection",
	"policy <name>             switch the policy: staircase, o1, cfs, rr",
	"scenarios                 the scenarios load knows, with descriptions",
	"load <name|path>          start a scenario afresh at tick 0",
	"reset                     load the current scenario again",
	"record <path>             write the journal so far, and keep on",
	"readonly                  this connection changes nothing from now",
	"seek <tick>               show the state at a past tick (pauses)",
	"marks                     the scenario's marks (chapters)",
	"view [key=value ...]      the presenter's view, for followers",
	NULL
};

/* The name of a command type. */
const char *
protocol_cmd_name(enum proto_type type)
{
	size_t	i;

	for (i = 0; i < PROTO_NDEFS; i++) {
		if (proto_defs[i].type == type)
			return (proto_defs[i].name);
	}
	return ("none");
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
		*cause = xasprintf("bad %s %s: expected a positive number",
		    what, protocol_quote(s, q, sizeof q));
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
		*cause = xasprintf("bad %s %s: expected a positive number",
		    what, protocol_quote(s, q, sizeof q));
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
			    protocol_quote(w[i], q, sizeof q),
			    protocol_cmd_name(cmd->type),
			    cmd->type == PROTO_ADD ?
			    "nice=, cpus=, pattern= or runtime=, once each" :
			    "nice= or cpus=, once each, then --");
			return (-1);
		}
	}
	return (0);
}

/* Parse the words after the command name into cmd. */
static int
protocol_parse_args(struct proto_cmd *cmd, char **w, int n, char **cause)
{
	const char	*why;
	char		 q[PROTO_QUOTE_SIZE];
	long		 v;
	int		 i, dash;

	switch (cmd->type) {
	case PROTO_TABLE:
	case PROTO_KILL:
		cmd->task = xstrdup(w[0]);
		break;
	case PROTO_SLEEP:
		cmd->task = xstrdup(w[0]);
		if (n == 2) {
			if (protocol_parse_ms("ms", w[1], &cmd->ms, cause) != 0)
				return (-1);
			cmd->has_ms = 1;
		}
		break;
	case PROTO_NICE:
		cmd->task = xstrdup(w[0]);
		if (protocol_parse_int("nice", w[1], -20, 19, &v, cause) != 0)
			return (-1);
		cmd->nice = (int)v;
		cmd->has_nice = 1;
		break;
	case PROTO_AFFINITY:
		cmd->task = xstrdup(w[0]);
		cmd->cpus = xstrdup(w[1]);
		break;
	case PROTO_ADD:
	case PROTO_SPAWN:
		if ((why = engine_name_check(w[0])) != NULL) {
			/* Says which rule: reserved, digits, too long ... */
			*cause = xasprintf("bad name %s: %s",
			    protocol_quote(w[0], q, sizeof q), why);
			return (-1);
		}
		cmd->task = xstrdup(w[0]);
		if (cmd->type == PROTO_ADD)
			return (protocol_parse_options(cmd, w + 1, n - 1,
			    cause));
		for (dash = 1; dash < n; dash++) {
			if (strcmp(w[dash], "--") == 0)
				break;
		}
		if (dash >= n - 1) {
			*cause = xasprintf("usage: spawn <name> [nice=N] "
			    "[cpus=LIST] -- <program> [args...]");
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
		break;
	case PROTO_STEP:
		cmd->steps = 1;
		if (n == 1) {
			if (protocol_parse_int("steps", w[0], 1,
			    PROTO_STEP_MAX, &v, cause) != 0)
				return (-1);
			cmd->steps = (uint64_t)v;
		}
		break;
	case PROTO_SPEED:
		return (protocol_parse_speed(w[0], &cmd->speed, cause));
	case PROTO_LOAD:
	case PROTO_RECORD:
		cmd->path = xstrdup(w[0]);
		break;
	case PROTO_VIEW:
		return (protocol_parse_view(cmd, w, n, cause));
	case PROTO_SEEK:
		if (protocol_parse_int("tick", w[0], 0, INT64_MAX, &v,
		    cause) != 0)
			return (-1);
		cmd->tick = (uint64_t)v;
		break;
	case PROTO_POLICY:
		if ((cmd->policy = engine_policy_find(w[0])) == NULL) {
			*cause = xasprintf("unknown policy %s (known: %s)",
			    protocol_quote(w[0], q, sizeof q),
			    engine_policy_names());
			return (-1);
		}
		break;
	case PROTO_SUBSCRIBE:
		cmd->fps = PROTO_FPS_DEFAULT;
		/*
		 * Words last, once each: "delta" (frames after the first
		 * carry only changes), "runs" (what each CPU ran), "view"
		 * (the presenter's view): lines older clients do not know.
		 */
		while (n > 0) {
			if (strcmp(w[n - 1], "delta") == 0 && !cmd->delta)
				cmd->delta = 1;
			else if (strcmp(w[n - 1], "runs") == 0 && !cmd->runs)
				cmd->runs = 1;
			else if (strcmp(w[n - 1], "view") == 0 && !cmd->view)
				cmd->view = 1;
			else
				break;
			n--;
		}
		if (n > 1) {
			*cause = xasprintf("usage: subscribe [fps] [delta] "
			    "[runs] [view]");
			return (-1);
		}
		if (n == 1) {
			if (protocol_parse_int("fps", w[0], 1, PROTO_FPS_MAX,
			    &v, cause) != 0)
				return (-1);
			cmd->fps = (int)v;
		}
		break;
	default:
		break;
	}
	return (0);
}


/*
 * A view's pairs (`view task=3 timeline=1 …`): each key 1-16 of [a-z],
 * each value a whole number of at most 12 characters; kept joined by
 * spaces for the followers.
 */
static int
protocol_parse_view(struct proto_cmd *cmd, char **w, int n, char **cause)
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
	for (i = 0; i < PROTO_NDEFS; i++) {
		if (strcmp(w[0], proto_defs[i].name) == 0) {
			def = &proto_defs[i];
			break;
		}
	}
	if (def == NULL) {
		*cause = xasprintf("unknown command %s (try help)",
		    protocol_quote(w[0], q, sizeof q));
		goto out;
	}
	if (n - 1 < def->min || (def->max >= 0 && n - 1 > def->max)) {
		*cause = xasprintf("usage: %s", def->usage);
		goto out;
	}
	cmd->type = def->type;
	if ((rc = protocol_parse_args(cmd, w + 1, n - 1, cause)) != 0)
		protocol_cmd_free(cmd);
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

/* The status line; a scenario name's blanks become '_' (one word). */
size_t
protocol_status_line(char *buf, size_t len, const struct proto_status *st)
{
	char	sp[32], name[64];

	protocol_word(st->scenario != NULL ? st->scenario : "-", name,
	    sizeof name);
	return (protocol_len(snprintf(buf, len, "status tick=%llu cpus=%d "
	    "tasks=%d paused=%d speed=%s rr=%d cgroups=%s alive=%d lag=%llu "
	    "clients=%d scenario=%s sleep=%d observe=%s policy=%s now=%llu "
	    "live=%d", (unsigned long long)st->tick, st->cpus, st->tasks,
	    st->paused, protocol_format_speed(st->speed, sp, sizeof sp),
	    st->rr, st->cgroups, st->alive, (unsigned long long)st->lag,
	    st->clients, name, st->sleep,
	    st->observe != NULL ? st->observe : "proc",
	    st->policy != NULL ? st->policy : "staircase",
	    (unsigned long long)st->now, st->live), len));
}

/* The first line of a frame. */
size_t
protocol_frame_line(char *buf, size_t len, const struct proto_status *st,
    uint64_t dropped, int delta)
{
	char	sp[32], name[64];

	protocol_word(st->scenario != NULL ? st->scenario : "-", name,
	    sizeof name);
	return (protocol_len(snprintf(buf, len, "frame tick=%llu cpus=%d "
	    "tasks=%d paused=%d speed=%s rr=%d dropped=%llu alive=%d lag=%llu "
	    "sleep=%d policy=%s now=%llu live=%d scenario=%s%s",
	    (unsigned long long)st->tick, st->cpus, st->tasks, st->paused,
	    protocol_format_speed(st->speed, sp, sizeof sp), st->rr,
	    (unsigned long long)dropped, st->alive,
	    (unsigned long long)st->lag, st->sleep,
	    st->policy != NULL ? st->policy : "staircase",
	    (unsigned long long)st->now, st->live, name, delta < 0 ? "" :
	    delta ? " delta=1" : " delta=0"), len));
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
	size_t	o, i;

	protocol_word(name, n, sizeof n);
	protocol_word(file, f, sizeof f);
	o = protocol_len(snprintf(buf, len, "scenario name=%s file=%s cpus=%d "
	    "tasks=%d real=%d text=", n, f, cpus, tasks, real != 0), len);
	for (i = 0; text != NULL && text[i] != '\0' && o + 1 < len; i++)
		buf[o++] = (unsigned char)text[i] < 0x20 ||
		    text[i] == 0x7f ? ' ' : text[i];
	if (len > 0)
		buf[o < len ? o : len - 1] = '\0';
	return (o);
}

/* Does the command change the daemon (refused to read-only clients)? */
int
protocol_changes(enum proto_type type)
{
	size_t	i;

	for (i = 0; i < PROTO_NDEFS; i++) {
		if (proto_defs[i].type == type)
			return (proto_defs[i].changes);
	}
	return (0);
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

/* Append " key=" and a number. */
static void
proto_out_kv(struct proto_out *o, const char *key, long long v)
{
	proto_out_str(o, key);
	proto_out_num(o, v);
}

/* One task line. */
size_t
protocol_task_line(char *buf, size_t len, const struct engine_task_info *ti,
    const struct proto_real *real, const char *group)
{
	struct proto_out	 o = { buf, 0, len };
	char			 cpus[160], ex[96];

	if (len == 0)
		return (0);
	buf[0] = '\0';
	if (real != NULL && real->exit != NULL && real->exit[0] != '\0' &&
	    ti->exit != ENGINE_EXIT_RUNTIME)
		protocol_word(real->exit, ex, sizeof ex);
	else
		protocol_word(protocol_exit_name(ti->exit), ex, sizeof ex);
	proto_out_kv(&o, "task id=", ti->id);
	proto_out_str(&o, " name=");
	proto_out_str(&o, ti->name);
	proto_out_str(&o, ti->kind == ENGINE_REAL ? " kind=real pid=" :
	    " kind=sim pid=");
	if (real != NULL && real->pid > 0)
		proto_out_num(&o, real->pid);
	else
		proto_out_str(&o, "-");
	proto_out_kv(&o, " nice=", ti->stair.nice);
	proto_out_str(&o, " cpu=");
	if (ti->cpu >= 0)
		proto_out_num(&o, ti->cpu);
	else
		proto_out_str(&o, "-");
	proto_out_kv(&o, " rank=", ti->stair.rank);
	proto_out_kv(&o, " iter=", ti->stair.iter);
	proto_out_kv(&o, " left=", ti->stair.left);
	proto_out_str(&o, " state=");
	proto_out_str(&o, protocol_state_name(ti));
	proto_out_str(&o, " ran=");
	proto_out_unum(&o, ti->ran);
	proto_out_str(&o, " cputime=");
	if (real != NULL && real->pid > 0)
		proto_out_unum(&o, real->cputime_ms);
	else
		proto_out_str(&o, "-");
	/* Real tasks only: sim lines stay as they were. */
	if (ti->kind == ENGINE_REAL) {
		proto_out_str(&o, " stolen=");
		if (real != NULL && real->pid > 0)
			proto_out_unum(&o, real->stolen_ms);
		else
			proto_out_str(&o, "-");
	}
	proto_out_str(&o, " cpus=");
	proto_out_str(&o, cpumask_format(&ti->allowed, cpus, sizeof cpus));
	proto_out_str(&o, " group=");
	proto_out_str(&o, group != NULL ? group : "-");
	proto_out_str(&o, " exit=");
	proto_out_str(&o, ex);
	return (o.len);
}

/* One cpu line. */
size_t
protocol_cpu_line(char *buf, size_t len, const struct engine_cpu_info *ci)
{
	struct proto_out	o = { buf, 0, len };

	if (len == 0)
		return (0);
	buf[0] = '\0';
	proto_out_kv(&o, "cpu id=", ci->cpu);
	proto_out_kv(&o, " task=", ci->task);
	proto_out_kv(&o, " nr=", ci->nr);
	if (ci->task == 0) {
		proto_out_str(&o, " rank=- iter=- left=-");
		return (o.len);
	}
	proto_out_kv(&o, " rank=", ci->rank);
	proto_out_kv(&o, " iter=", ci->iter);
	proto_out_kv(&o, " left=", ci->left);
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
	size_t	n, i;

	n = protocol_len(snprintf(buf, len, "%s tick=%llu text=", keyword,
	    (unsigned long long)tick), len);
	for (i = 0; text[i] != '\0' && i < PROTO_TEXT_MAX && n + 1 < len; i++)
		buf[n++] = (unsigned char)text[i] < 0x20 ? ' ' : text[i];
	if (len > 0)
		buf[n] = '\0';
	return (n);
}
