/*
 * cmd-show.c -- the commands that only read: help, status, tasks, cpus,
 * table, marks and scenarios.
 */
#include <event2/buffer.h>

#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "cmd.h"
#include "config.h"
#include "engine.h"
#include "format.h"
#include "lesson.h"
#include "live.h"
#include "log.h"
#include "notes.h"
#include "scenario.h"
#include "session.h"
#include "xmalloc.h"

/* help: a line per command, from the table. */
static enum cmd_retval
cmd_help_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	const struct cmd_entry *const	*e;

	for (e = cmd_table; *e != NULL; e++)
		evbuffer_add_printf(ctx->out, "help %-25s %s\n", (*e)->usage,
		    (*e)->help);
	return (cmd_ok(ctx));
}

const struct cmd_entry cmd_help_entry = {
	"help", 0, 0, 0, "help", "this list", NULL, cmd_help_exec
};

/* status */
static enum cmd_retval
cmd_status_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	struct proto_status	st;
	char			buf[PROTO_TEXT_MAX + 512];

	live_status(ctx->live, &st, ctx->clients);
	cmd_line(ctx, buf, protocol_status_line(buf, sizeof buf, &st));
	return (cmd_ok(ctx));
}

const struct cmd_entry cmd_status_entry = {
	"status", 0, 0, 0, "status", "tick, cpus, tasks, paused, speed, lag",
	NULL, cmd_status_exec
};

/* tasks: one task line per task (exited ones too). */
static enum cmd_retval
cmd_tasks_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	const struct engine	*e = live_engine(ctx->live);
	struct engine_task_info	 ti;
	char			 buf[1024];
	int			 id, n = engine_ntasks(e);

	for (id = 1; id <= n; id++) {
		if (engine_task_info(e, id, &ti) == 0)
			cmd_line(ctx, buf, live_task_line(ctx->live, e, &ti, 1,
			    buf, sizeof buf));
	}
	return (cmd_ok_n(ctx, n));
}

const struct cmd_entry cmd_tasks_entry = {
	"tasks", 0, 0, 0, "tasks", "one task line per task", NULL,
	cmd_tasks_exec
};

/* cpus: one cpu line per engine CPU. */
static enum cmd_retval
cmd_cpus_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	const struct engine	*e = live_engine(ctx->live);
	struct engine_cpu_info	 ci;
	char			 buf[FORMAT_CPU_LINE_MAX];
	int			 c, n = engine_params(e)->cpus;

	for (c = 0; c < n; c++) {
		engine_cpu_info(e, c, &ci);
		cmd_line(ctx, buf, format_cpu_line(buf, sizeof buf, e, &ci));
	}
	return (cmd_ok_n(ctx, n));
}

const struct cmd_entry cmd_cpus_entry = {
	"cpus", 0, 0, 0, "cpus", "one cpu line per engine CPU", NULL,
	cmd_cpus_exec
};

/* table <task>: the ticks run at each rank in each descent. */
static enum cmd_retval
cmd_table_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	struct session		*s = live_session(ctx->live);
	const struct engine	*e = session_engine(s);

	/* The counts up to the tick shown. */
	format_table_lines(session_tables(s), e, &ctx->ti, engine_now(e),
	    ctx->out);
	return (cmd_ok(ctx));
}

const struct cmd_entry cmd_table_entry = {
	"table", 1, 1, CMD_TASK, "table <task>",
	"ticks at each rank in each descent", cmd_parse_task, cmd_table_exec
};

/* marks: the scenario's marks, in time order. */
static enum cmd_retval
cmd_marks_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	const struct lesson_mark	*m;
	char				 buf[PROTO_TEXT_MAX + 64];
	size_t				 i, n;

	m = session_marks(live_session(ctx->live), &n);
	for (i = 0; i < n; i++)
		cmd_line(ctx, buf, protocol_text_line(buf, sizeof buf,
		    "mark", m[i].at, m[i].text));
	return (cmd_ok_n(ctx, (long long)n));
}

const struct cmd_entry cmd_marks_entry = {
	"marks", 0, 0, 0, "marks", "the scenario's marks (chapters)", NULL,
	cmd_marks_exec
};

/* A `scenario` line for sc, named name, from file. */
static void
cmd_scenario_line(void *arg, const char *name, const char *file,
    const struct scenario *sc)
{
	struct cmd_ctx	*ctx = arg;
	char		 buf[PROTO_TEXT_MAX + 256];
	size_t		 len;

	len = protocol_scenario_line(buf, sizeof buf, name, file,
	    sc->has_cpus ? sc->cpus : live_config(ctx->live)->cpus,
	    (int)sc->ntasks, scenario_ncommands(sc) > 0,
	    sc->description != NULL ? sc->description : "");
	cmd_line(ctx, buf, len);
}

/*
 * scenarios: a line per built-in scenario, in teaching order, with its
 * CPUs, tasks, whether it runs real processes, and its description;
 * then those of the configuration's scenario_path (catalog_list).
 */
static enum cmd_retval
cmd_scenarios_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	size_t	lines, skipped;

	lines = catalog_list(live_catalog(ctx->live), cmd_scenario_line, ctx,
	    &skipped);
	if (skipped > 0)
		log_warnx("scenarios: %zu of the scenario path's files do not "
		    "load", skipped);
	return (cmd_ok_n(ctx, (long long)lines));
}

const struct cmd_entry cmd_scenarios_entry = {
	"scenarios", 0, 0, 0, "scenarios",
	"the scenarios load knows, with descriptions", NULL,
	cmd_scenarios_exec
};
