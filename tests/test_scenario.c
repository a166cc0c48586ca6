/*
 * test_scenario.c -- scenario files (scenario.c): a complete file loads
 * with every field, every kind of bad input gives "FILE:LINE: message"
 * with the right line, and scenario_apply sets an engine up (groups,
 * tasks, events resolved to ids, command tasks refused or spawned).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include <cmocka.h>

#include "catalog.h"
#include "engine.h"
#include "scenario.h"

static const char good[] =
"# a complete scenario\n"					/* 1 */
"name = \"full\";\n"						/* 2 */
"description = \"Every key.\";\n"				/* 3 */
"cpus = 4;\n"							/* 4 */
"rr_interval = 8;\n"						/* 5 */
"sleep_min = 2;\n"						/* 6 */
"balance_interval = 50;\n"					/* 7 */
"groups = (\n"							/* 8 */
"  { name = \"batch\"; cpus = \"2-3\"; },\n"			/* 9 */
"  { name = \"fg\"; cpus = 0; }\n"				/* 10 */
");\n"								/* 11 */
"tasks = (\n"							/* 12 */
"  { name = \"hog\"; nice = -5; },\n"				/* 13 */
"  { name = \"editor\"; pattern = [ 2, 40, 3, 7 ]; cpus = \"0,1\";\n"	/* 14 */
"    start = 100; runtime = 5000L; group = \"fg\"; },\n"	/* 15 */
"  { name = \"burn\"; nice = 19;\n"				/* 16 */
"    command = [ \"stairs-load\", \"--run\", \"30\" ]; group = \"batch\"; }\n"
");\n"								/* 18 */
"events = (\n"							/* 19 */
"  { at = 500; action = \"sleep\"; task = \"hog\"; ms = 100; },\n"	/* 20 */
"  { at = 700; action = \"nice\"; task = \"hog\"; value = 5; },\n"	/* 21 */
"  { at = 800; action = \"affinity\"; task = \"editor\"; cpus = \"1\"; },\n"
"  { at = 900; action = \"caption\"; text = \"Climbing\"; },\n"	/* 23 */
"  { at = 1200; action = \"kill\"; task = \"burn\"; }\n"		/* 24 */
");\n";

/* Assert that s begins with prefix. */
static void
assert_prefix(const char *s, const char *prefix)
{
	if (strncmp(s, prefix, strlen(prefix)) != 0)
		fail_msg("want \"%s...\", got \"%s\"", prefix, s);
}

/* Load text that must fail; check "bad.cfg:LINE: " and each word. */
static void
expect_error(const char *text, int line, ...)
{
	struct scenario	*sc;
	va_list		 ap;
	const char	*word;
	char		*cause = NULL, prefix[64];

	sc = scenario_load_string(text, "bad.cfg", &cause);
	if (sc != NULL)
		fail_msg("loaded but should not have:\n%s", text);
	assert_non_null(cause);
	snprintf(prefix, sizeof prefix, "bad.cfg:%d: ", line);
	if (strncmp(cause, prefix, strlen(prefix)) != 0)
		fail_msg("want \"%s...\", got \"%s\"", prefix, cause);
	va_start(ap, line);
	while ((word = va_arg(ap, const char *)) != NULL) {
		if (strstr(cause, word) == NULL)
			fail_msg("\"%s\" lacks \"%s\"", cause, word);
	}
	va_end(ap);
	free(cause);
}

/* Load text that must succeed. */
static struct scenario *
load_ok(const char *text)
{
	struct scenario	*sc;
	char		*cause = NULL;

	sc = scenario_load_string(text, "ok.cfg", &cause);
	if (sc == NULL)
		fail_msg("did not load: %s", cause);
	return (sc);
}

/* eevdf's base_slice: kept, and applied over the defaults. */
static void
test_base_slice(void **state)
{
	struct scenario		*sc = load_ok("base_slice = 7;\n");
	struct engine_params	 p;

	assert_true(sc->has_base_slice);
	assert_int_equal(sc->base_slice, 7);
	engine_params_default(&p);
	assert_int_equal(p.base_slice, 3);
	scenario_params(sc, &p);
	assert_int_equal(p.base_slice, 7);
	scenario_free(sc);
}

/* A file with every key loads with every field. */
static void
test_good(void **state)
{
	struct scenario		*sc = load_ok(good);
	struct scenario_task	*t;
	struct scenario_event	*ev;
	struct engine_params	 p;

	assert_string_equal(sc->name, "full");
	assert_string_equal(sc->description, "Every key.");
	assert_string_equal(sc->path, "ok.cfg");
	assert_true(sc->has_cpus);
	assert_int_equal(sc->cpus, 4);
	assert_true(sc->has_rr);
	assert_int_equal(sc->rr_interval, 8);
	assert_true(sc->has_sleep_min);
	assert_int_equal(sc->sleep_min, 2);
	assert_true(sc->has_balance);
	assert_int_equal(sc->balance_interval, 50);

	engine_params_default(&p);
	scenario_params(sc, &p);
	assert_int_equal(p.cpus, 4);
	assert_int_equal(p.rr_interval, 8);
	assert_int_equal(p.sleep_min, 2);
	assert_int_equal(p.balance_interval, 50);

	assert_int_equal(sc->ngroups, 2);
	assert_string_equal(sc->groups[0].name, "batch");
	assert_string_equal(sc->groups[0].cpus, "2-3");
	assert_int_equal(cpumask_count(&sc->groups[0].mask), 2);
	assert_true(cpumask_test(&sc->groups[0].mask, 3));
	assert_int_equal(sc->groups[0].line, 9);
	assert_string_equal(sc->groups[1].cpus, "0");
	assert_true(cpumask_test(&sc->groups[1].mask, 0));

	assert_int_equal(sc->ntasks, 3);
	t = &sc->tasks[0];
	assert_string_equal(t->name, "hog");
	assert_int_equal(t->nice, -5);
	assert_int_equal(t->start, 0);
	assert_null(t->pattern);
	assert_int_equal(t->npattern, 0);
	assert_int_equal(t->runtime, 0);
	assert_false(t->has_cpus);
	assert_null(t->group);
	assert_null(t->argv);
	assert_int_equal(t->line, 13);
	t = &sc->tasks[1];
	assert_string_equal(t->name, "editor");
	assert_int_equal(t->npattern, 4);
	assert_int_equal(t->pattern[0], 2);
	assert_int_equal(t->pattern[1], 40);
	assert_int_equal(t->pattern[3], 7);
	assert_true(t->has_cpus);
	assert_string_equal(t->cpus, "0,1");
	assert_int_equal(cpumask_count(&t->mask), 2);
	assert_int_equal(t->start, 100);
	assert_int_equal(t->runtime, 5000);
	assert_string_equal(t->group, "fg");
	assert_int_equal(t->line, 14);
	t = &sc->tasks[2];
	assert_int_equal(t->nice, 19);
	assert_non_null(t->argv);
	assert_string_equal(t->argv[0], "stairs-load");
	assert_string_equal(t->argv[2], "30");
	assert_null(t->argv[3]);
	assert_string_equal(t->group, "batch");
	assert_int_equal(scenario_ncommands(sc), 1);

	assert_int_equal(sc->nevents, 5);
	ev = sc->events;
	assert_int_equal(ev[0].at, 500);
	assert_int_equal(ev[0].action, SCENARIO_SLEEP);
	assert_string_equal(ev[0].task, "hog");
	assert_int_equal(ev[0].value, 100);
	assert_int_equal(ev[0].line, 20);
	assert_int_equal(ev[1].action, SCENARIO_NICE);
	assert_int_equal(ev[1].value, 5);
	assert_int_equal(ev[2].action, SCENARIO_AFFINITY);
	assert_string_equal(ev[2].cpus, "1");
	assert_true(cpumask_test(&ev[2].mask, 1));
	assert_int_equal(cpumask_count(&ev[2].mask), 1);
	assert_int_equal(ev[3].action, SCENARIO_CAPTION);
	assert_null(ev[3].task);
	assert_string_equal(ev[3].text, "Climbing");
	assert_int_equal(ev[4].action, SCENARIO_KILL);
	assert_string_equal(ev[4].task, "burn");
	assert_int_equal(ev[4].at, 1200);
	scenario_free(sc);
}

