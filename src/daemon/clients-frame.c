/*
 * clients-frame.c -- what subscribers are sent: the frame clock, shared
 * by all, and each one's frame, within the output a client may hold.
 *
 * A frame is its status line, the body built once for every subscriber
 * (frames.c), then this client's runs and kruns lines, the caption, the
 * room's choices, the event lines it has not seen and the presenter's
 * view.  Output is counted in real memory (client_queued: the bytes,
 * plus what frame bodies held by reference cost beyond them): a frame
 * that would take it past CLIENT_OUT_MAX is dropped (and counted in the
 * next frame's dropped=N) unless little is queued (a delta subscriber's
 * next frame then carries everything changed since the last one it was
 * sent).
 */
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

#include <stdio.h>
#include <string.h>

#include "bridge.h"
#include "clients-int.h"
#include "frames.h"
#include "monotonic.h"
#include "notes.h"
#include "protocol.h"
#include "runs.h"
#include "session.h"
#include "fields.h"
#include "xmalloc.h"

#define CLIENT_FRAME_COST	4096	/* a frame's lines less its body */

/* A runs line's key (fields.c). */
#define RK(k)	wire_key(&wire_runs, WIRE_RUNS_##k)

static void	client_runs(struct client *, struct evbuffer *, uint64_t,
		    int);

/*
 * Output left the buffer (written to the socket): forget the bodies held
 * by reference whose bytes are all gone.
 */
void
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
size_t
client_queued(struct client *c)
{
	return (evbuffer_get_length(bufferevent_get_output(c->bev)) +
	    c->refextra);
}

/*
 * Send one frame, or count it as dropped if the client is not reading:
 * a frame is queued only if the output stays within CLIENT_OUT_MAX with
 * it, or if at most a few replies are queued (so a frame of any size can
 * go at all, the first one right after subscribe's "ok" too).
 */
void
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
void
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
