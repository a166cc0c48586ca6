/*
 * test_daemon_bounds.c -- stairsd's promises under hostile clients, each
 * against a real daemon (issue 12, items 3, 5, 6, 7):
 *
 * - memory: stalled subscribers that never read leave VmRSS bounded and
 *   their dropped frames are counted; `add`/`spawn` past max_tasks fail;
 * - a long `step` runs in slices: another client's `status` answers in
 *   the middle, `pause` cancels it, SIGTERM exits at once;
 * - at the open-file limit the listener backs off instead of spinning,
 *   logs little, and serves again once descriptors are free;
 * - error replies quote client input bounded and printable ASCII only.
 *
 * Every wait has a deadline.
 */
#include <sys/resource.h>
#include <sys/socket.h>

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "daemon_harness.h"

/* This test and the daemon are built alike: ASan doubles small blocks. */
#if defined(__SANITIZE_ADDRESS__)
#define TB_ASAN_FACTOR	2
#else
#define TB_ASAN_FACTOR	1
#endif

/* Is every byte of s printable ASCII? */
static int
tb_printable(const char *s)
{
	for (; *s != '\0'; s++) {
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
			return (0);
	}
	return (1);
}

/* The CPU time (user + system) a process used, in clock ticks; -1. */
static long
tb_cputime(pid_t pid)
{
	char		 path[64], buf[1024], *p;
	unsigned long	 ut, st;
	FILE		*f;
	size_t		 n;

	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	if ((f = fopen(path, "r")) == NULL)
		return (-1);
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* After "(comm)": state is field 3, utime 14, stime 15. */
	if ((p = strrchr(buf, ')')) == NULL ||
	    sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
	    &ut, &st) != 2)
		return (-1);
	return ((long)(ut + st));
}

/* How many descriptors a process has open. */
static int
tb_nfds(pid_t pid)
{
	char		 path[64];
	struct dirent	*de;
	DIR		*dir;
	int		 n = 0;

	snprintf(path, sizeof path, "/proc/%ld/fd", (long)pid);
	if ((dir = opendir(path)) == NULL)
		return (-1);
	while ((de = readdir(dir)) != NULL) {
		if (de->d_name[0] != '.')
			n++;
	}
	closedir(dir);
	return (n);
}

/* How many lines of the daemon's log contain s. */
static int
tb_log_count(struct td *t, const char *s)
{
	char	 line[4096];
	FILE	*f;
	int	 n = 0;

	if ((f = fopen(t->log, "r")) == NULL)
		return (0);
	while (fgets(line, sizeof line, f) != NULL) {
		if (strstr(line, s) != NULL)
			n++;
	}
	fclose(f);
	return (n);
}

/* Send cmd, check the reply is a bounded printable err line. */
static void
tb_err_bounded(struct tconn *c, const char *cmd)
{
	char	final[8192];

	assert_int_equal(tc_cmd(c, cmd, NULL, 0, final, sizeof final), 0);
	if (strncmp(final, "err ", 4) != 0 || strlen(final) > 200 ||
	    !tb_printable(final)) {
		fprintf(stderr, "reply to a %zu-byte command: %zu bytes: "
		    "%.300s\n", strlen(cmd), strlen(final), final);
		fail();
	}
}