/* Defaults: no name gives the label's base name; no overrides. */
static void
test_defaults(void **state)
{
	struct scenario	*sc;
	char		*cause = NULL;

	sc = scenario_load_string("tasks = ( { name = \"a\"; } );",
	    "dir/sub/quiet.cfg", &cause);
	assert_non_null(sc);
	assert_string_equal(sc->name, "quiet");
	assert_null(sc->description);
	assert_false(sc->has_cpus || sc->has_rr || sc->has_sleep_min ||
	    sc->has_balance);
	assert_int_equal(sc->ngroups + sc->nevents, 0);
	assert_int_equal(sc->tasks[0].nice, 0);
	scenario_free(sc);

	/* An empty scenario is fine: tasks can be added live. */
	sc = load_ok("");
	assert_int_equal(sc->ntasks, 0);
	scenario_free(sc);
}

/* Files that cannot be read. */
static void
test_not_found(void **state)
{
	char	*cause = NULL;

	assert_null(scenario_load_file("/nonexistent/nope.cfg", &cause));
	assert_string_equal(cause,
	    "/nonexistent/nope.cfg: No such file or directory");
	free(cause);
	/* A directory opens but cannot be read: say so, do not exit. */
	assert_null(scenario_load_file("/tmp", &cause));
	assert_string_equal(cause, "/tmp: not a regular file (a directory)");
	free(cause);
}

/* A file on disk: errors name the path. */
static void
test_file(void **state)
{
	char		 path[] = "/tmp/test_scenario.XXXXXX";
	struct scenario	*sc;
	char		*cause = NULL, *want;
	FILE		*f;
	int		 fd;

	assert_true((fd = mkstemp(path)) >= 0);
	assert_non_null(f = fdopen(fd, "w"));
	fputs("name = \"x\";\n\ntasks = ( { name = \"a\"; nise = 3; } );\n",
	    f);
	fclose(f);
	assert_null(sc = scenario_load_file(path, &cause));
	want = NULL;
	assert_true(asprintf(&want, "%s:3: unknown task key \"nise\"",
	    path) > 0);
	assert_prefix(cause, want);
	free(want);
	free(cause);
	unlink(path);
}

/* libconfig syntax errors keep their line. */
static void
test_syntax(void **state)
{
	expect_error("name = \"x\";\ntasks = (\n { name = \"a\"; nice = ; }\n"
	    ");\n", 3, "syntax error", NULL);
	expect_error("cpus = 1;\ncpus = 2;\n", 2, "duplicate", NULL);
}

/* Unknown keys at every level, and keys on the wrong action. */
static void
test_unknown_keys(void **state)
{
	expect_error("name = \"x\";\n\ncolour = 3;\n", 3,
	    "unknown top-level key \"colour\"", NULL);
	expect_error("tasks = (\n { name = \"a\";\n   prio = 3; }\n);\n", 3,
	    "unknown task key \"prio\"", "nice", NULL);
	expect_error("groups = (\n { name = \"g\"; cpus = \"0\"; cpu = 1; }\n"
	    ");\n", 2, "unknown group key \"cpu\"", NULL);
	expect_error("tasks = ( { name = \"a\"; } );\nevents = (\n"
	    " { at = 1; action = \"kill\"; task = \"a\"; when = 3; }\n);\n",
	    3, "unknown event key \"when\"", NULL);
	/* A real key on the wrong action. */
	expect_error("tasks = ( { name = \"a\"; } );\nevents = (\n"
	    " { at = 1; action = \"kill\"; task = \"a\";\n   ms = 3; }\n);\n",
	    4, "\"ms\" does not belong in a kill event", NULL);
	expect_error("events = (\n { at = 1; action = \"caption\"; "
	    "text = \"x\"; task = \"a\"; }\n);\n", 2,
	    "\"task\" does not belong in a caption event", NULL);
}

