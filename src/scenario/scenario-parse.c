/*
 * scenario-parse.c -- scenario files (SPEC.md section 2): libconfig text
 * to a struct scenario (scenario.c then makes an engine's groups, tasks
 * and events of it).
 *
 * Loading is strict: any key we do not know, a value of the wrong type or
 * out of range, a name used twice or a reference to nothing is refused with
 * "FILE:LINE: message", so a typo in a demo is caught before the audience
 * sees it.  Every string is copied out of libconfig before config_destroy,
 * so a struct scenario owns all its memory.
 */
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libconfig.h>

#include "bursts.h"
#include "readconf.h"
#include "engine.h"
#include "protocol.h"
#include "scenario-int.h"
#include "scenario.h"
#include "xmalloc.h"


/* An event's keys, by index: the bits of scenario_action.keys. */
enum {
	SK_AT,
	SK_ACTION,
	SK_TASK,
	SK_MS,
	SK_VALUE,
	SK_CPUS,
	SK_TEXT,
	SK_ANSWER,
	SK_CHOICES,
	SK_N
};
static const char *scenario_event_keys[SK_N] = {
	"at", "action", "task", "ms", "value", "cpus", "text", "answer",
	"choices"
};
#define SK(k)	(1u << SK_##k)

/* One table row per action: its name and the keys it takes. */
struct scenario_verb {
	const char		*name;
	enum scenario_action	 action;
	unsigned		 keys;	/* SK() bits besides at, action */
};

static const struct scenario_verb scenario_actions[] = {
	{ "sleep",	SCENARIO_SLEEP,		SK(TASK) | SK(MS) },
	{ "nice",	SCENARIO_NICE,		SK(TASK) | SK(VALUE) },
	{ "affinity",	SCENARIO_AFFINITY,	SK(TASK) | SK(CPUS) },
	{ "caption",	SCENARIO_CAPTION,	SK(TEXT) },
	{ "kill",	SCENARIO_KILL,		SK(TASK) },
	/* Lessons (SPEC.md section 7). */
	{ "pause",	SCENARIO_PAUSE,		SK(TEXT) },
	{ "speed",	SCENARIO_SPEED,		SK(VALUE) },
	{ "mark",	SCENARIO_MARK,		SK(TEXT) },
	{ "ask",	SCENARIO_ASK,		SK(TEXT) | SK(ANSWER) |
					SK(CHOICES) },
	{ "policy",	SCENARIO_POLICY,	SK(VALUE) },
};
#define SCENARIO_NACTIONS \
	(sizeof scenario_actions / sizeof scenario_actions[0])
#define SCENARIO_ACTION_NAMES	"sleep, nice, affinity, caption, kill, " \
	"pause, speed, mark, ask or policy"

#define SCENARIO_MAX_MS		INT64_C(1000000000000)	/* ~31 years */

static int	scenario_error_at(struct scenario_ctx *,
		    const config_setting_t *, const char *, ...)
		    __attribute__((format(printf, 3, 4)));

/*
 * Record the first error at setting s: "FILE:LINE: message" with the
 * file it was written in (an @include'd file names itself); returns -1.
 */
static int
scenario_error_at(struct scenario_ctx *ctx, const config_setting_t *s,
    const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	readconf_verror(&ctx->error, ctx->label, config_setting_source_file(s),
	    (int)config_setting_source_line(s), fmt, ap);
	va_end(ap);
	return (-1);
}

/* The line a setting was written on. */
static int
scenario_line(const config_setting_t *s)
{
	return ((int)config_setting_source_line(s));
}

/* A setting's type, in words, for messages. */
static const char *
scenario_type_name(const config_setting_t *s)
{
	switch (config_setting_type(s)) {
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64:
		return ("an integer");
	case CONFIG_TYPE_FLOAT:
		return ("a float");
	case CONFIG_TYPE_STRING:
		return ("a string");
	case CONFIG_TYPE_BOOL:
		return ("a boolean");
	case CONFIG_TYPE_ARRAY:
		return ("an array");
	case CONFIG_TYPE_LIST:
		return ("a list");
	case CONFIG_TYPE_GROUP:
		return ("a group");
	}
	return ("something else");
}

static int	scenario_not(struct scenario_ctx *, const config_setting_t *,
		    const char *, ...) __attribute__((format(printf, 3, 4)));

/* A setting of the wrong type: "WANTED, not TYPE" (returns -1). */
static int
scenario_not(struct scenario_ctx *ctx, const config_setting_t *s,
    const char *fmt, ...)
{
	va_list	 ap;
	char	*want;

	va_start(ap, fmt);
	want = xvasprintf(fmt, ap);
	va_end(ap);
	scenario_error_at(ctx, s, "%s, not %s", want, scenario_type_name(s));
	free(want);
	return (-1);
}

