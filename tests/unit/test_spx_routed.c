/*
 * test_spx_routed.c - SPX connections addressed by real network numbers
 * on in-memory segments with the fake clock: to a node of one's own
 * network (delivered straight, not through the router), across a router
 * both ways, and a connection that outlives its nodes' learning their
 * network number. The hosts start not knowing it, as on a DOSBox hub.
 */
#include "cm.h"

#include <stdlib.h>
#include <string.h>

#include "ipxlab/err.h"
#include "ipxlab/spx.h"
#include "svcnet.h"

enum { NET_A = 0xA, NET_B = 0xB, SOCK = 0x5100, BYTES = 20000 };

/* hA and hA2 on A, R1 on A+B, hB on B; SPX on each host. */
struct rig {
	struct svcnet *n;
	struct svcnode *ha, *ha2, *hb, *r1;
	struct spx *sa, *sa2, *sb;
};

/* One end of a connection and what it received. */
struct end {
	struct spx_conn *c;
	int connected;		/* 1 ok, -1 failed */
	size_t got;
	uint8_t buf[BYTES];
};

static void on_connected(struct spx_conn *c, int status, void *ctx)
{
	(void)c;
	((struct end *)ctx)->connected = status == IPX_OK ? 1 : -1;
}

static void on_data(struct spx_conn *c, const uint8_t *data, size_t len,
		    unsigned flags, uint8_t ds, void *ctx)
{
	struct end *e = ctx;

	(void)c;
	(void)flags;
	(void)ds;
	if (e->got + len <= sizeof(e->buf))
		memcpy(e->buf + e->got, data, len);
	e->got += len;
}

static const struct spx_handlers handlers = { .on_connected = on_connected,
					      .on_data = on_data };

static void on_accept(struct spx_listener *l, struct spx_conn *c, void *ctx)
{
	struct end *e = ctx;

	(void)l;
	e->c = c;
	e->connected = 1;
	spx_set_handlers(c, &handlers, e);
}

static bool connected(void *ctx)
{
	return ((struct end *)ctx)->connected != 0;
}

static int setup(void **state)
{
	static const uint32_t nets[] = { NET_A, NET_B };
	struct rig *r = calloc(1, sizeof(*r));

	r->n = svcnet_new(2, nets);
	r->ha = svcnet_add(r->n, 0, (int[]){ 0 }, 1);
	r->ha2 = svcnet_add(r->n, 0, (int[]){ 0 }, 1);
	r->r1 = svcnet_add(r->n, SVC_ROUTER, (int[]){ 0, 1 }, 2);
	r->hb = svcnet_add(r->n, 0, (int[]){ 1 }, 1);
	r->sa = spx_new(r->ha->node, NULL);
	r->sa2 = spx_new(r->ha2->node, NULL);
	r->sb = spx_new(r->hb->node, NULL);
	assert_int_equal(ipx_loop_run_for(r->n->loop, IPX_SEC), IPX_OK);
	r->ha->links[0]->net = 0;
	r->ha2->links[0]->net = 0;
	r->hb->links[0]->net = 0;
	*state = r;
	return 0;
}

static int teardown(void **state)
{
	struct rig *r = *state;

	spx_free(r->sa);
	spx_free(r->sa2);
	spx_free(r->sb);
	svcnet_free(r->n);
	free(r);
	return 0;
}

/* 'from' connects to 'to' (listening on SOCK) at network 'net', connected
 * within 'limit'. */
static void connect_to(struct rig *r, struct spx *from, struct spx *to,
		       struct svcnode *to_node, uint32_t net, struct end *c,
		       struct end *l, ipx_time limit)
{
	struct spx_listener *lis;
	struct ipx_addr dst = { .net = net, .socket = SOCK };

