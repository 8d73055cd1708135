/*
 * node.h - the IPX node: one per process, like IPX.COM on a workstation.
 *
 * A node owns its links, its socket table (at most IPX SOCKETS open at
 * once), and a named counter for every reason a packet is dropped.
 * Received packets are validated, then dispatched by destination socket;
 * sent packets get the node's source address and go to the link of the
 * destination network. Packets for this node itself (and broadcasts, as
 * DOSBox does) are looped back locally, deferred to the next loop turn so
 * a receive callback may send without recursion.
 *
 * Routing (docs/routing.md): the node keeps a table of learned routes
 * beside its attached networks (one per link) and an optional internal
 * network. A node with forwarding on is an IPX router: packets for other
 * networks are forwarded with the hop count raised, and NetBIOS type-20
 * broadcasts are propagated. RIP (rip.h) fills the table; the node itself
 * knows no protocol above IPX.
 */
#ifndef IPXLAB_NODE_H
#define IPXLAB_NODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ipxlab/buf.h"
#include "ipxlab/config.h"
#include "ipxlab/ipx.h"
#include "ipxlab/link.h"
#include "ipxlab/loop.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every reason a node discards a packet: name, description. */
#define IPX_DROPS(X)                                                        \
	X(SHORT, "short", "shorter than an IPX header")                     \
	X(BADLEN, "bad_length", "length field below 30 or beyond the packet") \
	X(CHECKSUM, "bad_checksum", "checksum neither FFFF nor correct")     \
	X(HOPS, "hop_limit", "transport control at the 16-hop limit")       \
	X(NOT_FOR_US, "not_for_us", "addressed to another node or network") \
	X(OWN_SOURCE, "own_source", "from our own address via the link (looped locally)") \
	X(NO_SOCKET, "no_socket", "no socket open for the destination")     \
	X(TX_NOLINK, "tx_no_link", "no link up for the destination")        \
	X(TX_TOOBIG, "tx_too_big", "larger than the link allows")           \
	X(TX_LINK, "tx_link_error", "the link refused the packet")         \
	X(NO_ROUTE, "no_route", "forwarding: no route to the destination network") \
	X(SAME_LINK, "same_link", "forwarding: the route leads back out the link it came in on") \
	X(NB_SHORT, "nb_prop_short", "type-20 broadcast without its 32-byte network list: not propagated") \
	X(NB_HOPS, "nb_prop_hops", "type-20 broadcast that crossed 8 networks: not propagated") \
	X(NB_LOOP, "nb_prop_loop", "type-20 broadcast that crossed this network already: not propagated") \
	X(TX_NOROUTE, "tx_no_route", "no route to the destination network was found in time") \
	X(TX_PENDING, "tx_pending_full", "too many packets waiting for a route")

#define IPX_DROP_ENUM_(id, name, desc) IPX_DROP_##id,
enum ipx_drop { IPX_DROPS(IPX_DROP_ENUM_) IPX_DROP_COUNT };
#undef IPX_DROP_ENUM_

const char *ipx_drop_name(enum ipx_drop d);
const char *ipx_drop_desc(enum ipx_drop d);

struct ipx_node_stats {
	uint64_t rx_packets, rx_bytes;	/* accepted from links */
	uint64_t tx_packets, tx_bytes;	/* handed to links */
	uint64_t delivered;		/* to a socket */
	uint64_t looped;		/* delivered locally without a link */
	uint64_t forwarded;		/* routed on to another link */
	uint64_t propagated;		/* type-20 broadcasts passed on (per link) */
	uint64_t resolved;		/* packets sent after waiting for a route */
	uint64_t net_learned;		/* link network numbers learned */
	uint64_t net_refused;		/* claims of a number not taken */
	uint64_t net_probes;		/* RIP requests sent to check one */
	uint64_t drops[IPX_DROP_COUNT];
};

struct ipx_node;
struct ipx_socket;

/*
 * Receive callback: 'data' (the payload after the IPX header, hdr->length
 * - 30 bytes) is borrowed for the duration of the call.
 */
typedef void (*ipx_recv_cb)(struct ipx_socket *sock,
			    const struct ipx_header *hdr, const uint8_t *data,
			    size_t len, void *ctx);

/* A node on 'loop' with the limits in 'cfg' (copied). */
struct ipx_node *ipx_node_new(struct ipx_loop *loop,
			      const struct ipx_config *cfg);
/* Closes every socket and link. */
void ipx_node_free(struct ipx_node *node);

