/*
 * stairs.c -- the client's main: options, reaching the daemon (attach.c:
 * starting one with the built-in demo when nothing listens, as tmux
 * does), then one libevent loop over the terminal and the socket.
 * Lines from the socket feed the model (model.c); a frame or a key that
 * changed something redraws the screen (draw.c into a grid, crt.c onto
 * the terminal); keys become commands through the key table (keys.c,
 * keys-handle.c).
 */
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <errno.h>
#include <poll.h>
#include <getopt.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

#include <curses.h>

#include "attach.h"
#include "caption.h"
#include "crt.h"
#include "draw.h"
#include "follow.h"
#include "grid.h"
#include "keys.h"
#include "model.h"
#include "protocol.h"
#include "sock.h"
#include "theme.h"
#include "view.h"
#include "xmalloc.h"

#define STAIRS_FPS		KEYS_FPS	/* frames asked of the daemon */
#define STAIRS_TABLE_MS		250	/* article table poll */
#define STAIRS_LINE_MAX		8192

struct client {
	struct event_base	*base;
	struct bufferevent	*bev;
	struct event		*ev_stdin;
	struct event		*ev_winch;
	struct event		*ev_int;
	struct event		*ev_term;
	struct event		*ev_hup;
	struct event		*ev_table;
	struct event		*ev_caption;	/* the caption line's hold */
	const char		*path;

	struct model		*m;
	struct view		 v;
	struct grid		 g;
	struct keys_env		 keys;

	int			 shutting_down;	/* Q: quit when it closes */
	int			 table_stale;	/* a frame since the table */
	int			 delta;		/* frames asked with delta */
	int			 history;	/* and with runs and view */
	int			 kernel;	/* and with kruns */
	int			 status;	/* exit status */
	char			*why;		/* said on stderr at exit */

	/* Audience mode: the view said last, a daemon without `view`. */
	char			 view_sent[512];
	int			 no_view;
	long			 view_seen;	/* the model's view_seq taken */
};

static void	stairs_redraw(struct client *);
static void	stairs_caption_arm(struct client *);

/* The wall clock for the caption line's hold, in ms (CLOCK_MONOTONIC). */
static long
stairs_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

/*
 * Stop the daemon on fd (a recording's, ours alone): send shutdown and
 * wait (at most 2 s) until it has read it and closed.
 */
static void
stairs_shutdown(int fd)
{
	struct pollfd	pfd = { fd, POLLIN, 0 };
	char		buf[256];

	if (write(fd, "shutdown\n", 9) != 9)
		return;
	shutdown(fd, SHUT_WR);
	while (poll(&pfd, 1, 2000) > 0 && read(fd, buf, sizeof buf) > 0)
		;
}

/* Say how to use stairs. */
static void
stairs_usage(FILE *f)
{
	fprintf(f,
	    "usage: stairs [-r] [--follow] [--theme dark|light|projector] "
	    "[-S socket]\n"
	    "       stairs --replay FILE [-S socket]\n"
	    "Draw every CPU's staircase live from a stairsd daemon, starting\n"
	    "one with the built-in demo if none listens on the socket.\n"
	    "  -S SOCKET   the daemon's socket (default "
	    "$XDG_RUNTIME_DIR/stairs/socket,\n"
	    "              else /tmp/stairs-UID/socket)\n"
	    "  -r          read-only: watch, change nothing\n"
	    "  --follow    audience mode (read-only): show what the presenter\n"
	    "              (the last client to act) shows: task, panes, scroll\n"
	    "  --theme T   colours for a dark terminal (the default), a light\n"
	    "              one, or a projector (high contrast, thick stairs)\n"
	    "  --replay FILE  play a recording (stairsd(8)) in a daemon\n"
	    "              of its own, part by part (P), seek and speed as\n"
	    "              live; it stops when the client quits\n"
	    "  -h, --help  this help;  -V, --version  the version\n"
	    "Keys: ? or F1 in the client.  q detaches, Q stops the daemon.\n");
}

