/*
 * bench_proc.c -- what enforcing the engine on real processes costs: the
 * time of a switch (the procs_enforce that stops one task and pins and
 * continues another), the CPU the 1 ms loop uses with 50 real tasks on 2
 * engine CPUs, how often two tasks of one engine CPU are seen running at
 * once, and how far measured CPU shares are from the engine's ran shares;
 * with wakes seen from the kernel's sched_wakeup events (acted on at once
 * from the loop, as the daemon does) and, side by side, with observation
 * forced to /proc polling.  Prints a table (docs/BENCH.md, "Real
 * processes").
 *
 * Then, against the kernel alone (docs/BENCH.md, "Against the kernel
 * alone"): the children's lost work -- 40 hogs and 10 interactive tasks
 * counting work units under the kernel alone (allowed on the same 2 CPUs)
 * and under stairs, events and /proc, in interleaved rounds -- and
 * cyclictest (rt-tests) beside two hogs on one CPU, under the kernel
 * alone and under stairs.  The work-counting children are this program
 * run again as `bench_proc --work FILE SLOT RUN_MS SLEEP_MS`.
 */
#include <sys/mman.h>
#include <sys/resource.h>

#include <stdint.h>

#include "proc_harness.h"

#define NTASKS		50
#define SAMPLE_MS	3000
#define CPU_MS		5000
#define NRUNS		3

static int	 nhogs;
static int	 ids[NTASKS + 1];
static pid_t	 pids[NTASKS + 1];
static double	*switch_us;
static int	 nswitch, maxswitch;
static int	 samples, doubled, doubled_unstopped;
static int	 last_task[2];
static double	 t_reap, t_observe, t_tick, t_enforce;
static int	 nticks;

static volatile sig_atomic_t sigchld;

/* SIGCHLD (not for stops and continues): reap in the loop. */
static void
on_sigchld(int sig)
{
	sigchld = 1;
}

/* Microseconds between two times. */
static double
us_between(const struct timespec *a, const struct timespec *b)
{
	return ((double)(b->tv_sec - a->tv_sec) * 1e6 +
	    (double)(b->tv_nsec - a->tv_nsec) / 1e3);
}

