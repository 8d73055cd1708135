/*
 * capture.h - what a link or hub sends and receives, written to a pcap
 * file (--pcap) and/or printed live one line a packet ("ipxlab capture").
 *
 * A capture is attached to a link's tap (link.h) or fed by hand (the hub's
 * taps, cmd_hub.c). IPX packets from the tunnel and the in-memory link get
 * an Ethernet II header built from the nodes they travel between (the
 * source's group bit cleared: a tunnel node from 127.0.0.1 starts 7F, which
 * no Ethernet source may); whole
 * Ethernet frames go to the file as they were on the wire. Timestamps are
 * wall-clock time (what Wireshark shows), taken from the loop's clock: a
 * simulated clock gives its own time, so tests get the same bytes each run.
 * The file is flushed before the loop sleeps and on close, so a command
 * stopped by SIGINT or SIGTERM loses nothing.
 *
 * The one-line summary (ipx_capture_describe) is a parser of wire data: it
 * never reads past 'len', and says what is wrong with a bad packet.
 */
#ifndef IPXLAB_CAPTURE_H
#define IPXLAB_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ipxlab/analyze.h"
#include "ipxlab/link.h"
#include "ipxlab/loop.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ipx_capture;

struct ipx_capture_options {
	const char *pcap_path;	/* write a pcap file here; NULL: none */
	FILE *print;		/* print a line per packet here; NULL: none */
	/* Printed lines: with 'print', say the link kind ("udp", "eth") at
	 * the start of each line when several are captured at once. */
	bool show_link;
	/* Record (write, print, count) at most this many packets; later ones
	 * are left out, even in the same batch. 0: no limit. */
	uint64_t limit;
	/* Also feed every packet to this analyzer (analyze.h); NULL: none. */
	struct ipx_analyze *analyze;
	/* The pcap file keeps at most this many bytes of each frame (the
	 * original length recorded; analyze.h counts such records whole);
	 * 0: whole frames. */
	size_t snaplen;
	/* Stamp packets with the loop's own clock (CLOCK_MONOTONIC, the same
	 * in every process of the machine) instead of the wall clock: for a
	 * file a program compares with times taken on its own loop. */
	bool loop_time;
};

/* Open (the pcap file is created or truncated); err gets a message. */
int ipx_capture_open(struct ipx_loop *loop,
		     const struct ipx_capture_options *opts,
		     struct ipx_capture **out, char *err, size_t errlen);
/* Make the capture the link's tap (one capture may serve several links). */
void ipx_capture_attach(struct ipx_capture *cap, struct ipx_link *link);
/* Record one IPX packet travelling from node 'src' to node 'dst' (either
 * may be NULL: the IPX header's nodes are used). 'link' names the link
 * in printed lines; it may be NULL. */
void ipx_capture_ipx(struct ipx_capture *cap, const char *link, bool tx,
		     const uint8_t *pkt, size_t len, const uint8_t *dst,
		     const uint8_t *src);
/* Record one whole Ethernet frame. */
void ipx_capture_frame(struct ipx_capture *cap, const char *link, bool tx,
		       const uint8_t *frame, size_t len);
/* Before the first packet: write the pcap file as Linux cooked records,
 * each marked received or sent (a hub that records both ways, so an
 * analyzer counts each packet once, as it came in). IPX_EINVAL after. */
int ipx_capture_mark_direction(struct ipx_capture *cap);
/* Packets recorded, and records the file refused (disk full...). */
uint64_t ipx_capture_packets(const struct ipx_capture *cap);
uint64_t ipx_capture_errors(const struct ipx_capture *cap);
/* Flush and close; returns IPX_EIO if any write failed. Links it is
 * attached to must be closed first (they show their last sends). */
int ipx_capture_close(struct ipx_capture *cap);

/*
 * One line (no newline) about an IPX packet: source and destination
 * addresses with sockets, IPX type, length, and what is cheap to say about
 * the protocol inside (SPX connection ids, sequence, ack and flags; RIP and
 * SAP operations; NetBIOS operation; diagnostics, ping, DOSBox tunnel
 * control). A packet too short or with a bad length field is described as
 * such. Returns the length of the line (truncated to outlen - 1).
 */
size_t ipx_capture_describe(const uint8_t *pkt, size_t len, char *out,
			    size_t outlen);
/* The same for a whole Ethernet frame: the frame type, then the IPX
 * packet, or why it is not IPX. */
size_t ipx_capture_describe_frame(const uint8_t *frame, size_t len,
				  char *out, size_t outlen);

#ifdef __cplusplus
}
#endif

#endif
