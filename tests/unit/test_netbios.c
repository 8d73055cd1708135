/*
 * test_netbios.c - NetBIOS over IPX on the in-memory link with the fake
 * clock: claiming names (twice: the second node loses, after the
 * broadcast count and delay), group names, FIND NAME and its cache,
 * datagrams (directed and broadcast, as type-20 packets), sessions
 * carrying 64 KB messages under loss and duplication, the watchdog, and
 * every limit's return code. Codec tests are in test_netbios_wire.c.
 */
#include "cm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/log.h"
#include "ipxlab/netbios.h"

#define MAXN 6

/* ---- a network of NetBIOS nodes ---- */

struct world {
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_mem_segment *seg;
	struct ipx_config cfg;
	unsigned n;
	struct ipx_node *node[MAXN];
	struct netbios *nb[MAXN];
	/* what the tap saw */
	unsigned type20, checks, finds, answers, in_use, dgrams_unicast;
	unsigned padded;	/* 51-byte session packets */
	bool routes_not_zero;
	bool ws_misread;	/* Wireshark's rule would decode it otherwise */
};

/* One command with its buffer and what its POST saw. */
struct op {
	struct nb_ncb ncb;
	int posted;
	ipx_time at;
	struct world *w;
	uint8_t buf[NB_MAX_MESSAGE + 16];
};

static void tap(const uint8_t *pkt, size_t len, const uint8_t from[6],
		const uint8_t to[6], void *ctx)
{
	struct world *w = ctx;
	struct ipx_header h;
	struct nb_packet pk;

	(void)from;
	(void)to;
	if (ipx_header_decode(pkt, len, &h) != IPX_OK ||
	    h.dst.socket != IPX_SOCK_NETBIOS ||
	    nb_packet_classify(h.type, pkt + 30, h.length - 30, &pk) != IPX_OK)
		return;
	/* Wireshark: the list iff type 20, or 50 bytes with a name type
	 * where it would be after one. */
	if ((h.type == IPX_TYPE_NETBIOS ||
	     (h.length - 30 == NB_NAME_PKT_LEN && pkt[30 + 33] >= 1 &&
	      pkt[30 + 33] <= 5)) != pk.routes)
		w->ws_misread = true;
	w->padded += h.length - 30 == 51 && pk.ds == NB_DS_SESSION_DATA;
	if (h.type == IPX_TYPE_NETBIOS) {
		w->type20++;
		for (int i = 0; i < NB_ROUTES_LEN; i++)
			if (pkt[30 + i])
				w->routes_not_zero = true;
	}
	w->checks += pk.ds == NB_DS_CHECK_NAME;
	w->finds += pk.ds == NB_DS_FIND_NAME;
	w->answers += pk.ds == NB_DS_NAME_RECOGNIZED;
	w->in_use += pk.ds == NB_DS_NAME_IN_USE;
	w->dgrams_unicast += pk.ds == NB_DS_DATAGRAM && h.type == IPX_TYPE_PEP;
}

static struct world *world_new(unsigned n, uint64_t seed,
			       const struct ipx_config *cfg,
			       const struct nb_options *opts)
{
	struct world *w = calloc(1, sizeof(*w));

	ipx_clock_fake_init(&w->clk, 0);
	w->loop = ipx_loop_new(&w->clk);
	w->seg = ipx_mem_segment_new(w->loop, 0x10, seed);
	ipx_mem_segment_set_tap(w->seg, tap, w);
	if (cfg)
		w->cfg = *cfg;
	else
		ipx_config_defaults(&w->cfg);
	w->n = n;
	for (unsigned i = 0; i < n; i++) {
		w->node[i] = ipx_node_new(w->loop, &w->cfg);
		assert_int_equal(ipx_node_add_link(w->node[i],
						   ipx_mem_link_new(w->seg,
								    NULL)),
				 IPX_OK);
		assert_int_equal(nb_open(w->node[i], opts, &w->nb[i]), IPX_OK);
	}
	return w;
}

static void world_free(struct world *w)
{
	assert_false(w->ws_misread);
	for (unsigned i = 0; i < w->n; i++) {
		nb_close(w->nb[i]);
		ipx_node_free(w->node[i]);
	}
	ipx_mem_segment_free(w->seg);
	ipx_loop_free(w->loop);
	free(w);
}

static void faults(struct world *w, uint32_t loss, uint32_t dup)
{
	struct ipx_mem_faults f = { .loss_ppm = loss, .dup_ppm = dup,
				    .delay = IPX_MSEC };

	ipx_mem_segment_set_faults(w->seg, &f);
}

static ipx_time now(struct world *w)
{
	return ipx_loop_now(w->loop);
}

static void on_post(struct nb_ncb *ncb)
{
	struct op *o = ncb->ctx;

	o->posted++;
	o->at = ipx_loop_now(o->w->loop);
}

static struct op *op_new(struct world *w, uint8_t command)
{
	struct op *o = calloc(1, sizeof(*o));

	o->w = w;
	o->ncb.command = command;
	o->ncb.buffer = o->buf;
	o->ncb.length = sizeof(o->buf) - 16;
	o->ncb.post = on_post;
	o->ncb.ctx = o;
	return o;
}

static void set_name(uint8_t out[NB_NAME_LEN], const char *text)
{
	assert_int_equal(nb_name_parse(text, true, out), IPX_OK);
}

static struct op *op_name(struct world *w, uint8_t command, const char *name,
			  const char *callname)
{
	struct op *o = op_new(w, command);

	if (name)
		set_name(o->ncb.name, name);
	if (callname)
		set_name(o->ncb.callname, callname);
	return o;
}

static bool posted(void *ctx)
{
	return ((struct op *)ctx)->posted != 0;
}

/* Submit; a pending command is waited for (at most 'limit'). Returns the
 * final return code. */
static uint8_t run(struct world *w, unsigned node, struct op *o,
		   ipx_time limit)
{
	uint8_t rc = nb_submit(w->nb[node], &o->ncb);

	if (rc != NB_RC_PENDING) {
		o->at = now(w);
		return rc;
	}
	assert_int_equal(ipx_loop_run_until(w->loop, posted, o, limit), IPX_OK);
	assert_int_equal(o->posted, 1);
	return o->ncb.retcode;
}

static uint8_t add_name(struct world *w, unsigned node, const char *name,
			bool group)
{
	struct op *o = op_name(w, group ? NB_ADD_GROUP_NAME : NB_ADD_NAME, name,
			       NULL);
	uint8_t rc = run(w, node, o, 600 * IPX_SEC);

	free(o);
	return rc;
}

static ipx_time claim_time(const struct ipx_config *cfg)
{
	return (ipx_time)cfg->netbios_broadcast_count *
	       ipx_ticks(cfg->netbios_broadcast_delay);
}

/* ---- names ---- */

static void claim_takes_count_times_delay(struct world *w)
{
	struct op *o = op_name(w, NB_ADD_NAME, "FOO", NULL);
	ipx_time t0 = now(w);

	assert_int_equal(run(w, 0, o, 600 * IPX_SEC), NB_RC_OK);
	assert_int_equal(o->at - t0, claim_time(&w->cfg));
	assert_true(o->ncb.num >= 2);
	assert_int_equal(w->checks, w->cfg.netbios_broadcast_count);
	free(o);
}

static void name_claimed_twice_fails_on_the_second_node(void **state)
{
	struct world *w = world_new(3, 1, NULL, NULL);
	struct op *o;
	ipx_time t0;

	(void)state;
	claim_takes_count_times_delay(w);
	/* The defaults: two broadcasts, 18 ticks apart. */
	assert_int_equal(claim_time(&w->cfg), 2 * ipx_ticks(18));
	assert_int_equal(w->checks, 2);
	/* The check-names went out as type-20 broadcasts with an all-zero
	 * network list. */
	assert_true(w->type20 >= 2);
	assert_false(w->routes_not_zero);
	w->checks = 0;
	o = op_name(w, NB_ADD_NAME, "FOO", NULL);
	t0 = now(w);
	assert_int_equal(run(w, 1, o, 600 * IPX_SEC), NB_RC_INUSE);
	/* The objection came to the first check-name: the claim ended
	 * then, within one broadcast delay, without the other broadcasts. */
	assert_true(o->at - t0 < ipx_ticks(w->cfg.netbios_broadcast_delay));
	assert_int_equal(w->checks, 1);
	assert_int_equal(w->in_use, 1);
	assert_int_equal(nb_get_stats(w->nb[1])->claims_lost, 1);
	assert_int_equal(nb_get_stats(w->nb[0])->defended, 1);
	/* The loser may claim another name; the winner keeps its own. */
	assert_int_equal(add_name(w, 1, "BAR", false), NB_RC_OK);
	assert_int_equal(add_name(w, 2, "FOO", false), NB_RC_INUSE);
	assert_int_equal(add_name(w, 0, "FOO", false), NB_RC_DUPNAME);
	free(o);
	world_free(w);
}

/* NETBIOS INTERNET = ON: four claims, 38 ticks apart. */
static void netbios_internet_changes_count_and_delay(void **state)
{
	static const char text[] = "NETBIOS INTERNET = ON\n";
	struct ipx_config cfg;
	struct world *w;
	char err[128];

	(void)state;
	ipx_config_defaults(&cfg);
	assert_int_equal(ipx_config_parse(&cfg, "t", text, sizeof(text) - 1, err,
					  sizeof(err)),
			 IPX_OK);
	assert_int_equal(cfg.netbios_broadcast_count, 4);
	assert_int_equal(cfg.netbios_broadcast_delay, 38);
	w = world_new(2, 2, &cfg, NULL);
	claim_takes_count_times_delay(w);
	assert_int_equal(claim_time(&cfg), 4 * ipx_ticks(38));
	assert_int_equal(add_name(w, 1, "FOO", false), NB_RC_INUSE);
	world_free(w);
}

