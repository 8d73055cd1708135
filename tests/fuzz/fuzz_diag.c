/*
 * fuzz_diag.c - libFuzzer harness for IPX diagnostics (src/diag/diag.c):
 * the response decoder on the raw input, and a router's responder on two
 * networks receiving it as a configuration request (see fuzz_svc.h).
 *
 * Invariants: a response that decodes re-encodes to a prefix-equal packet
 * of the length it read, and decodes the same again; the responder counts
 * every request once and either answers (one response) or names the drop.
 */
#include <stdlib.h>

#include "ipxlab/diag.h"

#include "fuzz_svc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ipx_diag_response r, again;
	enum ipx_diag_drop why;
	uint8_t buf[2048];	/* more than any IPX payload */
	static struct svc_world w;
	static struct ipx_diag *diag;
	const struct ipx_diag_stats *s;
	uint64_t drops = 0, before;

	if (ipx_diag_decode_response(data, size, &r, &why) == IPX_OK) {
		size_t n = ipx_diag_encode_response(&r, buf, sizeof(buf));

		CHECK(n >= 5 && n <= size);
		CHECK(memcmp(buf, data, 5) == 0);
		CHECK(ipx_diag_decode_response(buf, n, &again, &why) == IPX_OK);
		CHECK(again.count == r.count);
		for (size_t i = 0; i < r.count; i++)
			CHECK(again.comps[i].id == r.comps[i].id &&
			      again.comps[i].nnets == r.comps[i].nnets);
	}
	if (!diag) {	/* one world for every input */
		svc_world_open(&w, true);
		ipx_node_set_forwarding(w.node, true);
		CHECK(ipx_diag_new(w.node, &diag) == IPX_OK);
	}
	s = ipx_diag_stats(diag);
	for (int d = 0; d < IPX_DIAG_DROP_COUNT; d++)
		drops += s->drops[d];
	before = s->tx_responses + drops;
	svc_world_deliver(&w, IPX_SOCK_DIAG, 0, data, size);
	drops = 0;
	for (int d = 0; d < IPX_DIAG_DROP_COUNT; d++)
		drops += s->drops[d];
	CHECK(s->tx_responses + drops == before + 1);
	CHECK(s->rx_requests == before + 1);
	CHECK(ipx_loop_run_for(w.loop, IPX_SEC) == IPX_OK);
	return 0;
}
