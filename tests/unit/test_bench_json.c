/*
 * test_bench_json.c - the saved results' JSON reader (bench_json.h): what
 * the result writer (bench_result.h) writes reads back with the same
 * values and the numbers' text as written; strings with every escape;
 * path lookups into objects and arrays; and each kind of bad input
 * refused with the byte where it went wrong.
 */
#include "cm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ipxlab/bench_json.h"
#include "ipxlab/bench_result.h"

static struct ipx_jv *parse(const char *s)
{
	struct ipx_jv *v = NULL;
	char err[128];

	assert_int_equal(ipx_json_parse(s, strlen(s), &v, err, sizeof(err)), 0);
	assert_non_null(v);
	return v;
}

/* The message for bad text s (the parse must fail). */
static const char *refused(const char *s, size_t len)
{
	static char err[128];
	struct ipx_jv *v = (struct ipx_jv *)1;

	assert_int_equal(ipx_json_parse(s, len, &v, err, sizeof(err)), -1);
	assert_null(v);
	return err;
}

static void writer_output_reads_back(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct ipx_jw w;
	struct ipx_jv *v;
	double d;

	(void)state;
	ipx_jw_init(&w, f);
	ipx_jw_obj(&w, NULL);
	ipx_jw_str(&w, "benchmark", "copy \"quoted\"\n");
	ipx_jw_dbl(&w, "seconds", "%.6f", 0.0014680);
	ipx_jw_dbl(&w, "inf", "%.3f", INFINITY);
	ipx_jw_u64(&w, "bytes", 214705);
	ipx_jw_bool(&w, "complete", true);
	ipx_jw_arr(&w, "sizes");
	ipx_jw_int(&w, NULL, -3);
	ipx_jw_obj(&w, NULL);
	ipx_jw_str(&w, "k", "v");
	assert_int_equal(ipx_jw_finish(&w), 0);
	fclose(f);
	v = parse(buf);
	assert_string_equal(ipx_jv_str(v, "benchmark"), "copy \"quoted\"\n");
	assert_true(ipx_jv_num(v, "seconds", &d) && d == 0.001468);
	assert_string_equal(ipx_jv_get(v, "seconds")->text, "0.001468");
	assert_false(ipx_jv_num(v, "inf", &d));	/* null */
	assert_int_equal(ipx_jv_get(v, "inf")->type, IPX_JNULL);
	assert_true(ipx_jv_num(v, "bytes", &d) && d == 214705);
	assert_int_equal(ipx_jv_get(v, "complete")->type, IPX_JBOOL);
	assert_int_equal(ipx_jv_get(v, "sizes")->n, 2);
	assert_true(ipx_jv_num(v, "sizes.0", &d) && d == -3);
	assert_string_equal(ipx_jv_str(v, "sizes.1.k"), "v");
	assert_null(ipx_jv_get(v, "sizes.2"));
	assert_null(ipx_jv_get(v, "sizes.x"));
	assert_null(ipx_jv_get(v, "bytes.x"));
	assert_null(ipx_jv_get(v, "nope"));
	assert_ptr_equal(ipx_jv_get(v, ""), v);
	assert_ptr_equal(ipx_jv_at(v, 1), ipx_jv_get(v, "seconds"));
	ipx_jv_free(v);
	free(buf);
}

static void escapes_and_unicode(void **state)
{
	struct ipx_jv *v;

	(void)state;
	v = parse("[\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\", \"\\u00e9\\u20ac\", "
		  "\"\\ud83d\\ude00\", \"\xc3\xa9 raw\", {\"\\u0041\": 1}]");
	assert_string_equal(ipx_jv_at(v, 0)->text, "a\"b\\c/d\b\f\n\r\t");
	assert_string_equal(ipx_jv_at(v, 1)->text, "\xc3\xa9\xe2\x82\xac");
	assert_string_equal(ipx_jv_at(v, 2)->text, "\xf0\x9f\x98\x80");
	assert_string_equal(ipx_jv_at(v, 3)->text, "\xc3\xa9 raw");
	assert_non_null(ipx_jv_get(ipx_jv_at(v, 4), "A"));
	ipx_jv_free(v);
	v = parse(" {\"a\" : [ ] , \"b\":{}, \"c\":null, \"d\":-0.5e+2} ");
	assert_int_equal(ipx_jv_get(v, "a")->n, 0);
	assert_int_equal(ipx_jv_get(v, "b")->type, IPX_JOBJ);
	assert_true(ipx_jv_get(v, "d")->num == -50);
	ipx_jv_free(v);
}

static void bad_input_refused_where_it_is(void **state)
{
	char deep[200];

	(void)state;
	assert_string_equal(refused("", 0), "unexpected end at byte 0");
	assert_string_equal(refused("{\"a\":1} x", 9),
			    "trailing characters at byte 8");
	assert_string_equal(refused("[1,]", 4), "unexpected character at byte 3");
	assert_string_equal(refused("{\"a\" 1}", 7), "expected ':' at byte 5");
	assert_string_equal(refused("{1:2}", 5), "expected a key at byte 1");
	assert_string_equal(refused("[1 2]", 5),
			    "expected ',' or ']' at byte 3");
	assert_string_equal(refused("\"abc", 4),
			    "unterminated string at byte 4");
	assert_string_equal(refused("\"a\\x\"", 5),
			    "bad escape in a string at byte 2");
	assert_string_equal(refused("\"\\u12g4\"", 8),
			    "bad escape in a string at byte 1");
	assert_string_equal(refused("\"\\udc00\"", 8),
			    "bad escape in a string at byte 1");
	assert_string_equal(refused("\"x\\ud800\\u0041\"", 15),
			    "bad escape in a string at byte 2");
	assert_string_equal(refused("\"\\u0000\"", 8),
			    "bad escape in a string at byte 1");
	assert_string_equal(refused("\"a\nb\"", 5),
			    "control character in a string at byte 2");
	assert_string_equal(refused("[1]\0", 4),
			    "trailing characters at byte 3");
	assert_string_equal(refused("tru", 3), "unexpected character at byte 0");
	for (const char *const *n = (const char *const[]){ "01", "1.", "-",
		     "1e", "1.e3", "--1", "1e+", "-01", NULL }; *n; n++)
		assert_string_equal(refused(*n, strlen(*n)),
				    "bad number at byte 0");
	memset(deep, '[', sizeof(deep));
	assert_string_equal(refused(deep, sizeof(deep)),
			    "nested too deep at byte 64");
	memset(deep, '[', IPX_JSON_DEPTH - 1);
	memset(deep + IPX_JSON_DEPTH - 1, ']', IPX_JSON_DEPTH - 1);
	ipx_jv_free(parse((deep[2 * IPX_JSON_DEPTH - 2] = '\0', deep)));
}

static void load_names_the_file(void **state)
{
	char err[256];
	struct ipx_jv *v = (struct ipx_jv *)1;
	char path[] = "/tmp/ipxlab-json-XXXXXX";
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "{\"a\":", 5), 5);
	close(fd);
	assert_int_equal(ipx_json_load(path, &v, err, sizeof(err)), -1);
	assert_null(v);
	assert_non_null(strstr(err, ": not JSON: unexpected end at byte 5"));
	assert_ptr_equal(strstr(err, path), err);
	unlink(path);
	assert_int_equal(ipx_json_load(path, &v, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "No such file"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(writer_output_reads_back),
		cmocka_unit_test(escapes_and_unicode),
		cmocka_unit_test(bad_input_refused_where_it_is),
		cmocka_unit_test(load_names_the_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
