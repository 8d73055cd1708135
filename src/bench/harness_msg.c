/*
 * harness_msg.c - the benchmark harness's control messages (see
 * ipxlab/bench_harness.h for the frame header): encoder and a decoder
 * that refuses anything out of range with a message saying what.
 *
 * Bodies, by type (offsets within the body, big-endian):
 *
 * HELLO (38)   0 pid u32, 4 cpus u16, 6 name[32] (NUL padded)
 * PREPARE (87) 0 run u32, 4 role u8, 5 kind u8, 6 cpu s16 (-1 none),
 *              8 repeat u16, 10 size u32, 14 count u32, 18 seconds ms
 *              u32, 22 drain ms u32, 26 peer info (40, as READY's 6..45),
 *              66 UDP bind IPv4 u32, 70 set-up timeout ms u32, 74 NCP
 *              operation u8, 75 station u16, 77 credit window u32,
 *              81 SPX II window u16, 83 SPX send queue u32; then,
 *              only when one is set (90 bytes; a tail of zeros is
 *              refused: one spelling), 87 NCP buffer u16,
 *              89 NCP flags u8 (bit 0: no packet burst)
 * READY (46)   0 run u32, 4 cpu s16, 6 address (12), 18 NetBIOS
 *              name[16], 34 UDP IPv4 u32, 38 UDP port u16, 40 credit
 *              IPv4 u32, 44 credit port u16
 * GO, FINISH, QUIT (4)  0 run u32
 * RESULT (138 + 6n)  0 run u32, 4 kind u8, 5 role u8, 6 cpu s16, 8 sent,
 *              16 send errors, 24 delivered, 32 bytes, 40 retransmits
 *              (u64 each), 48 seconds, 56 pps, 64 kbps, 72 srtt us,
 *              80 cpu user, 88 cpu sys (IEEE-754 doubles as u64),
 *              96 latency count, 104 min, 112 max, 120 sum (u64 ns),
 *              128 n u16, 130 window stalls u64, then n x (bucket u16,
 *              count u32): the nonzero buckets in increasing order; then,
 *              only when one is set (+3), NCP buffer granted u16 and
 *              NCP flags u8 (bit 0: packet burst granted)
 * ERROR (6 + n) 0 run u32, 4 n u16 (<= 255), 6 text: printable ASCII
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "harness_int.h"
#include "ipxlab/bytes.h"
#include "ipxlab/err.h"

#define HELLO_LEN 38
#define PREPARE_LEN 87
#define NCP_TAIL_LEN 3	/* PREPARE's and RESULT's optional NCP fields */
#define READY_LEN 46
#define INFO_LEN 40
#define RUN_LEN 4
#define RESULT_FIXED 138
#define BUCKET_LEN 6
#define ERROR_FIXED 6
#define MAX_MS 86400000u	/* a day: longer times are refused */
#define MAX_CPU 1023
#define MAX_SPX_WINDOW 1024u
#define MAX_SEND_QUEUE (64u << 20)

static const char *const type_names[IPX_HMSG_TYPE_END] = {
	[IPX_HMSG_HELLO] = "HELLO",	[IPX_HMSG_PREPARE] = "PREPARE",
	[IPX_HMSG_READY] = "READY",	[IPX_HMSG_GO] = "GO",
	[IPX_HMSG_FINISH] = "FINISH",	[IPX_HMSG_RESULT] = "RESULT",
	[IPX_HMSG_ERROR] = "ERROR",	[IPX_HMSG_QUIT] = "QUIT",
};

const char *ipx_hmsg_type_name(enum ipx_hmsg_type t)
{
	return t > 0 && t < IPX_HMSG_TYPE_END ? type_names[t] : "?";
}

/* ---- field accessors beyond bytes.h ---- */

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)ipx_get32(p) << 32 | ipx_get32(p + 4);
}

static void put64(uint8_t *p, uint64_t v)
{
	ipx_put32(p, (uint32_t)(v >> 32));
	ipx_put32(p + 4, (uint32_t)v);
}

static double getdbl(const uint8_t *p)
{
	uint64_t bits = get64(p);
	double d;

	memcpy(&d, &bits, sizeof(d));
	return d;
}

static void putdbl(uint8_t *p, double d)
{
	uint64_t bits;

	memcpy(&bits, &d, sizeof(bits));
	put64(p, bits);
}

