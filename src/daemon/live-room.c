/*
 * live-room.c -- the room (SPEC.md section 12): the question a lesson
 * asks, each connection's vote on it, and its reveal.
 *
 * An `ask` event opens the question; each connection's `answer N` is one
 * vote (kept in the connection, moved if it answers again); the resume
 * or step that shows the answer reveals the votes and has the session
 * write them into the journal (a tally line); the next lesson event
 * closes it, and so does a new session.  The room changes nothing the
 * engine schedules: the live daemon keeps it, not the session.  A
 * recording replayed shows the votes it kept.
 */
#include <stdio.h>
#include <string.h>

#include "change.h"
#include "journal.h"
#include "lesson.h"
#include "live-int.h"
#include "live.h"
#include "notes.h"
#include "xmalloc.h"

/* No question: a new session's, or one a branch went back before. */
void
live_room_close(struct live *l)
{
	l->ask = LIVE_ASK_NONE;
	l->ask_ev = NULL;
}

/*
 * A lesson event fired (live_lesson): a question revealed stays so until
 * the next lesson event; an ask opens its question, with no votes yet.
 */
void
live_room_event(struct live *l, const struct lesson_event *ev)
{
	if (l->ask == LIVE_ASK_REVEALED)
		live_room_close(l);
	if (ev->action == SCENARIO_ASK) {
		l->ask = LIVE_ASK_OPEN;
		l->ask_ev = ev;
		l->ask_serial++;
		memset(l->votes, 0, sizeof l->votes);
	}
}

/*
 * A recording played: the room's answers it kept for the question
 * revealed now (its tally at this tick) are the votes shown.
 */
static void
live_replay_tally(struct live *l, const struct lesson_event *ev)
{
	const struct journal	*j = l->replay_j;
	const struct change	*ch;
	uint64_t		 now = session_now(l->session);
	size_t			 i, k;

	if (j == NULL)
		return;
	for (i = 0; i < j->nchanges; i++) {
		ch = &j->changes[i];
		if (ch->kind != CHANGE_TALLY || ch->at != now ||
		    ch->npattern != (size_t)ev->nchoices)
			continue;
		for (k = 0; k < ch->npattern; k++)
			l->votes[k] = ch->pattern[k];
		return;
	}
}

/*
 * The question's reveal (the resume or step after it): its votes shown beside
 * the answer until the next lesson event, said as an event line and
 * kept in the journal (a tally line, docs/JOURNAL.md).
 */
static void
live_reveal(struct live *l)
{
	const struct lesson_event	*ev = l->ask_ev;
	uint64_t			 now = session_now(l->session);

	l->ask = LIVE_ASK_REVEALED;
	if (ev == NULL || ev->nchoices == 0)
		return;
	live_replay_tally(l, ev);
	session_votes(l->session, l->votes, (size_t)ev->nchoices);
	notes_add(l->notes, now > 0 ? now - 1 : 0, "votes: %s",
	    live_votes(l));
}

/*
 * The clock goes on from the present (a resume, a step), a branch made
 * first: a question the lesson asked is answered, its votes revealed; a
 * branch back before the question leaves it not asked.
 */
void
live_room_go_on(struct live *l)
{
	const char	*answer;

	if ((answer = session_answer(l->session)) != NULL) {
		notes_add(l->notes, session_now(l->session) - 1, "answer: %s",
		    answer);
		if (l->ask == LIVE_ASK_OPEN)
			live_reveal(l);
	} else if (l->ask == LIVE_ASK_OPEN) {
		/* A branch went back before the question: not asked. */
		live_room_close(l);
	}
}

/*
 * `answer N`: this connection's answer to the open question, choice N
 * (1-based); one per connection (vote), which it may change until the
 * reveal.  Every subscriber's next frame has the count.
 */
int
live_answer(struct live *l, struct live_vote *vote, int n, char **cause)
{
	const struct lesson_event	*ev = l->ask_ev;

	if (l->ask != LIVE_ASK_OPEN || ev == NULL || ev->nchoices == 0) {
		*cause = xstrdup("no question with choices is open");
		return (-1);
	}
	if (n < 1 || n > ev->nchoices) {
		*cause = xasprintf("answer %d: the question has choices 1..%d",
		    n, ev->nchoices);
		return (-1);
	}
	if (vote->ask == l->ask_serial && vote->choice >= 1 &&
	    vote->choice <= ev->nchoices && l->votes[vote->choice - 1] > 0)
		l->votes[vote->choice - 1]--;
	l->votes[n - 1]++;
	vote->ask = l->ask_serial;
	vote->choice = n;
	notes_changed(l->notes);
	return (0);
}

/* The votes as status says them: "3,0,1"; "-" with no choices. */
const char *
live_votes(struct live *l)
{
	const struct lesson_event	*ev = l->ask_ev;
	size_t				 off = 0;
	int				 i;

	if (l->ask == LIVE_ASK_NONE || ev == NULL || ev->nchoices == 0)
		return ("-");
	for (i = 0; i < ev->nchoices; i++)
		off += (size_t)snprintf(l->votes_text + off,
		    sizeof l->votes_text - off, "%s%u", i ? "," : "",
		    l->votes[i]);
	return (l->votes_text);
}

/* The question's choices while it is open or revealed (NULL: none). */
char *const *
live_choices(const struct live *l, int *n)
{
	*n = 0;
	if (l->ask == LIVE_ASK_NONE || l->ask_ev == NULL)
		return (NULL);
	*n = l->ask_ev->nchoices;
	return (l->ask_ev->choices);
}
