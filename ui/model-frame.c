/*
 * model-frame.c -- a frame block, from its frame line to its end: each
 * line is read into the stage, and at `end` the stage becomes the state
 * (model_commit), so a screen never shows half a frame.  A delta frame
 * (delta=1) carries only the tasks that changed and `gone` lines,
 * applied in place to the tasks kept, each found by its id.  A new
 * session (another scenario, or the present gone back) drops the old
 * one's events and runs when its frame starts.  The shadow's lines
 * (scpu, stask: `compare NAME`) go to a model of their own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "caption.h"
#include "model-int.h"
#include "model.h"
#include "protocol.h"
#include "runs.h"
#include "fields.h"
#include "xmalloc.h"

/* The keys of the lines read here, from fields.c. */
#define KH(k)	wire_key(&wire_frame, WIRE_HEAD_##k)
#define KG(k)	wire_key(&wire_gone, WIRE_GONE_##k)
#define KX(k)	wire_key(&wire_mark, WIRE_TEXT_##k)
#define KU(k)	wire_key(&wire_runs, WIRE_RUNS_##k)
#define KV(k)	wire_key(&wire_view, WIRE_VIEW_##k)

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

/* Order ints, for qsort. */
static int
model_cmp_int(const void *a, const void *b)
{
	int	x = *(const int *)a, y = *(const int *)b;

	return ((x > y) - (x < y));
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
			model_pct_carry(m, &st[i], NULL, m->stage_tick);
			st[nnew++] = st[i];		/* a new task */
			continue;
		}
		model_pct_carry(m, &st[i], &t[j], m->stage_tick);
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
	model_pct_sample(m, m->stage_tick);
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
		model_pct_carry(m, &m->task_stage[i], j < m->ntasks &&
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
	m->ask = m->stage_ask;
	m->part = m->stage_part;
	m->parts = m->stage_parts;
	memcpy(m->votes, m->stage_votes, sizeof m->votes);
	/* Every frame carries the question's choices (none: none). */
	m->nchoices = m->stage_nchoices;
	memcpy(m->choices, m->stage_choices, sizeof m->choices);
	/* A question revealed: its tally (none without choices). */
	if (m->ask == MODEL_ASK_REVEALED) {
		m->rnchoices = m->nchoices;
		memcpy(m->rchoices, m->choices, sizeof m->rchoices);
		memcpy(m->rvotes, m->votes, sizeof m->rvotes);
	} else if (m->stage_session)
		m->rnchoices = 0;
	m->frames++;
	/* A delta on a model that missed something: ask for a full one. */
	m->desync = m->stage_delta && ((m->stage_ntasks >= 0 &&
	    m->ntasks != m->stage_ntasks) || m->sessions != sessions);
}

/* Whether any task or CPU line of the model carried quantities. */
static int
model_has_q(const struct model *m)
{
	int	i;

	for (i = 0; i < m->ncpus; i++) {
		if (m->cpus[i].qhas != 0 || m->cpus[i].norder >= 0)
			return (1);
	}
	for (i = 0; i < m->ntasks; i++) {
		if (m->tasks[i].qhas != 0)
			return (1);
	}
	return (0);
}

/*
 * A frame ended: each shadow's lines (a full set each frame) become its
 * model; the shadows the frame had not go.
 */
