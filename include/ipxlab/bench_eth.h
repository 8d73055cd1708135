/*
 * bench_eth.h - the Ethernet benchmark ("ipxlab bench eth",
 * src/bench/eth.c): the IPX datagram rate over the Ethernet link beside
 * plain AF_PACKET frames of the same length between the same two
 * interfaces, on the harness (bench_pair.h): a sender and a receiver
 * agent each entering its network namespace, the controller's node on a
 * third interface of the same segment. The rate is what the receiver
 * counts; the target that the IPX path reaches 80% of the raw rate.
 */
#ifndef IPXLAB_BENCH_ETH_H
#define IPXLAB_BENCH_ETH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ipxlab/bench_pair.h"
#include "ipxlab/bench_stat.h"
#include "ipxlab/frame.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IPX_BETH_MAX_REPEAT 100
#define IPX_BETH_TARGET 0.80

enum ipx_beth_path { IPX_BETH_RAW, IPX_BETH_IPX, IPX_BETH_PATHS };
extern const char *const ipx_beth_path_name[IPX_BETH_PATHS];

struct ipx_beth_opts {
	double seconds, warmup;	/* per path and run; warmup 0: none */
	unsigned long repeat;	/* 1 to IPX_BETH_MAX_REPEAT */
	size_t payload;		/* IPX payload bytes */
	enum ipx_frame_type frame;
	struct ipx_hnet_eth end[3];	/* sender, receiver, controller */
};

/* One path of one run. */
struct ipx_beth_res {
	double pps, mbps, loss, cpu_s, cpu_r;
	uint64_t sent, delivered;
};

struct ipx_beth_report {
	struct ipx_bpair net;	/* name and hooks the caller's */
	struct ipx_beth_res runs[IPX_BETH_MAX_REPEAT][IPX_BETH_PATHS];
	unsigned long done;	/* runs complete */
	bool interrupted;	/* Ctrl-C: the runs that finished */
	/* over the done runs: raw pkt/s, ipx pkt/s, ipx / raw */
	struct ipx_stat_summary sum[3];
};

enum ipx_beth_event {
	IPX_BETH_EV_READY,	/* the network is up */
	IPX_BETH_EV_PATH,	/* run 'run' (from 1) of path 'p' measured */
};

struct ipx_beth_hooks {
	void (*progress)(void *ctx, enum ipx_beth_event ev,
			 const struct ipx_beth_report *rep, unsigned long run,
			 enum ipx_beth_path p);
	void *ctx;
};

/* The frame bytes of one datagram (at least Ethernet's minimum). */
size_t ipx_beth_frame_len(const struct ipx_beth_opts *o);
/* Start the network, a warm-up run and o->repeat runs (every other one
 * the IPX path first), summarise, stop. IPX_OK also when a signal cut it
 * short; else an error in err. This process enters the controller's
 * namespace. */
int ipx_beth_run(const struct ipx_beth_opts *o, const struct ipx_beth_hooks *h,
		 struct ipx_beth_report *rep, char *err, size_t errlen);

struct ipx_jw;
typedef void (*ipx_beth_conditions_fn)(struct ipx_jw *w, const void *ctx);
void ipx_beth_write_json(FILE *out, const struct ipx_beth_opts *o,
			 const struct ipx_beth_report *rep,
			 ipx_beth_conditions_fn cond, const void *ctx);
void ipx_beth_write_csv(FILE *out, const struct ipx_beth_report *rep);

#ifdef __cplusplus
}
#endif

#endif
