/*
 * grid.c -- a grid of cells (a wide character and a colour name each),
 * the primitives every pane draws with (put, fill, paint, text clipped
 * at a column), and the dump of a grid as text for the golden tests.
 * Each cell may also carry a tag, what a mouse click on it means: a
 * task's id, or a key (grid_tag); putting a character clears it, so a
 * cell drawn over means nothing until tagged again.
 * As tmux keeps grid.c apart from what draws into it: no ncurses, no I/O,
 * nothing about stairs.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "grid.h"
#include "xmalloc.h"

static const struct glyphs grid_utf8 = {
	L'─', L'│', L'┌', L'┐', L'└', L'┘',
	L'▁', L'█', L'░', L'⋮', L'▶', L'»', L'×', L'│', L'▕'
};
static const struct glyphs grid_ascii = {
	L'-', L'|', L'+', L'+', L'+', L'+',
	L'_', L'#', L'.', L':', L'>', L'>', L'x', L'|', L'|'
};
/* The projector's (theme_thick): heavy borders, stairs half a cell high. */
static const struct glyphs grid_utf8_thick = {
	L'━', L'┃', L'┏', L'┓', L'┗', L'┛',
	L'▄', L'█', L'░', L'⋮', L'▶', L'»', L'×', L'┃', L'▐'
};
static const struct glyphs grid_ascii_thick = {
	L'=', L'#', L'#', L'#', L'#', L'#',
	L'=', L'#', L'.', L':', L'>', L'>', L'x', L'#', L'#'
};

/* One letter per colour, for golden dumps. */
static const char grid_letters[COL_MAX] = {
	[COL_DEFAULT] = ' ', [COL_BORDER] = 'b', [COL_TITLE] = 'T',
	[COL_RANK] = 'n', [COL_STAIR] = 's', [COL_SKIP] = ':',
	[COL_RUNNING] = 'R', [COL_GAUGE] = 'G', [COL_GAUGE_EMPTY] = 'g',
	[COL_QUEUED] = 'q', [COL_SLEEPING] = 'z', [COL_EXITED] = 'x',
	[COL_SELECTED] = 'S', [COL_MARK] = 'M', [COL_HEADER] = 'H',
	[COL_STATUS] = 'A', [COL_PAUSED] = 'P', [COL_READONLY] = 'O',
	[COL_CAPTION] = 'C', [COL_ERROR] = 'E', [COL_KEYS] = 'K',
	[COL_CELL] = 'c', [COL_PROMPT] = 'p', [COL_HELP] = 'h',
	[COL_KERN_OTHER] = 'o', [COL_KERN_DIFF] = 'D'
};

/* Make a grid of w x h blank cells. */
void
grid_init(struct grid *g, int w, int h)
{
	g->ascii = 0;
	g->w = w < 1 ? 1 : w;
	g->h = h < 1 ? 1 : h;
	g->cells = xreallocarray(NULL, (size_t)g->w * g->h, sizeof *g->cells);
	g->tags = xcalloc((size_t)g->w * g->h, sizeof *g->tags);
	grid_clear(g);
}

/* Blank every cell, untagged. */
void
grid_clear(struct grid *g)
{
	int	i;

	for (i = 0; i < g->w * g->h; i++) {
		g->cells[i].ch = L' ';
		g->cells[i].col = COL_DEFAULT;
	}
	memset(g->tags, 0, (size_t)g->w * g->h * sizeof *g->tags);
}

/* Free a grid's cells. */
void
grid_free(struct grid *g)
{
	free(g->cells);
	free(g->tags);
	g->cells = NULL;
	g->tags = NULL;
	g->w = g->h = 0;
}

/*
 * The characters to draw with: UTF-8 box drawing, or plain ASCII; thick
 * (the projector's theme) or not.
 */
const struct glyphs *
grid_glyphs(int ascii, int thick)
{
	if (thick)
		return (ascii ? &grid_ascii_thick : &grid_utf8_thick);
	return (ascii ? &grid_ascii : &grid_utf8);
}

/* The dump letter of a colour. */
char
grid_col_letter(enum col c)
{
	return (grid_letters[c]);
}

/* Put one character; outside the grid it is dropped. */
void
grid_put(struct grid *g, int x, int y, wchar_t ch, enum col col)
{
	struct cell	*c;

	if (x < 0 || y < 0 || x >= g->w || y >= g->h)
		return;
	c = &g->cells[y * g->w + x];
	c->ch = ch;
	c->col = col;
	g->tags[y * g->w + x] = 0;
}

/*
 * Tag n cells of a row with what a click there means: a task's id
 * (GRID_TASK), or a key (GRID_KEY).  Outside the grid it is dropped.
 */
void
grid_tag(struct grid *g, int x, int y, int n, int tag)
{
	for (; n > 0; n--, x++) {
		if (x >= 0 && y >= 0 && x < g->w && y < g->h)
			g->tags[y * g->w + x] = tag;
	}
}

/* The tag of a cell; 0 (nothing) outside the grid or untagged. */
int
grid_tag_at(const struct grid *g, int x, int y)
{
	if (g->tags == NULL || x < 0 || y < 0 || x >= g->w || y >= g->h)
		return (0);
	return (g->tags[y * g->w + x]);
}

/* Fill n cells of a row. */
void
grid_fill(struct grid *g, int x, int y, int n, wchar_t ch, enum col col)
{
	while (n-- > 0)
		grid_put(g, x++, y, ch, col);
}

/* Set the colour of n cells, keeping their characters. */
void
grid_paint(struct grid *g, int x, int y, int n, enum col col)
{
	for (; n > 0; n--, x++) {
		if (x >= 0 && y >= 0 && x < g->w && y < g->h)
			g->cells[y * g->w + x].col = col;
	}
}