/* Lost packets: a claim whose first check-name (or its objection) is
 * lost is still refused at the next one. */
static void claim_survives_a_lost_objection(void **state)
{
	struct world *w = world_new(2, 3, NULL, NULL);
	ipx_time delay = ipx_ticks(w->cfg.netbios_broadcast_delay);
	unsigned won = 0, late = 0, rounds = 40;

	(void)state;
	assert_int_equal(add_name(w, 0, "FOO", false), NB_RC_OK);
	faults(w, 300000, 0);
	for (unsigned i = 0; i < rounds; i++) {
		struct op *o = op_name(w, NB_ADD_NAME, "FOO", NULL);
		ipx_time t0 = now(w);
		uint8_t rc = run(w, 1, o, 600 * IPX_SEC);

		if (rc == NB_RC_OK) {
			/* Every try lost one way or the other: give the
			 * name back for the next round. */
			struct op *d = op_name(w, NB_DELETE_NAME, "FOO", NULL);

			assert_int_equal(run(w, 1, d, IPX_SEC), NB_RC_OK);
			free(d);
			won++;
		} else {
			assert_int_equal(rc, NB_RC_INUSE);
			late += o->at - t0 >= delay;
		}
		free(o);
		ipx_loop_run_for(w->loop, IPX_SEC);
	}
	/* A try gets through both ways with p = 0.49: one try alone would
	 * let about half the claims win; the second one catches most. */
	assert_true(late >= 5);
	assert_true(won <= rounds * 4 / 10);
	world_free(w);
}

static void simultaneous_claims_leave_one_owner(void **state)
{
	struct world *w = world_new(2, 4, NULL, NULL);
	struct op *a = op_name(w, NB_ADD_NAME, "RACE", NULL);
	struct op *b = op_name(w, NB_ADD_NAME, "RACE", NULL);

	(void)state;
	assert_int_equal(nb_submit(w->nb[0], &a->ncb), NB_RC_PENDING);
	assert_int_equal(nb_submit(w->nb[1], &b->ncb), NB_RC_PENDING);
	ipx_loop_run_for(w->loop, 10 * IPX_SEC);
	assert_int_equal(a->posted, 1);
	assert_int_equal(b->posted, 1);
	/* The lower address (node 0: 02:..:01) keeps it. */
	assert_int_equal(a->ncb.retcode, NB_RC_OK);
	assert_int_equal(b->ncb.retcode, NB_RC_INUSE);
	free(a);
	free(b);
	world_free(w);
}

static void group_names_are_shared(void **state)
{
	struct world *w = world_new(4, 5, NULL, NULL);
	struct op *f;

	(void)state;
	assert_int_equal(add_name(w, 0, "TEAM", true), NB_RC_OK);
	assert_int_equal(add_name(w, 1, "TEAM", true), NB_RC_OK);
	/* A unique claim of a group name fails, and so does a group claim
	 * of a unique name. */
	assert_int_equal(add_name(w, 2, "TEAM", false), NB_RC_INUSE);
	assert_int_equal(add_name(w, 2, "SOLO", false), NB_RC_OK);
	assert_int_equal(add_name(w, 3, "SOLO", true), NB_RC_INUSE);
	/* FIND NAME of the group lists both members. */
	f = op_name(w, NB_FIND_NAME, NULL, "TEAM");
	assert_int_equal(run(w, 3, f, 60 * IPX_SEC), NB_RC_OK);
	assert_int_equal(ipx_get16le(f->buf), 2);
	assert_int_equal(f->buf[3], 1);	/* group */
	assert_int_equal(f->ncb.length, NB_FN_HDR_LEN + 2 * NB_FN_ENTRY_LEN);
	free(f);
	world_free(w);
}

static void find_name_resolves_and_caches(void **state)
{
	struct world *w = world_new(3, 6, NULL, NULL);
	struct op *f = op_name(w, NB_FIND_NAME, NULL, "SERVER<20>");
	struct ipx_addr a0, got, entry;
	uint8_t name[NB_NAME_LEN];
	bool group = true;
	unsigned finds;
	ipx_time t0;

	(void)state;
	set_name(name, "SERVER<20>");
	ipx_node_address(w->node[0], &a0);
	a0.socket = IPX_SOCK_NETBIOS;
	assert_int_equal(add_name(w, 0, "SERVER<20>", false), NB_RC_OK);
	assert_int_equal(nb_cache_lookup(w->nb[2], name, &got, NULL),
			 IPX_ENOTFOUND);
	t0 = now(w);
	assert_int_equal(run(w, 2, f, 60 * IPX_SEC), NB_RC_OK);
	/* A unique name: done at the first answer, one find sent. */
	assert_true(f->at - t0 < ipx_ticks(w->cfg.netbios_broadcast_delay));
	assert_int_equal(w->finds, 1);
	assert_int_equal(w->answers, 1);
	assert_int_equal(ipx_get16le(f->buf), 1);
	assert_int_equal(f->buf[3], 0);
	ipx_addr_read(f->buf + NB_FN_HDR_LEN, &entry);
	assert_true(ipx_addr_eq(&entry, &a0));
	assert_true(ipx_addr_eq(&f->ncb.remote, &a0));
	assert_int_equal(nb_cache_lookup(w->nb[2], name, &got, &group), IPX_OK);
	assert_true(ipx_addr_eq(&got, &a0));
	assert_false(group);

	/* A CALL uses the cache: no find on the wire. */
	finds = w->finds;
	{
		struct op *l = op_name(w, NB_LISTEN, "SERVER<20>", "*");
		struct op *c;

		assert_int_equal(add_name(w, 2, "CLIENT", false), NB_RC_OK);
		assert_int_equal(nb_submit(w->nb[0], &l->ncb), NB_RC_PENDING);
		c = op_name(w, NB_CALL, "CLIENT", "SERVER<20>");
		assert_int_equal(run(w, 2, c, 60 * IPX_SEC), NB_RC_OK);
		assert_int_equal(w->finds, finds);
		assert_true(nb_get_stats(w->nb[2])->cache_hits >= 1);
		ipx_loop_run_for(w->loop, IPX_SEC);
		assert_int_equal(l->ncb.retcode, NB_RC_OK);
		free(l);
		free(c);
	}
	/* The cache forgets a deleted name (its owner says so) ... */
	{
		struct op *d = op_name(w, NB_DELETE_NAME, "SERVER<20>", NULL);

		assert_int_equal(run(w, 0, d, IPX_SEC), NB_RC_ACTSES);
		ipx_loop_run_for(w->loop, IPX_SEC);
		assert_int_equal(nb_cache_lookup(w->nb[2], name, &got, NULL),
				 IPX_ENOTFOUND);
		free(d);
	}
	/* ... and FIND NAME of a name nobody has: no answer, after the
	 * broadcasts and one more delay. */
	free(f);
	f = op_name(w, NB_FIND_NAME, NULL, "NOBODY");
	t0 = now(w);
	assert_int_equal(run(w, 2, f, 60 * IPX_SEC), NB_RC_NOCALL);
	assert_int_equal(f->at - t0, claim_time(&w->cfg));
	free(f);
	world_free(w);
}

static void cache_entries_expire(void **state)
{
	struct nb_options opts = { .cache_lifetime = 10 * IPX_SEC };
	struct world *w = world_new(2, 7, NULL, &opts);
	struct op *f = op_name(w, NB_FIND_NAME, NULL, "SHORT");
	uint8_t name[NB_NAME_LEN];
	struct ipx_addr a;

	(void)state;
	set_name(name, "SHORT");
	assert_int_equal(add_name(w, 0, "SHORT", false), NB_RC_OK);
	assert_int_equal(run(w, 1, f, 60 * IPX_SEC), NB_RC_OK);
	assert_int_equal(nb_cache_lookup(w->nb[1], name, &a, NULL), IPX_OK);
	ipx_loop_run_for(w->loop, 11 * IPX_SEC);
	assert_int_equal(nb_cache_lookup(w->nb[1], name, &a, NULL),
			 IPX_ENOTFOUND);
	free(f);
	world_free(w);
}

/* ---- datagrams ---- */

static void broadcast_datagrams_reach_every_node(void **state)
{
	struct world *w = world_new(5, 8, NULL, NULL);
	struct op *r[5], *s;
	static const char msg[] = "hello, everyone";

	(void)state;
	for (int i = 0; i < 5; i++) {
		r[i] = op_new(w, NB_RECEIVE_BCAST_DATAGRAM);
		r[i]->ncb.num = 0xFF;
		assert_int_equal(nb_submit(w->nb[i], &r[i]->ncb), NB_RC_PENDING);
	}
	/* From the permanent node name (number 1). */
	s = op_new(w, NB_SEND_BCAST_DATAGRAM);
	s->ncb.num = 1;
	s->ncb.length = 4;
	memcpy(s->buf, "ping", 4);
	assert_int_equal(nb_submit(w->nb[2], &s->ncb), NB_RC_OK);
	ipx_loop_run_for(w->loop, IPX_SEC);
	for (int i = 0; i < 5; i++) {
		struct ipx_addr a2;
		uint8_t perm[NB_NAME_LEN];

		ipx_node_address(w->node[2], &a2);
		nb_permanent_name(a2.node, perm);
		assert_int_equal(r[i]->posted, 1);
		assert_int_equal(r[i]->ncb.length, 4);
		assert_memory_equal(r[i]->ncb.callname, perm, NB_NAME_LEN);
		r[i]->posted = 0;
		r[i]->ncb.length = 100;
		assert_int_equal(nb_submit(w->nb[i], &r[i]->ncb), NB_RC_PENDING);
	}
	/* From a name, with data: every node, the sender included. */
	{
		struct op *a = op_name(w, NB_ADD_NAME, "OTHER", NULL);

		assert_int_equal(run(w, 2, a, 60 * IPX_SEC), NB_RC_OK);
		s->ncb.num = a->ncb.num;
		free(a);
	}
	w->type20 = 0;
	memcpy(s->buf, msg, sizeof(msg));
	s->ncb.length = sizeof(msg);
	assert_int_equal(nb_submit(w->nb[2], &s->ncb), NB_RC_OK);
	ipx_loop_run_for(w->loop, IPX_SEC);
	assert_int_equal(w->type20, 1);
	assert_false(w->routes_not_zero);
	for (int i = 0; i < 5; i++) {
		char n[NB_NAME_STRLEN];

		assert_int_equal(r[i]->posted, 1);
		assert_int_equal(r[i]->ncb.retcode, NB_RC_OK);
		assert_int_equal(r[i]->ncb.length, sizeof(msg));
		assert_memory_equal(r[i]->buf, msg, sizeof(msg));
		assert_string_equal(nb_name_format(r[i]->ncb.callname, n),
				    "OTHER<00>");
		free(r[i]);
	}
	free(s);
	world_free(w);
}

