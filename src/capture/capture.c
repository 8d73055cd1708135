/*
 * capture.c - a link's or hub's packets to a pcap file and/or one printed
 * line each (see capture.h). The summaries come from dissect.c.
 */
#include "ipxlab/capture.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/frame.h"
#include "ipxlab/priv/pcap.h"

struct ipx_capture {
	struct ipx_loop *loop;
	struct ipx_capture_options opts;
	struct ipx_pcap *pcap;
	ipx_time wall_offset;	/* wall-clock time minus the loop's time */
	struct ipx_hook hook;
	uint64_t packets, errors;
};

/* Is there room for one more packet (the limit)? Counts it if so. */
static bool take_one(struct ipx_capture *cap)
{
	if (cap->opts.limit && cap->packets >= cap->opts.limit)
		return false;
	cap->packets++;
	return true;
}

static void flush_hook(struct ipx_loop *loop, void *ctx)
{
	struct ipx_capture *cap = ctx;

	(void)loop;
	if (cap->pcap && ipx_pcap_flush(cap->pcap) != IPX_OK)
		cap->errors++;
	if (cap->opts.print)
		fflush(cap->opts.print);
}

int ipx_capture_open(struct ipx_loop *loop,
		     const struct ipx_capture_options *opts,
		     struct ipx_capture **out, char *err, size_t errlen)
{
	struct ipx_capture *cap = calloc(1, sizeof(*cap));
	int rc;

	if (!cap) {
		snprintf(err, errlen, "out of memory");
		return IPX_ENOMEM;
	}
	cap->loop = loop;
	cap->opts = *opts;
	if (opts->pcap_path) {
		rc = ipx_pcap_open_snap(opts->pcap_path, opts->snaplen,
					&cap->pcap, err, errlen);
		if (rc != IPX_OK) {
			free(cap);
			return rc;
		}
	}
	if (!ipx_loop_clock(loop)->simulated && !opts->loop_time) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		cap->wall_offset = (ipx_time)ts.tv_sec * IPX_SEC +
				   (ipx_time)ts.tv_nsec / 1000 -
				   ipx_loop_now(loop);
	}
	ipx_loop_add_hook(loop, &cap->hook, flush_hook, cap);
	*out = cap;
	return IPX_OK;
}

static void on_tap(struct ipx_link *link, const struct ipx_link_tap_pkt *p,
		   void *ctx)
{
	if (p->frame)
		ipx_capture_frame(ctx, link->kind, p->tx, p->data, p->len);
	else
		ipx_capture_ipx(ctx, link->kind, p->tx, p->data, p->len, p->dst,
				p->src);
}

void ipx_capture_attach(struct ipx_capture *cap, struct ipx_link *link)
{
	link->tap = on_tap;
	link->tap_ctx = cap;
}

static void print_line(struct ipx_capture *cap, ipx_time when,
		       const char *link, bool tx, const char *what)
{
	time_t secs = (time_t)(when / IPX_SEC);
	struct tm tm;
	char hms[16] = "?";

	if (localtime_r(&secs, &tm))
		strftime(hms, sizeof(hms), "%H:%M:%S", &tm);
	fprintf(cap->opts.print, "%s.%06u %s%s%s %s\n", hms,
		(unsigned)(when % IPX_SEC), cap->opts.show_link && link ? link : "",
		cap->opts.show_link && link ? " " : "", tx ? "out" : "in ",
		what);
}

void ipx_capture_ipx(struct ipx_capture *cap, const char *link, bool tx,
		     const uint8_t *pkt, size_t len, const uint8_t *dst,
		     const uint8_t *src)
{
	static const uint8_t zero[IPX_NODE_LEN];
	ipx_time when = ipx_loop_now(cap->loop) + cap->wall_offset;
	uint8_t mac_src[IPX_NODE_LEN];

	if (!take_one(cap))
		return;
	/* Without nodes, those of the IPX header (destination node at 10,
	 * source node at 22), or zeros for a packet too short to have them. */
	if (!dst)
		dst = len >= IPX_HDR_LEN ? pkt + 10 : zero;
	if (!src)
		src = len >= IPX_HDR_LEN ? pkt + 22 : zero;
	/* A tunnel node made of a 127.x or multicast IPv4 address has the
	 * group bit set, which no Ethernet source may have (Wireshark warns):
	 * the made-up MAC header clears it; the IPX header keeps the node. */
	memcpy(mac_src, src, IPX_NODE_LEN);
	mac_src[0] &= 0xFE;
	if (cap->pcap && ipx_pcap_is_cooked(cap->pcap)) {
		if (ipx_pcap_write_sll(cap->pcap, when, tx, mac_src, 0x8137, pkt,
				       len) != IPX_OK)
			cap->errors++;
	} else if (cap->pcap && ipx_pcap_write(cap->pcap, when, dst, mac_src,
					       pkt, len) != IPX_OK) {
		cap->errors++;
	}
	/* As the pcap has it: an Ethernet II header before the packet. */
	/* a cooked capture's outgoing copy is counted as it came in */
	if (cap->opts.analyze && !(tx && cap->pcap &&
				   ipx_pcap_is_cooked(cap->pcap)) &&
	    ipx_analyze_add_ipx(cap->opts.analyze, when, pkt, len,
				len + IPX_ETH_HDR_LEN) != IPX_OK)
		cap->errors++;
	if (cap->opts.print) {
		char line[512];

		ipx_capture_describe(pkt, len, line, sizeof(line));
		print_line(cap, when, link, tx, line);
	}
}

void ipx_capture_frame(struct ipx_capture *cap, const char *link, bool tx,
		       const uint8_t *frame, size_t len)
{
	ipx_time when = ipx_loop_now(cap->loop) + cap->wall_offset;

	if (!take_one(cap))
		return;
	if (cap->pcap && ipx_pcap_is_cooked(cap->pcap) && len >= 16) {
		uint16_t type = ipx_get16(frame + 12);
		uint16_t proto = type >= 0x600 ? type
				 : frame[14] == 0xFF && frame[15] == 0xFF
					 ? 0x0001
					 : 0x0004;

		if (ipx_pcap_write_sll(cap->pcap, when, tx, frame + 6, proto,
				       frame + 14, len - 14) != IPX_OK)
			cap->errors++;
	} else if (cap->pcap && ipx_pcap_write_frame(cap->pcap, when, frame,
						     len) != IPX_OK) {
		cap->errors++;
	}
	if (cap->opts.analyze &&
	    ipx_analyze_add(cap->opts.analyze, when, frame, len, len) != IPX_OK)
		cap->errors++;
	if (cap->opts.print) {
		char line[512];

		ipx_capture_describe_frame(frame, len, line, sizeof(line));
		print_line(cap, when, link, tx, line);
	}
}

int ipx_capture_mark_direction(struct ipx_capture *cap)
{
	return cap->pcap ? ipx_pcap_cooked(cap->pcap) : IPX_OK;
}

uint64_t ipx_capture_packets(const struct ipx_capture *cap)
{
	return cap->packets;
}

uint64_t ipx_capture_errors(const struct ipx_capture *cap)
{
	return cap->errors;
}

int ipx_capture_close(struct ipx_capture *cap)
{
	int rc = IPX_OK;

	if (!cap)
		return IPX_OK;
	ipx_loop_remove_hook(cap->loop, &cap->hook);
	if (cap->opts.print)
		fflush(cap->opts.print);
	if (cap->pcap && ipx_pcap_close(cap->pcap) != IPX_OK)
		rc = IPX_EIO;
	if (cap->errors)
		rc = IPX_EIO;
	free(cap);
	return rc;
}
