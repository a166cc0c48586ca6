/*
 * model.c -- the client's copy of the daemon's state, fed one protocol
 * line at a time (docs/PROTOCOL.md): the greeting, frames (frame, cpu,
 * task, caption, event, end), the data lines of replies (status, table,
 * row) and final lines (ok/err), matched in order with the commands the
 * client sent.  No I/O and no ncurses: the tests feed it text.
 *
 * Protocol 2 adds the session: frames and status say the scenario, the
 * present tick (now=) and whether the tick shown is it (live=1) or the
 * past (live=0, after `seek`); the `scenarios` and `marks` replies are
 * kept for the picker and the rewind keys.  A new scenario, or the
 * present going back (a load, a reset, a branch), is a new session: the
 * frame after it replaces every task and CPU.
 *
 * A frame is read into a stage and only replaces the current state at
 * `end`, so a screen never shows half a frame.  A delta frame (delta=1,
 * after `subscribe N delta`) carries only the tasks that changed and
 * `gone` lines: at `end` they are applied to the tasks kept, in place,
 * each found by its id: the cost is that of the lines that came, not a
 * pass over every task (%cpu is computed when shown, model_pct).  A
 * malformed line is counted, remembered and skipped; the rest of its
 * frame still counts.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol.h"
#include "runs.h"
#include "stairs.h"
#include "wire.h"
#include "xmalloc.h"

/*
 * The keys of the lines read here, from wire.c.  frame and status share
 * their header keys (one table in wire.c), so KH reads either.
 */
#define KH(k)	wire_key(&wire_frame, WIRE_HEAD_##k)
#define KC(k)	wire_key(&wire_cpu, WIRE_CPU_##k)
#define KG(k)	wire_key(&wire_gone, WIRE_GONE_##k)
#define KX(k)	wire_key(&wire_mark, WIRE_TEXT_##k)
#define KT(k)	wire_key(&wire_table, WIRE_TABLE_##k)
#define KU(k)	wire_key(&wire_runs, WIRE_RUNS_##k)
#define KV(k)	wire_key(&wire_view, WIRE_VIEW_##k)
#define KR(k)	wire_key(&wire_row, WIRE_ROW_##k)
#define KS(k)	wire_key(&wire_scenario, WIRE_SCEN_##k)

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
static void
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
	history_free(m);
	model_free(m->shadow);
	free(m);
}

/* Remember a malformed line and say so. */
static enum model_got
model_bad(struct model *m, const char *line, const char *why)
{
	m->nbad++;
	snprintf(m->bad, sizeof m->bad, "%s: %.*s", why, 120, line);
	return (MODEL_BAD);
}

/*
 * A line of a kind this client does not know, written as the protocol
 * writes lines (a lowercase keyword, then key=value fields, the last of
 * which may be bare, as a runs line's runs): a newer
 * daemon's, to be ignored (docs/PROTOCOL.md, "Compatibility"); counted
 * in nunknown.  Anything else is malformed.
 */
static int
model_unknown(struct model *m, const struct proto_fields *f)
{
	const char	*p;
	int		 i;

	if (*f->word < 'a' || *f->word > 'z')
		return (0);
	for (p = f->word; *p != '\0'; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		    *p == '_'))
			return (0);
	}
	for (i = 0; i < f->n; i++) {
		/* The last may be bare after a key=value: runs. */
		if (f->f[i].value == NULL && (i == 0 || i + 1 < f->n))
			return (0);
	}
	m->nunknown++;
	return (1);
}

/* Parse a whole decimal number; "-" gives dash (if allowed). */
static int
model_num(const char *s, long *out, long dash)
{
	char	*end;
	long	 v;

	if (s == NULL || *s == '\0')
		return (-1);
	if (strcmp(s, "-") == 0) {
		if (dash == LONG_MIN)
			return (-1);
		*out = dash;
		return (0);
	}
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return (-1);
	*out = v;
	return (0);
}

/* Read an int field into *out; missing keeps *out unless required. */
static int
model_int(struct proto_fields *f, const char *key, int *out, int required,
    int dash)
{
	const char	*s;
	long		 v;

	if ((s = protocol_get(f, key)) == NULL)
		return (required ? -1 : 0);
	if (model_num(s, &v, dash ? -1 : LONG_MIN) != 0 || v < INT_MIN ||
	    v > INT_MAX)
		return (-1);
	*out = (int)v;
	return (0);
}

/* Read a long field like model_int. */
static int
model_long(struct proto_fields *f, const char *key, long *out, int required)
{
	const char	*s;

	if ((s = protocol_get(f, key)) == NULL)
		return (required ? -1 : 0);
	return (model_num(s, out, -1));
}

/* Read the header fields shared by `frame` and `status`. */
static int
model_header(struct proto_fields *f, long *tick, int *paused, double *speed,
    int *rr, int *sleep_ms)
{
	const char	*s;
	char		*end;
	double		 d;

	if (model_long(f, KH(TICK), tick, 1) != 0)
		return (-1);
	if (model_int(f, KH(PAUSED), paused, 0, 0) != 0)
		return (-1);
	if ((s = protocol_get(f, KH(SPEED))) != NULL) {
		d = strtod(s, &end);
		if (*end != '\0' || !(d > 0))
			return (-1);
		*speed = d;
	}
	if (model_int(f, KH(RR), rr, 0, 0) != 0 || *rr <= 0)
		return (-1);
	/* Not in protocol 1, but used if a daemon offers it. */
	if (sleep_ms != NULL) {
		if (model_int(f, KH(SLEEP), sleep_ms, 0, 0) != 0 ||
		    *sleep_ms <= 0)
			return (-1);
	}
	return (0);
}

/*
 * Read the session's fields of a `frame` or `status` line: live=0/1,
 * now=T, alive=N and scenario=NAME (kept as it was when not given).  An
 * older daemon's live=N was the count of live tasks: without alive= it
 * is read as that, and the tick shown is the present.
 */
