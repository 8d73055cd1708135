/*
 * cmd_bench_battery.c - "ipxlab bench battery": B2, the Network Test
 * Battery of 1990 (docs/benchmarks.md): the eleven file-server operations,
 * each repeated for 20 s (the directory searches 10 s) by 1 and then by 5
 * workstations at once, as operations per second per workstation and in
 * total, and the analyzer's peak Kbyte/s per test from the hub's capture
 * beside the only per-test figures the 1990 note published (peak Kbyte/s
 * on the wire, one workstation). The single-request operations
 * are set against what the round trip measured in the same run allows.
 *
 * This file parses the options, has the library build the network
 * (fsbench_start: bench_fsnet.h), calls
 * ipx_b2_run (src/bench/b2_battery.c) once and prints: the table here, the JSON
 * and CSV from the library's writers.
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fsbench.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"

#define CMD "bench"
#define QUICK_SECONDS 1.0

enum { OPT_ONLY = FSB_OPT_FIRST, OPT_QUICK };

void help_bench_battery(FILE *out)
{
	fprintf(out,
		"usage: ipxlab bench battery [options]\n\n"
		"B2, the 1990 Network Test Battery: eleven file-server operations\n"
		"(open/close in one and in four levels of directories, 1-byte\n"
		"reads of a 4 KB and a 4 MB shared file, create/write/close/delete,\n"
		"64-byte random and sequential reads of a private 128 KB file,\n"
		"16 KB block reads, *.* and random directory searches, record\n"
		"lock/unlock), each for 20 s (the searches 10 s) by 1 and by 5\n"
		"workstations at once. Workstations are agents (own process, own\n"
		"IPX node, own NCP connection), started together behind a barrier;\n"
		"the table gives ops/s per workstation and in total, each one's\n"
		"traffic on its link, the analyzer's peak kB/s (1000 bytes) of the\n"
		"test (the busiest 1 s window of the hub's capture, not with --hub;\n"
		"with --sim the simulated segment's) and the\n"
		"1990 peak Kbyte/s beside. 1-byte reads and lock/unlock are\n"
		"set against the round trip (ping of the server) measured\n"
		"first: target %.0f%% of one round trip per request.\n\n"
		"  -s, --seconds S     per test instead of 20 (searches: half)\n"
		"      --quick         %.0f s per test (searches half): the whole\n"
		"                      battery in well under 2 minutes\n"
		"      --stations LIST workstation counts, e.g. 1,5 (default;\n"
		"                      1 to %d each)\n"
		"      --only OPS      these tests only, e.g. lock,shared-small:\n"
		"                      open-multi open-single shared-small\n"
		"                      shared-large create private-random\n"
		"                      private-seq block dir-search random-search\n"
		"                      lock\n" FSBENCH_HELP FSBENCH_PERIOD_HELP,
		IPX_B2_TARGET * 100, QUICK_SECONDS, IPX_BN_MAX_STATIONS);
}

struct battery {
	struct fsbench b;
	struct ipx_b2_opts o;
	struct ipx_b2_report rep;
	/* --period: the same tests with one workstation on the wire alone,
	 * and the fidelity table */
	struct ipx_b2_report today;
	bool have_today, have_fid;
	struct ipx_fid_table fid;
};

