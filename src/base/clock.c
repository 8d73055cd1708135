/*
 * clock.c - system monotonic clock and the fake clock for tests.
 */
#include "ipxlab/clock.h"

#include <time.h>

static ipx_time system_now(struct ipx_clock *clock)
{
	struct timespec ts;

	(void)clock;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ipx_time)ts.tv_sec * IPX_SEC + (ipx_time)ts.tv_nsec / 1000;
}

static struct ipx_clock system_clock = { .now = system_now };

struct ipx_clock *ipx_clock_system(void)
{
	return &system_clock;
}

static ipx_time fake_now(struct ipx_clock *clock)
{
	return clock->fake_now;
}

void ipx_clock_fake_init(struct ipx_clock *clock, ipx_time start)
{
	clock->now = fake_now;
	clock->simulated = true;
	clock->fake_now = start;
}

void ipx_clock_advance(struct ipx_clock *clock, ipx_time delta)
{
	clock->fake_now += delta;
}

void ipx_clock_set(struct ipx_clock *clock, ipx_time when)
{
	if (ipx_time_before(clock->fake_now, when))
		clock->fake_now = when;
}
