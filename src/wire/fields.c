/*
 * fields.c -- the protocol's data lines, field by field (fields.h): the one
 * place a line's keys, their types and their order are written.  The
 * daemon formats from these tables (protocol.c, daemon/format.c) and the client
 * parses with them (ui/model.c); docs/PROTOCOL.md describes the same.
 */
#include <string.h>

#include "fields.h"

#define WIRE_N(a)	((int)(sizeof (a) / sizeof (a)[0]))
/* A line of keyword word with fields in the order given, or by id. */
#define WIRE_LINE_ORDER(word, fields, order) \
	{ (word), (fields), (order), WIRE_N(order) }
#define WIRE_LINE(word, fields) \
	{ (word), (fields), wire_ids, WIRE_N(fields) }

/* Identity orders: ids 0..N-1 (enough for the longest line). */
static const int wire_ids[] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18,
	19, 20, 21, 22, 23
};
/* Lines in id order read wire_ids up to their count. */
_Static_assert(WIRE_N(wire_ids) >= WIRE_TASK_MAX, "wire_ids too short");
_Static_assert(WIRE_N(wire_ids) >= WIRE_TABLE_MAX, "wire_ids too short");

static const struct wire_field wire_task_fields[WIRE_TASK_MAX] = {
	[WIRE_TASK_ID] =	{ "id", WIRE_INT, 0 },
	[WIRE_TASK_NAME] =	{ "name", WIRE_WORD, 0 },
	[WIRE_TASK_KIND] =	{ "kind", WIRE_WORD, 0 },	/* sim, real */
	[WIRE_TASK_PID] =	{ "pid", WIRE_INT_DASH, 0 },
	[WIRE_TASK_NICE] =	{ "nice", WIRE_INT, 0 },
	[WIRE_TASK_CPU] =	{ "cpu", WIRE_INT_DASH, 0 },
	[WIRE_TASK_RANK] =	{ "rank", WIRE_INT, 0 },
	[WIRE_TASK_ITER] =	{ "iter", WIRE_INT, 0 },
	[WIRE_TASK_LEFT] =	{ "left", WIRE_INT, 0 },
	[WIRE_TASK_STATE] =	{ "state", WIRE_WORD, 0 },
	[WIRE_TASK_RAN] =	{ "ran", WIRE_COUNT, 0 },
	[WIRE_TASK_CPUTIME] =	{ "cputime", WIRE_COUNT_DASH, 0 },
	/* Real tasks only: sim lines stay as they were. */
	[WIRE_TASK_STOLEN] =	{ "stolen", WIRE_COUNT_DASH, WIRE_OPTIONAL },
	[WIRE_TASK_CPUS] =	{ "cpus", WIRE_WORD, 0 },	/* a cpulist */
	[WIRE_TASK_GROUP] =	{ "group", WIRE_WORD, 0 },
	[WIRE_TASK_EXIT] =	{ "exit", WIRE_WORD, 0 },
	/* The policy's say (its info op): slice, the ranks it may take. */
	[WIRE_TASK_SLICE] =	{ "slice", WIRE_INT, 0 },
	[WIRE_TASK_TOP] =	{ "top", WIRE_INT, 0 },
	[WIRE_TASK_BOTTOM] =	{ "bottom", WIRE_INT, 0 },
};
const struct wire_line wire_task = WIRE_LINE("task", wire_task_fields);

static const struct wire_field wire_cpu_fields[WIRE_CPU_MAX] = {
	[WIRE_CPU_ID] =		{ "id", WIRE_INT, 0 },
	[WIRE_CPU_TASK] =	{ "task", WIRE_INT, 0 },	/* 0: idle */
	[WIRE_CPU_NR] =		{ "nr", WIRE_INT, 0 },
	[WIRE_CPU_RANK] =	{ "rank", WIRE_INT_DASH, 0 },
	[WIRE_CPU_ITER] =	{ "iter", WIRE_INT_DASH, 0 },
	[WIRE_CPU_LEFT] =	{ "left", WIRE_INT_DASH, 0 },
};
const struct wire_line wire_cpu = WIRE_LINE("cpu", wire_cpu_fields);

