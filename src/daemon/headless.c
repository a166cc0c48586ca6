/*
 * headless.c -- stairsd --headless (SPEC.md sections 3 and 6): run a
 * scenario with no socket and no clock, as fast as the engine goes,
 * writing a CSV trace and/or the article's table for one task, under the
 * policy asked for; or run it once per policy and compare them.
 *
 * Exit status: 0 ok; 2 bad usage or a bad scenario ("FILE:LINE: message",
 * nothing run); 1 any other failure (a trace file that cannot be written).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "engine.h"
#include "file.h"
#include "journal.h"
#include "number.h"
#include "perfetto.h"
#include "scenario.h"
#include "session.h"
#include "headless.h"
#include "headless-compare.h"
#include "table.h"
#include "xmalloc.h"

#define HEADLESS_BUFSIZE	(1 << 20)

/* The trace's stdio buffer: static, as stdout may keep it until exit. */
static char headless_buf[HEADLESS_BUFSIZE];

/* What the command line asked for. */
struct headless_opts {
	const char	*scenario;
	uint64_t	 ticks;
	int		 has_ticks;
	const char	*trace;
	const char	*table;
	const char	*perfetto;	/* --perfetto PATH */
	int		 cpus;		/* 0: from the scenario */
	int		 rr;		/* 0: from the scenario */
	const char	*policy;	/* NULL: the scenario's */
	const char	*compare;	/* NULL: no comparison */
	const char	*replay;	/* --replay JOURNAL */
	int		 part;		/* --part N (0: the last) */
	int		 explain;	/* --explain: the why of each pick */
	int		 every_tick;	/* --every-tick: no tick skipped */
};

/* The run's state: the session (engine, trace writer), the table. */
struct headless_run {
	struct session	*s;
	const struct engine *e;		/* the session's, to read */
	int		 table_id;	/* 0: no table */
	struct table	*table;
	int		 table_base;	/* its static priority */
	FILE		*trace;
	struct perfetto	*perfetto;
	const struct engine_policy *policy;
};

static const char headless_usage_text[] =
"usage: stairsd --headless --scenario FILE --ticks N [--trace PATH|-]\n"
"               [--perfetto PATH] [--table TASK] [--cpus N] [--explain]\n"
"               [--rr-interval MS] [--policy NAME | --compare NAME,NAME...]\n"
"       stairsd --headless --replay JOURNAL [--part N] [--ticks N]\n"
"               [--trace PATH|-] [--perfetto PATH] [--table TASK]\n"
"               [--policy NAME] [--explain]\n"
"       stairsd --headless --help | --version\n"
"\n"
"Run a scenario with no socket and no clock, as fast as possible.\n"
"\n"
"  --scenario FILE     the scenario (libconfig; see docs/SCENARIOS.md),\n"
"                      or a built-in scenario's name (article, demo, ...)\n"
"  --ticks N           run ticks 0..N-1 (1 tick = 1 ms of engine time)\n"
"  --trace PATH|-      write tick,cpu,task,rank and the policy's columns\n"
"                      per CPU per tick (staircase: iter,left)\n"
"  --perfetto PATH     write the run as ftrace text for Perfetto's UI\n"
"  --table TASK        print the article's table for TASK (name or id)\n"
"  --explain           print why each CPU's runner changed, one line per\n"
"                      switch on stdout: why tick=T cpu=C task=ID text=...\n"
"  --cpus N            engine CPUs (overrides the scenario)\n"
"  --rr-interval MS    rr_interval (overrides the scenario)\n"
"  --policy NAME       staircase (default), o1, cfs, eevdf or rr (overrides\n"
"                      the scenario's policy)\n"
"  --compare LIST      run once per policy in LIST and print each task's\n"
"                      share, runs and wake-up latencies per policy;\n"
"                      kernel in LIST: what an imported trace says the\n"
"                      machine's own kernel did (stairs-import); the\n"
"                      ticks in which nothing is decided are run at once\n"
"  --every-tick        with --compare: run every tick one by one (the\n"
"                      same output, slower: for measuring)\n"
"  --replay JOURNAL    run again a session a live stairsd recorded:\n"
"                      its scenario, engine and every change it recorded;\n"
"                      to its last tick unless --ticks; --policy replaces\n"
"                      its policy (and the policy changes it recorded);\n"
"                      with no --trace, --perfetto or --table, a summary\n"
"  --part N            the journal's part N (one per load; default: the\n"
"                      last)\n"
"  --help, --version\n"
"\n"
"Exit status: 0 ok, 2 bad usage or bad scenario, 1 other failure.\n";

