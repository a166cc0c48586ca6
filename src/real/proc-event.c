/*
 * proc-event.c -- the kernel's own scheduler events (SPEC.md section 8)
 * opened for the children, so that their wake-ups are read instead of
 * polling /proc: the tracepoints found in tracefs, and a set of events
 * opened on every CPU under a filter naming the children's pids, again
 * whenever those change.  Their rings are read by proc-ring.c, the wakes
 * acted on by proc-wake.c, the switches kept by proc-kernel.c.
 *
 * Where the daemon may (root), it opens the sched:sched_waking tracepoint
 * with perf_event_open on every online CPU (a wake-up is recorded on the
 * CPU that does it, which may be any), filtered to our children's pids,
 * each with a small ring buffer that is readable at every record (one
 * epoll descriptor over them, procs_event_fd): a record names the woken
 * thread, and a task we put to sleep because it blocked is acted on at
 * once from the caller's loop (procs_wakeups -> proc_enforce_wake: stop
 * what it preempts, or stop it until it is picked) and woken in the
 * engine at the next tick.  So blocked tasks are no longer read from /proc
 * each tick (only every 100 ms, PROC_EVENT_LOOK_NS, as a safety net for
 * threads other than a process's main one, which the records name by
 * their own tid).  perf_event_open rather than tracefs's trace_pipe: it
 * needs no global tracing state (the ftrace buffer and its enable files
 * are shared with anyone else tracing), is per CPU and is read without a
 * system call (a mmap'd ring).
 *
 * sched_waking, not sched_wakeup: the kernel writes sched_waking in the
 * waker's context, at the start of try_to_wake_up, while sched_wakeup
 * may be written later by the woken task's CPU (from the wake list it is
 * queued on; the reason sched_waking was added, kernel commit
 * fbd705a0c618).  So the record of a continue we send is in our own
 * CPU's ring, its readiness set, when kill() returns, and procs_enforce
 * takes it there and then (proc_wake_settle) instead of being woken for
 * it later: without that, each switch of a real task cost one wake-up of
 * the loop.  Either is stamped when the wake happens.
 *
 * Beside it, on every CPU, the sched_switch tracepoint filtered to the
 * switches in or out of our children, its records written into the
 * same ring (PERF_EVENT_IOC_SET_OUTPUT) but without waking us: they are
 * read with the wakes and at each tick, and give proc-kernel.c the
 * kernel's own runs of the children and the state each was switched out
 * in (a running task switched out asleep is seen blocked without
 * reading /proc).  Without sched_switch, wakes still come from events.
 *
 * And on every CPU a third, sched_switch again but filtered to a child
 * switched out asleep (prev_state S or D: it blocked), into a ring of
 * its own that is only emptied, never parsed, readable at every record:
 * the block's own record is read from the first ring.  It wakes a loop
 * that sleeps through ticks that change nothing (procs_quiet) when a
 * task the engine runs blocks, as the tick it would have slept to would
 * have seen it.  Without it the loop ticks every tick.
 *
 * The tracepoints' ids and the offsets of their fields are read from
 * their format files in tracefs (the layout in the kernel's
 * include/trace/events/sched.h: a trace_entry header whose first field,
 * common_type, is the event's id; sched_waking's pid; sched_switch's
 * prev_pid, prev_state, next_pid, next_prio), which a fresh machine may
 * not have mounted: a root daemon then mounts it at /sys/kernel/tracing
 * and says so.  Without permission, or without the tracepoint, the
 * caller keeps polling /proc (observe=proc).
 */
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/syscall.h>

#include <linux/perf_event.h>

#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroup.h"
#include "engine.h"
#include "log.h"
#include "monotonic.h"
#include "proc-int.h"
#include "xmalloc.h"

#define PROC_EVENT_PAGES	8	/* ring data pages per CPU (32 KB) */
#define PROC_EVENT_BLOCKS	"prev_state & 3"	/* S or D: blocked */
#define PROC_EVENT_TRACEFS	"/sys/kernel/tracing"
#define PROC_EVENT_DEBUGFS	"/sys/kernel/debug/tracing"
#define PROC_EVENT_WAKEUP	"events/sched/sched_waking"
#define PROC_EVENT_SWITCH	"events/sched/sched_switch"
#define PROC_EVENT_FILTER	4000	/* the kernel takes up to a page */

