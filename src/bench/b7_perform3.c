/*
 * b7_perform3.c - B7, throughput against block size (bench_b7.h): the
 * four configurations, each size a run of the perform3 workload on every
 * workstation at once (ipx_bn_run: PREPARE all, then GO), the totals,
 * averages and peaks, and the JSON and CSV from one row description.
 */
#include <math.h>
#include <string.h>

#include "ipxlab/bench_b7.h"
#include "ipxlab/err.h"

static const struct ipx_b7_config configs[IPX_B7_CONFIGS] = {
	{ "request/default", false, IPX_B7_DEFAULT_BUFFER },
	{ "request/tuned", false, IPX_B7_TUNED_BUFFER },
	{ "burst/default", true, IPX_B7_DEFAULT_BUFFER },
	{ "burst/tuned", true, IPX_B7_TUNED_BUFFER },
};

uint32_t ipx_b7_block(unsigned s)
{
	return IPX_B7_LARGEST - IPX_B7_STEP * s;
}

const struct ipx_b7_config *ipx_b7_config(unsigned k)
{
	return k < IPX_B7_CONFIGS ? &configs[k] : NULL;
}

const char *ipx_b7_status_name(enum ipx_b7_status st)
{
	switch (st) {
	case IPX_B7_MEASURED:
		return "measured";
	case IPX_B7_NO_BURST:
		return "burst not offered";
	default:
		return "not run";
	}
}

/* Size s of configuration k from the run's results: false when burst
 * was asked for and not granted (then nothing is kept). */
static bool keep(struct ipx_b7_report *rep, unsigned k, unsigned s,
		 const struct ipx_bw_result *res)
{
	struct ipx_b7_result *x = &rep->r[k];
	uint32_t block = ipx_b7_block(s);

	for (unsigned i = 0; i < rep->o.stations; i++)
		if (configs[k].burst && !res[i].ncp_burst)
			return false;
	x->granted = res[0].ncp_buffer;
	/* Every workstation's rate over one window, GO to the last one's
	 * last completion (they start together): so their sum, the total,
	 * is what the link carried then. Over each one's own time the sum
	 * could pass the wire when their times do not overlap (a burst
	 * workstation done early while another's last block waits). */
	double span = 0;

	for (unsigned i = 0; i < rep->o.stations; i++)
		if (res[i].seconds > span)
			span = res[i].seconds;
	for (unsigned i = 0; i < rep->o.stations; i++) {
		struct ipx_b7_cell *c = &x->c[s][i];

		c->blocks = res[i].sent;
		c->time_s = res[i].seconds;
		c->kB_per_s = span > 0 ? (double)res[i].sent * block /
						 1000.0 / span
				       : 0;
	}
	x->sizes_done = s + 1;
	return true;
}

static int run_config(const struct ipx_b7_opts *o, unsigned k,
		      ipx_bench_progress_fn progress, void *ctx,
		      struct ipx_b7_report *rep, uint16_t *runs, char *err,
		      size_t errlen)
{
	struct ipx_bw_result res[IPX_BN_MAX_STATIONS];
	struct ipx_bn_run_opts ro = *o->net.ro;
	char line[128];

	ro.ncp_buffer = configs[k].buffer;
	ro.ncp_no_burst = !configs[k].burst;
	for (unsigned s = 0; s < IPX_B7_SIZES; s++) {
		if (progress) {
			snprintf(line, sizeof(line),
				 "perform3: %s, %u-byte %s, %u workstation%s, "
				 "%.1f s (%u/%u)",
				 configs[k].name, ipx_b7_block(s),
				 o->write ? "writes" : "reads", o->stations,
				 o->stations == 1 ? "" : "s", o->seconds,
				 s + 1, IPX_B7_SIZES);
			progress(ctx, line);
		}
		if (ipx_bn_run(o->net.ctl, &ro,
			       o->write ? IPX_BN_P3_WRITE : IPX_BN_P3_READ,
			       o->stations, o->seconds, 0, ipx_b7_block(s),
			       ++*runs, res, err, errlen) != IPX_OK)
			return IPX_EIO;
		if (!keep(rep, k, s, res)) {
			rep->r[k].status = IPX_B7_NO_BURST;
			return IPX_OK;
		}
		rep->r[k].status = IPX_B7_MEASURED;
	}
	return IPX_OK;
}

int ipx_b7_run(const struct ipx_b7_opts *o, ipx_bench_progress_fn progress,
	       void *ctx, struct ipx_b7_report *rep, char *err, size_t errlen)
{
	uint16_t runs = 0;
	int rc = IPX_OK;

	memset(rep, 0, sizeof(*rep));
	rep->o = *o;
	if (o->stations < 1 || o->stations > IPX_BN_MAX_STATIONS ||
	    !(o->seconds > 0) || !o->net.ctl || !o->net.ro) {
		snprintf(err, errlen, "perform3: 1 to %d workstations, a "
				      "time per size and a network",
			 IPX_BN_MAX_STATIONS);
		return IPX_EINVAL;
	}
	for (unsigned k = 0; k < IPX_B7_CONFIGS && rc == IPX_OK; k++)
		if (o->only[k])
			rc = run_config(o, k, progress, ctx, rep, &runs, err,
					errlen);
	if (progress)
		progress(ctx, NULL);
	return rc;
}

