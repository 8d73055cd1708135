/*
 * test_bench_b1sim.c - B1 in simulated time (bench_b1sim.h): on the
 * tr4-1990 period the four rates come within 10 % of the 1990 figures
 * (median, and each row) with every packet delivered; the same seed
 * gives the same run; without machines the rates are bounded by the
 * wire time alone (and come near it: only the wire takes time); a
 * datagram send waits for its frame to leave the adapter; a receiver
 * slower than its sender drops datagrams, and the count says so; a frame
 * the wire loses still completes its send, a slow one is not lost.
 */
#include "cm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ipxlab/bench_b1sim.h"
#include "ipxlab/err.h"
#include "ipxlab/ipx.h"
#include "ipxlab/spx.h"
#include "tfile.h"

static void run(const struct ipx_b1sim_opts *o, struct ipx_b1sim_report *r)
{
	char err[768] = "";

	if (ipx_b1sim_run(o, r, err, sizeof(err)) != IPX_OK)
		fail_msg("B1 --sim: %s", err);
}

static void load_period(struct ipx_period *p)
{
	char err[1200];

	if (ipx_period_resolve("tr4-1990", p, err, sizeof(err)) != IPX_OK)
		fail_msg("tr4-1990: %s", err);
}

static void the_period_reproduces_1990(void **state)
{
	struct ipx_period p;
	struct ipx_b1sim_opts o = { .period = &p, .seed = 1 };
	struct ipx_b1sim_report model, today;
	struct ipx_b1sim_opts t = { .profile = &p.wire, .seed = 1 };
	struct ipx_fid_table fid;
	double med;

	(void)state;
	load_period(&p);
	run(&o, &model);
	run(&t, &today);
	assert_string_equal(model.profile, "tr4");
	assert_string_equal(model.period, "tr4-1990");
	ipx_b1sim_fidelity(&model, &today, &fid);
	assert_int_equal(fid.n, IPX_B1SIM_ROWS);
	med = ipx_fid_median_abs_error(&fid);
	if (!(med <= IPX_FID_TARGET_PCT))
		fail_msg("median absolute error %.1f %%", med);
	for (unsigned i = 0; i < IPX_B1SIM_ROWS; i++) {
		const struct ipx_b1sim_row *r = &model.row[i];
		double e = ipx_fid_error_pct(&fid.row[i]);

		assert_int_equal(r->sent, 2000);
		/* the receivers are faster than the senders: nothing lost */
		assert_int_equal(r->delivered, 2000);
		if (!(fabs(e) <= IPX_FID_TARGET_PCT))
			fail_msg("%s: %.1f pkt/s against %.1f: %+.1f %%",
				 fid.row[i].label, r->pps, r->ref_pps, e);
		/* the machines make it slower than the wire alone */
		assert_true(today.row[i].pps > 2 * r->pps);
		assert_true(r->snd_cpu_us > 0 && r->rcv_cpu_us > 0);
	}
	/* the note's order: IPX, NetBIOS datagram, SPX, NetBIOS session */
	assert_true(model.row[0].pps > model.row[2].pps);
	assert_true(model.row[2].pps > model.row[1].pps);
	assert_true(model.row[1].pps > model.row[3].pps);
}

static void same_seed_same_run(void **state)
{
	struct ipx_period p;
	struct ipx_b1sim_opts o = { .period = &p, .seed = 7, .count = 300 };
	struct ipx_b1sim_report a, b;
	char ta[4096], tb[4096];
	FILE *f;

	(void)state;
	load_period(&p);
	run(&o, &a);
	run(&o, &b);
	for (unsigned i = 0; i < IPX_B1SIM_ROWS; i++) {
		assert_int_equal(a.row[i].sent, b.row[i].sent);
		assert_int_equal(a.row[i].delivered, b.row[i].delivered);
		assert_true(a.row[i].seconds == b.row[i].seconds);
	}
	/* and it prints the same */
	f = fmemopen(ta, sizeof(ta), "w");
	ipx_b1sim_write_json(f, &a, NULL);
	fclose(f);
	f = fmemopen(tb, sizeof(tb), "w");
	ipx_b1sim_write_json(f, &b, NULL);
	fclose(f);
	assert_string_equal(ta, tb);
}

/* tr4, at 'rate' bits/s (0: its own) losing 'loss' frames a million:
 * count sends of each interface, the wire alone. */
static void run_tr4(uint64_t rate, uint32_t loss, uint64_t seed,
		    uint32_t count, struct ipx_b1sim_report *r)
{
	struct ipx_profile tr4;
	struct ipx_b1sim_opts o = { .profile = &tr4, .seed = seed,
				    .count = count };

	assert_int_equal(ipx_profile_named("tr4", &tr4), IPX_OK);
	if (rate)
		tr4.rate = rate;
	tr4.loss_ppm = loss;
	run(&o, r);
}

/* IPX bytes of one B1 packet of each kind, and of its acknowledgement
 * (0: none). */
static void sizes(enum ipx_bw_kind k, size_t size, size_t *data, size_t *ack)
{
	*ack = 0;
	switch (k) {
	case IPX_BW_SPX:
		*data = IPX_HDR_LEN + SPX_HDR_LEN + size;
		*ack = IPX_HDR_LEN + SPX_HDR_LEN;
		break;
	case IPX_BW_NB_DGRAM:
		*data = IPX_HDR_LEN + 34 + size;
		break;
	case IPX_BW_NB_SESSION:
		*data = IPX_HDR_LEN + 18 + size;
		*ack = IPX_HDR_LEN + 18;
		break;
	default:
		*data = IPX_HDR_LEN + size;
	}
}

