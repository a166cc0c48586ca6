/*
 * fuzz_scenario.c -- libFuzzer harness for the scenario loader: the input
 * is a scenario file's text, loaded with scenario_load_string(), then set
 * up as stairsd --headless does (engine parameters, CPU lists checked,
 * scenario_apply() without a spawn callback, under the scenario's own
 * policy) and run for FUZZ_TICKS engine ticks, reading every task and
 * CPU back and counting the ticks run as the daemon's tables (the `table`
 * command) and headless --table (for task 1, while its static priority
 * holds) do; both are formatted at the end.
 *
 * No process is ever spawned: scenario_apply() without a spawn callback
 * refuses a scenario with `command` tasks before adding anything, the
 * path headless takes.  Inputs with an @include are skipped: the
 * directive reads files of the machine, not the input (the include checks
 * are tested by tests/test_scenario.c).
 */
#include <event2/buffer.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "format.h"
#include "tables.h"
#include "lesson.h"
#include "scenario.h"
#include "staircase.h"
#include "table.h"
#include "fuzz.h"

#define FUZZ_TICKS	300
#define FUZZ_ROWS	TABLE_ROWS	/* descents kept, as the daemon and headless */

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scenario		*sc;
	struct engine_params	 p;
	struct engine_task_info	 ti;
	struct engine_cpu_info	 ci;
	struct engine		*e;
	struct tables		*tables;
	struct lesson		*lesson;
	struct table		*table;
	struct evbuffer		*out;
	uint64_t		 seq;
	size_t			 n;
	char			*text, *cause = NULL;
	int			 t, id, c, base;

	text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	if (strstr(text, "@include") != NULL) {
		free(text);
		return (-1);	/* not added to the corpus */
	}
	sc = scenario_load_string(text, "fuzz.cfg", &cause);
	free(text);
	if (sc == NULL) {
		free(cause);
		return (0);
	}

	engine_params_default(&p);
	scenario_params(sc, &p);
	if (engine_params_check(&p, &cause) != 0) {
		free(cause);
		scenario_free(sc);
		return (0);
	}
	e = engine_create(&p, sc->policy != NULL ?
	    engine_policy_find(sc->policy) : NULL);
	if (scenario_apply(sc, e, NULL, NULL, &cause) != 0) {
		free(cause);
		engine_free(e);
		scenario_free(sc);
		return (0);
	}
	tables = tables_create(FUZZ_ROWS);
	table = NULL;
	base = 0;
	if (engine_task_info(e, 1, &ti) == 0) {
		table = table_create(FUZZ_ROWS);
		base = ti.prio;
	}
	lesson = lesson_create(sc);
	for (t = 0; t < FUZZ_TICKS; t++) {
		lesson_fire(lesson, engine_now(e), &n);
		if (t % 97 == 0)
			lesson_answer(lesson, engine_now(e));
		lesson_caption(lesson, &seq);
		engine_tick(e);
		engine_fired(e, &n);
		for (c = 0; c < p.cpus; c++) {
			engine_cpu_info(e, c, &ci);
			if (ci.task == 0 ||
			    engine_task_info(e, ci.task, &ti) != 0)
				continue;
			tables_add(tables, ci.task, ci.field[STAIRCASE_DESCENT],
			    ci.rank - ti.prio);
			if (ci.task == 1 && table != NULL &&
			    ti.prio == base)
				table_add(table, ci.field[STAIRCASE_DESCENT],
				    ci.rank - ti.prio);
		}
	}
	out = evbuffer_new();
	for (id = 1; id <= engine_ntasks(e); id++) {
		if (engine_task_info(e, id, &ti) == 0)
			format_table_lines(tables, e, &ti, engine_now(e),
			    out);
	}
	evbuffer_free(out);
	if (table != NULL) {
		free(table_format(table, base, p.rr_interval));
		table_free(table);
	}
	tables_free(tables);
	lesson_free(lesson);
	engine_free(e);
	scenario_free(sc);
	return (0);
}
