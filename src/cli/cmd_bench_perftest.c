/*
 * cmd_bench_perftest.c - "ipxlab bench perftest": B4, the performance
 * test of 1990 (docs/benchmarks.md): an application writes 4,096-byte
 * records to a file on the server as fast as it can, each record over
 * the previous one (one offset), and the result is the Kbyte/s of data
 * as the user sees it. Each workstation agent writes its own file, as
 * Novell's PERFORM gave each station a unique name; they start together
 * behind the harness's barrier. The note published no figure for it.
 *
 * This file parses the options, has the library build the network
 * (fsbench_start: bench_fsnet.h), calls
 * ipx_b4_run (src/bench/b4_perftest.c) once and prints: the table here, the JSON
 * and CSV from the library's writers.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fsbench.h"
#include "ipxlab/bench_fs.h"
#include "ipxlab/err.h"

#define CMD "bench"
#define DEFAULT_SECONDS 10.0
#define QUICK_SECONDS 2.0

enum { OPT_SIZE = FSB_OPT_FIRST, OPT_QUICK };

void help_bench_perftest(FILE *out)
{
	fprintf(out,
		"usage: ipxlab bench perftest [options]\n\n"
		"B4, the 1990 performance test: records of 4,096 bytes written to\n"
		"a file on the file server as fast as possible, each over the\n"
		"previous one (the same offset), in NCP writes of the negotiated\n"
		"buffer size (0x49) as a NetWare shell splits them; kB/s\n"
		"of data as the application sees it, per workstation and in\n"
		"total. Every workstation (an agent: own process, IPX node and NCP\n"
		"connection) writes its own file; all start together.\n\n"
		"  -s, --seconds S     how long (default %.0f)\n"
		"      --quick         %.0f s\n"
		"      --stations N    workstations at once (default 1; 1 to %d)\n"
		"      --size N        bytes per record (default %d; 1 to %d)\n"
		FSBENCH_HELP FSBENCH_PERIOD_HELP,
		DEFAULT_SECONDS, QUICK_SECONDS, IPX_BN_MAX_STATIONS,
		IPX_BN_PERF_RECORD, IPX_BN_PERF_MAX_RECORD);
}

struct perf {
	struct fsbench b;
	unsigned n;		/* workstations */
	unsigned long size;
	double secs;
	struct ipx_b4_report rep;
};

static void print_row(const struct perf *p, const char *who, unsigned i,
		      uint64_t records)
{
	struct ipx_stat_summary y;
	char n[24] = "";

	ipx_b4_spread(&p->rep, i, &y);
	if (i < p->n)
		snprintf(n, sizeof(n), "%llu", (unsigned long long)records);
	printf("%-12s %10s %12.1f", who, n, y.median);
	if (p->b.repeat > 1)
		printf("  [%.1f-%.1f]", y.min, y.max);
	printf("\n");
}

static void print(const struct perf *p)
{
	const struct fsbench *b = &p->b;

	if (b->csv) {
		ipx_b4_write_csv(stdout, &p->rep);
		return;
	}
	if (b->json) {
		ipx_b4_write_json(stdout, &p->rep, fsbench_jw_cond, &p->b);
		return;
	}
	printf("B4 performance test: %lu-byte records written overlaid to "
	       "file server '%s', %.1f s\n",
	       p->size, b->n.srvname, p->secs);
	fsbench_print_conditions(b, stdout);
	if (b->repeat > 1)
		printf("# %u runs: the median kB/s [min-max]; records of the "
		       "first run\n",
		       b->repeat);
	printf("%-12s %10s %12s\n", "workstation", "records", "kB/s");
	for (unsigned i = 0; i < p->n; i++) {
		char who[16];

		snprintf(who, sizeof(who), "%u", i + 1);
		print_row(p, who, i, p->rep.r[0][i].records);
	}
	if (p->n > 1)
		print_row(p, "total", p->n, 0);
	printf("kB = 1000 bytes of data written (the user's view). The 1990 "
	       "note published no figure for this test.\n");
	fsbench_no_fidelity(&p->b, "B4", stdout);
}

