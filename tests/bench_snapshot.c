/*
 * bench_snapshot.c -- what the session's keyframes cost (SPEC.md 7,
 * issue 9): for 2 000 tasks on 8 CPUs under each policy, the time of
 * engine_clone() and of freeing a clone, the bytes engine_memory() counts
 * in one, and engine_tick()'s ticks per second at that size.
 *
 * A seek clones the nearest keyframe and replays the ticks from it, so
 * with a keyframe every K ticks the worst seek costs one clone and K
 * ticks: the table gives the largest K (rounded down to 1, 2 or 5 times
 * a power of ten) that keeps that within half the 100 ms goal, that
 * worst seek (seek_ms) (the other half is left to the shared machine and to the
 * journal's changes), and the history's memory per second of engine time
 * (one tick per ms) and for the default 600 s of history at that K.
 *
 * The mix is bench_engine's: half CPU hogs, half sleepers with a short
 * pattern [1..5 run, 5..50 sleep], nice -10..10, seeded; run 3 000
 * ticks before measuring.  Each figure is the best of several windows
 * (the machine is shared).
 *
 * Usage: bench_snapshot [-q] [CPUS TASKS]
 *   -q          fewer, shorter windows, for a smoke run
 *   CPUS TASKS  another size than 8 CPUs, 2 000 tasks
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"

#define SEEK_GOAL_MS	100.0
#define HISTORY_S	600.0
#define WARMUP		3000

static const struct engine_policy *const policies[] = {
	&engine_policy_staircase,
	&engine_policy_o1,
	&engine_policy_cfs,
	&engine_policy_eevdf,
	&engine_policy_rr
};

/* xorshift64*: a fixed generator so every run builds the same mix. */
static uint64_t
bench_rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return (*s * 2685821657736338717ULL);
}

/* Monotonic time in ns. */
static double
bench_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec * 1e9 + (double)ts.tv_nsec);
}

/* The engine and its mix of ntasks tasks on ncpus CPUs. */
static struct engine *
bench_create(const struct engine_policy *pol, int ncpus, int ntasks)
{
	struct engine_params	 p;
	struct engine_task_spec	 ts;
	struct engine		*e;
	uint32_t		 pat[2];
	uint64_t		 s = 0x9e3779b97f4a7c15ULL;
	char			 name[16], *cause = NULL;
	int			 i;

	engine_params_default(&p);
	p.cpus = ncpus;
	if (engine_params_check(&p, &cause) != 0) {
		fprintf(stderr, "bench_snapshot: %s\n", cause);
		exit(1);
	}
	e = engine_create(&p, pol);
	for (i = 0; i < ntasks; i++) {
		memset(&ts, 0, sizeof ts);
		snprintf(name, sizeof name, "t%d", i);
		ts.name = name;
		ts.kind = ENGINE_SIM;
		ts.nice = (int)(bench_rnd(&s) % 21) - 10;
		ts.group = -1;
		if (i % 2 == 1) {
			pat[0] = 1 + bench_rnd(&s) % 5;
			pat[1] = 5 + bench_rnd(&s) % 46;
			ts.pattern = pat;
			ts.npattern = 2;
		}
		if (engine_task_add(e, &ts, &cause) < 0) {
			fprintf(stderr, "bench_snapshot: task %d: %s\n", i,
			    cause);
			exit(1);
		}
	}
	return (e);
}

