/*
 * proc.h -- real child processes under the engine (SPEC.md section 5).
 *
 * Each ENGINE_REAL task is a child in its own process group.  Around every
 * engine_tick() the caller runs:
 *
 *	procs_observe(p);	running groups seen blocked -> CHANGE_BLOCK,
 *				blocked ones seen runnable -> CHANGE_WAKE
 *	engine_tick(e);
 *	procs_enforce(p);	the task each engine CPU ran is pinned to that
 *				CPU's physical CPU and continued; every other
 *				runnable real task is stopped
 *
 * and procs_reap() on SIGCHLD.  A caller that runs several ticks at once
 * (late, or sleeping through ticks that change nothing: procs_quiet)
 * observes and enforces around the last only, and stamps each before it
 * with its own time (procs_stamp).  The layer only reads the engine: every
 * block, wake and exit it sees goes out as a struct change through
 * procs_config.change (the daemon's session applies and journals it).  Only changes are signalled.  A watchdog
 * process kills every child group and removes the cgroups if the caller
 * dies without procs_free(); it is replaced if it dies.  procs_observe
 * also reaps and sees a child continued from outside (stopped again).
 * What users should hear of comes back through procs_config.notice.
 *
 * Files, from the top floor down: each calls only files below it, and
 * what they share is in proc-int.h, theirs alone.
 *
 *	proc-life.c	procs_create, procs_free: the layer made, torn down
 *	proc-tick.c	around a tick: procs_observe before, procs_enforce
 *			after; may the loop sleep (procs_quiet) or run
 *			the tick early (procs_early)?
 *	proc-wake.c	the kernel's records acted on as read: wakes at
 *			once, through procs_event_fd and procs_wakeups
 *	proc-enforce.c	make the children obey: after a tick, on a wake,
 *			while paused (stop, pin, continue)
 *	proc-kernel.c	the kernel's runs of the children, from the
 *			sched_switch records
 *	proc-spawn.c	spawn and reap the children, kill a task
 *	proc-event.c	the kernel's sched events (sched_waking and
 *			sched_switch) opened for the children
 *	proc-ring.c	their rings read, each record handed on; the
 *			wakes' delays
 *	proc-watch.c	the watchdog process that outlives a killed daemon
 *	proc-sample.c	/proc sampling before a tick: blocked, woken,
 *			members of a process group, measured CPU time,
 *			stolen, procs_info
 *	proc-state.c	the layer's state: a task by id or pid, the clock,
 *			changes, notices and signals out, the ticks' time
 *			line, what callers ask of it
 *
 * Costs drive the design (see docs/LIMITS.md and docs/REAL.md):
 * a signal to another CPU is ~25 us and a setaffinity of a running child
 * ~53 us, but of a stopped one ~2 us; a pread on a kept /proc fd is ~2 us
 * and a sweep of many is not cheap.  Each file says what follows for it.
 */
#ifndef STAIRS_PROC_H
#define STAIRS_PROC_H

#include <sys/types.h>

#include <sched.h>

#include <stddef.h>
#include <stdint.h>

struct change;
struct engine;
struct procs;

struct procs_config {
	const int	*map;	/* engine cpu -> physical cpu; NULL: default */
	int		 nmap;	/* entries in map (engine CPUs) */
	const char	*outdir;	/* <outdir>/<task>.log; NULL: /dev/null */
	const char	*bindir;	/* programs looked up here, then PATH */
	int		 cgroups;	/* try cgroups (else affinity only) */
	int		 max_task_procs; /* processes per task; 0: 256 */
	int		 observe_proc;	/* poll /proc even where events work */
	/* Where the last pid is read; NULL: /proc/loadavg (tests: a file). */
	const char	*loadavg;
	/* Make a change to the engine (block, wake, exit); 0 or -1. */
	int		(*change)(void *, const struct change *, char **cause);
	void		*change_arg;
	/* Called with what the caller should tell its users, may be NULL. */
	void		(*notice)(void *, const char *);
	void		*notice_arg;
	/*
	 * A woken task let run at once on engine CPU cpu, ahead of the
	 * tick, at rank (the engine's answer to the wake: it preempts what
	 * ran there), at ns (CLOCK_MONOTONIC); may be NULL.
	 */
	void		(*woke)(void *, int cpu, int task, int rank,
			    uint64_t ns);
	void		*woke_arg;
};