static int gets16(const uint8_t *p)
{
	return (int)(int16_t)ipx_get16(p);
}

static void puts16(uint8_t *p, int v)
{
	ipx_put16(p, (uint16_t)(int16_t)v);
}

static uint32_t ms_of(double s)
{
	double ms = s * 1000 + 0.5;

	if (!(ms > 0))	/* NaN too */
		return 0;
	return ms <= 0 ? 0 : ms >= MAX_MS ? MAX_MS : (uint32_t)ms;
}

static void put_info(uint8_t *p, const struct ipx_bw_info *in)
{
	ipx_addr_write(p, &in->addr);
	memcpy(p + 12, in->nb_name, 16);
	memcpy(p + 28, &in->udp.sin_addr.s_addr, 4);	/* network order */
	memcpy(p + 32, &in->udp.sin_port, 2);
	memcpy(p + 34, &in->credit.sin_addr.s_addr, 4);
	memcpy(p + 38, &in->credit.sin_port, 2);
}

static void get_info(const uint8_t *p, struct ipx_bw_info *in)
{
	memset(in, 0, sizeof(*in));
	ipx_addr_read(p, &in->addr);
	memcpy(in->nb_name, p + 12, 16);
	in->udp.sin_family = AF_INET;
	memcpy(&in->udp.sin_addr.s_addr, p + 28, 4);
	memcpy(&in->udp.sin_port, p + 32, 2);
	in->credit.sin_family = AF_INET;
	memcpy(&in->credit.sin_addr.s_addr, p + 34, 4);
	memcpy(&in->credit.sin_port, p + 38, 2);
}

static bool printable(char ch)
{
	return ch >= 0x20 && ch <= 0x7E;
}

/* ---- encoding ---- */

static size_t enc_hello(const struct ipx_hmsg_hello *h, uint8_t *b)
{
	size_t n = strnlen(h->name, sizeof(h->name));

	if (n == 0 || n > IPX_HARNESS_NAME_MAX)
		return 0;
	ipx_put32(b, h->pid);
	ipx_put16(b + 4, h->cpus);
	memset(b + 6, 0, 32);
	memcpy(b + 6, h->name, n);
	return HELLO_LEN;
}

static size_t enc_prepare(uint32_t run, const struct ipx_hmsg_prepare *p,
			  uint8_t *b)
{
	const struct ipx_bw_params *w = &p->params;

	if (w->size > UINT32_MAX || p->cpu < -1 || p->cpu > MAX_CPU)
		return 0;
	ipx_put32(b, run);
	b[4] = (uint8_t)p->role;
	b[5] = (uint8_t)w->kind;
	puts16(b + 6, p->cpu);
	ipx_put16(b + 8, p->repeat);
	ipx_put32(b + 10, (uint32_t)w->size);
	ipx_put32(b + 14, w->count);
	ipx_put32(b + 18, ms_of(w->seconds));
	ipx_put32(b + 22, ms_of(w->drain));
	put_info(b + 26, &w->peer);
	memcpy(b + 26 + INFO_LEN, &w->udp_bind.s_addr, 4);
	ipx_put32(b + 70, ms_of(w->setup_timeout));
	b[74] = w->op;
	ipx_put16(b + 75, w->station);
	ipx_put32(b + 77, w->window);
	ipx_put16(b + 81, w->spx_window);
	ipx_put32(b + 83, w->send_queue);
	if (!w->ncp_buffer && !w->ncp_no_burst && !w->single_frame)
		return PREPARE_LEN;	/* the message of before */
	ipx_put16(b + PREPARE_LEN, w->ncp_buffer);
	/* flags: 1 no packet burst, 2 the link one frame per system call */
	b[PREPARE_LEN + 2] = (uint8_t)((w->ncp_no_burst ? 1 : 0) |
				       (w->single_frame ? 2 : 0));
	return PREPARE_LEN + NCP_TAIL_LEN;
}

