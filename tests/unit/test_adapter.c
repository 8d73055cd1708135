/*
 * test_adapter.c - the Token-Ring adapter's shared RAM and buffers in a
 * link profile (link_profile.h, struct ipx_adapter), in simulated time on
 * the in-memory segment: frames over 1,500 bytes on tr16, the transmit
 * buffer limiting a station's frames, one transmit buffer against two
 * (never slower, and exactly the copy overlapping the wire), receive
 * buffers that run out, and a configuration that does not fit its memory
 * refused with the arithmetic.
 */
#include "cm.h"

#include <stdio.h>
#include <string.h>

#include "ipxlab/buf.h"
#include "ipxlab/err.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/link_profile.h"

#define MAXLOG 256

struct rig {
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_mem_segment *seg;
	struct ipx_link *tx, *rx;
	unsigned n;
	size_t len[MAXLOG];
	ipx_time at[MAXLOG];
};

static void on_rx(struct ipx_link *l, const uint8_t *pkt, size_t len,
		  void *ctx)
{
	struct rig *r = ctx;

	(void)l;
	(void)pkt;
	if (r->n < MAXLOG) {
		r->len[r->n] = len;
		r->at[r->n] = ipx_loop_now(r->loop);
	}
	r->n++;
}

static struct ipx_profile tr16(void)
{
	struct ipx_profile p;

	assert_int_equal(ipx_profile_named("tr16", &p), IPX_OK);
	return p;
}

static void rig_open(struct rig *r, const struct ipx_profile *p)
{
	memset(r, 0, sizeof(*r));
	ipx_clock_fake_init(&r->clk, 0);
	r->loop = ipx_loop_new(&r->clk);
	r->seg = ipx_mem_segment_new(r->loop, 1, 3);
	assert_int_equal(ipx_mem_segment_set_profile(r->seg, p), IPX_OK);
	r->tx = ipx_mem_link_new(r->seg, NULL);
	r->rx = ipx_mem_link_new(r->seg, NULL);
	r->rx->rx = on_rx;
	r->rx->rx_ctx = r;
}

static void rig_close(struct rig *r)
{
	ipx_link_close(r->tx);
	ipx_link_close(r->rx);
	ipx_mem_segment_free(r->seg);
	ipx_loop_free(r->loop);
}

static void send_n(struct rig *r, unsigned n, size_t len)
{
	static uint8_t pkt[IPX_MAX_PACKET];

	for (unsigned i = 0; i < n; i++)
		assert_int_equal(ipx_link_send(r->tx, pkt, len, r->rx->node),
				 IPX_OK);
	ipx_loop_run_for(r->loop, 10 * IPX_SEC);
}

static void tr16_carries_frames_over_1500_bytes(void **state)
{
	static struct rig r;
	struct ipx_profile p = tr16();

	(void)state;
	rig_open(&r, &p);
	assert_int_equal(r.tx->mtu, IPX_MAX_PACKET);
	send_n(&r, 1, 4000);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.len[0], 4000);
	/* (4,000 + 17 + 7) bytes at 16 Mbit/s = 2,012 us. */
	assert_int_equal(r.at[0], 2012);
	rig_close(&r);
}

/* The adapter the B9 baseline uses, with 'bufs' transmit buffers. */
static struct ipx_adapter card(uint32_t bufs, uint32_t size)
{
	struct ipx_adapter a = { .memory = 16384, .tx_buffers = bufs,
				 .tx_size = size, .rx_size = 2048,
				 .copy_rate = 8000000 };

	return a;
}

static void transmit_buffer_limits_the_frame(void **state)
{
	static struct rig r;
	struct ipx_profile p = tr16();
	struct ipx_adapter a = card(1, 1024);
	char err[256];
	uint8_t pkt[1100] = { 0 };

	(void)state;
	rig_open(&r, &p);
	assert_int_equal(ipx_mem_link_set_adapter(r.tx, &a, err, sizeof(err)),
			 IPX_OK);
	/* 1,024 bytes of buffer hold the 17-byte header and 1,007 of IPX. */
	assert_int_equal(r.tx->mtu, 1007);
	assert_int_equal(r.rx->mtu, IPX_MAX_PACKET);
	assert_int_equal(ipx_link_send(r.tx, pkt, 1008, r.rx->node),
			 IPX_ETOOBIG);
	rig_close(&r);
}

/* When the last of n frames of len bytes arrives with 'bufs' buffers. */
static ipx_time last_arrival(uint32_t bufs, uint32_t size, unsigned n,
			     size_t len)
{
	static struct rig r;
	struct ipx_profile p = tr16();
	struct ipx_adapter a = card(bufs, size);
	char err[256];
	ipx_time t;

	rig_open(&r, &p);
	assert_int_equal(ipx_mem_link_set_adapter(r.tx, &a, err, sizeof(err)),
			 IPX_OK);
	send_n(&r, n, len);
	assert_int_equal(r.n, n);
	t = r.at[n - 1];
	rig_close(&r);
	return t;
}

