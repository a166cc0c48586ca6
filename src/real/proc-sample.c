/*
 * proc-sample.c -- what the kernel did with the children, read from /proc
 * before each tick (procs_observe, in proc-tick.c, says which reads are
 * due and what the engine is told of them).
 *
 * - each tick reads only the running tasks (are they all blocked?) and the
 *   ones we put to sleep because they blocked (have they run since?),
 *   through kept-open /proc/PID/stat and /proc/PID/schedstat fds; with
 *   the kernel's events, neither: a wake comes as an event, and a running
 *   task switched out asleep is seen so (proc-kernel.c), /proc being read
 *   only every PROC_EVENT_LOOK_NS (100 ms) or when records were lost;
 * - the members of a process group (shell pipelines) are found by reading
 *   the pids created since the last look (the last pid handed out is in
 *   /proc/loadavg; nothing is read if it did not move), at most every
 *   500 ms (new members inherit their parent's CPU anyway), or at once
 *   when a group that may have new members looks blocked;
 * - measured CPU time (the process CPU clocks of the members) is read
 *   every 100 ms for groups that ran since, and on demand by procs_info.
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
#include "proc-int.h"
#include "xmalloc.h"


static int	proc_sample_blocked_window(struct proc *);
static int	proc_sample_woken_window(struct proc *, int);

/*
 * Parse the state and process group (pgid NULL: the state only) from a
 * /proc/PID/stat text.  The command name is in parentheses and may hold
 * anything, so parse after the last ')'.
 */
int
proc_sample_parse(const char *buf, char *state, pid_t *pgid)
{
	const char	*p;
	char		*end;
	long		 pg;

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

/* What a state letter says of a process. */
enum proc_sample_kind {
	PROC_SAMPLE_GONE,	/* 0 (no such process), Z, X, x */
	PROC_SAMPLE_ASLEEP,	/* S, D: blocked in the kernel */
	PROC_SAMPLE_RUNS	/* anything else: R, or stopped (T, t) */
};

/* Classify a state letter from proc_sample_state. */
static enum proc_sample_kind
proc_sample_kind(char state)
{
	switch (state) {
	case 0:
	case 'Z':
	case 'X':
	case 'x':
		return (PROC_SAMPLE_GONE);
	case 'S':
	case 'D':
		return (PROC_SAMPLE_ASLEEP);
	default:
		return (PROC_SAMPLE_RUNS);
	}
}

/* The number of threads in a /proc/PID/stat text (its 20th field). */
static int
proc_sample_parse_threads(const char *buf)
{
	const char	*p;
	long		 n;
	int		 field;

	if ((p = strrchr(buf, ')')) == NULL)
		return (1);
	/* The space before each field, the state (3rd) to num_threads. */
	for (field = 3; field <= 20; field++) {
		if ((p = strchr(p + 1, ' ')) == NULL)
			return (1);
	}
	n = strtol(p + 1, NULL, 10);
	return (n >= 1 && n <= INT_MAX ? (int)n : 1);
}

/*
 * Read a member's main thread's state letter (0 if it is gone), and its
 * number of threads into m->threads.
 */
static char
proc_sample_main_state(struct proc_member *m)
{
	char	buf[512], state;
	ssize_t	n;

	n = pread(m->statfd, buf, sizeof buf - 1, 0);
	if (n <= 0)
		return (0);
	buf[n] = '\0';
	if (proc_sample_parse(buf, &state, NULL) != 0)
		return (0);
	m->threads = proc_sample_parse_threads(buf);
	return (state);
}

/* A member's threads, read again (one pread; 1 if it is gone). */
int
proc_sample_threads(struct proc_member *m)
{
	proc_sample_main_state(m);
	return (m->threads);
}

/*
 * The state of a process of several threads whose main thread sleeps:
 * that of the first other thread that does not (runnable or stopped),
 * else the main thread's.  A read per thread, and only then.
 */
static char
proc_sample_threads_state(pid_t pid, char main)
{
	DIR		*d;
	struct dirent	*de;
	char		 path[96], buf[512], state;

	snprintf(path, sizeof path, "/proc/%ld/task", (long)pid);
	if ((d = opendir(path)) == NULL)
		return (main);
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%ld/task/%.16s/stat",
		    (long)pid, de->d_name);
		if (cgroup_read(path, buf, sizeof buf) != 0 ||
		    proc_sample_parse(buf, &state, NULL) != 0)
			continue;
		if (proc_sample_kind(state) == PROC_SAMPLE_RUNS) {
			main = state;
			break;
		}
	}
	closedir(d);
	return (main);
}

