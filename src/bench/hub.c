/*
 * hub.c - the hub benchmark (ipxlab/bench_hub.h): the passes of both
 * paths on the harness's two agents (pair.c), each run's figures with
 * the processes' CPU shares, the summary over the runs (bench_stat.h),
 * and the report as JSON and CSV (bench_result.h). Nothing prints but
 * the writers, to the stream they are given.
 */
#include "ipxlab/bench_hub.h"

#include <math.h>
#include <string.h>

#include "ipxlab/bench_result.h"
#include "ipxlab/bench_sys.h"
#include "ipxlab/err.h"
#include "ipxlab/ipx.h"

const char *const ipx_bhub_path_name[IPX_BHUB_PATHS] = { "plain", "hub" };
const char *const ipx_bhub_role_name[IPX_BHUB_ROLES] = { "sender", "hub",
							 "receiver" };

static double other_load(const struct ipx_bhub_res *r)
{
	double o = r->busy - r->ours;

	return o > 0 ? o : 0;
}

static void params_of(const struct ipx_bhub_opts *o, enum ipx_bhub_path p, double seconds,
		      struct ipx_bw_params *w)
{
	memset(w, 0, sizeof(*w));
	/* the plain path's datagram is the tunnel's for the same IPX
	 * packet: payload + 30 bytes */
	w->kind = p == IPX_BHUB_HUB ? IPX_BW_IPX : IPX_BW_UDP;
	w->seconds = seconds;
	w->size = o->payload;
	w->window = o->window;
}

static void share(struct ipx_bhub_res *r, enum ipx_bhub_role i, double cpu_s, double user,
		  double sys, int last, double window)
{
	r->present[i] = true;
	r->cpu[i] = window > 0 ? cpu_s / window : 0;
	r->user[i] = window > 0 ? user / window : 0;
	r->sys[i] = window > 0 ? sys / window : 0;
	r->last_cpu[i] = last;
}

static void figures(const struct ipx_bhub_opts *o, const struct ipx_bpair_run *x,
		    enum ipx_bhub_path p, struct ipx_bhub_res *r)
{
	const struct ipx_bw_result *s = &x->snd, *d = &x->rcv;
	double win = s->seconds, ours;

	memset(r, 0, sizeof(*r));
	r->seconds = d->seconds;
	r->pps = d->pps;
	r->mbps = d->pps * (double)(o->payload + IPX_HDR_LEN) / 1e6;
	r->sent = s->sent;
	r->send_errors = s->send_errors;
	r->delivered = d->delivered;
	r->lost = s->sent > d->delivered ? s->sent - d->delivered : 0;
	r->loss = s->sent ? (double)r->lost / (double)s->sent : 0;
	r->stalls = s->stalls;
	r->busy = x->machine_busy;
	r->steal = x->machine_steal;
	share(r, IPX_BHUB_SND, s->cpu_user + s->cpu_sys, s->cpu_user, s->cpu_sys,
	      s->cpu, win);
	share(r, IPX_BHUB_RCV, d->cpu_user + d->cpu_sys, d->cpu_user, d->cpu_sys,
	      d->cpu, win);
	ours = s->cpu_user + s->cpu_sys + d->cpu_user + d->cpu_sys;
	if (p == IPX_BHUB_HUB && x->hub_cpu >= 0) {
		share(r, IPX_BHUB_HUBP, x->hub_cpu, x->hub_user, x->hub_sys,
		      x->hub_last_cpu, win);
		ours += x->hub_cpu;
	}
	r->ours = x->wall > 0 ? ours / x->wall : 0;
}

/* One run of one path as its JSON object shows it (bench_result.h). */
#define RF(M, NAME, FMT, TYPE) \
	IPX_RF(struct ipx_bhub_res, M, NAME, "", FMT, TYPE, IPX_RF_JSON)
static const struct ipx_rfield res_fields[] = {
	RF(pps, "pps", "%.1f", IPX_RF_DOUBLE),
	RF(mbps, "MB_per_s", "%.3f", IPX_RF_DOUBLE),
	RF(seconds, "seconds", "%.6f", IPX_RF_DOUBLE),
	RF(busy, "machine_busy_cpus", "%.3f", IPX_RF_DOUBLE),
	RF(steal, "machine_steal_cpus", "%.3f", IPX_RF_DOUBLE),
	RF(ours, "benchmark_cpus", "%.3f", IPX_RF_DOUBLE),
	RF(other, "other_cpus", "%.3f", IPX_RF_DOUBLE),
	RF(delivered, "packets", NULL, IPX_RF_U64),
	RF(sent, "sent", NULL, IPX_RF_U64),
	RF(delivered, "delivered", NULL, IPX_RF_U64),
	RF(lost, "lost", NULL, IPX_RF_U64),
	RF(loss, "loss", "%.6g", IPX_RF_DOUBLE),
	RF(send_errors, "send_errors", NULL, IPX_RF_U64),
	RF(stalls, "window_stalls", NULL, IPX_RF_U64),
};
static const struct ipx_rtable res_table = IPX_RTABLE("run", res_fields);

