/*
 * test_perfetto.c -- `stairsd --headless --perfetto PATH` (SPEC.md section
 * 9) read back with the line grammar of Perfetto's systrace importer
 * (trace_processor/importers/systrace: systrace_trace_parser,
 * systrace_line_tokenizer, systrace_line_parser):
 *
 * - lines starting with '#' are skipped, the first is "# tracer: nop";
 * - every other line matches the tokenizer's expression
 *	-(PID)\s+\(?\s*(TGID|-+)?\)?\s?\[(CPU)\]\s*(FLAGS\s*)?(TS):\s+(EVENT):
 *   the task name is what precedes the match, the args what follows;
 * - args split on single blanks, each "key=value" (a token without '='
 *   is "name"); sched_switch needs prev_pid, prev_prio, next_pid and
 *   next_prio as numbers (and prev_comm, prev_state, next_comm),
 *   sched_waking needs pid; tracing_mark_write "C|pid|name|value" is a
 *   counter.
 *
 * Then the switches, wakes and rank counters must be the CSV trace's of
 * the same run: a switch wherever a CPU's task changes from one row to
 * the next, a counter wherever a task's rank changes, and exactly one
 * wake before each burst of a task (a pattern task [run, sleep] runs
 * `run` rows per burst).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>

#include <cmocka.h>

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stairsd.h"

#define PT_MAX		200000
#define PT_TASKS	64

/* One event read from the Perfetto file. */
struct pt_event {
	char		 kind;		/* 's' switch, 'w' waking, 'c' counter */
	long		 tick;
	int		 cpu;
	int		 prev_pid, prev_prio, next_pid, next_prio;
	char		 prev_comm[64], next_comm[64], prev_state[8];
	int		 pid, value;	/* waking, counter */
};

/* One CSV row. */
struct pt_row {
	long	tick;
	int	cpu;
	char	task[64];	/* "-" idle */
	int	rank;
};

static struct pt_event	pt_ev[PT_MAX];
static int		pt_nev;
static struct pt_row	pt_rows[PT_MAX];
static int		pt_nrows;

/* The value of key in a blank-split args string, NULL if absent. */
static const char *
pt_arg(char *args, const char *key, char *buf, size_t len)
{
	char	*copy, *tok, *save, *eq;
	size_t	 kl = strlen(key);

	copy = strdup(args);
	for (tok = strtok_r(copy, " ", &save); tok != NULL;
	    tok = strtok_r(NULL, " ", &save)) {
		if ((eq = strchr(tok, '=')) == NULL)
			continue;
		if ((size_t)(eq - tok) == kl && strncmp(tok, key, kl) == 0) {
			snprintf(buf, len, "%s", eq + 1);
			free(copy);
			return (buf);
		}
	}
	free(copy);
	return (NULL);
}

/* A whole decimal number, as base::StringToInt32 wants it. */
static int
pt_number(const char *s, int *out)
{
	char	*end;
	long	 v;

	if (s == NULL || *s == '\0')
		return (-1);
	v = strtol(s, &end, 10);
	if (*end != '\0')
		return (-1);
	*out = (int)v;
	return (0);
}

