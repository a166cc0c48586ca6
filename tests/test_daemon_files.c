/*
 * test_daemon_files.c -- what stairsd reads, against real daemons: only
 * regular files are read (the config, the scenario and every @include),
 * at start-up as "FILE:LINE: message" and exit 2, at SIGHUP as a logged
 * error while the daemon keeps serving with its old settings; a FIFO in
 * place of the config does not hang a reload; integers that do not fit
 * are refused rather than wrapped; add and spawn refuse the names ".",
 * ".." and "-".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "daemon_harness.h"

/* Run stairsd with args to completion; its exit status (or -1). */
static int
run_status(struct td *t, char *const argv[])
{
	pid_t	pid = td_spawn(t, argv);
	int	st = td_wait(pid, TD_DEADLINE_MS);

	if (st == -1) {
		kill(pid, SIGKILL);
		td_wait(pid, TD_DEADLINE_MS);
		return (-1);
	}
	if (!WIFEXITED(st))
		return (-1);
	return (WEXITSTATUS(st));
}

/* Wait until the log contains s. */
static int
wait_log(struct td *t, const char *s)
{
	long	end = td_ms() + TD_DEADLINE_MS;

	while (td_ms() < end) {
		if (td_log_has(t, s))
			return (0);
		td_nap(10);
	}
	td_dump_log(t);
	return (-1);
}

/* The log must contain s; print it if not. */
static void
log_has(struct td *t, const char *s)
{
	if (!td_log_has(t, s)) {
		td_dump_log(t);
		fail_msg("the log lacks \"%s\"", s);
	}
}

/* A numeric field of the status line, or -1 (final sized for any line). */
static long long
status_field(struct tconn *c, const char *key)
{
	static char	data[8192], final[8192];

	if (tc_cmd(c, "status", data, sizeof data, final, sizeof final) != 0)
		return (-1);
	return (td_field(data, key));
}

/* The daemon answers status and its clock moves. */
static void
still_serving(struct td *t, struct tconn *c)
{
	long long	tick;
	long		end = td_ms() + TD_DEADLINE_MS;

	assert_true((tick = status_field(c, "tick")) >= 0);
	while (status_field(c, "tick") <= tick) {
		assert_true(td_ms() < end);
		td_nap(10);
	}
}

/* Start-up: directories, FIFOs and @include of them are FILE:LINE, 2. */
static void
test_startup(void **state)
{
	struct td	 t;
	char		 want[PATH_MAX + 128];
	char		*av[] = { "-f", "-c", t.cfg, "-S", t.sock, "--scenario",
			    t.scen, NULL };
	char		*dir[] = { "-f", "-c", t.dir, "-S", t.sock, NULL };
	char		*scen_dir[] = { "-f", "-c", t.cfg, "-S", t.sock,
			    "--scenario", t.dir, NULL };

	td_init(&t, "realtime = false;\n@include \"/tmp\"\n", NULL);
	assert_int_equal(run_status(&t, av), 2);
	log_has(&t, "stairsd.cfg:2: @include \"/tmp\": not a regular file "
	    "(a directory)");
	assert_false(td_log_has(&t, "flex"));

	td_write(t.log, "");
	assert_int_equal(run_status(&t, dir), 2);
	snprintf(want, sizeof want, "%s: not a regular file (a directory)",
	    t.dir);
	log_has(&t, want);
	assert_false(td_log_has(&t, "Success"));

	td_write(t.log, "");
	td_write(t.cfg, "realtime = false;\n");
	assert_int_equal(run_status(&t, scen_dir), 2);
	log_has(&t, want);

	td_write(t.log, "");
	td_write(t.scen, "name = \"x\";\n\n@include \"/tmp\"\n");
	assert_int_equal(run_status(&t, av), 2);
	log_has(&t, "scenario.cfg:3: @include \"/tmp\": not a regular file "
	    "(a directory)");

	/* A FIFO as the config: refused at once, not waited on. */
	td_write(t.log, "");
	unlink(t.cfg);
	assert_int_equal(mkfifo(t.cfg, 0600), 0);
	assert_int_equal(run_status(&t, av), 2);
	log_has(&t, "stairsd.cfg: not a regular file (a FIFO)");
	td_stop(&t);
}