static void
model_commit_shadow(struct model *m)
{
	struct model	*sh;
	int		 i;

	memcpy(m->policy, m->stage_policy, sizeof m->policy);
	memcpy(m->picture, m->stage_picture, sizeof m->picture);
	memcpy(m->shadow_policy, m->stage_shadow, sizeof m->shadow_policy);
	for (i = m->nstage_shadows; i < MODEL_SHADOWS; i++) {
		model_free(m->shadows[i]);
		m->shadows[i] = NULL;
	}
	m->nshadows = m->nstage_shadows;
	m->shadow = m->shadows[0];
	for (i = 0; i < m->nshadows; i++) {
		sh = m->shadows[i];
		sh->stage_tick = m->tick;
		sh->stage_paused = m->paused;
		sh->stage_speed = m->speed;
		sh->stage_rr = m->rr;
		sh->stage_live = m->live;
		sh->stage_now = m->now;
		sh->stage_alive = -1;
		sh->stage_delta = 0;
		sh->stage_ntasks = -1;
		memcpy(sh->stage_scenario, m->scenario,
		    sizeof sh->stage_scenario);
		memcpy(sh->stage_policy, m->stage_shadows[i],
		    sizeof sh->stage_policy);
		sh->stage_shadow[0] = '\0';
		model_commit(sh);
		memcpy(sh->policy, sh->stage_policy, sizeof sh->policy);
		/* Its policy's, when its lines carry what that draws. */
		snprintf(sh->picture, sizeof sh->picture, "%s",
		    model_has_q(sh) ? model_picture_of(sh->policy) : "stairs");
	}
}

/* The model a tally, why or swhy line is of: 0 m, i + 1 shadow i. */
static struct model *
model_who(struct model *m, int who)
{
	if (who == 0)
		return (m);
	if (who - 1 < m->nshadows)
		return (m->shadows[who - 1]);
	return (NULL);
}

/*
 * A frame ended and the models with it: its tally lines go to their
 * tasks, its why lines to their CPUs (a why of the enforced engine that
 * is new goes to the event log too, "CPU0: ...").
 */
static void
model_commit_whys(struct model *m)
{
	struct mstage_tally	*st;
	struct mstage_why	*sw;
	struct model		*to;
	int			 i, j, n;

	for (i = 0; i < m->ntally_stage; i++) {
		st = &m->tally_stage[i];
		if ((to = model_who(m, st->who)) != NULL &&
		    (j = model_task_index(to, st->id)) != -1)
			to->tasks[j].tally = st->t;
	}
	m->ntally_stage = 0;
	for (i = 0; i < m->nwhy_stage; i++) {
		sw = &m->why_stage[i];
		if ((to = model_who(m, sw->who)) == NULL)
			continue;
		if (sw->cpu >= to->nwhy) {
			n = sw->cpu + 1 > to->ncpus ? sw->cpu + 1 : to->ncpus;
			to->why = xreallocarray(to->why, n, sizeof *to->why);
			for (j = to->nwhy; j < n; j++)
				to->why[j].tick = -1;
			to->nwhy = n;
		}
		/*
		 * Into the event log too in slow motion or stepping: at
		 * speed, hundreds a second would bury the lesson's events
		 * (the line under each CPU says the last one).
		 */
		if (sw->who == 0 && (m->stage_paused ||
		    m->stage_speed <= MODEL_WHY_LOG_SPEED) &&
		    (to->why[sw->cpu].tick != sw->w.tick ||
		    strcmp(to->why[sw->cpu].text, sw->w.text) != 0)) {
			char	buf[MODEL_TEXT_MAX + 16];

			snprintf(buf, sizeof buf, "CPU%d: %s", sw->cpu,
			    sw->w.text);
			model_history_event(m, sw->w.tick, buf);
		}
		to->why[sw->cpu] = sw->w;
	}
	m->nwhy_stage = 0;
}

/*
 * The index among the frame's policies (0 the enforced one's, i + 1
 * shadow i's) from cur on whose name is policy, or -1.
 */
static int
model_policy_from(const struct model *m, int cur, const char *policy)
{
	int	i;

	for (i = cur; i <= m->nstage_shadows; i++) {
		if (strcmp(i == 0 ? m->stage_policy :
		    m->stage_shadows[i - 1], policy) == 0)
			return (i);
	}
	return (-1);
}

/*
 * A tally line: what a task got under a policy.  The enforced
 * engine's come first, then each shadow's in turn, each in id order:
 * a line of another policy, or an id not after the last, is the next
 * policy's (the same policy may come twice).
 */
