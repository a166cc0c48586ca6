/*
 * o1.c -- the Linux 2.6.7 "O(1)" scheduler at HZ = 1000, the policy the
 * staircase replaced, as /work/shared/O1-SCHEDULER.md reads it from the
 * patches that removed it (S1: staircase v7.4 against 2.6.7).  Section
 * numbers below (O1 §n) are that note's; docs/POLICIES.md lists every
 * reading and the one place where this file follows the code over it.
 *
 * Each CPU keeps two priority arrays, active and expired (prio_array.h).
 * The head of the best list of the active array runs; when the active
 * array is empty the two swap.  A task's dynamic prio is its static prio
 * minus (bonus - 5), the bonus coming from sleep_avg: sleeping raises it
 * (times 10 - bonus), running lowers it one for one, charged only when
 * schedule() runs.  A task whose slice (10..200 ms by nice) runs out goes
 * to the expired array unless it is interactive, in which case it goes
 * back into the active one -- unless the expired tasks are starving.
 *
 * Engine mapping (O1 §8's order of events within a millisecond): the
 * engine's charge at the end of tick t is scheduler_tick at jiffy t+1; a
 * run burst ending there is the running task's own action; the wakes of
 * tick t+1 are the timer wake-ups; the pick is schedule(), run only when
 * the CPU's current task left or need_resched is set.  Every wake is a
 * timer or I/O completion (activated = 2): no engine task wakes another.
 */
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "xmalloc.h"

#define O1_NS			1000000LL	/* ns per ms (jiffy) */
#define O1_MIN_TIMESLICE	10		/* ms */
#define O1_MAX_TIMESLICE	200		/* ms */
#define O1_MAX_BONUS		10		/* 40 * PRIO_BONUS_RATIO 25 / 100 */
#define O1_AVG_TIMESLICE	102		/* task_timeslice at nice 0 */
#define O1_MAX_SLEEP_AVG	1020		/* AVG_TIMESLICE * MAX_BONUS, ms */
#define O1_NS_MAX_SLEEP_AVG	(O1_MAX_SLEEP_AVG * O1_NS)
#define O1_STARVATION_LIMIT	O1_MAX_SLEEP_AVG
#define O1_CREDIT_LIMIT		100
#define O1_ON_RUNQUEUE_WEIGHT	30		/* % */
#define O1_INTERACTIVE_DELTA	2
#define O1_MAX_PRIO		140

/* A task's state (24 bytes). */
struct o1_task {
	int64_t		sleep_avg;	/* ns, 0..NS_MAX_SLEEP_AVG */
	uint64_t	timestamp;	/* tick it was queued (for the wait) */
	int16_t		time_slice;	/* ms left */
	int16_t		credit;		/* interactive_credit */
	uint8_t		prio;		/* dynamic prio, 100..139 */
	int8_t		nice;
	int8_t		activated;	/* 0, or 2: woken by a timer */
	uint8_t		arr;		/* array index; while moving: 0 active,
					   1 expired */
};

/*
 * What became of the running task at its last scheduler_tick, for a
 * why line: its timeslice ran out and it went to the expired array
 * (not interactive; or interactive, but the expired array starves, or
 * holds a better static prio), or back into the active one
 * (interactive), or it was requeued at its granularity.
 */
enum o1_expiry {
	O1_WHY_NONE,
	O1_WHY_NOT_INTERACTIVE,
	O1_WHY_STARVING,
	O1_WHY_BEST_EXPIRED,
	O1_WHY_INTERACTIVE,
	O1_WHY_GRANULARITY
};

/*
 * What o1_why needs that the state no longer shows, kept only while
 * explaining; each stamped with the tick it concerns + 1 (0: none).
 */
struct o1_why {
	uint64_t	expiry_at;	/* the tick after the expiry */
	int		expiry_task;
	int		expiry;		/* enum o1_expiry */
	int		waited, limit;	/* O1_WHY_STARVING: ms, and limit */
	int		gran;		/* O1_WHY_GRANULARITY: ms */
	uint64_t	woke_at;	/* a wake that set need_resched */
	int		woke_task;
	int		woke_over;	/* the prio it beat */
	uint64_t	swap_at;	/* a pick that swapped the arrays */
};