/* Print usage to f. */
static void
headless_usage(FILE *f)
{
	fputs(headless_usage_text, f);
}

/* An option giving engine parameter param, in the engine's range. */
static int
headless_param(const char *arg, const char *opt, int param, long long *v)
{
	const struct engine_param	*d = &engine_param_list[param];

	return (number_option("stairsd", opt, arg, d->min, d->max, NULL, v));
}

/* Parse the command line into o; 0, 1 (done: help/version) or -1. */
static int
headless_options(int argc, char **argv, struct headless_opts *o)
{
	enum { O_HEADLESS = 256, O_SCENARIO, O_TICKS, O_TRACE, O_TABLE,
	    O_CPUS, O_RR, O_VERSION, O_PERFETTO, O_POLICY, O_COMPARE,
	    O_REPLAY, O_PART, O_EXPLAIN, O_EVERY_TICK };
	static const struct option longopts[] = {
		{ "headless",	 no_argument,		NULL, O_HEADLESS },
		{ "scenario",	 required_argument,	NULL, O_SCENARIO },
		{ "ticks",	 required_argument,	NULL, O_TICKS },
		{ "trace",	 required_argument,	NULL, O_TRACE },
		{ "table",	 required_argument,	NULL, O_TABLE },
		{ "perfetto",	 required_argument,	NULL, O_PERFETTO },
		{ "cpus",	 required_argument,	NULL, O_CPUS },
		{ "rr-interval", required_argument,	NULL, O_RR },
		{ "policy",	 required_argument,	NULL, O_POLICY },
		{ "compare",	 required_argument,	NULL, O_COMPARE },
		{ "replay",	 required_argument,	NULL, O_REPLAY },
		{ "part",	 required_argument,	NULL, O_PART },
		{ "explain",	 no_argument,		NULL, O_EXPLAIN },
		{ "every-tick",	 no_argument,		NULL, O_EVERY_TICK },
		{ "help",	 no_argument,		NULL, 'h' },
		{ "version",	 no_argument,		NULL, O_VERSION },
		{ NULL,		 0,			NULL, 0 }
	};
	long long	 v;
	int		 ch;

	memset(o, 0, sizeof *o);
	optind = 1;
	while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (ch) {
		case O_HEADLESS:
			break;
		case O_SCENARIO:
			o->scenario = optarg;
			break;
		case O_PERFETTO:
			o->perfetto = optarg;
			break;
		case O_TICKS:
			if (number_option("stairsd", "ticks", optarg, 0,
			    INT64_MAX, "a number of ticks (0 or more)",
			    &v) != 0)
				return (-1);
			o->ticks = (uint64_t)v;
			o->has_ticks = 1;
			break;
		case O_TRACE:
			o->trace = optarg;
			break;
		case O_TABLE:
			o->table = optarg;
			break;
		case O_CPUS:
			if (headless_param(optarg, "cpus", ENGINE_PARAM_CPUS,
			    &v) != 0)
				return (-1);
			o->cpus = (int)v;
			break;
		case O_RR:
			if (headless_param(optarg, "rr-interval",
			    ENGINE_PARAM_RR_INTERVAL, &v) != 0)
				return (-1);
			o->rr = (int)v;
			break;
		case O_POLICY:
			if (engine_policy_find(optarg) == NULL) {
				fprintf(stderr, "stairsd: --policy \"%s\": "
				    "unknown policy (known: %s)\n", optarg,
				    engine_policy_names());
				return (-1);
			}
			o->policy = optarg;
			break;
		case O_COMPARE:
			if (headless_compare_check(optarg) != 0)
				return (-1);
			o->compare = optarg;
			break;
		case O_REPLAY:
			o->replay = optarg;
			break;
		case O_PART:
			if (number_option("stairsd", "part", optarg, 1,
			    INT_MAX, "a part's number (1 or more)", &v) != 0)
				return (-1);
			o->part = (int)v;
			break;
		case O_EXPLAIN:
			o->explain = 1;
			break;
		case O_EVERY_TICK:
			o->every_tick = 1;
			break;
		case 'h':
			headless_usage(stdout);
			return (1);
		case O_VERSION:
			printf("stairsd %s\n", STAIRS_VERSION);
			return (1);
		default:
			headless_usage(stderr);
			return (-1);
		}
	}
	if (optind < argc) {
		fprintf(stderr, "stairsd: unexpected argument \"%s\"\n",
		    argv[optind]);
		return (-1);
	}
	if (o->trace != NULL && strcmp(o->trace, "-") == 0 &&
	    o->table != NULL) {
		fprintf(stderr, "stairsd: --trace - and --table would both "
		    "write to stdout: give --trace a file\n");
		return (-1);
	}
	if (o->compare != NULL && (o->policy != NULL || o->trace != NULL ||
	    o->table != NULL || o->perfetto != NULL || o->explain)) {
		fprintf(stderr, "stairsd: --compare runs every policy it "
		    "names and prints its own table: no --policy, --trace, "
		    "--perfetto, --table or --explain with it\n");
		return (-1);
	}
	if (o->replay != NULL) {
		if (o->scenario != NULL || o->compare != NULL ||
		    o->cpus != 0 || o->rr != 0) {
			fprintf(stderr, "stairsd: --replay runs the journal's "
			    "scenario on its engine: no --scenario, --compare, "
			    "--cpus or --rr-interval with it\n");
			return (-1);
		}
		return (0);
	}
	if (o->part != 0) {
		fprintf(stderr, "stairsd: --part is a part of the journal "
		    "--replay runs\n");
		return (-1);
	}
	if (o->scenario == NULL || !o->has_ticks) {
		fprintf(stderr, "stairsd: --headless needs --scenario FILE "
		    "and --ticks N\n");
		headless_usage(stderr);
		return (-1);
	}
	return (0);
}

