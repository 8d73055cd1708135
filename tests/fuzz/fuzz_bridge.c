/*
 * fuzz_bridge.c - libFuzzer harness for the bridging hub (src/hub/bridge.c
 * and the uplink paths of src/hub/hub.c).
 *
 * A detached hub (no socket) on a fake-clock loop, bridged to an in-memory
 * segment through a promiscuous port, with a LAN station on the segment.
 * Four tunnel clients, 127.0.0.1:10000 to :10003, register first. The input
 * is a list of records
 *
 *   [1 byte: bit 7 set = from the LAN station, else from client (bits 0-1);
 *            bit 6 set = the LAN station sends to broadcast, else to the
 *            node in the packet's destination field]
 *   [2 bytes: length, big-endian]
 *   [that many bytes; fewer if the input ends first]
 *
 * Invariants: every packet the bridge's port receives from the LAN is
 * counted once, as relayed or as one drop; what the hub sends a client is
 * one whole IPX packet of at most 1424 bytes whose source node is never a
 * client's when it came from the LAN; every packet the LAN station receives
 * is whole IPX.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bridge.h"
#include "ipxlab/bytes.h"
#include "ipxlab/clock.h"
#include "ipxlab/err.h"
#include "ipxlab/ipx.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/log.h"

#include "fuzz_common.h"

#define NCLIENTS 4
#define BASE_PORT 10000

static const uint8_t station_node[6] = { 0x00, 0x1B, 0x21, 0x0A, 0x0B, 0x0C };
static const uint8_t port_node[6] = { 0x00, 0x1B, 0x21, 0x99, 0x99, 0x99 };

static struct sockaddr_in client(unsigned i)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };

	sa.sin_addr.s_addr = htonl(0x7F000001);
	sa.sin_port = htons((uint16_t)(BASE_PORT + i));
	return sa;
}

static bool is_client_node(const uint8_t *node)
{
	for (unsigned i = 0; i < NCLIENTS; i++) {
		struct sockaddr_in sa = client(i);

		if (!memcmp(node, &sa.sin_addr.s_addr, 4) &&
		    !memcmp(node + 4, &sa.sin_port, 2))
			return true;
	}
	return false;
}

/* Whole IPX: a header whose length field is the size. */
static void check_whole(const uint8_t *pkt, size_t len)
{
	CHECK(len >= IPX_HDR_LEN && len <= 1424);
	CHECK(ipx_get16(pkt + 2) == len);
}

static bool from_lan_now;	/* the record being handled came from the LAN */

static void hub_tap(const struct sockaddr_in *to, const uint8_t *pkt,
		    size_t len, void *ctx)
{
	(void)ctx;
	CHECK(ntohs(to->sin_port) >= BASE_PORT &&
	      ntohs(to->sin_port) < BASE_PORT + NCLIENTS);
	if (len == IPX_HDR_LEN && ipx_get16(pkt + 16) == IPX_SOCK_ECHO)
		return;	/* registration answers, keepalives */
	check_whole(pkt, len);
	if (from_lan_now)
		CHECK(!is_client_node(pkt + 22));
}

static void station_rx(struct ipx_link *link, const uint8_t *pkt, size_t len,
		       void *ctx)
{
	(void)link;
	(void)ctx;
	check_whole(pkt, len);
}

static uint64_t lan_counted(const struct ipx_bridge_stats *s)
{
	uint64_t n = s->from_lan;

	for (int d = 0; d < IPX_BRIDGE_DROP_COUNT; d++)
		if (d != IPX_BRIDGE_DROP_LAN_TX)
			n += s->drops[d];
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ipx_hub_options o = { .detached = true, .tap = hub_tap };
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_hub *hub;
	struct ipx_mem_segment *seg;
	struct ipx_link *port, *station;
	struct ipx_bridge *bridge;
	char err[128];
	size_t off = 0;

	ipx_log_set_level(IPX_LOG_ERROR);
	o.bind.sin_family = AF_INET;
	o.bind.sin_port = htons(213);
	ipx_clock_fake_init(&clk, IPX_SEC);
	loop = ipx_loop_new(&clk);
	CHECK(loop && ipx_hub_open(loop, &o, &hub, err, sizeof(err)) == IPX_OK);
	seg = ipx_mem_segment_new(loop, 0, 1);
	port = ipx_mem_link_new(seg, port_node);
	station = ipx_mem_link_new(seg, station_node);
	CHECK(seg && port && station);
	ipx_mem_link_set_promiscuous(port, true);
	station->rx = station_rx;
	CHECK(ipx_bridge_new(hub, port, &bridge) == IPX_OK);
	for (unsigned i = 0; i < NCLIENTS; i++) {
		uint8_t reg[IPX_HDR_LEN] = { 0xFF, 0xFF, 0, IPX_HDR_LEN };
		struct sockaddr_in sa = client(i);

		ipx_put16(reg + 16, IPX_SOCK_ECHO);
		ipx_hub_input(hub, &sa, reg, sizeof(reg));
	}
	ipx_hub_flush(hub);

	while (off + 3 <= size) {
		uint8_t ctl = data[off];
		size_t len = ipx_get16(data + off + 1);
		uint8_t *pkt;

		off += 3;
		if (len > size - off)
			len = size - off;
		pkt = malloc(len ? len : 1);
		CHECK(pkt);
		if (len)
			memcpy(pkt, data + off, len);
		off += len;
		if (ctl & 0x80) {
			const struct ipx_bridge_stats *s = ipx_bridge_stats(bridge);
			uint64_t before = lan_counted(s);
			bool sent;
			const uint8_t *hop = (ctl & 0x40) || len < 16
						     ? ipx_node_broadcast
						     : pkt + 10;

			if (ipx_node_is_zero(hop) || !memcmp(hop, station_node, 6))
				hop = ipx_node_broadcast;
			sent = ipx_link_send(station, pkt, len, hop) == IPX_OK;
			from_lan_now = true;
			ipx_loop_run_for(loop, IPX_MSEC);
			from_lan_now = false;
			/* One packet on the LAN, one count (the port sees it
			 * once: it is promiscuous or the packet is for it). */
			if (sent)
				CHECK(lan_counted(s) == before + 1);
		} else {
			struct sockaddr_in sa = client(ctl & 3);

			ipx_hub_input(hub, &sa, pkt, len);
			ipx_hub_flush(hub);
			ipx_loop_run_for(loop, IPX_MSEC);
		}
		free(pkt);
	}

	ipx_bridge_free(bridge);
	ipx_link_close(port);
	ipx_link_close(station);
	ipx_mem_segment_free(seg);
	ipx_hub_close(hub);
	ipx_loop_free(loop);
	return 0;
}
