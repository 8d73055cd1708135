/*
 * profile.c - the named link profiles, the profile-file parser and the
 * wire-time arithmetic (see link_profile.h; the figures are explained in
 * docs/links.md, "Link profiles").
 */
#include "ipxlab/link_profile.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/buf.h"
#include "ipxlab/err.h"

#define KIB 1024u
/* isn's release block and hold (docs/links.md, "isn", the arithmetic). */
#define RELEASE_ISN 128u
#define HOLD_ISN 3000000ull

const char ipx_profile_names[] = "eth10, tr4, tr16, isn";

static const struct ipx_profile named[] = {
	/* 10 Mbit/s Ethernet (IEEE 802.3): a 14-byte MAC header, frames
	 * padded to 60 bytes; preamble and SFD 8, FCS 4, inter-frame gap 12
	 * bytes on the wire; at most 1,514 bytes; one collision slot (512
	 * bit times) lost whenever two stations want the wire at once. */
	{ .name = "eth10", .rate = 10000000, .header = 14, .min_frame = 60,
	  .overhead = 24, .max_frame = 1514, .access = IPX_ACCESS_CSMA_CD,
	  .contention_bits = 512, .queue = 64 * KIB },
	/* 4 Mbit/s Token-Ring (IEEE 802.5): AC, FC, two addresses and the
	 * 802.2 LLC header (17 bytes) before IPX; SD, FCS, ED and FS (7
	 * bytes) around it; a 3-byte free token to pass on after each
	 * frame; information field at most 4,464 bytes. */
	{ .name = "tr4", .rate = 4000000, .header = 17, .overhead = 7,
	  .max_frame = 14 + 4464, .access = IPX_ACCESS_TOKEN,
	  .token_bits = 24, .queue = 64 * KIB },
	/* 16 Mbit/s Token-Ring: the same frame, information field at most
	 * 17,914 bytes. */
	{ .name = "tr16", .rate = 16000000, .header = 17, .overhead = 7,
	  .max_frame = 14 + 17914, .access = IPX_ACCESS_TOKEN,
	  .token_bits = 24, .queue = 64 * KIB },
	/* The bridged WAN: Ethernet frames over a 950 kbit/s trunk each way
	 * between two bridge modules with 182 KB receive and 192 KB transmit
	 * buffers; IPX packets over 576 bytes do not cross. The release
	 * block and the hold are ipxlab's, fitted to the 1990 copy times
	 * (docs/links.md, "isn"). */
	{ .name = "isn", .rate = 950000, .header = 14, .min_frame = 60,
	  .overhead = 0, .max_frame = 1514, .access = IPX_ACCESS_OWN,
	  .queue = 192 * KIB, .bridge_max = 576, .rx_buffer = 182 * KIB,
	  .tx_buffer = 192 * KIB, .release = RELEASE_ISN,
	  .hold_ns = HOLD_ISN },
};

int ipx_profile_named(const char *name, struct ipx_profile *out)
{
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		if (!strcmp(named[i].name, name)) {
			*out = named[i];
			return IPX_OK;
		}
	}
	return IPX_ENOTFOUND;
}

/* ---- values ---- */

/* A non-negative decimal number followed by a unit from 'units' (each
 * with its multiplier); "0" needs no unit. */
struct unit {
	const char *name;
	double mult;
};

static int parse_with_units(const char *text, const struct unit *units,
			    bool unit_needed, double max, double *out)
{
	char *end;
	double v;

	if (!text || !*text || *text == '-' || *text == '+' || isspace((unsigned char)*text))
		return IPX_EINVAL;
	errno = 0;
	v = strtod(text, &end);
	if (end == text || errno || !isfinite(v) || v < 0)
		return IPX_EINVAL;
	if (!*end) {
		if (unit_needed && v != 0)
			return IPX_EINVAL;
		*out = v;
		return v <= max ? IPX_OK : IPX_EINVAL;
	}
	for (const struct unit *u = units; u->name; u++) {
		if (!strcmp(end, u->name)) {
			v *= u->mult;
			*out = v;
			return v <= max ? IPX_OK : IPX_EINVAL;
		}
	}
	return IPX_EINVAL;
}

