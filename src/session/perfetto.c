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
 * its rank; a tick is a millisecond (tick / 1000 s, six decimals), live
 * too (the kernel's runs are put on that time line: procs_engine_ns).  A
 * switch is written when the task a CPU ran changes from one tick's row to
 * the next, stamped at the start of the tick that shows the new task; a
 * rank counter ("C|pid|rank|value") when a task's rank in the rows
 * changes.
 *
 * Live with real tasks, the kernel's own runs of the children (from its
 * sched_switch events, proc-kernel.c) go on tracks of their own, ncpus +
 * physical CPU, with the children's real pids: a switch in at a run's
 * start and out at its end, to idle if the kernel went idle, else to
 * "others" (a pseudo-thread, PERFETTO_OTHERS) until a child runs there
 * again: only the children's switches are recorded, so what else ran
 * in between, or whether the CPU went idle later, is not known.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "file.h"
#include "perfetto.h"
#include "xmalloc.h"

#define PERFETTO_BUFSIZE	(1 << 20)
#define PERFETTO_COMM		64
/*
 * On a kernel track, the other processes a child's CPU went to: one
 * pseudo-thread, its pid above any the kernel hands out (PID_MAX_LIMIT,
 * 4194304).
 */
#define PERFETTO_OTHERS		4194305

/* What a CPU track shows now. */
struct perfetto_cpu {
	int		pid;		/* 0: idle */
	int		prio;
	char		comm[PERFETTO_COMM];
	/* A kernel track: the end of its last run, not written yet. */
	int		pending;
	uint64_t	pending_ns;
	char		pending_state[4];
	int		pending_others;	/* to another process, not idle */
};

struct perfetto {
	FILE			*f;
	char			*buf;		/* f's buffer */
	int			 ncpus;		/* engine CPUs */
	int			 ntracks;	/* and kernel tracks after */
	struct perfetto_cpu	*cpu;
	int			*rank;		/* last counter by pid, -1 */
	char			*early;		/* by pid: woken before its tick */
	int			 nearly;	/* pids marked early */
	int			 nrank;
	/* A file of several parts (the live daemon's loads), one after
	   the other on its time line: this part's time 0, the latest
	   time written (both on the file's line), the part (1..). */
	uint64_t		 base_ns;
	uint64_t		 last_ns;
	int			 part;
};

static void	perfetto_kernel_flush(struct perfetto *);
static void	perfetto_kernel_switch(struct perfetto *, int, uint64_t,
		    const char *, int, const char *, int);

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

/* The line prefix: "COMM-PID [CPU] .... S.US: " (the task on track). */
static void
perfetto_prefix(struct perfetto *pf, uint64_t ns, int track)
{
	struct perfetto_cpu	*c = &pf->cpu[track];
	uint64_t		 sec, us;

	ns += pf->base_ns;
	if (ns > pf->last_ns)
		pf->last_ns = ns;
	sec = ns / 1000000000ULL;
	us = (ns % 1000000000ULL) / 1000;

	if (c->pid == 0)
		fprintf(pf->f, "%16s-0     [%03d] .... %6" PRIu64 ".%06" PRIu64
		    ": ", c->comm, track, sec, us);
	else
		fprintf(pf->f, "%16s-%-5d [%03d] .... %6" PRIu64 ".%06" PRIu64
		    ": ", c->comm, c->pid, track, sec, us);
}

/* ncpus engine tracks and nkernel kernel tracks, each idle. */
static void
perfetto_tracks(struct perfetto *pf, int ncpus, int nkernel)
{
	int	c;

	free(pf->cpu);
	pf->ncpus = ncpus;
	pf->ntracks = ncpus + (nkernel > 0 ? nkernel : 0);
	pf->cpu = xcalloc(pf->ntracks, sizeof *pf->cpu);
	for (c = 0; c < pf->ntracks; c++) {
		pf->cpu[c].prio = 120;
		snprintf(pf->cpu[c].comm, sizeof pf->cpu[c].comm,
		    "swapper/%d", c);
	}
}

/*
 * Open path and write the header: ncpus engine CPU tracks, and nkernel
 * tracks for the kernel's runs after them (0 headless).
 */
