/*
 * grid.h -- the grid of cells a screen is drawn into (grid.c): each cell
 * a wide character and the colour it shows (enum col, named for what it
 * shows; theme.c says how each looks, crt.c puts them on the terminal),
 * and a tag for clicks; the drawing primitives; the glyphs.
 */
#ifndef STAIRS_UI_GRID_H
#define STAIRS_UI_GRID_H

#include <stddef.h>
#include <wchar.h>

/* Colours, named for what they show.  crt.c maps them to attributes. */
enum col {
	COL_DEFAULT,
	COL_BORDER,
	COL_TITLE,		/* a CPU panel's title */
	COL_RANK,		/* rank numbers */
	COL_STAIR,
	COL_SKIP,		/* the mark for skipped ranks */
	COL_RUNNING,		/* the task on the CPU */
	COL_GAUGE,		/* the filled part of the `left` gauge */
	COL_GAUGE_EMPTY,
	COL_QUEUED,		/* runnable, waiting on its stair */
	COL_SLEEPING,
	COL_EXITED,
	COL_SELECTED,		/* the selected task's table row */
	COL_MARK,		/* the selected task on the stairs */
	COL_HEADER,		/* table headings */
	COL_STATUS,		/* the status line */
	COL_PAUSED,
	COL_READONLY,
	COL_CAPTION,
	COL_ERROR,
	COL_KEYS,		/* the key hints */
	COL_CELL,		/* article table cells */
	COL_PROMPT,
	COL_HELP,
	COL_KERN_OTHER,		/* the kernel ran another process (kern row) */
	COL_KERN_DIFF,		/* the kernel ran other than the engine */
	COL_MAX
};

/* One cell: a character (0 continues a wide one) and what it shows. */
struct cell {
	wchar_t		 ch;
	unsigned char	 col;
};

struct grid {
	int		 w;
	int		 h;
	int		 ascii;		/* text drawn in plain ASCII */
	struct cell	*cells;
	int		*tags;		/* a click on the cell: 0, task, key */
};

/* A cell's tag: a task's id (> 0), or a key (< 0, GRID_KEY(key)). */
#define GRID_TASK(id)	(id)
#define GRID_KEY(key)	(-(key))

/* The characters a screen is drawn with: UTF-8 or plain ASCII. */
struct glyphs {
	wchar_t		 h, v, tl, tr, bl, br;
	wchar_t		 stair, full, empty, skip, sel, quote, times, vbar;
	wchar_t		 riser;		/* big type: a step's rise */
};

void		 grid_init(struct grid *, int w, int h);
void		 grid_free(struct grid *);
void		 grid_clear(struct grid *);
const struct glyphs *grid_glyphs(int ascii, int thick);
char		 grid_col_letter(enum col);
void		 grid_put(struct grid *, int x, int y, wchar_t, enum col);
void		 grid_fill(struct grid *, int x, int y, int n, wchar_t,
		     enum col);
void		 grid_paint(struct grid *, int x, int y, int n, enum col);
void		 grid_tag(struct grid *, int x, int y, int n, int tag);
int		 grid_tag_at(const struct grid *, int x, int y);
int		 grid_text(struct grid *, int x, int y, int xmax, const char *,
		     enum col);
int		 grid_textf(struct grid *, int x, int y, int xmax, enum col,
		     const char *, ...) __attribute__((format(printf, 6, 7)));
int		 grid_width(const char *);
int		 grid_digits(int);
int		 grid_decode(const char *, wchar_t *, int max);
char		*grid_dump(const struct grid *, int with_colours);

#endif
