/*
 * test_engine_clone.c -- engine snapshots (engine_clone, engine_memory):
 * under every policy, for every shipped scenario and for random mixes,
 * an engine run N ticks is cloned, then the clone, the original and a
 * reference built and run the same way go on M ticks with the same live
 * changes (sleep, nice, affinity, kill, add, block, wake, policy, new
 * events).  Every tick, every CPU's row and every task's snapshot must
 * be equal field by field.  Halfway the original is freed and the clone
 * runs on (ASan finds anything they shared), then the clone is cloned
 * and freed in turn.
 * Every few ticks too, engine_quiet's promise is checked on a clone: the
 * ticks it says run what the last one ran on every CPU do.
 */
#include <glob.h>

#include "engine_test.h"
#include "scenario.h"
#include "staircase.h"

#define CL_BEFORE	400	/* ticks before the clone */
#define CL_AFTER	1200	/* ticks after it */

static const struct engine_policy *const cl_policies[] = {
	&engine_policy_staircase,
	&engine_policy_o1,
	&engine_policy_cfs,
	&engine_policy_eevdf,
	&engine_policy_rr
};
#define CL_NPOLICIES (sizeof cl_policies / sizeof cl_policies[0])

/* xorshift64*, as test_engine_random. */
static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return (*s * 2685821657736338717ULL);
}

/* A number in lo..hi. */
static int
rnd_range(uint64_t *s, int lo, int hi)
{
	return (lo + (int)(rnd(s) % (uint64_t)(hi - lo + 1)));
}

/* Assert a and b are in the same state, field by field; tick for messages. */
static void
cl_compare(const struct engine *a, const struct engine *b)
{
	struct engine_cpu_info	 ca, cb;
	struct engine_task_info	 ta, tb;
	const struct engine_event *fa, *fb;
	const int		*wa, *wb;
	uint64_t		 now = engine_now(a);
	size_t			 na, nb, i;
	int			 c, id, k;

	assert_int_equal(engine_now(a), engine_now(b));
	assert_int_equal(engine_ntasks(a), engine_ntasks(b));
	assert_int_equal(engine_nlive(a), engine_nlive(b));
	assert_int_equal(engine_ngroups(a), engine_ngroups(b));
	assert_ptr_equal(engine_get_policy(a), engine_get_policy(b));
	for (c = 0; c < engine_params(a)->cpus; c++) {
		engine_cpu_info(a, c, &ca);
		engine_cpu_info(b, c, &cb);
		if (ca.cpu != cb.cpu || ca.nr != cb.nr || ca.task != cb.task ||
		    ca.rank != cb.rank || ca.left != cb.left)
			fail_msg("tick %llu cpu %d: nr %d/%d task %d/%d rank "
			    "%d/%d left %d/%d", (unsigned long long)now, c,
			    ca.nr, cb.nr, ca.task, cb.task, ca.rank, cb.rank,
			    ca.left, cb.left);
		for (k = 0; k < ENGINE_MAX_COLS; k++)
			assert_int_equal(ca.col[k], cb.col[k]);
		for (k = 0; k < ENGINE_MAX_FIELDS; k++)
			assert_int_equal(ca.field[k], cb.field[k]);
	}
	for (id = 1; id <= engine_ntasks(a); id++) {
		assert_int_equal(engine_task_info(a, id, &ta), 0);
		assert_int_equal(engine_task_info(b, id, &tb), 0);
		assert_int_equal(ta.id, tb.id);
		assert_string_equal(ta.name, tb.name);
		assert_true(ta.name != tb.name);
		assert_int_equal(ta.kind, tb.kind);
		if (ta.state != tb.state || ta.running != tb.running ||
		    ta.cpu != tb.cpu || ta.rank != tb.rank ||
		    ta.ran != tb.ran || ta.wake != tb.wake)
			fail_msg("tick %llu task %d: state %d/%d running "
			    "%d/%d cpu %d/%d rank %d/%d ran %llu/%llu",
			    (unsigned long long)now, id, ta.state, tb.state,
			    ta.running, tb.running, ta.cpu, tb.cpu, ta.rank,
			    tb.rank, (unsigned long long)ta.ran,
			    (unsigned long long)tb.ran);
		assert_int_equal(ta.group, tb.group);
		assert_int_equal(ta.nice, tb.nice);
		assert_int_equal(ta.prio, tb.prio);
		assert_int_equal(ta.rank, tb.rank);
		assert_int_equal(ta.left, tb.left);
		for (k = 0; k < ENGINE_MAX_FIELDS; k++) {
			if (ta.field[k] != tb.field[k])
				fail_msg("tick %llu task %d (%s) field %d: "
				    "%lld / %lld (%s)", (unsigned long long)now,
				    id, ta.name, k, (long long)ta.field[k],
				    (long long)tb.field[k],
				    engine_get_policy(a)->name);
		}
		assert_int_equal(ta.injected, tb.injected);
		assert_int_equal(ta.exit, tb.exit);
		assert_true(cpumask_equal(&ta.affinity, &tb.affinity));
		assert_true(cpumask_equal(&ta.allowed, &tb.allowed));
	}
	fa = engine_fired(a, &na);
	fb = engine_fired(b, &nb);
	assert_int_equal(na, nb);
	for (i = 0; i < na; i++) {
		assert_int_equal(fa[i].at, fb[i].at);
		assert_int_equal(fa[i].action, fb[i].action);
		assert_int_equal(fa[i].task, fb[i].task);
		assert_int_equal(fa[i].value, fb[i].value);
	}
	wa = engine_woken(a, &na);
	wb = engine_woken(b, &nb);
	assert_int_equal(na, nb);
	for (i = 0; i < na; i++)
		assert_int_equal(wa[i], wb[i]);
}

