/*
 * fuzz_ping.c - libFuzzer harness for Novell ping (src/diag/ping.c): the
 * decoder on the raw input, and the responder receiving it (see
 * fuzz_svc.h for the input layout).
 *
 * Invariants: a packet that decodes re-encodes byte for byte (reserved
 * and result bytes aside); the responder answers each request exactly
 * once with the same id and data, and counts everything else by name.
 */
#include <stdlib.h>

#include "ipxlab/ping.h"

#include "fuzz_svc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t buf[IPX_MAX_PACKET + 16];
	struct ipx_ping p;
	enum ipx_ping_drop why;
	static struct svc_world w;
	static struct ipx_ping_responder *r;
	struct ipx_ping_stats s0;
	const struct ipx_ping_stats *s;
	uint64_t drops = 0;

	if (ipx_ping_decode(data, size, &p, &why) == IPX_OK) {
		size_t n = ipx_ping_encode(p.type, p.id, p.data, p.len, buf,
					   sizeof(buf));

		CHECK(n == size);
		CHECK(memcmp(buf, data, 8) == 0);
		CHECK(p.len == 0 || memcmp(buf + 10, data + 10, p.len) == 0);
	}
	if (!r) {	/* one world for every input */
		svc_world_open(&w, false);
		CHECK(ipx_ping_responder_new(w.node, &r) == IPX_OK);
	}
	s = ipx_ping_responder_stats(r);
	s0 = *s;
	svc_world_deliver(&w, IPX_SOCK_PING, IPX_TYPE_PEP, data, size);
	for (int d = 0; d < IPX_PING_DROP_COUNT; d++)
		if (d != IPX_PING_DROP_TX)
			drops += s->drops[d] - s0.drops[d];
	CHECK(s->rx_requests - s0.rx_requests + drops == 1);
	CHECK(s->tx_replies + s->drops[IPX_PING_DROP_TX] == s->rx_requests);
	CHECK(ipx_loop_run_for(w.loop, IPX_SEC) == IPX_OK);
	return 0;
}