/* CPU time used by this process (not its children), in seconds. */
static double
self_cpu(void)
{
	struct rusage	ru;

	getrusage(RUSAGE_SELF, &ru);
	return ((double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	    (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
}

/* Monotonic seconds. */
static double
now_s(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec + ts.tv_nsec / 1e9);
}

/* Sort helper. */
static int
cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return (x < y ? -1 : x > y);
}

/*
 * One 1 ms loop like the daemon's, timing procs_enforce on the ticks where
 * an engine CPU changed task.
 */
static void
run(struct harness *h, int ms, int sample)
{
	struct timespec		 next, a, b;
	struct engine_cpu_info	 ci;
	struct engine_task_info	 ti;
	int			 i, c, k, changed, r[2], u[2];

	clock_gettime(CLOCK_MONOTONIC, &next);
	for (i = 0; i < ms; i++) {
		if (sample && i % 2 == 0 && harness_since_enforce(h) >= 300) {
			/* Real tasks seen R, by the engine CPU they are on. */
			r[0] = r[1] = u[0] = u[1] = 0;
			for (k = 1; k <= NTASKS; k++) {
				if (!harness_running(pids[k]))
					continue;
				engine_task_info(h->e, ids[k], &ti);
				if (ti.cpu < 0)
					continue;
				r[ti.cpu]++;
				if (ti.state == ENGINE_RUNNABLE)
					u[ti.cpu]++;
			}
			samples++;
			if (r[0] >= 2 || r[1] >= 2)
				doubled++;
			if (u[0] >= 2 || u[1] >= 2)
				doubled_unstopped++;
		}
		clock_gettime(CLOCK_MONOTONIC, &a);
		if (sigchld) {
			sigchld = 0;
			procs_reap(h->ps);
		}
		clock_gettime(CLOCK_MONOTONIC, &b);
		t_reap += us_between(&a, &b);
		procs_observe(h->ps);
		clock_gettime(CLOCK_MONOTONIC, &a);
		t_observe += us_between(&b, &a);
		engine_tick(h->e);
		clock_gettime(CLOCK_MONOTONIC, &b);
		t_tick += us_between(&a, &b);
		changed = 0;
		for (c = 0; c < 2; c++) {
			engine_cpu_info(h->e, c, &ci);
			if (ci.task != last_task[c])
				changed = 1;
			last_task[c] = ci.task;
		}
		clock_gettime(CLOCK_MONOTONIC, &a);
		procs_enforce(h->ps);
		clock_gettime(CLOCK_MONOTONIC, &b);
		h->enforced = b;
		t_enforce += us_between(&a, &b);
		nticks++;
		if (changed && nswitch < maxswitch)
			switch_us[nswitch++] = us_between(&a, &b);
		harness_next_ms(&next);
		harness_wait(h, &next, 1);
	}
}

/* The CPU use of a bare 1 ms clock_nanosleep loop: the floor. */
static double
bare_loop(int ms)
{
	struct timespec	next;
	double		t0, c0;
	int		i;

	t0 = now_s();
	c0 = self_cpu();
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (i = 0; i < ms; i++) {
		harness_next_ms(&next);
		harness_wait(NULL, &next, 0);
	}
	return (100.0 * (self_cpu() - c0) / (now_s() - t0));
}

/* The results of one mix of tasks. */
struct result {
	int	hogs, inter, proc;
	const char *observe;
	int	switches;
	double	sw50, sw90, sw99;	/* us */
	double	cpu, bare;		/* % of a core */
	double	tr, to, tt, te;		/* us per tick */
	int	samples, doubled, doubled_known;
	double	errmean, errmax;	/* points */
	size_t	wakes;			/* acted on at once */
	double	wake50, wake99;		/* us */
	uint64_t stolen;		/* ms, all tasks, over SAMPLE_MS */
};

/* The harness, with observation forced to /proc polling if proc. */
static void
bench_init(struct harness *h, const int *map, int proc)
{
	struct procs_config	 conf;

	memset(&conf, 0, sizeof conf);
	conf.map = map;
	conf.nmap = 2;
	conf.cgroups = 1;
	conf.observe_proc = proc;
	harness_init_conf(h, 2, &conf);
}

/* The stolen ms of every task so far. */
static uint64_t
stolen_all(struct harness *h)
{
	struct procs_info	info;
	uint64_t		sum = 0;
	int			k;

	for (k = 1; k <= NTASKS; k++) {
		if (procs_info(h->ps, ids[k], &info) == 0)
			sum += info.stolen_ms;
	}
	return (sum);
}

/* Run one mix: hogs stairs-load hogs and 50 - hogs interactive ones. */
static void
bench(int hogs, int proc, struct result *res)
{
	struct harness		 h;
	struct procs_info	 info;
	struct engine_task_info	 ti;
	uint64_t		 cpu0[NTASKS + 1], ran0[NTASKS + 1];
	uint64_t		 cpu[NTASKS + 1], ran[NTASKS + 1];
	uint64_t		 cpusum = 0, ransum = 0, med, p99, st0;
	double			 t0, c0, wall, used, a, b, err;
	char			 name[32];
	int			 map[2] = { 0, 1 }, k, n;

	memset(res, 0, sizeof *res);
	res->hogs = nhogs = hogs;
	res->inter = NTASKS - hogs;
	res->proc = proc;
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		map[1] = 0;
	bench_init(&h, map, proc);
	res->observe = procs_observe_mode(h.ps);
	nswitch = samples = doubled = doubled_unstopped = 0;
	last_task[0] = last_task[1] = 0;
	for (k = 1; k <= NTASKS; k++) {
		snprintf(name, sizeof name, "%s%d", k <= hogs ? "hog" :
		    "inter", k);
		ids[k] = k <= hogs ? harness_load(&h, name, "1000000", "0") :
		    harness_load(&h, name, "2", "40");
		pids[k] = harness_pid(&h, ids[k]);
	}
	run(&h, 300, 0);
	res->bare = bare_loop(2000);

	/* The loop's own CPU use, no sampling. */
	t_reap = t_observe = t_tick = t_enforce = 0;
	nticks = 0;
	t0 = now_s();
	c0 = self_cpu();
	run(&h, CPU_MS, 0);
	wall = now_s() - t0;
	used = self_cpu() - c0;
	res->cpu = 100.0 * used / wall;
	n = res->switches = nswitch;
	res->tr = t_reap / nticks;
	res->to = t_observe / nticks;
	res->tt = t_tick / nticks;
	res->te = t_enforce / nticks;
	qsort(switch_us, n, sizeof *switch_us, cmp_double);
	if (n > 0) {
		res->sw50 = switch_us[n / 2];
		res->sw90 = switch_us[n * 9 / 10];
		res->sw99 = switch_us[n * 99 / 100];
	}

	/* Two running on one engine CPU, and shares (hogs only). */
	for (k = 1; k <= hogs; k++) {
		procs_info(h.ps, ids[k], &info);
		cpu0[k] = info.cputime_ns;
		ran0[k] = harness_info(&h, ids[k]).ran;
	}
	nswitch = maxswitch;	/* stop timing */
	st0 = stolen_all(&h);
	run(&h, SAMPLE_MS, 1);
	res->stolen = stolen_all(&h) - st0;
	res->wakes = procs_wake_delay(h.ps, &med, &p99);
	res->wake50 = (double)med / 1e3;
	res->wake99 = (double)p99 / 1e3;
	for (k = 1; k <= hogs; k++) {
		procs_info(h.ps, ids[k], &info);
		engine_task_info(h.e, ids[k], &ti);
		cpu[k] = info.cputime_ns - cpu0[k];
		ran[k] = ti.ran - ran0[k];
		cpusum += cpu[k];
		ransum += ran[k];
	}
	for (k = 1; k <= hogs; k++) {
		a = 100.0 * (double)cpu[k] / (double)(cpusum ? cpusum : 1);
		b = 100.0 * (double)ran[k] / (double)(ransum ? ransum : 1);
		err = a > b ? a - b : b - a;
		res->errmean += err / hogs;
		if (err > res->errmax)
			res->errmax = err;
	}
	res->samples = samples;
	res->doubled = doubled;
	res->doubled_known = doubled_unstopped;
	harness_done(&h);
}

/* Median, p99 and mean of n samples (sorted in place). */
static void
stats(double *v, int n, double *med, double *p99, double *mean)
{
	int	i;

	*med = *p99 = *mean = 0;
	if (n == 0)
		return;
	qsort(v, n, sizeof *v, cmp_double);
	*med = v[n / 2];
	*p99 = v[n * 99 / 100];
	for (i = 0; i < n; i++)
		*mean += v[i] / n;
}

/*
 * What holding control costs per tick with NTASKS children held stopped
 * (procs_hold): the waitpid(WNOHANG | WCONTINUED) poll that sees a
 * continue from outside, timed as procs_reap with nothing to report.
 */
static void
bench_poll(double *med, double *p99)
{
	struct harness		 h;
	struct procs_config	 conf;
	double			 v[2000], mean;
	struct timespec		 a, b;
	char			 name[16];
	int			 k, i;

	memset(&conf, 0, sizeof conf);
	harness_init_conf(&h, 1, &conf);
	for (k = 1; k <= NTASKS; k++) {
		snprintf(name, sizeof name, "t%d", k);
		harness_load(&h, name, "1000000", "0");
	}
	harness_run(&h, 100, NULL, NULL);
	procs_hold(h.ps);
	for (i = 0; i < 2000; i++) {
		clock_gettime(CLOCK_MONOTONIC, &a);
		procs_reap(h.ps);
		clock_gettime(CLOCK_MONOTONIC, &b);
		v[i] = us_between(&a, &b);
	}
	stats(v, 2000, med, p99, &mean);
	harness_done(&h);
}

/*
 * procs_observe per tick with one running task (alone on one engine CPU)
 * whose tree has n processes: a busy perl that forked n - 1 sleepers.
 * Its cost should not grow with n (the window of proc-sample.c).
 */
static void
bench_tree(int n, int *tracked, double *med, double *mean)
{
	struct harness		 h;
	struct procs_config	 conf;
	struct procs_info	 info;
	struct timespec		 next, a, b;
	double			 v[1000], p99;
	char			 prog[160];
	char			*argv[] = { "perl", "-e", prog, NULL };
	int			 id, i;

	snprintf(prog, sizeof prog, "for (2..%d) { my $p = fork; if "
	    "(defined $p && $p == 0) { sleep 1000; exit } } 1 while 1", n);
	memset(&conf, 0, sizeof conf);
	harness_init_conf(&h, 1, &conf);
	id = harness_spawn_cpus(&h, "tree", NULL, -1, argv);
	harness_run(&h, 1500, NULL, NULL);	/* forked, swept, tracked */
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (i = 0; i < 1000; i++) {
		if (sigchld) {
			sigchld = 0;
			procs_reap(h.ps);
		}
		clock_gettime(CLOCK_MONOTONIC, &a);
		procs_observe(h.ps);
		clock_gettime(CLOCK_MONOTONIC, &b);
		v[i] = us_between(&a, &b);
		engine_tick(h.e);
		procs_enforce(h.ps);
		clock_gettime(CLOCK_MONOTONIC, &h.enforced);
		harness_next_ms(&next);
		harness_wait(&h, &next, 1);
	}
	stats(v, 1000, med, &p99, mean);
	*tracked = procs_info(h.ps, id, &info) == 0 ? info.procs : 0;
	harness_done(&h);
}

/*
 * Against the kernel alone.  The children count work units in a shared
 * file, each in a slot of its own cache line; one unit is stairs-load's
 * burn step (2000 steps of an LCG, then a CPU clock read).
 */
#define LOST_HOGS	40
#define LOST_INTER	10
#define LOST_TASKS	(LOST_HOGS + LOST_INTER)
#define LOST_WARM_MS	500
#define LOST_MS		2000
#define LOST_ROUNDS	6
#define SLOT_WORDS	8		/* 64 bytes a slot */
#define WORK_SIZE	(LOST_TASKS * SLOT_WORDS * sizeof(uint64_t))
#define CYC_ROUNDS	3
#define CYC_S		4		/* cyclictest -D, per round */
#define CYC_HIST	200000		/* its histogram's range, µs */

enum { MODE_KERNEL, MODE_EVENTS, MODE_PROC, NMODES };

/* A work-counting child: bench_proc --work FILE SLOT RUN_MS SLEEP_MS. */
static int
work_main(char **argv)
{
	static volatile uint64_t	 sink;
	volatile uint64_t		*map, *slot;
	struct timespec			 ts;
	long long			 run, slp;
	uint64_t			 end, x, n = 0;
	int				 fd, idx, i;

	idx = atoi(argv[3]);
	run = atoll(argv[4]);
	slp = atoll(argv[5]);
	if (idx < 0 || idx >= LOST_TASKS || (fd = open(argv[2], O_RDWR)) == -1)
		return (1);
	map = mmap(NULL, WORK_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
	    0);
	close(fd);
	if (map == MAP_FAILED)
		return (1);
	slot = &map[idx * SLOT_WORDS];
	x = sink;
	for (;;) {
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
		end = (uint64_t)ts.tv_sec * 1000000000ULL +
		    (uint64_t)ts.tv_nsec + (uint64_t)run * 1000000ULL;
		do {
			for (i = 0; i < 2000; i++)
				x = x * 6364136223846793005ULL +
				    1442695040888963407ULL;
			sink = x;
			__atomic_store_n(slot, ++n, __ATOMIC_RELAXED);
			clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
		} while ((uint64_t)ts.tv_sec * 1000000000ULL +
		    (uint64_t)ts.tv_nsec < end);
		if (slp > 0) {
			ts.tv_sec = slp / 1000;
			ts.tv_nsec = (slp % 1000) * 1000000L;
			nanosleep(&ts, NULL);
		}
	}
}

/* The work units counted so far by all the children. */
static uint64_t
work_sum(volatile uint64_t *map)
{
	uint64_t	sum = 0;
	int		k;

	for (k = 0; k < LOST_TASKS; k++)
		sum += __atomic_load_n(&map[k * SLOT_WORDS], __ATOMIC_RELAXED);
	return (sum);
}

/* The CPU time of processes, in seconds (gone ones count 0). */
static double
pids_cpu(const pid_t *p, int n)
{
	struct timespec	ts;
	clockid_t	clk;
	double		sum = 0;
	int		k;

	for (k = 0; k < n; k++) {
		if (p[k] > 0 && clock_getcpuclockid(p[k], &clk) == 0 &&
		    clock_gettime(clk, &ts) == 0)
			sum += (double)ts.tv_sec + ts.tv_nsec / 1e9;
	}
	return (sum);
}

/*
 * Busy (user, nice, system, irq, softirq, steal) and idle (idle, iowait)
 * seconds of physical CPUs cpus[0..n-1], from /proc/stat.
 */
static void
cpus_time(const int *cpus, int n, double *busy, double *idle)
{
	FILE			*f;
	char			 line[512];
	unsigned long long	 v[8];
	double			 hz = (double)sysconf(_SC_CLK_TCK);
	int			 cpu, k;

	*busy = *idle = 0;
	if ((f = fopen("/proc/stat", "r")) == NULL)
		return;
	while (fgets(line, sizeof line, f) != NULL) {
		if (sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu "
		    "%llu", &cpu, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
		    &v[6], &v[7]) != 9)
			continue;
		for (k = 0; k < n; k++) {
			if (cpus[k] != cpu)
				continue;
			*busy += (double)(v[0] + v[1] + v[2] + v[5] + v[6] +
			    v[7]) / hz;
			*idle += (double)(v[3] + v[4]) / hz;
		}
	}
	fclose(f);
}

