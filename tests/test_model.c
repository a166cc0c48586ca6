/*
 * test_model.c -- the client's model fed protocol lines: the greeting,
 * frames (and frames with malformed lines), replies matched with the
 * commands sent, the article's table, %cpu from ran and tick deltas,
 * and the key table's commands and refusals.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <curses.h>

#include "caption.h"
#include "draw.h"
#include "follow.h"
#include "grid.h"
#include "keys.h"
#include "model.h"
#include "runs.h"
#include "view.h"

#define TASK(id, name, state, ran) \
	"task id=" #id " name=" name " kind=sim pid=- nice=0 cpu=0 " \
	"rank=120 iter=1 left=10 state=" state " ran=" #ran " cputime=- " \
	"cpus=0 group=- exit=-"

/* A model that has been greeted. */
static struct model *
greeted(void)
{
	struct model	*m = model_create();

	assert_int_equal(model_feed(m, "stairs 1 0.1.0"), MODEL_GREETING);
	assert_int_equal(m->proto, 1);
	assert_string_equal(m->version, "0.1.0");
	return (m);
}

/* Feed a frame with one hog that has run ran ms at tick. */
static void
frame_at(struct model *m, long tick, long ran)
{
	char	line[512];

	snprintf(line, sizeof line, "frame tick=%ld cpus=1 tasks=1 paused=0 "
	    "speed=1 rr=10 dropped=0", tick);
	assert_int_equal(model_feed(m, line), MODEL_NOTHING);
	model_feed(m, "cpu id=0 task=1 nr=1 rank=120 iter=1 left=10");
	snprintf(line, sizeof line, "task id=1 name=hog kind=sim pid=- "
	    "nice=0 cpu=0 rank=120 iter=1 left=10 state=running ran=%ld "
	    "cputime=- cpus=0 group=- exit=-", ran);
	assert_int_equal(model_feed(m, line), MODEL_NOTHING);
	assert_int_equal(model_feed(m, "end"), MODEL_FRAME);
}

/* Something that is not a stairs daemon is refused at once. */
static void
test_greeting_bad(void **state)
{
	struct model	*m = model_create();

	assert_int_equal(model_feed(m, "SSH-2.0-OpenSSH"), MODEL_BAD);
	assert_false(m->greeted);
	assert_int_equal(model_feed(m, "stairs x 0.1"), MODEL_BAD);
	assert_int_equal(model_feed(m, "stairs 1 0.1.0\r"), MODEL_GREETING);
	model_free(m);
}

/* A whole frame: header, CPUs, tasks, caption, events. */
static void
test_frame(void **state)
{
	struct model		*m = greeted();
	const struct mtask	*t;

	assert_int_equal(model_feed(m, "frame tick=48213 cpus=2 tasks=2 "
	    "paused=1 speed=0.5 rr=20 dropped=7"), MODEL_NOTHING);
	assert_int_equal(model_feed(m,
	    "cpu id=1 task=0 nr=0 rank=- iter=- left=-"), MODEL_NOTHING);
	assert_int_equal(model_feed(m,
	    "cpu id=0 task=3 nr=2 rank=123 iter=2 left=10"), MODEL_NOTHING);
	assert_int_equal(model_feed(m, "task id=3 name=make kind=real "
	    "pid=41022 nice=-5 cpu=0 rank=123 iter=2 left=10 state=running "
	    "ran=2020 cputime=2010 cpus=0-1 group=batch exit=-"),
	    MODEL_NOTHING);
	assert_int_equal(model_feed(m, TASK(1, "hog", "runnable", 5)),
	    MODEL_NOTHING);
	assert_int_equal(model_feed(m, "caption tick=48000 text=The hog "
	    "climbs  back up"), MODEL_NOTHING);
	assert_int_equal(model_feed(m, "event tick=48210 text=hog sleeps "
	    "1000 ms"), MODEL_NOTHING);
	/* Nothing shows before the end. */
	assert_int_equal(m->ntasks, 0);
	assert_int_equal(model_feed(m, "end"), MODEL_FRAME);

	assert_int_equal(m->tick, 48213);
	assert_true(m->paused);
	assert_true(m->speed == 0.5);
	assert_int_equal(m->rr, 20);
	assert_int_equal(m->dropped, 7);
	assert_int_equal(m->ncpus, 2);
	assert_int_equal(m->cpus[0].id, 0);	/* sorted */
	assert_int_equal(m->cpus[0].task, 3);
	assert_int_equal(m->cpus[1].task, 0);
	assert_int_equal(m->cpus[1].rank, -1);
	assert_int_equal(m->ntasks, 2);
	assert_int_equal(m->tasks[0].id, 1);	/* sorted */
	t = model_task(m, 3);
	assert_non_null(t);
	assert_string_equal(t->name, "make");
	assert_true(t->real);
	assert_int_equal(t->pid, 41022);
	assert_int_equal(t->nice, -5);
	assert_int_equal(t->state, MTASK_RUNNING);
	assert_int_equal(t->ran, 2020);
	assert_int_equal(t->cputime, 2010);
	assert_string_equal(t->cpus, "0-1");
	assert_string_equal(t->group, "batch");
	t = model_task(m, 1);
	assert_int_equal(t->pid, -1);
	assert_int_equal(t->cputime, -1);
	assert_null(model_task(m, 2));
	assert_string_equal(m->caption, "The hog climbs  back up");
	assert_string_equal(model_last_event(m), "hog sleeps 1000 ms");

	/* The next frame without a caption clears it. */
	frame_at(m, 48300, 10);
	assert_string_equal(m->caption, "");
	assert_int_equal(m->ntasks, 1);
	model_free(m);
}

/* Malformed lines are skipped, counted and said; the frame still counts. */
static void
test_frame_malformed(void **state)
{
	struct model	*m = greeted();

	model_feed(m, "frame tick=10 cpus=1 tasks=3 paused=0 speed=1 rr=10 "
	    "dropped=0");
	assert_int_equal(model_feed(m, "task id=x name=a state=running"),
	    MODEL_BAD);
	assert_non_null(strstr(m->bad, "bad task line"));
	assert_int_equal(model_feed(m, "task id=2 name=b state=dozing"),
	    MODEL_BAD);
	assert_int_equal(model_feed(m, "task id=3 state=running"), MODEL_BAD);
	assert_int_equal(model_feed(m, "task id=4 name=d nice=99 "
	    "state=running"), MODEL_BAD);
	assert_int_equal(model_feed(m, "task id=5 name=e rank=200 "
	    "state=running"), MODEL_BAD);
	/* iter is at most 40 stairs (nice -20): no overflow in allot. */
	assert_int_equal(model_feed(m, "task id=8 name=h iter=2147483647 "
	    "state=running"), MODEL_BAD);
	assert_int_equal(model_feed(m, "cpu id=0 task=1 nr=two"), MODEL_BAD);
	assert_int_equal(model_feed(m, "event tick=3"), MODEL_BAD);
	assert_int_equal(model_feed(m, "bogus stuff"), MODEL_BAD);
	assert_int_equal(model_feed(m, ""), MODEL_BAD);
	/* Unknown keys are fine: newer daemons may add some. */
	assert_int_equal(model_feed(m, "task id=6 name=f state=sleeping "
	    "colour=blue"), MODEL_NOTHING);
	/* So are unknown lines written as lines are (PROTOCOL.md,
	 * "Compatibility"): a newer daemon's, ignored and counted. */
	assert_int_equal(model_feed(m, "kgap cpu=0 from=3 1*2,0*1"),
	    MODEL_NOTHING);
	assert_int_equal(model_feed(m, "future_line"), MODEL_NOTHING);
	assert_int_equal(model_feed(m, "Bogus x=1"), MODEL_BAD);
	assert_int_equal(model_feed(m, "foo junk a=1"), MODEL_BAD);
	assert_int_equal(model_feed(m, "end"), MODEL_FRAME);
	assert_int_equal(m->nunknown, 2);
	assert_int_equal(model_feed(m, "hint cpu=1"), MODEL_NOTHING);
	assert_int_equal(m->nunknown, 3);
	assert_int_equal(m->nbad, 12);
	assert_int_equal(m->ntasks, 1);
	assert_int_equal(m->tasks[0].id, 6);
	assert_int_equal(m->tick, 10);

	/* A frame header that does not parse: its block is still read. */
	assert_int_equal(model_feed(m, "frame tick=oops"), MODEL_BAD);
	assert_int_equal(model_feed(m, TASK(7, "g", "running", 0)),
	    MODEL_NOTHING);
	assert_int_equal(model_feed(m, "end"), MODEL_FRAME);
	assert_int_equal(m->tick, 10);

	/* A frame cut short by another frame is dropped. */
	model_feed(m, "frame tick=20 cpus=1 tasks=1 paused=0 speed=1 rr=10");
	assert_int_equal(model_feed(m, "frame tick=30 cpus=1 tasks=1 "
	    "paused=0 speed=1 rr=10"), MODEL_BAD);
	assert_non_null(strstr(m->bad, "frame without end"));
	assert_false(m->in_frame);
	assert_int_equal(m->tick, 10);
	model_free(m);
}

/* A line longer than the protocol allows is refused, not overrun. */
static void
test_line_too_long(void **state)
{
	struct model	*m = greeted();
	char		*line;

	line = malloc(10000);
	memset(line, 'a', 9999);
	line[9999] = '\0';
	assert_int_equal(model_feed(m, line), MODEL_BAD);
	assert_non_null(strstr(m->bad, "too long"));
	free(line);
	model_free(m);
}

/*
 * status's text= is the description of the scenario it names (one from
 * a file is not in the `scenarios` list); another scenario loaded since
 * has none until its own status comes; a daemon before text=, none.
 */
static void
test_status_description(void **state)
{
	struct model	*m = greeted();

	assert_int_equal(model_sent(m, PEND_STATUS, "status"), 0);
	assert_int_equal(model_feed(m, "status tick=5 cpus=2 tasks=1 paused=1 "
	    "speed=2 rr=10 cgroups=none sleep=250 scenario=room"),
	    MODEL_NOTHING);
	assert_int_equal(model_feed(m, "ok"), MODEL_REPLY);
	assert_string_equal(model_description(m), "");
	assert_int_equal(model_sent(m, PEND_STATUS, "status"), 0);
	assert_int_equal(model_feed(m, "status tick=5 cpus=2 tasks=1 paused=1 "
	    "speed=2 rr=10 cgroups=none sleep=250 scenario=room now=5 live=1 "
	    "alive=1 compare=off text=Two hogs and an editor, for the back "
	    "row."), MODEL_NOTHING);
	assert_int_equal(model_feed(m, "ok"), MODEL_REPLY);
	assert_string_equal(model_description(m),
	    "Two hogs and an editor, for the back row.");
	snprintf(m->scenario, sizeof m->scenario, "other");
	assert_string_equal(model_description(m), "");
	model_free(m);
}

