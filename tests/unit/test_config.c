/*
 * test_config.c - every SHELL.CFG rule: defaults, ranges, syntax, the
 * NETBIOS INTERNET defaults, refusals with "file:line: reason", origins.
 */
#include "cm.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ipxlab/err.h"
#include "ipxlab/config.h"

static int parse(struct ipx_config *cfg, const char *text, char *err)
{
	ipx_config_defaults(cfg);
	return ipx_config_parse(cfg, "SHELL.CFG", text, strlen(text), err, 256);
}

static void defaults_are_the_documented_ones(void **state)
{
	struct ipx_config c;

	(void)state;
	ipx_config_defaults(&c);
	assert_int_equal(c.ipx_sockets, 20);
	assert_int_equal(c.ipx_retry_count, 20);
	assert_int_equal(c.spx_connections, 15);
	assert_int_equal(c.spx_listen_timeout, 108);
	assert_int_equal(c.spx_verify_timeout, 54);
	assert_int_equal(c.spx_abort_timeout, 540);
	assert_int_equal(c.netbios_listen_timeout, 108);
	assert_int_equal(c.netbios_verify_timeout, 54);
	assert_int_equal(c.netbios_abort_timeout, 540);
	assert_int_equal(c.netbios_retry_delay, 500);
	assert_int_equal(c.netbios_sessions, 32);
	assert_int_equal(c.netbios_commands, 12);
	assert_int_equal(c.netbios_send_buffers, 6);
	assert_int_equal(c.netbios_receive_buffers, 6);
	assert_int_equal(c.netbios_retry_count, 10);
	assert_int_equal(c.netbios_broadcast_count, 2);
	assert_int_equal(c.netbios_broadcast_delay, 18);
	assert_int_equal(c.netbios_internet, 0);
	assert_int_equal(ipx_config_param_count(), IPX_CFG_NPARAMS);
	assert_int_equal(IPX_CFG_NPARAMS, 18);
	for (size_t i = 0; i < IPX_CFG_NPARAMS; i++)
		assert_int_equal(c.origin[i].kind, IPX_CFG_DEFAULT);
}

static void reads_keys_in_any_case_and_spacing(void **state)
{
	struct ipx_config c;
	char err[256];

	(void)state;
	assert_int_equal(parse(&c,
			       "; a comment line\n"
			       "ipx sockets = 40\r\n"
			       "  SPX   Connections=60   ; trailing comment\n"
			       "\n"
			       "\tspx abort timeout 1000\n"
			       "# another comment\n"
			       "NETBIOS SEND BUFFERS = 8",
			       err),
			 IPX_OK);
	assert_int_equal(c.ipx_sockets, 40);
	assert_int_equal(c.spx_connections, 60);
	assert_int_equal(c.spx_abort_timeout, 1000);
	assert_int_equal(c.netbios_send_buffers, 8);
	assert_int_equal(c.spx_verify_timeout, 54);
}

static void accepts_range_edges(void **state)
{
	struct ipx_config c;
	char err[256];

	(void)state;
	assert_int_equal(parse(&c, "IPX SOCKETS = 10\nSPX CONNECTIONS = 150\n"
				   "SPX LISTEN TIMEOUT = 0\n"
				   "SPX VERIFY TIMEOUT = 65535\n",
			       err),
			 IPX_OK);
	assert_int_equal(c.ipx_sockets, 10);
	assert_int_equal(c.spx_connections, 150);
	assert_int_equal(c.spx_listen_timeout, 0);
	assert_int_equal(c.spx_verify_timeout, 65535);
}

static void expect_error(const char *text, const char *message)
{
	struct ipx_config c, before;
	char err[256] = "";

	ipx_config_defaults(&c);
	before = c;
	assert_int_equal(ipx_config_parse(&c, "SHELL.CFG", text, strlen(text),
					  err, sizeof(err)),
			 IPX_ECONFIG);
	if (!strstr(err, message))
		fail_msg("for '%s' expected '%s' in '%s'", text, message, err);
	/* Nothing of a refused file is applied. */
	assert_memory_equal(&c, &before, sizeof(c));
}

