/*
 * model-reply.c -- the replies to the commands the client sent, matched
 * in order (model_sent): their data lines (status; the article's table
 * and its rows; the scenarios and marks lists) are staged, and the
 * final line (ok/err) pops the command it answers and makes the staged
 * lines the model's if it was ok.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model-int.h"
#include "model.h"
#include "protocol.h"
#include "fields.h"
#include "xmalloc.h"

/* The keys of the lines read here, from fields.c. */
#define KX(k)	wire_key(&wire_mark, WIRE_TEXT_##k)
#define KT(k)	wire_key(&wire_table, WIRE_TABLE_##k)
#define KR(k)	wire_key(&wire_row, WIRE_ROW_##k)
#define KS(k)	wire_key(&wire_scenario, WIRE_SCEN_##k)

/* Read a `status` line: the daemon's state, and the scenario's text. */
static int
model_reply_status(struct model *m, struct proto_fields *f)
{
	long	now;

	if (model_parse_header(f, &m->tick, &m->paused, &m->speed, &m->rr,
	    &m->sleep_ms) != 0 || model_parse_session(f, &m->live, &now,
	    &m->alive, m->scenario, sizeof m->scenario) != 0)
		return (-1);
	m->now = now >= 0 ? now : m->tick;
	/* The scenario's description (a daemon before it: none). */
	m->description[0] = '\0';
	if (f->text != NULL)
		model_parse_text(m->description, sizeof m->description,
		    f->text);
	memcpy(m->described, m->scenario, sizeof m->described);
	return (0);
}

/* Read a `table` header line into the table stage. */
static int
model_reply_table(struct model *m, struct proto_fields *f)
{
	struct mtable	*t = &m->table_stage;
	const char	*s;

	model_table_clear(t);
	if (model_parse_int(f, KT(TASK), &t->task, 1, 0) != 0 ||
	    model_parse_int(f, KT(BASE), &t->base, 1, 0) != 0 ||
	    model_parse_int(f, KT(STAIRS), &t->stairs, 1, 0) != 0 ||
	    model_parse_int(f, KT(RR), &t->rr, 1, 0) != 0 ||
	    t->stairs < 1 || t->stairs > 40 || t->rr < 1) {
		model_table_clear(t);
		return (-1);
	}
	if (model_parse_int(f, KT(DESCENT), &t->descent, 0, 0) != 0 ||
	    t->descent < 0) {
		model_table_clear(t);
		return (-1);
	}
	if ((s = protocol_get(f, KT(NAME))) != NULL)
		snprintf(t->name, sizeof t->name, "%s", s);
	t->valid = 1;
	return (0);
}

/* Read a `row` line into the table stage; a bad one drops the table. */
static int
model_reply_row(struct model *m, struct proto_fields *f)
{
	struct mtable	*t = &m->table_stage;
	const char	*s;
	char		*end;
	long		*row;
	int		 iter, i;

	if (!t->valid || model_parse_int(f, KR(ITER), &iter, 1, 0) != 0 ||
	    (s = protocol_get(f, KR(TICKS))) == NULL)
		goto bad;
	t->iters = xreallocarray(t->iters, t->nrows + 1, sizeof *t->iters);
	t->ticks = xreallocarray(t->ticks, (size_t)(t->nrows + 1) * t->stairs,
	    sizeof *t->ticks);
	row = t->ticks + (size_t)t->nrows * t->stairs;
	for (i = 0; i < t->stairs; i++) {
		errno = 0;
		row[i] = strtol(s, &end, 10);
		if (end == s || errno != 0 || row[i] < 0)
			goto bad;
		s = end;
		if (i < t->stairs - 1) {
			if (*s != ',')
				goto bad;
			s++;
		}
	}
	if (*s != '\0')
		goto bad;
	t->iters[t->nrows++] = iter;
	return (0);
bad:
	model_table_clear(t);
	return (-1);
}

/* Read a `scenario` line of the `scenarios` reply into the stage. */
static int
model_reply_scenario(struct model *m, struct proto_fields *f)
{
	struct mscenario	 sc;
	const char		*s;

	memset(&sc, 0, sizeof sc);
	if ((s = protocol_get(f, KS(NAME))) == NULL || *s == '\0' ||
	    model_parse_copy(sc.name, sizeof sc.name, s) != 0)
		return (-1);
	if ((s = protocol_get(f, KS(FILE))) != NULL)
		snprintf(sc.file, sizeof sc.file, "%s", s);
	if (model_parse_int(f, KS(CPUS), &sc.cpus, 0, 0) != 0 ||
	    model_parse_int(f, KS(TASKS), &sc.tasks, 0, 0) != 0 ||
	    model_parse_int(f, KS(REAL), &sc.real, 0, 0) != 0 ||
	    sc.cpus < 0 || sc.tasks < 0)
		return (-1);
	if (f->text != NULL)
		model_parse_text(sc.text, sizeof sc.text, f->text);
	m->scen_stage = model_append(m->scen_stage, &m->nscen_stage,
	    &m->alloc_scen_stage, &sc, sizeof sc);
	return (0);
}

