/*
 * keys-clock.c -- the keys of the daemon's clock: pause and resume (from
 * the past, a new branch), step a tick, an rr interval or to the next
 * event, the speed (halved, doubled or typed, held to the daemon's
 * limits), and rewind: back or forward by a tick, an rr interval or a
 * second, or to the scenario's marks, counting from the last seek sent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "draw.h"
#include "keys.h"
#include "model.h"
#include "protocol.h"
#include "view.h"

static int	keys_clock_goto_done(struct keys_env *, const char *);
static int	keys_clock_branch(struct keys_env *, const char *);

/* Send pause (paused 0) or resume, remembered until a frame shows it. */
static int
keys_clock_send(struct keys_env *e, int paused)
{
	struct model	*m = e->model;
	struct view	*v = e->view;
	char		 what[96];

	v->pause_sent = !paused;
	v->pause_frames = m->frames;
	v->pause_replied = -1;
	if (!paused)
		return (keys_send(e, PEND_CLOCK, "pause", "pause"));
	if (m->live)
		snprintf(what, sizeof what, "resume");
	else if (model_has_real(m))
		snprintf(what, sizeof what, "resume: back to the present");
	else
		snprintf(what, sizeof what, "resume from tick %ld", m->tick);
	return (keys_send(e, PEND_CLOCK, what, "resume"));
}

/*
 * space: pause or resume.  Resuming from the past goes on from the tick
 * shown (a new branch: asked first, saying what goes), or with real
 * tasks back to the present.
 */
int
keys_clock_pause(struct keys_env *e, int key)
{
	struct model	*m = e->model;
	struct view	*v = e->view;
	char		 label[160];
	int		 paused = m->paused;

	if (v->pause_sent != -1)
		paused = v->pause_sent;
	if (paused && !m->live && !model_has_real(m) && m->now > m->tick) {
		snprintf(label, sizeof label, "resume from %ld for all, "
		    "dropping ticks %ld..%ld? y/N", m->tick, m->tick + 1,
		    m->now);
		return (keys_prompt_ask(e, PROMPT_BRANCH, label, "",
		    keys_clock_branch));
	}
	return (keys_clock_send(e, paused));
}

/* The y/N of a resume from the past was y. */
static int
keys_clock_branch(struct keys_env *e, const char *yes)
{
	return (keys_clock_send(e, 1));
}

/* The tick the rewind keys count from: the last seek sent, else shown. */
static long
keys_clock_base(struct keys_env *e)
{
	if (e->view->seeking)
		return (e->view->seek_tick);
	return (e->model->tick);
}

/* Send `seek tick`, saying what; the daemon pauses there. */
static int
keys_clock_seek_to(struct keys_env *e, long tick, const char *what)
{
	struct view	*v = e->view;
	char		 cmd[64];

	snprintf(cmd, sizeof cmd, "seek %ld", tick);
	v->seeking = 1;
	v->seek_tick = tick;
	v->seek_frames = e->model->frames;
	return (keys_send(e, PEND_ACTION, what, cmd));
}

/*
 * Left/Right, { }, b/f: back or forward by a tick, an rr interval or a
 * second (KEYS_SECOND ticks), never past tick 0 or the present.
 */