/* A whole number with a unit from 'units'. */
static int parse_whole(const char *text, const struct unit *units,
		       bool unit_needed, double max, uint64_t *out)
{
	double v;

	if (parse_with_units(text, units, unit_needed, max, &v) != IPX_OK ||
	    v != floor(v))
		return IPX_EINVAL;
	*out = (uint64_t)v;
	return IPX_OK;
}

int ipx_profile_parse_rate(const char *text, uint64_t *out)
{
	static const struct unit u[] = { { "k", 1e3 }, { "K", 1e3 },
					 { "M", 1e6 }, { "G", 1e9 },
					 { NULL, 0 } };

	return parse_whole(text, u, false, 1e11, out);
}

int ipx_profile_parse_size(const char *text, uint32_t *out)
{
	static const struct unit u[] = { { "K", KIB }, { "KB", KIB },
					 { "M", KIB * KIB },
					 { "MB", KIB * KIB }, { NULL, 0 } };
	uint64_t v;

	if (parse_whole(text, u, false, 4294967295.0, &v) != IPX_OK)
		return IPX_EINVAL;
	*out = (uint32_t)v;
	return IPX_OK;
}

int ipx_profile_parse_time(const char *text, uint64_t *out_ns)
{
	static const struct unit u[] = { { "ns", 1 }, { "us", 1e3 },
					 { "ms", 1e6 }, { "s", 1e9 },
					 { NULL, 0 } };

	return parse_whole(text, u, true, 3600e9, out_ns);
}

int ipx_profile_parse_loss(const char *text, uint32_t *out_ppm)
{
	static const struct unit u[] = { { "%", 1e4 }, { "ppm", 1 },
					 { NULL, 0 } };
	double v;

	if (parse_with_units(text, u, true, 1e6, &v) != IPX_OK)
		return IPX_EINVAL;
	*out_ppm = (uint32_t)llround(v);
	return IPX_OK;
}

/* ---- consistency ---- */

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return IPX_ECONFIG;
}

int ipx_profile_check(const struct ipx_profile *p, char *err, size_t errlen)
{
	if (p->header > 64)
		return fail(err, errlen, "header %u is more than 64 bytes",
			    p->header);
	if (p->max_frame < p->header + 30 || p->max_frame > p->header + 65535)
		return fail(err, errlen,
			    "max-frame %u must leave room for an IPX header "
			    "after the %u-byte link header (%u to %u)",
			    p->max_frame, p->header, p->header + 30,
			    p->header + 65535);
	if (p->min_frame > p->max_frame)
		return fail(err, errlen, "min-frame %u is above max-frame %u",
			    p->min_frame, p->max_frame);
	if (p->overhead > 4096)
		return fail(err, errlen, "overhead %u is more than 4096 bytes",
			    p->overhead);
	if (p->delay_ns > 10000000000ull)
		return fail(err, errlen, "delay is more than 10 s");
	if (p->loss_ppm > 1000000)
		return fail(err, errlen, "loss is more than 100%%");
	if (p->access != IPX_ACCESS_OWN && p->rate == 0)
		return fail(err, errlen,
			    "a shared medium (access csma-cd or token) needs "
			    "a rate");
	if (p->queue < p->max_frame || p->queue > 64 * KIB * KIB)
		return fail(err, errlen,
			    "queue %u must hold at least one max-frame (%u) "
			    "and at most 64M",
			    p->queue, p->max_frame);
	if (p->bridge_max && (p->bridge_max < 30 || p->bridge_max > 65535))
		return fail(err, errlen,
			    "bridge-max %u must be 0 (no limit) or 30 to 65535",
			    p->bridge_max);
	if ((p->rx_buffer || p->tx_buffer) &&
	    (p->rx_buffer < p->max_frame || p->tx_buffer < p->max_frame))
		return fail(err, errlen,
			    "rx-buffer (%u) and tx-buffer (%u) must each hold "
			    "a max-frame (%u)",
			    p->rx_buffer, p->tx_buffer, p->max_frame);
	if (p->rx_buffer > 64 * KIB * KIB || p->tx_buffer > 64 * KIB * KIB)
		return fail(err, errlen, "a bridge buffer is more than 64M");
	if (p->release > p->rx_buffer)
		return fail(err, errlen,
			    "release %u is more than the rx-buffer (%u): a "
			    "module cannot hold more than its buffer",
			    p->release, p->rx_buffer);
	if (p->release_at > p->rx_buffer)
		return fail(err, errlen,
			    "release-at %u is more than the rx-buffer (%u): a "
			    "module cannot hold more than its buffer",
			    p->release_at, p->rx_buffer);
	if (p->hold_ns > 60000000000ull)
		return fail(err, errlen, "hold is more than 60 s");
	return ipx_adapter_check(&p->adapter, p, err, errlen);
}

