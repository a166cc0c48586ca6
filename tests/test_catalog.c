/*
 * test_catalog.c -- where stairsd finds its configuration (config_find:
 * $XDG_CONFIG_HOME/stairs/stairsd.cfg, then SYSCONFDIR/stairs/
 * stairsd.cfg, then none) and its scenarios (catalog.c): by a built-in's
 * name, by file, from the scenario path, and an unknown name refused.
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

#include "catalog.h"
#include "config.h"
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
	assert_null(config_find(etc));
	touch_config(etc, sfile, sizeof sfile);
	assert_non_null(p = config_find(etc));
	assert_string_equal(p, sfile);
	free(p);
	touch_config(xdg, ufile, sizeof ufile);
	assert_non_null(p = config_find(etc));
	assert_string_equal(p, ufile);
	free(p);
	unlink(ufile);
	unlink(sfile);
	assert_null(config_find(etc));
	assert_null(config_find(NULL));
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
	assert_non_null(p = config_find(NULL));
	assert_string_equal(p, file);
	free(p);
	unlink(file);
}

/* Load name from catalog c (here as given); its scenario's name. */
static char *
load_name(struct catalog *c, const char *name, int here, char **label)
{
	struct scenario	*sc;
	char		*cause = NULL, *n;

	if ((sc = catalog_load(c, name, here, label, &cause)) == NULL)
		fail_msg("%s: %s", name, cause);
	assert_non_null(sc->text);
	n = strdup(sc->name);
	scenario_free(sc);
	return (n);
}

/*
 * One order for every lookup: a built-in by name (with or without .cfg),
 * a file by path, the scenario path's NAME.cfg after the built-ins, a
 * file of the current directory only where the caller has one, and an
 * unknown name refused, naming it.
 */
static void
test_scenario(void **state)
{
	struct catalog	*c, *c2;
	char		*label = NULL, *cause = NULL, *n, file[128], cwd[256];
	FILE		*f;

	snprintf(file, sizeof file, "%s/mine.cfg", tmpdir);
	assert_non_null(f = fopen(file, "w"));
	fputs("name = \"mine\";\ntasks = ( { name = \"a\"; } );\n", f);
	fclose(f);
	c = catalog_create(tmpdir);

	n = load_name(c, "article", 0, &label);
	assert_string_equal(n, "article");
	assert_string_equal(label, "article");
	free(n);
	free(label);
	n = load_name(c, "article.cfg", 0, NULL);
	assert_string_equal(n, "article");
	free(n);
	n = load_name(c, NULL, 0, &label);
	assert_string_equal(label, "demo");
	free(n);
	free(label);

	/* By path, and by name from the scenario path. */
	n = load_name(c, file, 0, &label);
	assert_string_equal(n, "mine");
	assert_string_equal(label, file);
	free(n);
	free(label);
	n = load_name(c, "mine", 0, &label);
	assert_string_equal(n, "mine");
	assert_string_equal(label, file);
	free(n);
	free(label);
	assert_true(catalog_known(c, "mine"));
	assert_true(catalog_known(c, "demo"));
	assert_false(catalog_known(c, "no-such-lesson"));

	/* A bare file name: of the current directory, on the command line. */
	c2 = catalog_create(NULL);
	assert_non_null(getcwd(cwd, sizeof cwd));
	assert_int_equal(chdir(tmpdir), 0);
	assert_null(catalog_load(c2, "mine.cfg", 0, NULL, &cause));
	assert_non_null(strstr(cause, "no such scenario"));
	free(cause);
	cause = NULL;
	n = load_name(c2, "mine.cfg", 1, &label);
	assert_string_equal(n, "mine");
	free(n);
	free(label);
	assert_int_equal(chdir(cwd), 0);
	catalog_free(c2);

	assert_null(catalog_load(c, "no-such-lesson", 0, NULL, &cause));
	assert_non_null(strstr(cause, "no-such-lesson"));
	free(cause);
	catalog_free(c);
	unlink(file);
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