/* Values out of range, negative times. */
static void
test_ranges(void **state)
{
	expect_error("tasks = (\n { name = \"a\"; nice = 20; }\n);\n", 2,
	    "nice 20 is outside -20..19", NULL);
	expect_error("tasks = (\n { name = \"a\"; nice = -21; }\n);\n", 2,
	    "nice -21", NULL);
	expect_error("\ncpus = 0;\n", 2, "cpus 0 is outside 1..256", NULL);
	expect_error("cpus = 257;\n", 1, "cpus 257", NULL);
	expect_error("rr_interval = 0;\n", 1, "rr_interval 0", NULL);
	expect_error("sleep_min = -1;\n", 1, "sleep_min", "negative", NULL);
	expect_error("balance_interval = 0;\n", 1, "balance_interval 0",
	    NULL);
	expect_error("base_slice = 0;\n", 1, "base_slice 0 is outside 1..100",
	    NULL);
	expect_error("\nbase_slice = 101;\n", 2, "base_slice 101", NULL);
	expect_error("tasks = (\n { name = \"a\"; runtime = 0; }\n);\n", 2,
	    "runtime 0", NULL);
	expect_error("tasks = (\n { name = \"a\";\n start = -5; }\n);\n", 3,
	    "start -5 is negative", NULL);
	expect_error("tasks = ( { name = \"a\"; } );\nevents = (\n"
	    " { at = -1; action = \"kill\"; task = \"a\"; }\n);\n", 3,
	    "at -1 is negative", NULL);
	expect_error("tasks = ( { name = \"a\"; } );\nevents = (\n"
	    " { at = 1; action = \"sleep\"; task = \"a\"; ms = 0; }\n);\n", 3,
	    "ms 0", NULL);
	expect_error("tasks = ( { name = \"a\"; } );\nevents = (\n"
	    " { at = 1; action = \"nice\"; task = \"a\"; value = 40; }\n);\n",
	    3, "nice value 40 is outside -20..19", NULL);
}

/* Values of the wrong type. */
static void
test_types(void **state)
{
	expect_error("tasks = (\n { name = \"a\"; nice = \"high\"; }\n);\n",
	    2, "nice must be an integer, not a string", NULL);
	expect_error("tasks = (\n { name = \"a\"; nice = 1.5; }\n);\n", 2,
	    "nice must be an integer, not a float", NULL);
	expect_error("name = 3;\n", 1, "name must be a string", NULL);
	expect_error("\ntasks = 3;\n", 2, "tasks must be a list", NULL);
	expect_error("tasks = ( 3 );\n", 1, "each entry of tasks", NULL);
	expect_error("tasks = {\n name = \"a\";\n};\n", 1,
	    "tasks must be a list", NULL);
	expect_error("tasks = (\n { name = \"a\"; cpus = true; }\n);\n", 2,
	    "cpu list", NULL);
	expect_error("tasks = (\n { name = \"a\"; pattern = 3; }\n);\n", 2,
	    "pattern must be a list", NULL);
	expect_error("tasks = (\n { name = \"a\"; pattern = ( 3, \"x\" ); }"
	    "\n);\n", 2, "pattern values must be integers", NULL);
	expect_error("tasks = (\n { name = \"a\"; command = \"ls\"; }\n);\n",
	    2, "command must be a list of strings", NULL);
	expect_error("tasks = (\n { name = \"a\"; command = ( \"ls\", 3 ); }"
	    "\n);\n", 2, "command arguments must be strings", NULL);
	expect_error("tasks = (\n { name = \"a\"; group = 1; }\n);\n", 2,
	    "group must be a string", NULL);
	expect_error("tasks = ( { name = \"a\"; } );\nevents = (\n"
	    " { at = 1; action = 3; task = \"a\"; }\n);\n", 3,
	    "action must be a string", NULL);
}

/* Task and group names: duplicates, characters, length. */
static void
test_names(void **state)
{
	expect_error("tasks = (\n { name = \"a\"; },\n { name = \"b\"; },\n"
	    " { name = \"a\"; }\n);\n", 4,
	    "duplicate task name \"a\" (first at line 2)", NULL);
	expect_error("groups = (\n { name = \"g\"; cpus = \"0\"; },\n"
	    " { name = \"g\"; cpus = \"0\"; }\n);\n", 3,
	    "duplicate group name \"g\"", NULL);
	expect_error("tasks = (\n { name = \"a b\"; }\n);\n", 2,
	    "task name \"a b\" has a bad character", NULL);
	expect_error("tasks = (\n { name = \"caf\xc3\xa9\"; }\n);\n", 2,
	    "bad character", NULL);
	expect_error("tasks = (\n { name = \"\"; }\n);\n", 2,
	    "task name is empty", NULL);
	expect_error("tasks = (\n { name = \"abcdefghijklmnopqrstuvwxyz012345"
	    "6\"; }\n);\n", 2, "too long", "33 characters", NULL);
	expect_error("tasks = (\n { name = \"42\"; }\n);\n", 2,
	    "all digits", NULL);
	expect_error("groups = (\n { name = \"a/b\"; cpus = \"0\"; }\n);\n", 2,
	    "group name \"a/b\" has a bad character", NULL);
	/* 31 characters of every allowed kind is fine. */
	scenario_free(load_ok("tasks = ( { name = \"Az09_.-abcdefghijklmnopq"
	    "rstuvw\"; } );"));
}

/* A scratch directory for file tests; removed by rm_dir. */
static void
make_dir(char *dir)
{
	assert_non_null(mkdtemp(dir));
}

