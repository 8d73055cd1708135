/*
 * wire.c - NetBIOS over IPX codecs (layouts in netbios.h): the rule that
 * tells which packets carry the type-20 network list, name-management
 * packets, session headers, datagram headers, call requests, the ADAPTER
 * STATUS layout, and names as people type and read them.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/netbios.h"

const uint8_t nb_name_none[NB_NAME_LEN];

static bool is_name_ds(uint8_t ds)
{
	return ds >= NB_DS_FIND_NAME && ds <= NB_DS_DEREGISTER;
}

static bool is_direct_ds(uint8_t ds)
{
	return ds == NB_DS_SESSION_DATA || ds == NB_DS_SESSION_END ||
	       ds == NB_DS_SESSION_END_ACK || ds == NB_DS_DATAGRAM;
}

int nb_packet_classify(uint8_t ipx_type, const uint8_t *p, size_t len,
		       struct nb_packet *out)
{
	size_t off;

	/* Type 20 always has the list. Otherwise Wireshark's rule: a
	 * 50-byte packet with a name-management type where it would be
	 * after a list has one; but a session or datagram type in byte 1
	 * wins, so a 50-byte session packet is never misread (ipxlab's own
	 * answers carry a zero list, whose byte 1 is 0). */
	bool routes = ipx_type == IPX_TYPE_NETBIOS ||
		      (len == NB_NAME_PKT_LEN && is_name_ds(p[33]) &&
		       !is_direct_ds(p[1]));

	off = routes ? NB_ROUTES_LEN : 0;
	if (len < off + 2)
		return IPX_ESHORT;
	out->routes = routes;
	out->ds = p[off + 1];
	out->body = p + off;
	out->len = len - off;
	return IPX_OK;
}

int nb_name_pkt_decode(const struct nb_packet *pk, struct nb_name_pkt *out)
{
	const uint8_t *b = pk->body;

	if (pk->len < 2 + NB_NAME_LEN)
		return IPX_ESHORT;
	for (int i = 0; i < 8; i++)
		out->routes[i] = pk->routes
					 ? ipx_get32(b - NB_ROUTES_LEN + 4 * i)
					 : 0;
	out->flags = b[0];
	out->ds = b[1];
	memcpy(out->name, b + 2, NB_NAME_LEN);
	return IPX_OK;
}

void nb_name_pkt_encode(const struct nb_name_pkt *np,
			uint8_t out[NB_NAME_PKT_LEN])
{
	for (int i = 0; i < 8; i++)
		ipx_put32(out + 4 * i, np->routes[i]);
	out[NB_ROUTES_LEN] = np->flags;
	out[NB_ROUTES_LEN + 1] = np->ds;
	memcpy(out + NB_ROUTES_LEN + 2, np->name, NB_NAME_LEN);
}

int nb_sess_hdr_decode(const uint8_t *p, size_t len, struct nb_sess_hdr *h)
{
	if (len < NB_SESS_HDR_LEN)
		return IPX_ESHORT;
	h->cc = p[0];
	h->ds = p[1];
	h->src_id = ipx_get16le(p + 2);
	h->dst_id = ipx_get16le(p + 4);
	h->seq = ipx_get16le(p + 6);
	h->total = ipx_get16le(p + 8);
	h->offset = ipx_get16le(p + 10);
	h->len = ipx_get16le(p + 12);
	h->rcv_seq = ipx_get16le(p + 14);
	h->rcv_bytes = ipx_get16le(p + 16);
	/* Bytes beyond the data length are padding (see session.c). */
	if (h->len > len - NB_SESS_HDR_LEN)
		return IPX_ESHORT;
	return IPX_OK;
}

void nb_sess_hdr_encode(const struct nb_sess_hdr *h,
			uint8_t out[NB_SESS_HDR_LEN])
{
	out[0] = h->cc;
	out[1] = h->ds;
	ipx_put16le(out + 2, h->src_id);
	ipx_put16le(out + 4, h->dst_id);
	ipx_put16le(out + 6, h->seq);
	ipx_put16le(out + 8, h->total);
	ipx_put16le(out + 10, h->offset);
	ipx_put16le(out + 12, h->len);
	ipx_put16le(out + 14, h->rcv_seq);
	ipx_put16le(out + 16, h->rcv_bytes);
}

