/*
 * proc-int.h -- the real-process layer's insides, shared by its files
 * alone (proc.h lists them, each with its one job and its part of the
 * procs_* entry points).  Nothing outside src/real/proc*.c includes it
 * (the real-process tests aside): the rest of the program sees proc.h.
 */
#ifndef STAIRS_PROC_INT_H
#define STAIRS_PROC_INT_H

#include <sys/resource.h>

#include <linux/perf_event.h>

#include <time.h>

#include "proc.h"

#define PROC_MAX_PROCS	256	/* max_task_procs by default */
#define PROC_TICK_TIMES	16384	/* procs_tick_ns: ticks kept */
#define PROC_WINDOW	8	/* members read per task per tick */
#define PROC_EVENT_LAT	4096	/* wake delays kept */

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

/*
 * Where the records read from the events' rings go (proc-ring.c reads,
 * proc_event_start is given them): a sched_waking of thread pid at ts; a
 * sched_switch on physical cpu at ts, prev (left in prev_state) off the
 * CPU, next (at kernel priority prio) on; records lost.
 */
struct proc_ring_calls {
	void	(*wake)(struct procs *, pid_t pid, uint64_t ts);
	void	(*sw)(struct procs *, int cpu, uint64_t ts, pid_t prev,
		    long prev_state, pid_t next, int prio);
	void	(*lost)(struct procs *);
};

/*
 * One sched_waking event and ring per online CPU, under one filter, and
 * a sched_switch event writing into the same ring (-1: none); and the
 * blocks' sched_switch with a ring of its own (-1: none).
 */
struct proc_event_set {
	int		 n;
	int		*fd;
	int		*sfd;		/* sched_switch, or -1 */
	int		*bfd;		/* sched_switch, blocks only, or -1 */
	int		*cpu;		/* the CPU of each */
	char	       **ring;		/* mmap'd: control page, then data */
	char	       **bring;		/* the blocks' ring, or NULL */
	int		 switches;	/* every CPU has its sched_switch */
	int		 blocks;	/* and its blocks' event */
};

/* Where a tracepoint's fields are in its raw record. */
struct proc_event_fmt {
	long		 id;		/* common_type of its records */
	int		 pid;		/* sched_waking */
	int		 prev_pid, prev_state, prev_state_size;
	int		 next_pid, next_prio;
	int		 end;		/* the record is at least this long */
};

/*
 * The event reader.  The kernel takes a tracepoint event's filter once
 * only (EEXIST after), so when the children's pids change a new set is
 * opened under the new filter before the old one is drained and closed.
 */
struct proc_event {
	struct proc_event_set	 set;
	struct proc_ring_calls	 calls;		/* where its records go */
	struct perf_event_attr	 attr;
	struct perf_event_attr	 sattr;		/* sched_switch */
	int			 has_switch;	/* sattr opens */
	struct perf_event_attr	 battr;		/* sched_switch, blocks */
	int			 has_block;	/* battr opens, filtered */
	int			 block_on;	/* enabled: procs_block_wakeups */
	size_t			 blen;		/* its ring's mmap length */
	int			 ncpu;
	size_t			 len;		/* mmap length */
	size_t			 data;		/* data bytes (a power of two) */
	struct proc_event_fmt	 wake;
	struct proc_event_fmt	 sw;
	char			*switch_why;	/* !has_switch: why */
	char			*tmp;		/* a record that wraps the ring */
	int			 epfd;		/* epoll over the ring fds */
	uint64_t		 lat[PROC_EVENT_LAT];	/* wake to signal, ns */
	uint64_t		 own[PROC_EVENT_LAT];	/* read to signal, ns */
	uint64_t		 nlat;
	uint64_t		 read_ns;	/* the loop began to read the rings */
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
	struct proc_kernel	*kr;		/* NULL: no switch events */
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

/*
 * Each file's part, from the ground floor up (proc.h's list, read from
 * its end): a file calls only the parts listed before its own.
 */
/* proc-state.c */
struct proc	*proc_by_pid(struct procs *, pid_t);
struct proc	*proc_get(struct procs *, int);
int		 proc_change(struct procs *, int kind, int id, char **);
void		 proc_notice(struct procs *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
void		 proc_signal(struct proc *, int);

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
int		 proc_sample_forked(struct procs *);
void		 proc_sample_sweep(struct procs *, uint64_t);
void		 proc_sample_cap(struct procs *);
int		 proc_sample_woken(struct proc *, int);
uint64_t	 proc_sample_pcount(struct proc *);

/* proc-watch.c */
void		 proc_watch_start(struct procs *);
void		 proc_watch_tell(struct procs *, char, pid_t);
void		 proc_watch_stop(struct procs *);
void		 proc_watch_replace(struct procs *, int);

/* proc-ring.c */
size_t		 proc_ring_read_set(struct procs *, struct proc_event_set *,
		    int *);
void		 proc_ring_unready(struct procs *);
void		 proc_ring_read(struct procs *);
void		 proc_ring_delay(struct procs *, uint64_t);

/* proc-event.c */
int		 proc_event_start(struct procs *,
		    const struct proc_ring_calls *, char **);
void		 proc_event_stop(struct procs *);
void		 proc_event_filter(struct procs *);
int		 proc_event_switches(struct procs *);
int		 proc_event_blocks(struct procs *);
int		 proc_event_blocks_on(struct procs *);
const char	*proc_event_switch_why(struct procs *);

/* proc-spawn.c */
void		 proc_spawn_wait(struct procs *);
int		 proc_status_stopping(const char *);

/* proc-kernel.c */
void		 proc_kernel_create(struct procs *, int);
void		 proc_kernel_free(struct procs *);
struct proc	*proc_kernel_find(struct procs *, pid_t, struct proc_member **);
void		 proc_kernel_switch(struct procs *, int, uint64_t, pid_t, long,
		    pid_t, int);
void		 proc_kernel_state(struct proc_member *, uint64_t, char);
void		 proc_kernel_lost(struct procs *);
int		 proc_kernel_blocked(struct procs *, struct proc *);

/* proc-enforce.c */
void		 proc_enforce_cont(struct procs *, struct proc *);
void		 proc_enforce_wake(struct procs *, struct proc *, uint64_t);
void		 proc_enforce_tick(struct procs *);

/* proc-wake.c */
extern const struct proc_ring_calls proc_wake_calls;
void		 proc_wake_settle(struct procs *);

#endif
