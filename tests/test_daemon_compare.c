/*
 * test_daemon_compare.c -- `compare NAME` through a real daemon (SPEC.md
 * section 6, "Live side by side"): a paused daemon recording its
 * journal is told `compare o1`, loads a scenario (the shadow starts with
 * it at tick 0) and is stepped one tick at a time while a client nices,
 * sleeps, adds and kills tasks; every frame's shadow CPU rows (scpu,
 * with the task names of its stask lines) must be the rows of
 * `stairsd --headless --replay JOURNAL --policy o1 --trace`, the same
 * workload and actions under o1, while the enforced rows differ from
 * them.  Then `compare off` takes the shadow out of frames and status,
 * and a read-only client is refused `compare`.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "daemon_harness.h"

#define CMP_TICKS	400
#define CMP_ROWS	(CMP_TICKS * 2)

/* One tick's CPU rows, as "tick,cpu,name,rank" (idle: "tick,cpu,-,-"). */
struct cmp_rows {
	char	row[CMP_ROWS][64];
	int	n;
};

/* The name of task id in a frame's (s)task lines kept in names. */
static const char *
cmp_name(char names[][32], int n, long long id)
{
	return (id >= 1 && id < n && names[id][0] != '\0' ? names[id] : "?");
}

/*
 * Read frames until one shows tick want (the frame after tick want-1
 * ran), also taking the reply to the command sent; the CPU rows of
 * tick want-1 go to shadow (scpu) and mine (cpu).  Returns the frame
 * line's shadow= presence (1/0).
 */
static int
cmp_frame(struct tconn *c, long long want, struct cmp_rows *shadow,
    struct cmp_rows *mine, int need_ok)
{
	char		 line[8192], names[64][32], snames[64][32];
	char		 cpu[8][64], scpu[8][64];
	long long	 ctask[8], sctask[8], id;
	int		 got_ok = !need_ok, in = 0, has = 0, ncpu = 0, nscpu = 0;
	int		 i, match = 0, seen = 0, ret = 0;
	const char	*p;

	memset(names, 0, sizeof names);
	memset(snames, 0, sizeof snames);
	for (;;) {
		assert_int_equal(tc_line(c, line, sizeof line,
		    TD_DEADLINE_MS), 0);
		if (strncmp(line, "frame ", 6) == 0) {
			in = 1;
			match = td_field(line, "tick") == want;
			has = strstr(line, " shadow=") != NULL;
			ncpu = nscpu = 0;
			memset(names, 0, sizeof names);
			memset(snames, 0, sizeof snames);
			continue;
		}
		if (!in) {
			if (strncmp(line, "ok", 2) == 0)
				got_ok = 1;
			if (got_ok && seen)
				return (ret);
			else if (strncmp(line, "err", 3) == 0) {
				fprintf(stderr, "%s\n", line);
				fail();
			}
			continue;
		}
		if (strcmp(line, "end") == 0) {
			in = 0;
			if (!match || seen) {
				if (got_ok && seen)
					return (ret);
				continue;
			}
			seen = 1;
			ret = has;
			for (i = 0; i < ncpu && mine != NULL; i++)
				snprintf(mine->row[mine->n++], 64, "%lld,%s,%s",
				    want - 1, cpu[i], ctask[i] == 0 ? "-" :
				    cmp_name(names, 64, ctask[i]));
			for (i = 0; i < nscpu && shadow != NULL; i++)
				snprintf(shadow->row[shadow->n++], 64,
				    "%lld,%s,%s", want - 1, scpu[i],
				    sctask[i] == 0 ? "-" :
				    cmp_name(snames, 64, sctask[i]));
			if (got_ok)
				return (ret);
			continue;
		}
		if (strncmp(line, "cpu ", 4) == 0 && ncpu < 8) {
			ctask[ncpu] = td_field(line, "task");
			snprintf(cpu[ncpu], 64, "%lld", td_field(line, "id"));
			p = strstr(line, " rank=");
			snprintf(cpu[ncpu] + strlen(cpu[ncpu]), 32, ",%.*s",
			    (int)strcspn(p + 6, " "), p + 6);
			ncpu++;
		} else if (strncmp(line, "scpu ", 5) == 0 && nscpu < 8) {
			sctask[nscpu] = td_field(line, "task");
			snprintf(scpu[nscpu], 64, "%lld", td_field(line, "id"));
			p = strstr(line, " rank=");
			snprintf(scpu[nscpu] + strlen(scpu[nscpu]), 32, ",%.*s",
			    (int)strcspn(p + 6, " "), p + 6);
			nscpu++;
		} else if (strncmp(line, "task ", 5) == 0 ||
		    strncmp(line, "stask ", 6) == 0) {
			id = td_field(line, "id");
			p = strstr(line, " name=") + 6;
			if (id >= 1 && id < 64)
				snprintf(line[0] == 's' ? snames[id] :
				    names[id], 32, "%.*s",
				    (int)strcspn(p, " "), p);
		}
	}
}

/*
 * The rows tick,cpu,name,rank of a headless trace (its first four
 * columns; idle "-,-"); the row's name and rank order as in frames:
 * frames say tick,cpu,rank,name, so both are made tick,cpu,rank,name.
 */
