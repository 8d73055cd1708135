/*
 * test_wan.c - the WAN bridge in simulated time: two in-memory segments
 * joined by the isn bridge modules. A lone frame waits for the 3 ms hold
 * timer; a trickle leaves at each hold; a block of 'release' bytes goes at
 * once, by fill; five flows are released by fill, sooner than one flow;
 * without a release block a busy Ethernet fills the whole receive buffer
 * first; load above the trunk rate is carried at that rate and the rest
 * dropped and counted; packets over 576 bytes never cross; the learning
 * table keeps local traffic home; the statistics as printed.
 */
#include "cm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/link_profile.h"
#include "ipxlab/wan.h"
#include "ipxlab/priv/link_medium.h"

#define MAXLOG 20000

struct rig {
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_mem_segment *seg[2];
	struct ipx_link *port[2];	/* the bridge's promiscuous links */
	struct ipx_link *sa, *sa2, *rb;	/* stations on A, A and B */
	struct ipx_wan *wan;
	struct ipx_profile isn;
	struct ipx_timer flood;
	size_t len;
	unsigned sent, n;
	ipx_time at[MAXLOG];
	/* flows_tick: 'flows' flows, each a frame every 'period' ticks,
	 * flow f at tick f of each period; when each frame was sent. */
	unsigned flows, period, tick;
	ipx_time sent_at[MAXLOG];
};

static void expect_prefix(const char *text, const char *want)
{
	if (strncmp(text, want, strlen(want)))
		fail_msg("got:\n%s\nwant first:\n%s", text, want);
}

static void to_wan(struct ipx_link *l, const uint8_t *pkt, size_t len,
		   void *ctx)
{
	struct rig *r = ctx;

	ipx_wan_input(r->wan, l == r->port[1], pkt, len);
}

static void from_wan(unsigned side, const uint8_t *pkt, size_t len, void *ctx)
{
	struct rig *r = ctx;

	assert_int_equal(ipx_link_send(r->port[side], pkt, len, pkt + 10),
			 IPX_OK);
}

static void at_rb(struct ipx_link *l, const uint8_t *pkt, size_t len,
		  void *ctx)
{
	struct rig *r = ctx;

	(void)l;
	(void)pkt;
	(void)len;
	if (r->n < MAXLOG)
		r->at[r->n] = ipx_loop_now(r->loop);
	r->n++;
}

/* An IPX packet of 'len' bytes from 'from' to 'to'. */
static void send_ipx(struct ipx_link *from, const struct ipx_link *to,
		     size_t len)
{
	uint8_t pkt[1500] = { 0 };
	struct ipx_header h = { .checksum = 0xFFFF, .length = (uint16_t)len,
				.type = 4 };

	memcpy(h.dst.node, to->node, 6);
	h.dst.socket = 0x4545;
	memcpy(h.src.node, from->node, 6);
	h.src.socket = 0x4545;
	ipx_header_encode(&h, pkt);
	assert_int_equal(ipx_link_send(from, pkt, len, to->node), IPX_OK);
}

static void flood_tick(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	struct rig *r = ctx;

	(void)loop;
	(void)t;
	send_ipx(r->sa, r->rb, r->len);
	r->sent++;
}

static void flows_tick(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	struct rig *r = ctx;

	(void)t;
	if (r->tick++ % r->period < r->flows) {
		if (r->sent < MAXLOG)
			r->sent_at[r->sent] = ipx_loop_now(loop);
		send_ipx(r->sa, r->rb, r->len);
		r->sent++;
	}
}

static const uint8_t port_b[6] = { 0x02, 0xB0, 0, 0, 0, 1 };
static const uint8_t rb_node[6] = { 0x02, 0xB0, 0, 0, 0, 2 };

