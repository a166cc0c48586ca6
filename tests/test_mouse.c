/*
 * test_mouse.c -- the mouse in the client, on screens drawn from the
 * golden frames: a click on a task on its stair selects it in every
 * layout (panels, the list, two policies side by side, small and big
 * screens), and the cells a task is tagged with show that task; a click
 * on a key of the keys bar (or the status line's) is that key, a click
 * on the words of a key shared by two ("+/- nice") is nothing; the
 * wheel scrolls the event log, the CPUs and the task selection, each
 * where it is turned.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <cmocka.h>
#include <curses.h>

#include "draw.h"
#include "grid.h"
#include "keys.h"
#include "model.h"
#include "pane.h"
#include "view.h"

#define GOLDEN	"tests/golden/"

static char	sent[16][128];
static int	nsent;

/* Record the commands keys send. */
static int
record(void *arg, enum model_pend kind, const char *cmd)
{
	if (nsent < 16)
		snprintf(sent[nsent++], sizeof sent[0], "%s", cmd);
	return (0);
}

/*
 * Feed a golden frame file to a model; shadow: every cpu and task line
 * again as the shadow's (scpu, stask), so both sides of compare show.
 */
static struct model *
load(const char *name, int shadow)
{
	struct model	*m;
	FILE		*f;
	char		 path[256], line[8192], more[8300];
	size_t		 len;

	snprintf(path, sizeof path, GOLDEN "%s", name);
	assert_non_null(f = fopen(path, "r"));
	m = model_create();
	while (fgets(line, sizeof line, f) != NULL) {
		len = strlen(line);
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (shadow && strncmp(line, "frame ", 6) == 0) {
			snprintf(more, sizeof more, "%s shadow=cfs", line);
			assert_int_not_equal(model_feed(m, more), MODEL_BAD);
			continue;
		}
		assert_int_not_equal(model_feed(m, line), MODEL_BAD);
		if (shadow && (strncmp(line, "cpu ", 4) == 0 ||
		    strncmp(line, "task ", 5) == 0)) {
			snprintf(more, sizeof more, "s%s", line);
			assert_int_not_equal(model_feed(m, more), MODEL_BAD);
		}
	}
	fclose(f);
	return (m);
}

/* A fresh view, as the client starts. */
static void
view_init(struct view *v)
{
	memset(v, 0, sizeof *v);
	v->show_table = 1;
	v->pause_sent = -1;
}

/* Draw m at w x h into g (made here) and ready e to click on it. */
static void
draw(struct grid *g, struct keys_env *e, struct model *m, struct view *v,
    int w, int h)
{
	grid_init(g, w, h);
	keys_select_first(m, v);
	draw_screen(g, m, v, keys_help());
	memset(e, 0, sizeof *e);
	e->model = m;
	e->view = v;
	e->grid = g;
	e->send = record;
	nsent = 0;
}

/* Find text s on row y (any row if y < 0): its column and row; 0 if so. */
static int
find(const struct grid *g, const char *s, int y, int nth, int *fx, int *fy)
{
	wchar_t	ws[128];
	int	n, x, r, i;

	n = grid_decode(s, ws, 128);
	for (r = y < 0 ? 0 : y; r < g->h && (y < 0 || r == y); r++) {
		for (x = 0; x + n <= g->w; x++) {
			for (i = 0; i < n; i++) {
				if (g->cells[r * g->w + x + i].ch != ws[i])
					break;
			}
			if (i == n && nth-- == 0) {
				*fx = x;
				*fy = r;
				return (0);
			}
		}
	}
	return (-1);
}

/*
 * Every task tagged on the stairs: its cells show it (its name's first
 * letter or its id, inside [ ] or ( ) or bare), and a click on the
 * middle of them selects it, whatever was selected.  Returns how many
 * runnable and running tasks were found so; every tag is a live task.
 */