static const struct wire_field wire_head_fields[WIRE_HEAD_MAX] = {
	[WIRE_HEAD_TICK] =	{ "tick", WIRE_COUNT, 0 },	/* shown */
	[WIRE_HEAD_CPUS] =	{ "cpus", WIRE_INT, 0 },
	[WIRE_HEAD_TASKS] =	{ "tasks", WIRE_INT, 0 },
	[WIRE_HEAD_PAUSED] =	{ "paused", WIRE_INT, 0 },
	[WIRE_HEAD_SPEED] =	{ "speed", WIRE_NUMBER, 0 },
	[WIRE_HEAD_RR] =	{ "rr", WIRE_INT, 0 },
	[WIRE_HEAD_CGROUPS] =	{ "cgroups", WIRE_WORD, 0 },
	[WIRE_HEAD_DROPPED] =	{ "dropped", WIRE_COUNT, 0 },
	[WIRE_HEAD_ALIVE] =	{ "alive", WIRE_INT, 0 },
	[WIRE_HEAD_LAG] =	{ "lag", WIRE_COUNT, 0 },
	[WIRE_HEAD_CLIENTS] =	{ "clients", WIRE_INT, 0 },
	[WIRE_HEAD_SCENARIO] =	{ "scenario", WIRE_WORD, 0 },
	[WIRE_HEAD_SLEEP] =	{ "sleep", WIRE_INT, 0 },
	[WIRE_HEAD_OBSERVE] =	{ "observe", WIRE_WORD, 0 },
	[WIRE_HEAD_POLICY] =	{ "policy", WIRE_WORD, 0 },
	[WIRE_HEAD_NOW] =	{ "now", WIRE_COUNT, 0 },	/* present */
	[WIRE_HEAD_LIVE] =	{ "live", WIRE_INT, 0 },	/* tick==now */
	[WIRE_HEAD_DELTA] =	{ "delta", WIRE_INT, WIRE_OPTIONAL },
	/* compare NAME: the shadow's policy (status: or off). */
	[WIRE_HEAD_COMPARE] =	{ "compare", WIRE_WORD, 0 },
	/* frames: only while they carry scpu/stask lines. */
	[WIRE_HEAD_SHADOW] =	{ "shadow", WIRE_WORD, WIRE_OPTIONAL },
	/* status: the recording, on, off or failed (SPEC.md section 12). */
	[WIRE_HEAD_RECORD] =	{ "record", WIRE_WORD, WIRE_OPTIONAL },
	/* The room (SPEC.md section 12): open, revealed or none; the
	   votes per choice ("-": the question has no choices). */
	[WIRE_HEAD_ASK] =	{ "ask", WIRE_WORD, WIRE_OPTIONAL },
	[WIRE_HEAD_VOTES] =	{ "votes", WIRE_WORD, WIRE_OPTIONAL },
	/* A recording played (stairsd --replay): the part shown, of. */
	[WIRE_HEAD_PART] =	{ "part", WIRE_INT, WIRE_OPTIONAL },
	[WIRE_HEAD_PARTS] =	{ "parts", WIRE_INT, WIRE_OPTIONAL },
	/* status: the scenario's description, last (NULL: none). */
	[WIRE_HEAD_TEXT] =	{ "text", WIRE_TEXT, WIRE_OPTIONAL },
	/* The picture the enforced engine's policy is drawn with. */
	[WIRE_HEAD_PICTURE] =	{ "picture", WIRE_WORD, WIRE_OPTIONAL },
};
static const int wire_status_order[] = {
	WIRE_HEAD_TICK, WIRE_HEAD_CPUS, WIRE_HEAD_TASKS, WIRE_HEAD_PAUSED,
	WIRE_HEAD_SPEED, WIRE_HEAD_RR, WIRE_HEAD_CGROUPS, WIRE_HEAD_ALIVE,
	WIRE_HEAD_LAG, WIRE_HEAD_CLIENTS, WIRE_HEAD_SCENARIO, WIRE_HEAD_SLEEP,
	WIRE_HEAD_OBSERVE, WIRE_HEAD_POLICY, WIRE_HEAD_NOW, WIRE_HEAD_LIVE,
	WIRE_HEAD_COMPARE, WIRE_HEAD_RECORD, WIRE_HEAD_ASK, WIRE_HEAD_VOTES,
	WIRE_HEAD_PART, WIRE_HEAD_PARTS, WIRE_HEAD_PICTURE, WIRE_HEAD_TEXT
};
const struct wire_line wire_status = WIRE_LINE_ORDER("status",
    wire_head_fields, wire_status_order);
