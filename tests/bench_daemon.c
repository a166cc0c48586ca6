/*
 * bench_daemon.c -- what the live daemon costs and how well its clock
 * keeps time.  Starts real stairsd processes (foreground, default
 * config: realtime on) on temporary sockets and measures:
 *
 *   - CPU use (% of one core, from /proc/PID/schedstat) idle (no tasks),
 *     on the built-in demo, and with 1 000 scripted tasks at speed 1
 *     with 5 subscribers at 30 fps reading every frame;
 *   - full against delta frames: 2 000 and 20 000 hogs on 8 CPUs, one
 *     subscriber at 30 fps, bytes a second sent and the daemon's CPU;
 *   - the clock's drift: engine ticks against CLOCK_MONOTONIC over a
 *     run at speed 1 (ticks run vs. ms elapsed), and the lag counter;
 *   - the built-in demo with no client and with one subscriber at 30
 *     fps, CPU and wake-ups a second (voluntary context switches), for
 *     this stairsd and, side by side, an old one ($STAIRS_OLD_BIN: a
 *     directory holding a stairsd from before the batching clock).
 *
 * Usage: bench_daemon [-q] [-f] [-i] [-d SECONDS]
 *   -q: short windows, a smoke run; -f: only the frames table (old:
 *   $STAIRS_OLD_FRAMES_BIN, a stairsd from before the log of changes);
 *   -i: only the demo's table;
 *   -d: only the drift, over SECONDS
 *   (the default run measures it over 20 s)
 */
#include <setjmp.h>

#include "daemon_harness.h"

static int	quick;

/* CPU time (ns) a process has used, from /proc/PID/schedstat. */
static unsigned long long
cpu_ns(pid_t pid)
{
	char			 path[64];
	unsigned long long	 ns = 0;
	FILE			*f;

	snprintf(path, sizeof path, "/proc/%ld/schedstat", (long)pid);
	if ((f = fopen(path, "r")) == NULL)
		return (0);
	if (fscanf(f, "%llu", &ns) != 1)
		ns = 0;
	fclose(f);
	return (ns);
}

/* Read whatever the subscribers sent; count frames. */
static void
drain(struct tconn **subs, int n, long ms, long *frames)
{
	struct pollfd	 pfd[16];
	char		 buf[1 << 16];
	long		 end = td_ms() + ms;
	ssize_t		 r;
	int		 i;

	while (td_ms() < end) {
		for (i = 0; i < n; i++) {
			pfd[i].fd = subs[i]->fd;
			pfd[i].events = POLLIN;
		}
		if (poll(pfd, n, (int)(end - td_ms())) <= 0)
			continue;
		for (i = 0; i < n; i++) {
			if (!(pfd[i].revents & POLLIN))
				continue;
			r = read(subs[i]->fd, buf, sizeof buf);
			if (r <= 0)
				continue;
			/* Count frame headers (one split by a read is lost). */
			for (char *p = buf; (p = memmem(p, buf + r - p,
			    "frame tick=", 11)) != NULL; p += 11)
				frames[i]++;
		}
	}
}

/* Compare doubles, for qsort. */
static int
cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return (x < y ? -1 : x > y);
}

/*
 * One CPU measurement: start a daemon on scenario text, optionally with
 * subscribers reading everything, warm up, then measure its CPU use in
 * five windows.  The machine is shared, so other jobs only ever add to a
 * window: report the best and the median.
 */
