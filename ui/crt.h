/*
 * crt.h -- the terminal (crt.c, the one file that calls ncurses): keys
 * and the mouse in, a grid out in a theme's colours.
 */
#ifndef STAIRS_UI_CRT_H
#define STAIRS_UI_CRT_H

#include "theme.h"

struct grid;
struct view;

#define CRT_NONE	(-1)	/* no key waiting */
#define CRT_CLICK	(-2)	/* a mouse click: see x, y */
#define CRT_WHEEL_UP	(-3)	/* the wheel turned, over x, y */
#define CRT_WHEEL_DOWN	(-4)
int		 crt_init(struct view *, char **cause);
void		 crt_fini(void);
int		 crt_active(void);
void		 crt_size(int *w, int *h);
void		 crt_resize(void);
int		 crt_getkey(int *x, int *y);
void		 crt_render(const struct grid *);
void		 crt_theme(enum theme);

#endif
