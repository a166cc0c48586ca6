/*
 * whys.c -- the last why line of each CPU of each engine the frames show
 * (whys.h).  The engine gives the lines of its last tick only
 * (engine_whys); a frame comes every few ticks, so the last of each CPU
 * is kept here, with the generation it came at.  The lines are the
 * policies' own text: nothing here composes one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "fields.h"
#include "whys.h"
#include "xmalloc.h"

/* A CPU's last why line. */
struct whys_cpu {
	uint64_t	gen;		/* 0: none */
	uint64_t	tick;
	int		task;
	char		text[ENGINE_WHY_MAX];
};

struct whys {
	struct whys_cpu	*cpu[WHYS_SLOTS];
	int		 ncpus[WHYS_SLOTS];
};

struct whys *
whys_create(void)
{
	return (xcalloc(1, sizeof (struct whys)));
}

void
whys_free(struct whys *w)
{
	int	i;

	if (w == NULL)
		return;
	for (i = 0; i < WHYS_SLOTS; i++)
		free(w->cpu[i]);
	free(w);
}

/* Forget slot's lines; -1: every slot's. */
void
whys_clear(struct whys *w, int slot)
{
	int	i;

	for (i = 0; i < WHYS_SLOTS; i++) {
		if (slot >= 0 && i != slot)
			continue;
		free(w->cpu[i]);
		w->cpu[i] = NULL;
		w->ncpus[i] = 0;
	}
}

/* Keep the why lines of e's last tick in slot, stamped gen. */
void
whys_take(struct whys *w, int slot, const struct engine *e, uint64_t tick,
    uint64_t gen)
{
	const struct engine_why	*v;
	struct whys_cpu		*c;
	size_t			 i, n;
	int			 ncpus = engine_params(e)->cpus;

	if (slot < 0 || slot >= WHYS_SLOTS)
		return;
	v = engine_whys(e, &n);
	if (n == 0)
		return;
	if (w->ncpus[slot] != ncpus) {
		free(w->cpu[slot]);
		w->cpu[slot] = xcalloc((size_t)ncpus, sizeof *w->cpu[slot]);
		w->ncpus[slot] = ncpus;
	}
	for (i = 0; i < n; i++) {
		if (v[i].cpu < 0 || v[i].cpu >= ncpus)
			continue;
		c = &w->cpu[slot][v[i].cpu];
		c->gen = gen;
		c->tick = tick;
		c->task = v[i].task;
		snprintf(c->text, sizeof c->text, "%s", v[i].text);
	}
}

/* Append slot's lines newer than from (0: all) through out. */
size_t
whys_lines(const struct whys *w, int slot, uint64_t from, const char *policy,
    void (*out)(void *, const char *, size_t), void *arg)
{
	const struct wire_line	*line = slot == 0 ? &wire_why : &wire_swhy;
	const struct whys_cpu	*c;
	char			 buf[ENGINE_WHY_MAX + 128], pol[48];
	size_t			 total = 0;
	int			 i, n;

	if (slot < 0 || slot >= WHYS_SLOTS)
		return (0);
	pol[0] = '\0';
	if (slot > 0 && policy != NULL)
		snprintf(pol, sizeof pol, " %s=%s",
		    wire_key(line, WIRE_WHY_POLICY), policy);
	for (i = 0; i < w->ncpus[slot]; i++) {
		c = &w->cpu[slot][i];
		if (c->gen == 0 || (from != 0 && c->gen <= from))
			continue;
		n = snprintf(buf, sizeof buf, "%s %s=%d %s=%llu %s=%d%s %s=%s\n",
		    line->word, wire_key(line, WIRE_WHY_CPU), i,
		    wire_key(line, WIRE_WHY_TICK), (unsigned long long)c->tick,
		    wire_key(line, WIRE_WHY_TASK), c->task, pol,
		    wire_key(line, WIRE_WHY_TEXT), c->text);
		if (n < 0)
			continue;
		if ((size_t)n >= sizeof buf) {
			n = (int)sizeof buf - 1;
			buf[n - 1] = '\n';
		}
		out(arg, buf, (size_t)n);
		total += (size_t)n;
	}
	return (total);
}
