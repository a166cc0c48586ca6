/*
 * lesson.h -- a scenario's lesson (SPEC.md section 7): its captions,
 * pauses, speeds, marks and questions, fired at their ticks (lesson.c).
 * They change nothing the engine schedules; the session fires them as
 * it runs ticks, and whoever drives it acts on them (the live daemon
 * pauses, sets its speed, shows the caption).
 */
#ifndef STAIRS_LESSON_H
#define STAIRS_LESSON_H

#include <stddef.h>
#include <stdint.h>

#include "scenario.h"

/* One lesson event, as the scenario says (its action is a lesson's). */
struct lesson_event {
	uint64_t		 at;
	enum scenario_action	 action;
	char			*text;		/* caption, pause (or NULL),
						   mark, ask's question */
	char			*answer;	/* ask */
	char		       **choices;	/* ask: the room's (NULL: none) */
	int			 nchoices;
	double			 speed;		/* speed */
};

/* A mark: a chapter of the lesson. */
struct lesson_mark {
	uint64_t	 at;
	const char	*text;
};

struct lesson;

struct lesson	*lesson_create(const struct scenario *);
void		 lesson_free(struct lesson *);

/* The events of tick, fired (in file order within the tick). */
const struct lesson_event *lesson_fire(struct lesson *, uint64_t tick,
		    size_t *n);
/* Ticks from tick (the next to run) with no lesson event; most at most. */
uint64_t	 lesson_quiet(const struct lesson *, uint64_t tick,
		    uint64_t most);
/*
 * The caption shown as the lesson stands now (NULL: none) and the tick
 * it fired at; that of a tick in the past (its last caption, pause text
 * or question at or before it).
 */
const char	*lesson_caption(const struct lesson *, uint64_t *tick);
const char	*lesson_caption_at(const struct lesson *, uint64_t tick);
/*
 * After a question, its answer becomes the caption, at tick; returns it,
 * or NULL when none waits.
 */
const char	*lesson_answer(struct lesson *, uint64_t tick);
/* Go back to tick (a branch): what fired from tick on will again. */
void		 lesson_rewind(struct lesson *, uint64_t tick);

/* The marks, in time order. */
const struct lesson_mark *lesson_marks(const struct lesson *, size_t *n);
/*
 * The speed the lesson had at tick: that of its last speed event at or
 * before it, else the scenario's own; 0 if it has neither (the
 * configured speed); -1 if the scenario says nothing of speed.
 */
double		 lesson_speed_at(const struct lesson *, uint64_t tick);

#endif
