/*
 * bench_engine.c -- the engine's cost per CPU-tick for 1, 4 and 64 CPUs
 * times 10, 1 000 and 100 000 tasks, under each policy, and its peak
 * memory; then the staircase beside the engine from before the
 * scheduling class (issue 8), in wall clock and in instructions.
 *
 * Each configuration runs in its own child process, so its peak RSS
 * (getrusage ru_maxrss) is its own.  The mix is half CPU hogs, half
 * sleepers with a short pattern [1..5 run, 5..50 sleep], nice -10..10,
 * seeded.  After a warmup the child times windows of ticks with
 * CLOCK_MONOTONIC and keeps the best window; three rounds over all the
 * configurations and policies keep each cell's best round (the machine
 * is shared).  The goal: at 100 000 tasks, within 1.5x of the
 * cost at 10.
 *
 * Before and after: this same file built against the engine of OLD_REV
 * (c2558c0, before the scheduling class) with -DBENCH_OLD_ENGINE; make
 * bench-run builds it into the old tree and names that tree in
 * STAIRS_OLD_BIN.  Old and new run as fresh processes, alternated, best
 * of each, so a slow spell on the shared machine falls on both.  Wall
 * clock still moves with the load (by tens of percent on a busy
 * machine); instructions do not, so when valgrind is installed each is
 * also counted with cachegrind: the instructions of TICKS_HI ticks less
 * those of TICKS_LO (setting up the tasks cancels out, and by TICKS_LO
 * every bucket of the wake wheel has had its first allocation), per
 * CPU-tick.
 *
 * Usage: bench_engine [-clq] [-p POLICY] [-o OLD] [-w MS] [-n TICKS]
 *            [CPUS TASKS]
 *   -c          only the staircase before and after (with an old build)
 *   -l          keep the engine's log of changes, as the live daemon does
 *               (engine_track_changes; headless runs do not)
 *   -q          shorter windows and fewer runs, for a smoke run
 *   -p POLICY   only this policy: staircase (default), o1, cfs, eevdf
 *               or rr
 *   -o OLD      the old build of this program (default:
 *               $STAIRS_OLD_BIN/bench_engine if there is one)
 *   -w MS       with CPUS TASKS: windows of MS ms (default 100)
 *   -n TICKS    with CPUS TASKS: run exactly TICKS ticks, untimed, for
 *               counting instructions (valgrind --tool=cachegrind)
 *   CPUS TASKS  run only that configuration, in this process (for perf)
 */
#include <sys/resource.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"

#define NCPUS		3
#define NTASKS		3
#define WINDOWS		7

static const int	cpus_list[NCPUS] = { 1, 4, 64 };
static const int	tasks_list[NTASKS] = { 10, 1000, 100000 };

/*
 * The policies measured; the old engine has the staircase alone.  -p
 * keeps one.
 */
#ifdef BENCH_OLD_ENGINE
static const struct engine_policy *policies[] = {
	&engine_policy_staircase
};
#else
static const struct engine_policy *policies[] = {
	&engine_policy_staircase, &engine_policy_o1, &engine_policy_cfs,
	&engine_policy_eevdf, &engine_policy_rr
};
#endif
#define NPOLICIES	((int)(sizeof policies / sizeof policies[0]))

/* The policy measured in this process (-p, or the child's). */
static const struct engine_policy *bench_policy = &engine_policy_staircase;

/* Keep the engine's log of changes, as the live daemon does (-l). */
static int	bench_track;
static uint64_t	bench_epochs;	/* its engines' change logs */

/* Before and after: runs of each side, and the instruction counts' ticks. */
#define ALTERNATIONS	5
#define TICKS_HI	8000
#define TICKS_LO	5000

/* What a child reports back through its pipe. */
struct result {
	double		ns_per_cpu_tick;	/* best window */
	double		ns_worst;		/* worst window */
	uint64_t	ticks;			/* ticks in one window */
	long		rss_base_kb;		/* peak RSS before the engine */
	long		rss_peak_kb;		/* peak RSS at the end */
	double		setup_ms;		/* creating the engine and tasks */
	int		runnable;		/* runnable tasks at the end */
	double		busy;			/* busy CPUs per tick */
	double		switches;		/* task changes per CPU-tick */
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

/* Peak resident size of this process in KiB. */
static long
bench_maxrss(void)
{
	struct rusage	ru;

	getrusage(RUSAGE_SELF, &ru);
	return (ru.ru_maxrss);
}

/* Build the engine and its mix of ntasks tasks on ncpus CPUs. */
static struct engine *
bench_create(int ncpus, int ntasks)
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
		fprintf(stderr, "bench_engine: %s\n", cause);
		exit(1);
	}
	e = engine_create(&p, bench_policy);
