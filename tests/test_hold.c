/*
 * test_hold.c -- the daemon keeps control of its real children (SPEC.md
 * section 8): a child continued from outside is stopped again within one
 * tick and a notice says so; processes that leave their process group
 * (setsid, setpgid) live in the daemon's cgroup and die with it, on a clean
 * exit and when it is SIGKILLed (the watchdog); a killed watchdog is
 * replaced; a process tree past max_task_procs is refused more members.
 * Real children, real cgroups: the cgroup tests skip, saying why, when not
 * root or when no cgroup hierarchy is writable.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>

#include <cmocka.h>

#include "proc_harness.h"

/* Notices from the procs layer, as the daemon would turn them into events. */
static char	hold_notices[64][256];
static int	hold_nnotices;

/* The notice callback: keep the text. */
static void
hold_notice(void *arg, const char *text)
{
	if (hold_nnotices < 64)
		snprintf(hold_notices[hold_nnotices++], 256, "%s", text);
}

/* Is there a notice (since index from) holding both words? */
static int
hold_noticed(int from, const char *a, const char *b)
{
	int	i;

	for (i = from; i < hold_nnotices; i++) {
		if (strstr(hold_notices[i], a) != NULL &&
		    (b == NULL || strstr(hold_notices[i], b) != NULL))
			return (1);
	}
	return (0);
}

/* What a failed test leaves behind, for hold_teardown. */
static struct harness	*hold_cur;
static pid_t		 hold_parent;
static struct sigaction	 hold_old_chld;
static int		 hold_chld_set;

/*
 * Reap on SIGCHLD only, as the daemon does (harness.sigchld_only), the
 * action replaced until hold_chld_restore.
 */
static void
hold_sigchld_only(struct harness *h)
{
	struct sigaction	sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = harness_on_sigchld;
	sa.sa_flags = SA_NOCLDSTOP | SA_RESTART;
	sigaction(SIGCHLD, &sa, &hold_old_chld);
	hold_chld_set = 1;
	h->sigchld_only = 1;
}

/* Put back the SIGCHLD action a test replaced. */
static void
hold_chld_restore(void)
{
	if (hold_chld_set)
		sigaction(SIGCHLD, &hold_old_chld, NULL);
	hold_chld_set = 0;
}

/* Tear down what a test that failed half-way left. */
static int
hold_teardown(void **state)
{
	int	status;

	if (hold_parent > 0) {
		kill(hold_parent, SIGKILL);
		waitpid(hold_parent, &status, 0);
		hold_parent = 0;
	}
	if (hold_cur != NULL) {
		harness_done(hold_cur);
		hold_cur = NULL;
	}
	hold_chld_restore();
	return (0);
}

/* harness_done, and nothing left for hold_teardown. */
static void
hold_done(struct harness *h)
{
	harness_done(h);
	hold_cur = NULL;
}

/* harness_init with a notice callback and a process cap. */
static void
hold_init(struct harness *h, int ncpus, int cgroups, int cap)
{
	struct procs_config	 conf;

	log_init("test", 1, LOG_LEVEL_WARN);
	hold_nnotices = 0;
	memset(&conf, 0, sizeof conf);
	conf.cgroups = cgroups;
	conf.max_task_procs = cap;
	conf.notice = hold_notice;
	harness_init_conf(h, ncpus, &conf);
	hold_cur = h;
}

/* Skip unless root with a writable cgroup hierarchy; 1 if skipping. */
static int
hold_need_cgroups(struct harness *h)
{
	if (geteuid() != 0) {
		fprintf(stderr, "skip: not root, no cgroups to write\n");
		return (1);
	}
	if (strcmp(procs_cgroup_mode(h->ps), "none") == 0) {
		fprintf(stderr, "skip: no writable cgroup hierarchy\n");
		return (1);
	}
	return (0);
}

/* Read a pid written by a child into a file, waiting up to 2 s. */
static pid_t
hold_read_pid(const char *path)
{
	FILE	*f;
	long	 v = 0;
	int	 tries;

	for (tries = 0; tries < 200 && v <= 0; tries++) {
		if ((f = fopen(path, "r")) != NULL) {
			if (fscanf(f, "%ld", &v) != 1)
				v = 0;
			fclose(f);
		}
		if (v <= 0)
			usleep(10000);
	}
	return ((pid_t)v);
}