static int
model_session(struct proto_fields *f, int *live, long *now, int *alive,
    char *scenario, size_t len)
{
	const char	*s;
	int		 l = 1, a = -1;
	long		 n = -1;

	if (model_int(f, KH(LIVE), &l, 0, 0) != 0 ||
	    model_int(f, KH(ALIVE), &a, 0, 0) != 0 ||
	    model_long(f, KH(NOW), &n, 0) != 0 || n < -1)
		return (-1);
	if (protocol_get(f, KH(ALIVE)) == NULL) {
		a = protocol_get(f, KH(LIVE)) != NULL ? l : -1;
		l = 1;
	} else if ((l != 0 && l != 1) || a < 0)
		return (-1);
	if ((s = protocol_get(f, KH(SCENARIO))) != NULL) {
		if (*s == '\0' || strlen(s) >= len)
			return (-1);
		snprintf(scenario, len, "%s", s);
	}
	*live = l;
	*now = n;
	*alive = a;
	return (0);
}

/* Parse a `cpu` line. */
static int
model_parse_cpu(struct proto_fields *f, struct mcpu *c)
{
	memset(c, 0, sizeof *c);
	c->rank = c->iter = c->left = -1;
	if (model_int(f, KC(ID), &c->id, 1, 0) != 0 || c->id < 0)
		return (-1);
	if (model_int(f, KC(TASK), &c->task, 0, 0) != 0 || c->task < 0)
		return (-1);
	if (model_int(f, KC(NR), &c->nr, 0, 0) != 0 ||
	    model_int(f, KC(RANK), &c->rank, 0, 1) != 0 ||
	    model_int(f, KC(ITER), &c->iter, 0, 1) != 0 ||
	    model_int(f, KC(LEFT), &c->left, 0, 1) != 0)
		return (-1);
	if (c->task == 0)
		c->rank = c->iter = c->left = -1;
	return (0);
}

/* Copy a string value, refusing one that does not fit. */
static int
model_copy(char *dst, size_t len, const char *s)
{
	size_t	n = strlen(s);

	if (n >= len)
		return (-1);
	memcpy(dst, s, n + 1);
	return (0);
}

/*
 * Parse a `task` line in one pass over its fields (this is most of a
 * frame: keep it cheap).  id, name and state are required; unknown keys
 * are skipped, so a newer daemon may add some.
 */
static int
model_parse_task(const struct proto_fields *f, struct mtask *t)
{
	const char	*s;
	long		 v = 0;
	int		 i, key, seen = 0, hint = 0;
	size_t		 j;

	memset(t, 0, sizeof *t);
	t->pid = t->cpu = -1;
	t->cputime = -1;
	t->stolen = -2;
	t->rank = 120;
	t->iter = 1;
	t->cpus[0] = t->group[0] = t->exit[0] = '-';

	for (i = 0; i < f->n; i++) {
		if ((s = f->f[i].value) == NULL ||
		    (key = wire_find(&wire_task, f->f[i].key, &hint)) < 0)
			continue;	/* a newer daemon's */
		switch (wire_task.field[key].type) {
		case WIRE_INT:
		case WIRE_INT_DASH:
		case WIRE_COUNT:
		case WIRE_COUNT_DASH:
			if (model_num(s, &v, wire_task.field[key].type ==
			    WIRE_INT_DASH || wire_task.field[key].type ==
			    WIRE_COUNT_DASH ? -1 : LONG_MIN) != 0)
				return (-1);
			if (wire_task.field[key].type != WIRE_COUNT &&
			    wire_task.field[key].type != WIRE_COUNT_DASH &&
			    (v < INT_MIN || v > INT_MAX))
				return (-1);
			break;
		default:
			break;
		}
		switch ((enum wire_task)key) {
		case WIRE_TASK_NAME:
			if (*s == '\0' || model_copy(t->name, sizeof t->name,
			    s) != 0)
				return (-1);
			break;
		case WIRE_TASK_KIND:
			if (strcmp(s, "real") == 0)
				t->real = 1;
			else if (strcmp(s, "sim") != 0)
				return (-1);
			break;
		case WIRE_TASK_STATE:
			for (j = 0; j < sizeof model_state_names /
			    sizeof *model_state_names; j++) {
				if (strcmp(s, model_state_names[j]) == 0)
					break;
			}
			if (j == sizeof model_state_names /
			    sizeof *model_state_names)
				return (-1);
			t->state = (enum mtask_state)j;
			break;
		case WIRE_TASK_CPUS:
			if (model_copy(t->cpus, sizeof t->cpus, s) != 0)
				return (-1);
			break;
		case WIRE_TASK_GROUP:
			if (model_copy(t->group, sizeof t->group, s) != 0)
				return (-1);
			break;
		case WIRE_TASK_EXIT:
			/* Free text with _ for spaces: cut, never refused. */
			snprintf(t->exit, sizeof t->exit, "%s", s);
			break;
		case WIRE_TASK_ID:
			t->id = (int)v;
			break;
		case WIRE_TASK_PID:
			t->pid = (int)v;
			break;
		case WIRE_TASK_NICE:
			t->nice = (int)v;
			break;
		case WIRE_TASK_CPU:
			t->cpu = (int)v;
			break;
		case WIRE_TASK_RANK:
			t->rank = (int)v;
			break;
		case WIRE_TASK_ITER:
			t->iter = (int)v;
			break;
		case WIRE_TASK_LEFT:
			t->left = (int)v;
			break;
		case WIRE_TASK_RAN:
			t->ran = v;
			break;
		case WIRE_TASK_CPUTIME:
			t->cputime = v;
			break;
		case WIRE_TASK_STOLEN:
			t->stolen = v;
			break;
		case WIRE_TASK_SLICE:
			t->slice = (int)v;
			break;
		case WIRE_TASK_TOP:
			t->top = (int)v;
			break;
		case WIRE_TASK_BOTTOM:
			t->bottom = (int)v;
			break;
		case WIRE_TASK_MAX:
			break;
		}
		seen |= 1 << key;
	}
	if ((seen & (1 << WIRE_TASK_ID | 1 << WIRE_TASK_NAME |
	    1 << WIRE_TASK_STATE)) != (1 << WIRE_TASK_ID |
	    1 << WIRE_TASK_NAME | 1 << WIRE_TASK_STATE) || t->id <= 0 ||
	    t->nice < -20 || t->nice > 19 || t->rank < 0 ||
	    t->rank > MODEL_BOTTOM || t->iter < 0 || t->iter > 40 ||
	    t->left < 0)
		return (-1);
	/* A daemon that says nothing of the policy: what the line shows. */
	if (!(seen & 1 << WIRE_TASK_SLICE))
		t->slice = t->left;
	if (!(seen & 1 << WIRE_TASK_TOP))
		t->top = t->rank;
	if (!(seen & 1 << WIRE_TASK_BOTTOM))
		t->bottom = t->rank;
	if (t->slice < 0 || t->top < 0 || t->top > MODEL_BOTTOM ||
	    t->bottom < t->top || t->bottom > MODEL_BOTTOM)
		return (-1);
	return (0);
}