static void rig_open(struct rig *r, const char *a_profile)
{
	memset(r, 0, sizeof(*r));
	ipx_clock_fake_init(&r->clk, 0);
	r->loop = ipx_loop_new(&r->clk);
	assert_int_equal(ipx_profile_named("isn", &r->isn), IPX_OK);
	for (int s = 0; s < 2; s++) {
		r->seg[s] = ipx_mem_segment_new(r->loop, 0, 3 + (uint64_t)s);
		r->port[s] = ipx_mem_link_new(r->seg[s], s ? port_b : NULL);
		ipx_mem_link_set_promiscuous(r->port[s], true);
		r->port[s]->rx = to_wan;
		r->port[s]->rx_ctx = r;
	}
	if (a_profile) {
		struct ipx_profile p;

		assert_int_equal(ipx_profile_named(a_profile, &p), IPX_OK);
		assert_int_equal(ipx_mem_segment_set_profile(r->seg[0], &p),
				 IPX_OK);
	}
	r->sa = ipx_mem_link_new(r->seg[0], NULL);
	r->sa2 = ipx_mem_link_new(r->seg[0], NULL);
	/* Each segment numbers its nodes from 02:..:01: give B's its own. */
	r->rb = ipx_mem_link_new(r->seg[1], rb_node);
	r->rb->rx = at_rb;
	r->rb->rx_ctx = r;
	ipx_timer_init(&r->flood, flood_tick, r);
}

static void rig_wan(struct rig *r)
{
	assert_int_equal(ipx_wan_new(r->loop, &r->isn, 1, from_wan, r,
				     &r->wan),
			 IPX_OK);
}

static void rig_close(struct rig *r)
{
	ipx_timer_stop(r->loop, &r->flood);
	ipx_wan_free(r->wan);
	ipx_link_close(r->sa);
	ipx_link_close(r->sa2);
	ipx_link_close(r->rb);
	for (int s = 0; s < 2; s++) {
		ipx_link_close(r->port[s]);
		ipx_mem_segment_free(r->seg[s]);
	}
	ipx_loop_free(r->loop);
}

static void lone_frame_waits_for_the_hold_timer(void **state)
{
	static struct rig r;
	const struct ipx_wan_module_stats *a;

	(void)state;
	rig_open(&r, NULL);
	rig_wan(&r);
	send_ipx(r.sa, r.rb, 500);
	ipx_loop_run_for(r.loop, 2999);
	assert_int_equal(r.n, 0);	/* still held */
	assert_int_equal(ipx_wan_held(r.wan, 0), 500);
	ipx_loop_run_for(r.loop, IPX_SEC);
	assert_int_equal(r.n, 1);
	/* Released at the 3 ms hold, then 514 bytes at 950 kbit/s:
	 * 4,328,421.05 ns, so the last bit is in at 7,328.43 us. */
	assert_int_equal(r.at[0], 7329);
	a = ipx_wan_stats(r.wan, 0);
	assert_int_equal(a->timer_releases, 1);
	assert_int_equal(a->timer_frames, 1);
	assert_int_equal(a->fill_releases, 0);
	assert_int_equal(a->crossed, 1);
	/* As `ipxlab bridge` prints them (SIGUSR1 and at exit). */
	{
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);

		assert_non_null(f);
		ipx_wan_print_stats(r.wan, f);
		fclose(f);
		/* 4.328 ms of trunk time in the 1.003 s run: 0.4 %. */
		expect_prefix(text,
			"a_seen 1\na_filtered 0\na_held 1\na_held_bytes 500\n"
			"a_fill_releases 0\na_fill_frames 0\n"
			"a_timer_releases 1\na_timer_frames 1\na_crossed 1\n"
			"a_crossed_bytes 500\na_trunk_utilisation 0.4%\n"
			"a_drop_bad_ipx 0\na_drop_too_big_for_bridge 0\n"
			"a_drop_tx_buffer_full 0\nb_seen 0\n");
		assert_non_null(strstr(text, "\nb_trunk_utilisation 0.0%\n"));
		assert_non_null(strstr(text, "\ntrunk_frames 1\n"));
		assert_non_null(strstr(text, "\ntrunk_busy_ms 4.328\n"));
		free(text);
	}
	rig_close(&r);
}

/* A profile file that sets no release block (release 0) releases by fill
 * only when the whole receive buffer is full, as the model did before
 * the block: with a 200 ms hold, a busy Ethernet fills 182 KB first. */
