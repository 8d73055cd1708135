/*
 * b7_fidelity.c - B7 beside the bulletin on a period's machines
 * (bench_b7.h, docs/fidelity.md): the best configuration of a run, the
 * same run again without the period ("today", the wire alone), and the
 * fidelity table of the bulletin's best average and peak total, as text.
 */
#include <math.h>
#include <string.h>

#include "ipxlab/bench_b7.h"
#include "ipxlab/err.h"

int ipx_b7_best(const struct ipx_b7_report *rep)
{
	int best = -1;
	double top = -1;

	for (unsigned k = 0; k < IPX_B7_CONFIGS; k++) {
		double avg, peak;
		uint32_t at;

		if (rep->r[k].status != IPX_B7_MEASURED)
			continue;
		ipx_b7_summary(rep, k, &avg, &peak, &at);
		if (avg > top) {
			top = avg;
			best = (int)k;
		}
	}
	return best;
}

int ipx_b7_run_today(const struct ipx_fsnet_opts *net,
		     const struct ipx_b7_opts *o,
		     ipx_bench_progress_fn progress, void *ctx,
		     struct ipx_b7_report *today, char *err, size_t errlen)
{
	struct ipx_fsnet n;
	struct ipx_b7_opts to = *o;
	int rc;

	memset(&n, 0, sizeof(n));
	n.o = *net;
	n.o.period = NULL;
	rc = ipx_fsnet_start(&n, err, errlen);
	if (rc == IPX_OK) {
		ipx_fsnet_bfs(&n, &to.net);
		rc = ipx_b7_run(&to, progress, ctx, today, err, errlen);
	}
	ipx_fsnet_stop(&n, rc == IPX_OK);
	return rc;
}

static void best_figures(const struct ipx_b7_report *rep, int k,
			 double *avg, double *peak)
{
	uint32_t at;

	*avg = *peak = NAN;
	if (rep && k >= 0)
		ipx_b7_summary(rep, (unsigned)k, avg, peak, &at);
}

void ipx_b7_fidelity(struct ipx_b7_report *rep,
		     const struct ipx_b7_report *today, const char *period,
		     const char *today_what)
{
	double mavg, mpeak, tavg, tpeak;
	/* the bulletin's figures are its best set-up's: any other period
	 * (8-bit adapters, the defaults) is a prediction beside none */
	bool ref = period && !strcmp(period, IPX_B7_PERIOD);

	rep->best = ipx_b7_best(rep);
	rep->today_best = today ? ipx_b7_best(today) : -1;
	best_figures(rep, rep->best, &mavg, &mpeak);
	best_figures(today, rep->today_best, &tavg, &tpeak);
	ipx_fid_init(&rep->fid,
		     ref ? "B7: throughput in all, the best configuration"
			 : "B7: throughput in all, the best configuration "
			   "(a prediction: no 1990 figure)",
		     "kB/s", period);
	snprintf(rep->fid.today_what, sizeof(rep->fid.today_what), "%s",
		 today && today_what ? today_what : "");
	ipx_fid_add(&rep->fid, "average over the 16 sizes",
		    ref ? IPX_B7_PUBLISHED_AVERAGE : NAN, mavg, tavg);
	ipx_fid_add(&rep->fid, "peak", ref ? IPX_B7_PUBLISHED_PEAK : NAN,
		    mpeak, tpeak);
	rep->have_fidelity = true;
}

void ipx_b7_write_fidelity(FILE *out, const struct ipx_b7_report *rep,
			   const struct ipx_b7_report *today)
{
	fprintf(out, "\n# today (%s), for the fidelity table:\n",
		rep->fid.today_what);
	for (unsigned k = 0; today && k < IPX_B7_CONFIGS; k++) {
		double avg, peak;
		uint32_t at;

		if (today->r[k].status != IPX_B7_MEASURED)
			continue;
		ipx_b7_summary(today, k, &avg, &peak, &at);
		fprintf(out, "#   %-16s average %.1f, peak %.1f kB/s at %u "
			     "bytes\n",
			ipx_b7_config(k)->name, avg, peak, at);
	}
	fprintf(out, "# best configuration: %s on the period's machines, %s "
		     "today\n\n",
		rep->best >= 0 ? ipx_b7_config((unsigned)rep->best)->name
			       : "none",
		rep->today_best >= 0
			? ipx_b7_config((unsigned)rep->today_best)->name
			: "none");
	ipx_fid_print(out, &rep->fid);
}
