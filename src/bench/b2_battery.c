/*
 * b2_battery.c - B2, the 1990 Network Test Battery (bench_fs.h): ws1's
 * round trip to the server, then the eleven file-server operations for
 * their time with each set of workstations, --repeat times, each run's
 * figures per workstation and the analyzer's window of the wire; the
 * round trip again just before each single-request test with one
 * workstation, for its bound.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bench_fs.h"
#include "ipxlab/err.h"

static size_t index_of(const struct ipx_b2_report *rep, size_t set, int op,
		       unsigned k)
{
	return (set * IPX_BN_BATTERY_OPS + (size_t)op) * rep->o.repeat + k;
}

int ipx_b2_report_init(struct ipx_b2_report *rep, const struct ipx_b2_opts *o)
{
	size_t runs = o->nsets * IPX_BN_BATTERY_OPS * o->repeat;

	memset(rep, 0, sizeof(*rep));
	rep->o = *o;
	rep->res = calloc(runs * IPX_BN_MAX_STATIONS, sizeof(*rep->res));
	rep->wire = calloc(runs, sizeof(*rep->wire));
	if (!rep->res || !rep->wire) {
		ipx_b2_report_free(rep);
		return IPX_ENOMEM;
	}
	return IPX_OK;
}

void ipx_b2_report_free(struct ipx_b2_report *rep)
{
	free(rep->res);
	free(rep->wire);
	rep->res = NULL;
	rep->wire = NULL;
}

const struct ipx_b2_sta *ipx_b2_run_of(const struct ipx_b2_report *rep,
				       size_t set, int op, unsigned k)
{
	return rep->res + index_of(rep, set, op, k) * IPX_BN_MAX_STATIONS;
}

const struct ipx_bfs_wire *ipx_b2_wire_of(const struct ipx_b2_report *rep,
					  size_t set, int op, unsigned k)
{
	return rep->wire + index_of(rep, set, op, k);
}

bool ipx_b2_shown(const struct ipx_b2_report *rep, size_t set, int op)
{
	return rep->o.only[op] && (!rep->interrupted || rep->done[set][op]);
}

double ipx_b2_op_seconds(const struct ipx_b2_opts *o, enum ipx_bn_op op)
{
	double s = ipx_bn_op_seconds(op);

	return o->seconds > 0 ? o->seconds * s / 20 : s;
}

void ipx_b2_summarize(const struct ipx_b2_sta *r, unsigned n,
		      struct ipx_b2_row *out)
{
	memset(out, 0, sizeof(*out));
	out->min = INFINITY;
	for (unsigned i = 0; i < n; i++) {
		double pps = r[i].seconds > 0 ? r[i].ops / r[i].seconds : 0;

		out->total += pps;
		out->min = pps < out->min ? pps : out->min;
		out->max = pps > out->max ? pps : out->max;
		out->wire_kB_per_s += r[i].seconds > 0 ? r[i].bytes / 1000.0 /
							    r[i].seconds
						       : 0;
		out->ops += r[i].ops;
		out->misses += r[i].misses;
	}
	out->mean = n ? out->total / n : 0;
	out->wire_kB_per_s = n ? out->wire_kB_per_s / n : 0;
	if (!n)
		out->min = 0;
}

void ipx_b2_summarize_repeats(const struct ipx_b2_report *rep, size_t set,
			      int op, struct ipx_b2_rows *out)
{
	double mean[IPX_BFS_MAX_REPEAT], min[IPX_BFS_MAX_REPEAT],
		max[IPX_BFS_MAX_REPEAT], total[IPX_BFS_MAX_REPEAT],
		kbs[IPX_BFS_MAX_REPEAT], peak[IPX_BFS_MAX_REPEAT];
	unsigned n = rep->o.repeat;

	memset(out, 0, sizeof(*out));
	out->wire = true;
	for (unsigned k = 0; k < n; k++) {
		const struct ipx_bfs_wire *w = ipx_b2_wire_of(rep, set, op, k);
		struct ipx_b2_row r;

		ipx_b2_summarize(ipx_b2_run_of(rep, set, op, k),
				 rep->o.sets[set], &r);
		mean[k] = r.mean;
		min[k] = r.min;
		max[k] = r.max;
		total[k] = r.total;
		kbs[k] = r.wire_kB_per_s;
		peak[k] = w->peak_kB_per_s;
		out->wire &= w->valid;
		out->short_span |= w->short_span;
		out->ops += r.ops;
		out->misses += r.misses;
	}
	out->med.mean = ipx_stat_median(mean, n);
	out->med.min = ipx_stat_median(min, n);
	out->med.max = ipx_stat_median(max, n);
	out->med.total = ipx_stat_median(total, n);
	out->med.wire_kB_per_s = ipx_stat_median(kbs, n);
	ipx_stat_summarize(mean, n, &out->mean);
	ipx_stat_summarize(peak, n, &out->peak);
}

double ipx_b2_bound(const struct ipx_b2_report *rep, enum ipx_bn_op op)
{
	unsigned req = ipx_bn_op_requests(op);

	return req && rep->rtt_op[op] > 0 ? 1.0 / (req * rep->rtt_op[op])
					  : 0;
}

/* ws1 pings the server for 'secs': the mean round trip in *rtt. */
static int measure_rtt(const struct ipx_b2_opts *o, double secs, double *rtt,
		       uint64_t *n, char *err, size_t errlen)
{
	struct ipx_bw_result ping;
	int rc = ipx_bn_run(o->net.ctl, o->net.ro, IPX_BN_PING, 1, secs, 0, 0,
			    0, &ping, err, errlen);

	if (rc == IPX_OK && ping.sent) {
		*rtt = ping.seconds / (double)ping.sent;
		if (n)
			*n = ping.sent;
	}
	return rc;
}

