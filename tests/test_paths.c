/*
 * test_paths.c -- where stairsd finds its configuration and its
 * scenarios (src/paths.c): $XDG_CONFIG_HOME/stairs/stairsd.cfg, then
 * SYSCONFDIR/stairs/stairsd.cfg, then none; a scenario by a built-in's
 * name, by file, and an unknown name refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "paths.h"
#include "scenario.h"

static char	tmpdir[64];

/* A fresh temporary directory. */
static int
setup(void **state)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/test_paths.XXXXXX");
	if (mkdtemp(tmpdir) == NULL)
		return (-1);
	return (0);
}

/* Remove it (the tests leave it empty but for their dirs). */
static int
teardown(void **state)
{
	char	cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
	return (system(cmd) == 0 ? 0 : -1);
}

/* Make an empty file at dir/stairs/stairsd.cfg; its path in buf. */
static void
touch_config(const char *dir, char *buf, size_t len)
{
	FILE	*f;

	mkdir(dir, 0700);
	snprintf(buf, len, "%s/stairs", dir);
	mkdir(buf, 0700);
	snprintf(buf, len, "%s/stairs/stairsd.cfg", dir);
	assert_non_null(f = fopen(buf, "w"));
	fclose(f);
}

/* The user's file first, then the system's, then none. */
static void
test_config_order(void **state)
{
	char	xdg[128], etc[128], ufile[192], sfile[192], *p;

	snprintf(xdg, sizeof xdg, "%s/xdg", tmpdir);
	snprintf(etc, sizeof etc, "%s/etc", tmpdir);
	setenv("XDG_CONFIG_HOME", xdg, 1);
	assert_null(paths_config(etc));
	touch_config(etc, sfile, sizeof sfile);
	assert_non_null(p = paths_config(etc));
	assert_string_equal(p, sfile);
	free(p);
	touch_config(xdg, ufile, sizeof ufile);
	assert_non_null(p = paths_config(etc));
	assert_string_equal(p, ufile);
	free(p);
	unlink(ufile);
	unlink(sfile);
	assert_null(paths_config(etc));
	assert_null(paths_config(NULL));
}

/* Without XDG_CONFIG_HOME: ~/.config/stairs/stairsd.cfg. */
static void
test_config_home(void **state)
{
	char	home[128], cfg[160], file[192], *p;

	snprintf(home, sizeof home, "%s/home", tmpdir);
	mkdir(home, 0700);
	snprintf(cfg, sizeof cfg, "%s/.config", home);
	unsetenv("XDG_CONFIG_HOME");
	setenv("HOME", home, 1);
	touch_config(cfg, file, sizeof file);
	assert_non_null(p = paths_config(NULL));
	assert_string_equal(p, file);
	free(p);
	unlink(file);
}

/* A built-in by name (with or without .cfg), a file, an unknown name. */
static void
test_scenario(void **state)
{
	struct scenario	*sc;
	char		*label = NULL, *cause = NULL, file[128];
	FILE		*f;

	assert_non_null(sc = paths_scenario_load("article", &label, &cause));
	assert_string_equal(sc->name, "article");
	assert_string_equal(label, "article");
	scenario_free(sc);
	free(label);
	assert_non_null(sc = paths_scenario_load("article.cfg", NULL,
	    &cause));
	scenario_free(sc);
	assert_non_null(sc = paths_scenario_load(NULL, &label, &cause));
	assert_string_equal(label, "demo");
	scenario_free(sc);
	free(label);

	snprintf(file, sizeof file, "%s/mine.cfg", tmpdir);
	assert_non_null(f = fopen(file, "w"));
	fputs("name = \"mine\";\ntasks = ( { name = \"a\"; } );\n", f);
	fclose(f);
	assert_non_null(sc = paths_scenario_load(file, &label, &cause));
	assert_string_equal(sc->name, "mine");
	assert_string_equal(label, file);
	scenario_free(sc);
	free(label);
	unlink(file);

	assert_null(paths_scenario_load("no-such-lesson", NULL, &cause));
	assert_non_null(strstr(cause, "no-such-lesson"));
	free(cause);
}

/* Run the tests. */
int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_order),
		cmocka_unit_test(test_config_home),
		cmocka_unit_test(test_scenario),
	};

	return (cmocka_run_group_tests(tests, setup, teardown));
}