/* Replies are matched in order with the commands sent. */
static void
test_replies(void **state)
{
	struct model	*m = greeted();

	assert_int_equal(model_sent(m, PEND_STATUS, "status"), 0);
	assert_int_equal(model_sent(m, PEND_ACTION, "hog sleeps 1000 ms"), 0);
	assert_int_equal(model_sent(m, PEND_ACTION, "new task x"), 0);
	assert_int_equal(model_pending(m, PEND_ACTION), 2);

	assert_int_equal(model_feed(m, "status tick=5 cpus=2 tasks=1 paused=1 "
	    "speed=2 rr=10 cgroups=none sleep=250"), MODEL_NOTHING);
	assert_int_equal(m->sleep_ms, 250);
	assert_true(m->paused);
	assert_int_equal(model_feed(m, "ok"), MODEL_REPLY);
	assert_int_equal(m->reply_kind, PEND_STATUS);

	/* A frame between replies does not disturb them. */
	frame_at(m, 6, 1);
	assert_int_equal(model_feed(m, "err no such task: hog"), MODEL_REPLY);
	assert_int_equal(m->reply_kind, PEND_ACTION);
	assert_false(m->reply_ok);
	assert_string_equal(m->reply_what, "hog sleeps 1000 ms");
	assert_string_equal(m->reply_text, "no such task: hog");
	assert_int_equal(model_feed(m, "ok 7"), MODEL_REPLY);
	assert_true(m->reply_ok);
	assert_string_equal(m->reply_text, "7");
	assert_string_equal(m->reply_what, "new task x");
	assert_int_equal(model_pending(m, PEND_ACTION), 0);
	/* Data lines of replies the client does not read are skipped. */
	assert_int_equal(model_feed(m, "help status"), MODEL_NOTHING);
	model_free(m);
}

/* The article's table comes whole, or not at all. */
static void
test_table(void **state)
{
	struct model	*m = greeted();

	model_sent(m, PEND_TABLE, "table 1");
	assert_int_equal(model_feed(m, "table task=1 name=hog base=139 "
	    "stairs=1 rr=10"), MODEL_NOTHING);
	assert_false(m->table.valid);
	assert_int_equal(model_feed(m, "row iter=1 ticks=30"), MODEL_NOTHING);
	assert_int_equal(model_feed(m, "row iter=2 ticks=4"), MODEL_NOTHING);
	assert_int_equal(model_feed(m, "ok"), MODEL_REPLY);
	assert_true(m->table.valid);
	assert_int_equal(m->table.task, 1);
	assert_string_equal(m->table.name, "hog");
	assert_int_equal(m->table.nrows, 2);
	assert_int_equal(m->table.ticks[1], 4);
	assert_int_equal(m->table.iters[1], 2);

	/* A bad row spoils that reply; the last good table stays. */
	model_sent(m, PEND_TABLE, "table 1");
	model_feed(m, "table task=1 name=hog base=120 stairs=3 rr=10");
	assert_int_equal(model_feed(m, "row iter=1 ticks=1,2"), MODEL_BAD);
	assert_int_equal(model_feed(m, "ok"), MODEL_REPLY);
	assert_int_equal(m->table.stairs, 1);
	model_sent(m, PEND_TABLE, "table 1");
	assert_int_equal(model_feed(m, "table task=1 base=120 stairs=99 "
	    "rr=10"), MODEL_BAD);
	assert_int_equal(model_feed(m, "row iter=1 ticks=1"), MODEL_BAD);
	assert_int_equal(model_feed(m, "err no such task"), MODEL_REPLY);
	assert_int_equal(m->table.stairs, 1);
	model_free(m);
}

/* %cpu is ran over ticks across the last few seconds' samples. */
static void
test_pct(void **state)
{
	struct model	*m = greeted();

	frame_at(m, 1000, 0);
	assert_int_equal(model_pct(m, &m->tasks[0]), -1);
	frame_at(m, 1100, 50);
	/* Not a new sample yet, but measured against the first. */
	assert_int_equal(model_pct(m, &m->tasks[0]), 50);
	frame_at(m, 2000, 500);
	assert_int_equal(model_pct(m, &m->tasks[0]), 50);
	frame_at(m, 3000, 1500);
	assert_int_equal(model_pct(m, &m->tasks[0]), 75);
	/* A restarted daemon: time went back, history starts again. */
	frame_at(m, 10, 5);
	assert_int_equal(model_pct(m, &m->tasks[0]), -1);
	model_free(m);
}

/*
 * The policy's say comes over the wire (issue 8): slice=, top=, bottom=
 * are the task's, as sent; a daemon that sends none gives the slice as
 * left and the ranks as the rank (the client knows no policy's rules);
 * a top below its bottom is refused.
 */
static void
test_policy_fields(void **state)
{
	struct model	*m = greeted();

	assert_int_equal(model_feed(m, "frame tick=5 cpus=1 tasks=2 paused=0 "
	    "speed=1 rr=10 dropped=0 policy=o1"), MODEL_NOTHING);
	model_feed(m, "cpu id=0 task=1 nr=1 rank=125 iter=1 left=90");
	assert_int_equal(model_feed(m, "task id=1 name=hog kind=sim pid=- "
	    "nice=0 cpu=0 rank=125 iter=1 left=90 state=running ran=12 "
	    "cputime=- cpus=0 group=- exit=- slice=102 top=115 bottom=125"),
	    MODEL_NOTHING);
	assert_int_equal(model_feed(m, "task id=2 name=old kind=sim pid=- "
	    "nice=3 cpu=0 rank=126 iter=1 left=7 state=runnable ran=0 "
	    "cputime=- cpus=0 group=- exit=-"), MODEL_NOTHING);
	assert_int_equal(model_feed(m, "end"), MODEL_FRAME);
	assert_string_equal(m->policy, "o1");
	assert_int_equal(m->tasks[0].slice, 102);
	assert_int_equal(m->tasks[0].top, 115);
	assert_int_equal(m->tasks[0].bottom, 125);
	assert_int_equal(m->tasks[1].slice, 7);
	assert_int_equal(m->tasks[1].top, 126);
	assert_int_equal(m->tasks[1].bottom, 126);
	assert_null(m->shadow);
	assert_int_equal(m->nbad, 0);
	model_feed(m, "frame tick=6 cpus=1 tasks=1 paused=0 speed=1 rr=10 "
	    "dropped=0");
	assert_int_equal(model_feed(m, "task id=1 name=hog kind=sim pid=- "
	    "nice=0 cpu=0 rank=125 iter=1 left=90 state=running ran=12 "
	    "cputime=- cpus=0 group=- exit=- slice=102 top=126 bottom=125"),
	    MODEL_BAD);
	model_feed(m, "end");
	model_free(m);
}

/*
 * compare NAME (issue 8): a frame with shadow=NAME carries the shadow's
 * scpu and stask lines, read into a model of their own (all of them,
 * in a delta frame too); a frame without takes the shadow away; an
 * scpu line in a frame that has no shadow= is ignored.
 */
static void
test_shadow(void **state)
{
	struct model	*m = greeted();
	int		 i;

	for (i = 0; i < 2; i++) {
		assert_int_equal(model_feed(m, i == 0 ? "frame tick=9 cpus=1 "
		    "tasks=1 paused=0 speed=1 rr=10 dropped=0 "
		    "policy=staircase delta=0 shadow=cfs" : "frame tick=10 "
		    "cpus=1 tasks=1 paused=0 speed=1 rr=10 dropped=0 "
		    "policy=staircase delta=1 shadow=cfs"), MODEL_NOTHING);
		model_feed(m, "cpu id=0 task=1 nr=1 rank=121 iter=2 left=5");
		if (i == 0)
			model_feed(m, TASK(1, "hog", "running", 9));
		assert_int_equal(model_feed(m, "scpu id=0 task=1 nr=1 "
		    "rank=120 iter=1 left=3"), MODEL_NOTHING);
		assert_int_equal(model_feed(m, "stask id=1 name=hog kind=sim "
		    "pid=- nice=0 cpu=0 rank=120 iter=1 left=3 state=running "
		    "ran=9 cputime=- cpus=0 group=- exit=- slice=20 top=120 "
		    "bottom=120"), MODEL_NOTHING);
		assert_int_equal(model_feed(m, "end"), MODEL_FRAME);
		assert_non_null(m->shadow);
		assert_string_equal(m->policy, "staircase");
		assert_string_equal(m->shadow_policy, "cfs");
		assert_int_equal(m->ntasks, 1);
		assert_int_equal(m->tasks[0].rank, 120);
		assert_int_equal(m->shadow->ntasks, 1);
		assert_int_equal(m->shadow->ncpus, 1);
		assert_int_equal(m->shadow->tasks[0].slice, 20);
		assert_int_equal(m->shadow->cpus[0].left, 3);
		assert_int_equal(m->shadow->tick, 9 + i);
	}
	model_feed(m, "frame tick=11 cpus=1 tasks=1 paused=0 speed=1 rr=10 "
	    "dropped=0 policy=staircase delta=1");
	assert_int_equal(model_feed(m, "scpu id=0 task=1 nr=1 rank=120 iter=1 "
	    "left=3"), MODEL_NOTHING);
	assert_int_equal(model_feed(m, "end"), MODEL_FRAME);
	assert_null(m->shadow);
	assert_string_equal(m->shadow_policy, "");
	assert_int_equal(m->nbad, 0);
	model_free(m);
}

/*
 * The session's fields (protocol 2): live=0/1, now=, alive=, scenario=
 * in frames and status; an older daemon's live=N (the live tasks) is
 * read as alive=N at the present.
 */
static void
test_session_fields(void **state)
{
	struct model	*m = greeted();

	assert_true(m->live);
	assert_int_equal(model_feed(m, "status tick=40 cpus=2 tasks=5 "
	    "paused=0 speed=1 rr=10 cgroups=none live=1 alive=5 now=40 lag=0 "
	    "clients=1 scenario=demo sleep=1000 policy=staircase"),
	    MODEL_NOTHING);
	assert_string_equal(m->scenario, "demo");
	assert_int_equal(m->alive, 5);
	assert_int_equal(m->now, 40);

	/* The past: tick 1200 shown of 5000. */
	assert_int_equal(model_feed(m, "frame tick=1200 cpus=1 tasks=1 "
	    "paused=1 speed=1 rr=10 dropped=0 live=0 alive=1 now=5000 lag=0 "
	    "sleep=1000 policy=staircase scenario=demo delta=0"),
	    MODEL_NOTHING);
	model_feed(m, TASK(1, "hog", "running", 600));
	assert_int_equal(model_feed(m, "end"), MODEL_FRAME);
	assert_false(m->live);
	assert_int_equal(m->tick, 1200);
	assert_int_equal(m->now, 5000);
	assert_int_equal(m->alive, 1);
	assert_int_equal(m->sessions, 0);

	/* An old daemon: live=3 is the count, the tick the present. */
	assert_int_equal(model_feed(m, "frame tick=5100 cpus=1 tasks=1 "
	    "paused=0 speed=1 rr=10 dropped=0 live=3 lag=0"), MODEL_NOTHING);
	assert_int_equal(model_feed(m, "end"), MODEL_FRAME);
	assert_true(m->live);
	assert_int_equal(m->alive, 3);
	assert_int_equal(m->now, 5100);
	assert_string_equal(m->scenario, "demo");	/* kept */

	/* With alive=, live is a flag: 2 is malformed. */
	assert_int_equal(model_feed(m, "frame tick=5200 cpus=1 tasks=1 "
	    "paused=0 speed=1 rr=10 live=2 alive=1"), MODEL_BAD);
	assert_int_equal(model_feed(m, "end"), MODEL_FRAME);
	assert_int_equal(model_feed(m, "frame tick=5200 cpus=1 tasks=1 "
	    "now=x"), MODEL_BAD);
	assert_int_equal(model_feed(m, "end"), MODEL_FRAME);
	assert_int_equal(m->now, 5100);
	assert_true(m->live);
	model_free(m);
}