/* Send one command line to the daemon (keys_send calls this). */
static int
stairs_send(void *arg, enum model_pend kind, const char *cmd)
{
	struct client	*c = arg;

	if (c->bev == NULL)
		return (-1);
	if (bufferevent_write(c->bev, cmd, strlen(cmd)) != 0 ||
	    bufferevent_write(c->bev, "\n", 1) != 0)
		return (-1);
	return (0);
}

/* Send a command the client itself needs, noting it for its reply. */
static void
stairs_command(struct client *c, enum model_pend kind, const char *cmd)
{
	if (model_sent(c->m, kind, cmd) == 0)
		stairs_send(c, kind, cmd);
}

/* Stop the loop, with an exit status and something to say. */
static void
stairs_finish(struct client *c, int status, const char *why)
{
	c->status = status;
	free(c->why);
	c->why = why != NULL ? xstrdup(why) : NULL;
	event_base_loopbreak(c->base);
}

/*
 * Ask for the selected task's article table, unless one is on its way
 * or nothing ran since the last one (a paused daemon sends no frames).
 */
static void
stairs_ask_table(struct client *c, int force)
{
	char	cmd[64];

	if (!c->v.show_table || c->v.selected <= 0 ||
	    model_pending(c->m, PEND_TABLE) > 0 ||
	    (!force && !c->table_stale))
		return;
	c->table_stale = 0;
	snprintf(cmd, sizeof cmd, "table %d", c->v.selected);
	stairs_command(c, PEND_TABLE, cmd);
}

/*
 * Ask for frames: with delta (the first frame full, then only the tasks
 * that changed), runs (what each CPU ran, for the history panes), kruns
 * (what the kernel ran there, for the timeline's kern strips) and view
 * (the presenter's view, for --follow), unless the daemon refused those
 * once (then without kruns, then without runs and view, then without
 * delta).
 */
static void
stairs_subscribe(struct client *c)
{
	char	cmd[64];

	snprintf(cmd, sizeof cmd, "subscribe %d%s%s%s", STAIRS_FPS,
	    c->delta ? " delta" : "", c->history ? " runs view" : "",
	    c->history && c->kernel ? " kruns" : "");
	stairs_command(c, PEND_SUBSCRIBE, cmd);
}

/* A reply came: act on what it answers. */
static void
stairs_reply(struct client *c)
{
	struct model	*m = c->m;
	char		 msg[MODEL_TEXT_MAX * 2 + 8];

	switch (m->reply_kind) {
	case PEND_STATUS:
		break;
	case PEND_TABLE:
		/* Shown at once: frames may be far apart (paused, step). */
		stairs_redraw(c);
		break;
	case PEND_SUBSCRIBE:
		if (!m->reply_ok && c->history && c->kernel) {
			/* A daemon before kruns: without them. */
			c->kernel = 0;
			stairs_subscribe(c);
			break;
		}
		if (!m->reply_ok && c->history) {
			/* A daemon before runs and view: without them. */
			c->history = 0;
			stairs_subscribe(c);
			break;
		}
		if (!m->reply_ok && c->delta) {
			/* A daemon before delta frames: full ones, then. */
			c->delta = 0;
			stairs_subscribe(c);
			break;
		}
		if (!m->reply_ok) {
			snprintf(msg, sizeof msg, "subscribe refused: %s",
			    m->reply_text);
			stairs_finish(c, 1, msg);
		}
		break;
	case PEND_SCENARIOS:
		/* Errors only matter to an open picker (an older daemon). */
		keys_scenarios(m, &c->v);
		stairs_redraw(c);
		break;
	case PEND_MARKS:
		break;
	case PEND_VIEW:
		/* A daemon that does not know `view`: stop saying it. */
		if (!m->reply_ok)
			c->no_view = 1;
		break;
	case PEND_READONLY:
		if (!m->reply_ok) {
			draw_message(&c->v, 1, "readonly: %s", m->reply_text);
			stairs_redraw(c);
		}
		break;
	case PEND_ACTION:
	case PEND_STEP_EVENT:
	case PEND_CLOCK:
		keys_reply(m, &c->v);
		stairs_redraw(c);
		break;
	case PEND_SHUTDOWN:
		if (m->reply_ok)
			stairs_finish(c, 0, NULL);
		else {
			c->shutting_down = 0;
			draw_message(&c->v, 1, "shutdown: %s", m->reply_text);
			stairs_redraw(c);
		}
		break;
	}
}

