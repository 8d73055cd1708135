/*
 * hub_capture.c - a hub's taps feeding a capture (see ipxlab/hub_capture.h):
 * used by "ipxlab hub --pcap" and the hub a benchmark starts.
 */
#include "ipxlab/hub_capture.h"

#include <string.h>

/* The client's node on its side of the hop: address, then port. */
static void node_of(const struct sockaddr_in *sa, uint8_t node[6])
{
	memcpy(node, &sa->sin_addr.s_addr, 4);
	memcpy(node + 4, &sa->sin_port, 2);
}

static void tap_tx(const struct sockaddr_in *to, const uint8_t *pkt,
		   size_t len, void *ctx)
{
	uint8_t node[6];

	node_of(to, node);
	ipx_capture_ipx(ctx, "hub", true, pkt, len, node, NULL);
}

static void tap_rx(const struct sockaddr_in *from, const uint8_t *pkt,
		   size_t len, void *ctx)
{
	uint8_t node[6];

	node_of(from, node);
	ipx_capture_ipx(ctx, "hub", false, pkt, len, NULL, node);
}

void ipx_hub_capture(struct ipx_hub_options *opts, struct ipx_capture *cap)
{
	opts->tap = tap_tx;
	opts->tap_ctx = cap;
	ipx_capture_mark_direction(cap);	/* each packet in and out */
	ipx_hub_capture_received(opts, cap);
}

void ipx_hub_capture_received(struct ipx_hub_options *opts,
			      struct ipx_capture *cap)
{
	opts->rx_tap = tap_rx;
	opts->rx_tap_ctx = cap;
}
