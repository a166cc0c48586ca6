/*
 * sock.h -- the control socket's trust checks, shared by the daemon
 * (server.c) and the client (ui/stairs.c): default path, directory,
 * peer uid.
 */
#ifndef STAIRS_SOCK_H
#define STAIRS_SOCK_H

char   *sock_default_path(void);
int	sock_check_dir(const char *path, int create, char **cause);
int	sock_check_peer(int fd, long *uid);

#endif
