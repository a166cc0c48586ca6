/*
 * command.c -- what each protocol command does to the running daemon.
 *
 * command_table (below) is every command: its name, words, usage, help,
 * whether it changes anything, its argument reader and its function; the
 * recipe for adding one is above it.
 *
 * command_run() takes a parsed command (protocol.c), applies it to the
 * clock, or to the engine as a struct change through the session (which
 * journals it: daemon_change), records a human event line for every action so
 * subscribers see who did what, and writes the reply lines (data, then
 * exactly one "ok ..." or "err ...") into an evbuffer.  The commands that
 * belong to a connection (subscribe, unsubscribe, quit) are returned as
 * flags for server-client.c.
 */
#include <event2/buffer.h>

#include <dirent.h>

#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "change.h"
#include "daemon.h"
#include "ledger.h"
#include "log.h"
#include "proc.h"
#include "quote.h"
#include "scenario.h"
#include "session.h"
#include "xmalloc.h"

/* Write "err <cause>" and free cause. */
static int
command_err(struct evbuffer *out, char *cause)
{
	evbuffer_add_printf(out, "err %s\n", cause);
	free(cause);
	return (0);
}

/* Add one formatted line and its newline. */
static void
command_line(struct evbuffer *out, const char *buf, size_t len)
{
	evbuffer_add(out, buf, len);
	evbuffer_add(out, "\n", 1);
}

/* Look a task up by name or id; -1 and an err line if there is none. */
static int
command_task(struct daemon *d, const char *s, struct evbuffer *out,
    struct engine_task_info *ti)
{
	char	q[QUOTE_SIZE];
	int	id;

	if ((id = session_task_find(daemon_session(d), s)) == 0 ||
	    engine_task_info(daemon_engine(d), id, ti) != 0) {
		evbuffer_add_printf(out, "err unknown task %s\n",
		    quote_word(s, q, sizeof q));
		return (-1);
	}
	return (id);
}

/* One task line per task (exited ones too). */
void
command_task_lines(struct daemon *d, struct evbuffer *out)
{
	struct engine_task_info	 ti;
	struct format_real	 real;
	char			 buf[1024], ex[96];
	int			 id, n, isreal;
	size_t			 len;

	n = engine_ntasks(daemon_engine(d));
	for (id = 1; id <= n; id++) {
		if (engine_task_info(daemon_engine(d), id, &ti) != 0)
			continue;
		isreal = ti.kind == ENGINE_REAL &&
		    daemon_real(d, id, &real, ex, sizeof ex) == 0;
		len = format_task_line(buf, sizeof buf, &ti,
		    isreal ? &real : NULL, ti.group >= 0 ?
		    engine_group_name(daemon_engine(d), ti.group) : NULL);
		command_line(out, buf, len);
	}
}

/* One cpu line per engine CPU. */
void
command_cpu_lines(struct daemon *d, struct evbuffer *out)
{
	struct engine_cpu_info	ci;
	char			buf[256];
	int			c;

	for (c = 0; c < engine_params(daemon_engine(d))->cpus; c++) {
		engine_cpu_info(daemon_engine(d), c, &ci);
		command_line(out, buf, format_cpu_line(buf, sizeof buf, &ci));
	}
}

/* table <task>: the ticks run at each rank in each descent. */
static int
command_table_cmd(struct daemon *d, const struct proto_cmd *cmd,
    struct evbuffer *out)
{
	struct engine_task_info	 ti;
	int			 id;

	if ((id = command_task(d, cmd->task, out, &ti)) < 0)
		return (0);
	format_table_lines(session_ledger(daemon_session(d)), id, &ti,
	    engine_params(daemon_engine(d))->rr_interval,
	    engine_now(daemon_engine(d)), out);	/* the tick shown */
	evbuffer_add_printf(out, "ok\n");
	return (0);
}

