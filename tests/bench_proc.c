/*
 * bench_proc.c -- what enforcing the engine on real processes costs: the
 * time of a switch (the procs_enforce that stops one task and pins and
 * continues another), the CPU the 1 ms loop uses with 50 real tasks on 2
 * engine CPUs, how often two tasks of one engine CPU are seen running at
 * once, and how far measured CPU shares are from the engine's ran shares;
 * with wakes seen from the kernel's sched_waking events (acted on at once
 * from the loop, as the daemon does) and, side by side, with observation
 * forced to /proc polling.  Prints a table (docs/BENCH.md, "Real
 * processes").
 */
#include <pthread.h>

#include "monotonic.h"
#include "proc_harness.h"

#define NTASKS		50
#define SAMPLE_MS	3000
#define CPU_MS		5000
#define NRUNS		4

static int	 nhogs;
static int	 rt;		/* the loop at SCHED_FIFO 2, the sampler at 1 */
static int	 ids[NTASKS + 1];
static pid_t	 pids[NTASKS + 1];
static double	*switch_us;
static int	 nswitch, maxswitch;
static int	 samples, doubled, doubled_unstopped, doubled_again;
static int	 last_task[2];
static double	 t_observe, t_tick, t_enforce;
static int	 nticks;
static int	 nfull;		/* ticks observed and enforced */
static int	 ntimer;	/* the loop's wake-ups for a tick's time */

/* Microseconds between two times. */
static double
us_between(const struct timespec *a, const struct timespec *b)
{
	return ((double)(b->tv_sec - a->tv_sec) * 1e6 +
	    (double)(b->tv_nsec - a->tv_nsec) / 1e3);
}

/*
 * The sampler: a thread of its own, so that reading 50 tasks' /proc files
 * (400-600 µs) does not hold up the loop, which meanwhile acts on wakes as
 * the daemon would (sampled in the loop's own thread, a wake during the
 * read waited for it to end: docs/BENCH.md, "The sampler").  The loop
 * publishes what the engine says of each task after every tick, and when
 * a tick's switch last took a CPU from it: a task seen R that a switch
 * unpicked from 300 µs before the sample on is not counted (read before
 * its stop, or its stop still in flight), as the sample is not one
 * instant.  Asleep on a condition while not sampling (its CPU would
 * count in the loop's getrusage).
 */
static pthread_t	 sampler;
static pthread_mutex_t	 sampler_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t	 sampler_cv = PTHREAD_COND_INITIALIZER;
static int		 sampler_on, sampler_busy, sampler_quit;
static int		 pub_cpu[NTASKS + 1], pub_runnable[NTASKS + 1];
static uint64_t		 pub_unpicked[NTASKS + 1];	/* ns */
static int		 statfd[NTASKS + 1], statusfd[NTASKS + 1];

/* The bench's index of an engine task id, 0 if it is none of ours. */
static int
k_of(int id)
{
	int	k;

	for (k = 1; k <= NTASKS; k++) {
		if (ids[k] == id)
			return (k);
	}
	return (0);
}

/* Publish the engine's view of every task (the loop's thread). */
static void
publish(struct harness *h, const int *was)
{
	struct engine_task_info	ti;
	struct engine_cpu_info	ci;
	uint64_t		now = monotonic_ns();
	int			k, c;

	for (c = 0; c < 2; c++) {
		engine_cpu_info(h->e, c, &ci);
		if (was[c] != ci.task && (k = k_of(was[c])) > 0)
			__atomic_store_n(&pub_unpicked[k], now,
			    __ATOMIC_RELEASE);
	}
	for (k = 1; k <= NTASKS; k++) {
		engine_task_info(h->e, ids[k], &ti);
		__atomic_store_n(&pub_cpu[k], ti.cpu, __ATOMIC_RELAXED);
		__atomic_store_n(&pub_runnable[k], ti.state == ENGINE_RUNNABLE,
		    __ATOMIC_RELAXED);
	}
}