/*
 * A load seen by a viewer: task ids start again at 1, another number
 * of CPUs.  The full frame after it replaces every task and CPU (no
 * task, CPU, %cpu sample or event of the old scenario is left); a delta
 * frame across it asks for a full one (desync).
 */
static void
test_load(void **state)
{
	struct model		*m = greeted();
	const struct mtask	*t;
	char			 line[256];
	int			 i;

	model_feed(m, "frame tick=9000 cpus=2 tasks=5 paused=0 speed=1 rr=10 "
	    "live=1 alive=5 now=9000 scenario=demo delta=0");
	model_feed(m, "cpu id=0 task=1 nr=1 rank=120 iter=1 left=10");
	model_feed(m, "cpu id=1 task=2 nr=1 rank=120 iter=1 left=10");
	for (i = 1; i <= 5; i++) {
		snprintf(line, sizeof line, "task id=%d name=demo%d kind=sim "
		    "pid=- nice=0 cpu=0 rank=120 iter=1 left=10 "
		    "state=runnable ran=%d cputime=- cpus=0-1 group=- exit=-",
		    i, i, i * 1000);
		model_feed(m, line);
	}
	model_feed(m, "event tick=8990 text=hog sleeps");
	assert_int_equal(model_feed(m, "end"), MODEL_FRAME);
	frame_at(m, 9600, 1500);	/* an old daemon's frame: a sample */
	model_feed(m, "frame tick=9700 cpus=2 tasks=5 paused=0 speed=1 rr=10 "
	    "live=1 alive=5 now=9700 scenario=demo delta=0");
	model_feed(m, "cpu id=0 task=1 nr=1 rank=120 iter=1 left=10");
	model_feed(m, "cpu id=1 task=2 nr=1 rank=120 iter=1 left=10");
	for (i = 1; i <= 5; i++) {
		snprintf(line, sizeof line, "task id=%d name=demo%d kind=sim "
		    "pid=- nice=0 cpu=0 rank=120 iter=1 left=10 "
		    "state=runnable ran=%d cputime=- cpus=0-1 group=- exit=-",
		    i, i, i * 1000 + 500);
		model_feed(m, line);
	}
	assert_int_equal(model_feed(m, "end"), MODEL_FRAME);
	assert_int_equal(m->ntasks, 5);
	assert_int_equal(m->ncpus, 2);
	assert_int_equal(m->sessions, 0);
	assert_int_not_equal(model_pct(m, model_task(m, 1)), -1);

	/* load article: one CPU, one task, id 1 again, tick 0. */
	assert_int_equal(model_feed(m, "frame tick=0 cpus=1 tasks=1 paused=0 "
	    "speed=1 rr=10 live=1 alive=1 now=0 scenario=article delta=0"),
	    MODEL_NOTHING);
	model_feed(m, "cpu id=0 task=1 nr=1 rank=120 iter=1 left=10");
	model_feed(m, TASK(1, "hog", "running", 0));
	assert_int_equal(model_feed(m, "end"), MODEL_FRAME);
	assert_int_equal(m->sessions, 1);
	assert_string_equal(m->scenario, "article");
	assert_int_equal(m->ncpus, 1);
	assert_int_equal(m->ntasks, 1);
	t = model_task(m, 1);
	assert_string_equal(t->name, "hog");
	assert_int_equal(t->ran, 0);
	assert_int_equal(m->nsamp, 1);	/* the old samples are gone */
	assert_int_equal(model_pct(m, t), -1);
	assert_null(model_task(m, 2));
	assert_null(model_last_event(m));
	assert_false(m->desync);

	/* reset: the same scenario, the present back to 0 (after 300). */
	frame_at(m, 300, 300);
	assert_int_equal(m->sessions, 1);
	assert_int_equal(model_feed(m, "frame tick=0 cpus=1 tasks=1 paused=0 "
	    "speed=1 rr=10 live=1 alive=1 now=0 scenario=article delta=1"),
	    MODEL_NOTHING);
	model_feed(m, TASK(1, "hog", "running", 0));
	assert_int_equal(model_feed(m, "end"), MODEL_FRAME);
	assert_int_equal(m->sessions, 2);
	/* A delta across sessions: ask for a full frame. */
	assert_true(m->desync);

	/* A seek is not a new session: the present stays. */
	frame_at(m, 800, 800);
	assert_int_equal(model_feed(m, "frame tick=100 cpus=1 tasks=1 "
	    "paused=1 speed=1 rr=10 live=0 alive=1 now=800 scenario=article"),
	    MODEL_NOTHING);
	model_feed(m, TASK(1, "hog", "running", 100));
	assert_int_equal(model_feed(m, "end"), MODEL_FRAME);
	assert_int_equal(m->sessions, 2);
	assert_false(m->live);
	model_free(m);
}

/*
 * A load forgets the old session's history: the runs of every CPU (the
 * new session's frame only says the CPUs it has: a CPU of the old one
 * that it does not have must not be left with old runs), the event log
 * (not the new session's first events).  Issue: after a 2-CPU demo,
 * article's timeline showed a CPU1 row of old letters and "b=? c=?".
 */
static void
test_load_history(void **state)
{
	struct model	*m = greeted();

	model_feed(m, "frame tick=5000 cpus=2 tasks=3 paused=0 speed=1 "
	    "rr=10 live=1 alive=3 now=5000 scenario=demo delta=0");
	model_feed(m, "runs cpu=0 from=0 1:120*2500,3:120*2500");
	model_feed(m, "runs cpu=1 from=0 2:120*5000");
	model_feed(m, "kruns cpu=0 from=4990 1*5,-*5");
	model_feed(m, "event tick=4990 text=hog2 sleeps 5 ms");
	assert_int_equal(model_feed(m, "end"), MODEL_FRAME);
	assert_int_equal(runs_ncpus(m->runs), 2);
	assert_non_null(m->kruns);
	assert_int_equal(m->nlog, 1);

	/* load article: 1 CPU; its first frame has an event. */
	model_feed(m, "frame tick=0 cpus=1 tasks=1 paused=0 speed=1 rr=10 "
	    "live=1 alive=1 now=0 scenario=article delta=0");
	model_feed(m, "runs cpu=0 from=0");
	model_feed(m, "event tick=0 text=loaded article");
	assert_int_equal(model_feed(m, "end"), MODEL_FRAME);
	assert_int_equal(m->sessions, 1);
	assert_int_equal(runs_ncpus(m->runs), 1);
	assert_int_equal(runs_end(m->runs, 0), 0);
	/* The old session's kernel runs went too (no kern strips). */
	assert_null(m->kruns);
	assert_int_equal(m->nlog, 1);
	assert_string_equal(m->log[0].text, "loaded article");
	assert_string_equal(model_last_event(m), "loaded article");

	/* A reset (the present back, the same CPUs): nothing old stays. */
	model_feed(m, "frame tick=300 cpus=1 tasks=1 paused=0 speed=1 rr=10 "
	    "live=1 alive=1 now=300 scenario=article delta=0");
	model_feed(m, "runs cpu=0 from=0 1:120*300");
	assert_int_equal(model_feed(m, "end"), MODEL_FRAME);
	model_feed(m, "frame tick=0 cpus=1 tasks=1 paused=0 speed=1 rr=10 "
	    "live=1 alive=1 now=0 scenario=article delta=0");
	assert_int_equal(model_feed(m, "end"), MODEL_FRAME);
	assert_int_equal(m->sessions, 2);
	assert_true(m->runs == NULL || runs_end(m->runs, 0) == 0);
	assert_int_equal(m->nlog, 0);
	model_free(m);
}

/*
 * An event line without its tick= (no daemon sends one) is logged at its
 * frame's tick.  It was logged at an uninitialized tick: whatever the
 * stack held, different from one build to the next.
 */
static void
test_event_no_tick(void **state)
{
	struct model	*m = greeted();

	model_feed(m, "frame tick=700 cpus=1 tasks=0 paused=0 speed=1 "
	    "rr=10");
	assert_int_equal(model_feed(m, "event text=hog sleeps"),
	    MODEL_NOTHING);
	assert_int_equal(model_feed(m, "end"), MODEL_FRAME);
	assert_int_equal(m->nlog, 1);
	assert_int_equal(m->log[0].tick, 700);
	assert_string_equal(m->log[0].text, "hog sleeps");
	model_free(m);
}

/*
 * The `scenarios` and `marks` replies: kept whole when ok (text= free
 * text, quoted or not; marks sorted by tick), dropped on err, a list
 * left as it was.
 */
static void
test_lists(void **state)
{
	struct model		*m = greeted();
	const struct mscenario	*sc;

	model_sent(m, PEND_SCENARIOS, "scenarios");
	assert_int_equal(model_feed(m, "scenario name=demo file=builtin "
	    "cpus=2 tasks=5 real=0 text=Two CPUs, two hogs."), MODEL_NOTHING);
	assert_int_equal(model_feed(m, "scenario name=mine "
	    "file=/tmp/x/mine.cfg cpus=1 tasks=3 real=1 "
	    "text=\"A \\\"real\\\" one \\xc3\\xa9\\x01\""), MODEL_NOTHING);
	assert_int_equal(m->nscenarios, 0);	/* not before ok */
	assert_int_equal(model_feed(m, "ok 2"), MODEL_REPLY);
	assert_int_equal(m->reply_kind, PEND_SCENARIOS);
	assert_int_equal(m->nscenarios, 2);
	assert_true(m->scenarios_valid);
	sc = model_scenario(m, "mine");
	assert_non_null(sc);
	assert_string_equal(sc->file, "/tmp/x/mine.cfg");
	assert_int_equal(sc->cpus, 1);
	assert_int_equal(sc->tasks, 3);
	assert_true(sc->real);
	assert_string_equal(sc->text, "A \"real\" one \xc3\xa9 ");
	assert_string_equal(model_scenario(m, "demo")->text,
	    "Two CPUs, two hogs.");
	assert_null(model_scenario(m, "nope"));

	/* An error keeps the list; a bad line is said. */
	model_sent(m, PEND_SCENARIOS, "scenarios");
	assert_int_equal(model_feed(m, "scenario name=x cpus=1"),
	    MODEL_NOTHING);
	assert_int_equal(model_feed(m, "scenario cpus=1"), MODEL_BAD);
	assert_int_equal(model_feed(m, "scenario name=y cpus=z"), MODEL_BAD);
	assert_int_equal(model_feed(m, "err unknown command"), MODEL_REPLY);
	assert_false(m->reply_ok);
	assert_int_equal(m->nscenarios, 2);

	/* Marks, sorted by tick. */
	model_sent(m, PEND_MARKS, "marks");
	model_feed(m, "mark tick=5000 text=the second chapter");
	model_feed(m, "mark tick=0 text=the start");
	assert_int_equal(model_feed(m, "mark tick=-4 text=x"), MODEL_BAD);
	assert_int_equal(model_feed(m, "ok 2"), MODEL_REPLY);
	assert_int_equal(m->nmarks, 2);
	assert_int_equal(m->marks[0].tick, 0);
	assert_string_equal(m->marks[1].text, "the second chapter");
	/* A scenario without marks: none left. */
	model_sent(m, PEND_MARKS, "marks");
	assert_int_equal(model_feed(m, "ok 0"), MODEL_REPLY);
	assert_int_equal(m->nmarks, 0);
	/* Lines staged for another reply go with the next final line. */
	model_sent(m, PEND_ACTION, "pause");
	model_feed(m, "mark tick=7 text=stray");
	model_feed(m, "ok");
	model_sent(m, PEND_MARKS, "marks");
	model_feed(m, "ok 0");
	assert_int_equal(m->nmarks, 0);
	model_free(m);
}