/* sleep <task> [ms] */
static int
command_sleep(struct daemon *d, const struct proto_cmd *cmd,
    struct evbuffer *out)
{
	struct engine_task_info	 ti;
	struct change		 ch;
	uint64_t		 ms;
	char			*cause = NULL;
	int			 id;

	if ((id = command_task(d, cmd->task, out, &ti)) < 0)
		return (0);
	ms = cmd->has_ms ? cmd->ms : (uint64_t)daemon_config(d)->default_sleep;
	memset(&ch, 0, sizeof ch);
	ch.kind = CHANGE_SLEEP;
	ch.task = id;
	ch.value = (long)ms;
	if (daemon_change(d, &ch, &cause) != 0)
		return (command_err(out, cause));
	daemon_note(d, "%s sleeps %llu ms", ti.name, (unsigned long long)ms);
	evbuffer_add_printf(out, "ok\n");
	return (0);
}

/* nice <task> <n> */
static int
command_nice(struct daemon *d, const struct proto_cmd *cmd,
    struct evbuffer *out)
{
	struct engine_task_info	 ti;
	struct change		 ch;
	char			*cause = NULL;
	int			 id;

	if ((id = command_task(d, cmd->task, out, &ti)) < 0)
		return (0);
	memset(&ch, 0, sizeof ch);
	ch.kind = CHANGE_NICE;
	ch.task = id;
	ch.value = cmd->nice;
	if (daemon_change(d, &ch, &cause) != 0)
		return (command_err(out, cause));
	daemon_note(d, "%s nice %d -> %d", ti.name, ti.stair.nice, cmd->nice);
	evbuffer_add_printf(out, "ok\n");
	return (0);
}

/* affinity <task> <cpulist> */
static int
command_affinity(struct daemon *d, const struct proto_cmd *cmd,
    struct evbuffer *out)
{
	struct engine_task_info	 ti, now;
	struct cpumask		 mask, gm;
	struct change		 ch;
	char			*cause = NULL, a[160], b[160], c[160], g[160];
	char			 why[600];
	int			 id;

	if ((id = command_task(d, cmd->task, out, &ti)) < 0)
		return (0);
	if (cpumask_parse(cmd->cpus, engine_params(daemon_engine(d))->cpus,
	    &mask, &cause) != 0)
		return (command_err(out, cause));
	if (cpumask_empty(&mask))
		return (command_err(out, xasprintf("empty cpu list")));
	memset(&ch, 0, sizeof ch);
	ch.kind = CHANGE_AFFINITY;
	ch.task = id;
	ch.has_cpus = 1;
	ch.cpus = mask;
	if (daemon_change(d, &ch, &cause) != 0)
		return (command_err(out, cause));
	/* Kept whole, but its group may allow fewer: say where it runs. */
	why[0] = '\0';
	if (engine_task_info(daemon_engine(d), id, &now) == 0 &&
	    !cpumask_equal(&now.allowed, &now.affinity) && now.group >= 0 &&
	    engine_group_cpus(daemon_engine(d), now.group, &gm) == 0)
		snprintf(why, sizeof why, " (it runs on %s only: its group %s "
		    "has %s)", cpumask_format(&now.allowed, c, sizeof c),
		    engine_group_name(daemon_engine(d), now.group),
		    cpumask_format(&gm, g, sizeof g));
	daemon_note(d, "%s cpus %s -> %s%s", ti.name,
	    cpumask_format(&ti.affinity, a, sizeof a),
	    cpumask_format(&mask, b, sizeof b), why);
	evbuffer_add_printf(out, "ok\n");
	return (0);
}

/* kill <task> */
static int
command_kill(struct daemon *d, const struct proto_cmd *cmd,
    struct evbuffer *out)
{
	struct engine_task_info	 ti;
	struct change		 ch;
	char			*cause = NULL;
	int			 id;

