/*
 * server.c -- the daemon's unix socket: where it lives, making it safely
 * (a private directory, a stale socket replaced, a live daemon's socket
 * left alone), accepting connections (same uid or root only, at most
 * max_clients) and the frame body shared by every subscriber.
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/listener.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon.h"
#include "log.h"
#include "server.h"
#include "session.h"
#include "sock.h"
#include "wire.h"
#include "xmalloc.h"

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
	if (srv->nclients >= daemon_config(srv->daemon)->max_clients) {
		log_debug("refused a connection: %d clients", srv->nclients);
		(void)write(fd, full, sizeof full - 1);
		close(fd);
		srv->refused++;
		return;
	}
	server_client_create(srv, fd);
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
	uint64_t	 now = clock_now_ns();
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

/* Serve connections on a listening socket. */
struct server *
server_create(struct daemon *d, int fd)
{
	struct server	*srv;

	srv = xcalloc(1, sizeof *srv);
	srv->daemon = d;
	TAILQ_INIT(&srv->clients);
	srv->listener = evconnlistener_new(daemon_base(d), server_accept, srv,
	    LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC, -1, fd);
	if (srv->listener == NULL)
		fatalx("evconnlistener_new failed");
	evconnlistener_set_error_cb(srv->listener, server_accept_error);
	srv->accept_timer = evtimer_new(daemon_base(d), server_accept_resume,
	    srv);
	if ((srv->trailer = evbuffer_new()) == NULL)
		fatalx("evbuffer_new failed");
	return (srv);
}

/* Send what can be sent to every client now, without waiting. */
void
server_flush(struct server *srv)
{
	struct server_client	*c;

	TAILQ_FOREACH(c, &srv->clients, entry)
		server_client_flush(c);
}

/* Close every connection and the listening socket. */
void
server_free(struct server *srv)
{
	struct server_client	*c;

	if (srv == NULL)
		return;
	while ((c = TAILQ_FIRST(&srv->clients)) != NULL)
		server_client_free(c);
	if (srv->frame_timer != NULL)
		event_free(srv->frame_timer);
	event_free(srv->accept_timer);
	evbuffer_free(srv->trailer);
	evconnlistener_free(srv->listener);
	free(srv->lines);
	free(srv->reals);
	free(srv->chlog);
	free(srv->delta_ids);
	free(srv->body);
	free(srv->delta);
	free(srv);
}

/*
 * A new session (load, reset): the task lines kept for delta frames
 * belong to the old one.  Forget them, and every subscriber's next frame
 * is a full one; subscriptions (read-only ones too) carry on.
 */
void
server_reset(struct server *srv)
{
	struct server_client	*c;

	free(srv->lines);
	srv->lines = NULL;
	srv->nlines = 0;
	srv->lines_gen = 0;
	srv->lines_engine = NULL;	/* the next update looks at all */
	srv->nreals = 0;
	srv->nchlog = 0;
	srv->chlog_floor = daemon_gen(srv->daemon);
	TAILQ_FOREACH(c, &srv->clients, entry) {
		c->gen_sent = 0;
		c->runs[0].ok = c->runs[1].ok = 0;
	}
}

/*
 * The frame clock: every subscriber whose time has come gets a frame.
 * One clock for all (not one timer per client) so that subscribers share
 * the formatted body: with 1 000 tasks formatting is most of the cost.
 */
static void
server_frame_tick(evutil_socket_t fd, short events, void *arg)
{
	struct server		*srv = arg;
	struct server_client	*c;
	uint64_t		 now = clock_now_ns(), period, slack;

	daemon_catchup(srv->daemon);	/* a batching clock: frames are now */
	slack = 500000000ULL / srv->frame_fps;	/* half the clock's period */
	TAILQ_FOREACH(c, &srv->clients, entry) {
		if (!c->subscribed || c->next_frame > now + slack)
			continue;
		period = 1000000000ULL / c->fps;
		c->next_frame += period;
		if (c->next_frame + slack < now)
			c->next_frame = now + period;
		server_client_frame(c);
	}
}