/* "battery 3/23: open-single, 1 workstation, 20.0 s (about 7 min left)" */
static void progress_line(const struct ipx_b2_opts *o,
			  ipx_bench_progress_fn progress, void *ctx,
			  unsigned k, unsigned n, const char *what,
			  unsigned ws, double secs, double left)
{
	char line[160];

	if (!progress)
		return;
	if (o->net.sim)	/* simulated seconds say nothing of the time left */
		snprintf(line, sizeof(line),
			 "battery %u/%u: %s, %u workstation%s, %.1f "
			 "simulated s",
			 k, n, what, ws, ws == 1 ? "" : "s", secs);
	else
		snprintf(line, sizeof(line),
			 "battery %u/%u: %s, %u workstation%s, %.1f s "
			 "(about %.0f %s left)",
			 k, n, what, ws, ws == 1 ? "" : "s", secs,
			 left >= 120 ? left / 60 : left,
			 left >= 120 ? "min" : "s");
	progress(ctx, line);
}

/* One test once: each workstation's figures and the analyzer's window. */
static int run_one(const struct ipx_b2_opts *o, struct ipx_b2_report *rep,
		   size_t s, int op, unsigned k, uint16_t step, char *err,
		   size_t errlen)
{
	struct ipx_bw_result r[IPX_BN_MAX_STATIONS];
	size_t at = index_of(rep, s, op, k);
	struct ipx_b2_sta *out = rep->res + at * IPX_BN_MAX_STATIONS;
	const struct ipx_bfs_wire_ops *w = o->net.wire;
	int rc;

	if (w && w->begin)
		w->begin(w->ctx);
	rc = ipx_bn_run(o->net.ctl, o->net.ro, op, o->sets[s],
			ipx_b2_op_seconds(o, op), 0, 0, step, r, err, errlen);
	if (rc != IPX_OK)
		return rc;
	for (unsigned i = 0; i < o->sets[s]; i++) {
		out[i].ops = r[i].sent;
		out[i].misses = r[i].delivered;
		out[i].bytes = r[i].bytes;
		out[i].retransmits = r[i].retransmits;
		out[i].seconds = r[i].seconds;
	}
	rc = w && w->window ? w->window(w->ctx, o->sets[s], IPX_BFS_WIRE_ALL,
					0, &rep->wire[at])
			    : IPX_OK;
	if (rc != IPX_OK)
		snprintf(err, errlen, "out of memory");
	return rc;
}

