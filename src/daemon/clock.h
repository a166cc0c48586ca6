/*
 * clock.h -- the daemon's tick clock, as arithmetic: which engine tick is
 * due at a given CLOCK_MONOTONIC time, for a speed, a pause state and a
 * bounded catch-up.  No timers and no clock reads here: the caller passes
 * the time in, so the rules are unit-tested exactly.
 */
#ifndef STAIRS_CLOCK_H
#define STAIRS_CLOCK_H

#include <stdint.h>

struct clock {
	double		speed;		/* ticks per ms of wall time */
	int		paused;
	uint64_t	origin_ns;	/* wall time at which ... */
	uint64_t	origin_tick;	/* ... this tick was due */
	uint64_t	lag;		/* ticks dropped after late wake-ups */
	int		max_batch;	/* most ticks run in one wake-up */
};

void	clock_init(struct clock *, double speed, uint64_t now_ns,
	    uint64_t tick);
uint64_t clock_due(const struct clock *, uint64_t now_ns);
uint64_t clock_take(struct clock *, uint64_t now_ns, uint64_t tick);
uint64_t clock_take_more(struct clock *, uint64_t now_ns, uint64_t tick,
	    uint64_t allow);
uint64_t clock_ticks_in(const struct clock *, uint64_t ns);
void	clock_pause(struct clock *);
void	clock_resume(struct clock *, uint64_t now_ns, uint64_t tick);
void	clock_set_speed(struct clock *, double speed, uint64_t now_ns,
	    uint64_t tick);
uint64_t clock_period_ns(const struct clock *);
uint64_t clock_next_ns(const struct clock *, uint64_t tick);
uint64_t clock_early_ns(const struct clock *, uint64_t tick, int lead);

#endif
