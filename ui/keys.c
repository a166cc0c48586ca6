/*
 * keys.c -- the one key table.  Each row binds keys to an action (what
 * the action is: keys_handle in keys-handle.c runs it, and the actions
 * are keys-*.c's), says whether it changes the daemon (a read-only
 * client refuses those, in keys_handle alone), and says how the keys
 * are told: on the bottom line (bar.c picks among a row's words with
 * keys_bar), on the help screen (keys_help lays the rows out in two
 * columns) and in stairs(1) (keys_man writes its KEYS list, and
 * test_man_keys keeps the page's list the one made here).  So a key is
 * added, or its words changed, in this table alone; a new action is
 * also named in enum keys_action and keys-handle.c.  The table is data
 * and words only, so the panes that tell the keys read it without
 * reaching the actions.  No ncurses calls: only its key codes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "grid.h"
#include "keys.h"

#define nitems(a)	(sizeof (a) / sizeof (a)[0])

#define KEYS_HELP_LINES	48	/* lines of keys the help has at most */
#define KEYS_HELP_WIDTH	72	/* the help's width */
#define KEYS_HELP_KEYS	12	/* its columns: a row's keys, */
#define KEYS_HELP_WHAT	24	/* what they do, */
#define KEYS_HELP_KEYS2	11	/* then a second row's keys, what they do */

/*
 * The rows in the help's order (and stairs(1)'s).  A row without
 * help_keys is told on the help line of the row above it.
 */
