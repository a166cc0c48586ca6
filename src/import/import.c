/*
 * import.c -- stairs-import (SPEC.md section 11): a recording of a real
 * machine's scheduler, as perf script, tracefs's trace file or trace-cmd
 * report write it (or recorded here with --capture), turned into a
 * scenario whose tasks run and sleep as the real ones did, with what
 * the kernel did kept beside them (docs/IMPORT.md).
 *
 * Exit status: 0 ok; 2 bad usage or a bad trace ("FILE:LINE: message");
 * 1 any other failure (a file that cannot be read or written, a machine
 * that cannot trace); 130 a capture stopped by a signal.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "emit.h"
#include "number.h"
#include "tasklife.h"
#include "xmalloc.h"

/* The command line. */
struct import_opts {
	const char	*file;		/* NULL with --capture */
	const char	*out;		/* NULL: stdout */
	const char	*save;		/* --save: the captured trace */
	double		 capture;	/* seconds; 0: none */
	double		 from, to;	/* seconds; to 0: the end */
	int		*pids;
	size_t		 npids;
	char	       **comms;
	size_t		 ncomms;
	int		 top;
	int		 cpus;
	int		 kthreads;
};

static const char import_usage_text[] =
"usage: stairs-import [options] FILE|- [-o OUT]\n"
"       stairs-import --capture SECONDS [--save TRACE] [options] [-o OUT]\n"
"\n"
"Turn a recording of a real machine's scheduler into a scenario whose\n"
"tasks run and sleep as the real ones did (docs/IMPORT.md).  FILE is\n"
"perf script output (after perf sched record), tracefs's trace file, or\n"
"trace-cmd report output; which one is recognized.\n"
"\n"
"  -o, --output OUT    write the scenario to OUT (default: stdout)\n"
"  --capture SECONDS   record this machine through a tracefs instance of\n"
"                      our own (root), then convert\n"
"  --save TRACE        with --capture: keep the recorded trace text too\n"
"  --pid PID[,PID...]  only these pids (repeatable)\n"
"  --comm NAME         only tasks of this name (repeatable)\n"
"  --top N             only the N tasks with the most CPU time\n"
"  --from S, --to S    only the trace from S to S seconds after its start\n"
"  --cpus N            the scenario's CPUs (default: the trace's)\n"
"  --kernel-threads    keep kernel threads (left out by default)\n"
"  --help, --version\n"
"\n"
"Exit status: 0 ok, 2 bad usage or a bad trace, 1 other failure.\n";

/* A number of seconds >= 0; -1 if s is not one. */
static int
import_seconds(const char *s, double *out)
{
	char	*end;
	double	 v;

	if (*s == '\0' || *s == '-')
		return (-1);
	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || *end != '\0' || !isfinite(v) || v < 0 || v > 1e9)
		return (-1);
	*out = v;
	return (0);
}

