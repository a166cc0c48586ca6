/*
 * fuzz_scenario.c -- libFuzzer harness for the scenario loader: the input
 * is a scenario file's text, loaded with scenario_load_string(), then set
 * up as stairsd --headless does (engine parameters, CPU lists checked,
 * scenario_apply() without a spawn callback) and run for FUZZ_TICKS
 * engine ticks, reading every task and CPU back.
 *
 * No process is ever spawned: scenario_apply() without a spawn callback
 * refuses a scenario with `command` tasks before adding anything, the
 * path headless takes.  Inputs with an @include are skipped: the
 * directive reads files of the machine, not the input (the include checks
 * are tested by tests/test_scenario.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "scenario.h"
#include "fuzz.h"

#define FUZZ_TICKS	300

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scenario		*sc;
	struct engine_params	 p;
	struct engine_task_info	 ti;
	struct engine_cpu_info	 ci;
	struct engine		*e;
	uint64_t		 seq;
	size_t			 n;
	char			*text, *cause = NULL;
	int			 t, id, c;

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
	e = engine_create(&p, NULL);
	if (scenario_apply(sc, e, NULL, NULL, &cause) != 0) {
		free(cause);
		engine_free(e);
		scenario_free(sc);
		return (0);
	}
	for (t = 0; t < FUZZ_TICKS; t++) {
		engine_tick(e);
		engine_fired(e, &n);
		engine_caption(e, &seq);
		for (c = 0; c < p.cpus; c++)
			engine_cpu_info(e, c, &ci);
	}
	for (id = 1; id <= engine_ntasks(e); id++)
		engine_task_info(e, id, &ti);
	engine_free(e);
	scenario_free(sc);
	return (0);
}