static size_t enc_result(uint32_t run, const struct ipx_bw_result *r,
			 uint8_t *b, size_t cap)
{
	const struct ipx_hist *h = &r->lat;
	size_t n = 0, off = RESULT_FIXED;

	ipx_put32(b, run);
	b[4] = (uint8_t)r->kind;
	b[5] = (uint8_t)r->role;
	puts16(b + 6, r->cpu < -1 || r->cpu > MAX_CPU ? -1 : r->cpu);
	put64(b + 8, r->sent);
	put64(b + 16, r->send_errors);
	put64(b + 24, r->delivered);
	put64(b + 32, r->bytes);
	put64(b + 40, r->retransmits);
	putdbl(b + 48, r->seconds);
	putdbl(b + 56, r->pps);
	putdbl(b + 64, r->kbps);
	putdbl(b + 72, r->srtt_us);
	putdbl(b + 80, r->cpu_user);
	putdbl(b + 88, r->cpu_sys);
	put64(b + 96, h->count);
	put64(b + 104, h->min);
	put64(b + 112, h->max);
	put64(b + 120, h->sum);
	for (size_t i = 0; i < IPX_HIST_BUCKETS; i++) {
		if (!h->bucket[i])
			continue;
		if (off + BUCKET_LEN > cap)
			return 0;
		ipx_put16(b + off, (uint16_t)i);
		ipx_put32(b + off + 2, h->bucket[i]);
		off += BUCKET_LEN;
		n++;
	}
	ipx_put16(b + 128, (uint16_t)n);
	put64(b + 130, r->stalls);
	if (r->ncp_buffer || r->ncp_burst) {
		if (off + NCP_TAIL_LEN > cap)
			return 0;
		ipx_put16(b + off, r->ncp_buffer);
		b[off + 2] = r->ncp_burst ? 1 : 0;
		off += NCP_TAIL_LEN;
	}
	return off;
}

static size_t enc_error(uint32_t run, const char *text, uint8_t *b)
{
	size_t n = strnlen(text, IPX_HMSG_TEXT_MAX);

	ipx_put32(b, run);
	ipx_put16(b + 4, (uint16_t)n);
	for (size_t i = 0; i < n; i++)	/* never refuse to report */
		b[ERROR_FIXED + i] = printable(text[i]) ? (uint8_t)text[i]
							: (uint8_t)'?';
	return ERROR_FIXED + n;
}

size_t ipx_hmsg_encode(const struct ipx_hmsg *m, uint8_t *out, size_t cap)
{
	uint8_t *b = out + IPX_HMSG_HDR_LEN;
	size_t room, n = 0;

	if (cap < IPX_HMSG_HDR_LEN + RESULT_FIXED)
		return 0;
	room = cap - IPX_HMSG_HDR_LEN;
	if (room > IPX_HMSG_MAX_BODY)
		room = IPX_HMSG_MAX_BODY;
	switch (m->type) {
	case IPX_HMSG_HELLO:
		n = enc_hello(&m->u.hello, b);
		break;
	case IPX_HMSG_PREPARE:
		n = enc_prepare(m->run, &m->u.prepare, b);
		break;
	case IPX_HMSG_READY:
		ipx_put32(b, m->run);
		puts16(b + 4, m->u.ready.cpu < -1 || m->u.ready.cpu > MAX_CPU
				      ? -1
				      : m->u.ready.cpu);
		put_info(b + 6, &m->u.ready.info);
		n = READY_LEN;
		break;
	case IPX_HMSG_GO:
	case IPX_HMSG_FINISH:
	case IPX_HMSG_QUIT:
		ipx_put32(b, m->run);
		n = RUN_LEN;
		break;
	case IPX_HMSG_RESULT:
		n = enc_result(m->run, &m->u.result, b, room);
		break;
	case IPX_HMSG_ERROR:
		n = enc_error(m->run, m->u.text, b);
		break;
	default:
		return 0;
	}
	if (!n)
		return 0;
	ipx_put16(out, IPX_HARNESS_MAGIC);
	out[2] = IPX_HARNESS_VERSION;
	out[3] = (uint8_t)m->type;
	ipx_put32(out + 4, (uint32_t)n);
	return IPX_HMSG_HDR_LEN + n;
}

/* ---- decoding ---- */

