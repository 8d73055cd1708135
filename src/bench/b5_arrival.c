/*
 * b5_arrival.c - B5, the 1990 packet arrival times (bench_fs.h): the
 * 25,184-byte file copied by every workstation of a set at once, a number
 * of transfers, --repeat times; the analyzer's gaps between packets per
 * bucket, for all of them and (in real time) each workstation's
 * conversation, and each workstation's copy time.
 */
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bench_fs.h"
#include "ipxlab/err.h"

static size_t slot(const struct ipx_b5_report *rep, size_t s, unsigned k,
		   unsigned j)
{
	return (s * rep->o.repeat + k) * rep->o.transfers + j;
}

static struct ipx_bfs_wire *wire_of(const struct ipx_b5_report *rep,
				    size_t s, unsigned k, unsigned j)
{
	return rep->wire + slot(rep, s, k, j) * IPX_B5_SCOPES;
}

static struct ipx_b5_ws *ws_of(const struct ipx_b5_report *rep, size_t s,
			       unsigned k, unsigned j)
{
	return rep->ws + slot(rep, s, k, j) * IPX_BN_MAX_STATIONS;
}

int ipx_b5_report_init(struct ipx_b5_report *rep, const struct ipx_b5_opts *o)
{
	size_t slots = o->nsets * o->repeat * o->transfers;

	memset(rep, 0, sizeof(*rep));
	rep->o = *o;
	rep->wire = calloc(slots * IPX_B5_SCOPES, sizeof(*rep->wire));
	rep->ws = calloc(slots * IPX_BN_MAX_STATIONS, sizeof(*rep->ws));
	if (!rep->wire || !rep->ws) {
		ipx_b5_report_free(rep);
		return IPX_ENOMEM;
	}
	return IPX_OK;
}

void ipx_b5_report_free(struct ipx_b5_report *rep)
{
	free(rep->wire);
	free(rep->ws);
	rep->wire = NULL;
	rep->ws = NULL;
}

bool ipx_bfs_gap_shares(const uint64_t gaps[IPX_ANALYZE_GAPS],
			double share[IPX_ANALYZE_GAPS])
{
	uint64_t n = 0;

	for (unsigned g = 0; g < IPX_ANALYZE_GAPS; g++)
		n += gaps[g];
	for (unsigned g = 0; g < IPX_ANALYZE_GAPS; g++)
		share[g] = n ? 100.0 * (double)gaps[g] / (double)n : 0;
	return n > 0;
}

unsigned ipx_b5_scopes(const struct ipx_b5_report *rep, size_t s)
{
	return rep->o.net.sim ? 0 : rep->o.sets[s];
}

const char *ipx_b5_scope_name(unsigned scope, char *buf, size_t len)
{
	if (!scope)
		return "all";
	snprintf(buf, len, "ws%u", scope);
	return buf;
}

void ipx_b5_tally(const struct ipx_b5_report *rep, size_t s, unsigned k,
		  unsigned scope, struct ipx_b5_tally *out)
{
	double sum = 0;
	unsigned n = 0;

	memset(out, 0, sizeof(*out));
	for (unsigned j = 0; j < rep->o.transfers; j++) {
		const struct ipx_bfs_wire *w = &wire_of(rep, s, k, j)[scope];
		const struct ipx_b5_ws *c = ws_of(rep, s, k, j);

		out->packets += w->packets;
		out->bytes += w->bytes;
		for (unsigned g = 0; g < IPX_ANALYZE_GAPS; g++)
			out->gaps[g] += w->gaps[g];
		for (unsigned i = 0; i < rep->o.sets[s]; i++) {
			if (scope && i + 1 != scope)
				continue;
			sum += c[i].secs;
			out->link += c[i].link;
			out->resent += c[i].resent;
			n++;
		}
	}
	for (unsigned g = 0; g < IPX_ANALYZE_GAPS; g++)
		out->ngaps += out->gaps[g];
	ipx_bfs_gap_shares(out->gaps, out->share);
	out->ms = n ? sum / n * 1000 : 0;
}

void ipx_b5_spread(const struct ipx_b5_report *rep, size_t s, unsigned scope,
		   struct ipx_b5_spread *out)
{
	double v[IPX_ANALYZE_GAPS][IPX_BFS_MAX_REPEAT], ms[IPX_BFS_MAX_REPEAT];
	unsigned n = rep->o.repeat;

	memset(out, 0, sizeof(*out));
	for (unsigned k = 0; k < n; k++) {
		struct ipx_b5_tally y;

		ipx_b5_tally(rep, s, k, scope, &y);
		for (unsigned g = 0; g < IPX_ANALYZE_GAPS; g++)
			v[g][k] = y.share[g];
		ms[k] = y.ms;
		out->packets += y.packets;
		out->ngaps += y.ngaps;
	}
	for (unsigned g = 0; g < IPX_ANALYZE_GAPS; g++)
		ipx_stat_summarize(v[g], n, &out->share[g]);
	ipx_stat_summarize(ms, n, &out->ms);
}

/* ---- the run ---- */

