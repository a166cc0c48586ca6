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
struct event;
struct evconnlistener;
struct evbuffer;
struct server_line;

/* Queued output past which frames are dropped and commands wait. */
#define SERVER_OUT_MAX	(1024 * 1024)

struct server_client {
	struct server		*server;
	struct bufferevent	*bev;
	int			 discarding;	/* inside an over-long line */
	int			 blocked;	/* not read: output full */
	int			 closing;	/* close once output is sent */

	int			 subscribed;
	int			 fps;
	uint64_t		 next_frame;	/* ns, CLOCK_MONOTONIC */
	uint64_t		 gen_sent;	/* gen of the last frame */
	uint64_t		 event_seen;	/* seq of the last event sent */
	uint64_t		 dropped;	/* frames not sent since */

	TAILQ_ENTRY(server_client) entry;
};
TAILQ_HEAD(server_clients, server_client);

struct server {
	struct daemon		*daemon;
	struct evconnlistener	*listener;
	struct server_clients	 clients;
	int			 nclients;
	uint64_t		 refused;

	/* One frame clock for every subscriber, at the highest fps. */
	struct event		*frame_timer;
	int			 frame_fps;

	/* The cpu and task lines of a frame, built once per change. */
	struct server_body	*body;
	uint64_t		 body_gen;
	struct server_line	*lines;		/* per task id, cached */
	int			 nlines;
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
struct server_body *server_frame_body(struct server *);
void	server_body_add(struct evbuffer *, struct server_body *);
void	server_body_unref(struct server_body *);
void	server_update_frames(struct server *);

/* server-client.c */
void	server_client_create(struct server *, int fd);
void	server_client_free(struct server_client *);
void	server_client_flush(struct server_client *);
void	server_client_frame(struct server_client *);

#endif
