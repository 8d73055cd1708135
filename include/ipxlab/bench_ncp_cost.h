/*
 * bench_ncp_cost.h - "bench ncp": what one outstanding NCP request per
 * connection costs, against the IPX round trip measured in the same run,
 * on the file-server benchmarks' network (bench_fs.h).
 *
 * In turn, for 'seconds' each, the workstation runs the NCP workload's
 * operations (bench_ncp.h): Novell pings of the server node (empty and
 * with a buffer of data), 1-byte reads, open/close pairs and 256 KB parts
 * of the 4 MB file; ten rounds of every row in turn, so load changing
 * during the run moves all rows alike. The ratios: a 1-byte read against
 * one round trip, an open/close pair against two, the large get against
 * one buffer per round trip of a small request and a buffer-sized answer
 * (the mean of the empty and the full ping). Targets: 80 % each.
 */
#ifndef IPXLAB_BENCH_NCP_COST_H
#define IPXLAB_BENCH_NCP_COST_H

#include <stdbool.h>
#include <stdio.h>

#include "ipxlab/bench_fs.h"
#include "ipxlab/bench_ncp_burst.h"
#include "ipxlab/bench_result.h"
#include "ipxlab/bench_stat.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IPX_BNC_TARGET 0.80
#define IPX_BNC_ROUNDS 10
#define IPX_BNC_WANT_BUFSIZE 4096	/* what the workload asks (work_ncp.c) */
#define IPX_BNC_MAX_REPEAT 100

/* The three rows of the table. */
enum { IPX_BNC_READ, IPX_BNC_OC, IPX_BNC_GET, IPX_BNC_ROWS };

struct ipx_bnc_opts {
	struct ipx_bfs_net net;
	struct ipx_node *node;	/* the workstation's segment: the buffer */
	double seconds;		/* measurement time per row */
	unsigned repeat;	/* 1..IPX_BNC_MAX_REPEAT */
	/* A node on the server's side of the link (same loop): then, after
	 * the repeats, the packet-burst target (bench_ncp_burst.h); NULL:
	 * not measured. */
	struct ipx_node *burst_peer;
	uint32_t burst_window;		/* ipx_bncb_opts window, udp_bind */
	bool burst_from_agent;		/* the datagrams from agent 0 */
	struct in_addr burst_bind;
};

/* One repeat's figures. */
struct ipx_bnc_fig {
	double rtt_empty, rtt_full;	/* seconds */
	double value[IPX_BNC_ROWS], bound[IPX_BNC_ROWS];
};

struct ipx_bnc_report {
	struct ipx_bnc_opts o;
	unsigned bufsize;	/* what the server grants the workstation */
	unsigned done;		/* repeats finished (all, or before a cut) */
	bool run_failed;	/* the error came from a run (a signal?) */
	bool interrupted;	/* set by the caller: "complete": false */
	struct ipx_bnc_fig fig[IPX_BNC_MAX_REPEAT];
	/* the packet-burst target: measured, or why not */
	bool have_burst;
	struct ipx_bncb_report burst;
	char burst_err[256];
};

/* A row's name in the table, its unit and its key in JSON and CSV. */
const char *ipx_bnc_row_what(int row);
const char *ipx_bnc_row_unit(int row);
const char *ipx_bnc_row_key(int row);

/*
 * Ask the server's buffer, then o->repeat repeats into rep. IPX_OK, or
 * an error in err (rep->done says how many repeats finished, and
 * rep->run_failed whether a run failed: the caller checks for a signal).
 */
int ipx_bnc_run(const struct ipx_bnc_opts *o, ipx_bench_progress_fn progress,
		void *ctx, struct ipx_bnc_report *rep, char *err,
		size_t errlen);

/* A figure of the first rep->done repeats summarised; which: 0 value,
 * 1 bound, 2 ratio, 3 empty round trip (us), 4 full round trip (us). */
void ipx_bnc_summary(const struct ipx_bnc_report *rep, int row, int which,
		     struct ipx_stat_summary *s);

/* JSON (with the network's conditions first) and CSV of rep->done
 * repeats. */
void ipx_bnc_write_json(FILE *out, const struct ipx_bnc_report *rep,
			ipx_bfs_conditions_fn cond, const void *ctx);
void ipx_bnc_write_csv(FILE *out, const struct ipx_bnc_report *rep);

#ifdef __cplusplus
}
#endif

#endif