static void json_result(struct ipx_jw *w, const char *key,
			const struct ipx_bhub_res *r)
{
	struct ipx_bhub_res v = *r;

	v.other = other_load(r);
	ipx_jw_obj(w, key);
	ipx_res_json_fields(w, &res_table, &v);
	ipx_jw_arr(w, "processes");
	for (int i = 0; i < IPX_BHUB_ROLES; i++) {
		if (!r->present[i])
			continue;
		ipx_jw_obj(w, NULL);
		ipx_jw_str(w, "role", ipx_bhub_role_name[i]);
		ipx_jw_dbl(w, "cpu", "%.4f", r->cpu[i]);
		ipx_jw_dbl(w, "user", "%.4f", r->user[i]);
		ipx_jw_dbl(w, "sys", "%.4f", r->sys[i]);
		ipx_jw_int(w, "last_cpu", r->last_cpu[i]);
		ipx_jw_end(w);
	}
	ipx_jw_end(w);
	ipx_jw_end(w);
}

static void summarize(const struct ipx_bhub_res (*res)[IPX_BHUB_PATHS], unsigned long n,
		      struct ipx_bhub_summary *s)
{
	double v[2 * IPX_BHUB_MAX_REPEAT];

	for (int p = 0; p < IPX_BHUB_PATHS; p++) {
		for (unsigned long i = 0; i < n; i++)
			v[i] = res[i][p].pps;
		ipx_stat_summarize(v, n, &s->pps[p]);
		for (unsigned long i = 0; i < n; i++)
			v[i] = res[i][p].mbps;
		ipx_stat_summarize(v, n, &s->mbps[p]);
		for (unsigned long i = 0; i < n; i++)
			v[i] = res[i][p].loss;
		ipx_stat_summarize(v, n, &s->loss[p]);
	}
	for (unsigned long i = 0; i < n; i++)
		v[i] = res[i][IPX_BHUB_PLAIN].pps > 0
			       ? res[i][IPX_BHUB_HUB].pps / res[i][IPX_BHUB_PLAIN].pps
			       : 0;
	ipx_stat_summarize(v, n, &s->ratio);
	for (unsigned long i = 0; i < 2 * n; i++)
		v[i] = other_load(&res[i / 2][i % 2]);
	ipx_stat_summarize(v, 2 * n, &s->other);
	s->met = s->ratio.median >= IPX_BHUB_TARGET_RATIO;
}

void ipx_bhub_placement(const struct ipx_bhub_opts *o, char *buf,
			size_t len)
{
	if (o->pinned)
		snprintf(buf, len, "pinned: hub path S%d H%d R%d, plain S%d R%d",
			 o->pin[IPX_BHUB_HUB][IPX_BHUB_SND], o->pin[IPX_BHUB_HUB][IPX_BHUB_HUBP], o->pin[IPX_BHUB_HUB][IPX_BHUB_RCV],
			 o->pin[IPX_BHUB_PLAIN][IPX_BHUB_SND], o->pin[IPX_BHUB_PLAIN][IPX_BHUB_RCV]);
	else
		snprintf(buf, len, "not pinned");
}

