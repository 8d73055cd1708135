/*
 * clock.h - the one clock seam.
 *
 * All time in ipxlab is a uint64_t count of microseconds from an arbitrary
 * origin, read through an ipx_clock. Real programs use the monotonic system
 * clock; tests and simulations use a fake clock that only moves when told,
 * so every timeout is deterministic.
 */
#ifndef IPXLAB_CLOCK_H
#define IPXLAB_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t ipx_time;	/* microseconds */

#define IPX_USEC 1ull
#define IPX_MSEC 1000ull
#define IPX_SEC 1000000ull
/* One PC timer tick, 1/18.2 s: the unit of the SHELL.CFG timeouts. */
#define IPX_TICK 54945ull

struct ipx_clock {
	ipx_time (*now)(struct ipx_clock *clock);
	bool simulated;		/* true: time only moves when advanced */
	ipx_time fake_now;	/* the time of a fake clock */
};

/* The system monotonic clock. */
struct ipx_clock *ipx_clock_system(void);
/* Initialise a fake clock that starts at 'start'. */
void ipx_clock_fake_init(struct ipx_clock *clock, ipx_time start);
/* Move a fake clock forward (never backwards). */
void ipx_clock_advance(struct ipx_clock *clock, ipx_time delta);
void ipx_clock_set(struct ipx_clock *clock, ipx_time when);

static inline ipx_time ipx_clock_now(struct ipx_clock *clock)
{
	return clock->now(clock);
}

/* Wrap-safe "a is before b". */
static inline bool ipx_time_before(ipx_time a, ipx_time b)
{
	return (int64_t)(a - b) < 0;
}

static inline ipx_time ipx_ticks(uint32_t ticks)
{
	return (ipx_time)ticks * IPX_TICK;
}

#ifdef __cplusplus
}
#endif

#endif