/* Is s a list of values, [ ... ] or ( ... )? */
static int
scenario_is_list(const config_setting_t *s)
{
	return (config_setting_type(s) == CONFIG_TYPE_ARRAY ||
	    config_setting_type(s) == CONFIG_TYPE_LIST);
}

/* Read an integer setting within min..max. */
static int
scenario_int(struct scenario_ctx *ctx, const config_setting_t *s,
    const char *what, long long min, long long max, long long *out)
{
	long long	v;

	switch (config_setting_type(s)) {
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64:
		/* Read as 64 bits; readconf.c refused what would wrap. */
		v = config_setting_get_int64(s);
		break;
	default:
		return (scenario_not(ctx, s, "%s must be an integer", what));
	}
	if (v < min || v > max) {
		if (min == 0 && v < 0)
			return (scenario_error_at(ctx, s,
			    "%s %lld is negative", what, v));
		return (scenario_error_at(ctx, s,
		    "%s %lld is outside %lld..%lld", what, v, min, max));
	}
	*out = v;
	return (0);
}

/* Read a string setting; the result points into libconfig's memory. */
static int
scenario_string(struct scenario_ctx *ctx, const config_setting_t *s,
    const char *what, const char **out)
{
	if (config_setting_type(s) != CONFIG_TYPE_STRING)
		return (scenario_not(ctx, s, "%s must be a string", what));
	*out = config_setting_get_string(s);
	return (0);
}

/* Check a task or group name by the engine's one rule (engine-task.c). */
static int
scenario_name(struct scenario_ctx *ctx, const config_setting_t *s,
    const char *what, const char **out)
{
	const char	*name = NULL, *why;
	size_t		 len;

	if (scenario_string(ctx, s, what, &name) != 0)
		return (-1);
	if ((why = engine_name_check(name)) == NULL) {
		*out = name;
		return (0);
	}
	len = strlen(name);
	if (len == 0)
		return (scenario_error_at(ctx, s,
		    "%s is empty", what));
	if (len > ENGINE_NAME_MAX)
		return (scenario_error_at(ctx, s,
		    "%s \"%.*s...\" is too long (%zu characters, at most %d)",
		    what, ENGINE_NAME_MAX, name, len, ENGINE_NAME_MAX));
	return (scenario_error_at(ctx, s, "%s \"%s\" %s", what,
	    name, why));
}

/* Read a CPU list ("0-2,5" or a single number); keeps the text. */
static int
scenario_cpus(struct scenario_ctx *ctx, const config_setting_t *s,
    const char *what, char **text, struct cpumask *mask)
{
	const char	*str;
	char		*cause, *copy;

	if (config_setting_type(s) == CONFIG_TYPE_INT ||
	    config_setting_type(s) == CONFIG_TYPE_INT64)
		copy = xasprintf("%lld", config_setting_get_int64(s));
	else if (config_setting_type(s) == CONFIG_TYPE_STRING) {
		str = config_setting_get_string(s);
		copy = xstrdup(str);
	} else
		return (scenario_not(ctx, s,
		    "%s must be a cpu list like \"0-2,5\"", what));
	if (cpumask_parse(copy, ENGINE_MAX_CPUS, mask, &cause) != 0) {
		scenario_error_at(ctx, s, "%s: %s", what, cause);
		free(cause);
		free(copy);
		return (-1);
	}
	*text = copy;
	return (0);
}

/* Complain about an unknown key, listing the known ones. */
static int
scenario_unknown(struct scenario_ctx *ctx, const config_setting_t *s,
    const char *where, const char *known)
{
	return (scenario_error_at(ctx, s,
	    "unknown %s key \"%s\" (known: %s)", where,
	    config_setting_name(s), known));
}

/* The list setting of a top-level aggregate: a list of { } groups. */
static int
scenario_list(struct scenario_ctx *ctx, const config_setting_t *s,
    const char *what, const char *example)
{
	const config_setting_t	*e;
	int			 i, n;

	if (config_setting_type(s) != CONFIG_TYPE_LIST)
		return (scenario_error_at(ctx, s,
		    "%s must be a list of { ... } entries, like %s = ( %s );",
		    what, what, example));
	n = config_setting_length(s);
	for (i = 0; i < n; i++) {
		e = config_setting_get_elem(s, i);
		if (config_setting_type(e) != CONFIG_TYPE_GROUP)
			return (scenario_not(ctx, e,
			    "each entry of %s must be { ... }", what));
	}
	return (0);
}

/* Index name (a kind's, at index, on line): a name used twice is refused. */
static int
scenario_unique(struct scenario_ctx *ctx, struct scenario_index *ix,
    const char *kind, const char *name, size_t index, int line)
{
	int	first;

	if ((first = scenario_index_add(ix, name, index, line)) == -1)
		return (0);
	return (scenario_error(ctx, line, "duplicate %s name \"%s\" (first "
	    "at line %d)", kind, name, first));
}

