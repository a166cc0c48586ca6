/*
 * bench_scenario.c -- how long a scenario file takes to load (read,
 * scan, parse, check: scenario_load_file) and to set an engine up from
 * (scenario_apply), at 1 000, 10 000 and 100 000 tasks, and how long a
 * duplicate task name at the end takes to be refused.
 *
 * Each file is generated: tasks t0..tN-1 with patterns, nice values,
 * one in ten in one of 8 groups, and one event per ten tasks in
 * descending time order (the worst order for the engine's event queue).
 * Each cell is the best of 3 runs, in wall-clock and in CPU time (the
 * machine is shared: under load the wall clock mostly measures the
 * others).  The goal: 100 000 tasks load in under 1 s.
 *
 * A second table loads a scenario whose description is one line of 1,
 * 2 and 4 MB, written inline and in a file the scenario @includes: the
 * two should take about the same time, growing with the size (issue
 * 27: an include took 8 s for 4 MB when libconfig read it itself).
 *
 * Usage: bench_scenario
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "scenario.h"

#define NSIZES	3
#define ROUNDS	3
#define NLONG	3

static const int	sizes[NSIZES] = { 1000, 10000, 100000 };
static const int	longmb[NLONG] = { 1, 2, 4 };

/* Monotonic time in seconds. */
static double
bench_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