static void
measure_bin(const char *bin, const char *label, const char *scenario,
    int nsubs, int fps, long window, long *fpsout, double *best,
    double *median, double *wakeout)
{
	struct td	 t;
	struct tconn	*subs[16], *c;
	unsigned long long c0, c1;
	long		 t0, t1, frames[16] = { 0 }, total = 0, elapsed = 0;
	long		 w0, nwakes = 0;
	double		 pct[5];
	int		 i, w;
	char		*demo[] = { "--scenario", "demo", NULL };

	td_init(&t, "log_level = \"warn\";\n", scenario);
	if (bin != NULL)
		snprintf(t.bin, sizeof t.bin, "%s/stairsd", bin);
	if (scenario == NULL)
		td_start_args(&t, demo);
	else
		td_start(&t);
	if (t.pid <= 0) {
		fprintf(stderr, "%s: the daemon did not start\n", label);
		exit(1);
	}
	for (i = 0; i < nsubs; i++) {
		subs[i] = tc_open(&t);
		tc_sendf(subs[i], "subscribe %d", fps);
	}
	drain(subs, nsubs, quick ? 300 : 1500, frames);	/* warm up */
	memset(frames, 0, sizeof frames);
	for (w = 0; w < 5; w++) {
		c0 = cpu_ns(t.pid);
		w0 = td_wakes(t.pid);
		t0 = td_ms();
		if (nsubs > 0)
			drain(subs, nsubs, window / 5, frames);
		else
			td_nap((int)(window / 5));
		c1 = cpu_ns(t.pid);
		nwakes += td_wakes(t.pid) - w0;
		t1 = td_ms();
		elapsed += t1 - t0;
		pct[w] = 100.0 * (double)(c1 - c0) / ((double)(t1 - t0) * 1e6);
	}
	qsort(pct, 5, sizeof pct[0], cmp_double);
	*best = pct[0];
	*median = pct[2];
	for (i = 0; i < nsubs; i++) {
		total += frames[i];
		tc_close(subs[i]);
	}
	if (getenv("BENCH_DEBUG") != NULL)
		fprintf(stderr, "# %s: %ld frames in %ld ms; windows %.2f %.2f "
		    "%.2f %.2f %.2f\n", label, total, elapsed, pct[0], pct[1],
		    pct[2], pct[3], pct[4]);
	if (fpsout != NULL)
		*fpsout = nsubs > 0 ? total * 1000 / elapsed / nsubs : 0;
	if (wakeout != NULL)
		*wakeout = 1000.0 * (double)nwakes / (double)elapsed;
	if ((c = tc_open(&t)) != NULL) {
		if (tc_status(c, "lag") > 0)
			fprintf(stderr, "# %s: lag %lld ticks\n", label,
			    tc_status(c, "lag"));
		tc_close(c);
	}
	td_stop(&t);
}

/* measure_bin for this tree's stairsd. */
static void
measure(const char *label, const char *scenario, int nsubs, int fps,
    long window, long *fpsout, double *best, double *median)
{
	measure_bin(NULL, label, scenario, nsubs, fps, window, fpsout, best,
	    median, NULL);
}

/*
 * The built-in demo, no client and one subscriber at 30 fps: CPU and
 * wake-ups a second of an old stairsd ($STAIRS_OLD_BIN, if set) and of
 * this one, side by side.
 */
static void
idle_table(long window)
{
	const char	*old = getenv("STAIRS_OLD_BIN");
	double		 best[2][2], median[2][2], wk[2][2];
	static const char *what[2] = { "demo (5 scripted tasks), no client",
			    "demo, 1 subscriber at 30 fps" };
	static const char *goal[2] = { "< 0.5 %", "< 1.5 %" };
	int		 k, v;

	for (k = 0; k < 2; k++) {
		for (v = 0; v < 2; v++) {
			if (v == 0 && (old == NULL || *old == '\0'))
				continue;
			measure_bin(v == 0 ? old : NULL, what[k], NULL,
			    k, 30, window, NULL, &best[k][v], &median[k][v],
			    &wk[k][v]);
		}
	}
	printf("\nstairsd on the built-in demo, speed 1: the ticking clock "
	    "(old: %s) against the batching one\n\n", old != NULL &&
	    *old != '\0' ? old : "not measured, set STAIRS_OLD_BIN");
	printf("| what | CPU old | CPU new | wake-ups/s old | wake-ups/s new "
	    "| goal (CPU) |\n|---|---:|---:|---:|---:|---:|\n");
	for (k = 0; k < 2; k++) {
		if (old != NULL && *old != '\0')
			printf("| %s | %.2f %% (median %.2f %%) ", what[k],
			    best[k][0], median[k][0]);
		else
			printf("| %s | - ", what[k]);
		printf("| %.2f %% (median %.2f %%) | ", best[k][1],
		    median[k][1]);
		if (old != NULL && *old != '\0')
			printf("%.0f ", wk[k][0]);
		else
			printf("- ");
		printf("| %.0f | %s |\n", wk[k][1], goal[k]);
	}
	fflush(stdout);
}

