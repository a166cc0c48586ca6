/*
 * session.c -- one run of one scenario: the only code that changes an
 * engine (see session.h).  A session is made from a scenario's text and
 * final engine params; it then runs tick by tick (session_tick), writing
 * the trace rows, counting the table, and narrating the scenario events
 * that fired and the tasks that ended; every change from outside the
 * scenario goes through session_change, which applies it at
 * engine_now() and keeps it in the journal (in memory, and appended to
 * the record file if one is set: docs/JOURNAL.md).
 *
 * A replay feeds the journal's changes back (session_feed): each is made
 * before the tick it was made at live, in the same order, so the engine,
 * and so the trace, comes out the same.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conffile.h"
#include "journal.h"
#include "ledger.h"
#include "lesson.h"
#include "log.h"
#include "runs.h"
#include "session.h"
#include "xmalloc.h"

/*
 * A keyframe every SESSION_KEY_TICKS ticks: a seek clones the nearest
 * one at or before its tick and runs at most this many ticks from it.
 * Measured (2 000 tasks on 8 CPUs, half hogs, half sleepers): a tick
 * costs about 2 us and a keyframe about 1.2 MB and 2 ms to clone, so a
 * seek is under 30 ms and 10 minutes of history at speed 1 hold 60
 * keyframes, about 75 MB (docs/DAEMON.md, tests/bench_seek.c).
 */
#define SESSION_KEY_TICKS	10000
/*
 * The keyframes' memory is bounded too: past this the oldest go, and the
 * history reaches less far back (100 000 tasks: a keyframe is ~33 MB).
 */
#define SESSION_KEY_BYTES	(512UL << 20)

/* What the session remembers about each task to describe changes. */
struct session_seen {
	int		nice;
	int		exited;
	struct cpumask	affinity;
	int		ran;		/* 1: it ran, last on cpu */
	int		cpu;
};

/* A copy of the engine at a tick (before that tick's changes). */
struct session_key {
	uint64_t		 tick;
	struct engine		*e;
	size_t			 njournal;	/* changes made before it */
	size_t			 bytes;		/* engine_memory */
};

struct session {
	struct engine		*e;
	uint64_t		 epochs;	/* its engines' change logs */
	char			*label;
	char			*name;
	char			*description;	/* the scenario's, or "" */
	char			*text;
	struct engine_params	 params;
	int			 ntasks0;	/* the scenario's tasks */
	double			 speed;		/* the scenario's; 0: none */
	/* The policy at tick 0. */
	const struct engine_policy *policy0;
	struct ledger		*ledger;
	struct runs		*runs;		/* what each CPU ran */
	int			 ledger_rows;
	/* The table counts of the past shown (view), counted again. */
	struct ledger		*view_ledger;
	uint64_t		 view_ledger_tick;

	/* The caller's narration and exit reasons (session_setup). */
	void		(*note)(void *, uint64_t, const char *);
	int		(*exit_reason)(void *, int, char *, size_t);
	void		*arg;
	struct session_seen	*seen;		/* seen[id - 1] */
	int			 nseen;

	/* The lesson, and its events fired in the last tick. */
	struct lesson		*lesson;
	const struct lesson_event *fired;
	size_t			 nfired;

	/* The trace writer (the caller's file). */
	FILE			*trace;
	const char		**names;	/* by id; [0] unused */
	int			 nnames;
	/* The idle row, made for this policy's columns. */
	const struct engine_policy *idle_policy;
	char			 idle[2 * ENGINE_MAX_COLS + 8];
	size_t			 idle_len;

	/* The journal: every change made, and the record file. */
	struct change		*journal;
	size_t			 njournal, sizejournal;
	FILE			*record;

	/* History: keyframes, oldest first, and the past being viewed. */
	uint64_t		 history;	/* ticks kept; 0: none */
	struct session_key	*keys;
	size_t			 nkeys, sizekeys;
	size_t			 keybytes;	/* their engines' */
	struct engine		*view;		/* NULL: the present */
	size_t			 view_j;	/* next journal change for it */
	int			 ever_real;	/* a real task: no branch */

	/* A replay's changes to make. */
	const struct change	*feed;
	size_t			 nfeed, nextfeed;
	size_t			 feed_branch;	/* last branch + 1; 0: none */
	int			 keep_policy;

	/*
	 * Live side by side (SPEC.md section 6): a shadow engine under
	 * another policy, given the same changes and ticks; NULL: none.
	 */
	struct engine			*shadow;
	const struct engine_policy	*shadow_policy;
};

static struct ledger *session_recount(struct session *, uint64_t);

/* A real task of a replayed scenario: no process, the journal moves it. */
static int
session_no_spawn(void *arg, struct engine *e, int id,
    const struct scenario_task *t, char **cause)
{
	return (0);
}

