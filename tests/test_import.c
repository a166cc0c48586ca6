/*
 * test_import.c -- stairs-import's parts (src/import/, SPEC.md section
 * 11) and what it needs of the scenario loader and the engine: the three
 * text forms read alike, each task's CPU time kept (preempted time left
 * out), sleeps, wakes, the kernel's figures, bad traces refused at their
 * line, lost events and reused pids survived; the scenario written loads
 * and plays each task's bursts once, its CPU time within 1% (or half a
 * tick) of the trace's.
 *
 * The samples are real lines: those of tracefs, trace-cmd report and perf
 * script recorded on a 6.18 kernel (docs/IMPORT.md), verbatim, and a
 * generator that writes a made-up workload in each of their layouts.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bursts.h"
#include "emit.h"
#include "engine.h"
#include "tasklife.h"
#include "ktrace.h"
#include "scenario.h"

/* Feed text to h line by line; the first error's line, or 0. */
static int
feed(struct tasklife *h, const char *text, char **cause)
{
	char	*copy, *p, *line;
	int	 n = 0;

	*cause = NULL;
	copy = p = strdup(text);
	while ((line = strsep(&p, "\n")) != NULL) {
		if (p == NULL && *line == '\0')
			break;
		n++;
		if (tasklife_line(h, line, n, cause) != 0) {
			free(copy);
			return (h->errline != 0 ? h->errline : n);
		}
	}
	free(copy);
	return (0);
}

/* Read text into h from the start; asserts it reads and finishes. */
static void
load(struct tasklife *h, const char *text)
{
	struct tasklife_opts	 o;
	char			*cause;
	int			 line;

	memset(&o, 0, sizeof o);
	tasklife_init(h, &o);
	line = feed(h, text, &cause);
	if (line != 0)
		fail_msg("line %d: %s", line, cause);
	if (tasklife_finish(h, &cause) != 0)
		fail_msg("finish: %s", cause);
}

/* The task of this pid (its last life), or NULL. */
static struct tasklife_task *
task(struct tasklife *h, int pid)
{
	struct tasklife_task	*t = NULL;
	size_t			 i;

	for (i = 0; i < h->ntasks; i++) {
		if (h->tasks[i].pid == pid)
			t = &h->tasks[i];
	}
	return (t);
}

/* Sum of a task's run bursts, ns. */
static uint64_t
runs_of(const struct tasklife_task *t)
{
	uint64_t	sum = 0;
	size_t		i;

	for (i = 0; i < t->nbursts; i += 2)
		sum += t->bursts[i];
	return (sum);
}

/* --- Verbatim samples. ------------------------------------------------ */

/* tracefs's trace file, as recorded (an instance, 2 CPUs). */
static const char tracefs_sample[] =
"# tracer: nop\n"
"#\n"
"# entries-in-buffer/entries-written: 8930/8930   #P:2\n"
"#\n"
"#                                _-----=> irqs-off/BH-disabled\n"
"#                               / _----=> need-resched\n"
"#                              | / _---=> hardirq/softirq\n"
"#                              || / _--=> preempt-depth\n"
"#                              ||| / _-=> migrate-disable\n"
"#                              |||| /     delay\n"
"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
"#              | |         |   |||||     |         |\n"
"            grep-1769    [001] d..2.  2258.332480: sched_switch: prev_comm=grep prev_pid=1769 prev_prio=120 prev_state=D ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
"          <idle>-0       [001] d..2.  2258.332524: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=grep next_pid=1769 next_prio=120\n"
"            grep-1769    [001] d..2.  2258.332590: sched_switch: prev_comm=grep prev_pid=1769 prev_prio=120 prev_state=D ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
"          <idle>-0       [001] d..2.  2258.332610: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=grep next_pid=1769 next_prio=120\n"
"            grep-1769    [001] d..2.  2258.332690: sched_switch: prev_comm=grep prev_pid=1769 prev_prio=120 prev_state=D ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
"          <idle>-0       [001] d..2.  2258.332713: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=grep next_pid=1769 next_prio=120\n"
"            grep-1769    [001] d..2.  2258.332796: sched_switch: prev_comm=grep prev_pid=1769 prev_prio=120 prev_state=D ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
"          <idle>-0       [001] d..2.  2258.332834: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=grep next_pid=1769 next_prio=120\n"
"            grep-1769    [001] d..2.  2258.332979: sched_switch: prev_comm=grep prev_pid=1769 prev_prio=120 prev_state=D ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
"          <idle>-0       [001] d.s4.  2258.333057: sched_waking: comm=grep pid=1769 prio=120 target_cpu=001\n"
"          <idle>-0       [001] dNs5.  2258.333058: sched_wakeup: comm=grep pid=1769 prio=120 target_cpu=001\n"
"          <idle>-0       [001] d..2.  2258.333059: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=grep next_pid=1769 next_prio=120\n"
"            grep-1769    [001] d..2.  2258.333140: sched_switch: prev_comm=grep prev_pid=1769 prev_prio=120 prev_state=D ==> next_comm=swapper/1 next_pid=0 next_prio=120\n";