static void directed_datagrams_reach_the_name(void **state)
{
	struct world *w = world_new(3, 9, NULL, NULL);
	struct op *r0 = op_new(w, NB_RECEIVE_DATAGRAM);
	struct op *r1 = op_new(w, NB_RECEIVE_DATAGRAM);
	struct op *s = op_name(w, NB_SEND_DATAGRAM, NULL, "TARGET");
	struct op *a = op_name(w, NB_ADD_NAME, "TARGET", NULL);
	struct op *f;

	(void)state;
	assert_int_equal(run(w, 1, a, 60 * IPX_SEC), NB_RC_OK);
	r1->ncb.num = a->ncb.num;
	r0->ncb.num = 0xFF;
	assert_int_equal(nb_submit(w->nb[0], &r0->ncb), NB_RC_PENDING);
	assert_int_equal(nb_submit(w->nb[1], &r1->ncb), NB_RC_PENDING);
	s->ncb.num = 1;
	memcpy(s->buf, "x", 1);
	s->ncb.length = 1;
	/* Not cached: a type-20 broadcast, taken by the holder only. */
	assert_int_equal(nb_submit(w->nb[2], &s->ncb), NB_RC_OK);
	ipx_loop_run_for(w->loop, IPX_SEC);
	assert_int_equal(r1->posted, 1);
	assert_int_equal(r0->posted, 0);
	assert_int_equal(w->dgrams_unicast, 0);
	/* Once the name is found, datagrams go straight to its node. */
	f = op_name(w, NB_FIND_NAME, NULL, "TARGET");
	assert_int_equal(run(w, 2, f, 60 * IPX_SEC), NB_RC_OK);
	r1->posted = 0;
	assert_int_equal(nb_submit(w->nb[1], &r1->ncb), NB_RC_PENDING);
	assert_int_equal(nb_submit(w->nb[2], &s->ncb), NB_RC_OK);
	ipx_loop_run_for(w->loop, IPX_SEC);
	assert_int_equal(r1->posted, 1);
	assert_int_equal(r1->ncb.length, 1);
	assert_int_equal(w->dgrams_unicast, 1);
	assert_int_equal(r0->posted, 0);
	/* A datagram larger than the buffer is cut: 0x06. */
	r1->posted = 0;
	r1->ncb.length = 3;
	assert_int_equal(nb_submit(w->nb[1], &r1->ncb), NB_RC_PENDING);
	s->ncb.length = 10;
	assert_int_equal(nb_submit(w->nb[2], &s->ncb), NB_RC_OK);
	ipx_loop_run_for(w->loop, IPX_SEC);
	assert_int_equal(r1->ncb.retcode, NB_RC_INCOMPLETE);
	assert_int_equal(r1->ncb.length, 3);
	/* Too large to send at all: 0x01. */
	s->ncb.length = NB_MAX_DATAGRAM + 1;
	assert_int_equal(nb_submit(w->nb[2], &s->ncb), NB_RC_BUFLEN);
	free(r0);
	free(r1);
	free(s);
	free(a);
	free(f);
	world_free(w);
}

/* ---- sessions ---- */

struct pair {
	struct world *w;
	uint8_t lsn[2];		/* node 0 called, node 1 listened */
};

static void open_session(struct world *w, struct pair *p, uint8_t rto,
			 uint8_t sto)
{
	struct op *l = op_name(w, NB_LISTEN, "LISTENER", "*");
	struct op *c = op_name(w, NB_CALL, "CALLER", "LISTENER");

	p->w = w;
	assert_int_equal(add_name(w, 0, "CALLER", false), NB_RC_OK);
	assert_int_equal(add_name(w, 1, "LISTENER", false), NB_RC_OK);
	l->ncb.rto = c->ncb.rto = rto;
	l->ncb.sto = c->ncb.sto = sto;
	assert_int_equal(nb_submit(w->nb[1], &l->ncb), NB_RC_PENDING);
	assert_int_equal(run(w, 0, c, 120 * IPX_SEC), NB_RC_OK);
	ipx_loop_run_until(w->loop, posted, l, 60 * IPX_SEC);
	assert_int_equal(l->ncb.retcode, NB_RC_OK);
	p->lsn[0] = c->ncb.lsn;
	p->lsn[1] = l->ncb.lsn;
	{
		char n[NB_NAME_STRLEN];

		assert_string_equal(nb_name_format(l->ncb.callname, n),
				    "CALLER<00>");
	}
	free(l);
	free(c);
}

static uint8_t pattern(uint32_t msg, uint32_t i)
{
	uint32_t x = msg * 2654435761u ^ i * 40503u;

	return (uint8_t)(x ^ x >> 13);
}

/* Send 'count' messages of the given sizes from node 'from' and receive
 * them at the other end, checking every byte. */
static void exchange(struct pair *p, unsigned from, const size_t *sizes,
		     unsigned count)
{
	struct world *w = p->w;
	unsigned to = 1 - from;
	struct op *s = op_new(w, NB_SEND), *r = op_new(w, NB_RECEIVE);

	for (unsigned m = 0; m < count; m++) {
		s->ncb.lsn = p->lsn[from];
		s->ncb.length = (uint16_t)sizes[m];
		for (size_t i = 0; i < sizes[m]; i++)
			s->buf[i] = pattern(m, (uint32_t)i);
		s->posted = 0;
		r->posted = 0;
		r->ncb.lsn = p->lsn[to];
		r->ncb.length = NB_MAX_MESSAGE;
		memset(r->buf, 0xEE, sizes[m] + 1);
		assert_int_equal(nb_submit(w->nb[to], &r->ncb), NB_RC_PENDING);
		assert_int_equal(nb_submit(w->nb[from], &s->ncb), NB_RC_PENDING);
		assert_int_equal(ipx_loop_run_until(w->loop, posted, r,
						    3600 * IPX_SEC),
				 IPX_OK);
		ipx_loop_run_until(w->loop, posted, s, 60 * IPX_SEC);
		assert_int_equal(s->ncb.retcode, NB_RC_OK);
		assert_int_equal(r->ncb.retcode, NB_RC_OK);
		assert_int_equal(r->ncb.length, sizes[m]);
		for (size_t i = 0; i < sizes[m]; i++)
			if (r->buf[i] != pattern(m, (uint32_t)i))
				fail_msg("message %u byte %zu differs", m, i);
	}
	free(s);
	free(r);
}

static void messages_of_64k_cross_under_loss_and_duplication(void **state)
{
	static const size_t sizes[] = { 65535, 0, 1, 32, 1452, 1453, 65535,
					40000, 65535, 65535 };
	struct world *w = world_new(2, 10, NULL, NULL);
	struct pair p;
	const struct nb_stats *s0, *s1;

	(void)state;
	open_session(w, &p, 0, 0);
	faults(w, 100000, 100000);	/* 10 % lost, 10 % duplicated */
	exchange(&p, 0, sizes, 10);
	exchange(&p, 1, sizes, 4);
	s0 = nb_get_stats(w->nb[0]);
	s1 = nb_get_stats(w->nb[1]);
	/* 64 KB went as 46 fragments each; the faults were real. */
	assert_true(s0->data_tx > 4 * 46);
	assert_true(s0->retransmits > 10);
	assert_true(s1->drops[NB_DROP_DUPLICATE] > 5);
	assert_true(ipx_mem_segment_stats(w->seg)->lost > 20);
	assert_int_equal(s0->sessions_aborted, 0);
	if (getenv("NB_TEST_VERBOSE"))
		print_message("64K: %.1f s simulated, %llu data, %llu resent, "
			      "%llu dup\n",
			      (double)now(w) / IPX_SEC,
			      (unsigned long long)s0->data_tx,
			      (unsigned long long)s0->retransmits,
			      (unsigned long long)s1->drops[NB_DROP_DUPLICATE]);
	world_free(w);
}