static int
model_frame_tally(struct model *m, struct proto_fields *f)
{
	struct mstage_tally	 st;
	const char		*s;
	char			*end;
	double			 d;
	int			 who;

	memset(&st, 0, sizeof st);
	st.t.valid = 1;
	if ((s = protocol_get(f, "policy")) == NULL ||
	    model_parse_int(f, "id", &st.id, 1, 0) != 0 ||
	    model_parse_long(f, "ticks", &st.t.ticks, 0) != 0 ||
	    model_parse_long(f, "ran", &st.t.ran, 0) != 0 ||
	    model_parse_long(f, "runs", &st.t.runs, 0) != 0 ||
	    model_parse_long(f, "lat_p50", &st.t.p50, 0) != 0 ||
	    model_parse_long(f, "lat_p95", &st.t.p95, 0) != 0 ||
	    model_parse_long(f, "lat_max", &st.t.max, 0) != 0)
		return (-1);
	if (protocol_get(f, "lat_p50") == NULL)
		st.t.p50 = st.t.p95 = st.t.max = -1;
	if (protocol_get(f, "share") != NULL) {
		d = strtod(protocol_get(f, "share"), &end);
		if (*end != '\0' || d < 0)
			return (-1);
		st.t.share10 = (int)(d * 10 + 0.5);
	}
	who = m->tally_who;
	if (model_policy_from(m, who, s) != who || st.id <= m->tally_last)
		who = model_policy_from(m, who + (model_policy_from(m, who,
		    s) == who), s);
	if (who < 0)
		return (0);		/* a policy not shown: ignored */
	m->tally_who = who;
	m->tally_last = st.id;
	st.who = who;
	m->tally_stage = model_append(m->tally_stage, &m->ntally_stage,
	    &m->alloc_tally_stage, &st, sizeof st);
	return (0);
}

/* A why line (shadow: swhy, its policy= says whose), staged. */
static int
model_frame_why_of(struct model *m, struct proto_fields *f, int shadow)
{
	struct mstage_why	 sw;
	const char		*s;
	int			 who;

	memset(&sw, 0, sizeof sw);
	if (model_parse_int(f, "cpu", &sw.cpu, 1, 0) != 0 || sw.cpu < 0 ||
	    sw.cpu > 65535 ||
	    model_parse_long(f, "tick", &sw.w.tick, 1) != 0 ||
	    model_parse_int(f, "task", &sw.w.task, 0, 0) != 0 ||
	    f->text == NULL)
		return (-1);
	model_parse_text(sw.w.text, sizeof sw.w.text, f->text);
	who = 0;
	if (shadow) {
		if ((s = protocol_get(f, "policy")) == NULL)
			return (-1);
		if ((who = model_policy_from(m, 1, s)) < 0)
			return (0);
	}
	sw.who = who;
	m->why_stage = model_append(m->why_stage, &m->nwhy_stage,
	    &m->alloc_why_stage, &sw, sizeof sw);
	return (0);
}

/* A why line. */
static int
model_frame_why(struct model *m, struct proto_fields *f)
{
	return (model_frame_why_of(m, f, 0));
}

/* A swhy line. */
static int
model_frame_swhy(struct model *m, struct proto_fields *f)
{
	return (model_frame_why_of(m, f, 1));
}

/* A frame's `task` line, staged. */
static int
model_frame_task(struct model *m, struct proto_fields *f)
{
	struct mtask	t;

	if (model_parse_task(f, &t) != 0)
		return (-1);
	m->task_stage = model_append(m->task_stage, &m->ntask_stage,
	    &m->alloc_task_stage, &t, sizeof t);
	return (0);
}

/* A frame's `cpu` line, staged. */
static int
model_frame_cpu(struct model *m, struct proto_fields *f)
{
	struct mcpu	c;

	if (model_parse_cpu(f, &c) != 0)
		return (-1);
	m->ncpu_stage = model_append(m->ncpu_stage, &m->nncpu_stage,
	    &m->alloc_cpu_stage, &c, sizeof c);
	return (0);
}

