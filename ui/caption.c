/*
 * caption.c -- the caption line's hold (docs/CLIENT.md "Captions").
 *
 * A lesson's captions may follow each other a few ms of ticks apart (an
 * ask's answer, then the next caption): shown as the frames say, the
 * first would be gone before anyone read it.  So each caption stays up
 * at least CAPTION_HOLD_MS of wall time (an answer until the next key,
 * or CAPTION_ANSWER_MS), and the ones that come meanwhile wait, in
 * order; past CAPTION_QUEUE waiting, the next to go up is the newest,
 * and it says how many were skipped ("(2 captions skipped: e to see them)": the
 * event log has them all).
 *
 * They come from the daemon's event lines (`caption: TEXT`, `question:
 * TEXT`, `answer: TEXT`: every one, though two fell between frames),
 * and from the frames' caption line when it changes to a text no event
 * said (an older daemon, a client that connected after it).  In the
 * past (a seek) the caption is the tick's own, shown at once.
 *
 * Pure: the time (ms, any origin) is passed in; the drawing code reads
 * only caption_text.
 */
#include <stdio.h>
#include <string.h>

#include "caption.h"
#include "model.h"

static size_t	caption_kind(const char *, int *, int *);
static void	caption_pop(struct captions *, long);
static int	caption_due(const struct captions *, long);
static int	caption_skip_before(struct captions *, int);

static const struct {
	const char	*prefix;
	int		 answer;
	int		 question;
} caption_kinds[] = {
	{ "caption: ", 0, 0 },
	{ "question: ", 0, 1 },
	{ "answer: ", 1, 0 },
};

/*
 * Is an event line's text a caption's (`caption: `, `question: `,
 * `answer: `)?  The length of its prefix, 0 if not; *answer says an
 * answer's.
 */
size_t
caption_event(const char *text, int *answer)
{
	return (caption_kind(text, answer, NULL));
}

/* caption_event, and whether it is a question's. */
static size_t
caption_kind(const char *text, int *answer, int *question)
{
	size_t	i, n;

	for (i = 0; i < sizeof caption_kinds / sizeof caption_kinds[0];
	    i++) {
		n = strlen(caption_kinds[i].prefix);
		if (strncmp(text, caption_kinds[i].prefix, n) == 0) {
			if (answer != NULL)
				*answer = caption_kinds[i].answer;
			if (question != NULL)
				*question = caption_kinds[i].question;
			return (n);
		}
	}
	return (0);
}

/* The text last queued, or shown when none waits. */
static const char *
caption_newest(const struct captions *c)
{
	if (c->nqueue > 0)
		return (c->queue[c->nqueue - 1].text);
	return (c->shown.text);
}

/*
 * Queue a caption.  Past CAPTION_QUEUE waiting only the newest waits,
 * saying how many were skipped to reach it, and so on while more come
 * before it goes up (one waiting that skipped some: they were too many);
 * but the last answer among them waits too, before it.
 */
static void
caption_push(struct captions *c, const char *text, int answer, int question)
{
	struct caption_item	*it;
	int			 skipped = 0;

	if (c->nqueue == 1 && c->queue[0].skipped > 0) {
		skipped = c->queue[0].skipped + 1;
		c->nqueue = 0;
	}
	it = &c->queue[c->nqueue++];
	snprintf(it->text, sizeof it->text, "%s", text);
	it->answer = answer;
	it->question = question;
	it->skipped = skipped;
	if (c->nqueue > CAPTION_QUEUE)
		caption_skip_before(c, c->nqueue - 1);
}

/*
 * Skip the captions waiting before queue[k], but the last answer among
 * them (the room waited for it): each is counted by the one after it.
 * Returns where queue[k] is now: 0, or 1 behind that answer.
 */
static int
caption_skip_before(struct captions *c, int k)
{
	int	i, a, to, skipped = 0;

	for (a = k - 1; a >= 0 && !c->queue[a].answer; a--)
		;
	for (i = 0; i < a; i++)
		skipped += 1 + c->queue[i].skipped;
	if (a >= 0) {
		c->queue[0] = c->queue[a];
		c->queue[0].skipped += skipped;
		skipped = 0;
	}
	for (i = a + 1; i < k; i++)
		skipped += 1 + c->queue[i].skipped;
	c->queue[k].skipped += skipped;
	to = a >= 0 ? 1 : 0;
	memmove(&c->queue[to], &c->queue[k], (size_t)(c->nqueue - k) *
	    sizeof c->queue[0]);
	c->nqueue -= k - to;
	return (to);
}

/*
 * The clock waits on a question (paused, one waiting): it goes up now,
 * and the captions that waited before it are skipped (the event log has
 * them): the room must see what it is asked while it is asked, not 4 s
 * of older captions later.  An answer is the exception: the room waited
 * for it, so the last one (shown, or waiting) stays up CAPTION_HOLD_MS
 * first, or until a key.  1 if what is shown changed.
 */
static int
caption_question_now(struct captions *c, long now)
{
	int	i, q = -1;

	for (i = 0; i < c->nqueue; i++) {
		if (c->queue[i].question)
			q = i;
	}
	if (q < 0)
		return (0);
	if (caption_skip_before(c, q) == 1) {
		caption_pop(c, now);	/* the answer first */
		return (1);
	}
	if (c->shown.answer && !caption_due(c, now))
		return (0);	/* an answer, still held */
	caption_pop(c, now);
	return (1);
}

