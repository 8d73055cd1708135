/*
 * test_frame.c - the Novell Ethernet frame codec (src/link/frame.c):
 * every frame type round-trips byte for byte, short packets are padded
 * and the padding cut off again, every drop reason, and the type/length
 * boundaries of protocols.md section 2 (1500/1501/1535/1536).
 */
#include "cm.h"

#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/frame.h"

static const uint8_t DST[6] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };
static const uint8_t SRC[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };

static const enum ipx_frame_type wire_types[] = {
	IPX_FRAME_ETHERNET_II, IPX_FRAME_8023, IPX_FRAME_8022,
	IPX_FRAME_SNAP,
};

/* An IPX packet of 'len' bytes: checksum FFFF, length field = len, a
 * payload pattern. */
static void make_ipx(uint8_t *pkt, size_t len)
{
	memset(pkt, 0, len);
	ipx_put16(pkt, 0xFFFF);
	ipx_put16(pkt + 2, (uint16_t)len);
	pkt[5] = 4;
	ipx_put16(pkt + 16, 0x4545);
	for (size_t i = IPX_HDR_LEN; i < len; i++)
		pkt[i] = (uint8_t)(i * 7);
}

static size_t enc(enum ipx_frame_type t, const uint8_t *pkt, size_t len,
		  uint8_t *frame, size_t cap)
{
	return ipx_frame_encode(t, DST, SRC, pkt, len, frame, cap);
}

/* The frame decodes as type t with the packet's length, right after the
 * MAC header and the type's LLC/SNAP bytes. */
static void decodes_as(const uint8_t *frame, size_t n,
		       enum ipx_frame_type t, size_t len)
{
	struct ipx_frame_info fi;
	enum ipx_frame_drop drop;

	assert_int_equal(ipx_frame_decode(frame, n, &fi, &drop), 0);
	assert_int_equal(fi.type, t);
	assert_ptr_equal(fi.dst, frame);
	assert_ptr_equal(fi.src, frame + 6);
	assert_ptr_equal(fi.ipx, frame + 14 + ipx_frame_overhead(t));
	assert_int_equal(fi.ipx_len, len);
}

static void roundtrip_every_type(void **state)
{
	uint8_t pkt[200], frame[300];

	(void)state;
	make_ipx(pkt, sizeof(pkt));
	for (size_t i = 0; i < 4; i++) {
		enum ipx_frame_type t = wire_types[i];
		size_t over = ipx_frame_overhead(t);
		size_t n = enc(t, pkt, sizeof(pkt), frame, sizeof(frame));

		assert_int_equal(n, 14 + over + sizeof(pkt));
		assert_memory_equal(frame, DST, 6);
		assert_memory_equal(frame + 6, SRC, 6);
		assert_memory_equal(frame + 14 + over, pkt, sizeof(pkt));
		decodes_as(frame, n, t, sizeof(pkt));
	}
}

static void type_length_and_llc_bytes(void **state)
{
	uint8_t pkt[100], frame[200];
	size_t n;

	(void)state;
	make_ipx(pkt, sizeof(pkt));
	n = enc(IPX_FRAME_ETHERNET_II, pkt, 100, frame, sizeof(frame));
	assert_int_equal(n, 114);
	assert_int_equal(ipx_get16(frame + 12), 0x8137);

	n = enc(IPX_FRAME_8023, pkt, 100, frame, sizeof(frame));
	assert_int_equal(n, 114);
	assert_int_equal(ipx_get16(frame + 12), 100);
	assert_int_equal(ipx_get16(frame + 14), 0xFFFF);

	n = enc(IPX_FRAME_8022, pkt, 100, frame, sizeof(frame));
	assert_int_equal(n, 117);
	assert_int_equal(ipx_get16(frame + 12), 103);
	assert_memory_equal(frame + 14, "\xE0\xE0\x03", 3);

	n = enc(IPX_FRAME_SNAP, pkt, 100, frame, sizeof(frame));
	assert_int_equal(n, 122);
	assert_int_equal(ipx_get16(frame + 12), 108);
	assert_memory_equal(frame + 14, "\xAA\xAA\x03\x00\x00\x00\x81\x37", 8);
}