/* This process's CPU time in seconds. */
static double
bench_cpu(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

/* A time: wall clock and CPU. */
struct bench_time {
	double	wall, cpu;
};

/* Keep the smaller of each. */
static void
bench_min(struct bench_time *best, const struct bench_time *t)
{
	if (t->wall < best->wall)
		best->wall = t->wall;
	if (t->cpu < best->cpu)
		best->cpu = t->cpu;
}

/* Write an n-task scenario to path; dup: the last task repeats "t0". */
static void
bench_write(const char *path, int n, int dup)
{
	FILE	*f;
	int	 i;

	if ((f = fopen(path, "w")) == NULL) {
		perror(path);
		exit(1);
	}
	fprintf(f, "name = \"bench\";\ncpus = 4;\ngroups = (\n");
	for (i = 0; i < 8; i++)
		fprintf(f, "  { name = \"g%d\"; cpus = \"%d\"; }%s\n", i, i % 4,
		    i < 7 ? "," : "");
	fprintf(f, ");\ntasks = (\n");
	for (i = 0; i < n; i++) {
		fprintf(f, "  { name = \"t%d\"; nice = %d; pattern = [ %d, %d ];",
		    dup && i == n - 1 ? 0 : i, i % 40 - 20, i % 5 + 1,
		    i % 50 + 5);
		if (i % 10 == 0)
			fprintf(f, " group = \"g%d\";", i % 8);
		fprintf(f, " }%s\n", i < n - 1 ? "," : "");
	}
	fprintf(f, ");\nevents = (\n");
	for (i = n / 10 - 1; i >= 0; i--)
		fprintf(f, "  { at = %d; action = \"nice\"; task = \"t%d\"; "
		    "value = %d; }%s\n", 1000 + i, i * 10, i % 20,
		    i > 0 ? "," : "");
	fprintf(f, ");\n");
	if (fclose(f) != 0) {
		perror(path);
		exit(1);
	}
}

/*
 * Write a scenario into dir whose description is one line of mb MB:
 * inline in main.cfg, or in desc.cfg, which main.cfg @includes.
 * Returns main.cfg's path (static).
 */
static const char *
bench_write_long(const char *dir, int mb, int include)
{
	static char	 path[256];
	char		 desc[256];
	FILE		*f, *d;
	size_t		 i, n = (size_t)mb << 20;

	snprintf(path, sizeof path, "%s/main.cfg", dir);
	snprintf(desc, sizeof desc, "%s/desc.cfg", dir);
	if ((f = fopen(path, "w")) == NULL ||
	    (d = fopen(desc, "w")) == NULL) {
		perror(dir);
		exit(1);
	}
	fprintf(f, "name = \"long\";\ncpus = 1;\n");
	if (include)
		fprintf(f, "@include \"desc.cfg\"\n");
	fputs("description = \"", include ? d : f);
	for (i = 0; i < n; i++)
		putc('a' + (int)(i % 26), include ? d : f);
	fputs("\";\n", include ? d : f);
	fprintf(f, "tasks = ( { name = \"hog\"; } );\n");
	if (fclose(f) != 0 || fclose(d) != 0) {
		perror(dir);
		exit(1);
	}
	return (path);
}

/* Load path once; its time. */
static struct bench_time
bench_load(const char *path)
{
	struct scenario		*sc;
	struct bench_time	 t;
	char			*cause = NULL;
	double			 w, c;

	w = bench_now();
	c = bench_cpu();
	sc = scenario_load_file(path, &cause);
	t.wall = bench_now() - w;
	t.cpu = bench_cpu() - c;
	if (sc == NULL) {
		fprintf(stderr, "bench_scenario: %s\n", cause);
		exit(1);
	}
	scenario_free(sc);
	return (t);
}

/* Load and apply path once; the times in *load and *apply. */
static int
bench_once(const char *path, struct bench_time *load, struct bench_time *apply)
{
	struct engine_params	 p;
	struct scenario		*sc;
	struct engine		*e;
	char			*cause = NULL;
	double			 w, c;

	w = bench_now();
	c = bench_cpu();
	sc = scenario_load_file(path, &cause);
	load->wall = bench_now() - w;
	load->cpu = bench_cpu() - c;
	if (sc == NULL) {
		free(cause);
		return (-1);
	}
	engine_params_default(&p);
	scenario_params(sc, &p);
	e = engine_create(&p, &engine_policy_staircase);
	w = bench_now();
	c = bench_cpu();
	if (scenario_apply(sc, e, NULL, NULL, &cause) != 0) {
		fprintf(stderr, "bench_scenario: %s\n", cause);
		exit(1);
	}
	apply->wall = bench_now() - w;
	apply->cpu = bench_cpu() - c;
	engine_free(e);
	scenario_free(sc);
	return (0);
}

int
main(void)
{
	struct bench_time	 load[NSIZES], apply[NSIZES], dup[NSIZES];
	struct bench_time	 inl[NLONG], inc[NLONG];
	struct bench_time	 l, a, none = { 1e9, 1e9 };
	char			 path[] = "/tmp/bench_scenario.XXXXXX";
	char			 dir[] = "/tmp/bench_scenario.XXXXXX";
	char			 cmd[64];
	double			 t0, loadavg[1] = { -1 };
	int			 i, r, fd;

	if ((fd = mkstemp(path)) == -1) {
		perror("mkstemp");
		return (1);
	}
	close(fd);
	t0 = bench_now();
	for (i = 0; i < NSIZES; i++) {
		load[i] = apply[i] = dup[i] = none;
		bench_write(path, sizes[i], 0);
		for (r = 0; r < ROUNDS; r++) {
			if (bench_once(path, &l, &a) != 0) {
				fprintf(stderr, "bench_scenario: %d tasks did "
				    "not load\n", sizes[i]);
				return (1);
			}
			bench_min(&load[i], &l);
			bench_min(&apply[i], &a);
		}
		bench_write(path, sizes[i], 1);
		for (r = 0; r < ROUNDS; r++) {
			if (bench_once(path, &l, &a) == 0) {
				fprintf(stderr, "bench_scenario: the duplicate "
				    "was not found\n");
				return (1);
			}
			bench_min(&dup[i], &l);
		}
	}
	unlink(path);
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return (1);
	}
	for (i = 0; i < NLONG; i++) {
		inl[i] = inc[i] = none;
		for (r = 0; r < ROUNDS; r++) {
			l = bench_load(bench_write_long(dir, longmb[i], 0));
			bench_min(&inl[i], &l);
			l = bench_load(bench_write_long(dir, longmb[i], 1));
			bench_min(&inc[i], &l);
		}
	}
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "bench_scenario: %s failed\n", cmd);
	getloadavg(loadavg, 1);

	printf("Scenario files: ms to load (scenario_load_file), to set an "
	    "engine up\n(scenario_apply) and to refuse a duplicate name in "
	    "the last task;\nwall clock / CPU time, best of %d (load average "
	    "%.1f)\n\n", ROUNDS, loadavg[0]);
	printf("| tasks | load | apply | duplicate at the end |\n");
	printf("|---:|---:|---:|---:|\n");
	for (i = 0; i < NSIZES; i++)
		printf("| %d | %.0f / %.0f | %.0f / %.0f | %.0f / %.0f |\n",
		    sizes[i], load[i].wall * 1e3, load[i].cpu * 1e3,
		    apply[i].wall * 1e3, apply[i].cpu * 1e3,
		    dup[i].wall * 1e3, dup[i].cpu * 1e3);
	printf("\nGoal: 100 000 tasks load in under 1 s: %s (%.0f ms wall, "
	    "%.0f ms CPU)\n", load[NSIZES - 1].wall < 1.0 ? "met" :
	    load[NSIZES - 1].cpu < 1.0 ? "met in CPU time, not in wall time "
	    "(a loaded machine)" : "MISSED", load[NSIZES - 1].wall * 1e3,
	    load[NSIZES - 1].cpu * 1e3);

	printf("\nA description of one line, inline and in an @include'd "
	    "file: ms to load;\nwall clock / CPU time, best of %d\n\n",
	    ROUNDS);
	printf("| MB | inline | @include | @include / inline (CPU) |\n");
	printf("|---:|---:|---:|---:|\n");
	for (i = 0; i < NLONG; i++)
		printf("| %d | %.0f / %.0f | %.0f / %.0f | %.1f |\n",
		    longmb[i], inl[i].wall * 1e3, inl[i].cpu * 1e3,
		    inc[i].wall * 1e3, inc[i].cpu * 1e3, inl[i].cpu > 0 ?
		    inc[i].cpu / inl[i].cpu : 0.0);
	printf("(%.1f s in all)\n", bench_now() - t0);
	return (0);
}
