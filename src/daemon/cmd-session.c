/*
 * cmd-session.c -- the commands of the session as a whole: load, reset,
 * record, policy, compare, the presenter's view, and the parts of a
 * recording replayed.
 */
#include <event2/buffer.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "change.h"
#include "cmd.h"
#include "engine.h"
#include "journal.h"
#include "live.h"
#include "notes.h"
#include "quote.h"
#include "session.h"
#include "xmalloc.h"

/*
 * load <name|path> [run], reset [run]: a new session at tick 0, paused
 * (run: running); err leaves the current one.  The scenario is parsed
 * while the daemon goes on (live_load_client): the reply, and the
 * client's next lines, come when it is done.
 */
static enum cmd_retval
cmd_session_load(struct cmd_ctx *ctx, const char *name, int run)
{
	char		*cause = NULL, *copy, q[QUOTE_SIZE];
	const char	*p;

	/* Errors name the file: only printable ones are echoed as they are. */
	for (p = name; *p != '\0'; p++) {
		if (*p <= 0x20 || *p >= 0x7f)
			return (cmd_error(ctx, xasprintf("load: no scenario %s",
			    quote_word(name, q, sizeof q))));
	}
	if (strchr(name, '/') != NULL && cmd_absolute(ctx, name) != 0)
		return (CMD_NORMAL);
	if (ctx->wait != NULL) {
		if (live_load_client(ctx->live, name, run, ctx->wait,
		    &cause) != 0)
			return (cmd_error(ctx, cause));
		return (CMD_WAIT);
	}
	copy = xstrdup(name);	/* the label goes with the old session */
	if (live_switch(ctx->live, copy, run, &cause) != 0) {
		free(copy);
		return (cmd_error(ctx, cause));
	}
	free(copy);
	cmd_note(ctx, "loaded %s", session_name(live_session(ctx->live)));
	return (cmd_ok(ctx));
}

/* load <name|path> */
static enum cmd_retval
cmd_load_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	return (cmd_session_load(ctx, cmd->path, cmd->run));
}

const struct cmd_entry cmd_load_entry = {
	"load", 1, 2, CMD_WRITE, "load <name|path> [run]",
	"open a scenario at tick 0, paused (run: running)", cmd_parse_load,
	cmd_load_exec
};

/* reset: load the current scenario again (replaying: the part). */
static enum cmd_retval
cmd_reset_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	char	*cause = NULL;
	int	 part;

	if (live_parts(ctx->live, &part) > 0) {
		if (live_part(ctx->live, part, cmd->run, &cause) != 0)
			return (cmd_error(ctx, cause));
		return (cmd_ok(ctx));
	}
	return (cmd_session_load(ctx, session_label(live_session(ctx->live)),
	    cmd->run));
}

const struct cmd_entry cmd_reset_entry = {
	"reset", 0, 1, CMD_WRITE, "reset [run]",
	"load the current scenario again (paused; run: running)",
	cmd_parse_load, cmd_reset_exec
};

/*
 * parts: a recording replayed (stairsd --replay), one line a part:
 * its number, scenario, CPUs, tasks, changes, last tick, and whether it
 * is the one shown; then ok N.
 */
static enum cmd_retval
cmd_parts_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	const struct journal_part	*jp;
	char				 q[QUOTE_SIZE];
	int				 i, n, part;

	if ((n = live_parts(ctx->live, &part)) == 0)
		return (cmd_error(ctx, xstrdup("not replaying a recording "
		    "(stairsd --replay PATH)")));
	for (i = 1; i <= n; i++) {
		jp = live_part_info(ctx->live, i);
		evbuffer_add_printf(ctx->out, "part n=%d scenario=%s cpus=%d "
		    "tasks=%d changes=%zu end=%llu shown=%d\n", i,
		    quote_word(jp->scenario, q, sizeof q), jp->cpus,
		    jp->ntasks, jp->nchanges, (unsigned long long)jp->end,
		    i == part);
	}
	return (cmd_ok_n(ctx, n));
}

const struct cmd_entry cmd_parts_entry = {
	"parts", 0, 0, 0, "parts", "the parts of the recording replayed",
	NULL, cmd_parts_exec
};

/* part <n> [run]: part n of the recording replayed, at tick 0. */
static enum cmd_retval
cmd_part_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	char	*cause = NULL;

	if (live_part(ctx->live, (int)cmd->tick, cmd->run, &cause) != 0)
		return (cmd_error(ctx, cause));
	return (cmd_ok(ctx));
}

const struct cmd_entry cmd_part_entry = {
	"part", 1, 2, CMD_WRITE, "part <n> [run]",
	"show part n of the recording replayed from its tick 0, paused (run: "
	"running)", cmd_parse_part, cmd_part_exec
};

/* record <path> */
static enum cmd_retval
cmd_record_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	char	*cause = NULL, q[QUOTE_SIZE];

	if (cmd_absolute(ctx, cmd->path) != 0)
		return (CMD_NORMAL);
	if (live_record(ctx->live, cmd->path, &cause) != 0)
		return (cmd_error(ctx, cause));
	cmd_note(ctx, "recording to %s", quote_word(cmd->path, q, sizeof q));
	return (cmd_ok(ctx));
}

const struct cmd_entry cmd_record_entry = {
	"record", 1, 1, CMD_WRITE, "record <path>",
	"write the journal so far, and keep on", cmd_parse_path,
	cmd_record_exec
};

/* policy <name>: between ticks, the next tick runs under it. */
static enum cmd_retval
cmd_policy_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	struct change	 ch;
	char		*cause = NULL, old[64];

	snprintf(old, sizeof old, "%s",
	    engine_get_policy(live_engine(ctx->live))->name);
	memset(&ch, 0, sizeof ch);
	ch.kind = CHANGE_POLICY;
	ch.name = cmd->policy->name;
	if (live_change(ctx->live, &ch, &cause) != 0)
		return (cmd_error(ctx, cause));
	cmd_note(ctx, "policy %s -> %s", old, cmd->policy->name);
	return (cmd_ok(ctx));
}

const struct cmd_entry cmd_policy_entry = {
	"policy", 1, 1, CMD_ENGINE, "policy <staircase|o1|cfs|eevdf|rr>",
	"switch the policy", cmd_parse_policy, cmd_policy_exec
};

/*
 * compare <a[,b[,c]]|off>: up to three shadow engines under other
 * policies beside the enforced one (SPEC.md sections 6 and 10), kept
 * across load and reset.
 */
static enum cmd_retval
cmd_compare_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	char	*cause = NULL;

	if (live_compare(ctx->live, cmd->policies, cmd->npolicies,
	    &cause) != 0)
		return (cmd_error(ctx, cause));
	return (cmd_ok(ctx));
}

const struct cmd_entry cmd_compare_entry = {
	"compare", 1, 1, CMD_ENGINE, "compare <policy[,policy[,policy]]|off>",
	"run up to three shadow policies beside the enforced one",
	cmd_parse_compare, cmd_compare_exec
};

/* view [key=value ...]: the presenter's view, for followers. */
static enum cmd_retval
cmd_view_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	notes_set_view(live_notes(ctx->live), cmd->path != NULL ? cmd->path :
	    "");
	return (cmd_ok(ctx));
}

const struct cmd_entry cmd_view_entry = {
	"view", 0, PROTO_VIEW_MAX, CMD_WRITE, "view [key=value ...]",
	"the presenter's view, for followers", cmd_parse_view, cmd_view_exec
};
