/*
 * bench_b9.h - B9, the 1990 buffer and frame-size tuning of LAN Manager on
 * Token-Ring (docs/benchmarks.md, "B9"), as one run: large reads and large
 * writes over NetBIOS sessions and over NCP, with 1 and 6 workstations,
 * (NetBIOS's six: six sessions at once to one server node, one
 * adapter, as LAN Manager's server took them),
 * on the file-server network in one process (bench_sim.h: simulated time,
 * or the same network on the real clock), for each configuration of the
 * adapters' buffers (link_profile.h, struct ipx_adapter), one parameter
 * changed at a time from a baseline, as the note did: the transmit buffer
 * size (256 bytes to 4 KB, on every station: the frame a session uses is
 * the smaller side's), one or two transmit buffers, and the receive buffer
 * size on the workstations and on the server. Besides, the wire ceiling:
 * back-to-back 2,000-byte frames from one station with the baseline
 * adapter. The figures land in a report that the writers (JSON, CSV) and
 * the command's table read.
 */
#ifndef IPXLAB_BENCH_B9_H
#define IPXLAB_BENCH_B9_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ipxlab/bench_fidelity.h"
#include "ipxlab/bench_result.h"
#include "ipxlab/link_profile.h"
#include "ipxlab/loop.h"
#include "ipxlab/machine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The workloads: NetBIOS 1 workstation read and write, NCP 1 and 6
 * workstations read and write, NetBIOS 6 workstations read and write
 * (six sessions at once to one server node, one adapter). */
enum ipx_b9_proto { IPX_B9_NETBIOS, IPX_B9_NCP };
enum ipx_b9_dir { IPX_B9_READ, IPX_B9_WRITE };
#define IPX_B9_WORKLOADS 8
#define IPX_B9_MAX_STATIONS 6

struct ipx_b9_workload {
	enum ipx_b9_proto proto;
	enum ipx_b9_dir dir;
	unsigned stations;
};
extern const struct ipx_b9_workload ipx_b9_workloads[IPX_B9_WORKLOADS];
/* "netbios read 1 ws" */
const char *ipx_b9_workload_name(unsigned w);

/* The configurations, in the order run: the baseline, then each one
 * changing one parameter from it. */
enum ipx_b9_param {
	IPX_B9_BASE,
	IPX_B9_TX_SIZE,		/* every station's transmit buffer size */
	IPX_B9_TX_BUFS,		/* two transmit buffers on every station */
	IPX_B9_RX_WS,		/* the workstations' receive buffer size */
	IPX_B9_RX_SRV,		/* the server's receive buffer size */
};
#define IPX_B9_MAX_CONFIGS 12

struct ipx_b9_config {
	enum ipx_b9_param param;
	uint32_t value;			/* the parameter's value */
	struct ipx_adapter ws, srv;	/* the two sides' adapters */
};

/* The note's changes, each between two configurations (by parameter and
 * value); pub_lo..pub_hi percent, NAN where the note gives none. */
#define IPX_B9_CHANGES 9
struct ipx_b9_change {
	const char *step;		/* "tx 256 -> 1K" */
	enum ipx_b9_param from_p, to_p;
	uint32_t from_v, to_v;
	double pub_lo, pub_hi;		/* percent */
	const char *pub_note;		/* the note's words */
	/* the workloads the published figure is about (a bit per
	 * workload); all: the note does not narrow it */
	unsigned pub_workloads;
};
extern const struct ipx_b9_change ipx_b9_changes[IPX_B9_CHANGES];

struct ipx_b9_opts {
	struct ipx_profile profile;	/* the wire (tr16 by default) */
	struct ipx_adapter base;	/* the baseline adapter, both sides */
	/* The server's side's baseline when it differs (a period's server
	 * adapter); memory 0: 'base' */
	struct ipx_adapter base_srv;
	/* Non-NULL (--period, simulated time only): the server and the
	 * workstations on its machines (bench_sim.h), the NetBIOS server
	 * side on the file server's node and machine (LAN Manager's
	 * server), the ceiling's frames sent through the server's machine;
	 * then the fidelity table (b9_fidelity.c) with today's run (the
	 * same without the period) and the ISA/MCA server comparison. */
	const struct ipx_period *period;
	double seconds;			/* per workload and configuration */
	uint64_t seed;
	bool sim;			/* simulated time, else the real clock */
	/* called with each loop the run builds (Ctrl-C: the caller stops
	 * it on SIGINT; the run then returns IPX_ECLOSED) */
	void (*on_loop)(struct ipx_loop *loop, void *ctx);
	void *ctx;
};

struct ipx_b9_point {
	double kbs;		/* kB/s (1000 bytes) of data, all stations */
	double kbs_ws_min;	/* the slowest workstation's share */
	double kbs_ws[IPX_B9_MAX_STATIONS];	/* each workstation's */
	uint32_t frame_up;	/* largest frame a workstation sent, bytes
				 * (IPX + link header) */
	uint32_t frame_down;	/* largest frame the server sent */
	uint64_t rx_drops;	/* frames the adapters had no buffer for */
	bool done;
	/* not run: NCP needs a 512-byte buffer, IPX packets of 566 bytes
	 * (transmit buffers of 583 bytes on Token-Ring), which 256- and
	 * 512-byte transmit buffers do not hold */
	bool skipped;
};
/* The smallest transmit buffer (link header included) NCP runs over. */
#define IPX_B9_NCP_MIN_IPX 566