/* Print the table to stdout. */
static void
headless_print_table(const struct headless_run *run)
{
	char	*s;

	s = table_format(run->table, run->table_base,
	    engine_params(run->e)->rr_interval);
	fputs(s, stdout);
	free(s);
}

/*
 * Count the tick the table's task ran.  A nice change moves its columns,
 * so the table so far is printed and a new one begins.
 */
static void
headless_table(struct headless_run *run, int ncpus)
{
	struct engine_task_info	 ti;
	struct engine_cpu_info	 ci;
	int			 c, d;

	if (engine_task_info(run->e, run->table_id, &ti) != 0)
		return;
	if (ti.prio != run->table_base) {
		headless_print_table(run);
		putchar('\n');
		table_free(run->table);
		run->table = table_create(TABLE_ROWS);
		run->table_base = ti.prio;
	}
	d = engine_policy_field(engine_get_policy(run->e), "descent");
	/*
	 * Count from what the CPUs ran, as the trace does: a task whose
	 * burst ended with this tick is asleep now, but it ran.
	 */
	for (c = 0; c < ncpus; c++) {
		engine_cpu_info(run->e, c, &ci);
		if (ci.task == run->table_id) {
			table_add(run->table, d >= 0 ? (uint32_t)ci.field[d] :
			    1, ci.rank - ti.prio);
			break;
		}
	}
}

/*
 * --explain: the why lines of the tick just run (SPEC.md section 10),
 * on stdout after the tick's trace rows if the trace is there too.
 */
static void
headless_explain(const struct headless_run *run, uint64_t tick)
{
	const struct engine_why	*w;
	size_t			 i, n;

	w = engine_whys(run->e, &n);
	for (i = 0; i < n; i++)
		printf("why tick=%llu cpu=%d task=%d text=%s\n",
		    (unsigned long long)tick, w[i].cpu, w[i].task, w[i].text);
}