/* Decode one UTF-8 character; bad bytes come out as '?'. */
static int
grid_utf8_next(const char *s, wchar_t *out)
{
	const unsigned char	*p = (const unsigned char *)s;
	uint32_t		 c;
	int			 n, i;

	if (p[0] < 0x80) {
		*out = p[0];
		return (1);
	}
	if ((p[0] & 0xe0) == 0xc0) {
		c = p[0] & 0x1f;
		n = 2;
	} else if ((p[0] & 0xf0) == 0xe0) {
		c = p[0] & 0x0f;
		n = 3;
	} else if ((p[0] & 0xf8) == 0xf0) {
		c = p[0] & 0x07;
		n = 4;
	} else {
		*out = L'?';
		return (1);
	}
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80) {
			*out = L'?';
			return (1);
		}
		c = (c << 6) | (p[i] & 0x3f);
	}
	*out = (wchar_t)c;
	return (n);
}

/* Decode s into out (at most max characters); returns how many. */
int
grid_decode(const char *s, wchar_t *out, int max)
{
	int	n = 0;

	while (*s != '\0' && n < max)
		s += grid_utf8_next(s, &out[n++]);
	return (n);
}

/* The ASCII stand-in for a character of ours, or '?'. */
static wchar_t
grid_ascii_of(wchar_t ch)
{
	static const wchar_t	from[] = L"─│┌┐└┘▁█░⋮▶»×…→←—━┃┏┓┗┛▄●◀┫┿┼";
	static const wchar_t	to[] = L"-|++++_#.:>>x.><-=#####=o<]++";
	size_t			i;

	for (i = 0; from[i] != L'\0'; i++) {
		if (from[i] == ch)
			return (to[i]);
	}
	return (L'?');
}

/*
 * Write UTF-8 text from x, stopping before xmax; returns the x after it.
 * Control characters become '?'; drawing in ASCII, so does anything not
 * ASCII that has no stand-in.
 */
int
grid_text(struct grid *g, int x, int y, int xmax, const char *s,
    enum col col)
{
	wchar_t	 ch;
	int	 w;

	if (xmax > g->w)
		xmax = g->w;
	while (*s != '\0' && x < xmax) {
		s += grid_utf8_next(s, &ch);
		if (ch < 32 || ch == 127)
			ch = L'?';
		else if (g->ascii && ch > 127)
			ch = grid_ascii_of(ch);
		w = ch < 128 ? 1 : wcwidth(ch);
		if (w == 0)
			continue;
		if (w < 0)
			w = 1;
		if (x + w > xmax)
			break;
		grid_put(g, x, y, ch, col);
		if (w == 2)
			grid_put(g, x + 1, y, 0, col);
		x += w;
	}
	return (x);
}

/* Write formatted text like grid_text. */
int
grid_textf(struct grid *g, int x, int y, int xmax, enum col col,
    const char *fmt, ...)
{
	va_list	 ap;
	char	 buf[512];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return (grid_text(g, x, y, xmax, buf, col));
}

/* The width text would take on screen (ASCII-only text is the norm). */
int
grid_width(const char *s)
{
	wchar_t	ch;
	int	n = 0, w;

	while (*s != '\0') {
		s += grid_utf8_next(s, &ch);
		w = ch < 128 ? 1 : wcwidth(ch);
		n += w < 0 ? 1 : w;
	}
	return (n);
}

/* The columns n takes written in decimal (n >= 0). */
int
grid_digits(int n)
{
	int	k = 1;

	while (n >= 10) {
		n /= 10;
		k++;
	}
	return (k);
}

/* Encode one character as UTF-8. */
static size_t
grid_utf8_put(char *out, wchar_t wc)
{
	uint32_t	c = (uint32_t)wc;

	if (c < 0x80) {
		out[0] = (char)c;
		return (1);
	}
	if (c < 0x800) {
		out[0] = (char)(0xc0 | (c >> 6));
		out[1] = (char)(0x80 | (c & 0x3f));
		return (2);
	}
	if (c < 0x10000) {
		out[0] = (char)(0xe0 | (c >> 12));
		out[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		out[2] = (char)(0x80 | (c & 0x3f));
		return (3);
	}
	out[0] = (char)(0xf0 | (c >> 18));
	out[1] = (char)(0x80 | ((c >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((c >> 6) & 0x3f));
	out[3] = (char)(0x80 | (c & 0x3f));
	return (4);
}

/*
 * Dump a grid as text: its rows in UTF-8, trailing blanks cut; with
 * colours, a "--" line and then one letter per cell (grid_col_letter).
 * The caller frees the result.
 */
char *
grid_dump(const struct grid *g, int with_colours)
{
	char		*buf, *p, *line;
	size_t		 size;
	int		 x, y;
	const struct cell *c;

	size = (size_t)g->w * g->h * 5 + (size_t)g->h * 2 + 8;
	buf = p = xmalloc(size);
	for (y = 0; y < g->h; y++) {
		line = p;
		for (x = 0; x < g->w; x++) {
			c = &g->cells[y * g->w + x];
			if (c->ch != 0)
				p += grid_utf8_put(p, c->ch);
		}
		while (p > line && p[-1] == ' ')
			p--;
		*p++ = '\n';
	}
	if (with_colours) {
		*p++ = '-';
		*p++ = '-';
		*p++ = '\n';
		for (y = 0; y < g->h; y++) {
			line = p;
			for (x = 0; x < g->w; x++)
				*p++ = grid_letters[g->cells[y * g->w + x].col];
			while (p > line && p[-1] == ' ')
				p--;
			*p++ = '\n';
		}
	}
	*p = '\0';
	return (buf);
}

