/*
 * bench_netbios.h - the NetBIOS benchmark ("ipxlab bench netbios",
 * src/bench/netbios.c): NetBIOS datagram and session message rates
 * beside IPX on the harness's two agents (bench_pair.h). Each pass runs
 * five workloads: the IPX echo (round trips), IPX and NetBIOS datagrams
 * under a credit window, and NetBIOS session SENDs of 'size' and of
 * 65,535 bytes. The report is written as JSON and CSV here.
 */
#ifndef IPXLAB_BENCH_NETBIOS_H
#define IPXLAB_BENCH_NETBIOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ipxlab/bench_pair.h"
#include "ipxlab/bench_stat.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IPX_BNB_MAX_REPEAT 20
#define IPX_BNB_WARMUP 0.2	/* seconds of each row's warm-up */
#define IPX_BNB_ECHO_SIZE 32	/* the round trips' packets */

enum ipx_bnb_row { IPX_BNB_RTT, IPX_BNB_IPX, IPX_BNB_NB, IPX_BNB_SESSION,
		   IPX_BNB_BIG, IPX_BNB_ROWS };

struct ipx_bnb_row_info {
	const char *json, *unit;
	bool timed;		/* a per-send time (round trip, SEND) */
	enum ipx_bw_kind kind;
};
extern const struct ipx_bnb_row_info ipx_bnb_rows[IPX_BNB_ROWS];
/* Session data per packet on the tunnel (what a 65,535-byte SEND is cut
 * into): its largest IPX payload less the session header. */
extern const int ipx_bnb_session_data;

struct ipx_bnb_opts {
	double seconds;		/* per row and run */
	unsigned long repeat;	/* 1 to IPX_BNB_MAX_REPEAT */
	size_t size;		/* datagram and session message bytes */
	unsigned window;	/* datagrams in flight */
};

/* One row, one run. */
struct ipx_bnb_rate {
	double seconds;		/* the sender's (datagrams: receiver's) */
	uint64_t count;		/* round trips, datagrams or messages */
	double rate;		/* count per second */
	double p50_us, p99_us;	/* per round trip or SEND */
	uint64_t sent, delivered, stalls, retransmits;
};

struct ipx_bnb_report {
	struct ipx_bpair net;	/* name and hooks the caller's */
	struct ipx_bnb_rate runs[IPX_BNB_MAX_REPEAT][IPX_BNB_ROWS];
	unsigned long done;	/* runs complete */
	bool interrupted;	/* Ctrl-C: the runs that finished */
};

/* The network is up (before any row): e.g. print a header. */
struct ipx_bnb_hooks {
	void (*ready)(void *ctx, const struct ipx_bnb_report *rep);
	void *ctx;
};

/* Start the network, a warm-up pass and o->repeat passes, stop it.
 * IPX_OK also when a signal cut it short; else an error in err. */
int ipx_bnb_run(const struct ipx_bnb_opts *o, const struct ipx_bnb_hooks *h,
		struct ipx_bnb_report *rep, char *err, size_t errlen);

enum ipx_bnb_figure { IPX_BNB_RATE, IPX_BNB_P50, IPX_BNB_P99 };
/* A figure of a row over the done runs, and a row's loss over them. */
struct ipx_stat_summary ipx_bnb_spread(const struct ipx_bnb_report *rep,
				       enum ipx_bnb_row r,
				       enum ipx_bnb_figure f);
double ipx_bnb_loss(const struct ipx_bnb_report *rep, enum ipx_bnb_row r);

struct ipx_jw;
typedef void (*ipx_bnb_conditions_fn)(struct ipx_jw *w, const void *ctx);
void ipx_bnb_write_json(FILE *out, const struct ipx_bnb_opts *o,
			const struct ipx_bnb_report *rep,
			ipx_bnb_conditions_fn cond, const void *ctx);
void ipx_bnb_write_csv(FILE *out, const struct ipx_bnb_report *rep);

#ifdef __cplusplus
}
#endif

#endif