/* Order tasks by id. */
static int
model_cmp_task(const void *a, const void *b)
{
	const struct mtask	*ta = a, *tb = b;

	return ((ta->id > tb->id) - (ta->id < tb->id));
}

/* Order CPUs by id. */
static int
model_cmp_cpu(const void *a, const void *b)
{
	const struct mcpu	*ca = a, *cb = b;

	return ((ca->id > cb->id) - (ca->id < cb->id));
}

/*
 * A frame at tick: take a %cpu sample if it is MODEL_HIST_GAP ticks or
 * more after the last (or the first); time gone back (a new daemon, a
 * seek) drops every sample.
 */
static void
model_sample(struct model *m, long tick)
{
	if (m->nsamp > 0 && tick < m->stick[(m->nsamp - 1) % MODEL_HIST]) {
		m->hepoch++;
		m->nsamp = 0;
	}
	m->sampled = m->nsamp == 0 ||
	    tick - m->stick[(m->nsamp - 1) % MODEL_HIST] >= MODEL_HIST_GAP;
	if (m->sampled)
		m->stick[m->nsamp++ % MODEL_HIST] = tick;
}

/*
 * A task's line came in a frame at tick (model_sample already called):
 * carry its %cpu history over from old (NULL: a new task) and record
 * its ran.  The samples old missed (frames that did not carry its line)
 * had old's ran: nothing changed.
 */
static void
model_history(struct model *m, struct mtask *t, const struct mtask *old,
    long tick)
{
	long	last, q;

	/* Samples before this frame's (if it took one). */
	last = m->nsamp - (m->sampled ? 1 : 0);
	if (old == NULL || old->ran > t->ran) {
		/* New (or its ran went back): born in this frame. */
		memset(t->hran, 0, sizeof t->hran);
		t->hepoch = m->hepoch;
		t->btick = tick;
		t->bran = t->ran;
		t->bseq = t->hseq = last;
	} else {
		memcpy(t->hran, old->hran, sizeof t->hran);
		t->hseq = old->hseq;
		t->bseq = old->bseq;
		t->btick = old->btick;
		t->bran = old->bran;
		t->hepoch = old->hepoch;
		if (t->hepoch != m->hepoch) {
			/* Time went back: its history starts at sample 0. */
			t->hepoch = m->hepoch;
			t->bseq = t->hseq = 0;
			t->btick = m->stick[0];
			t->bran = old->ran;
		}
		q = t->hseq;
		if (q < last - MODEL_HIST)
			q = last - MODEL_HIST;
		for (; q < last; q++)
			t->hran[q % MODEL_HIST] = old->ran;
	}
	if (m->sampled)
		t->hran[(m->nsamp - 1) % MODEL_HIST] = t->ran;
	t->hseq = m->nsamp;
}

/*
 * A task's %cpu: its ran over ticks since its oldest sample kept (the
 * last MODEL_HIST samples, or the frame that first showed it), so it
 * covers the last few seconds of engine time; -1 before two samples.
 * Computed when shown: a task not in a frame is not touched.
 */
int
model_pct(const struct model *m, const struct mtask *t)
{
	long	o, bseq = t->bseq, hseq = t->hseq, tick, ran, dt;
	int	pct;

	if (t->hepoch != m->hepoch)
		bseq = hseq = 0;	/* unchanged since time went back */
	o = m->nsamp - MODEL_HIST;
	if (o < bseq)
		o = bseq;
	if (o < m->nsamp) {
		tick = m->stick[o % MODEL_HIST];
		ran = o < hseq ? t->hran[o % MODEL_HIST] : t->ran;
	} else {
		tick = t->btick;
		ran = t->bran;
	}
	dt = m->tick - tick;
	if (dt <= 0)
		return (-1);
	pct = (int)(((t->ran - ran) * 100 + dt / 2) / dt);
	if (pct > 100)
		pct = 100;
	if (pct < 0)
		pct = 0;
	return (pct);
}

/* Order ints, for qsort. */
static int
model_cmp_int(const void *a, const void *b)
{
	int	x = *(const int *)a, y = *(const int *)b;

	return ((x > y) - (x < y));
}

/* Grow an array to hold at least n + 1 elements. */
static void *
model_grow(void *p, int n, int *alloc, size_t size)
{
	if (n < *alloc)
		return (p);
	*alloc = *alloc == 0 ? 16 : *alloc * 2;
	return (xreallocarray(p, *alloc, size));
}

