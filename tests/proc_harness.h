/*
 * proc_harness.h -- what the real-process tests share: an engine with
 * real tasks, the procs layer over it, and a 1 ms real-time loop that does
 * what the daemon does around each tick (reap, observe, tick, enforce).
 * Header-only so each test program stays one file.
 */
#ifndef STAIRS_PROC_HARNESS_H
#define STAIRS_PROC_HARNESS_H

#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "change.h"
#include "clock.h"
#include "engine.h"
#include "log.h"
#include "monotonic.h"
#include "proc-int.h"
#include "xmalloc.h"
#include "bindir.h"
#include "skip_timing.h"

struct harness {
	struct engine	*e;
	struct procs	*ps;
	char		 bindir[PATH_MAX];
	char		 load[PATH_MAX + 32];	/* stairs-load */
	struct timespec	 enforced;		/* last procs_enforce */
	int		 sigchld_only;		/* reap on SIGCHLD only */
};

/* Microseconds since the last procs_enforce. */
static __attribute__((unused)) long
harness_since_enforce(struct harness *h)
{
	struct timespec	now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return ((now.tv_sec - h->enforced.tv_sec) * 1000000L +
	    (now.tv_nsec - h->enforced.tv_nsec) / 1000L);
}

/*
 * Run this process at SCHED_FIFO (reset on fork, so children do not
 * inherit it), as the daemon does where allowed; 0 if it could.
 */
static __attribute__((unused)) int
harness_realtime(void)
{
	struct sched_param	sp = { .sched_priority = 1 };

	return (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp));
}

/*
 * The layer's changes made to the harness's engine, as the daemon's
 * session does (less the journal).
 */
static __attribute__((unused)) int
harness_change(void *arg, const struct change *ch, char **cause)
{
	struct engine	*e = arg;

	switch (ch->kind) {
	case CHANGE_BLOCK:
		return (engine_task_block(e, ch->task, cause));
	case CHANGE_WAKE:
		return (engine_task_wake(e, ch->task, cause));
	case CHANGE_EXIT:
	case CHANGE_KILL:
		return (engine_task_kill(e, ch->task, cause));
	default:
		*cause = strdup("not a change of the real-process layer");
		return (-1);
	}
}

/*
 * An engine of ncpus CPUs and the procs layer over it as conf says (its
 * bindir is set here, to where stairs-load is).  The caller has called
 * log_init.
 */
static __attribute__((unused)) void
harness_init_conf(struct harness *h, int ncpus, struct procs_config *conf)
{
	struct engine_params	 p;
	char			*cause = NULL;

	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	harness_realtime();
	memset(h, 0, sizeof *h);
	test_bindir("stairs-load", h->bindir, sizeof h->bindir);
	snprintf(h->load, sizeof h->load, "%s/stairs-load", h->bindir);
	if (access(h->load, X_OK) != 0) {
		fprintf(stderr, "no stairs-load at %s (make first)\n",
		    h->load);
		exit(1);
	}
	engine_params_default(&p);
	p.cpus = ncpus;
	h->e = engine_create(&p, &engine_policy_staircase);
	conf->bindir = h->bindir;
	conf->change = harness_change;
	conf->change_arg = h->e;
	if ((h->ps = procs_create(h->e, conf, &cause)) == NULL) {
		fprintf(stderr, "procs_create: %s\n", cause);
		exit(1);
	}
}

/* An engine of ncpus CPUs and the procs layer over it (map may be NULL). */
static __attribute__((unused)) void
harness_init(struct harness *h, int ncpus, const int *map, int cgroups)
{
	struct procs_config	 conf;

	log_init("test", 1, LOG_LEVEL_WARN);
	memset(&conf, 0, sizeof conf);
	conf.map = map;
	conf.nmap = map != NULL ? ncpus : 0;
	conf.cgroups = cgroups;
	harness_init_conf(h, ncpus, &conf);
}

/* Tear everything down. */
static __attribute__((unused)) void
harness_done(struct harness *h)
{
	procs_free(h->ps);
	engine_free(h->e);
}

/* Add a real task and spawn its command; returns the task id. */
static __attribute__((unused)) int
harness_spawn_cpus(struct harness *h, const char *name, const char *cpus,
    int group, char *const argv[])
{
	struct engine_task_spec	 spec;
	struct cpumask		 m;
	char			*cause = NULL;
	int			 id;

	memset(&spec, 0, sizeof spec);
	spec.name = name;
	spec.kind = ENGINE_REAL;
	spec.start = engine_now(h->e);
	spec.group = group;
	if (cpus != NULL) {
		if (cpumask_parse(cpus, engine_params(h->e)->cpus, &m,
		    &cause) != 0) {
			fprintf(stderr, "%s: %s\n", name, cause);
			exit(1);
		}
		spec.cpus = &m;
	}
	if ((id = engine_task_add(h->e, &spec, &cause)) < 0) {
		fprintf(stderr, "engine_task_add %s: %s\n", name, cause);
		exit(1);
	}
	if (procs_spawn(h->ps, id, argv, &cause) != 0) {
		fprintf(stderr, "procs_spawn %s: %s\n", name, cause);
		exit(1);
	}
	return (id);
}

