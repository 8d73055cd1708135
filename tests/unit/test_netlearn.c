/*
 * test_netlearn.c - a node that does not know its network number learns it
 * only from what a router says, on in-memory segments with the fake clock:
 * one broadcast with hops 1 to DEAD0001 (anybody can send it) and a flood
 * of random datagrams teach nothing and are counted (net_refused); a packet
 * a real router forwarded makes the node ask that router (net_probes), whose
 * answer teaches the number; a node that has learnt keeps it, and keeps
 * answering, under bogus claims.
 */
#include "cm.h"

#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "svcnet.h"

enum { NET_A = 0xA, NET_B = 0xB };
#define BOGUS 0xDEAD0001u

static void run(struct svcnet *n, ipx_time d)
{
	assert_int_equal(ipx_loop_run_for(n->loop, d), IPX_OK);
}

/* A raw packet sent by 'from' on its link, as anybody on a hub can. */
static void send_raw(struct svcnode *from, uint32_t dst_net,
		     const uint8_t *dst_node, uint32_t src_net, uint16_t sock,
		     uint8_t hops, const void *payload, size_t len)
{
	struct ipx_link *l = from->links[0];
	struct ipx_header h = { .checksum = IPX_NO_CHECKSUM,
				.length = (uint16_t)(IPX_HDR_LEN + len),
				.hops = hops, .type = IPX_TYPE_PEP };
	uint8_t pkt[IPX_HDR_LEN + 64];

	h.dst.net = dst_net;
	memcpy(h.dst.node, dst_node, IPX_NODE_LEN);
	h.dst.socket = sock;
	h.src.net = src_net;
	memcpy(h.src.node, l->node, IPX_NODE_LEN);
	h.src.socket = sock;
	ipx_header_encode(&h, pkt);
	memcpy(pkt + IPX_HDR_LEN, payload, len);
	assert_int_equal(ipx_link_send(l, pkt, h.length, dst_node), IPX_OK);
}

/* c sends to s on socket 0x5000 and gets an answer back. */
static void still_answers(struct svcnet *n, struct svcnode *s,
			  struct svcnode *c, uint32_t net)
{
	struct inbox ins = { 0 }, inc = { 0 };
	struct ipx_socket *ss, *cs;
	struct ipx_addr dst = { .net = net, .socket = 0x5000 };

	assert_int_equal(ipx_socket_open(s->node, 0x5000, inbox_collect, &ins,
					 &ss), IPX_OK);
	assert_int_equal(ipx_socket_open(c->node, 0x5001, inbox_collect, &inc,
					 &cs), IPX_OK);
	memcpy(dst.node, s->links[0]->node, IPX_NODE_LEN);
	assert_int_equal(ipx_socket_sendto(cs, &dst, IPX_TYPE_PEP, "q", 1),
			 IPX_OK);
	run(n, 100 * IPX_MSEC);
	assert_int_equal(ins.n, 1);
	assert_int_equal(ipx_socket_sendto(ss, &ins.hdr[0].src, IPX_TYPE_PEP,
					   "a", 1), IPX_OK);
	run(n, 100 * IPX_MSEC);
	assert_int_equal(inc.n, 1);
	assert_memory_equal(inc.data[0], "a", 1);
	ipx_socket_close(ss);
	ipx_socket_close(cs);
}

/* A DOSBox-style hub with no router: every node on network 0. */
static struct svcnet *hub_without_router(struct svcnode **s,
					 struct svcnode **c,
					 struct svcnode **x)
{
	static const uint32_t nets[] = { NET_A };
	struct svcnet *n = svcnet_new(1, nets);

	*s = svcnet_add(n, SVC_RESPONDERS, (int[]){ 0 }, 1);
	*c = svcnet_add(n, 0, (int[]){ 0 }, 1);
	*x = svcnet_add(n, 0, (int[]){ 0 }, 1);
	(*s)->links[0]->net = 0;
	(*c)->links[0]->net = 0;
	(*x)->links[0]->net = 0;
	run(n, IPX_SEC);
	return n;
}

