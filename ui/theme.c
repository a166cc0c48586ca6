/*
 * theme.c -- how each colour of the screen (enum col) looks in each
 * theme: for a dark terminal, for a light one, and for a projector.  A
 * look is a foreground, a background (-1: the terminal's own) and
 * attributes, in colour numbers 0-15 (8-15 the bright ones) and LOOK_*
 * flags, so this file knows no ncurses: crt.c turns a look into a colour
 * pair and A_* attributes (and bright colours into bold ones on a
 * terminal with 8 colours).  Under NO_COLOR or without colours every
 * theme is the same reverse/bold table (theme_mono).  The projector also
 * draws thick stairs and heavy borders (theme_thick, grid_glyphs).
 *
 * Why these colours: tests/test_theme.c works out the contrast of every
 * colour that carries text against its background in xterm's palette
 * (WCAG's ratio) and wants 3:1 on the dark and light themes (blue on
 * black, yellow on white read badly) and 4.5:1, all bold, on the
 * projector's, which washes colours out.
 */
#include <string.h>

#include "grid.h"
#include "theme.h"

/* The palette's names, as curses numbers them. */
#define BLACK	0
#define RED	1
#define GREEN	2
#define YELLOW	3
#define BLUE	4
#define MAGENTA	5
#define CYAN	6
#define WHITE	7
#define BRIGHT	8	/* add to one of the above */
#define DEF	(-1)	/* the terminal's default */

#define B	LOOK_BOLD
#define U	LOOK_UNDERLINE

static const struct look theme_dark[COL_MAX] = {
	[COL_DEFAULT] = { DEF, DEF, 0 },
	[COL_BORDER] = { BLUE, DEF, 0 },
	[COL_TITLE] = { CYAN, DEF, B },
	[COL_RANK] = { YELLOW, DEF, 0 },
	[COL_STAIR] = { YELLOW, DEF, B },
	[COL_SKIP] = { YELLOW, DEF, B },
	[COL_RUNNING] = { BLACK, GREEN, B },
	[COL_GAUGE] = { WHITE, GREEN, B },
	[COL_GAUGE_EMPTY] = { BLACK, GREEN, 0 },
	[COL_QUEUED] = { DEF, DEF, B },
	/* Plain blue on black is 2.2:1: the bright one is 4.4:1. */
	[COL_SLEEPING] = { BRIGHT + BLUE, DEF, B },
	[COL_EXITED] = { RED, DEF, 0 },
	[COL_SELECTED] = { BLACK, CYAN, 0 },
	[COL_MARK] = { CYAN, DEF, B | U },
	[COL_HEADER] = { DEF, DEF, B },
	[COL_STATUS] = { BLACK, WHITE, 0 },
	[COL_PAUSED] = { BLACK, YELLOW, B },
	[COL_READONLY] = { WHITE, RED, B },
	[COL_CAPTION] = { YELLOW, DEF, B },
	[COL_ERROR] = { RED, DEF, B },
	[COL_KEYS] = { CYAN, DEF, 0 },
	[COL_CELL] = { DEF, DEF, 0 },
	[COL_PROMPT] = { BLACK, YELLOW, 0 },
	[COL_HELP] = { BLACK, WHITE, 0 },
	[COL_KERN_OTHER] = { DEF, DEF, 0 },
	[COL_KERN_DIFF] = { BLACK, MAGENTA, B },
};

/* On white: no yellow, cyan or green text; blue, magenta, red, black. */
static const struct look theme_light[COL_MAX] = {
	[COL_DEFAULT] = { DEF, DEF, 0 },
	[COL_BORDER] = { BLUE, DEF, 0 },
	[COL_TITLE] = { BLUE, DEF, B },
	[COL_RANK] = { MAGENTA, DEF, 0 },
	[COL_STAIR] = { BLUE, DEF, B },
	[COL_SKIP] = { BLUE, DEF, B },
	[COL_RUNNING] = { BLACK, GREEN, B },
	[COL_GAUGE] = { WHITE, GREEN, B },
	[COL_GAUGE_EMPTY] = { BLACK, GREEN, 0 },
	[COL_QUEUED] = { DEF, DEF, B },
	[COL_SLEEPING] = { BLUE, DEF, 0 },
	[COL_EXITED] = { RED, DEF, 0 },
	[COL_SELECTED] = { BLACK, CYAN, 0 },
	[COL_MARK] = { BLUE, DEF, B | U },
	[COL_HEADER] = { DEF, DEF, B },
	[COL_STATUS] = { WHITE, BLUE, 0 },
	[COL_PAUSED] = { BLACK, YELLOW, B },
	[COL_READONLY] = { WHITE, RED, B },
	[COL_CAPTION] = { MAGENTA, DEF, B },
	[COL_ERROR] = { RED, DEF, B },
	[COL_KEYS] = { BLUE, DEF, 0 },
	[COL_CELL] = { DEF, DEF, 0 },
	[COL_PROMPT] = { BLACK, YELLOW, 0 },
	[COL_HELP] = { BLACK, CYAN, 0 },
	[COL_KERN_OTHER] = { DEF, DEF, 0 },
	[COL_KERN_DIFF] = { BLACK, MAGENTA, B },
};