	if ((id = command_task(d, cmd->task, out, &ti)) < 0)
		return (0);
	if (ti.state == ENGINE_EXITED)
		return (command_err(out, xasprintf("task %s has already "
		    "exited", ti.name)));
	if (ti.kind == ENGINE_REAL && daemon_procs(d) != NULL) {
		/* Its process group goes too; the reap records the signal. */
		if (procs_kill(daemon_procs(d), id, &cause) != 0)
			return (command_err(out, cause));
	}
	memset(&ch, 0, sizeof ch);
	ch.kind = CHANGE_KILL;
	ch.task = id;
	/* The session narrates it ("NAME killed"). */
	if (daemon_change(d, &ch, &cause) != 0)
		return (command_err(out, cause));
	evbuffer_add_printf(out, "ok\n");
	return (0);
}

/*
 * Add the task that `add` or `spawn` names to the engine, starting now.
 * Returns its id, or -1 with the err line already written to out.
 */
static int
command_task_add(struct daemon *d, const struct proto_cmd *cmd,
    enum engine_kind kind, struct evbuffer *out)
{
	struct change	 ch;
	char		*cause = NULL, q[QUOTE_SIZE];
	int		 id;

	if (engine_ntasks(daemon_engine(d)) >= daemon_config(d)->max_tasks)
		return (command_err(out, xasprintf("too many tasks "
		    "(max_tasks %d)", daemon_config(d)->max_tasks)), -1);
	if (session_task_find(daemon_session(d), cmd->task) != 0)
		return (command_err(out, xasprintf("task %s exists",
		    quote_word(cmd->task, q, sizeof q))), -1);
	memset(&ch, 0, sizeof ch);
	ch.kind = CHANGE_ADD;
	ch.name = cmd->task;
	ch.nice = cmd->nice;
	ch.real = kind == ENGINE_REAL;
	if (kind == ENGINE_SIM) {
		ch.pattern = cmd->pattern;
		ch.npattern = cmd->npattern;
		ch.runtime = cmd->runtime;
	}
	if (cmd->cpus != NULL) {
		if (cpumask_parse(cmd->cpus,
		    engine_params(daemon_engine(d))->cpus, &ch.cpus,
		    &cause) != 0)
			return (command_err(out, cause), -1);
		if (cpumask_empty(&ch.cpus))
			return (command_err(out,
			    xasprintf("empty cpu list")), -1);
		ch.has_cpus = 1;
	}
	if ((id = daemon_change(d, &ch, &cause)) < 0)
		return (command_err(out, cause), -1);
	return (id);
}

/* add <name> [nice=N] [cpus=LIST] [pattern=R,S,...] [runtime=MS] */
static int
command_add(struct daemon *d, const struct proto_cmd *cmd,
    struct evbuffer *out)
{
	int	id;

	if ((id = command_task_add(d, cmd, ENGINE_SIM, out)) < 0)
		return (0);
	daemon_note(d, "%s added (nice %d%s%s)", cmd->task, cmd->nice,
	    cmd->pattern != NULL ? ", pattern" : ", hog",
	    cmd->runtime != 0 ? ", runtime" : "");
	evbuffer_add_printf(out, "ok %d\n", id);
	return (0);
}

/*
 * Why a program could not be started, with its name (as the client gave
 * it, of any length or bytes) quoted: procs_spawn's causes start with it.
 */
static char *
command_spawn_why(const char *prog, const char *cause)
{
	char	q[QUOTE_SIZE];
	size_t	n = strlen(prog);

	quote_word(prog, q, sizeof q);
	if (strncmp(cause, prog, n) == 0 && strncmp(cause + n, ": ", 2) == 0)
		return (xasprintf("%s: %s", q, cause + n + 2));
	return (xasprintf("%s: %s", q, cause));
}

/* spawn <name> [nice=N] [cpus=LIST] -- argv... */
static int
command_spawn(struct daemon *d, const struct proto_cmd *cmd,
    struct evbuffer *out)
{
	char	*cause = NULL, *why, q[QUOTE_SIZE];
	int	 id;

