/*
 * ktrace.c -- read one line of a scheduler trace (ktrace.h).
 *
 * An event line of all three forms has the same spine: who was on the
 * CPU, the CPU as "[NNN]", perhaps the irq/preempt flags ("d..2."), the
 * time "SECONDS.FRACTION:", the event's name and its text:
 *
 *	perf script:	   perf  1873 [000]  2266.041994:  sched:sched_switch: ...
 *	tracefs trace:	   grep-1769  [001] d..2.  2258.332480: sched_switch: ...
 *	trace-cmd report:  grep-1769  [001]  2258.332480: sched_switch: ...
 *
 * perf names its events with their system ("sched:"), the others do
 * not.  The text of sched_switch and sched_wakeup comes in two styles:
 * the kernel's own key=value (tracefs, perf) and the short one of
 * libtraceevent's plugin (trace-cmd report, older perf):
 *
 *	prev_comm=grep prev_pid=1769 prev_prio=120 prev_state=D ==>
 *	    next_comm=swapper/1 next_pid=0 next_prio=120
 *	grep:1769 [120] D ==> swapper/1:0 [120]
 *	comm=grep pid=1769 prio=120 target_cpu=001
 *	grep:1769 [120] CPU:001            (or: ... success=1 CPU:001)
 *
 * Names (comm) may hold spaces, so each field is found by the marker
 * that follows it.  Which form a trace is shows in its headers (tracefs:
 * "# tracer:", "#P:N"; trace-cmd: "cpus=N", "version = N") and its
 * lines; a trace that changes its mind
 * is "a mix of formats".  Lost events are counted from the lines that
 * say so: "CPU:N [LOST M EVENTS]" (tracefs), "CPU:N [M EVENTS DROPPED]"
 * (trace-cmd), perf's "PERF_RECORD_LOST ... lost M" and "CPU N: M
 * events lost".
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktrace.h"
#include "xmalloc.h"

/* Start reading a new trace. */
void
ktrace_init(struct ktrace *kt)
{
	memset(kt, 0, sizeof *kt);
}

/* The form the lines so far have shown. */
enum ktrace_form
ktrace_form(const struct ktrace *kt)
{
	if (kt->family == 1)
		return (KTRACE_PERF);
	if (kt->tracecmd_line != 0 || kt->style == 2)
		return (KTRACE_TRACECMD);
	if (kt->family == 2 || kt->tracefs_line != 0)
		return (KTRACE_TRACEFS);
	return (KTRACE_UNKNOWN);
}

/* A form's name, for messages and the scenario's header. */
const char *
ktrace_form_name(enum ktrace_form f)
{
	switch (f) {
	case KTRACE_PERF:
		return ("perf script");
	case KTRACE_TRACEFS:
		return ("tracefs trace");
	case KTRACE_TRACECMD:
		return ("trace-cmd report");
	default:
		return ("unknown");
	}
}

/* Skip spaces and tabs. */
static char *
ktrace_skip(char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return (p);
}

/* A decimal int at p (a '-' allowed if neg); its end in *end, or NULL. */
static int
ktrace_int(const char *p, int neg, char **end, long long max, long long *out)
{
	long long	v = 0;
	int		minus = 0;

	if (neg && *p == '-') {
		minus = 1;
		p++;
	}
	if (!isdigit((unsigned char)*p))
		return (-1);
	while (isdigit((unsigned char)*p)) {
		v = v * 10 + (*p++ - '0');
		if (v > max)
			return (-1);
	}
	*end = (char *)p;
	*out = minus ? -v : v;
	return (0);
}

/* A pid: 0..2^31-1, ending at one of stops (or the end). */
static int
ktrace_pid(const char *p, const char *stops, char **end, int *pid)
{
	long long	v;

	if (ktrace_int(p, 0, end, 0x7fffffff, &v) != 0)
		return (-1);
	if (**end != '\0' && strchr(stops, **end) == NULL)
		return (-1);
	*pid = (int)v;
	return (0);
}

/*
 * A priority: a signed int; old perf printed a deadline task's -1 as
 * 4294967295, which is -1 again here.
 */
static int
ktrace_prio(const char *p, char **end, int *prio)
{
	long long	v;

	if (ktrace_int(p, 1, end, 0xffffffffLL, &v) != 0)
		return (-1);
	if (v > 0x7fffffffLL)
		v = (int)(unsigned)v;
	if (v <= KTRACE_NOPRIO || v > 1000)
		v = -1;
	*prio = (int)v;
	return (0);
}

