/*
 * test_daemon_slice.c -- a task's slice and rank span come over the wire
 * (issue 8: nothing outside the engine knows a policy's rules), through
 * a real daemon and its `tasks` reply: two hogs, nice 0 and nice 5, on
 * one CPU, under each policy in turn (`policy NAME`, then a few ticks).
 * Every task line must carry what its policy gives, worked out here by
 * hand from the sources: slice= the staircase's allotment (SPEC.md
 * section 1: iter x rr on the top stair of a descent, else rr), O(1)'s
 * BASE_TIMESLICE (10 + 190 x (139 - (120 + nice)) / 39 ms: 102 and 78),
 * CFS's sched_slice on one CPU (20 ms x weight / (1024 + 335): 15 and 4
 * ms, in whole ticks), EEVDF's request in ticks (3 ms: 3 ticks at nice
 * 0, 4 at nice 5, docs/POLICIES.md), rr's rr_interval (10 whatever the
 * nice); left no more than the slice; top= and bottom= the ranks it can
 * take (the staircase: 120 + nice..139; O(1): static prio -5..+5; cfs,
 * eevdf and rr: 120 + nice only), the rank between them.
 * test_policy_info checks the info ops on the engine; this, that the
 * daemon sends what they say.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "daemon_harness.h"

/* The fields of task `name`'s line in a `tasks` reply. */
static const char *
slice_line(const char *data, const char *name)
{
	char		 pat[64];
	const char	*p;

	snprintf(pat, sizeof pat, " name=%s ", name);
	p = strstr(data, pat);
	assert_non_null(p);
	return (p);
}

/*
 * Switch to pol (NULL: stay), run a few ticks, and check each hog's
 * slice (s0, s5; -1: the staircase's allotment now) and rank span
 * (span 0: the staircase's, 120 + nice..139; 5: O(1)'s, static -5..+5;
 * -1: none, 120 + nice only).  Returns how many slices were longer
 * than rr.
 */
static int
slice_check(struct tconn *c, const char *pol, int s0, int s5, int rr,
    int span)
{
	char		 cmd[64], data[8192], final[256];
	const char	*l;
	const char	*names[2] = { "zero", "five" };
	int		 want[2] = { s0, s5 }, i, longer = 0, st;
	long long	 slice, left, rank, iter, top, bottom;

	if (pol != NULL) {
		snprintf(cmd, sizeof cmd, "policy %s", pol);
		assert_int_equal(tc_cmd(c, cmd, NULL, 0, final, sizeof final),
		    0);
		assert_string_equal(final, "ok");
	}
	/* Into the first turns, not at a boundary of either. */
	assert_int_equal(tc_cmd(c, "step 3", NULL, 0, final, sizeof final),
	    0);
	assert_string_equal(final, "ok");
	assert_int_equal(tc_cmd(c, "tasks", data, sizeof data, final,
	    sizeof final), 0);
	for (i = 0; i < 2; i++) {
		l = slice_line(data, names[i]);
		st = i == 0 ? 120 : 125;
		slice = td_field(l, "slice");
		left = td_field(l, "left");
		rank = td_field(l, "rank");
		iter = td_field(l, "iter");
		top = td_field(l, "top");
		bottom = td_field(l, "bottom");
		if (pol != NULL)
			print_message("%s %s: rank=%lld iter=%lld left=%lld "
			    "slice=%lld top=%lld bottom=%lld\n", pol,
			    names[i], rank, iter, left, slice, top, bottom);
		if (want[i] < 0)
			want[i] = rank == st + iter - 1 ? iter * rr : rr;
		assert_int_equal(slice, want[i]);
		assert_true(left >= 0 && left <= slice);
		assert_int_equal(top, span < 0 ? st : st - span);
		assert_int_equal(bottom, span < 0 ? st : span == 0 ? 139 :
		    st + span);
		assert_true(rank >= top && rank <= bottom);
		longer += slice > rr;
	}
	return (longer);
}

static void
test_slice(void **state)
{
	struct td	 t;
	struct tconn	*c;
	char		 final[256];
	int		 i, longer = 0;

	td_init(&t, "realtime = false;\n", "name = \"two\";\ncpus = 1;\n"
	    "tasks = (\n  { name = \"zero\"; },\n"
	    "  { name = \"five\"; nice = 5; }\n);\n");
	td_start(&t);
	c = tc_open(&t);
	assert_int_equal(tc_cmd(c, "pause", NULL, 0, final, sizeof final), 0);
	assert_int_equal(tc_cmd(c, "step 500", NULL, 0, final, sizeof final),
	    0);
	slice_check(c, "staircase", -1, -1, 10, 0);
	slice_check(c, "o1", 102, 78, 10, 5);
	slice_check(c, "cfs", 15, 4, 10, -1);
	slice_check(c, "eevdf", 3, 4, 10, -1);
	slice_check(c, "rr", 10, 10, 10, -1);
	/*
	 * Back to the staircase, a fresh start, and on down its stairs:
	 * after a fall off the bottom a task's top stair is iter x rr.
	 */
	slice_check(c, "staircase", -1, -1, 10, 0);
	for (i = 0; i < 150; i++)
		longer += slice_check(c, NULL, -1, -1, 10, 0);
	print_message("staircase: %d slices longer than rr seen\n", longer);
	assert_true(longer > 0);
	tc_close(c);
	assert_int_equal(td_stop(&t), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slice),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
