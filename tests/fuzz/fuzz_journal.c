/*
 * fuzz_journal.c -- libFuzzer harness for the journal reader (journal.c,
 * docs/JOURNAL.md): the input is a journal's text, read with
 * journal_parse().  A refusal must say "fuzz:LINE: message"; a journal
 * that reads is written back (header, changes, end) and read again, and
 * the second writing must equal the first byte for byte: what the reader
 * accepts, the writer writes so that it reads back the same.
 *
 * Then it is replayed as `stairsd --headless --replay` does: its
 * scenario parsed and started on its parameters and policy (real tasks
 * with no process), its changes fed in (branches going back through
 * the keyframes), and run for at most FUZZ_TICKS ticks past the start,
 * up to its end tick, every CPU and task read back each tick.  A
 * journal whose scenario does not parse or make its tasks is refused by
 * the replay as by the harness; one whose text has an @include is not
 * replayed (the directive reads the machine's files, not the input).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "journal.h"
#include "session.h"
#include "fuzz.h"

#define FUZZ_TICKS	400	/* ticks run, branches' repeats included */
#define FUZZ_TASKS	1000	/* the replay's max_tasks */

/* Write j to a malloc'd string. */
static char *
fuzz_write(const struct journal *j, size_t *len)
{
	FILE	*f;
	char	*buf = NULL;
	size_t	 i;

	if ((f = open_memstream(&buf, len)) == NULL)
		abort();
	journal_write_header(f, &j->header);
	for (i = 0; i < j->nchanges; i++)
		journal_write_change(f, &j->changes[i]);
	journal_write_end(f, j->end);
	if (fclose(f) != 0)
		abort();
	return (buf);
}

/* Does the journal go back anywhere (as headless_branches)? */
static int
fuzz_branches(const struct journal *j)
{
	size_t	i;

	for (i = 0; i < j->nchanges; i++) {
		if (j->changes[i].kind == CHANGE_BRANCH)
			return (1);
	}
	return (0);
}

/* Replay j as headless does, for at most FUZZ_TICKS ticks. */
static void
fuzz_replay(const struct journal *j)
{
	struct session_setup	 set;
	struct session		*s;
	struct scenario		*sc;
	struct engine_task_info	 ti;
	struct engine_cpu_info	 ci;
	const struct engine	*e;
	char			*cause = NULL;
	int			 n, c, id;

	if (strstr(j->header.text, "@include") != NULL)
		return;
	if ((sc = scenario_load_string(j->header.text, "fuzz", &cause)) ==
	    NULL) {
		free(cause);
		return;
	}
	memset(&set, 0, sizeof set);
	set.label = "fuzz";
	set.text = j->header.text;
	set.params = j->header.params;
	set.policy = engine_policy_find(j->header.policy);
	set.real_ok = 1;
	set.max_tasks = FUZZ_TASKS;
	set.history = fuzz_branches(j) ? UINT64_MAX : 0;
	if (engine_params_check(&set.params, &cause) != 0 ||
	    set.policy == NULL ||
	    (s = session_create(&set, sc, &cause)) == NULL) {
		free(cause);
		scenario_free(sc);
		return;
	}
	e = session_engine(s);
	if (engine_ntasks(e) != j->header.ntasks) {
		session_free(s);
		scenario_free(sc);
		return;		/* headless refuses it here too */
	}
	session_feed(s, j->changes, j->nchanges, 0, "journal");
	for (n = 0; n < FUZZ_TICKS; n++) {
		if (engine_now(e) >= j->end && !session_feed_branch_ahead(s))
			break;
		session_tick(s);
		e = session_engine(s);	/* a branch swaps it */
		/* Every CPU's runner, and every task, can be read back. */
		for (c = 0; c < engine_params(e)->cpus; c++) {
			engine_cpu_info(e, c, &ci);
			if (ci.task != 0 && engine_task_info(e, ci.task,
			    &ti) != 0)
				abort();
		}
		for (id = 1; id <= engine_ntasks(e); id++) {
			if (engine_task_info(e, id, &ti) != 0)
				abort();
		}
	}
	session_free(s);
	scenario_free(sc);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct journal	*j, *j2;
	char		*cause = NULL, *a, *b;
	size_t		 alen, blen;

	if ((j = journal_parse((const char *)data, size, "fuzz",
	    &cause)) == NULL) {
		if (strncmp(cause, "fuzz:", 5) != 0)
			abort();
		free(cause);
		return (0);
	}
	a = fuzz_write(j, &alen);
	if ((j2 = journal_parse(a, alen, "again", &cause)) == NULL) {
		fprintf(stderr, "written journal refused: %s\n", cause);
		abort();
	}
	b = fuzz_write(j2, &blen);
	if (alen != blen || memcmp(a, b, alen) != 0)
		abort();
	free(a);
	free(b);
	journal_free(j2);
	fuzz_replay(j);
	journal_free(j);
	return (0);
}