/* Say something about tick, if anybody listens. */
static void __attribute__((format(printf, 3, 4)))
session_note(struct session *s, uint64_t tick, const char *fmt, ...)
{
	va_list	 ap;
	char	*text;

	if (s->note == NULL)
		return;
	va_start(ap, fmt);
	text = xvasprintf(fmt, ap);
	va_end(ap);
	s->note(s->arg, tick, text);
	free(text);
}

/* Remember a task's nice, affinity and whether it exited. */
static void
session_seen_update(struct session *s, int id)
{
	struct engine_task_info	ti;
	int			n;

	if (id < 1)
		return;
	if (id > s->nseen) {
		n = id > s->nseen * 2 ? id : s->nseen * 2;
		s->seen = xreallocarray(s->seen, n, sizeof *s->seen);
		memset(s->seen + s->nseen, 0, (n - s->nseen) *
		    sizeof *s->seen);
		s->nseen = n;
	}
	if (engine_task_info(s->e, id, &ti) == 0) {
		s->seen[id - 1].nice = ti.nice;
		s->seen[id - 1].affinity = ti.affinity;
		s->seen[id - 1].exited = ti.state == ENGINE_EXITED;
	}
}

/*
 * A keyframe of the present at its tick (between ticks, before any
 * change at that tick), and the keyframes older than the history
 * dropped: the oldest kept is the newest at or before now - history.
 */
static void
session_key_add(struct session *s)
{
	struct session_key	*k;
	uint64_t		 now = engine_now(s->e), lo;
	size_t			 drop;

	if (s->nkeys == s->sizekeys) {
		s->sizekeys = s->sizekeys ? s->sizekeys * 2 : 16;
		s->keys = xreallocarray(s->keys, s->sizekeys, sizeof *s->keys);
	}
	k = &s->keys[s->nkeys++];
	k->tick = now;
	k->e = engine_clone(s->e);
	k->njournal = s->njournal;
	k->bytes = engine_memory(k->e);
	s->keybytes += k->bytes;
	lo = now > s->history ? now - s->history : 0;
	for (drop = 0; drop + 1 < s->nkeys && (s->keys[drop + 1].tick <= lo ||
	    s->keybytes > SESSION_KEY_BYTES); drop++) {
		s->keybytes -= s->keys[drop].bytes;
		engine_free(s->keys[drop].e);
	}
	if (drop > 0) {
		memmove(s->keys, s->keys + drop, (s->nkeys - drop) *
		    sizeof *s->keys);
		s->nkeys -= drop;
	}
}

/* Start a session of sc as setup says. */
struct session *
session_create(const struct session_setup *set, const struct scenario *sc,
    char **cause)
{
	struct session		*s;
	scenario_spawn_cb	 spawn = set->spawn;
	int			 id;

	if (spawn == NULL && set->real_ok)
		spawn = session_no_spawn;
	s = xcalloc(1, sizeof *s);
	s->label = xstrdup(set->label);
	s->name = xstrdup(sc->name != NULL ? sc->name : "-");
	s->description = xstrdup(sc->description != NULL ? sc->description :
	    "");
	s->text = xstrdup(set->text);
	s->params = set->params;
	s->note = set->note;
	s->exit_reason = set->exit_reason;
	s->arg = set->arg;
	s->e = engine_create(&set->params, set->policy);
	engine_narrate(s->e, s->note != NULL);
	engine_track_changes(s->e, set->track_changes ? &s->epochs : NULL);
	if (scenario_apply(sc, s->e, spawn, set->spawn_arg, cause) != 0) {
		session_free(s);
		return (NULL);
	}
	if (set->max_tasks > 0 && engine_ntasks(s->e) > set->max_tasks) {
		*cause = xasprintf("%s: %d tasks, more than max_tasks (%d)",
		    s->label, engine_ntasks(s->e), set->max_tasks);
		session_free(s);
		return (NULL);
	}
	s->ntasks0 = engine_ntasks(s->e);
	s->speed = sc->has_speed ? sc->speed : 0;
	s->policy0 = engine_get_policy(s->e);
	if (set->ledger_rows > 0)
		s->ledger = ledger_create(set->ledger_rows);
	s->ledger_rows = set->ledger_rows;
	s->ever_real = scenario_ncommands(sc) > 0;
	s->runs = runs_create(set->params.cpus, RUNS_KEEP_CAP,
	    RUNS_KEEP_TICKS);
	s->lesson = lesson_create(sc);
	s->history = set->history;
	if (s->history > 0)
		session_key_add(s);
	for (id = 1; id <= engine_ntasks(s->e); id++)
		session_seen_update(s, id);
	return (s);
}