static void refuses_out_of_range_values_with_file_and_line(void **state)
{
	(void)state;
	expect_error("IPX SOCKETS = 9\n", "SHELL.CFG:1: IPX SOCKETS = 9 is out "
					  "of range: it must be 10 to 150");
	expect_error("\n\nIPX SOCKETS = 151\n", "SHELL.CFG:3:");
	expect_error("SPX CONNECTIONS = 4\n", "5 to 150");
	expect_error("SPX ABORT TIMEOUT = 65536\n", "0 to 65535 ticks");
	expect_error("NETBIOS SEND BUFFERS = 21\n", "4 to 20");
	expect_error("NETBIOS RECEIVE BUFFERS = 3\n", "4 to 20");
	expect_error("NETBIOS SESSIONS = 251\n", "4 to 250");
	expect_error("NETBIOS COMMANDS = 3\n", "4 to 250");
	expect_error("IPX RETRY COUNT = 256\n", "0 to 255");
	expect_error("IPX SOCKETS = 99999999999999999999\n", "out of range");
}

/* Every numeric parameter's range as docs/config.md states it, written
 * out here (not read from the table in config.c, so a wrong range in
 * the table cannot pass). */
static const struct {
	const char *name;
	uint32_t min, max;
	size_t offset;
} ranges[] = {
#define R(n, f, lo, hi) { n, lo, hi, offsetof(struct ipx_config, f) }
	R("IPX SOCKETS", ipx_sockets, 10, 150),
	R("IPX RETRY COUNT", ipx_retry_count, 0, 255),
	R("SPX CONNECTIONS", spx_connections, 5, 150),
	R("SPX LISTEN TIMEOUT", spx_listen_timeout, 0, 65535),
	R("SPX VERIFY TIMEOUT", spx_verify_timeout, 0, 65535),
	R("SPX ABORT TIMEOUT", spx_abort_timeout, 0, 65535),
	R("NETBIOS SESSIONS", netbios_sessions, 4, 250),
	R("NETBIOS COMMANDS", netbios_commands, 4, 250),
	R("NETBIOS SEND BUFFERS", netbios_send_buffers, 4, 20),
	R("NETBIOS RECEIVE BUFFERS", netbios_receive_buffers, 4, 20),
	R("NETBIOS LISTEN TIMEOUT", netbios_listen_timeout, 1, 65535),
	R("NETBIOS VERIFY TIMEOUT", netbios_verify_timeout, 4, 65535),
	R("NETBIOS ABORT TIMEOUT", netbios_abort_timeout, 1, 65535),
	R("NETBIOS RETRY DELAY", netbios_retry_delay, 10, 65535),
	R("NETBIOS RETRY COUNT", netbios_retry_count, 1, 255),
	R("NETBIOS BROADCAST COUNT", netbios_broadcast_count, 1, 255),
	R("NETBIOS BROADCAST DELAY", netbios_broadcast_delay, 1, 65535),
#undef R
};

static void accept_value(size_t r, uint64_t v)
{
	struct ipx_config c;
	char text[80], err[256] = "";

	snprintf(text, sizeof(text), "%s = %llu\n", ranges[r].name,
		 (unsigned long long)v);
	if (parse(&c, text, err) != IPX_OK)
		fail_msg("'%s' refused: %s", text, err);
	assert_int_equal(*(uint32_t *)((char *)&c + ranges[r].offset), v);
}

static void refuse_value(size_t r, int64_t v)
{
	char text[80], want[96];

	snprintf(text, sizeof(text), "%s = %lld\n", ranges[r].name,
		 (long long)v);
	if (v < 0) {
		expect_error(text, "whole decimal number");
		return;
	}
	snprintf(want, sizeof(want), "SHELL.CFG:1: %s = %lld is out of range: "
		 "it must be %u to %u", ranges[r].name, (long long)v,
		 ranges[r].min, ranges[r].max);
	expect_error(text, want);
}

static void every_range_edge_is_kept(void **state)
{
	(void)state;
	/* Seventeen numeric parameters and NETBIOS INTERNET: all 18. */
	assert_int_equal(sizeof(ranges) / sizeof(ranges[0]) + 1,
			 IPX_CFG_NPARAMS);
	for (size_t r = 0; r < sizeof(ranges) / sizeof(ranges[0]); r++) {
		assert_int_not_equal(ipx_config_find(ranges[r].name), -1);
		accept_value(r, ranges[r].min);
		accept_value(r, ranges[r].max);
		refuse_value(r, (int64_t)ranges[r].min - 1);
		refuse_value(r, (int64_t)ranges[r].max + 1);
	}
}

