/*
 * test_bench_wan.c - the loops of B6 (bench_wan.h) on an in-memory network
 * in simulated time: the file server on one segment, the controller and
 * the workstation agents on another, the two joined by the isn WAN bridge
 * modules (ipx_wan). The scaling loop runs 1..N workstations with exactly
 * that many agents each time; the paced load is carried at its rate below
 * the trunk's and at the trunk's above it; the limit search stops at the
 * first load whose copy fails its deadline and reports the one before.
 */
#include "cm.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ipxlab/bench_wan.h"
#include "ipxlab/err.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/log.h"
#include "ipxlab/link_profile.h"
#include "ipxlab/ncp_server.h"
#include "ipxlab/wan.h"

#define WS 3

struct world {
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_mem_segment *seg[2];	/* 0: the server's, 1: the ws' */
	struct ipx_link *port[2];	/* the bridge modules' links */
	struct ipx_wan *wan;
	struct ipx_config cfg;
	struct ipx_node *c, *srvnode, *far, *ws[WS];
	struct ipx_agent *ag[WS];
	struct ipx_hctl *ctl;
	struct ncp_server *srv;
	struct ipx_bwan_flood *flood, *flood_up;
	struct ipx_bn_run_opts o;
	unsigned next_b;		/* node numbers on segment 1 */
	unsigned progress_calls;
	char root[64];
};

static void to_wan(struct ipx_link *l, const uint8_t *pkt, size_t len,
		   void *ctx)
{
	struct world *w = ctx;

	ipx_wan_input(w->wan, l == w->port[1], pkt, len);
}

static void from_wan(unsigned side, const uint8_t *pkt, size_t len, void *ctx)
{
	struct world *w = ctx;

	ipx_link_send(w->port[side], pkt, len, pkt + 10);
}

static struct ipx_node *add_node(struct world *w, int side)
{
	struct ipx_node *n = ipx_node_new(w->loop, &w->cfg);
	uint8_t node[6] = { 0x02, 0xB0, 0, 0, 0, (uint8_t)++w->next_b };

	assert_non_null(n);
	assert_int_equal(ipx_node_add_link(n, ipx_mem_link_new(w->seg[side],
							       side ? node
								    : NULL)),
			 IPX_OK);
	return n;
}

static struct world *world_new(void)
{
	struct world *w = calloc(1, sizeof(*w));
	struct ipx_mem_faults f = { .delay = 100 };
	struct ncp_server_opts so = { .name = "FARSRV", .max_buffer = 512 };
	const char *names[WS] = { "ws1", "ws2", "ws3" };
	struct ipx_profile isn;
	char err[300] = "";

	assert_non_null(w);
	snprintf(w->root, sizeof(w->root), "/tmp/ipxlab-wan.XXXXXX");
	assert_non_null(mkdtemp(w->root));
	if (ipx_bn_fixtures_make(w->root, WS, err, sizeof(err)) != IPX_OK)
		fail_msg("fixtures: %s", err);
	ipx_clock_fake_init(&w->clk, 1000);
	w->loop = ipx_loop_new(&w->clk);
	assert_int_equal(ipx_profile_named("isn", &isn), IPX_OK);
	for (int s = 0; s < 2; s++) {
		uint8_t pn[6] = { 0x02, 0xB0, 0, 0, 0, 0xF0 };

		w->seg[s] = ipx_mem_segment_new(w->loop, 0x10, 7 + (uint64_t)s);
		ipx_mem_segment_set_faults(w->seg[s], &f);
		w->port[s] = ipx_mem_link_new(w->seg[s], s ? pn : NULL);
		ipx_mem_link_set_promiscuous(w->port[s], true);
		w->port[s]->rx = to_wan;
		w->port[s]->rx_ctx = w;
	}
	assert_int_equal(ipx_wan_new(w->loop, &isn, 1, from_wan, w, &w->wan),
			 IPX_OK);
	ipx_config_defaults(&w->cfg);
	w->cfg.spx_listen_timeout = 18;
	w->cfg.spx_verify_timeout = 9;
	w->cfg.spx_abort_timeout = 108;
	w->srvnode = add_node(w, 0);
	w->far = add_node(w, 0);
	w->c = add_node(w, 1);
	snprintf(so.volumes[0].name, sizeof(so.volumes[0].name), "SYS");
	snprintf(so.volumes[0].dir, sizeof(so.volumes[0].dir), "%s", w->root);
	so.nvolumes = 1;
	if (ncp_server_new(w->srvnode, &so, &w->srv, err, sizeof(err)) !=
	    IPX_OK)
		fail_msg("server: %s", err);
	for (int i = 0; i < WS; i++) {
		struct ipx_agent_opts ao = { .name = names[i] };

		w->ws[i] = add_node(w, 1);
		assert_int_equal(ipx_agent_new(w->ws[i], &ao, &w->ag[i], err,
					       sizeof(err)),
				 IPX_OK);
	}
	assert_int_equal(ipx_hctl_new(w->c, &w->ctl), IPX_OK);
	if (ipx_hctl_attach(w->ctl, names, WS, 5 * IPX_SEC, err,
			    sizeof(err)) != IPX_OK)
		fail_msg("attach: %s", err);
	assert_int_equal(ipx_bwan_flood_new(w->far, w->c, &w->flood), IPX_OK);
	assert_int_equal(ipx_bwan_flood_new(w->c, w->far, &w->flood_up),
			 IPX_OK);
	ipx_node_address(w->srvnode, &w->o.server);
	w->o.server.socket = IPX_SOCK_NCP;
	return w;
}