/* One test with one set, every repeat, after its round trip. */
static int run_test(const struct ipx_b2_opts *o, struct ipx_b2_report *rep,
		    ipx_bench_progress_fn progress, void *ctx, size_t s,
		    int op, unsigned *k, unsigned n, double *left, char *err,
		    size_t errlen)
{
	int rc = IPX_OK;

	if (o->sets[s] == 1 && ipx_bn_op_requests(op))
		rc = measure_rtt(o, IPX_B2_RTT_BEFORE, &rep->rtt_op[op], NULL,
				 err, errlen);
	for (unsigned rep_k = 0; rc == IPX_OK && rep_k < o->repeat; rep_k++) {
		progress_line(o, progress, ctx, ++*k, n, ipx_bn_op_name(op),
			      o->sets[s], ipx_b2_op_seconds(o, op), *left);
		*left -= ipx_b2_op_seconds(o, op);
		rc = run_one(o, rep, s, op, rep_k, (uint16_t)*k, err, errlen);
	}
	return rc;
}

int ipx_b2_run(const struct ipx_b2_opts *o, ipx_bench_progress_fn progress,
	       void *ctx, struct ipx_b2_report *rep, char *err, size_t errlen)
{
	unsigned k = 0, n = 1;
	double left = IPX_B2_PING_SECONDS;
	int rc;

	rep->o.net = o->net;

	for (int op = 0; op < IPX_BN_BATTERY_OPS; op++) {
		n += o->only[op] ? (unsigned)o->nsets * o->repeat : 0;
		left += o->only[op] ? o->nsets * o->repeat *
					      ipx_b2_op_seconds(o, op)
				    : 0;
	}
	progress_line(o, progress, ctx, ++k, n, "round trip (ping)", 1,
		      IPX_B2_PING_SECONDS, left);
	left -= IPX_B2_PING_SECONDS;
	rc = measure_rtt(o, IPX_B2_PING_SECONDS, &rep->rtt, &rep->pings, err,
			 errlen);
	for (size_t s = 0; rc == IPX_OK && s < o->nsets; s++)
		for (int op = 0; rc == IPX_OK && op < IPX_BN_BATTERY_OPS;
		     op++) {
			if (!o->only[op])
				continue;
			rc = run_test(o, rep, progress, ctx, s, op, &k, n,
				      &left, err, errlen);
			rep->done[s][op] = rc == IPX_OK;
		}
	if (progress)
		progress(ctx, NULL);
	return rc;
}

/* ---- the writers ---- */

void ipx_bfs_wire_json(struct ipx_jw *w, const char *key,
		       const struct ipx_bfs_wire *x)
{
	if (!x->valid) {
		ipx_jw_null(w, key);
		return;
	}
	ipx_jw_obj(w, key);
	ipx_jw_str(w, "source", x->source ? x->source : "");
	ipx_jw_u64(w, "packets", x->packets);
	ipx_jw_u64(w, "bytes", x->bytes);
	ipx_jw_dbl(w, "seconds", "%.6f", x->seconds);
	ipx_jw_dbl(w, "peak_kB_per_s", "%.3f", x->peak_kB_per_s);
	ipx_jw_dbl(w, "mean_kB_per_s", "%.3f", x->mean_kB_per_s);
	ipx_jw_bool(w, "short_span", x->short_span);
	ipx_jw_arr(w, "gaps");
	for (unsigned g = 0; g < IPX_ANALYZE_GAPS; g++)
		ipx_jw_u64(w, NULL, x->gaps[g]);
	ipx_jw_end(w);
	ipx_jw_end(w);
}

/* One workstation in one run, as the CSV and the JSON show it. */
struct sta_row {
	const char *test;
	unsigned workstations, repeat, station;
	uint64_t ops;
	double seconds, ops_per_s;
	uint64_t bytes;
	double wire_kB_per_s;
	uint64_t misses, retransmits;
	double peak;		/* NaN: no analyzer (an empty cell) */
};

