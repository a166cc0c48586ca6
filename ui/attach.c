/*
 * attach.c -- reaching the daemon: connecting to its socket as the
 * daemon itself would trust us (sock.c: the socket's directory, the
 * peer's uid), and, when nothing listens there, starting stairsd with
 * the built-in demo in a session of its own and waiting until it
 * accepts, as tmux starts its server.  Before the client's loop runs.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "attach.h"
#include "sock.h"
#include "xmalloc.h"

#define ATTACH_START_WAIT	5000	/* ms to wait for a started daemon */

/*
 * Connect to the socket, as the daemon would accept us: its directory
 * must be ours or root's and private (or sticky), and the peer must run
 * as us or root (sock.c).  The fd; -1 with errno set and *cause NULL if
 * nothing listens; -1 with *cause saying why if what is there is not to
 * be trusted (nothing has been sent to it).
 */
int
attach_connect(const char *path, char **cause)
{
	struct sockaddr_un	 sun;
	long			 uid;
	int			 fd, saved;

	*cause = NULL;
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sun.sun_path) {
		errno = ENAMETOOLONG;
		return (-1);
	}
	strcpy(sun.sun_path, path);
	if (sock_check_dir(path, 0, cause) != 0)
		return (-1);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return (-1);
	if (connect(fd, (struct sockaddr *)&sun, sizeof sun) == -1) {
		saved = errno;
		close(fd);
		errno = saved;
		return (-1);
	}
	if (sock_check_peer(fd, &uid) != 0) {
		close(fd);
		*cause = xasprintf("%s: the daemon there runs as uid %ld, not "
		    "as us (uid %ld) or root: not talking to it", path, uid,
		    (long)geteuid());
		return (-1);
	}
	return (fd);
}

/* Find stairsd: beside our own binary first, then in PATH. */
static char *
attach_find(void)
{
	char	 self[PATH_MAX], *dir, *path;
	ssize_t	 n;

	n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n > 0) {
		self[n] = '\0';
		dir = dirname(self);
		path = xasprintf("%s/stairsd", dir);
		if (access(path, X_OK) == 0)
			return (path);
		free(path);
	}
	return (xstrdup("stairsd"));
}

/* Sleep for ms milliseconds. */
static void
attach_nap(int ms)
{
	struct timespec	ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (long)(ms % 1000) * 1000000;
	nanosleep(&ts, NULL);
}

/*
 * Start stairsd with the demo (replay: playing that recording) on this
 * socket, detached in its own session, and wait (bounded) until it
 * accepts.  Its stderr stays ours, so what it says before it detaches
 * is seen.
 */
int
attach_start(const char *path, const char *replay, char **cause)
{
	char	*prog;
	pid_t	 pid;
	int	 fd, status, waited, reaped = 0;

	prog = attach_find();
	switch (pid = fork()) {
	case -1:
		*cause = xasprintf("fork: %s", strerror(errno));
		free(prog);
		return (-1);
	case 0:
		setsid();
		if ((fd = open("/dev/null", O_RDWR)) != -1) {
			dup2(fd, STDIN_FILENO);
			dup2(fd, STDOUT_FILENO);
			if (fd > STDERR_FILENO)
				close(fd);
		}
		if (replay != NULL)
			execlp(prog, "stairsd", "-S", path, "--replay", replay,
			    (char *)NULL);
		else
			execlp(prog, "stairsd", "-S", path, (char *)NULL);
		fprintf(stderr, "stairs: %s: %s\n", prog, strerror(errno));
		_exit(127);
	}
	for (waited = 0; waited < ATTACH_START_WAIT; waited += 50) {
		/*
		 * stairsd listens before it detaches, and its first process
		 * exits 0 once the daemon is ready (1 if it failed): connect
		 * after that, or after a second for a daemon that stays in
		 * the foreground.
		 */
		if (reaped || waited >= 1000) {
			if ((fd = attach_connect(path, cause)) != -1 ||
			    *cause != NULL) {
				free(prog);
				return (fd);
			}
		}
		if (!reaped && waitpid(pid, &status, WNOHANG) == pid) {
			reaped = 1;
			/* It detached (exit 0), or it failed. */
			if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
				*cause = xasprintf("%s failed to start (%s %d)",
				    prog, WIFEXITED(status) ? "exit status" :
				    "signal", WIFEXITED(status) ?
				    WEXITSTATUS(status) : WTERMSIG(status));
				free(prog);
				return (-1);
			}
			continue;
		}
		attach_nap(50);
	}
	*cause = xasprintf("started %s, but nothing listens on %s after %d ms",
	    prog, path, ATTACH_START_WAIT);
	free(prog);
	return (-1);
}