/* The scenario text of n scripted tasks: half hogs, half sleepers. */
static char *
many_tasks(int n)
{
	size_t	 size = 64 + (size_t)n * 96, off;
	char	*s = malloc(size);
	int	 i;

	off = (size_t)snprintf(s, size, "name = \"bench\";\ncpus = 4;\n"
	    "tasks = (\n");
	for (i = 0; i < n; i++) {
		if (i % 2)
			off += (size_t)snprintf(s + off, size - off,
			    "%s{ name = \"t%d\"; nice = %d; "
			    "pattern = [ %d, %d ]; "
			    "}\n", i ? "," : "", i, i % 21 - 10, 1 + i % 5,
			    5 + i % 46);
		else
			off += (size_t)snprintf(s + off, size - off,
			    "%s{ name = \"t%d\"; nice = %d; }\n", i ? "," : "",
			    i, i % 21 - 10);
	}
	snprintf(s + off, size - off, ");\n");
	return (s);
}

/* The scenario text of n CPU hogs on cpus CPUs. */
static char *
hogs(int n, int cpus)
{
	size_t	 size = 64 + (size_t)n * 40, off;
	char	*s = malloc(size);
	int	 i;

	off = (size_t)snprintf(s, size, "name = \"hogs\";\ncpus = %d;\n"
	    "tasks = (\n", cpus);
	for (i = 0; i < n; i++)
		off += (size_t)snprintf(s + off, size - off,
		    "%s{ name = \"h%d\"; }\n", i ? "," : "", i);
	snprintf(s + off, size - off, ");\n");
	return (s);
}

/*
 * Full against delta frames: a daemon running scenario at speed 1 with
 * one subscriber at fps reading everything, with or without delta (or,
 * delta < 0, a client connected but not subscribed: the floor).  The
 * bytes a second it was sent, frames a second and the daemon's CPU
 * (best and median of five windows, as in measure()).
 */