/*
 * One live change, the same on each of the n engines (chosen from s,
 * read on the first); each must answer the same.
 */
static void
cl_poke(struct engine **e, int n, uint64_t *s)
{
	struct engine_task_spec	 ts;
	struct engine_task_info	 ti;
	struct engine_event	 ev;
	struct cpumask		 m;
	uint32_t		 pat[2];
	char			 name[32], *cause;
	int			 i, id, kind, v, rc, rc0 = 0, ncpus;
	const struct engine_policy *pol;

	if (rnd_range(s, 0, 3) != 0)
		return;
	ncpus = engine_params(e[0])->cpus;
	id = rnd_range(s, 1, engine_ntasks(e[0]) + 1);
	kind = rnd_range(s, 0, 11);
	v = rnd_range(s, -20, 100);
	cpumask_zero(&m);
	m.bits[0] = rnd(s) & ((ncpus >= 64 ? ~0ULL : (1ULL << ncpus) - 1));
	if (m.bits[0] == 0)
		cpumask_set(&m, 0);
	pol = cl_policies[rnd_range(s, 0, CL_NPOLICIES - 1)];
	for (i = 0; i < n; i++) {
		cause = NULL;
		if (engine_task_info(e[i], id, &ti) != 0)
			memset(&ti, 0, sizeof ti);
		switch (kind) {
		case 0:
		case 1:
			rc = engine_task_sleep(e[i], id, v < 1 ? 1 : v,
			    &cause);
			break;
		case 2:
		case 3:
			rc = engine_task_nice(e[i], id, v > 19 ? 19 : v,
			    &cause);
			break;
		case 4:
			rc = engine_task_affinity(e[i], id, &m, &cause);
			break;
		case 5:
			rc = engine_task_kill(e[i], id, &cause);
			break;
		case 6:
		case 7:
			memset(&ts, 0, sizeof ts);
			snprintf(name, sizeof name, "add%d_%d",
			    engine_ntasks(e[i]), v);
			ts.name = name;
			ts.kind = v % 3 == 0 ? ENGINE_REAL : ENGINE_SIM;
			ts.nice = v % 40 - 20;
			ts.start = engine_now(e[i]) + (v > 50 ? v : 0);
			if (ts.kind == ENGINE_SIM && v % 2 == 0) {
				pat[0] = 1 + v % 7;
				pat[1] = 1 + v % 31;
				ts.pattern = pat;
				ts.npattern = 2;
			}
			ts.runtime = v > 80 ? (uint64_t)v * 3 : 0;
			ts.cpus = v % 5 == 0 ? &m : NULL;
			ts.group = -1;
			rc = engine_task_add(e[i], &ts, &cause);
			break;
		case 8:
			rc = ti.kind == ENGINE_REAL ?
			    engine_task_block(e[i], id, &cause) : 0;
			break;
		case 9:
			rc = ti.kind == ENGINE_REAL ?
			    engine_task_wake(e[i], id, &cause) : 0;
			break;
		case 10:
			if (v % 8 == 0)
				engine_set_policy(e[i], pol);
			rc = 0;
			break;
		default:
			memset(&ev, 0, sizeof ev);
			ev.at = engine_now(e[i]) + (uint64_t)(v < 0 ? 0 : v);
			if (v % 2 == 0) {
				ev.action = ENGINE_ACT_NICE;
				ev.task = id > engine_ntasks(e[i]) ? 1 : id;
				ev.value = v % 20;
			} else {
				ev.action = ENGINE_ACT_SLEEP;
				ev.task = id > engine_ntasks(e[i]) ? 1 : id;
				ev.value = 5;
			}
			engine_event_add(e[i], &ev);
			rc = 0;
			break;
		}
		free(cause);
		if (i == 0)
			rc0 = rc;
		else
			assert_int_equal(rc, rc0);
	}
}

