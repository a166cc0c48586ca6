/*
 * keys-send.c -- a key's command sent to the daemon (a speed held to
 * the daemon's limits: keys_send_speed, for < > and the * prompt), and
 * what comes back: the reply says how it went (keys_reply, on the
 * caption line), and the frames after it show it done, so the nice,
 * speed, pause or seek sent is forgotten once a frame shows it
 * (keys_frame); a key's outcome stays up for a few seconds of frames.
 */
#include <stdio.h>
#include <string.h>

#include "draw.h"
#include "keys.h"
#include "model.h"
#include "pane.h"
#include "protocol.h"
#include "view.h"

/* Send a command; say so if it could not be sent. */
int
keys_send(struct keys_env *e, enum model_pend kind, const char *what,
    const char *cmd)
{
	if (e->send(e->arg, kind, cmd) != 0 ||
	    model_sent(e->model, kind, what) != 0) {
		draw_message(e->view, 1, "%s: not sent", what);
		return (KEYS_HANDLED | KEYS_REDRAW);
	}
	draw_message(e->view, 0, "%s ...", what);
	e->view->message_note = 0;
	return (KEYS_HANDLED | KEYS_REDRAW);
}

/*
 * Ask for speed s, held to the daemon's limits (saying so): a speed
 * out of them is the nearest limit, not an error.
 */
int
keys_send_speed(struct keys_env *e, double s)
{
	struct view	*v = e->view;
	char		 cmd[64], what[96];
	const char	*limit = "";

	if (s < PROTO_SPEED_MIN) {
		s = PROTO_SPEED_MIN;
		limit = " (the slowest)";
	}
	if (s > PROTO_SPEED_MAX) {
		s = PROTO_SPEED_MAX;
		limit = " (the fastest)";
	}
	v->speed_sent = s;
	v->speed_frames = e->model->frames;
	snprintf(cmd, sizeof cmd, "speed %g", s);
	snprintf(what, sizeof what, "speed %gx%s", s, limit);
	return (keys_send(e, PEND_ACTION, what, cmd));
}

/*
 * A reply to an action came: say how it went.  A refusal says so first
 * ("hog on CPUs 9: cpu 9 is outside 0..1" read like a success).  A
 * success does not replace what a key said since it was sent (f at the
 * present, pressed before the seeks before it were answered).
 */
void
keys_reply(struct model *m, struct view *v)
{
	/*
	 * The daemon did the pause or resume: the next frame says what the
	 * clock does now, even if that is what the frames said before (a
	 * lesson's question paused it again within a frame).
	 */
	if (v->pause_sent != -1 && m->reply_kind == PEND_CLOCK)
		v->pause_replied = m->frames;
	if (m->reply_ok) {
		if (v->message_note && v->message[0] != '\0')
			return;
		if (m->reply_kind == PEND_STEP_EVENT) {
			/* E: the event it stopped at says what happened. */
			v->message[0] = '\0';
			v->message_note = 0;
			return;
		}
		if (m->reply_text[0] != '\0')
			draw_message(v, 0, "%s: ok %s", m->reply_what,
			    m->reply_text);
		else
			draw_message(v, 0, "%s", m->reply_what);
		v->message_note = 0;
		return;
	}
	draw_message(v, 1, "refused: %s: %s", m->reply_what, m->reply_text);
	v->message_note = 0;
	v->nice_task = 0;
	v->speed_sent = 0;
	v->pause_sent = -1;
	v->seeking = 0;
}

/*
 * A frame came.  A key's outcome stays on the caption line for about
 * five seconds of frames (errors twenty), then gives way to the
 * scenario's events.  The last nice, speed, pause or seek sent is
 * forgotten once a frame shows it (or after a second of frames, if
 * something else changed it meanwhile).  A new session (a load, a reset)
 * forgets them all; another scenario starts the view again (selection,
 * scrolling).  Returns KEYS_MARKS when the session is new: its marks
 * are to be asked for.
 */
int
keys_frame(struct model *m, struct view *v)
{
	const struct mtask	*t;
	long			 keep;
	int			 flags = 0;

	if (v->sessions != m->sessions) {
		v->sessions = m->sessions;
		v->seeking = 0;
		v->nice_task = 0;
		/* The old session's sleeps seen and log scrolled: gone. */
		v->nsamples = 0;
		v->events_back = 0;
		flags |= KEYS_MARKS;
	}
	if (strcmp(v->scenario, m->scenario) != 0) {
		if (v->scenario[0] != '\0') {
			v->selected = 0;
			v->task_top = 0;
			v->cpu_top = 0;
		}
		memcpy(v->scenario, m->scenario, sizeof v->scenario);
		flags |= KEYS_MARKS;
	}

	history_sample(m, v);
	if (v->message[0] != '\0') {
		keep = (v->message_error ? 20 : 5) * KEYS_FPS;
		if (strcmp(v->message, v->message_seen) != 0) {
			memcpy(v->message_seen, v->message,
			    sizeof v->message_seen);
			v->message_frames = m->frames;
		} else if (m->frames - v->message_frames > keep) {
			v->message[0] = '\0';
			v->message_seen[0] = '\0';
		}
	}

	if (v->speed_sent > 0 && (m->speed == v->speed_sent ||
	    m->frames > v->speed_frames + 30))
		v->speed_sent = 0;
	if (v->pause_sent != -1 && (m->paused == v->pause_sent ||
	    (v->pause_replied != -1 && m->frames > v->pause_replied) ||
	    m->frames > v->pause_frames + 30))
		v->pause_sent = -1;
	if (v->seeking && (m->tick == v->seek_tick ||
	    m->frames > v->seek_frames + 30))
		v->seeking = 0;
	if (v->nice_task == 0)
		return (flags);
	t = model_task(m, v->nice_task);
	if (t == NULL || t->nice == v->nice_value ||
	    m->frames > v->nice_frames + 30)
		v->nice_task = 0;
	return (flags);
}
