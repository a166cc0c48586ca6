/*
 * proc.c -- real child processes under the engine: spawn, stop/continue,
 * sched_setaffinity, /proc sampling, reaping (SPEC.md section 5).
 *
 * Costs drive the design (see /work/shared/LIMITS.md and docs/REAL.md):
 * a signal to another CPU is ~25 us and a setaffinity of a running child
 * ~53 us, but of a stopped one ~2 us; a pread on a kept /proc fd is ~2 us
 * and a sweep of many is not cheap.  So:
 *
 * - each task keeps what was last done to it (stopped or continued, the
 *   physical CPU it was pinned to) and only changes are signalled; a task
 *   is pinned while still stopped, then continued; stops go out before
 *   continues so a switch frees the CPU first;
 * - each tick reads only the running tasks (are they all blocked?) and the
 *   ones we put to sleep because they blocked (have they run since?),
 *   through kept-open /proc/PID/stat and /proc/PID/schedstat fds;
 * - the members of a process group (shell pipelines) are found by reading
 *   the pids created since the last look (the last pid handed out is in
 *   /proc/loadavg; nothing is read if it did not move), at most every
 *   500 ms (new members inherit their parent's CPU anyway), or at once
 *   when a group that may have new members looks blocked;
 * - measured CPU time (the process CPU clocks of the members) is read
 *   every 100 ms for groups that ran since, and on demand by procs_info.
 *
 * Children start stopped: the child raises SIGSTOP before exec and the
 * parent waits for that stop, so a child never runs before the engine
 * picks it.  The program is looked up before the fork, so a missing or
 * non-executable program is an error at once; any other exec failure
 * comes back through a close-on-exec pipe when the child first runs and
 * shows in its exit reason.
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "engine.h"
#include "log.h"
#include "proc.h"
#include "xmalloc.h"

#define PROC_SWEEP_NS		(500 * 1000000ULL)	/* members, at most */
#define PROC_LOOK_TICKS		4	/* state of blocked tasks, every */
#define PROC_CPUTIME_NS		(100 * 1000000ULL)	/* measured CPU time */

/* One process of a task's process group. */
struct proc_member {
	pid_t		 pid;
	int		 statfd;	/* /proc/PID/stat */
	int		 schedfd;	/* /proc/PID/schedstat */
	clockid_t	 clock;		/* its process CPU clock */
	uint64_t	 cpu_ns;	/* last CPU time read */
	uint64_t	 pcount;	/* times scheduled in, last read */
	int		 seen;		/* found by the current sweep */
};

/* One real task. */
struct proc {
	int			 id;
	char			*name;
	char			*prog;		/* argv[0] */
	pid_t			 pid;		/* leader = process group id */
	int			 live;		/* not reaped yet */
	int			 stopped;	/* last signal sent was SIGSTOP */
	int			 pinned;	/* physical CPU, -1 none */
	int			 ran;		/* continued since last cputime */
	int			 forked;	/* continued since last sweep */
	int			 killed;	/* SIGKILL sent */
	int			 held;		/* blocked, stopped by procs_hold */
	int			 group;
	int			 errfd;		/* exec errno pipe, -1 */
	uint64_t		 blocked_pcount; /* schedule count when blocked */
	struct proc_member	*m;
	int			 nm;
	uint64_t		 dead_ns;	/* CPU time of members gone */
	uint64_t		 cpu_ns;
	char			 exit[320];
	char			 error[256];
};

struct procs {
	struct engine		*e;
	int			 ncpus;		/* engine CPUs */
	int			*map;		/* engine -> physical */
	char			*outdir;
	char			*bindir;
	struct cgroup		*cg;
	pid_t			 self;
	struct proc		**t;		/* by task id */
	int			 nt;
	int			*runcpu;	/* scratch: task id -> cpu */
	int			 loadavgfd;
	long			 lastpid;	/* from /proc/loadavg */
	long			 pidmax;
	uint64_t		 last_sweep;
	uint64_t		 last_cputime;
	uint64_t		 ticks;		/* procs_observe calls */
	pid_t			 watchdog;
	int			 wdfd;		/* write end to the watchdog */
	struct rlimit		 nofile;	/* RLIMIT_NOFILE we started with */
	int			 nofile_set;
};

static void	proc_sweep(struct procs *, uint64_t);
static int	proc_pin(struct procs *, struct proc *, int);
static uint64_t	proc_pcount(struct proc *);

/* Monotonic time in ns. */
static uint64_t
proc_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec);
}

/*
 * Parse the state and process group from a /proc/PID/stat text.  The
 * command name is in parentheses and may hold anything, so parse after the
 * last ')'.
 */
