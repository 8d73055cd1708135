/*
 * test_routing.c - IPX routing on in-memory segments with the fake clock:
 * RIP convergence across two routers, withdrawal of a removed link, expiry
 * after silence, the hop count raised per router and the 16-hop limit,
 * ticks before hops, route resolution by end nodes (and their learning the
 * network number: from RIP answers, router broadcasts and routed packets,
 * so that their own network's addresses go straight to the node), the
 * internal network, NetBIOS type-20 propagation (an unknown source network
 * filled in by the first router), the RIP codec, and the table as
 * `ipxlab routes` prints it.
 */
#include "cm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "svcnet.h"

enum { NET_A = 0xA, NET_B = 0xB, NET_C = 0xC };

/* hA on A, R1 on A+B, R2 on B+C, hC on C. */
struct topo {
	struct svcnet *n;
	struct svcnode *ha, *r1, *r2, *hc;
};

static int setup(void **state)
{
	static const uint32_t nets[] = { NET_A, NET_B, NET_C };
	struct topo *t = calloc(1, sizeof(*t));

	t->n = svcnet_new(3, nets);
	t->ha = svcnet_add(t->n, SVC_RESPONDERS, (int[]){ 0 }, 1);
	t->r1 = svcnet_add(t->n, SVC_ROUTER, (int[]){ 0, 1 }, 2);
	t->r2 = svcnet_add(t->n, SVC_ROUTER, (int[]){ 1, 2 }, 2);
	t->hc = svcnet_add(t->n, SVC_RESPONDERS, (int[]){ 2 }, 1);
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct topo *t = *state;

	svcnet_free(t->n);
	free(t);
	return 0;
}

static void run(struct topo *t, ipx_time d)
{
	assert_int_equal(ipx_loop_run_for(t->n->loop, d), IPX_OK);
}

static void assert_route(struct ipx_node *node, uint32_t net, uint16_t hops,
			 uint16_t ticks, const struct ipx_link *link)
{
	struct ipx_route r;

	assert_int_equal(ipx_node_route_lookup(node, net, &r), IPX_OK);
	assert_int_equal(r.hops, hops);
	assert_int_equal(r.ticks, ticks);
	assert_ptr_equal(r.link, link);
}

static void three_networks_converge(void **state)
{
	struct topo *t = *state;
	struct ipx_route r;

	run(t, IPX_SEC);
	/* Each router learns the far network from the other at once. */
	assert_route(t->r1->node, NET_C, 1, 1, t->r1->links[1]);
	assert_route(t->r2->node, NET_A, 1, 1, t->r2->links[0]);
	assert_int_equal(ipx_node_route_at(t->r1->node, 0)->kind,
			 IPX_ROUTE_LEARNED);
	/* Periodic broadcasts keep them alive well past the expiry. */
	run(t, 10 * 60 * IPX_SEC);
	assert_route(t->r1->node, NET_C, 1, 1, t->r1->links[1]);
	assert_int_equal(ipx_rip_stats(t->r1->rip)->expired, 0);
	assert_true(ipx_rip_stats(t->r1->rip)->rx_responses >= 10);
	/* End nodes keep no routes until they need one. */
	assert_int_equal(ipx_node_route_lookup(t->ha->node, NET_C, &r),
			 IPX_ENOROUTE);
	/* Split horizon: R1 never hears its own networks back from R2. */
	assert_int_equal(ipx_node_route_count(t->r1->node), 1);
	assert_int_equal(ipx_node_route_count(t->r2->node), 1);
}

static void datagram_crosses_two_routers_with_hops_raised(void **state)
{
	struct topo *t = *state;
	struct ipx_socket *a, *c;
	struct inbox ina = { 0 }, inc = { 0 };
	struct ipx_addr dst;

	/* hA's segment number is unknown to it, as on a DOSBox hub. */
	t->ha->links[0]->net = 0;
	run(t, IPX_SEC);
	assert_int_equal(ipx_socket_open(t->ha->node, 0x5000, inbox_collect,
					 &ina, &a), IPX_OK);
	assert_int_equal(ipx_socket_open(t->hc->node, 0x5000, inbox_collect,
					 &inc, &c), IPX_OK);
	svcnet_addr(t->hc, 0x5000, &dst);
	assert_int_equal(dst.net, NET_C);
	/* Sent before any route is known: it waits for RIP's answer. */
	assert_int_equal(ipx_socket_sendto(a, &dst, IPX_TYPE_PEP, "hi", 2),
			 IPX_OK);
	run(t, IPX_SEC);
	assert_int_equal(inc.n, 1);
	assert_int_equal(inc.hdr[0].hops, 2);
	assert_memory_equal(inc.data[0], "hi", 2);
	/* hA learned its network number from the router's answer. */
	assert_int_equal(t->ha->links[0]->net, NET_A);
	assert_int_equal(inc.hdr[0].src.net, NET_A);
	assert_int_equal(ipx_node_stats(t->ha->node)->resolved, 1);
	assert_route(t->ha->node, NET_C, 2, 2, t->ha->links[0]);
	assert_int_equal(ipx_node_stats(t->r1->node)->forwarded, 1);
	assert_int_equal(ipx_node_stats(t->r2->node)->forwarded, 1);
	/* And back, resolved from the other side. */
	assert_int_equal(ipx_socket_sendto(c, &inc.hdr[0].src, IPX_TYPE_PEP,
					   "yo", 2), IPX_OK);
	run(t, IPX_SEC);
	assert_int_equal(ina.n, 1);
	assert_int_equal(ina.hdr[0].hops, 2);
	assert_int_equal(ina.hdr[0].src.net, NET_C);
}

