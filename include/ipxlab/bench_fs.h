/*
 * bench_fs.h - the file-server benchmarks of the 1990 note as library
 * entry points (docs/benchmarks.md): B2 the Network Test Battery, B3
 * the file copy, B4 the performance test, B5 the packet arrival times. Each takes its options (the network to run on among
 * them: the controller and the run options of bench_ncp.h, however it
 * was built), a progress callback (bench_result.h) and an error buffer,
 * and fills a report that its writers print as JSON or CSV (the text
 * table stays with the command). Nothing here is file-scope state.
 */
#ifndef IPXLAB_BENCH_FS_H
#define IPXLAB_BENCH_FS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ipxlab/analyze.h"
#include "ipxlab/bench_fidelity.h"
#include "ipxlab/bench_harness.h"
#include "ipxlab/bench_ncp.h"
#include "ipxlab/bench_result.h"
#include "ipxlab/bench_stat.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IPX_BFS_MAX_REPEAT 50	/* --repeat's bound */

/*
 * The analyzer's figures of one test: what was on the wire from the
 * test's GO to its last RESULT. In real time the command fills it from
 * the capture of the hub started here; with --sim, from the simulated
 * network's analyzer of the workstations' segment (all traffic only: a
 * workstation's own window stays invalid).
 */
struct ipx_bfs_wire {
	bool valid;		/* false: nothing recorded (a given --hub) */
	const char *source;	/* "hub capture", "simulated analyzer" */
	uint64_t packets, bytes;	/* IPX packets, their bytes + 14 each */
	double seconds;		/* the window's length */
	/* the busiest 1 s window from the window's first packet, and the
	 * mean, kB/s (1000 bytes; analyze.h's rule: peak >= mean) */
	double peak_kB_per_s, mean_kB_per_s;
	bool short_span;	/* shorter than 1 s: both over the span */
	uint64_t gaps[IPX_ANALYZE_GAPS];	/* arrival gaps per bucket */
};

/* Which packets of a window count. */
enum ipx_bfs_scope {
	IPX_BFS_WIRE_ALL,	/* all but the controller's own traffic */
	IPX_BFS_WIRE_STATION,	/* between the server and one workstation */
};

/* The analyzer of the network, if it has one: begin before a run (NULL:
 * nothing to do), window after it: the run's figures on the first n
 * workstations go to *out (filled now or when the network stops;
 * out->valid false without a capture). IPX_OK or IPX_ENOMEM. */
struct ipx_bfs_wire_ops {
	void (*begin)(void *ctx);
	int (*window)(void *ctx, unsigned n, enum ipx_bfs_scope scope,
		      unsigned station, struct ipx_bfs_wire *out);
	void *ctx;
};

/*
 * The analyzer of a real-time run: the hub's capture (each packet once,
 * as the hub received it, stamped on the loop clock) and a window per run
 * (its span, GO to the RESULTs) with where its figures go. When the
 * network is down (the capture closed), ipx_bfs_capture_collect reads the
 * file: once to find where the hub saw each RESULT, once for the figures.
 */
struct ipx_bfs_window;
struct ipx_bfs_capture {
	char pcap[64];			/* the file; "" none */
	struct ipx_hctl_span span;	/* the last run's (ipx_bn_run_opts) */
	struct ipx_bfs_window *win;
	size_t nwin, capwin;
};

/* A window for the run just made (c->span) on the first n agents of
 * hctl: all their traffic but the controller's (ctl), or (STATION) the
 * server's conversation with one of them. IPX_OK or IPX_ENOMEM. */
int ipx_bfs_capture_window(struct ipx_bfs_capture *c,
			   const struct ipx_addr *ctl,
			   const struct ipx_hctl *hctl,
			   const struct ipx_addr *server, unsigned n,
			   enum ipx_bfs_scope scope, unsigned station,
			   struct ipx_bfs_wire *out);
/* Fill every window's figures from the closed capture. IPX_OK, or an
 * error with a message. */
int ipx_bfs_capture_collect(struct ipx_bfs_capture *c, char *err,
			    size_t errlen);
/* Free the windows and remove the file. */
void ipx_bfs_capture_free(struct ipx_bfs_capture *c);
/* An analyzer's figures as a window's (valid, from 'source'). */
void ipx_bfs_wire_from(const struct ipx_analyze *a, const char *source,
		       struct ipx_bfs_wire *out);

/* The network a file-server benchmark runs on. */
struct ipx_bfs_net {
	struct ipx_hctl *ctl;		/* the attached workstations */
	const struct ipx_bn_run_opts *ro;	/* the server, the span */
	const struct ipx_bfs_wire_ops *wire;	/* NULL: no analyzer */
	bool sim;			/* simulated time (progress text) */
};

/* What a writer puts first into "conditions" (the network's own: the
 * command's, e.g. version and machine); NULL: nothing. */
typedef void (*ipx_bfs_conditions_fn)(struct ipx_jw *w, const void *ctx);

/* ---- B2, the Network Test Battery ---- */