/*
 * A new session (a load, a reset, the first frame): ask for its marks,
 * and for the scenarios again if this one is not among them (a load of
 * a path).  Protocol 2 only: an older daemon knows neither.
 */
static void
stairs_session(struct client *c)
{
	struct model	*m = c->m;

	if (m->proto < 2)
		return;
	if (model_pending(m, PEND_MARKS) == 0)
		stairs_command(c, PEND_MARKS, "marks");
	/* Its description (status's text=), for one loaded from a file. */
	if (model_pending(m, PEND_STATUS) == 0)
		stairs_command(c, PEND_STATUS, "status");
	if (m->scenario[0] != '\0' && model_scenario(m, m->scenario) == NULL &&
	    model_pending(m, PEND_SCENARIOS) == 0)
		stairs_command(c, PEND_SCENARIOS, "scenarios");
}

/* Lines from the daemon. */
static void
stairs_read(struct bufferevent *bev, void *arg)
{
	struct client	*c = arg;
	struct evbuffer	*in = bufferevent_get_input(bev);
	char		*line;
	size_t		 len;
	int		 frame = 0, sel;

	while ((line = evbuffer_readln(in, &len, EVBUFFER_EOL_LF)) != NULL) {
		switch (model_feed(c->m, line)) {
		case MODEL_GREETING:
			/* Protocol 1 daemons work too, without the session. */
			if (c->m->proto < 1 || c->m->proto > PROTO_VERSION)
				draw_message(&c->v, 1, "daemon speaks protocol"
				    " %d, this client 1 to %d", c->m->proto,
				    PROTO_VERSION);
			/*
			 * Protocol 2: -r tells the server too, which then
			 * refuses every change; the scenarios' descriptions.
			 */
			if (c->v.readonly && c->m->proto >= 2)
				stairs_command(c, PEND_READONLY, "readonly");
			stairs_command(c, PEND_STATUS, "status");
			if (c->m->proto >= 2)
				stairs_command(c, PEND_SCENARIOS, "scenarios");
			c->delta = 1;
			c->history = 1;
			c->kernel = 1;
			stairs_subscribe(c);
			break;
		case MODEL_FRAME:
			frame = 1;
			/* Out of step (a bad line in a delta): start again. */
			if (c->m->desync && c->delta &&
			    model_pending(c->m, PEND_SUBSCRIBE) == 0)
				stairs_subscribe(c);
			break;
		case MODEL_REPLY:
			stairs_reply(c);
			break;
		case MODEL_BAD:
			if (!c->m->greeted) {
				free(line);
				stairs_finish(c, 1, "not a stairs daemon on "
				    "the socket");
				return;
			}
			draw_message(&c->v, 1, "%s", c->m->bad);
			break;
		case MODEL_NOTHING:
			break;
		}
		free(line);
	}
	if (evbuffer_get_length(in) > STAIRS_LINE_MAX) {
		/* A line longer than any the protocol allows: drop it. */
		evbuffer_drain(in, evbuffer_get_length(in));
		draw_message(&c->v, 1, "overlong line from the daemon dropped");
	}
	if (frame) {
		c->table_stale = 1;
		if (keys_frame(c->m, &c->v) & KEYS_MARKS)
			stairs_session(c);
		sel = c->v.selected;
		/* A follower takes the presenter's view when a new one came. */
		if (c->v.follow && c->m->view_seq != c->view_seen) {
			c->view_seen = c->m->view_seq;
			follow_apply(&c->v, c->m->view_pairs);
		}
		keys_select_first(c->m, &c->v);
		caption_frame(&c->v.captions, c->m, stairs_ms());
		stairs_caption_arm(c);
		if (sel != c->v.selected)
			stairs_ask_table(c, 1);
		stairs_redraw(c);
	}
}

