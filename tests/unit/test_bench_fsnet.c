/*
 * test_bench_fsnet.c - the file server the file-server benchmarks fork
 * (bench_fsnet.h): on a hub of the harness (a child on loopback), it comes
 * up, answers SAP under its name and an NCP connection, and is gone after
 * ipx_fsrv_stop; a volume that cannot be served is a message, with
 * nothing left running. And the whole network (ipx_fsnet_start): with
 * sim in this process, a test on it windowed by the simulated analyzer;
 * in real time hub, agent and forked server on a scratch volume, all gone
 * after the stop; a hub that does not answer is a message naming the
 * benchmark.
 */
#include "cm.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ipxlab/bench_fsnet.h"
#include "ipxlab/bench_harness.h"
#include "ipxlab/link_profile.h"
#include "ipxlab/err.h"
#include "ipxlab/ncp.h"
#include "ipxlab/ncp_client.h"
#include "ipxlab/node.h"
#include "ipxlab/sap.h"

static void server_comes_up_answers_and_stops(void **state)
{
	struct ipx_hnet_opts o = { .wait = 5 * IPX_SEC };
	struct ipx_hnet *net = NULL;
	struct sockaddr_in hub;
	struct ipx_loop *loop;
	struct ipx_node *node;
	struct ipx_sap *sap = NULL;
	struct ncp_client *cl = NULL;
	struct ipx_addr addr;
	char dir[] = "/tmp/ipxlab-fsnet.XXXXXX", err[512], name[48];
	pid_t pid = -1;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(ipx_hnet_start(&o, &net, err, sizeof(err)), IPX_OK);
	ipx_hnet_hub(net, &hub);
	snprintf(name, sizeof(name), "FSNET-%d", (int)getpid());
	assert_int_equal(ipx_fsrv_fork(&hub, name, dir, 5 * IPX_SEC, &pid, err,
				       sizeof(err)),
			 IPX_OK);
	assert_true(pid > 0);
	assert_int_equal(ipx_hnet_join(&hub, NULL, 5 * IPX_SEC, &loop, &node,
				       err, sizeof(err)),
			 IPX_OK);
	assert_int_equal(ipx_sap_new(node, NULL, &sap), IPX_OK);
	assert_int_equal(ncp_client_new(node, NULL, &cl), IPX_OK);
	assert_int_equal(ncp_find_server(cl, sap, name, 3 * IPX_SEC, &addr,
					 NULL),
			 0);
	assert_int_equal(ncp_connect(cl, &addr), 0);
	ncp_client_free(cl);
	ipx_sap_free(sap);
	ipx_fsrv_stop(&pid);
	assert_int_equal(pid, 0);
	ipx_node_free(node);
	ipx_loop_free(loop);
	ipx_hnet_stop(net, IPX_SEC);
	rmdir(dir);
}

static void bad_volume_is_a_message_and_nothing_runs(void **state)
{
	struct ipx_hnet_opts o = { .wait = 5 * IPX_SEC };
	struct ipx_hnet *net = NULL;
	struct sockaddr_in hub;
	char err[512] = "";
	pid_t pid = -1;

	(void)state;
	assert_int_equal(ipx_hnet_start(&o, &net, err, sizeof(err)), IPX_OK);
	ipx_hnet_hub(net, &hub);
	assert_int_not_equal(ipx_fsrv_fork(&hub, "FSNET-BAD",
					   "/nonexistent/ipxlab-fsnet",
					   5 * IPX_SEC, &pid, err,
					   sizeof(err)),
			     IPX_OK);
	assert_int_equal(pid, 0);
	assert_non_null(strstr(err, "file server"));
	ipx_hnet_stop(net, IPX_SEC);
}

/* A test of op on the first n workstations of the network, 0.2 s, with
 * the wire's window of scope into *w. */
static void run_windowed(struct ipx_fsnet *n, unsigned agents,
			 enum ipx_bfs_scope scope, struct ipx_bfs_wire *w)
{
	struct ipx_bw_result res[IPX_BN_MAX_STATIONS];
	struct ipx_bfs_net net;
	char err[400] = "";

	ipx_fsnet_bfs(n, &net);
	assert_ptr_equal(net.ctl, n->ctl);
	net.wire->begin(net.wire->ctx);
	if (ipx_bn_run(net.ctl, net.ro, IPX_BN_OPEN_SINGLE, agents, 0.2, 0, 0,
		       1, res, err, sizeof(err)) != IPX_OK)
		fail_msg("run: %s", err);
	assert_true(res[agents - 1].sent > 0);
	assert_int_equal(net.wire->window(net.wire->ctx, agents, scope, 0, w),
			 IPX_OK);
}

