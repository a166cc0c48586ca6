/*
 * test_protocol.c -- the protocol's pure parse and format functions:
 * every command's parse, strict numbers, error texts, line formats, and
 * a random-bytes fuzz that must never crash or leak.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cmd.h"
#include "format.h"
#include "protocol.h"
#include "quote.h"
#include "runs.h"
#include "staircase.h"
#include "fields.h"

/*
 * The policy's own keys a task or cpu line may end with (SPEC.md
 * section 10: its fields, its rq_fields, order=), comma-separated;
 * NULL: none.
 */
static const char	*wire_extra;

/* Is key one of wire_extra's? */
static int
wire_is_extra(const char *key)
{
	const char	*p = wire_extra;
	size_t		 len = strlen(key);

	while (p != NULL && *p != '\0') {
		if (strncmp(p, key, len) == 0 && (p[len] == ',' ||
		    p[len] == '\0'))
			return (1);
		if ((p = strchr(p, ',')) != NULL)
			p++;
	}
	return (0);
}

/*
 * Is buf a line of kind `line` with fields.c's keys in fields.c's order (an
 * optional one may be left out), each value non-empty, then maybe the
 * policy's own (wire_extra)?
 */
static void
wire_match(const char *buf, const struct wire_line *line)
{
	char	copy[2048], *p, *w, *eq, *last;
	int	i = 0, id;

	snprintf(copy, sizeof copy, "%s", buf);
	w = strtok_r(copy, " ", &last);
	assert_string_equal(w, line->word);
	while ((p = strtok_r(NULL, " ", &last)) != NULL) {
		assert_non_null(eq = strchr(p, '='));
		*eq = '\0';
		for (; i < line->n; i++) {
			id = line->order[i];
			if (strcmp(p, line->field[id].key) == 0)
				break;
			if (!(line->field[id].flags & WIRE_OPTIONAL))
				fail_msg("%s: no %s before %s", buf,
				    line->field[id].key, p);
		}
		if (i == line->n && wire_is_extra(p))
			continue;
		if (i == line->n)
			fail_msg("%s: %s not in fields.c", buf, p);
		if (eq[1] == '\0')
			fail_msg("%s: %s= empty", buf, p);
		if (line->field[line->order[i++]].type == WIRE_TEXT)
			break;
	}
	for (; i < line->n; i++)
		assert_true(line->field[line->order[i]].flags & WIRE_OPTIONAL);
}

/* A staircase engine of 2 CPUs with one group, "batch" (group 0). */
static struct engine *
proto_engine(void)
{
	struct engine_params	 p;
	struct engine		*e;
	struct cpumask		 m;
	char			*cause = NULL;

	engine_params_default(&p);
	p.cpus = 2;
	e = engine_create(&p, &engine_policy_staircase);
	cpumask_fill(&m, 2);
	assert_int_equal(engine_group_add(e, "batch", &m, &cause), 0);
	return (e);
}

/*
 * Each policy's task and cpu lines: fields.c's keys, then its own (its
 * fields, its rq_fields, rr's order=), every one named.
 */
static void
wire_policies(void)
{
	static const struct engine_policy *pol[] = { &engine_policy_staircase,
	    &engine_policy_o1, &engine_policy_cfs, &engine_policy_eevdf,
	    &engine_policy_rr };
	struct engine_task_spec	 sp;
	struct engine_params	 p;
	struct engine_task_info	 ti;
	struct engine_cpu_info	 ci;
	struct engine		*e;
	char			 buf[2048], extra[256], key[64], *cause = NULL;
	const char		*k;
	size_t			 i;
	int			 id;

	for (i = 0; i < sizeof pol / sizeof *pol; i++) {
		engine_params_default(&p);
		p.cpus = 2;
		e = engine_create(&p, pol[i]);
		memset(&sp, 0, sizeof sp);
		sp.kind = ENGINE_SIM;
		sp.group = -1;
		for (id = 0; id < 3; id++) {
			snprintf(key, sizeof key, "hog%d", id);
			sp.name = key;
			assert_true(engine_task_add(e, &sp, &cause) > 0);
		}
		for (id = 0; id < 30; id++)
			engine_tick(e);
		snprintf(extra, sizeof extra, "%s,%s,order",
		    pol[i]->fields != NULL ? pol[i]->fields : "",
		    pol[i]->rq_fields != NULL ? pol[i]->rq_fields : "");
		wire_extra = extra;
		for (id = 1; id <= 3; id++) {
			assert_int_equal(engine_task_info(e, id, &ti), 0);
			format_task_line(buf, sizeof buf, e, &ti, NULL);
			wire_match(buf, &wire_task);
			/* Each field named, iter= but once. */
			for (k = pol[i]->fields; k != NULL && *k != '\0';) {
				snprintf(key, sizeof key, " %.*s=",
				    (int)strcspn(k, ","), k);
				assert_non_null(strstr(buf, key));
				k += strcspn(k, ",");
				k += *k == ',';
			}
			assert_null(strstr(strstr(buf, " iter=") + 1,
			    " iter="));
		}
		engine_cpu_info(e, 0, &ci);
		format_cpu_line(buf, sizeof buf, e, &ci);
		wire_match(buf, &wire_cpu);
		if (pol[i] == &engine_policy_rr)
			assert_non_null(strstr(buf, " order="));
		else
			assert_null(strstr(buf, " order="));
		engine_free(e);
	}
}

