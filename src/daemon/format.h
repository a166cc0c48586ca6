/*
 * format.h -- task and cpu lines from engine snapshots (format.c).
 */
#ifndef STAIRS_FORMAT_H
#define STAIRS_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "protocol.h"

struct evbuffer;
struct tables;

/* The real-process part of a task line; NULL for scripted tasks. */
struct format_real {
	long		 pid;		/* 0: not started */
	uint64_t	 cputime_ms;
	uint64_t	 stolen_ms;	/* run while the engine had not picked it */
	const char	*exit;		/* "status=0"...; NULL: engine's */
};

/* Room for a cpu line: its fields, the policy's, rr's order of 64 ids. */
#define FORMAT_CPU_LINE_MAX	1024

/* A task line of engine e; real: its process's part, NULL for none. */
size_t	format_task_line(char *buf, size_t len, const struct engine *,
	    const struct engine_task_info *, const struct format_real *);
size_t	format_cpu_line(char *buf, size_t len, const struct engine *,
	    const struct engine_cpu_info *);
const char *format_state_name(const struct engine_task_info *);
const char *format_exit_name(enum engine_exit);
/*
 * The `table` reply's lines for task ti of engine e: a header, then a
 * row per descent kept; the counts are up to tick now (the tick shown).
 */
void	format_table_lines(const struct tables *, const struct engine *,
	    const struct engine_task_info *, uint64_t now, struct evbuffer *);

#endif
