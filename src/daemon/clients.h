/*
 * clients.h -- the connections to the control socket (clients.c).
 */
#ifndef STAIRS_CLIENTS_H
#define STAIRS_CLIENTS_H

struct clients;
struct frames;
struct live;

struct clients	*clients_create(struct live *, struct frames *);
void		 clients_free(struct clients *);
/* Serve a new connection on fd (checked by the server). */
void		 clients_accept(struct clients *, int fd);
int		 clients_count(const struct clients *);
/* A new session: every subscriber's next frame is full. */
void		 clients_reset(struct clients *);
/* At exit: what is queued, sent as far as the sockets take it now. */
void		 clients_flush(struct clients *);

#endif