static int transfer(const struct ipx_b5_opts *o, struct ipx_b5_report *rep,
		    size_t s, unsigned k, unsigned j, uint16_t label,
		    char *err, size_t errlen)
{
	struct ipx_bw_result r[IPX_BN_MAX_STATIONS];
	struct ipx_bfs_wire *w = wire_of(rep, s, k, j);
	struct ipx_b5_ws *c = ws_of(rep, s, k, j);
	const struct ipx_bfs_wire_ops *wo = o->net.wire;
	unsigned n = o->sets[s];
	int rc;

	if (wo && wo->begin)
		wo->begin(wo->ctx);
	rc = ipx_bn_run(o->net.ctl, o->net.ro, IPX_BN_COPY, n, 0, 1,
			IPX_B5_FILE_BYTES, label, r, err, errlen);
	for (unsigned i = 0; rc == IPX_OK && i < n; i++) {
		c[i].secs = r[i].seconds;
		c[i].link = r[i].bytes;
		c[i].resent = r[i].retransmits;
	}
	for (unsigned sc = 0;
	     rc == IPX_OK && wo && wo->window && sc <= ipx_b5_scopes(rep, s);
	     sc++)
		rc = wo->window(wo->ctx, n,
				sc ? IPX_BFS_WIRE_STATION : IPX_BFS_WIRE_ALL,
				sc ? sc - 1 : 0, &w[sc]);
	return rc;
}

int ipx_b5_run(const struct ipx_b5_opts *o, ipx_bench_progress_fn progress,
	       void *ctx, struct ipx_b5_report *rep, char *err, size_t errlen)
{
	char line[160];
	unsigned label = 0;
	int rc = IPX_OK;

	rep->o.net = o->net;
	for (size_t s = 0; rc == IPX_OK && s < o->nsets; s++) {
		for (unsigned k = 0; rc == IPX_OK && k < o->repeat; k++)
			for (unsigned j = 0; rc == IPX_OK && j < o->transfers;
			     j++) {
				if (progress) {
					snprintf(line, sizeof(line),
						 "arrival: %u workstation%s, "
						 "run %u/%u, transfer %u/%u",
						 o->sets[s],
						 o->sets[s] == 1 ? "" : "s",
						 k + 1, o->repeat, j + 1,
						 o->transfers);
					progress(ctx, line);
				}
				rc = transfer(o, rep, s, k, j,
					      (uint16_t)++label, err, errlen);
			}
		if (rc == IPX_OK)
			rep->sets_done = s + 1;
	}
	if (progress)
		progress(ctx, NULL);
	return rc;
}

void ipx_b5_interrupted(struct ipx_b5_report *rep)
{
	rep->o.nsets = rep->sets_done;
	rep->interrupted = true;
}

/* ---- the writers ---- */

/* {"0-4":v,...} of the buckets, each in fmt (u64 when fmt is NULL). */
static void buckets_json(struct ipx_jw *w, const char *key,
			 const uint64_t *n, const double *v, const char *fmt)
{
	ipx_jw_obj(w, key);
	for (unsigned g = 0; g < IPX_ANALYZE_GAPS; g++) {
		if (n)
			ipx_jw_u64(w, ipx_analyze_gap_name(g), n[g]);
		else
			ipx_jw_dbl(w, ipx_analyze_gap_name(g), fmt, v[g]);
	}
	ipx_jw_end(w);
}

static void counts_json(struct ipx_jw *w, const char *key,
			const struct ipx_b5_tally *y)
{
	ipx_jw_obj(w, key);
	ipx_jw_u64(w, "packets", y->packets);
	ipx_jw_u64(w, "bytes", y->bytes);
	ipx_jw_u64(w, "link_bytes", y->link);
	ipx_jw_u64(w, "retransmits", y->resent);
	ipx_jw_u64(w, "gaps", y->ngaps);
	buckets_json(w, "gaps_ms", y->gaps, NULL, NULL);
	buckets_json(w, "share_percent", NULL, y->share, "%.3f");
	ipx_jw_dbl(w, "copy_ms_mean", "%.4f", y->ms);
	ipx_jw_end(w);
}

static void run_json(struct ipx_jw *w, const struct ipx_b5_report *rep,
		     size_t s, unsigned k)
{
	char nm[16];

	ipx_jw_obj(w, NULL);
	for (unsigned sc = 0; sc <= ipx_b5_scopes(rep, s); sc++) {
		struct ipx_b5_tally y;

		ipx_b5_tally(rep, s, k, sc, &y);
		counts_json(w, ipx_b5_scope_name(sc, nm, sizeof(nm)), &y);
	}
	ipx_jw_arr(w, "copy_seconds");
	for (unsigned j = 0; j < rep->o.transfers; j++) {
		const struct ipx_b5_ws *c = ws_of(rep, s, k, j);

		ipx_jw_arr(w, NULL);
		for (unsigned i = 0; i < rep->o.sets[s]; i++)
			ipx_jw_dbl(w, NULL, "%.6f", c[i].secs);
		ipx_jw_end(w);
	}
	ipx_jw_end(w);
	ipx_jw_end(w);
}