static void one_broadcast_with_hops_1_teaches_nothing(void **state)
{
	struct svcnode *s, *c, *x;
	struct svcnet *n = hub_without_router(&s, &c, &x);
	const struct ipx_node_stats *st = ipx_node_stats(s->node);

	(void)state;
	send_raw(x, BOGUS, ipx_node_broadcast, 0, 0x5000, 1, "evil", 4);
	run(n, 2 * IPX_SEC);
	assert_int_equal(s->links[0]->net, 0);
	assert_int_equal(c->links[0]->net, 0);
	assert_int_equal(st->net_learned, 0);
	assert_int_equal(st->net_refused, 1);
	/* It asked the routers for DEAD0001; none answered. */
	assert_int_equal(st->net_probes, 1);
	/* The same claim again within the second: counted, not asked. */
	send_raw(x, BOGUS, ipx_node_broadcast, 0, 0x5000, 1, "evil", 4);
	send_raw(x, BOGUS, ipx_node_broadcast, 0, 0x5000, 1, "evil", 4);
	run(n, 10 * IPX_MSEC);
	assert_int_equal(st->net_refused, 3);
	assert_int_equal(st->net_probes, 2);	/* 2 s later: once more */
	send_raw(x, BOGUS, ipx_node_broadcast, 0, 0x5000, 1, "evil", 4);
	run(n, 10 * IPX_MSEC);
	assert_int_equal(st->net_probes, 2);
	/* A forged RIP request from 0x453 names no network of ours either. */
	send_raw(x, BOGUS, ipx_node_broadcast, BOGUS, IPX_SOCK_RIP, 0,
		 "\x00\x01\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF", 10);
	run(n, 10 * IPX_MSEC);
	assert_int_equal(s->links[0]->net, 0);
	assert_int_equal(st->net_refused, 5);
	still_answers(n, s, c, 0);
	svcnet_free(n);
}

