/*
 * test_link_mem.c - the in-memory segment: delivery through the loop,
 * delay, and seeded loss, duplication and reordering that repeat exactly.
 */
#include "cm.h"

#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/link_mem.h"

struct trace {
	int n;
	uint16_t seq[4096];
	ipx_time at[4096];
	struct ipx_loop *loop;
};

static void rx(struct ipx_link *l, const uint8_t *pkt, size_t len, void *ctx)
{
	struct trace *t = ctx;

	(void)l;
	assert_int_equal(len, 32);
	if (t->n < 4096) {
		t->seq[t->n] = ipx_get16(pkt + 30);
		t->at[t->n] = ipx_loop_now(t->loop);
		t->n++;
	}
}

/* Send 'count' numbered packets from a to b on a segment with faults. */
static void run(uint64_t seed, const struct ipx_mem_faults *f, int count,
		struct trace *t, struct ipx_mem_stats *stats)
{
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_mem_segment *seg;
	struct ipx_link *a, *b;
	uint8_t pkt[32] = { 0 };

	ipx_clock_fake_init(&clk, 0);
	loop = ipx_loop_new(&clk);
	seg = ipx_mem_segment_new(loop, 1, seed);
	if (f)
		ipx_mem_segment_set_faults(seg, f);
	a = ipx_mem_link_new(seg, NULL);
	b = ipx_mem_link_new(seg, NULL);
	memset(t, 0, sizeof(*t));
	t->loop = loop;
	b->rx = rx;
	b->rx_ctx = t;
	for (int i = 0; i < count; i++) {
		ipx_put16(pkt + 30, (uint16_t)i);
		assert_int_equal(ipx_link_send(a, pkt, 32, b->node), IPX_OK);
		ipx_loop_run_for(loop, IPX_MSEC);
	}
	ipx_loop_run_for(loop, 10 * IPX_SEC);
	*stats = *ipx_mem_segment_stats(seg);
	ipx_link_close(a);
	ipx_link_close(b);
	ipx_mem_segment_free(seg);
	ipx_loop_free(loop);
}

static void clean_segment_delivers_in_order_after_the_delay(void **state)
{
	static struct trace t;
	struct ipx_mem_faults f = { .delay = 5 * IPX_MSEC };
	struct ipx_mem_stats s;

	(void)state;
	run(1, &f, 100, &t, &s);
	assert_int_equal(t.n, 100);
	for (int i = 0; i < 100; i++) {
		assert_int_equal(t.seq[i], i);
		assert_int_equal(t.at[i], (ipx_time)i * IPX_MSEC + 5 * IPX_MSEC);
	}
	assert_int_equal(s.delivered, 100);
	assert_int_equal(s.lost + s.duplicated + s.reordered, 0);
}

static void faults_happen_at_about_their_rates(void **state)
{
	static struct trace t;
	struct ipx_mem_faults f = { .loss_ppm = 100000, .dup_ppm = 50000,
				    .reorder_ppm = 50000,
				    .reorder_delay = 3 * IPX_MSEC };
	struct ipx_mem_stats s;
	int inversions = 0;

	(void)state;
	run(7, &f, 4000, &t, &s);
	/* 10 % loss, 5 % duplication, 5 % reordering, within a few sigma. */
	assert_in_range(s.lost, 320, 480);
	assert_in_range(s.duplicated, 140, 260);
	assert_in_range(s.reordered, 140, 260);
	assert_int_equal(s.delivered, 4000 - s.lost + s.duplicated);
	for (int i = 1; i < t.n && i < 4096; i++)
		if (t.seq[i] < t.seq[i - 1])
			inversions++;
	assert_true(inversions > 50);
}

static void same_seed_same_faults(void **state)
{
	static struct trace t1, t2, t3;
	struct ipx_mem_faults f = { .loss_ppm = 200000, .dup_ppm = 100000,
				    .reorder_ppm = 100000, .jitter = IPX_MSEC };
	struct ipx_mem_stats s1, s2, s3;

	(void)state;
	run(99, &f, 1000, &t1, &s1);
	run(99, &f, 1000, &t2, &s2);
	run(100, &f, 1000, &t3, &s3);
	assert_int_equal(t1.n, t2.n);
	assert_memory_equal(t1.seq, t2.seq, sizeof(t1.seq));
	assert_memory_equal(t1.at, t2.at, sizeof(t1.at));
	assert_memory_equal(&s1, &s2, sizeof(s1));
	/* A different seed gives a different run. */
	assert_true(t1.n != t3.n || memcmp(t1.seq, t3.seq, sizeof(t1.seq)));
}