static int
proc_parse_stat(char *buf, char *state, pid_t *pgid)
{
	char	*p, *end;
	long	 pg;

	/* ") S ppid pgrp": parsed by hand, sscanf costs more than the read. */
	if ((p = strrchr(buf, ')')) == NULL || p[1] != ' ' || p[2] == '\0')
		return (-1);
	*state = p[2];
	if (pgid == NULL)
		return (0);
	p += 3;
	if (*p++ != ' ')
		return (-1);
	strtol(p, &end, 10);		/* ppid */
	if (end == p || *end != ' ')
		return (-1);
	p = end + 1;
	pg = strtol(p, &end, 10);
	if (end == p)
		return (-1);
	*pgid = (pid_t)pg;
	return (0);
}

/* Read a member's state letter; 0 if it is gone. */
static char
proc_member_state(struct proc_member *m)
{
	char	buf[512], state;
	ssize_t	n;

	n = pread(m->statfd, buf, sizeof buf - 1, 0);
	if (n <= 0)
		return (0);
	buf[n] = '\0';
	if (proc_parse_stat(buf, &state, NULL) != 0)
		return (0);
	return (state);
}

/* Read how many times a member was scheduled in (schedstat's third). */
static uint64_t
proc_member_pcount(struct proc_member *m)
{
	char		 buf[128], *p;
	ssize_t		 n;
	int		 field;

	if (m->schedfd == -1)
		return (m->pcount);
	n = pread(m->schedfd, buf, sizeof buf - 1, 0);
	if (n <= 0)
		return (m->pcount);
	buf[n] = '\0';
	p = buf;
	for (field = 0; field < 2; field++) {
		if ((p = strchr(p, ' ')) == NULL)
			return (m->pcount);
		p++;
	}
	m->pcount = strtoull(p, NULL, 10);
	return (m->pcount);
}

/* Read a member's CPU time (all its threads). */
static void
proc_member_cputime(struct proc_member *m)
{
	struct timespec	ts;

	if (clock_gettime(m->clock, &ts) == 0)
		m->cpu_ns = (uint64_t)ts.tv_sec * 1000000000ULL +
		    (uint64_t)ts.tv_nsec;
}

/* Start tracking a process of a task's group. */
static void
proc_member_add(struct proc *p, pid_t pid)
{
	struct proc_member	*m;
	char			 path[64];

	p->m = xreallocarray(p->m, p->nm + 1, sizeof *p->m);
	m = &p->m[p->nm];
	memset(m, 0, sizeof *m);
	m->pid = pid;
	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	m->statfd = open(path, O_RDONLY | O_CLOEXEC);
	snprintf(path, sizeof path, "/proc/%ld/schedstat", (long)pid);
	m->schedfd = open(path, O_RDONLY | O_CLOEXEC);
	if (m->statfd == -1 || clock_getcpuclockid(pid, &m->clock) != 0) {
		if (m->statfd != -1)
			close(m->statfd);
		if (m->schedfd != -1)
			close(m->schedfd);
		return;
	}
	m->seen = 1;
	proc_member_pcount(m);
	p->nm++;
}

/* Stop tracking member i, keeping its CPU time. */
static void
proc_member_drop(struct proc *p, int i)
{
	struct proc_member	*m = &p->m[i];

	proc_member_cputime(m);
	p->dead_ns += m->cpu_ns;
	close(m->statfd);
	if (m->schedfd != -1)
		close(m->schedfd);
	p->m[i] = p->m[p->nm - 1];
	p->nm--;
}

/* Drop every member. */
static void
proc_members_clear(struct proc *p)
{
	while (p->nm > 0)
		proc_member_drop(p, p->nm - 1);
}

/* Find a task by its process group. */
static struct proc *
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
static struct proc *
proc_get(struct procs *ps, int id)
{
	if (id <= 0 || id >= ps->nt)
		return (NULL);
	return (ps->t[id]);
}

/* The last pid handed out (the last field of /proc/loadavg), -1 unknown. */
static long
proc_lastpid(struct procs *ps)
{
	char	 buf[128], *last;
	ssize_t	 n;

	if (ps->loadavgfd == -1)
		return (-1);
	n = pread(ps->loadavgfd, buf, sizeof buf - 1, 0);
	if (n <= 0)
		return (-1);
	buf[n] = '\0';
	if ((last = strrchr(buf, ' ')) == NULL)
		return (-1);
	return (strtol(last + 1, NULL, 10));
}

/* Has any process been created since the last sweep? */
static int
proc_forked_since(struct procs *ps)
{
	long	last = proc_lastpid(ps);

	return (last == -1 || last != ps->lastpid);
}

/* Look at one pid: if it is in the group of a task that ran, track it. */
static void
proc_sweep_pid(struct procs *ps, pid_t pid)
{
	struct proc	*p;
	char		 path[64], buf[512], state;
	pid_t		 pgid;
	ssize_t		 n;
	int		 fd, j;

	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	if (proc_parse_stat(buf, &state, &pgid) != 0 || state == 'Z')
		return;
	if ((p = proc_by_pid(ps, pgid)) == NULL || !p->forked)
		return;
	for (j = 0; j < p->nm; j++) {
		if (p->m[j].pid == pid)
			return;
	}
	proc_member_add(p, pid);
}

