/*
 * header.c - the 30-byte IPX header: decode with validation, encode, and
 * the optional IPX checksum. Layout in ipx.h.
 */
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/ipx.h"

void ipx_addr_read(const uint8_t *p, struct ipx_addr *addr)
{
	addr->net = ipx_get32(p);
	memcpy(addr->node, p + 4, IPX_NODE_LEN);
	addr->socket = ipx_get16(p + 10);
}

void ipx_addr_write(uint8_t *p, const struct ipx_addr *addr)
{
	ipx_put32(p, addr->net);
	memcpy(p + 4, addr->node, IPX_NODE_LEN);
	ipx_put16(p + 10, addr->socket);
}

int ipx_header_decode(const uint8_t *pkt, size_t len, struct ipx_header *hdr)
{
	if (len < IPX_HDR_LEN)
		return IPX_ESHORT;
	hdr->checksum = ipx_get16(pkt + 0);
	hdr->length = ipx_get16(pkt + 2);
	hdr->hops = pkt[4];
	hdr->type = pkt[5];
	ipx_addr_read(pkt + 6, &hdr->dst);
	ipx_addr_read(pkt + 18, &hdr->src);
	if (hdr->length < IPX_HDR_LEN || hdr->length > len)
		return IPX_EBADLEN;
	return IPX_OK;
}

void ipx_header_encode(const struct ipx_header *hdr, uint8_t *out)
{
	ipx_put16(out + 0, hdr->checksum);
	ipx_put16(out + 2, hdr->length);
	out[4] = hdr->hops;
	out[5] = hdr->type;
	ipx_addr_write(out + 6, &hdr->dst);
	ipx_addr_write(out + 18, &hdr->src);
}

uint16_t ipx_checksum(const uint8_t *pkt, size_t len)
{
	uint32_t sum = 0;
	size_t i;

	/* Words from offset 2; the hop count byte counts as zero. */
	for (i = 2; i + 1 < len; i += 2) {
		uint16_t w = (uint16_t)(pkt[i] << 8 | pkt[i + 1]);

		if (i == 4)
			w &= 0x00FF;
		sum += w;
	}
	if (i < len)
		sum += (uint32_t)pkt[i] << 8;
	while (sum >> 16)
		sum = (sum & 0xFFFF) + (sum >> 16);
	sum = ~sum & 0xFFFF;
	return (uint16_t)sum;
}
