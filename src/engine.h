/*
 * engine.h -- the multi-CPU scheduling engine: per-CPU runqueues of 140
 * ranked lists with a bitmap, the tick order of SPEC.md section 1,
 * placement, idle pull and periodic balance.
 *
 * The engine is pure: no I/O, no clock, no globals.  The caller drives it
 * one tick at a time with engine_tick() and reads the outcome back (what
 * each CPU ran, each task's state).  The same calls give the same results,
 * byte for byte.  The staircase rules themselves live behind struct
 * engine_policy (staircase.c) so another policy can sit beside them.
 */
#ifndef STAIRS_ENGINE_H
#define STAIRS_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "cpumask.h"

#define ENGINE_NRANKS		140
#define ENGINE_BOTTOM		139
#define ENGINE_MAX_CPUS		CPUMASK_MAX
#define ENGINE_NAME_MAX		31	/* name length, without the NUL */
#define ENGINE_NEVER		UINT64_MAX

struct engine;

/* Engine parameters; engine_params_default() fills the spec's defaults. */
struct engine_params {
	int		cpus;			/* 1..ENGINE_MAX_CPUS, default 1 */
	int		rr_interval;		/* ticks, default 10 */
	int		sleep_min;		/* ticks, default 1 */
	int		balance_interval;	/* ticks, default 100 */
};

/*
 * The staircase state a policy works on.  The engine owns queueing; the
 * policy only changes these numbers.
 */
struct engine_stair {
	int		nice;		/* -20..19 */
	int		prio;		/* static priority, 120 + nice */
	int		rank;		/* r: prio..139 */
	int		iter;		/* k: 1..L */
	int		left;		/* ticks left at this rank */
	uint32_t	descent;	/* 1 + number of fall-offs (table row) */
};

/* A scheduling policy: how a task moves on its stairs. */
struct engine_policy {
	const char	*name;
	/* A new task with this nice value. */
	void	(*init)(struct engine_stair *, int nice, int rr);
	/* One tick ran: charge it; returns 1 if the task must be requeued. */
	int	(*charge)(struct engine_stair *, int rr);
	/* Woken after sleeping slept ticks (slept >= sleep_min). */
	void	(*wake)(struct engine_stair *, int rr);
	/* Nice changed. */
	void	(*renice)(struct engine_stair *, int nice, int rr);
};

extern const struct engine_policy engine_policy_staircase;

enum engine_state {
	ENGINE_WAITING,		/* not started yet (start in the future) */
	ENGINE_RUNNABLE,	/* queued on a CPU */
	ENGINE_SLEEPING,
	ENGINE_EXITED
};

enum engine_exit {
	ENGINE_EXIT_NONE,
	ENGINE_EXIT_RUNTIME,	/* reached its runtime */
	ENGINE_EXIT_KILLED	/* engine_task_kill (kill command, event, death) */
};

enum engine_kind {
	ENGINE_SIM,		/* scripted: pattern or hog */
	ENGINE_REAL		/* a real process; the caller reports blocks */
};

/* What it takes to create a task. */
struct engine_task_spec {
	const char		*name;
	enum engine_kind	 kind;
	int			 nice;
	uint64_t		 start;		/* absolute tick */
	const uint32_t		*pattern;	/* run, sleep, ... ; NULL: hog */
	size_t			 npattern;	/* even */
	uint64_t		 runtime;	/* 0: none */
	const struct cpumask	*cpus;		/* NULL: every CPU */
	int			 group;		/* -1: none */
};

/* A snapshot of one task, for traces, the protocol and tests. */
struct engine_task_info {
	int			 id;
	const char		*name;	/* valid while the task exists */
	enum engine_kind	 kind;
	enum engine_state	 state;
	int			 running;	/* ran in the last tick and is still
						   runnable on that CPU */
	int			 cpu;		/* queued or last CPU; -1 none */
	int			 group;
	struct engine_stair	 stair;
	uint64_t		 ran;		/* ticks of CPU */
	uint64_t		 wake;		/* next wake tick if sleeping */
	int			 injected;	/* current sleep was injected */
	enum engine_exit	 exit;
	struct cpumask		 affinity;
	struct cpumask		 allowed;	/* affinity & group cpus */
};