/* The socket closed or failed: the daemon went away. */
static void
stairs_sock_event(struct bufferevent *bev, short what, void *arg)
{
	struct client	*c = arg;
	char		 msg[512];

	if (!(what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)))
		return;
	if (c->shutting_down) {
		stairs_finish(c, 0, NULL);
		return;
	}
	snprintf(msg, sizeof msg, "the daemon went away (%s%s%s)", c->path,
	    (what & BEV_EVENT_ERROR) ? ": " : "",
	    (what & BEV_EVENT_ERROR) ? strerror(errno) : "");
	stairs_finish(c, 1, msg);
}

/* Draw the screen again, at the terminal's size. */
static void
stairs_redraw(struct client *c)
{
	int	w, h;

	if (!crt_active())
		return;
	crt_size(&w, &h);
	if (w != c->g.w || h != c->g.h) {
		grid_free(&c->g);
		grid_init(&c->g, w, h);
	}
	crt_theme(c->v.theme);
	draw_screen(&c->g, c->m, &c->v, keys_help());
	crt_render(&c->g);
}

/*
 * A presenter (a client that may change things) acted: tell the daemon
 * its view, if it changed, for the followers.
 */
static void
stairs_view(struct client *c)
{
	char	buf[512], cmd[600];

	if (c->v.readonly || c->no_view || c->m->proto < 2)
		return;
	follow_state(&c->v, buf, sizeof buf);
	if (strcmp(buf, c->view_sent) == 0)
		return;
	snprintf(c->view_sent, sizeof c->view_sent, "%s", buf);
	snprintf(cmd, sizeof cmd, "view %s", buf);
	stairs_command(c, PEND_VIEW, cmd);
}

/* Keys, mouse clicks and the mouse wheel from the terminal. */
static void
stairs_stdin(evutil_socket_t fd, short what, void *arg)
{
	struct client	*c = arg;
	int		 key, x, y, q, flags = 0, avail = 0;

	/* Readable with nothing to read: the terminal is gone. */
	if (ioctl(fd, FIONREAD, &avail) == 0 && avail == 0) {
		stairs_finish(c, 1, "the terminal went away");
		return;
	}
	while ((key = crt_getkey(&x, &y)) != CRT_NONE) {
		if (key == CRT_CLICK)
			flags |= keys_click(&c->keys, x, y);
		else if (key == CRT_WHEEL_UP || key == CRT_WHEEL_DOWN)
			flags |= keys_wheel(&c->keys, x, y,
			    key == CRT_WHEEL_UP ? -1 : 1);
		else if (key == KEY_RESIZE)
			flags |= KEYS_REDRAW;
		else {
			/*
			 * A key: an answer held on the caption line goes.
			 * A space that brings up the question the clock
			 * waits on did its job: the next one resumes.
			 */
			q = caption_key(&c->v.captions, stairs_ms());
			if (q != 0)
				flags |= KEYS_REDRAW;
			stairs_caption_arm(c);
			if (q != CAPTION_KEY_QUESTION || key != ' ')
				flags |= keys_handle(&c->keys, key);
		}
		if (flags & KEYS_QUIT) {
			stairs_finish(c, 0, NULL);
			return;
		}
	}
	if (flags & KEYS_SHUTDOWN)
		c->shutting_down = 1;
	if (flags & KEYS_TABLE)
		stairs_ask_table(c, 1);
	if (flags & KEYS_REDRAW)
		stairs_redraw(c);
	if (flags & KEYS_HANDLED)
		stairs_view(c);
}

