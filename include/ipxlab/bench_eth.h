/*
 * bench_eth.h - the Ethernet link benchmark (src/bench/ethrate.c,
 * "ipxlab bench eth", bench/eth.sh): how many IPX datagrams per second go
 * from one ipxlab node to another over the Ethernet link (src/link/eth.c),
 * beside a plain raw-socket (AF_PACKET) sender and receiver moving frames
 * of the same bytes over the same interfaces, in the same run.
 *
 *   raw  sender: sendmmsg of 64 frames at a time on an AF_PACKET socket
 *        receiver: recvmmsg on an AF_PACKET socket bound to the frame's
 *        protocol, counting frames of the right length
 *   ipx  sender: an IPX node with an Ethernet link, ipx_socket_sendto in
 *        turns of 64 datagrams, each turn one ipx_loop_run_once
 *        receiver: an IPX node with an Ethernet link counting datagrams
 *        in its socket's receive callback
 *
 * Each end is a forked process that first enters its network namespace
 * (setns, so the two ends of a veth pair can sit in two namespaces). The
 * sender floods; the rate is the receiver's count between two marks over
 * the time between them on its own clock, after a warm-up.
 */
#ifndef IPXLAB_BENCH_ETH_H
#define IPXLAB_BENCH_ETH_H

#include <stddef.h>
#include <stdint.h>

#include "ipxlab/frame.h"

#define IPX_ETHB_DEFAULT_SECONDS 1.0
#define IPX_ETHB_DEFAULT_WARMUP 0.3
#define IPX_ETHB_DEFAULT_REPEAT 5
#define IPX_ETHB_DEFAULT_PAYLOAD 255
/* The target: the IPX path reaches 80 % of the raw rate. */
#define IPX_ETHB_TARGET_RATIO 0.8

enum ipx_ethb_path { IPX_ETHB_RAW, IPX_ETHB_IPX, IPX_ETHB_PATHS };

/* One end: an interface, in a named network namespace or in ours. */
struct ipx_ethb_end {
	char ifname[16];
	char netns[128];	/* "" = this process's namespace */
};

struct ipx_ethb_opts {
	double seconds;		/* measurement window per path */
	double warmup;		/* sending before the window opens */
	size_t payload;		/* IPX payload bytes per datagram */
	enum ipx_frame_type frame;	/* a wire type, not AUTO */
	struct ipx_ethb_end sender, receiver;
};

struct ipx_ethb_result {
	enum ipx_ethb_path path;
	size_t frame_len;	/* bytes of each frame (no FCS) */
	/* the measurement window, at the receiver */
	double seconds;
	uint64_t packets;
	double pps;		/* datagrams (raw: frames) delivered per s */
	double mbps;		/* their frame bytes, 10^6 per second */
	/* the whole run, warm-up included */
	uint64_t sent;		/* frames that left the sender */
	uint64_t delivered;	/* counted by the receiver */
	double loss;		/* 1 - delivered / sent */
	uint64_t rx_drops;	/* ipx: the receiving link's frame drops */
	/* CPU time / wall time over the window (1.0 = one core) */
	double cpu_sender, cpu_receiver;
};

void ipx_ethb_opts_default(struct ipx_ethb_opts *o);
/* "IFACE" or "IFACE@NETNS"; err gets a message on failure. */
int ipx_ethb_parse_end(const char *text, struct ipx_ethb_end *out,
		       char *err, size_t errlen);
/* Bytes of one frame on the wire for these options. */
size_t ipx_ethb_frame_len(const struct ipx_ethb_opts *o);
/*
 * Measure one path once: fork the receiver and the sender, measure, reap
 * both. Returns 0, or a negative ipx_err with a message in err; no child
 * outlives the call.
 */
int ipx_ethb_run(const struct ipx_ethb_opts *o, enum ipx_ethb_path path,
		 struct ipx_ethb_result *out, char *err, size_t errlen);
const char *ipx_ethb_path_name(enum ipx_ethb_path path);

#endif