static const struct keys_entry keys_table[] = {
	{ .keys = { KEY_UP, 'k' },
	  .action = KEYS_DO_SELECT_KEY,
	  .help_keys = "Up/Down j/k", .help = "select a task (or click)",
	  .bar[KEYS_BAR] = "arrows/j/k select",
	  .bar[KEYS_BRIEF] = "j/k select",
	  .man =
	    "Select the task above (a mouse click on a row selects it too)." },
	{ .keys = { KEY_DOWN, 'j' },
	  .action = KEYS_DO_SELECT_KEY,
	  .man =
	    "Select the task below." },
	{ .keys = { KEY_PPAGE, KEY_NPAGE },
	  .action = KEYS_DO_SELECT_KEY,
	  .help_keys = "PgUp/PgDn", .help = "page the tasks",
	  .man =
	    "Page through the tasks." },
	{ .keys = { KEY_HOME, 'g' },
	  .action = KEYS_DO_SELECT_KEY,
	  .help_keys = "g/G Home/End", .help = "the first / last task",
	  .man =
	    "The first task." },
	{ .keys = { KEY_END, 'G' },
	  .action = KEYS_DO_SELECT_KEY,
	  .man =
	    "The last task." },
	{ .keys = { '/' },
	  .action = KEYS_DO_SELECT_FIND,
	  .help_keys = "/", .help = "find a task",
	  .bar[KEYS_BAR] = "/ find",
	  .man =
	    "Prompt for a task: a number is an id, else the next task whose\n"
	    "name contains the text." },
	{ .keys = { '[', ']' },
	  .action = KEYS_DO_VIEW_SCROLL,
	  .help_keys = "[ ]", .help = "scroll the CPUs",
	  .bar[KEYS_BAR] = "[ ] CPUs",
	  .man =
	    "Scroll the CPU panels by a row (the list by a line)." },
	{ .keys = { 'v' },
	  .action = KEYS_DO_VIEW_CPUS,
	  .help_keys = "v", .help = "CPUs: panels/list/fit",
	  .man =
	    "Show the CPUs as fits the screen, as panels, or as a list, in\n"
	    "turn." },
	{ .keys = { 's' },
	  .action = KEYS_DO_TASK_SLEEP,
	  .flags = KEYS_CHANGES | KEYS_TASK,
	  .help_keys = "s", .help = "sleep (default ms)",
	  .bar[KEYS_BAR] = "s sleep",
	  .bar[KEYS_BRIEF] = "s/S sleep",
	  .man =
	    "The selected task sleeps for the daemon's default time (1000\n"
	    "ms unless configured)." },
	{ .keys = { 'S' },
	  .action = KEYS_DO_TASK_SLEEP_ASK,
	  .flags = KEYS_CHANGES | KEYS_TASK,
	  .help_keys = "S", .help = "sleep: how long?",
	  .bar[KEYS_BAR] = "S sleep..",
	  .man =
	    "Prompt for how long the selected task sleeps, in ms." },
	{ .keys = { '+', '=', KEY_F(8) },
	  .action = KEYS_DO_TASK_NICE,
	  .flags = KEYS_CHANGES | KEYS_TASK,
	  .help_keys = "+ - F8 F7", .help = "nice up / down",
	  .bar[KEYS_BAR] = "+/- nice",
	  .man =
	    "Nice the selected task one up." },
	{ .keys = { '-', KEY_F(7) },
	  .action = KEYS_DO_TASK_NICE,
	  .flags = KEYS_CHANGES | KEYS_TASK,
	  .man =
	    "Nice the selected task one down." },
	{ .keys = { 'a' },
	  .action = KEYS_DO_TASK_AFFINITY,
	  .flags = KEYS_CHANGES | KEYS_TASK,
	  .help_keys = "a", .help = "CPUs the task may use",
	  .bar[KEYS_BAR] = "a affinity",
	  .bar[KEYS_BRIEF] = "a cpus",
	  .man =
	    "Prompt for the CPUs the selected task may use, e.g.\\&\n"
	    ".Li 0-2,5 ." },
	{ .keys = { 'x', KEY_F(9) },
	  .action = KEYS_DO_TASK_KILL,
	  .flags = KEYS_CHANGES | KEYS_TASK,
	  .help_keys = "x F9", .help = "kill the task (asks)",
	  .bar[KEYS_BAR] = "x kill",
	  .man =
	    "Kill the selected task, after asking." },
	{ .keys = { 'n' },
	  .action = KEYS_DO_TASK_NEW, .flags = KEYS_CHANGES,
	  .help_keys = "n", .help = "new task NAME [R,S,..]",
	  .bar[KEYS_BAR] = "n new",
	  .man =
	    "Prompt for a new scripted task:\n"
	    ".Ar NAME\n"
	    ".Op Ar RUN,SLEEP,...\n"
	    ".Op Li nice= Ns Ar N\n"
	    ".Op Li cpus= Ns Ar LIST ." },
	{ .keys = { ' ' },
	  .action = KEYS_DO_CLOCK_PAUSE, .flags = KEYS_CHANGES,
	  .help_keys = "space", .help = "pause / resume",
	  .bar[KEYS_BAR] = "space pause",
	  .bar[KEYS_BRIEF] = "spc pause",
	  .bar[KEYS_PAST] = "space resumes here",
	  .bar[KEYS_PAST_REAL] = "space: back to the present",
	  .man =
	    "Pause or resume the clock." },
	{ .keys = { 't' },
	  .action = KEYS_DO_VIEW_ARTICLE,
	  .help_keys = "t", .help = "the article's table",
	  .bar[KEYS_BAR] = "t table",
	  .man =
	    "Show or hide the article's table." },
	{ .keys = { '.' },
	  .action = KEYS_DO_CLOCK_STEP, .flags = KEYS_CHANGES,
	  .help_keys = ". i E",
	  .help = "step: a tick, an rr interval, to the next event or caption",
	  .bar[KEYS_BAR] = ". step",
	  .man =
	    "Run one tick (the clock stays paused)." },
	{ .keys = { 'i' },
	  .action = KEYS_DO_CLOCK_STEP, .flags = KEYS_CHANGES,
	  .bar[KEYS_BAR] = "i rr",
	  .man =
	    "Run one round-robin interval\n"
	    ".Pq Ic step Ar rr ;\n"
	    "the clock stays paused." },
	{ .keys = { 'E' },
	  .action = KEYS_DO_CLOCK_STEP, .flags = KEYS_CHANGES,
	  .bar[KEYS_BAR] = "E event",
	  .man =
	    "Run to the next event or caption: the daemon stops after the\n"
	    "tick that brought it (the protocol's\n"
	    ".Ic step event ) ,\n"
	    "at most a minute of ticks, and the caption line shows the\n"
	    "event." },
	{ .keys = { '<', '>' },
	  .action = KEYS_DO_CLOCK_SPEED, .flags = KEYS_CHANGES,
	  .help_keys = "< > *",
	  .help = "speed: halve / double / type it (0.01x .. 100x)",
	  .bar[KEYS_BAR] = "</> speed",
	  .bar[KEYS_BRIEF] = "<> speed",
	  .man =
	    "Halve or double the speed, stopping at the daemon's limits\n"
	    "(0.01 and 100) with a message instead of an error." },
	{ .keys = { '*' },
	  .action = KEYS_DO_CLOCK_SPEED_ASK, .flags = KEYS_CHANGES,
	  .bar[KEYS_BAR] = "* speed..",
	  .man =
	    "Prompt for the speed, e.g.\\&\n"
	    ".Li 0.5\n"
	    "or\n"
	    ".Li 10x ;\n"
	    "one outside the limits is the nearest limit." },
	{ .keys = { 'l' },
	  .action = KEYS_DO_SESSION_PICKER, .flags = KEYS_CHANGES,
	  .help_keys = "l", .help = "load a scenario (list)",
	  .bar[KEYS_BAR] = "l load",
	  .man =
	    "Open the scenario picker: every scenario the daemon offers,\n"
	    "with its description; Up and Down (or\n"
	    ".Ic j\n"
	    "and\n"
	    ".Ic k )\n"
	    "move, Enter loads the chosen one (at tick 0, paused: space\n"
	    "starts it), Escape closes;\n"
	    ".Ic o\n"
	    "asks for a scenario file's path instead (typing\n"
	    ".Ic / , .\n"
	    "or\n"
	    ".Ic ~\n"
	    "begins one), relative to the client's directory.\n"
	    "Not for a read-only client." },
	{ .keys = { 'R' },
	  .action = KEYS_DO_SESSION_RESET, .flags = KEYS_CHANGES,
	  .help_keys = "R", .help = "reset to tick 0 (asks)",
	  .bar[KEYS_BAR] = "R reset",
	  .man =
	    "Reset: open the current scenario again at tick 0, paused, for\n"
	    "every client, after asking (the session and all history go)." },
	{ .keys = { '1', '2', '3', '4', '5', '6', '7', '8', '9' },
	  .action = KEYS_DO_ROOM_ANSWER,
	  .help_keys = "1-9", .help = "answer the question",
	  .man =
	    "While the lesson asks a question with choices, 1 to 9 answer\n"
	    "it, from any client, read-only ones too; the presenter's\n"
	    "screen counts the votes, and the reveal shows them beside the\n"
	    "answer." },
	{ .keys = { 'P' },
	  .action = KEYS_DO_SESSION_PART,
	  .help_keys = "P", .help = "a recording's part",
	  .man =
	    "Playing a recording\n"
	    ".Pq Fl -replay :\n"
	    "prompt for the part to open, at tick 0, paused." },
	{ .keys = { '?', KEY_F(1) },
	  .action = KEYS_DO_VIEW_HELP,
	  .help_keys = "? F1", .help = "this help",
	  .bar[KEYS_BAR] = "? help",
	  .man =
	    "Help: the scenario running (its name and description), the\n"
	    "keys, and what the screen shows (rank, stairs, LEFT, k,\n"
	    "descents, rr, nr, why %CPU is engine time).\n"
	    "Up, Down, PgUp, PgDn, Space, Home and End scroll it when it is\n"
	    "taller than the screen; any other key closes it." },
	{ .keys = { 'q', KEY_F(10) },
	  .action = KEYS_DO_SESSION_QUIT,
	  .help_keys = "q F10", .help = "detach (daemon stays)",
	  .bar[KEYS_BAR] = "q detach",
	  .bar[KEYS_BRIEF] = "q/Q",
	  .man =
	    "Detach; the daemon keeps running." },
	{ .keys = { 'Q' },
	  .action = KEYS_DO_SESSION_SHUTDOWN, .flags = KEYS_CHANGES,
	  .help_keys = "Q", .help = "stop the daemon (asks)",
	  .bar[KEYS_BAR] = "Q quit",
	  .man =
	    "Stop the daemon for every client, after asking." },
	{ .keys = { 'c' },
	  .action = KEYS_DO_VIEW_COMPARE,
	  .help_keys = "c C", .help = "policies compared",
	  .man =
	    "With a comparison running\n"
	    ".Pq the protocol's Ic compare ,\n"
	    "show every policy compared side by side (two by two on a wide\n"
	    "screen, stacked on a narrow one), each in its own picture, and\n"
	    "each task's share, runs and wake-up latency under each, or the\n"
	    "enforced one alone with the task table.\n"
	    "With none, prompt for the policies as\n"
	    ".Ic C\n"
	    "does." },
	{ .keys = { 'C' },
	  .action = KEYS_DO_VIEW_COMPARE, .flags = KEYS_CHANGES,
	  .bar[KEYS_BAR] = "C compare..",
	  .man =
	    "Prompt for up to three policies to compare with the enforced\n"
	    "one, e.g.\\&\n"
	    ".Li o1,cfs,eevdf\n"
	    "(spaces do as commas; the shadows now, else the first three\n"
	    "not enforced, by default), or\n"
	    ".Li off ,\n"
	    "and start them for every client\n"
	    ".Pq the protocol's Ic compare ." },
	{ .keys = { 'w' },
	  .action = KEYS_DO_VIEW_HISTORY,
	  .help_keys = "w r e", .help = "timeline/rank line/log",
	  .man =
	    "Show or hide the timeline: who ran when, a strip per CPU over\n"
	    "the last second or so, a letter per task (the legend below says\n"
	    "which), the selected task highlighted.\n"
	    "With real tasks, when the daemon reads the kernel's scheduler\n"
	    "events, each CPU's strip has a\n"
	    ".Li kern\n"
	    "strip under it: what the kernel actually ran there (dots where\n"
	    "the CPU idled,\n"
	    ".Ql #\n"
	    "where it ran another process), marked where it is not what the\n"
	    "engine ran." },
	{ .keys = { 'r' },
	  .action = KEYS_DO_VIEW_HISTORY,
	  .man =
	    "Show or hide the selected task's rank line over the same\n"
	    "ticks: where it ran, waited and slept, and its jumps." },
	{ .keys = { 'e' },
	  .action = KEYS_DO_VIEW_HISTORY,
	  .man =
	    "Show or hide the event log: the last events with their ticks,\n"
	    "the daemon's narration of fall-offs, climbs and migrations\n"
	    "among them." },
	{ .keys = { 'z', 'Z' },
	  .action = KEYS_DO_VIEW_ZOOM,
	  .help_keys = "z Z u d", .help = "zoom; log older/newer",
	  .man =
	    "The timeline's cells cover fewer or more ticks (1, 2, 5, 10,\n"
	    "20, 50, 100, 200; 5 at first).\n"
	    "A cell shows the task that ran most of it, but a turn shorter\n"
	    "than two cells shows in the cell it mostly ran in, so an\n"
	    "editor's 2 ms among hogs is seen." },
	{ .keys = { 'u', 'd' },
	  .action = KEYS_DO_VIEW_EVENTS,
	  .man =
	    "Scroll the event log five events back (older) or on (newer);\n"
	    "opens it." },
	{ .keys = { 'T' },
	  .action = KEYS_DO_VIEW_THEME,
	  .help_keys = "T", .help = "theme: dark/light/proj.",
	  .man =
	    "The next colour theme: dark, light, projector (as\n"
	    ".Fl -theme ) ." },
	{ .keys = { 'B' },
	  .action = KEYS_DO_VIEW_BIG,
	  .help_keys = "B", .help = "big type: auto/on/off",
	  .man =
	    "Big type: as fits the screen, always (one or two CPUs), never,\n"
	    "in turn." },
	/* Rewind: the help lists these apart. */
	{ .keys = { KEY_LEFT, KEY_RIGHT },
	  .action = KEYS_DO_CLOCK_SEEK, .flags = KEYS_CHANGES | KEYS_REWIND,
	  .help_keys = "Left Right", .help = "a tick back / forward",
	  .bar[KEYS_BAR] = "←/→ rewind",
	  .bar[KEYS_PAST] = "←/→ a tick",
	  .bar[KEYS_PAST_BRIEF] = "←/→ tick",
	  .man =
	    "Rewind: show the tick before or after the one shown (the clock\n"
	    "pauses); frames then show the past, and the status line says\n"
	    ".Dq tick T of NOW ." },
	{ .keys = { '{', '}', KEY_SLEFT, KEY_SRIGHT },
	  .action = KEYS_DO_CLOCK_SEEK, .flags = KEYS_CHANGES | KEYS_REWIND,
	  .help_keys = "{ } S-Lt/Rt", .help = "an rr interval",
	  .bar[KEYS_PAST] = "{ } rr",
	  .bar[KEYS_PAST_BRIEF] = "{} rr",
	  .man =
	    "Back or forward by one round-robin interval (Shift-Left and\n"
	    "Shift-Right too)." },
	{ .keys = { 'b', 'f' },
	  .action = KEYS_DO_CLOCK_SEEK, .flags = KEYS_CHANGES | KEYS_REWIND,
	  .help_keys = "b f", .help = "a second (1000 ticks)",
	  .bar[KEYS_PAST] = "b/f a second",
	  .bar[KEYS_PAST_BRIEF] = "b/f 1s",
	  .man =
	    "Back or forward by one second (1000 ticks)." },
	{ .keys = { '(', ')' },
	  .action = KEYS_DO_CLOCK_MARK, .flags = KEYS_CHANGES | KEYS_REWIND,
	  .help_keys = "( )", .help = "previous / next mark",
	  .bar[KEYS_PAST] = "( ) mark",
	  .bar[KEYS_PAST_BRIEF] = "() mark",
	  .man =
	    "Jump to the previous or next chapter\n"
	    ".Pq a Cm mark No event of the scenario .\n"
	    "Space in the past resumes from there when every task is\n"
	    "scripted, after asking (what came after is dropped), or goes\n"
	    "back to the present when real processes run." },
	{ .keys = { ':' },
	  .action = KEYS_DO_CLOCK_GOTO, .flags = KEYS_CHANGES | KEYS_REWIND,
	  .help_keys = ":", .help = "go to a tick or a mark",
	  .bar[KEYS_PAST] = ": go to",
	  .man =
	    "Prompt for a tick or a mark's words, and show that tick;\n"
	    "playing a recording\n"
	    ".Pq Fl -replay ,\n"
	    "a tick ahead of the present is run to." },
	{ .keys = { 'F' },
	  .action = KEYS_DO_CLOCK_PRESENT, .flags = KEYS_CHANGES | KEYS_REWIND,
	  .help_keys = "F", .help = "back to the present",
	  .bar[KEYS_PAST] = "F present",
	  .bar[KEYS_PAST_BRIEF] = "F now",
	  .man =
	    "Back to the present, the clock as it was paused there; nothing\n"
	    "is dropped." },
};

