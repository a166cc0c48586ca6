/*
 * bridge.c -- what real child processes add to the live daemon's ticks.
 *
 * The real-process layer (src/real/, proc.h) spawns, stops, continues
 * and watches the children; the bridge runs it for the live session:
 * starts it once the daemon is ready (cgroups for the groups, then the
 * scenario's real tasks, checked when the session was made and spawned
 * now), ends it with the session, and around each tick has it read what
 * the children did and make them do what the engine decided.  It also
 * keeps what the kernel ran on each engine CPU beside what the engine
 * decided (kruns: the frames' kruns lines, and the Perfetto trace's
 * kernel tracks), and keeps the daemon's loop off the children's CPUs
 * while one lives.
 */
#include <sched.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge.h"
#include "change.h"
#include "config.h"
#include "engine.h"
#include "format.h"
#include "kticks.h"
#include "log.h"
#include "notes.h"
#include "path.h"
#include "perfetto.h"
#include "proc.h"
#include "runs.h"
#include "scenario.h"
#include "session.h"
#include "sinks.h"
#include "xmalloc.h"

/* A scenario's real task: checked at load, spawned once started. */
struct bridge_pending {
	int	  id;
	char	**argv;
};

struct bridge {
	const struct config	*cfg;
	struct notes		*notes;
	struct sinks		*sinks;
	char			*bindir;	/* real tasks' programs */
	char			*child_output;	/* children's logs */
	struct procs		*procs;		/* NULL: not started */
	struct session		*session;	/* the one it runs for */
	struct bridge_hooks	 hooks;
	struct bridge_pending	*pending;	/* real tasks to spawn */
	size_t			 npending;
	/* bridge_real_live's cache: the counts it was taken at. */
	int			 ntasks, nlive, live;
	int			 off;		/* kept off the children's CPUs */
	cpu_set_t		 cpus0;		/* ours, while off */
	/*
	 * What the kernel ran (its runs of the children, read once a tick
	 * for both): per engine CPU and tick (kruns lines), and the
	 * Perfetto trace's kernel tracks.
	 */
	struct kticks		*kr;		/* NULL: no switch events */
	struct runs		*kruns;		/* NULL: no real task yet */
	uint64_t		*krcursor;	/* per physical CPU: runs read */
	uint64_t		 kr_next;	/* the next tick to settle */
};

/* A bridge for the daemon configured by cfg; nothing started. */
struct bridge *
bridge_create(const struct config *cfg, struct notes *notes,
    struct sinks *sinks)
{
	struct bridge	*b;

	b = xcalloc(1, sizeof *b);
	b->cfg = cfg;
	b->notes = notes;
	b->sinks = sinks;
	b->bindir = path_self_dir();
	if (cfg->child_output != NULL && *cfg->child_output != '\0')
		b->child_output = path_absolute(cfg->child_output);
	b->ntasks = -1;
	return (b);
}

/* Free the bridge (its layer stopped first: bridge_stop). */
void
bridge_free(struct bridge *b)
{
	if (b == NULL)
		return;
	bridge_stop(b);
	bridge_pending_drop(b);
	free(b->bindir);
	free(b->child_output);
	free(b);
}

/* Forget the real tasks still waiting to be spawned. */
void
bridge_pending_drop(struct bridge *b)
{
	size_t	i;

	for (i = 0; i < b->npending; i++)
		argv_free(b->pending[i].argv);
	free(b->pending);
	b->pending = NULL;
	b->npending = 0;
}

/* A scenario's real task: check its program now, spawn it later. */
int
bridge_pending(void *arg, struct engine *e, int id,
    const struct scenario_task *t, char **cause)
{
	struct bridge		*b = arg;
	struct bridge_pending	*p;

	if (procs_lookup(b->bindir, t->argv[0], cause) != 0)
		return (-1);
	b->pending = xreallocarray(b->pending, b->npending + 1,
	    sizeof *b->pending);
	p = &b->pending[b->npending++];
	p->id = id;
	p->argv = argv_copy(t->argv);
	return (0);
}

