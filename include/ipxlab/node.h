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
	X(TX_LINK, "tx_link_error", "the link refused the packet")

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

#endif
