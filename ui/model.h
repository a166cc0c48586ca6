/*
 * model.h -- the client's copy of the daemon's state (model.c and the
 * model-*.c files that read the protocol into it): what the last frame
 * showed, the replies kept, and what is asked of it.  model-int.h is
 * what its files share besides.  No I/O and no ncurses.
 */
#ifndef STAIRS_UI_MODEL_H
#define STAIRS_UI_MODEL_H

#include <stddef.h>

#define MODEL_NAME_MAX	32	/* task names: 1-31 chars + NUL */
#define MODEL_TEXT_MAX	256	/* captions, events, messages */
#define MODEL_CHOICES_MAX	9	/* an ask's choices at most */
#define MODEL_WHY_LOG_SPEED	0.2	/* whys logged at or below it */
#define MODEL_HIST	8	/* %cpu samples kept per task */
#define MODEL_HIST_GAP	500	/* ticks between %cpu samples */
#define MODEL_EVENTS	4	/* recent events kept */
#define MODEL_PENDING	64	/* commands awaiting a reply */
#define MODEL_BOTTOM	139	/* the protocol's rank scale ends (100..139) */
#define MODEL_WORD_MAX	64	/* a scenario's name */
#define MODEL_DESC_MAX	1024	/* a scenario's description */
#define MODEL_LOG	256	/* events kept for the event log pane */
#define MODEL_RUNS_TICKS 20000	/* ticks of runs kept per CPU */
#define MODEL_RUNS_CAP	16384	/* runs kept per CPU */
#define MODEL_SHADOWS	3	/* compare a,b,c: shadows at most */
#define MODEL_ORDER	64	/* a cpu line's order= ids kept (rr) */

struct runs;

enum mtask_state {
	MTASK_SLEEPING,
	MTASK_RUNNABLE,
	MTASK_RUNNING,
	MTASK_EXITED
};

/*
 * A policy's own quantities of a task (SPEC.md section 10), as the
 * task lines carry them after bottom= (docs/PROTOCOL.md, "The task
 * line"): what its picture is drawn with.  The client does no sums
 * with them: it places, labels and compares what it is given.
 */
enum mq {
	MQ_DESCENT,		/* staircase: descents begun */
	MQ_ARRAY,		/* o1: 0 active, 1 expired */
	MQ_BONUS,		/* o1: -5..+5 */
	MQ_SLEEP_AVG,		/* o1: ms */
	MQ_VRUNTIME,		/* cfs: less min_vruntime; eevdf: less V (us) */
	MQ_SLICE_US,		/* cfs */
	MQ_LEFT_US,		/* cfs */
	MQ_LAG,			/* eevdf: us of CPU time */
	MQ_DEADLINE,		/* eevdf: less V (us) */
	MQ_ELIGIBLE,		/* eevdf: 0/1 */
	MQ_WEIGHT,		/* cfs, eevdf: load weight, nice 0 = 1024 */
	MQ_MAX
};

/* The same for a CPU's runqueue (the cpu line's rq fields). */
enum mcq {
	MCQ_EXPIRED_MS,		/* o1: the expired array's age */
	MCQ_STARVE_MS,		/* o1: the age it starves at */
	MCQ_BEST_EXPIRED,	/* o1: 140 none */
	MCQ_NR_ACTIVE,
	MCQ_NR_EXPIRED,
	MCQ_MIN_VRUNTIME,	/* cfs: us; eevdf: less V */
	MCQ_NEXT,		/* cfs, eevdf: the task next; 0 none */
	MCQ_PERIOD,		/* cfs: us */
	MCQ_V,			/* eevdf: us */
	MCQ_MAX
};

/* What a task got under one policy (a tally line); valid 0: none came. */
struct mtally {
	int		 valid;
	long		 ticks;
	int		 share10;	/* share x 10 */
	long		 ran, runs;
	long		 p50, p95, max;	/* -1: it never woke */
};

/* Why a CPU runs what it runs (a why or swhy line); tick -1: none. */
struct mwhy {
	long		 tick;
	int		 task;
	char		 text[MODEL_TEXT_MAX];
};

/* A frame's ask= (SPEC.md section 12): the room's question, if any. */
enum model_ask {
	MODEL_ASK_NONE,		/* - or none */
	MODEL_ASK_OPEN,		/* answers taken */
	MODEL_ASK_REVEALED	/* its answer up, beside the votes */
};

