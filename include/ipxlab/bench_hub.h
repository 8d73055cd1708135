/*
 * bench_hub.h - the hub benchmark ("ipxlab bench hub", src/bench/hub.c):
 * the hub's forwarding rate on the harness's two agents (bench_pair.h).
 * Each pass runs the plain path (the UDP baseline workload: one hop, no
 * IPX, no hub) and the hub path (IPX datagrams through the hub), both
 * with the same credit window; the figure is the receiver's delivered
 * rate, and the target that the hub path carries at least half the
 * plain rate. The report is written as JSON and CSV here (bench_result.h).
 */
#ifndef IPXLAB_BENCH_HUB_H
#define IPXLAB_BENCH_HUB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ipxlab/bench_pair.h"
#include "ipxlab/bench_stat.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IPX_BHUB_MAX_REPEAT 100
#define IPX_BHUB_TARGET_RATIO 0.5

enum ipx_bhub_path { IPX_BHUB_PLAIN, IPX_BHUB_HUB, IPX_BHUB_PATHS };
enum ipx_bhub_role { IPX_BHUB_SND, IPX_BHUB_HUBP, IPX_BHUB_RCV,
		     IPX_BHUB_ROLES };

extern const char *const ipx_bhub_path_name[IPX_BHUB_PATHS];
extern const char *const ipx_bhub_role_name[IPX_BHUB_ROLES];

struct ipx_bhub_opts {
	double seconds, warmup;	/* per path and run; warmup 0: none */
	unsigned long repeat;	/* 1 to IPX_BHUB_MAX_REPEAT */
	unsigned window;	/* datagrams in flight; 0: flood */
	size_t payload;		/* IPX payload bytes */
	int pin[IPX_BHUB_PATHS][IPX_BHUB_ROLES];	/* -1: not pinned */
	bool pinned;
	const char *pcap;	/* the hub records to it, or NULL */
};

/* One path, one run. */
struct ipx_bhub_res {
	double pps, mbps, loss, seconds;
	uint64_t sent, send_errors, delivered, lost, stalls;
	double busy, steal, ours;	/* CPUs over the run */
	double other;		/* busy - ours, at least 0 */
	bool present[IPX_BHUB_ROLES];
	double cpu[IPX_BHUB_ROLES], user[IPX_BHUB_ROLES],
		sys[IPX_BHUB_ROLES];	/* share of a CPU */
	int last_cpu[IPX_BHUB_ROLES];
};

struct ipx_bhub_summary {
	struct ipx_stat_summary pps[IPX_BHUB_PATHS], mbps[IPX_BHUB_PATHS],
		loss[IPX_BHUB_PATHS];
	struct ipx_stat_summary ratio, other;
	bool met;
};

struct ipx_bhub_report {
	/* set its name and hooks before the run; its conditions stay */
	struct ipx_bpair net;
	struct ipx_bhub_res runs[IPX_BHUB_MAX_REPEAT][IPX_BHUB_PATHS];
	unsigned long done;	/* runs complete */
	bool interrupted;	/* Ctrl-C: rep has the runs that finished */
	struct ipx_bhub_summary sum;	/* over the done runs */
};

enum ipx_bhub_event {
	IPX_BHUB_EV_READY,	/* the network is up */
	IPX_BHUB_EV_PATH,	/* run 'run' (from 1) of path 'p' measured */
};

struct ipx_bhub_hooks {
	void (*progress)(void *ctx, enum ipx_bhub_event ev,
			 const struct ipx_bhub_report *rep, unsigned long run,
			 enum ipx_bhub_path p);
	void *ctx;
};

/*
 * Start the network, run the warm-up pass and o->repeat passes (every
 * other one the hub path first), summarise, stop the network. IPX_OK
 * also when a signal cut it short (rep->interrupted); else an error
 * with a message in err. rep->net's name and hooks are the caller's.
 */
int ipx_bhub_run(const struct ipx_bhub_opts *o, const struct ipx_bhub_hooks *h,
		 struct ipx_bhub_report *rep, char *err, size_t errlen);
/* "not pinned", or "pinned: hub path S0 H1 R0, plain S0 R1". */
void ipx_bhub_placement(const struct ipx_bhub_opts *o, char *buf,
			size_t len);

struct ipx_jw;
typedef void (*ipx_bhub_conditions_fn)(struct ipx_jw *w, const void *ctx);
/* The report as JSON ("conditions" from cond) and as CSV. */
void ipx_bhub_write_json(FILE *out, const struct ipx_bhub_opts *o,
			 const struct ipx_bhub_report *rep,
			 ipx_bhub_conditions_fn cond, const void *ctx);
void ipx_bhub_write_csv(FILE *out, const struct ipx_bhub_report *rep);

#ifdef __cplusplus
}
#endif

#endif
