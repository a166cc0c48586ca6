/*
 * main.c -- stairsd: `--headless` anywhere on the command line runs a
 * scenario with no socket and no clock (headless.c); anything else
 * starts the live daemon: options, the configuration, the session, the
 * socket and the files, detaching, signals, and the event loop, with
 * the live daemon (live.c) at its centre.
 *
 * Start-up does everything that can fail (config, scenario, socket, trace
 * file) before detaching, so errors reach the caller's terminal with exit
 * status 2 (bad input) or 1 (the system said no), and the parent exits
 * only once the socket is listening and the event loop is ready:
 * "stairsd && socat - UNIX-CONNECT:..." works.
 */
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/timerfd.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <event2/event.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <malloc.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bridge.h"
#include "clients.h"
#include "config.h"
#include "frames.h"
#include "headless.h"
#include "live.h"
#include "log.h"
#include "pacer.h"
#include "path.h"
#include "proc.h"
#include "protocol.h"
#include "server.h"
#include "session.h"
#include "sinks.h"
#include "sock.h"
#include "xmalloc.h"

static const struct option main_longopts[] = {
	{ "foreground", no_argument, NULL, 'f' },
	{ "config", required_argument, NULL, 'c' },
	{ "socket", required_argument, NULL, 'S' },
	{ "scenario", required_argument, NULL, 's' },
	{ "trace", required_argument, NULL, 't' },
	{ "record", required_argument, NULL, 'R' },
	{ "perfetto", required_argument, NULL, 'P' },
	{ "replay", required_argument, NULL, 'r' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

/* The live daemon's options. */
struct main_opts {
	int		 foreground;
	const char	*config, *socket, *scenario;
	const char	*trace, *record, *perfetto;
	const char	*replay;	/* a recording, on the clock */
};

/* Print the usage to f. */
static void
main_usage(FILE *f)
{
	fprintf(f, "usage: stairsd [-f] [-c CONFIG] [-S SOCKET] "
	    "[--scenario NAME|FILE] [--trace FILE|-]\n"
	    "               [--record JOURNAL] [--perfetto PATH]\n"
	    "       stairsd [-f] [-c CONFIG] [-S SOCKET] --replay JOURNAL "
	    "[--trace FILE|-]\n"
	    "       stairsd --headless --scenario FILE --ticks N [...]\n"
	    "  -f, --foreground   stay in the foreground, log to stderr\n"
	    "  -c, --config FILE  configuration (default: "
	    "$XDG_CONFIG_HOME/stairs/stairsd.cfg,\n"
	    "                     else /etc/stairs/stairsd.cfg, if it exists)\n"
	    "  -S, --socket PATH  control socket (default: "
	    "$XDG_RUNTIME_DIR/stairs/socket or /tmp/stairs-UID/socket)\n"
	    "  --scenario NAME|FILE  scenario to run: a built-in one's name "
	    "or a file\n"
	    "                     (default: the config's, else the demo)\n"
	    "  --trace FILE       write the CSV trace live (- for stdout)\n"
	    "  --record JOURNAL   record the session's journal (replay it "
	    "with\n"
	    "                     stairsd --headless --replay JOURNAL)\n"
	    "  --perfetto PATH    write the run live as ftrace text for "
	    "Perfetto's UI,\n"
	    "                     with the kernel's switches of the real "
	    "tasks\n"
	    "  --replay JOURNAL   play a recording (--record) on the clock, "
	    "part by part\n"
	    "                     (the `part N` command), spawning nothing\n"
	    "  --help, --version\n"
	    "Drive it with: socat - UNIX-CONNECT:SOCKET (see "
	    "docs/PROTOCOL.md).\n");
}

/* Read the options into o; -1 (exit 0) for help or version, 2: bad. */
static int
main_options(int argc, char **argv, struct main_opts *o)
{
	int	ch;

	memset(o, 0, sizeof *o);
	while ((ch = getopt_long(argc, argv, "fc:S:hV", main_longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'f':
			o->foreground = 1;
			break;
		case 'c':
			o->config = optarg;
			break;
		case 'S':
			o->socket = optarg;
			break;
		case 's':
			o->scenario = optarg;
			break;
		case 't':
			o->trace = optarg;
			break;
		case 'R':
			o->record = optarg;
			break;
		case 'P':
			o->perfetto = optarg;
			break;
		case 'r':
			o->replay = optarg;
			break;
		case 'h':
			main_usage(stdout);
			return (-1);
		case 'V':
			printf("stairsd %s (protocol %d)\n", STAIRS_VERSION,
			    PROTO_VERSION);
			return (-1);
		default:
			main_usage(stderr);
			return (2);
		}
	}
	if (optind != argc) {
		fprintf(stderr, "stairsd: unexpected argument \"%s\"\n",
		    argv[optind]);
		main_usage(stderr);
		return (2);
	}
	if (o->replay != NULL && (o->scenario != NULL || o->record != NULL)) {
		fprintf(stderr, "stairsd: --replay plays the recording's "
		    "scenarios: no --scenario or --record with it\n");
		return (2);
	}
	return (0);
}

/*
 * Ask for a better scheduling class for the tick: SCHED_FIFO if allowed,
 * else nice -10; children get the default back (SCHED_RESET_ON_FORK).
 * Failure is fine: the clock catches up either way.
 */
static void
main_priority(const struct config *cfg)
{
	struct sched_param	sp;

	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	if (!cfg->realtime)
		return;
	memset(&sp, 0, sizeof sp);
	sp.sched_priority = 1;
	if (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp) == 0) {
		log_debug("running at SCHED_FIFO 1");
		return;
	}
	sp.sched_priority = 0;
	(void)sched_setscheduler(0, SCHED_OTHER | SCHED_RESET_ON_FORK, &sp);
	if (setpriority(PRIO_PROCESS, 0, -10) == 0)
		log_debug("running at nice -10");
}

/*
 * Detach: fork twice with a pipe from the grandchild (the daemon) to the
 * parent.  The parent waits for one byte, written once the daemon is
 * ready, and exits 0; if the pipe closes first the daemon failed (its
 * reason is in syslog) and the parent exits 1.  Returns the pipe's write
 * end in the daemon.
 */
static int
main_detach(void)
{
	char	c;
	int	fds[2], fd;
	pid_t	pid;
	ssize_t	n;

	if (pipe2(fds, O_CLOEXEC) != 0)
		fatal("pipe");
	switch ((pid = fork())) {
	case -1:
		fatal("fork");
	case 0:
		break;
	default:
		close(fds[1]);
		waitpid(pid, NULL, 0);
		do
			n = read(fds[0], &c, 1);
		while (n == -1 && errno == EINTR);
		if (n == 1)
			exit(0);
		fprintf(stderr, "stairsd: the daemon did not start; see "
		    "syslog\n");
		exit(1);
	}
	close(fds[0]);
	if (setsid() == -1)
		fatal("setsid");
	switch (fork()) {
	case -1:
		fatal("fork");
	case 0:
		break;
	default:
		_exit(0);
	}
	if (chdir("/") != 0)
		fatal("chdir /");
	if ((fd = open("/dev/null", O_RDWR)) != -1) {
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		if (fd > STDERR_FILENO)
			close(fd);
	}
	return (fds[1]);
}

#define MAIN_NSIGNALS	5	/* those main_signal handles */

/* Signals: TERM and INT exit, HUP reloads, CHLD reaps, CONT re-enforces. */
static void
main_signal(evutil_socket_t sig, short events, void *arg)
{
	struct live	*l = arg;
	struct procs	*procs = bridge_procs(live_bridge(l));
	int		 status;

	/*
	 * Like a command: the engine at the tick the wall clock says (and
	 * before an exit is reaped, else it would land at the last tick
	 * run, before it happened).
	 */
	live_catchup(l);
	switch (sig) {
	case SIGTERM:
	case SIGINT:
		log_info("%s: exiting", strsignal(sig));
		live_shutdown(l);
		break;
	case SIGHUP:
		live_reload(l);
		break;
	case SIGCONT:
		/* Stopped (^Z, kill -STOP): the watchdog held the children. */
		if (procs != NULL)
			procs_reassert(procs);
		break;
	case SIGCHLD:
		if (procs != NULL)
			procs_reap(procs);
		else {
			while (waitpid(-1, &status, WNOHANG) > 0)
				;
		}
		break;
	}
}

/* A start-up failure: say why, return the status. */
static int
main_fail(char *cause, int status)
{
	fprintf(stderr, "stairsd: %s\n", cause);
	free(cause);
	return (status);
}

/* A new session: the frames and the subscribers start again. */
static void
main_loaded(void *arg)
{
	clients_reset(arg);
}

/*
 * Open the files the options ask for, for the first session; 0, or the
 * exit status with *cause.
 */
static int
main_files(struct live *l, const struct main_opts *o, char **cause)
{
	struct sinks	*k = live_sinks(l);

	if (o->trace != NULL && sinks_trace_open(k, o->trace, cause) != 0)
		return (1);
	if (o->perfetto != NULL)
		sinks_perfetto_path(k, o->perfetto);
	if (sinks_begin(k, live_session(l), cause) != 0)
		return (1);
	if (o->record != NULL &&
	    sinks_record(k, live_session(l), o->record, cause) != 0)
		return (1);
	if (!o->foreground && sinks_trace_stdout(k)) {
		*cause = xstrdup("--trace - needs -f");
		return (2);
	}
	return (0);
}

/* Run the live daemon. */
static int
main_daemon(int argc, char **argv)
{
	struct main_opts	 o;
	struct config		 cfg;
	struct live		*l;
	struct frames		*frames;
	struct clients		*clients;
	struct server		*server;
	struct event_base	*base;
	struct event_config	*ecfg;
	struct event		*sigs[MAIN_NSIGNALS];
	struct sigaction	 sa;
	char			*cause = NULL, *path, *socket_path;
	int			 fd, ready = -1, i, tick_fd, status;
	sigset_t		 held, oldmask;
	static const int	 signos[MAIN_NSIGNALS] = {
	    SIGTERM, SIGINT, SIGHUP, SIGCHLD, SIGCONT };

	if ((status = main_options(argc, argv, &o)) != 0)
		return (status == -1 ? 0 : status);
	log_init("stairsd", 1, LOG_LEVEL_INFO);

	/* The configuration: -c, else the XDG file if any, else defaults. */
	config_defaults(&cfg);
	path = o.config != NULL ? xstrdup(o.config) : config_default_path();
	if (path != NULL && config_load(path, &cfg, &cause) != 0) {
		free(path);
		config_free(&cfg);
		return (main_fail(cause, 2));
	}
	log_set_level(cfg.log_level);
	l = live_create(&cfg, path);	/* cfg is the live daemon's now */
	free(path);

	/* The scenario and the engine (a recording's first part). */
	if (o.replay != NULL ? live_replay(l, o.replay, &cause) != 0 :
	    live_load(l, o.scenario != NULL ? o.scenario :
	    live_config(l)->scenario, &cause) != 0) {
		live_free(l);
		return (main_fail(cause, 2));
	}

	/* The socket. */
	if (o.socket != NULL)
		socket_path = path_absolute(o.socket);
	else if (*live_config(l)->socket != '\0')
		socket_path = path_absolute(live_config(l)->socket);
	else
		socket_path = sock_default_path();
	/*
	 * From the moment the socket exists a client may signal us: hold
	 * the signals we handle until libevent's handlers are in place, so
	 * an early SIGTERM is a clean exit rather than a kill.
	 */
	sigemptyset(&held);
	for (i = 0; i < MAIN_NSIGNALS; i++)
		sigaddset(&held, signos[i]);
	sigprocmask(SIG_BLOCK, &held, &oldmask);
	if ((fd = server_listen(socket_path, &cause)) == -1) {
		free(socket_path);
		live_free(l);
		return (main_fail(cause, 1));
	}

	/* The trace, the Perfetto trace, the journal. */
	if ((status = main_files(l, &o, &cause)) != 0) {
		close(fd);
		unlink(socket_path);
		free(socket_path);
		live_free(l);
		return (main_fail(cause, status));
	}

	if (!o.foreground) {
		ready = main_detach();
		log_init("stairsd", 0, live_config(l)->log_level);
	}
	signal(SIGPIPE, SIG_IGN);
	/*
	 * Frames for many tasks are 100+ KB each, 30 a second per subscriber:
	 * keep that memory in the heap rather than mapping and faulting in
	 * fresh pages for every frame (measured: a third of the daemon's CPU
	 * with 1 000 tasks and 5 subscribers went to page faults and cold
	 * copies).  The heap stays bounded by the per-client output bound.
	 */
	mallopt(M_MMAP_THRESHOLD, 4 * 1024 * 1024);
	mallopt(M_TRIM_THRESHOLD, 32 * 1024 * 1024);

	/* The event loop; the clock has its own timerfd (pacer.c). */
	if ((ecfg = event_config_new()) == NULL)
		fatalx("event_config_new failed");
	if ((base = event_base_new_with_config(ecfg)) == NULL)
		fatalx("event_base_new failed");
	event_config_free(ecfg);
	for (i = 0; i < MAIN_NSIGNALS; i++) {
		sigs[i] = evsignal_new(base, signos[i], main_signal, l);
		evsignal_add(sigs[i], NULL);
	}
	sigprocmask(SIG_SETMASK, &oldmask, NULL);	/* and children's */
	/* Children are stopped and continued all the time: SIGCHLD only
	 * when one ends (libevent installs the handler without the flag). */
	if (sigaction(SIGCHLD, NULL, &sa) == 0) {
		sa.sa_flags |= SA_NOCLDSTOP;
		sigaction(SIGCHLD, &sa, NULL);
	}
	tick_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (tick_fd == -1)
		fatal("timerfd_create");
	/* A recording spawns nothing: its journal moves its real tasks. */
	live_begin(l, base, tick_fd, o.replay == NULL);
	frames = frames_create(l);
	clients = clients_create(l, frames);
	server = server_create(l, clients, fd);
	live_on_load(l, main_loaded, clients);
	main_priority(live_config(l));

	log_info("serving %s on %s (%d cpus, speed %g)",
	    session_name(live_session(l)), socket_path,
	    engine_params(live_engine(l))->cpus, pacer_speed(live_pacer(l)));
	if (ready != -1) {
		(void)write(ready, "1", 1);
		close(ready);
	}

	event_base_dispatch(base);

	/* Clean exit: replies flushed, socket removed, everything freed. */
	clients_flush(clients);
	server_free(server);
	clients_free(clients);
	frames_free(frames);
	unlink(socket_path);
	free(socket_path);
	live_end(l);	/* the journal's end line, children killed */
	for (i = 0; i < MAIN_NSIGNALS; i++)
		event_free(sigs[i]);
	live_free(l);
	close(tick_fd);
	event_base_free(base);
	log_info("exited");
	return (0);
}

int
main(int argc, char **argv)
{
	int	i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "--headless") == 0)
			return (headless_main(argc, argv));
	}
	return (main_daemon(argc, argv));
}