/* Run the frame clock at the highest rate any subscriber asked for. */
void
server_update_frames(struct server *srv)
{
	struct server_client	*c;
	struct timeval		 tv;
	int			 fps = 0;

	TAILQ_FOREACH(c, &srv->clients, entry) {
		if (c->subscribed && c->fps > fps)
			fps = c->fps;
	}
	if (fps == srv->frame_fps)
		return;
	srv->frame_fps = fps;
	if (srv->frame_timer == NULL)
		srv->frame_timer = event_new(daemon_base(srv->daemon), -1,
		    EV_PERSIST, server_frame_tick, srv);
	evtimer_del(srv->frame_timer);
	if (fps == 0)
		return;
	tv.tv_sec = 0;
	tv.tv_usec = 1000000 / fps;
	evtimer_add(srv->frame_timer, &tv);
}

/* What a task line shows: when it is unchanged, so is the line. */
struct server_key {
	enum engine_state	state;
	enum engine_exit	exit;
	int			running, cpu, group, nice, rank, iter, left;
	int			slice, top, bottom;
	uint64_t		ran;
	struct cpumask		allowed;
};

/*
 * A task's line as last formatted, and what it showed.  changed is the
 * daemon's gen when the line last changed (or the task went): a delta
 * frame against gen G carries the lines changed after G.
 */
struct server_line {
	struct server_key	 key;
	int			 valid;		/* the task exists */
	uint64_t		 changed;
	size_t			 len;
	char			 text[512];
};

/* Fill a task's key from its info (zeroed first: it is memcmp'd). */
static void
server_key(struct server_key *k, const struct engine_task_info *ti)
{
	memset(k, 0, sizeof *k);
	k->state = ti->state;
	k->exit = ti->exit;
	k->running = ti->running;
	k->cpu = ti->cpu;
	k->group = ti->group;
	k->nice = ti->stair.nice;
	k->rank = ti->stair.rank;
	k->iter = ti->stair.iter;
	k->left = ti->stair.left;
	k->slice = ti->slice;
	k->top = ti->top;
	k->bottom = ti->bottom;
	k->ran = ti->ran;
	k->allowed = ti->allowed;
}

/* Drop a reference to a frame body; the last one frees it. */
void
server_body_unref(struct server_body *b)
{
	if (b != NULL && --b->refs == 0)
		free(b);
}

/* evbuffer's cleanup for a body added by reference. */
static void
server_body_cleanup(const void *data, size_t len, void *arg)
{
	server_body_unref(arg);
}

/*
 * Queue a frame body on an output buffer: a small one copied, a large
 * one by reference (no copy, shared by every subscriber).  Returns the
 * memory it holds beyond the bytes counted in the buffer's length: for a
 * reference, the body's unused capacity and the chains around it.
 */
size_t
server_body_add(struct evbuffer *out, struct server_body *b)
{
	if (b->len <= SERVER_BODY_COPY) {
		evbuffer_add(out, b->data, b->len);
		return (0);
	}
	b->refs++;
	if (evbuffer_add_reference(out, b->data, b->len, server_body_cleanup,
	    b) != 0) {
		b->refs--;
		evbuffer_add(out, b->data, b->len);
		return (0);
	}
	return (sizeof *b + b->size - b->len + SERVER_REF_COST);
}

/*
 * Start building a body in *bp.  One still queued somewhere is left to
 * its holders and a new one allocated, sized from it (not a fixed size:
 * the allocation is what the clients' output bound counts).
 */
static void
server_body_begin(struct server_body **bp)
{
	size_t	size = 4096;

	if (*bp != NULL && (*bp)->refs > 1) {
		size = (*bp)->len + (*bp)->len / 8 + 1024;
		server_body_unref(*bp);
		*bp = NULL;
	}
	if (*bp == NULL) {
		*bp = xmalloc(sizeof **bp + size);
		(*bp)->refs = 1;
		(*bp)->size = size;
	}
	(*bp)->len = 0;
}

/* Append len bytes to the body being built (which nobody else holds). */
static void
server_body_append(struct server_body **bp, const char *p, size_t len)
{
	struct server_body	*b = *bp;
	size_t			 size = b->size;

	if (b->len + len > size) {
		while (b->len + len > size)
			size *= 2;
		b = xrealloc(b, sizeof *b + size);
		b->size = size;
		*bp = b;
	}
	memcpy(b->data + b->len, p, len);
	b->len += len;
}

