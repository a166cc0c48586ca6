/*
 * proc-spawn.c -- spawn and reap the children of real tasks.
 *
 * Children start stopped: the child raises SIGSTOP before exec and the
 * parent waits for that stop, so a child never runs before the engine
 * picks it.  The program is looked up before the fork, so a missing or
 * non-executable program is an error at once; any other exec failure
 * comes back through a close-on-exec pipe when the child first runs and
 * shows in its exit reason.  Reaping turns a wait status into the task's
 * exit reason, tells the engine, and kills what is left of the group.
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
#include "change.h"
#include "cpumask.h"
#include "engine.h"
#include "file.h"
#include "log.h"
#include "monotonic.h"
#include "proc-int.h"
#include "quote.h"
#include "xmalloc.h"

/*
 * Look a program up: as given if it holds a '/', else in bindir (the
 * daemon's own directory), then in PATH.  Returns the path, or NULL with
 * errno set.
 */
static char *
proc_spawn_lookup(const char *bindir, const char *prog)
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

	if ((path = proc_spawn_lookup(bindir, prog)) == NULL) {
		*cause = xasprintf("%s: %s", prog, strerror(errno));
		return (-1);
	}
	free(path);
	return (0);
}

/* Mark a task exited with a reason. */
static void
proc_spawn_exited(struct procs *ps, struct proc *p, const char *reason,
    const char *error)
{
	struct engine_task_info	 ti;
	char			*cause = NULL;

	snprintf(p->exit, sizeof p->exit, "%s", reason);
	if (error != NULL)
		snprintf(p->error, sizeof p->error, "%s", error);
	if (engine_task_info(ps->e, p->id, &ti) == 0 &&
	    ti.state != ENGINE_EXITED &&
	    proc_change(ps, CHANGE_EXIT, p->id, &cause) != 0) {
		log_warnx("task %s: %s", p->name, cause);
		free(cause);
	}
}

/*
 * The physical CPUs a task may run on: those of the engine CPUs it is
 * allowed (its affinity and its group's), else every CPU.
 */
static void
proc_spawn_cpus(struct procs *ps, const struct engine_task_info *ti,
    cpu_set_t *set)
{
	int	c;

	CPU_ZERO(set);
	for (c = 0; c < ps->ncpus; c++) {
		if (cpumask_test(&ti->allowed, c) && ps->map[c] >= 0 &&
		    ps->map[c] < CPU_SETSIZE)
			CPU_SET(ps->map[c], set);
	}
	if (CPU_COUNT(set) == 0) {
		for (c = 0; c < CPU_SETSIZE; c++)
			CPU_SET(c, set);
	}
}

/*
 * The child side of a spawn: never returns.  cpus: where it may run
 * until it is pinned (not the daemon's own CPUs, which it would inherit:
 * the loop keeps off the children's).
 */