/*
 * The process group of an escapee once it has left group (it is forked
 * before it calls setsid or setpgid: wait up to 2 s); -1 if unknown.
 */
static pid_t
hold_pgid(pid_t pid, pid_t group)
{
	pid_t	pg = -1;
	int	tries;

	for (tries = 0; tries < 200; tries++) {
		if ((pg = getpgid(pid)) != group)
			break;
		usleep(10000);
	}
	return (pg);
}

/*
 * A command for sh -c that starts two escapees (one setsid, one setpgid),
 * writes their pids to base.1 and base.2, then burns CPU as the task.
 */
static char *
hold_escape_cmd(struct harness *h, const char *base)
{
	return (xasprintf("setsid sleep 1000 & echo $! > %s.1; "
	    "perl -e 'setpgrp(0, 0); sleep 1000' & echo $! > %s.2; "
	    "exec %s --run 1000000 --sleep 0", base, base, h->load));
}

/*
 * Wait ms between ticks: act on the children's wakes meanwhile if there
 * are kernel events, as the daemon's loop does; else just sleep.
 */
static void
hold_between_ticks(struct harness *h, int ms)
{
	struct pollfd	pfd;

	if ((pfd.fd = procs_event_fd(h->ps)) == -1) {
		usleep(ms * 1000);
		return;
	}
	pfd.events = POLLIN;
	if (poll(&pfd, 1, ms) == 1)
		procs_wakeups(h->ps);
}

/*
 * Continued from outside while it should be stopped: stopped within a
 * tick.  sigchld_only: the loop reaps on SIGCHLD only, as the daemon's
 * does, so with events nothing polls waitpid each tick: the kernel's wake
 * record of the held task asks for the look, and the old rule ("a
 * continue reported within one poll of our own is ours") must not
 * decide.
 */
static void
cont_restopped(int sigchld_only)
{
	struct harness		 h;
	struct engine_cpu_info	 ci;
	struct procs_info	 info;
	struct procs_event_stats st;
	uint64_t		 ran_waits[3];
	int			 ids[3], k, tick, n, done = 0, tries;
	int			 since_poll = 0;
	pid_t			 pid;
	char			 name[2] = "a";

	hold_init(&h, 1, 0, 0);
	if (sigchld_only)
		hold_sigchld_only(&h);
	for (k = 0; k < 3; k++) {
		name[0] = 'a' + k;
		ids[k] = harness_load(&h, name, "1000000", "0");
	}
	harness_run(&h, 100, NULL, NULL);
	procs_event_stats(h.ps, &st);
	if (sigchld_only && procs_event_fd(h.ps) != -1) {
		/* The tasks switched; waitpid at most every 100 ticks. */
		fprintf(stderr, "%llu waitpid polls in 100 ticks\n",
		    (unsigned long long)st.waits);
		assert_true(st.waits <= 5);
		since_poll = 1;
	} else if (sigchld_only)
		fprintf(stderr, "note: no kernel events here (observe=proc): "
		    "waitpid runs every tick, as in test_cont_restopped\n");
	/*
	 * Tick by tick, for a task stopped by a switch; with the poll at
	 * most every 100 ticks, one continued and stopped again by us since
	 * the last poll, so that an outside continue comes more than one
	 * poll after our own only if a poll came between.
	 */
	for (k = 0; k < 3; k++)
		ran_waits[k] = UINT64_MAX;
	for (tick = 0; tick < 3000 && !done; tick++) {
		harness_run(&h, 1, NULL, NULL);
		procs_event_stats(h.ps, &st);
		engine_cpu_info(h.e, 0, &ci);
		for (k = 0; k < 3; k++) {
			if (procs_info(h.ps, ids[k], &info) == 0 &&
			    !info.stopped)
				ran_waits[k] = st.waits;
		}
		for (k = 0; k < 3; k++) {
			if (ids[k] != ci.task &&
			    procs_info(h.ps, ids[k], &info) == 0 &&
			    info.stopped && (!since_poll ||
			    ran_waits[k] == st.waits))
				break;
		}
		if (k == 3)
			continue;
		pid = harness_pid(&h, ids[k]);
		/*
		 * Really stopped (T), not just with our SIGSTOP pending: a
		 * SIGCONT that lands before the child acted on our stop
		 * cancels it unseen (docs/REAL.md, limits).
		 */
		for (tries = 0; tries < 50 && harness_state(pid) != 'T';
		    tries++)
			usleep(1000);
		if (harness_state(pid) != 'T')
			continue;
		n = hold_nnotices;
		assert_int_equal(kill(pid, SIGCONT), 0);
		usleep(300);
		assert_false(harness_stopped(pid));	/* it really ran */
		harness_run(&h, 1, NULL, NULL);
		engine_cpu_info(h.e, 0, &ci);
		if (ci.task == ids[k])
			continue;	/* picked meanwhile: it may run */
		/*
		 * No tick from here on: only that tick stopped it, or the
		 * wake record the loop acts on between ticks (as the
		 * daemon's does on the event descriptor).
		 */
		for (tries = 0; tries < 50 && !harness_stopped(pid); tries++)
			hold_between_ticks(&h, 1);
		assert_true(harness_stopped(pid));
		name[0] = 'a' + k;
		assert_true(hold_noticed(n, name, "continued"));
		done = 1;
	}
	assert_true(done);
	hold_done(&h);
	hold_chld_restore();
}

