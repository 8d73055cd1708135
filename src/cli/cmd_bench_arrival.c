/*
 * cmd_bench_arrival.c - "ipxlab bench arrival": B5, the packet arrival
 * time distribution of 1990 (docs/benchmarks.md): while the 25,184-byte
 * file is transferred from the file server to the workstations (1, then
 * 5 at once, behind the barrier), the hub started here records every
 * packet once as it receives it, and the analyzer sorts the gaps between
 * consecutive packets into the published buckets (0-4 ... >=30 ms), for
 * all the traffic together and per workstation. No 1990 figures for
 * this test are at hand: none is printed.
 *
 * This file parses the options, has the library build the network
 * (fsbench_start: bench_fsnet.h), calls
 * ipx_b5_run (src/bench/b5_arrival.c) once and prints: the table here, the JSON
 * and CSV from the library's writers.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fsbench.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"

#define CMD "bench"
#define DEFAULT_TRANSFERS 20
#define QUICK_TRANSFERS 5
#define MAX_TRANSFERS 200

enum { OPT_TRANSFERS = FSB_OPT_FIRST, OPT_QUICK };

void help_bench_arrival(FILE *out)
{
	fprintf(out,
		"usage: ipxlab bench arrival [options]\n\n"
		"B5, the 1990 packet arrival time distribution: the 25,184-byte\n"
		"file C25184.DAT copied from the file server to each workstation\n"
		"(1, then 5 at once, started together), again and again; the hub\n"
		"started here records every packet once, when it receives it, and\n"
		"the share of the gaps between consecutive packets falls into the\n"
		"buckets 0-4, 5-9, 10-14, 15-19, 20-24, 25-29 and >=30 ms, for all\n"
		"the traffic together and for each workstation's conversation\n"
		"with the server. Gaps are counted within a transfer only (from\n"
		"its GO to each workstation's RESULT). No 1990 figures for it\n"
		"are at hand: none is printed.\n\n"
		"  -n, --transfers N   transfers per workstation count (default\n"
		"                      %d; 1 to %d)\n"
		"      --quick         %d transfers\n"
		"      --stations LIST workstation counts, e.g. 1,5 (default;\n"
		"                      1 to %d each)\n" FSBENCH_HELP FSBENCH_PERIOD_HELP
		"With --hub there is no capture (the hub is not ours): refused.\n",
		DEFAULT_TRANSFERS, MAX_TRANSFERS, QUICK_TRANSFERS,
		IPX_BN_MAX_STATIONS);
}

struct arrival {
	struct fsbench b;
	struct ipx_b5_opts o;
	struct ipx_b5_report rep;
};

static void print_table(const struct arrival *t)
{
	char nm[16], ws[16];

	printf("B5 packet arrival: the 25,184-byte file C25184.DAT from file server "
	       "'%s' to every workstation at once, %u transfer%s\n",
	       t->b.n.srvname, t->o.transfers, cli_s(t->o.transfers));
	fsbench_print_conditions(&t->b, stdout);
	if (t->b.repeat > 1)
		printf("# %u repeats: each share the median; [min-max] below, "
		       "for the buckets with gaps\n",
		       t->b.repeat);
	printf("%-4s %-5s %9s %8s  share of arrival gaps per bucket (ms), %%  "
	       "%10s\n",
	       "", "", "", "", "copy");
	printf("%-4s %-5s %9s %8s ", "ws", "who", "packets", "gaps");
	for (unsigned g = 0; g < IPX_ANALYZE_GAPS; g++)
		printf(" %6s", ipx_analyze_gap_name(g));
	printf(" %10s\n", "ms (mean)");
	for (size_t s = 0; s < t->o.nsets; s++) {
		for (unsigned sc = 0; sc <= ipx_b5_scopes(&t->rep, s); sc++) {
			struct ipx_b5_spread y;

			ipx_b5_spread(&t->rep, s, sc, &y);
			snprintf(ws, sizeof(ws), "%u", t->o.sets[s]);
			printf("%-4s %-5s %9llu %8llu ", sc ? "" : ws,
			       ipx_b5_scope_name(sc, nm, sizeof(nm)),
			       (unsigned long long)y.packets,
			       (unsigned long long)y.ngaps);
			for (unsigned g = 0; g < IPX_ANALYZE_GAPS; g++)
				printf(" %6.1f", y.share[g].median);
			printf(" %10.2f\n", y.ms.median);
			if (t->b.repeat < 2)
				continue;
			/* the buckets any repeat had gaps in */
			printf("%-10s [min-max]", "");
			for (unsigned g = 0; g < IPX_ANALYZE_GAPS; g++)
				if (y.share[g].max > 0)
					printf("  %s: %.1f-%.1f",
					       ipx_analyze_gap_name(g),
					       y.share[g].min, y.share[g].max);
			printf("  copy: %.2f-%.2f ms\n", y.ms.min, y.ms.max);
		}
	}
	if (t->b.sim)
		printf("Packets and gaps over every transfer (and repeat); a gap "
		       "is from one packet's arrival on the simulated "
		       "workstations' segment to the next's, within one "
		       "transfer (its PREPARE to its last RESULT: the "
		       "connection's set-up and logout included). 'all': every "
		       "packet of the server and the workstations, the "
		       "harness's own control traffic left out (a "
		       "workstation's own conversation is not measured in "
		       "simulated time). Copy: open to close of one transfer. "
		       "No 1990 figures for this test are at hand: none is "
		       "printed.\n");
	else
		printf("Packets and gaps over every transfer (and repeat); a gap "
		       "is from one packet's arrival at the hub to the next's, "
		       "within one transfer (from GO to each workstation's "
		       "RESULT). 'all': every packet of the server and the "
		       "workstations (each once, as the hub received it; the "
		       "harness's own control traffic left out); 'wsN': the "
		       "server's conversation with that workstation, both "
		       "ways. Copy: open to close of one transfer. No 1990 "
		       "figures for this test are at hand: none is printed.\n");
	fsbench_no_fidelity(&t->b, "B5", stdout);
}

