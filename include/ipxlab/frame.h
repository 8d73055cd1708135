/*
 * frame.h - the four Novell Ethernet frame types for IPX: encode an IPX
 * packet into a frame, and recognise and unwrap a received frame
 * (as Wireshark's packet-eth.c tells them apart; docs/links.md).
 *
 * Pure functions on byte buffers: no sockets, so the codec is unit-tested
 * and fuzzed on its own.
 */
#ifndef IPXLAB_FRAME_H
#define IPXLAB_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "ipxlab/ipx.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IPX_ETH_HDR_LEN 14
#define IPX_ETH_MIN_FRAME 60	/* without the FCS; shorter frames are padded */
#define IPX_ETH_MAX_PAYLOAD 1500
#define IPX_ETHERTYPE_IPX 0x8137

enum ipx_frame_type {
	IPX_FRAME_AUTO = 0,	/* not a wire format: "learn from the LAN" */
	IPX_FRAME_ETHERNET_II,	/* EtherType 0x8137 */
	IPX_FRAME_8023,		/* Novell "raw" 802.3: checksum 0xFFFF */
	IPX_FRAME_8022,		/* 802.2 LLC E0 E0 03 */
	IPX_FRAME_SNAP,		/* LLC AA AA 03, OUI 000000, type 8137 */
	IPX_FRAME_TYPES
};

/* Why a received frame is not IPX, or not good IPX (counted drops). The
 * codec (ipx_frame_decode) reports the first four; the Ethernet link
 * decides the rest. */
#define IPX_FRAME_DROPS(X)                                                 \
	X(SHORT, "frame_short", "shorter than a MAC header and IPX header") \
	X(NOT_IPX, "not_ipx", "another protocol")                           \
	X(BAD_TYPELEN, "bad_type_length", "type/length 1501..1535")        \
	X(BAD_LENGTH, "bad_ipx_length", "IPX length below 30 or beyond the frame") \
	X(WRONG_TYPE, "wrong_frame_type", "IPX in a frame type this link does not use") \
	X(LOOPED, "looped_back", "our own frame (source MAC ours), seen again") \
	X(OTHER_HOST, "other_host", "for another station's MAC (link not promiscuous)") \
	X(TOO_LONG, "frame_too_long", "longer than an Ethernet frame")

#define IPX_FRAME_DROP_ENUM_(id, name, desc) IPX_FRAME_DROP_##id,
enum ipx_frame_drop { IPX_FRAME_DROPS(IPX_FRAME_DROP_ENUM_)
		      IPX_FRAME_DROP_COUNT };
#undef IPX_FRAME_DROP_ENUM_

/* "ethernet_ii", "802.3", "802.2", "snap", "auto". */
const char *ipx_frame_type_name(enum ipx_frame_type t);
/* Parse a name, case-insensitive; accepts the NetWare names too
 * ("Ethernet_II", "Ethernet_802.3", "Ethernet_802.2", "Ethernet_SNAP")
 * and "raw" for 802.3. Returns 0, or -1 for an unknown name. */
int ipx_frame_type_parse(const char *text, enum ipx_frame_type *out);
const char *ipx_frame_drop_name(enum ipx_frame_drop d);
/* One line saying what the counter counts. */
const char *ipx_frame_drop_desc(enum ipx_frame_drop d);

/* Bytes the frame type adds between the MAC header and the IPX header
 * (0, 0, 3 or 8). */
size_t ipx_frame_overhead(enum ipx_frame_type t);
/* Largest IPX packet the frame type carries in a 1500-byte payload. */
size_t ipx_frame_mtu(enum ipx_frame_type t);

/*
 * Build a frame: MAC header, LLC/SNAP as the type needs, the IPX packet,
 * zero padding up to IPX_ETH_MIN_FRAME. 'out' holds at least
 * IPX_ETH_HDR_LEN + 8 + len bytes (and IPX_ETH_MIN_FRAME). Returns the
 * frame length, or 0 if the packet is too big or is not valid for the
 * type (802.3 needs checksum 0xFFFF).
 */
size_t ipx_frame_encode(enum ipx_frame_type t, const uint8_t dst[6],
			const uint8_t src[6], const uint8_t *ipx, size_t len,
			uint8_t *out, size_t outlen);

/* A received frame taken apart. */
struct ipx_frame_info {
	enum ipx_frame_type type;
	const uint8_t *dst, *src;	/* MAC addresses, into the frame */
	const uint8_t *ipx;		/* the IPX packet, into the frame */
	size_t ipx_len;			/* from the IPX length field */
};

/*
 * Recognise a frame (protocols.md section 2 discrimination). Returns 0 and
 * fills 'out' for IPX, trusting the IPX length field over the frame length
 * (padding is cut off); else -1 and *drop says why.
 */
int ipx_frame_decode(const uint8_t *frame, size_t len,
		     struct ipx_frame_info *out, enum ipx_frame_drop *drop);

#ifdef __cplusplus
}
#endif

#endif