/* Remove a scratch directory and what is in it. */
static void
rm_dir(const char *dir)
{
	char	cmd[512];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* Write text to dir/name; the full path in out. */
static void
put_file(const char *dir, const char *name, const char *text, char *out,
    size_t size)
{
	FILE	*f;

	snprintf(out, size, "%s/%s", dir, name);
	assert_non_null(f = fopen(out, "w"));
	fputs(text, f);
	fclose(f);
}

/* Load path, which must fail with a cause starting with want. */
static void
file_error(const char *path, const char *want)
{
	struct scenario	*sc;
	char		*cause = NULL;

	alarm(10);	/* a hang is a failure, not a stuck suite */
	sc = scenario_load_file(path, &cause);
	alarm(0);
	if (sc != NULL)
		fail_msg("%s loaded but should not have", path);
	assert_non_null(cause);
	assert_prefix(cause, want);
	assert_null(strstr(cause, "Success"));
	free(cause);
}

/* Only regular files are read: FIFOs and directories, even included. */
static void
test_not_regular(void **state)
{
	char		 dir[] = "/tmp/test_scenario.XXXXXX";
	char		 path[256], fifo[256], want[512];
	struct scenario	*sc;
	char		*cause = NULL;

	make_dir(dir);
	snprintf(fifo, sizeof fifo, "%s/fifo.cfg", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	snprintf(want, sizeof want, "%s: not a regular file (a FIFO)", fifo);
	file_error(fifo, want);
	snprintf(want, sizeof want, "%s: not a regular file (a directory)",
	    dir);
	file_error(dir, want);
	file_error("/dev/null", "/dev/null: not a regular file (a device)");

	/* An @include of a directory: FILE:LINE of the @include. */
	put_file(dir, "inc-dir.cfg", "name = \"x\";\n@include \"/tmp\"\n",
	    path, sizeof path);
	snprintf(want, sizeof want, "%s:2: @include \"/tmp\": not a regular "
	    "file (a directory)", path);
	file_error(path, want);
	/* Of a FIFO, relative to the scenario's directory: no hang. */
	put_file(dir, "inc-fifo.cfg", "\n\n  @include \"fifo.cfg\"\n", path,
	    sizeof path);
	snprintf(want, sizeof want, "%s:3: @include \"fifo.cfg\": not a "
	    "regular file (a FIFO)", path);
	file_error(path, want);
	/* Nested: the inner file names itself. */
	put_file(dir, "outer.cfg", "@include \"inc-dir.cfg\"\n", path,
	    sizeof path);
	snprintf(want, sizeof want, "%s/inc-dir.cfg:2: @include \"/tmp\"",
	    dir);
	file_error(path, want);
	/* An include that includes itself stops. */
	put_file(dir, "self.cfg", "@include \"self.cfg\"\n", path,
	    sizeof path);
	snprintf(want, sizeof want, "%s/self.cfg:1: ", dir);
	file_error(path, want);
	/* Commented out or inside a string: not an include. */
	put_file(dir, "inc.cfg", "tasks = ( { name = \"a\"; } );\n", path,
	    sizeof path);
	put_file(dir, "ok.cfg", "/*\n@include \"/tmp\"\n*/\n"
	    "description = \"x\n@include \\\"/tmp\\\"\n\";\n"
	    "# @include \"/tmp\"\n@include \"inc.cfg\"\n", path, sizeof path);
	alarm(10);
	sc = scenario_load_file(path, &cause);
	alarm(0);
	if (sc == NULL)
		fail_msg("%s", cause);
	assert_int_equal(sc->ntasks, 1);
	scenario_free(sc);
	/* A bad setting in an included file names that file. */
	put_file(dir, "bad-inc.cfg", "tasks = (\n { name = \"a\"; nise = 3; "
	    "}\n);\n", path, sizeof path);
	put_file(dir, "outer2.cfg", "name = \"x\";\n@include \"bad-inc.cfg\"\n",
	    path, sizeof path);
	snprintf(want, sizeof want, "%s/bad-inc.cfg:2: unknown task key", dir);
	file_error(path, want);
	/* A string's include names the string. */
	expect_error("name = \"x\";\n@include \"/tmp\"\n", 2, "@include",
	    "not a regular file (a directory)", NULL);
	rm_dir(dir);
}

/*
 * Lines around an @include: an error in an included file names that
 * file and its line (also after one with no last newline, or indented),
 * one in the including file after the include its own line, libconfig's
 * syntax errors too; an include that ends inside a string is refused
 * (spliced, it would swallow what follows).
 */
static void
test_include_lines(void **state)
{
	char	 dir[] = "/tmp/test_scenario.XXXXXX", sub[64];
	char	 path[256], want[512];

	make_dir(dir);
	snprintf(sub, sizeof sub, "%s/sub", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	put_file(sub, "three.cfg", "cpus = 1;\n\n"
	    "tasks = ( { name = \"a\"; } );", path, sizeof path);
	put_file(dir, "main3.cfg", "name = \"x\";\n@include \"sub/three.cfg\"\n"
	    "bogus = 1;\n", path, sizeof path);
	snprintf(want, sizeof want, "%s:3: unknown top-level key \"bogus\"",
	    path);
	file_error(path, want);
	put_file(sub, "four.cfg", "cpus = 1;\n\ntasks = ( { name = \"a\"; "
	    "nise = 1; } );", path, sizeof path);
	put_file(dir, "main4.cfg", "name = \"x\";\n"
	    "  @include \"sub/four.cfg\"\ndescription = \"y\";\n", path,
	    sizeof path);
	snprintf(want, sizeof want, "%s/four.cfg:3: unknown task key", sub);
	file_error(path, want);
	put_file(sub, "syntax.cfg", "cpus = 1;\ncpus = ;\n", path,
	    sizeof path);
	put_file(dir, "main5.cfg", "name = \"x\";\n\n"
	    "@include \"sub/syntax.cfg\"\n", path, sizeof path);
	snprintf(want, sizeof want, "%s/syntax.cfg:2: ", sub);
	file_error(path, want);
	put_file(sub, "open.cfg", "cpus = 1;\ndescription = \"x\n", path,
	    sizeof path);
	put_file(dir, "main6.cfg", "@include \"sub/open.cfg\"\n\";\n", path,
	    sizeof path);
	snprintf(want, sizeof want, "%s/open.cfg:3: ends inside a string",
	    sub);
	file_error(path, want);
	rm_dir(dir);
}

/* Load path, which must succeed with one task named want. */
static void
load_one_task(const char *path, const char *want)
{
	struct scenario	*sc;
	char		*cause = NULL;

	alarm(10);
	sc = scenario_load_file(path, &cause);
	alarm(0);
	if (sc == NULL)
		fail_msg("%s: %s", path, cause);
	assert_int_equal(sc->ntasks, 1);
	assert_string_equal(sc->tasks[0].name, want);
	scenario_free(sc);
}

/*
 * An @include resolves against the directory of the file that holds it
 * (SPEC.md section 12), whatever the current directory, nested ones
 * too, and an error two includes down names its file; decoys of the
 * same names beside the top file must not be read.
 */
static void
test_include_dir(void **state)
{
	char	 dir[] = "/tmp/test_scenario.XXXXXX", sub[64];
	char	 path[256], want[512], cwd[4096], *base;

	make_dir(dir);
	snprintf(sub, sizeof sub, "%s/sub", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	assert_non_null(getcwd(cwd, sizeof cwd));

	put_file(sub, "more.cfg", "tasks = ( { name = \"inner\"; } );\n",
	    path, sizeof path);
	put_file(sub, "tasks.cfg", "\n@include \"more.cfg\"\n", path,
	    sizeof path);
	put_file(dir, "more.cfg", "tasks = ( { name = \"decoy\"; } );\n",
	    path, sizeof path);
	put_file(dir, "main.cfg", "name = \"nested\";\ncpus = 1;\n"
	    "@include \"sub/tasks.cfg\"\n"
	    "events = ( { at = 5; action = \"caption\"; text = \"x\"; } );\n",
	    path, sizeof path);
	/* From / with the absolute path, from its parent with a relative. */
	assert_int_equal(chdir("/"), 0);
	load_one_task(path, "inner");
	assert_int_equal(chdir("/tmp"), 0);
	base = strrchr(dir, '/') + 1;
	snprintf(path, sizeof path, "%s/main.cfg", base);
	load_one_task(path, "inner");
	assert_int_equal(chdir(cwd), 0);

	/*
	 * The text it keeps has every include spliced in: loaded as a
	 * string from elsewhere, after the included file changed, it is
	 * the same scenario (what a journal replays).
	 */
	{
		struct scenario	*sc, *again;
		char		*cause = NULL;

		snprintf(path, sizeof path, "%s/main.cfg", dir);
		assert_non_null(sc = scenario_load_file(path, &cause));
		assert_non_null(sc->text);
		assert_null(strstr(sc->text, "@include"));
		assert_non_null(strstr(sc->text, "\"inner\""));
		put_file(sub, "more.cfg", "tasks = ( { name = \"changed\"; } );\n",
		    want, sizeof want);
		assert_int_equal(chdir("/"), 0);
		again = scenario_load_string(sc->text, "journal", &cause);
		assert_int_equal(chdir(cwd), 0);
		assert_non_null(again);
		assert_int_equal(again->ntasks, 1);
		assert_string_equal(again->tasks[0].name, "inner");
		assert_int_equal(again->nevents, 1);
		assert_string_equal(again->text, sc->text);
		scenario_free(again);
		scenario_free(sc);
	}

	/* A bad key two includes down names its own file. */
	put_file(sub, "bad.cfg", "tasks = (\n { name = \"a\"; nise = 3; }\n"
	    ");\n", path, sizeof path);
	put_file(dir, "bad.cfg", "tasks = ( { name = \"decoy\"; } );\n",
	    path, sizeof path);
	put_file(sub, "inc-bad.cfg", "@include \"bad.cfg\"\n", path,
	    sizeof path);
	put_file(dir, "main2.cfg", "name = \"x\";\n"
	    "@include \"sub/inc-bad.cfg\"\n", path, sizeof path);
	snprintf(want, sizeof want, "%s/bad.cfg:2: unknown task key", sub);
	file_error(path, want);
	rm_dir(dir);
}

/* A line of /proc/self/status in kB ("VmHWM:"), or -1. */
static long
status_kb(const char *key)
{
	char	 line[256];
	long	 kb = -1;
	FILE	*f;

	if ((f = fopen("/proc/self/status", "r")) == NULL)
		return (-1);
	while (fgets(line, sizeof line, f) != NULL) {
		if (strncmp(line, key, strlen(key)) == 0)
			kb = strtol(line + strlen(key), NULL, 10);
	}
	fclose(f);
	return (kb);
}

/* Reset the peak RSS (VmHWM) to the current RSS; 0 if the kernel can. */
static int
reset_peak(void)
{
	FILE	*f;
	int	 rc;

	if ((f = fopen("/proc/self/clear_refs", "w")) == NULL)
		return (-1);
	rc = fputs("5", f) == EOF ? -1 : 0;
	if (fclose(f) != 0)
		rc = -1;
	return (rc);
}

/* Files too large or with a NUL byte are refused, not half read. */
static void
test_file_limits(void **state)
{
	char	 dir[] = "/tmp/test_scenario.XXXXXX";
	char	 path[256], want[512];
	long	 before, peak;
	FILE	*f;

	make_dir(dir);
	snprintf(path, sizeof path, "%s/big.cfg", dir);
	assert_non_null(f = fopen(path, "w"));
	fputs("name = \"big\";\n# ", f);
	assert_int_equal(ftruncate(fileno(f), (65 << 20)), 0);
	fclose(f);
	snprintf(want, sizeof want, "%s: larger than 64 MiB", path);
	/* Refused by its size, not after reading it into 128 MiB. */
	if (reset_peak() == 0 && (before = status_kb("VmRSS:")) > 0) {
		file_error(path, want);
		peak = status_kb("VmHWM:");
		print_message("65 MiB file: peak RSS %ld -> %ld kB\n", before,
		    peak);
		assert_true(peak - before < 16 * 1024);
	} else
		file_error(path, want);

	snprintf(path, sizeof path, "%s/nul.cfg", dir);
	assert_non_null(f = fopen(path, "w"));
	fwrite("name = \"x\";\0tasks = 3;\n", 1, 23, f);
	fclose(f);
	snprintf(want, sizeof want, "%s: has a NUL byte", path);
	file_error(path, want);
	rm_dir(dir);
}

/* Integers are read whole: nothing wraps to a small number. */
static void
test_wide_numbers(void **state)
{
	const char	*task_keys[] = { "nice", "start", "runtime", NULL };
	char		 text[512];
	int		 i;

	expect_error("tasks = (\n { name = \"a\"; nice = 4294967295; }\n);\n",
	    2, "4294967295", NULL);
	expect_error("tasks = ( { name = \"a\"; } );\nevents = (\n"
	    " { at = 4294967296; action = \"kill\"; task = \"a\"; }\n);\n",
	    3, "4294967296", NULL);
	expect_error("\ncpus = 4294967298;\n", 2, "4294967298", NULL);
	expect_error("cpus = 4294967298L;\n", 1, "cpus 4294967298 is outside",
	    NULL);
	expect_error("rr_interval = -4294967295;\n", 1, "-4294967295", NULL);
	expect_error("sleep_min = 99999999999999999999;\n", 1,
	    "99999999999999999999", NULL);
	expect_error("balance_interval = 0x100000064;\n", 1, "0x100000064",
	    NULL);
	expect_error("balance_interval = 0xFFFFFFFF;\n", 1, "0xFFFFFFFF",
	    NULL);
	expect_error("rr_interval = 99999999999999999999L;\n", 1,
	    "99999999999999999999L", NULL);
	for (i = 0; task_keys[i] != NULL; i++) {
		snprintf(text, sizeof text, "tasks = (\n { name = \"a\";\n"
		    "   %s = 4294967297; }\n);\n", task_keys[i]);
		expect_error(text, 3, "4294967297", NULL);
	}
	expect_error("tasks = (\n { name = \"a\"; pattern = [ 2,\n"
	    " 4294967336 ]; }\n);\n", 3, "4294967336", NULL);
	expect_error("tasks = (\n { name = \"a\"; cpus = 4294967296; }\n);\n",
	    2, "4294967296", NULL);
	expect_error("tasks = ( { name = \"a\"; } );\nevents = (\n"
	    " { at = 1; action = \"sleep\"; task = \"a\";\n"
	    "   ms = 4294967297; }\n);\n", 4, "4294967297", NULL);
	expect_error("tasks = ( { name = \"a\"; } );\nevents = (\n"
	    " { at = 1; action = \"nice\"; task = \"a\";\n"
	    "   value = 4294967295; }\n);\n", 4, "4294967295", NULL);
	expect_error("tasks = ( { name = \"a\"; } );\nevents = (\n"
	    " { at = 1; action = \"affinity\"; task = \"a\";\n"
	    "   cpus = 4294967296L; }\n);\n", 4, "4294967296", NULL);
	/* 64-bit values in range still load; floats are not integers. */
	scenario_free(load_ok("tasks = ( { name = \"a\"; start = 4294967296L; "
	    "cpus = 1L; } );\nevents = ( { at = 5000000000L; action = "
	    "\"caption\"; text = \"12345678901 -99999999999 0x123456789\"; "
	    "} );\n# 99999999999\n"));
	expect_error("tasks = ( { name = \"a\"; nice = 12345678901.5; } );\n",
	    1, "nice must be an integer, not a float", NULL);
}

/* Names that read as paths or as the protocol's "none" are refused. */
static void
test_reserved_names(void **state)
{
	const char	*names[] = { ".", "..", "-", NULL };
	char		 text[256];
	int		 i;

	for (i = 0; names[i] != NULL; i++) {
		snprintf(text, sizeof text, "tasks = (\n { name = \"%s\"; }\n"
		    ");\n", names[i]);
		expect_error(text, 2, "is reserved", NULL);
		snprintf(text, sizeof text, "groups = (\n { name = \"%s\"; "
		    "cpus = \"0\"; }\n);\n", names[i]);
		expect_error(text, 2, "is reserved", NULL);
	}
	/* Names that merely contain them are fine. */
	scenario_free(load_ok("tasks = ( { name = \"...\"; }, { name = \"-x\"; "
	    "}, { name = \"a.b\"; }, { name = \"--\"; } );"));
}

/* A 100 000-task scenario: text with a duplicate at line dup (0: none). */
static char *
big_scenario(int ntasks, int dup)
{
	size_t	 size = (size_t)ntasks * 64 + 256, off = 0;
	char	*text = malloc(size);
	int	 i;

	assert_non_null(text);
	off += snprintf(text + off, size - off, "tasks = (\n");
	for (i = 0; i < ntasks; i++)
		off += snprintf(text + off, size - off,
		    " { name = \"t%d\"; pattern = [ 1, %d ]; }%s\n",
		    i + 2 == dup ? 0 : i, i % 97 + 1,
		    i + 1 < ntasks ? "," : "");
	off += snprintf(text + off, size - off, ");\nevents = (\n"
	    " { at = 10; action = \"kill\"; task = \"t%d\"; }\n);\n",
	    ntasks - 1);
	return (text);
}

/*
 * How many tasks or groups the "many" tests load: 100 000, but 20 000
 * under AddressSanitizer, where libconfig's lists, grown by realloc a few
 * entries at a time, are copied whole on every growth (ASan's realloc
 * always moves): 100 000 took 108 s there against 2 s plain.
 */
#if defined(__SANITIZE_ADDRESS__)
#define MANY	20000
#else
#define MANY	100000
#endif

/* Many tasks load, and a duplicate at the end is found (in little time). */
static void
test_many_tasks(void **state)
{
	struct scenario	*sc;
	struct engine_params	 p;
	struct engine		*e;
	char			*text, *cause = NULL;
	char			 last[16], past[16];
	int			 n = MANY;

	text = big_scenario(n, 0);
	sc = load_ok(text);
	assert_int_equal(sc->ntasks, (size_t)n);
	snprintf(last, sizeof last, "t%d", n - 1);
	snprintf(past, sizeof past, "t%d", n);
	assert_int_equal(scenario_find_task(sc, last), n - 1);
	assert_int_equal(scenario_find_task(sc, "t0"), 0);
	assert_int_equal(scenario_find_task(sc, past), -1);
	engine_params_default(&p);
	e = engine_create(&p, &engine_policy_staircase);
	assert_int_equal(scenario_apply(sc, e, NULL, NULL, &cause), 0);
	assert_int_equal(engine_task_find(e, last), n);
	engine_free(e);
	scenario_free(sc);
	free(text);

	/* The last task repeats the first: line n + 1 and line 2. */
	text = big_scenario(n, n + 1);
	expect_error(text, n + 1, "duplicate task name \"t0\" (first at line "
	    "2)", NULL);
	free(text);
}

/* Patterns: odd or empty, non-positive values. */
static void
test_patterns(void **state)
{
	expect_error("tasks = (\n { name = \"a\";\n pattern = [ 2, 40, 3 ]; }"
	    "\n);\n", 3, "pattern has 3 values", "even", NULL);
	expect_error("tasks = (\n { name = \"a\"; pattern = [ ]; }\n);\n", 2,
	    "pattern has 0 values", NULL);
	expect_error("tasks = (\n { name = \"a\"; pattern = [ 2, 0 ]; }\n);\n",
	    2, "pattern value 0 (item 2) must be a positive", NULL);
	expect_error("tasks = (\n { name = \"a\"; pattern = [ -2, 5 ]; }\n"
	    ");\n", 2, "pattern value -2 (item 1)", NULL);
	/* An element on its own line is reported there. */
	expect_error("tasks = (\n { name = \"a\"; pattern = [ 2,\n 0 ]; }\n"
	    ");\n", 3, "pattern value 0", NULL);
}

/* Commands: not with a pattern, not empty. */
static void
test_commands(void **state)
{
	expect_error("tasks = (\n { name = \"a\"; pattern = [ 1, 1 ];\n"
	    "   command = [ \"ls\" ]; }\n);\n", 3,
	    "task \"a\" has both pattern and command", NULL);
	expect_error("tasks = (\n { name = \"a\"; command = [ ]; }\n);\n", 2,
	    "command is empty", NULL);
	expect_error("tasks = (\n { name = \"a\"; command = ( \"\" ); }\n);\n",
	    2, "empty program name", NULL);
}

/* References to unknown tasks, groups and actions. */
static void
test_references(void **state)
{
	expect_error("tasks = ( { name = \"a\"; } );\nevents = (\n"
	    " { at = 1; action = \"kill\";\n   task = \"b\"; }\n);\n", 4,
	    "unknown task \"b\" in kill event", NULL);
	expect_error("groups = ( { name = \"g\"; cpus = \"0\"; } );\n"
	    "tasks = (\n { name = \"a\"; group = \"h\"; }\n);\n", 3,
	    "task \"a\" is in unknown group \"h\"", NULL);
	expect_error("tasks = ( { name = \"a\"; } );\nevents = (\n"
	    " { at = 1; action = \"explode\"; task = \"a\"; }\n);\n", 3,
	    "unknown action \"explode\"", "sleep, nice", NULL);
}

/* Required keys left out. */
static void
test_missing(void **state)
{
	expect_error("tasks = (\n { nice = 3; }\n);\n", 2,
	    "task has no name", NULL);
	expect_error("groups = (\n { cpus = \"0\"; }\n);\n", 2,
	    "group has no name", NULL);
	expect_error("groups = (\n { name = \"g\"; }\n);\n", 2,
	    "group \"g\" has no cpus", NULL);
	expect_error("tasks = ( { name = \"a\"; } );\nevents = (\n"
	    " { action = \"kill\"; task = \"a\"; }\n);\n", 3,
	    "kill event has no at", NULL);
	expect_error("tasks = ( { name = \"a\"; } );\nevents = (\n"
	    " { at = 5; task = \"a\"; }\n);\n", 3, "event has no action",
	    NULL);
	expect_error("events = (\n { at = 5; action = \"kill\"; }\n);\n", 2,
	    "kill event has no task", NULL);
	expect_error("tasks = ( { name = \"a\"; } );\nevents = (\n"
	    " { at = 5; action = \"sleep\"; task = \"a\"; }\n);\n", 3,
	    "sleep event has no ms", NULL);
	expect_error("tasks = ( { name = \"a\"; } );\nevents = (\n"
	    " { at = 5; action = \"nice\"; task = \"a\"; }\n);\n", 3,
	    "nice event has no value", NULL);
	expect_error("tasks = ( { name = \"a\"; } );\nevents = (\n"
	    " { at = 5; action = \"affinity\"; task = \"a\"; }\n);\n", 3,
	    "affinity event has no cpus", NULL);
	expect_error("events = (\n { at = 5; action = \"caption\"; }\n);\n", 2,
	    "caption event has no text", NULL);
}

/* CPU lists: bad syntax at load, outside the engine's CPUs at check. */
static void
test_cpus(void **state)
{
	struct scenario	*sc;
	char		*cause = NULL;

	expect_error("tasks = (\n { name = \"a\"; cpus = \"0-\"; }\n);\n", 2,
	    "bad cpu list", NULL);
	expect_error("tasks = (\n { name = \"a\"; cpus = \"\"; }\n);\n", 2,
	    "bad cpu list", NULL);
	expect_error("tasks = (\n { name = \"a\"; cpus = \"300\"; }\n);\n", 2,
	    "cpu 300 is outside", NULL);

	sc = load_ok("cpus = 2;\ngroups = (\n { name = \"g\";\n"
	    "   cpus = \"1\"; }\n);\ntasks = (\n { name = \"a\";\n"
	    "   cpus = \"0-3\"; }\n);\nevents = (\n { at = 1; "
	    "action = \"affinity\"; task = \"a\";\n   cpus = \"5\"; }\n);\n");
	assert_int_equal(scenario_check(sc, 8, &cause), 0);
	assert_int_equal(scenario_check(sc, 4, &cause), -1);
	assert_string_equal(cause, "ok.cfg:12: affinity cpus \"5\": cpu 5 is "
	    "outside 0..3 (the engine has 4 cpus)");
	free(cause);
	assert_int_equal(scenario_check(sc, 2, &cause), -1);
	assert_string_equal(cause, "ok.cfg:8: task cpus \"0-3\": cpu 3 is "
	    "outside 0..1 (the engine has 2 cpus)");
	free(cause);
	assert_int_equal(scenario_check(sc, 1, &cause), -1);
	assert_prefix(cause, "ok.cfg:4: group cpus \"1\": cpu 1 is outside");
	free(cause);
	scenario_free(sc);

	/* A task whose cpus and group do not overlap runs nowhere. */
	sc = load_ok("groups = ( { name = \"g\"; cpus = \"1\"; } );\n"
	    "tasks = (\n { name = \"a\"; cpus = \"0\"; group = \"g\"; }\n);\n");
	assert_int_equal(scenario_check(sc, 2, &cause), -1);
	assert_prefix(cause, "ok.cfg:3: task \"a\" may run on no cpu");
	free(cause);
	scenario_free(sc);
}

/* What spawn_cb saw. */
struct spawned {
	int	calls;
	int	id;
	char	name[32];
	int	fail;
};

/* The spawn callback used by test_apply: records what it saw. */
static int
spawn_cb(void *arg, struct engine *e, int id, const struct scenario_task *t,
    char **cause)
{
	struct spawned	*s = arg;

	s->calls++;
	s->id = id;
	snprintf(s->name, sizeof s->name, "%s", t->name);
	if (s->fail) {
		*cause = strdup("cannot start it");
		return (-1);
	}
	return (0);
}

/* An engine with the scenario's parameters. */
static struct engine *
engine_for(const struct scenario *sc)
{
	struct engine_params	p;

	engine_params_default(&p);
	scenario_params(sc, &p);
	return (engine_create(&p, &engine_policy_staircase));
}

/* Apply: groups, tasks, events; command tasks refused or spawned. */
static void
test_apply(void **state)
{
	struct scenario		*sc = load_ok(good);
	struct engine		*e;
	struct engine_task_info	 ti;
	struct spawned		 sp;
	char			*cause = NULL;
	int			 t;

	/* Without spawn, command tasks are refused before anything. */
	e = engine_for(sc);
	assert_int_equal(scenario_apply(sc, e, NULL, NULL, &cause), -1);
	assert_string_equal(cause, "ok.cfg:16: task \"burn\" runs a command "
	    "(stairs-load); real processes are not run here");
	free(cause);
	assert_int_equal(engine_ntasks(e), 0);
	engine_free(e);

	/* With spawn: everything added, spawn told the real task's id. */
	memset(&sp, 0, sizeof sp);
	e = engine_for(sc);
	assert_int_equal(scenario_apply(sc, e, spawn_cb, &sp, &cause), 0);
	assert_int_equal(sp.calls, 1);
	assert_int_equal(sp.id, 3);
	assert_string_equal(sp.name, "burn");
	assert_int_equal(engine_ntasks(e), 3);
	assert_int_equal(engine_ngroups(e), 2);
	assert_string_equal(engine_group_name(e, 0), "batch");
	assert_int_equal(engine_task_info(e, 2, &ti), 0);
	assert_string_equal(ti.name, "editor");
	assert_int_equal(ti.group, 1);
	assert_int_equal(ti.kind, ENGINE_SIM);
	assert_int_equal(engine_task_info(e, 3, &ti), 0);
	assert_int_equal(ti.kind, ENGINE_REAL);
	assert_int_equal(ti.group, 0);
	assert_int_equal(engine_task_info(e, 1, &ti), 0);
	assert_int_equal(ti.nice, -5);

	/* The events fire on the right tasks at the right ticks. */
	for (t = 0; t <= 700; t++)
		engine_tick(e);
	assert_int_equal(engine_task_info(e, 1, &ti), 0);
	assert_int_equal(ti.nice, 5);
	for (; t <= 900; t++)
		engine_tick(e);
	for (; t <= 1200; t++)
		engine_tick(e);
	assert_int_equal(engine_task_info(e, 3, &ti), 0);
	assert_int_equal(ti.state, ENGINE_EXITED);
	engine_free(e);

	/* A failing spawn names the task and its line. */
	memset(&sp, 0, sizeof sp);
	sp.fail = 1;
	e = engine_for(sc);
	assert_int_equal(scenario_apply(sc, e, spawn_cb, &sp, &cause), -1);
	assert_string_equal(cause,
	    "ok.cfg:16: task \"burn\": cannot start it");
	free(cause);
	engine_free(e);
	scenario_free(sc);
}

/* Apply checks CPUs against the engine it is given, not the file. */
static void
test_apply_cpus(void **state)
{
	struct scenario		*sc;
	struct engine		*e;
	struct engine_params	 p;
	char			*cause = NULL;

	sc = load_ok("cpus = 4;\ntasks = (\n { name = \"a\"; cpus = \"3\"; }\n"
	    ");\n");
	engine_params_default(&p);
	p.cpus = 2;	/* as if --cpus 2 */
	e = engine_create(&p, &engine_policy_staircase);
	assert_int_equal(scenario_apply(sc, e, NULL, NULL, &cause), -1);
	assert_string_equal(cause, "ok.cfg:3: task cpus \"3\": cpu 3 is "
	    "outside 0..1 (the engine has 2 cpus)");
	free(cause);
	engine_free(e);
	scenario_free(sc);
}

/* The compiled-in demo loads, has sim tasks only, and runs. */
static void
test_demo(void **state)
{
	struct scenario	*sc;
	struct engine	*e;
	char		*cause = NULL;
	size_t		 i, ncaptions = 0;
	int		 t;

	sc = scenario_load_string(stairs_demo_scenario, "demo", &cause);
	if (sc == NULL)
		fail_msg("demo: %s", cause);
	assert_int_equal(scenario_ncommands(sc), 0);
	assert_non_null(sc->description);
	/* Captions fit one line of an 80-column client (after its mark). */
	for (i = 0; i < sc->nevents; i++) {
		if (sc->events[i].action != SCENARIO_CAPTION)
			continue;
		ncaptions++;
		if (strlen(sc->events[i].text) > 76)
			fail_msg("demo caption at line %d is %zu long: %s",
			    sc->events[i].line, strlen(sc->events[i].text),
			    sc->events[i].text);
	}
	assert_true(ncaptions >= 5);
	e = engine_for(sc);
	assert_int_equal(scenario_apply(sc, e, NULL, NULL, &cause), 0);
	for (t = 0; t < 60000; t++)
		engine_tick(e);
	/* It keeps going: nothing has run out. */
	assert_int_equal(engine_nlive(e), (int)sc->ntasks);
	engine_free(e);
	scenario_free(sc);
}

/* Many groups: found by name when tasks name them, in the engine too. */
static void
test_many_groups(void **state)
{
	struct engine_params	 p;
	struct scenario		*sc;
	struct engine		*e;
	char			 last[16], past[16];
	size_t			 size = MANY * 48 + 256, off = 0;
	char			*text = malloc(size), *cause = NULL;
	int			 i, n = MANY;

	assert_non_null(text);
	off += snprintf(text + off, size - off, "groups = (\n");
	for (i = 0; i < n; i++)
		off += snprintf(text + off, size - off, " { name = \"g%d\"; "
		    "cpus = \"%d\"; }%s\n", i, i % 2, i + 1 < n ? "," : "");
	snprintf(text + off, size - off, ");\ntasks = ( { name = \"a\"; "
	    "group = \"g%d\"; } );\n", n - 1);
	sc = load_ok(text);
	engine_params_default(&p);
	p.cpus = 2;
	e = engine_create(&p, &engine_policy_staircase);
	assert_int_equal(scenario_apply(sc, e, NULL, NULL, &cause), 0);
	snprintf(last, sizeof last, "g%d", n - 1);
	snprintf(past, sizeof past, "g%d", n);
	assert_int_equal(engine_group_find(e, last), n - 1);
	assert_int_equal(engine_group_find(e, "g0"), 0);
	assert_int_equal(engine_group_find(e, past), -1);
	engine_free(e);
	scenario_free(sc);
	free(text);
}

/* Run the tests. */
int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_base_slice),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_not_found),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_syntax),
		cmocka_unit_test(test_unknown_keys),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_types),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_patterns),
		cmocka_unit_test(test_commands),
		cmocka_unit_test(test_references),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_cpus),
		cmocka_unit_test(test_apply),
		cmocka_unit_test(test_apply_cpus),
		cmocka_unit_test(test_demo),
		cmocka_unit_test(test_not_regular),
		cmocka_unit_test(test_include_lines),
		cmocka_unit_test(test_include_dir),
		cmocka_unit_test(test_file_limits),
		cmocka_unit_test(test_wide_numbers),
		cmocka_unit_test(test_reserved_names),
		cmocka_unit_test(test_many_tasks),
		cmocka_unit_test(test_many_groups),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