#ifndef BENCH_OLD_ENGINE
	engine_track_changes(e, bench_track ? &bench_epochs : NULL);
#endif
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
			fprintf(stderr, "bench_engine: task %d: %s\n", i,
			    cause);
			exit(1);
		}
	}
	return (e);
}

/*
 * Untimed: how much happens per tick (busy CPUs, task switches), so the
 * cost can be read against the work done.
 */
static void
bench_activity(struct engine *e, int ncpus, struct result *res)
{
	struct engine_cpu_info	 ci;
	int			*last;
	long			 busy = 0, sw = 0;
	int			 i, c;

	last = calloc(ncpus, sizeof *last);
	for (c = 0; c < ncpus; c++) {
		engine_cpu_info(e, c, &ci);
		last[c] = ci.task;
	}
	for (i = 0; i < 1000; i++) {
		engine_tick(e);
		for (c = 0; c < ncpus; c++) {
			engine_cpu_info(e, c, &ci);
			busy += ci.task != 0;
			sw += ci.task != last[c];
			last[c] = ci.task;
		}
	}
	res->busy = busy / 1000.0;
	res->switches = sw / (1000.0 * ncpus);
	free(last);
}

/*
 * Build one configuration and run exactly `ticks` ticks, untimed: the
 * instructions of two such runs differ by the ticks' cost alone.
 */
static void
bench_ticks(int ncpus, int ntasks, uint64_t ticks)
{
	struct engine	*e = bench_create(ncpus, ntasks);
	uint64_t	 i;

	for (i = 0; i < ticks; i++)
		engine_tick(e);
	printf("%d cpus %d tasks: %llu ticks\n", ncpus, ntasks,
	    (unsigned long long)engine_now(e));
	engine_free(e);
}

/* Run one configuration (in the child) and fill in the result. */
static void
bench_one(int ncpus, int ntasks, double window_ns, struct result *res)
{
	struct engine		*e;
	struct engine_task_info	 ti;
	double			 t0, t1, ns;
	uint64_t		 n, i;
	int			 w, id;

	memset(res, 0, sizeof *res);
	res->rss_base_kb = bench_maxrss();
	t0 = bench_now();
	e = bench_create(ncpus, ntasks);
	res->setup_ms = (bench_now() - t0) / 1e6;

	/* Warmup: past the start-up transient, and find a window size. */
	n = 64;
	for (;;) {
		t0 = bench_now();
		for (i = 0; i < n; i++)
			engine_tick(e);
		t1 = bench_now();
		if (t1 - t0 >= window_ns / 4 && engine_now(e) >= 2000)
			break;
		n *= 2;
	}
	n = (uint64_t)((double)n * window_ns / (t1 - t0)) + 1;
	res->ticks = n;
	res->ns_per_cpu_tick = 1e30;
	for (w = 0; w < WINDOWS; w++) {
		t0 = bench_now();
		for (i = 0; i < n; i++)
			engine_tick(e);
		ns = (bench_now() - t0) / ((double)n * ncpus);
		if (ns < res->ns_per_cpu_tick)
			res->ns_per_cpu_tick = ns;
		if (ns > res->ns_worst)
			res->ns_worst = ns;
	}
	bench_activity(e, ncpus, res);
	for (id = 1; id <= engine_ntasks(e); id++)
		if (engine_task_info(e, id, &ti) == 0 &&
		    ti.state == ENGINE_RUNNABLE)
			res->runnable++;
	res->rss_peak_kb = bench_maxrss();
	engine_free(e);
}

/*
 * Fork with a pipe from the child: in the child 0, fd[1] its end; in the
 * parent the child's pid, fd[0] ours; -1 (said) if either fails.
 */
static pid_t
bench_pipe_fork(int fd[2])
{
	pid_t	pid;

	if (pipe(fd) != 0) {
		perror("pipe");
		return (-1);
	}
	if ((pid = fork()) < 0) {
		perror("fork");
		close(fd[0]);
		close(fd[1]);
		return (-1);
	}
	close(pid == 0 ? fd[0] : fd[1]);
	return (pid);
}

