/*
 * lesson.c -- a scenario's lesson: the events that teach rather than
 * schedule (caption, pause, speed, mark, ask), in time order, fired as
 * the session runs their ticks, and what they leave on screen: the
 * caption (a caption's text, a pause's text, a question), and after a
 * question its answer, which the next resume reveals.
 *
 * The engine knows none of this: a lesson changes nothing it decides,
 * so its traces are the same with or without one.
 */
#include <stdlib.h>
#include <string.h>

#include "lesson.h"
#include "xmalloc.h"

struct lesson {
	struct lesson_event	*ev;		/* by at, then file order */
	size_t			 n;
	size_t			 next;		/* the first not fired */
	struct lesson_mark	*marks;
	size_t			 nmarks;
	double			 speed;		/* the scenario's; 0: none */
	/* The caption shown and when it came; the question not answered. */
	const char		*caption;
	uint64_t		 caption_tick;
	const struct lesson_event *asked;
};

/* Order events by tick, then as the file has them (a stable sort). */
static int
lesson_cmp(const void *a, const void *b)
{
	const struct scenario_event *const	*x = a, *const *y = b;

	if ((*x)->at != (*y)->at)
		return ((*x)->at < (*y)->at ? -1 : 1);
	return ((*x)->line > (*y)->line) - ((*x)->line < (*y)->line);
}

/* The lesson of scenario sc (maybe none: no lesson events). */
struct lesson *
lesson_create(const struct scenario *sc)
{
	const struct scenario_event	**order;
	struct lesson_event		 *ev;
	struct lesson			 *l;
	size_t				  i, k = 0;

	l = xcalloc(1, sizeof *l);
	l->speed = sc->has_speed ? sc->speed : 0;
	order = xcalloc(sc->nevents + 1, sizeof *order);
	for (i = 0; i < sc->nevents; i++) {
		if (SCENARIO_LESSON(sc->events[i].action))
			order[k++] = &sc->events[i];
	}
	qsort(order, k, sizeof *order, lesson_cmp);
	l->ev = xcalloc(k + 1, sizeof *l->ev);
	for (i = 0; i < k; i++) {
		ev = &l->ev[l->n++];
		ev->at = order[i]->at;
		ev->action = order[i]->action;
		ev->text = order[i]->text != NULL ?
		    xstrdup(order[i]->text) : NULL;
		ev->answer = order[i]->answer != NULL ?
		    xstrdup(order[i]->answer) : NULL;
		ev->speed = order[i]->speed;
		ev->choices = strv_copy(order[i]->choices,
		    (size_t)order[i]->nchoices);
		ev->nchoices = order[i]->nchoices;
		if (ev->action == SCENARIO_MARK)
			l->nmarks++;
	}
	free(order);
	l->marks = xcalloc(l->nmarks + 1, sizeof *l->marks);
	for (i = k = 0; i < l->n; i++) {
		if (l->ev[i].action != SCENARIO_MARK)
			continue;
		l->marks[k].at = l->ev[i].at;
		l->marks[k++].text = l->ev[i].text != NULL ? l->ev[i].text : "";
	}
	return (l);
}

/* Free the lesson. */
void
lesson_free(struct lesson *l)
{
	size_t	i;

	if (l == NULL)
		return;
	for (i = 0; i < l->n; i++) {
		free(l->ev[i].text);
		free(l->ev[i].answer);
		strv_free(l->ev[i].choices, (size_t)l->ev[i].nchoices);
	}
	free(l->ev);
	free(l->marks);
	free(l);
}

/* What an event leaves on screen: its text, or NULL if it leaves it. */
static const char *
lesson_text(const struct lesson_event *ev)
{
	switch (ev->action) {
	case SCENARIO_CAPTION:
	case SCENARIO_ASK:
		return (ev->text != NULL ? ev->text : "");
	case SCENARIO_PAUSE:
		return (ev->text);
	default:
		return (NULL);
	}
}

/*
 * Fire the events of tick (those before it that were not: none, as the
 * session runs every tick in order): the caption and the question
 * waiting follow them.  Returns them, *n of them.
 */
const struct lesson_event *
lesson_fire(struct lesson *l, uint64_t tick, size_t *n)
{
	const struct lesson_event	*first;
	const char			*text;

	while (l->next < l->n && l->ev[l->next].at < tick)
		l->next++;
	first = &l->ev[l->next];
	*n = 0;
	while (l->next < l->n && l->ev[l->next].at == tick) {
		if ((text = lesson_text(&l->ev[l->next])) != NULL) {
			l->caption = text;
			l->caption_tick = tick;
		}
		if (l->ev[l->next].action == SCENARIO_ASK)
			l->asked = &l->ev[l->next];
		l->next++;
		(*n)++;
	}
	return (first);
}

/* Ticks from tick on with no lesson event, most at most. */
uint64_t
lesson_quiet(const struct lesson *l, uint64_t tick, uint64_t most)
{
	size_t	i = l->next;

	while (i < l->n && l->ev[i].at < tick)
		i++;
	if (i == l->n || l->ev[i].at - tick >= most)
		return (most);
	return (l->ev[i].at - tick);
}

/* The caption shown now (NULL: none) and the tick it came at. */
const char *
lesson_caption(const struct lesson *l, uint64_t *tick)
{
	if (tick != NULL)
		*tick = l->caption_tick;
	return (l->caption);
}

/* The caption as it stood at tick: the last text at or before it. */
const char *
lesson_caption_at(const struct lesson *l, uint64_t tick)
{
	const char	*text, *last = NULL;
	size_t		 i;

	for (i = 0; i < l->n && l->ev[i].at <= tick; i++) {
		if ((text = lesson_text(&l->ev[i])) != NULL)
			last = text;
	}
	return (last);
}

/* The question waiting is answered at tick: its answer, now shown. */
const char *
lesson_answer(struct lesson *l, uint64_t tick)
{
	if (l->asked == NULL)
		return (NULL);
	l->caption = l->asked->answer != NULL ? l->asked->answer : "";
	l->caption_tick = tick;
	l->asked = NULL;
	return (l->caption);
}

/* Back to tick: its events, and those after, fire again. */
void
lesson_rewind(struct lesson *l, uint64_t tick)
{
	const char	*text;
	size_t		 i;

	l->next = 0;
	l->caption = NULL;
	l->caption_tick = 0;
	l->asked = NULL;
	for (i = 0; i < l->n && l->ev[i].at < tick; i++) {
		if ((text = lesson_text(&l->ev[i])) != NULL) {
			l->caption = text;
			l->caption_tick = l->ev[i].at;
		}
		l->next = i + 1;
	}
}

/* The marks, in time order. */
const struct lesson_mark *
lesson_marks(const struct lesson *l, size_t *n)
{
	*n = l->nmarks;
	return (l->marks);
}

/*
 * The speed the lesson had at tick: that of its last speed event at or
 * before it, else the scenario's own; 0 if it has neither (the
 * configured speed); -1 if the scenario says nothing of speed (not a
 * lesson: the clock's stays).
 */
double
lesson_speed_at(const struct lesson *l, uint64_t tick)
{
	double	speed = l->speed;
	size_t	i;
	int	found = 0;

	for (i = 0; i < l->n && l->ev[i].at <= tick; i++) {
		if (l->ev[i].action == SCENARIO_SPEED) {
			speed = l->ev[i].speed;
			found = 1;
		}
	}
	if (!found && l->speed <= 0) {
		for (; i < l->n; i++) {
			if (l->ev[i].action == SCENARIO_SPEED)
				return (0);
		}
		return (-1);
	}
	return (speed);
}