static void unknown_nodes_and_oversize_are_counted(void **state)
{
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_mem_segment *seg;
	struct ipx_link *a, *b;
	static const uint8_t nobody[6] = { 2, 1, 2, 3, 4, 5 };
	uint8_t pkt[600] = { 0 };

	(void)state;
	ipx_clock_fake_init(&clk, 0);
	loop = ipx_loop_new(&clk);
	seg = ipx_mem_segment_new(loop, 1, 1);
	a = ipx_mem_link_new(seg, NULL);
	b = ipx_mem_link_new(seg, a->node);	/* taken */
	assert_null(b);
	assert_null(ipx_mem_link_new(seg, ipx_node_broadcast));
	assert_int_equal(ipx_link_send(a, pkt, 32, nobody), IPX_OK);
	assert_int_equal(ipx_mem_segment_stats(seg)->no_such_node, 1);
	ipx_mem_segment_set_mtu(seg, 576);
	assert_int_equal(ipx_link_send(a, pkt, 577, nobody), IPX_ETOOBIG);
	ipx_link_close(a);
	ipx_mem_segment_free(seg);
	ipx_loop_free(loop);
}

static void count_rx(struct ipx_link *l, const uint8_t *pkt, size_t len,
		     void *ctx)
{
	(void)l;
	(void)pkt;
	(void)len;
	++*(int *)ctx;
}

/* A unicast reaches its node only (a promiscuous link hears it too), a
 * broadcast every node but the sender; nobody hears itself. */
static void each_packet_reaches_whom_it_should(void **state)
{
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_mem_segment *seg;
	struct ipx_link *l[3];
	int got[3] = { 0 };
	uint8_t pkt[32] = { 0 };

	(void)state;
	ipx_clock_fake_init(&clk, 0);
	loop = ipx_loop_new(&clk);
	seg = ipx_mem_segment_new(loop, 1, 1);
	for (int i = 0; i < 3; i++) {
		l[i] = ipx_mem_link_new(seg, NULL);
		l[i]->rx = count_rx;
		l[i]->rx_ctx = &got[i];
	}
	assert_int_equal(ipx_link_send(l[0], pkt, 32, l[1]->node), IPX_OK);
	ipx_loop_run_for(loop, IPX_SEC);
	assert_int_equal(got[0], 0);
	assert_int_equal(got[1], 1);
	assert_int_equal(got[2], 0);
	assert_int_equal(ipx_link_send(l[0], pkt, 32, ipx_node_broadcast),
			 IPX_OK);
	ipx_loop_run_for(loop, IPX_SEC);
	assert_int_equal(got[0], 0);
	assert_int_equal(got[1], 2);
	assert_int_equal(got[2], 1);
	/* To itself: nobody (the node loops its own packets, not the link). */
	assert_int_equal(ipx_link_send(l[0], pkt, 32, l[0]->node), IPX_OK);
	ipx_loop_run_for(loop, IPX_SEC);
	assert_int_equal(got[0], 0);
	ipx_mem_link_set_promiscuous(l[2], true);
	assert_int_equal(ipx_link_send(l[0], pkt, 32, l[1]->node), IPX_OK);
	ipx_loop_run_for(loop, IPX_SEC);
	assert_int_equal(got[1], 3);
	assert_int_equal(got[2], 2);
	assert_int_equal(ipx_mem_segment_stats(seg)->delivered, 5);
	for (int i = 0; i < 3; i++)
		ipx_link_close(l[i]);
	ipx_mem_segment_free(seg);
	ipx_loop_free(loop);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(clean_segment_delivers_in_order_after_the_delay),
		cmocka_unit_test(faults_happen_at_about_their_rates),
		cmocka_unit_test(same_seed_same_faults),
		cmocka_unit_test(unknown_nodes_and_oversize_are_counted),
		cmocka_unit_test(each_packet_reaches_whom_it_should),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
