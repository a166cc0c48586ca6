/*
 * test_draw.c -- the client's screen, drawn into a grid from recorded
 * frames (tests/golden/NAME.frame) and compared with golden dumps
 * (tests/golden/NAME.txt: the text, then one letter per cell for its
 * colour).  STAIRS_GOLDEN_UPDATE=1 rewrites the goldens instead; look at
 * them with `git diff` before committing.  A mismatch leaves the actual
 * dump beside the golden as NAME.actual.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stairs.h"
#include "xmalloc.h"

#define GOLDEN	"tests/golden/"

/* Feed a recorded session to a model; a `table` reply is expected. */
static struct model *
load(const char *name)
{
	struct model	*m;
	FILE		*f;
	char		 path[256], line[8192];
	size_t		 len;

	snprintf(path, sizeof path, GOLDEN "%s", name);
	f = fopen(path, "r");
	assert_non_null(f);
	m = model_create();
	while (fgets(line, sizeof line, f) != NULL) {
		len = strlen(line);
		if (len > 0 && line[len - 1] == '\n')
			line[len - 1] = '\0';
		if (strncmp(line, "table ", 6) == 0)
			model_sent(m, PEND_TABLE, "table");
		assert_int_not_equal(model_feed(m, line), MODEL_BAD);
	}
	fclose(f);
	return (m);
}

/* Read a whole file, or NULL. */
static char *
slurp(const char *path)
{
	FILE	*f;
	char	*buf;
	long	 n;

	if ((f = fopen(path, "r")) == NULL)
		return (NULL);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = xmalloc(n + 1);
	if (fread(buf, 1, n, f) != (size_t)n)
		n = 0;
	buf[n] = '\0';
	fclose(f);
	return (buf);
}

