/*
 * test_bench_stat.c - the benchmark statistics against known data: the
 * median and summary of repeated runs, and the latency histogram's
 * percentiles (within one bucket of the exact value), merge and extremes.
 */
#include "cm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bench_stat.h"

/* A histogram is about 15 KB: keep them off the stack. */
static struct ipx_hist ha, hb;

static void median_of_odd_even_empty_and_one(void **state)
{
	const double odd[] = { 5, 1, 4, 2, 3 };
	const double even[] = { 10, 40, 20, 30 };
	const double one[] = { 7.5 };
	const double dup[] = { 2, 2, 1, 2, 9, 9 };

	(void)state;
	assert_true(ipx_stat_median(odd, 5) == 3);
	assert_true(ipx_stat_median(even, 4) == 25);
	assert_true(ipx_stat_median(one, 1) == 7.5);
	assert_true(ipx_stat_median(NULL, 0) == 0);
	assert_true(ipx_stat_median(dup, 6) == 2);	/* 1 2 2 |2 9 9 */
	/* the input is left as it was */
	assert_true(odd[0] == 5 && odd[4] == 3);
}

static void summary_has_min_max_mean_median(void **state)
{
	const double v[] = { 3, -1, 8, 2 };
	struct ipx_stat_summary s;

	(void)state;
	ipx_stat_summarize(v, 4, &s);
	assert_int_equal(s.n, 4);
	assert_true(s.min == -1);
	assert_true(s.max == 8);
	assert_true(s.mean == 3);
	assert_true(s.median == 2.5);

	ipx_stat_summarize(NULL, 0, &s);
	assert_int_equal(s.n, 0);
	assert_true(s.min == 0 && s.max == 0 && s.mean == 0 && s.median == 0);

	ipx_stat_summarize(v, 1, &s);
	assert_true(s.min == 3 && s.max == 3 && s.mean == 3 && s.median == 3);
}

static void empty_histogram_is_all_zero(void **state)
{
	(void)state;
	ipx_hist_init(&ha);
	assert_int_equal(ha.count, 0);
	assert_int_equal(ipx_hist_percentile(&ha, 50), 0);
	assert_int_equal(ipx_hist_percentile(&ha, 0), 0);
	assert_int_equal(ipx_hist_percentile(&ha, 100), 0);
	assert_true(ipx_hist_mean(&ha) == 0);
}

static void small_values_are_exact(void **state)
{
	(void)state;
	ipx_hist_init(&ha);
	for (uint64_t v = 0; v < 64; v++)
		ipx_hist_add(&ha, v);
	assert_int_equal(ha.count, 64);
	assert_int_equal(ha.min, 0);
	assert_int_equal(ha.max, 63);
	/* rank ceil(0.5 * 64) = 32 is the value 31 */
	assert_int_equal(ipx_hist_percentile(&ha, 50), 31);
	assert_int_equal(ipx_hist_percentile(&ha, 1), 0);
	assert_int_equal(ipx_hist_percentile(&ha, 0), 0);
	assert_int_equal(ipx_hist_percentile(&ha, 100), 63);
	assert_true(ipx_hist_mean(&ha) == 31.5);
}

/* The percentile is the top of the exact value's bucket: at or above the
 * exact value, less than 1/64 of it above (never above max). */
