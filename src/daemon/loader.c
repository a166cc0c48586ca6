/*
 * loader.c -- a scenario parsed on a thread of its own (loader.h).
 *
 * The thread runs catalog_load only: the catalog is not changed after it
 * is made, and a parse touches nothing else of the daemon.  It tells the
 * loop it is done by a byte on a pipe; the loop joins it and hands the
 * result on, so everything after the parse (the session made, the old
 * one freed, the children spawned) happens on the loop's thread as
 * before.  The thread takes no signal: they stay the loop's.
 */
#include <event2/event.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog.h"
#include "loader.h"
#include "log.h"
#include "scenario.h"
#include "xmalloc.h"

struct loader {
	const struct catalog	*catalog;
	loader_done_cb		*done;
	void			*arg;
	int			 fd[2];		/* the thread's "done" pipe */
	struct event		*ev;
	pthread_t		 thread;
	char			*name;		/* NULL: no parse under way */
	/* The thread's result, read once it has written its byte. */
	struct scenario		*sc;
	char			*label, *cause;
};

/* The thread: parse, then say so. */
static void *
loader_main(void *arg)
{
	struct loader	*ld = arg;
	char		 c = 'x';

	ld->sc = catalog_load(ld->catalog, ld->name, 0, &ld->label,
	    &ld->cause);
	while (write(ld->fd[1], &c, 1) == -1 && errno == EINTR)
		;
	return (NULL);
}

/* Wait for the thread; its result is then ours to read. */
static void
loader_join(struct loader *ld)
{
	char	c;

	pthread_join(ld->thread, NULL);
	while (read(ld->fd[0], &c, 1) == -1 && errno == EINTR)
		;
	free(ld->name);
	ld->name = NULL;
}

/* The thread is done: hand the result on. */
static void
loader_ready(evutil_socket_t fd, short events, void *arg)
{
	struct loader	*ld = arg;

	if (ld->name == NULL)
		return;
	loader_join(ld);
	ld->done(ld->arg, ld->sc, ld->label, ld->cause);
	ld->sc = NULL;
	ld->label = ld->cause = NULL;
}

struct loader *
loader_create(struct event_base *base, const struct catalog *catalog,
    loader_done_cb *done, void *arg)
{
	struct loader	*ld;

	ld = xcalloc(1, sizeof *ld);
	ld->catalog = catalog;
	ld->done = done;
	ld->arg = arg;
	if (pipe2(ld->fd, O_CLOEXEC) == -1)
		fatal("pipe2");
	ld->ev = event_new(base, ld->fd[0], EV_READ | EV_PERSIST,
	    loader_ready, ld);
	if (ld->ev == NULL || event_add(ld->ev, NULL) != 0)
		fatalx("loader: event_new failed");
	return (ld);
}

void
loader_free(struct loader *ld)
{
	if (ld == NULL)
		return;
	if (ld->name != NULL) {
		loader_join(ld);
		scenario_free(ld->sc);
		free(ld->label);
		free(ld->cause);
	}
	event_free(ld->ev);
	close(ld->fd[0]);
	close(ld->fd[1]);
	free(ld);
}

int
loader_start(struct loader *ld, const char *name, char **cause)
{
	sigset_t	all, old;
	int		error;

	if (ld->name != NULL) {
		*cause = xasprintf("a load is under way (%s)", ld->name);
		return (-1);
	}
	ld->name = xstrdup(name);
	ld->sc = NULL;
	ld->label = ld->cause = NULL;
	/* The thread inherits this mask: no signal goes to it. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	error = pthread_create(&ld->thread, NULL, loader_main, ld);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (error != 0) {
		free(ld->name);
		ld->name = NULL;
		*cause = xasprintf("load: no thread to parse with: %s",
		    strerror(error));
		return (-1);
	}
	return (0);
}

const char *
loader_busy(const struct loader *ld)
{
	return (ld->name);
}