/* A delta frame's `gone` line: a task that is no more. */
static int
model_frame_gone(struct model *m, struct proto_fields *f)
{
	int	id;

	if (model_parse_int(f, KG(ID), &id, 1, 0) != 0 || id <= 0)
		return (-1);
	m->gone_stage = model_append(m->gone_stage, &m->ngone_stage,
	    &m->alloc_gone_stage, &id, sizeof id);
	return (0);
}

/* An open question's choice: choice n=N text=... */
static int
model_frame_choice(struct model *m, struct proto_fields *f)
{
	int	n;

	if (model_parse_int(f, wire_key(&wire_choice, WIRE_CHOICE_N), &n, 1,
	    0) != 0 || n < 1 || n > MODEL_CHOICES_MAX)
		return (-1);
	snprintf(m->stage_choices[n], sizeof m->stage_choices[n], "%s",
	    f->text != NULL ? f->text : "");
	if (n > m->stage_nchoices)
		m->stage_nchoices = n;
	return (0);
}

/*
 * The frame line's ask= and votes= ("0,2,1"), into the stage; 0, or
 * -1 if votes= is not a list of counts.
 */
static int
model_frame_ask(struct model *m, struct proto_fields *f)
{
	const char	*s;
	char		*end;
	long		 v;
	int		 n = 0;

	s = protocol_get(f, KH(ASK));
	m->stage_ask = s == NULL ? MODEL_ASK_NONE : strcmp(s, "open") == 0 ?
	    MODEL_ASK_OPEN : strcmp(s, "revealed") == 0 ? MODEL_ASK_REVEALED :
	    MODEL_ASK_NONE;
	memset(m->stage_votes, 0, sizeof m->stage_votes);
	m->stage_nchoices = 0;
	if ((s = protocol_get(f, KH(VOTES))) == NULL || strcmp(s, "-") == 0)
		return (0);
	while (*s != '\0' && n < MODEL_CHOICES_MAX) {
		v = strtol(s, &end, 10);
		if (end == s || v < 0 || (*end != ',' && *end != '\0'))
			return (-1);
		m->stage_votes[++n] = (int)v;
		s = *end == ',' ? end + 1 : end;
	}
	return (0);
}

/* The frame's caption (none: the line is empty). */
static int
model_frame_caption(struct model *m, struct proto_fields *f)
{
	snprintf(m->stage_caption, sizeof m->stage_caption, "%s",
	    f->text != NULL ? f->text : "");
	return (0);
}

/* An event: the newest few, and the log (model-history.c). */
static int
model_frame_event(struct model *m, struct proto_fields *f)
{
	long	tick;

	/* Without its tick= (not a daemon's): the frame's. */
	tick = m->stage_tick;
	if (f->text == NULL || model_parse_long(f, KX(TICK), &tick, 0) != 0)
		return (-1);
	/* A caption's text is the caption line's, not an event's. */
	if (caption_event(f->text, NULL) == 0) {
		snprintf(m->events[m->nevents % MODEL_EVENTS],
		    sizeof m->events[0], "%s", f->text);
		m->nevents++;
	}
	model_history_event(m, tick, f->text);
	return (0);
}

/* The presenter's view: its key=value pairs, kept as they came. */
static int
model_frame_view(struct model *m, struct proto_fields *f)
{
	long	seq;
	size_t	len;
	int	i;

	if (model_parse_long(f, KV(SEQ), &seq, 1) != 0 || seq <= 0)
		return (-1);
	m->view_pairs[0] = '\0';
	for (i = 0, len = 0; i < f->n; i++) {
		if (f->f[i].value == NULL ||
		    strcmp(f->f[i].key, KV(SEQ)) == 0 ||
		    len >= sizeof m->view_pairs)
			continue;
		len += snprintf(m->view_pairs + len, sizeof m->view_pairs - len,
		    "%s=%s ", f->f[i].key, f->f[i].value);
	}
	m->view_seq = seq;
	return (0);
}

/*
 * A runs line (what a CPU ran) or, kernel, a kruns line (what the
 * kernel ran there): "cpu=N from=N" and the runs, a bare word.
 */