/* One task as the last frame showed it. */
struct mtask {
	int		 id;
	char		 name[MODEL_NAME_MAX];
	int		 real;		/* kind=real */
	int		 pid;		/* -1 for sim tasks */
	int		 nice;
	int		 cpu;		/* -1: no CPU yet */
	int		 rank;
	int		 iter;
	int		 left;
	/*
	 * The policy's say (slice=, top=, bottom=): the ticks of the turn
	 * left counts down from, and the ranks the task can take.  A
	 * daemon that does not say: the slice is left, the ranks the rank.
	 */
	int		 slice;
	int		 top, bottom;
	enum mtask_state state;
	long		 ran;		/* ms */
	long		 cputime;	/* ms, -1 for sim tasks */
	/* ms the kernel ran it unpicked (stolen=): -1 "-", -2 none (sim). */
	long		 stolen;
	char		 cpus[64];	/* allowed set, as sent */
	char		 group[MODEL_NAME_MAX];
	char		 exit[64];
	/* The policy's quantities: q[k] valid when qhas has 1 << k. */
	long		 q[MQ_MAX];
	unsigned	 qhas;
	struct mtally	 tally;	/* under this model's policy */

	/*
	 * For %cpu (model_pct): ran at the model's samples, sample q in
	 * hran[q % MODEL_HIST], up to sample hseq (after it, the task's
	 * ran did not change: it is ran).  Samples before bseq are not
	 * its; the frame that first showed it was at btick with bran.
	 * hepoch: the model's history it belongs to (another: none).
	 * Only a task whose line came is touched, so a delta frame costs
	 * its lines, not a pass over every task.
	 */
	long		 hran[MODEL_HIST];
	long		 hseq, bseq;
	long		 btick, bran;
	long		 hepoch;
};

/* One engine CPU as the last frame showed it. */
struct mcpu {
	int		 id;
	int		 task;		/* id that ran last tick, 0 idle */
	int		 nr;
	int		 rank;		/* -1 when idle */
	int		 iter;
	int		 left;
	/* The policy's quantities of its runqueue, as a task's. */
	long		 q[MCQ_MAX];
	unsigned	 qhas;
	int		 order[MODEL_ORDER];	/* rr: the FIFO from its head */
	int		 norder;		/* -1: no order= came */
};

/* The article's table for one task (the `table` command). */
struct mtable {
	int		 valid;
	int		 task;
	char		 name[MODEL_NAME_MAX];
	int		 base;		/* static rank */
	int		 stairs;	/* L: columns */
	int		 rr;
	int		 nrows;
	int		*iters;		/* descent number per row */
	long		*ticks;		/* nrows x stairs */
	int		 descent;	/* the task's now (descent=); 0: unsaid */
};

/* One scenario of the `scenarios` reply. */
struct mscenario {
	char		 name[MODEL_WORD_MAX];
	char		 file[256];	/* "builtin" or its path */
	int		 cpus;
	int		 tasks;
	int		 real;		/* has real tasks */
	char		 text[MODEL_DESC_MAX];	/* its description */
};

/* One `mark` event of the scenario (the `marks` reply). */
struct mmark {
	long		 tick;
	char		 text[MODEL_TEXT_MAX];
};

/* One event of the log, with the tick it took effect. */
struct mevent {
	long		 tick;
	char		 text[MODEL_TEXT_MAX];
};

/* What a command sent to the daemon was, so its reply can be read. */
enum model_pend {
	PEND_STATUS,
	PEND_SUBSCRIBE,
	PEND_TABLE,
	PEND_SCENARIOS,		/* the list for the picker */
	PEND_MARKS,		/* the scenario's marks, for rewind */
	PEND_READONLY,		/* -r: the server is told, too */
	PEND_ACTION,		/* sleep, nice, ...: show the outcome */
	PEND_STEP_EVENT,	/* E: the event it stopped at shows it */
	PEND_CLOCK,		/* pause, resume: as an action, and the
				   next frame says what the clock does */
	PEND_VIEW,		/* the presenter's view: quiet */
	PEND_SHUTDOWN
};

/* What one line fed to the model turned out to be. */
enum model_got {
	MODEL_NOTHING,		/* consumed: part of a frame or of a reply */
	MODEL_GREETING,
	MODEL_FRAME,		/* a frame just ended: redraw */
	MODEL_REPLY,		/* a final line: see reply_* */
	MODEL_BAD		/* malformed: see bad */
};

struct model {
	int		 greeted;
	int		 proto;
	char		 version[32];