static void
test_cont_restopped(void **state)
{
	cont_restopped(0);
}

static void
test_cont_restopped_sigchld(void **state)
{
	cont_restopped(1);
}

/*
 * Our own stops and continues are never taken for a continue from
 * outside: hogs and sleepers switching on one CPU for 3 s, the loop
 * reaping on SIGCHLD only (with events, waitpid then runs when a held
 * task's wake record comes after our stop, as our own SIGSTOP's wake of
 * a sleeper often does, while the report of our last continue may still
 * be there).
 */
static void
test_cont_ours(void **state)
{
	struct harness		 h;
	struct procs_event_stats st;
	int			 k;
	char			 name[2] = "a";

	hold_init(&h, 1, 0, 0);
	hold_sigchld_only(&h);
	for (k = 0; k < 4; k++) {
		name[0] = 'a' + k;
		if (k < 2)
			harness_load(&h, name, "1000000", "0");
		else
			harness_load(&h, name, "2", "3");
	}
	harness_run(&h, 3000, NULL, NULL);
	procs_event_stats(h.ps, &st);
	fprintf(stderr, "%llu waitpid polls, %llu wake records in 3000 "
	    "ticks\n", (unsigned long long)st.waits,
	    (unsigned long long)st.wakeups);
	assert_false(hold_noticed(0, "continued from outside", NULL));
	hold_done(&h);
	hold_chld_restore();
}

/*
 * Paused (procs_hold: no tick runs, as while a teacher explains), a
 * child continued from outside is stopped again as soon as the kernel
 * says it woke, and said so: the daemon's loop then watches only the
 * wake descriptor, which is what this test does.
 */
static void
test_cont_paused(void **state)
{
	struct harness		 h;
	struct pollfd		 pfd;
	pid_t			 pid;
	int			 id, n, tries, noticed = 0;

	hold_init(&h, 1, 0, 0);
	id = harness_load(&h, "a", "1000000", "0");
	harness_load(&h, "b", "1000000", "0");
	harness_run(&h, 100, NULL, NULL);
	if (procs_event_fd(h.ps) == -1) {
		hold_done(&h);
		fprintf(stderr, "skip: no kernel events here (observe=proc): "
		    "nothing wakes a paused daemon\n");
		skip();
	}
	procs_hold(h.ps);
	pid = harness_pid(&h, id);
	for (tries = 0; tries < 1000 && harness_state(pid) != 'T'; tries++)
		usleep(1000);
	assert_int_equal(harness_state(pid), 'T');
	n = hold_nnotices;
	assert_int_equal(kill(pid, SIGCONT), 0);
	pfd.fd = procs_event_fd(h.ps);
	pfd.events = POLLIN;
	for (tries = 0; tries < 100 && !noticed; tries++) {
		if (poll(&pfd, 1, 20) == 1)
			procs_wakeups(h.ps);
		noticed = hold_noticed(n, "continued from outside", NULL);
	}
	assert_true(noticed);
	for (tries = 0; tries < 1000 && harness_state(pid) != 'T'; tries++)
		usleep(1000);
	assert_int_equal(harness_state(pid), 'T');
	procs_release(h.ps);
	hold_done(&h);
}

