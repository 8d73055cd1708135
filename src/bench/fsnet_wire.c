/*
 * fsnet_wire.c - the analyzer's figures per run on the file-server
 * benchmarks' network (bench_fsnet.h): with sim from the simulated
 * network's own analyzer, in real time from the capture of the hub
 * started here (bench_fs.h's ipx_bfs_capture: the windows and their
 * analysis, fswire.c); the network as a bench_fs.h entry point sees it.
 */
#include <string.h>

#include "ipxlab/bench_fsnet.h"
#include "ipxlab/err.h"
#include "ipxlab/node.h"

/* Before a run: with sim the simulated analyzer starts afresh (the
 * window takes what it saw since); nothing in real time, where the
 * capture is windowed afterwards. */
static void wire_begin(void *ctx)
{
	struct ipx_fsnet *n = ctx;

	if (n->bsim)
		ipx_bsim_reset(n->bsim);
}

static int wire_window(void *ctx, unsigned agents, enum ipx_bfs_scope scope,
		       unsigned station, struct ipx_bfs_wire *out)
{
	struct ipx_fsnet *n = ctx;
	struct ipx_addr self;

	memset(out, 0, sizeof(*out));
	if (n->bsim && scope == IPX_BFS_WIRE_ALL)	/* since wire_begin */
		ipx_bfs_wire_from(ipx_bsim_analyze(n->bsim, IPX_BSIM_STATIONS),
				  "simulated analyzer", out);
	out->seconds = (double)(n->cap.span.results - n->cap.span.go) /
		       IPX_SEC;
	if (!n->cap.pcap[0])
		return IPX_OK;	/* nothing recorded */
	ipx_node_address(n->node, &self);
	return ipx_bfs_capture_window(&n->cap, &self, n->ctl, &n->ro.server,
				      agents, scope, station, out);
}

void ipx_fsnet_bfs(struct ipx_fsnet *n, struct ipx_bfs_net *out)
{
	n->wire_ops.begin = wire_begin;
	n->wire_ops.window = wire_window;
	n->wire_ops.ctx = n;
	out->ctl = n->ctl;
	out->ro = &n->ro;
	out->wire = &n->wire_ops;
	out->sim = n->o.sim;
}

int ipx_fsnet_collect(struct ipx_fsnet *n, char *err, size_t errlen)
{
	char why[400];
	int rc;

	ipx_fsnet_stop_network(n, true);	/* the hub closes its capture */
	rc = ipx_bfs_capture_collect(&n->cap, why, sizeof(why));
	if (rc != IPX_OK)
		snprintf(err, errlen, "%s: the hub's capture: %s", n->o.name,
			 why);
	return rc;
}
