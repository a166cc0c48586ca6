/*
 * frames.c -- the body of a frame (docs/PROTOCOL.md, "Frames"): the cpu
 * and task lines of the engine shown, and the shadow's, built once per
 * change however many subscribers there are, and shared by reference.
 *
 * Each task's line is kept as last formatted and formatted again only
 * when what it shows changed (real tasks always: their CPU time moves
 * on its own); only the tasks the engine's log of changes names since
 * the last look are looked at (engine_changes), with the ones the CPUs
 * run and the real ones, so a frame costs what changed, not a pass over
 * 20 000 tasks.  A delta frame (subscribe ... delta) carries the lines
 * changed since the client's last frame, from a log of which line
 * changed at which generation (notes_gen).
 */
#include <event2/buffer.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "format.h"
#include "frames.h"
#include "live.h"
#include "notes.h"
#include "session.h"
#include "tally.h"
#include "whys.h"
#include "fields.h"
#include "xmalloc.h"

/*
 * A body at most this long is copied into a client's output; a longer
 * one is added by reference, costing the output FRAMES_REF_COST beyond
 * its unused capacity (libevent's chains around it).
 */
#define FRAMES_BODY_COPY	(8 * 1024)
#define FRAMES_REF_COST		2048

/*
 * A task's line as last formatted, and the snapshot it was made of (a
 * sim task's line is made of that alone: when it is unchanged, so is
 * the line).  changed is the daemon's gen when the line last changed
 * (or the task went): a delta frame against gen G carries the lines
 * changed after G.
 */
struct frames_line {
	struct engine_task_info	 key;
	int			 valid;		/* the task exists */
	uint64_t		 changed;
	size_t			 len;
	char			 text[512];
};

/* A line changed at a gen (the log a delta frame reads). */
struct frames_chg {
	uint64_t	gen;
	int		id;
};

struct frames {
	struct live		*live;
	/* The cpu and task lines of a frame, built once per change. */
	struct frames_body	*body;
	uint64_t		 body_gen;
	struct frames_line	*lines;		/* per task id, cached */
	int			 nlines;
	uint64_t		 lines_gen;	/* the gen they show */
	/*
	 * What the lines were last brought up to date with: the engine,
	 * its engine_changes epoch and how far into its log; the real
	 * tasks (their lines move on their own), looked at every time.
	 */
	const struct engine	*lines_engine;
	uint64_t		 lines_epoch;
	size_t			 lines_cursor;
	int			*reals;
	int			 nreals, alloc_reals;
	/*
	 * The lines changed, in the order of their gens: a delta frame
	 * against gen G is the ids after G.  Started again when long;
	 * a delta against a gen before chlog_floor looks at every line.
	 */
	struct frames_chg	*chlog;
	size_t			 nchlog, alloc_chlog;
	uint64_t		 chlog_floor;
	int			*delta_ids;	/* a delta's, sorted */
	size_t			 alloc_delta_ids;
	struct frames_body	*delta;		/* the last delta body */
	uint64_t		 delta_gen;	/* the gen it shows */
	uint64_t		 delta_from;	/* the gen it is against */
};

/* The generation frames are built at. */
static uint64_t
frames_gen(const struct frames *f)
{
	return (notes_gen(live_notes(f->live)));
}

/* The frames of the live daemon l. */
struct frames *
frames_create(struct live *l)
{
	struct frames	*f;

	f = xcalloc(1, sizeof *f);
	f->live = l;
	return (f);
}

/* Free what the frames keep (bodies still queued are their holders'). */
void
frames_free(struct frames *f)
{
	if (f == NULL)
		return;
	free(f->lines);
	free(f->reals);
	free(f->chlog);
	free(f->delta_ids);
	frames_body_unref(f->body);
	frames_body_unref(f->delta);
	free(f);
}

/*
 * A new session (load, reset): the task lines kept for delta frames
 * belong to the old one.  Forget them: the next look is at every line.
 */
void
frames_reset(struct frames *f)
{
	free(f->lines);
	f->lines = NULL;
	f->nlines = 0;
	f->lines_gen = 0;
	f->lines_engine = NULL;
	f->nreals = 0;
	f->nchlog = 0;
	f->chlog_floor = frames_gen(f);
}

/* Drop a reference to a frame body; the last one frees it. */
void
frames_body_unref(struct frames_body *b)
{
	if (b != NULL && --b->refs == 0)
		free(b);
}

