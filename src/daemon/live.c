/*
 * live.c -- the live daemon around its session.
 *
 * The session (src/session/) is the only writer of the engine; the live
 * daemon keeps the one run now and what serves it: the configuration,
 * the clock that paces its ticks (pacer.c), the real processes behind
 * its real tasks (bridge.c), its output files (sinks.c), and the lines
 * subscribers are told (notes.c).  A tick here is the session's tick
 * between what the real processes did and making them do what it
 * decided; a lesson's events that fired in it (a pause, a question, a
 * speed) act on the clock.  `load` makes the new session first and
 * only then ends the old one, so a scenario that fails leaves the
 * present running.
 */
#include <sys/stat.h>

#include <event2/event.h>

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bridge.h"
#include "catalog.h"
#include "change.h"
#include "config.h"
#include "engine.h"
#include "format.h"
#include "journal.h"
#include "lesson.h"
#include "live.h"
#include "loader.h"
#include "log.h"
#include "notes.h"
#include "pacer.h"
#include "path.h"
#include "proc.h"
#include "protocol.h"
#include "scenario.h"
#include "session.h"
#include "sinks.h"
#include "table.h"
#include "whys.h"
#include "xmalloc.h"

#define LIVE_TABLE_ROWS	TABLE_ROWS	/* as headless --table */

struct live {
	struct config		 cfg;
	char			*config_path;	/* NULL: defaults only */
	struct session		*session;
	/* compare a,b,c: the shadows' policies, kept across loads. */
	const struct engine_policy *compare[SESSION_SHADOWS];
	int			 ncompare;	/* 0: off */
	char			 compare_text[SESSION_SHADOWS * 16];
	struct notes		*notes;
	struct whys		*whys;		/* each CPU's last why */
	struct sinks		*sinks;
	struct bridge		*bridge;
	struct pacer		*pacer;
	struct event_base	*base;
	int			 real;		/* real processes are run */
	int			 exiting;
	struct catalog		*catalog;	/* scenarios by name */
	struct loader		*loader;	/* a client's load, parsed */
	struct pacer_wait	*load_wait;	/* who waits for it */
	int			 load_run;	/* load ... run: running */
	void			(*loaded)(void *);
	void			*loaded_arg;
	/*
	 * The room (SPEC.md section 12): the question asked (its event,
	 * open until the resume that reveals it, then revealed until the
	 * next lesson event), a number that tells one question from the
	 * next (a connection's vote counts for that one only), the votes
	 * per choice, and them as status and frames say them.
	 */
	enum { LIVE_ASK_NONE, LIVE_ASK_OPEN, LIVE_ASK_REVEALED } ask;
	const struct lesson_event *ask_ev;
	uint64_t		 ask_serial;
	uint32_t		 votes[SCENARIO_CHOICES_MAX];
	char			 votes_text[SCENARIO_CHOICES_MAX * 11 + 1];
	/*
	 * A recording replayed on the clock (stairsd --replay, SPEC.md
	 * section 12): its path, the part shown (its journal feeds the
	 * session) and how many the file has; NULL: a live daemon.
	 */
	char			*replay;
	struct journal		*replay_j;
};

static void	live_tick(void *, int);
static void	live_loaded(void *, struct scenario *, char *, char *);
static void	live_enforce(void *);
static void	live_open(struct live *);
static void	live_switch_to(struct live *, struct session *, int);

/* A live daemon configured by cfg, with no session yet. */
struct live *
live_create(const struct config *cfg, const char *config_path)
{
	struct live		*l;
	struct pacer_hooks	 hooks;

	l = xcalloc(1, sizeof *l);
	l->cfg = *cfg;
	if (config_path != NULL)
		l->config_path = path_absolute(config_path);
	l->notes = notes_create();
	l->whys = whys_create();
	l->sinks = sinks_create(l->notes);
	l->bridge = bridge_create(&l->cfg, l->notes, l->sinks);
	memset(&hooks, 0, sizeof hooks);
	hooks.tick = live_tick;
	hooks.enforce = live_enforce;
	hooks.arg = l;
	l->pacer = pacer_create(&l->cfg, l->notes, l->sinks, l->bridge,
	    &hooks);
	l->catalog = catalog_create(l->cfg.scenario_path);
	return (l);
}

/* Free everything (live_end first, for a clean end). */
void
live_free(struct live *l)
{
	if (l == NULL)
		return;
	loader_free(l->loader);
	pacer_free(l->pacer);
	bridge_free(l->bridge);
	if (l->session != NULL)
		session_end(l->session);
	sinks_free(l->sinks);
	session_free(l->session);
	journal_free(l->replay_j);	/* after the session it fed */
	free(l->replay);
	notes_free(l->notes);
	whys_free(l->whys);
	catalog_free(l->catalog);
	config_free(&l->cfg);
	free(l->config_path);
	free(l);
}

