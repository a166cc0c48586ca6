/*
 * caption.h -- the caption line's hold (caption.c): the scenario's
 * captions and answers each kept up long enough to read.
 */
#ifndef STAIRS_UI_CAPTION_H
#define STAIRS_UI_CAPTION_H

#include <stddef.h>

#include "model.h"

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
	int		 question;	/* a question: up at once once the
					   clock waits on it */
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

size_t		 caption_event(const char *text, int *answer);
int		 caption_frame(struct captions *, const struct model *,
		     long now_ms);
int		 caption_advance(struct captions *, long now_ms);
long		 caption_wait(const struct captions *, long now_ms);
#define CAPTION_KEY_QUESTION	2	/* caption_key: a question went up */
int		 caption_key(struct captions *, long now_ms);
const char	*caption_text(const struct captions *, char *, size_t);

#endif
