/*
 * analyze.c - the analyzer: a pcap reader and the 1990 analyzer's figures
 * (see analyze.h).
 */
#include "ipxlab/analyze.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/frame.h"
#include "ipxlab/ipx.h"
#include "ipxlab/priv/drops.h"

#define MAX_SECONDS (24u * 3600)	/* a day of per-second figures */

#define PROTO_NAME_(id, name) name,
static const char *const proto_names[] = { IPX_ANALYZE_PROTOS(PROTO_NAME_) };
#undef PROTO_NAME_
IPX_DROP_NAMES(IPX_ANALYZE_DROPS, enum ipx_analyze_drop, IPX_ANALYZE_DROP_COUNT,
	       ipx_analyze_drop_name)

static const char *const gap_names[IPX_ANALYZE_GAPS] = {
	"0-4", "5-9", "10-14", "15-19", "20-24", "25-29", ">=30"
};

const char *ipx_analyze_proto_name(enum ipx_analyze_proto p)
{
	return p < IPX_ANALYZE_PROTO_COUNT ? proto_names[p] : "?";
}

const char *ipx_analyze_gap_name(unsigned bucket)
{
	return bucket < IPX_ANALYZE_GAPS ? gap_names[bucket] : "?";
}

void ipx_analyze_init(struct ipx_analyze *a,
		      const struct ipx_analyze_filter *filter)
{
	memset(a, 0, sizeof(*a));
	if (filter)
		a->filter = *filter;
}

void ipx_analyze_free(struct ipx_analyze *a)
{
	free(a->per_second);
	a->per_second = NULL;
	a->nseconds = a->capseconds = 0;
}

enum ipx_analyze_proto ipx_analyze_classify(const uint8_t *ipx, size_t len)
{
	uint8_t type = ipx[5];
	uint16_t dsock = ipx_get16(ipx + 16), ssock = ipx_get16(ipx + 28);

	if (dsock == IPX_SOCK_SAP || ssock == IPX_SOCK_SAP)
		return IPX_ANALYZE_SAP;
	if (dsock == IPX_SOCK_RIP || ssock == IPX_SOCK_RIP)
		return IPX_ANALYZE_RIP;
	if (dsock == IPX_SOCK_NETBIOS || ssock == IPX_SOCK_NETBIOS ||
	    type == 20)
		return IPX_ANALYZE_NETBIOS;
	if (dsock == IPX_SOCK_NCP || ssock == IPX_SOCK_NCP)
		return IPX_ANALYZE_NCP;
	if (type == 17 && len >= IPX_HDR_LEN + 2) {
		switch (ipx_get16(ipx + IPX_HDR_LEN)) {
		case 0x1111: case 0x2222: case 0x3333:
		case 0x5555: case 0x7777: case 0x9999:
			return IPX_ANALYZE_NCP;
		}
	}
	if (type == 5)
		return IPX_ANALYZE_SPX;
	return IPX_ANALYZE_IPX;
}

/* Outside the filter's time window? Then counted as such. */
static bool outside(struct ipx_analyze *a, uint64_t when)
{
	const struct ipx_analyze_filter *f = &a->filter;

	if (when >= f->from_us && (!f->to_us || when < f->to_us))
		return false;
	a->frames++;
	a->drops[IPX_ANALYZE_DROP_OUTSIDE]++;
	return true;
}

static bool in_filter(const struct ipx_analyze_filter *f, const uint8_t *ipx)
{
	const uint8_t *dst = ipx + 10, *src = ipx + 22;

	if (!f->conversation)
		return true;
	return (ipx_node_eq(src, f->a) && ipx_node_eq(dst, f->b)) ||
	       (!f->one_way && ipx_node_eq(src, f->b) &&
		ipx_node_eq(dst, f->a));
}

static bool excluded(const struct ipx_analyze_filter *f, const uint8_t *ipx,
		     uint64_t when)
{
	size_t n = f->nexclude < IPX_ANALYZE_MAX_EXCLUDE
			   ? f->nexclude
			   : IPX_ANALYZE_MAX_EXCLUDE;

	for (size_t i = 0; i < n; i++) {
		const struct ipx_analyze_exclude *x = &f->exclude[i];

		if (when >= x->from_us && (ipx_node_eq(ipx + 10, x->node) ||
					   ipx_node_eq(ipx + 22, x->node)))
			return true;
	}
	return false;
}