static int run(struct arrival *t)
{
	char err[768];

	int rc;

	fsbench_net(&t->b, &t->o.net);
	rc = ipx_b5_run(&t->o, fsbench_progress, &t->b, &t->rep, err,
			sizeof(err));
	if (fsbench_interrupted(&t->b, rc)) {	/* SIGINT, SIGTERM */
		ipx_b5_interrupted(&t->rep);
		t->o.nsets = t->rep.sets_done;	/* the table's sets */
		cli_error(CMD, "arrival: interrupted; printing the %zu "
			       "workstation set%s that finished",
			  t->rep.sets_done, t->rep.sets_done == 1 ? "" : "s");
	} else if (rc != IPX_OK) {
		cli_error(CMD, "arrival: %s", err);
		return CLI_FAIL;
	}
	if (fsbench_wire_collect(&t->b) != CLI_OK)
		return CLI_FAIL;
	if (t->b.json)
		ipx_b5_write_json(stdout, &t->rep, fsbench_jw_cond, &t->b);
	else if (t->b.csv)
		ipx_b5_write_csv(stdout, &t->rep);
	else
		print_table(t);
	return t->rep.interrupted ? CLI_FAIL : CLI_OK;
}

/* The options into t: -1 to go on, else the command's exit code. */
static int parse(struct arrival *t, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "transfers", required_argument, NULL, 'n' },
		BENCH_STATIONS_LONGOPT,
		{ "quick", no_argument, NULL, OPT_QUICK },
		FSBENCH_LONGOPTS,
		FSBENCH_PERIOD_LONGOPT,
		{ NULL, 0, NULL, 0 },
	};
	const char *fixtures = NULL;
	bool quick = false, given = false;
	unsigned long v;
	int opt, rc, code = CLI_OK;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":n:qvh", longopts, NULL)) !=
	       -1) {
		switch (opt) {
		case 'n':
			if (cli_parse_uint(CMD, "--transfers", optarg, 1,
					   MAX_TRANSFERS, &v) < 0)
				return CLI_USAGE;
			t->o.transfers = (unsigned)v;
			given = true;
			continue;
		case OPT_QUICK:
			quick = true;
			continue;
		case BENCH_OPT_STATIONS:
			if (fsbench_parse_counts("--stations", optarg, t->o.sets,
						  IPX_B5_MAX_SETS, &t->o.nsets) < 0)
				return CLI_USAGE;
			continue;
		case FSB_OPT_FIXTURES:
			fixtures = optarg;	/* after --stations */
			continue;
		case 'h':
			help_bench_arrival(stdout);
			return CLI_OK;
		default:
			break;
		}
		rc = fsbench_opt(&t->b, opt, optarg, 0, &code);
		if (rc < 0)
			return CLI_USAGE;
		if (rc == 0)
			return bench_bad_option("arrival", opt, argv);
	}
	if (optind < argc) {
		cli_error(CMD, "arrival: unexpected argument '%s'",
			  argv[optind]);
		return CLI_USAGE;
	}
	if (quick && given) {
		cli_error(CMD, "--quick and --transfers exclude each other");
		return CLI_USAGE;
	}
	if (quick)
		t->o.transfers = QUICK_TRANSFERS;
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

int bench_arrival(int argc, char **argv)
{
	struct arrival t;
	int rc;

	memset(&t, 0, sizeof(t));
	t.b.cmd = "arrival";
	t.b.wait = 10;
	t.o.transfers = DEFAULT_TRANSFERS;
	t.o.sets[0] = 1;
	t.o.sets[1] = 5;
	t.o.nsets = 2;
	rc = parse(&t, argc, argv);
	if (rc >= 0)
		return rc;
	rc = fsbench_check(&t.b);
	if (rc != CLI_OK)
		return rc;
	if (t.b.hub) {
		cli_error(CMD, "arrival: the arrival times come from the "
			       "capture of the hub this command starts; with "
			       "--hub (and so --agents) there is none. Record "
			       "that hub with 'ipxlab hub --pcap FILE' and read "
			       "it with 'ipxlab analyze FILE'");
		return CLI_USAGE;
	}
	t.b.capture = true;
	t.o.repeat = t.b.repeat;
	if (ipx_b5_report_init(&t.rep, &t.o) != IPX_OK) {
		cli_error(CMD, "out of memory");
		return CLI_FAIL;
	}
	if (ipx_log_get_level() == IPX_LOG_INFO)
		ipx_log_set_level(IPX_LOG_WARN);
	rc = fsbench_start(&t.b);
	if (rc == CLI_OK)
		rc = run(&t);
	fsbench_stop(&t.b, rc == CLI_OK);
	ipx_b5_report_free(&t.rep);
	return rc;
}
