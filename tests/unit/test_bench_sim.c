/*
 * test_bench_sim.c - the file-server benchmarks' network in simulated
 * time (bench_sim.h): on an eth10 segment a lone workstation's open/close
 * rate is what the wire time of its frames allows, and the wire never
 * carries more than its rate; bridged over isn the same test is slower
 * and its peak Kbyte/s lower, the frames cross the bridge and none is
 * too big for it; five workstations on one loop share the wire evenly
 * (each call returns when its reply is there, not buried under the others'
 * calls); the same seed gives the same run, frame for frame; the analyzer
 * starts afresh on reset; spare nodes on either side carry a load of
 * the caller's across the bridge.
 */
#include "cm.h"

#include <stdio.h>
#include <string.h>

#include "ipxlab/bench_sim.h"
#include "ipxlab/bench_wan.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"

static struct ipx_bsim *sim_new(const char *profile, const char *wan,
				unsigned stations, uint64_t seed)
{
	struct ipx_profile p, w;
	struct ipx_bsim_opts o = { .stations = stations, .seed = seed };
	struct ipx_bsim *s;
	char err[300] = "";

	if (profile) {
		assert_int_equal(ipx_profile_named(profile, &p), IPX_OK);
		o.profile = &p;
	}
	if (wan) {
		assert_int_equal(ipx_profile_named(wan, &w), IPX_OK);
		o.wan = &w;
	}
	if (ipx_bsim_new(&o, &s, err, sizeof(err)) != IPX_OK)
		fail_msg("sim: %s", err);
	return s;
}

/* 'op' on n workstations for 'secs' of simulated time; the analyzer of
 * the workstations' side is fresh for it. Returns ops/s of ws1. */
static double run(struct ipx_bsim *s, enum ipx_bn_op op, size_t n,
		  double secs, struct ipx_bw_result *res)
{
	char err[400] = "";

	ipx_bsim_reset(s);
	if (ipx_bn_run(ipx_bsim_ctl(s), ipx_bsim_run_opts(s), op, n, secs, 0,
		       0, 1, res, err, sizeof(err)) != IPX_OK)
		fail_msg("%s: %s", ipx_bn_op_name(op), err);
	assert_true(res[0].seconds > 0);
	return res[0].sent / res[0].seconds;
}

static void eth10_open_close_is_bound_by_the_wire(void **state)
{
	struct ipx_bsim *s = sim_new("eth10", NULL, 1, 1);
	const struct ipx_analyze *a = ipx_bsim_analyze(s, IPX_BSIM_STATIONS);
	struct ipx_bw_result r;
	double t0 = ipx_bsim_seconds(s), ops, wire_s, per_op;

	(void)state;
	assert_false(ipx_bsim_bridged(s));
	assert_ptr_equal(a, ipx_bsim_analyze(s, IPX_BSIM_SERVER));
	/* the agents have no process of their own: no pid in what names
	 * them, so a run's messages compare with the next one's */
	assert_int_equal(ipx_hctl_agent_at(ipx_bsim_ctl(s), 0)->pid, 0);
	ops = run(s, IPX_BN_OPEN_SINGLE, 1, 1.0, &r);
	/* the test took its simulated second (plus set-up) */
	assert_true(ipx_bsim_seconds(s) - t0 >= 1.0);
	assert_true(r.seconds >= 1.0 && r.seconds < 1.01);
	/* four frames per operation (open, its reply, close, its reply),
	 * each at least a 60-byte frame + 24 bytes of preamble, FCS and gap
	 * at 10 Mbit/s: at most one operation per 4 x 67.2 us */
	assert_true(ops > 100);
	assert_true(ops < 1 / (4 * 67.2e-6));
	/* all the wire time the analyzer saw was carried within the time */
	wire_s = a->bytes * 8.0 / 10e6;
	assert_true(wire_s <= ipx_bsim_seconds(s) - t0);
	/* one workstation, one request at a time, nothing but the wire
	 * takes time: the wire is busy the whole test, operation after
	 * operation (a little control and set-up traffic besides) */
	per_op = wire_s / (double)r.sent;
	assert_true(ops * per_op > 0.95 && ops * per_op < 1.1);
	assert_true(a->proto[IPX_ANALYZE_NCP] >= 4 * r.sent);
	/* the peak second is what the wire carried: near the mean */
	assert_true(ipx_analyze_peak_rate(a) >
		    0.8 * (double)a->bytes / r.seconds);
	assert_true(ipx_analyze_peak_rate(a) >= ipx_analyze_mean_rate(a));
	assert_true(ipx_analyze_peak_rate(a) <= 10e6 / 8);
	ipx_bsim_free(s);
}