/* The tracefs directory, mounting it if we may and it is missing. */
static const char *
proc_event_tracefs(char **why)
{
	char	path[256];

	snprintf(path, sizeof path, "%s/%s/id", PROC_EVENT_TRACEFS,
	    PROC_EVENT_WAKEUP);
	if (access(path, R_OK) == 0)
		return (PROC_EVENT_TRACEFS);
	snprintf(path, sizeof path, "%s/%s/id", PROC_EVENT_DEBUGFS,
	    PROC_EVENT_WAKEUP);
	if (access(path, R_OK) == 0)
		return (PROC_EVENT_DEBUGFS);
	if (mount("nodev", PROC_EVENT_TRACEFS, "tracefs", 0, NULL) != 0) {
		*why = xasprintf("tracefs not mounted, mount: %s",
		    strerror(errno));
		return (NULL);
	}
	log_info("mounted tracefs at %s", PROC_EVENT_TRACEFS);
	return (PROC_EVENT_TRACEFS);
}

/*
 * The offset of a field in a tracepoint's format text ("field:TYPE
 * NAME;\toffset:N;\tsize:N;"), and its size; -1 if absent.
 */
static int
proc_event_field(const char *fmt, const char *name, int *size)
{
	char		 key[64];
	const char	*p, *o;

	snprintf(key, sizeof key, " %s;", name);
	if ((p = strstr(fmt, key)) == NULL || (o = strstr(p, "offset:")) ==
	    NULL)
		return (-1);
	if (size != NULL) {
		if ((p = strstr(o, "size:")) == NULL)
			return (-1);
		*size = atoi(p + 5);
	}
	return (atoi(o + 7));
}

/*
 * A tracepoint's id and format text (dir/event/id and format), into buf;
 * 0, or -1 with *why.
 */
static int
proc_event_read_format(const char *dir, const char *event, long *id,
    char *buf, size_t len, char **why)
{
	char	path[256];

	snprintf(path, sizeof path, "%s/%s/id", dir, event);
	if (cgroup_read(path, buf, len) != 0) {
		*why = xasprintf("%s: %s", path, strerror(errno));
		return (-1);
	}
	if ((*id = strtol(buf, NULL, 10)) <= 0) {
		*why = xasprintf("%s: no id", path);
		return (-1);
	}
	snprintf(path, sizeof path, "%s/%s/format", dir, event);
	if (cgroup_read(path, buf, len) != 0) {
		*why = xasprintf("%s: %s", path, strerror(errno));
		return (-1);
	}
	return (0);
}

/* The id of sched_waking and where its pid field is. */
static int
proc_event_format(const char *dir, struct proc_event_fmt *f, char **why)
{
	char	buf[4096];

	memset(f, 0, sizeof *f);
	if (proc_event_read_format(dir, PROC_EVENT_WAKEUP, &f->id, buf,
	    sizeof buf, why) != 0)
		return (-1);
	if ((f->pid = proc_event_field(buf, "pid", NULL)) < 0) {
		*why = xasprintf("%s/%s/format: no pid field", dir,
		    PROC_EVENT_WAKEUP);
		return (-1);
	}
	f->end = f->pid + 4;
	return (0);
}

/* The id of sched_switch and where its fields are; 0 or -1 with *why. */
static int
proc_event_format_switch(const char *dir, struct proc_event_fmt *f,
    char **why)
{
	char	buf[8192];
	int	size;

	memset(f, 0, sizeof *f);
	if (proc_event_read_format(dir, PROC_EVENT_SWITCH, &f->id, buf,
	    sizeof buf, why) != 0)
		return (-1);
	f->prev_pid = proc_event_field(buf, "prev_pid", NULL);
	f->prev_state = proc_event_field(buf, "prev_state",
	    &f->prev_state_size);
	f->next_pid = proc_event_field(buf, "next_pid", NULL);
	f->next_prio = proc_event_field(buf, "next_prio", &size);
	if (f->prev_pid < 0 || f->prev_state < 0 || f->next_pid < 0 ||
	    f->next_prio < 0 || size != 4 || (f->prev_state_size != 4 &&
	    f->prev_state_size != 8)) {
		*why = xasprintf("%s/%s/format: not the fields of "
		    "include/trace/events/sched.h", dir, PROC_EVENT_SWITCH);
		return (-1);
	}
	f->end = f->prev_pid + 4;
	if (f->prev_state + f->prev_state_size > f->end)
		f->end = f->prev_state + f->prev_state_size;
	if (f->next_pid + 4 > f->end)
		f->end = f->next_pid + 4;
	if (f->next_prio + 4 > f->end)
		f->end = f->next_prio + 4;
	return (0);
}