/*
 * A delta frame ended: apply the staged tasks (sorted by id) and gone ids
 * to the tasks kept, with the %cpu history the same as a full frame's
 * would be.  Each changed task is found by its id and replaced in place
 * (the others are not touched: model_pct catches up when one is shown);
 * then the gone are squeezed out and the new merged in from the back
 * (at the end, the usual case, that moves nothing).  A delta frame of
 * k lines costs k log n, not a pass over the n tasks.
 */
static void
model_apply_delta(struct model *m)
{
	struct mtask	*st = m->task_stage, *t = m->tasks;
	int		 i, j, k, nnew = 0, ng = m->ngone_stage;

	/* Each changed task found by its id: no pass over the others. */
	for (i = 0; i < m->ntask_stage; i++) {
		if ((j = model_task_index(m, st[i].id)) == -1) {
			model_history(m, &st[i], NULL, m->stage_tick);
			st[nnew++] = st[i];		/* a new task */
			continue;
		}
		model_history(m, &st[i], &t[j], m->stage_tick);
		if ((st[i].state == MTASK_EXITED) !=
		    (t[j].state == MTASK_EXITED) ||
		    strcmp(st[i].name, t[j].name) != 0)
			m->names_dirty = 1;
		t[j] = st[i];
	}

	if (ng > 0 || nnew > 0)
		m->names_dirty = 1;	/* names moved, or new ones */
	if (ng > 0) {
		qsort(m->gone_stage, ng, sizeof *m->gone_stage, model_cmp_int);
		for (i = j = k = 0; j < m->ntasks; j++) {
			while (k < ng && m->gone_stage[k] < t[j].id)
				k++;
			if (k < ng && m->gone_stage[k] == t[j].id)
				continue;
			if (i != j)
				t[i] = t[j];
			i++;
		}
		m->ntasks = i;
	}

	if (nnew > 0) {
		if (m->ntasks + nnew > m->alloc_tasks) {
			m->alloc_tasks = m->alloc_tasks * 2 > m->ntasks + nnew ?
			    m->alloc_tasks * 2 : m->ntasks + nnew;
			m->tasks = t = xreallocarray(m->tasks, m->alloc_tasks,
			    sizeof *m->tasks);
		}
		/* Merge from the back: k is where the next one goes. */
		i = nnew - 1;
		j = m->ntasks - 1;
		for (k = m->ntasks + nnew - 1; i >= 0; k--) {
			if (j >= 0 && t[j].id > st[i].id)
				t[k] = t[j--];
			else
				t[k] = st[i--];
		}
		m->ntasks += nnew;
	}
	m->ntask_stage = 0;
	m->ngone_stage = 0;
	m->deltas++;
}

/* Order names, for qsort. */
static int
model_cmp_name(const void *a, const void *b)
{
	return (strcmp(*(const char *const *)a, *(const char *const *)b));
}

/*
 * Make the sorted names of the tasks not exited again (the panels look
 * a name's shortest unique prefix up in them).  Only after a frame that
 * changed that set: a new, gone, renamed, exited or revived task, or a
 * full frame.
 */
static void
model_names(struct model *m)
{
	int	i, n = 0;

	m->names = xreallocarray(m->names, m->ntasks + 1, sizeof *m->names);
	for (i = 0; i < m->ntasks; i++) {
		if (m->tasks[i].state != MTASK_EXITED)
			m->names[n++] = m->tasks[i].name;
	}
	qsort(m->names, n, sizeof *m->names, model_cmp_name);
	m->nnames = n;
	m->names_dirty = 0;
}

/* The staged frame's present tick (now=, else its tick). */
static long
model_stage_now(const struct model *m)
{
	return (m->stage_now >= 0 ? m->stage_now : m->stage_tick);
}

/*
 * Whether the frame being read starts a new session: another scenario,
 * or the present gone back (a load, a reset, a branch).
 */
static int
model_new_session(const struct model *m)
{
	return (m->frames > 0 && (model_stage_now(m) < m->now ||
	    strcmp(m->stage_scenario, m->scenario) != 0));
}

/*
 * A frame ended: take its session fields.  A new session was counted
 * when its frame started (model_frame_start: the old history went).
 */
static void
model_commit_session(struct model *m)
{
	long	now;

	now = model_stage_now(m);
	if (m->stage_session)
		m->sessions++;
	m->stage_session = 0;
	memcpy(m->scenario, m->stage_scenario, sizeof m->scenario);
	m->now = now;
	m->live = m->stage_live;
	m->alive = m->stage_alive;
}