static void summary_json(struct ipx_jw *w, const struct ipx_b5_report *rep,
			 size_t s)
{
	char nm[16];

	ipx_jw_obj(w, "summary");
	for (unsigned sc = 0; sc <= ipx_b5_scopes(rep, s); sc++) {
		struct ipx_b5_spread y;

		ipx_b5_spread(rep, s, sc, &y);
		ipx_jw_obj(w, ipx_b5_scope_name(sc, nm, sizeof(nm)));
		ipx_jw_obj(w, "share_percent");
		for (unsigned g = 0; g < IPX_ANALYZE_GAPS; g++)
			ipx_jw_summary(w, ipx_analyze_gap_name(g), "%.3f",
				       &y.share[g]);
		ipx_jw_end(w);
		ipx_jw_end(w);
	}
	ipx_jw_end(w);
}

void ipx_b5_write_json(FILE *out, const struct ipx_b5_report *rep,
		       ipx_bfs_conditions_fn cond, const void *ctx)
{
	const struct ipx_b5_opts *o = &rep->o;
	struct ipx_jw w;

	ipx_jw_init(&w, out);
	ipx_jw_obj(&w, NULL);
	ipx_jw_str(&w, "benchmark", "arrival");
	ipx_jw_obj(&w, "conditions");
	if (cond)
		cond(&w, ctx);
	ipx_jw_u64(&w, "bytes", IPX_B5_FILE_BYTES);
	ipx_jw_u64(&w, "transfers", o->transfers);
	ipx_jw_u64(&w, "repeat", o->repeat);
	ipx_jw_end(&w);
	ipx_jw_arr(&w, "sets");
	for (size_t s = 0; s < o->nsets; s++) {
		ipx_jw_obj(&w, NULL);
		ipx_jw_u64(&w, "workstations", o->sets[s]);
		ipx_jw_arr(&w, "runs");
		for (unsigned k = 0; k < o->repeat; k++)
			run_json(&w, rep, s, k);
		ipx_jw_end(&w);
		summary_json(&w, rep, s);
		ipx_jw_end(&w);
	}
	ipx_jw_end(&w);
	ipx_jw_null(&w, "published");
	if (rep->interrupted)
		ipx_jw_bool(&w, "complete", false);
	ipx_jw_finish(&w);
}

/* A scope in one repeat, as a CSV line. */
struct csv_row {
	unsigned workstations, repeat;
	const char *who;
	uint64_t packets, gaps;
	double share[IPX_ANALYZE_GAPS];
	double ms;
};

_Static_assert(IPX_ANALYZE_GAPS == 7, "the CSV's share columns");

#define SHARE(G, NAME)                                                     \
	IPX_RF(struct csv_row, share[G], NAME, "%", "%.3f", IPX_RF_DOUBLE, \
	       IPX_RF_CSV)

static const struct ipx_rfield csv_fields[] = {
	IPX_RF(struct csv_row, workstations, "workstations", "", NULL,
	       IPX_RF_UINT, IPX_RF_CSV),
	IPX_RF(struct csv_row, repeat, "repeat", "", NULL, IPX_RF_UINT,
	       IPX_RF_CSV),
	IPX_RF(struct csv_row, who, "who", "", NULL, IPX_RF_STR, IPX_RF_CSV),
	IPX_RF(struct csv_row, packets, "packets", "", NULL, IPX_RF_U64,
	       IPX_RF_CSV),
	IPX_RF(struct csv_row, gaps, "gaps", "", NULL, IPX_RF_U64, IPX_RF_CSV),
	SHARE(0, "share_0-4"),
	SHARE(1, "share_5-9"),
	SHARE(2, "share_10-14"),
	SHARE(3, "share_15-19"),
	SHARE(4, "share_20-24"),
	SHARE(5, "share_25-29"),
	SHARE(6, "share_>=30"),
	IPX_RF(struct csv_row, ms, "copy_ms_mean", "ms", "%.4f",
	       IPX_RF_DOUBLE, IPX_RF_CSV),
};
static const struct ipx_rtable csv_table = IPX_RTABLE("scope", csv_fields);

void ipx_b5_write_csv(FILE *out, const struct ipx_b5_report *rep)
{
	const struct ipx_b5_opts *o = &rep->o;
	char nm[16];

	ipx_res_csv_header(out, &csv_table);
	for (size_t s = 0; s < o->nsets; s++)
		for (unsigned k = 0; k < o->repeat; k++)
			for (unsigned sc = 0; sc <= ipx_b5_scopes(rep, s);
			     sc++) {
				struct ipx_b5_tally y;
				struct csv_row r = { o->sets[s], k + 1,
						     ipx_b5_scope_name(
							     sc, nm, sizeof(nm)),
						     0, 0, { 0 }, 0 };

				ipx_b5_tally(rep, s, k, sc, &y);
				r.packets = y.packets;
				r.gaps = y.ngaps;
				memcpy(r.share, y.share, sizeof(r.share));
				r.ms = y.ms;
				ipx_res_csv_row(out, &csv_table, &r);
			}
}