/* What the help says around the rewind keys. */
static const char keys_help_rewind[] =
    "Rewind (a seek pauses there, never past the present):";
static const char *const keys_help_past[] = {
	"In the past (tick T of NOW) space resumes from T after asking",
	"(what came after is dropped); with real tasks: the present."
};

/*
 * The form a row without words of a form uses: the narrowest line's
 * and the past's are the bottom line's, the past's brief and real the
 * past's.
 */
static const enum keys_form keys_fallback[KEYS_FORMS] = {
	[KEYS_BAR] = KEYS_BAR,
	[KEYS_BRIEF] = KEYS_BAR,
	[KEYS_PAST] = KEYS_BAR,
	[KEYS_PAST_BRIEF] = KEYS_PAST,
	[KEYS_PAST_REAL] = KEYS_PAST
};

/* The row that binds key, or NULL. */
const struct keys_entry *
keys_find(int key)
{
	size_t	i, k;

	for (i = 0; i < nitems(keys_table); i++) {
		for (k = 0; k < KEYS_ALIASES && keys_table[i].keys[k] != 0;
		    k++) {
			if (keys_table[i].keys[k] == key)
				return (&keys_table[i]);
		}
	}
	return (NULL);
}

/*
 * How the bottom line tells the row that binds key, in a form: "s
 * sleep"; a form a row has no words for falls back (keys_fallback).
 * NULL when no row binds key, or it has no words there.
 */
