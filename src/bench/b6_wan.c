/*
 * b6_wan.c - B6, the bridged network of 1990, as one run (bench_b6.h):
 * the battery on both sides, the limit search and the scaling curve,
 * each --repeat times with every run kept and the medians beside, over
 * the two networks the caller built.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bench_b6.h"
#include "ipxlab/err.h"

/* One run's state: what the progress line counts. */
struct run {
	const struct ipx_b6_opts *o;
	struct ipx_b6_report *rep;
	ipx_bench_progress_fn progress;
	void *ctx;
	unsigned done, total, k;	/* k: the repeat running, from 0 */
	const char *phase;	/* "scaling, bridged: " before the loop's */
};

static void progress(void *ctx, const char *what, unsigned k, unsigned n,
		     double secs)
{
	struct run *r = ctx;
	char line[256];
	int len;

	(void)k;
	(void)n;
	r->done++;
	if (!r->progress)
		return;
	len = snprintf(line, sizeof(line), "wan %u/%u: %s%s", r->done,
		       r->total, r->phase ? r->phase : "", what);
	if (r->o->repeat > 1 && len > 0 && (size_t)len < sizeof(line))
		len += snprintf(line + len, sizeof(line) - (size_t)len,
				", run %u of %u", r->k + 1, r->o->repeat);
	if (secs > 0 && len > 0 && (size_t)len < sizeof(line))
		snprintf(line + len, sizeof(line) - (size_t)len, ", %.1f s",
			 secs);
	r->progress(r->ctx, line);
}

unsigned ipx_b6_steps(const struct ipx_b6_opts *o)
{
	unsigned total = 0;

	for (int op = 0; op < IPX_BN_BATTERY_OPS; op++)
		total += (o->parts & IPX_B6_BATTERY) && o->only[op]
				 ? 2 * (unsigned)o->nsets
				 : 0;
	total += (o->parts & IPX_B6_LIMIT) ? (unsigned)o->lo.max_steps : 0;
	total += (o->parts & IPX_B6_SCALING) ? 2 * o->max_stations : 0;
	return total * o->repeat;
}

/* One battery test on one side, --repeat times: every run, the median. */
static int run_test(struct run *r, int side, size_t s, int op,
		    const char *what, struct ipx_bw_result *res, char *err,
		    size_t errlen)
{
	const struct ipx_b6_opts *o = r->o;
	struct ipx_bwan_point *runs = r->rep->bat_runs[side][s][op];
	double secs = ipx_bwan_test_seconds(o->seconds, op);
	int rc = IPX_OK;

	for (r->k = 0; r->k < o->repeat && rc == IPX_OK; r->k++) {
		progress(r, what, 0, 0, secs);
		rc = ipx_bn_run(o->ctl[side], &o->side[side], op, o->sets[s],
				secs, 0, 0, (uint16_t)r->done, res, err,
				errlen);
		if (rc == IPX_OK)
			ipx_bwan_summarize(res, o->sets[s], &runs[r->k]);
	}
	if (rc == IPX_OK)
		ipx_bwan_point_median(runs, o->repeat,
				      &r->rep->bat[side][s][op]);
	return rc;
}

static int run_battery(struct run *r, char *err, size_t errlen)
{
	const struct ipx_b6_opts *o = r->o;
	struct ipx_bw_result *res = calloc(IPX_BN_MAX_STATIONS, sizeof(*res));
	char what[96];
	int rc = IPX_OK;

	if (!res) {
		snprintf(err, errlen, "out of memory");
		return IPX_ENOMEM;
	}
	for (size_t s = 0; s < o->nsets && rc == IPX_OK; s++)
		for (int op = 0; op < IPX_BN_BATTERY_OPS && rc == IPX_OK;
		     op++)
			for (int side = 0; side < 2 && o->only[op] &&
					   rc == IPX_OK;
			     side++) {
				snprintf(what, sizeof(what), "battery %s, %u "
							     "ws, %s",
					 ipx_bn_op_name(op), o->sets[s],
					 side ? "bridged" : "local");
				rc = run_test(r, side, s, op, what, res, err,
					      errlen);
			}
	free(res);
	return rc;
}