static int run(void *ctx)
{
	struct perf *p = ctx;
	struct ipx_b4_opts o = { .net = { p->b.n.ctl, &p->b.n.ro },
				 .stations = p->n, .seconds = p->secs,
				 .record = p->size, .repeat = p->b.repeat };
	char err[768];

	int rc;

	rc = ipx_b4_run(&o, fsbench_progress, &p->b, &p->rep, err,
			sizeof(err));
	if (fsbench_interrupted(&p->b, rc)) {	/* SIGINT, SIGTERM */
		ipx_b4_interrupted(&p->rep);
		cli_error(CMD, "perftest: interrupted; printing the %u run%s "
			       "that finished",
			  p->rep.done, p->rep.done == 1 ? "" : "s");
	} else if (rc != IPX_OK) {
		cli_error(CMD, "perftest: %s", err);
		return CLI_FAIL;
	}
	print(p);
	return p->rep.interrupted ? CLI_FAIL : CLI_OK;
}

/* The options into p: -1 to go on, else the command's exit code. */
static int parse(struct perf *p, int argc, char **argv)
{
	static const struct option longopts[] = {
		BENCH_SECONDS_LONGOPT,
		{ "quick", no_argument, NULL, OPT_QUICK },
		BENCH_STATIONS_LONGOPT,
		{ "size", required_argument, NULL, OPT_SIZE },
		FSBENCH_LONGOPTS,
		FSBENCH_PERIOD_LONGOPT,
		{ NULL, 0, NULL, 0 },
	};
	unsigned long n = 1;
	bool quick = false, secs_given = false;
	int opt, rc = CLI_OK, code = CLI_OK;

	optind = 1;
	opterr = 0;
	while (rc == CLI_OK &&
	       (opt = getopt_long(argc, argv, ":s:qvh", longopts, NULL)) !=
		       -1) {
		if (opt == 's') {
			if (bench_seconds_opt(optarg, 3600, &p->secs) < 0)
				rc = CLI_USAGE;
			secs_given = true;
		} else if (opt == OPT_QUICK) {
			quick = true;
		} else if (opt == BENCH_OPT_STATIONS) {
			if (cli_parse_uint(CMD, "--stations", optarg, 1,
					   IPX_BN_MAX_STATIONS, &n) < 0)
				rc = CLI_USAGE;
		} else if (opt == OPT_SIZE) {
			if (cli_parse_uint(CMD, "--size", optarg, 1,
					   IPX_BN_PERF_MAX_RECORD, &p->size) < 0)
				rc = CLI_USAGE;
		} else if (opt == 'h') {
			help_bench_perftest(stdout);
			return CLI_OK;
		} else {
			int r = fsbench_opt(&p->b, opt, optarg, (unsigned)n,
					    &code);

			if (r == 2)
				return code;
			if (r <= 0)
				rc = r < 0 ? CLI_USAGE
					   : bench_bad_option("perftest", opt,
							      argv);
		}
	}
	if (rc == CLI_OK && optind < argc) {
		cli_error(CMD, "perftest: unexpected argument '%s'",
			  argv[optind]);
		rc = CLI_USAGE;
	}
	if (rc == CLI_OK && quick && secs_given) {
		cli_error(CMD, "--quick and --seconds exclude each other");
		rc = CLI_USAGE;
	}
	if (quick)
		p->secs = QUICK_SECONDS;
	p->n = (unsigned)n;
	p->b.agents = p->n;
	return rc == CLI_OK ? -1 : rc;
}

int bench_perftest(int argc, char **argv)
{
	struct perf *p = calloc(1, sizeof(*p));
	int rc;

	if (!p) {
		cli_error(CMD, "out of memory");
		return CLI_FAIL;
	}
	p->b.cmd = "perftest";
	p->b.wait = 10;
	p->secs = DEFAULT_SECONDS;
	p->size = IPX_BN_PERF_RECORD;
	rc = parse(p, argc, argv);
	if (rc >= 0) {
		free(p);
		return rc;
	}
	rc = fsbench_main(&p->b, p->n, run, p);
	free(p);
	return rc;
}