static void receive_smaller_than_the_message_gets_the_rest_next(void **state)
{
	struct world *w = world_new(2, 11, NULL, NULL);
	struct op *s = op_new(w, NB_SEND), *r = op_new(w, NB_RECEIVE);
	struct pair p;

	(void)state;
	open_session(w, &p, 0, 0);
	s->ncb.lsn = p.lsn[0];
	for (int i = 0; i < 3000; i++)
		s->buf[i] = (uint8_t)i;
	s->ncb.length = 3000;
	/* Sent before any RECEIVE: held, and the SEND completes. */
	assert_int_equal(run(w, 0, s, 60 * IPX_SEC), NB_RC_OK);
	r->ncb.lsn = p.lsn[1];
	r->ncb.length = 1000;
	assert_int_equal(run(w, 1, r, IPX_SEC), NB_RC_INCOMPLETE);
	assert_int_equal(r->ncb.length, 1000);
	assert_int_equal(r->buf[999], (uint8_t)999);
	r->posted = 0;
	r->ncb.length = 5000;
	assert_int_equal(run(w, 1, r, IPX_SEC), NB_RC_OK);
	assert_int_equal(r->ncb.length, 2000);
	assert_int_equal(r->buf[0], (uint8_t)1000);
	assert_int_equal(r->buf[1999], (uint8_t)2999);
	free(s);
	free(r);
	world_free(w);
}

/* A receiver that never posts a RECEIVE: the sender is told "not ready"
 * and waits (no retries spent, no abort) until the receiver reads. */
static void slow_receiver_holds_the_sender_back(void **state)
{
	struct world *w = world_new(2, 12, NULL, NULL);
	struct op *s[3], *r = op_new(w, NB_RECEIVE);
	struct pair p;

	(void)state;
	open_session(w, &p, 0, 0);
	for (int i = 0; i < 3; i++) {
		s[i] = op_new(w, NB_SEND);
		s[i]->ncb.lsn = p.lsn[0];
		s[i]->ncb.length = 60000;
		memset(s[i]->buf, 'a' + i, 60000);
		assert_int_equal(nb_submit(w->nb[0], &s[i]->ncb), NB_RC_PENDING);
	}
	ipx_loop_run_for(w->loop, 120 * IPX_SEC);
	/* One message held; the second stopped by "not ready". */
	assert_int_equal(s[0]->posted, 1);
	assert_int_equal(s[1]->posted, 0);
	assert_true(nb_get_stats(w->nb[0])->busy_rx >= 1);
	assert_true(nb_get_stats(w->nb[1])->busy_tx >= 1);
	assert_int_equal(nb_get_stats(w->nb[0])->sessions_aborted, 0);
	for (int i = 0; i < 3; i++) {
		r->posted = 0;
		r->ncb.lsn = p.lsn[1];
		r->ncb.length = NB_MAX_MESSAGE;
		assert_int_equal(run(w, 1, r, 60 * IPX_SEC), NB_RC_OK);
		assert_int_equal(r->ncb.length, 60000);
		assert_int_equal(r->buf[59999], 'a' + i);
	}
	ipx_loop_run_for(w->loop, 10 * IPX_SEC);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(s[i]->ncb.retcode, NB_RC_OK);
		free(s[i]);
	}
	free(r);
	world_free(w);
}

static void hang_up_closes_both_ends(void **state)
{
	struct world *w = world_new(2, 13, NULL, NULL);
	struct op *r = op_new(w, NB_RECEIVE), *h = op_new(w, NB_HANG_UP);
	struct op *s = op_new(w, NB_SEND);
	struct pair p;

	(void)state;
	open_session(w, &p, 0, 0);
	r->ncb.lsn = p.lsn[1];
	assert_int_equal(nb_submit(w->nb[1], &r->ncb), NB_RC_PENDING);
	/* Data sent just before the hang up still arrives first. */
	s->ncb.lsn = p.lsn[0];
	s->ncb.length = 5;
	memcpy(s->buf, "bye!!", 5);
	assert_int_equal(nb_submit(w->nb[0], &s->ncb), NB_RC_PENDING);
	h->ncb.lsn = p.lsn[0];
	assert_int_equal(run(w, 0, h, 60 * IPX_SEC), NB_RC_OK);
	assert_int_equal(s->ncb.retcode, NB_RC_OK);
	assert_int_equal(r->ncb.retcode, NB_RC_OK);
	assert_int_equal(r->ncb.length, 5);
	/* The next RECEIVE learns the session is closed. */
	r->posted = 0;
	assert_int_equal(run(w, 1, r, IPX_SEC), NB_RC_CLOSED);
	ipx_loop_run_for(w->loop, IPX_SEC);
	assert_int_equal(nb_session_count(w->nb[0]), 0);
	assert_int_equal(nb_session_count(w->nb[1]), 0);
	/* The session number is gone. */
	s->posted = 0;
	assert_int_equal(nb_submit(w->nb[0], &s->ncb), NB_RC_BADLSN);
	free(r);
	free(h);
	free(s);
	world_free(w);
}

static void dead_peer_ends_the_session_within_the_abort_timeout(void **state)
{
	struct world *w = world_new(2, 14, NULL, NULL);
	struct op *r = op_new(w, NB_RECEIVE);
	ipx_time abort_after = ipx_ticks(w->cfg.netbios_abort_timeout), last;
	struct pair p;

	(void)state;
	open_session(w, &p, 0, 0);
	ipx_loop_run_for(w->loop, 30 * IPX_SEC);	/* keepalives flow */
	assert_int_equal(nb_session_count(w->nb[0]), 1);
	r->ncb.lsn = p.lsn[0];
	assert_int_equal(nb_submit(w->nb[0], &r->ncb), NB_RC_PENDING);
	/* The peer's last packet, then silence. */
	{
		struct op *k = op_new(w, NB_SEND);

		k->ncb.lsn = p.lsn[1];
		k->ncb.length = 1;
		assert_int_equal(nb_submit(w->nb[1], &k->ncb), NB_RC_PENDING);
		ipx_loop_run_for(w->loop, 10 * IPX_MSEC);
		free(k);
	}
	r->posted = 0;
	assert_int_equal(nb_submit(w->nb[0], &r->ncb), NB_RC_PENDING);
	last = now(w);
	faults(w, 1000000, 0);
	assert_int_equal(ipx_loop_run_until(w->loop, posted, r,
					    2 * abort_after),
			 IPX_OK);
	assert_int_equal(r->ncb.retcode, NB_RC_SABORT);
	assert_true(r->at >= last + abort_after - 10 * IPX_MSEC);
	assert_true(r->at <= last + abort_after + IPX_TICK);
	assert_true(nb_get_stats(w->nb[0])->probes_tx >= 1);
	assert_int_equal(nb_session_count(w->nb[0]), 0);
	free(r);
	world_free(w);
}

static void sender_gives_up_after_the_retry_count(void **state)
{
	struct world *w = world_new(2, 15, NULL, NULL);
	struct op *s = op_new(w, NB_SEND);
	struct pair p;
	ipx_time t0, expect;

	(void)state;
	open_session(w, &p, 0, 0);
	faults(w, 1000000, 0);
	s->ncb.lsn = p.lsn[0];
	s->ncb.length = 100;
	t0 = now(w);
	assert_int_equal(run(w, 0, s, 600 * IPX_SEC), NB_RC_SABORT);
	/* The first try and RETRY COUNT resends, RETRY DELAY apart: with
	 * the documented defaults (10 resends, 500 ms) 11 waits of 500 ms.
	 * Written out, so a wrong default cannot pass. */
	expect = 11 * 500 * IPX_MSEC;
	assert_int_equal(s->at - t0, expect);
	assert_int_equal(nb_get_stats(w->nb[0])->retransmits, 10);
	free(s);
	world_free(w);
}

static void idle_session_lives_on(void **state)
{
	struct world *w = world_new(2, 16, NULL, NULL);
	struct pair p;

	(void)state;
	open_session(w, &p, 0, 0);
	ipx_loop_run_for(w->loop, 3600 * IPX_SEC);
	assert_int_equal(nb_session_count(w->nb[0]), 1);
	assert_int_equal(nb_session_count(w->nb[1]), 1);
	assert_true(nb_get_stats(w->nb[0])->keepalives_tx > 100);
	world_free(w);
}

/* ---- limits and return codes ---- */

static void name_table_limits(void **state)
{
	struct nb_options opts = { .names = 2 };
	struct world *w = world_new(1, 17, NULL, &opts);
	struct op *o = op_new(w, NB_ADD_NAME);

	(void)state;
	assert_int_equal(add_name(w, 0, "ONE", false), NB_RC_OK);
	assert_int_equal(add_name(w, 0, "ONE", false), NB_RC_DUPNAME);
	assert_int_equal(add_name(w, 0, "TWO", true), NB_RC_OK);
	assert_int_equal(add_name(w, 0, "THREE", false), NB_RC_NAMTFUL);
	/* '*' and 0x00 may not start a name. */
	memset(o->ncb.name, ' ', NB_NAME_LEN);
	o->ncb.name[0] = '*';
	assert_int_equal(nb_submit(w->nb[0], &o->ncb), NB_RC_NOWILD);
	o->ncb.name[0] = 0;
	assert_int_equal(nb_submit(w->nb[0], &o->ncb), NB_RC_NOWILD);
	o->ncb.command = 0x7F;
	assert_int_equal(nb_submit(w->nb[0], &o->ncb), NB_RC_BADCMD);
	free(o);
	world_free(w);
}

