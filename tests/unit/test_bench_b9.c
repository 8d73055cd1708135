/*
 * test_bench_b9.c - B9 (bench_b9.h) in simulated time on the in-memory
 * network: a session's frames are the smaller side's transmit buffer,
 * both ways, over NetBIOS and over NCP; two transmit buffers are never
 * slower than one at the same size, for every workload; a configuration
 * that does not fit the adapter memory is refused before anything runs,
 * with the arithmetic; the same seed gives the same figures; the wire
 * ceiling is the note's 666.7 kB/s (its 651 KB/s of 1,024 bytes) with
 * the baseline adapter; six NetBIOS sessions to one server node all
 * carry data, and the row's total is their sum; on the period
 * lanman-1991 (--period) the fidelity table's median absolute error is
 * within 10 % and the same seed gives the same run, and a period is
 * refused on the real clock.
 */
#include "cm.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ipxlab/bench_b9.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"
#include "ipxlab/machine.h"

static void opts(struct ipx_b9_opts *o, double seconds)
{
	memset(o, 0, sizeof(*o));
	assert_int_equal(ipx_profile_named("tr16", &o->profile), IPX_OK);
	ipx_b9_default_adapter(&o->base);
	o->seconds = seconds;
	o->seed = 1;
	o->sim = true;
	ipx_log_set_level(IPX_LOG_ERROR);
}

static struct ipx_b9_point measure(const struct ipx_b9_opts *o,
				   uint32_t ws_tx, uint32_t srv_tx,
				   unsigned workload)
{
	struct ipx_b9_config c = { .ws = o->base, .srv = o->base };
	struct ipx_b9_point pt;
	char err[512] = "";

	c.ws.tx_size = ws_tx;
	c.srv.tx_size = srv_tx;
	if (ipx_b9_measure(o, &c, workload, &pt, err, sizeof(err)) != IPX_OK)
		fail_msg("%s: %s", ipx_b9_workload_name(workload), err);
	assert_true(pt.done);
	assert_true(pt.kbs > 0);
	return pt;
}

static void frames_are_the_smaller_sides(void **state)
{
	struct ipx_b9_opts o;

	(void)state;
	opts(&o, 0.3);
	/* every workload, the workstations' buffer the smaller, then the
	 * server's: the data goes in frames of the smaller, either way */
	for (unsigned w = 0; w < IPX_B9_WORKLOADS; w++) {
		bool up = ipx_b9_workloads[w].dir == IPX_B9_WRITE;
		struct ipx_b9_point a = measure(&o, 1024, 4096, w);
		struct ipx_b9_point b = measure(&o, 4096, 1024, w);

		uint32_t fa = up ? a.frame_up : a.frame_down;
		uint32_t fb = up ? b.frame_up : b.frame_down;

		/* the same frames whichever side is the smaller; NetBIOS
		 * fills the buffer, NCP's reads and writes are the
		 * negotiated buffer (the smaller side's) and their header */
		assert_int_equal(fa, fb);
		if (ipx_b9_workloads[w].proto == IPX_B9_NETBIOS)
			assert_int_equal(fa, 1024);
		else
			assert_true(fa > 1024 - 64 && fa <= 1024);
		/* and never more than a side's own buffer */
		assert_true(a.frame_up <= 1024 && b.frame_down <= 1024);
	}
	/* equal buffers of 4K: 4,096-byte frames (over 1,500 on tr16) */
	assert_int_equal(measure(&o, 4096, 4096, 0).frame_down, 4096);
	assert_true(measure(&o, 4096, 4096, 2).frame_down > 4000);
}

static void two_buffers_never_slower(void **state)
{
	static struct ipx_b9_report rep;
	struct ipx_b9_opts o;
	char err[512] = "";

	(void)state;
	opts(&o, 0.5);
	assert_int_equal(ipx_b9_run(&o, NULL, NULL, &rep, err, sizeof(err)),
			 IPX_OK);
	assert_true(rep.complete);
	for (unsigned w = 0; w < IPX_B9_WORKLOADS; w++) {
		double p = ipx_b9_change_pct(&rep, &ipx_b9_changes[5], w);

		/* where a second buffer changes nothing the figures differ
		 * by the phase the workload started at (each starts where
		 * the one before ended): a few thousandths of a percent */
		assert_false(isnan(p));
		if (p < -0.01)
			fail_msg("%s: %.3f %%", ipx_b9_workload_name(w), p);
	}
	/* six workstations' reads: the server's second buffer overlaps its
	 * next reply's copy with the wire */
	assert_true(ipx_b9_change_pct(&rep, &ipx_b9_changes[5], 4) > 10);
	/* the same for NetBIOS's six sessions to one server node */
	assert_true(ipx_b9_change_pct(&rep, &ipx_b9_changes[5], 6) > 10);
	/* larger frames never slower, 256 bytes to 2K, NetBIOS */
	for (unsigned c = 0; c < 4; c++)
		assert_true(ipx_b9_change_pct(&rep, &ipx_b9_changes[c], 0) > 0);
	/* the ceiling: a 2,000-byte frame every 3 ms (copy + wire), 666.7
	 * kB/s; the note's 651 KB/s is the same in KB of 1,024 bytes */
	assert_true(fabs(IPX_B9_PUB_CEILING_KBS -
			 IPX_B9_PUB_CEILING_KBS_NOTE * IPX_B9_NOTE_KB / 1000) <
		    0.2);
	assert_true(rep.ceiling.done);
	assert_true(fabs(rep.ceiling.kbs - IPX_B9_PUB_CEILING_KBS) < 2);
	/* the same seed, the same figures */
	{
		static struct ipx_b9_report again;

		assert_int_equal(ipx_b9_run(&o, NULL, NULL, &again, err,
					    sizeof(err)),
				 IPX_OK);
		assert_memory_equal(rep.pt, again.pt, sizeof(rep.pt));
	}
}