static const struct ipx_rfield sta_fields[] = {
	IPX_RF(struct sta_row, test, "test", "", NULL, IPX_RF_STR, IPX_RF_CSV),
	IPX_RF(struct sta_row, workstations, "workstations", "", NULL,
	       IPX_RF_UINT, IPX_RF_CSV),
	IPX_RF(struct sta_row, repeat, "repeat", "", NULL, IPX_RF_UINT,
	       IPX_RF_CSV),
	IPX_RF(struct sta_row, station, "station", "", NULL, IPX_RF_UINT,
	       IPX_RF_CSV),
	IPX_RF(struct sta_row, ops, "ops", "ops", NULL, IPX_RF_U64,
	       IPX_RF_BOTH),
	IPX_RF(struct sta_row, seconds, "seconds", "s", "%.6f", IPX_RF_DOUBLE,
	       IPX_RF_BOTH),
	IPX_RF(struct sta_row, ops_per_s, "ops_per_s", "ops/s", "%.3f",
	       IPX_RF_DOUBLE, IPX_RF_BOTH),
	IPX_RF(struct sta_row, bytes, "wire_bytes", "bytes", NULL, IPX_RF_U64,
	       IPX_RF_JSON),
	IPX_RF(struct sta_row, wire_kB_per_s, "wire_kB_per_s", "kB/s", "%.3f",
	       IPX_RF_DOUBLE, IPX_RF_CSV),
	IPX_RF(struct sta_row, misses, "misses", "", NULL, IPX_RF_U64,
	       IPX_RF_BOTH),
	IPX_RF(struct sta_row, retransmits, "retransmits", "", NULL,
	       IPX_RF_U64, IPX_RF_JSON),
	IPX_RF(struct sta_row, peak, "analyzer_peak_kB_per_s", "kB/s", "%.3f",
	       IPX_RF_DOUBLE, IPX_RF_CSV),
};
static const struct ipx_rtable sta_table = IPX_RTABLE("workstation",
						      sta_fields);

static void sta_row(const struct ipx_b2_report *rep, size_t s, int op,
		    unsigned k, unsigned i, struct sta_row *out)
{
	const struct ipx_b2_sta *r = &ipx_b2_run_of(rep, s, op, k)[i];
	const struct ipx_bfs_wire *w = ipx_b2_wire_of(rep, s, op, k);
	double secs = r->seconds;

	out->test = ipx_bn_op_name(op);
	out->workstations = rep->o.sets[s];
	out->repeat = k + 1;
	out->station = i + 1;
	out->ops = r->ops;
	out->seconds = secs;
	out->ops_per_s = secs > 0 ? r->ops / secs : 0;
	out->bytes = r->bytes;
	out->wire_kB_per_s = secs > 0 ? r->bytes / 1000.0 / secs : 0;
	out->misses = r->misses;
	out->retransmits = r->retransmits;
	out->peak = w->valid ? w->peak_kB_per_s : NAN;
}

void ipx_b2_write_csv(FILE *out, const struct ipx_b2_report *rep)
{
	const struct ipx_b2_opts *o = &rep->o;

	ipx_res_csv_header(out, &sta_table);
	for (int op = 0; op < IPX_BN_BATTERY_OPS; op++)
		for (size_t s = 0; s < o->nsets && o->only[op]; s++)
			for (unsigned k = 0;
			     ipx_b2_shown(rep, s, op) && k < o->repeat; k++)
				for (unsigned i = 0; i < o->sets[s]; i++) {
					struct sta_row r;

					sta_row(rep, s, op, k, i, &r);
					ipx_res_csv_row(out, &sta_table, &r);
				}
}

/* A run's workstations as a JSON array. */
static void stations_json(struct ipx_jw *w, const struct ipx_b2_report *rep,
			  size_t s, int op, unsigned k)
{
	ipx_jw_arr(w, "per_workstation");
	for (unsigned i = 0; i < rep->o.sets[s]; i++) {
		struct sta_row r;

		sta_row(rep, s, op, k, i, &r);
		ipx_res_json_row(w, NULL, &sta_table, &r);
	}
	ipx_jw_end(w);
}