static void busy_ethernet_fills_the_buffer_first(void **state)
{
	static struct rig r;
	const struct ipx_wan_module_stats *a;

	(void)state;
	rig_open(&r, "eth10");
	r.isn.release = 0;
	r.isn.hold_ns = 200 * 1000000ull;
	rig_wan(&r);
	/* 576-byte packets offered every 400 us on a 10 Mbit/s Ethernet
	 * (it carries one every 491.2 us): 182 KB fills in about 160 ms,
	 * before the 200 ms timer. */
	r.len = 576;
	ipx_timer_start(r.loop, &r.flood, 0, 400);
	ipx_loop_run_for(r.loop, 190 * IPX_MSEC);
	a = ipx_wan_stats(r.wan, 0);
	assert_int_equal(a->fill_releases, 1);
	assert_int_equal(a->timer_releases, 0);
	/* Everything released fitted the 182 KB buffer. */
	assert_true(a->fill_frames * 576 <= 182 * 1024 &&
		    (a->fill_frames + 1) * 576 > 182 * 1024);
	rig_close(&r);
}

static void overload_is_carried_at_trunk_rate_and_dropped(void **state)
{
	static struct rig r;
	const struct ipx_wan_module_stats *a;
	uint64_t bits;
	double rate;

	(void)state;
	rig_open(&r, NULL);
	rig_wan(&r);
	bits = ipx_profile_wire_bytes(&r.isn, 576) * 8;	/* 590 bytes */
	/* 576 bytes every 2.5 ms: 1.84 Mbit/s offered, twice the trunk. */
	r.len = 576;
	ipx_timer_start(r.loop, &r.flood, 0, 2500);
	ipx_loop_run_for(r.loop, 5 * IPX_SEC);
	ipx_timer_stop(r.loop, &r.flood);
	ipx_loop_run_for(r.loop, 30 * IPX_SEC);	/* let it all drain */
	a = ipx_wan_stats(r.wan, 0);
	assert_true(r.n > 100 && r.n < MAXLOG);
	/* Every frame sent either crossed or was counted as dropped. */
	assert_int_equal(r.sent, r.n + a->drops[IPX_WAN_DROP_TX_FULL]);
	/* What crossed is what the trunk carries in the 5 s plus what the
	 * 192 KB transmit buffer held at the end (and the frame on the
	 * wire): about 1,000 + 333 of the 2,001 sent. */
	assert_true(r.n <= 5.0 * 950000 / (double)bits + 192 * 1024 / 576 + 2);
	assert_true(a->drops[IPX_WAN_DROP_TX_FULL] > r.sent / 4);
	assert_int_equal(a->crossed, r.n);
	/* Carried at the trunk rate from first arrival to last. */
	rate = (double)(r.n - 1) * (double)bits /
	       ((double)(r.at[r.n - 1] - r.at[0]) / 1e6);
	assert_true(rate > 950000 * 0.99 && rate <= 950000 * 1.01);
	rig_close(&r);
}

static void big_packets_do_not_cross(void **state)
{
	static struct rig r;
	const struct ipx_wan_module_stats *a;

	(void)state;
	rig_open(&r, NULL);
	rig_wan(&r);
	send_ipx(r.sa, r.rb, 577);
	send_ipx(r.sa, r.rb, 576);
	ipx_loop_run_for(r.loop, IPX_SEC);
	a = ipx_wan_stats(r.wan, 0);
	assert_int_equal(a->drops[IPX_WAN_DROP_TOO_BIG], 1);
	assert_int_equal(r.n, 1);
	/* Without the limit the bigger one crosses too. */
	rig_close(&r);
	rig_open(&r, NULL);
	r.isn.bridge_max = 0;
	rig_wan(&r);
	send_ipx(r.sa, r.rb, 1400);
	ipx_loop_run_for(r.loop, IPX_SEC);
	assert_int_equal(r.n, 1);
	rig_close(&r);
}

