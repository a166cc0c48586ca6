/*
 * attach.h -- reaching the daemon (attach.c): its socket, or a daemon
 * started when nothing listens.
 */
#ifndef STAIRS_UI_ATTACH_H
#define STAIRS_UI_ATTACH_H

int		 attach_connect(const char *path, char **cause);
int		 attach_start(const char *path, const char *replay,
		     char **cause);

#endif
