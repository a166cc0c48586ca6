/*
 * picture-int.h -- the pictures' insides, shared by their files alone,
 * each calling only those before it: picture-base.c (the helpers),
 * picture-draw.c (each policy's picture) and picture.c (a CPU's box,
 * its title and why, the layout; its entry points are in panel-int.h).
 */
#ifndef STAIRS_UI_PICTURE_INT_H
#define STAIRS_UI_PICTURE_INT_H

#include <stddef.h>

#include "pane.h"

#define PIC_MIN_W	38	/* the narrowest panel of a picture */
#define PIC_NAME_W	10	/* the name column of the axes */
#define PIC_GAUGE	10	/* the running task's gauge */
#define PIC_TASKS	512	/* tasks of a CPU a picture places */

/* Which picture a model's CPUs are drawn with. */
enum pic {
	PIC_STAIRS,
	PIC_ARRAYS,
	PIC_VRUNTIME,
	PIC_LAG,
	PIC_QUEUE
};

/*
 * A picture too short for its rows: its tasks written one after the
 * other, wrapped over the rows [y, y + h) (indented after the first),
 * those that do not fit counted and said ("+3") at the end.
 */
struct picture_flow {
	struct draw	*d;
	int		 x, y, w, h;
	int		 xx, r;
	int		 dropped;
	const char	*pending;	/* a heading not yet written */
};

/* picture-base.c (and picture_stairs, picture_why_*: panel-int.h) */
enum pic	 picture_of(const struct model *);
const char	*picture_ms(char *, size_t, long us, int sign);
enum col	 picture_col(const struct draw *, const struct mtask *);
int		 picture_name(struct draw *, const struct mtask *, int x, int y,
		     int xmax);
int		 picture_gauge(struct draw *, const struct mtask *, int x,
		     int y, int xmax, int width);
int		 picture_tasks(const struct draw *, int cpu,
		     const struct mtask **, int *nq,
		     int (*)(const void *, const void *));
int		 picture_by_vruntime(const void *, const void *);
int		 picture_by_rank(const void *, const void *);
int		 picture_fit(int room, int nq, int n);
void		 picture_weight(struct draw *, const struct mtask *, int x,
		     int y, int xmax);
int		 picture_step_rows(int room, int nq, int n);
void		 picture_asleep(struct draw *, const struct mtask **, int i,
		     int n, int x, int y, int xmax, int withlag);
void		 picture_flow_start(struct picture_flow *, struct draw *,
		     int x, int y, int w, int h);
int		 picture_flow_room(struct picture_flow *, int width);
void		 picture_flow_word_now(struct picture_flow *, const char *);
void		 picture_flow_word(struct picture_flow *, const char *);
void		 picture_flow_task(struct picture_flow *, const struct mtask *,
		     const char *suffix);
void		 picture_flow_end(struct picture_flow *);

/* picture-draw.c */
void		 picture_arrays(struct draw *, int cpu, int x, int y, int w,
		     int h);
void		 picture_vruntime(struct draw *, int cpu, int x, int y, int w,
		     int h);
void		 picture_lag(struct draw *, int cpu, int x, int y, int w,
		     int h);
void		 picture_queue(struct draw *, int cpu, int x, int y, int w,
		     int h);

#endif