/* The layer has something to say: an event line. */
static void
bridge_notice(void *arg, const char *text)
{
	struct bridge	*b = arg;

	notes_add(b->notes, session_now(b->session), "%s", text);
}

/* A change the layer saw, for the owner. */
static int
bridge_change(void *arg, const struct change *ch, char **cause)
{
	struct bridge	*b = arg;

	return (b->hooks.change(b->hooks.arg, ch, cause));
}

/* A wake the layer acted on at once, for the owner. */
static void
bridge_woke(void *arg, int cpu, int task, int rank, uint64_t ns)
{
	struct bridge	*b = arg;

	if (b->hooks.woke != NULL)
		b->hooks.woke(b->hooks.arg, cpu, task, rank, ns);
}

/* Start keeping what the kernel ran, if its switch events are read. */
static void
bridge_kruns_start(struct bridge *b, struct session *s)
{
	int	nk = procs_kernel_ncpus(b->procs);

	if (nk == 0)
		return;
	b->kr = kticks_create(nk);
	b->krcursor = xcalloc(nk, sizeof *b->krcursor);
	b->kr_next = session_now(s);
}

/* Stop it (the layer ends). */
static void
bridge_kruns_stop(struct bridge *b)
{
	kticks_free(b->kr);
	b->kr = NULL;
	runs_free(b->kruns);
	b->kruns = NULL;
	free(b->krcursor);
	b->krcursor = NULL;
}

/*
 * Start the real-process layer for session s (after detaching): cgroups
 * for the groups, then the scenario's real tasks.  A task that fails to
 * start shows as exited with the reason; the rest carry on.
 */
void
bridge_start(struct bridge *b, struct session *s,
    const struct bridge_hooks *hooks)
{
	const struct engine	*e = session_live_engine(s);
	const struct config	*cfg = b->cfg;
	struct procs_config	 pc;
	char			*cause = NULL;
	size_t			 i;
	int			 g;

	b->hooks = *hooks;
	b->session = s;
	memset(&pc, 0, sizeof pc);
	if (cfg->ncpu_map > 0) {
		pc.map = cfg->cpu_map;
		pc.nmap = cfg->ncpu_map;
	}
	pc.outdir = b->child_output;
	pc.bindir = b->bindir;
	pc.cgroups = cfg->cgroups;
	pc.max_task_procs = cfg->max_task_procs;
	pc.observe_proc = cfg->observe != NULL &&
	    strcmp(cfg->observe, "proc") == 0;
	pc.change = bridge_change;
	pc.change_arg = b;
	pc.notice = bridge_notice;
	pc.notice_arg = b;
	pc.woke = bridge_woke;
	pc.woke_arg = b;
	if ((b->procs = procs_create(e, &pc, &cause)) == NULL)
		fatalx("real processes: %s", cause);
	for (g = 0; g < engine_ngroups(e); g++) {
		if (procs_group_setup(b->procs, g, &cause) != 0) {
			log_warnx("group %s: %s", engine_group_name(e, g),
			    cause);
			free(cause);
		}
	}
	for (i = 0; i < b->npending; i++) {
		if (procs_spawn(b->procs, b->pending[i].id,
		    b->pending[i].argv, &cause) != 0) {
			log_warnx("%s", cause);
			notes_add(b->notes, session_now(s), "%s", cause);
			free(cause);
		}
	}
	bridge_pending_drop(b);
	bridge_kruns_start(b, s);
	b->ntasks = -1;
}

/* End the layer: children killed and reaped, cgroups gone. */
void
bridge_stop(struct bridge *b)
{
	if (b->procs == NULL)
		return;
	bridge_kruns_stop(b);
	procs_free(b->procs);
	b->procs = NULL;
	b->session = NULL;
	b->ntasks = -1;
	bridge_off(b, NULL);
}

