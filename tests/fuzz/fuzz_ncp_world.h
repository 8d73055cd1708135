/*
 * fuzz_ncp_world.h - what the two NCP harnesses share: two nodes on one
 * in-memory segment (network 0x10) on a fake clock, built once.
 */
#ifndef IPXLAB_FUZZ_NCP_WORLD_H
#define IPXLAB_FUZZ_NCP_WORLD_H

#include <string.h>

#include "ipxlab/clock.h"
#include "ipxlab/err.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/log.h"
#include "ipxlab/loop.h"
#include "ipxlab/node.h"

#include "fuzz_common.h"

struct ncp_world {
	struct ipx_clock clock;
	struct ipx_loop *loop;
	struct ipx_mem_segment *seg;
	struct ipx_node *a, *b;	/* a: the server side, b: the client side */
};

static void ncp_world_open(struct ncp_world *w)
{
	static const uint8_t na[6] = { 2, 0, 0, 0, 0, 1 };
	static const uint8_t nb[6] = { 2, 0, 0, 0, 0, 2 };

	memset(w, 0, sizeof(*w));
	ipx_log_set_level(IPX_LOG_ERROR);
	ipx_clock_fake_init(&w->clock, 1000 * IPX_SEC);
	w->loop = ipx_loop_new(&w->clock);
	CHECK(w->loop);
	w->seg = ipx_mem_segment_new(w->loop, 0x10, 1);
	CHECK(w->seg);
	w->a = ipx_node_new(w->loop, NULL);
	w->b = ipx_node_new(w->loop, NULL);
	CHECK(w->a && w->b);
	CHECK(ipx_node_add_link(w->a, ipx_mem_link_new(w->seg, na)) == IPX_OK);
	CHECK(ipx_node_add_link(w->b, ipx_mem_link_new(w->seg, nb)) == IPX_OK);
	CHECK(ipx_loop_run_for(w->loop, 10 * IPX_MSEC) == IPX_OK);
}

#endif
