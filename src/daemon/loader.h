/*
 * loader.h -- a scenario found and parsed on a thread of its own, so a
 * big file (up to the 64 MiB a scenario may be) never stops the loop:
 * the clock ticks, the children are enforced and clients are answered
 * while it parses.  One parse at a time.
 */
#ifndef STAIRS_LOADER_H
#define STAIRS_LOADER_H

struct catalog;
struct event_base;
struct scenario;

/*
 * What a parse gives, on the loop's thread: the scenario and its label,
 * or NULL and why ("FILE:LINE: message"); the callee owns all three.
 */
typedef void	loader_done_cb(void *arg, struct scenario *, char *label,
		    char *cause);

struct loader;

struct loader	*loader_create(struct event_base *, const struct catalog *,
		    loader_done_cb *, void *arg);
/* Free it; a parse under way is waited for and its result dropped. */
void		 loader_free(struct loader *);
/*
 * Find and parse name (catalog_load, never a file of the daemon's own
 * directory); done is called from the loop when it is parsed.  -1 with
 * *cause if a parse is under way already or no thread could start.
 */
int		 loader_start(struct loader *, const char *name, char **cause);
/* The name being parsed, or NULL. */
const char	*loader_busy(const struct loader *);

#endif