/* The same events as trace-cmd report printed them (extract -B). */
static const char tracecmd_sample[] =
"cpus=2\n"
"probe31641:             grep-1769  [001]  2258.332480: sched_switch:         grep:1769 [120] D ==> swapper/1:0 [120]\n"
"probe31641:           <idle>-0     [001]  2258.332524: sched_switch:         swapper/1:0 [120] R ==> grep:1769 [120]\n"
"probe31641:             grep-1769  [001]  2258.332590: sched_switch:         grep:1769 [120] D ==> swapper/1:0 [120]\n"
"probe31641:           <idle>-0     [001]  2258.332610: sched_switch:         swapper/1:0 [120] R ==> grep:1769 [120]\n"
"probe31641:             grep-1769  [001]  2258.332690: sched_switch:         grep:1769 [120] D ==> swapper/1:0 [120]\n"
"probe31641:           <idle>-0     [001]  2258.332713: sched_switch:         swapper/1:0 [120] R ==> grep:1769 [120]\n"
"probe31641:             grep-1769  [001]  2258.332796: sched_switch:         grep:1769 [120] D ==> swapper/1:0 [120]\n"
"probe31641:           <idle>-0     [001]  2258.332834: sched_switch:         swapper/1:0 [120] R ==> grep:1769 [120]\n"
"probe31641:             grep-1769  [001]  2258.332979: sched_switch:         grep:1769 [120] D ==> swapper/1:0 [120]\n"
"probe31641:           <idle>-0     [001]  2258.333057: sched_waking:         comm=grep pid=1769 prio=120 target_cpu=001\n"
"probe31641:           <idle>-0     [001]  2258.333058: sched_wakeup:         grep:1769 [120] CPU:001\n"
"probe31641:           <idle>-0     [001]  2258.333059: sched_switch:         swapper/1:0 [120] R ==> grep:1769 [120]\n"
"probe31641:             grep-1769  [001]  2258.333140: sched_switch:         grep:1769 [120] D ==> swapper/1:0 [120]\n";

/* perf script after perf sched record (perf 6.1), as recorded. */
static const char perf_sample[] =
"            perf  1873 [000]  2266.041980: sched:sched_stat_runtime: comm=perf pid=1873 runtime=147289 [ns]\n"
"            perf  1873 [000]  2266.041987:       sched:sched_waking: comm=migration/0 pid=18 prio=0 target_cpu=000\n"
"            perf  1873 [000]  2266.041991: sched:sched_stat_runtime: comm=perf pid=1873 runtime=19747 [ns]\n"
"            perf  1873 [000]  2266.041994:       sched:sched_switch: prev_comm=perf prev_pid=1873 prev_prio=120 prev_state=D ==> next_comm=migration/0 next_pid=18 next_prio=0\n"
"     migration/0    18 [000]  2266.041997:       sched:sched_waking: comm=perf pid=1873 prio=120 target_cpu=000\n"
"     migration/0    18 [000]  2266.041998: sched:sched_migrate_task: comm=perf pid=1873 prio=120 orig_cpu=0 dest_cpu=1\n"
"     migration/0    18 [000]  2266.042023: sched:sched_stat_runtime: comm=migration/0 pid=18 runtime=29245 [ns]\n"
"     migration/0    18 [000]  2266.042023:       sched:sched_switch: prev_comm=migration/0 prev_pid=18 prev_prio=0 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
"            perf  1873 [001]  2266.042161: sched:sched_stat_runtime: comm=perf pid=1873 runtime=56387 [ns]\n"
"            perf  1873 [001]  2266.042204:       sched:sched_waking: comm=perf-exec pid=1874 prio=120 target_cpu=000\n"
"         swapper     0 [000]  2266.042256:       sched:sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=perf-exec next_pid=1874 next_prio=120\n"
"            perf  1873 [001]  2266.042424: sched:sched_stat_runtime: comm=perf pid=1873 runtime=267296 [ns]\n"
"            perf  1873 [001]  2266.042428:       sched:sched_switch: prev_comm=perf prev_pid=1873 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n";

/*
 * grep in the tracefs and trace-cmd samples: running when the trace
 * begins (so from its first event), then runs of 66, 80, 83 and 145 us
 * between sleeps of 20, 23, 38 and 78 us (to its waking), and a last run
 * of 81 us.
 */
static void
check_grep(struct tasklife *h)
{
	static const uint64_t	 want[] = { 66000, 20000, 80000, 23000,
				    83000, 38000, 145000, 78000, 81000 };
	struct tasklife_task	*t = task(h, 1769);
	size_t			 i;

	assert_non_null(t);
	assert_string_equal(t->comm, "grep");
	assert_int_equal(t->prio, 120);
	assert_int_equal(t->nbursts, 9);
	for (i = 0; i < 9; i++)
		assert_int_equal(t->bursts[i], want[i]);
	assert_int_equal(t->cpu, 66000 + 80000 + 83000 + 145000 + 81000);
	assert_int_equal(runs_of(t), t->cpu);
	assert_int_equal(t->runs, 5);
	/* Woken (waking) at .333057, run at .333059: 2 us. */
	assert_int_equal(t->nlat, 1);
	assert_int_equal(t->lat[0], 2000);
	assert_int_equal(h->end - h->begin, 660000);
	assert_int_equal(tasklife_ncpus(h), 2);
}

/* tracefs's trace file: recognized, and grep's life as it was. */
static void
test_tracefs_sample(void **state)
{
	struct tasklife	h;

	load(&h, tracefs_sample);
	assert_int_equal(ktrace_form(&h.kt), KTRACE_TRACEFS);
	check_grep(&h);
	tasklife_free(&h);
}

/* trace-cmd report of the same events: recognized, the same life. */
static void
test_tracecmd_sample(void **state)
{
	struct tasklife	h;

	load(&h, tracecmd_sample);
	assert_int_equal(ktrace_form(&h.kt), KTRACE_TRACECMD);
	check_grep(&h);
	tasklife_free(&h);
}