/* The lines the daemon formats have fields.c's fields, in its order. */
static void
test_wire(void **state)
{
	struct engine		*e = proto_engine();
	struct proto_status	 st;
	struct engine_task_info	 ti;
	struct engine_cpu_info	 ci;
	struct format_real	 real;
	char			 buf[1024];
	int			 hint = 0;

	memset(&st, 0, sizeof st);
	st.speed = 1;
	st.rr = 10;
	st.cgroups = "none";
	protocol_status_line(buf, sizeof buf, &st);
	wire_match(buf, &wire_status);
	protocol_frame_line(buf, sizeof buf, &st, 0, -1);
	wire_match(buf, &wire_frame);
	protocol_frame_line(buf, sizeof buf, &st, 0, 1);
	wire_match(buf, &wire_frame);
	assert_non_null(strstr(buf, " delta=1"));

	st.picture = "stairs";
	protocol_status_line(buf, sizeof buf, &st);
	wire_match(buf, &wire_status);
	assert_non_null(strstr(buf, " picture=stairs"));
	protocol_frame_line(buf, sizeof buf, &st, 0, 1);
	wire_match(buf, &wire_frame);
	assert_non_null(strstr(buf, " picture=stairs"));

	memset(&ti, 0, sizeof ti);
	ti.id = 1;
	ti.name = "hog";
	ti.kind = ENGINE_SIM;
	ti.group = -1;
	cpumask_fill(&ti.allowed, 2);
	wire_extra = "descent";
	format_task_line(buf, sizeof buf, e, &ti, NULL);
	wire_match(buf, &wire_task);
	assert_null(strstr(buf, "stolen="));
	ti.kind = ENGINE_REAL;
	memset(&real, 0, sizeof real);
	real.pid = 7;
	format_task_line(buf, sizeof buf, e, &ti, &real);
	wire_match(buf, &wire_task);
	assert_non_null(strstr(buf, " stolen=0 "));

	memset(&ci, 0, sizeof ci);
	format_cpu_line(buf, sizeof buf, e, &ci);
	wire_match(buf, &wire_cpu);
	ci.task = 1;
	format_cpu_line(buf, sizeof buf, e, &ci);
	wire_match(buf, &wire_cpu);
	engine_free(e);

	wire_policies();
	wire_extra = NULL;

	protocol_scenario_line(buf, sizeof buf, "demo", "builtin", 2, 3, 0,
	    "Three tasks");
	wire_match(buf, &wire_scenario);
	protocol_text_line(buf, sizeof buf, "mark", 9, "a b");
	wire_match(buf, &wire_mark);

	/* wire_find: in order at the first look, else by a search. */
	assert_int_equal(wire_find(&wire_task, "id", &hint), WIRE_TASK_ID);
	assert_int_equal(wire_find(&wire_task, "name", &hint),
	    WIRE_TASK_NAME);
	assert_int_equal(wire_find(&wire_task, "exit", &hint),
	    WIRE_TASK_EXIT);
	assert_int_equal(wire_find(&wire_task, "kind", &hint),
	    WIRE_TASK_KIND);
	assert_int_equal(wire_find(&wire_task, "frob", &hint), -1);
	hint = 0;
	assert_int_equal(wire_find(&wire_frame, "scenario", &hint),
	    WIRE_HEAD_SCENARIO);
}

/* Does the command on line change the daemon (read-only refused)? */
static int
changes(const char *line)
{
	struct cmd	 cmd;
	char			*cause = NULL;
	int			 rc;

	if (cmd_parse(line, &cmd, &cause) != 0)
		fail_msg("%s: %s", line, cause);
	rc = cmd.entry != NULL && (cmd.entry->flags & CMD_WRITE) != 0;
	cmd_free(&cmd);
	return (rc);
}

/*
 * cmd_table: every entry's usage starts with its name, names are
 * unique, it runs something, and a command that changes the engine is
 * one that changes the daemon (so read-only clients are refused it).
 */
static void
test_command_table(void **state)
{
	const struct cmd_entry *const	*a, *const *b;
	size_t				 n;

	for (a = cmd_table; *a != NULL; a++) {
		n = strlen((*a)->name);
		assert_int_equal(strncmp((*a)->usage, (*a)->name, n), 0);
		assert_true((*a)->usage[n] == '\0' || (*a)->usage[n] == ' ');
		assert_non_null((*a)->exec);
		assert_non_null((*a)->help);
		assert_ptr_equal(cmd_find((*a)->name), *a);
		if ((*a)->flags & CMD_ENGINE & ~CMD_WRITE)
			assert_true((*a)->flags & CMD_WRITE);
		for (b = a + 1; *b != NULL; b++) {
			assert_string_not_equal((*a)->name, (*b)->name);
			assert_ptr_not_equal(*a, *b);
		}
	}
	assert_null(cmd_find("frob"));
}

/* Parse line; must succeed; the command is left in cmd. */
static void
ok(const char *line, struct cmd *cmd)
{
	char	*cause = NULL;

	if (cmd_parse(line, cmd, &cause) != 0) {
		fprintf(stderr, "%s: %s\n", line, cause);
		free(cause);
		fail();
	}
}

/* Parse line; must fail with a cause starting with want. */
static void
bad(const char *line, const char *want)
{
	struct cmd	 cmd;
	char			*cause = NULL;

	if (cmd_parse(line, &cmd, &cause) == 0) {
		fprintf(stderr, "%s: parsed\n", line);
		cmd_free(&cmd);
		fail();
	}
	if (strncmp(cause, want, strlen(want)) != 0) {
		fprintf(stderr, "%s: \"%s\", wanted \"%s\"\n", line, cause,
		    want);
		free(cause);
		fail();
	}
	free(cause);
}

