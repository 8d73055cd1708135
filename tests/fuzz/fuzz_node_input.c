/*
 * fuzz_node_input.c - libFuzzer harness for the node's receive path
 * (ipx_node_input in src/ipx/node.c) and what a receive callback may do.
 *
 * The input is one packet "received" on an in-memory link. It is fed to
 * two nodes, one on network 0 (as DOSBox clients are) and one on network
 * 0x00C0FFEE, each at node 02:00:00:00:00:01 with a peer 02:...:02 on its
 * segment and sockets 0x0002, 0x0455, 0x4545 and one dynamic socket open.
 * Socket 0x4545 echoes what it gets back to the sender (twice at most per
 * input), which exercises the send path and local loopback from inside a
 * receive callback. Then the loop runs a while on a fake clock.
 *
 * Invariants: the input is counted exactly once, either as accepted
 * (rx_packets) or in one receive drop counter; an accepted packet is either
 * delivered or counted as no_socket; every echo is counted once on the
 * send side; every looped-back packet is delivered or dropped once; the
 * callback sees hdr->length - 30 bytes of payload; the node on network 0
 * learns a number only from a packet it took (its source network if a
 * router's RIP packet, its destination network if routed).
 */
#include <stdlib.h>
#include <string.h>

#include "ipxlab/clock.h"
#include "ipxlab/err.h"
#include "ipxlab/ipx.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/log.h"
#include "ipxlab/loop.h"
#include "ipxlab/node.h"

#include "fuzz_common.h"

#define ECHO_SOCKET 0x4545
#define MAX_ECHOES 2

struct world {
	struct ipx_clock clock;
	struct ipx_loop *loop;
	struct ipx_mem_segment *seg;
	struct ipx_node *node;
	struct ipx_link *link;		/* the node's */
	unsigned echoes;		/* sent this input */
	unsigned echoes_looped;		/* of them, looped back locally */
	uint64_t sink;			/* keeps payload reads alive */
};

static uint64_t tx_sum(const struct ipx_node_stats *s)
{
	return s->tx_packets + s->drops[IPX_DROP_TX_NOLINK] +
	       s->drops[IPX_DROP_TX_TOOBIG] + s->drops[IPX_DROP_TX_LINK];
}

/* Receive-side drops: everything but the TX_* counters. */
static uint64_t rx_drop_sum(const struct ipx_node_stats *s)
{
	uint64_t n = 0;

	for (int d = 0; d < IPX_DROP_COUNT; d++)
		if (d != IPX_DROP_TX_NOLINK && d != IPX_DROP_TX_TOOBIG &&
		    d != IPX_DROP_TX_LINK)
			n += s->drops[d];
	return n;
}

static void on_recv(struct ipx_socket *sock, const struct ipx_header *hdr,
		    const uint8_t *data, size_t len, void *ctx)
{
	struct world *w = ctx;
	uint64_t sum = 0;

	CHECK(hdr->length >= IPX_HDR_LEN);
	CHECK(len == (size_t)hdr->length - IPX_HDR_LEN);
	CHECK(hdr->dst.socket == ipx_socket_number(sock));
	/* Touch every byte the node says is ours to read. */
	for (size_t i = 0; i < len; i++)
		sum += data[i];
	w->sink += sum;

	if (ipx_socket_number(sock) == ECHO_SOCKET && w->echoes < MAX_ECHOES) {
		const struct ipx_node_stats *s = ipx_node_stats(w->node);
		uint64_t before = tx_sum(s);
		bool bcast = ipx_node_is_broadcast(hdr->src.node);
		bool self = ipx_node_eq(hdr->src.node, w->link->node) &&
			    (hdr->src.net == 0 || hdr->src.net == w->link->net);
		int rc;

		w->echoes++;
		rc = ipx_socket_sendto(sock, &hdr->src, hdr->type, data, len);
		/* A packet only for ourselves never reaches the link; any
		 * other is sent or counted as a send drop, exactly once. */
		if (self && rc == IPX_OK)
			CHECK(tx_sum(s) == before);
		else if (!self && rc != IPX_ENOMEM)
			CHECK(tx_sum(s) == before + 1);
		if ((bcast || self) && rc == IPX_OK)
			w->echoes_looped++;
	}
}