/* SIGWINCH: the terminal changed size. */
static void
stairs_winch(evutil_socket_t sig, short what, void *arg)
{
	crt_resize();
	stairs_redraw(arg);
}

/* SIGINT, SIGTERM, SIGHUP: detach as q does. */
static void
stairs_signal(evutil_socket_t sig, short what, void *arg)
{
	stairs_finish(arg, 0, NULL);
}

/* The caption line's hold: the next caption goes up when due. */
static void
stairs_caption_timer(evutil_socket_t fd, short what, void *arg)
{
	struct client	*c = arg;

	if (caption_advance(&c->v.captions, stairs_ms()))
		stairs_redraw(c);
	stairs_caption_arm(c);
}

/* Wake when the next waiting caption is due; not at all if none waits. */
static void
stairs_caption_arm(struct client *c)
{
	struct timeval	tv;
	long		ms = caption_wait(&c->v.captions, stairs_ms());

	evtimer_del(c->ev_caption);
	if (ms < 0)
		return;
	tv.tv_sec = ms / 1000;
	tv.tv_usec = (ms % 1000) * 1000;
	evtimer_add(c->ev_caption, &tv);
}

/* The article table poll. */
static void
stairs_table_timer(evutil_socket_t fd, short what, void *arg)
{
	stairs_ask_table(arg, 0);
}

/* Free what the loop used (the terminal is restored by the caller). */
static void
stairs_free(struct client *c)
{
	struct event	**evs[] = { &c->ev_stdin, &c->ev_winch, &c->ev_int,
	    &c->ev_term, &c->ev_hup, &c->ev_table, &c->ev_caption };
	size_t		  i;

	for (i = 0; i < sizeof evs / sizeof evs[0]; i++) {
		if (*evs[i] != NULL)
			event_free(*evs[i]);
		*evs[i] = NULL;
	}
	if (c->bev != NULL)
		bufferevent_free(c->bev);
	c->bev = NULL;
	if (c->base != NULL)
		event_base_free(c->base);
	c->base = NULL;
	model_free(c->m);
	grid_free(&c->g);
	free(c->why);
}

