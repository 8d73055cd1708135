/*
 * bridge.c - the hub's uplink to an Ethernet segment (see bridge.h and
 * docs/hub.md, Bridging): what crosses between the tunnel and the LAN,
 * and the counted reasons for what does not.
 */
#include "ipxlab/bridge.h"

#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/ipx.h"
#include "ipxlab/link_udp.h"
#include "ipxlab/priv/drops.h"

struct ipx_bridge {
	struct ipx_hub *hub;
	struct ipx_link *link;
	struct ipx_bridge_stats stats;
};

IPX_DROP_NAMES(IPX_BRIDGE_DROPS, enum ipx_bridge_drop, IPX_BRIDGE_DROP_COUNT,
	       ipx_bridge_drop_name)

/* A client's broadcast or unicast for a node that is no client. */
static void to_lan(const uint8_t *pkt, size_t len, void *ctx)
{
	struct ipx_bridge *b = ctx;
	/* The hub calls a broadcast what DOSBox does: FFFFFFFF in the
	 * first four bytes of the destination node. */
	bool bcast = !memcmp(pkt + 10, "\xFF\xFF\xFF\xFF", 4);
	const uint8_t *hop = bcast ? ipx_node_broadcast : pkt + 10;

	if (ipx_link_send(b->link, pkt, len, hop) != IPX_OK) {
		b->stats.drops[IPX_BRIDGE_DROP_LAN_TX]++;
		return;
	}
	b->stats.to_lan++;
	if (bcast)
		b->stats.to_lan_broadcasts++;
}

static void from_lan(struct ipx_link *link, const uint8_t *pkt, size_t len,
		     void *ctx)
{
	struct ipx_bridge *b = ctx;
	struct ipx_header h;
	bool bcast;

	(void)link;
	if (ipx_header_decode(pkt, len, &h) != IPX_OK) {
		b->stats.drops[IPX_BRIDGE_DROP_BAD_IPX]++;
		return;
	}
	len = h.length;	/* never relay trailing bytes */
	if (len > IPX_UDP_MTU) {
		b->stats.drops[IPX_BRIDGE_DROP_TOO_BIG]++;
		return;
	}
	/* Our own frame seen again, or a station using a client's node:
	 * either way the client must not get it. */
	if (ipx_hub_has_node(b->hub, h.src.node)) {
		b->stats.drops[IPX_BRIDGE_DROP_CLIENT_SOURCE]++;
		return;
	}
	bcast = ipx_node_is_broadcast(h.dst.node);
	if (!bcast && !ipx_hub_has_node(b->hub, h.dst.node)) {
		b->stats.drops[IPX_BRIDGE_DROP_NOT_FOR_TUNNEL]++;
		return;
	}
	if (ipx_hub_deliver(b->hub, pkt, len) == 0) {
		b->stats.drops[IPX_BRIDGE_DROP_NO_CLIENTS]++;
		return;
	}
	b->stats.from_lan++;
	if (bcast)
		b->stats.from_lan_broadcasts++;
}

int ipx_bridge_new(struct ipx_hub *hub, struct ipx_link *link,
		   struct ipx_bridge **out)
{
	struct ipx_bridge *b = calloc(1, sizeof(*b));

	if (!b)
		return IPX_ENOMEM;
	b->hub = hub;
	b->link = link;
	link->rx = from_lan;
	link->rx_ctx = b;
	ipx_hub_set_uplink(hub, to_lan, b);
	*out = b;
	return IPX_OK;
}

void ipx_bridge_free(struct ipx_bridge *b)
{
	if (!b)
		return;
	ipx_hub_set_uplink(b->hub, NULL, NULL);
	b->link->rx = NULL;
	b->link->rx_ctx = NULL;
	free(b);
}

const struct ipx_bridge_stats *ipx_bridge_stats(const struct ipx_bridge *b)
{
	return &b->stats;
}

void ipx_bridge_print_stats(const struct ipx_bridge *b, FILE *out)
{
	const struct ipx_bridge_stats *s = &b->stats;

	fprintf(out,
		"bridge_to_lan %llu\nbridge_to_lan_broadcasts %llu\n"
		"bridge_from_lan %llu\nbridge_from_lan_broadcasts %llu\n",
		(unsigned long long)s->to_lan,
		(unsigned long long)s->to_lan_broadcasts,
		(unsigned long long)s->from_lan,
		(unsigned long long)s->from_lan_broadcasts);
	for (int d = 0; d < IPX_BRIDGE_DROP_COUNT; d++)
		fprintf(out, "bridge_drop_%s %llu\n", drop_names[d],
			(unsigned long long)s->drops[d]);
}
