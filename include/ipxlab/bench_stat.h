/*
 * bench_stat.h - statistics for benchmark figures: summaries of repeated
 * runs (median, min, max) and a latency histogram with percentiles.
 *
 * The histogram is log-linear over nanoseconds (buckets about 1.6% wide
 * from 1 us to ~1 hour; exact below 64 ns units), fixed-size so it can be
 * merged and sent between processes as it is.
 */
#ifndef IPXLAB_BENCH_STAT_H
#define IPXLAB_BENCH_STAT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ipx_stat_summary {
	size_t n;
	double median, min, max, mean;
};

/* Summarise n values (n may be 0: all fields 0). Does not modify v. */
void ipx_stat_summarize(const double *v, size_t n,
			struct ipx_stat_summary *out);
/* The median of n values (mean of the middle two for even n); 0 if n == 0. */
double ipx_stat_median(const double *v, size_t n);

#define IPX_HIST_SUB_BITS 6	/* 64 sub-buckets per power of two */
#define IPX_HIST_BUCKETS (64 * (64 - IPX_HIST_SUB_BITS))

struct ipx_hist {
	uint64_t count;
	uint64_t min, max;	/* exact, in ns */
	uint64_t sum;		/* for the mean */
	uint32_t bucket[IPX_HIST_BUCKETS];
};

void ipx_hist_init(struct ipx_hist *h);
void ipx_hist_add(struct ipx_hist *h, uint64_t ns);
void ipx_hist_merge(struct ipx_hist *into, const struct ipx_hist *from);
/* The value at percentile p (0..100): an upper bound within one bucket,
 * never above max; 0 for an empty histogram. */
uint64_t ipx_hist_percentile(const struct ipx_hist *h, double p);
double ipx_hist_mean(const struct ipx_hist *h);

#ifdef __cplusplus
}
#endif

#endif
