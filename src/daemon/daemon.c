/*
 * daemon.c -- the live daemon, stairsd without --headless: options, the
 * configuration, the scenario, detaching, signals, and the tick clock
 * that advances the engine in real time.
 *
 * Start-up does everything that can fail (config, scenario, socket, trace
 * file) before detaching, so errors reach the caller's terminal with exit
 * status 2 (bad input) or 1 (the system said no), and the parent exits
 * only once the socket is listening and the event loop is ready:
 * "stairsd && socat - UNIX-CONNECT:..." works.
 *
 * The tick path (daemon_tick_once) is where the real-process layer hooks
 * in; see docs/DAEMON.md.
 */
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <event2/event.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <malloc.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "change.h"
#include "daemon.h"
#include "kruns.h"
#include "log.h"
#include "path.h"
#include "paths.h"
#include "perfetto.h"
#include "proc.h"
#include "runs.h"
#include "scenario.h"
#include "server.h"
#include "session.h"
#include "sock.h"
#include "stairsd.h"
#include "table.h"
#include "xmalloc.h"

#define DAEMON_LEDGER_ROWS	TABLE_ROWS	/* as headless --table */
#define DAEMON_STEP_SLICE_NS	5000000ULL	/* a step's ticks per loop turn */
#define DAEMON_BATCH_NS		250000000ULL	/* longest sleep, batching */
#define DAEMON_BATCH_TICKS	1000		/* most ticks a batch owes */
#define DAEMON_QUIET_TICKS	50		/* most a sleeping clock owes */

/*
 * A `step N` under way: its ticks run in slices of a few ms, each a turn
 * of the event loop, so other clients and signals are served meanwhile.
 */
struct daemon_step {
	struct event		*ev;		/* the next slice */
	uint64_t		 total, done;
	int			 active;
	struct server_client	*client;	/* waits for the reply; NULL */
	/*
	 * `step event`: stop after the tick that brought an event (the
	 * event count as it started).  A caption is one too: every new
	 * caption, question or answer is narrated (daemon_lesson).
	 */
	int			 until_event;
	uint64_t		 event_seq;
	/*
	 * With real tasks alive the ticks take their wall time (at the
	 * speed), as when running, from t0: the children run for what
	 * the engine charges them.  Without, they run at once.
	 */
	int			 paced;
	uint64_t		 t0;
};

/* A scenario's real task: checked at load, spawned once detached. */
struct daemon_pending {
	int	  id;
	char	**argv;
};

struct daemon {
	struct event_base	*base;
	struct config		 cfg;
	char			*config_path;	/* NULL: defaults only */
	char			*socket_path;
	/* The scenario run now: engine, trace rows, table, journal. */
	struct session		*session;
	/* compare NAME: the shadow's policy, kept across loads; NULL: off. */
	const struct engine_policy *compare;
	struct clock		 clock;
	struct event		*timer;		/* on tick_fd */
	struct event		*wake;		/* procs_event_fd: a child woke */
	int			 tick_fd;	/* a periodic timerfd */
	int			 batched;	/* tick_fd armed for a batch */
	/*
	 * tick_fd armed past quiet ticks (daemon_sleeping), their number;
	 * in_ticks: running ticks (a change then re-arms after them).
	 */
	int			 sleeping;
	uint64_t		 quiet;
	int			 in_ticks;
	int			 real_ntasks;	/* daemon_real_live's cache: */
	int			 real_nlive;	/* the counts it was taken at */
	int			 real_live;	/* and what it found */
	uint64_t		 ticks_run;	/* since start, by the clock */

	FILE			*trace;		/* --trace (session writes) */
	char			*trace_path;	/* NULL: stdout or none */
	struct perfetto		*perfetto;	/* --perfetto */
	char			*perfetto_path;
	uint64_t		 perfetto_ns;	/* its last engine stamp */
	/*
	 * What the kernel ran (its runs of the children, read once a tick
	 * for both): per engine CPU and tick (kruns lines), and the
	 * Perfetto trace's kernel tracks.
	 */
	struct kruns		*kr;		/* NULL: no switch events */
	struct runs		*kruns;		/* NULL: no real task yet */
	uint64_t		*krcursor;	/* per physical CPU: runs read */
	uint64_t		 kr_next;	/* the next tick to settle */
	FILE			*record;	/* --record / record: journal */
	struct event		*flush;		/* flushes trace and record */
	char			*record_path;
	struct server		*server;
	struct procs		*procs;		/* NULL: no real processes */
	int			 off;		/* kept off the children's CPUs */
	cpu_set_t		 cpus0;		/* ours, while off */
	char			*bindir;	/* real tasks' programs */
	char		       **scenario_dirs;	/* scenario_path, absolute */
	size_t			 nscenario_dirs;
	char			*child_output;	/* children's logs */
	struct daemon_pending	*pending;	/* real tasks to spawn */
	size_t			 npending;

	struct daemon_event	 events[DAEMON_EVENTS];
	uint64_t		 event_seq;	/* seq of the newest event */
	/* The presenter's view (`view`) for followers; view_seq: its count. */
	char			 view[512];
	uint64_t		 view_seq;
	uint64_t		 gen;		/* moves on every change */
	struct daemon_step	 step;
	int			 exiting;
};

static void	daemon_arm(struct daemon *, uint64_t);
static int	daemon_real_live(struct daemon *);
static void	daemon_off(struct daemon *);
static int	daemon_batching(struct daemon *);
static int	daemon_sleeping(struct daemon *);
static uint64_t	daemon_tick_due(struct daemon *, uint64_t);
static uint64_t	daemon_early_ns(struct daemon *);
static void	daemon_perfetto_tick(struct daemon *, uint64_t);

