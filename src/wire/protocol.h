/*
 * protocol.h -- the stairs socket protocol's grammar (docs/PROTOCOL.md),
 * shared by the daemon and the client: its limits, words and numbers,
 * and the lines that need no engine to write (greeting, status, frame,
 * caption, event, scenario, runs).  The daemon's commands (daemon/
 * command.h) and its task and cpu lines (daemon/format.h) build on it.
 *
 * Pure: no I/O and no engine, so it can be unit-tested and fuzzed.  Bump PROTO_VERSION on an incompatible change.
 */
#ifndef STAIRS_PROTOCOL_H
#define STAIRS_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

struct wire_line;

#define PROTO_VERSION		2
#define PROTO_LINE_MAX		4096	/* bytes in a line, without the \n */
#define PROTO_TEXT_MAX		1024	/* caption and event text */
#define PROTO_MS_MAX		100000000ULL	/* sleep, runtime, pattern */
#define PROTO_STEP_MAX		1000000ULL
#define PROTO_STEP_EVENT	60000ULL	/* step event: ticks at most, default */
#define PROTO_FPS_DEFAULT	30
#define PROTO_FPS_MAX		120
#define PROTO_SPEED_MIN		0.01
#define PROTO_SPEED_MAX		100.0
#define PROTO_PATTERN_MAX	64	/* numbers in a pattern */
#define PROTO_ARGV_MAX		64	/* words after -- in spawn */
#define PROTO_VIEW_MAX		16	/* key=value pairs of a view */
#define PROTO_RANK_MAX		139	/* ranks are 0..139, the kernel's scale */

/* What the status line and a frame header say. */
struct proto_status {
	uint64_t	 tick;		/* the tick shown */
	uint64_t	 now;		/* the present tick */
	int		 live;		/* 1: tick is the present */
	int		 cpus;
	int		 tasks;		/* task lines: every id, exited too */
	int		 alive;		/* tasks not exited */
	int		 paused;
	double		 speed;
	int		 rr;
	const char	*cgroups;	/* "v1", "v2", "none" */
	const char	*observe;	/* "events", "proc"; NULL: "proc" */
	uint64_t	 lag;		/* ticks dropped by the clock */
	int		 clients;
	const char	*scenario;	/* its name, "-" if none */
	int		 sleep;		/* default injected sleep, ms */
	const char	*policy;	/* the engine's policy */
	const char	*compare;	/* the shadow's policy; NULL: off */
	int		 shadow;	/* frames carry the shadow's lines */
	const char	*record;	/* on, off, failed; NULL: off */
	const char	*ask;		/* open, revealed; NULL: none */
	const char	*votes;		/* "3,0,1", "-"; NULL: "-" */
	int		 part, parts;	/* a recording played; 0: none */
	const char	*description;	/* status: text=; NULL: none */
	const char	*picture;	/* the policy's; NULL: none said */
};

/*
 * The one tokenizer, for the daemon's commands, the client's data lines
 * and the journal (src/session/journal.c): a line is cut in place into
 * leading words (protocol_next), then key=value fields
 * (protocol_fields).  Loose by default, as a daemon or a person writes
 * lines; PROTO_STRICT as the journal must be: one space apart, every
 * field key=value once, values bare or quoted, a fault named.
 */
#define PROTO_FIELDS_MAX	32	/* fields a line keeps */
#define PROTO_STRICT		0x1	/* the journal's grammar */
#define PROTO_TEXT		0x2	/* text= runs to the end of the line */
#define PROTO_TABS		0x4	/* tabs are blanks too (commands) */

/* One field of a line: key=value, or a bare word (value NULL). */
struct proto_field {
	char		*key;
	char		*value;
};

/* A line's fields, as protocol_fields cut them. */
struct proto_fields {
	char			*word;		/* protocol_line: the keyword */
	int			 n;
	int			 dropped;	/* loose: past the most kept */
	struct proto_field	 f[PROTO_FIELDS_MAX];
	unsigned int		 used;		/* bit i: f[i] was got */
	char			*text;		/* PROTO_TEXT: after text= */
	/* PROTO_STRICT's fault: pre, then the word at quoted, then post. */
	const char		*pre, *at, *post;
};

char	*protocol_next(char **sp, int flags);
/* Split line (changed in place) into words at blanks; the count. */
int	protocol_split(char *line, char ***words);
int	protocol_fields(char *s, int flags, struct proto_fields *);
void	protocol_line(char *line, int flags, struct proto_fields *);
const char *protocol_get(struct proto_fields *, const char *key);
const char *protocol_unused(const struct proto_fields *);
char	*protocol_unquote(char **sp, const char **why);
int	protocol_parse_ms(const char *what, const char *s, uint64_t *,
	    char **cause);
int	protocol_parse_int(const char *what, const char *s, long min,
	    long max, long *, char **cause);
int	protocol_parse_speed(const char *s, double *, char **cause);
int	protocol_parse_pattern(const char *s, uint32_t **, size_t *,
	    char **cause);

/*
 * A bounded string being built.  Task lines are formatted for every
 * frame (30 a second, 1 000 tasks), so they are built with these plain
 * appends rather than snprintf, which costs several times more.
 */
struct protocol_out {
	char	*p;
	size_t	 len, size;	/* size > 0; len < size always */
};

void	protocol_out_str(struct protocol_out *, const char *);
void	protocol_out_text(struct protocol_out *, const char *);
void	protocol_out_num(struct protocol_out *, long long);
void	protocol_out_unum(struct protocol_out *, unsigned long long);
void	protocol_out_key(struct protocol_out *, const struct wire_line *, int);
/* A word for a line: blanks and odd bytes as '_', "-" if empty. */
void	protocol_word(const char *s, char *buf, size_t len);

/* Formatting: each writes one line, no \n, into buf; returns its length. */
size_t	protocol_greeting(char *buf, size_t len);
size_t	protocol_status_line(char *buf, size_t len,
	    const struct proto_status *);
size_t	protocol_frame_line(char *buf, size_t len,
	    const struct proto_status *, uint64_t dropped, int delta);
size_t	protocol_scenario_line(char *, size_t, const char *name,
	    const char *file, int cpus, int tasks, int real, const char *text);
size_t	protocol_text_line(char *buf, size_t len, const char *keyword,
	    uint64_t tick, const char *text);
/* "choice n=N text=..." (no newline). */
size_t	protocol_choice_line(char *buf, size_t len, int n, const char *text);
/* One run of a runs line ("ID:RANK*N", "0*N"), no comma. */
size_t	protocol_runs_item(char *buf, size_t len, int task, int rank,
	    uint64_t n);
/* One run of a kruns line ("ID*N", "0*N", "-*N", "?*N"), no comma. */
size_t	protocol_kruns_item(char *buf, size_t len, int task, uint64_t n);
/* Read one at *p (then a comma or the end); 0, or -1 if it is not. */
int	protocol_kruns_parse(const char **p, int *task, uint64_t *n);
/* Read one run of a runs line at *p (then a comma or the end); 0, -1. */
int	protocol_runs_parse(const char **p, int *task, int *rank,
	    uint64_t *n);
char   *protocol_format_speed(double, char *buf, size_t len);
/*
 * One cell of the article's table (SPEC.md 3), as headless and the client
 * show it: ticks / rr rounded to one decimal ("1.5"), whole without
 * ".0" ("2"), "" if zero, never "0.0" (0.1 at least).  If width > 0 and
 * that is wider: ".7" below one, else rounded to whole ("13").
 */
void	protocol_table_cell(uint64_t ticks, int rr, int width, char *buf,
	    size_t len);

#endif
