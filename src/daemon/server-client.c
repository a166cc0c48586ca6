/*
 * server-client.c -- one connection to the control socket: the greeting,
 * bounded line reading, running commands, and frames for subscribers.
 *
 * Memory per client is bounded both ways.  Input: a line longer than
 * PROTO_LINE_MAX is answered with an error and discarded up to its
 * newline.  Output is counted in real memory (server_client_queued: the
 * bytes, plus what frame bodies held by reference cost beyond them): a
 * frame that would take it past SERVER_OUT_MAX is dropped (and counted in
 * the next frame's dropped=N) unless little is queued (a delta
 * subscriber's next frame then carries everything changed since the last
 * one it was sent), and a client whose replies pile up past it is not
 * read from until they drain, so a peer that never reads cannot make the
 * daemon grow.  A step's reply
 * comes when its ticks have run (daemon_step_start); the lines after it
 * wait, unless they cancel it.
 */
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon.h"
#include "log.h"
#include "runs.h"
#include "server.h"
#include "session.h"
#include "wire.h"
#include "xmalloc.h"

/* A runs line's key (wire.c). */
#define RK(k)	wire_key(&wire_runs, WIRE_RUNS_##k)

static void	server_client_runs(struct server_client *, struct evbuffer *,
		    uint64_t, int);

static void	server_client_read(struct bufferevent *, void *);
static void	server_client_write(struct bufferevent *, void *);
static void	server_client_error(struct bufferevent *, short, void *);
static void	server_client_sent(struct evbuffer *,
		    const struct evbuffer_cb_info *, void *);

/* Serve a new connection: greet it and wait for lines. */
void
server_client_create(struct server *srv, int fd)
{
	struct server_client	*c;
	char			 buf[64];
	size_t			 len;

	c = xcalloc(1, sizeof *c);
	c->server = srv;
	c->bev = bufferevent_socket_new(daemon_base(srv->daemon), fd,
	    BEV_OPT_CLOSE_ON_FREE);
	if (c->bev == NULL)
		fatalx("bufferevent_socket_new failed");
	bufferevent_setcb(c->bev, server_client_read, server_client_write,
	    server_client_error, c);
	c->outcb = evbuffer_add_cb(bufferevent_get_output(c->bev),
	    server_client_sent, c);
	/* Stop reading the socket while 64 KiB of lines wait unparsed. */
	bufferevent_setwatermark(c->bev, EV_READ, 0, 64 * 1024);
	bufferevent_enable(c->bev, EV_READ | EV_WRITE);
	TAILQ_INSERT_TAIL(&srv->clients, c, entry);
	srv->nclients++;
	c->event_seen = daemon_event_seq(srv->daemon);

	len = protocol_greeting(buf, sizeof buf);
	buf[len++] = '\n';
	bufferevent_write(c->bev, buf, len);
	log_debug("client %p connected (%d)", (void *)c, srv->nclients);
}

/* Close a connection at once. */
void
server_client_free(struct server_client *c)
{
	struct server	*srv = c->server;

	TAILQ_REMOVE(&srv->clients, c, entry);
	srv->nclients--;
	daemon_step_forget(srv->daemon, c);	/* the step runs on */
	evbuffer_remove_cb_entry(bufferevent_get_output(c->bev), c->outcb);
	bufferevent_free(c->bev);
	free(c->refs);
	if (c->subscribed)
		server_update_frames(srv);
	log_debug("client %p gone (%d)", (void *)c, srv->nclients);
	free(c);
}

/*
 * At exit: write what is queued, as far as the socket takes it without
 * waiting (the bufferevent owns the buffer's start, so copy, not drain).
 */
void
server_client_flush(struct server_client *c)
{
	struct evbuffer	*out = bufferevent_get_output(c->bev);
	size_t		 len = evbuffer_get_length(out);
	unsigned char	*p;

	if (len == 0 || (p = evbuffer_pullup(out, -1)) == NULL)
		return;
	(void)write(bufferevent_getfd(c->bev), p, len);
}

