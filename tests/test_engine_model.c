/*
 * test_engine_model.c -- a differential test: a naive reference model of
 * SPEC.md section 1 (arrays scanned every time, no cleverness), written
 * apart from src/core/engine*.c, run in lockstep with the engine over seeded
 * random workloads with live changes between ticks.  Every trace row and
 * every task's state must agree at every tick.
 *
 * Where the spec leaves a choice the model follows docs/ENGINE.md:
 * idle pull before periodic balance, each idle CPU looks only at the
 * busiest CPU; a nice change always requeues at the tail; an injected
 * sleep on a sleeper keeps the sleep's start and wakes at the later wake;
 * a pattern resumes its cut run burst; a group change that would leave a
 * member no CPU is refused whole; a real task can be woken only from a
 * block, not from an injected sleep.  Half the changes go through
 * engine_event_add (for the tick about to run) instead of the calls.
 */
#include "engine_test.h"
#include "staircase.h"

#define M_CPUS		8
#define M_TASKS		64
#define M_MAXQ		M_TASKS

enum m_state { M_WAIT, M_RUN, M_SLEEP, M_EXIT };

struct m_task {
	int		 nice, prio, rank, iter, left;
	uint32_t	 descent;
	enum m_state	 state;
	int		 cpu, last_cpu;
	int		 real, injected, group;
	uint64_t	 affinity;		/* bit per CPU */
	uint64_t	 allowed;		/* affinity & group & CPUs */
	uint32_t	 pattern[4];
	int		 npattern, pidx;
	uint32_t	 burst_left;
	uint64_t	 runtime, ran, wake, sleep_start;
};

/* One rank list: task ids, head first. */
struct m_list {
	int	id[M_MAXQ];
	int	n;
};

struct m_cpu {
	struct m_list	q[ENGINE_NRANKS];
	int		nr;
	int		row_task, row_rank, row_iter, row_left;
	uint32_t	row_descent;
};

struct model {
	int		cpus, rr, sleep_min, balance;
	uint64_t	all, group[2];
	uint64_t	now;
	int		ntasks;
	struct m_task	t[M_TASKS + 1];		/* 1-based */
	struct m_cpu	c[M_CPUS];
};

/* allot(r, k) for task t. */
static int
m_allot(const struct model *m, const struct m_task *t, int r, int k)
{
	return (r == t->prio + k - 1 ? k * m->rr : m->rr);
}

/* Append id at the tail of its rank on cpu c. */
static void
m_enqueue(struct model *m, int id, int c)
{
	struct m_task	*t = &m->t[id];
	struct m_list	*l = &m->c[c].q[t->rank];

	assert_true(l->n < M_MAXQ);
	l->id[l->n++] = id;
	t->cpu = c;
	m->c[c].nr++;
}

/* Remove id from wherever it is queued. */
static void
m_dequeue(struct model *m, int id)
{
	struct m_task	*t = &m->t[id];
	struct m_list	*l = &m->c[t->cpu].q[t->rank];
	int		 i;

	for (i = 0; i < l->n && l->id[i] != id; i++)
		;
	assert_true(i < l->n);
	memmove(&l->id[i], &l->id[i + 1], (l->n - i - 1) * sizeof l->id[0]);
	l->n--;
	m->c[t->cpu].nr--;
}

/* The best non-empty rank of a CPU, or -1. */
static int
m_best(const struct model *m, int c)
{
	int	r;

	for (r = 0; r < ENGINE_NRANKS; r++)
		if (m->c[c].q[r].n > 0)
			return (r);
	return (-1);
}