	long		 tick;
	int		 paused;
	double		 speed;
	int		 rr;
	long		 dropped;
	int		 sleep_ms;	/* the daemon's default sleep */
	long		 frames;	/* frames received */
	long		 deltas;	/* of them, delta frames */
	int		 desync;	/* a delta left ntasks != tasks=N */

	/*
	 * The session (protocol 2): the scenario's name, the present tick
	 * (tick is the one shown: less while viewing the past, live 0),
	 * the live tasks (-1: not said).  sessions counts the new sessions
	 * seen (a load or reset: another scenario, or the present going
	 * back), so the client can start its view and marks again.
	 */
	char		 scenario[MODEL_WORD_MAX];
	char		 description[MODEL_DESC_MAX];	/* status's text= */
	char		 described[MODEL_WORD_MAX];	/* of this scenario */
	int		 live;
	long		 now;
	int		 alive;
	long		 sessions;

	/* The last `scenarios` and `marks` replies (valid: one came). */
	struct mscenario *scenarios;
	int		 nscenarios;
	int		 alloc_scenarios;
	int		 scenarios_valid;
	struct mmark	*marks;
	int		 nmarks;
	int		 alloc_marks;

	struct mcpu	*cpus;
	int		 ncpus;
	struct mtask	*tasks;		/* sorted by id */
	int		 ntasks;
	/*
	 * %cpu samples: one at a frame MODEL_HIST_GAP ticks or more after
	 * the last, sample q's tick in stick[q % MODEL_HIST]; nsamp taken.
	 * hepoch counts the times time went back (all samples dropped).
	 */
	long		 stick[MODEL_HIST];
	long		 nsamp;
	long		 hepoch;
	int		 sampled;	/* the last frame took a sample */
	/*
	 * The names of the tasks not exited, sorted (they point into
	 * tasks): made again only when a frame changed that set, so a
	 * delta frame that moves tasks does not sort 20 000 names.
	 */
	const char	**names;
	int		 nnames;
	int		 names_dirty;

	/*
	 * The policies (SPEC.md sections 6 and 10): the enforced engine's
	 * (policy=) and its picture (picture=), and the shadows' of
	 * `compare a,b,c` (shadow=; nshadows 0 when the last frame had
	 * none).  Each shadow is a model of its own, of the frame's scpu
	 * and stask lines: its tasks, CPUs, tick, tallies and why lines;
	 * nothing else of it is used.  shadow is shadows[0] (or NULL).
	 */
	char		 policy[MODEL_WORD_MAX];
	char		 picture[MODEL_WORD_MAX];
	char		 shadow_policy[MODEL_WORD_MAX];	/* "a,b,c" */
	struct model	*shadow;
	struct model	*shadows[MODEL_SHADOWS];
	int		 nshadows;

	/*
	 * Each CPU's last why (why[c] for CPU c, nwhy of them): kept from
	 * frame to frame, as a delta frame sends only the new ones.
	 */
	struct mwhy	*why;
	int		 nwhy;

	char		 caption[MODEL_TEXT_MAX];
	/*
	 * The room's question (SPEC.md section 12): the frame's ask=
	 * (open: answers taken; revealed: the answer up, beside the
	 * votes); its choices' texts and the votes for each, 1-based.
	 */
	enum model_ask	 ask;
	int		 nchoices;
	char		 choices[MODEL_CHOICES_MAX + 1][MODEL_WORD_MAX];
	int		 votes[MODEL_CHOICES_MAX + 1];
	/*
	 * The last question revealed, kept while its answer is up (the
	 * daemon says revealed only until the next lesson event).
	 */
	int		 part, parts;	/* a recording played: part N of M;
					   parts 0: not a recording */
	int		 stage_part, stage_parts;
	int		 rnchoices;
	char		 rchoices[MODEL_CHOICES_MAX + 1][MODEL_WORD_MAX];
	int		 rvotes[MODEL_CHOICES_MAX + 1];
	char		 events[MODEL_EVENTS][MODEL_TEXT_MAX];
	int		 nevents;	/* total seen; newest at (n-1)%N */

	struct mtable	 table;

	/* The last reply. */
	enum model_pend	 reply_kind;
	int		 reply_ok;
	char		 reply_text[MODEL_TEXT_MAX];	/* after ok/err */
	char		 reply_what[MODEL_TEXT_MAX];	/* the command */

	/* The last malformed line. */
	long		 nbad;
	long		 nunknown;	/* a newer daemon's lines, ignored */
	char		 bad[MODEL_TEXT_MAX];