/* A packet from A to hC's socket 0x5000, hops already 'hops'. */
static void inject(struct topo *t, uint8_t hops)
{
	uint8_t p[40] = { 0 };
	struct ipx_header h = { .checksum = 0xFFFF, .length = 40, .hops = hops };

	svcnet_addr(t->hc, 0x5000, &h.dst);
	h.src.net = NET_A;
	memcpy(h.src.node, "\x02\x00\x00\x00\x00\x99", 6);
	h.src.socket = 0x4000;
	ipx_header_encode(&h, p);
	ipx_node_input(t->r1->node, t->r1->links[0], p, sizeof(p));
}

static void packet_at_the_hop_limit_is_dropped_and_counted(void **state)
{
	struct topo *t = *state;
	struct ipx_socket *c;
	struct inbox inc = { 0 };
	const struct ipx_node_stats *s1 = ipx_node_stats(t->r1->node);
	const struct ipx_node_stats *s2 = ipx_node_stats(t->r2->node);

	run(t, IPX_SEC);
	assert_int_equal(ipx_socket_open(t->hc->node, 0x5000, inbox_collect,
					 &inc, &c), IPX_OK);
	inject(t, 13);		/* arrives with 15: the most there is */
	run(t, IPX_SEC);
	assert_int_equal(inc.n, 1);
	assert_int_equal(inc.hdr[0].hops, 15);
	inject(t, 14);		/* R2 would make it 16 */
	run(t, IPX_SEC);
	assert_int_equal(inc.n, 1);
	assert_int_equal(s2->drops[IPX_DROP_HOPS], 1);
	inject(t, 15);		/* R1 would make it 16 */
	inject(t, 16);		/* no node takes 16 at all */
	run(t, IPX_SEC);
	assert_int_equal(s1->drops[IPX_DROP_HOPS], 2);
	assert_int_equal(inc.n, 1);
	assert_int_equal(s1->forwarded, 2);
	assert_string_equal(ipx_drop_name(IPX_DROP_HOPS), "hop_limit");
}

static void removed_link_is_withdrawn_at_once(void **state)
{
	struct topo *t = *state;
	struct ipx_route r;
	struct ipx_link *lc = t->r2->links[2 - 1];

	run(t, IPX_SEC);
	assert_int_equal(ipx_node_route_lookup(t->r1->node, NET_C, &r), IPX_OK);
	assert_int_equal(ipx_node_remove_link(t->r2->node, lc), IPX_OK);
	ipx_link_close(lc);
	run(t, IPX_SEC);	/* a triggered update, not the next minute */
	assert_int_equal(ipx_node_route_lookup(t->r1->node, NET_C, &r),
			 IPX_ENOROUTE);
	assert_int_equal(ipx_rip_stats(t->r1->rip)->withdrawn, 1);
	assert_int_equal(ipx_rip_stats(t->r1->rip)->expired, 0);
	/* It does not come back. */
	run(t, 5 * 60 * IPX_SEC);
	assert_int_equal(ipx_node_route_lookup(t->r1->node, NET_C, &r),
			 IPX_ENOROUTE);
}

static void silent_router_routes_expire_after_180s(void **state)
{
	struct topo *t = *state;
	struct ipx_route r;
	struct ipx_link *lb = t->r2->links[0];

	run(t, IPX_SEC);
	/* R2 vanishes from B without a word (its withdrawal cannot reach). */
	assert_int_equal(ipx_node_remove_link(t->r2->node, lb), IPX_OK);
	ipx_link_close(lb);
	run(t, 170 * IPX_SEC);
	assert_int_equal(ipx_node_route_lookup(t->r1->node, NET_C, &r), IPX_OK);
	run(t, 15 * IPX_SEC);
	assert_int_equal(ipx_node_route_lookup(t->r1->node, NET_C, &r),
			 IPX_ENOROUTE);
	assert_int_equal(ipx_rip_stats(t->r1->rip)->expired, 1);
	assert_int_equal(ipx_node_route_count(t->r1->node), 0);
}