/* One line of the table: test op with sets[s] workstations. */
static void print_row(const struct battery *t, size_t s, int op)
{
	struct ipx_b2_rows r;
	double l, br;

	ipx_b2_summarize_repeats(&t->rep, s, op, &r);
	ipx_bn_published_kbs(op, &l, &br);
	printf("%-38s %3u %9.0f %9.0f %9.0f %10.0f %9.1f ",
	       s ? "" : ipx_bn_op_title(op), t->o.sets[s],
	       r.med.mean, r.med.min, r.med.max, r.med.total,
	       r.med.wire_kB_per_s);
	if (r.wire && r.short_span)
		printf("%8.1f*  ", r.peak.median);
	else if (r.wire)
		printf("%9.1f  ", r.peak.median);
	else
		printf("%9s  ", "-");
	if (t->o.sets[s] == 1)
		printf("%5.0f | %-3.0f", l, br);
	else
		printf("%5s", "-");
	if (t->b.repeat > 1)
		printf("  ws mean [%.0f-%.0f]", r.mean.min,
		       r.mean.max);
	if (t->b.repeat > 1 && r.wire)
		printf(" peak [%.1f-%.1f]", r.peak.min,
		       r.peak.max);
	if (op == IPX_BN_RANDOM_SEARCH)
		printf("  (%llu of %llu missed)",
		       (unsigned long long)r.misses,
		       (unsigned long long)r.ops);
	printf("\n");
}

/* What the columns mean, below the table. */
static void print_notes(const struct battery *t)
{
	printf("Per-test seconds: %.1f (searches %.1f). Link kB/s (kB = 1000 bytes): IPX bytes "
	       "the workstation's link sent and received, mean over the "
	       "test. Analyzer peak: the busiest 1 s window %s, as the "
	       "1990 analyzer saw the LAN (a test shorter than the window, "
	       "marked *, over its whole span instead; never below the "
	       "mean); 1990 figures are for one workstation only, in the "
	       "note's Kbyte (it does not say 1000 or 1024 bytes).\n",
	       ipx_b2_op_seconds(&t->o, IPX_BN_LOCK),
	       ipx_b2_op_seconds(&t->o, IPX_BN_DIR_SEARCH),
	       t->b.sim ? "of simulated time on the workstations' segment "
			  "(every frame once, as the profile's wire bytes)"
	       : t->b.n.cap.pcap[0] ? "on the hub (every workstation's and the "
				"server's packets, each once, 14-byte "
				"Ethernet header included; recorded on the "
				"hub started here)"
			      : "on the hub ('-': a given hub is not "
				"recorded)");
}

/* The single-request tests against their round-trip bound. */
static void print_targets(const struct battery *t)
{
	unsigned targets = 0;

	printf("Round-trip targets (1 workstation alone; %.0f%% of one round "
	       "trip per request, the round trip pinged just before the "
	       "test):\n",
	       IPX_B2_TARGET * 100);
	for (int op = 0; op < IPX_BN_BATTERY_OPS; op++) {
		double bnd = ipx_b2_bound(&t->rep, op);

		for (size_t s = 0; s < t->o.nsets && t->o.only[op] && bnd > 0;
		     s++) {
			struct ipx_b2_rows r;
			struct ipx_b2_row w;

			if (t->o.sets[s] != 1 || !ipx_b2_shown(&t->rep, s, op))
				continue;
			targets++;
			ipx_b2_summarize_repeats(&t->rep, s, op, &r);
			w = r.med;
			printf("  %-36s %9.0f ops/s  bound %9.0f (%u request%s "
			       "x %.1f us)  %5.1f%%  %s\n",
			       ipx_bn_op_title(op), w.mean, bnd,
			       ipx_bn_op_requests(op),
			       ipx_bn_op_requests(op) == 1 ? "" : "s",
			       t->rep.rtt_op[op] * 1e6, w.mean / bnd * 100,
			       w.mean >= IPX_B2_TARGET * bnd ? "PASS" : "MISS");
			break;
		}
	}
	if (!targets)
		printf("  none: no 1-byte read or lock test ran with 1 "
		       "workstation\n");
}

