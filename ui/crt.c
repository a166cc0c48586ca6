/*
 * crt.c -- the only ncurses code: terminal set-up and tear-down, the
 * attributes each colour of draw.c stands for in the theme chosen
 * (theme.c's looks made colour pairs, or reverse/bold alone on
 * monochrome terminals and under NO_COLOR), keys and mouse clicks,
 * resizes, and putting a grid on the screen.
 *
 * The terminal is restored by crt_fini, which is also registered with
 * atexit so that fatal() and any other exit leave a usable terminal.
 * Output is diffed by ncurses: a frame writes every cell into stdscr and
 * doupdate() sends only what changed, so nothing flickers.
 */
#include <sys/ioctl.h>

#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include <curses.h>

#include "crt.h"
#include "grid.h"
#include "theme.h"
#include "view.h"
#include "xmalloc.h"

/*
 * The mouse events asked for: button 1, and the wheel (buttons 4, 5).
 * The release too, though crt_getkey passes over it: an event left out
 * of the mask makes ncurses read on for one it wants, in a blocking
 * read(2) even in nodelay mode, so a click's release arriving on its
 * own held the whole loop (frames unread) until the next key.
 */
#ifdef BUTTON5_PRESSED
#define CRT_WHEEL_DOWN_MASK	BUTTON5_PRESSED
#else
#define CRT_WHEEL_DOWN_MASK	0
#endif
#define CRT_MOUSE	(BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON1_CLICKED | \
			    BUTTON4_PRESSED | CRT_WHEEL_DOWN_MASK)

static SCREEN	*crt_screen;
static int	 crt_colour;
static int	 crt_registered;

/* The theme's attributes of each colour, as set by crt_theme. */
static attr_t	 crt_attrs[COL_MAX];
static int	 crt_themed = -1;	/* the theme set, -1 none yet */

/*
 * What is on the screen now, so a frame only touches the cells that
 * changed: far fewer calls into ncurses, and wnoutrefresh only looks at
 * the lines touched.  Cleared (forcing a full paint) on a resize.
 */
static struct cell *crt_shown;
static int	 crt_shown_w;
static int	 crt_shown_h;

/* Is the terminal in curses mode? */
int
crt_active(void)
{
	return (crt_screen != NULL);
}

/*
 * Set the terminal up.  The locale decides whether the screen is drawn
 * in UTF-8 or in ASCII (v->ascii), so a non-UTF-8 terminal never shows
 * garbage; NO_COLOR (set and not empty) or a terminal without colours
 * gives reverse/bold only.
 */
int
crt_init(struct view *v, char **cause)
{
	const char	*nc;

	setlocale(LC_ALL, "");
	v->ascii = strcmp(nl_langinfo(CODESET), "UTF-8") != 0;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		*cause = xasprintf("not a terminal");
		return (-1);
	}
	if ((crt_screen = newterm(NULL, stdout, stdin)) == NULL) {
		*cause = xasprintf("cannot use the terminal (TERM=%s)",
		    getenv("TERM") != NULL ? getenv("TERM") : "unset");
		return (-1);
	}
	if (!crt_registered) {
		atexit(crt_fini);
		crt_registered = 1;
	}
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(50);
	curs_set(0);
	mousemask(CRT_MOUSE, NULL);
	mouseinterval(0);

	nc = getenv("NO_COLOR");
	crt_colour = has_colors() && (nc == NULL || *nc == '\0');
	if (crt_colour) {
		start_color();
		use_default_colors();
	}
	crt_themed = -1;
	crt_theme(v->theme);
	erase();
	return (0);
}

/* A LOOK_* set as curses attributes. */
static attr_t
crt_attr(int look)
{
	attr_t	a = A_NORMAL;

	if (look & LOOK_BOLD)
		a |= A_BOLD;
	if (look & LOOK_REVERSE)
		a |= A_REVERSE;
	if (look & LOOK_UNDERLINE)
		a |= A_UNDERLINE;
	if (look & LOOK_DIM)
		a |= A_DIM;
	return (a);
}

/*
 * A theme's colour number on this terminal: a bright one (8-15) on a
 * terminal of 8 colours is the plain one, made bold (*bold set).
 */
static short
crt_colour_of(short c, int *bold)
{
	if (c >= 8 && COLORS < 16) {
		*bold = 1;
		return (c - 8);
	}
	return (c);
}

