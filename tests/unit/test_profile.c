/*
 * test_profile.c - link profiles in simulated time: exact wire times, a
 * shared Ethernet that five stations share fairly and never overfill, the
 * token ring's rotation, a delay added to arrival only, loss, the
 * frame-size limit on the in-memory segment, and the profile-file
 * parser's messages.
 */
#include "cm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/link_profile.h"
#include "ipxlab/priv/link_medium.h"

static struct ipx_profile named(const char *name)
{
	struct ipx_profile p;

	assert_int_equal(ipx_profile_named(name, &p), IPX_OK);
	return p;
}

static void wire_times_are_exact(void **state)
{
	struct ipx_profile eth = named("eth10"), tr4 = named("tr4");

	(void)state;
	/* 1,500 bytes of IPX + 14 of header = a 1,514-byte frame; with
	 * preamble, FCS and gap 1,538 bytes = 12,304 bits at 100 ns. */
	assert_int_equal(ipx_profile_wire_bytes(&eth, 1500), 1538);
	assert_int_equal(ipx_profile_wire_ns(&eth, 1500), 1230400);
	/* A 30-byte packet is padded to the 60-byte minimum: 84 bytes. */
	assert_int_equal(ipx_profile_wire_ns(&eth, 30), 67200);
	assert_int_equal(ipx_profile_mtu(&eth), 1500);
	/* Token-Ring at 4 Mbit/s: 1,500 + 17 + 7 bytes at 2,000 ns. */
	assert_int_equal(ipx_profile_wire_ns(&tr4, 1500), 3048000);
	assert_int_equal(ipx_profile_mtu(&tr4), 4461);
}

/* ---- the in-memory segment with a profile ---- */

#define MAXSTA 8
#define MAXLOG 20000

struct rig {
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_mem_segment *seg;
	struct ipx_link *rx;			/* the receiving station */
	struct ipx_link *tx[MAXSTA];
	struct ipx_timer send_timer;
	unsigned nsta;
	size_t len;				/* IPX bytes per frame */
	ipx_time interval;			/* each station sends this often */
	unsigned got[MAXSTA];
	unsigned n;
	ipx_time at[MAXLOG];
	uint8_t from[MAXLOG];
};

static void on_rx(struct ipx_link *l, const uint8_t *pkt, size_t len,
		  void *ctx)
{
	struct rig *r = ctx;

	(void)l;
	assert_int_equal(len, r->len);
	if (pkt[30] < MAXSTA)
		r->got[pkt[30]]++;
	if (r->n < MAXLOG) {
		r->at[r->n] = ipx_loop_now(r->loop);
		r->from[r->n] = pkt[30];
		r->n++;
	}
}

static void send_round(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	struct rig *r = ctx;
	uint8_t pkt[1500] = { 0 };

	(void)loop;
	(void)t;
	for (unsigned i = 0; i < r->nsta; i++) {
		pkt[30] = (uint8_t)i;
		assert_int_equal(ipx_link_send(r->tx[i], pkt, r->len,
					       r->rx->node),
				 IPX_OK);
	}
}

static void rig_open(struct rig *r, const char *profile, unsigned nsta,
		     size_t len, ipx_time interval)
{
	struct ipx_profile p = named(profile);

	memset(r, 0, sizeof(*r));
	ipx_clock_fake_init(&r->clk, 0);
	r->loop = ipx_loop_new(&r->clk);
	r->seg = ipx_mem_segment_new(r->loop, 1, 7);
	assert_int_equal(ipx_mem_segment_set_profile(r->seg, &p), IPX_OK);
	r->rx = ipx_mem_link_new(r->seg, NULL);
	r->rx->rx = on_rx;
	r->rx->rx_ctx = r;
	for (unsigned i = 0; i < nsta; i++)
		r->tx[i] = ipx_mem_link_new(r->seg, NULL);
	r->nsta = nsta;
	r->len = len;
	r->interval = interval;
	ipx_timer_init(&r->send_timer, send_round, r);
	if (interval)
		ipx_timer_start(r->loop, &r->send_timer, 0, interval);
}

static void rig_close(struct rig *r)
{
	ipx_timer_stop(r->loop, &r->send_timer);
	ipx_link_close(r->rx);
	for (unsigned i = 0; i < r->nsta; i++)
		ipx_link_close(r->tx[i]);
	ipx_mem_segment_free(r->seg);
	ipx_loop_free(r->loop);
}