/*
 * Output left the buffer (written to the socket): forget the bodies held
 * by reference whose bytes are all gone.
 */
static void
server_client_sent(struct evbuffer *out, const struct evbuffer_cb_info *info,
    void *arg)
{
	struct server_client	*c = arg;
	struct server_ref	*r;

	c->sent += info->n_deleted;
	while (c->firstref < c->nrefs) {
		r = &c->refs[c->firstref];
		if (r->end > c->sent)
			break;
		c->refextra -= r->extra;
		c->firstref++;
	}
	if (c->firstref == c->nrefs)
		c->firstref = c->nrefs = 0;
}

/* Remember a body held by reference, its bytes ending at end. */
static void
server_client_hold(struct server_client *c, uint64_t end, size_t extra)
{
	if (c->nrefs == c->sizerefs && c->firstref > 0) {
		memmove(c->refs, c->refs + c->firstref,
		    (c->nrefs - c->firstref) * sizeof *c->refs);
		c->nrefs -= c->firstref;
		c->firstref = 0;
	}
	if (c->nrefs == c->sizerefs) {
		c->sizerefs = c->sizerefs != 0 ? c->sizerefs * 2 : 16;
		c->refs = xreallocarray(c->refs, c->sizerefs, sizeof *c->refs);
	}
	c->refs[c->nrefs].end = end;
	c->refs[c->nrefs].extra = extra;
	c->nrefs++;
	c->refextra += extra;
}

/*
 * The memory this client's output holds: the bytes queued plus, for the
 * frame bodies held by reference, their allocation beyond those bytes.
 */
static size_t
server_client_queued(struct server_client *c)
{
	return (evbuffer_get_length(bufferevent_get_output(c->bev)) +
	    c->refextra);
}

/*
 * Send one frame, or count it as dropped if the client is not reading:
 * a frame is queued only if the output stays within SERVER_OUT_MAX with
 * it, or if at most a few replies are queued (so a frame of any size can
 * go at all, the first one right after subscribe's "ok" too).
 */
void
server_client_frame(struct server_client *c)
{
	struct server		*srv = c->server;
	struct daemon		*d = srv->daemon;
	struct evbuffer		*out = bufferevent_get_output(c->bev);
	struct evbuffer		*tr;
	struct proto_status	 st;
	const struct daemon_event *ev;
	struct server_body	*b;
	const char		*caption;
	char			 buf[PROTO_TEXT_MAX + 64];
	uint64_t		 seq, first, ctick;
	size_t			 len, queued, need, extra;
	const char		*view;
	uint64_t		 view_seq;
	int			 delta;

	view = daemon_view(d, &view_seq);
	if (c->gen_sent != 0 && c->gen_sent == daemon_gen(d) &&
	    c->event_seen == daemon_event_seq(d) &&
	    (!c->view || c->view_seen == view_seq))
		return;
	queued = server_client_queued(c);
	delta = c->delta && c->gen_sent != 0;
	if (queued > SERVER_FRAME_COST &&
	    queued + SERVER_FRAME_COST > SERVER_OUT_MAX) {
		c->dropped++;
		return;
	}
	/* A delta is built (or shared) first: its size is not known. */
	b = delta ? server_frame_delta(srv, c->gen_sent) : srv->body;
	need = (b != NULL ? b->len : 0) + SERVER_FRAME_COST;
	if (queued > SERVER_FRAME_COST && queued + need > SERVER_OUT_MAX) {
		c->dropped++;
		return;
	}
	daemon_status(d, &st);
	len = protocol_frame_line(buf, sizeof buf, &st, c->dropped,
	    c->delta ? delta : -1);
	buf[len++] = '\n';
	evbuffer_add(out, buf, len);
	if (!delta)
		b = server_frame_body(srv);
	extra = server_body_add(out, b);
	if (extra != 0)
		server_client_hold(c, c->sent + evbuffer_get_length(out), extra);

	/*
	 * After a body held by reference the rest is built apart and moved
	 * in whole: added straight after it, libevent would allocate a new
	 * chain as large as that body for these few bytes.
	 */
	tr = extra != 0 ? srv->trailer : out;
	if (c->runs[0].on)
		server_client_runs(c, tr, st.tick, 0);
	if (c->runs[1].on)
		server_client_runs(c, tr, st.tick, 1);
	if ((caption = session_caption(daemon_session(d), &ctick)) != NULL) {
		len = protocol_text_line(buf, sizeof buf, "caption", ctick,
		    caption);
		buf[len++] = '\n';
		evbuffer_add(tr, buf, len);
	}
	first = daemon_event_first(d);
	if (c->event_seen + 1 > first)
		first = c->event_seen + 1;
	for (seq = first; (ev = daemon_event(d, seq)) != NULL; seq++) {
		len = protocol_text_line(buf, sizeof buf, "event", ev->tick,
		    ev->text);
		buf[len++] = '\n';
		evbuffer_add(tr, buf, len);
	}
	if (c->view && c->view_seen != view_seq) {
		evbuffer_add_printf(tr, "%s %s=%llu %s\n", wire_view.word,
		    wire_key(&wire_view, WIRE_VIEW_SEQ),
		    (unsigned long long)view_seq, view);
		c->view_seen = view_seq;
	}
	evbuffer_add(tr, "end\n", 4);
	if (tr != out)
		evbuffer_add_buffer(out, tr);
	c->gen_sent = daemon_gen(d);
	c->event_seen = daemon_event_seq(d);
	c->dropped = 0;
}

