/*
 * test_rip_rules.c - the RIP and forwarding rules that other rules could
 * hide, each in a set-up where only that rule decides: split horizon seen
 * on the wire, a route 15 hops away advertised as 15, route lookup skipping a link that is down, no packet sent
 * back out the link it came in on, the expiry timer following the earliest
 * of several routes, an equal copy from a second router not replacing the
 * first, and the response counter. Routers X and Y are made up: their
 * responses are fed to the router under test as if its link heard them.
 */
#include "cm.h"

#include <stdlib.h>
#include <string.h>

#include "ipxlab/err.h"
#include "svcnet.h"

enum { NET_A = 0xA, NET_B = 0xB, NET_C = 0xC };

static const uint8_t node_x[6] = { 2, 0, 0, 0, 0x58, 2 };
static const uint8_t node_y[6] = { 2, 0, 0, 0, 0x59, 2 };

static void run(struct svcnet *n, ipx_time d)
{
	assert_int_equal(ipx_loop_run_for(n->loop, d), IPX_OK);
}

/* Router 'from' on r's link li says: net at hops/ticks. */
static void says(struct svcnode *r, size_t li, const uint8_t from[6],
		 uint32_t net, uint16_t hops, uint16_t ticks)
{
	struct ipx_rip_msg m = { .op = IPX_RIP_RESPONSE, .count = 1 };
	uint8_t p[IPX_RIP_MAX_LEN];
	size_t len;

	m.entries[0].net = net;
	m.entries[0].hops = hops;
	m.entries[0].ticks = ticks;
	len = ipx_rip_encode(&m, p, sizeof(p));
	assert_int_not_equal(len, 0);
	svcnet_inject(r, li, from, IPX_SOCK_RIP, NULL, IPX_TYPE_RIP, 0, p, len);
}

/* R alone on A (link 0) and B (link 1). */
static struct svcnet *one_router(struct svcnode **r)
{
	static const uint32_t nets[] = { NET_A, NET_B };
	struct svcnet *n = svcnet_new(2, nets);

	*r = svcnet_add(n, SVC_ROUTER, (int[]){ 0, 1 }, 2);
	run(n, IPX_SEC);
	return n;
}

static bool has_route(struct svcnode *r, uint32_t net)
{
	struct ipx_route route;

	return ipx_node_route_lookup(r->node, net, &route) == IPX_OK;
}

/* ---- split horizon, seen on B ---- */

struct heard {
	const uint8_t *r1, *r2;		/* the routers' nodes on B */
	unsigned r1_a, r1_c, r2_a, r2_c;	/* entries for A, C from each */
};

static void listen_rip(struct ipx_socket *s, const struct ipx_header *h,
		       const uint8_t *data, size_t len, void *ctx)
{
	struct heard *hd = ctx;
	struct ipx_rip_msg m;
	bool r1 = ipx_node_eq(h->src.node, hd->r1);
	bool r2 = ipx_node_eq(h->src.node, hd->r2);

	(void)s;
	if (ipx_rip_decode(data, len, &m, NULL) != IPX_OK ||
	    m.op != IPX_RIP_RESPONSE)
		return;
	for (size_t i = 0; i < m.count; i++) {
		if (m.entries[i].hops >= IPX_RIP_UNREACHABLE)
			continue;
		hd->r1_a += r1 && m.entries[i].net == NET_A;
		hd->r1_c += r1 && m.entries[i].net == NET_C;
		hd->r2_a += r2 && m.entries[i].net == NET_A;
		hd->r2_c += r2 && m.entries[i].net == NET_C;
	}
}

static void split_horizon_keeps_a_route_off_its_own_link(void **state)
{
	static const uint32_t nets[] = { NET_A, NET_B, NET_C };
	struct svcnet *n = svcnet_new(3, nets);
	struct svcnode *r1 = svcnet_add(n, SVC_ROUTER, (int[]){ 0, 1 }, 2);
	struct svcnode *r2 = svcnet_add(n, SVC_ROUTER, (int[]){ 1, 2 }, 2);
	struct svcnode *hb = svcnet_add(n, 0, (int[]){ 1 }, 1);
	struct heard hd = { .r1 = r1->links[1]->node,
			    .r2 = r2->links[0]->node };
	struct ipx_socket *s;

	(void)state;
	/* hB's RIP agent keeps no socket: 0x453 is free to listen on. */
	assert_int_equal(ipx_socket_open(hb->node, IPX_SOCK_RIP, listen_rip,
					 &hd, &s), IPX_OK);
	run(n, 3 * 60 * IPX_SEC + IPX_SEC);
	/* Each tells B of its far network, start-up, triggered, periodic... */
	assert_true(hd.r1_a >= 3);
	assert_true(hd.r2_c >= 3);
	/* ...and never of the one it learned on B. The other router would
	 * ignore it anyway (its own network): only the wire shows this. */
	assert_int_equal(hd.r1_c, 0);
	assert_int_equal(hd.r2_a, 0);
	assert_true(has_route(r1, NET_C));
	svcnet_free(n);
}