int nb_dgram_hdr_decode(const uint8_t *p, size_t len, struct nb_dgram_hdr *h)
{
	if (len < NB_DGRAM_HDR_LEN)
		return IPX_ESHORT;
	h->cc = p[0];
	h->ds = p[1];
	memcpy(h->to, p + 2, NB_NAME_LEN);
	memcpy(h->from, p + 2 + NB_NAME_LEN, NB_NAME_LEN);
	return IPX_OK;
}

void nb_dgram_hdr_encode(const struct nb_dgram_hdr *h,
			 uint8_t out[NB_DGRAM_HDR_LEN])
{
	out[0] = h->cc;
	out[1] = h->ds;
	memcpy(out + 2, h->to, NB_NAME_LEN);
	memcpy(out + 2 + NB_NAME_LEN, h->from, NB_NAME_LEN);
}

int nb_call_req_decode(const uint8_t *p, size_t len, struct nb_call_req *c)
{
	if (len < NB_CALL_DATA_LEN)
		return IPX_ESHORT;
	memcpy(c->called, p, NB_NAME_LEN);
	memcpy(c->calling, p + NB_NAME_LEN, NB_NAME_LEN);
	c->max_data = ipx_get16le(p + 2 * NB_NAME_LEN);
	return IPX_OK;
}

void nb_call_req_encode(const struct nb_call_req *c,
			uint8_t out[NB_CALL_DATA_LEN])
{
	memcpy(out, c->called, NB_NAME_LEN);
	memcpy(out + NB_NAME_LEN, c->calling, NB_NAME_LEN);
	ipx_put16le(out + 2 * NB_NAME_LEN, c->max_data);
}

int nb_adapter_status_decode(const uint8_t *p, size_t len,
			     struct nb_adapter_status *out)
{
	size_t room;

	if (len < NB_AS_LEN)
		return IPX_ESHORT;
	memset(out, 0, sizeof(*out));
	memcpy(out->node, p + NB_AS_ADDRESS, IPX_NODE_LEN);
	out->duration_min = ipx_get16le(p + NB_AS_DURATION);
	out->xmit = (uint32_t)ipx_get16le(p + NB_AS_XMIT_SUCCESS) |
		    (uint32_t)ipx_get16le(p + NB_AS_XMIT_SUCCESS + 2) << 16;
	out->recv = (uint32_t)ipx_get16le(p + NB_AS_RECV_SUCCESS) |
		    (uint32_t)ipx_get16le(p + NB_AS_RECV_SUCCESS + 2) << 16;
	out->retransmits = ipx_get16le(p + NB_AS_T1_TIMEOUTS);
	out->free_ncbs = ipx_get16le(p + NB_AS_FREE_NCBS);
	out->max_ncbs = ipx_get16le(p + NB_AS_MAX_NCBS);
	out->no_resource = ipx_get16le(p + NB_AS_XMIT_BUF_UNAVAIL);
	out->max_dgram = ipx_get16le(p + NB_AS_MAX_DGRAM);
	out->sessions = ipx_get16le(p + NB_AS_PENDING_SESS);
	out->max_sessions = ipx_get16le(p + NB_AS_MAX_SESS);
	out->max_sess_pkt = ipx_get16le(p + NB_AS_MAX_SESS_PKT);
	out->name_count = ipx_get16le(p + NB_AS_NAME_COUNT);
	room = (len - NB_AS_LEN) / NB_AS_NAME_LEN;
	out->names_present = out->name_count < room ? out->name_count
						    : (unsigned)room;
	if (out->names_present > 254)
		out->names_present = 254;
	for (unsigned i = 0; i < out->names_present; i++) {
		const uint8_t *e = p + NB_AS_LEN + i * NB_AS_NAME_LEN;

		memcpy(out->names[i].name, e, NB_NAME_LEN);
		out->names[i].num = e[NB_NAME_LEN];
		out->names[i].flags = e[NB_NAME_LEN + 1];
	}
	return IPX_OK;
}

/* ---- names ---- */

bool nb_name_valid(const uint8_t name[NB_NAME_LEN])
{
	return name[0] != 0 && name[0] != '*';
}