/* A CPU's runqueue. */
struct o1_rq {
	struct prio_array	arrays[2];
	int			active;		/* index of the active array */
	int			nr;		/* runnable, current included */
	int			curr;		/* running task, 0: idle */
	int			need_resched;
	uint32_t		run;		/* ticks curr ran since schedule() */
	uint64_t		expired_timestamp;	/* jiffy, 0: none */
	int			best_expired_prio;
	struct o1_why		why;		/* explaining only */
};

_Static_assert(sizeof (struct o1_task) <= ENGINE_PRIV_SIZE,
    "o1's task state must fit the engine's");

/* --- The rules (O1 §1-§2). ------------------------------------------- */

/* BASE_TIMESLICE: 10 + 190 * (139 - static) / 39 ms, integer division. */
static int
o1_timeslice(int nice)
{
	return (O1_MIN_TIMESLICE + (O1_MAX_TIMESLICE - O1_MIN_TIMESLICE) *
	    (O1_MAX_PRIO - 1 - NICE_TO_PRIO(nice)) / 39);
}

/* CURRENT_BONUS: floor(floor(sleep_avg / 1 ms) * 10 / 1020). */
static int
o1_bonus(const struct o1_task *t)
{
	return ((int)(t->sleep_avg / O1_NS) * O1_MAX_BONUS / O1_MAX_SLEEP_AVG);
}

/* effective_prio: static - (bonus - 5), within 100..139. */
static int
o1_effective_prio(const struct o1_task *t)
{
	int	prio = NICE_TO_PRIO(t->nice) - (o1_bonus(t) - O1_MAX_BONUS / 2);

	if (prio < 100)
		prio = 100;
	if (prio > O1_MAX_PRIO - 1)
		prio = O1_MAX_PRIO - 1;
	return (prio);
}

/* DELTA: nice * 10 / 40 truncated toward zero (C division), + 2. */
static int
o1_delta(const struct o1_task *t)
{
	return (t->nice * O1_MAX_BONUS / 40 + O1_INTERACTIVE_DELTA);
}

/* TASK_INTERACTIVE, on the stored prio. */
static int
o1_interactive(const struct o1_task *t)
{
	return (t->prio <= NICE_TO_PRIO(t->nice) - o1_delta(t));
}

/* INTERACTIVE_SLEEP in ns: 1020 * (5 + DELTA + 1) / 10 - 1 ms. */
static int64_t
o1_interactive_sleep(const struct o1_task *t)
{
	return ((int64_t)(O1_MAX_SLEEP_AVG * (O1_MAX_BONUS / 2 +
	    o1_delta(t) + 1) / O1_MAX_BONUS - 1) * O1_NS);
}

#define O1_HIGH_CREDIT(t)	((t)->credit > O1_CREDIT_LIMIT)
#define O1_LOW_CREDIT(t)	((t)->credit < -O1_CREDIT_LIMIT)

/* TIMESLICE_GRANULARITY: 10 ms << (max(10 - bonus, 1) - 1), x CPUs. */
static unsigned int
o1_granularity(const struct engine_env *env, const struct o1_task *t)
{
	int	k = O1_MAX_BONUS - o1_bonus(t);

	if (k == 0)
		k = 1;
	return ((unsigned int)(O1_MIN_TIMESLICE << (k - 1)) *
	    (unsigned int)env->ncpus);
}

/*
 * recalc_task_prio (O1 §3.1): credit for a sleep of sleep_ns.  Every
 * engine task is a user task and no sleep is uninterruptible here, so
 * the activated == -1 ceiling never applies.
 */
static void
o1_recalc(struct o1_task *t, int64_t sleep_ns)
{
	int64_t	slice;
	int	k;

	if (sleep_ns > O1_NS_MAX_SLEEP_AVG)
		sleep_ns = O1_NS_MAX_SLEEP_AVG;
	if (sleep_ns > 0) {
		if (sleep_ns > o1_interactive_sleep(t)) {
			/* A long sleep: just interactive, bonus 9. */
			t->sleep_avg = (int64_t)(O1_MAX_SLEEP_AVG -
			    O1_AVG_TIMESLICE) * O1_NS;
			if (!O1_HIGH_CREDIT(t))
				t->credit++;
		} else {
			k = O1_MAX_BONUS - o1_bonus(t);
			sleep_ns *= k != 0 ? k : 1;
			slice = (int64_t)o1_timeslice(t->nice) * O1_NS;
			if (O1_LOW_CREDIT(t) && sleep_ns > slice)
				sleep_ns = slice;
			t->sleep_avg += sleep_ns;
			if (t->sleep_avg > O1_NS_MAX_SLEEP_AVG) {
				t->sleep_avg = O1_NS_MAX_SLEEP_AVG;
				if (!O1_HIGH_CREDIT(t))
					t->credit++;
			}
		}
	}
	t->prio = (uint8_t)o1_effective_prio(t);
}