static void command_and_buffer_limits(void **state)
{
	struct ipx_config cfg;
	struct world *w;
	struct op *o[6];

	(void)state;
	ipx_config_defaults(&cfg);
	cfg.netbios_commands = 4;
	w = world_new(1, 18, &cfg, NULL);
	for (int i = 0; i < 5; i++) {
		o[i] = op_new(w, NB_RECEIVE_DATAGRAM);
		o[i]->ncb.num = 0xFF;
	}
	for (int i = 0; i < 4; i++)
		assert_int_equal(nb_submit(w->nb[0], &o[i]->ncb), NB_RC_PENDING);
	assert_int_equal(nb_submit(w->nb[0], &o[4]->ncb), NB_RC_TOOMANY);
	assert_int_equal(nb_pending(w->nb[0]), 4);
	/* CANCEL gives a slot back. */
	{
		struct op *c = op_new(w, NB_CANCEL);

		c->ncb.target = &o[0]->ncb;
		assert_int_equal(nb_submit(w->nb[0], &c->ncb), NB_RC_OK);
		assert_int_equal(nb_submit(w->nb[0], &c->ncb), NB_RC_CANOCCR);
		ipx_loop_run_for(w->loop, IPX_MSEC);
		assert_int_equal(o[0]->ncb.retcode, NB_RC_CANCELLED);
		assert_int_equal(nb_submit(w->nb[0], &o[4]->ncb), NB_RC_PENDING);
		c->ncb.target = &c->ncb;
		assert_int_equal(nb_submit(w->nb[0], &c->ncb), NB_RC_BADCMD);
		free(c);
	}
	for (int i = 0; i < 5; i++)
		free(o[i]);
	world_free(w);

	/* NETBIOS RECEIVE BUFFERS: receives posted at once. */
	ipx_config_defaults(&cfg);
	cfg.netbios_receive_buffers = 4;
	w = world_new(1, 19, &cfg, NULL);
	for (int i = 0; i < 5; i++) {
		o[i] = op_new(w, i % 2 ? NB_RECEIVE_DATAGRAM
				       : NB_RECEIVE_BCAST_DATAGRAM);
		o[i]->ncb.num = 0xFF;
	}
	for (int i = 0; i < 4; i++)
		assert_int_equal(nb_submit(w->nb[0], &o[i]->ncb), NB_RC_PENDING);
	assert_int_equal(nb_submit(w->nb[0], &o[4]->ncb), NB_RC_NORES);
	assert_int_equal(nb_get_stats(w->nb[0])->no_resource, 1);
	for (int i = 0; i < 5; i++)
		free(o[i]);
	world_free(w);
}

static void send_buffer_and_session_limits(void **state)
{
	struct ipx_config cfg;
	struct world *w;
	struct op *s[5], *l[5];
	struct pair p;

	(void)state;
	ipx_config_defaults(&cfg);
	cfg.netbios_send_buffers = 4;
	cfg.netbios_sessions = 4;
	w = world_new(2, 20, &cfg, NULL);
	open_session(w, &p, 0, 0);
	/* NETBIOS SEND BUFFERS: SENDs under way at once. */
	for (int i = 0; i < 5; i++) {
		s[i] = op_new(w, NB_SEND);
		s[i]->ncb.lsn = p.lsn[0];
		s[i]->ncb.length = 10;
	}
	for (int i = 0; i < 4; i++)
		assert_int_equal(nb_submit(w->nb[0], &s[i]->ncb), NB_RC_PENDING);
	assert_int_equal(nb_submit(w->nb[0], &s[4]->ncb), NB_RC_NORES);
	/* A datagram needs a send buffer too. */
	{
		struct op *d = op_new(w, NB_SEND_BCAST_DATAGRAM);

		d->ncb.num = 1;
		d->ncb.length = 1;
		assert_int_equal(nb_submit(w->nb[0], &d->ncb), NB_RC_NORES);
		ipx_loop_run_for(w->loop, 10 * IPX_SEC);	/* SENDs done */
		assert_int_equal(nb_submit(w->nb[0], &d->ncb), NB_RC_OK);
		free(d);
	}
	/* NETBIOS SESSIONS: 1 in use, 3 more LISTENs, then full. */
	for (int i = 0; i < 4; i++) {
		l[i] = op_name(w, NB_LISTEN, "CALLER", "*");
		assert_int_equal(nb_submit(w->nb[0], &l[i]->ncb),
				 i < 3 ? NB_RC_PENDING : NB_RC_LOCTFUL);
	}
	/* A call that finds the table full locally. */
	{
		struct op *c = op_name(w, NB_CALL, "CALLER", "LISTENER");

		assert_int_equal(nb_submit(w->nb[0], &c->ncb), NB_RC_LOCTFUL);
		free(c);
	}
	for (int i = 0; i < 5; i++)
		free(s[i]);
	for (int i = 0; i < 4; i++)
		free(l[i]);
	world_free(w);
}

static void session_return_codes(void **state)
{
	struct world *w = world_new(3, 21, NULL, NULL);
	struct op *o;
	struct pair p;
	ipx_time t0;

	(void)state;
	open_session(w, &p, 2 /* RTO 1 s */, 0);
	/* Nobody has the name: no answer, 0x14. */
	o = op_name(w, NB_CALL, "CALLER", "NOBODY");
	assert_int_equal(run(w, 0, o, 60 * IPX_SEC), NB_RC_NOCALL);
	free(o);
	/* The name is there, but no LISTEN: rejected, 0x12. */
	o = op_name(w, NB_CALL, "CALLER", "LISTENER");
	assert_int_equal(run(w, 0, o, 60 * IPX_SEC), NB_RC_REJECT);
	free(o);
	/* A LISTEN for one caller only refuses others. */
	assert_int_equal(add_name(w, 2, "THIRD", false), NB_RC_OK);
	{
		struct op *l = op_name(w, NB_LISTEN, "LISTENER", "CALLER");

		assert_int_equal(nb_submit(w->nb[1], &l->ncb), NB_RC_PENDING);
		o = op_name(w, NB_CALL, "THIRD", "LISTENER");
		assert_int_equal(run(w, 2, o, 60 * IPX_SEC), NB_RC_REJECT);
		free(o);
		/* LISTEN for a name being deleted: 0x17 name deleted; the
		 * name has a session: 0x0F. */
		o = op_name(w, NB_DELETE_NAME, "LISTENER", NULL);
		assert_int_equal(run(w, 1, o, IPX_SEC), NB_RC_ACTSES);
		ipx_loop_run_for(w->loop, IPX_MSEC);
		assert_int_equal(l->ncb.retcode, NB_RC_NAMERR);
		free(o);
		free(l);
	}
	/* RECEIVE with the session's receive timeout: 0x05, and the
	 * session stays. */
	o = op_new(w, NB_RECEIVE);
	o->ncb.lsn = p.lsn[0];
	t0 = now(w);
	assert_int_equal(run(w, 0, o, 60 * IPX_SEC), NB_RC_TIMEOUT);
	assert_true(o->at - t0 >= IPX_SEC && o->at - t0 <= IPX_SEC + IPX_TICK);
	assert_int_equal(nb_session_count(w->nb[0]), 1);
	/* Bad session and name numbers. */
	o->posted = 0;
	o->ncb.lsn = 200;
	assert_int_equal(nb_submit(w->nb[0], &o->ncb), NB_RC_BADLSN);
	o->ncb.command = NB_RECEIVE_DATAGRAM;
	o->ncb.num = 77;
	assert_int_equal(nb_submit(w->nb[0], &o->ncb), NB_RC_BADNUM);
	o->ncb.command = NB_SEND_DATAGRAM;
	assert_int_equal(nb_submit(w->nb[0], &o->ncb), NB_RC_BADNUM);
	free(o);
	/* The peer hangs up: our pending RECEIVE gets 0x0A. */
	o = op_new(w, NB_RECEIVE);
	o->ncb.lsn = p.lsn[0];
	o->ncb.command = NB_RECEIVE;
	{
		struct op *h = op_new(w, NB_HANG_UP);

		h->ncb.lsn = p.lsn[1];
		assert_int_equal(nb_submit(w->nb[0], &o->ncb), NB_RC_PENDING);
		assert_int_equal(run(w, 1, h, 60 * IPX_SEC), NB_RC_OK);
		ipx_loop_run_until(w->loop, posted, o, IPX_SEC);
		assert_int_equal(o->ncb.retcode, NB_RC_CLOSED);
		free(h);
	}
	free(o);
	world_free(w);
}

static void cancel_and_send_timeout(void **state)
{
	struct world *w = world_new(2, 22, NULL, NULL);
	struct op *s = op_new(w, NB_SEND), *c = op_new(w, NB_CANCEL);
	struct op *l;
	struct pair p;

	(void)state;
	open_session(w, &p, 0, 4 /* STO 2 s */);
	/* A SEND the peer cannot take (no room, no RECEIVE) times out: the
	 * session ends (0x05 for the SEND). */
	for (int i = 0; i < 2; i++) {
		s->posted = 0;
		s->ncb.lsn = p.lsn[0];
		s->ncb.length = 65535;
		assert_int_equal(run(w, 0, s, 60 * IPX_SEC),
				 i == 0 ? NB_RC_OK : NB_RC_TIMEOUT);
	}
	assert_int_equal(nb_session_count(w->nb[0]), 0);
	/* CANCEL of a LISTEN: 0x0B; of something done: 0x24; of a
	 * command that cannot be cancelled: 0x26. */
	l = op_name(w, NB_LISTEN, "CALLER", "*");
	assert_int_equal(nb_submit(w->nb[0], &l->ncb), NB_RC_PENDING);
	c->ncb.target = &l->ncb;
	assert_int_equal(nb_submit(w->nb[0], &c->ncb), NB_RC_OK);
	ipx_loop_run_for(w->loop, IPX_MSEC);
	assert_int_equal(l->ncb.retcode, NB_RC_CANCELLED);
	assert_int_equal(nb_submit(w->nb[0], &c->ncb), NB_RC_CANOCCR);
	free(l);
	l = op_name(w, NB_ADD_NAME, "LATER", NULL);
	assert_int_equal(nb_submit(w->nb[0], &l->ncb), NB_RC_PENDING);
	c->ncb.target = &l->ncb;
	assert_int_equal(nb_submit(w->nb[0], &c->ncb), NB_RC_CANCEL);
	ipx_loop_run_for(w->loop, 10 * IPX_SEC);
	assert_int_equal(l->ncb.retcode, NB_RC_OK);
	free(l);
	free(s);
	free(c);
	world_free(w);
}