static int
check_stair_clicks(struct grid *g, struct keys_env *e, const char *what)
{
	struct model		*m = e->model;
	struct view		*v = e->view;
	const struct mtask	*t;
	char			 text[64];
	int			 i, x, y, x0, n, tag, found = 0, other;

	for (y = v->cpus_y; y < v->cpus_y + v->cpus_rows; y++) {
		for (x = 0; x < g->w; x++) {
			tag = grid_tag_at(g, x, y);
			if (tag != 0 && model_task(m, tag) == NULL)
				fail_msg("%s: (%d,%d) tagged %d: no such task",
				    what, x, y, tag);
		}
	}
	for (i = 0; i < m->ntasks; i++) {
		t = &m->tasks[i];
		x0 = -1;
		for (y = v->cpus_y; x0 < 0 && y < v->cpus_y + v->cpus_rows;
		    y++) {
			for (x = 0; x < g->w; x++) {
				if (grid_tag_at(g, x, y) == t->id) {
					x0 = x;
					break;
				}
			}
		}
		if (x0 < 0)
			continue;
		y--;
		for (n = 0, x = x0; x < g->w && grid_tag_at(g, x, y) == t->id &&
		    n < (int)sizeof text - 1; x++) {
			if (g->cells[y * g->w + x].ch < 128 &&
			    g->cells[y * g->w + x].ch != '[' &&
			    g->cells[y * g->w + x].ch != '(')
				text[n++] = (char)g->cells[y * g->w + x].ch;
			else if (n == 0)
				continue;
			else
				break;
		}
		text[n] = '\0';
		if (text[0] != t->name[0] && atoi(text) != t->id)
			fail_msg("%s: task %d (%s) tagged on \"%s\"", what,
			    t->id, t->name, text);
		other = m->tasks[(i + 1) % m->ntasks].id;
		v->selected = other;
		if (other != t->id &&
		    !(keys_click(e, x0 + (x - x0) / 2, y) & KEYS_TABLE))
			fail_msg("%s: a click on %s at (%d,%d) did nothing",
			    what, t->name, x0 + (x - x0) / 2, y);
		if (v->selected != t->id)
			fail_msg("%s: a click on %s selected %d", what,
			    t->name, v->selected);
		found += t->state == MTASK_RUNNING ||
		    t->state == MTASK_RUNNABLE;
	}
	return (found);
}

/* Runnable and running tasks of a model. */
static int
nrunnable(const struct model *m)
{
	int	i, n = 0;

	for (i = 0; i < m->ntasks; i++)
		n += m->tasks[i].state == MTASK_RUNNING ||
		    m->tasks[i].state == MTASK_RUNNABLE;
	return (n);
}

/*
 * A click on a task on a stair selects it: panels (2 and 8 CPUs, small
 * and big screens), the list (64 CPUs, and asked for with v), both
 * policies side by side and stacked; each shows every runnable task.
 */
static void
test_click_stairs(void **state)
{
	static const struct {
		const char	*frame;
		int		 w, h, shadow;
		enum view_cpus	 cpus;
	} cases[] = {
		{ "two_cpu.frame", 120, 40, 0, VIEW_AUTO },
		{ "two_cpu.frame", 80, 24, 0, VIEW_AUTO },
		{ "hogs8.frame", 200, 60, 0, VIEW_AUTO },
		{ "hogs8.frame", 80, 24, 0, VIEW_AUTO },
		{ "eight_cpu.frame", 120, 40, 0, VIEW_AUTO },
		{ "eight_cpu.frame", 250, 80, 0, VIEW_AUTO },
		{ "eight_cpu.frame", 120, 40, 0, VIEW_LIST },
		{ "hogs64.frame", 200, 60, 0, VIEW_AUTO },
		{ "two_cpu.frame", 200, 60, 1, VIEW_AUTO },
		{ "two_cpu.frame", 90, 50, 1, VIEW_AUTO },
	};
	struct model	*m;
	struct view	 v;
	struct grid	 g;
	struct keys_env	 e;
	char		 what[96];
	size_t		 i;
	int		 found;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		m = load(cases[i].frame, cases[i].shadow);
		assert_true(cases[i].shadow == (m->shadow != NULL));
		view_init(&v);
		v.cpu_view = cases[i].cpus;
		draw(&g, &e, m, &v, cases[i].w, cases[i].h);
		snprintf(what, sizeof what, "%s %dx%d%s%s", cases[i].frame,
		    cases[i].w, cases[i].h, cases[i].shadow ? " compare" : "",
		    cases[i].cpus == VIEW_LIST ? " list" : "");
		assert_true(v.cpus_rows > 0);
		found = check_stair_clicks(&g, &e, what);
		if (found != nrunnable(m))
			fail_msg("%s: %d of %d runnable tasks to click", what,
			    found, nrunnable(m));
		grid_free(&g);
		model_free(m);
	}
}