/*
 * Fork and exec argv (PATH searched) under the kernel alone: allowed on physical CPUs
 * cpus[0..n-1] only, SCHED_OTHER at nice 0, output to /dev/null, killed
 * if we die.  Its pid, or -1.
 */
static pid_t
kernel_spawn(char *const argv[], const int *cpus, int n)
{
	struct sched_param	sp = { .sched_priority = 0 };
	cpu_set_t		set;
	pid_t			pid;
	int			fd, k;

	if ((pid = fork()) != 0)
		return (pid);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	sched_setscheduler(0, SCHED_OTHER, &sp);
	setpriority(PRIO_PROCESS, 0, 0);
	CPU_ZERO(&set);
	for (k = 0; k < n; k++)
		CPU_SET(cpus[k], &set);
	sched_setaffinity(0, sizeof set, &set);
	if ((fd = open("/dev/null", O_RDWR)) != -1) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	execvp(argv[0], argv);
	_exit(127);
}

/* Kill and reap the kernel-alone children. */
static void
kernel_kill(pid_t *p, int n)
{
	int	k;

	for (k = 0; k < n; k++) {
		if (p[k] > 0)
			kill(p[k], SIGKILL);
	}
	for (k = 0; k < n; k++) {
		if (p[k] > 0)
			waitpid(p[k], NULL, 0);
		p[k] = 0;
	}
}