static void print_table(const struct battery *t)
{
	printf("B2 Network Test Battery: ipxlab file server '%s', NCP over "
	       "IPX\n",
	       t->b.n.srvname);
	fsbench_print_conditions(&t->b, stdout);
	printf("# round trip %.1f us (ping of the server by ws1, %llu in "
	       "%.1f s)\n",
	       t->rep.rtt * 1e6, (unsigned long long)t->rep.pings,
	       IPX_B2_PING_SECONDS);
	if (t->b.repeat > 1)
		printf("# each test %u times: the median, [min-max] of the "
		       "repeats where shown\n",
		       t->b.repeat);
	printf("%-38s %3s %9s %9s %9s %10s %9s %9s  %s\n", "", "",
	       "ops/s per", "", "", "total", "link kB/s", "analyzer",
	       "1990 peak Kbyte/s");
	printf("%-38s %3s %9s %9s %9s %10s %9s %9s  %s\n", "test", "ws",
	       "ws mean", "min", "max", "ops/s", "per ws", "peak kB/s",
	       "local | bridged");
	for (int op = 0; op < IPX_BN_BATTERY_OPS; op++)
		for (size_t s = 0; s < t->o.nsets && t->o.only[op]; s++)
			if (ipx_b2_shown(&t->rep, s, op))
				print_row(t, s, op);
	print_notes(t);
	print_targets(t);
}

/* --period's "today": the tests with one workstation on the wire alone. */
static int run_today(struct fsbench *today, void *ctx)
{
	struct battery *t = ctx;
	struct ipx_b2_opts o = t->o;
	char err[768];

	o.sets[0] = 1;
	o.nsets = 1;
	o.repeat = 1;
	if (ipx_b2_report_init(&t->today, &o) != IPX_OK) {
		cli_error(CMD, "out of memory");
		return CLI_FAIL;
	}
	t->have_today = true;
	fsbench_net(today, &o.net);
	if (ipx_b2_run(&o, fsbench_progress, today, &t->today, err,
		       sizeof(err)) != IPX_OK) {
		cli_error(CMD, "battery (the wire alone, for the fidelity "
			       "table): %s",
			  err);
		return CLI_FAIL;
	}
	return CLI_OK;
}

/* --period: the fidelity table, when a one-workstation set ran. */
static int fidelity(struct battery *t)
{
	bool one = false;

	for (size_t s = 0; s < t->o.nsets; s++)
		one |= t->o.sets[s] == 1;
	if (!t->b.have_period || t->rep.interrupted || !one)
		return CLI_OK;
	if (fsbench_today(&t->b, 1, run_today, t) != CLI_OK)
		return CLI_FAIL;
	ipx_b2_fidelity(&t->rep, &t->today, t->b.have_bridge,
			t->b.period.name, &t->fid);
	t->have_fid = true;
	t->rep.fidelity = &t->fid;
	return CLI_OK;
}

static int run(struct battery *t)
{
	char err[768];
	int rc;

	fsbench_net(&t->b, &t->o.net);
	rc = ipx_b2_run(&t->o, fsbench_progress, &t->b, &t->rep, err,
			sizeof(err));
	if (fsbench_interrupted(&t->b, rc)) {	/* SIGINT, SIGTERM */
		t->rep.interrupted = true;
		cli_error(CMD, "battery: interrupted; printing the tests that "
			       "finished");
	} else if (rc != IPX_OK) {
		cli_error(CMD, "battery: %s", err);
		return CLI_FAIL;
	}
	if (fsbench_wire_collect(&t->b) != CLI_OK || fidelity(t) != CLI_OK)
		return CLI_FAIL;
	if (t->b.json)
		ipx_b2_write_json(stdout, &t->rep, fsbench_jw_cond, &t->b);
	else if (t->b.csv)
		ipx_b2_write_csv(stdout, &t->rep);
	else
		print_table(t);
	if (t->have_fid && !t->b.json && !t->b.csv)
		ipx_fid_print(stdout, &t->fid);
	else if (t->b.have_period && !t->b.json && !t->b.csv)
		printf("No fidelity table: the 1990 figures are for one "
		       "workstation, and no test ran with one.\n");
	if (t->rep.interrupted && !t->b.json && !t->b.csv)
		printf("Interrupted: only the tests above finished.\n");
	return t->rep.interrupted ? CLI_FAIL : CLI_OK;
}