static char	sent[8][128];
static int	nsent;

/* Record what keys.c sends. */
static int
record(void *arg, enum model_pend kind, const char *cmd)
{
	snprintf(sent[nsent++ % 8], sizeof sent[0], "%s", cmd);
	return (0);
}

/* Open a prompt with key, type text into it and press Enter. */
static void
prompt_type(struct keys_env *e, int key, const char *text)
{
	const char	*p;

	keys_handle(e, key);
	for (p = text; *p != '\0'; p++)
		keys_handle(e, *p);
	keys_handle(e, '\n');
}

/* Keys send the commands of the issue, and a read-only client refuses. */
static void
test_keys(void **state)
{
	struct model	*m = greeted();
	struct view	 v;
	struct keys_env	 e;
	const char	*p;
	int		 f;

	model_feed(m, "frame tick=1 cpus=2 tasks=2 paused=0 speed=1 rr=10");
	model_feed(m, TASK(4, "hog", "running", 0));
	model_feed(m, TASK(9, "ed", "sleeping", 0));
	model_feed(m, "end");
	memset(&v, 0, sizeof v);
	v.pause_sent = -1;
	memset(&e, 0, sizeof e);
	e.model = m;
	e.view = &v;
	e.send = record;
	nsent = 0;
	keys_select_first(m, &v);
	assert_int_equal(v.selected, 4);

	assert_true(keys_handle(&e, 's') & KEYS_HANDLED);
	assert_string_equal(sent[0], "sleep 4 1000");
	f = keys_handle(&e, 'j');
	assert_true(f & KEYS_TABLE);
	assert_int_equal(v.selected, 9);
	keys_handle(&e, '+');
	assert_string_equal(sent[1], "nice 9 1");
	/* Again before a frame shows nice 1: counts from what was sent. */
	keys_handle(&e, '+');
	assert_string_equal(sent[2], "nice 9 2");
	nsent = 2;
	/* A frame that shows it ends that. */
	model_feed(m, "frame tick=2 cpus=2 tasks=2 paused=0 speed=1 rr=10");
	model_feed(m, TASK(4, "hog", "running", 0));
	model_feed(m, "task id=9 name=ed nice=2 state=sleeping");
	model_feed(m, "end");
	keys_frame(m, &v);
	assert_int_equal(v.nice_task, 0);
	keys_handle(&e, KEY_UP);
	keys_handle(&e, '-');
	assert_string_equal(sent[2], "nice 4 -1");
	keys_handle(&e, ' ');
	assert_string_equal(sent[3], "pause");
	keys_handle(&e, '>');
	assert_string_equal(sent[4], "speed 2");
	/* Pressed again before a frame shows them: from what was sent. */
	keys_handle(&e, ' ');
	assert_string_equal(sent[5], "resume");
	keys_handle(&e, '>');
	assert_string_equal(sent[6], "speed 4");
	nsent = 5;
	keys_handle(&e, '.');
	assert_string_equal(sent[5], "step 1");
	/* x asks first (F9 as htop); y kills. */
	keys_handle(&e, 'x');
	assert_int_equal(nsent, 6);
	keys_handle(&e, 'y');
	assert_string_equal(sent[6], "kill 4");

	/*
	 * S opens a prompt showing the default; typing replaces it (as a
	 * selected field would), Enter sends.  Review found "500" typed
	 * after "1000" sent 1000500.
	 */
	keys_handle(&e, 'S');
	assert_true(v.prompt);
	keys_handle(&e, '5');
	keys_handle(&e, '0');
	keys_handle(&e, '0');
	assert_string_equal(v.prompt_buf, "500");
	keys_handle(&e, '\r');
	assert_false(v.prompt);
	assert_string_equal(sent[7], "sleep 4 500");
	/* Editing keeps the default: Backspace, then typing, appends. */
	nsent = 7;
	keys_handle(&e, 'S');
	keys_handle(&e, KEY_BACKSPACE);
	keys_handle(&e, KEY_BACKSPACE);
	keys_handle(&e, KEY_BACKSPACE);
	keys_handle(&e, '5');
	keys_handle(&e, '\r');
	assert_string_equal(sent[7], "sleep 4 15");
	/* A bad number is said, not sent. */
	keys_handle(&e, 'S');
	keys_handle(&e, 'z');
	keys_handle(&e, '\r');
	assert_int_equal(nsent, 8);
	assert_true(v.message_error);
	/* n: a name and a bare pattern. */
	prompt_type(&e, 'n', "cc 2,40 nice=3");
	assert_string_equal(sent[0], "add cc pattern=2,40 nice=3");
	/* a: the prompt starts from the task's CPUs; Escape cancels. */
	keys_handle(&e, 'a');
	assert_string_equal(v.prompt_buf, "0");
	keys_handle(&e, '1');
	assert_string_equal(v.prompt_buf, "1");
	keys_handle(&e, 27);
	assert_false(v.prompt);
	assert_int_equal(nsent, 9);
	/* q quits; Q asks, then sends shutdown. */
	assert_true(keys_handle(&e, 'q') & KEYS_QUIT);
	assert_false(keys_handle(&e, 'Q') & KEYS_SHUTDOWN);
	assert_true(keys_handle(&e, 'y') & KEYS_SHUTDOWN);
	assert_string_equal(sent[1], "shutdown");
	/*
	 * c with no comparison asks which policies to compare with (up to
	 * three: the first three not enforced by default); typing
	 * replaces the default; four are refused here.
	 */
	keys_handle(&e, 'c');
	assert_true(v.prompt);
	assert_string_equal(v.prompt_buf, "o1,cfs,eevdf");
	keys_handle(&e, '\r');
	assert_string_equal(sent[2], "compare o1,cfs,eevdf");
	prompt_type(&e, 'c', "o1 cfs");
	assert_string_equal(sent[3], "compare o1,cfs");
	prompt_type(&e, 'c', "o1,cfs,rr,eevdf");
	assert_int_equal(nsent, 12);
	assert_true(v.message_error);

	/* Read-only: every key that changes the daemon is refused. */
	v.readonly = 1;
	for (p = "sS+-axn .<>QcC"; *p != '\0'; p++) {
		v.message[0] = '\0';
		assert_int_equal(keys_handle(&e, *p),
		    KEYS_HANDLED | KEYS_REDRAW);
		assert_non_null(strstr(v.message, "read-only"));
		assert_true(v.message_error);
	}
	assert_int_equal(nsent, 12);
	/* A function key is named as one. */
	keys_handle(&e, KEY_F(9));
	assert_non_null(strstr(v.message, "F9 refused"));
	assert_true(keys_handle(&e, 'j') & KEYS_HANDLED);
	assert_true(keys_handle(&e, 'q') & KEYS_QUIT);
	model_free(m);
}

/*
 * Garbage made of protocol words, seeded: the model never crashes (run
 * under the sanitizers by make test) and what it keeps draws.
 */
static void
test_garbage(void **state)
{
	static const char *words[] = {
		"frame", "end", "cpu", "task", "caption", "event", "ok", "err",
		"table", "row", "status", "id=1", "id=-3", "id=99999999999",
		"name=x", "name=", "state=running", "state=sleeping",
		"state=exited", "cpu=0", "cpu=7", "cpu=-", "rank=139",
		"rank=120", "rank=-1", "nice=19", "nice=-20", "iter=40",
		"left=5", "tick=3", "tick=", "cpus=2", "task=1", "nr=2",
		"stairs=20", "stairs=0", "base=120", "rr=10", "rr=0",
		"ticks=1,2,3", "ticks=", "iter=1", "text=hello world", "=",
		"speed=0", "speed=2", "paused=1", "kind=real", "pid=4",
		"\xff\xfe", "", " ", "x"
	};
	struct model	*m = greeted();
	struct view	 v;
	struct grid	 g;
	char		 line[512], *d;
	unsigned	 seed = 7;
	int		 i, k, n;
	size_t		 len;

	memset(&v, 0, sizeof v);
	v.show_table = 1;
	for (i = 0; i < 20000; i++) {
		line[0] = '\0';
		len = 0;
		seed = seed * 1103515245 + 12345;
		n = 1 + (seed >> 16) % 8;
		for (k = 0; k < n; k++) {
			seed = seed * 1103515245 + 12345;
			len += snprintf(line + len, sizeof line - len, "%s%s",
			    k > 0 ? " " : "", words[(seed >> 16) %
			    (sizeof words / sizeof words[0])]);
		}
		if (i % 7 == 0)
			model_sent(m, PEND_TABLE, "table 1");
		model_feed(m, line);
		if (i % 500 == 0) {
			grid_init(&g, 80, 24);
			keys_select_first(m, &v);
			draw_screen(&g, m, &v, keys_help());
			d = grid_dump(&g, 1);
			free(d);
			grid_free(&g);
		}
	}
	assert_true(m->nbad > 0);
	model_free(m);
}

/* A model with three tasks, and keys that record what they send. */
static struct model *
three(struct view *v, struct keys_env *e)
{
	struct model	*m = greeted();

	model_feed(m, "frame tick=1 cpus=2 tasks=3 paused=0 speed=1 rr=10");
	model_feed(m, TASK(4, "hog", "running", 0));
	model_feed(m, TASK(9, "editor", "sleeping", 0));
	model_feed(m, TASK(12, "make", "runnable", 0));
	model_feed(m, "end");
	memset(v, 0, sizeof *v);
	v->pause_sent = -1;
	memset(e, 0, sizeof *e);
	e->model = m;
	e->view = v;
	e->send = record;
	nsent = 0;
	keys_select_first(m, v);
	return (m);
}

/* Feed a frame of the three tasks at tick, now and live, of scenario. */
static void
three_at(struct model *m, long tick, long now, const char *scenario)
{
	char	line[256];

	snprintf(line, sizeof line, "frame tick=%ld cpus=2 tasks=3 paused=1 "
	    "speed=1 rr=10 live=%d alive=3 now=%ld scenario=%s", tick,
	    tick == now, now, scenario);
	assert_int_equal(model_feed(m, line), MODEL_NOTHING);
	model_feed(m, TASK(4, "hog", "running", 0));
	model_feed(m, TASK(9, "editor", "sleeping", 0));
	model_feed(m, TASK(12, "make", "runnable", 0));
	assert_int_equal(model_feed(m, "end"), MODEL_FRAME);
}

/*
 * The rewind keys send `seek T`: Left/Right a tick, { } an rr interval,
 * b/f a second, counted from the last seek sent until a frame shows
 * it, never before tick 0 nor past the present; ( ) the marks.  Space
 * in the past says where the resume goes on from.
 */
