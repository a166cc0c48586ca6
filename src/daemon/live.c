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
 * speed) act on the clock.  Sessions are made and switched to in
 * live-load.c, the room's question is kept in live-room.c (live-int.h).
 */
#include <event2/event.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge.h"
#include "catalog.h"
#include "engine.h"
#include "format.h"
#include "journal.h"
#include "lesson.h"
#include "live-int.h"
#include "live.h"
#include "loader.h"
#include "log.h"
#include "notes.h"
#include "pacer.h"
#include "path.h"
#include "proc.h"
#include "protocol.h"
#include "sinks.h"
#include "whys.h"
#include "xmalloc.h"

static void	live_tick(void *, int);
static void	live_enforce(void *);

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
void
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
void
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

/* What part n (1..live_parts) of the recording replayed is. */
const struct journal_part *
live_part_info(const struct live *l, int n)
{
	return (&l->replay_j->parts[n - 1]);
}

/* The recording replayed (NULL: none). */
const char *
live_replay_path(const struct live *l)
{
	return (l->replay);
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
 * at the resume or step that shows it), so a client can hold each on
 * screen and keep them in its event log, though the next may follow in
 * a few ms of ticks.  A pause or an ask stops the clock (the engine made
 * its text the caption; an ask's answer waits for the clock to go on:
 * live_room_go_on), a speed event sets the speed, a mark (a chapter)
 * and a policy switch are narrated.  The pacer stops running ticks when the clock pauses or
 * changes speed.  tick: the tick it fired at.
 */
static void
live_lesson(struct live *l, const struct lesson_event *ev, uint64_t tick)
{
	live_room_event(l, ev);		/* the room's question */
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
void
live_open(struct live *l)
{
	const struct lesson_event	*ev;
	size_t				 i, n;

	/* The room's question was the old session's. */
	live_room_close(l);

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
 * The clock goes on from the present (a resume, a step): a branch made
 * first; a question the lesson asked is answered, its votes revealed.
 */
static void
live_go_on(struct live *l)
{
	live_leave_past(l);
	live_room_go_on(l);
}

/* resume: the clock runs on, from the past shown or a question. */
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
