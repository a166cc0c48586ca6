/*
 * fuzz_model.c -- libFuzzer harness for the client: the input is what a
 * daemon sends (the greeting, replies, frames), fed line by line to the
 * model (ui/model.c) as ui/stairs.c does; after each frame the screen is
 * drawn (ui/draw.c) into a cell grid, at sizes taken in turn from
 * fuzz_sizes, and dumped.
 *
 * Two kinds of line stand for the client's side instead of the daemon's:
 * "> CMD" is a command the client sent (model_sent(), so replies have
 * something to match; the PROTOCOL.md session reads this way), and
 * "! KEYS" presses each byte of KEYS (keys_handle(), with a send that
 * only records the command), so prompts, selection and the help screen
 * are drawn too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "fuzz.h"
#include "grid.h"
#include "keys.h"
#include "model.h"
#include "view.h"

#define FUZZ_DRAWS	12	/* screens drawn at most per input */

static const struct {
	int	w;
	int	h;
} fuzz_sizes[] = {
	{ 80, 24 }, { 120, 40 }, { 20, 3 }, { 200, 60 }, { 1, 1 }, { 40, 10 }
};
#define FUZZ_NSIZES	(sizeof fuzz_sizes / sizeof fuzz_sizes[0])

struct fuzz_client {
	struct model	*m;
	struct view	 v;
	int		 draws;
};

/* Draw the screen at the next size and dump it. */
static void
fuzz_draw(struct fuzz_client *c)
{
	struct grid	 g;
	char		*dump;
	size_t		 i = c->draws % FUZZ_NSIZES;

	if (c->draws++ >= FUZZ_DRAWS)
		return;
	c->v.ascii = (c->draws / FUZZ_NSIZES) % 2;
	grid_init(&g, fuzz_sizes[i].w, fuzz_sizes[i].h);
	draw_screen(&g, c->m, &c->v, keys_help());
	dump = grid_dump(&g, c->draws % 2);
	free(dump);
	grid_free(&g);
}

/* The kind of reply a command sent expects, as ui/stairs.c sends them. */
static enum model_pend
fuzz_pend(const char *cmd)
{
	if (strncmp(cmd, "status", 6) == 0)
		return (PEND_STATUS);
	if (strncmp(cmd, "subscribe", 9) == 0)
		return (PEND_SUBSCRIBE);
	if (strncmp(cmd, "table", 5) == 0)
		return (PEND_TABLE);
	if (strncmp(cmd, "shutdown", 8) == 0)
		return (PEND_SHUTDOWN);
	return (PEND_ACTION);
}

/* keys.c sends a command: the model only records it. */
static int
fuzz_send(void *arg, enum model_pend kind, const char *line)
{
	struct fuzz_client	*c = arg;

	return (model_sent(c->m, kind, line));
}

/* One line from the daemon, or a "> " command or "! " keys. */
static int
fuzz_line(void *arg, char *line, size_t len)
{
	struct fuzz_client	*c = arg;
	struct keys_env		 env;
	size_t			 i;

	if (strncmp(line, "> ", 2) == 0) {
		model_sent(c->m, fuzz_pend(line + 2), line + 2);
		return (0);
	}
	if (strncmp(line, "! ", 2) == 0) {
		env.model = c->m;
		env.view = &c->v;
		env.send = fuzz_send;
		env.arg = c;
		for (i = 2; i < len; i++) {
			if (keys_handle(&env, (unsigned char)line[i]) &
			    KEYS_REDRAW)
				fuzz_draw(c);
		}
		return (0);
	}
	/* A NUL ends the line for the client too (it feeds C strings). */
	if (model_feed(c->m, line) == MODEL_FRAME) {
		keys_frame(c->m, &c->v);
		keys_select_first(c->m, &c->v);
		fuzz_draw(c);
	}
	return (0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_client	c;

	memset(&c, 0, sizeof c);
	c.m = model_create();
	c.v.show_table = 1;
	c.v.pause_sent = -1;
	fuzz_lines(data, size, fuzz_line, &c);
	c.draws = 0;		/* and a last screen at 80x24 */
	fuzz_draw(&c);
	model_free(c.m);
	return (0);
}