/* Click the nth text s of row y (-1: any) at its offset off. */
static int
click_text(struct keys_env *e, const char *s, int y, int nth, int off)
{
	int	x, fy;

	if (find(e->grid, s, y, nth, &x, &fy) != 0)
		fail_msg("\"%s\" is not on the screen", s);
	return (keys_click(e, x + off, fy));
}

/*
 * The keys bar: a key's letter and its words are that key; "+/- nice":
 * + and - each, "nice" nothing; the status line's "q detach" quits;
 * read-only, "[ ]" are two keys; in the past, "a tick" after "←/→" is
 * not the a key.
 */
static void
test_click_keys(void **state)
{
	struct model	*m = load("two_cpu.frame", 0);
	struct view	 v;
	struct grid	 g;
	struct keys_env	 e;
	int		 bar, f;

	view_init(&v);
	draw(&g, &e, m, &v, 200, 40);
	bar = g.h - 1;
	f = click_text(&e, "t table", bar, 0, 4);
	assert_true(f & KEYS_HANDLED);
	assert_int_equal(v.show_table, 0);
	click_text(&e, "t table", bar, 0, 0);
	assert_int_equal(v.show_table, 1);
	click_text(&e, "space pause", bar, 0, 8);
	assert_int_equal(nsent, 1);
	assert_string_equal(sent[0], "pause");
	click_text(&e, "+/- nice", bar, 0, 0);
	assert_int_equal(nsent, 2);
	assert_true(strncmp(sent[1], "nice ", 5) == 0);
	assert_non_null(strstr(sent[1], " 1"));
	click_text(&e, "+/- nice", bar, 0, 2);
	assert_int_equal(nsent, 3);
	/* From the nice + just sent, as a second - would. */
	assert_true(strcmp(sent[2] + strlen(sent[2]) - 2, " 0") == 0);
	/* "nice" is either: nothing. */
	assert_int_equal(click_text(&e, "+/- nice", bar, 0, 5), 0);
	assert_int_equal(nsent, 3);
	click_text(&e, "i rr", bar, 0, 2);
	assert_int_equal(nsent, 4);
	assert_string_equal(sent[3], "step 10");
	click_text(&e, "E event", bar, 0, 0);
	assert_string_equal(sent[4], "step event");
	click_text(&e, "* speed", bar, 0, 0);
	assert_int_not_equal(v.prompt, 0);
	/* With a prompt open a click does nothing; Escape closes it. */
	grid_free(&g);
	draw(&g, &e, m, &v, 200, 40);
	assert_int_equal(click_text(&e, "speed (", bar, 0, 0), 0);
	assert_int_equal(keys_click(&e, 5, 1), 0);
	assert_int_not_equal(v.prompt, 0);
	keys_handle(&e, 27);
	grid_free(&g);
	draw(&g, &e, m, &v, 200, 40);
	/* The space between two keys' words is no key. */
	assert_int_equal(click_text(&e, "  S sleep..", bar, 0, 1), 0);
	click_text(&e, "? help", bar, 0, 3);
	assert_int_equal(v.show_help, 1);
	/* A click with the help up closes it, as a key does. */
	keys_click(&e, 3, bar);
	assert_int_equal(v.show_help, 0);
	assert_true(click_text(&e, "q detach", 0, 0, 2) & KEYS_QUIT);
	assert_true(click_text(&e, "q detach", bar, 0, 5) & KEYS_QUIT);
	grid_free(&g);

	/* Read-only: [ and ] each. */
	view_init(&v);
	v.readonly = 1;
	draw(&g, &e, m, &v, 200, 40);
	v.cpu_top = 1;
	click_text(&e, "[ ]", g.h - 1, 0, 0);
	assert_int_equal(v.cpu_top, 0);
	click_text(&e, "[ ]", g.h - 1, 0, 2);
	assert_int_equal(v.cpu_top, 1);
	assert_int_equal(click_text(&e, "[ ] CPUs", g.h - 1, 0, 5), 0);
	grid_free(&g);
	model_free(m);

	/* The past: ← and → are keys, "a tick" is not a. */
	m = load("session.frame", 0);
	assert_int_equal(m->live, 0);
	view_init(&v);
	draw(&g, &e, m, &v, 200, 40);
	click_text(&e, "←/→ a tick", g.h - 1, 0, 0);
	assert_int_equal(nsent, 1);
	assert_true(strncmp(sent[0], "seek ", 5) == 0);
	assert_int_equal(click_text(&e, "←/→ a tick", g.h - 1, 0, 4), 0);
	assert_int_equal(v.prompt, 0);
	click_text(&e, "space resumes", g.h - 1, 0, 8);
	assert_int_equal(v.prompt, PROMPT_BRANCH);	/* asks first */
	keys_handle(&e, 'y');
	assert_int_equal(nsent, 2);
	assert_string_equal(sent[1], "resume");
	grid_free(&g);
	model_free(m);
}

