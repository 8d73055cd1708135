/*
 * b3_copy.c - B3, the 1990 file copy (bench_fs.h): seven file sizes
 * copied from the server to ws1's local disk, each a number of times in
 * a row, the series --repeat times; seconds per copy beside the note's.
 */
#include <string.h>

#include "ipxlab/bench_fs.h"
#include "ipxlab/err.h"

/* A copy's CSV row. */
struct copy_row {
	unsigned bytes, repeat, copy;
	double seconds;
};

static const struct ipx_rfield row_fields[] = {
	IPX_RF(struct copy_row, bytes, "bytes", "bytes", NULL, IPX_RF_UINT,
	       IPX_RF_CSV),
	IPX_RF(struct copy_row, repeat, "repeat", "", NULL, IPX_RF_UINT,
	       IPX_RF_CSV),
	IPX_RF(struct copy_row, copy, "copy", "", NULL, IPX_RF_UINT,
	       IPX_RF_CSV),
	IPX_RF(struct copy_row, seconds, "seconds", "s", "%.6f",
	       IPX_RF_DOUBLE, IPX_RF_CSV),
};
static const struct ipx_rtable row_table = IPX_RTABLE("copy", row_fields);

int ipx_b3_run(const struct ipx_b3_opts *o, ipx_bench_progress_fn progress,
	       void *ctx, struct ipx_b3_report *rep, char *err, size_t errlen)
{
	char line[120];
	int rc = IPX_OK;

	memset(rep, 0, sizeof(*rep));
	rep->o = *o;
	if (o->copies < 1 || o->copies > IPX_B3_MAX_COPIES || o->repeat < 1 ||
	    o->repeat > IPX_BFS_MAX_REPEAT) {
		snprintf(err, errlen, "copy: 1 to %d copies and 1 to %d "
				      "repeats",
			 IPX_B3_MAX_COPIES, IPX_BFS_MAX_REPEAT);
		return IPX_EINVAL;
	}
	rep->sizes = IPX_BN_COPY_SIZES;
	for (int s = 0; rc == IPX_OK && s < IPX_BN_COPY_SIZES; s++) {
		for (unsigned k = 0; rc == IPX_OK && k < o->repeat; k++)
			for (unsigned i = 0; rc == IPX_OK && i < o->copies;
			     i++) {
				struct ipx_bw_result r;

				if (progress) {
					snprintf(line, sizeof(line),
						 "copy: %u bytes, run %u/%u, "
						 "copy %u/%u",
						 ipx_bn_copy_size[s], k + 1,
						 o->repeat, i + 1, o->copies);
					progress(ctx, line);
				}
				rc = ipx_bn_run(o->net.ctl, o->net.ro,
						IPX_BN_COPY, 1, 0, 1,
						ipx_bn_copy_size[s],
						(uint16_t)i, &r, err, errlen);
				rep->t[k][s][i] = r.seconds;
			}
		if (rc == IPX_OK)
			rep->sizes_done = s + 1;
	}
	if (progress)
		progress(ctx, NULL);
	return rc == IPX_OK ? IPX_OK : IPX_EIO;
}

void ipx_b3_interrupted(struct ipx_b3_report *rep)
{
	rep->sizes = rep->sizes_done;
	rep->interrupted = true;
}

static double avg(const double *v, unsigned n)
{
	double s = 0;

	for (unsigned i = 0; i < n; i++)
		s += v[i];
	return n ? s / n : 0;
}

double ipx_b3_median(const struct ipx_b3_report *rep, int s, unsigned i,
		     struct ipx_stat_summary *avgs)
{
	const struct ipx_b3_opts *o = &rep->o;
	double v[IPX_BFS_MAX_REPEAT];

	for (unsigned k = 0; k < o->repeat; k++)
		v[k] = i < o->copies ? rep->t[k][s][i]
				     : avg(rep->t[k][s], o->copies);
	if (avgs)
		ipx_stat_summarize(v, o->repeat, avgs);
	return ipx_stat_median(v, o->repeat);
}