const char *
keys_bar(int key, enum keys_form form)
{
	const struct keys_entry	*k;

	if ((k = keys_find(key)) == NULL)
		return (NULL);
	while (k->bar[form] == NULL && form != KEYS_BAR)
		form = keys_fallback[form];
	return (k->bar[form]);
}

/* The next row from i on that the help tells (nitems: none). */
static size_t
keys_help_next(size_t i)
{
	while (i < nitems(keys_table) && keys_table[i].help_keys == NULL)
		i++;
	return (i);
}

/*
 * The help's lines about the keys, made from the table once: a row's
 * keys, then what they do; two rows a line where both fit their
 * columns, else one; the rewind keys under their heading.
 */
const char *const *
keys_help(void)
{
	static char		 buf[KEYS_HELP_LINES][KEYS_HELP_WIDTH + 1];
	static const char	*lines[KEYS_HELP_LINES + 1];
	const struct keys_entry	*a, *b;
	size_t			 i, j, k;
	int			 n = 0, rewind = 0;

	if (lines[0] != NULL)
		return (lines);
	for (i = keys_help_next(0); i < nitems(keys_table); i = j) {
		a = &keys_table[i];
		j = keys_help_next(i + 1);
		if ((a->flags & KEYS_REWIND) && !rewind) {
			lines[n++] = "";
			lines[n++] = keys_help_rewind;
			rewind = 1;
		}
		b = j < nitems(keys_table) ? &keys_table[j] : NULL;
		if (b != NULL && (b->flags & KEYS_REWIND) == (a->flags &
		    KEYS_REWIND) && strlen(a->help_keys) <= KEYS_HELP_KEYS &&
		    grid_width(a->help) <= KEYS_HELP_WHAT &&
		    strlen(b->help_keys) <= KEYS_HELP_KEYS2 &&
		    grid_width(b->help) <= KEYS_HELP_WIDTH - KEYS_HELP_KEYS -
		    KEYS_HELP_WHAT - KEYS_HELP_KEYS2 - 3) {
			snprintf(buf[n], sizeof buf[n], "%-*s %-*s %-*s %s",
			    KEYS_HELP_KEYS, a->help_keys, KEYS_HELP_WHAT,
			    a->help, KEYS_HELP_KEYS2, b->help_keys, b->help);
			j = keys_help_next(j + 1);
		} else
			snprintf(buf[n], sizeof buf[n], "%-*s %s",
			    KEYS_HELP_KEYS, a->help_keys, a->help);
		lines[n] = buf[n];
		n++;
		if (n + 4 >= KEYS_HELP_LINES)
			break;
	}
	for (k = 0; k < nitems(keys_help_past); k++)
		lines[n++] = keys_help_past[k];
	lines[n] = NULL;
	return (lines);
}

