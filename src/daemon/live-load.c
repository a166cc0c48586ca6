/*
 * live-load.c -- the live daemon's sessions: made and switched to.
 *
 * A session is made of a scenario (the command line's, a `load`, a
 * `reset`) or of a part of a recording replayed (stairsd --replay), and
 * carries the shadows of `compare` from the one before.  A `load` makes
 * the new session first and only then ends the old one, so a scenario
 * that fails leaves the present running; a client's load is parsed on
 * the loader's thread (loader.c) while the loop goes on.  The files
 * (sinks.c) go on with the new session, and `record` moves the journal.
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge.h"
#include "catalog.h"
#include "engine.h"
#include "journal.h"
#include "live-int.h"
#include "live.h"
#include "loader.h"
#include "log.h"
#include "notes.h"
#include "pacer.h"
#include "path.h"
#include "sinks.h"
#include "table.h"
#include "whys.h"
#include "xmalloc.h"

#define LIVE_TABLE_ROWS	TABLE_ROWS	/* as headless --table */

static void	live_loaded(void *, struct scenario *, char *, char *);
static void	live_switch_to(struct live *, struct session *, int);

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
 * A new session as every live one runs: each pick explained (frames'
 * why lines) and the comparison going on, from its tick 0 (a failure
 * said in the log: the policies were checked when it was set).
 */
static void
live_session_ready(struct live *l, struct session *s)
{
	char	*cause = NULL;

	session_explain(s, 1);
	if (l->ncompare > 0 && session_compare_set(s, l->compare,
	    l->ncompare, &cause) != 0) {
		log_warnx("compare %s: %s", l->compare_text, cause);
		free(cause);
	}
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
		/* The scenario's shadows (compare = "o1,cfs"), else ours. */
		if (s != NULL && sc->compare != NULL)
			live_compare_scenario(l, sc->compare);
		if (s != NULL)
			live_session_ready(l, s);
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
	live_session_ready(l, s);
	session_feed(s, j->changes, j->nchanges, 0, l->replay);
	session_view_only(s);
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
 * A recording replayed takes no load (1, with *cause saying what does
 * move it: `part N`); 0 otherwise.
 */
static int
live_replaying(const struct live *l, char **cause)
{
	if (l->replay == NULL)
		return (0);
	*cause = xasprintf("replaying a recording: `part N` moves between "
	    "its %d parts", l->replay_j->nparts);
	return (1);
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

	if (live_replaying(l, cause))
		return (-1);
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
	if (live_replaying(l, cause))
		return (-1);
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
