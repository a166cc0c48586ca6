/*
 * test_theme.c -- the colour themes (ui/theme.c) can be read: every
 * colour that carries text stands out from its background by WCAG's
 * contrast ratio, worked out in xterm's default palette, with the
 * terminal's own colours taken as light grey on black for the dark
 * theme and black on white for the light one: 3:1 at least there, and
 * 4.5:1, bold, with its own background, on the projector's.  Also: the
 * names, the key that cycles the themes (T) and big type (B), and that
 * a theme changes no colour name (the goldens' letters) but the
 * projector's stairs are thick.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "grid.h"
#include "keys.h"
#include "model.h"
#include "theme.h"
#include "view.h"

/* xterm's 16 colours. */
static const unsigned int palette[16] = {
	0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd,
	0x00cdcd, 0xe5e5e5, 0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00,
	0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff
};

/* One sRGB channel (0-255), linear. */
static double
channel(unsigned int c)
{
	double	v = c / 255.0;

	return (v <= 0.03928 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4));
}

/* WCAG's relative luminance of a colour 0xRRGGBB. */
static double
luminance(unsigned int rgb)
{
	return (0.2126 * channel(rgb >> 16) + 0.7152 *
	    channel((rgb >> 8) & 0xff) + 0.0722 * channel(rgb & 0xff));
}

/* WCAG's contrast ratio of two colours (1 to 21). */
static double
contrast(unsigned int a, unsigned int b)
{
	double	la = luminance(a), lb = luminance(b), t;

	if (la < lb) {
		t = la;
		la = lb;
		lb = t;
	}
	return ((la + 0.05) / (lb + 0.05));
}

/* The colours that carry text (the rest draw lines and bars). */
static int
carries_text(enum col c)
{
	return (c != COL_BORDER && c != COL_STAIR && c != COL_GAUGE &&
	    c != COL_GAUGE_EMPTY);
}

/* The ratio of colour c in theme t, the terminal being fg on bg. */
static double
ratio(enum theme t, enum col c, unsigned int deffg, unsigned int defbg)
{
	const struct look	*lk = theme_look(t, c);
	unsigned int		 fg, bg;

	fg = lk->fg < 0 ? deffg : palette[lk->fg];
	bg = lk->bg < 0 ? defbg : palette[lk->bg];
	return (contrast(fg, bg));
}

/* The check itself: yellow on white and blue on black fail it. */
static void
test_contrast_measure(void **state)
{
	assert_true(contrast(0xcdcd00, 0xffffff) < 3);
	assert_true(contrast(0x0000ee, 0x000000) < 3);
	assert_true(contrast(0x000000, 0xffffff) > 20.9);
	assert_true(contrast(0xe5e5e5, 0x000000) > 16);
}

/* Dark and light: every text colour 3:1 or better on the terminal's. */
static void
test_contrast_terminal(void **state)
{
	static const struct {
		enum theme	 t;
		unsigned int	 fg, bg;
	} cases[] = {
		{ THEME_DARK, 0xe5e5e5, 0x000000 },
		{ THEME_LIGHT, 0x000000, 0xffffff },
	};
	size_t	i;
	int	c, bad = 0;
	double	r;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		for (c = 0; c < COL_MAX; c++) {
			if (!carries_text(c))
				continue;
			r = ratio(cases[i].t, c, cases[i].fg, cases[i].bg);
			if (r < 3) {
				print_error("%s: colour %c at %.2f:1\n",
				    theme_name(cases[i].t), grid_col_letter(c),
				    r);
				bad++;
			}
		}
	}
	assert_int_equal(bad, 0);
}

/*
 * The projector: its own background on every colour (the terminal's
 * may be anything), bold everywhere text is, 4.5:1 for text and for
 * the stairs and borders too; thick stairs.
 */