/* Parse one group entry. */
static int
scenario_parse_group(struct scenario_ctx *ctx, struct scenario *sc,
    const config_setting_t *g)
{
	struct scenario_group	*gr;
	const config_setting_t	*s;
	const char		*name = NULL;
	int			 n, j;

	gr = &sc->groups[sc->ngroups++];
	gr->line = scenario_line(g);
	n = config_setting_length(g);
	for (j = 0; j < n; j++) {
		s = config_setting_get_elem(g, j);
		if (strcmp(config_setting_name(s), "name") == 0) {
			if (scenario_name(ctx, s, "group name", &name) != 0)
				return (-1);
			gr->name = xstrdup(name);
		} else if (strcmp(config_setting_name(s), "cpus") == 0) {
			if (scenario_cpus(ctx, s, "group cpus", &gr->cpus,
			    &gr->mask) != 0)
				return (-1);
			gr->cpus_line = scenario_line(s);
		} else
			return (scenario_unknown(ctx, s, "group",
			    "name, cpus"));
	}
	if (gr->name == NULL)
		return (scenario_error(ctx, gr->line,
		    "group has no name (name = \"...\"; is required)"));
	if (gr->cpus == NULL)
		return (scenario_error(ctx, gr->line,
		    "group \"%s\" has no cpus (cpus = \"0-1\"; is required)",
		    gr->name));
	return (scenario_unique(ctx, &sc->group_index, "group", gr->name,
	    sc->ngroups - 1, gr->line));
}

/* Parse a task's pattern: an even-length list of positive ms. */
static int
scenario_parse_pattern(struct scenario_ctx *ctx, struct scenario_task *t,
    const config_setting_t *s)
{
	const config_setting_t	*e;
	long long		 v;
	int			 i, n;

	if (!scenario_is_list(s))
		return (scenario_not(ctx, s,
		    "pattern must be a list of run, sleep ms like [ 2, 40 ]"));
	n = config_setting_length(s);
	if (n == 0 || n % 2 != 0)
		return (scenario_error_at(ctx, s,
		    "pattern has %d value%s; it needs run, sleep pairs "
		    "(an even, non-zero count)", n, n == 1 ? "" : "s"));
	t->pattern = xcalloc(n, sizeof *t->pattern);
	for (i = 0; i < n; i++) {
		e = config_setting_get_elem(s, i);
		if (config_setting_type(e) != CONFIG_TYPE_INT &&
		    config_setting_type(e) != CONFIG_TYPE_INT64)
			return (scenario_not(ctx, e,
			    "pattern values must be integers (ms)"));
		if (scenario_int(ctx, e, "pattern value", LLONG_MIN,
		    LLONG_MAX, &v) != 0)
			return (-1);
		if (v <= 0 || v > UINT32_MAX)
			return (scenario_error_at(ctx, e,
			    "pattern value %lld (item %d) must be a positive "
			    "number of ms", v, i + 1));
		t->pattern[i] = (uint32_t)v;
	}
	t->npattern = n;
	return (0);
}

/*
 * Parse a task's bursts (SPEC.md section 11): run, sleep, run, ... in
 * microseconds, played once; made ticks here (bursts.c).
 */
static int
scenario_parse_bursts(struct scenario_ctx *ctx, struct scenario_task *t,
    const config_setting_t *s)
{
	const config_setting_t	*e;
	struct bursts_ticks	 bt;
	uint64_t		*us;
	long long		 v;
	char			*cause;
	int			 i, n;

	if (!scenario_is_list(s))
		return (scenario_not(ctx, s, "bursts must be a list of run, "
		    "sleep, run ... us like [ 2500, 40000, 1200 ]"));
	if ((n = config_setting_length(s)) == 0)
		return (scenario_error_at(ctx, s, "bursts is empty"));
	us = xcalloc(n, sizeof *us);
	for (i = 0; i < n; i++) {
		e = config_setting_get_elem(s, i);
		if (scenario_int(ctx, e, "bursts value", 0, BURSTS_MAX_US,
		    &v) != 0) {
			free(us);
			return (-1);
		}
		us[i] = (uint64_t)v;
	}
	if (bursts_ticks(us, n, &bt, &cause) != 0) {
		free(us);
		scenario_error_at(ctx, s, "bursts: %s", cause);
		free(cause);
		return (-1);
	}
	free(us);
	free(t->pattern);
	t->pattern = bt.pattern;
	t->npattern = bt.npattern;
	t->lead = bt.lead;
	t->once = 1;
	return (0);
}