static void local_traffic_stays_home(void **state)
{
	static struct rig r;
	const struct ipx_wan_module_stats *a;

	(void)state;
	rig_open(&r, NULL);
	rig_wan(&r);
	/* Until sa2 has spoken the bridge does not know where it is. */
	send_ipx(r.sa, r.sa2, 100);
	ipx_loop_run_for(r.loop, IPX_SEC);
	a = ipx_wan_stats(r.wan, 0);
	assert_int_equal(a->filtered, 0);
	assert_int_equal(a->crossed, 1);
	send_ipx(r.sa2, r.sa, 100);	/* both learnt on side A now */
	send_ipx(r.sa, r.sa2, 100);
	ipx_loop_run_for(r.loop, IPX_SEC);
	assert_int_equal(a->filtered, 2);
	assert_int_equal(a->crossed, 1);
	rig_close(&r);
}

/* A steady trickle, one 30-byte frame every 2 ms (two fit in isn's
 * 128-byte block with room to spare): each pair leaves when the hold
 * timer its first frame started runs out (at 3, 7, 11, 15, 19 ms), so no
 * frame waits longer than the 3 ms hold and two frames' trunk time. */
static void a_trickle_leaves_at_each_hold(void **state)
{
	static struct rig r;
	const struct ipx_wan_module_stats *a;
	uint64_t wire;

	(void)state;
	rig_open(&r, NULL);
	rig_wan(&r);
	wire = ipx_profile_wire_ns(&r.isn, 30);	/* 60 bytes: 505.3 us */
	r.len = 30;
	ipx_timer_start(r.loop, &r.flood, 0, 2 * IPX_MSEC);
	ipx_loop_run_for(r.loop, 20500);
	a = ipx_wan_stats(r.wan, 0);
	assert_int_equal(r.sent, 11);	/* at 0, 2, ..., 20 ms */
	assert_int_equal(a->timer_releases, 5);
	assert_int_equal(a->timer_frames, 10);
	assert_int_equal(a->fill_releases, 0);
	assert_int_equal(r.n, 10);	/* the one sent at 20 ms is held */
	for (unsigned i = 0; i < r.n; i++)
		if (r.at[i] > i * 2 * IPX_MSEC + 3 * IPX_MSEC +
				      2 * wire / 1000 + 1)
			fail_msg("frame %u sent at %u ms arrived at %llu us", i,
				 i * 2, (unsigned long long)r.at[i]);
	rig_close(&r);
}

/* Five 32-byte frames at once: the first four are one 128-byte block,
 * released together when the fifth does not fit (by fill, at once); the
 * fifth waits for the 3 ms hold. */
static void a_block_goes_at_once_by_fill(void **state)
{
	static struct rig r;
	const struct ipx_wan_module_stats *a;
	uint64_t wire;

	(void)state;
	rig_open(&r, NULL);
	rig_wan(&r);
	assert_int_equal(r.isn.release, 128);
	wire = ipx_profile_wire_ns(&r.isn, 32);	/* 60 bytes: 505.3 us */
	for (int i = 0; i < 5; i++)
		send_ipx(r.sa, r.rb, 32);
	ipx_loop_run_for(r.loop, 0);
	a = ipx_wan_stats(r.wan, 0);
	assert_int_equal(a->fill_releases, 1);
	assert_int_equal(a->fill_frames, 4);
	assert_int_equal(ipx_wan_held(r.wan, 0), 32);
	ipx_loop_run_for(r.loop, 10 * IPX_MSEC);
	assert_int_equal(r.n, 5);
	/* the block back to back on the trunk from time 0 */
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(r.at[i], ((i + 1) * wire + 999) / 1000);
	/* the fifth at the hold, then its own wire time */
	assert_int_equal(r.at[4], (3000000 + wire + 999) / 1000);
	assert_int_equal(a->timer_releases, 1);
	assert_int_equal(a->timer_frames, 1);
	rig_close(&r);
}

/* release-at (isn-1990): a module holding that many bytes sends them at
 * once, so a lone 500-byte frame with release-at 512 still waits the
 * hold, a 520-byte one goes at its own trunk time. */
