/*
 * bench_b8.h - B8, the retrieval test bench (imaging, docs/benchmarks.md):
 * N workstations (default 18, as the note had) each retrieve the
 * fixtures' images (IPX_BN_IMAGES, bench_ncp.h) one after another in an
 * order of their own, never one twice, no client cache (open, read all,
 * close); the total time, the initial lag (go to the first retrieval's
 * end), each workstation's completion time, and the server's CPU
 * sampled every 100 ms (its own user + system time; with sim, requests
 * served x IPX_B8_SIM_REQUEST_US), as a series, its median (baseline)
 * and peak. Four configurations as the note's four client set-ups: the
 * client (one request at a time, as the 16-bit shell, or packet burst,
 * as the 32-bit client) x the workstations' driver (batched system
 * calls, or one frame per system call: ipx_link.single_frame). A burst
 * configuration the server does not grant (a one-image probe run first)
 * is "burst not offered".
 */
#ifndef IPXLAB_BENCH_B8_H
#define IPXLAB_BENCH_B8_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "ipxlab/bench_fidelity.h"
#include "ipxlab/bench_fs.h"
#include "ipxlab/bench_ncp.h"
#include "ipxlab/bench_result.h"
#include "ipxlab/link_profile.h"
#include "ipxlab/loop.h"
#include "ipxlab/machine.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ncp_server;
struct ipx_host;

#define IPX_B8_STATIONS 18	/* the note's workstations */
#define IPX_B8_CONFIGS 4
#define IPX_B8_BUFFER 4096u	/* the NCP buffer asked for (link caps) */
#define IPX_B8_TIMEOUT 3600.0	/* seconds a run may take */
/* --sim: the server's simulated cost of one NCP request (2222), in
 * microseconds of CPU (a model figure of ipxlab's, not measured) */
#define IPX_B8_SIM_REQUEST_US 200.0
#define IPX_B8_MAX_SAMPLES 12000	/* 20 minutes at 100 ms */
/* The note's figures (benchmarks.md B8): CPU baselines, "about". */
#define IPX_B8_PUBLISHED_STRAIGHT_PCT 13.0
#define IPX_B8_PUBLISHED_HYBRID_PCT 20.0

struct ipx_b8_config {
	const char *name;	/* "request/batched", ... */
	bool burst;		/* the client: packet burst (32-bit) */
	bool single_frame;	/* the driver: one frame per call (16-bit) */
	const char *note;	/* the note's set-up, client/driver: "16/32" */
	unsigned note_rank;	/* its place in the note's total time, 1..4 */
};
const struct ipx_b8_config *ipx_b8_config(unsigned k);

struct ipx_b8_opts {
	struct ipx_bfs_net net;
	struct ipx_loop *loop;	/* the controller's: the sampler runs on it */
	pid_t server_pid;	/* real time: the server process; 0: none */
	struct ncp_server *sim_server;	/* sim: the server in this process */
	/* sim on a period: the server's machine (host.h); its CPU is the
	 * CPU sampled, not the requests' cost */
	struct ipx_host *sim_host;
	unsigned stations;	/* 1..IPX_BN_MAX_STATIONS */
	unsigned files;		/* per workstation, 1..IPX_BN_IMAGES */
	bool only[IPX_B8_CONFIGS];
};

enum ipx_b8_status {
	IPX_B8_NOT_RUN,
	IPX_B8_MEASURED,
	IPX_B8_NO_BURST,	/* burst asked for, not granted */
};

struct ipx_b8_ws {
	uint64_t files;		/* retrievals completed */
	double done_s;		/* go to its last retrieval's end */
	double first_s;		/* go to its first retrieval's end */
};

struct ipx_b8_result {
	enum ipx_b8_status status;
	uint16_t granted;	/* the buffer the server granted */
	struct ipx_b8_ws ws[IPX_BN_MAX_STATIONS];
	double total_s;		/* the last workstation's done_s */
	double lag_s;		/* the first retrieval's end of all */
	double min_s, median_s, max_s;	/* over the workstations' done_s */
	uint64_t image_bytes;	/* bytes of images retrieved in all */
	/* the server's CPU, percent of one CPU per 100 ms from the run's
	 * start (PREPARE); cpu_measured false: no server process here */
	bool cpu_measured;
	double cpu[IPX_B8_MAX_SAMPLES];
	size_t ncpu, cpu_dropped;
	double cpu_base, cpu_peak;	/* median and largest sample */
};