static void
test_key_seek(void **state)
{
	struct model	*m;
	struct view	 v;
	struct keys_env	 e;
	int		 n0;

	m = three(&v, &e);
	three_at(m, 5000, 5000, "demo");
	keys_frame(m, &v);
	keys_handle(&e, KEY_LEFT);
	assert_string_equal(sent[0], "seek 4999");
	keys_handle(&e, KEY_LEFT);
	assert_string_equal(sent[1], "seek 4998");
	keys_handle(&e, '{');
	assert_string_equal(sent[2], "seek 4988");
	keys_handle(&e, KEY_SLEFT);
	assert_string_equal(sent[3], "seek 4978");
	keys_handle(&e, 'b');
	assert_string_equal(sent[4], "seek 3978");
	assert_non_null(strstr(v.message, "back a second: tick 3978"));
	/* The frame shows it: from there on. */
	three_at(m, 3978, 5000, "demo");
	keys_frame(m, &v);
	assert_false(v.seeking);
	keys_handle(&e, KEY_RIGHT);
	assert_string_equal(sent[5], "seek 3979");
	keys_handle(&e, '}');
	assert_string_equal(sent[6], "seek 3989");
	keys_handle(&e, 'f');
	assert_string_equal(sent[7], "seek 4989");
	nsent = 0;
	/* Not past the present: to it, then said, not sent. */
	keys_handle(&e, 'f');
	assert_string_equal(sent[0], "seek 5000");
	keys_handle(&e, KEY_RIGHT);
	assert_int_equal(nsent, 1);
	assert_non_null(strstr(v.message, "tick 5000 is the present"));
	/*
	 * Running, at the present: nothing ahead, and space would pause,
	 * not resume (it said ". steps, space resumes", with a tick the
	 * running clock had left behind).
	 */
	n0 = nsent;
	assert_int_equal(model_feed(m, "frame tick=5000 cpus=2 tasks=3 "
	    "paused=0 speed=1 rr=10 live=1 alive=3 now=5000 scenario=demo"),
	    MODEL_NOTHING);
	assert_int_equal(model_feed(m, "end"), MODEL_FRAME);
	keys_frame(m, &v);
	keys_handle(&e, KEY_RIGHT);
	assert_int_equal(nsent, n0);
	assert_string_equal(v.message, "the present, running: nothing ahead "
	    "yet (space pauses)");
	assert_int_equal(model_feed(m, "frame tick=5000 cpus=2 tasks=3 "
	    "paused=1 speed=1 rr=10 live=1 alive=3 now=5000 scenario=demo"),
	    MODEL_NOTHING);
	assert_int_equal(model_feed(m, "end"), MODEL_FRAME);
	/* Not before tick 0. */
	three_at(m, 5, 5000, "demo");
	keys_frame(m, &v);
	v.seeking = 0;
	keys_handle(&e, 'b');
	assert_string_equal(sent[1], "seek 0");
	keys_handle(&e, KEY_LEFT);
	assert_int_equal(nsent, 2);
	assert_non_null(strstr(v.message, "tick 0: the start"));
	/* A refusal forgets the seek sent (the others were answered). */
	m->npending = 0;
	model_sent(m, PEND_ACTION, "seek");
	model_feed(m, "err seek: tick 0 is outside the history 100..5000");
	keys_reply(m, &v);
	assert_false(v.seeking);
	assert_true(v.message_error);

	/* Marks: none yet, then three (one not run yet). */
	nsent = 0;
	three_at(m, 2000, 5000, "demo");
	keys_frame(m, &v);
	keys_handle(&e, ')');
	assert_int_equal(nsent, 0);
	assert_non_null(strstr(v.message, "no marks"));
	m->npending = 0;
	model_sent(m, PEND_MARKS, "marks");
	model_feed(m, "mark tick=3000 text=two");
	model_feed(m, "mark tick=1000 text=one");
	model_feed(m, "mark tick=9000 text=three");
	model_feed(m, "ok 3");
	keys_handle(&e, '(');
	assert_string_equal(sent[0], "seek 1000");
	assert_non_null(strstr(v.message, "mark one: tick 1000"));
	keys_handle(&e, ')');
	assert_string_equal(sent[1], "seek 3000");
	keys_handle(&e, ')');
	assert_int_equal(nsent, 2);
	assert_non_null(strstr(v.message, "three (tick 9000) is not run yet"));
	three_at(m, 500, 5000, "demo");
	keys_frame(m, &v);
	v.seeking = 0;
	keys_handle(&e, '(');
	assert_int_equal(nsent, 2);
	assert_non_null(strstr(v.message, "no mark before tick 500"));

	/*
	 * Space in the past: resume from there (scripted tasks only),
	 * after asking, saying what goes; any key but y keeps it.
	 */
	keys_handle(&e, ' ');
	assert_int_equal(nsent, 2);
	assert_int_equal(v.prompt, PROMPT_BRANCH);
	assert_non_null(strstr(v.prompt_label, "resume from 500 for all, "
	    "dropping ticks 501..5000? y/N"));
	keys_handle(&e, 'n');
	assert_int_equal(nsent, 2);
	assert_int_equal(v.prompt, PROMPT_NONE);
	keys_handle(&e, ' ');
	keys_handle(&e, 'y');
	assert_string_equal(sent[2], "resume");
	assert_non_null(strstr(v.message, "resume from tick 500"));
	model_free(m);
}

/*
 * l opens the picker on the `scenarios` reply, on the current scenario;
 * arrows and j/k move, Enter loads (a file of the scenario path by its
 * path), Esc closes; an error closes it, saying so.  R resets.  A new
 * session asks for its marks; another scenario starts the view again.
 */
static void
test_key_picker(void **state)
{
	struct model	*m;
	struct view	 v;
	struct keys_env	 e;
	int		 f;

	m = three(&v, &e);
	three_at(m, 700, 700, "demo");
	assert_true(keys_frame(m, &v) & KEYS_MARKS);	/* the first */
	assert_false(keys_frame(m, &v) & KEYS_MARKS);
	keys_handle(&e, 'l');
	assert_true(v.picker);
	assert_string_equal(sent[0], "scenarios");
	assert_int_equal(model_pending(m, PEND_SCENARIOS), 1);
	assert_int_equal(v.picker_sel, -1);
	keys_handle(&e, 'j');
	keys_handle(&e, '\r');		/* nothing to load yet */
	assert_int_equal(nsent, 1);
	assert_true(v.picker);
	model_feed(m, "scenario name=article file=builtin cpus=1 tasks=1 "
	    "real=0 text=A hog alone.");
	model_feed(m, "scenario name=demo file=builtin cpus=2 tasks=5 real=0 "
	    "text=Two CPUs.");
	model_feed(m, "scenario name=mine file=/tmp/p/mine.cfg cpus=1 "
	    "tasks=1 real=1 text=Mine.");
	assert_int_equal(model_feed(m, "ok 3"), MODEL_REPLY);
	keys_scenarios(m, &v);
	assert_int_equal(v.picker_sel, 1);	/* demo, the current one */
	keys_handle(&e, 'j');
	keys_handle(&e, KEY_DOWN);		/* stays on the last */
	assert_int_equal(v.picker_sel, 2);
	/* While open, keys are the picker's: s does not sleep a task. */
	keys_handle(&e, 's');
	assert_int_equal(nsent, 1);
	keys_handle(&e, '\r');
	assert_false(v.picker);
	assert_string_equal(sent[1], "load /tmp/p/mine.cfg");
	assert_string_equal(v.message, "load mine ...");
	/* Again: on the current one; k, Enter: by name. */
	keys_handle(&e, 'l');
	assert_int_equal(v.picker_sel, 1);
	keys_handle(&e, KEY_UP);
	keys_handle(&e, KEY_UP);
	keys_handle(&e, KEY_ENTER);
	assert_string_equal(sent[3], "load article");
	/* Esc closes, sending nothing more. */
	keys_handle(&e, 'l');
	f = keys_handle(&e, 27);
	assert_true(f & KEYS_REDRAW);
	assert_false(v.picker);
	assert_int_equal(nsent, 5);
	/* An old daemon: the picker closes, saying why. */
	m->npending = 0;		/* the others were answered */
	keys_handle(&e, 'l');
	model_feed(m, "err unknown command: scenarios");
	assert_int_equal(m->reply_kind, PEND_SCENARIOS);
	keys_scenarios(m, &v);
	assert_false(v.picker);
	assert_true(v.message_error);
	assert_non_null(strstr(v.message, "unknown command"));

	/* R: reset, after asking. */
	keys_handle(&e, 'R');
	assert_int_equal(v.prompt, PROMPT_RESET);
	assert_non_null(strstr(v.prompt_label, "reset demo for all, "
	    "dropping"));
	keys_handle(&e, 'y');
	assert_string_equal(sent[6], "reset");
	assert_string_equal(v.message, "reset demo ...");

	/* The load shows: a new session, another scenario. */
	v.selected = 12;
	v.task_top = 2;
	v.seeking = 1;
	three_at(m, 0, 0, "article");
	f = keys_frame(m, &v);
	assert_true(f & KEYS_MARKS);
	assert_false(v.seeking);
	assert_int_equal(v.selected, 0);
	assert_int_equal(v.task_top, 0);
	keys_select_first(m, &v);
	assert_int_equal(v.selected, 4);
	/* A reset: a new session, the same scenario keeps the selection. */
	three_at(m, 400, 400, "article");
	keys_frame(m, &v);
	v.selected = 9;
	v.events_back = 3;
	v.nsamples = 7;		/* the rank line's sleeps seen: the old's */
	three_at(m, 0, 0, "article");
	assert_true(keys_frame(m, &v) & KEYS_MARKS);
	assert_int_equal(v.selected, 9);
	assert_int_equal(v.events_back, 0);
	assert_true(v.nsamples <= 1);

	/* Read-only: none of them is sent, each says so by its name. */
	nsent = 0;
	v.readonly = 1;
	keys_handle(&e, 'l');
	assert_false(v.picker);
	assert_non_null(strstr(v.message, "read-only client: 'l' refused"));
	keys_handle(&e, KEY_LEFT);
	assert_non_null(strstr(v.message, "Left refused"));
	keys_handle(&e, KEY_SRIGHT);
	assert_non_null(strstr(v.message, "S-Right refused"));
	keys_handle(&e, 'R');
	keys_handle(&e, 'b');
	keys_handle(&e, 'f');
	keys_handle(&e, '(');
	keys_handle(&e, ')');
	keys_handle(&e, '{');
	keys_handle(&e, KEY_RIGHT);
	assert_true(v.message_error);
	assert_int_equal(nsent, 0);
	model_free(m);
}

/* A key that does nothing says so. */
static void
test_key_nothing(void **state)
{
	struct model	*m;
	struct view	 v;
	struct keys_env	 e;

	m = three(&v, &e);
	assert_int_equal(keys_handle(&e, 'X'), KEYS_HANDLED | KEYS_REDRAW);
	assert_string_equal(v.message,
	    "'X' does nothing here (? lists the keys)");
	keys_handle(&e, KEY_F(5));
	assert_non_null(strstr(v.message, "F5 does nothing"));
	assert_int_equal(nsent, 0);
	model_free(m);
}

/*
 * A frame's runs lines go into the model's runs (a from= that does not
 * go on starts the CPU again); bad ones are counted and skipped; a view
 * line is kept for a follower, who takes it.
 */