/* ---- the adapter ---- */

static uint32_t div_up(uint32_t a, uint32_t b)
{
	return (a + b - 1) / b;
}

/* Receive buffers the configuration must leave room for. */
static uint32_t rx_min(const struct ipx_adapter *a)
{
	uint32_t n = div_up(a->tx_size, a->rx_size);

	return n > 2 ? n : 2;
}

int ipx_adapter_check(const struct ipx_adapter *a,
		      const struct ipx_profile *p, char *err, size_t errlen)
{
	uint32_t least = p->header + 30;
	uint64_t need;

	if (!a->memory)
		return IPX_OK;
	if (a->memory != 8 * KIB && a->memory != 16 * KIB &&
	    a->memory != 32 * KIB && a->memory != 64 * KIB)
		return fail(err, errlen,
			    "adapter-memory %u must be 8K, 16K, 32K or 64K (the "
			    "Token-Ring adapters' shared RAM)",
			    a->memory);
	if (a->tx_buffers < 1 || a->tx_buffers > 2)
		return fail(err, errlen, "tx-buffers must be 1 or 2 (got %u)",
			    a->tx_buffers);
	if (a->tx_size < least || a->rx_size < least)
		return fail(err, errlen,
			    "tx-buffer-size (%u) and rx-buffer-size (%u) must "
			    "each hold the %u-byte link header and an IPX "
			    "header (%u bytes)",
			    a->tx_size, a->rx_size, p->header, least);
	if (a->tx_size > p->max_frame)
		return fail(err, errlen,
			    "tx-buffer-size %u is above max-frame %u: no frame "
			    "that large goes on this wire",
			    a->tx_size, p->max_frame);
	if (a->tx_size - p->header > IPX_MAX_PACKET)
		return fail(err, errlen,
			    "tx-buffer-size %u carries IPX packets of %u bytes; "
			    "ipxlab carries at most %u",
			    a->tx_size, a->tx_size - p->header, IPX_MAX_PACKET);
	need = (uint64_t)a->tx_buffers * a->tx_size +
	       (uint64_t)rx_min(a) * a->rx_size;
	if (need > a->memory)
		return fail(err, errlen,
			    "adapter memory %u bytes cannot hold %u transmit "
			    "buffer%s of %u bytes and %u receive buffers of %u "
			    "bytes: %u x %u + %u x %u = %llu bytes > %u",
			    a->memory, a->tx_buffers,
			    a->tx_buffers == 1 ? "" : "s", a->tx_size,
			    rx_min(a), a->rx_size, a->tx_buffers, a->tx_size,
			    rx_min(a), a->rx_size, (unsigned long long)need,
			    a->memory);
	return IPX_OK;
}

uint32_t ipx_adapter_rx_buffers(const struct ipx_adapter *a)
{
	if (!a->memory || !a->rx_size)
		return 0;
	return (a->memory - a->tx_buffers * a->tx_size) / a->rx_size;
}

size_t ipx_adapter_mtu(const struct ipx_adapter *a,
		       const struct ipx_profile *p)
{
	size_t mtu = ipx_profile_mtu(p);

	if (a->memory && a->tx_size - p->header < mtu)
		mtu = a->tx_size - p->header;
	return mtu;
}

uint64_t ipx_adapter_copy_ns(const struct ipx_adapter *a,
			     const struct ipx_profile *p, size_t len)
{
	uint64_t bits = ((uint64_t)len + p->header) * 8;

	if (!a->memory || !a->copy_rate)
		return 0;
	return (bits * 1000000000ull + a->copy_rate - 1) / a->copy_rate;
}