static void ticks_win_over_hops(void **state)
{
	struct topo *t = *state;
	struct svcnode *r3 = svcnet_add(t->n, SVC_ROUTER, (int[]){ 0, 2 }, 2);

	/* R3 joins A and C directly (1 hop) but over a slow A link. */
	ipx_node_set_link_ticks(r3->node, r3->links[0], 10);
	run(t, 2 * 60 * IPX_SEC);
	/* hA asks; R1's 2 hops at 2 ticks beat R3's 1 hop at 10 ticks. */
	ipx_rip_request(t->ha->rip, NET_C);
	run(t, IPX_SEC);
	assert_route(t->ha->node, NET_C, 2, 2, t->ha->links[0]);
	assert_memory_equal(ipx_node_route_at(t->ha->node, 0)->via,
			    t->r1->links[0]->node, 6);
	/* Equal ticks: fewer hops win. */
	ipx_node_set_link_ticks(r3->node, r3->links[0], 2);
	run(t, 2 * 60 * IPX_SEC);
	ipx_rip_request(t->ha->rip, NET_C);
	run(t, IPX_SEC);
	assert_route(t->ha->node, NET_C, 1, 2, t->ha->links[0]);
	assert_memory_equal(ipx_node_route_at(t->ha->node, 0)->via,
			    r3->links[0]->node, 6);
}

static void unresolved_sends_time_out_or_fall_back(void **state)
{
	struct topo *t = *state;
	struct ipx_socket *a;
	struct ipx_addr dst = { .net = 0x99, .socket = 0x5000 };
	const struct ipx_node_stats *s = ipx_node_stats(t->ha->node);

	memcpy(dst.node, "\x02\x00\x00\x00\x00\x77", 6);
	run(t, IPX_SEC);
	assert_int_equal(ipx_socket_open(t->ha->node, 0, inbox_collect, NULL,
					 &a), IPX_OK);
	assert_int_equal(ipx_socket_sendto(a, &dst, 0, "x", 1), IPX_OK);
	run(t, 3 * IPX_SEC);
	assert_int_equal(s->drops[IPX_DROP_TX_NOROUTE], 1);
	assert_true(ipx_rip_stats(t->ha->rip)->tx_requests >= 2);
	/* On a segment of unknown number it goes out there in the end. */
	t->ha->links[0]->net = 0;
	assert_int_equal(ipx_socket_sendto(a, &dst, 0, "x", 1), IPX_OK);
	run(t, 3 * IPX_SEC);
	assert_int_equal(s->drops[IPX_DROP_TX_NOROUTE], 1);
	assert_int_equal(s->tx_packets >= 1, 1);
}

static void internal_network_is_advertised_and_reached(void **state)
{
	struct topo *t = *state;
	struct ipx_socket *a, *srv;
	struct inbox in = { 0 }, back = { 0 };
	struct ipx_addr dst;

	assert_int_equal(ipx_node_set_internal_net(t->r2->node, NET_B),
			 IPX_EINUSE);
	assert_int_equal(ipx_node_set_internal_net(t->r2->node, 0x1234),
			 IPX_OK);
	run(t, IPX_SEC);
	assert_route(t->r1->node, 0x1234, 1, 1, t->r1->links[1]);
	assert_int_equal(ipx_socket_open(t->r2->node, 0x451, inbox_collect,
					 &in, &srv), IPX_OK);
	assert_int_equal(ipx_socket_open(t->ha->node, 0, inbox_collect, &back,
					 &a), IPX_OK);
	svcnet_addr(t->r2, 0x451, &dst);
	assert_int_equal(dst.net, 0x1234);
	assert_memory_equal(dst.node, ipx_node_internal, 6);
	assert_int_equal(ipx_socket_sendto(a, &dst, 17, "ncp", 3), IPX_OK);
	run(t, IPX_SEC);
	assert_int_equal(in.n, 1);
	assert_int_equal(in.hdr[0].hops, 1);
	/* The server answers from its internal address. */
	assert_int_equal(ipx_socket_sendto(srv, &in.hdr[0].src, 17, "ok", 2),
			 IPX_OK);
	run(t, IPX_SEC);
	assert_int_equal(back.n, 1);
	assert_int_equal(back.hdr[0].src.net, 0x1234);
}