static void receive_any_takes_data_and_endings(void **state)
{
	struct world *w = world_new(2, 23, NULL, NULL);
	struct op *a = op_new(w, NB_RECEIVE_ANY), *s = op_new(w, NB_SEND);
	struct op *h = op_new(w, NB_HANG_UP);
	struct pair p;

	(void)state;
	open_session(w, &p, 0, 0);
	a->ncb.num = 0xFF;
	assert_int_equal(nb_submit(w->nb[1], &a->ncb), NB_RC_PENDING);
	s->ncb.lsn = p.lsn[0];
	s->ncb.length = 2000;
	memset(s->buf, 'q', 2000);
	assert_int_equal(run(w, 0, s, 60 * IPX_SEC), NB_RC_OK);
	ipx_loop_run_until(w->loop, posted, a, IPX_SEC);
	assert_int_equal(a->ncb.retcode, NB_RC_OK);
	assert_int_equal(a->ncb.lsn, p.lsn[1]);
	assert_int_equal(a->ncb.length, 2000);
	/* The session ends: a RECEIVE ANY hears of it. */
	a->posted = 0;
	a->ncb.length = NB_MAX_MESSAGE;
	assert_int_equal(nb_submit(w->nb[1], &a->ncb), NB_RC_PENDING);
	h->ncb.lsn = p.lsn[0];
	assert_int_equal(run(w, 0, h, 60 * IPX_SEC), NB_RC_OK);
	ipx_loop_run_until(w->loop, posted, a, IPX_SEC);
	assert_int_equal(a->ncb.retcode, NB_RC_CLOSED);
	assert_int_equal(a->ncb.lsn, p.lsn[1]);
	free(a);
	free(s);
	free(h);
	world_free(w);
}

/* A 50-byte packet whose 34th byte is 1..5 reads as a name packet to
 * Wireshark: session data gets a pad byte, a datagram goes as type 20. */
static void fifty_byte_packets_stay_unambiguous(void **state)
{
	struct world *w = world_new(2, 26, NULL, NULL);
	struct op *s = op_new(w, NB_SEND), *r = op_new(w, NB_RECEIVE);
	struct op *d = op_name(w, NB_SEND_DATAGRAM, NULL, "LISTENER");
	struct op *rd = op_new(w, NB_RECEIVE_DATAGRAM);
	struct op *f = op_name(w, NB_FIND_NAME, NULL, "LISTENER");
	struct pair p;

	(void)state;
	open_session(w, &p, 0, 0);
	s->ncb.lsn = p.lsn[0];
	s->ncb.length = 32;
	memset(s->buf, 'z', 32);
	s->buf[15] = 3;
	r->ncb.lsn = p.lsn[1];
	assert_int_equal(nb_submit(w->nb[1], &r->ncb), NB_RC_PENDING);
	assert_int_equal(run(w, 0, s, 60 * IPX_SEC), NB_RC_OK);
	ipx_loop_run_until(w->loop, posted, r, IPX_SEC);
	assert_int_equal(r->ncb.retcode, NB_RC_OK);
	assert_int_equal(r->ncb.length, 32);
	assert_memory_equal(r->buf, s->buf, 32);
	assert_int_equal(w->padded, 1);
	/* A 16-byte datagram ending in 3, to a name in the cache. */
	assert_int_equal(run(w, 0, f, 60 * IPX_SEC), NB_RC_OK);
	rd->ncb.num = 0xFF;
	assert_int_equal(nb_submit(w->nb[1], &rd->ncb), NB_RC_PENDING);
	d->ncb.num = 1;
	d->ncb.length = 16;
	memcpy(d->buf, s->buf, 16);
	w->dgrams_unicast = 0;
	assert_int_equal(nb_submit(w->nb[0], &d->ncb), NB_RC_OK);
	ipx_loop_run_until(w->loop, posted, rd, IPX_SEC);
	assert_int_equal(rd->ncb.length, 16);
	assert_int_equal(w->dgrams_unicast, 0);
	free(s);
	free(r);
	free(d);
	free(rd);
	free(f);
	world_free(w);	/* checks that Wireshark misread nothing */
}

/* ---- a hand-made peer: session packets written byte by byte ---- */

struct rawpeer {
	struct ipx_node *node;
	struct ipx_socket *sock, *other;	/* on 0x455, and elsewhere */
	struct ipx_addr to;		/* the NetBIOS node it talks to */
	unsigned got;			/* session packets received */
	struct nb_sess_hdr last;	/* the last one's header */
	uint8_t last_data;		/* and its first data byte */
};

static void rawpeer_rx(struct ipx_socket *sock, const struct ipx_header *h,
		       const uint8_t *data, size_t len, void *ctx)
{
	struct rawpeer *r = ctx;
	struct nb_packet pk;

	(void)sock;
	if (nb_packet_classify(h->type, data, len, &pk) == IPX_OK &&
	    pk.ds >= NB_DS_SESSION_DATA && pk.ds <= NB_DS_SESSION_END_ACK &&
	    nb_sess_hdr_decode(pk.body, pk.len, &r->last) == IPX_OK) {
		r->last_data = r->last.len ? pk.body[NB_SESS_HDR_LEN] : 0;
		r->got++;
	}
}

/* A node on w's segment with a plain socket on 0x455, talking to node
 * 'peer' of w. */
static void rawpeer_open(struct world *w, struct rawpeer *r, unsigned peer)
{
	memset(r, 0, sizeof(*r));
	r->node = ipx_node_new(w->loop, &w->cfg);
	assert_int_equal(ipx_node_add_link(r->node,
					   ipx_mem_link_new(w->seg, NULL)),
			 IPX_OK);
	assert_int_equal(ipx_socket_open(r->node, IPX_SOCK_NETBIOS, rawpeer_rx,
					 r, &r->sock),
			 IPX_OK);
	assert_int_equal(ipx_socket_open(r->node, 0, rawpeer_rx, r, &r->other),
			 IPX_OK);
	ipx_node_address(w->node[peer], &r->to);
	r->to.socket = IPX_SOCK_NETBIOS;
}

static void rawpeer_close(struct rawpeer *r)
{
	ipx_socket_close(r->other);
	ipx_socket_close(r->sock);
	ipx_node_free(r->node);
}

/* Send bytes as they are from socket 'sock' of the peer; let them
 * arrive and be answered. */
static void rawpeer_send_bytes(struct world *w, struct ipx_socket *sock,
			       const struct ipx_addr *to, const uint8_t *p,
			       size_t len)
{
	assert_int_equal(ipx_socket_sendto(sock, to, IPX_TYPE_PEP, p, len),
			 IPX_OK);
	ipx_loop_run_for(w->loop, 10 * IPX_MSEC);
}

static void rawpeer_send(struct world *w, struct rawpeer *r,
			 const struct nb_sess_hdr *h, const uint8_t *data)
{
	uint8_t p[NB_SESS_HDR_LEN + 100];

	assert_true(h->len <= 100);
	nb_sess_hdr_encode(h, p);
	if (h->len)
		memcpy(p + NB_SESS_HDR_LEN, data, h->len);
	rawpeer_send_bytes(w, r->sock, &r->to, p, NB_SESS_HDR_LEN + h->len);
}

/* A call request from the peer, with connection id 'id', to 'called'. */
static void rawpeer_call(struct world *w, struct rawpeer *r, uint16_t id,
			 const char *called, size_t len)
{
	struct nb_call_req req = { .max_data = 100 };
	struct nb_sess_hdr h = { .cc = NB_CC_SYS | NB_CC_ACK,
				 .ds = NB_DS_SESSION_DATA, .src_id = id,
				 .dst_id = NB_NO_CONN };
	uint8_t call[NB_CALL_DATA_LEN];

	set_name(req.called, called);
	set_name(req.calling, "RAW");
	nb_call_req_encode(&req, call);
	h.total = h.len = (uint16_t)len;
	rawpeer_send(w, r, &h, call);
}

/* A session with a caller that takes 100-byte fragments only: the
 * listener keeps to them; data with a stale source id, or a first
 * fragment not at offset 0, is dropped and counted. */