	/* Private: the frame or reply being read, and pending commands. */
	int		 in_frame;
	struct mcpu	*ncpu_stage;
	int		 nncpu_stage;
	struct mtask	*task_stage;
	int		 ntask_stage;
	int		 alloc_cpu_stage;
	int		 alloc_task_stage;
	int		 alloc_cpus;
	int		 alloc_tasks;
	long		 stage_tick;
	int		 stage_paused;
	double		 stage_speed;
	int		 stage_rr;
	long		 stage_dropped;
	int		 stage_delta;	/* delta=1: changes only */
	int		 stage_ntasks;	/* tasks=N, -1 if not given */
	int		*gone_stage;	/* gone id=N lines */
	int		 ngone_stage;
	int		 alloc_gone_stage;
	char		 stage_caption[MODEL_TEXT_MAX];
	enum model_ask	 stage_ask;
	int		 stage_nchoices;
	char		 stage_choices[MODEL_CHOICES_MAX + 1][MODEL_WORD_MAX];
	int		 stage_votes[MODEL_CHOICES_MAX + 1];
	char		 stage_scenario[MODEL_WORD_MAX];
	int		 stage_live;
	long		 stage_now;	/* -1: not said, the tick */
	int		 stage_alive;
	int		 stage_session;	/* the frame starts a new session */
	char		 stage_policy[MODEL_WORD_MAX];
	char		 stage_shadow[MODEL_WORD_MAX];	/* "": none */
	char		 stage_picture[MODEL_WORD_MAX];
	char		 stage_shadows[MODEL_SHADOWS][MODEL_WORD_MAX];
	int		 nstage_shadows;
	int		 stage_sh;	/* the shadow scpu/stask lines go to */
	int		 stage_sh_task;	/* its stask lines began */
	/* tally, why and swhy lines, applied when the frame ends */
	struct mstage_tally {
		int		 who;	/* 0 this model, i + 1 shadow i */
		int		 id;
		struct mtally	 t;
	}		*tally_stage;
	int		 ntally_stage, alloc_tally_stage;
	int		 tally_who, tally_last;
	struct mstage_why {
		int		 who;
		int		 cpu;
		struct mwhy	 w;
	}		*why_stage;
	int		 nwhy_stage, alloc_why_stage;
	struct mtable	 table_stage;
	struct mscenario *scen_stage;
	int		 nscen_stage;
	int		 alloc_scen_stage;
	struct mmark	*mark_stage;
	int		 nmark_stage;
	int		 alloc_mark_stage;
	struct {
		enum model_pend	 kind;
		char		 what[MODEL_TEXT_MAX];
	}		 pending[MODEL_PENDING];
	int		 npending;
	int		 pending_head;

	/*
	 * History (model-history.c): what each CPU ran, tick by tick,
	 * from the frames' runs lines (NULL before one came); what the
	 * kernel ran there, from the kruns lines (ids, 0 idle, RUNS_OTHER,
	 * RUNS_UNKNOWN; NULL before one came, dropped when the runs start
	 * again); the last MODEL_LOG events with their ticks, nlog
	 * counting every one seen.
	 */
	struct runs	*runs;
	struct runs	*kruns;
	struct mevent	*log;
	long		 nlog;

	/* The presenter's view (a frame's view line) and its seq; 0: none. */
	char		 view_pairs[512];
	long		 view_seq;
};

/* model.c */
struct model	*model_create(void);
void		 model_free(struct model *);
void		 model_table_clear(struct mtable *);
int		 model_sent(struct model *, enum model_pend, const char *what);
int		 model_pending(const struct model *, enum model_pend);
const struct mtask *model_task(const struct model *, int id);
int		 model_task_index(const struct model *, int id);
const char	*model_state_name(enum mtask_state);
const char	*model_last_event(const struct model *);
const struct mscenario *model_scenario(const struct model *, const char *);
int		 model_has_real(const struct model *);
int		 model_asking(const struct model *);
const char	*model_description(const struct model *);

/* model-feed.c */
enum model_got	 model_feed(struct model *, const char *line);

const char	*model_picture_of(const char *policy);
const struct mwhy *model_why(const struct model *, int cpu);
int		 model_q(const struct mtask *, enum mq, long *);
int		 model_cq(const struct mcpu *, enum mcq, long *);

/* model-pct.c */
int		 model_pct(const struct model *, const struct mtask *);

#endif