/*
 * schedule()'s charge of the task leaving the CPU (O1 §3.3): the ticks
 * it ran since the last schedule(), capped at 1020 ms, divided by the
 * bonus when HIGH_CREDIT.  The prio is not recomputed.
 */
static void
o1_charge(struct o1_rq *q, struct o1_task *t)
{
	int64_t	run = (int64_t)q->run * O1_NS;
	int	b;

	if (run > O1_NS_MAX_SLEEP_AVG)
		run = O1_NS_MAX_SLEEP_AVG;
	if (O1_HIGH_CREDIT(t)) {
		b = o1_bonus(t);
		run /= b != 0 ? b : 1;
	}
	t->sleep_avg -= run;
	if (t->sleep_avg <= 0) {
		t->sleep_avg = 0;
		if (!(O1_HIGH_CREDIT(t) || O1_LOW_CREDIT(t)))
			t->credit--;
	}
	q->run = 0;
}

/* --- Queueing. ------------------------------------------------------ */

/* Append a task at the tail of its prio's list in array a. */
static void
o1_add(const struct engine_env *env, struct o1_rq *q, int id,
    struct o1_task *t, int a)
{
	t->arr = (uint8_t)a;
	prio_array_add_tail(&q->arrays[a], &env->links, id, t->prio);
}

/* Take a task off its array. */
static void
o1_del(const struct engine_env *env, struct o1_rq *q, int id,
    struct o1_task *t)
{
	prio_array_del(&q->arrays[t->arr], &env->links, id, t->prio);
}

/* A woken, new or pulled task preempts only a strictly worse prio. */
static void
o1_preempt_check(const struct engine_env *env, struct o1_rq *q,
    const struct o1_task *t)
{
	const struct o1_task	*c;

	if (q->curr == 0)
		return;
	c = engine_ts(env, q->curr);
	if (t->prio < c->prio) {
		q->need_resched = 1;
		if (env->explain) {
			q->why.woke_at = env->now + 1;
			q->why.woke_task = engine_ts_id(env, t);
			q->why.woke_over = c->prio;
		}
	}
}

/* --- The class operations. ------------------------------------------ */

/*
 * An empty runqueue: zeroed by the core (two empty arrays, the first
 * active, nothing run), but no expired task's prio yet.
 */
static void
o1_rq_init(const struct engine_env *env, void *rq)
{
	struct o1_rq	*q = rq;

	(void)env;
	q->best_expired_prio = O1_MAX_PRIO;
}

/*
 * A new task: sleep_avg 0, credit 0, a full slice, prio effective_prio
 * (125 at nice 0), as O1 §7 assumes; there is no parent to share with.
 */
static void
o1_task_init(const struct engine_env *env, void *ts, int nice)
{
	struct o1_task	*t = ts;

	(void)env;
	t->nice = (int8_t)nice;
	t->sleep_avg = 0;
	t->credit = 0;
	t->activated = 0;
	t->timestamp = 0;
	t->time_slice = (int16_t)o1_timeslice(nice);
	t->prio = (uint8_t)o1_effective_prio(t);
	t->arr = 0;
}

/*
 * Queue a task.  A new or woken one goes to the tail of the active
 * array; a pulled one into the same kind of array it left (O1 §6,
 * 2.6.7's move_tasks); then the preemption test (O1 §5.2).
 */
static void
o1_enqueue(const struct engine_env *env, void *rq, int id, void *ts,
    enum engine_enq why)
{
	struct o1_rq	*q = rq;
	struct o1_task	*t = ts;
	int		 a = q->active;

	if (why == ENGINE_ENQ_MIGRATE && t->arr == 1)
		a = 1 - q->active;
	t->timestamp = env->now;
	o1_add(env, q, id, t, a);
	q->nr++;
	o1_preempt_check(env, q, t);
}

