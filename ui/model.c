/*
 * model.c -- the client's copy of the daemon's state, fed one protocol
 * line at a time (docs/PROTOCOL.md): the greeting, then frames
 * (model-frame.c) and replies to the commands the client sent, matched
 * in order (model-reply.c), each fed by model_feed (model-feed.c); a
 * line's fields are read in model-parse.c, %CPU kept in model-pct.c,
 * runs and events in model-history.c.  Here: making and freeing a
 * model, and looking things up in it.  No I/O and no ncurses: the tests
 * feed it text.
 *
 * Protocol 2 adds the session: frames and status say the scenario, the
 * present tick (now=) and whether the tick shown is it (live=1) or the
 * past (live=0, after `seek`); the `scenarios` and `marks` replies are
 * kept for the picker and the rewind keys.  A new scenario, or the
 * present going back (a load, a reset, a branch), is a new session: the
 * frame after it replaces every task and CPU.  A malformed line is
 * counted, remembered and skipped; the rest of its frame still counts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "runs.h"
#include "xmalloc.h"

static const char *model_state_names[] = {
	"sleeping", "runnable", "running", "exited"
};

/* Make an empty model. */
struct model *
model_create(void)
{
	struct model	*m;

	m = xcalloc(1, sizeof *m);
	m->speed = 1;
	m->rr = 10;
	m->sleep_ms = 1000;
	m->live = 1;
	m->alive = -1;
	return (m);
}

/* Free an article table's rows. */
void
model_table_clear(struct mtable *t)
{
	free(t->iters);
	free(t->ticks);
	memset(t, 0, sizeof *t);
}

/* Free a model. */
void
model_free(struct model *m)
{
	int	i;

	if (m == NULL)
		return;
	free(m->cpus);
	free(m->tasks);
	free(m->names);
	free(m->ncpu_stage);
	free(m->task_stage);
	free(m->gone_stage);
	free(m->scenarios);
	free(m->scen_stage);
	free(m->marks);
	free(m->mark_stage);
	model_table_clear(&m->table);
	model_table_clear(&m->table_stage);
	runs_free(m->runs);
	runs_free(m->kruns);
	free(m->log);
	free(m->why);
	free(m->tally_stage);
	free(m->why_stage);
	for (i = 0; i < MODEL_SHADOWS; i++)
		model_free(m->shadows[i]);
	free(m);
}

/* Note a command sent, so its reply can be matched; -1 if too many. */
int
model_sent(struct model *m, enum model_pend kind, const char *what)
{
	int	i;

	if (m->npending == MODEL_PENDING)
		return (-1);
	i = (m->pending_head + m->npending) % MODEL_PENDING;
	m->pending[i].kind = kind;
	snprintf(m->pending[i].what, sizeof m->pending[i].what, "%s", what);
	m->npending++;
	return (0);
}

/* How many commands of a kind await their reply. */
int
model_pending(const struct model *m, enum model_pend kind)
{
	int	i, n = 0;

	for (i = 0; i < m->npending; i++) {
		if (m->pending[(m->pending_head + i) % MODEL_PENDING].kind ==
		    kind)
			n++;
	}
	return (n);
}

/* Find a task by id (binary search: tasks are sorted). */
int
model_task_index(const struct model *m, int id)
{
	int	lo = 0, hi = m->ntasks - 1, mid;

	while (lo <= hi) {
		mid = lo + (hi - lo) / 2;
		if (m->tasks[mid].id == id)
			return (mid);
		if (m->tasks[mid].id < id)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return (-1);
}

/* A task by id, or NULL. */
const struct mtask *
model_task(const struct model *m, int id)
{
	int	i;

	if ((i = model_task_index(m, id)) == -1)
		return (NULL);
	return (&m->tasks[i]);
}

/* The protocol's name of a task state. */
const char *
model_state_name(enum mtask_state s)
{
	return (model_state_names[s]);
}

/* The scenario of the last `scenarios` reply called name, or NULL. */
const struct mscenario *
model_scenario(const struct model *m, const char *name)
{
	int	i;

	for (i = 0; i < m->nscenarios; i++) {
		if (strcmp(m->scenarios[i].name, name) == 0)
			return (&m->scenarios[i]);
	}
	return (NULL);
}

/* Whether the room can answer now: a question open, with choices. */
int
model_asking(const struct model *m)
{
	return (m->ask == MODEL_ASK_OPEN && m->nchoices > 0);
}

/* Whether the session has real tasks (resume from the past: present). */
int
model_has_real(const struct model *m)
{
	int	i;

	for (i = 0; i < m->ntasks; i++) {
		if (m->tasks[i].real)
			return (1);
	}
	return (0);
}

/*
 * The running scenario's description: the `scenarios` reply's, else
 * the `status` reply's (a scenario loaded from a file is not in the
 * list) when it was about this scenario; "" for none.
 */
const char *
model_description(const struct model *m)
{
	const struct mscenario	*sc;

	if (m->scenario[0] == '\0')
		return ("");
	sc = model_scenario(m, m->scenario);
	if (sc != NULL && sc->text[0] != '\0')
		return (sc->text);
	if (strcmp(m->described, m->scenario) == 0)
		return (m->description);
	return ("");
}

/* The newest event's text, or NULL. */
const char *
model_last_event(const struct model *m)
{
	if (m->nevents == 0)
		return (NULL);
	return (m->events[(m->nevents - 1) % MODEL_EVENTS]);
}

/*
 * The picture a policy is drawn with (SPEC.md section 10): what a
 * frame's picture= says of the enforced engine, and of a shadow, whose
 * frame lines name only its policy.  An unknown policy: the stairs.
 */
const char *
model_picture_of(const char *policy)
{
	static const struct {
		const char	*policy, *picture;
	} pictures[] = {
		{ "staircase", "stairs" }, { "o1", "arrays" },
		{ "cfs", "vruntime" }, { "eevdf", "lag" }, { "rr", "queue" },
	};
	size_t	i;

	for (i = 0; i < sizeof pictures / sizeof pictures[0]; i++) {
		if (strcmp(policy, pictures[i].policy) == 0)
			return (pictures[i].picture);
	}
	return ("stairs");
}

/*
 * CPU cpu's last why, or NULL when none came (or the past is shown:
 * frames of the past carry none, and the present's would mislead).
 */
const struct mwhy *
model_why(const struct model *m, int cpu)
{
	if (!m->live || cpu < 0 || cpu >= m->nwhy || m->why[cpu].tick < 0)
		return (NULL);
	return (&m->why[cpu]);
}

/* A task's quantity k into *v: 0, or -1 when its line had none. */
int
model_q(const struct mtask *t, enum mq k, long *v)
{
	if (!(t->qhas & 1u << k))
		return (-1);
	*v = t->q[k];
	return (0);
}

/* A CPU's quantity k, as model_q. */
int
model_cq(const struct mcpu *c, enum mcq k, long *v)
{
	if (!(c->qhas & 1u << k))
		return (-1);
	*v = c->q[k];
	return (0);
}
