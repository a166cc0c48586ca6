/*
 * clients.c -- the connections to the control socket: each one's
 * greeting, bounded line reading, commands run, and frames for
 * subscribers, on one frame clock shared by all.
 *
 * Memory per client is bounded both ways.  Input: a line longer than
 * PROTO_LINE_MAX is answered with an error and discarded up to its
 * newline.  Output is counted in real memory (client_queued: the bytes,
 * plus what frame bodies held by reference cost beyond them): a frame
 * that would take it past CLIENT_OUT_MAX is dropped (and counted in the
 * next frame's dropped=N) unless little is queued (a delta subscriber's
 * next frame then carries everything changed since the last one it was
 * sent), and a client whose replies pile up past it is not read from
 * until they drain, so a peer that never reads cannot make the daemon
 * grow.
 *
 * A step's reply comes when its ticks have run (CMD_WAIT: the pacer
 * tells the client's struct pacer_wait); the lines after it wait, unless
 * they cancel it (pause, resume, step).  A load's reply comes when its
 * scenario is parsed (loader.c); the lines after it wait.  A client's
 * waiting lines run from the event loop, never inside another command:
 * the step may end because another client's command cancelled it.
 */
#include <sys/queue.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bridge.h"
#include "clients.h"
#include "clock.h"
#include "cmd.h"
#include "config.h"
#include "frames.h"
#include "live.h"
#include "log.h"
#include "monotonic.h"
#include "notes.h"
#include "pacer.h"
#include "runs.h"
#include "session.h"
#include "fields.h"
#include "xmalloc.h"

/*
 * Output a client may hold, in bytes of real memory: past it frames are
 * dropped and commands wait.
 */
#define CLIENT_OUT_MAX		(1024 * 1024)
#define CLIENT_FRAME_COST	4096	/* a frame's lines less its body */

/* A runs line's key (fields.c). */
#define RK(k)	wire_key(&wire_runs, WIRE_RUNS_##k)

/* A frame body a client holds by reference, until its bytes are sent. */
struct client_ref {
	uint64_t	 end;		/* sent when its last byte has gone */
	size_t		 extra;		/* its memory beyond its bytes */
};

struct client {
	struct clients		*set;
	struct bufferevent	*bev;
	int			 discarding;	/* inside an over-long line */
	int			 blocked;	/* not read: output full */
	int			 closing;	/* close once output is sent */
	int			 eof;		/* peer sends no more */
	int			 in_read;	/* inside client_read */
	/*
	 * Its step: waiting for the reply (its lines wait too); the reply
	 * came before the command returned (a short step); the pacer's
	 * handle on it, and the event that runs its lines again.
	 */
	int			 waiting;
	int			 replied;
	struct pacer_wait	 wait;
	struct event		*resume;

	int			 readonly;	/* said `readonly`: no changes */
	struct live_vote	 vote;		/* its answer to the room */
	int			 subscribed;
	int			 fps;
	int			 delta;		/* subscribed with delta */
	uint64_t		 next_frame;	/* ns, CLOCK_MONOTONIC */
	uint64_t		 gen_sent;	/* gen of its last frame; 0: none */
	uint64_t		 event_seen;	/* seq of the last event sent */
	uint64_t		 dropped;	/* frames not sent since */
	/* Its runs lines ([0]) and kruns lines ([1]). */
	struct {
		int		 on;		/* subscribed with runs / kruns */
		uint64_t	 to;		/* the end of those sent */
		int		 ok;		/* to holds */
	}			 runs[2];
	int			 view;		/* subscribed with view */
	uint64_t		 view_seen;	/* view seq of the view sent */

	/* The real memory of the output: bytes, plus bodies' extra. */
	struct evbuffer_cb_entry *outcb;
	uint64_t		 sent;		/* bytes gone from the output */
	struct client_ref	*refs;		/* bodies held, oldest first */
	size_t			 firstref, nrefs, sizerefs;
	size_t			 refextra;	/* sum of their extra */

	TAILQ_ENTRY(client)	 entry;
};

struct clients {
	struct live		*live;
	struct frames		*frames;
	TAILQ_HEAD(, client)	 list;
	int			 n;
	/* One frame clock for every subscriber, at the highest fps. */
	struct event		*frame_timer;
	int			 frame_fps;
	struct evbuffer		*trailer;	/* a frame's last lines */
};

