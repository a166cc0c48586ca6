/*
 * proc.c -- real child processes under the engine (SPEC.md section 5):
 * the layer's state, its creation and tear-down, and what callers ask of
 * it (info, the CPU map, group cgroups).  The work is done by:
 *
 *	proc-spawn.c	spawn and reap the children, kill a task
 *	proc-sample.c	/proc sampling before a tick: blocked, woken,
 *			members of a process group, measured CPU time
 *	proc-event.c	the kernel's sched events: wakes, switches
 *	proc-krun.c	the kernel's runs of the children, from switches
 *	proc-enforce.c	after a tick: stop, pin, continue
 *	proc-watch.c	the watchdog process that outlives a killed daemon
 *
 * Costs drive the design (see docs/LIMITS.md and docs/REAL.md):
 * a signal to another CPU is ~25 us and a setaffinity of a running child
 * ~53 us, but of a stopped one ~2 us; a pread on a kept /proc fd is ~2 us
 * and a sweep of many is not cheap.  Each file says what follows for it.
 */
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "change.h"
#include "engine.h"
#include "log.h"
#include "proc-int.h"
#include "xmalloc.h"

/* Monotonic time in ns. */
uint64_t
proc_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec);
}

/* Find a task by its process group. */
struct proc *
proc_by_pid(struct procs *ps, pid_t pid)
{
	int	i;

	for (i = 1; i < ps->nt; i++) {
		if (ps->t[i] != NULL && ps->t[i]->live &&
		    ps->t[i]->pid == pid)
			return (ps->t[i]);
	}
	return (NULL);
}

/* The task of an id, NULL if it is not a real task we know. */
struct proc *
proc_get(struct procs *ps, int id)
{
	if (id <= 0 || id >= ps->nt)
		return (NULL);
	return (ps->t[id]);
}

/*
 * Tell the engine's owner that task id was seen blocked, runnable again
 * or dead (kind: CHANGE_BLOCK, CHANGE_WAKE, CHANGE_EXIT): the layer never
 * changes the engine itself.  0, or -1 with *cause.
 */
int
proc_change(struct procs *ps, int kind, int id, char **cause)
{
	struct change	ch;

	if (ps->change == NULL) {
		*cause = xstrdup("no change callback");
		return (-1);
	}
	memset(&ch, 0, sizeof ch);
	ch.kind = (enum change_kind)kind;
	ch.task = id;
	return (ps->change(ps->change_arg, &ch, cause));
}

/*
 * Something the caller's users should hear of (a continue from outside, a
 * replaced watchdog, a process tree past its cap): logged, and handed to
 * the caller's notice callback, which the daemon turns into an event.
 */
void
proc_notice(struct procs *ps, const char *fmt, ...)
{
	va_list	 ap;
	char	 text[512];

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	log_warnx("%s", text);
	if (ps->notice != NULL)
		ps->notice(ps->notice_arg, text);
}

/* The kernel's pid_max. */
static long
proc_pidmax(void)
{
	char	buf[32];
	long	v;

	if (cgroup_read("/proc/sys/kernel/pid_max", buf, sizeof buf) != 0 ||
	    (v = strtol(buf, NULL, 10)) <= 0)
		return (4194304);
	return (v);
}

/* The default map: the CPUs we may run on, round-robin. */
static void
proc_default_map(struct procs *ps)
{
	cpu_set_t	set;
	int		cpus[CPU_SETSIZE], n = 0, i;

	if (sched_getaffinity(0, sizeof set, &set) == 0) {
		for (i = 0; i < CPU_SETSIZE; i++) {
			if (CPU_ISSET(i, &set))
				cpus[n++] = i;
		}
	}
	if (n == 0)
		cpus[n++] = 0;
	for (i = 0; i < ps->ncpus; i++)
		ps->map[i] = cpus[i % n];
}

/*
 * The engine to read from now on: the session's present after a branch
 * (a seek, then resume), which only a session without real tasks makes,
 * so no task of the layer's changes.
 */
void
procs_set_engine(struct procs *ps, const struct engine *e)
{
	ps->e = e;
}

