/*
 * emit.c -- write the tasks' lives as a scenario (emit.h).
 *
 * Each task chosen becomes
 *
 *	{ name = "make-1234"; nice = 0; start = 12; bursts = [ ... ]; },
 *
 * with its run and sleep times in microseconds, rounded on their running
 * sums so that a task's microseconds add up to its nanoseconds rounded
 * (a burst of 1.4 us and one of 1.4 us are 1 and 2, not 1 and 1).  The
 * loader makes ticks of them the same way (src/scenario/bursts.c).
 *
 * Left out: the idle task (pid 0, never a task here), kernel threads
 * (by the names below, or as /proc said while capturing) unless asked
 * for, realtime tasks (a priority below 100 in the trace: the policies
 * here schedule only normal ones), listed on the notes stream, and
 * tasks that never ran in the trace's window.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bursts.h"
#include "emit.h"
#include "kernelrow.h"
#include "quantile.h"
#include "scenario.h"
#include "xmalloc.h"

/*
 * Kernel threads by name (docs/IMPORT.md lists them): prefixes, and
 * names whole.
 */
static const char *emit_kthread_prefixes[] = {
	"kworker/", "ksoftirqd/", "migration/", "rcu_", "rcuog/", "rcuop/",
	"watchdog/", "cpuhp/", "idle_inject/", "irq/", "jbd2/", "scsi_eh_",
	"scsi_tmf_", "kcompactd", "kswapd", "nvme-", "xfs-", "btrfs-",
	"ext4-", "card", "kthrotld", "ipv6_addrconf", "kblockd", "md",
	"writeback", "pr/", "napi/", "kdmflush", "dm_bufio", "zswap",
	"kstrp", "ttm", "blkcg_punt_bio", "edac-poller", "devfreq_wq",
	"kintegrityd", "kmpath", "tpm_dev_wq", "acpi_thermal_pm", "ata_sff",
	"inet_frag_wq", "mm_percpu_wq", "netns", "oom_reaper", "khugepaged",
	"ksmd", "kauditd", "khungtaskd", "kdevtmpfs", "kthreadd",
	"hwrng", "charger_manager", "cryptd", "kpsmoused", "iprt-",
	"vfio-", "kvm-", "virtio", "watchdogd", "sugov:", "krfcommd",
	"psimon", "slub_flushwq", "kcryptd", "jfsIO", "nfsiod", "rpciod",
	"xprtiod", "ksgxd", "kaluad", "kmemleak", "hugepaged", "khvcd",
	"mld", "uas", "usb-storage", "ipmi-msghandler", "kdamond",
	"kswapd", "ksmd", "kthreadd", "kworker",
	NULL
};

/* Is this a kernel thread, by its name (pid 2 is kthreadd)? */
int
emit_is_kthread(const char *comm, int pid)
{
	const char	**p;

	if (pid == 2)
		return (1);
	for (p = emit_kthread_prefixes; *p != NULL; p++) {
		if (strncmp(comm, *p, strlen(*p)) == 0)
			return (1);
	}
	return (0);
}

/*
 * The task's name in the scenario: comm-pid (comm-pid.N for the Nth
 * life of a pid used again), other characters than [A-Za-z0-9_.-] as
 * '_', the comm cut so that it fits in ENGINE_NAME_MAX.
 */
void
emit_name(const struct tasklife_task *t, char *buf, size_t len)
{
	char	suffix[32], *p;
	size_t	keep, n;

	if (t->life > 1)
		snprintf(suffix, sizeof suffix, "-%d.%d", t->pid, t->life);
	else
		snprintf(suffix, sizeof suffix, "-%d", t->pid);
	n = strlen(suffix);
	keep = ENGINE_NAME_MAX > n ? ENGINE_NAME_MAX - n : 0;
	if (t->comm[0] == '\0')
		snprintf(buf, len, "task%s", suffix);
	else
		snprintf(buf, len, "%.*s%s", (int)keep, t->comm, suffix);
	for (p = buf; *p != '\0'; p++) {
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		    (*p >= '0' && *p <= '9') || *p == '_' || *p == '.' ||
		    *p == '-'))
			*p = '_';
	}
}

/* A task's nice from its trace priority (120 + nice); 0 if unknown. */
static int
emit_nice(int prio)
{
	if (prio < 100 || prio > 139)
		return (0);
	return (prio - 120);
}

/* Is prio a realtime one (SCHED_FIFO/RR below 100, deadline -1)? */
static int
emit_realtime(int prio)
{
	return (prio != KTRACE_NOPRIO && prio < 100);
}