/* Item 7: error replies quote client input bounded, printable ASCII. */
static void
test_quoting(void **state)
{
	struct td	 t;
	struct tconn	*c, *s;
	char		 cmd[8192], line[8192], big[4001];
	long		 end;
	int		 found = 0;

	td_init(&t, "realtime = false;\n", NULL);
	td_start(&t);
	assert_non_null(c = tc_open(&t));
	assert_non_null(s = tc_open(&t));
	tc_sendf(s, "subscribe 60");

	memset(big, '9', 4000);
	big[4000] = '\0';
	snprintf(cmd, sizeof cmd, "affinity hog %s", big);
	tb_err_bounded(c, cmd);
	snprintf(cmd, sizeof cmd, "add x cpus=%s", big);
	tb_err_bounded(c, cmd);
	snprintf(cmd, sizeof cmd, "affinity hog 0,%s", "\xc3\xa9\xe2\x82\xac");
	tb_err_bounded(c, cmd);
	tb_err_bounded(c, "affinity hog 0\x7f");
	tb_err_bounded(c, "affinity hog 9\x7f\x7f");
	tb_err_bounded(c, "fr\xc3\xb6\x62");
	tb_err_bounded(c, "nice h\xc3\xa9 1");
	tb_err_bounded(c, "nice hog \xff\xfe");
	tb_err_bounded(c, "sleep hog \x7f");
	snprintf(cmd, sizeof cmd, "kill %s", big);
	tb_err_bounded(c, cmd);
	snprintf(cmd, sizeof cmd, "add %s", big);
	tb_err_bounded(c, cmd);
	snprintf(cmd, sizeof cmd, "%s", big);
	tb_err_bounded(c, cmd);
	memset(big, 'a', 4000);
	memcpy(big, "/nonexistent/", 13);
	snprintf(cmd, sizeof cmd, "spawn x -- %s", big);
	tb_err_bounded(c, cmd);
	tb_err_bounded(c, "spawn y -- /nonexistent/\xc3\xa9\x7f");
	/* The short forms still read as before. */
	assert_int_equal(tc_cmd(c, "affinity hog x", NULL, 0, line,
	    sizeof line), 0);
	assert_string_equal(line, "err bad cpu list \"x\" (expected e.g. 0-2,5)");
	assert_int_equal(tc_cmd(c, "spawn z -- /nonexistent/prog", NULL, 0,
	    line, sizeof line), 0);
	assert_string_equal(line, "err cannot start \"/nonexistent/prog\": "
	    "No such file or directory");

	/* The subscriber's event lines about it are bounded too. */
	end = td_ms() + TD_DEADLINE_MS;
	while (!found && td_ms() < end) {
		assert_int_equal(tc_line(s, line, sizeof line, TD_DEADLINE_MS),
		    0);
		if (strncmp(line, "event ", 6) != 0 ||
		    strstr(line, "failed to start") == NULL)
			continue;
		if (strstr(line, "text=x failed") == NULL)
			continue;
		found = 1;
		if (strlen(line) > 200 || !tb_printable(line)) {
			fprintf(stderr, "event: %zu bytes: %.300s\n",
			    strlen(line), line);
			fail();
		}
	}
	assert_true(found);
	tc_close(s);
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

/* Item 3: max_tasks bounds add and spawn, with a clear error. */
static void
test_max_tasks(void **state)
{
	struct td	 t;
	struct tconn	*c;
	char		 final[1024];

	td_init(&t, "realtime = false;\nmax_tasks = 4;\n", NULL);
	td_start(&t);
	assert_non_null(c = tc_open(&t));
	assert_int_equal(tc_cmd(c, "add a", NULL, 0, final, sizeof final), 0);
	assert_string_equal(final, "ok 3");
	assert_int_equal(tc_cmd(c, "add b", NULL, 0, final, sizeof final), 0);
	assert_string_equal(final, "ok 4");
	assert_int_equal(tc_cmd(c, "add c", NULL, 0, final, sizeof final), 0);
	assert_string_equal(final, "err too many tasks (max_tasks 4)");
	assert_int_equal(tc_cmd(c, "spawn d -- stairs-load --run 1 --sleep 1",
	    NULL, 0, final, sizeof final), 0);
	assert_string_equal(final, "err too many tasks (max_tasks 4)");
	assert_int_equal(tc_status(c, "tasks"), 4);
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);

	/* A scenario with more tasks than max_tasks is refused at start. */
	td_init(&t, "realtime = false;\nmax_tasks = 1;\n", NULL);
	td_start(&t);
	assert_int_equal(t.pid, 0);
	assert_true(td_log_has(&t, "2 tasks, more than max_tasks (1)"));
	td_stop(&t);
}

/*
 * A refused scenario leaves nothing held (issue 27 item 8): 150 000
 * tasks against max_tasks 1000 are parsed (libconfig's tree and ours,
 * a hundred MB and more at the peak) and refused, and the daemon's RSS
 * goes back to within 20 MB of what it was.  Not under ASan, whose
 * allocator keeps freed memory on its own terms.
 */