/* Append the cpu lines (every frame has them all: few and cheap). */
static void
server_body_cpus(struct server *srv, struct server_body **bp)
{
	struct daemon		*d = srv->daemon;
	struct engine_cpu_info	 ci;
	char			 buf[256];
	int			 c, n;

	for (c = 0; c < engine_params(daemon_engine(d))->cpus; c++) {
		engine_cpu_info(daemon_engine(d), c, &ci);
		n = (int)format_cpu_line(buf, sizeof buf - 1, &ci);
		buf[n++] = '\n';
		server_body_append(bp, buf, (size_t)n);
	}
}

/* Note that task id's line changed at gen (a delta frame's ids). */
static void
server_chlog_add(struct server *srv, uint64_t gen, int id)
{
	size_t	most = (size_t)srv->nlines * 4 + 65536;

	if (srv->nchlog >= most) {
		/* Long: deltas from before now look at every line. */
		srv->nchlog = 0;
		srv->chlog_floor = gen;
	}
	if (srv->nchlog == srv->alloc_chlog) {
		srv->alloc_chlog = srv->alloc_chlog ? srv->alloc_chlog * 2 :
		    1024;
		if (srv->alloc_chlog > most)
			srv->alloc_chlog = most;
		srv->chlog = xreallocarray(srv->chlog, srv->alloc_chlog,
		    sizeof *srv->chlog);
	}
	srv->chlog[srv->nchlog].gen = gen;
	srv->chlog[srv->nchlog].id = id;
	srv->nchlog++;
}

/*
 * Bring task id's line up to date: formatted again only when what it
 * shows changed (real tasks always: their CPU time moves on its own),
 * and marked changed (at d->gen) only when its text did.  A task that
 * no longer exists is marked changed and no longer valid: delta frames
 * say it is gone.  1 if it is a real task.
 */
static int
server_line_update(struct server *srv, int id, int n)
{
	struct daemon		*d = srv->daemon;
	const struct engine	*e = daemon_engine(d);
	struct engine_task_info	 ti;
	struct server_line	*l = &srv->lines[id - 1];
	struct server_key	 key;
	struct format_real	 real;
	char			 buf[sizeof l->text], ex[96];
	size_t			 len;
	int			 isreal;

	if (id > n || engine_task_info(e, id, &ti) != 0) {
		if (l->valid) {
			l->valid = 0;
			l->changed = daemon_gen(d);
			server_chlog_add(srv, daemon_gen(d), id);
		}
		return (0);
	}
	server_key(&key, &ti);
	if (l->valid && ti.kind != ENGINE_REAL &&
	    memcmp(&key, &l->key, sizeof key) == 0)
		return (0);
	isreal = ti.kind == ENGINE_REAL &&
	    daemon_real(d, id, &real, ex, sizeof ex) == 0;
	len = format_task_line(buf, sizeof buf - 1, &ti,
	    isreal ? &real : NULL, ti.group >= 0 ?
	    engine_group_name(e, ti.group) : NULL);
	buf[len++] = '\n';
	l->key = key;
	if (l->valid && len == l->len && memcmp(buf, l->text, len) == 0)
		return (ti.kind == ENGINE_REAL);
	memcpy(l->text, buf, len);
	l->len = len;
	l->valid = 1;
	l->changed = daemon_gen(d);
	server_chlog_add(srv, daemon_gen(d), id);
	return (ti.kind == ENGINE_REAL);
}

/* Remember a real task's id: its line is looked at every frame. */
static void
server_real_add(struct server *srv, int id)
{
	if (srv->nreals == srv->alloc_reals) {
		srv->alloc_reals = srv->alloc_reals ? srv->alloc_reals * 2 :
		    16;
		srv->reals = xreallocarray(srv->reals, srv->alloc_reals,
		    sizeof *srv->reals);
	}
	srv->reals[srv->nreals++] = id;
}

