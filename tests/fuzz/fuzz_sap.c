/*
 * fuzz_sap.c - libFuzzer harness for SAP (src/sap/sap.c): the codec and a
 * router agent on two networks, advertising one service of its own,
 * receiving the packet (see fuzz_svc.h for the input layout).
 *
 * Invariants: good entries re-encode to the bytes they came from (the name
 * up to its NUL); every packet is counted once, as a query, a response or
 * one named drop; every table entry has a valid name, a type other than
 * 0/FFFF and fewer than 16 hops; after 200 s only our own service is left.
 */
#include <stdlib.h>

#include "ipxlab/sap.h"

#include "fuzz_svc.h"

static uint64_t outcomes(const struct ipx_sap_stats *s)
{
	uint64_t n = s->rx_queries + s->rx_responses;

	for (int d = 0; d < IPX_SAP_DROP_COUNT; d++)
		if (d != IPX_SAP_DROP_BAD_ENTRY && d != IPX_SAP_DROP_TX &&
		    d != IPX_SAP_DROP_NOT_NEIGHBOUR && d != IPX_SAP_DROP_NOT_ROUTER)
			n += s->drops[d];
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct svc_world w;
	static struct ipx_sap *sap;
	struct ipx_sap_options so = { .router = true };
	struct ipx_sap_msg msg, again;
	enum ipx_sap_drop why;
	uint8_t buf[IPX_SAP_MAX_LEN];
	uint64_t before;

	if (size > 1 && ipx_sap_decode(data + 1, size - 1, &msg, &why) == IPX_OK &&
	    msg.count) {
		size_t n = ipx_sap_encode(&msg, buf, sizeof(buf));

		CHECK(n == 2 + msg.count * IPX_SAP_ENTRY_LEN);
		CHECK(ipx_sap_decode(buf, n, &again, &why) == IPX_OK);
		CHECK(again.count == msg.count && again.bad == 0);
		for (size_t i = 0; i < msg.count; i++)
			CHECK(!strcmp(again.entries[i].name,
				      msg.entries[i].name));
	}
	if (!sap) {	/* one world for every input */
		svc_world_open(&w, true);
		ipx_node_set_forwarding(w.node, true);
		CHECK(ipx_sap_new(w.node, &so, &sap) == IPX_OK);
		CHECK(ipx_sap_advertise(sap, 4, "FUZZ_SERVER", 0x451) ==
		      IPX_OK);
		CHECK(ipx_loop_run_for(w.loop, IPX_SEC) == IPX_OK);
	}
	before = outcomes(ipx_sap_stats(sap));
	svc_world_deliver(&w, IPX_SOCK_SAP, IPX_TYPE_PEP, data, size);
	CHECK(outcomes(ipx_sap_stats(sap)) == before + 1);
	for (size_t i = 0; i < ipx_sap_count(sap); i++) {
		const struct ipx_sap_entry *e = ipx_sap_at(sap, i);

		CHECK(ipx_sap_name_ok(e->name));
		CHECK(e->type != 0 && e->type != IPX_SAP_ANY_TYPE);
		CHECK(e->hops < IPX_SAP_DOWN);
	}
	CHECK(ipx_loop_run_for(w.loop, 200 * IPX_SEC) == IPX_OK);
	CHECK(ipx_sap_count(sap) == 1);
	return 0;
}