/* A frame ended: the stage becomes the state. */
static void
model_commit(struct model *m)
{
	struct mtask	*tmp;
	struct mcpu	*ctmp;
	long		 sessions = m->sessions;
	int		 i, j, n;

	/* Daemons send them in order: sort only if they were not. */
	for (i = 1; i < m->ntask_stage; i++) {
		if (m->task_stage[i - 1].id > m->task_stage[i].id)
			break;
	}
	if (i < m->ntask_stage)
		qsort(m->task_stage, m->ntask_stage, sizeof *m->task_stage,
		    model_cmp_task);
	for (i = 1; i < m->nncpu_stage; i++) {
		if (m->ncpu_stage[i - 1].id > m->ncpu_stage[i].id)
			break;
	}
	if (i < m->nncpu_stage)
		qsort(m->ncpu_stage, m->nncpu_stage, sizeof *m->ncpu_stage,
		    model_cmp_cpu);
	model_sample(m, m->stage_tick);
	if (m->stage_delta) {
		/* The same id twice (a broken daemon): keep the last. */
		for (i = j = 0; i < m->ntask_stage; i++) {
			if (j > 0 && m->task_stage[j - 1].id ==
			    m->task_stage[i].id)
				j--;
			m->task_stage[j++] = m->task_stage[i];
		}
		m->ntask_stage = j;
		model_apply_delta(m);
		goto cpus;
	}
	/* Both sorted by id: walk them together to keep %cpu history. */
	for (i = j = 0; i < m->ntask_stage; i++) {
		while (j < m->ntasks && m->tasks[j].id < m->task_stage[i].id)
			j++;
		model_history(m, &m->task_stage[i], j < m->ntasks &&
		    m->tasks[j].id == m->task_stage[i].id ? &m->tasks[j] : NULL,
		    m->stage_tick);
	}

	tmp = m->tasks;
	m->tasks = m->task_stage;
	m->ntasks = m->ntask_stage;
	m->task_stage = tmp;
	m->ntask_stage = 0;
	n = m->alloc_tasks;
	m->alloc_tasks = m->alloc_task_stage;
	m->alloc_task_stage = n;
	m->ngone_stage = 0;
	m->names_dirty = 1;

cpus:
	if (m->names_dirty)
		model_names(m);
	ctmp = m->cpus;
	m->cpus = m->ncpu_stage;
	m->ncpus = m->nncpu_stage;
	m->ncpu_stage = ctmp;
	m->nncpu_stage = 0;
	n = m->alloc_cpus;
	m->alloc_cpus = m->alloc_cpu_stage;
	m->alloc_cpu_stage = n;

	model_commit_session(m);
	m->tick = m->stage_tick;
	m->paused = m->stage_paused;
	m->speed = m->stage_speed;
	m->rr = m->stage_rr;
	m->dropped = m->stage_dropped;
	memcpy(m->caption, m->stage_caption, sizeof m->caption);
	m->frames++;
	/* A delta on a model that missed something: ask for a full one. */
	m->desync = m->stage_delta && ((m->stage_ntasks >= 0 &&
	    m->ntasks != m->stage_ntasks) || m->sessions != sessions);
}

/*
 * A frame ended: its shadow's lines (a full set each frame) become the
 * shadow model, or the shadow goes when the frame had none.
 */
static void
model_commit_shadow(struct model *m)
{
	struct model	*sh = m->shadow;

	memcpy(m->policy, m->stage_policy, sizeof m->policy);
	memcpy(m->shadow_policy, m->stage_shadow, sizeof m->shadow_policy);
	if (m->stage_shadow[0] == '\0') {
		model_free(sh);
		m->shadow = NULL;
		return;
	}
	sh->stage_tick = m->tick;
	sh->stage_paused = m->paused;
	sh->stage_speed = m->speed;
	sh->stage_rr = m->rr;
	sh->stage_live = m->live;
	sh->stage_now = m->now;
	sh->stage_alive = -1;
	sh->stage_delta = 0;
	sh->stage_ntasks = -1;
	memcpy(sh->stage_scenario, m->scenario, sizeof sh->stage_scenario);
	memcpy(sh->stage_policy, m->stage_shadow, sizeof sh->stage_policy);
	sh->stage_shadow[0] = '\0';
	model_commit(sh);
	memcpy(sh->policy, sh->stage_policy, sizeof sh->policy);
}

/* Handle a line inside a frame. */
static enum model_got
model_frame_line(struct model *m, struct proto_fields *f, const char *line)
{
	struct mtask	 t;
	struct mcpu	 c;
	long		 tick;
	size_t		 len;
	int		 id, kernel;

	if (strcmp(f->word, "end") == 0) {
		m->in_frame = 0;
		model_commit(m);
		model_commit_shadow(m);
		return (MODEL_FRAME);
	}
	/* The shadow's lines (compare NAME): its own model's. */
	if (strcmp(f->word, "scpu") == 0 || strcmp(f->word, "stask") == 0) {
		if (m->shadow == NULL || m->stage_shadow[0] == '\0')
			return (MODEL_NOTHING);
		f->word++;
		if (model_frame_line(m->shadow, f, line) == MODEL_BAD) {
			m->nbad++;
			memcpy(m->bad, m->shadow->bad, sizeof m->bad);
			return (MODEL_BAD);
		}
		return (MODEL_NOTHING);
	}
	if (strcmp(f->word, wire_cpu.word) == 0) {
		if (model_parse_cpu(f, &c) != 0)
			return (model_bad(m, line, "bad cpu line"));
		m->ncpu_stage = model_grow(m->ncpu_stage, m->nncpu_stage,
		    &m->alloc_cpu_stage, sizeof c);
		m->ncpu_stage[m->nncpu_stage++] = c;
		return (MODEL_NOTHING);
	}
	if (strcmp(f->word, wire_task.word) == 0) {
		if (model_parse_task(f, &t) != 0)
			return (model_bad(m, line, "bad task line"));
		m->task_stage = model_grow(m->task_stage, m->ntask_stage,
		    &m->alloc_task_stage, sizeof t);
		m->task_stage[m->ntask_stage++] = t;
		return (MODEL_NOTHING);
	}
	if (strcmp(f->word, wire_gone.word) == 0) {
		if (model_int(f, KG(ID), &id, 1, 0) != 0 || id <= 0)
			return (model_bad(m, line, "bad gone line"));
		m->gone_stage = model_grow(m->gone_stage, m->ngone_stage,
		    &m->alloc_gone_stage, sizeof *m->gone_stage);
		m->gone_stage[m->ngone_stage++] = id;
		return (MODEL_NOTHING);
	}
	if (strcmp(f->word, wire_caption.word) == 0) {
		snprintf(m->stage_caption, sizeof m->stage_caption, "%s",
		    f->text != NULL ? f->text : "");
		return (MODEL_NOTHING);
	}
	if (strcmp(f->word, wire_event.word) == 0) {
		if (f->text == NULL || model_long(f, KX(TICK), &tick, 0) != 0)
			return (model_bad(m, line, "bad event line"));
		/* A caption's text is the caption line's, not an event's. */
		if (caption_event(f->text, NULL) == 0) {
			snprintf(m->events[m->nevents % MODEL_EVENTS],
			    sizeof m->events[0], "%s", f->text);
			m->nevents++;
		}
		history_event(m, tick, f->text);
		return (MODEL_NOTHING);
	}
	if (strcmp(f->word, wire_view.word) == 0) {
		if (model_long(f, KV(SEQ), &tick, 1) != 0 || tick <= 0)
			return (model_bad(m, line, "bad view line"));
		m->view_pairs[0] = '\0';
		for (id = 0, len = 0; id < f->n; id++) {
			if (f->f[id].value == NULL || strcmp(f->f[id].key, KV(SEQ)) == 0 ||
			    len >= sizeof m->view_pairs)
				continue;
			len += snprintf(m->view_pairs + len,
			    sizeof m->view_pairs - len, "%s=%s ", f->f[id].key,
			    f->f[id].value);
		}
		m->view_seq = tick;
		return (MODEL_NOTHING);
	}
	if (strcmp(f->word, wire_runs.word) == 0 ||
	    strcmp(f->word, wire_kruns.word) == 0) {
		kernel = strcmp(f->word, wire_kruns.word) == 0;
		if (f->n < 2 || f->n > 3 || f->f[0].value == NULL ||
		    f->f[1].value == NULL || strcmp(f->f[0].key, KU(CPU)) != 0 ||
		    strcmp(f->f[1].key, KU(FROM)) != 0 ||
		    (f->n == 3 && f->f[2].value != NULL) ||
		    history_runs_line(m, kernel, f->f[0].value, f->f[1].value,
		    f->n == 3 ? f->f[2].key : "", m->nncpu_stage) != MODEL_NOTHING)
			return (model_bad(m, line, kernel ? "bad kruns line" :
			    "bad runs line"));
		return (MODEL_NOTHING);
	}
	if (strcmp(f->word, wire_frame.word) == 0) {
		/* A frame without its end: drop it, start again. */
		m->in_frame = 0;
		model_bad(m, line, "frame without end");
		return (MODEL_BAD);
	}
	if (model_unknown(m, f))
		return (MODEL_NOTHING);
	return (model_bad(m, line, "unknown line in frame"));
}

