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

#include "daemon.h"
#include "ledger.h"
#include "log.h"
#include "paths.h"
#include "proc.h"
#include "scenario.h"
#include "server.h"
#include "sock.h"
#include "stairsd.h"
#include "table.h"
#include "xmalloc.h"

#define DAEMON_LEDGER_ROWS	TABLE_ROWS	/* as headless --table */
#define DAEMON_STEP_SLICE_NS	5000000ULL	/* a step's ticks per loop turn */
#define DAEMON_BATCH_NS		250000000ULL	/* longest sleep, batching */
#define DAEMON_BATCH_TICKS	1000		/* most ticks a batch owes */

/* What daemon.c remembers about each task to describe changes. */
struct daemon_seen {
	int		nice;
	int		exited;
	struct cpumask	affinity;
};

static struct daemon_seen	*daemon_seen;
static int			 daemon_nseen;

static void	daemon_arm(struct daemon *, uint64_t);
static int	daemon_batching(struct daemon *);

/*
 * The scenario's real tasks: checked at load (their programs exist) but
 * spawned only once the daemon has detached, so that the children belong
 * to the daemon and not to the process the shell waits for.
 */
struct daemon_pending {
	int	  id;
	char	**argv;
};
static struct daemon_pending	*daemon_pending;
static size_t			 daemon_npending;
static char			*daemon_bindir;	/* programs looked up here */
static char			*daemon_child_output;	/* children's logs */