/* One test with one set: its runs, the medians, 1990's, the target. */
static void test_json(struct ipx_jw *w, const struct ipx_b2_report *rep,
		      size_t s, int op)
{
	const struct ipx_b2_opts *o = &rep->o;
	double l, br, bnd = ipx_b2_bound(rep, op);
	struct ipx_b2_rows rs;

	ipx_b2_summarize_repeats(rep, s, op, &rs);
	ipx_bn_published_kbs(op, &l, &br);
	ipx_jw_obj(w, NULL);
	ipx_jw_str(w, "test", ipx_bn_op_name(op));
	ipx_jw_str(w, "title", ipx_bn_op_title(op));
	ipx_jw_u64(w, "workstations", o->sets[s]);
	stations_json(w, rep, s, op, 0);	/* the first run's */
	ipx_jw_arr(w, "runs");
	for (unsigned k = 0; k < o->repeat; k++) {
		ipx_jw_obj(w, NULL);
		stations_json(w, rep, s, op, k);
		ipx_bfs_wire_json(w, "analyzer", ipx_b2_wire_of(rep, s, op, k));
		ipx_jw_end(w);
	}
	ipx_jw_end(w);
	ipx_jw_dbl(w, "mean_ops_per_s", "%.3f", rs.med.mean);
	ipx_jw_dbl(w, "mean_ops_per_s_min", "%.3f", rs.mean.min);
	ipx_jw_dbl(w, "mean_ops_per_s_max", "%.3f", rs.mean.max);
	ipx_jw_dbl(w, "total_ops_per_s", "%.3f", rs.med.total);
	ipx_jw_dbl(w, "wire_kB_per_s", "%.3f", rs.med.wire_kB_per_s);
	if (rs.wire)
		ipx_jw_summary(w, "analyzer_peak_kB_per_s", "%.3f", &rs.peak);
	else
		ipx_jw_null(w, "analyzer_peak_kB_per_s");
	if (o->sets[s] == 1) {
		ipx_jw_obj(w, "published_peak_kbyte_per_s");
		ipx_jw_dbl(w, "local", "%.0f", l);
		ipx_jw_dbl(w, "bridged", "%.0f", br);
		ipx_jw_end(w);
	}
	if (o->sets[s] == 1 && bnd > 0) {
		ipx_jw_dbl(w, "rtt_us", "%.3f", rep->rtt_op[op] * 1e6);
		ipx_jw_dbl(w, "round_trip_bound", "%.3f", bnd);
		ipx_jw_dbl(w, "ratio", "%.4f", rs.med.mean / bnd);
		ipx_jw_bool(w, "pass", rs.med.mean >= IPX_B2_TARGET * bnd);
	}
	ipx_jw_end(w);
}

void ipx_b2_write_json(FILE *out, const struct ipx_b2_report *rep,
		       ipx_bfs_conditions_fn cond, const void *ctx)
{
	const struct ipx_b2_opts *o = &rep->o;
	struct ipx_jw w;

	ipx_jw_init(&w, out);
	ipx_jw_obj(&w, NULL);
	ipx_jw_str(&w, "benchmark", "battery");
	ipx_jw_obj(&w, "conditions");
	if (cond)
		cond(&w, ctx);
	ipx_jw_u64(&w, "repeat", o->repeat);
	ipx_jw_dbl(&w, "seconds", "%.3f", ipx_b2_op_seconds(o, IPX_BN_LOCK));
	ipx_jw_dbl(&w, "search_seconds", "%.3f",
		   ipx_b2_op_seconds(o, IPX_BN_DIR_SEARCH));
	ipx_jw_dbl(&w, "rtt_us", "%.3f", rep->rtt * 1e6);
	ipx_jw_end(&w);
	ipx_jw_bool(&w, "complete", !rep->interrupted);
	ipx_jw_dbl(&w, "target", "%.2f", IPX_B2_TARGET);
	ipx_jw_arr(&w, "tests");
	for (int op = 0; op < IPX_BN_BATTERY_OPS; op++)
		for (size_t s = 0; s < o->nsets && o->only[op]; s++)
			if (ipx_b2_shown(rep, s, op))
				test_json(&w, rep, s, op);
	ipx_jw_end(&w);
	if (rep->fidelity)
		ipx_fid_write_json(&w, "fidelity", rep->fidelity);
	ipx_jw_finish(&w);
}