/* The limit search, --repeat times: every search, the median one. */
static int run_limit(struct run *r, char *err, size_t errlen)
{
	const struct ipx_b6_opts *o = r->o;
	struct ipx_b6_report *rep = r->rep;
	struct ipx_bwan_limit_opts lo = o->lo;
	int rc = IPX_OK;

	lo.run = o->side[1];
	lo.progress = progress;
	lo.ctx = r;
	for (r->k = 0; r->k < o->repeat && rc == IPX_OK; r->k++)
		rc = ipx_bwan_limit(o->ctl[1], o->flood, &lo,
				    rep->lim_runs[r->k].steps,
				    &rep->lim_runs[r->k].nsteps, err, errlen);
	if (rc != IPX_OK)
		return rc;
	rep->lim_med = ipx_bwan_limit_median(rep->lim_runs, o->repeat,
					     rep->lim_load);
	rep->nsteps = rep->lim_runs[rep->lim_med].nsteps;
	memcpy(rep->steps, rep->lim_runs[rep->lim_med].steps,
	       rep->nsteps * sizeof(rep->steps[0]));
	return IPX_OK;
}

/* The scaling curve of one side, --repeat times: every run, the median. */
static int run_scaling(struct run *r, int side, char *err, size_t errlen)
{
	const struct ipx_b6_opts *o = r->o;
	struct ipx_b6_report *rep = r->rep;
	struct ipx_bwan_point one[IPX_BN_MAX_STATIONS];
	int rc = IPX_OK;

	r->phase = side ? "scaling, bridged: " : "scaling, local: ";
	for (r->k = 0; r->k < o->repeat && rc == IPX_OK; r->k++) {
		rc = ipx_bwan_scale(o->ctl[side], &o->side[side],
				    IPX_BN_OPEN_MULTI, o->max_stations,
				    ipx_bwan_scale_seconds(o->seconds),
				    progress, r, one, err, errlen);
		for (unsigned n = 0; n < o->max_stations && rc == IPX_OK; n++)
			rep->scale_runs[side][n][r->k] = one[n];
	}
	for (unsigned n = 0; n < o->max_stations && rc == IPX_OK; n++)
		ipx_bwan_point_median(rep->scale_runs[side][n], o->repeat,
				      &rep->scale[side][n]);
	return rc;
}

int ipx_b6_run(const struct ipx_b6_opts *o, ipx_bench_progress_fn prog,
	       void *ctx, struct ipx_b6_report *rep, char *err, size_t errlen)
{
	struct run r = { .o = o, .rep = rep, .progress = prog, .ctx = ctx };
	int rc = IPX_OK;

	memset(rep, 0, sizeof(*rep));
	r.total = ipx_b6_steps(o);
	rep->part = "battery";
	if (o->parts & IPX_B6_BATTERY)
		rc = run_battery(&r, err, errlen);
	if (rc == IPX_OK)
		rep->parts_done |= o->parts & IPX_B6_BATTERY;
	if (rc == IPX_OK && (o->parts & IPX_B6_LIMIT)) {
		rep->part = "limit";
		rc = run_limit(&r, err, errlen);
		if (rc == IPX_OK)
			rep->parts_done |= IPX_B6_LIMIT;
	}
	for (int side = 0; side < 2 && rc == IPX_OK &&
			   (o->parts & IPX_B6_SCALING);
	     side++) {
		rep->part = "scaling";
		rc = run_scaling(&r, side, err, errlen);
		if (rc == IPX_OK && side == 1)
			rep->parts_done |= IPX_B6_SCALING;
	}
	if (prog)
		prog(ctx, NULL);
	return rc;
}
