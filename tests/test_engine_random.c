/*
 * test_engine_random.c -- the engine under a seeded random mix of 200
 * tasks on 8 CPUs (hogs, patterns, nice values, affinities, groups, real
 * tasks, scenario events and live changes between ticks): the same seed
 * gives the same trace (determinism), and the invariants of SPEC.md
 * section 1 hold after every tick -- under every policy (SPEC.md 6), the
 * staircase's own stair invariants under the staircase.
 */
#include "engine_test.h"
#include "staircase.h"
#include "xmalloc.h"

#define MIX_CPUS	8
#define MIX_TASKS	200
#define MIX_TICKS	5000

/* xorshift64*: a small, fixed generator so runs repeat on any libc. */
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

/* The change logs' epochs of the engines a test tracks. */
static uint64_t	test_epochs;

/* The policy the mixes run under. */
static const struct engine_policy *mix_policy = &engine_policy_staircase;

/* Group masks: "low" 0-3, "high" 2-7. */
static const uint64_t group_bits[2] = { 0x0f, 0xfc };

/* A random non-empty mask within the group's cpus (or all 8). */
static struct cpumask
rnd_mask(uint64_t *s, int group)
{
	struct cpumask	m;
	uint64_t	within = group >= 0 ? group_bits[group] : 0xff, b;

	b = rnd(s) & within;
	if (b == 0)
		b = within;
	cpumask_zero(&m);
	m.bits[0] = b;
	return (m);
}

/*
 * Build the mix: groups, ntasks tasks (hogs one in hogs10 tenths, the
 * rest patterns) and some scenario events.
 */