/* Placement, the four branches of the spec in order. */
static int
m_place(const struct model *m, const struct m_task *t)
{
	int	c, best = -1, lc = t->last_cpu;

	if (lc >= 0 && (t->allowed >> lc & 1) && m->c[lc].nr == 0)
		return (lc);
	for (c = 0; c < m->cpus; c++)
		if ((t->allowed >> c & 1) && m->c[c].nr == 0)
			return (c);
	if (lc >= 0 && (t->allowed >> lc & 1))
		return (lc);
	for (c = 0; c < m->cpus; c++)
		if ((t->allowed >> c & 1) &&
		    (best < 0 || m->c[c].nr < m->c[best].nr))
			best = c;
	return (best);
}

/* The busiest CPU, lowest index on ties. */
static int
m_busiest(const struct model *m)
{
	int	c, b = 0;

	for (c = 1; c < m->cpus; c++)
		if (m->c[c].nr > m->c[b].nr)
			b = c;
	return (b);
}

/* Move one task from src to dst by the candidate rule; 1 if moved. */
static int
m_pull(struct model *m, int src, int dst)
{
	int	best = m_best(m, src), r, i, id;

	for (r = best; r >= 0 && r < ENGINE_NRANKS; r++) {
		for (i = m->c[src].q[r].n - 1; i >= 0; i--) {
			id = m->c[src].q[r].id[i];
			if (r == best && i == 0)
				continue;
			if (!(m->t[id].allowed >> dst & 1))
				continue;
			m_dequeue(m, id);
			m_enqueue(m, id, dst);
			return (1);
		}
	}
	return (0);
}

/* Runnable at now: climb if it slept long enough, then place. */
static void
m_make_runnable(struct model *m, int id)
{
	struct m_task	*t = &m->t[id];

	if (t->state == M_SLEEP &&
	    m->now - t->sleep_start >= (uint64_t)m->sleep_min) {
		if (t->rank > t->prio) {
			t->rank--;
			if (t->rank < t->prio + t->iter - 1)
				t->iter--;
		}
		t->left = m_allot(m, t, t->rank, t->iter);
	}
	t->state = M_RUN;
	t->injected = 0;
	m_enqueue(m, id, m_place(m, t));
}

/* One tick of the model. */
static void
m_tick(struct model *m)
{
	struct m_task	*t;
	int		 id, c, b, r, L, picks[M_CPUS];
	uint64_t	 now = m->now;

	for (id = 1; id <= m->ntasks; id++) {
		t = &m->t[id];
		if ((t->state == M_WAIT || t->state == M_SLEEP) &&
		    t->wake == now && t->wake != ENGINE_NEVER)
			m_make_runnable(m, id);
	}
	/* Idle pull: the CPUs idle at this point, in index order. */
	{
		int	idle[M_CPUS], n = 0, i;

		for (c = 0; c < m->cpus; c++)
			if (m->c[c].nr == 0)
				idle[n++] = c;
		for (i = 0; i < n; i++) {
			b = m_busiest(m);
			if (m->c[b].nr >= 2)
				m_pull(m, b, idle[i]);
		}
	}
	if (now > 0 && now % (uint64_t)m->balance == 0) {
		for (c = 0; c < m->cpus; c++) {
			b = m_busiest(m);
			if (m->c[b].nr >= m->c[c].nr + 2)
				m_pull(m, b, c);
		}
	}
	for (c = 0; c < m->cpus; c++) {
		r = m_best(m, c);
		picks[c] = r < 0 ? 0 : m->c[c].q[r].id[0];
	}
	for (c = 0; c < m->cpus; c++) {
		m->c[c].row_task = id = picks[c];
		if (id == 0)
			continue;
		t = &m->t[id];
		m->c[c].row_rank = t->rank;
		m->c[c].row_iter = t->iter;
		m->c[c].row_left = t->left;
		m->c[c].row_descent = t->descent;
		t->ran++;
		t->last_cpu = c;
		if (--t->left == 0) {
			m_dequeue(m, id);
			if (t->rank < ENGINE_BOTTOM) {
				t->rank++;
				t->left = m->rr;
			} else {
				L = 140 - t->prio;
				if (t->iter < L)
					t->iter++;
				t->rank = t->prio + t->iter - 1;
				t->left = t->iter * m->rr;
				t->descent++;
			}
			m_enqueue(m, id, c);
		}
		if (t->runtime != 0 && t->ran >= t->runtime) {
			m_dequeue(m, id);
			t->state = M_EXIT;
			continue;
		}
		if (t->npattern == 0 || --t->burst_left > 0)
			continue;
		m_dequeue(m, id);
		t->state = M_SLEEP;
		t->sleep_start = now + 1;
		t->wake = now + t->pattern[t->pidx + 1] + 1;
		t->pidx = (t->pidx + 2) % t->npattern;
		t->burst_left = t->pattern[t->pidx];
	}
	m->now++;
}