static int count_second(struct ipx_analyze *a, size_t sec, size_t bytes)
{
	if (sec >= MAX_SECONDS)
		sec = MAX_SECONDS - 1;	/* the rest piles into the last */
	if (sec >= a->capseconds) {
		size_t cap = a->capseconds ? a->capseconds : 64;
		uint64_t *p;

		while (cap <= sec)
			cap *= 2;
		p = realloc(a->per_second, cap * sizeof(*p));
		if (!p)
			return IPX_ENOMEM;
		memset(p + a->capseconds, 0,
		       (cap - a->capseconds) * sizeof(*p));
		a->per_second = p;
		a->capseconds = cap;
	}
	if (sec >= a->nseconds)
		a->nseconds = sec + 1;
	a->per_second[sec] += bytes;
	return IPX_OK;
}

int ipx_analyze_add(struct ipx_analyze *a, uint64_t when_us,
		    const uint8_t *frame, size_t caplen, size_t wirelen)
{
	struct ipx_frame_info fi;
	enum ipx_frame_drop why;

	if (ipx_frame_decode(frame, caplen, &fi, &why) != 0) {
		a->frames++;
		if (why == IPX_FRAME_DROP_BAD_LENGTH && caplen < wirelen)
			a->drops[IPX_ANALYZE_DROP_CUT]++;
		else if (why == IPX_FRAME_DROP_BAD_LENGTH)
			a->drops[IPX_ANALYZE_DROP_BAD_IPX]++;
		else
			a->drops[IPX_ANALYZE_DROP_NOT_IPX]++;
		return IPX_OK;
	}
	return ipx_analyze_add_ipx(a, when_us, fi.ipx, fi.ipx_len,
				   wirelen < caplen ? caplen : wirelen);
}

int ipx_analyze_add_ipx(struct ipx_analyze *a, uint64_t when_us,
			const uint8_t *ipx, size_t len, size_t wirelen)
{
	struct ipx_header h;
	uint64_t sec;

	if (outside(a, when_us))
		return IPX_OK;
	a->frames++;
	if (ipx_header_decode(ipx, len, &h) != IPX_OK) {
		a->drops[IPX_ANALYZE_DROP_BAD_IPX]++;
		return IPX_OK;
	}
	if (!in_filter(&a->filter, ipx)) {
		a->drops[IPX_ANALYZE_DROP_OTHER]++;
		return IPX_OK;
	}
	if (excluded(&a->filter, ipx, when_us)) {
		a->drops[IPX_ANALYZE_DROP_EXCLUDED]++;
		return IPX_OK;
	}
	if (!a->packets) {
		a->first_us = a->last_us = when_us;
		a->first_bytes = wirelen;
	}
	/* Out-of-order times count in the first second, with a gap of 0. */
	sec = when_us > a->first_us ? (when_us - a->first_us) / 1000000 : 0;
	if (count_second(a, (size_t)sec, wirelen) != IPX_OK)
		return IPX_ENOMEM;
	if (a->packets) {
		uint64_t gap = when_us > a->last_us ? when_us - a->last_us : 0;
		uint64_t b = gap / 5000;

		a->gaps[b < IPX_ANALYZE_GAPS ? b : IPX_ANALYZE_GAPS - 1]++;
	}
	if (when_us > a->last_us)
		a->last_us = when_us;
	a->packets++;
	a->bytes += wirelen;
	a->proto[ipx_analyze_classify(ipx, len)]++;
	return IPX_OK;
}

/* ---- pcap ---- */

#define LINKTYPE_ETHERNET 1
#define LINKTYPE_LINUX_SLL 113	/* tcpdump -i any */
#define SLL_HDR_LEN 16