/*
 * Off the runqueue.  The current task leaving is schedule() with prev
 * not runnable: it is charged its run time.  A task moving away keeps
 * which kind of array it was on.
 */
static void
o1_dequeue(const struct engine_env *env, void *rq, int id, void *ts,
    enum engine_deq why)
{
	struct o1_rq	*q = rq;
	struct o1_task	*t = ts;
	int		 expired = t->arr != q->active;

	o1_del(env, q, id, t);
	q->nr--;
	if (q->curr == id) {
		o1_charge(q, t);
		q->curr = 0;
		q->need_resched = 0;
	}
	if (why == ENGINE_DEQ_MIGRATE)
		t->arr = (uint8_t)expired;
}

/*
 * schedule() (O1 §5.1) when the current task left or must yield: swap
 * the arrays if the active one is empty, take the head of its best
 * list, give a woken task its on-runqueue credit (requeued at the tail
 * of its list, and it still runs), charge the task that ran.
 */
static int
o1_pick(const struct engine_env *env, void *rq)
{
	struct o1_rq		*q = rq;
	struct prio_array	*a;
	struct o1_task		*t, *prev;
	int64_t			 wait;
	int			 next;

	if (q->curr != 0 && !q->need_resched)
		return (q->curr);
	prev = q->curr != 0 ? engine_ts(env, q->curr) : NULL;
	if (q->nr == 0) {
		q->curr = 0;
		q->expired_timestamp = 0;
		return (0);
	}
	if (q->arrays[q->active].nr == 0) {
		q->active = 1 - q->active;
		q->expired_timestamp = 0;
		q->best_expired_prio = O1_MAX_PRIO;
		if (env->explain)
			q->why.swap_at = env->now + 1;
	}
	a = &q->arrays[q->active];
	next = prio_array_first(a);
	t = engine_ts(env, next);
	if (t->activated > 0) {
		wait = (int64_t)(env->now - t->timestamp) * O1_NS;
		if (t->activated == 1)
			wait = wait * (O1_ON_RUNQUEUE_WEIGHT * 128 / 100) / 128;
		o1_del(env, q, next, t);
		o1_recalc(t, wait);
		o1_add(env, q, next, t, q->active);
	}
	t->activated = 0;
	if (prev != NULL)
		o1_charge(q, prev);
	q->run = 0;
	q->curr = next;
	q->need_resched = 0;
	return (next);
}

/*
 * Explaining: what scheduler_tick does with task id, whose timeslice
 * ran out at jiffy jiffies, and why (the same tests as o1_tick's).
 */
static void
o1_why_expiry(const struct engine_env *env, struct o1_rq *q, int id,
    const struct o1_task *t, uint64_t jiffies)
{
	uint64_t	waited = q->expired_timestamp != 0 ?
			    jiffies - q->expired_timestamp : 0;
	uint64_t	limit = (uint64_t)O1_STARVATION_LIMIT * (uint64_t)q->nr
			    + 1;

	q->why.expiry_at = env->now + 1;
	q->why.expiry_task = id;
	q->why.waited = (int)waited;
	q->why.limit = (int)limit;
	if (!o1_interactive(t))
		q->why.expiry = O1_WHY_NOT_INTERACTIVE;
	else if (q->expired_timestamp != 0 && waited >= limit)
		q->why.expiry = O1_WHY_STARVING;
	else if (NICE_TO_PRIO(t->nice) > q->best_expired_prio)
		q->why.expiry = O1_WHY_BEST_EXPIRED;
	else
		q->why.expiry = O1_WHY_INTERACTIVE;
}

/*
 * scheduler_tick (O1 §4) for the task that ran this tick: the row keeps
 * its state during the tick; then one jiffy off its slice.  On expiry it
 * goes to the expired array unless interactive and nobody starves; else,
 * an interactive task that used a multiple of its granularity goes to
 * the tail of its list in the active array.
 */
static void
o1_tick(const struct engine_env *env, void *rq, int id, void *ts,
    struct engine_cpu_info *row)
{
	struct o1_rq	*q = rq;
	struct o1_task	*t = ts;
	uint64_t	 jiffies = env->now + 1;
	unsigned int	 gran;
	int		 expired = t->arr != q->active, starving;