/* Read a /proc file kept open from its start; 0 if it could. */
static int
pread_text(int fd, char *buf, size_t size)
{
	ssize_t	n;

	if ((n = pread(fd, buf, size - 1, 0)) <= 0)
		return (-1);
	buf[n] = '\0';
	return (0);
}

/*
 * Is task k running or runnable, and not about to stop: its state letter
 * R, then at once not stopped (harness_running, through the two /proc
 * files kept open: a pread each; the 50 tasks are read in 250-400 µs
 * beside the hogs, against 410-640 for an open and read of each).
 */
static int
running_now(int k)
{
	char	buf[4096], state;

	return (pread_text(statfd[k], buf, sizeof buf) == 0 &&
	    proc_sample_parse(buf, &state, NULL) == 0 && state == 'R' &&
	    pread_text(statusfd[k], buf, sizeof buf) == 0 &&
	    proc_status_stopping(buf) == 0);
}

/*
 * A woken task let run at once on engine CPU cpu (procs_config.woke, in
 * the loop's thread): the engine has it where it slept until the next
 * tick, but it now belongs to cpu and is counted there.
 */
static void
on_woke(void *arg, int cpu, int task, int rank, uint64_t ns)
{
	int	k;

	if ((k = k_of(task)) > 0)
		__atomic_store_n(&pub_cpu[k], cpu, __ATOMIC_RELEASE);
}

/*
 * One sample: real tasks seen running, by the engine CPU they are on.
 * The engine's view is taken after the reads (a task woken and let run
 * during them belongs to the CPU it was let run on: on_woke); a task a
 * tick's switch unpicked from 300 µs before the reads to their end is
 * left out.
 */
static void
sample_once(void)
{
	uint64_t	t0 = monotonic_ns() - 300000, t1, un;
	int		k, c, n, r[2] = { 0, 0 }, u[2] = { 0, 0 };
	int		seen[NTASKS + 1], counted[NTASKS + 1];
	int		cpu[NTASKS + 1], runnable[NTASKS + 1];

	for (k = 1; k <= NTASKS; k++)
		seen[k] = running_now(k);
	t1 = monotonic_ns();
	for (k = 1; k <= NTASKS; k++) {
		cpu[k] = __atomic_load_n(&pub_cpu[k], __ATOMIC_ACQUIRE);
		runnable[k] = __atomic_load_n(&pub_runnable[k],
		    __ATOMIC_ACQUIRE);
	}
	for (k = 1; k <= NTASKS; k++) {
		c = cpu[k];
		un = __atomic_load_n(&pub_unpicked[k], __ATOMIC_ACQUIRE);
		counted[k] = 0;
		if (!seen[k] || c < 0 || c > 1 || (un >= t0 && un <= t1))
			continue;
		counted[k] = 1;
		r[c]++;
		if (runnable[k])
			u[c]++;
	}
	samples++;
	if (r[0] >= 2 || r[1] >= 2)
		doubled++;
	if (u[0] >= 2 || u[1] >= 2)
		doubled_unstopped++;
	/*
	 * Read again at once, the tasks seen on a CPU with two: still two
	 * (the reads some 20 µs apart, not the whole sample's 250-400, in
	 * which one may have been stopped before the other woke).
	 */
	for (c = 0; c < 2; c++) {
		if (r[c] < 2)
			continue;
		for (k = 1, n = 0; k <= NTASKS; k++) {
			if (counted[k] && cpu[k] == c && running_now(k))
				n++;
		}
		if (n >= 2) {
			doubled_again++;
			break;
		}
	}
}

/*
 * The sampler thread: a sample in every 2 ms slot while sampler_on, at a
 * random point of the slot (at a fixed one, the samples would fall at the
 * same moment of each tick).  SIGCHLD is the loop's.
 */