/*
 * A Linux "cooked" record (16-byte header: packet type, address type and
 * length, 8 address bytes, protocol) as the Ethernet frame it was: the
 * protocol is the EtherType for Ethernet II, 0x0001 for raw 802.3 and
 * 0x0004 for 802.2 (SNAP included), whose frames get a length field.
 */
static int add_sll(struct ipx_analyze *a, uint64_t when, const uint8_t *rec,
		   size_t caplen, size_t wirelen)
{
	uint8_t frame[IPX_ETH_HDR_LEN + 2048];
	uint16_t proto;
	size_t n;

	if (caplen < SLL_HDR_LEN || caplen - SLL_HDR_LEN > 2048) {
		/* No room for a header, or larger than any Ethernet frame. */
		a->frames++;
		a->drops[caplen < SLL_HDR_LEN ? IPX_ANALYZE_DROP_NOT_IPX
					      : IPX_ANALYZE_DROP_BAD_IPX]++;
		return IPX_OK;
	}
	if (ipx_get16(rec) == 4 && !a->filter.outgoing) {
		/* sent by the capturing node: a hub's copy of what it
		 * received, counted once already as it came in */
		a->frames++;
		a->drops[IPX_ANALYZE_DROP_OUTGOING]++;
		return IPX_OK;
	}
	proto = ipx_get16(rec + 14);
	n = caplen - SLL_HDR_LEN;
	memset(frame, 0, 12);
	memcpy(frame + 6, rec + 6, 6);	/* the source address, if any */
	if (proto == 0x0001 || proto == 0x0004)
		ipx_put16(frame + 12, (uint16_t)(n > 1500 ? 1500 : n));
	else
		ipx_put16(frame + 12, proto);
	memcpy(frame + IPX_ETH_HDR_LEN, rec + SLL_HDR_LEN, n);
	wirelen = wirelen >= SLL_HDR_LEN ? wirelen - SLL_HDR_LEN : 0;
	return ipx_analyze_add(a, when, frame, n + IPX_ETH_HDR_LEN,
			       wirelen + IPX_ETH_HDR_LEN);
}

static uint32_t rd32(const uint8_t *p, bool swap)
{
	return swap ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
			      (uint32_t)p[2] << 8 | p[3]
		    : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
			      (uint32_t)p[1] << 8 | p[0];
}

#define PCAP_HDR_LEN 24
#define REC_HDR_LEN 16
#define PAD_MAX 2048	/* a snapped record is padded up to this */
#define REC_MAX (16u << 20)	/* a longer record ends a stream as cut */

struct pcap_hdr {
	bool swap, nano;
	uint32_t linktype, snaplen;
};

/* The file's 24-byte header (len: the bytes there are). */
static int parse_hdr(const uint8_t *data, size_t len, struct pcap_hdr *h,
		     char *err, size_t errlen)
{
	uint32_t magic;

	if (len < PCAP_HDR_LEN) {
		snprintf(err, errlen, "not a pcap file (shorter than its "
				      "24-byte header)");
		return IPX_EINVAL;
	}
	magic = rd32(data, false);
	if (magic == 0xA1B2C3D4 || magic == 0xA1B23C4D) {
		h->swap = false;
	} else if (magic == 0xD4C3B2A1 || magic == 0x4D3CB2A1) {
		h->swap = true;
	} else {
		snprintf(err, errlen, "not a classic pcap file (magic %08X; "
				      "pcapng is not read: convert it with "
				      "editcap -F pcap)",
			 (unsigned)magic);
		return IPX_EINVAL;
	}
	h->nano = rd32(data, h->swap) == 0xA1B23C4D;
	h->snaplen = rd32(data + 16, h->swap);
	h->linktype = rd32(data + 20, h->swap) & 0x0FFFFFFF;
	if (h->linktype != LINKTYPE_ETHERNET &&
	    h->linktype != LINKTYPE_LINUX_SLL) {
		snprintf(err, errlen, "link type %u: only Ethernet (1) and "
				      "Linux cooked (113) are read",
			 (unsigned)h->linktype);
		return IPX_EINVAL;
	}
	return IPX_OK;
}