static const struct option daemon_longopts[] = {
	{ "foreground", no_argument, NULL, 'f' },
	{ "config", required_argument, NULL, 'c' },
	{ "socket", required_argument, NULL, 'S' },
	{ "scenario", required_argument, NULL, 's' },
	{ "trace", required_argument, NULL, 't' },
	{ "record", required_argument, NULL, 'R' },
	{ "perfetto", required_argument, NULL, 'P' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

/* Print the usage to f. */
static void
daemon_usage(FILE *f)
{
	fprintf(f, "usage: stairsd [-f] [-c CONFIG] [-S SOCKET] "
	    "[--scenario NAME|FILE] [--trace FILE|-]\n"
	    "               [--record JOURNAL] [--perfetto PATH]\n"
	    "       stairsd --headless --scenario FILE --ticks N [...]\n"
	    "  -f, --foreground   stay in the foreground, log to stderr\n"
	    "  -c, --config FILE  configuration (default: "
	    "$XDG_CONFIG_HOME/stairs/stairsd.cfg,\n"
	    "                     else /etc/stairs/stairsd.cfg, if it exists)\n"
	    "  -S, --socket PATH  control socket (default: "
	    "$XDG_RUNTIME_DIR/stairs/socket or /tmp/stairs-UID/socket)\n"
	    "  --scenario NAME|FILE  scenario to run: a built-in one's name "
	    "or a file\n"
	    "                     (default: the config's, else the demo)\n"
	    "  --trace FILE       write the CSV trace live (- for stdout)\n"
	    "  --record JOURNAL   record the session's journal (replay it "
	    "with\n"
	    "                     stairsd --headless --replay JOURNAL)\n"
	    "  --perfetto PATH    write the run live as ftrace text for "
	    "Perfetto's UI,\n"
	    "                     with the kernel's switches of the real "
	    "tasks\n"
	    "  --help, --version\n"
	    "Drive it with: socat - UNIX-CONNECT:SOCKET (see "
	    "docs/PROTOCOL.md).\n");
}

/* Record a human line about something that happened at tick. */
static void
daemon_vnote(struct daemon *d, uint64_t tick, const char *fmt, va_list ap)
{
	struct daemon_event	*ev;

	d->event_seq++;
	ev = &d->events[d->event_seq % DAEMON_EVENTS];
	free(ev->text);
	ev->text = xvasprintf(fmt, ap);
	ev->seq = d->event_seq;
	ev->tick = tick;
	log_debug("event: %s", ev->text);
	daemon_changed(d);
}

/* Record a human line about something done now, for subscribers. */
void
daemon_note(struct daemon *d, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	daemon_vnote(d, session_now(d->session), fmt, ap);
	va_end(ap);
}

/* The same, at a given tick. */
static void __attribute__((format(printf, 3, 4)))
daemon_tick_note(struct daemon *d, uint64_t tick, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	daemon_vnote(d, tick, fmt, ap);
	va_end(ap);
}

/* The same, for something that happened during the tick just run. */
static void __attribute__((format(printf, 2, 3)))
daemon_note_ran(struct daemon *d, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	daemon_vnote(d, session_now(d->session) - 1, fmt, ap);
	va_end(ap);
}

/* The session narrates something at tick (a fired event, an exit). */
static void
daemon_session_note(void *arg, uint64_t tick, const char *text)
{
	struct daemon	*d = arg;
	struct daemon_event	*ev;

	d->event_seq++;
	ev = &d->events[d->event_seq % DAEMON_EVENTS];
	free(ev->text);
	ev->text = xstrdup(text);
	ev->seq = d->event_seq;
	ev->tick = tick;
	log_debug("event: %s", ev->text);
	daemon_changed(d);
}

/* Why a real task ended, as its process says; -1 if it does not. */
static int
daemon_exit_reason(void *arg, int id, char *buf, size_t len)
{
	struct daemon		*d = arg;
	struct procs_info	 info;

	if (d->procs == NULL || procs_info(d->procs, id, &info) != 0 ||
	    info.by_engine || info.exit[0] == '\0')
		return (-1);
	snprintf(buf, len, "%s", info.exit);
	return (0);
}

/* The engine, to read. */
const struct engine *
daemon_engine(const struct daemon *d)
{
	return (session_engine(d->session));
}

/*
 * A daemon with base and the clock's timerfd, scenario loaded, its clock
 * paused at tick 0, no socket (the fuzz harness runs commands on it);
 * NULL with *cause.  daemon_free() then free() it.
 */
struct daemon *
daemon_create(struct event_base *base, int tick_fd, const char *scenario,
    char **cause)
{
	struct daemon	*d;

	d = xcalloc(1, sizeof *d);
	d->base = base;
	d->tick_fd = tick_fd;
	config_defaults(&d->cfg);
	if (daemon_load(d, scenario, cause) != 0) {
		daemon_free(d);
		free(d);
		return (NULL);
	}
	clock_init(&d->clock, 1.0, clock_now_ns(), 0);
	clock_pause(&d->clock);
	return (d);
}

/* Has shutdown been asked for? */
int
daemon_exiting(const struct daemon *d)
{
	return (d->exiting);
}

/* The session run now: its calls change and read it. */
struct session *
daemon_session(const struct daemon *d)
{
	return (d->session);
}

/*
 * compare NAME (NULL: off): a shadow engine under another policy beside
 * the enforced one (SPEC.md section 6), kept across load and reset.
 */
int
daemon_compare(struct daemon *d, const struct engine_policy *pol,
    char **cause)
{
	const struct engine_policy	*old = d->compare;

	if (session_compare(d->session, pol, cause) != 0)
		return (-1);
	d->compare = pol;
	daemon_changed(d);
	daemon_note(d, "compare %s -> %s", old != NULL ? old->name : "off",
	    pol != NULL ? pol->name : "off");
	return (0);
}

/* The configuration, to read. */
const struct config *
daemon_config(const struct daemon *d)
{
	return (&d->cfg);
}

/* The event loop. */
struct event_base *
daemon_base(const struct daemon *d)
{
	return (d->base);
}

/* The real processes, NULL if they are not available. */
struct procs *
daemon_procs(const struct daemon *d)
{
	return (d->procs);
}

/*
 * What the kernel ran on each engine CPU, tick by tick (the kruns
 * lines), NULL without the kernel's switch events or before the first
 * real task.
 */
const struct runs *
daemon_kruns(const struct daemon *d)
{
	return (d->kruns);
}

/* Is the clock paused? */
int
daemon_paused(const struct daemon *d)
{
	return (d->clock.paused);
}

/* The clock's speed, ticks per ms. */
double
daemon_speed(const struct daemon *d)
{
	return (d->clock.speed);
}

/* Moves on every change subscribers would see. */
uint64_t
daemon_gen(const struct daemon *d)
{
	return (d->gen);
}

/* The seq of the newest event line (0: none yet). */
uint64_t
daemon_event_seq(const struct daemon *d)
{
	return (d->event_seq);
}

/* The presenter's view (`view` pairs) and how many were set (0: none). */
const char *
daemon_view(const struct daemon *d, uint64_t *seq)
{
	*seq = d->view_seq;
	return (d->view);
}

/* A presenter's view (`view`): the last to say leads; frames tell. */
void
daemon_set_view(struct daemon *d, const char *pairs)
{
	snprintf(d->view, sizeof d->view, "%s", pairs);
	d->view_seq++;
}

/* The oldest event seq still kept. */
uint64_t
daemon_event_first(const struct daemon *d)
{
	return (d->event_seq >= DAEMON_EVENTS ?
	    d->event_seq - DAEMON_EVENTS + 1 : 1);
}

/* Event seq, or NULL if it is not kept (too old, or not yet). */
const struct daemon_event *
daemon_event(const struct daemon *d, uint64_t seq)
{
	if (seq == 0 || seq > d->event_seq || seq < daemon_event_first(d))
		return (NULL);
	return (&d->events[seq % DAEMON_EVENTS]);
}

/* The scenario path's directories, absolute. */
char *const *
daemon_scenario_dirs(const struct daemon *d, size_t *n)
{
	*n = d->nscenario_dirs;
	return (d->scenario_dirs);
}

/* Client c is gone: a step it waited for runs on, with no one to tell. */
void
daemon_step_forget(struct daemon *d, struct server_client *c)
{
	if (d->step.client == c)
		d->step.client = NULL;
}

/* Something subscribers see changed. */
void
daemon_changed(struct daemon *d)
{
	d->gen++;
}

/*
 * Make a change to the engine through the session (which journals it),
 * from a command or the real-process layer.  0 (CHANGE_ADD: the new
 * task's id), or -1 with *cause.
 */
int
daemon_change(struct daemon *d, const struct change *ch, char **cause)
{
	int	r;

	if ((r = session_change(d->session, ch, cause)) < 0)
		return (-1);
	daemon_changed(d);
	/*
	 * A real task added to a batching clock: back to ticking.  A
	 * sleeping clock's quiet ticks may end sooner now.
	 */
	if (d->timer != NULL && !d->clock.paused && !d->in_ticks &&
	    (daemon_batching(d) != d->batched || d->sleeping ||
	    daemon_sleeping(d)))
		daemon_arm(d, clock_now_ns());
	return (r);
}

/* The real-process layer's changes (blocks, wakes, exits). */
static int
daemon_procs_change(void *arg, const struct change *ch, char **cause)
{
	return (daemon_change(arg, ch, cause));
}

/* The real-process part of a task line, from procs_info. */
int
daemon_real(struct daemon *d, int id, struct format_real *real, char *exitbuf,
    size_t len)
{
	struct procs_info	info;

	memset(real, 0, sizeof *real);
	if (d->procs == NULL || procs_info(d->procs, id, &info) != 0)
		return (-1);
	real->pid = info.pid;
	real->cputime_ms = info.cputime_ms;
	real->stolen_ms = info.stolen_ms;
	/* Ended by the engine (kill, runtime): the engine's word says it. */
	if (info.exit[0] != '\0' && !info.by_engine) {
		snprintf(exitbuf, len, "%s", info.exit);
		real->exit = exitbuf;
	}
	return (0);
}

/* The status line's fields. */
void
daemon_status(struct daemon *d, struct proto_status *st)
{
	const struct engine		*e = daemon_engine(d);
	const struct engine_params	*p = engine_params(e);

	memset(st, 0, sizeof *st);
	st->tick = engine_now(e);
	st->now = session_now(d->session);
	st->live = !session_viewing(d->session);
	st->cpus = p->cpus;
	st->tasks = engine_ntasks(e);
	st->alive = engine_nlive(e);
	st->paused = d->clock.paused;
	st->speed = d->clock.speed;
	st->rr = p->rr_interval;
	st->cgroups = d->procs != NULL ? procs_cgroup_mode(d->procs) : "none";
	st->observe = d->procs != NULL ? procs_observe_mode(d->procs) : "proc";
	st->lag = d->clock.lag;
	st->clients = d->server != NULL ? server_nclients(d->server) : 0;
	st->scenario = session_name(d->session);
	st->description = session_description(d->session);
	st->sleep = d->cfg.default_sleep;
	st->policy = engine_get_policy(e)->name;
	st->compare = d->compare != NULL ? d->compare->name : NULL;
	st->shadow = session_shadow(d->session) != NULL;
}

/*
 * A lesson event fired (SPEC.md section 7); 0 if ev is none.  A caption,
 * a pause's text and an ask's question are narrated with their text
 * (`caption: TEXT`, `question: TEXT`; the answer, `answer: TEXT`, at the
 * resume that shows it), so a client can hold each on screen and keep
 * them in its event log, though the next may follow in a few ms of
 * ticks.  A pause or an ask stops the clock (the engine made its text
 * the caption; an ask's answer waits for the next resume:
 * daemon_resume), a speed event sets
 * the speed, a mark (a chapter) and a policy switch are narrated.  The
 * caller stops running ticks when the clock pauses or changes speed.
 */
static int
daemon_lesson(struct daemon *d, const struct engine_event *ev)
{
	switch (ev->action) {
	case ENGINE_ACT_CAPTION:
		/* Its text, so a client misses none (frames show the last). */
		daemon_note_ran(d, "caption: %s", ev->text != NULL ? ev->text :
		    "");
		return (1);
	case ENGINE_ACT_PAUSE:
	case ENGINE_ACT_ASK:
		if (ev->text != NULL && *ev->text != '\0')
			daemon_note_ran(d, "%s: %s", ev->action ==
			    ENGINE_ACT_ASK ? "question" : "caption", ev->text);
		if (!d->clock.paused) {
			daemon_pause(d);
			daemon_note_ran(d, "paused by the scenario%s",
			    ev->action == ENGINE_ACT_ASK ? ": a question" : "");
		}
		return (1);
	case ENGINE_ACT_SPEED:
		daemon_speed_to(d, ev->speed, session_now(d->session) - 1, "");
		return (1);
	case ENGINE_ACT_MARK:
		daemon_note_ran(d, "mark: %s", ev->text);
		return (1);
	case ENGINE_ACT_POLICY:
		daemon_note_ran(d, "policy -> %s", ev->policy->name);
		return (1);
	default:
		return (0);
	}
}

/* The lesson events that fired in the tick just run (the session
 * narrates the others). */
static void
daemon_lessons(struct daemon *d)
{
	const struct engine_event	*ev;
	size_t				 i, n;

	ev = engine_fired(daemon_engine(d), &n);
	for (i = 0; i < n; i++)
		daemon_lesson(d, &ev[i]);
}

/*
 * What the kernel ran in a tick, put beside what the engine decided: for
 * each engine CPU, what held its physical CPU longest between the
 * tick's decisions being enforced and the next tick's (kruns.c).  A tick
 * is settled two ticks late, once the switch records of its whole span
 * have been read (procs_observe reads them at the start of each tick).
 * The ring starts with the first tick a real task is alive.
 */
static void
daemon_kruns_tick(struct daemon *d, uint64_t tick)
{
	struct procs_krun	 open;
	uint64_t		 from, to;
	int			 c, p, what;

	if (tick < 2)
		return;
	if (d->kruns == NULL) {
		if (!daemon_real_live(d))
			return;
		d->kruns = runs_create(engine_params(
		    session_live_engine(d->session))->cpus, RUNS_KEEP_CAP,
		    RUNS_KEEP_TICKS);
	}
	tick -= 2;
	from = procs_tick_ns(d->procs, tick);
	to = procs_tick_ns(d->procs, tick + 1);
	for (c = 0; c < runs_ncpus(d->kruns); c++) {
		p = procs_phys_cpu(d->procs, c);
		what = KRUNS_UNKNOWN;
		if (from != 0 && to > from)
			what = kruns_tick(d->kr, p, from, to,
			    procs_kernel_running(d->procs, p, &open) ?
			    &open : NULL);
		runs_put(d->kruns, c, tick, what, -1, 1);
	}
}

/* A kernel run into the Perfetto trace's kernel track (open: to_ns 0). */
static void
daemon_perfetto_run(struct daemon *d, const struct procs_krun *r)
{
	struct engine_task_info	ti;
	uint64_t		to = 0;

	if (engine_task_info(session_live_engine(d->session), r->task,
	    &ti) != 0)
		ti.name = "?";
	if (r->to_ns != 0 && (to = procs_engine_ns(d->procs, r->to_ns)) == 0)
		to = 1;				/* 0 is "open" */
	perfetto_kernel_run(d->perfetto, r->cpu, r->pid, ti.name, r->prio,
	    procs_engine_ns(d->procs, r->from_ns), to,
	    r->to_ns != 0 ? r->state : 'R', r->preempted, r->next);
}

/*
 * The kernel's runs of the children closed since the last look, every
 * physical CPU's, read once for both their readers: the ticks' kruns and
 * the Perfetto trace.  Records lost since a CPU's last run leave what it
 * ran after that run unknown; a run closed after the loss says what came
 * next again (and that the gap before it is not known).
 */
static void
daemon_kernel_drain(struct daemon *d)
{
	struct procs_krun	 r[64];
	size_t			 n, i;
	int			 p, nk = procs_kernel_ncpus(d->procs);

	for (p = 0; p < nk; p++) {
		while ((n = procs_kernel_runs(d->procs, p, &d->krcursor[p], r,
		    64)) > 0) {
			for (i = 0; i < n; i++) {
				kruns_add(d->kr, &r[i]);
				if (d->perfetto != NULL)
					daemon_perfetto_run(d, &r[i]);
			}
		}
		if (procs_kernel_lost(d->procs, p))
			kruns_lost(d->kr, p);
	}
}

/* Start keeping what the kernel ran, if its switch events are read. */
static void
daemon_kruns_start(struct daemon *d)
{
	int	nk = procs_kernel_ncpus(d->procs);

	if (nk == 0)
		return;
	d->kr = kruns_create(nk);
	d->krcursor = xcalloc(nk, sizeof *d->krcursor);
	d->kr_next = session_now(d->session);
}

/* Stop it (the real-process layer ends). */
static void
daemon_kruns_stop(struct daemon *d)
{
	kruns_free(d->kr);
	d->kr = NULL;
	runs_free(d->kruns);
	d->kruns = NULL;
	free(d->krcursor);
	d->krcursor = NULL;
}

/*
 * Make the real processes do what the tick just run decided.  Then the
 * kernel's runs, once every tick up to the present is stamped (a run
 * after a tick's stamp would map onto that tick), and the ticks since
 * the last settle, in order.
 */
static void
daemon_tick_enforce(struct daemon *d, uint64_t tick)
{
	if (d->procs != NULL)
		procs_enforce(d->procs);
	if (d->kr == NULL)
		return;
	daemon_kernel_drain(d);
	for (; d->kr_next <= tick; d->kr_next++)
		daemon_kruns_tick(d, d->kr_next);
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
daemon_tick_once(struct daemon *d, int last)
{
	uint64_t	tick = session_now(d->session);

	if (d->procs != NULL && last)
		procs_observe(d->procs);
	session_tick(d->session);
	/*
	 * The tick into the Perfetto trace before it is enforced: the
	 * enforcing may act on a wake at once (procs_enforce reads the
	 * records its signals made, and any wake since), which goes in
	 * after the tick's switches (daemon_procs_woke).
	 */
	if (d->perfetto != NULL)
		daemon_perfetto_tick(d, tick);
	if (last)
		daemon_tick_enforce(d, tick);
	else if (d->procs != NULL)
		procs_stamp(d->procs, daemon_tick_due(d, tick));
	daemon_lessons(d);
	d->ticks_run++;
	daemon_changed(d);
}

/*
 * The end of the Perfetto trace's kernel tracks: the runs closed since
 * the last tick, then those still open.
 */
static void
daemon_perfetto_kernel_end(struct daemon *d)
{
	struct procs_krun	 r;
	int			 p;

	if (d->kr == NULL)
		return;
	daemon_kernel_drain(d);
	for (p = 0; p < procs_kernel_ncpus(d->procs); p++) {
		if (procs_kernel_running(d->procs, p, &r))
			daemon_perfetto_run(d, &r);
	}
}

/*
 * The tick just run into the Perfetto trace, at engine time (tick ms,
 * SPEC.md section 9, as headless); the kernel's runs closed since follow
 * (daemon_kernel_drain), put on the same time line (procs_engine_ns).
 */
static void
daemon_perfetto_tick(struct daemon *d, uint64_t tick)
{
	perfetto_tick(d->perfetto, session_live_engine(d->session), tick);
	d->perfetto_ns = tick * 1000000ULL;
}

/*
 * Start the Perfetto trace (again: a load starts it anew): engine CPU
 * tracks for the session, kernel tracks for every physical CPU; 0 or -1
 * with *cause.
 */
static int
daemon_perfetto_open(struct daemon *d, char **cause)
{
	int	nk = (int)sysconf(_SC_NPROCESSORS_CONF);

	if (nk < 1)
		nk = 1;
	d->perfetto = perfetto_open(d->perfetto_path,
	    engine_params(session_live_engine(d->session))->cpus, nk, cause);
	if (d->perfetto == NULL)
		return (-1);
	d->perfetto_ns = 0;
	return (0);
}

/* End the Perfetto trace: the kernel's last runs, then close it. */
static void
daemon_perfetto_close(struct daemon *d)
{
	char	*cause = NULL;

	if (d->perfetto == NULL)
		return;
	daemon_perfetto_kernel_end(d);
	if (perfetto_close(d->perfetto, &cause) != 0) {
		log_warnx("%s: %s", d->perfetto_path, cause);
		free(cause);
	}
	d->perfetto = NULL;
}

/*
 * Whether a real task is alive, cached on the task counts: tasks are only
 * added and only exit, so the set of live ones changes only when one of
 * the two counts does.
 */
static int
daemon_real_live(struct daemon *d)
{
	struct engine_task_info	ti;
	int			id, n, live;

	n = engine_ntasks(session_live_engine(d->session));
	live = engine_nlive(session_live_engine(d->session));
	if (n == d->real_ntasks && live == d->real_nlive)
		return (d->real_live);
	d->real_ntasks = n;
	d->real_nlive = live;
	d->real_live = 0;
	for (id = 1; id <= n; id++) {
		if (engine_task_info(session_live_engine(d->session), id,
		    &ti) == 0 && ti.kind == ENGINE_REAL &&
		    ti.state != ENGINE_EXITED) {
			d->real_live = 1;
			break;
		}
	}
	return (d->real_live);
}

/*
 * Whether the clock may run in batches: no real task alive (nothing
 * outside the engine moves with the wall clock) and not disabled by
 * `batch = false`.
 */
static int
daemon_batching(struct daemon *d)
{
	return (d->cfg.batch && !daemon_real_live(d));
}

/*
 * Whether the clock may sleep through quiet ticks: real tasks alive,
 * whose blocks and wakes the kernel's events bring at once (procs_quiet
 * says whether it may now), and `batch` not turned off.  The ticks
 * engine_quiet promises run what the last one ran on every CPU, so no
 * real task need be signalled for them: the clock wakes for the first
 * tick that may change, runs the quiet ones before it at once (each
 * stamped with its own time: procs_stamp) and enforces that one.  A
 * wake or block between comes through procs_event_fd (daemon_procs_wake)
 * and brings the next tick back to its own time.
 */
static int
daemon_sleeping(struct daemon *d)
{
	const struct engine	*e = session_live_engine(d->session);

	return (d->cfg.batch && d->procs != NULL && daemon_real_live(d) &&
	    engine_get_policy(e)->quiet != NULL &&
	    procs_quiet(d->procs) != -1);
}

/* When the clock's tick becomes due (run, as ticking, on time). */
static uint64_t
daemon_tick_due(struct daemon *d, uint64_t tick)
{
	uint64_t	at = clock_next_ns(&d->clock, tick + 1), now;

	now = clock_now_ns();
	return (at < now ? at : now);
}

/*
 * How long a batching clock sleeps: DAEMON_BATCH_NS, but no longer than
 * DAEMON_BATCH_TICKS take at the speed (at speed 100, 10 ms), so that a
 * batch never holds up the loop much longer than ticking would; at
 * least 1 ms, the ticking clock's own shortest period.
 */
static uint64_t
daemon_batch_ns(const struct daemon *d)
{
	long double	ns = DAEMON_BATCH_TICKS * 1e6L / d->clock.speed;

	if (ns > DAEMON_BATCH_NS)
		return (DAEMON_BATCH_NS);
	if (ns < 1000000)
		return (1000000);
	return ((uint64_t)ns);
}

/*
 * Arm the clock's timerfd.  Ticking (a real task alive): first when the
 * next tick is due, then every period (one tick, but at least 1 ms: at
 * high speed one wake-up runs several ticks).  A periodic timerfd
 * re-arms itself in the kernel, so a wake-up costs one read(), not a
 * timerfd_settime() as libevent's own timers would.  Batching: once,
 * daemon_batch_ns() from now (or when the next tick is due, if later);
 * frames and commands catch the engine up in between (daemon_catchup)
 * and push the wake-up back.  Sleeping (daemon_sleeping): once, when the
 * first tick after the quiet ones is due, or sooner for an early tick
 * that could not run yet.  Paused or exiting: disarmed.
 */
static void
daemon_arm(struct daemon *d, uint64_t now)
{
	struct itimerspec	its;
	uint64_t		at, period, early;

	memset(&its, 0, sizeof its);
	d->batched = 0;
	d->sleeping = !d->clock.paused && !d->exiting && daemon_sleeping(d);
	d->quiet = 0;
	/*
	 * The children's blocks wake the loop only while the clock sleeps
	 * (a ticking one reads them at the tick: a wake-up each is waste).
	 */
	if (d->procs != NULL)
		procs_block_wakeups(d->procs, d->sleeping);
	if (d->sleeping) {
		/* Once, at the first tick that may change. */
		if (procs_quiet(d->procs) == 1)
			d->quiet = engine_quiet(session_live_engine(d->session),
			    DAEMON_QUIET_TICKS);
		at = clock_next_ns(&d->clock, session_now(d->session) +
		    d->quiet + 1);
		/*
		 * An early tick asked for that could not run yet (the engine
		 * already at its lead, or asked by what the enforcing read,
		 * which takes the rings' readiness): when it may.
		 */
		if ((early = daemon_early_ns(d)) != 0 && early < at)
			at = early;
		period = clock_period_ns(&d->clock);
		if (d->clock.speed > 1 && at < now + period)
			at = now + period;
		its.it_value.tv_sec = (time_t)(at / 1000000000ULL);
		its.it_value.tv_nsec = (long)(at % 1000000000ULL);
	} else if (!d->clock.paused && !d->exiting && daemon_batching(d)) {
		d->batched = 1;
		at = clock_next_ns(&d->clock, session_now(d->session) + 1);
		if (at < now + daemon_batch_ns(d))
			at = now + daemon_batch_ns(d);
		its.it_value.tv_sec = (time_t)(at / 1000000000ULL);
		its.it_value.tv_nsec = (long)(at % 1000000000ULL);
	} else if (!d->clock.paused && !d->exiting) {
		at = clock_next_ns(&d->clock, session_now(d->session) + 1);
		period = clock_period_ns(&d->clock);
		if (d->clock.speed > 1 && at < now + period)
			at = now + period;
		its.it_value.tv_sec = (time_t)(at / 1000000000ULL);
		its.it_value.tv_nsec = (long)(at % 1000000000ULL);
		its.it_interval.tv_sec = (time_t)(period / 1000000000ULL);
		its.it_interval.tv_nsec = (long)(period % 1000000000ULL);
	}
	if (timerfd_settime(d->tick_fd, TFD_TIMER_ABSTIME, &its, NULL) != 0)
		fatal("timerfd_settime");
}

/*
 * From when the tick in progress may run early, for a block or wake the
 * real tasks' events brought (procs_early: how far ahead); 0 if nothing
 * asks.  daemon_catchup runs it, daemon_arm wakes for it.
 */
static uint64_t
daemon_early_ns(struct daemon *d)
{
	if (d->procs == NULL)
		return (0);
	return (clock_early_ns(&d->clock, session_now(d->session),
	    procs_early(d->procs)));
}

/*
 * Run the ticks the wall clock says are due.  The timer calls it, and so
 * does every way in that shows or changes the engine, once, first: a
 * frame (server_frame_tick), a command (command_run: pause, speed and
 * shutdown too) and a signal (daemon_signal: exit, reload).  With the
 * clock batching, the engine is first caught up to the tick the wall
 * clock says, so what it shows or changes lands at the same tick as if
 * it had ticked all along.
 * Batching, the ticks slept through on purpose are run, not lag.
 */
void
daemon_catchup(struct daemon *d)
{
	uint64_t	now, n, allow = 0, early;
	int		enforced = 1;	/* the last tick run was */
	double		speed = d->clock.speed;

	/* A real task came or went (a ticking clock is not re-armed). */
	daemon_off(d);
	if (d->clock.paused || d->exiting || d->timer == NULL)
		return;
	now = clock_now_ns();
	if (d->batched)
		allow = clock_ticks_in(&d->clock, daemon_batch_ns(d));
	else if (d->sleeping)
		allow = d->quiet;
	n = clock_take_more(&d->clock, now, session_now(d->session),
	    allow);
	/*
	 * Sleeping, a task the engine runs blocked (its CPU idles until
	 * the tick in progress runs) or a wake was acted on (the engine is
	 * to hear of it at that tick): run it now, before its time, as
	 * the kernel's schedule() would not wait (daemon_early_ns).
	 */
	if (n == 0 && d->sleeping && (early = daemon_early_ns(d)) != 0 &&
	    now >= early)
		n = 1;
	/* A scenario's pause, ask or speed event ends the run here. */
	d->in_ticks = 1;
	while (n-- > 0 && !d->exiting && !d->clock.paused &&
	    d->clock.speed == speed)
		daemon_tick_once(d, (enforced = n == 0));
	/*
	 * A lesson's speed ended the run early: enforce its end (a pause
	 * held every real task, as it should stay).
	 */
	if (!enforced && !d->clock.paused && !d->exiting)
		daemon_tick_enforce(d, session_now(d->session) - 1);
	d->in_ticks = 0;
	/*
	 * Batching: sleep a full batch again; sleeping: to the next tick
	 * that may change; or the mode changed.
	 */
	if (d->batched || d->sleeping || daemon_batching(d) != d->batched ||
	    daemon_sleeping(d))
		daemon_arm(d, now);
}

/* The clock's timer fired: run the ticks that are due. */
static void
daemon_timer(evutil_socket_t fd, short events, void *arg)
{
	struct daemon	*d = arg;
	uint64_t	 expirations;

	(void)read(fd, &expirations, sizeof expirations);
	daemon_catchup(d);
}

/*
 * Viewing the past (a seek), the clock is to run again (resume, step):
 * with scripted tasks only the past viewed becomes the present (a
 * branch: the journal after it is dropped); with real tasks, which went
 * on in the real world, back to the present.
 */
void
daemon_leave_past(struct daemon *d)
{
	uint64_t	 now = session_now(d->session), t;
	char		*cause = NULL;

	if (!session_viewing(d->session))
		return;
	t = engine_now(daemon_engine(d));
	if (session_has_real(d->session)) {
		session_view_end(d->session);
		daemon_note(d, "back to the present, tick %llu",
		    (unsigned long long)now);
		/* The lesson's speed of the present, not of the tick seen. */
		daemon_seek_speed(d, now);
	} else if (session_branch(d->session, &cause) != 0) {
		log_warnx("branch: %s", cause);
		free(cause);
		session_view_end(d->session);
	} else {
		/* The present is another engine now. */
		if (d->procs != NULL)
			procs_set_engine(d->procs,
			    session_live_engine(d->session));
		daemon_note(d, "went on from tick %llu (was %llu)",
		    (unsigned long long)t, (unsigned long long)now);
	}
	d->real_ntasks = -1;
	daemon_changed(d);
}

/* Stop the clock (the caller caught the engine up: daemon_catchup). */
void
daemon_pause(struct daemon *d)
{
	clock_pause(&d->clock);
	if (d->procs != NULL)
		procs_hold(d->procs);
	daemon_arm(d, clock_now_ns());
	if (d->trace != NULL)
		fflush(d->trace);
	if (d->perfetto != NULL)
		perfetto_flush(d->perfetto);
	if (d->record != NULL)
		fflush(d->record);
	daemon_changed(d);
}

/*
 * Restart the clock from the current tick.  After a scenario's ask, the
 * answer becomes the caption.
 */
void
daemon_resume(struct daemon *d)
{
	uint64_t	 now = clock_now_ns();
	const char	*answer;

	daemon_leave_past(d);
	if ((answer = session_answer(d->session)) != NULL)
		daemon_note_ran(d, "answer: %s", answer);
	clock_resume(&d->clock, now, session_now(d->session));
	if (d->procs != NULL)
		procs_release(d->procs);
	daemon_arm(d, now);
	daemon_changed(d);
}

/* Has `step event` found one? */
static int
daemon_step_found(const struct daemon *d)
{
	return (d->step.until_event && d->event_seq != d->step.event_seq);
}

/* When the step's tick number done is due, paced (CLOCK_MONOTONIC ns). */
static uint64_t
daemon_step_due(const struct daemon *d, uint64_t done)
{
	return (d->step.t0 + (uint64_t)((long double)done * 1e6L /
	    d->clock.speed));
}

/*
 * Run the step's ticks until it is done, the slice's time is up, or
 * (paced) the next tick is not due yet; 1 when the step is over.
 */
static int
daemon_step_run(struct daemon *d)
{
	uint64_t	end = clock_now_ns() + DAEMON_STEP_SLICE_NS;

	while (d->step.done < d->step.total && !d->exiting) {
		if (d->step.paced &&
		    clock_now_ns() < daemon_step_due(d, d->step.done))
			break;
		daemon_tick_once(d, 1);
		d->step.done++;
		if (daemon_step_found(d))
			break;
		if ((d->step.done & 15) == 0 && clock_now_ns() >= end)
			break;
	}
	/* Run in no wall time, real tasks (if any) stay stopped. */
	if (!d->step.paced && d->procs != NULL && d->clock.paused)
		procs_hold(d->procs);
	if (d->step.done < d->step.total && !daemon_step_found(d))
		return (0);
	/* Paced: the last tick's time too, before the children stop. */
	return (!d->step.paced ||
	    clock_now_ns() >= daemon_step_due(d, d->step.done));
}

/*
 * The step is over, done or cancelled (why says by what): tell the
 * subscribers, and the client that asked, "ok" or the err line.
 */
static void
daemon_step_end(struct daemon *d, const char *why)
{
	struct server_client	*c = d->step.client;
	unsigned long long	 done = d->step.done, total = d->step.total;
	char			 line[160];

	d->step.active = 0;
	d->step.client = NULL;
	evtimer_del(d->step.ev);
	/* Paced, the children ran between its ticks: stopped again. */
	if (d->step.paced && d->procs != NULL && d->clock.paused)
		procs_hold(d->procs);
	if (d->trace != NULL)
		fflush(d->trace);
	if (why == NULL && d->step.until_event) {
		/* The event found says what happened; none: say so. */
		if (!daemon_step_found(d))
			daemon_note(d, "stepped %llu tick%s: no event", done,
			    done == 1 ? "" : "s");
		snprintf(line, sizeof line, "ok %llu\n", done);
	} else if (why == NULL) {
		daemon_note(d, "stepped %llu tick%s", total,
		    total == 1 ? "" : "s");
		snprintf(line, sizeof line, "ok\n");
	} else {
		daemon_note(d, "step cancelled after %llu of %llu ticks (%s)",
		    done, total, why);
		snprintf(line, sizeof line, "err step cancelled after %llu of "
		    "%llu ticks (%s)\n", done, total, why);
	}
	if (c != NULL)
		server_client_step_done(c, line);
}

/* The next slice of the step. */
static void
daemon_step_slice(evutil_socket_t fd, short events, void *arg)
{
	struct daemon	*d = arg;
	struct timeval	 tv = { 0, 0 };
	uint64_t	 now, due;

	if (!d->step.active || d->exiting)
		return;
	if (daemon_step_run(d)) {
		daemon_step_end(d, NULL);
		return;
	}
	if (d->step.paced &&
	    (due = daemon_step_due(d, d->step.done)) > (now = clock_now_ns())) {
		tv.tv_sec = (time_t)((due - now) / 1000000000ULL);
		tv.tv_usec = (suseconds_t)((due - now) % 1000000000ULL / 1000);
	}
	evtimer_add(d->step.ev, &tv);
}

/*
 * Start running n ticks (pausing the clock first), for client c (or
 * NULL), which gets "ok" when they have run; until_event: until the
 * tick that brings an event or a caption, at most n ("ok T", the ticks
 * run).  A step already under way is cancelled.  The first slice runs
 * now: a short step is done at once.
 */
void
daemon_step_start(struct daemon *d, uint64_t n, int until_event,
    struct server_client *c)
{
	daemon_step_cancel(d, "a new step");
	daemon_leave_past(d);
	if (!d->clock.paused) {
		daemon_pause(d);
		daemon_note(d, "paused");
	}
	if (d->step.ev == NULL)
		d->step.ev = evtimer_new(d->base, daemon_step_slice, d);
	d->step.total = n;
	d->step.done = 0;
	d->step.client = c;
	d->step.active = 1;
	d->step.until_event = until_event;
	d->step.event_seq = d->event_seq;
	d->step.paced = d->procs != NULL && daemon_real_live(d);
	d->step.t0 = clock_now_ns();
	/* The blocked ones may wake, as when running (procs_hold took). */
	if (d->step.paced)
		procs_release(d->procs);
	daemon_step_slice(-1, 0, d);
}

/* Cancel the step under way, if any (why: by what); 1 if there was one. */
int
daemon_step_cancel(struct daemon *d, const char *why)
{
	if (!d->step.active)
		return (0);
	daemon_step_end(d, why);
	return (1);
}

/* Change the speed from now on (the engine caught up at the old one). */
static void
daemon_set_speed(struct daemon *d, double speed)
{
	uint64_t	now = clock_now_ns();

	clock_set_speed(&d->clock, speed, now, session_now(d->session));
	if (!d->clock.paused) {
		daemon_arm(d, now);
	}
	daemon_changed(d);
}

/*
 * Change the clock's speed and say so, as having happened at tick:
 * "speed A -> B" and why (text to add, "" for none).
 */
void
daemon_speed_to(struct daemon *d, double speed, uint64_t tick,
    const char *why)
{
	char	a[32], b[32];

	protocol_format_speed(d->clock.speed, a, sizeof a);
	protocol_format_speed(speed, b, sizeof b);
	daemon_set_speed(d, speed);
	daemon_tick_note(d, tick, "speed %s -> %s%s", a, b, why);
}

/*
 * A seek to tick: the speed the lesson had there (its last speed event
 * at or before it, else the scenario's, else the configured one), so a
 * slow part replays slowly; resuming plays the speed events after it
 * again.  Said when it changes.  A scenario with no speed of its own
 * leaves the clock's as it is.
 */
void
daemon_seek_speed(struct daemon *d, uint64_t tick)
{
	char	why[64];
	double	speed = session_speed_at(d->session, tick);

	if (speed < 0)
		return;			/* not a lesson: the user's speed */
	if (speed == 0)
		speed = d->cfg.speed;
	if (speed == d->clock.speed)
		return;
	snprintf(why, sizeof why, " (the lesson's at tick %llu)",
	    (unsigned long long)tick);
	daemon_speed_to(d, speed, session_now(d->session), why);
}

/* Leave the event loop (the engine caught up); main cleans up. */
void
daemon_shutdown(struct daemon *d)
{
	d->exiting = 1;
	event_base_loopbreak(d->base);
}

/* Log one changed option on reload, and whether it applies now. */
static void
daemon_reload_diff(void *arg, const char *name, const char *old,
    const char *new, int live)
{
	if (live)
		log_info("reload: %s %s -> %s", name, old, new);
	else
		log_warnx("reload: %s %s -> %s needs a restart; keeping %s",
		    name, old, new, old);
}

/* SIGHUP: read the config again and apply what can change live. */
static void
daemon_reload(struct daemon *d)
{
	struct config	 nc;
	char		*cause = NULL;
	int		 n;

	if (d->config_path == NULL) {
		log_info("reload: no configuration file (started without -c)");
		return;
	}
	config_defaults(&nc);
	if (config_load(d->config_path, &nc, &cause) != 0) {
		log_warnx("reload failed, keeping the running settings: %s",
		    cause);
		free(cause);
		config_free(&nc);
		return;
	}
	n = config_diff(&d->cfg, &nc, daemon_reload_diff, NULL);
	if (n == 0)
		log_info("reload: %s: nothing changed", d->config_path);
	if (nc.speed != d->cfg.speed)
		daemon_set_speed(d, nc.speed);
	if (nc.log_level != d->cfg.log_level)
		log_set_level(nc.log_level);
	/* The rest are read where they are used. */
	config_apply_live(&d->cfg, &nc);
	config_free(&nc);
}

/* Signals: TERM and INT exit, HUP reloads, CHLD reaps. */
static void
daemon_signal(evutil_socket_t sig, short events, void *arg)
{
	struct daemon	*d = arg;
	int		 status;

	/*
	 * Like a command: the engine at the tick the wall clock says; a
	 * sleeping clock's too before an exit is reaped (else it would land
	 * at the last tick run, before it happened).
	 */
	if (sig != SIGCHLD || d->sleeping)
		daemon_catchup(d);
	switch (sig) {
	case SIGTERM:
	case SIGINT:
		log_info("%s: exiting", strsignal(sig));
		daemon_shutdown(d);
		break;
	case SIGHUP:
		daemon_reload(d);
		break;
	case SIGCHLD:
		if (d->procs != NULL)
			procs_reap(d->procs);
		else {
			while (waitpid(-1, &status, WNOHANG) > 0)
				;
		}
		break;
	}
}

/* Flush the trace and the record now and then, so `tail -f` sees them. */
static void
daemon_flush_trace(evutil_socket_t fd, short events, void *arg)
{
	struct daemon	*d = arg;

	if (d->trace != NULL)
		fflush(d->trace);
	if (d->perfetto != NULL)
		perfetto_flush(d->perfetto);
	if (d->record != NULL)
		fflush(d->record);
}

/* Start the flush timer, if there is anything to flush. */
static void
daemon_flush_start(struct daemon *d)
{
	struct timeval	tv = { 0, 200000 };

	/* Paused, idle, nothing written: no wake-up at all. */
	if (d->flush != NULL && (d->trace != NULL || d->record != NULL ||
	    d->perfetto != NULL) &&
	    !evtimer_pending(d->flush, NULL))
		evtimer_add(d->flush, &tv);
}

/*
 * Ask for a better scheduling class for the tick: SCHED_FIFO if allowed,
 * else nice -10; children get the default back (SCHED_RESET_ON_FORK).
 * Failure is fine: the clock catches up either way.
 */
static void
daemon_priority(const struct config *cfg)
{
	struct sched_param	sp;

	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	if (!cfg->realtime)
		return;
	memset(&sp, 0, sizeof sp);
	sp.sched_priority = 1;
	if (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp) == 0) {
		log_debug("running at SCHED_FIFO 1");
		return;
	}
	sp.sched_priority = 0;
	(void)sched_setscheduler(0, SCHED_OTHER | SCHED_RESET_ON_FORK, &sp);
	if (setpriority(PRIO_PROCESS, 0, -10) == 0)
		log_debug("running at nice -10");
}

/*
 * Detach: fork twice with a pipe from the grandchild (the daemon) to the
 * parent.  The parent waits for one byte, written once the daemon is
 * ready, and exits 0; if the pipe closes first the daemon failed (its
 * reason is in syslog) and the parent exits 1.  Returns the pipe's write
 * end in the daemon.
 */
static int
daemon_detach(void)
{
	char	c;
	int	fds[2], fd;
	pid_t	pid;
	ssize_t	n;

	if (pipe2(fds, O_CLOEXEC) != 0)
		fatal("pipe");
	switch ((pid = fork())) {
	case -1:
		fatal("fork");
	case 0:
		break;
	default:
		close(fds[1]);
		waitpid(pid, NULL, 0);
		do
			n = read(fds[0], &c, 1);
		while (n == -1 && errno == EINTR);
		if (n == 1)
			exit(0);
		fprintf(stderr, "stairsd: the daemon did not start; see "
		    "syslog\n");
		exit(1);
	}
	close(fds[0]);
	if (setsid() == -1)
		fatal("setsid");
	switch (fork()) {
	case -1:
		fatal("fork");
	case 0:
		break;
	default:
		_exit(0);
	}
	if (chdir("/") != 0)
		fatal("chdir /");
	if ((fd = open("/dev/null", O_RDWR)) != -1) {
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		if (fd > STDERR_FILENO)
			close(fd);
	}
	return (fds[1]);
}

/* Free the real tasks still waiting to be spawned. */
static void
daemon_pending_free(struct daemon *d)
{
	size_t	i, j;

	for (i = 0; i < d->npending; i++) {
		for (j = 0; d->pending[i].argv[j] != NULL; j++)
			free(d->pending[i].argv[j]);
		free(d->pending[i].argv);
	}
	free(d->pending);
	d->pending = NULL;
	d->npending = 0;
}

/* A scenario's real task: check its program now, spawn it later. */
static int
daemon_scenario_spawn(void *arg, struct engine *e, int id,
    const struct scenario_task *t, char **cause)
{
	struct daemon		*d = arg;
	struct daemon_pending	*pd;
	size_t			 n, i;

	if (procs_lookup(d->bindir, t->argv[0], cause) != 0)
		return (-1);
	d->pending = xreallocarray(d->pending, d->npending + 1,
	    sizeof *d->pending);
	pd = &d->pending[d->npending++];
	pd->id = id;
	for (n = 0; t->argv[n] != NULL; n++)
		;
	pd->argv = xcalloc(n + 1, sizeof *pd->argv);
	for (i = 0; i < n; i++)
		pd->argv[i] = xstrdup(t->argv[i]);
	return (0);
}

/* A child was woken (sched_waking): act on it now, not at the tick. */
static void
daemon_procs_wake(int fd, short events, void *arg)
{
	struct daemon	*d = arg;

	if (d->procs == NULL)
		return;
	procs_wakeups(d->procs);
	/*
	 * A sleeping clock: the ticks slept through so far run now, the
	 * last of them telling the engine (none due: it hears of it at the
	 * next tick, at its own time).
	 */
	if (d->sleeping && procs_quiet(d->procs) != 1)
		daemon_catchup(d);
}

/*
 * The layer let a woken task run at once (the engine's answer to the
 * wake): into the Perfetto trace, where the engine's track shows it from
 * then, not from the next tick.
 */
static void
daemon_procs_woke(void *arg, int cpu, int task, int rank, uint64_t ns)
{
	struct daemon	*d = arg;

	if (d->perfetto == NULL || d->procs == NULL)
		return;
	/*
	 * A sleeping clock behind the wall clock: the ticks due run next,
	 * the last one with the wake, and show it from its tick (ns would
	 * map onto the last tick run, ticks before it happened).
	 */
	if (d->sleeping && clock_due(&d->clock, clock_now_ns()) >
	    session_now(d->session))
		return;
	ns = procs_engine_ns(d->procs, ns);
	if (ns < d->perfetto_ns)
		ns = d->perfetto_ns;
	d->perfetto_ns = ns;
	perfetto_wake_pick(d->perfetto, session_live_engine(d->session), cpu,
	    task, rank, ns);
}

/* The real-process layer has something to say: an event line. */
static void
daemon_procs_notice(void *arg, const char *text)
{
	daemon_note(arg, "%s", text);
}

/*
 * While a real task is alive, keep the loop off the physical CPUs the
 * engine's are mapped to, where the machine has two or more others we
 * may run on (procs_off_cpus): each of its wake-ups there (up to one a
 * tick) preempts the child running, which then waits (a 1-CPU
 * scenario's hogs waited 12 % of their time beside a loop woken every
 * tick).  Else, and once the layer ends (the next one's default map is
 * the CPUs we may run on), all of ours back.  Every catch-up asks (real
 * tasks come and go between ticks), and the layer's end.
 */
static void
daemon_off(struct daemon *d)
{
	cpu_set_t	set;
	int		off;

	off = d->procs != NULL && daemon_real_live(d);
	if (off == d->off)
		return;
	if (off) {
		/* Not off yet: what we may run on is all of ours. */
		if (sched_getaffinity(0, sizeof d->cpus0, &d->cpus0) != 0)
			return;
		procs_off_cpus(d->procs, &d->cpus0, &set);
	} else
		set = d->cpus0;
	d->off = off;
	if (sched_setaffinity(0, sizeof set, &set) != 0)
		log_debug("sched_setaffinity: %s", strerror(errno));
}

/*
 * Start the real-process layer for the session (after detaching):
 * cgroups for the groups, then the scenario's real tasks.  A task that
 * fails to start shows as exited with the reason; the rest carry on.
 */
static void
daemon_procs_start(struct daemon *d)
{
	const struct engine	*e = session_live_engine(d->session);
	struct procs_config	 pc;
	char			*cause = NULL;
	size_t			 i;
	int			 g;

	memset(&pc, 0, sizeof pc);
	if (d->cfg.ncpu_map > 0) {
		pc.map = d->cfg.cpu_map;
		pc.nmap = d->cfg.ncpu_map;
	}
	pc.outdir = d->child_output;
	pc.bindir = d->bindir;
	pc.cgroups = d->cfg.cgroups;
	pc.max_task_procs = d->cfg.max_task_procs;
	pc.observe_proc = d->cfg.observe != NULL &&
	    strcmp(d->cfg.observe, "proc") == 0;
	pc.change = daemon_procs_change;
	pc.change_arg = d;
	pc.notice = daemon_procs_notice;
	pc.notice_arg = d;
	pc.woke = daemon_procs_woke;
	pc.woke_arg = d;
	if ((d->procs = procs_create(e, &pc, &cause)) == NULL)
		fatalx("real processes: %s", cause);
	if (procs_event_fd(d->procs) != -1) {
		d->wake = event_new(d->base, procs_event_fd(d->procs),
		    EV_READ | EV_PERSIST, daemon_procs_wake, d);
		event_add(d->wake, NULL);
	}
	for (g = 0; g < engine_ngroups(e); g++) {
		if (procs_group_setup(d->procs, g, &cause) != 0) {
			log_warnx("group %s: %s", engine_group_name(e, g),
			    cause);
			free(cause);
		}
	}
	for (i = 0; i < d->npending; i++) {
		if (procs_spawn(d->procs, d->pending[i].id,
		    d->pending[i].argv, &cause) != 0) {
			log_warnx("%s", cause);
			daemon_note(d, "%s", cause);
			free(cause);
		}
	}
	daemon_pending_free(d);
	daemon_kruns_start(d);
}

/* End the real-process layer: children killed and reaped, cgroups gone. */
static void
daemon_procs_stop(struct daemon *d)
{
	daemon_kruns_stop(d);
	if (d->wake != NULL) {
		event_free(d->wake);
		d->wake = NULL;
	}
	procs_free(d->procs);
	d->procs = NULL;
	daemon_off(d);
}

/*
 * The file of a scenario named name in the scenario path (DIR/NAME.cfg,
 * the first directory that has it), or NULL.
 */
char *
daemon_scenario_file(struct daemon *d, const char *name)
{
	char	*path;
	size_t	 i;

	if (strchr(name, '/') != NULL || *name == '.')
		return (NULL);
	for (i = 0; i < d->nscenario_dirs; i++) {
		path = xasprintf("%s/%s.cfg", d->scenario_dirs[i], name);
		if (access(path, R_OK) == 0)
			return (path);
		free(path);
	}
	return (NULL);
}

/* Add dir (absolute, malloc'd; the daemon frees it) to the path. */
static void
daemon_scenario_dir(struct daemon *d, char *dir)
{
	d->scenario_dirs = xreallocarray(d->scenario_dirs,
	    d->nscenario_dirs + 1, sizeof *d->scenario_dirs);
	d->scenario_dirs[d->nscenario_dirs++] = dir;
}

/*
 * The scenario path: the configuration's scenario_path, split, each
 * made absolute, then an installed stairsd's PREFIX/share/stairs/
 * scenarios if there is one (paths.c).
 */
static void
daemon_scenario_path(struct daemon *d)
{
	struct stat	 sb;
	char		*copy, *p, *dir, *prefix;

	if (d->cfg.scenario_path != NULL && *d->cfg.scenario_path != '\0') {
		copy = p = xstrdup(d->cfg.scenario_path);
		while ((dir = strsep(&p, ":")) != NULL)
			if (*dir != '\0')
				daemon_scenario_dir(d, path_absolute(dir));
		free(copy);
	}
	if ((prefix = paths_prefix()) == NULL)
		return;
	dir = paths_scenario_dir(prefix);
	free(prefix);
	if (stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode))
		daemon_scenario_dir(d, dir);
	else
		free(dir);
}

/*
 * Make a session of a scenario: a built-in one by name (NULL or "":
 * the demo), else a file.  Its real tasks are checked and left in
 * d->pending, to spawn.  NULL with *cause ("FILE:LINE: message").
 */
static struct session *
daemon_session_new(struct daemon *d, const char *name, char **cause)
{
	const struct builtin_scenario	*b;
	struct session_setup		 set;
	struct scenario			*sc;
	struct engine_params		 p;
	struct session			*s;
	char				*text, *label, *found;

	if (name == NULL || *name == '\0')
		name = "demo";
	found = NULL;
	if ((b = builtin_find(name)) != NULL && strchr(name, '/') == NULL) {
		text = xstrdup(b->text);
		label = xstrdup(b->name);
	} else {
		/* One of the scenario path's, else a file. */
		if ((found = daemon_scenario_file(d, name)) != NULL)
			name = found;
		if ((text = session_read_file(name, cause)) == NULL) {
			free(found);
			return (NULL);
		}
		label = path_absolute(name);
	}
	if (b != NULL)
		sc = session_parse(text, label, cause);
	else
		sc = scenario_load_file(name, cause);	/* @include */
	if (sc == NULL) {
		free(text);
		free(label);
		free(found);
		return (NULL);
	}
	engine_params_default(&p);
	p.cpus = d->cfg.cpus;
	p.rr_interval = d->cfg.rr_interval;
	p.sleep_min = d->cfg.sleep_min;
	p.balance_interval = d->cfg.balance_interval;
	scenario_params(sc, &p);
	s = NULL;
	if (engine_params_check(&p, cause) == 0) {
		memset(&set, 0, sizeof set);
		set.label = label;
		set.text = text;
		set.params = p;
		set.policy = sc->policy != NULL ?
		    engine_policy_find(sc->policy) : NULL;
		set.max_tasks = d->cfg.max_tasks;
		set.spawn = daemon_scenario_spawn;
		set.spawn_arg = d;
		set.ledger_rows = DAEMON_LEDGER_ROWS;
		set.history = (uint64_t)d->cfg.history * 1000;
		/*
		 * The frames look only at what changed.  Kept with no
		 * subscriber too: subscribers come and go, the keyframes
		 * are clones taken all along, and the log is a small part
		 * of a tick (docs/BENCH.md, "Before and after in one run").
		 */
		set.track_changes = 1;
		set.note = daemon_session_note;
		set.exit_reason = daemon_exit_reason;
		set.arg = d;
		s = session_create(&set, sc, cause);
		/* A comparison goes on: the new session's from its tick 0. */
		if (s != NULL && d->compare != NULL)
			(void)session_compare(s, d->compare, cause);
	}
	if (s == NULL)
		daemon_pending_free(d);
	scenario_free(sc);
	free(text);
	free(label);
	free(found);
	return (s);
}

/*
 * Load the scenario (a built-in name, or a file; NULL or "": the demo)
 * as the daemon's session.  main and the protocol fuzzer
 * (tests/fuzz/fuzz_protocol.c) set a daemon up through this.
 */
int
daemon_load(struct daemon *d, const char *name, char **cause)
{
	if ((d->session = daemon_session_new(d, name, cause)) == NULL)
		return (-1);
	return (0);
}

/* Start a file again from its beginning (trace, journal on a load). */
static int
daemon_restart_file(FILE *f, const char *path, char **cause)
{
	if (f == NULL || f == stdout)
		return (0);
	fflush(f);
	if (ftruncate(fileno(f), 0) != 0 || fseek(f, 0, SEEK_SET) != 0) {
		*cause = xasprintf("%s: %s", path != NULL ? path : "?",
		    strerror(errno));
		return (-1);
	}
	return (0);
}

/*
 * `load`: end the current session (its journal's end line written, real
 * children killed and reaped, cgroups removed) and start the scenario
 * name at tick 0, paused or not as before.  The new one is made first:
 * if it fails, *cause says why and the current one runs on.  The trace
 * and the record, if any, start again for the new session.
 */
int
daemon_switch(struct daemon *d, const char *name, char **cause)
{
	struct session	*s, *old = d->session;
	char		*why = NULL, *found = NULL;
	int		 paused = d->clock.paused, had_procs = d->procs != NULL;

	/* A bare name is a scenario's, never a file of our directory. */
	if (strchr(name, '/') == NULL && builtin_find(name) == NULL &&
	    (found = daemon_scenario_file(d, name)) == NULL) {
		*cause = xasprintf("%s: no such scenario (`scenarios` lists "
		    "them; a file needs its absolute path)", name);
		return (-1);
	}
	free(found);
	/* The old session's real tasks are not ours to check against. */
	if ((s = daemon_session_new(d, name, cause)) == NULL)
		return (-1);
	daemon_step_cancel(d, "load");
	session_end(old);
	daemon_perfetto_close(d);
	if (d->procs != NULL)
		daemon_procs_stop(d);
	d->session = s;
	session_free(old);
	if (d->perfetto_path != NULL && daemon_perfetto_open(d, &why) != 0) {
		log_warnx("perfetto: %s", why);
		free(why);
		why = NULL;
	}
	if (d->trace != NULL) {
		if (daemon_restart_file(d->trace, d->trace_path, &why) != 0) {
			log_warnx("trace: %s", why);
			free(why);
			why = NULL;
		} else
			session_trace(s, d->trace);
	}
	if (d->record != NULL) {
		if (daemon_restart_file(d->record, d->record_path, &why) != 0 ||
		    session_record(s, d->record, &why) != 0) {
			log_warnx("record: %s", why);
			free(why);
		}
	}
	/* (The protocol fuzzer runs no real-process layer.) */
	if (had_procs)
		daemon_procs_start(d);
	d->real_ntasks = -1;
	/* The new scenario's speed, else the configured one: a lesson's
	   slow motion does not carry over into the next scenario. */
	clock_init(&d->clock, session_speed(s) > 0 ? session_speed(s) :
	    d->cfg.speed, clock_now_ns(), 0);
	if (paused) {
		clock_pause(&d->clock);
		if (d->procs != NULL)
			procs_hold(d->procs);
	}
	if (d->server != NULL)
		server_reset(d->server);
	if (d->timer != NULL)
		daemon_arm(d, clock_now_ns());
	daemon_changed(d);
	log_info("loaded %s (%s)", session_name(s), session_label(s));
	return (0);
}

/*
 * `record PATH`: the journal so far, then every change, into PATH.  A
 * journal being recorded already is ended here (its end line: a replay
 * of it runs to this tick) and closed.
 */
int
daemon_record(struct daemon *d, const char *path, char **cause)
{
	FILE	*f;

	if ((f = fopen(path, "w")) == NULL) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return (-1);
	}
	if (d->record != NULL)
		session_end(d->session);
	if (session_record(d->session, f, cause) != 0) {
		fclose(f);
		return (-1);
	}
	if (d->record != NULL)
		fclose(d->record);
	d->record = f;
	free(d->record_path);
	d->record_path = path_absolute(path);
	daemon_flush_start(d);
	return (0);
}