	if (daemon_procs(d) == NULL)
		return (command_err(out, xasprintf("real processes are not "
		    "available")));
	if ((id = command_task_add(d, cmd, ENGINE_REAL, out)) < 0)
		return (0);
	/* A failed start leaves the task exited, with the reason. */
	if (procs_spawn(daemon_procs(d), id, cmd->argv, &cause) != 0) {
		why = command_spawn_why(cmd->argv[0], cause);
		free(cause);
		daemon_note(d, "%s failed to start: %s", cmd->task, why);
		command_err(out, xasprintf("cannot start %s", why));
		free(why);
		return (0);
	}
	daemon_note(d, "%s spawned (%s, nice %d)", cmd->task,
	    quote_word(cmd->argv[0], q, sizeof q), cmd->nice);
	evbuffer_add_printf(out, "ok %d\n", id);
	return (0);
}

/* policy <name>: between ticks, the next tick runs under it. */
static int
command_policy(struct daemon *d, const struct proto_cmd *cmd,
    struct evbuffer *out)
{
	struct change	 ch;
	char		*cause = NULL, old[64];

	snprintf(old, sizeof old, "%s",
	    engine_get_policy(daemon_engine(d))->name);
	memset(&ch, 0, sizeof ch);
	ch.kind = CHANGE_POLICY;
	ch.name = cmd->policy->name;
	if (daemon_change(d, &ch, &cause) != 0)
		return (command_err(out, cause));
	daemon_note(d, "policy %s -> %s", old, cmd->policy->name);
	evbuffer_add_printf(out, "ok\n");
	return (0);
}

/*
 * compare <name|off>: a shadow engine under another policy beside the
 * enforced one (SPEC.md section 6), kept across load and reset.
 */
static int
command_compare(struct daemon *d, const struct proto_cmd *cmd,
    struct evbuffer *out)
{
	char	*cause = NULL;

	if (daemon_compare(d, cmd->policy, &cause) != 0)
		return (command_err(out, cause));
	evbuffer_add_printf(out, "ok\n");
	return (0);
}

/* A `scenario` line for sc, named name, from file. */
static void
command_scenario_line(struct daemon *d, struct evbuffer *out,
    const char *name, const char *file, const struct scenario *sc)
{
	char	buf[PROTO_TEXT_MAX + 256];
	size_t	len;

	len = protocol_scenario_line(buf, sizeof buf, name, file,
	    sc->has_cpus ? sc->cpus : daemon_config(d)->cpus, (int)sc->ntasks,
	    scenario_ncommands(sc) > 0,
	    sc->description != NULL ? sc->description : "");
	command_line(out, buf, len);
}