/* Free a session (the trace and record files stay the caller's). */
void
session_free(struct session *s)
{
	size_t	i;
	int	id;

	if (s == NULL)
		return;
	for (i = 0; i < s->njournal; i++) {
		free((char *)s->journal[i].name);
		free((uint32_t *)s->journal[i].pattern);
	}
	free(s->journal);
	for (i = 0; i < s->nkeys; i++)
		engine_free(s->keys[i].e);
	free(s->keys);
	engine_free(s->view);
	engine_free(s->shadow);
	lesson_free(s->lesson);
	for (id = 1; id <= s->nnames; id++)
		free((char *)s->names[id]);
	free(s->names);
	free(s->seen);
	ledger_free(s->ledger);
	runs_free(s->runs);
	ledger_free(s->view_ledger);
	engine_free(s->e);
	free(s->label);
	free(s->name);
	free(s->description);
	free(s->text);
	free(s);
}

/* The engine shown, to read: the past being viewed, else the present. */
const struct engine *
session_engine(const struct session *s)
{
	return (s->view != NULL ? s->view : s->e);
}

/* The present engine, to read (whatever is viewed). */
const struct engine *
session_live_engine(const struct session *s)
{
	return (s->e);
}

/* The present tick. */
uint64_t
session_now(const struct session *s)
{
	return (engine_now(s->e));
}

/* Is the past being viewed? */
int
session_viewing(const struct session *s)
{
	return (s->view != NULL);
}

/* Did the session ever have a real task (a seek is then view-only)? */
int
session_has_real(const struct session *s)
{
	return (s->ever_real);
}

/* The scenario's marks, in time order. */
const struct lesson_mark *
session_marks(const struct session *s, size_t *n)
{
	return (lesson_marks(s->lesson, n));
}

/* The scenario's name. */
const char *
session_name(const struct session *s)
{
	return (s->name);
}

/* The scenario's file, or built-in name. */
const char *
session_label(const struct session *s)
{
	return (s->label);
}

/* The scenario's description ("" if it has none). */
const char *
session_description(const struct session *s)
{
	return (s->description);
}

/* The scenario's text. */
const char *
session_text(const struct session *s)
{
	return (s->text);
}

/*
 * The table counts of the state shown, NULL if not kept: the present's,
 * or while the past is shown its own, counted again once per tick shown.
 */
struct ledger *
session_ledger(struct session *s)
{
	if (s->view == NULL || s->ledger == NULL)
		return (s->ledger);
	if (s->view_ledger == NULL ||
	    s->view_ledger_tick != engine_now(s->view)) {
		ledger_free(s->view_ledger);
		s->view_ledger = session_recount(s, engine_now(s->view));
		s->view_ledger_tick = engine_now(s->view);
	}
	return (s->view_ledger);
}

/* What each CPU of the present ran, over the last few seconds. */
const struct runs *
session_runs(const struct session *s)
{
	return (s->runs);
}

/* A task's id by name or decimal id; 0 if there is none. */
int
session_task_find(struct session *s, const char *name)
{
	return (engine_task_find(s->e, name));
}

/* The scenario's own speed (ticks per ms), 0 if it has none. */
double
session_speed(const struct session *s)
{
	return (s->speed);
}

/*
 * The speed the lesson had at tick (lesson_speed_at): its last speed
 * event's, the scenario's, 0 for the configured one, or -1 for none.
 */
double
session_speed_at(const struct session *s, uint64_t tick)
{
	return (lesson_speed_at(s->lesson, tick));
}

/*
 * After a scenario's ask, the answer becomes the caption (the live
 * daemon's resume); returns it, or NULL when none waits.
 */
const char *
session_answer(struct session *s)
{
	uint64_t	now = engine_now(s->e);

	return (lesson_answer(s->lesson, now > 0 ? now - 1 : 0));
}

/* The caption shown, and the tick it fired at. */
const char *
session_caption(const struct session *s, uint64_t *tick)
{
	uint64_t	t;

	/* The past's own caption; when it fired is not kept there. */
	if (s->view != NULL) {
		t = engine_now(s->view);
		if (tick != NULL)
			*tick = t;
		return (t > 0 ? lesson_caption_at(s->lesson, t - 1) : NULL);
	}
	return (lesson_caption(s->lesson, tick));
}

/* The lesson's events fired in the last tick, in order. */
const struct lesson_event *
session_lessons(const struct session *s, size_t *n)
{
	*n = s->nfired;
	return (s->fired);
}

/*
 * Ticks from now that surely run what the last one did, with no lesson
 * event among them (a pause or a speed must come on time): at most most.
 */
uint64_t
session_quiet(const struct session *s, uint64_t most)
{
	uint64_t	q = engine_quiet(s->e, most);

	return (lesson_quiet(s->lesson, engine_now(s->e), q));
}