/* Commands without arguments, and blank lines. */
static void
test_simple(void **state)
{
	static const struct { const char *s; const struct cmd_entry *t; } v[] = {
		{ "help", &cmd_help_entry }, { "status", &cmd_status_entry },
		{ "tasks", &cmd_tasks_entry }, { "cpus", &cmd_cpus_entry },
		{ "pause", &cmd_pause_entry }, { "resume", &cmd_resume_entry },
		{ "unsubscribe", &cmd_unsubscribe_entry },
		{ "shutdown", &cmd_shutdown_entry }, { "quit", &cmd_quit_entry },
		{ "  status  ", &cmd_status_entry }, { "\tstatus", &cmd_status_entry },
		{ "", NULL }, { "   ", NULL },
	};
	struct cmd	cmd;
	size_t			i;

	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		ok(v[i].s, &cmd);
		assert_ptr_equal(cmd.entry, v[i].t);
		cmd_free(&cmd);
	}
	bad("status 1", "usage: status");
	bad("frob", "unknown command \"frob\" (try help)");
	bad("STATUS", "unknown command \"STATUS\"");
	bad("status\x01", "control byte 0x01 in line");
}

/* Task commands and their numbers. */
static void
test_task_commands(void **state)
{
	struct cmd	cmd;

	ok("sleep hog 100", &cmd);
	assert_ptr_equal(cmd.entry, &cmd_sleep_entry);
	assert_string_equal(cmd.task, "hog");
	assert_int_equal(cmd.has_ms, 1);
	assert_int_equal(cmd.ms, 100);
	cmd_free(&cmd);
	ok("sleep 3", &cmd);
	assert_string_equal(cmd.task, "3");
	assert_int_equal(cmd.has_ms, 0);
	cmd_free(&cmd);
	ok("nice hog -20", &cmd);
	assert_int_equal(cmd.nice, -20);
	cmd_free(&cmd);
	ok("nice hog +19", &cmd);
	assert_int_equal(cmd.nice, 19);
	cmd_free(&cmd);
	ok("affinity hog 0-2,5", &cmd);
	assert_string_equal(cmd.cpus, "0-2,5");
	cmd_free(&cmd);
	ok("kill hog", &cmd);
	assert_ptr_equal(cmd.entry, &cmd_kill_entry);
	cmd_free(&cmd);
	ok("table hog", &cmd);
	assert_ptr_equal(cmd.entry, &cmd_table_entry);
	cmd_free(&cmd);

	bad("sleep hog -5", "bad ms \"-5\": expected a whole number of ms, "
	    "1 to 100000000");
	bad("sleep hog 0", "bad ms \"0\": expected a whole number of ms, "
	    "1 to 100000000");
	bad("sleep hog 1.5", "bad ms \"1.5\": expected a whole number of ms, "
	    "1 to 100000000");
	bad("sleep hog 5ms", "bad ms \"5ms\"");
	bad("sleep hog 1e3", "bad ms \"1e3\"");
	bad("sleep hog 100000001", "bad ms \"100000001\": more than 100000000");
	bad("sleep hog 184467440737095516160", "bad ms");
	bad("sleep", "usage: sleep <task> [ms]");
	bad("nice hog", "usage: nice");
	bad("nice hog 20", "bad nice \"20\": expected a whole number in "
	    "-20..19");
	bad("nice hog -", "bad nice");
	bad("nice hog 9999999999999999999999", "bad nice");
	bad("affinity hog", "usage: affinity");
	bad("kill", "usage: kill");
}

/* add and spawn. */
static void
test_add_spawn(void **state)
{
	struct cmd	cmd;

	ok("add ed nice=-5 cpus=1 pattern=2,40,3,10 runtime=500", &cmd);
	assert_ptr_equal(cmd.entry, &cmd_add_entry);
	assert_string_equal(cmd.task, "ed");
	assert_int_equal(cmd.nice, -5);
	assert_string_equal(cmd.cpus, "1");
	assert_int_equal(cmd.npattern, 4);
	assert_int_equal(cmd.pattern[0], 2);
	assert_int_equal(cmd.pattern[3], 10);
	assert_int_equal(cmd.runtime, 500);
	cmd_free(&cmd);
	ok("add hog", &cmd);
	assert_null(cmd.pattern);
	assert_int_equal(cmd.has_nice, 0);
	cmd_free(&cmd);
	ok("spawn burn nice=3 -- stairs-load --run 30 --sleep 10", &cmd);
	assert_ptr_equal(cmd.entry, &cmd_spawn_entry);
	assert_int_equal(cmd.nice, 3);
	assert_int_equal(cmd.argc, 5);
	assert_string_equal(cmd.argv[0], "stairs-load");
	assert_string_equal(cmd.argv[4], "10");
	assert_null(cmd.argv[5]);
	cmd_free(&cmd);
	ok("spawn x -- a -- b", &cmd);
	assert_int_equal(cmd.argc, 3);
	assert_string_equal(cmd.argv[1], "--");
	cmd_free(&cmd);

	bad("add", "usage: add");
	bad("add 42", "bad name \"42\"");
	bad("add a:b", "bad name \"a:b\"");
	bad("add .", "bad name \".\"");
	bad("add ..", "bad name \"..\"");
	bad("add -", "bad name \"-\": is reserved");
	bad("spawn - -- ls", "bad name \"-\": is reserved");
	bad("add ..", "bad name \"..\": is reserved");
	bad("add 42", "bad name \"42\": is all digits");
	ok("add ...", &cmd);
	cmd_free(&cmd);
	bad("add abcdefghijabcdefghijabcdefghij12", "bad name");
	bad("add x nice=20", "bad nice \"20\"");
	bad("add x nice=1 nice=2", "bad option \"nice=2\"");
	bad("add x pattern=2,40,3", "bad pattern \"2,40,3\": expected "
	    "run,sleep pairs");
	bad("add x pattern=2,,40", "bad pattern");
	bad("add x pattern=2,0", "bad pattern ms \"0\"");
	bad("add x pattern=", "bad pattern");
	bad("add x runtime=-1", "bad runtime \"-1\"");
	bad("add x color=red", "bad option \"color=red\" for add");
	bad("spawn x", "usage: spawn");
	bad("spawn x -- ", "usage: spawn");
	bad("spawn x prog", "usage: spawn");
	bad("spawn x pattern=1,2 -- prog", "bad option \"pattern=1,2\" for "
	    "spawn");
}

