/*
 * test_netbios_routed.c - NetBIOS across IPX routers on in-memory segments
 * with the fake clock: names found, datagrams (directed and broadcast) and
 * sessions both ways across one router and across two, from nodes that do
 * not know their network numbers (as on a DOSBox hub) and once they do,
 * and a session that outlives its nodes' learning their network number.
 */
#include "cm.h"

#include <stdlib.h>
#include <string.h>

#include "ipxlab/err.h"
#include "ipxlab/netbios.h"
#include "svcnet.h"

enum { NET_A = 0xA, NET_B = 0xB, NET_C = 0xC };

/* hA and hA2 on A, R1 on A+B, hB on B, R2 on B+C, hC on C; NetBIOS on
 * each host. */
struct rig {
	struct svcnet *n;
	struct svcnode *ha, *ha2, *hb, *hc;
	struct netbios *nba, *nba2, *nbb, *nbc;
};

/* One command, its buffer, and whether its POST ran. */
struct cmd {
	struct nb_ncb ncb;
	int posted;
	uint8_t buf[2048];
};

static void on_post(struct nb_ncb *ncb)
{
	((struct cmd *)ncb->ctx)->posted++;
}

static bool cmd_posted(void *ctx)
{
	return ((struct cmd *)ctx)->posted != 0;
}

static void cmd_init(struct cmd *c, uint8_t command, const char *name,
		     const char *callname)
{
	memset(c, 0, sizeof(*c));
	c->ncb.command = command;
	c->ncb.buffer = c->buf;
	c->ncb.length = sizeof(c->buf);
	c->ncb.post = on_post;
	c->ncb.ctx = c;
	if (name)
		assert_int_equal(nb_name_parse(name, true, c->ncb.name),
				 IPX_OK);
	if (callname)
		assert_int_equal(nb_name_parse(callname, true, c->ncb.callname),
				 IPX_OK);
}

/* Submit c; when it is left pending, wait for it at most 'limit'. */
static uint8_t finish(struct rig *r, struct netbios *nb, struct cmd *c,
		      ipx_time limit)
{
	uint8_t rc = nb_submit(nb, &c->ncb);

	if (rc != NB_RC_PENDING)
		return rc;
	ipx_loop_run_until(r->n->loop, cmd_posted, c, limit);
	assert_int_equal(c->posted, 1);
	return c->ncb.retcode;
}

/* Wait for an earlier pending command. */
static uint8_t await(struct rig *r, struct cmd *c, ipx_time limit)
{
	ipx_loop_run_until(r->n->loop, cmd_posted, c, limit);
	assert_int_equal(c->posted, 1);
	return c->ncb.retcode;
}

static int setup(void **state)
{
	static const uint32_t nets[] = { NET_A, NET_B, NET_C };
	struct rig *r = calloc(1, sizeof(*r));

	r->n = svcnet_new(3, nets);
	r->ha = svcnet_add(r->n, 0, (int[]){ 0 }, 1);
	svcnet_add(r->n, SVC_ROUTER, (int[]){ 0, 1 }, 2);
	r->hb = svcnet_add(r->n, 0, (int[]){ 1 }, 1);
	svcnet_add(r->n, SVC_ROUTER, (int[]){ 1, 2 }, 2);
	r->hc = svcnet_add(r->n, 0, (int[]){ 2 }, 1);
	r->ha2 = svcnet_add(r->n, 0, (int[]){ 0 }, 1);
	assert_int_equal(nb_open(r->ha->node, NULL, &r->nba), IPX_OK);
	assert_int_equal(nb_open(r->ha2->node, NULL, &r->nba2), IPX_OK);
	assert_int_equal(nb_open(r->hb->node, NULL, &r->nbb), IPX_OK);
	assert_int_equal(nb_open(r->hc->node, NULL, &r->nbc), IPX_OK);
	assert_int_equal(ipx_loop_run_for(r->n->loop, IPX_SEC), IPX_OK);
	/* The hosts do not know their numbers, as on a DOSBox hub. */
	r->ha->links[0]->net = 0;
	r->hb->links[0]->net = 0;
	r->hc->links[0]->net = 0;
	r->ha2->links[0]->net = 0;
	*state = r;
	return 0;
}

static int teardown(void **state)
{
	struct rig *r = *state;

	nb_close(r->nba);
	nb_close(r->nbb);
	nb_close(r->nbc);
	nb_close(r->nba2);
	svcnet_free(r->n);
	free(r);
	return 0;
}