/*
 * perf script: recognized; perf-exec woken at .042204 runs from .042256
 * to the trace's end (.042428: the last event used); migration/0, a
 * realtime kernel thread, ran 29 us after perf switched to it.
 */
static void
test_perf_sample(void **state)
{
	struct tasklife		 h;
	struct tasklife_task	*t;

	load(&h, perf_sample);
	assert_int_equal(ktrace_form(&h.kt), KTRACE_PERF);
	assert_non_null(t = task(&h, 1874));
	assert_string_equal(t->comm, "perf-exec");
	assert_int_equal(t->cpu, 172000);
	assert_int_equal(t->runs, 1);
	assert_int_equal(t->nlat, 1);
	assert_int_equal(t->lat[0], 52000);
	assert_non_null(t = task(&h, 18));
	assert_int_equal(t->prio, 0);
	assert_int_equal(t->cpu, 29000);
	/* perf: 7 us on CPU 0, then from its wake to its sleep on 1. */
	assert_non_null(t = task(&h, 1873));
	assert_int_equal(t->cpu, 7000 + 431000);
	assert_int_equal(h.begin, 2266041987000ULL);
	assert_int_equal(h.end, 2266042428000ULL);
	tasklife_free(&h);
}

/* --- A made-up workload in each layout. -------------------------------- */

/* One event of the made-up workload. */
struct gen {
	int		 cpu;
	uint64_t	 us;		/* time */
	char		 kind;		/* s switch, w wakeup, f fork, x exit */
	const char	*c1;
	int		 p1, prio1;
	const char	*state;		/* switch: prev_state */
	const char	*c2;
	int		 p2, prio2;
};

/*
 * Two CPUs.  "make" (pid 100, nice 0) runs on CPU 0 from 1.000000 s;
 * at 1.003 cc (pid 200, nice -5, woken at 1.0025) preempts it; make
 * waits, runs again 1.005..1.006, sleeps to 1.010 (woken), runs
 * 1.010..1.011 and exits.  cc forks "as" (300) at 1.004, runs till
 * 1.005 and sleeps.  as runs on CPU 1 1.0041..1.0081 and exits.  A
 * realtime task (pid 50, prio 49) and a kernel thread take CPU 1 for a
 * while.  "my prog" has a space and a long name.
 */
static const struct gen gen_events[] = {
	{ 0, 1000000, 's', "swapper/0", 0, 120, "R", "make", 100, 120 },
	{ 1, 1000100, 's', "swapper/1", 0, 120, "R", "kworker/1:0", 9, 120 },
	{ 1, 1000300, 's', "kworker/1:0", 9, 120, "I", "my prog with a long name", 77, 130 },
	{ 1, 1001300, 's', "my prog with a long name", 77, 130, "S", "swapper/1", 0, 120 },
	{ 0, 1002500, 'w', "cc", 200, 115, NULL, NULL, 0, 0 },
	{ 0, 1003000, 's', "make", 100, 120, "R+", "cc", 200, 115 },
	{ 0, 1004000, 'f', "cc", 200, 0, NULL, "as", 300, 0 },
	{ 0, 1004050, 'n', "as", 300, 120, NULL, NULL, 0, 0 },
	{ 1, 1004100, 's', "swapper/1", 0, 120, "R", "as", 300, 120 },
	{ 0, 1005000, 's', "cc", 200, 115, "S", "make", 100, 120 },
	{ 0, 1006000, 's', "make", 100, 120, "S", "rt", 50, 49 },
	{ 0, 1007000, 's', "rt", 50, 49, "S", "swapper/0", 0, 120 },
	{ 1, 1008100, 'x', "as", 300, 120, NULL, NULL, 0, 0 },
	{ 1, 1008100, 's', "as", 300, 120, "X", "swapper/1", 0, 120 },
	{ 0, 1010000, 'w', "make", 100, 120, NULL, NULL, 0, 0 },
	{ 0, 1010200, 's', "swapper/0", 0, 120, "R", "make", 100, 120 },
	{ 0, 1011200, 'x', "make", 100, 120, NULL, NULL, 0, 0 },
	{ 0, 1011200, 's', "make", 100, 120, "X", "swapper/0", 0, 120 },
	{ 1, 1012000, 's', "swapper/1", 0, 120, "R", "cc", 200, 115 },
};
#define NGEN	(sizeof gen_events / sizeof gen_events[0])

/* The head "comm-pid" of tracefs and trace-cmd (<idle> for pid 0). */
static void
gen_head(char *buf, size_t len, const struct gen *g, const char *run,
    int pid)
{
	if (pid == 0)
		snprintf(buf, len, "<idle>-0");
	else
		snprintf(buf, len, "%s-%d", run, pid);
}

