/*
 * proc-watch.c -- the watchdog: a small process of its own that kills
 * every child group and removes the cgroups when the daemon dies without
 * procs_free() (even by SIGKILL), and stops every child group while the
 * daemon is stopped (kill -STOP, ^Z, a debugger): a hog it had running
 * would run on unchecked, its slice long over.  It learns each group
 * over a pipe; a "bye" before the pipe closes means a clean exit.  When
 * the daemon goes on it continues what it runs itself (procs_reassert,
 * on its SIGCONT).
 */
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "engine.h"
#include "log.h"
#include "proc-int.h"
#include "xmalloc.h"

#define PROC_WATCH_MS	20	/* how often it looks at the daemon */

/* Is process pid stopped (by a signal, or a debugger)? */
static int
proc_watch_stopped(pid_t pid)
{
	char	 path[64], buf[512], *p;
	ssize_t	 n;
	int	 fd;

	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return (0);
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return (0);
	buf[n] = '\0';
	/* "PID (COMM) S ...": COMM may hold anything, ')' included. */
	if ((p = strrchr(buf, ')')) == NULL || p[1] != ' ')
		return (0);
	return (p[2] == 'T' || p[2] == 't');
}

/*
 * The watchdog: a small process of its own (own process group, deaf to
 * terminal signals) that learns each child group over a pipe and, when
 * the pipe closes without a goodbye (the caller died, even by SIGKILL),
 * kills those groups and removes the cgroups.  PR_SET_PDEATHSIG alone
 * would miss the grandchildren of a pipeline.  While it knows a group it
 * looks at the daemon every PROC_WATCH_MS: stopped, every group is
 * stopped too, once.
 */
static void __attribute__((noreturn))
proc_watch_main(int fd, const char *cgroot, const char *pidsroot)
{
	struct pollfd	 pfd = { .fd = fd, .events = POLLIN };
	pid_t		*pgids = NULL, daemon = getppid();
	size_t		 n = 0, i;
	char		 buf[4096], line[32];
	size_t		 ll = 0;
	ssize_t		 r, k;
	long		 v;
	int		 bye = 0, frozen = 0;

	setpgid(0, 0);
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	for (;;) {
		if (n > 0 && proc_watch_stopped(daemon)) {
			for (i = 0; !frozen && i < n; i++)
				kill(-pgids[i], SIGSTOP);
			frozen = 1;
		} else
			frozen = 0;
		if (poll(&pfd, 1, n > 0 ? PROC_WATCH_MS : -1) == 0)
			continue;
		r = read(fd, buf, sizeof buf);
		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		for (k = 0; k < r; k++) {
			if (buf[k] != '\n') {
				if (ll < sizeof line - 1)
					line[ll++] = buf[k];
				continue;
			}
			line[ll] = '\0';
			ll = 0;
			if (strcmp(line, "bye") == 0) {
				bye = 1;
				continue;
			}
			v = strtol(line + 1, NULL, 10);
			if (v <= 0)
				continue;
			if (line[0] == '+') {
				pgids = realloc(pgids, (n + 1) * sizeof *pgids);
				if (pgids == NULL)
					_exit(1);
				pgids[n++] = (pid_t)v;
			} else if (line[0] == '-') {
				for (i = 0; i < n; i++) {
					if (pgids[i] == (pid_t)v) {
						pgids[i] = pgids[--n];
						break;
					}
				}
			}
		}
	}
	if (!bye) {
		for (i = 0; i < n; i++) {
			kill(-pgids[i], SIGKILL);
			kill(-pgids[i], SIGCONT);
		}
		/*
		 * Escapees of a process group are still in a cgroup: kill
		 * in both trees before waiting for either to go.
		 */
		if (pidsroot != NULL)
			cgroup_kill_path(pidsroot);
		if (cgroot != NULL)
			cgroup_purge_path(cgroot);
		if (pidsroot != NULL)
			cgroup_purge_path(pidsroot);
	}
	_exit(0);
}

/* Tell the watchdog about a group ('+') or that it is gone ('-'). */
void
proc_watch_tell(struct procs *ps, char op, pid_t pgid)
{
	char	line[32];
	int	len;

	if (ps->wdfd == -1)
		return;
	len = snprintf(line, sizeof line, "%c%ld\n", op, (long)pgid);
	if (write(ps->wdfd, line, len) != len)
		log_warn("watchdog");
}

/* Start the watchdog process. */
void
proc_watch_start(struct procs *ps)
{
	char	*cgroot = NULL, *pidsroot = NULL;
	int	 fds[2];
	pid_t	 pid;

	ps->wdfd = -1;
	ps->watchdog = 0;
	if (pipe2(fds, O_CLOEXEC) != 0) {
		log_warn("watchdog pipe");
		return;
	}
	if (ps->cg != NULL)
		cgroot = xstrdup(cgroup_root(ps->cg));
	if (ps->pids != NULL)
		pidsroot = xstrdup(cgroup_pids_root(ps->pids));
	switch (pid = fork()) {
	case -1:
		log_warn("watchdog fork");
		close(fds[0]);
		close(fds[1]);
		free(cgroot);
		free(pidsroot);
		return;
	case 0:
		close(fds[1]);
		if (fds[0] != 3) {
			dup2(fds[0], 3);
			close(fds[0]);
		}
		close_range(4, ~0U, 0);
		proc_watch_main(3, cgroot, pidsroot);
	}
	free(cgroot);
	free(pidsroot);
	close(fds[0]);
	ps->watchdog = pid;
	ps->wdfd = fds[1];
}

/* A clean exit: say goodbye, close the pipe, wait for the watchdog. */
void
proc_watch_stop(struct procs *ps)
{
	int	status;

	if (ps->wdfd == -1)
		return;
	if (write(ps->wdfd, "bye\n", 4) != 4)
		log_warn("watchdog");
	close(ps->wdfd);
	ps->wdfd = -1;
	while (waitpid(ps->watchdog, &status, 0) == -1 && errno == EINTR)
		;
}

/*
 * The watchdog ended (a child may kill it): start another, tell it every
 * live group, and say so.
 */
void
proc_watch_replace(struct procs *ps, int status)
{
	struct proc	*p;
	pid_t		 old = ps->watchdog;
	int		 i;

	if (ps->wdfd != -1)
		close(ps->wdfd);
	proc_watch_start(ps);
	for (i = 1; i < ps->nt; i++) {
		if ((p = ps->t[i]) != NULL && p->live)
			proc_watch_tell(ps, '+', p->pid);
	}
	if (ps->watchdog != 0)
		proc_notice(ps, "watchdog %ld ended (%s); replaced by %ld",
		    (long)old, WIFSIGNALED(status) ? sigabbrev_np(
		    WTERMSIG(status)) : "exited", (long)ps->watchdog);
	else
		proc_notice(ps, "watchdog %ld ended; not replaced", (long)old);
}
