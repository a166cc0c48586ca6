/*
 * engine.h -- the multi-CPU scheduling engine: per-CPU runqueues, the
 * tick order of SPEC.md section 1, placement, idle pull and periodic
 * balance, with the runqueue order behind a scheduling class.
 *
 * The engine is pure: no I/O, no clock, no globals.  The caller drives it
 * one tick at a time with engine_tick() and reads the outcome back (what
 * each CPU ran, each task's state).  The same calls give the same results,
 * byte for byte.  A policy (staircase.c, o1.c, cfs.c, eevdf.c, rr.c)
 * lives behind struct engine_policy, a scheduling class that owns its
 * runqueue order, its per-task and per-CPU state and its trace columns
 * (SPEC.md 6).
 */
#ifndef STAIRS_ENGINE_H
#define STAIRS_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "cpumask.h"
#include "prio_array.h"

#define ENGINE_NRANKS		140
#define ENGINE_BOTTOM		139
#define ENGINE_NICE_MIN		(-20)
#define ENGINE_NICE_MAX		19
/* A nice level's static priority: the kernel's NICE_TO_PRIO, 100..139. */
#define NICE_TO_PRIO(nice)	(120 + (nice))
#define ENGINE_MAX_CPUS		CPUMASK_MAX
#define ENGINE_NAME_MAX		31	/* name length, without the NUL */
#define ENGINE_NEVER		UINT64_MAX
#define ENGINE_PRIV_SIZE	32	/* policy-private bytes per task */
#define ENGINE_MAX_COLS		4	/* a policy's trace columns */
#define ENGINE_MAX_FIELDS	6	/* a policy's fields of a task */
#define ENGINE_MAX_RQ_FIELDS	6	/* a policy's fields of a CPU */
#define ENGINE_WHY_MAX		320	/* a why line, its NUL included */
#define ENGINE_ORDER_MAX	64	/* ids engine_cpu_order gives at most */

struct engine;

/* Engine parameters; engine_params_default() fills the spec's defaults. */
struct engine_params {
	int		cpus;			/* 1..ENGINE_MAX_CPUS, default 1 */
	int		rr_interval;		/* ticks, default 10 */
	int		sleep_min;		/* ticks, default 1 */
	int		balance_interval;	/* ticks, default 100 */
	int		base_slice;		/* eevdf's request, ms, 1..100,
						   default 3 */
};

enum engine_state {
	ENGINE_WAITING,		/* not started yet (start in the future) */
	ENGINE_RUNNABLE,	/* queued on a CPU */
	ENGINE_SLEEPING,
	ENGINE_EXITED
};

enum engine_exit {
	ENGINE_EXIT_NONE,
	ENGINE_EXIT_RUNTIME,	/* reached its runtime */
	ENGINE_EXIT_KILLED,	/* engine_task_kill (kill command, event, death) */
	ENGINE_EXIT_DONE	/* played its pattern once (once) */
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
	int			 once;		/* play the pattern once, then
						   exit at the end of its last
						   run (its last sleep unused) */
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
	int			 nice;		/* -20..19 */
	int			 prio;		/* static: NICE_TO_PRIO(nice) */
	/*
	 * What a client draws without knowing the policy's rules: the
	 * policy's rank, the ticks left of the task's turn and the turn's
	 * length, and the ranks it can take now (its static rank and the
	 * bottom for the staircase, static -5..+5 for o1, its static rank
	 * for cfs, eevdf and rr).
	 */
	int			 rank;		/* 100..139 */
	int			 left;
	int			 slice;
	int			 top, bottom;
	/* The policy's own quantities, named by its `fields`. */
	int64_t			 field[ENGINE_MAX_FIELDS];
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
	int		rank, left;	/* as during the tick */
	int64_t		col[ENGINE_MAX_COLS];	/* the policy's columns */
	int64_t		field[ENGINE_MAX_FIELDS]; /* and its fields, then */
};

/*
 * What a scenario schedules for a tick that the engine does itself
 * (SPEC.md section 2): change a task, or switch the policy at its tick.
 * A lesson's events (captions, pauses, questions) are the session's.
 */
enum engine_action {
	ENGINE_ACT_SLEEP,
	ENGINE_ACT_NICE,
	ENGINE_ACT_AFFINITY,
	ENGINE_ACT_KILL,
	ENGINE_ACT_POLICY	/* policy: engine_set_policy at this tick */
};

