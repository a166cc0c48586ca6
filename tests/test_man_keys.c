/*
 * test_man_keys.c -- stairs(1)'s KEYS section lists exactly the keys the
 * client's key table binds: every key the page names does something in
 * the client (keys_handle, from a fresh screen), and every key of the
 * keyboard that does something is on the page.  So a key added to
 * ui/keys.c without its line in man/stairs.1 fails here, and so does a
 * key the page keeps after it is gone.  And the page's list of keys is
 * the one made from the key table (keys_man), so a key's words there
 * are the table's.  The page is $STAIRS_MAN/stairs.1 (default man/).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <curses.h>

#include "keys.h"
#include "model.h"
#include "view.h"

#define MAN_KEYS_MAX	128

/* A key's name on the page and its code. */
struct man_key_name {
	const char	*name;
	int		 key;
};

static const struct man_key_name man_key_names[] = {
	{ "Up", KEY_UP }, { "Down", KEY_DOWN }, { "Left", KEY_LEFT },
	{ "Right", KEY_RIGHT }, { "PgUp", KEY_PPAGE }, { "PgDn", KEY_NPAGE },
	{ "Home", KEY_HOME }, { "End", KEY_END }, { "Space", ' ' },
	{ "Enter", '\r' }, { "Esc", 27 }, { "Tab", '\t' },
	{ "Backspace", KEY_BACKSPACE }, { "Insert", KEY_IC },
	{ "Delete", KEY_DC },
};

/* Record nothing: the keys' commands are test_model's business. */
static int
man_keys_send(void *arg, enum model_pend kind, const char *cmd)
{
	return (0);
}

/* Does key do something in the client, on a fresh screen of 2 tasks? */
static int
man_keys_bound(int key)
{
	struct model	*m = model_create();
	struct view	 v;
	struct keys_env	 e;
	int		 f;

	assert_int_equal(model_feed(m, "stairs 1 0.1.0"), MODEL_GREETING);
	model_feed(m, "frame tick=1 cpus=2 tasks=2 paused=0 speed=1 rr=10");
	model_feed(m, "task id=1 name=hog kind=sim pid=- nice=0 cpu=0 "
	    "rank=120 iter=1 left=10 state=running ran=1 cputime=- cpus=0-1 "
	    "group=- exit=-");
	model_feed(m, "task id=2 name=ed kind=sim pid=- nice=0 cpu=1 "
	    "rank=120 iter=1 left=10 state=sleeping ran=0 cputime=- "
	    "cpus=0-1 group=- exit=-");
	model_feed(m, "end");
	memset(&v, 0, sizeof v);
	v.pause_sent = -1;
	memset(&e, 0, sizeof e);
	e.model = m;
	e.view = &v;
	e.send = man_keys_send;
	keys_select_first(m, &v);
	f = keys_handle(&e, key);
	model_free(m);
	return (f != 0 && strstr(v.message, "does nothing here") == NULL);
}

/* The code of a key named on the page; -1 if the name is unknown. */
static int
man_keys_code(const char *name)
{
	size_t	i;
	int	n;

	if (strlen(name) == 1)
		return ((unsigned char)name[0]);
	for (i = 0; i < sizeof man_key_names / sizeof man_key_names[0]; i++) {
		if (strcmp(man_key_names[i].name, name) == 0)
			return (man_key_names[i].key);
	}
	if (name[0] == 'F' && (n = atoi(name + 1)) >= 1 && n <= 12)
		return (KEY_F(n));
	return (-1);
}

/*
 * Read the keys of the page's KEYS section: each .It line is keys
 * separated by " , ", each key a macro (Ic) and a name, \& dropped.
 */
static int
man_keys_read(int *keys, char ***names)
{
	const char	*dir = getenv("STAIRS_MAN");
	char		 path[1024], line[1024], *p, *w, *save, word[64];
	FILE		*f;
	int		 n = 0, in = 0, code;
	size_t		 i, j;

	snprintf(path, sizeof path, "%s/stairs.1", dir != NULL ? dir : "man");
	if ((f = fopen(path, "r")) == NULL)
		fail_msg("%s: cannot open", path);
	*names = calloc(MAN_KEYS_MAX, sizeof **names);
	while (fgets(line, sizeof line, f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, ".Sh ", 4) == 0)
			in = strcmp(line + 4, "KEYS") == 0;
		if (!in || strncmp(line, ".It ", 4) != 0)
			continue;
		for (w = strtok_r(line + 4, " ", &save); w != NULL;
		    w = strtok_r(NULL, " ", &save)) {
			if (strcmp(w, "Ic") == 0 || strcmp(w, ",") == 0)
				continue;
			for (i = j = 0; w[i] != '\0' && j < sizeof word - 1;
			    i++) {
				if (w[i] == '\\' && w[i + 1] == '&')
					i++;
				else
					word[j++] = w[i];
			}
			word[j] = '\0';
			if ((code = man_keys_code(word)) == -1)
				fail_msg("%s: unknown key name \"%s\"", path,
				    word);
			assert_true(n < MAN_KEYS_MAX);
			p = strdup(word);
			(*names)[n] = p;
			keys[n++] = code;
		}
	}
	fclose(f);
	return (n);
}