/*
 * Append the shadow's lines (compare NAME, SPEC.md section 6): its cpu
 * and task lines as the enforced engine's, each keyword prefixed with
 * `s` (scpu, stask), all of them in every frame, full or delta (the
 * shadow is a teaching aid: a few tasks).  None when there is no shadow.
 */
static void
server_body_shadow(struct server *srv, struct server_body **bp)
{
	const struct engine	*sh = session_shadow(daemon_session(srv->daemon));
	struct engine_cpu_info	 ci;
	struct engine_task_info	 ti;
	char			 buf[sizeof srv->lines[0].text + 1];
	int			 c, id, n;

	if (sh == NULL)
		return;
	for (c = 0; c < engine_params(sh)->cpus; c++) {
		engine_cpu_info(sh, c, &ci);
		buf[0] = 's';
		n = 1 + (int)format_cpu_line(buf + 1, sizeof buf - 2, &ci);
		buf[n++] = '\n';
		server_body_append(bp, buf, (size_t)n);
	}
	for (id = 1; id <= engine_ntasks(sh); id++) {
		if (engine_task_info(sh, id, &ti) != 0)
			continue;
		buf[0] = 's';
		n = 1 + (int)format_task_line(buf + 1, sizeof buf - 2, &ti,
		    NULL, ti.group >= 0 ? engine_group_name(sh, ti.group) :
		    NULL);
		buf[n++] = '\n';
		server_body_append(bp, buf, (size_t)n);
	}
}

/*
 * Bring every task's line up to date with the daemon, once per change
 * (d->gen), however many subscribers there are.  Only the tasks the
 * engine's log of changes names since the last update are looked at
 * (engine_changes), the ones the CPUs run and the real ones: a frame
 * costs what changed, not a pass over 20 000 tasks.  Another engine (a
 * load, a seek), a log started again or a policy that cannot say (cfs)
 * looks at every task.
 */
static void
server_frame_lines(struct server *srv)
{
	struct daemon		*d = srv->daemon;
	const struct engine	*e = daemon_engine(d);
	const int		*ids;
	size_t			 nlog, i;
	uint64_t		 epoch;
	struct engine_cpu_info	 ci;
	int			 id, n, all, nreals, was, c;

	/* Every task was added at a gen > 0: at gen 0 there are none. */
	if (srv->lines_gen == daemon_gen(d))
		return;
	n = engine_ntasks(e);
	epoch = engine_changes(e, &ids, &nlog);
	all = epoch == 0 || e != srv->lines_engine ||
	    epoch != srv->lines_epoch || nlog < srv->lines_cursor ||
	    n < srv->nlines;
	if (n > srv->nlines) {
		srv->lines = xreallocarray(srv->lines, n, sizeof *srv->lines);
		memset(srv->lines + srv->nlines, 0,
		    (n - srv->nlines) * sizeof *srv->lines);
		srv->nlines = n;
	}
	if (all) {
		srv->nreals = 0;
		for (id = 1; id <= srv->nlines; id++) {
			if (server_line_update(srv, id, n))
				server_real_add(srv, id);
		}
	} else {
		nreals = srv->nreals;
		for (i = 0; i < (size_t)nreals; i++)
			server_line_update(srv, srv->reals[i], n);
		/* What the CPUs run: ticks change it without logging. */
		for (c = 0; c < engine_params(e)->cpus; c++) {
			engine_cpu_info(e, c, &ci);
			if (ci.task > 0 && ci.task <= n)
				server_line_update(srv, ci.task, n);
		}
		for (i = srv->lines_cursor; i < nlog; i++) {
			was = srv->lines[ids[i] - 1].valid;
			if (server_line_update(srv, ids[i], n) && !was)
				server_real_add(srv, ids[i]);
		}
	}
	srv->lines_engine = e;
	srv->lines_epoch = epoch;
	srv->lines_cursor = nlog;
	srv->lines_gen = daemon_gen(d);
}

/*
 * The cpu and task lines of a full frame for the daemon's current state,
 * built once per change however many subscribers there are, and queued
 * to each by reference when large.
 */