static void a_full_block_goes_at_once_with_release_at(void **state)
{
	static struct rig r;
	const struct ipx_wan_module_stats *a;

	(void)state;
	rig_open(&r, NULL);
	r.isn.release_at = 512;
	rig_wan(&r);
	send_ipx(r.sa, r.rb, 500);
	ipx_loop_run_for(r.loop, 2999);
	assert_int_equal(r.n, 0);	/* below the block: held */
	ipx_loop_run_for(r.loop, 20 * IPX_MSEC);
	assert_int_equal(r.n, 1);
	send_ipx(r.sa, r.rb, 520);
	ipx_loop_run_for(r.loop, 0);
	a = ipx_wan_stats(r.wan, 0);
	assert_int_equal(a->fill_releases, 1);	/* at once */
	assert_int_equal(a->fill_frames, 1);
	assert_int_equal(ipx_wan_held(r.wan, 0), 0);
	ipx_loop_run_for(r.loop, 20 * IPX_MSEC);
	assert_int_equal(r.n, 2);
	assert_int_equal(a->timer_releases, 1);
	rig_close(&r);
}

/* Mean time a frame of 'flows' flows waits in the bridge beyond its own
 * trunk time: each flow a 50-byte frame every 20 ms, flow f 1 ms after
 * flow f-1, for 200 ms. */
static double flows_wait_us(unsigned flows, uint64_t *fills)
{
	static struct rig r;
	uint64_t wire;
	double sum = 0;

	rig_open(&r, NULL);
	rig_wan(&r);
	wire = ipx_profile_wire_ns(&r.isn, 50);
	r.len = 50;
	r.flows = flows;
	r.period = 20;
	ipx_timer_init(&r.flood, flows_tick, &r);
	ipx_timer_start(r.loop, &r.flood, 0, IPX_MSEC);
	ipx_loop_run_for(r.loop, 199500);	/* ticks at 0..199 ms */
	ipx_timer_stop(r.loop, &r.flood);
	ipx_loop_run_for(r.loop, 20 * IPX_MSEC);
	assert_int_equal(r.sent, 10 * flows);
	assert_int_equal(r.n, r.sent);	/* in order: a FIFO and one trunk */
	for (unsigned i = 0; i < r.n; i++)
		sum += (double)(r.at[i] - r.sent_at[i]) - (double)wire / 1000;
	*fills = ipx_wan_stats(r.wan, 0)->fill_releases;
	rig_close(&r);
	return sum / r.n;
}

/* The published consequence: one workstation alone sees worse response
 * than five, because with more traffic the buffers fill sooner. A lone
 * flow's frames each wait the whole 3 ms hold; five flows' frames push
 * each other out (two 50-byte frames fit the 128-byte block, a third
 * does not): in each 20 ms the first two leave by fill at 2 ms, the next
 * two at 4 ms, the fifth by the timer at 7 ms, so they wait 2, 1, 2, 1
 * and 3 ms, 1.8 ms on average, and the second of each pair also the
 * first's trunk time (539 us). */
static void five_flows_leave_by_fill_sooner_than_one(void **state)
{
	uint64_t fills1, fills5;
	struct ipx_profile isn;
	double one, five, wire_us;

	(void)state;
	assert_int_equal(ipx_profile_named("isn", &isn), IPX_OK);
	wire_us = (double)ipx_profile_wire_ns(&isn, 50) / 1000;
	one = flows_wait_us(1, &fills1);
	five = flows_wait_us(5, &fills5);
	assert_int_equal(fills1, 0);
	assert_true(one >= 3000 && one < 3001);
	assert_int_equal(fills5, 20);
	assert_true(five > 1800 + 0.4 * wire_us - 1 &&
		    five < 1800 + 0.4 * wire_us + 1);
	assert_true(five < 0.7 * one);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lone_frame_waits_for_the_hold_timer),
		cmocka_unit_test(busy_ethernet_fills_the_buffer_first),
		cmocka_unit_test(overload_is_carried_at_trunk_rate_and_dropped),
		cmocka_unit_test(big_packets_do_not_cross),
		cmocka_unit_test(local_traffic_stays_home),
		cmocka_unit_test(a_trickle_leaves_at_each_hold),
		cmocka_unit_test(a_block_goes_at_once_by_fill),
		cmocka_unit_test(a_full_block_goes_at_once_with_release_at),
		cmocka_unit_test(five_flows_leave_by_fill_sooner_than_one),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