#define IPX_B2_MAX_SETS 8
#define IPX_B2_PING_SECONDS 2.0	/* the round trip at the start */
#define IPX_B2_RTT_BEFORE 0.5	/* the ping just before a targeted test */

struct ipx_b2_opts {
	struct ipx_bfs_net net;
	double seconds;		/* per test (searches half); 0: 1990's */
	unsigned sets[IPX_B2_MAX_SETS];	/* workstations at once, in turn */
	size_t nsets;
	bool only[IPX_BN_BATTERY_OPS];	/* the tests run */
	unsigned repeat;
};

/* One workstation's figures in one run. */
struct ipx_b2_sta {
	uint64_t ops, misses, bytes, retransmits;
	double seconds;
};

struct ipx_b2_report {
	struct ipx_b2_opts o;
	double rtt;		/* seconds per round trip, at the start */
	uint64_t pings;
	/* the round trip just before each single-request test with one
	 * workstation (its bound); 0: not measured */
	double rtt_op[IPX_BN_BATTERY_OPS];
	struct ipx_b2_sta *res;		/* ipx_b2_run_of */
	struct ipx_bfs_wire *wire;	/* ipx_b2_wire_of */
	/* the tests that finished (every repeat); a run cut short (an
	 * error, an interrupt) keeps what finished */
	bool done[IPX_B2_MAX_SETS][IPX_BN_BATTERY_OPS];
	bool interrupted;	/* set by the caller: print the done only */
	/* set by the caller: written as "fidelity" (NULL: none) */
	const struct ipx_fid_table *fidelity;
};

/* The report's room for o's runs (IPX_OK or IPX_ENOMEM); free it after. */
int ipx_b2_report_init(struct ipx_b2_report *rep, const struct ipx_b2_opts *o);
void ipx_b2_report_free(struct ipx_b2_report *rep);
/* Run the battery into rep (ipx_b2_report_init'ed with the same o): the
 * round trip, then every test chosen with every set, --repeat times. An
 * error stops it with what finished kept (rep->done). */
int ipx_b2_run(const struct ipx_b2_opts *o, ipx_bench_progress_fn progress,
	       void *ctx, struct ipx_b2_report *rep, char *err,
	       size_t errlen);
double ipx_b2_op_seconds(const struct ipx_b2_opts *o, enum ipx_bn_op op);
const struct ipx_b2_sta *ipx_b2_run_of(const struct ipx_b2_report *rep,
				       size_t set, int op, unsigned k);
const struct ipx_bfs_wire *ipx_b2_wire_of(const struct ipx_b2_report *rep,
					  size_t set, int op, unsigned k);
/* Is test op with sets[set] workstations in the output? */
bool ipx_b2_shown(const struct ipx_b2_report *rep, size_t set, int op);

/* One run's figures over its workstations. */
struct ipx_b2_row {
	double mean, min, max, total, wire_kB_per_s;
	uint64_t ops, misses;
};

void ipx_b2_summarize(const struct ipx_b2_sta *r, unsigned n,
		      struct ipx_b2_row *out);

/* Over the repeats of one test: the median row (each figure's median),
 * the spread of the per-workstation mean and of the analyzer's peak. */
struct ipx_b2_rows {
	struct ipx_b2_row med;
	struct ipx_stat_summary mean, peak;
	bool wire;		/* the analyzer's figures exist */
	bool short_span;	/* a run shorter than the 1 s window */
	uint64_t ops, misses;	/* summed over the repeats */
};

void ipx_b2_summarize_repeats(const struct ipx_b2_report *rep, size_t set,
			      int op, struct ipx_b2_rows *out);
/* The round-trip bound of a single-request test: ops/s (0: none). */
double ipx_b2_bound(const struct ipx_b2_report *rep, enum ipx_bn_op op);

/* A single-request test passes at this share of its round-trip bound. */
#define IPX_B2_TARGET 0.80

void ipx_b2_write_csv(FILE *out, const struct ipx_b2_report *rep);
/* "complete": false when rep->interrupted (the tests that finished). */
void ipx_b2_write_json(FILE *out, const struct ipx_b2_report *rep,
		       ipx_bfs_conditions_fn cond, const void *ctx);

/* The analyzer's window as a JSON member (null when not valid). */
void ipx_bfs_wire_json(struct ipx_jw *w, const char *key,
		       const struct ipx_bfs_wire *x);

/* ---- B5, the packet arrival times ---- */

#define IPX_B5_FILE_BYTES 25184u	/* C25184.DAT, one of B3's sizes */
#define IPX_B5_MAX_SETS 8
#define IPX_B5_SCOPES (1 + IPX_BN_MAX_STATIONS)	/* all, then each */

struct ipx_b5_opts {
	struct ipx_bfs_net net;
	unsigned transfers;	/* per set and repeat */
	unsigned sets[IPX_B5_MAX_SETS];
	size_t nsets;
	unsigned repeat;
};

/* One workstation in one transfer: its copy time, the IPX bytes its own
 * link sent and received meanwhile, the requests its client sent again. */
