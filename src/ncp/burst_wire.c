/*
 * burst_wire.c - the packet-burst wire format both ends share
 * (ipxlab/ncp_burst.h): the burst header and its checks, the
 * missing-fragment list, the request header, and the byte map of what
 * part of a burst has arrived.
 */
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/ncp.h"
#include "ipxlab/ncp_burst.h"
#include "ipxlab/priv/drops.h"

IPX_DROP_NAMES(NCP_BURST_DROPS, enum ncp_burst_drop, NCP_BURST_DROP_COUNT,
	       ncp_burst_drop_name)

int ncp_burst_decode(const uint8_t *p, size_t len, struct ncp_burst_hdr *h,
		     const uint8_t **body)
{
	if (len < NCP_BURST_HDR_LEN || ipx_get16(p) != NCP_TYPE_BURST)
		return -1 - NCP_BURST_DROP_SHORT;
	h->flags = p[2];
	h->stream = p[3];
	h->src_id = ipx_get32(p + 4);
	h->dst_id = ipx_get32(p + 8);
	h->pkt_seq = ipx_get32(p + 12);
	h->delay = ipx_get32(p + 16);
	h->burst_seq = ipx_get16(p + 20);
	h->ack_seq = ipx_get16(p + 22);
	h->burst_len = ipx_get32(p + 24);
	h->offset = ipx_get32(p + 28);
	h->data_len = ipx_get16(p + 32);
	h->nmissing = ipx_get16(p + 34);
	*body = p + NCP_BURST_HDR_LEN;
	len -= NCP_BURST_HDR_LEN;
	if (h->flags & NCP_BF_SYS) {
		if ((size_t)h->nmissing * NCP_BURST_GAP_LEN > len)
			return -1 - NCP_BURST_DROP_BAD_LEN;
		return 0;
	}
	if (h->data_len > len)
		return -1 - NCP_BURST_DROP_BAD_LEN;
	if (h->offset > h->burst_len ||
	    h->data_len > h->burst_len - h->offset)
		return -1 - NCP_BURST_DROP_BAD_RANGE;
	return 0;
}

void ncp_burst_encode(const struct ncp_burst_hdr *h, uint8_t *out)
{
	ipx_put16(out, NCP_TYPE_BURST);
	out[2] = h->flags;
	out[3] = h->stream;
	ipx_put32(out + 4, h->src_id);
	ipx_put32(out + 8, h->dst_id);
	ipx_put32(out + 12, h->pkt_seq);
	ipx_put32(out + 16, h->delay);
	ipx_put16(out + 20, h->burst_seq);
	ipx_put16(out + 22, h->ack_seq);
	ipx_put32(out + 24, h->burst_len);
	ipx_put32(out + 28, h->offset);
	ipx_put16(out + 32, h->data_len);
	ipx_put16(out + 34, h->nmissing);
}

void ncp_burst_gap_get(const uint8_t *list, size_t i, struct ncp_burst_gap *g)
{
	g->off = ipx_get32(list + i * NCP_BURST_GAP_LEN);
	g->len = ipx_get16(list + i * NCP_BURST_GAP_LEN + 4);
}

void ncp_burst_gap_put(uint8_t *list, size_t i, const struct ncp_burst_gap *g)
{
	ipx_put32(list + i * NCP_BURST_GAP_LEN, g->off);
	ipx_put16(list + i * NCP_BURST_GAP_LEN + 4, g->len);
}

static uint32_t get32le(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

int ncp_burst_req_decode(const uint8_t *p, size_t len, struct ncp_burst_req *r)
{
	if (len < NCP_BURST_REQ_LEN)
		return -1;
	r->command = get32le(p);
	memcpy(r->handle, p + 4, 4);
	r->offset = ipx_get32(p + 16);
	r->count = ipx_get32(p + 20);
	return 0;
}

void ncp_burst_req_encode(const struct ncp_burst_req *r, uint8_t *out)
{
	ipx_put16le(out, (uint16_t)r->command);
	ipx_put16le(out + 2, (uint16_t)(r->command >> 16));
	memcpy(out + 4, r->handle, 4);
	memset(out + 8, 0, 8);
	ipx_put32(out + 16, r->offset);
	ipx_put32(out + 20, r->count);
}

int ncp_burst_map_new(struct ncp_burst_map *m, size_t cap)
{
	memset(m, 0, sizeof(*m));
	m->bits = calloc(cap / 8 + 1, 1);
	if (!m->bits)
		return IPX_ENOMEM;
	m->cap = cap;
	return IPX_OK;
}

void ncp_burst_map_free(struct ncp_burst_map *m)
{
	free(m->bits);
	memset(m, 0, sizeof(*m));
}

void ncp_burst_map_reset(struct ncp_burst_map *m, size_t len)
{
	if (len > m->cap)
		len = m->cap;
	memset(m->bits, 0, len / 8 + 1);
	m->len = len;
	m->have = 0;
}

static bool bit(const struct ncp_burst_map *m, size_t i)
{
	return m->bits[i / 8] & (1u << (i % 8));
}

size_t ncp_burst_map_mark(struct ncp_burst_map *m, size_t off, size_t n)
{
	size_t fresh = 0;

	if (off >= m->len)
		return 0;
	if (n > m->len - off)
		n = m->len - off;
	for (size_t i = off; i < off + n; i++) {
		/* whole bytes of the map at once where they are aligned */
		if (i % 8 == 0 && i + 8 <= off + n) {
			uint8_t b = m->bits[i / 8];

			fresh += 8 - (size_t)__builtin_popcount(b);
			m->bits[i / 8] = 0xFF;
			i += 7;
			continue;
		}
		if (!bit(m, i)) {
			m->bits[i / 8] |= (uint8_t)(1u << (i % 8));
			fresh++;
		}
	}
	m->have += fresh;
	return fresh;
}

size_t ncp_burst_map_gaps(const struct ncp_burst_map *m,
			  struct ncp_burst_gap *out, size_t max)
{
	size_t n = 0, i = 0;

	while (i < m->len && n < max) {
		size_t start;

		if (i % 8 == 0 && m->bits[i / 8] == 0xFF) {
			i += 8;
			continue;
		}
		if (bit(m, i)) {
			i++;
			continue;
		}
		start = i;
		while (i < m->len && !bit(m, i) && i - start < 0xFFFF)
			i++;
		out[n].off = (uint32_t)start;
		out[n].len = (uint16_t)(i - start);
		n++;
	}
	return n;
}