	row->rank = t->prio;
	row->left = t->time_slice;
	row->col[0] = row->field[0] = expired;
	row->col[1] = t->time_slice;
	row->col[2] = o1_bonus(t);
	row->field[1] = o1_bonus(t) - O1_MAX_BONUS / 2;
	row->col[3] = row->field[2] = t->sleep_avg / O1_NS;

	q->run++;
	if (expired) {
		q->need_resched = 1;
		return;
	}
	if (--t->time_slice == 0) {
		o1_del(env, q, id, t);
		q->need_resched = 1;
		t->prio = (uint8_t)o1_effective_prio(t);
		t->time_slice = (int16_t)o1_timeslice(t->nice);
		if (q->expired_timestamp == 0)
			q->expired_timestamp = jiffies;
		starving = (q->expired_timestamp != 0 &&
		    jiffies - q->expired_timestamp >=
		    (uint64_t)O1_STARVATION_LIMIT * (uint64_t)q->nr + 1) ||
		    NICE_TO_PRIO(t->nice) > q->best_expired_prio;
		if (env->explain)
			o1_why_expiry(env, q, id, t, jiffies);
		if (!o1_interactive(t) || starving) {
			o1_add(env, q, id, t, 1 - q->active);
			if (NICE_TO_PRIO(t->nice) < q->best_expired_prio)
				q->best_expired_prio = NICE_TO_PRIO(t->nice);
		} else
			o1_add(env, q, id, t, q->active);
		return;
	}
	gran = o1_granularity(env, t);
	if (o1_interactive(t) &&
	    ((unsigned int)o1_timeslice(t->nice) -
	    (unsigned int)t->time_slice) % gran == 0 &&
	    (unsigned int)t->time_slice >= gran) {
		o1_del(env, q, id, t);
		q->need_resched = 1;
		t->prio = (uint8_t)o1_effective_prio(t);
		o1_add(env, q, id, t, q->active);
		if (env->explain) {
			q->why.expiry_at = env->now + 1;
			q->why.expiry_task = id;
			q->why.expiry = O1_WHY_GRANULARITY;
			q->why.gran = (int)gran;
		}
	}
}

/*
 * How long the current task keeps its CPU (engine_quiet): schedule()
 * takes it again until scheduler_tick asks for a reschedule, at the end
 * of its slice or, interactive, at a granularity's requeue (o1_tick);
 * its prio, bonus and so granularity do not change meanwhile (they
 * change when it is charged, at the next schedule()).  A wake or an
 * arrival's preemption test is the core's to stop at.
 */
static int
o1_quiet(const struct engine_env *env, const void *rq, int id,
    const void *ts)
{
	const struct o1_rq	*q = rq;
	const struct o1_task	*t = ts;
	unsigned int		 gran, full, left;
	int			 j;

	if (q->curr != id || q->need_resched)
		return (0);
	if (t->arr != q->active)
		return (1);	/* expired: its next tick reschedules */
	if (!o1_interactive(t))
		return (t->time_slice);
	gran = o1_granularity(env, t);
	full = (unsigned int)o1_timeslice(t->nice);
	for (j = 1; j < t->time_slice; j++) {
		left = (unsigned int)(t->time_slice - j);
		if ((full - left) % gran == 0 && left >= gran)
			return (j);
	}
	return (t->time_slice);
}

/* Woken after `slept` ticks: recalc_task_prio, by a timer (O1 §3.1). */
static void
o1_wake(const struct engine_env *env, void *ts, uint64_t slept)
{
	struct o1_task	*t = ts;

	(void)env;
	if (slept > (uint64_t)O1_MAX_SLEEP_AVG)
		slept = O1_MAX_SLEEP_AVG;
	o1_recalc(t, (int64_t)slept * O1_NS);
	if (t->activated == 0)
		t->activated = 2;
}

/*
 * set_user_nice as 2.6.7's code has it: delta = new static - old
 * dynamic prio, prio += delta (so prio becomes the new static prio
 * until the next recalculation), requeued at the tail of the same
 * array; resched if delta < 0, or delta > 0 and it is running.
 */