static struct engine *
mix_create(uint64_t seed, int ntasks, int hogs10, int *groups)
{
	struct engine		*e;
	struct engine_params	 p;
	struct engine_task_spec	 ts;
	struct engine_event	 ev;
	struct cpumask		 m;
	uint32_t		 pat[4];
	char			 name[16], *cause = NULL;
	uint64_t		 s = seed;
	int			 i, j, n;

	engine_params_default(&p);
	p.cpus = MIX_CPUS;
	e = engine_create(&p, mix_policy);
	for (i = 0; i < 2; i++) {
		cpumask_zero(&m);
		m.bits[0] = group_bits[i];
		groups[i] = engine_group_add(e, i == 0 ? "low" : "high", &m,
		    &cause);
		assert_true(groups[i] >= 0);
	}
	for (i = 0; i < ntasks; i++) {
		memset(&ts, 0, sizeof ts);
		snprintf(name, sizeof name, "t%d", i);
		ts.name = name;
		ts.kind = rnd_range(&s, 0, 19) == 0 ? ENGINE_REAL : ENGINE_SIM;
		ts.nice = rnd_range(&s, -20, 19);
		ts.start = rnd_range(&s, 0, 1) ? 0 : rnd_range(&s, 0, 2000);
		if (ts.kind == ENGINE_SIM && rnd_range(&s, 0, 9) >= hogs10) {
			n = rnd_range(&s, 0, 1) ? 4 : 2;
			for (j = 0; j < n; j += 2) {
				pat[j] = rnd_range(&s, 1, 20);
				pat[j + 1] = rnd_range(&s, 1, 80);
			}
			ts.pattern = pat;
			ts.npattern = n;
		}
		if (rnd_range(&s, 0, 4) == 0)
			ts.runtime = rnd_range(&s, 50, 3000);
		j = rnd_range(&s, 0, 3);
		ts.group = j < 2 ? groups[j] : -1;
		if (rnd_range(&s, 0, 9) < 3) {
			m = rnd_mask(&s, j < 2 ? j : -1);
			ts.cpus = &m;
		}
		if (engine_task_add(e, &ts, &cause) != i + 1)
			fail_msg("task %d: %s", i, cause);
	}
	for (i = 0; i < 100; i++) {
		memset(&ev, 0, sizeof ev);
		ev.at = rnd_range(&s, 0, MIX_TICKS - 1);
		ev.task = rnd_range(&s, 1, ntasks);
		switch (rnd_range(&s, 0, 9)) {
		case 0:
			ev.action = ENGINE_ACT_KILL;
			break;
		case 1:
			ev.action = ENGINE_ACT_NICE;
			ev.value = rnd_range(&s, -5, 5);
			break;
		case 2:
		case 3:
		case 4:
			ev.action = ENGINE_ACT_NICE;
			ev.value = rnd_range(&s, -20, 19);
			break;
		case 5:
		case 6:
			ev.action = ENGINE_ACT_AFFINITY;
			ev.cpus = rnd_mask(&s, et_info(e, ev.task).group >= 0 ?
			    (et_info(e, ev.task).group == groups[0] ? 0 : 1) :
			    -1);
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

/* Before a tick: maybe one live change, as a client would make. */
static void
mix_poke(struct engine *e, uint64_t *s, const int *groups)
{
	struct engine_task_info	 ti;
	struct cpumask		 m;
	char			*cause = NULL;
	int			 id, gi;

	if (rnd_range(s, 0, 9) != 0)
		return;
	id = rnd_range(s, 1, engine_ntasks(e));
	ti = et_info(e, id);
	gi = ti.group < 0 ? -1 : (ti.group == groups[0] ? 0 : 1);
	switch (rnd_range(s, 0, 7)) {
	case 0:
		engine_task_sleep(e, id, rnd_range(s, 1, 60), &cause);
		break;
	case 1:
		engine_task_nice(e, id, rnd_range(s, -20, 19), &cause);
		break;
	case 2:
		m = rnd_mask(s, gi);
		engine_task_affinity(e, id, &m, &cause);
		break;
	case 3:
		if (ti.kind == ENGINE_REAL)
			engine_task_block(e, id, &cause);
		break;
	case 4:
		if (ti.kind == ENGINE_REAL)
			engine_task_wake(e, id, &cause);
		break;
	case 5:
		/* May be refused when it would empty a member's set. */
		gi = rnd_range(s, 0, 1);
		cpumask_zero(&m);
		m.bits[0] = rnd(s) & 0xff;
		if (m.bits[0] == 0)
			m.bits[0] = group_bits[gi];
		engine_group_set_cpus(e, groups[gi], &m, &cause);
		break;
	default:
		break;
	}
	free(cause);
}

/* FNV-1a over a value. */
static void
hash_add(uint64_t *h, uint64_t v)
{
	int	i;

	for (i = 0; i < 8; i++) {
		*h ^= (v >> (i * 8)) & 0xff;
		*h *= 1099511628211ULL;
	}
}

/* Run the mix for seed; returns a hash of every row and the end state. */
static uint64_t
mix_run(uint64_t seed)
{
	struct engine		*e;
	struct engine_cpu_info	 ci;
	struct engine_task_info	 ti;
	uint64_t		 h = 14695981039346656037ULL, s = seed ^ 0x5eed;
	int			 groups[2], c, id;

	e = mix_create(seed, MIX_TASKS, 4, groups);
	while (engine_now(e) < MIX_TICKS) {
		mix_poke(e, &s, groups);
		engine_tick(e);
		for (c = 0; c < MIX_CPUS; c++) {
			engine_cpu_info(e, c, &ci);
			hash_add(&h, engine_now(e));
			hash_add(&h, (uint64_t)ci.cpu << 32 | (uint32_t)ci.nr);
			hash_add(&h, (uint64_t)ci.task << 32 | ci.field[STAIRCASE_DESCENT]);
			hash_add(&h, (uint64_t)ci.rank << 40 |
			    (uint64_t)ci.field[STAIRCASE_ITER] << 20 | (uint32_t)ci.left);
		}
	}
	for (id = 1; id <= engine_ntasks(e); id++) {
		ti = et_info(e, id);
		hash_add(&h, ti.state | (uint64_t)ti.cpu << 8);
		hash_add(&h, ti.ran);
		hash_add(&h, (uint64_t)ti.rank << 32 | ti.left);
	}
	engine_free(e);
	return (h);
}

/* The same seeded mix, run twice, gives the same trace, row for row. */
static void
test_determinism(void **state)
{
	uint64_t	a, b, c;

	a = mix_run(42);
	b = mix_run(42);
	assert_true(a == b);
	c = mix_run(43);
	assert_true(a != c);	/* the hash does see the trace */
}

/* Check one task's staircase state against SPEC.md section 1. */
static void
check_stair(uint64_t t, int id, const struct engine_task_info *ti)
{
	int	L = 140 - ti->prio;
	int	k = (int)ti->field[STAIRCASE_ITER];

	if (ti->prio != 120 + ti->nice || ti->rank < ti->prio ||
	    ti->rank > ENGINE_BOTTOM || k < 1 || k > L ||
	    ti->prio + k - 1 > ti->rank || ti->left < 1 ||
	    ti->left > et_allot(ti->prio, ti->rank, k, 10) ||
	    ti->field[STAIRCASE_DESCENT] < 1)
		fail_msg("tick %llu task %d: nice %d prio %d rank %d iter %d "
		    "left %d descent %lld breaks the stairs",
		    (unsigned long long)t, id, ti->nice, ti->prio, ti->rank,
		    k, ti->left, (long long)ti->field[STAIRCASE_DESCENT]);
}

/*
 * After each tick of a long random run: every invariant holds, and the
 * engine's own audit (engine_check) finds nothing broken.
 */
static void
run_invariants(uint64_t seed, int ntasks, int hogs10)
{
	struct engine		*e;
	struct engine_cpu_info	 ci[MIX_CPUS];
	struct engine_task_info	 ti;
	uint64_t		 s = seed ^ 0x5eed, t;
	int			 groups[2], c, id, nrun, sumnr, nlive, k;
	char			*cause = NULL;

	e = mix_create(seed, ntasks, hogs10, groups);
	while (engine_now(e) < MIX_TICKS) {
		mix_poke(e, &s, groups);
		engine_tick(e);
		t = engine_now(e) - 1;
		if (engine_check(e, &cause) != 0)
			fail_msg("tick %llu: engine_check: %s",
			    (unsigned long long)t, cause);
		sumnr = 0;
		for (c = 0; c < MIX_CPUS; c++) {
			engine_cpu_info(e, c, &ci[c]);
			if (ci[c].cpu != c)
				fail_msg("tick %llu: row of cpu %d says %d",
				    (unsigned long long)t, c, ci[c].cpu);
			if (ci[c].task == 0 && ci[c].nr != 0)
				fail_msg("tick %llu cpu %d idle with nr %d",
				    (unsigned long long)t, c, ci[c].nr);
			sumnr += ci[c].nr;
			if (ci[c].task == 0)
				continue;
			ti = et_info(e, ci[c].task);
			if (ci[c].rank < 100 || ci[c].rank > ENGINE_BOTTOM ||
			    ci[c].left < 0)
				fail_msg("tick %llu cpu %d: rank %d left %d "
				    "off the protocol's scale",
				    (unsigned long long)t, c, ci[c].rank,
				    ci[c].left);
			k = (int)ci[c].field[STAIRCASE_ITER];
			if (mix_policy == &engine_policy_staircase &&
			    (ci[c].rank < ti.prio ||
			    ci[c].rank > ENGINE_BOTTOM || k < 1 ||
			    ti.prio + k - 1 > ci[c].rank ||
			    ci[c].left < 1 || ci[c].left > et_allot(
			    ti.prio, ci[c].rank, k, 10)))
				fail_msg("tick %llu cpu %d: row task %d rank %d "
				    "iter %d left %d (prio %d)",
				    (unsigned long long)t, c, ci[c].task,
				    ci[c].rank, k, ci[c].left, ti.prio);
			if (!cpumask_test(&ti.allowed, c))
				fail_msg("tick %llu: task %d ran on cpu %d, "
				    "not allowed", (unsigned long long)t,
				    ci[c].task, c);
			/* "running": ran in the last tick, still runnable. */
			if (ti.state != ENGINE_EXITED &&
			    (ti.cpu != c || ti.running !=
			    (ti.state == ENGINE_RUNNABLE)))
				fail_msg("tick %llu: task %d ran on cpu %d but "
				    "says cpu %d running %d",
				    (unsigned long long)t, ci[c].task, c, ti.cpu,
				    ti.running);
		}
		nrun = nlive = 0;
		for (id = 1; id <= engine_ntasks(e); id++) {
			ti = et_info(e, id);
			if (ti.state == ENGINE_EXITED)
				continue;
			nlive++;
			if (mix_policy == &engine_policy_staircase)
				check_stair(t, id, &ti);
			/* What the protocol sends (the client refuses less). */
			if (ti.rank < 100 || ti.rank > ENGINE_BOTTOM ||
			    ti.left < 0 || ti.prio != NICE_TO_PRIO(ti.nice))
				fail_msg("tick %llu task %d: rank %d left %d "
				    "prio %d", (unsigned long long)t, id,
				    ti.rank, ti.left, ti.prio);
			if (ti.running && (ti.cpu < 0 || ti.cpu >= MIX_CPUS ||
			    ci[ti.cpu].task != id))
				fail_msg("tick %llu: task %d says running on "
				    "cpu %d", (unsigned long long)t, id, ti.cpu);
			if (ti.state != ENGINE_RUNNABLE)
				continue;
			nrun++;
			if (ti.cpu < 0 || ti.cpu >= MIX_CPUS ||
			    !cpumask_test(&ti.allowed, ti.cpu))
				fail_msg("tick %llu: runnable task %d on cpu %d,"
				    " not allowed", (unsigned long long)t, id,
				    ti.cpu);
		}
		if (nrun != sumnr)
			fail_msg("tick %llu: %d runnable tasks, sum of nr %d",
			    (unsigned long long)t, nrun, sumnr);
		assert_int_equal(nlive, engine_nlive(e));
	}
	engine_free(e);
}

/* Invariants: two busy mixes (200 tasks), one light (24, few hogs). */
static void
test_invariants(void **state)
{
	run_invariants(42, MIX_TASKS, 4);
	run_invariants(7, MIX_TASKS, 4);
	run_invariants(11, 24, 1);
}

/*
 * Every other policy: the same mixes keep engine_check and the core's
 * invariants after every tick, and the same seed gives the same run.
 */
static void
test_policies(void **state)
{
	const struct engine_policy	*pols[] = { &engine_policy_o1,
	    &engine_policy_cfs, &engine_policy_eevdf, &engine_policy_rr };
	size_t				 i;

	for (i = 0; i < sizeof pols / sizeof *pols; i++) {
		mix_policy = pols[i];
		run_invariants(42, MIX_TASKS, 4);
		run_invariants(11, 24, 1);
		assert_true(mix_run(42) == mix_run(42));
	}
	mix_policy = &engine_policy_staircase;
}

/*
 * Switching policies live (engine_set_policy) every 250 ticks through
 * all five: the audit holds after every tick, every live task keeps its
 * nice, CPU time and state across a switch, and starts afresh.
 */
static void
test_policy_switch(void **state)
{
	const struct engine_policy	*pols[] = { &engine_policy_o1,
	    &engine_policy_cfs, &engine_policy_eevdf, &engine_policy_rr,
	    &engine_policy_staircase };
	struct engine			*e;
	struct engine_task_info		 before, after;
	uint64_t			 s = 99;
	char				*cause = NULL;
	int				 groups[2], k = 0, id;

	mix_policy = &engine_policy_staircase;
	e = mix_create(99, MIX_TASKS, 4, groups);
	while (engine_now(e) < MIX_TICKS) {
		if (engine_now(e) % 250 == 0) {
			id = rnd_range(&s, 1, engine_ntasks(e));
			before = et_info(e, id);
			engine_set_policy(e, pols[k++ %
			    (sizeof pols / sizeof *pols)]);
			after = et_info(e, id);
			assert_int_equal(before.state, after.state);
			assert_int_equal(before.ran, after.ran);
			assert_int_equal(before.nice, after.nice);
			if (engine_check(e, &cause) != 0)
				fail_msg("after switch to %s: %s",
				    engine_get_policy(e)->name, cause);
		}
		mix_poke(e, &s, groups);
		engine_tick(e);
		if (engine_check(e, &cause) != 0)
			fail_msg("tick %llu under %s: %s",
			    (unsigned long long)engine_now(e) - 1,
			    engine_get_policy(e)->name, cause);
	}
	engine_free(e);
}

/*
 * Growth: 20 000 tasks added one at a time, live, while the engine runs,
 * so the task array is reallocated many times and lands at addresses of
 * every alignment malloc gives.  Under UBSan a misaligned task (its
 * struct asks for a 64-byte cache line) stops the run: that is how the
 * realloc of an aligned type was found.
 */
static void
test_growth(void **state)
{
	struct engine	*e = et_engine(4, 10, 0, 0);
	char		 name[32], *cause = NULL;
	int		 i;

	for (i = 0; i < 20000; i++) {
		snprintf(name, sizeof name, "g%d", i);
		assert_int_equal(et_hog(e, name, i % 40 - 20, 0, NULL), i + 1);
		if (i % 1000 == 0)
			engine_tick(e);
		/* Right after each growth (64, 128, ... tasks). */
		if ((i & (i - 1)) == 0 && engine_check(e, &cause) != 0)
			fail_msg("after %d tasks: %s", i + 1, cause);
	}
	for (i = 0; i < 50; i++)
		engine_tick(e);
	if (engine_check(e, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(engine_nlive(e), 20000);
	engine_free(e);
}

/* What a task line shows of a snapshot, zeroed first (memcmp'd). */
struct shown {
	int		 state, exit, cpu, running, group, injected;
	int		 nice, rank, iter, left;
	uint64_t	 ran, wake;
	struct cpumask	 allowed;
};

/* Fill what a snapshot shows. */
static void
shown_of(struct shown *sh, const struct engine_task_info *ti,
    const struct engine_policy *pol)
{
	memset(sh, 0, sizeof *sh);
	sh->state = ti->state;
	sh->exit = ti->exit;
	sh->cpu = ti->cpu;
	sh->running = ti->running;
	sh->group = ti->group;
	sh->injected = ti->injected;
	sh->nice = ti->nice;
	sh->rank = ti->rank;
	/* (The staircase's; another's fields are not what a line shows.) */
	sh->iter = pol == &engine_policy_staircase ?
	    ti->field[STAIRCASE_ITER] : 1;
	sh->left = ti->left;
	sh->ran = ti->ran;
	sh->wake = ti->wake;
	sh->allowed = ti->allowed;
}

/*
 * engine_changes: under the mix (live changes between ticks included),
 * every task whose snapshot changed since the last look is in the log
 * after it or ran the last tick, while the epoch stays; a log that
 * starts again, or a policy whose snapshots read the runqueue (cfs,
 * eevdf: 0), says so.
 */
static void
test_changes(void **state)
{
	const struct engine_policy	*pols[] = { &engine_policy_staircase,
	    &engine_policy_o1, &engine_policy_rr, &engine_policy_cfs,
	    &engine_policy_eevdf };
	struct engine			*e;
	struct engine_task_info		 ti;
	struct engine_cpu_info		 ci;
	struct shown			*prev, now;
	const int			*ids;
	size_t				 n, cursor, p, checked;
	uint64_t			 epoch, last, s;
	char				*touched;
	int				 groups[2], id, nt, c;

	for (p = 0; p < sizeof pols / sizeof *pols; p++) {
		mix_policy = pols[p];
		e = mix_create(7, MIX_TASKS, 4, groups);
		engine_track_changes(e, &test_epochs);
		s = 7 ^ 0x5eed;
		nt = engine_ntasks(e);
		prev = xcalloc(nt + 1, sizeof *prev);
		touched = xcalloc(nt + 1, 1);
		last = engine_changes(e, &ids, &cursor);
		for (id = 1; id <= nt; id++) {
			ti = et_info(e, id);
			shown_of(&prev[id], &ti, pols[p]);
		}
		checked = 0;
		while (engine_now(e) < 3000) {
			mix_poke(e, &s, groups);
			engine_tick(e);
			epoch = engine_changes(e, &ids, &n);
			if (pols[p]->info_rq)
				assert_true(epoch == 0);
			memset(touched, 0, nt + 1);
			if (epoch == last && epoch != 0) {
				for (; cursor < n; cursor++)
					touched[ids[cursor]] = 1;
			}
			/* What the CPUs ran: not logged while it runs. */
			for (c = 0; c < MIX_CPUS; c++) {
				engine_cpu_info(e, c, &ci);
				if (ci.task > 0)
					touched[ci.task] = 1;
			}
			for (id = 1; id <= nt; id++) {
				ti = et_info(e, id);
				shown_of(&now, &ti, pols[p]);
				if (epoch == last && epoch != 0 &&
				    memcmp(&now, &prev[id], sizeof now) != 0) {
					if (!touched[id])
						fail_msg("%s: tick %llu: task "
						    "%d changed, not in the "
						    "log", pols[p]->name,
						    (unsigned long long)
						    engine_now(e), id);
					checked++;
				}
				prev[id] = now;
			}
			last = epoch;
			cursor = n;
		}
		if (!pols[p]->info_rq)
			assert_true(checked > 1000);
		free(prev);
		free(touched);
		engine_free(e);
	}
	mix_policy = &engine_policy_staircase;
}

/*
 * The log is kept only when asked (engine_track_changes): off, as a new
 * engine starts, nothing is logged and engine_changes answers 0 (any
 * task may have changed); on, a new epoch and the log fills; a clone
 * keeps the choice at a new epoch; off and on again, yet another epoch.
 * Either way the trace is the same, tick for tick.
 */
static void
test_changes_tracked(void **state)
{
	struct engine		*e, *t, *c;
	struct engine_cpu_info	 ci, cj;
	const int		*ids;
	size_t			 n;
	uint64_t		 s = 11, st = 11, on, on2, ce;
	int			 groups[2], gt[2], cpu;

	e = mix_create(11, MIX_TASKS, 4, groups);
	t = mix_create(11, MIX_TASKS, 4, gt);
	assert_int_equal(engine_changes(e, &ids, &n), 0);
	assert_int_equal(n, 0);
	engine_track_changes(t, &test_epochs);
	on = engine_changes(t, &ids, &n);
	assert_true(on != 0);
	while (engine_now(e) < 2000) {
		mix_poke(e, &s, groups);
		mix_poke(t, &st, gt);
		engine_tick(e);
		engine_tick(t);
		for (cpu = 0; cpu < MIX_CPUS; cpu++) {
			engine_cpu_info(e, cpu, &ci);
			engine_cpu_info(t, cpu, &cj);
			assert_int_equal(ci.nr, cj.nr);
			assert_int_equal(ci.task, cj.task);
			assert_int_equal(ci.rank, cj.rank);
			assert_int_equal(ci.left, cj.left);
			assert_memory_equal(ci.field, cj.field, sizeof ci.field);
			assert_memory_equal(ci.col, cj.col, sizeof ci.col);
		}
		assert_int_equal(engine_changes(e, &ids, &n), 0);
		assert_int_equal(n, 0);
	}
	assert_int_equal(engine_changes(t, &ids, &n), on);
	assert_true(n > 1000);

	c = engine_clone(t);
	ce = engine_changes(c, &ids, &n);
	assert_true(ce != 0 && ce != on);
	engine_tick(c);
	engine_tick(c);
	assert_int_equal(engine_changes(c, &ids, &n), ce);
	assert_true(n > 0);
	engine_free(c);

	engine_track_changes(t, NULL);
	engine_tick(t);
	assert_int_equal(engine_changes(t, &ids, &n), 0);
	assert_int_equal(n, 0);
	engine_track_changes(t, &test_epochs);
	on2 = engine_changes(t, &ids, &n);
	assert_true(on2 != 0 && on2 != on && on2 != ce);
	assert_int_equal(n, 0);
	engine_free(e);
	engine_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_invariants),
		cmocka_unit_test(test_policies),
		cmocka_unit_test(test_policy_switch),
		cmocka_unit_test(test_growth),
		cmocka_unit_test(test_changes),
		cmocka_unit_test(test_changes_tracked),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
