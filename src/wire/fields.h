/*
 * fields.h -- the fields of the protocol's data lines (docs/PROTOCOL.md),
 * written down once: for each line its keyword, and for each field its
 * key, its type and where it comes in the line.  The daemon's formatter
 * (protocol.c) walks the task, cpu, status and frame lines' order and
 * writes each field (the others name their keys from here); the client's
 * parser (ui/model.c) reads every key by these names (wire_key), and the
 * task line through wire_find.  The task line's formatter and parser,
 * and the other walked formatters, switch over the enum with no default,
 * so a field added to an enum and its table (fields.c) is a compile error
 * (-Wswitch) until they handle it.
 *
 * To add a field: a WIRE_<LINE>_<KEY> id in its enum, its key and type
 * in fields.c's table (and its place in the line's order), a case in the
 * formatter (protocol.c) and one in the parser (ui/model.c).  A client
 * skips a key it does not know, so an older one still reads the line.
 */
#ifndef STAIRS_FIELDS_H
#define STAIRS_FIELDS_H

enum wire_type {
	WIRE_INT,		/* a decimal, maybe negative */
	WIRE_INT_DASH,		/* a decimal, or "-": none */
	WIRE_COUNT,		/* a decimal >= 0 that may exceed an int */
	WIRE_COUNT_DASH,	/* a count, or "-": none */
	WIRE_NUMBER,		/* a decimal fraction, "%g" (speed) */
	WIRE_WORD,		/* one word, no blanks */
	WIRE_LIST,		/* decimals joined by ',' */
	WIRE_TEXT		/* text=: the rest of the line, last */
};

#define WIRE_OPTIONAL	0x1	/* not on every line of its kind */

struct wire_field {
	const char	*key;
	enum wire_type	 type;
	int		 flags;
};

/* A kind of line: its keyword, its fields by id, their order on it. */
struct wire_line {
	const char		*word;
	const struct wire_field	*field;		/* indexed by the id */
	const int		*order;		/* ids in line order */
	int			 n;		/* in order */
};

/* task id=N name=W kind=sim|real pid=N|- ... (one per task) */
enum wire_task {
	WIRE_TASK_ID, WIRE_TASK_NAME, WIRE_TASK_KIND, WIRE_TASK_PID,
	WIRE_TASK_NICE, WIRE_TASK_CPU, WIRE_TASK_RANK, WIRE_TASK_ITER,
	WIRE_TASK_LEFT, WIRE_TASK_STATE, WIRE_TASK_RAN, WIRE_TASK_CPUTIME,
	WIRE_TASK_STOLEN, WIRE_TASK_CPUS, WIRE_TASK_GROUP, WIRE_TASK_EXIT,
	WIRE_TASK_SLICE, WIRE_TASK_TOP, WIRE_TASK_BOTTOM,
	WIRE_TASK_MAX
};

/* cpu id=N task=N nr=N rank=N|- iter=N|- left=N|- */
enum wire_cpu {
	WIRE_CPU_ID, WIRE_CPU_TASK, WIRE_CPU_NR, WIRE_CPU_RANK,
	WIRE_CPU_ITER, WIRE_CPU_LEFT,
	WIRE_CPU_MAX
};

/* The header fields of `frame` and `status` lines (each its own order). */
enum wire_head {
	WIRE_HEAD_TICK, WIRE_HEAD_CPUS, WIRE_HEAD_TASKS, WIRE_HEAD_PAUSED,
	WIRE_HEAD_SPEED, WIRE_HEAD_RR, WIRE_HEAD_CGROUPS, WIRE_HEAD_DROPPED,
	WIRE_HEAD_ALIVE, WIRE_HEAD_LAG, WIRE_HEAD_CLIENTS,
	WIRE_HEAD_SCENARIO, WIRE_HEAD_SLEEP, WIRE_HEAD_OBSERVE,
	WIRE_HEAD_POLICY, WIRE_HEAD_NOW, WIRE_HEAD_LIVE, WIRE_HEAD_DELTA,
	WIRE_HEAD_COMPARE, WIRE_HEAD_SHADOW, WIRE_HEAD_RECORD, WIRE_HEAD_TEXT,
	WIRE_HEAD_PICTURE, WIRE_HEAD_ASK, WIRE_HEAD_VOTES, WIRE_HEAD_PART,
	WIRE_HEAD_PARTS,
	WIRE_HEAD_MAX
};

