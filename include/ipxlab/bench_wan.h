/*
 * bench_wan.h - B6, the bridged network of 1990 (docs/benchmarks.md): the
 * loops of `ipxlab bench wan`, over a controller (bench_harness.h) whose
 * workstation agents reach a file server through a WAN bridge, or not.
 * They do not care how the network is built: child processes on hubs
 * joined by `ipxlab bridge`, or in-memory segments joined by ipx_wan in
 * one process on a simulated clock; every agent, the server and the
 * nodes given here must run on the controller's loop or beside it.
 *
 *   scaling  one operation (open/close in four levels of directories, as
 *            in 1990) by 1, 2, ... N workstations at once: ops/s per
 *            workstation at each count (ipx_bwan_scale).
 *   limit    a paced background load of IPX datagrams across the bridge
 *            (ipx_bwan_flood), raised step by step from none; at each
 *            step workstations copy a file from the server; the search
 *            stops at the first load where a copy fails or misses its
 *            deadline and reports every step run (ipx_bwan_limit).
 */
#ifndef IPXLAB_BENCH_WAN_H
#define IPXLAB_BENCH_WAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ipxlab/bench_harness.h"
#include "ipxlab/bench_ncp.h"
#include "ipxlab/node.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Called before each run of a loop: what runs (e.g. "open-multi, 3
 * workstations"), the run's number k of n. */
typedef void (*ipx_bwan_progress_cb)(void *ctx, const char *what, unsigned k,
				     unsigned n, double seconds);

/* One run's figures over its workstations. */
struct ipx_bwan_point {
	unsigned stations;	/* workstations in the run */
	unsigned active;	/* of them, those that completed an operation */
	uint64_t ops, retransmits;
	double per_ws, min, max, total;	/* ops/s: mean, least, most, sum */
	double wire_kB_per_s;	/* kB/s (1000 bytes) on each one's link, mean */
};

/* B6's times: a battery test's seconds and a scaling point's, when the
 * run asks for 'seconds' per test (0: the 1990 times, 20 s a point). */
double ipx_bwan_test_seconds(double seconds, enum ipx_bn_op op);
double ipx_bwan_scale_seconds(double seconds);

/* Summarise n results of one ipx_bn_run. */
void ipx_bwan_summarize(const struct ipx_bw_result *r, size_t n,
			struct ipx_bwan_point *out);

/*
 * The scaling curve: 'op' for 'seconds' by 1, 2, ... max_stations agents
 * (agents 0..n-1 of the controller); out[n-1] is the point of n.
 * IPX_OK, or the first run's error (with what ran in err).
 */
int ipx_bwan_scale(struct ipx_hctl *c, const struct ipx_bn_run_opts *o,
		   enum ipx_bn_op op, unsigned max_stations, double seconds,
		   ipx_bwan_progress_cb cb, void *ctx,
		   struct ipx_bwan_point *out, char *err, size_t errlen);

/* ---- the background load ---- */

/* IPX packets the load sends: the largest a 576-byte bridge carries. */
#define IPX_BWAN_FLOOD_SIZE 576

struct ipx_bwan_flood;

struct ipx_bwan_flood_count {
	uint64_t sent, sent_bytes;	/* IPX packets and bytes sent */
	/* received at the sink, of packets sent at the current rate */
	uint64_t got, got_bytes;
	uint64_t stale;		/* dropped: sent at an earlier rate */
	/* since the last ipx_bwan_flood_rate: when the first packet came
	 * (0: none yet), and got_bytes just before it */
	ipx_time first_at;
	uint64_t got_before_first;
};

/*
 * A paced stream of IPX_BWAN_FLOOD_SIZE-byte packets from a socket on
 * 'from' to a counting socket on 'to' (both on the same loop; from is on
 * the server's side, to on the workstations', so the load crosses the
 * bridge the way file data does). Stopped until ipx_bwan_flood_rate.
 */
int ipx_bwan_flood_new(struct ipx_node *from, struct ipx_node *to,
		       struct ipx_bwan_flood **out);
/* Send at 'bps' bits per second of IPX packets from now on; 0 stops.
 * Each call is a new rate: the sink counts only packets sent since. */
