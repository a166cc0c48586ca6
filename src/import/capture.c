/*
 * capture.c -- stairs-import --capture: record this machine's scheduler
 * events for some seconds through a tracefs instance of our own
 * (instances/stairs-import-PID), so that nothing another tracer set up
 * is touched, then read its trace file and remove it.
 *
 * tracefs is mounted at /sys/kernel/tracing if it is not there yet
 * (said once on stderr).  The instance is removed however the capture
 * ends: normally, on an error, at exit, and on SIGINT, SIGTERM or SIGHUP
 * (the handler only sets a flag; the capture's sleep wakes, removes the
 * instance and reports the interruption).  Kernel threads are read from
 * /proc at the end (PF_KTHREAD in /proc/PID/stat), since their names
 * alone can lie.
 */
#include <sys/mount.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "xmalloc.h"

#define CAPTURE_PF_KTHREAD	0x00200000UL
#define CAPTURE_BUFFER_KB	32768	/* per CPU, at most */
#define CAPTURE_TOTAL_KB	(1024 * 1024)

/* The instance to remove at exit or on a signal; "" when none. */
static char			capture_dir[512];
static volatile sig_atomic_t	capture_stop;

/* The events recorded; the first two are needed. */
static const char *capture_events[] = {
	"sched_switch", "sched_wakeup", "sched_waking", "sched_wakeup_new",
	"sched_process_fork", "sched_process_exit", NULL
};

/* Remove the instance, once. */
static void
capture_cleanup(void)
{
	char	on[600];
	int	fd;

	if (capture_dir[0] == '\0')
		return;
	snprintf(on, sizeof on, "%s/tracing_on", capture_dir);
	if ((fd = open(on, O_WRONLY)) != -1) {
		(void)write(fd, "0", 1);
		close(fd);
	}
	if (rmdir(capture_dir) == 0 || errno == ENOENT)
		capture_dir[0] = '\0';
}

/* SIGINT, SIGTERM, SIGHUP: stop the capture (its loop cleans up). */
static void
capture_signal(int sig)
{
	(void)sig;
	capture_stop = 1;
}

/* Write s to dir/file; 0, or -1 with errno. */
static int
capture_write(const char *dir, const char *file, const char *s)
{
	char	path[1024];
	int	fd, saved;
	ssize_t	n;

	snprintf(path, sizeof path, "%s/%s", dir, file);
	if ((fd = open(path, O_WRONLY | O_TRUNC)) == -1)
		return (-1);
	n = write(fd, s, strlen(s));
	saved = errno;
	close(fd);
	errno = saved;
	return (n == (ssize_t)strlen(s) ? 0 : -1);
}

/* Is path a directory? */
static int
capture_isdir(const char *path)
{
	struct stat	st;

	return (stat(path, &st) == 0 && S_ISDIR(st.st_mode));
}

/* Where tracefs is, mounting it if needed; NULL with *cause. */
static const char *
capture_tracefs(char **cause)
{
	static const char	*top = "/sys/kernel/tracing";

	if (capture_isdir("/sys/kernel/tracing/instances"))
		return (top);
	if (capture_isdir(top) && mount("tracefs", top, "tracefs", 0,
	    NULL) == 0 && capture_isdir("/sys/kernel/tracing/instances")) {
		fprintf(stderr, "stairs-import: mounted tracefs at %s\n", top);
		return (top);
	}
	if (capture_isdir("/sys/kernel/debug/tracing/instances"))
		return ("/sys/kernel/debug/tracing");
	*cause = xasprintf("cannot trace: no tracefs at %s (mount: %s)", top,
	    strerror(errno));
	return (NULL);
}

/* Read a whole file into *text; 0 or -1 with *cause. */
static int
capture_slurp(const char *path, char **text, size_t *len, char **cause)
{
	char	*buf = NULL;
	size_t	 size = 0, n = 0;
	ssize_t	 r;
	int	 fd;

	if ((fd = open(path, O_RDONLY)) == -1) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return (-1);
	}
	for (;;) {
		if (n + 65536 + 1 > size) {
			size = size ? size * 2 : 1 << 20;
			buf = xrealloc(buf, size);
		}
		r = read(fd, buf + n, size - n - 1);
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1) {
			*cause = xasprintf("%s: %s", path, strerror(errno));
			free(buf);
			close(fd);
			return (-1);
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return (0);
}