/* evbuffer's cleanup for a body added by reference. */
static void
frames_body_cleanup(const void *data, size_t len, void *arg)
{
	frames_body_unref(arg);
}

/*
 * Queue a frame body on an output buffer: a small one copied, a large
 * one by reference (no copy, shared by every subscriber).  Returns the
 * memory it holds beyond the bytes counted in the buffer's length: for a
 * reference, the body's unused capacity and the chains around it.
 */
size_t
frames_body_add(struct evbuffer *out, struct frames_body *b)
{
	if (b->len <= FRAMES_BODY_COPY) {
		evbuffer_add(out, b->data, b->len);
		return (0);
	}
	b->refs++;
	if (evbuffer_add_reference(out, b->data, b->len, frames_body_cleanup,
	    b) != 0) {
		b->refs--;
		evbuffer_add(out, b->data, b->len);
		return (0);
	}
	return (sizeof *b + b->size - b->len + FRAMES_REF_COST);
}

/*
 * Start building a body in *bp.  One still queued somewhere is left to
 * its holders and a new one allocated, sized from it (not a fixed size:
 * the allocation is what the clients' output bound counts).
 */
static void
frames_body_begin(struct frames_body **bp)
{
	size_t	size = 4096;

	if (*bp != NULL && (*bp)->refs > 1) {
		size = (*bp)->len + (*bp)->len / 8 + 1024;
		frames_body_unref(*bp);
		*bp = NULL;
	}
	if (*bp == NULL) {
		*bp = xmalloc(sizeof **bp + size);
		(*bp)->refs = 1;
		(*bp)->size = size;
	}
	(*bp)->len = 0;
}

/* Append len bytes to the body being built (which nobody else holds). */
static void
frames_body_append(struct frames_body **bp, const char *p, size_t len)
{
	struct frames_body	*b = *bp;
	size_t			 size = b->size;

	if (b->len + len > size) {
		while (b->len + len > size)
			size *= 2;
		b = xrealloc(b, sizeof *b + size);
		b->size = size;
		*bp = b;
	}
	memcpy(b->data + b->len, p, len);
	b->len += len;
}

/* Append the cpu lines (every frame has them all: few and cheap). */
static void
frames_body_cpus(struct frames *f, struct frames_body **bp)
{
	struct engine_cpu_info	 ci;
	char			 buf[FORMAT_CPU_LINE_MAX];
	int			 c, n;

	for (c = 0; c < engine_params(live_engine(f->live))->cpus; c++) {
		engine_cpu_info(live_engine(f->live), c, &ci);
		n = (int)format_cpu_line(buf, sizeof buf - 1,
		    live_engine(f->live), &ci);
		buf[n++] = '\n';
		frames_body_append(bp, buf, (size_t)n);
	}
}

/* Note that task id's line changed at gen (a delta frame's ids). */
static void
frames_chlog_add(struct frames *f, uint64_t gen, int id)
{
	size_t	most = (size_t)f->nlines * 4 + 65536;

	if (f->nchlog >= most) {
		/* Long: deltas from before now look at every line. */
		f->nchlog = 0;
		f->chlog_floor = gen;
	}
	if (f->nchlog == f->alloc_chlog) {
		f->alloc_chlog = f->alloc_chlog ? f->alloc_chlog * 2 :
		    1024;
		if (f->alloc_chlog > most)
			f->alloc_chlog = most;
		f->chlog = xreallocarray(f->chlog, f->alloc_chlog,
		    sizeof *f->chlog);
	}
	f->chlog[f->nchlog].gen = gen;
	f->chlog[f->nchlog].id = id;
	f->nchlog++;
}

/*
 * Bring task id's line up to date: formatted again only when what it
 * shows changed (real tasks always: their CPU time moves on its own),
 * and marked changed (at d->gen) only when its text did.  A task that
 * no longer exists is marked changed and no longer valid: delta frames
 * say it is gone.  1 if it is a real task.
 */