/* A type-20 broadcast from hA with an empty network list. */
static void netbios_broadcast(struct topo *t, struct ipx_socket *s)
{
	uint8_t payload[40] = { 0 };
	struct ipx_addr all = { .socket = IPX_SOCK_NETBIOS };

	memcpy(all.node, ipx_node_broadcast, 6);
	memcpy(payload + 32, "NBNAME!!", 8);
	(void)t;
	assert_int_equal(ipx_socket_sendto(s, &all, IPX_TYPE_NETBIOS, payload,
					   sizeof(payload)), IPX_OK);
}

static void netbios_type20_is_propagated_with_its_list(void **state)
{
	struct topo *t = *state;
	struct svcnode *hb = svcnet_add(t->n, 0, (int[]){ 1 }, 1);
	struct ipx_socket *sa, *sb, *sc;
	struct inbox inb = { 0 }, inc = { 0 };
	const struct ipx_node_stats *s1 = ipx_node_stats(t->r1->node);
	uint8_t p[80] = { 0 };
	struct ipx_header h = { .checksum = 0xFFFF, .length = 30 + 40,
				.type = IPX_TYPE_NETBIOS };

	run(t, IPX_SEC);
	assert_int_equal(ipx_socket_open(t->ha->node, IPX_SOCK_NETBIOS,
					 inbox_collect, NULL, &sa), IPX_OK);
	assert_int_equal(ipx_socket_open(hb->node, IPX_SOCK_NETBIOS,
					 inbox_collect, &inb, &sb), IPX_OK);
	assert_int_equal(ipx_socket_open(t->hc->node, IPX_SOCK_NETBIOS,
					 inbox_collect, &inc, &sc), IPX_OK);
	netbios_broadcast(t, sa);
	run(t, IPX_SEC);
	assert_int_equal(inb.n, 1);
	assert_int_equal(inb.hdr[0].hops, 1);
	assert_int_equal(ipx_get32(inb.data[0]), NET_A);
	assert_int_equal(ipx_get32(inb.data[0] + 4), 0);
	assert_int_equal(inc.n, 1);
	assert_int_equal(inc.hdr[0].hops, 2);
	assert_int_equal(ipx_get32(inc.data[0]), NET_A);
	assert_int_equal(ipx_get32(inc.data[0] + 4), NET_B);
	assert_memory_equal(inc.data[0] + 32, "NBNAME!!", 8);
	/* R2 sent nothing back onto A or B: both are in the list. */
	assert_int_equal(s1->propagated, 1);
	assert_int_equal(ipx_node_stats(t->r2->node)->propagated, 1);

	/* The loop rule, the 8-network limit and a short packet. */
	memcpy(h.dst.node, ipx_node_broadcast, 6);
	h.dst.socket = IPX_SOCK_NETBIOS;
	memcpy(h.src.node, "\x02\x00\x00\x00\x00\x99", 6);
	h.hops = 2;
	ipx_header_encode(&h, p);
	ipx_put32(p + 30, NET_C);
	ipx_put32(p + 34, NET_B);	/* came through B already */
	ipx_node_input(t->r1->node, t->r1->links[1], p, h.length);
	assert_int_equal(s1->drops[IPX_DROP_NB_LOOP], 1);
	p[4] = 8;
	ipx_node_input(t->r1->node, t->r1->links[1], p, h.length);
	assert_int_equal(s1->drops[IPX_DROP_NB_HOPS], 1);
	p[4] = 0;
	ipx_put16(p + 2, 30 + 20);
	ipx_node_input(t->r1->node, t->r1->links[1], p, 30 + 20);
	assert_int_equal(s1->drops[IPX_DROP_NB_SHORT], 1);
	assert_int_equal(s1->propagated, 1);
	/* Each was still delivered on B's side of R1 (no socket there). */
	assert_int_equal(s1->drops[IPX_DROP_NO_SOCKET] >= 3, 1);
}

/* hA's address on A as another node of A writes it, socket 0x5000. */
static void real_address(const struct svcnode *sn, uint32_t net,
			 struct ipx_addr *out)
{
	memset(out, 0, sizeof(*out));
	out->net = net;
	memcpy(out->node, sn->links[0]->node, IPX_NODE_LEN);
	out->socket = 0x5000;
}