static void bridged_is_slower_and_carries_less(void **state)
{
	struct ipx_bsim *l = sim_new("eth10", NULL, 1, 1);
	struct ipx_bsim *b = sim_new("eth10", "isn", 1, 1);
	const struct ipx_wan_module_stats *ws, *ss;
	struct ipx_bw_result r;
	double ops_l, ops_b, kbs_l, kbs_b;

	(void)state;
	assert_true(ipx_bsim_bridged(b));
	ops_l = run(l, IPX_BN_LOCK, 1, 2.0, &r);
	kbs_l = ipx_analyze_peak_rate(ipx_bsim_analyze(l, IPX_BSIM_STATIONS));
	ops_b = run(b, IPX_BN_LOCK, 1, 2.0, &r);
	kbs_b = ipx_analyze_peak_rate(ipx_bsim_analyze(b, IPX_BSIM_STATIONS));
	assert_true(r.sent > 0);
	assert_true(ops_b < ops_l / 10);
	assert_true(kbs_b < kbs_l / 10);
	/* the requests crossed from the workstations (B) to the server
	 * (A) and the answers back; nothing was too big for the bridge */
	ss = ipx_wan_stats(ipx_bsim_wan(b), 0);
	ws = ipx_wan_stats(ipx_bsim_wan(b), 1);
	assert_true(ws->crossed >= 2 * r.sent);
	assert_true(ss->crossed >= 2 * r.sent);
	assert_int_equal(ws->drops[IPX_WAN_DROP_TOO_BIG], 0);
	assert_int_equal(ss->drops[IPX_WAN_DROP_TOO_BIG], 0);
	/* both segments' analyzers saw the test's NCP frames */
	assert_true(ipx_bsim_analyze(b, IPX_BSIM_SERVER)->proto[IPX_ANALYZE_NCP] >=
		    4 * r.sent);
	assert_true(ipx_bsim_analyze(b, IPX_BSIM_STATIONS)
			    ->proto[IPX_ANALYZE_NCP] >= 4 * r.sent);
	/* 16 KB block reads cross in pieces the bridge carries */
	run(b, IPX_BN_BLOCK, 1, 1.0, &r);
	assert_true(r.sent > 0);
	assert_int_equal(ss->drops[IPX_WAN_DROP_TOO_BIG], 0);
	ipx_bsim_free(l);
	ipx_bsim_free(b);
}

static void five_workstations_share_the_wire_evenly(void **state)
{
	struct ipx_bsim *s = sim_new("eth10", NULL, 5, 3);
	struct ipx_bw_result r[5];
	uint64_t lo = UINT64_MAX, hi = 0, sum = 0;

	(void)state;
	run(s, IPX_BN_DIR_SEARCH, 5, 0.5, r);
	for (int i = 0; i < 5; i++) {
		lo = r[i].sent < lo ? r[i].sent : lo;
		hi = r[i].sent > hi ? r[i].sent : hi;
		sum += r[i].sent;
	}
	assert_true(lo * 10 >= hi * 9);
	/* together no faster than the wire lets one workstation alone */
	assert_true(sum / 0.5 < 1 / (4 * 67.2e-6) * 2);
	ipx_bsim_free(s);
}