/*
 * The run lists of runs and kruns lines: what is written reads back;
 * what is not one run is refused, and the reader moves past a run and
 * its comma only.
 */
static void
test_run_items(void **state)
{
	static const int	 tasks[] = { 7, 0, RUNS_OTHER, RUNS_UNKNOWN,
	    2147483647 };
	static const char *const badv[] = { "", "*3", "1*0", "1*", "x*2",
	    "+1*2", "1:120*2", "-1*2", "--*2", "1*2,", "1*2x", "1**2",
	    "1*-2", "99999999999*1", "1*99999999999999999999", "?", "-*",
	    " 1*2" };
	char			 buf[64], line[256];
	const char		*p;
	uint64_t		 n;
	size_t			 i, len = 0;
	int			 task;

	protocol_runs_item(buf, sizeof buf, 3, 121, 10);
	assert_string_equal(buf, "3:121*10");
	protocol_runs_item(buf, sizeof buf, 0, -1, 4);
	assert_string_equal(buf, "0*4");
	protocol_kruns_item(buf, sizeof buf, 3, 10);
	assert_string_equal(buf, "3*10");
	protocol_kruns_item(buf, sizeof buf, 0, 2);
	assert_string_equal(buf, "0*2");
	protocol_kruns_item(buf, sizeof buf, RUNS_OTHER, 5);
	assert_string_equal(buf, "-*5");
	protocol_kruns_item(buf, sizeof buf, RUNS_UNKNOWN, 1);
	assert_string_equal(buf, "?*1");
	/* A line of them reads back, run by run. */
	for (i = 0; i < sizeof tasks / sizeof tasks[0]; i++) {
		if (i > 0)
			line[len++] = ',';
		len += protocol_kruns_item(line + len, sizeof line - len,
		    tasks[i], 1000 + i);
	}
	p = line;
	for (i = 0; i < sizeof tasks / sizeof tasks[0]; i++) {
		assert_int_equal(protocol_kruns_parse(&p, &task, &n), 0);
		assert_int_equal(task, tasks[i]);
		assert_int_equal(n, 1000 + i);
	}
	assert_int_equal(*p, '\0');
	/* Not runs: refused, the reader not moved. */
	for (i = 0; i < sizeof badv / sizeof badv[0]; i++) {
		p = badv[i];
		if (protocol_kruns_parse(&p, &task, &n) != -1 || p != badv[i])
			fail_msg("\"%s\" read", badv[i]);
	}
}

/* The presenter's view: key=number pairs, kept joined; refused read-only. */
static void
test_view(void **state)
{
	struct cmd	cmd;

	ok("view task=3 timeline=1 zoom=20 back=-1", &cmd);
	assert_ptr_equal(cmd.entry, &cmd_view_entry);
	assert_string_equal(cmd.path, "task=3 timeline=1 zoom=20 back=-1");
	cmd_free(&cmd);
	ok("subscribe 10 delta runs view", &cmd);
	assert_int_equal(cmd.fps, 10);
	assert_true(cmd.delta && cmd.runs && cmd.view);
	cmd_free(&cmd);
	ok("subscribe view runs", &cmd);
	assert_true(!cmd.delta && cmd.runs && cmd.view);
	assert_int_equal(cmd.fps, PROTO_FPS_DEFAULT);
	cmd_free(&cmd);
	ok("subscribe 10 delta runs kruns view", &cmd);
	assert_true(cmd.delta && cmd.runs && cmd.kruns && cmd.view);
	cmd_free(&cmd);
	ok("subscribe kruns", &cmd);
	assert_true(cmd.kruns && !cmd.runs && !cmd.delta && !cmd.view);
	cmd_free(&cmd);
	bad("subscribe 10 runs runs", "usage: subscribe");
	bad("subscribe 10 kruns kruns", "usage: subscribe");
	bad("subscribe 10 delta runs kruns view x", "usage: subscribe");
	bad("subscribe 5 foo", "usage: subscribe [fps] [delta] [runs] [kruns] "
	    "[view] (\"foo\": not one of delta, runs, kruns, view once each, "
	    "after the fps)");
	bad("subscribe runs 10", "usage: subscribe");
	ok("view", &cmd);
	assert_string_equal(cmd.path, "");
	assert_true(cmd.entry->flags & CMD_WRITE);
	cmd_free(&cmd);
	bad("view task", "bad view pair \"task\"");
	bad("view Task=1", "bad view pair \"Task=1\"");
	bad("view task=x", "bad view pair \"task=x\"");
	bad("view =1", "bad view pair");
	bad("view task=1234567890123", "bad view pair");
	bad("view abcdefghijklmnopq=1", "bad view pair");
	bad("view a=1 b=1 c=1 d=1 e=1 f=1 g=1 h=1 i=1 j=1 k=1 l=1 m=1 n=1 "
	    "o=1 p=1 q=1", "usage: view [key=value ...] (at most 16 words "
	    "after view)");
}

