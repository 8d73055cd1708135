/*
 * hub.h - a DOSBox-protocol IPX tunnel server ("ipxlab hub").
 *
 * Clients (DOSBox, ipxwrapper, ipxlab nodes) register by sending a 30-byte
 * header to socket 2; the hub answers, every time they ask, with their node
 * address: their IPv4 address and UDP port, as DOSBox's own server does.
 * It then relays each IPX packet by its destination node: to one client, or
 * to all but the sender for a broadcast. It is a switch, not a node.
 *
 * Clients are found in O(1) by node address. Packets whose source node is
 * not the sender's registered address are dropped and counted; so is every
 * other bad datagram, and service continues. Silent clients get a keepalive
 * ping (DOSBox answers those itself) and are dropped after the idle timeout.
 *
 * With a link profile the hub behaves as one shared segment of that kind
 * (docs/links.md): relays wait for the wire and take its time.
 *
 * With an uplink (bridge.h), broadcasts and unicasts for nodes that are no
 * client also go to an Ethernet segment, and its packets come back in.
 *
 * A client that sends RIP responses is an IPX router (docs/routing.md): it
 * may relay packets whose source is on another network, and unicasts for
 * unknown nodes on a nonzero network are handed to the routers.
 *
 * A client that announces itself as a bridge port (an ipxlab extension
 * DOSBox clients never send; docs/hub.md "Bridge ports") is one port of a
 * layer-2 bridge: it gets every broadcast and every unicast for a node that
 * is no client, it may send any source node that is not another client's,
 * and the hub learns which nodes live behind it, so unicasts for them go
 * to it alone.
 */
#ifndef IPXLAB_HUB_H
#define IPXLAB_HUB_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ipxlab/clock.h"
#include "ipxlab/link_profile.h"
#include "ipxlab/loop.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IPX_HUB_DROPS(X)                                                    \
	X(SHORT, "short", "shorter than an IPX header")                     \
	X(BADLEN, "bad_length", "length field below 30 or beyond the datagram") \
	X(TOOBIG, "too_big", "larger than the tunnel's 1424 bytes")         \
	X(UNREGISTERED, "unregistered", "from an address that never registered") \
	X(FORGED, "forged_source", "source node is not the sender's address") \
	X(UNKNOWN_DEST, "unknown_destination", "no client has the destination node") \
	X(SAME_PORT, "bridge_same_port", "from a bridge port, for a node behind that port") \
	X(TX_ERROR, "tx_error", "the operating system refused to send")     \
	X(TABLE_FULL, "table_full", "registration refused: --max-clients clients registered already") \
	X(REG_RATE, "register_rate", "registration refused: its /24 network registers faster than --register-rate")

#define IPX_HUB_DROP_ENUM_(id, name, desc) IPX_HUB_DROP_##id,
enum ipx_hub_drop { IPX_HUB_DROPS(IPX_HUB_DROP_ENUM_) IPX_HUB_DROP_COUNT };
#undef IPX_HUB_DROP_ENUM_

/*
 * The bridge-port message, client to hub (announce) and hub to client
 * (accepted or refused): an IPX packet of IPX_HUB_PORT_MSG_LEN bytes to or
 * from the keepalive node 02:FF:FF:FF:00:00, socket 2, whose data is the
 * 8 bytes "ipxlabBP", a version (1), the operation and two zero bytes.
 * Hubs without the extension (older ipxlab, DOSBox's server) drop it.
 */
#define IPX_HUB_PORT_MSG_LEN 42
#define IPX_HUB_MAX_ALLOW 16
enum ipx_hub_port_op {
	IPX_HUB_MSG_ANNOUNCE = 1,
	IPX_HUB_MSG_ACCEPTED = 2,
	IPX_HUB_MSG_REFUSED = 3,
};
/* The keepalive pings' source node, which no client can have. */
extern const uint8_t ipx_hub_keepalive_node[6];
/* Encode one message from src to dst; its length. */
size_t ipx_hub_port_msg(uint8_t out[IPX_HUB_PORT_MSG_LEN],
			const uint8_t dst[6], const uint8_t src[6],
			enum ipx_hub_port_op op);
/* The operation of a well-formed message of any direction, or 0 if the
 * packet is not one (len: the datagram's). */
int ipx_hub_port_msg_parse(const uint8_t *pkt, size_t len);

