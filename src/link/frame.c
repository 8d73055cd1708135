/*
 * frame.c - the four Novell Ethernet frame types for IPX (frame.h): build
 * a frame around an IPX packet, and recognise and unwrap a received one
 * exactly as Wireshark's packet-eth.c discriminates them (docs/links.md).
 */
#include "ipxlab/frame.h"

#include <string.h>
#include <strings.h>

#include "ipxlab/bytes.h"

#define ETHERNET_II_MIN 1536	/* type/len values from here are EtherTypes */
#define LLC_UI 0x03		/* LLC control: unnumbered information */
#define SAP_NETWARE 0xE0	/* the LLC SAP of IPX */
#define SAP_NETWARE_OLD 0x10	/* also IPX (Wireshark's SAP_NETWARE1) */
#define SAP_SNAP 0xAA

static const uint8_t snap_hdr[8] = { SAP_SNAP, SAP_SNAP, LLC_UI, 0, 0, 0,
				     0x81, 0x37 };

static const char *const type_names[IPX_FRAME_TYPES] = {
	[IPX_FRAME_AUTO] = "auto",
	[IPX_FRAME_ETHERNET_II] = "ethernet_ii",
	[IPX_FRAME_8023] = "802.3",
	[IPX_FRAME_8022] = "802.2",
	[IPX_FRAME_SNAP] = "snap",
};

const char *ipx_frame_type_name(enum ipx_frame_type t)
{
	return (unsigned)t < IPX_FRAME_TYPES ? type_names[t] : "unknown";
}

int ipx_frame_type_parse(const char *text, enum ipx_frame_type *out)
{
	static const struct {
		const char *name;
		enum ipx_frame_type type;
	} names[] = {
		{ "auto", IPX_FRAME_AUTO },
		{ "ethernet_ii", IPX_FRAME_ETHERNET_II },
		{ "ii", IPX_FRAME_ETHERNET_II },
		{ "802.3", IPX_FRAME_8023 },
		{ "ethernet_802.3", IPX_FRAME_8023 },
		{ "raw", IPX_FRAME_8023 },
		{ "802.2", IPX_FRAME_8022 },
		{ "ethernet_802.2", IPX_FRAME_8022 },
		{ "snap", IPX_FRAME_SNAP },
		{ "ethernet_snap", IPX_FRAME_SNAP },
	};

	if (!text)
		return -1;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcasecmp(text, names[i].name)) {
			*out = names[i].type;
			return 0;
		}
	}
	return -1;
}

#define IPX_FRAME_DROP_NAME_(id, name, desc) name,
static const char *const drop_names[] = { IPX_FRAME_DROPS(
	IPX_FRAME_DROP_NAME_) };
#undef IPX_FRAME_DROP_NAME_

#define IPX_FRAME_DROP_DESC_(id, name, desc) desc,
static const char *const drop_descs[] = { IPX_FRAME_DROPS(
	IPX_FRAME_DROP_DESC_) };
#undef IPX_FRAME_DROP_DESC_

const char *ipx_frame_drop_name(enum ipx_frame_drop d)
{
	return (unsigned)d < IPX_FRAME_DROP_COUNT ? drop_names[d] : "unknown";
}

const char *ipx_frame_drop_desc(enum ipx_frame_drop d)
{
	return (unsigned)d < IPX_FRAME_DROP_COUNT ? drop_descs[d] : "unknown";
}

size_t ipx_frame_overhead(enum ipx_frame_type t)
{
	switch (t) {
	case IPX_FRAME_8022:
		return 3;
	case IPX_FRAME_SNAP:
		return sizeof(snap_hdr);
	default:
		return 0;
	}
}

size_t ipx_frame_mtu(enum ipx_frame_type t)
{
	/* Until a type is learnt, the size every type can carry. */
	if (t == IPX_FRAME_AUTO)
		return IPX_ETH_MAX_PAYLOAD - sizeof(snap_hdr);
	return IPX_ETH_MAX_PAYLOAD - ipx_frame_overhead(t);
}