/* Put the next waiting caption up at now. */
static void
caption_pop(struct captions *c, long now)
{
	c->shown = c->queue[0];
	memmove(&c->queue[0], &c->queue[1], (size_t)(c->nqueue - 1) *
	    sizeof c->queue[0]);
	c->nqueue--;
	c->since = now;
	c->released = 0;
}

/*
 * How long the caption shown stays up at least, in ms: an answer
 * CAPTION_ANSWER_MS or until a key, but only CAPTION_HOLD_MS when the
 * clock already waits on the next question; any other CAPTION_HOLD_MS.
 */
static long
caption_hold(const struct captions *c)
{
	int	i;

	if (!c->shown.answer)
		return (CAPTION_HOLD_MS);
	for (i = 0; i < c->nqueue; i++) {
		if (c->queue[i].question)
			return (CAPTION_HOLD_MS);
	}
	return (CAPTION_ANSWER_MS);
}

/* Is the caption shown due to give way at now? */
static int
caption_due(const struct captions *c, long now)
{
	if (c->shown.text[0] == '\0')
		return (1);
	if (c->shown.answer && c->released)
		return (1);
	/* A question gives way to its answer at once: that is the reveal. */
	if (c->shown.question && c->nqueue > 0 && c->queue[0].answer)
		return (1);
	return (now - c->since >= caption_hold(c));
}

/*
 * How long from now until the next waiting caption may go up, in ms
 * (0: now); -1 when none waits, so nothing needs waking for.
 */
long
caption_wait(const struct captions *c, long now)
{
	if (c->nqueue == 0)
		return (-1);
	if (caption_due(c, now))
		return (0);
	return (c->since + caption_hold(c) - now);
}

/*
 * The time is now: the next waiting caption goes up if the one shown
 * was up long enough.  Returns 1 if what is shown changed.
 */
int
caption_advance(struct captions *c, long now)
{
	if (c->nqueue == 0 || !caption_due(c, now))
		return (0);
	caption_pop(c, now);
	return (1);
}

/*
 * A key was pressed: an answer shown may give way.  0 if nothing
 * changed, 1 if the next caption went up, CAPTION_KEY_QUESTION if that
 * is the question the clock waits on (the key showed it; it should do
 * nothing more).
 */
int
caption_key(struct captions *c, long now)
{
	if (!c->shown.answer || c->released)
		return (0);
	c->released = 1;
	if (!caption_advance(c, now))
		return (0);
	return (c->shown.question ? CAPTION_KEY_QUESTION : 1);
}

/*
 * A frame came at now: the caption events since the last (the model's
 * event log from *seen on), then the frame's caption line.  Returns 1
 * if what is shown changed.
 */
int
caption_frame(struct captions *c, const struct model *m, long now)
{
	const struct mevent	*ev;
	long			 k, first;
	size_t			 n;
	int			 was = c->fed, answer, question;

	c->fed = 1;
	if (c->sessions != m->sessions) {
		/* A new session (a load, a reset): its own captions. */
		memset(c, 0, sizeof *c);
		c->fed = 1;
		c->sessions = m->sessions;	/* seen 0: the log holds */
		was = 0;			/* the new session's only */
	}
	if (!m->live) {
		/* The past: the tick's own caption, at once. */
		if (strcmp(c->shown.text, m->caption) == 0 && c->nqueue == 0)
			return (0);
		memset(&c->shown, 0, sizeof c->shown);
		snprintf(c->shown.text, sizeof c->shown.text, "%s",
		    m->caption);
		snprintf(c->frame_seen, sizeof c->frame_seen, "%s",
		    m->caption);
		c->nqueue = 0;
		c->since = now;
		c->seen = m->nlog;
		return (1);
	}
	first = m->nlog - MODEL_LOG > c->seen ? m->nlog - MODEL_LOG : c->seen;
	for (k = first; k < m->nlog; k++) {
		ev = &m->log[k % MODEL_LOG];
		if ((n = caption_kind(ev->text, &answer, &question)) > 0)
			caption_push(c, ev->text + n, answer, question);
	}
	c->seen = m->nlog;
	if (strcmp(c->frame_seen, m->caption) != 0) {
		snprintf(c->frame_seen, sizeof c->frame_seen, "%s",
		    m->caption);
		/* A caption no event said; or none (a new session's). */
		if (m->caption[0] == '\0' && c->nqueue == 0)
			memset(&c->shown, 0, sizeof c->shown);
		else if (strcmp(caption_newest(c), m->caption) != 0)
			caption_push(c, m->caption, 0, m->paused &&
			    m->ask == MODEL_ASK_OPEN);
	}
	if (m->paused && caption_question_now(c, now))
		return (1);
	/* The first caption goes up at once: none was shown. */
	return (caption_advance(c, now) || !was);
}

/*
 * The caption to show ("" for none), with how many were skipped to
 * reach it, in buf.
 */
const char *
caption_text(const struct captions *c, char *buf, size_t len)
{
	if (c->shown.skipped == 0)
		return (c->shown.text);
	snprintf(buf, len, "%s (%d caption%s skipped: e to see them)",
	    c->shown.text, c->shown.skipped, c->shown.skipped == 1 ? "" :
	    "s");
	return (buf);
}