/*
 * Find the new members of every live group that was continued since the
 * last sweep (a stopped group cannot fork), and drop the members gone.
 * Pids are handed out cyclically, so every process created since the last
 * sweep has a pid in (last, now]: only those are read, unless the range is
 * unknown or large, when all of /proc is.
 */
static void
proc_sweep(struct procs *ps, uint64_t now)
{
	DIR		*d;
	struct dirent	*de;
	struct proc	*p;
	char		*end;
	long		 last, pid, span;
	int		 i, j, any = 0;

	for (i = 1; i < ps->nt; i++) {
		p = ps->t[i];
		if (p == NULL || !p->live || !p->forked)
			continue;
		any = 1;
		/* Members gone (the leader stays until it is reaped). */
		for (j = p->nm - 1; j >= 0; j--) {
			if (p->m[j].pid == p->pid)
				continue;
			switch (proc_member_state(&p->m[j])) {
			case 0:
			case 'Z':
			case 'X':
			case 'x':
				proc_member_drop(p, j);
				break;
			}
		}
	}
	ps->last_sweep = now;
	last = proc_lastpid(ps);
	if (any && last != ps->lastpid) {
		span = last - ps->lastpid;
		if (span < 0)
			span += ps->pidmax;
		if (last > 0 && ps->lastpid > 0 && span > 0 && span <= 4096) {
			for (pid = ps->lastpid + 1; span > 0; span--, pid++) {
				if (pid > ps->pidmax)
					pid = 1;
				proc_sweep_pid(ps, (pid_t)pid);
			}
		} else if ((d = opendir("/proc")) != NULL) {
			while ((de = readdir(d)) != NULL) {
				pid = strtol(de->d_name, &end, 10);
				if (*end == '\0' && pid > 0)
					proc_sweep_pid(ps, (pid_t)pid);
			}
			closedir(d);
		}
	}
	ps->lastpid = last;
	for (i = 1; i < ps->nt; i++) {
		p = ps->t[i];
		if (p != NULL && p->live && p->stopped)
			p->forked = 0;
	}
}

/* Read the measured CPU time of a task's members. */
static void
proc_cputime(struct proc *p)
{
	uint64_t	sum = p->dead_ns;
	int		i;

	for (i = 0; i < p->nm; i++) {
		proc_member_cputime(&p->m[i]);
		sum += p->m[i].cpu_ns;
	}
	if (sum > p->cpu_ns)
		p->cpu_ns = sum;
}

/* Pin every thread of every member of a task to a CPU; 0 or an errno. */
static int
proc_pin(struct procs *ps, struct proc *p, int phys)
{
	cpu_set_t	 set;
	DIR		*d;
	struct dirent	*de;
	char		 path[64], *end;
	pid_t		 tid;
	int		 i, failed = 0;

	CPU_ZERO(&set);
	CPU_SET(phys, &set);
	if (p->nm == 0 && sched_setaffinity(p->pid, sizeof set, &set) != 0 &&
	    errno != ESRCH)
		failed = errno;
	for (i = 0; i < p->nm; i++) {
		snprintf(path, sizeof path, "/proc/%ld/task",
		    (long)p->m[i].pid);
		if ((d = opendir(path)) == NULL) {
			sched_setaffinity(p->m[i].pid, sizeof set, &set);
			continue;
		}
		while ((de = readdir(d)) != NULL) {
			tid = (pid_t)strtol(de->d_name, &end, 10);
			if (*end != '\0' || tid <= 0)
				continue;
			if (sched_setaffinity(tid, sizeof set, &set) != 0 &&
			    errno != ESRCH)
				failed = errno;
		}
		closedir(d);
	}
	return (failed);
}

/* Send a signal to a task's process group. */
static void
proc_signal(struct proc *p, int sig)
{
	if (kill(-p->pid, sig) != 0 && errno != ESRCH)
		log_warn("task %s: kill %d", p->name, sig);
}

/* Stop a task if it is not stopped already. */
static void
proc_stop(struct proc *p)
{
	if (p->stopped)
		return;
	proc_signal(p, SIGSTOP);
	p->stopped = 1;
}