/* delta= only after `subscribe ... delta` (and then on every frame). */
static const int wire_frame_order[] = {
	WIRE_HEAD_TICK, WIRE_HEAD_CPUS, WIRE_HEAD_TASKS, WIRE_HEAD_PAUSED,
	WIRE_HEAD_SPEED, WIRE_HEAD_RR, WIRE_HEAD_DROPPED, WIRE_HEAD_ALIVE,
	WIRE_HEAD_LAG, WIRE_HEAD_SLEEP, WIRE_HEAD_POLICY, WIRE_HEAD_NOW,
	WIRE_HEAD_LIVE, WIRE_HEAD_SCENARIO, WIRE_HEAD_ASK, WIRE_HEAD_VOTES,
	WIRE_HEAD_PART, WIRE_HEAD_PARTS, WIRE_HEAD_DELTA, WIRE_HEAD_SHADOW,
	WIRE_HEAD_PICTURE
};
const struct wire_line wire_frame = WIRE_LINE_ORDER("frame",
    wire_head_fields, wire_frame_order);

static const struct wire_field wire_scenario_fields[WIRE_SCEN_MAX] = {
	[WIRE_SCEN_NAME] =	{ "name", WIRE_WORD, 0 },
	[WIRE_SCEN_FILE] =	{ "file", WIRE_WORD, 0 },	/* builtin */
	[WIRE_SCEN_CPUS] =	{ "cpus", WIRE_INT, 0 },
	[WIRE_SCEN_TASKS] =	{ "tasks", WIRE_INT, 0 },
	[WIRE_SCEN_REAL] =	{ "real", WIRE_INT, 0 },
	[WIRE_SCEN_TEXT] =	{ "text", WIRE_TEXT, 0 },	/* about it */
};
const struct wire_line wire_scenario = WIRE_LINE("scenario",
    wire_scenario_fields);

static const struct wire_field wire_choice_fields[WIRE_CHOICE_MAX] = {
	[WIRE_CHOICE_N] =	{ "n", WIRE_INT, 0 },		/* 1.. */
	[WIRE_CHOICE_TEXT] =	{ "text", WIRE_TEXT, 0 },
};
const struct wire_line wire_choice = WIRE_LINE("choice", wire_choice_fields);

static const struct wire_field wire_text_fields[WIRE_TEXT_MAX] = {
	[WIRE_TEXT_TICK] =	{ "tick", WIRE_COUNT, 0 },
	[WIRE_TEXT_TEXT] =	{ "text", WIRE_TEXT, 0 },
};
const struct wire_line wire_mark = WIRE_LINE("mark", wire_text_fields);
const struct wire_line wire_caption = WIRE_LINE("caption", wire_text_fields);
const struct wire_line wire_event = WIRE_LINE("event", wire_text_fields);

static const struct wire_field wire_gone_fields[WIRE_GONE_MAX] = {
	[WIRE_GONE_ID] =	{ "id", WIRE_INT, 0 },
};
const struct wire_line wire_gone = WIRE_LINE("gone", wire_gone_fields);

/* The run list after from= is no key=value field: it is the rest. */
static const struct wire_field wire_runs_fields[WIRE_RUNS_MAX] = {
	[WIRE_RUNS_CPU] =	{ "cpu", WIRE_INT, 0 },
	[WIRE_RUNS_FROM] =	{ "from", WIRE_COUNT, 0 },
};
const struct wire_line wire_runs = WIRE_LINE("runs", wire_runs_fields);
/* The kernel's runs: the same fields, a run list of its own grammar. */
const struct wire_line wire_kruns = WIRE_LINE("kruns", wire_runs_fields);

/* The presenter's pairs follow seq=, whatever their keys. */
static const struct wire_field wire_view_fields[WIRE_VIEW_MAX] = {
	[WIRE_VIEW_SEQ] =	{ "seq", WIRE_COUNT, 0 },
};
const struct wire_line wire_view = WIRE_LINE("view", wire_view_fields);