struct engine_event {
	uint64_t		at;
	enum engine_action	action;
	int			task;		/* id; only for task actions */
	long			value;		/* ms for sleep, nice for nice */
	struct cpumask		cpus;		/* for affinity */
	const struct engine_policy *policy;	/* policy */
};

/*
 * A scheduling class (after the kernel's struct sched_class and
 * plugsched): the runqueue order lives behind these operations.  The
 * core keeps tasks, names, the wake wheel, events, placement, balancing
 * and the tick order of SPEC.md section 1; it owns each CPU's count of
 * runnable tasks and tells the class every change.  A class keeps its
 * own state per task (ENGINE_PRIV_SIZE bytes, `ts`, zeroed before
 * task_init) and per CPU (rq_size bytes, `rq`).
 */
enum engine_enq {
	ENGINE_ENQ_NEW,		/* arrived, or starts afresh */
	ENGINE_ENQ_WAKE,	/* woken (after wake()) */
	ENGINE_ENQ_MIGRATE	/* moved here from another CPU */
};

enum engine_deq {
	ENGINE_DEQ_SLEEP,	/* goes to sleep (or blocks) */
	ENGINE_DEQ_EXIT,	/* exits or is killed */
	ENGINE_DEQ_MIGRATE	/* moves to another CPU */
};

/*
 * What a policy tells of a task in the tick just run, in its own terms
 * (the staircase: a fall-off to a new descent, a climb on waking): kept
 * while the engine narrates (engine_narrate), for whoever drives it to
 * say with the task's name before it.
 */
#define ENGINE_NOTE_MAX		160
struct engine_note {
	int	 task;
	char	 text[ENGINE_NOTE_MAX];
};
struct engine_notes {
	struct engine_note	*v;
	size_t			 n, size;
};

/*
 * Why a CPU's runner changed (SPEC.md section 10).  While the engine
 * explains (engine_explain), after a tick's picks and before they run,
 * the core asks the class's why op about each CPU whose task is not
 * the one it ran the tick before, telling what it saw: what became of
 * that task, whether the new one was just made runnable or came from
 * another CPU, and the old one's trace row (as it ran, before its
 * charge).  The class says the rest from its own state, in one line.
 */
enum engine_fate {
	ENGINE_FATE_IDLE,	/* the CPU ran nothing */
	ENGINE_FATE_QUEUED,	/* prev waits on this CPU's runqueue */
	ENGINE_FATE_SLEPT,	/* it sleeps: its burst ended, a sleep, a block */
	ENGINE_FATE_EXITED,	/* it exited, or was killed */
	ENGINE_FATE_MOVED	/* it was moved to CPU to_cpu */
};

struct engine_switch {
	int			 cpu;
	int			 prev, next;	/* ids; 0: idle */
	enum engine_fate	 fate;		/* of prev */
	int			 to_cpu;	/* FATE_MOVED: where */
	int			 woke;		/* next was made runnable (woken
						   or started) this tick */
	int			 fresh;		/* next never ran before */
	int			 from_cpu;	/* next ran last on another
						   CPU, else -1 */
	const struct engine_cpu_info *row;	/* what ran the tick before */
};

/* A why line of the last tick: a CPU, what it runs now (0: idle). */
struct engine_why {
	int	 cpu;
	int	 task;
	char	 text[ENGINE_WHY_MAX];
};
struct engine_whys {
	struct engine_why	*v;
	size_t			 n, size;
};

/* What the core lends a class. */
struct engine_env {
	uint64_t		 now;		/* the tick being run */
	int			 rr_interval;
	int			 sleep_min;
	int			 base_slice;	/* ms (eevdf) */
	int			 ncpus;
	struct prio_links	 links;		/* for prio arrays */
	char			*tasks;		/* ts of id: see engine_ts() */
	size_t			 stride;
	char			*rqs;		/* rq of a CPU: engine_rq() */
	size_t			 rq_stride;
	const struct engine	*e;
	struct engine_notes	*notes;		/* NULL: not narrating */
	/*
	 * Explaining (engine_explain): a class keeps what its why op
	 * will need (a wake that preempted, an expiry), and only then.
	 */
	int			 explain;
};

/* For classes: a task's name ("?" if there is no such id). */
const char *engine_task_name(const struct engine *, int id);
/*
 * For classes' why lines: what became of sw's prev, as words after its
 * name ("slept", "exited", "moved to cpu 1"), in buf if it must be.
 */