/* Parse a task's command: a non-empty list of strings. */
static int
scenario_parse_command(struct scenario_ctx *ctx, struct scenario_task *t,
    const config_setting_t *s)
{
	const config_setting_t	*e;
	int			 i, n;

	if (!scenario_is_list(s))
		return (scenario_not(ctx, s, "command must be a list of "
		    "strings like [ \"stairs-load\", \"--run\", \"30\" ]"));
	n = config_setting_length(s);
	if (n == 0)
		return (scenario_error_at(ctx, s,
		    "command is empty"));
	t->argv = xcalloc(n + 1, sizeof *t->argv);
	for (i = 0; i < n; i++) {
		e = config_setting_get_elem(s, i);
		if (config_setting_type(e) != CONFIG_TYPE_STRING)
			return (scenario_not(ctx, e,
			    "command arguments must be strings"));
		t->argv[i] = xstrdup(config_setting_get_string(e));
	}
	if (*t->argv[0] == '\0')
		return (scenario_error_at(ctx, s,
		    "command has an empty program name"));
	return (0);
}

/* Parse one task entry. */
static int
scenario_parse_task(struct scenario_ctx *ctx, struct scenario *sc,
    const config_setting_t *g)
{
	struct scenario_task	*t;
	const config_setting_t	*s, *pattern = NULL, *command = NULL;
	const config_setting_t	*bursts = NULL;
	const char		*str = NULL, *key;
	long long		 v;
	int			 n, j;

	t = &sc->tasks[sc->ntasks++];
	t->line = scenario_line(g);
	n = config_setting_length(g);
	for (j = 0; j < n; j++) {
		s = config_setting_get_elem(g, j);
		key = config_setting_name(s);
		if (strcmp(key, "name") == 0) {
			if (scenario_name(ctx, s, "task name", &str) != 0)
				return (-1);
			t->name = xstrdup(str);
		} else if (strcmp(key, "nice") == 0) {
			if (scenario_int(ctx, s, "nice", -20, 19, &v) != 0)
				return (-1);
			t->nice = (int)v;
		} else if (strcmp(key, "start") == 0) {
			if (scenario_int(ctx, s, "start", 0, SCENARIO_MAX_MS,
			    &v) != 0)
				return (-1);
			t->start = (uint64_t)v;
		} else if (strcmp(key, "runtime") == 0) {
			if (scenario_int(ctx, s, "runtime", 1, SCENARIO_MAX_MS,
			    &v) != 0)
				return (-1);
			t->runtime = (uint64_t)v;
		} else if (strcmp(key, "pattern") == 0) {
			if (bursts != NULL)
				return (scenario_error_at(ctx, s, "task has "
				    "both bursts and pattern (bursts are "
				    "played once; a pattern cycles)"));
			if (scenario_parse_pattern(ctx, t, s) != 0)
				return (-1);
			pattern = s;
		} else if (strcmp(key, "bursts") == 0) {
			if (bursts != NULL || pattern != NULL)
				return (scenario_error_at(ctx, s, "task has "
				    "both pattern and bursts (bursts are "
				    "played once; a pattern cycles)"));
			if (scenario_parse_bursts(ctx, t, s) != 0)
				return (-1);
			bursts = s;
		} else if (strcmp(key, "command") == 0) {
			if (scenario_parse_command(ctx, t, s) != 0)
				return (-1);
			command = s;
		} else if (strcmp(key, "cpus") == 0) {
			if (scenario_cpus(ctx, s, "task cpus", &t->cpus,
			    &t->mask) != 0)
				return (-1);
			t->has_cpus = 1;
			t->cpus_line = scenario_line(s);
		} else if (strcmp(key, "group") == 0) {
			if (scenario_string(ctx, s, "group", &str) != 0)
				return (-1);
			t->group = xstrdup(str);
		} else
			return (scenario_unknown(ctx, s, "task", "name, nice, "
			    "start, pattern, bursts, runtime, cpus, group, "
			    "command"));
	}
	if (t->name == NULL)
		return (scenario_error(ctx, t->line,
		    "task has no name (name = \"...\"; is required)"));
	if (pattern != NULL && command != NULL)
		return (scenario_error_at(ctx, command,
		    "task \"%s\" has both pattern and command (a command "
		    "task is a real process: it has no pattern)", t->name));
	if (bursts != NULL && command != NULL)
		return (scenario_error_at(ctx, command,
		    "task \"%s\" has both bursts and command (a command "
		    "task is a real process: it has no bursts)", t->name));
	return (scenario_unique(ctx, &sc->task_index, "task", t->name,
	    sc->ntasks - 1, t->line));
}