/*
 * Close an event whose ring is in the epoll set, taking it out first:
 * epoll forgets a file only when its last descriptor closes, and a child
 * forked since, stopped before its exec, holds a copy.  Left in, the
 * event, its ring unmapped, says EPOLLHUP at every wait: the loop spins.
 */
static void
proc_event_close_watched(struct proc_event *ev, int fd)
{
	(void)epoll_ctl(ev->epfd, EPOLL_CTL_DEL, fd, NULL);
	close(fd);
}

/* Close a set of events. */
static void
proc_event_close_block(struct proc_event *ev, struct proc_event_set *set,
    int i)
{
	if (set->bfd[i] == -1)
		return;
	munmap(set->bring[i], ev->blen);
	set->bring[i] = NULL;
	proc_event_close_watched(ev, set->bfd[i]);
	set->bfd[i] = -1;
}

static void
proc_event_close(struct proc_event *ev, struct proc_event_set *set)
{
	int	i;

	for (i = 0; i < set->n; i++) {
		if (set->sfd[i] != -1)
			close(set->sfd[i]);
		proc_event_close_block(ev, set, i);
		munmap(set->ring[i], ev->len);
		proc_event_close_watched(ev, set->fd[i]);
	}
	free(set->fd);
	free(set->sfd);
	free(set->bfd);
	free(set->cpu);
	free(set->ring);
	free(set->bring);
	memset(set, 0, sizeof *set);
}

/*
 * A tracepoint event of attr on cpu, under filter f (NULL: none): its fd,
 * or -1 with *why (naming what).
 */
static int
proc_event_open_cpu(struct perf_event_attr *attr, int cpu, const char *f,
    const char *what, char **why)
{
	int	fd;

	fd = (int)syscall(SYS_perf_event_open, attr, -1, cpu, -1,
	    PERF_FLAG_FD_CLOEXEC);
	if (fd == -1) {
		*why = xasprintf("perf_event_open %s cpu %d: %s", what, cpu,
		    strerror(errno));
		return (-1);
	}
	if (f != NULL && ioctl(fd, PERF_EVENT_IOC_SET_FILTER, f) != 0) {
		*why = xasprintf("%s filter \"%.40s\": %s", what, f,
		    strerror(errno));
		close(fd);
		return (-1);
	}
	return (fd);
}

/*
 * The sched_switch event of the CPU of set's ring i, under filter sf,
 * writing into that ring; 0, or -1 with *why (the set goes on without).
 */
static int
proc_event_open_switch(struct proc_event *ev, struct proc_event_set *set,
    int i, const char *sf, char **why)
{
	int	fd;

	if ((fd = proc_event_open_cpu(&ev->sattr, set->cpu[i], sf,
	    "sched_switch", why)) == -1)
		return (-1);
	if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, set->fd[i]) != 0 ||
	    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) != 0) {
		*why = xasprintf("sched_switch cpu %d: %s", set->cpu[i],
		    strerror(errno));
		close(fd);
		return (-1);
	}
	set->sfd[i] = fd;
	return (0);
}

/* Watch an event's ring in the epoll set, enabled if on; 0 or -1. */
static int
proc_event_watch(struct proc_event *ev, int fd, int on)
{
	struct epoll_event	ee;

	memset(&ee, 0, sizeof ee);
	ee.events = EPOLLIN;
	ee.data.fd = fd;
	if (epoll_ctl(ev->epfd, EPOLL_CTL_ADD, fd, &ee) != 0 ||
	    (on && ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) != 0))
		return (-1);
	return (0);
}

/*
 * The blocks' sched_switch event of the CPU of set's ring i, under
 * filter bf, with a ring of its own in the epoll set; 0, or -1 with *why
 * (the set goes on without: the loop then ticks every tick).
 */
static int
proc_event_open_block(struct proc_event *ev, struct proc_event_set *set,
    int i, const char *bf, char **why)
{
	int			fd;

	if ((fd = proc_event_open_cpu(&ev->battr, set->cpu[i], bf,
	    "sched_switch (blocks)", why)) == -1)
		return (-1);
	set->bring[i] = mmap(NULL, ev->blen, PROT_READ | PROT_WRITE,
	    MAP_SHARED, fd, 0);
	if (set->bring[i] == MAP_FAILED) {
		set->bring[i] = NULL;
		*why = xasprintf("mmap perf ring: %s", strerror(errno));
		close(fd);
		return (-1);
	}
	if (proc_event_watch(ev, fd, ev->block_on) != 0) {
		*why = xasprintf("enable sched_switch (blocks): %s",
		    strerror(errno));
		munmap(set->bring[i], ev->blen);
		set->bring[i] = NULL;
		proc_event_close_watched(ev, fd);
		return (-1);
	}
	set->bfd[i] = fd;
	return (0);
}

