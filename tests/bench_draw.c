/*
 * bench_draw.c -- the client's cost per frame with 200 tasks on 4 CPUs:
 * reading a frame's lines into the model (model_feed) and drawing the
 * whole screen into the grid (draw_screen) at 120x40 and 80x24.  No
 * terminal: what crt.c adds is measured by tests/bench_client.sh.
 *
 * The frames are synthetic and seeded: tasks spread over the CPUs and
 * the ranks 120..139, nice -5..5, one running per CPU; each frame moves
 * every task a little, as a live daemon would.  Several windows are
 * timed with CLOCK_MONOTONIC and the best is kept (the machine is
 * shared); the worst goes to stderr.
 *
 * Usage: bench_draw [-q] [-d] [TASKS [CPUS]]   (-q: shorter windows, a
 *        smoke run; -d: a full frame, then delta frames carrying 1 % of
 *        the tasks; TASKS, CPUS: other than 200 on 4, to see how it scales)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "draw.h"
#include "grid.h"
#include "keys.h"
#include "model.h"
#include "pane.h"
#include "view.h"
#include "xmalloc.h"

#define NFRAMES		64	/* distinct frames, cycled */

static int	ntasks = 200;	/* tasks in a frame */
static int	NCPUS = 4;	/* CPUs in a frame */
static int	delta;		/* -d: delta frames, 1 % of the tasks */
#define WINDOWS		7

/* Seconds on the monotonic clock. */
static double
now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec + ts.tv_nsec / 1e9);
}

/* Make frame number f as protocol text, one line per array entry. */
static char **
make_frame(int f, int *nlines)
{
	char	**lines;
	int	  n = 0, i, c, nice, rank, run[NCPUS];
	unsigned  seed = 12345;

	lines = xcalloc(2 + NCPUS + ntasks + 2, sizeof *lines);
	lines[n++] = xasprintf("frame tick=%d cpus=%d tasks=%d paused=0 "
	    "speed=1 rr=10 dropped=0 delta=%d", 1000 + f * 33, NCPUS, ntasks,
	    delta && f > 0);
	for (c = 0; c < NCPUS; c++) {
		run[c] = c + 1;
		lines[n++] = xasprintf("cpu id=%d task=%d nr=%d rank=%d "
		    "iter=1 left=%d", c, run[c], ntasks / NCPUS, 120 + c,
		    10 - f % 10);
	}
	for (i = 1; i <= ntasks; i++) {
		seed = seed * 1103515245 + 12345;
		nice = (int)((seed >> 16) % 11) - 5;
		rank = 120 + nice + (int)(((seed >> 8) + f * (unsigned)i) %
		    (unsigned)(20 - nice));
		if (rank > 139)
			rank = 139;
		c = (i - 1) % NCPUS;
		/* A delta frame: the 1 % of the tasks that moved, by f. */
		if (delta && f > 0 && (i + f) % 100 != 0)
			continue;
		lines[n++] = xasprintf("task id=%d name=task%d kind=sim pid=- "
		    "nice=%d cpu=%d rank=%d iter=%d left=%d state=%s ran=%d "
		    "cputime=- cpus=0-%d group=- exit=-", i, i, nice, c,
		    i <= NCPUS ? 120 + c : rank, 1 + i % 3, 1 + (i + f) % 10,
		    i <= NCPUS ? "running" : (i % 5 == 0 ? "sleeping" :
		    "runnable"), i * 7 + f * 3, NCPUS - 1);
	}
	lines[n++] = xasprintf("caption tick=1000 text=Two hundred tasks on "
	    "four CPUs");
	lines[n++] = xstrdup("end");
	*nlines = n;
	return (lines);
}

/* Time one window of `iters` calls of fn; returns ns per call. */
static double
window(void (*fn)(int), int iters)
{
	double	t0;
	int	i;

	t0 = now();
	for (i = 0; i < iters; i++)
		fn(i);
	return ((now() - t0) * 1e9 / iters);
}

static struct model	*bm;
static struct view	 bv;
static struct grid	 bg;
static char		**frames[NFRAMES];
static int		 nframe_lines[NFRAMES];

