/*
 * fuzz_hub.c - libFuzzer harness for the tunnel server's datagram handling
 * (ipx_hub_input and the keepalive / idle sweep in src/hub/hub.c).
 *
 * A detached hub (no socket) on a fake-clock loop gets a sequence of
 * datagrams from up to eight clients, 127.0.0.1:10000 to :10007. The input
 * is a list of records
 *
 *   [1 byte: client index in bits 0-2, clock step in bits 3-7]
 *   [2 bytes: datagram length, big-endian]
 *   [that many bytes; fewer if the input ends first]
 *
 * Records form receive batches, as the socket path reads them: a batch's
 * datagrams stay allocated until the hub is flushed, which happens before
 * a record with a nonzero clock step, every 256 records and at the end
 * (so the hub's own flush of a full transmit queue is reached too). After
 * that flush the loop runs for step * 250 ms of fake time, so keepalive
 * pings (every 1 s of silence) and idle timeouts (6 s) happen. Every
 * datagram is copied to its own exact-size allocation, so reading past its
 * end is caught.
 *
 * Invariants: each datagram is counted once in rx_packets and once as a
 * registration, a relay (unicast or broadcast), a keepalive answer or one
 * drop; every queued packet is accounted for in tx_packets; joins - leaves
 * is the client count, which never exceeds the eight senders. Every
 * datagram the hub sends (seen through its tap) goes to one of the eight,
 * is one whole IPX packet of at most 1424 bytes, is addressed to that
 * client's node, is a broadcast, goes to a router (another network) or to
 * a bridge port (a client that sent the bridge-port announcement, which
 * the dictionary holds), and a broadcast never goes back to the node it
 * came from.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/clock.h"
#include "ipxlab/err.h"
#include "ipxlab/hub.h"
#include "ipxlab/ipx.h"
#include "ipxlab/log.h"
#include "ipxlab/loop.h"

#include "fuzz_common.h"

#define NCLIENTS 8
#define BASE_PORT 10000
#define TUNNEL_MTU 1424
#define MAX_BATCH 256	/* datagrams before a forced flush */

/* What the tap has seen. */
struct tapped {
	const struct ipx_hub *hub;
	uint64_t packets, bytes;
	uint64_t sink;
};

static void node_of(const struct sockaddr_in *sa, uint8_t node[IPX_NODE_LEN])
{
	memcpy(node, &sa->sin_addr.s_addr, 4);
	memcpy(node + 4, &sa->sin_port, 2);
}

static void on_tap(const struct sockaddr_in *to, const uint8_t *pkt,
		   size_t len, void *ctx)
{
	struct tapped *t = ctx;
	struct ipx_header h;
	uint8_t to_node[IPX_NODE_LEN];
	unsigned port = ntohs(to->sin_port);
	uint64_t sum = 0;

	CHECK(to->sin_family == AF_INET);
	CHECK(to->sin_addr.s_addr == htonl(INADDR_LOOPBACK));
	CHECK(port >= BASE_PORT && port < BASE_PORT + NCLIENTS);
	CHECK(len >= IPX_HDR_LEN && len <= TUNNEL_MTU);
	/* Read it all: the bytes must still be alive when they leave. */
	for (size_t i = 0; i < len; i++)
		sum += pkt[i];
	t->sink += sum;
	CHECK(ipx_header_decode(pkt, len, &h) == IPX_OK);
	CHECK(h.length == len);		/* no trailing bytes relayed */
	node_of(to, to_node);
	if (memcmp(h.dst.node, "\xFF\xFF\xFF\xFF", 4) == 0)
		CHECK(!ipx_node_eq(h.src.node, to_node));
	else	/* to its node, a router for another network, or a port */
		CHECK(ipx_node_eq(h.dst.node, to_node) || h.dst.net != 0 ||
		      ipx_hub_is_port(t->hub, to_node));
	t->packets++;
	t->bytes += len;
}

/* Every way a received datagram can end, except a send error. */
static uint64_t outcomes(const struct ipx_hub_stats *s)
{
	uint64_t n = s->registrations + s->unicasts + s->broadcasts +
		     s->control + s->routed + s->port_announces +
		     s->port_unicasts + s->flooded;

	for (int d = 0; d < IPX_HUB_DROP_COUNT; d++)
		if (d != IPX_HUB_DROP_TX_ERROR)
			n += s->drops[d];
	return n;
}

/* What holds after every datagram. */
static void check_rx(const struct ipx_hub *hub, uint64_t rx_bytes)
{
	const struct ipx_hub_stats *s = ipx_hub_stats(hub);
	size_t n = ipx_hub_client_count(hub);

	CHECK(s->rx_packets == outcomes(s));
	CHECK(s->rx_bytes == rx_bytes);
	CHECK(n <= NCLIENTS);
	CHECK(s->joins >= s->leaves && s->joins - s->leaves == n);
	CHECK(s->joins <= s->registrations);
}