/* Create the real-process layer for an engine. */
struct procs *
procs_create(const struct engine *e, const struct procs_config *conf,
    char **cause)
{
	struct procs	*ps;
	struct rlimit	 rl;
	char		*why;
	int		 i;

	ps = xcalloc(1, sizeof *ps);
	ps->e = e;
	ps->self = getpid();
	ps->ncpus = engine_params(e)->cpus;
	ps->map = xcalloc(ps->ncpus, sizeof *ps->map);
	ps->woke = xcalloc(ps->ncpus, sizeof *ps->woke);
	ps->woke_rank = xcalloc(ps->ncpus, sizeof *ps->woke_rank);
	ps->tick_ns = xcalloc(PROC_TICK_TIMES, sizeof *ps->tick_ns);
	ps->tick_of = xcalloc(PROC_TICK_TIMES, sizeof *ps->tick_of);
	ps->runcpu = NULL;
	ps->wdfd = -1;
	proc_default_map(ps);
	if (conf != NULL && conf->map != NULL) {
		for (i = 0; i < ps->ncpus && i < conf->nmap; i++) {
			if (conf->map[i] < 0 || conf->map[i] >= CPU_SETSIZE) {
				*cause = xasprintf("cpu map: engine cpu %d: "
				    "bad physical cpu %d", i, conf->map[i]);
				free(ps->map);
				free(ps->woke);
				free(ps->woke_rank);
				free(ps->tick_ns);
				free(ps->tick_of);
				free(ps);
				return (NULL);
			}
			ps->map[i] = conf->map[i];
		}
	}
	if (conf != NULL && conf->outdir != NULL)
		ps->outdir = xstrdup(conf->outdir);
	if (conf != NULL && conf->bindir != NULL)
		ps->bindir = xstrdup(conf->bindir);
	ps->max_procs = PROC_MAX_PROCS;
	if (conf != NULL && conf->max_task_procs > 0)
		ps->max_procs = conf->max_task_procs;
	if (conf != NULL) {
		ps->change = conf->change;
		ps->change_arg = conf->change_arg;
		ps->notice = conf->notice;
		ps->notice_arg = conf->notice_arg;
		ps->woke_cb = conf->woke;
		ps->woke_arg = conf->woke_arg;
	}
	/* Each real task keeps two or three /proc descriptors open. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		ps->nofile = rl;	/* children get the old one back */
		ps->nofile_set = 1;
		if (rl.rlim_cur < rl.rlim_max) {
			rl.rlim_cur = rl.rlim_max;
			setrlimit(RLIMIT_NOFILE, &rl);
		}
	}
	ps->loadavgfd = open(conf != NULL && conf->loadavg != NULL ?
	    conf->loadavg : "/proc/loadavg", O_RDONLY | O_CLOEXEC);
	ps->lastpid = proc_sample_lastpid(ps);
	ps->pidmax = proc_pidmax();

	if (conf != NULL && conf->cgroups) {
		why = NULL;
		ps->cg = cgroup_create(ps->self, &why);
		if (ps->cg == NULL) {
			log_info("cgroups: none (%s): affinity only", why);
			free(why);
		} else
			log_info("cgroups: %s at %s", cgroup_mode(ps->cg),
			    cgroup_root(ps->cg));
	} else
		log_info("cgroups: none (disabled): affinity only");
	if (conf != NULL && conf->cgroups) {
		why = NULL;
		if ((ps->pids = cgroup_pids_create(ps->self, &why)) == NULL) {
			log_info("pids cgroup: none (%s): max_task_procs %d "
			    "reported only", why, ps->max_procs);
			free(why);
		} else
			log_info("pids cgroup: v1 at %s, max_task_procs %d",
			    cgroup_pids_root(ps->pids), ps->max_procs);
	}
	why = NULL;
	if (conf != NULL && conf->observe_proc)
		log_info("observe: proc (configured): blocked tasks polled");
	else if (proc_event_start(ps, &why) == 0) {
		if (proc_event_switch_why(ps) == NULL)
			log_info("observe: events (sched_waking and "
			    "sched_switch, perf_event_open)");
		else
			log_info("observe: events (sched_waking, "
			    "perf_event_open; no sched_switch: %s: running "
			    "tasks polled, no kernel runs)",
			    proc_event_switch_why(ps));
	} else {
		log_info("observe: proc (%s): blocked tasks polled", why);
		free(why);
	}
	proc_watch_start(ps);
	return (ps);
}

