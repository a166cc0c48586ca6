/*
 * follow.h -- audience mode (follow.c): the presenter's view as
 * key=value pairs, and a follower taking them.
 */
#ifndef STAIRS_UI_FOLLOW_H
#define STAIRS_UI_FOLLOW_H

#include <stddef.h>

struct view;

void		 follow_state(const struct view *, char *, size_t);
int		 follow_apply(struct view *, const char *pairs);

#endif
