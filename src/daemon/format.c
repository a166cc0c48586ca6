/*
 * format.c -- the data lines made of engine snapshots: a task line and a
 * cpu line, in the order and with the keys fields.c writes down.
 */
#include <event2/buffer.h>

#include <stdio.h>
#include <string.h>

#include "cpumask.h"
#include "format.h"
#include "tables.h"
#include "table.h"
#include "fields.h"

/* The protocol's name for a task's state. */
const char *
format_state_name(const struct engine_task_info *ti)
{
	switch (ti->state) {
	case ENGINE_RUNNABLE:
		return (ti->running ? "running" : "runnable");
	case ENGINE_EXITED:
		return ("exited");
	default:
		return ("sleeping");
	}
}

/* Why a task ended, as the engine knows it. */
const char *
format_exit_name(enum engine_exit why)
{
	switch (why) {
	case ENGINE_EXIT_RUNTIME:
		return ("runtime");
	case ENGINE_EXIT_KILLED:
		return ("killed");
	case ENGINE_EXIT_DONE:
		return ("done");
	default:
		return ("-");
	}
}

/* A value the line may not know (a sim task's pid, an idle CPU's rank). */
static void
format_out_num(struct protocol_out *o, int known, long long v)
{
	if (known)
		protocol_out_num(o, v);
	else
		protocol_out_str(o, "-");
}

/* The same for a count (CPU time, ms stolen). */
static void
format_out_unum(struct protocol_out *o, int known, unsigned long long v)
{
	if (known)
		protocol_out_unum(o, v);
	else
		protocol_out_str(o, "-");
}

/*
 * Append " NAME=value" for each of a policy's quantities (names: its
 * comma-separated list, n of them), but for a name the line has
 * already (the staircase's iter).  SPEC.md section 10: what the
 * policy's picture draws, so the client computes none of it.
 */
static void
format_policy_fields(struct protocol_out *o, const char *names, int n,
    const int64_t *v, const struct wire_line *line)
{
	const char	*p = names, *q;
	char		 key[32];
	size_t		 len;
	int		 i, hint = 0;

	for (i = 0; i < n && p != NULL && *p != '\0'; i++, p = q) {
		if ((q = strchr(p, ',')) != NULL)
			len = (size_t)(q++ - p);
		else
			len = strlen(p);
		if (len == 0 || len >= sizeof key)
			continue;
		memcpy(key, p, len);
		key[len] = '\0';
		if (wire_find(line, key, &hint) >= 0)
			continue;
		protocol_out_str(o, " ");
		protocol_out_str(o, key);
		protocol_out_str(o, "=");
		protocol_out_num(o, v[i]);
	}
}

/*
 * One task line: fields.c's order, values from ti (a task of e) and real,
 * then the policy's own quantities (format_policy_fields).  iter= is
 * the policy's field of that name (the staircase's k), else 1.
 */
