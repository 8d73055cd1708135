/*
 * test_bench_fsnet.c - the file server the file-server benchmarks fork
 * (bench_fsnet.h): on a hub of the harness (a child on loopback), it comes
 * up, answers SAP under its name and an NCP connection, and is gone after
 * ipx_fsrv_stop; a volume that cannot be served is a message, with
 * nothing left running.
 */
#include "cm.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ipxlab/bench_fsnet.h"
#include "ipxlab/bench_harness.h"
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(server_comes_up_answers_and_stops),
		cmocka_unit_test(bad_volume_is_a_message_and_nothing_runs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