static void *
sampler_main(void *arg)
{
	struct timespec	slot, at;
	sigset_t	set;
	unsigned int	seed = 1;
	long		off;

	(void)arg;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	for (;;) {
		pthread_mutex_lock(&sampler_mu);
		sampler_busy = 0;
		pthread_cond_broadcast(&sampler_cv);
		while (!sampler_on && !sampler_quit)
			pthread_cond_wait(&sampler_cv, &sampler_mu);
		if (sampler_quit) {
			pthread_mutex_unlock(&sampler_mu);
			return (NULL);
		}
		sampler_busy = 1;
		pthread_mutex_unlock(&sampler_mu);
		clock_gettime(CLOCK_MONOTONIC, &slot);
		while (__atomic_load_n(&sampler_on, __ATOMIC_ACQUIRE)) {
			off = (long)(rand_r(&seed) % 2000) * 1000;
			at = slot;
			at.tv_nsec += off;
			if (at.tv_nsec >= 1000000000) {
				at.tv_nsec -= 1000000000;
				at.tv_sec++;
			}
			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME,
			    &at, NULL) == EINTR)
				;
			if (!__atomic_load_n(&sampler_on, __ATOMIC_ACQUIRE))
				break;
			sample_once();
			harness_next_ms(&slot);
			harness_next_ms(&slot);
		}
	}
}

/* Start or stop sampling; stopped, no sample is counted after it returns. */
static void
sampler_set(int on, int quit)
{
	pthread_mutex_lock(&sampler_mu);
	__atomic_store_n(&sampler_on, on, __ATOMIC_RELEASE);
	sampler_quit = quit;
	pthread_cond_broadcast(&sampler_cv);
	while (!on && sampler_busy)
		pthread_cond_wait(&sampler_cv, &sampler_mu);
	pthread_mutex_unlock(&sampler_mu);
}

/*
 * One tick as the daemon runs it (harness_tick), timed: procs_enforce on
 * the ticks where an engine CPU changed task too; published to the
 * sampler if *(int *)arg.
 */
static void
run_tick(struct harness *h, int last, uint64_t at, void *arg)
{
	struct timespec		 a, b;
	struct engine_cpu_info	 ci;
	int			 c, changed, was[2], sample = *(int *)arg;

	clock_gettime(CLOCK_MONOTONIC, &b);
	if (last)
		procs_observe(h->ps);
	clock_gettime(CLOCK_MONOTONIC, &a);
	t_observe += us_between(&b, &a);
	engine_tick(h->e);
	clock_gettime(CLOCK_MONOTONIC, &b);
	t_tick += us_between(&a, &b);
	changed = 0;
	for (c = 0; c < 2; c++) {
		was[c] = last_task[c];
		engine_cpu_info(h->e, c, &ci);
		if (ci.task != last_task[c])
			changed = 1;
		last_task[c] = ci.task;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	if (last) {
		procs_enforce(h->ps);
		nfull++;
	} else
		procs_stamp(h->ps, at);
	clock_gettime(CLOCK_MONOTONIC, &b);
	t_enforce += us_between(&a, &b);
	if (sample)
		publish(h, was);
	nticks++;
	if (changed && last && nswitch < maxswitch)
		switch_us[nswitch++] = us_between(&a, &b);
}

/*
 * The daemon's loop for ms ticks (harness_run_clock: sleeping, or every
 * tick), timing its steps; sampled from the sampler thread if sample.
 */
static void
run(struct harness *h, int ms, int sample, int sleeping)
{
	if (sample) {
		publish(h, last_task);
		sampler_set(1, 0);
	}
	ntimer += harness_run_clock(h, ms, sleeping, run_tick, &sample);
	if (sample)
		sampler_set(0, 0);
}

/*
 * The CPU use of a bare 1 ms clock_nanosleep loop, and how late its
 * wake-ups are (median, µs): the floors of the loop's CPU and of the
 * delay to act on a wake on this machine.
 */
static double
bare_loop(int ms, double *late50)
{
	struct timespec	next, now;
	double		t0, c0, cpu, *late;
	int		i;

	late = xcalloc(ms, sizeof *late);
	t0 = harness_now();
	c0 = harness_self_cpu();
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (i = 0; i < ms; i++) {
		harness_next_ms(&next);
		harness_wait(NULL, &next, 0);
		clock_gettime(CLOCK_MONOTONIC, &now);
		late[i] = us_between(&next, &now);
	}
	cpu = 100.0 * (harness_self_cpu() - c0) / (harness_now() - t0);
	qsort(late, ms, sizeof *late, harness_cmp_double);
	*late50 = late[ms / 2];
	free(late);
	return (cpu);
}

/*
 * The loop at SCHED_FIFO 2, above the sampler at 1, so that a sample
 * never holds it up, even on the loop's CPU (rt 0 if refused).
 */
static void
loop_above_sampler(void)
{
	struct sched_param	sp = { .sched_priority = 2 };

	if (rt && sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK,
	    &sp) != 0)
		rt = 0;
}