/* The task at an element of an array of task pointers (qsort's). */
static const struct tasklife_task *
emit_task_at(const void *p)
{
	return (*(const struct tasklife_task *const *)p);
}

/* Order by first sight (qsort). */
static int
emit_cmp_order(const void *a, const void *b)
{
	const struct tasklife_task	*x = emit_task_at(a);
	const struct tasklife_task	*y = emit_task_at(b);

	return (x < y ? -1 : x > y);
}

/* Order by CPU time, most first; then by first sight (qsort). */
static int
emit_cmp_cpu(const void *a, const void *b)
{
	const struct tasklife_task	*x = emit_task_at(a);
	const struct tasklife_task	*y = emit_task_at(b);

	if (x->cpu != y->cpu)
		return (x->cpu > y->cpu ? -1 : 1);
	return (emit_cmp_order(a, b));
}

/* Is pid (or comm) among those asked for? */
static int
emit_wanted(const struct emit_opts *o, const struct tasklife_task *t)
{
	size_t	i;
	int	ok;

	if (o->npids > 0) {
		for (ok = 0, i = 0; i < o->npids && !ok; i++)
			ok = o->pids[i] == t->pid;
		if (!ok)
			return (0);
	}
	if (o->ncomms > 0) {
		for (ok = 0, i = 0; i < o->ncomms && !ok; i++)
			ok = strcmp(o->comms[i], t->comm) == 0;
		if (!ok)
			return (0);
	}
	return (1);
}

/* Was pid a kernel thread by /proc (capture)? */
static int
emit_kpid(const struct emit_opts *o, int pid)
{
	size_t	i;

	for (i = 0; i < o->nkpids; i++) {
		if (o->kpids[i] == pid)
			return (1);
	}
	return (0);
}

/* The nearest-rank pct-th percentile of sorted v[0..n-1], in ms. */
static double
emit_pct(const uint64_t *v, size_t n, int pct)
{
	return ((double)quantile_rank(v, n, pct) / 1e6);
}

/* The kernel's row for t (kernelrow.h). */
static void
emit_kernel_row(FILE *f, struct tasklife_task *t, const char *name,
    uint64_t span)
{
	fprintf(f, "%s task=%s nice=%d share=%.4f ran_us=%" PRIu64
	    " runs=%" PRIu64, KERNELROW_PREFIX, name, emit_nice(t->prio),
	    span == 0 ? 0.0 : 100.0 * (double)t->cpu / (double)span,
	    (t->cpu + 500) / 1000, t->runs);
	if (t->nlat == 0) {
		fputs(" lat_p50=- lat_p95=- lat_max=-\n", f);
		return;
	}
	quantile_sort(t->lat, t->nlat);
	fprintf(f, " lat_p50=%.3f lat_p95=%.3f lat_max=%.3f\n",
	    emit_pct(t->lat, t->nlat, 50), emit_pct(t->lat, t->nlat, 95),
	    emit_pct(t->lat, t->nlat, 100));
}

/*
 * t's bursts in microseconds, each kind rounded on its running sum;
 * counts the runs ticks keep apart into r.  Returns a malloc'd array of
 * *n values.
 */
static uint64_t *
emit_us(const struct tasklife_task *t, size_t *n, struct emit_result *r)
{
	struct bursts_ticks	 bt;
	uint64_t		*us, cum[2] = { 0, 0 }, done[2] = { 0, 0 };
	size_t			 i;
	char			*cause;
	int			 k;

	*n = t->nbursts;
	us = xcalloc(*n + 1, sizeof *us);
	for (i = 0; i < *n; i++) {
		k = (int)(i % 2);
		cum[k] += t->bursts[i];
		us[i] = (cum[k] + 500) / 1000 - done[k];
		done[k] += us[i];
	}
	/* Its last sleep is none: it ends with its last run. */
	if (*n % 2 == 0 && *n > 0)
		(*n)--;
	/* Less than half a microsecond of CPU is still some. */
	if (done[0] == 0)
		us[0] = 1;
	if (bursts_ticks(us, *n, &bt, &cause) == 0) {
		r->runs += bt.runs_in;
		r->runs_kept += bt.runs;
		bursts_free(&bt);
	} else
		free(cause);
	return (us);
}

