/*
 * test_daemon_life.c -- stairsd's life cycle against real daemons:
 * SIGTERM and shutdown exit 0 and remove the socket, a second daemon on
 * the same socket is refused, a stale socket is replaced, an unsafe
 * directory is refused, detaching returns only once the socket listens,
 * SIGHUP reloads (good, broken and restart-only changes), start-up
 * errors exit 2 with FILE:LINE, and the connection cap.
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

	if (st == -1 || !WIFEXITED(st))
		return (-1);
	return (WEXITSTATUS(st));
}

/* Is path there? */
static int
exists(const char *path)
{
	struct stat	sb;

	return (lstat(path, &sb) == 0);
}

/* Wait until the log contains s; -1 (said) after the deadline. */
static int
wait_log(struct td *t, const char *s)
{
	long	end = td_ms() + TD_DEADLINE_MS;

	while (td_ms() < end) {
		if (td_log_has(t, s))
			return (0);
		td_nap(10);
	}
	td_timed_out(TD_DEADLINE_MS, "\"%s\" in the log", s);
	return (-1);
}

/* SIGTERM: exit 0, socket gone; SIGINT likewise. */
static void
test_sigterm(void **state)
{
	struct td	t;
	int		st;

	td_init(&t, NULL, NULL);
	td_start(&t);
	assert_true(t.pid > 0);
	assert_true(exists(t.sock));
	kill(t.pid, SIGTERM);
	st = td_wait(t.pid, TD_DEADLINE_MS);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_false(exists(t.sock));
	t.pid = 0;

	td_start(&t);
	kill(t.pid, SIGINT);
	st = td_wait(t.pid, TD_DEADLINE_MS);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_false(exists(t.sock));
	t.pid = 0;
	td_stop(&t);
}

/* shutdown: the reply arrives, then the daemon exits 0. */
static void
test_shutdown(void **state)
{
	struct td	 t;
	struct tconn	*c;
	char		 final[256];
	int		 st;

	td_init(&t, NULL, NULL);
	td_start(&t);
	assert_non_null(c = tc_open(&t));
	/*
	 * Commands after shutdown on the same connection are not run: the
	 * reply is "ok" and then the end of the stream.
	 */
	tc_send(c, "shutdown\nstatus\nadd late\n", 25);
	assert_int_equal(tc_line(c, final, sizeof final, TD_DEADLINE_MS), 0);
	assert_string_equal(final, "ok");
	assert_int_equal(tc_line(c, final, sizeof final, TD_DEADLINE_MS), -1);
	st = td_wait(t.pid, TD_DEADLINE_MS);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_false(exists(t.sock));
	t.pid = 0;
	tc_close(c);
	td_stop(&t);
}

/* A second daemon on a live socket is refused with exit 1. */
static void
test_second_refused(void **state)
{
	struct td	 t;
	struct tconn	*c;
	char		*av[] = { "-f", "-c", t.cfg, "-S", t.sock, "--scenario",
			    t.scen, NULL };

	char		*detached[] = { "-c", t.cfg, "-S", t.sock, NULL };

	td_init(&t, NULL, NULL);
	td_start(&t);
	assert_int_equal(run_status(&t, av), 1);
	assert_true(td_log_has(&t, "a daemon is already running on"));
	td_write(t.log, "");
	assert_int_equal(run_status(&t, detached), 1);
	assert_true(td_log_has(&t, "a daemon is already running on"));
	/* The first one is unharmed. */
	assert_non_null(c = tc_open(&t));
	assert_true(tc_status(c, "tick") >= 0);
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

/* A socket left by a dead daemon is replaced. */
static void
test_stale_replaced(void **state)
{
	struct td		 t;
	struct sockaddr_un	 sun;
	struct tconn		*c;
	int			 fd;

	td_init(&t, NULL, NULL);
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	assert_true(strlen(t.sock) < sizeof sun.sun_path);
	memcpy(sun.sun_path, t.sock, strlen(t.sock) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&sun, sizeof sun), 0);
	close(fd);		/* bound, never listened: ECONNREFUSED */
	assert_true(exists(t.sock));
	td_start(&t);
	assert_true(t.pid > 0);
	assert_non_null(c = tc_open(&t));
	assert_string_equal(c->greet, "stairs 2 " STAIRS_VERSION);
	tc_close(c);
	assert_true(td_log_has(&t, "replaced the stale socket"));
	assert_int_equal(td_stop(&t), 0);
}