uint32_t ipx_adapter_rx_need(const struct ipx_adapter *a,
			     const struct ipx_profile *p, size_t len)
{
	if (!a->memory || !a->rx_size)
		return 0;
	return div_up((uint32_t)len + p->header, a->rx_size);
}

/* ---- the file ---- */

enum kind { K_RATE, K_SIZE, K_TIME, K_LOSS, K_ACCESS, K_BITS, K_COUNT };

struct key {
	const char *name;
	enum kind kind;
	size_t off;	/* in struct ipx_profile */
};

#define F(field) offsetof(struct ipx_profile, field)
static const struct key keys[] = {
	{ "rate", K_RATE, F(rate) },
	{ "header", K_SIZE, F(header) },
	{ "min-frame", K_SIZE, F(min_frame) },
	{ "overhead", K_SIZE, F(overhead) },
	{ "max-frame", K_SIZE, F(max_frame) },
	{ "delay", K_TIME, F(delay_ns) },
	{ "loss", K_LOSS, F(loss_ppm) },
	{ "access", K_ACCESS, F(access) },
	{ "contention", K_BITS, F(contention_bits) },
	{ "token", K_BITS, F(token_bits) },
	{ "queue", K_SIZE, F(queue) },
	{ "bridge-max", K_SIZE, F(bridge_max) },
	{ "rx-buffer", K_SIZE, F(rx_buffer) },
	{ "tx-buffer", K_SIZE, F(tx_buffer) },
	{ "release", K_SIZE, F(release) },
	{ "release-at", K_SIZE, F(release_at) },
	{ "hold", K_TIME, F(hold_ns) },
	{ "adapter-memory", K_SIZE, F(adapter.memory) },
	{ "tx-buffers", K_COUNT, F(adapter.tx_buffers) },
	{ "tx-buffer-size", K_SIZE, F(adapter.tx_size) },
	{ "rx-buffer-size", K_SIZE, F(adapter.rx_size) },
	{ "adapter-copy", K_RATE, F(adapter.copy_rate) },
	{ "rx-buffer-cost", K_TIME, F(adapter.rx_cost_ns) },
};
#undef F

static const char *const access_names[] = { "own", "csma-cd", "token" };

static const char *kind_help(enum kind k)
{
	switch (k) {
	case K_RATE:
		return "a bit rate such as 10M, 950k or 4000000";
	case K_SIZE:
		return "a size in bytes such as 1514 or 182K";
	case K_TIME:
		return "a time such as 50ms, 5us, 200ns or 0";
	case K_LOSS:
		return "a loss such as 0.1% or 1000ppm";
	case K_ACCESS:
		return "own, csma-cd or token";
	case K_BITS:
		return "a whole number of bit times";
	case K_COUNT:
		return "a whole number";
	}
	return "?";
}