static int rm_one(const char *p, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

static bool tasks_idle(void *ctx)
{
	return !ipx_loop_tasks_busy(ctx);
}

static void world_free(struct world *w)
{
	ipx_bwan_flood_free(w->flood);
	ipx_bwan_flood_free(w->flood_up);
	ipx_hctl_free(w->ctl);
	/* a copy cut off by its deadline is still inside its NCP call: it
	 * ends (and frees its workload) in simulated time, as bench_sim's
	 * network lets it */
	ipx_loop_run_until(w->loop, tasks_idle, w->loop, 30 * IPX_SEC);
	for (int i = 0; i < WS; i++) {
		ipx_agent_free(w->ag[i]);
		ipx_node_free(w->ws[i]);
	}
	ncp_server_free(w->srv);
	ipx_node_free(w->srvnode);
	ipx_node_free(w->far);
	ipx_node_free(w->c);
	ipx_wan_free(w->wan);
	for (int s = 0; s < 2; s++) {
		ipx_link_close(w->port[s]);
		ipx_mem_segment_free(w->seg[s]);
	}
	ipx_loop_free(w->loop);
	nftw(w->root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(w);
}

static void count_progress(void *ctx, const char *what, unsigned k,
			   unsigned n, double seconds)
{
	struct world *w = ctx;

	(void)what;
	(void)n;
	(void)seconds;
	assert_int_equal(k, ++w->progress_calls);
}

/* 1..3 workstations across the bridge: each point ran exactly that many
 * agents (the server saw that many new connections), every one of them
 * completed operations, and open/close went through the bridge, whose
 * hold timer bounds a lone workstation's rate. */
static void scaling_runs_one_to_n_workstations(void **state)
{
	struct world *w = world_new();
	struct ipx_bwan_point pt[WS];
	const struct ncp_server_stats *s = ncp_server_stats(w->srv);
	uint64_t created0 = s->created;
	char err[400] = "";

	(void)state;
	if (ipx_bwan_scale(w->ctl, &w->o, IPX_BN_OPEN_MULTI, WS, 3.0,
			   count_progress, w, pt, err, sizeof(err)) != IPX_OK)
		fail_msg("scale: %s", err);
	assert_int_equal(w->progress_calls, WS);
	assert_true(ipx_wan_stats(w->wan, 1)->crossed > 0);
	assert_int_equal(s->created - created0, 1 + 2 + 3);
	for (unsigned n = 1; n <= WS; n++) {
		assert_int_equal(pt[n - 1].stations, n);
		assert_int_equal(pt[n - 1].active, n);
		assert_true(pt[n - 1].min > 0);
		assert_true(pt[n - 1].total >= pt[n - 1].per_ws * n - 1e-9);
	}
	/* two requests per operation; a lone workstation's request and its
	 * reply each wait the whole 3 ms hold (nothing else fills the
	 * block): at most 1 / (2 x 2 x 3 ms) = 83.3 ops/s */
	assert_true(pt[0].max < 1 / (4 * 3e-3));
	/* more than the agents attached, or none: refused */
	assert_int_equal(ipx_bwan_scale(w->ctl, &w->o, IPX_BN_OPEN_MULTI,
					WS + 1, 3.0, NULL, NULL, pt, err,
					sizeof(err)),
			 IPX_EINVAL);
	world_free(w);
}

/* The paced load: below the trunk rate it arrives at the rate asked;
 * above it, at the trunk's rate and no more (576-byte packets are 590
 * bytes on the trunk). */
static void flood_is_paced_and_capped_by_the_trunk(void **state)
{
	struct world *w = world_new();
	struct ipx_bwan_flood_count a, b;
	double rate;

	(void)state;
	ipx_bwan_flood_rate(w->flood, 400000);
	ipx_loop_run_for(w->loop, 1 * IPX_SEC);
	ipx_bwan_flood_count(w->flood, &a);
	ipx_loop_run_for(w->loop, 10 * IPX_SEC);
	ipx_bwan_flood_count(w->flood, &b);
	rate = (double)(b.sent_bytes - a.sent_bytes) * 8 / 10;
	assert_true(rate > 399000 && rate < 401000);
	rate = (double)(b.got_bytes - a.got_bytes) * 8 / 10;
	assert_true(rate > 390000 && rate < 410000);
	ipx_bwan_flood_rate(w->flood, 2000000);
	ipx_loop_run_for(w->loop, 5 * IPX_SEC);	/* the buffers fill */
	ipx_bwan_flood_count(w->flood, &a);
	ipx_loop_run_for(w->loop, 10 * IPX_SEC);
	ipx_bwan_flood_count(w->flood, &b);
	rate = (double)(b.sent_bytes - a.sent_bytes) * 8 / 10;
	assert_true(rate > 1990000 && rate < 2010000);
	rate = (double)(b.got_bytes - a.got_bytes) * 8 / 10;
	assert_true(rate > 950000.0 * 576 / 590 * 0.97 &&
		    rate < 950000.0 * 576 / 590 * 1.01);
	ipx_bwan_flood_rate(w->flood, 0);
	ipx_bwan_flood_count(w->flood, &a);
	ipx_loop_run_for(w->loop, 5 * IPX_SEC);
	ipx_bwan_flood_count(w->flood, &b);
	assert_int_equal(b.sent, a.sent);	/* stopped */
	assert_int_equal(ipx_wan_stats(w->wan, 0)->drops[IPX_WAN_DROP_TX_FULL] >
				 0,
			 1);
	world_free(w);
}

/* Loads of 0, 300, 600, ... kbit/s with a copy of the 5,079-byte file at
 * each: the copies complete while the load is well under the trunk's 950
 * kbit/s and miss their deadline (twice the unloaded copy's time) near
 * or above it, where the copy's frames queue behind the load; the search
 * stops at the first that missed (no step after it ran) and that step's
 * load carried is the trunk's at most. */
static void limit_stops_at_the_first_failing_load(void **state)
{
	struct world *w = world_new();
	struct ipx_bwan_step st[IPX_BWAN_MAX_STEPS];
	struct ipx_bwan_limit_opts lo = { .probes = 1, .file_size = 5079,
					  .copies = 1, .step_bps = 300000,
					  .max_steps = 8, .warmup = 3,
					  .drain = 3 };
	size_t n = 0;
	int found;
	char err[300] = "";

	(void)state;
	lo.run = w->o;
	lo.progress = count_progress;
	lo.ctx = w;
	lo.up = w->flood_up;	/* both ways */
	if (ipx_bwan_limit(w->ctl, w->flood, &lo, st, &n, err, sizeof(err)) !=
	    IPX_OK)
		fail_msg("limit: %s", err);
	found = ipx_bwan_limit_found(st, n);
	assert_true(n >= 2 && n < 8);
	assert_int_equal(w->progress_calls, n);
	assert_int_equal(found, (int)n - 2);	/* the one before */
	assert_false(st[n - 1].ok);
	assert_true(st[n - 1].why[0] != '\0');
	/* the failing load is within a step of the trunk or above, the one
	 * before under it */
	assert_true(st[n - 1].load_bps > 950000 - lo.step_bps);
	assert_true(st[found].load_bps < 950000);
	for (int d = 0; d < IPX_BWAN_DIRS; d++)
		assert_true(st[n - 1].carried_bps[d] < 950000 * 1.01);
	for (int k = 0; k <= found; k++) {
		assert_true(st[k].ok);
		assert_int_equal(st[k].copies, 1);
		assert_int_equal(st[k].load_bps, 300000u * (unsigned)k);
		assert_true(st[k].copy_max_s > 0);
		/* the copy's data rate over its own time, not the set-up's */
		assert_true(st[k].copy_bps > 5079 * 8 / st[k].copy_max_s * 0.9 &&
			    st[k].copy_bps < 5079 * 8 / st[k].copy_max_s * 1.1);
		/* under the trunk rate, carried as offered */
		for (int d = 0; d < IPX_BWAN_DIRS; d++) {
			assert_true(st[k].sent_bps[d] >= st[k].load_bps * 0.99 &&
				    st[k].sent_bps[d] <= st[k].load_bps);
			assert_true(st[k].carried_bps[d] >=
					    st[k].load_bps * 0.95 &&
				    st[k].carried_bps[d] <= st[k].sent_bps[d]);
		}
		if (k)	/* twice step 0's copy */
			assert_true(st[k].deadline > 2 * st[0].copy_max_s -
							     1e-9 &&
				    st[k].deadline < 2 * st[0].copy_max_s +
							     1e-9);
	}
	/* no load left running */
	{
		struct ipx_bwan_flood_count a, b;

		ipx_bwan_flood_count(w->flood, &a);
		ipx_loop_run_for(w->loop, IPX_SEC);
		ipx_bwan_flood_count(w->flood, &b);
		assert_int_equal(a.sent, b.sent);
	}
	/* bad options */
	lo.max_steps = 0;
	assert_int_equal(ipx_bwan_limit(w->ctl, w->flood, &lo, st, &n, err,
					sizeof(err)),
			 IPX_EINVAL);
	world_free(w);
}

/* Search with 'lo' on a fresh world, expecting exactly one step, which
 * fails: returns the search's code, with its message in err. */
static int one_failing_step(struct ipx_bwan_limit_opts *lo, char *err,
			    size_t errlen)
{
	struct world *w = world_new();
	struct ipx_bwan_step st[IPX_BWAN_MAX_STEPS];
	size_t n = 0;
	int rc;

	lo->run = w->o;
	rc = ipx_bwan_limit(w->ctl, w->flood, lo, st, &n, err, errlen);
	assert_int_equal(n, 1);
	assert_false(st[0].ok);
	assert_int_equal(ipx_bwan_limit_found(st, n), -1);
	world_free(w);
	return rc;
}

/* A deadline no copy can meet (a copy is several requests, each waiting
 * the 3 ms hold both ways): step 0 fails, nothing is found. */
static void limit_with_an_impossible_deadline_finds_nothing(void **state)
{
	struct ipx_bwan_limit_opts lo = { .probes = 2, .file_size = 1205,
					  .step_bps = 100000, .max_steps = 4,
					  .deadline = 0.012 };
	char err[300] = "";

	(void)state;
	assert_int_equal(one_failing_step(&lo, err, sizeof(err)), IPX_OK);
}

/* A copy that fails for another reason than time (no such file) is an
 * error of the search, not a limit. */
static void limit_reports_a_failed_copy_as_an_error(void **state)
{
	struct ipx_bwan_limit_opts lo = { .file_size = 1234, .step_bps = 1,
					  .max_steps = 3 };
	char err[300] = "";

	(void)state;
	assert_int_not_equal(one_failing_step(&lo, err, sizeof(err)), IPX_OK);
	assert_non_null(strstr(err, "limit at 0 kbit/s: a copy did not "
				    "complete"));
}

/* With no warm-up (--quick) a step lasts only the copy's tens of ms:
 * carried was once measured from its first arrival and counted one packet
 * too many ("700 727.2 743.6"). Now sent <= offered and carried <= sent,
 * each way, at every step. */
static void carried_never_exceeds_sent_nor_sent_offered(void **state)
{
	struct world *w = world_new();
	struct ipx_bwan_step st[IPX_BWAN_MAX_STEPS];
	struct ipx_bwan_limit_opts lo = { .probes = 1, .file_size = 1205,
					  .copies = 1, .step_bps = 350000,
					  .max_steps = 3 };
	size_t n = 0;
	char err[300] = "";

	(void)state;
	lo.run = w->o;
	lo.up = w->flood_up;
	if (ipx_bwan_limit(w->ctl, w->flood, &lo, st, &n, err, sizeof(err)) !=
	    IPX_OK)
		fail_msg("limit: %s", err);
	assert_true(n >= 2);
	for (size_t k = 1; k < n; k++)
		for (int d = 0; d < IPX_BWAN_DIRS; d++) {
			assert_true(st[k].sent_bps[d] > 0);
			assert_true(st[k].sent_bps[d] <= (double)st[k].load_bps);
			assert_true(st[k].carried_bps[d] <= st[k].sent_bps[d]);
		}
	/* one way only: nothing back */
	lo.up = NULL;
	lo.max_steps = 2;
	if (ipx_bwan_limit(w->ctl, w->flood, &lo, st, &n, err, sizeof(err)) !=
	    IPX_OK)
		fail_msg("limit: %s", err);
	assert_true(st[1].sent_bps[IPX_BWAN_DOWN] > 0);
	assert_true(st[1].sent_bps[IPX_BWAN_UP] == 0);
	world_free(w);
}

int main(void)
{
	ipx_log_set_level(IPX_LOG_ERROR);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(scaling_runs_one_to_n_workstations),
		cmocka_unit_test(flood_is_paced_and_capped_by_the_trunk),
		cmocka_unit_test(carried_never_exceeds_sent_nor_sent_offered),
		cmocka_unit_test(limit_stops_at_the_first_failing_load),
		cmocka_unit_test(limit_with_an_impossible_deadline_finds_nothing),
		cmocka_unit_test(limit_reports_a_failed_copy_as_an_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