/* The workload as text in form f (1 tracefs, 2 trace-cmd, 3 perf). */
static char *
gen_text(int form)
{
	const struct gen	*g;
	char			*buf, head[96], t[32], body[400];
	const char		*run[2] = { "swapper/0", "swapper/1" };
	int			 runpid[2] = { 0, 0 };
	size_t			 i, len = 0, size = 65536;

	buf = calloc(1, size);
	if (form == 1)
		len += (size_t)snprintf(buf + len, size - len,
		    "# tracer: nop\n#\n# entries-in-buffer/entries-written: "
		    "%zu/%zu   #P:2\n#\n", NGEN, NGEN);
	else if (form == 2)
		len += (size_t)snprintf(buf + len, size - len, "cpus=2\n");
	for (i = 0; i < NGEN; i++) {
		g = &gen_events[i];
		snprintf(t, sizeof t, "%llu.%06llu",
		    (unsigned long long)(g->us / 1000000),
		    (unsigned long long)(g->us % 1000000));
		switch (g->kind) {
		case 's':
			if (form == 2)
				snprintf(body, sizeof body, "sched_switch: "
				    "        %s:%d [%d] %s ==> %s:%d [%d]",
				    g->c1, g->p1, g->prio1, g->state, g->c2,
				    g->p2, g->prio2);
			else
				snprintf(body, sizeof body, "%ssched_switch: "
				    "prev_comm=%s prev_pid=%d prev_prio=%d "
				    "prev_state=%s ==> next_comm=%s next_pid=%d"
				    " next_prio=%d", form == 3 ?
				    "      sched:" : "", g->c1, g->p1, g->prio1,
				    g->state, g->c2, g->p2, g->prio2);
			break;
		case 'w':
		case 'n':
			if (form == 2)
				snprintf(body, sizeof body, "sched_wakeup%s:  "
				    "       %s:%d [%d] CPU:%03d", g->kind == 'n' ?
				    "_new" : "", g->c1, g->p1, g->prio1,
				    g->cpu);
			else
				snprintf(body, sizeof body, "%ssched_%s: "
				    "comm=%s pid=%d prio=%d target_cpu=%03d",
				    form == 3 ? "sched:" : "", g->kind == 'n' ?
				    "wakeup_new" : "waking", g->c1, g->p1,
				    g->prio1, g->cpu);
			break;
		case 'f':
			snprintf(body, sizeof body, "%ssched_process_fork: "
			    "comm=%s pid=%d child_comm=%s child_pid=%d",
			    form == 3 ? "sched:" : "", g->c1, g->p1, g->c2,
			    g->p2);
			break;
		default:
			snprintf(body, sizeof body, "%ssched_process_exit: "
			    "comm=%s pid=%d prio=%d group_dead=true",
			    form == 3 ? "sched:" : "", g->c1, g->p1,
			    g->prio1);
			break;
		}
		if (form == 3)
			len += (size_t)snprintf(buf + len, size - len,
			    "%16s %5d [%03d]  %s: %s\n", run[g->cpu],
			    runpid[g->cpu], g->cpu, t, body);
		else {
			gen_head(head, sizeof head, g, run[g->cpu],
			    runpid[g->cpu]);
			len += (size_t)snprintf(buf + len, size - len,
			    "%s%16s [%03d] %s %s: %s\n", form == 2 ?
			    "stairs: " : "", head, g->cpu, form == 1 ?
			    "d..2." : "", t, body);
		}
		if (g->kind == 's') {
			run[g->cpu] = g->c2;
			runpid[g->cpu] = g->p2;
		}
	}
	return (buf);
}

/* What every form of the made-up workload gives. */
static void
check_gen(struct tasklife *h)
{
	struct tasklife_task	*t;

	/* make: 3 ms, preempted 3 ms (not workload), 1 ms, sleeps 4 ms. */
	assert_non_null(t = task(h, 100));
	assert_int_equal(t->nbursts, 3);
	assert_int_equal(t->bursts[0], 4000000);
	assert_int_equal(t->bursts[1], 4000000);
	assert_int_equal(t->bursts[2], 1000000);
	assert_int_equal(t->cpu, 5000000);
	assert_int_equal(t->runs, 3);
	assert_int_equal(t->nlat, 2);	/* its first run, and at 1.0102 */
	assert_int_equal(t->lat[0], 0);
	assert_int_equal(t->lat[1], 200000);
	/* cc: woken 1.0025, ran 1.003..1.005, again from 1.012 to the end. */
	assert_non_null(t = task(h, 200));
	assert_int_equal(t->prio, 115);
	assert_int_equal(t->start, 1002500000ULL);
	assert_int_equal(t->cpu, 2000000);
	assert_int_equal(t->lat[0], 500000);
	/* as: forked 1.004, new at 1.00405, ran 4 ms on CPU 1, exited. */
	assert_non_null(t = task(h, 300));
	assert_int_equal(t->cpu, 4000000);
	assert_int_equal(t->nbursts, 1);
	assert_int_equal(t->lat[0], 50000);
	assert_int_equal(h->end - h->begin, 12000000);
	assert_int_equal(h->gaps, 0);
}

/* The made-up workload reads alike in all three forms. */
static void
test_gen_forms(void **state)
{
	static const enum ktrace_form	forms[3] = { KTRACE_TRACEFS,
					    KTRACE_TRACECMD, KTRACE_PERF };
	struct tasklife			h;
	char				*text;
	int				 f;

	for (f = 1; f <= 3; f++) {
		text = gen_text(f);
		load(&h, text);
		assert_int_equal(ktrace_form(&h.kt), forms[f - 1]);
		check_gen(&h);
		tasklife_free(&h);
		free(text);
	}
}

/* Write h's scenario into a string with o's choices. */
static char *
emit_text(struct tasklife *h, struct emit_opts *o, struct emit_result *r)
{
	char	*buf = NULL, *cause = NULL;
	size_t	 len = 0;
	FILE	*f;

	f = open_memstream(&buf, &len);
	if (emit_scenario(f, h, o, r, &cause) != 0)
		fail_msg("emit: %s", cause);
	fclose(f);
	return (buf);
}