/* Live changes, as the engine's calls. */
static int
m_sleep(struct model *m, int id, uint64_t ms)
{
	struct m_task	*t = &m->t[id];

	if (t->state == M_EXIT || t->state == M_WAIT)
		return (-1);
	t->injected = 1;
	if (t->state == M_SLEEP) {
		if (t->wake == ENGINE_NEVER || m->now + ms > t->wake)
			t->wake = m->now + ms;
		return (0);
	}
	m_dequeue(m, id);
	t->state = M_SLEEP;
	t->sleep_start = m->now;
	t->wake = m->now + ms;
	return (0);
}

/* Nice change: shift, clamp, cap k and left; requeue at the tail. */
static int
m_nice(struct model *m, int id, int nice)
{
	struct m_task	*t = &m->t[id];
	int		 prio = 120 + nice, L = 140 - prio, r, k, a, q;

	if (t->state == M_EXIT)
		return (-1);
	q = t->state == M_RUN;
	if (q)
		m_dequeue(m, id);
	r = t->rank + prio - t->prio;
	r = r < prio ? prio : r > ENGINE_BOTTOM ? ENGINE_BOTTOM : r;
	k = t->iter;
	k = k < L ? k : L;
	k = k < r - prio + 1 ? k : r - prio + 1;
	t->nice = nice;
	t->prio = prio;
	t->rank = r;
	t->iter = k;
	a = m_allot(m, t, r, k);
	t->left = t->left < a ? t->left : a;
	if (t->left < 1)
		t->left = 1;
	if (q)
		m_enqueue(m, id, t->cpu);
	return (0);
}

/* What a task may use: affinity & its group's cpus & the CPUs. */
static uint64_t
m_allowed(const struct model *m, uint64_t affinity, int group)
{
	return (affinity & m->all & (group >= 0 ? m->group[group] : ~0ULL));
}

/* A queued task on a CPU it may no longer use is placed anew. */
static void
m_migrate(struct model *m, int id)
{
	struct m_task	*t = &m->t[id];

	if (t->state == M_RUN && !(t->allowed >> t->cpu & 1)) {
		m_dequeue(m, id);
		m_enqueue(m, id, m_place(m, t));
	}
}

/* Affinity change; refused if nothing would be allowed. */
static int
m_affinity(struct model *m, int id, uint64_t bits)
{
	struct m_task	*t = &m->t[id];

	if (t->state == M_EXIT || m_allowed(m, bits, t->group) == 0)
		return (-1);
	t->affinity = bits;
	t->allowed = m_allowed(m, bits, t->group);
	m_migrate(m, id);
	return (0);
}

/* Group change; refused whole if a live member would have no CPU. */
static int
m_group_set(struct model *m, int g, uint64_t bits)
{
	uint64_t	old = m->group[g];
	int		id;

	m->group[g] = bits;
	for (id = 1; id <= m->ntasks; id++) {
		if (m->t[id].group == g && m->t[id].state != M_EXIT &&
		    m_allowed(m, m->t[id].affinity, g) == 0) {
			m->group[g] = old;
			return (-1);
		}
	}
	for (id = 1; id <= m->ntasks; id++) {
		if (m->t[id].group != g || m->t[id].state == M_EXIT)
			continue;
		m->t[id].allowed = m_allowed(m, m->t[id].affinity, g);
		m_migrate(m, id);
	}
	return (0);
}