/* Every key on the page is bound, every bound key is on the page. */
static void
test_keys_match(void **state)
{
	int	 keys[MAN_KEYS_MAX], all[256], nall = 0, n, i, j, k, bad = 0;
	char	**names;

	n = man_keys_read(keys, &names);
	assert_true(n > 10);
	for (i = 0; i < n; i++) {
		if (!man_keys_bound(keys[i])) {
			print_error("stairs.1 lists key %s, which does "
			    "nothing in the client\n", names[i]);
			bad++;
		}
	}
	/* The keyboard: printable ASCII, the named keys, F1..F12. */
	for (k = 32; k < 127; k++)
		all[nall++] = k;
	for (i = 0; i < (int)(sizeof man_key_names /
	    sizeof man_key_names[0]); i++) {
		if (man_key_names[i].key != ' ')
			all[nall++] = man_key_names[i].key;
	}
	for (k = 1; k <= 12; k++)
		all[nall++] = KEY_F(k);
	for (i = 0; i < nall; i++) {
		if (!man_keys_bound(all[i]))
			continue;
		for (j = 0; j < n && keys[j] != all[i]; j++)
			;
		if (j == n) {
			if (all[i] >= KEY_F(1) && all[i] <= KEY_F(12))
				print_error("the client binds F%d, which "
				    "stairs.1 does not list\n",
				    all[i] - KEY_F0);
			else if (all[i] > 32 && all[i] < 127)
				print_error("the client binds '%c', which "
				    "stairs.1 does not list\n", all[i]);
			else
				print_error("the client binds key code %d, "
				    "which stairs.1 does not list\n", all[i]);
			bad++;
		}
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	assert_int_equal(bad, 0);
}

/* The check itself: a key the page does not list is caught. */
static void
test_unlisted_caught(void **state)
{
	/* 'o' is bound nowhere: it must say it does nothing. */
	assert_false(man_keys_bound('o'));
	assert_true(man_keys_bound('q'));
	assert_true(man_keys_bound(KEY_F(1)));
}

/*
 * No key is on two rows of the key table (so on two .It lines of the
 * page, which is made from it): keys_handle takes the first row that
 * binds a key, and a second would never run.
 */
static void
test_keys_once(void **state)
{
	int	 keys[MAN_KEYS_MAX], n, i, j;
	char	**names;

	n = man_keys_read(keys, &names);
	for (i = 0; i < n; i++) {
		for (j = i + 1; j < n; j++) {
			if (keys[i] == keys[j])
				fail_msg("key %s is on two rows", names[i]);
		}
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* Read a whole file into a string, or fail. */
static char *
man_keys_slurp(const char *path)
{
	FILE	*f;
	char	*s;
	long	 n;

	if ((f = fopen(path, "r")) == NULL)
		fail_msg("%s: cannot open", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	s = calloc(1, n + 1);
	if (s == NULL || fread(s, 1, n, f) != (size_t)n)
		fail_msg("%s: cannot read", path);
	fclose(f);
	return (s);
}

/*
 * The page's list of keys, between its "keys: begin" and "keys: end"
 * marks, is the one keys_man() makes from ui/keys.c's table: the page
 * says what the table binds, in the table's words.  With
 * STAIRS_MAN_UPDATE=1 the page is written instead (as
 * STAIRS_GOLDEN_UPDATE=1 writes test_draw's goldens).
 */
static void
test_keys_from_table(void **state)
{
	static const char	 begin[] = ".\\\" keys: begin\n";
	static const char	 end[] = ".\\\" keys: end\n";
	const char		*dir = getenv("STAIRS_MAN");
	char			 path[1024], *page, *list, *a, *b, *p, *q;
	char			*list_line;
	FILE			*f;
	int			 line;

	snprintf(path, sizeof path, "%s/stairs.1", dir != NULL ? dir : "man");
	page = man_keys_slurp(path);
	assert_non_null(list = keys_man());
	if ((a = strstr(page, begin)) == NULL ||
	    (b = strstr(a, end)) == NULL)
		fail_msg("%s: no \"keys: begin\" and \"keys: end\" marks",
		    path);
	a += strlen(begin);
	list_line = list;
	if (getenv("STAIRS_MAN_UPDATE") != NULL) {
		if ((f = fopen(path, "w")) == NULL)
			fail_msg("%s: cannot write", path);
		fprintf(f, "%.*s%s%s", (int)(a - page), page, list, b);
		fclose(f);
	} else if ((size_t)(b - a) != strlen(list) ||
	    strncmp(a, list, b - a) != 0) {
		for (p = a, q = list, line = 1; p < b && *p == *q; p++, q++) {
			if (*p == '\n') {
				line++;
				a = p + 1;
				list_line = q + 1;
			}
		}
		fail_msg("%s: the keys differ from ui/keys.c's table at line %d "
		    "of the list: \"%.*s\", the table's \"%.*s\" "
		    "(STAIRS_MAN_UPDATE=1 writes the table's)", path, line,
		    (int)strcspn(a, "\n"), a, (int)strcspn(list_line, "\n"),
		    list_line);
	}
	free(list);
	free(page);
}

/* Run the tests. */
int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys_match),
		cmocka_unit_test(test_unlisted_caught),
		cmocka_unit_test(test_keys_from_table),
		cmocka_unit_test(test_keys_once),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