struct procs_info {
	pid_t		 pid;		/* 0: never started */
	uint64_t	 cputime_ms;	/* measured: all its processes */
	uint64_t	 cputime_ns;
	/* CPU time it had while the engine had not picked it. */
	uint64_t	 stolen_ms;
	uint64_t	 stolen_ns;
	int		 exited;
	int		 stopped;	/* the last signal sent was SIGSTOP */
	int		 by_engine;	/* ended by the engine (kill, runtime) */
	int		 procs;		/* processes of its tree tracked */
	/* Why it ended: "status=0", "signal=KILL", "exec: PROG: ERRNO TEXT". */
	char		 exit[320];
	char		 error[256];	/* exec failure "PROG: ERRNO TEXT", else "" */
};

struct procs *procs_create(const struct engine *, const struct procs_config *,
	    char **cause);
void	procs_free(struct procs *);
void	procs_set_engine(struct procs *, const struct engine *);
int	procs_spawn(struct procs *, int task_id, char *const argv[],
	    char **cause);
void	procs_observe(struct procs *);
void	procs_enforce(struct procs *);
/* A tick of several run at once, but not the last (see above). */
void	procs_stamp(struct procs *, uint64_t ns);
/*
 * May the caller sleep through ticks that change nothing in the engine
 * (engine_quiet)?  Only when the kernel's events wake it at once for
 * what would change the engine (a watched task's wake, a running one's
 * block: procs_event_fd, the blocks' turned on by procs_block_wakeups)
 * and nothing read waits for the next tick: 1; not now: 0; not without
 * the blocks' events (-1).
 */
int	procs_quiet(struct procs *);
/*
 * What was read since the last procs_observe asks a caller that sleeps
 * through quiet ticks to run the tick in progress now, before its time,
 * as long as it is then no more than this many ticks ahead of the wall
 * clock: 2 if a task the engine runs blocked (the kernel's switches say
 * so: its CPU idles until a tick picks the next, where the kernel's own
 * schedule() would not wait), 1 if a watched task's wake was acted on
 * (the engine hears of it at that tick, and the loop need not wake again
 * for it at the tick's end), else 0.
 */
int	procs_early(struct procs *);
/* Let the children's blocks wake the loop (procs_quiet needs it). */
void	procs_block_wakeups(struct procs *, int on);
void	procs_hold(struct procs *);	/* paused: stop every real task */
void	procs_release(struct procs *);	/* resumed */
/* The daemon itself was stopped: continue again what it has running. */
void	procs_reassert(struct procs *);
void	procs_reap(struct procs *);
/* Kill its process group (the caller makes the CHANGE_KILL). */
int	procs_kill(struct procs *, int task_id, char **cause);
int	procs_info(struct procs *, int task_id, struct procs_info *);
const char *procs_cgroup_mode(struct procs *);	/* "v2", "v1", "none" */
/* The pids cgroup holding max_task_procs: "v2", "v1", "none". */
const char *procs_pids_mode(struct procs *);
pid_t	procs_watchdog(struct procs *);	/* its pid, 0 if none */
/*
 * With events: a descriptor that is readable when a child was woken;
 * the caller's loop then calls procs_wakeups, which acts on the wake at
 * once.  -1 when polling.
 */
int	procs_event_fd(struct procs *);
void	procs_wakeups(struct procs *);
/* Wakes acted on (the last 4096): count, median and p99 delay in ns. */
size_t	procs_wake_delay(struct procs *, uint64_t *median, uint64_t *p99);
size_t	procs_wake_own(struct procs *, uint64_t *median, uint64_t *p99);
/* How wakes are seen: "events" (sched tracepoints) or "proc" (polling). */
const char *procs_observe_mode(struct procs *);

/*
 * The kernel's own runs of the children, from its sched_switch events
 * (with observe=events; none when polling): per physical CPU, which child
 * thread ran from when to when, on CLOCK_MONOTONIC, the last
 * PROCS_KRUNS of them.  A run is closed when the kernel switches the
 * child out; runs get numbers (seq) 1, 2, ... per CPU in that order,
 * which is their time order.
 */
