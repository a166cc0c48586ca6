/*
 * bench_kernel.c -- stairs against the kernel alone, on real processes
 * (docs/BENCH.md, "Against the kernel alone"; issue 11, item 7):
 *
 * - the children's lost work: 40 hogs and 10 interactive tasks (--run 2
 *   --sleep 40) counting work units for 2 s, under the kernel alone
 *   (allowed on the same 2 CPUs by affinity) and under stairs (2 engine
 *   CPUs mapped to them, 1 ms tick: proc_harness.h's loop, which does
 *   what the daemon does around a tick and acts on wakes between ticks),
 *   with wakes seen from the kernel's events and with observation forced
 *   to /proc, in rounds whose order rotates;
 * - cyclictest (rt-tests) beside two hogs on one CPU, under the kernel
 *   alone and as a real task under stairs, events and /proc.
 *
 * The work-counting children are this program run again as
 * `bench_kernel --work FILE SLOT RUN_MS SLEEP_MS`.  Prints two tables.
 */
#include <sys/mman.h>

#include <stddef.h>
#include <stdint.h>

#include "proc_harness.h"

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

/* Stairs' modes: events every tick, events sleeping (the default). */
enum { MODE_KERNEL, MODE_EVENTS, MODE_SLEEPING, MODE_PROC, NMODES };

/* A work-counting child: bench_kernel --work FILE SLOT RUN_MS SLEEP_MS. */
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
 * Fork and exec argv (PATH searched) under the kernel alone: allowed on
 * physical CPUs cpus[0..n-1] only, SCHED_OTHER at nice 0, output to
 * /dev/null, killed if we die.  Its pid, or -1.
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
		harness_init_map(&h, cpus, 2, mode == MODE_PROC);
		procs_block_wakeups(h.ps, mode == MODE_SLEEPING);
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
		harness_run_clock(&h, LOST_WARM_MS, mode == MODE_SLEEPING,
		    NULL, NULL);
	u0 = (double)work_sum(map);
	c0 = pids_cpu(p, LOST_TASKS);
	s0 = harness_self_cpu();
	cpus_time(cpus, 2, &b0, &i0);
	t0 = harness_now();
	if (mode == MODE_KERNEL)
		sleep_ms(LOST_MS);
	else
		harness_run_clock(&h, LOST_MS, mode == MODE_SLEEPING, NULL,
		    NULL);
	wall = harness_now() - t0;
	u1 = (double)work_sum(map);
	c1 = pids_cpu(p, LOST_TASKS);
	s1 = harness_self_cpu();
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
 * as real tasks of a 1-CPU engine mapped to it (events or /proc), the
 * loop off that CPU where the machine has another (as the daemon's).
 */
static void
cyc_run(int mode, const char *prog, int cpu, struct cyc *c,
    const char **observe)
{
	struct harness		 h;
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
	cpu_set_t		 ours, off;

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
		harness_init_map(&h, map, 1, mode == MODE_PROC);
		/* The daemon's loop keeps off its children's CPU. */
		sched_getaffinity(0, sizeof ours, &ours);
		procs_off_cpus(h.ps, &ours, &off);
		sched_setaffinity(0, sizeof off, &off);
		procs_block_wakeups(h.ps, mode == MODE_SLEEPING);
		*observe = procs_observe_mode(h.ps);
		harness_load(&h, "hog1", "1000000", "0");
		harness_load(&h, "hog2", "1000000", "0");
		harness_run_clock(&h, 200, mode == MODE_SLEEPING, NULL, NULL);
		id = harness_spawn_cpus(&h, "cyclictest", NULL, -1, argv);
		for (i = 0; i < (CYC_S + 20) * 10; i++) {
			if (procs_info(h.ps, id, &info) == 0 && info.exited)
				break;
			harness_run_clock(&h, 100, mode == MODE_SLEEPING,
			    NULL, NULL);
		}
		harness_done(&h);
		sched_setaffinity(0, sizeof ours, &ours);
	}
	cyc_read(json, c);
	unlink(json);
}

/* The median of n values (sorted in place). */
static double
median(double *v, int n)
{
	qsort(v, n, sizeof *v, harness_cmp_double);
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
	qsort(all, n, sizeof *all, harness_cmp_double);
	t->avg = sum / (double)t->cycles;
	t->med = t->cycles / 2 < n ? all[t->cycles / 2] : -1;
	t->p99 = t->cycles * 99 / 100 < n ? all[t->cycles * 99 / 100] : -1;
	t->ok = 1;
	free(all);
}

/* A table's head: a column for each mode. */
static void
print_head(const char **observe)
{
	int	m;

	printf("| what | kernel alone |");
	for (m = MODE_KERNEL + 1; m < NMODES; m++)
		printf(" stairs, observe=%s%s |", observe[m],
		    m == MODE_PROC ? " (forced)" : m == MODE_SLEEPING ?
		    ", sleeping clock" : ", every tick");
	printf("\n|---|");
	for (m = 0; m < NMODES; m++)
		printf("---|");
}

