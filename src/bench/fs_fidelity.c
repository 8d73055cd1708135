/*
 * fs_fidelity.c - the fidelity tables of B2 and B3 (bench_fs.h,
 * bench_fidelity.h): the 1990 note's figures (one workstation's peak
 * Kbyte/s per battery test; the copy's average seconds per size, local
 * network or bridged) beside a --period run's and a --sim run's (the
 * wire alone) of the same tests.
 */
#include <math.h>
#include <stdio.h>

#include "ipxlab/bench_fs.h"
#include "ipxlab/err.h"

/* The first set of one workstation, or -1. */
static int one_station_set(const struct ipx_b2_report *rep)
{
	for (size_t s = 0; rep && s < rep->o.nsets; s++)
		if (rep->o.sets[s] == 1)
			return (int)s;
	return -1;
}

/* Test op's peak kB/s with one workstation, NaN when not measured. */
static double b2_peak(const struct ipx_b2_report *rep, int op)
{
	int s = one_station_set(rep);
	struct ipx_b2_rows r;

	if (s < 0 || !ipx_b2_shown(rep, (size_t)s, op))
		return NAN;
	ipx_b2_summarize_repeats(rep, (size_t)s, op, &r);
	return r.wire ? r.peak.median : NAN;
}

int ipx_b2_fidelity(const struct ipx_b2_report *model,
		    const struct ipx_b2_report *today, bool bridged,
		    const char *period, struct ipx_fid_table *t)
{
	ipx_fid_init(t, bridged ? "B2 bridged: peak Kbyte/s on the wire, one "
				  "workstation"
				: "B2 local: peak Kbyte/s on the wire, one "
				  "workstation",
		     "KB/s", period);
	if (today)
		snprintf(t->today_what, sizeof(t->today_what),
			 "the wire alone (--sim), the same tests");
	for (int op = 0; op < IPX_BN_BATTERY_OPS; op++) {
		double l, b, m = b2_peak(model, op);

		if (!isfinite(m))
			continue;
		ipx_bn_published_kbs(op, &l, &b);
		if (ipx_fid_add(t, ipx_bn_op_title(op), bridged ? b : l, m,
				today ? b2_peak(today, op) : NAN) != IPX_OK)
			return IPX_ERANGE;
	}
	return IPX_OK;
}

int ipx_b3_fidelity(const struct ipx_b3_report *model,
		    const struct ipx_b3_report *today, bool bridged,
		    const char *period, struct ipx_fid_table *t)
{
	char label[48];

	ipx_fid_init(t, bridged ? "B3 bridged: file copy, average seconds"
				: "B3 local: file copy, average seconds",
		     "s", period);
	if (today)
		snprintf(t->today_what, sizeof(t->today_what),
			 "the wire alone (--sim), the same copies");
	for (int s = 0; s < model->sizes; s++) {
		const struct ipx_bn_copy_pub *p = &ipx_bn_copy_published[s];
		unsigned c = model->o.copies;

		snprintf(label, sizeof(label), "%u B", ipx_bn_copy_size[s]);
		if (ipx_fid_add(t, label, bridged ? p->bridged_avg : p->local_avg,
				ipx_b3_median(model, s, c, NULL),
				today && s < today->sizes
					? ipx_b3_median(today, s,
							today->o.copies, NULL)
					: NAN) != IPX_OK)
			return IPX_ERANGE;
	}
	return IPX_OK;
}