static void
test_runs_view(void **state)
{
	static const char *const bad[] = {
		"runs cpu=0", "runs cpu=x from=0 1:120*2", "runs cpu=0 from=-1",
		"runs cpu=0 from=0 1:120", "runs cpu=0 from=0 1:200*2",
		"runs cpu=0 from=0 1:120*0", "runs cpu=0 from=0 1:120*2;",
		"runs cpu=0 from=0 1:120*2 x=1", "view task=2",
	};
	struct model	*m = model_create();
	struct view	 v;
	char		 line[256];
	size_t		 i;
	int		 rank;

	assert_int_equal(model_feed(m, "stairs 2 0.1.0"), MODEL_GREETING);
	assert_int_equal(model_feed(m, "frame tick=30 cpus=1 tasks=0 "
	    "paused=1 speed=1 rr=10 live=1 now=30 delta=0"), MODEL_NOTHING);
	snprintf(line, sizeof line, "runs cpu=0 from=0 1:120*10,0*5,2:121*5");
	assert_int_equal(model_feed(m, line), MODEL_NOTHING);
	snprintf(line, sizeof line, "runs cpu=0 from=20 1:121*10");
	assert_int_equal(model_feed(m, line), MODEL_NOTHING);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(line, sizeof line, "%s", bad[i]);
		assert_int_equal(model_feed(m, line), MODEL_BAD);
	}
	snprintf(line, sizeof line, "view seq=4 task=2 timeline=1 zoom=5");
	assert_int_equal(model_feed(m, line), MODEL_NOTHING);
	assert_int_equal(model_feed(m, "end"), MODEL_FRAME);
	assert_int_equal(runs_end(m->runs, 0), 30);
	assert_int_equal(runs_at(m->runs, 0, 9, &rank), 1);
	assert_int_equal(rank, 120);
	assert_int_equal(runs_at(m->runs, 0, 12, NULL), 0);
	assert_int_equal(runs_at(m->runs, 0, 19, &rank), 2);
	assert_int_equal(rank, 121);
	assert_int_equal(runs_at(m->runs, 0, 29, NULL), 1);
	/* Not where it ended: the CPU starts again there. */
	assert_int_equal(model_feed(m, "frame tick=50 cpus=1 tasks=0 "
	    "paused=1 speed=1 rr=10 live=1 now=50 delta=1"), MODEL_NOTHING);
	snprintf(line, sizeof line, "runs cpu=0 from=40 2:125*10");
	assert_int_equal(model_feed(m, line), MODEL_NOTHING);
	assert_int_equal(model_feed(m, "end"), MODEL_FRAME);
	assert_int_equal(runs_first(m->runs, 0), 40);
	assert_int_equal(runs_at(m->runs, 0, 29, NULL), -1);
	/* The view, for a follower. */
	assert_int_equal(m->view_seq, 4);
	memset(&v, 0, sizeof v);
	assert_int_equal(follow_apply(&v, m->view_pairs), 1);
	assert_int_equal(v.selected, 2);
	assert_int_equal(v.show_timeline, 1);
	assert_int_equal(v.zoom, 5);
	follow_state(&v, line, sizeof line);
	assert_string_equal(line, "task=2 table=0 timeline=1 ranks=0 "
	    "events=0 zoom=5 back=0 tasktop=0 cputop=0 cpuview=0 alone=0");
	model_free(m);
}

/* w, r, e turn the history panes on and off; z/Z zoom; u/d scroll. */
static void
test_key_history(void **state)
{
	struct model	*m;
	struct view	 v;
	struct keys_env	 e;

	m = three(&v, &e);
	keys_handle(&e, 'w');
	assert_true(v.show_timeline);
	assert_string_equal(v.message, "timeline (who ran when) on");
	keys_handle(&e, 'r');
	assert_true(v.show_ranks);
	keys_handle(&e, 'e');
	assert_true(v.show_events);
	keys_handle(&e, 'w');
	assert_false(v.show_timeline);
	keys_handle(&e, 'z');
	assert_int_equal(v.zoom, 2);
	keys_handle(&e, 'Z');
	keys_handle(&e, 'Z');
	assert_int_equal(v.zoom, 10);
	assert_string_equal(v.message, "timeline: 10 ticks a cell");
	keys_handle(&e, 'u');
	assert_int_equal(v.events_back, 5);
	keys_handle(&e, 'd');
	keys_handle(&e, 'd');
	assert_int_equal(v.events_back, 0);
	assert_int_equal(nsent, 0);
	model_free(m);
}

/* g selects the first task, G the last (g went to the last). */
static void
test_key_g(void **state)
{
	struct model	*m;
	struct view	 v;
	struct keys_env	 e;

	m = three(&v, &e);
	keys_handle(&e, 'G');
	assert_int_equal(v.selected, 12);
	keys_handle(&e, 'g');
	assert_int_equal(v.selected, 4);
	keys_handle(&e, KEY_END);
	keys_handle(&e, KEY_HOME);
	assert_int_equal(v.selected, 4);
	model_free(m);
}

/*
 * The help says any key closes it: q and Q close it too, not quit or
 * stop the daemon; Q asks before stopping it for every client.
 */
static void
test_help_q(void **state)
{
	struct model	*m;
	struct view	 v;
	struct keys_env	 e;
	int		 f;

	m = three(&v, &e);
	keys_handle(&e, '?');
	assert_true(v.show_help);
	f = keys_handle(&e, 'q');
	assert_false(f & KEYS_QUIT);
	assert_false(v.show_help);
	keys_handle(&e, KEY_F(1));
	assert_true(v.show_help);
	f = keys_handle(&e, 'Q');
	assert_false(f & KEYS_SHUTDOWN);
	assert_false(v.show_help);
	assert_false(v.prompt);
	assert_int_equal(nsent, 0);
	/* Q asks; anything but y cancels. */
	f = keys_handle(&e, 'Q');
	assert_false(f & KEYS_SHUTDOWN);
	assert_true(v.prompt);
	assert_non_null(strstr(v.prompt_label, "every client"));
	f = keys_handle(&e, 'n');
	assert_false(f & KEYS_SHUTDOWN);
	assert_false(v.prompt);
	assert_int_equal(nsent, 0);
	keys_handle(&e, 'Q');
	f = keys_handle(&e, 'Y');
	assert_true(f & KEYS_SHUTDOWN);
	assert_string_equal(sent[0], "shutdown");
	model_free(m);
}

/* htop's function keys: F10 quits, F9 kills once confirmed, F7/F8 nice. */
static void
test_fkeys(void **state)
{
	struct model	*m;
	struct view	 v;
	struct keys_env	 e;

	m = three(&v, &e);
	assert_true(keys_handle(&e, KEY_F(10)) & KEYS_QUIT);
	keys_handle(&e, KEY_F(9));
	assert_true(v.prompt);
	keys_handle(&e, 27);
	assert_int_equal(nsent, 0);
	keys_handle(&e, KEY_F(9));
	keys_handle(&e, 'y');
	assert_string_equal(sent[0], "kill 4");
	keys_handle(&e, KEY_F(7));
	assert_string_equal(sent[1], "nice 4 -1");
	v.nice_task = 0;
	keys_handle(&e, KEY_F(8));
	assert_string_equal(sent[2], "nice 4 1");
	model_free(m);
}

/* / finds a task by a part of its name, after the selected one. */
static void
test_find(void **state)
{
	struct model	*m;
	struct view	 v;
	struct keys_env	 e;
	const char	*p;
	int		 f;

	m = three(&v, &e);
	keys_handle(&e, '/');
	assert_true(v.prompt);
	for (p = "ke"; *p != '\0'; p++)
		keys_handle(&e, *p);
	f = keys_handle(&e, '\r');
	assert_true(f & KEYS_TABLE);
	assert_int_equal(v.selected, 12);
	/* By id too; and a miss says so, leaving the selection. */
	keys_handle(&e, '/');
	keys_handle(&e, '9');
	keys_handle(&e, '\r');
	assert_int_equal(v.selected, 9);
	keys_handle(&e, '/');
	keys_handle(&e, 'z');
	keys_handle(&e, '\r');
	assert_int_equal(v.selected, 9);
	assert_non_null(strstr(v.message, "no task"));
	assert_int_equal(nsent, 0);
	model_free(m);
}

/* < and > stop at the daemon's speed limits instead of an error. */
static void
test_speed_clamp(void **state)
{
	struct model	*m;
	struct view	 v;
	struct keys_env	 e;

	m = three(&v, &e);
	m->speed = 80;
	keys_handle(&e, '>');
	assert_string_equal(sent[0], "speed 100");
	keys_handle(&e, '>');
	assert_int_equal(nsent, 1);
	assert_false(v.message_error);
	assert_non_null(strstr(v.message, "fastest"));
	v.speed_sent = 0;
	m->speed = 0.015;
	keys_handle(&e, '<');
	assert_string_equal(sent[1], "speed 0.01");
	keys_handle(&e, '<');
	assert_int_equal(nsent, 2);
	assert_non_null(strstr(v.message, "slowest"));
	model_free(m);
}

/*
 * The pacing keys: i steps an rr interval (the frame's rr), E to the
 * next event (its ok clears the key's message, so the caption line
 * shows the event found), * asks for a speed: taken as typed, "10x"
 * too, held to the daemon's limits (saying so), a word refused before
 * anything is sent; read-only refuses all three.
 */
static void
test_pacing(void **state)
{
	struct model	*m;
	struct view	 v;
	struct keys_env	 e;
	const char	*p;

	m = three(&v, &e);
	keys_handle(&e, 'i');
	assert_string_equal(sent[0], "step 10");
	assert_non_null(strstr(v.message, "rr interval"));
	assert_int_equal(model_feed(m, "ok"), MODEL_REPLY);
	keys_reply(m, &v);
	keys_handle(&e, 'E');
	assert_string_equal(sent[1], "step event");
	assert_int_not_equal(v.message[0], '\0');
	assert_int_equal(model_feed(m, "ok 37"), MODEL_REPLY);
	keys_reply(m, &v);
	assert_string_equal(v.message, "");

	for (p = "*2\r"; *p != '\0'; p++)
		keys_handle(&e, *p);
	assert_string_equal(sent[2], "speed 2");
	v.speed_sent = 0;
	/* The default is the speed now: typing replaces it. */
	keys_handle(&e, '*');
	assert_string_equal(v.prompt_buf, "1");
	for (p = "500\r"; *p != '\0'; p++)
		keys_handle(&e, *p);
	assert_string_equal(sent[3], "speed 100");
	assert_non_null(strstr(v.message, "speed 100x (the fastest)"));
	for (p = "*0.001x\r"; *p != '\0'; p++)
		keys_handle(&e, *p);
	assert_string_equal(sent[4], "speed 0.01");
	assert_non_null(strstr(v.message, "(the slowest)"));
	for (p = "*fast\r"; *p != '\0'; p++)
		keys_handle(&e, *p);
	assert_int_equal(nsent, 5);
	assert_true(v.message_error);
	assert_non_null(strstr(v.message, "not a speed: fast"));
	for (p = "*0\r"; *p != '\0'; p++)
		keys_handle(&e, *p);
	assert_int_equal(nsent, 5);

	v.readonly = 1;
	keys_handle(&e, 'i');
	keys_handle(&e, 'E');
	keys_handle(&e, '*');
	assert_int_equal(nsent, 5);
	assert_int_equal(v.prompt, 0);
	assert_non_null(strstr(v.message, "'*' refused"));
	model_free(m);
}