/* The options into t: -1 to go on, else the command's exit code. */
static int parse(struct battery *t, int argc, char **argv)
{
	static const struct option longopts[] = {
		BENCH_SECONDS_LONGOPT,
		BENCH_STATIONS_LONGOPT,
		{ "only", required_argument, NULL, OPT_ONLY },
		{ "quick", no_argument, NULL, OPT_QUICK },
		FSBENCH_LONGOPTS,
		FSBENCH_PERIOD_LONGOPT,
		{ NULL, 0, NULL, 0 },
	};
	const char *fixtures = NULL;
	bool seconds_given = false, quick = false;
	int opt, rc, code = CLI_OK;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":s:qvh", longopts, NULL)) !=
	       -1) {
		switch (opt) {
		case 's':
			if (bench_seconds_opt(optarg, 3600, &t->o.seconds) < 0)
				return CLI_USAGE;
			seconds_given = true;
			continue;
		case OPT_QUICK:
			quick = true;
			continue;
		case BENCH_OPT_STATIONS:
			if (fsbench_parse_counts("--stations", optarg, t->o.sets,
						  IPX_B2_MAX_SETS, &t->o.nsets) < 0)
				return CLI_USAGE;
			continue;
		case OPT_ONLY:
			if (fsbench_parse_ops(optarg, t->o.only) < 0)
				return CLI_USAGE;
			continue;
		case FSB_OPT_FIXTURES:
			fixtures = optarg;	/* after --stations */
			continue;
		case 'h':
			help_bench_battery(stdout);
			return CLI_OK;
		default:
			break;
		}
		rc = fsbench_opt(&t->b, opt, optarg, 0, &code);
		if (rc < 0)
			return CLI_USAGE;
		if (rc == 0)
			return bench_bad_option("battery", opt, argv);
	}
	if (optind < argc) {
		cli_error(CMD, "battery: unexpected argument '%s'",
			  argv[optind]);
		return CLI_USAGE;
	}
	if (quick && seconds_given) {
		cli_error(CMD, "--quick and --seconds exclude each other");
		return CLI_USAGE;
	}
	if (quick)
		t->o.seconds = QUICK_SECONDS;
	for (size_t s = 0; s < t->o.nsets; s++)
		t->b.agents = t->o.sets[s] > t->b.agents ? t->o.sets[s]
						     : t->b.agents;
	if (fixtures) {
		fsbench_opt(&t->b, FSB_OPT_FIXTURES, fixtures, t->b.agents,
			    &code);
		return code;
	}
	return -1;
}

int bench_battery(int argc, char **argv)
{
	struct battery t;
	unsigned want;
	int rc;

	memset(&t, 0, sizeof(t));
	t.b.cmd = "battery";
	t.b.wait = 10;
	t.o.sets[0] = 1;
	t.o.sets[1] = 5;
	t.o.nsets = 2;
	memset(t.o.only, 1, sizeof(t.o.only));
	rc = parse(&t, argc, argv);
	if (rc >= 0)
		return rc;
	want = t.b.agents;
	rc = fsbench_check(&t.b);
	if (rc == CLI_OK)
		rc = fsbench_need(&t.b, want);
	if (rc != CLI_OK)
		return rc;
	t.b.capture = true;
	t.o.repeat = t.b.repeat;
	if (ipx_b2_report_init(&t.rep, &t.o) != IPX_OK) {
		cli_error(CMD, "out of memory");
		return CLI_FAIL;
	}
	if (ipx_log_get_level() == IPX_LOG_INFO)
		ipx_log_set_level(IPX_LOG_WARN);
	rc = fsbench_start(&t.b);
	if (rc == CLI_OK)
		rc = run(&t);
	fsbench_stop(&t.b, rc == CLI_OK);
	ipx_b2_report_free(&t.rep);
	if (t.have_today)
		ipx_b2_report_free(&t.today);
	return rc;
}