const char *engine_fate_text(const struct engine_switch *, char *buf,
	    size_t len);
/*
 * For classes' why lines, the words every class says alike.  idle: the
 * CPU runs nothing ("idle: PREV slept, nothing queued"); 1 if it wrote
 * buf.  left: the pick did not take the CPU from a queued task (the CPU
 * was idle: "NEXT woke; HEAD"; or prev left it: "PREV slept; HEAD"); 1
 * if it wrote buf, 0 when prev still waits here (the class's own case).
 */
int	engine_why_idle(const struct engine_env *,
	    const struct engine_switch *, char *buf, size_t len);
int	engine_why_left(const struct engine_env *,
	    const struct engine_switch *, const char *head, char *buf,
	    size_t len);
/* ns as ms, one decimal, toward zero ("412.3"; with plus, "+1.5"). */
const char *engine_ms(int64_t ns, int plus, char *buf, size_t len);

/* For classes: a note on task id, if the engine narrates (printf). */
void	engine_note(const struct engine_env *, int id, const char *, ...)
	    __attribute__((format(printf, 3, 4)));

/* A task's class state by id; the class state opens struct task. */
static inline void *
engine_ts(const struct engine_env *env, int id)
{
	return (env->tasks + (size_t)(id - 1) * env->stride);
}

/* The id of a task's class state (the inverse of engine_ts()). */
static inline int
engine_ts_id(const struct engine_env *env, const void *ts)
{
	return ((int)(((const char *)ts - env->tasks) / env->stride) + 1);
}

/* A CPU's runqueue (for classes that look across CPUs). */
static inline void *
engine_rq(const struct engine_env *env, int cpu)
{
	return (env->rqs + (size_t)cpu * env->rq_stride);
}

struct engine_policy {
	const char	*name;
	const char	*columns;	/* trace header after rank */
	int		 ncols;
	/* Its quantities of a task (engine_task_info's field[]), by name. */
	const char	*fields;
	int		 nfields;
	/* Its quantities of a runqueue (engine_cpu_rq), by name. */
	const char	*rq_fields;
	int		 nrq_fields;
	/*
	 * The picture a client draws it with (SPEC.md section 10):
	 * stairs, arrays, vruntime, lag or queue.
	 */
	const char	*picture;
	/* info reads the runqueue too: engine_changes cannot say. */
	int		 info_rq;
	size_t		 rq_size;
	/* NULL: rq_size zeroed bytes are an empty runqueue (prio arrays). */
	void	(*rq_init)(const struct engine_env *, void *rq);
	void	(*rq_free)(void *rq);
	/* A new task, or one starting afresh under this class. */
	void	(*task_init)(const struct engine_env *, void *ts, int nice);
	/*
	 * Queue and unqueue.  Both NULL for a class whose runqueue is one
	 * struct prio_array on which every task goes to the tail of its
	 * rank, an int at rank_offset in its state: the core then does it
	 * inline (the staircase; rr, whose FIFO is the array's list 0).
	 */
	void	(*enqueue)(const struct engine_env *, void *rq, int id,
		    void *ts, enum engine_enq);
	void	(*dequeue)(const struct engine_env *, void *rq, int id,
		    void *ts, enum engine_deq);
	size_t	 rank_offset;
	/*
	 * The task to run this tick, or 0.  NULL for a class whose
	 * runqueue is one struct prio_array whose best head runs: the core
	 * then picks inline (the staircase; as the kernel's pick_next_task
	 * calls the fair class directly when it can).
	 */
	int	(*pick)(const struct engine_env *, void *rq);
	/*
	 * The picked task runs this tick: fill row's rank, left, columns
	 * and fields as during the tick, then charge the tick.
	 */
	void	(*tick)(const struct engine_env *, void *rq, int id, void *ts,
		    struct engine_cpu_info *row);
	/* Woken after sleeping `slept` ticks, before its enqueue. */
	void	(*wake)(const struct engine_env *, void *ts, uint64_t slept);
	/* Nice changed; rq is NULL unless the task is queued there. */
	void	(*renice)(const struct engine_env *, void *rq, int id, void *ts,
		    int nice);
	/*
	 * The task to give away to CPU dst for idle pull or balance (one
	 * allowed there: engine_task_allowed), or 0.
	 */
	int	(*steal)(const struct engine_env *, void *rq, int dst);
	/*
	 * Audit a runqueue, calling engine_check_queued() for each task on
	 * it; returns how many are queued, or -1 with *cause set.
	 */
	int	(*check)(const struct engine_env *, const void *rq, int cpu,
		    char **cause);
	/* Audit one live task's state. */
	int	(*check_task)(const struct engine_env *, const void *ts,
		    int nice, char **cause);
	/* Fill rank, left, slice, top, bottom and field[] of a snapshot. */
	void	(*info)(const struct engine_env *, const void *ts,
		    struct engine_task_info *);
	/* Fill a runqueue's rq_fields now (NULL: it has none). */
	void	(*rq_info)(const struct engine_env *, const void *rq,
		    int64_t *out);
	/*
	 * The first (at most max) ids of a runqueue in the order it runs
	 * them, the running one first, into ids; how many.  NULL for a
	 * class whose order is not a queue's (only rr's picture draws it).
	 */
	int	(*order)(const struct engine_env *, const void *rq, int *ids,
		    int max);
	/*
	 * Why the runner of a CPU changed, in one line into buf (len bytes,
	 * NUL-terminated): the task, the rule, the numbers compared, from
	 * the class's own state and what the core saw (sw).  Asked only
	 * while the engine explains; see struct engine_switch.
	 */
	void	(*why)(const struct engine_env *, const void *rq,
		    const struct engine_switch *sw, char *buf, size_t len);
	/*
	 * Write a trace row's columns (comma-separated, no newline) at p.
	 * NULL: the ncols columns in decimal (engine_format_row).
	 */
	char   *(*format)(const struct engine_cpu_info *, char *p);
	/*
	 * Snapshots (engine_clone): copy runqueue src into dst, a fresh
	 * rq_size bytes already holding src's bytes, giving dst its own
	 * copy of whatever src points to; and the bytes src holds beyond
	 * rq_size (engine_memory).  Both NULL for a runqueue of plain data
	 * (the staircase, o1, rr: prio arrays of ids), which the byte copy
	 * clones.
	 */
	void	(*rq_clone)(const struct engine_env *, void *dst,
		    const void *src);
	size_t	(*rq_memory)(const void *rq);
	/*
	 * How many of the next ticks task id, which ran the last tick on
	 * this runqueue, surely keeps it, charged one a tick, if nothing
	 * is queued or leaves meanwhile (engine_quiet stops at those): 0
	 * if the class may pick another at the next tick.  A class that
	 * picks inline is asked only when id heads its runqueue.  NULL:
	 * unknown, so engine_quiet says every tick may change.
	 */
	int	(*quiet)(const struct engine_env *, const void *rq, int id,
		    const void *ts);
};