/*
 * A frame's policy= and shadow= (a word each; absent: the staircase,
 * and no shadow); a shadow model is made ready for its lines.
 */
static void
model_frame_policies(struct model *m, struct proto_fields *f)
{
	const char	*s;

	s = protocol_get(f, "policy");
	snprintf(m->stage_policy, sizeof m->stage_policy, "%s",
	    s != NULL && *s != '\0' ? s : "staircase");
	s = protocol_get(f, "shadow");
	snprintf(m->stage_shadow, sizeof m->stage_shadow, "%s",
	    s != NULL ? s : "");
	if (m->stage_shadow[0] == '\0')
		return;
	if (m->shadow == NULL)
		m->shadow = model_create();
	m->shadow->greeted = 1;
	m->shadow->nncpu_stage = 0;
	m->shadow->ntask_stage = 0;
	m->shadow->ngone_stage = 0;
}

/* Start a frame block. */
static enum model_got
model_frame_start(struct model *m, struct proto_fields *f, const char *line)
{
	m->stage_paused = m->paused;
	m->stage_speed = m->speed;
	m->stage_rr = m->rr;
	m->stage_dropped = m->dropped;
	m->stage_delta = 0;
	m->stage_ntasks = -1;
	m->ngone_stage = 0;
	memcpy(m->stage_scenario, m->scenario, sizeof m->stage_scenario);
	if (model_session(f, &m->stage_live, &m->stage_now, &m->stage_alive,
	    m->stage_scenario, sizeof m->stage_scenario) != 0 ||
	    model_int(f, KH(DELTA), &m->stage_delta, 0, 0) != 0 ||
	    model_int(f, KH(TASKS), &m->stage_ntasks, 0, 0) != 0 ||
	    model_header(f, &m->stage_tick, &m->stage_paused, &m->stage_speed,
	    &m->stage_rr, &m->sleep_ms) != 0 ||
	    model_long(f, KH(DROPPED), &m->stage_dropped, 0) != 0) {
		/* Read the block anyway, so its lines are not misread. */
		m->stage_delta = 0;
		m->stage_ntasks = -1;
		m->stage_tick = m->tick;
		m->stage_live = m->live;
		m->stage_now = m->now;
		m->stage_alive = m->alive;
		memcpy(m->stage_scenario, m->scenario,
		    sizeof m->stage_scenario);
		m->stage_session = 0;
		m->in_frame = 1;
		m->nncpu_stage = m->ntask_stage = 0;
		m->stage_caption[0] = '\0';
		model_frame_policies(m, f);
		return (model_bad(m, line, "bad frame line"));
	}
	/*
	 * A new session: the old one's events, runs (timeline, rank line)
	 * go now, before this frame's lines come (a CPU the new session
	 * does not have would keep its old runs: its frame says nothing
	 * of it).
	 */
	m->stage_session = model_new_session(m);
	if (m->stage_session) {
		m->nevents = 0;
		m->nlog = 0;
		runs_free(m->runs);
		m->runs = NULL;
		runs_free(m->kruns);	/* its kern strips too */
		m->kruns = NULL;
	}
	m->in_frame = 1;
	m->nncpu_stage = 0;
	m->ntask_stage = 0;
	m->stage_caption[0] = '\0';
	model_frame_policies(m, f);
	return (MODEL_NOTHING);
}

/* Read a `table` header line into the table stage. */
static int
model_table_head(struct model *m, struct proto_fields *f)
{
	struct mtable	*t = &m->table_stage;
	const char	*s;

	model_table_clear(t);
	if (model_int(f, KT(TASK), &t->task, 1, 0) != 0 ||
	    model_int(f, KT(BASE), &t->base, 1, 0) != 0 ||
	    model_int(f, KT(STAIRS), &t->stairs, 1, 0) != 0 ||
	    model_int(f, KT(RR), &t->rr, 1, 0) != 0 ||
	    t->stairs < 1 || t->stairs > 40 || t->rr < 1) {
		model_table_clear(t);
		return (-1);
	}
	if (model_int(f, KT(DESCENT), &t->descent, 0, 0) != 0 ||
	    t->descent < 0) {
		model_table_clear(t);
		return (-1);
	}
	if ((s = protocol_get(f, KT(NAME))) != NULL)
		snprintf(t->name, sizeof t->name, "%s", s);
	t->valid = 1;
	return (0);
}

