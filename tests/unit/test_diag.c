/*
 * test_diag.c - the diagnostics responder (0x456) and the Novell ping
 * responder (0x9086) on in-memory segments with the fake clock: answers on
 * the same network and across a router, the exclusion list, the router's
 * component list with its networks, and the codecs' counted refusals.
 */
#include "cm.h"

#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "svcnet.h"

enum { NET_A = 0xA, NET_B = 0xB };

/* h1, h2 on A; R on A+B (internal network 0x77); h3 on B. */
struct topo {
	struct svcnet *n;
	struct svcnode *h1, *h2, *r, *h3;
	struct ipx_socket *client;
	struct inbox in;
};

static int setup(void **state)
{
	static const uint32_t nets[] = { NET_A, NET_B };
	struct topo *t = calloc(1, sizeof(*t));

	t->n = svcnet_new(2, nets);
	t->h1 = svcnet_add(t->n, SVC_RESPONDERS, (int[]){ 0 }, 1);
	t->h2 = svcnet_add(t->n, SVC_RESPONDERS, (int[]){ 0 }, 1);
	t->r = svcnet_add(t->n, SVC_ROUTER | SVC_RESPONDERS, (int[]){ 0, 1 }, 2);
	t->h3 = svcnet_add(t->n, SVC_RESPONDERS, (int[]){ 1 }, 1);
	ipx_node_set_internal_net(t->r->node, 0x77);
	if (ipx_socket_open(t->h1->node, 0, inbox_collect, &t->in,
			    &t->client) != IPX_OK)
		return -1;
	ipx_loop_run_for(t->n->loop, IPX_SEC);
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

static void run(struct topo *t)
{
	assert_int_equal(ipx_loop_run_for(t->n->loop, IPX_SEC), IPX_OK);
}

static void ping(struct topo *t, const struct svcnode *to, uint16_t id,
		 const char *data)
{
	uint8_t p[64];
	size_t n = ipx_ping_encode(IPX_PING_REQUEST, id, (const uint8_t *)data,
				   strlen(data), p, sizeof(p));
	struct ipx_addr dst;

	svcnet_addr(to, IPX_SOCK_PING, &dst);
	assert_int_equal(ipx_socket_sendto(t->client, &dst, IPX_TYPE_PEP, p, n),
			 IPX_OK);
}

static void ping_is_answered_here_and_across_a_router(void **state)
{
	struct topo *t = *state;
	struct ipx_ping reply;
	enum ipx_ping_drop why;

	ping(t, t->h2, 7, "abcdef");
	run(t);
	assert_int_equal(t->in.n, 1);
	assert_int_equal(ipx_ping_decode(t->in.data[0], t->in.len[0], &reply,
					 &why), IPX_OK);
	assert_int_equal(reply.type, IPX_PING_REPLY);
	assert_int_equal(reply.id, 7);
	assert_int_equal(reply.result, 1);
	assert_int_equal(reply.len, 6);
	assert_memory_equal(reply.data, "abcdef", 6);
	assert_int_equal(t->in.hdr[0].hops, 0);
	assert_int_equal(t->in.hdr[0].type, IPX_TYPE_PEP);
	/* Across the router: the reply crossed it once. */
	ping(t, t->h3, 8, "x");
	run(t);
	assert_int_equal(t->in.n, 2);
	assert_int_equal(t->in.hdr[1].hops, 1);
	assert_int_equal(t->in.hdr[1].src.net, NET_B);
	/* The router itself, at its internal address. */
	ping(t, t->r, 9, "");
	run(t);
	assert_int_equal(t->in.n, 3);
	assert_int_equal(t->in.hdr[2].src.net, 0x77);
	assert_int_equal(ipx_ping_responder_stats(t->h3->pong)->tx_replies, 1);
}

static void ping_refusals_are_counted(void **state)
{
	struct topo *t = *state;
	static const char *const bad[] = {
		"Ping\x01",			/* short */
		"Pong\x01\x00\x00\x01\x00\x00",	/* signature */
		"Ping\x02\x00\x00\x01\x00\x00",	/* version */
		"Ping\x01\x05\x00\x01\x00\x00",	/* type */
		"Ping\x01\x01\x00\x01\x01\x00",	/* a reply */
	};
	static const size_t lens[] = { 5, 10, 10, 10, 10 };
	const struct ipx_ping_stats *s = ipx_ping_responder_stats(t->h2->pong);
	struct ipx_addr dst;

	svcnet_addr(t->h2, IPX_SOCK_PING, &dst);
	for (size_t i = 0; i < 5; i++)
		ipx_socket_sendto(t->client, &dst, 4, bad[i], lens[i]);
	run(t);
	assert_int_equal(t->in.n, 0);
	assert_int_equal(s->drops[IPX_PING_DROP_SHORT], 1);
	assert_int_equal(s->drops[IPX_PING_DROP_BAD_SIGNATURE], 1);
	assert_int_equal(s->drops[IPX_PING_DROP_BAD_VERSION], 1);
	assert_int_equal(s->drops[IPX_PING_DROP_BAD_TYPE], 1);
	assert_int_equal(s->drops[IPX_PING_DROP_NOT_REQUEST], 1);
	assert_string_equal(ipx_ping_drop_name(IPX_PING_DROP_BAD_TYPE),
			    "bad_type");
}

static void diagnostics_answer_with_the_exclusion_list(void **state)
{
	struct topo *t = *state;
	uint8_t req[1 + 6 * 2];
	uint8_t excl[2][6];
	struct ipx_addr all = { .net = 0, .socket = IPX_SOCK_DIAG };
	struct ipx_diag_response r;
	enum ipx_diag_drop why;
	bool router_seen = false;
	size_t n;

	memcpy(excl[0], t->h1->links[0]->node, 6);	/* ourselves */
	memcpy(excl[1], t->h2->links[0]->node, 6);
	n = ipx_diag_encode_request((const uint8_t(*)[6])excl, 2, req,
				    sizeof(req));
	assert_int_equal(n, 13);
	memcpy(all.node, ipx_node_broadcast, 6);
	assert_int_equal(ipx_socket_sendto(t->client, &all, 0x1E, req, n),
			 IPX_OK);
	run(t);
	/* Only the router answers on A; h2 and we are excluded. */
	assert_int_equal(t->in.n, 1);
	assert_int_equal(t->in.hdr[0].type, 0x1E);
	assert_int_equal(
		ipx_diag_stats(t->h2->diag)->drops[IPX_DIAG_DROP_EXCLUDED], 1);
	assert_int_equal(ipx_diag_decode_response(t->in.data[0], t->in.len[0],
						  &r, &why), IPX_OK);
	assert_int_equal(r.major, 1);
	assert_int_equal(r.minor, 0);
	for (size_t i = 0; i < r.count; i++) {
		if (r.comps[i].id != IPX_DIAG_INTERNAL_BRIDGE)
			continue;
		router_seen = true;
		assert_int_equal(r.comps[i].nnets, 3);
		assert_int_equal(r.comps[i].nets[0].type, IPX_DIAG_VIRTUAL);
		assert_int_equal(r.comps[i].nets[0].net, 0x77);
		assert_int_equal(r.comps[i].nets[1].net, NET_A);
		assert_int_equal(r.comps[i].nets[2].net, NET_B);
	}
	assert_true(router_seen);
	/* Unicast across the router to an end node: version 1.1. */
	n = ipx_diag_encode_request(NULL, 0, req, sizeof(req));
	svcnet_addr(t->h3, IPX_SOCK_DIAG, &all);
	ipx_socket_sendto(t->client, &all, 0, req, n);
	run(t);
	assert_int_equal(t->in.n, 2);
	assert_int_equal(ipx_diag_decode_response(t->in.data[1], t->in.len[1],
						  &r, &why), IPX_OK);
	assert_int_equal(r.minor, 1);
	assert_int_equal(r.count, 2);
	assert_string_equal(ipx_diag_component_name(r.comps[1].id),
			    "LAN driver");
}

static void diagnostics_codec_refusals(void **state)
{
	struct topo *t = *state;
	struct ipx_diag_response r, d;
	enum ipx_diag_drop why;
	uint8_t buf[256] = { 0 };
	bool ex;
	size_t n;
	struct ipx_addr dst;

	assert_int_equal(ipx_diag_check_request(buf, 0, buf, &ex, &why),
			 IPX_EINVAL);
	assert_int_equal(why, IPX_DIAG_DROP_SHORT);
	buf[0] = 2;
	assert_int_equal(ipx_diag_check_request(buf, 7, buf, &ex, &why),
			 IPX_EINVAL);
	assert_int_equal(why, IPX_DIAG_DROP_BAD_COUNT);
	ipx_diag_describe(t->r->node, &r);
	n = ipx_diag_encode_response(&r, buf, sizeof(buf));
	assert_int_equal(n, 5 + 1 + 1 + 2 + 3 * 11);
	assert_int_equal(ipx_diag_decode_response(buf, n, &d, &why), IPX_OK);
	assert_int_equal(d.count, 3);
	for (size_t cut = 0; cut < n; cut++)
		assert_int_equal(ipx_diag_decode_response(buf, cut, &d, &why),
				 IPX_EINVAL);
	buf[5] = 9;	/* an unknown component */
	assert_int_equal(ipx_diag_decode_response(buf, n, &d, &why), IPX_EINVAL);
	assert_int_equal(why, IPX_DIAG_DROP_BAD_COMPONENT);
	/* On the wire: counted by the responder, no answer. */
	svcnet_addr(t->h2, IPX_SOCK_DIAG, &dst);
	ipx_socket_sendto(t->client, &dst, 0, "", 0);
	ipx_socket_sendto(t->client, &dst, 0, "\x05\x01", 2);
	run(t);
	assert_int_equal(t->in.n, 0);
	assert_int_equal(ipx_diag_stats(t->h2->diag)->drops[IPX_DIAG_DROP_SHORT],
			 1);
	assert_int_equal(
		ipx_diag_stats(t->h2->diag)->drops[IPX_DIAG_DROP_BAD_COUNT], 1);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(ping_is_answered_here_and_across_a_router),
		T(ping_refusals_are_counted),
		T(diagnostics_answer_with_the_exclusion_list),
		T(diagnostics_codec_refusals),
	};
#undef T
	return cmocka_run_group_tests(tests, NULL, NULL);
}