static void add_name(struct rig *r, struct netbios *nb, const char *name)
{
	struct cmd c;

	cmd_init(&c, NB_ADD_NAME, name, NULL);
	assert_int_equal(finish(r, nb, &c, 60 * IPX_SEC), NB_RC_OK);
}

/* 'from' finds the name 'to' holds, then sends it a directed and a
 * broadcast datagram. */
static void find_and_datagrams(struct rig *r, struct netbios *from,
			       struct netbios *to, const char *name,
			       uint32_t to_net)
{
	struct cmd f, rd, rb, sd, sb;

	/* The finder has not learnt its number (from others' broadcasts)
	 * yet: its find leaves with source network 0. */
	ipx_node_link(nb_node(from), 0)->net = 0;
	cmd_init(&f, NB_FIND_NAME, NULL, name);
	assert_int_equal(finish(r, from, &f, 30 * IPX_SEC), NB_RC_OK);
	assert_int_equal(f.ncb.remote.net, to_net);
	assert_memory_equal(f.ncb.remote.node,
			    ipx_node_link(nb_node(to), 0)->node, IPX_NODE_LEN);

	cmd_init(&rd, NB_RECEIVE_DATAGRAM, NULL, NULL);
	rd.ncb.num = 0xFF;
	assert_int_equal(nb_submit(to, &rd.ncb), NB_RC_PENDING);
	cmd_init(&sd, NB_SEND_DATAGRAM, NULL, name);
	sd.ncb.num = 1;
	memcpy(sd.buf, "direct", 6);
	sd.ncb.length = 6;
	assert_int_equal(finish(r, from, &sd, 10 * IPX_SEC), NB_RC_OK);
	assert_int_equal(await(r, &rd, 10 * IPX_SEC), NB_RC_OK);
	assert_int_equal(rd.ncb.length, 6);
	assert_memory_equal(rd.buf, "direct", 6);

	cmd_init(&rb, NB_RECEIVE_BCAST_DATAGRAM, NULL, NULL);
	rb.ncb.num = 0xFF;
	assert_int_equal(nb_submit(to, &rb.ncb), NB_RC_PENDING);
	cmd_init(&sb, NB_SEND_BCAST_DATAGRAM, NULL, NULL);
	sb.ncb.num = 1;
	memcpy(sb.buf, "everyone", 8);
	sb.ncb.length = 8;
	assert_int_equal(finish(r, from, &sb, 10 * IPX_SEC), NB_RC_OK);
	assert_int_equal(await(r, &rb, 10 * IPX_SEC), NB_RC_OK);
	assert_int_equal(rb.ncb.length, 8);
	assert_memory_equal(rb.buf, "everyone", 8);
}

/* One message of 'len' bytes over session lsn, from -> to. */
static void one_message(struct rig *r, struct netbios *from, uint8_t from_lsn,
			struct netbios *to, uint8_t to_lsn, uint16_t len)
{
	struct cmd s, rc;

	cmd_init(&rc, NB_RECEIVE, NULL, NULL);
	rc.ncb.lsn = to_lsn;
	assert_int_equal(nb_submit(to, &rc.ncb), NB_RC_PENDING);
	cmd_init(&s, NB_SEND, NULL, NULL);
	s.ncb.lsn = from_lsn;
	for (uint16_t i = 0; i < len; i++)
		s.buf[i] = (uint8_t)(i * 7 + len);
	s.ncb.length = len;
	assert_int_equal(finish(r, from, &s, 30 * IPX_SEC), NB_RC_OK);
	assert_int_equal(await(r, &rc, 30 * IPX_SEC), NB_RC_OK);
	assert_int_equal(rc.ncb.length, len);
	assert_memory_equal(rc.buf, s.buf, len);
}

/* 'caller' calls 'callee' (holding 'name'), messages go both ways, then
 * the caller hangs up and the callee sees the session end. */