static void refuses_bad_syntax(void **state)
{
	(void)state;
	expect_error("IPX SOCKETS = forty\n", "whole decimal number");
	expect_error("IPX SOCKETS = -5\n", "whole decimal number");
	expect_error("IPX SOCKETS = 0x20\n", "whole decimal number");
	expect_error("IPX SOCKETS =\n", "has no value");
	expect_error("IPX SOCKETS\n", "has no value");
	expect_error("= 5\n", "no parameter name");
	expect_error("NETBIOS INTERNET = MAYBE\n", "ON or OFF");
	expect_error("IPX SOCKETS = 20\nIPX SOCKETS = 30\n",
		     "SHELL.CFG:2: IPX SOCKETS is already set on line 1");
	expect_error("IPX SOCKETS = 2\0 0\n", "");
}

static void refuses_unknown_keys_and_patches(void **state)
{
	(void)state;
	expect_error("PREFERRED SERVER = FS1\n",
		     "SHELL.CFG:1: unknown parameter 'PREFERRED SERVER'");
	expect_error("IPX SOKETS = 20\n", "unknown parameter 'IPX SOKETS'");
	expect_error("IPATCH = 1234,56\n", "SHELL.CFG:1: IPATCH patches");
	expect_error("npatch 12,3\n", "NPATCH patches");
}

static void refuses_binary_and_overlong_lines(void **state)
{
	struct ipx_config c;
	char err[256], text[700];

	(void)state;
	ipx_config_defaults(&c);
	assert_int_equal(ipx_config_parse(&c, "F", "IPX SOCKETS = 2\0000\n",
					  18, err, sizeof(err)),
			 IPX_ECONFIG);
	assert_non_null(strstr(err, "F:1: binary data"));
	memset(text, 'A', sizeof(text));
	text[sizeof(text) - 1] = '\n';
	assert_int_equal(ipx_config_parse(&c, "F", text, sizeof(text), err,
					  sizeof(err)),
			 IPX_ECONFIG);
	assert_non_null(strstr(err, "F:1: line longer than"));
	assert_int_equal(ipx_config_parse(&c, "F", "IPX\001SOCKETS = 20", 16,
					  err, sizeof(err)),
			 IPX_ECONFIG);
	assert_non_null(strstr(err, "control character"));
}

static void netbios_internet_changes_three_defaults(void **state)
{
	struct ipx_config c;
	char err[256], origin[64];

	(void)state;
	assert_int_equal(parse(&c, "NETBIOS INTERNET = ON\n", err), IPX_OK);
	assert_int_equal(c.netbios_internet, 1);
	assert_int_equal(c.netbios_retry_count, 20);
	assert_int_equal(c.netbios_broadcast_count, 4);
	assert_int_equal(c.netbios_broadcast_delay, 38);
	ipx_config_origin_str(&c, (size_t)ipx_config_find("NETBIOS RETRY COUNT"),
			      origin, sizeof(origin));
	assert_string_equal(origin, "default (NETBIOS INTERNET = ON)");

	assert_int_equal(parse(&c, "netbios internet off\n", err), IPX_OK);
	assert_int_equal(c.netbios_retry_count, 10);
	assert_int_equal(c.netbios_broadcast_count, 2);
	assert_int_equal(c.netbios_broadcast_delay, 18);
}

static void explicit_settings_win_over_internet(void **state)
{
	struct ipx_config c;
	char err[256];

	(void)state;
	/* Before and after the INTERNET line: order does not matter. */
	assert_int_equal(parse(&c,
			       "NETBIOS BROADCAST COUNT = 3\n"
			       "NETBIOS INTERNET = ON\n"
			       "NETBIOS RETRY COUNT = 12\n",
			       err),
			 IPX_OK);
	assert_int_equal(c.netbios_broadcast_count, 3);
	assert_int_equal(c.netbios_retry_count, 12);
	assert_int_equal(c.netbios_broadcast_delay, 38);
}