void ipx_bwan_flood_rate(struct ipx_bwan_flood *f, uint64_t bps);
void ipx_bwan_flood_count(const struct ipx_bwan_flood *f,
			  struct ipx_bwan_flood_count *out);
void ipx_bwan_flood_free(struct ipx_bwan_flood *f);

/* ---- the throughput-limit search ---- */

#define IPX_BWAN_MAX_STEPS 32

/* The load's directions: from the server's side to the workstations'
 * (the flood given to ipx_bwan_limit), and back (opts.up). */
enum { IPX_BWAN_DOWN, IPX_BWAN_UP, IPX_BWAN_DIRS };

struct ipx_bwan_limit_opts {
	struct ipx_bn_run_opts run;	/* the server (across the bridge) */
	/* the same load the other way at once, workstations' side to the
	 * server's; NULL: one way only */
	struct ipx_bwan_flood *up;
	size_t probes;		/* workstations copying at once; 0: 1 */
	uint32_t file_size;	/* the copy test's file (bench_ncp.h) */
	uint32_t copies;	/* per workstation per step; 0: 1 */
	uint64_t step_bps;	/* step k offers k x this; step 0 none */
	size_t max_steps;	/* 1 .. IPX_BWAN_MAX_STEPS */
	double warmup;		/* s of load before the copies start */
	double drain;		/* s after the load stops, before the next */
	/* s a copy may take; 0: twice the slowest copy of step 0 */
	double deadline;
	ipx_bwan_progress_cb progress;
	void *ctx;
};

struct ipx_bwan_step {
	uint64_t load_bps;	/* the background load asked for, each way */
	/* per direction (IPX_BWAN_DOWN, _UP), bits/s of IPX bytes over the
	 * same time, the load's start to the end of the copies: sent from
	 * the source, and carried: of those, received at the sink by then
	 * (so never more than sent); 0 for a direction not loaded */
	double sent_bps[IPX_BWAN_DIRS], carried_bps[IPX_BWAN_DIRS];
	double copy_bps;	/* file data copied, bits/s, all together */
	double copy_max_s, copy_mean_s;	/* per copy */
	double deadline;	/* s, the one applied */
	uint64_t copies;	/* completed, all workstations */
	uint64_t retransmits;	/* the copies' NCP requests sent again */
	bool ok;		/* every copy completed within the deadline */
	char why[256];		/* when not ok: what went wrong */
};

/*
 * Run steps 0, 1, ... until one is not ok or max_steps ran; steps[k] is
 * step k, *nsteps how many ran. The flood is stopped at the end. IPX_OK
 * when the search ran (whatever it found: a copy that missed its
 * deadline ends it); IPX_EINVAL for bad options; the run's error, with
 * the load in err, when a copy failed otherwise (an agent died, the
 * file is not there): that is no limit.
 */
int ipx_bwan_limit(struct ipx_hctl *c, struct ipx_bwan_flood *f,
		   const struct ipx_bwan_limit_opts *o,
		   struct ipx_bwan_step *steps, size_t *nsteps, char *err,
		   size_t errlen);
/* The last step that was ok (the load that completed), or -1. */
int ipx_bwan_limit_found(const struct ipx_bwan_step *steps, size_t n);

/* ---- repeats (wan_repeat.c) ---- */

/*
 * The median point of n runs of the same test (n >= 1): each figure's
 * median (ipx_stat_median: the mean of the middle two for even n), the
 * counts (active, ops, retransmits) rounded to the nearest whole;
 * stations is the first run's. n == 0: all zero.
 */
void ipx_bwan_point_median(const struct ipx_bwan_point *runs, size_t n,
			   struct ipx_bwan_point *out);
/* One limit search's steps, as ipx_bwan_limit returns them. */
struct ipx_bwan_search {
	struct ipx_bwan_step steps[IPX_BWAN_MAX_STEPS];
	size_t nsteps;
};

/*
 * Over n limit searches: the last completed load of each into loads[i]
 * (bits/s; -1 for a search that completed none), and the index of the
 * median search: the one whose load is the lower median (the middle one
 * for odd n; the first of equal ones), a search that completed none
 * counting below every load; -1 if n == 0.
 */
int ipx_bwan_limit_median(const struct ipx_bwan_search *s, size_t n,
			  double *loads);

#ifdef __cplusplus
}
#endif

#endif
