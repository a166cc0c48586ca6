/*
 * headless-compare.c -- stairsd --headless --compare (SPEC.md section 6):
 * the same scenario run once per policy, and for each a CSV block of
 * every task's share, runs and wake-up latencies (nearest-rank p50, p95
 * and max); `kernel` in the list prints what an imported trace says the
 * machine's own kernel did (SPEC.md section 11).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "headless-compare.h"
#include "quantile.h"
#include "scenario.h"
#include "session.h"
#include "xmalloc.h"

/* What --compare counts for one task. */
struct headless_stat {
	uint64_t	 ran;		/* ticks run */
	uint64_t	 runs;		/* starts after not running */
	uint64_t	 last;		/* last tick run + 1; 0: never */
	uint64_t	 ready;		/* became runnable at; see pending */
	int		 pending;	/* waiting for its first run since */
	uint64_t	*lat;		/* latencies */
	size_t		 nlat, lat_size;
};

/* Print the nearest-rank p-th percentile of sorted v[0..n-1], or "-". */
static void
headless_pct(const uint64_t *v, size_t n, int pct)
{
	if (n == 0)
		fputs(",-", stdout);
	else
		printf(",%" PRIu64, quantile_rank(v, n, pct));
}

/*
 * Run ticks t..t+k-1 and count them: the tasks the first made runnable
 * (woken or started) wait from t, then what each CPU ran.  k > 1 only
 * for ticks session_skippable promised: each runs what the first ran,
 * and none makes a task runnable.
 */
static void
headless_count(struct session *ses, struct headless_stat *st, int n,
    uint64_t t, uint64_t k, int ncpus)
{
	const struct engine		*e = session_engine(ses);
	const struct engine_cpu_info	*ci;
	struct headless_stat		*s;
	const int		*woken;
	size_t			 i, nwoken;
	int			 c;

	if (k > 1)
		session_advance(ses, k);
	else
		session_tick(ses);
	woken = engine_woken(e, &nwoken);
	for (i = 0; i < nwoken; i++) {
		if (woken[i] > n)
			continue;
		st[woken[i]].ready = t;
		st[woken[i]].pending = 1;
	}
	for (c = 0; c < ncpus; c++) {
		ci = engine_cpu_last(e, c);
		if (ci->task == 0 || ci->task > n)
			continue;
		s = &st[ci->task];
		if (s->ran == 0 || s->last != t) /* not in tick t - 1 */
			s->runs++;
		s->ran += k;
		s->last = t + k;
		if (s->pending) {
			if (s->nlat == s->lat_size)
				s->lat = xgrow(s->lat, &s->lat_size, 64,
				    sizeof *s->lat);
			s->lat[s->nlat++] = t - s->ready;
			s->pending = 0;
		}
	}
}

/* Does the comma-separated list name name? */
static int
headless_lists(const char *list, const char *name)
{
	char	*copy, *p, *word;
	int	 found = 0;

	copy = p = xstrdup(list);
	while (!found && (word = strsep(&p, ",")) != NULL)
		found = strcmp(word, name) == 0;
	free(copy);
	return (found);
}

/* Print a latency in ms as the kernel row keeps it, or "-". */
static void
headless_kernel_lat(const struct kernelrow *r, int i)
{
	if (r->has_lat)
		printf(",%.3f", r->lat[i]);
	else
		fputs(",-", stdout);
}

/*
 * The `kernel` block of --compare: what the kernel did with an imported
 * trace, from the scenario's "# kernel:" rows (SPEC.md section 11), in
 * task order; ran in ticks (ms), latencies in ms.
 */
static void
headless_kernel(const struct scenario *sc)
{
	const struct kernelrow	*r, **row;
	size_t			 i;
	int			 t;

	row = xcalloc(sc->ntasks + 1, sizeof *row);
	for (i = 0; i < sc->kernel.nrows; i++) {
		if ((t = scenario_find_task(sc, sc->kernel.rows[i].task)) != -1)
			row[t] = &sc->kernel.rows[i];
	}
	puts("policy kernel");
	puts("task,nice,share,ran,runs,lat_p50,lat_p95,lat_max");
	for (i = 0; i < sc->ntasks; i++) {
		if ((r = row[i]) == NULL)
			continue;
		printf("%s,%d,%.1f,%" PRIu64 ",%" PRIu64, r->task, r->nice,
		    r->share, (r->ran_us + 500) / 1000, r->runs);
		headless_kernel_lat(r, 0);
		headless_kernel_lat(r, 1);
		headless_kernel_lat(r, 2);
		putchar('\n');
	}
	putchar('\n');
	free(row);
}

