/*
 * perfetto.h -- a run as an ftrace text trace that Perfetto's UI opens as
 * CPU tracks (SPEC.md section 9; docs/PERFETTO.md): one sched_switch per
 * switch per engine CPU, one sched_waking per wake, a rank counter per
 * task.  Fed, tick by tick, the rows the CSV trace writes; live, also the
 * kernel's runs of the children, on tracks of their own.
 */
#ifndef STAIRS_PERFETTO_H
#define STAIRS_PERFETTO_H

#include <stdint.h>

struct engine;
struct perfetto;

/*
 * Open path and write the header, for ncpus engine CPUs and nkernel
 * physical CPUs' kernel tracks (0: none); NULL with *cause on failure.
 */
struct perfetto *perfetto_open(const char *path, int ncpus, int nkernel,
	    char **cause);
/*
 * The next part of the same file (the live daemon's next session): the
 * part so far ended (every track idle), the next one later on the
 * file's time line, on ncpus engine and nkernel kernel tracks.
 */
void	perfetto_next(struct perfetto *, int ncpus, int nkernel);
/* Flush and close; 0, or -1 with *cause (a write failed). */
int	perfetto_close(struct perfetto *, char **cause);
/*
 * After engine_tick: the tick's wakes, then its rows, at tick ms of
 * engine time (headless and live alike: SPEC.md section 9).
 */
void	perfetto_tick(struct perfetto *, const struct engine *, uint64_t tick);
/*
 * Live: a woken task let run at once on engine CPU cpu at rank, ahead of
 * the tick (the engine's answer to the wake), at ns of engine time.
 */
void	perfetto_wake_pick(struct perfetto *, const struct engine *, int cpu,
	    int pid, int rank, uint64_t ns);
/*
 * The kernel's run of a child on physical CPU kcpu (its track is ncpus +
 * kcpu): thread pid, shown as comm, at kernel priority prio, from from_ns
 * to to_ns (ns of engine time: procs_engine_ns; 0: still running), left in state (+ preempted) for thread
 * next (0: idle).  In time order per CPU.
 */
void	perfetto_kernel_run(struct perfetto *, int kcpu, int pid,
	    const char *comm, int prio, uint64_t from_ns, uint64_t to_ns,
	    char state, int preempted, int next);
/* Flush to the file what is written so far. */
void	perfetto_flush(struct perfetto *);

#endif