/* Refresh the id -> name cache (tasks are only ever added). */
static void
session_names(struct session *s)
{
	struct engine_task_info	 ti;
	int			 n = engine_ntasks(s->e), id;

	if (n <= s->nnames)
		return;
	s->names = xreallocarray(s->names, n + 1, sizeof *s->names);
	for (id = s->nnames + 1; id <= n; id++) {
		if (engine_task_info(s->e, id, &ti) == 0)
			s->names[id] = xstrdup(ti.name);
		else
			s->names[id] = xstrdup("?");
	}
	s->nnames = n;
}

/* An idle CPU's row after tick,cpu for the policy: a dash per column. */
static void
session_idle_row(struct session *s, const struct engine_policy *pol)
{
	char	*p = s->idle;
	int	 i;

	memcpy(p, "-,-", 3);
	p += 3;
	for (i = 0; i < pol->ncols; i++) {
		memcpy(p, ",-", 2);
		p += 2;
	}
	*p++ = '\n';
	s->idle_len = p - s->idle;
	s->idle_policy = pol;
}

/* Write the trace to f from now on (its header first). */
void
session_trace(struct session *s, FILE *f)
{
	s->trace = f;
	if (f == NULL)
		return;
	fprintf(f, "tick,cpu,task,rank,%s\n",
	    engine_get_policy(s->e)->columns);
}

/* Write the trace rows of tick, just run. */
static void
session_trace_rows(struct session *s, uint64_t tick)
{
	const struct engine_policy	*pol = engine_get_policy(s->e);
	struct engine_cpu_info		 ci;
	char				 line[128], *p;
	const char			*name;
	size_t				 len;
	int				 c;

	if (pol != s->idle_policy)
		session_idle_row(s, pol);
	for (c = 0; c < s->params.cpus; c++) {
		engine_cpu_info(s->e, c, &ci);
		p = engine_utoa(line, tick);
		*p++ = ',';
		p = engine_utoa(p, (uint64_t)c);
		*p++ = ',';
		if (ci.task == 0) {
			memcpy(p, s->idle, s->idle_len);
			p += s->idle_len;
		} else {
			if (ci.task > s->nnames)
				session_names(s);
			name = s->names[ci.task];
			len = strlen(name);
			memcpy(p, name, len);
			p += len;
			*p++ = ',';
			p = engine_utoa(p, (uint64_t)ci.rank);
			*p++ = ',';
			p = pol->format(&ci, p);
			*p++ = '\n';
		}
		fwrite(line, 1, p - line, s->trace);
	}
}

/*
 * Count the tick each CPU's task of e ran into the table counts l: its
 * rank's stair below its static one, in its descent (a policy without
 * descents has one).
 */
static void
session_count(struct ledger *l, struct engine *e, int cpus)
{
	struct engine_cpu_info	 ci;
	struct engine_task_info	 ti;
	int			 c, d;

	d = engine_policy_field(engine_get_policy(e), "descent");
	for (c = 0; c < cpus; c++) {
		engine_cpu_info(e, c, &ci);
		if (ci.task == 0 || engine_task_info(e, ci.task, &ti) != 0)
			continue;
		/* A nice change fired this tick applied before it ran. */
		ledger_add(l, ci.task, d >= 0 ? (uint32_t)ci.field[d] : 1,
		    ci.rank - ti.prio);
	}
}

/*
 * Keep what each CPU ran in the tick just run, and narrate its moments:
 * a task that ran on another CPU than last time (a migration), and what
 * the policy told of its tasks (engine_notes: the staircase's fall-offs
 * and climbs).
 */
static void
session_runs_tick(struct session *s, uint64_t tick)
{
	const struct engine_note	*note;
	struct engine_cpu_info		 ci;
	struct engine_task_info		 ti;
	struct session_seen		*seen;
	size_t				 i, n;
	int				 c;

	for (c = 0; c < s->params.cpus; c++) {
		engine_cpu_info(s->e, c, &ci);
		runs_put(s->runs, c, tick, ci.task, ci.rank, 1);
		if (s->note == NULL || ci.task == 0 || ci.task > s->nseen)
			continue;
		seen = &s->seen[ci.task - 1];
		if (seen->ran && seen->cpu != c &&
		    engine_task_info(s->e, ci.task, &ti) == 0)
			session_note(s, tick, "%s moved from cpu %d to cpu %d",
			    ti.name, seen->cpu, c);
		seen->ran = 1;
		seen->cpu = c;
	}
	note = engine_notes(s->e, &n);
	for (i = 0; i < n; i++) {
		if (engine_task_info(s->e, note[i].task, &ti) == 0)
			session_note(s, tick, "%s %s", ti.name, note[i].text);
	}
}

