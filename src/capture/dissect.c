/*
 * dissect.c - the one-line packet summaries of "ipxlab capture" (see
 * capture.h): the IPX header, then what is cheap to say about the protocol
 * inside, read straight from the bytes at the offsets the protocol headers
 * document (spx.h, netbios.h, rip.h, sap.h, diag.h, ping.h; this file may
 * not include those higher layers). Every read is checked against the
 * length the IPX header gives, itself checked against the bytes there are.
 */
#include "ipxlab/capture.h"

#include <stdarg.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/frame.h"
#include "ipxlab/ipx.h"

/* An output buffer that is appended to and never overflows. */
struct line {
	char *p;
	size_t len, cap;
};

__attribute__((format(printf, 2, 3))) static void put(struct line *l,
						       const char *fmt, ...)
{
	va_list ap;
	int n;

	if (l->len + 1 >= l->cap)
		return;
	va_start(ap, fmt);
	n = vsnprintf(l->p + l->len, l->cap - l->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	l->len += (size_t)n;
	if (l->len >= l->cap)
		l->len = l->cap - 1;
}

static void put_addr(struct line *l, const uint8_t *p)
{
	put(l, "%08X:%02X%02X%02X%02X%02X%02X:%04X", (unsigned)ipx_get32(p),
	    p[4], p[5], p[6], p[7], p[8], p[9], ipx_get16(p + 10));
}

static void put_spx(struct line *l, const uint8_t *d, size_t n)
{
	static const struct {
		uint8_t bit;
		const char *name;
	} flags[] = { { 0x80, "SYS" }, { 0x40, "ACK" },	 { 0x20, "ATTN" },
		      { 0x10, "EOM" }, { 0x08, "SPX2" }, { 0x04, "NEG" } };
	const char *sep = "";

	if (n < 12) {
		put(l, " SPX short (%zu bytes)", n);
		return;
	}
	put(l, " SPX %04X->%04X seq %u ack %u alloc %u [", ipx_get16(d + 2),
	    ipx_get16(d + 4), ipx_get16(d + 6), ipx_get16(d + 8),
	    ipx_get16(d + 10));
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		if (d[0] & flags[i].bit) {
			put(l, "%s%s", sep, flags[i].name);
			sep = ",";
		}
	}
	put(l, "]");
	if (d[1] == 0xFE)
		put(l, " disconnect");
	else if (d[1] == 0xFF)
		put(l, " disconnect-ack");
	else if (d[1])
		put(l, " ds %02X", d[1]);
	/* SPX II headers are 14 bytes except in a connect request. */
	if ((d[0] & 0x08) && ipx_get16(d + 4) != 0xFFFF && n >= 14)
		put(l, " neg %u data %zu", ipx_get16(d + 12), n - 14);
	else
		put(l, " data %zu", n - 12);
}

static void put_rip(struct line *l, const uint8_t *d, size_t n)
{
	uint16_t op;

	if (n < 2) {
		put(l, " RIP short");
		return;
	}
	op = ipx_get16(d);
	put(l, " RIP %s", op == 1 ? "request" : op == 2 ? "response" : "op?");
	if (op != 1 && op != 2)
		put(l, " %u", op);
	put(l, " %zu net%s", (n - 2) / 8, (n - 2) / 8 == 1 ? "" : "s");
	if (n >= 10)
		put(l, " (%08X hops %u ticks %u%s)", (unsigned)ipx_get32(d + 2),
		    ipx_get16(d + 6), ipx_get16(d + 8), n >= 18 ? ", ..." : "");
}

static void put_sap(struct line *l, const uint8_t *d, size_t n)
{
	static const char *const ops[] = { "?", "general query",
					   "general response", "nearest query",
					   "nearest response" };
	uint16_t op;

	if (n < 2) {
		put(l, " SAP short");
		return;
	}
	op = ipx_get16(d);
	put(l, " SAP %s", op < 5 ? ops[op] : "op?");
	if (op == 1 || op == 3) {
		if (n >= 4)
			put(l, " type %04X", ipx_get16(d + 2));
		return;
	}
	put(l, " %zu service%s", (n - 2) / 64, (n - 2) / 64 == 1 ? "" : "s");
	if (n >= 2 + 64) {
		char name[49];
		size_t k;

		for (k = 0; k < 48 && d[4 + k]; k++)
			name[k] = d[4 + k] >= 0x20 && d[4 + k] < 0x7F
					  ? (char)d[4 + k]
					  : '?';
		name[k] = '\0';
		put(l, " (%04X %s hops %u%s)", ipx_get16(d + 2), name,
		    ipx_get16(d + 64), n >= 2 + 128 ? ", ..." : "");
	}
}

static void put_name(struct line *l, const uint8_t *p)
{
	put(l, " '");
	for (int i = 0; i < 16; i++)
		put(l, "%c", p[i] >= 0x20 && p[i] < 0x7F ? p[i] : '.');
	put(l, "'");
}