struct server_body *
server_frame_body(struct server *srv)
{
	struct daemon		*d = srv->daemon;
	struct server_line	*l;
	int			 id;

	server_frame_lines(srv);
	if (srv->body != NULL && srv->body_gen == daemon_gen(d))
		return (srv->body);
	server_body_begin(&srv->body);
	server_body_cpus(srv, &srv->body);
	for (id = 1; id <= srv->nlines; id++) {
		l = &srv->lines[id - 1];
		if (l->valid)
			server_body_append(&srv->body, l->text, l->len);
	}
	server_body_shadow(srv, &srv->body);
	srv->body_gen = daemon_gen(d);
	return (srv->body);
}

/* How many clients are connected. */
int
server_nclients(const struct server *srv)
{
	return (srv->nclients);
}

/* Order ids, for qsort. */
static int
server_cmp_id(const void *a, const void *b)
{
	int	x = *(const int *)a, y = *(const int *)b;

	return ((x > y) - (x < y));
}

/*
 * The ids of the lines changed after gen from, in id order, each once,
 * from the log of changes (the newest entries: a binary search finds
 * the first after from); -1 if the log does not go back that far.
 */
static int
server_changed_since(struct server *srv, uint64_t from, size_t *np)
{
	size_t	lo = 0, hi = srv->nchlog, mid, i, n = 0;

	if (from < srv->chlog_floor)
		return (-1);
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (srv->chlog[mid].gen <= from)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (srv->nchlog - lo > srv->alloc_delta_ids) {
		srv->alloc_delta_ids = srv->nchlog - lo;
		srv->delta_ids = xreallocarray(srv->delta_ids,
		    srv->alloc_delta_ids, sizeof *srv->delta_ids);
	}
	for (i = lo; i < srv->nchlog; i++)
		srv->delta_ids[n++] = srv->chlog[i].id;
	if (n > 1)
		qsort(srv->delta_ids, n, sizeof *srv->delta_ids,
		    server_cmp_id);
	for (i = lo = 0; i < n; i++) {
		if (lo > 0 && srv->delta_ids[lo - 1] == srv->delta_ids[i])
			continue;
		srv->delta_ids[lo++] = srv->delta_ids[i];
	}
	*np = lo;
	return (0);
}

/* Append task id's line, or that it is gone, to a delta body. */
static void
server_delta_line(struct server *srv, int id)
{
	struct server_line	*l = &srv->lines[id - 1];
	char			 buf[64];
	int			 n;

	if (l->valid)
		server_body_append(&srv->delta, l->text, l->len);
	else {
		n = snprintf(buf, sizeof buf, "%s %s=%d\n", wire_gone.word,
		    wire_key(&wire_gone, WIRE_GONE_ID), id);
		server_body_append(&srv->delta, buf, (size_t)n);
	}
}

/*
 * The body of a delta frame for a client whose last frame was at gen
 * from: the cpu lines, then the task lines changed since, and "gone id=N"
 * for tasks that went, in id order.  Subscribers that got the same last
 * frame (the usual case: one rate) share it; it is built when asked
 * for, so a frame that is dropped costs nothing but the gen check.  The
 * changed lines come from the log of changes (what changed, not every
 * line); a client further behind than the log gets a pass over the
 * lines' gens.
 */
struct server_body *
server_frame_delta(struct server *srv, uint64_t from)
{
	struct daemon		*d = srv->daemon;
	size_t			 n, i;
	int			 id;

	server_frame_lines(srv);
	if (srv->delta != NULL && srv->delta_gen == daemon_gen(d) &&
	    srv->delta_from == from)
		return (srv->delta);
	server_body_begin(&srv->delta);
	server_body_cpus(srv, &srv->delta);
	if (server_changed_since(srv, from, &n) == 0) {
		for (i = 0; i < n; i++) {
			id = srv->delta_ids[i];
			if (srv->lines[id - 1].changed > from)
				server_delta_line(srv, id);
		}
	} else {
		for (id = 1; id <= srv->nlines; id++) {
			if (srv->lines[id - 1].changed > from)
				server_delta_line(srv, id);
		}
	}
	server_body_shadow(srv, &srv->delta);
	srv->delta_gen = daemon_gen(d);
	srv->delta_from = from;
	return (srv->delta);
}
