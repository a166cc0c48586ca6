/*
 * test_observe.c -- how the real-process layer sees a blocked child wake
 * (SPEC.md section 8): from the kernel's sched_wakeup events where it may
 * (root; observe=events), else by polling /proc (observe=proc, also when
 * configured).  A sleeper that sleeps 20 ms at a time beside a hog on
 * one CPU must be woken in the engine after each sleep either way: with
 * events, the /proc safety net alone (every 100 ticks) could not wake it
 * that often.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>

#include <cmocka.h>

#include "proc_harness.h"

/* An engine of one CPU and the procs layer, polling /proc if asked. */
static void
observe_init(struct harness *h, int proc)
{
	struct engine_params	 p;
	struct procs_config	 conf;
	char			*cause = NULL;

	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	harness_realtime();
	log_init("test", 1, LOG_LEVEL_WARN);
	memset(h, 0, sizeof *h);
	test_bindir("stairs-load", h->bindir, sizeof h->bindir);
	snprintf(h->load, sizeof h->load, "%s/stairs-load", h->bindir);
	engine_params_default(&p);
	p.cpus = 1;
	h->e = engine_create(&p, &engine_policy_staircase);
	memset(&conf, 0, sizeof conf);
	conf.bindir = h->bindir;
	conf.observe_proc = proc;
	if ((h->ps = procs_create(h->e, &conf, &cause)) == NULL) {
		fprintf(stderr, "procs_create: %s\n", cause);
		exit(1);
	}
}

/* Count the sleeper's wakes in the engine (sleeping, then not). */
struct observe_count {
	int	id;
	int	asleep;
	int	wakes;
};

/* Each loop iteration: has the sleeper woken since the last? */
static void
observe_sample(struct harness *h, int i, void *arg)
{
	struct observe_count	*c = arg;
	struct engine_task_info	 ti = harness_info(h, c->id);

	if (ti.state == ENGINE_SLEEPING)
		c->asleep = 1;
	else if (c->asleep) {
		c->asleep = 0;
		c->wakes++;
	}
}

/*
 * Run a sleeper (20 ms sleeps, next to no CPU between them, so that a
 * loaded machine does not slow it) beside a hog for 1.5 s: it must be
 * woken after its sleeps, about once every 21 ms (~70); the /proc safety
 * net of the events path alone (every 100 ticks) would give at most 15.
 */
static void
observe_sleeper(struct harness *h)
{
	struct observe_count	c;
	/* Not stairs-load: its sleeps stretch under ASan. */
	char			*argv[] = { "perl", "-e",
				    "select(undef, undef, undef, 0.02) while 1",
				    NULL };

	memset(&c, 0, sizeof c);
	harness_load(h, "hog", "1000000", "0");
	c.id = harness_spawn_cpus(h, "sleeper", NULL, -1, argv);
	harness_run(h, 1500, observe_sample, &c);
	print_message("observe=%s: sleeper woken %d times in 1500 ticks\n",
	    procs_observe_mode(h->ps), c.wakes);
	assert_true(c.wakes >= 25);
}

/* Root: wakes come from sched_wakeup events. */
static void
test_events(void **state)
{
	struct harness	h;

	if (geteuid() != 0) {
		fprintf(stderr, "skip: not root, no tracepoint events\n");
		skip();
	}
	observe_init(&h, 0);
	if (strcmp(procs_observe_mode(h.ps), "events") != 0) {
		fprintf(stderr, "skip: sched tracepoints refused here\n");
		harness_done(&h);
		skip();
	}
	observe_sleeper(&h);
	harness_done(&h);
}

/* Configured (or refused): /proc polling, and it still works. */
static void
test_proc(void **state)
{
	struct harness	h;

	observe_init(&h, 1);
	assert_string_equal(procs_observe_mode(h.ps), "proc");
	observe_sleeper(&h);
	harness_done(&h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_proc),
	};

	signal(SIGPIPE, SIG_IGN);
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
