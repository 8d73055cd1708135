/*
 * test_bench_fidelity.c - fidelity tables: each row's error, a range's
 * error (none inside, against the nearer end outside), the median of the
 * absolute errors (odd and even counts, rows without a figure left out),
 * the text with the unit in every figure's header, and the JSON keys.
 */
#include "cm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bench_fidelity.h"
#include "ipxlab/err.h"

static void errors_and_median(void **state)
{
	struct ipx_fid_table t;

	(void)state;
	ipx_fid_init(&t, "B1: packets per second", "pkt/s", "tr4-1990");
	assert_int_equal(ipx_fid_add(&t, "IPX", 366.0, 402.6, 3000), IPX_OK);
	assert_int_equal(ipx_fid_add(&t, "SPX", 140.3, 126.27, NAN), IPX_OK);
	assert_int_equal(ipx_fid_add(&t, "NetBIOS dgram", 224.8, 224.8, NAN),
			 IPX_OK);
	assert_true(fabs(ipx_fid_error_pct(&t.row[0]) - 10.0) < 1e-9);
	assert_true(fabs(ipx_fid_error_pct(&t.row[1]) + 10.0) < 1e-9);
	assert_true(ipx_fid_error_pct(&t.row[2]) == 0);
	/* |errors| 10, 10, 0: median 10 */
	assert_true(fabs(ipx_fid_median_abs_error(&t) - 10.0) < 1e-9);
	/* a fourth of 4 %: the mean of the middle two, (4 + 10) / 2 */
	ipx_fid_add(&t, "NetBIOS session", 100, 104, NAN);
	assert_true(fabs(ipx_fid_median_abs_error(&t) - 7.0) < 1e-9);
	/* a row not measured counts for nothing */
	ipx_fid_add(&t, "missing", 50, NAN, NAN);
	assert_true(isnan(ipx_fid_error_pct(&t.row[4])));
	assert_true(fabs(ipx_fid_median_abs_error(&t) - 7.0) < 1e-9);
	/* none at all: no median */
	ipx_fid_init(&t, "x", "s", "p");
	assert_true(isnan(ipx_fid_median_abs_error(&t)));
	/* full */
	for (int i = 0; i < IPX_FID_MAX_ROWS; i++)
		assert_int_equal(ipx_fid_add(&t, "r", 1, 1, NAN), IPX_OK);
	assert_int_equal(ipx_fid_add(&t, "r", 1, 1, NAN), IPX_ERANGE);
}

static void ranges(void **state)
{
	struct ipx_fid_table t;

	(void)state;
	ipx_fid_init(&t, "B9", "%", "lanman");
	ipx_fid_add_range(&t, "inside", 36, 153, 80, NAN);
	ipx_fid_add_range(&t, "below", 13, 18, 11.7, NAN);
	ipx_fid_add_range(&t, "above", 13, 18, 19.8, NAN);
	assert_true(t.row[0].ref == (36 + 153) / 2.0);
	assert_true(ipx_fid_error_pct(&t.row[0]) == 0);
	assert_true(fabs(ipx_fid_error_pct(&t.row[1]) + 10.0) < 1e-9);
	assert_true(fabs(ipx_fid_error_pct(&t.row[2]) - 10.0) < 1e-9);
}

static char *capture(void (*fn)(FILE *, const struct ipx_fid_table *),
		     const struct ipx_fid_table *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, t);
	fclose(f);
	return buf;
}

static void json_out(FILE *f, const struct ipx_fid_table *t)
{
	struct ipx_jw w;

	ipx_jw_init(&w, f);
	ipx_jw_obj(&w, NULL);
	ipx_fid_write_json(&w, "fidelity", t);
	assert_int_equal(ipx_jw_finish(&w), 0);
}