/* Read a number (an integer or a float) within min..max. */
static int
scenario_number(struct scenario_ctx *ctx, const config_setting_t *s,
    const char *what, double min, double max, double *out)
{
	double	v;

	switch (config_setting_type(s)) {
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64:
		v = (double)config_setting_get_int64(s);
		break;
	case CONFIG_TYPE_FLOAT:
		v = config_setting_get_float(s);
		break;
	default:
		return (scenario_not(ctx, s, "%s must be a number", what));
	}
	/* As the speed command: a hair under the minimum is the minimum. */
	if (!isfinite(v) || v < min - 1e-12 || v > max)
		return (scenario_error_at(ctx, s,
		    "%s %g is outside %g..%g", what, v, min, max));
	*out = v < min ? min : v;
	return (0);
}

/* Read a policy name; an unknown one is refused, naming the known. */
static int
scenario_policy(struct scenario_ctx *ctx, const config_setting_t *s,
    const char *what, const struct engine_policy **out)
{
	const char	*str = NULL;

	if (scenario_string(ctx, s, what, &str) != 0)
		return (-1);
	if ((*out = engine_policy_find(str)) == NULL)
		return (scenario_error_at(ctx, s,
		    "unknown policy \"%s\" (known: %s)", str,
		    engine_policy_names()));
	return (0);
}

/* Read a text that may not be empty (a mark's name, a question). */
static int
scenario_text(struct scenario_ctx *ctx, const config_setting_t *s,
    const char *what, char **out)
{
	const char	*str = NULL;

	if (scenario_string(ctx, s, what, &str) != 0)
		return (-1);
	if (*str == '\0')
		return (scenario_error_at(ctx, s, "%s is empty", what));
	*out = xstrdup(str);
	return (0);
}

/*
 * An ask's choices (SPEC.md section 12): a list of 1 to
 * SCENARIO_CHOICES_MAX texts, none empty, the room answering 1..n.
 */
static int
scenario_choices(struct scenario_ctx *ctx, struct scenario_event *ev,
    const config_setting_t *s)
{
	const config_setting_t	*e;
	int			 i, n;

	if (config_setting_type(s) != CONFIG_TYPE_ARRAY &&
	    config_setting_type(s) != CONFIG_TYPE_LIST)
		return (scenario_error_at(ctx, s, "choices must be a list of "
		    "texts like [ \"yes\", \"no\" ], not %s",
		    scenario_type_name(s)));
	n = config_setting_length(s);
	if (n < 1 || n > SCENARIO_CHOICES_MAX)
		return (scenario_error_at(ctx, s, "choices has %d item%s; a "
		    "question has 1 to %d (the keys 1..%d)", n, n == 1 ? "" :
		    "s", SCENARIO_CHOICES_MAX, SCENARIO_CHOICES_MAX));
	ev->choices = xcalloc(n, sizeof *ev->choices);
	for (i = 0; i < n; i++) {
		e = config_setting_get_elem(s, i);
		if (scenario_text(ctx, e, "choice", &ev->choices[i]) != 0)
			return (-1);
		ev->nchoices = i + 1;
	}
	return (0);
}