/*
 * Open a set of events under a filter for sched_waking (wf) and one for
 * sched_switch (sf), NULL: none; 0 or -1 with *why.  A sched_switch
 * that cannot be opened is left out (set->switches 0) and said: into
 * *swhy if swhy is not NULL, else in the log.
 */
static int
proc_event_open(struct proc_event *ev, struct proc_event_set *set,
    const char *wf, const char *sf, const char *bf, char **why, char **swhy)
{
	char			*first = NULL, *w;
	int			c, fd, i;

	memset(set, 0, sizeof *set);
	set->fd = xcalloc(ev->ncpu, sizeof *set->fd);
	set->sfd = xcalloc(ev->ncpu, sizeof *set->sfd);
	set->bfd = xcalloc(ev->ncpu, sizeof *set->bfd);
	set->cpu = xcalloc(ev->ncpu, sizeof *set->cpu);
	set->ring = xcalloc(ev->ncpu, sizeof *set->ring);
	set->bring = xcalloc(ev->ncpu, sizeof *set->bring);
	for (c = 0; c < ev->ncpu; c++) {
		fd = (int)syscall(SYS_perf_event_open, &ev->attr, -1, c, -1,
		    PERF_FLAG_FD_CLOEXEC);
		if (fd == -1) {
			if (errno == ENODEV || errno == EINVAL)
				continue;	/* an offline CPU */
			*why = xasprintf("perf_event_open sched_waking cpu "
			    "%d: %s", c, strerror(errno));
			goto fail;
		}
		if (wf != NULL &&
		    ioctl(fd, PERF_EVENT_IOC_SET_FILTER, wf) != 0) {
			*why = xasprintf("sched_waking filter: %s",
			    strerror(errno));
			close(fd);
			goto fail;
		}
		set->ring[set->n] = mmap(NULL, ev->len, PROT_READ | PROT_WRITE,
		    MAP_SHARED, fd, 0);
		if (set->ring[set->n] == MAP_FAILED) {
			*why = xasprintf("mmap perf ring: %s", strerror(errno));
			close(fd);
			goto fail;
		}
		set->sfd[set->n] = -1;
		set->bfd[set->n] = -1;
		set->cpu[set->n] = c;
		set->fd[set->n++] = fd;
		if (proc_event_watch(ev, fd, 1) != 0) {
			*why = xasprintf("enable sched_waking: %s",
			    strerror(errno));
			goto fail;
		}
	}
	if (set->n == 0) {
		*why = xstrdup("no CPU to open sched_waking on");
		goto fail;
	}
	set->switches = ev->has_switch;
	for (i = 0; i < set->n && ev->has_switch; i++) {
		w = NULL;
		if (proc_event_open_switch(ev, set, i, sf, &w) == 0)
			continue;
		set->switches = 0;
		if (first == NULL)
			first = w;
		else
			free(w);
	}
	if (first != NULL && swhy != NULL)
		*swhy = first;
	else if (first != NULL) {
		log_warnx("%s: no kernel runs, running tasks polled", first);
		free(first);
	}
	/*
	 * The blocks' events, only beside every CPU's switches; all or
	 * none (and, refused once, never tried again: said once).
	 */
	set->blocks = set->switches && ev->has_block && bf != NULL;
	first = NULL;
	for (i = 0; i < set->n && set->blocks; i++) {
		if (proc_event_open_block(ev, set, i, bf, &first) == 0)
			continue;
		set->blocks = 0;
		ev->has_block = 0;
		log_warnx("%s: the clock ticks every tick", first);
		free(first);
		while (i-- > 0)
			proc_event_close_block(ev, set, i);
	}
	return (0);
fail:
	proc_event_close(ev, set);
	return (-1);
}

/*
 * Open the events, their records to go to calls (proc-ring.c hands them
 * on); 0, or -1 with *why (the caller polls /proc then).  Without
 * sched_switch (ev->switch_why says why) wakes still come from events.
 */
