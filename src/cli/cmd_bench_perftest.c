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
#include "ipxlab/bench_result.h"
#include "ipxlab/bench_stat.h"
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
		"buffer size (0x49) as a NetWare shell splits them; kB/s\n"
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

/* One workstation's run. */
struct rec {
	unsigned repeat, station;	/* from 1 */
	uint64_t records;
	double seconds, kbs;
};

/* A run's row, in the CSV and in the JSON's runs. */
static const struct ipx_rfield rec_fields[] = {
	IPX_RF(struct rec, repeat, "repeat", "", NULL, IPX_RF_UINT, IPX_RF_CSV),
	IPX_RF(struct rec, station, "station", "", NULL, IPX_RF_UINT,
	       IPX_RF_CSV),
	IPX_RF(struct rec, records, "records", "records", NULL, IPX_RF_U64,
	       IPX_RF_BOTH),
	IPX_RF(struct rec, seconds, "seconds", "s", "%.6f", IPX_RF_DOUBLE,
	       IPX_RF_BOTH),
	IPX_RF(struct rec, kbs, "kB_per_s", "kB/s", "%.3f", IPX_RF_DOUBLE,
	       IPX_RF_BOTH),
};
static const struct ipx_rtable rec_table = IPX_RTABLE("run", rec_fields);

struct perf {
	struct fsbench b;
	unsigned n;		/* workstations */
	unsigned long size;
	double secs;
	struct rec r[FSBENCH_MAX_REPEAT][IPX_BN_MAX_STATIONS];
};

static double total(const struct perf *p, unsigned k)
{
	double t = 0;

	for (unsigned i = 0; i < p->n; i++)
		t += p->r[k][i].kbs;
	return t;
}

/* Station i's Kbyte/s over the repeats (i == n: the total). */
static void spread(const struct perf *p, unsigned i,
		   struct ipx_stat_summary *out)
{
	double v[FSBENCH_MAX_REPEAT];

	for (unsigned k = 0; k < p->b.repeat; k++)
		v[k] = i < p->n ? p->r[k][i].kbs : total(p, k);
	ipx_stat_summarize(v, p->b.repeat, out);
}

static void print_row(const struct perf *p, const char *who, unsigned i,
		      uint64_t records)
{
	struct ipx_stat_summary y;
	char n[24] = "";

	spread(p, i, &y);
	if (i < p->n)
		snprintf(n, sizeof(n), "%llu", (unsigned long long)records);
	printf("%-12s %10s %12.1f", who, n, y.median);
	if (p->b.repeat > 1)
		printf("  [%.1f-%.1f]", y.min, y.max);
	printf("\n");
}

static void print_json(const struct perf *p)
{
	const struct fsbench *b = &p->b;
	struct ipx_stat_summary y;
	struct ipx_jw w;

	ipx_jw_init(&w, stdout);
	ipx_jw_obj(&w, NULL);
	ipx_jw_str(&w, "benchmark", "perftest");
	ipx_jw_obj(&w, "conditions");
	fsbench_jw_conditions(b, &w);
	ipx_jw_dbl(&w, "seconds", "%.3f", p->secs);
	ipx_jw_u64(&w, "record", p->size);
	ipx_jw_u64(&w, "repeat", b->repeat);
	ipx_jw_end(&w);
	ipx_jw_arr(&w, "runs");
	for (unsigned k = 0; k < b->repeat; k++) {
		ipx_jw_obj(&w, NULL);
		ipx_jw_arr(&w, "per_workstation");
		for (unsigned i = 0; i < p->n; i++)
			ipx_res_json_row(&w, NULL, &rec_table, &p->r[k][i]);
		ipx_jw_end(&w);
		ipx_jw_dbl(&w, "total_kB_per_s", "%.3f", total(p, k));
		ipx_jw_end(&w);
	}
	ipx_jw_end(&w);
	ipx_jw_arr(&w, "per_workstation");
	for (unsigned i = 0; i < p->n; i++) {
		spread(p, i, &y);
		ipx_jw_obj(&w, NULL);
		ipx_jw_u64(&w, "records", p->r[0][i].records);
		ipx_jw_dbl(&w, "seconds", "%.6f", p->r[0][i].seconds);
		ipx_jw_dbl(&w, "kB_per_s", "%.3f", y.median);
		ipx_jw_dbl(&w, "kB_per_s_min", "%.3f", y.min);
		ipx_jw_dbl(&w, "kB_per_s_max", "%.3f", y.max);
		ipx_jw_end(&w);
	}
	ipx_jw_end(&w);
	spread(p, p->n, &y);
	ipx_jw_dbl(&w, "total_kB_per_s", "%.3f", y.median);
	ipx_jw_dbl(&w, "total_kB_per_s_min", "%.3f", y.min);
	ipx_jw_dbl(&w, "total_kB_per_s_max", "%.3f", y.max);
	ipx_jw_finish(&w);
}