static void
cmp_trace(const char *path, struct cmp_rows *r)
{
	char	line[256], *f[4], *p;
	FILE	*fp;
	int	 i;

	assert_non_null(fp = fopen(path, "r"));
	assert_non_null(fgets(line, sizeof line, fp));	/* the header */
	while (r->n < CMP_ROWS && fgets(line, sizeof line, fp) != NULL) {
		p = line;
		for (i = 0; i < 4; i++)
			f[i] = strsep(&p, ",\n");
		assert_non_null(f[3]);
		snprintf(r->row[r->n++], 64, "%s,%s,%s,%s", f[0], f[1], f[3],
		    f[2]);
	}
	fclose(fp);
}

/* The live shadow under o1 is the headless replay under o1, tick by tick. */
static void
test_compare_shadow(void **state)
{
	static struct cmp_rows	 shadow, mine, replay;
	struct td		 t;
	struct tconn		*c, *ro;
	char			 journal[PATH_MAX + 32], trace[PATH_MAX + 32];
	char			 cmd[PATH_MAX + 64], data[8192], final[256];
	char			*extra[] = { "--scenario", NULL, "--record",
				    journal, NULL };
	char			*av[] = { "--headless", "--replay", journal,
				    "--policy", "o1", "--trace", trace, NULL };
	long long		 tick;
	pid_t			 pid;
	int			 differ = 0, i, st;

	td_init(&t, "realtime = false;\n", "name = \"mix\";\ncpus = 2;\n"
	    "tasks = (\n  { name = \"hog\"; },\n"
	    "  { name = \"inter\"; pattern = [ 3, 30 ]; },\n"
	    "  { name = \"low\"; nice = 10; },\n"
	    "  { name = \"ed\"; pattern = [ 1, 7 ]; nice = -3; }\n);\n"
	    "events = (\n  { at = 120; action = \"nice\"; task = \"hog\"; "
	    "value = 5; }\n);\n");
	snprintf(journal, sizeof journal, "%s/j", t.dir);
	snprintf(trace, sizeof trace, "%s/o1.csv", t.dir);
	extra[1] = t.scen;
	td_start_args(&t, extra);
	assert_non_null(c = tc_open(&t));
	tc_expect(c, "pause", "ok");
	tc_expect(c, "compare o1", "ok");
	assert_int_equal(tc_cmd(c, "status", data, sizeof data, final,
	    sizeof final), 0);
	assert_non_null(strstr(data, " compare=o1"));
	/* A load keeps the comparison: the shadow starts with it at 0. */
	snprintf(cmd, sizeof cmd, "load %s", t.scen);
	tc_expect(c, cmd, "ok");
	assert_int_equal(tc_status(c, "tick"), 0);
	tc_sendf(c, "subscribe 120");
	assert_int_equal(cmp_frame(c, 0, NULL, NULL, 1), 1);
	for (tick = 0; tick < CMP_TICKS; tick++) {
		/* Actions at a tick reach both engines before it runs. */
		if (tick == 50)
			tc_sendf(c, "nice low -5");
		else if (tick == 90)
			tc_sendf(c, "sleep inter 50");
		else if (tick == 150)
			tc_sendf(c, "add extra nice=3 pattern=4,8");
		else if (tick == 260)
			tc_sendf(c, "kill hog");
		else if (tick == 300)
			tc_sendf(c, "affinity extra 1");
		if (tick == 50 || tick == 90 || tick == 150 || tick == 260 ||
		    tick == 300)
			cmp_frame(c, tick, NULL, NULL, 1);
		tc_sendf(c, "step 1");
		assert_int_equal(cmp_frame(c, tick + 1, &shadow, &mine, 1), 1);
	}
	assert_int_equal(shadow.n, CMP_TICKS * 2);
	assert_int_equal(mine.n, CMP_TICKS * 2);

	/* compare off: no shadow in frames or status. */
	tc_sendf(c, "compare off");
	assert_int_equal(cmp_frame(c, CMP_TICKS, NULL, NULL, 1), 0);
	assert_int_equal(tc_cmd(c, "status", data, sizeof data, final,
	    sizeof final), 0);
	assert_non_null(strstr(data, " compare=off"));
	tc_expect(c, "compare bfs", "err unknown policy \"bfs\"");

	/* Read-only clients are refused it like any change. */
	assert_non_null(ro = tc_open(&t));
	tc_expect(ro, "readonly", "ok");
	tc_expect(ro, "compare cfs", "err read-only");
	tc_close(ro);
	tc_close(c);
	kill(t.pid, SIGTERM);
	assert_int_equal(td_wait(t.pid, TD_DEADLINE_MS), 0);
	t.pid = 0;

	/* The same journal under o1, headless. */
	pid = td_spawn(&t, av);
	st = td_wait(pid, TD_DEADLINE_MS);
	if (st != 0)
		td_dump_log(&t);
	assert_int_equal(st, 0);
	cmp_trace(trace, &replay);
	assert_true(replay.n >= CMP_TICKS * 2);
	for (i = 0; i < CMP_TICKS * 2; i++) {
		if (strcmp(shadow.row[i], replay.row[i]) != 0) {
			fprintf(stderr, "row %d: shadow %s, replay under o1 "
			    "%s\n", i, shadow.row[i], replay.row[i]);
			fail();
		}
		differ += strcmp(shadow.row[i], mine.row[i]) != 0;
	}
	/* The enforced staircase did not run as o1 did. */
	assert_true(differ > 0);
	td_stop(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compare_shadow),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