void nb_permanent_name(const uint8_t node[IPX_NODE_LEN],
		       uint8_t out[NB_NAME_LEN])
{
	memset(out, 0, NB_NAME_LEN - IPX_NODE_LEN);
	memcpy(out + NB_NAME_LEN - IPX_NODE_LEN, node, IPX_NODE_LEN);
}

/* The value of a hex digit, or -1. */
static int hexval(int c)
{
	static const char digits[] = "0123456789abcdef";
	const char *at = c ? strchr(digits, tolower(c)) : NULL;

	return at ? (int)(at - digits) : -1;
}

/* One byte of a typed name at *s: a character or \xHH (or \\). */
static int name_byte(const char **s)
{
	const char *p = *s;

	if (p[0] == '\\' && p[1] == '\\') {
		*s = p + 2;
		return '\\';
	}
	if (p[0] == '\\' && (p[1] == 'x' || p[1] == 'X')) {
		int hi = hexval((unsigned char)p[2]);
		int lo = hi < 0 ? -1 : hexval((unsigned char)p[3]);

		if (lo < 0)
			return -1;
		*s = p + 4;
		return hi << 4 | lo;
	}
	if (p[0] == '\\' || (unsigned char)p[0] < 0x20 || p[0] == 0x7F)
		return -1;
	*s = p + 1;
	return (unsigned char)p[0];
}

int nb_name_parse(const char *text, bool allow_star, uint8_t out[NB_NAME_LEN])
{
	uint8_t b[NB_NAME_LEN + 1];
	size_t n = 0;
	const char *s = text;
	int suffix = -1;

	if (!text || !*text)
		return IPX_EINVAL;
	if (!strcmp(text, "*")) {
		if (!allow_star)
			return IPX_EINVAL;
		memset(out, ' ', NB_NAME_LEN);
		out[0] = '*';
		return IPX_OK;
	}
	while (*s) {
		int c;

		/* "<XX>" at the very end is the suffix. */
		if (*s == '<' && strlen(s) == 4 && s[3] == '>' &&
		    hexval((unsigned char)s[1]) >= 0 &&
		    hexval((unsigned char)s[2]) >= 0) {
			suffix = hexval((unsigned char)s[1]) << 4 |
				 hexval((unsigned char)s[2]);
			break;
		}
		c = name_byte(&s);
		if (c < 0 || n == NB_NAME_LEN)
			return IPX_EINVAL;
		b[n++] = (uint8_t)c;
	}
	if (n == 0)
		return IPX_EINVAL;
	if (suffix >= 0 || n < NB_NAME_LEN) {
		if (n > NB_NAME_LEN - 1)
			return IPX_EINVAL;
		memset(b + n, ' ', NB_NAME_LEN - 1 - n);
		b[NB_NAME_LEN - 1] = (uint8_t)(suffix >= 0 ? suffix : 0);
	}
	if (!nb_name_valid(b))
		return IPX_EINVAL;
	memcpy(out, b, NB_NAME_LEN);
	return IPX_OK;
}

char *nb_name_format(const uint8_t name[NB_NAME_LEN], char out[NB_NAME_STRLEN])
{
	size_t n = NB_NAME_LEN - 1, o = 0;
	static const uint8_t zero[NB_NAME_LEN - IPX_NODE_LEN];

	if (!memcmp(name, zero, sizeof(zero))) {
		snprintf(out, NB_NAME_STRLEN, "*node %02X%02X%02X%02X%02X%02X",
			 name[10], name[11], name[12], name[13], name[14],
			 name[15]);
		return out;
	}
	/* Trailing blanks are padding (one kept: a name of blanks). */
	while (n > 1 && name[n - 1] == ' ')
		n--;
	for (size_t i = 0; i < n; i++) {
		uint8_t c = name[i];

		if (c == '\\')
			o += (size_t)snprintf(out + o, NB_NAME_STRLEN - o, "\\\\");
		else if (c > 0x20 && c < 0x7F)
			out[o++] = (char)c;
		else if (c == ' ')
			out[o++] = ' ';
		else
			o += (size_t)snprintf(out + o, NB_NAME_STRLEN - o,
					      "\\x%02X", c);
	}
	snprintf(out + o, NB_NAME_STRLEN - o, "<%02X>", name[NB_NAME_LEN - 1]);
	return out;
}
