/*
 * fuzz_rip.c - libFuzzer harness for RIP (src/rip/rip.c): the codec and
 * a router agent on two networks receiving the packet (see fuzz_svc.h for
 * the input layout).
 *
 * Invariants: a payload that decodes re-encodes to the same bytes; every
 * packet is counted once, as a request, a response, or one named drop;
 * the table never holds an attached network, network 0 or FFFFFFFF, or
 * an unreachable route, and 200 s later every learned route has expired.
 * One router lives through all inputs (creating one per input is slow).
 */
#include <stdlib.h>

#include "ipxlab/rip.h"

#include "fuzz_svc.h"

static uint64_t outcomes(const struct ipx_rip_stats *s)
{
	uint64_t n = s->rx_requests + s->rx_responses;

	for (int d = 0; d < IPX_RIP_DROP_COUNT; d++)
		if (d != IPX_RIP_DROP_BAD_ENTRY && d != IPX_RIP_DROP_TX &&
		    d != IPX_RIP_DROP_NOT_ROUTER && d != IPX_RIP_DROP_NOT_NEIGHBOUR)
			n += s->drops[d];
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct svc_world w;
	static struct ipx_rip *rip;
	struct ipx_rip_options ro = { .router = true };
	struct ipx_rip_msg msg;
	enum ipx_rip_drop why;
	uint8_t again[IPX_RIP_MAX_LEN];
	uint64_t before;

	if (size > 1 &&
	    ipx_rip_decode(data + 1, size - 1, &msg, &why) == IPX_OK) {
		CHECK(ipx_rip_encode(&msg, again, sizeof(again)) == size - 1);
		CHECK(memcmp(again, data + 1, size - 1) == 0);
	}
	if (!rip) {	/* one world for every input: fast, and it ages */
		svc_world_open(&w, true);
		CHECK(ipx_rip_new(w.node, &ro, &rip) == IPX_OK);
		CHECK(ipx_loop_run_for(w.loop, IPX_SEC) == IPX_OK);
	}
	before = outcomes(ipx_rip_stats(rip));
	svc_world_deliver(&w, IPX_SOCK_RIP, IPX_TYPE_RIP, data, size);
	CHECK(outcomes(ipx_rip_stats(rip)) == before + 1);
	for (size_t i = 0; i < ipx_node_route_count(w.node); i++) {
		const struct ipx_route *r = ipx_node_route_at(w.node, i);

		CHECK(r->net != 0 && r->net != 0xFFFFFFFFu);
		CHECK(r->net != 0x0A && r->net != 0x0B);
		CHECK(r->hops < IPX_RIP_UNREACHABLE);
		CHECK(r->kind == IPX_ROUTE_LEARNED);
	}
	CHECK(ipx_loop_run_for(w.loop, 200 * IPX_SEC) == IPX_OK);
	CHECK(ipx_node_route_count(w.node) == 0);	/* all expired */
	return 0;
}