/* A real task seen blocked: asleep with no wake. */
static int
m_block(struct model *m, int id)
{
	struct m_task	*t = &m->t[id];

	if (t->state != M_RUN)
		return (-1);
	m_dequeue(m, id);
	t->state = M_SLEEP;
	t->sleep_start = m->now;
	t->wake = ENGINE_NEVER;
	return (0);
}

/* A blocked real task seen runnable: runnable at now. */
static int
m_wake(struct model *m, int id)
{
	struct m_task	*t = &m->t[id];

	if (t->state != M_SLEEP || t->injected)
		return (-1);
	t->wake = m->now;
	return (0);
}

/* Kill: ends at once. */
static int
m_kill(struct model *m, int id)
{
	struct m_task	*t = &m->t[id];

	if (t->state == M_EXIT)
		return (-1);
	if (t->state == M_RUN)
		m_dequeue(m, id);
	t->state = M_EXIT;
	t->injected = 0;
	return (0);
}

/* xorshift64*. */
static uint64_t
m_rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return (*s * 2685821657736338717ULL);
}

/* lo..hi. */
static int
m_range(uint64_t *s, int lo, int hi)
{
	return (lo + (int)(m_rnd(s) % (uint64_t)(hi - lo + 1)));
}

/* Compare the model with the engine after a tick; fail on any difference. */
static void
m_compare(struct model *m, struct engine *e, uint64_t seed)
{
	struct engine_cpu_info	 ci;
	struct engine_task_info	 ti;
	struct m_task		*t;
	uint64_t		 tick = m->now - 1;
	int			 c, id;
	static const enum engine_state st[] = { ENGINE_WAITING,
	    ENGINE_RUNNABLE, ENGINE_SLEEPING, ENGINE_EXITED };

	for (c = 0; c < m->cpus; c++) {
		engine_cpu_info(e, c, &ci);
		if (ci.task != m->c[c].row_task || ci.nr != m->c[c].nr ||
		    (ci.task != 0 && (ci.rank != m->c[c].row_rank ||
		    ci.field[STAIRCASE_ITER] != m->c[c].row_iter ||
		    ci.left != m->c[c].row_left ||
		    ci.field[STAIRCASE_DESCENT] != m->c[c].row_descent)))
			fail_msg("seed %llu tick %llu cpu %d: engine task %d "
			    "rank %d iter %d left %d descent %u nr %d; model "
			    "task %d rank %d iter %d left %d descent %u nr %d",
			    (unsigned long long)seed, (unsigned long long)tick,
			    c, ci.task, ci.rank, ci.field[STAIRCASE_ITER], ci.left, ci.field[STAIRCASE_DESCENT],
			    ci.nr, m->c[c].row_task, m->c[c].row_rank,
			    m->c[c].row_iter, m->c[c].row_left,
			    m->c[c].row_descent, m->c[c].nr);
	}
	for (id = 1; id <= m->ntasks; id++) {
		t = &m->t[id];
		assert_int_equal(engine_task_info(e, id, &ti), 0);
		if (ti.state != st[t->state] || ti.ran != t->ran ||
		    (t->state == M_RUN && ti.cpu != t->cpu) ||
		    (t->state == M_SLEEP && ti.wake != t->wake) ||
		    ti.rank != t->rank || ti.field[STAIRCASE_ITER] != t->iter ||
		    ti.left != t->left || ti.nice != t->nice)
			fail_msg("seed %llu after tick %llu task %d: engine "
			    "%s cpu %d ran %llu wake %llu r %d k %d left %d "
			    "nice %d; model %s cpu %d ran %llu wake %llu r %d "
			    "k %d left %d nice %d", (unsigned long long)seed,
			    (unsigned long long)tick, id,
			    engine_state_name(ti.state), ti.cpu,
			    (unsigned long long)ti.ran,
			    (unsigned long long)ti.wake, ti.rank,
			    ti.field[STAIRCASE_ITER], ti.left, ti.nice,
			    engine_state_name(st[t->state]), t->cpu,
			    (unsigned long long)t->ran,
			    (unsigned long long)t->wake, t->rank, t->iter,
			    t->left, t->nice);
	}
}

