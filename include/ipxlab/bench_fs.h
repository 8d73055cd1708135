/*
 * bench_fs.h - the file-server benchmarks of the 1990 note as library
 * entry points (docs/benchmarks.md): B3 the file copy, B4 the
 * performance test. Each takes its options (the network to run on among
 * them: the controller and the run options of bench_ncp.h, however it
 * was built), a progress callback (bench_result.h) and an error buffer,
 * and fills a report that its writers print as JSON or CSV (the text
 * table stays with the command). Nothing here is file-scope state.
 */
#ifndef IPXLAB_BENCH_FS_H
#define IPXLAB_BENCH_FS_H

#include <stdint.h>
#include <stdio.h>

#include "ipxlab/bench_ncp.h"
#include "ipxlab/bench_result.h"
#include "ipxlab/bench_stat.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IPX_BFS_MAX_REPEAT 50	/* --repeat's bound */

/* The network a file-server benchmark runs on. */
struct ipx_bfs_net {
	struct ipx_hctl *ctl;		/* the attached workstations */
	const struct ipx_bn_run_opts *ro;	/* the server, the span */
};

/* What a writer puts first into "conditions" (the network's own: the
 * command's, e.g. version and machine); NULL: nothing. */
typedef void (*ipx_bfs_conditions_fn)(struct ipx_jw *w, const void *ctx);

/* ---- B4, the performance test ---- */

struct ipx_b4_opts {
	struct ipx_bfs_net net;
	unsigned stations;	/* 1..IPX_BN_MAX_STATIONS */
	double seconds;
	unsigned long record;	/* bytes per record */
	unsigned repeat;	/* 1..IPX_BFS_MAX_REPEAT */
};

/* One workstation's run. */
struct ipx_b4_rec {
	unsigned repeat, station;	/* from 1 */
	uint64_t records;
	double seconds, kB_per_s;	/* kB = 1000 bytes of data */
};

struct ipx_b4_report {
	struct ipx_b4_opts o;
	struct ipx_b4_rec r[IPX_BFS_MAX_REPEAT][IPX_BN_MAX_STATIONS];
};

/* The run's row (CSV: every run; JSON: a run's per_workstation). */
extern const struct ipx_rtable ipx_b4_rec_table;

int ipx_b4_run(const struct ipx_b4_opts *o, ipx_bench_progress_fn progress,
	       void *ctx, struct ipx_b4_report *rep, char *err,
	       size_t errlen);
/* Run k's total kB/s over the workstations. */
double ipx_b4_total(const struct ipx_b4_report *rep, unsigned k);
/* Workstation i's kB/s over the repeats (i == stations: the total's). */
void ipx_b4_spread(const struct ipx_b4_report *rep, unsigned i,
		   struct ipx_stat_summary *out);
void ipx_b4_write_csv(FILE *out, const struct ipx_b4_report *rep);
void ipx_b4_write_json(FILE *out, const struct ipx_b4_report *rep,
		       ipx_bfs_conditions_fn cond, const void *ctx);

/* ---- B3, the file copy ---- */

#define IPX_B3_MAX_COPIES 50

struct ipx_b3_opts {
	struct ipx_bfs_net net;
	unsigned copies;	/* consecutive copies per size */
	unsigned repeat;
};

struct ipx_b3_report {
	struct ipx_b3_opts o;
	/* t[repeat][size][copy]: seconds */
	double t[IPX_BFS_MAX_REPEAT][IPX_BN_COPY_SIZES][IPX_B3_MAX_COPIES];
};

int ipx_b3_run(const struct ipx_b3_opts *o, ipx_bench_progress_fn progress,
	       void *ctx, struct ipx_b3_report *rep, char *err,
	       size_t errlen);
/* Size s over the repeats: copy i's median seconds (i == copies: the
 * average's median), with the averages' spread into avgs (may be NULL). */
double ipx_b3_median(const struct ipx_b3_report *rep, int s, unsigned i,
		     struct ipx_stat_summary *avgs);
void ipx_b3_write_csv(FILE *out, const struct ipx_b3_report *rep);
void ipx_b3_write_json(FILE *out, const struct ipx_b3_report *rep,
		       ipx_bfs_conditions_fn cond, const void *ctx);

#ifdef __cplusplus
}
#endif

#endif
