/*
 * analyze.h - what the Sniffer and LANalyzer told the 1990 authors, from a
 * pcap file ("ipxlab analyze"; docs/diag.md, "The analyzer").
 *
 * Per packet: its time and its bytes on the wire (the record's original
 * length: the Ethernet frame without its FCS). Reported: the rate in each
 * window of IPX_ANALYZE_WINDOW_US (1 s) from the first packet, the last
 * window over its part up to the last packet (a part shorter than
 * IPX_ANALYZE_FLOOR_US, 0.1 s, merged into the window before it), a
 * span shorter than the floor counted over the floor; the peak is the busiest window, the mean all the bytes
 * over the windows' seconds, so peak >= mean always (docs/benchmarks.md,
 * "The analyzer's peak and mean"); packets by protocol; and the distribution of the gaps
 * between one packet's arrival and the next, in the published buckets
 * 0-4, 5-9, 10-14, 15-19, 20-24, 25-29 and >= 30 ms (a gap of 4.9 ms is
 * in 0-4; a capture longer than a day puts the rest in its last second).
 * All traffic, or one conversation: the packets between two IPX
 * nodes, either way.
 *
 * Protocols, by the first rule that matches: SAP (either socket 0x452),
 * RIP (0x453), NetBIOS (0x455, or IPX type 20), NCP (either socket 0x451,
 * or IPX type 17 with an NCP request or reply type word: 0x1111, 0x2222,
 * 0x3333, 0x5555, 0x7777, 0x9999), SPX (IPX type 5), else IPX.
 *
 * The pcap reader is a parser of file data: classic pcap, either byte
 * order, microsecond or nanosecond timestamps, link type Ethernet (1) or
 * Linux cooked (113, tcpdump -i any);
 * records that are cut short, not IPX or bad IPX are counted, never
 * trusted; a record cut by the file's snap length (its length equal to
 * the snap length, less than the original) counts as the whole packet.
 * ipx_analyze_add takes frames one at a time, for live use.
 */
#ifndef IPXLAB_ANALYZE_H
#define IPXLAB_ANALYZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IPX_ANALYZE_PROTOS(X)                                            \
	X(IPX, "ipx") X(SPX, "spx") X(NCP, "ncp") X(NETBIOS, "netbios") \
	X(SAP, "sap") X(RIP, "rip")

#define IPX_ANALYZE_PROTO_ENUM_(id, name) IPX_ANALYZE_##id,
enum ipx_analyze_proto { IPX_ANALYZE_PROTOS(IPX_ANALYZE_PROTO_ENUM_)
			 IPX_ANALYZE_PROTO_COUNT };
#undef IPX_ANALYZE_PROTO_ENUM_

#define IPX_ANALYZE_GAPS 7	/* 0-4, 5-9, ..., 25-29, >= 30 ms */
#define IPX_ANALYZE_MAX_EXCLUDE 17	/* nodes a filter can leave out */

#define IPX_ANALYZE_DROPS(X)                                             \
	X(NOT_IPX, "not_ipx", "a frame that is not IPX")                 \
	X(BAD_IPX, "bad_ipx", "IPX with a bad header or length")         \
	X(CUT, "cut_short", "the record holds less than its IPX packet") \
	X(OTHER, "other_conversation", "not between the two nodes asked for") \
	X(OUTSIDE, "outside_window", "before or after the time window")   \
	X(EXCLUDED, "excluded_node", "to or from a node left out")       \
	X(OUTGOING, "outgoing_copy", "a cooked record the capturing node sent (a hub's forwarded copy)")

#define IPX_ANALYZE_DROP_ENUM_(id, name, desc) IPX_ANALYZE_DROP_##id,
enum ipx_analyze_drop { IPX_ANALYZE_DROPS(IPX_ANALYZE_DROP_ENUM_)
			IPX_ANALYZE_DROP_COUNT };
#undef IPX_ANALYZE_DROP_ENUM_

struct ipx_analyze_filter {
	bool conversation;		/* only between nodes a and b */
	bool one_way;			/* ... and only from a to b */
	/* count cooked records the capturing node sent too (by default
	 * left out: a hub's own --pcap has every packet in and out) */
	bool outgoing;
	uint8_t a[6], b[6];
	/* only packets from from_us on and before to_us (0: no end): one
	 * test's window of a longer capture */
	uint64_t from_us, to_us;
	/* none to or from these nodes, each from its time on (0: none at
	 * all): a benchmark's controller, a workstation once it reported */
	size_t nexclude;
	struct ipx_analyze_exclude {
		uint8_t node[6];
		uint64_t from_us;
	} exclude[IPX_ANALYZE_MAX_EXCLUDE];
};