/* What a CPU did in the last tick: one trace row. */
struct engine_cpu_info {
	int		cpu;
	int		nr;		/* runnable tasks, running included */
	int		task;		/* id that ran last tick, 0: idle */
	int		rank, iter, left; /* as during the tick */
	uint32_t	descent;
};

/* Actions a scenario schedules for a tick (SPEC.md section 2). */
enum engine_action {
	ENGINE_ACT_SLEEP,
	ENGINE_ACT_NICE,
	ENGINE_ACT_AFFINITY,
	ENGINE_ACT_CAPTION,
	ENGINE_ACT_KILL
};

struct engine_event {
	uint64_t		at;
	enum engine_action	action;
	int			task;		/* id; not for captions */
	long			value;		/* ms for sleep, nice for nice */
	struct cpumask		cpus;		/* for affinity */
	const char		*text;		/* caption; copied */
};

void	engine_params_default(struct engine_params *);
int	engine_params_check(const struct engine_params *, char **cause);
struct engine *engine_create(const struct engine_params *,
	    const struct engine_policy *);
void	engine_free(struct engine *);

/* Setup and live changes.  Each returns 0, or -1 with *cause set. */
int	engine_group_add(struct engine *, const char *name,
	    const struct cpumask *, char **cause);	/* returns group id */
int	engine_group_find(struct engine *, const char *name);
int	engine_group_set_cpus(struct engine *, int group,
	    const struct cpumask *, char **cause);
int	engine_task_add(struct engine *, const struct engine_task_spec *,
	    char **cause);				/* returns task id */
/* A task's id by name, else by decimal id; 0 if there is none. */
int	engine_task_find(struct engine *, const char *name_or_id);
const char *engine_name_check(const char *name);
int	engine_task_sleep(struct engine *, int id, uint64_t ms, char **cause);
int	engine_task_nice(struct engine *, int id, int nice, char **cause);
int	engine_task_affinity(struct engine *, int id,
	    const struct cpumask *, char **cause);
int	engine_task_kill(struct engine *, int id, char **cause);
/* Real tasks: seen blocked (sleeps until woken), seen runnable again. */
int	engine_task_block(struct engine *, int id, char **cause);
int	engine_task_wake(struct engine *, int id, char **cause);
/* Would a blocked real task woken now preempt?  Pure; see engine.c. */
int	engine_wake_query(const struct engine *, int id, int *cpu,
	    int *rank);
void	engine_event_add(struct engine *, const struct engine_event *);

/* Run the next tick (engine_now()) and advance the clock by one. */
void	engine_tick(struct engine *);

/* Reading back. */
uint64_t engine_now(const struct engine *);	/* the next tick to run */
const struct engine_params *engine_params(const struct engine *);
const struct engine_policy *engine_get_policy(const struct engine *);
int	engine_ntasks(const struct engine *);		/* highest id */
int	engine_nlive(const struct engine *);		/* not exited */
int	engine_ngroups(const struct engine *);
const char *engine_group_name(const struct engine *, int group);
int	engine_group_cpus(const struct engine *, int group,
	    struct cpumask *);				/* -1: no such group */
int	engine_task_info(const struct engine *, int id,
	    struct engine_task_info *);			/* -1: no such id */
void	engine_cpu_info(const struct engine *, int cpu,
	    struct engine_cpu_info *);
/* The scenario events fired in the last tick, in order. */
const struct engine_event *engine_fired(const struct engine *, size_t *n);
/* The last caption fired, and a counter that moves when one fires. */
const char *engine_caption(const struct engine *, uint64_t *seq);

/*
 * Audit the runqueues (links, bitmap, nr, every queued task on the list
 * of its rank and on an allowed CPU, stair invariants); for tests.
 * Returns 0, or -1 with *cause saying what is broken.
 */
int	engine_check(const struct engine *, char **cause);

const char *engine_state_name(enum engine_state);
/* Number of stairs for a nice value: 40 - (nice + 20) ... 1. */
int	engine_stairs(int nice);

#endif