void ipx_bhub_write_json(FILE *out, const struct ipx_bhub_opts *o,
			 const struct ipx_bhub_report *rep,
			 ipx_bhub_conditions_fn cond, const void *ctx)
{
	const struct ipx_bhub_res(*res)[IPX_BHUB_PATHS] = rep->runs;
	const struct ipx_bhub_summary *s = &rep->sum;
	struct ipx_jw w;
	char pl[128];

	ipx_bhub_placement(o, pl, sizeof(pl));
	ipx_jw_init(&w, out);
	ipx_jw_obj(&w, NULL);
	ipx_jw_str(&w, "benchmark", "hub");
	if (rep->interrupted)
		ipx_jw_bool(&w, "complete", false);
	if (cond)
		cond(&w, ctx);
	ipx_jw_u64(&w, "ipx_payload_bytes", o->payload);
	ipx_jw_u64(&w, "datagram_bytes", o->payload + IPX_HDR_LEN);
	ipx_jw_int(&w, "cpus_online", ipx_bench_cpus_online());
	ipx_jw_int(&w, "cpus_allowed", ipx_bench_cpus_allowed());
	ipx_jw_dbl(&w, "seconds", "%g", o->seconds);
	ipx_jw_dbl(&w, "warmup", "%g", o->warmup);
	ipx_jw_u64(&w, "repeat", rep->done);
	ipx_jw_u64(&w, "window", o->window);
	ipx_jw_str(&w, "mode", o->window ? "window" : "flood");
	if (o->pinned) {
		ipx_jw_obj(&w, "pin");
		ipx_jw_obj(&w, "hub");
		ipx_jw_int(&w, "sender", o->pin[IPX_BHUB_HUB][IPX_BHUB_SND]);
		ipx_jw_int(&w, "hub", o->pin[IPX_BHUB_HUB][IPX_BHUB_HUBP]);
		ipx_jw_int(&w, "receiver", o->pin[IPX_BHUB_HUB][IPX_BHUB_RCV]);
		ipx_jw_end(&w);
		ipx_jw_obj(&w, "plain");
		ipx_jw_int(&w, "sender", o->pin[IPX_BHUB_PLAIN][IPX_BHUB_SND]);
		ipx_jw_int(&w, "receiver", o->pin[IPX_BHUB_PLAIN][IPX_BHUB_RCV]);
		ipx_jw_end(&w);
		ipx_jw_end(&w);
	} else {
		ipx_jw_null(&w, "pin");
	}
	ipx_jw_arr(&w, "runs");
	for (unsigned long i = 0; i < rep->done; i++) {
		ipx_jw_obj(&w, NULL);
		ipx_jw_u64(&w, "run", i + 1);
		json_result(&w, "plain", &res[i][IPX_BHUB_PLAIN]);
		json_result(&w, "hub", &res[i][IPX_BHUB_HUB]);
		ipx_jw_dbl(&w, "ratio", "%.4f",
			   res[i][IPX_BHUB_PLAIN].pps > 0
				   ? res[i][IPX_BHUB_HUB].pps / res[i][IPX_BHUB_PLAIN].pps
				   : 0);
		ipx_jw_end(&w);
	}
	ipx_jw_end(&w);
	ipx_jw_obj(&w, "summary");
	for (int p = 0; p < IPX_BHUB_PATHS; p++) {
		ipx_jw_obj(&w, ipx_bhub_path_name[p]);
		ipx_jw_summary(&w, "pps", "%.6g", &s->pps[p]);
		ipx_jw_summary(&w, "MB_per_s", "%.6g", &s->mbps[p]);
		ipx_jw_summary(&w, "loss", "%.6g", &s->loss[p]);
		ipx_jw_end(&w);
	}
	ipx_jw_summary(&w, "other_cpus", "%.6g", &s->other);
	ipx_jw_summary(&w, "ratio", "%.6g", &s->ratio);
	ipx_jw_end(&w);
	/* no 1990 figure was published for a hub: none is printed */
	ipx_jw_null(&w, "ref_1990");
	ipx_jw_dbl(&w, "target_ratio", "%.2f", IPX_BHUB_TARGET_RATIO);
	ipx_jw_bool(&w, "pass", s->met);
	ipx_jw_finish(&w);
}

/* The CSV: one line per figure. */
struct csv_line {
	const char *figure;
	struct ipx_stat_summary s;
	double target;		/* NAN: an empty cell */
	const char *pass;
};

#define CF(M, NAME, FMT, TYPE) \
	IPX_RF(struct csv_line, M, NAME, "", FMT, TYPE, IPX_RF_CSV)
static const struct ipx_rfield csv_fields[] = {
	CF(figure, "figure", NULL, IPX_RF_STR),
	CF(s.median, "median", "%.6g", IPX_RF_DOUBLE),
	CF(s.min, "min", "%.6g", IPX_RF_DOUBLE),
	CF(s.max, "max", "%.6g", IPX_RF_DOUBLE),
	CF(target, "target", "%.2f", IPX_RF_DOUBLE),
	CF(pass, "pass", NULL, IPX_RF_STR),
};
static const struct ipx_rtable csv_table = IPX_RTABLE("hub", csv_fields);

static void csv_row(FILE *out, const char *path, const char *what,
		    const struct ipx_stat_summary *s)
{
	char name[32];
	struct csv_line l = { name, *s, NAN, NULL };

	snprintf(name, sizeof(name), "%s_%s", path, what);
	ipx_res_csv_row(out, &csv_table, &l);
}

