/*
 * test_bench_result.c - the benchmarks' result writer (bench_result.h):
 * the JSON writer's commas, keys, escapes, null for what is not finite,
 * a document cut short closed valid; rows written as CSV and JSON from one
 * field description (columns only in one of them, CSV quoting).
 */
#include "cm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bench_result.h"

static char *buf;
static size_t len;

static FILE *open_mem(void)
{
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	return f;
}

/* Close f and compare what was written. */
static void written(FILE *f, const char *want)
{
	fclose(f);
	assert_string_equal(buf, want);
	free(buf);
	buf = NULL;
}

static void json_commas_keys_and_values(void **state)
{
	FILE *f = open_mem();
	struct ipx_jw w;
	struct ipx_stat_summary s = { .median = 2, .min = 1, .max = 3.5 };

	(void)state;
	ipx_jw_init(&w, f);
	ipx_jw_obj(&w, NULL);
	ipx_jw_str(&w, "name", "a\"b\\c\n");
	ipx_jw_u64(&w, "n", 18446744073709551615ull);
	ipx_jw_int(&w, "i", -3);
	ipx_jw_dbl(&w, "x", "%.3f", 1.0 / 3);
	ipx_jw_dbl(&w, "nan", "%.3f", NAN);
	ipx_jw_dbl(&w, "inf", "%.1f", INFINITY);
	ipx_jw_str(&w, "none", NULL);
	ipx_jw_bool(&w, "t", true);
	ipx_jw_null(&w, "z");
	ipx_jw_arr(&w, "a");
	ipx_jw_u64(&w, NULL, 1);
	ipx_jw_arr(&w, NULL);
	ipx_jw_end(&w);
	ipx_jw_obj(&w, NULL);
	ipx_jw_end(&w);
	ipx_jw_end(&w);
	ipx_jw_summary(&w, "s", "%.1f", &s);
	ipx_jw_end(&w);
	assert_int_equal(ipx_jw_finish(&w), 0);
	written(f, "{\"name\":\"a\\\"b\\\\c\\u000a\",\"n\":18446744073709551615,"
		   "\"i\":-3,\"x\":0.333,\"nan\":null,\"inf\":null,"
		   "\"none\":null,\"t\":true,\"z\":null,\"a\":[1,[],{}],"
		   "\"s\":{\"median\":2.0,\"min\":1.0,\"max\":3.5}}\n");
}

static void json_cut_short_is_closed(void **state)
{
	FILE *f = open_mem();
	struct ipx_jw w;

	(void)state;
	ipx_jw_init(&w, f);
	ipx_jw_obj(&w, NULL);
	ipx_jw_bool(&w, "complete", false);
	ipx_jw_arr(&w, "tests");
	ipx_jw_obj(&w, NULL);
	ipx_jw_u64(&w, "ops", 5);
	/* interrupted here */
	assert_int_equal(ipx_jw_finish(&w), 0);
	written(f, "{\"complete\":false,\"tests\":[{\"ops\":5}]}\n");
}

static void json_resume_inside_an_object(void **state)
{
	FILE *f = open_mem();
	struct ipx_jw w;

	(void)state;
	fputs("{\"a\":{", f);
	ipx_jw_resume(&w, f, '}');
	ipx_jw_u64(&w, "b", 1);
	ipx_jw_u64(&w, "c", 2);
	fputs("}}", f);
	written(f, "{\"a\":{\"b\":1,\"c\":2}}");
}

static void json_too_deep_is_an_error(void **state)
{
	FILE *f = open_mem();
	struct ipx_jw w;

	(void)state;
	ipx_jw_init(&w, f);
	for (int i = 0; i < IPX_JW_DEPTH + 2; i++)
		ipx_jw_arr(&w, NULL);
	assert_int_equal(ipx_jw_finish(&w), -1);
	fclose(f);
	/* still balanced */
	size_t open = 0, close = 0;

	for (size_t i = 0; i < len; i++) {
		open += buf[i] == '[';
		close += buf[i] == ']';
	}
	assert_int_equal(open, close);
	free(buf);
	buf = NULL;
}

struct row {
	unsigned run;
	uint64_t ops;
	double secs;
	const char *name;
	bool ok;
	int delta;
};

static const struct ipx_rfield fields[] = {
	IPX_RF(struct row, run, "run", "", NULL, IPX_RF_UINT, IPX_RF_CSV),
	IPX_RF(struct row, ops, "ops", "ops", NULL, IPX_RF_U64, IPX_RF_BOTH),
	IPX_RF(struct row, secs, "seconds", "s", "%.6f", IPX_RF_DOUBLE,
	       IPX_RF_BOTH),
	IPX_RF(struct row, name, "name", "", NULL, IPX_RF_STR, IPX_RF_BOTH),
	IPX_RF(struct row, ok, "ok", "", NULL, IPX_RF_BOOL, IPX_RF_JSON),
	IPX_RF(struct row, delta, "delta", "", NULL, IPX_RF_INT, IPX_RF_BOTH),
};
static const struct ipx_rtable table = IPX_RTABLE("t", fields);

static void rows_as_csv_and_json(void **state)
{
	const struct row r[] = {
		{ 1, 10, 0.5, "plain", true, -1 },
		{ 2, 0, NAN, "a,\"b\"", false, 0 },
		{ 3, 7, 2, NULL, true, 4 },
	};
	FILE *f = open_mem();
	struct ipx_jw w;

	(void)state;
	ipx_res_csv_header(f, &table);
	for (size_t i = 0; i < 3; i++)
		ipx_res_csv_row(f, &table, &r[i]);
	written(f, "run,ops,seconds,name,delta\n"
		   "1,10,0.500000,plain,-1\n"
		   "2,0,,\"a,\"\"b\"\"\",0\n"
		   "3,7,2.000000,,4\n");
	f = open_mem();
	ipx_jw_init(&w, f);
	ipx_jw_arr(&w, NULL);
	for (size_t i = 0; i < 3; i++)
		ipx_res_json_row(&w, NULL, &table, &r[i]);
	ipx_jw_finish(&w);
	written(f, "[{\"ops\":10,\"seconds\":0.500000,\"name\":\"plain\","
		   "\"ok\":true,\"delta\":-1},{\"ops\":0,\"seconds\":null,"
		   "\"name\":\"a,\\\"b\\\"\",\"ok\":false,\"delta\":0},"
		   "{\"ops\":7,\"seconds\":2.000000,\"name\":null,\"ok\":true,"
		   "\"delta\":4}]\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(json_commas_keys_and_values),
		cmocka_unit_test(json_cut_short_is_closed),
		cmocka_unit_test(json_resume_inside_an_object),
		cmocka_unit_test(json_too_deep_is_an_error),
		cmocka_unit_test(rows_as_csv_and_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
