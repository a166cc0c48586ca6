/*
 * test_daemon_storm.c -- three clients send a real daemon random
 * commands for a while (issue 27: the audit's fuzzer that found a crash
 * between two clients), as fast as it takes them: steps of up to a
 * million ticks cancelled by a reset from another client, loads, seeks,
 * records, policies, shadows, task changes on real children, readonly,
 * quits, subscriptions and garbage, pipelined without waiting.
 *
 * Then: the daemon is alive and answers a new client at once, its log
 * holds no sanitizer report, it exits 0 on SIGTERM and leaves no child
 * behind.  STAIRS_STORM_SECONDS sets the time (default 50 under ASan,
 * where it counts, 15 in the plain build); STAIRS_STORM_SEED the seed
 * (printed, so a failure can be run again).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "daemon_harness.h"

#if defined(__SANITIZE_ADDRESS__)
#define STORM_SECONDS	50
#else
#define STORM_SECONDS	15
#endif
#define STORM_CLIENTS	3

/* A small xorshift: the same seed, the same storm. */
static uint64_t storm_state;

static uint32_t
storm_rand(uint32_t n)
{
	storm_state ^= storm_state << 13;
	storm_state ^= storm_state >> 7;
	storm_state ^= storm_state << 17;
	return ((uint32_t)(storm_state >> 11) % n);
}

static const char *const storm_tasks[] = {
	"hog", "editor", "hog1", "hog2", "build1", "a", "nosuch", "1", "2"
};
static const char *const storm_scenarios[] = {
	"article", "demo", "real-mixed", "interactive-vs-hogs", "o1-vs-staircase",
	"nosuch", "real-hogs"
};
static const char *const storm_policies[] = {
	"staircase", "o1", "cfs", "eevdf", "rr", "bogus"
};

/* One random command line (no newline) into buf. */
static void
storm_command(char *buf, size_t len, const char *dir, int client)
{
	const char	*t = storm_tasks[storm_rand(9)];
	const char	*sc = storm_scenarios[storm_rand(7)];
	const char	*pol = storm_policies[storm_rand(6)];

	switch (storm_rand(30)) {
	case 0:
		snprintf(buf, len, "step %u", 1 + storm_rand(1000000));
		break;
	case 1:
		snprintf(buf, len, "step event %u", 1 + storm_rand(5000));
		break;
	case 2:
		snprintf(buf, len, "reset");
		break;
	case 3:
		snprintf(buf, len, "load %s%s", sc,
		    storm_rand(2) ? " run" : "");
		break;
	case 4:
		snprintf(buf, len, "seek %u", storm_rand(20000));
		break;
	case 5:
		snprintf(buf, len, "resume");
		break;
	case 6:
		snprintf(buf, len, "pause");
		break;
	case 7:
		snprintf(buf, len, "record %s/j%d", dir, client);
		break;
	case 8:
		snprintf(buf, len, "policy %s", pol);
		break;
	case 9:
		snprintf(buf, len, "compare %s", storm_rand(3) ? pol : "off");
		break;
	case 10:
		snprintf(buf, len, "sleep %s %u", t, storm_rand(3000));
		break;
	case 11:
		snprintf(buf, len, "nice %s %d", t, (int)storm_rand(40) - 20);
		break;
	case 12:
		snprintf(buf, len, "affinity %s %u", t, storm_rand(3));
		break;
	case 13:
		snprintf(buf, len, "kill %s", t);
		break;
	case 14:
		snprintf(buf, len, "add t%u nice=%d", storm_rand(100),
		    (int)storm_rand(40) - 20);
		break;
	case 15:
		snprintf(buf, len, "speed %s", storm_rand(2) ? "4" : "0.5");
		break;
	case 16:
		snprintf(buf, len, "subscribe %u", 1 + storm_rand(60));
		break;
	case 17:
		snprintf(buf, len, "unsubscribe");
		break;
	case 18:
		snprintf(buf, len, "status");
		break;
	case 19:
		snprintf(buf, len, "tasks");
		break;
	case 20:
		snprintf(buf, len, "table %s", t);
		break;
	case 21:
		snprintf(buf, len, "scenarios");
		break;
	case 22:
		snprintf(buf, len, "marks");
		break;
	case 23:
		snprintf(buf, len, "spawn s%u -- stairs-load --run 2 "
		    "--sleep 20", storm_rand(100));
		break;
	case 24:
		snprintf(buf, len, "step %u", 1 + storm_rand(50));
		break;
	case 25:
		snprintf(buf, len, "view sel=%u", storm_rand(5));
		break;
	case 26:
		snprintf(buf, len, "%c%c%c garbage \x01 %u", 'a' + storm_rand(26),
		    'a' + storm_rand(26), 'a' + storm_rand(26), storm_rand(99));
		break;
	case 27:
		snprintf(buf, len, "cpus");
		break;
	case 28:
		snprintf(buf, len, "seek %u", storm_rand(100));
		break;
	default:
		snprintf(buf, len, "help");
		break;
	}
}