static void origins_name_file_and_line(void **state)
{
	struct ipx_config c;
	char err[256], origin[300], value[64];

	(void)state;
	assert_int_equal(parse(&c, "\n\nSPX LISTEN TIMEOUT = 200\n", err),
			 IPX_OK);
	ipx_config_origin_str(&c, (size_t)ipx_config_find("spx listen timeout"),
			      origin, sizeof(origin));
	assert_string_equal(origin, "SHELL.CFG:3");
	ipx_config_origin_str(&c, (size_t)ipx_config_find("IPX SOCKETS"),
			      origin, sizeof(origin));
	assert_string_equal(origin, "default");
	ipx_config_value_str(&c, (size_t)ipx_config_find("SPX LISTEN TIMEOUT"),
			     value, sizeof(value));
	assert_string_equal(value, "200 ticks (11.0 s)");
	assert_int_equal(ipx_config_find("no such thing"), -1);
}

static void loads_files_and_reports_missing_ones(void **state)
{
	char path[] = "/tmp/ipxlab-cfg-XXXXXX", err[512];
	struct ipx_config c;
	FILE *f;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs("IPX SOCKETS = 33\nSPX CONNECTIONS = 3\n", f);
	fclose(f);
	ipx_config_defaults(&c);
	assert_int_equal(ipx_config_load(&c, path, err, sizeof(err)),
			 IPX_ECONFIG);
	assert_non_null(strstr(err, ":2: SPX CONNECTIONS = 3"));
	assert_int_equal(strncmp(err, path, strlen(path)), 0);
	unlink(path);
	assert_int_equal(ipx_config_load(&c, path, err, sizeof(err)),
			 IPX_ECONFIG);
	assert_non_null(strstr(err, "No such file"));
}

/* The size limits at their edges: lines of 511 characters and files of
 * 64 KiB are read; one character or byte more is refused. */
static void size_limits_are_exact(void **state)
{
	static char text[65536 + 1];
	char path[] = "/tmp/ipxlab-cfg-XXXXXX", err[512];
	struct ipx_config c;
	FILE *f;
	int fd;

	(void)state;
	/* A comment line of 511 characters, then one of 512. */
	memset(text, 'A', 512);
	text[0] = ';';
	text[511] = '\n';
	text[512] = '\0';
	assert_int_equal(parse(&c, text, err), IPX_OK);
	text[511] = 'A';
	text[512] = '\n';
	ipx_config_defaults(&c);
	assert_int_equal(ipx_config_parse(&c, "F", text, 513, err, sizeof(err)),
			 IPX_ECONFIG);
	assert_non_null(strstr(err, "F:1: line longer than 511 characters"));
	/* A file of exactly 64 KiB of comment lines, then one byte more. */
	for (size_t i = 0; i < 65536; i++)
		text[i] = i % 64 == 63 ? '\n' : i % 64 == 0 ? ';' : 'x';
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_int_equal(fwrite(text, 1, 65536, f), 65536);
	fclose(f);
	ipx_config_defaults(&c);
	if (ipx_config_load(&c, path, err, sizeof(err)) != IPX_OK)
		fail_msg("64 KiB refused: %s", err);
	f = fopen(path, "a");
	fputc('\n', f);
	fclose(f);
	assert_int_equal(ipx_config_load(&c, path, err, sizeof(err)),
			 IPX_ECONFIG);
	assert_non_null(strstr(err, "larger than 64 KiB"));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults_are_the_documented_ones),
		cmocka_unit_test(reads_keys_in_any_case_and_spacing),
		cmocka_unit_test(accepts_range_edges),
		cmocka_unit_test(every_range_edge_is_kept),
		cmocka_unit_test(refuses_out_of_range_values_with_file_and_line),
		cmocka_unit_test(refuses_bad_syntax),
		cmocka_unit_test(refuses_unknown_keys_and_patches),
		cmocka_unit_test(refuses_binary_and_overlong_lines),
		cmocka_unit_test(netbios_internet_changes_three_defaults),
		cmocka_unit_test(explicit_settings_win_over_internet),
		cmocka_unit_test(origins_name_file_and_line),
		cmocka_unit_test(loads_files_and_reports_missing_ones),
		cmocka_unit_test(size_limits_are_exact),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