/*
 * Read a member's state letter; 0 if it is gone.  /proc/PID/stat gives
 * the main thread's: a process of several is asleep only if all its
 * threads are, so when the main one is, the others are read too.
 */
static char
proc_sample_state(struct proc_member *m)
{
	char	state;

	state = proc_sample_main_state(m);
	if (m->threads > 1 && proc_sample_kind(state) == PROC_SAMPLE_ASLEEP)
		state = proc_sample_threads_state(m->pid, state);
	return (state);
}

/* Read how many times a member was scheduled in (schedstat's third). */
static uint64_t
proc_sample_member_pcount(struct proc_member *m)
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
proc_sample_member_cputime(struct proc_member *m)
{
	struct timespec	ts;

	if (clock_gettime(m->clock, &ts) == 0)
		m->cpu_ns = (uint64_t)ts.tv_sec * 1000000000ULL +
		    (uint64_t)ts.tv_nsec;
}

/*
 * Start tracking a process of a task's group (the event filter is rebuilt
 * to name it).
 */
void
proc_sample_add(struct procs *ps, struct proc *p, pid_t pid)
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
	proc_sample_member_pcount(m);
	m->threads = 1;
	proc_sample_main_state(m);
	p->nm++;
	ps->members_changed = 1;
}

/* Stop tracking member i, keeping its CPU time. */
static void
proc_sample_drop(struct procs *ps, struct proc *p, int i)
{
	struct proc_member	*m = &p->m[i];

	proc_sample_member_cputime(m);
	p->dead_ns += m->cpu_ns;
	close(m->statfd);
	if (m->schedfd != -1)
		close(m->schedfd);
	p->m[i] = p->m[p->nm - 1];
	p->nm--;
	ps->members_changed = 1;
}

/* Drop every member. */
void
proc_sample_clear(struct procs *ps, struct proc *p)
{
	while (p->nm > 0)
		proc_sample_drop(ps, p, p->nm - 1);
}

/* The last pid handed out (the last field of /proc/loadavg), -1 unknown. */
long
proc_sample_lastpid(struct procs *ps)
{
	char	 buf[128], *last;
	ssize_t	 n;

	if (ps->loadavgfd == -1)
		return (-1);
	ps->evstats.pid_looks++;
	n = pread(ps->loadavgfd, buf, sizeof buf - 1, 0);
	if (n <= 0)
		return (-1);
	buf[n] = '\0';
	if ((last = strrchr(buf, ' ')) == NULL)
		return (-1);
	return (strtol(last + 1, NULL, 10));
}

/* Has any process been created since the last sweep? */
int
proc_sample_forked(struct procs *ps)
{
	long	last = proc_sample_lastpid(ps);

	return (last == -1 || last != ps->lastpid);
}

/* Look at one pid: if it is in the group of a task that ran, track it. */
static void
proc_sample_sweep_pid(struct procs *ps, pid_t pid)
{
	struct proc	*p;
	char		 path[64], buf[512], state;
	pid_t		 pgid;
	int		 j;

	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	if (cgroup_read(path, buf, sizeof buf) != 0)
		return;
	if (proc_sample_parse(buf, &state, &pgid) != 0 || state == 'Z')
		return;
	if ((p = proc_by_pid(ps, pgid)) == NULL || !p->forked)
		return;
	for (j = 0; j < p->nm; j++) {
		if (p->m[j].pid == pid)
			return;
	}
	if (p->nm >= ps->max_procs) {
		if (!p->over && ps->pids == NULL)
			proc_notice(ps, "task %s: more than max_task_procs %d "
			    "processes; no pids cgroup to refuse them, the "
			    "rest are not tracked", p->name, ps->max_procs);
		p->over = 1;
		return;
	}
	proc_sample_add(ps, p, pid);
}

/*
 * Find the new members of every live group that was continued since the
 * last sweep (a stopped group cannot fork), and drop the members gone.
 * Pids are handed out cyclically, so every process created since the last
 * sweep has a pid in (last, now]: only those are read, unless the range is
 * unknown or large, when all of /proc is.
 */
