/*
 * sinks.c -- the live daemon's output files.  The session writes the
 * trace's rows and the journal's changes into the FILEs it is given
 * (session_trace, session_record); the Perfetto trace is written here,
 * a tick at a time, and by the real-process bridge (the kernel's runs).
 * A load ends the session's part of the files (the journal's end line)
 * and the next session appends its own part to the journal and the
 * Perfetto trace; the CSV trace starts again.  While a file is open a timer flushes
 * it every 200 ms so `tail -f` sees it; paused and idle, nothing wakes.
 */
#include <event2/event.h>

#include <errno.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine.h"
#include "file.h"
#include "log.h"
#include "notes.h"
#include "path.h"
#include "perfetto.h"
#include "session.h"
#include "sinks.h"
#include "xmalloc.h"

/*
 * A file written a line at a time (the trace, the journal): the session
 * writes into f; here it is flushed, watched and, when a write fails,
 * cut back to its last whole line and closed.
 */
struct sink_file {
	const char	*what;		/* "trace", "record" */
	FILE		*f;		/* NULL: none, or failed */
	char		*path;		/* absolute; NULL: standard output */
	off_t		 good;		/* bytes known written: whole lines */
	int		 failed;
};

struct sinks {
	struct notes	*notes;
	struct session	*session;	/* the one begun, for the tick */
	struct sink_file trace;
	struct sink_file record;	/* the journal */
	struct perfetto	*perfetto;
	char		*perfetto_path;	/* NULL: none */
	uint64_t	 perfetto_ns;	/* its latest engine time */
	struct event	*flush;
};

/* No file yet; failures are told on notes. */
struct sinks *
sinks_create(struct notes *notes)
{
	struct sinks	*k = xcalloc(1, sizeof (struct sinks));

	k->notes = notes;
	k->trace.what = "trace";
	k->record.what = "record";
	return (k);
}

/* Close a file (standard output: flush only). */
static void
sinks_file_close(struct sink_file *sf)
{
	char	*cause = NULL;

	if (sf->f != NULL && file_close(sf->f, &cause) != 0) {
		log_warnx("%s: %s", sf->what, cause);
		free(cause);
	}
	sf->f = NULL;
}

/* Close every file (the session's end was written: sinks_end). */
void
sinks_free(struct sinks *k)
{
	char	*cause = NULL;

	if (k == NULL)
		return;
	sinks_file_close(&k->trace);
	sinks_file_close(&k->record);
	if (k->perfetto != NULL && perfetto_close(k->perfetto, &cause) != 0) {
		log_warnx("%s: %s", k->perfetto_path, cause);
		free(cause);
	}
	if (k->flush != NULL)
		event_free(k->flush);
	free(k->trace.path);
	free(k->record.path);
	free(k->perfetto_path);
	free(k);
}

/*
 * A write to sf failed (why): the file cut back to its last whole line,
 * closed and given up, the session told to write no more into it, and
 * the failure said in the log and to every subscriber.
 */
static void
sinks_file_fail(struct sinks *k, struct sink_file *sf, const char *why)
{
	const char	*path = sf->path != NULL ? sf->path : "-";

	__fpurge(sf->f);	/* what the write left in the buffer goes */
	if (sf->path != NULL && ftruncate(fileno(sf->f), sf->good) != 0)
		log_warn("%s: cutting back to a whole line", path);
	if (k->session != NULL) {
		if (sf == &k->record)
			(void)session_record(k->session, NULL, NULL);
		else
			session_trace(k->session, NULL);
	}
	if (sf->path != NULL)
		fclose(sf->f);
	else
		clearerr(sf->f);	/* standard output stays open */
	sf->f = NULL;
	sf->failed = 1;
	log_warnx("%s: %s: %s; no more is written there", sf->what, path,
	    why);
	if (k->notes != NULL)
		notes_add(k->notes, k->session != NULL ?
		    session_now(k->session) : 0, "%s to %s failed: %s",
		    sf->what, path, why);
}