/* ---- the hop limit, seen on B ---- */

struct far {
	unsigned n40, n40_at_15, n40_unreachable;	/* 0x40: 14 hops from R */
	unsigned n41_reachable;				/* 0x41: 15 hops from R */
};

static void listen_far(struct ipx_socket *s, const struct ipx_header *h,
		       const uint8_t *data, size_t len, void *ctx)
{
	struct far *f = ctx;
	struct ipx_rip_msg m;

	(void)s;
	(void)h;
	if (ipx_rip_decode(data, len, &m, NULL) != IPX_OK ||
	    m.op != IPX_RIP_RESPONSE)
		return;
	for (size_t i = 0; i < m.count; i++) {
		if (m.entries[i].net == 0x40) {
			f->n40++;
			f->n40_at_15 += m.entries[i].hops == 15;
			f->n40_unreachable +=
				m.entries[i].hops >= IPX_RIP_UNREACHABLE;
		}
		if (m.entries[i].net == 0x41)
			f->n41_reachable +=
				m.entries[i].hops < IPX_RIP_UNREACHABLE;
	}
}

/* A route R holds at 14 hops is 15 hops from a node on B: R says so, as
 * 15 (the farthest reachable), in its triggered update, its periodic
 * broadcasts and its answer to a request; one R holds at 15 would be 16
 * from there and is never said as reachable. */
static void a_route_15_hops_away_is_advertised_as_15(void **state)
{
	static const uint32_t nets[] = { NET_A, NET_B };
	struct svcnet *n = svcnet_new(2, nets);
	struct svcnode *r = svcnet_add(n, SVC_ROUTER, (int[]){ 0, 1 }, 2);
	struct svcnode *hb = svcnet_add(n, 0, (int[]){ 1 }, 1);
	struct ipx_rip_msg req = { .op = IPX_RIP_REQUEST, .count = 1 };
	struct ipx_addr bcast = { .net = NET_B, .socket = IPX_SOCK_RIP };
	uint8_t p[IPX_RIP_MAX_LEN];
	struct far f = { 0 };
	struct ipx_socket *s;
	unsigned before;
	size_t len;

	(void)state;
	assert_int_equal(ipx_socket_open(hb->node, IPX_SOCK_RIP, listen_far,
					 &f, &s), IPX_OK);
	run(n, IPX_SEC);
	says(r, 0, node_x, 0x40, 14, 20);
	says(r, 0, node_x, 0x41, 15, 21);
	assert_true(has_route(r, 0x40));
	run(n, IPX_SEC);
	assert_true(f.n40 >= 1);	/* the triggered update */
	run(n, 61 * IPX_SEC);
	assert_true(f.n40 >= 2);	/* and the periodic one */
	before = f.n40;
	req.entries[0].net = IPX_RIP_ALL_NETS;
	len = ipx_rip_encode(&req, p, sizeof(p));
	memset(bcast.node, 0xFF, 6);
	assert_int_equal(ipx_socket_sendto(s, &bcast, IPX_TYPE_RIP, p, len),
			 IPX_OK);
	run(n, IPX_SEC);
	assert_true(f.n40 > before);	/* the answer */
	assert_int_equal(f.n40_at_15, f.n40);
	assert_int_equal(f.n40_unreachable, 0);
	assert_int_equal(f.n41_reachable, 0);
	svcnet_free(n);
}

/* ---- lookup, forwarding ---- */

static void lookup_skips_links_that_are_down(void **state)
{
	struct svcnode *r;
	struct svcnet *n = one_router(&r);
	struct ipx_route route;

	(void)state;
	says(r, 1, node_x, 0x40, 1, 1);
	assert_int_equal(ipx_node_route_lookup(r->node, 0x40, &route), IPX_OK);
	assert_ptr_equal(route.link, r->links[1]);
	r->links[1]->up = false;
	assert_int_equal(ipx_node_route_lookup(r->node, 0x40, &route),
			 IPX_ENOROUTE);
	assert_int_equal(ipx_node_route_lookup(r->node, NET_B, &route),
			 IPX_ENOROUTE);
	assert_int_equal(ipx_node_route_lookup(r->node, NET_A, &route), IPX_OK);
	r->links[1]->up = true;
	assert_int_equal(ipx_node_route_lookup(r->node, 0x40, &route), IPX_OK);
	assert_int_equal(ipx_node_route_lookup(r->node, NET_B, &route), IPX_OK);
	svcnet_free(n);
}