/* Start-up: integers that do not fit are FILE:LINE, exit 2. */
static void
test_startup_numbers(void **state)
{
	struct td	 t;
	char		*av[] = { "-f", "-c", t.cfg, "-S", t.sock, "--scenario",
			    t.scen, NULL };

	td_init(&t, "realtime = false;\ncpus = 4294967298;\n", NULL);
	assert_int_equal(run_status(&t, av), 2);
	log_has(&t, "stairsd.cfg:2: cpus = 4294967298: ");

	td_write(t.log, "");
	td_write(t.cfg, "realtime = false;\n");
	td_write(t.scen, "tasks = (\n { name = \"a\"; nice = 4294967295; }\n"
	    ");\n");
	assert_int_equal(run_status(&t, av), 2);
	log_has(&t, "scenario.cfg:2: nice = 4294967295: ");

	td_write(t.log, "");
	td_write(t.scen, "tasks = ( { name = \"a\"; } );\nevents = (\n"
	    " { at = 4294967296; action = \"kill\"; task = \"a\"; }\n);\n");
	assert_int_equal(run_status(&t, av), 2);
	log_has(&t, "scenario.cfg:3: at = 4294967296: ");
	td_stop(&t);
}

/* SIGHUP with an @include of a directory: logged, old settings kept. */
static void
test_reload_include(void **state)
{
	struct td	 t;
	struct tconn	*c;

	td_init(&t, "realtime = false;\nspeed = 1.0;\n", NULL);
	td_start(&t);
	assert_true(t.pid > 0);
	assert_non_null(c = tc_open(&t));
	td_write(t.cfg, "realtime = false;\nspeed = 2;\n@include \"/tmp\"\n");
	kill(t.pid, SIGHUP);
	assert_int_equal(wait_log(&t, "reload failed, keeping the running "
	    "settings: "), 0);
	log_has(&t, "stairsd.cfg:3: @include \"/tmp\": not a regular file "
	    "(a directory)");
	still_serving(&t, c);
	assert_int_equal(waitpid(t.pid, NULL, WNOHANG), 0);
	assert_true(status_field(c, "speed") == 1);

	/* Numbers that do not fit: the same. */
	td_write(t.cfg, "realtime = false;\nmax_clients = 4294967295;\n");
	kill(t.pid, SIGHUP);
	assert_int_equal(wait_log(&t, "stairsd.cfg:2: max_clients = "
	    "4294967295: "), 0);
	still_serving(&t, c);
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

/* SIGHUP with a FIFO for the config: no hang, still serving, clean exit. */
static void
test_reload_fifo(void **state)
{
	struct td	 t;
	struct tconn	*c;
	int		 st;

	td_init(&t, "realtime = false;\n", NULL);
	td_start(&t);
	assert_true(t.pid > 0);
	assert_non_null(c = tc_open(&t));
	assert_int_equal(unlink(t.cfg), 0);
	assert_int_equal(mkfifo(t.cfg, 0600), 0);
	kill(t.pid, SIGHUP);
	assert_int_equal(wait_log(&t, "reload failed, keeping the running "
	    "settings: "), 0);
	log_has(&t, "stairsd.cfg: not a regular file (a FIFO)");
	still_serving(&t, c);

	/* A FIFO included by a regular config: the same. */
	assert_int_equal(unlink(t.cfg), 0);
	td_write(t.cfg, "realtime = false;\n@include \"fifo.cfg\"\n");
	{
		char	fifo[PATH_MAX + 16];

		snprintf(fifo, sizeof fifo, "%s/fifo.cfg", t.dir);
		assert_int_equal(mkfifo(fifo, 0600), 0);
	}
	kill(t.pid, SIGHUP);
	assert_int_equal(wait_log(&t, "stairsd.cfg:2: @include \"fifo.cfg\": "
	    "not a regular file (a FIFO)"), 0);
	still_serving(&t, c);
	tc_close(c);
	st = td_stop(&t);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

/* add and spawn refuse the reserved names, as scenario files do. */
static void
test_reserved_names(void **state)
{
	static char	 data[8192], final[8192];
	struct td	 t;
	struct tconn	*c;
	const char	*cmds[] = { "add .", "add ..", "add -",
			    "spawn - -- true", "spawn .. -- true", NULL };
	int		 i;

	td_init(&t, NULL, NULL);
	td_start(&t);
	assert_true(t.pid > 0);
	assert_non_null(c = tc_open(&t));
	for (i = 0; cmds[i] != NULL; i++) {
		assert_int_equal(tc_cmd(c, cmds[i], data, sizeof data, final,
		    sizeof final), 0);
		if (strncmp(final, "err bad name", 12) != 0)
			fail_msg("%s: %s", cmds[i], final);
	}
	assert_int_equal(tc_cmd(c, "add ...", data, sizeof data, final,
	    sizeof final), 0);
	assert_string_equal(final, "ok 3");
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_startup),
		cmocka_unit_test(test_startup_numbers),
		cmocka_unit_test(test_reload_include),
		cmocka_unit_test(test_reload_fifo),
		cmocka_unit_test(test_reserved_names),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