/* Read a `row` line into the table stage. */
static int
model_table_row(struct model *m, struct proto_fields *f)
{
	struct mtable	*t = &m->table_stage;
	const char	*s;
	char		*end;
	long		*row;
	int		 iter, i;

	if (!t->valid || model_int(f, KR(ITER), &iter, 1, 0) != 0 ||
	    (s = protocol_get(f, KR(TICKS))) == NULL)
		return (-1);
	t->iters = xreallocarray(t->iters, t->nrows + 1, sizeof *t->iters);
	t->ticks = xreallocarray(t->ticks, (size_t)(t->nrows + 1) * t->stairs,
	    sizeof *t->ticks);
	row = t->ticks + (size_t)t->nrows * t->stairs;
	for (i = 0; i < t->stairs; i++) {
		errno = 0;
		row[i] = strtol(s, &end, 10);
		if (end == s || errno != 0 || row[i] < 0)
			return (-1);
		s = end;
		if (i < t->stairs - 1) {
			if (*s != ',')
				return (-1);
			s++;
		}
	}
	if (*s != '\0')
		return (-1);
	t->iters[t->nrows++] = iter;
	return (0);
}

/*
 * Copy free text (a text= field) into dst: as it is, or unquoted when
 * the daemon quoted it ("...", with \" \\ and \xNN).  Control bytes
 * become spaces, so it draws on one line.
 */
static void
model_text(char *dst, size_t len, const char *s)
{
	size_t	n = strlen(s), i, o = 0;
	char	hex[3] = "";
	int	c;

	if (len == 0)
		return;
	if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
		s++;
		n -= 2;
	} else
		n = SIZE_MAX;	/* not quoted: no escapes */
	for (i = 0; s[i] != '\0' && i < n && o + 1 < len; i++) {
		c = (unsigned char)s[i];
		if (n != SIZE_MAX && c == '\\' && i + 1 < n) {
			c = (unsigned char)s[++i];
			if (c == 'x' && i + 2 < n && isxdigit((unsigned char)
			    s[i + 1]) && isxdigit((unsigned char)s[i + 2])) {
				hex[0] = s[i + 1];
				hex[1] = s[i + 2];
				c = (int)strtol(hex, NULL, 16);
				i += 2;
			}
		}
		dst[o++] = c < 0x20 || c == 0x7f ? ' ' : (char)c;
	}
	dst[o] = '\0';
}

/* Read a `scenario` line of the `scenarios` reply into the stage. */
static int
model_scenario_line(struct model *m, struct proto_fields *f)
{
	struct mscenario	*sc;
	const char		*s;

	m->scen_stage = model_grow(m->scen_stage, m->nscen_stage,
	    &m->alloc_scen_stage, sizeof *m->scen_stage);
	sc = &m->scen_stage[m->nscen_stage];
	memset(sc, 0, sizeof *sc);
	if ((s = protocol_get(f, KS(NAME))) == NULL || *s == '\0' ||
	    model_copy(sc->name, sizeof sc->name, s) != 0)
		return (-1);
	if ((s = protocol_get(f, KS(FILE))) != NULL)
		snprintf(sc->file, sizeof sc->file, "%s", s);
	if (model_int(f, KS(CPUS), &sc->cpus, 0, 0) != 0 ||
	    model_int(f, KS(TASKS), &sc->tasks, 0, 0) != 0 ||
	    model_int(f, KS(REAL), &sc->real, 0, 0) != 0 || sc->cpus < 0 ||
	    sc->tasks < 0)
		return (-1);
	if (f->text != NULL)
		model_text(sc->text, sizeof sc->text, f->text);
	m->nscen_stage++;
	return (0);
}

/* Read a `mark` line of the `marks` reply into the stage. */
static int
model_mark_line(struct model *m, struct proto_fields *f)
{
	struct mmark	*mk;

	m->mark_stage = model_grow(m->mark_stage, m->nmark_stage,
	    &m->alloc_mark_stage, sizeof *m->mark_stage);
	mk = &m->mark_stage[m->nmark_stage];
	memset(mk, 0, sizeof *mk);
	if (model_long(f, KX(TICK), &mk->tick, 1) != 0 || mk->tick < 0)
		return (-1);
	if (f->text != NULL)
		model_text(mk->text, sizeof mk->text, f->text);
	m->nmark_stage++;
	return (0);
}

/* Order marks by tick (stable for equal ticks: by text). */
static int
model_cmp_mark(const void *a, const void *b)
{
	const struct mmark	*ma = a, *mb = b;

	if (ma->tick != mb->tick)
		return ((ma->tick > mb->tick) - (ma->tick < mb->tick));
	return (strcmp(ma->text, mb->text));
}

/*
 * A final line: a `scenarios` or `marks` reply's lines become the list
 * if it was ok; any other reply drops lines staged for them.
 */
static void
model_final_lists(struct model *m, enum model_pend kind, int ok)
{
	void	*p;
	int	 n;

	if (kind == PEND_SCENARIOS && ok) {
		p = m->scenarios;
		m->scenarios = m->scen_stage;
		m->scen_stage = p;
		m->nscenarios = m->nscen_stage;
		n = m->alloc_scen_stage;
		m->alloc_scen_stage = m->alloc_scenarios;
		m->alloc_scenarios = n;
		m->scenarios_valid = 1;
	}
	if (kind == PEND_MARKS && ok) {
		if (m->nmark_stage > 1)
			qsort(m->mark_stage, m->nmark_stage,
			    sizeof *m->mark_stage, model_cmp_mark);
		p = m->marks;
		m->marks = m->mark_stage;
		m->mark_stage = p;
		m->nmarks = m->nmark_stage;
		n = m->alloc_mark_stage;
		m->alloc_mark_stage = m->alloc_marks;
		m->alloc_marks = n;
	}
	m->nscen_stage = 0;
	m->nmark_stage = 0;
}