/* Clock commands. */
static void
test_clock_commands(void **state)
{
	struct cmd	cmd;

	ok("step", &cmd);
	assert_int_equal(cmd.steps, 1);
	cmd_free(&cmd);
	ok("step 25", &cmd);
	assert_int_equal(cmd.steps, 25);
	cmd_free(&cmd);
	ok("speed 0.01", &cmd);
	assert_true(cmd.speed > 0.0099 && cmd.speed < 0.0101);
	cmd_free(&cmd);
	ok("speed 100", &cmd);
	assert_true(cmd.speed == 100.0);
	cmd_free(&cmd);
	ok("speed .5", &cmd);
	assert_true(cmd.speed == 0.5);
	cmd_free(&cmd);
	ok("subscribe", &cmd);
	assert_int_equal(cmd.fps, PROTO_FPS_DEFAULT);
	cmd_free(&cmd);
	ok("subscribe 120", &cmd);
	assert_int_equal(cmd.fps, 120);
	assert_int_equal(cmd.delta, 0);
	cmd_free(&cmd);
	ok("subscribe 10 delta", &cmd);
	assert_int_equal(cmd.fps, 10);
	assert_int_equal(cmd.delta, 1);
	cmd_free(&cmd);
	ok("subscribe delta", &cmd);
	assert_int_equal(cmd.fps, PROTO_FPS_DEFAULT);
	assert_int_equal(cmd.delta, 1);
	cmd_free(&cmd);

	bad("step 0", "bad steps \"0\"");
	bad("step x", "bad steps");
	bad("step 1000001", "bad steps");
	bad("speed 0", "bad speed \"0\": expected a number in 0.01..100");
	bad("speed 0.001", "bad speed");
	bad("speed 100.5", "bad speed");
	bad("speed -1", "bad speed");
	bad("speed 1e1", "bad speed");
	bad("speed inf", "bad speed");
	bad("speed 1.2.3", "bad speed");
	bad("speed .", "bad speed");
	bad("speed", "usage: speed");
	bad("subscribe 0", "bad fps \"0\"");
	bad("subscribe 121", "bad fps");

	/* policy NAME (SPEC.md section 6). */
	ok("policy cfs", &cmd);
	assert_ptr_equal(cmd.entry, &cmd_policy_entry);
	assert_ptr_equal(cmd.policy, &engine_policy_cfs);
	cmd_free(&cmd);
	ok("policy staircase", &cmd);
	assert_ptr_equal(cmd.policy, &engine_policy_staircase);
	cmd_free(&cmd);
	bad("policy bfs", "unknown policy \"bfs\" (known: staircase, o1, "
	    "cfs, eevdf, rr)");
	/* Found by fuzz_protocol: the name was echoed raw. */
	bad("policy n\377ew1", "unknown policy \"n\\xffew1\" (known:");
	bad("policy", "usage: policy");
	bad("policy o1 cfs", "usage: policy");
	bad("subscribe delta 10", "usage: subscribe [fps] [delta]");
	bad("subscribe 10 20", "usage: subscribe [fps] [delta]");
	bad("subscribe 10 delta delta", "usage: subscribe");
}

/*
 * The one tokenizer (protocol_next, protocol_fields, protocol_line),
 * loose as the client reads data lines and the daemon commands, and
 * strict as the journal is read: every fault named.
 */
