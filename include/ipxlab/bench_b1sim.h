/*
 * bench_b1sim.h - B1, the protocol comparison, in simulated time
 * (`ipxlab bench protocols --sim`, `--period`, docs/benchmarks.md): the
 * whole network in this process on a fake clock and one loop, a sender
 * node and a receiver node on an in-memory segment with a link profile
 * (tr4, the 1990 wire of B1, by default), the four interfaces of 1990 in
 * turn (IPX datagrams, SPX session, NetBIOS datagram, NetBIOS session),
 * 'count' packets of 'size' bytes each, every send complete before the
 * next starts:
 *
 *   IPX and NetBIOS datagram  complete when the frame has left the
 *                             sender's adapter onto the wire (transmit
 *                             complete; a promiscuous probe on the
 *                             segment sees it there);
 *   SPX and NetBIOS session   complete when ipxlab's own stack completes
 *                             the send: its acknowledgement is back
 *                             (stop-and-wait).
 *
 * The receiver counts what arrived (delivered). With a period (machine.h)
 * both nodes run on its station machine (host.h) with its adapter, on
 * its wire unless a profile is given: the model of the 1990 machines.
 * Without one only the wire takes time. The same options give the same
 * run, packet for packet.
 */
#ifndef IPXLAB_BENCH_B1SIM_H
#define IPXLAB_BENCH_B1SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ipxlab/bench_fidelity.h"
#include "ipxlab/bench_work.h"
#include "ipxlab/link_profile.h"
#include "ipxlab/machine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The four interfaces of 1990, in print order. */
#define IPX_B1SIM_ROWS 4
extern const enum ipx_bw_kind ipx_b1sim_kinds[IPX_B1SIM_ROWS];

struct ipx_b1sim_opts {
	/* The segment's link; NULL: the period's wire, else tr4. */
	const struct ipx_profile *profile;
	/* Non-NULL: both nodes on its station machine. */
	const struct ipx_period *period;
	uint64_t seed;
	uint32_t count;		/* sends per interface (0: 2,000) */
	size_t size;		/* payload bytes (0: 255) */
};

struct ipx_b1sim_row {
	enum ipx_bw_kind kind;
	uint64_t sent;		/* sends completed */
	uint64_t delivered;	/* counted by the receiver */
	uint64_t retransmits;	/* session kinds */
	uint64_t rx_no_buffer;	/* frames the receiver's adapter dropped */
	double seconds;		/* first send to the last completion */
	double pps;		/* sent / seconds */
	double ref_pps;		/* 1990 */
	/* of the sender's and the receiver's CPU time per send (period) */
	double snd_cpu_us, rcv_cpu_us;
};

struct ipx_b1sim_report {
	char profile[32];	/* the wire */
	char period[32];	/* "" without a period */
	uint64_t seed;
	uint32_t count;
	size_t size;
	struct ipx_b1sim_row row[IPX_B1SIM_ROWS];
};

/* Run the four interfaces. IPX_OK, or an error with a message in err. */
int ipx_b1sim_run(const struct ipx_b1sim_opts *o,
		  struct ipx_b1sim_report *out, char *err, size_t errlen);

/* A --period run and its wire alone (--sim, 'today'; NULL: none): the
 * fidelity table, 1990 | the period's | error | today. */
void ipx_b1sim_fidelity(const struct ipx_b1sim_report *model,
			const struct ipx_b1sim_report *today,
			struct ipx_fid_table *t);

/* ---- the writers (b1_sim_write.c) ---- */

/* The table; then the fidelity table when fid is non-NULL. */
void ipx_b1sim_print(FILE *out, const struct ipx_b1sim_report *rep,
		     const struct ipx_fid_table *fid);
/* JSON: {"benchmark": "protocols", "mode": "sim", "profile", "period",
 * "seed", "count", "size", "rows": [...], "fidelity"} */
void ipx_b1sim_write_json(FILE *out, const struct ipx_b1sim_report *rep,
			  const struct ipx_fid_table *fid);

#ifdef __cplusplus
}
#endif

#endif
