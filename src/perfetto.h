/*
 * perfetto.h -- a run as an ftrace text trace that Perfetto's UI opens as
 * CPU tracks (SPEC.md section 9; docs/PERFETTO.md): one sched_switch per
 * switch per engine CPU, one sched_waking per wake, a rank counter per
 * task.  Fed, tick by tick, the rows the CSV trace writes.
 */
#ifndef STAIRS_PERFETTO_H
#define STAIRS_PERFETTO_H

#include <stdint.h>

struct engine;
struct perfetto;

/* Open path and write the header; NULL with *cause on failure. */
struct perfetto *perfetto_open(const char *path, int ncpus, char **cause);
/* Flush and close; 0, or -1 with *cause (a write failed). */
int	perfetto_close(struct perfetto *, char **cause);
/* After engine_tick: the tick's wakes, then its rows. */
void	perfetto_tick(struct perfetto *, const struct engine *, uint64_t tick);

#endif
