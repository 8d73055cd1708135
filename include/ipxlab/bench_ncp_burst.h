/*
 * bench_ncp_burst.h - the packet-burst target of "bench ncp": a burst
 * read of the 4 MB fixture (bench_ncp.h) against the IPX datagram goodput
 * of the same link and packet size, both measured in the same run
 * (docs/benchmarks.md, "bench ncp").
 *
 * The read is an NCP client with packet burst on the workstation's node,
 * reading SYS:BATTERY\SHARED4M.DAT from the run's file server, timed from
 * its first burst request to its last reply fragment. The datagrams are
 * the IPX datagram workload (bench_work.h, IPX_BW_IPX, a flood) from a
 * second node on the server's side of the same link to a receiver on the
 * workstation's node: as many bytes, in packets of the burst fragments'
 * size, timed first to last packet received; in real time with a
 * credit window of as many packets as a burst carries (a loss-free rate,
 * not how fast a socket buffer fills), in simulated time a flood. A round is IPX_BNCB_READS
 * reads, then the datagrams; rounds alternate the two, so load that
 * changes during the run moves both alike. A round's ratio is its burst
 * bytes per second over its datagram bytes per second; the figure is the
 * median of the rounds' (min and max beside it). Target: 0.8.
 */
#ifndef IPXLAB_BENCH_NCP_BURST_H
#define IPXLAB_BENCH_NCP_BURST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <netinet/in.h>

#include "ipxlab/ipx.h"
#include "ipxlab/node.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IPX_BNCB_TARGET 0.80
#define IPX_BNCB_ROUNDS 5
#define IPX_BNCB_READS 4	/* of the 4 MB file, a round */

struct ipx_bncb_report {
	unsigned packet;	/* IPX packet bytes, both flows */
	unsigned rounds;
	uint64_t burst_bytes, dgram_bytes;	/* over the rounds */
	double burst_seconds, dgram_seconds;
	double burst_kBps, dgram_kBps;	/* kB = 1000 bytes */
	double ratio;		/* the median of the rounds' */
	double ratio_min, ratio_max;
	bool pass;
	/* the client's burst counters over the reads */
	uint64_t bursts, frags_resent, missing_sent, timeouts;
	uint64_t dgram_sent;		/* datagrams the sender sent */
};

/*
 * Measure on o->client (the workstation's node) against the file server
 * at o->server, with o->sender a node on the server's side of the link
 * (same loop). IPX_OK with rep filled, or an error with a message (a
 * server without packet burst is one).
 */
struct ipx_hctl;

struct ipx_bncb_opts {
	/* sender: a node of ours on the link, or (ctl set) NULL and the
	 * datagrams come from agent 'agent' of the controller ctl, a
	 * process of its own as the file server is */
	struct ipx_node *client, *sender;
	struct ipx_hctl *ctl;
	size_t agent;
	struct ipx_addr server;
	/* the datagrams' credit window (bench_work.h params.window) and the
	 * tunnel's local address its credits bind to; 0: a flood (the
	 * simulated medium queues it) */
	uint32_t window;
	struct in_addr udp_bind;
};

int ipx_bncb_run(const struct ipx_bncb_opts *o, struct ipx_bncb_report *rep,
		 char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
