/*
 * cmd-client.c -- the commands of the connection itself: subscribe,
 * unsubscribe, readonly and quit, which the client acts on (their
 * return says what), and shutdown.
 */
#include "cmd.h"
#include "live.h"

/* subscribe [fps] [delta] [runs] [kruns] [view]: frames stream. */
static enum cmd_retval
cmd_subscribe_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	cmd_ok(ctx);
	return (CMD_SUBSCRIBE);
}

const struct cmd_entry cmd_subscribe_entry = {
	"subscribe", 0, 5, 0, "subscribe [fps] [delta] [runs] [kruns] [view]",
	"stream frames, at most fps a second", cmd_parse_subscribe,
	cmd_subscribe_exec
};

/* unsubscribe */
static enum cmd_retval
cmd_unsubscribe_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	cmd_ok(ctx);
	return (CMD_UNSUBSCRIBE);
}

const struct cmd_entry cmd_unsubscribe_entry = {
	"unsubscribe", 0, 0, 0, "unsubscribe", "stop the frames", NULL,
	cmd_unsubscribe_exec
};

/*
 * answer <n>: this connection's answer to the room's open question
 * (SPEC.md section 12); read-only connections answer too.
 */
static enum cmd_retval
cmd_answer_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	struct live_vote	 none = { 0, 0 };
	char			*cause = NULL;

	if (live_answer(ctx->live, ctx->vote != NULL ? ctx->vote : &none,
	    cmd->answer, &cause) != 0)
		return (cmd_error(ctx, cause));
	return (cmd_ok(ctx));
}

const struct cmd_entry cmd_answer_entry = {
	"answer", 1, 1, 0, "answer <n>",
	"answer the open question with choice n (read-only too)",
	cmd_parse_answer, cmd_answer_exec
};

/* readonly: the connection changes nothing from now. */
static enum cmd_retval
cmd_readonly_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	cmd_ok(ctx);
	return (CMD_READONLY);
}

const struct cmd_entry cmd_readonly_entry = {
	"readonly", 0, 0, 0, "readonly",
	"this connection changes nothing from now", NULL, cmd_readonly_exec
};

/* quit */
static enum cmd_retval
cmd_quit_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	cmd_line(ctx, "ok bye", 6);
	return (CMD_QUIT);
}

const struct cmd_entry cmd_quit_entry = {
	"quit", 0, 0, 0, "quit", "close this connection", NULL, cmd_quit_exec
};

/* shutdown: nothing after it on this connection is run. */
static enum cmd_retval
cmd_shutdown_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	cmd_ok(ctx);
	live_shutdown(ctx->live);
	return (CMD_QUIT);
}

const struct cmd_entry cmd_shutdown_entry = {
	"shutdown", 0, 0, CMD_WRITE, "shutdown", "stop the daemon", NULL,
	cmd_shutdown_exec
};