/* The pids of kernel threads now, from /proc. */
static void
capture_kthreads(struct capture *cap)
{
	struct dirent	*de;
	DIR		*d;
	FILE		*f;
	char		 path[300], line[1024], *p;
	unsigned long	 flags;
	size_t		 size = 0;
	int		 pid;

	if ((d = opendir("/proc")) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if ((pid = atoi(de->d_name)) <= 0)
			continue;
		snprintf(path, sizeof path, "/proc/%d/stat", pid);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		p = fgets(line, sizeof line, f);
		fclose(f);
		/* pid (comm) state ppid pgrp session tty tpgid flags */
		if (p == NULL || (p = strrchr(line, ')')) == NULL ||
		    sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %lu",
		    &flags) != 1 || (flags & CAPTURE_PF_KTHREAD) == 0)
			continue;
		if (cap->nkpids == size)
			cap->kpids = xgrow(cap->kpids, &size, 256,
			    sizeof *cap->kpids);
		cap->kpids[cap->nkpids++] = pid;
	}
	closedir(d);
}

/* Sleep for seconds, or until a signal asks us to stop; 0 or -1. */
static int
capture_wait(double seconds)
{
	struct timespec	now, end, step = { 0, 50 * 1000 * 1000 };

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += (time_t)seconds;
	end.tv_nsec += (long)((seconds - (double)(time_t)seconds) * 1e9);
	if (end.tv_nsec >= 1000000000L) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000L;
	}
	for (;;) {
		if (capture_stop)
			return (-1);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > end.tv_sec || (now.tv_sec == end.tv_sec &&
		    now.tv_nsec >= end.tv_nsec))
			return (0);
		nanosleep(&step, NULL);
	}
}

/*
 * Record seconds of this machine's scheduler into cap; 0, -1 with
 * *cause saying why the machine cannot trace, or -2 when a signal
 * stopped it.  The instance is gone when this returns.
 */
int
capture_run(double seconds, struct capture *cap, char **cause)
{
	struct sigaction	 sa;
	const char		*top, **ev;
	char			 file[256], size[32], path[600];
	char			*why = NULL;
	long			 ncpus, kb;
	unsigned		 ok = 0;

	memset(cap, 0, sizeof *cap);
	if (geteuid() != 0) {
		*cause = xasprintf("cannot trace: --capture needs root (it "
		    "makes a tracefs instance)");
		return (-1);
	}
	if ((top = capture_tracefs(cause)) == NULL)
		return (-1);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = capture_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	atexit(capture_cleanup);
	snprintf(capture_dir, sizeof capture_dir, "%s/instances/stairs-import-"
	    "%ld", top, (long)getpid());
	if (mkdir(capture_dir, 0755) != 0) {
		*cause = xasprintf("cannot trace: mkdir %s: %s", capture_dir,
		    strerror(errno));
		capture_dir[0] = '\0';
		return (-1);
	}
	/* A buffer that a few seconds of a busy machine do not overrun. */
	ncpus = sysconf(_SC_NPROCESSORS_CONF);
	kb = ncpus > 0 ? CAPTURE_TOTAL_KB / ncpus : CAPTURE_BUFFER_KB;
	if (kb > CAPTURE_BUFFER_KB)
		kb = CAPTURE_BUFFER_KB;
	snprintf(size, sizeof size, "%ld", kb);
	(void)capture_write(capture_dir, "buffer_size_kb", size);
	for (ev = capture_events; *ev != NULL; ev++) {
		snprintf(file, sizeof file, "events/sched/%s/enable", *ev);
		if (capture_write(capture_dir, file, "1") == 0)
			ok |= 1u << (ev - capture_events);
		else if (ev - capture_events < 3) {
			free(why);
			why = xasprintf("%s/%s: %s", capture_dir, file,
			    strerror(errno));
		}
	}
	/* sched_switch, and sched_wakeup or sched_waking. */
	if ((ok & 1) == 0 || (ok & 6) == 0) {
		*cause = xasprintf("cannot trace: %s", why);
		free(why);
		goto fail;
	}
	free(why);
	if (capture_write(capture_dir, "tracing_on", "1") != 0) {
		*cause = xasprintf("cannot trace: %s/tracing_on: %s",
		    capture_dir, strerror(errno));
		goto fail;
	}
	if (capture_wait(seconds) != 0)
		goto stopped;
	(void)capture_write(capture_dir, "tracing_on", "0");
	snprintf(path, sizeof path, "%s/trace", capture_dir);
	if (capture_slurp(path, &cap->text, &cap->len, cause) != 0)
		goto fail;
	if (capture_stop)
		goto stopped;
	cap->label = xstrdup(path);
	capture_kthreads(cap);
	capture_cleanup();
	if (capture_dir[0] != '\0') {
		fprintf(stderr, "stairs-import: could not remove %s: %s\n",
		    capture_dir, strerror(errno));
	}
	return (0);
fail:
	capture_cleanup();
	capture_free(cap);
	return (-1);
stopped:
	*cause = xasprintf("interrupted: the capture is thrown away");
	capture_cleanup();
	capture_free(cap);
	return (-2);
}

/* Free a capture. */
void
capture_free(struct capture *cap)
{
	free(cap->text);
	free(cap->kpids);
	free(cap->label);
	memset(cap, 0, sizeof *cap);
}
