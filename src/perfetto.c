/*
 * perfetto.c -- write a run as ftrace text (the "nop" tracer's format),
 * which Perfetto's systrace importer reads: a "# tracer: nop" header, then
 * one line per event,
 *
 *	COMM-PID     [CPU] .... SECONDS.MICROS: EVENT: ARGS
 *
 * where the importer takes PID, CPU, the timestamp and EVENT from the
 * prefix and splits ARGS on blanks into key=value pairs.  So comm names
 * carry no blank and no '=' (both become '_').
 *
 * Mapping (docs/PERFETTO.md): a task's pid is its engine task id, idle is
 * pid 0 ("swapper/CPU"); engine CPU c is CPU track c; a task's priority is
 * its rank; a tick is a millisecond (tick / 1000 s, six decimals).  A
 * switch is written when the task a CPU ran changes from one tick's row to
 * the next, stamped at the start of the tick that shows the new task; a
 * rank counter ("C|pid|rank|value") when a task's rank in the rows
 * changes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "perfetto.h"
#include "xmalloc.h"

#define PERFETTO_BUFSIZE	(1 << 20)
#define PERFETTO_COMM		64

/* What a CPU track shows now. */
struct perfetto_cpu {
	int	pid;		/* 0: idle */
	int	prio;
	char	comm[PERFETTO_COMM];
};

struct perfetto {
	FILE			*f;
	char			*buf;		/* f's buffer */
	int			 ncpus;
	struct perfetto_cpu	*cpu;
	int			*rank;		/* last counter by pid, -1 */
	int			 nrank;
};

/* A comm name as the importer can split it: no blanks, no '='. */
static void
perfetto_comm(char *dst, const char *src)
{
	size_t	i;

	for (i = 0; src[i] != '\0' && i < PERFETTO_COMM - 1; i++) {
		if (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' ||
		    src[i] == '=')
			dst[i] = '_';
		else
			dst[i] = src[i];
	}
	if (i == 0)
		dst[i++] = '?';
	dst[i] = '\0';
}

/* The line prefix: "COMM-PID [CPU] .... S.US: " (the task on cpu). */
static void
perfetto_prefix(struct perfetto *pf, uint64_t tick, int cpu)
{
	struct perfetto_cpu	*c = &pf->cpu[cpu];

	if (c->pid == 0)
		fprintf(pf->f, "%16s-0     [%03d] .... %6" PRIu64 ".%06" PRIu64
		    ": ", c->comm, cpu, tick / 1000, (tick % 1000) * 1000);
	else
		fprintf(pf->f, "%16s-%-5d [%03d] .... %6" PRIu64 ".%06" PRIu64
		    ": ", c->comm, c->pid, cpu, tick / 1000,
		    (tick % 1000) * 1000);
}

/* Open path and write the header. */
struct perfetto *
perfetto_open(const char *path, int ncpus, char **cause)
{
	struct perfetto	*pf;
	int		 c;

	pf = xcalloc(1, sizeof *pf);
	if ((pf->f = fopen(path, "w")) == NULL) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		free(pf);
		return (NULL);
	}
	pf->buf = xmalloc(PERFETTO_BUFSIZE);
	setvbuf(pf->f, pf->buf, _IOFBF, PERFETTO_BUFSIZE);
	pf->ncpus = ncpus;
	pf->cpu = xcalloc(ncpus, sizeof *pf->cpu);
	for (c = 0; c < ncpus; c++) {
		pf->cpu[c].prio = 120;
		snprintf(pf->cpu[c].comm, sizeof pf->cpu[c].comm,
		    "swapper/%d", c);
	}
	fputs("# tracer: nop\n"
	    "#\n"
	    "# entries-in-buffer/entries-written: 0/0   #P:", pf->f);
	fprintf(pf->f, "%d\n", ncpus);
	fputs("#\n"
	    "#                                _-----=> irqs-off\n"
	    "#                               / _----=> need-resched\n"
	    "#                              | / _---=> hardirq/softirq\n"
	    "#                              || / _--=> preempt-depth\n"
	    "#                              ||| /     delay\n"
	    "#           TASK-PID     CPU#  ||||   TIMESTAMP  FUNCTION\n"
	    "#              | |         |   ||||      |         |\n", pf->f);
	return (pf);
}

/* Flush and close. */
int
perfetto_close(struct perfetto *pf, char **cause)
{
	int	rc = 0, saved;

	if (pf == NULL)
		return (0);
	if (fflush(pf->f) != 0 || ferror(pf->f)) {
		*cause = xasprintf("perfetto trace: %s", strerror(errno));
		rc = -1;
	}
	saved = errno;
	if (fclose(pf->f) != 0 && rc == 0) {
		*cause = xasprintf("perfetto trace: %s", strerror(errno));
		rc = -1;
	}
	errno = saved;
	free(pf->buf);
	free(pf->cpu);
	free(pf->rank);
	free(pf);
	return (rc);
}