/* Describe the scenario events that fired in the tick just run. */
static void
session_fired(struct session *s, uint64_t tick)
{
	const struct engine_event	*ev;
	struct engine_task_info		 ti;
	struct session_seen		*seen;
	char				 a[160], b[160];
	size_t				 i, n;

	ev = engine_fired(s->e, &n);
	for (i = 0; i < n; i++, ev++) {
		if (engine_task_info(s->e, ev->task, &ti) != 0)
			continue;
		seen = ev->task <= s->nseen ? &s->seen[ev->task - 1] : NULL;
		switch (ev->action) {
		case ENGINE_ACT_SLEEP:
			session_note(s, tick, "%s sleeps %ld ms", ti.name,
			    ev->value);
			break;
		case ENGINE_ACT_NICE:
			session_note(s, tick, "%s nice %d -> %ld", ti.name,
			    seen != NULL ? seen->nice : 0, ev->value);
			if (seen != NULL)
				seen->nice = (int)ev->value;
			break;
		case ENGINE_ACT_AFFINITY:
			session_note(s, tick, "%s cpus %s -> %s", ti.name,
			    seen != NULL ? cpumask_format(&seen->affinity, a,
			    sizeof a) : "?", cpumask_format(&ev->cpus, b,
			    sizeof b));
			if (seen != NULL)
				seen->affinity = ev->cpus;
			break;
		case ENGINE_ACT_KILL:
			session_note(s, tick, "%s killed", ti.name);
			if (seen != NULL)
				seen->exited = 1;
			break;
		default:
			break;
		}
	}
}

/* Note the tasks that ended since the last look (the tick, a change). */
static void
session_exits(struct session *s, uint64_t tick)
{
	struct engine_task_info	ti;
	char			why[320];
	int			id;

	for (id = 1; id <= s->nseen && id <= engine_ntasks(s->e); id++) {
		if (s->seen[id - 1].exited ||
		    engine_task_info(s->e, id, &ti) != 0 ||
		    ti.state != ENGINE_EXITED)
			continue;
		s->seen[id - 1].exited = 1;
		if (ti.kind == ENGINE_REAL && s->exit_reason != NULL &&
		    s->exit_reason(s->arg, id, why, sizeof why) == 0)
			session_note(s, tick, "%s exited, %s", ti.name, why);
		else if (ti.exit == ENGINE_EXIT_RUNTIME)
			session_note(s, tick, "%s finished its runtime",
			    ti.name);
		else if (ti.exit == ENGINE_EXIT_KILLED)
			session_note(s, tick, "%s killed", ti.name);
		else if (ti.exit == ENGINE_EXIT_DONE)
			session_note(s, tick, "%s: its recorded life ends",
			    ti.name);
	}
}

/* Make the fed changes due at this tick. */
static void
session_feed_due(struct session *s)
{
	const struct change	*ch;
	uint64_t		 now = engine_now(s->e);
	char			*cause;

	while (s->nextfeed < s->nfeed && s->feed[s->nextfeed].at <= now) {
		ch = &s->feed[s->nextfeed++];
		if (ch->kind == CHANGE_POLICY && s->keep_policy)
			continue;
		cause = NULL;
		if (ch->kind == CHANGE_BRANCH) {
			/* Back to its tick, as the live session went. */
			if (session_seek(s, (uint64_t)ch->value, &cause) == 0 &&
			    session_branch(s, &cause) == 0)
				now = engine_now(s->e);
			else {
				fprintf(stderr, "stairsd: replay: tick %llu: "
				    "%s\n", (unsigned long long)now, cause);
				free(cause);
			}
			continue;
		}
		if (session_change(s, ch, &cause) < 0) {
			/* Made live, so it is made again; say if not. */
			fprintf(stderr, "stairsd: replay: tick %llu: %s\n",
			    (unsigned long long)now, cause);
			free(cause);
		}
	}
}

/*
 * The shadow runs the same tick.  A scenario's policy event switches the
 * enforced engine only: the shadow, switched by it too, goes back to its
 * own policy after that tick (its tasks start their state afresh).
 */
static void
session_shadow_tick(struct session *s)
{
	engine_tick(s->shadow);
	if (engine_get_policy(s->shadow) != s->shadow_policy)
		engine_set_policy(s->shadow, s->shadow_policy);
}

/* Run one tick and what follows from it. */
void
session_tick(struct session *s)
{
	uint64_t	tick;
	int		nlive;

	if (s->feed != NULL)
		session_feed_due(s);
	tick = engine_now(s->e);
	nlive = engine_nlive(s->e);
	s->fired = lesson_fire(s->lesson, tick, &s->nfired);
	engine_tick(s->e);
	session_runs_tick(s, tick);
	if (s->shadow != NULL)
		session_shadow_tick(s);
	if (s->trace != NULL)
		session_trace_rows(s, tick);
	if (s->ledger != NULL)
		session_count(s->ledger, s->e, s->params.cpus);
	if (s->note != NULL) {
		session_fired(s, tick);
		if (engine_nlive(s->e) < nlive)
			session_exits(s, tick);
	}
	if (s->history > 0 && engine_now(s->e) % SESSION_KEY_TICKS == 0)
		session_key_add(s);
}