int
keys_clock_seek(struct keys_env *e, int key)
{
	struct model	*m = e->model;
	long		 base = keys_clock_base(e), to, by;
	char		 what[96];
	const char	*unit;

	switch (key) {
	case KEY_LEFT:
	case KEY_RIGHT:
		by = 1;
		unit = "a tick";
		break;
	case '{':
	case '}':
	case KEY_SLEFT:
	case KEY_SRIGHT:
		by = m->rr;
		unit = "an rr interval";
		break;
	default:
		by = KEYS_SECOND;
		unit = "a second";
		break;
	}
	if (key == KEY_LEFT || key == '{' || key == KEY_SLEFT || key == 'b')
		by = -by;
	to = base + by;
	if (to > m->now)
		to = m->now;
	if (to < 0)
		to = 0;
	if (to == base) {
		if (by > 0 && !m->paused)
			draw_message(e->view, 0, "the present, running: "
			    "nothing ahead yet (space pauses)");
		else if (by > 0)
			draw_message(e->view, 0, "tick %ld is the present: "
			    ". steps, space resumes", base);
		else
			draw_message(e->view, 0, "tick %ld: the start", base);
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	snprintf(what, sizeof what, "%s %s: tick %ld", by < 0 ? "back" :
	    "forward", unit, to);
	return (keys_clock_seek_to(e, to, what));
}

/* Seek to mark mk, or say it is not run yet. */
static int
keys_clock_seek_mark(struct keys_env *e, const struct mmark *mk)
{
	struct model	*m = e->model;
	char		 what[MODEL_TEXT_MAX + 64];

	if (mk->tick > m->now) {
		draw_message(e->view, 0, "mark %.80s (tick %ld) is not run "
		    "yet: the present is tick %ld", mk->text, mk->tick, m->now);
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	snprintf(what, sizeof what, "mark %.80s: tick %ld", mk->text, mk->tick);
	return (keys_clock_seek_to(e, mk->tick, what));
}

/* F: back to the present (live again; nothing dropped). */
int
keys_clock_present(struct keys_env *e, int key)
{
	struct model	*m = e->model;
	char		 what[64];

	if (m->live && !e->view->seeking) {
		draw_message(e->view, 0, "this is the present: tick %ld",
		    m->now);
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	snprintf(what, sizeof what, "back to the present: tick %ld", m->now);
	return (keys_clock_seek_to(e, m->now, what));
}

/* :: ask for a tick or a mark to go to. */
int
keys_clock_goto(struct keys_env *e, int key)
{
	const struct model	*m = e->model;
	char			 label[96];

	/* A recording played runs ahead too (keys_clock_goto_done). */
	snprintf(label, sizeof label, "go to a tick (0..%ld%s) or a mark's "
	    "words", m->now, m->parts > 0 && m->live ? ", or ahead" : "");
	return (keys_prompt_ask(e, PROMPT_GOTO, label, "",
	    keys_clock_goto_done));
}

/*
 * The go-to prompt was entered: a tick (held to 0..now; in a recording
 * played, a tick ahead is run to), or the first mark whose text holds
 * the words (any case).
 */
static int
keys_clock_goto_done(struct keys_env *e, const char *s)
{
	struct model		*m = e->model;
	const struct mmark	*mk = NULL;
	char			*end, what[MODEL_TEXT_MAX + 64], cmd[48];
	long			 tick;
	int			 i;

	tick = strtol(s, &end, 10);
	if (end != s && *end == '\0') {
		if (tick < 0)
			tick = 0;
		if (tick > m->now && m->parts > 0 && m->live) {
			/* A recording played: its future is known, run to it. */
			snprintf(what, sizeof what, "run to tick %ld", tick);
			snprintf(cmd, sizeof cmd, "step %ld", tick - m->now);
			return (keys_send(e, PEND_ACTION, what, cmd));
		}
		if (tick > m->now)
			tick = m->now;
		snprintf(what, sizeof what, "go to tick %ld", tick);
		return (keys_clock_seek_to(e, tick, what));
	}
	for (i = 0; i < m->nmarks && mk == NULL; i++) {
		if (strcasestr(m->marks[i].text, s) != NULL)
			mk = &m->marks[i];
	}
	if (mk == NULL) {
		draw_message(e->view, 1, "go to: no tick and no mark \"%.60s\" "
		    "(%d mark%s: ( ) go through them)", s, m->nmarks,
		    m->nmarks == 1 ? "" : "s");
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	return (keys_clock_seek_mark(e, mk));
}

/*
 * 1..9: answer the room's open question (any client, read-only ones
 * too: SPEC.md section 12); a vote may be changed until the reveal.
 */
int
keys_room_answer(struct keys_env *e, int key)
{
	struct model	*m = e->model;
	char		 cmd[32], what[MODEL_WORD_MAX + 32];
	int		 n = key - '0';

	if (!model_asking(m)) {
		draw_message(e->view, 0, "%c: no question is open to answer",
		    key);
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	if (n > m->nchoices) {
		draw_message(e->view, 1, "%c: the question has choices 1..%d",
		    key, m->nchoices);
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	snprintf(cmd, sizeof cmd, "answer %d", n);
	snprintf(what, sizeof what, "your answer: %d, %s", n, m->choices[n]);
	return (keys_send(e, PEND_ACTION, what, cmd));
}

/* ( ): to the previous or next mark of the scenario. */
int
keys_clock_mark(struct keys_env *e, int key)
{
	struct model		*m = e->model;
	const struct mmark	*mk = NULL;
	long			 base = keys_clock_base(e);
	int			 i;

	if (m->nmarks == 0) {
		draw_message(e->view, 0, "no marks in this scenario");
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	for (i = 0; i < m->nmarks; i++) {
		if (key == '(' && m->marks[i].tick < base)
			mk = &m->marks[i];
		if (key == ')' && m->marks[i].tick > base) {
			mk = &m->marks[i];
			break;
		}
	}
	if (mk == NULL) {
		draw_message(e->view, 0, "no mark %s tick %ld",
		    key == '(' ? "before" : "after", base);
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	return (keys_clock_seek_mark(e, mk));
}

/* .: one tick; i: one rr interval; E: to the next event or caption. */
int
keys_clock_step(struct keys_env *e, int key)
{
	char	cmd[64], what[64];
	int	rr = e->model->rr > 0 ? e->model->rr : 1;

	if (key == 'E')
		return (keys_send(e, PEND_STEP_EVENT, "step to the next event",
		    "step event"));
	if (key == 'i') {
		snprintf(cmd, sizeof cmd, "step %d", rr);
		snprintf(what, sizeof what, "step an rr interval (%d tick%s)",
		    rr, rr == 1 ? "" : "s");
		return (keys_send(e, PEND_ACTION, what, cmd));
	}
	return (keys_send(e, PEND_ACTION, "step 1 tick", "step 1"));
}

/* *: ask for a speed. */
int
keys_clock_speed_ask(struct keys_env *e, int key)
{
	char	label[64], init[32];
	double	s = e->model->speed;

	if (e->view->speed_sent > 0)
		s = e->view->speed_sent;
	snprintf(label, sizeof label, "speed (%g to %g ticks a ms)",
	    PROTO_SPEED_MIN, PROTO_SPEED_MAX);
	snprintf(init, sizeof init, "%g", s);
	return (keys_prompt_open(e, PROMPT_SPEED, label, init));
}

/* < / >: halve or double the speed. */
int
keys_clock_speed(struct keys_env *e, int key)
{
	struct view	*v = e->view;
	double		 s = e->model->speed;

	if (v->speed_sent > 0)
		s = v->speed_sent;
	/* The daemon's limits: stop there, instead of an error. */
	if (key == '<' && s <= PROTO_SPEED_MIN) {
		draw_message(v, 0, "speed %gx is the slowest", s);
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	if (key == '>' && s >= PROTO_SPEED_MAX) {
		draw_message(v, 0, "speed %gx is the fastest", s);
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	return (keys_send_speed(e, s * (key == '<' ? 0.5 : 2)));
}