static void short_packets_are_padded_and_cut(void **state)
{
	uint8_t pkt[31], frame[100];

	(void)state;
	make_ipx(pkt, sizeof(pkt));
	for (size_t i = 0; i < 4; i++) {
		enum ipx_frame_type t = wire_types[i];
		size_t over = ipx_frame_overhead(t), n;

		memset(frame, 0xA5, sizeof(frame));
		n = enc(t, pkt, sizeof(pkt), frame, sizeof(frame));
		assert_int_equal(n, IPX_ETH_MIN_FRAME);
		for (size_t k = 14 + over + sizeof(pkt); k < n; k++)
			assert_int_equal(frame[k], 0);
		/* The 802.3 length field is the packet's, not the padded
		 * payload's. */
		if (t != IPX_FRAME_ETHERNET_II)
			assert_int_equal(ipx_get16(frame + 12),
					 over + sizeof(pkt));
		decodes_as(frame, n, t, sizeof(pkt));
	}
}

static void encode_refuses(void **state)
{
	/* Packet size, room, and the frame length expected (0: refused). */
	static const struct {
		enum ipx_frame_type t;
		size_t len, room, want;
	} cases[] = {
		/* The largest packet each type carries, and one byte more. */
		{ IPX_FRAME_ETHERNET_II, 1500, 1600, 1514 },
		{ IPX_FRAME_ETHERNET_II, 1501, 1600, 0 },
		{ IPX_FRAME_8023, 1500, 1600, 1514 },
		{ IPX_FRAME_8023, 1501, 1600, 0 },
		{ IPX_FRAME_8022, 1497, 1600, 1514 },
		{ IPX_FRAME_8022, 1498, 1600, 0 },
		{ IPX_FRAME_SNAP, 1492, 1600, 1514 },
		{ IPX_FRAME_SNAP, 1493, 1600, 0 },
		/* Shorter than an IPX header; no room; not a wire type. */
		{ IPX_FRAME_ETHERNET_II, 29, 1600, 0 },
		{ IPX_FRAME_ETHERNET_II, 100, 113, 0 },
		{ IPX_FRAME_ETHERNET_II, 100, 114, 114 },
		{ IPX_FRAME_ETHERNET_II, 30, 59, 0 },
		{ IPX_FRAME_AUTO, 100, 1600, 0 },
	};
	uint8_t pkt[1501], frame[1600];

	(void)state;
	make_ipx(pkt, sizeof(pkt));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(enc(cases[i].t, pkt, cases[i].len, frame,
				     cases[i].room),
				 cases[i].want);
	/* Raw 802.3 cannot carry a checksummed packet; 802.2 can. */
	ipx_put16(pkt, 0x1234);
	assert_int_equal(enc(IPX_FRAME_8023, pkt, 100, frame, sizeof(frame)),
			 0);
	assert_int_equal(enc(IPX_FRAME_8022, pkt, 100, frame, sizeof(frame)),
			 117);
}

/* A frame with this type/length field and a valid IPX packet after it. */
static size_t frame_with_typelen(uint8_t *frame, uint16_t t)
{
	memset(frame, 0, 200);
	memcpy(frame, DST, 6);
	memcpy(frame + 6, SRC, 6);
	ipx_put16(frame + 12, t);
	make_ipx(frame + 14, 100);
	return 114;
}

static int decode_drop(const uint8_t *frame, size_t len,
		       enum ipx_frame_drop *drop)
{
	struct ipx_frame_info fi;

	return ipx_frame_decode(frame, len, &fi, drop);
}