/* Make the changes fed from a journal as their ticks come. */
void
session_feed(struct session *s, const struct change *ch, size_t n,
    int keep_policy)
{
	size_t	i;

	s->feed = ch;
	s->nfeed = n;
	s->nextfeed = 0;
	s->feed_branch = 0;
	for (i = 0; i < n; i++) {
		if (ch[i].kind == CHANGE_BRANCH)
			s->feed_branch = i + 1;
	}
	s->keep_policy = keep_policy;
}

/* Is a branch still ahead in the fed changes? */
int
session_feed_branch_ahead(const struct session *s)
{
	return (s->nextfeed < s->feed_branch);
}

/* Apply a change to engine e; 0 (ADD: the id) or -1 with *cause. */
static int
session_apply(struct session *s, struct engine *e, const struct change *ch,
    char **cause)
{
	struct engine_task_spec		 spec;
	const struct engine_policy	*pol;

	switch (ch->kind) {
	case CHANGE_SLEEP:
		return (engine_task_sleep(e, ch->task, (uint64_t)ch->value,
		    cause));
	case CHANGE_NICE:
		return (engine_task_nice(e, ch->task, (int)ch->value,
		    cause));
	case CHANGE_AFFINITY:
		return (engine_task_affinity(e, ch->task, &ch->cpus,
		    cause));
	case CHANGE_KILL:
	case CHANGE_EXIT:
		return (engine_task_kill(e, ch->task, cause));
	case CHANGE_BLOCK:
		return (engine_task_block(e, ch->task, cause));
	case CHANGE_WAKE:
		return (engine_task_wake(e, ch->task, cause));
	case CHANGE_ADD:
		memset(&spec, 0, sizeof spec);
		spec.name = ch->name;
		spec.kind = ch->real ? ENGINE_REAL : ENGINE_SIM;
		spec.nice = ch->nice;
		spec.start = engine_now(e);
		if (!ch->real) {
			spec.pattern = ch->pattern;
			spec.npattern = ch->npattern;
			spec.runtime = ch->runtime;
		}
		spec.cpus = ch->has_cpus ? &ch->cpus : NULL;
		spec.group = -1;
		return (engine_task_add(e, &spec, cause));
	case CHANGE_POLICY:
		if (ch->name == NULL ||
		    (pol = engine_policy_find(ch->name)) == NULL) {
			*cause = xasprintf("unknown policy \"%s\"",
			    ch->name != NULL ? ch->name : "");
			return (-1);
		}
		engine_set_policy(e, pol);
		return (0);
	case CHANGE_BRANCH:
		*cause = xstrdup("branch: not supported yet");
		return (-1);
	}
	*cause = xstrdup("unknown change");
	return (-1);
}

/* Keep a copy of ch (what it points to too) in the journal. */
static void
session_journal_add(struct session *s, const struct change *ch)
{
	struct change	*j;
	uint32_t	*pat;

	if (s->njournal == s->sizejournal) {
		s->sizejournal = s->sizejournal ? s->sizejournal * 2 : 64;
		s->journal = xreallocarray(s->journal, s->sizejournal,
		    sizeof *s->journal);
	}
	j = &s->journal[s->njournal++];
	*j = *ch;
	j->name = ch->name != NULL ? xstrdup(ch->name) : NULL;
	j->pattern = NULL;
	if (ch->pattern != NULL && ch->npattern > 0) {
		pat = xreallocarray(NULL, ch->npattern, sizeof *pat);
		memcpy(pat, ch->pattern, ch->npattern * sizeof *pat);
		j->pattern = pat;
	}
}

/*
 * Append a change to the record.  A write that fails (a full disk) stops
 * the recording, said in the log: a journal with a line missing would
 * replay to another session.
 */
static void
session_record_change(struct session *s, const struct change *ch)
{
	if (s->record == NULL)
		return;
	if (journal_write_change(s->record, ch) != 0) {
		log_warnx("journal: %s; recording stopped (the file has no "
		    "end line)", strerror(errno));
		s->record = NULL;
	}
}

/*
 * A change made to the enforced engine is made to the shadow too, at
 * the same tick.  It may not apply there (a real task seen blocking that
 * the shadow has asleep already): that is how the two differ, so it is
 * only logged.  An added task has the same id in both.
 */
static void
session_shadow_change(struct session *s, const struct change *ch, int id)
{
	char	*why = NULL;
	int	 r;

	r = session_apply(s, s->shadow, ch, &why);
	if (r < 0) {
		log_debug("shadow: tick %llu: %s", (unsigned long long)ch->at,
		    why);
		free(why);
	} else if (ch->kind == CHANGE_ADD && r != id)
		log_warnx("shadow: task %d added as %d", id, r);
}