/*
 * The frame's `runs` lines (docs/PROTOCOL.md, "Runs"), or with kernel
 * its `kruns` lines ("Kernel runs": the daemon's ring of what the kernel
 * ran, none without one): per CPU what ran from the end of those this
 * client was sent to the tick shown, in lines of at most about 1 000
 * bytes.  When that does not follow on (the first frame, a new session,
 * a seek back, a branch) every CPU starts again with all that is kept up
 * to the tick shown, in at least one line (maybe empty) so the client
 * drops what it had.
 */
static void
server_client_runs(struct server_client *c, struct evbuffer *out, uint64_t to,
    int kernel)
{
	struct daemon		*d = c->server->daemon;
	const struct runs	*r;
	const char		*word;
	struct runs_run		 run[64];
	char			 line[1200];
	uint64_t		 from, first, *sent = &c->runs[kernel].to;
	size_t			 n, i, len;
	int			 cpu, cont, said, *ok = &c->runs[kernel].ok;

	r = kernel ? daemon_kruns(d) : session_runs(daemon_session(d));
	word = kernel ? wire_kruns.word : wire_runs.word;
	if (r == NULL)
		return;
	for (cpu = 0; cpu < runs_ncpus(r); cpu++) {
		first = runs_first(r, cpu);
		if (to > runs_end(r, cpu))
			to = runs_end(r, cpu);
		cont = *ok && *sent <= to && *sent >= first;
		from = cont ? *sent : first < to ? first : to;
		said = cont;
		len = 0;
		while ((n = runs_get(r, cpu, from, to, run, 64)) > 0) {
			for (i = 0; i < n; i++) {
				if (len == 0)
					len = snprintf(line, sizeof line,
					    "%s %s=%d %s=%llu ", word,
					    RK(CPU), cpu, RK(FROM),
					    (unsigned long long)run[i].from);
				else
					line[len++] = ',';
				if (kernel)
					len += protocol_kruns_item(line + len,
					    sizeof line - len, run[i].task,
					    run[i].n);
				else
					len += protocol_runs_item(line + len,
					    sizeof line - len, run[i].task,
					    run[i].rank, run[i].n);
				if (len > 1000) {
					line[len++] = '\n';
					evbuffer_add(out, line, len);
					len = 0;
					said = 1;
				}
			}
			from = run[n - 1].from + run[n - 1].n;
		}
		if (len > 0 || !said) {
			if (len == 0)
				len = snprintf(line, sizeof line,
				    "%s %s=%d %s=%llu ", word,
				    RK(CPU), cpu, RK(FROM),
				    (unsigned long long)from);
			line[len - 1] = line[len - 1] == ' ' ? '\n' : line[len - 1];
			if (line[len - 1] != '\n')
				line[len++] = '\n';
			evbuffer_add(out, line, len);
		}
	}
	*sent = to;
	*ok = 1;
}

