/*
 * proc-life.c -- the real-process layer made and torn down: procs_create
 * sets up its CPU map, its limits, the cgroups, the kernel's events and
 * the runs their switches make (or /proc polling), and the watchdog;
 * procs_free kills and reaps every child and undoes the rest.
 */
#include <sys/resource.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "engine.h"
#include "log.h"
#include "proc-int.h"
#include "xmalloc.h"

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

/* Is conf's cpu map (if any) of physical CPUs for ncpus? 0, or -1. */
static int
proc_map_check(const struct procs_config *conf, int ncpus, char **cause)
{
	int	i;

	if (conf == NULL || conf->map == NULL)
		return (0);
	for (i = 0; i < ncpus && i < conf->nmap; i++) {
		if (conf->map[i] < 0 || conf->map[i] >= CPU_SETSIZE) {
			*cause = xasprintf("cpu map: engine cpu %d: bad "
			    "physical cpu %d", i, conf->map[i]);
			return (-1);
		}
	}
	return (0);
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

	if (proc_map_check(conf, engine_params(e)->cpus, cause) != 0)
		return (NULL);
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
		for (i = 0; i < ps->ncpus && i < conf->nmap; i++)
			ps->map[i] = conf->map[i];
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
	else if (proc_event_start(ps, &proc_wake_calls, &why) == 0) {
		/* Their switch records make the kernel's runs (proc-kernel.c). */
		if (ps->ev->has_switch)
			proc_kernel_create(ps, ps->ev->ncpu);
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
	proc_kernel_free(ps);
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
