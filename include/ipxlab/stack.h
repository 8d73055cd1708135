/*
 * stack.h - `ipxlab stack`: the host's IPX layer in user space, as the
 * Linux kernel's af_ipx was. One node (its links are the interfaces, plus
 * an optional internal network), the socket table every local program
 * shares, the interface and route ioctls, and the /proc/net/ipx text.
 * Programs reach it through the preloaded shim (src/preload) over the
 * protocol in stack_proto.h; docs/stack.md has the semantics.
 */
#ifndef IPXLAB_STACK_H
#define IPXLAB_STACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ipxlab/node.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every reason the stack discards a datagram or a request. */
#define IPX_STACK_DROPS(X)                                                  \
	X(BAD_FRAME, "bad_frame", "a data frame from a program that does not decode") \
	X(BAD_REQUEST, "bad_request", "a control request that does not decode") \
	X(NO_SOCKET, "unknown_socket", "a request for a socket the stack does not hold") \
	X(NOT_CONNECTED, "not_connected", "a datagram without an address on an unconnected socket") \
	X(TX_REFUSED, "tx_refused", "a datagram the node would not send (no route, too big, link down)") \
	X(RX_FULL, "rx_queue_full", "a datagram for a program whose socket queue was full") \
	X(TABLE_FULL, "socket_table_full", "a socket refused: the node's table is full")

#define IPX_STACK_DROP_ENUM_(id, name, desc) IPX_STACK_DROP_##id,
enum ipx_stack_drop { IPX_STACK_DROPS(IPX_STACK_DROP_ENUM_) IPX_STACK_DROP_COUNT };
#undef IPX_STACK_DROP_ENUM_

struct ipx_stack_stats {
	uint64_t opened, closed;	/* sockets */
	uint64_t requests;		/* control requests answered */
	uint64_t tx_datagrams, rx_datagrams;	/* from and to programs */
	uint64_t announcements;	/* RIP responses naming the internal net */
	uint64_t drops[IPX_STACK_DROP_COUNT];
};

struct ipx_stack_options {
	const char *path;	/* the unix socket to listen on */
	/* Let every program bind sockets below 0x4000 (else only those with
	 * CAP_NET_ADMIN, as the kernel did). */
	bool allow_low_ports;
};

struct ipx_stack;

/*
 * Listen on opts->path for programs. The node's links are its interfaces;
 * name each with ipx_stack_add_device(). A path where a stack already
 * answers is refused; a stale one is replaced. err gets the reason.
 */
int ipx_stack_new(struct ipx_node *node, const struct ipx_stack_options *opts,
		  struct ipx_stack **out, char *err, size_t errlen);
/* Closes every program's socket and removes the path. */
void ipx_stack_free(struct ipx_stack *st);
/* The device name and Linux frame type (IPX_FRAME_* of <netipx/ipx.h>)
 * the interface ioctls and /proc use for one of the node's links. */
int ipx_stack_add_device(struct ipx_stack *st, struct ipx_link *link,
			 const char *name, uint8_t frame);
/* Tell the tunnel links the node's internal network by RIP, now and every
 * 60 s while it exists (call after setting it on the node; the stack does
 * so itself for SIOCSIFADDR and new devices). */
void ipx_stack_announce(struct ipx_stack *st);
size_t ipx_stack_socket_count(const struct ipx_stack *st);
const struct ipx_stack_stats *ipx_stack_stats(const struct ipx_stack *st);
/* Counters, nonzero drops, and the calls programs made that are not
 * emulated, by name. */
void ipx_stack_print(const struct ipx_stack *st, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