static int dec_hello(const uint8_t *b, size_t n, struct ipx_hmsg_hello *h,
		     char *err, size_t errlen)
{
	size_t len;

	if (n != HELLO_LEN)
		goto bad_len;
	h->pid = ipx_get32(b);
	h->cpus = ipx_get16(b + 4);
	memcpy(h->name, b + 6, 32);
	len = strnlen(h->name, 32);
	if (len == 0 || len > IPX_HARNESS_NAME_MAX) {
		hset_err(err, errlen, "HELLO: the name is empty or too long");
		return IPX_EINVAL;
	}
	for (size_t i = 0; i < 32; i++) {
		if (i < len ? !printable(h->name[i]) : h->name[i] != 0) {
			hset_err(err, errlen, "HELLO: the name has a byte "
					     "0x%02X at %zu",
				(unsigned char)h->name[i], i);
			return IPX_EINVAL;
		}
	}
	return IPX_OK;
bad_len:
	hset_err(err, errlen, "HELLO: body of %zu bytes, not %d", n,
		HELLO_LEN);
	return IPX_EINVAL;
}

static int dec_prepare(const uint8_t *b, size_t n, struct ipx_hmsg_prepare *p,
		       char *err, size_t errlen)
{
	struct ipx_bw_params *w = &p->params;

	if (n != PREPARE_LEN && n != PREPARE_LEN + NCP_TAIL_LEN) {
		hset_err(err, errlen, "PREPARE: body of %zu bytes, not %d or %d",
			n, PREPARE_LEN, PREPARE_LEN + NCP_TAIL_LEN);
		return IPX_EINVAL;
	}
	if (n > PREPARE_LEN && (b[PREPARE_LEN + 2] > 3 ||
				!(ipx_get16(b + PREPARE_LEN) | b[PREPARE_LEN + 2]))) {
		hset_err(err, errlen, "PREPARE: NCP flags 0x%02x unknown, or "
				     "an NCP tail with nothing set",
			b[PREPARE_LEN + 2]);
		return IPX_EINVAL;
	}
	memset(p, 0, sizeof(*p));
	if (b[4] > IPX_BW_RECEIVER || b[5] >= IPX_BW_KINDS) {
		hset_err(err, errlen, "PREPARE: role %u or kind %u unknown",
			b[4], b[5]);
		return IPX_EINVAL;
	}
	p->role = (enum ipx_bw_role)b[4];
	w->kind = (enum ipx_bw_kind)b[5];
	p->cpu = gets16(b + 6);
	p->repeat = ipx_get16(b + 8);
	w->size = ipx_get32(b + 10);
	w->count = ipx_get32(b + 14);
	w->seconds = ipx_get32(b + 18) / 1000.0;
	w->drain = ipx_get32(b + 22) / 1000.0;
	get_info(b + 26, &w->peer);
	memcpy(&w->udp_bind.s_addr, b + 26 + INFO_LEN, 4);
	w->setup_timeout = ipx_get32(b + 70) / 1000.0;
	w->op = b[74];
	w->station = ipx_get16(b + 75);
	w->window = ipx_get32(b + 77);
	w->spx_window = ipx_get16(b + 81);
	w->send_queue = ipx_get32(b + 83);
	if (n > PREPARE_LEN) {
		w->ncp_buffer = ipx_get16(b + PREPARE_LEN);
		w->ncp_no_burst = b[PREPARE_LEN + 2] & 1;
		w->single_frame = (b[PREPARE_LEN + 2] & 2) != 0;
	}
	if (p->cpu < -1 || p->cpu > MAX_CPU) {
		hset_err(err, errlen, "PREPARE: CPU %d out of range", p->cpu);
		return IPX_EINVAL;
	}
	if (w->spx_window > MAX_SPX_WINDOW || w->send_queue > MAX_SEND_QUEUE) {
		hset_err(err, errlen, "PREPARE: SPX window %u or send queue %u "
				     "out of range (at most %u, %u)",
			w->spx_window, w->send_queue, MAX_SPX_WINDOW,
			MAX_SEND_QUEUE);
		return IPX_EINVAL;
	}
	if (w->kind == IPX_BW_NCP ? w->size > 64 * 1024 * 1024
				  : (w->size == 0 || w->size > 65535)) {
		hset_err(err, errlen, "PREPARE: size %zu out of range (1 to "
				     "65535; NCP: 0 to 64 MB)",
			w->size);
		return IPX_EINVAL;
	}
	if (ipx_get32(b + 18) > MAX_MS || ipx_get32(b + 22) > MAX_MS ||
	    ipx_get32(b + 70) > MAX_MS ||
	    (w->count == 0 && ipx_get32(b + 18) == 0)) {
		hset_err(err, errlen, "PREPARE: neither a count nor a time, "
				     "or a time beyond a day");
		return IPX_EINVAL;
	}
	return IPX_OK;
}