static void type_length_boundaries(void **state)
{
	uint8_t frame[200];
	struct ipx_frame_info fi;
	enum ipx_frame_drop drop;
	size_t n;

	(void)state;
	/* 1500: an 802.3 length (raw 802.3: FF FF follows). */
	n = frame_with_typelen(frame, 1500);
	assert_int_equal(ipx_frame_decode(frame, n, &fi, &drop), 0);
	assert_int_equal(fi.type, IPX_FRAME_8023);
	/* 1501 and 1535: neither a length nor an EtherType. */
	n = frame_with_typelen(frame, 1501);
	assert_int_equal(decode_drop(frame, n, &drop), -1);
	assert_int_equal(drop, IPX_FRAME_DROP_BAD_TYPELEN);
	n = frame_with_typelen(frame, 1535);
	assert_int_equal(decode_drop(frame, n, &drop), -1);
	assert_int_equal(drop, IPX_FRAME_DROP_BAD_TYPELEN);
	/* 1536 = 0x0600: an EtherType, and not IPX's. */
	n = frame_with_typelen(frame, 1536);
	assert_int_equal(decode_drop(frame, n, &drop), -1);
	assert_int_equal(drop, IPX_FRAME_DROP_NOT_IPX);
	n = frame_with_typelen(frame, 0x0800);
	assert_int_equal(decode_drop(frame, n, &drop), -1);
	assert_int_equal(drop, IPX_FRAME_DROP_NOT_IPX);
	n = frame_with_typelen(frame, 0x8137);
	assert_int_equal(ipx_frame_decode(frame, n, &fi, &drop), 0);
	assert_int_equal(fi.type, IPX_FRAME_ETHERNET_II);
}

static void drop_reasons(void **state)
{
	uint8_t frame[200], pkt[100];
	enum ipx_frame_drop drop;
	size_t n;

	(void)state;
	make_ipx(pkt, sizeof(pkt));
	/* Shorter than a MAC header; a MAC header and half an IPX one. */
	n = frame_with_typelen(frame, 0x8137);
	assert_int_equal(decode_drop(frame, 13, &drop), -1);
	assert_int_equal(drop, IPX_FRAME_DROP_SHORT);
	assert_int_equal(decode_drop(frame, 14 + 29, &drop), -1);
	assert_int_equal(drop, IPX_FRAME_DROP_SHORT);
	n = enc(IPX_FRAME_SNAP, pkt, 100, frame, sizeof(frame));
	assert_int_equal(decode_drop(frame, 14 + 8 + 29, &drop), -1);
	assert_int_equal(drop, IPX_FRAME_DROP_SHORT);
	assert_int_equal(decode_drop(frame, 14 + 5, &drop), -1);
	assert_int_equal(drop, IPX_FRAME_DROP_SHORT);

	/* IPX length field beyond the frame, and below 30. */
	n = enc(IPX_FRAME_8022, pkt, 100, frame, sizeof(frame));
	assert_int_equal(decode_drop(frame, n - 1, &drop), -1);
	assert_int_equal(drop, IPX_FRAME_DROP_BAD_LENGTH);
	ipx_put16(frame + 14 + 3 + 2, 29);
	assert_int_equal(decode_drop(frame, n, &drop), -1);
	assert_int_equal(drop, IPX_FRAME_DROP_BAD_LENGTH);

	/* Another LLC protocol (STP's SAP 0x42); SNAP with another OUI or
	 * protocol; an LLC frame that is not UI. */
	n = enc(IPX_FRAME_8022, pkt, 100, frame, sizeof(frame));
	frame[14] = frame[15] = 0x42;
	assert_int_equal(decode_drop(frame, n, &drop), -1);
	assert_int_equal(drop, IPX_FRAME_DROP_NOT_IPX);
	frame[14] = frame[15] = 0xE0;
	frame[16] = 0x13;
	assert_int_equal(decode_drop(frame, n, &drop), -1);
	assert_int_equal(drop, IPX_FRAME_DROP_NOT_IPX);
	n = enc(IPX_FRAME_SNAP, pkt, 100, frame, sizeof(frame));
	ipx_put16(frame + 20, 0x0800);
	assert_int_equal(decode_drop(frame, n, &drop), -1);
	assert_int_equal(drop, IPX_FRAME_DROP_NOT_IPX);
	ipx_put16(frame + 20, 0x8137);
	frame[19] = 0x0C;
	assert_int_equal(decode_drop(frame, n, &drop), -1);
	assert_int_equal(drop, IPX_FRAME_DROP_NOT_IPX);

	/* Every reason has its counter name. */
	assert_string_equal(ipx_frame_drop_name(IPX_FRAME_DROP_SHORT),
			    "frame_short");
	assert_string_equal(ipx_frame_drop_name(IPX_FRAME_DROP_NOT_IPX),
			    "not_ipx");
	assert_string_equal(ipx_frame_drop_name(IPX_FRAME_DROP_BAD_TYPELEN),
			    "bad_type_length");
	assert_string_equal(ipx_frame_drop_name(IPX_FRAME_DROP_BAD_LENGTH),
			    "bad_ipx_length");
	assert_string_equal(ipx_frame_drop_name(IPX_FRAME_DROP_WRONG_TYPE),
			    "wrong_frame_type");
	assert_string_equal(ipx_frame_drop_name(IPX_FRAME_DROP_LOOPED),
			    "looped_back");
	assert_string_equal(ipx_frame_drop_name(IPX_FRAME_DROP_OTHER_HOST),
			    "other_host");
	assert_string_equal(ipx_frame_drop_name(IPX_FRAME_DROP_TOO_LONG),
			    "frame_too_long");
	assert_string_equal(ipx_frame_drop_name(IPX_FRAME_DROP_COUNT),
			    "unknown");
	for (int d = 0; d < IPX_FRAME_DROP_COUNT; d++)
		assert_true(strlen(ipx_frame_drop_desc(
				    (enum ipx_frame_drop)d)) > 10);
}

