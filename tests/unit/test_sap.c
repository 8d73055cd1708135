/*
 * test_sap.c - SAP on in-memory segments with the fake clock: services
 * appear in the routers' tables and are re-advertised across networks,
 * nearest and general queries are answered, entries expire after 180 s of
 * silence and vanish at once when a service goes down, responses carry at
 * most 7 entries, the codec rejects bad input by name; split horizon seen
 * on the wire (for services going down too), a response that crossed a
 * router dropped, and an equal copy from a second router not replacing
 * the first.
 */
#include "cm.h"

#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "svcnet.h"

enum { NET_A = 0xA, NET_B = 0xB, NET_C = 0xC };

/* w (a workstation) on A, R1 on A+B, R2 on B+C, s (a server) on C. */
struct topo {
	struct svcnet *n;
	struct svcnode *w, *r1, *r2, *s;
	/* What w's SAP agent hears. */
	int responses;
	size_t max_entries;
	struct ipx_sap_msg last;
	struct ipx_sap_entry seen[64];
	size_t nseen;
};

static void on_response(const struct ipx_header *hdr,
			const struct ipx_sap_msg *msg, void *ctx)
{
	struct topo *t = ctx;

	(void)hdr;
	t->responses++;
	t->last = *msg;
	if (msg->count > t->max_entries)
		t->max_entries = msg->count;
	for (size_t i = 0; i < msg->count && t->nseen < 64; i++)
		t->seen[t->nseen++] = msg->entries[i];
}