/*
 * A key as stairs(1) names it, after "Ic ": a character (\& before
 * those mdoc would read as punctuation), Space, Up, F9; NULL for a key
 * the page does not name (Shift-Left: said in the text).
 */
static const char *
keys_man_name(int key, char *buf, size_t len)
{
	static const struct {
		int		 key;
		const char	*name;
	} names[] = {
		{ KEY_UP, "Up" }, { KEY_DOWN, "Down" }, { KEY_LEFT, "Left" },
		{ KEY_RIGHT, "Right" }, { KEY_PPAGE, "PgUp" },
		{ KEY_NPAGE, "PgDn" }, { KEY_HOME, "Home" }, { KEY_END, "End" },
		{ ' ', "Space" }
	};
	size_t	i;

	for (i = 0; i < nitems(names); i++) {
		if (key == names[i].key) {
			snprintf(buf, len, "%s", names[i].name);
			return (buf);
		}
	}
	if (key >= KEY_F(1) && key <= KEY_F(12))
		snprintf(buf, len, "F%d", key - KEY_F0);
	else if (key > 32 && key < 127)
		snprintf(buf, len, "%s%c", strchr(".?[](){}:;,!|", key) != NULL ?
		    "\\&" : "", key);
	else
		return (NULL);
	return (buf);
}