struct perfetto *
perfetto_open(const char *path, int ncpus, int nkernel, char **cause)
{
	struct perfetto	*pf;

	pf = xcalloc(1, sizeof *pf);
	if ((pf->f = file_fopen(path, FILE_TRUNCATE, cause)) == NULL) {
		free(pf);
		return (NULL);
	}
	pf->buf = xmalloc(PERFETTO_BUFSIZE);
	setvbuf(pf->f, pf->buf, _IOFBF, PERFETTO_BUFSIZE);
	pf->part = 1;
	perfetto_tracks(pf, ncpus, nkernel);
	fputs("# tracer: nop\n"
	    "#\n"
	    "# entries-in-buffer/entries-written: 0/0   #P:", pf->f);
	fprintf(pf->f, "%d\n", pf->ntracks);
	fputs("#\n"
	    "#                                _-----=> irqs-off\n"
	    "#                               / _----=> need-resched\n"
	    "#                              | / _---=> hardirq/softirq\n"
	    "#                              || / _--=> preempt-depth\n"
	    "#                              ||| /     delay\n"
	    "#           TASK-PID     CPU#  ||||   TIMESTAMP  FUNCTION\n"
	    "#              | |         |   ||||      |         |\n", pf->f);
	/* Where the kernel tracks start: for readers of the file. */
	if (nkernel > 0)
		fprintf(pf->f, "# stairs: engine cpus %d; the kernel's runs "
		    "of the children on tracks %d + physical cpu\n", ncpus,
		    ncpus);
	return (pf);
}

/*
 * The next part of the file (a live daemon's next session, after a
 * load): the part so far ended, every track switched to idle a tick
 * after the last thing written; the next part's time 0 at the next
 * whole second at least a second later, its tasks' pids and tracks
 * starting afresh (ncpus engine tracks, nkernel kernel tracks).
 */
void
perfetto_next(struct perfetto *pf, int ncpus, int nkernel)
{
	uint64_t	end;
	int		t;

	perfetto_kernel_flush(pf);
	end = pf->last_ns + 1000000ULL - pf->base_ns;
	for (t = 0; t < pf->ntracks; t++) {
		if (pf->cpu[t].pid != 0)
			perfetto_kernel_switch(pf, t, end, "R", 0, NULL, 120);
	}
	pf->base_ns = (pf->last_ns / 1000000000 + 2) * 1000000000;
	pf->part++;
	perfetto_tracks(pf, ncpus, nkernel);
	for (t = 0; t < pf->nrank; t++) {
		pf->rank[t] = -1;
		pf->early[t] = 0;
	}
	pf->nearly = 0;
	fprintf(pf->f, "# stairs: part %d from %" PRIu64 ".000000 s: engine "
	    "cpus %d", pf->part, pf->base_ns / 1000000000, ncpus);
	if (nkernel > 0)
		fprintf(pf->f, "; the kernel's runs of the children on tracks "
		    "%d + physical cpu", ncpus);
	fputc('\n', pf->f);
}

/* Flush and close. */
int
perfetto_close(struct perfetto *pf, char **cause)
{
	int	rc;

	if (pf == NULL)
		return (0);
	perfetto_kernel_flush(pf);
	rc = file_close(pf->f, cause);
	free(pf->buf);
	free(pf->cpu);
	free(pf->rank);
	free(pf->early);
	free(pf);
	return (rc);
}

/* pid woke during tick: a sched_waking in the context of its CPU's task. */
static void
perfetto_waking(struct perfetto *pf, uint64_t ns, int pid, const char *comm,
    int prio, int cpu)
{
	char	name[PERFETTO_COMM];

	if (cpu < 0 || cpu >= pf->ncpus)
		cpu = 0;
	perfetto_comm(name, comm);
	perfetto_prefix(pf, ns, cpu);
	fprintf(pf->f, "sched_waking: comm=%s pid=%d prio=%d "
	    "target_cpu=%03d\n", name, pid, prio, cpu);
}

