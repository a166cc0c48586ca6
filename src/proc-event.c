/*
 * proc-event.c -- the children's wake-ups read from the kernel's own
 * scheduler events (SPEC.md section 8) instead of polling /proc.
 *
 * Where the daemon may (root), it opens the sched:sched_wakeup tracepoint
 * with perf_event_open on every online CPU (a wake-up is recorded on the
 * CPU that does it, which may be any), filtered to our children's pids,
 * each with a small ring buffer that is readable at every record (one
 * epoll descriptor over them, procs_event_fd): a record names the woken
 * thread, and a task we put to sleep because it blocked is acted on at
 * once from the caller's loop (procs_wakeups -> proc_enforce_wake: stop
 * what it preempts, or stop it until it is picked) and woken in the
 * engine at the next tick.  So blocked tasks are no longer read from /proc
 * each tick (only every PROC_EVENT_LOOK ticks, as a safety net for
 * threads other than a process's main one, which the records name by
 * their own tid).  perf_event_open rather than tracefs's trace_pipe: it
 * needs no global tracing state (the ftrace buffer and its enable files
 * are shared with anyone else tracing), is per CPU and is read without a
 * system call (a mmap'd ring).
 *
 * The tracepoint's id and the offset of its pid field are read from
 * tracefs, which a fresh machine may not have mounted: a root daemon then
 * mounts it at /sys/kernel/tracing and says so.  Without permission, or
 * without the tracepoint, the caller keeps polling /proc (observe=proc).
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
#include "proc.h"
#include "xmalloc.h"

#define PROC_EVENT_PAGES	8	/* ring data pages per CPU (32 KB) */
#define PROC_EVENT_TRACEFS	"/sys/kernel/tracing"
#define PROC_EVENT_DEBUGFS	"/sys/kernel/debug/tracing"
#define PROC_EVENT_WAKEUP	"events/sched/sched_wakeup"
#define PROC_EVENT_FILTER	4000	/* the kernel takes up to a page */
#define PROC_EVENT_LAT		4096	/* wake delays kept */

/* One tracepoint event and ring per online CPU, under one filter. */
struct proc_event_set {
	int		 n;
	int		*fd;
	char	       **ring;		/* mmap'd: control page, then data */
};

/*
 * The event reader.  The kernel takes a tracepoint event's filter once
 * only (EEXIST after), so when the children's pids change a new set is
 * opened under the new filter before the old one is drained and closed.
 */
struct proc_event {
	struct proc_event_set	 set;
	struct perf_event_attr	 attr;
	int			 ncpu;
	size_t			 len;		/* mmap length */
	size_t			 data;		/* data bytes (a power of two) */
	int			 off_pid;	/* of the woken pid, raw record */
	char			*tmp;		/* a record that wraps the ring */
	int			 epfd;		/* epoll over the ring fds */
	uint64_t		 lat[PROC_EVENT_LAT];	/* wake to signal, ns */
	uint64_t		 nlat;
};

static void	proc_event_read_set(struct procs *, struct proc_event_set *);

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

/* The id of sched_wakeup and the offset of its pid field. */
static int
proc_event_format(const char *dir, long *id, int *off, char **why)
{
	char	path[256], buf[4096], *p;

	snprintf(path, sizeof path, "%s/%s/id", dir, PROC_EVENT_WAKEUP);
	if (cgroup_read(path, buf, sizeof buf) != 0) {
		*why = xasprintf("%s: %s", path, strerror(errno));
		return (-1);
	}
	if ((*id = strtol(buf, NULL, 10)) <= 0) {
		*why = xasprintf("%s: no id", path);
		return (-1);
	}
	snprintf(path, sizeof path, "%s/%s/format", dir, PROC_EVENT_WAKEUP);
	if (cgroup_read(path, buf, sizeof buf) != 0 ||
	    (p = strstr(buf, " pid;")) == NULL ||
	    (p = strstr(p, "offset:")) == NULL) {
		*why = xasprintf("%s: no pid field", path);
		return (-1);
	}
	*off = atoi(p + 7);
	return (0);
}

/* Close a set of events. */
static void
proc_event_close(struct proc_event *ev, struct proc_event_set *set)
{
	int	i;

	for (i = 0; i < set->n; i++) {
		munmap(set->ring[i], ev->len);
		close(set->fd[i]);
	}
	free(set->fd);
	free(set->ring);
	memset(set, 0, sizeof *set);
}