/* The one path for a change from outside the scenario. */
int
session_change(struct session *s, const struct change *ch, char **cause)
{
	struct change	c = *ch;
	int		r;

	c.at = engine_now(s->e);
	if ((r = session_apply(s, s->e, &c, cause)) < 0)
		return (-1);
	if (c.kind == CHANGE_ADD && c.real)
		s->ever_real = 1;
	session_journal_add(s, &c);
	session_record_change(s, &c);
	/*
	 * An exit made between ticks (a kill, a real process that ended)
	 * is narrated now, before the task is marked seen exited.
	 */
	if ((c.kind == CHANGE_EXIT || c.kind == CHANGE_KILL) &&
	    s->note != NULL)
		session_exits(s, c.at);
	session_seen_update(s, c.kind == CHANGE_ADD ? r : c.task);
	if (s->shadow != NULL && c.kind != CHANGE_POLICY)
		session_shadow_change(s, &c, r);
	return (c.kind == CHANGE_ADD ? r : 0);
}

/*
 * Start (pol) or stop (NULL) the shadow: a copy of the present engine
 * switched to pol, every task starting its policy state afresh there.
 * 0, or -1 with *cause (while the past is viewed: it has no shadow).
 */
int
session_compare(struct session *s, const struct engine_policy *pol,
    char **cause)
{
	if (pol != NULL && s->view != NULL) {
		*cause = xstrdup("compare: viewing the past, resume first");
		return (-1);
	}
	engine_free(s->shadow);
	s->shadow = NULL;
	s->shadow_policy = pol;
	if (pol != NULL) {
		s->shadow = engine_clone(s->e);
		engine_set_policy(s->shadow, pol);
		/* Read whole for its frames: its log would go unread. */
		engine_track_changes(s->shadow, NULL);
	}
	return (0);
}

/* The shadow engine, to read; NULL: none, or the past is viewed. */
const struct engine *
session_shadow(const struct session *s)
{
	return (s->view != NULL ? NULL : s->shadow);
}

/* The shadow's policy (compare NAME), kept while the past is viewed. */
const struct engine_policy *
session_shadow_policy(const struct session *s)
{
	return (s->shadow_policy);
}

/* The journal's header for this session. */
static void
session_header(const struct session *s, struct journal_header *h)
{
	memset(h, 0, sizeof *h);
	h->scenario = s->label;
	h->text = s->text;
	h->ntasks = s->ntasks0;
	h->params = s->params;
	h->policy = s->policy0->name;
}

/* Record the journal to f: what is kept so far, then each change. */
int
session_record(struct session *s, FILE *f, char **cause)
{
	struct journal_header	h;
	size_t			i;

	s->record = f;
	if (f == NULL)
		return (0);
	session_header(s, &h);
	journal_write_header(f, &h);
	for (i = 0; i < s->njournal; i++)
		journal_write_change(f, &s->journal[i]);
	if (fflush(f) != 0 || ferror(f)) {
		*cause = xasprintf("journal: %s", strerror(errno));
		s->record = NULL;
		return (-1);
	}
	return (0);
}

/* The session ends cleanly: the record's end line (the last tick run). */
void
session_end(struct session *s)
{
	if (s->record != NULL) {
		journal_write_end(s->record, engine_now(s->e));
		fflush(s->record);
		s->record = NULL;
	}
	if (s->trace != NULL)
		fflush(s->trace);
}

/* The oldest tick a seek reaches. */
uint64_t
session_first(const struct session *s)
{
	return (s->nkeys > 0 ? s->keys[0].tick : engine_now(s->e));
}

/* Bytes the history holds: its keyframes. */
size_t
session_history_memory(const struct session *s)
{
	size_t	i, n = s->sizekeys * sizeof *s->keys;

	for (i = 0; i < s->nkeys; i++)
		n += engine_memory(s->keys[i].e);
	return (n);
}

/*
 * The table counts of ticks 0..tick-1 counted again: a copy of the
 * oldest keyframe run on to tick with the journal's changes, as
 * session_seek runs the past.  Exact when that keyframe is tick 0; an
 * older history than the keyframes' is not counted (ledger_since says
 * from when).  The present's counts run on untouched.
 */
static struct ledger *
session_recount(struct session *s, uint64_t tick)
{
	const struct change	*ch;
	struct ledger		*l;
	struct engine		*v;
	uint64_t		 t;
	size_t			 j;
	char			*why;

	l = ledger_create(s->ledger_rows);
	if (s->nkeys == 0 || s->keys[0].tick > tick) {
		/* Nothing to count from: none counted, from tick on. */
		ledger_set_since(l, tick);
		return (l);
	}
	ledger_set_since(l, s->keys[0].tick);
	v = engine_clone(s->keys[0].e);
	j = s->keys[0].njournal;
	while ((t = engine_now(v)) < tick) {
		for (; j < s->njournal && (ch = &s->journal[j])->at <= t;
		    j++) {
			why = NULL;
			if (session_apply(s, v, ch, &why) < 0)
				free(why);
		}
		engine_tick(v);
		session_count(l, v, s->params.cpus);
	}
	engine_free(v);
	return (l);
}