static int
frames_line_update(struct frames *f, int id, int n)
{
	const struct engine	*e = live_engine(f->live);
	struct engine_task_info	 ti;
	struct frames_line	*l = &f->lines[id - 1];
	char			 buf[sizeof l->text];
	size_t			 len;

	if (id > n || engine_task_info(e, id, &ti) != 0) {
		if (l->valid) {
			l->valid = 0;
			l->changed = frames_gen(f);
			frames_chlog_add(f, frames_gen(f), id);
		}
		return (0);
	}
	/*
	 * Byte for byte (engine_task_info zeroes it first): a difference
	 * the line does not show costs a format, and nothing else.
	 */
	if (l->valid && ti.kind != ENGINE_REAL &&
	    memcmp(&ti, &l->key, sizeof ti) == 0)
		return (0);
	len = live_task_line(f->live, e, &ti, 1, buf, sizeof buf - 1);
	buf[len++] = '\n';
	memcpy(&l->key, &ti, sizeof ti);
	if (l->valid && len == l->len && memcmp(buf, l->text, len) == 0)
		return (ti.kind == ENGINE_REAL);
	memcpy(l->text, buf, len);
	l->len = len;
	l->valid = 1;
	l->changed = frames_gen(f);
	frames_chlog_add(f, frames_gen(f), id);
	return (ti.kind == ENGINE_REAL);
}

/* Remember a real task's id: its line is looked at every frame. */
static void
frames_real_add(struct frames *f, int id)
{
	if (f->nreals == f->alloc_reals) {
		f->alloc_reals = f->alloc_reals ? f->alloc_reals * 2 :
		    16;
		f->reals = xreallocarray(f->reals, f->alloc_reals,
		    sizeof *f->reals);
	}
	f->reals[f->nreals++] = id;
}

/*
 * Append a shadow's lines (compare a,b,c, SPEC.md sections 6 and 10):
 * its cpu and task lines as the enforced engine's, each keyword
 * prefixed with `s` (scpu, stask) and ending in policy=NAME, all of
 * them in every frame, full or delta (the shadows are a teaching aid:
 * a few tasks).
 */
static void
frames_body_shadow(struct frames_body **bp, const struct engine *sh)
{
	struct engine_cpu_info	 ci;
	struct engine_task_info	 ti;
	char			 buf[FORMAT_CPU_LINE_MAX + 64];
	const char		*pol = engine_get_policy(sh)->name;
	int			 c, id, n;

	for (c = 0; c < engine_params(sh)->cpus; c++) {
		engine_cpu_info(sh, c, &ci);
		buf[0] = 's';
		n = 1 + (int)format_cpu_line(buf + 1, FORMAT_CPU_LINE_MAX, sh,
		    &ci);
		n += snprintf(buf + n, sizeof buf - (size_t)n, " policy=%s\n",
		    pol);
		frames_body_append(bp, buf, (size_t)n);
	}
	for (id = 1; id <= engine_ntasks(sh); id++) {
		if (engine_task_info(sh, id, &ti) != 0)
			continue;
		buf[0] = 's';
		n = 1 + (int)format_task_line(buf + 1, FORMAT_CPU_LINE_MAX, sh,
		    &ti, NULL);
		n += snprintf(buf + n, sizeof buf - (size_t)n, " policy=%s\n",
		    pol);
		frames_body_append(bp, buf, (size_t)n);
	}
}

/*
 * Append the tally lines of one engine's policy (SPEC.md section 10):
 * per task, its share of a CPU, ticks run, runs and wake-up latencies
 * since compare started, as headless --compare prints them.
 */
static void
frames_body_tally(struct frames_body **bp, struct tally *y,
    const char *pol, int ntasks)
{
	const struct wire_line	*l = &wire_tally;
	struct tally_row	 r;
	char			 buf[320], p50[24], p95[24], max[24];
	uint64_t		 ticks = tally_ticks(y);
	int			 id, n;

	for (id = 1; id <= ntasks; id++) {
		tally_row(y, id, &r);
		snprintf(p50, sizeof p50, "%llu", (unsigned long long)r.p50);
		snprintf(p95, sizeof p95, "%llu", (unsigned long long)r.p95);
		snprintf(max, sizeof max, "%llu", (unsigned long long)r.max);
#define K(f)	wire_key(l, WIRE_TALLY_##f)
		n = snprintf(buf, sizeof buf, "%s %s=%s %s=%d %s=%llu %s=%.1f "
		    "%s=%llu %s=%llu %s=%s %s=%s %s=%s\n", l->word, K(POLICY),
		    pol, K(ID), id, K(TICKS), (unsigned long long)ticks,
		    K(SHARE), ticks == 0 ? 0.0 : 100.0 * (double)r.ran /
		    (double)ticks, K(RAN), (unsigned long long)r.ran, K(RUNS),
		    (unsigned long long)r.runs, K(P50), r.wakes ? p50 : "-",
		    K(P95), r.wakes ? p95 : "-", K(MAX), r.wakes ? max : "-");
#undef K
		if (n > 0 && (size_t)n < sizeof buf)
			frames_body_append(bp, buf, (size_t)n);
	}
}