/* Parse the command line into o; 0, 1 (done: help, version) or -1. */
static int
import_options(int argc, char **argv, struct import_opts *o)
{
	enum { O_CAPTURE = 256, O_SAVE, O_PID, O_COMM, O_TOP, O_FROM, O_TO,
	    O_CPUS, O_KTHREADS, O_VERSION };
	static const struct option longopts[] = {
		{ "output",	    required_argument,	NULL, 'o' },
		{ "capture",	    required_argument,	NULL, O_CAPTURE },
		{ "save",	    required_argument,	NULL, O_SAVE },
		{ "pid",	    required_argument,	NULL, O_PID },
		{ "comm",	    required_argument,	NULL, O_COMM },
		{ "top",	    required_argument,	NULL, O_TOP },
		{ "from",	    required_argument,	NULL, O_FROM },
		{ "to",		    required_argument,	NULL, O_TO },
		{ "cpus",	    required_argument,	NULL, O_CPUS },
		{ "kernel-threads", no_argument,	NULL, O_KTHREADS },
		{ "help",	    no_argument,	NULL, 'h' },
		{ "version",	    no_argument,	NULL, O_VERSION },
		{ NULL,		    0,			NULL, 0 }
	};
	char		*copy, *p, *word;
	long long	 v;
	int		 ch;

	while ((ch = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'o':
			o->out = optarg;
			break;
		case O_CAPTURE:
			if (import_seconds(optarg, &o->capture) != 0 ||
			    o->capture <= 0 || o->capture > 3600) {
				fprintf(stderr, "stairs-import: --capture "
				    "\"%s\": not a number of seconds in "
				    "(0, 3600]\n", optarg);
				return (-1);
			}
			break;
		case O_SAVE:
			o->save = optarg;
			break;
		case O_PID:
			copy = p = xstrdup(optarg);
			while ((word = strsep(&p, ",")) != NULL) {
				if (number_option("stairs-import", "pid", word,
				    1, INT_MAX, "a pid", &v) != 0) {
					free(copy);
					return (-1);
				}
				o->pids = xreallocarray(o->pids, o->npids + 1,
				    sizeof *o->pids);
				o->pids[o->npids++] = (int)v;
			}
			free(copy);
			break;
		case O_COMM:
			o->comms = xreallocarray(o->comms, o->ncomms + 1,
			    sizeof *o->comms);
			o->comms[o->ncomms++] = optarg;
			break;
		case O_TOP:
			if (number_option("stairs-import", "top", optarg, 1,
			    INT_MAX, "a number of tasks (1 or more)", &v) != 0)
				return (-1);
			o->top = (int)v;
			break;
		case O_FROM:
		case O_TO:
			if (import_seconds(optarg, ch == O_FROM ? &o->from :
			    &o->to) != 0) {
				fprintf(stderr, "stairs-import: --%s \"%s\": "
				    "not a number of seconds\n", ch == O_FROM ?
				    "from" : "to", optarg);
				return (-1);
			}
			break;
		case O_CPUS:
			if (number_option("stairs-import", "cpus", optarg, 1,
			    256, NULL, &v) != 0)
				return (-1);
			o->cpus = (int)v;
			break;
		case O_KTHREADS:
			o->kthreads = 1;
			break;
		case 'h':
			fputs(import_usage_text, stdout);
			return (1);
		case O_VERSION:
			printf("stairs-import %s\n", STAIRS_VERSION);
			return (1);
		default:
			fputs(import_usage_text, stderr);
			return (-1);
		}
	}
	if (o->capture == 0 && optind + 1 == argc)
		o->file = argv[optind++];
	if (optind < argc || (o->capture == 0 && o->file == NULL)) {
		if (optind < argc)
			fprintf(stderr, "stairs-import: unexpected argument "
			    "\"%s\"\n", argv[optind]);
		fputs(import_usage_text, stderr);
		return (-1);
	}
	if (o->save != NULL && o->capture == 0) {
		fprintf(stderr, "stairs-import: --save keeps a --capture's "
		    "trace: no --capture, nothing to save\n");
		return (-1);
	}
	if (o->to != 0 && o->to <= o->from) {
		fprintf(stderr, "stairs-import: --to %g is not after --from "
		    "%g\n", o->to, o->from);
		return (-1);
	}
	return (0);
}

/*
 * Read a trace from f into h, line by line; 0, or 2 with the complaint
 * printed as "LABEL:LINE: message".
 */
static int
import_read(FILE *f, const char *label, struct tasklife *h)
{
	char	*line = NULL, *cause;
	size_t	 size = 0;
	ssize_t	 n;
	int	 lineno = 0, ended = 1;

	while ((n = getline(&line, &size, f)) != -1) {
		lineno++;
		ended = n > 0 && line[n - 1] == '\n';
		if (memchr(line, '\0', (size_t)n) != NULL) {
			fprintf(stderr, "%s:%d: a NUL byte: not a text trace\n",
			    label, lineno);
			free(line);
			return (2);
		}
		if (!ended) {
			fprintf(stderr, "%s:%d: truncated: the last line has "
			    "no end\n", label, lineno);
			free(line);
			return (2);
		}
		if (tasklife_line(h, line, lineno, &cause) != 0) {
			fprintf(stderr, "%s:%d: %s\n", label, h->errline != 0 ?
			    h->errline : lineno, cause);
			free(cause);
			free(line);
			return (2);
		}
	}
	free(line);
	if (ferror(f)) {
		fprintf(stderr, "stairs-import: %s: %s\n", label,
		    strerror(errno));
		return (1);
	}
	if (tasklife_finish(h, &cause) != 0) {
		fprintf(stderr, "%s:%d: %s\n", label, lineno, cause);
		free(cause);
		return (2);
	}
	return (0);
}

/* Say on stderr what was read and what was written. */
static void
import_summary(const struct tasklife *h, const struct emit_result *r,
    const char *label)
{
	uint64_t	span = h->end - h->begin;

	fprintf(stderr, "stairs-import: %s: %s, %d CPUs, %" PRIu64 ".%03" PRIu64
	    " s, %" PRIu64 " events: %zu tasks written (left out: %zu kernel "
	    "threads, %zu realtime, %zu never ran, %zu not asked for); "
	    "%" PRIu64 " of %" PRIu64 " runs kept apart at 1 ms ticks\n",
	    label, ktrace_form_name(ktrace_form(&h->kt)), tasklife_ncpus(h),
	    span / 1000000000, span % 1000000000 / 1000000, h->events,
	    r->written, r->kthreads, r->realtime, r->idle, r->unselected,
	    r->runs_kept, r->runs);
	if (h->kt.lost_marks > 0)
		fprintf(stderr, "stairs-import: %s: %" PRIu64 " events lost "
		    "(%d lines say so); %" PRIu64 " impossible steps after "
		    "them repaired\n", label, h->kt.lost, h->kt.lost_marks,
		    h->repaired);
	if (h->gaps > 0)
		fprintf(stderr, "stairs-import: %s: %" PRIu64 " switches "
		    "missing from the trace (a CPU switched out a task it "
		    "was not seen to run, or its recording ended first): "
		    "repaired\n", label, h->gaps);
	if (h->reused > 0)
		fprintf(stderr, "stairs-import: %s: %" PRIu64 " pids used "
		    "again (named NAME-PID.N)\n", label, h->reused);
}

