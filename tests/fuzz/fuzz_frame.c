/*
 * fuzz_frame.c - libFuzzer harness for the Novell Ethernet frame codec
 * (src/link/frame.c).
 *
 * The input is used two ways:
 *  1. as a received frame: ipx_frame_decode must classify it exactly as
 *     protocols.md section 2 says (checked here against the raw bytes),
 *     an accepted frame's IPX packet must lie inside the frame with its
 *     length field's length, and re-encoding it in the same type must
 *     decode to the same packet;
 *  2. its first byte as a frame type and the rest as an IPX packet (length
 *     field set to its size): encode may refuse only for the documented
 *     reasons, and what it builds must decode back to the same packet.
 */
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/frame.h"

#include "fuzz_common.h"

#define FRAME_MAX 1600

static const uint8_t DST[6] = { 0x02, 0, 0, 0, 0, 1 };
static const uint8_t SRC[6] = { 0x02, 0, 0, 0, 0, 2 };

static void check_same_packet(const uint8_t *frame, size_t n,
			      enum ipx_frame_type type, const uint8_t *ipx,
			      size_t len)
{
	struct ipx_frame_info fi;
	enum ipx_frame_drop drop;

	CHECK(n >= IPX_ETH_MIN_FRAME);
	CHECK(n == IPX_ETH_MIN_FRAME ||
	      n == IPX_ETH_HDR_LEN + ipx_frame_overhead(type) + len);
	CHECK(ipx_frame_decode(frame, n, &fi, &drop) == 0);
	CHECK(fi.type == type);
	CHECK(fi.ipx_len == len);
	CHECK(memcmp(fi.ipx, ipx, len) == 0);
}

static void fuzz_decode(const uint8_t *data, size_t size)
{
	struct ipx_frame_info fi;
	enum ipx_frame_drop drop = IPX_FRAME_DROP_COUNT;
	int rc = ipx_frame_decode(data, size, &fi, &drop);
	uint16_t t;

	if (size < IPX_ETH_HDR_LEN) {
		CHECK(rc == -1 && drop == IPX_FRAME_DROP_SHORT);
		return;
	}
	t = ipx_get16(data + 12);
	if (t >= 1536 && t != 0x8137)
		CHECK(rc == -1 && drop == IPX_FRAME_DROP_NOT_IPX);
	if (t >= 1501 && t <= 1535)
		CHECK(rc == -1 && drop == IPX_FRAME_DROP_BAD_TYPELEN);
	if (rc != 0) {
		/* The link, not the codec, decides a type is the wrong one. */
		CHECK(drop < IPX_FRAME_DROP_WRONG_TYPE);
		return;
	}
	CHECK(fi.dst == data && fi.src == data + 6);
	CHECK(fi.ipx == data + IPX_ETH_HDR_LEN + ipx_frame_overhead(fi.type));
	CHECK(fi.ipx_len >= IPX_HDR_LEN);
	CHECK(fi.ipx + fi.ipx_len <= data + size);
	CHECK(fi.ipx_len == ipx_get16(fi.ipx + 2));
	switch (fi.type) {
	case IPX_FRAME_ETHERNET_II:
		CHECK(t == 0x8137);
		break;
	case IPX_FRAME_8023:
		CHECK(t <= 1500 && ipx_get16(data + 14) == 0xFFFF);
		break;
	case IPX_FRAME_8022:
		CHECK(t <= 1500 && (data[14] == 0xE0 || data[14] == 0x10) &&
		      data[16] == 0x03);
		break;
	case IPX_FRAME_SNAP:
		CHECK(t <= 1500 &&
		      !memcmp(data + 14, "\xAA\xAA\x03\0\0\0\x81\x37", 8));
		break;
	default:
		CHECK(0);
	}
	if (fi.ipx_len <= ipx_frame_mtu(fi.type)) {
		uint8_t out[FRAME_MAX];
		size_t n = ipx_frame_encode(fi.type, fi.dst, fi.src, fi.ipx,
					    fi.ipx_len, out, sizeof(out));

		CHECK(n > 0);
		check_same_packet(out, n, fi.type, fi.ipx, fi.ipx_len);
		CHECK(!memcmp(out, data, 12));
	}
}

static void fuzz_encode(const uint8_t *data, size_t size)
{
	uint8_t pkt[FRAME_MAX], out[FRAME_MAX];
	enum ipx_frame_type type;
	size_t len, n;

	if (size < 1 || size - 1 > sizeof(pkt))
		return;
	type = (enum ipx_frame_type)(data[0] % (IPX_FRAME_TYPES + 1));
	len = size - 1;
	memcpy(pkt, data + 1, len);
	if (len >= 4)
		ipx_put16(pkt + 2, (uint16_t)len);
	n = ipx_frame_encode(type, DST, SRC, pkt, len, out, sizeof(out));
	if (n == 0) {
		CHECK(type == IPX_FRAME_AUTO || type >= IPX_FRAME_TYPES ||
		      len < IPX_HDR_LEN || len > ipx_frame_mtu(type) ||
		      (type == IPX_FRAME_8023 &&
		       ipx_get16(pkt) != IPX_NO_CHECKSUM));
		return;
	}
	CHECK(n <= sizeof(out));
	check_same_packet(out, n, type, pkt, len);
	CHECK(!memcmp(out, DST, 6) && !memcmp(out + 6, SRC, 6));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_decode(data, size);
	fuzz_encode(data, size);
	return 0;
}
