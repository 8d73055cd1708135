/*
 * test_bench_wan_repeat.c - B6 repeated (bench_wan.h, wan_repeat.c): the
 * median point of a test's runs takes each figure's median on its own
 * (odd and even counts, counts rounded), and the median limit search is
 * the one whose last completed load is the lower median, a search that
 * completed none counting below every load.
 */
#include "cm.h"

#include <string.h>

#include "ipxlab/bench_wan.h"

static struct ipx_bwan_point pt(double per_ws, double min, double max,
				uint64_t ops, unsigned active)
{
	struct ipx_bwan_point p = { .stations = 5, .active = active,
				    .ops = ops, .retransmits = ops / 10,
				    .per_ws = per_ws, .min = min, .max = max,
				    .total = 5 * per_ws,
				    .wire_kB_per_s = per_ws / 2 };
	return p;
}

static void point_median_of_odd_runs_is_each_figures_middle(void **state)
{
	/* the figures' medians come from different runs */
	struct ipx_bwan_point runs[3] = { pt(30, 1, 90, 300, 5),
					  pt(10, 3, 70, 100, 4),
					  pt(20, 2, 80, 200, 3) };
	struct ipx_bwan_point m;

	(void)state;
	ipx_bwan_point_median(runs, 3, &m);
	assert_int_equal(m.stations, 5);
	assert_int_equal(m.active, 4);
	assert_int_equal(m.ops, 200);
	assert_int_equal(m.retransmits, 20);
	assert_true(m.per_ws == 20 && m.min == 2 && m.max == 80);
	assert_true(m.total == 100 && m.wire_kB_per_s == 10);
}

static void point_median_of_even_runs_is_the_middle_twos_mean(void **state)
{
	struct ipx_bwan_point runs[4] = { pt(40, 1, 1, 7, 1),
					  pt(10, 1, 1, 4, 1), pt(20, 1, 1, 3, 2),
					  pt(30, 1, 1, 1, 2) };
	struct ipx_bwan_point m;

	(void)state;
	ipx_bwan_point_median(runs, 4, &m);
	assert_true(m.per_ws == 25 && m.total == 125);
	assert_int_equal(m.ops, 4);	/* (3 + 4) / 2 = 3.5, rounded */
	assert_int_equal(m.active, 2);	/* 1.5 rounded */
	ipx_bwan_point_median(runs, 1, &m);
	assert_true(m.per_ws == 40 && m.ops == 7);
	ipx_bwan_point_median(runs, 0, &m);
	assert_true(m.per_ws == 0 && m.ops == 0 && m.stations == 0);
}

/* A search whose steps 0..last were ok and, when failing, one more that
 * was not. */
static void search(struct ipx_bwan_search *s, int last, bool failing)
{
	memset(s, 0, sizeof(*s));
	s->nsteps = (size_t)(last + 1) + failing;
	for (size_t k = 0; k < s->nsteps; k++) {
		s->steps[k].load_bps = 100000 * k;
		s->steps[k].ok = (int)k <= last;
	}
}

static void limit_median_is_the_lower_median_search(void **state)
{
	static struct ipx_bwan_search s[4];
	double load[4];

	(void)state;
	search(&s[0], 7, true);
	search(&s[1], 3, true);
	search(&s[2], 5, false);
	assert_int_equal(ipx_bwan_limit_median(s, 3, load), 2);
	assert_true(load[0] == 700000 && load[1] == 300000 &&
		    load[2] == 500000);
	/* even: 300, 500, 700, 600 -> the lower middle, 500 */
	search(&s[3], 6, true);
	assert_int_equal(ipx_bwan_limit_median(s, 4, load), 2);
	/* two searches that completed none sit below: 700, none, none */
	search(&s[1], -1, true);
	search(&s[2], -1, true);
	assert_int_equal(ipx_bwan_limit_median(s, 3, load), 1);
	assert_true(load[1] == -1 && load[2] == -1);
	/* ties: the first of the equal ones */
	search(&s[0], 2, true);
	search(&s[1], 2, true);
	search(&s[2], 2, true);
	assert_int_equal(ipx_bwan_limit_median(s, 3, load), 0);
	assert_int_equal(ipx_bwan_limit_median(s, 0, load), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(point_median_of_odd_runs_is_each_figures_middle),
		cmocka_unit_test(point_median_of_even_runs_is_the_middle_twos_mean),
		cmocka_unit_test(limit_median_is_the_lower_median_search),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