static void same_seed_same_run(void **state)
{
	struct ipx_bw_result r1[2], r2[2];
	struct ipx_analyze a1;
	struct ipx_bsim *s;

	(void)state;
	s = sim_new("eth10", NULL, 2, 9);
	run(s, IPX_BN_SHARED_SMALL, 2, 0.3, r1);
	a1 = *ipx_bsim_analyze(s, IPX_BSIM_STATIONS);
	a1.per_second = NULL;
	ipx_bsim_free(s);
	s = sim_new("eth10", NULL, 2, 9);
	run(s, IPX_BN_SHARED_SMALL, 2, 0.3, r2);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(r1[i].sent, r2[i].sent);
		assert_int_equal(r1[i].bytes, r2[i].bytes);
		assert_true(r1[i].seconds == r2[i].seconds);
	}
	assert_int_equal(a1.packets, ipx_bsim_analyze(s, IPX_BSIM_STATIONS)->packets);
	assert_int_equal(a1.bytes, ipx_bsim_analyze(s, IPX_BSIM_STATIONS)->bytes);
	assert_memory_equal(a1.gaps, ipx_bsim_analyze(s, IPX_BSIM_STATIONS)->gaps,
			    sizeof(a1.gaps));
	/* reset: nothing counted until the next frame */
	ipx_bsim_reset(s);
	assert_int_equal(ipx_bsim_analyze(s, IPX_BSIM_STATIONS)->packets, 0);
	assert_true(ipx_analyze_peak_rate(ipx_bsim_analyze(s, IPX_BSIM_STATIONS)) == 0);
	ipx_bsim_free(s);
}

/* Spare nodes: one on the server's side, one on the workstations', a
 * background load between them crosses the bridge from A to B, as the
 * limit search's does; the count is bounded. */
static void spare_nodes_carry_a_load_across(void **state)
{
	struct ipx_bsim *b = sim_new("eth10", "isn", 1, 1);
	struct ipx_node *from, *to, *n;
	struct ipx_bwan_flood *f;
	struct ipx_bwan_flood_count c;
	struct ipx_addr af, at, asrv;
	uint64_t crossed;

	(void)state;
	assert_int_equal(ipx_bsim_spare_node(b, IPX_BSIM_SERVER, &from),
			 IPX_OK);
	assert_int_equal(ipx_bsim_spare_node(b, IPX_BSIM_STATIONS, &to),
			 IPX_OK);
	ipx_node_address(from, &af);
	ipx_node_address(to, &at);
	ipx_node_address(ipx_bsim_station(b, 0), &asrv);
	assert_memory_not_equal(af.node, at.node, IPX_NODE_LEN);
	assert_memory_not_equal(at.node, asrv.node, IPX_NODE_LEN);
	crossed = ipx_wan_stats(ipx_bsim_wan(b), 0)->crossed;
	assert_int_equal(ipx_bwan_flood_new(from, to, &f), IPX_OK);
	ipx_bwan_flood_rate(f, 200000);
	ipx_loop_run_for(ipx_bsim_loop(b), 2 * IPX_SEC);
	ipx_bwan_flood_rate(f, 0);
	ipx_loop_run_for(ipx_bsim_loop(b), 2 * IPX_SEC);
	ipx_bwan_flood_count(f, &c);
	/* 200 kbit/s for 2 s: about 87 packets of 576 bytes, all carried */
	assert_true(c.sent >= 80 && c.sent <= 90);
	assert_int_equal(c.got, c.sent);
	/* from the server's segment (A) to the workstations' */
	assert_true(ipx_wan_stats(ipx_bsim_wan(b), 0)->crossed - crossed >=
		    c.sent);
	ipx_bwan_flood_free(f);
	assert_int_equal(ipx_bsim_spare_node(b, IPX_BSIM_SERVER, &n), IPX_OK);
	assert_int_equal(ipx_bsim_spare_node(b, IPX_BSIM_SERVER, &n), IPX_OK);
	assert_int_equal(ipx_bsim_spare_node(b, IPX_BSIM_SERVER, &n),
			 IPX_ERANGE);
	assert_null(n);
	ipx_bsim_free(b);
}

