/*
 * path.h -- absolute paths and the running program's directory (path.c).
 */
#ifndef STAIRS_PATH_H
#define STAIRS_PATH_H

char	*path_absolute(const char *path);
char	*path_self_dir(void);

#endif