/* Add a real task running stairs-load --run R --sleep S. */
static __attribute__((unused)) int
harness_load(struct harness *h, const char *name, const char *run,
    const char *slp)
{
	char	*argv[] = { "stairs-load", "--run", (char *)run, "--sleep",
		    (char *)slp, NULL };

	return (harness_spawn_cpus(h, name, NULL, -1, argv));
}

/* The pid of a task's process. */
static __attribute__((unused)) pid_t
harness_pid(struct harness *h, int id)
{
	struct procs_info	info;

	if (procs_info(h->ps, id, &info) != 0)
		return (0);
	return (info.pid);
}

/* Read /proc/PID/stat into buf; 0, or -1 if the process is gone. */
static __attribute__((unused)) int
harness_stat(pid_t pid, char *buf, size_t len)
{
	char	path[64];

	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	return (cgroup_read(path, buf, len));
}

/* A process's state letter from /proc, 0 if it is gone. */
static __attribute__((unused)) char
harness_state(pid_t pid)
{
	char	buf[512], state;

	if (harness_stat(pid, buf, sizeof buf) != 0 ||
	    proc_sample_parse(buf, &state, NULL) != 0)
		return (0);
	return (state);
}

/*
 * Is a process stopped, or about to be: state T, or SIGSTOP pending
 * (sent, but the process is waiting for a CPU to act on it; it runs no
 * more of its own code)?  The daemon's own reading (proc_status_stopping).
 */
static __attribute__((unused)) int
harness_stopped(pid_t pid)
{
	char	path[64], buf[4096];

	snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
	if (cgroup_read(path, buf, sizeof buf) != 0)
		return (0);
	return (proc_status_stopping(buf) == 1);
}

/* Running or runnable, and not about to stop. */
static __attribute__((unused)) int
harness_running(pid_t pid)
{
	return (harness_state(pid) == 'R' && !harness_stopped(pid));
}

/* Is a pid gone (no such process, or a zombie nobody reaped yet)? */
static __attribute__((unused)) int
harness_gone(pid_t pid)
{
	char	s = harness_state(pid);

	return (s == 0 || s == 'Z' || s == 'X');
}

/* The pids of a process group, from a sweep of /proc. */
static __attribute__((unused)) int
harness_pgid_members(pid_t pgid, pid_t *out, int max)
{
	DIR		*d;
	struct dirent	*de;
	char		 buf[512], *end, state;
	pid_t		 pid, pg;
	int		 n = 0;

	if ((d = opendir("/proc")) == NULL)
		return (0);
	while ((de = readdir(d)) != NULL && n < max) {
		pid = (pid_t)strtol(de->d_name, &end, 10);
		if (*end != '\0' || pid <= 0)
			continue;
		if (harness_stat(pid, buf, sizeof buf) != 0 ||
		    proc_sample_parse(buf, &state, &pg) != 0)
			continue;
		if (pg == pgid && state != 'Z')
			out[n++] = pid;
	}
	closedir(d);
	return (n);
}

/*
 * Wait up to 10 s (a killed process needs a CPU to die on, which a loaded
 * machine may be slow to give) for process group pgid to have no live
 * member; returns how many are left.
 */
static __attribute__((unused)) int
harness_wait_no_members(pid_t pgid)
{
	pid_t	m[64];
	int	n, tries;

	for (tries = 0; tries < 1000; tries++) {
		if ((n = harness_pgid_members(pgid, m, 64)) == 0)
			break;
		usleep(10000);
	}
	return (n);
}

/* Wait up to 10 s for a pid to be gone; 1 if it is. */
static __attribute__((unused)) int
harness_wait_gone(pid_t pid)
{
	int	tries;

	for (tries = 0; tries < 1000; tries++) {
		if (harness_gone(pid))
			return (1);
		usleep(10000);
	}
	return (0);
}

/*
 * Called once per loop iteration, about 1 ms after the last enforce (less
 * when the loop runs late: samplers skip those, as signals sent by the
 * enforce may still be in flight; see harness_since_enforce).
 */
typedef void (*harness_sample_fn)(struct harness *, int i, void *);

/* Move an absolute time on by 1 ms. */
static __attribute__((unused)) void
harness_next_ms(struct timespec *next)
{
	next->tv_nsec += 1000000;
	if (next->tv_nsec >= 1000000000) {
		next->tv_nsec -= 1000000000;
		next->tv_sec++;
	}
}

