/*
 * daemon_harness.h -- start a real stairsd on a fresh temporary socket and
 * talk to it, for tests/test_daemon*.c.
 *
 * Each daemon gets its own directory (socket, config, scenario, log); a
 * daemon left running by a failed test is killed at exit.  Every wait
 * polls for a condition with a generous deadline (the daemon may run
 * under ASan on a busy machine); nothing relies on a fixed sleep.  A
 * wait that runs out fails the test (outside cmocka: exits 1) with a
 * line "timed out after N ms waiting for WHAT": a test never hangs.
 */
#ifndef STAIRS_DAEMON_HARNESS_H
#define STAIRS_DAEMON_HARNESS_H

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "bindir.h"

#define TD_DEADLINE_MS	20000

/* Fail the running test: cmocka's fail(), or exit 1 outside cmocka. */
#ifdef cmocka_unit_test
#define TD_FAIL()	fail()
#else
#define TD_FAIL()	exit(1)
#endif

/*
 * Poll until cond holds, for up to TD_DEADLINE_MS; past that the test
 * fails, saying what it waited for (a printf format and arguments).
 */
#define TD_UNTIL(cond, ...) do {					\
	long	td_end_ = td_ms() + TD_DEADLINE_MS;			\
									\
	while (!(cond)) {						\
		if (td_ms() >= td_end_) {				\
			td_timed_out(TD_DEADLINE_MS, __VA_ARGS__);	\
			TD_FAIL();					\
		}							\
		td_nap(5);						\
	}								\
} while (0)

struct td {
	pid_t	pid;
	char	dir[PATH_MAX];
	char	sock[PATH_MAX + 128];
	char	cfg[PATH_MAX + 16];
	char	scen[PATH_MAX + 16];
	char	log[PATH_MAX + 16];
	char	bin[PATH_MAX + 16];
};

struct tconn {
	int	fd;
	char	greet[256];
	char	buf[1 << 16];
	size_t	len;
};

static pid_t	td_pids[64];

/* Milliseconds on CLOCK_MONOTONIC. */
static __attribute__((unused)) long
td_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec * 1000L + ts.tv_nsec / 1000000L);
}

