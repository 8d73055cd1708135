/*
 * stat.c - statistics for benchmark figures (see ipxlab/bench_stat.h):
 * the median, minimum, maximum and mean of a handful of repeated runs,
 * and a log-linear latency histogram with percentiles.
 *
 * Histogram layout: bucket b < 64 holds exactly the value b. Above that,
 * group g >= 1 holds the values whose highest set bit is bit g + 5, split
 * into 64 equal sub-buckets of width 2^(g-1), so a bucket is at most 1/64
 * (1.6%) of its values wide. Group 57 ends at 2^63 - 1; the few larger
 * values land in the last bucket (max stays exact, and a percentile never
 * exceeds max).
 */
#include "ipxlab/bench_stat.h"

#include <math.h>
#include <string.h>

#define SUB (1u << IPX_HIST_SUB_BITS)	/* sub-buckets per group */
#define GROUPS (IPX_HIST_BUCKETS / SUB)	/* group 0 is the exact one */

/* The k-th smallest (0-based) of v without sorting or allocating: the
 * element with fewer than k+1 smaller values and more than k not larger.
 * Quadratic, which suits the few repeats a benchmark makes. */
static double kth(const double *v, size_t n, size_t k)
{
	for (size_t i = 0; i < n; i++) {
		size_t lt = 0, le = 0;

		for (size_t j = 0; j < n; j++) {
			lt += v[j] < v[i];
			le += v[j] <= v[i];
		}
		if (lt <= k && k < le)
			return v[i];
	}
	return 0;	/* only with NaNs in v: no value has a rank */
}

double ipx_stat_median(const double *v, size_t n)
{
	if (n == 0)
		return 0;
	if (n % 2)
		return kth(v, n, n / 2);
	return (kth(v, n, n / 2 - 1) + kth(v, n, n / 2)) / 2;
}

void ipx_stat_summarize(const double *v, size_t n,
			struct ipx_stat_summary *out)
{
	double sum = 0;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return;
	out->n = n;
	out->min = out->max = v[0];
	for (size_t i = 0; i < n; i++) {
		if (v[i] < out->min)
			out->min = v[i];
		if (v[i] > out->max)
			out->max = v[i];
		sum += v[i];
	}
	out->mean = sum / (double)n;
	out->median = ipx_stat_median(v, n);
}

static unsigned top_bit(uint64_t v)
{
	return 63u - (unsigned)__builtin_clzll(v);
}

static size_t bucket_of(uint64_t ns)
{
	unsigned g;

	if (ns < SUB)
		return (size_t)ns;
	g = top_bit(ns) - IPX_HIST_SUB_BITS + 1;
	if (g >= GROUPS)
		return IPX_HIST_BUCKETS - 1;
	return (size_t)g * SUB + (size_t)((ns >> (g - 1)) - SUB);
}

/* The largest value bucket b holds. */
static uint64_t bucket_top(size_t b)
{
	size_t g = b / SUB, sub = b % SUB;

	if (g == 0)
		return b;
	return (((uint64_t)(SUB + sub) + 1) << (g - 1)) - 1;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

void ipx_hist_init(struct ipx_hist *h)
{
	memset(h, 0, sizeof(*h));
}

void ipx_hist_add(struct ipx_hist *h, uint64_t ns)
{
	size_t b = bucket_of(ns);

	if (h->count == 0 || ns < h->min)
		h->min = ns;
	if (h->count == 0 || ns > h->max)
		h->max = ns;
	h->count++;
	h->sum = add_sat(h->sum, ns);
	if (h->bucket[b] < UINT32_MAX)
		h->bucket[b]++;
}

void ipx_hist_merge(struct ipx_hist *into, const struct ipx_hist *from)
{
	if (from->count == 0)
		return;
	if (into->count == 0 || from->min < into->min)
		into->min = from->min;
	if (into->count == 0 || from->max > into->max)
		into->max = from->max;
	into->count += from->count;
	into->sum = add_sat(into->sum, from->sum);
	for (size_t b = 0; b < IPX_HIST_BUCKETS; b++) {
		uint64_t c = (uint64_t)into->bucket[b] + from->bucket[b];

		into->bucket[b] = c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
	}
}

uint64_t ipx_hist_percentile(const struct ipx_hist *h, double p)
{
	uint64_t rank, seen = 0;

	if (h->count == 0)
		return 0;
	if (!(p > 0))	/* also NaN */
		return h->min;
	if (p >= 100)
		return h->max;
	/* the smallest value with at least p% of the samples at or below */
	rank = (uint64_t)ceil(p / 100.0 * (double)h->count - 1e-9);
	if (rank == 0)
		rank = 1;
	for (size_t b = 0; b < IPX_HIST_BUCKETS; b++) {
		seen += h->bucket[b];
		if (seen >= rank) {
			uint64_t top = bucket_top(b);

			if (top > h->max)
				top = h->max;
			return top < h->min ? h->min : top;
		}
	}
	return h->max;	/* bucket counts saturated */
}

double ipx_hist_mean(const struct ipx_hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0;
}