/*
 * Sleep until the absolute time next.  With events (and an event
 * descriptor), act on the children's wakes meanwhile, as soon as they
 * come, through procs_wakeups: the daemon's libevent loop does the same
 * on procs_event_fd.
 */
static __attribute__((unused)) void
harness_wait(struct harness *h, const struct timespec *next, int events)
{
	struct pollfd	pfd;
	struct timespec	now, left;

	if (!events || (pfd.fd = procs_event_fd(h->ps)) == -1) {
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, next,
		    NULL) == EINTR)
			;
		return;
	}
	pfd.events = POLLIN;
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		left.tv_sec = next->tv_sec - now.tv_sec;
		left.tv_nsec = next->tv_nsec - now.tv_nsec;
		if (left.tv_nsec < 0) {
			left.tv_nsec += 1000000000;
			left.tv_sec--;
		}
		if (left.tv_sec < 0)
			return;
		if (ppoll(&pfd, 1, &left, NULL) > 0)
			procs_wakeups(h->ps);
	}
}

/*
 * SIGCHLD (not for stops and continues), as the daemon has it: the flag
 * a loop may read, and the signal wakes the loop as the daemon's is.
 */
static volatile sig_atomic_t harness_sigchld __attribute__((unused));

static __attribute__((unused)) void
harness_on_sigchld(int sig)
{
	harness_sigchld = 1;
}

/*
 * Run ms ticks of 1 ms in real time: sample, reap, observe, tick, enforce,
 * wait for the next absolute ms (acting on wakes meanwhile if events).
 */
static __attribute__((unused)) void
harness_run_loop(struct harness *h, int ms, harness_sample_fn fn, void *arg,
    int events)
{
	struct timespec	next;
	int		i;

	clock_gettime(CLOCK_MONOTONIC, &next);
	for (i = 0; i < ms; i++) {
		if (fn != NULL)
			fn(h, i, arg);
		/* As the daemon does, or (tests of old) every tick. */
		if (!h->sigchld_only || harness_sigchld) {
			harness_sigchld = 0;
			procs_reap(h->ps);
		}
		procs_observe(h->ps);
		engine_tick(h->e);
		procs_enforce(h->ps);
		clock_gettime(CLOCK_MONOTONIC, &h->enforced);
		harness_next_ms(&next);
		harness_wait(h, &next, events);
	}
}

/* The loop, sleeping between ticks: wakes are seen at the next tick. */
static __attribute__((unused)) void
harness_run(struct harness *h, int ms, harness_sample_fn fn, void *arg)
{
	harness_run_loop(h, ms, fn, arg, 0);
}

/*
 * One tick of several run at once (harness_run_clock): the last of those
 * due observes and enforces; one before it is only stamped with its own
 * time, at (the daemon's pacer and bridge_stamp).
 */
typedef void (*harness_tick_fn)(struct harness *, int last, uint64_t at,
    void *);

static __attribute__((unused)) void
harness_tick(struct harness *h, int last, uint64_t at, void *arg)
{
	if (last)
		procs_observe(h->ps);
	engine_tick(h->e);
	if (last)
		procs_enforce(h->ps);
	else
		procs_stamp(h->ps, at);
}

/*
 * The daemon's loop for ms ticks of 1 ms, by the wall clock: reap, run
 * the ticks due (through tick, harness_tick if NULL), then wait for the
 * next, acting on wakes meanwhile (procs_wakeups).  Sleeping (the
 * daemon's default with events, daemon_sleeping; the caller turned the
 * blocks' wake-ups on, procs_block_wakeups): wait past the ticks
 * engine_quiet promises change nothing, unless a wake or block read
 * meanwhile (procs_quiet): then the ticks due run at once, the last one
 * seeing it (none due: the next at its own time, or now, early, for a
 * block or a wake: procs_early).  Else every tick.
 * Returns how many times it woke for its clock.
 */
