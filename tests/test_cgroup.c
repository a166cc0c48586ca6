/*
 * test_cgroup.c -- cpuset cgroups for real tasks: detection, one
 * directory per daemon and per group with the group's physical CPUs, the
 * group's processes inside, everything removed at the end.  Skipped (with
 * why) only where the machine has no writable cpuset hierarchy.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>

#include <cmocka.h>

#include "cgroup.h"
#include "proc_harness.h"

/* Read a small file into buf without its trailing newline; -1 if none. */
static int
read_line(const char *path, char *buf, size_t len)
{
	FILE	*f;

	if ((f = fopen(path, "r")) == NULL)
		return (-1);
	if (fgets(buf, len, f) == NULL)
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return (0);
}

/* Is pid listed in a cgroup directory's cgroup.procs? */
static int
in_cgroup(const char *dir, pid_t pid)
{
	char	 path[PATH_MAX];
	FILE	*f;
	long	 p;
	int	 found = 0;

	snprintf(path, sizeof path, "%s/cgroup.procs", dir);
	if ((f = fopen(path, "r")) == NULL)
		return (0);
	while (fscanf(f, "%ld", &p) == 1) {
		if (p == (long)pid)
			found = 1;
	}
	fclose(f);
	return (found);
}

/* cgroup_create makes stairs-<pid>, cgroup_free removes it and groups. */
static void
test_create_free(void **state)
{
	struct cgroup	*cg;
	struct cpumask	 m;
	char		*cause = NULL, root[PATH_MAX], group[PATH_MAX];
	struct stat	 sb;

	log_init("test", 1, LOG_LEVEL_WARN);
	if ((cg = cgroup_create(getpid(), &cause)) == NULL) {
		print_message("no writable cpuset hierarchy: %s\n", cause);
		free(cause);
		skip();
	}
	print_message("mode %s at %s\n", cgroup_mode(cg), cgroup_root(cg));
	snprintf(root, sizeof root, "%s", cgroup_root(cg));
	assert_int_equal(stat(root, &sb), 0);
	cpumask_zero(&m);
	assert_int_equal(cgroup_group(cg, 0, "bad", &m, &cause), -1);
	assert_non_null(strstr(cause, "no physical CPUs"));
	free(cause);
	cpumask_set(&m, 0);
	assert_int_equal(cgroup_group(cg, 0, "g0", &m, &cause), 0);
	snprintf(group, sizeof group, "%s", cgroup_group_path(cg, 0));
	assert_int_equal(stat(group, &sb), 0);
	assert_int_equal(cgroup_move(cg, 1, getpid(), &cause), -1);
	free(cause);
	cgroup_free(cg);
	assert_int_equal(stat(group, &sb), -1);
	assert_int_equal(stat(root, &sb), -1);
}

/* A group's child is in the group's cgroup, with the group's CPUs. */
static void
test_group_cpuset(void **state)
{
	struct harness		 h;
	struct cpumask		 m;
	struct engine_cpu_info	 ci;
	cpu_set_t		 set;
	char			*cause = NULL, buf[256], path[PATH_MAX + 32];
	char			 root[PATH_MAX], gdir[PATH_MAX];
	const char		*dir;
	char			*argv[] = { "stairs-load", "--run", "1000000",
				    "--sleep", "0", NULL };
	struct stat		 sb;
	int			 map[2] = { 0, 1 }, g, a, b, other, phys;
	pid_t			 pid;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		map[1] = 0;
	harness_init(&h, 2, map, 1);
	if (strcmp(procs_cgroup_mode(h.ps), "none") == 0) {
		print_message("cgroups: none here; affinity only\n");
		harness_done(&h);
		skip();
	}
	print_message("cgroup mode %s\n", procs_cgroup_mode(h.ps));
	cpumask_zero(&m);
	cpumask_set(&m, 1);
	g = engine_group_add(h.e, "batch", &m, &cause);
	assert_true(g >= 0);
	assert_int_equal(procs_group_setup(h.ps, g, &cause), 0);
	a = harness_spawn_cpus(&h, "a", NULL, g, argv);
	b = harness_spawn_cpus(&h, "b", NULL, g, argv);
	other = harness_spawn_cpus(&h, "free", NULL, -1, argv);
	harness_run(&h, 100, NULL, NULL);

	dir = procs_cgroup_path(h.ps, g);
	assert_non_null(dir);
	snprintf(gdir, sizeof gdir, "%s", dir);
	snprintf(root, sizeof root, "%s", gdir);
	*strrchr(root, '/') = '\0';
	assert_non_null(strstr(gdir, "/g-batch"));
	snprintf(path, sizeof path, "%s/cpuset.cpus", gdir);
	assert_int_equal(read_line(path, buf, sizeof buf), 0);
	phys = procs_phys_cpu(h.ps, 1);
	snprintf(path, sizeof path, "%d", phys);
	assert_string_equal(buf, path);
	assert_true(in_cgroup(gdir, harness_pid(&h, a)));
	assert_true(in_cgroup(gdir, harness_pid(&h, b)));
	assert_false(in_cgroup(gdir, harness_pid(&h, other)));

	/* The group's running child is pinned to the group's CPU. */
	engine_cpu_info(h.e, 1, &ci);
	assert_true(ci.task == a || ci.task == b);
	pid = harness_pid(&h, ci.task);
	assert_int_equal(sched_getaffinity(pid, sizeof set, &set), 0);
	assert_int_equal(CPU_COUNT(&set), 1);
	assert_true(CPU_ISSET(phys, &set));
	assert_int_equal(harness_info(&h, other).cpu, 0);

	harness_done(&h);
	assert_int_equal(stat(gdir, &sb), -1);
	assert_int_equal(stat(root, &sb), -1);
}

