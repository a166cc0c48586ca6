/*
 * notes.h -- what subscribers are told happened (notes.c): the ring of
 * human event lines ("hog sleeps 1000 ms"), the generation that moves
 * on every change a frame would show, and the presenter's view.
 */
#ifndef STAIRS_NOTES_H
#define STAIRS_NOTES_H

#include <stdarg.h>
#include <stdint.h>

#define NOTES_KEPT	256	/* event lines kept for subscribers */
#define NOTES_VIEW_MAX	512	/* bytes of a view's pairs */

/* One human line about something that happened at a tick. */
struct notes_line {
	uint64_t	 seq;
	uint64_t	 tick;
	char		*text;
};

struct notes;

struct notes	*notes_create(void);
void		 notes_free(struct notes *);
/* A line about something at tick; the generation moves too. */
void		 notes_add(struct notes *, uint64_t tick, const char *, ...)
		    __attribute__((format(printf, 3, 4)));
void		 notes_vadd(struct notes *, uint64_t tick, const char *,
		    va_list);
/* Something a frame shows changed. */
void		 notes_changed(struct notes *);
uint64_t	 notes_gen(const struct notes *);
/* The newest line's seq (0: none yet), the oldest kept, one by seq. */
uint64_t	 notes_seq(const struct notes *);
uint64_t	 notes_first(const struct notes *);
const struct notes_line *notes_get(const struct notes *, uint64_t seq);
/* The presenter's view (`view` pairs) and how many were set (0: none). */
void		 notes_set_view(struct notes *, const char *pairs);
const char	*notes_view(const struct notes *, uint64_t *seq);

#endif
