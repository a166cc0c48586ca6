/*
 * test_config.c -- the daemon's configuration: defaults, the shipped
 * config/stairsd.cfg (it must load and equal the defaults), types,
 * bounds, unknown options with FILE:LINE, the reload diff and the XDG
 * default path.
 */
#include <sys/stat.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "config.h"

static char	tmpdir[] = "/tmp/stairs-config-XXXXXX";
static char	path[256];

/* Write text to the test's config file. */
static void
put(const char *text)
{
	FILE	*f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Load text; must fail with a cause containing want. */
static void
bad(const char *text, const char *want)
{
	struct config	 c;
	char		*cause = NULL;

	put(text);
	config_defaults(&c);
	if (config_load(path, &c, &cause) == 0) {
		fprintf(stderr, "loaded: %s\n", text);
		fail();
	}
	if (strstr(cause, want) == NULL) {
		fprintf(stderr, "\"%s\" does not contain \"%s\"\n", cause,
		    want);
		fail();
	}
	free(cause);
	config_free(&c);
}

/* The defaults are the documented ones. */
static void
test_defaults(void **state)
{
	struct config	c;

	config_defaults(&c);
	assert_int_equal(c.cpus, 2);
	assert_int_equal(c.rr_interval, 10);
	assert_int_equal(c.sleep_min, 1);
	assert_int_equal(c.balance_interval, 100);
	assert_true(c.speed == 1.0);
	assert_string_equal(c.socket, "");
	assert_string_equal(c.scenario, "demo");
	assert_int_equal(c.ncpu_map, 0);
	assert_int_equal(c.default_sleep, 1000);
	assert_int_equal(c.max_clients, 64);
	assert_int_equal(c.log_level, LOG_LEVEL_INFO);
	assert_string_equal(c.child_output, "");
	assert_int_equal(c.realtime, 1);
	config_free(&c);
}

/* The shipped file loads and says exactly the defaults. */
static void
test_shipped(void **state)
{
	struct config	 a, b;
	char		*cause = NULL;

	config_defaults(&a);
	config_defaults(&b);
	if (config_load("config/stairsd.cfg", &b, &cause) != 0) {
		fprintf(stderr, "%s\n", cause);
		fail();
	}
	assert_int_equal(config_diff(&a, &b, NULL, NULL), 0);
	config_free(&a);
	config_free(&b);
}

/* Values of every type are read. */
static void
test_values(void **state)
{
	struct config	 c;
	char		*cause = NULL;

	put("cpus = 4;\nspeed = 2;\nsocket = \"/x/s\";\n"
	    "cpu_map = [ 1, 0, 1, 0 ];\n"
	    "log_level = \"debug\";\nrealtime = false;\nmax_clients = 3;\n"
	    "default_sleep = 5;\nobserve = \"proc\";\n");
	config_defaults(&c);
	if (config_load(path, &c, &cause) != 0) {
		fprintf(stderr, "%s\n", cause);
		fail();
	}
	assert_int_equal(c.cpus, 4);
	assert_true(c.speed == 2.0);
	assert_int_equal(c.default_sleep, 5);
	assert_string_equal(c.socket, "/x/s");
	assert_int_equal(c.ncpu_map, 4);
	assert_int_equal(c.cpu_map[0], 1);
	assert_int_equal(c.cpu_map[3], 0);
	assert_int_equal(c.log_level, LOG_LEVEL_DEBUG);
	assert_int_equal(c.realtime, 0);
	assert_int_equal(c.max_clients, 3);
	assert_string_equal(c.observe, "proc");
	config_free(&c);
}

/* Errors: FILE:LINE and what was wrong. */
static void
test_errors(void **state)
{
	char	want[300];

	snprintf(want, sizeof want, "%s:2: unknown option \"frob\"", path);
	bad("cpus = 1;\nfrob = 2;\n", want);
	snprintf(want, sizeof want, "%s:1: cpus 0 is outside 1..256", path);
	bad("cpus = 0;\n", want);
	bad("\n\nrr_interval = 1001;\n", ":3: rr_interval 1001 is outside "
	    "1..1000");
	bad("speed = 0.001;\n", "speed 0.001 is outside 0.01..100");
	bad("speed = \"fast\";\n", "speed must be a number");
	bad("cpus = 1.5;\n", "cpus must be a whole number");
	bad("socket = 3;\n", "socket must be a string");
	bad("realtime = 1;\n", "realtime must be true or false");
	bad("log_level = \"loud\";\n", "log_level \"loud\" is not one of "
	    "error, warn, info, debug");
	bad("observe = \"perf\";\n", "observe \"perf\" is not one of "
	    "events, proc");
	bad("cpu_map = \"0,1\";\n", "cpu_map must be a list");
	bad("cpu_map = [ -1 ];\n", "cpu_map entry 0 is not a CPU number");
	bad("cpus = 3;\ncpu_map = [ 0, 1 ];\n", ":2: cpu_map has 2 entries "
	    "for 3 cpus");
	bad("default_sleep = 0;\n", "default_sleep 0 is outside");
	bad("max_clients = 0;\n", "max_clients 0 is outside 1..10000");
	bad("cpus = ;\n", ":1: ");
	bad("cpus == 2;\n", ":1: ");
	{
		struct config	 c;
		char		*cause = NULL;

		config_defaults(&c);
		assert_int_equal(config_load("/nonexistent/x.cfg", &c,
		    &cause), -1);
		assert_non_null(strstr(cause, "/nonexistent/x.cfg: No such"));
		free(cause);
		config_free(&c);
	}
}

/* Load file (not the test's config), which must fail with want first. */
static void
bad_file(const char *file, const char *want)
{
	struct config	 c;
	char		*cause = NULL;

	config_defaults(&c);
	alarm(10);	/* a hang is a failure, not a stuck suite */
	if (config_load(file, &c, &cause) == 0) {
		fprintf(stderr, "loaded: %s\n", file);
		fail();
	}
	alarm(0);
	if (strncmp(cause, want, strlen(want)) != 0 ||
	    strstr(cause, "Success") != NULL) {
		fprintf(stderr, "\"%s\" does not start with \"%s\"\n", cause,
		    want);
		fail();
	}
	free(cause);
	config_free(&c);
}

/* Only regular files are read, the config and every @include. */
static void
test_not_regular(void **state)
{
	struct config	 c;
	char		 fifo[300], inc[300], want[600], *cause = NULL;

	snprintf(want, sizeof want, "%s: not a regular file (a directory)",
	    tmpdir);
	bad_file(tmpdir, want);
	snprintf(fifo, sizeof fifo, "%s/fifo.cfg", tmpdir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	snprintf(want, sizeof want, "%s: not a regular file (a FIFO)", fifo);
	bad_file(fifo, want);
	bad_file("/dev/null", "/dev/null: not a regular file (a device)");

	snprintf(want, sizeof want, "%s:2: @include \"/tmp\": not a regular "
	    "file (a directory)", path);
	put("cpus = 2;\n@include \"/tmp\"\n");
	bad_file(path, want);
	/* Relative to the config's directory; a FIFO does not hang. */
	snprintf(want, sizeof want, "%s:1: @include \"fifo.cfg\": not a "
	    "regular file (a FIFO)", path);
	put("@include \"fifo.cfg\"\n");
	bad_file(path, want);
	unlink(fifo);

	/* A good include is read, relative to the config's directory. */
	snprintf(inc, sizeof inc, "%s/inc.cfg", tmpdir);
	fclose(fopen(inc, "w"));
	put("@include \"inc.cfg\"\n");
	{
		FILE	*f = fopen(inc, "w");

		assert_non_null(f);
		fputs("\nmax_clients = 0;\n", f);
		fclose(f);
	}
	/* Errors in an included file name that file. */
	snprintf(want, sizeof want, "%s:2: max_clients 0 is outside", inc);
	bad_file(path, want);
	{
		FILE	*f = fopen(inc, "w");

		assert_non_null(f);
		fputs("max_clients = 7;\n", f);
		fclose(f);
	}
	config_defaults(&c);
	if (config_load(path, &c, &cause) != 0) {
		fprintf(stderr, "%s\n", cause);
		fail();
	}
	assert_int_equal(c.max_clients, 7);
	config_free(&c);
	unlink(inc);
}

/* Integers are read whole and checked: nothing wraps. */
static void
test_wide_numbers(void **state)
{
	char	want[300];

	snprintf(want, sizeof want, "%s:2: cpus = 4294967298: ", path);
	bad("\ncpus = 4294967298;\n", want);
	bad("cpus = 4294967298L;\n", ":1: cpus 4294967298 is outside 1..256");
	bad("max_clients = 4294967295;\n", ":1: max_clients = 4294967295: ");
	bad("rr_interval = -4294967286;\n", ":1: rr_interval = -4294967286: ");
	bad("sleep_min = 0x100000001;\n", ":1: sleep_min = 0x100000001: ");
	bad("balance_interval = 99999999999999999999L;\n",
	    ":1: balance_interval = 99999999999999999999L: ");
	bad("default_sleep = 4294968296;\n", ":1: default_sleep = ");
	bad("max_fps = 4294967356;\n", ":1: max_fps = ");
	bad("speed = 4294967297;\n", ":1: speed = 4294967297: ");
	bad("cpus = 2;\ncpu_map = [ 0,\n 4294967297 ];\n",
	    ":3: cpu_map = 4294967297: ");
	bad("cpu_map = [ 4294967297L ];\n", ":1: cpu_map entry 0 is not a CPU");
}

static int	ndiff, nlive;
static char	lastdiff[256];

/* Collect config_diff's calls. */
static void
diff_cb(void *arg, const char *name, const char *old, const char *new,
    int live)
{
	ndiff++;
	nlive += live;
	snprintf(lastdiff, sizeof lastdiff, "%s %s -> %s", name, old, new);
}

/* The reload diff names each change and whether it is live. */
static void
test_diff(void **state)
{
	struct config	a, b;

	config_defaults(&a);
	config_copy(&b, &a);
	assert_int_equal(config_diff(&a, &b, diff_cb, NULL), 0);
	b.speed = 2.5;
	assert_int_equal(config_diff(&a, &b, diff_cb, NULL), 1);
	assert_string_equal(lastdiff, "speed 1 -> 2.5");
	assert_int_equal(nlive, 1);
	b.rr_interval = 20;
	ndiff = nlive = 0;
	assert_int_equal(config_diff(&a, &b, diff_cb, NULL), 2);
	assert_int_equal(nlive, 1);
	free(b.socket);
	b.socket = strdup("/s");
	ndiff = 0;
	config_diff(&a, &b, diff_cb, NULL);
	assert_int_equal(ndiff, 3);
	config_free(&a);
	config_free(&b);
}

/* A reload applies the live options, every one, and only those. */
static void
test_apply_live(void **state)
{
	struct config	a, b;

	config_defaults(&a);
	config_copy(&b, &a);
	b.speed = 2.5;
	b.default_sleep = 7;
	b.max_clients = 3;
	b.log_level = LOG_LEVEL_DEBUG;
	b.max_fps = 5;
	b.max_tasks = 9;
	b.rr_interval = 20;
	free(b.socket);
	b.socket = strdup("/s");
	ndiff = nlive = 0;
	assert_int_equal(config_diff(&a, &b, diff_cb, NULL), 8);
	assert_int_equal(nlive, 6);
	config_apply_live(&a, &b);
	ndiff = nlive = 0;
	assert_int_equal(config_diff(&a, &b, diff_cb, NULL), 2);
	assert_int_equal(nlive, 0);
	assert_true(a.speed == 2.5);
	assert_int_equal(a.max_tasks, 9);
	assert_int_equal(a.rr_interval, 10);
	assert_string_equal(a.socket, "");
	config_free(&a);
	config_free(&b);
}

/* Without -c: $XDG_CONFIG_HOME/stairs/stairsd.cfg if it exists. */
static void
test_default_path(void **state)
{
	char	dir[300], file[320], *p;

	setenv("XDG_CONFIG_HOME", tmpdir, 1);
	assert_null(config_default_path());
	snprintf(dir, sizeof dir, "%s/stairs", tmpdir);
	mkdir(dir, 0700);
	snprintf(file, sizeof file, "%s/stairsd.cfg", dir);
	fclose(fopen(file, "w"));
	assert_non_null(p = config_default_path());
	assert_string_equal(p, file);
	free(p);
	unlink(file);
	rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_shipped),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_diff),
		cmocka_unit_test(test_apply_live),
		cmocka_unit_test(test_default_path),
		cmocka_unit_test(test_not_regular),
		cmocka_unit_test(test_wide_numbers),
	};
	int	rc;

	if (mkdtemp(tmpdir) == NULL)
		return (1);
	snprintf(path, sizeof path, "%s/stairsd.cfg", tmpdir);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	unlink(path);
	rmdir(tmpdir);
	return (rc);
}