struct ipx_b8_report {
	struct ipx_b8_opts o;
	struct ipx_b8_result r[IPX_B8_CONFIGS];
	bool interrupted;
	/* --period (ipx_b8_run_period): the period each configuration ran
	 * on ("" none), the fidelity table and whether the ranking is the
	 * note's (the writers add them when fidelity is set) */
	char period[IPX_B8_CONFIGS][IPX_MACHINE_NAME];
	const struct ipx_fid_table *fidelity;
	bool order_checked, order_match;
};

/* Every chosen configuration in turn; an error (a signal among them)
 * stops it with what finished kept. rep is large: allocate it. */
int ipx_b8_run(const struct ipx_b8_opts *o, ipx_bench_progress_fn progress,
	       void *ctx, struct ipx_b8_report *rep, char *err, size_t errlen);
void ipx_b8_interrupted(struct ipx_b8_report *rep);
const char *ipx_b8_status_name(enum ipx_b8_status st);
/* The measured configurations from the fastest (total time; equal: the
 * lower CPU baseline, then k) into order[]; how many. */
unsigned ipx_b8_rank(const struct ipx_b8_report *rep,
		     unsigned order[IPX_B8_CONFIGS]);
/* Configuration k's place in ipx_b8_rank (1..), 0 when not measured. */
unsigned ipx_b8_place(const struct ipx_b8_report *rep, unsigned k);
/* Where the CPU figures come from, for the text and the JSON. */
const char *ipx_b8_cpu_source(const struct ipx_b8_report *rep);

/*
 * --period (docs/benchmarks.md, B8; docs/fidelity.md): every chosen
 * configuration in simulated time on a network of its own (bench_sim.h)
 * whose server and workstations are the period's machines. A
 * configuration runs on the period "SPEC-C-D" when there is one (C/D its
 * note's client/driver bits: imaging-16-32; a built-in name, or for a
 * file SPEC.period the file SPEC-C-D.period beside it), else on the
 * period given. With today, the same run once more on the wire alone
 * (no machines: --sim), for the fidelity table's "today". Then the
 * fidelity table (the note's figures: the initial lags of 32/32 and
 * 16/16, the four CPU baselines, the 32-bit client's gain) and the
 * ranking against the note's.
 */
struct ipx_b8_period_opts {
	const struct ipx_period *period;	/* the one given */
	const char *spec;	/* as given (NAME or FILE): its set-ups */
	const struct ipx_profile *profile;	/* NULL: the period's wire */
	unsigned stations, files;
	uint64_t seed;
	bool only[IPX_B8_CONFIGS];
	bool today;
};

struct ipx_b8_period_report {
	struct ipx_b8_report rep;	/* on the period machines */
	struct ipx_b8_report today;	/* the wire alone, when asked */
	bool have_today;
	struct ipx_fid_table fid;
	double sim_seconds;		/* simulated, all networks */
};

/* The 32-bit client's gain in percent: the 16-bit client's mean total
 * time (16/16, 16/32) over the 32-bit client's (32/16, 32/32), less
 * one; NaN unless all four were measured. */
double ipx_b8_client_gain_pct(const struct ipx_b8_report *rep);
/* rep and today are large: allocate out. IPX_OK or an error. */
int ipx_b8_run_period(const struct ipx_b8_period_opts *o,
		      ipx_bench_progress_fn progress, void *ctx,
		      struct ipx_b8_period_report *out, char *err,
		      size_t errlen);

void ipx_b8_write_csv(FILE *out, const struct ipx_b8_report *rep);
void ipx_b8_write_json(FILE *out, const struct ipx_b8_report *rep,
		       ipx_bfs_conditions_fn cond, const void *ctx);

#ifdef __cplusplus
}
#endif

#endif