/* Free what the daemon holds (any part may be missing). */
void
daemon_free(struct daemon *d)
{
	size_t	j;
	int	i;

	if (d->session != NULL)
		session_end(d->session);
	if (d->trace != NULL && d->trace != stdout)
		fclose(d->trace);
	else if (d->trace != NULL)
		fflush(d->trace);
	d->trace = NULL;
	if (d->record != NULL)
		fclose(d->record);
	d->record = NULL;
	daemon_perfetto_close(d);
	free(d->perfetto_path);
	for (i = 0; i < DAEMON_EVENTS; i++)
		free(d->events[i].text);
	session_free(d->session);
	daemon_pending_free(d);
	free(d->bindir);
	free(d->child_output);
	for (j = 0; j < d->nscenario_dirs; j++)
		free(d->scenario_dirs[j]);
	free(d->scenario_dirs);
	config_free(&d->cfg);
	free(d->config_path);
	free(d->socket_path);
	free(d->trace_path);
	free(d->record_path);
	memset(d, 0, sizeof *d);
}

/* A start-up failure: say why, free everything, return the status. */
static int
daemon_fail(struct daemon *d, char *cause, int status)
{
	fprintf(stderr, "stairsd: %s\n", cause);
	free(cause);
	daemon_free(d);
	return (status);
}

