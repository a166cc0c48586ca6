/*
 * fuzz_import.c -- libFuzzer harness for stairs-import's reading of a
 * scheduler trace (src/import/: ktrace.c's lines, tasklife.c's lives):
 * the input is the text of a trace, read line by line as stairs-import
 * reads a file, finished, then written as a scenario with kernel threads
 * kept and every task chosen (emit.c).
 *
 * Beyond not crashing, one promise is checked: whatever trace is
 * accepted, the scenario written from it loads (scenario_load_string,
 * with its kernel rows) and sets an engine up; a refusal is a bug
 * (abort, which libFuzzer keeps as a crash).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "engine.h"
#include "scenario.h"
#include "tasklife.h"
#include "fuzz.h"

/* The trace's reader and its line number. */
struct fuzz_import {
	struct tasklife	*h;
	int		 lineno;
};

/* Feed one line to the trace's reader; nonzero stops at an error. */
static int
fuzz_import_line(void *arg, char *line, size_t len)
{
	struct fuzz_import	*fi = arg;
	char			*cause = NULL;

	(void)len;
	if (tasklife_line(fi->h, line, ++fi->lineno, &cause) != 0) {
		free(cause);
		return (1);
	}
	return (0);
}

/* Load what was written, and set an engine up from it. */
static void
fuzz_import_check(const char *text)
{
	struct scenario		*sc;
	struct engine_params	 p;
	struct engine		*e;
	char			*cause = NULL;
	int			 i;

	if ((sc = scenario_load_string(text, "fuzz.cfg", &cause)) == NULL) {
		fprintf(stderr, "the scenario written does not load: %s\n%s",
		    cause, text);
		abort();
	}
	engine_params_default(&p);
	scenario_params(sc, &p);
	e = engine_create(&p, NULL);
	if (scenario_apply(sc, e, NULL, NULL, &cause) != 0) {
		fprintf(stderr, "the scenario written does not apply: %s\n",
		    cause);
		abort();
	}
	for (i = 0; i < 50; i++)
		engine_tick(e);
	engine_free(e);
	scenario_free(sc);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tasklife_opts	 o;
	struct tasklife		 h;
	struct fuzz_import	 fi;
	struct emit_opts	 eo;
	struct emit_result	 r;
	char			*out = NULL, *cause = NULL;
	size_t			 len = 0;
	FILE			*f;

	memset(&o, 0, sizeof o);
	tasklife_init(&h, &o);
	fi.h = &h;
	fi.lineno = 0;
	if (fuzz_lines(data, size, fuzz_import_line, &fi) != 0 ||
	    tasklife_finish(&h, &cause) != 0) {
		free(cause);
		tasklife_free(&h);
		return (0);
	}
	memset(&eo, 0, sizeof eo);
	eo.kthreads = 1;
	f = open_memstream(&out, &len);
	if (emit_scenario(f, &h, &eo, &r, &cause) != 0) {
		free(cause);
		cause = NULL;
	}
	fclose(f);
	if (r.written > 0)
		fuzz_import_check(out);
	free(out);
	tasklife_free(&h);
	return (0);
}
