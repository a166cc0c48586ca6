/*
 * sinks.c -- the live daemon's output files.  The session writes the
 * trace's rows and the journal's changes into the FILEs it is given
 * (session_trace, session_record); the Perfetto trace is written here,
 * a tick at a time, and by the real-process bridge (the kernel's runs).
 * A load ends the session's files (the journal's end line) and starts
 * each again for the next session.  While a file is open a timer flushes
 * it every 200 ms so `tail -f` sees it; paused and idle, nothing wakes.
 */
#include <event2/event.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "log.h"
#include "path.h"
#include "perfetto.h"
#include "session.h"
#include "sinks.h"
#include "xmalloc.h"

struct sinks {
	FILE		*trace;		/* NULL: none */
	char		*trace_path;	/* NULL: standard output */
	FILE		*record;	/* the journal */
	char		*record_path;
	struct perfetto	*perfetto;
	char		*perfetto_path;	/* NULL: none */
	uint64_t	 perfetto_ns;	/* its latest engine time */
	struct event	*flush;
};

/* No file yet. */
struct sinks *
sinks_create(void)
{
	return (xcalloc(1, sizeof (struct sinks)));
}

/* Close every file (the session's end was written: sinks_end). */
void
sinks_free(struct sinks *k)
{
	char	*cause = NULL;

	if (k == NULL)
		return;
	if (k->trace != NULL && k->trace != stdout)
		fclose(k->trace);
	else if (k->trace != NULL)
		fflush(k->trace);
	if (k->record != NULL)
		fclose(k->record);
	if (k->perfetto != NULL && perfetto_close(k->perfetto, &cause) != 0) {
		log_warnx("%s: %s", k->perfetto_path, cause);
		free(cause);
	}
	if (k->flush != NULL)
		event_free(k->flush);
	free(k->trace_path);
	free(k->record_path);
	free(k->perfetto_path);
	free(k);
}

/* Flush every file now. */
void
sinks_flush(struct sinks *k)
{
	if (k->trace != NULL)
		fflush(k->trace);
	if (k->perfetto != NULL)
		perfetto_flush(k->perfetto);
	if (k->record != NULL)
		fflush(k->record);
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

	if (k->flush != NULL && (k->trace != NULL || k->record != NULL ||
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

/* The CSV trace to path, or "-" for standard output. */
int
sinks_trace_open(struct sinks *k, const char *path, char **cause)
{
	if (strcmp(path, "-") == 0) {
		k->trace = stdout;
		return (0);
	}
	if ((k->trace = fopen(path, "w")) == NULL) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return (-1);
	}
	k->trace_path = path_absolute(path);
	sinks_arm(k);
	return (0);
}

/* Is the trace going to standard output (which detaching closes)? */
int
sinks_trace_stdout(const struct sinks *k)
{
	return (k->trace == stdout);
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

	if ((f = fopen(path, "w")) == NULL) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return (-1);
	}
	if (k->record != NULL)
		session_end(s);
	if (session_record(s, f, cause) != 0) {
		fclose(f);
		return (-1);
	}
	if (k->record != NULL)
		fclose(k->record);
	k->record = f;
	free(k->record_path);
	k->record_path = path_absolute(path);
	sinks_arm(k);
	return (0);
}

/* Start a file again from its beginning. */
static int
sinks_restart(FILE *f, const char *path, char **cause)
{
	if (f == NULL || f == stdout)
		return (0);
	fflush(f);
	if (ftruncate(fileno(f), 0) != 0 || fseek(f, 0, SEEK_SET) != 0) {
		*cause = xasprintf("%s: %s", path != NULL ? path : "?",
		    strerror(errno));
		return (-1);
	}
	return (0);
}

/*
 * Session s begins: the Perfetto trace opened anew (engine CPU tracks
 * for the session, kernel tracks for every physical CPU), the trace and
 * the journal started again and given to it.
 */
int
sinks_begin(struct sinks *k, struct session *s, char **cause)
{
	char	*why = NULL;
	int	 nk = (int)sysconf(_SC_NPROCESSORS_CONF);

	if (k->trace != NULL) {
		if (sinks_restart(k->trace, k->trace_path, &why) != 0) {
			log_warnx("trace: %s", why);
			free(why);
			why = NULL;
		} else
			session_trace(s, k->trace);
	}
	if (k->record != NULL &&
	    (sinks_restart(k->record, k->record_path, &why) != 0 ||
	    session_record(s, k->record, &why) != 0)) {
		log_warnx("record: %s", why);
		free(why);
	}
	if (k->perfetto_path == NULL)
		return (0);
	if (nk < 1)
		nk = 1;
	k->perfetto = perfetto_open(k->perfetto_path,
	    engine_params(session_live_engine(s))->cpus, nk, cause);
	k->perfetto_ns = 0;
	sinks_arm(k);
	return (k->perfetto != NULL ? 0 : -1);
}

/* Session s ends: its journal's end line; the Perfetto trace closed. */
void
sinks_end(struct sinks *k, struct session *s)
{
	char	*cause = NULL;

	session_end(s);
	if (k->perfetto == NULL)
		return;
	if (perfetto_close(k->perfetto, &cause) != 0) {
		log_warnx("%s: %s", k->perfetto_path, cause);
		free(cause);
	}
	k->perfetto = NULL;
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