static void
frames(const char *bin, const char *scenario, int delta, int fps, long window,
    double *bps, long *fpsout, double *best, double *median, double *wakes)
{
	struct td	 t;
	struct tconn	*sub;
	struct pollfd	 pfd;
	static char	 buf[1 << 20];
	unsigned long long c0, c1, bytes = 0, nframes = 0;
	long		 t0, t1, end, elapsed = 0, w0, nwakes = 0;
	double		 pct[5];
	ssize_t		 r;
	int		 w, warm;

	td_init(&t, "log_level = \"warn\";\n", scenario);
	if (bin != NULL)
		snprintf(t.bin, sizeof t.bin, "%s/stairsd", bin);
	td_start(&t);
	if (t.pid <= 0 || (sub = tc_open(&t)) == NULL) {
		fprintf(stderr, "frames: the daemon did not start\n");
		exit(1);
	}
	if (delta >= 0)
		tc_sendf(sub, "subscribe %d%s", fps, delta ? " delta" : "");
	for (w = -1; w < 5; w++) {
		warm = w < 0;
		c0 = cpu_ns(t.pid);
		w0 = td_wakes(t.pid);
		t0 = td_ms();
		end = t0 + (warm ? (quick ? 300 : 1500) : window / 5);
		while (td_ms() < end) {
			pfd.fd = sub->fd;
			pfd.events = POLLIN;
			if (poll(&pfd, 1, (int)(end - td_ms())) <= 0)
				continue;
			if ((r = read(sub->fd, buf, sizeof buf)) <= 0)
				continue;
			if (warm)
				continue;
			bytes += (unsigned long long)r;
			for (char *p = buf; (p = memmem(p, buf + r - p,
			    "frame tick=", 11)) != NULL; p += 11)
				nframes++;
		}
		c1 = cpu_ns(t.pid);
		t1 = td_ms();
		if (warm)
			continue;
		nwakes += td_wakes(t.pid) - w0;
		elapsed += t1 - t0;
		pct[w] = 100.0 * (double)(c1 - c0) / ((double)(t1 - t0) * 1e6);
	}
	qsort(pct, 5, sizeof pct[0], cmp_double);
	*best = pct[0];
	*median = pct[2];
	*bps = (double)bytes * 1000.0 / (double)elapsed;
	*fpsout = (long)(nframes * 1000 / (unsigned long long)elapsed);
	*wakes = 1000.0 * (double)nwakes / (double)elapsed;
	tc_close(sub);
	td_stop(&t);
}

/*
 * The table of full against delta frames, 2 000 and 20 000 hogs; with
 * $STAIRS_OLD_FRAMES_BIN (else $STAIRS_OLD_BIN), an old stairsd's row
 * beside each of this one's.
 */
static void
frames_table(long window)
{
	static const int	 sizes[] = { 2000, 20000 };
	const char		*old = getenv("STAIRS_OLD_FRAMES_BIN");
	char			*scen;
	double			 bps, best, median, wakes;
	long			 fps;
	size_t			 i;
	int			 delta, v;

	if (old == NULL || *old == '\0')
		old = getenv("STAIRS_OLD_BIN");
	if (old != NULL && *old == '\0')
		old = NULL;
	printf("\nFrames: hogs on 8 CPUs at speed 1, one subscriber at 30 fps "
	    "reading everything (over %ld s; old: %s)\n\n", window / 1000,
	    old != NULL ? old : "not measured, set STAIRS_OLD_BIN");
	printf("| tasks | frames | stairsd | bytes/s | frames/s | daemon CPU "
	    "(median) | wake-ups/s |\n|---:|---|---|---:|---:|---:|---:|\n");
	fflush(stdout);
	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		scen = hogs(sizes[i], 8);
		for (delta = -1; delta <= 1; delta++) {
			for (v = old != NULL ? 0 : 1; v < 2; v++) {
				frames(v == 0 ? old : NULL, scen, delta, 30,
				    window, &bps, &fps, &best, &median,
				    &wakes);
				printf("| %d | %s | %s | %.2f MB/s | %ld | "
				    "%.2f %% (%.2f %%) | %.0f |\n", sizes[i],
				    delta < 0 ? "none (not subscribed)" :
				    delta ? "delta" : "full",
				    v == 0 ? "old" : "new", bps / 1e6, fps,
				    best, median, wakes);
				fflush(stdout);
			}
		}
		free(scen);
	}
	printf("\n");
}

/*
 * The clock's offset now: engine tick less wall ms since t0, the best of
 * five status round trips (a late reply only makes the offset smaller).
 */
static long long
offset(struct tconn *c, long t0)
{
	long long	best = LLONG_MIN, off;
	long		before;
	int		i;

	for (i = 0; i < 5; i++) {
		before = td_ms();
		off = tc_status(c, "tick") - (before - t0);
		if (off > best)
			best = off;
		td_nap(20);
	}
	return (best);
}