/* Does a directory entry name a scenario file (NAME.cfg)? */
static int
command_cfg(const struct dirent *de)
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
command_scenarios_path(struct daemon *d, struct evbuffer *out)
{
	struct dirent	**de;
	struct scenario	 *sc;
	char *const	 *dirs;
	char		 *path, *name, *cause, *first;
	size_t		  i, ndirs, lines = 0;
	int		  n, k;

	dirs = daemon_scenario_dirs(d, &ndirs);
	for (i = 0; i < ndirs; i++) {
		if ((n = scandir(dirs[i], &de, command_cfg,
		    alphasort)) < 0)
			continue;
		for (k = 0; k < n; k++) {
			name = xstrndup(de[k]->d_name,
			    strlen(de[k]->d_name) - 4);
			path = xasprintf("%s/%s", dirs[i],
			    de[k]->d_name);
			first = daemon_scenario_file(d, name);
			if (builtin_find(name) == NULL && first != NULL &&
			    strcmp(first, path) == 0) {
				if ((sc = scenario_load_file(path,
				    &cause)) != NULL) {
					command_scenario_line(d, out, name,
					    path, sc);
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
static int
command_scenarios(struct daemon *d, const struct proto_cmd *cmd,
    struct evbuffer *out)
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
		command_scenario_line(d, out, b[i].name, "builtin", sc);
		scenario_free(sc);
		lines++;
	}
	lines += command_scenarios_path(d, out);
	evbuffer_add_printf(out, "ok %zu\n", lines);
	return (0);
}

/*
 * A file a client names must be named by its absolute path: a relative
 * one would be the daemon's directory's (`/` when detached), not the
 * client's.  0, or -1 with the err line in out.
 */
static int
command_absolute(const char *path, struct evbuffer *out)
{
	char	q[QUOTE_SIZE];

	if (path[0] == '/')
		return (0);
	command_err(out, xasprintf("%s: not an absolute path (a relative "
	    "one would be the daemon's directory's)",
	    quote_word(path, q, sizeof q)));
	return (-1);
}

/* load <name|path>, reset: a new session; err leaves the current one. */
static int
command_load(struct daemon *d, const char *name, struct evbuffer *out)
{
	char		*cause = NULL, *copy, q[QUOTE_SIZE];
	const char	*p;

	/* Errors name the file: only printable ones are echoed as they are. */
	for (p = name; *p != '\0'; p++) {
		if (*p <= 0x20 || *p >= 0x7f)
			return (command_err(out, xasprintf("load: no scenario "
			    "%s", quote_word(name, q, sizeof q))));
	}
	if (strchr(name, '/') != NULL && command_absolute(name, out) != 0)
		return (0);
	copy = xstrdup(name);	/* the label goes with the old session */
	if (daemon_switch(d, copy, &cause) != 0) {
		free(copy);
		return (command_err(out, cause));
	}
	free(copy);
	daemon_note(d, "loaded %s", session_name(daemon_session(d)));
	evbuffer_add_printf(out, "ok\n");
	return (0);
}

/* record <path> */
static int
command_record(struct daemon *d, const struct proto_cmd *cmd,
    struct evbuffer *out)
{
	char	*cause = NULL, q[QUOTE_SIZE];

	if (command_absolute(cmd->path, out) != 0)
		return (0);
	if (daemon_record(d, cmd->path, &cause) != 0)
		return (command_err(out, cause));
	daemon_note(d, "recording to %s", quote_word(cmd->path, q,
	    sizeof q));
	evbuffer_add_printf(out, "ok\n");
	return (0);
}

/* seek <tick>: pause, and show that tick. */
static int
command_seek(struct daemon *d, const struct proto_cmd *cmd,
    struct evbuffer *out)
{
	char	*cause = NULL;

	/* Refused, it changes nothing: not even the clock's running. */
	if (session_seek_check(daemon_session(d), cmd->tick, &cause) != 0)
		return (command_err(out, cause));
	daemon_step_cancel(d, "seek");
	if (!daemon_paused(d)) {
		daemon_pause(d);
		daemon_note(d, "paused");
	}
	if (session_seek(daemon_session(d), cmd->tick, &cause) != 0)
		return (command_err(out, cause));
	daemon_seek_speed(d, cmd->tick);
	daemon_changed(d);
	evbuffer_add_printf(out, "ok\n");
	return (0);
}

/* marks: the scenario's marks, in time order. */
static int
command_marks(struct daemon *d, const struct proto_cmd *cmd,
    struct evbuffer *out)
{
	const struct session_mark	*m;
	char				 buf[PROTO_TEXT_MAX + 64];
	size_t				 i, n;

	m = session_marks(daemon_session(d), &n);
	for (i = 0; i < n; i++)
		command_line(out, buf, protocol_text_line(buf, sizeof buf,
		    "mark", m[i].at, m[i].text));
	evbuffer_add_printf(out, "ok %zu\n", n);
	return (0);
}

/* help: a line per command, from the table. */
static int
command_help(struct daemon *d, const struct proto_cmd *cmd,
    struct evbuffer *out)
{
	const struct proto_def	*def;

	for (def = command_table; def->name != NULL; def++)
		evbuffer_add_printf(out, "help %-25s %s\n", def->usage,
		    def->help);
	evbuffer_add_printf(out, "ok\n");
	return (0);
}

/* status */
static int
command_status(struct daemon *d, const struct proto_cmd *cmd,
    struct evbuffer *out)
{
	struct proto_status	st;
	char			buf[PROTO_TEXT_MAX + 512];

	daemon_status(d, &st);
	command_line(out, buf, protocol_status_line(buf, sizeof buf, &st));
	evbuffer_add_printf(out, "ok\n");
	return (0);
}

/* tasks */
static int
command_tasks(struct daemon *d, const struct proto_cmd *cmd,
    struct evbuffer *out)
{
	command_task_lines(d, out);
	evbuffer_add_printf(out, "ok %d\n", engine_ntasks(daemon_engine(d)));
	return (0);
}

/* cpus */
static int
command_cpus(struct daemon *d, const struct proto_cmd *cmd,
    struct evbuffer *out)
{
	command_cpu_lines(d, out);
	evbuffer_add_printf(out, "ok %d\n",
	    engine_params(daemon_engine(d))->cpus);
	return (0);
}

/* pause */
static int
command_pause(struct daemon *d, const struct proto_cmd *cmd,
    struct evbuffer *out)
{
	daemon_step_cancel(d, "pause");
	if (!daemon_paused(d)) {
		daemon_pause(d);
		daemon_note(d, "paused");
	}
	evbuffer_add_printf(out, "ok\n");
	return (0);
}

/* resume */
static int
command_resume(struct daemon *d, const struct proto_cmd *cmd,
    struct evbuffer *out)
{
	daemon_step_cancel(d, "resume");
	if (daemon_paused(d)) {
		daemon_resume(d);
		daemon_note(d, "resumed");
	}
	evbuffer_add_printf(out, "ok\n");
	return (0);
}

/* step [event] [N]: the connection starts it, replies when it is done. */
static int
command_step(struct daemon *d, const struct proto_cmd *cmd,
    struct evbuffer *out)
{
	return (COMMAND_STEP);
}

/* speed <x> */
static int
command_speed(struct daemon *d, const struct proto_cmd *cmd,
    struct evbuffer *out)
{
	daemon_speed_to(d, cmd->speed, session_now(daemon_session(d)), "");
	evbuffer_add_printf(out, "ok\n");
	return (0);
}

/* subscribe [fps] [delta]: the connection streams frames. */
static int
command_subscribe(struct daemon *d, const struct proto_cmd *cmd,
    struct evbuffer *out)
{
	evbuffer_add_printf(out, "ok\n");
	return (COMMAND_SUBSCRIBE);
}

/* unsubscribe */
static int
command_unsubscribe(struct daemon *d, const struct proto_cmd *cmd,
    struct evbuffer *out)
{
	evbuffer_add_printf(out, "ok\n");
	return (COMMAND_UNSUBSCRIBE);
}

/* shutdown: nothing after it on this connection is run. */
static int
command_shutdown(struct daemon *d, const struct proto_cmd *cmd,
    struct evbuffer *out)
{
	evbuffer_add_printf(out, "ok\n");
	daemon_shutdown(d);
	return (COMMAND_QUIT);
}

/* quit */
static int
command_quit(struct daemon *d, const struct proto_cmd *cmd,
    struct evbuffer *out)
{
	evbuffer_add_printf(out, "ok bye\n");
	return (COMMAND_QUIT);
}

/* load <name|path> */
static int
command_load_cmd(struct daemon *d, const struct proto_cmd *cmd,
    struct evbuffer *out)
{
	return (command_load(d, cmd->path, out));
}

/* reset: load the current scenario again. */
static int
command_reset(struct daemon *d, const struct proto_cmd *cmd,
    struct evbuffer *out)
{
	return (command_load(d, session_label(daemon_session(d)), out));
}

/* readonly: the connection changes nothing from now. */
static int
command_readonly(struct daemon *d, const struct proto_cmd *cmd,
    struct evbuffer *out)
{
	evbuffer_add_printf(out, "ok\n");
	return (COMMAND_READONLY);
}

/* view [key=value ...]: the presenter's view, for followers. */
static int
command_view(struct daemon *d, const struct proto_cmd *cmd,
    struct evbuffer *out)
{
	daemon_set_view(d, cmd->path);
	evbuffer_add_printf(out, "ok\n");
	return (0);
}

/*
 * The commands, in help's order: one entry each.
 *
 * To add a command:
 *  1. a PROTO_ value in protocol.h's enum proto_type (tests name it);
 *  2. an entry here: name, type, how many words follow the name (min,
 *     max, -1: any), flags, usage (the "usage: " error and help's left
 *     column), help's one-line description, the args reader and exec;
 *  3. args: a protocol_args_* in protocol.c that reads the words into
 *     struct proto_cmd (an existing one if the words are alike, NULL if
 *     there are none);
 *  4. exec: a command_* here that writes the reply (data lines, then one
 *     "ok ..." or "err ...") and returns COMMAND_* flags for the
 *     connection (0 mostly).
 * Flags: PROTO_CHANGES if it changes anything (the server refuses it to
 * a read-only client with "err read-only"); PROTO_ENGINE, with it, if it
 * changes the engine (refused while viewing the past).  That is all:
 * parsing, help, the read-only and past checks and dispatch read this.
 */
#define C	PROTO_CHANGES
#define E	(PROTO_CHANGES|PROTO_ENGINE)
const struct proto_def command_table[] = {
	{ "help", PROTO_HELP, 0, 0, 0, "help", "this list",
	  NULL, command_help },
	{ "status", PROTO_STATUS, 0, 0, 0, "status",
	  "tick, cpus, tasks, paused, speed, lag",
	  NULL, command_status },
	{ "tasks", PROTO_TASKS, 0, 0, 0, "tasks", "one task line per task",
	  NULL, command_tasks },
	{ "cpus", PROTO_CPUS, 0, 0, 0, "cpus", "one cpu line per engine CPU",
	  NULL, command_cpus },
	{ "table", PROTO_TABLE, 1, 1, 0, "table <task>",
	  "ticks at each rank in each descent",
	  protocol_args_task, command_table_cmd },
	{ "sleep", PROTO_SLEEP, 1, 2, E, "sleep <task> [ms]",
	  "injected sleep (default from the config)",
	  protocol_args_sleep, command_sleep },
	{ "nice", PROTO_NICE, 2, 2, E, "nice <task> <-20..19>", "nice value",
	  protocol_args_nice, command_nice },
	{ "affinity", PROTO_AFFINITY, 2, 2, E, "affinity <task> <cpulist>",
	  "allowed engine CPUs, e.g. 0-2,5",
	  protocol_args_affinity, command_affinity },
	{ "kill", PROTO_KILL, 1, 1, E, "kill <task>", "end a task now",
	  protocol_args_task, command_kill },
	{ "add", PROTO_ADD, 1, 5, E,
	  "add <name> [nice=N] [cpus=LIST] [pattern=R,S,...] [runtime=MS]",
	  "a scripted task", protocol_args_add, command_add },
	{ "spawn", PROTO_SPAWN, 3, -1, E,
	  "spawn <name> [nice=N] [cpus=LIST] -- <program> [args...]",
	  "a real process", protocol_args_spawn, command_spawn },
	{ "pause", PROTO_PAUSE, 0, 0, C, "pause", "stop the clock",
	  NULL, command_pause },
	{ "resume", PROTO_RESUME, 0, 0, C, "resume", "restart the clock",
	  NULL, command_resume },
	{ "step", PROTO_STEP, 0, 2, C, "step [event] [N]",
	  "run N ticks (default 1), or to the next event; pauses the clock",
	  protocol_args_step, command_step },
	{ "speed", PROTO_SPEED, 1, 1, C, "speed <0.01..100>",
	  "ticks per ms of wall time", protocol_args_speed, command_speed },
	{ "subscribe", PROTO_SUBSCRIBE, 0, 5, 0,
	  "subscribe [fps] [delta] [runs] [kruns] [view]",
	  "stream frames, at most fps a second",
	  protocol_args_subscribe, command_subscribe },
	{ "unsubscribe", PROTO_UNSUBSCRIBE, 0, 0, 0, "unsubscribe",
	  "stop the frames", NULL, command_unsubscribe },
	{ "shutdown", PROTO_SHUTDOWN, 0, 0, C, "shutdown", "stop the daemon",
	  NULL, command_shutdown },
	{ "quit", PROTO_QUIT, 0, 0, 0, "quit", "close this connection",
	  NULL, command_quit },
	{ "policy", PROTO_POLICY, 1, 1, E,
	  "policy <staircase|o1|cfs|eevdf|rr>",
	  "switch the policy", protocol_args_policy, command_policy },
	{ "scenarios", PROTO_SCENARIOS, 0, 0, 0, "scenarios",
	  "the scenarios load knows, with descriptions",
	  NULL, command_scenarios },
	{ "load", PROTO_LOAD, 1, 1, C, "load <name|path>",
	  "start a scenario afresh at tick 0",
	  protocol_args_path, command_load_cmd },
	{ "reset", PROTO_RESET, 0, 0, C, "reset",
	  "load the current scenario again", NULL, command_reset },
	{ "record", PROTO_RECORD, 1, 1, C, "record <path>",
	  "write the journal so far, and keep on",
	  protocol_args_path, command_record },
	{ "readonly", PROTO_READONLY, 0, 0, 0, "readonly",
	  "this connection changes nothing from now",
	  NULL, command_readonly },
	{ "seek", PROTO_SEEK, 1, 1, C, "seek <tick>",
	  "show the state at a past tick (pauses)",
	  protocol_args_tick, command_seek },
	{ "marks", PROTO_MARKS, 0, 0, 0, "marks",
	  "the scenario's marks (chapters)", NULL, command_marks },
	{ "compare", PROTO_COMPARE, 1, 1, E,
	  "compare <staircase|o1|cfs|eevdf|rr|off>",
	  "run a shadow policy beside the enforced one",
	  protocol_args_compare, command_compare },
	{ "view", PROTO_VIEW, 0, PROTO_VIEW_MAX, C, "view [key=value ...]",
	  "the presenter's view, for followers",
	  protocol_args_view, command_view },
	{ NULL, PROTO_NONE, 0, 0, 0, NULL, NULL, NULL, NULL }
};
#undef C
#undef E

/*
 * Viewing the past (seek), commands that change the engine are refused:
 * they would change the present, out of sight.
 */
static int
command_past(struct daemon *d, const struct proto_cmd *cmd,
    struct evbuffer *out)
{
	if (!(cmd->def->flags & PROTO_ENGINE) ||
	    !session_viewing(daemon_session(d)))
		return (0);
	evbuffer_add_printf(out, "err viewing the past (tick %llu of %llu): "
	    "resume first\n", (unsigned long long)engine_now(daemon_engine(d)),
	    (unsigned long long)session_now(daemon_session(d)));
	return (1);
}

/*
 * Run one command, writing its reply into out.  Returns COMMAND_* flags
 * for what the connection itself must do.
 */
int
command_run(struct daemon *d, const struct proto_cmd *cmd,
    struct evbuffer *out)
{
	/* The engine at the tick the wall clock says, then the command. */
	daemon_catchup(d);
	if (cmd->def == NULL)
		return (0);	/* an empty line */
	if (command_past(d, cmd, out))
		return (0);
	return (cmd->def->exec(d, cmd, out));
}
