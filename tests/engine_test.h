/*
 * engine_test.h -- helpers shared by the engine's cmocka tests: build an
 * engine, add tasks, run to a tick, and check trace rows and task state
 * with the caller's file and line in the message.
 *
 * Header-only (static inline) so each tests/test_engine_*.c stays its own
 * program with no Makefile change.
 */
#ifndef STAIRS_ENGINE_TEST_H
#define STAIRS_ENGINE_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cpumask.h"
#include "engine.h"
#include "staircase.h"

/* An engine of a policy, with the defaults changed where > 0. */
static inline struct engine *
et_engine_pol(const struct engine_policy *pol, int cpus, int rr,
    int sleep_min, int balance)
{
	struct engine_params	 p;
	struct engine		*e;
	char			*cause = NULL;

	engine_params_default(&p);
	if (cpus > 0)
		p.cpus = cpus;
	if (rr > 0)
		p.rr_interval = rr;
	if (sleep_min > 0)
		p.sleep_min = sleep_min;
	if (balance > 0)
		p.balance_interval = balance;
	if (engine_params_check(&p, &cause) != 0)
		fail_msg("engine_params_check: %s", cause);
	e = engine_create(&p, pol);
	assert_non_null(e);
	return (e);
}

/* A staircase engine with the defaults changed where an argument is > 0. */
static inline struct engine *
et_engine(int cpus, int rr, int sleep_min, int balance)
{
	return (et_engine_pol(&engine_policy_staircase, cpus, rr, sleep_min,
	    balance));
}

/* A CPU set from a list like "0-2,5". */
static inline struct cpumask
et_mask(const char *list)
{
	struct cpumask	 m;
	char		*cause = NULL;

	if (cpumask_parse(list, ENGINE_MAX_CPUS, &m, &cause) != 0)
		fail_msg("cpumask_parse %s: %s", list, cause);
	return (m);
}

/* Add a task with every field given; fails the test if refused. */
static inline int
et_add(struct engine *e, const char *name, enum engine_kind kind, int nice,
    uint64_t start, const uint32_t *pattern, size_t npattern,
    uint64_t runtime, const char *cpus, int group)
{
	struct engine_task_spec	 s;
	struct cpumask		 m;
	char			*cause = NULL;
	int			 id;

	memset(&s, 0, sizeof s);
	s.name = name;
	s.kind = kind;
	s.nice = nice;
	s.start = start;
	s.pattern = pattern;
	s.npattern = npattern;
	s.runtime = runtime;
	if (cpus != NULL) {
		m = et_mask(cpus);
		s.cpus = &m;
	}
	s.group = group;
	id = engine_task_add(e, &s, &cause);
	if (id <= 0)
		fail_msg("engine_task_add %s: %d: %s", name, id,
		    cause != NULL ? cause : "(no cause)");
	return (id);
}

/* A scripted CPU hog. */
static inline int
et_hog(struct engine *e, const char *name, int nice, uint64_t start,
    const char *cpus)
{
	return (et_add(e, name, ENGINE_SIM, nice, start, NULL, 0, 0, cpus, -1));
}

/* A scripted task with the pattern [run, sleep]. */
static inline int
et_pat(struct engine *e, const char *name, int nice, uint64_t start,
    uint32_t run, uint32_t sleep, const char *cpus)
{
	uint32_t	p[2];

	p[0] = run;
	p[1] = sleep;
	return (et_add(e, name, ENGINE_SIM, nice, start, p, 2, 0, cpus, -1));
}

/* Run every tick up to and including tick t; rows then describe tick t. */
static inline void
et_run_to(struct engine *e, uint64_t t, const char *file, int line)
{
	if (engine_now(e) > t) {
		print_error("%s:%d: already past tick %llu (now %llu)\n", file,
		    line, (unsigned long long)t,
		    (unsigned long long)engine_now(e));
		_fail(file, line);
	}
	while (engine_now(e) <= t)
		engine_tick(e);
}
#define RUN_TO(e, t)	et_run_to((e), (t), __FILE__, __LINE__)

/* The trace row of a CPU for the tick just run. */
static inline struct engine_cpu_info
et_row(struct engine *e, int cpu)
{
	struct engine_cpu_info	ci;

	memset(&ci, 0, sizeof ci);
	engine_cpu_info(e, cpu, &ci);
	return (ci);
}

/* A task's snapshot; fails if there is no such id. */
static inline struct engine_task_info
et_info(struct engine *e, int id)
{
	struct engine_task_info	ti;

	memset(&ti, 0, sizeof ti);
	if (engine_task_info(e, id, &ti) != 0)
		fail_msg("engine_task_info %d: no such task", id);
	return (ti);
}

/*
 * Check the row of the last tick on a CPU: the task id (0 idle) and, for a
 * busy CPU, rank, iter and left as during the tick.  -1 skips a field.
 */
static inline void
et_check_row(struct engine *e, int cpu, int task, int rank, int iter,
    int left, const char *file, int line)
{
	struct engine_cpu_info	ci = et_row(e, cpu);

	if (ci.task == task && (task == 0 || ((rank == -1 ||
	    ci.rank == rank) &&
	    (iter == -1 || ci.field[STAIRCASE_ITER] == iter) &&
	    (left == -1 || ci.left == left))))
		return;
	print_error("%s:%d: tick %llu cpu %d: want task %d rank %d iter %d "
	    "left %d; got task %d rank %d iter %lld left %d (descent %lld nr "
	    "%d)\n", file, line, (unsigned long long)engine_now(e) - 1, cpu,
	    task, rank, iter, left, ci.task, ci.rank,
	    (long long)ci.field[STAIRCASE_ITER], ci.left,
	    (long long)ci.field[STAIRCASE_DESCENT], ci.nr);
	_fail(file, line);
}
#define ROW(e, cpu, task, r, k, left) \
	et_check_row((e), (cpu), (task), (r), (k), (left), __FILE__, __LINE__)
#define IDLE(e, cpu)	ROW((e), (cpu), 0, -1, -1, -1)

/* Check a task's staircase state now: rank, iter, left (-1 skips). */
static inline void
et_check_stair(struct engine *e, int id, int rank, int iter, int left,
    const char *file, int line)
{
	struct engine_task_info	ti = et_info(e, id);

	if ((rank == -1 || ti.rank == rank) &&
	    (iter == -1 || ti.field[STAIRCASE_ITER] == iter) &&
	    (left == -1 || ti.left == left))
		return;
	print_error("%s:%d: now %llu task %d: want rank %d iter %d left %d; "
	    "got rank %d iter %lld left %d (nice %d prio %d descent %lld)\n",
	    file, line, (unsigned long long)engine_now(e), id, rank, iter,
	    left, ti.rank, (long long)ti.field[STAIRCASE_ITER], ti.left,
	    ti.nice, ti.prio, (long long)ti.field[STAIRCASE_DESCENT]);
	_fail(file, line);
}
#define STAIR(e, id, r, k, left) \
	et_check_stair((e), (id), (r), (k), (left), __FILE__, __LINE__)

/* allot(r, k) of SPEC.md section 1 for a task of static priority prio. */
static inline int
et_allot(int prio, int r, int k, int rr)
{
	return (r == prio + k - 1 ? k * rr : rr);
}

#endif