struct ipx_b5_ws {
	double secs;
	uint64_t link, resent;
};

struct ipx_b5_report {
	struct ipx_b5_opts o;
	/* wire[slot * IPX_B5_SCOPES + scope]: scope 0 all, 1.. a station */
	struct ipx_bfs_wire *wire;
	struct ipx_b5_ws *ws;	/* ws[slot * IPX_BN_MAX_STATIONS + station] */
	size_t sets_done;	/* sets whose every run finished */
	bool interrupted;	/* o.nsets = sets_done; "complete": false */
};

int ipx_b5_report_init(struct ipx_b5_report *rep, const struct ipx_b5_opts *o);
void ipx_b5_report_free(struct ipx_b5_report *rep);
int ipx_b5_run(const struct ipx_b5_opts *o, ipx_bench_progress_fn progress,
	       void *ctx, struct ipx_b5_report *rep, char *err,
	       size_t errlen);

/* One repeat of one scope, over its transfers. */
struct ipx_b5_tally {
	uint64_t packets, bytes, link, resent, gaps[IPX_ANALYZE_GAPS], ngaps;
	double share[IPX_ANALYZE_GAPS];
	double ms;		/* mean copy time (a station's; all: every) */
};

/* Over the repeats: each bucket's share, and the copy time. */
struct ipx_b5_spread {
	struct ipx_stat_summary share[IPX_ANALYZE_GAPS], ms;
	uint64_t packets, ngaps;	/* over every repeat */
};

void ipx_b5_tally(const struct ipx_b5_report *rep, size_t s, unsigned k,
		  unsigned scope, struct ipx_b5_tally *out);
void ipx_b5_spread(const struct ipx_b5_report *rep, size_t s, unsigned scope,
		   struct ipx_b5_spread *out);
/* The last scope there are figures for: every workstation's own, or in
 * simulated time only all together (no conversation filter there). */
unsigned ipx_b5_scopes(const struct ipx_b5_report *rep, size_t s);
/* "all" or "wsN" (in buf). */
const char *ipx_b5_scope_name(unsigned scope, char *buf, size_t len);
/* After a run a signal cut: only the sets that finished are reported. */
void ipx_b5_interrupted(struct ipx_b5_report *rep);
void ipx_b5_write_csv(FILE *out, const struct ipx_b5_report *rep);
void ipx_b5_write_json(FILE *out, const struct ipx_b5_report *rep,
		       ipx_bfs_conditions_fn cond, const void *ctx);

/* The shares per gap bucket (percent of the gaps counted); false when
 * there were none. */
bool ipx_bfs_gap_shares(const uint64_t gaps[IPX_ANALYZE_GAPS],
			double share[IPX_ANALYZE_GAPS]);

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
	struct ipx_b4_opts o;	/* after ipx_b4_interrupted: what finished */
	struct ipx_b4_rec r[IPX_BFS_MAX_REPEAT][IPX_BN_MAX_STATIONS];
	unsigned done;		/* runs finished */
	bool interrupted;	/* the JSON says "complete": false */
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
/* After a run a signal cut: the report describes only the runs that
 * finished (o.repeat = done) and its JSON says so. */
void ipx_b4_interrupted(struct ipx_b4_report *rep);
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
	int sizes;		/* sizes reported: all, or those that finished */
	int sizes_done;		/* sizes whose every run finished */
	bool interrupted;	/* the JSON says "complete": false */
	/* set by the caller: written as "fidelity" (NULL: none) */
	const struct ipx_fid_table *fidelity;
};

int ipx_b3_run(const struct ipx_b3_opts *o, ipx_bench_progress_fn progress,
	       void *ctx, struct ipx_b3_report *rep, char *err,
	       size_t errlen);
/* Size s over the repeats: copy i's median seconds (i == copies: the
 * average's median), with the averages' spread into avgs (may be NULL). */
double ipx_b3_median(const struct ipx_b3_report *rep, int s, unsigned i,
		     struct ipx_stat_summary *avgs);
/* After a run a signal cut: only the sizes that finished are reported. */
void ipx_b3_interrupted(struct ipx_b3_report *rep);
void ipx_b3_write_csv(FILE *out, const struct ipx_b3_report *rep);
/*
 * The fidelity tables (docs/fidelity.md): B2's one-workstation peak
 * Kbyte/s per test, B3's average seconds per size, the note's local or
 * bridged figures beside a --period run (model) and a --sim run of the
 * same (today; NULL: not measured). IPX_OK or IPX_ERANGE.
 */
int ipx_b2_fidelity(const struct ipx_b2_report *model,
		    const struct ipx_b2_report *today, bool bridged,
		    const char *period, struct ipx_fid_table *t);
int ipx_b3_fidelity(const struct ipx_b3_report *model,
		    const struct ipx_b3_report *today, bool bridged,
		    const char *period, struct ipx_fid_table *t);
void ipx_b3_write_json(FILE *out, const struct ipx_b3_report *rep,
		       ipx_bfs_conditions_fn cond, const void *ctx);

#ifdef __cplusplus
}
#endif

#endif