static void	client_runs(struct client *, struct evbuffer *, uint64_t,
		    int);
static void	client_read(struct bufferevent *, void *);
static void	client_write(struct bufferevent *, void *);
static void	client_error(struct bufferevent *, short, void *);
static void	client_sent(struct evbuffer *,
		    const struct evbuffer_cb_info *, void *);
static void	client_free(struct client *);
static size_t	client_queued(struct client *);
static void	client_frame(struct client *);
static void	clients_update_frames(struct clients *);

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

/*
 * Output left the buffer (written to the socket): forget the bodies held
 * by reference whose bytes are all gone.
 */
static void
client_sent(struct evbuffer *out, const struct evbuffer_cb_info *info,
    void *arg)
{
	struct client	*c = arg;
	struct client_ref	*r;

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
client_hold(struct client *c, uint64_t end, size_t extra)
{
	if (c->nrefs == c->sizerefs && c->firstref > 0) {
		memmove(c->refs, c->refs + c->firstref,
		    (c->nrefs - c->firstref) * sizeof *c->refs);
		c->nrefs -= c->firstref;
		c->firstref = 0;
	}
	if (c->nrefs == c->sizerefs)
		c->refs = xgrow(c->refs, &c->sizerefs, 16, sizeof *c->refs);
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
client_queued(struct client *c)
{
	return (evbuffer_get_length(bufferevent_get_output(c->bev)) +
	    c->refextra);
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
 * Send one frame, or count it as dropped if the client is not reading:
 * a frame is queued only if the output stays within CLIENT_OUT_MAX with
 * it, or if at most a few replies are queued (so a frame of any size can
 * go at all, the first one right after subscribe's "ok" too).
 */
static void
client_frame(struct client *c)
{
	struct clients		*cs = c->set;
	struct live		*l = cs->live;
	struct notes		*notes = live_notes(l);
	struct evbuffer		*out = bufferevent_get_output(c->bev);
	struct evbuffer		*tr;
	struct proto_status	 st;
	const struct notes_line	*ev;
	struct frames_body	*b;
	const char		*caption, *view;
	char *const		*choices;
	char			 buf[PROTO_TEXT_MAX + 64];
	int			 i, nchoices;
	uint64_t		 seq, first, ctick, view_seq;
	size_t			 len, queued, need, extra;
	int			 delta;

	view = notes_view(notes, &view_seq);
	if (c->gen_sent != 0 && c->gen_sent == notes_gen(notes) &&
	    c->event_seen == notes_seq(notes) &&
	    (!c->view || c->view_seen == view_seq))
		return;
	queued = client_queued(c);
	delta = c->delta && c->gen_sent != 0;
	if (queued > CLIENT_FRAME_COST &&
	    queued + CLIENT_FRAME_COST > CLIENT_OUT_MAX) {
		c->dropped++;
		return;
	}
	/* A delta is built (or shared) first: its size is not known. */
	b = delta ? frames_delta(cs->frames, c->gen_sent) :
	    frames_full(cs->frames);
	need = b->len + CLIENT_FRAME_COST;
	if (queued > CLIENT_FRAME_COST && queued + need > CLIENT_OUT_MAX) {
		c->dropped++;
		return;
	}
	live_status(l, &st, cs->n);
	len = protocol_frame_line(buf, sizeof buf, &st, c->dropped,
	    c->delta ? delta : -1);
	buf[len++] = '\n';
	evbuffer_add(out, buf, len);
	extra = frames_body_add(out, b);
	if (extra != 0)
		client_hold(c, c->sent + evbuffer_get_length(out), extra);

	/*
	 * After a body held by reference the rest is built apart and moved
	 * in whole: added straight after it, libevent would allocate a new
	 * chain as large as that body for these few bytes.
	 */
	tr = extra != 0 ? cs->trailer : out;
	if (c->runs[0].on)
		client_runs(c, tr, st.tick, 0);
	if (c->runs[1].on)
		client_runs(c, tr, st.tick, 1);
	if ((caption = session_caption(live_session(l), &ctick)) != NULL) {
		len = protocol_text_line(buf, sizeof buf, "caption", ctick,
		    caption);
		buf[len++] = '\n';
		evbuffer_add(tr, buf, len);
	}
	/* The room's question's choices, while it is open or revealed. */
	choices = live_choices(l, &nchoices);
	for (i = 0; i < nchoices; i++) {
		len = protocol_choice_line(buf, sizeof buf, i + 1, choices[i]);
		buf[len++] = '\n';
		evbuffer_add(tr, buf, len);
	}
	first = notes_first(notes);
	if (c->event_seen + 1 > first)
		first = c->event_seen + 1;
	for (seq = first; (ev = notes_get(notes, seq)) != NULL; seq++) {
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
	c->gen_sent = notes_gen(notes);
	c->event_seen = notes_seq(notes);
	c->dropped = 0;
}

/* The start of a runs (or kruns) line of cpu, its first run at from. */
static size_t
client_runs_head(char *line, size_t size, const char *word, int cpu,
    uint64_t from)
{
	return ((size_t)snprintf(line, size, "%s %s=%d %s=%llu ", word,
	    RK(CPU), cpu, RK(FROM), (unsigned long long)from));
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
client_runs(struct client *c, struct evbuffer *out, uint64_t to,
    int kernel)
{
	struct live		*l = c->set->live;
	const struct runs	*r;
	const char		*word;
	struct runs_run		 run[64];
	char			 line[1200];
	uint64_t		 from, first, *sent = &c->runs[kernel].to;
	size_t			 n, i, len;
	int			 cpu, cont, said, *ok = &c->runs[kernel].ok;

	r = kernel ? bridge_kruns(live_bridge(l)) :
	    session_runs(live_session(l));
	word = kernel ? wire_kruns.word : wire_runs.word;
	if (r == NULL)
		return;
	for (cpu = 0; cpu < runs_ncpus(r); cpu++) {
		first = runs_first(r, cpu);
		if (to > runs_end(r, cpu))
			to = runs_end(r, cpu);
		cont = *ok && *sent <= to && *sent >= first;
		/* Starting again: the 10 s before the tick shown, of all
		   the history keeps (SPEC.md section 12). */
		if (!cont && to > RUNS_KEEP_TICKS &&
		    first < to - RUNS_KEEP_TICKS)
			first = to - RUNS_KEEP_TICKS;
		from = cont ? *sent : first < to ? first : to;
		said = cont;
		len = 0;
		while ((n = runs_get(r, cpu, from, to, run, 64)) > 0) {
			for (i = 0; i < n; i++) {
				if (len == 0)
					len = client_runs_head(line,
					    sizeof line, word, cpu,
					    run[i].from);
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
				len = client_runs_head(line, sizeof line,
				    word, cpu, from);
			if (line[len - 1] == ' ')
				line[len - 1] = '\n';
			if (line[len - 1] != '\n')
				line[len++] = '\n';
			evbuffer_add(out, line, len);
		}
	}
	*sent = to;
	*ok = 1;
}

/*
 * The frame clock: every subscriber whose time has come gets a frame.
 * One clock for all (not one timer per client) so that subscribers share
 * the formatted body: with 1 000 tasks formatting is most of the cost.
 */
static void
clients_frame_tick(evutil_socket_t fd, short events, void *arg)
{
	struct clients	*cs = arg;
	struct client	*c;
	uint64_t	 now = monotonic_ns(), period, slack;

	live_catchup(cs->live);		/* a batching clock: frames are now */
	slack = 500000000ULL / cs->frame_fps;	/* half the clock's period */
	TAILQ_FOREACH(c, &cs->list, entry) {
		if (!c->subscribed || c->next_frame > now + slack)
			continue;
		period = 1000000000ULL / c->fps;
		c->next_frame += period;
		if (c->next_frame + slack < now)
			c->next_frame = now + period;
		client_frame(c);
	}
}

/* Run the frame clock at the highest rate any subscriber asked for. */
static void
clients_update_frames(struct clients *cs)
{
	struct client	*c;
	struct timeval	 tv;
	int		 fps = 0;

	TAILQ_FOREACH(c, &cs->list, entry) {
		if (c->subscribed && c->fps > fps)
			fps = c->fps;
	}
	if (fps == cs->frame_fps)
		return;
	cs->frame_fps = fps;
	if (cs->frame_timer == NULL)
		cs->frame_timer = event_new(live_base(cs->live), -1,
		    EV_PERSIST, clients_frame_tick, cs);
	evtimer_del(cs->frame_timer);
	if (fps == 0)
		return;
	tv.tv_sec = 0;
	tv.tv_usec = 1000000 / fps;
	evtimer_add(cs->frame_timer, &tv);
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