/* One task entry. */
static void
emit_task(FILE *f, const struct tasklife_task *t, const char *name,
    uint64_t begin, struct emit_result *r)
{
	uint64_t	*us;
	size_t		 n, i;
	int		 wide = 0;

	us = emit_us(t, &n, r);
	/* libconfig wants L past 32 bits, and an array of one type. */
	for (i = 0; i < n; i++) {
		if (us[i] > INT32_MAX)
			wide = 1;
	}
	fprintf(f, "  { name = \"%s\"; nice = %d; start = %" PRIu64 ";\n"
	    "    bursts = [", name, emit_nice(t->prio),
	    (t->start - begin + 500000) / 1000000);
	for (i = 0; i < n; i++) {
		if (i % 10 == 0)
			fputs(i == 0 ? " " : "\n      ", f);
		fprintf(f, "%" PRIu64 "%s%s", us[i], wide ? "L" : "",
		    i + 1 < n ? ", " : " ");
	}
	fputs("]; }", f);
	free(us);
}

/*
 * Write the scenario of the tasks o chooses to f; the counts in *r.
 * 0, or -1 with *cause when no task is left to write.
 */
int
emit_scenario(FILE *f, const struct tasklife *h, const struct emit_opts *o,
    struct emit_result *r, char **cause)
{
	struct tasklife_task	**v, *t;
	uint64_t		  span = h->end - h->begin;
	size_t			  i, n = 0;
	char			  name[ENGINE_NAME_MAX + 1];
	int			  cpus;

	memset(r, 0, sizeof *r);
	r->span_ms = (span + 999999) / 1000000;
	v = xcalloc(h->ntasks + 1, sizeof *v);
	for (i = 0; i < h->ntasks; i++) {
		t = &h->tasks[i];
		if (t->cpu == 0 || t->nbursts == 0)
			r->idle++;
		else if (!o->kthreads && (emit_kpid(o, t->pid) ||
		    emit_is_kthread(t->comm, t->pid)))
			r->kthreads++;
		else if (emit_realtime(t->prio)) {
			r->realtime++;
			emit_name(t, name, sizeof name);
			if (o->notes != NULL)
				fprintf(o->notes, "stairs-import: left out "
				    "realtime task %s (prio %d)\n", name,
				    t->prio);
		} else if (!emit_wanted(o, t))
			r->unselected++;
		else
			v[n++] = t;
	}
	if (o->top > 0 && n > (size_t)o->top) {
		qsort(v, n, sizeof *v, emit_cmp_cpu);
		r->unselected += n - (size_t)o->top;
		n = (size_t)o->top;
		qsort(v, n, sizeof *v, emit_cmp_order);
	}
	if (n == 0) {
		free(v);
		*cause = xasprintf("no task to write: of %zu in the trace, "
		    "%zu never ran, %zu are kernel threads, %zu realtime, "
		    "%zu not asked for", h->ntasks, r->idle, r->kthreads,
		    r->realtime, r->unselected);
		return (-1);
	}
	cpus = o->cpus > 0 ? o->cpus : tasklife_ncpus(h);
	if (cpus > ENGINE_MAX_CPUS)
		cpus = ENGINE_MAX_CPUS;
	fprintf(f, "# A real machine's workload, imported by stairs-import "
	    "from %s (%s):\n# %zu tasks on %d CPUs over %" PRIu64 ".%06"
	    PRIu64 " s.  Replay it under every policy, with the\n# kernel "
	    "as a row:\n#\n#   stairsd --headless --scenario FILE --ticks %"
	    PRIu64 " --compare staircase,o1,cfs,kernel\n\n",
	    o->source != NULL ? o->source : "a trace",
	    ktrace_form_name(ktrace_form(&h->kt)), n, tasklife_ncpus(h),
	    span / 1000000000, span % 1000000000 / 1000, r->span_ms);
	fprintf(f, "name = \"imported\";\ndescription = \"%zu tasks of a "
	    "real machine, replayed as they ran and slept (%s).\";\n"
	    "cpus = %d;\n\n", n, ktrace_form_name(ktrace_form(&h->kt)),
	    cpus);
	fprintf(f, "%s span_us=%" PRIu64 " cpus=%d\n", KERNELROW_PREFIX,
	    span / 1000 > 0 ? (span + 500) / 1000 : 1, tasklife_ncpus(h));
	for (i = 0; i < n; i++) {
		emit_name(v[i], name, sizeof name);
		emit_kernel_row(f, v[i], name, span);
	}
	fputs("\ntasks = (\n", f);
	for (i = 0; i < n; i++) {
		emit_name(v[i], name, sizeof name);
		emit_task(f, v[i], name, h->begin, r);
		fputs(i + 1 < n ? ",\n" : "\n", f);
	}
	fputs(");\n", f);
	r->written = n;
	free(v);
	return (0);
}