/* Parse the options, connect (or start a daemon), run the loop. */
int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "follow", no_argument, NULL, 'F' },
		{ "theme", required_argument, NULL, 'T' },
		{ "replay", required_argument, NULL, 'P' },
		{ NULL, 0, NULL, 0 }
	};
	struct client	 c;
	struct timeval	 tv;
	char		*path = NULL, *cause = NULL, *replay = NULL;
	int		 ch, fd, status, theme;

	setlocale(LC_ALL, "");
	memset(&c, 0, sizeof c);
	c.v.show_table = 1;
	c.v.pause_sent = -1;
	c.v.pause_replied = -1;
	while ((ch = getopt_long(argc, argv, "hrS:V", longopts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			stairs_usage(stdout);
			return (0);
		case 'r':
			c.v.readonly = 1;
			break;
		case 'F':
			c.v.follow = 1;
			c.v.readonly = 1;
			break;
		case 'T':
			if ((theme = theme_find(optarg)) < 0) {
				fprintf(stderr, "stairs: --theme %s: not dark, "
				    "light or projector\n", optarg);
				free(path);
				return (2);
			}
			c.v.theme = theme;
			break;
		case 'S':
			free(path);
			path = xstrdup(optarg);
			break;
		case 'P':
			free(replay);
			if ((replay = realpath(optarg, NULL)) == NULL) {
				fprintf(stderr, "stairs: --replay %s: %s\n",
				    optarg, strerror(errno));
				free(path);
				return (2);
			}
			break;
		case 'V':
			printf("stairs %s\n", STAIRS_VERSION);
			return (0);
		default:
			stairs_usage(stderr);
			return (2);
		}
	}
	if (optind != argc) {
		fprintf(stderr, "stairs: unexpected argument: %s\n",
		    argv[optind]);
		stairs_usage(stderr);
		return (2);
	}
	/* No terminal: say so before starting anything. */
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "stairs: not a terminal\n");
		free(path);
		return (1);
	}
	if (path == NULL && replay != NULL) {
		/* A daemon of its own, beside the default one. */
		char	*def = sock_default_path();

		path = xasprintf("%s.replay-%ld", def, (long)getpid());
		free(def);
	} else if (path == NULL)
		path = sock_default_path();
	c.path = path;
	signal(SIGPIPE, SIG_IGN);

	if (replay != NULL) {
		if ((fd = attach_start(path, replay, &cause)) == -1) {
			fprintf(stderr, "stairs: %s\n", cause);
			free(cause);
			free(replay);
			return (1);
		}
	} else if ((fd = attach_connect(path, &cause)) == -1) {
		if (cause != NULL) {
			fprintf(stderr, "stairs: %s\n", cause);
			free(cause);
			free(path);
			return (1);
		}
		if (errno != ENOENT && errno != ECONNREFUSED) {
			fprintf(stderr, "stairs: %s: %s\n", path,
			    strerror(errno));
			return (1);
		}
		if ((fd = attach_start(path, NULL, &cause)) == -1) {
			fprintf(stderr, "stairs: %s\n", cause);
			free(cause);
			return (1);
		}
	}
	evutil_make_socket_nonblocking(fd);

	c.m = model_create();
	c.keys.model = c.m;
	c.keys.view = &c.v;
	c.keys.grid = &c.g;
	c.keys.send = stairs_send;
	c.keys.arg = &c;
	if ((c.base = event_base_new()) == NULL) {
		fprintf(stderr, "stairs: event_base_new failed\n");
		return (1);
	}
	c.bev = bufferevent_socket_new(c.base, fd, BEV_OPT_CLOSE_ON_FREE);
	if (c.bev == NULL) {
		fprintf(stderr, "stairs: bufferevent_socket_new failed\n");
		return (1);
	}
	bufferevent_setcb(c.bev, stairs_read, NULL, stairs_sock_event, &c);
	bufferevent_enable(c.bev, EV_READ | EV_WRITE);

	if (crt_init(&c.v, &cause) != 0) {
		fprintf(stderr, "stairs: %s\n", cause);
		free(cause);
		stairs_free(&c);
		free(path);
		return (1);
	}
	c.ev_stdin = event_new(c.base, STDIN_FILENO, EV_READ | EV_PERSIST,
	    stairs_stdin, &c);
	c.ev_winch = evsignal_new(c.base, SIGWINCH, stairs_winch, &c);
	c.ev_int = evsignal_new(c.base, SIGINT, stairs_signal, &c);
	c.ev_term = evsignal_new(c.base, SIGTERM, stairs_signal, &c);
	c.ev_hup = evsignal_new(c.base, SIGHUP, stairs_signal, &c);
	c.ev_table = event_new(c.base, -1, EV_PERSIST, stairs_table_timer, &c);
	c.ev_caption = evtimer_new(c.base, stairs_caption_timer, &c);
	event_add(c.ev_stdin, NULL);
	event_add(c.ev_winch, NULL);
	event_add(c.ev_int, NULL);
	event_add(c.ev_term, NULL);
	event_add(c.ev_hup, NULL);
	tv.tv_sec = 0;
	tv.tv_usec = STAIRS_TABLE_MS * 1000;
	event_add(c.ev_table, &tv);

	stairs_redraw(&c);
	event_base_dispatch(c.base);

	crt_fini();
	status = c.status;
	if (c.why != NULL)
		fprintf(stderr, "stairs: %s\n", c.why);
	stairs_free(&c);
	/* The recording's daemon was ours alone: it goes with us. */
	if (replay != NULL) {
		if ((fd = attach_connect(path, &cause)) != -1) {
			stairs_shutdown(fd);
			close(fd);
		}
		free(cause);
		free(replay);
	}
	free(path);
	return (status);
}