static void text_and_json(void **state)
{
	struct ipx_fid_table t;
	char *s;

	(void)state;
	ipx_fid_init(&t, "B3: copy, local", "s", "netware-1990");
	snprintf(t.today_what, sizeof(t.today_what), "the wire alone (--sim)");
	ipx_fid_add(&t, "1,205 B", 0.72, 0.75, 0.0015);
	ipx_fid_add_range(&t, "gain", 20, 25, 30, NAN);
	s = capture(ipx_fid_print, &t);
	assert_non_null(strstr(s, "1990 (s)"));
	assert_non_null(strstr(s, "ipxlab as 1990 (s)"));
	assert_non_null(strstr(s, "today (s)"));
	assert_non_null(strstr(s, "+4.2%"));
	assert_non_null(strstr(s, "20-25"));
	assert_non_null(strstr(s, "+20.0%"));
	/* |4.2| and |20|: median 12.1, over the target */
	assert_non_null(strstr(s, "median absolute error 12.1 % (target 10 %)"
				  ": MISS"));
	assert_non_null(strstr(s, "today: the wire alone (--sim)"));
	free(s);
	s = capture(json_out, &t);
	assert_non_null(strstr(s, "\"fidelity\":{"));
	assert_non_null(strstr(s, "\"unit\":\"s\""));
	assert_non_null(strstr(s, "\"ref_s\":0.72"));
	assert_non_null(strstr(s, "\"model_s\":0.75"));
	assert_non_null(strstr(s, "\"today_s\":0.0015"));
	assert_non_null(strstr(s, "\"ref_lo_s\":20"));
	assert_non_null(strstr(s, "\"ref_hi_s\":25"));
	assert_non_null(strstr(s, "\"today_s\":null"));
	assert_non_null(strstr(s, "\"target_pct\":10"));
	free(s);
	/* a unit made a key */
	ipx_fid_init(&t, "B1", "pkt/s", "tr4-1990");
	ipx_fid_add(&t, "IPX", 366, 360, NAN);
	s = capture(json_out, &t);
	assert_non_null(strstr(s, "\"ref_pkt_s\":366"));
	free(s);
}

/* What the suite's report reads back is what was written: one table, or
 * an array of them; and its HTML has the unit in every heading. */
static void read_back_and_html(void **state)
{
	struct ipx_fid_table t[2], back[4];
	struct ipx_jv *doc = NULL;
	char *buf = NULL, err[200];
	size_t len = 0;
	FILE *f;

	(void)state;
	ipx_fid_init(&t[0], "B3 local", "s", "netware-1990");
	ipx_fid_add(&t[0], "1,205 B", 0.72, 0.75, NAN);
	ipx_fid_add_range(&t[0], "gain", 20, 25, 21, 3);
	ipx_fid_init(&t[1], "B3 bridged", "s", "netware-1990");
	ipx_fid_add(&t[1], "1,205 B", 1.99, 2.2, 0.1);
	f = open_memstream(&buf, &len);
	{
		struct ipx_jw w;

		ipx_jw_init(&w, f);
		ipx_jw_obj(&w, NULL);
		ipx_fid_write_json_tables(&w, "fidelity", t, 2);
		assert_int_equal(ipx_jw_finish(&w), 0);
	}
	fclose(f);
	assert_int_equal(ipx_json_parse(buf, strlen(buf), &doc, err,
					sizeof(err)),
			 0);
	assert_int_equal(ipx_fid_from_json(doc, back, 4), 2);
	assert_string_equal(back[1].title, "B3 bridged");
	assert_int_equal(back[0].n, 2);
	assert_true(back[0].row[0].ref == 0.72 && back[0].row[0].model == 0.75);
	assert_true(isnan(back[0].row[0].today));
	assert_true(back[0].row[1].ref_lo == 20 && back[0].row[1].ref_hi == 25);
	assert_true(ipx_fid_median_abs_error(&back[1]) ==
		    ipx_fid_median_abs_error(&t[1]));
	/* at most max */
	assert_int_equal(ipx_fid_from_json(doc, back, 1), 1);
	ipx_jv_free(doc);
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	ipx_fid_write_html(f, &t[0]);
	fclose(f);
	assert_non_null(strstr(buf, "<caption>Fidelity: B3 local (period "
				    "netware-1990)</caption>"));
	assert_non_null(strstr(buf, "1990<br><small>s</small>"));
	assert_non_null(strstr(buf, "<td class=\"y1990\">20-25</td>"));
	assert_non_null(strstr(buf, "<td>+4.2</td>"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(errors_and_median),
		cmocka_unit_test(ranges),
		cmocka_unit_test(text_and_json),
		cmocka_unit_test(read_back_and_html),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