/*
 * Append every shadow's lines, then the tally lines of every policy
 * shown, the enforced one's first; none when there are no shadows or
 * the past is shown.
 */
static void
frames_body_shadows(struct frames *f, struct frames_body **bp)
{
	struct session		*s = live_session(f->live);
	const struct engine	*sh;
	struct tally		*y;
	int			 i, n;

	for (i = 0; (sh = session_shadow_at(s, i)) != NULL; i++)
		frames_body_shadow(bp, sh);
	if (i == 0)
		return;
	n = engine_ntasks(session_live_engine(s));
	if ((y = session_tally(s, 0)) != NULL)
		frames_body_tally(bp, y, engine_get_policy(
		    session_live_engine(s))->name, n);
	for (i = 0; (sh = session_shadow_at(s, i)) != NULL; i++) {
		if ((y = session_tally(s, i + 1)) != NULL)
			frames_body_tally(bp, y, engine_get_policy(sh)->name,
			    n);
	}
}

/* whys_lines' output: append to the body being built. */
static void
frames_why_out(void *arg, const char *p, size_t len)
{
	frames_body_append(arg, p, len);
}

/*
 * Append each CPU's why line (SPEC.md section 10) newer than gen from
 * (0: every one kept), the enforced engine's, then each shadow's; none
 * while the past is shown (they are the present's).
 */
static void
frames_body_whys(struct frames *f, struct frames_body **bp, uint64_t from)
{
	struct session		*s = live_session(f->live);
	const struct engine	*sh;
	int			 i;

	if (session_viewing(s))
		return;
	whys_lines(live_whys(f->live), 0, from, NULL, frames_why_out, bp);
	for (i = 0; (sh = session_shadow_at(s, i)) != NULL; i++)
		whys_lines(live_whys(f->live), i + 1, from,
		    engine_get_policy(sh)->name, frames_why_out, bp);
}

/*
 * Bring every task's line up to date with the daemon, once per change
 * (d->gen), however many subscribers there are.  Only the tasks the
 * engine's log of changes names since the last update are looked at
 * (engine_changes), the ones the CPUs run and the real ones: a frame
 * costs what changed, not a pass over 20 000 tasks.  Another engine (a
 * load, a seek), a log started again or a policy that cannot say (cfs)
 * looks at every task.
 */
static void
frames_lines(struct frames *f)
{
	const struct engine	*e = live_engine(f->live);
	const int		*ids;
	size_t			 nlog, i;
	uint64_t		 epoch;
	struct engine_cpu_info	 ci;
	int			 id, n, all, nreals, was, c;

	/* Every task was added at a gen > 0: at gen 0 there are none. */
	if (f->lines_gen == frames_gen(f))
		return;
	n = engine_ntasks(e);
	epoch = engine_changes(e, &ids, &nlog);
	all = epoch == 0 || e != f->lines_engine ||
	    epoch != f->lines_epoch || nlog < f->lines_cursor ||
	    n < f->nlines;
	if (n > f->nlines) {
		f->lines = xrecallocarray(f->lines, f->nlines, n,
		    sizeof *f->lines);
		f->nlines = n;
	}
	if (all) {
		f->nreals = 0;
		for (id = 1; id <= f->nlines; id++) {
			if (frames_line_update(f, id, n))
				frames_real_add(f, id);
		}
	} else {
		nreals = f->nreals;
		for (i = 0; i < (size_t)nreals; i++)
			frames_line_update(f, f->reals[i], n);
		/* What the CPUs run: ticks change it without logging. */
		for (c = 0; c < engine_params(e)->cpus; c++) {
			engine_cpu_info(e, c, &ci);
			if (ci.task > 0 && ci.task <= n)
				frames_line_update(f, ci.task, n);
		}
		for (i = f->lines_cursor; i < nlog; i++) {
			was = f->lines[ids[i] - 1].valid;
			if (frames_line_update(f, ids[i], n) && !was)
				frames_real_add(f, ids[i]);
		}
	}
	f->lines_engine = e;
	f->lines_epoch = epoch;
	f->lines_cursor = nlog;
	f->lines_gen = frames_gen(f);
}