/* Append to a string, truncating (glibc has no strlcat before 2.38). */
static void
model_cat(char *dst, const char *src, size_t len)
{
	size_t	n = strlen(dst);

	if (n + 1 < len)
		snprintf(dst + n, len - n, "%s", src);
}

/* Handle a final line: pop the command it answers. */
static enum model_got
model_final(struct model *m, struct proto_fields *f, int ok)
{
	enum model_pend	 kind = PEND_ACTION;
	int		 i;

	m->reply_ok = ok;
	m->reply_what[0] = '\0';
	if (m->npending > 0) {
		i = m->pending_head;
		kind = m->pending[i].kind;
		memcpy(m->reply_what, m->pending[i].what,
		    sizeof m->reply_what);
		m->pending_head = (i + 1) % MODEL_PENDING;
		m->npending--;
	}
	m->reply_kind = kind;
	m->reply_text[0] = '\0';
	/* The words after ok/err were split into keys: join them again. */
	for (i = 0; i < f->n; i++) {
		if (i > 0)
			model_cat(m->reply_text, " ", sizeof m->reply_text);
		model_cat(m->reply_text, f->f[i].key, sizeof m->reply_text);
		if (f->f[i].value != NULL) {
			model_cat(m->reply_text, "=", sizeof m->reply_text);
			model_cat(m->reply_text, f->f[i].value,
			    sizeof m->reply_text);
		}
	}
	if (f->text != NULL) {
		if (m->reply_text[0] != '\0')
			model_cat(m->reply_text, " ", sizeof m->reply_text);
		model_cat(m->reply_text, "text=", sizeof m->reply_text);
		model_cat(m->reply_text, f->text, sizeof m->reply_text);
	}
	model_final_lists(m, kind, ok);
	if (kind == PEND_TABLE) {
		if (ok && m->table_stage.valid) {
			model_table_clear(&m->table);
			m->table = m->table_stage;
			memset(&m->table_stage, 0, sizeof m->table_stage);
		} else
			model_table_clear(&m->table_stage);
	}
	return (MODEL_REPLY);
}

/* Feed one line (without its newline) to the model. */
enum model_got
model_feed(struct model *m, const char *line)
{
	struct proto_fields	 f;
	char		 buf[4200];
	size_t		 len;
	long		 v, now;

	len = strlen(line);
	if (len > 0 && line[len - 1] == '\r')
		len--;
	if (len >= sizeof buf)
		return (model_bad(m, line, "line too long"));
	memcpy(buf, line, len);
	buf[len] = '\0';
	protocol_line(buf, PROTO_TEXT, &f);

	if (m->in_frame)
		return (model_frame_line(m, &f, line));

	if (!m->greeted) {
		if (strcmp(f.word, "stairs") != 0 || f.n < 2 ||
		    model_num(f.f[0].key, &v, LONG_MIN) != 0)
			return (model_bad(m, line, "not a stairs daemon"));
		m->greeted = 1;
		m->proto = (int)v;
		snprintf(m->version, sizeof m->version, "%s", f.f[1].key);
		return (MODEL_GREETING);
	}
	if (strcmp(f.word, wire_frame.word) == 0)
		return (model_frame_start(m, &f, line));
	if (strcmp(f.word, "ok") == 0)
		return (model_final(m, &f, 1));
	if (strcmp(f.word, "err") == 0)
		return (model_final(m, &f, 0));
	if (strcmp(f.word, wire_status.word) == 0) {
		if (model_header(&f, &m->tick, &m->paused, &m->speed, &m->rr,
		    &m->sleep_ms) != 0 || model_session(&f, &m->live, &now,
		    &m->alive, m->scenario, sizeof m->scenario) != 0)
			return (model_bad(m, line, "bad status line"));
		m->now = now >= 0 ? now : m->tick;
		/* The scenario's description (a daemon before it: none). */
		m->description[0] = '\0';
		if (f.text != NULL)
			model_text(m->description, sizeof m->description,
			    f.text);
		memcpy(m->described, m->scenario, sizeof m->described);
		return (MODEL_NOTHING);
	}
	if (strcmp(f.word, wire_scenario.word) == 0) {
		if (model_scenario_line(m, &f) != 0)
			return (model_bad(m, line, "bad scenario line"));
		return (MODEL_NOTHING);
	}
	if (strcmp(f.word, wire_mark.word) == 0) {
		if (model_mark_line(m, &f) != 0)
			return (model_bad(m, line, "bad mark line"));
		return (MODEL_NOTHING);
	}
	if (strcmp(f.word, wire_table.word) == 0) {
		if (model_table_head(m, &f) != 0)
			return (model_bad(m, line, "bad table line"));
		return (MODEL_NOTHING);
	}
	if (strcmp(f.word, wire_row.word) == 0) {
		if (model_table_row(m, &f) != 0) {
			model_table_clear(&m->table_stage);
			return (model_bad(m, line, "bad row line"));
		}
		return (MODEL_NOTHING);
	}
	/* Data lines of replies the client does not read (help, tasks). */
	if (strcmp(f.word, "help") == 0 ||
	    strcmp(f.word, wire_task.word) == 0 ||
	    strcmp(f.word, wire_cpu.word) == 0)
		return (MODEL_NOTHING);
	if (model_unknown(m, &f))
		return (MODEL_NOTHING);
	return (model_bad(m, line, "unknown line"));
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