/* Read and drop whatever the daemon sent; -1 once it closed. */
static int
storm_drain(int fd)
{
	char	buf[65536];
	ssize_t	n;

	for (;;) {
		n = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
		if (n > 0)
			continue;
		if (n == 0)
			return (-1);
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return (0);
		return (-1);
	}
}

/* Does any process still have ppid as its parent? */
static int
storm_children(pid_t ppid)
{
	char	 cmd[128], out[64] = "";
	FILE	*p;

	snprintf(cmd, sizeof cmd, "ps -o pid= --ppid %ld", (long)ppid);
	if ((p = popen(cmd, "r")) == NULL)
		return (0);
	if (fgets(out, sizeof out, p) == NULL)
		out[0] = '\0';
	pclose(p);
	return (out[0] != '\0');
}

static void
test_storm(void **state)
{
	struct td	 t;
	struct tconn	*c;
	const char	*e;
	char		 line[PATH_MAX + 64], sc[8192], final[8192];
	long		 seconds = STORM_SECONDS, end, sent = 0;
	int		 fd[STORM_CLIENTS], i, st;
	FILE		*f;
	pid_t		 pid;

	if ((e = getenv("STAIRS_STORM_SECONDS")) != NULL)
		seconds = strtol(e, NULL, 10);
	storm_state = (uint64_t)time(NULL) | 1;
	if ((e = getenv("STAIRS_STORM_SEED")) != NULL)
		storm_state = strtoull(e, NULL, 10) | 1;
	printf("storm: %ld s, seed %llu\n", seconds,
	    (unsigned long long)storm_state);

	td_init(&t, "realtime = false;\nmax_tasks = 64;\n", NULL);
	{
		char	*extra[] = { "--scenario", "real-mixed", NULL };

		td_start_args(&t, extra);
	}
	assert_true(t.pid > 0);
	pid = t.pid;
	for (i = 0; i < STORM_CLIENTS; i++)
		assert_true((fd[i] = td_connect_once(t.sock)) != -1);

	end = td_ms() + seconds * 1000;
	while (td_ms() < end) {
		i = (int)storm_rand(STORM_CLIENTS);
		storm_command(line, sizeof line - 1, t.dir, i);
		strcat(line, "\n");
		if (send(fd[i], line, strlen(line), MSG_NOSIGNAL |
		    MSG_DONTWAIT) < 0 && errno != EAGAIN) {
			close(fd[i]);	/* it quit, or was closed */
			fd[i] = td_connect_once(t.sock);
		}
		sent++;
		if (fd[i] != -1 && storm_drain(fd[i]) != 0) {
			close(fd[i]);
			fd[i] = td_connect_once(t.sock);
		}
		if (fd[i] == -1)
			fd[i] = td_connect_once(t.sock);
		/* Now and then a client hangs up or turns read-only. */
		if (storm_rand(200) == 0 && fd[i] != -1) {
			if (storm_rand(2))
				send(fd[i], "readonly\n", 9, MSG_NOSIGNAL);
			close(fd[i]);
			fd[i] = td_connect_once(t.sock);
		}
		if (storm_rand(20) == 0)
			td_nap(1);
		if (waitpid(pid, &st, WNOHANG) == pid) {
			td_track(pid, 0);
			t.pid = 0;
			fprintf(stderr, "the daemon died after %ld commands; "
			    "log:\n", sent);
			td_dump_log(&t);
			fail();
		}
	}
	printf("storm: %ld commands sent\n", sent);
	for (i = 0; i < STORM_CLIENTS; i++)
		if (fd[i] != -1)
			close(fd[i]);

	/* A new client is answered at once. */
	assert_non_null(c = tc_open(&t));
	assert_int_equal(tc_cmd(c, "status", sc, sizeof sc, final,
	    sizeof final), 0);
	assert_non_null(strstr(sc, "status tick="));
	tc_close(c);

	st = td_stop_keep(&t);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_false(storm_children(pid));
	if ((f = fopen(t.log, "r")) != NULL) {
		while (fgets(sc, sizeof sc, f) != NULL) {
			if (strstr(sc, "AddressSanitizer") != NULL ||
			    strstr(sc, "runtime error:") != NULL ||
			    strstr(sc, "LeakSanitizer") != NULL) {
				fclose(f);
				td_dump_log(&t);
				fail_msg("a sanitizer report in the log");
			}
		}
		fclose(f);
	}
	td_remove(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_storm),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
