/*
 * proc-ring.c -- the rings of the kernel's events read (proc-event.c
 * opens them): each record decoded (its time, its fields) and handed to
 * the call the events were started with for it (struct proc_ring_calls:
 * a wake to proc-wake.c, a switch and a loss of records to proc-kernel.c),
 * so that the reader calls nothing above it.  A ring is mmap'd and read
 * without a system call; the epoll descriptor over them is made unready
 * once read (see proc-event.c for why each record wakes the loop or not).
 *
 * And the delay from a wake's record to the signal that acted on it,
 * over the last PROC_EVENT_LAT wakes (procs_wake_delay), with the loop's
 * own part of it (procs_wake_own): the rings' reader knows when a read
 * began.
 */
#include <sys/epoll.h>

#include <stdlib.h>
#include <string.h>

#include "monotonic.h"
#include "proc-int.h"
#include "quantile.h"
#include "xmalloc.h"

/*
 * The delay from a wake's record to the signal that acted on it, and the
 * loop's own part of it: from when the loop began to read the rings that
 * held the record (its callback for their readiness, or the read after a
 * tick).  The rest is the kernel's wake-up of the loop, or a tick the
 * loop was running when the record came.
 */
void
proc_ring_delay(struct procs *ps, uint64_t ts)
{
	struct proc_event	*ev = ps->ev;
	uint64_t		 now = monotonic_ns();

	if (ev == NULL || ts == 0 || now < ts)
		return;
	/* A record written while the read was under way: from the record. */
	ev->own[ev->nlat % PROC_EVENT_LAT] = now - (ev->read_ns > ts ?
	    ev->read_ns : ts);
	ev->lat[ev->nlat++ % PROC_EVENT_LAT] = now - ts;
}

/*
 * Take the rings' readiness (the epoll descriptor's), so that records
 * read since do not wake the loop again.
 */
void
proc_ring_unready(struct procs *ps)
{
	struct epoll_event	ee[16];

	while (epoll_wait(ps->ev->epfd, ee, 16, 0) == 16)
		;
}

/*
 * Read every ring: the watched tasks woken since are acted on.  A wake
 * record makes the descriptor readable (wakeup_events 1; a switch record
 * does not, bar the watermark), and so does a block's (its own ring): if
 * any was read, take that readiness, then read what came in between, so
 * the loop is not woken again for what is read.  Our own SIGCONTs make
 * such records: sched_waking is written by the waker, so a continue's
 * record is in our CPU's ring, and its readiness set, when kill()
 * returns.
 */
void
proc_ring_read(struct procs *ps)
{
	int	blocks = 0;

	ps->ev->read_ns = monotonic_ns();
	if (proc_ring_read_set(ps, &ps->ev->set, &blocks) > 0 || blocks) {
		proc_ring_unready(ps);
		proc_ring_read_set(ps, &ps->ev->set, NULL);
	}
}

/*
 * A raw sched_switch record at ts on cpu: its fields, to the switch's
 * call (proc-kernel.c's).
 */
static void
proc_ring_switch(struct procs *ps, int cpu, uint64_t ts, const char *raw)
{
	struct proc_event	*ev = ps->ev;
	int32_t			 prev, next, prio, st32;
	int64_t			 st;

	memcpy(&prev, raw + ev->sw.prev_pid, 4);
	memcpy(&next, raw + ev->sw.next_pid, 4);
	memcpy(&prio, raw + ev->sw.next_prio, 4);
	if (ev->sw.prev_state_size == 8)
		memcpy(&st, raw + ev->sw.prev_state, 8);
	else {
		memcpy(&st32, raw + ev->sw.prev_state, 4);
		st = st32;
	}
	ev->calls.sw(ps, cpu, ts, (pid_t)prev, (long)st, (pid_t)next,
	    (int)prio);
}

