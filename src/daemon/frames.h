/*
 * frames.h -- the shared body of a frame: the cpu and task lines of the
 * engine shown and of the shadow (frames.c).
 */
#ifndef STAIRS_FRAMES_H
#define STAIRS_FRAMES_H

#include <stddef.h>
#include <stdint.h>

struct evbuffer;
struct frames;
struct live;

/* A frame body, shared by reference by the subscribers' output. */
struct frames_body {
	int		refs;
	size_t		len, size;
	char		data[];
};

struct frames	*frames_create(struct live *);
void		 frames_free(struct frames *);
/* A new session: the lines kept are the old one's. */
void		 frames_reset(struct frames *);
/* A full frame's body, and a delta's against generation from. */
struct frames_body *frames_full(struct frames *);
struct frames_body *frames_delta(struct frames *, uint64_t from);
/*
 * Queue a body on an output buffer (by reference when large); returns
 * the memory it holds beyond the bytes counted in the buffer's length.
 */
size_t		 frames_body_add(struct evbuffer *, struct frames_body *);
void		 frames_body_unref(struct frames_body *);

#endif