void ipx_b3_write_csv(FILE *out, const struct ipx_b3_report *rep)
{
	const struct ipx_b3_opts *o = &rep->o;

	ipx_res_csv_header(out, &row_table);
	for (int s = 0; s < rep->sizes; s++)
		for (unsigned k = 0; k < o->repeat; k++)
			for (unsigned i = 0; i < o->copies; i++) {
				struct copy_row r = { ipx_bn_copy_size[s],
						      k + 1, i + 1,
						      rep->t[k][s][i] };

				ipx_res_csv_row(out, &row_table, &r);
			}
}

/* The note's figures: "local": [a,b,c], "local_avg": x, the same bridged. */
static void published(struct ipx_jw *w, const struct ipx_bn_copy_pub *p)
{
	ipx_jw_obj(w, "published");
	ipx_jw_arr(w, "local");
	for (int j = 0; j < 3; j++)
		ipx_jw_dbl(w, NULL, "%.2f", p->local[j]);
	ipx_jw_end(w);
	ipx_jw_dbl(w, "local_avg", "%.2f", p->local_avg);
	ipx_jw_arr(w, "bridged");
	for (int j = 0; j < 3; j++)
		ipx_jw_dbl(w, NULL, "%.2f", p->bridged[j]);
	ipx_jw_end(w);
	ipx_jw_dbl(w, "bridged_avg", "%.2f", p->bridged_avg);
	ipx_jw_end(w);
}

void ipx_b3_write_json(FILE *out, const struct ipx_b3_report *rep,
		       ipx_bfs_conditions_fn cond, const void *ctx)
{
	const struct ipx_b3_opts *o = &rep->o;
	struct ipx_jw w;

	ipx_jw_init(&w, out);
	ipx_jw_obj(&w, NULL);
	ipx_jw_str(&w, "benchmark", "copy");
	ipx_jw_obj(&w, "conditions");
	if (cond)
		cond(&w, ctx);
	ipx_jw_u64(&w, "copies", o->copies);
	ipx_jw_u64(&w, "repeat", o->repeat);
	ipx_jw_end(&w);
	ipx_jw_arr(&w, "sizes");
	for (int s = 0; s < rep->sizes; s++) {
		struct ipx_stat_summary a;

		ipx_jw_obj(&w, NULL);
		ipx_jw_u64(&w, "bytes", ipx_bn_copy_size[s]);
		ipx_jw_arr(&w, "seconds");
		for (unsigned i = 0; i < o->copies; i++)
			ipx_jw_dbl(&w, NULL, "%.6f",
				   ipx_b3_median(rep, s, i, NULL));
		ipx_jw_end(&w);
		ipx_jw_arr(&w, "runs");
		for (unsigned k = 0; k < o->repeat; k++) {
			ipx_jw_obj(&w, NULL);
			ipx_jw_arr(&w, "seconds");
			for (unsigned i = 0; i < o->copies; i++)
				ipx_jw_dbl(&w, NULL, "%.6f", rep->t[k][s][i]);
			ipx_jw_end(&w);
			ipx_jw_dbl(&w, "average", "%.6f",
				   avg(rep->t[k][s], o->copies));
			ipx_jw_end(&w);
		}
		ipx_jw_end(&w);
		ipx_b3_median(rep, s, o->copies, &a);
		ipx_jw_dbl(&w, "average", "%.6f", a.median);
		ipx_jw_dbl(&w, "average_min", "%.6f", a.min);
		ipx_jw_dbl(&w, "average_max", "%.6f", a.max);
		published(&w, &ipx_bn_copy_published[s]);
		ipx_jw_end(&w);
	}
	ipx_jw_end(&w);
	if (rep->interrupted)
		ipx_jw_bool(&w, "complete", false);
	if (rep->fidelity)
		ipx_fid_write_json(&w, "fidelity", rep->fidelity);
	ipx_jw_finish(&w);
}
