/*
 * draw.c -- the client's screen laid out into a grid of cells: the
 * status line (bar.c), the CPU panels (panel.c), the task table
 * (tasktab.c), the article's table for the selected task (article.c),
 * the history panes asked for (history.c: timeline, rank line, event
 * log) below the CPUs,
 * the caption line and the key hints or a prompt (bar.c), and the
 * scenario picker (picker.c) and the help over them (help.c); the cells
 * themselves are grid.c's.  Pure: no ncurses, no I/O, so the tests
 * compare grids with golden text files; crt.c puts a grid on the
 * terminal.
 *
 * The screen is laid out from the top down.  The CPUs (panel.c: panels,
 * or cpulist.c's list) get what is left after the status, caption and
 * key lines and the minimum of the tables; the task table takes the
 * rest, the article's table below it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "grid.h"
#include "model.h"
#include "pane.h"
#include "theme.h"
#include "view.h"

/*
 * Set the message on the caption line (the last key's outcome).  It is a
 * note (message_note), unless keys_send says it is a command's progress.
 */
void
draw_message(struct view *v, int error, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(v->message, sizeof v->message, fmt, ap);
	va_end(ap);
	v->message_error = error;
	v->message_note = 1;
}

/* Up to this many tasks, big type leaves the table a row for each. */
#define DRAW_ALL_TASKS	8
/*
 * Rows a row of panels keeps before the article's table is drawn with
 * the history panes: half the twenty ranks, and the borders.
 */
#define DRAW_CPU_ROWS	12

/* Draw the whole screen into g (already sized). */
void
draw_screen(struct grid *g, const struct model *m, struct view *v,
    const char *const *help)
{
	struct draw	 d;
	int		 i, avail, th, tmin, ph, hh, y, want, caplines;

	memset(&d, 0, sizeof d);
	d.g = g;
	d.m = m;
	d.v = v;
	g->ascii = v->ascii;
	d.gl = grid_glyphs(v->ascii, theme_thick(v->theme));
	panel_ranks_span(&d);

	grid_clear(g);
	v->task_rows = 0;
	v->cpus_y = v->cpus_rows = 0;
	v->events_y = v->events_rows = 0;
	bar_status(&d);
	if (g->h < 4) {
		if (g->h >= 2)
			bar_caption(&d, g->h - 1, 1);
		return;
	}

	/* Rows 1 .. h-3 hold the panels and the tables (less a caption line). */
	caplines = g->h >= 12 ? bar_caption_lines(&d) : 1;
	avail = g->h - 2 - caplines;
	tmin = 1 + (m->ntasks < 3 ? m->ntasks : 3);
	if (g->h >= 30 && m->ntasks >= 5)
		tmin = 1 + 5;
	th = article_lines(&d, g->h >= 30 ? 7 : 4);
	/*
	 * Two policies' CPUs take twice the rows: the task table keeps
	 * room for five tasks, and the article's table waits for a tall
	 * screen.
	 */
	if (m->shadow != NULL && !v->compare_off) {
		if (tmin < 1 + (m->ntasks < 5 ? m->ntasks : 5))
			tmin = 1 + (m->ntasks < 5 ? m->ntasks : 5);
		if (g->h < 40)
			th = 0;
	}
	if (avail - th - tmin < 6)
		th = 0;
	if (avail - tmin < 3)
		tmin = avail > 3 ? avail - 3 : 0;
	/*
	 * The history panes asked for come out of the CPUs' share, and on
	 * a screen under 40 rows the article's table gives way to them.
	 */
	if (th > 0 && g->h < 40 && (v->show_timeline || v->show_ranks ||
	    v->show_events))
		th = 0;
	/*
	 * Big type takes all the rows it is given: with few tasks (up to
	 * DRAW_ALL_TASKS) it leaves the table a row for each (it gets
	 * smaller, or gives way to the normal panels in auto).
	 */
	if (m->ntasks <= DRAW_ALL_TASKS && tmin < 1 + m->ntasks &&
	    avail - th - (1 + m->ntasks) >= 3 &&
	    panel_big(&d, avail - th - tmin) > 0)
		tmin = 1 + m->ntasks;
	hh = history_lines(&d, avail - th - tmin);
	/*
	 * The history panes and the article's table leave the CPUs room
	 * for half the ranks on each row of panels (two rows past four
	 * CPUs), or the table gives way: at 120x40 the timeline of eight
	 * CPUs left their panels 3 ranks each beside the table.
	 */
	want = DRAW_CPU_ROWS * (m->ncpus > 4 ? 2 : 1);
	if (th > 0 && hh > 0 && avail - th - tmin - hh < want) {
		th = 0;
		hh = history_lines(&d, avail - tmin);
	}
	/* Two policies side by side (compare NAME), unless c said one. */
	if (m->shadow != NULL && !v->compare_off)
		ph = compare_draw(&d, 1, avail - th - tmin - hh);
	else
		ph = panel_draw(&d, 1, avail - th - tmin - hh);
	v->cpus_y = 1;
	v->cpus_rows = ph;
	y = 1 + ph;
	if (hh > 0)
		y += history_draw(&d, y, avail - th - tmin);
	ph = y - 1;
	/* The task table takes what is left, the article's table below. */
	want = avail - ph - th;
	if (th > 0 && 1 + m->ntasks < want) {
		/* Few tasks: their spare lines show more descents. */
		th += want - (1 + m->ntasks);
		want = 1 + m->ntasks;
		i = article_rows(&d);
		if (i < 1)
			i = 1;
		if (th > 2 + i)
			th = 2 + i;
	}
	/* Policies side by side: what each task got under each. */
	for (i = 0; i < m->ntasks && !m->tasks[i].tally.valid; i++)
		;
	if (m->nshadows > 0 && !v->compare_off && i < m->ntasks)
		tallytab_draw(&d, y, want);
	else
		tasktab_draw(&d, y, want);
	if (th > 0)
		article_draw(&d, y + want, th);
	bar_caption(&d, g->h - 1 - caplines, caplines);
	bar_keys(&d, g->h - 1);
	if (v->picker)
		picker_draw(&d);
	if (v->show_help && help != NULL)
		help_draw(&d, help);
}