/*
 * Flush sf and see it is still there: what is flushed is whole lines (a
 * flush comes between ticks and commands, never inside a line), so its
 * end is where a failed write is cut back to.
 */
static void
sinks_file_flush(struct sinks *k, struct sink_file *sf)
{
	struct stat	sb;
	off_t		off;

	if (sf->f == NULL)
		return;
	if (fflush(sf->f) != 0 || ferror(sf->f)) {
		sinks_file_fail(k, sf, strerror(errno != 0 ? errno : EIO));
		return;
	}
	if (sf->path == NULL)
		return;
	if (fstat(fileno(sf->f), &sb) == 0 && sb.st_nlink == 0) {
		sinks_file_fail(k, sf, "the file was deleted (or its "
		    "directory removed)");
		return;
	}
	if ((off = ftello(sf->f)) >= 0)
		sf->good = off;
}

/* Flush every file now. */
void
sinks_flush(struct sinks *k)
{
	sinks_file_flush(k, &k->trace);
	if (k->perfetto != NULL)
		perfetto_flush(k->perfetto);
	sinks_file_flush(k, &k->record);
}

/* The flush timer fired. */
static void
sinks_flush_timer(evutil_socket_t fd, short events, void *arg)
{
	sinks_flush(arg);
}

/* Arm the flush timer, if there is anything to flush. */
static void
sinks_arm(struct sinks *k)
{
	struct timeval	tv = { 0, 200000 };

	if (k->flush != NULL && (k->trace.f != NULL || k->record.f != NULL ||
	    k->perfetto_path != NULL) && !evtimer_pending(k->flush, NULL))
		evtimer_add(k->flush, &tv);
}

/* Flush now and then on base. */
void
sinks_start(struct sinks *k, struct event_base *base)
{
	k->flush = event_new(base, -1, EV_PERSIST, sinks_flush_timer, k);
	sinks_arm(k);
}

/* Open sf on path ("-": standard output) as file.h says; 0 or -1. */
static int
sinks_file_open(struct sink_file *sf, const char *path, char **cause)
{
	FILE	*f;

	if ((f = file_fopen(path, FILE_TRUNCATE, cause)) == NULL)
		return (-1);
	sinks_file_close(sf);
	sf->f = f;
	free(sf->path);
	sf->path = strcmp(path, "-") == 0 ? NULL : path_absolute(path);
	sf->good = 0;
	sf->failed = 0;
	return (0);
}

/* The CSV trace to path, or "-" for standard output. */
int
sinks_trace_open(struct sinks *k, const char *path, char **cause)
{
	if (sinks_file_open(&k->trace, path, cause) != 0)
		return (-1);
	sinks_arm(k);
	return (0);
}

/* Is the trace going to standard output (which detaching closes)? */
int
sinks_trace_stdout(const struct sinks *k)
{
	return (k->trace.f != NULL && k->trace.path == NULL);
}

/* Where the Perfetto trace goes; sinks_begin opens it for a session. */
void
sinks_perfetto_path(struct sinks *k, const char *path)
{
	free(k->perfetto_path);
	k->perfetto_path = path_absolute(path);
}

/*
 * `record PATH`: the journal so far, then every change, into PATH.  A
 * journal being recorded already is ended here (its end line: a replay
 * of it runs to this tick) and closed.
 */
int
sinks_record(struct sinks *k, struct session *s, const char *path,
    char **cause)
{
	FILE	*f;

	if ((f = file_fopen(path, FILE_TRUNCATE, cause)) == NULL)
		return (-1);
	if (k->record.f != NULL) {
		session_end(s);
		sinks_file_flush(k, &k->record);
		sinks_file_close(&k->record);
	}
	k->record.f = f;
	free(k->record.path);
	k->record.path = strcmp(path, "-") == 0 ? NULL : path_absolute(path);
	k->record.good = 0;
	k->record.failed = 0;
	k->session = s;
	if (session_record(s, f, cause) != 0) {
		sinks_file_close(&k->record);
		k->record.failed = 1;
		return (-1);
	}
	sinks_file_flush(k, &k->record);
	sinks_arm(k);
	return (0);
}