/* Run the live daemon. */
int
daemon_main(int argc, char **argv)
{
	static struct daemon	 dd;
	struct daemon		*d = &dd;
	struct event_config	*ecfg;
	struct event		*sigs[4];
	struct sigaction	 sa;
	const char		*config_arg = NULL, *socket_arg = NULL;
	const char		*scenario_arg = NULL, *trace_arg = NULL;
	const char		*record_arg = NULL, *perfetto_arg = NULL;
	char			*cause = NULL, *path;
	int			 ch, foreground = 0, fd, ready = -1, i;
	sigset_t		 held, oldmask;
	static const int	 signos[] = {
	    SIGTERM, SIGINT, SIGHUP, SIGCHLD };

	while ((ch = getopt_long(argc, argv, "fc:S:hV", daemon_longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'f':
			foreground = 1;
			break;
		case 'c':
			config_arg = optarg;
			break;
		case 'S':
			socket_arg = optarg;
			break;
		case 's':
			scenario_arg = optarg;
			break;
		case 't':
			trace_arg = optarg;
			break;
		case 'R':
			record_arg = optarg;
			break;
		case 'P':
			perfetto_arg = optarg;
			break;
		case 'h':
			daemon_usage(stdout);
			return (0);
		case 'V':
			printf("stairsd %s (protocol %d)\n", STAIRS_VERSION,
			    PROTO_VERSION);
			return (0);
		default:
			daemon_usage(stderr);
			return (2);
		}
	}
	if (optind != argc) {
		fprintf(stderr, "stairsd: unexpected argument \"%s\"\n",
		    argv[optind]);
		daemon_usage(stderr);
		return (2);
	}
	log_init("stairsd", 1, LOG_LEVEL_INFO);

	/* The configuration: -c, else the XDG file if any, else defaults. */
	config_defaults(&d->cfg);
	path = config_arg != NULL ? xstrdup(config_arg) :
	    config_default_path();
	if (path != NULL) {
		if (config_load(path, &d->cfg, &cause) != 0) {
			free(path);
			return (daemon_fail(d, cause, 2));
		}
		d->config_path = path_absolute(path);
		free(path);
	}
	log_set_level(d->cfg.log_level);

	/* The scenario and the engine. */
	d->bindir = path_self_dir();
	daemon_scenario_path(d);
	if (d->cfg.child_output != NULL && *d->cfg.child_output != '\0')
		d->child_output = path_absolute(d->cfg.child_output);
	if (daemon_load(d, scenario_arg != NULL ? scenario_arg :
	    d->cfg.scenario, &cause) != 0)
		return (daemon_fail(d, cause, 2));

	/* The socket. */
	if (socket_arg != NULL)
		d->socket_path = path_absolute(socket_arg);
	else if (*d->cfg.socket != '\0')
		d->socket_path = path_absolute(d->cfg.socket);
	else
		d->socket_path = sock_default_path();
	/*
	 * From the moment the socket exists a client may signal us: hold
	 * the signals we handle until libevent's handlers are in place, so
	 * an early SIGTERM is a clean exit rather than a kill.
	 */
	sigemptyset(&held);
	for (i = 0; i < 4; i++)
		sigaddset(&held, signos[i]);
	sigprocmask(SIG_BLOCK, &held, &oldmask);
	if ((fd = server_listen(d->socket_path, &cause)) == -1)
		return (daemon_fail(d, cause, 1));

	/* The trace. */
	if (trace_arg != NULL) {
		if (strcmp(trace_arg, "-") == 0)
			d->trace = stdout;
		else if ((d->trace = fopen(trace_arg, "w")) == NULL) {
			cause = xasprintf("%s: %s", trace_arg, strerror(errno));
			close(fd);
			unlink(d->socket_path);
			return (daemon_fail(d, cause, 1));
		}
		if (d->trace != stdout)
			d->trace_path = path_absolute(trace_arg);
		session_trace(d->session, d->trace);
	}
	if (perfetto_arg != NULL) {
		d->perfetto_path = path_absolute(perfetto_arg);
		if (daemon_perfetto_open(d, &cause) != 0) {
			close(fd);
			unlink(d->socket_path);
			return (daemon_fail(d, cause, 1));
		}
	}
	if (record_arg != NULL && daemon_record(d, record_arg, &cause) != 0) {
		close(fd);
		unlink(d->socket_path);
		return (daemon_fail(d, cause, 1));
	}

	if (!foreground) {
		if (d->trace == stdout) {
			close(fd);
			unlink(d->socket_path);
			return (daemon_fail(d, xstrdup("--trace - needs -f"),
			    2));
		}
		ready = daemon_detach();
		log_init("stairsd", 0, d->cfg.log_level);
	}
	signal(SIGPIPE, SIG_IGN);
	/*
	 * Frames for many tasks are 100+ KB each, 30 a second per subscriber:
	 * keep that memory in the heap rather than mapping and faulting in
	 * fresh pages for every frame (measured: a third of the daemon's CPU
	 * with 1 000 tasks and 5 subscribers went to page faults and cold
	 * copies).  The heap stays bounded by the per-client output bound.
	 */
	mallopt(M_MMAP_THRESHOLD, 4 * 1024 * 1024);
	mallopt(M_TRIM_THRESHOLD, 32 * 1024 * 1024);

	/* The event loop; the clock has its own timerfd (daemon_arm). */
	if ((ecfg = event_config_new()) == NULL)
		fatalx("event_config_new failed");
	if ((d->base = event_base_new_with_config(ecfg)) == NULL)
		fatalx("event_base_new failed");
	event_config_free(ecfg);
	d->server = server_create(d, fd);
	for (i = 0; i < 4; i++) {
		sigs[i] = evsignal_new(d->base, signos[i], daemon_signal, d);
		evsignal_add(sigs[i], NULL);
	}
	sigprocmask(SIG_SETMASK, &oldmask, NULL);	/* and children's */
	d->flush = event_new(d->base, -1, EV_PERSIST, daemon_flush_trace, d);
	daemon_flush_start(d);
	/* Children are stopped and continued all the time: SIGCHLD only
	 * when one ends (libevent installs the handler without the flag). */
	if (sigaction(SIGCHLD, NULL, &sa) == 0) {
		sa.sa_flags |= SA_NOCLDSTOP;
		sigaction(SIGCHLD, &sa, NULL);
	}
	daemon_procs_start(d);
	daemon_priority(&d->cfg);

	d->tick_fd = timerfd_create(CLOCK_MONOTONIC,
	    TFD_NONBLOCK | TFD_CLOEXEC);
	if (d->tick_fd == -1)
		fatal("timerfd_create");
	d->timer = event_new(d->base, d->tick_fd, EV_READ | EV_PERSIST,
	    daemon_timer, d);
	event_add(d->timer, NULL);
	clock_init(&d->clock, session_speed(d->session) > 0 ?
	    session_speed(d->session) : d->cfg.speed, clock_now_ns(),
	    session_now(d->session));
	daemon_arm(d, clock_now_ns());

	log_info("serving %s on %s (%d cpus, speed %g)",
	    session_name(d->session), d->socket_path,
	    engine_params(daemon_engine(d))->cpus, d->clock.speed);
	if (ready != -1) {
		(void)write(ready, "1", 1);
		close(ready);
	}

	event_base_dispatch(d->base);

	/* Clean exit: replies flushed, socket removed, everything freed. */
	server_flush(d->server);
	server_free(d->server);
	unlink(d->socket_path);
	session_end(d->session);	/* the journal's end line */
	daemon_perfetto_close(d);	/* the kernel's last runs */
	daemon_procs_stop(d);	/* kills and reaps children, removes cgroups */
	for (i = 0; i < 4; i++)
		event_free(sigs[i]);
	event_free(d->flush);
	d->flush = NULL;
	event_free(d->timer);
	if (d->step.ev != NULL)
		event_free(d->step.ev);
	close(d->tick_fd);
	event_base_free(d->base);
	daemon_free(d);
	log_info("exited");
	return (0);
}
