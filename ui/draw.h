/*
 * draw.h -- the screen laid out into a grid (draw.c), and the message
 * the caption line shows (draw_message).  Pure: the tests compare
 * grids with golden text files.
 */
#ifndef STAIRS_UI_DRAW_H
#define STAIRS_UI_DRAW_H

struct grid;
struct model;
struct view;

void		 draw_screen(struct grid *, const struct model *, struct view *,
		     const char *const *help);
void		 draw_message(struct view *, int error, const char *, ...)
		     __attribute__((format(printf, 3, 4)));

#endif