static int
model_frame_runs_of(struct model *m, struct proto_fields *f, int kernel)
{
	struct proto_field	*fl = f->f;

	if (f->n < 2 || f->n > 3 || fl[0].value == NULL ||
	    fl[1].value == NULL || strcmp(fl[0].key, KU(CPU)) != 0 ||
	    strcmp(fl[1].key, KU(FROM)) != 0 ||
	    (f->n == 3 && fl[2].value != NULL))
		return (-1);
	if (model_history_runs(m, kernel, fl[0].value, fl[1].value,
	    f->n == 3 ? fl[2].key : "", m->nncpu_stage) != MODEL_NOTHING)
		return (-1);
	return (0);
}

/* A runs line. */
static int
model_frame_runs(struct model *m, struct proto_fields *f)
{
	return (model_frame_runs_of(m, f, 0));
}

/* A kruns line. */
static int
model_frame_kruns(struct model *m, struct proto_fields *f)
{
	return (model_frame_runs_of(m, f, 1));
}

/* Handle a line inside a frame. */
enum model_got
model_frame_line(struct model *m, struct proto_fields *f, const char *line)
{
	/* The data lines of a frame, the most common first. */
	static const struct model_kind	 kinds[] = {
		{ &wire_task, model_frame_task, "bad task line" },
		{ &wire_cpu, model_frame_cpu, "bad cpu line" },
		{ &wire_gone, model_frame_gone, "bad gone line" },
		{ &wire_caption, model_frame_caption, NULL },
		{ &wire_choice, model_frame_choice, "bad choice line" },
		{ &wire_event, model_frame_event, "bad event line" },
		{ &wire_view, model_frame_view, "bad view line" },
		{ &wire_runs, model_frame_runs, "bad runs line" },
		{ &wire_kruns, model_frame_kruns, "bad kruns line" },
		{ &wire_tally, model_frame_tally, "bad tally line" },
		{ &wire_why, model_frame_why, "bad why line" },
		{ &wire_swhy, model_frame_swhy, "bad swhy line" },
	};
	const char			*s;
	int				 k;
	int				 got;

	if (strcmp(f->word, "end") == 0) {
		m->in_frame = 0;
		model_commit(m);
		model_commit_shadow(m);
		model_commit_whys(m);
		return (MODEL_FRAME);
	}
	/*
	 * The shadows' lines (compare a,b,c): each shadow's scpu lines,
	 * then its stask lines, each shadow in turn; a scpu line after
	 * stask lines is the next shadow's (the next whose policy= it
	 * names: the same policy may come twice).
	 */
	if (strcmp(f->word, "scpu") == 0 || strcmp(f->word, "stask") == 0) {
		if (m->nstage_shadows == 0)
			return (MODEL_NOTHING);
		if (m->stage_sh < 0 ||
		    (f->word[1] == 'c' && m->stage_sh_task)) {
			k = m->stage_sh + 1;
			s = protocol_get(f, "policy");
			if (s != NULL && k < m->nstage_shadows &&
			    model_policy_from(m, k + 1, s) > 0)
				k = model_policy_from(m, k + 1, s) - 1;
			m->stage_sh = k;
			m->stage_sh_task = 0;
		}
		if (f->word[1] == 't')
			m->stage_sh_task = 1;
		if (m->stage_sh >= m->nstage_shadows)
			return (MODEL_NOTHING);
		f->word++;
		if (model_frame_line(m->shadows[m->stage_sh], f, line) ==
		    MODEL_BAD) {
			m->nbad++;
			memcpy(m->bad, m->shadows[m->stage_sh]->bad,
			    sizeof m->bad);
			return (MODEL_BAD);
		}
		return (MODEL_NOTHING);
	}
	if ((got = model_read(m, kinds, sizeof kinds / sizeof kinds[0], f,
	    line)) != -1)
		return ((enum model_got)got);
	if (strcmp(f->word, wire_frame.word) == 0) {
		/* A frame without its end: drop it, start again. */
		m->in_frame = 0;
		model_bad(m, line, "frame without end");
		return (MODEL_BAD);
	}
	if (model_parse_unknown(m, f))
		return (MODEL_NOTHING);
	return (model_bad(m, line, "unknown line in frame"));
}