/*
 * The scenario: kernel threads and realtime tasks left out (the latter
 * listed), names made valid, nice from prio, the kernel rows; it loads,
 * and each task played once runs its CPU time (in whole ticks) and ends.
 */
static void
test_gen_scenario(void **state)
{
	struct tasklife		 h;
	struct emit_opts	 o;
	struct emit_result	 r;
	struct scenario		*sc;
	struct engine_params	 p;
	struct engine_task_info	 ti;
	struct engine		*e;
	char			*text, *notes = NULL, *cause = NULL;
	size_t			 nlen = 0;
	int			 i, id;

	text = gen_text(1);
	load(&h, text);
	free(text);
	memset(&o, 0, sizeof o);
	o.notes = open_memstream(&notes, &nlen);
	text = emit_text(&h, &o, &r);
	fclose(o.notes);
	assert_int_equal(r.written, 4);
	assert_int_equal(r.kthreads, 1);
	assert_int_equal(r.realtime, 1);
	assert_non_null(strstr(notes, "realtime task rt-50 (prio 49)"));
	assert_non_null(strstr(text, "cpus = 2;"));
	assert_non_null(strstr(text, "name = \"make-100\"; nice = 0; "
	    "start = 0;"));
	assert_non_null(strstr(text, "name = \"cc-200\"; nice = -5; "
	    "start = 3;"));
	/* "my prog with a long name" (nice 10) cut to fit 31 with -77. */
	assert_non_null(strstr(text, "name = \"my_prog_with_a_long_name-77\"; "
	    "nice = 10;"));
	assert_non_null(strstr(text, "bursts = [ 4000, 4000, 1000 ]"));
	assert_non_null(strstr(text, "# kernel: span_us=12000 cpus=2"));
	assert_non_null(strstr(text, "# kernel: task=make-100 nice=0 "
	    "share=41.6667 ran_us=5000 runs=3 lat_p50=0.000 lat_p95=0.200 "
	    "lat_max=0.200"));
	assert_null(strstr(text, "kworker"));

	sc = scenario_load_string(text, "gen.cfg", &cause);
	if (sc == NULL)
		fail_msg("%s", cause);
	assert_int_equal(sc->kernel.nrows, 4);
	assert_int_equal(sc->kernel.span_us, 12000);
	engine_params_default(&p);
	scenario_params(sc, &p);
	e = engine_create(&p, NULL);
	assert_int_equal(scenario_apply(sc, e, NULL, NULL, &cause), 0);
	for (i = 0; i < 100; i++)
		engine_tick(e);
	/* make: 4 + 1 ticks of CPU, then gone; as: 4 ticks. */
	id = engine_task_find(e, "make-100");
	assert_int_equal(engine_task_info(e, id, &ti), 0);
	assert_int_equal(ti.ran, 5);
	assert_int_equal(ti.state, ENGINE_EXITED);
	assert_int_equal(ti.exit, ENGINE_EXIT_DONE);
	id = engine_task_find(e, "as-300");
	assert_int_equal(engine_task_info(e, id, &ti), 0);
	assert_int_equal(ti.ran, 4);
	assert_int_equal(ti.exit, ENGINE_EXIT_DONE);
	engine_free(e);
	scenario_free(sc);
	free(text);
	free(notes);
	tasklife_free(&h);
}

/* --pid, --comm and --top choose; --cpus and kernel threads kept. */
static void
test_select(void **state)
{
	struct tasklife		 h;
	struct emit_opts	 o;
	struct emit_result	 r;
	char			*text, *comms[1] = { "as" };
	int			 pids[2] = { 100, 200 };

	text = gen_text(3);
	load(&h, text);
	free(text);
	memset(&o, 0, sizeof o);
	o.pids = pids;
	o.npids = 2;
	text = emit_text(&h, &o, &r);
	assert_int_equal(r.written, 2);
	assert_null(strstr(text, "as-300"));
	free(text);
	memset(&o, 0, sizeof o);
	o.comms = comms;
	o.ncomms = 1;
	o.cpus = 4;
	text = emit_text(&h, &o, &r);
	assert_int_equal(r.written, 1);
	assert_non_null(strstr(text, "as-300"));
	assert_non_null(strstr(text, "cpus = 4;"));
	free(text);
	memset(&o, 0, sizeof o);
	o.top = 2;			/* make 5 ms, as 4 ms */
	text = emit_text(&h, &o, &r);
	assert_int_equal(r.written, 2);
	assert_non_null(strstr(text, "make-100"));
	assert_non_null(strstr(text, "as-300"));
	free(text);
	memset(&o, 0, sizeof o);
	o.kthreads = 1;
	text = emit_text(&h, &o, &r);
	assert_non_null(strstr(text, "kworker_1_0-9"));
	free(text);
	tasklife_free(&h);
}

/* --- Bad traces and survivable ones. ---------------------------------- */

#define SW(cpu, t, pc, pp, st, nc, np)					\
	"            x-1    [00" #cpu "] d..2.  " t ": sched_switch: "	\
	"prev_comm=" pc " prev_pid=" #pp " prev_prio=120 prev_state=" st	\
	" ==> next_comm=" nc " next_pid=" #np " next_prio=120\n"

