/*
 * sinks.h -- the live daemon's output files (sinks.c): the CSV trace,
 * the recorded journal and the Perfetto trace, opened at start or by
 * `record`, started again with every new session and flushed now and
 * then.  Headless runs write the same files through the session alone.
 */
#ifndef STAIRS_SINKS_H
#define STAIRS_SINKS_H

#include <stdint.h>

struct engine;
struct notes;
struct event_base;
struct perfetto;
struct session;
struct sinks;

/* A file that fails is told on notes (an event line) and in the log. */
struct sinks	*sinks_create(struct notes *);
void		 sinks_free(struct sinks *);
/* Flush now and then (200 ms) on base, while there is a file. */
void		 sinks_start(struct sinks *, struct event_base *);

/* The CSV trace to path ("-": standard output); 0 or -1, *cause. */
int		 sinks_trace_open(struct sinks *, const char *path,
		    char **cause);
int		 sinks_trace_stdout(const struct sinks *);
/* The Perfetto trace to path (not open yet: sinks_begin opens it). */
void		 sinks_perfetto_path(struct sinks *, const char *path);
/* The journal to path, from session s's start on; 0 or -1, *cause. */
int		 sinks_record(struct sinks *, struct session *,
		    const char *path, char **cause);
/* "on", "failed" (a write failed, or the file went) or "off". */
const char	*sinks_record_state(const struct sinks *);

/*
 * A session begins (at start, or after a load): every file starts again
 * for it.  Errors are logged; the session runs on without that file.
 * 0, or -1 with *cause when the Perfetto trace could not be opened.
 */
int		 sinks_begin(struct sinks *, struct session *, char **cause);
/* The session ends: its journal's end line; the Perfetto trace closed
 * (the caller wrote the kernel's last runs into it first). */
void		 sinks_end(struct sinks *, struct session *);

/* The Perfetto trace (NULL: none), and its latest engine time. */
struct perfetto	*sinks_perfetto(const struct sinks *);
void		 sinks_perfetto_tick(struct sinks *, const struct engine *,
		    uint64_t tick);
void		 sinks_perfetto_wake(struct sinks *, const struct engine *,
		    int cpu, int task, int rank, uint64_t ns);
void		 sinks_flush(struct sinks *);

#endif