/*
 * One random change, made in the model at once and in the engine either
 * by a call (results must agree) or as an event for the coming tick
 * (a failing event is skipped, so only the model's result is kept).
 */
static void
m_change(struct model *m, struct engine *e, uint64_t *s, uint64_t seed,
    const int *groups)
{
	struct engine_event	 ev;
	struct cpumask		 mask;
	char			*cause = NULL;
	uint64_t		 bits;
	int			 id, act, v, rc = 0, mrc, event;

	id = m_range(s, 1, m->ntasks);
	act = m_range(s, 0, 11);
	event = m_range(s, 0, 1);
	memset(&ev, 0, sizeof ev);
	ev.at = m->now;
	ev.task = id;
	bits = m_rnd(s) & 0xff;
	cpumask_zero(&mask);
	mask.bits[0] = bits;
	if (act < 4) {
		v = m_range(s, 1, 5 * m->rr);
		mrc = m_sleep(m, id, v);
		ev.action = ENGINE_ACT_SLEEP;
		ev.value = v;
		if (!event)
			rc = engine_task_sleep(e, id, v, &cause);
	} else if (act < 7) {
		v = m_range(s, -20, 19);
		mrc = m_nice(m, id, v);
		ev.action = ENGINE_ACT_NICE;
		ev.value = v;
		if (!event)
			rc = engine_task_nice(e, id, v, &cause);
	} else if (act < 9) {
		mrc = m_affinity(m, id, bits);
		ev.action = ENGINE_ACT_AFFINITY;
		ev.cpus = mask;
		if (!event)
			rc = engine_task_affinity(e, id, &mask, &cause);
	} else if (act == 9) {
		if (m_range(s, 0, 7) != 0)	/* keep most tasks alive */
			return;
		mrc = m_kill(m, id);
		ev.action = ENGINE_ACT_KILL;
		if (!event)
			rc = engine_task_kill(e, id, &cause);
	} else if (act == 10) {
		if (!m->t[id].real)
			return;
		event = 0;
		if (m->t[id].state == M_RUN) {
			mrc = m_block(m, id);
			rc = engine_task_block(e, id, &cause);
		} else {
			mrc = m_wake(m, id);
			rc = engine_task_wake(e, id, &cause);
		}
	} else {
		event = 0;
		if (m_range(s, 0, 3) != 0)
			return;
		v = m_range(s, 0, 1);
		if (bits == 0)
			bits = 1;
		mask.bits[0] = bits;
		mrc = m_group_set(m, v, bits);
		rc = engine_group_set_cpus(e, groups[v], &mask, &cause);
	}
	free(cause);
	if (event) {
		engine_event_add(e, &ev);
		return;
	}
	if (rc != mrc)
		fail_msg("seed %llu at %llu: action %d on task %d: engine %d, "
		    "model %d", (unsigned long long)seed,
		    (unsigned long long)m->now, act, id, rc, mrc);
}

