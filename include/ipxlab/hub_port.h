/*
 * hub_port.h - a bridge port on a running hub: a tunnel client (link_udp.h)
 * that registers as DOSBox does and then announces itself as a bridge port
 * (hub.h, docs/hub.md "Bridge ports"). Once the hub accepts it, it is given
 * every frame of that segment whose destination is not one of the hub's
 * clients, and it may send frames with any source node. "ipxlab bridge"
 * uses it for its tunnel: sides.
 *
 * It announces again, with a fresh registration, every 10 s, so a hub that
 * restarted takes it back as a port.
 */
#ifndef IPXLAB_HUB_PORT_H
#define IPXLAB_HUB_PORT_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ipxlab/clock.h"
#include "ipxlab/loop.h"

#ifdef __cplusplus
extern "C" {
#endif

enum ipx_hub_port_state {
	IPX_HUB_PORT_JOINING,		/* registering, then announcing */
	IPX_HUB_PORT_UP,		/* accepted: frames flow */
	IPX_HUB_PORT_NO_ANSWER,		/* no tunnel server answered */
	IPX_HUB_PORT_UNSUPPORTED,	/* registered, the announcement never
					 * answered (not an ipxlab hub) */
	IPX_HUB_PORT_REFUSED,		/* the hub refused (--allow-bridge) */
};

struct ipx_hub_port_stats {
	uint64_t rx_frames, rx_bytes;	/* frames from the hub, handed on */
	uint64_t tx_frames, tx_bytes;	/* frames sent into the hub */
	uint64_t tx_refused;		/* not sent: not up, or the link refused */
	uint64_t announces;		/* announcements sent */
	uint64_t answers;		/* the hub's answers to them */
	uint64_t rx_early;		/* frames before the hub accepted: dropped */
};

struct ipx_hub_port;

/* A frame from the segment (bytes borrowed for the call). */
typedef void (*ipx_hub_port_rx_cb)(struct ipx_hub_port *p, const uint8_t *pkt,
				   size_t len, void *ctx);
/* The state changed (to UP, or to one of the failures: then it stays). */
typedef void (*ipx_hub_port_state_cb)(struct ipx_hub_port *p,
				      enum ipx_hub_port_state state, void *ctx);

/* Join the hub at 'hub'; give up after 'timeout' (0 = 10 s) without a
 * registration answer or without an answer to the announcement. */
int ipx_hub_port_open(struct ipx_loop *loop, const struct sockaddr_in *hub,
		      ipx_time timeout, ipx_hub_port_rx_cb rx,
		      ipx_hub_port_state_cb on_state, void *ctx,
		      struct ipx_hub_port **out);
void ipx_hub_port_close(struct ipx_hub_port *p);
/* Send one IPX packet (any source node) into the hub's segment. */
int ipx_hub_port_send(struct ipx_hub_port *p, const uint8_t *pkt, size_t len);
enum ipx_hub_port_state ipx_hub_port_state(const struct ipx_hub_port *p);
const char *ipx_hub_port_state_name(enum ipx_hub_port_state s);
/* The node the hub gave it (valid once up). */
void ipx_hub_port_node(const struct ipx_hub_port *p, uint8_t node[6]);
const struct ipx_hub_port_stats *ipx_hub_port_stats(
	const struct ipx_hub_port *p);
/* Its counters, "name value" lines. */
void ipx_hub_port_print_stats(const struct ipx_hub_port *p, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