static __attribute__((unused)) int
harness_run_clock(struct harness *h, int ms, int sleeping,
    harness_tick_fn tick_fn, void *arg)
{
	struct pollfd	 pfd;
	struct timespec	 ts;
	struct clock	 clk;	/* the daemon's arithmetic, at speed 1 */
	uint64_t	 now, due, at, quiet, early;
	uint64_t	 start = engine_now(h->e), tick;
	int		 timer = 0;

	clock_init(&clk, 1.0, monotonic_ns(), start);
	if (tick_fn == NULL)
		tick_fn = harness_tick;
	pfd.fd = procs_event_fd(h->ps);
	pfd.events = POLLIN;
	while ((tick = engine_now(h->e)) - start < (uint64_t)ms) {
		if (harness_sigchld) {
			harness_sigchld = 0;
			procs_reap(h->ps);
		}
		now = monotonic_ns();
		due = clock_due(&clk, now);
		if (due - start > (uint64_t)ms)
			due = start + (uint64_t)ms;
		if (due > tick) {
			for (; tick + 1 < due; tick++)
				tick_fn(h, 0, clock_next_ns(&clk, tick + 1),
				    arg);
			tick_fn(h, 1, 0, arg);
		} else if (sleeping && (early = clock_early_ns(&clk, tick,
		    procs_early(h->ps))) != 0 && now >= early)
			tick_fn(h, 1, 0, arg);	/* early (pacer_catchup) */
		quiet = 0;
		if (sleeping && procs_quiet(h->ps) == 1)
			quiet = engine_quiet(h->e, 50);
		for (;;) {
			at = clock_next_ns(&clk, engine_now(h->e) + quiet + 1);
			/* An early tick not run yet: when it may. */
			if (sleeping && (early = clock_early_ns(&clk,
			    engine_now(h->e), procs_early(h->ps))) != 0 &&
			    early < at)
				at = early;
			now = monotonic_ns();
			if (now >= at) {
				timer++;
				break;
			}
			ts.tv_sec = (time_t)((at - now) / 1000000000);
			ts.tv_nsec = (long)((at - now) % 1000000000);
			if (ppoll(&pfd, pfd.fd == -1 ? 0 : 1, &ts, NULL) > 0) {
				procs_wakeups(h->ps);
				/* The ticks due now, the last seeing it. */
				if (sleeping && procs_quiet(h->ps) != 1)
					break;
			}
		}
	}
	return (timer);
}

/*
 * Run the loop until a task's process has been reaped, for up to 20 s: a
 * killed process still needs a CPU to die on, which a busy machine may be
 * slow to give it (more so a forked ASan process).  Past that it says
 * so; the caller's checks then fail.
 */
static __attribute__((unused)) void
harness_run_until_exited(struct harness *h, int id)
{
	struct procs_info	info;
	int			i;

	for (i = 0; i < 2000; i++) {
		if (procs_info(h->ps, id, &info) == 0 && info.exited)
			return;
		harness_run(h, 10, NULL, NULL);
	}
	fprintf(stderr, "timed out after 20000 ticks waiting for task %d's "
	    "process to be reaped\n", id);
}

/*
 * Run the loop until process group pgid has n live members, for up to
 * 20 s (a pipeline's shell forks its members when it gets a CPU, which
 * a busy machine may be slow to give); past that it says so.
 */
static __attribute__((unused)) void
harness_run_until_members(struct harness *h, pid_t pgid, int n)
{
	pid_t	m[64];
	int	i;

	for (i = 0; i < 2000; i++) {
		if (harness_pgid_members(pgid, m, 64) >= n)
			return;
		harness_run(h, 10, NULL, NULL);
	}
	fprintf(stderr, "timed out after 20000 ticks waiting for %d "
	    "processes in group %ld\n", n, (long)pgid);
}

/*
 * Run the loop until task id tracks n processes (or more), for up to
 * 20 s (a tree forks as fast as its CPU lets it: loaded, a fixed 1.2 s
 * saw 5 of 16); past that it says so.
 */
static __attribute__((unused)) void
harness_run_until_tracked(struct harness *h, int id, int n)
{
	struct procs_info	info;
	int			i;

	for (i = 0; i < 2000; i++) {
		if (procs_info(h->ps, id, &info) == 0 && info.procs >= n)
			return;
		harness_run(h, 10, NULL, NULL);
	}
	fprintf(stderr, "timed out after 20000 ticks waiting for task %d to "
	    "track %d processes\n", id, n);
}

/* The harness on engine CPUs map[0..n-1], /proc polling forced if proc. */
static __attribute__((unused)) void
harness_init_map(struct harness *h, const int *map, int n, int proc)
{
	struct procs_config	 conf;

	memset(&conf, 0, sizeof conf);
	conf.map = map;
	conf.nmap = n;
	conf.cgroups = 1;
	conf.observe_proc = proc;
	harness_init_conf(h, n, &conf);
}

/* CPU time used by this process (not its children), in seconds. */
static __attribute__((unused)) double
harness_self_cpu(void)
{
	struct rusage	ru;

	getrusage(RUSAGE_SELF, &ru);
	return ((double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	    (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
}

/* Monotonic seconds. */
static __attribute__((unused)) double
harness_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec + ts.tv_nsec / 1e9);
}

/* qsort's comparison of doubles. */
static __attribute__((unused)) int
harness_cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return (x < y ? -1 : x > y);
}

/* A task's engine info. */
static __attribute__((unused)) struct engine_task_info
harness_info(struct harness *h, int id)
{
	struct engine_task_info	ti;

	if (engine_task_info(h->e, id, &ti) != 0) {
		fprintf(stderr, "no task %d\n", id);
		exit(1);
	}
	return (ti);
}

#endif
