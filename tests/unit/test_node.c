/*
 * test_node.c - the IPX node on the in-memory link with the fake clock:
 * socket table limits, dynamic sockets, dispatch, broadcast, loopback, a
 * named counter for every drop, and the received counters.
 */
#include "cm.h"

#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/node.h"

struct inbox {
	int n;
	struct ipx_header hdr[16];
	char data[16][64];
	size_t len[16];
};

static void collect(struct ipx_socket *s, const struct ipx_header *h,
		    const uint8_t *data, size_t len, void *ctx)
{
	struct inbox *in = ctx;

	(void)s;
	if (in->n >= 16)
		return;
	in->hdr[in->n] = *h;
	in->len[in->n] = len;
	memcpy(in->data[in->n], data, len < 64 ? len : 64);
	in->n++;
}

struct net {
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_mem_segment *seg;
	struct ipx_node *node[3];
};

static int setup(void **state)
{
	struct net *n = calloc(1, sizeof(*n));

	ipx_clock_fake_init(&n->clk, 0);
	n->loop = ipx_loop_new(&n->clk);
	n->seg = ipx_mem_segment_new(n->loop, 0x1234, 42);
	for (int i = 0; i < 3; i++) {
		n->node[i] = ipx_node_new(n->loop, NULL);
		ipx_node_add_link(n->node[i], ipx_mem_link_new(n->seg, NULL));
	}
	*state = n;
	return 0;
}

static int teardown(void **state)
{
	struct net *n = *state;

	for (int i = 0; i < 3; i++)
		ipx_node_free(n->node[i]);
	ipx_mem_segment_free(n->seg);
	ipx_loop_free(n->loop);
	free(n);
	return 0;
}

static void addr_of(struct net *n, int i, uint16_t socket, struct ipx_addr *a)
{
	ipx_node_address(n->node[i], a);
	a->socket = socket;
}

static void unicast_reaches_only_its_node_with_our_source(void **state)
{
	struct net *n = *state;
	struct ipx_socket *s0, *s1, *s2;
	struct inbox in1 = { 0 }, in2 = { 0 };
	struct ipx_addr dst, src;

	assert_int_equal(ipx_socket_open(n->node[0], 0, collect, NULL, &s0), 0);
	assert_int_equal(ipx_socket_open(n->node[1], 0x4545, collect, &in1, &s1), 0);
	assert_int_equal(ipx_socket_open(n->node[2], 0x4545, collect, &in2, &s2), 0);
	addr_of(n, 1, 0x4545, &dst);
	assert_int_equal(ipx_socket_sendto(s0, &dst, IPX_TYPE_PEP, "hello", 5),
			 IPX_OK);
	ipx_loop_run_for(n->loop, IPX_SEC);
	assert_int_equal(in1.n, 1);
	assert_int_equal(in2.n, 0);
	assert_int_equal(in1.len[0], 5);
	assert_memory_equal(in1.data[0], "hello", 5);
	addr_of(n, 0, ipx_socket_number(s0), &src);
	assert_true(ipx_addr_eq(&in1.hdr[0].src, &src));
	assert_int_equal(in1.hdr[0].src.net, 0x1234);
	assert_int_equal(in1.hdr[0].type, IPX_TYPE_PEP);
	assert_int_equal(in1.hdr[0].length, 35);
	assert_int_equal(in1.hdr[0].hops, 0);
	assert_int_equal(ipx_node_stats(n->node[1])->delivered, 1);
}

static void broadcast_reaches_everyone_and_loops_back(void **state)
{
	struct net *n = *state;
	struct ipx_socket *s[3];
	struct inbox in[3] = { { 0 } };
	struct ipx_addr dst = { .net = 0, .socket = 0x5000 };

	for (int i = 0; i < 3; i++)
		assert_int_equal(ipx_socket_open(n->node[i], 0x5000, collect,
						 &in[i], &s[i]),
				 IPX_OK);
	memcpy(dst.node, ipx_node_broadcast, 6);
	assert_int_equal(ipx_socket_sendto(s[0], &dst, 0, "all", 3), IPX_OK);
	ipx_loop_run_for(n->loop, IPX_SEC);
	for (int i = 0; i < 3; i++)
		assert_int_equal(in[i].n, 1);
	assert_int_equal(ipx_node_stats(n->node[0])->looped, 1);
}