static void __attribute__((noreturn))
proc_spawn_child(struct procs *ps, const char *path, char *const argv[],
    int out, int errfd, const cpu_set_t *cpus)
{
	struct sched_param	sp;
	sigset_t		set;
	cpu_set_t		all;
	int			sig, null, err, c;

	setpgid(0, 0);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != ps->self)
		_exit(126);
	/* Outside the daemon's cpuset, say: every CPU it allows. */
	if (sched_setaffinity(0, sizeof *cpus, cpus) != 0) {
		CPU_ZERO(&all);
		for (c = 0; c < CPU_SETSIZE; c++)
			CPU_SET(c, &all);
		sched_setaffinity(0, sizeof all, &all);
	}
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
	cpu_set_t		 cpus;
	char			*path, *log = NULL, reason[256], *why;
	char			 q[QUOTE_SIZE];
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
		ps->t = xrecallocarray(ps->t, ps->nt, id + 1, sizeof *ps->t);
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

	if ((path = proc_spawn_lookup(ps->bindir, argv[0])) == NULL) {
		err = errno;
		*cause = xasprintf("%s: %s", argv[0], strerror(err));
		snprintf(reason, sizeof reason, "exec: %s: %s",
		    quote_word(argv[0], q, sizeof q), strerror(err));
		proc_spawn_exited(ps, p, reason, *cause);
		return (-1);
	}
	/* 0600, through no link, never a FIFO (file.c). */
	if (ps->outdir != NULL) {
		log = xasprintf("%s/%s.log", ps->outdir, ti.name);
		out = file_open(log, FILE_TRUNCATE, cause);
	} else if ((out = open("/dev/null", O_WRONLY | O_CLOEXEC)) == -1)
		*cause = xasprintf("/dev/null: %s", strerror(errno));
	if (out == -1) {
		proc_spawn_exited(ps, p, "error", *cause);
		free(log);
		free(path);
		return (-1);
	}
	free(log);
	proc_spawn_cpus(ps, &ti, &cpus);
	if (pipe2(fds, O_CLOEXEC) != 0) {
		*cause = xasprintf("pipe: %s", strerror(errno));
		proc_spawn_exited(ps, p, "error", *cause);
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
		proc_spawn_exited(ps, p, "error", *cause);
		return (-1);
	case 0:
		close(fds[0]);
		proc_spawn_child(ps, path, argv, out, fds[1], &cpus);
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
		proc_spawn_exited(ps, p, "error", *cause);
		close(p->errfd);
		p->errfd = -1;
		return (-1);
	}
	p->live = 1;
	p->stopped = 1;
	p->stop_ns = monotonic_ns();
	p->forked = 0;
	proc_sample_add(ps, p, pid);
	proc_sample_cputime(p);		/* stolen counts from here */
	p->unpicked_ns = p->cpu_ns;
	proc_watch_tell(ps, '+', pid);
	/*
	 * Into the daemon's cgroups while still stopped before exec, so
	 * every later process of the task, even one that leaves its process
	 * group, is born inside and dies with the daemon.
	 */
	why = NULL;
	if (ps->cg != NULL && p->group >= 0) {
		if (procs_group_setup(ps, p->group, &why) == 0)
			cgroup_move(ps->cg, p->group, pid, &why);
	} else if (ps->cg != NULL)
		cgroup_move(ps->cg, CGROUP_TASKS, pid, &why);
	if (why != NULL) {
		log_warnx("task %s: %s", p->name, why);
		free(why);
		why = NULL;
	}
	if (ps->pids != NULL && cgroup_pids_add(ps->pids, p->id, pid,
	    ps->max_procs, &why) != 0) {
		log_warnx("task %s: %s", p->name, why);
		free(why);
	}
	log_debug("task %s: pid %ld", p->name, (long)pid);
	return (0);
}

/* Describe a wait status: "status=N" or "signal=NAME". */
static void
proc_spawn_status(int status, char *buf, size_t len)
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
proc_spawn_ended(struct procs *ps, struct proc *p, int status)
{
	char	reason[300], error[256], q[QUOTE_SIZE];
	int	err;

	proc_sample_cputime(p);
	p->live = 0;
	proc_sample_clear(ps, p);
	/* Leftovers of a pipeline, and escapees, go with their leader. */
	kill(-p->pid, SIGKILL);
	kill(-p->pid, SIGCONT);
	if (ps->pids != NULL)
		cgroup_pids_end(ps->pids, p->id);
	proc_watch_tell(ps, '-', p->pid);
	error[0] = '\0';
	proc_spawn_status(status, reason, sizeof reason);
	if (p->errfd != -1) {
		if (read(p->errfd, &err, sizeof err) == sizeof err) {
			/* The program as the client gave it: quoted. */
			snprintf(error, sizeof error, "%s: %s",
			    quote_word(p->prog, q, sizeof q),
			    strerror(err));
			snprintf(reason, sizeof reason, "exec: %s", error);
			log_warnx("task %s: %s", p->name, error);
		}
		close(p->errfd);
		p->errfd = -1;
	}
	proc_spawn_exited(ps, p, reason, error[0] != '\0' ? error : NULL);
	log_debug("task %s: pid %ld exited, %s", p->name, (long)p->pid,
	    p->exit);
}

/*
 * Does a /proc/PID/status text say stopped or stopping: state T (or t),
 * or SIGSTOP pending in the shared signals (sent to the group, not yet
 * acted on)?  -1 if it is not understood.
 */
