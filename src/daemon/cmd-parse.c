/*
 * cmd-parse.c -- a command line into a struct cmd: the command's
 * entry (cmd_table) and its words, read by the entry's argument
 * reader.
 *
 * Parsing is strict on purpose: a person types these by hand, and a typo
 * that silently becomes "0" or "sleep forever" is worse than an error
 * that names the word it did not like.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "number.h"
#include "protocol.h"
#include "quote.h"
#include "xmalloc.h"

/* Parse the key=value options of add and spawn. */
static int
cmd_parse_options(struct cmd *cmd, char **w, int n,
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
		} else if (cmd->entry == &cmd_add_entry &&
		    strncmp(w[i], "pattern=", 8) == 0 && cmd->pattern == NULL) {
			if (protocol_parse_pattern(w[i] + 8, &cmd->pattern,
			    &cmd->npattern, cause) != 0)
				return (-1);
		} else if (cmd->entry == &cmd_add_entry &&
		    strncmp(w[i], "runtime=", 8) == 0 && cmd->runtime == 0) {
			if (protocol_parse_ms("runtime", w[i] + 8,
			    &cmd->runtime, cause) != 0)
				return (-1);
		} else {
			*cause = xasprintf("bad option %s for %s (expected %s)",
			    quote_word(w[i], q, sizeof q), cmd->entry->name,
			    cmd->entry == &cmd_add_entry ?
			    "nice=, cpus=, pattern= or runtime=, once each" :
			    "nice= or cpus=, once each, then --");
			return (-1);
		}
	}
	return (0);
}

/* <task>: table, kill. */
int
cmd_parse_task(struct cmd *cmd, char **w, int n, char **cause)
{
	cmd->task = xstrdup(w[0]);
	return (0);
}

/* <task> [ms] */
int
cmd_parse_sleep(struct cmd *cmd, char **w, int n, char **cause)
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
cmd_parse_nice(struct cmd *cmd, char **w, int n, char **cause)
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
cmd_parse_affinity(struct cmd *cmd, char **w, int n, char **cause)
{
	cmd->task = xstrdup(w[0]);
	cmd->cpus = xstrdup(w[1]);
	return (0);
}

/* A new task's name: the engine's rules (reserved, digits, too long ...). */
static int
cmd_parse_name(struct cmd *cmd, const char *name, char **cause)
{
	const char	*why;
	char		 q[QUOTE_SIZE];

	if ((why = engine_name_check(name)) != NULL) {
		*cause = xasprintf("bad name %s: %s",
		    quote_word(name, q, sizeof q), why);
		return (-1);
	}
	cmd->task = xstrdup(name);
	return (0);
}

/* <name> [nice=N] [cpus=LIST] [pattern=R,S,...] [runtime=MS] */
int
cmd_parse_add(struct cmd *cmd, char **w, int n, char **cause)
{
	if (cmd_parse_name(cmd, w[0], cause) != 0)
		return (-1);
	return (cmd_parse_options(cmd, w + 1, n - 1, cause));
}