void
proc_sample_sweep(struct procs *ps, uint64_t now)
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
			if (p->m[j].pid != p->pid && proc_sample_kind(
			    proc_sample_state(&p->m[j])) == PROC_SAMPLE_GONE)
				proc_sample_drop(ps, p, j);
		}
	}
	ps->last_sweep = now;
	last = proc_sample_lastpid(ps);
	if (any && last != ps->lastpid) {
		span = last - ps->lastpid;
		if (span < 0)
			span += ps->pidmax;
		if (last > 0 && ps->lastpid > 0 && span > 0 && span <= 4096) {
			for (pid = ps->lastpid + 1; span > 0; span--, pid++) {
				if (pid > ps->pidmax)
					pid = 1;
				proc_sample_sweep_pid(ps, (pid_t)pid);
			}
		} else if ((d = opendir("/proc")) != NULL) {
			while ((de = readdir(d)) != NULL) {
				pid = strtol(de->d_name, &end, 10);
				if (*end == '\0' && pid > 0)
					proc_sample_sweep_pid(ps, (pid_t)pid);
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

/*
 * Every 500 ms: has pids.max refused forks of a task that ran since?  Said
 * when the count grows (pids.events "max N").  A refused fork has had its
 * pid handed out first (copy_process: alloc_pid, then cgroup_can_fork),
 * so a task's pids.events is read only if a pid was handed out since its
 * last read (then it is due until it has run and been read).
 */
void
proc_sample_cap(struct procs *ps)
{
	struct proc	*p;
	long		 n, last;
	int		 i, handed;

	if (ps->pids == NULL)
		return;
	last = proc_sample_lastpid(ps);
	handed = last == -1 || last != ps->cap_lastpid;
	ps->cap_lastpid = last;
	for (i = 1; i < ps->nt; i++) {
		if ((p = ps->t[i]) == NULL || !p->live)
			continue;
		if (handed)
			p->cap_due = 1;
		if (!p->cap_due || !p->forked)
			continue;
		p->cap_due = 0;
		n = cgroup_pids_refused(ps->pids, p->id);
		ps->evstats.cap_reads++;
		if (n > p->refused) {
			proc_notice(ps, "task %s: process tree at "
			    "max_task_procs %d, %ld forks refused", p->name,
			    ps->max_procs, n);
			p->refused = n;
		}
	}
}

/* Read the measured CPU time of a task's members. */
void
proc_sample_cputime(struct proc *p)
{
	uint64_t	sum = p->dead_ns;
	int		i;

	for (i = 0; i < p->nm; i++) {
		proc_sample_member_cputime(&p->m[i]);
		sum += p->m[i].cpu_ns;
	}
	if (sum > p->cpu_ns)
		p->cpu_ns = sum;
}

/*
 * stolen: the CPU time a task had while the engine had not picked it.
 * Its CPU clocks are read when it stops being picked (when it is seen
 * blocked, or when it is stopped) and when it is picked again (before
 * the continue); what grew in between was stolen.
 *
 * A running process's CPU clock read from another process lags: the
 * kernel brings a running thread's time up to date for reads of its own
 * thread group only, else at its scheduler tick or switch, so the
 * reading misses up to a tick of what it ran (more while its virtual CPU
 * is held off by the host).  Read before the stop signal, that missing
 * run of the picked task came out as stolen at the next pick.  So a
 * stopping task's reading is taken again once its stop has landed
 * (proc_sample_settle): stopped, its time is up to date.  What it ran
 * between the signal and the stop (a stop's own delay, microseconds) is
 * not counted either.  Three reads and a waitid per switch, none per
 * tick.
 */
void
proc_sample_unpick(struct proc *p, int stopping)
{
	if (!p->picked)
		return;
	proc_sample_cputime(p);
	p->unpicked_ns = p->cpu_ns;
	p->picked = 0;
	p->settle = stopping;
}

/*
 * If a stopped task's stop has landed (the leader's group stop is
 * complete: waitid sees it, leaving it to be seen again), read its
 * clocks again: the reading it stopped being picked at.  A continue
 * from outside since then clears the settle (proc_spawn_continued), so
 * what it ran then stays stolen.  The leader's stop says nothing of the
 * task's other processes, which are read as they are.
 */
void
proc_sample_settle(struct proc *p)
{
	siginfo_t	si;

	if (!p->settle)
		return;
	if (!p->live || p->picked || !p->stopped) {
		p->settle = 0;
		return;
	}
	memset(&si, 0, sizeof si);
	if (waitid(P_PID, (id_t)p->pid, &si, WSTOPPED | WNOHANG |
	    WNOWAIT) != 0 || si.si_pid != p->pid || si.si_code != CLD_STOPPED)
		return;
	proc_sample_cputime(p);
	p->unpicked_ns = p->cpu_ns;
	p->settle = 0;
}

/* The engine picked it: what it ran since it was not picked was stolen. */
void
proc_sample_pick(struct proc *p)
{
	if (p->picked)
		return;
	proc_sample_settle(p);
	p->settle = 0;
	proc_sample_cputime(p);
	if (p->cpu_ns > p->unpicked_ns)
		p->stolen_ns += p->cpu_ns - p->unpicked_ns;
	p->picked = 1;
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

/* Are all of a task's processes, every thread of them, blocked (S or D)? */
int
proc_sample_blocked(struct proc *p)
{
	int	i, blocked = 0;

	if (p->nm > PROC_WINDOW)
		return (proc_sample_blocked_window(p));
	for (i = 0; i < p->nm; i++) {
		switch (proc_sample_kind(proc_sample_state(&p->m[i]))) {
		case PROC_SAMPLE_ASLEEP:
			blocked = 1;
			break;
		case PROC_SAMPLE_GONE:
			break;
		case PROC_SAMPLE_RUNS:
			return (0);
		}
	}
	return (blocked);
}

/*
 * The same for a task of more than PROC_WINDOW processes, so that its
 * cost per tick does not grow with its tree: PROC_WINDOW members are read
 * per tick, in turn, and the task is blocked once all of them in a row
 * were seen blocked.  Their schedule counts are read on the way, as the
 * baseline of proc_sample_woken_window.
 */
static int
proc_sample_blocked_window(struct proc *p)
{
	struct proc_member	*m;
	int			 k;

	/* The member last seen runnable most often still is: one read. */
	if (p->hint < p->nm && proc_sample_kind(proc_sample_state(
	    &p->m[p->hint])) == PROC_SAMPLE_RUNS) {
		p->scan_blocked = 0;
		return (0);
	}
	for (k = 0; k < PROC_WINDOW; k++) {
		if (p->scan >= p->nm)
			p->scan = 0;
		m = &p->m[p->scan++];
		switch (proc_sample_kind(proc_sample_state(m))) {
		case PROC_SAMPLE_ASLEEP:
			proc_sample_member_pcount(m);
			break;
		case PROC_SAMPLE_GONE:
			break;
		case PROC_SAMPLE_RUNS:
			p->hint = p->scan - 1;
			p->scan_blocked = 0;
			return (0);
		}
		if (++p->scan_blocked >= p->nm) {
			p->scan_blocked = 0;
			return (1);
		}
	}
	return (0);
}

/* Has a task of many processes woken?  PROC_WINDOW members per tick. */
static int
proc_sample_woken_window(struct proc *p, int look)
{
	struct proc_member	*m;
	uint64_t		 before;
	int			 k;

	for (k = 0; k < PROC_WINDOW && k < p->nm; k++) {
		if (p->scan >= p->nm)
			p->scan = 0;
		m = &p->m[p->scan++];
		before = m->pcount;
		if (proc_sample_member_pcount(m) != before)
			return (1);
		if (look && proc_sample_state(m) == 'R')
			return (1);
	}
	return (0);
}

/*
 * Has a task we put to sleep woken?  Its processes are left continued, so
 * one that became runnable is scheduled in soon: the schedule count in
 * /proc/PID/schedstat (one 1.3 us pread) moves, even for a burst shorter
 * than a tick.  Every few ticks the state letters are read as well (2 us
 * each), for a process that is runnable but still waiting for a CPU.
 */
int
proc_sample_woken(struct proc *p, int look)
{
	int	i;

	if (p->nm > PROC_WINDOW)
		return (proc_sample_woken_window(p, look));
	if (proc_sample_pcount(p) != p->blocked_pcount)
		return (1);
	if (!look)
		return (0);
	for (i = 0; i < p->nm; i++) {
		if (proc_sample_state(&p->m[i]) == 'R')
			return (1);
	}
	return (0);
}

/* The schedule count of all of a task's processes. */
uint64_t
proc_sample_pcount(struct proc *p)
{
	uint64_t	sum = 0;
	int		i;

	for (i = 0; i < p->nm; i++)
		sum += proc_sample_member_pcount(&p->m[i]);
	return (sum);
}