/* A refused command reads as refused (it read like a success). */
static void
test_reply_error(void **state)
{
	struct model	*m;
	struct view	 v;
	struct keys_env	 e;

	m = three(&v, &e);
	keys_handle(&e, 'a');
	keys_handle(&e, '9');
	keys_handle(&e, '\r');
	assert_string_equal(sent[0], "affinity 4 9");
	assert_int_equal(model_feed(m, "err cpu 9 is outside 0..1"),
	    MODEL_REPLY);
	keys_reply(m, &v);
	assert_true(v.message_error);
	assert_string_equal(v.message,
	    "refused: hog on CPUs 9: cpu 9 is outside 0..1");
	model_sent(m, PEND_ACTION, "hog sleeps 5 ms");
	assert_int_equal(model_feed(m, "ok"), MODEL_REPLY);
	keys_reply(m, &v);
	assert_false(v.message_error);
	assert_string_equal(v.message, "hog sleeps 5 ms");

	/*
	 * A key's note said after a command was sent stays when its ok
	 * comes (f at the present read "forward a second: tick N", the
	 * reply of the seek before it); a refusal still replaces it.
	 */
	nsent = 0;
	m->npending = 0;
	three_at(m, 4000, 5000, "demo");
	keys_frame(m, &v);
	keys_handle(&e, 'f');
	assert_string_equal(sent[0], "seek 5000");
	keys_handle(&e, 'f');
	assert_int_equal(nsent, 1);
	assert_non_null(strstr(v.message, "tick 5000 is the present"));
	assert_int_equal(model_feed(m, "ok"), MODEL_REPLY);
	keys_reply(m, &v);
	assert_non_null(strstr(v.message, "tick 5000 is the present"));
	keys_handle(&e, KEY_LEFT);
	assert_string_equal(sent[1], "seek 4999");
	assert_int_equal(model_feed(m, "err seek: no"), MODEL_REPLY);
	keys_reply(m, &v);
	assert_true(v.message_error);
	model_free(m);
}

/* A key's message gives way to events after a while; errors later. */
static void
test_message_age(void **state)
{
	struct model	*m = greeted();
	struct view	 v;
	int		 i;

	memset(&v, 0, sizeof v);
	v.pause_sent = -1;
	draw_message(&v, 0, "hog sleeps 1000 ms");
	for (i = 0; i < 5 * KEYS_FPS; i++) {
		frame_at(m, 1000 + i, 0);
		keys_frame(m, &v);
	}
	assert_string_equal(v.message, "hog sleeps 1000 ms");
	for (i = 0; i < 3; i++) {
		frame_at(m, 2000 + i, 0);
		keys_frame(m, &v);
	}
	assert_string_equal(v.message, "");
	/* A new message starts its own time; an error stays longer. */
	draw_message(&v, 1, "err no such task");
	for (i = 0; i < 10 * KEYS_FPS; i++) {
		frame_at(m, 3000 + i, 0);
		keys_frame(m, &v);
	}
	assert_string_equal(v.message, "err no such task");
	model_free(m);
}

/* A click on a task row selects it. */
static void
test_click(void **state)
{
	struct model	*m = greeted();
	struct view	 v;
	struct keys_env	 e;

	model_feed(m, "frame tick=1 cpus=1 tasks=2 paused=0 speed=1 rr=10");
	model_feed(m, TASK(4, "hog", "running", 0));
	model_feed(m, TASK(9, "ed", "sleeping", 0));
	model_feed(m, "end");
	memset(&v, 0, sizeof v);
	memset(&e, 0, sizeof e);
	e.model = m;
	e.view = &v;
	v.selected = 4;
	v.task_y = 10;
	v.task_rows = 5;
	assert_int_equal(keys_click(&e, 3, 9), 0);
	assert_true(keys_click(&e, 3, 11) & KEYS_TABLE);
	assert_int_equal(v.selected, 9);
	assert_int_equal(keys_click(&e, 3, 12), 0);
	model_free(m);
}

/* A made-up daemon's task, for test_delta. */
struct dtask {
	int	live;		/* exists */
	int	rank, left, state;
	long	ran;
	int	changed;	/* frame number it last changed or went */
};

/* A task line as the daemon would send it. */
static void
dtask_line(char *buf, size_t len, int id, const struct dtask *t)
{
	static const char *const states[] = { "sleeping", "runnable",
	    "running", "exited" };

	snprintf(buf, len, "task id=%d name=t%d kind=sim pid=- nice=0 cpu=%d "
	    "rank=%d iter=1 left=%d state=%s ran=%ld cputime=- cpus=0-1 "
	    "group=- exit=-", id, id, id % 2, t->rank, t->left,
	    states[t->state], t->ran);
}

/* The two models hold the same tasks, CPUs and tick. */
static void
same_models(const struct model *a, const struct model *b)
{
	struct mtask	ta, tb;
	int		i;

	assert_int_equal(a->ntasks, b->ntasks);
	for (i = 0; i < a->ntasks; i++) {
		assert_int_equal(a->tasks[i].id, b->tasks[i].id);
		assert_int_equal(a->tasks[i].ran, b->tasks[i].ran);
		assert_int_equal(model_pct(a, &a->tasks[i]),
		    model_pct(b, &b->tasks[i]));
		/*
		 * The rest as shown; the %cpu history of a task a delta
		 * did not carry is caught up when shown, so not compared.
		 */
		ta = a->tasks[i];
		tb = b->tasks[i];
		memset(ta.hran, 0, sizeof ta.hran);
		memset(tb.hran, 0, sizeof tb.hran);
		ta.hseq = tb.hseq = ta.bseq = tb.bseq = 0;
		ta.btick = tb.btick = ta.bran = tb.bran = 0;
		ta.hepoch = tb.hepoch = 0;
		assert_memory_equal(&ta, &tb, sizeof ta);
	}
	assert_int_equal(a->ncpus, b->ncpus);
	assert_memory_equal(a->cpus, b->cpus, a->ncpus * sizeof *a->cpus);
	assert_int_equal(a->tick, b->tick);
	assert_int_equal(a->desync, 0);
	assert_int_equal(b->desync, 0);
}

/*
 * Delta frames: a model fed a full frame then delta frames (changed
 * tasks, new ones, some in the middle of the ids, and gone ones) holds
 * the same tasks, %cpu history included, as a model fed the equivalent
 * full frames, at every step; across dropped frames too (a dropped frame
 * reaches neither model, and the next delta carries everything since
 * the last one delivered).
 */
static void
test_delta(void **state)
{
	struct model	*full = greeted(), *delta = greeted();
	struct dtask	 t[200];
	char		 line[512];
	unsigned int	 seed = 12345;
	long		 tick = 0;
	int		 f, id, n, k, live, last = -1, ntask = 40, drops = 0;
	int		 adds = 0, gones = 0, mids = 0;

	memset(t, 0, sizeof t);
	for (id = 1; id <= ntask; id++) {
		t[id].live = 1;
		t[id].rank = 120 + id % 20;
		t[id].left = 10;
	}
#define RND() (seed = seed * 1103515245 + 12345, (seed >> 16) & 0x7fff)
	for (f = 0; f < 300; f++) {
		tick += 100 + RND() % 400;
		/* A few tasks change; now and then one comes or goes. */
		for (k = RND() % 6; k > 0; k--) {
			id = 1 + RND() % ntask;
			if (!t[id].live)
				continue;
			t[id].ran += RND() % 300;
			t[id].rank = 120 + RND() % 20;
			t[id].left = 1 + RND() % 10;
			t[id].state = RND() % 4;
			t[id].changed = f;
		}
		if (RND() % 7 == 0 && ntask < 199) {
			id = ++ntask;
			t[id].live = 1;
			t[id].rank = 120;
			t[id].left = 10;
			t[id].changed = f;
			adds++;
		}
		if (RND() % 9 == 0) {
			id = 1 + RND() % ntask;
			if (t[id].live) {
				/* Gone, or back in the middle of the ids. */
				t[id].live = 0;
				gones++;
			} else {
				t[id].live = 1;
				t[id].ran = 0;
				mids++;
			}
			t[id].changed = f;
		}
		/* Every 11th frame is dropped: neither model sees it. */
		if (f % 11 == 5) {
			drops++;
			continue;
		}
		for (id = 1, live = 0; id <= ntask; id++)
			live += t[id].live;

		snprintf(line, sizeof line, "frame tick=%ld cpus=2 tasks=%d "
		    "paused=0 speed=1 rr=10 dropped=0 live=%d lag=0 sleep=1000",
		    tick, live, live);
		assert_int_equal(model_feed(full, line), MODEL_NOTHING);
		snprintf(line, sizeof line, "frame tick=%ld cpus=2 tasks=%d "
		    "paused=0 speed=1 rr=10 dropped=%d live=%d lag=0 sleep=1000 "
		    "delta=%d", tick, live, f % 11 == 6, live, last >= 0);
		assert_int_equal(model_feed(delta, line), MODEL_NOTHING);
		for (n = 0; n < 2; n++) {
			snprintf(line, sizeof line, "cpu id=%d task=%d nr=1 "
			    "rank=120 iter=1 left=%d", n, f % 5, f % 10);
			model_feed(full, line);
			model_feed(delta, line);
		}
		for (id = 1; id <= ntask; id++) {
			dtask_line(line, sizeof line, id, &t[id]);
			if (t[id].live)
				assert_int_equal(model_feed(full, line),
				    MODEL_NOTHING);
			if (last >= 0 && t[id].changed <= last)
				continue;
			if (t[id].live)
				assert_int_equal(model_feed(delta, line),
				    MODEL_NOTHING);
			else {
				snprintf(line, sizeof line, "gone id=%d", id);
				assert_int_equal(model_feed(delta, line),
				    MODEL_NOTHING);
			}
		}
		assert_int_equal(model_feed(full, "end"), MODEL_FRAME);
		assert_int_equal(model_feed(delta, "end"), MODEL_FRAME);
		last = f;
		same_models(full, delta);
		assert_int_equal(full->ntasks, live);
	}
#undef RND
	/* The run went through what it is meant to test. */
	assert_true(drops > 10 && adds > 10 && gones > 5 && mids > 2);
	assert_true(delta->deltas > 200);
	assert_int_equal(full->deltas, 0);
	assert_int_equal(full->nbad + delta->nbad, 0);

	/* A delta that misses a task leaves the model out of step. */
	assert_int_equal(model_feed(delta, "frame tick=999999 cpus=2 "
	    "tasks=9999 paused=0 speed=1 rr=10 dropped=0 delta=1"),
	    MODEL_NOTHING);
	assert_int_equal(model_feed(delta, "end"), MODEL_FRAME);
	assert_int_equal(delta->desync, 1);
	/* A full frame is the whole set: never out of step. */
	assert_int_equal(model_feed(delta, "frame tick=1000000 cpus=2 "
	    "tasks=5 paused=0 speed=1 rr=10 dropped=0 delta=0"),
	    MODEL_NOTHING);
	assert_int_equal(model_feed(delta, "end"), MODEL_FRAME);
	assert_int_equal(delta->desync, 0);
	assert_int_equal(delta->ntasks, 0);
	model_free(full);
	model_free(delta);
}

