/*
 * test_builtin.c -- the built-in scenarios (builtin.c and the table
 * tests/embed.sh generates): every scenarios/NAME.cfg is there, its text
 * equal to the file's, it loads, and the order is scenarios/README's;
 * and each is a lesson (description, captions, marks, questions) that
 * fits the client.  Run from the source tree (it reads scenarios/).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <ctype.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "catalog.h"
#include "scenario.h"

/* A whole file's text (malloc'd), or NULL. */
static char *
slurp(const char *path)
{
	FILE	*f;
	char	*buf;
	long	 len;

	if ((f = fopen(path, "r")) == NULL)
		return (NULL);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = malloc(len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, len, f), (size_t)len);
	buf[len] = '\0';
	fclose(f);
	return (buf);
}

/* Every scenarios/NAME.cfg is built in, with the same text, and loads. */
static void
test_every_file(void **state)
{
	const struct catalog_builtin	*b, *all;
	struct scenario			*sc;
	glob_t				 g;
	char				 name[256], *text, *cause = NULL;
	const char			*base;
	size_t				 i, n, len;

	all = catalog_builtins(&n);
	assert_int_equal(glob("scenarios/*.cfg", 0, NULL, &g), 0);
	assert_int_equal(g.gl_pathc, n);
	assert_true(n >= 13);
	for (i = 0; i < g.gl_pathc; i++) {
		base = g.gl_pathv[i] + strlen("scenarios/");
		len = strlen(base) - strlen(".cfg");
		snprintf(name, sizeof name, "%.*s", (int)len, base);
		if ((b = catalog_builtin(name)) == NULL)
			fail_msg("%s is not built in", g.gl_pathv[i]);
		assert_true(b >= all && b < all + n);
		text = slurp(g.gl_pathv[i]);
		assert_non_null(text);
		if (strcmp(text, b->text) != 0)
			fail_msg("built-in %s differs from %s", name,
			    g.gl_pathv[i]);
		free(text);
		if ((sc = scenario_load_string(b->text, b->name,
		    &cause)) == NULL)
			fail_msg("built-in %s: %s", name, cause);
		/* The name it says is the name it is found by. */
		assert_string_equal(sc->name, name);
		scenario_free(sc);
	}
	globfree(&g);
}

/* The order is scenarios/README's numbered lines, 1, 2, 3 ... */
static void
test_order(void **state)
{
	const struct catalog_builtin	*all;
	FILE				*f;
	char				 line[1024], word[256];
	const char			*p;
	size_t				 n, k = 0;
	int				 num;

	all = catalog_builtins(&n);
	assert_non_null(f = fopen("scenarios/README", "r"));
	while (fgets(line, sizeof line, f) != NULL) {
		if (sscanf(line, " %d. %255s", &num, word) != 2)
			continue;
		for (p = line; isspace((unsigned char)*p); p++)
			;
		if (!isdigit((unsigned char)*p))
			continue;
		assert_int_equal(num, (int)k + 1);
		assert_true(k < n);
		if (strcmp(all[k].name, word) != 0)
			fail_msg("built-in %zu is %s, README says %s", k + 1,
			    all[k].name, word);
		k++;
	}
	fclose(f);
	/* Every scenario is in the README. */
	assert_int_equal(k, n);
}

/* Lookups: by name, not by file name or prefix; the demo is the demo. */
static void
test_find(void **state)
{
	const struct catalog_builtin	*b;
	size_t				 n;

	assert_non_null(b = catalog_builtin("demo"));
	assert_ptr_equal(b->text, stairs_demo_scenario);
	assert_ptr_equal(catalog_builtins(&n), b);	/* the first lesson */
	assert_non_null(catalog_builtin("article"));
	assert_ptr_equal(catalog_builtin("demo.cfg"), b);	/* a file's name */
	assert_null(catalog_builtin("dem"));
	assert_null(catalog_builtin(""));
	assert_null(catalog_builtin(NULL));
}

/* The text of an event that shows on the caption line, or NULL. */
static const char *
shown(const struct scenario_event *ev, const char **answer)
{
	*answer = ev->answer;
	switch (ev->action) {
	case SCENARIO_CAPTION:
	case SCENARIO_PAUSE:
	case SCENARIO_ASK:
		return (ev->text);
	default:
		return (NULL);
	}
}

/*
 * The workshop: every built-in says what it shows (a description, a
 * caption, a mark); every caption, question and answer fits the
 * client's two caption lines at 80 columns; the scripted lessons ask at
 * least once.  The demo and the real-process scenarios never stop the
 * clock nor change its speed: the client starts the demo unattended and
 * the tests run them live.
 */
static void
test_lessons(void **state)
{
	const struct catalog_builtin	*all;
	const struct scenario_event	*ev;
	struct scenario			*sc;
	const char			*text, *answer;
	char				*cause = NULL;
	size_t				 i, j, n, marks, asks, captions;
	int				 unattended;

	all = catalog_builtins(&n);
	for (i = 0; i < n; i++) {
		sc = scenario_load_string(all[i].text, all[i].name, &cause);
		assert_non_null(sc);
		if (sc->description == NULL || strlen(sc->description) < 40)
			fail_msg("%s: no description worth the name", sc->name);
		unattended = strcmp(sc->name, "demo") == 0 ||
		    scenario_ncommands(sc) != 0;
		marks = asks = captions = 0;
		for (j = 0; j < sc->nevents; j++) {
			ev = &sc->events[j];
			if (ev->action == SCENARIO_MARK) {
				marks++;
				if (strlen(ev->text) > 40)
					fail_msg("%s:%d: a mark longer than 40",
					    sc->name, ev->line);
			}
			if (ev->action == SCENARIO_CAPTION)
				captions++;
			if (ev->action == SCENARIO_ASK)
				asks++;
			if (unattended && (ev->action == SCENARIO_PAUSE ||
			    ev->action == SCENARIO_ASK ||
			    ev->action == SCENARIO_SPEED))
				fail_msg("%s:%d: stops or changes the clock",
				    sc->name, ev->line);
			/* The policy is --compare's to choose. */
			if (ev->action == SCENARIO_POLICY)
				fail_msg("%s:%d: a policy event", sc->name,
				    ev->line);
			if ((text = shown(ev, &answer)) != NULL &&
			    strlen(text) > 140)
				fail_msg("%s:%d: %zu characters: more than two "
				    "caption lines", sc->name, ev->line,
				    strlen(text));
			if (answer != NULL && strlen(answer) > 140)
				fail_msg("%s:%d: an answer of %zu characters",
				    sc->name, ev->line, strlen(answer));
		}
		if (marks == 0 || captions == 0)
			fail_msg("%s: %zu marks, %zu captions", sc->name,
			    marks, captions);
		if (!unattended && asks == 0)
			fail_msg("%s: a lesson that never asks", sc->name);
		if (unattended && sc->has_speed)
			fail_msg("%s: sets the speed", sc->name);
		scenario_free(sc);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_file),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_lessons),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