/* setsid and setpgid escapees live in the cgroup and die on procs_free. */
static void
test_escape_free(void **state)
{
	struct harness	 h;
	char		 base[64], path[80], *cmd, buf[4096];
	char		*argv[] = { "sh", "-c", NULL, NULL };
	pid_t		 esc[2], task;
	int		 id, k;

	hold_init(&h, 1, 1, 0);
	if (hold_need_cgroups(&h)) {
		hold_done(&h);
		skip();
	}
	snprintf(base, sizeof base, "/tmp/test_hold.%ld", (long)getpid());
	argv[2] = cmd = hold_escape_cmd(&h, base);
	id = harness_spawn_cpus(&h, "esc", NULL, -1, argv);
	harness_run(&h, 200, NULL, NULL);
	task = harness_pid(&h, id);
	for (k = 0; k < 2; k++) {
		snprintf(path, sizeof path, "%s.%d", base, k + 1);
		esc[k] = hold_read_pid(path);
		unlink(path);
		assert_true(esc[k] > 0);
		assert_false(harness_gone(esc[k]));
		assert_int_not_equal(hold_pgid(esc[k], task), task);
		/* In the daemon's cgroup (ungrouped tasks too). */
		snprintf(path, sizeof path, "/proc/%ld/cgroup", (long)esc[k]);
		assert_int_equal(cgroup_read(path, buf, sizeof buf), 0);
		assert_true(buf[0] != '\0');
		assert_non_null(strstr(buf, "/stairs-"));
	}
	hold_done(&h);
	for (k = 0; k < 2; k++)
		assert_true(harness_wait_gone(esc[k]));
	free(cmd);
}

/* setsid and setpgid escapees die when the daemon is SIGKILLed. */
static void
test_escape_killed(void **state)
{
	struct harness	 h;
	char		 base[64], path[80], *cmd;
	char		*argv[] = { "sh", "-c", NULL, NULL };
	pid_t		 parent, esc[3];
	int		 fds[2], status, k;

	if (geteuid() != 0) {
		fprintf(stderr, "skip: not root, no cgroups to write\n");
		skip();
	}
	snprintf(base, sizeof base, "/tmp/test_hold.k%ld", (long)getpid());
	assert_int_equal(pipe(fds), 0);
	if ((parent = fork()) == 0) {
		hold_parent = 0;
		close(fds[0]);
		hold_init(&h, 1, 1, 0);
		memset(esc, 0, sizeof esc);
		if (strcmp(procs_cgroup_mode(h.ps), "none") == 0) {
			if (write(fds[1], esc, sizeof esc) != sizeof esc)
				_exit(1);
			_exit(0);
		}
		argv[2] = cmd = hold_escape_cmd(&h, base);
		harness_spawn_cpus(&h, "esc", NULL, -1, argv);
		harness_run(&h, 200, NULL, NULL);
		for (k = 0; k < 2; k++) {
			snprintf(path, sizeof path, "%s.%d", base, k + 1);
			esc[k] = hold_read_pid(path);
			unlink(path);
		}
		esc[2] = 1;
		if (write(fds[1], esc, sizeof esc) != sizeof esc)
			_exit(1);
		for (;;)
			harness_run(&h, 1000, NULL, NULL);
	}
	hold_parent = parent;
	close(fds[1]);
	assert_int_equal(read(fds[0], esc, sizeof esc), sizeof esc);
	close(fds[0]);
	if (esc[2] == 0) {
		waitpid(parent, &status, 0);
		hold_parent = 0;
		fprintf(stderr, "skip: no writable cgroup hierarchy\n");
		skip();
	}
	for (k = 0; k < 2; k++) {
		assert_true(esc[k] > 0);
		assert_false(harness_gone(esc[k]));
	}
	kill(parent, SIGKILL);
	waitpid(parent, &status, 0);
	hold_parent = 0;
	for (k = 0; k < 2; k++)
		assert_true(harness_wait_gone(esc[k]));
}

