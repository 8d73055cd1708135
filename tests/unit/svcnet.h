/*
 * svcnet.h - builds small IPX internetworks for the routing, SAP and
 * diagnostics tests: in-memory segments (one network number each) on one
 * fake clock, and nodes on one or more of them, each with a RIP agent
 * (a router when on several segments or asked to be) and, on request, a
 * SAP agent, a diagnostics responder and a ping responder.
 */
#ifndef IPXLAB_TEST_SVCNET_H
#define IPXLAB_TEST_SVCNET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ipxlab/clock.h"
#include "ipxlab/diag.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/loop.h"
#include "ipxlab/node.h"
#include "ipxlab/ping.h"
#include "ipxlab/rip.h"
#include "ipxlab/sap.h"

#define SVCNET_SEGS 4
#define SVCNET_NODES 8

enum { SVC_ROUTER = 1, SVC_SAP = 2, SVC_RESPONDERS = 4 };

struct svcnode {
	struct ipx_node *node;
	struct ipx_link *links[SVCNET_SEGS];	/* by the order given */
	struct ipx_rip *rip;
	struct ipx_sap *sap;
	struct ipx_diag *diag;
	struct ipx_ping_responder *pong;
};

struct svcnet {
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_mem_segment *seg[SVCNET_SEGS];
	size_t nseg;
	struct svcnode nodes[SVCNET_NODES];
	size_t nnodes;
};

/* Segments with these network numbers, seeded 1, 2, ... */
struct svcnet *svcnet_new(size_t nseg, const uint32_t *nets);
/* A node on segments segs[0..nsegs-1] (indexes), link ticks all 1. Its
 * services start at once; ipx_rip_new and friends must succeed. */
struct svcnode *svcnet_add(struct svcnet *n, unsigned flags, const int *segs,
			   size_t nsegs);
void svcnet_free(struct svcnet *n);
/* Address of a node on its first link (or its internal address). */
void svcnet_addr(const struct svcnode *sn, uint16_t socket,
		 struct ipx_addr *out);

/*
 * Feed sn, as if its link 'li' received it, a packet from 'from' (a node on
 * that link's network, socket 'sock') to 'to' (broadcast when NULL, same
 * socket), of IPX type 'type' with 'hops' already in its header.
 */
void svcnet_inject(struct svcnode *sn, size_t li, const uint8_t from[6],
		   uint16_t sock, const struct ipx_addr *to, uint8_t type,
		   uint8_t hops, const void *payload, size_t len);

/* A socket that keeps what it receives. */
struct inbox {
	int n;
	struct ipx_header hdr[32];
	uint8_t data[32][512];
	size_t len[32];
};

void inbox_collect(struct ipx_socket *s, const struct ipx_header *h,
		   const uint8_t *data, size_t len, void *ctx);

#endif