static void
test_tokenizer(void **state)
{
	static const struct {
		const char	*in;
		const char	*pre, *at, *post;
	} bad[] = {
		{ " a=1", "bad spacing (fields are separated by one space)",
		    NULL, "" },
		{ "a=1  b=2", "bad spacing (fields are separated by one "
		    "space)", NULL, "" },
		{ "a=1 ", "bad spacing (fields are separated by one space)",
		    NULL, "" },
		{ "a", "bad field ", "a", " (expected key=value)" },
		{ "=1", "bad field ", "=1", " (expected key=value)" },
		{ "a=1 a=2", "duplicate field ", "a", "" },
		{ "a=", "field ", "a", " is empty" },
		{ "a=\"x", "field ", "a", " has no closing quote" },
		{ "a=\"x\"y", "field ", "a", ": text after the closing quote" },
		{ "a=\"\\q\"", "field ", "a", " has an unknown escape" },
		{ "a=\"\\x0\"", "field ", "a", " has a bad \\x escape (two "
		    "lowercase hex digits)" },
		{ "a=\"\\x00\"", "field ", "a", " has a NUL byte" },
		{ "a=\"\t\"", "field ", "a", " has a control character "
		    "(escape it)" },
	};
	struct proto_fields	 f;
	const char		*why;
	char			 buf[256], *p, *w;
	size_t			 i;

	/* Loose words: blanks skipped, tabs only when asked. */
	snprintf(buf, sizeof buf, "  frame\ttick=1  x ");
	p = buf;
	assert_string_equal(protocol_next(&p, 0), "frame\ttick=1");
	assert_string_equal(protocol_next(&p, 0), "x");
	assert_null(protocol_next(&p, 0));
	snprintf(buf, sizeof buf, "a\tb");
	p = buf;
	assert_string_equal(protocol_next(&p, PROTO_TABS), "a");
	assert_string_equal(protocol_next(&p, PROTO_TABS), "b");
	/* Strict words: one space each; "a " is "a", then "", then NULL. */
	snprintf(buf, sizeof buf, "5 kill ");
	p = buf;
	assert_string_equal(protocol_next(&p, PROTO_STRICT), "5");
	assert_string_equal(protocol_next(&p, PROTO_STRICT), "kill");
	assert_string_equal(p, "");
	assert_string_equal(protocol_next(&p, PROTO_STRICT), "");
	assert_null(p);
	assert_null(protocol_next(&p, PROTO_STRICT));

	/* A data line: keyword, key=value and bare fields, text=. */
	snprintf(buf, sizeof buf, " event  tick=5 bare x=  text=a  b=c ");
	protocol_line(buf, PROTO_TEXT, &f);
	assert_string_equal(f.word, "event");
	assert_int_equal(f.n, 3);
	assert_string_equal(f.f[0].key, "tick");
	assert_string_equal(f.f[0].value, "5");
	assert_string_equal(f.f[1].key, "bare");
	assert_null(f.f[1].value);
	assert_string_equal(f.f[2].value, "");
	assert_string_equal(f.text, "a  b=c ");
	assert_null(protocol_get(&f, "bare"));
	assert_string_equal(protocol_get(&f, "tick"), "5");
	assert_string_equal(protocol_unused(&f), "bare");
	snprintf(buf, sizeof buf, "   ");
	protocol_line(buf, 0, &f);
	assert_string_equal(f.word, "");
	assert_int_equal(f.n, 0);
	/* Without PROTO_TEXT, text= is a field like any other. */
	snprintf(buf, sizeof buf, "w text=a b");
	protocol_line(buf, 0, &f);
	assert_int_equal(f.n, 2);
	assert_null(f.text);
	/* Past PROTO_FIELDS_MAX fields are dropped, text= still read. */
	for (i = 0, p = buf; i < PROTO_FIELDS_MAX + 3; i++)
		p += sprintf(p, "k%zu=1 ", i);
	sprintf(p, "text=end");
	protocol_fields(buf, PROTO_TEXT, &f);
	assert_int_equal(f.n, PROTO_FIELDS_MAX);
	assert_int_equal(f.dropped, 3);
	assert_string_equal(f.text, "end");

	/* Strict: values bare or quoted, every field read or named. */
	snprintf(buf, sizeof buf, "name=\"a b\\\"\\x41\\t\" n=3");
	assert_int_equal(protocol_fields(buf, PROTO_STRICT, &f), 0);
	assert_int_equal(f.n, 2);
	assert_string_equal(protocol_get(&f, "name"), "a b\"A\t");
	assert_string_equal(protocol_unused(&f), "n");
	assert_string_equal(protocol_get(&f, "n"), "3");
	assert_null(protocol_unused(&f));
	assert_int_equal(protocol_fields(NULL, PROTO_STRICT, &f), 0);
	assert_int_equal(f.n, 0);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(buf, sizeof buf, "%s", bad[i].in);
		if (protocol_fields(buf, PROTO_STRICT, &f) != -1)
			fail_msg("%s: not refused", bad[i].in);
		assert_string_equal(f.pre, bad[i].pre);
		if (bad[i].at == NULL)
			assert_null(f.at);
		else
			assert_string_equal(f.at, bad[i].at);
		assert_string_equal(f.post, bad[i].post);
	}
	snprintf(buf, sizeof buf, "x");
	p = buf;
	assert_null(protocol_unquote(&p, &why));
	assert_string_equal(why, " is not quoted");
	snprintf(buf, sizeof buf, "\"a\\n\\r\" rest");
	p = buf;
	assert_non_null(w = protocol_unquote(&p, &why));
	assert_string_equal(w, "a\n\r");
	assert_string_equal(p, " rest");
}

/* Quoting user words in errors: printable, bounded. */
static void
test_quote(void **state)
{
	char	buf[64];

	assert_string_equal(quote_word("abc", buf, sizeof buf), "\"abc\"");
	assert_string_equal(quote_word("a\xff\x01z", buf, sizeof buf),
	    "\"a\\xff\\x01z\"");
	assert_string_equal(quote_word("a\"b\\c\x7f", buf, sizeof buf),
	    "\"a\\\"b\\\\c\\x7f\"");
	/* Escapes count: 10 of 4 characters, then the cut. */
	assert_string_equal(quote_word("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9\xc3\xa9", buf, sizeof buf), "\"\\xc3\\xa9\\xc3\\xa9"
	    "\\xc3\\xa9\\xc3\\xa9\\xc3\\xa9...\"");
	assert_true(strlen(quote_word("\xff\xff\xff\xff\xff\xff\xff\xff"
	    "\xff\xff\xff", buf, sizeof buf)) <= QUOTE_SIZE - 1);
	quote_word("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", buf,
	    QUOTE_SIZE);
	assert_true(strlen(buf) == 1 + 40 + 3 + 1);
	quote_word("0123456789012345678901234567890123456789XYZ", buf,
	    sizeof buf);
	assert_string_equal(buf,
	    "\"0123456789012345678901234567890123456789...\"");
}