/* The wire ceiling: back-to-back frames of 2,000 bytes. */
#define IPX_B9_CEILING_FRAME 2000
#define IPX_B9_CEILING_FRAMES 30	/* 59,490 bytes: within the queue */
struct ipx_b9_ceiling {
	double kbs;		/* kB/s of frames, measured */
	double frame_ms;	/* milliseconds per frame */
	double wire_kbs;	/* the wire alone (no copy), kB/s */
	bool done;
};

/* The 1990 figures (docs/benchmarks.md, B9), in the note's KB/s: its KB
 * is 1,024 bytes (651 KB/s is a 2,000-byte frame every 3 ms, 666,667
 * bytes/s), and the same figures in ipxlab's kB/s (1000 bytes). */
#define IPX_B9_NOTE_KB 1024.0
#define IPX_B9_PUB_CEILING_KBS_NOTE 651.0 /* a 2,000-byte frame every 3 ms */
#define IPX_B9_PUB_SIX_KBS_NOTE 536.0	/* six workstations together */
#define IPX_B9_PUB_CEILING_KBS (2000.0 / 3.0)	/* 666.7 kB/s */
#define IPX_B9_PUB_SIX_KBS (IPX_B9_PUB_SIX_KBS_NOTE * IPX_B9_NOTE_KB / 1000)

/* The fidelity table's extra runs (a --period run). */
struct ipx_b9_fid_runs {
	double isa_kbs, mca_kbs;	/* nb rd6 at the baseline, the
					 * period's server on each bus */
	char isa[IPX_MACHINE_NAME], mca[IPX_MACHINE_NAME]; /* adapters */
};

struct ipx_b9_report {
	struct ipx_b9_opts o;
	struct ipx_b9_config cfg[IPX_B9_MAX_CONFIGS];
	size_t ncfg;
	struct ipx_b9_point pt[IPX_B9_MAX_CONFIGS][IPX_B9_WORKLOADS];
	struct ipx_b9_ceiling ceiling;
	bool complete;		/* every point measured */
	bool interrupted;
	/* a --period run: the table (1990 | as 1990 | error | today) */
	bool have_fid;
	struct ipx_fid_table fid;
	struct ipx_b9_fid_runs fr;
};

/* The baseline adapter ipxlab uses (docs/benchmarks.md, B9): 16 KB, one
 * 2 KB transmit buffer, 1 KB receive buffers, 8 Mbit/s copies, 20 us per
 * receive buffer. */
void ipx_b9_default_adapter(struct ipx_adapter *out);

/*
 * Build the configurations of o into rep (zeroed first) and check that
 * each fits the adapter memory: IPX_OK, or IPX_ECONFIG with the first
 * that does not fit and its arithmetic in err ("the step 'tx buffers 2':
 * adapter memory 8192 bytes cannot hold ..."). ipx_b9_run does this
 * first; a command calls it to refuse before it starts anything.
 */
int ipx_b9_plan(const struct ipx_b9_opts *o, struct ipx_b9_report *rep,
		char *err, size_t errlen);

/*
 * Run: the ceiling, then every configuration's workloads; progress gets
 * "tuning k/n: ..." lines and NULL at the end. IPX_OK; IPX_ECLOSED when
 * a loop was stopped (rep->interrupted, what finished has done set); or
 * an error with its message in err.
 */
int ipx_b9_run(const struct ipx_b9_opts *o, ipx_bench_progress_fn progress,
	       void *ctx, struct ipx_b9_report *rep, char *err,
	       size_t errlen);

/*
 * One workload on a network of its own with adapters c->ws (every
 * workstation) and c->srv (the server and NetBIOS's server side): what
 * ipx_b9_run does for each point, for tests and single measurements.
 * IPX_OK or an error with its message in err.
 */
int ipx_b9_measure(const struct ipx_b9_opts *o, const struct ipx_b9_config *c,
		   unsigned workload, struct ipx_b9_point *out, char *err,
		   size_t errlen);

/*
 * The fidelity table of a --period report from it, today's report (the
 * same run without the period; NULL: no today column) and the ISA/MCA
 * runs: rows for the 1990 figures B9 measures (docs/fidelity-b9.md).
 */
void ipx_b9_fidelity(const struct ipx_b9_report *rep,
		     const struct ipx_b9_report *today,
		     const struct ipx_b9_fid_runs *fr,
		     struct ipx_fid_table *out);

/* Percent change of workload w from one configuration to another
 * (NAN when either is not measured or the first is 0). */
double ipx_b9_change_pct(const struct ipx_b9_report *rep,
			 const struct ipx_b9_change *c, unsigned w);
/* The configuration with parameter p at value v, or -1. */
int ipx_b9_find(const struct ipx_b9_report *rep, enum ipx_b9_param p,
		uint32_t v);
/* "baseline", "tx size 512", "tx buffers 2", "rx ws 2048" */
void ipx_b9_config_name(const struct ipx_b9_config *c, char *buf,
			size_t len);

/* The writers; cond (may be NULL) adds the caller's "conditions". */
void ipx_b9_write_json(FILE *out, const struct ipx_b9_report *rep,
		       void (*cond)(struct ipx_jw *w, const void *ctx),
		       const void *ctx);
void ipx_b9_write_csv(FILE *out, const struct ipx_b9_report *rep);

#ifdef __cplusplus
}
#endif

#endif
