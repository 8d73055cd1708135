/*
 * cmd_bench_perftest.c - "ipxlab bench perftest": B4, the performance
 * test of 1990 (docs/benchmarks.md): an application writes 4,096-byte
 * records to a file on the server as fast as it can, each record over
 * the previous one (one offset), and the result is the Kbyte/s of data
 * as the user sees it. Each workstation agent writes its own file, as
 * Novell's PERFORM gave each station a unique name; they start together
 * behind the harness's barrier. The note published no figure for it.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fsbench.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"

#define CMD "bench"
#define DEFAULT_SECONDS 10.0
#define QUICK_SECONDS 2.0

enum { OPT_STATIONS = FSB_OPT_FIRST, OPT_SIZE, OPT_QUICK };

void help_bench_perftest(FILE *out)
{
	fprintf(out,
		"usage: ipxlab bench perftest [options]\n\n"
		"B4, the 1990 performance test: records of 4,096 bytes written to\n"
		"a file on the file server as fast as possible, each over the\n"
		"previous one (the same offset), in NCP writes of the negotiated\n"
		"buffer size (0x49) as a NetWare shell splits them; Kbyte/s\n"
		"of data as the application sees it, per workstation and in\n"
		"total. Every workstation (an agent: own process, IPX node and NCP\n"
		"connection) writes its own file; all start together.\n\n"
		"  -s, --seconds S     how long (default %.0f)\n"
		"      --quick         %.0f s\n"
		"      --stations N    workstations at once (default 1; 1 to %d)\n"
		"      --size N        bytes per record (default %d; 1 to %d)\n"
		FSBENCH_HELP,
		DEFAULT_SECONDS, QUICK_SECONDS, IPX_BN_MAX_STATIONS,
		IPX_BN_PERF_RECORD, IPX_BN_PERF_MAX_RECORD);
}

static double kbs(const struct ipx_bw_result *r, unsigned long size)
{
	return r->seconds > 0 ? r->sent * (double)size / 1024 / r->seconds : 0;
}

static void print(const struct fsbench *b, const struct ipx_bw_result *r,
		  unsigned n, unsigned long size, double secs)
{
	double total = 0;

	if (b->csv) {
		printf("station,records,seconds,kbytes_per_s\n");
		for (unsigned i = 0; i < n; i++)
			printf("%u,%llu,%.6f,%.3f\n", i + 1,
			       (unsigned long long)r[i].sent, r[i].seconds,
			       kbs(&r[i], size));
		return;
	}
	if (b->json) {
		printf("{\"benchmark\":\"perftest\",\"conditions\":{");
		fsbench_json_conditions(b, stdout);
		printf(",\"seconds\":%.3f,\"record\":%lu},\"per_workstation\":[",
		       secs, size);
		for (unsigned i = 0; i < n; i++) {
			printf("%s{\"records\":%llu,\"seconds\":%.6f,"
			       "\"kbytes_per_s\":%.3f}",
			       i ? "," : "", (unsigned long long)r[i].sent,
			       r[i].seconds, kbs(&r[i], size));
			total += kbs(&r[i], size);
		}
		printf("],\"total_kbytes_per_s\":%.3f}\n", total);
		return;
	}
	printf("B4 performance test: %lu-byte records written overlaid to "
	       "file server '%s', %.1f s\n",
	       size, b->srvname, secs);
	fsbench_print_conditions(b, stdout);
	printf("%-12s %10s %12s\n", "workstation", "records", "KB/s");
	for (unsigned i = 0; i < n; i++) {
		printf("%-12u %10llu %12.1f\n", i + 1,
		       (unsigned long long)r[i].sent, kbs(&r[i], size));
		total += kbs(&r[i], size);
	}
	if (n > 1)
		printf("%-12s %10s %12.1f\n", "total", "", total);
	printf("KB = 1024 bytes of data written (the user's view). The 1990 "
	       "note published no figure for this test.\n");
}

int bench_perftest(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "seconds", required_argument, NULL, 's' },
		{ "quick", no_argument, NULL, OPT_QUICK },
		{ "stations", required_argument, NULL, OPT_STATIONS },
		{ "size", required_argument, NULL, OPT_SIZE },
		FSBENCH_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct fsbench b;
	struct ipx_bw_result r[IPX_BN_MAX_STATIONS];
	double secs = DEFAULT_SECONDS;
	unsigned long n = 1, size = IPX_BN_PERF_RECORD;
	bool quick = false, secs_given = false;
	char err[768];
	int opt, rc, code = CLI_OK;

	memset(&b, 0, sizeof(b));
	b.cmd = "perftest";
	b.wait = 10;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":s:qvh", longopts, NULL)) !=
	       -1) {
		if (opt == 's') {
			if (cli_parse_seconds(CMD, "--seconds", optarg, 0.1,
					      3600, &secs) < 0)
				return CLI_USAGE;
			secs_given = true;
		} else if (opt == OPT_QUICK) {
			quick = true;
		} else if (opt == OPT_STATIONS) {
			if (cli_parse_uint(CMD, "--stations", optarg, 1,
					   IPX_BN_MAX_STATIONS, &n) < 0)
				return CLI_USAGE;
		} else if (opt == OPT_SIZE) {
			if (cli_parse_uint(CMD, "--size", optarg, 1,
					   IPX_BN_PERF_MAX_RECORD, &size) < 0)
				return CLI_USAGE;
		} else if (opt == 'h') {
			help_bench_perftest(stdout);
			return CLI_OK;
		} else {
			rc = fsbench_opt(&b, opt, optarg, (unsigned)n, &code);
			if (rc == 2)
				return code;
			if (rc <= 0)
				return rc < 0 ? CLI_USAGE
					      : bench_bad_option("perftest", opt,
								 argv);
		}
	}
	if (optind < argc) {
		cli_error(CMD, "perftest: unexpected argument '%s'",
			  argv[optind]);
		return CLI_USAGE;
	}
	if (quick && secs_given) {
		cli_error(CMD, "--quick and --seconds exclude each other");
		return CLI_USAGE;
	}
	if (quick)
		secs = QUICK_SECONDS;
	b.agents = (unsigned)n;
	rc = fsbench_check(&b);
	if (rc != CLI_OK)
		return rc;
	if (ipx_log_get_level() == IPX_LOG_INFO)
		ipx_log_set_level(IPX_LOG_WARN);
	rc = fsbench_start(&b);
	if (rc == CLI_OK) {
		if (b.progress)
			fprintf(stderr, "\r\033[K  perftest: %lu workstation%s, "
					"%.1f s",
				n, n == 1 ? "" : "s", secs);
		if (ipx_bn_run(b.ctl, &b.ro, IPX_BN_PERFTEST, n, secs, 0, size,
			       1, r, err, sizeof(err)) != IPX_OK) {
			cli_error(CMD, "perftest: %s", err);
			rc = CLI_FAIL;
		}
		if (b.progress)
			fprintf(stderr, "\r\033[K");
		if (rc == CLI_OK)
			print(&b, r, (unsigned)n, size, secs);
	}
	fsbench_stop(&b, rc == CLI_OK);
	return rc;
}