/* Sleep ms milliseconds. */
static void
sleep_ms(int ms)
{
	struct timespec	ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/* One mode's measurement of one round. */
struct lost_run {
	double	units;		/* work units a second */
	double	cpu;		/* children's CPU, % of the 2 CPUs */
	double	loop;		/* this loop's CPU, % of a core */
	double	others;		/* the rest of the 2 CPUs' busy time, % */
	double	idle;		/* % of the 2 CPUs */
};

/*
 * One window of LOST_MS with LOST_HOGS hogs and LOST_INTER interactive
 * (--run 2 --sleep 40) work-counting children on physical CPUs map[0..1]:
 * under the kernel alone, or under stairs (2 engine CPUs, 1 ms tick,
 * events or /proc).  The observation mode used goes to *observe.
 */
static void
lost_window(int mode, const char *self, const char *file,
    volatile uint64_t *map, const int *cpus, struct lost_run *out,
    const char **observe)
{
	struct harness	 h;
	pid_t		 p[LOST_TASKS];
	char		 name[32], slot[16];
	char		*argv[] = { (char *)self, "--work", (char *)file, slot,
			    NULL, NULL, NULL };
	double		 u0, c0, s0, b0, i0, t0, u1, c1, s1, b1, i1, wall;
	int		 k;

	memset((void *)map, 0, WORK_SIZE);
	if (mode != MODE_KERNEL) {
		bench_init(&h, cpus, mode == MODE_PROC);
		*observe = procs_observe_mode(h.ps);
	}
	for (k = 0; k < LOST_TASKS; k++) {
		snprintf(slot, sizeof slot, "%d", k);
		argv[4] = k < LOST_HOGS ? "1000000" : "2";
		argv[5] = k < LOST_HOGS ? "0" : "40";
		if (mode == MODE_KERNEL) {
			p[k] = kernel_spawn(argv, cpus, 2);
			continue;
		}
		snprintf(name, sizeof name, "%s%d", k < LOST_HOGS ? "hog" :
		    "inter", k);
		p[k] = harness_pid(&h, harness_spawn_cpus(&h, name, NULL, -1,
		    argv));
	}
	if (mode == MODE_KERNEL)
		sleep_ms(LOST_WARM_MS);
	else
		harness_run_loop(&h, LOST_WARM_MS, NULL, NULL, 1);
	u0 = (double)work_sum(map);
	c0 = pids_cpu(p, LOST_TASKS);
	s0 = self_cpu();
	cpus_time(cpus, 2, &b0, &i0);
	t0 = now_s();
	if (mode == MODE_KERNEL)
		sleep_ms(LOST_MS);
	else
		harness_run_loop(&h, LOST_MS, NULL, NULL, 1);
	wall = now_s() - t0;
	u1 = (double)work_sum(map);
	c1 = pids_cpu(p, LOST_TASKS);
	s1 = self_cpu();
	cpus_time(cpus, 2, &b1, &i1);
	out->units = (u1 - u0) / wall;
	out->cpu = 100.0 * (c1 - c0) / (2 * wall);
	out->loop = 100.0 * (s1 - s0) / wall;
	out->others = 100.0 * ((b1 - b0) - (c1 - c0) - (s1 - s0)) /
	    (2 * wall);
	if (out->others < 0)
		out->others = 0;
	out->idle = 100.0 * (i1 - i0) / (2 * wall);
	if (mode == MODE_KERNEL)
		kernel_kill(p, LOST_TASKS);
	else
		harness_done(&h);
}

/* cyclictest's result, from its --json file. */
struct cyc {
	int	 ok;
	long	 cycles;
	double	 avg, max;	/* µs */
	double	*lat;		/* each cycle's latency from the histogram */
	int	 nlat;		/* < cycles: the rest were past CYC_HIST */
	char	 why[160];	/* when not ok */
};

/* A number after "key": in s, or -1. */
static double
json_number(const char *s, const char *key)
{
	char		 k[32];
	const char	*p;

	snprintf(k, sizeof k, "\"%s\":", key);
	if ((p = strstr(s, k)) == NULL)
		return (-1);
	return (strtod(p + strlen(k), NULL));
}

/*
 * Read cyclictest's JSON file: thread 0's cycles, avg and max, and its
 * histogram ("histogram": { "US": COUNT, ... }, 1 µs buckets up to
 * CYC_HIST) as one latency a cycle.
 */
static void
cyc_read(const char *path, struct cyc *c)
{
	static char	 buf[1 << 20];
	const char	*t, *h;
	char		*end;
	FILE		*f;
	size_t		 n;
	long		 us, count;

	if ((f = fopen(path, "r")) == NULL) {
		snprintf(c->why, sizeof c->why, "%s: %s", path,
		    strerror(errno));
		return;
	}
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	if ((t = strstr(buf, "\"thread\"")) == NULL) {
		snprintf(c->why, sizeof c->why, "no result in %s", path);
		return;
	}
	c->cycles = (long)json_number(t, "cycles");
	c->avg = json_number(t, "avg");
	c->max = json_number(t, "max");
	if (c->cycles <= 0 || c->avg < 0 || c->max < 0) {
		snprintf(c->why, sizeof c->why, "bad result in %s", path);
		return;
	}
	c->lat = xcalloc(c->cycles, sizeof *c->lat);
	if ((h = strstr(t, "\"histogram\"")) != NULL &&
	    (h = strchr(h, '{')) != NULL) {
		for (h++; *h != '\0' && *h != '}'; h++) {
			if (*h != '"')
				continue;
			us = strtol(h + 1, &end, 10);
			if (*end != '"' || (h = strchr(end, ':')) == NULL)
				break;
			count = strtol(h + 1, &end, 10);
			h = end - 1;
			while (count-- > 0 && c->nlat < c->cycles)
				c->lat[c->nlat++] = (double)us;
		}
	}
	c->ok = 1;
}

/*
 * cyclictest -i 10000 -q -D CYC_S beside two stairs-load hogs, all on
 * physical CPU cpu: under the kernel alone (all three pinned there), or
 * as real tasks of a 1-CPU engine mapped to it (events or /proc).
 */
static void
cyc_run(int mode, const char *prog, int cpu, struct cyc *c,
    const char **observe)
{
	struct harness		 h;
	struct procs_config	 conf;
	struct procs_info	 info;
	pid_t			 hogs[2], pid;
	char			 json[64], dur[16], hist[16], jarg[80];
	char			 dir[PATH_MAX];
	char			 load[PATH_MAX + 32];
	char			*argv[] = { (char *)prog, "-i", "10000", "-q",
				    "-D", dur, "--default-system", "-h", hist,
				    "--histfile=/dev/null", jarg, NULL };
	char			*hargv[] = { load, "--run", "1000000",
				    "--sleep", "0", NULL };
	int			 map[1] = { cpu }, id, k, i;

	memset(c, 0, sizeof *c);
	snprintf(json, sizeof json, "/tmp/stairs-bench-ct-%ld.json",
	    (long)getpid());
	snprintf(dur, sizeof dur, "%d", CYC_S);
	snprintf(hist, sizeof hist, "%d", CYC_HIST);
	snprintf(jarg, sizeof jarg, "--json=%s", json);
	unlink(json);
	if (mode == MODE_KERNEL) {
		test_bindir("stairs-load", dir, sizeof dir);
		snprintf(load, sizeof load, "%s/stairs-load", dir);
		for (k = 0; k < 2; k++)
			hogs[k] = kernel_spawn(hargv, map, 1);
		sleep_ms(200);
		if ((pid = kernel_spawn(argv, map, 1)) > 0)
			waitpid(pid, NULL, 0);
		kernel_kill(hogs, 2);
	} else {
		memset(&conf, 0, sizeof conf);
		conf.map = map;
		conf.nmap = 1;
		conf.cgroups = 1;
		conf.observe_proc = mode == MODE_PROC;
		harness_init_conf(&h, 1, &conf);
		*observe = procs_observe_mode(h.ps);
		harness_load(&h, "hog1", "1000000", "0");
		harness_load(&h, "hog2", "1000000", "0");
		harness_run_loop(&h, 200, NULL, NULL, 1);
		id = harness_spawn_cpus(&h, "cyclictest", NULL, -1, argv);
		for (i = 0; i < (CYC_S + 20) * 10; i++) {
			if (procs_info(h.ps, id, &info) == 0 && info.exited)
				break;
			harness_run_loop(&h, 100, NULL, NULL, 1);
		}
		harness_done(&h);
	}
	cyc_read(json, c);
	unlink(json);
}

/* The median of n values (sorted in place). */
static double
median(double *v, int n)
{
	qsort(v, n, sizeof *v, cmp_double);
	return (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2);
}

/* Print "median (min-max)" of n values with fmt for each. */
static void
print_range(double *v, int n, const char *fmt, const char *unit)
{
	double	m = median(v, n);

	printf(" ");
	printf(fmt, m);
	printf("%s (", unit);
	printf(fmt, v[0]);
	printf("–");
	printf(fmt, v[n - 1]);
	printf(") |");
}

/* Print "median; a, b, c, ..." of n values in round order. */
static void
print_rounds(double *v, int n, const char *fmt, const char *unit)
{
	double	sorted[LOST_ROUNDS];
	int	i;

	memcpy(sorted, v, n * sizeof *v);
	printf(" ");
	printf(fmt, median(sorted, n));
	printf("%s;", unit);
	for (i = 0; i < n; i++) {
		printf("%s", i ? ", " : " ");
		printf(fmt, v[i]);
	}
	printf(" |");
}

/* Work units per ms of the children's CPU time. */
static double
lost_eff(const struct lost_run *l)
{
	return (l->cpu > 0 ? l->units / (l->cpu / 100.0 * 2 * 1000) : 0);
}

/*
 * The lost work stairs would show with the 2 CPUs to itself, whatever
 * the machine's other load took: its children's work per CPU-ms against
 * the kernel's in the same round, on what is left of the 2 CPUs once
 * its loop has run and the idle time it left is taken out (with the
 * CPUs to themselves, 40 hogs under the kernel alone leave none).
 */
static double
lost_alone(const struct lost_run *s, const struct lost_run *k)
{
	double	ke = lost_eff(k);

	if (ke <= 0)
		return (0);
	return (1 - lost_eff(s) / ke * (1 - (s->loop / 2 + s->idle) / 100));
}

/* cyclictest's rounds of one mode, together. */
struct cyc_total {
	int	 ok;
	long	 cycles;
	double	 avg, max, med;	/* µs */
	double	 p99;		/* -1: past the histogram */
	char	 why[160];
};

/* Sum up n = CYC_ROUNDS rounds. */
static void
cyc_sum(const struct cyc *c, struct cyc_total *t)
{
	double	*all, sum = 0;
	int	 n = 0, r, i;

	memset(t, 0, sizeof *t);
	for (r = 0; r < CYC_ROUNDS; r++) {
		if (!c[r].ok) {
			snprintf(t->why, sizeof t->why, "%s", c[r].why);
			return;
		}
		t->cycles += c[r].cycles;
		sum += c[r].avg * (double)c[r].cycles;
		if (c[r].max > t->max)
			t->max = c[r].max;
	}
	all = xcalloc(t->cycles, sizeof *all);
	for (r = 0; r < CYC_ROUNDS; r++) {
		for (i = 0; i < c[r].nlat; i++)
			all[n++] = c[r].lat[i];
	}
	/* Cycles past the histogram are the largest. */
	qsort(all, n, sizeof *all, cmp_double);
	t->avg = sum / (double)t->cycles;
	t->med = t->cycles / 2 < n ? all[t->cycles / 2] : -1;
	t->p99 = t->cycles * 99 / 100 < n ? all[t->cycles * 99 / 100] : -1;
	t->ok = 1;
	free(all);
}

/*
 * The children's lost work and cyclictest, against the kernel alone
 * (docs/BENCH.md, "Against the kernel alone").  Rounds rotate the order
 * of the modes, so that a change in the machine's other load falls on
 * all of them.
 */
static void
against_kernel(void)
{
	static const char	*mname[NMODES] = { "kernel alone", "stairs",
				    "stairs" };
	struct lost_run		 lr[NMODES][LOST_ROUNDS];
	struct cyc		 cr[NMODES][CYC_ROUNDS];
	struct cyc_total	 cs[NMODES];
	const char		*observe[NMODES] = { NULL, "?", "?" };
	volatile uint64_t	*map;
	double			 v[LOST_ROUNDS];
	char			 self[PATH_MAX], file[64];
	const char		*prog;
	char			*cause = NULL;
	ssize_t			 n;
	int			 cpus[2] = { 0, 1 }, fd, m, r;

	if ((n = readlink("/proc/self/exe", self, sizeof self - 1)) <= 0) {
		fprintf(stderr, "bench_proc: /proc/self/exe: %s\n",
		    strerror(errno));
		exit(1);
	}
	self[n] = '\0';
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		cpus[1] = 0;
	snprintf(file, sizeof file, "/tmp/stairs-bench-work-%ld",
	    (long)getpid());
	if ((fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0600)) == -1 ||
	    ftruncate(fd, WORK_SIZE) != 0 || (map = mmap(NULL, WORK_SIZE,
	    PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) == MAP_FAILED) {
		fprintf(stderr, "bench_proc: %s: %s\n", file,
		    strerror(errno));
		exit(1);
	}
	close(fd);
	for (r = 0; r < LOST_ROUNDS; r++) {
		for (m = 0; m < NMODES; m++)
			lost_window((r + m) % NMODES, self, file, map, cpus,
			    &lr[(r + m) % NMODES][r], &observe[(r + m) %
			    NMODES]);
	}
	munmap((void *)map, WORK_SIZE);
	unlink(file);

	printf("\nAgainst the kernel alone: %d hogs + %d interactive "
	    "(--run 2 --sleep 40) children counting work units for %d s, "
	    "on CPUs %d,%d; %d rounds, median (min–max)\n", LOST_HOGS,
	    LOST_INTER, LOST_MS / 1000, cpus[0], cpus[1], LOST_ROUNDS);
	printf("| what |");
	for (m = 0; m < NMODES; m++)
		printf(" %s%s%s%s |", mname[m], m ? ", observe=" : "",
		    m ? observe[m] : "", m == MODE_PROC ? " (forced)" : "");
	printf("\n|---|");
	for (m = 0; m < NMODES; m++)
		printf("---|");
	printf("\n| work units a second, millions |");
	for (m = 0; m < NMODES; m++) {
		for (r = 0; r < LOST_ROUNDS; r++)
			v[r] = lr[m][r].units / 1e6;
		print_range(v, LOST_ROUNDS, "%.2f", "");
	}
	printf("\n| lost work against the kernel alone, same round (goal "
	    "< 2 %%); each round |");
	for (m = 0; m < NMODES; m++) {
		if (m == MODE_KERNEL) {
			printf(" - |");
			continue;
		}
		for (r = 0; r < LOST_ROUNDS; r++)
			v[r] = 100.0 * (1 - lr[m][r].units /
			    (lr[MODE_KERNEL][r].units > 0 ?
			    lr[MODE_KERNEL][r].units : 1));
		print_rounds(v, LOST_ROUNDS, "%.1f", " %");
	}
	printf("\n| work units per ms of the children's CPU time |");
	for (m = 0; m < NMODES; m++) {
		for (r = 0; r < LOST_ROUNDS; r++)
			v[r] = lost_eff(&lr[m][r]);
		print_range(v, LOST_ROUNDS, "%.1f", "");
	}
	printf("\n| work lost per ms of the children's CPU time, against "
	    "the kernel alone, same round; each round |");
	for (m = 0; m < NMODES; m++) {
		if (m == MODE_KERNEL) {
			printf(" - |");
			continue;
		}
		for (r = 0; r < LOST_ROUNDS; r++)
			v[r] = 100.0 * (1 - lost_eff(&lr[m][r]) /
			    lost_eff(&lr[MODE_KERNEL][r]));
		print_rounds(v, LOST_ROUNDS, "%.1f", " %");
	}
	printf("\n| lost work with the 2 CPUs to itself (estimate): 1 - "
	    "(1 - the row above) x (1 - loop's CPU / 2 - idle); each round "
	    "|");
	for (m = 0; m < NMODES; m++) {
		if (m == MODE_KERNEL) {
			printf(" - |");
			continue;
		}
		for (r = 0; r < LOST_ROUNDS; r++)
			v[r] = 100.0 * lost_alone(&lr[m][r],
			    &lr[MODE_KERNEL][r]);
		print_rounds(v, LOST_ROUNDS, "%.1f", " %");
	}
	printf("\n| children's CPU time, %% of the 2 CPUs |");
	for (m = 0; m < NMODES; m++) {
		for (r = 0; r < LOST_ROUNDS; r++)
			v[r] = lr[m][r].cpu;
		print_range(v, LOST_ROUNDS, "%.1f", " %");
	}
	printf("\n| the loop's CPU time, %% of a core |");
	for (m = 0; m < NMODES; m++) {
		for (r = 0; r < LOST_ROUNDS; r++)
			v[r] = lr[m][r].loop;
		print_range(v, LOST_ROUNDS, "%.2f", " %");
	}
	printf("\n| other processes on the 2 CPUs (/proc/stat busy, steal "
	    "included, less ours), %% |");
	for (m = 0; m < NMODES; m++) {
		for (r = 0; r < LOST_ROUNDS; r++)
			v[r] = lr[m][r].others;
		print_range(v, LOST_ROUNDS, "%.1f", " %");
	}
	printf("\n| idle, %% of the 2 CPUs |");
	for (m = 0; m < NMODES; m++) {
		for (r = 0; r < LOST_ROUNDS; r++)
			v[r] = lr[m][r].idle;
		print_range(v, LOST_ROUNDS, "%.1f", " %");
	}
	printf("\n");
	fflush(stdout);

	if (procs_lookup(NULL, "cyclictest", &cause) != 0) {
		printf("\ncyclictest: skipped (%s; it is in rt-tests, which "
		    "`make bench` installs when run as root)\n", cause);
		free(cause);
		return;
	}
	prog = "cyclictest";	/* found in PATH, by procs_spawn too */
	for (r = 0; r < CYC_ROUNDS; r++) {
		for (m = 0; m < NMODES; m++)
			cyc_run((r + m) % NMODES, prog, cpus[0],
			    &cr[(r + m) % NMODES][r], &observe[(r + m) %
			    NMODES]);
	}
	printf("\ncyclictest -i 10000 -q -D %d --default-system -h %d "
	    "(SCHED_OTHER, nice 0) beside two stairs-load hogs, all on CPU "
	    "%d; %d rounds together\n", CYC_S, CYC_HIST, cpus[0], CYC_ROUNDS);
	printf("| what |");
	for (m = 0; m < NMODES; m++)
		printf(" %s%s%s%s |", mname[m], m ? ", observe=" : "",
		    m ? observe[m] : "", m == MODE_PROC ? " (forced)" : "");
	printf("\n|---|");
	for (m = 0; m < NMODES; m++)
		printf("---|");
	for (m = 0; m < NMODES; m++)
		cyc_sum(cr[m], &cs[m]);
	printf("\n| wake-up latency, avg / max |");
	for (m = 0; m < NMODES; m++) {
		if (!cs[m].ok)
			printf(" failed: %s |", cs[m].why);
		else
			printf(" %.0f µs / %.0f µs |", cs[m].avg, cs[m].max);
	}
	printf("\n| median / p99 (cyclictest's histogram) |");
	for (m = 0; m < NMODES; m++) {
		if (!cs[m].ok) {
			printf(" - |");
			continue;
		}
		printf(" %.0f µs / ", cs[m].med);
		if (cs[m].p99 < 0)
			printf("over %d µs |", CYC_HIST);
		else
			printf("%.0f µs |", cs[m].p99);
	}
	printf("\n| cycles; avg of each round |");
	for (m = 0; m < NMODES; m++) {
		printf(" %ld;", cs[m].cycles);
		for (r = 0; r < CYC_ROUNDS; r++)
			printf("%s %.0f", r ? "," : "", cr[m][r].avg);
		printf(" µs |");
		for (r = 0; r < CYC_ROUNDS; r++)
			free(cr[m][r].lat);
	}
	printf("\n");
}

int
main(int argc, char **argv)
{
	struct result		 r[NRUNS];
	struct sigaction	 sa;
	static const int	 trees[] = { 5, 101, 121 };
	double			 pmed, pp99, tmed[3], tmean[3];
	int			 rt, i, tracked[3];

	if (argc == 6 && strcmp(argv[1], "--work") == 0)
		return (work_main(argv));

	/* As the daemon does: reap on SIGCHLD, not told of stops. */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigchld;
	sa.sa_flags = SA_NOCLDSTOP | SA_RESTART;
	sigaction(SIGCHLD, &sa, NULL);
	log_init("bench_proc", 1, LOG_LEVEL_WARN);
	rt = harness_realtime() == 0;
	if (argc == 2 && strcmp(argv[1], "--kernel") == 0) {
		/* Only the tables against the kernel alone. */
		against_kernel();
		return (0);
	}
	maxswitch = 100000;
	switch_us = xcalloc(maxswitch, sizeof *switch_us);
	bench(50, 0, &r[0]);
	bench(40, 0, &r[1]);
	bench(40, 1, &r[2]);
	bench_poll(&pmed, &pp99);
	for (i = 0; i < 3; i++)
		bench_tree(trees[i], &tracked[i], &tmed[i], &tmean[i]);

	printf("Real processes: %d stairs-load tasks on 2 engine CPUs, 1 ms "
	    "tick, loop at %s; interactive = --run 2 --sleep 40\n", NTASKS,
	    rt ? "SCHED_FIFO 1" : "nice 0 (SCHED_FIFO refused)");
	printf("| what |");
	for (i = 0; i < NRUNS; i++)
		printf(" %d hogs, %d interactive, observe=%s%s |", r[i].hogs,
		    r[i].inter, r[i].observe, r[i].proc ? " (forced)" : "");
	printf("\n|---|");
	for (i = 0; i < NRUNS; i++)
		printf("---|");
	printf("\n| switch: procs_enforce on a tick where a "
	    "CPU changed task, median (p90, p99) |");
	for (i = 0; i < NRUNS; i++)
		printf(" %.1f µs (%.1f, %.1f), %d switches |", r[i].sw50,
		    r[i].sw90, r[i].sw99, r[i].switches);
	printf("\n| loop CPU use, getrusage over %d s (goal < 3 %%) |",
	    CPU_MS / 1000);
	for (i = 0; i < NRUNS; i++)
		printf(" %.2f %% |", r[i].cpu);
	printf("\n| of which a bare 1 ms clock_nanosleep loop |");
	for (i = 0; i < NRUNS; i++)
		printf(" %.2f %% |", r[i].bare);
	printf("\n| mean µs per tick: reap, observe, engine_tick, enforce |");
	for (i = 0; i < NRUNS; i++)
		printf(" %.1f, %.1f, %.1f, %.1f |", r[i].tr, r[i].to, r[i].tt,
		    r[i].te);
	printf("\n| samples (every 2 ms, %d s) with two running on one engine "
	    "CPU (R, no SIGSTOP pending; goal <= 1 %%) |", SAMPLE_MS / 1000);
	for (i = 0; i < NRUNS; i++)
		printf(" %d of %d (%.2f %%) |", r[i].doubled, r[i].samples,
		    r[i].samples ? 100.0 * r[i].doubled / r[i].samples : 0);
	printf("\n| same, not counting tasks that woke from a real sleep "
	    "before the engine saw it |");
	for (i = 0; i < NRUNS; i++)
		printf(" %d of %d (%.2f %%) |", r[i].doubled_known,
		    r[i].samples, r[i].samples ? 100.0 * r[i].doubled_known /
		    r[i].samples : 0);
	printf("\n| wake to stop/continue, from the event's time: median "
	    "(p99), wakes (goal median <= 50 µs) |");
	for (i = 0; i < NRUNS; i++) {
		if (r[i].wakes == 0)
			printf(" - (at the next tick) |");
		else
			printf(" %.0f µs (%.0f), %zu |", r[i].wake50,
			    r[i].wake99, r[i].wakes);
	}
	printf("\n| stolen, all %d tasks, over %d s |", NTASKS,
	    SAMPLE_MS / 1000);
	for (i = 0; i < NRUNS; i++)
		printf(" %llu ms |", (unsigned long long)r[i].stolen);
	printf("\n| CPU share error of the hogs, measured vs ran over %d s, "
	    "mean (max) |", SAMPLE_MS / 1000);
	for (i = 0; i < NRUNS; i++)
		printf(" %.2f (%.2f) points |", r[i].errmean, r[i].errmax);
	printf("\n\nHolding control, per tick:\n");
	printf("| what | µs |\n|---|---|\n");
	printf("| waitpid(WCONTINUED) poll (procs_reap, nothing to report), "
	    "%d children held stopped, median (p99) | %.1f (%.1f) |\n",
	    NTASKS, pmed, pp99);
	for (i = 0; i < 3; i++)
		printf("| procs_observe, one running task of %d tracked "
		    "processes, median (mean) | %.1f (%.1f) |\n", tracked[i],
		    tmed[i], tmean[i]);
	fflush(stdout);
	free(switch_us);
	against_kernel();
	return (0);
}