/*
 * Use theme t: a colour pair per colour (COL_DEFAULT's, the pair 0, by
 * assume_default_colors: the projector's own background), and every
 * cell painted again at the next render.  Without colours only the
 * glyphs change (draw.c), the attributes are theme_mono's.
 */
void
crt_theme(enum theme t)
{
	const struct look	*lk;
	short			 fg, bg;
	int			 i, bold;

	if (crt_screen == NULL || (int)t == crt_themed)
		return;
	crt_themed = t;
	for (i = 0; i < COL_MAX; i++) {
		if (!crt_colour) {
			crt_attrs[i] = crt_attr(theme_mono(i)->attr);
			continue;
		}
		lk = theme_look(t, i);
		bold = 0;
		fg = crt_colour_of(lk->fg, &bold);
		bg = crt_colour_of(lk->bg, &bold);
		crt_attrs[i] = crt_attr(lk->attr) | (bold ? A_BOLD : 0);
		if (i == COL_DEFAULT)
			assume_default_colors(fg, bg);
		else
			init_pair(i, fg, bg);
	}
	/* Everything again: the attributes changed, not only the pairs. */
	crt_shown_w = crt_shown_h = 0;
	clearok(curscr, TRUE);
}

/* Restore the terminal (safe to call twice, and at exit). */
void
crt_fini(void)
{
	if (crt_screen == NULL)
		return;
	free(crt_shown);
	crt_shown = NULL;
	crt_shown_w = crt_shown_h = 0;
	mousemask(0, NULL);
	curs_set(1);
	endwin();
	delscreen(crt_screen);
	crt_screen = NULL;
}

/* The screen's size now. */
void
crt_size(int *w, int *h)
{
	*w = COLS;
	*h = LINES;
}

/* The window changed size (SIGWINCH): tell ncurses the new size. */
void
crt_resize(void)
{
	struct winsize	ws;

	if (crt_screen == NULL)
		return;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 &&
	    ws.ws_col > 0)
		resizeterm(ws.ws_row, ws.ws_col);
	crt_shown_w = crt_shown_h = 0;
}

/*
 * The next key, CRT_NONE if none is waiting, or CRT_CLICK (or
 * CRT_WHEEL_UP, CRT_WHEEL_DOWN) with the cell under the mouse in *x,
 * *y.  Function keys come as KEY_* codes.
 */
int
crt_getkey(int *x, int *y)
{
	MEVENT	ev;
	wint_t	ch;
	int	r;

	/* Mouse events of no interest (a release) are passed over. */
	for (;;) {
		r = wget_wch(stdscr, &ch);
		if (r == ERR)
			return (CRT_NONE);
		if (r != KEY_CODE_YES || ch != KEY_MOUSE)
			return ((int)ch);
		if (getmouse(&ev) != OK)
			continue;
		*x = ev.x;
		*y = ev.y;
		if (ev.bstate & BUTTON4_PRESSED)
			return (CRT_WHEEL_UP);
		if (ev.bstate & CRT_WHEEL_DOWN_MASK)
			return (CRT_WHEEL_DOWN);
		if (ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED))
			return (CRT_CLICK);
	}
}

/* Put a grid on the screen (it should be the screen's size). */
void
crt_render(const struct grid *g)
{
	const struct cell	*c;
	cchar_t			 cc;
	wchar_t			 wc[2];
	attr_t			 attr;
	short			 pair;
	int			 x, y;

	const struct cell	*was;
	int			 full = 0;

	if (crt_screen == NULL)
		return;
	if (crt_shown_w != g->w || crt_shown_h != g->h) {
		free(crt_shown);
		crt_shown = xreallocarray(NULL, (size_t)g->w * g->h,
		    sizeof *crt_shown);
		crt_shown_w = g->w;
		crt_shown_h = g->h;
		full = 1;
	}
	for (y = 0; y < g->h && y < LINES; y++) {
		for (x = 0; x < g->w && x < COLS; x++) {
			c = &g->cells[y * g->w + x];
			was = &crt_shown[y * g->w + x];
			if (!full && was->ch == c->ch && was->col == c->col)
				continue;
			crt_shown[y * g->w + x] = *c;
			if (c->ch == 0)
				continue;
			attr = crt_attrs[c->col];
			pair = crt_colour ? c->col : 0;
			wc[0] = c->ch;
			wc[1] = L'\0';
			setcchar(&cc, wc, attr, pair, NULL);
			/* The bottom-right cell returns ERR but is drawn. */
			mvwadd_wch(stdscr, y, x, &cc);
		}
	}
	wnoutrefresh(stdscr);
	doupdate();
}