static int set_value(struct ipx_profile *p, const struct key *k,
		     const char *v)
{
	uint8_t *base = (uint8_t *)p + k->off;
	uint32_t u32;
	uint64_t u64;

	switch (k->kind) {
	case K_RATE:
		if (ipx_profile_parse_rate(v, &u64) != IPX_OK)
			return IPX_EINVAL;
		memcpy(base, &u64, sizeof(u64));
		return IPX_OK;
	case K_TIME:
		if (ipx_profile_parse_time(v, &u64) != IPX_OK)
			return IPX_EINVAL;
		memcpy(base, &u64, sizeof(u64));
		return IPX_OK;
	case K_SIZE:
		if (ipx_profile_parse_size(v, &u32) != IPX_OK)
			return IPX_EINVAL;
		memcpy(base, &u32, sizeof(u32));
		return IPX_OK;
	case K_LOSS:
		if (ipx_profile_parse_loss(v, &u32) != IPX_OK)
			return IPX_EINVAL;
		memcpy(base, &u32, sizeof(u32));
		return IPX_OK;
	case K_BITS:
	case K_COUNT: {
		char *end;
		unsigned long n;

		errno = 0;
		n = strtoul(v, &end, 10);
		if (!isdigit((unsigned char)*v) || *end || errno ||
		    n > 1000000)
			return IPX_EINVAL;
		u32 = (uint32_t)n;
		memcpy(base, &u32, sizeof(u32));
		return IPX_OK;
	}
	case K_ACCESS:
		for (int i = 0; i < 3; i++) {
			if (!strcmp(v, access_names[i])) {
				p->access = (enum ipx_profile_access)i;
				return IPX_OK;
			}
		}
		return IPX_EINVAL;
	}
	return IPX_EINVAL;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* One line (comment already cut); 'seen' counts settings so far. */
static int parse_line(char *line, struct ipx_profile *p, unsigned *seen,
		      char *msg, size_t msglen)
{
	char *key = trim(line), *val;

	if (!*key)
		return IPX_OK;
	val = key + strcspn(key, " \t=");
	if (*val) {
		*val++ = '\0';
		val = trim(val);
		if (*val == '=')
			val = trim(val + 1);
	}
	if (!*val)
		return fail(msg, msglen, "'%s' needs a value", key);
	if (!strcmp(key, "base")) {
		if (*seen)
			return fail(msg, msglen,
				    "'base' must come before any other setting");
		if (ipx_profile_named(val, p) != IPX_OK)
			return fail(msg, msglen,
				    "no profile named '%s' (there are %s)", val,
				    ipx_profile_names);
		(*seen)++;
		return IPX_OK;
	}
	if (!strcmp(key, "name")) {
		if (strlen(val) >= sizeof(p->name))
			return fail(msg, msglen, "name is longer than %zu",
				    sizeof(p->name) - 1);
		strcpy(p->name, val);
		(*seen)++;
		return IPX_OK;
	}
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (strcmp(key, keys[i].name))
			continue;
		if (set_value(p, &keys[i], val) != IPX_OK)
			return fail(msg, msglen, "%s must be %s (got '%s')",
				    key, kind_help(keys[i].kind), val);
		(*seen)++;
		return IPX_OK;
	}
	char known[400] = "base, name";

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		size_t n = strlen(known);

		snprintf(known + n, sizeof(known) - n, ", %s", keys[i].name);
	}
	return fail(msg, msglen, "unknown setting '%s' (one of %s)", key,
		    known);
}

int ipx_profile_parse(const char *text, size_t len, const char *file,
		      struct ipx_profile *out, char *err, size_t errlen)
{
	struct ipx_profile p = { .queue = 64 * KIB };
	char line[256], msg[600];
	unsigned lineno = 0, seen = 0, adapter_line = 0;
	struct ipx_adapter before;
	size_t pos = 0;
	int rc;

	snprintf(p.name, sizeof(p.name), "file");
	while (pos < len) {
		size_t end = pos, n;
		char *hash;

		while (end < len && text[end] != '\n')
			end++;
		n = end - pos;
		lineno++;
		if (n >= sizeof(line))
			return fail(err, errlen, "%s:%u: line longer than %zu",
				    file, lineno, sizeof(line) - 1);
		memcpy(line, text + pos, n);
		line[n] = '\0';
		pos = end + 1;
		if (memchr(line, '\0', n))
			return fail(err, errlen, "%s:%u: a NUL byte", file,
				    lineno);
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		before = p.adapter;
		rc = parse_line(line, &p, &seen, msg, sizeof(msg));
		if (rc != IPX_OK)
			return fail(err, errlen, "%s:%u: %s", file, lineno, msg);
		if (memcmp(&before, &p.adapter, sizeof(before)))
			adapter_line = lineno;
	}
	if (!seen)
		return fail(err, errlen, "%s: no settings (start with 'base "
					 "eth10' or give rate, max-frame...)",
			    file);
	/* the buffers that do not fit: at the adapter key that made it so */
	if (adapter_line &&
	    ipx_adapter_check(&p.adapter, &p, msg, sizeof(msg)) != IPX_OK)
		return fail(err, errlen, "%s:%u: %s", file, adapter_line, msg);
	if (ipx_profile_check(&p, msg, sizeof(msg)) != IPX_OK)
		return fail(err, errlen, "%s: %s", file, msg);
	*out = p;
	return IPX_OK;
}