/*
 * Start (or change the rate of) frames; the first one goes at once, and
 * is full: with delta, the later ones carry only what changed since the
 * last frame this client was sent; with runs, what each CPU ran; with
 * view, the presenter's view.
 */
static void
server_client_subscribe(struct server_client *c, const struct proto_cmd *cmd)
{
	struct daemon	*d = c->server->daemon;
	int		 fps = cmd->fps;

	if (fps > daemon_config(d)->max_fps)
		fps = daemon_config(d)->max_fps;
	c->fps = fps;
	c->subscribed = 1;
	c->delta = cmd->delta;
	c->runs[0].on = cmd->runs;
	c->runs[1].on = cmd->kruns;
	c->view = cmd->view;
	c->gen_sent = 0;	/* none yet: the first frame is full */
	c->runs[0].ok = c->runs[1].ok = 0;	/* and the runs kept */
	c->view_seen = 0;	/* and the presenter's view, if any */
	c->next_frame = clock_now_ns() + 1000000000ULL / fps;
	server_update_frames(c->server);
	server_client_frame(c);
}

/* Stop the frames. */
static void
server_client_unsubscribe(struct server_client *c)
{
	if (!c->subscribed)
		return;
	c->subscribed = 0;
	server_update_frames(c->server);
}

/* Run one complete line. */
static void
server_client_line(struct server_client *c, char *line, size_t len)
{
	struct evbuffer		*out = bufferevent_get_output(c->bev);
	struct proto_cmd	 cmd;
	char			*cause = NULL;
	int			 flags;

	if (len > 0 && line[len - 1] == '\r')
		line[--len] = '\0';
	if (len > PROTO_LINE_MAX) {
		evbuffer_add_printf(out, "err line too long (max %d bytes)\n",
		    PROTO_LINE_MAX);
		return;
	}
	if (memchr(line, '\0', len) != NULL) {
		evbuffer_add_printf(out, "err NUL byte in line\n");
		return;
	}
	if (protocol_parse(line, &cmd, &cause) != 0) {
		evbuffer_add_printf(out, "err %s\n", cause);
		free(cause);
		return;
	}
	/* The server itself refuses changes from a read-only client. */
	if (c->readonly && protocol_changes(&cmd)) {
		evbuffer_add_printf(out, "err read-only\n");
		protocol_cmd_free(&cmd);
		return;
	}
	flags = command_run(c->server->daemon, &cmd, out);
	if (flags & COMMAND_READONLY)
		c->readonly = 1;
	if (flags & COMMAND_STEP) {
		c->waiting = 1;
		daemon_step_start(c->server->daemon, cmd.steps,
		    cmd.step_event, c);
	}
	if (flags & COMMAND_SUBSCRIBE)
		server_client_subscribe(c, &cmd);
	if (flags & COMMAND_UNSUBSCRIBE)
		server_client_unsubscribe(c);
	if (flags & COMMAND_QUIT) {
		server_client_unsubscribe(c);
		c->closing = 1;
	}
	protocol_cmd_free(&cmd);
}

/*
 * Does the next complete line in `in` start with a command that cancels
 * a step (pause, resume, step)?  Its name, or NULL; the line stays.
 */
