/*
 * bench_cpu.h - a process's CPU use over time (B8's server CPU, docs/
 * benchmarks.md): its own counters (user + system time) read at a fixed
 * interval from a loop timer, each interval's share of one CPU in
 * percent. The source is a callback, so a simulated network gives its
 * own deterministic figure (B8: requests served x a cost per request).
 */
#ifndef IPXLAB_BENCH_CPU_H
#define IPXLAB_BENCH_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "ipxlab/clock.h"
#include "ipxlab/loop.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IPX_CPU_INTERVAL (100 * IPX_MSEC)	/* B8's sampling */

/* Seconds of CPU (user + system) process 'pid' has used: its CPU-time
 * clock (clock_getcpuclockid, nanoseconds), else /proc/PID/stat's utime
 * + stime (clock ticks). IPX_OK, or IPX_EIO when neither can be read
 * (the process is gone). */
int ipx_cpu_process_seconds(pid_t pid, double *out);

/* The counter sampled: CPU seconds so far into *out, IPX_OK or an error
 * (the sampler then stops and marks itself failed). */
typedef int (*ipx_cpu_source_fn)(void *ctx, double *out);
/* A source for ipx_cpu_process_seconds: ctx points at a pid_t. */
int ipx_cpu_pid_source(void *ctx, double *out);

struct ipx_cpu_sampler {
	struct ipx_loop *loop;
	struct ipx_timer timer;
	ipx_cpu_source_fn source;
	void *ctx;
	ipx_time interval, last_at;
	double last_cpu;
	double *pct;		/* the caller's: one value per interval */
	size_t n, cap;		/* values kept, room (more are counted) */
	size_t dropped;		/* intervals past cap, not kept */
	bool failed;		/* the source failed: the series stops */
};

/* Start sampling 'source' every 'interval' (0: IPX_CPU_INTERVAL) into
 * pct[0..cap): each value is 100 x (CPU seconds in the interval) /
 * (the interval's seconds on the loop's clock). IPX_OK, or the source's
 * error at the first reading. */
int ipx_cpu_sampler_start(struct ipx_cpu_sampler *s, struct ipx_loop *loop,
			  ipx_time interval, ipx_cpu_source_fn source,
			  void *ctx, double *pct, size_t cap);
/* Stop (a partial last interval is not kept). Safe to call twice. */
void ipx_cpu_sampler_stop(struct ipx_cpu_sampler *s);

#ifdef __cplusplus
}
#endif

#endif