/* Open a set of events under a filter (NULL: none); 0 or -1 with *why. */
static int
proc_event_open(struct proc_event *ev, struct proc_event_set *set,
    const char *filter, char **why)
{
	struct epoll_event	ee;
	int			c, fd;

	memset(set, 0, sizeof *set);
	set->fd = xcalloc(ev->ncpu, sizeof *set->fd);
	set->ring = xcalloc(ev->ncpu, sizeof *set->ring);
	for (c = 0; c < ev->ncpu; c++) {
		fd = (int)syscall(SYS_perf_event_open, &ev->attr, -1, c, -1,
		    PERF_FLAG_FD_CLOEXEC);
		if (fd == -1) {
			if (errno == ENODEV || errno == EINVAL)
				continue;	/* an offline CPU */
			*why = xasprintf("perf_event_open sched_wakeup cpu "
			    "%d: %s", c, strerror(errno));
			goto fail;
		}
		if (filter != NULL &&
		    ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter) != 0) {
			*why = xasprintf("sched_wakeup filter: %s",
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
		set->fd[set->n++] = fd;
		memset(&ee, 0, sizeof ee);
		ee.events = EPOLLIN;
		ee.data.fd = fd;
		if (epoll_ctl(ev->epfd, EPOLL_CTL_ADD, fd, &ee) != 0 ||
		    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) != 0) {
			*why = xasprintf("enable sched_wakeup: %s",
			    strerror(errno));
			goto fail;
		}
	}
	if (set->n == 0) {
		*why = xstrdup("no CPU to open sched_wakeup on");
		goto fail;
	}
	return (0);
fail:
	proc_event_close(ev, set);
	return (-1);
}

/* Open the events; 0, or -1 with *why (the caller polls /proc then). */
int
proc_event_start(struct procs *ps, char **why)
{
	struct proc_event	*ev;
	const char		*dir;
	long			 id, page = sysconf(_SC_PAGESIZE);
	int			 off;

	if (geteuid() != 0) {
		*why = xstrdup("not root");
		return (-1);
	}
	if ((dir = proc_event_tracefs(why)) == NULL)
		return (-1);
	if (proc_event_format(dir, &id, &off, why) != 0)
		return (-1);
	ev = xcalloc(1, sizeof *ev);
	ev->ncpu = (int)sysconf(_SC_NPROCESSORS_CONF);
	ev->data = (size_t)page * PROC_EVENT_PAGES;
	ev->len = (size_t)page * (1 + PROC_EVENT_PAGES);
	ev->off_pid = off;
	ev->tmp = xmalloc(65536);
	/* No children yet: no events open until procs_spawn adds one. */
	ps->ev = ev;
	ev->attr.size = sizeof ev->attr;
	ev->attr.type = PERF_TYPE_TRACEPOINT;
	ev->attr.config = (uint64_t)id;
	ev->attr.sample_period = 1;
	ev->attr.disabled = 1;		/* enabled once filtered */
	/* The time of each record, on our clock: the delay to act on it. */
	ev->attr.sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_RAW;
	ev->attr.use_clockid = 1;
	ev->attr.clockid = CLOCK_MONOTONIC;
	/* Readable (epoll) at every record: a wake is acted on at once. */
	ev->attr.wakeup_events = 1;
	if ((ev->epfd = epoll_create1(EPOLL_CLOEXEC)) == -1) {
		*why = xasprintf("epoll_create1: %s", strerror(errno));
		proc_event_stop(ps);
		return (-1);
	}
	/* Can we?  The set is opened for real once there are children. */
	if (proc_event_open(ev, &ev->set, "pid < 0", why) != 0) {
		proc_event_stop(ps);
		return (-1);
	}
	proc_event_close(ev, &ev->set);
	return (0);
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
	free(ev);
	ps->ev = NULL;
}

/*
 * Name the pids of our children in the tracepoint's filter, so that the
 * kernel records (and wakes us for) their wake-ups only, not every
 * wake-up on the machine.  Rebuilt when a task's members changed
 * (ps->members_changed, set by proc-sample.c), so a tick with none pays
 * nothing; past what the kernel takes in one filter, the range of them.
 */
void
proc_event_filter(struct procs *ps)
{
	struct proc_event	*ev = ps->ev;
	struct proc		*p;
	pid_t			 lo = 0, hi = 0, pid;
	struct proc_event_set	 set;
	char			*f, *why = NULL;
	size_t			 len = 0;
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
	f = xmalloc(PROC_EVENT_FILTER + 64);
	f[0] = '\0';
	for (i = 1; i < ps->nt && n > 0 && !over; i++) {
		if ((p = ps->t[i]) == NULL || !p->live)
			continue;
		for (j = 0; j < p->nm; j++) {
			if (len > PROC_EVENT_FILTER - 32) {
				over = 1;
				break;
			}
			len += (size_t)snprintf(f + len, 64, "%spid == %ld",
			    len > 0 ? " || " : "", (long)p->m[j].pid);
		}
	}
	if (over)
		snprintf(f, PROC_EVENT_FILTER, "pid >= %ld && pid <= %ld",
		    (long)lo, (long)hi);
	/* The new set first, so that no wake falls between the two. */
	if (n == 0)
		memset(&set, 0, sizeof set);
	else if (proc_event_open(ev, &set, f, &why) != 0) {
		log_warnx("%s: all wake-ups read", why);
		free(why);
		why = NULL;
		if (proc_event_open(ev, &set, NULL, &why) != 0) {
			log_warnx("%s", why);
			free(why);
			ps->ev_lost = 1;	/* the /proc safety net */
		}
	}
	proc_event_read_set(ps, &ev->set);
	proc_event_close(ev, &ev->set);
	ev->set = set;
	free(f);
}