/* The session narrates something at tick (a fired event, an exit). */
static void
live_session_note(void *arg, uint64_t tick, const char *text)
{
	struct live	*l = arg;

	notes_add(l->notes, tick, "%s", text);
}

/* Why a real task ended, as its process says; -1 if it does not. */
static int
live_exit_reason(void *arg, int id, char *buf, size_t len)
{
	struct live	*l = arg;

	return (bridge_exit_reason(l->bridge, id, buf, len));
}

/* Each CPU's last why line, the shadows' too (frames). */
const struct whys *
live_whys(const struct live *l)
{
	return (l->whys);
}

/* The scenarios this daemon knows by name. */
const struct catalog *
live_catalog(const struct live *l)
{
	return (l->catalog);
}

/* The policies of compare as a list, "o1,cfs", into buf ("off": none). */
static void
live_compare_text(const struct engine_policy *const *pol, int n, char *buf,
    size_t len)
{
	size_t	at = 0;
	int	i;

	snprintf(buf, len, "%s", n == 0 ? "off" : "");
	for (i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s",
		    i > 0 ? "," : "", pol[i]->name);
}

/* A scenario's compare key (checked as it was parsed): the shadows. */
static void
live_compare_scenario(struct live *l, const char *list)
{
	const struct engine_policy	*pol[SESSION_SHADOWS];
	char				*cause = NULL;
	int				 i, n;

	if ((n = engine_policy_list(list, pol, SESSION_SHADOWS,
	    &cause)) < 0) {
		log_warnx("compare \"%s\": %s", list, cause);
		free(cause);
		return;
	}
	for (i = 0; i < n; i++)
		l->compare[i] = pol[i];
	l->ncompare = n;
	live_compare_text(l->compare, l->ncompare, l->compare_text,
	    sizeof l->compare_text);
}

/*
 * What every live session keeps (a scenario's, a recording's part): the
 * table's rows, keyframes and runs as far back as a seek reaches, the
 * log of changes for frames (kept with no subscriber too: subscribers
 * come and go, and the log is a small part of a tick), the narration.
 */
static void
live_session_setup(struct live *l, struct session_setup *set)
{
	set->tables_rows = LIVE_TABLE_ROWS;
	set->history = (uint64_t)l->cfg.history * 1000;
	set->runs_keep = set->history;
	set->track_changes = 1;
	set->note = live_session_note;
	set->exit_reason = live_exit_reason;
	set->arg = l;
}

/*
 * Make a session of scenario sc, labelled label (both taken: freed
 * here).  Its real tasks are checked and left with the bridge, to spawn.
 * NULL with *cause.
 */
static struct session *
live_session_make(struct live *l, struct scenario *sc, char *label,
    char **cause)
{
	struct session_setup		 set;
	struct engine_params		 p;
	struct session			*s;

	engine_params_default(&p);
	config_engine_params(&l->cfg, &p);
	scenario_params(sc, &p);
	s = NULL;
	if (engine_params_check(&p, cause) == 0) {
		memset(&set, 0, sizeof set);
		set.label = label;
		set.text = sc->text;
		set.params = p;
		set.policy = sc->policy != NULL ?
		    engine_policy_find(sc->policy) : NULL;
		set.max_tasks = l->cfg.max_tasks;
		set.spawn = bridge_pending;
		set.spawn_arg = l->bridge;
		live_session_setup(l, &set);
		s = session_create(&set, sc, cause);
		/* Every pick explained, for frames' why lines. */
		if (s != NULL)
			session_explain(s, 1);
		/*
		 * The scenario's shadows (compare = "o1,cfs"), else a
		 * comparison goes on: the new session's from its tick 0.
		 */
		if (s != NULL && sc->compare != NULL)
			live_compare_scenario(l, sc->compare);
		if (s != NULL && l->ncompare > 0)
			(void)session_compare_set(s, l->compare, l->ncompare,
			    cause);
	}
	if (s == NULL)
		bridge_pending_drop(l->bridge);
	scenario_free(sc);
	free(label);
	/*
	 * A big scenario's parse (libconfig's tree, ours) is freed now,
	 * but the heap keeps it mapped: give it back, so a refused or
	 * replaced one leaves nothing held (640 000 tasks: 270 MB).
	 */
	malloc_trim(0);
	return (s);
}

