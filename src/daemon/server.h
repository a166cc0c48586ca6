/*
 * server.h -- the daemon's listening socket (server.c).
 */
#ifndef STAIRS_SERVER_H
#define STAIRS_SERVER_H

struct clients;
struct live;
struct server;

/* Create, bind and listen on the socket at path; the fd, or -1. */
int		 server_listen(const char *path, char **cause);
/* Accept connections on fd for the clients cs. */
struct server	*server_create(struct live *, struct clients *, int fd);
void		 server_free(struct server *);

#endif