/*
 * One record (its 16-byte header, then 'incl' bytes). A record the snap
 * length cut (incl equal to the file's snap length, less than the
 * original) is a whole packet whose tail was not kept on purpose: it is
 * counted with its original length, the missing bytes read as zeros.
 */
static int add_record(struct ipx_analyze *a, const struct pcap_hdr *h,
		      const uint8_t *rh, const uint8_t *data, size_t incl)
{
	static uint8_t pad[PAD_MAX];
	uint64_t sec = rd32(rh, h->swap), frac = rd32(rh + 4, h->swap);
	size_t orig = rd32(rh + 12, h->swap);
	uint64_t when = sec * 1000000 + (h->nano ? frac / 1000 : frac);

	if (outside(a, when))	/* before decoding: many windows, one file */
		return IPX_OK;
	if (incl < orig && incl == h->snaplen && orig <= PAD_MAX) {
		memcpy(pad, data, incl);
		memset(pad + incl, 0, orig - incl);
		data = pad;
		incl = orig;
	}
	return h->linktype == LINKTYPE_ETHERNET
		       ? ipx_analyze_add(a, when, data, incl, orig)
		       : add_sll(a, when, data, incl, orig);
}

int ipx_analyze_pcap(struct ipx_analyze *a, const uint8_t *data, size_t len,
		     char *err, size_t errlen)
{
	struct pcap_hdr h;
	size_t pos = PCAP_HDR_LEN;

	if (parse_hdr(data, len, &h, err, errlen) != IPX_OK)
		return IPX_EINVAL;
	while (len - pos >= REC_HDR_LEN) {
		const uint8_t *rh = data + pos;
		size_t incl = rd32(rh + 8, h.swap);

		pos += REC_HDR_LEN;
		if (incl > len - pos) {
			a->frames++;
			a->drops[IPX_ANALYZE_DROP_CUT]++;
			return IPX_OK;	/* a file still being written */
		}
		if (add_record(a, &h, rh, data + pos, incl) != IPX_OK) {
			snprintf(err, errlen, "out of memory");
			return IPX_ENOMEM;
		}
		pos += incl;
	}
	if (pos != len) {
		a->frames++;
		a->drops[IPX_ANALYZE_DROP_CUT]++;
	}
	return IPX_OK;
}

/* Every analyzer counts a record cut off at the end of the file. */
static void cut_all(struct ipx_analyze *const *a, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		a[i]->frames++;
		a[i]->drops[IPX_ANALYZE_DROP_CUT]++;
	}
}

int ipx_analyze_stream_each(struct ipx_analyze *const *a, size_t n, FILE *f,
			    char *err, size_t errlen)
{
	uint8_t gh[PCAP_HDR_LEN], rh[REC_HDR_LEN];
	size_t cap = 65536;
	uint8_t *buf = malloc(cap);
	struct pcap_hdr h;
	size_t got = fread(gh, 1, sizeof(gh), f);
	int rc = IPX_OK;

	if (!buf) {
		snprintf(err, errlen, "out of memory");
		return IPX_ENOMEM;
	}
	if (parse_hdr(gh, got, &h, err, errlen) != IPX_OK) {
		free(buf);
		return IPX_EINVAL;
	}
	while (rc == IPX_OK && (got = fread(rh, 1, sizeof(rh), f)) > 0) {
		size_t incl = rd32(rh + 8, h.swap);

		if (got == sizeof(rh) && incl > cap && incl <= REC_MAX) {
			uint8_t *p = realloc(buf, incl);

			if (!p) {
				rc = IPX_ENOMEM;
				snprintf(err, errlen, "out of memory");
				break;
			}
			buf = p;
			cap = incl;
		}
		if (got < sizeof(rh) || incl > cap ||
		    fread(buf, 1, incl, f) != incl) {
			cut_all(a, n);	/* a file still being written */
			break;
		}
		for (size_t i = 0; rc == IPX_OK && i < n; i++)
			rc = add_record(a[i], &h, rh, buf, incl);
		if (rc != IPX_OK)
			snprintf(err, errlen, "out of memory");
	}
	free(buf);
	if (rc == IPX_OK && ferror(f)) {
		snprintf(err, errlen, "cannot read it");
		rc = IPX_EIO;
	}
	return rc;
}

