/*
 * proc-int.h -- the real-process layer's insides, shared by its files
 * alone (proc.h lists them).  Each holds one job and its part of the
 * procs_* entry points of proc.h.  Nothing outside src/real/proc*.c includes it (the
 * real-process tests aside): the rest of the program sees proc.h.
 */
#ifndef STAIRS_PROC_INT_H
#define STAIRS_PROC_INT_H

#include <sys/resource.h>

#include <time.h>

#include "proc.h"

#define PROC_MAX_PROCS	256	/* max_task_procs by default */
#define PROC_TICK_TIMES	16384	/* procs_tick_ns: ticks kept */
#define PROC_WINDOW	8	/* members read per task per tick */

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

/* proc-state.c */
uint64_t	 proc_now(void);
struct proc	*proc_by_pid(struct procs *, pid_t);
struct proc	*proc_get(struct procs *, int);
int		 proc_change(struct procs *, int kind, int id, char **);
void		 proc_notice(struct procs *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
void		 proc_signal(struct proc *, int);

/* proc-spawn.c */
void		 proc_spawn_wait(struct procs *);
int		 proc_status_stopping(const char *);

/* proc-enforce.c */
void		 proc_enforce_cont(struct procs *, struct proc *);
void		 proc_enforce_wake(struct procs *, struct proc *, uint64_t);
void		 proc_enforce_tick(struct procs *);

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