static void lone_frame_arrives_after_its_wire_time(void **state)
{
	static struct rig r;
	const struct ipx_medium_stats *ms;

	(void)state;
	rig_open(&r, "eth10", 1, 1500, 0);
	send_round(r.loop, NULL, &r);
	ipx_loop_run_for(r.loop, IPX_SEC);
	assert_int_equal(r.n, 1);
	/* 1,230.4 us on the wire: the loop's microsecond clock delivers it
	 * at the first tick at or after the last bit. */
	assert_int_equal(r.at[0], 1231);
	ms = ipx_mem_segment_medium(r.seg) ? ipx_medium_stats(
						     ipx_mem_segment_medium(r.seg))
					   : NULL;
	assert_non_null(ms);
	assert_int_equal(ms->busy_ns, 1230400);
	rig_close(&r);
}

/* A profile's delay (propagation, a repeater) is added to arrival but
 * does not hold the wire: two frames back to back arrive one wire time
 * apart, each 25 us later than without it. */
static void delay_is_added_to_arrival_not_to_the_wire(void **state)
{
	static struct rig r;
	struct ipx_profile p = named("eth10");
	const struct ipx_medium_stats *ms;

	(void)state;
	rig_open(&r, "eth10", 1, 1500, 0);
	p.delay_ns = 25000;
	assert_int_equal(ipx_mem_segment_set_profile(r.seg, &p), IPX_OK);
	send_round(r.loop, NULL, &r);
	send_round(r.loop, NULL, &r);
	ipx_loop_run_for(r.loop, IPX_SEC);
	assert_int_equal(r.n, 2);
	/* 1,230.4 + 25 us; then 2,460.8 + 25 us. */
	assert_int_equal(r.at[0], 1256);
	assert_int_equal(r.at[1], 2486);
	ms = ipx_medium_stats(ipx_mem_segment_medium(r.seg));
	assert_int_equal(ms->busy_ns, 2 * 1230400);
	rig_close(&r);
}

static void back_to_back_frames_do_not_drift(void **state)
{
	static struct rig r;
	uint8_t pkt[1500] = { 0 };

	(void)state;
	rig_open(&r, "eth10", 1, 1500, 0);
	/* 40 frames queued at once leave back to back: the 40th ends at
	 * exactly 40 * 1,230.4 us = 49,216 us, with no rounding per frame. */
	for (int i = 0; i < 40; i++)
		assert_int_equal(ipx_link_send(r.tx[0], pkt, 1500, r.rx->node),
				 IPX_OK);
	ipx_loop_run_for(r.loop, IPX_SEC);
	assert_int_equal(r.n, 40);
	for (int i = 0; i < 40; i++) {
		uint64_t end_ns = (uint64_t)(i + 1) * 1230400;

		assert_int_equal(r.at[i], (end_ns + 999) / 1000);
	}
	assert_int_equal(ipx_medium_stats(ipx_mem_segment_medium(r.seg))->busy_ns,
			 40ull * 1230400);
	rig_close(&r);
}

/* n stations each offering far more than eth10 carries, for one second. */
static void check_sharing(unsigned n)
{
	static struct rig r;
	struct ipx_profile eth = named("eth10");
	const uint64_t frame_bits = ipx_profile_wire_bytes(&eth, 1500) * 8;
	const struct ipx_medium_stats *ms;
	unsigned total = 0, lo = ~0u, hi = 0, start = 0;

	rig_open(&r, "eth10", n, 1500, 200);
	ipx_loop_run_for(r.loop, IPX_SEC);
	ipx_timer_stop(r.loop, &r.send_timer);
	for (unsigned i = 0; i < n; i++) {
		total += r.got[i];
		lo = r.got[i] < lo ? r.got[i] : lo;
		hi = r.got[i] > hi ? r.got[i] : hi;
	}
	/* Fair: round robin, so no station is more than one frame ahead. */
	assert_true(hi - lo <= 1);
	/* Every frame was contended (1,230.4 + 51.2 us): 780 in 1 s. */
	assert_true(total >= 779 && total <= 781);
	/* The sum never exceeds the rate: in every 10 ms window, at most
	 * the bits 10 ms carry (plus the frame that straddles the edge). */
	for (unsigned i = 0; i < r.n; i++) {
		while (r.at[i] - r.at[start] >= 10 * IPX_MSEC)
			start++;
		assert_true((uint64_t)(i - start + 1) * frame_bits <=
			    eth.rate / 100 + frame_bits);
	}
	ms = ipx_medium_stats(ipx_mem_segment_medium(r.seg));
	assert_true(ms->drops[IPX_MEDIUM_DROP_QUEUE_FULL] > 0);
	assert_true(ms->busy_ns <= IPX_SEC * 1000 + 1281600);
	rig_close(&r);
}

