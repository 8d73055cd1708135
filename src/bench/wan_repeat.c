/*
 * wan_repeat.c - B6 repeated (bench_wan.h): the median of a test's runs
 * and the median of the limit searches, for `ipxlab bench wan --repeat`.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bench_stat.h"
#include "ipxlab/bench_wan.h"

/* The median of one field of n points, as 'get' reads it. */
static double med_of(const struct ipx_bwan_point *runs, size_t n,
		     double (*get)(const struct ipx_bwan_point *))
{
	double *v = malloc((n ? n : 1) * sizeof(*v));
	double m;

	if (!v)
		return 0;
	for (size_t i = 0; i < n; i++)
		v[i] = get(&runs[i]);
	m = ipx_stat_median(v, n);
	free(v);
	return m;
}

static double get_active(const struct ipx_bwan_point *p) { return p->active; }
static double get_ops(const struct ipx_bwan_point *p) { return (double)p->ops; }
static double get_retr(const struct ipx_bwan_point *p)
{
	return (double)p->retransmits;
}
static double get_per_ws(const struct ipx_bwan_point *p) { return p->per_ws; }
static double get_min(const struct ipx_bwan_point *p) { return p->min; }
static double get_max(const struct ipx_bwan_point *p) { return p->max; }
static double get_total(const struct ipx_bwan_point *p) { return p->total; }
static double get_kbs(const struct ipx_bwan_point *p) { return p->wire_kB_per_s; }

void ipx_bwan_point_median(const struct ipx_bwan_point *runs, size_t n,
			   struct ipx_bwan_point *out)
{
	memset(out, 0, sizeof(*out));
	if (!n)
		return;
	out->stations = runs[0].stations;
	out->active = (unsigned)lround(med_of(runs, n, get_active));
	out->ops = (uint64_t)llround(med_of(runs, n, get_ops));
	out->retransmits = (uint64_t)llround(med_of(runs, n, get_retr));
	out->per_ws = med_of(runs, n, get_per_ws);
	out->min = med_of(runs, n, get_min);
	out->max = med_of(runs, n, get_max);
	out->total = med_of(runs, n, get_total);
	out->wire_kB_per_s = med_of(runs, n, get_kbs);
}

int ipx_bwan_limit_median(const struct ipx_bwan_search *s, size_t n,
			  double *loads)
{
	size_t below, same;

	for (size_t i = 0; i < n; i++) {
		int k = ipx_bwan_limit_found(s[i].steps, s[i].nsteps);

		loads[i] = k < 0 ? -1 : (double)s[i].steps[k].load_bps;
	}
	/* the lower median: the first search with at most (n-1)/2 loads
	 * below it and more than that at or below it */
	for (size_t i = 0; i < n; i++) {
		below = same = 0;
		for (size_t j = 0; j < n; j++) {
			below += loads[j] < loads[i];
			same += loads[j] == loads[i];
		}
		if (below <= (n - 1) / 2 && below + same > (n - 1) / 2)
			return (int)i;
	}
	return -1;
}