/* Read a `mark` line of the `marks` reply into the stage. */
static int
model_reply_mark(struct model *m, struct proto_fields *f)
{
	struct mmark	mk;

	memset(&mk, 0, sizeof mk);
	if (model_parse_long(f, KX(TICK), &mk.tick, 1) != 0 || mk.tick < 0)
		return (-1);
	if (f->text != NULL)
		model_parse_text(mk.text, sizeof mk.text, f->text);
	m->mark_stage = model_append(m->mark_stage, &m->nmark_stage,
	    &m->alloc_mark_stage, &mk, sizeof mk);
	return (0);
}

/* Order marks by tick (stable for equal ticks: by text). */
static int
model_reply_cmp_mark(const void *a, const void *b)
{
	const struct mmark	*ma = a, *mb = b;

	if (ma->tick != mb->tick)
		return ((ma->tick > mb->tick) - (ma->tick < mb->tick));
	return (strcmp(ma->text, mb->text));
}

/*
 * A final line: a `scenarios` or `marks` reply's lines become the list
 * if it was ok; any other reply drops lines staged for them.
 */
static void
model_reply_lists(struct model *m, enum model_pend kind, int ok)
{
	void	*p;
	int	 n;

	if (kind == PEND_SCENARIOS && ok) {
		p = m->scenarios;
		m->scenarios = m->scen_stage;
		m->scen_stage = p;
		m->nscenarios = m->nscen_stage;
		n = m->alloc_scen_stage;
		m->alloc_scen_stage = m->alloc_scenarios;
		m->alloc_scenarios = n;
		m->scenarios_valid = 1;
	}
	if (kind == PEND_MARKS && ok) {
		if (m->nmark_stage > 1)
			qsort(m->mark_stage, m->nmark_stage,
			    sizeof *m->mark_stage, model_reply_cmp_mark);
		p = m->marks;
		m->marks = m->mark_stage;
		m->mark_stage = p;
		m->nmarks = m->nmark_stage;
		n = m->alloc_mark_stage;
		m->alloc_mark_stage = m->alloc_marks;
		m->alloc_marks = n;
	}
	m->nscen_stage = 0;
	m->nmark_stage = 0;
}

/*
 * Append to the reply's text, truncating (glibc has no strlcat before
 * 2.38).
 */
static void
model_reply_cat(struct model *m, const char *src)
{
	size_t	len = sizeof m->reply_text, n = strlen(m->reply_text);

	if (n + 1 < len)
		snprintf(m->reply_text + n, len - n, "%s", src);
}

/* Handle a final line: pop the command it answers. */
static enum model_got
model_reply_final(struct model *m, struct proto_fields *f, int ok)
{
	enum model_pend	 kind = PEND_ACTION;
	int		 i;

	m->reply_ok = ok;
	m->reply_what[0] = '\0';
	if (m->npending > 0) {
		i = m->pending_head;
		kind = m->pending[i].kind;
		memcpy(m->reply_what, m->pending[i].what,
		    sizeof m->reply_what);
		m->pending_head = (i + 1) % MODEL_PENDING;
		m->npending--;
	}
	m->reply_kind = kind;
	m->reply_text[0] = '\0';
	/* The words after ok/err were split into keys: join them again. */
	for (i = 0; i < f->n; i++) {
		if (i > 0)
			model_reply_cat(m, " ");
		model_reply_cat(m, f->f[i].key);
		if (f->f[i].value != NULL) {
			model_reply_cat(m, "=");
			model_reply_cat(m, f->f[i].value);
		}
	}
	if (f->text != NULL) {
		if (m->reply_text[0] != '\0')
			model_reply_cat(m, " ");
		model_reply_cat(m, "text=");
		model_reply_cat(m, f->text);
	}
	model_reply_lists(m, kind, ok);
	if (kind == PEND_TABLE) {
		if (ok && m->table_stage.valid) {
			model_table_clear(&m->table);
			m->table = m->table_stage;
			memset(&m->table_stage, 0, sizeof m->table_stage);
		} else
			model_table_clear(&m->table_stage);
	}
	return (MODEL_REPLY);
}

/*
 * A line outside a frame, after the greeting: a reply's data line, or
 * its final line.
 */
enum model_got
model_reply_line(struct model *m, struct proto_fields *f, const char *line)
{
	/* The data lines: those the client reads, those it does not. */
	static const struct model_kind	 kinds[] = {
		{ &wire_status, model_reply_status, "bad status line" },
		{ &wire_scenario, model_reply_scenario, "bad scenario line" },
		{ &wire_mark, model_reply_mark, "bad mark line" },
		{ &wire_table, model_reply_table, "bad table line" },
		{ &wire_row, model_reply_row, "bad row line" },
		{ &wire_task, NULL, NULL },	/* tasks, cpus: for others */
		{ &wire_cpu, NULL, NULL },
	};
	int				 got;

	if (strcmp(f->word, "ok") == 0)
		return (model_reply_final(m, f, 1));
	if (strcmp(f->word, "err") == 0)
		return (model_reply_final(m, f, 0));
	if ((got = model_read(m, kinds, sizeof kinds / sizeof kinds[0], f,
	    line)) != -1)
		return ((enum model_got)got);
	if (strcmp(f->word, "help") == 0)
		return (MODEL_NOTHING);
	if (model_parse_unknown(m, f))
		return (MODEL_NOTHING);
	return (model_bad(m, line, "unknown line"));
}