/* The layer, NULL if it is not running. */
struct procs *
bridge_procs(const struct bridge *b)
{
	return (b->procs);
}

/* The session's present engine is another (a branch). */
void
bridge_set_engine(struct bridge *b, const struct engine *e)
{
	if (b->procs != NULL)
		procs_set_engine(b->procs, e);
	b->ntasks = -1;
}

/* The task counts may have changed behind the cache's back. */
void
bridge_forget(struct bridge *b)
{
	b->ntasks = -1;
}

/*
 * Whether a real task is alive, cached on the task counts: tasks are only
 * added and only exit, so the set of live ones changes only when one of
 * the two counts does.
 */
int
bridge_real_live(struct bridge *b, struct session *s)
{
	const struct engine	*e = session_live_engine(s);
	struct engine_task_info	 ti;
	int			 id, n, live;

	n = engine_ntasks(e);
	live = engine_nlive(e);
	if (n == b->ntasks && live == b->nlive)
		return (b->live);
	b->ntasks = n;
	b->nlive = live;
	b->live = 0;
	for (id = 1; id <= n; id++) {
		if (engine_task_info(e, id, &ti) == 0 &&
		    ti.kind == ENGINE_REAL && ti.state != ENGINE_EXITED) {
			b->live = 1;
			break;
		}
	}
	return (b->live);
}

/*
 * While a real task is alive, keep the loop off the physical CPUs the
 * engine's are mapped to, where the machine has two or more others we
 * may run on (procs_off_cpus): each of its wake-ups there (up to one a
 * tick) preempts the child running, which then waits (a 1-CPU
 * scenario's hogs waited 12 % of their time beside a loop woken every
 * tick).  Else, and once the layer ends (s NULL: the next one's default
 * map is the CPUs we may run on), all of ours back.  Every catch-up
 * asks (real tasks come and go between ticks), and the layer's end.
 */
void
bridge_off(struct bridge *b, struct session *s)
{
	cpu_set_t	set;
	int		off;

	off = s != NULL && b->procs != NULL && bridge_real_live(b, s);
	if (off == b->off)
		return;
	if (off) {
		/* Not off yet: what we may run on is all of ours. */
		if (sched_getaffinity(0, sizeof b->cpus0, &b->cpus0) != 0)
			return;
		procs_off_cpus(b->procs, &b->cpus0, &set);
	} else
		set = b->cpus0;
	b->off = off;
	if (sched_setaffinity(0, sizeof set, &set) != 0)
		log_debug("sched_setaffinity: %s", strerror(errno));
}

/* What the children did, read before the tick (the last of a run). */
void
bridge_observe(struct bridge *b)
{
	if (b->procs != NULL)
		procs_observe(b->procs);
}

/* A tick run before the last of several: stamped with its time only. */
void
bridge_stamp(struct bridge *b, uint64_t ns)
{
	if (b->procs != NULL)
		procs_stamp(b->procs, ns);
}

