/*
 * ktrace.h -- one line of a scheduler trace as text, in any of the three
 * forms the field's tools write (SPEC.md section 11): `perf script`
 * after `perf sched record`, tracefs's `trace` file, `trace-cmd report`.
 * The form is recognized from the lines, and a trace that mixes them is
 * refused.
 */
#ifndef STAIRS_KTRACE_H
#define STAIRS_KTRACE_H

#include <stddef.h>
#include <stdint.h>

#define KTRACE_COMM_MAX	63
#define KTRACE_NOPRIO	(-1000)	/* the line gives no priority */

enum ktrace_kind {
	KTRACE_SWITCH,		/* a: prev, b: next */
	KTRACE_WAKEUP,		/* a: the woken */
	KTRACE_WAKING,		/* a: the woken */
	KTRACE_WAKEUP_NEW,	/* a: the new task */
	KTRACE_FORK,		/* a: parent, b: child */
	KTRACE_EXIT		/* a: the task */
};

struct ktrace_task {
	char		comm[KTRACE_COMM_MAX + 1];
	int		pid;
	int		prio;		/* KTRACE_NOPRIO where none */
};

struct ktrace_event {
	enum ktrace_kind	kind;
	int			cpu;
	uint64_t		ts;		/* ns */
	struct ktrace_task	a, b;
	int			preempted;	/* switch: prev still runnable */
	int			dead;		/* switch: prev exits (X, Z) */
};

enum ktrace_form {
	KTRACE_UNKNOWN,
	KTRACE_PERF,		/* perf script */
	KTRACE_TRACEFS,		/* tracefs's trace file */
	KTRACE_TRACECMD		/* trace-cmd report */
};

/* What the lines so far said of the trace. */
struct ktrace {
	int		family;		/* 0 none yet, 1 perf, 2 text */
	int		family_line;
	int		style;		/* 0 none yet, 1 key=value, 2 short */
	int		style_line;
	int		tracefs_line;	/* a tracefs header was seen there */
	int		tracecmd_line;	/* a trace-cmd header or prefix */
	int		ncpus;		/* from a header; 0: none */
	uint64_t	lost;		/* events lost, as counted */
	int		lost_marks;	/* lines saying so */
};

/* What ktrace_line() found. */
enum {
	KTRACE_NONE,		/* a header, a comment, an event not used */
	KTRACE_EVENT,		/* *ev filled */
	KTRACE_LOST		/* events lost on ev->cpu (-1: any) */
};

void	ktrace_init(struct ktrace *);
int	ktrace_line(struct ktrace *, char *line, int lineno,
	    struct ktrace_event *ev, char **cause);
enum ktrace_form ktrace_form(const struct ktrace *);
const char *ktrace_form_name(enum ktrace_form);

#endif