/* Sleep a few milliseconds between polls. */
static __attribute__((unused)) void
td_nap(int ms)
{
	struct timespec	ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Say on stderr that a wait of ms ran out, and for what. */
static __attribute__((unused, format(printf, 2, 3))) void
td_timed_out(int ms, const char *fmt, ...)
{
	va_list	ap;

	fprintf(stderr, "timed out after %d ms waiting for ", ms);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Kill every daemon still running (atexit and signal safety net). */
static void
td_killall(void)
{
	size_t	i;
	long	end;

	for (i = 0; i < sizeof td_pids / sizeof td_pids[0]; i++) {
		if (td_pids[i] > 0) {
			kill(td_pids[i], SIGKILL);
			end = td_ms() + TD_DEADLINE_MS;
			while (waitpid(td_pids[i], NULL, WNOHANG) == 0 &&
			    td_ms() < end)
				td_nap(5);
			td_pids[i] = 0;
		}
	}
}

/* Remember or forget a daemon's pid for td_killall. */
static void
td_track(pid_t pid, int add)
{
	size_t	i;
	static int registered;

	if (!registered) {
		atexit(td_killall);
		registered = 1;
	}
	for (i = 0; i < sizeof td_pids / sizeof td_pids[0]; i++) {
		if (add && td_pids[i] == 0) {
			td_pids[i] = pid;
			return;
		}
		if (!add && td_pids[i] == pid) {
			td_pids[i] = 0;
			return;
		}
	}
}

/* Write a file (text) at path. */
static __attribute__((unused)) void
td_write(const char *path, const char *text)
{
	FILE	*f;

	if ((f = fopen(path, "w")) == NULL) {
		perror(path);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

/* Does the daemon's log contain s? */
static __attribute__((unused)) int
td_log_has(struct td *t, const char *s)
{
	char	buf[1 << 16];
	FILE	*f;
	size_t	n;

	if ((f = fopen(t->log, "r")) == NULL)
		return (0);
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	return (strstr(buf, s) != NULL);
}

/* Print the daemon's log to stderr (after a failure). */
static __attribute__((unused)) void
td_dump_log(struct td *t)
{
	char	buf[4096];
	FILE	*f;
	size_t	n;

	if ((f = fopen(t->log, "r")) == NULL)
		return;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		fwrite(buf, 1, n, stderr);
	fclose(f);
}

/* A fresh directory with a config and a scenario; nothing started. */
static __attribute__((unused)) void
td_init(struct td *t, const char *config, const char *scenario)
{
	char	tmpl[] = "/tmp/stairs-test-XXXXXX";

	memset(t, 0, sizeof *t);
	if (mkdtemp(tmpl) == NULL) {
		perror("mkdtemp");
		exit(1);
	}
	snprintf(t->dir, sizeof t->dir, "%s", tmpl);
	snprintf(t->sock, sizeof t->sock, "%s/socket", t->dir);
	snprintf(t->cfg, sizeof t->cfg, "%s/stairsd.cfg", t->dir);
	snprintf(t->scen, sizeof t->scen, "%s/scenario.cfg", t->dir);
	snprintf(t->log, sizeof t->log, "%s/log", t->dir);
	test_bindir("stairsd", t->bin, sizeof t->bin);
	strncat(t->bin, "/stairsd", sizeof t->bin - strlen(t->bin) - 1);
	td_write(t->cfg, config != NULL ? config :
	    "realtime = false;\nlog_level = \"debug\";\n");
	td_write(t->scen, scenario != NULL ? scenario :
	    "name = \"test\";\ncpus = 2;\ntasks = (\n"
	    "  { name = \"hog\"; },\n"
	    "  { name = \"editor\"; pattern = [ 2, 40 ]; }\n);\n");
}

/* Run stairsd with argv (after argv[0]); stdout+stderr to the log. */
static __attribute__((unused)) pid_t
td_spawn(struct td *t, char *const argv[])
{
	char	*av[32];
	pid_t	 pid;
	int	 fd, i;

	av[0] = t->bin;
	for (i = 0; argv[i] != NULL && i < 30; i++)
		av[i + 1] = argv[i];
	av[i + 1] = NULL;
	if ((pid = fork()) == -1) {
		perror("fork");
		exit(1);
	}
	if (pid == 0) {
		/*
		 * Under ASan, freed memory sits in a 256 MB quarantine and
		 * RSS grows with churn; keep it small so VmRSS checks see
		 * what the daemon really holds.
		 */
		setenv("ASAN_OPTIONS", "quarantine_size_mb=1", 0);
		if ((fd = open(t->log, O_WRONLY | O_CREAT | O_APPEND,
		    0600)) != -1) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execv(t->bin, av);
		perror(t->bin);
		_exit(127);
	}
	td_track(pid, 1);
	return (pid);
}

/* Wait for pid to exit; its status, or -1 (said) after the deadline. */
static __attribute__((unused)) int
td_wait(pid_t pid, int ms)
{
	long	end = td_ms() + ms;
	int	status;

	while (td_ms() < end) {
		if (waitpid(pid, &status, WNOHANG) == pid) {
			td_track(pid, 0);
			return (status);
		}
		td_nap(5);
	}
	td_timed_out(ms, "process %ld to exit", (long)pid);
	return (-1);
}

/*
 * Connect to the socket once; the fd or -1.  A full listen queue (the
 * daemon not accepting) would block connect for ever: it is retried
 * until the deadline instead.
 */
static __attribute__((unused)) int
td_connect_once(const char *path)
{
	struct sockaddr_un	sun;
	long			end = td_ms() + TD_DEADLINE_MS;
	int			fd, r;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof sun.sun_path, "%s", path);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
	    0)) == -1)
		return (-1);
	while ((r = connect(fd, (struct sockaddr *)&sun, sizeof sun)) != 0 &&
	    errno == EAGAIN && td_ms() < end)
		td_nap(5);
	if (r != 0) {
		if (errno == EAGAIN)
			td_timed_out(TD_DEADLINE_MS, "the daemon to accept "
			    "on %s", path);
		close(fd);
		return (-1);
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return (fd);
}

/* Start a foreground daemon with extra arguments; wait for its socket. */
static __attribute__((unused)) void
td_start_args(struct td *t, char *const extra[])
{
	char	*av[32];
	long	 end;
	int	 i = 0, j, fd;

	av[i++] = "-f";
	av[i++] = "-c";
	av[i++] = t->cfg;
	av[i++] = "-S";
	av[i++] = t->sock;
	for (j = 0; extra != NULL && extra[j] != NULL; j++)
		av[i++] = extra[j];
	av[i] = NULL;
	t->pid = td_spawn(t, av);
	end = td_ms() + TD_DEADLINE_MS;
	while (td_ms() < end) {
		if ((fd = td_connect_once(t->sock)) != -1) {
			close(fd);
			return;
		}
		if (waitpid(t->pid, NULL, WNOHANG) == t->pid) {
			fprintf(stderr, "stairsd exited at start; log:\n");
			td_track(t->pid, 0);
			t->pid = 0;
			td_dump_log(t);
			return;
		}
		td_nap(10);
	}
	td_timed_out(TD_DEADLINE_MS, "stairsd to listen on %s; log:",
	    t->sock);
	td_dump_log(t);
	TD_FAIL();
}

/* Start a foreground daemon on the test scenario. */
static __attribute__((unused)) void
td_start(struct td *t)
{
	char	*extra[] = { "--scenario", t->scen, NULL };

	td_start_args(t, extra);
}

/* Stop the daemon (SIGTERM), keeping its directory; its exit status. */
static __attribute__((unused)) int
td_stop_keep(struct td *t)
{
	int	status = -1;

	if (t->pid > 0) {
		kill(t->pid, SIGTERM);
		if ((status = td_wait(t->pid, TD_DEADLINE_MS)) == -1) {
			kill(t->pid, SIGKILL);
			status = td_wait(t->pid, TD_DEADLINE_MS);
		}
		t->pid = 0;
	}
	return (status);
}

/* Remove the daemon's directory (unless $STAIRS_KEEP is set). */
static __attribute__((unused)) void
td_remove(struct td *t)
{
	char	cmd[PATH_MAX + 32];

	if (getenv("STAIRS_KEEP") == NULL && t->dir[0] == '/') {
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", t->dir);
		system(cmd);
	}
}

/* Stop the daemon (SIGTERM) and remove the directory; its exit status. */
static __attribute__((unused)) int
td_stop(struct td *t)
{
	int	status;

	status = td_stop_keep(t);
	td_remove(t);
	return (status);
}

static int	tc_line(struct tconn *, char *, size_t, int);

/* Open a connection and read the greeting into greet (may be NULL). */
static __attribute__((unused)) struct tconn *
tc_open(struct td *t)
{
	struct tconn	*c;

	c = calloc(1, sizeof *c);
	if ((c->fd = td_connect_once(t->sock)) == -1) {
		free(c);
		return (NULL);
	}
	if (tc_line(c, c->greet, sizeof c->greet, TD_DEADLINE_MS) != 0)
		c->greet[0] = '\0';
	return (c);
}

/* Close a connection. */
static __attribute__((unused)) void
tc_close(struct tconn *c)
{
	if (c == NULL)
		return;
	close(c->fd);
	free(c);
}

/*
 * Send bytes.  A daemon that stops reading fails the test after the
 * deadline rather than blocking it; a closed connection ends the send.
 */
static __attribute__((unused)) void
tc_send(struct tconn *c, const void *p, size_t len)
{
	struct pollfd	 pfd;
	const char	*s = p;
	long		 end = td_ms() + TD_DEADLINE_MS;
	ssize_t		 n;

	while (len > 0) {
		pfd.fd = c->fd;
		pfd.events = POLLOUT;
		if (td_ms() >= end ||
		    poll(&pfd, 1, (int)(end - td_ms())) == 0) {
			td_timed_out(TD_DEADLINE_MS, "the daemon to read the "
			    "%zu bytes left of what we send", len);
			TD_FAIL();
			return;
		}
		n = send(c->fd, s, len, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n <= 0) {
			if (n == -1 && (errno == EINTR || errno == EAGAIN))
				continue;
			return;
		}
		s += n;
		len -= (size_t)n;
	}
}

/* Send a formatted line (the \n is added). */
static __attribute__((unused, format(printf, 2, 3))) void
tc_sendf(struct tconn *c, const char *fmt, ...)
{
	char	buf[8192];
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if (n > (int)sizeof buf - 2)
		n = (int)sizeof buf - 2;	/* cut, as vsnprintf did */
	buf[n++] = '\n';
	tc_send(c, buf, (size_t)n);
}

/* The next line (without \n) into line; 0, or -1 on EOF or timeout. */
static int
tc_line(struct tconn *c, char *line, size_t size, int ms)
{
	struct pollfd	 pfd;
	char		*nl;
	long		 end = td_ms() + ms;
	ssize_t		 n;
	size_t		 len;

	for (;;) {
		if ((nl = memchr(c->buf, '\n', c->len)) != NULL) {
			len = (size_t)(nl - c->buf);
			if (len >= size)
				len = size - 1;
			memcpy(line, c->buf, len);
			line[len] = '\0';
			len = (size_t)(nl - c->buf) + 1;
			memmove(c->buf, c->buf + len, c->len - len);
			c->len -= len;
			return (0);
		}
		if (c->len == sizeof c->buf)
			c->len = 0;	/* a giant line: drop it */
		pfd.fd = c->fd;
		pfd.events = POLLIN;
		if (td_ms() >= end || poll(&pfd, 1, (int)(end - td_ms())) <= 0) {
			td_timed_out(ms, "a line from the daemon");
			return (-1);
		}
		n = read(c->fd, c->buf + c->len, sizeof c->buf - c->len);
		if (n <= 0)
			return (-1);
		c->len += (size_t)n;
	}
}

/*
 * Send a command and collect its reply: data lines into data (joined by
 * \n, may be NULL), the final "ok..."/"err..." line into final.  Frame
 * blocks in between are skipped.  0, or -1 on EOF or timeout.
 */
static __attribute__((unused)) int
tc_cmd(struct tconn *c, const char *cmd, char *data, size_t dsize,
    char *final, size_t fsize)
{
	char	line[8192];
	size_t	off = 0;
	long	end = td_ms() + TD_DEADLINE_MS;
	int	inframe = 0;

	if (data != NULL && dsize > 0)
		data[0] = '\0';
	tc_sendf(c, "%s", cmd);
	for (;;) {
		if (td_ms() >= end) {
			td_timed_out(TD_DEADLINE_MS, "the reply to \"%.40s\"",
			    cmd);
			return (-1);
		}
		if (tc_line(c, line, sizeof line, (int)(end - td_ms())) != 0) {
			fprintf(stderr, "no reply to \"%.40s\"\n", cmd);
			return (-1);
		}
		if (strncmp(line, "frame ", 6) == 0) {
			inframe = 1;
			continue;
		}
		if (inframe) {
			if (strcmp(line, "end") == 0)
				inframe = 0;
			continue;
		}
		if (strncmp(line, "ok", 2) == 0 &&
		    (line[2] == '\0' || line[2] == ' ')) {
			snprintf(final, fsize, "%s", line);
			return (0);
		}
		if (strncmp(line, "err ", 4) == 0) {
			snprintf(final, fsize, "%s", line);
			return (0);
		}
		if (data != NULL && off + strlen(line) + 2 < dsize) {
			off += (size_t)snprintf(data + off, dsize - off, "%s\n",
			    line);
		}
	}
}

/* The value of key=... in a line of key=value words; -1 if absent. */
static __attribute__((unused)) long long
td_field(const char *line, const char *key)
{
	char		 pat[64];
	const char	*p = line;
	size_t		 n;

	n = (size_t)snprintf(pat, sizeof pat, "%s=", key);
	while ((p = strstr(p, pat)) != NULL) {
		if (p == line || p[-1] == ' ')
			return (strtoll(p + n, NULL, 10));
		p += n;
	}
	return (-1);
}

/* Run cmd and check that its final line starts with want. */
static __attribute__((unused)) void
tc_expect(struct tconn *c, const char *cmd, const char *want)
{
	char	final[1024];

	if (tc_cmd(c, cmd, NULL, 0, final, sizeof final) != 0) {
		fprintf(stderr, "%s -> no reply (wanted %s)\n", cmd, want);
		TD_FAIL();
	}
	if (strncmp(final, want, strlen(want)) != 0) {
		fprintf(stderr, "%s -> %s (wanted %s)\n", cmd, final, want);
		TD_FAIL();
	}
}

/* A numeric field of the status line, or -1. */
static __attribute__((unused)) long long
tc_status(struct tconn *c, const char *key)
{
	char	data[4096], final[256];

	if (tc_cmd(c, "status", data, sizeof data, final, sizeof final) != 0)
		return (-1);
	return (td_field(data, key));
}

/* A number from a process's /proc/PID/status ("VmRSS:" ...), or -1. */
static long
td_proc_status(pid_t pid, const char *key)
{
	char	path[64], line[256];
	size_t	len = strlen(key);
	long	n = -1;
	FILE	*f;

	snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
	if ((f = fopen(path, "r")) == NULL)
		return (-1);
	while (fgets(line, sizeof line, f) != NULL) {
		if (strncmp(line, key, len) == 0)
			n = strtol(line + len, NULL, 10);
	}
	fclose(f);
	return (n);
}

/* The VmRSS of a process in kB, or -1. */
static __attribute__((unused)) long
td_rss(pid_t pid)
{
	return (td_proc_status(pid, "VmRSS:"));
}

/* A process's voluntary context switches so far: its wake-ups; or -1. */
static __attribute__((unused)) long
td_wakes(pid_t pid)
{
	return (td_proc_status(pid, "voluntary_ctxt_switches:"));
}

#endif
