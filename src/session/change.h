/*
 * change.h -- one change to a running engine from outside its scenario:
 * a client's command, or a block, wake, exit or spawn seen on a real
 * process.  The session (session.c) is the only code that applies one to
 * an engine, and it keeps every change, with the tick it took effect,
 * in its journal (journal.c writes and reads them as text lines,
 * docs/JOURNAL.md).  Scenario events are not changes: the scenario
 * itself replays them.
 */
#ifndef STAIRS_CHANGE_H
#define STAIRS_CHANGE_H

#include <stddef.h>
#include <stdint.h>

#include "cpumask.h"

enum change_kind {
	CHANGE_SLEEP,		/* task; value: ms (an injected sleep) */
	CHANGE_NICE,		/* task; value: the new nice */
	CHANGE_AFFINITY,	/* task; cpus */
	CHANGE_KILL,		/* task (the kill command) */
	CHANGE_EXIT,		/* task: a real process died on its own */
	CHANGE_ADD,		/* a new task: name, nice, pattern, runtime,
				   has_cpus/cpus, real; gets the next id */
	CHANGE_BLOCK,		/* task: a real process seen blocked */
	CHANGE_WAKE,		/* task: a real process seen runnable again */
	CHANGE_POLICY,		/* name: the policy to switch to */
	CHANGE_BRANCH,		/* value: the tick the session went back to
				   (a seek, then resume, with scripted tasks
				   only); what came after it is dropped */
	CHANGE_TALLY		/* pattern: the room's votes per choice at
				   a question's reveal (SPEC.md section 12);
				   kept in the journal, no change to the
				   engine */
};

struct change {
	uint64_t		 at;		/* engine_now() when applied */
	enum change_kind	 kind;
	int			 task;		/* id; 0 when not about one */
	long			 value;
	int			 has_cpus;
	struct cpumask		 cpus;
	const char		*name;		/* ADD: task name; POLICY */
	int			 nice;		/* ADD */
	int			 real;		/* ADD: a real process */
	const uint32_t		*pattern;	/* ADD: run, sleep, ...; NULL:
						   a hog; TALLY: the votes */
	size_t			 npattern;
	uint64_t		 runtime;	/* ADD: ms, 0 none */
	int			 line;		/* its journal's line; 0: live */
};

#endif
