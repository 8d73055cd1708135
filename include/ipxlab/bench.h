/*
 * bench.h - the SPX goodput benchmark ("ipxlab bench spx"): its mem rows
 * run their own nodes in this process, its udp rows on the harness
 * (bench_harness.h, bench_pair.h); what a benchmark records of the
 * machine is in bench_sys.h.
 */
#ifndef IPXLAB_BENCH_H
#define IPXLAB_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ipxlab/bench_pair.h"
#include "ipxlab/bench_stat.h"
#include "ipxlab/bench_sys.h"

#ifdef __cplusplus
extern "C" {
#endif

/* IPX datagrams in flight by default for a payload size (as 'bench
 * hub'): 1024 up to 512-byte packets, else 512. */
unsigned ipx_bench_default_window(size_t payload);

/*
 * ---- The SPX benchmark (src/bench/spxrate.c, "ipxlab bench spx") ----
 *
 * Bulk goodput (application bytes delivered per second) of SPX I and
 * SPX II, beside IPX datagrams of the same IPX packet size, on two links:
 *
 *   udp  sender node --UDP--> hub --UDP--> receiver node: three processes
 *        (fork) on 127.0.0.1, as the hub benchmark; SPX acknowledgements
 *        come back through the hub, IPX datagrams are paced by credits
 *        over a pipe (outside the path), as in the hub benchmark
 *   mem  both nodes in one process on an in-memory segment (no faults,
 *        no delay) with the real clock: what the stack itself costs
 *
 * Four rows per link, each a separate measurement:
 *
 *   ipx-small  IPX datagrams in 576-byte packets (546 payload bytes)
 *   spx1       SPX I: 576-byte packets (534 data bytes), stop-and-wait
 *   ipx-large  IPX datagrams in packets of SPX II's negotiated size (the
 *              link's MTU: 1424 bytes on the tunnel)
 *   spx2       SPX II at its negotiated size (1424 - 44 = 1380 data bytes)
 *
 * The rate is the receiver's delivered bytes between two marks over the
 * time between them on its own clock, after a warm-up.
 */
#define IPX_SPXB_DEFAULT_SECONDS 0.8
#define IPX_SPXB_DEFAULT_WARMUP 0.2
#define IPX_SPXB_DEFAULT_REPEAT 3
/* The IPX packet size of SPX I (and of the first IPX baseline). */
#define IPX_SPXB_SMALL_PACKET 576
/* The target: SPX II reaches 80% of IPX datagram goodput. */
#define IPX_SPXB_TARGET_RATIO 0.8

enum ipx_spxb_link { IPX_SPXB_MEM, IPX_SPXB_UDP, IPX_SPXB_LINKS };
enum ipx_spxb_kind { IPX_SPXB_IPX_SMALL, IPX_SPXB_SPX1, IPX_SPXB_IPX_LARGE,
		     IPX_SPXB_SPX2, IPX_SPXB_KINDS };

struct ipx_spxb_opts {
	double seconds;		/* measurement window per row */
	double warmup;		/* sending before the window opens */
	size_t mem_mtu;		/* the in-memory segment's MTU (default
				 * 1424, the tunnel's) */
	unsigned spx_window;	/* SPX II window; 0: the library's (32) */
	size_t send_queue;	/* SPX send queue; 0: the library's (64 KiB) */
	unsigned ipx_window;	/* IPX rows: datagrams in flight; 0: the hub
				 * benchmark's default for the size */
};

struct ipx_spxb_result {
	enum ipx_spxb_link link;
	enum ipx_spxb_kind kind;
	size_t packet;		/* IPX packet bytes, headers included */
	size_t payload;		/* application bytes per full packet */
	/* the measurement window, at the receiver */
	double seconds;
	uint64_t bytes, packets;
	double goodput;		/* application bytes per second */
	double pps;		/* packets delivered per second */
	/* SPX rows: the connection as negotiated, and its sender's view */
	int version;		/* 1 or 2; 0 for IPX rows */
	unsigned window;	/* packets in flight allowed */
	double srtt_us, rto_us;	/* at the end of the window */
	uint64_t rtt_samples;
	uint64_t tx_data, retransmits, timeouts, naks_rx, acks_rx;
				/* during the window */
	/* IPX rows, the whole run: datagrams sent and delivered */
	uint64_t sent, delivered;
	/* CPU time / wall time during the window (mem: one process) */
	double cpu_sender, cpu_hub, cpu_receiver;
	double machine_busy;	/* every CPU's non-idle time, in CPUs */
};

void ipx_spxb_opts_default(struct ipx_spxb_opts *o);
/* Application bytes one full packet of a row carries. */
size_t ipx_spxb_payload(size_t packet, enum ipx_spxb_kind kind);
/* The IPX packet size of a row on a link (ipx-large and spx2: the MTU). */
size_t ipx_spxb_packet_size(const struct ipx_spxb_opts *o,
			    enum ipx_spxb_link link, enum ipx_spxb_kind kind);
/*
 * Measure one row once. udp: forks the hub, receiver and sender and
 * reaps them all, whatever happens. Returns 0, or a negative ipx_err with
 * a message in err.
 */
int ipx_spxb_run(const struct ipx_spxb_opts *o, enum ipx_spxb_link link,
		 enum ipx_spxb_kind kind, struct ipx_spxb_result *out,
		 char *err, size_t errlen);
const char *ipx_spxb_link_name(enum ipx_spxb_link link);
const char *ipx_spxb_kind_name(enum ipx_spxb_kind kind);

/*
 * ---- The whole SPX benchmark (src/bench/spx.c) ----
 *
 * 'repeat' runs of every row of the chosen links: udp rows on the two
 * agents of the harness (bench_pair.h) after one uncounted warm-up pass,
 * mem rows with ipx_spxb_run; every other run goes backwards, so no row
 * always comes first or last. Then the ratio of each SPX row to the IPX
 * row of its packet size, summarised over the runs.
 */
#define IPX_SPXB_MAX_REPEAT 100
/* srtt counts whole microseconds: below this it says little. */
#define IPX_SPXB_MIN_SRTT_US 10

/* One run's rows: [link][kind]. */
typedef struct ipx_spxb_result ipx_spxb_rows[IPX_SPXB_LINKS][IPX_SPXB_KINDS];

struct ipx_spxb_bench_opts {
	struct ipx_spxb_opts row;
	unsigned long repeat;	/* 1 to IPX_SPXB_MAX_REPEAT */
	bool links[IPX_SPXB_LINKS];
};

enum ipx_spxb_event {
	IPX_SPXB_EV_READY,	/* the network is up; nothing measured yet */
	IPX_SPXB_EV_MEM_ROW,	/* a mem row of run 'run' begins */
	IPX_SPXB_EV_RUN,	/* run 'run' is complete (rep->done runs) */
};

struct ipx_spxb_report {
	/* the udp rows' network: set its name and hooks (progress line,
	 * Ctrl-C) before the run; its conditions stay after it */
	struct ipx_bpair net;
	ipx_spxb_rows runs[IPX_SPXB_MAX_REPEAT];
	unsigned long done;	/* runs complete */
	bool interrupted;	/* a signal or 'cancelled' ended it early */
	/* over the 'done' runs */
	struct ipx_stat_summary ratio[IPX_SPXB_LINKS][IPX_SPXB_KINDS];
	bool met[IPX_SPXB_LINKS];	/* SPX II ratio >= target */
	bool met_all;
};

/*
 * Progress: 'ev' with the run it concerns (from 1) and, for a mem row,
 * the row. 'cancelled' (may be NULL) is asked between rows: true ends
 * the run early, as SIGINT on the network's loop does.
 */
struct ipx_spxb_hooks {
	void (*progress)(void *ctx, enum ipx_spxb_event ev,
			 const struct ipx_spxb_report *rep, unsigned long run,
			 enum ipx_spxb_kind kind);
	bool (*cancelled)(void *ctx);
	void *ctx;
};

/*
 * Run the benchmark into rep (rep->net's name and hooks set by the
 * caller, the rest zeroed here). IPX_OK also when interrupted (then
 * rep->interrupted, and rep has the runs that finished); else an error
 * with a message naming the row ("udp spx1, run 2: ...") in err.
 * The network is stopped either way.
 */
int ipx_spxb_bench(const struct ipx_spxb_bench_opts *o,
		   const struct ipx_spxb_hooks *hooks,
		   struct ipx_spxb_report *rep, char *err, size_t errlen);
/* The rate SPX I's round trip allows: one packet of data per RTT (0
 * when srtt is below IPX_SPXB_MIN_SRTT_US). */
double ipx_spxb_rtt_bound(const struct ipx_spxb_result *r);
/* The ratio of an SPX row to the IPX row of the same packet size. */
double ipx_spxb_ratio(const struct ipx_spxb_result *row,
		      const struct ipx_spxb_result *base);
/* CPUs kept busy by anything but this row's processes in its window. */
double ipx_spxb_other(const struct ipx_spxb_result *r);
/* The IPX row an SPX row is compared with. */
const struct ipx_spxb_result *ipx_spxb_base(const ipx_spxb_rows *run,
					    enum ipx_spxb_link l,
					    enum ipx_spxb_kind k);
/* The summary over rep's done runs of f(row) for each run's [l][k]. */
void ipx_spxb_spread(const struct ipx_spxb_report *rep, enum ipx_spxb_link l,
		     enum ipx_spxb_kind k,
		     double (*f)(const struct ipx_spxb_result *r, void *ctx),
		     void *ctx, struct ipx_stat_summary *out);

/* Figures of a row for ipx_spxb_spread (ctx: NULL, or a double to
 * scale by): goodput, the rate SPX I's round trip allows, microseconds
 * per packet, srtt, and goodput over that bound. */
double ipx_spxb_fig_goodput(const struct ipx_spxb_result *r, void *ctx);
double ipx_spxb_fig_bound(const struct ipx_spxb_result *r, void *ctx);
double ipx_spxb_fig_us_per_packet(const struct ipx_spxb_result *r, void *ctx);
double ipx_spxb_fig_srtt(const struct ipx_spxb_result *r, void *ctx);
double ipx_spxb_fig_reach(const struct ipx_spxb_result *r, void *ctx);

/* The JSON and CSV of a report (src/bench/spx_write.c, bench_result.h);
 * the JSON's "conditions" member from cond (NULL: none), and
 * "complete": false when rep->interrupted. */
struct ipx_jw;
typedef void (*ipx_spxb_conditions_fn)(struct ipx_jw *w, const void *ctx);
void ipx_spxb_write_json(FILE *out, const struct ipx_spxb_bench_opts *o,
			 const struct ipx_spxb_report *rep,
			 ipx_spxb_conditions_fn cond, const void *ctx);
void ipx_spxb_write_csv(FILE *out, const struct ipx_spxb_bench_opts *o,
			const struct ipx_spxb_report *rep);

#ifdef __cplusplus
}
#endif

#endif
