/*
 * clients-int.h -- the connections' insides, shared by clients.c (each
 * connection: its lines read and run) and clients-frame.c (what
 * subscribers are sent, and the output memory that bounds it), which
 * calls nothing of clients.c.  Nothing else includes it.
 */
#ifndef STAIRS_CLIENTS_INT_H
#define STAIRS_CLIENTS_INT_H

#include <sys/queue.h>

#include <event2/buffer.h>
#include <event2/event.h>

#include <stddef.h>
#include <stdint.h>

#include "live.h"
#include "pacer.h"

struct frames;

/*
 * Output a client may hold, in bytes of real memory: past it frames are
 * dropped and commands wait.
 */
#define CLIENT_OUT_MAX		(1024 * 1024)

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

/* clients-frame.c */
/* Output left the buffer: forget the bodies all sent (evbuffer cb). */
void	client_sent(struct evbuffer *, const struct evbuffer_cb_info *,
	    void *);
/* The real memory c's output holds: bytes, plus bodies' extra. */
size_t	client_queued(struct client *);
/* Send c a frame now, if something changed and it fits. */
void	client_frame(struct client *);
/* Run the frame clock at the highest rate any subscriber asked for. */
void	clients_update_frames(struct clients *);

#endif
