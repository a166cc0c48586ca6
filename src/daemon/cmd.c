/*
 * cmd.c -- the command table, a line parsed into a command, and a
 * command run: the refusals its entry asks for, the task it names looked
 * up, then its exec (cmd.h says how a command is written).
 *
 * Parsing is strict on purpose: a person types these by hand, and a typo
 * that silently becomes "0" or "sleep forever" is worse than an error
 * that names the word it did not like.
 */
#include <event2/buffer.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "engine.h"
#include "live.h"
#include "notes.h"
#include "quote.h"
#include "session.h"
#include "xmalloc.h"

/* Every command, in help's order. */
const struct cmd_entry *const cmd_table[] = {
	&cmd_help_entry,
	&cmd_status_entry,
	&cmd_tasks_entry,
	&cmd_cpus_entry,
	&cmd_table_entry,
	&cmd_sleep_entry,
	&cmd_nice_entry,
	&cmd_affinity_entry,
	&cmd_kill_entry,
	&cmd_add_entry,
	&cmd_spawn_entry,
	&cmd_pause_entry,
	&cmd_resume_entry,
	&cmd_step_entry,
	&cmd_speed_entry,
	&cmd_subscribe_entry,
	&cmd_unsubscribe_entry,
	&cmd_shutdown_entry,
	&cmd_quit_entry,
	&cmd_policy_entry,
	&cmd_scenarios_entry,
	&cmd_load_entry,
	&cmd_reset_entry,
	&cmd_record_entry,
	&cmd_readonly_entry,
	&cmd_seek_entry,
	&cmd_marks_entry,
	&cmd_compare_entry,
	&cmd_view_entry,
	&cmd_answer_entry,
	&cmd_parts_entry,
	&cmd_part_entry,
	NULL
};

/* The entry named name, or NULL. */
const struct cmd_entry *
cmd_find(const char *name)
{
	const struct cmd_entry *const	*e;

	for (e = cmd_table; *e != NULL; e++) {
		if (strcmp(name, (*e)->name) == 0)
			return (*e);
	}
	return (NULL);
}

/*
 * Parse one line (without its \n) into cmd.  An empty line has no entry.
 * On error cmd holds nothing and *cause says what was wrong, ready to
 * follow "err ".
 */
int
cmd_parse(const char *line, struct cmd *cmd, char **cause)
{
	const struct cmd_entry	*entry;
	char			*copy, **w = NULL, q[QUOTE_SIZE];
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
		rc = 0;
		goto out;
	}
	if ((entry = cmd_find(w[0])) == NULL) {
		*cause = xasprintf("unknown command %s (try help)",
		    quote_word(w[0], q, sizeof q));
		goto out;
	}
	if (n - 1 < entry->min) {
		*cause = xasprintf("usage: %s", entry->usage);
		goto out;
	}
	if (entry->max >= 0 && n - 1 > entry->max) {
		if (entry->max == 0)
			*cause = xasprintf("usage: %s (no arguments)",
			    entry->usage);
		else
			*cause = xasprintf("usage: %s (at most %d words after "
			    "%s)", entry->usage, entry->max, entry->name);
		goto out;
	}
	cmd->entry = entry;
	if (entry->args != NULL &&
	    (rc = entry->args(cmd, w + 1, n - 1, cause)) != 0)
		cmd_free(cmd);
	else
		rc = 0;
out:
	free(w);
	free(copy);
	return (rc);
}

/* Free what a parsed command holds. */
void
cmd_free(struct cmd *cmd)
{
	free(cmd->task);
	free(cmd->path);
	free(cmd->cpus);
	free(cmd->pattern);
	argv_free(cmd->argv);
	memset(cmd, 0, sizeof *cmd);
}

/* Write "err <cause>" and free cause. */
enum cmd_retval
cmd_error(struct cmd_ctx *ctx, char *cause)
{
	evbuffer_add_printf(ctx->out, "err %s\n", cause);
	free(cause);
	return (CMD_NORMAL);
}

/* Write "ok". */
enum cmd_retval
cmd_ok(struct cmd_ctx *ctx)
{
	evbuffer_add(ctx->out, "ok\n", 3);
	return (CMD_NORMAL);
}

/* Write "ok N": how many lines came before it, or the id made. */
enum cmd_retval
cmd_ok_n(struct cmd_ctx *ctx, long long n)
{
	evbuffer_add_printf(ctx->out, "ok %lld\n", n);
	return (CMD_NORMAL);
}

/* Add one formatted line and its newline. */
void
cmd_line(struct cmd_ctx *ctx, const char *buf, size_t len)
{
	evbuffer_add(ctx->out, buf, len);
	evbuffer_add(ctx->out, "\n", 1);
}

/* Say what a command did, at the present tick. */
void
cmd_note(struct cmd_ctx *ctx, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	notes_vadd(live_notes(ctx->live), session_now(live_session(ctx->live)),
	    fmt, ap);
	va_end(ap);
}

/*
 * A file a client names must be named by its absolute path: a relative
 * one would be the daemon's directory's (`/` when detached), not the
 * client's.  0, or -1 with the err line written.
 */
int
cmd_absolute(struct cmd_ctx *ctx, const char *path)
{
	char	q[QUOTE_SIZE];

	if (path[0] == '/')
		return (0);
	cmd_error(ctx, xasprintf("%s: not an absolute path (a relative one "
	    "would be the daemon's directory's)", quote_word(path, q,
	    sizeof q)));
	return (-1);
}

/*
 * Run one command: refused to a read-only client if it writes; the
 * engine caught up to the wall clock; refused while the past is viewed
 * if it changes the engine; its task looked up; then its exec.
 */
enum cmd_retval
cmd_run(struct cmd *cmd, struct cmd_ctx *ctx)
{
	const struct cmd_entry	*entry = cmd->entry;
	struct session		*s;
	char			 q[QUOTE_SIZE];

	if (entry == NULL)
		return (CMD_NORMAL);	/* an empty line */
	if (ctx->readonly && (entry->flags & CMD_WRITE)) {
		evbuffer_add_printf(ctx->out, "err read-only\n");
		return (CMD_NORMAL);
	}
	/* The engine at the tick the wall clock says, then the command. */
	live_catchup(ctx->live);
	s = live_session(ctx->live);
	if ((entry->flags & CMD_ENGINE) == CMD_ENGINE &&
	    live_replay_path(ctx->live) != NULL) {
		evbuffer_add_printf(ctx->out, "err replaying a recording: "
		    "it shows what was, and changes nothing\n");
		return (CMD_NORMAL);
	}
	if ((entry->flags & CMD_ENGINE) == CMD_ENGINE &&
	    session_viewing(s)) {
		evbuffer_add_printf(ctx->out, "err viewing the past (tick %llu "
		    "of %llu): resume first\n", (unsigned long long)
		    engine_now(session_engine(s)),
		    (unsigned long long)session_now(s));
		return (CMD_NORMAL);
	}
	if (entry->flags & CMD_TASK) {
		if ((ctx->task = session_task_find(s, cmd->task)) == 0 ||
		    engine_task_info(session_engine(s), ctx->task,
		    &ctx->ti) != 0) {
			evbuffer_add_printf(ctx->out, "err unknown task %s\n",
			    quote_word(cmd->task, q, sizeof q));
			return (CMD_NORMAL);
		}
	}
	return (entry->exec(cmd, ctx));
}
