/*
 * svcnet.c - small internetworks for the service tests (see svcnet.h).
 */
#include "svcnet.h"

#include <stdlib.h>
#include <string.h>

struct svcnet *svcnet_new(size_t nseg, const uint32_t *nets)
{
	struct svcnet *n = calloc(1, sizeof(*n));

	if (!n || nseg > SVCNET_SEGS)
		abort();
	ipx_clock_fake_init(&n->clk, 0);
	n->loop = ipx_loop_new(&n->clk);
	for (size_t i = 0; i < nseg; i++)
		n->seg[i] = ipx_mem_segment_new(n->loop, nets[i], i + 1);
	n->nseg = nseg;
	return n;
}

struct svcnode *svcnet_add(struct svcnet *n, unsigned flags, const int *segs,
			   size_t nsegs)
{
	struct svcnode *sn = &n->nodes[n->nnodes++];
	struct ipx_rip_options ro = { .router = (flags & SVC_ROUTER) != 0 };
	struct ipx_sap_options so = { .router = (flags & SVC_ROUTER) != 0 };

	if (n->nnodes > SVCNET_NODES)
		abort();
	sn->node = ipx_node_new(n->loop, NULL);
	for (size_t i = 0; i < nsegs; i++) {
		/* 02:00:00:00:NN:SS, unique across segments. */
		uint8_t id[6] = { 2, 0, 0, 0, (uint8_t)n->nnodes,
				  (uint8_t)(segs[i] + 1) };

		sn->links[i] = ipx_mem_link_new(n->seg[segs[i]], id);
		if (!sn->links[i] ||
		    ipx_node_add_link(sn->node, sn->links[i]) != 0)
			abort();
	}
	if (ipx_rip_new(sn->node, &ro, &sn->rip) != 0)
		abort();
	if ((flags & SVC_SAP) && ipx_sap_new(sn->node, &so, &sn->sap) != 0)
		abort();
	if ((flags & SVC_RESPONDERS) &&
	    (ipx_diag_new(sn->node, &sn->diag) != 0 ||
	     ipx_ping_responder_new(sn->node, &sn->pong) != 0))
		abort();
	return sn;
}

void svcnet_free(struct svcnet *n)
{
	for (size_t i = 0; i < n->nnodes; i++) {
		struct svcnode *sn = &n->nodes[i];

		ipx_sap_free(sn->sap);
		ipx_rip_free(sn->rip);
		ipx_diag_free(sn->diag);
		ipx_ping_responder_free(sn->pong);
		ipx_node_free(sn->node);
	}
	for (size_t i = 0; i < n->nseg; i++)
		ipx_mem_segment_free(n->seg[i]);
	ipx_loop_free(n->loop);
	free(n);
}

void svcnet_addr(const struct svcnode *sn, uint16_t socket,
		 struct ipx_addr *out)
{
	ipx_node_address(sn->node, out);
	out->socket = socket;
}

void svcnet_inject(struct svcnode *sn, size_t li, const uint8_t from[6],
		   uint16_t sock, const struct ipx_addr *to, uint8_t type,
		   uint8_t hops, const void *payload, size_t len)
{
	struct ipx_link *link = sn->links[li];
	struct ipx_header h = { .checksum = IPX_NO_CHECKSUM,
				.length = (uint16_t)(IPX_HDR_LEN + len),
				.hops = hops, .type = type };
	uint8_t pkt[IPX_HDR_LEN + 600];

	if (len > sizeof(pkt) - IPX_HDR_LEN)
		abort();
	if (to) {
		h.dst = *to;
	} else {
		h.dst.net = link->net;
		memcpy(h.dst.node, ipx_node_broadcast, IPX_NODE_LEN);
		h.dst.socket = sock;
	}
	h.src.net = link->net;
	memcpy(h.src.node, from, IPX_NODE_LEN);
	h.src.socket = sock;
	ipx_header_encode(&h, pkt);
	memcpy(pkt + IPX_HDR_LEN, payload, len);
	ipx_node_input(sn->node, link, pkt, h.length);
}

void inbox_collect(struct ipx_socket *s, const struct ipx_header *h,
		   const uint8_t *data, size_t len, void *ctx)
{
	struct inbox *in = ctx;

	(void)s;
	if (!in || in->n >= 32)
		return;
	in->hdr[in->n] = *h;
	in->len[in->n] = len;
	memcpy(in->data[in->n], data, len < 512 ? len : 512);
	in->n++;
}
