/*
 * clients.c -- the connections to the control socket: each one's
 * greeting, bounded line reading and commands run; what subscribers
 * are sent, and the output's bound, is clients-frame.c's.
 *
 * Memory per client is bounded both ways.  Input: a line longer than
 * PROTO_LINE_MAX is answered with an error and discarded up to its
 * newline, and the socket is not read while 64 KiB of lines wait
 * unparsed.  Output: a client whose replies pile up past CLIENT_OUT_MAX
 * (client_queued) is not read from until they drain, so a peer that
 * never reads cannot make the daemon grow.
 *
 * A step's reply comes when its ticks have run (CMD_WAIT: the pacer
 * tells the client's struct pacer_wait); the lines after it wait, unless
 * they cancel it (pause, resume, step).  A load's reply comes when its
 * scenario is parsed (loader.c); the lines after it wait.  A client's
 * waiting lines run from the event loop, never inside another command:
 * the step may end because another client's command cancelled it.
 */
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clients-int.h"
#include "clients.h"
#include "cmd.h"
#include "config.h"
#include "frames.h"
#include "log.h"
#include "monotonic.h"
#include "notes.h"
#include "protocol.h"
#include "xmalloc.h"

static void	client_read(struct bufferevent *, void *);
static void	client_write(struct bufferevent *, void *);
static void	client_error(struct bufferevent *, short, void *);
static void	client_free(struct client *);

/* The connections of the live daemon l, its frames built by f. */
struct clients *
clients_create(struct live *l, struct frames *f)
{
	struct clients	*cs;

	cs = xcalloc(1, sizeof *cs);
	cs->live = l;
	cs->frames = f;
	TAILQ_INIT(&cs->list);
	if ((cs->trailer = evbuffer_new()) == NULL)
		fatalx("evbuffer_new failed");
	return (cs);
}

/* Close every connection. */
void
clients_free(struct clients *cs)
{
	struct client	*c;

	if (cs == NULL)
		return;
	while ((c = TAILQ_FIRST(&cs->list)) != NULL)
		client_free(c);
	if (cs->frame_timer != NULL)
		event_free(cs->frame_timer);
	evbuffer_free(cs->trailer);
	free(cs);
}

/* How many are connected. */
int
clients_count(const struct clients *cs)
{
	return (cs->n);
}

/*
 * A new session (load, reset): every subscriber's next frame is a full
 * one, with all the runs kept; subscriptions (read-only ones too) carry
 * on.  The lines kept for delta frames are the old session's.
 */
void
clients_reset(struct clients *cs)
{
	struct client	*c;

	frames_reset(cs->frames);
	TAILQ_FOREACH(c, &cs->list, entry) {
		c->gen_sent = 0;
		c->runs[0].ok = c->runs[1].ok = 0;
	}
}

/* The step's reply came: queue it; its waiting lines run after. */
static void
client_replied(struct pacer_wait *w, const char *line)
{
	struct client	*c = (struct client *)((char *)w -
			    offsetof(struct client, wait));

	evbuffer_add(bufferevent_get_output(c->bev), line, strlen(line));
	if (!c->waiting) {
		c->replied = 1;		/* within its own command */
		return;
	}
	c->waiting = 0;
	/* Not now: maybe inside another client's command. */
	event_active(c->resume, EV_TIMEOUT, 1);
}

/*
 * Run the lines that waited behind a step, from the event loop; a peer
 * that has gone (eof) and was told everything is closed.
 */
static void
client_go_on(evutil_socket_t fd, short events, void *arg)
{
	struct client	*c = arg;

	if (!c->in_read && !c->blocked && !c->closing && !c->waiting)
		client_read(c->bev, c);
	if (c->closing && client_queued(c) == 0)
		client_free(c);
}

/* Serve a new connection: greet it and wait for lines. */
void
clients_accept(struct clients *cs, int fd)
{
	struct client	*c;
	char		 buf[64];
	size_t		 len;

	c = xcalloc(1, sizeof *c);
	c->set = cs;
	c->bev = bufferevent_socket_new(live_base(cs->live), fd,
	    BEV_OPT_CLOSE_ON_FREE);
	if (c->bev == NULL)
		fatalx("bufferevent_socket_new failed");
	bufferevent_setcb(c->bev, client_read, client_write, client_error, c);
	c->outcb = evbuffer_add_cb(bufferevent_get_output(c->bev),
	    client_sent, c);
	c->wait.done = client_replied;
	c->resume = event_new(live_base(cs->live), -1, 0, client_go_on, c);
	/* Stop reading the socket while 64 KiB of lines wait unparsed. */
	bufferevent_setwatermark(c->bev, EV_READ, 0, 64 * 1024);
	bufferevent_enable(c->bev, EV_READ | EV_WRITE);
	TAILQ_INSERT_TAIL(&cs->list, c, entry);
	cs->n++;
	c->event_seen = notes_seq(live_notes(cs->live));

	len = protocol_greeting(buf, sizeof buf);
	buf[len++] = '\n';
	bufferevent_write(c->bev, buf, len);
	log_debug("client %p connected (%d)", (void *)c, cs->n);
}

/* Close a connection at once; a step it waited for runs on. */
static void
client_free(struct client *c)
{
	struct clients	*cs = c->set;

	TAILQ_REMOVE(&cs->list, c, entry);
	cs->n--;
	pacer_step_forget(live_pacer(cs->live), &c->wait);
	live_load_forget(cs->live, &c->wait);
	event_free(c->resume);
	evbuffer_remove_cb_entry(bufferevent_get_output(c->bev), c->outcb);
	bufferevent_free(c->bev);
	free(c->refs);
	if (c->subscribed)
		clients_update_frames(cs);
	log_debug("client %p gone (%d)", (void *)c, cs->n);
	free(c);
}