/* Parse one event entry. */
static int
scenario_parse_event(struct scenario_ctx *ctx, struct scenario *sc,
    const config_setting_t *g)
{
	struct scenario_event		*ev;
	const struct scenario_verb	*act = NULL;
	const config_setting_t		*s, *seen[SK_N];
	const char			*str = NULL, *key;
	long long			 v;
	size_t				 i;
	int				 n, j, k;

	ev = &sc->events[sc->nevents++];
	ev->line = scenario_line(g);
	memset(seen, 0, sizeof seen);
	n = config_setting_length(g);
	for (j = 0; j < n; j++) {
		s = config_setting_get_elem(g, j);
		key = config_setting_name(s);
		for (k = 0; k < SK_N; k++) {
			if (strcmp(key, scenario_event_keys[k]) == 0)
				break;
		}
		if (k == SK_N)
			return (scenario_unknown(ctx, s, "event",
			    "at, action, task, ms, value, cpus, text, "
			    "answer, choices"));
		seen[k] = s;
	}

	/* The action first: it says which other keys belong. */
	if (seen[SK_ACTION] == NULL)
		return (scenario_error(ctx, ev->line, "event has no action "
		    "(%s)", SCENARIO_ACTION_NAMES));
	if (scenario_string(ctx, seen[SK_ACTION], "action", &str) != 0)
		return (-1);
	for (i = 0; i < SCENARIO_NACTIONS; i++) {
		if (strcmp(str, scenario_actions[i].name) == 0)
			act = &scenario_actions[i];
	}
	if (act == NULL)
		return (scenario_error_at(ctx, seen[SK_ACTION],
		    "unknown action \"%s\" (%s)", str, SCENARIO_ACTION_NAMES));
	ev->action = act->action;

	if (seen[SK_AT] == NULL)
		return (scenario_error(ctx, ev->line,
		    "%s event has no at (the tick, in ms)", act->name));
	if (scenario_int(ctx, seen[SK_AT], "at", 0, SCENARIO_MAX_MS, &v) != 0)
		return (-1);
	ev->at = (uint64_t)v;

	/* Keys that do not belong to this action. */
	for (k = SK_TASK; k < SK_N; k++) {
		if (seen[k] == NULL || (act->keys & (1u << k)) != 0)
			continue;
		return (scenario_error_at(ctx, seen[k],
		    "key \"%s\" does not belong in a %s event",
		    scenario_event_keys[k], act->name));
	}

	if (act->keys & (1u << SK_TASK)) {
		if (seen[SK_TASK] == NULL)
			return (scenario_error(ctx, ev->line,
			    "%s event has no task", act->name));
		if (scenario_string(ctx, seen[SK_TASK], "task", &str) != 0)
			return (-1);
		if (scenario_find_task(sc, str) == -1)
			return (scenario_error_at(ctx, seen[SK_TASK],
			    "unknown task \"%s\" in %s event", str,
			    act->name));
		ev->task = xstrdup(str);
	}
	switch (act->action) {
	case SCENARIO_SLEEP:
		if (seen[SK_MS] == NULL)
			return (scenario_error(ctx, ev->line,
			    "sleep event has no ms (how long it sleeps)"));
		if (scenario_int(ctx, seen[SK_MS], "ms", 1, SCENARIO_MAX_MS,
		    &v) != 0)
			return (-1);
		ev->value = (long)v;
		break;
	case SCENARIO_NICE:
		if (seen[SK_VALUE] == NULL)
			return (scenario_error(ctx, ev->line,
			    "nice event has no value (the new nice)"));
		if (scenario_int(ctx, seen[SK_VALUE], "nice value", -20, 19,
		    &v) != 0)
			return (-1);
		ev->value = (long)v;
		break;
	case SCENARIO_AFFINITY:
		if (seen[SK_CPUS] == NULL)
			return (scenario_error(ctx, ev->line,
			    "affinity event has no cpus"));
		if (scenario_cpus(ctx, seen[SK_CPUS], "affinity cpus",
		    &ev->cpus, &ev->mask) != 0)
			return (-1);
		ev->cpus_line = scenario_line(seen[SK_CPUS]);
		break;
	case SCENARIO_CAPTION:
		if (seen[SK_TEXT] == NULL)
			return (scenario_error(ctx, ev->line,
			    "caption event has no text"));
		if (scenario_string(ctx, seen[SK_TEXT], "text", &str) != 0)
			return (-1);
		ev->text = xstrdup(str);
		break;
	case SCENARIO_KILL:
		break;
	case SCENARIO_PAUSE:
		/* The text is optional: the caption while paused. */
		if (seen[SK_TEXT] != NULL && scenario_text(ctx, seen[SK_TEXT],
		    "pause text", &ev->text) != 0)
			return (-1);
		break;
	case SCENARIO_SPEED:
		if (seen[SK_VALUE] == NULL)
			return (scenario_error(ctx, ev->line,
			    "speed event has no value (ticks per ms, %g..%g)",
			    PROTO_SPEED_MIN, PROTO_SPEED_MAX));
		if (scenario_number(ctx, seen[SK_VALUE], "speed value",
		    PROTO_SPEED_MIN, PROTO_SPEED_MAX, &ev->speed) != 0)
			return (-1);
		break;
	case SCENARIO_MARK:
		if (seen[SK_TEXT] == NULL)
			return (scenario_error(ctx, ev->line,
			    "mark event has no text (the chapter's name)"));
		if (scenario_text(ctx, seen[SK_TEXT], "mark text",
		    &ev->text) != 0)
			return (-1);
		break;
	case SCENARIO_ASK:
		if (seen[SK_TEXT] == NULL)
			return (scenario_error(ctx, ev->line,
			    "ask event has no text (the question)"));
		if (seen[SK_ANSWER] == NULL)
			return (scenario_error(ctx, ev->line,
			    "ask event has no answer (shown on the next "
			    "resume)"));
		if (scenario_text(ctx, seen[SK_TEXT], "ask text",
		    &ev->text) != 0 || scenario_text(ctx, seen[SK_ANSWER],
		    "ask answer", &ev->answer) != 0)
			return (-1);
		if (seen[SK_CHOICES] != NULL &&
		    scenario_choices(ctx, ev, seen[SK_CHOICES]) != 0)
			return (-1);
		break;
	case SCENARIO_POLICY:
		if (seen[SK_VALUE] == NULL)
			return (scenario_error(ctx, ev->line,
			    "policy event has no value (a policy: %s)",
			    engine_policy_names()));
		if (scenario_policy(ctx, seen[SK_VALUE], "policy value",
		    &ev->policy) != 0)
			return (-1);
		break;
	}
	return (0);
}

