/*
 * test_bridge.c - the bridging hub's forwarding rules (bridge.h), without
 * root: a detached hub whose clients are simulated datagrams, bridged to an
 * in-memory segment that stands for the Ethernet LAN, on the fake clock.
 */
#include "cm.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bridge.h"
#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/ipx.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/log.h"

#include "hubrig.h"

struct rig {
	struct hub_rig *h;		/* the hub and what it sent clients */
	struct ipx_mem_segment *lan;
	struct ipx_link *uplink;	/* the bridge's port on the LAN */
	struct ipx_link *station;	/* a LAN station */
	struct ipx_bridge *bridge;
	int nlan;			/* what the station received */
	struct hub_sent lan_rx[64];
};

static const uint8_t station_node[6] = { 0x00, 0x1B, 0x21, 0x0A, 0x0B, 0x0C };
static const uint8_t uplink_node[6] = { 0x00, 0x1B, 0x21, 0x99, 0x99, 0x99 };

static void station_rx(struct ipx_link *link, const uint8_t *pkt, size_t len,
		       void *ctx)
{
	struct rig *r = ctx;

	(void)link;
	if (r->nlan >= 64)
		return;
	r->lan_rx[r->nlan].len = len;
	memcpy(r->lan_rx[r->nlan].pkt, pkt, len);
	r->nlan++;
}

static int setup(void **state)
{
	struct rig *r = calloc(1, sizeof(*r));

	ipx_log_set_level(IPX_LOG_ERROR);
	r->h = hubrig_new();
	r->lan = ipx_mem_segment_new(r->h->loop, 0, 1);
	r->uplink = ipx_mem_link_new(r->lan, uplink_node);
	r->station = ipx_mem_link_new(r->lan, station_node);
	assert_non_null(r->uplink);
	assert_non_null(r->station);
	ipx_mem_link_set_promiscuous(r->uplink, true);
	r->station->rx = station_rx;
	r->station->rx_ctx = r;
	assert_int_equal(ipx_bridge_new(r->h->hub, r->uplink, &r->bridge),
			 IPX_OK);
	*state = r;
	return 0;
}

static int teardown(void **state)
{
	struct rig *r = *state;

	ipx_bridge_free(r->bridge);
	ipx_link_close(r->uplink);
	ipx_link_close(r->station);
	ipx_mem_segment_free(r->lan);
	hubrig_free(r->h);
	free(r);
	return 0;
}

static size_t make(uint8_t *pkt, const uint8_t dst[6], const uint8_t src[6],
		   size_t payload)
{
	struct ipx_header h = { .checksum = IPX_NO_CHECKSUM,
				.length = (uint16_t)(IPX_HDR_LEN + payload),
				.type = 4 };

	memcpy(h.dst.node, dst, 6);
	h.dst.socket = 0x4545;
	memcpy(h.src.node, src, 6);
	h.src.socket = 0x4545;
	ipx_header_encode(&h, pkt);
	memset(pkt + IPX_HDR_LEN, 'x', payload);
	return IPX_HDR_LEN + payload;
}

/* A client registers (its answer is taken off the record). */
static void join(struct rig *r, uint16_t port)
{
	hubrig_register(r->h, port, 0);
	r->h->n = 0;
}

/* Clients on ports 1000 and 1001; 'a' gets the first one's node. */
static void two_clients(struct rig *r, uint8_t a[6])
{
	join(r, 1000);
	join(r, 1001);
	hubrig_node(1000, a);
}

static void from_client(struct rig *r, uint16_t port, const uint8_t *pkt,
			size_t len)
{
	hubrig_input(r->h, port, pkt, len);
	ipx_loop_run_for(r->h->loop, 10 * IPX_MSEC);	/* the LAN delivers */
}

static void from_station(struct rig *r, const uint8_t *pkt, size_t len,
			 const uint8_t *hop)
{
	assert_int_equal(ipx_link_send(r->station, pkt, len, hop), IPX_OK);
	ipx_loop_run_for(r->h->loop, 10 * IPX_MSEC);
}

static void client_broadcast_reaches_lan_and_clients(void **state)
{
	struct rig *r = *state;
	uint8_t a[6], pkt[100];
	size_t len;

	two_clients(r, a);
	len = make(pkt, ipx_node_broadcast, a, 10);
	from_client(r, 1000, pkt, len);
	assert_int_equal(r->h->n, 1);	/* the other client */
	assert_int_equal(ntohs(r->h->out[0].to.sin_port), 1001);
	assert_int_equal(r->nlan, 1);
	assert_int_equal(r->lan_rx[0].len, len);
	assert_memory_equal(r->lan_rx[0].pkt, pkt, len);
	assert_int_equal(ipx_bridge_stats(r->bridge)->to_lan_broadcasts, 1);
}

