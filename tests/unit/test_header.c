/*
 * test_header.c - the 30-byte IPX header codec, validation and checksum.
 */
#include "cm.h"

#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/ipx.h"

/* A header as DOSBox would put it on the wire, written out by hand. */
static const uint8_t wire[30] = {
	0xFF, 0xFF, 0x00, 0x22, 0x03, 0x04,	/* cksum, len 34, hops, type */
	0x00, 0x00, 0x00, 0x01,			/* dst net */
	0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,	/* dst node */
	0x45, 0x45,				/* dst socket */
	0x12, 0x34, 0x56, 0x78,			/* src net */
	0x7F, 0x00, 0x00, 0x01, 0xD2, 0x04,	/* src node */
	0x40, 0x01,				/* src socket */
};

static void decodes_every_field_at_its_offset(void **state)
{
	uint8_t pkt[34] = { 0 };
	struct ipx_header h;

	(void)state;
	memcpy(pkt, wire, 30);
	assert_int_equal(ipx_header_decode(pkt, sizeof(pkt), &h), IPX_OK);
	assert_int_equal(h.checksum, 0xFFFF);
	assert_int_equal(h.length, 34);
	assert_int_equal(h.hops, 3);
	assert_int_equal(h.type, 4);
	assert_int_equal(h.dst.net, 1);
	assert_true(ipx_node_is_broadcast(h.dst.node));
	assert_int_equal(h.dst.socket, 0x4545);
	assert_int_equal(h.src.net, 0x12345678);
	assert_memory_equal(h.src.node, "\x7F\x00\x00\x01\xD2\x04", 6);
	assert_int_equal(h.src.socket, 0x4001);
}

static void encode_is_the_inverse(void **state)
{
	uint8_t pkt[34] = { 0 }, out[30];
	struct ipx_header h;

	(void)state;
	memcpy(pkt, wire, 30);
	assert_int_equal(ipx_header_decode(pkt, sizeof(pkt), &h), IPX_OK);
	ipx_header_encode(&h, out);
	assert_memory_equal(out, wire, 30);
}

static void validates_lengths(void **state)
{
	uint8_t pkt[64] = { 0 };
	struct ipx_header h;

	(void)state;
	memcpy(pkt, wire, 30);
	assert_int_equal(ipx_header_decode(pkt, 29, &h), IPX_ESHORT);
	assert_int_equal(ipx_header_decode(pkt, 0, &h), IPX_ESHORT);
	/* Length field beyond the datagram. */
	assert_int_equal(ipx_header_decode(pkt, 33, &h), IPX_EBADLEN);
	/* Length field below the header size. */
	ipx_put16(pkt + 2, 29);
	assert_int_equal(ipx_header_decode(pkt, 64, &h), IPX_EBADLEN);
	/* Padding past the length field is fine (short Ethernet frames). */
	ipx_put16(pkt + 2, 30);
	assert_int_equal(ipx_header_decode(pkt, 64, &h), IPX_OK);
	assert_int_equal(h.length, 30);
}

static void checksum_ignores_hops_and_verifies(void **state)
{
	uint8_t pkt[33];
	uint16_t c1, c2;

	(void)state;
	memcpy(pkt, wire, 30);
	ipx_put16(pkt + 2, 33);
	pkt[30] = 'a', pkt[31] = 'b', pkt[32] = 'c';
	c1 = ipx_checksum(pkt, 33);
	pkt[4] = 9;	/* a router raised the hop count */
	c2 = ipx_checksum(pkt, 33);
	assert_int_equal(c1, c2);
	pkt[32] = 'd';
	assert_int_not_equal(ipx_checksum(pkt, 33), c1);
	/* One's complement property: the sum including the checksum is 0. */
	pkt[32] = 'c';
	ipx_put16(pkt, c1);
	{
		uint32_t sum = 0;

		for (size_t i = 0; i + 1 < 33; i += 2)
			sum += i == 4 ? pkt[5] : ipx_get16(pkt + i);
		sum += (uint32_t)pkt[32] << 8;
		while (sum >> 16)
			sum = (sum & 0xFFFF) + (sum >> 16);
		assert_int_equal(sum, 0xFFFF);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(decodes_every_field_at_its_offset),
		cmocka_unit_test(encode_is_the_inverse),
		cmocka_unit_test(validates_lengths),
		cmocka_unit_test(checksum_ignores_hops_and_verifies),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