/*
 * A wake-up of pid at time ts: mark the task we put to sleep that it
 * belongs to, and act on it at once (proc_enforce_wake).
 */
static void
proc_event_wakeup(struct procs *ps, pid_t pid, uint64_t ts)
{
	struct proc	*p;
	int		 i, j;

	for (i = 1; i < ps->nt; i++) {
		if ((p = ps->t[i]) == NULL || !p->live || !p->watch)
			continue;
		for (j = 0; j < p->nm; j++) {
			if (p->m[j].pid == pid) {
				if (!p->ev_woken) {
					p->ev_woken = 1;
					proc_enforce_wake(ps, p, ts);
				}
				return;
			}
		}
	}
}

/* The delay from a wake's record to the signal that acted on it. */
void
proc_event_delay(struct procs *ps, uint64_t ts)
{
	struct proc_event	*ev = ps->ev;
	uint64_t		 now = proc_now();

	if (ev == NULL || ts == 0 || now < ts)
		return;
	ev->lat[ev->nlat++ % PROC_EVENT_LAT] = now - ts;
}

/* Read every ring: the watched tasks woken since are acted on. */
void
proc_event_read(struct procs *ps)
{
	proc_event_read_set(ps, &ps->ev->set);
}

/* Read the rings of a set. */
static void
proc_event_read_set(struct procs *ps, struct proc_event_set *set)
{
	struct proc_event		*ev = ps->ev;
	struct perf_event_mmap_page	*mp;
	struct perf_event_header	 hdr;
	char				*data, *rec;
	uint64_t			 head, tail, ts;
	size_t				 off, first, raw;
	uint32_t			 size;
	int32_t				 pid;
	int				 i;

	raw = sizeof hdr + 8;	/* PERF_SAMPLE_TIME, then PERF_SAMPLE_RAW */
	for (i = 0; i < set->n; i++) {
		mp = (struct perf_event_mmap_page *)set->ring[i];
		data = set->ring[i] + ev->len - ev->data;
		head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
		tail = mp->data_tail;
		while (tail + sizeof hdr <= head) {
			off = tail & (ev->data - 1);
			first = ev->data - off;
			if (first >= sizeof hdr)
				memcpy(&hdr, data + off, sizeof hdr);
			else {
				memcpy(&hdr, data + off, first);
				memcpy((char *)&hdr + first, data,
				    sizeof hdr - first);
			}
			if (hdr.size < sizeof hdr || tail + hdr.size > head)
				break;
			if (first >= hdr.size)
				rec = data + off;
			else {
				memcpy(ev->tmp, data + off, first);
				memcpy(ev->tmp + first, data, hdr.size - first);
				rec = ev->tmp;
			}
			/* u64 time; u32 size, then the raw entry. */
			if (hdr.type == PERF_RECORD_SAMPLE && hdr.size >=
			    raw + 4 + (size_t)ev->off_pid + 4) {
				memcpy(&ts, rec + sizeof hdr, 8);
				memcpy(&size, rec + raw, 4);
				memcpy(&pid, rec + raw + 4 + ev->off_pid, 4);
				if (size >= (uint32_t)ev->off_pid + 4)
					proc_event_wakeup(ps, (pid_t)pid, ts);
			} else if (hdr.type == PERF_RECORD_LOST)
				ps->ev_lost = 1;
			tail += hdr.size;
		}
		__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
	}
}

/* The descriptor to watch for wakes (readable: call procs_wakeups). */
int
procs_event_fd(struct procs *ps)
{
	return (ps->ev != NULL ? ps->ev->epfd : -1);
}

/*
 * The event descriptor is readable: take its readiness and act on the
 * wakes recorded since (the loop calls this as soon as one arrives).
 */
void
procs_wakeups(struct procs *ps)
{
	struct epoll_event	ee[16];

	if (ps->ev == NULL)
		return;
	while (epoll_wait(ps->ev->epfd, ee, 16, 0) == 16)
		;
	proc_event_read(ps);
}

/* Compare two delays, for qsort. */
static int
proc_event_cmp(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y ? -1 : x > y);
}

/*
 * The delays from a wake's event to the stop or continue that acted on
 * it, over the last PROC_EVENT_LAT wakes: how many, the median and the
 * 99th percentile in ns.  0 without events or wakes.
 */
size_t
procs_wake_delay(struct procs *ps, uint64_t *median, uint64_t *p99)
{
	struct proc_event	*ev = ps->ev;
	uint64_t		*v;
	size_t			 n;

	*median = *p99 = 0;
	if (ev == NULL || ev->nlat == 0)
		return (0);
	n = ev->nlat < PROC_EVENT_LAT ? ev->nlat : PROC_EVENT_LAT;
	v = xreallocarray(NULL, n, sizeof *v);
	memcpy(v, ev->lat, n * sizeof *v);
	qsort(v, n, sizeof *v, proc_event_cmp);
	*median = v[n / 2];
	*p99 = v[(n * 99) / 100 < n ? (n * 99) / 100 : n - 1];
	free(v);
	return (n);
}