#define PROCS_KRUNS	4096	/* runs kept per physical CPU */
struct procs_krun {
	uint64_t	 seq;		/* per CPU, from 1 */
	int		 cpu;		/* physical CPU */
	int		 task;		/* engine task id */
	pid_t		 pid;		/* the thread the kernel ran */
	int		 prio;		/* its kernel priority (120: nice 0) */
	uint64_t	 from_ns;	/* switched in, CLOCK_MONOTONIC */
	uint64_t	 to_ns;		/* switched out; 0: still running */
	char		 state;		/* left as: R S D T t X Z P I (kernel's) */
	int		 preempted;	/* R because preempted ("R+") */
	pid_t		 next;		/* what ran next: 0 idle, else a thread
					   (a child's run then starts at to_ns) */
	pid_t		 prev;		/* what ran before: 0 idle, else a
					   thread (another child's: it ended
					   at from_ns) */
	int		 lost;		/* records were lost before it: what
					   ran since the run before is not
					   known */
};
/* Physical CPUs that may have runs (0: no switch events here). */
int	procs_kernel_ncpus(struct procs *);
/*
 * The runs of physical cpu closed since *cursor (a seq; start at 0), in
 * order, at most max into out; *cursor moves to the last one given.
 * Runs older than the ring are gone: a seq that jumps says so.
 */
size_t	procs_kernel_runs(struct procs *, int cpu, uint64_t *cursor,
	    struct procs_krun *out, size_t max);
/*
 * Were records lost since the last run closed on physical cpu?  (Its
 * next run will say so, r->lost; until then what it ran is not known.)
 */
int	procs_kernel_lost(struct procs *, int cpu);
/* The run open on physical cpu now (to_ns 0): 1, or 0 if none. */
int	procs_kernel_running(struct procs *, int cpu, struct procs_krun *);
/*
 * When the decisions of an engine tick were enforced (procs_enforce
 * after it), CLOCK_MONOTONIC ns, for the last PROC_TICK_TIMES ticks;
 * 0 if not known.  Puts the engine's ticks and the kernel's runs on one
 * time line.
 */
uint64_t procs_tick_ns(struct procs *, uint64_t tick);
/*
 * A CLOCK_MONOTONIC time of the kernel's (a switch, a wake) on the
 * engine's time line, in ns of engine time (tick t is t ms): the tick
 * whose enforcement it followed, plus the real time since then, at most
 * to just before the next tick.  Non-decreasing in ns; before the ticks
 * kept, the first kept.  SPEC.md section 9 stamps Perfetto traces so.
 */
uint64_t procs_engine_ns(struct procs *, uint64_t ns);

/* What observation saw and did, for tests and the bench. */
struct procs_event_stats {
	uint64_t	 wakeups;	/* sched_waking records of children */
	uint64_t	 switches;	/* sched_switch records read */
	uint64_t	 blocks;	/* running tasks seen blocked by them */
	uint64_t	 lost;		/* PERF_RECORD_LOST seen */
	uint64_t	 pid_looks;	/* reads of /proc/loadavg's last pid */
	uint64_t	 waits;		/* waitpid polls (proc_spawn_wait) */
	uint64_t	 cap_reads;	/* pids.events read (process cap) */
	uint64_t	 readies;	/* procs_wakeups: the loop woken by a ring */
	uint64_t	 ready_wakes;	/* wake records those calls read */
};
void	procs_event_stats(struct procs *, struct procs_event_stats *);
/* The cgroup directory of an engine group, NULL without one. */
const char *procs_cgroup_path(struct procs *, int group_id);
int	procs_group_setup(struct procs *, int group_id, char **cause);
/* The physical CPU of an engine CPU. */
int	procs_phys_cpu(struct procs *, int cpu);
/* Of ours, the CPUs no engine CPU maps to (all if < 2 left): a loop's. */
void	procs_off_cpus(struct procs *, const cpu_set_t *ours, cpu_set_t *);
/* Can prog be found (in bindir, then PATH)?  For checks before spawning. */
int	procs_lookup(const char *bindir, const char *prog, char **cause);

#endif