static void
o1_renice(const struct engine_env *env, void *rq, int id, void *ts, int nice)
{
	struct o1_rq	*q = rq;
	struct o1_task	*t = ts;
	int		 delta;

	if (nice == t->nice)
		return;
	if (q != NULL)
		o1_del(env, q, id, t);
	delta = NICE_TO_PRIO(nice) - t->prio;
	t->nice = (int8_t)nice;
	t->prio = (uint8_t)(t->prio + delta);
	if (q != NULL) {
		o1_add(env, q, id, t, t->arr);
		if (delta < 0 || (delta > 0 && q->curr == id))
			q->need_resched = 1;
	}
}

/*
 * The task to give away (O1 §6, 2.6.7's move_tasks): the expired array
 * first, then the active; the best prio first; each list from its tail;
 * not the running task; allowed on dst.  (No cache-hot test.)
 */
static int
o1_steal(const struct engine_env *env, void *rq, int dst)
{
	struct o1_rq		*q = rq;
	const struct prio_array	*a;
	int			 i, r, id;

	for (i = 0; i < 2; i++) {
		a = &q->arrays[i == 0 ? 1 - q->active : q->active];
		for (r = prio_array_best(a); r >= 0;
		    r = prio_array_next(a, r)) {
			for (id = a->tail[r]; id != 0;
			    id = env->links.prev[id]) {
				if (id != q->curr &&
				    engine_task_allowed(env->e, id, dst))
					return (id);
			}
		}
	}
	return (0);
}

/* What o1_check() passes to its visitor. */
struct o1_visit {
	const struct engine_env	*env;
	int			 cpu;
	int			 arr;
};

/* A queued task: rightly there, on the list of its prio and array. */
static int
o1_visit(void *arg, int id, int r, char **cause)
{
	struct o1_visit		*v = arg;
	const struct o1_task	*t = engine_ts(v->env, id);

	if (engine_check_queued(v->env->e, id, v->cpu, cause) != 0)
		return (-1);
	if (t->prio != r || t->arr != v->arr) {
		*cause = xasprintf("task %d (prio %d, array %d) on list %d "
		    "of array %d", id, t->prio, t->arr, r, v->arr);
		return (-1);
	}
	return (0);
}

/* Audit both arrays and the counts; returns the number queued. */
static int
o1_check(const struct engine_env *env, const void *rq, int cpu, char **cause)
{
	const struct o1_rq	*q = rq;
	struct o1_visit		 v = { env, cpu, 0 };

	for (v.arr = 0; v.arr < 2; v.arr++)
		if (prio_array_check(&q->arrays[v.arr], &env->links,
		    engine_ntasks(env->e), o1_visit, &v, cause) != 0)
			return (-1);
	if (q->nr != q->arrays[0].nr + q->arrays[1].nr) {
		*cause = xasprintf("nr %d but %d + %d queued", q->nr,
		    q->arrays[0].nr, q->arrays[1].nr);
		return (-1);
	}
	if (q->curr != 0 &&
	    engine_check_queued(env->e, q->curr, cpu, cause) != 0)
		return (-1);
	if (q->best_expired_prio < 100 || q->best_expired_prio > O1_MAX_PRIO) {
		*cause = xasprintf("best_expired_prio %d", q->best_expired_prio);
		return (-1);
	}
	return (q->nr);
}

/* A task's numbers within their ranges. */
static int
o1_check_task(const struct engine_env *env, const void *ts, int nice,
    char **cause)
{
	const struct o1_task	*t = ts;

	(void)env;
	if (t->nice != nice || t->prio < 100 || t->prio > O1_MAX_PRIO - 1 ||
	    t->time_slice < 1 || t->time_slice > O1_MAX_TIMESLICE ||
	    t->sleep_avg < 0 || t->sleep_avg > O1_NS_MAX_SLEEP_AVG ||
	    t->credit < -O1_CREDIT_LIMIT - 1 ||
	    t->credit > O1_CREDIT_LIMIT + 1 || t->arr > 1) {
		*cause = xasprintf("bad o1 state nice=%d prio=%d slice=%d "
		    "sleep_avg=%lld credit=%d", t->nice, t->prio,
		    t->time_slice, (long long)t->sleep_avg, t->credit);
		return (-1);
	}
	return (0);
}

/*
 * A task's snapshot: rank = prio; fields array (1: expired; only
 * meaningful while queued), bonus (effective_prio's, -5..5: prio is
 * the static prio less it), sleep_avg in ms.
 */