/* Drift of the clock at speed 1 over window ms. */
static void
drift(long window)
{
	struct td	 t;
	struct tconn	*c;
	long long	 o0, o1, lag, k0, k1;
	long		 t0, t1, end;
	double		 d;

	td_init(&t, "log_level = \"warn\";\n", NULL);
	td_start(&t);
	c = tc_open(&t);
	t0 = td_ms();
	o0 = offset(c, t0);
	k0 = tc_status(c, "tick");
	end = td_ms() + window;
	while (td_ms() < end)
		td_nap(50);
	o1 = offset(c, t0);
	t1 = td_ms();
	k1 = tc_status(c, "tick");
	lag = tc_status(c, "lag");
	d = 100.0 * (double)(o1 - o0) / (double)(t1 - t0);
	printf("| clock drift at speed 1 over %ld s | %+.4f %% (%+lld ticks; "
	    "%lld ticks in %ld ms; lag %lld) | < 0.1 %% |\n", window / 1000, d,
	    o1 - o0, k1 - k0, t1 - t0, lag);
	tc_close(c);
	td_stop(&t);
}

int
main(int argc, char **argv)
{
	char	*many;
	long	 window, fps;
	double	 best, median;

	long	 drift_s = -1;
	int	 i, only_frames = 0, only_idle = 0;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-q") == 0)
			quick = 1;
		else if (strcmp(argv[i], "-f") == 0)
			only_frames = 1;
		else if (strcmp(argv[i], "-i") == 0)
			only_idle = 1;
		else if (strcmp(argv[i], "-d") == 0 && i + 1 < argc)
			drift_s = strtol(argv[++i], NULL, 10);
		else {
			fprintf(stderr, "usage: bench_daemon [-q] [-f] [-i] "
			    "[-d SECONDS]\n");
			return (2);
		}
	}
	window = quick ? 1000 : 10000;
	signal(SIGPIPE, SIG_IGN);
	if (drift_s > 0) {
		printf("| what | measured | goal |\n|---|---:|---:|\n");
		drift(drift_s * 1000);
		return (0);
	}
	if (only_frames || only_idle) {
		if (only_idle)
			idle_table(window);
		if (only_frames)
			frames_table(window);
		return (0);
	}
	printf("stairsd: CPU use (%% of one core, over %ld s) and clock "
	    "drift\n\n", window / 1000);
	printf("| what | measured | goal |\n|---|---:|---:|\n");
	fflush(stdout);

	measure("idle", "name = \"idle\";\ntasks = ();\n", 0, 0, window,
	    NULL, &best, &median);
	printf("| idle, no tasks, speed 1 | %.2f %% (median %.2f %%) | |\n",
	    best, median);
	fflush(stdout);
	measure("demo", "name = \"d\";\ncpus = 2;\ntasks = ( { name = "
	    "\"hog\"; }, { name = \"ed\"; pattern = [ 2, 40 ]; } );\n", 1, 30,
	    window, &fps, &best, &median);
	printf("| 2 tasks, 1 subscriber at 30 fps | %.2f %% (median %.2f %%) "
	    "| |\n", best, median);
	fflush(stdout);
	many = many_tasks(1000);
	measure("1000 tasks", many, 0, 0, window, NULL, &best, &median);
	printf("| 1 000 tasks, 4 cpus, speed 1, no subscriber | %.2f %% "
	    "(median %.2f %%) | |\n", best, median);
	fflush(stdout);
	measure("1000 tasks + 5 subscribers", many, 5, 30, window, &fps, &best,
	    &median);
	printf("| 1 000 tasks, 4 cpus, speed 1, 5 subscribers at 30 fps "
	    "(%ld frames/s each) | %.2f %% (median %.2f %%) | < 5 %% |\n", fps,
	    best, median);
	fflush(stdout);
	free(many);
	idle_table(window);
	frames_table(window);
	printf("\n| what | measured | goal |\n|---|---:|---:|\n");
	drift(drift_s > 0 ? drift_s * 1000 : quick ? 2000 : 20000);
	return (0);
}
