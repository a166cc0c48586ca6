/*
 * clock.c -- the tick clock's arithmetic (see clock.h).
 *
 * The due tick is computed from the time elapsed since an origin, never
 * by adding periods, so late wake-ups do not accumulate into drift: the
 * next wake-up simply runs more ticks.  Catch-up is bounded: a wake-up
 * that finds more than max_batch ticks due runs max_batch, counts the
 * rest as lag and moves the origin so the dropped ticks are not owed.
 * A speed change or a resume moves the origin to "now, at this tick".
 */
#include <time.h>

#include "clock.h"

#define CLOCK_MIN_BATCH	100

/* The most ticks one wake-up may run at a speed. */
static int
clock_batch(double speed)
{
	/* At high speed a 1 ms wake-up legitimately carries speed ticks. */
	if (speed * 4 > CLOCK_MIN_BATCH)
		return ((int)(speed * 4));
	return (CLOCK_MIN_BATCH);
}

/* Start the clock: tick is due now. */
void
clock_init(struct clock *c, double speed, uint64_t now_ns, uint64_t tick)
{
	c->speed = speed;
	c->paused = 0;
	c->origin_ns = now_ns;
	c->origin_tick = tick;
	c->lag = 0;
	c->max_batch = clock_batch(speed);
}

/* The tick the clock has reached at now_ns: ticks below it are due. */
uint64_t
clock_due(const struct clock *c, uint64_t now_ns)
{
	long double	elapsed;

	if (now_ns <= c->origin_ns)
		return (c->origin_tick);
	elapsed = (long double)(now_ns - c->origin_ns) * c->speed / 1e6L;
	return (c->origin_tick + (uint64_t)elapsed);
}

/*
 * How many ticks to run now, the engine being at tick.  Paused: none.
 * More than max_batch due: max_batch, the rest dropped and counted.
 */
uint64_t
clock_take(struct clock *c, uint64_t now_ns, uint64_t tick)
{
	return (clock_take_more(c, now_ns, tick, 0));
}

/*
 * The same, for a caller that chose to wake late: up to allow ticks more
 * than max_batch are run rather than dropped (a batching daemon sleeps
 * through allow ticks on purpose; only lateness beyond that is lag).
 */
uint64_t
clock_take_more(struct clock *c, uint64_t now_ns, uint64_t tick,
    uint64_t allow)
{
	uint64_t	due, most = (uint64_t)c->max_batch + allow;

	if (c->paused)
		return (0);
	due = clock_due(c, now_ns);
	if (due <= tick)
		return (0);
	if (due - tick <= most)
		return (due - tick);
	c->lag += due - tick - most;
	c->origin_ns = now_ns;
	c->origin_tick = tick + most;
	return (most);
}

/* The ticks that fall due in ns of wall time at the clock's speed. */
uint64_t
clock_ticks_in(const struct clock *c, uint64_t ns)
{
	return ((uint64_t)((long double)ns * c->speed / 1e6L));
}

/* Stop the clock: nothing is due until clock_resume. */
void
clock_pause(struct clock *c)
{
	c->paused = 1;
}

/* Restart the clock with tick due now. */
void
clock_resume(struct clock *c, uint64_t now_ns, uint64_t tick)
{
	c->paused = 0;
	c->origin_ns = now_ns;
	c->origin_tick = tick;
}

/* Change the speed from now on, tick being due now. */
void
clock_set_speed(struct clock *c, double speed, uint64_t now_ns,
    uint64_t tick)
{
	c->speed = speed;
	c->max_batch = clock_batch(speed);
	if (!c->paused) {
		c->origin_ns = now_ns;
		c->origin_tick = tick;
	}
}

/*
 * How often to wake: once per tick, but no more than once a millisecond
 * (at high speed one wake-up runs several ticks).
 */
uint64_t
clock_period_ns(const struct clock *c)
{
	uint64_t	period = (uint64_t)(1e6 / c->speed);

	return (period < 1000000 ? 1000000 : period);
}

/* The wall time at which tick becomes due. */
uint64_t
clock_next_ns(const struct clock *c, uint64_t tick)
{
	long double	ns;

	if (tick <= c->origin_tick)
		return (c->origin_ns);
	ns = (long double)(tick - c->origin_tick) * 1e6L / c->speed;
	return (c->origin_ns + (uint64_t)ns + 1);
}

/*
 * From when tick, the engine's next, may run before its time with the
 * engine at most lead ticks ahead of the wall clock: when tick + 1 -
 * lead falls due (pacer_catchup runs it then, pacer_arm wakes for it);
 * 0 if lead is 0 (nothing asks for an early tick).
 */
uint64_t
clock_early_ns(const struct clock *c, uint64_t tick, int lead)
{
	if (lead <= 0)
		return (0);
	tick++;
	return (clock_next_ns(c, tick > (uint64_t)lead ? tick -
	    (uint64_t)lead : 0));
}