/* The same test on a period's machines: slower than the wire alone, by
 * at least the workstation's CPU time per request and reply, the same
 * run twice, and the server's disk and CPU were used. */
static void a_period_costs_its_machines_time(void **state)
{
	struct ipx_period per;
	struct ipx_bsim_opts o = { .stations = 1, .seed = 3 };
	struct ipx_bsim *s, *w = sim_new("eth10", NULL, 1, 3);
	struct ipx_bw_result r, r2;
	const struct ipx_machine *ws;
	double wire_ops, ops, floor_s;
	char err[600] = "";
	uint8_t req[64] = { 0 }, rep[64] = { 0 };

	(void)state;
	if (ipx_period_resolve("netware-1990", &per, err, sizeof(err)) !=
	    IPX_OK)
		fail_msg("%s", err);
	o.period = &per;
	wire_ops = run(w, IPX_BN_OPEN_SINGLE, 1, 1.0, &r);
	ipx_bsim_free(w);
	for (int round = 0; round < 2; round++) {
		if (ipx_bsim_new(&o, &s, err, sizeof(err)) != IPX_OK)
			fail_msg("sim: %s", err);
		assert_ptr_not_equal(ipx_bsim_server_host(s), NULL);
		ops = run(s, IPX_BN_OPEN_SINGLE, 1, 1.0, round ? &r2 : &r);
		if (round) {
			assert_int_equal(r.sent, r2.sent);
			assert_true(r.seconds == r2.seconds);
		}
		assert_true(ipx_host_stats(ipx_bsim_server_host(s))->cpu_ns >
			    0);
		/* an open/close pair: two requests and two replies through
		 * the workstation's CPU at least (the machine belongs to the
		 * sim, so it is read before the sim is freed) */
		ws = ipx_host_machine(ipx_bsim_station_host(s, 0));
		req[2] = 64, req[5] = 17, req[16] = 0x04, req[17] = 0x51;
		req[30] = 0x22, req[31] = 0x22;
		rep[5] = 17, rep[28] = 0x04, rep[29] = 0x51, rep[30] = 0x33;
		rep[31] = 0x33;
		floor_s = 2e-9 *
			  (double)(ipx_host_packet_ns(ws, false, true, req, 64) +
				   ipx_host_packet_ns(ws, false, false, rep, 64));
		ipx_bsim_free(s);
	}
	assert_true(floor_s > 0.003);
	assert_true(ops < wire_ops / 2);
	assert_true(ops <= 1 / floor_s);
}

/* The period shell caches each workstation's own file (shell-1990's
 * cache buffers): a random 64-byte read fetches its whole 1,024-byte
 * block, sequential ones find 15 in 16 in the cache; without a period the
 * client asks for every 64 bytes. */
static void a_period_shell_caches_private_files(void **state)
{
	struct ipx_period per;
	struct ipx_bsim_opts o = { .stations = 1, .seed = 5 };
	struct ipx_bsim *s, *w = sim_new("eth10", NULL, 1, 5);
	struct ipx_bw_result r;
	char err[600] = "";
	double per_op;

	(void)state;
	run(w, IPX_BN_PRIV_RANDOM, 1, 0.5, &r);
	per_op = (double)r.bytes / (double)r.sent;
	assert_true(per_op > 64 && per_op < 300);
	ipx_bsim_free(w);
	if (ipx_period_resolve("netware-1990", &per, err, sizeof(err)) !=
	    IPX_OK)
		fail_msg("%s", err);
	o.period = &per;
	if (ipx_bsim_new(&o, &s, err, sizeof(err)) != IPX_OK)
		fail_msg("sim: %s", err);
	run(s, IPX_BN_PRIV_RANDOM, 1, 2.0, &r);
	per_op = (double)r.bytes / (double)r.sent;
	/* 128 blocks of 1,024 and 5 kept: nearly every read fetches one */
	assert_true(per_op > 0.9 * 1024 && per_op < 1.1 * (1024 + 200));
	run(s, IPX_BN_PRIV_SEQ, 1, 2.0, &r);
	per_op = (double)r.bytes / (double)r.sent;
	assert_true(per_op > (1024 + 50) / 16.0 && per_op < (1024 + 200) / 15.0);
	ipx_bsim_free(s);
}