/* policy= on a shadow's (swhy) only; text= last. */
static const struct wire_field wire_why_fields[WIRE_WHY_MAX] = {
	[WIRE_WHY_CPU] =	{ "cpu", WIRE_INT, 0 },
	[WIRE_WHY_TICK] =	{ "tick", WIRE_COUNT, 0 },
	[WIRE_WHY_TASK] =	{ "task", WIRE_INT, 0 },	/* 0: idle */
	[WIRE_WHY_POLICY] =	{ "policy", WIRE_WORD, WIRE_OPTIONAL },
	[WIRE_WHY_TEXT] =	{ "text", WIRE_TEXT, 0 },
};
const struct wire_line wire_why = WIRE_LINE("why", wire_why_fields);
const struct wire_line wire_swhy = WIRE_LINE("swhy", wire_why_fields);

static const struct wire_field wire_tally_fields[WIRE_TALLY_NFIELDS] = {
	[WIRE_TALLY_POLICY] =	{ "policy", WIRE_WORD, 0 },
	[WIRE_TALLY_ID] =	{ "id", WIRE_INT, 0 },
	[WIRE_TALLY_TICKS] =	{ "ticks", WIRE_COUNT, 0 },	/* counted */
	[WIRE_TALLY_SHARE] =	{ "share", WIRE_NUMBER, 0 },	/* % of a CPU */
	[WIRE_TALLY_RAN] =	{ "ran", WIRE_COUNT, 0 },
	[WIRE_TALLY_RUNS] =	{ "runs", WIRE_COUNT, 0 },
	[WIRE_TALLY_P50] =	{ "lat_p50", WIRE_COUNT_DASH, 0 },
	[WIRE_TALLY_P95] =	{ "lat_p95", WIRE_COUNT_DASH, 0 },
	[WIRE_TALLY_MAX] =	{ "lat_max", WIRE_COUNT_DASH, 0 },
};
const struct wire_line wire_tally = WIRE_LINE("tally", wire_tally_fields);

static const struct wire_field wire_table_fields[WIRE_TABLE_MAX] = {
	[WIRE_TABLE_TASK] =	{ "task", WIRE_INT, 0 },
	[WIRE_TABLE_NAME] =	{ "name", WIRE_WORD, 0 },
	[WIRE_TABLE_BASE] =	{ "base", WIRE_INT, 0 },
	[WIRE_TABLE_STAIRS] =	{ "stairs", WIRE_INT, 0 },	/* columns */
	[WIRE_TABLE_RR] =	{ "rr", WIRE_INT, 0 },
	[WIRE_TABLE_ROWS] =	{ "rows", WIRE_COUNT, 0 },
	[WIRE_TABLE_DROPPED] =	{ "dropped", WIRE_COUNT, 0 },
	/* The tick the counts are up to: the tick shown. */
	[WIRE_TABLE_NOW] =	{ "now", WIRE_COUNT, 0 },
	/*
	 * The descent the task is in at now: the row its next tick counts
	 * in, one past the last row right after a fall-off.  Optional: a
	 * daemon before it did not say.
	 */
	[WIRE_TABLE_DESCENT] =	{ "descent", WIRE_COUNT, WIRE_OPTIONAL },
	/* Counts start there (the past counted again, session.c). */
	[WIRE_TABLE_SINCE] =	{ "since", WIRE_COUNT, WIRE_OPTIONAL },
};
const struct wire_line wire_table = WIRE_LINE("table", wire_table_fields);

static const struct wire_field wire_row_fields[WIRE_ROW_MAX] = {
	[WIRE_ROW_ITER] =	{ "iter", WIRE_COUNT, 0 },
	[WIRE_ROW_TICKS] =	{ "ticks", WIRE_LIST, 0 },
};
const struct wire_line wire_row = WIRE_LINE("row", wire_row_fields);

/*
 * The id of key on line, or -1.  *hint is where in the line's order to
 * look first, and is left just past the field found: a line read in its
 * order (as the daemon writes it) finds each key at the first compare.
 */
int
wire_find(const struct wire_line *line, const char *key, int *hint)
{
	int	i, id;

	if (*hint >= 0 && *hint < line->n) {
		id = line->order[*hint];
		if (key[0] == line->field[id].key[0] &&
		    strcmp(key, line->field[id].key) == 0) {
			(*hint)++;
			return (id);
		}
	}
	for (i = 0; i < line->n; i++) {
		id = line->order[i];
		if (key[0] == line->field[id].key[0] &&
		    strcmp(key, line->field[id].key) == 0) {
			*hint = i + 1;
			return (id);
		}
	}
	return (-1);
}
