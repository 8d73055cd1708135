/*
 * bench_b6.h - B6, the bridged network of 1990 (docs/benchmarks.md), as
 * one run: the battery with and without the bridge, the throughput-limit
 * search and the scaling curve (the loops of bench_wan.h) over two
 * networks the caller built: the local one and the bridged one (child
 * processes on hubs, or bench_sim.h's in-process networks). The figures
 * land in a report that the command's writers read.
 */
#ifndef IPXLAB_BENCH_B6_H
#define IPXLAB_BENCH_B6_H

#include <stdbool.h>
#include <stddef.h>

#include "ipxlab/bench_fs.h"
#include "ipxlab/bench_result.h"
#include "ipxlab/bench_wan.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IPX_B6_MAX_SETS 8

/* The parts (ipx_b6_opts.parts, a set of them). */
enum { IPX_B6_BATTERY = 1, IPX_B6_LIMIT = 2, IPX_B6_SCALING = 4 };

struct ipx_b6_opts {
	/* each side's controller and server (0 local, 1 bridged): in real
	 * time one controller for both; with --sim each network's own */
	struct ipx_hctl *ctl[2];
	struct ipx_bn_run_opts side[2];
	struct ipx_bwan_flood *flood;	/* the load across the bridge */
	double seconds;		/* per test and point; 0: the 1990 times */
	unsigned parts;
	unsigned sets[IPX_B6_MAX_SETS];	/* battery workstation counts */
	size_t nsets;
	bool only[IPX_BN_BATTERY_OPS];	/* the battery tests run */
	unsigned max_stations;	/* scaling from 1 to this */
	unsigned repeat;	/* 1..IPX_BFS_MAX_REPEAT */
	/* the limit search (its run, progress and ctx are set by the run) */
	struct ipx_bwan_limit_opts lo;
};

/* The figures: the medians over the repeats (the limit: the median
 * search, lim_med) and every run. */
struct ipx_b6_report {
	unsigned parts_done;	/* the parts that finished */
	const char *part;	/* the part running (or that failed) */
	struct ipx_bwan_point bat[2][IPX_B6_MAX_SETS][IPX_BN_BATTERY_OPS];
	struct ipx_bwan_step steps[IPX_BWAN_MAX_STEPS];
	size_t nsteps;
	struct ipx_bwan_point scale[2][IPX_BN_MAX_STATIONS];
	struct ipx_bwan_point bat_runs[2][IPX_B6_MAX_SETS][IPX_BN_BATTERY_OPS]
				      [IPX_BFS_MAX_REPEAT];
	struct ipx_bwan_point scale_runs[2][IPX_BN_MAX_STATIONS]
					[IPX_BFS_MAX_REPEAT];
	struct ipx_bwan_search lim_runs[IPX_BFS_MAX_REPEAT];
	double lim_load[IPX_BFS_MAX_REPEAT];	/* last completed; -1 none */
	int lim_med;		/* the median search */
};

/* The progress line's steps in all. */
unsigned ipx_b6_steps(const struct ipx_b6_opts *o);

/*
 * Run the parts of o into rep (zeroed first): battery, limit, scaling,
 * in that order; progress gets "wan k/n: ..." lines and NULL at the end.
 * IPX_OK, or the first error with rep->part and the message in err; the
 * parts that finished are in rep->parts_done either way.
 */
int ipx_b6_run(const struct ipx_b6_opts *o, ipx_bench_progress_fn progress,
	       void *ctx, struct ipx_b6_report *rep, char *err,
	       size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
