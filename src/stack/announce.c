/*
 * announce.c - the stack's internal network told to tunnel links by RIP.
 * A DOSBox-protocol tunnel has no MAC layer: the IPX source node is the
 * sender's address, and ipxlab's hub drops a source node that is not the
 * client's own unless the client is a router (one that sent a RIP
 * response from its own node). Datagrams from the internal address
 * (node 000000000001: mars_nwe's SAP, RIP and NCP replies) and unicasts to
 * it need exactly that. So while an internal network exists the stack
 * sends, on every tunnel link, a RIP response from the link's own address
 * naming it (1 hop), when it appears, when a link is (re)attached and
 * every 60 s; when it goes, once with 16 hops. Ethernet links carry the
 * card's MAC address and need nothing: the kernel sent nothing either.
 */
#include <string.h>

#include "ipxlab/clock.h"
#include "ipxlab/err.h"
#include "ipxlab/rip.h"
#include "stack_int.h"

#define ANNOUNCE_PERIOD (60 * IPX_SEC)

static void send_on_links(struct ipx_stack *st, uint32_t net, uint16_t hops)
{
	struct ipx_rip_msg msg = { .op = IPX_RIP_RESPONSE, .count = 1 };
	uint8_t pkt[IPX_HDR_LEN + 2 + 8];	/* operation, one entry */
	struct ipx_header h = { .checksum = IPX_NO_CHECKSUM,
				.type = IPX_TYPE_RIP };
	size_t n;

	msg.entries[0].net = net;
	msg.entries[0].hops = hops;
	msg.entries[0].ticks = (uint16_t)(hops == 1 ? 2 : 0xFFFF);
	n = ipx_rip_encode(&msg, pkt + IPX_HDR_LEN, sizeof(pkt) - IPX_HDR_LEN);
	if (!net || !n)
		return;
	h.length = (uint16_t)(IPX_HDR_LEN + n);
	for (size_t i = 0; i < ipx_node_link_count(st->node); i++) {
		struct ipx_link *l = ipx_node_link(st->node, i);

		if (!l->up || strcmp(l->kind, "udp"))
			continue;
		h.dst.net = l->net;
		memcpy(h.dst.node, ipx_node_broadcast, IPX_NODE_LEN);
		h.dst.socket = IPX_SOCK_RIP;
		h.src.net = l->net;
		memcpy(h.src.node, l->node, IPX_NODE_LEN);
		h.src.socket = IPX_SOCK_RIP;
		ipx_header_encode(&h, pkt);
		if (ipx_link_send(l, pkt, h.length, ipx_node_broadcast) ==
		    IPX_OK)
			st->stats.announcements++;
	}
}

static void on_timer(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	(void)loop;
	(void)t;
	ipx_stack_announce(ctx);
}

void ipx_stack_announce(struct ipx_stack *st)
{
	uint32_t net = ipx_node_internal_net(st->node);

	if (!net) {
		ipx_timer_stop(st->loop, &st->announce);
		return;
	}
	send_on_links(st, net, 1);
	if (!ipx_timer_active(&st->announce)) {
		ipx_timer_init(&st->announce, on_timer, st);
		ipx_timer_start(st->loop, &st->announce, ANNOUNCE_PERIOD,
				ANNOUNCE_PERIOD);
	}
}

void stack_announce_gone(struct ipx_stack *st, uint32_t net)
{
	ipx_timer_stop(st->loop, &st->announce);
	send_on_links(st, net, 16);
}
