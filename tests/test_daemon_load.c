/*
 * test_daemon_load.c -- stairsd under many and misbehaving clients: 200
 * clients that vanish mid-line, 60 clients at once, a subscriber that
 * never reads (the daemon's memory stays flat, frames are dropped and
 * counted), a client that sends commands but never reads replies.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "daemon_harness.h"

/* 200 clients connect, send half a line and vanish; all is well. */
static void
test_vanishing(void **state)
{
	struct td	 t;
	struct tconn	*c;
	int		 fds[200], i;

	td_init(&t, "realtime = false;\nmax_clients = 300;\n", NULL);
	td_start(&t);
	for (i = 0; i < 200; i++) {
		fds[i] = td_connect_once(t.sock);
		assert_true(fds[i] >= 0);
		if (i % 3 == 0)
			(void)write(fds[i], "sleep ho", 8);
		else if (i % 3 == 1)
			(void)write(fds[i], "subscribe 60\nstat", 17);
	}
	for (i = 0; i < 200; i++)
		close(fds[i]);
	assert_non_null(c = tc_open(&t));
	/* The daemon notices every close: one client left (us). */
	TD_UNTIL(tc_status(c, "clients") == 1,
	    "the daemon to count one client (us) after 200 closed");
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

/* 60 clients at once, each gets its own replies. */
static void
test_sixty(void **state)
{
	struct td	 t;
	struct tconn	*c[60];
	char		 data[4096], final[256], cmd[64], want[64];
	int		 i;

	td_init(&t, "realtime = false;\nmax_clients = 64;\n", NULL);
	td_start(&t);
	for (i = 0; i < 60; i++) {
		assert_non_null(c[i] = tc_open(&t));
		assert_string_equal(c[i]->greet, "stairs 2 " STAIRS_VERSION);
	}
	/* All send before any reads. */
	for (i = 0; i < 60; i++) {
		snprintf(cmd, sizeof cmd, "add t%d", i);
		tc_sendf(c[i], "%s", cmd);
	}
	for (i = 0; i < 60; i++) {
		assert_int_equal(tc_line(c[i], final, sizeof final,
		    TD_DEADLINE_MS), 0);
		assert_true(strncmp(final, "ok ", 3) == 0);
	}
	for (i = 0; i < 60; i++) {
		assert_int_equal(tc_cmd(c[i], "status", data, sizeof data,
		    final, sizeof final), 0);
		assert_string_equal(final, "ok");
		assert_int_equal(td_field(data, "tasks"), 62);
		assert_int_equal(td_field(data, "clients"), 60);
	}
	for (i = 0; i < 60; i++) {
		snprintf(cmd, sizeof cmd, "kill t%d", i);
		snprintf(want, sizeof want, "ok");
		assert_int_equal(tc_cmd(c[i], cmd, NULL, 0, final,
		    sizeof final), 0);
		assert_string_equal(final, want);
	}
	for (i = 0; i < 60; i++)
		tc_close(c[i]);
	assert_int_equal(td_stop(&t), 0);
}

/*
 * A subscriber that never reads: big frames at 60 fps pile up against
 * the bound, the daemon's RSS stays flat, other clients are served, and
 * when it reads at last, dropped=N says how many frames it missed.
 */
static void
test_stalled_subscriber(void **state)
{
	struct td	 t;
	struct tconn	*s, *c;
	char		 line[8192], final[256], cmd[64];
	long		 rss1, rss2, end;
	long long	 dropped = 0;
	int		 i, sz = 4096;

	td_init(&t, "realtime = false;\nmax_fps = 60;\n", NULL);
	td_start(&t);
	assert_non_null(c = tc_open(&t));
	/* Many tasks: a frame is ~60 KB. */
	for (i = 0; i < 400; i++) {
		snprintf(cmd, sizeof cmd, "add task%d pattern=3,%d", i,
		    5 + i % 50);
		tc_sendf(c, "%s", cmd);
	}
	for (i = 0; i < 400; i++)
		assert_int_equal(tc_line(c, final, sizeof final,
		    TD_DEADLINE_MS), 0);
	assert_non_null(s = tc_open(&t));
	setsockopt(s->fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof sz);
	tc_sendf(s, "subscribe 60");
	/* Let the queue fill up to its bound, then measure. */
	end = td_ms() + 1500;
	while (td_ms() < end)
		assert_true(tc_status(c, "tick") >= 0);
	rss1 = td_rss(t.pid);
	end = td_ms() + 3000;
	while (td_ms() < end)
		assert_true(tc_status(c, "tick") >= 0);
	rss2 = td_rss(t.pid);
	fprintf(stderr, "# VmRSS %ld kB then %ld kB\n", rss1, rss2);
	assert_true(rss1 > 0 && rss2 > 0);
	/* 3 s of 60 fps x 60 KB unbounded would be > 10 MB. */
	assert_true(rss2 - rss1 < 4096);

	/* Reading at last: some frame reports what was dropped. */
	end = td_ms() + TD_DEADLINE_MS;
	while (dropped <= 0 && td_ms() < end) {
		assert_int_equal(tc_line(s, line, sizeof line,
		    TD_DEADLINE_MS), 0);
		if (strncmp(line, "frame ", 6) == 0)
			dropped = td_field(line, "dropped");
	}
	fprintf(stderr, "# a frame said dropped=%lld\n", dropped);
	assert_true(dropped > 0);
	tc_close(s);
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

/* A client that sends commands and never reads: the daemon stays flat. */
static void
test_never_reads_replies(void **state)
{
	struct td	 t;
	struct tconn	*s, *c;
	char		 buf[1024];
	long		 rss1, rss2, end;
	int		 i, flags, sz = 4096;

	td_init(&t, "realtime = false;\n", NULL);
	td_start(&t);
	assert_non_null(c = tc_open(&t));
	for (i = 0; i < 200; i++)
		tc_sendf(c, "add t%d", i);
	for (i = 0; i < 200; i++)
		assert_int_equal(tc_line(c, buf, sizeof buf, TD_DEADLINE_MS),
		    0);
	assert_non_null(s = tc_open(&t));
	setsockopt(s->fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof sz);
	flags = fcntl(s->fd, F_GETFL);
	fcntl(s->fd, F_SETFL, flags | O_NONBLOCK);
	memset(buf, 0, sizeof buf);
	for (i = 0; i + 6 < (int)sizeof buf; i += 6)
		memcpy(buf + i, "tasks\n", 6);
	end = td_ms() + 1500;
	while (td_ms() < end)
		(void)write(s->fd, buf, i);	/* until the socket fills */
	rss1 = td_rss(t.pid);
	end = td_ms() + 1500;
	while (td_ms() < end) {
		(void)write(s->fd, buf, i);
		td_nap(1);
	}
	rss2 = td_rss(t.pid);
	fprintf(stderr, "# VmRSS %ld kB then %ld kB\n", rss1, rss2);
	assert_true(rss2 - rss1 < 4096);
	/* Others are still served. */
	TD_UNTIL(tc_status(c, "tasks") == 202,
	    "another client's status to say tasks=202");
	tc_close(s);
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vanishing),
		cmocka_unit_test(test_sixty),
		cmocka_unit_test(test_stalled_subscriber),
		cmocka_unit_test(test_never_reads_replies),
	};

	signal(SIGPIPE, SIG_IGN);
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
