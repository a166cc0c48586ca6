/*
 * fuzz_protocol.c -- libFuzzer harness for the daemon's side of the
 * protocol: each input line goes through the checks clients.c makes
 * (a trailing \r, the 4 096-byte limit, NUL bytes), cmd_parse(), and
 * then cmd_run() against an in-process live daemon holding a real engine
 * with the demo scenario's tasks, so the daemon-side parsing (task names
 * and ids, CPU lists, patterns) and the replies are exercised too.
 *
 * No process is ever spawned: the live daemon runs no real-process layer
 * (live_begin's real is 0), so `spawn` is refused as on a machine without
 * real processes.  `step N` is capped at FUZZ_STEP_MAX ticks to keep each input
 * fast; the command's parsing is unchanged.  Every reply line must be
 * printable ASCII and bounded (PROTOCOL.md); anything else aborts.
 */
#include <sys/timerfd.h>

#include <event2/buffer.h>
#include <event2/event.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "config.h"
#include "live.h"
#include "log.h"
#include "pacer.h"
#include "fuzz.h"

#define FUZZ_STEP_MAX	200
#define FUZZ_REPLY_MAX	512	/* table rows are the longest, < 400 */

static struct event_base *fuzz_base;
static int		 fuzz_tick_fd = -1;

/* Once: an event base and the clock's timerfd. */
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	log_set_level(LOG_LEVEL_ERROR);
	if ((fuzz_base = event_base_new()) == NULL)
		abort();
	if ((fuzz_tick_fd = timerfd_create(CLOCK_MONOTONIC,
	    TFD_NONBLOCK | TFD_CLOEXEC)) == -1)
		abort();
	return (0);
}

/*
 * Every byte of the reply must be printable ASCII or a newline, and no
 * line may run past FUZZ_REPLY_MAX: a word from the user is quoted with
 * at most 40 of its characters (PROTOCOL.md), so an echo of the whole
 * input shows.
 */
static void
fuzz_check_reply(struct evbuffer *out)
{
	size_t		 len = evbuffer_get_length(out), i, start = 0;
	unsigned char	*p;

	if (len == 0)
		return;
	p = evbuffer_pullup(out, len);
	for (i = 0; i < len; i++) {
		if (p[i] == '\n') {
			start = i + 1;
			continue;
		}
		if (p[i] >= 0x20 && p[i] < 0x7f && i - start < FUZZ_REPLY_MAX)
			continue;
		fprintf(stderr, "fuzz_protocol: %s in reply: %.*s\n",
		    i - start >= FUZZ_REPLY_MAX ? "overlong line" : "bad byte",
		    (int)len, (char *)p);
		abort();
	}
	evbuffer_drain(out, len);
}

/*
 * A fresh live daemon: the demo's engine, paused at tick 0, no socket,
 * no real processes.
 */
static struct live *
fuzz_live(void)
{
	struct config	 cfg;
	struct live	*l;
	char		*cause;

	config_defaults(&cfg);
	l = live_create(&cfg, NULL);
	if (live_load(l, "demo", &cause) != 0) {
		fprintf(stderr, "fuzz_protocol: %s\n", cause);
		abort();
	}
	live_begin(l, fuzz_base, fuzz_tick_fd, 0);
	pacer_pause(live_pacer(l));
	return (l);
}

/* One line, as client_line() takes it; nonzero: stop reading. */
static int
fuzz_line(void *arg, char *line, size_t len)
{
	struct live		*l = arg;
	struct evbuffer		*out;
	struct cmd_ctx		 ctx;
	struct cmd		 cmd;
	char			*cause = NULL;
	enum cmd_retval		 r;

	if (len > 0 && line[len - 1] == '\r')
		line[--len] = '\0';
	if (len > PROTO_LINE_MAX || strlen(line) != len)
		return (0);	/* refused before parsing */
	if (cmd_parse(line, &cmd, &cause) != 0) {
		out = evbuffer_new();
		evbuffer_add_printf(out, "err %s\n", cause);
		free(cause);
		fuzz_check_reply(out);
		evbuffer_free(out);
		return (0);
	}
	if (cmd.entry == &cmd_step_entry && cmd.steps > FUZZ_STEP_MAX)
		cmd.steps = FUZZ_STEP_MAX;
	/* A journal goes nowhere; (load reads files, spawns nothing here). */
	if (cmd.entry == &cmd_record_entry) {
		free(cmd.path);
		cmd.path = strdup("/dev/null");
	}
	out = evbuffer_new();
	memset(&ctx, 0, sizeof ctx);
	ctx.live = l;
	ctx.out = out;
	r = cmd_run(&cmd, &ctx);
	fuzz_check_reply(out);
	evbuffer_free(out);
	cmd_free(&cmd);
	return (r == CMD_QUIT || live_exiting(l));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct live	*l;

	l = fuzz_live();
	fuzz_lines(data, size, fuzz_line, l);
	live_end(l);
	live_free(l);
	return (0);
}