static void two_buffers_never_slower_than_one(void **state)
{
	static const uint32_t sizes[] = { 256, 512, 1024, 2048, 4096 };

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t len = sizes[i] - 17;
		ipx_time one = last_arrival(1, sizes[i], 12, len);
		ipx_time two = last_arrival(2, sizes[i], 12, len);

		assert_true(two <= one);
		assert_true(two < one);	/* the copy overlaps the wire */
	}
	/* 2,000-byte frames (1,983 of IPX): the copy at 8 Mbit/s is 2,000 us,
	 * the wire (2,007 bytes at 16 Mbit/s) 1,003.5 us and the token 1.5
	 * us. One buffer: copy and wire in turn, 3,003.5 us a frame (the token passes while the next is copied). Two: the
	 * copies back to back, each frame 2,000 us after the one before. */
	assert_int_equal(last_arrival(1, 2048, 10, 1983), 30035);
	assert_int_equal(last_arrival(2, 2048, 10, 1983), 21004);
}

static void too_few_receive_buffers_drop_and_count(void **state)
{
	static struct rig r;
	struct ipx_profile p = tr16();
	struct ipx_adapter fast = card(2, 2048), slow = card(1, 2048);
	char err[256];

	(void)state;
	/* The receiver copies out at 1 Mbit/s: frames pile up in its six
	 * 2 KB receive buffers ((16,384 - 2,048) / 2,048 = 7, one for each
	 * 2,000-byte frame) and the rest are dropped. */
	fast.copy_rate = 0;
	slow.copy_rate = 1000000;
	rig_open(&r, &p);
	assert_int_equal(ipx_mem_link_set_adapter(r.tx, &fast, err,
						  sizeof(err)),
			 IPX_OK);
	assert_int_equal(ipx_mem_link_set_adapter(r.rx, &slow, err,
						  sizeof(err)),
			 IPX_OK);
	assert_int_equal(ipx_adapter_rx_buffers(&slow), 7);
	send_n(&r, 30, 1983);
	assert_true(r.n < 30);
	assert_int_equal(r.n + ipx_mem_segment_stats(r.seg)->rx_no_buffer, 30);
	rig_close(&r);
}

static void a_configuration_that_does_not_fit_is_refused(void **state)
{
	static const char text[] = "base tr16\nadapter-memory 8K\n"
				   "tx-buffers 2\ntx-buffer-size 4K\n"
				   "rx-buffer-size 2K\n";
	struct ipx_profile p = tr16();
	struct ipx_adapter a = card(2, 4096);
	char err[512] = "";

	(void)state;
	assert_int_equal(ipx_profile_parse(text, strlen(text), "b9.profile",
					   &p, err, sizeof(err)),
			 IPX_ECONFIG);
	assert_non_null(strstr(err,
			       "b9.profile:5: adapter memory 8192 bytes cannot "
			       "hold 2 transmit buffers of 4096 bytes and 2 "
			       "receive buffers of 2048 bytes: 2 x 4096 + 2 x "
			       "2048 = 12288 bytes > 8192"));
	/* 256-byte receive buffers: one 4 KB frame needs 16 of them. */
	a.memory = 8192;
	a.tx_buffers = 1;
	a.rx_size = 256;
	p = tr16();
	assert_int_equal(ipx_adapter_check(&a, &p, err, sizeof(err)), IPX_OK);
	a.tx_buffers = 2;
	assert_int_equal(ipx_adapter_check(&a, &p, err, sizeof(err)),
			 IPX_ECONFIG);
	assert_non_null(strstr(err, "2 x 4096 + 16 x 256 = 12288 bytes > 8192"));
	a.tx_buffers = 3;
	assert_int_equal(ipx_adapter_check(&a, &p, err, sizeof(err)),
			 IPX_ECONFIG);
	assert_non_null(strstr(err, "tx-buffers must be 1 or 2"));
}

static void adapter_keys_print_and_parse_back(void **state)
{
	static const char text[] = "base tr16\nadapter-memory 16K\n"
				   "tx-buffers 2\ntx-buffer-size 2K\n"
				   "rx-buffer-size 1K\nadapter-copy 8M\n"
				   "rx-buffer-cost 20us\n";
	struct ipx_profile p, q;
	char err[512], buf[2048];
	FILE *f;
	size_t n;

	(void)state;
	assert_int_equal(ipx_profile_parse(text, strlen(text), "x", &p, err,
					   sizeof(err)),
			 IPX_OK);
	assert_int_equal(p.adapter.memory, 16384);
	assert_int_equal(p.adapter.tx_buffers, 2);
	assert_int_equal(p.adapter.rx_cost_ns, 20000);
	f = fmemopen(buf, sizeof(buf), "w");
	ipx_profile_print(&p, f);
	fclose(f);
	assert_non_null(strstr(buf, "adapter-memory 16384\ntx-buffers 2\n"
				    "tx-buffer-size 2048\nrx-buffer-size 1024\n"
				    "adapter-copy 8000000\nrx-buffer-cost 20us\n"));
	n = strlen(buf);
	assert_int_equal(ipx_profile_parse(buf, n, "y", &q, err, sizeof(err)),
			 IPX_OK);
	assert_memory_equal(&p.adapter, &q.adapter, sizeof(p.adapter));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tr16_carries_frames_over_1500_bytes),
		cmocka_unit_test(transmit_buffer_limits_the_frame),
		cmocka_unit_test(two_buffers_never_slower_than_one),
		cmocka_unit_test(too_few_receive_buffers_drop_and_count),
		cmocka_unit_test(a_configuration_that_does_not_fit_is_refused),
		cmocka_unit_test(adapter_keys_print_and_parse_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
