/*
 * cmd-show.c -- the commands that only read: help, status, tasks, cpus,
 * table, marks and scenarios.
 */
#include <event2/buffer.h>

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
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
	evbuffer_add_printf(ctx->out, "ok %d\n", n);
	return (CMD_NORMAL);
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
	char			 buf[256];
	int			 c, n = engine_params(e)->cpus;

	for (c = 0; c < n; c++) {
		engine_cpu_info(e, c, &ci);
		cmd_line(ctx, buf, format_cpu_line(buf, sizeof buf, e, &ci));
	}
	evbuffer_add_printf(ctx->out, "ok %d\n", n);
	return (CMD_NORMAL);
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
	format_table_lines(session_ledger(s), e, &ctx->ti, engine_now(e),
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
	evbuffer_add_printf(ctx->out, "ok %zu\n", n);
	return (CMD_NORMAL);
}

const struct cmd_entry cmd_marks_entry = {
	"marks", 0, 0, 0, "marks", "the scenario's marks (chapters)", NULL,
	cmd_marks_exec
};

/* A `scenario` line for sc, named name, from file. */
static void
cmd_scenario_line(struct cmd_ctx *ctx, const char *name, const char *file,
    const struct scenario *sc)
{
	char	buf[PROTO_TEXT_MAX + 256];
	size_t	len;

	len = protocol_scenario_line(buf, sizeof buf, name, file,
	    sc->has_cpus ? sc->cpus : live_config(ctx->live)->cpus,
	    (int)sc->ntasks, scenario_ncommands(sc) > 0,
	    sc->description != NULL ? sc->description : "");
	cmd_line(ctx, buf, len);
}

/* Does a directory entry name a scenario file (NAME.cfg)? */
static int
cmd_scenario_cfg(const struct dirent *de)
{
	size_t	n = strlen(de->d_name);

	return (n > 4 && de->d_name[0] != '.' &&
	    strcmp(de->d_name + n - 4, ".cfg") == 0);
}

/*
 * The scenario path's scenarios, directory by directory, by name; one a
 * built-in or an earlier directory has already is not listed (load
 * finds that one).  Returns how many lines.
 */
static size_t
cmd_scenarios_path(struct cmd_ctx *ctx)
{
	struct dirent	**de;
	struct scenario	 *sc;
	char *const	 *dirs;
	char		 *path, *name, *cause, *first;
	size_t		  i, ndirs, lines = 0;
	int		  n, k;

	dirs = live_scenario_dirs(ctx->live, &ndirs);
	for (i = 0; i < ndirs; i++) {
		if ((n = scandir(dirs[i], &de, cmd_scenario_cfg,
		    alphasort)) < 0)
			continue;
		for (k = 0; k < n; k++) {
			name = xstrndup(de[k]->d_name,
			    strlen(de[k]->d_name) - 4);
			path = xasprintf("%s/%s", dirs[i], de[k]->d_name);
			first = live_scenario_file(ctx->live, name);
			if (builtin_find(name) == NULL && first != NULL &&
			    strcmp(first, path) == 0) {
				if ((sc = scenario_load_file(path,
				    &cause)) != NULL) {
					cmd_scenario_line(ctx, name, path, sc);
					scenario_free(sc);
					lines++;
				} else {
					log_warnx("scenarios: %s", cause);
					free(cause);
				}
			}
			free(first);
			free(path);
			free(name);
			free(de[k]);
		}
		free(de);
	}
	return (lines);
}

/*
 * scenarios: a line per built-in scenario, in teaching order, with its
 * CPUs, tasks, whether it runs real processes, and its description;
 * then those of the configuration's scenario_path.
 */
static enum cmd_retval
cmd_scenarios_exec(struct cmd *cmd, struct cmd_ctx *ctx)
{
	const struct builtin_scenario	*b;
	struct scenario			*sc;
	char				*cause;
	size_t				 i, n, lines = 0;

	b = builtin_scenarios(&n);
	for (i = 0; i < n; i++) {
		if ((sc = session_parse(b[i].text, b[i].name,
		    &cause)) == NULL) {
			free(cause);	/* tests/test_builtin.c: cannot be */
			continue;
		}
		cmd_scenario_line(ctx, b[i].name, "builtin", sc);
		scenario_free(sc);
		lines++;
	}
	lines += cmd_scenarios_path(ctx);
	evbuffer_add_printf(ctx->out, "ok %zu\n", lines);
	return (CMD_NORMAL);
}

const struct cmd_entry cmd_scenarios_entry = {
	"scenarios", 0, 0, 0, "scenarios",
	"the scenarios load knows, with descriptions", NULL,
	cmd_scenarios_exec
};
