/*
 * fsbench_wire.c - the analyzer's figures per test for the file-server
 * benchmarks (fsbench.h): each run's window (GO to the RESULTs, on the
 * loop clock the hub's capture stamps packets with) and the packets it
 * takes; when the network is down, one pass over the capture to find
 * where the hub saw each RESULT, one for the figures. The capture holds
 * each packet once (the hub's receive side) and its first
 * FSBENCH_SNAPLEN bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fsbench.h"
#include "ipxlab/err.h"

#define CMD "bench"

int fsbench_window(struct fsbench *b, unsigned n, enum fsbench_scope scope,
		   unsigned station, struct ipx_bfs_wire *out)
{
	struct fsbench_window *w;
	struct ipx_addr self;

	memset(out, 0, sizeof(*out));
	if (b->bsim && scope == FSB_WIRE_ALL)
		fsbench_wire_sim(b, out);	/* since fsbench_wire_begin */
	out->seconds = (double)(b->span.results - b->span.go) / IPX_SEC;
	if (!b->pcap[0])
		return IPX_OK;	/* nothing recorded */
	out->source = "hub capture";
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
	w->filter.from_us = (uint64_t)b->span.go;
	w->filter.to_us = (uint64_t)b->span.results + 1;
	w->results = b->span.results;
	ipx_node_address(b->node, &self);
	memcpy(w->ctl, self.node, IPX_NODE_LEN);
	w->nagents = n < IPX_BN_MAX_STATIONS ? n : IPX_BN_MAX_STATIONS;
	for (unsigned i = 0; i < w->nagents; i++)
		memcpy(w->agent[i], ipx_hctl_agent_at(b->ctl, i)->addr.node,
		       IPX_NODE_LEN);
	w->station = scope == FSB_WIRE_STATION ? (int)station : -1;
	if (scope == FSB_WIRE_STATION) {
		w->filter.conversation = true;
		memcpy(w->filter.a, b->ro.server.node, IPX_NODE_LEN);
		memcpy(w->filter.b, w->agent[station], IPX_NODE_LEN);
	} else {	/* the controller's SPX to the agents is not the test's */
		w->filter.nexclude = 1;
		memcpy(w->filter.exclude[0].node, self.node, IPX_NODE_LEN);
	}
	return IPX_OK;
}

/* Window w ends where the hub saw the RESULTs (per agent in r[], the
 * last of them 'end'; 0: none seen, the controller's time stays). */
static void end_window(struct fsbench_window *w, const struct ipx_analyze *r,
		       uint64_t end)
{
	if (w->station >= 0) {
		if (r[w->station].packets)
			w->filter.to_us = r[w->station].last_us;
		return;
	}
	if (end)
		w->filter.to_us = end;	/* the RESULT itself is not in */
	for (unsigned j = 0; j < w->nagents; j++) {
		struct ipx_analyze_exclude *x;

		if (!r[j].packets ||
		    w->filter.nexclude == IPX_ANALYZE_MAX_EXCLUDE)
			continue;
		x = &w->filter.exclude[w->filter.nexclude++];
		memcpy(x->node, w->agent[j], IPX_NODE_LEN);
		x->from_us = r[j].last_us;
	}
}

/* Same run as the window before (one run, several scopes)? */
static bool same_run(const struct fsbench_window *w, size_t i)
{
	return i && w[i].filter.from_us == w[i - 1].filter.from_us &&
	       w[i].results == w[i - 1].results;
}

/*
 * The controller's clock says when the RESULTs reached it, which is a
 * little after the hub passed them on, and a workstation that reported
 * early logs out (destroy connection) while the others still work. So
 * each workstation's part ends at the hub's record of its RESULT (its
 * last packet to the controller): a station's window there, and the
 * whole run's at the last one, leaving out each workstation's packets
 * after its own. One pass over the file with an analyzer per run and
 * agent.
 */
static int trim_ends(struct fsbench *b, char *err, size_t errlen)
{
	struct ipx_analyze *a, **ap;
	size_t n = 0, k = 0;
	int rc;

	for (size_t i = 0; i < b->nwin; i++)
		n += same_run(b->win, i) ? 0 : b->win[i].nagents;
	if (!n)
		return IPX_OK;
	a = calloc(n, sizeof(*a));
	ap = calloc(n, sizeof(*ap));
	if (!a || !ap) {
		free(a);
		free(ap);
		snprintf(err, errlen, "out of memory");
		return IPX_ENOMEM;
	}
	for (size_t i = 0; i < b->nwin; i++) {
		const struct fsbench_window *w = &b->win[i];

		for (unsigned j = 0; !same_run(b->win, i) && j < w->nagents;
		     j++) {
			struct ipx_analyze_filter f = {
				.conversation = true, .one_way = true,
				.from_us = w->filter.from_us,
				.to_us = (uint64_t)w->results + 1,
			};

			memcpy(f.a, w->agent[j], IPX_NODE_LEN);
			memcpy(f.b, w->ctl, IPX_NODE_LEN);
			ipx_analyze_init(&a[k], &f);
			ap[k] = &a[k];
			k++;
		}
	}
	rc = ipx_analyze_file_each(ap, n, b->pcap, err, errlen);
	k = 0;
	for (size_t i = 0; rc == IPX_OK && i < b->nwin; i++) {
		struct fsbench_window *w = &b->win[i];
		uint64_t end = 0;

		if (same_run(b->win, i))
			continue;	/* done with the first of its run */
		for (unsigned j = 0; j < w->nagents; j++)
			if (a[k + j].packets && a[k + j].last_us > end)
				end = a[k + j].last_us;
		/* each scope of this run (the windows after it too) */
		for (size_t i2 = i; i2 < b->nwin && (i2 == i ||
						     same_run(b->win, i2));
		     i2++)
			end_window(&b->win[i2], &a[k], end);
		k += w->nagents;
	}
	for (size_t i = 0; i < n; i++)
		ipx_analyze_free(&a[i]);
	free(a);
	free(ap);
	return rc;
}

int fsbench_wire_collect(struct fsbench *b)
{
	struct ipx_analyze *a, **ap;
	char err[400];
	int rc;

	fsbench_stop_network(b, true);	/* the hub closes its capture */
	if (!b->pcap[0] || !b->nwin)
		return CLI_OK;
	if (trim_ends(b, err, sizeof(err)) != IPX_OK) {
		cli_error(CMD, "%s: the hub's capture: %s", b->cmd, err);
		return CLI_FAIL;
	}
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
		struct ipx_bfs_wire *o = b->win[i].out;

		o->valid = rc == IPX_OK;
		o->packets = a[i].packets;
		o->bytes = a[i].bytes;
		o->peak_kB_per_s = ipx_analyze_peak_rate(&a[i]) / 1000;
		o->mean_kB_per_s = ipx_analyze_mean_rate(&a[i]) / 1000;
		o->short_span = ipx_analyze_short(&a[i]);
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