static void two_stations_share_eth10_fairly(void **state)
{
	(void)state;
	check_sharing(2);
}

static void five_stations_share_eth10_fairly(void **state)
{
	(void)state;
	check_sharing(5);
}

static void token_ring_passes_the_token_in_turn(void **state)
{
	static struct rig r;

	(void)state;
	rig_open(&r, "tr4", 3, 1000, 500);
	ipx_loop_run_for(r.loop, 100 * IPX_MSEC);
	ipx_timer_stop(r.loop, &r.send_timer);
	/* The token visits stations in order: senders alternate 0,1,2,... */
	for (unsigned i = 3; i < r.n; i++)
		assert_int_equal(r.from[i], r.from[i - 3]);
	assert_int_not_equal(r.from[0], r.from[1]);
	/* (1,000 + 24) bytes at 2 us = 2,048 us, plus 6 us of token. */
	assert_int_equal(r.at[1] - r.at[0], 2054);
	rig_close(&r);
}

static void frames_over_the_limit_are_refused(void **state)
{
	static struct rig r;
	uint8_t pkt[1501] = { 0 };
	struct ipx_profile eth = named("eth10");

	(void)state;
	rig_open(&r, "eth10", 1, 1500, 0);
	assert_int_equal(r.tx[0]->mtu, 1500);
	assert_int_equal(ipx_link_send(r.tx[0], pkt, 1501, r.rx->node),
			 IPX_ETOOBIG);
	rig_close(&r);
	/* A profile with a smaller frame shrinks the segment's MTU. */
	eth.max_frame = 590;
	{
		struct ipx_clock clk;
		struct ipx_loop *loop;
		struct ipx_mem_segment *seg;
		struct ipx_link *l;

		ipx_clock_fake_init(&clk, 0);
		loop = ipx_loop_new(&clk);
		seg = ipx_mem_segment_new(loop, 1, 1);
		l = ipx_mem_link_new(seg, NULL);
		assert_int_equal(ipx_mem_segment_set_profile(seg, &eth), IPX_OK);
		assert_int_equal(l->mtu, 576);
		ipx_link_close(l);
		ipx_mem_segment_free(seg);
		ipx_loop_free(loop);
	}
}

static void loss_is_seeded_and_counted(void **state)
{
	static struct rig r;
	struct ipx_profile p = named("eth10");
	const struct ipx_medium_stats *ms;
	uint8_t pkt[100] = { 0 };

	(void)state;
	rig_open(&r, "eth10", 1, 100, 0);
	p.loss_ppm = 100000;	/* 10 % */
	assert_int_equal(ipx_mem_segment_set_profile(r.seg, &p), IPX_OK);
	for (int i = 0; i < 1000; i++) {
		assert_int_equal(ipx_link_send(r.tx[0], pkt, 100, r.rx->node),
				 IPX_OK);
		ipx_loop_run_for(r.loop, IPX_MSEC);
	}
	ipx_loop_run_for(r.loop, IPX_SEC);
	ms = ipx_medium_stats(ipx_mem_segment_medium(r.seg));
	assert_int_equal(r.n + ms->drops[IPX_MEDIUM_DROP_LOST], 1000);
	assert_true(ms->drops[IPX_MEDIUM_DROP_LOST] > 60 &&
		    ms->drops[IPX_MEDIUM_DROP_LOST] < 140);
	rig_close(&r);
}

/* ---- the profile file ---- */

static int parse(const char *text, struct ipx_profile *p, char *err,
		 size_t errlen)
{
	return ipx_profile_parse(text, strlen(text), "my.profile", p, err,
				 errlen);
}

