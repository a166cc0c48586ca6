/*
 * journal.h -- a session's journal as text (docs/JOURNAL.md): a header
 * (the scenario's name and full text, the engine's parameters, the
 * policy), then one line per struct change with the tick it took effect,
 * then "end TICK" when the session ended cleanly.  The writer appends to
 * a FILE; the reader reads a whole file and refuses, with "FILE:LINE:
 * message", a journal that is truncated, reordered or garbled.
 */
#ifndef STAIRS_JOURNAL_H
#define STAIRS_JOURNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "change.h"
#include "engine.h"

#define JOURNAL_VERSION		1
#define JOURNAL_MAX_PATTERN	1024		/* numbers in an add pattern */
#define JOURNAL_MS_MAX		100000000L	/* sleep, runtime, pattern */
#define JOURNAL_CHOICES_MAX	9		/* a tally's votes */
/* Ticks are at most 2^40 (SPEC.md section 12): 35 years of ms. */
#define JOURNAL_TICK_MAX	((uint64_t)1 << 40)
/*
 * The scenario's tasks: more than a scenario text of 64 MiB can define
 * (a task takes at least 11 bytes), and with every add a journal can
 * hold, still far from overflowing an int.
 */
#define JOURNAL_TASKS_MAX	(1 << 24)

/* What a session starts from. */
struct journal_header {
	const char		*scenario;	/* its name ("demo", a path) */
	const char		*text;		/* the scenario file's text */
	int			 ntasks;	/* tasks it creates (ids 1..n) */
	struct engine_params	 params;
	const char		*policy;	/* policy name at tick 0 */
};

/* One part of a file, without its changes: what `parts` says of it. */
struct journal_part {
	char			*scenario;
	char			*policy;
	int			 cpus;
	int			 ntasks;
	size_t			 nchanges;
	uint64_t		 end;
};

/*
 * A journal as read (one part of its file): the header, the changes in
 * file order (each with its own storage for name and pattern), the end
 * tick, and every part's summary.  Everything is owned by the journal;
 * journal_free() frees it.
 */

struct journal {
	struct journal_header	 header;
	struct change		*changes;
	size_t			 nchanges;
	uint64_t		 end;		/* the last tick run */
	int			 part;		/* which part of the file (1..) */
	int			 nparts;	/* parts in the file */
	struct journal_part	*parts;		/* each of them, read once */
};

/*
 * Writing; each returns 0, or -1 if the FILE had an error.  They do not
 * flush: a recorder that wants each line on disk as it happens (a crash
 * then leaves a journal refused as truncated, not a torn one read as
 * whole) flushes after each.  Strings (names, the policy) must be set;
 * a change's fields are those its kind has in docs/JOURNAL.md.
 */
int	journal_write_header(FILE *, const struct journal_header *);
int	journal_write_change(FILE *, const struct change *);
int	journal_write_end(FILE *, uint64_t last_tick);

/* Reading: a whole file, or text already in memory (label for errors). */
struct journal *journal_read(const char *path, char **cause);
struct journal *journal_parse(const char *text, size_t len,
	    const char *label, char **cause);
/*
 * A file of several parts (one per session of a live daemon: a load or
 * reset starts the next), each checked: part want, 1-based (0: the last).
 */
struct journal *journal_read_part(const char *path, int want, char **cause);
struct journal *journal_parse_part(const char *text, size_t len,
	    const char *label, int want, char **cause);
void	journal_free(struct journal *);
/* Free what n changes kept (a journal's, a session's) own: name, pattern. */
void	journal_changes_clear(struct change *, size_t n);

/* The name a change kind has in the journal ("sleep", "add", ...). */
const char *journal_kind_name(enum change_kind);

#endif