static void sim_network_runs_and_windows_a_test(void **state)
{
	struct ipx_fsnet n;
	struct ipx_bfs_wire all, one;
	char err[768] = "";

	(void)state;
	memset(&n, 0, sizeof(n));
	n.o.name = "battery";
	n.o.agents = 3;
	n.o.sim = true;
	n.o.seed = 1;
	n.o.have_profile = true;
	assert_int_equal(ipx_profile_named("eth10", &n.o.profile), IPX_OK);
	if (ipx_fsnet_start(&n, err, sizeof(err)) != IPX_OK)
		fail_msg("start: %s", err);
	assert_string_equal(n.hubtext, "in-process");
	assert_string_equal(n.srvname, "BATTERY-SIM");
	assert_int_equal(n.nseen, 3);
	assert_string_not_equal(n.seen[0].name, n.seen[2].name);
	run_windowed(&n, 2, IPX_BFS_WIRE_ALL, &all);
	assert_true(all.valid);
	assert_string_equal(all.source, "simulated analyzer");
	assert_true(all.packets > 0 && all.bytes > all.packets * 60);
	assert_true(all.seconds >= 0.2 && all.seconds < 0.3);
	/* a workstation's own window needs a capture: none in simulation */
	run_windowed(&n, 1, IPX_BFS_WIRE_STATION, &one);
	assert_false(one.valid);
	assert_true(ipx_fsnet_sim_seconds(&n) > 0.4);
	assert_false(ipx_fsnet_interrupted(&n, IPX_OK));
	ipx_fsnet_stop_network(&n, true);
	assert_null(n.bsim);
	/* the simulated time is kept for the conditions printed after */
	assert_true(ipx_fsnet_sim_seconds(&n) > 0.4);
	ipx_fsnet_stop(&n, true);
}

static void real_network_starts_its_server_and_stops(void **state)
{
	struct ipx_fsnet n;
	struct ipx_bfs_wire w;
	struct stat st;
	char err[768] = "", dir[64];

	(void)state;
	memset(&n, 0, sizeof(n));
	n.o.name = "copy";
	n.o.agents = 1;
	n.o.wait = 5;
	n.o.capture = true;
	if (ipx_fsnet_start(&n, err, sizeof(err)) != IPX_OK)
		fail_msg("start: %s", err);
	assert_int_equal(strncmp(n.srvname, "BATTERY-", 8), 0);
	assert_int_equal(strncmp(n.hubtext, "127.0.0.1:", 10), 0);
	assert_true(n.srv > 0);
	assert_int_equal(n.nseen, 1);
	assert_string_equal(n.seen[0].name, "ws1");
	assert_true(n.seen[0].pid > 0);
	assert_true(n.ro.server.socket == 0x451);
	assert_int_equal(stat(n.dir, &st), 0);	/* the scratch volume */
	assert_true(n.cap.pcap[0] != '\0');
	run_windowed(&n, 1, IPX_BFS_WIRE_ALL, &w);
	snprintf(dir, sizeof(dir), "%s", n.dir);
	/* the capture's figures after the network stops */
	if (ipx_fsnet_collect(&n, err, sizeof(err)) != IPX_OK)
		fail_msg("collect: %s", err);
	assert_null(n.ctl);
	assert_int_equal(n.srv, 0);	/* the server stopped */
	assert_true(w.valid);
	assert_string_equal(w.source, "hub capture");
	assert_true(w.packets > 0);
	ipx_fsnet_stop(&n, true);
	assert_int_not_equal(stat(dir, &st), 0);	/* removed */
	assert_int_equal(n.dir[0], '\0');
}

static void silent_hub_is_a_message_naming_the_benchmark(void **state)
{
	struct ipx_fsnet n;
	char err[768] = "";

	(void)state;
	memset(&n, 0, sizeof(n));
	n.o.name = "perftest";
	n.o.agents = 1;
	n.o.wait = 0.3;
	n.o.hub = "127.0.0.1:1";
	assert_int_not_equal(ipx_fsnet_start(&n, err, sizeof(err)), IPX_OK);
	assert_int_equal(strncmp(err, "perftest: ", 10), 0);
	assert_int_equal(n.srv, 0);	/* no server was started */
	ipx_fsnet_stop(&n, false);
	assert_null(n.net);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(server_comes_up_answers_and_stops),
		cmocka_unit_test(bad_volume_is_a_message_and_nothing_runs),
		cmocka_unit_test(sim_network_runs_and_windows_a_test),
		cmocka_unit_test(real_network_starts_its_server_and_stops),
		cmocka_unit_test(silent_hub_is_a_message_naming_the_benchmark),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