static void sending_to_ourselves_never_touches_the_link(void **state)
{
	struct net *n = *state;
	struct ipx_socket *a, *b;
	struct inbox in = { 0 };
	struct ipx_addr dst;
	uint64_t sent = ipx_mem_segment_stats(n->seg)->sent;

	assert_int_equal(ipx_socket_open(n->node[0], 0x6000, collect, &in, &a), 0);
	assert_int_equal(ipx_socket_open(n->node[0], 0, collect, NULL, &b), 0);
	addr_of(n, 0, 0x6000, &dst);
	assert_int_equal(ipx_socket_sendto(b, &dst, 0, "me", 2), IPX_OK);
	/* Delivery waits for the loop: no recursion from a send. */
	assert_int_equal(in.n, 0);
	ipx_loop_run_for(n->loop, IPX_MSEC);
	assert_int_equal(in.n, 1);
	assert_int_equal(ipx_mem_segment_stats(n->seg)->sent, sent);
}

static void socket_table_is_limited_by_ipx_sockets(void **state)
{
	struct net *n = *state;
	struct ipx_config cfg;
	struct ipx_node *node;
	struct ipx_socket *s[10], *extra;

	(void)n;
	ipx_config_defaults(&cfg);
	cfg.ipx_sockets = 10;
	node = ipx_node_new(n->loop, &cfg);
	for (int i = 0; i < 10; i++)
		assert_int_equal(ipx_socket_open(node, 0, collect, NULL, &s[i]),
				 IPX_OK);
	assert_int_equal(ipx_node_socket_count(node), 10);
	assert_int_equal(ipx_socket_open(node, 0, collect, NULL, &extra),
			 IPX_ESOCKFULL);
	assert_int_equal(ipx_socket_open(node, 0x4545, collect, NULL, &extra),
			 IPX_ESOCKFULL);
	ipx_socket_close(s[3]);
	assert_int_equal(ipx_socket_open(node, 0x4545, collect, NULL, &extra),
			 IPX_OK);
	ipx_node_free(node);
}

static void dynamic_sockets_start_at_4000_and_skip_taken(void **state)
{
	struct net *n = *state;
	struct ipx_socket *a, *b, *c, *dup;

	assert_int_equal(ipx_socket_open(n->node[0], 0x4001, collect, NULL, &b), 0);
	assert_int_equal(ipx_socket_open(n->node[0], 0, collect, NULL, &a), 0);
	assert_int_equal(ipx_socket_number(a), 0x4000);
	assert_int_equal(ipx_socket_open(n->node[0], 0, collect, NULL, &c), 0);
	assert_int_equal(ipx_socket_number(c), 0x4002);
	assert_int_equal(ipx_socket_open(n->node[0], 0x4001, collect, NULL, &dup),
			 IPX_EINUSE);
	assert_int_equal(ipx_socket_open(n->node[0], 0x4545, NULL, NULL, &dup),
			 IPX_EINVAL);
}

static void raw(uint8_t *p, uint16_t len, const uint8_t *dnode, uint16_t dsock,
		const uint8_t *snode)
{
	struct ipx_header h = { .checksum = 0xFFFF, .length = len };

	memcpy(h.dst.node, dnode, 6);
	h.dst.socket = dsock;
	memcpy(h.src.node, snode, 6);
	h.src.socket = 0x4000;
	ipx_header_encode(&h, p);
}