void ipx_b7_interrupted(struct ipx_b7_report *rep)
{
	rep->interrupted = true;
}

double ipx_b7_total(const struct ipx_b7_report *rep, unsigned k, unsigned s)
{
	double t = 0;

	for (unsigned i = 0; i < rep->o.stations; i++)
		t += rep->r[k].c[s][i].kB_per_s;
	return t;
}

void ipx_b7_summary(const struct ipx_b7_report *rep, unsigned k,
		    double *average, double *peak, uint32_t *peak_block)
{
	const struct ipx_b7_result *x = &rep->r[k];
	double sum = 0, top = -1;

	*peak_block = 0;
	for (unsigned s = 0; s < x->sizes_done; s++) {
		double t = ipx_b7_total(rep, k, s);

		sum += t;
		if (t > top) {
			top = t;
			*peak_block = ipx_b7_block(s);
		}
	}
	*average = x->sizes_done ? sum / x->sizes_done : NAN;
	*peak = x->sizes_done ? top : NAN;
}

double ipx_b7_station_average(const struct ipx_b7_report *rep, unsigned k,
			      unsigned i)
{
	const struct ipx_b7_result *x = &rep->r[k];
	double sum = 0;

	for (unsigned s = 0; s < x->sizes_done; s++)
		sum += x->c[s][i].kB_per_s;
	return x->sizes_done ? sum / x->sizes_done : NAN;
}

/* ---- the writers ---- */

/* One CSV line: a workstation (or "total") at one size of one
 * configuration, or a configuration not measured (its status, no
 * figures: the numbers are doubles so that NAN leaves their cells
 * empty). */
struct b7_row {
	const char *config, *status, *station;
	double buffer_bytes, block_bytes, blocks, time_s, kB_per_s;
};

static const struct ipx_rfield row_fields[] = {
	IPX_RF(struct b7_row, config, "config", "", NULL, IPX_RF_STR,
	       IPX_RF_CSV),
	IPX_RF(struct b7_row, status, "status", "", NULL, IPX_RF_STR,
	       IPX_RF_CSV),
	IPX_RF(struct b7_row, buffer_bytes, "buffer_bytes", "bytes", "%.0f",
	       IPX_RF_DOUBLE, IPX_RF_CSV),
	IPX_RF(struct b7_row, block_bytes, "block_bytes", "bytes", "%.0f",
	       IPX_RF_DOUBLE, IPX_RF_CSV),
	IPX_RF(struct b7_row, station, "station", "", NULL, IPX_RF_STR,
	       IPX_RF_BOTH),
	IPX_RF(struct b7_row, blocks, "blocks", "blocks", "%.0f",
	       IPX_RF_DOUBLE, IPX_RF_BOTH),
	IPX_RF(struct b7_row, time_s, "time_s", "s", "%.6f", IPX_RF_DOUBLE,
	       IPX_RF_BOTH),
	IPX_RF(struct b7_row, kB_per_s, "kB_per_s", "kB/s", "%.3f",
	       IPX_RF_DOUBLE, IPX_RF_BOTH),
};
static const struct ipx_rtable row_table = IPX_RTABLE("perform3", row_fields);

static void fill_row(const struct ipx_b7_report *rep, unsigned k,
		     unsigned s, unsigned i, char *who, size_t len,
		     struct b7_row *row)
{
	const struct ipx_b7_result *x = &rep->r[k];

	memset(row, 0, sizeof(*row));
	row->config = configs[k].name;
	row->status = ipx_b7_status_name(x->status);
	row->buffer_bytes = x->granted;
	row->block_bytes = ipx_b7_block(s);
	row->station = who;
	if (i < rep->o.stations) {
		snprintf(who, len, "%u", i + 1);
		row->blocks = (double)x->c[s][i].blocks;
		row->time_s = x->c[s][i].time_s;
		row->kB_per_s = x->c[s][i].kB_per_s;
		return;
	}
	snprintf(who, len, "total");
	row->time_s = 0;
	for (unsigned j = 0; j < rep->o.stations; j++) {
		row->blocks += (double)x->c[s][j].blocks;
		if (x->c[s][j].time_s > row->time_s)
			row->time_s = x->c[s][j].time_s;
	}
	row->kB_per_s = ipx_b7_total(rep, k, s);
}

