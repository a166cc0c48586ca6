/*
 * theme.h -- the colour themes (theme.c): how each colour of the grid
 * looks in each, chosen by --theme and the T key.
 */
#ifndef STAIRS_UI_THEME_H
#define STAIRS_UI_THEME_H

#include "grid.h"

/* The colour themes (theme.c): chosen by --theme and the T key. */
enum theme {
	THEME_DARK,		/* for a dark terminal: the default */
	THEME_LIGHT,		/* for a light terminal */
	THEME_PROJECTOR,	/* high contrast, thick stairs */
	THEME_MAX
};

#define LOOK_BOLD	0x1
#define LOOK_REVERSE	0x2
#define LOOK_UNDERLINE	0x4
#define LOOK_DIM	0x8

/* How a colour looks: colours 0-15 (-1 the terminal's), LOOK_* flags. */
struct look {
	short		 fg;
	short		 bg;
	int		 attr;
};

const char	*theme_name(enum theme);
const char	*theme_what(enum theme);
int		 theme_find(const char *);
const struct look *theme_look(enum theme, enum col);
const struct look *theme_mono(enum col);
int		 theme_thick(enum theme);

#endif