/* A killed watchdog is replaced, said so, and still does its job. */
static void
test_watchdog_replaced(void **state)
{
	struct harness	 h;
	char		*argv[] = { "sh", "-c", "yes | cat > /dev/null", NULL };
	pid_t		 parent, out[4], m[16];	/* old, new, noticed, pgid */
	int		 fds[2], status, tries;

	assert_int_equal(pipe(fds), 0);
	if ((parent = fork()) == 0) {
		hold_parent = 0;
		close(fds[0]);
		hold_init(&h, 1, 0, 0);
		out[3] = harness_pid(&h, harness_spawn_cpus(&h, "pipe", NULL,
		    -1, argv));
		harness_run(&h, 200, NULL, NULL);
		out[0] = procs_watchdog(h.ps);
		kill(out[0], SIGKILL);
		/*
		 * Dying needs a CPU, which a busy machine (an ASan build
		 * beside another suite) may take seconds to give: up to
		 * 20 s, as harness_run_until_exited waits.
		 */
		for (tries = 0; tries < 2000 &&
		    procs_watchdog(h.ps) == out[0]; tries++)
			harness_run(&h, 10, NULL, NULL);
		out[1] = procs_watchdog(h.ps);
		out[2] = hold_noticed(0, "watchdog", "replaced");
		if (write(fds[1], out, sizeof out) != sizeof out)
			_exit(1);
		for (;;)
			harness_run(&h, 1000, NULL, NULL);
	}
	hold_parent = parent;
	close(fds[1]);
	assert_int_equal(read(fds[0], out, sizeof out), sizeof out);
	close(fds[0]);
	assert_true(out[0] > 0);
	assert_true(out[1] > 0);
	assert_int_not_equal(out[0], out[1]);
	assert_false(harness_gone(out[1]));
	assert_true(out[2]);
	assert_true(harness_pgid_members(out[3], m, 16) >= 3);
	/* The new watchdog knows the groups: they die with the parent. */
	kill(parent, SIGKILL);
	waitpid(parent, &status, 0);
	hold_parent = 0;
	assert_int_equal(harness_wait_no_members(out[3]), 0);
	assert_true(harness_wait_gone(out[1]));
}

/* A tree past max_task_procs gets no more members and is reported. */
static void
test_max_task_procs(void **state)
{
	struct harness		 h;
	struct procs_info	 info;
	char			*argv[] = { "perl", "-e", "for (1..60) { "
				    "my $p = fork; if (defined $p && $p == 0) "
				    "{ sleep 1000; exit } } 1 while 1", NULL };
	pid_t			 m[128];
	int			 id, n;

	hold_init(&h, 1, 1, 16);
	id = harness_spawn_cpus(&h, "tree", NULL, -1, argv);
	harness_run_until_tracked(&h, id, 16);
	assert_int_equal(procs_info(h.ps, id, &info), 0);
	assert_true(info.procs <= 16);
	assert_true(info.procs >= 2);
	assert_true(hold_noticed(0, "tree", "max_task_procs"));
	n = harness_pgid_members(harness_pid(&h, id), m, 128);
	if (strcmp(procs_pids_mode(h.ps), "none") != 0)
		assert_true(n <= 16);		/* refused by pids.max */
	else
		fprintf(stderr, "no pids cgroup: %d processes, reported\n",
		    n);
	hold_done(&h);
}

/* Without a pids cgroup: reported, and no more members tracked. */
static void
test_max_task_procs_report(void **state)
{
	struct harness		 h;
	struct procs_info	 info;
	char			*argv[] = { "perl", "-e", "for (1..40) { "
				    "my $p = fork; if (defined $p && $p == 0) "
				    "{ sleep 1000; exit } } 1 while 1", NULL };
	int			 id;

	hold_init(&h, 1, 0, 16);
	assert_string_equal(procs_pids_mode(h.ps), "none");
	id = harness_spawn_cpus(&h, "tree", NULL, -1, argv);
	harness_run_until_tracked(&h, id, 16);
	harness_run(&h, 200, NULL, NULL);	/* and past it */
	assert_int_equal(procs_info(h.ps, id, &info), 0);
	assert_int_equal(info.procs, 16);
	assert_true(hold_noticed(0, "tree", "no pids cgroup"));
	hold_done(&h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_cont_restopped, hold_teardown),
		cmocka_unit_test_teardown(test_cont_restopped_sigchld,
		    hold_teardown),
		cmocka_unit_test_teardown(test_cont_ours, hold_teardown),
		cmocka_unit_test_teardown(test_cont_paused, hold_teardown),
		cmocka_unit_test_teardown(test_escape_free, hold_teardown),
		cmocka_unit_test_teardown(test_escape_killed, hold_teardown),
		cmocka_unit_test_teardown(test_watchdog_replaced, hold_teardown),
		cmocka_unit_test_teardown(test_max_task_procs, hold_teardown),
		cmocka_unit_test_teardown(test_max_task_procs_report,
		    hold_teardown),
	};

	signal(SIGPIPE, SIG_IGN);
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
