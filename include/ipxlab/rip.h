/*
 * rip.h - IPX RIP (socket 0x453): the packet codec and the routing agent
 * (docs/routing.md; Novell RIP as Wireshark's packet-ipx.c decodes it).
 *
 * Wire format (IPX payload, all fields big-endian, IPX packet type 1):
 *
 *   off   size field
 *     0      2 operation     1 = request, 2 = response
 *   2+8i     4 network       FFFFFFFF in a request: every network
 *   6+8i     2 hops          routers to cross; 16 = unreachable
 *   8+8i     2 ticks         delay, 1/18.2 s each (the metric compared first)
 *
 * At most 50 entries per packet (IPX length 30 + 2 + 400 = 432). Requests
 * carry FFFF in hops and ticks.
 *
 * The agent runs in every node. As an end node it only asks: a datagram for
 * a network without a route makes it broadcast a request (a workstation's
 * "get local target"), the best answer becomes the route, and a link whose
 * network number is unknown (0, as on a DOSBox hub) learns it from the
 * answer's source (the node does that: ipx_node_set_link_net). A router
 * answers a request for the asker's own network too, split horizon
 * notwithstanding: that is how such a node finds that a network is its
 * own. It uses a dynamic socket, opened when it first asks, so 0x453
 * stays free and a node that never routes uses no socket for it.
 *
 * As a router (socket 0x453, with the node forwarding) it also answers
 * requests, broadcasts its table on every link every 60 s with split
 * horizon, sends every change at once (a triggered update; a route that
 * is gone goes out with 16 hops), and forgets routes not heard for 180 s.
 */
#ifndef IPXLAB_RIP_H
#define IPXLAB_RIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ipxlab/clock.h"
#include "ipxlab/ipx.h"
#include "ipxlab/node.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IPX_RIP_MAX_ENTRIES 50
#define IPX_RIP_ENTRY_LEN 8
#define IPX_RIP_MAX_LEN (2 + IPX_RIP_MAX_ENTRIES * IPX_RIP_ENTRY_LEN)
#define IPX_RIP_UNREACHABLE 16
#define IPX_RIP_ALL_NETS 0xFFFFFFFFu

enum { IPX_RIP_REQUEST = 1, IPX_RIP_RESPONSE = 2 };

/* Every reason the agent discards a packet (or, for bad_entry, one entry). */
#define IPX_RIP_DROPS(X)                                                    \
	X(SHORT, "short", "fewer than 2 bytes")                             \
	X(BAD_OP, "bad_operation", "operation neither 1 (request) nor 2 (response)") \
	X(BAD_LENGTH, "bad_length", "not 2 bytes plus 8 per entry")         \
	X(EMPTY, "empty", "no entries")                                     \
	X(TOO_MANY, "too_many_entries", "more than 50 entries")             \
	X(OWN, "own", "our own packet, looped back")                        \
	X(NOT_NEIGHBOUR, "not_neighbour", "a response that crossed a router (hops > 0): broadcast, or an answer nobody here waits for") \
	X(NOT_ROUTER, "not_router", "a request to an end node, which does not answer") \
	X(BAD_ENTRY, "bad_entry", "an entry for network 0 or FFFFFFFF (skipped)") \
	X(TX, "tx_error", "a packet the node would not send")

#define IPX_RIP_DROP_ENUM_(id, name, desc) IPX_RIP_DROP_##id,
enum ipx_rip_drop { IPX_RIP_DROPS(IPX_RIP_DROP_ENUM_) IPX_RIP_DROP_COUNT };
#undef IPX_RIP_DROP_ENUM_

const char *ipx_rip_drop_name(enum ipx_rip_drop d);

struct ipx_rip_entry {
	uint32_t net;
	uint16_t hops;
	uint16_t ticks;
};

struct ipx_rip_msg {
	uint16_t op;
	size_t count;
	struct ipx_rip_entry entries[IPX_RIP_MAX_ENTRIES];
};

/*
 * Decode a RIP payload. IPX_OK, or IPX_EINVAL with *why set to the drop
 * counter that names what is wrong.
 */
int ipx_rip_decode(const uint8_t *p, size_t len, struct ipx_rip_msg *out,
		   enum ipx_rip_drop *why);
/* Encode; returns the bytes written, 0 if count > 50 or cap is short. */
size_t ipx_rip_encode(const struct ipx_rip_msg *msg, uint8_t *out,
		      size_t cap);

struct ipx_rip_options {
	bool router;		/* answer, broadcast, expire (node forwards) */
	ipx_time period;	/* table broadcasts; 0 = 60 s */
	ipx_time expiry;	/* a route not heard this long goes; 0 = 180 s */
	ipx_time resolve_timeout;	/* a datagram waits this long; 0 = 1.5 s */
	ipx_time retry;		/* requests repeated this often; 0 = 500 ms */
};

struct ipx_rip_stats {
	uint64_t rx_requests, rx_responses;
	uint64_t tx_requests, tx_responses;	/* packets */
	uint64_t learned;	/* routes added or moved to a better path */
	uint64_t changed;	/* metric changes on the same path */
	uint64_t withdrawn;	/* removed by a 16-hop entry */
	uint64_t expired;	/* removed after silence */
	uint64_t triggered;	/* triggered updates sent */
	uint64_t drops[IPX_RIP_DROP_COUNT];
};

struct ipx_rip;

/* Called with every valid response that reaches the agent: from a
 * neighbour, or one sent to us alone across routers (the answer to a
 * request to a far router, which no route is learned from). */
typedef void (*ipx_rip_response_cb)(const struct ipx_header *hdr,
				    const struct ipx_rip_msg *msg, void *ctx);

/*
 * Start the agent on 'node'. A router also makes the node forward, opens
 * 0x453, asks every network for its routes and broadcasts its own table.
 * IPX_EINUSE if a RIP agent (or anyone) holds the socket.
 */
int ipx_rip_new(struct ipx_node *node, const struct ipx_rip_options *opts,
		struct ipx_rip **out);
/* Stop without a word (see ipx_rip_shutdown). */
void ipx_rip_free(struct ipx_rip *rip);
/* A router going down: every route it advertises, with 16 hops, on every
 * link. Nothing for an end node. */
void ipx_rip_shutdown(struct ipx_rip *rip);

/* Broadcast a request for net (IPX_RIP_ALL_NETS: every route) on every
 * link, or send it to one address. */
int ipx_rip_request(struct ipx_rip *rip, uint32_t net);
int ipx_rip_request_to(struct ipx_rip *rip, const struct ipx_addr *to,
		       uint32_t net);
void ipx_rip_on_response(struct ipx_rip *rip, ipx_rip_response_cb cb,
			 void *ctx);

const struct ipx_rip_stats *ipx_rip_stats(const struct ipx_rip *rip);
/* The routing table (attached, internal, learned) and the counters. */
void ipx_rip_print(const struct ipx_rip *rip, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
