/*
 * server.c -- the daemon's unix socket: where it lives, making it safely
 * (a private directory, a stale socket replaced, a live daemon's socket
 * left alone) and accepting connections (same uid or root only, at most
 * max_clients), each then served by clients.c.
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <event2/event.h>
#include <event2/listener.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clients.h"
#include "clock.h"
#include "config.h"
#include "live.h"
#include "log.h"
#include "monotonic.h"
#include "server.h"
#include "sock.h"
#include "xmalloc.h"

/* How long the listener rests when accept() runs out of descriptors. */
#define SERVER_ACCEPT_BACKOFF_MS	250

struct server {
	struct live		*live;
	struct clients		*clients;
	struct evconnlistener	*listener;
	uint64_t		 refused;
	struct event		*accept_timer;	/* the back-off's end */
	uint64_t		 accept_errors;	/* since last logged */
	uint64_t		 accept_logged;	/* ns, CLOCK_MONOTONIC */
};

/*
 * Deal with whatever is at path already: nothing is fine; a socket nobody
 * answers on (a dead daemon's) is removed; a live daemon's is refused.
 */
static int
server_check_old(const char *path, const struct sockaddr_un *sun,
    char **cause)
{
	struct stat	sb;
	int		fd, err;

	if (lstat(path, &sb) != 0) {
		if (errno == ENOENT)
			return (0);
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return (-1);
	}
	if (!S_ISSOCK(sb.st_mode)) {
		*cause = xasprintf("%s exists and is not a socket", path);
		return (-1);
	}
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1) {
		*cause = xasprintf("socket: %s", strerror(errno));
		return (-1);
	}
	if (connect(fd, (const struct sockaddr *)sun, sizeof *sun) == 0) {
		close(fd);
		*cause = xasprintf("a daemon is already running on %s", path);
		return (-1);
	}
	err = errno;
	close(fd);
	if (err != ECONNREFUSED) {
		*cause = xasprintf("%s: %s", path, strerror(err));
		return (-1);
	}
	if (unlink(path) != 0) {
		*cause = xasprintf("unlink %s: %s", path, strerror(errno));
		return (-1);
	}
	log_info("replaced the stale socket %s", path);
	return (0);
}

/* Create, bind and listen on the socket at path; the fd or -1. */
int
server_listen(const char *path, char **cause)
{
	struct sockaddr_un	sun;
	mode_t			mask;
	int			fd;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sun.sun_path) {
		*cause = xasprintf("socket path too long (max %zu bytes): %s",
		    sizeof sun.sun_path - 1, path);
		return (-1);
	}
	memcpy(sun.sun_path, path, strlen(path) + 1);
	if (sock_check_dir(path, 1, cause) != 0)
		return (-1);
	if (server_check_old(path, &sun, cause) != 0)
		return (-1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd == -1) {
		*cause = xasprintf("socket: %s", strerror(errno));
		return (-1);
	}
	mask = umask(0177);
	if (bind(fd, (struct sockaddr *)&sun, sizeof sun) != 0) {
		umask(mask);
		*cause = xasprintf("bind %s: %s", path, strerror(errno));
		close(fd);
		return (-1);
	}
	umask(mask);
	if (listen(fd, 128) != 0) {
		*cause = xasprintf("listen %s: %s", path, strerror(errno));
		close(fd);
		unlink(path);
		return (-1);
	}
	return (fd);
}

/* A new connection: check its owner and the cap, then serve it. */
static void
server_accept(struct evconnlistener *l, evutil_socket_t fd,
    struct sockaddr *sa, int salen, void *arg)
{
	static const char	 denied[] = "err permission denied\n";
	static const char	 full[] = "err too many clients\n";
	struct server		*srv = arg;
	long			 uid;

	if (sock_check_peer(fd, &uid) != 0) {
		log_info("refused a connection from uid %ld", uid);
		(void)write(fd, denied, sizeof denied - 1);
		close(fd);
		srv->refused++;
		return;
	}
	if (clients_count(srv->clients) >=
	    live_config(srv->live)->max_clients) {
		log_debug("refused a connection: %d clients",
		    clients_count(srv->clients));
		(void)write(fd, full, sizeof full - 1);
		close(fd);
		srv->refused++;
		return;
	}
	clients_accept(srv->clients, fd);
}

/* The back-off is over: listen again. */
static void
server_accept_resume(evutil_socket_t fd, short events, void *arg)
{
	struct server	*srv = arg;

	evconnlistener_enable(srv->listener);
}

/*
 * accept() failed (libevent passes over the harmless EAGAIN, EINTR,
 * ECONNABORTED).  Out of descriptors (EMFILE, ENFILE) or memory, the
 * pending connection stays in the backlog and the socket stays readable:
 * listening on would spin the loop and flood the log.  So stop listening
 * for SERVER_ACCEPT_BACKOFF_MS and log at most once a second, with how
 * many failures there were; the backlog is served once it is over.
 */
static void
server_accept_error(struct evconnlistener *l, void *arg)
{
	struct server	*srv = arg;
	struct timeval	 tv;
	uint64_t	 now = monotonic_ns();
	int		 err = errno;

	srv->accept_errors++;
	if (now >= srv->accept_logged + 1000000000ULL) {
		log_warnx("accept: %s (%llu times); not accepting for %d ms",
		    strerror(err), (unsigned long long)srv->accept_errors,
		    SERVER_ACCEPT_BACKOFF_MS);
		srv->accept_logged = now;
		srv->accept_errors = 0;
	}
	evconnlistener_disable(l);
	tv.tv_sec = 0;
	tv.tv_usec = SERVER_ACCEPT_BACKOFF_MS * 1000;
	evtimer_add(srv->accept_timer, &tv);
}

/* Serve connections on a listening socket, for the clients cs. */
struct server *
server_create(struct live *l, struct clients *cs, int fd)
{
	struct server	*srv;

	srv = xcalloc(1, sizeof *srv);
	srv->live = l;
	srv->clients = cs;
	srv->listener = evconnlistener_new(live_base(l), server_accept, srv,
	    LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC, -1, fd);
	if (srv->listener == NULL)
		fatalx("evconnlistener_new failed");
	evconnlistener_set_error_cb(srv->listener, server_accept_error);
	srv->accept_timer = evtimer_new(live_base(l), server_accept_resume,
	    srv);
	return (srv);
}

/* Stop listening (the clients are the caller's). */
void
server_free(struct server *srv)
{
	if (srv == NULL)
		return;
	event_free(srv->accept_timer);
	evconnlistener_free(srv->listener);
	free(srv);
}