int
proc_event_start(struct procs *ps, const struct proc_ring_calls *calls,
    char **why)
{
	struct proc_event	*ev;
	const char		*dir;
	long			 page = sysconf(_SC_PAGESIZE);
	char			*swhy = NULL;

	if (geteuid() != 0) {
		*why = xstrdup("not root");
		return (-1);
	}
	if ((dir = proc_event_tracefs(why)) == NULL)
		return (-1);
	ev = xcalloc(1, sizeof *ev);
	ev->epfd = -1;
	ev->calls = *calls;
	if (proc_event_format(dir, &ev->wake, why) != 0) {
		free(ev);
		return (-1);
	}
	ev->ncpu = (int)sysconf(_SC_NPROCESSORS_CONF);
	ev->data = (size_t)page * PROC_EVENT_PAGES;
	ev->len = (size_t)page * (1 + PROC_EVENT_PAGES);
	ev->tmp = xmalloc(65536);
	/* No children yet: no events open until procs_spawn adds one. */
	ps->ev = ev;
	ev->attr.size = sizeof ev->attr;
	ev->attr.type = PERF_TYPE_TRACEPOINT;
	ev->attr.config = (uint64_t)ev->wake.id;
	ev->attr.sample_period = 1;
	ev->attr.disabled = 1;		/* enabled once filtered */
	/* The time of each record, on our clock: the delay to act on it. */
	ev->attr.sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_RAW;
	ev->attr.use_clockid = 1;
	ev->attr.clockid = CLOCK_MONOTONIC;
	/* Readable (epoll) at every record: a wake is acted on at once. */
	ev->attr.wakeup_events = 1;
	/*
	 * sched_switch: the same records into the same ring (one clock, as
	 * SET_OUTPUT requires), but no wake-up of ours for them (no
	 * wakeup_events: the ring's watermark, half of it, only: once per
	 * 16 KB of records): they are read with the wakes and before each
	 * tick.
	 */
	ev->sattr = ev->attr;
	ev->sattr.wakeup_events = 0;
	/* The blocks': readable at every record, in a ring of 1 page. */
	ev->battr = ev->attr;
	ev->blen = (size_t)page * 2;
	if ((ev->epfd = epoll_create1(EPOLL_CLOEXEC)) == -1) {
		*why = xasprintf("epoll_create1: %s", strerror(errno));
		proc_event_stop(ps);
		return (-1);
	}
	if (proc_event_format_switch(dir, &ev->sw, &swhy) == 0) {
		ev->sattr.config = (uint64_t)ev->sw.id;
		ev->battr.config = (uint64_t)ev->sw.id;
		ev->has_switch = 1;
		ev->has_block = 1;
	}
	/* Can we?  The set is opened for real once there are children. */
	if (proc_event_open(ev, &ev->set, "pid < 0", "prev_pid < 0",
	    "(" PROC_EVENT_BLOCKS ") && prev_pid < 0", why,
	    swhy == NULL ? &swhy : NULL) != 0) {
		free(swhy);
		proc_event_stop(ps);
		return (-1);
	}
	if (!ev->set.switches)
		ev->has_switch = 0;
	if (!ev->set.blocks)
		ev->has_block = 0;
	ev->switch_why = swhy;
	proc_event_close(ev, &ev->set);
	return (0);
}

/* Are the children's switches read (sched_switch events)? */
int
proc_event_switches(struct procs *ps)
{
	return (ps->ev != NULL && ps->ev->has_switch &&
	    ps->ev->set.switches);
}

/* Are the blocks of the children read by an event of their own? */
int
proc_event_blocks(struct procs *ps)
{
	return (proc_event_switches(ps) && ps->ev->set.blocks);
}

/* And do they wake the loop (procs_block_wakeups)? */
int
proc_event_blocks_on(struct procs *ps)
{
	return (ps->ev != NULL && ps->ev->block_on);
}

/*
 * Let the children's blocks wake the loop, or not (the default): only a
 * caller that sleeps through quiet ticks needs them (procs_quiet); one
 * that ticks every tick reads the blocks at the tick, and would only be
 * woken for nothing.  The blocks' events stay open, disabled.
 */
void
procs_block_wakeups(struct procs *ps, int on)
{
	struct proc_event_set	*set;
	int			 i;

	if (ps->ev == NULL || ps->ev->block_on == on)
		return;
	ps->ev->block_on = on;
	set = &ps->ev->set;
	for (i = 0; i < set->n && set->blocks; i++)
		ioctl(set->bfd[i], on ? PERF_EVENT_IOC_ENABLE :
		    PERF_EVENT_IOC_DISABLE, 0);
}

