/*
 * fsbench_wire.c - the analyzer's figures per test for the file-server
 * benchmarks (fsbench.h): each run's window (GO to the last RESULT, on
 * the wall clock the hub's capture stamps packets with) and the packets
 * it takes, then one pass over the capture when the network is down.
 * The capture holds each packet once (the hub's receive side) and its
 * first FSBENCH_SNAPLEN bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fsbench.h"
#include "ipxlab/err.h"

#define CMD "bench"

int fsbench_window(struct fsbench *b, enum fsbench_scope scope,
		   unsigned station, struct fsbench_wire *out)
{
	struct fsbench_window *w;
	struct ipx_addr self;

	memset(out, 0, sizeof(*out));
	out->seconds = (double)(b->span.results - b->span.go) / IPX_SEC;
	if (!b->pcap[0])
		return IPX_OK;	/* nothing recorded */
	if (b->nwin == b->capwin) {
		size_t cap = b->capwin ? b->capwin * 2 : 64;
		struct fsbench_window *p = realloc(b->win, cap * sizeof(*p));

		if (!p)
			return IPX_ENOMEM;
		b->win = p;
		b->capwin = cap;
	}
	w = &b->win[b->nwin++];
	memset(w, 0, sizeof(*w));
	w->out = out;
	w->filter.from_us = (uint64_t)(b->span.go + b->wall_offset);
	w->filter.to_us = (uint64_t)(b->span.results + b->wall_offset) + 1;
	if (scope == FSB_WIRE_STATION) {
		const struct ipx_hctl_agent *g = ipx_hctl_agent_at(b->ctl,
								    station);

		w->filter.conversation = true;
		memcpy(w->filter.a, b->ro.server.node, IPX_NODE_LEN);
		memcpy(w->filter.b, g->addr.node, IPX_NODE_LEN);
	} else {	/* the controller's SPX to the agents is not the test's */
		ipx_node_address(b->node, &self);
		w->filter.exclude = true;
		memcpy(w->filter.x, self.node, IPX_NODE_LEN);
	}
	return IPX_OK;
}

int fsbench_wire_collect(struct fsbench *b)
{
	struct ipx_analyze *a, **ap;
	char err[400];
	int rc;

	fsbench_stop_network(b, true);	/* the hub closes its capture */
	if (!b->pcap[0] || !b->nwin)
		return CLI_OK;
	a = calloc(b->nwin, sizeof(*a));
	ap = calloc(b->nwin, sizeof(*ap));
	if (!a || !ap) {
		free(a);
		free(ap);
		cli_error(CMD, "out of memory");
		return CLI_FAIL;
	}
	for (size_t i = 0; i < b->nwin; i++) {
		ipx_analyze_init(&a[i], &b->win[i].filter);
		ap[i] = &a[i];
	}
	rc = ipx_analyze_file_each(ap, b->nwin, b->pcap, err, sizeof(err));
	for (size_t i = 0; i < b->nwin; i++) {
		struct fsbench_wire *o = b->win[i].out;

		o->valid = rc == IPX_OK;
		o->packets = a[i].packets;
		o->bytes = a[i].bytes;
		o->peak_kbs = ipx_analyze_peak_kbps(&a[i]);
		o->mean_kbs = ipx_analyze_mean_rate(&a[i]) / 1024.0;
		memcpy(o->gaps, a[i].gaps, sizeof(o->gaps));
		ipx_analyze_free(&a[i]);
	}
	free(a);
	free(ap);
	if (rc != IPX_OK) {
		cli_error(CMD, "%s: the hub's capture: %s", b->cmd, err);
		return CLI_FAIL;
	}
	return CLI_OK;
}

bool fsbench_gap_shares(const uint64_t gaps[IPX_ANALYZE_GAPS],
			double share[IPX_ANALYZE_GAPS])
{
	uint64_t n = 0;

	for (unsigned g = 0; g < IPX_ANALYZE_GAPS; g++)
		n += gaps[g];
	for (unsigned g = 0; g < IPX_ANALYZE_GAPS; g++)
		share[g] = n ? 100.0 * (double)gaps[g] / (double)n : 0;
	return n > 0;
}