size_t
format_task_line(char *buf, size_t len, const struct engine *e,
    const struct engine_task_info *ti, const struct format_real *real)
{
	const struct wire_line	*line = &wire_task;
	struct protocol_out	 o = { buf, 0, len };
	const struct engine_policy *pol;
	const char		*group = NULL;
	char			 cpus[160], ex[96];
	int			 i, started, iter;

	if (len == 0)
		return (0);
	buf[0] = '\0';
	started = real != NULL && real->pid > 0;
	iter = engine_policy_field(engine_get_policy(e), "iter");
	if (ti->group >= 0)
		group = engine_group_name(e, ti->group);
	for (i = 0; i < line->n; i++) {
		/* Real tasks only: sim lines stay as they were. */
		if (line->order[i] == WIRE_TASK_STOLEN &&
		    ti->kind != ENGINE_REAL)
			continue;
		protocol_out_key(&o, line, i);
		switch ((enum wire_task)line->order[i]) {
		case WIRE_TASK_ID:
			protocol_out_num(&o, ti->id);
			break;
		case WIRE_TASK_NAME:
			protocol_out_str(&o, ti->name);
			break;
		case WIRE_TASK_KIND:
			protocol_out_str(&o, ti->kind == ENGINE_REAL ? "real" :
			    "sim");
			break;
		case WIRE_TASK_PID:
			format_out_num(&o, started, started ? real->pid : 0);
			break;
		case WIRE_TASK_NICE:
			protocol_out_num(&o, ti->nice);
			break;
		case WIRE_TASK_CPU:
			format_out_num(&o, ti->cpu >= 0, ti->cpu);
			break;
		case WIRE_TASK_RANK:
			protocol_out_num(&o, ti->rank);
			break;
		case WIRE_TASK_ITER:
			protocol_out_num(&o, iter >= 0 ? ti->field[iter] : 1);
			break;
		case WIRE_TASK_LEFT:
			protocol_out_num(&o, ti->left);
			break;
		case WIRE_TASK_STATE:
			protocol_out_str(&o, format_state_name(ti));
			break;
		case WIRE_TASK_RAN:
			protocol_out_unum(&o, ti->ran);
			break;
		case WIRE_TASK_CPUTIME:
			format_out_unum(&o, started, started ?
			    real->cputime_ms : 0);
			break;
		case WIRE_TASK_STOLEN:
			format_out_unum(&o, started, started ?
			    real->stolen_ms : 0);
			break;
		case WIRE_TASK_CPUS:
			protocol_out_str(&o, cpumask_format(&ti->allowed, cpus,
			    sizeof cpus));
			break;
		case WIRE_TASK_GROUP:
			protocol_out_str(&o, group != NULL ? group : "-");
			break;
		case WIRE_TASK_EXIT:
			if (real != NULL && real->exit != NULL &&
			    real->exit[0] != '\0' &&
			    ti->exit != ENGINE_EXIT_RUNTIME)
				protocol_word(real->exit, ex, sizeof ex);
			else
				protocol_word(format_exit_name(ti->exit), ex,
				    sizeof ex);
			protocol_out_str(&o, ex);
			break;
		case WIRE_TASK_SLICE:
			protocol_out_num(&o, ti->slice);
			break;
		case WIRE_TASK_TOP:
			protocol_out_num(&o, ti->top);
			break;
		case WIRE_TASK_BOTTOM:
			protocol_out_num(&o, ti->bottom);
			break;
		case WIRE_TASK_MAX:
			break;
		}
	}
	pol = engine_get_policy(e);
	if (pol->fields != NULL)
		format_policy_fields(&o, pol->fields, pol->nfields, ti->field,
		    line);
	return (o.len);
}

/*
 * One cpu line of engine e: an idle CPU (task=0) has no rank, iter or
 * left; iter is the policy's field of that name, else 1.  Then the
 * policy's quantities of the runqueue (its rq_fields), and, for a
 * policy whose runqueue is a queue (rr), order= its ids in run order.
 */
