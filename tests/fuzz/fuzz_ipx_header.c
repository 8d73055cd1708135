/*
 * fuzz_ipx_header.c - libFuzzer harness for the IPX header codec and the
 * address text syntax (src/ipx/header.c, src/ipx/addr.c).
 *
 * The input is used three ways:
 *  1. as a received packet: ipx_header_decode must accept exactly the
 *     packets of at least 30 bytes whose length field lies in [30, size],
 *     and an accepted header must re-encode to the same 30 bytes;
 *  2. as text: whatever ipx_addr_parse accepts must format and parse back
 *     to the same address (ipx_socket_parse likewise);
 *  3. its first 12 bytes as an arbitrary address: formatting then parsing
 *     must give it back, in every spelling the parser documents.
 */
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/ipx.h"

#include "fuzz_common.h"

static void check_format_roundtrip(const struct ipx_addr *a)
{
	char text[IPX_ADDR_STRLEN], again[IPX_ADDR_STRLEN], alt[64], node[13];
	struct ipx_addr back;

	ipx_addr_format(a, text);
	CHECK(strlen(text) == IPX_ADDR_STRLEN - 1);
	CHECK(text[8] == ':' && text[21] == ':');
	CHECK(ipx_addr_parse(text, &back) == IPX_OK);
	CHECK(ipx_addr_eq(a, &back));
	ipx_addr_format(&back, again);
	CHECK(strcmp(text, again) == 0);

	/* The other documented spellings of the same address. */
	snprintf(alt, sizeof(alt), "0x%x.%02x-%02x-%02x-%02x-%02x-%02x.0x%x",
		 (unsigned)a->net, a->node[0], a->node[1], a->node[2],
		 a->node[3], a->node[4], a->node[5], a->socket);
	CHECK(ipx_addr_parse(alt, &back) == IPX_OK);
	CHECK(ipx_addr_eq(a, &back));
	snprintf(alt, sizeof(alt), "%x:%s:%x", (unsigned)a->net,
		 ipx_node_format(a->node, node), a->socket);
	CHECK(strlen(node) == 12);
	CHECK(ipx_addr_parse(alt, &back) == IPX_OK);
	CHECK(ipx_addr_eq(a, &back));
}

static void fuzz_decode(const uint8_t *data, size_t size)
{
	struct ipx_header h;
	uint8_t out[IPX_HDR_LEN];
	int rc = ipx_header_decode(data, size, &h);

	if (size < IPX_HDR_LEN) {
		CHECK(rc == IPX_ESHORT);
		return;
	}
	{
		/* The length field straight from the bytes, BE at offset 2. */
		unsigned wire_len = (unsigned)data[2] << 8 | data[3];
		bool valid = wire_len >= IPX_HDR_LEN && wire_len <= size;

		CHECK(rc == (valid ? IPX_OK : IPX_EBADLEN));
	}
	if (rc != IPX_OK)
		return;
	CHECK(h.length >= IPX_HDR_LEN);
	CHECK(h.length <= size);
	ipx_header_encode(&h, out);
	CHECK(memcmp(out, data, IPX_HDR_LEN) == 0);
	/* Field by field against the documented offsets. */
	CHECK(h.checksum == ipx_get16(data));
	CHECK(h.hops == data[4] && h.type == data[5]);
	CHECK(h.dst.net == ipx_get32(data + 6));
	CHECK(memcmp(h.dst.node, data + 10, IPX_NODE_LEN) == 0);
	CHECK(h.dst.socket == ipx_get16(data + 16));
	CHECK(h.src.net == ipx_get32(data + 18));
	CHECK(memcmp(h.src.node, data + 22, IPX_NODE_LEN) == 0);
	CHECK(h.src.socket == ipx_get16(data + 28));

	/* The checksum only reads the packet; both addresses round-trip. */
	(void)ipx_checksum(data, h.length);
	check_format_roundtrip(&h.dst);
	check_format_roundtrip(&h.src);
}

static void fuzz_text(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct ipx_addr a, b;
	uint16_t sock, sock2;

	if (!text)
		return;
	memcpy(text, data, size);
	text[size] = '\0';

	memset(&a, 0xA5, sizeof(a));
	if (ipx_addr_parse(text, &a) == IPX_OK) {
		char fmt[IPX_ADDR_STRLEN];

		ipx_addr_format(&a, fmt);
		CHECK(ipx_addr_parse(fmt, &b) == IPX_OK);
		CHECK(ipx_addr_eq(&a, &b));
		/* Accepted text has no room for more than the documented
		 * digits: 8 + 12 + 4 plus separators and 0x prefixes. */
		CHECK(strlen(text) <= 2 + 8 + 1 + 2 + 17 + 1 + 2 + 4);
	}
	if (ipx_socket_parse(text, &sock) == IPX_OK) {
		char fmt[8];

		snprintf(fmt, sizeof(fmt), "%04X", sock);
		CHECK(ipx_socket_parse(fmt, &sock2) == IPX_OK);
		CHECK(sock == sock2);
	}
	free(text);
}

static void fuzz_raw_addr(const uint8_t *data, size_t size)
{
	struct ipx_addr a;
	uint8_t wire[12];

	if (size < 12)
		return;
	ipx_addr_read(data, &a);
	ipx_addr_write(wire, &a);
	CHECK(memcmp(wire, data, sizeof(wire)) == 0);
	check_format_roundtrip(&a);
	CHECK(ipx_node_is_broadcast(a.node) ==
	      (memcmp(a.node, ipx_node_broadcast, IPX_NODE_LEN) == 0));
	CHECK(ipx_node_is_zero(a.node) ==
	      (memcmp(a.node, ipx_node_zero, IPX_NODE_LEN) == 0));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_decode(data, size);
	fuzz_text(data, size);
	fuzz_raw_addr(data, size);
	return 0;
}