int ipx_analyze_file_each(struct ipx_analyze *const *a, size_t n,
			  const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char msg[300];
	int rc;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return IPX_EIO;
	}
	rc = ipx_analyze_stream_each(a, n, f, msg, sizeof(msg));
	fclose(f);
	if (rc != IPX_OK)
		snprintf(err, errlen, "%s: %s", path, msg);
	return rc;
}

int ipx_analyze_file(struct ipx_analyze *a, const char *path, char *err,
		     size_t errlen)
{
	return ipx_analyze_file_each(&a, 1, path, err, errlen);
}

/* ---- figures ---- */

/* The part of the last whole-second window up to the last packet. */
static uint64_t last_part(const struct ipx_analyze *a)
{
	uint64_t start = (uint64_t)(a->nseconds - 1) * IPX_ANALYZE_WINDOW_US;
	uint64_t span = a->last_us - a->first_us;

	return span > start ? span - start : 0;
}

/* A last window shorter than the floor is part of the one before. */
static bool merged(const struct ipx_analyze *a)
{
	return a->nseconds >= 2 && last_part(a) < IPX_ANALYZE_FLOOR_US;
}

size_t ipx_analyze_windows(const struct ipx_analyze *a)
{
	return a->nseconds - (merged(a) ? 1 : 0);
}

/* Window i's bytes and the seconds it counts over: W, the last one only
 * its part up to the last packet (a part under the floor merged into the
 * one before), a single window at least the floor. */
static double window(const struct ipx_analyze *a, size_t i, double *secs)
{
	size_t n = ipx_analyze_windows(a);
	uint64_t part;

	if (i + 1 < n) {
		*secs = IPX_ANALYZE_WINDOW_US / 1e6;
		return (double)a->per_second[i];
	}
	part = last_part(a);
	if (merged(a)) {
		*secs = (IPX_ANALYZE_WINDOW_US + part) / 1e6;
		return (double)(a->per_second[i] + a->per_second[i + 1]);
	}
	*secs = (part < IPX_ANALYZE_FLOOR_US ? IPX_ANALYZE_FLOOR_US : part) /
		1e6;
	return (double)a->per_second[i];
}

double ipx_analyze_window_rate(const struct ipx_analyze *a, size_t i)
{
	double secs, bytes;

	if (i >= ipx_analyze_windows(a))
		return 0.0;
	bytes = window(a, i, &secs);
	return bytes / secs;
}

double ipx_analyze_peak_rate(const struct ipx_analyze *a)
{
	double peak = 0;

	for (size_t i = 0; i < ipx_analyze_windows(a); i++)
		if (ipx_analyze_window_rate(a, i) > peak)
			peak = ipx_analyze_window_rate(a, i);
	return peak;
}

double ipx_analyze_rate_seconds(const struct ipx_analyze *a)
{
	double s = 0, secs;

	for (size_t i = 0; i < ipx_analyze_windows(a); i++) {
		window(a, i, &secs);
		s += secs;
	}
	return s;
}

double ipx_analyze_mean_rate(const struct ipx_analyze *a)
{
	double s = ipx_analyze_rate_seconds(a);

	return a->packets && s > 0 ? (double)a->bytes / s : 0.0;
}

bool ipx_analyze_short(const struct ipx_analyze *a)
{
	return a->packets && a->nseconds == 1 &&
	       a->last_us - a->first_us < IPX_ANALYZE_WINDOW_US;
}

static double share(uint64_t n, uint64_t of)
{
	return of ? 100.0 * (double)n / (double)of : 0.0;
}