static void every_drop_has_its_counter(void **state)
{
	struct net *n = *state;
	struct ipx_node *node = n->node[1];
	struct ipx_link *link = ipx_node_link(node, 0);
	const struct ipx_node_stats *st = ipx_node_stats(node);
	static const uint8_t other[6] = { 2, 9, 9, 9, 9, 9 };
	struct ipx_socket *s;
	struct inbox in = { 0 };
	uint8_t p[64] = { 0 };

	assert_int_equal(ipx_socket_open(node, 0x4545, collect, &in, &s), 0);

	ipx_node_input(node, link, p, 10);
	assert_int_equal(st->drops[IPX_DROP_SHORT], 1);

	raw(p, 60, link->node, 0x4545, other);
	ipx_node_input(node, link, p, 40);
	assert_int_equal(st->drops[IPX_DROP_BADLEN], 1);
	ipx_put16(p + 2, 12);
	ipx_node_input(node, link, p, 40);
	assert_int_equal(st->drops[IPX_DROP_BADLEN], 2);

	raw(p, 30, link->node, 0x4545, other);
	p[4] = 16;
	ipx_node_input(node, link, p, 30);
	assert_int_equal(st->drops[IPX_DROP_HOPS], 1);

	raw(p, 30, link->node, 0x4545, other);
	ipx_put16(p, 0x1234);	/* a wrong checksum */
	ipx_node_input(node, link, p, 30);
	assert_int_equal(st->drops[IPX_DROP_CHECKSUM], 1);
	ipx_put16(p, ipx_checksum(p, 30));	/* a right one is accepted */
	ipx_node_input(node, link, p, 30);
	assert_int_equal(in.n, 1);

	raw(p, 30, other, 0x4545, other);
	ipx_node_input(node, link, p, 30);
	assert_int_equal(st->drops[IPX_DROP_NOT_FOR_US], 1);
	raw(p, 30, link->node, 0x4545, other);
	ipx_put32(p + 6, 0x999);	/* another network */
	ipx_node_input(node, link, p, 30);
	assert_int_equal(st->drops[IPX_DROP_NOT_FOR_US], 2);

	raw(p, 30, link->node, 0x7777, other);
	ipx_node_input(node, link, p, 30);
	assert_int_equal(st->drops[IPX_DROP_NO_SOCKET], 1);

	raw(p, 30, ipx_node_broadcast, 0x4545, link->node);
	ipx_node_input(node, link, p, 30);
	assert_int_equal(st->drops[IPX_DROP_OWN_SOURCE], 1);

	/* Padding beyond the length field is delivered without it. */
	raw(p, 32, link->node, 0x4545, other);
	p[30] = 'o', p[31] = 'k';
	ipx_node_input(node, link, p, 60);
	assert_int_equal(in.n, 2);
	assert_int_equal(in.len[1], 2);
	assert_string_equal(ipx_drop_name(IPX_DROP_NO_SOCKET), "no_socket");
}

static void received_counters_count_what_links_deliver_and_no_more(void **state)
{
	struct net *n = *state;
	struct ipx_socket *s0, *s1;
	struct inbox in = { 0 };
	struct ipx_addr dst, all = { .socket = 0x4545 };
	const struct ipx_node_stats *st = ipx_node_stats(n->node[1]);
	struct ipx_link *link = ipx_node_link(n->node[1], 0);
	static const uint8_t other[6] = { 2, 9, 9, 9, 9, 9 };
	uint8_t p[40] = { 0 };

	assert_int_equal(ipx_socket_open(n->node[0], 0, collect, NULL, &s0), 0);
	assert_int_equal(ipx_socket_open(n->node[1], 0x4545, collect, &in, &s1),
			 0);
	addr_of(n, 1, 0x4545, &dst);
	memcpy(all.node, ipx_node_broadcast, 6);
	assert_int_equal(ipx_socket_sendto(s0, &dst, 4, "hello", 5), IPX_OK);
	assert_int_equal(ipx_socket_sendto(s0, &dst, 4, "", 0), IPX_OK);
	assert_int_equal(ipx_socket_sendto(s0, &all, 4, "all", 3), IPX_OK);
	/* To itself: looped, never received from a link. */
	assert_int_equal(ipx_socket_sendto(s1, &dst, 4, "me", 2), IPX_OK);
	ipx_loop_run_for(n->loop, IPX_SEC);
	assert_int_equal(in.n, 4);
	assert_int_equal(st->rx_packets, 3);
	assert_int_equal(st->rx_bytes, 3 * 30 + 5 + 0 + 3);
	assert_int_equal(st->looped, 1);
	/* Dropped ones are not received: short, for another node. */
	ipx_node_input(n->node[1], link, p, 20);
	raw(p, 40, other, 0x4545, other);
	ipx_node_input(n->node[1], link, p, 40);
	assert_int_equal(st->rx_packets, 3);
	assert_int_equal(st->drops[IPX_DROP_SHORT], 1);
	assert_int_equal(st->drops[IPX_DROP_NOT_FOR_US], 1);
	/* Taken, though no socket wants it: received, then dropped. */
	raw(p, 40, link->node, 0x7777, other);
	ipx_node_input(n->node[1], link, p, 40);
	assert_int_equal(st->rx_packets, 4);
	assert_int_equal(st->rx_bytes, 3 * 30 + 8 + 40);
	assert_int_equal(st->drops[IPX_DROP_NO_SOCKET], 1);
	assert_int_equal(st->delivered, 4);
}