struct ipx_analyze {
	struct ipx_analyze_filter filter;
	uint64_t frames;		/* records read */
	uint64_t packets, bytes;	/* counted (IPX, in the filter) */
	uint64_t first_us, last_us;	/* times of the first and last */
	uint64_t first_bytes;		/* the first packet's bytes */
	uint64_t proto[IPX_ANALYZE_PROTO_COUNT];
	uint64_t gaps[IPX_ANALYZE_GAPS];
	uint64_t drops[IPX_ANALYZE_DROP_COUNT];
	uint64_t *per_second;		/* bytes in second i from the first */
	size_t nseconds, capseconds;
};

void ipx_analyze_init(struct ipx_analyze *a,
		      const struct ipx_analyze_filter *filter);
void ipx_analyze_free(struct ipx_analyze *a);
/* One Ethernet frame: its time (us), the bytes captured and its length
 * on the wire. Returns IPX_OK, or IPX_ENOMEM (nothing counted). */
int ipx_analyze_add(struct ipx_analyze *a, uint64_t when_us,
		    const uint8_t *frame, size_t caplen, size_t wirelen);
/* One IPX packet without its frame (a tunnel's): 'wirelen' is the bytes
 * it is counted as (ipxlab's captures: len + 14, the Ethernet II header
 * they are written with). */
int ipx_analyze_add_ipx(struct ipx_analyze *a, uint64_t when_us,
			const uint8_t *ipx, size_t len, size_t wirelen);
/* A whole pcap file's bytes; err says what is wrong with a bad file
 * (IPX_EINVAL; a record cut off at the end is counted, not an error). */
int ipx_analyze_pcap(struct ipx_analyze *a, const uint8_t *data, size_t len,
		     char *err, size_t errlen);
/* Read and analyze a pcap file (IPX_EIO if it cannot be read). */
int ipx_analyze_file(struct ipx_analyze *a, const char *path, char *err,
		     size_t errlen);
/* The same, one pass over the file for n analyzers, each taking what its
 * filter takes (e.g. one per test window); the file is read as a stream,
 * never whole into memory. */
int ipx_analyze_file_each(struct ipx_analyze *const *a, size_t n,
			  const char *path, char *err, size_t errlen);
/* The same from an open stream (err without the file's name). */
int ipx_analyze_stream_each(struct ipx_analyze *const *a, size_t n, FILE *f,
			    char *err, size_t errlen);

/* The protocol of one IPX packet (header included, len checked). */
enum ipx_analyze_proto ipx_analyze_classify(const uint8_t *ipx, size_t len);
const char *ipx_analyze_proto_name(enum ipx_analyze_proto p);
/* "0-4", ..., ">=30". */
const char *ipx_analyze_gap_name(unsigned bucket);
const char *ipx_analyze_drop_name(enum ipx_analyze_drop d);
#define IPX_ANALYZE_WINDOW_US 1000000u	/* the peak's window, as 1990's */
#define IPX_ANALYZE_FLOOR_US 100000u	/* no rate over less time */

/* The windows (per_second's seconds, a last one under the floor merged
 * into the one before); bytes per second in window i (the last over its
 * part); the peak: the busiest window. */
size_t ipx_analyze_windows(const struct ipx_analyze *a);
double ipx_analyze_window_rate(const struct ipx_analyze *a, size_t i);
double ipx_analyze_peak_rate(const struct ipx_analyze *a);
/* The seconds the windows count over (the span, the last window's part
 * at least the floor), and every byte over them (0 with no packet). */
double ipx_analyze_rate_seconds(const struct ipx_analyze *a);
double ipx_analyze_mean_rate(const struct ipx_analyze *a);
/* Was the span shorter than one window (peak and mean then the same,
 * over the span or the floor)? */
bool ipx_analyze_short(const struct ipx_analyze *a);

void ipx_analyze_print(const struct ipx_analyze *a, FILE *out);
void ipx_analyze_print_json(const struct ipx_analyze *a, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
