/*
 * cmd-clock.c -- the commands of the clock: pause, resume, step, speed
 * and seek.  A step's reply comes when its ticks have run (CMD_WAIT);
 * pause, resume, a new step and a seek cancel a step under way first
 * (live.c).
 */
#include <stdlib.h>

#include "cmd.h"
#include "live.h"
#include "pacer.h"
#include "session.h"

/* pause */
static enum cmd_retval
cmd_pause_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	live_pause(ctx->live, "pause");
	return (cmd_ok(ctx));
}

const struct cmd_entry cmd_pause_entry = {
	"pause", 0, 0, CMD_WRITE, "pause", "stop the clock", NULL,
	cmd_pause_exec
};

/* resume (from the past viewed: a branch, or back to the present) */
static enum cmd_retval
cmd_resume_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	live_resume(ctx->live);
	return (cmd_ok(ctx));
}

const struct cmd_entry cmd_resume_entry = {
	"resume", 0, 0, CMD_WRITE, "resume", "restart the clock", NULL,
	cmd_resume_exec
};

/*
 * step [event] [N]: the clock paused, N ticks run in slices of the event
 * loop; the reply when they have (ctx->wait), or at once if they did.
 */
static enum cmd_retval
cmd_step_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	live_step(ctx->live, cmd->steps, cmd->step_event, ctx->wait);
	return (CMD_WAIT);
}

const struct cmd_entry cmd_step_entry = {
	"step", 0, 2, CMD_WRITE, "step [event] [N]",
	"run N ticks (default 1), or to the next event; pauses the clock",
	cmd_parse_step, cmd_step_exec
};

/* speed <x> */
static enum cmd_retval
cmd_speed_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	pacer_speed_to(live_pacer(ctx->live), cmd->speed,
	    session_now(live_session(ctx->live)), "");
	return (cmd_ok(ctx));
}

const struct cmd_entry cmd_speed_entry = {
	"speed", 1, 1, CMD_WRITE, "speed <0.01..100>",
	"ticks per ms of wall time", cmd_parse_speed, cmd_speed_exec
};

/* seek <tick>: pause, and show that tick. */
static enum cmd_retval
cmd_seek_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	char	*cause = NULL;

	if (live_seek(ctx->live, cmd->tick, &cause) != 0)
		return (cmd_error(ctx, cause));
	return (cmd_ok(ctx));
}

const struct cmd_entry cmd_seek_entry = {
	"seek", 1, 1, CMD_WRITE, "seek <tick>",
	"show the state at a past tick (pauses)", cmd_parse_tick,
	cmd_seek_exec
};