/* Something that is not a socket, or an unsafe directory: refused. */
static void
test_unsafe_paths(void **state)
{
	struct td	 t;
	char		 dir[PATH_MAX + 32], sock[PATH_MAX + 64];
	char		*av[] = { "-f", "-c", t.cfg, "-S", sock, NULL };

	td_init(&t, NULL, NULL);
	snprintf(sock, sizeof sock, "%s/file", t.dir);
	td_write(sock, "not a socket\n");
	assert_int_equal(run_status(&t, av), 1);
	assert_true(td_log_has(&t, "exists and is not a socket"));

	snprintf(dir, sizeof dir, "%s/open", t.dir);
	assert_int_equal(mkdir(dir, 0777), 0);
	assert_int_equal(chmod(dir, 0777), 0);
	snprintf(sock, sizeof sock, "%s/socket", dir);
	assert_int_equal(run_status(&t, av), 1);
	assert_true(td_log_has(&t, "is writable by others"));

	/* A missing directory is created 0700. */
	snprintf(sock, sizeof sock, "%s/new/socket", t.dir);
	t.pid = td_spawn(&t, av);
	snprintf(t.sock, sizeof t.sock, "%s", sock);
	TD_UNTIL(exists(sock), "the socket %s", sock);
	snprintf(dir, sizeof dir, "%s/new", t.dir);
	{
		struct stat sb;

		assert_int_equal(stat(dir, &sb), 0);
		assert_int_equal(sb.st_mode & 0777, 0700);
		assert_int_equal(stat(sock, &sb), 0);
		assert_int_equal(sb.st_mode & 0077, 0);
	}
	assert_int_equal(td_stop(&t), 0);
}

/*
 * SIGTERM the moment the socket appears, before the daemon has finished
 * starting: still a clean exit, status 0 and the socket removed.  (CI
 * once saw status 15: the socket was made before the signal handlers.)
 */
static void
test_early_sigterm(void **state)
{
	struct td	 t;
	char		 sock[PATH_MAX + 64];
	char		*av[] = { "-f", "-c", t.cfg, "-S", sock, NULL };
	long		 end;
	int		 i;

	for (i = 0; i < 10; i++) {
		td_init(&t, NULL, NULL);
		snprintf(sock, sizeof sock, "%s/socket", t.dir);
		t.pid = td_spawn(&t, av);
		end = td_ms() + TD_DEADLINE_MS;
		while (!exists(sock)) {	/* spin: the window is short */
			if (td_ms() >= end) {
				td_timed_out(TD_DEADLINE_MS, "the socket %s",
				    sock);
				fail();
			}
		}
		kill(t.pid, SIGTERM);
		assert_int_equal(td_wait(t.pid, TD_DEADLINE_MS), 0);
		assert_false(exists(sock));
		t.pid = 0;
		(void)td_stop(&t);	/* nothing left to stop: cleans up */
	}
}

/* Without -f: the parent returns once the socket answers. */
static void
test_detach(void **state)
{
	struct td	 t;
	struct tconn	*c;
	char		 final[256];
	char		*av[] = { "-c", t.cfg, "-S", t.sock, "--scenario",
			    t.scen, NULL };
	long		 end;

	td_init(&t, NULL, NULL);
	assert_int_equal(run_status(&t, av), 0);
	/* Immediately connectable: no polling. */
	assert_non_null(c = tc_open(&t));
	assert_string_equal(c->greet, "stairs 2 " STAIRS_VERSION);
	assert_int_equal(tc_cmd(c, "shutdown", NULL, 0, final, sizeof final),
	    0);
	assert_string_equal(final, "ok");
	tc_close(c);
	end = td_ms() + TD_DEADLINE_MS;
	while (exists(t.sock) && td_ms() < end)
		td_nap(10);
	assert_false(exists(t.sock));
	td_stop(&t);
}