/*
 * A session of part `part` of the recording being replayed: its
 * scenario from the journal's text, its engine and policy from the
 * header, fed the journal's changes as their ticks come (real tasks
 * with no process: their blocks and wakes move them), its past
 * view-only.  *jp: the part's journal, which the session reads until it
 * is freed.  NULL with *cause.
 */
static struct session *
live_replay_new(struct live *l, int part, struct journal **jp, char **cause)
{
	struct session_setup	 set;
	struct scenario		*sc;
	struct journal		*j;
	struct session		*s;

	if ((j = journal_read_part(l->replay, part, cause)) == NULL)
		return (NULL);
	if ((sc = scenario_load_string(j->header.text, l->replay,
	    cause)) == NULL) {
		journal_free(j);
		return (NULL);
	}
	memset(&set, 0, sizeof set);
	set.label = j->header.scenario;
	set.text = j->header.text;
	set.params = j->header.params;
	set.policy = engine_policy_find(j->header.policy);
	set.real_ok = 1;
	live_session_setup(l, &set);
	s = session_create(&set, sc, cause);
	scenario_free(sc);
	if (s != NULL && engine_ntasks(session_engine(s)) !=
	    j->header.ntasks) {
		*cause = xasprintf("%s: part %d: the scenario makes %d tasks, "
		    "the journal says %d", l->replay, j->part,
		    engine_ntasks(session_engine(s)), j->header.ntasks);
		session_free(s);
		s = NULL;
	}
	if (s == NULL) {
		journal_free(j);
		return (NULL);
	}
	session_explain(s, 1);	/* the why lines, as live */
	session_feed(s, j->changes, j->nchanges, 0, l->replay);
	session_view_only(s);
	session_explain(s, 1);
	if (l->ncompare > 0)
		(void)session_compare_set(s, l->compare, l->ncompare, cause);
	*jp = j;
	return (s);
}

/*
 * The first session of a recording replayed (stairsd --replay PATH):
 * its first part.  0, or -1 with *cause.
 */
int
live_replay(struct live *l, const char *path, char **cause)
{
	l->replay = path_absolute(path);
	if ((l->session = live_replay_new(l, 1, &l->replay_j,
	    cause)) == NULL)
		return (-1);
	pacer_session(l->pacer, l->session);
	return (0);
}

/* A recording replayed: its part shown (*part) and parts; 0: live. */
int
live_parts(const struct live *l, int *part)
{
	if (l->replay_j == NULL) {
		*part = 0;
		return (0);
	}
	*part = l->replay_j->part;
	return (l->replay_j->nparts);
}

/* The recording replayed (NULL: none). */
const char *
live_replay_path(const struct live *l)
{
	return (l->replay);
}

/*
 * Make a session of a scenario found in the catalog (here: the command
 * line's name, which may be a file of the current directory; else a
 * client's).  NULL with *cause ("FILE:LINE: message").
 */
static struct session *
live_session_new(struct live *l, const char *name, int here, char **cause)
{
	struct scenario	*sc;
	char		*label;

	if ((sc = catalog_load(l->catalog, name, here, &label,
	    cause)) == NULL)
		return (NULL);
	return (live_session_make(l, sc, label, cause));
}

/*
 * The first session (a built-in name, or a file; NULL or "": the demo).
 * main and the protocol fuzzer (tests/fuzz/fuzz_protocol.c) set a
 * daemon up through this.
 */
int
live_load(struct live *l, const char *name, char **cause)
{
	if ((l->session = live_session_new(l, name, 1, cause)) == NULL)
		return (-1);
	pacer_session(l->pacer, l->session);
	return (0);
}

/* The bridge's hooks: a change it saw, a wake it acted on at once. */
static int
live_bridge_change(void *arg, const struct change *ch, char **cause)
{
	return (live_change(arg, ch, cause));
}

/*
 * The bridge let a woken task run at once: into the Perfetto trace,
 * where the engine's track shows it from then, not from the next tick
 * (unless a sleeping clock is behind: the ticks due run next, the last
 * one with the wake, and show it from its tick).
 */
static void
live_bridge_woke(void *arg, int cpu, int task, int rank, uint64_t ns)
{
	struct live	*l = arg;
	struct procs	*procs = bridge_procs(l->bridge);

	if (procs == NULL || pacer_behind(l->pacer))
		return;
	sinks_perfetto_wake(l->sinks, session_live_engine(l->session), cpu,
	    task, rank, procs_engine_ns(procs, ns));
}