static void profile_file_parses(void **state)
{
	struct ipx_profile p;
	char err[256] = "";

	(void)state;
	assert_int_equal(parse("# a slow thin Ethernet\n"
			       "base eth10\n"
			       "name thin\n"
			       "rate 2.5M   # bits per second\n"
			       "delay = 25us\n"
			       "loss 0.5%\n"
			       "\n"
			       "hold 20ms\n",
			       &p, err, sizeof(err)),
			 IPX_OK);
	assert_string_equal(p.name, "thin");
	assert_int_equal(p.rate, 2500000);
	assert_int_equal(p.delay_ns, 25000);
	assert_int_equal(p.loss_ppm, 5000);
	assert_int_equal(p.hold_ns, 20000000);
	assert_int_equal(p.max_frame, 1514);	/* from eth10 */
	assert_int_equal(p.access, IPX_ACCESS_CSMA_CD);
	assert_int_equal(parse("rate 64k\nmax-frame 600\nheader 0\n"
			       "rx-buffer 8K\ntx-buffer 8K\n",
			       &p, err, sizeof(err)),
			 IPX_OK);
	assert_int_equal(p.rate, 64000);
	assert_int_equal(p.rx_buffer, 8192);
	assert_int_equal(p.access, IPX_ACCESS_OWN);
	/* no release block set: 0, the whole receive buffer */
	assert_int_equal(p.release, 0);
	/* isn's block and hold, and a file changing them */
	assert_int_equal(parse("base isn\n", &p, err, sizeof(err)), IPX_OK);
	assert_int_equal(p.release, 128);
	assert_int_equal(p.hold_ns, 3000000);
	assert_int_equal(parse("base isn\nrelease 1K\nhold 10ms\n", &p, err,
			       sizeof(err)),
			 IPX_OK);
	assert_int_equal(p.release, 1024);
	assert_int_equal(p.hold_ns, 10000000);
	assert_int_equal(parse("base isn\nrelease 0\n", &p, err, sizeof(err)),
			 IPX_OK);
	assert_int_equal(p.release, 0);
}

static void expect_error(const char *text, const char *msg)
{
	struct ipx_profile p;
	char err[512] = "";

	assert_int_equal(parse(text, &p, err, sizeof(err)), IPX_ECONFIG);
	if (!strstr(err, msg)) {
		fprintf(stderr, "error was: %s\nwanted: %s\n", err, msg);
		fail();
	}
}

static void bad_profiles_say_where(void **state)
{
	(void)state;
	expect_error("base eth10\nrate fast\n", "my.profile:2: rate must be a bit rate");
	expect_error("base eth10\n\n\nspeed 10M\n", "my.profile:4: unknown setting 'speed'");
	/* The message lists the settings (it cites no file a user may lack). */
	expect_error("speed 10M\n", "unknown setting 'speed' (one of base, name, rate, header,");
	expect_error("speed 10M\n", ", release, release-at, hold, adapter-memory, tx-buffers, tx-buffer-size, rx-buffer-size, adapter-copy, rx-buffer-cost)");
	expect_error("rate 10M\nbase eth10\n", "my.profile:2: 'base' must come before");
	expect_error("base eth11\n", "my.profile:1: no profile named 'eth11'");
	expect_error("base eth10\ndelay 5\n", "my.profile:2: delay must be a time");
	expect_error("base eth10\nloss 150%\n", "my.profile:2: loss must be");
	expect_error("base eth10\naccess aloha\n", "my.profile:2: access must be own, csma-cd or token");
	expect_error("base eth10\nrate\n", "my.profile:2: 'rate' needs a value");
	expect_error("base eth10\nmax-frame 20\n", "my.profile: max-frame 20 must leave room");
	expect_error("base eth10\nrate 0\n", "my.profile: a shared medium");
	expect_error("base eth10\nqueue 100\n", "my.profile: queue 100 must hold");
	expect_error("# nothing\n\n", "my.profile: no settings");
	expect_error("base isn\nrx-buffer 1000\n", "my.profile: rx-buffer (1000)");
	expect_error("base isn\nrelease 200K\n", "my.profile: release 204800 is more than the rx-buffer (186368)");
	expect_error("base eth10\nrelease 128\n", "my.profile: release 128 is more than the rx-buffer (0)");
	expect_error("base isn\nrelease big\n", "my.profile:2: release must be a size");
	expect_error("base eth10\nrate -5M\n", "my.profile:2: rate must be");
}