/* Expect text to be refused at line want, the message saying what. */
static void
refused(const char *text, int want, const char *what)
{
	struct tasklife_opts	 o;
	struct tasklife		 h;
	char			*cause;
	int			 line;

	memset(&o, 0, sizeof o);
	tasklife_init(&h, &o);
	line = feed(&h, text, &cause);
	if (line == 0 && tasklife_finish(&h, &cause) == 0)
		fail_msg("accepted; expected \"%s\" at line %d", what, want);
	if (line != want || strstr(cause, what) == NULL)
		fail_msg("line %d: %s; expected \"%s\" at line %d", line,
		    cause, what, want);
	free(cause);
	tasklife_free(&h);
}

/* Garbled lines, a mix of forms, impossible steps: FILE:LINE. */
static void
test_bad(void **state)
{
	refused(SW(0, "1.000000", "a", 5, "S", "b", 6)
	    "this is not a trace line\n", 2, "not a line of perf script");
	refused(SW(0, "1.000000", "a", 5, "S", "b", 6)
	    "            x-1    [000] d..2.  1.000100: sched_switch: "
	    "prev_comm=b prev_pid=6 prev_prio=120 prev_st\n", 2,
	    "sched_switch: cannot read");
	/* A perf line among tracefs lines, trace-cmd's text among them. */
	refused(SW(0, "1.000000", "a", 5, "S", "b", 6)
	    "      b     6 [000]  1.000100:       sched:sched_switch: "
	    "prev_comm=b prev_pid=6 prev_prio=120 prev_state=S ==> "
	    "next_comm=a next_pid=5 next_prio=120\n", 2, "a mix of formats");
	refused(SW(0, "1.000000", "a", 5, "S", "b", 6)
	    "  b-6  [000]  1.000100: sched_switch:  b:6 [120] S ==> "
	    "a:5 [120]\n", 2, "a mix of formats");
	refused("cpus=2\n# tracer: nop\n", 2, "a mix of formats");
	/* Time going back on CPU 0 (CPU 1's own clock may differ). */
	refused(SW(0, "1.000200", "a", 5, "S", "b", 6)
	    SW(1, "1.000100", "c", 7, "S", "d", 8)
	    SW(0, "1.000100", "b", 6, "S", "a", 5), 3,
	    "time goes back on CPU 0");
	/* b switched in on CPU 1 while it runs on 0, which then has it. */
	refused(SW(0, "1.000000", "a", 5, "S", "b", 6)
	    SW(1, "1.000100", "c", 7, "S", "b", 6)
	    SW(0, "1.000200", "b", 6, "S", "a", 5), 2,
	    "switched in on CPU 1 while it runs on CPU 0");
	/* No event at all: refused at the end (line 0 here). */
	refused("# tracer: nop\n", 0, "no scheduler event");
}

/* Survived: a missing switch, lost events, a pid used again. */
static void
test_survived(void **state)
{
	struct tasklife		 h;
	struct tasklife_task	*t;
	struct emit_opts	 o;
	struct emit_result	 r;
	char			*text;

	/*
	 * CPU 0 switches out c, which it was not seen to run: a gap.  c,
	 * which the line shows running, gets the time since the switch
	 * before; b, whose switch-out is missing, none of it.
	 */
	load(&h, SW(0, "1.000000", "a", 5, "S", "b", 6)
	    SW(0, "1.000200", "c", 7, "S", "a", 5)
	    SW(0, "1.000300", "a", 5, "S", "b", 6));
	assert_int_equal(h.gaps, 1);
	assert_non_null(t = task(&h, 7));
	assert_int_equal(t->cpu, 200000);
	assert_non_null(t = task(&h, 6));
	assert_int_equal(t->cpu, 0);
	assert_non_null(t = task(&h, 5));
	assert_int_equal(t->cpu, 100000);
	tasklife_free(&h);

	/* b on two CPUs at once, after lost events: repaired. */
	load(&h, SW(0, "1.000000", "a", 5, "S", "b", 6)
	    "CPU:1 [LOST 12 EVENTS]\n"
	    SW(1, "1.000100", "c", 7, "S", "b", 6)
	    SW(0, "1.000200", "b", 6, "S", "a", 5));
	assert_int_equal(h.kt.lost, 12);
	assert_int_equal(h.kt.lost_marks, 1);
	assert_int_equal(h.repaired, 1);
	tasklife_free(&h);

	/* trace-cmd's and perf's words for lost events. */
	load(&h, "cpus=2\nCPU:0 [3 EVENTS DROPPED]\n"
	    "  a-5  [000]  1.000000: sched_switch:  a:5 [120] S ==> "
	    "b:6 [120]\n");
	assert_int_equal(h.kt.lost, 3);
	tasklife_free(&h);
	load(&h, "CPU 1: 7 events lost\n" SW(0, "1.000000", "a", 5, "S",
	    "b", 6));
	assert_int_equal(h.kt.lost, 7);
	tasklife_free(&h);
	/*
	 * trace-cmd report of an instance's buffer: its name before every
	 * line, the CPUs' notes too (the e2e test's recording lost some).
	 */
	load(&h, "cpus=2\nrec-7: CPU 1 is empty\nrec-7: CPU:0 [LOST 4 "
	    "EVENTS]\nrec-7:  a-5  [000]  1.000000: sched_switch:  a:5 "
	    "[120] S ==> b:6 [120]\n");
	assert_int_equal(h.kt.lost, 4);
	tasklife_free(&h);

	/* b-6 exits; pid 6 is forked again: a second life, named .2. */
	load(&h, SW(0, "1.000000", "a", 5, "S", "b", 6)
	    SW(0, "1.001000", "b", 6, "X", "a", 5)
	    "            a-5    [000] .....  1.001500: sched_process_fork: "
	    "comm=a pid=5 child_comm=b pid=6 child_pid=6\n"
	    SW(0, "1.002000", "a", 5, "S", "b", 6)
	    SW(0, "1.004000", "b", 6, "S", "a", 5));
	assert_int_equal(h.reused, 1);
	memset(&o, 0, sizeof o);
	text = emit_text(&h, &o, &r);
	assert_non_null(strstr(text, "name = \"b-6\""));
	assert_non_null(strstr(text, "name = \"b-6.2\""));
	free(text);
	tasklife_free(&h);
}

