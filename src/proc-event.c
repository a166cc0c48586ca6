/*
 * proc-event.c -- the children's wake-ups read from the kernel's own
 * scheduler events (SPEC.md section 8) instead of polling /proc.
 *
 * Where the daemon may (root), it opens the sched:sched_wakeup tracepoint
 * with perf_event_open on every online CPU (a wake-up is recorded on the
 * CPU that does it, which may be any), each with a small ring buffer
 * read before each tick: a record names the woken thread, and a task we
 * put to sleep because it blocked is woken in the engine when one of its
 * processes is named.  So blocked tasks are no longer read from /proc
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
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/syscall.h>

#include <linux/perf_event.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "log.h"
#include "proc.h"
#include "xmalloc.h"

#define PROC_EVENT_PAGES	8	/* ring data pages per CPU (32 KB) */
#define PROC_EVENT_TRACEFS	"/sys/kernel/tracing"
#define PROC_EVENT_DEBUGFS	"/sys/kernel/debug/tracing"
#define PROC_EVENT_WAKEUP	"events/sched/sched_wakeup"

/* The event reader: one tracepoint event and ring per online CPU. */
struct proc_event {
	int		 n;
	int		*fd;
	char	       **ring;		/* mmap'd: control page, then data */
	size_t		 len;		/* mmap length */
	size_t		 data;		/* data bytes (a power of two) */
	int		 off_pid;	/* of the woken pid in a raw record */
	char		*tmp;		/* a record that wraps the ring */
	uint64_t	 records;	/* read, for the bench */
};

/* Read a small tracefs file into buf. */
static int
proc_event_read_file(const char *path, char *buf, size_t len)
{
	ssize_t	n;
	int	fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return (-1);
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return (-1);
	buf[n] = '\0';
	return (0);
}

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
	if (proc_event_read_file(path, buf, sizeof buf) != 0) {
		*why = xasprintf("%s: %s", path, strerror(errno));
		return (-1);
	}
	*id = strtol(buf, NULL, 10);
	snprintf(path, sizeof path, "%s/%s/format", dir, PROC_EVENT_WAKEUP);
	if (proc_event_read_file(path, buf, sizeof buf) != 0 ||
	    (p = strstr(buf, " pid;")) == NULL ||
	    (p = strstr(p, "offset:")) == NULL) {
		*why = xasprintf("%s: no pid field", path);
		return (-1);
	}
	*off = atoi(p + 7);
	return (0);
}

/* Open the events; 0, or -1 with *why (the caller polls /proc then). */
int
proc_event_start(struct procs *ps, char **why)
{
	struct perf_event_attr	 attr;
	struct proc_event	*ev;
	const char		*dir;
	long			 id, page = sysconf(_SC_PAGESIZE);
	int			 off, c, ncpu, fd;

	if (geteuid() != 0) {
		*why = xstrdup("not root");
		return (-1);
	}
	if ((dir = proc_event_tracefs(why)) == NULL)
		return (-1);
	if (proc_event_format(dir, &id, &off, why) != 0)
		return (-1);
	ncpu = (int)sysconf(_SC_NPROCESSORS_CONF);
	ev = xcalloc(1, sizeof *ev);
	ev->fd = xcalloc(ncpu, sizeof *ev->fd);
	ev->ring = xcalloc(ncpu, sizeof *ev->ring);
	ev->data = (size_t)page * PROC_EVENT_PAGES;
	ev->len = (size_t)page * (1 + PROC_EVENT_PAGES);
	ev->off_pid = off;
	ev->tmp = xmalloc(65536);
	ps->ev = ev;
	memset(&attr, 0, sizeof attr);
	attr.size = sizeof attr;
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = (uint64_t)id;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_RAW;
	for (c = 0; c < ncpu; c++) {
		fd = (int)syscall(SYS_perf_event_open, &attr, -1, c, -1,
		    PERF_FLAG_FD_CLOEXEC);
		if (fd == -1) {
			if (errno == ENODEV || errno == EINVAL)
				continue;	/* an offline CPU */
			*why = xasprintf("perf_event_open sched_wakeup cpu "
			    "%d: %s", c, strerror(errno));
			proc_event_stop(ps);
			return (-1);
		}
		ev->ring[ev->n] = mmap(NULL, ev->len, PROT_READ | PROT_WRITE,
		    MAP_SHARED, fd, 0);
		if (ev->ring[ev->n] == MAP_FAILED) {
			*why = xasprintf("mmap perf ring: %s", strerror(errno));
			close(fd);
			proc_event_stop(ps);
			return (-1);
		}
		ev->fd[ev->n++] = fd;
	}
	if (ev->n == 0) {
		*why = xstrdup("no CPU to open sched_wakeup on");
		proc_event_stop(ps);
		return (-1);
	}
	return (0);
}

/* Close the events. */
void
proc_event_stop(struct procs *ps)
{
	struct proc_event	*ev = ps->ev;
	int			 i;

	if (ev == NULL)
		return;
	for (i = 0; i < ev->n; i++) {
		munmap(ev->ring[i], ev->len);
		close(ev->fd[i]);
	}
	free(ev->fd);
	free(ev->ring);
	free(ev->tmp);
	free(ev);
	ps->ev = NULL;
}

/* A wake-up of pid: mark the task we put to sleep that it belongs to. */
static void
proc_event_wakeup(struct procs *ps, pid_t pid)
{
	struct proc	*p;
	int		 i, j;

	for (i = 1; i < ps->nt; i++) {
		if ((p = ps->t[i]) == NULL || !p->live || !p->watch)
			continue;
		for (j = 0; j < p->nm; j++) {
			if (p->m[j].pid == pid) {
				p->ev_woken = 1;
				return;
			}
		}
	}
}

/* Read every ring: mark the watched tasks that were woken since. */
void
proc_event_read(struct procs *ps)
{
	struct proc_event		*ev = ps->ev;
	struct perf_event_mmap_page	*mp;
	struct perf_event_header	 hdr;
	char				*data, *rec;
	uint64_t			 head, tail;
	size_t				 off, first;
	uint32_t			 size;
	int32_t				 pid;
	int				 i;

	for (i = 0; i < ev->n; i++) {
		mp = (struct perf_event_mmap_page *)ev->ring[i];
		data = ev->ring[i] + ev->len - ev->data;
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
			/* PERF_SAMPLE_RAW: u32 size, then the raw entry. */
			if (hdr.type == PERF_RECORD_SAMPLE && hdr.size >=
			    sizeof hdr + 4 + (size_t)ev->off_pid + 4) {
				memcpy(&size, rec + sizeof hdr, 4);
				memcpy(&pid, rec + sizeof hdr + 4 + ev->off_pid,
				    4);
				if (size >= (uint32_t)ev->off_pid + 4)
					proc_event_wakeup(ps, (pid_t)pid);
				ev->records++;
			} else if (hdr.type == PERF_RECORD_LOST)
				ps->ev_lost = 1;
			tail += hdr.size;
		}
		__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
	}
}