static void listener_keeps_the_callers_limits(void **state)
{
	struct world *w = world_new(1, 27, NULL, NULL);
	struct op *l = op_name(w, NB_LISTEN, "LISTENER", "*");
	struct op *r = op_new(w, NB_RECEIVE), *s = op_new(w, NB_SEND);
	const struct nb_stats *st = nb_get_stats(w->nb[0]);
	struct nb_sess_hdr h;
	struct nb_session_info info;
	struct rawpeer peer;

	(void)state;
	rawpeer_open(w, &peer, 0);
	assert_int_equal(add_name(w, 0, "LISTENER", false), NB_RC_OK);
	assert_int_equal(nb_submit(w->nb[0], &l->ncb), NB_RC_PENDING);
	rawpeer_call(w, &peer, 0x2A07, "LISTENER", NB_CALL_DATA_LEN);
	assert_int_equal(l->posted, 1);
	assert_int_equal(l->ncb.retcode, NB_RC_OK);
	/* The accept went back, naming our id. */
	assert_int_equal(peer.got, 1);
	assert_int_equal(peer.last.dst_id, 0x2A07);
	assert_int_equal(nb_session_info(w->nb[0], l->ncb.lsn, &info), IPX_OK);
	assert_int_equal(info.remote_id, 0x2A07);
	assert_int_equal(info.max_data, 100);

	r->ncb.lsn = l->ncb.lsn;
	assert_int_equal(nb_submit(w->nb[0], &r->ncb), NB_RC_PENDING);
	h = (struct nb_sess_hdr){ .cc = NB_CC_ACK | NB_CC_EOM,
				  .ds = NB_DS_SESSION_DATA,
				  .src_id = 0x2B07,	/* an older session */
				  .dst_id = info.local_id, .seq = 0,
				  .total = 5, .len = 5 };
	rawpeer_send(w, &peer, &h, (const uint8_t *)"stale");
	assert_int_equal(st->drops[NB_DROP_STALE_ID], 1);
	assert_int_equal(r->posted, 0);
	/* The right id, but the first fragment of a message at offset 2. */
	h.src_id = 0x2A07;
	h.total = 7;
	h.offset = 2;
	rawpeer_send(w, &peer, &h, (const uint8_t *)"xxxxx");
	assert_int_equal(st->drops[NB_DROP_FRAGMENT], 1);
	assert_int_equal(r->posted, 0);
	assert_int_equal(st->data_rx, 0);
	/* The same data, well formed: taken. */
	h.total = 5;
	h.offset = 0;
	rawpeer_send(w, &peer, &h, (const uint8_t *)"fresh");
	assert_int_equal(r->posted, 1);
	assert_int_equal(r->ncb.retcode, NB_RC_OK);
	assert_int_equal(r->ncb.length, 5);
	assert_memory_equal(r->buf, "fresh", 5);
	assert_int_equal(st->drops[NB_DROP_STALE_ID], 1);
	assert_int_equal(st->drops[NB_DROP_FRAGMENT], 1);
	assert_int_equal(st->drops[NB_DROP_WRONG_PEER], 0);
	/* As `ipxlab netbios` prints them: nonzero drops only, by name. */
	{
		char *text = NULL;
		size_t size = 0;
		FILE *f = open_memstream(&text, &size);

		nb_print_stats(w->nb[0], f);
		fclose(f);
		assert_non_null(strstr(text, "netbios data_rx 1\n"));
		assert_non_null(strstr(text, "netbios drop stale_id 1\n"));
		assert_non_null(strstr(text, "netbios drop bad_fragment 1\n"));
		assert_null(strstr(text, "wrong_peer"));
		free(text);
	}

	/* A 1,000-byte SEND goes out in fragments of 100. */
	s->ncb.lsn = l->ncb.lsn;
	s->ncb.length = 1000;
	peer.got = 0;
	assert_int_equal(nb_submit(w->nb[0], &s->ncb), NB_RC_PENDING);
	ipx_loop_run_for(w->loop, 10 * IPX_MSEC);
	assert_true(peer.got >= 1);
	assert_int_equal(peer.last.cc & NB_CC_SYS, 0);
	assert_int_equal(peer.last.total, 1000);
	assert_int_equal(peer.last.offset, 0);
	assert_int_equal(peer.last.len, 100);
	free(l);
	free(r);
	free(s);
	rawpeer_close(&peer);
	world_free(w);
}

/* Every other session packet a peer may send wrongly: each refused,
 * answered where the protocol says so, and counted. */
static void odd_session_packets_are_answered_or_counted(void **state)
{
	struct world *w = world_new(1, 29, NULL, NULL);
	struct op *l = op_name(w, NB_LISTEN, "LISTENER", "*");
	struct op *r = op_new(w, NB_RECEIVE);
	const struct nb_stats *st = nb_get_stats(w->nb[0]);
	struct nb_sess_hdr h;
	struct nb_session_info info;
	struct rawpeer peer;
	uint8_t p[NB_SESS_HDR_LEN];

	(void)state;
	rawpeer_open(w, &peer, 0);
	assert_int_equal(add_name(w, 0, "LISTENER", false), NB_RC_OK);
	/* A call for a name that is not here: rejected, reason 2. */
	rawpeer_call(w, &peer, 0x3001, "NOBODY", NB_CALL_DATA_LEN);
	assert_int_equal(peer.got, 1);
	assert_int_equal(peer.last.ds, NB_DS_SESSION_END);
	assert_int_equal(peer.last.src_id, NB_NO_CONN);
	assert_int_equal(peer.last.dst_id, 0x3001);
	assert_int_equal(peer.last_data, NB_REJECT_NOT_HERE);
	/* Here, but nobody listens: reason 1. */
	rawpeer_call(w, &peer, 0x3001, "LISTENER", NB_CALL_DATA_LEN);
	assert_int_equal(peer.got, 2);
	assert_int_equal(peer.last_data, NB_REJECT_NO_LISTEN);
	assert_int_equal(st->calls_rejected, 2);
	/* A call request cut short: dropped. */
	assert_int_equal(nb_submit(w->nb[0], &l->ncb), NB_RC_PENDING);
	rawpeer_call(w, &peer, 0x3001, "LISTENER", NB_CALL_DATA_LEN - 1);
	assert_int_equal(st->drops[NB_DROP_SHORT], 1);
	assert_int_equal(l->posted, 0);
	/* Shorter than a session header: dropped. */
	memset(p, 0, sizeof(p));
	p[1] = NB_DS_SESSION_DATA;
	rawpeer_send_bytes(w, peer.sock, &peer.to, p, NB_SESS_HDR_LEN - 1);
	assert_int_equal(st->drops[NB_DROP_SHORT], 2);
	/* To no connection, but not a call request: unexpected. */
	h = (struct nb_sess_hdr){ .cc = NB_CC_ACK, .ds = NB_DS_SESSION_DATA,
				  .src_id = 0x3001, .dst_id = NB_NO_CONN };
	rawpeer_send(w, &peer, &h, NULL);
	assert_int_equal(st->drops[NB_DROP_UNEXPECTED], 1);
	assert_int_equal(peer.got, 2);
	/* The call, then the same call again (our accept was lost): the
	 * same accept, one session. */
	rawpeer_call(w, &peer, 0x3001, "LISTENER", NB_CALL_DATA_LEN);
	assert_int_equal(l->posted, 1);
	assert_int_equal(peer.got, 3);
	rawpeer_call(w, &peer, 0x3001, "LISTENER", NB_CALL_DATA_LEN);
	assert_int_equal(peer.got, 4);
	assert_int_equal(peer.last.cc & NB_CC_SYS, NB_CC_SYS);
	assert_int_equal(peer.last.dst_id, 0x3001);
	assert_int_equal(nb_session_count(w->nb[0]), 1);
	assert_int_equal(nb_session_info(w->nb[0], l->ncb.lsn, &info), IPX_OK);
	/* A session we do not have: counted; a session end for it is
	 * answered, so that the peer can finish. */
	h = (struct nb_sess_hdr){ .cc = NB_CC_ACK | NB_CC_EOM,
				  .ds = NB_DS_SESSION_DATA, .src_id = 0x3001,
				  .dst_id = (uint16_t)(info.local_id ^ 0x100) };
	rawpeer_send(w, &peer, &h, NULL);
	assert_int_equal(st->drops[NB_DROP_NO_SESSION], 1);
	h.cc = NB_CC_SYS | NB_CC_ACK;
	h.ds = NB_DS_SESSION_END;
	rawpeer_send(w, &peer, &h, NULL);
	assert_int_equal(st->drops[NB_DROP_NO_SESSION], 2);
	assert_int_equal(peer.got, 5);
	assert_int_equal(peer.last.ds, NB_DS_SESSION_END_ACK);
	/* The right ids from another socket of the peer's node. */
	h = (struct nb_sess_hdr){ .cc = NB_CC_ACK | NB_CC_EOM,
				  .ds = NB_DS_SESSION_DATA, .src_id = 0x3001,
				  .dst_id = info.local_id, .total = 0 };
	nb_sess_hdr_encode(&h, p);
	rawpeer_send_bytes(w, peer.other, &peer.to, p, sizeof(p));
	assert_int_equal(st->drops[NB_DROP_WRONG_PEER], 1);
	/* Data out of sequence: counted, and the ack says what we expect. */
	r->ncb.lsn = l->ncb.lsn;
	assert_int_equal(nb_submit(w->nb[0], &r->ncb), NB_RC_PENDING);
	h.seq = 5;
	rawpeer_send(w, &peer, &h, NULL);
	assert_int_equal(st->drops[NB_DROP_SEQUENCE], 1);
	assert_int_equal(peer.last.rcv_seq, 0);
	assert_int_equal(r->posted, 0);
	/* An empty message in sequence: taken; then the same again. */
	h.seq = 0;
	rawpeer_send(w, &peer, &h, NULL);
	assert_int_equal(r->posted, 1);
	assert_int_equal(r->ncb.length, 0);
	rawpeer_send(w, &peer, &h, NULL);
	assert_int_equal(st->drops[NB_DROP_DUPLICATE], 1);
	assert_int_equal(peer.last.rcv_seq, 1);
	/* The peer ends the session: acknowledged, and the session ends. */
	h = (struct nb_sess_hdr){ .cc = NB_CC_SYS | NB_CC_ACK,
				  .ds = NB_DS_SESSION_END, .src_id = 0x3001,
				  .dst_id = info.local_id };
	rawpeer_send(w, &peer, &h, NULL);
	assert_int_equal(peer.last.ds, NB_DS_SESSION_END_ACK);
	assert_int_equal(peer.last.dst_id, 0x3001);
	r->posted = 0;
	assert_int_equal(run(w, 0, r, IPX_SEC), NB_RC_CLOSED);
	free(l);
	free(r);
	rawpeer_close(&peer);
	world_free(w);
}

/* DELETE NAME of a name with a session: gone from the network at once,
 * so another node may claim it while the session lasts. */