/* <name> [nice=N] [cpus=LIST] -- <program> [args...] */
int
cmd_parse_spawn(struct cmd *cmd, char **w, int n, char **cause)
{
	int	i, dash;

	if (cmd_parse_name(cmd, w[0], cause) != 0)
		return (-1);
	for (dash = 1; dash < n; dash++) {
		if (strcmp(w[dash], "--") == 0)
			break;
	}
	if (dash >= n - 1) {
		*cause = xasprintf("usage: %s", cmd->entry->usage);
		return (-1);
	}
	if (n - dash - 1 > PROTO_ARGV_MAX) {
		*cause = xasprintf("spawn: more than %d arguments",
		    PROTO_ARGV_MAX);
		return (-1);
	}
	if (cmd_parse_options(cmd, w + 1, dash - 1, cause) != 0)
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
cmd_parse_step(struct cmd *cmd, char **w, int n, char **cause)
{
	long	v;

	cmd->steps = 1;
	if (n > 0 && strcmp(w[0], "event") == 0) {
		cmd->step_event = 1;
		cmd->steps = PROTO_STEP_EVENT;
		w++;
		n--;
	} else if (n > 1) {
		*cause = xasprintf("usage: %s", cmd->entry->usage);
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
cmd_parse_speed(struct cmd *cmd, char **w, int n, char **cause)
{
	return (protocol_parse_speed(w[0], &cmd->speed, cause));
}

/* <path>: load, record. */
int
cmd_parse_path(struct cmd *cmd, char **w, int n, char **cause)
{
	cmd->path = xstrdup(w[0]);
	return (0);
}

/* load <name|path> [run], reset [run]: run, or open paused. */
int
cmd_parse_load(struct cmd *cmd, char **w, int n, char **cause)
{
	int	i = 0;

	if (strcmp(cmd->entry->name, "load") == 0)
		cmd->path = xstrdup(w[i++]);
	if (i < n) {
		if (strcmp(w[i], "run") != 0) {
			*cause = xasprintf("usage: %s", cmd->entry->usage);
			return (-1);
		}
		cmd->run = 1;
	}
	return (0);
}

/* part <n> [run]: a part's number (1..), then maybe run. */
int
cmd_parse_part(struct cmd *cmd, char **w, int n, char **cause)
{
	long long	v;

	if (number_parse(w[0], 1, INT_MAX, &v) != 0 ||
	    (n > 1 && strcmp(w[1], "run") != 0)) {
		*cause = xasprintf("usage: %s", cmd->entry->usage);
		return (-1);
	}
	cmd->tick = (uint64_t)v;
	cmd->run = n > 1;
	return (0);
}

/* answer <n>: a choice's number (its range is the question's). */
int
cmd_parse_answer(struct cmd *cmd, char **w, int n, char **cause)
{
	long long	v;

	if (number_parse(w[0], 1, INT_MAX, &v) != 0) {
		*cause = xasprintf("answer \"%s\": not a choice's number "
		    "(1, 2, ...)", w[0]);
		return (-1);
	}
	cmd->answer = (int)v;
	return (0);
}

/* <tick>: seek. */
int
cmd_parse_tick(struct cmd *cmd, char **w, int n, char **cause)
{
	long	v;

	if (protocol_parse_int("tick", w[0], 0, INT64_MAX, &v, cause) != 0)
		return (-1);
	cmd->tick = (uint64_t)v;
	return (0);
}

/* <policy name> */
int
cmd_parse_policy(struct cmd *cmd, char **w, int n, char **cause)
{
	char	q[QUOTE_SIZE];

	if ((cmd->policy = engine_policy_find(w[0])) == NULL) {
		*cause = xasprintf("unknown policy %s (known: %s)",
		    quote_word(w[0], q, sizeof q), engine_policy_names());
		return (-1);
	}
	return (0);
}

/* <policy>[,<policy>[,<policy>]] or off: compare (0 policies: off). */
int
cmd_parse_compare(struct cmd *cmd, char **w, int n, char **cause)
{
	cmd->npolicies = 0;
	if (strcmp(w[0], "off") == 0)
		return (0);
	if ((n = engine_policy_list(w[0], cmd->policies, SESSION_SHADOWS,
	    cause)) < 0)
		return (-1);
	cmd->npolicies = n;
	return (0);
}

/*
 * [fps] [delta] [runs] [kruns] [view]: the words last, once each: "delta"
 * (frames after the first carry only changes), "runs" (what each CPU
 * ran), "kruns" (what the kernel ran there, real tasks), "view" (the
 * presenter's view): lines older clients do not know.
 */
int
cmd_parse_subscribe(struct cmd *cmd, char **w, int n, char **cause)
{
	char	q[QUOTE_SIZE];
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
		    "kruns, view once each, after the fps)", cmd->entry->usage,
		    quote_word(w[n - 1], q, sizeof q));
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
cmd_parse_view(struct cmd *cmd, char **w, int n, char **cause)
{
	char		 q[QUOTE_SIZE], *eq, *end;
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
			    "key=number)", quote_word(w[i], q, sizeof q));
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