static void own_network_number_goes_straight_to_the_node(void **state)
{
	struct topo *t = *state;
	struct svcnode *hb = svcnet_add(t->n, 0, (int[]){ 0 }, 1);
	struct ipx_socket *a, *b;
	struct inbox ina = { 0 }, inb = { 0 };
	struct ipx_addr dst;
	uint64_t asked;

	run(t, IPX_SEC);
	/* Neither knows the number of A, as on a DOSBox hub. */
	t->ha->links[0]->net = 0;
	hb->links[0]->net = 0;
	assert_int_equal(ipx_socket_open(t->ha->node, 0x5000, inbox_collect,
					 &ina, &a), IPX_OK);
	assert_int_equal(ipx_socket_open(hb->node, 0x5000, inbox_collect,
					 &inb, &b), IPX_OK);
	real_address(hb, NET_A, &dst);
	assert_int_equal(ipx_socket_sendto(a, &dst, IPX_TYPE_PEP, "hi", 2),
			 IPX_OK);
	/* R1 answers for A itself: one round trip, not 1.5 s of asking. */
	run(t, 50 * IPX_MSEC);
	assert_int_equal(inb.n, 1);
	assert_int_equal(inb.hdr[0].hops, 0);
	assert_int_equal(inb.hdr[0].src.net, NET_A);
	assert_int_equal(t->ha->links[0]->net, NET_A);
	assert_int_equal(ipx_node_stats(t->ha->node)->net_learned, 1);
	assert_int_equal(ipx_node_stats(t->ha->node)->resolved, 1);
	assert_int_equal(ipx_node_stats(t->r1->node)->forwarded, 0);
	assert_int_equal(ipx_node_route_count(t->ha->node), 0);
	/* The answer to the number hA gave: hB learns it the same way. */
	assert_int_equal(ipx_socket_sendto(b, &inb.hdr[0].src, IPX_TYPE_PEP,
					   "yo", 2), IPX_OK);
	run(t, 50 * IPX_MSEC);
	assert_int_equal(ina.n, 1);
	assert_int_equal(ina.hdr[0].src.net, NET_A);
	assert_int_equal(hb->links[0]->net, NET_A);
	/* Known now: no more asking, delivered on the next turn. */
	asked = ipx_rip_stats(t->ha->rip)->tx_requests;
	assert_int_equal(ipx_socket_sendto(a, &dst, IPX_TYPE_PEP, "hi", 2),
			 IPX_OK);
	run(t, IPX_MSEC);
	assert_int_equal(inb.n, 2);
	assert_int_equal(ipx_rip_stats(t->ha->rip)->tx_requests, asked);
	assert_int_equal(ipx_rip_stats(t->r1->rip)->drops[IPX_RIP_DROP_TX], 0);
}

static void a_node_learns_its_number_from_what_routers_send(void **state)
{
	struct topo *t = *state;
	struct ipx_socket *a, *c;
	struct inbox inc = { 0 };
	struct ipx_addr dst;
	uint64_t asked;

	run(t, IPX_SEC);
	t->ha->links[0]->net = 0;
	t->hc->links[0]->net = 0;
	assert_int_equal(ipx_socket_open(t->ha->node, 0, inbox_collect, NULL,
					 &a), IPX_OK);
	assert_int_equal(ipx_socket_open(t->hc->node, 0x5000, inbox_collect,
					 &inc, &c), IPX_OK);
	/* A packet R2 forwarded tells hC the number it was sent to. */
	real_address(t->hc, NET_C, &dst);
	assert_int_equal(ipx_socket_sendto(a, &dst, IPX_TYPE_PEP, "x", 1),
			 IPX_OK);
	run(t, IPX_SEC);
	assert_int_equal(inc.n, 1);
	assert_int_equal(inc.hdr[0].hops, 2);
	assert_int_equal(t->hc->links[0]->net, NET_C);
	assert_int_equal(ipx_node_stats(t->hc->node)->net_learned, 1);
	assert_int_equal(ipx_rip_stats(t->hc->rip)->tx_requests, 0);
	/* A node that says nothing learns it from R1's next broadcast. */
	t->ha->links[0]->net = 0;
	asked = ipx_rip_stats(t->ha->rip)->tx_requests;
	run(t, 61 * IPX_SEC);
	assert_int_equal(t->ha->links[0]->net, NET_A);
	assert_int_equal(ipx_rip_stats(t->ha->rip)->tx_requests, asked);
	/* Not from a router's internal address: that is no segment's. */
	{
		uint8_t p[IPX_HDR_LEN + 10];
		struct ipx_header h = { .checksum = 0xFFFF, .length = sizeof(p),
					.type = IPX_TYPE_RIP };

		t->ha->links[0]->net = 0;
		h.dst.net = 0;
		memcpy(h.dst.node, t->ha->links[0]->node, 6);
		h.dst.socket = 0x4000;
		h.src.net = 0xC0FFEE;
		memcpy(h.src.node, ipx_node_internal, 6);
		h.src.socket = IPX_SOCK_RIP;
		ipx_header_encode(&h, p);
		memcpy(p + IPX_HDR_LEN,
		       "\x00\x02\x00\xC0\xFF\xEE\x00\x01\x00\x01", 10);
		ipx_node_input(t->ha->node, t->ha->links[0], p, sizeof(p));
		assert_int_equal(t->ha->links[0]->net, 0);
		run(t, 61 * IPX_SEC);	/* R1's broadcast again */
		assert_int_equal(t->ha->links[0]->net, NET_A);
	}
	/* What it learns is refused when the link has a number already. */
	assert_int_equal(ipx_node_set_link_net(t->ha->node, t->ha->links[0],
					       NET_B), IPX_EINUSE);
	assert_int_equal(ipx_node_set_link_net(t->ha->node, t->ha->links[0],
					       0), IPX_EINVAL);
	assert_int_equal(t->ha->links[0]->net, NET_A);
}