/* Start the real-process layer for the session, and watch its wakes. */
static void
live_procs_start(struct live *l)
{
	struct bridge_hooks	hooks;

	memset(&hooks, 0, sizeof hooks);
	hooks.change = live_bridge_change;
	hooks.woke = live_bridge_woke;
	hooks.arg = l;
	bridge_start(l->bridge, l->session, &hooks);
	pacer_watch(l->pacer, procs_event_fd(bridge_procs(l->bridge)));
}

/* End it: children killed and reaped, cgroups removed. */
static void
live_procs_stop(struct live *l)
{
	pacer_watch(l->pacer, -1);
	bridge_stop(l->bridge);
}

/* Run on base: flushing the files, the real tasks, the clock. */
void
live_begin(struct live *l, struct event_base *base, int tick_fd, int real)
{
	l->base = base;
	l->real = real;
	sinks_start(l->sinks, base);
	pacer_start(l->pacer, base, tick_fd);
	if (real)
		live_procs_start(l);
	/* A recording opens paused at tick 0, as a load does. */
	pacer_restart(l->pacer, session_speed(l->session) > 0 ?
	    session_speed(l->session) : l->cfg.speed, l->replay != NULL);
	live_open(l);
}

/* The end: the journal's end line, the kernel's last runs, children. */
void
live_end(struct live *l)
{
	pacer_stop(l->pacer);
	bridge_perfetto_end(l->bridge, l->session);
	sinks_end(l->sinks, l->session);
	live_procs_stop(l);
}

/* Call cb(arg) whenever a new session was made. */
void
live_on_load(struct live *l, void (*cb)(void *), void *arg)
{
	l->loaded = cb;
	l->loaded_arg = arg;
}

/* The session run now. */
struct session *
live_session(const struct live *l)
{
	return (l->session);
}

/* The engine shown: the past being viewed, else the present. */
const struct engine *
live_engine(const struct live *l)
{
	return (session_engine(l->session));
}

/* The configuration. */
const struct config *
live_config(const struct live *l)
{
	return (&l->cfg);
}

/* What subscribers are told. */
struct notes *
live_notes(const struct live *l)
{
	return (l->notes);
}

/* The clock. */
struct pacer *
live_pacer(const struct live *l)
{
	return (l->pacer);
}

/* The real processes' bridge. */
struct bridge *
live_bridge(const struct live *l)
{
	return (l->bridge);
}

/* The output files. */
struct sinks *
live_sinks(const struct live *l)
{
	return (l->sinks);
}

/* The event loop (NULL before live_begin). */
struct event_base *
live_base(const struct live *l)
{
	return (l->base);
}

/* Has shutdown been asked for? */
int
live_exiting(const struct live *l)
{
	return (l->exiting);
}

/* Catch the engine up to the wall clock. */
void
live_catchup(struct live *l)
{
	pacer_catchup(l->pacer);
}

/*
 * Make a change to the engine through the session (which journals it),
 * from a command or the real-process layer.  0 (CHANGE_ADD: the new
 * task's id), or -1 with *cause.
 */
int
live_change(struct live *l, const struct change *ch, char **cause)
{
	int	r;

	if ((r = session_change(l->session, ch, cause)) < 0)
		return (-1);
	notes_changed(l->notes);
	pacer_changed(l->pacer);
	return (r);
}

/*
 * Stop the clock, and say so if it ran.  Pause, resume, a new step and a
 * seek cancel a step under way first (why: by what).
 */
void
live_pause(struct live *l, const char *why)
{
	pacer_step_cancel(l->pacer, why);
	if (pacer_paused(l->pacer))
		return;
	pacer_pause(l->pacer);
	notes_add(l->notes, session_now(l->session), "paused");
}

/*
 * A lesson event fired in the tick just run (SPEC.md section 7).  A
 * caption, a pause's text and an ask's question are narrated with their
 * text (`caption: TEXT`, `question: TEXT`; the answer, `answer: TEXT`,
 * at the resume that shows it), so a client can hold each on screen and
 * keep them in its event log, though the next may follow in a few ms of
 * ticks.  A pause or an ask stops the clock (the engine made its text
 * the caption; an ask's answer waits for the next resume: live_resume),
 * a speed event sets the speed, a mark (a chapter) and a policy switch
 * are narrated.  The pacer stops running ticks when the clock pauses or
 * changes speed.  tick: the tick it fired at.
 */