/*
 * A row of the lost-work table: its value for one round of a mode, from
 * value, or without one the field at off.
 */
struct lost_row {
	const char	*what;
	double		(*value)(const struct lost_run *,
			    const struct lost_run *kernel);
	size_t		 off;
	int		 against;	/* of the kernel's: "-" there, rounds */
	const char	*fmt, *unit;
};

#define LOST_FIELD(f)	NULL, offsetof(struct lost_run, f)

static double
lost_row_units(const struct lost_run *l, const struct lost_run *k)
{
	return (l->units / 1e6);
}

static double
lost_row_lost(const struct lost_run *l, const struct lost_run *k)
{
	return (100.0 * (1 - l->units / (k->units > 0 ? k->units : 1)));
}

static double
lost_row_eff(const struct lost_run *l, const struct lost_run *k)
{
	return (lost_eff(l));
}

static double
lost_row_efflost(const struct lost_run *l, const struct lost_run *k)
{
	return (lost_eff(k) > 0 ? 100.0 * (1 - lost_eff(l) / lost_eff(k)) :
	    0);
}

static double
lost_row_alone(const struct lost_run *l, const struct lost_run *k)
{
	return (100.0 * lost_alone(l, k));
}

static const struct lost_row lost_rows[] = {
	{ "work units a second, millions", lost_row_units, 0, 0, "%.2f",
	    "" },
	{ "lost work against the kernel alone, same round (goal < 2 %); "
	    "each round", lost_row_lost, 0, 1, "%.1f", " %" },
	{ "work units per ms of the children's CPU time", lost_row_eff, 0, 0,
	    "%.1f", "" },
	{ "work lost per ms of the children's CPU time, against the kernel "
	    "alone, same round; each round", lost_row_efflost, 0, 1, "%.1f",
	    " %" },
	{ "lost work with the 2 CPUs to itself (estimate): 1 - (1 - the row "
	    "above) x (1 - loop's CPU / 2 - idle); each round",
	    lost_row_alone, 0, 1, "%.1f", " %" },
	{ "children's CPU time, % of the 2 CPUs", LOST_FIELD(cpu), 0, "%.1f",
	    " %" },
	{ "the loop's CPU time, % of a core", LOST_FIELD(loop), 0, "%.2f",
	    " %" },
	{ "other processes on the 2 CPUs (/proc/stat busy, steal included, "
	    "less ours), %", LOST_FIELD(others), 0, "%.1f", " %" },
	{ "idle, % of the 2 CPUs", LOST_FIELD(idle), 0, "%.1f", " %" },
};

/*
 * The children's lost work and cyclictest, against the kernel alone
 * (docs/BENCH.md, "Against the kernel alone").  Rounds rotate the order
 * of the modes, so that a change in the machine's other load falls on
 * all of them.
 */
static void
against_kernel(void)
{
	struct lost_run		 lr[NMODES][LOST_ROUNDS];
	struct cyc		 cr[NMODES][CYC_ROUNDS];
	struct cyc_total	 cs[NMODES];
	const char		*observe[NMODES] = { NULL, "?", "?", "?" };
	volatile uint64_t	*map;
	double			 v[LOST_ROUNDS];
	char			 self[PATH_MAX], file[64];
	const char		*prog;
	char			*cause = NULL;
	ssize_t			 n;
	const struct lost_row	*lrow;
	int			 cpus[2] = { 0, 1 }, fd, m, r, i;

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
	print_head(observe);
	for (i = 0; i < (int)(sizeof lost_rows / sizeof lost_rows[0]); i++) {
		lrow = &lost_rows[i];
		printf("\n| %s |", lrow->what);
		for (m = 0; m < NMODES; m++) {
			if (lrow->against && m == MODE_KERNEL) {
				printf(" - |");
				continue;
			}
			for (r = 0; r < LOST_ROUNDS; r++)
				v[r] = lrow->value != NULL ? lrow->value(
				    &lr[m][r], &lr[MODE_KERNEL][r]) :
				    *(const double *)((const char *)&lr[m][r] +
				    lrow->off);
			if (lrow->against)
				print_rounds(v, LOST_ROUNDS, lrow->fmt,
				    lrow->unit);
			else
				print_range(v, LOST_ROUNDS, lrow->fmt,
				    lrow->unit);
		}
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
	print_head(observe);
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
	struct sigaction	sa;

	if (argc == 6 && strcmp(argv[1], "--work") == 0)
		return (work_main(argv));
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = harness_on_sigchld;	/* the harness reaps */
	sa.sa_flags = SA_NOCLDSTOP | SA_RESTART;
	sigaction(SIGCHLD, &sa, NULL);
	log_init("bench_kernel", 1, LOG_LEVEL_WARN);
	harness_realtime();
	against_kernel();
	return (0);
}