struct ipx_hub_options {
	struct sockaddr_in bind;	/* address and port to serve on */
	ipx_time keepalive;		/* ping a client silent this long; 0 = 5 s */
	ipx_time idle_timeout;		/* forget it after this; 0 = 120 s */
	bool detached;			/* no socket: for fuzzing and tests */
	/* Make the hub one segment of this kind (link_medium.h): packets
	 * are relayed after their turn and time on its wire. NULL: none. */
	const struct ipx_profile *profile;
	/* Called with every datagram the hub sends, just before it leaves
	 * (tests, captures). The bytes are borrowed. */
	void (*tap)(const struct sockaddr_in *to, const uint8_t *pkt,
		    size_t len, void *ctx);
	void *tap_ctx;
	/* Called with every datagram the hub receives, before it is looked
	 * at (captures: with 'tap', both directions). Borrowed bytes. */
	void (*rx_tap)(const struct sockaddr_in *from, const uint8_t *pkt,
		       size_t len, void *ctx);
	void *rx_tap_ctx;
	/* Which clients may become bridge ports: any (the default), none
	 * (bridge_refuse) or, with nbridge_allow > 0, only those sending
	 * from one of these IPv4 addresses. */
	bool bridge_refuse;
	size_t nbridge_allow;
	struct in_addr bridge_allow[IPX_HUB_MAX_ALLOW];
	/* Forget a node learned behind a bridge port silent this long;
	 * 0 = 300 s (IEEE 802.1D's default ageing time). */
	ipx_time learn_age;
	/* At most this many clients; 0 = IPX_HUB_MAX_CLIENTS. A new
	 * registration beyond is refused (drop table_full). */
	size_t max_clients;
	/* New registrations from one IPv4 /24 network: a token bucket of
	 * reg_burst (0 = IPX_HUB_REG_BURST) refilled at reg_rate a second
	 * (0 = IPX_HUB_REG_RATE, negative: no limit). Beyond it they are
	 * refused (drop register_rate). A known client's are always
	 * answered. */
	int reg_rate;
	unsigned reg_burst;
};

#define IPX_HUB_MAX_CLIENTS 1024
#define IPX_HUB_REG_RATE 32
#define IPX_HUB_REG_BURST 64

struct ipx_hub_stats {
	uint64_t rx_packets, rx_bytes;
	uint64_t tx_packets, tx_bytes;
	uint64_t unicasts;		/* packets relayed to one client */
	uint64_t broadcasts;		/* packets relayed to all others */
	uint64_t registrations;		/* registration requests answered */
	uint64_t joins, leaves;
	uint64_t keepalives;		/* keepalive pings sent */
	uint64_t control;		/* keepalive answers consumed */
	uint64_t routed;		/* unicasts for other networks, to routers */
	uint64_t routed_copies;		/* copies of them sent */
	uint64_t port_announces;	/* bridge-port announcements answered */
	uint64_t port_refused;		/* of them refused (--allow-bridge) */
	uint64_t port_frames;		/* from ports, another station's source */
	uint64_t port_unicasts;		/* unicasts to a node learned behind a port */
	uint64_t flooded;		/* unicasts for unknown nodes, to the ports */
	uint64_t flood_copies;		/* copies of them sent */
	uint64_t learn_full;		/* sources not learned: table full */
	uint64_t evicted;		/* silent clients forgotten: table full */
	uint64_t drops[IPX_HUB_DROP_COUNT];
};

struct ipx_hub;

/* Open and start serving; err gets a message on failure. */
int ipx_hub_open(struct ipx_loop *loop, const struct ipx_hub_options *opts,
		 struct ipx_hub **out, char *err, size_t errlen);
void ipx_hub_close(struct ipx_hub *hub);

/* Handle one datagram from 'from' as if it had arrived on the socket. */
void ipx_hub_input(struct ipx_hub *hub, const struct sockaddr_in *from,
		   const uint8_t *pkt, size_t len);
/* Send what is queued (also done at the end of every receive batch). */
void ipx_hub_flush(struct ipx_hub *hub);

/*
 * Bridging (bridge.h). The uplink is given every packet a client sends
 * that is a broadcast or a unicast for a node that is no client (which
 * would otherwise be dropped as unknown_destination); bytes borrowed.
 * ipx_hub_deliver relays a packet from the uplink to the client with its
 * destination node or, for broadcast, to every client, and sends it before
 * returning (with a profile: once it has had its time on the segment's
 * wire, as one more station); it returns the number of clients it goes to.
 */
typedef void (*ipx_hub_uplink_cb)(const uint8_t *pkt, size_t len, void *ctx);
void ipx_hub_set_uplink(struct ipx_hub *hub, ipx_hub_uplink_cb cb, void *ctx);
bool ipx_hub_has_node(const struct ipx_hub *hub,
		      const uint8_t node[6]);
size_t ipx_hub_deliver(struct ipx_hub *hub, const uint8_t *pkt, size_t len);

const struct ipx_hub_stats *ipx_hub_stats(const struct ipx_hub *hub);
size_t ipx_hub_client_count(const struct ipx_hub *hub);
/* Bridge ports now, and nodes learned behind them (not aged out). */
size_t ipx_hub_port_count(const struct ipx_hub *hub);
size_t ipx_hub_learned_count(const struct ipx_hub *hub);
/* Whether the client with this node is a bridge port. */
bool ipx_hub_is_port(const struct ipx_hub *hub, const uint8_t node[6]);
/* The address the hub serves on (the real port when bound to port 0). */
int ipx_hub_local(const struct ipx_hub *hub, struct sockaddr_in *out);
const char *ipx_hub_drop_name(enum ipx_hub_drop d);
/* Counters and the client list, one "name value" per line. */
void ipx_hub_print_stats(const struct ipx_hub *hub, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