/* Kill every child, reap them, remove the cgroups, free. */
void
procs_free(struct procs *ps)
{
	struct proc	*p;
	struct timespec	 ts = { 0, 1000000 };
	uint64_t	 med, p99, own, own99;
	size_t		 n;
	int		 i, left, tries, status;
	pid_t		 pid;

	if (ps == NULL)
		return;
	for (i = 1; i < ps->nt; i++) {
		if ((p = ps->t[i]) != NULL && p->live) {
			kill(-p->pid, SIGKILL);
			kill(-p->pid, SIGCONT);
		}
	}
	/* Reap our children; give up on one after about two seconds. */
	for (tries = 0; tries < 2000; tries++) {
		left = 0;
		for (i = 1; i < ps->nt; i++) {
			if ((p = ps->t[i]) == NULL || !p->live)
				continue;
			pid = waitpid(p->pid, &status, WNOHANG);
			if (pid == p->pid || (pid == -1 && errno == ECHILD))
				p->live = 0;
			else
				left++;
		}
		if (left == 0)
			break;
		nanosleep(&ts, NULL);
	}
	proc_watch_stop(ps);
	if ((n = procs_wake_delay(ps, &med, &p99)) > 0) {
		procs_wake_own(ps, &own, &own99);
		log_info("wakes acted on: %zu (last), delay median %llu us, "
		    "p99 %llu us; the loop's own part: median %llu us, "
		    "p99 %llu us", n, (unsigned long long)med / 1000,
		    (unsigned long long)p99 / 1000,
		    (unsigned long long)own / 1000,
		    (unsigned long long)own99 / 1000);
	}
	proc_event_stop(ps);
	cgroup_free(ps->cg);
	cgroup_pids_free(ps->pids);
	for (i = 1; i < ps->nt; i++) {
		if ((p = ps->t[i]) == NULL)
			continue;
		proc_sample_clear(ps, p);
		free(p->m);
		if (p->errfd != -1)
			close(p->errfd);
		free(p->name);
		free(p->prog);
		free(p);
	}
	if (ps->loadavgfd != -1)
		close(ps->loadavgfd);
	free(ps->t);
	free(ps->runcpu);
	free(ps->map);
	free(ps->woke);
	free(ps->woke_rank);
	free(ps->tick_ns);
	free(ps->tick_of);
	free(ps->outdir);
	free(ps->bindir);
	free(ps);
}

/* What is known of a real task's process. */
int
procs_info(struct procs *ps, int id, struct procs_info *info)
{
	struct proc	*p;

	memset(info, 0, sizeof *info);
	if ((p = proc_get(ps, id)) == NULL)
		return (-1);
	if (p->live) {
		proc_sample_settle(p);
		proc_sample_cputime(p);
	}
	info->pid = p->pid;
	info->cputime_ns = p->cpu_ns;
	info->cputime_ms = p->cpu_ns / 1000000ULL;
	info->stolen_ns = p->stolen_ns;
	/* Unpicked: what it ran since, once the stop's reading holds. */
	if (p->live && !p->picked && !p->settle &&
	    p->cpu_ns > p->unpicked_ns)
		info->stolen_ns += p->cpu_ns - p->unpicked_ns;
	info->stolen_ms = info->stolen_ns / 1000000ULL;
	info->exited = !p->live;
	info->stopped = p->live && p->stopped;
	info->by_engine = p->killed;
	info->procs = p->nm;
	snprintf(info->exit, sizeof info->exit, "%s", p->exit);
	snprintf(info->error, sizeof info->error, "%s", p->error);
	return (0);
}

/* "v2", "v1" or "none". */
const char *
procs_cgroup_mode(struct procs *ps)
{
	return (ps->cg != NULL ? cgroup_mode(ps->cg) : "none");
}

/* The pids cgroup holding max_task_procs: "v2", "v1" or "none". */
const char *
procs_pids_mode(struct procs *ps)
{
	return (ps->pids != NULL ? "v1" : "none");
}