/*
 * The cpu and task lines of a full frame for the daemon's current state,
 * built once per change however many subscribers there are, and queued
 * to each by reference when large.
 */
struct frames_body *
frames_full(struct frames *f)
{
	struct frames_line	*l;
	int			 id;

	frames_lines(f);
	if (f->body != NULL && f->body_gen == frames_gen(f))
		return (f->body);
	frames_body_begin(&f->body);
	frames_body_cpus(f, &f->body);
	for (id = 1; id <= f->nlines; id++) {
		l = &f->lines[id - 1];
		if (l->valid)
			frames_body_append(&f->body, l->text, l->len);
	}
	frames_body_shadows(f, &f->body);
	frames_body_whys(f, &f->body, 0);
	f->body_gen = frames_gen(f);
	return (f->body);
}

/* Order ids, for qsort. */
static int
frames_cmp_id(const void *a, const void *b)
{
	int	x = *(const int *)a, y = *(const int *)b;

	return ((x > y) - (x < y));
}

/*
 * The ids of the lines changed after gen from, in id order, each once,
 * from the log of changes (the newest entries: a binary search finds
 * the first after from); -1 if the log does not go back that far.
 */
static int
frames_changed_since(struct frames *f, uint64_t from, size_t *np)
{
	size_t	lo = 0, hi = f->nchlog, mid, i, n = 0;

	if (from < f->chlog_floor)
		return (-1);
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (f->chlog[mid].gen <= from)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (f->nchlog - lo > f->alloc_delta_ids) {
		f->alloc_delta_ids = f->nchlog - lo;
		f->delta_ids = xreallocarray(f->delta_ids,
		    f->alloc_delta_ids, sizeof *f->delta_ids);
	}
	for (i = lo; i < f->nchlog; i++)
		f->delta_ids[n++] = f->chlog[i].id;
	if (n > 1)
		qsort(f->delta_ids, n, sizeof *f->delta_ids,
		    frames_cmp_id);
	for (i = lo = 0; i < n; i++) {
		if (lo > 0 && f->delta_ids[lo - 1] == f->delta_ids[i])
			continue;
		f->delta_ids[lo++] = f->delta_ids[i];
	}
	*np = lo;
	return (0);
}

/* Append task id's line, or that it is gone, to a delta body. */
static void
frames_delta_line(struct frames *f, int id)
{
	struct frames_line	*l = &f->lines[id - 1];
	char			 buf[64];
	int			 n;

	if (l->valid)
		frames_body_append(&f->delta, l->text, l->len);
	else {
		n = snprintf(buf, sizeof buf, "%s %s=%d\n", wire_gone.word,
		    wire_key(&wire_gone, WIRE_GONE_ID), id);
		frames_body_append(&f->delta, buf, (size_t)n);
	}
}

/*
 * The body of a delta frame for a client whose last frame was at gen
 * from: the cpu lines, then the task lines changed since, and "gone id=N"
 * for tasks that went, in id order.  Subscribers that got the same last
 * frame (the usual case: one rate) share it; it is built when asked
 * for, so a frame that is dropped costs nothing but the gen check.  The
 * changed lines come from the log of changes (what changed, not every
 * line); a client further behind than the log gets a pass over the
 * lines' gens.
 */
struct frames_body *
frames_delta(struct frames *f, uint64_t from)
{
	size_t			 n, i;
	int			 id;

	frames_lines(f);
	if (f->delta != NULL && f->delta_gen == frames_gen(f) &&
	    f->delta_from == from)
		return (f->delta);
	frames_body_begin(&f->delta);
	frames_body_cpus(f, &f->delta);
	if (frames_changed_since(f, from, &n) == 0) {
		for (i = 0; i < n; i++) {
			id = f->delta_ids[i];
			if (f->lines[id - 1].changed > from)
				frames_delta_line(f, id);
		}
	} else {
		for (id = 1; id <= f->nlines; id++) {
			if (f->lines[id - 1].changed > from)
				frames_delta_line(f, id);
		}
	}
	frames_body_shadows(f, &f->delta);
	frames_body_whys(f, &f->delta, from);
	f->delta_gen = frames_gen(f);
	f->delta_from = from;
	return (f->delta);
}
