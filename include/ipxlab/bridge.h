/*
 * bridge.h - "ipxlab hub --bridge IFACE": the hub's tunnel clients and the
 * stations on an Ethernet segment see one IPX network (docs/hub.md,
 * Bridging).
 *
 * Tunnel to LAN: every broadcast a client sends, and every unicast for a
 * node that is no client, goes out on the link (the Ethernet source is the
 * interface's MAC; the IPX header keeps the client's node). LAN to tunnel:
 * the link is promiscuous, so it sees the frames LAN stations address to
 * the clients' nodes; broadcasts go to every client, unicasts to the client
 * with that node. Everything else is dropped and counted: LAN traffic for
 * other LAN nodes, packets whose source node is a client's (our own frames
 * looped back, or a forgery), packets too big for the tunnel, bad IPX.
 *
 * The link is any struct ipx_link (an Ethernet link in production, an
 * in-memory one in tests); the bridge takes its rx callback.
 */
#ifndef IPXLAB_BRIDGE_H
#define IPXLAB_BRIDGE_H

#include <stdint.h>
#include <stdio.h>

#include "ipxlab/hub.h"
#include "ipxlab/link.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IPX_BRIDGE_DROPS(X)                                                  \
	X(BAD_IPX, "lan_bad_ipx", "from the LAN: short or bad IPX length")   \
	X(TOO_BIG, "lan_too_big", "from the LAN: larger than the tunnel's 1424 bytes") \
	X(CLIENT_SOURCE, "lan_client_source",                                \
	  "from the LAN with a tunnel client's source node (looped back or forged)") \
	X(NOT_FOR_TUNNEL, "lan_not_for_tunnel",                              \
	  "from the LAN for a node that is no tunnel client")               \
	X(NO_CLIENTS, "lan_no_clients", "a LAN broadcast with no client to take it") \
	X(LAN_TX, "lan_tx_error", "the link refused a packet for the LAN (too big for the frame, or down)")

#define IPX_BRIDGE_DROP_ENUM_(id, name, desc) IPX_BRIDGE_DROP_##id,
enum ipx_bridge_drop { IPX_BRIDGE_DROPS(IPX_BRIDGE_DROP_ENUM_)
		       IPX_BRIDGE_DROP_COUNT };
#undef IPX_BRIDGE_DROP_ENUM_

struct ipx_bridge_stats {
	uint64_t to_lan, to_lan_broadcasts;	/* packets sent on the link */
	uint64_t from_lan, from_lan_broadcasts;	/* relayed to clients */
	uint64_t drops[IPX_BRIDGE_DROP_COUNT];
};

struct ipx_bridge;

/* Join the hub and the link; the bridge owns neither (free it first). */
int ipx_bridge_new(struct ipx_hub *hub, struct ipx_link *link,
		   struct ipx_bridge **out);
void ipx_bridge_free(struct ipx_bridge *b);
const struct ipx_bridge_stats *ipx_bridge_stats(const struct ipx_bridge *b);
const char *ipx_bridge_drop_name(enum ipx_bridge_drop d);
/* Counters, one "bridge_name value" per line. */
void ipx_bridge_print_stats(const struct ipx_bridge *b, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