/* Room for pid in the per-pid arrays. */
static void
perfetto_grow(struct perfetto *pf, int pid)
{
	int	n;

	if (pid < pf->nrank)
		return;
	n = pid + 64;
	pf->rank = xreallocarray(pf->rank, n, sizeof *pf->rank);
	pf->early = xreallocarray(pf->early, n, sizeof *pf->early);
	while (pf->nrank < n) {
		pf->early[pf->nrank] = 0;
		pf->rank[pf->nrank++] = -1;
	}
}

/* The rank counter of pid, written when it changed. */
static void
perfetto_counter(struct perfetto *pf, uint64_t ns, int cpu, int pid,
    int rank)
{
	perfetto_grow(pf, pid);
	if (pf->rank[pid] == rank)
		return;
	pf->rank[pid] = rank;
	perfetto_prefix(pf, ns, cpu);
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
perfetto_row(struct perfetto *pf, const struct engine *e, uint64_t ns,
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
		perfetto_prefix(pf, ns, cpu);
		fprintf(pf->f, "sched_switch: prev_comm=%s prev_pid=%d "
		    "prev_prio=%d prev_state=%c ==> next_comm=%s next_pid=%d "
		    "next_prio=%d\n", c->comm, c->pid, c->prio, st, name, pid,
		    pid == 0 ? 120 : rank);
		c->pid = pid;
		snprintf(c->comm, sizeof c->comm, "%s", name);
	}
	if (pid != 0) {
		c->prio = rank;
		perfetto_counter(pf, ns, cpu, pid, rank);
	} else
		c->prio = 120;
}

/*
 * The wakes of the tick just run: the tasks it made runnable (woken or
 * started), unless one already ran out its runtime.
 */
static void
perfetto_wakes(struct perfetto *pf, const struct engine *e, uint64_t ns)
{
	struct engine_task_info	 ti;
	const int		*woken;
	size_t			 i, n;

	woken = engine_woken(e, &n);
	for (i = 0; i < n; i++) {
		/* Shown already, when the live daemon let it run. */
		if (woken[i] < pf->nrank && pf->early[woken[i]]) {
			pf->early[woken[i]] = 0;
			pf->nearly--;
			continue;
		}
		if (engine_task_info(e, woken[i], &ti) != 0 ||
		    ti.state == ENGINE_EXITED)
			continue;
		perfetto_waking(pf, ns, woken[i], ti.name, ti.rank,
		    ti.cpu);
	}
}

/*
 * The why of each switch of the tick (SPEC.md section 10), while the
 * engine explains: an atrace instant ("I|pid|why: TEXT") on the
 * switch's CPU, in the context of the task it switched to (the one
 * switched from when it went idle), after the sched_switch.
 */
static void
perfetto_whys(struct perfetto *pf, const struct engine *e, uint64_t ns)
{
	const struct engine_why	*w;
	size_t			 i, n;

	w = engine_whys(e, &n);
	for (i = 0; i < n; i++) {
		if (w[i].cpu < 0 || w[i].cpu >= pf->ncpus)
			continue;
		perfetto_prefix(pf, ns, w[i].cpu);
		fprintf(pf->f, "tracing_mark_write: I|%d|why: %s\n",
		    w[i].task, w[i].text);
	}
}

/* After engine_tick: the tick's wakes, then what each CPU ran. */
void
perfetto_tick(struct perfetto *pf, const struct engine *e, uint64_t tick)
{
	struct engine_cpu_info	 ci;
	struct engine_task_info	 ti;
	uint64_t		 ns = tick * 1000000ULL;
	int			 c;

	perfetto_wakes(pf, e, ns);
	/* A wake shown early that this tick did not record: forget it. */
	if (pf->nearly > 0) {
		memset(pf->early, 0, pf->nrank);
		pf->nearly = 0;
	}
	for (c = 0; c < pf->ncpus; c++) {
		engine_cpu_info(e, c, &ci);
		if (ci.task == 0 || engine_task_info(e, ci.task, &ti) != 0)
			perfetto_row(pf, e, ns, c, 0, NULL, 0);
		else
			perfetto_row(pf, e, ns, c, ci.task, ti.name, ci.rank);
	}
	perfetto_whys(pf, e, ns);
}

/*
 * Live: a woken task the daemon let run at once on engine CPU cpu, at
 * rank, ahead of the tick that records the wake (the engine's answer:
 * it preempts what ran there; docs/REAL.md): its wake and its switch in
 * at ns, the tick's wake line left out.
 */