/* The doubles of a RESULT: finite and not negative. */
static bool good_double(double d)
{
	return isfinite(d) && d >= 0;
}

static int dec_result(const uint8_t *b, size_t n, struct ipx_bw_result *r,
		      char *err, size_t errlen)
{
	struct ipx_hist *h = &r->lat;
	size_t nb;
	uint64_t total = 0;
	long last = -1;

	if (n < RESULT_FIXED) {
		hset_err(err, errlen, "RESULT: body of %zu bytes, under %d", n,
			RESULT_FIXED);
		return IPX_EINVAL;
	}
	memset(r, 0, sizeof(*r));
	if (b[4] >= IPX_BW_KINDS || b[5] > IPX_BW_RECEIVER) {
		hset_err(err, errlen, "RESULT: kind %u or role %u unknown", b[4],
			b[5]);
		return IPX_EINVAL;
	}
	r->kind = (enum ipx_bw_kind)b[4];
	r->role = (enum ipx_bw_role)b[5];
	r->cpu = gets16(b + 6);
	r->sent = get64(b + 8);
	r->send_errors = get64(b + 16);
	r->delivered = get64(b + 24);
	r->bytes = get64(b + 32);
	r->retransmits = get64(b + 40);
	r->seconds = getdbl(b + 48);
	r->pps = getdbl(b + 56);
	r->kbps = getdbl(b + 64);
	r->srtt_us = getdbl(b + 72);
	r->cpu_user = getdbl(b + 80);
	r->cpu_sys = getdbl(b + 88);
	if (!good_double(r->seconds) || !good_double(r->pps) ||
	    !good_double(r->kbps) || !good_double(r->srtt_us) ||
	    !good_double(r->cpu_user) || !good_double(r->cpu_sys)) {
		hset_err(err, errlen, "RESULT: a time or rate is negative or "
				     "not a number");
		return IPX_EINVAL;
	}
	if (r->cpu < -1 || r->cpu > MAX_CPU) {
		hset_err(err, errlen, "RESULT: CPU %d out of range", r->cpu);
		return IPX_EINVAL;
	}
	h->count = get64(b + 96);
	h->min = get64(b + 104);
	h->max = get64(b + 112);
	h->sum = get64(b + 120);
	nb = ipx_get16(b + 128);
	r->stalls = get64(b + 130);
	if (n == RESULT_FIXED + nb * BUCKET_LEN + NCP_TAIL_LEN) {
		const uint8_t *t = b + n - NCP_TAIL_LEN;

		if (t[2] > 1 || !(ipx_get16(t) | t[2])) {
			hset_err(err, errlen, "RESULT: NCP flags 0x%02x unknown, "
					     "or an NCP tail with nothing set",
				t[2]);
			return IPX_EINVAL;
		}
		r->ncp_buffer = ipx_get16(t);
		r->ncp_burst = t[2] & 1;
	} else if (n != RESULT_FIXED + nb * BUCKET_LEN) {
		hset_err(err, errlen, "RESULT: body of %zu bytes for %zu "
				     "histogram buckets",
			n, nb);
		return IPX_EINVAL;
	}
	for (size_t i = 0; i < nb; i++) {
		const uint8_t *p = b + RESULT_FIXED + i * BUCKET_LEN;
		unsigned idx = ipx_get16(p);
		uint32_t cnt = ipx_get32(p + 2);

		if ((long)idx <= last || idx >= IPX_HIST_BUCKETS || !cnt) {
			hset_err(err, errlen, "RESULT: histogram bucket %u out "
					     "of order, range or empty",
				idx);
			return IPX_EINVAL;
		}
		last = idx;
		h->bucket[idx] = cnt;
		total += cnt;
	}
	if (total != h->count || (h->count && h->min > h->max) ||
	    (!h->count && (h->min || h->max || h->sum))) {
		hset_err(err, errlen, "RESULT: the histogram's totals disagree "
				     "with its buckets");
		return IPX_EINVAL;
	}
	return IPX_OK;
}

