/*
 * wire.c - the NCP header codec, the completion-code table, DOS dates and
 * the bounded reader/writer every NCP parser uses (see ncp.h).
 */
#include "ipxlab/ncp.h"

#include <string.h>

#include "ipxlab/bytes.h"

struct cc_row {
	uint8_t val;
	const char *id, *msg;
};

#define NCP_CC_ROW_(id, val, msg) { val, #id, #id " (" msg ")" },
static const struct cc_row cc_rows[] = { NCP_CCS(NCP_CC_ROW_) };
#undef NCP_CC_ROW_

static const struct cc_row *cc_find(uint8_t cc)
{
	for (size_t i = 0; i < sizeof(cc_rows) / sizeof(cc_rows[0]); i++)
		if (cc_rows[i].val == cc)
			return &cc_rows[i];
	return NULL;
}

const char *ncp_cc_text(uint8_t cc)
{
	const struct cc_row *r = cc_find(cc);

	return r ? r->msg : "unnamed completion code";
}

const char *ncp_cc_id(uint8_t cc)
{
	const struct cc_row *r = cc_find(cc);

	return r ? r->id : "UNNAMED";
}

int ncp_req_decode(const uint8_t *p, size_t len, struct ncp_req_hdr *out)
{
	if (len < NCP_REQ_HDR_LEN)
		return -1;
	out->type = ipx_get16(p);
	out->seq = p[2];
	out->conn = (uint16_t)(p[3] | p[5] << 8);
	out->task = p[4];
	out->function = p[6];
	return 0;
}

int ncp_rep_decode(const uint8_t *p, size_t len, struct ncp_rep_hdr *out)
{
	if (len < NCP_REP_HDR_LEN)
		return -1;
	out->type = ipx_get16(p);
	out->seq = p[2];
	out->conn = (uint16_t)(p[3] | p[5] << 8);
	out->task = p[4];
	out->cc = p[6];
	out->status = p[7];
	return 0;
}

void ncp_req_encode(const struct ncp_req_hdr *h, uint8_t *out)
{
	ipx_put16(out, h->type);
	out[2] = h->seq;
	out[3] = (uint8_t)h->conn;
	out[4] = h->task;
	out[5] = (uint8_t)(h->conn >> 8);
	out[6] = h->function;
}

void ncp_rep_encode(const struct ncp_rep_hdr *h, uint8_t *out)
{
	ipx_put16(out, h->type);
	out[2] = h->seq;
	out[3] = (uint8_t)h->conn;
	out[4] = h->task;
	out[5] = (uint8_t)(h->conn >> 8);
	out[6] = h->cc;
	out[7] = h->status;
}

bool ncp_has_length_word(uint8_t f)
{
	switch (f) {
	case 0x11: case 0x15: case 0x16: case 0x17: case 0x23: case 0x24:
	case 0x5A: case 0x5C: case 0x5E: case 0x72: case 0x7B: case 0x83:
		return true;
	default:
		return false;
	}
}

uint16_t ncp_dos_date(time_t t)
{
	struct tm tm;

	if (!localtime_r(&t, &tm) || tm.tm_year < 80)
		return (0 << 9) | (1 << 5) | 1;	/* 1 Jan 1980 */
	return (uint16_t)(((tm.tm_year - 80) & 0x7F) << 9 |
			  (tm.tm_mon + 1) << 5 | tm.tm_mday);
}

uint16_t ncp_dos_time(time_t t)
{
	struct tm tm;

	if (!localtime_r(&t, &tm))
		return 0;
	return (uint16_t)(tm.tm_hour << 11 | tm.tm_min << 5 | tm.tm_sec / 2);
}

const uint8_t *ncp_rdn(struct ncp_rd *r, size_t n)
{
	const uint8_t *p;

	if (r->bad || r->len - r->off < n) {
		r->bad = true;
		return NULL;
	}
	p = r->p + r->off;
	r->off += n;
	return p;
}

uint8_t ncp_rd8(struct ncp_rd *r)
{
	const uint8_t *p = ncp_rdn(r, 1);

	return p ? p[0] : 0;
}

uint16_t ncp_rd16(struct ncp_rd *r)
{
	const uint8_t *p = ncp_rdn(r, 2);

	return p ? ipx_get16(p) : 0;
}

uint32_t ncp_rd32(struct ncp_rd *r)
{
	const uint8_t *p = ncp_rdn(r, 4);

	return p ? ipx_get32(p) : 0;
}

int ncp_rdstr(struct ncp_rd *r, char *out, size_t cap)
{
	uint8_t n = ncp_rd8(r);
	const uint8_t *p;

	out[0] = '\0';
	if (r->bad)
		return -1;
	if ((size_t)n + 1 > cap) {
		r->bad = true;
		return -1;
	}
	p = ncp_rdn(r, n);
	if (!p)
		return -1;
	memcpy(out, p, n);
	out[n] = '\0';
	return n;
}

void ncp_wrn(struct ncp_wr *w, const void *data, size_t n)
{
	if (w->bad || w->cap - w->len < n) {
		w->bad = true;
		return;
	}
	if (n)
		memcpy(w->p + w->len, data, n);
	w->len += n;
}

void ncp_wr8(struct ncp_wr *w, uint8_t v)
{
	ncp_wrn(w, &v, 1);
}

void ncp_wr16(struct ncp_wr *w, uint16_t v)
{
	uint8_t b[2];

	ipx_put16(b, v);
	ncp_wrn(w, b, 2);
}

void ncp_wr32(struct ncp_wr *w, uint32_t v)
{
	uint8_t b[4];

	ipx_put32(b, v);
	ncp_wrn(w, b, 4);
}

void ncp_wrfixed(struct ncp_wr *w, const char *s, size_t width)
{
	size_t n = strlen(s);

	if (w->bad || w->cap - w->len < width) {
		w->bad = true;
		return;
	}
	if (n > width)
		n = width;
	memset(w->p + w->len, 0, width);
	memcpy(w->p + w->len, s, n);
	w->len += width;
}

void ncp_wrstr(struct ncp_wr *w, const char *s)
{
	size_t n = strlen(s);

	if (n > 255)
		n = 255;
	ncp_wr8(w, (uint8_t)n);
	ncp_wrn(w, s, n);
}