static void run_world(uint32_t net, const uint8_t *data, size_t size)
{
	static const uint16_t fixed[] = { IPX_SOCK_ECHO, IPX_SOCK_NETBIOS,
					  ECHO_SOCKET };
	struct world w;
	struct ipx_socket *sock;
	struct ipx_node_stats s0, s1;
	const struct ipx_node_stats *s;
	struct ipx_header hdr;
	bool decoded;

	memset(&w, 0, sizeof(w));
	ipx_clock_fake_init(&w.clock, 1000 * IPX_SEC);
	w.loop = ipx_loop_new(&w.clock);
	CHECK(w.loop);
	w.seg = ipx_mem_segment_new(w.loop, net, 1);
	CHECK(w.seg);
	w.node = ipx_node_new(w.loop, NULL);
	CHECK(w.node);
	w.link = ipx_mem_link_new(w.seg, NULL);		/* 02:..:01 */
	CHECK(w.link);
	CHECK(ipx_node_add_link(w.node, w.link) == IPX_OK);
	CHECK(ipx_mem_link_new(w.seg, NULL));		/* the peer, 02:..:02 */
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		CHECK(ipx_socket_open(w.node, fixed[i], on_recv, &w, &sock) ==
		      IPX_OK);
	CHECK(ipx_socket_open(w.node, 0, on_recv, &w, &sock) == IPX_OK);
	CHECK(ipx_socket_number(sock) >= IPX_SOCK_DYNAMIC_MIN &&
	      ipx_socket_number(sock) <= IPX_SOCK_DYNAMIC_MAX);

	s = ipx_node_stats(w.node);
	s0 = *s;
	decoded = ipx_header_decode(data, size, &hdr) == IPX_OK;
	ipx_node_input(w.node, w.link, data, size);
	s1 = *s;

	/* Counted once: accepted, or dropped for exactly one reason. */
	CHECK((s1.rx_packets - s0.rx_packets) +
		      (rx_drop_sum(&s1) - rx_drop_sum(&s0)) -
		      (s1.drops[IPX_DROP_NO_SOCKET] -
		       s0.drops[IPX_DROP_NO_SOCKET]) ==
	      1);
	/* Accepted means delivered or no socket, and only a valid header. */
	CHECK((s1.delivered - s0.delivered) +
		      (s1.drops[IPX_DROP_NO_SOCKET] -
		       s0.drops[IPX_DROP_NO_SOCKET]) ==
	      s1.rx_packets - s0.rx_packets);
	if (s1.rx_packets != s0.rx_packets) {
		CHECK(decoded);
		CHECK(s1.rx_bytes - s0.rx_bytes == hdr.length);
	}
	CHECK(s1.looped == s0.looped);
	/* A network number is learned only by a link that had none, only
	 * from a packet taken, and only from a router's RIP response that
	 * was not forwarded: its source network. */
	if (s1.net_learned != s0.net_learned) {
		CHECK(net == 0 && s1.net_learned - s0.net_learned == 1);
		CHECK(s1.rx_packets - s0.rx_packets == 1);
		CHECK(hdr.hops == 0 && hdr.src.socket == IPX_SOCK_RIP);
		CHECK(w.link->net == hdr.src.net);
		CHECK(w.link->net != 0 && w.link->net != 0xFFFFFFFFu);
	} else {
		CHECK(w.link->net == net);
	}

	/* Let loopback and the segment run; nothing else arrives. */
	CHECK(ipx_loop_run_for(w.loop, 100 * IPX_MSEC) == IPX_OK);
	s0 = s1;
	s1 = *s;
	CHECK(s1.rx_packets == s0.rx_packets);
	CHECK(s1.looped - s0.looped == w.echoes_looped);
	CHECK((s1.delivered - s0.delivered) +
		      (rx_drop_sum(&s1) - rx_drop_sum(&s0)) ==
	      s1.looped - s0.looped);

	ipx_node_free(w.node);
	ipx_mem_segment_free(w.seg);
	ipx_loop_free(w.loop);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool quiet;

	if (!quiet) {
		ipx_log_set_level(IPX_LOG_ERROR);
		quiet = true;
	}
	run_world(0, data, size);
	run_world(0x00C0FFEE, data, size);
	return 0;
}