/* Say why setup failed (cause, freed), after where if not NULL: 2. */
static int
headless_refuse(const char *where, char *cause)
{
	if (where != NULL)
		fprintf(stderr, "%s: %s\n", where, cause);
	else
		fprintf(stderr, "%s\n", cause);
	free(cause);
	return (2);
}

/*
 * Does --table name a task of sc from file, by name or by id (1-based,
 * in file order)?  0, or 2 said.
 */
static int
headless_table_check(const char *table, const struct scenario *sc,
    const char *file)
{
	char	*end;
	long	 id;

	if (table == NULL || scenario_find_task(sc, table) != -1)
		return (0);
	if (*table >= '1' && *table <= '9') {
		id = strtol(table, &end, 10);
		if (*end == '\0' && id >= 1 && (size_t)id <= sc->ntasks)
			return (0);
	}
	fprintf(stderr, "stairsd: --table \"%s\": no such task in %s\n",
	    table, file);
	return (2);
}

/* Load and check everything; 0, or an exit status. */
static int
headless_setup(const struct headless_opts *o, struct scenario **scp,
    struct engine_params *p)
{
	struct catalog	*cat;
	struct scenario	*sc;
	size_t		 i;
	char		*cause;

	/* No configuration: the built-ins, an installed tree's, files. */
	cat = catalog_create(NULL);
	sc = catalog_load(cat, o->scenario, 1, NULL, &cause);
	catalog_free(cat);
	if (sc == NULL)
		return (headless_refuse(NULL, cause));
	*scp = sc;
	if (scenario_ncommands(sc) != 0) {
		for (i = 0; sc->tasks[i].argv == NULL; i++)
			;
		fprintf(stderr, "%s:%d: task \"%s\" runs a command (%s); real "
		    "processes are not run headless: use the daemon\n",
		    sc->path, sc->tasks[i].line, sc->tasks[i].name,
		    sc->tasks[i].argv[0]);
		return (2);
	}
	if (headless_table_check(o->table, sc, sc->path) != 0)
		return (2);

	engine_params_default(p);
	scenario_params(sc, p);
	if (o->cpus != 0)
		p->cpus = o->cpus;
	if (o->rr != 0)
		p->rr_interval = o->rr;
	if (engine_params_check(p, &cause) != 0)
		return (headless_refuse(sc->path, cause));
	if (scenario_check(sc, p->cpus, &cause) != 0)
		return (headless_refuse(NULL, cause));
	return (0);
}

/* The setup of a session of sc with no real processes, under pol. */
static void
headless_setup_plain(struct session_setup *set, const struct scenario *sc,
    const struct engine_params *p, const struct engine_policy *pol)
{
	memset(set, 0, sizeof *set);
	set->label = sc->path;
	set->text = "";
	set->params = *p;
	set->policy = pol;
}

/* Does the journal go back anywhere (a seek, then resume)? */
static int
headless_branches(const struct journal *j)
{
	size_t	i;

	for (i = 0; i < j->nchanges; i++) {
		if (j->changes[i].kind == CHANGE_BRANCH)
			return (1);
	}
	return (0);
}

/*
 * --replay: the journal's scenario on its engine, with its changes fed
 * in as their ticks come.  0, or an exit status (2: a broken journal,
 * "FILE:LINE: message", nothing run).
 */
static int
headless_replay_setup(struct headless_opts *o, struct journal **jp,
    struct scenario **scp, struct engine_params *p)
{
	struct journal	*j;
	struct scenario	*sc;
	char		*cause;

	if ((j = journal_read_part(o->replay, o->part, &cause)) == NULL)
		return (headless_refuse(NULL, cause));
	*jp = j;
	/* Errors in the scenario name the journal: it is where the text is. */
	if ((sc = scenario_load_string(j->header.text, o->replay,
	    &cause)) == NULL)
		return (headless_refuse(NULL, cause));
	*scp = sc;
	*p = j->header.params;
	if (engine_params_check(p, &cause) != 0)
		return (headless_refuse(o->replay, cause));
	if (headless_table_check(o->table, sc, o->replay) != 0)
		return (2);
	if (!o->has_ticks) {
		o->ticks = j->end;
		o->has_ticks = 1;
	}
	return (0);
}