static void
live_lesson(struct live *l, const struct lesson_event *ev, uint64_t tick)
{
	/* A question revealed stays so until the next lesson event. */
	if (l->ask == LIVE_ASK_REVEALED) {
		l->ask = LIVE_ASK_NONE;
		l->ask_ev = NULL;
	}
	if (ev->action == SCENARIO_ASK) {
		l->ask = LIVE_ASK_OPEN;
		l->ask_ev = ev;
		l->ask_serial++;
		memset(l->votes, 0, sizeof l->votes);
	}
	switch (ev->action) {
	case SCENARIO_CAPTION:
		/* Its text, so a client misses none (frames show the last). */
		notes_add(l->notes, tick, "caption: %s", ev->text != NULL ?
		    ev->text : "");
		break;
	case SCENARIO_PAUSE:
	case SCENARIO_ASK:
		if (ev->text != NULL && *ev->text != '\0')
			notes_add(l->notes, tick, "%s: %s", ev->action ==
			    SCENARIO_ASK ? "question" : "caption", ev->text);
		if (!pacer_paused(l->pacer)) {
			pacer_pause(l->pacer);
			notes_add(l->notes, tick, "paused by the scenario%s",
			    ev->action == SCENARIO_ASK ? ": a question" : "");
		}
		break;
	case SCENARIO_SPEED:
		pacer_speed_to(l->pacer, ev->speed, tick, "");
		break;
	case SCENARIO_MARK:
		notes_add(l->notes, tick, "mark: %s", ev->text);
		break;
	default:
		break;
	}
}

/* Keep the why lines of the tick just run, the shadows' too. */
static void
live_whys_take(struct live *l, uint64_t tick)
{
	const struct engine	*sh;
	uint64_t		 gen = notes_gen(l->notes);

	int			 i;

	whys_take(l->whys, 0, session_live_engine(l->session), tick, gen);
	for (i = 0; (sh = session_live_shadow_at(l->session, i)) != NULL;
	    i++)
		whys_take(l->whys, i + 1, sh, tick, gen);
}

/*
 * One tick of the session, between what the real processes did (their
 * blocks and wakes go in first) and making them do what the engine
 * decided.  The session writes the trace rows, counts the table and
 * narrates what fired.  Of several ticks run at once (late, or a
 * sleeping clock's quiet ones), only the last, the present, observes
 * and enforces (proc.h); those before it ran what it found running and
 * are only stamped with their own time.
 */
static void
live_tick(void *arg, int last)
{
	struct live			*l = arg;
	const struct lesson_event	*ev;
	const struct engine_event	*fired;
	uint64_t			 tick = session_now(l->session);
	size_t				 i, n;

	if (last)
		bridge_observe(l->bridge);
	session_tick(l->session);
	/*
	 * The tick into the Perfetto trace before it is enforced: the
	 * enforcing may act on a wake at once (procs_enforce reads the
	 * records its signals made, and any wake since), which goes in
	 * after the tick's switches (live_bridge_woke).
	 */
	sinks_perfetto_tick(l->sinks, session_live_engine(l->session), tick);
	if (last)
		bridge_enforce(l->bridge, l->session, tick);
	else
		bridge_stamp(l->bridge, pacer_due(l->pacer, tick));
	/* The engine's policy events, then the lesson's, narrated. */
	fired = engine_fired(session_live_engine(l->session), &n);
	for (i = 0; i < n; i++) {
		if (fired[i].action == ENGINE_ACT_POLICY)
			notes_add(l->notes, tick, "policy -> %s",
			    fired[i].policy->name);
	}
	ev = session_lessons(l->session, &n);
	for (i = 0; i < n; i++)
		live_lesson(l, &ev[i], tick);
	/* A recording's part ends where the live daemon's did. */
	if (l->replay_j != NULL && tick + 1 == l->replay_j->end &&
	    !session_feed_branch_ahead(l->session)) {
		if (!pacer_paused(l->pacer))
			pacer_pause(l->pacer);
		notes_add(l->notes, tick + 1, "the recording's part %d of %d "
		    "ends here", l->replay_j->part, l->replay_j->nparts);
	}
	notes_changed(l->notes);
	/* After the gen moved: a frame built before has gen below. */
	live_whys_take(l, tick);
}

/*
 * A session opens (the first, a load, a reset): the lesson's events of
 * tick 0 act now, before any command and before the clock's first tick
 * (issue 27, item 9): a lesson that pauses at 0 is paused, its caption
 * up, its speed set, whatever comes first.  Tick 0 then runs them no
 * more.
 */
static void
live_open(struct live *l)
{
	const struct lesson_event	*ev;
	size_t				 i, n;

	/* The room's question was the old session's. */
	l->ask = LIVE_ASK_NONE;
	l->ask_ev = NULL;

	ev = session_lessons_now(l->session, &n);
	for (i = 0; i < n; i++)
		live_lesson(l, &ev[i], session_now(l->session));
	notes_changed(l->notes);
}

