/*
 * eth.c - the Ethernet benchmark (ipxlab/bench_eth.h): the runs of both
 * paths on the harness's two agents in their namespaces (pair.c), each
 * path's figures, the summary (bench_stat.h), and the report as JSON and
 * CSV (bench_result.h).
 */
#include "ipxlab/bench_eth.h"

#include <stdio.h>
#include <string.h>

#include "ipxlab/bench_result.h"
#include "ipxlab/err.h"
#include "ipxlab/ipx.h"
#include "ipxlab/link_eth.h"

const char *const ipx_beth_path_name[IPX_BETH_PATHS] = { "raw", "ipx" };

size_t ipx_beth_frame_len(const struct ipx_beth_opts *o)
{
	size_t n = IPX_ETH_HDR_LEN + ipx_frame_overhead(o->frame) +
		   IPX_HDR_LEN + o->payload;

	return n < IPX_ETH_MIN_FRAME ? IPX_ETH_MIN_FRAME : n;
}

static void figures(const struct ipx_beth_opts *o, const struct ipx_bpair_run *x,
		    struct ipx_beth_res *r)
{
	const struct ipx_bw_result *s = &x->snd, *d = &x->rcv;

	memset(r, 0, sizeof(*r));
	r->sent = s->sent;
	r->delivered = d->delivered;
	r->pps = d->seconds > 0 ? (double)d->delivered / d->seconds : 0;
	r->mbps = r->pps * (double)ipx_beth_frame_len(o) / 1e6;
	r->loss = s->sent > d->delivered
			  ? 1.0 - (double)d->delivered / (double)s->sent
			  : 0;
	r->cpu_s = s->seconds > 0 ? (s->cpu_user + s->cpu_sys) / s->seconds
				  : 0;
	r->cpu_r = d->seconds > 0 ? (d->cpu_user + d->cpu_sys) / d->seconds
				  : 0;
}

static void summarize(const struct ipx_beth_res (*res)[IPX_BETH_PATHS], unsigned long n,
		      struct ipx_stat_summary sum[3])
{
	double v[3][IPX_BETH_MAX_REPEAT];

	for (unsigned long i = 0; i < n; i++) {
		v[0][i] = res[i][IPX_BETH_RAW].pps;
		v[1][i] = res[i][IPX_BETH_IPX].pps;
		v[2][i] = v[0][i] > 0 ? v[1][i] / v[0][i] : 0;
	}
	for (int k = 0; k < 3; k++)
		ipx_stat_summarize(v[k], n, &sum[k]);
}

/* One path of one run: a CSV line, and its JSON object (bench_result.h). */
struct line {
	uint64_t run;
	const char *path;
	struct ipx_beth_res r;
};

#define LF(M, NAME, FMT, TYPE, WHERE) \
	IPX_RF(struct line, M, NAME, "", FMT, TYPE, WHERE)
static const struct ipx_rfield line_fields[] = {
	LF(run, "run", NULL, IPX_RF_U64, IPX_RF_CSV),
	LF(path, "path", NULL, IPX_RF_STR, IPX_RF_CSV),
	LF(r.pps, "pps", "%.1f", IPX_RF_DOUBLE, IPX_RF_BOTH),
	LF(r.mbps, "MB_per_s", "%.3f", IPX_RF_DOUBLE, IPX_RF_BOTH),
	LF(r.sent, "sent", NULL, IPX_RF_U64, IPX_RF_BOTH),
	LF(r.delivered, "delivered", NULL, IPX_RF_U64, IPX_RF_BOTH),
	LF(r.loss, "loss", "%.6f", IPX_RF_DOUBLE, IPX_RF_BOTH),
	LF(r.cpu_s, "cpu_sender", "%.3f", IPX_RF_DOUBLE, IPX_RF_BOTH),
	LF(r.cpu_r, "cpu_receiver", "%.3f", IPX_RF_DOUBLE, IPX_RF_BOTH),
};
static const struct ipx_rtable line_table = IPX_RTABLE("eth", line_fields);

void ipx_beth_write_json(FILE *out, const struct ipx_beth_opts *o,
			 const struct ipx_beth_report *rep,
			 ipx_beth_conditions_fn cond, const void *ctx)
{
	const struct ipx_beth_res(*res)[IPX_BETH_PATHS] = rep->runs;
	const struct ipx_stat_summary *sum = rep->sum;
	static const char *const sum_name[3] = { "raw_pps", "ipx_pps",
						 "ratio" };
	struct ipx_jw w;

	ipx_jw_init(&w, out);
	ipx_jw_obj(&w, NULL);
	ipx_jw_str(&w, "benchmark", "eth");
	if (rep->interrupted)
		ipx_jw_bool(&w, "complete", false);
	if (cond)
		cond(&w, ctx);
	ipx_jw_str(&w, "frame", ipx_frame_type_name(o->frame));
	ipx_jw_u64(&w, "payload_bytes", o->payload);
	ipx_jw_u64(&w, "frame_bytes", ipx_beth_frame_len(o));
	ipx_jw_dbl(&w, "seconds", "%g", o->seconds);
	ipx_jw_dbl(&w, "warmup", "%g", o->warmup);
	ipx_jw_u64(&w, "repeat", rep->done);
	ipx_jw_arr(&w, "runs");
	for (unsigned long i = 0; i < rep->done; i++) {
		ipx_jw_obj(&w, NULL);
		for (int p = 0; p < IPX_BETH_PATHS; p++) {
			struct line l = { i + 1, ipx_beth_path_name[p],
					  res[i][p] };

			ipx_res_json_row(&w, ipx_beth_path_name[p],
					 &line_table, &l);
		}
		ipx_jw_dbl(&w, "ratio", "%.4f",
			   res[i][IPX_BETH_RAW].pps > 0
				   ? res[i][IPX_BETH_IPX].pps / res[i][IPX_BETH_RAW].pps
				   : 0);
		ipx_jw_end(&w);
	}
	ipx_jw_end(&w);
	ipx_jw_obj(&w, "summary");
	for (int k = 0; k < 3; k++)
		ipx_jw_summary(&w, sum_name[k], "%.4g", &sum[k]);
	ipx_jw_end(&w);
	ipx_jw_dbl(&w, "target_ratio", "%.2f", IPX_BETH_TARGET);
	ipx_jw_bool(&w, "pass", sum[2].median >= IPX_BETH_TARGET);
	ipx_jw_finish(&w);
}

