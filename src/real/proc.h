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
 * Files: proc.c (state, create/free, accessors), proc-spawn.c (spawn,
 * reap), proc-sample.c (/proc sampling, stolen), proc-event.c
 * (sched_waking and sched_switch events: wakes acted on at once through
 * procs_event_fd and procs_wakeups), proc-krun.c (the kernel's runs of
 * the children, from the sched_switch records), proc-enforce.c (stop,
 * pin, continue), proc-watch.c (the watchdog); the block at the end is
 * theirs alone.
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

/*
 * Inside the layer: shared by the proc*.c files only.  proc.c holds the
 * procs_* entry points above that belong to no single job; each other
 * file holds one job and its part of them.
 */
#include <sys/resource.h>

#include <time.h>

#define PROC_MAX_PROCS	256	/* max_task_procs by default */
#define PROC_TICK_TIMES	16384	/* procs_tick_ns: ticks kept */

/* One process of a task's process group. */
struct proc_member {
	pid_t		 pid;
	int		 statfd;	/* /proc/PID/stat */
	int		 schedfd;	/* /proc/PID/schedstat */
	clockid_t	 clock;		/* its process CPU clock */
	uint64_t	 cpu_ns;	/* last CPU time read */
	uint64_t	 pcount;	/* times scheduled in, last read */
	int		 threads;	/* its threads, at the last read */
	/* From the kernel's events: 0 unknown, 'r' running or runnable,
	   else the state it was switched out in (S, D, T, ...). */
	char		 kstate;
	uint64_t	 kstate_ns;	/* the record that said so */
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
	uint64_t		 stop_ns;	/* when we last sent SIGSTOP */
	struct proc_member	*m;
	int			 nm;
	int			 scan;		/* next member the window reads */
	int			 scan_blocked;	/* members in a row seen blocked */
	int			 hint;		/* member last seen runnable */
	int			 over;		/* past max_task_procs, said */
	long			 refused;	/* forks pids.max refused, said */
	int			 cap_due;	/* a pid was handed out since */
	int			 watch;		/* seen blocked: wake events wanted */
	int			 ev_woken;	/* a wake event since it blocked */
	uint64_t		 dead_ns;	/* CPU time of members gone */
	int			 picked;	/* by the engine, since enforce */
	int			 settle;	/* unpicked_ns read before the
						   stop landed: read again */
	uint64_t		 unpicked_ns;	/* cpu_ns when it stopped being */
	uint64_t		 stolen_ns;	/* cpu_ns grown while not picked */
	uint64_t		 cpu_ns;
	char			 exit[320];
	char			 error[256];
};

/* The layer. */
struct procs {
	const struct engine	*e;
	int			(*change)(void *, const struct change *,
				    char **);
	void			*change_arg;
	int			 ncpus;		/* engine CPUs */
	int			*map;		/* engine -> physical */
	char			*outdir;
	char			*bindir;
	struct cgroup		*cg;
	pid_t			 self;
	struct proc		**t;		/* by task id */
	int			 nt;
	int			*runcpu;	/* scratch: task id -> cpu */
	int			*woke;		/* per cpu: let run on a wake */
	int			*woke_rank;	/* its rank after the climb */
	int			 loadavgfd;
	long			 lastpid;	/* from /proc/loadavg */
	long			 pidmax;
	uint64_t		 last_sweep;
	uint64_t		 last_cputime;
	uint64_t		 last_cap;	/* pids.events read */
	long			 cap_lastpid;	/* the last pid then */
	uint64_t		 ticks;		/* procs_observe calls */
	int			 max_procs;	/* max_task_procs */
	void			(*notice)(void *, const char *);
	void			*notice_arg;
	void			(*woke_cb)(void *, int, int, int, uint64_t);
	void			*woke_arg;
	struct cgroup_pids	*pids;		/* NULL: no pids cgroup */
	struct proc_event	*ev;		/* NULL: /proc polling */
	struct proc_krun	*kr;		/* NULL: no switch events */
	uint64_t		*tick_ns;	/* procs_tick_ns ring */
	uint64_t		*tick_of;	/* its ticks (+1; 0: none) */
	uint64_t		 tick_first;	/* the first stamped, +1 (0: none) */
	int			 members_changed; /* a member added or dropped */
	int			 ev_lost;	/* records lost: look at all */
	int			 ev_held_woke;	/* a task held stopped woke:
						   continued from outside? */
	int			 ev_news;	/* a wake or block read that
						   the next observe applies */
	int			 ev_early;	/* procs_early's answer */
	int			 held_all;	/* procs_hold since the last
						   procs_enforce */
	uint64_t		 last_look;	/* the safety net's, ns */
	struct procs_event_stats evstats;
	pid_t			 watchdog;
	int			 wdfd;		/* write end to the watchdog */
	struct rlimit		 nofile;	/* RLIMIT_NOFILE we started with */
	int			 nofile_set;
};

/* proc.c */
uint64_t	 proc_now(void);
struct proc	*proc_by_pid(struct procs *, pid_t);
struct proc	*proc_get(struct procs *, int);
int		 proc_change(struct procs *, int kind, int id, char **);
void		 proc_notice(struct procs *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));

/* proc-spawn.c */
void		 proc_spawn_wait(struct procs *);
int		 proc_status_stopping(const char *);

/* proc-enforce.c */
void		 proc_enforce_signal(struct proc *, int);
void		 proc_enforce_cont(struct procs *, struct proc *);
void		 proc_enforce_wake(struct procs *, struct proc *, uint64_t);

/* proc-sample.c */
int		 proc_sample_parse(const char *, char *, pid_t *);
int		 proc_sample_threads(struct proc_member *);
int		 proc_sample_blocked(struct proc *);
void		 proc_sample_add(struct procs *, struct proc *, pid_t);
void		 proc_sample_clear(struct procs *, struct proc *);
long		 proc_sample_lastpid(struct procs *);
void		 proc_sample_cputime(struct proc *);
void		 proc_sample_unpick(struct proc *, int stopping);
void		 proc_sample_settle(struct proc *);
void		 proc_sample_pick(struct proc *);

/* proc-event.c */
int		 proc_event_start(struct procs *, char **);
void		 proc_event_stop(struct procs *);
void		 proc_event_read(struct procs *);
void		 proc_event_settle(struct procs *);
void		 proc_event_filter(struct procs *);
void		 proc_event_delay(struct procs *, uint64_t);
int		 proc_event_switches(struct procs *);
int		 proc_event_blocks(struct procs *);
int		 proc_event_blocks_on(struct procs *);
const char	*proc_event_switch_why(struct procs *);

/* proc-krun.c */
void		 proc_krun_create(struct procs *, int);
void		 proc_krun_free(struct procs *);
struct proc	*proc_krun_find(struct procs *, pid_t, struct proc_member **);
void		 proc_krun_switch(struct procs *, int, uint64_t, pid_t, long,
		    pid_t, int);
void		 proc_krun_state(struct proc_member *, uint64_t, char);
void		 proc_krun_lost(struct procs *);
int		 proc_krun_blocked(struct procs *, struct proc *);

/* proc-watch.c */
void		 proc_watch_start(struct procs *);
void		 proc_watch_tell(struct procs *, char, pid_t);
void		 proc_watch_stop(struct procs *);
void		 proc_watch_replace(struct procs *, int);

#endif