/*
 * A frame's policy=, picture= and shadow= (absent: the staircase, its
 * stairs, and no shadow); a shadow model is made ready for its lines
 * for each policy shadow= lists (up to MODEL_SHADOWS).
 */
static void
model_frame_policies(struct model *m, struct proto_fields *f)
{
	struct model	*sh;
	const char	*s, *p;
	size_t		 len;
	int		 i;

	s = protocol_get(f, "policy");
	snprintf(m->stage_policy, sizeof m->stage_policy, "%s",
	    s != NULL && *s != '\0' ? s : "staircase");
	s = protocol_get(f, "picture");
	/* A daemon that names no picture sends no quantities: stairs. */
	snprintf(m->stage_picture, sizeof m->stage_picture, "%s",
	    s != NULL && *s != '\0' ? s : "stairs");
	s = protocol_get(f, "shadow");
	snprintf(m->stage_shadow, sizeof m->stage_shadow, "%s",
	    s != NULL ? s : "");
	m->nstage_shadows = 0;
	m->stage_sh = -1;
	m->stage_sh_task = 0;
	m->ntally_stage = m->nwhy_stage = 0;
	m->tally_who = 0;
	m->tally_last = 0;
	for (p = m->stage_shadow; *p != '\0' &&
	    m->nstage_shadows < MODEL_SHADOWS; p += len + (p[len] == ',')) {
		len = strcspn(p, ",");
		if (len == 0 || len >= MODEL_WORD_MAX)
			continue;
		memcpy(m->stage_shadows[m->nstage_shadows], p, len);
		m->stage_shadows[m->nstage_shadows++][len] = '\0';
	}
	for (i = 0; i < m->nstage_shadows; i++) {
		if (m->shadows[i] == NULL)
			m->shadows[i] = model_create();
		sh = m->shadows[i];
		sh->greeted = 1;
		sh->nncpu_stage = 0;
		sh->ntask_stage = 0;
		sh->ngone_stage = 0;
	}
}

/* Start a frame block. */
enum model_got
model_frame_start(struct model *m, struct proto_fields *f, const char *line)
{
	int	i;

	m->stage_paused = m->paused;
	m->stage_speed = m->speed;
	m->stage_rr = m->rr;
	m->stage_dropped = m->dropped;
	m->stage_delta = 0;
	m->stage_ntasks = -1;
	m->ngone_stage = 0;
	memcpy(m->stage_scenario, m->scenario, sizeof m->stage_scenario);
	if (model_parse_session(f, &m->stage_live, &m->stage_now,
	    &m->stage_alive,
	    m->stage_scenario, sizeof m->stage_scenario) != 0 ||
	    model_parse_int(f, KH(DELTA), &m->stage_delta, 0, 0) != 0 ||
	    model_parse_int(f, KH(TASKS), &m->stage_ntasks, 0, 0) != 0 ||
	    model_parse_header(f, &m->stage_tick, &m->stage_paused,
	    &m->stage_speed,
	    &m->stage_rr, &m->sleep_ms) != 0 ||
	    model_parse_long(f, KH(DROPPED), &m->stage_dropped, 0) != 0) {
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
		m->nwhy = 0;		/* the old session's reasons */
		for (i = 0; i < MODEL_SHADOWS; i++) {
			if (m->shadows[i] != NULL)
				m->shadows[i]->nwhy = 0;
		}
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
	if (model_frame_ask(m, f) != 0)
		return (model_bad(m, line, "bad votes"));
	m->stage_part = m->stage_parts = 0;
	if (model_parse_int(f, KH(PART), &m->stage_part, 0, 0) != 0 ||
	    model_parse_int(f, KH(PARTS), &m->stage_parts, 0, 0) != 0)
		return (model_bad(m, line, "bad part"));
	return (MODEL_NOTHING);
}