/*
 * Check a --compare list: one or more known policy names separated by
 * commas.  0, or -1 with the complaint printed.
 */
int
headless_compare_check(const char *list)
{
	char	*copy, *p, *name;
	int	 rc = 0, n = 0;

	copy = p = xstrdup(list);
	while ((name = strsep(&p, ",")) != NULL) {
		if (engine_policy_find(name) == NULL &&
		    strcmp(name, "kernel") != 0) {
			fprintf(stderr, "stairsd: --compare: unknown policy "
			    "\"%s\" (known: %s, and kernel for an imported "
			    "trace)\n", name, engine_policy_names());
			rc = -1;
			break;
		}
		n++;
	}
	free(copy);
	return (rc);
}

/*
 * --compare: run the scenario once per policy and print, for each, a
 * line "policy NAME", a CSV block of task,nice,share,ran,runs,lat_p50,
 * lat_p95,lat_max in task id order, and an empty line (SPEC.md 6).
 */
int
headless_compare(const char *names, uint64_t ticks, const struct scenario *sc,
    const struct session_setup *base, int every_tick)
{
	const struct engine_params	*p = &base->params;
	struct session_setup		 set = *base;
	const struct engine_policy	*pol;
	struct engine_task_info		 ti;
	struct headless_stat		*st;
	struct session			*ses;
	const struct engine		*e;
	char				*list, *cur, *name, *cause;
	uint64_t			 t, k, wait, backoff;
	int				 n, id, status = 0;

	/* No runs kept: its quiet ticks can be skipped. */
	set.no_runs = 1;
	if (sc->kernel.span_us == 0 && headless_lists(names, "kernel")) {
		fprintf(stderr, "%s: --compare kernel: the scenario keeps no "
		    "kernel rows (stairs-import writes them)\n", sc->path);
		return (2);
	}
	list = cur = xstrdup(names);
	while (status == 0 && (name = strsep(&cur, ",")) != NULL) {
		if (strcmp(name, "kernel") == 0) {
			headless_kernel(sc);
			continue;
		}
		set.policy = pol = engine_policy_find(name);
		if ((ses = session_create(&set, sc, &cause)) == NULL) {
			fprintf(stderr, "%s\n", cause);
			free(cause);
			status = 2;
			break;
		}
		e = session_engine(ses);
		n = engine_ntasks(e);
		st = xcalloc((size_t)n + 1, sizeof *st);
		/*
		 * The ticks in which nothing is decided, at once.  Where
		 * something is decided nearly every tick (many sleepers)
		 * asking costs more than it saves: after a miss, ask again
		 * only after twice as many ticks as last time (up to 64).
		 */
		wait = 0;
		backoff = 1;
		for (t = 0; t < ticks; t += k) {
			k = 0;
			if (!every_tick && wait-- == 0) {
				k = session_skippable(ses, ticks - t);
				if (k < 2) {
					wait = backoff;
					backoff = backoff < 64 ? backoff * 2 :
					    64;
				} else
					wait = backoff = 0;
			}
			if (k < 2)
				k = 1;
			headless_count(ses, st, n, t, k, p->cpus);
		}
		printf("policy %s\n", pol->name);
		puts("task,nice,share,ran,runs,lat_p50,lat_p95,lat_max");
		for (id = 1; id <= n; id++) {
			if (engine_task_info(e, id, &ti) != 0)
				continue;
			quantile_sort(st[id].lat, st[id].nlat);
			printf("%s,%d,%.1f,%" PRIu64 ",%" PRIu64, ti.name,
			    ti.nice, ticks == 0 ? 0.0 :
			    100.0 * (double)st[id].ran / (double)ticks,
			    st[id].ran, st[id].runs);
			headless_pct(st[id].lat, st[id].nlat, 50);
			headless_pct(st[id].lat, st[id].nlat, 95);
			headless_pct(st[id].lat, st[id].nlat, 100);
			putchar('\n');
			free(st[id].lat);
		}
		putchar('\n');
		free(st);
		session_free(ses);
	}
	free(list);
	return (status);
}