/* The line formats of docs/PROTOCOL.md. */
static void
test_format(void **state)
{
	struct engine		*e = proto_engine();
	struct engine_task_info	 ti;
	struct engine_cpu_info	 ci;
	struct proto_status	 st;
	struct format_real	 real;
	char			 buf[1024];
	size_t			 n;

	n = protocol_greeting(buf, sizeof buf);
	assert_string_equal(buf, "stairs 2 " STAIRS_VERSION);
	assert_int_equal(n, strlen(buf));

	memset(&st, 0, sizeof st);
	st.tick = 42;
	st.cpus = 2;
	st.tasks = 3;
	st.alive = 2;
	st.now = 50;
	st.live = 0;
	st.paused = 1;
	st.speed = 0.5;
	st.rr = 10;
	st.cgroups = "none";
	st.clients = 1;
	st.scenario = "demo";
	st.sleep = 1000;
	st.policy = "o1";
	protocol_status_line(buf, sizeof buf, &st);
	assert_string_equal(buf, "status tick=42 cpus=2 tasks=3 paused=1 "
	    "speed=0.5 rr=10 cgroups=none alive=2 lag=0 clients=1 "
	    "scenario=demo sleep=1000 observe=proc policy=o1 now=50 live=0 "
	    "compare=off record=off ask=none votes=-");
	st.record = "failed";
	protocol_status_line(buf, sizeof buf, &st);
	assert_non_null(strstr(buf, " compare=off record=failed"));
	st.record = NULL;
	st.scenario = "The article\ttable";
	protocol_status_line(buf, sizeof buf, &st);
	assert_non_null(strstr(buf, " scenario=The_article_table"));
	protocol_frame_line(buf, sizeof buf, &st, 7, -1);
	assert_string_equal(buf, "frame tick=42 cpus=2 tasks=3 paused=1 "
	    "speed=0.5 rr=10 dropped=7 alive=2 lag=0 sleep=1000 policy=o1 "
	    "now=50 live=0 scenario=The_article_table ask=none votes=-");
	protocol_frame_line(buf, sizeof buf, &st, 0, 1);
	assert_string_equal(buf, "frame tick=42 cpus=2 tasks=3 paused=1 "
	    "speed=0.5 rr=10 dropped=0 alive=2 lag=0 sleep=1000 policy=o1 "
	    "now=50 live=0 scenario=The_article_table ask=none votes=- "
	    "delta=1");
	protocol_frame_line(buf, sizeof buf, &st, 0, 0);
	assert_true(strstr(buf, " scenario=The_article_table ask=none "
	    "votes=- delta=0") != NULL);
	/* compare NAME: status says it; frames with the shadow end in it. */
	st.compare = "cfs";
	protocol_status_line(buf, sizeof buf, &st);
	assert_non_null(strstr(buf, " live=0 compare=cfs"));
	protocol_frame_line(buf, sizeof buf, &st, 0, 0);
	assert_null(strstr(buf, " shadow="));
	st.shadow = 1;
	protocol_frame_line(buf, sizeof buf, &st, 0, 0);
	assert_non_null(strstr(buf, " delta=0 shadow=cfs"));
	/* The room (SPEC.md section 12): the question and its votes. */
	st.ask = "open";
	st.votes = "3,0,1";
	protocol_status_line(buf, sizeof buf, &st);
	assert_non_null(strstr(buf, " record=off ask=open votes=3,0,1"));
	protocol_frame_line(buf, sizeof buf, &st, 0, 0);
	assert_non_null(strstr(buf, " ask=open votes=3,0,1 delta=0"));
	st.ask = NULL;
	st.votes = NULL;
	/* A recording played: its part, of parts; none otherwise. */
	st.part = 2;
	st.parts = 3;
	protocol_status_line(buf, sizeof buf, &st);
	assert_non_null(strstr(buf, " votes=- part=2 parts=3"));
	protocol_frame_line(buf, sizeof buf, &st, 0, 0);
	assert_non_null(strstr(buf, " votes=- part=2 parts=3 delta=0"));
	st.part = st.parts = 0;
	protocol_status_line(buf, sizeof buf, &st);
	assert_null(strstr(buf, " part="));
	protocol_choice_line(buf, sizeof buf, 2, "the\tsecond");
	assert_string_equal(buf, "choice n=2 text=the second");
	st.compare = NULL;
	st.shadow = 0;
	/* The description: status's last field, to the end; no frame's. */
	st.description = "Two hogs\tand an editor";
	protocol_status_line(buf, sizeof buf, &st);
	assert_non_null(strstr(buf, " votes=- text=Two hogs and an "
	    "editor"));
	assert_int_equal(buf[strlen(buf) - 1], 'r');
	protocol_frame_line(buf, sizeof buf, &st, 0, 0);
	assert_null(strstr(buf, "text="));
	st.description = "";
	protocol_status_line(buf, sizeof buf, &st);
	assert_non_null(strstr(buf, " votes=- text="));
	st.description = NULL;
	/* A scenarios line: name and file one word, the text to the end. */
	protocol_scenario_line(buf, sizeof buf, "demo", "builtin", 2, 3, 0,
	    "Three tasks\ton two CPUs");
	assert_string_equal(buf, "scenario name=demo file=builtin cpus=2 "
	    "tasks=3 real=0 text=Three tasks on two CPUs");
	assert_true(changes("load demo"));
	assert_true(changes("reset"));
	assert_true(changes("record /tmp/x"));
	assert_true(changes("sleep hog"));
	assert_false(changes("scenarios"));
	assert_false(changes("status"));
	assert_false(changes("table hog"));

	memset(&ti, 0, sizeof ti);
	ti.id = 3;
	ti.name = "make";
	ti.kind = ENGINE_REAL;
	ti.state = ENGINE_RUNNABLE;
	ti.cpu = 0;
	ti.group = -1;
	ti.nice = 0;
	ti.rank = 123;
	ti.field[STAIRCASE_ITER] = 2;
	ti.left = 10;
	ti.ran = 2020;
	ti.slice = 20;
	ti.top = 120;
	ti.bottom = 139;
	cpumask_fill(&ti.allowed, 2);
	real.pid = 41022;
	real.cputime_ms = 2010;
	real.stolen_ms = 7;
	real.exit = NULL;
	format_task_line(buf, sizeof buf, e, &ti, &real);
	assert_string_equal(buf, "task id=3 name=make kind=real pid=41022 "
	    "nice=0 cpu=0 rank=123 iter=2 left=10 state=runnable ran=2020 "
	    "cputime=2010 stolen=7 cpus=0-1 group=- exit=- slice=20 top=120 "
	    "bottom=139 descent=0");
	ti.kind = ENGINE_SIM;
	ti.running = 1;
	ti.cpu = -1;
	ti.group = 0;
	format_task_line(buf, sizeof buf, e, &ti, NULL);
	assert_string_equal(buf, "task id=3 name=make kind=sim pid=- "
	    "nice=0 cpu=- rank=123 iter=2 left=10 state=running ran=2020 "
	    "cputime=- cpus=0-1 group=batch exit=- slice=20 top=120 "
	    "bottom=139 descent=0");
	ti.state = ENGINE_EXITED;
	ti.exit = ENGINE_EXIT_KILLED;
	format_task_line(buf, sizeof buf, e, &ti, NULL);
	assert_non_null(strstr(buf, "state=exited"));
	assert_non_null(strstr(buf, "exit=killed"));
	/* An imported task whose recorded bursts are all played. */
	ti.exit = ENGINE_EXIT_DONE;
	format_task_line(buf, sizeof buf, e, &ti, NULL);
	assert_non_null(strstr(buf, " exit=done"));
	ti.exit = ENGINE_EXIT_NONE;
	ti.kind = ENGINE_REAL;
	real.exit = "exec: nope: No such file";
	format_task_line(buf, sizeof buf, e, &ti, &real);
	assert_non_null(strstr(buf, "exit=exec:_nope:_No_such_file"));
	ti.state = ENGINE_WAITING;
	format_task_line(buf, sizeof buf, e, &ti, NULL);
	assert_non_null(strstr(buf, "state=sleeping"));

	memset(&ci, 0, sizeof ci);
	ci.cpu = 1;
	ci.nr = 2;
	ci.task = 3;
	ci.rank = 123;
	ci.field[STAIRCASE_ITER] = 2;
	ci.left = 10;
	format_cpu_line(buf, sizeof buf, e, &ci);
	assert_string_equal(buf, "cpu id=1 task=3 nr=2 rank=123 iter=2 "
	    "left=10");
	ci.task = 0;
	ci.nr = 0;
	format_cpu_line(buf, sizeof buf, e, &ci);
	assert_string_equal(buf, "cpu id=1 task=0 nr=0 rank=- iter=- left=-");

	protocol_text_line(buf, sizeof buf, "event", 9, "hog\nsleeps");
	assert_string_equal(buf, "event tick=9 text=hog sleeps");
	/* DEL too, as the scenario and status lines blank it. */
	protocol_text_line(buf, sizeof buf, "event", 9, "hog\x7fsleeps");
	assert_string_equal(buf, "event tick=9 text=hog sleeps");
	n = protocol_text_line(buf, 20, "caption", 1, "a long caption text");
	assert_int_equal(n, 19);
	assert_int_equal(strlen(buf), 19);
	engine_free(e);
}