static void the_wire_alone_bounds_the_sim(void **state)
{
	struct ipx_profile tr4;
	struct ipx_b1sim_report r;

	(void)state;
	assert_int_equal(ipx_profile_named("tr4", &tr4), IPX_OK);
	run_tr4(0, 0, 3, 500, &r);
	assert_string_equal(r.period, "");
	for (unsigned i = 0; i < IPX_B1SIM_ROWS; i++) {
		const struct ipx_b1sim_row *row = &r.row[i];
		size_t data, ack;
		double ns, bound;

		sizes(row->kind, 255, &data, &ack);
		ns = (double)ipx_profile_wire_ns(&tr4, data);
		if (ack)
			ns += (double)ipx_profile_wire_ns(&tr4, ack);
		bound = 1e9 / ns;
		assert_int_equal(row->sent, 500);
		assert_int_equal(row->delivered, 500);
		if (row->pps > bound * 1.0001 || row->pps < bound * 0.9)
			fail_msg("%s: %.1f pkt/s, the wire allows %.1f",
				 ipx_bw_kind_name(row->kind), row->pps, bound);
	}
}

/* A slower wire: a datagram send waits for its frame to cross it. */
static void a_datagram_waits_for_its_frame(void **state)
{
	struct ipx_b1sim_report r;

	(void)state;
	run_tr4(400000, 0, 1, 50, &r);	/* a tenth of tr4 */
	/* 309 bytes at 400 kbit/s: 6.18 ms, at most 161.8 a second */
	assert_true(r.row[0].pps <= 161.9);
	assert_true(r.row[0].pps > 150);
}

/* A wire that loses 5 % of its frames: every datagram send completes all
 * the same (the watchdog), the receiver counts fewer; the sessions
 * resend and deliver everything. */
static void a_lost_frame_still_completes(void **state)
{
	struct ipx_b1sim_report r;

	(void)state;
	run_tr4(0, 50000, 2, 200, &r);
	for (unsigned i = 0; i < IPX_B1SIM_ROWS; i++) {
		const struct ipx_b1sim_row *row = &r.row[i];

		assert_int_equal(row->sent, 200);
		if (ipx_bw_kind_stop_and_wait(row->kind)) {
			assert_int_equal(row->delivered, 200);
			assert_true(row->retransmits > 0);
		} else {
			assert_true(row->delivered < 200);
			assert_true(row->delivered > 150);
		}
	}
}

/* A frame that takes twice the first watchdog's slack on the wire is not
 * taken for lost. */
static void a_slow_frame_is_not_lost(void **state)
{
	struct ipx_b1sim_report r;

	(void)state;
	run_tr4(12000, 0, 1, 5, &r);	/* 309 wire bytes: 206 ms */
	assert_int_equal(r.row[0].sent, 5);
	assert_int_equal(r.row[0].delivered, 5);
	assert_true(r.row[0].pps < 4.86 && r.row[0].pps > 4.7);
}

/* The receiving adapter 5 ms a frame (a receive buffer's cost): slower
 * than the 2.7 ms the sender takes an IPX datagram, so its receive
 * buffers fill and frames are dropped; sessions wait instead. */
static void a_slow_receiver_drops_datagrams(void **state)
{
	char dir[] = "/tmp/b1simXXXXXX", path[600], err[1200];
	struct ipx_period p;
	struct ipx_b1sim_opts o = { .period = &p, .seed = 1, .count = 400 };
	struct ipx_b1sim_report r;

	(void)state;
	assert_non_null(mkdtemp(dir));
	tfile_put(dir, "slowrx.adapter",
	    "kind adapter\nbase ibm-tr4\nrx-buffer-cost 5ms\n");
	tfile_put(dir, "slow.period",
	    "kind period\nbase tr4-1990\nstation-adapter slowrx\n");
	snprintf(path, sizeof(path), "%s/slow.period", dir);
	if (ipx_period_resolve(path, &p, err, sizeof(err)) != IPX_OK)
		fail_msg("%s", err);
	run(&o, &r);
	for (unsigned i = 0; i < IPX_B1SIM_ROWS; i++) {
		const struct ipx_b1sim_row *row = &r.row[i];

		assert_int_equal(row->sent, 400);
		if (ipx_bw_kind_stop_and_wait(row->kind)) {
			assert_int_equal(row->delivered, 400);
			assert_int_equal(row->rx_no_buffer, 0);
		} else {
			assert_true(row->delivered < 400);
			assert_true(row->rx_no_buffer > 0);
			assert_int_equal(row->delivered + row->rx_no_buffer,
					 400);
		}
	}
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_period_reproduces_1990),
		cmocka_unit_test(same_seed_same_run),
		cmocka_unit_test(the_wire_alone_bounds_the_sim),
		cmocka_unit_test(a_datagram_waits_for_its_frame),
		cmocka_unit_test(a_slow_receiver_drops_datagrams),
		cmocka_unit_test(a_lost_frame_still_completes),
		cmocka_unit_test(a_slow_frame_is_not_lost),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
