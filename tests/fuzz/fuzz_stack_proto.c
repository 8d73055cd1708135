/*
 * fuzz_stack_proto.c - libFuzzer harness for the stack protocol's codec
 * (src/stack/proto.c, stack_proto.h): what `ipxlab stack` decodes from
 * programs (control requests, data frames) and what the shim decodes from
 * the stack (replies). The first byte picks the parser, the rest is the
 * message.
 *
 * Invariants: a request or frame header that decodes re-encodes to the
 * same bytes; a decoded device or call name is printable and within its
 * field; a reply's body lies inside the message; nothing crashes.
 */
#include <string.h>

#include "ipxlab/err.h"
#include "ipxlab/stack_proto.h"

#include "fuzz_common.h"

static void printable(const char *s, size_t max)
{
	size_t n = strnlen(s, max + 1);

	CHECK(n <= max);
	for (size_t i = 0; i < n; i++)
		CHECK(s[i] > 0x20 && s[i] < 0x7F);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data + 1;
	size_t n = size ? size - 1 : 0;

	if (size < 1)
		return 0;
	switch (data[0] % 3) {
	case 0: {
		struct ipx_stack_req req;
		uint8_t again[IPX_STACK_REQ_HDR + 64];

		if (ipx_stack_req_decode(p, n, &req) != IPX_OK)
			break;
		printable(req.dev, IPX_STACK_DEVLEN);
		printable(req.name, IPX_STACK_NAMELEN - 1);
		CHECK(ipx_stack_req_encode(&req, again, sizeof(again)) == n);
		CHECK(memcmp(again, p, n) == 0);
		break;
	}
	case 1: {
		struct ipx_stack_frame f;
		uint8_t again[IPX_STACK_FRAME_HDR];

		if (ipx_stack_frame_decode(p, n, &f) != IPX_OK)
			break;
		CHECK(n >= IPX_STACK_FRAME_HDR);
		CHECK(n - IPX_STACK_FRAME_HDR <= IPX_STACK_MAX_PAYLOAD);
		ipx_stack_frame_encode(again, &f);
		CHECK(memcmp(again, p, IPX_STACK_FRAME_HDR) == 0);
		break;
	}
	default: {
		struct ipx_stack_reply r;

		if (ipx_stack_reply_decode(p, n, &r) != IPX_OK)
			break;
		CHECK(r.body == p + IPX_STACK_REPLY_HDR);
		CHECK(r.len == n - IPX_STACK_REPLY_HDR);
		CHECK(!(r.op & IPX_STACK_REPLY_BIT));
		break;
	}
	}
	return 0;
}