	memcpy(dst.node, to_node->links[0]->node, IPX_NODE_LEN);
	assert_int_equal(spx_listen(to, SOCK, on_accept, l, &lis), IPX_OK);
	assert_int_equal(spx_connect(from, &dst, &handlers, c, &c->c), IPX_OK);
	ipx_loop_run_until(r->n->loop, connected, c, limit);
	assert_int_equal(c->connected, 1);
	assert_int_equal(l->connected, 1);
	/* The listener stays: its socket carries the connection. */
}

/* BYTES of a pattern from 'a' to 'b', all delivered within 10 s. */
static void transfer(struct rig *r, struct end *a, struct end *b, uint8_t seed)
{
	uint8_t data[BYTES];
	size_t sent = 0;

	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 13 + seed);
	b->got = 0;
	for (int turns = 0; turns < 10000 && b->got < sizeof(data); turns++) {
		while (sent < sizeof(data)) {
			size_t n = sizeof(data) - sent;

			if (n > 500)
				n = 500;

			if (spx_send(a->c, data + sent, n, 0, 0) != IPX_OK)
				break;
			sent += n;
		}
		ipx_loop_run_for(r->n->loop, IPX_MSEC);
	}
	assert_int_equal(b->got, sizeof(data));
	assert_memory_equal(b->buf, data, sizeof(data));
}

static void own_network_number_connects_straight(void **state)
{
	struct rig *r = *state;
	struct end *c = calloc(1, sizeof(*c)), *l = calloc(1, sizeof(*l));
	struct spx_status st;

	/* At once, not after a time-out: R1 tells hA that A is its own. */
	connect_to(r, r->sa, r->sa2, r->ha2, NET_A, c, l, 200 * IPX_MSEC);
	spx_get_status(c->c, &st);
	assert_int_equal(st.remote.net, NET_A);
	assert_int_equal(st.state, SPX_ESTABLISHED);
	transfer(r, c, l, 1);
	transfer(r, l, c, 2);
	assert_int_equal(ipx_node_stats(r->r1->node)->forwarded, 0);
	free(c);
	free(l);
}

static void across_a_router_both_ways(void **state)
{
	struct rig *r = *state;
	struct end *c = calloc(1, sizeof(*c)), *l = calloc(1, sizeof(*l));
	struct end *c2 = calloc(1, sizeof(*c2)), *l2 = calloc(1, sizeof(*l2));

	connect_to(r, r->sa, r->sb, r->hb, NET_B, c, l, IPX_SEC);
	transfer(r, c, l, 3);
	transfer(r, l, c, 4);
	connect_to(r, r->sb, r->sa, r->ha, NET_A, c2, l2, IPX_SEC);
	transfer(r, c2, l2, 5);
	transfer(r, l2, c2, 6);
	assert_true(ipx_node_stats(r->r1->node)->forwarded > 4);
	free(c);
	free(l);
	free(c2);
	free(l2);
}

static void connection_outlives_learning_the_network_number(void **state)
{
	struct rig *r = *state;
	struct end *c = calloc(1, sizeof(*c)), *l = calloc(1, sizeof(*l));

	/* Network 0: this network, as a node that knows nothing writes. */
	connect_to(r, r->sa, r->sa2, r->ha2, 0, c, l, 200 * IPX_MSEC);
	transfer(r, c, l, 7);
	/* R1's next broadcast tells both their number. */
	assert_int_equal(ipx_loop_run_for(r->n->loop, 61 * IPX_SEC), IPX_OK);
	assert_int_equal(r->ha->links[0]->net, NET_A);
	assert_int_equal(r->ha2->links[0]->net, NET_A);
	transfer(r, c, l, 8);
	transfer(r, l, c, 9);
	assert_int_equal(spx_drops(r->sa)[SPX_DROP_WRONG_PEER], 0);
	assert_int_equal(spx_drops(r->sa2)[SPX_DROP_WRONG_PEER], 0);
	free(c);
	free(l);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(own_network_number_connects_straight),
		T(across_a_router_both_ways),
		T(connection_outlives_learning_the_network_number),
	};
#undef T
	return cmocka_run_group_tests(tests, NULL, NULL);
}