void ipx_bhub_write_csv(FILE *out, const struct ipx_bhub_report *rep)
{
	const struct ipx_bhub_summary *s = &rep->sum;
	struct csv_line ratio = { "ratio_hub_plain", s->ratio, IPX_BHUB_TARGET_RATIO,
				  s->met ? "PASS" : "MISS" };

	ipx_res_csv_header(out, &csv_table);
	for (int p = 0; p < IPX_BHUB_PATHS; p++) {
		csv_row(out, ipx_bhub_path_name[p], "pps", &s->pps[p]);
		csv_row(out, ipx_bhub_path_name[p], "MB_per_s", &s->mbps[p]);
		csv_row(out, ipx_bhub_path_name[p], "loss", &s->loss[p]);
	}
	ipx_res_csv_row(out, &csv_table, &ratio);
}


static void progress(const struct ipx_bhub_hooks *h, enum ipx_bhub_event ev,
		     const struct ipx_bhub_report *rep, unsigned long run,
		     enum ipx_bhub_path p)
{
	if (h && h->progress)
		h->progress(h->ctx, ev, rep, run, p);
}

/* One pass: both paths, every other run the hub first (so neither path
 * always goes first); pass 0 is the warm-up (not kept). */
static int pass(const struct ipx_bhub_opts *o, const struct ipx_bhub_hooks *h,
		struct ipx_bhub_report *rep, unsigned i,
		struct ipx_bhub_res *out, char *err, size_t errlen)
{
	for (int k = 0; k < IPX_BHUB_PATHS; k++) {
		enum ipx_bhub_path p =
			(enum ipx_bhub_path)(i && i % 2 == 0 ? 1 - k : k);
		struct ipx_bw_params w;
		struct ipx_bpair_run x;
		char label[48];
		int rc;

		params_of(o, p, i ? o->seconds : o->warmup, &w);
		if (i)
			snprintf(label, sizeof(label), "%s run %u",
				 ipx_bhub_path_name[p], i);
		else
			snprintf(label, sizeof(label), "%s warm-up",
				 ipx_bhub_path_name[p]);
		rc = ipx_bpair_run(&rep->net, label, i, &w,
				   o->pin[p][IPX_BHUB_SND],
				   o->pin[p][IPX_BHUB_RCV], &x, err, errlen);
		if (rc != IPX_OK)
			return rc;
		figures(o, &x, p, &out[p]);
		out[p].other = other_load(&out[p]);
		if (i)
			progress(h, IPX_BHUB_EV_PATH, rep, i, p);
	}
	return IPX_OK;
}

static int passes(const struct ipx_bhub_opts *o,
		  const struct ipx_bhub_hooks *h, struct ipx_bhub_report *rep,
		  char *err, size_t errlen)
{
	struct ipx_bhub_res warm[IPX_BHUB_PATHS];
	int rc = ipx_bpair_start(&rep->net, o->pcap, err, errlen);

	if (rc == IPX_OK && o->pinned)
		rc = ipx_bpair_pin_hub(&rep->net, o->pin[IPX_BHUB_HUB][IPX_BHUB_HUBP],
				       err, errlen);
	if (rc != IPX_OK)
		return rc;
	progress(h, IPX_BHUB_EV_READY, rep, 0, IPX_BHUB_PLAIN);
	if (o->warmup > 0)
		rc = pass(o, h, rep, 0, warm, err, errlen);
	for (unsigned i = 1; rc == IPX_OK && i <= o->repeat; i++) {
		rc = pass(o, h, rep, i, rep->runs[i - 1], err, errlen);
		rep->done = rc == IPX_OK ? i : rep->done;
	}
	if (rc != IPX_OK && ipx_bpair_interrupted(&rep->net, rc)) {
		rep->interrupted = true;
		rc = IPX_OK;
	}
	return rc;
}

int ipx_bhub_run(const struct ipx_bhub_opts *o, const struct ipx_bhub_hooks *h,
		 struct ipx_bhub_report *rep, char *err, size_t errlen)
{
	struct ipx_bpair net = rep->net;
	int rc;

	if (o->repeat < 1 || o->repeat > IPX_BHUB_MAX_REPEAT) {
		snprintf(err, errlen, "repeat %lu is not 1 to %d", o->repeat,
			 IPX_BHUB_MAX_REPEAT);
		return IPX_EINVAL;
	}
	ipx_bpair_reset(&net);
	memset(rep, 0, sizeof(*rep));
	rep->net = net;
	rep->net.planned = IPX_BHUB_PATHS *
			   (o->warmup + o->seconds * (double)o->repeat);
	rc = passes(o, h, rep, err, errlen);
	summarize((const struct ipx_bhub_res(*)[IPX_BHUB_PATHS])rep->runs,
		  rep->done, &rep->sum);
	ipx_bpair_stop(&rep->net, rc == IPX_OK && !rep->interrupted);
	return rc;
}
