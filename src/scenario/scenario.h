/*
 * scenario.h -- scenario files (SPEC.md section 2): load a libconfig file
 * or string into a struct scenario, check it, and set an engine up from it.
 *
 * Loading checks everything that does not depend on the engine (keys,
 * types, ranges, names, patterns, references between tasks, groups and
 * events).  CPU lists are parsed at load but checked against the engine's
 * real CPU count only by scenario_check(), which scenario_apply() calls:
 * the count may come from the command line.  Every error reads
 * "FILE:LINE: message".
 */
#ifndef STAIRS_SCENARIO_H
#define STAIRS_SCENARIO_H

/* Policies a scenario's compare key may name (the live shadows). */
#define SCENARIO_COMPARE_MAX	3

#include <stddef.h>
#include <stdint.h>

#include "cpumask.h"
#include "engine.h"
#include "kernelrow.h"

struct scenario_group {
	char			*name;
	char			*cpus;		/* the list as written */
	struct cpumask		 mask;
	int			 line;
	int			 cpus_line;
};

struct scenario_task {
	char			*name;
	int			 nice;
	uint64_t		 start;
	uint32_t		*pattern;	/* NULL: a hog (or a command) */
	size_t			 npattern;
	int			 once;		/* from bursts: played once */
	uint64_t		 lead;		/* bursts: ticks before its
						   first run, after start */
	uint64_t		 runtime;	/* 0: none */
	int			 has_cpus;
	char			*cpus;		/* NULL unless has_cpus */
	struct cpumask		 mask;
	int			 cpus_line;
	char			*group;		/* NULL: none */
	char		       **argv;		/* NULL-ended; NULL: scripted */
	int			 line;
};

/*
 * What an event does: the engine's own (it changes a task, or switches
 * the policy) or a lesson's, which change nothing the engine schedules
 * (the session fires them: session/lesson.c).
 */
enum scenario_action {
	SCENARIO_SLEEP,
	SCENARIO_NICE,
	SCENARIO_AFFINITY,
	SCENARIO_KILL,
	SCENARIO_POLICY,
	SCENARIO_CAPTION,	/* text */
	SCENARIO_PAUSE,		/* text (or NULL): the caption while paused */
	SCENARIO_SPEED,		/* speed: ticks per ms from now on */
	SCENARIO_MARK,		/* text: a chapter's name */
	SCENARIO_ASK		/* text: a question; answer: its answer */
};
#define SCENARIO_LESSON(a)	((a) >= SCENARIO_CAPTION)
/* An ask's choices at most: the keys 1..9 (SPEC.md section 12). */
#define SCENARIO_CHOICES_MAX	9

struct scenario_event {
	uint64_t		 at;
	enum scenario_action	 action;
	char			*task;		/* NULL but for task actions */
	long			 value;		/* sleep ms, or nice */
	char			*cpus;		/* affinity only */
	struct cpumask		 mask;
	int			 cpus_line;
	char			*text;		/* caption, pause (or NULL),
						   mark, ask's question */
	char			*answer;	/* ask only */
	char		       **choices;	/* ask: what the room picks
						   from (NULL: none) */
	int			 nchoices;
	double			 speed;		/* speed only */
	const struct engine_policy *policy;	/* policy only */
	int			 line;
};

/* A `mark` event: a chapter of the lesson (scenario_marks). */
struct scenario_mark {
	uint64_t		 at;
	const char		*text;		/* points into the scenario */
};

/* An open-addressing hash of names to indexes (tasks, groups). */
struct scenario_slot {
	const char		*name;		/* NULL: free */
	size_t			 index;
	int			 line;		/* where it was named */
};
struct scenario_index {
	struct scenario_slot	*slots;
	size_t			 size;		/* a power of two, or 0 */
};

struct scenario {
	char			*name;
	char			*description;	/* NULL if none */
	char			*path;		/* the label used in messages */
	/*
	 * The text it was read from, every @include spliced in: a journal
	 * keeps it, so a replay needs no other file.
	 */
	char			*text;

	/* Engine overrides: used only when has_* is set. */
	int			 has_cpus;
	int			 cpus;
	int			 has_rr;
	int			 rr_interval;
	int			 has_sleep_min;
	int			 sleep_min;
	int			 has_balance;
	int			 balance_interval;
	int			 has_base_slice;
	int			 base_slice;	/* eevdf's request, ms */
	int			 cpus_line;
	char			*policy;	/* NULL: the default */
	/* Shadows to start live with ("o1,cfs,eevdf"); NULL: none. */
	char			*compare;
	int			 has_speed;	/* live only: the clock's */
	double			 speed;		/* ticks per ms to start at */

	struct scenario_group	*groups;
	size_t			 ngroups;
	struct scenario_task	*tasks;
	size_t			 ntasks;
	struct scenario_event	*events;
	size_t			 nevents;

	/* What the kernel did, from an imported trace (kernelrow.h). */
	struct kernelrows	 kernel;

	struct scenario_index	 task_index;	/* names -> tasks[] */
	struct scenario_index	 group_index;	/* names -> groups[] */
};

/* Spawns a real task once the engine knows it; 0 or -1 with *cause. */
typedef int (*scenario_spawn_cb)(void *arg, struct engine *, int task_id,
    const struct scenario_task *, char **cause);

struct scenario *scenario_load_file(const char *path, char **cause);
struct scenario *scenario_load_string(const char *text, const char *label,
	    char **cause);
int	scenario_find_task(const struct scenario *, const char *name);
void	scenario_free(struct scenario *);

/* Apply the scenario's engine overrides on top of *p. */
void	scenario_params(const struct scenario *, struct engine_params *p);
/* Number of command (real process) tasks. */
size_t	scenario_ncommands(const struct scenario *);
/* The mark events, in time order; a malloc'd array of *n, or NULL. */
struct scenario_mark *scenario_marks(const struct scenario *, size_t *n);
/* Check CPU lists against ncpus engine CPUs; 0 or -1 with *cause. */
int	scenario_check(const struct scenario *, int ncpus, char **cause);
/* Add groups, tasks and events to e; 0 or -1 with *cause. */
int	scenario_apply(const struct scenario *, struct engine *,
	    scenario_spawn_cb spawn, void *arg, char **cause);

#endif