void ipx_b7_write_csv(FILE *out, const struct ipx_b7_report *rep)
{
	struct b7_row row;
	char who[16];

	ipx_res_csv_header(out, &row_table);
	for (unsigned k = 0; k < IPX_B7_CONFIGS; k++) {
		const struct ipx_b7_result *x = &rep->r[k];

		if (x->status == IPX_B7_NO_BURST) {
			memset(&row, 0, sizeof(row));
			row.config = configs[k].name;
			row.status = ipx_b7_status_name(x->status);
			row.buffer_bytes = row.block_bytes = row.blocks = NAN;
			row.time_s = row.kB_per_s = NAN;
			ipx_res_csv_row(out, &row_table, &row);
			continue;
		}
		for (unsigned s = 0; s < x->sizes_done; s++)
			for (unsigned i = 0; i <= rep->o.stations; i++) {
				fill_row(rep, k, s, i, who, sizeof(who),
					 &row);
				ipx_res_csv_row(out, &row_table, &row);
			}
	}
}

static void json_sizes(struct ipx_jw *w, const struct ipx_b7_report *rep,
		       unsigned k)
{
	struct b7_row row;
	char who[16];

	ipx_jw_arr(w, "sizes");
	for (unsigned s = 0; s < rep->r[k].sizes_done; s++) {
		ipx_jw_obj(w, NULL);
		ipx_jw_u64(w, "block_bytes", ipx_b7_block(s));
		ipx_jw_arr(w, "per_workstation");
		for (unsigned i = 0; i < rep->o.stations; i++) {
			fill_row(rep, k, s, i, who, sizeof(who), &row);
			ipx_res_json_row(w, NULL, &row_table, &row);
		}
		ipx_jw_end(w);
		ipx_jw_dbl(w, "total_kB_per_s", "%.3f",
			   ipx_b7_total(rep, k, s));
		ipx_jw_end(w);
	}
	ipx_jw_end(w);
}

static void json_config(struct ipx_jw *w, const struct ipx_b7_report *rep,
			unsigned k)
{
	const struct ipx_b7_result *x = &rep->r[k];
	double avg, peak;
	uint32_t at;

	ipx_jw_obj(w, NULL);
	ipx_jw_str(w, "name", configs[k].name);
	ipx_jw_str(w, "requests", configs[k].burst ? "packet burst"
						   : "one at a time");
	ipx_jw_u64(w, "buffer_asked_bytes", configs[k].buffer);
	ipx_jw_str(w, "status", ipx_b7_status_name(x->status));
	if (x->status != IPX_B7_MEASURED) {
		ipx_jw_end(w);
		return;
	}
	ipx_jw_u64(w, "buffer_granted_bytes", x->granted);
	ipx_jw_u64(w, "sizes_measured", x->sizes_done);
	json_sizes(w, rep, k);
	ipx_jw_arr(w, "average_per_workstation_kB_per_s");
	for (unsigned i = 0; i < rep->o.stations; i++)
		ipx_jw_dbl(w, NULL, "%.3f", ipx_b7_station_average(rep, k, i));
	ipx_jw_end(w);
	ipx_b7_summary(rep, k, &avg, &peak, &at);
	ipx_jw_dbl(w, "average_total_kB_per_s", "%.3f", avg);
	ipx_jw_dbl(w, "peak_total_kB_per_s", "%.3f", peak);
	ipx_jw_u64(w, "peak_block_bytes", at);
	ipx_jw_end(w);
}

void ipx_b7_write_json(FILE *out, const struct ipx_b7_report *rep,
		       ipx_bfs_conditions_fn cond, const void *ctx)
{
	const struct ipx_b7_opts *o = &rep->o;
	struct ipx_jw w;

	ipx_jw_init(&w, out);
	ipx_jw_obj(&w, NULL);
	ipx_jw_str(&w, "benchmark", "perform3");
	ipx_jw_obj(&w, "conditions");
	if (cond)
		cond(&w, ctx);
	ipx_jw_u64(&w, "stations", o->stations);
	ipx_jw_str(&w, "operation", o->write ? "write" : "read");
	ipx_jw_dbl(&w, "seconds_per_size", "%.3f", o->seconds);
	ipx_jw_end(&w);
	ipx_jw_obj(&w, "published");
	ipx_jw_dbl(&w, "best_average_kbyte_per_s", "%.0f",
		   IPX_B7_PUBLISHED_AVERAGE);
	ipx_jw_dbl(&w, "best_peak_kbyte_per_s", "%.0f",
		   IPX_B7_PUBLISHED_PEAK);
	ipx_jw_dbl(&w, "ceiling_MB_per_s", "%.2f", IPX_B7_CEILING_MB_PER_S);
	ipx_jw_end(&w);
	ipx_jw_arr(&w, "configurations");
	for (unsigned k = 0; k < IPX_B7_CONFIGS; k++)
		if (o->only[k])
			json_config(&w, rep, k);
	ipx_jw_end(&w);
	if (rep->have_fidelity) {
		ipx_jw_str(&w, "best_configuration",
			   rep->best >= 0 ? configs[rep->best].name : NULL);
		ipx_jw_str(&w, "today_best_configuration",
			   rep->today_best >= 0 ? configs[rep->today_best].name
						: NULL);
		ipx_fid_write_json(&w, "fidelity", &rep->fid);
	}
	if (rep->interrupted)
		ipx_jw_bool(&w, "complete", false);
	ipx_jw_finish(&w);
}