static void six_netbios_sessions_all_carry_data(void **state)
{
	struct ipx_b9_opts o;

	(void)state;
	opts(&o, 0.5);
	for (unsigned w = 6; w < 8; w++) {
		const struct ipx_b9_workload *wl = &ipx_b9_workloads[w];
		struct ipx_b9_point pt = measure(&o, 2048, 2048, w);
		struct ipx_b9_point one = measure(&o, 2048, 2048, w - 6);
		double sum = 0, min = INFINITY;

		assert_int_equal(wl->proto, IPX_B9_NETBIOS);
		assert_int_equal(wl->stations, 6);
		assert_int_equal(ipx_b9_workloads[w - 6].dir, wl->dir);
		for (unsigned i = 0; i < 6; i++) {
			/* every session moved data, no one starved */
			assert_true(pt.kbs_ws[i] > pt.kbs / 6 / 2);
			sum += pt.kbs_ws[i];
			if (pt.kbs_ws[i] < min)
				min = pt.kbs_ws[i];
		}
		assert_true(fabs(sum - pt.kbs) < 1e-6);
		assert_true(pt.kbs_ws_min == min);
		/* six at once through the server's one adapter: more than
		 * one session alone, never more than the wire's ceiling
		 * each way plus the other direction's */
		assert_true(pt.kbs > one.kbs * 1.2);
		assert_true(pt.kbs < 2 * IPX_B9_PUB_CEILING_KBS);
		/* the frames are the buffers' */
		assert_int_equal(wl->dir == IPX_B9_WRITE ? pt.frame_up
							: pt.frame_down,
				 2048);
	}
}

static void a_configuration_that_does_not_fit_is_refused(void **state)
{
	static struct ipx_b9_report rep;
	struct ipx_b9_opts o;
	char err[512] = "";

	(void)state;
	opts(&o, 0.1);
	o.base.memory = 8192;
	o.base.tx_buffers = 2;
	assert_int_equal(ipx_b9_plan(&o, &rep, err, sizeof(err)), IPX_ECONFIG);
	assert_non_null(strstr(err, "the step 'tx size 4096': adapter memory "
				    "8192 bytes cannot hold 2 transmit buffers "
				    "of 4096 bytes and 4 receive buffers of "
				    "1024 bytes: 2 x 4096 + 4 x 1024 = 12288 "
				    "bytes > 8192"));
	/* ipx_b9_run refuses the same way, having measured nothing */
	assert_int_equal(ipx_b9_run(&o, NULL, NULL, &rep, err, sizeof(err)),
			 IPX_ECONFIG);
	assert_false(rep.ceiling.done);
	assert_false(rep.pt[0][0].done);
	/* one buffer fits 8K at every step */
	o.base.tx_buffers = 1;
	assert_int_equal(ipx_b9_plan(&o, &rep, err, sizeof(err)), IPX_OK);
}

/* What `bench tuning --period NAME` runs: the period's wire, its
 * workstations' and server's adapters as the two baselines. */
static void period_opts(struct ipx_b9_opts *o, struct ipx_period *p,
			const char *name, double seconds)
{
	char err[1200] = "";

	opts(o, seconds);
	if (ipx_period_resolve(name, p, err, sizeof(err)) != IPX_OK)
		fail_msg("%s", err);
	o->period = p;
	o->profile = p->wire;
	assert_true(p->station.have_adapter && p->server.have_adapter);
	o->base = p->station.adapter.adapter;
	o->base_srv = p->server.adapter.adapter;
}

static void a_period_run_is_within_ten_percent(void **state)
{
	static struct ipx_b9_report rep, again;
	static struct ipx_period p;
	struct ipx_b9_opts o;
	char err[512] = "";
	double med;

	(void)state;
	period_opts(&o, &p, "lanman-1991", 0.3);
	assert_int_equal(ipx_b9_run(&o, NULL, NULL, &rep, err, sizeof(err)),
			 IPX_OK);
	assert_true(rep.complete && rep.have_fid);
	assert_int_equal(rep.fid.n, 9);
	med = ipx_fid_median_abs_error(&rep.fid);
	if (!(med <= IPX_FID_TARGET_PCT))
		fail_msg("median absolute error %.1f %%", med);
	/* the machines cost time: slower than the wire alone (today) */
	assert_true(rep.fid.row[1].model < rep.fid.row[1].today);
	/* 2,000-byte frames at most (NetBEUI's): 4K buffers change nothing */
	assert_true(fabs(rep.fid.row[4].model) < 0.5);
	/* the same seed, the same run, the table too */
	assert_int_equal(ipx_b9_run(&o, NULL, NULL, &again, err, sizeof(err)),
			 IPX_OK);
	assert_memory_equal(rep.pt, again.pt, sizeof(rep.pt));
	assert_memory_equal(&rep.fid, &again.fid, sizeof(rep.fid));
	/* a period runs in simulated time only */
	o.sim = false;
	assert_int_equal(ipx_b9_run(&o, NULL, NULL, &again, err, sizeof(err)),
			 IPX_EINVAL);
	assert_non_null(strstr(err, "simulated time"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(frames_are_the_smaller_sides),
		cmocka_unit_test(two_buffers_never_slower),
		cmocka_unit_test(six_netbios_sessions_all_carry_data),
		cmocka_unit_test(a_configuration_that_does_not_fit_is_refused),
		cmocka_unit_test(a_period_run_is_within_ten_percent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