void
perfetto_wake_pick(struct perfetto *pf, const struct engine *e, int cpu,
    int pid, int rank, uint64_t ns)
{
	struct engine_task_info	ti;

	if (cpu < 0 || cpu >= pf->ncpus || pid <= 0 ||
	    engine_task_info(e, pid, &ti) != 0)
		return;
	perfetto_grow(pf, pid);
	if (!pf->early[pid])
		pf->nearly++;
	pf->early[pid] = 1;
	perfetto_waking(pf, ns, pid, ti.name, rank, cpu);
	perfetto_row(pf, e, ns, cpu, pid, ti.name, rank);
}

/*
 * A switch on a kernel track at ns to pid (0: idle, PERFETTO_OTHERS:
 * other processes), prev leaving in st.
 */
static void
perfetto_kernel_switch(struct perfetto *pf, int track, uint64_t ns,
    const char *st, int pid, const char *comm, int prio)
{
	struct perfetto_cpu	*c = &pf->cpu[track];
	char			 name[PERFETTO_COMM];

	if (pid == 0)
		snprintf(name, sizeof name, "swapper/%d", track);
	else if (pid == PERFETTO_OTHERS)
		snprintf(name, sizeof name, "others");
	else
		perfetto_comm(name, comm);
	perfetto_prefix(pf, ns, track);
	fprintf(pf->f, "sched_switch: prev_comm=%s prev_pid=%d prev_prio=%d "
	    "prev_state=%s ==> next_comm=%s next_pid=%d next_prio=%d\n",
	    c->comm, c->pid, c->prio, c->pid == 0 ||
	    c->pid == PERFETTO_OTHERS ? "R" : st, name, pid,
	    pid == 0 ? 120 : prio);
	c->pid = pid;
	c->prio = pid == 0 ? 120 : prio;
	snprintf(c->comm, sizeof c->comm, "%s", name);
}

/* Write a kernel track's pending switch out, to idle or to the others. */
static void
perfetto_kernel_out(struct perfetto *pf, int track)
{
	struct perfetto_cpu	*c = &pf->cpu[track];

	if (!c->pending)
		return;
	c->pending = 0;
	perfetto_kernel_switch(pf, track, c->pending_ns, c->pending_state,
	    c->pending_others ? PERFETTO_OTHERS : 0, NULL, 120);
}

/*
 * A run of a child on physical CPU kcpu, its thread pid shown as comm
 * (the task's name) at kernel priority prio, from from_ns to to_ns (0:
 * running still), left in state (with '+' if preempted) for next (0:
 * idle), as the kernel said.  A CPU's runs come in time order.  The
 * switch out is held back until the next run of the track: if that one
 * starts when this one ends (the kernel switched from one child to the
 * other), the two are one switch.
 */
void
perfetto_kernel_run(struct perfetto *pf, int kcpu, int pid, const char *comm,
    int prio, uint64_t from_ns, uint64_t to_ns, char state, int preempted,
    int next)
{
	struct perfetto_cpu	*c;
	int			 track = pf->ncpus + kcpu;

	if (kcpu < 0 || track >= pf->ntracks || pid <= 0)
		return;
	c = &pf->cpu[track];
	if (c->pending && (c->pending_ns != from_ns || c->pid == pid))
		perfetto_kernel_out(pf, track);
	perfetto_kernel_switch(pf, track, from_ns, c->pending_state, pid, comm,
	    prio);
	c->pending = 0;
	if (to_ns == 0)
		return;
	c->pending = 1;
	c->pending_ns = to_ns;
	c->pending_others = next != 0;
	snprintf(c->pending_state, sizeof c->pending_state, "%c%s", state,
	    preempted ? "+" : "");
}

/* Write every kernel track's pending switch out (at the end). */
static void
perfetto_kernel_flush(struct perfetto *pf)
{
	int	t;

	for (t = pf->ncpus; t < pf->ntracks; t++)
		perfetto_kernel_out(pf, t);
}

/* Flush what is written so far to the file (a live run, now and then). */
void
perfetto_flush(struct perfetto *pf)
{
	fflush(pf->f);
}