/* Whether the options ask for no output: no trace, table, why or file. */
static int
headless_quiet(const struct headless_opts *o)
{
	return (o->trace == NULL && o->table == NULL && o->perfetto == NULL &&
	    !o->explain);
}

/*
 * A replay with nothing to write: what the journal holds (each part: its
 * scenario, engine, policy, changes and last tick), then the part run,
 * each task's share of the ticks run (docs/JOURNAL.md).
 */
static void
headless_summary(const struct headless_opts *o, const struct journal *j,
    struct headless_run *run, uint64_t ticks)
{
	struct engine_task_info	 ti;
	const struct journal_part *jp;
	uint64_t		 now;
	int			 i, id;

	printf("journal %s: %d part%s\n", o->replay, j->nparts,
	    j->nparts == 1 ? "" : "s");
	for (i = 1; i <= j->nparts; i++) {
		jp = &j->parts[i - 1];
		printf("part %d%s: scenario=%s cpus=%d tasks=%d policy=%s "
		    "changes=%zu end=%" PRIu64 "\n", i,
		    i == j->part ? " (replayed)" : "", jp->scenario, jp->cpus,
		    jp->ntasks, jp->policy, jp->nchanges, jp->end);
	}
	/* The shares are of the timeline kept: a branch drops what it undid. */
	now = engine_now(run->e);
	printf("\npart %d: %" PRIu64 " ticks run (to tick %" PRIu64 "), "
	    "last under %s\n", j->part, ticks, now,
	    engine_get_policy(run->e)->name);
	puts("task,nice,share,ran");
	for (id = 1; id <= engine_ntasks(run->e); id++) {
		if (engine_task_info(run->e, id, &ti) != 0)
			continue;
		printf("%s,%d,%.1f,%" PRIu64 "\n", ti.name, ti.nice,
		    now == 0 ? 0.0 : 100.0 * (double)ti.ran / (double)now,
		    ti.ran);
	}
}

