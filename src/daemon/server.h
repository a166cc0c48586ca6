/*
 * server.h -- the control socket (server.c) and its connections
 * (server-client.c): accept with peer and connection-count checks, read
 * bounded lines, run commands, stream frames to subscribers with bounded
 * output per client.
 */
#ifndef STAIRS_SERVER_H
#define STAIRS_SERVER_H

#include <sys/queue.h>

#include <stddef.h>
#include <stdint.h>

struct bufferevent;
struct daemon;
struct engine;
struct event;
struct evconnlistener;
struct evbuffer;
struct server_line;
struct evbuffer_cb_entry;

/* A frame body a client holds by reference, until its bytes are sent. */
struct server_ref {
	uint64_t	 end;		/* sent when its last byte has gone */
	size_t		 extra;		/* its memory beyond its bytes */
};

/* How long the listener rests when accept() runs out of descriptors. */
#define SERVER_ACCEPT_BACKOFF_MS	250

/*
 * Output a client may hold, in bytes of real memory: past it frames are
 * dropped and commands wait.  Bodies up to SERVER_BODY_COPY bytes are
 * copied into the client's buffer; larger ones are queued by reference,
 * each costing its body's allocation and about SERVER_REF_COST of buffer
 * chains beyond its bytes (see server_client_frame).
 */
#define SERVER_OUT_MAX		(1024 * 1024)
#define SERVER_BODY_COPY	(8 * 1024)
#define SERVER_REF_COST		2048
#define SERVER_FRAME_COST	4096	/* a frame's lines less its body */

struct server_client {
	struct server		*server;
	struct bufferevent	*bev;
	int			 discarding;	/* inside an over-long line */
	int			 blocked;	/* not read: output full */
	int			 closing;	/* close once output is sent */
	int			 waiting;	/* for its step's reply */
	int			 eof;		/* peer sends no more */
	int			 in_read;	/* inside server_client_read */

	int			 readonly;	/* said `readonly`: no changes */
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
	uint64_t		 view_seen;	/* view_seq of the view sent */

	/* The real memory of the output: bytes, plus bodies' extra. */
	struct evbuffer_cb_entry *outcb;
	uint64_t		 sent;		/* bytes gone from the output */
	struct server_ref	*refs;		/* bodies held, oldest first */
	size_t			 firstref, nrefs, sizerefs;
	size_t			 refextra;	/* sum of their extra */

	TAILQ_ENTRY(server_client) entry;
};
TAILQ_HEAD(server_clients, server_client);

struct server {
	struct daemon		*daemon;
	struct evconnlistener	*listener;
	struct server_clients	 clients;
	int			 nclients;
	uint64_t		 refused;
	struct event		*accept_timer;	/* the back-off's end */
	uint64_t		 accept_errors;	/* since last logged */
	uint64_t		 accept_logged;	/* ns, CLOCK_MONOTONIC */

	/* One frame clock for every subscriber, at the highest fps. */
	struct event		*frame_timer;
	int			 frame_fps;

	/* The cpu and task lines of a frame, built once per change. */
	struct server_body	*body;
	uint64_t		 body_gen;
	struct server_line	*lines;		/* per task id, cached */
	int			 nlines;
	uint64_t		 lines_gen;	/* d->gen they show */
	/*
	 * What the lines were last brought up to date with: the engine,
	 * its engine_changes epoch and how far into its log; the real
	 * tasks (their lines move on their own), looked at every time.
	 */
	const struct engine	*lines_engine;
	uint64_t		 lines_epoch;
	size_t			 lines_cursor;
	int			*reals;
	int			 nreals, alloc_reals;
	/*
	 * The lines changed, in the order of their gens: a delta frame
	 * against gen G is the ids after G.  Started again when long;
	 * a delta against a gen before chlog_floor looks at every line.
	 */
	struct server_chg	*chlog;
	size_t			 nchlog, alloc_chlog;
	uint64_t		 chlog_floor;
	int			*delta_ids;	/* a delta's, sorted */
	size_t			 alloc_delta_ids;
	struct server_body	*delta;		/* the last delta body */
	uint64_t		 delta_gen;	/* d->gen it shows */
	uint64_t		 delta_from;	/* the gen it is against */
	struct evbuffer		*trailer;	/* a frame's last lines */
};

/* A line changed at a gen (server.h's chlog). */
struct server_chg {
	uint64_t	gen;
	int		id;
};

/* A frame body, shared by reference by the subscribers' output. */
struct server_body {
	int		refs;
	size_t		len, size;
	char		data[];
};

/* server.c */
int	server_listen(const char *path, char **cause);
struct server *server_create(struct daemon *, int fd);
void	server_free(struct server *);
void	server_flush(struct server *);
int	server_nclients(const struct server *);
void	server_reset(struct server *);
struct server_body *server_frame_body(struct server *);
struct server_body *server_frame_delta(struct server *, uint64_t from);
size_t	server_body_add(struct evbuffer *, struct server_body *);
void	server_body_unref(struct server_body *);
void	server_update_frames(struct server *);

/* server-client.c */
void	server_client_create(struct server *, int fd);
void	server_client_free(struct server_client *);
void	server_client_flush(struct server_client *);
void	server_client_frame(struct server_client *);
void	server_client_step_done(struct server_client *, const char *);

#endif
