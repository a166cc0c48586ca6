/*
 * notes.c -- what the live daemon tells its subscribers happened: a ring
 * of the last NOTES_KEPT human lines, each with the tick it is about and
 * a sequence number (a frame carries the lines its client has not seen),
 * a generation that moves on every change a frame would show (a frame
 * is sent only when it moved), and the presenter's view for followers.
 * Every part of the daemon that acts says so here; nothing reads back
 * from it but the frames.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "notes.h"
#include "xmalloc.h"

struct notes {
	struct notes_line	 lines[NOTES_KEPT];
	uint64_t		 seq;		/* the newest line's */
	uint64_t		 gen;		/* moves on every change */
	char			 view[NOTES_VIEW_MAX];
	uint64_t		 view_seq;
};

/* An empty ring. */
struct notes *
notes_create(void)
{
	return (xcalloc(1, sizeof (struct notes)));
}

/* Free the ring and its lines. */
void
notes_free(struct notes *n)
{
	int	i;

	if (n == NULL)
		return;
	for (i = 0; i < NOTES_KEPT; i++)
		free(n->lines[i].text);
	free(n);
}

/* A line about something at tick, from a format and its arguments. */
void
notes_vadd(struct notes *n, uint64_t tick, const char *fmt, va_list ap)
{
	struct notes_line	*l;

	n->seq++;
	l = &n->lines[n->seq % NOTES_KEPT];
	free(l->text);
	l->text = xvasprintf(fmt, ap);
	l->seq = n->seq;
	l->tick = tick;
	log_debug("event: %s", l->text);
	n->gen++;
}

/* A line about something at tick. */
void
notes_add(struct notes *n, uint64_t tick, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	notes_vadd(n, tick, fmt, ap);
	va_end(ap);
}

/* Something a frame shows changed: the generation moves. */
void
notes_changed(struct notes *n)
{
	n->gen++;
}

/* The generation: equal means nothing a frame shows changed. */
uint64_t
notes_gen(const struct notes *n)
{
	return (n->gen);
}

/* The newest line's seq (0: none yet). */
uint64_t
notes_seq(const struct notes *n)
{
	return (n->seq);
}

/* The oldest seq still kept. */
uint64_t
notes_first(const struct notes *n)
{
	return (n->seq >= NOTES_KEPT ? n->seq - NOTES_KEPT + 1 : 1);
}

/* Line seq, or NULL if it is not kept (too old, or not yet). */
const struct notes_line *
notes_get(const struct notes *n, uint64_t seq)
{
	if (seq == 0 || seq > n->seq || seq < notes_first(n))
		return (NULL);
	return (&n->lines[seq % NOTES_KEPT]);
}

/* The presenter's view (`view`): the last to say leads; frames tell. */
void
notes_set_view(struct notes *n, const char *pairs)
{
	snprintf(n->view, sizeof n->view, "%s", pairs);
	n->view_seq++;
}

/* The presenter's view and how many were set (0: none). */
const char *
notes_view(const struct notes *n, uint64_t *seq)
{
	*seq = n->view_seq;
	return (n->view);
}