size_t
format_cpu_line(char *buf, size_t len, const struct engine *e,
    const struct engine_cpu_info *ci)
{
	const struct wire_line	*line = &wire_cpu;
	struct protocol_out	 o = { buf, 0, len };
	const struct engine_policy *pol;
	int64_t			 rq[ENGINE_MAX_RQ_FIELDS];
	int			 ids[ENGINE_ORDER_MAX];
	int			 i, iter, n;

	if (len == 0)
		return (0);
	buf[0] = '\0';
	iter = engine_policy_field(engine_get_policy(e), "iter");
	for (i = 0; i < line->n; i++) {
		protocol_out_key(&o, line, i);
		switch ((enum wire_cpu)line->order[i]) {
		case WIRE_CPU_ID:
			protocol_out_num(&o, ci->cpu);
			break;
		case WIRE_CPU_TASK:
			protocol_out_num(&o, ci->task);
			break;
		case WIRE_CPU_NR:
			protocol_out_num(&o, ci->nr);
			break;
		case WIRE_CPU_RANK:
		case WIRE_CPU_ITER:
		case WIRE_CPU_LEFT:
			format_out_num(&o, ci->task != 0, line->order[i] ==
			    WIRE_CPU_RANK ? ci->rank : line->order[i] ==
			    WIRE_CPU_LEFT ? ci->left : iter >= 0 ?
			    ci->field[iter] : 1);
			break;
		case WIRE_CPU_MAX:
			break;
		}
	}
	pol = engine_get_policy(e);
	if ((n = engine_cpu_rq(e, ci->cpu, rq)) > 0)
		format_policy_fields(&o, pol->rq_fields, n, rq, line);
	if ((n = engine_cpu_order(e, ci->cpu, ids)) >= 0) {
		protocol_out_str(&o, " order=");
		if (n == 0)
			protocol_out_str(&o, "-");
		for (i = 0; i < n; i++) {
			if (i > 0)
				protocol_out_str(&o, ",");
			protocol_out_num(&o, ids[i]);
		}
	}
	return (o.len);
}

/*
 * The table's lines for a task: a header, then one row per descent kept,
 * oldest first, with the ticks run on each stair from Base down.  There
 * are as many columns as the task has stairs now, or more if it ran
 * lower before a renice.  The counts are up to tick now, which the
 * line says (now=): the tick shown (session_tables gives the past's
 * counts while the past is shown).  descent= is the descent ti is in
 * then: right after a fall-off, one no row counts yet.
 */
void
format_table_lines(const struct tables *l, const struct engine *e,
    const struct engine_task_info *ti, uint64_t now, struct evbuffer *out)
{
	const struct table	*t = tables_table(l, ti->id);
	const uint32_t		*ticks;
	uint32_t		 d;
	size_t			 i, n;
	int			 j, cols, id = ti->id, rr, k;

	rr = engine_params(e)->rr_interval;
	k = engine_policy_field(engine_get_policy(e), "descent");
	cols = table_columns(t, ti->prio);
	n = t != NULL ? table_nrows(t) : 0;
#define K(id)	wire_key(&wire_table, id)
	evbuffer_add_printf(out, "%s %s=%d %s=%s %s=%d %s=%d %s=%d %s=%zu "
	    "%s=%llu %s=%llu %s=%lu", wire_table.word, K(WIRE_TABLE_TASK), id,
	    K(WIRE_TABLE_NAME), ti->name, K(WIRE_TABLE_BASE), ti->prio,
	    K(WIRE_TABLE_STAIRS), cols, K(WIRE_TABLE_RR), rr,
	    K(WIRE_TABLE_ROWS), n, K(WIRE_TABLE_DROPPED),
	    t != NULL ? (unsigned long long)table_dropped(t) : 0ULL,
	    K(WIRE_TABLE_NOW), (unsigned long long)now,
	    K(WIRE_TABLE_DESCENT), k >= 0 ? (unsigned long)ti->field[k] : 1UL);
	/* Counted again from a keyframe after tick 0 (session.c). */
	if (tables_since(l) > 0)
		evbuffer_add_printf(out, " %s=%llu", K(WIRE_TABLE_SINCE),
		    (unsigned long long)tables_since(l));
#undef K
	evbuffer_add(out, "\n", 1);
	for (i = 0; i < n; i++) {
		d = table_row(t, i, &ticks);
		evbuffer_add_printf(out, "%s %s=%u %s=", wire_row.word,
		    wire_key(&wire_row, WIRE_ROW_ITER), d,
		    wire_key(&wire_row, WIRE_ROW_TICKS));
		for (j = 0; j < cols; j++)
			evbuffer_add_printf(out, "%s%u", j == 0 ? "" : ",",
			    ticks[j]);
		evbuffer_add(out, "\n", 1);
	}
}