static uint32_t rnd(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

static void a_flood_of_garbage_teaches_nothing(void **state)
{
	struct svcnode *s, *c, *x;
	struct svcnet *n = hub_without_router(&s, &c, &x);
	const struct ipx_node_stats *st = ipx_node_stats(s->node);
	uint32_t seed = 0x1234567u;
	uint8_t pkt[IPX_HDR_LEN + 40];

	(void)state;
	for (int i = 0; i < 100000; i++) {
		size_t len = IPX_HDR_LEN + rnd(&seed) % 41;

		for (size_t k = 0; k < len; k++)
			pkt[k] = (uint8_t)rnd(&seed);
		ipx_put16(pkt, IPX_NO_CHECKSUM);
		ipx_put16(pkt + 2, (uint16_t)len);
		/* Half to us, half broadcast, as a hub relays them. */
		memcpy(pkt + 10, i & 1 ? ipx_node_broadcast : s->links[0]->node,
		       IPX_NODE_LEN);
		ipx_node_input(s->node, s->links[0], pkt, len);
	}
	run(n, IPX_SEC);
	assert_int_equal(s->links[0]->net, 0);
	assert_int_equal(st->net_learned, 0);
	assert_true(st->net_refused > 1000);
	assert_int_equal(st->net_probes, 1);	/* one a second at most */
	still_answers(n, s, c, 0);
	svcnet_free(n);
}

/* hA on A with router R1 (A+B); hB on B. */
struct topo {
	struct svcnet *n;
	struct svcnode *ha, *r1, *hb, *x;
};

static struct topo routed(void)
{
	static const uint32_t nets[] = { NET_A, NET_B };
	struct topo t;

	t.n = svcnet_new(2, nets);
	t.ha = svcnet_add(t.n, SVC_RESPONDERS, (int[]){ 0 }, 1);
	t.r1 = svcnet_add(t.n, SVC_ROUTER, (int[]){ 0, 1 }, 2);
	t.hb = svcnet_add(t.n, SVC_RESPONDERS, (int[]){ 1 }, 1);
	t.x = svcnet_add(t.n, 0, (int[]){ 0 }, 1);
	run(t.n, IPX_SEC);
	/* Neither end node knows its number, as on a DOSBox hub. */
	t.ha->links[0]->net = 0;
	t.x->links[0]->net = 0;
	return t;
}

static void a_routed_packet_is_checked_with_the_router(void **state)
{
	struct topo t = routed();
	const struct ipx_node_stats *st = ipx_node_stats(t.ha->node);
	struct ipx_socket *b;
	struct ipx_addr dst = { .net = NET_A, .socket = 0x5000 };

	(void)state;
	/* The bogus claim first: R1 has no DEAD0001 and says nothing. */
	send_raw(t.x, BOGUS, ipx_node_broadcast, 0, 0x5000, 1, "evil", 4);
	run(t.n, 100 * IPX_MSEC);
	assert_int_equal(t.ha->links[0]->net, 0);
	assert_int_equal(st->net_probes, 1);
	/* A datagram R1 really forwarded from B: hA asks R1 for A, and
	 * R1's answer (from its address on A) teaches the number. */
	run(t.n, IPX_SEC);
	assert_int_equal(ipx_socket_open(t.hb->node, 0x5000, inbox_collect,
					 NULL, &b), IPX_OK);
	memcpy(dst.node, t.ha->links[0]->node, IPX_NODE_LEN);
	assert_int_equal(ipx_socket_sendto(b, &dst, IPX_TYPE_PEP, "x", 1),
			 IPX_OK);
	run(t.n, 100 * IPX_MSEC);
	assert_int_equal(t.ha->links[0]->net, NET_A);
	assert_int_equal(st->net_learned, 1);
	assert_int_equal(st->net_probes, 2);
	assert_int_equal(ipx_node_stats(t.r1->node)->forwarded, 1);
	svcnet_free(t.n);
}

static void a_node_that_learnt_keeps_its_number(void **state)
{
	struct topo t = routed();
	const struct ipx_node_stats *st = ipx_node_stats(t.ha->node);
	/* A RIP response of one entry, DEAD0001 1 hop 1 tick. */
	static const uint8_t rip[] = { 0, 2, 0xDE, 0xAD, 0, 1, 0, 1, 0, 1 };

	(void)state;
	run(t.n, 61 * IPX_SEC);	/* R1's periodic broadcast */
	assert_int_equal(t.ha->links[0]->net, NET_A);
	assert_int_equal(st->net_learned, 1);
	/* Bogus claims, forwarded-looking and RIP: the number stays. */
	send_raw(t.x, BOGUS, ipx_node_broadcast, 0, 0x5000, 1, "evil", 4);
	send_raw(t.x, 0, ipx_node_broadcast, BOGUS, IPX_SOCK_RIP, 0, rip,
		 sizeof(rip));
	run(t.n, 100 * IPX_MSEC);
	assert_int_equal(t.ha->links[0]->net, NET_A);
	assert_int_equal(st->net_learned, 1);
	/* And it keeps serving its own segment and the far one. */
	t.x->links[0]->net = NET_A;
	still_answers(t.n, t.ha, t.x, NET_A);
	still_answers(t.n, t.ha, t.hb, NET_A);
	svcnet_free(t.n);
}

static void a_rip_response_from_a_neighbour_teaches(void **state)
{
	struct topo t = routed();
	const struct ipx_node_stats *st = ipx_node_stats(t.ha->node);
	static const uint8_t rip[] = { 0, 2, 0, 0, 0, 0xB, 0, 1, 0, 1 };

	(void)state;
	/* Not from 0x453, or not a response: refused. */
	send_raw(t.x, 0, ipx_node_broadcast, 0x77, 0x5000, 0, rip,
		 sizeof(rip));
	send_raw(t.x, 0, ipx_node_broadcast, 0x77, IPX_SOCK_RIP, 0,
		 "\x00\x02\x00", 3);
	run(t.n, 10 * IPX_MSEC);
	assert_int_equal(t.ha->links[0]->net, 0);
	assert_int_equal(st->net_refused, 1);
	/* A well-formed response from a neighbour's 0x453 is a router's. */
	send_raw(t.x, 0, ipx_node_broadcast, 0x77, IPX_SOCK_RIP, 0, rip,
		 sizeof(rip));
	run(t.n, 10 * IPX_MSEC);
	assert_int_equal(t.ha->links[0]->net, 0x77);
	assert_int_equal(st->net_learned, 1);
	svcnet_free(t.n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_broadcast_with_hops_1_teaches_nothing),
		cmocka_unit_test(a_flood_of_garbage_teaches_nothing),
		cmocka_unit_test(a_routed_packet_is_checked_with_the_router),
		cmocka_unit_test(a_node_that_learnt_keeps_its_number),
		cmocka_unit_test(a_rip_response_from_a_neighbour_teaches),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