static void old_netware_sap_is_8022(void **state)
{
	uint8_t frame[200], pkt[64];
	struct ipx_frame_info fi;
	enum ipx_frame_drop drop;
	size_t n;

	(void)state;
	make_ipx(pkt, sizeof(pkt));
	n = enc(IPX_FRAME_8022, pkt, sizeof(pkt), frame, sizeof(frame));
	frame[14] = 0x10;
	frame[15] = 0x10;
	assert_int_equal(ipx_frame_decode(frame, n, &fi, &drop), 0);
	assert_int_equal(fi.type, IPX_FRAME_8022);
	assert_int_equal(fi.ipx_len, sizeof(pkt));
	assert_ptr_equal(fi.ipx, frame + 17);
}

static void names_and_sizes(void **state)
{
	enum ipx_frame_type t;

	(void)state;
	for (int i = 0; i < IPX_FRAME_TYPES; i++) {
		const char *name = ipx_frame_type_name((enum ipx_frame_type)i);

		assert_int_equal(ipx_frame_type_parse(name, &t), 0);
		assert_int_equal(t, i);
	}
	assert_int_equal(ipx_frame_type_parse("Ethernet_II", &t), 0);
	assert_int_equal(t, IPX_FRAME_ETHERNET_II);
	assert_int_equal(ipx_frame_type_parse("ETHERNET_802.3", &t), 0);
	assert_int_equal(t, IPX_FRAME_8023);
	assert_int_equal(ipx_frame_type_parse("raw", &t), 0);
	assert_int_equal(t, IPX_FRAME_8023);
	assert_int_equal(ipx_frame_type_parse("Ethernet_802.2", &t), 0);
	assert_int_equal(t, IPX_FRAME_8022);
	assert_int_equal(ipx_frame_type_parse("Ethernet_SNAP", &t), 0);
	assert_int_equal(t, IPX_FRAME_SNAP);
	assert_int_equal(ipx_frame_type_parse("token_ring", &t), -1);
	assert_int_equal(ipx_frame_type_parse("", &t), -1);
	assert_string_equal(ipx_frame_type_name(IPX_FRAME_TYPES), "unknown");

	assert_int_equal(ipx_frame_mtu(IPX_FRAME_ETHERNET_II), 1500);
	assert_int_equal(ipx_frame_mtu(IPX_FRAME_8023), 1500);
	assert_int_equal(ipx_frame_mtu(IPX_FRAME_8022), 1497);
	assert_int_equal(ipx_frame_mtu(IPX_FRAME_SNAP), 1492);
	assert_int_equal(ipx_frame_mtu(IPX_FRAME_AUTO), 1492);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(roundtrip_every_type),
		cmocka_unit_test(type_length_and_llc_bytes),
		cmocka_unit_test(short_packets_are_padded_and_cut),
		cmocka_unit_test(encode_refuses),
		cmocka_unit_test(type_length_boundaries),
		cmocka_unit_test(drop_reasons),
		cmocka_unit_test(old_netware_sap_is_8022),
		cmocka_unit_test(names_and_sizes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