static void
test_refused_big(void **state)
{
#if defined(__SANITIZE_ADDRESS__)
	skip();
#else
	struct td	 t;
	struct tconn	*c;
	char		 final[1024], path[PATH_MAX + 32], cmd[PATH_MAX + 64];
	long		 rss0, rss1, peak;
	FILE		*f;
	int		 i;

	td_init(&t, "realtime = false;\nmax_tasks = 1000;\n", NULL);
	snprintf(path, sizeof path, "%s/many.cfg", t.dir);
	assert_non_null(f = fopen(path, "w"));
	fputs("name = \"many\";\ntasks = (\n", f);
	for (i = 0; i < 150000; i++)
		fprintf(f, "%s{ name = \"t%d\"; }\n", i > 0 ? "," : "", i);
	fputs(");\n", f);
	fclose(f);
	td_start(&t);
	assert_non_null(c = tc_open(&t));
	rss0 = td_rss(t.pid);
	snprintf(cmd, sizeof cmd, "load %s", path);
	assert_int_equal(tc_cmd(c, cmd, NULL, 0, final, sizeof final), 0);
	assert_non_null(strstr(final, "150000 tasks, more than max_tasks"));
	rss1 = td_rss(t.pid);
	peak = td_proc_status(t.pid, "VmHWM:");
	printf("refused: RSS %ld kB before, %ld kB at the peak, %ld kB "
	    "after\n", rss0, peak, rss1);
	assert_true(peak > rss0 + 50000);	/* it did cost */
	assert_true(rss1 < rss0 + 20000);
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
#endif
}

/*
 * Item 3: stalled subscribers that never read.  Each may cost the daemon
 * at most its output bound (1 MiB) of real memory, frame bodies and
 * buffer overhead included; frames past it are dropped and counted.
 */
