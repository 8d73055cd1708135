/*
 * b8_write.c - B8's JSON and CSV (bench_b8.h) from one row description
 * (bench_result.h): a row per workstation, one per configuration ("all":
 * the summary) and one per CPU sample ("cpu").
 */
#include <math.h>
#include <string.h>

#include "ipxlab/bench_b8.h"
#include "ipxlab/bench_cpu.h"

struct b8_row {
	const char *config, *note, *status, *row;
	double files, time_s, first_s, lag_s, min_s, median_s, max_s;
	double t_s, cpu_pct, cpu_base_pct, cpu_peak_pct, rank;
};

#define D(M, NAME, UNIT, FMT, WHERE) \
	IPX_RF(struct b8_row, M, NAME, UNIT, FMT, IPX_RF_DOUBLE, WHERE)
static const struct ipx_rfield row_fields[] = {
	IPX_RF(struct b8_row, config, "config", "", NULL, IPX_RF_STR,
	       IPX_RF_CSV),
	IPX_RF(struct b8_row, note, "note_setup", "", NULL, IPX_RF_STR,
	       IPX_RF_CSV),
	IPX_RF(struct b8_row, status, "status", "", NULL, IPX_RF_STR,
	       IPX_RF_CSV),
	IPX_RF(struct b8_row, row, "station", "", NULL, IPX_RF_STR,
	       IPX_RF_BOTH),
	D(files, "files", "files", "%.0f", IPX_RF_BOTH),
	D(time_s, "time_s", "s", "%.6f", IPX_RF_BOTH),
	D(first_s, "first_s", "s", "%.6f", IPX_RF_BOTH),
	D(lag_s, "lag_s", "s", "%.6f", IPX_RF_CSV),
	D(min_s, "min_s", "s", "%.6f", IPX_RF_CSV),
	D(median_s, "median_s", "s", "%.6f", IPX_RF_CSV),
	D(max_s, "max_s", "s", "%.6f", IPX_RF_CSV),
	D(t_s, "t_s", "s", "%.1f", IPX_RF_CSV),
	D(cpu_pct, "cpu_pct", "%", "%.2f", IPX_RF_CSV),
	D(cpu_base_pct, "cpu_baseline_pct", "%", "%.2f", IPX_RF_CSV),
	D(cpu_peak_pct, "cpu_peak_pct", "%", "%.2f", IPX_RF_CSV),
	D(rank, "rank", "", "%.0f", IPX_RF_CSV),
};
static const struct ipx_rtable row_table = IPX_RTABLE("retrieval", row_fields);

static void row_init(const struct ipx_b8_report *rep, unsigned k,
		     struct b8_row *r)
{
	const struct ipx_b8_config *c = ipx_b8_config(k);

	r->config = c->name;
	r->note = c->note;
	r->status = ipx_b8_status_name(rep->r[k].status);
	r->files = r->time_s = r->first_s = r->lag_s = NAN;
	r->min_s = r->median_s = r->max_s = NAN;
	r->t_s = r->cpu_pct = r->cpu_base_pct = r->cpu_peak_pct = NAN;
	r->rank = NAN;
	r->row = "all";
}

static void row_ws(const struct ipx_b8_report *rep, unsigned k, unsigned i,
		   char *who, size_t len, struct b8_row *r)
{
	const struct ipx_b8_ws *w = &rep->r[k].ws[i];

	row_init(rep, k, r);
	snprintf(who, len, "%u", i + 1);
	r->row = who;
	r->files = (double)w->files;
	r->time_s = w->done_s;
	r->first_s = w->first_s;
}

static void row_all(const struct ipx_b8_report *rep, unsigned k,
		    struct b8_row *r)
{
	const struct ipx_b8_result *x = &rep->r[k];

	row_init(rep, k, r);
	if (x->status != IPX_B8_MEASURED)
		return;
	r->files = 0;
	for (unsigned i = 0; i < rep->o.stations; i++)
		r->files += (double)x->ws[i].files;
	r->time_s = x->total_s;
	r->lag_s = x->lag_s;
	r->min_s = x->min_s;
	r->median_s = x->median_s;
	r->max_s = x->max_s;
	if (x->cpu_measured) {
		r->cpu_base_pct = x->cpu_base;
		r->cpu_peak_pct = x->cpu_peak;
	}
	r->rank = ipx_b8_place(rep, k);
}

void ipx_b8_write_csv(FILE *out, const struct ipx_b8_report *rep)
{
	struct b8_row r;
	char who[16];

	ipx_res_csv_header(out, &row_table);
	for (unsigned k = 0; k < IPX_B8_CONFIGS; k++) {
		const struct ipx_b8_result *x = &rep->r[k];

		if (!rep->o.only[k] || x->status == IPX_B8_NOT_RUN)
			continue;
		row_all(rep, k, &r);
		ipx_res_csv_row(out, &row_table, &r);
		if (x->status != IPX_B8_MEASURED)
			continue;
		for (unsigned i = 0; i < rep->o.stations; i++) {
			row_ws(rep, k, i, who, sizeof(who), &r);
			ipx_res_csv_row(out, &row_table, &r);
		}
		for (size_t j = 0; j < x->ncpu; j++) {
			row_init(rep, k, &r);
			r.row = "cpu";
			r.t_s = (double)(j + 1) * IPX_CPU_INTERVAL / IPX_SEC;
			r.cpu_pct = x->cpu[j];
			ipx_res_csv_row(out, &row_table, &r);
		}
	}
}

