/*
 * header.c - the SPX / SPX II header codec (layout in spx.h).
 */
#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/spx.h"

int spx_header_decode(const uint8_t *p, size_t len, struct spx_header *h)
{
	if (len < SPX_HDR_LEN)
		return IPX_ESHORT;
	h->cc = p[0];
	h->ds = p[1];
	h->src_id = ipx_get16(p + 2);
	h->dst_id = ipx_get16(p + 4);
	h->seq = ipx_get16(p + 6);
	h->ack = ipx_get16(p + 8);
	h->alloc = ipx_get16(p + 10);
	h->neg_size = 0;
	h->hdr_len = SPX_HDR_LEN;
	/* SPX II packets carry the negotiation size, except the very first
	 * connect request (destination id still unknown). */
	if ((h->cc & SPX_CC_SPX2) && h->dst_id != SPX_CONN_UNKNOWN) {
		if (len < SPX2_HDR_LEN)
			return IPX_ESHORT;
		h->neg_size = ipx_get16(p + 12);
		h->hdr_len = SPX2_HDR_LEN;
	}
	return IPX_OK;
}

void spx_header_encode(const struct spx_header *h, uint8_t *p)
{
	p[0] = h->cc;
	p[1] = h->ds;
	ipx_put16(p + 2, h->src_id);
	ipx_put16(p + 4, h->dst_id);
	ipx_put16(p + 6, h->seq);
	ipx_put16(p + 8, h->ack);
	ipx_put16(p + 10, h->alloc);
	if (h->hdr_len == SPX2_HDR_LEN)
		ipx_put16(p + 12, h->neg_size);
}