static void print(const struct perf *p)
{
	const struct fsbench *b = &p->b;

	if (b->csv) {
		ipx_res_csv_header(stdout, &rec_table);
		for (unsigned k = 0; k < b->repeat; k++)
			for (unsigned i = 0; i < p->n; i++)
				ipx_res_csv_row(stdout, &rec_table,
						&p->r[k][i]);
		return;
	}
	if (b->json) {
		print_json(p);
		return;
	}
	printf("B4 performance test: %lu-byte records written overlaid to "
	       "file server '%s', %.1f s\n",
	       p->size, b->srvname, p->secs);
	fsbench_print_conditions(b, stdout);
	if (b->repeat > 1)
		printf("# %u runs: the median kB/s [min-max]; records of the "
		       "first run\n",
		       b->repeat);
	printf("%-12s %10s %12s\n", "workstation", "records", "kB/s");
	for (unsigned i = 0; i < p->n; i++) {
		char who[16];

		snprintf(who, sizeof(who), "%u", i + 1);
		print_row(p, who, i, p->r[0][i].records);
	}
	if (p->n > 1)
		print_row(p, "total", p->n, 0);
	printf("kB = 1000 bytes of data written (the user's view). The 1990 "
	       "note published no figure for this test.\n");
}

static int run(struct perf *p)
{
	struct ipx_bw_result r[IPX_BN_MAX_STATIONS];
	char err[768];

	for (unsigned k = 0; k < p->b.repeat; k++) {
		if (p->b.progress)
			fprintf(stderr, "\r\033[K  perftest: %u workstation%s, "
					"%.1f s, run %u/%u",
				p->n, p->n == 1 ? "" : "s", p->secs, k + 1,
				p->b.repeat);
		if (ipx_bn_run(p->b.ctl, &p->b.ro, IPX_BN_PERFTEST, p->n,
			       p->secs, 0, p->size, (uint16_t)(k + 1), r, err,
			       sizeof(err)) != IPX_OK) {
			if (p->b.progress)
				fprintf(stderr, "\r\033[K");
			cli_error(CMD, "perftest: %s", err);
			return CLI_FAIL;
		}
		for (unsigned i = 0; i < p->n; i++) {
			p->r[k][i].repeat = k + 1;
			p->r[k][i].station = i + 1;
			p->r[k][i].records = r[i].sent;
			p->r[k][i].seconds = r[i].seconds;
			p->r[k][i].kbs = r[i].seconds > 0
						 ? r[i].sent * (double)p->size /
							   1000 / r[i].seconds
						 : 0;
		}
	}
	if (p->b.progress)
		fprintf(stderr, "\r\033[K");
	print(p);
	return CLI_OK;
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
	struct perf *p = calloc(1, sizeof(*p));
	unsigned long n = 1;
	bool quick = false, secs_given = false;
	int opt, rc = CLI_OK, code = CLI_OK;

	if (!p) {
		cli_error(CMD, "out of memory");
		return CLI_FAIL;
	}
	p->b.cmd = "perftest";
	p->b.wait = 10;
	p->secs = DEFAULT_SECONDS;
	p->size = IPX_BN_PERF_RECORD;
	optind = 1;
	opterr = 0;
	while (rc == CLI_OK &&
	       (opt = getopt_long(argc, argv, ":s:qvh", longopts, NULL)) !=
		       -1) {
		if (opt == 's') {
			if (cli_parse_seconds(CMD, "--seconds", optarg, 0.1,
					      3600, &p->secs) < 0)
				rc = CLI_USAGE;
			secs_given = true;
		} else if (opt == OPT_QUICK) {
			quick = true;
		} else if (opt == OPT_STATIONS) {
			if (cli_parse_uint(CMD, "--stations", optarg, 1,
					   IPX_BN_MAX_STATIONS, &n) < 0)
				rc = CLI_USAGE;
		} else if (opt == OPT_SIZE) {
			if (cli_parse_uint(CMD, "--size", optarg, 1,
					   IPX_BN_PERF_MAX_RECORD, &p->size) < 0)
				rc = CLI_USAGE;
		} else if (opt == 'h') {
			help_bench_perftest(stdout);
			free(p);
			return CLI_OK;
		} else {
			int r = fsbench_opt(&p->b, opt, optarg, (unsigned)n,
					    &code);

			if (r == 2) {
				free(p);
				return code;
			}
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
	if (rc == CLI_OK)
		rc = fsbench_check(&p->b);
	if (rc == CLI_OK)
		rc = fsbench_need(&p->b, p->n);
	if (rc == CLI_OK) {
		if (ipx_log_get_level() == IPX_LOG_INFO)
			ipx_log_set_level(IPX_LOG_WARN);
		rc = fsbench_start(&p->b);
		if (rc == CLI_OK)
			rc = run(p);
		fsbench_stop(&p->b, rc == CLI_OK);
	}
	free(p);
	return rc;
}