static void nothing_goes_back_out_the_link_it_came_in_on(void **state)
{
	struct svcnode *r;
	struct svcnet *n = one_router(&r);
	const struct ipx_node_stats *st = ipx_node_stats(r->node);
	struct ipx_addr to = { .net = 0x40, .socket = 0x5000 };
	static const uint8_t host[6] = { 2, 0, 0, 0, 0x77, 2 };

	(void)state;
	memcpy(to.node, host, 6);
	says(r, 1, node_x, 0x40, 1, 1);	/* 0x40 is out link B, via X */
	run(n, IPX_SEC);
	/* From A it is forwarded to X... */
	svcnet_inject(r, 0, host, 0x4000, &to, IPX_TYPE_PEP, 0, "ab", 2);
	assert_int_equal(st->forwarded, 1);
	/* ...from B itself, X was there to take it: dropped, counted. */
	svcnet_inject(r, 1, host, 0x4000, &to, IPX_TYPE_PEP, 0, "ab", 2);
	assert_int_equal(st->forwarded, 1);
	assert_int_equal(st->drops[IPX_DROP_SAME_LINK], 1);
	assert_int_equal(st->drops[IPX_DROP_NO_ROUTE], 0);
	svcnet_free(n);
}

/* ---- the table ---- */

static void expiry_follows_the_earliest_of_several_routes(void **state)
{
	struct svcnode *r;
	struct svcnet *n = one_router(&r);
	const struct ipx_rip_stats *rs = ipx_rip_stats(r->rip);

	(void)state;
	/* The oldest route is neither first nor last in network order. */
	says(r, 1, node_x, 0x20, 1, 1);
	run(n, 100 * IPX_SEC);
	says(r, 1, node_x, 0x10, 1, 1);
	says(r, 1, node_y, 0x30, 1, 1);
	assert_int_equal(rs->rx_responses, 3);
	run(n, 81 * IPX_SEC);		/* 0x20 is 181 s old */
	assert_false(has_route(r, 0x20));
	assert_true(has_route(r, 0x10));
	assert_true(has_route(r, 0x30));
	assert_int_equal(rs->expired, 1);
	run(n, 100 * IPX_SEC);		/* the others 181 s */
	assert_false(has_route(r, 0x10));
	assert_false(has_route(r, 0x30));
	assert_int_equal(rs->expired, 3);
	assert_int_equal(ipx_node_route_count(r->node), 0);
	svcnet_free(n);
}

static void an_equal_copy_from_a_second_router_changes_nothing(void **state)
{
	struct svcnode *r;
	struct svcnet *n = one_router(&r);
	const struct ipx_rip_stats *rs = ipx_rip_stats(r->rip);
	struct ipx_route route;

	(void)state;
	says(r, 1, node_x, 0x40, 2, 3);
	says(r, 1, node_y, 0x40, 2, 3);
	assert_int_equal(ipx_node_route_lookup(r->node, 0x40, &route), IPX_OK);
	assert_memory_equal(route.via, node_x, 6);
	assert_int_equal(rs->learned, 1);
	/* Both keep saying it for minutes: still X. */
	run(n, 150 * IPX_SEC);
	says(r, 1, node_x, 0x40, 2, 3);
	says(r, 1, node_y, 0x40, 2, 3);
	run(n, 150 * IPX_SEC);
	assert_int_equal(ipx_node_route_lookup(r->node, 0x40, &route), IPX_OK);
	assert_memory_equal(route.via, node_x, 6);
	/* A better one does replace it. */
	says(r, 1, node_y, 0x40, 2, 2);
	assert_int_equal(ipx_node_route_lookup(r->node, 0x40, &route), IPX_OK);
	assert_memory_equal(route.via, node_y, 6);
	assert_int_equal(rs->learned, 2);
	assert_int_equal(rs->rx_responses, 5);
	svcnet_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(split_horizon_keeps_a_route_off_its_own_link),
		cmocka_unit_test(a_route_15_hops_away_is_advertised_as_15),
		cmocka_unit_test(lookup_skips_links_that_are_down),
		cmocka_unit_test(nothing_goes_back_out_the_link_it_came_in_on),
		cmocka_unit_test(expiry_follows_the_earliest_of_several_routes),
		cmocka_unit_test(an_equal_copy_from_a_second_router_changes_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