/* A kernel run into the Perfetto trace's kernel track (open: to_ns 0). */
static void
bridge_perfetto_run(struct bridge *b, struct session *s,
    const struct procs_krun *r)
{
	struct engine_task_info	ti;
	uint64_t		to = 0;

	if (engine_task_info(session_live_engine(s), r->task, &ti) != 0)
		ti.name = "?";
	if (r->to_ns != 0 && (to = procs_engine_ns(b->procs, r->to_ns)) == 0)
		to = 1;				/* 0 is "open" */
	perfetto_kernel_run(sinks_perfetto(b->sinks), r->cpu, r->pid, ti.name,
	    r->prio, procs_engine_ns(b->procs, r->from_ns), to,
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
bridge_kernel_drain(struct bridge *b, struct session *s)
{
	struct procs_krun	 r[64];
	size_t			 n, i;
	int			 p, nk = procs_kernel_ncpus(b->procs);

	for (p = 0; p < nk; p++) {
		while ((n = procs_kernel_runs(b->procs, p, &b->krcursor[p], r,
		    64)) > 0) {
			for (i = 0; i < n; i++) {
				kticks_add(b->kr, &r[i]);
				if (sinks_perfetto(b->sinks) != NULL)
					bridge_perfetto_run(b, s, &r[i]);
			}
		}
		if (procs_kernel_lost(b->procs, p))
			kticks_lost(b->kr, p);
	}
}

/*
 * What the kernel ran in a tick, put beside what the engine decided: for
 * each engine CPU, what held its physical CPU longest between the
 * tick's decisions being enforced and the next tick's (kticks.c).  A tick
 * is settled two ticks late, once the switch records of its whole span
 * have been read (procs_observe reads them at the start of each tick).
 * The ring starts with the first tick a real task is alive.
 */
static void
bridge_kruns_tick(struct bridge *b, struct session *s, uint64_t tick)
{
	struct procs_krun	 open;
	uint64_t		 from, to;
	int			 c, p, what;

	if (tick < 2)
		return;
	if (b->kruns == NULL) {
		if (!bridge_real_live(b, s))
			return;
		/* As far back as the session's runs (its history). */
		b->kruns = runs_create(engine_params(
		    session_live_engine(s))->cpus, runs_cap(session_runs(s)),
		    runs_keep(session_runs(s)));
	}
	tick -= 2;
	from = procs_tick_ns(b->procs, tick);
	to = procs_tick_ns(b->procs, tick + 1);
	for (c = 0; c < runs_ncpus(b->kruns); c++) {
		p = procs_phys_cpu(b->procs, c);
		what = KRUNS_UNKNOWN;
		if (from != 0 && to > from)
			what = kticks_tick(b->kr, p, from, to,
			    procs_kernel_running(b->procs, p, &open) ?
			    &open : NULL);
		runs_put(b->kruns, c, tick, what, -1, 1);
	}
}

/*
 * Make the real processes do what the tick just run decided.  Then the
 * kernel's runs, once every tick up to the present is stamped (a run
 * after a tick's stamp would map onto that tick), and the ticks since
 * the last settle, in order.
 */
void
bridge_enforce(struct bridge *b, struct session *s, uint64_t tick)
{
	if (b->procs != NULL)
		procs_enforce(b->procs);
	if (b->kr == NULL)
		return;
	bridge_kernel_drain(b, s);
	for (; b->kr_next <= tick; b->kr_next++)
		bridge_kruns_tick(b, s, b->kr_next);
}

/*
 * The end of the Perfetto trace's kernel tracks: the runs closed since
 * the last tick, then those still open.
 */
void
bridge_perfetto_end(struct bridge *b, struct session *s)
{
	struct procs_krun	 r;
	int			 p;

	if (b->kr == NULL || sinks_perfetto(b->sinks) == NULL)
		return;
	bridge_kernel_drain(b, s);
	for (p = 0; p < procs_kernel_ncpus(b->procs); p++) {
		if (procs_kernel_running(b->procs, p, &r))
			bridge_perfetto_run(b, s, &r);
	}
}

/* The real-process part of a task line, from procs_info. */
int
bridge_real(struct bridge *b, int id, struct format_real *real,
    char *exitbuf, size_t len)
{
	struct procs_info	info;

	memset(real, 0, sizeof *real);
	if (b->procs == NULL || procs_info(b->procs, id, &info) != 0)
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

/* Why a real task ended, as its process says; -1 if it does not. */
int
bridge_exit_reason(struct bridge *b, int id, char *buf, size_t len)
{
	struct procs_info	info;

	if (b->procs == NULL || procs_info(b->procs, id, &info) != 0 ||
	    info.by_engine || info.exit[0] == '\0')
		return (-1);
	snprintf(buf, len, "%s", info.exit);
	return (0);
}

/* What the kernel ran on each engine CPU, tick by tick; NULL: unknown. */
const struct runs *
bridge_kruns(const struct bridge *b)
{
	return (b->kruns);
}