/*
 * A group's cpuset is its engine CPUs' physical CPUs (SPEC.md section 5),
 * whatever its tasks' affinity: a task pinned to CPU 0 of a 0-1 group
 * leaves the cpuset at 0-1, and an affinity change to CPU 1 moves it there,
 * pinned, inside the same cpuset.
 */
static void
test_group_affinity_change(void **state)
{
	struct harness		 h;
	struct cpumask		 m;
	cpu_set_t		 set;
	char			*cause = NULL, buf[256], path[PATH_MAX + 32];
	char			*argv[] = { "stairs-load", "--run", "1000000",
				    "--sleep", "0", NULL };
	int			 map[2] = { 0, 1 }, g, a, phys;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		print_message("one CPU: nothing to widen\n");
		skip();
	}
	harness_init(&h, 2, map, 1);
	if (strcmp(procs_cgroup_mode(h.ps), "none") == 0) {
		harness_done(&h);
		skip();
	}
	cpumask_fill(&m, 2);
	g = engine_group_add(h.e, "both", &m, &cause);
	assert_int_equal(procs_group_setup(h.ps, g, &cause), 0);
	a = harness_spawn_cpus(&h, "a", "0", g, argv);
	harness_run(&h, 50, NULL, NULL);
	snprintf(path, sizeof path, "%s/cpuset.cpus",
	    procs_cgroup_path(h.ps, g));
	assert_int_equal(read_line(path, buf, sizeof buf), 0);
	assert_string_equal(buf, "0-1");
	assert_int_equal(harness_info(&h, a).cpu, 0);

	cpumask_zero(&m);
	cpumask_set(&m, 1);
	assert_int_equal(engine_task_affinity(h.e, a, &m, &cause), 0);
	harness_run(&h, 50, NULL, NULL);
	assert_int_equal(harness_info(&h, a).cpu, 1);
	assert_true(harness_info(&h, a).running);
	phys = procs_phys_cpu(h.ps, 1);
	assert_int_equal(sched_getaffinity(harness_pid(&h, a), sizeof set,
	    &set), 0);
	assert_int_equal(CPU_COUNT(&set), 1);
	assert_true(CPU_ISSET(phys, &set));
	assert_int_equal(read_line(path, buf, sizeof buf), 0);
	assert_string_equal(buf, "0-1");
	harness_done(&h);
}

/* With cgroups off, the mode is "none" and tasks still run pinned. */
static void
test_none(void **state)
{
	struct harness	h;
	int		id;

	harness_init(&h, 1, NULL, 0);
	assert_string_equal(procs_cgroup_mode(h.ps), "none");
	id = harness_load(&h, "a", "1000000", "0");
	harness_run(&h, 20, NULL, NULL);
	assert_true(harness_info(&h, id).running);
	assert_null(procs_cgroup_path(h.ps, 0));
	harness_done(&h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_free),
		cmocka_unit_test(test_group_cpuset),
		cmocka_unit_test(test_group_affinity_change),
		cmocka_unit_test(test_none),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