static const struct option daemon_longopts[] = {
	{ "foreground", no_argument, NULL, 'f' },
	{ "config", required_argument, NULL, 'c' },
	{ "socket", required_argument, NULL, 'S' },
	{ "scenario", required_argument, NULL, 's' },
	{ "trace", required_argument, NULL, 't' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

/* Print the usage to f. */
static void
daemon_usage(FILE *f)
{
	fprintf(f, "usage: stairsd [-f] [-c CONFIG] [-S SOCKET] "
	    "[--scenario FILE] [--trace FILE|-]\n"
	    "       stairsd --headless --scenario FILE --ticks N [...]\n"
	    "  -f, --foreground   stay in the foreground, log to stderr\n"
	    "  -c, --config FILE  configuration (default: "
	    "$XDG_CONFIG_HOME/stairs/stairsd.cfg,\n"
	    "                     else /etc/stairs/stairsd.cfg, if it exists)\n"
	    "  -S, --socket PATH  control socket (default: "
	    "$XDG_RUNTIME_DIR/stairs/socket or /tmp/stairs-UID/socket)\n"
	    "  --scenario FILE    scenario to run, or a built-in's name "
	    "(default: the\n"
	    "                     config's, else the built-in demo)\n"
	    "  --trace FILE       write the CSV trace live (- for stdout)\n"
	    "  --help, --version\n"
	    "Drive it with: socat - UNIX-CONNECT:SOCKET (see "
	    "docs/PROTOCOL.md).\n");
}

/* A path made absolute against the current directory (we chdir("/")). */
static char *
daemon_absolute(const char *path)
{
	char	cwd[PATH_MAX];

	if (path[0] == '/' || getcwd(cwd, sizeof cwd) == NULL)
		return (xstrdup(path));
	return (xasprintf("%s/%s", cwd, path));
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
	daemon_vnote(d, engine_now(d->engine), fmt, ap);
	va_end(ap);
}

/* The same, for something that happened during the tick just run. */
static void __attribute__((format(printf, 2, 3)))
daemon_note_ran(struct daemon *d, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	daemon_vnote(d, engine_now(d->engine) - 1, fmt, ap);
	va_end(ap);
}

/* Something subscribers see changed. */
void
daemon_changed(struct daemon *d)
{
	d->gen++;
}

/* Remember a new task's nice and affinity, to describe later changes. */
void
daemon_task_added(struct daemon *d, int id)
{
	struct engine_task_info	ti;
	int			n;

	if (id > daemon_nseen) {
		n = id > daemon_nseen * 2 ? id : daemon_nseen * 2;
		daemon_seen = xreallocarray(daemon_seen, n,
		    sizeof *daemon_seen);
		memset(daemon_seen + daemon_nseen, 0,
		    (n - daemon_nseen) * sizeof *daemon_seen);
		daemon_nseen = n;
	}
	if (engine_task_info(d->engine, id, &ti) == 0) {
		daemon_seen[id - 1].nice = ti.stair.nice;
		daemon_seen[id - 1].affinity = ti.affinity;
		daemon_seen[id - 1].exited = ti.state == ENGINE_EXITED;
	}
	daemon_changed(d);
	/* A real task added to a batching clock: back to ticking. */
	if (d->timer != NULL && !d->clock.paused &&
	    daemon_batching(d) != d->batched)
		daemon_arm(d, clock_now_ns());
}

/* The real-process part of a task line, from procs_info. */
int
daemon_real(struct daemon *d, int id, struct proto_real *real, char *exitbuf,
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
	const struct engine_params	*p = engine_params(d->engine);

	memset(st, 0, sizeof *st);
	st->tick = engine_now(d->engine);
	st->cpus = p->cpus;
	st->tasks = engine_ntasks(d->engine);
	st->live = engine_nlive(d->engine);
	st->paused = d->clock.paused;
	st->speed = d->clock.speed;
	st->rr = p->rr_interval;
	st->cgroups = d->procs != NULL ? procs_cgroup_mode(d->procs) : "none";
	st->observe = d->procs != NULL ? procs_observe_mode(d->procs) : "proc";
	st->lag = d->clock.lag;
	st->clients = d->server != NULL ? d->server->nclients : 0;
	st->scenario = d->scenario_name != NULL ? d->scenario_name : "-";
	st->sleep = d->cfg.default_sleep;
	st->policy = engine_get_policy(d->engine)->name;
}

/*
 * A lesson event fired (SPEC.md section 7); 0 if ev is none.  A pause or
 * an ask stops the clock (the engine made its text the caption; an ask's
 * answer waits for the next resume: daemon_resume), a speed event sets
 * the speed, a mark (a chapter) and a policy switch are narrated.  The
 * caller stops running ticks when the clock pauses or changes speed.
 */
static int
daemon_lesson(struct daemon *d, const struct engine_event *ev)
{
	char	a[32], b[32];

	switch (ev->action) {
	case ENGINE_ACT_PAUSE:
	case ENGINE_ACT_ASK:
		if (!d->clock.paused) {
			daemon_pause(d);
			daemon_note_ran(d, "paused by the scenario%s",
			    ev->action == ENGINE_ACT_ASK ? ": a question" : "");
		}
		return (1);
	case ENGINE_ACT_SPEED:
		protocol_format_speed(d->clock.speed, a, sizeof a);
		protocol_format_speed(ev->speed, b, sizeof b);
		daemon_set_speed(d, ev->speed);
		daemon_note_ran(d, "speed %s -> %s", a, b);
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

/* Describe the scenario events that fired in the last tick. */
static void
daemon_fired(struct daemon *d)
{
	const struct engine_event	*ev;
	struct engine_task_info		 ti;
	struct daemon_seen		*seen;
	char				 a[160], b[160];
	const char			*name;
	size_t				 i, n;

	ev = engine_fired(d->engine, &n);
	for (i = 0; i < n; i++, ev++) {
		if (ev->action == ENGINE_ACT_CAPTION || daemon_lesson(d, ev))
			continue;
		if (engine_task_info(d->engine, ev->task, &ti) != 0)
			continue;
		name = ti.name;
		seen = ev->task <= daemon_nseen ? &daemon_seen[ev->task - 1] :
		    NULL;
		switch (ev->action) {
		case ENGINE_ACT_SLEEP:
			daemon_note_ran(d, "%s sleeps %ld ms", name, ev->value);
			break;
		case ENGINE_ACT_NICE:
			daemon_note_ran(d, "%s nice %d -> %ld", name,
			    seen != NULL ? seen->nice : 0, ev->value);
			if (seen != NULL)
				seen->nice = (int)ev->value;
			break;
		case ENGINE_ACT_AFFINITY:
			daemon_note_ran(d, "%s cpus %s -> %s", name,
			    seen != NULL ? cpumask_format(&seen->affinity, a,
			    sizeof a) : "?", cpumask_format(&ev->cpus, b,
			    sizeof b));
			if (seen != NULL)
				seen->affinity = ev->cpus;
			break;
		case ENGINE_ACT_KILL:
			daemon_note_ran(d, "%s killed", name);
			if (seen != NULL)
				seen->exited = 1;
			break;
		default:
			break;
		}
	}
}

/* Note tasks that ended by themselves (runtime) since the last look. */
static void
daemon_exits(struct daemon *d)
{
	struct procs_info	info;
	struct engine_task_info	ti;
	int			id;

	for (id = 1; id <= daemon_nseen && id <= engine_ntasks(d->engine);
	    id++) {
		if (daemon_seen[id - 1].exited ||
		    engine_task_info(d->engine, id, &ti) != 0 ||
		    ti.state != ENGINE_EXITED)
			continue;
		daemon_seen[id - 1].exited = 1;
		if (ti.kind == ENGINE_REAL && d->procs != NULL &&
		    procs_info(d->procs, id, &info) == 0 && !info.by_engine &&
		    info.exit[0] != '\0')
			daemon_note_ran(d, "%s exited, %s", ti.name, info.exit);
		else if (ti.exit == ENGINE_EXIT_RUNTIME)
			daemon_note_ran(d, "%s finished its runtime", ti.name);
		else if (ti.exit == ENGINE_EXIT_KILLED)
			daemon_note_ran(d, "%s killed", ti.name);
	}
}

/*
 * One engine tick and what follows from it: the trace rows, the table
 * counts, the event lines for fired scenario events and a new caption.
 */
static void
daemon_tick_once(struct daemon *d)
{
	struct engine_cpu_info	 ci;
	struct engine_task_info	 ti;
	uint64_t		 tick = engine_now(d->engine), seq;
	int			 c, ncpus, nlive;

	nlive = engine_nlive(d->engine);
	if (d->procs != NULL)
		procs_observe(d->procs);
	engine_tick(d->engine);
	if (d->procs != NULL)
		procs_enforce(d->procs);
	d->ticks_run++;

	ncpus = engine_params(d->engine)->cpus;
	for (c = 0; c < ncpus; c++) {
		engine_cpu_info(d->engine, c, &ci);
		/* A nice change fired this tick applied before the CPUs ran. */
		if (ci.task == 0 ||
		    engine_task_info(d->engine, ci.task, &ti) != 0) {
			if (d->trace != NULL)
				fprintf(d->trace, "%llu,%d,-,-,-,-\n",
				    (unsigned long long)tick, c);
			continue;
		}
		ledger_add(d->ledger, ci.task, ci.descent,
		    ci.rank - ti.stair.prio);
		if (d->trace != NULL)
			fprintf(d->trace, "%llu,%d,%s,%d,%d,%d\n",
			    (unsigned long long)tick, c, ti.name, ci.rank,
			    ci.iter, ci.left);
	}
	daemon_fired(d);
	engine_caption(d->engine, &seq);
	if (seq != d->caption_seq) {
		d->caption_seq = seq;
		d->caption_tick = tick;
	}
	if (engine_nlive(d->engine) < nlive)
		daemon_exits(d);
	daemon_changed(d);
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

	n = engine_ntasks(d->engine);
	live = engine_nlive(d->engine);
	if (n == d->real_ntasks && live == d->real_nlive)
		return (d->real_live);
	d->real_ntasks = n;
	d->real_nlive = live;
	d->real_live = 0;
	for (id = 1; id <= n; id++) {
		if (engine_task_info(d->engine, id, &ti) == 0 &&
		    ti.kind == ENGINE_REAL && ti.state != ENGINE_EXITED) {
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
 * and push the wake-up back.  Paused or exiting: disarmed.
 */
static void
daemon_arm(struct daemon *d, uint64_t now)
{
	struct itimerspec	its;
	uint64_t		at, period;

	memset(&its, 0, sizeof its);
	d->batched = 0;
	if (!d->clock.paused && !d->exiting && daemon_batching(d)) {
		d->batched = 1;
		at = clock_next_ns(&d->clock, engine_now(d->engine) + 1);
		if (at < now + daemon_batch_ns(d))
			at = now + daemon_batch_ns(d);
		its.it_value.tv_sec = (time_t)(at / 1000000000ULL);
		its.it_value.tv_nsec = (long)(at % 1000000000ULL);
	} else if (!d->clock.paused && !d->exiting) {
		at = clock_next_ns(&d->clock, engine_now(d->engine) + 1);
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
	uint64_t	now, n, allow = 0;
	double		speed = d->clock.speed;

	if (d->clock.paused || d->exiting || d->timer == NULL)
		return;
	now = clock_now_ns();
	if (d->batched)
		allow = clock_ticks_in(&d->clock, daemon_batch_ns(d));
	n = clock_take_more(&d->clock, now, engine_now(d->engine), allow);
	/* A scenario's pause, ask or speed event ends the run here. */
	while (n-- > 0 && !d->exiting && !d->clock.paused &&
	    d->clock.speed == speed)
		daemon_tick_once(d);
	/* Batching: sleep a full batch again; or the mode changed. */
	if (d->batched || daemon_batching(d) != d->batched)
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
	daemon_changed(d);
}

/*
 * Restart the clock from the current tick.  After a scenario's ask, the
 * answer becomes the caption.
 */
void
daemon_resume(struct daemon *d)
{
	uint64_t	now = clock_now_ns();

	if (engine_answer(d->engine) != NULL) {
		engine_caption(d->engine, &d->caption_seq);
		d->caption_tick = engine_now(d->engine) > 0 ?
		    engine_now(d->engine) - 1 : 0;
	}

	clock_resume(&d->clock, now, engine_now(d->engine));
	if (d->procs != NULL)
		procs_release(d->procs);
	daemon_arm(d, now);
	daemon_changed(d);
}

/* Run the step's ticks until it is done or the slice's time is up. */
static int
daemon_step_run(struct daemon *d)
{
	uint64_t	end = clock_now_ns() + DAEMON_STEP_SLICE_NS;

	while (d->step.done < d->step.total && !d->exiting) {
		daemon_tick_once(d);
		d->step.done++;
		if ((d->step.done & 15) == 0 && clock_now_ns() >= end)
			break;
	}
	/* The steps ran in no wall time: real tasks stay stopped. */
	if (d->procs != NULL && d->clock.paused)
		procs_hold(d->procs);
	return (d->step.done == d->step.total);
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
	if (d->trace != NULL)
		fflush(d->trace);
	if (why == NULL) {
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

	if (!d->step.active || d->exiting)
		return;
	if (daemon_step_run(d))
		daemon_step_end(d, NULL);
	else
		evtimer_add(d->step.ev, &tv);
}

/*
 * Start running n ticks (pausing the clock first), for client c (or
 * NULL), which gets "ok" when they have run.  A step already under way
 * is cancelled.  The first slice runs now: a short step is done at once.
 */
void
daemon_step_start(struct daemon *d, uint64_t n, struct server_client *c)
{
	daemon_step_cancel(d, "a new step");
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
void
daemon_set_speed(struct daemon *d, double speed)
{
	uint64_t	now = clock_now_ns();

	clock_set_speed(&d->clock, speed, now, engine_now(d->engine));
	if (!d->clock.paused) {
		daemon_arm(d, now);
	}
	daemon_changed(d);
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

	/* Like a command: the engine at the tick the wall clock says. */
	if (sig != SIGCHLD)
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

/* Flush the trace now and then, so `tail -f` sees it. */
static void
daemon_flush_trace(evutil_socket_t fd, short events, void *arg)
{
	struct daemon	*d = arg;

	if (d->trace != NULL)
		fflush(d->trace);
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

/* A scenario's real task: check its program now, spawn it later. */
static int
daemon_scenario_spawn(void *arg, struct engine *e, int id,
    const struct scenario_task *t, char **cause)
{
	struct daemon_pending	*pd;
	size_t			 n, i;

	if (procs_lookup(daemon_bindir, t->argv[0], cause) != 0)
		return (-1);
	daemon_pending = xreallocarray(daemon_pending, daemon_npending + 1,
	    sizeof *daemon_pending);
	pd = &daemon_pending[daemon_npending++];
	pd->id = id;
	for (n = 0; t->argv[n] != NULL; n++)
		;
	pd->argv = xcalloc(n + 1, sizeof *pd->argv);
	for (i = 0; i < n; i++)
		pd->argv[i] = xstrdup(t->argv[i]);
	return (0);
}

/* A child was woken (sched_wakeup): act on it now, not at the tick. */
static void
daemon_procs_wake(int fd, short events, void *arg)
{
	struct daemon	*d = arg;

	if (d->procs != NULL)
		procs_wakeups(d->procs);
}

/* The real-process layer has something to say: an event line. */
static void
daemon_procs_notice(void *arg, const char *text)
{
	daemon_note(arg, "%s", text);
}

/*
 * Start the real-process layer (after detaching): cgroups for the groups,
 * then the scenario's real tasks.  A task that fails to start shows as
 * exited with the reason; the rest carry on.
 */
static void
daemon_procs_start(struct daemon *d, const char *child_output)
{
	struct procs_config	 pc;
	char			*cause = NULL, **av;
	size_t			 i, j;
	int			 g;

	memset(&pc, 0, sizeof pc);
	if (d->cfg.ncpu_map > 0) {
		pc.map = d->cfg.cpu_map;
		pc.nmap = d->cfg.ncpu_map;
	}
	pc.outdir = child_output;
	pc.bindir = daemon_bindir;
	pc.cgroups = d->cfg.cgroups;
	pc.max_task_procs = d->cfg.max_task_procs;
	pc.observe_proc = d->cfg.observe != NULL &&
	    strcmp(d->cfg.observe, "proc") == 0;
	pc.notice = daemon_procs_notice;
	pc.notice_arg = d;
	if ((d->procs = procs_create(d->engine, &pc, &cause)) == NULL)
		fatalx("real processes: %s", cause);
	if (procs_event_fd(d->procs) != -1) {
		d->wake = event_new(d->base, procs_event_fd(d->procs),
		    EV_READ | EV_PERSIST, daemon_procs_wake, d);
		event_add(d->wake, NULL);
	}
	for (g = 0; g < engine_ngroups(d->engine); g++) {
		if (procs_group_setup(d->procs, g, &cause) != 0) {
			log_warnx("group %s: %s", engine_group_name(d->engine,
			    g), cause);
			free(cause);
		}
	}
	for (i = 0; i < daemon_npending; i++) {
		if (procs_spawn(d->procs, daemon_pending[i].id,
		    daemon_pending[i].argv, &cause) != 0) {
			log_warnx("%s", cause);
			daemon_note(d, "%s", cause);
			free(cause);
		}
		av = daemon_pending[i].argv;
		for (j = 0; av[j] != NULL; j++)
			free(av[j]);
		free(av);
	}
	free(daemon_pending);
	daemon_pending = NULL;
	daemon_npending = 0;
}

/*
 * Load the scenario (NULL, "" or "demo": the built-in demo; a name: a
 * built-in or installed scenario; else a file: paths.c) and build the
 * engine and the ledger from it and d->cfg.  main and the protocol
 * fuzzer (tests/fuzz/fuzz_protocol.c) set a daemon up through this.
 */
int
daemon_load(struct daemon *d, const char *path, char **cause)
{
	struct scenario		*sc;
	struct engine_params	 p;
	int			 id;

	/* A built-in's or an installed scenario's name, or a file. */
	if ((sc = paths_scenario_load(path, &d->scenario_label, cause)) == NULL)
		return (-1);
	if (d->ledger == NULL)
		d->ledger = ledger_create(DAEMON_LEDGER_ROWS);
	engine_params_default(&p);
	p.cpus = d->cfg.cpus;
	p.rr_interval = d->cfg.rr_interval;
	p.sleep_min = d->cfg.sleep_min;
	p.balance_interval = d->cfg.balance_interval;
	scenario_params(sc, &p);
	if (engine_params_check(&p, cause) != 0) {
		scenario_free(sc);
		return (-1);
	}
	d->engine = engine_create(&p, sc->policy != NULL ?
	    engine_policy_find(sc->policy) : NULL);
	if (scenario_apply(sc, d->engine, daemon_scenario_spawn, d,
	    cause) != 0) {
		scenario_free(sc);
		return (-1);
	}
	d->scenario_name = xstrdup(sc->name != NULL ? sc->name : "-");
	d->scenario_speed = sc->has_speed ? sc->speed : 0;
	scenario_free(sc);
	if (engine_ntasks(d->engine) > d->cfg.max_tasks) {
		*cause = xasprintf("%s: %d tasks, more than max_tasks (%d)",
		    d->scenario_label, engine_ntasks(d->engine),
		    d->cfg.max_tasks);
		return (-1);
	}
	for (id = 1; id <= engine_ntasks(d->engine); id++)
		daemon_task_added(d, id);
	return (0);
}

/* Free what the daemon holds (any part may be missing). */
void
daemon_free(struct daemon *d)
{
	size_t	j;
	int	i;

	if (d->trace != NULL && d->trace != stdout)
		fclose(d->trace);
	else if (d->trace != NULL)
		fflush(d->trace);
	d->trace = NULL;
	for (i = 0; i < DAEMON_EVENTS; i++)
		free(d->events[i].text);
	ledger_free(d->ledger);
	engine_free(d->engine);
	free(daemon_seen);
	daemon_seen = NULL;
	daemon_nseen = 0;
	for (j = 0; j < daemon_npending; j++) {
		for (i = 0; daemon_pending[j].argv[i] != NULL; i++)
			free(daemon_pending[j].argv[i]);
		free(daemon_pending[j].argv);
	}
	free(daemon_pending);
	daemon_pending = NULL;
	daemon_npending = 0;
	free(daemon_bindir);
	daemon_bindir = NULL;
	free(daemon_child_output);
	daemon_child_output = NULL;
	config_free(&d->cfg);
	free(d->config_path);
	free(d->socket_path);
	free(d->scenario_label);
	free(d->scenario_name);
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
	struct event		*sigs[4], *flush;
	struct timeval		 tv;
	struct sigaction	 sa;
	const char		*config_arg = NULL, *socket_arg = NULL;
	const char		*scenario_arg = NULL, *trace_arg = NULL;
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
		d->config_path = daemon_absolute(path);
		free(path);
	}
	log_set_level(d->cfg.log_level);

	/* The scenario and the engine. */
	daemon_bindir = procs_self_dir();
	if (d->cfg.child_output != NULL && *d->cfg.child_output != '\0')
		daemon_child_output = daemon_absolute(d->cfg.child_output);
	if (daemon_load(d, scenario_arg != NULL ? scenario_arg :
	    d->cfg.scenario, &cause) != 0)
		return (daemon_fail(d, cause, 2));

	/* The socket. */
	if (socket_arg != NULL)
		d->socket_path = daemon_absolute(socket_arg);
	else if (*d->cfg.socket != '\0')
		d->socket_path = daemon_absolute(d->cfg.socket);
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
		fprintf(d->trace, "tick,cpu,task,rank,iter,left\n");
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
	flush = event_new(d->base, -1, EV_PERSIST, daemon_flush_trace, d);
	tv.tv_sec = 0;
	tv.tv_usec = 200000;
	if (d->trace != NULL)	/* paused, idle: no wake-up at all */
		evtimer_add(flush, &tv);
	/* Children are stopped and continued all the time: SIGCHLD only
	 * when one ends (libevent installs the handler without the flag). */
	if (sigaction(SIGCHLD, NULL, &sa) == 0) {
		sa.sa_flags |= SA_NOCLDSTOP;
		sigaction(SIGCHLD, &sa, NULL);
	}
	daemon_procs_start(d, daemon_child_output);
	daemon_priority(&d->cfg);

	d->tick_fd = timerfd_create(CLOCK_MONOTONIC,
	    TFD_NONBLOCK | TFD_CLOEXEC);
	if (d->tick_fd == -1)
		fatal("timerfd_create");
	d->timer = event_new(d->base, d->tick_fd, EV_READ | EV_PERSIST,
	    daemon_timer, d);
	event_add(d->timer, NULL);
	clock_init(&d->clock, d->scenario_speed > 0 ? d->scenario_speed :
	    d->cfg.speed, clock_now_ns(), engine_now(d->engine));
	daemon_arm(d, clock_now_ns());

	log_info("serving %s on %s (%d cpus, speed %g)", d->scenario_name,
	    d->socket_path, engine_params(d->engine)->cpus, d->clock.speed);
	if (ready != -1) {
		(void)write(ready, "1", 1);
		close(ready);
	}

	event_base_dispatch(d->base);

	/* Clean exit: replies flushed, socket removed, everything freed. */
	server_flush(d->server);
	server_free(d->server);
	unlink(d->socket_path);
	if (d->wake != NULL)
		event_free(d->wake);
	procs_free(d->procs);	/* kills and reaps children, removes cgroups */
	d->procs = NULL;
	for (i = 0; i < 4; i++)
		event_free(sigs[i]);
	event_free(flush);
	event_free(d->timer);
	if (d->step.ev != NULL)
		event_free(d->step.ev);
	close(d->tick_fd);
	event_base_free(d->base);
	daemon_free(d);
	log_info("exited");
	return (0);
}