static void
test_stalled_many(void **state)
{
	struct td	 t;
	struct tconn	*c, *s[16];
	char		 line[8192], cmd[64];
	long		 rss0, rss1, end;
	long long	 dropped = 0;
	int		 i, n = 16, sz = 4096;

	td_init(&t, "realtime = false;\nmax_fps = 120;\nmax_clients = 64;\n",
	    NULL);
	td_start(&t);
	assert_non_null(c = tc_open(&t));
	/*
	 * 10 tasks: small frames (~1.7 KB), where a frame's real cost was
	 * several times the bytes counted (a 64 KiB body for each).
	 */
	for (i = 0; i < 8; i++) {
		snprintf(cmd, sizeof cmd, "add t%d pattern=1,%d", i, 2 + i);
		assert_int_equal(tc_cmd(c, cmd, NULL, 0, line, sizeof line),
		    0);
	}
	rss0 = td_rss(t.pid);
	for (i = 0; i < n; i++) {
		assert_non_null(s[i] = tc_open(&t));
		setsockopt(s[i]->fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof sz);
		tc_sendf(s[i], "subscribe 120");
	}
	/* 8 s: each queue reaches its bound and frames are dropped. */
	end = td_ms() + 8000;
	while (td_ms() < end)
		assert_true(tc_status(c, "tick") >= 0);
	rss1 = td_rss(t.pid);
	fprintf(stderr, "# %d stalled subscribers: VmRSS %ld kB then %ld kB\n",
	    n, rss0, rss1);
	assert_true(rss0 > 0 && rss1 > 0);
	/*
	 * The bound: n MiB at most (twice that under ASan, whose redzones
	 * and shadow double small allocations), and some slack; the bug
	 * this keeps away grew 62 MB here.
	 */
	assert_true(rss1 - rss0 < n * 1024 * TB_ASAN_FACTOR + 8192);

	/* Reading at last: some frame reports what was dropped. */
	end = td_ms() + TD_DEADLINE_MS;
	while (dropped <= 0 && td_ms() < end) {
		assert_int_equal(tc_line(s[0], line, sizeof line,
		    TD_DEADLINE_MS), 0);
		if (strncmp(line, "frame ", 6) == 0)
			dropped = td_field(line, "dropped");
	}
	fprintf(stderr, "# a frame said dropped=%lld\n", dropped);
	assert_true(dropped > 0);
	for (i = 0; i < n; i++)
		tc_close(s[i]);
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

/*
 * Item 3: a frame larger than the output bound still goes, whole, to a
 * subscriber that reads: the first right after subscribe's "ok".
 */
static void
test_big_frame(void **state)
{
	struct td	 t;
	struct tconn	*c, *s;
	char		 line[8192], cmd[64];
	long		 end;
	int		 i, n = 9000, tasks = 0;

	td_init(&t, "realtime = false;\n", NULL);
	td_start(&t);
	assert_non_null(c = tc_open(&t));
	for (i = 0; i < n; i++) {
		snprintf(cmd, sizeof cmd, "add big%d pattern=1,%d", i,
		    2 + i % 50);
		tc_sendf(c, "%s", cmd);
		if (i % 500 == 499 || i == n - 1) {
			while (tasks < i + 1) {
				assert_int_equal(tc_line(c, line, sizeof line,
				    TD_DEADLINE_MS), 0);
				assert_true(strncmp(line, "ok ", 3) == 0);
				tasks++;
			}
		}
	}
	/* Another subscriber first, so the big body exists already. */
	assert_non_null(s = tc_open(&t));
	tc_sendf(s, "subscribe 30");
	assert_int_equal(tc_line(s, line, sizeof line, TD_DEADLINE_MS), 0);
	assert_string_equal(line, "ok");
	assert_int_equal(tc_line(s, line, sizeof line, TD_DEADLINE_MS), 0);
	assert_int_equal(td_field(line, "tasks"), n + 2);

	tc_sendf(c, "subscribe 30");
	assert_int_equal(tc_line(c, line, sizeof line, TD_DEADLINE_MS), 0);
	assert_string_equal(line, "ok");
	assert_int_equal(tc_line(c, line, sizeof line, TD_DEADLINE_MS), 0);
	assert_true(strncmp(line, "frame ", 6) == 0);
	assert_int_equal(td_field(line, "dropped"), 0);
	assert_int_equal(td_field(line, "tasks"), n + 2);
	tasks = 0;
	end = td_ms() + TD_DEADLINE_MS;
	for (;;) {
		assert_true(td_ms() < end);
		assert_int_equal(tc_line(c, line, sizeof line, TD_DEADLINE_MS),
		    0);
		if (strcmp(line, "end") == 0)
			break;
		if (strncmp(line, "task ", 5) == 0)
			tasks++;
	}
	assert_int_equal(tasks, n + 2);
	tc_close(s);
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

/* Start three real tasks (stairs-load) on c. */
static void
tb_spawn_three(struct tconn *c, int real)
{
	char	final[1024], cmd[128];
	int	i;

	for (i = 0; i < 3; i++) {
		if (real)
			snprintf(cmd, sizeof cmd, "spawn burn%d -- stairs-load "
			    "--run 5 --sleep %d", i, 1 + i);
		else
			snprintf(cmd, sizeof cmd, "add burn%d pattern=5,%d", i,
			    1 + i);
		assert_int_equal(tc_cmd(c, cmd, NULL, 0, final, sizeof final),
		    0);
		if (strncmp(final, "ok", 2) != 0) {
			fprintf(stderr, "%s -> %s\n", cmd, final);
			fail();
		}
	}
}

/*
 * Wait until b's status shows the tick past from (a step is under way);
 * each status must answer within 3 s (a loaded machine; the whole step
 * took 16 s in one go).  The tick seen, or -1.
 */
static long long
tb_wait_moving(struct tconn *b, long long from)
{
	long long	tick = from;
	long		t0, end = td_ms() + TD_DEADLINE_MS;

	while (tick == from && td_ms() < end) {
		t0 = td_ms();
		tick = tc_status(b, "tick");
		if (td_ms() - t0 > 3000) {
			fprintf(stderr, "status took %ld ms\n", td_ms() - t0);
			return (-1);
		}
	}
	return (tick);
}

/*
 * Item 5: a long step yields to the loop; pause cancels; SIGTERM exits.
 * Scripted tasks: with real ones a step takes the ticks' wall time
 * (test_paced_step).
 */
static void
test_long_step(void **state)
{
	struct td	 t;
	struct tconn	*a, *b, *h;
	char		 final[1024], line[1024];
	long long	 t0, tick;
	long		 start;
	int		 status;

	td_init(&t, "realtime = false;\nlog_level = \"debug\";\n", NULL);
	td_start(&t);
	assert_non_null(a = tc_open(&t));
	assert_non_null(b = tc_open(&t));
	tb_spawn_three(a, 0);
	assert_int_equal(tc_cmd(b, "pause", NULL, 0, final, sizeof final), 0);
	t0 = tc_status(b, "tick");

	/* A step in slices is still exact. */
	start = td_ms();
	assert_int_equal(tc_cmd(a, "step 50000", NULL, 0, final,
	    sizeof final), 0);
	fprintf(stderr, "# step 50000: %s after %ld ms\n", final,
	    td_ms() - start);
	assert_string_equal(final, "ok");
	assert_int_equal(tc_status(b, "tick"), t0 + 50000);
	t0 += 50000;

	/* status answers in the middle of a long step, promptly. */
	start = td_ms();
	tc_sendf(a, "step 1000000");
	tick = tb_wait_moving(b, t0);
	fprintf(stderr, "# status during the step: tick %lld (+%lld) after "
	    "%ld ms\n", tick, tick - t0, td_ms() - start);
	assert_true(tick > t0 && tick < t0 + 1000000);

	/* pause from another client cancels the rest. */
	assert_int_equal(tc_cmd(b, "pause", NULL, 0, final, sizeof final), 0);
	assert_string_equal(final, "ok");
	assert_int_equal(tc_line(a, line, sizeof line, TD_DEADLINE_MS), 0);
	fprintf(stderr, "# cancelled: %s\n", line);
	assert_true(strncmp(line, "err step cancelled after ", 25) == 0);
	t0 = tc_status(b, "tick");
	assert_true(t0 == tc_status(b, "tick"));

	/* pause on the same connection cancels too, replies in order. */
	tc_sendf(a, "step 1000000\npause");
	assert_int_equal(tc_line(a, line, sizeof line, TD_DEADLINE_MS), 0);
	assert_true(strncmp(line, "err step cancelled after ", 25) == 0);
	assert_int_equal(tc_line(a, line, sizeof line, TD_DEADLINE_MS), 0);
	assert_string_equal(line, "ok");

	/* A peer that closed its writing side still gets every reply. */
	assert_non_null(h = tc_open(&t));
	tc_sendf(h, "step 20000\nstatus");
	shutdown(h->fd, SHUT_WR);
	assert_int_equal(tc_line(h, line, sizeof line, TD_DEADLINE_MS), 0);
	assert_string_equal(line, "ok");
	assert_int_equal(tc_line(h, line, sizeof line, TD_DEADLINE_MS), 0);
	assert_true(strncmp(line, "status tick=", 12) == 0);
	assert_int_equal(tc_line(h, line, sizeof line, TD_DEADLINE_MS), 0);
	assert_string_equal(line, "ok");
	assert_int_equal(tc_line(h, line, sizeof line, TD_DEADLINE_MS), -1);
	tc_close(h);

	/* SIGTERM in the middle of a step: a clean exit, at once. */
	t0 = tc_status(b, "tick");
	tc_sendf(a, "step 1000000");
	tick = tb_wait_moving(b, t0);
	assert_true(tick > t0 && tick < t0 + 1000000);
	start = td_ms();
	kill(t.pid, SIGTERM);
	status = td_wait(t.pid, TD_DEADLINE_MS);
	fprintf(stderr, "# SIGTERM during a step: exit after %ld ms\n",
	    td_ms() - start);
	assert_true(status != -1 && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 0);
	/* It did not finish the step first (the note is logged at debug). */
	assert_true(tb_log_count(&t, "exiting") == 1);
	assert_true(tb_log_count(&t, "stepped 1000000 ticks") == 0);
	t.pid = 0;
	tc_close(a);
	tc_close(b);
	td_stop(&t);
}

/*
 * With real tasks a step takes its ticks' wall time (1 ms each at speed
 * 1), so the children run for what the engine charges them; status
 * answers in the middle, pause cancels, and the children are stopped
 * again after it.
 */
static void
test_paced_step(void **state)
{
	struct td	 t;
	struct tconn	*a, *b;
	char		 final[1024], line[1024];
	long long	 t0, tick;
	long		 start, ms;

	td_init(&t, "realtime = false;\n", NULL);
	td_start(&t);
	assert_non_null(a = tc_open(&t));
	assert_non_null(b = tc_open(&t));
	tb_spawn_three(a, 1);
	assert_int_equal(tc_cmd(b, "pause", NULL, 0, final, sizeof final), 0);
	t0 = tc_status(b, "tick");
	start = td_ms();
	assert_int_equal(tc_cmd(a, "step 300", NULL, 0, final,
	    sizeof final), 0);
	ms = td_ms() - start;
	fprintf(stderr, "# step 300 with real tasks: %s after %ld ms\n",
	    final, ms);
	assert_string_equal(final, "ok");
	assert_int_equal(tc_status(b, "tick"), t0 + 300);
	assert_true(ms >= 270);
	t0 += 300;

	/* status in the middle; pause cancels the rest. */
	tc_sendf(a, "step 100000");
	tick = tb_wait_moving(b, t0);
	assert_true(tick > t0 && tick < t0 + 100000);
	assert_int_equal(tc_cmd(b, "pause", NULL, 0, final, sizeof final), 0);
	assert_int_equal(tc_line(a, line, sizeof line, TD_DEADLINE_MS), 0);
	assert_true(strncmp(line, "err step cancelled after ", 25) == 0);
	tc_close(a);
	tc_close(b);
	td_stop(&t);
}

/* Item 6: at the open-file limit the listener backs off, then recovers. */
static void
test_emfile(void **state)
{
	struct td	 t;
	struct tconn	*c, *g[2], *p;
	struct rlimit	 rl;
	char		 line[1024], final[1024];
	long		 cpu0, cpu1;
	int		 pend[16], i, nfd, lines;

	td_init(&t, "realtime = false;\n", NULL);
	td_start(&t);
	assert_non_null(c = tc_open(&t));
	assert_true((nfd = tb_nfds(t.pid)) > 0);
	rl.rlim_cur = rl.rlim_max = (rlim_t)nfd + 2;
	if (prlimit(t.pid, RLIMIT_NOFILE, &rl, NULL) != 0) {
		fprintf(stderr, "prlimit: %s\n", strerror(errno));
		td_stop(&t);
		skip();
	}
	for (i = 0; i < 2; i++)
		assert_non_null(g[i] = tc_open(&t));
	/* These wait in the backlog: the daemon has no fd to accept them. */
	for (i = 0; i < 16; i++)
		assert_true((pend[i] = td_connect_once(t.sock)) >= 0);
	td_nap(200);
	cpu0 = tb_cputime(t.pid);
	td_nap(1000);
	cpu1 = tb_cputime(t.pid);
	lines = tb_log_count(&t, "accept");
	fprintf(stderr, "# at EMFILE: %ld ticks of CPU in 1 s, %d log lines\n",
	    cpu1 - cpu0, lines);
	assert_true(cpu0 >= 0 && cpu1 >= 0);
	assert_true(cpu1 - cpu0 < sysconf(_SC_CLK_TCK) / 4);
	assert_true(lines >= 1 && lines <= 5);

	/* Free two descriptors: the waiting connections are served. */
	tc_close(g[0]);
	tc_close(g[1]);
	p = calloc(1, sizeof *p);
	p->fd = pend[0];
	assert_int_equal(tc_line(p, line, sizeof line, TD_DEADLINE_MS), 0);
	assert_string_equal(line, "stairs 2 " STAIRS_VERSION);
	assert_int_equal(tc_cmd(p, "status", NULL, 0, final, sizeof final), 0);
	assert_string_equal(final, "ok");
	tc_close(p);
	for (i = 1; i < 16; i++)
		close(pend[i]);
	assert_int_equal(tc_cmd(c, "status", NULL, 0, final, sizeof final), 0);
	assert_string_equal(final, "ok");
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quoting),
		cmocka_unit_test(test_max_tasks),
		cmocka_unit_test(test_refused_big),
		cmocka_unit_test(test_stalled_many),
		cmocka_unit_test(test_big_frame),
		cmocka_unit_test(test_long_step),
		cmocka_unit_test(test_paced_step),
		cmocka_unit_test(test_emfile),
	};

	signal(SIGPIPE, SIG_IGN);
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);	/* one test by name */
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
