/*
 * pane.h -- the panes of the screen (draw.c lays them out): what one
 * draw gives each pane (struct draw), and what each pane offers: the
 * status, caption and key lines (bar.c), the CPUs (panel*.c, cpulist.c,
 * compare.c), the task table (tasktab.c), the article's table
 * (article.c), the history panes (history.c), the picker (picker.c)
 * and the help (help.c).  Pure: into a grid.
 */
#ifndef STAIRS_UI_PANE_H
#define STAIRS_UI_PANE_H

#include <stddef.h>

#include "grid.h"
#include "model.h"
#include "view.h"

/* Everything one draw of the screen needs; what the panes are given. */
struct draw {
	struct grid		*g;
	const struct model	*m;
	struct view		*v;
	const struct glyphs	*gl;
	char			 caption_buf[MODEL_TEXT_MAX + 64];
	int			 top_static;	/* best rank a live task may take */
	int			 bottom;	/* the worst (panel_ranks_span) */

	/*
	 * panel.c's index, made and freed by panel_draw.
	 * The tasks on the stairs by CPU: bycpu[cstart[c] .. cstart[c+1]).
	 */
	const struct mtask	**bycpu;
	int			 *cstart;
	/*
	 * One panel's tasks by rank: pl[rstart[r] .. rstart[r + 1]), the
	 * running one first, then the runnable, then the sleeping ones.
	 */
	const struct mtask	**pl;
	int			  rstart[MODEL_BOTTOM + 2];
	/* The live tasks' names, sorted: a shortened name must be unique. */
	const char		**names;
	size_t			  nnames;

	/* What a layout hid or cut, to choose the best (panel.c). */
	int			  st_hidden;	/* runnable tasks not written */
	int			  st_cut;	/* tasks not by their whole name */
	int			  st_skipped;	/* ranks not drawn */
	int			  st_ranks;	/* ranks to draw, drawn or not */
	int			  st_step;	/* columns a stair steps, x100 */

	/* Big type (panel_big): rows a rank; 0 when off. */
	int			  tall;
};

/* bar.c */
size_t		 bar_wrap(const char *, int width);
const char	*bar_cut(const char *, int width, char *, size_t);
void		 bar_status(struct draw *);
int		 bar_caption_lines(struct draw *);
int		 bar_room_shown(struct draw *);
void		 bar_caption(struct draw *, int y, int lines);
void		 bar_keys(struct draw *, int y);

/* panel*.c, cpulist.c: the CPUs (their insides: panel-int.h) */
#define PANEL_MAX_CPUS	8	/* beyond, the CPUs are a list unless asked */
int		 panel_draw(struct draw *, int y, int avail);
int		 panel_big(const struct draw *, int avail);
void		 panel_ranks_span(struct draw *);

/* compare.c */
int		 compare_min_lines(const struct draw *);
int		 compare_draw(struct draw *, int y, int avail);

/* tasktab.c */
void		 tasktab_draw(struct draw *, int y, int h);
int		 tasktab_keep(const struct model *, struct view *, int rows);
void		 tasktab_num(char *, size_t, long);

/* tallytab.c */
void		 tallytab_draw(struct draw *, int y, int h);

/* article.c */
int		 article_lines(struct draw *, int most);
int		 article_rows(const struct draw *);
void		 article_draw(struct draw *, int y, int h);

/* help.c */
void		 help_draw(struct draw *, const char *const *help);
#define HELP_LINES	160	/* lines the help can have */

/* history.c */
#define HISTORY_ZOOM	5	/* ticks a timeline cell by default */
void		 history_sample(const struct model *, struct view *);
int		 history_lines(struct draw *, int avail);
int		 history_draw(struct draw *, int y, int avail);

/* picker.c */
void		 picker_draw(struct draw *);

#endif