static void first_router_fills_in_an_unknown_source_network(void **state)
{
	struct topo *t = *state;
	struct ipx_socket *sa, *sc;
	struct inbox ina = { 0 }, inc = { 0 };
	uint8_t p[40] = { 0 };
	struct ipx_header h = { .checksum = 0, .length = 40,
				.type = IPX_TYPE_PEP };

	run(t, IPX_SEC);
	t->ha->links[0]->net = 0;
	assert_int_equal(ipx_socket_open(t->ha->node, IPX_SOCK_NETBIOS,
					 inbox_collect, &ina, &sa), IPX_OK);
	assert_int_equal(ipx_socket_open(t->hc->node, IPX_SOCK_NETBIOS,
					 inbox_collect, &inc, &sc), IPX_OK);
	/* A NetBIOS find from a node that does not know its number... */
	netbios_broadcast(t, sa);
	run(t, IPX_SEC);
	assert_int_equal(inc.n, 1);
	assert_int_equal(inc.hdr[0].src.net, NET_A);
	/* ...can be answered across both routers. */
	assert_int_equal(ipx_socket_sendto(sc, &inc.hdr[0].src, IPX_TYPE_PEP,
					   "found", 5), IPX_OK);
	run(t, IPX_SEC);
	assert_int_equal(ina.n, 2);	/* its own broadcast looped first */
	assert_int_equal(ina.hdr[1].hops, 2);
	assert_memory_equal(ina.data[1], "found", 5);
	/* A forwarded unicast too, its real checksum made again. */
	svcnet_addr(t->hc, IPX_SOCK_NETBIOS, &h.dst);
	memcpy(h.src.node, "\x02\x00\x00\x00\x00\x99", 6);
	h.src.socket = 0x4000;
	ipx_header_encode(&h, p);
	ipx_put16(p, ipx_checksum(p, sizeof(p)));
	ipx_node_input(t->r1->node, t->r1->links[0], p, sizeof(p));
	run(t, IPX_SEC);
	assert_int_equal(inc.n, 2);
	assert_int_equal(inc.hdr[1].src.net, NET_A);
	assert_int_equal(ipx_node_stats(t->hc->node)->drops[IPX_DROP_CHECKSUM],
			 0);
}

/* Responses the end node's agent is told of. */
struct told {
	int n;
	struct ipx_header hdr;
	struct ipx_rip_msg msg;
};

static void tell(const struct ipx_header *hdr, const struct ipx_rip_msg *msg,
		 void *ctx)
{
	struct told *t = ctx;

	t->n++;
	t->hdr = *hdr;
	t->msg = *msg;
}

static void a_far_router_answers_but_is_not_a_next_hop(void **state)
{
	struct topo *t = *state;
	struct told told = { 0 };
	struct ipx_addr far = { .net = NET_C, .socket = IPX_SOCK_RIP };
	struct ipx_route r;

	run(t, IPX_SEC);
	ipx_rip_on_response(t->ha->rip, tell, &told);
	memcpy(far.node, t->r2->links[1]->node, 6);
	/* `routes 0000000C:R2`: asked across R1, answered across R1. */
	assert_int_equal(ipx_rip_request_to(t->ha->rip, &far, IPX_RIP_ALL_NETS),
			 IPX_OK);
	run(t, IPX_SEC);
	assert_true(told.n >= 1);
	assert_int_equal(told.hdr.hops, 1);
	/* (From its address on B, the network it answers out of.) */
	assert_int_equal(told.hdr.src.net, NET_B);
	assert_memory_equal(told.hdr.src.node, t->r2->links[0]->node, 6);
	assert_int_equal(told.msg.entries[0].net, NET_C);
	/* R2 said C is one hop from it; the route still goes through R1. */
	assert_int_equal(ipx_node_route_lookup(t->ha->node, NET_C, &r), IPX_OK);
	assert_int_equal(r.hops, 2);
	assert_memory_equal(r.via, t->r1->links[0]->node, 6);
	assert_int_equal(
		ipx_rip_stats(t->ha->rip)->drops[IPX_RIP_DROP_NOT_NEIGHBOUR], 0);
}