static void name_being_deleted_is_not_defended(void **state)
{
	struct world *w = world_new(3, 28, NULL, NULL);
	struct op *d = op_name(w, NB_DELETE_NAME, "LISTENER", NULL);
	struct pair p;
	uint64_t defended;

	(void)state;
	open_session(w, &p, 0, 0);
	/* While it is ours, a claim is refused. */
	assert_int_equal(add_name(w, 2, "LISTENER", false), NB_RC_INUSE);
	defended = nb_get_stats(w->nb[1])->defended;
	assert_int_equal(run(w, 1, d, IPX_SEC), NB_RC_ACTSES);
	assert_int_equal(nb_session_count(w->nb[1]), 1);
	assert_int_equal(add_name(w, 2, "LISTENER", false), NB_RC_OK);
	assert_int_equal(nb_get_stats(w->nb[1])->defended, defended);
	assert_int_equal(nb_session_count(w->nb[1]), 1);
	free(d);
	world_free(w);
}

/* ---- status ---- */

static void adapter_and_session_status(void **state)
{
	struct world *w = world_new(2, 24, NULL, NULL);
	struct op *o = op_new(w, NB_ADAPTER_STATUS);
	struct nb_adapter_status st;
	struct ipx_addr a1;
	struct pair p;
	char n[NB_NAME_STRLEN];

	(void)state;
	open_session(w, &p, 0, 0);
	assert_int_equal(add_name(w, 1, "CREW", true), NB_RC_OK);
	/* Local: '*'. */
	set_name(o->ncb.callname, "*");
	assert_int_equal(run(w, 1, o, IPX_SEC), NB_RC_OK);
	assert_int_equal(nb_adapter_status_decode(o->buf, o->ncb.length, &st),
			 IPX_OK);
	ipx_node_address(w->node[1], &a1);
	assert_memory_equal(st.node, a1.node, 6);
	assert_int_equal(st.name_count, 2);
	assert_int_equal(st.names_present, 2);
	assert_string_equal(nb_name_format(st.names[0].name, n),
			    "LISTENER<00>");
	assert_int_equal(st.names[0].flags, NB_NAME_REGISTERED);
	assert_int_equal(st.names[1].flags, NB_NF_GROUP | NB_NAME_REGISTERED);
	assert_int_equal(st.sessions, 1);
	assert_int_equal(st.max_sessions, w->cfg.netbios_sessions);
	assert_int_equal(st.max_dgram, NB_MAX_DATAGRAM);
	/* Remote, by name: the same table, over the network. */
	o->posted = 0;
	o->ncb.length = 1000;
	set_name(o->ncb.callname, "LISTENER");
	assert_int_equal(run(w, 0, o, 60 * IPX_SEC), NB_RC_OK);
	assert_int_equal(nb_adapter_status_decode(o->buf, o->ncb.length, &st),
			 IPX_OK);
	assert_memory_equal(st.node, a1.node, 6);
	assert_int_equal(st.names_present, 2);
	/* A buffer too small: cut, 0x06. */
	o->posted = 0;
	o->ncb.length = 70;
	assert_int_equal(run(w, 0, o, 60 * IPX_SEC), NB_RC_INCOMPLETE);
	assert_int_equal(o->ncb.length, 70);
	/* Nobody has the name: no status, 0x05. */
	o->posted = 0;
	o->ncb.length = 1000;
	set_name(o->ncb.callname, "GHOST");
	assert_int_equal(run(w, 0, o, 60 * IPX_SEC), NB_RC_TIMEOUT);
	free(o);

	o = op_new(w, NB_SESSION_STATUS);
	set_name(o->ncb.name, "*");
	assert_int_equal(run(w, 1, o, IPX_SEC), NB_RC_OK);
	assert_int_equal(o->buf[1], 1);
	assert_int_equal(o->ncb.length, NB_SS_HDR_LEN + NB_SS_LEN);
	assert_int_equal(o->buf[4], p.lsn[1]);
	assert_int_equal(o->buf[5], NB_SS_ACTIVE);
	assert_string_equal(nb_name_format(o->buf + 6, n), "LISTENER<00>");
	assert_string_equal(nb_name_format(o->buf + 22, n), "CALLER<00>");
	o->ncb.length = 3;
	assert_int_equal(nb_submit(w->nb[1], &o->ncb), NB_RC_BUFLEN);
	set_name(o->ncb.name, "UNKNOWN");
	o->ncb.length = 100;
	assert_int_equal(nb_submit(w->nb[1], &o->ncb), NB_RC_NOWILD);
	free(o);
	world_free(w);
}

/* A remote ADAPTER STATUS to a node that has gone silent: resent every
 * RETRY DELAY, 0x05 after RETRY COUNT resends; CANCEL ends one early. */
static void remote_status_times_out_or_is_cancelled(void **state)
{
	struct world *w = world_new(2, 30, NULL, NULL);
	struct op *f = op_name(w, NB_FIND_NAME, NULL, "FAR");
	struct op *o = op_new(w, NB_ADAPTER_STATUS), *c = op_new(w, NB_CANCEL);
	ipx_time t0;

	(void)state;
	assert_int_equal(add_name(w, 1, "FAR", false), NB_RC_OK);
	assert_int_equal(run(w, 0, f, 60 * IPX_SEC), NB_RC_OK);
	faults(w, 1000000, 0);
	set_name(o->ncb.callname, "FAR");
	t0 = now(w);
	assert_int_equal(run(w, 0, o, 60 * IPX_SEC), NB_RC_TIMEOUT);
	/* The first query and 10 resends, 500 ms apart. */
	assert_int_equal(o->at - t0, 11 * 500 * IPX_MSEC);
	assert_int_equal(o->ncb.length, 0);
	o->posted = 0;
	o->ncb.length = 100;
	assert_int_equal(nb_submit(w->nb[0], &o->ncb), NB_RC_PENDING);
	ipx_loop_run_for(w->loop, IPX_SEC);
	c->ncb.target = &o->ncb;
	assert_int_equal(nb_submit(w->nb[0], &c->ncb), NB_RC_OK);
	ipx_loop_run_for(w->loop, IPX_MSEC);
	assert_int_equal(o->posted, 1);
	assert_int_equal(o->ncb.retcode, NB_RC_CANCELLED);
	/* Refused at once: no buffer for a length; a name that cannot be. */
	assert_int_equal(o->ncb.length, 0);
	o->ncb.length = 100;
	o->ncb.buffer = NULL;
	assert_int_equal(nb_submit(w->nb[0], &o->ncb), NB_RC_BUFLEN);
	o->ncb.buffer = o->buf;
	memset(o->ncb.callname, 0, NB_NAME_LEN);
	assert_int_equal(nb_submit(w->nb[0], &o->ncb), NB_RC_NOWILD);
	free(f);
	free(o);
	free(c);
	world_free(w);
}

/* A session to one of our own names goes through the node's loopback. */
static void session_with_ourselves(void **state)
{
	struct world *w = world_new(1, 25, NULL, NULL);
	struct op *l = op_name(w, NB_LISTEN, "ME", "*");
	struct op *c = op_name(w, NB_CALL, "ME", "ME");
	struct pair p;
	static const size_t sizes[] = { 10000, 3 };

	(void)state;
	assert_int_equal(add_name(w, 0, "ME", false), NB_RC_OK);
	assert_int_equal(nb_submit(w->nb[0], &l->ncb), NB_RC_PENDING);
	assert_int_equal(run(w, 0, c, 60 * IPX_SEC), NB_RC_OK);
	ipx_loop_run_until(w->loop, posted, l, IPX_SEC);
	assert_int_equal(l->ncb.retcode, NB_RC_OK);
	assert_int_not_equal(l->ncb.lsn, c->ncb.lsn);
	p.w = w;
	p.lsn[0] = c->ncb.lsn;
	p.lsn[1] = l->ncb.lsn;
	/* (both ends on node 0: exchange() uses node 'from' and 1 - from,
	 * so run it through a two-node view of the same module) */
	w->nb[1] = w->nb[0];
	exchange(&p, 0, sizes, 2);
	w->nb[1] = NULL;
	free(l);
	free(c);
	world_free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(name_claimed_twice_fails_on_the_second_node),
		cmocka_unit_test(netbios_internet_changes_count_and_delay),
		cmocka_unit_test(claim_survives_a_lost_objection),
		cmocka_unit_test(simultaneous_claims_leave_one_owner),
		cmocka_unit_test(group_names_are_shared),
		cmocka_unit_test(find_name_resolves_and_caches),
		cmocka_unit_test(cache_entries_expire),
		cmocka_unit_test(broadcast_datagrams_reach_every_node),
		cmocka_unit_test(directed_datagrams_reach_the_name),
		cmocka_unit_test(messages_of_64k_cross_under_loss_and_duplication),
		cmocka_unit_test(receive_smaller_than_the_message_gets_the_rest_next),
		cmocka_unit_test(slow_receiver_holds_the_sender_back),
		cmocka_unit_test(hang_up_closes_both_ends),
		cmocka_unit_test(dead_peer_ends_the_session_within_the_abort_timeout),
		cmocka_unit_test(sender_gives_up_after_the_retry_count),
		cmocka_unit_test(idle_session_lives_on),
		cmocka_unit_test(name_table_limits),
		cmocka_unit_test(command_and_buffer_limits),
		cmocka_unit_test(send_buffer_and_session_limits),
		cmocka_unit_test(session_return_codes),
		cmocka_unit_test(cancel_and_send_timeout),
		cmocka_unit_test(receive_any_takes_data_and_endings),
		cmocka_unit_test(fifty_byte_packets_stay_unambiguous),
		cmocka_unit_test(listener_keeps_the_callers_limits),
		cmocka_unit_test(name_being_deleted_is_not_defended),
		cmocka_unit_test(odd_session_packets_are_answered_or_counted),
		cmocka_unit_test(adapter_and_session_status),
		cmocka_unit_test(remote_status_times_out_or_is_cancelled),
		cmocka_unit_test(session_with_ourselves),
	};
	ipx_log_set_level(IPX_LOG_WARN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
