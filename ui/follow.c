/*
 * follow.c -- audience mode (`stairs -r --follow`): the presenter's
 * client says its view to the daemon as `view key=value …` (the task
 * selected, the panes shown, the zoom and the scrolling), the daemon
 * puts the last one said in its followers' frames (`view seq=N …`,
 * docs/PROTOCOL.md), and a follower takes it as its own.  These are the
 * two ends: the view as pairs, and pairs applied to a view.  Pure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "follow.h"
#include "view.h"

/* The pairs, in the order written; a field of struct view each. */
static const struct {
	const char	*key;
	size_t		 off;
} follow_keys[] = {
	{ "task", offsetof(struct view, selected) },
	{ "table", offsetof(struct view, show_table) },
	{ "timeline", offsetof(struct view, show_timeline) },
	{ "ranks", offsetof(struct view, show_ranks) },
	{ "events", offsetof(struct view, show_events) },
	{ "zoom", offsetof(struct view, zoom) },
	{ "back", offsetof(struct view, events_back) },
	{ "tasktop", offsetof(struct view, task_top) },
	{ "cputop", offsetof(struct view, cpu_top) },
	{ "cpuview", offsetof(struct view, cpu_view) },
	{ "alone", offsetof(struct view, compare_off) },
};
#define FOLLOW_NKEYS (sizeof follow_keys / sizeof follow_keys[0])

/* A view's field by its place in follow_keys. */
static int *
follow_field(struct view *v, size_t i)
{
	return ((int *)((char *)v + follow_keys[i].off));
}

/* Write v's view as "task=3 table=1 …" into buf. */
void
follow_state(const struct view *v, char *buf, size_t len)
{
	size_t	i, n = 0;
	int	val;

	if (len > 0)
		buf[0] = '\0';
	for (i = 0; i < FOLLOW_NKEYS && n < len; i++) {
		memcpy(&val, (const char *)v + follow_keys[i].off, sizeof val);
		n += snprintf(buf + n, len - n, "%s%s=%d", i > 0 ? " " : "",
		    follow_keys[i].key, val);
	}
}

/*
 * Take the presenter's pairs as v's view; unknown keys and bad values
 * are skipped.  Returns 1 if the selected task changed.
 */
int
follow_apply(struct view *v, const char *pairs)
{
	char		 word[64], *eq, *end;
	const char	*p = pairs;
	size_t		 i, n;
	long		 val;
	int		 sel = v->selected, alone = v->compare_off;

	while (*p != '\0') {
		while (*p == ' ')
			p++;
		n = strcspn(p, " ");
		if (n == 0)
			break;
		snprintf(word, sizeof word, "%.*s", (int)n, p);
		p += n;
		if ((eq = strchr(word, '=')) == NULL)
			continue;
		*eq++ = '\0';
		val = strtol(eq, &end, 10);
		if (*end != '\0' || val < -1000000 || val > 1000000000)
			continue;
		for (i = 0; i < FOLLOW_NKEYS; i++) {
			if (strcmp(word, follow_keys[i].key) == 0)
				*follow_field(v, i) = (int)val;
		}
	}
	if (v->cpu_view < VIEW_AUTO || v->cpu_view > VIEW_LIST)
		v->cpu_view = VIEW_AUTO;
	v->compare_off = v->compare_off != 0;
	if (v->compare_off != alone)
		v->layout_cols = -1;	/* the CPUs' width changed: choose */
	if (v->zoom < 0)
		v->zoom = 0;
	if (v->events_back < 0)
		v->events_back = 0;
	if (v->task_top < 0)
		v->task_top = 0;
	if (v->cpu_top < 0)
		v->cpu_top = 0;
	return (v->selected != sel);
}