/* Fork a child for one configuration; 0 on success. */
static int
bench_fork(int ncpus, int ntasks, double window_ns, struct result *res)
{
	pid_t	pid;
	int	fd[2], status;
	ssize_t	n;

	if ((pid = bench_pipe_fork(fd)) < 0)
		return (-1);
	if (pid == 0) {
		bench_one(ncpus, ntasks, window_ns, res);
		if (write(fd[1], res, sizeof *res) != (ssize_t)sizeof *res)
			_exit(1);
		_exit(0);
	}
	n = read(fd[0], res, sizeof *res);
	close(fd[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0 || n != (ssize_t)sizeof *res) {
		fprintf(stderr, "bench_engine: %d cpus %d tasks failed\n",
		    ncpus, ntasks);
		return (-1);
	}
	return (0);
}

#ifndef BENCH_OLD_ENGINE
/*
 * Run argv (execvp) and read what it writes on fd `which` (1 or 2; the
 * other goes to /dev/null) into buf, NUL-terminated, the end kept if it
 * overflows.  0 if it exited with status 0.
 */
static int
bench_run(char *const argv[], int which, char *buf, size_t size)
{
	pid_t	pid;
	int	fd[2], status, null;
	size_t	len = 0;
	ssize_t	n;

	if ((pid = bench_pipe_fork(fd)) < 0)
		return (-1);
	if (pid == 0) {
		if ((null = open("/dev/null", O_WRONLY)) < 0 ||
		    dup2(fd[1], which) < 0 || dup2(null, 3 - which) < 0)
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	for (;;) {
		if (len == size - 1) {		/* full: keep the second half */
			memmove(buf, buf + size / 2, len - size / 2);
			len -= size / 2;
		}
		n = read(fd[0], buf + len, size - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return (-1);
	return (WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1);
}

/*
 * One configuration in a fresh process of program bin (this one or the
 * old build), windows of window_ms: its best ns per CPU-tick, or -1.
 */
static double
bench_exec_ns(const char *bin, int ncpus, int ntasks, int window_ms)
{
	char	 out[4096], w[16], c[16], t[16];
	char	*argv[] = { (char *)bin, "-w", w, c, t, NULL };
	double	 ns;

	snprintf(w, sizeof w, "%d", window_ms);
	snprintf(c, sizeof c, "%d", ncpus);
	snprintf(t, sizeof t, "%d", ntasks);
	if (bench_run(argv, 1, out, sizeof out) != 0 ||
	    sscanf(out, "%*d cpus %*d tasks: %lf ns", &ns) != 1) {
		fprintf(stderr, "bench_engine: %s %d %d failed: %s\n", bin,
		    ncpus, ntasks, out);
		return (-1);
	}
	return (ns);
}

/*
 * The instructions valgrind's cachegrind counts for `bin [-p policy] -n
 * ticks CPUS TASKS`, or -1.
 */
static double
bench_exec_instr(const char *bin, const char *policy, int track, int ncpus,
    int ntasks, int ticks)
{
	char		 out[65536], n[16], c[16], t[16], *p, *q;
	char		*argv[13];
	int		 i = 0;
	double		 v = 0;

	snprintf(n, sizeof n, "%d", ticks);
	snprintf(c, sizeof c, "%d", ncpus);
	snprintf(t, sizeof t, "%d", ntasks);
	argv[i++] = "valgrind";
	argv[i++] = "--tool=cachegrind";
	argv[i++] = "--cache-sim=no";
	argv[i++] = "--cachegrind-out-file=/dev/null";
	argv[i++] = (char *)bin;
	if (policy != NULL) {
		argv[i++] = "-p";
		argv[i++] = (char *)policy;
	}
	if (track)
		argv[i++] = "-l";
	argv[i++] = "-n";
	argv[i++] = n;
	argv[i++] = c;
	argv[i++] = t;
	argv[i] = NULL;
	if (bench_run(argv, 2, out, sizeof out) != 0)
		return (-1);
	/* "==PID== I   refs:      1,234,567" */
	for (p = out; (p = strstr(p, "refs:")) != NULL; p += 5) {
		for (q = p; q > out && q[-1] == ' '; q--)
			;
		if (q > out && q[-1] == 'I')
			break;
	}
	if (p == NULL)
		return (-1);
	for (p += 5; *p == ' '; p++)
		;
	for (; (*p >= '0' && *p <= '9') || *p == ','; p++)
		if (*p != ',')
			v = v * 10 + (*p - '0');
	return (v);
}

/* Instructions per CPU-tick: TICKS_HI ticks less TICKS_LO, or -1. */
static double
bench_instr(const char *bin, const char *policy, int track, int ncpus,
    int ntasks, int hi, int lo)
{
	double	a, b;

	if ((a = bench_exec_instr(bin, policy, track, ncpus, ntasks,
	    hi)) < 0 || (b = bench_exec_instr(bin, policy, track, ncpus,
	    ntasks, lo)) < 0) {
		fprintf(stderr, "bench_engine: valgrind %s %d %d failed\n",
		    bin, ncpus, ntasks);
		return (-1);
	}
	return ((a - b) / ((double)(hi - lo) * ncpus));
}

/* A "| x | y | change |" pair of cells: before, after and the change. */
static void
bench_pair(double before, double after, const char *fmt)
{
	printf("| ");
	before < 0 ? printf("-") : printf(fmt, before);
	printf(" | ");
	after < 0 ? printf("-") : printf(fmt, after);
	if (before > 0 && after > 0)
		printf(" | %+.1f %% |", (after / before - 1) * 100);
	else
		printf(" | - |");
}

/*
 * The staircase now (self) and before the scheduling class (old): every
 * configuration in fresh processes, old and new alternated (and which
 * goes first too), best of each; then instructions when valgrind runs.
 */
static void
bench_compare(const char *self, const char *old, int alternations,
    int window_ms, int hi, int lo)
{
	char	out[256], *vg[] = { "valgrind", "--version", NULL };
	double	nsold[NCPUS][NTASKS], nsnew[NCPUS][NTASKS], v;
	double	iold, inew, ilog;
	int	i, j, a, k;

	printf("\nThe staircase before the scheduling class (%s) and now:\n"
	    "ns per CPU-tick, each side best of %d fresh runs of %d windows "
	    "of ~%d ms,\nold and new alternated\n\n", old, alternations,
	    WINDOWS, window_ms);
	printf("| CPUs x tasks | before, ns | now, ns | change |\n");
	printf("|---|---:|---:|---:|\n");
	for (i = 0; i < NCPUS; i++) {
		for (j = 0; j < NTASKS; j++) {
			nsold[i][j] = nsnew[i][j] = 1e30;
			for (a = 0; a < alternations * 2; a++) {
				/* old, new; new, old; ... */
				k = (a % 2) ^ ((a / 2) % 2);
				v = bench_exec_ns(k == 0 ? old : self,
				    cpus_list[i], tasks_list[j], window_ms);
				if (v < 0)
					continue;
				if (k == 0 && v < nsold[i][j])
					nsold[i][j] = v;
				if (k == 1 && v < nsnew[i][j])
					nsnew[i][j] = v;
				fprintf(stderr, "  %s %2d cpus %6d tasks: "
				    "%.2f ns\n", k == 0 ? "old" : "new",
				    cpus_list[i], tasks_list[j], v);
			}
			printf("| %d x %d ", cpus_list[i], tasks_list[j]);
			bench_pair(nsold[i][j] < 1e30 ? nsold[i][j] : -1,
			    nsnew[i][j] < 1e30 ? nsnew[i][j] : -1, "%.2f");
			printf("\n");
			fflush(stdout);
		}
	}

	if (bench_run(vg, 1, out, sizeof out) != 0) {
		printf("\n(no valgrind: instructions not counted; wall clock "
		    "above moves with the machine's load)\n");
		return;
	}
	printf("\nInstructions per CPU-tick (valgrind --tool=cachegrind "
	    "--cache-sim=no, %d ticks\nless %d): unlike the wall clock "
	    "above they do not move with the machine's load,\nso on a "
	    "shared machine these are the figures to compare\n\n", hi, lo);
	printf("| CPUs x tasks | before | now | change | now, log kept "
	    "(daemon) | change |\n");
	printf("|---|---:|---:|---:|---:|---:|\n");
	for (i = 0; i < NCPUS; i++) {
		for (j = 0; j < NTASKS; j++) {
			iold = bench_instr(old, NULL, 0, cpus_list[i],
			    tasks_list[j], hi, lo);
			inew = bench_instr(self, NULL, 0, cpus_list[i],
			    tasks_list[j], hi, lo);
			ilog = bench_instr(self, NULL, 1, cpus_list[i],
			    tasks_list[j], hi, lo);
			printf("| %d x %d ", cpus_list[i], tasks_list[j]);
			bench_pair(iold, inew, "%.0f");
			ilog < 0 ? printf(" - |") : printf(" %.0f |", ilog);
			if (iold > 0 && ilog > 0)
				printf(" %+.1f %% |", (ilog / iold - 1) * 100);
			else
				printf(" - |");
			printf("\n");
			fflush(stdout);
		}
	}
}

#endif /* !BENCH_OLD_ENGINE */

/* The tables of one policy's rounds: ns, work per tick, peak RSS. */
static void
bench_print(const struct result res[NCPUS][NTASKS], const char *name,
    int rounds, double window_ns)
{
	int	i;

	printf("Engine (%s): ns per CPU-tick (best of %d rounds x %d windows "
	    "of ~%.0f ms); half hogs, half [1..5, 5..50]\n\n",
	    name, rounds, WINDOWS, window_ns / 1e6);
	printf("| CPUs | 10 tasks | 1 000 tasks | 100 000 tasks | "
	    "100k / 10 | 100k / 1k |\n");
	printf("|---:|---:|---:|---:|---:|---:|\n");
	for (i = 0; i < NCPUS; i++) {
		printf("| %d | %.1f | %.1f | %.1f | %.2fx | %.2fx |\n",
		    cpus_list[i], res[i][0].ns_per_cpu_tick,
		    res[i][1].ns_per_cpu_tick, res[i][2].ns_per_cpu_tick,
		    res[i][2].ns_per_cpu_tick / res[i][0].ns_per_cpu_tick,
		    res[i][2].ns_per_cpu_tick / res[i][1].ns_per_cpu_tick);
	}
	printf("\nWork per tick: busy CPUs / task switches per CPU-tick\n\n");
	printf("| CPUs | 10 tasks | 1 000 tasks | 100 000 tasks |\n");
	printf("|---:|---:|---:|---:|\n");
	for (i = 0; i < NCPUS; i++) {
		printf("| %d | %.1f / %.3f | %.1f / %.3f | %.1f / %.3f |\n",
		    cpus_list[i], res[i][0].busy, res[i][0].switches,
		    res[i][1].busy, res[i][1].switches, res[i][2].busy,
		    res[i][2].switches);
	}
	printf("\nPeak RSS per configuration, MiB (bytes per task at "
	    "100 000 tasks)\n\n");
	printf("| CPUs | 10 tasks | 1 000 tasks | 100 000 tasks | "
	    "bytes/task |\n");
	printf("|---:|---:|---:|---:|---:|\n");
	for (i = 0; i < NCPUS; i++) {
		printf("| %d | %.1f | %.1f | %.1f | %.0f |\n", cpus_list[i],
		    res[i][0].rss_peak_kb / 1024.0,
		    res[i][1].rss_peak_kb / 1024.0,
		    res[i][2].rss_peak_kb / 1024.0,
		    (double)(res[i][2].rss_peak_kb - res[i][2].rss_base_kb) *
		    1024.0 / tasks_list[2]);
	}
}

/* Every policy's ns per CPU-tick side by side, one row a configuration. */
static void
bench_print_policies(const struct result res[][NCPUS][NTASKS], int npol)
{
	int	i, j, k;

	printf("\nEach policy: ns per CPU-tick (the same rounds)\n\n");
	printf("| CPUs x tasks |");
	for (k = 0; k < npol; k++)
		printf(" %s |", policies[k]->name);
	printf("\n|---|");
	for (k = 0; k < npol; k++)
		printf("---:|");
	printf("\n");
	for (i = 0; i < NCPUS; i++) {
		for (j = 0; j < NTASKS; j++) {
			printf("| %d x %d |", cpus_list[i], tasks_list[j]);
			for (k = 0; k < npol; k++)
				printf(" %.1f |",
				    res[k][i][j].ns_per_cpu_tick);
			printf("\n");
		}
	}
}

int
main(int argc, char **argv)
{
	static struct result	 res[NPOLICIES][NCPUS][NTASKS];
	struct result		 r1;
	const char		*old = NULL, *env;
	char			 self[PATH_MAX], oldpath[PATH_MAX];
	double			 window_ns = 100e6, t0;
	long			 ticks = -1;
	ssize_t			 n;
	int			 i, j, k, ch, round, rounds = 3, quick = 0;
	int			 npol = NPOLICIES, window_ms = 0, only = 0;

	while ((ch = getopt(argc, argv, "clqp:o:w:n:")) != -1) {
		switch (ch) {
		case 'c':
			only = 1;
			break;
		case 'l':
			bench_track = 1;
			break;
		case 'q':
			quick = 1;
			window_ns = 10e6;
			rounds = 1;
			break;
		case 'p':
			for (k = 0; k < NPOLICIES; k++)
				if (strcmp(policies[k]->name, optarg) == 0)
					break;
			if (k == NPOLICIES) {
				fprintf(stderr, "bench_engine: no policy %s\n",
				    optarg);
				return (2);
			}
			policies[0] = policies[k];
			npol = 1;
			break;
		case 'o':
			old = optarg;
			break;
		case 'w':
			window_ms = atoi(optarg);
			if (window_ms < 1 || window_ms > 10000)
				goto usage;
			break;
		case 'n':
			ticks = atol(optarg);
			if (ticks < 0)
				goto usage;
			break;
		default:
			goto usage;
		}
	}
	argc -= optind;
	argv += optind;
	if (only)
		rounds = 0;
	bench_policy = policies[0];
	if (window_ms != 0)
		window_ns = window_ms * 1e6;
	if (argc == 2 && ticks >= 0) {
		bench_ticks(atoi(argv[0]), atoi(argv[1]), (uint64_t)ticks);
		return (0);
	}
	if (argc == 2) {
		bench_one(atoi(argv[0]), atoi(argv[1]), window_ns, &r1);
		printf("%s cpus %s tasks: %.2f ns per CPU-tick (worst %.2f), "
		    "peak RSS %.1f MiB\n", argv[0], argv[1],
		    r1.ns_per_cpu_tick, r1.ns_worst, r1.rss_peak_kb / 1024.0);
		return (0);
	}
	if (argc != 0 || ticks >= 0 || window_ms != 0)
		goto usage;

	t0 = bench_now();
	/*
	 * Rounds over every policy and configuration, keeping each cell's
	 * best: a neighbour's burst on the shared machine then spoils one
	 * round of one cell, not the table.
	 */
	for (round = 0; round < rounds; round++) {
	for (k = 0; k < npol; k++) {
	bench_policy = policies[k];
	for (i = 0; i < NCPUS; i++) {
		for (j = 0; j < NTASKS; j++) {
			if (bench_fork(cpus_list[i], tasks_list[j], window_ns,
			    &r1) != 0)
				return (1);
			if (round == 0 || r1.ns_per_cpu_tick <
			    res[k][i][j].ns_per_cpu_tick)
				res[k][i][j] = r1;
			fprintf(stderr, "  %s %2d cpus %6d tasks: %.1f ns "
			    "(worst %.1f), %llu ticks/window, setup %.0f ms, "
			    "%d runnable, %.1f busy CPUs, %.3f switches per "
			    "CPU-tick\n", policies[k]->name, cpus_list[i],
			    tasks_list[j], r1.ns_per_cpu_tick, r1.ns_worst,
			    (unsigned long long)r1.ticks, r1.setup_ms,
			    r1.runnable, r1.busy, r1.switches);
		}
	}
	}
	}
	if (!only) {
		bench_print(res[0], policies[0]->name, rounds, window_ns);
		if (npol > 1)
			bench_print_policies(res, npol);
	}

#ifndef BENCH_OLD_ENGINE
	if (old == NULL && (env = getenv("STAIRS_OLD_BIN")) != NULL &&
	    *env != '\0') {
		snprintf(oldpath, sizeof oldpath, "%s/bench_engine", env);
		if (access(oldpath, X_OK) == 0)
			old = oldpath;
	}
	if (policies[0] != &engine_policy_staircase)
		;	/* -p another: the old engine has none */
	else if (old == NULL)
		printf("\n(no old bench_engine: STAIRS_OLD_BIN unset; make "
		    "bench builds one)\n");
	else if ((n = readlink("/proc/self/exe", self, sizeof self - 1)) <
	    0)
		perror("readlink /proc/self/exe");
	else {
		self[n] = '\0';
		bench_compare(self, old, quick ? 2 : ALTERNATIONS,
		    quick ? 10 : 30, quick ? 1200 : TICKS_HI,
		    quick ? 200 : TICKS_LO);
	}
#else
	(void)env;
	(void)self;
	(void)oldpath;
	(void)n;
	(void)old;
	(void)quick;
#endif
	printf("\n(%.1f s in all)\n", (bench_now() - t0) / 1e9);
	return (0);

usage:
	fprintf(stderr, "usage: bench_engine [-clq] [-p POLICY] [-o OLD] "
	    "[-w MS] [-n TICKS] [CPUS TASKS]\n");
	return (2);
}