/* How wakes of blocked tasks are seen: "events" or "proc". */
const char *
procs_observe_mode(struct procs *ps)
{
	return (ps->ev != NULL ? "events" : "proc");
}

/* When the decisions of tick were enforced, CLOCK_MONOTONIC; 0: unknown. */
uint64_t
procs_tick_ns(struct procs *ps, uint64_t tick)
{
	if (ps->tick_of[tick % PROC_TICK_TIMES] != tick + 1)
		return (0);
	return (ps->tick_ns[tick % PROC_TICK_TIMES]);
}

/* A kernel time on the engine's time line (proc.h). */
uint64_t
procs_engine_ns(struct procs *ps, uint64_t ns)
{
	uint64_t	lo, hi, mid, last, at, off;

	if ((last = engine_now(ps->e)) == 0)
		return (0);
	last--;				/* the last tick enforced */
	lo = last >= PROC_TICK_TIMES ? last - PROC_TICK_TIMES + 1 : 0;
	/* Ticks before the layer came (a spawn mid-run) have no stamp. */
	if (ps->tick_first > 0 && ps->tick_first - 1 > lo)
		lo = ps->tick_first - 1;
	while (lo < last && procs_tick_ns(ps, lo) == 0)
		lo++;			/* any other tick not enforced */
	if ((at = procs_tick_ns(ps, lo)) == 0 || ns <= at)
		return (lo * 1000000ULL);
	/* The last tick in [lo, last] enforced at or before ns. */
	hi = last;
	while (lo < hi) {
		mid = lo + (hi - lo + 1) / 2;
		at = procs_tick_ns(ps, mid);
		if (at != 0 && at <= ns)
			lo = mid;
		else
			hi = mid - 1;
	}
	off = ns - procs_tick_ns(ps, lo);
	if (off > 999000)
		off = 999000;		/* 1 us before the next tick */
	return (lo * 1000000ULL + off);
}

/* The watchdog's pid, 0 if there is none. */
pid_t
procs_watchdog(struct procs *ps)
{
	return (ps->watchdog);
}

/* The cgroup directory of an engine group, NULL without one. */
const char *
procs_cgroup_path(struct procs *ps, int group)
{
	if (ps->cg == NULL)
		return (NULL);
	return (cgroup_group_path(ps->cg, group));
}

/* The physical CPU of an engine CPU. */
int
procs_phys_cpu(struct procs *ps, int cpu)
{
	if (cpu < 0 || cpu >= ps->ncpus)
		return (-1);
	return (ps->map[cpu]);
}

/*
 * The CPUs of ours that no engine CPU is mapped to, for a loop to keep
 * off its children's (each of its wake-ups on one preempts the child
 * there); all of ours unless two are left: confined to one, a loop at
 * SCHED_FIFO is starved there by any other real-time task (seen under
 * the suite's parallel tests: 100 ms late, its children's ticks given
 * to the wrong one), where the kernel would have moved it.
 */
void
procs_off_cpus(struct procs *ps, const cpu_set_t *ours, cpu_set_t *off)
{
	int	c;

	*off = *ours;
	for (c = 0; c < ps->ncpus; c++) {
		if (ps->map[c] >= 0 && ps->map[c] < CPU_SETSIZE)
			CPU_CLR(ps->map[c], off);
	}
	if (CPU_COUNT(off) < 2)
		*off = *ours;
}

/* Create (or update) the cgroup of an engine group. */
int
procs_group_setup(struct procs *ps, int group, char **cause)
{
	struct cpumask	 eng, phys;
	const char	*name;
	int		 c;

	if (ps->cg == NULL)
		return (0);
	if ((name = engine_group_name(ps->e, group)) == NULL) {
		*cause = xasprintf("no group %d", group);
		return (-1);
	}
	if (engine_group_cpus(ps->e, group, &eng) != 0) {
		*cause = xasprintf("no group %d", group);
		return (-1);
	}
	cpumask_zero(&phys);
	CPUMASK_FOREACH(c, &eng) {
		if (c < ps->ncpus)
			cpumask_set(&phys, ps->map[c]);
	}
	return (cgroup_group(ps->cg, group, name, &phys, cause));
}