/* Build the same random workload in the model and the engine; run both. */
static void
m_run(uint64_t seed, int cpus, int ntasks, int rr, int sleep_min,
    int balance, int nticks)
{
	struct model		*m = calloc(1, sizeof *m);
	struct engine		*e = et_engine(cpus, rr, sleep_min, balance);
	struct engine_task_spec	 ts;
	struct cpumask		 mask;
	struct m_task		*t;
	char			 name[16], *cause = NULL;
	uint64_t		 s = seed, bits;
	int			 id, i, groups[2];

	m->cpus = cpus;
	m->rr = rr;
	m->sleep_min = sleep_min;
	m->balance = balance;
	m->ntasks = ntasks;
	m->all = cpus == 64 ? ~0ULL : (1ULL << cpus) - 1;
	for (i = 0; i < 2; i++) {
		m->group[i] = m_rnd(&s) & m->all;
		if (m->group[i] == 0)
			m->group[i] = m->all;
		cpumask_zero(&mask);
		mask.bits[0] = m->group[i];
		snprintf(name, sizeof name, "g%d", i);
		groups[i] = engine_group_add(e, name, &mask, &cause);
		assert_true(groups[i] >= 0);
	}
	for (id = 1; id <= ntasks; id++) {
		t = &m->t[id];
		memset(&ts, 0, sizeof ts);
		snprintf(name, sizeof name, "m%d", id);
		ts.name = name;
		t->nice = ts.nice = m_range(&s, -20, 19);
		t->prio = t->rank = 120 + t->nice;
		t->iter = 1;
		t->left = rr;
		t->descent = 1;
		t->cpu = t->last_cpu = -1;
		t->wake = ts.start = m_range(&s, 0, 2) == 0 ?
		    (uint64_t)m_range(&s, 0, 300) : 0;
		t->real = m_range(&s, 0, 6) == 0;
		ts.kind = t->real ? ENGINE_REAL : ENGINE_SIM;
		if (!t->real && m_range(&s, 0, 2) != 0) {
			t->npattern = m_range(&s, 0, 1) ? 4 : 2;
			for (i = 0; i < t->npattern; i += 2) {
				t->pattern[i] = m_range(&s, 1, 3 * rr);
				t->pattern[i + 1] = m_range(&s, 1, 6 * rr);
			}
			t->burst_left = t->pattern[0];
			ts.pattern = t->pattern;
			ts.npattern = t->npattern;
		}
		if (m_range(&s, 0, 4) == 0)
			t->runtime = ts.runtime = m_range(&s, 10, 400);
		i = m_range(&s, 0, 3);
		t->group = ts.group = i < 2 ? groups[i] : -1;
		t->affinity = ~0ULL;
		if (m_range(&s, 0, 3) == 0) {
			bits = m_rnd(&s) & 0xff;
			if (m_allowed(m, bits, t->group) != 0) {
				t->affinity = bits;
				cpumask_zero(&mask);
				mask.bits[0] = bits;
				ts.cpus = &mask;
			}
		}
		t->allowed = m_allowed(m, t->affinity, t->group);
		if (engine_task_add(e, &ts, &cause) != id)
			fail_msg("add %d: %s", id, cause);
	}
	while (m->now < (uint64_t)nticks) {
		if (m_range(&s, 0, 3) == 0)
			m_change(m, e, &s, seed, groups);
		m_tick(m);
		engine_tick(e);
		m_compare(m, e, seed);
	}
	engine_free(e);
	free(m);
}

/* One CPU: the staircase itself, wakes, sleeps, renices, kills. */
static void
test_model_1cpu(void **state)
{
	uint64_t	seed;

	for (seed = 1; seed <= 20; seed++)
		m_run(seed, 1, 12, 10, 1, 100, 3000);
}

/* Several CPUs: placement, idle pull, balance (every 50), affinity. */
static void
test_model_smp(void **state)
{
	uint64_t	seed;

	for (seed = 100; seed < 120; seed++)
		m_run(seed, 4, 24, 10, 1, 50, 3000);
	for (seed = 200; seed < 210; seed++)
		m_run(seed, 3, 40, 5, 3, 20, 3000);
	for (seed = 300; seed < 305; seed++)
		m_run(seed, 8, 64, 10, 1, 100, 3000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_1cpu),
		cmocka_unit_test(test_model_smp),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