/* Why not, if not (NULL: they are, or no events at all). */
const char *
proc_event_switch_why(struct procs *ps)
{
	return (ps->ev != NULL ? ps->ev->switch_why : NULL);
}

/* Close the events. */
void
proc_event_stop(struct procs *ps)
{
	struct proc_event	*ev = ps->ev;

	if (ev == NULL)
		return;
	proc_event_close(ev, &ev->set);
	if (ev->epfd != -1)
		close(ev->epfd);
	free(ev->tmp);
	free(ev->switch_why);
	free(ev);
	ps->ev = NULL;
}

/*
 * Name the pids of our children in the tracepoints' filters, so that the
 * kernel records (and wakes us for) their wake-ups and switches only,
 * not every one on the machine: "pid == A || ..." for sched_waking,
 * "prev_pid == A || next_pid == A || ..." for sched_switch.  Rebuilt
 * when a task's members changed (ps->members_changed, set by
 * proc-sample.c), so a tick with none pays nothing; past what the kernel
 * takes in one filter, the range of them.
 */
void
proc_event_filter(struct procs *ps)
{
	struct proc_event	*ev = ps->ev;
	struct proc		*p;
	pid_t			 lo = 0, hi = 0, pid;
	struct proc_event_set	 set;
	char			*wf, *sf, *bf, *why = NULL;
	size_t			 wlen = 0, slen = 0, blen;
	int			 i, j, n = 0, over = 0;

	if (!ps->members_changed)
		return;
	ps->members_changed = 0;
	for (i = 1; i < ps->nt; i++) {
		if ((p = ps->t[i]) == NULL || !p->live)
			continue;
		for (j = 0; j < p->nm; j++) {
			pid = p->m[j].pid;
			if (n == 0 || pid < lo)
				lo = pid;
			if (n == 0 || pid > hi)
				hi = pid;
			n++;
		}
	}
	wf = xmalloc(PROC_EVENT_FILTER + 64);
	sf = xmalloc(PROC_EVENT_FILTER + 64);
	bf = xmalloc(PROC_EVENT_FILTER + 64);
	wf[0] = sf[0] = '\0';
	blen = (size_t)snprintf(bf, 64, "(%s) && (", PROC_EVENT_BLOCKS);
	for (i = 1; i < ps->nt && n > 0 && !over; i++) {
		if ((p = ps->t[i]) == NULL || !p->live)
			continue;
		for (j = 0; j < p->nm; j++) {
			if (slen > PROC_EVENT_FILTER - 64) {
				over = 1;
				break;
			}
			pid = p->m[j].pid;
			wlen += (size_t)snprintf(wf + wlen, 64, "%spid == %ld",
			    wlen > 0 ? " || " : "", (long)pid);
			slen += (size_t)snprintf(sf + slen, 64, "%sprev_pid == "
			    "%ld || next_pid == %ld", slen > 0 ? " || " : "",
			    (long)pid, (long)pid);
			blen += (size_t)snprintf(bf + blen, 64, "%sprev_pid == "
			    "%ld", bf[blen - 1] != '(' ? " || " : "",
			    (long)pid);
		}
	}
	snprintf(bf + blen, 64, ")");
	if (over) {
		snprintf(wf, PROC_EVENT_FILTER, "pid >= %ld && pid <= %ld",
		    (long)lo, (long)hi);
		snprintf(sf, PROC_EVENT_FILTER, "(prev_pid >= %ld && prev_pid "
		    "<= %ld) || (next_pid >= %ld && next_pid <= %ld)",
		    (long)lo, (long)hi, (long)lo, (long)hi);
		snprintf(bf, PROC_EVENT_FILTER, "(%s) && prev_pid >= %ld && "
		    "prev_pid <= %ld", PROC_EVENT_BLOCKS, (long)lo, (long)hi);
	}
	/* The new set first, so that no wake falls between the two. */
	if (n == 0)
		memset(&set, 0, sizeof set);
	else if (proc_event_open(ev, &set, wf, sf, bf, &why, NULL) != 0) {
		log_warnx("%s: all wake-ups and switches read", why);
		free(why);
		why = NULL;
		if (proc_event_open(ev, &set, NULL, NULL, NULL, &why,
		    NULL) != 0) {
			log_warnx("%s", why);
			free(why);
			ps->ev_lost = 1;	/* the /proc safety net */
		}
	}
	ev->read_ns = monotonic_ns();
	proc_ring_read_set(ps, &ev->set, NULL);
	proc_event_close(ev, &ev->set);
	ev->set = set;
	free(wf);
	free(sf);
	free(bf);
}