static void
test_contrast_projector(void **state)
{
	const struct look	*lk;
	int			 c, bad = 0;
	double			 r;

	for (c = 0; c < COL_MAX; c++) {
		lk = theme_look(THEME_PROJECTOR, c);
		assert_true(lk->fg >= 0 && lk->bg >= 0);
		if (c == COL_GAUGE || c == COL_GAUGE_EMPTY)
			continue;
		r = ratio(THEME_PROJECTOR, c, 0, 0);
		if (r < 4.5 || !(lk->attr & LOOK_BOLD)) {
			print_error("projector: colour %c at %.2f:1%s\n",
			    grid_col_letter(c), r, lk->attr & LOOK_BOLD ?
			    "" : ", not bold");
			bad++;
		}
	}
	assert_int_equal(bad, 0);
	assert_true(theme_thick(THEME_PROJECTOR));
	assert_false(theme_thick(THEME_DARK));
	assert_false(theme_thick(THEME_LIGHT));
	assert_int_not_equal(grid_glyphs(0, 1)->stair,
	    grid_glyphs(0, 0)->stair);
	assert_int_not_equal(grid_glyphs(1, 1)->stair,
	    grid_glyphs(1, 0)->stair);
}

/* Without colours (NO_COLOR) the running task is still reversed. */
static void
test_mono(void **state)
{
	assert_true(theme_mono(COL_RUNNING)->attr & LOOK_REVERSE);
	assert_true(theme_mono(COL_SELECTED)->attr & LOOK_REVERSE);
	assert_true(theme_mono(COL_STATUS)->attr & LOOK_REVERSE);
	assert_int_equal(theme_mono(COL_DEFAULT)->attr, 0);
}

/* The names --theme takes. */
static void
test_names(void **state)
{
	int	t;

	for (t = 0; t < THEME_MAX; t++)
		assert_int_equal(theme_find(theme_name(t)), t);
	assert_int_equal(theme_find("dark"), THEME_DARK);
	assert_int_equal(theme_find("light"), THEME_LIGHT);
	assert_int_equal(theme_find("projector"), THEME_PROJECTOR);
	assert_int_equal(theme_find("beamer"), -1);
	assert_int_equal(theme_find(""), -1);
}

/* Nothing sent: the theme keys never talk to the daemon. */
static int
theme_send(void *arg, enum model_pend kind, const char *cmd)
{
	fail_msg("sent %s", cmd);
	return (-1);
}

/* T cycles dark, light, projector; B big type auto, on, off; read-only too. */
static void
test_keys(void **state)
{
	struct model	*m = model_create();
	struct view	 v;
	struct keys_env	 e;

	memset(&v, 0, sizeof v);
	v.readonly = 1;
	memset(&e, 0, sizeof e);
	e.model = m;
	e.view = &v;
	e.send = theme_send;
	assert_int_equal(v.theme, THEME_DARK);
	assert_true(keys_handle(&e, 'T') & KEYS_REDRAW);
	assert_int_equal(v.theme, THEME_LIGHT);
	assert_non_null(strstr(v.message, "theme: light"));
	keys_handle(&e, 'T');
	assert_int_equal(v.theme, THEME_PROJECTOR);
	assert_non_null(strstr(v.message, "thick stairs"));
	keys_handle(&e, 'T');
	assert_int_equal(v.theme, THEME_DARK);
	assert_int_equal(v.big, BIG_AUTO);
	keys_handle(&e, 'B');
	assert_int_equal(v.big, BIG_ON);
	keys_handle(&e, 'B');
	assert_int_equal(v.big, BIG_OFF);
	assert_non_null(strstr(v.message, "big type: off"));
	keys_handle(&e, 'B');
	assert_int_equal(v.big, BIG_AUTO);
	/* With four CPUs big type does nothing, and says so. */
	m->ncpus = 4;
	keys_handle(&e, 'B');
	assert_non_null(strstr(v.message, "but there are 4 CPUs"));
	m->ncpus = 0;
	model_free(m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_contrast_measure),
		cmocka_unit_test(test_contrast_terminal),
		cmocka_unit_test(test_contrast_projector),
		cmocka_unit_test(test_mono),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_keys),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