/* Run the model and key tests. */
/*
 * A caption's event lines (caption: / question: / answer:) go to the
 * event log, not to the newest event beside the caption; the caption
 * line's hold takes them in order; in the past (live=0) the frame's
 * caption is up at once, and a new session's hold starts empty.
 */
static void
test_caption_events(void **state)
{
	struct model	*m = greeted();
	struct captions	 c;
	char		 buf[512];

	memset(&c, 0, sizeof c);
	assert_int_equal(model_feed(m, "frame tick=700 cpus=1 tasks=0 "
	    "paused=0 speed=1 rr=10 live=1 alive=0 now=700"), MODEL_NOTHING);
	assert_int_equal(model_feed(m, "caption tick=605 text=Next"),
	    MODEL_NOTHING);
	assert_int_equal(model_feed(m, "event tick=600 text=hog sleeps 5 ms"),
	    MODEL_NOTHING);
	assert_int_equal(model_feed(m, "event tick=600 text=answer: It woke"),
	    MODEL_NOTHING);
	assert_int_equal(model_feed(m, "event tick=605 text=caption: Next"),
	    MODEL_NOTHING);
	assert_int_equal(model_feed(m, "end"), MODEL_FRAME);
	assert_string_equal(model_last_event(m), "hog sleeps 5 ms");
	assert_int_equal(m->nlog, 3);
	assert_string_equal(m->log[2].text, "caption: Next");
	assert_int_equal(caption_frame(&c, m, 1000), 1);
	assert_string_equal(caption_text(&c, buf, sizeof buf), "It woke");
	assert_int_equal(caption_advance(&c, 8999), 0);
	assert_int_equal(caption_advance(&c, 9000), 1);	/* 8 s, no key */
	assert_string_equal(caption_text(&c, buf, sizeof buf), "Next");

	/* The past: its tick's caption at once, nothing waits. */
	assert_int_equal(model_feed(m, "frame tick=100 cpus=1 tasks=0 "
	    "paused=1 speed=1 rr=10 live=0 alive=0 now=700"), MODEL_NOTHING);
	assert_int_equal(model_feed(m, "caption tick=50 text=Early"),
	    MODEL_NOTHING);
	assert_int_equal(model_feed(m, "end"), MODEL_FRAME);
	assert_int_equal(caption_frame(&c, m, 9100), 1);
	assert_string_equal(caption_text(&c, buf, sizeof buf), "Early");
	model_free(m);
}

/*
 * Issue 24's lines: picture=, each policy's quantities on task and cpu
 * lines, three shadows (the same policy twice, told apart by order),
 * tally lines to each policy's tasks, why and swhy lines kept per CPU
 * across delta frames, and a new why in the event log as "CPU0: ...".
 */
static void
test_pictures_why(void **state)
{
	static const char *const full[] = {
		"frame tick=10 cpus=1 tasks=2 paused=1 speed=1 rr=10 dropped=0 "
		    "policy=eevdf shadow=o1,cfs,o1 picture=lag",
		"cpu id=0 task=1 nr=2 rank=120 iter=1 left=3 V_us=5000 "
		    "min_vruntime_us=-1000 next=2",
		TASK(1, "hog", "running", 9) " slice=3 top=120 bottom=120 "
		    "vruntime_us=-1000 lag_us=1000 deadline_us=2000 eligible=1 "
		    "weight=1024",
		TASK(2, "ed", "runnable", 1) " vruntime_us=500 lag_us=-500 "
		    "deadline_us=3500 eligible=0",
		"scpu id=0 task=1 nr=2 rank=125 iter=1 left=90 expired_ms=7 "
		    "starve_ms=3061 best_expired=125 nr_active=1 nr_expired=1 "
		    "policy=o1",
		"stask id=1 name=hog kind=sim pid=- nice=0 cpu=0 rank=125 "
		    "iter=1 "
		    "left=90 state=running ran=9 cputime=- cpus=0 group=- "
		    "exit=- array=0 bonus=-5 sleep_avg=0 policy=o1",
		"stask id=2 name=ed kind=sim pid=- nice=0 cpu=0 rank=118 "
		    "iter=1 "
		    "left=90 state=runnable ran=1 cputime=- cpus=0 group=- "
		    "exit=- array=1 bonus=2 sleep_avg=200 policy=o1",
		"scpu id=0 task=2 nr=2 rank=120 iter=1 left=1 "
		    "min_vruntime_us=9000 next=1 period_us=20000 policy=cfs",
		"stask id=1 name=hog kind=sim pid=- nice=0 cpu=0 rank=120 "
		    "iter=1 "
		    "left=1 state=runnable ran=5 cputime=- cpus=0 group=- "
		    "exit=- vruntime_us=0 slice_us=6000 left_us=0 policy=cfs",
		"stask id=2 name=ed kind=sim pid=- nice=0 cpu=0 rank=120 "
		    "iter=1 "
		    "left=1 state=running ran=5 cputime=- cpus=0 group=- "
		    "exit=- vruntime_us=500 slice_us=6000 left_us=1000 "
		    "policy=cfs",
		"scpu id=0 task=2 nr=2 rank=118 iter=1 left=50 expired_ms=0 "
		    "starve_ms=3061 best_expired=140 nr_active=2 nr_expired=0 "
		    "policy=o1",
		"stask id=2 name=ed kind=sim pid=- nice=0 cpu=0 rank=118 "
		    "iter=1 "
		    "left=50 state=running ran=3 cputime=- cpus=0 group=- "
		    "exit=- array=0 bonus=3 sleep_avg=300 policy=o1",
		"tally policy=eevdf id=1 ticks=10 share=90.0 ran=9 runs=1 "
		    "lat_p50=- lat_p95=- lat_max=-",
		"tally policy=eevdf id=2 ticks=10 share=10.0 ran=1 runs=1 "
		    "lat_p50=3 lat_p95=4 lat_max=5",
		"tally policy=o1 id=1 ticks=10 share=90.0 ran=9 runs=1 "
		    "lat_p50=- lat_p95=- lat_max=-",
		"tally policy=cfs id=2 ticks=10 share=50.0 ran=5 runs=2 "
		    "lat_p50=0 lat_p95=0 lat_max=0",
		"tally policy=o1 id=2 ticks=10 share=30.0 ran=3 runs=1 "
		    "lat_p50=1 lat_p95=1 lat_max=1",
		"why cpu=0 tick=9 task=1 text=hog: eligible (lag +1.0 ms), "
		    "earliest deadline 2.0 ms",
		"swhy cpu=0 tick=8 task=2 policy=cfs text=ed: smallest "
		    "vruntime",
		"end",
	};
	struct model		*m = greeted();
	const struct mtask	*t;
	long			 v;
	size_t			 i;

	for (i = 0; i < sizeof full / sizeof full[0]; i++)
		assert_int_not_equal(model_feed(m, full[i]), MODEL_BAD);
	assert_string_equal(m->picture, "lag");
	assert_int_equal(m->nshadows, 3);
	assert_ptr_equal(m->shadow, m->shadows[0]);
	assert_string_equal(m->shadows[0]->policy, "o1");
	assert_string_equal(m->shadows[1]->policy, "cfs");
	assert_string_equal(m->shadows[2]->policy, "o1");
	assert_string_equal(m->shadows[0]->picture, "arrays");
	assert_string_equal(m->shadows[1]->picture, "vruntime");
	/* The quantities, by name. */
	t = model_task(m, 1);
	assert_int_equal(model_q(t, MQ_LAG, &v), 0);
	assert_int_equal(v, 1000);
	assert_int_equal(model_q(t, MQ_BONUS, &v), -1);
	assert_int_equal(model_cq(&m->cpus[0], MCQ_V, &v), 0);
	assert_int_equal(v, 5000);
	assert_int_equal(model_cq(&m->shadows[0]->cpus[0], MCQ_EXPIRED_MS,
	    &v), 0);
	assert_int_equal(v, 7);
	/* Each o1 shadow its own lines: task 2 expired in the first. */
	assert_int_equal(model_q(model_task(m->shadows[0], 2), MQ_ARRAY, &v),
	    0);
	assert_int_equal(v, 1);
	assert_null(model_task(m->shadows[2], 1));
	assert_int_equal(model_task(m->shadows[2], 2)->rank, 118);
	/* The tallies, each to its policy's model. */
	assert_int_equal(model_task(m, 2)->tally.share10, 100);
	assert_int_equal(model_task(m, 2)->tally.p95, 4);
	assert_int_equal(model_task(m, 1)->tally.p50, -1);
	assert_int_equal(model_task(m->shadows[0], 1)->tally.ran, 9);
	assert_int_equal(model_task(m->shadows[1], 2)->tally.runs, 2);
	assert_int_equal(model_task(m->shadows[2], 2)->tally.share10, 300);
	/* The whys: the enforced one's and cfs's; the log has the first. */
	assert_non_null(model_why(m, 0));
	assert_string_equal(model_why(m, 0)->text,
	    "hog: eligible (lag +1.0 ms), earliest deadline 2.0 ms");
	assert_null(model_why(m->shadows[0], 0));
	assert_string_equal(model_why(m->shadows[1], 0)->text,
	    "ed: smallest vruntime");
	assert_int_equal(m->nlog, 1);
	assert_string_equal(m->log[0].text,
	    "CPU0: hog: eligible (lag +1.0 ms), earliest deadline 2.0 ms");
	/* A delta frame with no why keeps it, and logs nothing again. */
	assert_int_equal(model_feed(m, "frame tick=11 cpus=1 tasks=2 "
	    "paused=1 speed=1 rr=10 dropped=0 policy=eevdf delta=1 "
	    "picture=lag"), MODEL_NOTHING);
	assert_int_equal(model_feed(m, "end"), MODEL_FRAME);
	assert_int_equal(m->nshadows, 0);
	assert_null(m->shadow);
	assert_non_null(model_why(m, 0));
	assert_int_equal(m->nlog, 1);
	/* An old daemon's frame: no picture=, stairs. */
	assert_int_equal(model_feed(m, "frame tick=12 cpus=1 tasks=2 "
	    "paused=1 speed=1 rr=10 dropped=0 policy=o1 delta=1"),
	    MODEL_NOTHING);
	assert_int_equal(model_feed(m, "end"), MODEL_FRAME);
	assert_string_equal(m->picture, "stairs");
	model_free(m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_greeting_bad),
		cmocka_unit_test(test_frame),
		cmocka_unit_test(test_pictures_why),
		cmocka_unit_test(test_caption_events),
		cmocka_unit_test(test_event_no_tick),
		cmocka_unit_test(test_frame_malformed),
		cmocka_unit_test(test_delta),
		cmocka_unit_test(test_line_too_long),
		cmocka_unit_test(test_replies),
		cmocka_unit_test(test_status_description),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_pct),
		cmocka_unit_test(test_policy_fields),
		cmocka_unit_test(test_shadow),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_key_g),
		cmocka_unit_test(test_key_nothing),
		cmocka_unit_test(test_key_history),
		cmocka_unit_test(test_runs_view),
		cmocka_unit_test(test_help_q),
		cmocka_unit_test(test_fkeys),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_speed_clamp),
		cmocka_unit_test(test_pacing),
		cmocka_unit_test(test_reply_error),
		cmocka_unit_test(test_click),
		cmocka_unit_test(test_message_age),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_session_fields),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_load_history),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_key_seek),
		cmocka_unit_test(test_key_picker),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