/* Parse the top-level engine parameter settings. */
static int
scenario_parse_param(struct scenario_ctx *ctx, struct scenario *sc,
    const config_setting_t *s)
{
	const struct scenario_override	*o;
	const struct engine_param	*d;
	const struct engine_policy	*pol[SCENARIO_COMPARE_MAX];
	const char			*key = config_setting_name(s);
	const char			*str = NULL;
	char				*cause = NULL;
	long long			 v;
	size_t				 i;
	int				 r;

	for (i = 0; i < scenario_noverrides; i++) {
		o = &scenario_overrides[i];
		d = &engine_param_list[o->param];
		if (strcmp(key, d->name) != 0)
			continue;
		if (scenario_int(ctx, s, d->name, d->min, d->max, &v) != 0)
			return (-1);
		*SCENARIO_FIELD(sc, o->has) = 1;
		*SCENARIO_FIELD(sc, o->value) = (int)v;
		if (o->value == offsetof(struct scenario, cpus))
			sc->cpus_line = scenario_line(s);
		return (0);
	}
	if (strcmp(key, "speed") == 0) {
		if (scenario_number(ctx, s, "speed", PROTO_SPEED_MIN,
		    PROTO_SPEED_MAX, &sc->speed) != 0)
			return (-1);
		sc->has_speed = 1;
	} else if (strcmp(key, "policy") == 0) {
		if (scenario_string(ctx, s, "policy", &str) != 0)
			return (-1);
		if (engine_policy_find(str) == NULL)
			return (scenario_error(ctx, scenario_line(s),
			    "unknown policy \"%s\" (known: %s)", str,
			    engine_policy_names()));
		free(sc->policy);
		sc->policy = xstrdup(str);
	} else if (strcmp(key, "compare") == 0) {
		if (scenario_string(ctx, s, "compare", &str) != 0)
			return (-1);
		if (engine_policy_list(str, pol, SCENARIO_COMPARE_MAX,
		    &cause) < 0) {
			r = scenario_error(ctx, scenario_line(s), "compare: %s",
			    cause);
			free(cause);
			return (r);
		}
		free(sc->compare);
		sc->compare = xstrdup(str);
	} else
		return (1);
	return (0);
}

/* Parse each entry of a top-level list (its array made) with parse. */
static int
scenario_parse_each(struct scenario_ctx *ctx, struct scenario *sc,
    const config_setting_t *list, int (*parse)(struct scenario_ctx *,
    struct scenario *, const config_setting_t *))
{
	int	j, n = config_setting_length(list);

	for (j = 0; j < n; j++) {
		if (parse(ctx, sc, config_setting_get_elem(list, j)) != 0)
			return (-1);
	}
	return (0);
}

/* Walk the parsed configuration into sc. */
static int
scenario_parse(struct scenario_ctx *ctx, struct scenario *sc,
    const config_setting_t *root)
{
	const config_setting_t	*s, *groups = NULL, *tasks = NULL;
	const config_setting_t	*events = NULL;
	const char		*str = NULL, *key;
	size_t			 i;
	int			 n, j, r;

	n = config_setting_length(root);
	for (j = 0; j < n; j++) {
		s = config_setting_get_elem(root, j);
		key = config_setting_name(s);
		if (strcmp(key, "name") == 0) {
			if (scenario_string(ctx, s, "name", &str) != 0)
				return (-1);
			sc->name = xstrdup(str);
		} else if (strcmp(key, "description") == 0) {
			if (scenario_string(ctx, s, "description", &str) != 0)
				return (-1);
			sc->description = xstrdup(str);
		} else if (strcmp(key, "groups") == 0) {
			if (scenario_list(ctx, s, "groups",
			    "{ name = \"batch\"; cpus = \"1\"; }") != 0)
				return (-1);
			groups = s;
		} else if (strcmp(key, "tasks") == 0) {
			if (scenario_list(ctx, s, "tasks",
			    "{ name = \"hog\"; }") != 0)
				return (-1);
			tasks = s;
		} else if (strcmp(key, "events") == 0) {
			if (scenario_list(ctx, s, "events", "{ at = 500; "
			    "action = \"kill\"; task = \"hog\"; }") != 0)
				return (-1);
			events = s;
		} else if ((r = scenario_parse_param(ctx, sc, s)) != 0) {
			if (r == -1)
				return (-1);
			return (scenario_unknown(ctx, s, "top-level",
			    "name, description, policy, compare, speed, "
			    "cpus, rr_interval, sleep_min, balance_interval, "
			    "base_slice, groups, tasks, events"));
		}
	}

	/* Groups, then tasks (which name groups), then events (tasks). */
	if (groups != NULL) {
		n = config_setting_length(groups);
		sc->groups = xcalloc(n, sizeof *sc->groups);
		scenario_index_init(&sc->group_index, n);
		if (scenario_parse_each(ctx, sc, groups,
		    scenario_parse_group) != 0)
			return (-1);
	}
	if (tasks != NULL) {
		n = config_setting_length(tasks);
		sc->tasks = xcalloc(n, sizeof *sc->tasks);
		scenario_index_init(&sc->task_index, n);
		if (scenario_parse_each(ctx, sc, tasks,
		    scenario_parse_task) != 0)
			return (-1);
	}
	for (i = 0; i < sc->ntasks; i++) {
		str = sc->tasks[i].group;
		if (str != NULL && scenario_find_group(sc, str) == -1)
			return (scenario_error(ctx, sc->tasks[i].line,
			    "task \"%s\" is in unknown group \"%s\"",
			    sc->tasks[i].name, str));
	}
	if (events != NULL) {
		n = config_setting_length(events);
		sc->events = xcalloc(n, sizeof *sc->events);
		if (scenario_parse_each(ctx, sc, events,
		    scenario_parse_event) != 0)
			return (-1);
	}
	return (0);
}

