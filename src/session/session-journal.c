/*
 * session-journal.c -- a session's journal: every change made from
 * outside the scenario, with the tick it took effect, kept in memory and
 * appended to the record file if one is set (docs/JOURNAL.md).  A
 * replay's feed, which makes the journal's changes again, is session.c's.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "readconf.h"
#include "journal.h"
#include "tables.h"
#include "lesson.h"
#include "log.h"
#include "runs.h"
#include "session-int.h"
#include "xmalloc.h"

/* Keep a copy of ch (what it points to too) in the journal. */
void
session_journal_add(struct session *s, const struct change *ch)
{
	struct change	*j;
	uint32_t	*pat;

	if (s->njournal == s->sizejournal)
		s->journal = xgrow(s->journal, &s->sizejournal, 64,
		    sizeof *s->journal);
	j = &s->journal[s->njournal++];
	*j = *ch;
	j->name = ch->name != NULL ? xstrdup(ch->name) : NULL;
	j->pattern = NULL;
	if (ch->pattern != NULL && ch->npattern > 0) {
		pat = xreallocarray(NULL, ch->npattern, sizeof *pat);
		memcpy(pat, ch->pattern, ch->npattern * sizeof *pat);
		j->pattern = pat;
	}
}

/*
 * Append a change to the record.  A write that fails (a full disk) stops
 * the recording, said in the log: a journal with a line missing would
 * replay to another session.
 */
void
session_record_change(struct session *s, const struct change *ch)
{
	if (s->record == NULL)
		return;
	if (journal_write_change(s->record, ch) != 0) {
		log_warnx("journal: %s; recording stopped (the file has no "
		    "end line)", strerror(errno));
		s->record = NULL;
	}
}

/* The journal's header for this session. */
static void
session_header(const struct session *s, struct journal_header *h)
{
	memset(h, 0, sizeof *h);
	h->scenario = s->label;
	h->text = s->text;
	h->ntasks = s->ntasks0;
	h->params = s->params;
	h->policy = s->policy0->name;
}

/* Record the journal to f: what is kept so far, then each change. */
int
session_record(struct session *s, FILE *f, char **cause)
{
	struct journal_header	h;
	size_t			i;

	s->record = f;
	if (f == NULL)
		return (0);
	session_header(s, &h);
	journal_write_header(f, &h);
	for (i = 0; i < s->njournal; i++)
		journal_write_change(f, &s->journal[i]);
	if (fflush(f) != 0 || ferror(f)) {
		*cause = xasprintf("journal: %s", strerror(errno));
		s->record = NULL;
		return (-1);
	}
	return (0);
}

/* The session ends cleanly: the record's end line (the last tick run). */
void
session_end(struct session *s)
{
	if (s->record != NULL) {
		journal_write_end(s->record, engine_now(s->e));
		fflush(s->record);
		s->record = NULL;
	}
	if (s->trace != NULL)
		fflush(s->trace);
}