/* Read a Perfetto text trace with the importer's grammar. */
static void
pt_read_perfetto(const char *path)
{
	regex_t		 re;
	regmatch_t	 m[7];
	FILE		*f;
	char		 line[1024], ts[64], ev[64], *args, buf[64];
	char		*dot;
	struct pt_event	*e;
	int		 lineno = 0, cpu;
	long		 sec, us;

	assert_int_equal(regcomp(&re, "-([0-9]+)[[:space:]]+\\(?[[:space:]]*"
	    "([0-9]+|-+)?\\)?[[:space:]]?\\[([0-9]+)\\][[:space:]]*"
	    "([a-zA-Z.]{3}[0-9a-f.]{1,2}[[:space:]]*)?([0-9]+\\.[0-9]+):"
	    "[[:space:]]+([^[:space:]]+):", REG_EXTENDED), 0);
	assert_non_null(f = fopen(path, "r"));
	pt_nev = 0;
	while (fgets(line, sizeof line, f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (lineno++ == 0)
			assert_string_equal(line, "# tracer: nop");
		if (line[0] == '#' || line[0] == '\0')
			continue;
		if (regexec(&re, line, 7, m, 0) != 0)
			fail_msg("line %d: not a systrace line: %s", lineno,
			    line);
		/* The task name precedes the match: no blank inside. */
		assert_true(m[0].rm_so > 0);
		snprintf(ts, sizeof ts, "%.*s", (int)(m[5].rm_eo - m[5].rm_so),
		    line + m[5].rm_so);
		snprintf(ev, sizeof ev, "%.*s", (int)(m[6].rm_eo - m[6].rm_so),
		    line + m[6].rm_so);
		cpu = atoi(line + m[3].rm_so);
		args = line + m[0].rm_eo;
		while (*args == ' ')
			args++;
		/* Timestamps: seconds with six decimals, whole ms here. */
		dot = strchr(ts, '.');
		assert_non_null(dot);
		assert_int_equal(strlen(dot + 1), 6);
		sec = strtol(ts, NULL, 10);
		us = strtol(dot + 1, NULL, 10);
		assert_int_equal(us % 1000, 0);
		assert_true(pt_nev < PT_MAX);
		e = &pt_ev[pt_nev];
		memset(e, 0, sizeof *e);
		e->tick = sec * 1000 + us / 1000;
		e->cpu = cpu;
		if (strcmp(ev, "sched_switch") == 0) {
			e->kind = 's';
			assert_int_equal(pt_number(pt_arg(args, "prev_pid", buf,
			    sizeof buf), &e->prev_pid), 0);
			assert_int_equal(pt_number(pt_arg(args, "prev_prio",
			    buf, sizeof buf), &e->prev_prio), 0);
			assert_int_equal(pt_number(pt_arg(args, "next_pid", buf,
			    sizeof buf), &e->next_pid), 0);
			assert_int_equal(pt_number(pt_arg(args, "next_prio",
			    buf, sizeof buf), &e->next_prio), 0);
			assert_non_null(pt_arg(args, "prev_comm", e->prev_comm,
			    sizeof e->prev_comm));
			assert_non_null(pt_arg(args, "next_comm", e->next_comm,
			    sizeof e->next_comm));
			assert_non_null(pt_arg(args, "prev_state",
			    e->prev_state, sizeof e->prev_state));
			assert_non_null(strstr(args, " ==> "));
		} else if (strcmp(ev, "sched_waking") == 0) {
			e->kind = 'w';
			assert_int_equal(pt_number(pt_arg(args, "pid", buf,
			    sizeof buf), &e->pid), 0);
		} else if (strcmp(ev, "tracing_mark_write") == 0) {
			e->kind = 'c';
			assert_int_equal(sscanf(args, "C|%d|rank|%d", &e->pid,
			    &e->value), 2);
		} else
			fail_msg("line %d: unexpected event %s", lineno, ev);
		pt_nev++;
	}
	fclose(f);
	regfree(&re);
}

/* Read the CSV trace. */
static void
pt_read_csv(const char *path)
{
	FILE	*f;
	char	 line[256], rank[32];
	int	 n;

	assert_non_null(f = fopen(path, "r"));
	pt_nrows = 0;
	assert_non_null(fgets(line, sizeof line, f));	/* header */
	while (fgets(line, sizeof line, f) != NULL) {
		assert_true(pt_nrows < PT_MAX);
		n = sscanf(line, "%ld,%d,%63[^,],%31[^,]",
		    &pt_rows[pt_nrows].tick, &pt_rows[pt_nrows].cpu,
		    pt_rows[pt_nrows].task, rank);
		assert_int_equal(n, 4);
		pt_rows[pt_nrows].rank = rank[0] == '-' ? -1 : atoi(rank);
		pt_nrows++;
	}
	fclose(f);
}

/* The pid the Perfetto file gives a task name (from its switches). */
static int
pt_pid_of(const char *name)
{
	int	i, pid = -1;

	for (i = 0; i < pt_nev; i++) {
		if (pt_ev[i].kind != 's' ||
		    strcmp(pt_ev[i].next_comm, name) != 0)
			continue;
		if (pid == -1)
			pid = pt_ev[i].next_pid;
		assert_int_equal(pt_ev[i].next_pid, pid);	/* one pid */
	}
	return (pid);
}

/* Run a scenario headless with both traces and compare them. */
static void
pt_check(const char *scenario, const char *ticks, const char *pattern_task,
    int run)
{
	char		 sc[64], csv[64], pf[64];
	char		*argv[] = { "stairsd", "--headless", "--scenario", sc,
			    "--ticks", (char *)ticks, "--trace", csv,
			    "--perfetto", pf, NULL };
	FILE		*f;
	struct pt_event	*e;
	int		 cur[8], rank[PT_TASKS], i, j, k, c, pid, ns = 0, nc = 0;
	int		 wakes, bursts, inburst, nw;
	long		 wt[4096], first[4096], last[4096];
	char		 prevname[8][64];

	snprintf(sc, sizeof sc, "/tmp/test_perfetto.%ld.cfg", (long)getpid());
	snprintf(csv, sizeof csv, "/tmp/test_perfetto.%ld.csv", (long)getpid());
	snprintf(pf, sizeof pf, "/tmp/test_perfetto.%ld.trace",
	    (long)getpid());
	assert_non_null(f = fopen(sc, "w"));
	fputs(scenario, f);
	fclose(f);
	assert_int_equal(headless_main(10, argv), 0);
	pt_read_perfetto(pf);
	pt_read_csv(csv);
	unlink(sc);
	unlink(csv);
	unlink(pf);

	/* Switches: wherever a CPU's task changes from one row to the next. */
	for (c = 0; c < 8; c++) {
		cur[c] = 0;
		snprintf(prevname[c], sizeof prevname[c], "-");
	}
	for (i = 0; i < PT_TASKS; i++)
		rank[i] = -1;
	j = 0;
	for (i = 0; i < pt_nrows; i++) {
		c = pt_rows[i].cpu;
		assert_true(c < 8);
		pid = strcmp(pt_rows[i].task, "-") == 0 ? 0 :
		    pt_pid_of(pt_rows[i].task);
		assert_true(pid >= 0 && pid < PT_TASKS);
		if (strcmp(pt_rows[i].task, prevname[c]) != 0) {
			/* The next switch in the file is this one. */
			while (j < pt_nev && pt_ev[j].kind != 's')
				j++;
			assert_true(j < pt_nev);
			e = &pt_ev[j++];
			assert_int_equal(e->tick, pt_rows[i].tick);
			assert_int_equal(e->cpu, c);
			assert_int_equal(e->prev_pid, cur[c]);
			assert_int_equal(e->next_pid, pid);
			if (pid != 0)
				assert_int_equal(e->next_prio, pt_rows[i].rank);
			ns++;
			cur[c] = pid;
			snprintf(prevname[c], sizeof prevname[c], "%s",
			    pt_rows[i].task);
		}
	}
	for (; j < pt_nev; j++)
		assert_true(pt_ev[j].kind != 's');	/* no extra switch */

	/* Counters: wherever a task's rank changes in the rows. */
	j = 0;
	for (i = 0; i < pt_nrows; i++) {
		if (strcmp(pt_rows[i].task, "-") == 0)
			continue;
		pid = pt_pid_of(pt_rows[i].task);
		if (rank[pid] == pt_rows[i].rank)
			continue;
		rank[pid] = pt_rows[i].rank;
		while (j < pt_nev && pt_ev[j].kind != 'c')
			j++;
		assert_true(j < pt_nev);
		e = &pt_ev[j++];
		assert_int_equal(e->tick, pt_rows[i].tick);
		assert_int_equal(e->pid, pid);
		assert_int_equal(e->value, pt_rows[i].rank);
		nc++;
	}
	for (; j < pt_nev; j++)
		assert_true(pt_ev[j].kind != 'c');
	assert_true(ns > 2);
	assert_true(nc > 2);

	/*
	 * Wakes of the pattern task: one before each burst of `run` rows,
	 * after the burst before it.
	 */
	pid = pt_pid_of(pattern_task);
	nw = 0;
	for (i = 0; i < pt_nev; i++) {
		if (pt_ev[i].kind == 'w' && pt_ev[i].pid == pid) {
			assert_true(nw < 4096);
			wt[nw++] = pt_ev[i].tick;
		}
	}
	bursts = 0;
	inburst = 0;
	for (i = 0; i < pt_nrows; i++) {
		if (strcmp(pt_rows[i].task, pattern_task) != 0)
			continue;
		if (inburst == 0) {
			assert_true(bursts < 4096);
			first[bursts] = pt_rows[i].tick;
		}
		last[bursts] = pt_rows[i].tick;
		if (++inburst == run) {
			inburst = 0;
			bursts++;
		}
	}
	if (inburst != 0)
		bursts++;
	wakes = nw;
	/* Woken once more at the end, not yet run: allowed. */
	assert_true(wakes == bursts || wakes == bursts + 1);
	assert_true(bursts > 3);
	for (k = 0; k < bursts; k++) {
		assert_true(wt[k] <= first[k]);
		if (k > 0)
			assert_true(wt[k] > last[k - 1]);
	}
	/* Every other task: woken exactly once (its start), before it ran. */
	for (i = 0; i < pt_nev; i++) {
		if (pt_ev[i].kind != 'w' || pt_ev[i].pid == pid)
			continue;
		for (k = 0; k < i; k++)
			assert_false(pt_ev[k].kind == 'w' &&
			    pt_ev[k].pid == pt_ev[i].pid);
	}
}

/* One CPU: an interactive task beside two hogs. */
static void
test_one_cpu(void **state)
{
	pt_check("cpus = 1;\n"
	    "tasks = (\n"
	    "  { name = \"hog1\"; },\n"
	    "  { name = \"hog2\"; nice = 5; },\n"
	    "  { name = \"editor\"; pattern = [ 2, 40 ]; start = 5; }\n"
	    ");\n", "3000", "editor", 2);
}

/* Two CPUs, idle time, balancing, and a late task. */
static void
test_two_cpus(void **state)
{
	pt_check("cpus = 2;\n"
	    "balance_interval = 50;\n"
	    "tasks = (\n"
	    "  { name = \"hog1\"; },\n"
	    "  { name = \"hog2\"; start = 300; },\n"
	    "  { name = \"typist\"; pattern = [ 3, 17 ]; },\n"
	    "  { name = \"late\"; start = 1500; }\n"
	    ");\n", "3000", "typist", 3);
}

/*
 * A sleep injected into a task already asleep only moves its wake: no
 * wake shows until it really wakes (one per burst, as ever).
 */
static void
test_injected_sleep(void **state)
{
	pt_check("cpus = 1;\n"
	    "tasks = (\n"
	    "  { name = \"hog\"; },\n"
	    "  { name = \"editor\"; pattern = [ 2, 40 ]; }\n"
	    ");\n"
	    "events = (\n"
	    "  { at = 20; action = \"sleep\"; task = \"editor\"; ms = 100; },\n"
	    "  { at = 500; action = \"sleep\"; task = \"editor\"; ms = 60; }\n"
	    ");\n", "1000", "editor", 2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_cpu),
		cmocka_unit_test(test_two_cpus),
		cmocka_unit_test(test_injected_sleep),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