/* What holds once the queue is flushed. */
static void check_tx(const struct ipx_hub *hub, uint64_t bcast_copies,
		     const struct tapped *t)
{
	const struct ipx_hub_stats *s = ipx_hub_stats(hub);

	/* Detached: everything queued is "sent", nothing fails. */
	CHECK(s->drops[IPX_HUB_DROP_TX_ERROR] == 0);
	CHECK(s->tx_packets == s->registrations + s->keepalives + s->unicasts +
				       bcast_copies + s->routed_copies +
				       s->port_announces + s->port_unicasts +
				       s->flood_copies);
	CHECK(ipx_hub_port_count(hub) <= ipx_hub_client_count(hub));
	CHECK(s->tx_packets == t->packets && s->tx_bytes == t->bytes);
}

/* A receive batch: its datagrams stay allocated until the hub flushes, as
 * the socket's receive buffers do. */
struct batch {
	uint8_t *pkt[MAX_BATCH];
	size_t n;
};

static void end_batch(struct ipx_hub *hub, struct batch *b)
{
	ipx_hub_flush(hub);
	for (size_t i = 0; i < b->n; i++)
		free(b->pkt[i]);
	b->n = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool quiet;
	struct ipx_clock clock;
	struct ipx_loop *loop;
	struct ipx_hub *hub;
	struct ipx_hub_options opts;
	struct sockaddr_in from[NCLIENTS];
	struct tapped tap = { NULL, 0, 0, 0 };
	struct batch batch = { .n = 0 };
	char err[256];
	uint64_t rx_bytes = 0, bcast_copies = 0;
	size_t pos = 0;

	if (!quiet) {
		ipx_log_set_level(IPX_LOG_ERROR);
		quiet = true;
	}
	ipx_clock_fake_init(&clock, 1000 * IPX_SEC);
	loop = ipx_loop_new(&clock);
	CHECK(loop);
	memset(&opts, 0, sizeof(opts));
	opts.bind.sin_family = AF_INET;
	opts.bind.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	opts.bind.sin_port = htons(213);
	opts.keepalive = 1 * IPX_SEC;
	opts.idle_timeout = 6 * IPX_SEC;
	opts.detached = true;
	opts.tap = on_tap;
	opts.tap_ctx = &tap;
	CHECK(ipx_hub_open(loop, &opts, &hub, err, sizeof(err)) == IPX_OK);
	tap.hub = hub;
	for (int i = 0; i < NCLIENTS; i++) {
		memset(&from[i], 0, sizeof(from[i]));
		from[i].sin_family = AF_INET;
		from[i].sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		from[i].sin_port = htons((uint16_t)(BASE_PORT + i));
	}

	while (pos + 3 <= size) {
		unsigned client = data[pos] & 7, step = data[pos] >> 3;
		size_t len = (size_t)data[pos + 1] << 8 | data[pos + 2];
		const struct ipx_hub_stats *s = ipx_hub_stats(hub);
		uint64_t before_out, before_bcast;
		size_t nbefore;
		uint8_t *pkt;

		pos += 3;
		if (len > size - pos)
			len = size - pos;
		if (step || batch.n == MAX_BATCH) {
			end_batch(hub, &batch);
			check_tx(hub, bcast_copies, &tap);
		}
		if (step) {
			uint64_t joins = s->joins;

			CHECK(ipx_loop_run_for(loop, step * 250 * IPX_MSEC) ==
			      IPX_OK);
			CHECK(s->joins == joins);	/* only datagrams join */
			check_rx(hub, rx_bytes);
			check_tx(hub, bcast_copies, &tap);
		}
		pkt = malloc(len ? len : 1);
		CHECK(pkt);
		if (len)
			memcpy(pkt, data + pos, len);
		pos += len;
		batch.pkt[batch.n++] = pkt;

		before_out = outcomes(s);
		before_bcast = s->broadcasts;
		nbefore = ipx_hub_client_count(hub);
		ipx_hub_input(hub, &from[client], pkt, len);
		rx_bytes += len;
		CHECK(outcomes(s) == before_out + 1);
		if (s->broadcasts != before_bcast) {
			/* Relayed to every registered client but the sender. */
			CHECK(nbefore >= 1);
			CHECK(ipx_hub_client_count(hub) == nbefore);
			bcast_copies += nbefore - 1;
		}
		check_rx(hub, rx_bytes);
	}
	end_batch(hub, &batch);
	check_tx(hub, bcast_copies, &tap);

	/* A final sweep past every timeout forgets every client. */
	CHECK(ipx_loop_run_for(loop, 10 * IPX_SEC) == IPX_OK);
	check_rx(hub, rx_bytes);
	check_tx(hub, bcast_copies, &tap);
	CHECK(ipx_hub_client_count(hub) == 0);
	ipx_hub_close(hub);
	ipx_loop_free(loop);
	return 0;
}
