/*
 * bench_b7.h - B7, throughput against block size (PERFORM3-style,
 * docs/benchmarks.md): a file server and N workstations (default 5)
 * started together behind the harness's barrier, each reading (or with
 * write, writing) blocks of one size at offset 0 of its own file for a
 * time, for 16 block sizes from 64,512 down to 3,072 bytes in 4,096-byte
 * steps; kB/s (1000 bytes of data) per size per workstation and in
 * total, and the average and peak over the sizes, for four configurations
 * as the bulletin compared four: one request at a time or packet burst,
 * times the default or a tuned NCP buffer. A burst configuration the
 * server does not grant (ncp_burst_active false after the first size's
 * set-up) is marked "burst not offered" and not measured further.
 *
 * The entry point has the shape of bench_fs.h's: options with the
 * network to run on, a progress callback, the report; its writers give
 * the JSON and CSV (bench_result.h) and the curve as plain ASCII.
 */
#ifndef IPXLAB_BENCH_B7_H
#define IPXLAB_BENCH_B7_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ipxlab/bench_fidelity.h"
#include "ipxlab/bench_fs.h"
#include "ipxlab/bench_fsnet.h"
#include "ipxlab/bench_result.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IPX_B7_SIZES 16
#define IPX_B7_LARGEST 64512u	/* bytes, the first size run */
#define IPX_B7_STEP 4096u	/* down to 3,072 */
#define IPX_B7_STATIONS 5	/* the bulletin's workstations */
#define IPX_B7_CONFIGS 4
/* The buffer (0x61) a workstation asks for: default, the file server's
 * own default size (what it grants 0x21); tuned, the most there is,
 * which the link's IPX packet caps (1,446 bytes on a simulated eth10
 * segment, 1,370 through the tunnel). */
#define IPX_B7_DEFAULT_BUFFER 1024u
#define IPX_B7_TUNED_BUFFER 65535u
/* The bulletin's figures (its "KB/s", not said to be 1000 or 1024
 * bytes: printed as it gave them): the best configuration's average and
 * peak, and the 10 Mbit/s Ethernet ceiling it called not reachable. */
#define IPX_B7_PUBLISHED_AVERAGE 988.0
#define IPX_B7_PUBLISHED_PEAK 1077.0
#define IPX_B7_CEILING_MB_PER_S 1.25
/* The period of the bulletin's best set-up (machines/, docs/fidelity.md):
 * 16-bit adapters, LANtastic optimized. */
#define IPX_B7_PERIOD "lantastic-1993"

/* Size s (0..15) in bytes: 64,512 - 4,096 s. */
uint32_t ipx_b7_block(unsigned s);

/* Configuration k: k / 2 the request mode, k % 2 the buffer. */
struct ipx_b7_config {
	const char *name;	/* "request/default", ..., "burst/tuned" */
	bool burst;		/* ask for packet burst */
	uint16_t buffer;	/* bytes asked for */
};
const struct ipx_b7_config *ipx_b7_config(unsigned k);

struct ipx_b7_opts {
	struct ipx_bfs_net net;
	unsigned stations;	/* 1..IPX_BN_MAX_STATIONS */
	double seconds;		/* per size and configuration */
	bool write;		/* writes instead of reads */
	bool only[IPX_B7_CONFIGS];	/* the configurations run */
};

/* One workstation at one size (a row of the CSV and of the JSON). */
struct ipx_b7_cell {
	uint64_t blocks;
	double time_s, kB_per_s;	/* kB = 1000 bytes of data */
};

enum ipx_b7_status {
	IPX_B7_NOT_RUN,		/* not chosen, or cut short before it */
	IPX_B7_MEASURED,	/* sizes_done sizes measured */
	IPX_B7_NO_BURST,	/* burst asked for, not granted */
};

struct ipx_b7_result {
	enum ipx_b7_status status;
	uint16_t granted;	/* the buffer the server granted */
	unsigned sizes_done;	/* from the largest block down */
	struct ipx_b7_cell c[IPX_B7_SIZES][IPX_BN_MAX_STATIONS];
};

struct ipx_b7_report {
	struct ipx_b7_opts o;
	struct ipx_b7_result r[IPX_B7_CONFIGS];
	bool interrupted;	/* set by the caller: "complete": false */
	/* With a period (ipx_b7_fidelity): the table, and the best
	 * configuration of this run and of today's (-1: none measured). */
	bool have_fidelity;
	struct ipx_fid_table fid;
	int best, today_best;
};

/*
 * Run every chosen configuration, each size in turn from the largest,
 * every workstation at once. An error (a signal among them) stops it
 * with what finished kept in rep (a size counts once all workstations
 * reported).
 */
int ipx_b7_run(const struct ipx_b7_opts *o, ipx_bench_progress_fn progress,
	       void *ctx, struct ipx_b7_report *rep, char *err, size_t errlen);
/* After a run a signal cut: what finished is printed, marked so. */
void ipx_b7_interrupted(struct ipx_b7_report *rep);

/* Configuration k's total kB/s at size s (the workstations' sum). */
double ipx_b7_total(const struct ipx_b7_report *rep, unsigned k, unsigned s);
/* Over the sizes measured: the mean and the largest total, the size of
 * that one (NAN, NAN and 0 when none was). */
void ipx_b7_summary(const struct ipx_b7_report *rep, unsigned k,
		    double *average, double *peak, uint32_t *peak_block);
/* Workstation i's mean kB/s over the sizes measured. */
double ipx_b7_station_average(const struct ipx_b7_report *rep, unsigned k,
			      unsigned i);
const char *ipx_b7_status_name(enum ipx_b7_status st);

/*
 * The configuration of the largest average total (the bulletin's figures
 * are its best configuration's), or -1 when none was measured.
 */
int ipx_b7_best(const struct ipx_b7_report *rep);
/*
 * "Today" beside a period run: the same B7 options on the network of
 * 'net' without the period (bench_fsnet.h: with sim, the wire alone),
 * built here, run, and stopped. IPX_OK or an error with a message.
 */
int ipx_b7_run_today(const struct ipx_fsnet_opts *net,
		     const struct ipx_b7_opts *o,
		     ipx_bench_progress_fn progress, void *ctx,
		     struct ipx_b7_report *today, char *err, size_t errlen);
/*
 * The fidelity table into rep (have_fidelity): rows the bulletin's best
 * average and peak total (its KB/s, printed as given, against our kB/s,
 * not converted), ipxlab as 1990 the best configuration of rep (the
 * period's run), today the best of 'today' (NULL: not measured). The
 * figures are the bulletin's best set-up's, so only the period
 * IPX_B7_PERIOD gets them; any other is a prediction (no 1990 figure).
 */
void ipx_b7_fidelity(struct ipx_b7_report *rep,
		     const struct ipx_b7_report *today, const char *period,
		     const char *today_what);

/* After the benchmark's text: today's summary per configuration, the
 * best configurations, then the table (ipx_fid_print). */
void ipx_b7_write_fidelity(FILE *out, const struct ipx_b7_report *rep,
			   const struct ipx_b7_report *today);

void ipx_b7_write_csv(FILE *out, const struct ipx_b7_report *rep);
void ipx_b7_write_json(FILE *out, const struct ipx_b7_report *rep,
		       ipx_bfs_conditions_fn cond, const void *ctx);
/* Total kB/s against block size, one line of its own letter per
 * configuration measured, 'rows' lines high, plain ASCII. */
void ipx_b7_write_curve(FILE *out, const struct ipx_b7_report *rep,
			unsigned rows);

#ifdef __cplusplus
}
#endif

#endif