static int dec_error(const uint8_t *b, size_t n, char *text, char *err,
		     size_t errlen)
{
	size_t len;

	if (n < ERROR_FIXED || n != (size_t)ERROR_FIXED + ipx_get16(b + 4) ||
	    ipx_get16(b + 4) > IPX_HMSG_TEXT_MAX) {
		hset_err(err, errlen, "ERROR: body of %zu bytes disagrees with "
				     "its text length",
			n);
		return IPX_EINVAL;
	}
	len = ipx_get16(b + 4);
	for (size_t i = 0; i < len; i++) {
		if (!printable((char)b[ERROR_FIXED + i])) {
			hset_err(err, errlen, "ERROR: text byte 0x%02X is not "
					     "printable",
				b[ERROR_FIXED + i]);
			return IPX_EINVAL;
		}
		text[i] = (char)b[ERROR_FIXED + i];
	}
	text[len] = '\0';
	return IPX_OK;
}

int ipx_hmsg_decode(const uint8_t *p, size_t len, struct ipx_hmsg *out,
		    size_t *used, char *err, size_t errlen)
{
	const uint8_t *b = p + IPX_HMSG_HDR_LEN;
	uint32_t n;
	uint8_t type;
	int rc = IPX_OK;

	if (len >= 2 && ipx_get16(p) != IPX_HARNESS_MAGIC) {
		hset_err(err, errlen, "not a harness message (magic %04X, "
				     "want %04X)",
			ipx_get16(p), IPX_HARNESS_MAGIC);
		return IPX_EINVAL;
	}
	if (len >= 3 && p[2] != IPX_HARNESS_VERSION) {
		hset_err(err, errlen, "harness protocol version %u, but this "
				     "ipxlab speaks version %u: run the same "
				     "ipxlab version on every machine",
			p[2], IPX_HARNESS_VERSION);
		return IPX_EINVAL;
	}
	if (len < IPX_HMSG_HDR_LEN)
		return IPX_EAGAIN;
	type = p[3];
	n = ipx_get32(p + 4);
	if (type == 0 || type >= IPX_HMSG_TYPE_END) {
		hset_err(err, errlen, "unknown message type %u", type);
		return IPX_EINVAL;
	}
	if (n > IPX_HMSG_MAX_BODY) {
		hset_err(err, errlen, "%s: body of %u bytes, over %d",
			type_names[type], n, IPX_HMSG_MAX_BODY);
		return IPX_EINVAL;
	}
	if (len - IPX_HMSG_HDR_LEN < n)
		return IPX_EAGAIN;
	memset(out, 0, offsetof(struct ipx_hmsg, u));
	out->type = (enum ipx_hmsg_type)type;
	if (type != IPX_HMSG_HELLO && n >= RUN_LEN)
		out->run = ipx_get32(b);
	switch (out->type) {
	case IPX_HMSG_HELLO:
		rc = dec_hello(b, n, &out->u.hello, err, errlen);
		break;
	case IPX_HMSG_PREPARE:
		rc = dec_prepare(b, n, &out->u.prepare, err, errlen);
		break;
	case IPX_HMSG_READY:
		if (n != READY_LEN) {
			hset_err(err, errlen, "READY: body of %u bytes, not %d",
				n, READY_LEN);
			return IPX_EINVAL;
		}
		out->u.ready.cpu = gets16(b + 4);
		get_info(b + 6, &out->u.ready.info);
		if (out->u.ready.cpu < -1 || out->u.ready.cpu > MAX_CPU) {
			hset_err(err, errlen, "READY: CPU %d out of range",
				out->u.ready.cpu);
			return IPX_EINVAL;
		}
		break;
	case IPX_HMSG_GO:
	case IPX_HMSG_FINISH:
	case IPX_HMSG_QUIT:
		if (n != RUN_LEN) {
			hset_err(err, errlen, "%s: body of %u bytes, not %d",
				type_names[type], n, RUN_LEN);
			return IPX_EINVAL;
		}
		break;
	case IPX_HMSG_RESULT:
		rc = dec_result(b, n, &out->u.result, err, errlen);
		break;
	case IPX_HMSG_ERROR:
		rc = dec_error(b, n, out->u.text, err, errlen);
		break;
	default:
		break;
	}
	if (rc == IPX_OK)
		*used = IPX_HMSG_HDR_LEN + n;
	return rc;
}