/* Run a scenario headless. */
int
headless_main(int argc, char **argv)
{
	struct headless_opts	 o;
	struct headless_run	 run;
	struct scenario		*sc = NULL;
	struct journal		*j = NULL;
	struct session_setup	 set;
	struct engine_params	 p;
	struct engine_task_info	 ti;
	uint64_t		 t, nrun = 0;
	char			*cause;
	int			 r, status = 0;

	if ((r = headless_options(argc, argv, &o)) != 0)
		return (r == 1 ? 0 : 2);
	memset(&run, 0, sizeof run);
	if (o.replay != NULL)
		r = headless_replay_setup(&o, &j, &sc, &p);
	else
		r = headless_setup(&o, &sc, &p);
	if (r != 0) {
		scenario_free(sc);
		journal_free(j);
		return (r);
	}

	if (o.policy != NULL)
		run.policy = engine_policy_find(o.policy);
	else if (j != NULL)
		run.policy = engine_policy_find(j->header.policy);
	else if (sc->policy != NULL)
		run.policy = engine_policy_find(sc->policy);
	else
		run.policy = &engine_policy_staircase;
	/* Asked for no output at all: the summary of --compare, one policy. */
	if (o.compare == NULL && o.replay == NULL && headless_quiet(&o))
		o.compare = run.policy->name;
	if (o.compare != NULL) {
		headless_setup_plain(&set, sc, &p, run.policy);
		status = headless_compare(o.compare, o.ticks, sc, &set,
		    o.every_tick);
		goto out;
	}
	if (o.table != NULL && run.policy != &engine_policy_staircase) {
		fprintf(stderr, "stairsd: --table prints the staircase's "
		    "descents (the article's table); the policy here is %s\n",
		    run.policy->name);
		status = 2;
		goto out;
	}
	if (j != NULL) {
		/* Real tasks have no process: the journal moves them. */
		memset(&set, 0, sizeof set);
		set.label = o.replay;
		set.text = j->header.text;
		set.params = p;
		set.policy = run.policy;
		set.real_ok = 1;
		/* A branch goes back: keyframes to go back to. */
		set.history = headless_branches(j) ? UINT64_MAX : 0;
		run.s = session_create(&set, sc, &cause);
	} else {
		headless_setup_plain(&set, sc, &p, run.policy);
		run.s = session_create(&set, sc, &cause);
	}
	if (run.s == NULL) {
		status = headless_refuse(NULL, cause);
		goto out;
	}
	run.e = session_engine(run.s);
	if (j != NULL && engine_ntasks(run.e) != j->header.ntasks) {
		fprintf(stderr, "%s: the scenario makes %d tasks, the journal "
		    "says %d\n", o.replay, engine_ntasks(run.e),
		    j->header.ntasks);
		status = 2;
		goto out;
	}
	if (j != NULL)
		session_feed(run.s, j->changes, j->nchanges, o.policy != NULL,
		    o.replay);
	if (o.explain)
		session_explain(run.s, 1);
	if (o.table != NULL) {
		run.table_id = session_task_find(run.s, o.table);
		engine_task_info(run.e, run.table_id, &ti);
		run.table = table_create(TABLE_ROWS);
		run.table_base = ti.prio;
	}

	if (o.trace != NULL) {
		if ((run.trace = file_fopen(o.trace, FILE_TRUNCATE,
		    &cause)) == NULL) {
			fprintf(stderr, "stairsd: %s\n", cause);
			free(cause);
			status = 1;
			goto out;
		}
		setvbuf(run.trace, headless_buf, _IOFBF, HEADLESS_BUFSIZE);
		session_trace(run.s, run.trace);
	}

	if (o.perfetto != NULL && (run.perfetto = perfetto_open(o.perfetto,
	    p.cpus, 0, &cause)) == NULL) {
		fprintf(stderr, "stairsd: %s\n", cause);
		free(cause);
		status = 1;
		goto out;
	}

	/*
	 * Ticks 0..ticks-1; a replay goes on while a branch it has to make
	 * (back to an earlier tick) is still ahead.
	 */
	while ((t = engine_now(run.e)) < o.ticks ||
	    session_feed_branch_ahead(run.s)) {
		session_tick(run.s);
		run.e = session_engine(run.s);	/* a branch swaps it */
		if (run.perfetto != NULL)
			perfetto_tick(run.perfetto, run.e, t);
		if (run.table != NULL)
			headless_table(&run, p.cpus);
		nrun++;
		if (o.explain)
			headless_explain(&run, t);
	}
	/* A replay asked for nothing: its summary. */
	if (j != NULL && headless_quiet(&o))
		headless_summary(&o, j, &run, nrun);

	if (run.trace != NULL) {
		if (fflush(run.trace) != 0 || ferror(run.trace)) {
			fprintf(stderr, "stairsd: %s: %s\n",
			    run.trace == stdout ? "trace (stdout)" : o.trace,
			    strerror(errno));
			status = 1;
		}
	}
	if (run.table != NULL)
		headless_print_table(&run);
	/*
	 * Under the journal's own policy a change that could not be made
	 * again means the replay is not what was recorded; under another,
	 * tasks may end sooner and a later change miss them.
	 */
	if (j != NULL && o.policy == NULL && session_feed_errors(run.s) > 0 &&
	    status == 0) {
		fprintf(stderr, "%s: %zu change(s) could not be made again: "
		    "the journal does not match its scenario\n", o.replay,
		    session_feed_errors(run.s));
		status = 2;
	}
	if (fflush(stdout) != 0 && status == 0) {
		fprintf(stderr, "stairsd: stdout: %s\n", strerror(errno));
		status = 1;
	}

out:
	if (run.perfetto != NULL && perfetto_close(run.perfetto, &cause) != 0) {
		fprintf(stderr, "stairsd: %s: %s\n", o.perfetto, cause);
		free(cause);
		if (status == 0)
			status = 1;
	}
	if (run.trace != NULL && file_close(run.trace, &cause) != 0) {
		fprintf(stderr, "stairsd: %s: %s\n", o.trace, cause);
		free(cause);
		if (status == 0)
			status = 1;
	}
	table_free(run.table);
	session_free(run.s);
	journal_free(j);
	scenario_free(sc);
	return (status);
}
