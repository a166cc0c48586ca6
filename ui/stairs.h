/*
 * stairs.h -- the client's internal header: the model of the daemon's
 * state (model*.c), the cell grid (grid.c), the screen's layout (draw.c)
 * and its panes (bar.c, panel*.c, tasktab.c, article.c, help.c), the key
 * table (keys.c) and its actions (keys-*.c), reaching the daemon
 * (attach.c) and the terminal (crt.c).
 * One block of prototypes per file, as tmux does.
 */
#ifndef STAIRS_UI_H
#define STAIRS_UI_H

#include <stddef.h>
#include <wchar.h>

#define MODEL_NAME_MAX	32	/* task names: 1-31 chars + NUL */
#define MODEL_TEXT_MAX	256	/* captions, events, messages */
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

struct runs;

enum mtask_state {
	MTASK_SLEEPING,
	MTASK_RUNNABLE,
	MTASK_RUNNING,
	MTASK_EXITED
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
	 * The policies (SPEC.md section 6): the enforced engine's
	 * (policy=), and the shadow's of `compare NAME` (shadow=; "" and
	 * shadow NULL when the last frame had none).  The shadow is a model
	 * of its own, of the frame's scpu and stask lines: its tasks, CPUs,
	 * tick; nothing else of it is used.
	 */
	char		 policy[MODEL_WORD_MAX];
	char		 shadow_policy[MODEL_WORD_MAX];
	struct model	*shadow;

	char		 caption[MODEL_TEXT_MAX];
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
	char		 stage_scenario[MODEL_WORD_MAX];
	int		 stage_live;
	long		 stage_now;	/* -1: not said, the tick */
	int		 stage_alive;
	int		 stage_session;	/* the frame starts a new session */
	char		 stage_policy[MODEL_WORD_MAX];
	char		 stage_shadow[MODEL_WORD_MAX];	/* "": none */
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
	 * History (history.c): what each CPU ran, tick by tick, from the
	 * frames' runs lines (NULL before one came); what the kernel ran
	 * there, from the kruns lines (ids, 0 idle, RUNS_OTHER,
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

struct proto_fields;
struct wire_line;

/* A kind of data line the model reads (model_read). */
struct model_kind {
	const struct wire_line	*line;		/* its keyword, fields */
	int			(*read)(struct model *, struct proto_fields *);
	const char		*bad;		/* when read says -1 */
};

/* model.c */
struct model	*model_create(void);
void		 model_free(struct model *);
void		 model_table_clear(struct mtable *);
enum model_got	 model_bad(struct model *, const char *line, const char *why);
void		*model_append(void *, int *n, int *alloc, const void *,
		     size_t);
int		 model_read(struct model *, const struct model_kind *, size_t,
		     struct proto_fields *, const char *line);
int		 model_sent(struct model *, enum model_pend, const char *what);
int		 model_pending(const struct model *, enum model_pend);
const struct mtask *model_task(const struct model *, int id);
int		 model_task_index(const struct model *, int id);
const char	*model_state_name(enum mtask_state);
const char	*model_last_event(const struct model *);
const struct mscenario *model_scenario(const struct model *, const char *);
int		 model_has_real(const struct model *);
const char	*model_description(const struct model *);

/* model-parse.c */
int		 model_parse_unknown(struct model *,
		     const struct proto_fields *);
int		 model_parse_num(const char *, long *, long dash);
int		 model_parse_int(struct proto_fields *, const char *key, int *,
		     int required, int dash);
int		 model_parse_long(struct proto_fields *, const char *key,
		     long *, int required);
int		 model_parse_header(struct proto_fields *, long *tick,
		     int *paused, double *speed, int *rr, int *sleep_ms);
int		 model_parse_session(struct proto_fields *, int *live,
		     long *now, int *alive, char *scenario, size_t);
int		 model_parse_cpu(struct proto_fields *, struct mcpu *);
int		 model_parse_copy(char *, size_t, const char *);
int		 model_parse_task(const struct proto_fields *, struct mtask *);
void		 model_parse_text(char *, size_t, const char *);

/* model-pct.c */
void		 model_pct_sample(struct model *, long tick);
void		 model_pct_carry(struct model *, struct mtask *,
		     const struct mtask *old, long tick);
int		 model_pct(const struct model *, const struct mtask *);

/* model-frame.c */
enum model_got	 model_frame_start(struct model *, struct proto_fields *,
		     const char *line);
enum model_got	 model_frame_line(struct model *, struct proto_fields *,
		     const char *line);

/* model-history.c */
enum model_got	 model_history_runs(struct model *, int kernel,
		     const char *cpu, const char *from, const char *items,
		     int ncpus);
void		 model_history_event(struct model *, long tick, const char *);

/* model-reply.c */
enum model_got	 model_reply_line(struct model *, struct proto_fields *,
		     const char *line);

/* model-feed.c */
enum model_got	 model_feed(struct model *, const char *line);

/* Colours, named for what they show.  crt.c maps them to attributes. */
enum col {
	COL_DEFAULT,
	COL_BORDER,
	COL_TITLE,		/* a CPU panel's title */
	COL_RANK,		/* rank numbers */
	COL_STAIR,
	COL_SKIP,		/* the mark for skipped ranks */
	COL_RUNNING,		/* the task on the CPU */
	COL_GAUGE,		/* the filled part of the `left` gauge */
	COL_GAUGE_EMPTY,
	COL_QUEUED,		/* runnable, waiting on its stair */
	COL_SLEEPING,
	COL_EXITED,
	COL_SELECTED,		/* the selected task's table row */
	COL_MARK,		/* the selected task on the stairs */
	COL_HEADER,		/* table headings */
	COL_STATUS,		/* the status line */
	COL_PAUSED,
	COL_READONLY,
	COL_CAPTION,
	COL_ERROR,
	COL_KEYS,		/* the key hints */
	COL_CELL,		/* article table cells */
	COL_PROMPT,
	COL_HELP,
	COL_KERN_OTHER,		/* the kernel ran another process (kern row) */
	COL_KERN_DIFF,		/* the kernel ran other than the engine */
	COL_MAX
};

/* The colour themes (theme.c): chosen by --theme and the T key. */
enum theme {
	THEME_DARK,		/* for a dark terminal: the default */
	THEME_LIGHT,		/* for a light terminal */
	THEME_PROJECTOR,	/* high contrast, thick stairs */
	THEME_MAX
};

#define LOOK_BOLD	0x1
#define LOOK_REVERSE	0x2
#define LOOK_UNDERLINE	0x4
#define LOOK_DIM	0x8

/* How a colour looks: colours 0-15 (-1 the terminal's), LOOK_* flags. */
struct look {
	short		 fg;
	short		 bg;
	int		 attr;
};

/* One cell: a character (0 continues a wide one) and what it shows. */
struct cell {
	wchar_t		 ch;
	unsigned char	 col;
};

struct grid {
	int		 w;
	int		 h;
	int		 ascii;		/* text drawn in plain ASCII */
	struct cell	*cells;
	int		*tags;		/* a click on the cell: 0, task, key */
};

/* A cell's tag: a task's id (> 0), or a key (< 0, GRID_KEY(key)). */
#define GRID_TASK(id)	(id)
#define GRID_KEY(key)	(-(key))

/* The characters a screen is drawn with: UTF-8 or plain ASCII. */
struct glyphs {
	wchar_t		 h, v, tl, tr, bl, br;
	wchar_t		 stair, full, empty, skip, sel, quote, times, vbar;
	wchar_t		 riser;		/* big type: a step's rise */
};

/* Big type (the B key): chosen from the screen, always, or never. */
enum view_big {
	BIG_AUTO,		/* one or two CPUs with room to spare */
	BIG_ON,
	BIG_OFF,
	BIG_MAX
};

/* How the CPUs are shown (the `v` key). */
enum view_cpus {
	VIEW_AUTO,		/* panels up to PANEL_MAX_CPUS, else a list */
	VIEW_PANELS,
	VIEW_LIST
};

/*
 * The caption line's hold (caption.c): the caption shown, since when
 * (ms), and those waiting to go up in turn.
 */
#define CAPTION_HOLD_MS		4000	/* a caption stays up at least */
#define CAPTION_ANSWER_MS	8000	/* an answer: or until a key */
#define CAPTION_QUEUE		3	/* waiting; past it, skip to newest */
struct caption_item {
	char		 text[MODEL_TEXT_MAX];
	int		 answer;
	int		 skipped;	/* captions skipped to reach it */
};
struct captions {
	int			 fed;		/* 0: show the frame's */
	long			 sessions;	/* the model's, fed for */
	long			 seen;		/* the model's nlog read */
	char			 frame_seen[MODEL_TEXT_MAX];
	struct caption_item	 shown;		/* text "": none */
	long			 since;		/* when it went up */
	int			 released;	/* an answer: a key came */
	struct caption_item	 queue[CAPTION_QUEUE + 1];
	int			 nqueue;
};

/* What the user is looking at: selection, scrolling, prompt, messages. */
struct view {
	int		 selected;	/* task id, 0 none */
	int		 task_top;	/* first task row shown */
	int		 cpu_top;	/* first panel row (list line) shown */
	enum view_cpus	 cpu_view;
	/* The layout chosen last (panels a row, 0 the list) and for what. */
	int		 layout_cols;
	int		 layout_w, layout_h, layout_n;
	long		 layout_frames;	/* model frames when chosen */
	int		 layout_hidden, layout_cut;	/* as it was then */
	int		 show_table;	/* the article's table */
	int		 compare_off;	/* c: one policy's CPUs, not both */
	int		 show_help;
	int		 ascii;		/* no UTF-8: _ # . : */
	enum theme	 theme;		/* colours (crt.c), thick stairs */
	enum view_big	 big;		/* big type for one or two CPUs */
	int		 big_shown;	/* draw says: big type is on screen */
	int		 help_top;	/* the help's first line shown */
	int		 help_rows;	/* lines of it shown (draw sets it) */
	int		 readonly;
	int		 prompt;	/* a prompt is open (enum keys_prompt) */
	int		 prompt_task;	/* the task it is about */
	char		 prompt_label[64];
	char		 prompt_buf[128];
	int		 prompt_fresh;	/* still the default: typing replaces it */
	char		 message[MODEL_TEXT_MAX];	/* last key's outcome */

	/* The scenario picker (l): open, the row selected, the first shown. */
	int		 picker;
	int		 picker_sel;	/* -1: none yet (the list is coming) */
	int		 picker_top;
	int		 picker_rows;	/* rows of names shown (draw sets it) */

	/*
	 * The last seek sent, until a frame shows it: rewind keys pressed
	 * in quick succession count from it, as + and - do.
	 */
	int		 seeking;
	long		 seek_tick;
	long		 seek_frames;

	/* The session the view was made for (the model's sessions). */
	long		 sessions;
	char		 scenario[MODEL_WORD_MAX];

	/*
	 * The last nice sent, until a frame shows it: + and - pressed in
	 * quick succession count from it, not from a stale frame.
	 */
	int		 nice_task;	/* 0: none */
	int		 nice_value;
	long		 nice_frames;	/* model frames when it was sent */
	double		 speed_sent;	/* the same for speed (0: none) */
	long		 speed_frames;
	int		 pause_sent;	/* and pause/resume (-1: none) */
	long		 pause_frames;
	int		 message_error;
	int		 message_note;	/* said by a key, not a command's */
	long		 message_frames;	/* frames when it was new */
	char		 message_seen[MODEL_TEXT_MAX];

	/*
	 * Filled by draw_screen: where things landed, for the mouse (the
	 * grid's tags say what a click on a cell means).
	 */
	int		 task_y;	/* screen row of the first task row */
	int		 task_rows;	/* task rows shown */
	int		 cpus_y, cpus_rows;	/* the CPUs' rows */
	int		 events_y, events_rows;	/* the event log's (0: none) */
	int		 cpu_rows;	/* panel rows in all */
	int		 cpu_rows_shown;

	/* History panes (history.c): on or off, zoom, the log's scroll. */
	int		 show_timeline;
	int		 show_ranks;
	int		 show_events;
	int		 zoom;		/* ticks a timeline cell; 0: default */
	int		 events_back;	/* events scrolled back from the newest */
	/* The selected task's state at each frame, for the rank line. */
	struct {
		long	 tick;
		int	 task;
		int	 sleeping;
	}		 samples[512];
	int		 nsamples;	/* total; newest at (n-1) % 512 */
	int		 follow;	/* --follow: take the presenter's view */
	struct captions	 captions;	/* the caption line's hold */
};

/* Everything one draw of the screen needs; what the panes are given. */
struct draw {
	struct grid		*g;
	const struct model	*m;
	struct view		*v;
	const struct glyphs	*gl;
	char			 caption_buf[MODEL_TEXT_MAX + 64];
	int			 top_static;	/* best rank a live task may take */
	int			 bottom;	/* the worst (panel_ranks_span) */

	/*
	 * panel.c's index, made and freed by panel_draw.
	 * The tasks on the stairs by CPU: bycpu[cstart[c] .. cstart[c+1]).
	 */
	const struct mtask	**bycpu;
	int			 *cstart;
	/*
	 * One panel's tasks by rank: pl[rstart[r] .. rstart[r + 1]), the
	 * running one first, then the runnable, then the sleeping ones.
	 */
	const struct mtask	**pl;
	int			  rstart[MODEL_BOTTOM + 2];
	/* The live tasks' names, sorted: a shortened name must be unique. */
	const char		**names;
	size_t			  nnames;

	/* What a layout hid or cut, to choose the best (panel.c). */
	int			  st_hidden;	/* runnable tasks not written */
	int			  st_cut;	/* tasks not by their whole name */
	int			  st_skipped;	/* ranks not drawn */
	int			  st_step;	/* columns a stair steps, x100 */

	/* Big type (panel_big): rows a rank; 0 when off. */
	int			  tall;
};

/* grid.c */
void		 grid_init(struct grid *, int w, int h);
void		 grid_free(struct grid *);
const struct glyphs *grid_glyphs(int ascii, int thick);
char		 grid_col_letter(enum col);
void		 grid_put(struct grid *, int x, int y, wchar_t, enum col);
void		 grid_fill(struct grid *, int x, int y, int n, wchar_t,
		     enum col);
void		 grid_paint(struct grid *, int x, int y, int n, enum col);
void		 grid_tag(struct grid *, int x, int y, int n, int tag);
int		 grid_tag_at(const struct grid *, int x, int y);
int		 grid_text(struct grid *, int x, int y, int xmax, const char *,
		     enum col);
int		 grid_textf(struct grid *, int x, int y, int xmax, enum col,
		     const char *, ...) __attribute__((format(printf, 6, 7)));
int		 grid_width(const char *);
int		 grid_digits(int);
int		 grid_decode(const char *, wchar_t *, int max);
char		*grid_dump(const struct grid *, int with_colours);

/* theme.c */
const char	*theme_name(enum theme);
const char	*theme_what(enum theme);
int		 theme_find(const char *);
const struct look *theme_look(enum theme, enum col);
const struct look *theme_mono(enum col);
int		 theme_thick(enum theme);

/* draw.c */
void		 draw_screen(struct grid *, const struct model *, struct view *,
		     const char *const *help);
void		 draw_message(struct view *, int error, const char *, ...)
		     __attribute__((format(printf, 3, 4)));

/* bar.c */
size_t		 bar_wrap(const char *, int width);
void		 bar_status(struct draw *);
int		 bar_caption_lines(struct draw *);
void		 bar_caption(struct draw *, int y, int lines);
void		 bar_keys(struct draw *, int y);

/* panel.c */
#define PANEL_MAX_CPUS	8	/* beyond, the CPUs are a list unless asked */
#define PANEL_TINY	14	/* the narrowest panel */
void		 panel_index(struct draw *);
void		 panel_index_cpu(struct draw *, int cpu);
void		 panel_scroll(struct view *, int rows, int shown);
int		 panel_cols_default(const struct draw *, int avail);
int		 panel_layout(struct draw *, int y, int avail, int cols);

/* panel-ranks.c */
/* A rank row a panel shows, and what is on it. */
struct prow {
	int		 rank;
	int		 gap;		/* a skip mark line, not a rank */
	int		 skipped_after;	/* ranks skipped below this one */
};
int		 panel_ranks(struct draw *, int c0, int c1, int lines,
		     struct prow *, int *firstp);
void		 panel_ranks_span(struct draw *);

/* panel-line.c */
void		 panel_line(struct draw *, const struct mtask *const *, int n,
		     int more, int x, int y, int xmax, int tagrank);
int		 panel_line_label(const struct draw *, const struct mtask *,
		     int budget, char *, size_t, int *cut);

/* panel-big.c */
#define PANEL_BIG_TALL	3	/* big type: rows a rank at most */
int		 panel_big(const struct draw *, int avail);
void		 panel_big_banner(struct draw *, int cpu, int x0, int y0,
		     int x1, int y1);

/* panel-choose.c */
int		 panel_choose(struct draw *, int y, int avail);
int		 panel_choose_keep(struct draw *, int y, int avail, int *lines);
int		 panel_draw(struct draw *, int y, int avail);

/* compare.c */
int		 compare_min_lines(const struct draw *);
int		 compare_draw(struct draw *, int y, int avail);

/* cpulist.c */
int		 cpulist_draw(struct draw *, int y, int avail);

/* tasktab.c */
void		 tasktab_draw(struct draw *, int y, int h);

/* article.c */
int		 article_lines(struct draw *, int most);
int		 article_rows(const struct draw *);
void		 article_draw(struct draw *, int y, int h);

/* help.c */
void		 help_draw(struct draw *, const char *const *help);
#define HELP_LINES	160	/* lines the help can have */

/* history.c */
#define HISTORY_ZOOM	20	/* ticks a timeline cell by default */
void		 history_sample(const struct model *, struct view *);
int		 history_lines(struct draw *, int avail);
int		 history_draw(struct draw *, int y, int avail);

/* caption.c */
size_t		 caption_event(const char *text, int *answer);
int		 caption_frame(struct captions *, const struct model *,
		     long now_ms);
int		 caption_advance(struct captions *, long now_ms);
long		 caption_wait(const struct captions *, long now_ms);
int		 caption_key(struct captions *, long now_ms);
const char	*caption_text(const struct captions *, char *, size_t);

/* follow.c */
void		 follow_state(const struct view *, char *, size_t);
int		 follow_apply(struct view *, const char *pairs);

/* picker.c */
void		 picker_draw(struct draw *);

/* Reaction flags: what a key asks of the main loop. */
#define KEYS_HANDLED	0x1
#define KEYS_REDRAW	0x2
#define KEYS_QUIT	0x4	/* detach, leave the daemon running */
#define KEYS_SHUTDOWN	0x8	/* `shutdown` sent: quit on its reply */
#define KEYS_TABLE	0x10	/* selection changed: fetch its table */
#define KEYS_MARKS	0x20	/* a new session: fetch its marks */

#define KEYS_SECOND	1000	/* ticks the b and f keys move */

#define KEYS_FPS	30	/* frames a second the client asks for */
#define KEYS_WHEEL	3	/* rows (events, tasks) a wheel turn moves */

/* How keys.c talks to the daemon. */
struct keys_env {
	struct model	*model;
	struct view	*view;
	const struct grid *grid;	/* the screen drawn: what a click hits */
	const struct mtask *task;	/* the selected one, for KEYS_TASK */
	/* Send one command line (no newline); -1 if it could not be sent. */
	int		(*send)(void *, enum model_pend, const char *);
	void		*arg;
};

/* How the bottom line tells a key (keys_bar): its forms, widest first. */
enum keys_form {
	KEYS_BAR,		/* the bottom line: "s sleep" */
	KEYS_BRIEF,		/* its narrowest: "s/S sleep" */
	KEYS_PAST,		/* in the past: "←/→ a tick" */
	KEYS_PAST_BRIEF,	/* its narrowest: "←/→ tick" */
	KEYS_PAST_REAL,		/* in the past, with real tasks */
	KEYS_FORMS
};

/* The prompt line open (view.prompt). */
enum keys_prompt {
	PROMPT_NONE,
	PROMPT_SLEEP,
	PROMPT_AFFINITY,
	PROMPT_NEW,
	PROMPT_FIND,
	PROMPT_SPEED,
	PROMPT_COMPARE,		/* a policy to compare with */
	PROMPT_KILL,		/* y/N: kill prompt_task */
	PROMPT_SHUTDOWN		/* y/N: stop the daemon for everyone */
};

/* keys.c: the key table; the keys' actions are keys-*.c's */
#define KEYS_ALIASES	4	/* keys a row binds at most */
#define KEYS_CHANGES	0x1	/* changes the daemon: read-only refuses */
#define KEYS_REWIND	0x2	/* the help lists it under "Rewind" */
#define KEYS_TASK	0x4	/* acts on the selected task (e->task) */

/* What a row of the key table does: keys-handle.c runs it. */
enum keys_action {
	KEYS_DO_SELECT_KEY,
	KEYS_DO_SELECT_FIND,
	KEYS_DO_TASK_SLEEP,
	KEYS_DO_TASK_SLEEP_ASK,
	KEYS_DO_TASK_NICE,
	KEYS_DO_TASK_AFFINITY,
	KEYS_DO_TASK_KILL,
	KEYS_DO_TASK_NEW,
	KEYS_DO_CLOCK_PAUSE,
	KEYS_DO_CLOCK_STEP,
	KEYS_DO_CLOCK_SPEED,
	KEYS_DO_CLOCK_SPEED_ASK,
	KEYS_DO_CLOCK_SEEK,
	KEYS_DO_CLOCK_MARK,
	KEYS_DO_SESSION_PICKER,
	KEYS_DO_SESSION_RESET,
	KEYS_DO_SESSION_QUIT,
	KEYS_DO_SESSION_SHUTDOWN,
	KEYS_DO_VIEW_SCROLL,
	KEYS_DO_VIEW_CPUS,
	KEYS_DO_VIEW_ARTICLE,
	KEYS_DO_VIEW_HELP,
	KEYS_DO_VIEW_COMPARE,
	KEYS_DO_VIEW_HISTORY,
	KEYS_DO_VIEW_ZOOM,
	KEYS_DO_VIEW_EVENTS,
	KEYS_DO_VIEW_THEME,
	KEYS_DO_VIEW_BIG,
	KEYS_ACTIONS
};

/*
 * One row of the key table: the keys that do one thing and its action,
 * and how the bottom line, the help and stairs(1) tell them.
 */
struct keys_entry {
	int		 keys[KEYS_ALIASES];	/* 0 ends */
	int		 flags;
	enum keys_action action;	/* what they do (keys-handle.c) */
	const char	*help_keys;	/* the help's; NULL: the row above's */
	const char	*help;
	const char	*bar[KEYS_FORMS];	/* NULL: keys_bar's fallback */
	const char	*man;		/* stairs(1)'s text, in mdoc */
};

const struct keys_entry *keys_find(int key);
const char	*keys_bar(int key, enum keys_form);
const char *const *keys_help(void);
char		*keys_man(void);

/* keys-handle.c */
int		 keys_handle(struct keys_env *, int key);

/* keys-send.c */
int		 keys_send(struct keys_env *, enum model_pend, const char *what,
		     const char *cmd);
int		 keys_send_speed(struct keys_env *, double);
void		 keys_reply(struct model *, struct view *);
int		 keys_frame(struct model *, struct view *);

/* keys-select.c */
const struct mtask *keys_select_task(struct keys_env *);
int		 keys_select_list(int key, int *pos, int page, int last);
int		 keys_select_move(struct keys_env *, int n);
int		 keys_select_key(struct keys_env *, int);
int		 keys_select_find(struct keys_env *, int);
void		 keys_select_first(struct model *, struct view *);
int		 keys_select_id(struct keys_env *, int id);

/* keys-task.c */
int		 keys_task_sleep(struct keys_env *, int);
int		 keys_task_sleep_ask(struct keys_env *, int);
int		 keys_task_nice(struct keys_env *, int);
int		 keys_task_affinity(struct keys_env *, int);
int		 keys_task_kill(struct keys_env *, int);
int		 keys_task_new(struct keys_env *, int);

/* keys-view.c */
int		 keys_view_scroll(struct keys_env *, int);
void		 keys_view_events_by(struct view *, int n);
int		 keys_view_cpus(struct keys_env *, int);
int		 keys_view_compare(struct keys_env *, int);
int		 keys_view_article(struct keys_env *, int);
int		 keys_view_history(struct keys_env *, int);
int		 keys_view_theme(struct keys_env *, int);
int		 keys_view_big(struct keys_env *, int);
int		 keys_view_zoom(struct keys_env *, int);
int		 keys_view_events(struct keys_env *, int);
int		 keys_view_help(struct keys_env *, int);
int		 keys_view_help_key(struct view *, int key);

/* keys-clock.c */
int		 keys_clock_pause(struct keys_env *, int);
int		 keys_clock_seek(struct keys_env *, int);
int		 keys_clock_mark(struct keys_env *, int);
int		 keys_clock_step(struct keys_env *, int);
int		 keys_clock_speed_ask(struct keys_env *, int);
int		 keys_clock_speed(struct keys_env *, int);

/* keys-session.c */
int		 keys_session_picker(struct keys_env *, int);
void		 keys_scenarios(struct model *, struct view *);
int		 keys_session_picker_key(struct keys_env *, int);
int		 keys_session_reset(struct keys_env *, int);
int		 keys_session_quit(struct keys_env *, int);
int		 keys_session_shutdown(struct keys_env *, int);

/* keys-prompt.c */
int		 keys_prompt_open(struct keys_env *, int kind,
		     const char *label, const char *init);
int		 keys_prompt_key(struct keys_env *, int);

/* keys-mouse.c */
int		 keys_click(struct keys_env *, int x, int y);
int		 keys_wheel(struct keys_env *, int x, int y, int dir);

/* attach.c */
int		 attach_connect(const char *path, char **cause);
int		 attach_start(const char *path, char **cause);

/* crt.c */
#define CRT_NONE	(-1)	/* no key waiting */
#define CRT_CLICK	(-2)	/* a mouse click: see x, y */
#define CRT_WHEEL_UP	(-3)	/* the wheel turned, over x, y */
#define CRT_WHEEL_DOWN	(-4)
int		 crt_init(struct view *, char **cause);
void		 crt_fini(void);
int		 crt_active(void);
void		 crt_size(int *w, int *h);
void		 crt_resize(void);
int		 crt_getkey(int *x, int *y);
void		 crt_render(const struct grid *);
void		 crt_theme(enum theme);

#endif