/* Pin a task to a physical CPU (while stopped) and continue it. */
static void
proc_run(struct procs *ps, struct proc *p, int phys)
{
	char	*cause = NULL;
	int	 err;

	if (p->pinned != phys) {
		err = proc_pin(ps, p, phys);
		/*
		 * Outside its group's cpuset (the group's CPUs changed
		 * since the cpuset was written): update it and try again.
		 */
		if (err == EINVAL && p->group >= 0 && ps->cg != NULL) {
			if (procs_group_setup(ps, p->group, &cause) == 0)
				err = proc_pin(ps, p, phys);
			else {
				log_warnx("task %s: %s", p->name, cause);
				free(cause);
			}
		}
		if (err != 0 && p->pinned != -2)
			log_warnx("task %s: sched_setaffinity cpu %d: %s",
			    p->name, phys, strerror(err));
		p->pinned = err != 0 ? -2 : phys;
	}
	if (p->stopped) {
		proc_signal(p, SIGCONT);
		p->stopped = 0;
	}
	p->ran = 1;
	p->forked = 1;
}

/* The kernel's pid_max. */
static long
proc_pidmax(void)
{
	FILE	*f;
	long	 v = 4194304;

	if ((f = fopen("/proc/sys/kernel/pid_max", "re")) != NULL) {
		if (fscanf(f, "%ld", &v) != 1)
			v = 4194304;
		fclose(f);
	}
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
 * The watchdog: a small process of its own (own process group, deaf to
 * terminal signals) that learns each child group over a pipe and, when
 * the pipe closes without a goodbye (the caller died, even by SIGKILL),
 * kills those groups and removes the cgroups.  PR_SET_PDEATHSIG alone
 * would miss the grandchildren of a pipeline.
 */
static void __attribute__((noreturn))
proc_watchdog(int fd, const char *cgroot)
{
	pid_t	*pgids = NULL;
	size_t	 n = 0, i;
	char	 buf[4096], line[32];
	size_t	 ll = 0;
	ssize_t	 r, k;
	long	 v;
	int	 bye = 0;

	setpgid(0, 0);
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	for (;;) {
		r = read(fd, buf, sizeof buf);
		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		for (k = 0; k < r; k++) {
			if (buf[k] != '\n') {
				if (ll < sizeof line - 1)
					line[ll++] = buf[k];
				continue;
			}
			line[ll] = '\0';
			ll = 0;
			if (strcmp(line, "bye") == 0) {
				bye = 1;
				continue;
			}
			v = strtol(line + 1, NULL, 10);
			if (v <= 0)
				continue;
			if (line[0] == '+') {
				pgids = realloc(pgids, (n + 1) * sizeof *pgids);
				if (pgids == NULL)
					_exit(1);
				pgids[n++] = (pid_t)v;
			} else if (line[0] == '-') {
				for (i = 0; i < n; i++) {
					if (pgids[i] == (pid_t)v) {
						pgids[i] = pgids[--n];
						break;
					}
				}
			}
		}
	}
	if (!bye) {
		for (i = 0; i < n; i++) {
			kill(-pgids[i], SIGKILL);
			kill(-pgids[i], SIGCONT);
		}
		if (cgroot != NULL)
			cgroup_purge_path(cgroot);
	}
	_exit(0);
}

/* Tell the watchdog about a group ('+') or that it is gone ('-'). */
static void
proc_watchdog_tell(struct procs *ps, char op, pid_t pgid)
{
	char	line[32];
	int	len;

	if (ps->wdfd == -1)
		return;
	len = snprintf(line, sizeof line, "%c%ld\n", op, (long)pgid);
	if (write(ps->wdfd, line, len) != len)
		log_warn("watchdog");
}

/* Start the watchdog process. */
static void
proc_watchdog_start(struct procs *ps)
{
	char	*cgroot = NULL;
	int	 fds[2];
	pid_t	 pid;

	ps->wdfd = -1;
	if (pipe2(fds, O_CLOEXEC) != 0) {
		log_warn("watchdog pipe");
		return;
	}
	if (ps->cg != NULL)
		cgroot = xstrdup(cgroup_root(ps->cg));
	switch (pid = fork()) {
	case -1:
		log_warn("watchdog fork");
		close(fds[0]);
		close(fds[1]);
		free(cgroot);
		return;
	case 0:
		close(fds[1]);
		if (fds[0] != 3) {
			dup2(fds[0], 3);
			close(fds[0]);
		}
		close_range(4, ~0U, 0);
		proc_watchdog(3, cgroot);
	}
	free(cgroot);
	close(fds[0]);
	ps->watchdog = pid;
	ps->wdfd = fds[1];
}

/* Create the real-process layer for an engine. */
struct procs *
procs_create(struct engine *e, const struct procs_config *conf, char **cause)
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
	ps->runcpu = NULL;
	ps->wdfd = -1;
	proc_default_map(ps);
	if (conf != NULL && conf->map != NULL) {
		for (i = 0; i < ps->ncpus && i < conf->nmap; i++) {
			if (conf->map[i] < 0 || conf->map[i] >= CPU_SETSIZE) {
				*cause = xasprintf("cpu map: engine cpu %d: "
				    "bad physical cpu %d", i, conf->map[i]);
				free(ps->map);
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
	/* Each real task keeps two or three /proc descriptors open. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		ps->nofile = rl;	/* children get the old one back */
		ps->nofile_set = 1;
		if (rl.rlim_cur < rl.rlim_max) {
			rl.rlim_cur = rl.rlim_max;
			setrlimit(RLIMIT_NOFILE, &rl);
		}
	}
	ps->loadavgfd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
	ps->lastpid = proc_lastpid(ps);
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
	proc_watchdog_start(ps);
	return (ps);
}

/* Kill every child, reap them, remove the cgroups, free. */
void
procs_free(struct procs *ps)
{
	struct proc	*p;
	struct timespec	 ts = { 0, 1000000 };
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
	if (ps->wdfd != -1) {
		if (write(ps->wdfd, "bye\n", 4) != 4)
			log_warn("watchdog");
		close(ps->wdfd);
		while (waitpid(ps->watchdog, &status, 0) == -1 &&
		    errno == EINTR)
			;
	}
	cgroup_free(ps->cg);
	for (i = 1; i < ps->nt; i++) {
		if ((p = ps->t[i]) == NULL)
			continue;
		proc_members_clear(p);
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
	free(ps->outdir);
	free(ps->bindir);
	free(ps);
}

/*
 * Look a program up: as given if it holds a '/', else in bindir (the
 * daemon's own directory), then in PATH.  Returns the path, or NULL with
 * errno set.
 */
static char *
proc_lookup(const char *bindir, const char *prog)
{
	const char	*path, *dir, *next;
	char		*try;
	int		 err = ENOENT;

	if (*prog == '\0') {
		errno = ENOENT;
		return (NULL);
	}
	if (strchr(prog, '/') != NULL) {
		if (access(prog, X_OK) != 0)
			return (NULL);
		return (xstrdup(prog));
	}
	if (bindir != NULL) {
		try = xasprintf("%s/%s", bindir, prog);
		if (access(try, X_OK) == 0)
			return (try);
		free(try);
	}
	if ((path = getenv("PATH")) == NULL || *path == '\0')
		path = "/usr/local/bin:/usr/bin:/bin";
	for (dir = path; dir != NULL; dir = next) {
		next = strchr(dir, ':');
		try = xasprintf("%.*s/%s", next == NULL ? (int)strlen(dir) :
		    (int)(next - dir), *dir == ':' || *dir == '\0' ? "." : dir,
		    prog);
		if (next != NULL)
			next++;
		if (access(try, X_OK) == 0)
			return (try);
		if (errno == EACCES)
			err = EACCES;
		free(try);
	}
	errno = err;
	return (NULL);
}

/* Check that a program can be found, before anything is started. */
int
procs_lookup(const char *bindir, const char *prog, char **cause)
{
	char	*path;

	if ((path = proc_lookup(bindir, prog)) == NULL) {
		*cause = xasprintf("%s: %s", prog, strerror(errno));
		return (-1);
	}
	free(path);
	return (0);
}

/* The directory holding the running program, NULL if unknown. */
char *
procs_self_dir(void)
{
	char	buf[PATH_MAX], *slash;
	ssize_t	n;

	if ((n = readlink("/proc/self/exe", buf, sizeof buf - 1)) <= 0)
		return (NULL);
	buf[n] = '\0';
	if ((slash = strrchr(buf, '/')) == NULL)
		return (NULL);
	*slash = '\0';
	return (xstrdup(buf[0] == '\0' ? "/" : buf));
}

/* Mark a task exited with a reason. */
static void
proc_exited(struct procs *ps, struct proc *p, const char *reason,
    const char *error)
{
	struct engine_task_info	 ti;
	char			*cause = NULL;

	snprintf(p->exit, sizeof p->exit, "%s", reason);
	if (error != NULL)
		snprintf(p->error, sizeof p->error, "%s", error);
	if (engine_task_info(ps->e, p->id, &ti) == 0 &&
	    ti.state != ENGINE_EXITED &&
	    engine_task_kill(ps->e, p->id, &cause) != 0) {
		log_warnx("task %s: %s", p->name, cause);
		free(cause);
	}
}

/* The child side of a spawn: never returns. */
static void __attribute__((noreturn))
proc_child(struct procs *ps, const char *path, char *const argv[], int out,
    int errfd)
{
	struct sched_param	sp;
	sigset_t		set;
	int			sig, null, err;

	setpgid(0, 0);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != ps->self)
		_exit(126);
	if (ps->nofile_set)
		setrlimit(RLIMIT_NOFILE, &ps->nofile);
	/* A real-time or reniced daemon must not hand that down. */
	if (sched_getscheduler(0) != SCHED_OTHER) {
		memset(&sp, 0, sizeof sp);
		sched_setscheduler(0, SCHED_OTHER, &sp);
	}
	if (getpriority(PRIO_PROCESS, 0) < 0)
		setpriority(PRIO_PROCESS, 0, 0);
	sigemptyset(&set);
	sigprocmask(SIG_SETMASK, &set, NULL);
	for (sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	if ((null = open("/dev/null", O_RDONLY)) == -1 ||
	    dup2(null, 0) == -1 || dup2(out, 1) == -1 || dup2(out, 2) == -1)
		_exit(126);
	/* Nothing of the parent's is inherited past exec, but errfd. */
	close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
	fcntl(errfd, F_SETFD, FD_CLOEXEC);
	raise(SIGSTOP);
	execv(path, argv);
	err = errno;
	if (write(errfd, &err, sizeof err) != sizeof err)
		_exit(127);
	_exit(127);
}

/* Spawn the process of a real task, stopped. */
int
procs_spawn(struct procs *ps, int id, char *const argv[], char **cause)
{
	struct engine_task_info	 ti;
	struct proc		*p;
	char			*path, *log = NULL, reason[256], *why;
	int			 out, fds[2], status, err, saved;
	pid_t			 pid, r;

	if (engine_task_info(ps->e, id, &ti) != 0 || ti.kind != ENGINE_REAL) {
		*cause = xasprintf("task %d is not a real task", id);
		return (-1);
	}
	if (id < ps->nt && ps->t[id] != NULL) {
		*cause = xasprintf("task %s already has a process", ti.name);
		return (-1);
	}
	if (argv == NULL || argv[0] == NULL) {
		*cause = xasprintf("task %s: empty command", ti.name);
		return (-1);
	}
	if (id >= ps->nt) {
		ps->t = xreallocarray(ps->t, id + 1, sizeof *ps->t);
		memset(ps->t + ps->nt, 0, (id + 1 - ps->nt) * sizeof *ps->t);
		ps->nt = id + 1;
	}
	p = xcalloc(1, sizeof *p);
	p->id = id;
	p->name = xstrdup(ti.name);
	p->prog = xstrdup(argv[0]);
	p->pinned = -1;
	p->errfd = -1;
	p->group = ti.group;
	ps->t[id] = p;

	if ((path = proc_lookup(ps->bindir, argv[0])) == NULL) {
		err = errno;
		*cause = xasprintf("%s: %s", argv[0], strerror(err));
		snprintf(reason, sizeof reason, "exec: %s", *cause);
		proc_exited(ps, p, reason, *cause);
		return (-1);
	}
	if (ps->outdir != NULL) {
		log = xasprintf("%s/%s.log", ps->outdir, ti.name);
		out = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	} else
		out = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (out == -1) {
		*cause = xasprintf("%s: %s", log != NULL ? log : "/dev/null",
		    strerror(errno));
		proc_exited(ps, p, "error", *cause);
		free(log);
		free(path);
		return (-1);
	}
	free(log);
	if (pipe2(fds, O_CLOEXEC) != 0) {
		*cause = xasprintf("pipe: %s", strerror(errno));
		proc_exited(ps, p, "error", *cause);
		close(out);
		free(path);
		return (-1);
	}
	switch (pid = fork()) {
	case -1:
		saved = errno;
		close(fds[0]);
		close(fds[1]);
		close(out);
		free(path);
		*cause = xasprintf("fork: %s", strerror(saved));
		proc_exited(ps, p, "error", *cause);
		return (-1);
	case 0:
		close(fds[0]);
		proc_child(ps, path, argv, out, fds[1]);
	}
	free(path);
	close(out);
	close(fds[1]);
	setpgid(pid, pid);
	p->pid = pid;
	p->errfd = fds[0];
	fcntl(p->errfd, F_SETFL, O_NONBLOCK);

	/* Wait for the child's own stop, so our SIGCONT cannot come first. */
	while ((r = waitpid(pid, &status, WUNTRACED)) == -1 && errno == EINTR)
		;
	if (r != pid || !WIFSTOPPED(status)) {
		*cause = xasprintf("%s: child failed to start", argv[0]);
		proc_exited(ps, p, "error", *cause);
		close(p->errfd);
		p->errfd = -1;
		return (-1);
	}
	p->live = 1;
	p->stopped = 1;
	p->forked = 0;
	proc_member_add(p, pid);
	proc_watchdog_tell(ps, '+', pid);
	if (ps->cg != NULL && p->group >= 0) {
		why = NULL;
		if (procs_group_setup(ps, p->group, &why) != 0) {
			log_warnx("task %s: %s", p->name, why);
			free(why);
		} else if (cgroup_move(ps->cg, p->group, pid, &why) != 0) {
			log_warnx("task %s: %s", p->name, why);
			free(why);
		}
	}
	log_debug("task %s: pid %ld", p->name, (long)pid);
	return (0);
}

/* Are all of a task's processes blocked (S or D)? */
static int
proc_blocked(struct proc *p)
{
	char	s;
	int	i, blocked = 0;

	for (i = 0; i < p->nm; i++) {
		s = proc_member_state(&p->m[i]);
		switch (s) {
		case 'S':
		case 'D':
			blocked = 1;
			break;
		case 0:
		case 'Z':
		case 'X':
		case 'x':
			break;
		default:
			return (0);
		}
	}
	return (blocked);
}

/*
 * Has a task we put to sleep woken?  Its processes are left continued, so
 * one that became runnable is scheduled in soon: the schedule count in
 * /proc/PID/schedstat (one 1.3 us pread) moves, even for a burst shorter
 * than a tick.  Every few ticks the state letters are read as well (2 us
 * each), for a process that is runnable but still waiting for a CPU.
 */
static int
proc_woken(struct proc *p, int look)
{
	int	i;

	if (proc_pcount(p) != p->blocked_pcount)
		return (1);
	if (!look)
		return (0);
	for (i = 0; i < p->nm; i++) {
		if (proc_member_state(&p->m[i]) == 'R')
			return (1);
	}
	return (0);
}

/* The schedule count of all of a task's processes. */
static uint64_t
proc_pcount(struct proc *p)
{
	uint64_t	sum = 0;
	int		i;

	for (i = 0; i < p->nm; i++)
		sum += proc_member_pcount(&p->m[i]);
	return (sum);
}

/* Before a tick: tell the engine which real tasks blocked or woke. */
void
procs_observe(struct procs *ps)
{
	struct engine_task_info	 ti;
	struct proc		*p;
	uint64_t		 now = proc_now();
	char			*cause;
	int			 i, swept = 0;

	ps->ticks++;
	if (now - ps->last_sweep >= PROC_SWEEP_NS && proc_forked_since(ps)) {
		proc_sweep(ps, now);
		swept = 1;
	}
	for (i = 1; i < ps->nt; i++) {
		if ((p = ps->t[i]) == NULL || !p->live || p->stopped)
			continue;
		if (engine_task_info(ps->e, p->id, &ti) != 0)
			continue;
		cause = NULL;
		if (ti.state == ENGINE_RUNNABLE && ti.running) {
			if (!proc_blocked(p))
				continue;
			/* A new member may be running: look before deciding. */
			if (!swept && p->forked && proc_forked_since(ps)) {
				proc_sweep(ps, now);
				swept = 1;
				if (!proc_blocked(p))
					continue;
			}
			p->blocked_pcount = proc_pcount(p);
			if (engine_task_block(ps->e, p->id, &cause) != 0)
				goto warn;
		} else if (ti.state == ENGINE_SLEEPING && !ti.injected) {
			if (!proc_woken(p, ps->ticks % PROC_LOOK_TICKS == 0))
				continue;
			if (engine_task_wake(ps->e, p->id, &cause) != 0)
				goto warn;
		}
		continue;
warn:
		log_warnx("task %s: %s", p->name, cause);
		free(cause);
	}
	if (now - ps->last_cputime >= PROC_CPUTIME_NS) {
		ps->last_cputime = now;
		for (i = 1; i < ps->nt; i++) {
			if ((p = ps->t[i]) == NULL || !p->live || !p->ran)
				continue;
			proc_cputime(p);
			p->ran = !p->stopped;
		}
	}
}

/* After a tick: continue and pin what the engine ran, stop the rest. */
void
procs_enforce(struct procs *ps)
{
	struct engine_task_info	 ti;
	struct engine_cpu_info	 ci;
	struct proc		*p;
	int			 i, c;

	ps->runcpu = xreallocarray(ps->runcpu, ps->nt > 0 ? ps->nt : 1,
	    sizeof *ps->runcpu);
	for (i = 0; i < ps->nt; i++)
		ps->runcpu[i] = -1;
	for (c = 0; c < ps->ncpus; c++) {
		engine_cpu_info(ps->e, c, &ci);
		if (ci.task > 0 && ci.task < ps->nt)
			ps->runcpu[ci.task] = c;
	}
	/* Stops first, so a switch frees the CPU before the next one runs. */
	for (i = 1; i < ps->nt; i++) {
		if ((p = ps->t[i]) == NULL || !p->live || p->killed ||
		    ps->runcpu[i] != -1)
			continue;
		if (engine_task_info(ps->e, i, &ti) != 0)
			continue;
		switch (ti.state) {
		case ENGINE_EXITED:
			kill(-p->pid, SIGKILL);
			kill(-p->pid, SIGCONT);
			p->killed = 1;
			break;
		case ENGINE_SLEEPING:
			/* Seen blocked: left running so it can wake. */
			if (ti.injected)
				proc_stop(p);
			break;
		default:
			proc_stop(p);
			break;
		}
	}
	for (i = 1; i < ps->nt; i++) {
		if ((p = ps->t[i]) == NULL || !p->live || p->killed ||
		    (c = ps->runcpu[i]) == -1)
			continue;
		proc_run(ps, p, ps->map[c]);
	}
}

/*
 * The clock is paused: stop every real task, so none runs and no
 * measured CPU time drifts from the engine's.  Tasks blocked in the
 * kernel, which enforcement leaves running so they can wake, are marked
 * to be let go again by procs_release; the ones the engine picks are
 * continued by the next procs_enforce.
 */
void
procs_hold(struct procs *ps)
{
	struct engine_task_info	 ti;
	struct proc		*p;
	int			 i;

	for (i = 1; i < ps->nt; i++) {
		if ((p = ps->t[i]) == NULL || !p->live || p->killed ||
		    p->stopped)
			continue;
		if (engine_task_info(ps->e, i, &ti) == 0 &&
		    ti.state == ENGINE_SLEEPING && !ti.injected)
			p->held = 1;
		proc_stop(p);
	}
}

/* The clock runs again: continue the blocked tasks procs_hold stopped. */
void
procs_release(struct procs *ps)
{
	struct proc	*p;
	int		 i;

	for (i = 1; i < ps->nt; i++) {
		if ((p = ps->t[i]) == NULL || !p->held)
			continue;
		p->held = 0;
		if (p->live && !p->killed && p->stopped) {
			proc_signal(p, SIGCONT);
			p->stopped = 0;
		}
	}
}

/* Describe a wait status: "status=N" or "signal=NAME". */
static void
proc_status_text(int status, char *buf, size_t len)
{
	const char	*name;

	if (WIFEXITED(status))
		snprintf(buf, len, "status=%d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status)) {
		if ((name = sigabbrev_np(WTERMSIG(status))) != NULL)
			snprintf(buf, len, "signal=%s", name);
		else
			snprintf(buf, len, "signal=%d", WTERMSIG(status));
	} else
		snprintf(buf, len, "status=?");
}

/* A child ended: record why, tell the engine, clean up its group. */
static void
proc_ended(struct procs *ps, struct proc *p, int status)
{
	char	reason[300], error[256];
	int	err;

	proc_cputime(p);
	p->live = 0;
	proc_members_clear(p);
	/* Leftovers of a pipeline go with their leader. */
	kill(-p->pid, SIGKILL);
	kill(-p->pid, SIGCONT);
	proc_watchdog_tell(ps, '-', p->pid);
	error[0] = '\0';
	proc_status_text(status, reason, sizeof reason);
	if (p->errfd != -1) {
		if (read(p->errfd, &err, sizeof err) == sizeof err) {
			snprintf(error, sizeof error, "%s: %s", p->prog,
			    strerror(err));
			snprintf(reason, sizeof reason, "exec: %s", error);
			log_warnx("task %s: %s", p->name, error);
		}
		close(p->errfd);
		p->errfd = -1;
	}
	proc_exited(ps, p, reason, error[0] != '\0' ? error : NULL);
	log_debug("task %s: pid %ld exited, %s", p->name, (long)p->pid,
	    p->exit);
}

/* On SIGCHLD: reap every child that ended. */
void
procs_reap(struct procs *ps)
{
	struct proc	*p;
	pid_t		 pid;
	int		 status;

	for (;;) {
		pid = waitpid(-1, &status, WNOHANG);
		if (pid == -1 && errno == EINTR)
			continue;
		if (pid <= 0)
			break;
		if (pid == ps->watchdog) {
			log_warnx("watchdog %ld ended", (long)pid);
			ps->watchdog = 0;
			if (ps->wdfd != -1)
				close(ps->wdfd);
			ps->wdfd = -1;
			continue;
		}
		if ((p = proc_by_pid(ps, pid)) != NULL)
			proc_ended(ps, p, status);
	}
}

/* Kill a real task's process group; the reap records the signal. */
int
procs_kill(struct procs *ps, int id, char **cause)
{
	struct engine_task_info	 ti;
	struct proc		*p;

	if ((p = proc_get(ps, id)) == NULL) {
		*cause = xasprintf("task %d has no process", id);
		return (-1);
	}
	if (p->live) {
		kill(-p->pid, SIGKILL);
		kill(-p->pid, SIGCONT);
		p->killed = 1;
	}
	if (engine_task_info(ps->e, id, &ti) == 0 &&
	    ti.state != ENGINE_EXITED)
		return (engine_task_kill(ps->e, id, cause));
	return (0);
}

/* What is known of a real task's process. */
int
procs_info(struct procs *ps, int id, struct procs_info *info)
{
	struct proc	*p;

	memset(info, 0, sizeof *info);
	if ((p = proc_get(ps, id)) == NULL)
		return (-1);
	if (p->live)
		proc_cputime(p);
	info->pid = p->pid;
	info->cputime_ns = p->cpu_ns;
	info->cputime_ms = p->cpu_ns / 1000000ULL;
	info->exited = !p->live;
	info->stopped = p->live && p->stopped;
	info->by_engine = p->killed;
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