/* pid woke during tick: a sched_waking in the context of its CPU's task. */
static void
perfetto_waking(struct perfetto *pf, uint64_t tick, int pid, const char *comm,
    int prio, int cpu)
{
	char	name[PERFETTO_COMM];

	if (cpu < 0 || cpu >= pf->ncpus)
		cpu = 0;
	perfetto_comm(name, comm);
	perfetto_prefix(pf, tick, cpu);
	fprintf(pf->f, "sched_waking: comm=%s pid=%d prio=%d "
	    "target_cpu=%03d\n", name, pid, prio, cpu);
}

/* The rank counter of pid, written when it changed. */
static void
perfetto_counter(struct perfetto *pf, uint64_t tick, int cpu, int pid,
    int rank)
{
	int	n;

	if (pid >= pf->nrank) {
		n = pid + 64;
		pf->rank = xreallocarray(pf->rank, n, sizeof *pf->rank);
		while (pf->nrank < n)
			pf->rank[pf->nrank++] = -1;
	}
	if (pf->rank[pid] == rank)
		return;
	pf->rank[pid] = rank;
	perfetto_prefix(pf, tick, cpu);
	fprintf(pf->f, "tracing_mark_write: C|%d|rank|%d\n", pid, rank);
}

/* The state a task is in after leaving its CPU, as sched_switch says it. */
static char
perfetto_state(const struct engine *e, int id)
{
	struct engine_task_info	ti;

	if (engine_task_info(e, id, &ti) != 0)
		return ('X');
	switch (ti.state) {
	case ENGINE_SLEEPING:
	case ENGINE_WAITING:
		return ('S');
	case ENGINE_EXITED:
		return ('X');
	default:
		return ('R');
	}
}

/*
 * What cpu ran during tick (pid 0: idle), as the CSV trace's row: a
 * switch if it changed, a counter if the rank did.
 */
static void
perfetto_row(struct perfetto *pf, const struct engine *e, uint64_t tick,
    int cpu, int pid, const char *comm, int rank)
{
	struct perfetto_cpu	*c;
	char			 name[PERFETTO_COMM], st;

	if (cpu < 0 || cpu >= pf->ncpus)
		return;
	c = &pf->cpu[cpu];
	if (pid != c->pid) {
		if (pid == 0)
			snprintf(name, sizeof name, "swapper/%d", cpu);
		else
			perfetto_comm(name, comm);
		st = 'R';
		if (c->pid != 0)
			st = perfetto_state(e, c->pid);
		perfetto_prefix(pf, tick, cpu);
		fprintf(pf->f, "sched_switch: prev_comm=%s prev_pid=%d "
		    "prev_prio=%d prev_state=%c ==> next_comm=%s next_pid=%d "
		    "next_prio=%d\n", c->comm, c->pid, c->prio, st, name, pid,
		    pid == 0 ? 120 : rank);
		c->pid = pid;
		snprintf(c->comm, sizeof c->comm, "%s", name);
	}
	if (pid != 0) {
		c->prio = rank;
		perfetto_counter(pf, tick, cpu, pid, rank);
	} else
		c->prio = 120;
}

/*
 * The wakes of the tick just run: the tasks it made runnable (woken or
 * started), unless one already ran out its runtime.
 */
static void
perfetto_wakes(struct perfetto *pf, const struct engine *e, uint64_t tick)
{
	struct engine_task_info	 ti;
	const int		*woken;
	size_t			 i, n;

	woken = engine_woken(e, &n);
	for (i = 0; i < n; i++) {
		if (engine_task_info(e, woken[i], &ti) != 0 ||
		    ti.state == ENGINE_EXITED)
			continue;
		perfetto_waking(pf, tick, woken[i], ti.name, ti.stair.rank,
		    ti.cpu);
	}
}

/* After engine_tick: the tick's wakes, then what each CPU ran. */
void
perfetto_tick(struct perfetto *pf, const struct engine *e, uint64_t tick)
{
	struct engine_cpu_info	 ci;
	struct engine_task_info	 ti;
	int			 c;

	perfetto_wakes(pf, e, tick);
	for (c = 0; c < pf->ncpus; c++) {
		engine_cpu_info(e, c, &ci);
		if (ci.task == 0 || engine_task_info(e, ci.task, &ti) != 0)
			perfetto_row(pf, e, tick, c, 0, NULL, 0);
		else
			perfetto_row(pf, e, tick, c, ci.task, ti.name, ci.rank);
	}
}
