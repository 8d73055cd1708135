/*
 * fuzz_bench_msg.c - libFuzzer harness for the benchmark harness's
 * control messages (src/bench/harness_msg.c): the input is a stream of
 * frames, decoded one after another as a control session would.
 *
 * Invariants: a decode either asks for more bytes, refuses with a
 * message, or accepts a frame no longer than the input; an accepted frame
 * encodes back to exactly the bytes it came from (the layout has one
 * spelling per message); a refusal always says why.
 */
#include <string.h>

#include "ipxlab/bench_harness.h"
#include "ipxlab/err.h"

#include "fuzz_common.h"

#define FRAME (IPX_HMSG_HDR_LEN + IPX_HMSG_MAX_BODY)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ipx_hmsg m;
	static uint8_t again[FRAME];
	size_t off = 0;

	while (off < size) {
		size_t used = 0, n;
		char err[256] = "";
		int rc = ipx_hmsg_decode(data + off, size - off, &m, &used, err,
					 sizeof(err));

		if (rc == IPX_EAGAIN)
			break;
		if (rc != IPX_OK) {
			CHECK(rc == IPX_EINVAL);
			CHECK(err[0] != '\0');
			break;
		}
		CHECK(used >= IPX_HMSG_HDR_LEN && used <= size - off);
		CHECK(m.type > 0 && m.type < IPX_HMSG_TYPE_END);
		n = ipx_hmsg_encode(&m, again, sizeof(again));
		CHECK(n == used);
		CHECK(memcmp(again, data + off, n) == 0);
		off += used;
	}
	return 0;
}