static int setup(void **state)
{
	static const uint32_t nets[] = { NET_A, NET_B, NET_C };
	struct topo *t = calloc(1, sizeof(*t));

	t->n = svcnet_new(3, nets);
	t->w = svcnet_add(t->n, SVC_SAP, (int[]){ 0 }, 1);
	t->r1 = svcnet_add(t->n, SVC_ROUTER | SVC_SAP, (int[]){ 0, 1 }, 2);
	t->r2 = svcnet_add(t->n, SVC_ROUTER | SVC_SAP, (int[]){ 1, 2 }, 2);
	t->s = svcnet_add(t->n, SVC_SAP, (int[]){ 2 }, 1);
	ipx_sap_on_response(t->w->sap, on_response, t);
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

static const struct ipx_sap_entry *lookup(struct ipx_sap *sap, uint16_t type,
					  const char *name)
{
	for (size_t i = 0; i < ipx_sap_count(sap); i++) {
		const struct ipx_sap_entry *e = ipx_sap_at(sap, i);

		if (e->type == type && !strcmp(e->name, name))
			return e;
	}
	return NULL;
}

static void forget(struct topo *t)
{
	t->responses = 0;
	t->nseen = 0;
	t->max_entries = 0;
}

static void services_appear_across_two_routers(void **state)
{
	struct topo *t = *state;
	const struct ipx_sap_entry *e;
	struct ipx_addr saddr;

	run(t, IPX_SEC);
	assert_int_equal(ipx_sap_advertise(t->s->sap, 4, "FS1", 0x451), IPX_OK);
	assert_int_equal(ipx_sap_advertise(t->s->sap, 4, "FS1", 0x451),
			 IPX_EINUSE);
	run(t, IPX_SEC);	/* advertised at once, not in a minute */
	svcnet_addr(t->s, 0x451, &saddr);
	e = lookup(t->r2->sap, 4, "FS1");
	assert_non_null(e);
	assert_int_equal(e->hops, 1);
	assert_true(ipx_addr_eq(&e->addr, &saddr));
	e = lookup(t->r1->sap, 4, "FS1");
	assert_non_null(e);
	assert_int_equal(e->hops, 2);
	/* w heard R1 pass it on (hops 3 from A), and only once. */
	assert_int_equal(t->nseen, 1);
	assert_int_equal(t->seen[0].hops, 3);
	/* w keeps no table; a server only its own services. */
	assert_int_equal(ipx_sap_count(t->w->sap), 0);
	assert_int_equal(ipx_sap_count(t->s->sap), 1);
	/* Periodic broadcasts keep it for good. */
	run(t, 10 * 60 * IPX_SEC);
	assert_non_null(lookup(t->r1->sap, 4, "FS1"));
	assert_int_equal(ipx_sap_stats(t->r1->sap)->expired, 0);
	/* Split horizon: R2 never learns FS1 back from R1. */
	assert_int_equal(lookup(t->r2->sap, 4, "FS1")->hops, 1);
}

static void nearest_and_general_queries_are_answered(void **state)
{
	struct topo *t = *state;
	struct ipx_sap_entry best;

	run(t, IPX_SEC);
	ipx_sap_advertise(t->s->sap, 4, "FS1", 0x451);
	ipx_sap_advertise(t->s->sap, 7, "PRINTER", 0x8060);
	run(t, IPX_SEC);
	forget(t);
	assert_int_equal(ipx_sap_query(t->w->sap, IPX_SAP_NEAREST_QUERY, 4),
			 IPX_OK);
	run(t, IPX_SEC);
	assert_int_equal(t->responses, 1);
	assert_int_equal(t->last.op, IPX_SAP_NEAREST_RESPONSE);
	assert_int_equal(t->last.count, 1);
	assert_string_equal(t->last.entries[0].name, "FS1");
	assert_int_equal(t->last.entries[0].hops, 3);
	/* A second file server right on A is nearer. */
	ipx_sap_advertise(t->r1->sap, 4, "FS0", 0x451);
	assert_int_equal(ipx_sap_nearest(t->r1->sap, 4, &best), IPX_OK);
	assert_string_equal(best.name, "FS0");
	run(t, IPX_SEC);
	forget(t);
	ipx_sap_query(t->w->sap, IPX_SAP_NEAREST_QUERY, 4);
	run(t, IPX_SEC);
	assert_int_equal(t->responses, 1);
	assert_string_equal(t->last.entries[0].name, "FS0");
	assert_int_equal(t->last.entries[0].hops, 1);
	/* General query, one type and every type. */
	forget(t);
	ipx_sap_query(t->w->sap, IPX_SAP_GENERAL_QUERY, 7);
	run(t, IPX_SEC);
	assert_int_equal(t->nseen, 1);
	assert_string_equal(t->seen[0].name, "PRINTER");
	forget(t);
	ipx_sap_query(t->w->sap, IPX_SAP_GENERAL_QUERY, IPX_SAP_ANY_TYPE);
	run(t, IPX_SEC);
	assert_int_equal(t->nseen, 3);
	assert_int_equal(t->last.op, IPX_SAP_GENERAL_RESPONSE);
	/* Nobody has type 0x0123: no answer at all. */
	forget(t);
	ipx_sap_query(t->w->sap, IPX_SAP_NEAREST_QUERY, 0x0123);
	run(t, IPX_SEC);
	assert_int_equal(t->responses, 0);
}

static void entries_expire_after_180s_of_silence(void **state)
{
	struct topo *t = *state;
	struct ipx_link *l = t->s->links[0];

	run(t, IPX_SEC);
	ipx_sap_advertise(t->s->sap, 4, "FS1", 0x451);
	run(t, 30 * IPX_SEC);
	/* The server is cut off without going down. */
	assert_int_equal(ipx_node_remove_link(t->s->node, l), IPX_OK);
	ipx_link_close(l);
	run(t, 140 * IPX_SEC);
	assert_non_null(lookup(t->r2->sap, 4, "FS1"));
	assert_non_null(lookup(t->r1->sap, 4, "FS1"));
	run(t, 20 * IPX_SEC);
	assert_null(lookup(t->r2->sap, 4, "FS1"));
	assert_int_equal(ipx_sap_stats(t->r2->sap)->expired, 1);
	/* R2 said so at once: R1 dropped it by the going-down entry. */
	assert_null(lookup(t->r1->sap, 4, "FS1"));
	assert_int_equal(ipx_sap_stats(t->r1->sap)->down, 1);
}

static void a_service_going_down_vanishes_at_once(void **state)
{
	struct topo *t = *state;

	run(t, IPX_SEC);
	ipx_sap_advertise(t->s->sap, 4, "FS1", 0x451);
	run(t, 5 * IPX_SEC);
	assert_non_null(lookup(t->r1->sap, 4, "FS1"));
	forget(t);
	assert_int_equal(ipx_sap_withdraw(t->s->sap, 4, "FS1"), IPX_OK);
	assert_int_equal(ipx_sap_withdraw(t->s->sap, 4, "FS1"), IPX_ENOTFOUND);
	run(t, IPX_SEC);
	assert_null(lookup(t->r2->sap, 4, "FS1"));
	assert_null(lookup(t->r1->sap, 4, "FS1"));
	/* w heard it go down with 16 hops. */
	assert_int_equal(t->nseen, 1);
	assert_int_equal(t->seen[0].hops, IPX_SAP_DOWN);
	/* A router shutting down takes its whole table down. */
	ipx_sap_advertise(t->s->sap, 4, "FS2", 0x451);
	run(t, IPX_SEC);
	assert_non_null(lookup(t->r1->sap, 4, "FS2"));
	ipx_sap_shutdown(t->r2->sap);
	run(t, IPX_SEC);
	assert_null(lookup(t->r1->sap, 4, "FS2"));
}

static void responses_carry_at_most_7_entries(void **state)
{
	struct topo *t = *state;
	char name[16];

	run(t, IPX_SEC);
	for (int i = 0; i < 10; i++) {
		snprintf(name, sizeof(name), "SVC%02d", i);
		assert_int_equal(ipx_sap_advertise(t->s->sap, 0x47, name,
						   0x8000 + i), IPX_OK);
	}
	run(t, IPX_SEC);
	assert_int_equal(ipx_sap_count(t->r1->sap), 10);
	forget(t);
	ipx_sap_query(t->w->sap, IPX_SAP_GENERAL_QUERY, IPX_SAP_ANY_TYPE);
	run(t, IPX_SEC);
	assert_int_equal(t->nseen, 10);
	assert_int_equal(t->responses, 2);
	assert_int_equal(t->max_entries, 7);
	/* And the periodic broadcast too. */
	forget(t);
	run(t, 61 * IPX_SEC);
	assert_int_equal(t->nseen, 10);
	assert_int_equal(t->max_entries, 7);
}

static void codec_rejects_bad_input_by_name(void **state)
{
	struct topo *t = *state;
	struct ipx_sap_msg m = { .op = IPX_SAP_GENERAL_RESPONSE, .count = 1 }, d;
	enum ipx_sap_drop why;
	uint8_t buf[IPX_SAP_MAX_LEN + 64];
	struct ipx_socket *sock;
	struct ipx_addr to;
	size_t n;

	m.entries[0].type = 4;
	strcpy(m.entries[0].name, "SERVER_1");
	m.entries[0].addr.net = 0x1234;
	m.entries[0].addr.socket = 0x451;
	m.entries[0].hops = 2;
	n = ipx_sap_encode(&m, buf, sizeof(buf));
	assert_int_equal(n, 66);
	assert_int_equal(ipx_sap_decode(buf, n, &d, &why), IPX_OK);
	assert_int_equal(d.count, 1);
	assert_string_equal(d.entries[0].name, "SERVER_1");
	assert_int_equal(d.entries[0].addr.net, 0x1234);
	assert_int_equal(d.entries[0].hops, 2);
	/* A name without its NUL is skipped and counted, the packet kept. */
	memset(buf + 2 + 2, 'X', 48);
	assert_int_equal(ipx_sap_decode(buf, n, &d, &why), IPX_OK);
	assert_int_equal(d.count, 0);
	assert_int_equal(d.bad, 1);
	assert_int_equal(ipx_sap_decode(buf, 1, &d, &why), IPX_EINVAL);
	assert_int_equal(why, IPX_SAP_DROP_SHORT);
	assert_int_equal(ipx_sap_decode(buf, 65, &d, &why), IPX_EINVAL);
	assert_int_equal(why, IPX_SAP_DROP_BAD_LENGTH);
	assert_int_equal(ipx_sap_decode((const uint8_t *)"\x00\x02", 2, &d,
					&why), IPX_EINVAL);
	assert_int_equal(why, IPX_SAP_DROP_EMPTY);
	assert_int_equal(ipx_sap_decode((const uint8_t *)"\x00\x01\x00\x04\x00",
					5, &d, &why), IPX_EINVAL);
	assert_int_equal(why, IPX_SAP_DROP_BAD_LENGTH);
	assert_int_equal(ipx_sap_decode((const uint8_t *)"\x00\x09\x00\x04", 4,
					&d, &why), IPX_EINVAL);
	assert_int_equal(why, IPX_SAP_DROP_BAD_OP);
	memset(buf, 0, sizeof(buf));
	buf[1] = 2;
	assert_int_equal(ipx_sap_decode(buf, 2 + 8 * 64, &d, &why), IPX_EINVAL);
	assert_int_equal(why, IPX_SAP_DROP_TOO_MANY);
	assert_false(ipx_sap_name_ok(""));
	assert_false(ipx_sap_name_ok("A\tB"));
	assert_false(ipx_sap_name_ok(
		"0123456789012345678901234567890123456789012345678"));
	assert_int_equal(ipx_sap_advertise(t->s->sap, 0, "X", 1), IPX_EINVAL);
	assert_int_equal(ipx_sap_advertise(t->s->sap, 4, "", 1), IPX_EINVAL);

	/* On the wire each is counted by R1. */
	run(t, IPX_SEC);
	assert_int_equal(ipx_socket_open(t->w->node, 0x4444, inbox_collect,
					 NULL, &sock), IPX_OK);
	to.net = NET_A;
	memcpy(to.node, t->r1->links[0]->node, 6);
	to.socket = IPX_SOCK_SAP;
	ipx_socket_sendto(sock, &to, 4, "\x00", 1);
	ipx_socket_sendto(sock, &to, 4, "\x00\x01\x00", 3);
	ipx_socket_sendto(sock, &to, 4, "\x00\x07\x00\x04", 4);
	run(t, IPX_SEC);
	assert_int_equal(ipx_sap_stats(t->r1->sap)->drops[IPX_SAP_DROP_SHORT], 1);
	assert_int_equal(
		ipx_sap_stats(t->r1->sap)->drops[IPX_SAP_DROP_BAD_LENGTH], 1);
	assert_int_equal(ipx_sap_stats(t->r1->sap)->drops[IPX_SAP_DROP_BAD_OP],
			 1);
	assert_string_equal(ipx_sap_type_name(4), "file server");
}

/* ---- rules only the wire or a made-up router shows ---- */

/* Entries (not going down) each router says on B, per service. */
struct sap_heard {
	const uint8_t *r1, *r2;		/* their nodes on B */
	unsigned r1_fs, r1_ws, r2_fs, r2_ws;
};

static void listen_sap(struct ipx_socket *s, const struct ipx_header *h,
		       const uint8_t *data, size_t len, void *ctx)
{
	struct sap_heard *hd = ctx;
	struct ipx_sap_msg m;
	bool r1 = ipx_node_eq(h->src.node, hd->r1);
	bool r2 = ipx_node_eq(h->src.node, hd->r2);

	(void)s;
	if (ipx_sap_decode(data, len, &m, NULL) != IPX_OK)
		return;
	for (size_t i = 0; i < m.count; i++) {
		bool fs = !strcmp(m.entries[i].name, "FS1");
		bool ws = !strcmp(m.entries[i].name, "WS1");

		if (m.entries[i].hops >= IPX_SAP_DOWN)
			continue;
		hd->r1_fs += r1 && fs;
		hd->r1_ws += r1 && ws;
		hd->r2_fs += r2 && fs;
		hd->r2_ws += r2 && ws;
	}
}

static void split_horizon_keeps_a_service_off_its_own_link(void **state)
{
	struct topo *t = *state;
	struct svcnode *hb = svcnet_add(t->n, 0, (int[]){ 1 }, 1);
	struct sap_heard hd = { .r1 = t->r1->links[1]->node,
				.r2 = t->r2->links[0]->node };
	struct ipx_socket *s;

	/* hB has no SAP agent: it hears every SAP packet on B. */
	assert_int_equal(ipx_socket_open(hb->node, IPX_SOCK_SAP, listen_sap,
					 &hd, &s), IPX_OK);
	assert_int_equal(ipx_sap_advertise(t->s->sap, 4, "FS1", 0x451), IPX_OK);
	assert_int_equal(ipx_sap_advertise(t->w->sap, 4, "WS1", 0x451), IPX_OK);
	run(t, 3 * 60 * IPX_SEC + IPX_SEC);
	assert_true(hd.r2_fs >= 3);
	assert_true(hd.r1_ws >= 3);
	/* Each learned the other's on B and never says it there: the other
	 * would not take a copy no nearer anyway, only the wire shows it. */
	assert_int_equal(hd.r1_fs, 0);
	assert_int_equal(hd.r2_ws, 0);
	assert_non_null(lookup(t->r1->sap, 4, "FS1"));
	assert_non_null(lookup(t->r2->sap, 4, "WS1"));
}

/* A made-up neighbour 'from' on R1's link B says: service 'name' at
 * network 'net', 'hops' away, in a packet that crossed 'ipx_hops'. */
static void sap_says(struct topo *t, const uint8_t from[6], const char *name,
		     uint32_t net, uint16_t hops, uint8_t ipx_hops)
{
	struct ipx_sap_msg m = { .op = IPX_SAP_GENERAL_RESPONSE, .count = 1 };
	uint8_t p[IPX_SAP_MAX_LEN];
	size_t len;

	m.entries[0].type = 4;
	strcpy(m.entries[0].name, name);
	m.entries[0].addr.net = net;
	m.entries[0].addr.node[5] = 1;
	m.entries[0].addr.socket = 0x451;
	m.entries[0].hops = hops;
	len = ipx_sap_encode(&m, p, sizeof(p));
	assert_int_not_equal(len, 0);
	svcnet_inject(t->r1, 1, from, IPX_SOCK_SAP, NULL, IPX_TYPE_PEP,
		      ipx_hops, p, len);
}

static const uint8_t node_x[6] = { 2, 0, 0, 0, 0x58, 2 };
static const uint8_t node_y[6] = { 2, 0, 0, 0, 0x59, 2 };

/* Going-down entries (16 hops) each router says on B, per name. */
static const char *const dead_names[3] = { "FAR", "GONE", "FS1" };

struct sap_dead {
	const uint8_t *r1, *r2;		/* their nodes on B */
	unsigned r1_down[3], r2_down[3];
};

static void listen_dead(struct ipx_socket *s, const struct ipx_header *h,
			const uint8_t *data, size_t len, void *ctx)
{
	struct sap_dead *hd = ctx;
	struct ipx_sap_msg m;

	(void)s;
	if (ipx_sap_decode(data, len, &m, NULL) != IPX_OK)
		return;
	for (size_t i = 0; i < m.count; i++) {
		if (m.entries[i].hops < IPX_SAP_DOWN)
			continue;
		for (int k = 0; k < 3; k++) {
			if (strcmp(m.entries[i].name, dead_names[k]))
				continue;
			hd->r1_down[k] += ipx_node_eq(h->src.node, hd->r1);
			hd->r2_down[k] += ipx_node_eq(h->src.node, hd->r2);
		}
	}
}

static bool seen_down(const struct topo *t, const char *name)
{
	for (size_t i = 0; i < t->nseen; i++)
		if (!strcmp(t->seen[i].name, name) &&
		    t->seen[i].hops == IPX_SAP_DOWN)
			return true;
	return false;
}

/*
 * Split horizon holds for a dead service too. R1 learnt FAR from X and
 * GONE from Y, both on B: when X says FAR is gone (16 hops), and when
 * GONE expires, R1 tells A (w hears 16 hops) and never says 16 back onto
 * B, where they came from. FS1 (s's, through R2) going down: R2 says so
 * on B, R1 takes it and tells A, not B.
 */
static void split_horizon_holds_for_a_service_going_down(void **state)
{
	struct topo *t = *state;
	struct svcnode *hb = svcnet_add(t->n, 0, (int[]){ 1 }, 1);
	struct sap_dead hd = { .r1 = t->r1->links[1]->node,
			       .r2 = t->r2->links[0]->node };
	struct ipx_socket *s;

	/* hB has no SAP agent: it hears every SAP packet on B. */
	assert_int_equal(ipx_socket_open(hb->node, IPX_SOCK_SAP, listen_dead,
					 &hd, &s), IPX_OK);
	run(t, IPX_SEC);
	sap_says(t, node_x, "FAR", 0x77, 1, 0);
	sap_says(t, node_y, "GONE", 0x78, 1, 0);
	assert_int_equal(ipx_sap_advertise(t->s->sap, 4, "FS1", 0x451), IPX_OK);
	run(t, 5 * IPX_SEC);
	assert_non_null(lookup(t->r1->sap, 4, "FAR"));
	assert_non_null(lookup(t->r1->sap, 4, "GONE"));
	assert_non_null(lookup(t->r1->sap, 4, "FS1"));
	forget(t);
	/* X says FAR is gone; s withdraws FS1. */
	sap_says(t, node_x, "FAR", 0x77, IPX_SAP_DOWN, 0);
	assert_int_equal(ipx_sap_withdraw(t->s->sap, 4, "FS1"), IPX_OK);
	run(t, IPX_SEC);
	assert_null(lookup(t->r1->sap, 4, "FAR"));
	assert_null(lookup(t->r1->sap, 4, "FS1"));
	assert_true(seen_down(t, "FAR"));
	assert_true(seen_down(t, "FS1"));
	assert_true(hd.r2_down[2] >= 1);	/* R2 told B of FS1 */
	/* GONE is never said again: it expires after 180 s. */
	run(t, 200 * IPX_SEC);
	assert_null(lookup(t->r1->sap, 4, "GONE"));
	assert_true(seen_down(t, "GONE"));
	for (int k = 0; k < 3; k++)
		assert_int_equal(hd.r1_down[k], 0);
	assert_int_equal(hd.r2_down[0] + hd.r2_down[1], 0);	/* not R2's */
}

static void a_response_that_crossed_a_router_is_dropped(void **state)
{
	struct topo *t = *state;
	const struct ipx_sap_stats *st = ipx_sap_stats(t->r1->sap);
	uint64_t heard;

	run(t, IPX_SEC);
	heard = st->rx_responses;
	/* Routers do not forward SAP: one that did is not a neighbour. */
	sap_says(t, node_x, "FAR", 0x77, 1, 1);
	assert_int_equal(st->drops[IPX_SAP_DROP_NOT_NEIGHBOUR], 1);
	assert_null(lookup(t->r1->sap, 4, "FAR"));
	sap_says(t, node_x, "FAR", 0x77, 1, 0);
	assert_int_equal(st->drops[IPX_SAP_DROP_NOT_NEIGHBOUR], 1);
	assert_non_null(lookup(t->r1->sap, 4, "FAR"));
	assert_int_equal(st->rx_responses, heard + 2);	/* both received */
	assert_string_equal(ipx_sap_drop_name(IPX_SAP_DROP_NOT_NEIGHBOUR),
			    "not_neighbour");
}

static void an_equal_copy_from_a_second_router_changes_nothing(void **state)
{
	struct topo *t = *state;
	const struct ipx_sap_stats *st = ipx_sap_stats(t->r1->sap);
	uint64_t learned;

	run(t, IPX_SEC);
	learned = st->learned;
	/* The address tells which copy R1 keeps. */
	sap_says(t, node_x, "TWICE", 0x50, 2, 0);
	sap_says(t, node_y, "TWICE", 0x60, 2, 0);
	assert_int_equal(lookup(t->r1->sap, 4, "TWICE")->addr.net, 0x50);
	assert_int_equal(st->learned, learned + 1);
	run(t, 100 * IPX_SEC);
	sap_says(t, node_y, "TWICE", 0x60, 2, 0);
	assert_int_equal(lookup(t->r1->sap, 4, "TWICE")->addr.net, 0x50);
	/* A nearer one does replace it. */
	sap_says(t, node_y, "TWICE", 0x60, 1, 0);
	assert_int_equal(lookup(t->r1->sap, 4, "TWICE")->addr.net, 0x60);
	assert_int_equal(st->learned, learned + 2);
}

static void a_far_server_answers_a_query_across_routers(void **state)
{
	struct topo *t = *state;
	struct ipx_addr far;
	uint8_t p[IPX_SAP_MAX_LEN];
	struct ipx_sap_msg m = { .op = IPX_SAP_GENERAL_RESPONSE, .count = 1 };
	struct ipx_addr to;
	size_t len;

	run(t, IPX_SEC);
	assert_int_equal(ipx_sap_advertise(t->s->sap, 4, "FS1", 0x451), IPX_OK);
	run(t, IPX_SEC);
	forget(t);
	/* `sap 0000000C:S` from A: the answer crosses both routers. */
	svcnet_addr(t->s, IPX_SOCK_SAP, &far);
	assert_int_equal(ipx_sap_query_to(t->w->sap, &far,
					  IPX_SAP_GENERAL_QUERY, 4), IPX_OK);
	run(t, IPX_SEC);
	assert_int_equal(t->responses, 1);
	assert_int_equal(t->nseen, 1);
	assert_string_equal(t->seen[0].name, "FS1");
	assert_int_equal(t->seen[0].hops, 1);
	/* Such an answer is never learned from: R1 has no one waiting. */
	m.entries[0].type = 4;
	strcpy(m.entries[0].name, "ROUTED");
	m.entries[0].addr.net = 0x77;
	m.entries[0].hops = 1;
	len = ipx_sap_encode(&m, p, sizeof(p));
	ipx_node_address(t->r1->node, &to);
	to.socket = IPX_SOCK_SAP;
	svcnet_inject(t->r1, 1, node_x, IPX_SOCK_SAP, &to, IPX_TYPE_PEP, 1, p,
		      len);
	assert_null(lookup(t->r1->sap, 4, "ROUTED"));
	assert_int_equal(
		ipx_sap_stats(t->r1->sap)->drops[IPX_SAP_DROP_NOT_NEIGHBOUR], 1);
}

/* 16 hops is "down": a service 15 hops away is kept but passed on by no
 * router (it would arrive at 16), one 14 hops away is passed on at 15. */
static void a_service_15_hops_away_is_not_passed_on(void **state)
{
	struct topo *t = *state;
	const struct ipx_sap_entry *e;
	bool near = false;

	run(t, IPX_SEC);
	sap_says(t, node_x, "AT15", NET_B, 15, 0);
	sap_says(t, node_x, "AT14", NET_B, 14, 0);
	e = lookup(t->r1->sap, 4, "AT15");
	assert_non_null(e);
	assert_int_equal(e->hops, 15);
	assert_int_equal(lookup(t->r1->sap, 4, "AT14")->hops, 14);
	forget(t);
	run(t, 61 * IPX_SEC);	/* a periodic broadcast at least */
	assert_true(t->responses >= 1);
	for (size_t i = 0; i < t->nseen; i++) {
		if (!strcmp(t->seen[i].name, "AT15"))
			fail_msg("AT15 passed on to A at %u hops",
				 t->seen[i].hops);
		if (!strcmp(t->seen[i].name, "AT14")) {
			assert_int_equal(t->seen[i].hops, 15);
			near = true;
		}
	}
	assert_true(near);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(services_appear_across_two_routers),
		T(nearest_and_general_queries_are_answered),
		T(entries_expire_after_180s_of_silence),
		T(a_service_going_down_vanishes_at_once),
		T(responses_carry_at_most_7_entries),
		T(codec_rejects_bad_input_by_name),
		T(split_horizon_keeps_a_service_off_its_own_link),
		T(split_horizon_holds_for_a_service_going_down),
		T(a_response_that_crossed_a_router_is_dropped),
		T(an_equal_copy_from_a_second_router_changes_nothing),
		T(a_far_server_answers_a_query_across_routers),
		T(a_service_15_hops_away_is_not_passed_on),
	};
#undef T
	return cmocka_run_group_tests(tests, NULL, NULL);
}