/*
 * At exit: write what is queued, as far as the socket takes it without
 * waiting (the bufferevent owns the buffer's start, so copy, not drain).
 */
static void
client_flush(struct client *c)
{
	struct evbuffer	*out = bufferevent_get_output(c->bev);
	size_t		 len = evbuffer_get_length(out);
	unsigned char	*p;

	if (len == 0 || (p = evbuffer_pullup(out, -1)) == NULL)
		return;
	(void)write(bufferevent_getfd(c->bev), p, len);
}

/* At exit: send every client what is queued, without waiting. */
void
clients_flush(struct clients *cs)
{
	struct client	*c;

	TAILQ_FOREACH(c, &cs->list, entry)
		client_flush(c);
}

/*
 * Start (or change the rate of) frames; the first one goes at once, and
 * is full: with delta, the later ones carry only what changed since the
 * last frame this client was sent; with runs, what each CPU ran; with
 * view, the presenter's view.
 */
static void
client_subscribe(struct client *c, const struct cmd *cmd)
{
	int	fps = cmd->fps, max = live_config(c->set->live)->max_fps;

	if (fps > max)
		fps = max;
	c->fps = fps;
	c->subscribed = 1;
	c->delta = cmd->delta;
	c->runs[0].on = cmd->runs;
	c->runs[1].on = cmd->kruns;
	c->view = cmd->view;
	c->gen_sent = 0;	/* none yet: the first frame is full */
	c->runs[0].ok = c->runs[1].ok = 0;	/* and the runs kept */
	c->view_seen = 0;	/* and the presenter's view, if any */
	c->next_frame = monotonic_ns() + 1000000000ULL / fps;
	clients_update_frames(c->set);
	client_frame(c);
}

/* Stop the frames. */
static void
client_unsubscribe(struct client *c)
{
	if (!c->subscribed)
		return;
	c->subscribed = 0;
	clients_update_frames(c->set);
}

/* Run one complete line. */
static void
client_line(struct client *c, char *line, size_t len)
{
	struct evbuffer	*out = bufferevent_get_output(c->bev);
	struct cmd_ctx	 ctx;
	struct cmd	 cmd;
	char		*cause = NULL;

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
	if (cmd_parse(line, &cmd, &cause) != 0) {
		evbuffer_add_printf(out, "err %s\n", cause);
		free(cause);
		return;
	}
	memset(&ctx, 0, sizeof ctx);
	ctx.live = c->set->live;
	ctx.out = out;
	ctx.wait = &c->wait;
	ctx.readonly = c->readonly;
	ctx.vote = &c->vote;
	ctx.clients = c->set->n;
	c->replied = 0;
	switch (cmd_run(&cmd, &ctx)) {
	case CMD_NORMAL:
		break;
	case CMD_WAIT:
		/* Its reply came already (a short step), or comes later. */
		c->waiting = !c->replied;
		break;
	case CMD_SUBSCRIBE:
		client_subscribe(c, &cmd);
		break;
	case CMD_UNSUBSCRIBE:
		client_unsubscribe(c);
		break;
	case CMD_READONLY:
		c->readonly = 1;
		break;
	case CMD_QUIT:
		client_unsubscribe(c);
		c->closing = 1;
		break;
	}
	cmd_free(&cmd);
}

/*
 * Does the next complete line in `in` start with a command that cancels
 * a step (pause, resume, step)?  Its name, or NULL; the line stays.
 */
static const char *
client_cancels(struct evbuffer *in)
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
client_read(struct bufferevent *bev, void *arg)
{
	struct client	*c = arg;
	struct evbuffer	*in = bufferevent_get_input(bev);
	struct evbuffer	*out = bufferevent_get_output(bev);
	const char	*word;
	char		*line;
	size_t		 len;

	if (c->in_read)
		return;
	c->in_read = 1;
	while (!c->closing) {
		if (c->waiting) {
			/* Only a step is cancelled; a load is waited for. */
			if (!pacer_step_of(live_pacer(c->set->live),
			    &c->wait) || (word = client_cancels(in)) == NULL)
				break;
			pacer_step_cancel(live_pacer(c->set->live),
			    strcmp(word, "step") == 0 ? "a new step" : word);
			c->waiting = 0;		/* its reply is queued */
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
			client_line(c, line, len);
		free(line);
		if (client_queued(c) > CLIENT_OUT_MAX) {
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

/* Output drained: close if asked to, read again if reading had stopped. */
static void
client_write(struct bufferevent *bev, void *arg)
{
	struct client	*c = arg;

	if (c->closing) {
		client_free(c);
		return;
	}
	if (c->blocked) {
		c->blocked = 0;
		bufferevent_enable(bev, EV_READ);
		client_read(bev, c);
		/* Done with nothing left to send: no more write callbacks. */
		if (c->closing && client_queued(c) == 0)
			client_free(c);
	}
}

/*
 * The peer went away or the connection failed: forget the client.  A
 * peer that only closed its writing side ("echo status | socat ...")
 * still gets the replies already queued, and a step's when it is done.
 */
static void
client_error(struct bufferevent *bev, short what, void *arg)
{
	struct client	*c = arg;

	if ((what & BEV_EVENT_EOF) && (what & BEV_EVENT_READING) &&
	    (client_queued(c) > 0 || c->waiting)) {
		client_unsubscribe(c);
		bufferevent_disable(bev, EV_READ);
		if (c->waiting)
			c->eof = 1;	/* closes once its step replied */
		else
			c->closing = 1;
		return;
	}
	client_free(c);
}