/*
 * A wake on another CPU stamped before the task's sleep began (each
 * CPU's clock only goes forward, not all of them together): a sleep of
 * 0, never one that wraps (fuzz_import found it).
 */
static void
test_wake_before_sleep(void **state)
{
	struct tasklife		 h;
	struct tasklife_task	*t;

	load(&h, SW(0, "5.000000", "a", 5, "S", "b", 6)
	    SW(1, "5.000100", "c", 7, "S", "d", 8)
	    SW(0, "5.001000", "b", 6, "S", "a", 5)
	    "          <idle>-0       [001] dNs5.  5.000500: sched_wakeup: "
	    "comm=b pid=6 prio=120 target_cpu=000\n"
	    SW(0, "5.002000", "a", 5, "S", "b", 6)
	    SW(0, "5.003000", "b", 6, "S", "a", 5));
	assert_non_null(t = task(&h, 6));
	assert_int_equal(t->nbursts, 3);
	assert_int_equal(t->bursts[1], 0);
	assert_int_equal(t->lat[1], 1500000);
	assert_int_equal(t->cpu, 2000000);
	tasklife_free(&h);
}

/*
 * A sleep past 2^31 us (36 min) needs libconfig's L, and an array of
 * one type: every value of the list gets it (fuzz_import found it).
 */
static void
test_wide_bursts(void **state)
{
	struct tasklife		 h;
	struct emit_opts	 o;
	struct emit_result	 r;
	struct scenario		*sc;
	char			*text, *cause = NULL;

	load(&h, SW(0, "1.000000", "a", 5, "S", "b", 6)
	    SW(0, "1.001000", "b", 6, "S", "a", 5)
	    SW(0, "3000.000000", "a", 5, "S", "b", 6)
	    SW(0, "3000.002000", "b", 6, "S", "a", 5));
	memset(&o, 0, sizeof o);
	text = emit_text(&h, &o, &r);
	assert_non_null(strstr(text, "bursts = [ 1000L, 2998999000L, "
	    "2000L ]"));
	if ((sc = scenario_load_string(text, "t.cfg", &cause)) == NULL)
		fail_msg("%s", cause);
	scenario_free(sc);
	free(text);
	tasklife_free(&h);
}

/* --from and --to: the window is the trace. */
static void
test_window(void **state)
{
	struct tasklife_opts	 o;
	struct tasklife		 h;
	struct tasklife_task	*t;
	char			*cause, *text;

	text = gen_text(1);
	memset(&o, 0, sizeof o);
	o.from = 2000000;	/* 1.002 */
	o.to = 8000000;		/* 1.008 */
	tasklife_init(&h, &o);
	assert_int_equal(feed(&h, text, &cause), 0);
	assert_int_equal(tasklife_finish(&h, &cause), 0);
	assert_int_equal(h.begin, 1002000000ULL);
	assert_int_equal(h.end, 1008000000ULL);
	/* make: running at 1.002, 1 ms to 1.003, then 1.005..1.006. */
	assert_non_null(t = task(&h, 100));
	assert_int_equal(t->cpu, 2000000);
	/* as: running at 1.008, cut there. */
	assert_non_null(t = task(&h, 300));
	assert_int_equal(t->cpu, 3900000);
	tasklife_free(&h);
	free(text);
}

/* --- The loader's side: bursts to ticks, kernel rows. ----------------- */

/*
 * Sub-tick bursts: 1000 runs of 300 us between sleeps of 5 ms keep
 * 300 ms of CPU in 300 ticks, with a wake for most runs (those whose
 * running sum crosses a half tick); the sleeps keep their 5 ms.
 */
static void
test_bursts_subtick(void **state)
{
	struct bursts_ticks	 bt;
	uint64_t		 us[1999], ran = 0;
	size_t			 i;
	char			*cause;

	for (i = 0; i < 1999; i++)
		us[i] = i % 2 == 0 ? 300 : 5000;
	assert_int_equal(bursts_ticks(us, 1999, &bt, &cause), 0);
	for (i = 0; i < bt.npattern - 1; i += 2)
		ran += bt.pattern[i];
	assert_int_equal(ran, 300);
	assert_int_equal(bt.ran, 300);
	assert_int_equal(bt.runs_in, 1000);
	assert_int_equal(bt.runs, 300);
	assert_int_equal(bt.npattern % 2, 0);
	bursts_free(&bt);

	/* 1.4 ms runs round on their sum: 1, 2, 1, 2, 1 ticks = 7 ms. */
	{
		uint64_t	v[9] = { 1400, 3000, 1400, 3000, 1400, 3000,
				    1400, 3000, 1400 };
		static const uint32_t want[10] = { 1, 3, 2, 3, 1, 3, 2, 3, 1,
				    1 };

		assert_int_equal(bursts_ticks(v, 9, &bt, &cause), 0);
		assert_int_equal(bt.npattern, 10);
		for (i = 0; i < 10; i++)
			assert_int_equal(bt.pattern[i], want[i]);
		assert_int_equal(bt.ran, 7);
		bursts_free(&bt);
	}
	/* A task of 200 us in all still runs a tick; none at all is bad. */
	us[0] = 200;
	assert_int_equal(bursts_ticks(us, 1, &bt, &cause), 0);
	assert_int_equal(bt.ran, 1);
	bursts_free(&bt);
	us[0] = 0;
	assert_int_equal(bursts_ticks(us, 1, &bt, &cause), -1);
	assert_non_null(strstr(cause, "no run has any CPU time"));
	free(cause);
}