/* Seconds a 64-byte random private read takes on the period, the
 * server's cache warm (a first run read the file from its disk). */
static double warm_private_read_s(const struct ipx_period *per)
{
	struct ipx_bsim_opts o = { .stations = 1, .seed = 5, .period = per };
	struct ipx_bsim *s;
	struct ipx_bw_result r;
	char err[600] = "";
	double t;

	if (ipx_bsim_new(&o, &s, err, sizeof(err)) != IPX_OK)
		fail_msg("sim: %s", err);
	run(s, IPX_BN_PRIV_RANDOM, 1, 2.0, &r);
	t = 1.0 / run(s, IPX_BN_PRIV_RANDOM, 1, 2.0, &r);
	ipx_bsim_free(s);
	return t;
}

/* A read that fetched a block costs the fetch plus the shell's move of
 * the block into its cache (shell-1990's cache-fill): the same period
 * with the fill free is faster by that much a fetch, and no more. */
static void a_cache_fill_adds_its_time_to_a_miss(void **state)
{
	struct ipx_period per, free_fill;
	char err[600] = "";
	double with_s, without_s, fill_s;

	(void)state;
	if (ipx_period_resolve("netware-1990", &per, err, sizeof(err)) !=
	    IPX_OK)
		fail_msg("%s", err);
	fill_s = (double)ipx_machine_cache_fill_ns(&per.station, 1024) / 1e9;
	assert_true(fill_s > 0.001);
	free_fill = per;
	for (unsigned i = 0; i < free_fill.station.nsoftware; i++)
		free_fill.station.software[i].cache_fill_rate = 0;
	assert_int_equal(ipx_machine_cache_fill_ns(&free_fill.station, 1024),
			 0);
	with_s = warm_private_read_s(&per);
	without_s = warm_private_read_s(&free_fill);
	/* nearly one 1,024-byte fetch a read (5 of 128 blocks kept, a
	 * read across two blocks now and then) */
	assert_true(with_s - without_s > 0.9 * fill_s);
	assert_true(with_s - without_s < 1.15 * fill_s);
}

static void bad_options_are_refused(void **state)
{
	struct ipx_profile eth;
	struct ipx_bsim_opts o = { .stations = 0 };
	struct ipx_bsim *s = (struct ipx_bsim *)&o;
	char err[300] = "";

	(void)state;
	assert_int_equal(ipx_bsim_new(&o, &s, err, sizeof(err)), IPX_EINVAL);
	assert_null(s);
	assert_non_null(strstr(err, "workstations"));
	/* a bridge profile without buffers is not a bridge */
	assert_int_equal(ipx_profile_named("eth10", &eth), IPX_OK);
	o.stations = 1;
	o.wan = &eth;
	assert_int_not_equal(ipx_bsim_new(&o, &s, err, sizeof(err)), IPX_OK);
	assert_null(s);
	assert_non_null(strstr(err, "eth10"));
	ipx_bsim_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(eth10_open_close_is_bound_by_the_wire),
		cmocka_unit_test(bridged_is_slower_and_carries_less),
		cmocka_unit_test(five_workstations_share_the_wire_evenly),
		cmocka_unit_test(same_seed_same_run),
		cmocka_unit_test(spare_nodes_carry_a_load_across),
		cmocka_unit_test(a_period_costs_its_machines_time),
		cmocka_unit_test(a_period_shell_caches_private_files),
		cmocka_unit_test(a_cache_fill_adds_its_time_to_a_miss),
		cmocka_unit_test(bad_options_are_refused),
	};

	ipx_log_set_level(IPX_LOG_ERROR);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