/* "on", "failed" or "off": how the recording goes, for `status`. */
const char *
sinks_record_state(const struct sinks *k)
{
	if (k->record.f != NULL)
		return ("on");
	return (k->record.failed ? "failed" : "off");
}

/* Start a file again from its beginning. */
static int
sinks_restart(struct sinks *k, struct sink_file *sf)
{
	if (sf->f == NULL || sf->path == NULL)
		return (sf->f != NULL ? 0 : -1);
	sinks_file_flush(k, sf);
	if (sf->f == NULL)
		return (-1);
	if (ftruncate(fileno(sf->f), 0) != 0 || fseeko(sf->f, 0, SEEK_SET)) {
		sinks_file_fail(k, sf, strerror(errno));
		return (-1);
	}
	sf->good = 0;
	return (0);
}

/*
 * Session s begins: the Perfetto trace opened (engine CPU tracks for
 * the session, kernel tracks for every physical CPU) or, after a load,
 * its next part begun; the trace started again and given to it; the
 * journal given to it, to append its part (docs/JOURNAL.md).  A file that failed stays
 * closed: its failure is said in `status` until a new `record`.
 */
int
sinks_begin(struct sinks *k, struct session *s, char **cause)
{
	char	*why = NULL;
	int	 nk = (int)sysconf(_SC_NPROCESSORS_CONF);

	k->session = s;
	if (sinks_restart(k, &k->trace) == 0)
		session_trace(s, k->trace.f);
	/* The journal: the session a part of its own, after the others. */
	if (k->record.f != NULL &&
	    session_record(s, k->record.f, &why) != 0) {
		sinks_file_fail(k, &k->record, why);
		free(why);
	}
	if (k->perfetto_path == NULL)
		return (0);
	if (nk < 1)
		nk = 1;
	k->perfetto_ns = 0;
	if (k->perfetto != NULL) {
		/* The same file: the next part, later on its time line. */
		perfetto_next(k->perfetto,
		    engine_params(session_live_engine(s))->cpus, nk);
		return (0);
	}
	k->perfetto = perfetto_open(k->perfetto_path,
	    engine_params(session_live_engine(s))->cpus, nk, cause);
	sinks_arm(k);
	return (k->perfetto != NULL ? 0 : -1);
}

/*
 * Session s ends: its journal's end line, its part of the Perfetto trace
 * ended (the file stays open for the next session's part; sinks_free
 * closes it).
 */
void
sinks_end(struct sinks *k, struct session *s)
{
	session_end(s);
	sinks_file_flush(k, &k->trace);
	sinks_file_flush(k, &k->record);
	k->session = NULL;
	if (k->perfetto != NULL)
		perfetto_flush(k->perfetto);
}

/* The Perfetto trace, NULL if none. */
struct perfetto *
sinks_perfetto(const struct sinks *k)
{
	return (k->perfetto);
}

/*
 * The tick just run into the Perfetto trace, at engine time (tick ms,
 * SPEC.md section 9, as headless).
 */
void
sinks_perfetto_tick(struct sinks *k, const struct engine *e, uint64_t tick)
{
	if (k->perfetto == NULL)
		return;
	perfetto_tick(k->perfetto, e, tick);
	k->perfetto_ns = tick * 1000000ULL;
}

/*
 * A woken task let run at once (the engine's answer to a wake), at ns of
 * engine time: the engine's track shows it from then, not from the next
 * tick; never before what is written already.
 */
void
sinks_perfetto_wake(struct sinks *k, const struct engine *e, int cpu,
    int task, int rank, uint64_t ns)
{
	if (k->perfetto == NULL)
		return;
	if (ns < k->perfetto_ns)
		ns = k->perfetto_ns;
	k->perfetto_ns = ns;
	perfetto_wake_pick(k->perfetto, e, cpu, task, rank, ns);
}
