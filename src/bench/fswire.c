/*
 * fswire.c - the analyzer's figures per run of a file-server benchmark
 * in real time (bench_fs.h): each run's window (GO to the RESULTs, on the
 * loop clock the hub's capture stamps packets with) and the packets it
 * takes; when the network is down, one pass over the capture to find
 * where the hub saw each RESULT, one for the figures. The capture holds
 * each packet once (the hub's receive side) and its first bytes.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ipxlab/bench_fs.h"
#include "ipxlab/err.h"

/* A window of the capture: the packets of one run's span that the filter
 * takes, and where its figures go; the run's agents and the controller,
 * to end it where the hub saw the RESULTs. */
struct ipx_bfs_window {
	struct ipx_analyze_filter filter;
	struct ipx_bfs_wire *out;
	ipx_time results;	/* the run's span.results */
	int station;		/* IPX_BFS_WIRE_STATION's agent, else -1 */
	uint8_t ctl[IPX_NODE_LEN];
	uint8_t agent[IPX_BN_MAX_STATIONS][IPX_NODE_LEN];
	unsigned nagents;
};

void ipx_bfs_wire_from(const struct ipx_analyze *a, const char *source,
		       struct ipx_bfs_wire *out)
{
	out->valid = true;
	out->source = source;
	out->peak_kB_per_s = ipx_analyze_peak_rate(a) / 1000;
	out->mean_kB_per_s = ipx_analyze_mean_rate(a) / 1000;
	out->short_span = ipx_analyze_short(a);
	out->packets = a->packets;
	out->bytes = a->bytes;
	memcpy(out->gaps, a->gaps, sizeof(out->gaps));
}

int ipx_bfs_capture_window(struct ipx_bfs_capture *b,
			   const struct ipx_addr *ctl,
			   const struct ipx_hctl *hctl,
			   const struct ipx_addr *server, unsigned n,
			   enum ipx_bfs_scope scope, unsigned station,
			   struct ipx_bfs_wire *out)
{
	struct ipx_bfs_window *w;

	out->source = "hub capture";
	if (b->nwin == b->capwin) {
		size_t cap = b->capwin ? b->capwin * 2 : 64;
		struct ipx_bfs_window *p = realloc(b->win, cap * sizeof(*p));

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
	memcpy(w->ctl, ctl->node, IPX_NODE_LEN);
	w->nagents = n < IPX_BN_MAX_STATIONS ? n : IPX_BN_MAX_STATIONS;
	for (unsigned i = 0; i < w->nagents; i++)
		memcpy(w->agent[i], ipx_hctl_agent_at(hctl, i)->addr.node,
		       IPX_NODE_LEN);
	w->station = scope == IPX_BFS_WIRE_STATION ? (int)station : -1;
	if (scope == IPX_BFS_WIRE_STATION) {
		w->filter.conversation = true;
		memcpy(w->filter.a, server->node, IPX_NODE_LEN);
		memcpy(w->filter.b, w->agent[station], IPX_NODE_LEN);
	} else {	/* the controller's SPX to the agents is not the test's */
		w->filter.nexclude = 1;
		memcpy(w->filter.exclude[0].node, ctl->node, IPX_NODE_LEN);
	}
	return IPX_OK;
}

/* Window w ends where the hub saw the RESULTs (per agent in r[], the
 * last of them 'end'; 0: none seen, the controller's time stays). */
static void end_window(struct ipx_bfs_window *w, const struct ipx_analyze *r,
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
static bool same_run(const struct ipx_bfs_window *w, size_t i)
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
static int trim_ends(struct ipx_bfs_capture *b, char *err, size_t errlen)
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
		const struct ipx_bfs_window *w = &b->win[i];

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
		struct ipx_bfs_window *w = &b->win[i];
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

int ipx_bfs_capture_collect(struct ipx_bfs_capture *b, char *err,
			    size_t errlen)
{
	struct ipx_analyze *a, **ap;
	int rc;

	if (!b->pcap[0] || !b->nwin)
		return IPX_OK;
	if ((rc = trim_ends(b, err, errlen)) != IPX_OK)
		return rc;
	a = calloc(b->nwin, sizeof(*a));
	ap = calloc(b->nwin, sizeof(*ap));
	if (!a || !ap) {
		free(a);
		free(ap);
		snprintf(err, errlen, "out of memory");
		return IPX_ENOMEM;
	}
	for (size_t i = 0; i < b->nwin; i++) {
		ipx_analyze_init(&a[i], &b->win[i].filter);
		ap[i] = &a[i];
	}
	rc = ipx_analyze_file_each(ap, b->nwin, b->pcap, err, errlen);
	for (size_t i = 0; i < b->nwin; i++) {
		struct ipx_bfs_wire *o = b->win[i].out;

		ipx_bfs_wire_from(&a[i], o->source, o);
		o->valid = rc == IPX_OK;
		ipx_analyze_free(&a[i]);
	}
	free(a);
	free(ap);
	return rc;
}

void ipx_bfs_capture_free(struct ipx_bfs_capture *b)
{
	if (b->pcap[0])
		unlink(b->pcap);
	b->pcap[0] = '\0';
	free(b->win);
	b->win = NULL;
	b->nwin = b->capwin = 0;
}