static void
o1_info(const struct engine_env *env, const void *ts,
    struct engine_task_info *ti)
{
	const struct o1_task	*t = ts;
	const struct o1_rq	*q;

	ti->rank = t->prio;
	ti->left = t->time_slice;
	ti->field[0] = 0;
	if (ti->state == ENGINE_RUNNABLE && ti->cpu >= 0) {
		q = engine_rq(env, ti->cpu);
		ti->field[0] = t->arr != q->active;
	}
	/* effective_prio's bonus: prio is static prio less it. */
	ti->field[1] = o1_bonus(t) - O1_MAX_BONUS / 2;
	ti->field[2] = t->sleep_avg / O1_NS;
	/* The bonus moves prio 5 either way of the static prio (O1 §2). */
	ti->slice = o1_timeslice(t->nice);
	ti->top = NICE_TO_PRIO(t->nice) - 5 < 100 ? 100 : NICE_TO_PRIO(t->nice) - 5;
	ti->bottom = NICE_TO_PRIO(t->nice) + 5 > 139 ? 139 : NICE_TO_PRIO(t->nice) + 5;
}

/* A task's prio and bonus, for a why line: "prio 118, bonus +2". */
static void
o1_why_prio(const struct o1_task *t, char *buf, size_t len)
{
	snprintf(buf, len, "prio %d, bonus %+d", t->prio, o1_bonus(t) -
	    O1_MAX_BONUS / 2);
}

/* What scheduler_tick did with the task that ran, into buf. */
static void
o1_why_prev(const struct engine_env *env, const struct o1_rq *q,
    const char *pn, const struct o1_task *p, char *buf, size_t len)
{
	char	pr[40];

	o1_why_prio(p, pr, sizeof pr);
	switch (q->why.expiry) {
	case O1_WHY_NOT_INTERACTIVE:
		snprintf(buf, len, "%s moved to the expired array: its "
		    "timeslice ran out, not interactive (%s)", pn, pr);
		break;
	case O1_WHY_STARVING:
		snprintf(buf, len, "%s moved to the expired array: its "
		    "timeslice ran out; interactive, but the expired array "
		    "has waited %d ms (limit %d)", pn, q->why.waited,
		    q->why.limit);
		break;
	case O1_WHY_BEST_EXPIRED:
		snprintf(buf, len, "%s moved to the expired array: its "
		    "timeslice ran out; interactive, but static prio %d "
		    "waits there", pn, q->best_expired_prio);
		break;
	case O1_WHY_INTERACTIVE:
		snprintf(buf, len, "%s's timeslice ran out; interactive (%s): "
		    "back into the active array, at the tail of its prio", pn,
		    pr);
		break;
	case O1_WHY_GRANULARITY:
		snprintf(buf, len, "%s requeued after %d ms, its granularity "
		    "(interactive, %s)", pn, q->why.gran, pr);
		break;
	default:
		snprintf(buf, len, "%s waits (%s)", pn, pr);
		break;
	}
}

/*
 * Why the pick changed (SPEC.md section 10): the head of the best prio
 * of the active array runs; the arrays swap when the active one is
 * empty; the one that ran expired (to the expired array unless
 * interactive and nobody starves), was requeued, was preempted by a
 * woken task of a better prio, or left.
 */
static void
o1_why_line(const struct engine_env *env, const void *rq,
    const struct engine_switch *sw, char *buf, size_t len)
{
	const struct o1_rq	*q = rq;
	const struct o1_task	*n, *p;
	const char		*pn = engine_task_name(env->e, sw->prev);
	const char		*nn = engine_task_name(env->e, sw->next);
	char			 head[200], prev[200], pr[40], f[32];

	if (sw->next == 0) {
		snprintf(buf, len, "idle: %s %s, both arrays empty", pn,
		    engine_fate_text(sw, f, sizeof f));
		return;
	}
	n = engine_ts(env, sw->next);
	o1_why_prio(n, pr, sizeof pr);
	if (q->why.swap_at == env->now + 1)
		snprintf(head, sizeof head, "the active array ran empty: the "
		    "arrays swap; %s heads the new active array at %s", nn,
		    pr);
	else
		snprintf(head, sizeof head, "%s heads the active array at %s "
		    "(%d active, %d expired)", nn, pr,
		    q->arrays[q->active].nr, q->arrays[1 - q->active].nr);
	if (engine_why_left(env, sw, head, buf, len))
		return;
	p = engine_ts(env, sw->prev);
	if (q->why.woke_at == env->now + 1 && q->why.woke_task == sw->next) {
		snprintf(buf, len, "%s preempts %s: woke at %s, above %d", nn,
		    pn, pr, q->why.woke_over);
		return;
	}
	if (q->why.expiry_at == env->now && q->why.expiry_task == sw->prev)
		o1_why_prev(env, q, pn, p, prev, sizeof prev);
	else
		snprintf(prev, sizeof prev, "%s waits at prio %d", pn,
		    p->prio);
	snprintf(buf, len, "%s; %s", prev, head);
}