/* Start-up errors: exit 2 with FILE:LINE, nothing left behind. */
static void
test_startup_errors(void **state)
{
	struct td	 t;
	char		*av[] = { "-f", "-c", t.cfg, "-S", t.sock, "--scenario",
			    t.scen, NULL };
	char		*bad[] = { "-f", "--frob", NULL };
	char		*extra[] = { "-f", "-S", t.sock, "x", NULL };
	char		*help[] = { "--help", NULL };
	char		*version[] = { "--version", NULL };

	char		*detached[] = { "-c", t.cfg, "-S", t.sock, NULL };

	td_init(&t, "realtime = false;\n\nspeed = 500;\n", NULL);
	assert_int_equal(run_status(&t, av), 2);
	assert_true(td_log_has(&t, "stairsd.cfg:3: speed 500 is outside "
	    "0.01..100"));
	assert_false(exists(t.sock));
	/* Without -f too: the error reaches the caller's stderr. */
	td_write(t.log, "");
	assert_int_equal(run_status(&t, detached), 2);
	assert_true(td_log_has(&t, "stairsd.cfg:3: speed 500 is outside"));

	td_write(t.cfg, "frob = 1;\n");
	assert_int_equal(run_status(&t, av), 2);
	assert_true(td_log_has(&t, "stairsd.cfg:1: unknown option \"frob\""));

	td_write(t.cfg, "cpus = \"two\";\n");
	assert_int_equal(run_status(&t, av), 2);
	assert_true(td_log_has(&t, "stairsd.cfg:1: cpus must be a whole "
	    "number"));

	td_write(t.cfg, "cpus = 2;\nspeed = ;\n");
	assert_int_equal(run_status(&t, av), 2);
	assert_true(td_log_has(&t, "stairsd.cfg:2: "));

	td_write(t.cfg, "realtime = false;\n");
	td_write(t.scen, "tasks = ( { name = \"a\"; nice = 40; } );\n");
	assert_int_equal(run_status(&t, av), 2);
	assert_true(td_log_has(&t, "scenario.cfg:1: "));
	assert_false(exists(t.sock));

	assert_int_equal(run_status(&t, bad), 2);
	assert_int_equal(run_status(&t, extra), 2);
	assert_true(td_log_has(&t, "unexpected argument \"x\""));
	assert_int_equal(run_status(&t, help), 0);
	assert_true(td_log_has(&t, "usage: stairsd"));
	assert_int_equal(run_status(&t, version), 0);
	assert_true(td_log_has(&t, "stairsd " STAIRS_VERSION));
	td_stop(&t);
}