/* Write the scenario to o->out or stdout; an exit status. */
static int
import_write(const struct import_opts *o, const struct tasklife *h,
    const struct emit_opts *eo, const char *label)
{
	struct emit_result	 r;
	FILE			*f = stdout;
	char			*cause;
	int			 status = 0;

	if (o->out != NULL && (f = fopen(o->out, "w")) == NULL) {
		fprintf(stderr, "stairs-import: %s: %s\n", o->out,
		    strerror(errno));
		return (1);
	}
	if (emit_scenario(f, h, eo, &r, &cause) != 0) {
		fprintf(stderr, "stairs-import: %s: %s\n", label, cause);
		free(cause);
		status = 2;
	} else
		import_summary(h, &r, label);
	if (fflush(f) != 0 || ferror(f)) {
		fprintf(stderr, "stairs-import: %s: %s\n", o->out != NULL ?
		    o->out : "stdout", strerror(errno));
		status = 1;
	}
	if (f != stdout && fclose(f) != 0 && status == 0) {
		fprintf(stderr, "stairs-import: %s: %s\n", o->out,
		    strerror(errno));
		status = 1;
	}
	if (status != 0 && o->out != NULL)
		unlink(o->out);
	return (status);
}

/* Keep the captured trace's text in o->save; an exit status. */
static int
import_save(const struct import_opts *o, const struct capture *cap)
{
	FILE	*f;

	if ((f = fopen(o->save, "w")) == NULL ||
	    fwrite(cap->text, 1, cap->len, f) != cap->len ||
	    fclose(f) != 0) {
		fprintf(stderr, "stairs-import: %s: %s\n", o->save,
		    strerror(errno));
		return (1);
	}
	return (0);
}

int
main(int argc, char **argv)
{
	struct import_opts	 o;
	struct tasklife_opts	 ho;
	struct tasklife		 h;
	struct emit_opts	 eo;
	struct capture		 cap;
	FILE			*f;
	const char		*label;
	char			*cause;
	int			 r, status;

	memset(&o, 0, sizeof o);
	memset(&cap, 0, sizeof cap);
	if ((r = import_options(argc, argv, &o)) != 0)
		return (r == 1 ? 0 : 2);
	memset(&ho, 0, sizeof ho);
	ho.from = (uint64_t)(o.from * 1e9);
	ho.to = (uint64_t)(o.to * 1e9);
	tasklife_init(&h, &ho);

	if (o.capture > 0) {
		fprintf(stderr, "stairs-import: recording this machine for "
		    "%g s\n", o.capture);
		if ((r = capture_run(o.capture, &cap, &cause)) != 0) {
			fprintf(stderr, "stairs-import: %s\n", cause);
			free(cause);
			return (r == -2 ? 130 : 1);
		}
		if (o.save != NULL && (status = import_save(&o, &cap)) != 0)
			goto out;
		label = o.save != NULL ? o.save : cap.label;
		if ((f = fmemopen(cap.text, cap.len, "r")) == NULL) {
			fprintf(stderr, "stairs-import: %s\n", strerror(errno));
			status = 1;
			goto out;
		}
	} else if (strcmp(o.file, "-") == 0) {
		label = "stdin";
		f = stdin;
	} else if ((f = fopen(o.file, "r")) == NULL) {
		fprintf(stderr, "stairs-import: %s: %s\n", o.file,
		    strerror(errno));
		status = 1;
		goto out;
	} else
		label = o.file;
	status = import_read(f, label, &h);
	if (f != stdin)
		fclose(f);
	if (status != 0)
		goto out;

	memset(&eo, 0, sizeof eo);
	eo.pids = o.pids;
	eo.npids = o.npids;
	eo.comms = o.comms;
	eo.ncomms = o.ncomms;
	eo.top = o.top;
	eo.cpus = o.cpus;
	eo.kthreads = o.kthreads;
	eo.kpids = cap.kpids;
	eo.nkpids = cap.nkpids;
	eo.source = label;
	eo.notes = stderr;
	status = import_write(&o, &h, &eo, label);
out:
	tasklife_free(&h);
	capture_free(&cap);
	free(o.pids);
	free(o.comms);
	return (status);
}