static void client_unicast_for_lan_node(void **state)
{
	struct rig *r = *state;
	uint8_t a[6], b[6], pkt[100];
	size_t len;

	two_clients(r, a);
	hubrig_node(1001, b);
	len = make(pkt, station_node, a, 5);
	from_client(r, 1000, pkt, len);
	assert_int_equal(r->h->n, 0);
	assert_int_equal(r->nlan, 1);
	assert_memory_equal(r->lan_rx[0].pkt, pkt, len);
	/* A unicast between clients stays in the tunnel. */
	len = make(pkt, b, a, 5);
	from_client(r, 1000, pkt, len);
	assert_int_equal(r->h->n, 1);
	assert_int_equal(r->nlan, 1);
	assert_int_equal(ipx_hub_stats(r->h->hub)->drops[IPX_HUB_DROP_UNKNOWN_DEST],
			 0);
}

static void station_unicast_and_broadcast_reach_clients(void **state)
{
	struct rig *r = *state;
	uint8_t a[6], pkt[100];
	size_t len;

	two_clients(r, a);
	len = make(pkt, a, station_node, 7);
	from_station(r, pkt, len, a);
	assert_int_equal(r->h->n, 1);
	assert_int_equal(ntohs(r->h->out[0].to.sin_port), 1000);
	assert_int_equal(r->h->out[0].len, len);
	assert_memory_equal(r->h->out[0].pkt, pkt, len);
	r->h->n = 0;
	len = make(pkt, ipx_node_broadcast, station_node, 7);
	from_station(r, pkt, len, ipx_node_broadcast);
	assert_int_equal(r->h->n, 2);
	assert_int_equal(ipx_bridge_stats(r->bridge)->from_lan, 2);
	assert_int_equal(ipx_bridge_stats(r->bridge)->from_lan_broadcasts, 1);
}

static void lan_drops_are_counted(void **state)
{
	struct rig *r = *state;
	const struct ipx_bridge_stats *s = ipx_bridge_stats(r->bridge);
	uint8_t a[6], other[6] = { 0x00, 0x1B, 0x21, 1, 2, 3 }, pkt[1600];
	size_t len;

	/* A broadcast with nobody in the tunnel. */
	len = make(pkt, ipx_node_broadcast, station_node, 1);
	from_station(r, pkt, len, ipx_node_broadcast);
	assert_int_equal(s->drops[IPX_BRIDGE_DROP_NO_CLIENTS], 1);
	join(r, 1000);
	hubrig_node(1000, a);
	/* LAN traffic between LAN stations (seen in promiscuous mode). */
	len = make(pkt, other, station_node, 1);
	from_station(r, pkt, len, other);
	assert_int_equal(s->drops[IPX_BRIDGE_DROP_NOT_FOR_TUNNEL], 1);
	/* A frame with a client's source: ours looped back, or forged. */
	len = make(pkt, ipx_node_broadcast, a, 1);
	from_station(r, pkt, len, ipx_node_broadcast);
	assert_int_equal(s->drops[IPX_BRIDGE_DROP_CLIENT_SOURCE], 1);
	/* Too big for the tunnel. */
	len = make(pkt, a, station_node, 1500 - IPX_HDR_LEN);
	from_station(r, pkt, len, a);
	assert_int_equal(s->drops[IPX_BRIDGE_DROP_TOO_BIG], 1);
	/* A bad length field. */
	len = make(pkt, a, station_node, 4);
	ipx_put16(pkt + 2, 200);
	from_station(r, pkt, len, a);
	assert_int_equal(s->drops[IPX_BRIDGE_DROP_BAD_IPX], 1);
	assert_int_equal(r->h->n, 0);
	assert_int_equal(s->from_lan, 0);
	/* Padding after the IPX length is not relayed. */
	len = make(pkt, a, station_node, 4);
	from_station(r, pkt, len + 20, a);
	assert_int_equal(r->h->n, 1);
	assert_int_equal(r->h->out[0].len, len);
}

static void lan_tx_error_is_counted(void **state)
{
	struct rig *r = *state;
	uint8_t a[6], pkt[1500];
	size_t len;

	join(r, 1000);
	hubrig_node(1000, a);
	ipx_mem_segment_set_mtu(r->lan, 100);
	len = make(pkt, ipx_node_broadcast, a, 200);
	from_client(r, 1000, pkt, len);
	assert_int_equal(
		ipx_bridge_stats(r->bridge)->drops[IPX_BRIDGE_DROP_LAN_TX], 1);
	assert_int_equal(r->nlan, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			client_broadcast_reaches_lan_and_clients, setup,
			teardown),
		cmocka_unit_test_setup_teardown(client_unicast_for_lan_node,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			station_unicast_and_broadcast_reach_clients, setup,
			teardown),
		cmocka_unit_test_setup_teardown(lan_drops_are_counted, setup,
						teardown),
		cmocka_unit_test_setup_teardown(lan_tx_error_is_counted, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