static const char *
server_client_cancels(struct evbuffer *in)
{
	static const char	*const words[] = { "pause", "resume", "step" };
	struct evbuffer_ptr	 eol;
	char			 buf[16], *p;
	size_t			 n, i, len;

	eol = evbuffer_search_eol(in, NULL, NULL, EVBUFFER_EOL_LF);
	if (eol.pos < 0)
		return (NULL);
	n = (size_t)eol.pos < sizeof buf - 1 ? (size_t)eol.pos : sizeof buf - 1;
	if (evbuffer_copyout(in, buf, n) != (ev_ssize_t)n)
		return (NULL);
	buf[n] = '\0';
	for (p = buf; *p == ' ' || *p == '\t'; p++)
		;
	for (i = 0; i < sizeof words / sizeof words[0]; i++) {
		len = strlen(words[i]);
		if (strncmp(p, words[i], len) == 0 && (p[len] == '\0' ||
		    p[len] == ' ' || p[len] == '\t' || p[len] == '\r'))
			return (words[i]);
	}
	return (NULL);
}

/*
 * Lines arrived: run each complete one, bounded as described above.
 * While the client waits for its step's reply its lines wait too, so
 * replies stay in order, except that a pause, resume or step cancels
 * the step (whose reply then comes first) and runs.
 */
static void
server_client_read(struct bufferevent *bev, void *arg)
{
	struct server_client	*c = arg;
	struct evbuffer		*in = bufferevent_get_input(bev);
	struct evbuffer		*out = bufferevent_get_output(bev);
	const char		*word;
	char			*line;
	size_t			 len;

	c->in_read = 1;
	while (!c->closing) {
		if (c->waiting) {
			if ((word = server_client_cancels(in)) == NULL)
				break;
			daemon_step_cancel(c->server->daemon,
			    strcmp(word, "step") == 0 ? "a new step" : word);
		}
		line = evbuffer_readln(in, &len, EVBUFFER_EOL_LF);
		if (line == NULL) {
			if (c->discarding)
				evbuffer_drain(in, evbuffer_get_length(in));
			else if (evbuffer_get_length(in) > PROTO_LINE_MAX + 1) {
				evbuffer_drain(in, evbuffer_get_length(in));
				evbuffer_add_printf(out, "err line too long "
				    "(max %d bytes)\n", PROTO_LINE_MAX);
				c->discarding = 1;
			}
			break;
		}
		if (c->discarding)
			c->discarding = 0;	/* the long line's tail */
		else
			server_client_line(c, line, len);
		free(line);
		if (server_client_queued(c) > SERVER_OUT_MAX) {
			bufferevent_disable(bev, EV_READ);
			c->blocked = 1;
			break;
		}
	}
	c->in_read = 0;
	if (c->eof && !c->waiting)
		c->closing = 1;
	if (c->closing)
		bufferevent_disable(bev, EV_READ);
}

/*
 * The client's step is over: queue its reply (line, with its \n) and run
 * the lines that waited behind it.
 */
void
server_client_step_done(struct server_client *c, const char *line)
{
	evbuffer_add(bufferevent_get_output(c->bev), line, strlen(line));
	c->waiting = 0;
	if (!c->in_read && !c->blocked && !c->closing)
		server_client_read(c->bev, c);
}

/* Output drained: close if asked to, read again if reading had stopped. */
static void
server_client_write(struct bufferevent *bev, void *arg)
{
	struct server_client	*c = arg;

	if (c->closing) {
		server_client_free(c);
		return;
	}
	if (c->blocked) {
		c->blocked = 0;
		bufferevent_enable(bev, EV_READ);
		server_client_read(bev, c);
		/* Done with nothing left to send: no more write callbacks. */
		if (c->closing && server_client_queued(c) == 0)
			server_client_free(c);
	}
}

/*
 * The peer went away or the connection failed: forget the client.  A
 * peer that only closed its writing side ("echo status | socat ...")
 * still gets the replies already queued, and a step's when it is done.
 */
static void
server_client_error(struct bufferevent *bev, short what, void *arg)
{
	struct server_client	*c = arg;

	if ((what & BEV_EVENT_EOF) && (what & BEV_EVENT_READING) &&
	    (server_client_queued(c) > 0 || c->waiting)) {
		server_client_unsubscribe(c);
		bufferevent_disable(bev, EV_READ);
		if (c->waiting)
			c->eof = 1;	/* closes once its step replied */
		else
			c->closing = 1;
		return;
	}
	server_client_free(c);
}
