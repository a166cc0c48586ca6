/*
 * cmd-task.c -- the commands that change a task, or add one: sleep,
 * nice, affinity, kill, add and spawn.  Each makes its change through
 * the session (live_change: journalled) and says what it did in an
 * event line, so subscribers see who did what.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge.h"
#include "change.h"
#include "cmd.h"
#include "config.h"
#include "cpumask.h"
#include "engine.h"
#include "live.h"
#include "proc.h"
#include "quote.h"
#include "session.h"
#include "xmalloc.h"

/* Make the change for the command's task; the reply if it failed. */
static int
cmd_task_change(struct cmd_ctx *ctx, enum change_kind kind, long value)
{
	struct change	 ch;
	char		*cause = NULL;

	memset(&ch, 0, sizeof ch);
	ch.kind = kind;
	ch.task = ctx->task;
	ch.value = value;
	if (live_change(ctx->live, &ch, &cause) != 0) {
		cmd_error(ctx, cause);
		return (-1);
	}
	return (0);
}

/* sleep <task> [ms] */
static enum cmd_retval
cmd_sleep_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	uint64_t	ms;

	ms = cmd->has_ms ? cmd->ms :
	    (uint64_t)live_config(ctx->live)->default_sleep;
	if (cmd_task_change(ctx, CHANGE_SLEEP, (long)ms) != 0)
		return (CMD_NORMAL);
	cmd_note(ctx, "%s sleeps %llu ms", ctx->ti.name,
	    (unsigned long long)ms);
	return (cmd_ok(ctx));
}

const struct cmd_entry cmd_sleep_entry = {
	"sleep", 1, 2, CMD_TASK|CMD_ENGINE, "sleep <task> [ms]",
	"injected sleep (default from the config)", cmd_parse_sleep,
	cmd_sleep_exec
};

/* nice <task> <n> */
static enum cmd_retval
cmd_nice_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	if (cmd_task_change(ctx, CHANGE_NICE, cmd->nice) != 0)
		return (CMD_NORMAL);
	cmd_note(ctx, "%s nice %d -> %d", ctx->ti.name, ctx->ti.nice,
	    cmd->nice);
	return (cmd_ok(ctx));
}

const struct cmd_entry cmd_nice_entry = {
	"nice", 2, 2, CMD_TASK|CMD_ENGINE, "nice <task> <-20..19>",
	"nice value", cmd_parse_nice, cmd_nice_exec
};

/* A cpu list of the engine's CPUs, not empty; -1 and the reply if bad. */
static int
cmd_task_cpus(struct cmd_ctx *ctx, const char *list, struct cpumask *mask)
{
	char	*cause = NULL;

	if (cpumask_parse(list, engine_params(live_engine(ctx->live))->cpus,
	    mask, &cause) != 0) {
		cmd_error(ctx, cause);
		return (-1);
	}
	if (cpumask_empty(mask)) {
		cmd_error(ctx, xstrdup("empty cpu list"));
		return (-1);
	}
	return (0);
}

/* affinity <task> <cpulist> */
static enum cmd_retval
cmd_affinity_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	const struct engine	*e = live_engine(ctx->live);
	struct engine_task_info	 now;
	struct cpumask		 mask, gm;
	struct change		 ch;
	char			*cause = NULL, a[160], b[160], c[160], g[160];
	char			 why[600];

	if (cmd_task_cpus(ctx, cmd->cpus, &mask) != 0)
		return (CMD_NORMAL);
	memset(&ch, 0, sizeof ch);
	ch.kind = CHANGE_AFFINITY;
	ch.task = ctx->task;
	ch.has_cpus = 1;
	ch.cpus = mask;
	if (live_change(ctx->live, &ch, &cause) != 0)
		return (cmd_error(ctx, cause));
	/* Kept whole, but its group may allow fewer: say where it runs. */
	why[0] = '\0';
	if (engine_task_info(e, ctx->task, &now) == 0 &&
	    !cpumask_equal(&now.allowed, &now.affinity) && now.group >= 0 &&
	    engine_group_cpus(e, now.group, &gm) == 0)
		snprintf(why, sizeof why, " (it runs on %s only: its group %s "
		    "has %s)", cpumask_format(&now.allowed, c, sizeof c),
		    engine_group_name(e, now.group),
		    cpumask_format(&gm, g, sizeof g));
	cmd_note(ctx, "%s cpus %s -> %s%s", ctx->ti.name,
	    cpumask_format(&ctx->ti.affinity, a, sizeof a),
	    cpumask_format(&mask, b, sizeof b), why);
	return (cmd_ok(ctx));
}

const struct cmd_entry cmd_affinity_entry = {
	"affinity", 2, 2, CMD_TASK|CMD_ENGINE, "affinity <task> <cpulist>",
	"allowed engine CPUs, e.g. 0-2,5", cmd_parse_affinity,
	cmd_affinity_exec
};