/* Random bytes never crash the parser, and causes are always set. */
static void
test_fuzz(void **state)
{
	static const char *words[] = { "sleep", "nice", "add", "spawn", "--",
	    "nice=", "cpus=", "pattern=", "1", "-1", "2,40", "hog", " ", "step",
	    "speed", "0.5", "runtime=", "subscribe", "x", "\t" };
	struct cmd	 cmd;
	char			 line[256], *cause;
	int			 i, j, n;

	srandom(1);
	for (i = 0; i < 20000; i++) {
		n = 0;
		if (i % 2) {
			for (j = random() % 10; j > 0; j--)
				n += snprintf(line + n, sizeof line - n, "%s ",
				    words[random() % 20]);
		} else {
			for (j = random() % 60; j > 0; j--)
				line[n++] = (char)(1 + random() % 255);
			line[n] = '\0';
		}
		cause = NULL;
		if (cmd_parse(line, &cmd, &cause) == 0)
			cmd_free(&cmd);
		else {
			assert_non_null(cause);
			assert_null(strchr(cause, '\n'));
			free(cause);
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_command_table),
		cmocka_unit_test(test_wire),
		cmocka_unit_test(test_simple),
		cmocka_unit_test(test_task_commands),
		cmocka_unit_test(test_add_spawn),
		cmocka_unit_test(test_clock_commands),
		cmocka_unit_test(test_view),
		cmocka_unit_test(test_quote),
		cmocka_unit_test(test_tokenizer),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_run_items),
		cmocka_unit_test(test_fuzz),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