extern const struct engine_policy engine_policy_staircase;
extern const struct engine_policy engine_policy_o1;
extern const struct engine_policy engine_policy_cfs;
extern const struct engine_policy engine_policy_eevdf;
extern const struct engine_policy engine_policy_rr;

/* A policy by name, or NULL; the known names, comma-separated. */
const struct engine_policy *engine_policy_find(const char *);
const char *engine_policy_names(void);
/* Policies by a list "o1,cfs", at most max; how many, or -1, *cause. */
int	engine_policy_list(const char *, const struct engine_policy **,
	    int max, char **cause);

/* For classes: may task id run on cpu?  Is it rightly queued there? */
int	engine_task_allowed(const struct engine *, int id, int cpu);
int	engine_check_queued(const struct engine *, int id, int cpu,
	    char **cause);
/* The index of a policy's field named name, or -1. */
int	engine_policy_field(const struct engine_policy *, const char *name);
/* Write v in decimal at p; return the end (for format ops). */
char   *engine_utoa(char *p, uint64_t v);
char   *engine_itoa(char *p, int64_t v);
/* Write a trace row's columns at p, as the policy's format op says. */
char   *engine_format_row(const struct engine_policy *,
	    const struct engine_cpu_info *, char *p);

/*
 * The parameters by name, in struct engine_params' order, as scenario
 * files, the configuration and journals spell them: each one's range
 * and default, written here once.
 */
enum {
	ENGINE_PARAM_CPUS,
	ENGINE_PARAM_RR_INTERVAL,
	ENGINE_PARAM_SLEEP_MIN,
	ENGINE_PARAM_BALANCE_INTERVAL,
	ENGINE_PARAM_BASE_SLICE,
	ENGINE_NPARAMS
};
struct engine_param {
	const char	*name;
	int		 min, max, def;
	size_t		 offset;	/* in struct engine_params */
};
extern const struct engine_param engine_param_list[ENGINE_NPARAMS];
int	engine_param_get(const struct engine_params *, int param);
void	engine_param_set(struct engine_params *, int param, int v);