/* Load text; NULL and the message in *cause if refused. */
static struct scenario *
try_load(const char *text, char **cause)
{
	*cause = NULL;
	return (scenario_load_string(text, "t.cfg", cause));
}

/* The loader's words on bursts and kernel rows. */
static void
test_loader(void **state)
{
	struct scenario	*sc;
	char		*cause;

	sc = try_load("tasks = ( { name = \"a\"; start = 5; "
	    "bursts = [ 100, 2000, 2600 ]; } );", &cause);
	assert_non_null(sc);
	/* 100 us rounds to no tick: the task starts 2 ms later. */
	assert_int_equal(sc->tasks[0].lead, 2);
	assert_int_equal(sc->tasks[0].once, 1);
	assert_int_equal(sc->tasks[0].npattern, 2);
	assert_int_equal(sc->tasks[0].pattern[0], 3);
	scenario_free(sc);

	assert_null(try_load("tasks = ( { name = \"a\"; pattern = [ 1, 2 ]; "
	    "bursts = [ 1000 ]; } );", &cause));
	assert_non_null(strstr(cause, "t.cfg:1: task has both pattern and "
	    "bursts"));
	free(cause);
	assert_null(try_load("tasks = ( { name = \"a\";\n bursts = "
	    "[ 1000, -1 ]; } );", &cause));
	assert_non_null(strstr(cause, "t.cfg:2: bursts value -1 is "
	    "negative"));
	free(cause);
	assert_null(try_load("# kernel: span_us=1000 cpus=1\n"
	    "# kernel: task=b nice=0 share=1 ran_us=10 runs=1 lat_p50=- "
	    "lat_p95=- lat_max=-\ntasks = ( { name = \"a\"; } );", &cause));
	assert_non_null(strstr(cause, "t.cfg:2: kernel row for unknown "
	    "task \"b\""));
	free(cause);
	assert_null(try_load("# kernel: span_us=1000 cpus=1\n"
	    "# kernel: task=a nice=0 share=x\ntasks = ( { name = \"a\"; } );",
	    &cause));
	assert_non_null(strstr(cause, "t.cfg:2: kernel comment: bad share"));
	free(cause);
	assert_null(try_load("# kernel: task=a\ntasks = ( { name = \"a\"; } "
	    ");", &cause));
	assert_non_null(strstr(cause, "t.cfg:1: a kernel row before"));
	free(cause);
}

/* A pattern without once cycles forever, as before. */
static void
test_engine_cycles(void **state)
{
	struct engine_params	 p;
	struct engine_task_spec	 spec;
	struct engine_task_info	 ti;
	struct engine		*e;
	uint32_t		 pat[2] = { 2, 3 };
	char			*cause;
	int			 i, id;

	engine_params_default(&p);
	e = engine_create(&p, NULL);
	memset(&spec, 0, sizeof spec);
	spec.name = "t";
	spec.pattern = pat;
	spec.npattern = 2;
	spec.group = -1;
	id = engine_task_add(e, &spec, &cause);
	for (i = 0; i < 50; i++)
		engine_tick(e);
	engine_task_info(e, id, &ti);
	assert_int_equal(ti.ran, 20);
	assert_int_not_equal(ti.state, ENGINE_EXITED);
	engine_free(e);
}

/* Names: other characters '_', the comm cut, the pid kept whole. */
static void
test_names(void **state)
{
	struct tasklife_task	t;
	char			name[64];

	memset(&t, 0, sizeof t);
	strcpy(t.comm, "kworker/u4:2-events_unbound(x)");
	t.pid = 4194303;
	t.life = 1;
	emit_name(&t, name, sizeof name);
	assert_string_equal(name, "kworker_u4_2-events_unb-4194303");
	assert_int_equal(strlen(name), 31);
	t.life = 12;
	emit_name(&t, name, sizeof name);
	assert_string_equal(name, "kworker_u4_2-events_-4194303.12");
	t.comm[0] = '\0';
	t.life = 1;
	emit_name(&t, name, sizeof name);
	assert_string_equal(name, "task-4194303");
	assert_true(emit_is_kthread("ksoftirqd/1", 14));
	assert_true(emit_is_kthread("rcu_preempt", 15));
	assert_true(emit_is_kthread("anything", 2));
	assert_false(emit_is_kthread("make", 100));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tracefs_sample),
		cmocka_unit_test(test_tracecmd_sample),
		cmocka_unit_test(test_perf_sample),
		cmocka_unit_test(test_gen_forms),
		cmocka_unit_test(test_gen_scenario),
		cmocka_unit_test(test_select),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_survived),
		cmocka_unit_test(test_wake_before_sleep),
		cmocka_unit_test(test_wide_bursts),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_bursts_subtick),
		cmocka_unit_test(test_loader),
		cmocka_unit_test(test_engine_cycles),
		cmocka_unit_test(test_names),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