static void oversize_and_unroutable_sends_are_refused(void **state)
{
	struct net *n = *state;
	struct ipx_socket *s;
	struct ipx_addr dst;
	static uint8_t big[1500];

	assert_int_equal(ipx_socket_open(n->node[0], 0, collect, NULL, &s), 0);
	addr_of(n, 1, 0x4545, &dst);
	ipx_mem_segment_set_mtu(n->seg, 576);
	assert_int_equal(ipx_node_max_payload(n->node[0], &dst), 546);
	assert_int_equal(ipx_socket_sendto(s, &dst, 0, big, 546), IPX_OK);
	assert_int_equal(ipx_socket_sendto(s, &dst, 0, big, 547), IPX_ETOOBIG);
	assert_int_equal(ipx_socket_sendto(s, &dst, 0, big, 1500), IPX_ETOOBIG);
	assert_int_equal(ipx_node_stats(n->node[0])->drops[IPX_DROP_TX_TOOBIG], 2);
	dst.net = 0x9999;
	assert_int_equal(ipx_socket_sendto(s, &dst, 0, "x", 1), IPX_ENOROUTE);
	assert_int_equal(ipx_node_stats(n->node[0])->drops[IPX_DROP_TX_NOLINK], 1);
}

static void receive_callback_may_send_and_close(void **state)
{
	struct net *n = *state;
	struct ipx_socket *a, *b;
	struct inbox in = { 0 };
	struct ipx_addr dst;

	assert_int_equal(ipx_socket_open(n->node[0], 0x4100, collect, &in, &a), 0);
	assert_int_equal(ipx_socket_open(n->node[1], 0x4200, collect, NULL, &b), 0);
	addr_of(n, 0, 0x4100, &dst);
	/* node[1] sends to node[0]; closing afterwards is fine: the link copied. */
	assert_int_equal(ipx_socket_sendto(b, &dst, 0, "bye", 3), IPX_OK);
	ipx_socket_close(b);
	ipx_loop_run_for(n->loop, IPX_SEC);
	assert_int_equal(in.n, 1);
	assert_int_equal(in.hdr[0].src.socket, 0x4200);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(unicast_reaches_only_its_node_with_our_source, setup, teardown),
		cmocka_unit_test_setup_teardown(broadcast_reaches_everyone_and_loops_back, setup, teardown),
		cmocka_unit_test_setup_teardown(sending_to_ourselves_never_touches_the_link, setup, teardown),
		cmocka_unit_test_setup_teardown(socket_table_is_limited_by_ipx_sockets, setup, teardown),
		cmocka_unit_test_setup_teardown(dynamic_sockets_start_at_4000_and_skip_taken, setup, teardown),
		cmocka_unit_test_setup_teardown(every_drop_has_its_counter, setup, teardown),
		cmocka_unit_test_setup_teardown(received_counters_count_what_links_deliver_and_no_more, setup, teardown),
		cmocka_unit_test_setup_teardown(oversize_and_unroutable_sends_are_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(receive_callback_may_send_and_close, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
