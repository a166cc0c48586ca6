/*
 * panel-int.h -- the CPUs' insides, shared by their files alone, each
 * calling only those before it: panel-ranks.c (the rank rows),
 * panel-line.c (the tasks on a stair), picture-base.c (what a policy's
 * picture is drawn with; the why under a CPU), panel-big.c (big type),
 * panel.c (the index, a panel, a layout), cpulist.c (the list),
 * picture-draw.c and picture.c (each policy's picture and their
 * layout) and panel-choose.c (the layout chosen, and panel_draw).
 */
#ifndef STAIRS_UI_PANEL_INT_H
#define STAIRS_UI_PANEL_INT_H

#include "pane.h"

/* panel.c */
#define PANEL_TINY	14	/* the narrowest panel */
void		 panel_index(struct draw *);
void		 panel_index_cpu(struct draw *, int cpu);
void		 panel_scroll(struct view *, int rows, int shown);
int		 panel_cols_default(const struct draw *, int avail);
int		 panel_layout(struct draw *, int y, int avail, int cols);

/* panel-ranks.c */
/* A rank row a panel shows, and what is on it. */
struct prow {
	int		 rank;
	int		 gap;		/* a skip mark line, not a rank */
	int		 skipped_after;	/* ranks skipped below this one */
};
int		 panel_ranks(struct draw *, int c0, int c1, int lines,
		     struct prow *, int *firstp);

/* panel-line.c */
void		 panel_line(struct draw *, const struct mtask *const *, int n,
		     int more, int x, int y, int xmax, int tagrank);
int		 panel_line_label(const struct draw *, const struct mtask *,
		     int budget, char *, size_t, int *cut);

/* panel-big.c */
#define PANEL_BIG_TALL	3	/* big type: rows a rank at most */
void		 panel_big_banner(struct draw *, int cpu, int x0, int y0,
		     int x1, int y1);

/* panel-choose.c */
int		 panel_choose(struct draw *, int y, int avail);
int		 panel_choose_keep(struct draw *, int y, int avail, int *lines);

/* picture-base.c, picture.c: the pictures (their insides: picture-int.h) */
int		 picture_stairs(const struct model *);
void		 picture_why_border(struct draw *, int cpu, int x, int y,
		     int xmax);
void		 picture_why_after(struct draw *, int cpu, int y, int x0,
		     int xmax);
int		 picture_layout(struct draw *, int y, int avail);

/* cpulist.c */
int		 cpulist_draw(struct draw *, int y, int avail);

#endif