/* Attach a link; the node takes ownership and closes it when freed. */
int ipx_node_add_link(struct ipx_node *node, struct ipx_link *link);
struct ipx_link *ipx_node_link(const struct ipx_node *node, size_t index);
size_t ipx_node_link_count(const struct ipx_node *node);
/* True once the first link is up (its address is known). */
bool ipx_node_up(const struct ipx_node *node);
/* The node's address (socket 0) on its first link. */
void ipx_node_address(const struct ipx_node *node, struct ipx_addr *out);
struct ipx_loop *ipx_node_loop(const struct ipx_node *node);
const struct ipx_config *ipx_node_config(const struct ipx_node *node);
const struct ipx_node_stats *ipx_node_stats(const struct ipx_node *node);
void ipx_node_count_drop(struct ipx_node *node, enum ipx_drop reason);
/* Print counters as "name value" lines (nonzero drops only unless all). */
void ipx_node_print_stats(const struct ipx_node *node, FILE *out, bool all);

/*
 * Open a socket; number 0 picks a free dynamic one (0x4000-0x7FFF).
 * IPX_ESOCKFULL when IPX SOCKETS are open already, IPX_EINUSE when taken.
 */
int ipx_socket_open(struct ipx_node *node, uint16_t number, ipx_recv_cb cb,
		    void *ctx, struct ipx_socket **out);
void ipx_socket_close(struct ipx_socket *sock);
uint16_t ipx_socket_number(const struct ipx_socket *sock);
struct ipx_node *ipx_socket_node(const struct ipx_socket *sock);
size_t ipx_node_socket_count(const struct ipx_node *node);

/*
 * Send 'len' bytes as one datagram of IPX packet 'type' to 'dst'. The
 * payload is copied. dst->net 0 means this network; a broadcast node
 * reaches every node on the segment.
 */
int ipx_socket_sendto(struct ipx_socket *sock, const struct ipx_addr *dst,
		      uint8_t type, const void *data, size_t len);
/* Same, for a payload already in a buffer: the IPX header is pushed into
 * its headroom (the buffer stays the caller's). */
int ipx_socket_send_buf(struct ipx_socket *sock, const struct ipx_addr *dst,
			uint8_t type, struct ipx_buf *buf);
/* Largest payload a datagram to dst may carry. */
size_t ipx_node_max_payload(const struct ipx_node *node,
			    const struct ipx_addr *dst);

/* Feed a received packet as if a link delivered it (links and tests). */
void ipx_node_input(struct ipx_node *node, struct ipx_link *link,
		    const uint8_t *pkt, size_t len);

/* ---- links, addresses, routing (docs/routing.md) ---- */

/* The node of an internal network (NetWare servers use 00:...:01). */
extern const uint8_t ipx_node_internal[IPX_NODE_LEN];
/* This node's internal node: ipx_node_internal unless set (a zero node
 * sets that; the broadcast node is IPX_EINVAL). */
int ipx_node_set_internal_node(struct ipx_node *node,
			       const uint8_t addr[IPX_NODE_LEN]);
const uint8_t *ipx_node_internal_node(const struct ipx_node *node);

/*
 * Detach a link (without closing it: the caller closes it). Routes through
 * it are deleted and route watchers told, its network included.
 */
int ipx_node_remove_link(struct ipx_node *node, struct ipx_link *link);
/*
 * The network number of a link whose number was unknown (0), as learned
 * (docs/routing.md): the network becomes attached, watchers are told, and
 * datagrams waiting for that network leave at once, straight to their
 * node. IPX_EINVAL for net 0/FFFFFFFF, the internal network, or a link the
 * node does not have; IPX_EINUSE when the link has another number already.
 *
 * A node with forwarding off learns it by itself from what it receives on
 * such a link: a router's RIP packet (from socket 0x453, not routed) gives
 * its source network, and a packet a router forwarded (hops > 0) its
 * destination network.
 */
int ipx_node_set_link_net(struct ipx_node *node, struct ipx_link *link,
			  uint32_t net);
/* The delay of a link in ticks (default 1), what RIP adds per link. */
void ipx_node_set_link_ticks(struct ipx_node *node, struct ipx_link *link,
			     uint16_t ticks);
uint16_t ipx_node_link_ticks(const struct ipx_node *node,
			     const struct ipx_link *link);
/*
 * An internal network (0 = none): the node is also internal_net:000000000001,
 * and ipx_node_address() returns that address. Refused (IPX_EINUSE) when a
 * link already has that network number.
 */
int ipx_node_set_internal_net(struct ipx_node *node, uint32_t net);
uint32_t ipx_node_internal_net(const struct ipx_node *node);
/* Forward packets between links, as an IPX router. */
void ipx_node_set_forwarding(struct ipx_node *node, bool on);
bool ipx_node_forwarding(const struct ipx_node *node);
/* True if addr names this node (any link's address or the internal one;
 * the socket is not compared). */