size_t ipx_frame_encode(enum ipx_frame_type t, const uint8_t dst[6],
			const uint8_t src[6], const uint8_t *ipx, size_t len,
			uint8_t *out, size_t outlen)
{
	size_t over = ipx_frame_overhead(t), total;
	uint8_t *p = out + IPX_ETH_HDR_LEN;

	if (t == IPX_FRAME_AUTO || (unsigned)t >= IPX_FRAME_TYPES ||
	    len < IPX_HDR_LEN || len > ipx_frame_mtu(t))
		return 0;
	/* Raw 802.3 is told apart from 802.2 by the checksum field. */
	if (t == IPX_FRAME_8023 && ipx_get16(ipx) != IPX_NO_CHECKSUM)
		return 0;
	total = IPX_ETH_HDR_LEN + over + len;
	if (total < IPX_ETH_MIN_FRAME)
		total = IPX_ETH_MIN_FRAME;
	if (outlen < total)
		return 0;
	memcpy(out, dst, 6);
	memcpy(out + 6, src, 6);
	switch (t) {
	case IPX_FRAME_ETHERNET_II:
		ipx_put16(out + 12, IPX_ETHERTYPE_IPX);
		break;
	case IPX_FRAME_8022:
		p[0] = SAP_NETWARE;
		p[1] = SAP_NETWARE;
		p[2] = LLC_UI;
		ipx_put16(out + 12, (uint16_t)(over + len));
		break;
	case IPX_FRAME_SNAP:
		memcpy(p, snap_hdr, sizeof(snap_hdr));
		ipx_put16(out + 12, (uint16_t)(over + len));
		break;
	default:	/* 802.3 */
		ipx_put16(out + 12, (uint16_t)len);
		break;
	}
	memcpy(p + over, ipx, len);
	memset(p + over + len, 0, total - (IPX_ETH_HDR_LEN + over + len));
	return total;
}

/* Which 802.2 payload this is: the frame type and its LLC length, or
 * IPX_FRAME_AUTO for another protocol. 'llc' has 'n' bytes. */
static enum ipx_frame_type llc_kind(const uint8_t *llc, size_t n,
				    size_t *over, bool *short_frame)
{
	*short_frame = false;
	if (n < 3) {
		*short_frame = true;
		return IPX_FRAME_AUTO;
	}
	/* IPX's SAP (or the old one) as destination, in a UI frame; like
	 * Linux and Wireshark, the DSAP alone picks the protocol. */
	if ((llc[0] == SAP_NETWARE || llc[0] == SAP_NETWARE_OLD) &&
	    llc[2] == LLC_UI) {
		*over = 3;
		return IPX_FRAME_8022;
	}
	if (llc[0] == SAP_SNAP && llc[1] == SAP_SNAP && llc[2] == LLC_UI) {
		if (n < sizeof(snap_hdr)) {
			*short_frame = true;
			return IPX_FRAME_AUTO;
		}
		if (memcmp(llc + 3, snap_hdr + 3, 5) == 0) {
			*over = sizeof(snap_hdr);
			return IPX_FRAME_SNAP;
		}
	}
	return IPX_FRAME_AUTO;
}

int ipx_frame_decode(const uint8_t *frame, size_t len,
		     struct ipx_frame_info *out, enum ipx_frame_drop *drop)
{
	enum ipx_frame_type type;
	size_t over = 0, ipx_len;
	uint16_t t;
	const uint8_t *ipx;

	if (len < IPX_ETH_HDR_LEN) {
		*drop = IPX_FRAME_DROP_SHORT;
		return -1;
	}
	t = ipx_get16(frame + 12);
	if (t >= ETHERNET_II_MIN) {
		if (t != IPX_ETHERTYPE_IPX) {
			*drop = IPX_FRAME_DROP_NOT_IPX;
			return -1;
		}
		type = IPX_FRAME_ETHERNET_II;
	} else if (t > IPX_ETH_MAX_PAYLOAD) {
		*drop = IPX_FRAME_DROP_BAD_TYPELEN;
		return -1;
	} else if (len < IPX_ETH_HDR_LEN + 2) {
		*drop = IPX_FRAME_DROP_SHORT;
		return -1;
	} else if (ipx_get16(frame + IPX_ETH_HDR_LEN) == 0xFFFF) {
		type = IPX_FRAME_8023;
	} else {
		bool short_frame;

		type = llc_kind(frame + IPX_ETH_HDR_LEN,
				len - IPX_ETH_HDR_LEN, &over, &short_frame);
		if (type == IPX_FRAME_AUTO) {
			*drop = short_frame ? IPX_FRAME_DROP_SHORT
					    : IPX_FRAME_DROP_NOT_IPX;
			return -1;
		}
	}
	if (len < IPX_ETH_HDR_LEN + over + IPX_HDR_LEN) {
		*drop = IPX_FRAME_DROP_SHORT;
		return -1;
	}
	ipx = frame + IPX_ETH_HDR_LEN + over;
	/* The IPX length field, not the frame, says where the packet ends:
	 * frames below 60 bytes arrive padded. */
	ipx_len = ipx_get16(ipx + 2);
	if (ipx_len < IPX_HDR_LEN ||
	    ipx_len > len - (IPX_ETH_HDR_LEN + over)) {
		*drop = IPX_FRAME_DROP_BAD_LENGTH;
		return -1;
	}
	out->type = type;
	out->dst = frame;
	out->src = frame + 6;
	out->ipx = ipx;
	out->ipx_len = ipx_len;
	return 0;
}
