/*
 * bench_seek.c -- the session's rewind and journal, measured (issue 9):
 *
 * - seek latency anywhere in 10 minutes of history (600 000 ticks) of
 *   2 000 tasks on 8 CPUs (half hogs, half sleepers, nice -10..10), with
 *   a client change every 100 ticks in the journal: the median and the
 *   worst of seeks to random ticks (the goal: at most 100 ms);
 * - the history's memory: the keyframes' bytes, per second of history;
 * - the cost of journaling per tick: the same run with and without the
 *   journal recorded to a file (/dev/null: the formatting and stdio, not
 *   the disk).
 *
 * Usage: bench_seek [-q]    (-q: 60 s of history, for a smoke run)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "change.h"
#include "scenario.h"
#include "session.h"
#include "xmalloc.h"

#define BENCH_TASKS	2000
#define BENCH_CPUS	8
#define BENCH_SEEKS	40

/* Seconds on CLOCK_MONOTONIC. */
static double
bench_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

/* The scenario's text: BENCH_TASKS tasks, half hogs, half sleepers. */
static char *
bench_text(void)
{
	size_t	 size = 1 << 20, len = 0;
	char	*t = xmalloc(size);
	int	 i;

	len += snprintf(t + len, size - len, "name = \"bench\";\ncpus = %d;\n"
	    "tasks = (\n", BENCH_CPUS);
	for (i = 0; i < BENCH_TASKS; i++) {
		if (i % 2 == 0)
			len += snprintf(t + len, size - len, "  { name = \"h%d\"; "
			    "nice = %d; }%s\n", i, i % 21 - 10,
			    i + 1 < BENCH_TASKS ? "," : "");
		else
			len += snprintf(t + len, size - len, "  { name = \"s%d\"; "
			    "nice = %d; pattern = [ %d, %d ]; }%s\n", i,
			    i % 21 - 10, 1 + i % 5, 5 + i % 45,
			    i + 1 < BENCH_TASKS ? "," : "");
	}
	snprintf(t + len, size - len, ");\n");
	return (t);
}

/* A session of the scenario keeping history ticks of keyframes. */
static struct session *
bench_session(const char *text, uint64_t history)
{
	struct session_setup	 set;
	struct scenario		*sc;
	struct session		*s;
	char			*cause;

	if ((sc = scenario_load_string(text, "bench", &cause)) == NULL) {
		fprintf(stderr, "%s\n", cause);
		exit(1);
	}
	memset(&set, 0, sizeof set);
	set.label = "bench";
	set.text = text;
	engine_params_default(&set.params);
	scenario_params(sc, &set.params);
	set.history = history;
	if ((s = session_create(&set, sc, &cause)) == NULL) {
		fprintf(stderr, "%s\n", cause);
		exit(1);
	}
	scenario_free(sc);
	return (s);
}

/* Run ticks ticks, a client's sleep every 100; returns the seconds. */
static double
bench_run(struct session *s, uint64_t ticks)
{
	struct change	 ch;
	double		 t0 = bench_now();
	uint64_t	 i;
	char		*cause;

	for (i = 0; i < ticks; i++) {
		if (i % 100 == 50) {
			memset(&ch, 0, sizeof ch);
			ch.kind = CHANGE_SLEEP;
			ch.task = 1 + (int)(i / 100 % BENCH_TASKS);
			ch.value = 20;
			if (session_change(s, &ch, &cause) != 0)
				free(cause);
		}
		session_tick(s);
	}
	return (bench_now() - t0);
}

/* Sort doubles (qsort). */
static int
bench_cmp(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return (x < y ? -1 : x > y);
}

int
main(int argc, char **argv)
{
	struct session	*s;
	FILE		*null;
	uint64_t	 ticks = 600000, tick, rnd = 88172645463325252ULL;
	double		 lat[BENCH_SEEKS], plain, rec;
	char		*text, *cause;
	int		 i;

	if (argc > 1 && strcmp(argv[1], "-q") == 0)
		ticks = 60000;
	text = bench_text();

	s = bench_session(text, ticks);
	printf("%d tasks, %d cpus\n", engine_ntasks(session_engine(s)),
	    engine_params(session_engine(s))->cpus);
	plain = bench_run(s, ticks);
	printf("history: %llu ticks of %d tasks on %d CPUs: %.1f MB in "
	    "keyframes, %.0f KB per second of history\n",
	    (unsigned long long)ticks, BENCH_TASKS, BENCH_CPUS,
	    session_history_memory(s) / 1e6,
	    session_history_memory(s) / 1e3 / (ticks / 1000.0));
	for (i = 0; i < BENCH_SEEKS; i++) {
		rnd ^= rnd << 13;
		rnd ^= rnd >> 7;
		rnd ^= rnd << 17;
		tick = session_first(s) + rnd % (session_now(s) -
		    session_first(s));
		lat[i] = bench_now();
		if (session_seek(s, tick, &cause) != 0) {
			fprintf(stderr, "%s\n", cause);
			return (1);
		}
		lat[i] = (bench_now() - lat[i]) * 1e3;
		session_view_end(s);	/* each seek from a keyframe */
	}
	qsort(lat, BENCH_SEEKS, sizeof *lat, bench_cmp);
	printf("seek: %d random ticks: median %.1f ms, worst %.1f ms "
	    "(goal: at most 100 ms)\n", BENCH_SEEKS, lat[BENCH_SEEKS / 2],
	    lat[BENCH_SEEKS - 1]);
	session_free(s);

	/* The same run with the journal recorded, no keyframes either. */
	s = bench_session(text, 0);
	plain = bench_run(s, ticks);
	session_free(s);
	if ((null = fopen("/dev/null", "w")) == NULL)
		return (1);
	s = bench_session(text, 0);
	if (session_record(s, null, &cause) != 0)
		return (1);
	rec = bench_run(s, ticks);
	session_end(s);
	session_free(s);
	fclose(null);
	printf("journal: %.3f us per tick recorded, %.3f us not (a change "
	    "every 100 ticks): %+.1f%%\n", rec * 1e6 / ticks,
	    plain * 1e6 / ticks, (rec - plain) * 100 / plain);
	free(text);
	return (0);
}