int
proc_status_stopping(const char *buf)
{
	const char		*st, *sh;
	unsigned long long	 pend;

	if ((st = strstr(buf, "\nState:")) == NULL ||
	    (sh = strstr(buf, "\nShdPnd:")) == NULL ||
	    sscanf(sh + 8, "%llx", &pend) != 1)
		return (-1);
	st += 7;
	st += strspn(st, " \t");
	return (*st == 'T' || *st == 't' || (pend & (1ULL << (SIGSTOP - 1))));
}

/* The same of a status file; -1 if it cannot be read (gone). */
static int
proc_spawn_status_stopping(const char *path)
{
	char	buf[4096];

	if (cgroup_read(path, buf, sizeof buf) != 0)
		return (-1);
	return (proc_status_stopping(buf));
}

/*
 * Is a process stopped or stopping?  Its status, then each of its
 * threads' (another thread may have taken the group's SIGSTOP; a zombie
 * leader never stops), the leader's among them read a second time: the
 * kernel prints the state before it locks to print the pending signals,
 * so a stop taken between the two shows as neither in one read.  0 only
 * if all say it runs free; -1 if it is gone.
 */
static int
proc_spawn_stopping(pid_t pid)
{
	DIR		*d;
	struct dirent	*de;
	char		 path[96];
	int		 r;

	snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
	if ((r = proc_spawn_status_stopping(path)) != 0)
		return (r);
	snprintf(path, sizeof path, "/proc/%ld/task", (long)pid);
	if ((d = opendir(path)) == NULL)
		return (-1);
	while (r == 0 && (de = readdir(d)) != NULL) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%ld/task/%.16s/status",
		    (long)pid, de->d_name);
		r = proc_spawn_status_stopping(path) == 1;
	}
	closedir(d);
	return (r);
}

/*
 * A task's leader was reported continued while we hold it stopped.  The
 * kernel keeps a continue's report only until the process completes a
 * stop: so if it is stopped or still stopping (our SIGSTOP pending), the
 * report is our own continue's, from before that stop; if it runs free
 * with no stop pending, someone else continued it (kill -CONT) after our
 * stop took: stop it again at once, and say so.
 */
static void
proc_spawn_continued(struct procs *ps, struct proc *p)
{
	uint64_t	tick;

	if (!p->live || p->killed || !p->stopped ||
	    proc_spawn_stopping(p->pid) != 0)
		return;
	p->settle = 0;		/* what it ran since is stolen */
	proc_signal(p, SIGSTOP);
	p->stop_ns = monotonic_ns();
	tick = engine_now(ps->e);
	proc_notice(ps, "task %s (pid %ld) continued from outside at tick "
	    "%llu; stopped again", p->name, (long)p->pid,
	    (unsigned long long)tick);
}

/*
 * Every tick and on SIGCHLD: reap every child that ended, and see the
 * ones continued from outside.  waitpid(WCONTINUED) reports a child's
 * continue once, for the price of one system call when there is none, so
 * holding control costs nothing per stopped task; but it sees the leader
 * of a task only, not the other members of its process group.
 */
void
proc_spawn_wait(struct procs *ps)
{
	struct proc	*p;
	pid_t		 pid;
	int		 status;

	ps->evstats.waits++;
	ps->ev_held_woke = 0;		/* this is the look it asked for */
	for (;;) {
		pid = waitpid(-1, &status, WNOHANG | WCONTINUED);
		if (pid == -1 && errno == EINTR)
			continue;
		if (pid <= 0)
			break;
		if (WIFCONTINUED(status)) {
			if ((p = proc_by_pid(ps, pid)) != NULL)
				proc_spawn_continued(ps, p);
			continue;
		}
		if (pid == ps->watchdog) {
			proc_watch_replace(ps, status);
			continue;
		}
		if ((p = proc_by_pid(ps, pid)) != NULL)
			proc_spawn_ended(ps, p, status);
	}
}

/* On SIGCHLD: reap every child that ended. */
void
procs_reap(struct procs *ps)
{
	proc_spawn_wait(ps);
}

/*
 * Kill a real task's process group; the reap records the signal.  The
 * caller makes the CHANGE_KILL that ends the task in the engine.
 */
int
procs_kill(struct procs *ps, int id, char **cause)
{
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
	return (0);
}