static void put_netbios(struct line *l, uint8_t type, const uint8_t *d,
			size_t n)
{
	static const char *const ds_names[] = {
		"?",		 "find-name",	   "name-recognized",
		"check-name",	 "name-in-use",	   "deregister",
		"session-data",	 "session-end",	   "session-end-ack",
		"status-query",	 "status-response", "datagram",
	};
	size_t off = 0;
	uint8_t ds;

	/* Broadcasts (type 20) and name management start with the 32-byte
	 * list of networks crossed; session packets do not. */
	if (type == IPX_TYPE_NETBIOS || n < 2 || d[1] < 6 || d[1] > 0x0B)
		off = 32;
	if (n < off + 2) {
		put(l, " NetBIOS short");
		return;
	}
	ds = d[off + 1];
	put(l, " NetBIOS %s", ds < 12 ? ds_names[ds] : "op?");
	if (ds >= 1 && ds <= 5 && n >= off + 18)
		put_name(l, d + off + 2);
	else if (ds == 0x0B && n >= off + 34) {
		put_name(l, d + off + 18);
		put(l, " ->");
		put_name(l, d + off + 2);
	} else if (ds >= 6 && ds <= 8 && n >= off + 18)
		put(l, " %04X->%04X seq %u [%02X] frag %u", ipx_get16le(d + 2),
		    ipx_get16le(d + 4), ipx_get16le(d + 6), d[0],
		    ipx_get16le(d + 12));
}

static void put_ping(struct line *l, const uint8_t *d, size_t n)
{
	if (n < 10 || memcmp(d, "Ping", 4)) {
		put(l, " ping? (not a Novell ping)");
		return;
	}
	put(l, " ping %s id %u data %zu", d[5] == 0 ? "request" : "reply",
	    ipx_get16(d + 6), n - 10);
}

static void put_payload(struct line *l, const uint8_t *h, const uint8_t *d,
			size_t n)
{
	uint8_t type = h[5];
	uint16_t ds = ipx_get16(h + 16), ss = ipx_get16(h + 28);

#define EITHER(s) (ds == (s) || ss == (s))
	if (type == IPX_TYPE_SPX)
		put_spx(l, d, n);
	else if (EITHER(IPX_SOCK_RIP))
		put_rip(l, d, n);
	else if (EITHER(IPX_SOCK_SAP))
		put_sap(l, d, n);
	else if (EITHER(IPX_SOCK_NETBIOS))
		put_netbios(l, type, d, n);
	else if (EITHER(IPX_SOCK_DIAG))
		put(l, " diagnostics %s",
		    ds == IPX_SOCK_DIAG ? "request" : "response");
	else if (EITHER(IPX_SOCK_PING))
		put_ping(l, d, n);
	else if (ds == IPX_SOCK_ECHO && n == 0 && !memcmp(h + 10, "\0\0\0\0", 4))
		put(l, " tunnel registration");
	else if (ds == IPX_SOCK_ECHO && n == 0 && ipx_get32(h + 18) == 1)
		put(l, " tunnel registration answer");
	else if (ds == IPX_SOCK_ECHO && n == 0)
		put(l, " tunnel echo");
	else if (EITHER(IPX_SOCK_NCP))
		put(l, " NCP data %zu", n);
	else
		put(l, " data %zu", n);
#undef EITHER
}

size_t ipx_capture_describe(const uint8_t *pkt, size_t len, char *out,
			    size_t outlen)
{
	struct line l = { out, 0, outlen };
	uint16_t ilen;

	if (!outlen)
		return 0;
	out[0] = '\0';
	if (len < IPX_HDR_LEN) {
		put(&l, "bad IPX: %zu bytes, shorter than a header", len);
		return l.len;
	}
	ilen = ipx_get16(pkt + 2);
	put_addr(&l, pkt + 18);
	put(&l, " -> ");
	put_addr(&l, pkt + 6);
	put(&l, " type %u len %u", pkt[5], ilen);
	if (pkt[4])
		put(&l, " hops %u", pkt[4]);
	if (ilen < IPX_HDR_LEN || ilen > len) {
		put(&l, " bad length (%zu bytes there)", len);
		return l.len;
	}
	put_payload(&l, pkt, pkt + IPX_HDR_LEN, ilen - IPX_HDR_LEN);
	return l.len;
}

size_t ipx_capture_describe_frame(const uint8_t *frame, size_t len,
				  char *out, size_t outlen)
{
	struct ipx_frame_info fi;
	enum ipx_frame_drop why;
	size_t n;

	if (!outlen)
		return 0;
	if (ipx_frame_decode(frame, len, &fi, &why) != 0) {
		return (size_t)snprintf(out, outlen, "not IPX: %s (%zu bytes)",
					ipx_frame_drop_name(why), len) >=
				       outlen
			       ? outlen - 1
			       : strlen(out);
	}
	n = (size_t)snprintf(out, outlen, "%s ",
			     ipx_frame_type_name(fi.type));
	if (n >= outlen)
		return outlen - 1;
	return n + ipx_capture_describe(fi.ipx, fi.ipx_len, out + n,
					outlen - n);
}