/*
 * stairs(1)'s list of the keys, in mdoc: a tagged list, a row an item,
 * then the keys a read-only client refuses.  The caller frees it.
 */
char *
keys_man(void)
{
	const struct keys_entry	*k;
	FILE			*f;
	char			*s = NULL, name[16], last[16] = "";
	const char		*sep;
	size_t			 len, i, j;
	int			 col = 0;

	if ((f = open_memstream(&s, &len)) == NULL)
		return (NULL);
	fprintf(f, ".Bl -tag -width Ds\n");
	for (i = 0; i < nitems(keys_table); i++) {
		k = &keys_table[i];
		sep = ".It";
		for (j = 0; j < KEYS_ALIASES && k->keys[j] != 0; j++) {
			if (keys_man_name(k->keys[j], name, sizeof name) ==
			    NULL)
				continue;
			fprintf(f, "%s Ic %s", sep, name);
			sep = " ,";
		}
		fprintf(f, "\n%s\n", k->man);
	}
	fprintf(f, ".El\n.Pp\nWith\n.Fl r\n"
	    "the keys that change the daemon are refused:\n");
	for (i = 0; i < nitems(keys_table); i++) {
		k = &keys_table[i];
		for (j = 0; j < KEYS_ALIASES && k->keys[j] != 0; j++) {
			if (!(k->flags & KEYS_CHANGES) ||
			    keys_man_name(k->keys[j], name, sizeof name) ==
			    NULL)
				continue;
			/* The one before, on lines of at most 72. */
			if (last[0] != '\0' && col > 0 &&
			    col + strlen(last) > 68) {
				fprintf(f, " ,\n");
				col = 0;
			}
			if (last[0] != '\0')
				col += fprintf(f, "%s%s", col == 0 ? ".Ic " :
				    " , ", last);
			snprintf(last, sizeof last, "%s", name);
		}
	}
	fprintf(f, "%s.Ic %s .\n", col > 0 ? "\nand\n" : "", last);
	if (fclose(f) != 0) {
		free(s);
		return (NULL);
	}
	return (s);
}
