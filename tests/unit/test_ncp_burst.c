/*
 * test_ncp_burst.c - NCP packet burst on the in-memory link in simulated
 * time: 4 MB read and written intact under loss, duplication and
 * reordering; a fragment the test withholds resent alone by the server;
 * bursts longer than the window split; the delay the client asks for
 * kept between the server's fragments; a server that refuses burst
 * (0xFB) and a client told not to use it: one request at a time, data
 * intact; the header parser's checks.
 */
#include "cm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/ncp_burst.h"
#include "ipxlab/ncp_client.h"
#include "ncprig.h"

#define BIG (4u << 20)

static uint8_t *pattern(size_t n, uint32_t seed)
{
	uint8_t *p = malloc(n);

	assert_non_null(p);
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		p[i] = (uint8_t)(seed >> 16);
	}
	return p;
}

static void put_host(struct ncprig *r, const char *name, const uint8_t *p,
		     size_t n)
{
	char path[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", r->sys, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	fclose(f);
}

static uint8_t *get_host(struct ncprig *r, const char *name, size_t *n)
{
	char path[600];
	FILE *f;
	uint8_t *p = malloc(BIG + 1);

	snprintf(path, sizeof(path), "%s/%s", r->sys, name);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_non_null(p);
	*n = fread(p, 1, BIG + 1, f);
	fclose(f);
	return p;
}

static struct ncp_client *client(struct ncprig *r,
				 const struct ncp_client_opts *o)
{
	struct ncp_client *cl;
	struct ipx_addr a;

	assert_int_equal(ncp_client_new(r->cli->node, o, &cl), IPX_OK);
	ncprig_server_addr(r, &a);
	assert_int_equal(ncp_connect(cl, &a), 0);
	assert_int_equal(ncp_login(cl, "GUEST", ""), 0);
	assert_int_equal(ncp_negotiate(cl, 4096), 0);
	return cl;
}

static void faults(struct ncprig *r, uint32_t loss, uint32_t dup,
		   uint32_t reorder)
{
	struct ipx_mem_faults f = { 0 };

	f.loss_ppm = loss;
	f.dup_ppm = dup;
	f.reorder_ppm = reorder;
	f.reorder_delay = 3 * IPX_MSEC;
	ipx_mem_segment_set_faults(r->net->seg[0], &f);
}

static void test_read_faults(void **state)
{
	struct ncprig *r = ncprig_new(NULL);
	uint8_t *want = pattern(BIG, 7), *got = malloc(BIG);
	const struct ncp_server_stats *ss = ncp_server_stats(r->srv);
	const struct ncp_client_stats *cs;
	struct ncp_client *cl;
	struct ncp_fh fh;
	size_t n = 0;

	(void)state;
	put_host(r, "BIG.DAT", want, BIG);
	cl = client(r, NULL);
	cs = ncp_client_stats(cl);
	assert_true(ncp_burst_active(cl));
	faults(r, 20000, 10000, 20000);	/* 2 % lost, 1 % twice, 2 % late */
	assert_int_equal(ncp_open(cl, "BIG.DAT", NCP_OPEN_READ, &fh), 0);
	assert_int_equal(ncp_read(cl, &fh, 0, got, BIG, &n), 0);
	assert_int_equal(n, BIG);
	assert_memory_equal(got, want, BIG);
	/* bursts, not single reads; losses repaired by resends, the
	 * duplicates seen and discarded */
	assert_true(ss->burst_reads >= BIG / (256 * 1500));
	assert_true(ss->by_function[0x48] == 0);
	assert_true(ss->burst_frags_resent > 0);
	assert_true(cs->burst_missing_sent > 0);
	assert_true(cs->burst_drops[NCP_BURST_DROP_DUP] > 0);
	/* reading past the end: what there is */
	assert_int_equal(ncp_read(cl, &fh, BIG - 5000, got, 20000, &n), 0);
	assert_int_equal(n, 5000);
	assert_memory_equal(got, want + BIG - 5000, 5000);
	faults(r, 0, 0, 0);
	assert_int_equal(ncp_close(cl, &fh), 0);
	ncp_client_free(cl);
	free(want);
	free(got);
	ncprig_free(r);
}

static void test_write_faults(void **state)
{
	struct ncprig *r = ncprig_new(NULL);
	uint8_t *want = pattern(BIG, 11), *got;
	const struct ncp_server_stats *ss = ncp_server_stats(r->srv);
	const struct ncp_client_stats *cs;
	const struct ipx_mem_stats *ms =
		ipx_mem_segment_stats(r->net->seg[0]);
	struct ncp_client *cl;
	struct ncp_fh fh;
	size_t n;

	(void)state;
	cl = client(r, NULL);
	cs = ncp_client_stats(cl);
	assert_int_equal(ncp_open(cl, "OUT.DAT", NCP_OPEN_CREATE, &fh), 0);
	faults(r, 20000, 10000, 20000);
	assert_int_equal(ncp_write(cl, &fh, 0, want, BIG), 0);
	faults(r, 0, 0, 0);
	assert_int_equal(ncp_close(cl, &fh), 0);
	got = get_host(r, "OUT.DAT", &n);
	assert_int_equal(n, BIG);
	assert_memory_equal(got, want, BIG);
	assert_true(ss->burst_writes >= BIG / (256 * 1500));
	assert_true(ss->by_function[0x49] == 0);
	assert_true(ss->burst_missing_sent > 0);
	/* only what was missing went again: a fragment per packet lost,
	 * held back past its end of burst (it looked lost) or list that
	 * came twice, and an end of burst per timeout; never a whole burst
	 * (256 fragments) again */
	assert_true(cs->burst_frags_resent > 0);
	assert_true(cs->burst_frags_resent <= ms->lost + ms->reordered +
						     ms->duplicated +
						     cs->burst_timeouts);
	ncp_client_free(cl);
	free(want);
	free(got);
	ncprig_free(r);
}

/* ---- the server by hand: one fragment withheld ---- */

struct catch {
	unsigned n;
	struct ncp_burst_hdr h[64];
	uint8_t data[64][1500];
};

static void on_burst(struct ipx_socket *s, const struct ipx_header *ih,
		     const uint8_t *p, size_t len, void *ctx)
{
	struct catch *c = ctx;
	const uint8_t *body;

	(void)s;
	(void)ih;
	if (c->n < 64 && ncp_burst_decode(p, len, &c->h[c->n], &body) == 0) {
		memcpy(c->data[c->n], body, c->h[c->n].data_len);
		c->n++;
	}
}

static void test_one_resent(void **state)
{
	struct ncprig *r = ncprig_new(NULL);
	uint8_t *want = pattern(40000, 3), q[18], h4[6], pkt[100];
	const struct ncp_server_stats *ss = ncp_server_stats(r->srv);
	struct rawconn *b;
	struct ipx_socket *bs;
	struct catch c = { 0 };
	struct ncp_burst_req rq = { NCP_BURST_READ, { 0 }, 0, 30000 };
	struct ncp_burst_hdr h = { 0 };
	struct ncp_burst_gap g;
	const uint8_t *rep;
	uint32_t sid, frag;
	size_t rl;

	(void)state;
	put_host(r, "F.DAT", want, 40000);
	b = rawconn_open(r, true);
	assert_int_equal(ipx_socket_open(r->cli->node, 0x5000, on_burst, &c,
					 &bs), IPX_OK);
	ipx_put32(q, 0xC0FFEE);		/* our ID */
	ipx_put32(q + 4, 1000);		/* packets of 1000 bytes */
	ipx_put16(q + 8, 0x5000);	/* bursts to this socket */
	ipx_put32(q + 10, 65536);
	ipx_put32(q + 14, 65536);
	rep = rawconn_call(r, b, 0x65, q, sizeof(q), &rl);
	assert_int_equal(rl, 8 + 16);
	assert_int_equal(rep[6], 0);
	sid = ipx_get32(rep + 8);
	assert_int_equal(ipx_get32(rep + 12), 1000);
	frag = 1000 - 30 - NCP_BURST_HDR_LEN;
	rawconn_open_file(r, b, "F.DAT", h4);
	memcpy(rq.handle, h4 + 2, 4);
	h.stream = NCP_BURST_STREAM;
	h.flags = NCP_BF_EOB;
	h.src_id = 0xC0FFEE;
	h.dst_id = sid;
	h.burst_seq = h.ack_seq = 7;
	h.burst_len = h.data_len = NCP_BURST_REQ_LEN;
	ncp_burst_encode(&h, pkt);
	ncp_burst_req_encode(&rq, pkt + NCP_BURST_HDR_LEN);
	rawconn_send_raw(r, b, pkt, NCP_BURST_HDR_LEN + NCP_BURST_REQ_LEN);
	/* the reply: 8 + 30000 bytes in fragments of 'frag', the last EOB */
	assert_int_equal(c.n, (8 + 30000 + frag - 1) / frag);
	assert_true(c.h[c.n - 1].flags & NCP_BF_EOB);
	assert_int_equal(c.h[0].burst_len, 8 + 30000);
	assert_int_equal(c.h[0].ack_seq, 8);
	assert_int_equal(ipx_get32(c.data[0] + 4), 30000);
	assert_memory_equal(c.data[3], want + 3 * frag - 8, frag);
	/* say fragment 3 was lost: it alone comes again */
	h.flags = NCP_BF_SYS | NCP_BF_LST;
	h.burst_len = 8 + 30000;
	h.data_len = 0;
	h.nmissing = 1;
	ncp_burst_encode(&h, pkt);
	g.off = c.h[3].offset;
	g.len = c.h[3].data_len;
	ncp_burst_gap_put(pkt + NCP_BURST_HDR_LEN, 0, &g);
	c.n = 0;
	rawconn_send_raw(r, b, pkt, NCP_BURST_HDR_LEN + NCP_BURST_GAP_LEN);
	assert_int_equal(c.n, 1);
	assert_int_equal(ss->burst_frags_resent, 1);
	assert_int_equal(c.h[0].offset, g.off);
	assert_true(c.h[0].flags & NCP_BF_EOB);
	assert_memory_equal(c.data[0], want + 3 * frag - 8, frag);
	/* a fragment of no session is counted and dropped */
	h.dst_id = sid + 0x10000;
	ncp_burst_encode(&h, pkt);
	rawconn_send_raw(r, b, pkt, NCP_BURST_HDR_LEN + NCP_BURST_GAP_LEN);
	assert_int_equal(ss->burst_drops[NCP_BURST_DROP_NO_SESSION], 1);
	/* a truncated list too */
	h.dst_id = sid;
	h.nmissing = 5;
	ncp_burst_encode(&h, pkt);
	rawconn_send_raw(r, b, pkt, NCP_BURST_HDR_LEN + NCP_BURST_GAP_LEN);
	assert_int_equal(ss->burst_drops[NCP_BURST_DROP_BAD_LEN], 1);
	ipx_socket_close(bs);
	rawconn_close(b);
	free(want);
	ncprig_free(r);
}

static void test_window(void **state)
{
	struct ncprig *r = ncprig_new(NULL);
	struct ncp_client_opts o = { .retries = -1, .burst_window = 4 };
	uint8_t *want = pattern(200000, 5), *got = malloc(200000);
	const struct ncp_server_stats *ss = ncp_server_stats(r->srv);
	const struct ncp_client_stats *cs;
	struct ncp_client *cl;
	struct ncp_fh fh;
	size_t n, frag, per;

	(void)state;
	put_host(r, "W.DAT", want, 200000);
	cl = client(r, &o);
	cs = ncp_client_stats(cl);
	frag = ipx_node_max_payload(r->cli->node, ncp_server_addr(cl)) -
	       NCP_BURST_HDR_LEN;
	per = 4 * frag - NCP_BURST_READ_REP;
	assert_int_equal(ncp_open(cl, "W.DAT", NCP_OPEN_READ, &fh), 0);
	assert_int_equal(ncp_read(cl, &fh, 0, got, 200000, &n), 0);
	assert_int_equal(n, 200000);
	assert_memory_equal(got, want, 200000);
	/* a burst of at most 4 fragments each: more bursts, none longer */
	assert_int_equal(cs->bursts, (200000 + per - 1) / per);
	assert_true(ss->burst_frags_sent <= 4 * cs->bursts);
	assert_int_equal(cs->burst_frags_resent, 0);
	ncp_client_free(cl);
	free(want);
	free(got);
	ncprig_free(r);
}

static ipx_time timed_read(struct ncprig *r, ipx_time delay)
{
	struct ncp_client_opts o = { .retries = -1, .burst_delay = delay };
	uint8_t *want = pattern(60000, 9), *got = malloc(60000);
	struct ncp_client *cl;
	struct ncp_fh fh;
	size_t n;
	ipx_time t0;

	put_host(r, "D.DAT", want, 60000);
	cl = client(r, &o);
	assert_int_equal(ncp_open(cl, "D.DAT", NCP_OPEN_READ, &fh), 0);
	t0 = ipx_loop_now(r->net->loop);
	assert_int_equal(ncp_read(cl, &fh, 0, got, 60000, &n), 0);
	t0 = ipx_loop_now(r->net->loop) - t0;
	assert_int_equal(n, 60000);
	assert_memory_equal(got, want, 60000);
	ncp_client_free(cl);
	free(want);
	free(got);
	return t0;
}

static void test_delay(void **state)
{
	struct ncprig *r = ncprig_new(NULL);
	const struct ncp_server_stats *ss = ncp_server_stats(r->srv);
	ipx_time fast = timed_read(r, 0), slow;
	uint64_t frags = ss->burst_frags_sent;

	(void)state;
	slow = timed_read(r, 2 * IPX_MSEC);
	frags = ss->burst_frags_sent - frags;
	/* every gap between two fragments of a burst is 2 ms */
	assert_true(slow - fast >= (frags - 2) * 2 * IPX_MSEC);
	assert_true(fast < 20 * IPX_MSEC);
	ncprig_free(r);
}

static void round_trip(struct ncprig *r, const struct ncp_client_opts *o,
		       bool burst)
{
	uint8_t *want = pattern(300000, 13), *got = malloc(300000);
	struct ncp_client *cl = client(r, o);
	struct ncp_fh fh;
	size_t n;

	assert_int_equal(ncp_burst_active(cl), burst);
	faults(r, 20000, 10000, 20000);
	assert_int_equal(ncp_open(cl, "RT.DAT", NCP_OPEN_CREATE, &fh), 0);
	assert_int_equal(ncp_write(cl, &fh, 0, want, 300000), 0);
	assert_int_equal(ncp_read(cl, &fh, 0, got, 300000, &n), 0);
	assert_int_equal(ncp_close(cl, &fh), 0);
	faults(r, 0, 0, 0);
	assert_int_equal(n, 300000);
	assert_memory_equal(got, want, 300000);
	assert_int_equal(ncp_client_stats(cl)->bursts > 0, burst);
	ncp_client_free(cl);
	free(want);
	free(got);
}

static void test_refused(void **state)
{
	struct ncp_server_opts so;
	struct ncprig *r;
	const struct ncp_server_stats *ss;

	(void)state;
	ncprig_default_opts(&so);
	so.no_burst = true;
	r = ncprig_new(&so);
	ss = ncp_server_stats(r->srv);
	round_trip(r, NULL, false);
	assert_int_equal(ss->burst_refused, 1);
	assert_int_equal(ss->burst_sessions, 0);
	assert_true(ss->by_function[0x48] > 0 && ss->by_function[0x49] > 0);
	ncprig_free(r);
}

static void test_client_off(void **state)
{
	struct ncprig *r = ncprig_new(NULL);
	struct ncp_client_opts o = { .retries = -1, .no_burst = true };
	const struct ncp_server_stats *ss = ncp_server_stats(r->srv);

	(void)state;
	round_trip(r, &o, false);
	assert_int_equal(ss->by_function[0x65], 0);
	round_trip(r, NULL, true);
	assert_int_equal(ss->burst_sessions, 1);
	ncprig_free(r);
}

/* 10 % lost, 10 % twice, 10 % 30 ms late, 1 ms on every packet: a
 * megabyte each way, intact. */
static void test_heavy_faults(void **state)
{
	struct ncprig *r = ncprig_new(NULL);
	struct ipx_mem_faults f = { .loss_ppm = 100000, .dup_ppm = 100000,
				    .reorder_ppm = 100000,
				    .reorder_delay = 30 * IPX_MSEC,
				    .delay = IPX_MSEC };
	size_t len = 1 << 20, n;
	uint8_t *want = pattern(len, 17), *got = malloc(len), *host;
	struct ncp_client *cl = client(r, NULL);
	const struct ncp_client_stats *cs = ncp_client_stats(cl);
	struct ncp_fh fh;

	(void)state;
	ipx_mem_segment_set_faults(r->net->seg[0], &f);
	assert_int_equal(ncp_open(cl, "H.DAT", NCP_OPEN_CREATE, &fh), 0);
	assert_int_equal(ncp_write(cl, &fh, 0, want, len), 0);
	assert_int_equal(ncp_read(cl, &fh, 0, got, len, &n), 0);
	assert_int_equal(ncp_close(cl, &fh), 0);
	faults(r, 0, 0, 0);
	assert_int_equal(n, len);
	assert_memory_equal(got, want, len);
	host = get_host(r, "H.DAT", &n);
	assert_int_equal(n, len);
	assert_memory_equal(host, want, len);
	assert_true(cs->burst_frags_resent > 50 && cs->burst_timeouts > 0);
	ncp_client_free(cl);
	free(want);
	free(got);
	free(host);
	ncprig_free(r);
}

static void test_decode(void **state)
{
	uint8_t p[64] = { 0 };
	struct ncp_burst_hdr h = { 0 }, d;
	const uint8_t *body;

	(void)state;
	h.burst_len = 10;
	h.offset = 4;
	h.data_len = 6;
	ncp_burst_encode(&h, p);
	assert_int_equal(ncp_burst_decode(p, 42, &d, &body), 0);
	assert_int_equal(ncp_burst_decode(p, 41, &d, &body),
			 -1 - NCP_BURST_DROP_BAD_LEN);
	assert_int_equal(ncp_burst_decode(p, 35, &d, &body),
			 -1 - NCP_BURST_DROP_SHORT);
	h.offset = 5;
	ncp_burst_encode(&h, p);
	assert_int_equal(ncp_burst_decode(p, 42, &d, &body),
			 -1 - NCP_BURST_DROP_BAD_RANGE);
	p[0] = 0x22;
	assert_int_equal(ncp_burst_decode(p, 42, &d, &body),
			 -1 - NCP_BURST_DROP_SHORT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode),
		cmocka_unit_test(test_read_faults),
		cmocka_unit_test(test_write_faults),
		cmocka_unit_test(test_heavy_faults),
		cmocka_unit_test(test_one_resent),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_delay),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_client_off),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
