/*
 * fuzz_svc.h - what the RIP, SAP, diagnostics and ping harnesses share: a
 * node on two in-memory segments (networks 0x0A and 0x0B, a neighbour on
 * each) on a fake clock, and a way to hand it one fuzzed packet.
 *
 * Input layout: byte 0 holds flags, the rest is the IPX payload.
 *   bit 0  the packet crossed a router (hops 1, not from a neighbour)
 *   bit 1  sent to the broadcast node (else to our node)
 *   bit 2  looped back locally (no link), as our own packets are
 *   bit 3  on the second segment
 *   bit 4  from source network 0 (a node that does not know it)
 */
#ifndef IPXLAB_FUZZ_SVC_H
#define IPXLAB_FUZZ_SVC_H

#include <string.h>

#include "ipxlab/clock.h"
#include "ipxlab/err.h"
#include "ipxlab/ipx.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/log.h"
#include "ipxlab/loop.h"
#include "ipxlab/node.h"

#include "fuzz_common.h"

struct svc_world {
	struct ipx_clock clock;
	struct ipx_loop *loop;
	struct ipx_mem_segment *seg[2];
	struct ipx_node *node;
	struct ipx_link *link[2];
};

static void svc_world_open(struct svc_world *w, bool router)
{
	static const uint8_t me[2][6] = { { 2, 0, 0, 0, 0, 1 },
					  { 2, 0, 0, 0, 1, 1 } };

	memset(w, 0, sizeof(*w));
	ipx_log_set_level(IPX_LOG_ERROR);
	ipx_clock_fake_init(&w->clock, 1000 * IPX_SEC);
	w->loop = ipx_loop_new(&w->clock);
	CHECK(w->loop);
	w->node = ipx_node_new(w->loop, NULL);
	CHECK(w->node);
	for (int i = 0; i < (router ? 2 : 1); i++) {
		w->seg[i] = ipx_mem_segment_new(w->loop, 0x0A + (uint32_t)i,
						 (uint64_t)i + 1);
		CHECK(w->seg[i]);
		w->link[i] = ipx_mem_link_new(w->seg[i], me[i]);
		CHECK(w->link[i]);
		CHECK(ipx_node_add_link(w->node, w->link[i]) == IPX_OK);
		/* The neighbour, 02:00:00:00:0S:02. */
		CHECK(ipx_mem_link_new(w->seg[i],
				       (const uint8_t[]){ 2, 0, 0, 0,
							  (uint8_t)i, 2 }));
	}
}

/* Hand the node one packet to 'socket' built from the fuzz input. */
static void svc_world_deliver(struct svc_world *w, uint16_t socket,
			      uint8_t type, const uint8_t *data, size_t size)
{
	uint8_t pkt[IPX_MAX_PACKET];
	struct ipx_header h = { .checksum = IPX_NO_CHECKSUM, .type = type };
	uint8_t flags = size ? data[0] : 0;
	int side = (flags & 8) && w->link[1] ? 1 : 0;
	size_t len = size ? size - 1 : 0;

	if (len > sizeof(pkt) - IPX_HDR_LEN)
		len = sizeof(pkt) - IPX_HDR_LEN;
	h.length = (uint16_t)(IPX_HDR_LEN + len);
	h.hops = flags & 1;
	h.dst.net = w->link[side]->net;
	memcpy(h.dst.node, flags & 2 ? ipx_node_broadcast : w->link[side]->node,
	       IPX_NODE_LEN);
	h.dst.socket = socket;
	h.src.net = flags & 16 ? 0 : w->link[side]->net;
	memcpy(h.src.node, (const uint8_t[]){ 2, 0, 0, 0, (uint8_t)side, 2 },
	       IPX_NODE_LEN);
	h.src.socket = socket;
	ipx_header_encode(&h, pkt);
	if (len)
		memcpy(pkt + IPX_HDR_LEN, data + 1, len);
	ipx_node_input(w->node, flags & 4 ? NULL : w->link[side], pkt,
		       h.length);
}

#endif