/* kill <task>: the session narrates it ("NAME killed"). */
static enum cmd_retval
cmd_kill_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	struct procs	*procs = bridge_procs(live_bridge(ctx->live));
	char		*cause = NULL;

	if (ctx->ti.state == ENGINE_EXITED)
		return (cmd_error(ctx, xasprintf("task %s has already exited",
		    ctx->ti.name)));
	/* A real task's process group goes too; the reap records it. */
	if (ctx->ti.kind == ENGINE_REAL && procs != NULL &&
	    procs_kill(procs, ctx->task, &cause) != 0)
		return (cmd_error(ctx, cause));
	if (cmd_task_change(ctx, CHANGE_KILL, 0) != 0)
		return (CMD_NORMAL);
	return (cmd_ok(ctx));
}

const struct cmd_entry cmd_kill_entry = {
	"kill", 1, 1, CMD_TASK|CMD_ENGINE, "kill <task>", "end a task now",
	cmd_parse_task, cmd_kill_exec
};

/*
 * Add the task that `add` or `spawn` names to the engine, starting now.
 * Returns its id, or -1 with the err line already written.
 */
static int
cmd_task_add(struct cmd *cmd, struct cmd_ctx *ctx, int real)
{
	const struct config	*cfg = live_config(ctx->live);
	struct change		 ch;
	char			*cause = NULL, q[QUOTE_SIZE];
	int			 id;

	if (engine_ntasks(live_engine(ctx->live)) >= cfg->max_tasks) {
		cmd_error(ctx, xasprintf("too many tasks (max_tasks %d)",
		    cfg->max_tasks));
		return (-1);
	}
	if (session_task_find(live_session(ctx->live), cmd->task) != 0) {
		cmd_error(ctx, xasprintf("task %s exists",
		    quote_word(cmd->task, q, sizeof q)));
		return (-1);
	}
	memset(&ch, 0, sizeof ch);
	ch.kind = CHANGE_ADD;
	ch.name = cmd->task;
	ch.nice = cmd->nice;
	ch.real = real;
	if (!real) {
		ch.pattern = cmd->pattern;
		ch.npattern = cmd->npattern;
		ch.runtime = cmd->runtime;
	}
	if (cmd->cpus != NULL) {
		if (cmd_task_cpus(ctx, cmd->cpus, &ch.cpus) != 0)
			return (-1);
		ch.has_cpus = 1;
	}
	if ((id = live_change(ctx->live, &ch, &cause)) < 0) {
		cmd_error(ctx, cause);
		return (-1);
	}
	return (id);
}

/* add <name> [nice=N] [cpus=LIST] [pattern=R,S,...] [runtime=MS] */
static enum cmd_retval
cmd_add_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	int	id;

	if ((id = cmd_task_add(cmd, ctx, 0)) < 0)
		return (CMD_NORMAL);
	cmd_note(ctx, "%s added (nice %d%s%s)", cmd->task, cmd->nice,
	    cmd->pattern != NULL ? ", pattern" : ", hog",
	    cmd->runtime != 0 ? ", runtime" : "");
	return (cmd_ok_n(ctx, id));
}

const struct cmd_entry cmd_add_entry = {
	"add", 1, 5, CMD_ENGINE,
	"add <name> [nice=N] [cpus=LIST] [pattern=R,S,...] [runtime=MS]",
	"a scripted task", cmd_parse_add, cmd_add_exec
};

/*
 * Why a program could not be started, with its name (as the client gave
 * it, of any length or bytes) quoted: procs_spawn's causes start with it.
 */
static char *
cmd_spawn_why(const char *prog, const char *cause)
{
	char	q[QUOTE_SIZE];
	size_t	n = strlen(prog);

	quote_word(prog, q, sizeof q);
	if (strncmp(cause, prog, n) == 0 && strncmp(cause + n, ": ", 2) == 0)
		return (xasprintf("%s: %s", q, cause + n + 2));
	return (xasprintf("%s: %s", q, cause));
}

/* spawn <name> [nice=N] [cpus=LIST] -- argv... */
static enum cmd_retval
cmd_spawn_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	struct procs	*procs = bridge_procs(live_bridge(ctx->live));
	char		*cause = NULL, *why, q[QUOTE_SIZE];
	int		 id;

	if (procs == NULL)
		return (cmd_error(ctx, xstrdup("real processes are not "
		    "available")));
	if ((id = cmd_task_add(cmd, ctx, 1)) < 0)
		return (CMD_NORMAL);
	/* A failed start leaves the task exited, with the reason. */
	if (procs_spawn(procs, id, cmd->argv, &cause) != 0) {
		why = cmd_spawn_why(cmd->argv[0], cause);
		free(cause);
		cmd_note(ctx, "%s failed to start: %s", cmd->task, why);
		cmd_error(ctx, xasprintf("cannot start %s", why));
		free(why);
		return (CMD_NORMAL);
	}
	cmd_note(ctx, "%s spawned (%s, nice %d)", cmd->task,
	    quote_word(cmd->argv[0], q, sizeof q), cmd->nice);
	return (cmd_ok_n(ctx, id));
}

const struct cmd_entry cmd_spawn_entry = {
	"spawn", 3, -1, CMD_ENGINE,
	"spawn <name> [nice=N] [cpus=LIST] -- <program> [args...]",
	"a real process", cmd_parse_spawn, cmd_spawn_exec
};
