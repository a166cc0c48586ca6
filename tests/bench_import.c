/*
 * bench_import.c -- stairs-import at the scale of SPEC.md section 11: a
 * synthetic tracefs trace of 60 s on 16 CPUs, about a million switches
 * and 2 000 tasks, imported, then replayed headless under each policy
 * (staircase, o1, cfs, and eevdf where this stairsd has it) and the
 * kernel's block, each timed on its own; the goal is 20 s in all on a
 * 2-core machine.  The trace is written to a temporary directory first
 * (not timed) and removed at the end.
 *
 * The workload: each CPU runs its own 125 tasks in turn, slices of 0.2
 * to 1.8 ms (1 ms on average); a task leaves its CPU asleep four times
 * in five (woken when its turn comes again) and preempted the fifth;
 * nice -5..5.  Deterministic (a fixed LCG).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bindir.h"

#define NCPU		16
#define NTASK		2000
#define SPAN_US		(60 * 1000000ULL)
#define PER_CPU		(NTASK / NCPU)

static uint64_t	bench_seed = 12345;

/* A pseudo-random number (LCG). */
static uint32_t
bench_rand(void)
{
	bench_seed = bench_seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return ((uint32_t)(bench_seed >> 33));
}

/* Seconds of the monotonic clock. */
static double
bench_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

/* Write the trace; returns the switches written. */
static uint64_t
bench_trace(FILE *f)
{
	uint64_t	next[NCPU], t, n = 0;
	int		cur[NCPU], turn[NCPU], asleep[NTASK], c, best, i, prev,
			nx;
	char		pc[32], nc[32];

	fprintf(f, "# tracer: nop\n#\n# entries-in-buffer/entries-written: "
	    "0/0   #P:%d\n#\n", NCPU);
	for (c = 0; c < NCPU; c++) {
		next[c] = 1000 + (uint64_t)c * 37;
		cur[c] = -1;
		turn[c] = 0;
	}
	for (i = 0; i < NTASK; i++)
		asleep[i] = 0;
	for (;;) {
		best = 0;
		for (c = 1; c < NCPU; c++) {
			if (next[c] < next[best])
				best = c;
		}
		c = best;
		if ((t = next[c]) >= SPAN_US)
			break;
		prev = cur[c];
		nx = c + NCPU * turn[c];
		turn[c] = (turn[c] + 1) % PER_CPU;
		if (asleep[nx]) {
			fprintf(f, "%16s-%-7d [%03d] d.s4. %5llu.%06llu: "
			    "sched_wakeup: comm=task%d pid=%d prio=%d "
			    "target_cpu=%03d\n", "<idle>", 0, c,
			    (unsigned long long)(t / 1000000),
			    (unsigned long long)(t % 1000000), nx, 1000 + nx,
			    115 + nx % 11, c);
			asleep[nx] = 0;
		}
		if (prev == -1)
			snprintf(pc, sizeof pc, "swapper/%d", c);
		else
			snprintf(pc, sizeof pc, "task%d", prev);
		snprintf(nc, sizeof nc, "task%d", nx);
		i = prev == -1 ? 0 : (bench_rand() % 5 != 0);
		fprintf(f, "%16s-%-7d [%03d] d..2. %5llu.%06llu: sched_switch: "
		    "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> "
		    "next_comm=%s next_pid=%d next_prio=%d\n", pc,
		    prev == -1 ? 0 : 1000 + prev, c,
		    (unsigned long long)(t / 1000000),
		    (unsigned long long)(t % 1000000), pc,
		    prev == -1 ? 0 : 1000 + prev,
		    prev == -1 ? 120 : 115 + prev % 11, i ? "S" : "R", nc,
		    1000 + nx, 115 + nx % 11);
		if (prev != -1 && i)
			asleep[prev] = 1;
		cur[c] = nx;
		next[c] = t + 200 + bench_rand() % 1601;
		n++;
	}
	return (n);
}

/* Run cmd, timed; -1 if it failed. */
static double
bench_run(const char *cmd)
{
	double	t0 = bench_now();
	int	r;

	r = system(cmd);
	if (r != 0) {
		fprintf(stderr, "bench_import: failed (%d): %s\n", r, cmd);
		return (-1);
	}
	return (bench_now() - t0);
}

int
main(void)
{
	static const char	*pols[] = { "staircase", "o1", "cfs", "eevdf",
				    "kernel" };
	char			 bin[PATH_MAX], dir[] = "/tmp/bench_import.XXXXXX";
	char			 cmd[3 * PATH_MAX], trace[PATH_MAX + 32];
	FILE			*f;
	uint64_t		 nsw;
	double			 t, total = 0;
	size_t			 i;

	test_bindir("stairs-import", bin, sizeof bin);
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return (1);
	}
	snprintf(trace, sizeof trace, "%s/trace.txt", dir);
	if ((f = fopen(trace, "w")) == NULL) {
		perror(trace);
		return (1);
	}
	t = bench_now();
	nsw = bench_trace(f);
	fclose(f);
	printf("bench_import: a synthetic tracefs trace: %d CPUs, %d tasks, "
	    "60 s, %llu switches (written in %.1f s, not counted)\n\n",
	    NCPU, NTASK, (unsigned long long)nsw, bench_now() - t);
	printf("| step | seconds |\n|---|---|\n");
	snprintf(cmd, sizeof cmd, "%s/stairs-import %s -o %s/s.cfg "
	    "2>%s/import.err", bin, trace, dir, dir);
	if ((t = bench_run(cmd)) < 0)
		goto out;
	total += t;
	printf("| stairs-import | %.2f |\n", t);
	for (i = 0; i < sizeof pols / sizeof pols[0]; i++) {
		/* eevdf only where this stairsd has it. */
		snprintf(cmd, sizeof cmd, "%s/stairsd --headless --scenario "
		    "%s/s.cfg --ticks 1 --compare %s >/dev/null 2>&1", bin,
		    dir, pols[i]);
		if (system(cmd) != 0) {
			printf("| replay %s | (no such policy) |\n", pols[i]);
			continue;
		}
		snprintf(cmd, sizeof cmd, "%s/stairsd --headless --scenario "
		    "%s/s.cfg --ticks 60000 --compare %s >%s/%s.out", bin, dir,
		    pols[i], dir, pols[i]);
		if ((t = bench_run(cmd)) < 0)
			goto out;
		total += t;
		printf("| replay %s, 60 000 ticks | %.2f |\n", pols[i], t);
	}
	printf("| total | %.2f (goal: 20) |\n", total);
out:
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	(void)system(cmd);
	return (0);
}