/*
 * Read the rings of a set: each sample is u64 time, u32 size, then the
 * raw trace entry, whose first field (common_type, u16) is the id of the
 * tracepoint that wrote it, handed to the set's call for it (ev->calls:
 * a wake, a switch; a loss of records too).  Returns the number of wake
 * records read; *blocks (if not NULL) set when a blocks' ring held
 * records (emptied).
 */
size_t
proc_ring_read_set(struct procs *ps, struct proc_event_set *set,
    int *blocks)
{
	struct proc_event		*ev = ps->ev;
	struct perf_event_mmap_page	*mp;
	struct perf_event_header	 hdr;
	char				*data, *rec, *raw;
	uint64_t			 head, tail, ts;
	size_t				 off, first, at;
	uint32_t			 size;
	uint16_t			 type;
	int32_t				 pid;
	size_t				 n = 0;
	int				 i;

	at = sizeof hdr + 8;	/* PERF_SAMPLE_TIME, then PERF_SAMPLE_RAW */
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
			if (hdr.type == PERF_RECORD_SAMPLE &&
			    hdr.size >= at + 4 + 2) {
				memcpy(&ts, rec + sizeof hdr, 8);
				memcpy(&size, rec + at, 4);
				raw = rec + at + 4;
				memcpy(&type, raw, 2);
				if (size > hdr.size - at - 4)
					size = 0;
				if (type == ev->wake.id &&
				    size >= (uint32_t)ev->wake.end) {
					memcpy(&pid, raw + ev->wake.pid, 4);
					ev->calls.wake(ps, (pid_t)pid, ts);
					n++;
				} else if (ev->has_switch &&
				    type == ev->sw.id &&
				    size >= (uint32_t)ev->sw.end)
					proc_ring_switch(ps, set->cpu[i], ts,
					    raw);
			} else if (hdr.type == PERF_RECORD_LOST) {
				ps->ev_lost = 1;
				ps->evstats.lost++;
				ev->calls.lost(ps);
			}
			tail += hdr.size;
		}
		__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
		/* The blocks' ring: its records are read above; empty it. */
		if (set->bring[i] != NULL) {
			mp = (struct perf_event_mmap_page *)set->bring[i];
			head = __atomic_load_n(&mp->data_head,
			    __ATOMIC_ACQUIRE);
			if (head != mp->data_tail && blocks != NULL)
				*blocks = 1;
			__atomic_store_n(&mp->data_tail, head,
			    __ATOMIC_RELEASE);
		}
	}
	return (n);
}

/*
 * The median and 99th percentile of the delays (own: their loop's own
 * parts) over the last PROC_EVENT_LAT wakes; how many.
 */
static size_t
proc_ring_quantiles(struct procs *ps, int own, uint64_t *median,
    uint64_t *p99)
{
	struct proc_event	*ev = ps->ev;
	uint64_t		*v;
	size_t			 n;

	*median = *p99 = 0;
	if (ev == NULL || ev->nlat == 0)
		return (0);
	n = ev->nlat < PROC_EVENT_LAT ? ev->nlat : PROC_EVENT_LAT;
	v = xreallocarray(NULL, n, sizeof *v);
	memcpy(v, own ? ev->own : ev->lat, n * sizeof *v);
	quantile_sort(v, n);
	*median = v[n / 2];
	*p99 = v[(n * 99) / 100 < n ? (n * 99) / 100 : n - 1];
	free(v);
	return (n);
}

/*
 * The delays from a wake's event to the stop or continue that acted on
 * it, over the last PROC_EVENT_LAT wakes: how many, the median and the
 * 99th percentile in ns.  0 without events or wakes.
 */
size_t
procs_wake_delay(struct procs *ps, uint64_t *median, uint64_t *p99)
{
	return (proc_ring_quantiles(ps, 0, median, p99));
}

/*
 * Of those delays, the loop's own part: from when it began to read the
 * rings that held the wake to the signal (proc_ring_delay).
 */
size_t
procs_wake_own(struct procs *ps, uint64_t *median, uint64_t *p99)
{
	return (proc_ring_quantiles(ps, 1, median, p99));
}