static void resolve_names_and_files(void **state)
{
	struct ipx_profile p;
	char err[256] = "", path[] = "/tmp/ipxlab-profile-XXXXXX";
	FILE *f;
	int fd;

	(void)state;
	assert_int_equal(ipx_profile_resolve("isn", &p, err, sizeof(err)),
			 IPX_OK);
	assert_int_equal(p.rate, 950000);
	assert_int_equal(p.rx_buffer, 182 * 1024);
	assert_int_equal(p.tx_buffer, 192 * 1024);
	assert_int_equal(p.bridge_max, 576);
	assert_int_equal(ipx_profile_resolve("eth100", &p, err, sizeof(err)),
			 IPX_ENOTFOUND);
	assert_non_null(strstr(err, "eth10, tr4, tr16, isn"));
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs("base tr16\nloss 7ppm\n", f);
	fclose(f);
	assert_int_equal(ipx_profile_resolve(path, &p, err, sizeof(err)),
			 IPX_OK);
	assert_int_equal(p.rate, 16000000);
	assert_int_equal(p.loss_ppm, 7);
	remove(path);
	assert_int_equal(ipx_profile_resolve(path, &p, err, sizeof(err)),
			 IPX_EIO);
	assert_non_null(strstr(err, path));
}

static void value_parsers(void **state)
{
	uint64_t v;
	uint32_t s;

	(void)state;
	assert_int_equal(ipx_profile_parse_rate("950k", &v), IPX_OK);
	assert_int_equal(v, 950000);
	assert_int_equal(ipx_profile_parse_rate("1.5M", &v), IPX_OK);
	assert_int_equal(v, 1500000);
	assert_int_equal(ipx_profile_parse_rate("1.5", &v), IPX_EINVAL);
	assert_int_equal(ipx_profile_parse_rate("10Mb", &v), IPX_EINVAL);
	assert_int_equal(ipx_profile_parse_size("182K", &s), IPX_OK);
	assert_int_equal(s, 186368);
	assert_int_equal(ipx_profile_parse_size("5G", &s), IPX_EINVAL);
	assert_int_equal(ipx_profile_parse_time("1.5ms", &v), IPX_OK);
	assert_int_equal(v, 1500000);
	assert_int_equal(ipx_profile_parse_time("0", &v), IPX_OK);
	assert_int_equal(v, 0);
	assert_int_equal(ipx_profile_parse_time("3", &v), IPX_EINVAL);
	assert_int_equal(ipx_profile_parse_time(" 3ms", &v), IPX_EINVAL);
	assert_int_equal(ipx_profile_parse_loss("1000ppm", &s), IPX_OK);
	assert_int_equal(s, 1000);
}

/* What ipx_profile_print writes parses back to the same profile. */
static void printed_profiles_parse_back(void **state)
{
	static const char *const names[] = { "eth10", "tr4", "tr16", "isn" };

	(void)state;
	for (int i = 0; i < 4; i++) {
		struct ipx_profile p = named(names[i]), q;
		char *text = NULL, err[256];
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);

		p.delay_ns = 1500;	/* printed as 1500ns: not whole us */
		ipx_profile_print(&p, f);
		fclose(f);
		assert_int_equal(ipx_profile_parse(text, len, "x", &q, err,
						   sizeof(err)),
				 IPX_OK);
		assert_string_equal(q.name, p.name);
		assert_true(q.rate == p.rate && q.header == p.header &&
			    q.min_frame == p.min_frame &&
			    q.overhead == p.overhead &&
			    q.max_frame == p.max_frame &&
			    q.delay_ns == p.delay_ns &&
			    q.loss_ppm == p.loss_ppm && q.access == p.access &&
			    q.contention_bits == p.contention_bits &&
			    q.token_bits == p.token_bits &&
			    q.queue == p.queue &&
			    q.bridge_max == p.bridge_max &&
			    q.rx_buffer == p.rx_buffer &&
			    q.tx_buffer == p.tx_buffer &&
			    q.release == p.release &&
			    q.hold_ns == p.hold_ns);
		free(text);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(wire_times_are_exact),
		cmocka_unit_test(lone_frame_arrives_after_its_wire_time),
		cmocka_unit_test(back_to_back_frames_do_not_drift),
		cmocka_unit_test(delay_is_added_to_arrival_not_to_the_wire),
		cmocka_unit_test(two_stations_share_eth10_fairly),
		cmocka_unit_test(five_stations_share_eth10_fairly),
		cmocka_unit_test(token_ring_passes_the_token_in_turn),
		cmocka_unit_test(frames_over_the_limit_are_refused),
		cmocka_unit_test(loss_is_seeded_and_counted),
		cmocka_unit_test(profile_file_parses),
		cmocka_unit_test(bad_profiles_say_where),
		cmocka_unit_test(resolve_names_and_files),
		cmocka_unit_test(value_parsers),
		cmocka_unit_test(printed_profiles_parse_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