/* Feed frame i (cycled) to the model. */
static void
do_feed(int i)
{
	int	f = i % NFRAMES, l;

	if (delta)
		f = 1 + i % (NFRAMES - 1);	/* frame 0 is the full one */

	for (l = 0; l < nframe_lines[f]; l++)
		model_feed(bm, frames[f][l]);
}

/* Draw the screen. */
static void
do_draw(int i)
{
	draw_screen(&bg, bm, &bv, keys_help());
}

/* Feed then draw: a whole frame's client-side work but the terminal. */
static void
do_both(int i)
{
	do_feed(i);
	do_draw(i);
}

/* Run windows of fn and print the best and worst ns per call. */
static double
measure(const char *what, void (*fn)(int), int quick)
{
	double	best = 1e30, worst = 0, t;
	int	iters = 1, w;

	/* Calibrate: a window of about 100 ms (20 ms quick). */
	while (window(fn, iters) * iters < (quick ? 2e7 : 1e8) &&
	    iters < (1 << 24))
		iters *= 2;
	for (w = 0; w < (quick ? 3 : WINDOWS); w++) {
		t = window(fn, iters);
		if (t < best)
			best = t;
		if (t > worst)
			worst = t;
	}
	fprintf(stderr, "%s: best %.1f us, worst %.1f us, %d per window\n",
	    what, best / 1e3, worst / 1e3, iters);
	return (best);
}

/* Time feed and draw at two screen sizes; print a table. */
int
main(int argc, char **argv)
{
	static const int	 sizes[][2] = { { 120, 40 }, { 80, 24 },
				     { 200, 60 } };
	double			 feed, draw, both;
	int			 quick = 0, f, a = 1;
	size_t			 s;
	char			 what[64];

	for (; a < argc && argv[a][0] == '-'; a++) {
		if (strcmp(argv[a], "-q") == 0)
			quick = 1;
		else if (strcmp(argv[a], "-d") == 0)
			delta = 1;
		else
			break;
	}
	if (a < argc)
		ntasks = atoi(argv[a++]);
	if (a < argc)
		NCPUS = atoi(argv[a++]);
	if (a < argc || NCPUS < 1 || NCPUS > 1024 || ntasks < NCPUS) {
		fprintf(stderr, "usage: bench_draw [-q] [-d] [TASKS [CPUS]]\n");
		return (2);
	}
	for (f = 0; f < NFRAMES; f++)
		frames[f] = make_frame(f, &nframe_lines[f]);
	bm = model_create();
	model_feed(bm, "stairs 1 0.1.0");
	do_feed(0);
	memset(&bv, 0, sizeof bv);
	bv.show_table = 1;
	keys_select_first(bm, &bv);

	printf("client per frame, %d tasks on %d CPUs, %s frames (best of %d "
	    "windows)\n", ntasks, NCPUS, delta ? "delta (1 % of the tasks)" :
	    "full", quick ? 3 : WINDOWS);
	printf("| screen | model_feed (us) | draw_screen (us) | both (us) "
	    "| both at 30 fps (%% of a core) |\n");
	printf("|---|---|---|---|---|\n");
	for (s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		grid_init(&bg, sizes[s][0], sizes[s][1]);
		snprintf(what, sizeof what, "feed %dx%d", sizes[s][0],
		    sizes[s][1]);
		feed = measure(what, do_feed, quick);
		snprintf(what, sizeof what, "draw %dx%d", sizes[s][0],
		    sizes[s][1]);
		draw = measure(what, do_draw, quick);
		snprintf(what, sizeof what, "both %dx%d", sizes[s][0],
		    sizes[s][1]);
		both = measure(what, do_both, quick);
		printf("| %dx%d | %.1f | %.1f | %.1f | %.2f |\n", sizes[s][0],
		    sizes[s][1], feed / 1e3, draw / 1e3, both / 1e3,
		    both * 30 / 1e9 * 100);
		grid_free(&bg);
	}
	model_free(bm);
	return (0);
}