/* Copy n bytes of a name (cut to fit). */
static void
ktrace_comm(char *dst, const char *src, size_t n)
{
	if (n > KTRACE_COMM_MAX)
		n = KTRACE_COMM_MAX;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/*
 * key=value text: the value of key, which starts at p (after "key=")
 * and ends where next (" next_key=") begins; NULL if there is none.
 */
static char *
ktrace_kv(char *s, const char *key, const char *next, char **vend)
{
	char	*p, *e;

	if ((p = strstr(s, key)) == NULL)
		return (NULL);
	p += strlen(key);
	if (next == NULL) {
		e = p + strcspn(p, " \t");
	} else if ((e = strstr(p, next)) == NULL)
		return (NULL);
	*vend = e;
	return (p);
}

/* "comm=X pid=N prio=P ..." into t (prio optional). */
static int
ktrace_kv_task(char *s, struct ktrace_task *t)
{
	char	*v, *e;

	t->prio = KTRACE_NOPRIO;
	if ((v = ktrace_kv(s, "comm=", " pid=", &e)) == NULL)
		return (-1);
	ktrace_comm(t->comm, v, (size_t)(e - v));
	if (ktrace_pid(e + 5, " \t", &e, &t->pid) != 0)
		return (-1);
	if ((v = strstr(e, "prio=")) != NULL &&
	    ktrace_prio(v + 5, &e, &t->prio) != 0)
		return (-1);
	return (0);
}

/*
 * The short "comm:pid [prio]" at s..end (end at the "]"); the prio is
 * in the last " [" of the span.
 */
static int
ktrace_short_task(char *s, char *end, struct ktrace_task *t)
{
	char	*b, *colon, *e;

	*end = '\0';
	if ((b = strrchr(s, '[')) == NULL || b == s || b[-1] != ' ')
		return (-1);
	if (ktrace_prio(b + 1, &e, &t->prio) != 0 || *e != '\0')
		return (-1);
	b[-1] = '\0';
	if ((colon = strrchr(s, ':')) == NULL)
		return (-1);
	if (ktrace_pid(colon + 1, "", &e, &t->pid) != 0)
		return (-1);
	ktrace_comm(t->comm, s, (size_t)(colon - s));
	return (0);
}

/* What a prev_state says: preempted (R, R+) or dead (X, Z). */
static int
ktrace_state(const char *s, size_t n, struct ktrace_event *ev)
{
	size_t	i;

	if (n == 0)
		return (-1);
	ev->preempted = s[0] == 'R';
	ev->dead = 0;
	for (i = 0; i < n; i++) {
		if (s[i] == 'X' || s[i] == 'Z')
			ev->dead = 1;
	}
	return (0);
}

/* Keep the style of switch and wakeup text one throughout. */
static int
ktrace_style(struct ktrace *kt, int style, int lineno, char **cause)
{
	if (kt->style == 0) {
		kt->style = style;
		kt->style_line = lineno;
		return (0);
	}
	if (kt->style == style)
		return (0);
	*cause = xasprintf("a mix of formats: %s text here, %s at line %d",
	    style == 1 ? "key=value" : "trace-cmd's short",
	    kt->style == 1 ? "key=value" : "trace-cmd's short",
	    kt->style_line);
	return (-1);
}

/* An event's text that does not read as its kind's: -1, *cause. */
static int
ktrace_unreadable(const char *name, char **cause)
{
	*cause = xasprintf("%s: cannot read its text", name);
	return (-1);
}

/* sched_switch's text into ev. */
static int
ktrace_switch(struct ktrace *kt, char *s, int lineno, struct ktrace_event *ev,
    char **cause)
{
	char	*v, *e, *arrow;

	if ((arrow = strstr(s, " ==> ")) == NULL)
		goto bad;
	if (strncmp(s, "prev_comm=", 10) == 0) {
		if (ktrace_style(kt, 1, lineno, cause) != 0)
			return (-1);
		if ((v = ktrace_kv(s, "prev_comm=", " prev_pid=", &e)) == NULL)
			goto bad;
		ktrace_comm(ev->a.comm, v, (size_t)(e - v));
		if (ktrace_pid(e + 10, " ", &e, &ev->a.pid) != 0 ||
		    strncmp(e, " prev_prio=", 11) != 0 ||
		    ktrace_prio(e + 11, &e, &ev->a.prio) != 0 ||
		    strncmp(e, " prev_state=", 12) != 0)
			goto bad;
		v = e + 12;
		if (ktrace_state(v, strcspn(v, " "), ev) != 0)
			goto bad;
		if ((v = ktrace_kv(arrow, "next_comm=", " next_pid=",
		    &e)) == NULL)
			goto bad;
		ktrace_comm(ev->b.comm, v, (size_t)(e - v));
		if (ktrace_pid(e + 10, " ", &e, &ev->b.pid) != 0 ||
		    strncmp(e, " next_prio=", 11) != 0 ||
		    ktrace_prio(e + 11, &e, &ev->b.prio) != 0 ||
		    (*e != '\0' && *e != ' '))
			goto bad;
		return (0);
	}
	if (ktrace_style(kt, 2, lineno, cause) != 0)
		return (-1);
	/* "prev:pid [prio] S ==> next:pid [prio]" */
	*arrow = '\0';
	if ((v = strrchr(s, ']')) == NULL)
		goto bad;
	e = ktrace_skip(v + 1);
	if (ktrace_state(e, strcspn(e, " "), ev) != 0)
		goto bad;
	if (ktrace_short_task(s, v, &ev->a) != 0)
		goto bad;
	s = arrow + 5;
	if ((v = strrchr(s, ']')) == NULL || *ktrace_skip(v + 1) != '\0')
		goto bad;
	if (ktrace_short_task(s, v, &ev->b) != 0)
		goto bad;
	return (0);
bad:
	return (ktrace_unreadable("sched_switch", cause));
}

/* sched_wakeup's or sched_wakeup_new's text into ev->a. */
static int
ktrace_wakeup(struct ktrace *kt, char *s, int lineno, struct ktrace_event *ev,
    const char *name, char **cause)
{
	char	*v;

	if (strncmp(s, "comm=", 5) == 0) {
		if (ktrace_style(kt, 1, lineno, cause) != 0)
			return (-1);
		if (ktrace_kv_task(s, &ev->a) != 0)
			goto bad;
		return (0);
	}
	if (ktrace_style(kt, 2, lineno, cause) != 0)
		return (-1);
	/* "comm:pid [prio] CPU:001" or "... success=1 CPU:001" */
	if ((v = strrchr(s, ']')) == NULL || strstr(v, "CPU:") == NULL)
		goto bad;
	if (ktrace_short_task(s, v, &ev->a) != 0)
		goto bad;
	return (0);
bad:
	return (ktrace_unreadable(name, cause));
}

/* sched_process_fork's text: parent in a, child in b. */
static int
ktrace_fork(char *s, struct ktrace_event *ev, char **cause)
{
	char	*v, *e;

	ev->a.prio = ev->b.prio = KTRACE_NOPRIO;
	if ((v = ktrace_kv(s, "comm=", " pid=", &e)) == NULL)
		goto bad;
	ktrace_comm(ev->a.comm, v, (size_t)(e - v));
	if (ktrace_pid(e + 5, " ", &e, &ev->a.pid) != 0)
		goto bad;
	if ((v = ktrace_kv(e, "child_comm=", " child_pid=", &e)) == NULL)
		goto bad;
	ktrace_comm(ev->b.comm, v, (size_t)(e - v));
	if (ktrace_pid(e + 11, " ", &e, &ev->b.pid) != 0)
		goto bad;
	return (0);
bad:
	return (ktrace_unreadable("sched_process_fork", cause));
}

/* Note the family of an event line: perf's, or the other two's. */
static int
ktrace_family(struct ktrace *kt, int family, int lineno, char **cause)
{
	if (kt->family == 0) {
		kt->family = family;
		kt->family_line = lineno;
	} else if (kt->family != family) {
		*cause = xasprintf("a mix of formats: a %s line after %s "
		    "lines (the first at line %d)", family == 1 ?
		    "perf script" : "tracefs or trace-cmd",
		    kt->family == 1 ? "perf script" : "tracefs or trace-cmd",
		    kt->family_line);
		return (-1);
	}
	if (family == 1 && (kt->tracefs_line != 0 || kt->tracecmd_line != 0)) {
		*cause = xasprintf("a mix of formats: a perf script line "
		    "after a %s header (line %d)", kt->tracefs_line != 0 ?
		    "tracefs" : "trace-cmd", kt->tracefs_line != 0 ?
		    kt->tracefs_line : kt->tracecmd_line);
		return (-1);
	}
	return (0);
}

/* A header line of tracefs (1) or trace-cmd (2), noted. */
static int
ktrace_header(struct ktrace *kt, int which, int lineno, char **cause)
{
	if (which == 1 && kt->tracefs_line == 0)
		kt->tracefs_line = lineno;
	if (which == 2 && kt->tracecmd_line == 0)
		kt->tracecmd_line = lineno;
	if (kt->tracefs_line != 0 && kt->tracecmd_line != 0) {
		*cause = xasprintf("a mix of formats: tracefs's header at line "
		    "%d and trace-cmd's at line %d", kt->tracefs_line,
		    kt->tracecmd_line);
		return (-1);
	}
	if (kt->family == 1) {
		*cause = xasprintf("a mix of formats: a %s header after perf "
		    "script lines (the first at line %d)", which == 1 ?
		    "tracefs" : "trace-cmd", kt->family_line);
		return (-1);
	}
	return (0);
}

/* A line saying events were lost; 1 if it is one (counted), else 0. */
static int
ktrace_lost(struct ktrace *kt, const char *p, struct ktrace_event *ev)
{
	const char		*q;
	unsigned long long	 n = 0;
	int			 cpu = -1, used = 0;

	if (sscanf(p, "CPU:%d [LOST %llu EVENTS]%n", &cpu, &n, &used) == 2 &&
	    used > 0)
		goto lost;
	used = 0;
	if (sscanf(p, "CPU:%d [%llu EVENTS DROPPED]%n", &cpu, &n, &used) ==
	    2 && used > 0)
		goto lost;
	used = 0;
	if (sscanf(p, "CPU:%d [EVENTS DROPPED]%n", &cpu, &used) == 1 &&
	    used > 0) {
		n = 1;		/* how many it does not say */
		goto lost;
	}
	used = 0;
	if (sscanf(p, "CPU %d: %llu events lost%n", &cpu, &n, &used) == 2 &&
	    used > 0)
		goto lost;
	if ((q = strstr(p, "PERF_RECORD_LOST")) != NULL) {
		cpu = -1;
		if ((q = strstr(q, "lost ")) == NULL ||
		    sscanf(q, "lost %llu", &n) != 1)
			n = 1;
		goto lost;
	}
	return (0);
lost:
	if (cpu < 0 || cpu > 4095)
		cpu = -1;
	kt->lost += n;
	kt->lost_marks++;
	ev->cpu = cpu;
	return (1);
}

/* The time "SECONDS.FRACTION" at p in ns; its end in *end. */
static int
ktrace_time(const char *p, char **end, uint64_t *ns)
{
	long long	secs;
	uint64_t	frac = 0;
	int		digits = 0;
	char		*e;

	if (ktrace_int(p, 0, &e, 9999999999LL, &secs) != 0 || *e != '.')
		return (-1);
	p = e + 1;
	if (!isdigit((unsigned char)*p))
		return (-1);
	while (isdigit((unsigned char)*p)) {
		if (digits < 9) {
			frac = frac * 10 + (uint64_t)(*p - '0');
			digits++;
		}
		p++;
	}
	for (; digits < 9; digits++)
		frac *= 10;
	*ns = (uint64_t)secs * 1000000000ULL + frac;
	*end = (char *)p;
	return (0);
}

/*
 * The spine of an event line: the CPU, the time, the event's name and
 * its text.  0, or -1 if the line has no such spine.
 */
static int
ktrace_spine(char *line, int *cpu, uint64_t *ts, char **name, char **text)
{
	char		*p, *e, *colon;
	long long	 v;

	for (p = line; (p = strchr(p, '[')) != NULL; p++) {
		if (p == line || (p[-1] != ' ' && p[-1] != '\t'))
			continue;
		if (ktrace_int(p + 1, 0, &e, 4095, &v) != 0 || *e != ']' ||
		    (e[1] != ' ' && e[1] != '\t'))
			continue;
		*cpu = (int)v;
		p = ktrace_skip(e + 1);
		/* The flags ("d..2."), where they are printed. */
		if (ktrace_time(p, &e, ts) != 0 || *e != ':') {
			p = ktrace_skip(p + strcspn(p, " \t"));
			if (ktrace_time(p, &e, ts) != 0 || *e != ':')
				return (-1);
		}
		p = ktrace_skip(e + 1);
		/* perf -F period: a count before the name. */
		if (isdigit((unsigned char)*p)) {
			e = p + strspn(p, "0123456789");
			if (*e == ' ' || *e == '\t')
				p = ktrace_skip(e);
		}
		if ((colon = strstr(p, ": ")) == NULL) {
			colon = p + strlen(p);
			if (colon == p || colon[-1] != ':')
				return (-1);
			colon--;
			*colon = '\0';
			*text = colon;
		} else {
			*colon = '\0';
			*text = ktrace_skip(colon + 2);
		}
		*name = p;
		if (strcspn(p, " \t") != strlen(p) || *p == '\0')
			return (-1);
		return (0);
	}
	return (-1);
}

/* Lines that say nothing of events: headers, comments, notes. */
static int
ktrace_other(struct ktrace *kt, char *p, int lineno, char **cause)
{
	int	n, used = 0;

	if (*p == '#') {
		if (strstr(p, "tracer:") != NULL ||
		    strstr(p, "entries-in-buffer") != NULL) {
			if (ktrace_header(kt, 1, lineno, cause) != 0)
				return (-1);
		}
		if ((p = strstr(p, "#P:")) != NULL && sscanf(p, "#P:%d", &n) ==
		    1 && n > 0 && n <= 4096)
			kt->ncpus = n;
		return (1);
	}
	if (sscanf(p, "cpus=%d%n", &n, &used) == 1 && p[used] == '\0') {
		if (ktrace_header(kt, 2, lineno, cause) != 0)
			return (-1);
		if (n > 0 && n <= 4096)
			kt->ncpus = n;
		return (1);
	}
	used = 0;
	if ((sscanf(p, "version = %d%n", &n, &used) == 1 && p[used] == '\0') ||
	    (sscanf(p, "CPU %d is empty%n", &n, &used) == 1 &&
	    p[used] == '\0')) {
		if (ktrace_header(kt, 2, lineno, cause) != 0)
			return (-1);
		return (1);
	}
	return (0);
}

/*
 * Read one line (without its newline; it is cut up) into ev.  Returns
 * KTRACE_EVENT, KTRACE_LOST, KTRACE_NONE, or -1 with *cause (no FILE:
 * LINE: the caller knows them).
 */
int
ktrace_line(struct ktrace *kt, char *line, int lineno, struct ktrace_event *ev,
    char **cause)
{
	char	*p, *name, *text, *e;
	size_t	 len;
	int	 r, family;

	len = strlen(line);
	while (len > 0 && isspace((unsigned char)line[len - 1]))
		line[--len] = '\0';
	memset(ev, 0, sizeof *ev);
	p = ktrace_skip(line);
	if (*p == '\0')
		return (KTRACE_NONE);
	/*
	 * trace-cmd report of an instance's buffer (extract -B) puts the
	 * instance's name and a colon before every line: before an event
	 * the spine is found past it, before a CPU's note ("CPU 1 is
	 * empty", "CPU:1 [LOST 5 EVENTS]") it is dropped here.
	 */
	e = p + strcspn(p, " \t");
	if (e > p && e[-1] == ':' && strncmp(ktrace_skip(e), "CPU", 3) == 0)
		p = ktrace_skip(e);
	if ((r = ktrace_other(kt, p, lineno, cause)) != 0)
		return (r == 1 ? KTRACE_NONE : -1);
	if (ktrace_lost(kt, p, ev))
		return (KTRACE_LOST);
	/* perf's call chains: an address, indented. */
	if (p != line && isxdigit((unsigned char)*p) &&
	    strspn(p, "0123456789abcdefABCDEF") >= 4)
		return (KTRACE_NONE);
	if (ktrace_spine(line, &ev->cpu, &ev->ts, &name, &text) != 0) {
		*cause = xasprintf("not a line of perf script, a tracefs "
		    "trace or trace-cmd report");
		return (-1);
	}
	/* perf names the system ("sched:sched_switch"); the others not. */
	family = 2;
	if ((e = strchr(name, ':')) != NULL) {
		family = 1;
		name = e + 1;
	}
	if (ktrace_family(kt, family, lineno, cause) != 0)
		return (-1);
	if (strcmp(name, "sched_switch") == 0) {
		ev->kind = KTRACE_SWITCH;
		r = ktrace_switch(kt, text, lineno, ev, cause);
	} else if (strcmp(name, "sched_wakeup") == 0) {
		ev->kind = KTRACE_WAKEUP;
		r = ktrace_wakeup(kt, text, lineno, ev, name, cause);
	} else if (strcmp(name, "sched_wakeup_new") == 0) {
		ev->kind = KTRACE_WAKEUP_NEW;
		r = ktrace_wakeup(kt, text, lineno, ev, name, cause);
	} else if (strcmp(name, "sched_waking") == 0) {
		ev->kind = KTRACE_WAKING;
		if ((r = ktrace_kv_task(text, &ev->a)) != 0)
			r = ktrace_unreadable(name, cause);
	} else if (strcmp(name, "sched_process_fork") == 0) {
		ev->kind = KTRACE_FORK;
		r = ktrace_fork(text, ev, cause);
	} else if (strcmp(name, "sched_process_exit") == 0) {
		ev->kind = KTRACE_EXIT;
		if ((r = ktrace_kv_task(text, &ev->a)) != 0)
			r = ktrace_unreadable(name, cause);
	} else
		return (KTRACE_NONE);
	return (r == 0 ? KTRACE_EVENT : -1);
}
