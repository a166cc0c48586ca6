/*
 * model-int.h -- the model's insides, shared by its files alone, each
 * calling only those before it, and model.c below them all:
 * model-parse.c (a line read, its fields into values), model-pct.c
 * (%CPU), model-history.c (runs and events), model-frame.c (a frame's
 * lines), model-reply.c (the replies) and model-feed.c (a line fed).
 * Nothing outside ui/model*.c includes it but the tests.
 */
#ifndef STAIRS_UI_MODEL_INT_H
#define STAIRS_UI_MODEL_INT_H

#include "model.h"

struct proto_fields;
struct wire_line;

/* A kind of data line the model reads (model_read). */
struct model_kind {
	const struct wire_line	*line;		/* its keyword, fields */
	int			(*read)(struct model *, struct proto_fields *);
	const char		*bad;		/* when read says -1 */
};

/* model-parse.c */
enum model_got	 model_bad(struct model *, const char *line, const char *why);
void		*model_append(void *, int *n, int *alloc, const void *,
		     size_t);
int		 model_read(struct model *, const struct model_kind *, size_t,
		     struct proto_fields *, const char *line);
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

#endif