static void reply_re(struct ipx_socket *s, const struct ipx_header *h,
		     const uint8_t *data, size_t len, void *ctx)
{
	(void)data;
	(void)len;
	(void)ctx;
	assert_int_equal(ipx_socket_reply(s, h, IPX_TYPE_PEP, "re", 2), IPX_OK);
}

static void a_routed_packet_is_answered_through_the_routers(void **state)
{
	struct topo *t = *state;
	struct ipx_socket *a, *c;
	struct inbox ina = { 0 };
	struct ipx_addr to = { .net = 0, .socket = 0x5000 };
	struct ipx_addr from = { .net = NET_A, .socket = 0x4000 };
	uint8_t p[32] = { 0 };
	struct ipx_header h = { .checksum = 0xFFFF, .length = 32, .hops = 2,
				.type = IPX_TYPE_PEP };

	run(t, IPX_SEC);
	t->hc->links[0]->net = 0;
	assert_int_equal(ipx_socket_open(t->ha->node, 0x4000, inbox_collect,
					 &ina, &a), IPX_OK);
	assert_int_equal(ipx_socket_open(t->hc->node, 0x5000, reply_re, NULL,
					 &c), IPX_OK);
	/* Routed to hC as "this network" (it tells hC nothing): hA is not on
	 * hC's segment, so the answer must go through the routers. */
	memcpy(to.node, t->hc->links[0]->node, 6);
	memcpy(from.node, t->ha->links[0]->node, 6);
	h.dst = to;
	h.src = from;
	ipx_header_encode(&h, p);
	ipx_node_input(t->hc->node, t->hc->links[0], p, sizeof(p));
	run(t, IPX_SEC);
	assert_int_equal(ina.n, 1);
	assert_int_equal(ina.hdr[0].hops, 2);
	assert_memory_equal(ina.data[0], "re", 2);
}

static void rip_codec_and_bad_packets(void **state)
{
	struct topo *t = *state;
	struct ipx_rip_msg m = { .op = IPX_RIP_RESPONSE, .count = 2 }, d;
	enum ipx_rip_drop why;
	uint8_t buf[IPX_RIP_MAX_LEN + 16];
	struct ipx_socket *s;
	struct ipx_addr to;
	size_t n;

	m.entries[0] = (struct ipx_rip_entry){ 0x11223344, 3, 7 };
	m.entries[1] = (struct ipx_rip_entry){ 0xAABB, 16, 1 };
	n = ipx_rip_encode(&m, buf, sizeof(buf));
	assert_int_equal(n, 18);
	assert_int_equal(ipx_rip_decode(buf, n, &d, &why), IPX_OK);
	assert_int_equal(d.count, 2);
	assert_int_equal(d.entries[0].net, 0x11223344);
	assert_int_equal(d.entries[1].hops, 16);
	assert_int_equal(ipx_rip_decode(buf, 1, &d, &why), IPX_EINVAL);
	assert_int_equal(why, IPX_RIP_DROP_SHORT);
	assert_int_equal(ipx_rip_decode(buf, 17, &d, &why), IPX_EINVAL);
	assert_int_equal(why, IPX_RIP_DROP_BAD_LENGTH);
	assert_int_equal(ipx_rip_decode(buf, 2, &d, &why), IPX_EINVAL);
	assert_int_equal(why, IPX_RIP_DROP_EMPTY);
	buf[1] = 3;
	assert_int_equal(ipx_rip_decode(buf, n, &d, &why), IPX_EINVAL);
	assert_int_equal(why, IPX_RIP_DROP_BAD_OP);
	memset(buf, 0, sizeof(buf));
	buf[1] = 2;
	assert_int_equal(ipx_rip_decode(buf, 2 + 51 * 8, &d, &why), IPX_EINVAL);
	assert_int_equal(why, IPX_RIP_DROP_TOO_MANY);
	m.count = 51;
	assert_int_equal(ipx_rip_encode(&m, buf, sizeof(buf)), 0);

	/* On the wire: R1 counts each bad packet by name. */
	run(t, IPX_SEC);
	assert_int_equal(ipx_socket_open(t->ha->node, 0x4444, inbox_collect,
					 NULL, &s), IPX_OK);
	svcnet_addr(t->r1, IPX_SOCK_RIP, &to);
	memcpy(to.node, t->r1->links[0]->node, 6);
	to.net = NET_A;
	ipx_socket_sendto(s, &to, IPX_TYPE_RIP, "\x00", 1);
	ipx_socket_sendto(s, &to, IPX_TYPE_RIP, "\x00\x09\x00", 3);
	ipx_socket_sendto(s, &to, IPX_TYPE_RIP, "\x00\x02\x00\x00\x00\x00"
						"\x00\x01\x00\x01", 10);
	run(t, IPX_SEC);
	assert_int_equal(ipx_rip_stats(t->r1->rip)->drops[IPX_RIP_DROP_SHORT], 1);
	assert_int_equal(ipx_rip_stats(t->r1->rip)->drops[IPX_RIP_DROP_BAD_OP], 1);
	assert_int_equal(
		ipx_rip_stats(t->r1->rip)->drops[IPX_RIP_DROP_BAD_ENTRY], 1);
	assert_string_equal(ipx_rip_drop_name(IPX_RIP_DROP_NOT_NEIGHBOUR),
			    "not_neighbour");
}