static void json_cpu(struct ipx_jw *w, const struct ipx_b8_result *x)
{
	ipx_jw_obj(w, "server_cpu");
	ipx_jw_bool(w, "measured", x->cpu_measured);
	if (x->cpu_measured) {
		ipx_jw_dbl(w, "interval_s", "%.1f",
			   (double)IPX_CPU_INTERVAL / IPX_SEC);
		ipx_jw_dbl(w, "baseline_pct", "%.2f", x->cpu_base);
		ipx_jw_dbl(w, "peak_pct", "%.2f", x->cpu_peak);
		ipx_jw_u64(w, "samples_not_kept", x->cpu_dropped);
		ipx_jw_arr(w, "series_pct");
		for (size_t j = 0; j < x->ncpu; j++)
			ipx_jw_dbl(w, NULL, "%.2f", x->cpu[j]);
		ipx_jw_end(w);
	}
	ipx_jw_end(w);
}

static void json_config(struct ipx_jw *w, const struct ipx_b8_report *rep,
			unsigned k)
{
	const struct ipx_b8_config *c = ipx_b8_config(k);
	const struct ipx_b8_result *x = &rep->r[k];
	struct b8_row r;
	char who[16];

	ipx_jw_obj(w, NULL);
	ipx_jw_str(w, "name", c->name);
	ipx_jw_str(w, "client", c->burst ? "packet burst"
					 : "one request at a time");
	ipx_jw_str(w, "driver", c->single_frame ? "one frame per system call"
						: "batched system calls");
	ipx_jw_str(w, "note_setup", c->note);
	ipx_jw_u64(w, "note_rank", c->note_rank);
	if (rep->period[k][0])
		ipx_jw_str(w, "period", rep->period[k]);
	ipx_jw_str(w, "status", ipx_b8_status_name(x->status));
	if (x->status != IPX_B8_MEASURED) {
		ipx_jw_end(w);
		return;
	}
	ipx_jw_u64(w, "rank", ipx_b8_place(rep, k));
	ipx_jw_u64(w, "buffer_granted_bytes", x->granted);
	ipx_jw_dbl(w, "total_s", "%.6f", x->total_s);
	ipx_jw_dbl(w, "initial_lag_s", "%.6f", x->lag_s);
	ipx_jw_dbl(w, "completion_min_s", "%.6f", x->min_s);
	ipx_jw_dbl(w, "completion_median_s", "%.6f", x->median_s);
	ipx_jw_dbl(w, "completion_max_s", "%.6f", x->max_s);
	ipx_jw_u64(w, "image_bytes", x->image_bytes);
	ipx_jw_dbl(w, "images_kB_per_s", "%.3f",
		   x->total_s > 0 ? (double)x->image_bytes / 1000.0 / x->total_s
				  : NAN);
	ipx_jw_arr(w, "per_workstation");
	for (unsigned i = 0; i < rep->o.stations; i++) {
		row_ws(rep, k, i, who, sizeof(who), &r);
		ipx_res_json_row(w, NULL, &row_table, &r);
	}
	ipx_jw_end(w);
	json_cpu(w, x);
	ipx_jw_end(w);
}

static void json_published(struct ipx_jw *w)
{
	static const char *const order[] = { "32/32", "32/16", "16/16",
					     "16/32" };

	ipx_jw_obj(w, "published");
	ipx_jw_arr(w, "ranking_total_time");
	for (unsigned i = 0; i < 4; i++)
		ipx_jw_str(w, NULL, order[i]);
	ipx_jw_end(w);
	ipx_jw_dbl(w, "straight_cpu_baseline_pct_about", "%.0f",
		   IPX_B8_PUBLISHED_STRAIGHT_PCT);
	ipx_jw_dbl(w, "hybrid_cpu_baseline_pct_about", "%.0f",
		   IPX_B8_PUBLISHED_HYBRID_PCT);
	ipx_jw_u64(w, "stations", IPX_B8_STATIONS);
	ipx_jw_end(w);
}

void ipx_b8_write_json(FILE *out, const struct ipx_b8_report *rep,
		       ipx_bfs_conditions_fn cond, const void *ctx)
{
	struct ipx_jw w;

	ipx_jw_init(&w, out);
	ipx_jw_obj(&w, NULL);
	ipx_jw_str(&w, "benchmark", "retrieval");
	ipx_jw_obj(&w, "conditions");
	if (cond)
		cond(&w, ctx);
	ipx_jw_u64(&w, "stations", rep->o.stations);
	ipx_jw_u64(&w, "files_per_station", rep->o.files);
	ipx_jw_str(&w, "server_cpu_source", ipx_b8_cpu_source(rep));
	ipx_jw_end(&w);
	json_published(&w);
	ipx_jw_arr(&w, "configurations");
	for (unsigned k = 0; k < IPX_B8_CONFIGS; k++)
		if (rep->o.only[k])
			json_config(&w, rep, k);
	ipx_jw_end(&w);
	if (rep->fidelity) {	/* --period */
		ipx_fid_write_json(&w, "fidelity", rep->fidelity);
		if (rep->order_checked)
			ipx_jw_bool(&w, "note_order_match", rep->order_match);
		else
			ipx_jw_null(&w, "note_order_match");
	}
	if (rep->interrupted)
		ipx_jw_bool(&w, "complete", false);
	ipx_jw_finish(&w);
}
