/*
 * model-history.c -- what the model keeps of the past for the history
 * panes (history.c): what each CPU ran, from the frames' runs lines
 * (docs/PROTOCOL.md, "Runs"), and what the kernel ran there, from the
 * kruns lines, each in a struct runs (src/wire/runs.c); and the event
 * log, the last MODEL_LOG events with their ticks.  model_free frees
 * them.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "model-int.h"
#include "model.h"
#include "protocol.h"
#include "runs.h"
#include "xmalloc.h"

/* A runs or kruns line's cpu= and from=; 0, or -1 if bad. */
static int
model_history_head(const char *scpu, const char *sfrom, long *cpu,
    unsigned long long *from)
{
	char	*end;

	*cpu = strtol(scpu, &end, 10);
	if (*scpu == '\0' || *end != '\0' || *cpu < 0 || *cpu >= 4096)
		return (-1);
	if (*sfrom == '\0' || *sfrom == '-' || *sfrom == '+')
		return (-1);
	*from = strtoull(sfrom, &end, 10);
	if (*end != '\0')
		return (-1);
	return (0);
}

/* The ring for cpu, made anew (what it had dropped) if too small. */
static struct runs *
model_history_ring(struct runs **r, long cpu, int ncpus)
{
	if (*r == NULL || cpu >= runs_ncpus(*r)) {
		if (ncpus <= cpu)
			ncpus = (int)cpu + 1;
		runs_free(*r);
		*r = runs_create(ncpus, MODEL_RUNS_CAP, MODEL_RUNS_TICKS);
	}
	return (*r);
}

/* One run of a runs (kernel 0) or kruns line at *p; 0, or -1 if bad. */
static int
model_history_item(int kernel, const char **p, int *task, int *rank,
    uint64_t *n)
{
	*rank = -1;
	return (kernel ? protocol_kruns_parse(p, task, n) :
	    protocol_runs_parse(p, task, rank, n));
}

/*
 * A runs line of a frame (what a CPU ran from tick `from` on), or with
 * kernel a kruns line (what the kernel ran on the CPU's physical CPU:
 * docs/PROTOCOL.md, "Kernel runs").  The line is checked whole before
 * anything is kept, so a bad one changes nothing.  Runs that start again
 * (the first frame, a new session, a seek back) drop what the kernel ran
 * too: the same frame's kruns lines, which start again with them, bring
 * it back.
 */
enum model_got
model_history_runs(struct model *m, int kernel, const char *scpu,
    const char *sfrom, const char *items, int ncpus)
{
	struct runs		**ring = kernel ? &m->kruns : &m->runs;
	const char		 *p;
	long			  cpu;
	unsigned long long	  from;
	uint64_t		  n;
	int			  task, rank;

	if (model_history_head(scpu, sfrom, &cpu, &from) != 0)
		return (MODEL_BAD);
	for (p = items; *p != '\0';) {
		if (model_history_item(kernel, &p, &task, &rank, &n) != 0)
			return (MODEL_BAD);
	}
	model_history_ring(ring, cpu, ncpus);
	/* A from that is not where this CPU's runs ended starts it again. */
	if (runs_put(*ring, cpu, from, 0, -1, 0) && !kernel &&
	    m->kruns != NULL) {
		runs_free(m->kruns);
		m->kruns = NULL;
	}
	for (p = items; *p != '\0'; from += n) {
		model_history_item(kernel, &p, &task, &rank, &n);
		runs_put(*ring, cpu, from, task, rank, n);
	}
	return (MODEL_NOTHING);
}

/* An event line of a frame, for the log. */
void
model_history_event(struct model *m, long tick, const char *text)
{
	struct mevent	*ev;

	if (m->log == NULL)
		m->log = xcalloc(MODEL_LOG, sizeof *m->log);
	ev = &m->log[m->nlog++ % MODEL_LOG];
	ev->tick = tick;
	snprintf(ev->text, sizeof ev->text, "%s", text);
}