void ipx_beth_write_csv(FILE *out, const struct ipx_beth_report *rep)
{
	ipx_res_csv_header(out, &line_table);
	for (unsigned long i = 0; i < rep->done; i++)
		for (int p = 0; p < IPX_BETH_PATHS; p++) {
			struct line l = { i + 1, ipx_beth_path_name[p],
					  rep->runs[i][p] };

			ipx_res_csv_row(out, &line_table, &l);
		}
}

static void progress(const struct ipx_beth_hooks *h, enum ipx_beth_event ev,
		     const struct ipx_beth_report *rep, unsigned long run,
		     enum ipx_beth_path p)
{
	if (h && h->progress)
		h->progress(h->ctx, ev, rep, run, p);
}

/* One run: both paths, every other run the IPX path first. */
static int run_once(const struct ipx_beth_opts *o,
		    const struct ipx_beth_hooks *h, struct ipx_beth_report *rep,
		    unsigned long i, struct ipx_beth_res out[IPX_BETH_PATHS],
		    char *err, size_t errlen)
{
	for (int k = 0; k < IPX_BETH_PATHS; k++) {
		enum ipx_beth_path p = (enum ipx_beth_path)(i % 2 ? 1 - k : k);
		struct ipx_bw_params w = { 0 };
		struct ipx_bpair_run x;
		char label[48];
		int rc;

		w.kind = p == IPX_BETH_IPX ? IPX_BW_IPX : IPX_BW_UDP;
		w.size = o->payload;
		w.seconds = i ? o->seconds : o->warmup;
		snprintf(label, sizeof(label), "%s %s %lu",
			 ipx_beth_path_name[p], i ? "run" : "warm-up", i);
		rc = ipx_bpair_run(&rep->net, label, (unsigned)i, &w, -1, -1,
				   &x, err, errlen);
		if (rc != IPX_OK)
			return rc;
		figures(o, &x, &out[p]);
		if (i)
			progress(h, IPX_BETH_EV_PATH, rep, i, p);
	}
	return IPX_OK;
}

static int runs(const struct ipx_beth_opts *o, const struct ipx_beth_hooks *h,
		struct ipx_beth_report *rep, char *err, size_t errlen)
{
	struct ipx_beth_res warm[IPX_BETH_PATHS];
	int rc = ipx_bpair_start_eth(&rep->net, o->end, &o->end[2], err,
				     errlen);

	if (rc != IPX_OK)
		return rc;
	progress(h, IPX_BETH_EV_READY, rep, 0, IPX_BETH_RAW);
	if (o->warmup > 0)
		rc = run_once(o, h, rep, 0, warm, err, errlen);
	for (unsigned long i = 1; rc == IPX_OK && i <= o->repeat; i++) {
		rc = run_once(o, h, rep, i, rep->runs[i - 1], err, errlen);
		rep->done = rc == IPX_OK ? i : rep->done;
	}
	if (rc != IPX_OK && ipx_bpair_interrupted(&rep->net, rc)) {
		rep->interrupted = true;
		rc = IPX_OK;
	}
	return rc;
}

int ipx_beth_run(const struct ipx_beth_opts *o, const struct ipx_beth_hooks *h,
		 struct ipx_beth_report *rep, char *err, size_t errlen)
{
	struct ipx_bpair net = rep->net;
	int rc;

	if (o->repeat < 1 || o->repeat > IPX_BETH_MAX_REPEAT) {
		snprintf(err, errlen, "repeat %lu is not 1 to %d", o->repeat,
			 IPX_BETH_MAX_REPEAT);
		return IPX_EINVAL;
	}
	ipx_bpair_reset(&net);
	memset(rep, 0, sizeof(*rep));
	rep->net = net;
	rep->net.planned = IPX_BETH_PATHS *
			   (o->warmup + o->seconds * (double)o->repeat);
	rc = runs(o, h, rep, err, errlen);
	summarize((const struct ipx_beth_res(*)[IPX_BETH_PATHS])rep->runs,
		  rep->done, rep->sum);
	ipx_bpair_stop(&rep->net, rc == IPX_OK && !rep->interrupted);
	return rc;
}