/* The ticks engine_quiet promised in one cl_run (each checked). */
static uint64_t	cl_quiet_sum;

/*
 * engine_quiet's promise, on a clone: each of the ticks it gives runs on
 * every CPU what the last tick ran there.
 */
static void
cl_quiet(const struct engine *e)
{
	struct engine_cpu_info	 ci;
	struct engine		*c;
	uint64_t		 q, j;
	int			 cpu, ncpus = engine_params(e)->cpus;
	int			 last[ENGINE_MAX_CPUS];

	if ((q = engine_quiet(e, 40)) == 0)
		return;
	assert_true(q <= 40);
	cl_quiet_sum += q;
	for (cpu = 0; cpu < ncpus; cpu++) {
		engine_cpu_info(e, cpu, &ci);
		last[cpu] = ci.task;
	}
	c = engine_clone(e);
	for (j = 0; j < q; j++) {
		engine_tick(c);
		for (cpu = 0; cpu < ncpus; cpu++) {
			engine_cpu_info(c, cpu, &ci);
			if (ci.task != last[cpu])
				fail_msg("%s: engine_quiet at tick %llu said "
				    "%llu, but cpu %d ran task %d, not %d, at "
				    "tick %llu", engine_get_policy(e)->name,
				    (unsigned long long)engine_now(e),
				    (unsigned long long)q, cpu, ci.task,
				    last[cpu], (unsigned long long)
				    (engine_now(e) + j));
		}
	}
	engine_free(c);
}

/* Tick each of the n engines, then compare each with the first. */
static void
cl_tick(struct engine **e, int n, uint64_t *s)
{
	int	i;

	cl_poke(e, n, s);
	if (engine_now(e[0]) % 5 == 0)
		cl_quiet(e[0]);
	for (i = 0; i < n; i++)
		engine_tick(e[i]);
	for (i = 1; i < n; i++)
		cl_compare(e[0], e[i]);
}

/* Audit an engine. */
static void
cl_check(const struct engine *e)
{
	char	*cause = NULL;

	if (engine_check(e, &cause) != 0)
		fail_msg("engine_check at %llu: %s",
		    (unsigned long long)engine_now(e), cause);
}

/*
 * The test itself, on two engines made the same way (make(arg) twice):
 * the original and a reference, run CL_BEFORE ticks; a clone of the
 * original; the three on CL_AFTER / 2 ticks; the original freed; the
 * clone and the reference on, the clone cloned and freed halfway.
 */
static uint64_t
cl_run(struct engine *(*make)(void *), void *arg, uint64_t seed)
{
	struct engine	*e[3], *orig, *ref, *clone, *again;
	uint64_t	 s = seed;
	size_t		 mem;
	int		 i;

	cl_quiet_sum = 0;
	orig = make(arg);
	ref = make(arg);
	e[0] = ref;
	e[1] = orig;
	for (i = 0; i < CL_BEFORE; i++)
		cl_tick(e, 2, &s);

	clone = engine_clone(orig);
	cl_check(clone);
	cl_compare(orig, clone);
	mem = engine_memory(clone);
	assert_true(mem > 0);
	assert_true(mem <= engine_memory(orig));
	e[2] = clone;
	for (i = 0; i < CL_AFTER / 2; i++)
		cl_tick(e, 3, &s);
	cl_check(clone);

	engine_free(orig);
	e[1] = clone;
	for (i = 0; i < CL_AFTER / 4; i++)
		cl_tick(e, 2, &s);
	again = engine_clone(clone);
	engine_free(clone);
	e[1] = again;
	for (i = 0; i < CL_AFTER / 4; i++)
		cl_tick(e, 2, &s);
	cl_check(again);
	engine_free(again);
	engine_free(ref);
	return (cl_quiet_sum);
}