/* SIGHUP: live options apply, restart-only ones are said, broken kept. */
static void
test_reload(void **state)
{
	struct td	 t;
	struct tconn	*c;
	char		 data[4096], final[256];
	long		 end;

	td_init(&t, "realtime = false;\nspeed = 1.0;\n", NULL);
	td_start(&t);
	assert_non_null(c = tc_open(&t));
	assert_int_equal(tc_cmd(c, "status", data, sizeof data, final,
	    sizeof final), 0);
	assert_non_null(strstr(data, " speed=1 "));

	td_write(t.cfg, "realtime = false;\nspeed = 2.5;\ndefault_sleep = 7;\n"
	    "rr_interval = 20;\n");
	kill(t.pid, SIGHUP);
	end = td_ms() + TD_DEADLINE_MS;
	for (;;) {
		assert_int_equal(tc_cmd(c, "status", data, sizeof data, final,
		    sizeof final), 0);
		if (strstr(data, " speed=2.5 ") != NULL)
			break;
		if (td_ms() >= end) {
			td_timed_out(TD_DEADLINE_MS, "speed=2.5 after SIGHUP");
			fail();
		}
		td_nap(10);
	}
	assert_int_equal(td_field(data, "rr"), 10);	/* needs a restart */
	assert_int_equal(td_field(data, "sleep"), 7);	/* live */
	assert_int_equal(wait_log(&t, "reload: rr_interval 10 -> 20 needs a "
	    "restart"), 0);
	assert_true(td_log_has(&t, "reload: speed 1 -> 2.5"));
	assert_true(td_log_has(&t, "reload: default_sleep 1000 -> 7"));

	/* A broken file: reported, the running settings stay. */
	td_write(t.cfg, "speed = 3;\nthis is not libconfig\n");
	kill(t.pid, SIGHUP);
	assert_int_equal(wait_log(&t, "reload failed, keeping the running "
	    "settings: "), 0);
	assert_true(td_log_has(&t, "stairsd.cfg:2: "));
	assert_int_equal(tc_cmd(c, "status", data, sizeof data, final,
	    sizeof final), 0);
	assert_non_null(strstr(data, " speed=2.5 "));
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

/* max_clients: one more is told "err too many clients" and closed. */
static void
test_max_clients(void **state)
{
	struct td	 t;
	struct tconn	*c[5], *extra;
	char		 line[256];
	long		 end;
	int		 i;

	td_init(&t, "realtime = false;\nmax_clients = 4;\n", NULL);
	td_start(&t);
	for (i = 0; i < 4; i++) {
		assert_non_null(c[i] = tc_open(&t));
		assert_string_equal(c[i]->greet, "stairs 2 " STAIRS_VERSION);
	}
	extra = calloc(1, sizeof *extra);
	extra->fd = td_connect_once(t.sock);
	assert_true(extra->fd >= 0);
	assert_int_equal(tc_line(extra, line, sizeof line, TD_DEADLINE_MS), 0);
	assert_string_equal(line, "err too many clients");
	assert_int_equal(tc_line(extra, line, sizeof line, TD_DEADLINE_MS),
	    -1);
	tc_close(extra);
	/* One leaves: there is room again. */
	tc_close(c[0]);
	end = td_ms() + TD_DEADLINE_MS;
	for (;;) {
		if (td_ms() >= end) {
			td_timed_out(TD_DEADLINE_MS, "room for a client after "
			    "one left");
			fail();
		}
		assert_non_null(c[4] = tc_open(&t));
		if (c[4]->greet[0] == 's')
			break;
		tc_close(c[4]);
		td_nap(10);
	}
	assert_int_equal(tc_status(c[4], "clients"), 4);
	for (i = 1; i < 5; i++)
		tc_close(c[i]);
	assert_int_equal(td_stop(&t), 0);
}

/*
 * Bounded catch-up: a daemon stopped for a second owes ~1000 ticks; it
 * runs at most 100 in the next wake-up and counts the rest as lag.
 */
static void
test_lag(void **state)
{
	struct td	 t;
	struct tconn	*c;
	long long	 t0, t1, lag, lag0;
	long		 end;

	td_init(&t, NULL, NULL);
	td_start(&t);
	assert_non_null(c = tc_open(&t));
	lag0 = tc_status(c, "lag");	/* 0 unless the machine is swamped */
	t0 = tc_status(c, "tick");
	kill(t.pid, SIGSTOP);
	td_nap(1000);
	kill(t.pid, SIGCONT);
	end = td_ms() + TD_DEADLINE_MS;
	while ((lag = tc_status(c, "lag") - lag0) == 0 && td_ms() < end)
		td_nap(1);
	t1 = tc_status(c, "tick");
	fprintf(stderr, "# tick %lld -> %lld, lag %lld\n", t0, t1, lag);
	assert_true(lag >= 500);
	assert_true(t1 > t0);
	assert_true(t1 - t0 + lag >= 1000);
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

/*
 * A peer of another uid is refused (SO_PEERCRED) even when the socket's
 * permissions would let it in.  Needs root, to be another uid.
 */
static void
test_other_uid(void **state)
{
	struct td	 t;
	struct tconn	*c;
	struct pollfd	 pfd;
	char		 line[256];
	pid_t		 pid;
	int		 st, fds[2];

	if (geteuid() != 0) {
		fprintf(stderr, "# skipped: not root\n");
		skip();
	}
	td_init(&t, NULL, NULL);
	assert_int_equal(chmod(t.dir, 0755), 0);
	td_start(&t);
	assert_int_equal(chmod(t.sock, 0777), 0);
	assert_int_equal(pipe(fds), 0);
	if ((pid = fork()) == 0) {
		close(fds[0]);
		if (setgid(65534) != 0 || setuid(65534) != 0)
			_exit(3);
		c = calloc(1, sizeof *c);
		if ((c->fd = td_connect_once(t.sock)) == -1)
			_exit(4);
		if (tc_line(c, line, sizeof line, TD_DEADLINE_MS) != 0)
			_exit(5);
		(void)write(fds[1], line, strlen(line));
		_exit(tc_line(c, line, sizeof line, TD_DEADLINE_MS) == -1 ?
		    0 : 6);
	}
	close(fds[1]);
	memset(line, 0, sizeof line);
	/* The child ends in at most two line deadlines. */
	pfd.fd = fds[0];
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 3 * TD_DEADLINE_MS) == 1)
		(void)read(fds[0], line, sizeof line - 1);
	close(fds[0]);
	if ((st = td_wait(pid, 3 * TD_DEADLINE_MS)) == -1)
		kill(pid, SIGKILL);
	assert_true(st != -1 && WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_string_equal(line, "err permission denied");
	/* We (root) are still served. */
	assert_non_null(c = tc_open(&t));
	assert_string_equal(c->greet, "stairs 2 " STAIRS_VERSION);
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

/*
 * No arguments at all (what the client runs): detached, the demo, on
 * $XDG_RUNTIME_DIR/stairs/socket in a directory made 0700.
 */
static void
test_no_arguments(void **state)
{
	struct td	 t;
	struct tconn	*c;
	struct stat	 sb;
	char		 data[4096], final[256], dir[PATH_MAX + 32];
	char		*none[] = { NULL };
	long		 end;

	td_init(&t, NULL, NULL);
	setenv("XDG_RUNTIME_DIR", t.dir, 1);
	setenv("XDG_CONFIG_HOME", t.dir, 1);	/* no stairs/stairsd.cfg */
	snprintf(t.sock, sizeof t.sock, "%s/stairs/socket", t.dir);
	assert_int_equal(run_status(&t, none), 0);
	snprintf(dir, sizeof dir, "%s/stairs", t.dir);
	assert_int_equal(stat(dir, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0700);
	assert_non_null(c = tc_open(&t));
	assert_int_equal(tc_cmd(c, "status", data, sizeof data, final,
	    sizeof final), 0);
	assert_non_null(strstr(data, " scenario=demo"));
	assert_int_equal(tc_cmd(c, "shutdown", NULL, 0, final, sizeof final),
	    0);
	tc_close(c);
	end = td_ms() + TD_DEADLINE_MS;
	while (exists(t.sock) && td_ms() < end)
		td_nap(10);
	assert_false(exists(t.sock));
	unsetenv("XDG_RUNTIME_DIR");
	unsetenv("XDG_CONFIG_HOME");
	td_stop(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sigterm),
		cmocka_unit_test(test_shutdown),
		cmocka_unit_test(test_second_refused),
		cmocka_unit_test(test_stale_replaced),
		cmocka_unit_test(test_unsafe_paths),
		cmocka_unit_test(test_early_sigterm),
		cmocka_unit_test(test_detach),
		cmocka_unit_test(test_startup_errors),
		cmocka_unit_test(test_reload),
		cmocka_unit_test(test_max_clients),
		cmocka_unit_test(test_no_arguments),
		cmocka_unit_test(test_other_uid),
		cmocka_unit_test(test_lag),
	};

	signal(SIGPIPE, SIG_IGN);
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