static void full_table_spans_packets_of_50(void **state)
{
	struct topo *t = *state;
	struct ipx_route r = { .hops = 1, .ticks = 1 };
	struct ipx_socket *s;
	struct ipx_addr to;
	uint64_t before;

	run(t, IPX_SEC);
	/* 60 routes that R2 pretends to have learned on C. */
	r.link = t->r2->links[1];
	memcpy(r.via, "\x02\x00\x00\x00\x00\x55", 6);
	r.updated = ipx_loop_now(t->n->loop);
	for (uint32_t i = 0; i < 60; i++) {
		r.net = 0x1000 + i;
		assert_int_equal(ipx_node_route_set(t->r2->node, &r), IPX_OK);
	}
	run(t, IPX_SEC);
	assert_int_equal(ipx_node_route_count(t->r1->node), 61);
	/* A general request answered in two packets (50 + 12). */
	assert_int_equal(ipx_socket_open(t->ha->node, 0x4444, inbox_collect,
					 NULL, &s), IPX_OK);
	before = ipx_rip_stats(t->r1->rip)->tx_responses;
	to.net = NET_A;
	memcpy(to.node, t->r1->links[0]->node, 6);
	to.socket = IPX_SOCK_RIP;
	ipx_rip_request_to(t->ha->rip, &to, IPX_RIP_ALL_NETS);
	run(t, IPX_SEC);
	assert_int_equal(ipx_rip_stats(t->r1->rip)->tx_responses - before, 2);
	assert_true(ipx_node_route_count(t->ha->node) >= 62);
	(void)s;
}

/* `ipxlab routes`: the table as a router prints it (attached networks,
 * learned ones with their next hop and age), then its counters. */
static void the_printed_table(void **state)
{
	struct topo *t = *state;
	char *text = NULL, want[512], hop[13];
	size_t len = 0;
	struct ipx_route r;
	FILE *f;

	run(t, IPX_SEC);
	run(t, 30 * IPX_SEC);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	ipx_rip_print(t->r1->rip, f);
	fclose(f);
	/* C was learned from R2 at 0 s and is 31 s old (the next periodic
	 * broadcast is at 60 s). */
	assert_int_equal(ipx_node_route_lookup(t->r1->node, NET_C, &r), IPX_OK);
	snprintf(want, sizeof(want),
		 "routes 3\n"
		 "network  hops ticks  next hop     link     age\n"
		 "0000000A    0     0  attached     0 (mem)  -\n"
		 "0000000B    0     0  attached     1 (mem)  -\n"
		 "0000000C    1     1  %-12s 1 (mem)  31 s\n"
		 "rip_rx_requests ", ipx_node_format(r.via, hop));
	if (strncmp(text, want, strlen(want)))
		fail_msg("got:\n%s\nwant:\n%s", text, want);
	assert_non_null(strstr(text, "\nrip_learned 1\n"));
	assert_non_null(strstr(text, "\nrip_withdrawn 0\n"));
	assert_non_null(strstr(text, "\nrip_drop_not_router 0\n"));
	free(text);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(three_networks_converge),
		T(datagram_crosses_two_routers_with_hops_raised),
		T(packet_at_the_hop_limit_is_dropped_and_counted),
		T(removed_link_is_withdrawn_at_once),
		T(silent_router_routes_expire_after_180s),
		T(ticks_win_over_hops),
		T(unresolved_sends_time_out_or_fall_back),
		T(internal_network_is_advertised_and_reached),
		T(netbios_type20_is_propagated_with_its_list),
		T(own_network_number_goes_straight_to_the_node),
		T(a_node_learns_its_number_from_what_routers_send),
		T(first_router_fills_in_an_unknown_source_network),
		T(a_far_router_answers_but_is_not_a_next_hop),
		T(a_routed_packet_is_answered_through_the_routers),
		T(rip_codec_and_bad_packets),
		T(full_table_spans_packets_of_50),
		T(the_printed_table),
	};
#undef T
	return cmocka_run_group_tests(tests, NULL, NULL);
}