/*
 * Can tick be seen (the present, or a tick the history keeps)?  0, or
 * -1 with *cause: a seek refused this way changes nothing.
 */
int
session_seek_check(struct session *s, uint64_t tick, char **cause)
{
	uint64_t	now = engine_now(s->e);

	if (tick != now && (s->nkeys == 0 || tick > now ||
	    tick < s->keys[0].tick)) {
		*cause = xasprintf("seek: tick %llu is outside the history "
		    "%llu..%llu", (unsigned long long)tick,
		    (unsigned long long)session_first(s),
		    (unsigned long long)now);
		return (-1);
	}
	return (0);
}

/*
 * Show the state at tick (the engine after ticks 0..tick-1, before the
 * changes made at tick): a copy of the newest keyframe at or before it
 * (or the view already shown, when that is on the way), run on with the
 * journal's changes.  The present runs on untouched.  At the present
 * tick the view ends.  0, or -1 with *cause.
 */
int
session_seek(struct session *s, uint64_t tick, char **cause)
{
	const struct change	*ch;
	struct engine		*v;
	uint64_t		 now = engine_now(s->e), t;
	size_t			 k;
	char			*why;

	if (tick == now) {
		session_view_end(s);
		return (0);
	}
	if (session_seek_check(s, tick, cause) != 0)
		return (-1);
	for (k = s->nkeys - 1; k > 0 && s->keys[k].tick > tick; k--)
		;
	if (s->view == NULL || engine_now(s->view) > tick ||
	    engine_now(s->view) < s->keys[k].tick) {
		engine_free(s->view);
		s->view = engine_clone(s->keys[k].e);
		s->view_j = s->keys[k].njournal;
	}
	v = s->view;
	while ((t = engine_now(v)) < tick) {
		for (; s->view_j < s->njournal &&
		    (ch = &s->journal[s->view_j])->at <= t; s->view_j++) {
			/* It was made live: it is made here too. */
			why = NULL;
			if (session_apply(s, v, ch, &why) < 0)
				free(why);
		}
		engine_tick(v);
	}
	return (0);
}

/* Stop viewing the past: the present is shown again. */
void
session_view_end(struct session *s)
{
	engine_free(s->view);
	s->view = NULL;
	ledger_free(s->view_ledger);
	s->view_ledger = NULL;
}

/*
 * The past viewed becomes the present (a seek, then resume, with
 * scripted tasks only): the changes made at or after its tick and the
 * keyframes after it are dropped, and the record gets a branch line.
 * The trace goes on from that tick (its rows repeat the ticks gone
 * back over); the table counts are those of the past (counted again,
 * session_recount), not the future's.  0, or -1 with *cause.
 */
int
session_branch(struct session *s, char **cause)
{
	struct change	 br;
	struct ledger	*l;
	uint64_t	 tick;
	size_t		 i;
	int		 id;

	if (s->view == NULL)
		return (0);
	if (s->ever_real) {
		*cause = xstrdup("the session has real tasks: the past is "
		    "view-only");
		return (-1);
	}
	tick = engine_now(s->view);
	if (s->ledger != NULL) {
		l = session_ledger(s);		/* the past's */
		s->view_ledger = NULL;
		ledger_free(s->ledger);
		s->ledger = l;
	}
	memset(&br, 0, sizeof br);
	br.at = engine_now(s->e);
	br.kind = CHANGE_BRANCH;
	br.value = (long)tick;
	session_record_change(s, &br);
	for (i = s->view_j; i < s->njournal; i++) {
		free((char *)s->journal[i].name);
		free((uint32_t *)s->journal[i].pattern);
	}
	s->njournal = s->view_j;
	while (s->nkeys > 0 && s->keys[s->nkeys - 1].tick > tick) {
		s->keybytes -= s->keys[--s->nkeys].bytes;
		engine_free(s->keys[s->nkeys].e);
	}
	engine_free(s->e);
	s->e = s->view;
	s->view = NULL;
	engine_narrate(s->e, s->note != NULL);
	/* Ids added after tick may come back with other names. */
	for (id = 1; id <= s->nnames; id++)
		free((char *)s->names[id]);
	s->nnames = 0;
	for (id = 1; id <= engine_ntasks(s->e); id++)
		session_seen_update(s, id);
	for (id = 1; id <= s->nseen; id++)
		s->seen[id - 1].ran = 0;
	runs_truncate(s->runs, tick);
	lesson_rewind(s->lesson, tick);
	s->nfired = 0;
	/* The shadow starts again from the tick gone back to. */
	if (s->shadow_policy != NULL)
		(void)session_compare(s, s->shadow_policy, cause);
	return (0);
}