void	engine_params_default(struct engine_params *);
int	engine_params_check(const struct engine_params *, char **cause);
struct engine *engine_create(const struct engine_params *,
	    const struct engine_policy *);
void	engine_free(struct engine *);
/*
 * A deep copy of an engine, independent of it: the same state and the
 * same future (the same calls give both the same ticks).  For the
 * session's keyframes; engine_memory() is the bytes an engine holds.
 */
struct engine *engine_clone(const struct engine *);
size_t	engine_memory(const struct engine *);
/* Switch the policy; every task starts its policy state afresh. */
void	engine_set_policy(struct engine *, const struct engine_policy *);
/*
 * Keep the policy: the scenario's policy events fire but switch nothing
 * (a shadow, which runs the workload under a policy of its own).
 */
void	engine_hold_policy(struct engine *);

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
/* Would a blocked real task woken now preempt?  Pure; see engine-task.c. */
int	engine_wake_query(const struct engine *, int id, int *cpu,
	    int *rank);
void	engine_event_add(struct engine *, const struct engine_event *);

/* Run the next tick (engine_now()) and advance the clock by one. */
void	engine_tick(struct engine *);
/* Ticks from now that surely run what the last one did; see engine-tick.c. */
uint64_t engine_quiet(const struct engine *, uint64_t most);
/* Run n ticks engine_quiet promised, as n engine_tick would, faster. */
void	engine_advance(struct engine *, uint64_t n);

/* Reading back. */
uint64_t engine_now(const struct engine *);	/* the next tick to run */
int	engine_task_state(const struct engine *, int id, int *injected);
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
uint64_t engine_changes(const struct engine *, const int **ids,
	    size_t *n);				/* the tasks touched */
/*
 * Keep the log engine_changes reads (off, NULL, as an engine starts),
 * its epochs drawn from *epochs, a counter the tracker keeps.
 */
void	engine_track_changes(struct engine *, uint64_t *epochs);
void	engine_cpu_info(const struct engine *, int cpu,
	    struct engine_cpu_info *);
/*
 * The row cpu ran in the last tick, as it was then (task, rank, left,
 * col, field; not cpu or nr): engine_cpu_info without the copy, for
 * the per-tick readers (a trace row, the runs).  Valid until the next
 * tick.
 */
const struct engine_cpu_info *engine_cpu_last(const struct engine *,
	    int cpu);
/*
 * A CPU's runqueue now, in the policy's terms (its rq_fields: O(1)'s
 * starvation clock, CFS's min_vruntime, ...); returns how many, 0 for
 * a policy with none.  out holds ENGINE_MAX_RQ_FIELDS.
 */
int	engine_cpu_rq(const struct engine *, int cpu, int64_t *out);
/*
 * A CPU's runqueue in the order the policy runs it (rr's FIFO), the
 * first ENGINE_ORDER_MAX ids at most into ids; how many; -1 for a
 * policy whose order is not a queue's.
 */
int	engine_cpu_order(const struct engine *, int cpu, int *ids);
/*
 * Keep the notes policies give (off as an engine starts, and in a
 * clone); those of the last tick, in order.
 */
void	engine_narrate(struct engine *, int on);
const struct engine_note *engine_notes(const struct engine *, size_t *n);
/*
 * Explain each tick (on), or not (off, as an engine starts, and in a
 * clone): the why lines of the CPUs whose runner changed in the last
 * tick, in CPU order (SPEC.md section 10).  Off, a tick costs nothing
 * more.
 */
void	engine_explain(struct engine *, int on);
const struct engine_why *engine_whys(const struct engine *, size_t *n);
/* The scenario events fired in the last tick, in order. */
const struct engine_event *engine_fired(const struct engine *, size_t *n);
/*
 * The tasks made runnable in the last tick, woken or started (step 2),
 * in id order, each once: what traces show as wakes.
 */
const int *engine_woken(const struct engine *, size_t *n);

/*
 * Audit the runqueues (links, bitmap, nr, every queued task on the list
 * of its rank and on an allowed CPU, stair invariants); for tests.
 * Returns 0, or -1 with *cause saying what is broken.
 */
int	engine_check(const struct engine *, char **cause);

const char *engine_state_name(enum engine_state);

#endif