int ipx_profile_load(const char *path, struct ipx_profile *out, char *err,
		     size_t errlen)
{
	FILE *f = fopen(path, "r");
	char buf[65536];
	size_t n;
	bool big;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return IPX_EIO;
	}
	n = fread(buf, 1, sizeof(buf), f);
	big = n == sizeof(buf);
	if (ferror(f)) {
		snprintf(err, errlen, "%s: cannot read it", path);
		fclose(f);
		return IPX_EIO;
	}
	fclose(f);
	if (big) {
		snprintf(err, errlen, "%s: larger than 64 KB", path);
		return IPX_ECONFIG;
	}
	return ipx_profile_parse(buf, n, path, out, err, errlen);
}

int ipx_profile_resolve(const char *spec, struct ipx_profile *out, char *err,
			size_t errlen)
{
	if (ipx_profile_named(spec, out) == IPX_OK)
		return IPX_OK;
	if (!strchr(spec, '/') && !strchr(spec, '.')) {
		FILE *f = fopen(spec, "r");

		if (!f) {
			snprintf(err, errlen,
				 "no profile named '%s' (there are %s, or "
				 "give a profile file)",
				 spec, ipx_profile_names);
			return IPX_ENOTFOUND;
		}
		fclose(f);
	}
	return ipx_profile_load(spec, out, err, errlen);
}

/* ---- wire time ---- */

size_t ipx_profile_mtu(const struct ipx_profile *p)
{
	return p->max_frame - p->header;
}

uint64_t ipx_profile_wire_bytes(const struct ipx_profile *p, size_t len)
{
	uint64_t frame = (uint64_t)len + p->header;

	if (frame < p->min_frame)
		frame = p->min_frame;
	return frame + p->overhead;
}

uint64_t ipx_profile_wire_ns(const struct ipx_profile *p, size_t len)
{
	uint64_t bits = ipx_profile_wire_bytes(p, len) * 8;

	if (!p->rate)
		return 0;
	/* bits * 1e9 fits: frames are < 2^17 bytes, so < 2^20 bits. */
	return (bits * 1000000000ull + p->rate - 1) / p->rate;
}

/* A time in the largest unit that says it exactly. */
static const char *time_str(uint64_t ns, char *buf, size_t len)
{
	static const struct unit u[] = { { "s", 1e9 }, { "ms", 1e6 },
					 { "us", 1e3 }, { "ns", 1 } };

	for (int i = 0; i < 4; i++) {
		uint64_t m = (uint64_t)u[i].mult;

		if (ns % m == 0) {
			snprintf(buf, len, "%llu%s",
				 (unsigned long long)(ns / m), ns ? u[i].name : "");
			break;
		}
	}
	return buf;
}

void ipx_profile_print(const struct ipx_profile *p, FILE *out)
{
	char delay[32], hold[32], cost[32];

	fprintf(out,
		"name %s\nrate %llu\nheader %u\nmin-frame %u\noverhead %u\n"
		"max-frame %u\ndelay %s\nloss %uppm\naccess %s\n"
		"contention %u\ntoken %u\nqueue %u\nbridge-max %u\n"
		"rx-buffer %u\ntx-buffer %u\nrelease %u\nhold %s\n",
		p->name, (unsigned long long)p->rate, p->header, p->min_frame,
		p->overhead, p->max_frame,
		time_str(p->delay_ns, delay, sizeof(delay)), p->loss_ppm,
		access_names[p->access], p->contention_bits, p->token_bits,
		p->queue, p->bridge_max, p->rx_buffer, p->tx_buffer,
		p->release, time_str(p->hold_ns, hold, sizeof(hold)));
	if (p->release_at)	/* a profile without it prints as it did */
		fprintf(out, "release-at %u\n", p->release_at);
	fprintf(out,
		"adapter-memory %u\ntx-buffers %u\ntx-buffer-size %u\n"
		"rx-buffer-size %u\nadapter-copy %llu\nrx-buffer-cost %s\n",
		p->adapter.memory, p->adapter.tx_buffers, p->adapter.tx_size,
		p->adapter.rx_size, (unsigned long long)p->adapter.copy_rate,
		time_str(p->adapter.rx_cost_ns, cost, sizeof(cost)));
}