static void assert_within_bucket(uint64_t got, uint64_t exact)
{
	if (got < exact || (double)(got - exact) > (double)exact / 64.0 + 1)
		fail_msg("percentile %llu, exact %llu", (unsigned long long)got,
			 (unsigned long long)exact);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Exact percentile of sorted values, same rank rule: ceil(p/100 * n). */
static uint64_t exact_pct(const uint64_t *sorted, size_t n, double p)
{
	size_t rank = (size_t)ceil(p / 100.0 * (double)n - 1e-9);

	return sorted[rank ? rank - 1 : 0];
}

static void check_distribution(uint64_t *v, size_t n)
{
	static const double ps[] = { 1, 10, 25, 50, 75, 90, 99, 99.9 };
	double sum = 0;

	ipx_hist_init(&ha);
	for (size_t i = 0; i < n; i++) {
		ipx_hist_add(&ha, v[i]);
		sum += (double)v[i];
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	assert_int_equal(ha.min, v[0]);
	assert_int_equal(ha.max, v[n - 1]);
	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++)
		assert_within_bucket(ipx_hist_percentile(&ha, ps[i]),
				     exact_pct(v, n, ps[i]));
	assert_int_equal(ipx_hist_percentile(&ha, 100), v[n - 1]);
	assert_true(fabs(ipx_hist_mean(&ha) - sum / (double)n) < 1e-6 * sum);
}

static void percentiles_of_uniform_data(void **state)
{
	static uint64_t v[10000];

	(void)state;
	/* 1 us .. 10 ms in steps of 1 us */
	for (size_t i = 0; i < 10000; i++)
		v[i] = (i + 1) * 1000;
	check_distribution(v, 10000);
	/* known answers: the median is 5.000 ms, p90 9.000 ms */
	assert_within_bucket(ipx_hist_percentile(&ha, 50), 5000000);
	assert_within_bucket(ipx_hist_percentile(&ha, 90), 9000000);
}

static void percentiles_of_skewed_data(void **state)
{
	static uint64_t v[20000];
	uint64_t x = 88172645463325252ull;

	(void)state;
	/* a long-tailed distribution: exponential-ish from a fixed xorshift
	 * generator, 20 us mean, plus rare 5 ms outliers */
	for (size_t i = 0; i < 20000; i++) {
		double u;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		u = (double)(x >> 11) / 9007199254740992.0;
		v[i] = (uint64_t)(-log(1 - u) * 20000.0) + 100;
		if (i % 997 == 0)
			v[i] = 5000000 + i;
	}
	check_distribution(v, 20000);
}

static void one_sample_is_every_percentile(void **state)
{
	(void)state;
	ipx_hist_init(&ha);
	ipx_hist_add(&ha, 123456789);
	assert_int_equal(ipx_hist_percentile(&ha, 0), 123456789);
	assert_int_equal(ipx_hist_percentile(&ha, 50), 123456789);
	assert_int_equal(ipx_hist_percentile(&ha, 99.99), 123456789);
	assert_true(ipx_hist_mean(&ha) == 123456789.0);
}

static void zero_and_huge_values(void **state)
{
	(void)state;
	ipx_hist_init(&ha);
	ipx_hist_add(&ha, 0);
	ipx_hist_add(&ha, UINT64_MAX);
	ipx_hist_add(&ha, (uint64_t)1 << 62);
	assert_int_equal(ha.min, 0);
	assert_int_equal(ha.max, UINT64_MAX);
	assert_int_equal(ipx_hist_percentile(&ha, 10), 0);
	assert_within_bucket(ipx_hist_percentile(&ha, 50), (uint64_t)1 << 62);
	assert_int_equal(ipx_hist_percentile(&ha, 100), UINT64_MAX);
	/* the sum saturates instead of wrapping */
	assert_int_equal(ha.sum, UINT64_MAX);
	assert_true(ipx_hist_mean(&ha) > 6e18);
	/* every bucket boundary up to the top one is consistent */
	for (unsigned bit = 6; bit < 64; bit++) {
		uint64_t v = (uint64_t)1 << bit;

		ipx_hist_init(&hb);
		ipx_hist_add(&hb, v - 1);
		ipx_hist_add(&hb, v);
		assert_int_equal(ipx_hist_percentile(&hb, 50), v - 1);
		assert_int_equal(ipx_hist_percentile(&hb, 100), v);
	}
}

static void merge_equals_adding_everything(void **state)
{
	static struct ipx_hist all;

	(void)state;
	ipx_hist_init(&ha);
	ipx_hist_init(&hb);
	ipx_hist_init(&all);
	for (uint64_t i = 1; i <= 3000; i++) {
		uint64_t v = i * i * 7 + 50;

		ipx_hist_add(i % 3 ? &ha : &hb, v);
		ipx_hist_add(&all, v);
	}
	ipx_hist_merge(&ha, &hb);
	assert_memory_equal(&ha, &all, sizeof(all));

	/* merging into or from an empty one */
	ipx_hist_init(&hb);
	ipx_hist_merge(&ha, &hb);
	assert_memory_equal(&ha, &all, sizeof(all));
	ipx_hist_merge(&hb, &all);
	assert_memory_equal(&hb, &all, sizeof(all));
	assert_int_equal(hb.min, 57);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(median_of_odd_even_empty_and_one),
		cmocka_unit_test(summary_has_min_max_mean_median),
		cmocka_unit_test(empty_histogram_is_all_zero),
		cmocka_unit_test(small_values_are_exact),
		cmocka_unit_test(percentiles_of_uniform_data),
		cmocka_unit_test(percentiles_of_skewed_data),
		cmocka_unit_test(one_sample_is_every_percentile),
		cmocka_unit_test(zero_and_huge_values),
		cmocka_unit_test(merge_equals_adding_everything),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