/* What a scenario engine is made from. */
struct cl_scenario {
	const struct scenario		*sc;
	const struct engine_policy	*pol;
};

/* A real task "spawned": nothing runs; the engine only knows it. */
static int
cl_spawn(void *arg, struct engine *e, int id, const struct scenario_task *t,
    char **cause)
{
	return (0);
}

/* An engine set up from a scenario, as stairsd --headless does. */
static struct engine *
cl_make_scenario(void *arg)
{
	struct cl_scenario	*cs = arg;
	struct engine_params	 p;
	struct engine		*e;
	char			*cause = NULL;

	engine_params_default(&p);
	scenario_params(cs->sc, &p);
	if (engine_params_check(&p, &cause) != 0)
		fail_msg("params: %s", cause);
	e = engine_create(&p, cs->pol);
	if (scenario_apply(cs->sc, e, cl_spawn, NULL, &cause) != 0)
		fail_msg("scenario_apply: %s", cause);
	return (e);
}

/* Every shipped scenario under every policy. */
static void
test_scenarios(void **state)
{
	struct cl_scenario	 cs;
	struct scenario		*sc;
	glob_t			 g;
	char			*cause = NULL;
	size_t			 i, p;

	assert_int_equal(glob("scenarios/*.cfg", 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 10);
	for (i = 0; i < g.gl_pathc; i++) {
		if ((sc = scenario_load_file(g.gl_pathv[i], &cause)) == NULL)
			fail_msg("%s", cause);
		for (p = 0; p < CL_NPOLICIES; p++) {
			cs.sc = sc;
			cs.pol = cl_policies[p];
			cl_run(cl_make_scenario, &cs, 0x9e3779b97f4a7c15ULL +
			    i * 7 + p);
		}
		scenario_free(sc);
	}
	globfree(&g);
}

/* A random mix: its seed and policy. */
struct cl_mix {
	uint64_t			 seed;
	const struct engine_policy	*pol;
};

/*
 * A seeded mix of 150 tasks on 8 CPUs: hogs, patterns, real tasks,
 * nice values, affinities, two groups, runtimes, late starts and
 * scenario events (captions included).
 */
static struct engine *
cl_make_mix(void *arg)
{
	struct cl_mix		*mix = arg;
	struct engine		*e;
	struct engine_task_spec	 ts;
	struct engine_event	 ev;
	struct cpumask		 m;
	uint32_t		 pat[4];
	char			 name[16], *cause = NULL;
	uint64_t		 s = mix->seed;
	int			 i, g[2];

	e = et_engine_pol(mix->pol, 8, 0, 0, 50);
	for (i = 0; i < 2; i++) {
		cpumask_zero(&m);
		m.bits[0] = i == 0 ? 0x0f : 0xfc;
		g[i] = engine_group_add(e, i == 0 ? "low" : "high", &m,
		    &cause);
		assert_true(g[i] >= 0);
	}
	for (i = 0; i < 150; i++) {
		memset(&ts, 0, sizeof ts);
		snprintf(name, sizeof name, "t%d", i);
		ts.name = name;
		ts.kind = rnd_range(&s, 0, 9) == 0 ? ENGINE_REAL : ENGINE_SIM;
		ts.nice = rnd_range(&s, -20, 19);
		ts.start = rnd_range(&s, 0, 1) ? 0 : rnd_range(&s, 0, 1500);
		if (ts.kind == ENGINE_SIM && rnd_range(&s, 0, 2) != 0) {
			pat[0] = rnd_range(&s, 1, 20);
			pat[1] = rnd_range(&s, 1, 80);
			pat[2] = rnd_range(&s, 1, 5);
			pat[3] = rnd_range(&s, 1, 300);
			ts.pattern = pat;
			ts.npattern = rnd_range(&s, 0, 1) ? 4 : 2;
		}
		if (rnd_range(&s, 0, 5) == 0)
			ts.runtime = rnd_range(&s, 50, 2000);
		ts.group = rnd_range(&s, 0, 3) < 2 ? g[i % 2] : -1;
		if (rnd_range(&s, 0, 4) == 0) {
			cpumask_zero(&m);
			m.bits[0] = rnd(&s) & (ts.group == g[0] ? 0x0f :
			    ts.group == g[1] ? 0xfc : 0xff);
			if (m.bits[0] == 0)
				m.bits[0] = 0x0c;
			ts.cpus = &m;
		}
		if (engine_task_add(e, &ts, &cause) != i + 1)
			fail_msg("task %d: %s", i, cause);
	}
	for (i = 0; i < 80; i++) {
		memset(&ev, 0, sizeof ev);
		ev.at = rnd_range(&s, 0, CL_BEFORE + CL_AFTER);
		ev.task = rnd_range(&s, 1, 150);
		switch (rnd_range(&s, 0, 4)) {
		case 0:
			ev.action = ENGINE_ACT_AFFINITY;
			ev.cpus = i % 2 ? et_mask("0") : et_mask("0-1");
			break;
		case 1:
			ev.action = ENGINE_ACT_NICE;
			ev.value = rnd_range(&s, -20, 19);
			break;
		case 2:
			ev.action = ENGINE_ACT_KILL;
			break;
		default:
			ev.action = ENGINE_ACT_SLEEP;
			ev.value = rnd_range(&s, 1, 100);
			break;
		}
		engine_event_add(e, &ev);
	}
	return (e);
}

/* Random mixes under every policy. */
static void
test_random(void **state)
{
	struct cl_mix	mix;
	uint64_t	q;
	size_t		p;
	int		i;

	for (p = 0; p < CL_NPOLICIES; p++) {
		for (i = 0; i < 2; i++) {
			mix.seed = 0x1234567ULL * (uint64_t)(i + 1) + p;
			mix.pol = cl_policies[p];
			q = cl_run(cl_make_mix, &mix, mix.seed ^ 0xabcdefULL);
			/* A class that says how long what runs keeps its
			 * CPU (every one here) promises some quiet ticks. */
			if (mix.pol->quiet != NULL)
				assert_true(q > 0);
			print_message("%s mix %d: %llu quiet ticks\n",
			    mix.pol->name, i, (unsigned long long)q);
		}
	}
}

/* A fresh engine clones too, and a clone's memory counts what it holds. */
static void
test_empty_and_memory(void **state)
{
	struct engine	*e, *c;
	size_t		 m0, m1;
	char		 name[16];
	int		 i;

	e = et_engine(2, 0, 0, 0);
	c = engine_clone(e);
	cl_compare(e, c);
	m0 = engine_memory(c);
	engine_free(e);
	engine_tick(c);
	cl_check(c);
	for (i = 0; i < 1000; i++) {
		snprintf(name, sizeof name, "t%d", i);
		et_hog(c, name, 0, 0, NULL);
	}
	m1 = engine_memory(c);
	/* At least a task's name and links per task. */
	assert_true(m1 > m0 + 1000 * (ENGINE_NAME_MAX + 1 + 2 * sizeof (int)));
	e = engine_clone(c);
	assert_true(engine_memory(e) <= m1);
	engine_free(c);
	for (i = 0; i < 100; i++)
		engine_tick(e);
	cl_check(e);
	assert_int_equal(engine_task_find(e, "t999"), 1000);
	engine_free(e);
}

/*
 * A policy switch gives exited tasks the new policy's state too: their
 * snapshot (engine_task_info) is read through the new policy, which
 * read the old one's bytes as its own (cfs took the staircase's iter
 * for a CPU and read past the runqueues).  Found by test_scenarios.
 */
static void
test_switch_exited(void **state)
{
	struct engine_task_info	 ti;
	struct engine		*e;
	char			*cause = NULL;

	e = et_engine(1, 0, 0, 0);
	et_hog(e, "a", 0, 0, NULL);
	et_hog(e, "b", 5, 0, NULL);
	RUN_TO(e, 4);
	assert_int_equal(engine_task_kill(e, 1, &cause), 0);
	RUN_TO(e, 5);
	engine_set_policy(e, &engine_policy_cfs);
	assert_int_equal(engine_task_info(e, 1, &ti), 0);
	assert_int_equal(ti.state, ENGINE_EXITED);
	assert_int_equal(ti.rank, 120);
	assert_int_equal(ti.field[0], 0);
	assert_int_equal(ti.nice, 0);
	RUN_TO(e, 20);
	cl_check(e);
	engine_free(e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_switch_exited),
		cmocka_unit_test(test_empty_and_memory),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_scenarios),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