/* A run of ticks cut short: enforce its last. */
static void
live_enforce(void *arg)
{
	struct live	*l = arg;

	bridge_enforce(l->bridge, l->session, session_now(l->session) - 1);
}

/*
 * A seek to tick: the speed the lesson had there (its last speed event
 * at or before it, else the scenario's, else the configured one), so a
 * slow part replays slowly; resuming plays the speed events after it
 * again.  Said when it changes.  A scenario with no speed of its own
 * leaves the clock's as it is.
 */
static void
live_seek_speed(struct live *l, uint64_t tick)
{
	char	why[64];
	double	speed = session_speed_at(l->session, tick);

	if (speed < 0)
		return;			/* not a lesson: the user's speed */
	if (speed == 0)
		speed = l->cfg.speed;
	if (speed == pacer_speed(l->pacer))
		return;
	snprintf(why, sizeof why, " (the lesson's at tick %llu)",
	    (unsigned long long)tick);
	pacer_speed_to(l->pacer, speed, session_now(l->session), why);
}

/*
 * Viewing the past (a seek), the clock is to run again (resume, step):
 * with scripted tasks only the past viewed becomes the present (a
 * branch: the journal after it is dropped); with real tasks, which went
 * on in the real world, back to the present.
 */
static void
live_leave_past(struct live *l)
{
	uint64_t	 now = session_now(l->session), t;
	char		*cause = NULL;

	if (!session_viewing(l->session))
		return;
	t = engine_now(live_engine(l));
	if (session_has_real(l->session)) {
		session_view_end(l->session);
		notes_add(l->notes, now, "back to the present, tick %llu",
		    (unsigned long long)now);
		/* The lesson's speed of the present, not of the tick seen. */
		live_seek_speed(l, now);
	} else if (session_branch(l->session, &cause) != 0) {
		log_warnx("branch: %s", cause);
		free(cause);
		session_view_end(l->session);
	} else {
		/* The present is another engine now. */
		bridge_set_engine(l->bridge, session_live_engine(l->session));
		notes_add(l->notes, session_now(l->session), "went on from "
		    "tick %llu (was %llu)", (unsigned long long)t,
		    (unsigned long long)now);
	}
	bridge_forget(l->bridge);
	notes_changed(l->notes);
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
 * The question's reveal (the resume after it): its votes shown beside
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

/* Restart the clock from the present tick: live_go_on, then run. */
/*
 * The clock goes on from the present (a resume, a step): a branch made
 * first; a question the lesson asked is answered, its votes revealed.
 */
static void
live_go_on(struct live *l)
{
	const char	*answer;

	live_leave_past(l);
	if ((answer = session_answer(l->session)) != NULL) {
		notes_add(l->notes, session_now(l->session) - 1, "answer: %s",
		    answer);
		if (l->ask == LIVE_ASK_OPEN)
			live_reveal(l);
	} else if (l->ask == LIVE_ASK_OPEN) {
		/* A branch went back before the question: not asked. */
		l->ask = LIVE_ASK_NONE;
		l->ask_ev = NULL;
	}
}

void
live_resume(struct live *l)
{
	pacer_step_cancel(l->pacer, "resume");
	if (!pacer_paused(l->pacer))
		return;
	live_go_on(l);
	pacer_resume(l->pacer);
	notes_add(l->notes, session_now(l->session), "resumed");
}

/*
 * `step`: the clock paused, n ticks (or to the next event) run in slices
 * of the event loop from the present (a branch made first, a question
 * answered as by resume); wait is told when they have run.
 */
void
live_step(struct live *l, uint64_t n, int until_event,
    struct pacer_wait *wait)
{
	pacer_step_cancel(l->pacer, "a new step");
	live_go_on(l);
	pacer_step(l->pacer, n, until_event, wait);
}

/* `seek`: pause, and show the state at tick; the lesson's speed there. */
int
live_seek(struct live *l, uint64_t tick, char **cause)
{
	/* Refused, it changes nothing: not even the clock's running. */
	if (session_seek_check(l->session, tick, cause) != 0)
		return (-1);
	live_pause(l, "seek");
	if (session_seek(l->session, tick, cause) != 0)
		return (-1);
	live_seek_speed(l, tick);
	notes_changed(l->notes);
	return (0);
}

/*
 * compare a,b,c (n 0: off): up to three shadow engines under other
 * policies beside the enforced one (SPEC.md sections 6 and 10), kept
 * across load and reset.
 */
int
live_compare(struct live *l, const struct engine_policy *const *pol, int n,
    char **cause)
{
	char	old[sizeof l->compare_text];
	int	i;

	if (session_compare_set(l->session, pol, n, cause) != 0)
		return (-1);
	live_compare_text(l->compare, l->ncompare, old, sizeof old);
	for (i = 0; i < n; i++)
		l->compare[i] = pol[i];
	l->ncompare = n;
	live_compare_text(l->compare, l->ncompare, l->compare_text,
	    sizeof l->compare_text);
	for (i = 1; i < WHYS_SLOTS; i++)
		whys_clear(l->whys, i);
	notes_add(l->notes, session_now(l->session), "compare %s -> %s", old,
	    l->compare_text);
	return (0);
}

/*
 * `load`: end the current session (its journal's end line written, real
 * children killed and reaped, cgroups removed) and start the scenario
 * name at tick 0, paused (SPEC.md section 7, amended: the presenter
 * starts it with `resume`), or running if run, whatever the clock was
 * doing.  The new one is made first: if it fails, *cause says why and
 * the current one runs on.  The files go on with the new session.
 */
int
live_switch(struct live *l, const char *name, int run, char **cause)
{
	struct session	*s;

	if (l->replay != NULL) {
		*cause = xasprintf("replaying a recording: `part N` moves "
		    "between its %d parts", l->replay_j->nparts);
		return (-1);
	}
	/* A bare name is a scenario's, never a file of our directory. */
	if ((s = live_session_new(l, name, 0, cause)) == NULL)
		return (-1);
	live_switch_to(l, s, run);
	return (0);
}

/*
 * `part N` (and `reset`) of a recording replayed: that part's session
 * at tick 0, paused unless run, as `load` opens a scenario.
 */
int
live_part(struct live *l, int part, int run, char **cause)
{
	struct session	*s;
	struct journal	*j, *old;

	if (l->replay == NULL) {
		*cause = xstrdup("not replaying a recording (stairsd "
		    "--replay PATH)");
		return (-1);
	}
	if ((s = live_replay_new(l, part, &j, cause)) == NULL)
		return (-1);
	old = l->replay_j;
	l->replay_j = j;
	live_switch_to(l, s, run);	/* frees the old session */
	journal_free(old);
	return (0);
}

/* The new session s replaces the current one (live_switch). */
static void
live_switch_to(struct live *l, struct session *s, int run)
{
	struct session	*old = l->session;
	char		*why = NULL;

	pacer_step_cancel(l->pacer, "load");
	bridge_perfetto_end(l->bridge, old);
	sinks_end(l->sinks, old);
	if (l->real)
		live_procs_stop(l);
	l->session = s;
	session_free(old);
	whys_clear(l->whys, -1);
	pacer_session(l->pacer, s);
	if (sinks_begin(l->sinks, s, &why) != 0) {
		log_warnx("perfetto: %s", why);
		free(why);
	}
	if (l->real)
		live_procs_start(l);
	bridge_forget(l->bridge);
	/* The new scenario's speed, else the configured one: a lesson's
	   slow motion does not carry over into the next scenario. */
	pacer_restart(l->pacer, session_speed(s) > 0 ? session_speed(s) :
	    l->cfg.speed, !run);
	live_open(l);
	if (l->loaded != NULL)
		l->loaded(l->loaded_arg);
	notes_changed(l->notes);
	log_info("loaded %s (%s)", session_name(s), session_label(s));
}

/*
 * A client's `load` or `reset`: name is parsed on the loader's thread,
 * the loop going on meanwhile; then the switch is made (live_switch) and
 * w told "ok", or "err CAUSE" with the current session left running.
 * -1 with *cause, w told nothing, when it cannot start (a load is under
 * way already, a recording is replayed).
 */
int
live_load_client(struct live *l, const char *name, int run,
    struct pacer_wait *w, char **cause)
{
	if (l->replay != NULL) {
		*cause = xasprintf("replaying a recording: `part N` moves "
		    "between its %d parts", l->replay_j->nparts);
		return (-1);
	}
	l->load_run = run;
	if (l->loader == NULL)
		l->loader = loader_create(l->base, l->catalog, live_loaded, l);
	if (loader_start(l->loader, name, cause) != 0)
		return (-1);
	l->load_wait = w;
	return (0);
}

/* The loader parsed a client's load: make the switch, tell the client. */
static void
live_loaded(void *arg, struct scenario *sc, char *label, char *cause)
{
	struct live		*l = arg;
	struct pacer_wait	*w = l->load_wait;
	struct session		*s = NULL;
	char			*line;

	l->load_wait = NULL;
	if (sc != NULL)
		s = live_session_make(l, sc, label, &cause);
	if (s == NULL) {
		line = xasprintf("err %s\n", cause);
		free(cause);
		if (w != NULL)
			w->done(w, line);
		free(line);
		return;
	}
	/*
	 * The loader's client is told first: its next lines then run
	 * before those of a client whose step the switch cancels, and see
	 * the new session as it starts (nothing runs in between).
	 */
	if (w != NULL)
		w->done(w, "ok\n");
	live_switch_to(l, s, l->load_run);
	notes_add(l->notes, session_now(s), "loaded %s", session_name(s));
}

/* A client waiting for its load went away: the load goes on. */
void
live_load_forget(struct live *l, struct pacer_wait *w)
{
	if (l->load_wait == w)
		l->load_wait = NULL;
}

/* `record PATH`: the journal so far, then every change, into PATH. */
int
live_record(struct live *l, const char *path, char **cause)
{
	return (sinks_record(l->sinks, l->session, path, cause));
}

/* The status line's fields; clients: how many are connected. */
void
live_status(struct live *l, struct proto_status *st, int clients)
{
	const struct engine		*e = live_engine(l);
	const struct engine_params	*p = engine_params(e);
	struct procs			*procs = bridge_procs(l->bridge);

	memset(st, 0, sizeof *st);
	st->tick = engine_now(e);
	st->now = session_now(l->session);
	st->live = !session_viewing(l->session);
	st->cpus = p->cpus;
	st->tasks = engine_ntasks(e);
	st->alive = engine_nlive(e);
	st->paused = pacer_paused(l->pacer);
	st->speed = pacer_speed(l->pacer);
	st->rr = p->rr_interval;
	st->cgroups = procs != NULL ? procs_cgroup_mode(procs) : "none";
	st->observe = procs != NULL ? procs_observe_mode(procs) : "proc";
	st->lag = pacer_lag(l->pacer);
	st->clients = clients;
	st->scenario = session_name(l->session);
	st->description = session_description(l->session);
	st->sleep = l->cfg.default_sleep;
	st->policy = engine_get_policy(e)->name;
	st->picture = engine_get_policy(e)->picture;
	st->compare = l->ncompare > 0 ? l->compare_text : NULL;
	st->shadow = session_nshadows(l->session) > 0;
	st->record = sinks_record_state(l->sinks);
	st->ask = l->ask == LIVE_ASK_OPEN ? "open" :
	    l->ask == LIVE_ASK_REVEALED ? "revealed" : "none";
	st->votes = live_votes(l);
	st->parts = live_parts(l, &st->part);
}

/*
 * Task ti's line as the live daemon shows it, into buf: a real task's
 * pid, CPU time and how it ended too (real: ti is the present engine's,
 * not a shadow's).  Returns its length.
 */
size_t
live_task_line(struct live *l, const struct engine *e,
    const struct engine_task_info *ti, int real, char *buf, size_t len)
{
	struct format_real	fr;
	char			ex[96];

	real = real && ti->kind == ENGINE_REAL &&
	    bridge_real(l->bridge, ti->id, &fr, ex, sizeof ex) == 0;
	return (format_task_line(buf, len, e, ti, real ? &fr : NULL));
}

/* Leave the event loop (the engine caught up); main cleans up. */
void
live_shutdown(struct live *l)
{
	l->exiting = 1;
	pacer_stop(l->pacer);
	if (l->base != NULL)
		event_base_loopbreak(l->base);
}

/* Log one changed option on reload, and whether it applies now. */
static void
live_reload_diff(void *arg, const char *name, const char *old,
    const char *new, int now)
{
	if (now)
		log_info("reload: %s %s -> %s", name, old, new);
	else
		log_warnx("reload: %s %s -> %s needs a restart; keeping %s",
		    name, old, new, old);
}

/* SIGHUP: read the config again and apply what can change live. */
void
live_reload(struct live *l)
{
	struct config	 nc;
	char		*cause = NULL;
	int		 n;

	if (l->config_path == NULL) {
		log_info("reload: no configuration file (started without -c)");
		return;
	}
	config_defaults(&nc);
	if (config_load(l->config_path, &nc, &cause) != 0) {
		log_warnx("reload failed, keeping the running settings: %s",
		    cause);
		free(cause);
		config_free(&nc);
		return;
	}
	n = config_diff(&l->cfg, &nc, live_reload_diff, NULL);
	if (n == 0)
		log_info("reload: %s: nothing changed", l->config_path);
	if (nc.speed != l->cfg.speed)
		pacer_set_speed(l->pacer, nc.speed);
	if (nc.log_level != l->cfg.log_level)
		log_set_level(nc.log_level);
	/* The rest are read where they are used. */
	config_apply_live(&l->cfg, &nc);
	config_free(&nc);
}