/* The results of one mix of tasks. */
struct result {
	int	hogs, inter, proc;
	const char *observe;
	int	sleeping;		/* past quiet ticks (run) */
	int	switches;
	double	sw50, sw90, sw99;	/* us */
	double	cpu, bare;		/* % of a core */
	double	late50;			/* the bare loop's wake, µs */
	double	to, tt, te;		/* us per tick */
	int	samples, doubled, doubled_known, doubled_again;
	double	errmean, errmax;	/* points */
	double	readies, acted;		/* a second, while CPU measured */
	double	full, timer;		/* a second: nfull, ntimer */
	size_t	wakes;			/* acted on at once */
	double	wakerate;		/* a second, in the sampled 3 s */
	double	wake50, wake99;		/* us */
	double	own50, own99;		/* us: the loop's own part */
	uint64_t stolen;		/* ns, all tasks, over SAMPLE_MS */
};

/* The stolen ns of every task so far. */
static uint64_t
stolen_all(struct harness *h)
{
	struct procs_info	info;
	uint64_t		sum = 0;
	int			k;

	for (k = 1; k <= NTASKS; k++) {
		if (procs_info(h->ps, ids[k], &info) == 0)
			sum += info.stolen_ns;
	}
	return (sum);
}

/* Run one mix: hogs stairs-load hogs and 50 - hogs interactive ones. */
static void
bench(int hogs, int proc, int sleeping, struct result *res)
{
	struct harness		 h;
	struct procs_config	 conf;
	struct procs_info	 info;
	struct engine_task_info	 ti;
	struct procs_event_stats es0, es;
	uint64_t		 cpu0[NTASKS + 1], ran0[NTASKS + 1];
	uint64_t		 cpu[NTASKS + 1], ran[NTASKS + 1];
	uint64_t		 cpusum = 0, ransum = 0, med, p99, st0;
	size_t			 w0;
	double			 t0, c0, wall, used, a, b, err;
	char			 name[32];
	int			 map[2] = { 0, 1 }, k, n;

	memset(res, 0, sizeof *res);
	res->hogs = nhogs = hogs;
	res->inter = NTASKS - hogs;
	res->proc = proc;
	res->sleeping = sleeping;
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		map[1] = 0;
	memset(&conf, 0, sizeof conf);
	conf.map = map;
	conf.nmap = 2;
	conf.cgroups = 1;
	conf.observe_proc = proc;
	conf.woke = on_woke;
	harness_init_conf(&h, 2, &conf);
	/* As the daemon: blocks wake the loop only for a sleeping clock. */
	procs_block_wakeups(h.ps, sleeping);
	loop_above_sampler();	/* harness_init put it back to 1 */
	res->observe = procs_observe_mode(h.ps);
	nswitch = samples = doubled = doubled_unstopped = doubled_again = 0;
	last_task[0] = last_task[1] = 0;
	for (k = 1; k <= NTASKS; k++) {
		snprintf(name, sizeof name, "%s%d", k <= hogs ? "hog" :
		    "inter", k);
		ids[k] = k <= hogs ? harness_load(&h, name, "1000000", "0") :
		    harness_load(&h, name, "2", "40");
		pids[k] = harness_pid(&h, ids[k]);
		snprintf(name, sizeof name, "/proc/%ld/stat", (long)pids[k]);
		if ((statfd[k] = open(name, O_RDONLY | O_CLOEXEC)) == -1)
			fatal("%s", name);
		snprintf(name, sizeof name, "/proc/%ld/status", (long)pids[k]);
		if ((statusfd[k] = open(name, O_RDONLY | O_CLOEXEC)) == -1)
			fatal("%s", name);
	}
	run(&h, 300, 0, sleeping);
	res->bare = bare_loop(2000, &res->late50);

	/* The loop's own CPU use, no sampling. */
	t_observe = t_tick = t_enforce = 0;
	nticks = nfull = ntimer = 0;
	procs_event_stats(h.ps, &es0);
	w0 = procs_wake_delay(h.ps, &med, &p99);
	t0 = harness_now();
	c0 = harness_self_cpu();
	run(&h, CPU_MS, 0, sleeping);
	wall = harness_now() - t0;
	used = harness_self_cpu() - c0;
	res->cpu = 100.0 * used / wall;
	procs_event_stats(h.ps, &es);
	res->readies = (double)(es.readies - es0.readies) / wall;
	res->full = (double)nfull / wall;
	res->timer = (double)ntimer / wall;
	res->acted = (double)(procs_wake_delay(h.ps, &med, &p99) - w0) / wall;
	n = res->switches = nswitch;
	res->to = t_observe / nticks;
	res->tt = t_tick / nticks;
	res->te = t_enforce / nticks;
	qsort(switch_us, n, sizeof *switch_us, harness_cmp_double);
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
	w0 = procs_wake_delay(h.ps, &med, &p99);
	run(&h, SAMPLE_MS, 1, sleeping);
	res->stolen = stolen_all(&h) - st0;
	res->wakes = procs_wake_delay(h.ps, &med, &p99);
	res->wakerate = (double)(res->wakes - w0) * 1000.0 / SAMPLE_MS;
	res->wake50 = (double)med / 1e3;
	res->wake99 = (double)p99 / 1e3;
	procs_wake_own(h.ps, &med, &p99);
	res->own50 = (double)med / 1e3;
	res->own99 = (double)p99 / 1e3;
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
	res->doubled_again = doubled_again;
	for (k = 1; k <= NTASKS; k++) {
		close(statfd[k]);
		close(statusfd[k]);
	}
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
	qsort(v, n, sizeof *v, harness_cmp_double);
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
		if (harness_sigchld) {
			harness_sigchld = 0;
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

/* A row's cells: the samples counted in the int at off of each result. */
static void
print_samples(const struct result *r, size_t off)
{
	int	i, n;

	for (i = 0; i < NRUNS; i++) {
		n = *(const int *)((const char *)&r[i] + off);
		printf(" %d of %d (%.2f %%) |", n, r[i].samples, r[i].samples ?
		    100.0 * n / r[i].samples : 0);
	}
}

int
main(void)
{
	struct result		 r[NRUNS];
	struct sigaction	 sa;
	struct sched_param	 sp;
	static const int	 trees[] = { 5, 101, 121 };
	double			 pmed, pp99, tmed[3], tmean[3];
	int			 i, tracked[3];

	/* As the daemon does: reap on SIGCHLD, not told of stops. */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = harness_on_sigchld;
	sa.sa_flags = SA_NOCLDSTOP | SA_RESTART;
	sigaction(SIGCHLD, &sa, NULL);
	log_init("bench_proc", 1, LOG_LEVEL_WARN);
	rt = harness_realtime() == 0;
	if ((errno = pthread_create(&sampler, NULL, sampler_main, NULL)) != 0)
		fatal("pthread_create");
	if (rt) {
		sp.sched_priority = 1;
		rt = pthread_setschedparam(sampler, SCHED_FIFO, &sp) == 0;
	}
	loop_above_sampler();
	maxswitch = 100000;
	switch_us = xcalloc(maxswitch, sizeof *switch_us);
	bench(50, 0, 1, &r[0]);
	bench(40, 0, 1, &r[1]);
	bench(40, 0, 0, &r[2]);
	bench(40, 1, 0, &r[3]);
	bench_poll(&pmed, &pp99);
	for (i = 0; i < 3; i++)
		bench_tree(trees[i], &tracked[i], &tmed[i], &tmean[i]);

	printf("Real processes: %d stairs-load tasks on 2 engine CPUs, 1 ms "
	    "tick, loop at %s; interactive = --run 2 --sleep 40\n", NTASKS,
	    rt ? "SCHED_FIFO 2, sampler thread at 1" :
	    "nice 0 (SCHED_FIFO refused)");
	printf("| what |");
	for (i = 0; i < NRUNS; i++)
		printf(" %d hogs, %d interactive, observe=%s%s, %s |",
		    r[i].hogs, r[i].inter, r[i].observe, r[i].proc ?
		    " (forced)" : "", r[i].sleeping ? "sleeping clock" :
		    "every tick");
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
	printf("\n| the loop woken by the event rings, a second (of which "
	    "a wake acted on) |");
	for (i = 0; i < NRUNS; i++)
		printf(" %.0f (%.0f) |", r[i].readies, r[i].acted);
	printf("\n| the loop woken by its clock, a second; ticks observed and "
	    "enforced, a second (the others run with them) |");
	for (i = 0; i < NRUNS; i++)
		printf(" %.0f; %.0f |", r[i].timer, r[i].full);
	printf("\n| of which a bare 1 ms clock_nanosleep loop |");
	for (i = 0; i < NRUNS; i++)
		printf(" %.2f %% |", r[i].bare);
	printf("\n| the bare loop's wake-up after its time, median (the "
	    "floor of a wake's delay) |");
	for (i = 0; i < NRUNS; i++)
		printf(" %.0f µs |", r[i].late50);
	printf("\n| mean µs per tick: observe, engine_tick, enforce (stamp) |");
	for (i = 0; i < NRUNS; i++)
		printf(" %.1f, %.1f, %.1f |", r[i].to, r[i].tt,
		    r[i].te);
	printf("\n| samples (every 2 ms, %d s) with two running on one engine "
	    "CPU (R, no SIGSTOP pending; goal <= 1 %%) |", SAMPLE_MS / 1000);
	print_samples(r, offsetof(struct result, doubled));
	printf("\n| same, the two read again at once (some 20 µs apart, not the "
	    "sample's 250-400) and still running |");
	print_samples(r, offsetof(struct result, doubled_again));
	printf("\n| same, not counting tasks that woke from a real sleep "
	    "before the engine saw it |");
	print_samples(r, offsetof(struct result, doubled_known));
	printf("\n| wake to stop/continue, from the event's time: median "
	    "(p99), wakes (goal median <= 50 µs) |");
	for (i = 0; i < NRUNS; i++) {
		if (r[i].wakes == 0)
			printf(" - (at the next tick) |");
		else
			printf(" %.0f µs (%.0f), %zu (%.0f a second while "
			    "sampled) |", r[i].wake50, r[i].wake99, r[i].wakes,
			    r[i].wakerate);
	}
	printf("\n| of which the loop's own: from when it began to read the "
	    "rings to the signal, median (p99); the rest is the kernel waking "
	    "it (or a tick under way) |");
	for (i = 0; i < NRUNS; i++) {
		if (r[i].wakes == 0)
			printf(" - |");
		else
			printf(" %.1f µs (%.0f) |", r[i].own50, r[i].own99);
	}
	printf("\n| stolen, all %d tasks, over %d s |", NTASKS,
	    SAMPLE_MS / 1000);
	for (i = 0; i < NRUNS; i++)
		printf(" %llu ms |", (unsigned long long)r[i].stolen / 1000000);
	printf("\n| the same as a share of the 2 engine CPUs' time: how long a "
	    "task the engine had not picked ran (its CPU clocks, read at "
	    "each stop and continue) |");
	for (i = 0; i < NRUNS; i++)
		printf(" %.2f %% |", 100.0 * (double)r[i].stolen / 1e6 /
		    (2.0 * SAMPLE_MS));
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
	sampler_set(0, 1);
	pthread_join(sampler, NULL);
	free(switch_us);
	return (0);
}
