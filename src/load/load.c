/*
 * load.c -- stairs-load: a small real workload for real-process scenarios.
 *
 * It burns R ms of its own CPU time, then sleeps S ms, and repeats N times
 * (forever by default).  CPU time is measured with CLOCK_THREAD_CPUTIME_ID,
 * so time spent stopped or waiting for a CPU does not count: under stairsd a
 * burst of --run 2 is two milliseconds of real work however it is sliced.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LOAD_MAX_MS	1000000000LL	/* about eleven days */

static const char *load_usage_text =
    "usage: stairs-load --run MS --sleep MS [--count N]\n"
    "  --run MS     burn MS ms of CPU time (measured, not wall time)\n"
    "  --sleep MS   then sleep MS ms\n"
    "  --count N    repeat N times (default: forever)\n"
    "  --help       show this help\n";

/* Print a message and the usage to stderr, and exit 2. */
static void __attribute__((noreturn))
load_bad(const char *fmt, const char *arg)
{
	fprintf(stderr, "stairs-load: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%s", load_usage_text);
	exit(2);
}

/* Parse a whole number of ms (or a count) in 0..LOAD_MAX_MS. */
static long long
load_number(const char *opt, const char *s)
{
	char		*end;
	long long	 v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno != 0 || v < 0 ||
	    v > LOAD_MAX_MS) {
		fprintf(stderr, "stairs-load: %s: bad number '%s' "
		    "(want 0..%lld)\n%s", opt, s, LOAD_MAX_MS,
		    load_usage_text);
		exit(2);
	}
	return (v);
}

/* This thread's CPU time in ns. */
static uint64_t
load_cputime(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec);
}

/* Burn ms of CPU time. */
static void
load_burn(long long ms)
{
	static volatile uint64_t	sink;
	uint64_t			end, x;
	int				i;

	end = load_cputime() + (uint64_t)ms * 1000000ULL;
	x = sink;
	while (load_cputime() < end) {
		for (i = 0; i < 2000; i++)
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		sink = x;
	}
}

/* Sleep ms of wall time, carrying on after interruptions. */
static void
load_sleep(long long ms)
{
	struct timespec	ts;

	if (ms == 0)
		return;
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/* stairs-load --run MS --sleep MS [--count N] */
int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "run", required_argument, NULL, 'r' },
		{ "sleep", required_argument, NULL, 's' },
		{ "count", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	long long	run = -1, slp = -1, count = 0, i;
	int		ch;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'r':
			run = load_number("--run", optarg);
			break;
		case 's':
			slp = load_number("--sleep", optarg);
			break;
		case 'n':
			count = load_number("--count", optarg);
			if (count == 0)
				load_bad("--count: must be at least 1%s", "");
			break;
		case 'h':
			fputs(load_usage_text, stdout);
			return (0);
		case ':':
			load_bad("%s: needs a value", argv[optind - 1]);
		default:
			load_bad("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		load_bad("unexpected argument '%s'", argv[optind]);
	if (run < 0)
		load_bad("--run MS is required%s", "");
	if (slp < 0)
		load_bad("--sleep MS is required%s", "");
	if (run == 0 && slp == 0)
		load_bad("--run and --sleep cannot both be 0%s", "");

	for (i = 0; count == 0 || i < count; i++) {
		load_burn(run);
		load_sleep(slp);
	}
	return (0);
}