/*
 * The wheel: over the event log it scrolls the log (up: older), over
 * CPUs with rows hidden it scrolls them, over the task table it moves
 * the selection by KEYS_WHEEL.
 */
static void
test_wheel(void **state)
{
	struct model	*m = load("history.frame", 0);
	struct view	 v;
	struct grid	 g;
	struct keys_env	 e;
	int		 sel;

	view_init(&v);
	v.show_events = 1;
	draw(&g, &e, m, &v, 80, 40);
	assert_true(v.events_rows > 2);
	assert_true(keys_wheel(&e, 5, v.events_y + 1, -1) & KEYS_REDRAW);
	assert_int_equal(v.events_back, KEYS_WHEEL);
	keys_wheel(&e, 5, v.events_y + 1, 1);
	keys_wheel(&e, 5, v.events_y + 1, 1);
	assert_int_equal(v.events_back, 0);
	/* Over the tasks: the selection moves, by KEYS_WHEEL at most. */
	sel = model_task_index(m, v.selected);
	keys_wheel(&e, 5, v.task_y, 1);
	assert_int_equal(model_task_index(m, v.selected),
	    sel + KEYS_WHEEL < m->ntasks ? sel + KEYS_WHEEL : m->ntasks - 1);
	keys_wheel(&e, 5, v.task_y, -1);
	keys_wheel(&e, 5, v.task_y, -1);
	assert_int_equal(model_task_index(m, v.selected), 0);
	grid_free(&g);
	model_free(m);

	/* 64 CPUs as panels on a small screen: rows hidden, scrolled. */
	m = load("hogs64.frame", 0);
	view_init(&v);
	v.cpu_view = VIEW_PANELS;
	draw(&g, &e, m, &v, 80, 24);
	if (v.cpu_rows <= v.cpu_rows_shown)
		fail_msg("64 CPUs at 80x24: %d of %d rows shown",
		    v.cpu_rows_shown, v.cpu_rows);
	sel = v.selected;
	assert_true(keys_wheel(&e, 5, v.cpus_y + 1, 1) & KEYS_REDRAW);
	assert_int_equal(v.cpu_top, 1);
	assert_int_equal(v.selected, sel);
	keys_wheel(&e, 5, v.cpus_y + 1, -1);
	keys_wheel(&e, 5, v.cpus_y + 1, -1);
	assert_int_equal(v.cpu_top, 0);
	grid_free(&g);
	model_free(m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_click_stairs),
		cmocka_unit_test(test_click_keys),
		cmocka_unit_test(test_wheel),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