/*
 * The why line, then who runs after the pick if it left now: the next
 * in the active array (its prio's queue, else the next prio in use),
 * else the arrays would swap.
 */
static void
o1_why(const struct engine_env *env, const void *rq,
    const struct engine_switch *sw, char *buf, size_t len)
{
	const struct o1_rq	*q = rq;
	const struct prio_array	*a = &q->arrays[q->active];
	const struct o1_task	*n, *x;
	size_t			 at;
	int			 id;

	o1_why_line(env, rq, sw, buf, len);
	if (sw->next == 0 || (at = strlen(buf)) + 1 >= len)
		return;
	n = engine_ts(env, sw->next);
	if ((id = prio_array_after(a, &env->links, sw->next, n->prio)) != 0) {
		x = engine_ts(env, id);
		snprintf(buf + at, len - at, "; next %s at prio %d",
		    engine_task_name(env->e, id), x->prio);
	} else if (q->arrays[1 - q->active].nr > 0)
		snprintf(buf + at, len - at, "; then the arrays swap");
}

/*
 * A runqueue's quantities: the expired array's starvation clock (ms
 * since its first task expired, 0 while empty) against its limit
 * (EXPIRED_STARVING starves once the clock reaches it), the best
 * static prio in it (140: none) and how many each array holds.
 */
static void
o1_rq_info(const struct engine_env *env, const void *rq, int64_t *out)
{
	const struct o1_rq	*q = rq;

	out[0] = q->expired_timestamp != 0 ? (int64_t)(env->now + 1 -
	    q->expired_timestamp) : 0;
	out[1] = (int64_t)O1_STARVATION_LIMIT * q->nr + 1;
	out[2] = q->best_expired_prio;
	out[3] = q->arrays[q->active].nr;
	out[4] = q->arrays[1 - q->active].nr;
}

/* The trace's columns: array (A active, E expired),left,bonus,sleep_avg. */
static char *
o1_format(const struct engine_cpu_info *row, char *p)
{
	*p++ = row->col[0] ? 'E' : 'A';
	*p++ = ',';
	p = engine_itoa(p, row->col[1]);
	*p++ = ',';
	p = engine_itoa(p, row->col[2]);
	*p++ = ',';
	return (engine_itoa(p, row->col[3]));
}

const struct engine_policy engine_policy_o1 = {
	.name = "o1",
	.columns = "array,left,bonus,sleep_avg",
	.ncols = 4,
	.fields = "array,bonus,sleep_avg",
	.nfields = 3,
	.rq_fields = "expired_ms,starve_ms,best_expired,nr_active,nr_expired",
	.nrq_fields = 5,
	.picture = "arrays",
	.rq_size = sizeof (struct o1_rq),
	.rq_init = o1_rq_init,
	.rq_free = NULL,
	/* Plain data (two prio arrays of ids and counters): a snapshot copies its bytes. */
	.rq_clone = NULL,
	.rq_memory = NULL,
	.task_init = o1_task_init,
	.enqueue = o1_enqueue,
	.dequeue = o1_dequeue,
	.pick = o1_pick,
	.tick = o1_tick,
	.wake = o1_wake,
	.renice = o1_renice,
	.steal = o1_steal,
	.check = o1_check,
	.check_task = o1_check_task,
	.info = o1_info,
	.quiet = o1_quiet,
	.rq_info = o1_rq_info,
	.why = o1_why,
	.format = o1_format
};