/* One policy's row. */
static void
bench_policy(const struct engine_policy *pol, int ncpus, int ntasks,
    int quick)
{
	struct engine	*e, *c;
	double		 t0, t1, clone_ns = 1e30, free_ns = 1e30;
	double		 tick_ns = 1e30, ns, window = quick ? 20e6 : 100e6;
	double		 budget, k, per_s;
	size_t		 mem;
	int		 i, w, n, rounds = quick ? 3 : 9;

	e = bench_create(pol, ncpus, ntasks);
	for (i = 0; i < WARMUP; i++)
		engine_tick(e);

	/* Ticks: windows of about `window` ns, the best kept. */
	n = 100;
	for (;;) {
		t0 = bench_now();
		for (i = 0; i < n; i++)
			engine_tick(e);
		if (bench_now() - t0 >= window / 4)
			break;
		n *= 2;
	}
	n *= 4;
	for (w = 0; w < (quick ? 2 : 5); w++) {
		t0 = bench_now();
		for (i = 0; i < n; i++)
			engine_tick(e);
		ns = (bench_now() - t0) / n;
		if (ns < tick_ns)
			tick_ns = ns;
	}

	/* Clones of the running engine, between ticks as a session would. */
	mem = 0;
	for (w = 0; w < rounds; w++) {
		for (i = 0; i < 10; i++)
			engine_tick(e);
		t0 = bench_now();
		c = engine_clone(e);
		t1 = bench_now();
		if (t1 - t0 < clone_ns)
			clone_ns = t1 - t0;
		mem = engine_memory(c);
		/* The clone runs on: its cost is a live engine's. */
		for (i = 0; i < 10; i++)
			engine_tick(c);
		t0 = bench_now();
		engine_free(c);
		t1 = bench_now();
		if (t1 - t0 < free_ns)
			free_ns = t1 - t0;
	}

	budget = SEEK_GOAL_MS * 1e6 / 2 - clone_ns;
	k = budget > 0 ? budget / tick_ns : 0;
	/* Round K down to a power of ten's 1, 2 or 5. */
	if (k < 1) {
		printf("%-9s %5d %6d %11.0f %9.1f %8.1f %10zu   (a clone alone "
		    "is over the budget)\n", pol->name, ncpus, ntasks,
		    1e9 / tick_ns, clone_ns / 1e3, free_ns / 1e3, mem);
		engine_free(e);
		return;
	}
	per_s = 1;
	while (per_s * 10 <= k)
		per_s *= 10;
	k = k >= per_s * 5 ? per_s * 5 : k >= per_s * 2 ? per_s * 2 : per_s;
	per_s = (double)mem * 1000.0 / k;
	printf("%-9s %5d %6d %11.0f %9.1f %8.1f %10zu %7.0f %8.1f %9.1f "
	    "%8.1f\n", pol->name, ncpus, ntasks, 1e9 / tick_ns,
	    clone_ns / 1e3, free_ns / 1e3, mem, k,
	    (clone_ns + k * tick_ns) / 1e6, per_s / 1024.0,
	    per_s * HISTORY_S / (1024.0 * 1024.0));
	engine_free(e);
}

int
main(int argc, char **argv)
{
	size_t	i;
	int	ch, quick = 0, ncpus = 8, ntasks = 2000;

	while ((ch = getopt(argc, argv, "q")) != -1) {
		switch (ch) {
		case 'q':
			quick = 1;
			break;
		default:
			fprintf(stderr, "usage: bench_snapshot [-q] "
			    "[CPUS TASKS]\n");
			return (1);
		}
	}
	if (argc - optind == 2) {
		ncpus = atoi(argv[optind]);
		ntasks = atoi(argv[optind + 1]);
	}
	printf("engine snapshots (keyframes): clone, free, bytes, ticks/s; "
	    "K = keyframe interval\nfor a worst seek (clone + K ticks) "
	    "within %.0f ms / 2; history = bytes of keyframes\n"
	    "at that K per second of engine time and for %.0f s\n\n",
	    SEEK_GOAL_MS, HISTORY_S);
	printf("%-9s %5s %6s %11s %9s %8s %10s %7s %8s %9s %8s\n", "policy",
	    "cpus", "tasks", "ticks/s", "clone_us", "free_us", "bytes",
	    "K", "seek_ms", "KiB/s", "MiB/600s");
	for (i = 0; i < sizeof policies / sizeof policies[0]; i++)
		bench_policy(policies[i], ncpus, ntasks, quick);
	return (0);
}
