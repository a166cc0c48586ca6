/*
 * crt.c -- the only ncurses code: terminal set-up and tear-down, the
 * attributes each colour of draw.c stands for (with colours, or with
 * reverse/bold alone on monochrome terminals and under NO_COLOR), keys
 * and mouse clicks, resizes, and putting a grid on the screen.
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

#include "stairs.h"
#include "xmalloc.h"

/* How each colour looks: foreground, background, attributes. */
struct crt_look {
	short		 fg;
	short		 bg;
	attr_t		 attr;		/* with colour */
	attr_t		 mono;		/* without */
};

static const struct crt_look crt_looks[COL_MAX] = {
	[COL_DEFAULT] = { -1, -1, A_NORMAL, A_NORMAL },
	[COL_BORDER] = { COLOR_BLUE, -1, A_NORMAL, A_NORMAL },
	[COL_TITLE] = { COLOR_CYAN, -1, A_BOLD, A_BOLD },
	[COL_RANK] = { COLOR_YELLOW, -1, A_NORMAL, A_NORMAL },
	[COL_STAIR] = { COLOR_YELLOW, -1, A_BOLD, A_NORMAL },
	[COL_SKIP] = { COLOR_YELLOW, -1, A_BOLD, A_BOLD },
	[COL_RUNNING] = { COLOR_BLACK, COLOR_GREEN, A_BOLD,
	    A_REVERSE | A_BOLD },
	[COL_GAUGE] = { COLOR_WHITE, COLOR_GREEN, A_BOLD, A_REVERSE | A_BOLD },
	[COL_GAUGE_EMPTY] = { COLOR_BLACK, COLOR_GREEN, A_NORMAL, A_REVERSE },
	[COL_QUEUED] = { -1, -1, A_BOLD, A_BOLD },
	[COL_SLEEPING] = { COLOR_BLUE, -1, A_BOLD, A_DIM },
	[COL_EXITED] = { COLOR_RED, -1, A_NORMAL, A_DIM },
	[COL_SELECTED] = { COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE },
	[COL_MARK] = { COLOR_CYAN, -1, A_BOLD | A_UNDERLINE,
	    A_BOLD | A_UNDERLINE },
	[COL_HEADER] = { -1, -1, A_BOLD, A_BOLD },
	[COL_STATUS] = { COLOR_BLACK, COLOR_WHITE, A_NORMAL, A_REVERSE },
	[COL_PAUSED] = { COLOR_BLACK, COLOR_YELLOW, A_BOLD,
	    A_REVERSE | A_BOLD },
	[COL_READONLY] = { COLOR_WHITE, COLOR_RED, A_BOLD, A_REVERSE | A_BOLD },
	[COL_CAPTION] = { COLOR_YELLOW, -1, A_BOLD, A_BOLD },
	[COL_ERROR] = { COLOR_RED, -1, A_BOLD, A_BOLD | A_UNDERLINE },
	[COL_KEYS] = { COLOR_CYAN, -1, A_NORMAL, A_NORMAL },
	[COL_CELL] = { -1, -1, A_NORMAL, A_NORMAL },
	[COL_PROMPT] = { COLOR_BLACK, COLOR_YELLOW, A_NORMAL, A_REVERSE },
	[COL_HELP] = { COLOR_BLACK, COLOR_WHITE, A_NORMAL, A_REVERSE },
};

/* The mouse events asked for: button 1, and the wheel (buttons 4, 5). */
#ifdef BUTTON5_PRESSED
#define CRT_WHEEL_DOWN_MASK	BUTTON5_PRESSED
#else
#define CRT_WHEEL_DOWN_MASK	0
#endif
#define CRT_MOUSE	(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED | \
			    CRT_WHEEL_DOWN_MASK)

static SCREEN	*crt_screen;
static int	 crt_colour;
static int	 crt_registered;

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
	short		 i;

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
		for (i = 1; i < COL_MAX; i++)
			init_pair(i, crt_looks[i].fg, crt_looks[i].bg);
	}
	erase();
	return (0);
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
			if (crt_colour) {
				attr = crt_looks[c->col].attr;
				pair = c->col;
			} else {
				attr = crt_looks[c->col].mono;
				pair = 0;
			}
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