void ipx_analyze_print(const struct ipx_analyze *a, FILE *out)
{
	uint64_t ngaps = a->packets ? a->packets - 1 : 0;

	fprintf(out, "packets %llu bytes %llu over %.3f s (%llu frames read)\n",
		(unsigned long long)a->packets, (unsigned long long)a->bytes,
		(double)(a->last_us - a->first_us) / 1e6,
		(unsigned long long)a->frames);
	fprintf(out, "kB/s per 1 s window (kB = 1000 bytes):");
	for (size_t i = 0; i < ipx_analyze_windows(a); i++)
		fprintf(out, " %.1f", ipx_analyze_window_rate(a, i) / 1000);
	fprintf(out, "\npeak %.1f kB/s, mean %.1f kB/s",
		ipx_analyze_peak_rate(a) / 1000,
		ipx_analyze_mean_rate(a) / 1000);
	if (ipx_analyze_short(a) &&
	    a->last_us - a->first_us < IPX_ANALYZE_FLOOR_US)
		fprintf(out, " (both over the 0.1 s floor: the span, %.6f s, "
			     "is shorter)",
			(double)(a->last_us - a->first_us) / 1e6);
	else if (ipx_analyze_short(a))
		fprintf(out, " (both over the span, %.3f s: shorter than the "
			     "1 s window)",
			(double)(a->last_us - a->first_us) / 1e6);
	fprintf(out, "\n");
	fprintf(out, "by protocol:");
	for (int p = 0; p < IPX_ANALYZE_PROTO_COUNT; p++)
		fprintf(out, " %s %llu", proto_names[p],
			(unsigned long long)a->proto[p]);
	fprintf(out, "\narrival gaps (ms), %llu gap%s:\n",
		(unsigned long long)ngaps, ngaps == 1 ? "" : "s");
	for (unsigned g = 0; g < IPX_ANALYZE_GAPS; g++)
		fprintf(out, "  %-6s %8llu  %5.1f%%\n", gap_names[g],
			(unsigned long long)a->gaps[g],
			share(a->gaps[g], ngaps));
	for (int d = 0; d < IPX_ANALYZE_DROP_COUNT; d++)
		if (a->drops[d])
			fprintf(out, "skipped %s %llu\n", drop_names[d],
				(unsigned long long)a->drops[d]);
}

void ipx_analyze_print_json(const struct ipx_analyze *a, FILE *out)
{
	uint64_t ngaps = a->packets ? a->packets - 1 : 0;

	fprintf(out,
		"{\"frames\":%llu,\"packets\":%llu,\"bytes\":%llu,"
		"\"first_us\":%llu,\"last_us\":%llu,\"rate_seconds\":%.6f,"
		"\"short_span\":%s,\"mean_kB_per_s\":%.3f,"
		"\"peak_kB_per_s\":%.3f,\"kB_per_s\":[",
		(unsigned long long)a->frames, (unsigned long long)a->packets,
		(unsigned long long)a->bytes, (unsigned long long)a->first_us,
		(unsigned long long)a->last_us, ipx_analyze_rate_seconds(a),
		ipx_analyze_short(a) ? "true" : "false",
		ipx_analyze_mean_rate(a) / 1000,
		ipx_analyze_peak_rate(a) / 1000);
	for (size_t i = 0; i < ipx_analyze_windows(a); i++)
		fprintf(out, "%s%.3f", i ? "," : "",
			ipx_analyze_window_rate(a, i) / 1000);
	fprintf(out, "],\"protocols\":{");
	for (int p = 0; p < IPX_ANALYZE_PROTO_COUNT; p++)
		fprintf(out, "%s\"%s\":%llu", p ? "," : "", proto_names[p],
			(unsigned long long)a->proto[p]);
	fprintf(out, "},\"gaps_ms\":{");
	for (unsigned g = 0; g < IPX_ANALYZE_GAPS; g++)
		fprintf(out, "%s\"%s\":%llu", g ? "," : "", gap_names[g],
			(unsigned long long)a->gaps[g]);
	fprintf(out, "},\"gap_share_percent\":{");
	for (unsigned g = 0; g < IPX_ANALYZE_GAPS; g++)
		fprintf(out, "%s\"%s\":%.2f", g ? "," : "", gap_names[g],
			share(a->gaps[g], ngaps));
	fprintf(out, "},\"skipped\":{");
	for (int d = 0; d < IPX_ANALYZE_DROP_COUNT; d++)
		fprintf(out, "%s\"%s\":%llu", d ? "," : "", drop_names[d],
			(unsigned long long)a->drops[d]);
	fprintf(out, "}}\n");
}
