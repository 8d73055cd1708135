/*
 * fsbench_wire.c - the analyzer's figures per test for the file-server
 * benchmarks (fsbench.h): with --sim from the simulated network's own
 * analyzer, in real time from the capture of the hub started here
 * (bench_fs.h's ipx_bfs_capture: the windows and their analysis), and
 * the network's hooks for the bench_fs.h entry points (fsbench_net).
 */
#include <string.h>

#include "cli.h"
#include "fsbench.h"
#include "ipxlab/err.h"

#define CMD "bench"

void fsbench_wire_begin(struct fsbench *b)
{
	if (b->bsim)
		ipx_bsim_reset(b->bsim);
}

void fsbench_wire_sim(struct fsbench *b, struct ipx_bfs_wire *out)
{
	ipx_bfs_wire_from(ipx_bsim_analyze(b->bsim, IPX_BSIM_STATIONS),
			  "simulated analyzer", out);
}

static void wire_begin(void *ctx)
{
	fsbench_wire_begin(ctx);
}

static int wire_window(void *ctx, unsigned n, enum ipx_bfs_scope scope,
		       unsigned station, struct ipx_bfs_wire *out)
{
	return fsbench_window(ctx, n, (enum fsbench_scope)scope, station, out);
}

void fsbench_net(struct fsbench *b, struct ipx_bfs_net *out)
{
	b->wire_ops.begin = wire_begin;
	b->wire_ops.window = wire_window;
	b->wire_ops.ctx = b;
	out->ctl = b->ctl;
	out->ro = &b->ro;
	out->wire = &b->wire_ops;
	out->sim = b->sim;
}


int fsbench_window(struct fsbench *b, unsigned n, enum fsbench_scope scope,
		   unsigned station, struct ipx_bfs_wire *out)
{
	struct ipx_addr self;

	memset(out, 0, sizeof(*out));
	if (b->bsim && scope == FSB_WIRE_ALL)
		fsbench_wire_sim(b, out);	/* since fsbench_wire_begin */
	out->seconds = (double)(b->cap.span.results - b->cap.span.go) /
		       IPX_SEC;
	if (!b->cap.pcap[0])
		return IPX_OK;	/* nothing recorded */
	ipx_node_address(b->node, &self);
	return ipx_bfs_capture_window(&b->cap, &self, b->ctl, &b->ro.server, n,
				      (enum ipx_bfs_scope)scope, station, out);
}

int fsbench_wire_collect(struct fsbench *b)
{
	char err[400];

	fsbench_stop_network(b, true);	/* the hub closes its capture */
	if (ipx_bfs_capture_collect(&b->cap, err, sizeof(err)) != IPX_OK) {
		cli_error(CMD, "%s: the hub's capture: %s", b->cmd, err);
		return CLI_FAIL;
	}
	return CLI_OK;
}