/* scenario name=W file=W cpus=N tasks=N real=0|1 text=... */
enum wire_scenario {
	WIRE_SCEN_NAME, WIRE_SCEN_FILE, WIRE_SCEN_CPUS, WIRE_SCEN_TASKS,
	WIRE_SCEN_REAL, WIRE_SCEN_TEXT,
	WIRE_SCEN_MAX
};

/* choice n=N text=...: an open question's choice (SPEC.md section 12). */
enum wire_choice {
	WIRE_CHOICE_N, WIRE_CHOICE_TEXT,
	WIRE_CHOICE_MAX
};

/* mark, caption, event: KEYWORD tick=N text=... */
enum wire_text {
	WIRE_TEXT_TICK, WIRE_TEXT_TEXT,
	WIRE_TEXT_MAX
};

/* gone id=N: a delta frame's task that is no more. */
enum wire_gone {
	WIRE_GONE_ID,
	WIRE_GONE_MAX
};

/* table task=N name=W base=N stairs=N rr=N rows=N dropped=N now=N
 * [since=N] */
enum wire_table {
	WIRE_TABLE_TASK, WIRE_TABLE_NAME, WIRE_TABLE_BASE,
	WIRE_TABLE_STAIRS, WIRE_TABLE_RR, WIRE_TABLE_ROWS,
	WIRE_TABLE_DROPPED, WIRE_TABLE_NOW, WIRE_TABLE_DESCENT,
	WIRE_TABLE_SINCE,
	WIRE_TABLE_MAX
};

/* row iter=N ticks=N,N,... */
enum wire_row {
	WIRE_ROW_ITER, WIRE_ROW_TICKS,
	WIRE_ROW_MAX
};

/* runs cpu=N from=N ID:RANK*N,...: what a CPU ran (subscribe ... runs) */
enum wire_runs {
	WIRE_RUNS_CPU, WIRE_RUNS_FROM,
	WIRE_RUNS_MAX
};

/* view seq=N key=value ...: the presenter's view (subscribe ... view) */
enum wire_view {
	WIRE_VIEW_SEQ,
	WIRE_VIEW_MAX
};

/*
 * why cpu=N tick=N task=N text=...: why a CPU's runner changed, its
 * last (SPEC.md section 10); swhy, a shadow's, with policy=NAME.
 */
enum wire_why {
	WIRE_WHY_CPU, WIRE_WHY_TICK, WIRE_WHY_TASK, WIRE_WHY_POLICY,
	WIRE_WHY_TEXT,
	WIRE_WHY_MAX
};

/*
 * tally policy=NAME id=N ticks=N share=X ran=N runs=N lat_p50=N|-
 * lat_p95=N|- lat_max=N|-: what a task got under a policy since compare
 * started (SPEC.md section 10), as headless --compare counts it.
 */
enum wire_tally {
	WIRE_TALLY_POLICY, WIRE_TALLY_ID, WIRE_TALLY_TICKS, WIRE_TALLY_SHARE,
	WIRE_TALLY_RAN, WIRE_TALLY_RUNS, WIRE_TALLY_P50, WIRE_TALLY_P95,
	WIRE_TALLY_MAX,
	WIRE_TALLY_NFIELDS
};

/*
 * kruns cpu=N from=N ID*N,0*N,-*N,?*N,...: what the kernel ran there
 * (subscribe ... kruns); the fields are runs lines'.
 */

extern const struct wire_line wire_task, wire_cpu, wire_frame,
	    wire_status, wire_scenario, wire_mark, wire_caption, wire_event,
	    wire_gone, wire_table, wire_row, wire_runs, wire_kruns, wire_view,
	    wire_why, wire_swhy, wire_tally, wire_choice;

/* A field's key: wire_key(&wire_task, WIRE_TASK_NICE) is "nice". */
#define wire_key(line, id)	((line)->field[(id)].key)

int	wire_find(const struct wire_line *, const char *key, int *hint);

#endif