bool ipx_node_is_own(const struct ipx_node *node, const struct ipx_addr *addr);
/* The link the packet now being delivered came in on; NULL when it was
 * looped back locally or outside a receive callback. */
struct ipx_link *ipx_node_rx_link(const struct ipx_node *node);

enum ipx_route_kind {
	IPX_ROUTE_ATTACHED,	/* a link's own network */
	IPX_ROUTE_INTERNAL,	/* the node's internal network */
	IPX_ROUTE_LEARNED,	/* from RIP, through another router */
};

/* How to reach one network. */
struct ipx_route {
	uint32_t net;
	uint16_t ticks;		/* delay: the metric compared first */
	uint16_t hops;		/* routers to cross (0: attached) */
	struct ipx_link *link;	/* out this link (NULL: internal) */
	uint8_t via[IPX_NODE_LEN];	/* next router on it (zero: attached) */
	ipx_time updated;	/* last confirmed (learned routes) */
	enum ipx_route_kind kind;
};

/* Ticks first, then hops: true if a is strictly better than b. */
static inline bool ipx_route_better(const struct ipx_route *a,
				    const struct ipx_route *b)
{
	return a->ticks != b->ticks ? a->ticks < b->ticks : a->hops < b->hops;
}

/* The route to net: internal, attached (link up) or learned.
 * IPX_ENOROUTE if none (net 0 and FFFFFFFF never have one). */
int ipx_node_route_lookup(const struct ipx_node *node, uint32_t net,
			  struct ipx_route *out);
/*
 * Add or replace the learned route to r->net (r->link one of the node's
 * links, r->via the router on it). Packets waiting for that network leave.
 * IPX_EINVAL for net 0/FFFFFFFF, an attached or internal network, or a
 * link the node does not have.
 */
int ipx_node_route_set(struct ipx_node *node, const struct ipx_route *r);
/* Delete the learned route to net; IPX_ENOTFOUND if there is none. */
int ipx_node_route_del(struct ipx_node *node, uint32_t net);
/* Learned routes, in network order. */
size_t ipx_node_route_count(const struct ipx_node *node);
const struct ipx_route *ipx_node_route_at(const struct ipx_node *node,
					  size_t index);

/* Told of every route that appears, changes or goes (now == NULL). */
typedef void (*ipx_route_watch_cb)(struct ipx_node *node, uint32_t net,
				   const struct ipx_route *now, void *ctx);
int ipx_node_watch_routes(struct ipx_node *node, ipx_route_watch_cb cb,
			  void *ctx);
void ipx_node_unwatch_routes(struct ipx_node *node, ipx_route_watch_cb cb,
			     void *ctx);

/*
 * Called when a packet is sent to a network without a route (RIP asks the
 * routers, as a workstation's "get local target"). The packet waits up to
 * 'timeout' for ipx_node_route_set(); then it is dropped (tx_no_route), or
 * sent on the only link when that link's network is unknown (0), as a
 * node without routing would. Without a resolver such sends fail at once
 * with IPX_ENOROUTE, as before.
 */
typedef void (*ipx_route_miss_cb)(struct ipx_node *node, uint32_t net,
				  void *ctx);
void ipx_node_set_route_miss(struct ipx_node *node, ipx_route_miss_cb cb,
			     void *ctx, ipx_time timeout);
/* Datagrams now waiting for a route (a program about to close waits for
 * this to reach 0: they leave or time out within the timeout). */
size_t ipx_node_pending(const struct ipx_node *node);

/*
 * Packets this socket originates carry the address of the link they leave
 * on as source, even on a node with an internal network (whose address
 * they carry otherwise): Linux af_ipx's "RIP/SAP special handling for
 * mars_nwe" for sockets 0x452 and 0x453 (ipxrtr_route_packet). Off by
 * default; looped-back and internal packets keep the internal address.
 */
void ipx_socket_set_link_source(struct ipx_socket *sock, bool on);

/*
 * Send out one given link, with that link's address as the source (RIP and
 * SAP broadcasts per network, answers on the network a query came from).
 * The next hop is dst->node.
 */
int ipx_socket_sendto_link(struct ipx_socket *sock, struct ipx_link *link,
			   const struct ipx_addr *dst, uint8_t type,
			   const void *data, size_t len);
/*
 * Answer the packet whose receive callback is running: back out the link
 * it came in on when its source is on that network (or gave network 0),
 * otherwise routed like ipx_socket_sendto().
 */
int ipx_socket_reply(struct ipx_socket *sock, const struct ipx_header *req,
		     uint8_t type, const void *data, size_t len);

#ifdef __cplusplus
}
#endif

#endif