/*
 * A projector: its own black background (whatever the terminal's),
 * everything bold (thicker strokes; most terminals also brighten bold
 * colours), the selected task reversed, errors and exits white on red.
 * The plain eight colours only: bright ones (90-97) are the terminal's
 * to choose, and some renderers wash them out.
 */
static const struct look theme_projector[COL_MAX] = {
	[COL_DEFAULT] = { WHITE, BLACK, B },
	[COL_BORDER] = { WHITE, BLACK, B },
	[COL_TITLE] = { WHITE, BLACK, B },
	[COL_RANK] = { WHITE, BLACK, B },
	[COL_STAIR] = { YELLOW, BLACK, B },
	[COL_SKIP] = { YELLOW, BLACK, B },
	[COL_RUNNING] = { BLACK, GREEN, B },
	[COL_GAUGE] = { BLACK, GREEN, B },
	[COL_GAUGE_EMPTY] = { BLACK, GREEN, 0 },
	[COL_QUEUED] = { WHITE, BLACK, B },
	[COL_SLEEPING] = { CYAN, BLACK, B },
	[COL_EXITED] = { WHITE, RED, B },
	[COL_SELECTED] = { BLACK, CYAN, B },
	[COL_MARK] = { BLACK, CYAN, B },
	[COL_HEADER] = { WHITE, BLACK, B | U },
	[COL_STATUS] = { BLACK, WHITE, B },
	[COL_PAUSED] = { BLACK, YELLOW, B },
	[COL_READONLY] = { WHITE, RED, B },
	[COL_CAPTION] = { YELLOW, BLACK, B },
	[COL_ERROR] = { WHITE, RED, B | U },
	[COL_KEYS] = { CYAN, BLACK, B },
	[COL_CELL] = { WHITE, BLACK, B },
	[COL_PROMPT] = { BLACK, YELLOW, B },
	[COL_HELP] = { BLACK, WHITE, B },
	[COL_KERN_OTHER] = { WHITE, BLACK, B },
	[COL_KERN_DIFF] = { BLACK, YELLOW, B | U },
};

#define R	LOOK_REVERSE
#define D	LOOK_DIM

/* No colours (NO_COLOR, or a terminal without): the same in every theme. */
static const struct look theme_mono_[COL_MAX] = {
	[COL_SKIP] = { DEF, DEF, B },
	[COL_RUNNING] = { DEF, DEF, R | B },
	[COL_GAUGE] = { DEF, DEF, R | B },
	[COL_GAUGE_EMPTY] = { DEF, DEF, R },
	[COL_QUEUED] = { DEF, DEF, B },
	[COL_SLEEPING] = { DEF, DEF, D },
	[COL_EXITED] = { DEF, DEF, D },
	[COL_SELECTED] = { DEF, DEF, R },
	[COL_MARK] = { DEF, DEF, B | U },
	[COL_HEADER] = { DEF, DEF, B },
	[COL_STATUS] = { DEF, DEF, R },
	[COL_PAUSED] = { DEF, DEF, R | B },
	[COL_READONLY] = { DEF, DEF, R | B },
	[COL_CAPTION] = { DEF, DEF, B },
	[COL_ERROR] = { DEF, DEF, B | U },
	[COL_TITLE] = { DEF, DEF, B },
	[COL_PROMPT] = { DEF, DEF, R },
	[COL_HELP] = { DEF, DEF, R },
	[COL_KERN_DIFF] = { DEF, DEF, R | U },
};

static const struct {
	const char		*name;
	const char		*what;
	const struct look	*looks;
	int			 thick;
} theme_table[THEME_MAX] = {
	[THEME_DARK] = { "dark", "for a dark terminal", theme_dark, 0 },
	[THEME_LIGHT] = { "light", "for a light terminal", theme_light, 0 },
	[THEME_PROJECTOR] = { "projector",
	    "high contrast, thick stairs", theme_projector, 1 },
};

/* A theme's name (dark, light, projector). */
const char *
theme_name(enum theme t)
{
	return (theme_table[t].name);
}

/* What a theme is for, said when it is chosen. */
const char *
theme_what(enum theme t)
{
	return (theme_table[t].what);
}

/* The theme of a name; -1 if there is none. */
int
theme_find(const char *name)
{
	int	t;

	for (t = 0; t < THEME_MAX; t++) {
		if (strcmp(name, theme_table[t].name) == 0)
			return (t);
	}
	return (-1);
}

/* How colour c looks in theme t, with colours. */
const struct look *
theme_look(enum theme t, enum col c)
{
	return (&theme_table[t].looks[c]);
}

/* How colour c looks without colours (any theme). */
const struct look *
theme_mono(enum col c)
{
	return (&theme_mono_[c]);
}

/* Whether theme t draws thick stairs and heavy borders. */
int
theme_thick(enum theme t)
{
	return (theme_table[t].thick);
}
