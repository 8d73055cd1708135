/*
 * b4_perftest.c - B4, the 1990 performance test (bench_fs.h): every
 * workstation writes 4,096-byte records over one another (one offset) to
 * its own file for a time, --repeat times; kB/s of data as the user sees
 * it. The report's JSON and CSV come from one row description.
 */
#include <string.h>

#include "ipxlab/bench_fs.h"
#include "ipxlab/err.h"

static const struct ipx_rfield rec_fields[] = {
	IPX_RF(struct ipx_b4_rec, repeat, "repeat", "", NULL, IPX_RF_UINT,
	       IPX_RF_CSV),
	IPX_RF(struct ipx_b4_rec, station, "station", "", NULL, IPX_RF_UINT,
	       IPX_RF_CSV),
	IPX_RF(struct ipx_b4_rec, records, "records", "records", NULL,
	       IPX_RF_U64, IPX_RF_BOTH),
	IPX_RF(struct ipx_b4_rec, seconds, "seconds", "s", "%.6f",
	       IPX_RF_DOUBLE, IPX_RF_BOTH),
	IPX_RF(struct ipx_b4_rec, kB_per_s, "kB_per_s", "kB/s", "%.3f",
	       IPX_RF_DOUBLE, IPX_RF_BOTH),
};
const struct ipx_rtable ipx_b4_rec_table = IPX_RTABLE("run", rec_fields);

int ipx_b4_run(const struct ipx_b4_opts *o, ipx_bench_progress_fn progress,
	       void *ctx, struct ipx_b4_report *rep, char *err, size_t errlen)
{
	struct ipx_bw_result r[IPX_BN_MAX_STATIONS];
	char line[120];

	memset(rep, 0, sizeof(*rep));
	rep->o = *o;
	if (o->stations < 1 || o->stations > IPX_BN_MAX_STATIONS ||
	    o->repeat < 1 || o->repeat > IPX_BFS_MAX_REPEAT) {
		snprintf(err, errlen, "perftest: 1 to %d workstations and 1 to "
				      "%d repeats",
			 IPX_BN_MAX_STATIONS, IPX_BFS_MAX_REPEAT);
		return IPX_EINVAL;
	}
	for (unsigned k = 0; k < o->repeat; k++) {
		if (progress) {
			snprintf(line, sizeof(line),
				 "perftest: %u workstation%s, %.1f s, run %u/%u",
				 o->stations, o->stations == 1 ? "" : "s",
				 o->seconds, k + 1, o->repeat);
			progress(ctx, line);
		}
		if (ipx_bn_run(o->net.ctl, o->net.ro, IPX_BN_PERFTEST,
			       o->stations, o->seconds, 0, o->record,
			       (uint16_t)(k + 1), r, err, errlen) != IPX_OK) {
			if (progress)
				progress(ctx, NULL);
			return IPX_EIO;
		}
		for (unsigned i = 0; i < o->stations; i++) {
			struct ipx_b4_rec *x = &rep->r[k][i];

			x->repeat = k + 1;
			x->station = i + 1;
			x->records = r[i].sent;
			x->seconds = r[i].seconds;
			x->kB_per_s = r[i].seconds > 0
					      ? r[i].sent * (double)o->record /
							1000 / r[i].seconds
					      : 0;
		}
		rep->done = k + 1;
	}
	if (progress)
		progress(ctx, NULL);
	return IPX_OK;
}

void ipx_b4_interrupted(struct ipx_b4_report *rep)
{
	rep->o.repeat = rep->done;
	rep->interrupted = true;
}

double ipx_b4_total(const struct ipx_b4_report *rep, unsigned k)
{
	double t = 0;

	for (unsigned i = 0; i < rep->o.stations; i++)
		t += rep->r[k][i].kB_per_s;
	return t;
}

void ipx_b4_spread(const struct ipx_b4_report *rep, unsigned i,
		   struct ipx_stat_summary *out)
{
	double v[IPX_BFS_MAX_REPEAT];

	for (unsigned k = 0; k < rep->o.repeat; k++)
		v[k] = i < rep->o.stations ? rep->r[k][i].kB_per_s
					   : ipx_b4_total(rep, k);
	ipx_stat_summarize(v, rep->o.repeat, out);
}

void ipx_b4_write_csv(FILE *out, const struct ipx_b4_report *rep)
{
	ipx_res_csv_header(out, &ipx_b4_rec_table);
	for (unsigned k = 0; k < rep->o.repeat; k++)
		for (unsigned i = 0; i < rep->o.stations; i++)
			ipx_res_csv_row(out, &ipx_b4_rec_table, &rep->r[k][i]);
}

void ipx_b4_write_json(FILE *out, const struct ipx_b4_report *rep,
		       ipx_bfs_conditions_fn cond, const void *ctx)
{
	const struct ipx_b4_opts *o = &rep->o;
	struct ipx_stat_summary y;
	struct ipx_jw w;

	ipx_jw_init(&w, out);
	ipx_jw_obj(&w, NULL);
	ipx_jw_str(&w, "benchmark", "perftest");
	ipx_jw_obj(&w, "conditions");
	if (cond)
		cond(&w, ctx);
	ipx_jw_dbl(&w, "seconds", "%.3f", o->seconds);
	ipx_jw_u64(&w, "record", o->record);
	ipx_jw_u64(&w, "repeat", o->repeat);
	ipx_jw_end(&w);
	ipx_jw_arr(&w, "runs");
	for (unsigned k = 0; k < o->repeat; k++) {
		ipx_jw_obj(&w, NULL);
		ipx_jw_arr(&w, "per_workstation");
		for (unsigned i = 0; i < o->stations; i++)
			ipx_res_json_row(&w, NULL, &ipx_b4_rec_table,
					 &rep->r[k][i]);
		ipx_jw_end(&w);
		ipx_jw_dbl(&w, "total_kB_per_s", "%.3f", ipx_b4_total(rep, k));
		ipx_jw_end(&w);
	}
	ipx_jw_end(&w);
	ipx_jw_arr(&w, "per_workstation");
	for (unsigned i = 0; i < o->stations; i++) {
		ipx_b4_spread(rep, i, &y);
		ipx_jw_obj(&w, NULL);
		ipx_jw_u64(&w, "records", rep->r[0][i].records);
		ipx_jw_dbl(&w, "seconds", "%.6f", rep->r[0][i].seconds);
		ipx_jw_dbl(&w, "kB_per_s", "%.3f", y.median);
		ipx_jw_dbl(&w, "kB_per_s_min", "%.3f", y.min);
		ipx_jw_dbl(&w, "kB_per_s_max", "%.3f", y.max);
		ipx_jw_end(&w);
	}
	ipx_jw_end(&w);
	ipx_b4_spread(rep, o->stations, &y);
	ipx_jw_dbl(&w, "total_kB_per_s", "%.3f", y.median);
	ipx_jw_dbl(&w, "total_kB_per_s_min", "%.3f", y.min);
	ipx_jw_dbl(&w, "total_kB_per_s_max", "%.3f", y.max);
	if (rep->interrupted)
		ipx_jw_bool(&w, "complete", false);
	ipx_jw_finish(&w);
}