/* The scenario's default name: the label's base name less ".cfg". */
static char *
scenario_default_name(const char *label)
{
	const char	*base;
	size_t		 len;

	if ((base = strrchr(label, '/')) != NULL)
		base++;
	else
		base = label;
	len = strlen(base);
	if (len > 4 && strcmp(base + len - 4, ".cfg") == 0)
		len -= 4;
	return (xstrndup(base, len));
}

/*
 * The "# kernel:" comments of text (kernelrow.c): each row names a task
 * of the scenario, once.
 */
static int
scenario_kernel(struct scenario *sc, const char *text, const char *label,
    char **cause)
{
	struct kernelrow	*r;
	size_t			 i, j;

	if (kernelrow_parse(text, label, &sc->kernel, cause) != 0)
		return (-1);
	for (i = 0; i < sc->kernel.nrows; i++) {
		r = &sc->kernel.rows[i];
		if (scenario_find_task(sc, r->task) == -1) {
			*cause = xasprintf("%s:%d: kernel row for unknown "
			    "task \"%s\"", label, r->line, r->task);
			return (-1);
		}
		for (j = 0; j < i; j++) {
			if (strcmp(sc->kernel.rows[j].task, r->task) == 0) {
				*cause = xasprintf("%s:%d: a second kernel "
				    "row for task \"%s\" (the first at line "
				    "%d)", label, r->line, r->task,
				    sc->kernel.rows[j].line);
				return (-1);
			}
		}
	}
	return (0);
}

/*
 * Turn a read configuration into a scenario, or fill *cause; text is
 * what was parsed (includes spliced in), the scenario's from now on.
 */
static struct scenario *
scenario_from_config(config_t *cf, char *text, const char *label,
    char **cause)
{
	struct scenario_ctx	 ctx;
	struct scenario		*sc;

	ctx.label = label;
	ctx.error = NULL;
	sc = xcalloc(1, sizeof *sc);
	sc->path = xstrdup(label);
	sc->text = text;
	if (scenario_parse(&ctx, sc, config_root_setting(cf)) != 0) {
		scenario_free(sc);
		*cause = ctx.error;
		return (NULL);
	}
	if (text != NULL && strstr(text, KERNELROW_PREFIX) != NULL &&
	    scenario_kernel(sc, text, label, cause) != 0) {
		scenario_free(sc);
		return (NULL);
	}
	if (sc->name == NULL)
		sc->name = scenario_default_name(label);
	return (sc);
}

/*
 * Load a scenario file; NULL with *cause ("FILE:LINE: ...") on error.
 * The file and its @includes must be regular files (readconf.c); an
 * @include is relative to the directory of the file that holds it.
 */
struct scenario *
scenario_load_file(const char *path, char **cause)
{
	struct scenario	*sc = NULL;
	config_t	 cf;
	char		*text;

	config_init(&cf);
	/* The text parsed, for the comments libconfig drops, and kept. */
	if (readconf_read(&cf, path, &text, cause) == 0)
		sc = scenario_from_config(&cf, text, path, cause);
	config_destroy(&cf);
	return (sc);
}

/* Load a scenario from text; label names it in messages. */
struct scenario *
scenario_load_string(const char *text, const char *label, char **cause)
{
	struct scenario	*sc = NULL;
	config_t	 cf;
	char		*spliced;

	config_init(&cf);
	if (readconf_read_string(&cf, text, label, &spliced, cause) == 0)
		sc = scenario_from_config(&cf, spliced, label, cause);
	config_destroy(&cf);
	return (sc);
}