/* Write a file. */
static void
spill(const char *path, const char *text)
{
	FILE	*f;

	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Compare a dump with its golden file (or rewrite the golden). */
static void
golden(const char *name, const char *dump)
{
	char		 path[256], apath[256];
	char		*want;
	const char	*update = getenv("STAIRS_GOLDEN_UPDATE");
	int		 line;
	size_t		 i;

	snprintf(path, sizeof path, GOLDEN "%s.txt", name);
	snprintf(apath, sizeof apath, GOLDEN "%s.actual", name);
	if (update != NULL && *update != '\0' && strcmp(update, "0") != 0) {
		spill(path, dump);
		return;
	}
	want = slurp(path);
	if (want == NULL)
		fail_msg("%s missing: run with STAIRS_GOLDEN_UPDATE=1", path);
	if (strcmp(want, dump) != 0) {
		spill(apath, dump);
		for (i = 0, line = 1; want[i] != '\0' && want[i] == dump[i];
		    i++)
			line += want[i] == '\n';
		print_error("%s differs from the golden at line %d; "
		    "see %s\n", name, line, apath);
		free(want);
		fail();
	}
	remove(apath);
	free(want);
}

/* Draw a model at w x h and return the dump. */
static char *
render(struct model *m, struct view *v, int w, int h)
{
	struct grid	 g;
	char		*dump;

	grid_init(&g, w, h);
	keys_select_first(m, v);
	draw_screen(&g, m, v, keys_help());
	dump = grid_dump(&g, 1);
	grid_free(&g);
	return (dump);
}

/* A view as at start. */
static void
view_init(struct view *v)
{
	memset(v, 0, sizeof *v);
	v->show_table = 1;
}

/* Two CPUs on a big screen: every rank, the gauge, the tables. */
static void
test_two_cpu_120x40(void **state)
{
	struct model	*m = load("two_cpu.frame");
	struct view	 v;
	char		*d;

	view_init(&v);
	d = render(m, &v, 120, 40);
	golden("two_cpu_120x40", d);
	/* Every rank from 120 to 139 is drawn on both panels. */
	assert_non_null(strstr(d, "│139"));
	assert_non_null(strstr(d, "[hog "));
	assert_non_null(strstr(d, "CPU0"));
	assert_non_null(strstr(d, "CPU1"));
	assert_non_null(strstr(d, "descents"));
	free(d);
	model_free(m);
}

/* Two CPUs at 80x24: the stairs are compressed, with skip marks. */
static void
test_two_cpu_80x24(void **state)
{
	struct model	*m = load("two_cpu.frame");
	struct view	 v;
	char		*d;

	view_init(&v);
	d = render(m, &v, 80, 24);
	golden("two_cpu_80x24", d);
	assert_non_null(strstr(d, "CPU0"));
	assert_non_null(strstr(d, "CPU1"));
	assert_non_null(strstr(d, "⋮"));
	assert_non_null(strstr(d, "cc1"));
	free(d);
	model_free(m);
}

/* Eight CPUs at 80x24: every CPU still on screen, paused. */
static void
test_eight_cpu_80x24(void **state)
{
	struct model	*m = load("eight_cpu.frame");
	struct view	 v;
	char		*d, label[32];
	int		 i;

	view_init(&v);
	d = render(m, &v, 80, 24);
	golden("eight_cpu_80x24", d);
	for (i = 0; i < 8; i++) {
		snprintf(label, sizeof label, "CPU%d ", i);
		assert_non_null(strstr(d, label));
	}
	assert_non_null(strstr(d, "PAUSED"));
	free(d);
	model_free(m);
}

/* Eight CPUs at 120x40. */
static void
test_eight_cpu_120x40(void **state)
{
	struct model	*m = load("eight_cpu.frame");
	struct view	 v;
	char		*d;

	view_init(&v);
	d = render(m, &v, 120, 40);
	golden("eight_cpu_120x40", d);
	free(d);
	model_free(m);
}

/* Read-only, ASCII, a refused key's message on the caption line. */
static void
test_readonly_ascii(void **state)
{
	struct model	*m = load("two_cpu.frame");
	struct keys_env	 e;
	struct view	 v;
	char		*d;

	view_init(&v);
	v.readonly = 1;
	v.ascii = 1;
	memset(&e, 0, sizeof e);
	e.model = m;
	e.view = &v;
	keys_select_first(m, &v);
	assert_int_equal(keys_handle(&e, 's'), KEYS_HANDLED | KEYS_REDRAW);
	d = render(m, &v, 100, 30);
	golden("readonly_ascii_100x30", d);
	assert_non_null(strstr(d, "READ-ONLY"));
	assert_non_null(strstr(d, "refused"));
	assert_null(strstr(d, "│"));
	free(d);
	model_free(m);
}

/* The help over the screen. */
static void
test_help(void **state)
{
	struct model	*m = load("two_cpu.frame");
	struct view	 v;
	char		*d;

	view_init(&v);
	v.show_help = 1;
	d = render(m, &v, 80, 24);
	golden("help_80x24", d);
	assert_non_null(strstr(d, "detach"));
	free(d);
	/* In ASCII the help's bar has stand-ins, not question marks. */
	v.ascii = 1;
	d = render(m, &v, 80, 24);
	assert_non_null(strstr(d, "[hog ###..]"));
	free(d);
	model_free(m);
}

/* Many tasks: the selection stays in view as it moves down. */
static void
test_scroll(void **state)
{
	struct model	*m = model_create();
	struct view	 v;
	struct grid	 g;
	char		 line[256], *d;
	int		 i;

	model_feed(m, "stairs 1 0.1.0");
	model_feed(m, "frame tick=100 cpus=1 tasks=3000 paused=0 speed=1 "
	    "rr=10 dropped=0");
	model_feed(m, "cpu id=0 task=1 nr=3000 rank=120 iter=1 left=10");
	for (i = 1; i <= 3000; i++) {
		snprintf(line, sizeof line, "task id=%d name=task%d kind=sim "
		    "pid=- nice=0 cpu=0 rank=%d iter=1 left=10 state=%s "
		    "ran=0 cputime=- cpus=0 group=- exit=-", i, i,
		    120 + i % 20, i == 1 ? "running" : "runnable");
		assert_int_equal(model_feed(m, line), MODEL_NOTHING);
	}
	assert_int_equal(model_feed(m, "end"), MODEL_FRAME);
	assert_int_equal(m->ntasks, 3000);
	view_init(&v);
	v.selected = 2999;
	grid_init(&g, 80, 24);
	draw_screen(&g, m, &v, keys_help());
	d = grid_dump(&g, 0);
	assert_non_null(strstr(d, "task2999"));
	assert_true(v.task_top > 2900);
	/* The crowded stair says how many more. */
	assert_non_null(strstr(d, "+"));
	free(d);
	grid_free(&g);
	model_free(m);
}

/*
 * A crowded stair: the names that fit, then "+N" for the rest, N whole
 * (a three-digit N was once cut to two digits).
 */
static void
test_crowded(void **state)
{
	struct model	*m = model_create();
	struct view	 v;
	struct grid	 g;
	char		 line[256], *d, *row, *p, *end;
	int		 i, w, shown, more;

	model_feed(m, "stairs 1 0.1.0");
	model_feed(m, "frame tick=5 cpus=1 tasks=500 paused=0 speed=1 rr=10");
	model_feed(m, "cpu id=0 task=1 nr=500 rank=139 iter=1 left=10");
	for (i = 1; i <= 500; i++) {
		snprintf(line, sizeof line, "task id=%d name=t%d nice=19 cpu=0 "
		    "rank=139 iter=1 left=10 state=%s", i, i,
		    i == 1 ? "running" : "runnable");
		assert_int_equal(model_feed(m, line), MODEL_NOTHING);
	}
	assert_int_equal(model_feed(m, "end"), MODEL_FRAME);
	view_init(&v);
	/* Every width, so the names end at every place near the edge. */
	for (w = 30; w <= 80; w++) {
		grid_init(&g, w, 24);
		draw_screen(&g, m, &v, keys_help());
		d = grid_dump(&g, 0);
		row = strstr(d, "139 ");
		assert_non_null(row);
		*strchr(row, '\n') = '\0';
		shown = 0;
		for (p = row; (p = strchr(p, 't')) != NULL; p++) {
			if (p[1] >= '0' && p[1] <= '9')
				shown++;
		}
		p = strchr(row, '+');
		assert_non_null(p);
		more = (int)strtol(p + 1, &end, 10);
		assert_true(end > p + 1);
		if (shown + more != 500)
			fail_msg("width %d: %d shown + %d more: %s", w, shown,
			    more, row);
		assert_non_null(strstr(row, "[t1"));
		free(d);
		grid_free(&g);
	}
	model_free(m);
}

/* Tiny screens do not crash and keep the status line. */
static void
test_tiny(void **state)
{
	struct model	*m = load("eight_cpu.frame");
	struct view	 v;
	char		*d;
	int		 w, h;

	view_init(&v);
	for (w = 1; w <= 40; w += 3) {
		for (h = 1; h <= 12; h++) {
			d = render(m, &v, w, h);
			free(d);
		}
	}
	d = render(m, &v, 30, 2);
	assert_non_null(strstr(d, "stairs"));
	free(d);
	model_free(m);
}

/* Run the drawing tests. */
int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_cpu_120x40),
		cmocka_unit_test(test_two_cpu_80x24),
		cmocka_unit_test(test_eight_cpu_80x24),
		cmocka_unit_test(test_eight_cpu_120x40),
		cmocka_unit_test(test_readonly_ascii),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_scroll),
		cmocka_unit_test(test_crowded),
		cmocka_unit_test(test_tiny),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