static void session_both_ways(struct rig *r, struct netbios *caller,
			      struct netbios *callee, const char *name,
			      const char *callname)
{
	struct cmd l, c, h, after;

	cmd_init(&l, NB_LISTEN, name, "*");
	assert_int_equal(nb_submit(callee, &l.ncb), NB_RC_PENDING);
	cmd_init(&c, NB_CALL, callname, name);
	assert_int_equal(finish(r, caller, &c, 60 * IPX_SEC), NB_RC_OK);
	assert_int_equal(await(r, &l, 10 * IPX_SEC), NB_RC_OK);
	one_message(r, caller, c.ncb.lsn, callee, l.ncb.lsn, 1500);
	one_message(r, callee, l.ncb.lsn, caller, c.ncb.lsn, 700);
	cmd_init(&after, NB_RECEIVE, NULL, NULL);
	after.ncb.lsn = l.ncb.lsn;
	assert_int_equal(nb_submit(callee, &after.ncb), NB_RC_PENDING);
	cmd_init(&h, NB_HANG_UP, NULL, NULL);
	h.ncb.lsn = c.ncb.lsn;
	assert_int_equal(finish(r, caller, &h, 30 * IPX_SEC), NB_RC_OK);
	assert_int_equal(await(r, &after, 30 * IPX_SEC), NB_RC_CLOSED);
}

static void across_one_router(void **state)
{
	struct rig *r = *state;

	add_name(r, r->nbb, "BSERVER");
	add_name(r, r->nba, "ACLIENT");
	find_and_datagrams(r, r->nba, r->nbb, "BSERVER", NET_B);
	find_and_datagrams(r, r->nbb, r->nba, "ACLIENT", NET_A);
	session_both_ways(r, r->nba, r->nbb, "BSERVER", "ACLIENT");
	session_both_ways(r, r->nbb, r->nba, "ACLIENT", "BSERVER");
}

static void across_two_routers(void **state)
{
	struct rig *r = *state;

	add_name(r, r->nbc, "CSERVER");
	add_name(r, r->nba, "ACLIENT");
	find_and_datagrams(r, r->nba, r->nbc, "CSERVER", NET_C);
	find_and_datagrams(r, r->nbc, r->nba, "ACLIENT", NET_A);
	session_both_ways(r, r->nba, r->nbc, "CSERVER", "ACLIENT");
	session_both_ways(r, r->nbc, r->nba, "ACLIENT", "CSERVER");
	/* A name claimed on A is defended against a claim from C. */
	{
		struct cmd c;

		cmd_init(&c, NB_ADD_NAME, "ACLIENT", NULL);
		assert_int_equal(finish(r, r->nbc, &c, 60 * IPX_SEC),
				 NB_RC_INUSE);
	}
}

/* Two nodes of A in a session that began before either knew the number
 * of A: it goes on when they learn it (their source network changes). */
static void session_outlives_learning_the_network_number(void **state)
{
	struct rig *r = *state;
	struct cmd l, c;

	add_name(r, r->nba2, "NEIGHBOUR");
	add_name(r, r->nba, "ACLIENT");
	assert_int_equal(r->ha->links[0]->net, 0);
	cmd_init(&l, NB_LISTEN, "NEIGHBOUR", "*");
	assert_int_equal(nb_submit(r->nba2, &l.ncb), NB_RC_PENDING);
	cmd_init(&c, NB_CALL, "ACLIENT", "NEIGHBOUR");
	assert_int_equal(finish(r, r->nba, &c, 60 * IPX_SEC), NB_RC_OK);
	assert_int_equal(await(r, &l, 10 * IPX_SEC), NB_RC_OK);
	assert_int_equal(c.ncb.remote.net, 0);
	one_message(r, r->nba, c.ncb.lsn, r->nba2, l.ncb.lsn, 100);
	/* R1's next broadcast tells both. */
	assert_int_equal(ipx_loop_run_for(r->n->loop, 61 * IPX_SEC), IPX_OK);
	assert_int_equal(r->ha->links[0]->net, NET_A);
	assert_int_equal(r->ha2->links[0]->net, NET_A);
	one_message(r, r->nba, c.ncb.lsn, r->nba2, l.ncb.lsn, 1200);
	one_message(r, r->nba2, l.ncb.lsn, r->nba, c.ncb.lsn, 1200);
	assert_int_equal(nb_get_stats(r->nba)->drops[NB_DROP_WRONG_PEER], 0);
	assert_int_equal(nb_get_stats(r->nba2)->drops[NB_DROP_WRONG_PEER], 0);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(across_one_router),
		T(across_two_routers),
		T(session_outlives_learning_the_network_number),
	};
#undef T
	return cmocka_run_group_tests(tests, NULL, NULL);
}
