/*
 * cmd_bench_ncp.c - "ipxlab bench ncp": what one outstanding NCP request
 * per connection costs, against the round trip measured in the same run.
 *
 * The network is the file-server benchmarks' (bench_fsnet.h, built by
 * the library: fsbench_start): a hub, one workstation agent and ipxlab's
 * file server on a scratch volume with the fixtures (or --sim: all of it
 * in this process in simulated time). In
 * turn, for --seconds each, the agent runs the NCP workload's operations
 * (bench_ncp.h): Novell pings of the server node (empty and with a buffer
 * of data), 1-byte reads (shared-small), open/close pairs (open-single)
 * and 256 KB parts of the 4 MB file in buffer-size reads (get); ten
 * rounds of every row in turn, so load changing during the run moves all
 * rows alike. The ratios: a 1-byte read against one round trip, an
 * open/close pair against two, and the large get against one buffer per
 * round trip of a small request and a buffer-sized answer (the mean of
 * the empty and the full ping). Targets: 80 % each. --repeat N does it
 * all N times: median, min and max. Then the packet-burst target
 * (bench_ncp_burst.h): a burst read of the 4 MB file against IPX
 * datagrams of its packet size on the same link (from the workstation
 * agent; --sim: a spare node on the server's segment). Target 80 %.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fsbench.h"
#include "ipxlab/bench_ncp_cost.h"
#include "ipxlab/bench_sim.h"
#include "ipxlab/err.h"
#include "ipxlab/link_udp.h"
#include "ipxlab/log.h"

#define CMD "bench"


void help_bench_ncp(FILE *out)
{
	fprintf(out,
		"usage: ipxlab bench ncp [options]\n\n"
		"NCP's cost against the IPX round trip measured in the same run,\n"
		"one request outstanding: a workstation agent of the file-server\n"
		"benchmarks' network (a hub, the agent and 'ipxlab server' as\n"
		"child processes on loopback) runs, in turn, pings of the server\n"
		"node, 1-byte reads, open/close pairs and a large get (256 KB\n"
		"parts of the 4 MB fixture). Rates beside what one round trip per\n"
		"request allows, and the get beside one negotiated buffer per\n"
		"round trip. Targets: %.0f%% each. Then a packet-burst read of\n"
		"the 4 MB file beside IPX datagrams of the same packet size on\n"
		"the same link, measured in the same run: target 80%%.\n\n"
		"  -s, --seconds S     measurement time per row, spread over %d\n"
		"                      rounds of every row in turn (default 5)\n"
		"      --repeat N      the whole measurement N times: median,\n"
		"                      min and max (default 1; 1 to %d)\n"
		FSBENCH_HELP,
		IPX_BNC_TARGET * 100, IPX_BNC_ROUNDS, IPX_BNC_MAX_REPEAT);
}

struct ncpb {
	struct fsbench b;
	double secs;
	unsigned repeat;
	struct ipx_bnc_report rep;
};

static void print_table(const struct ncpb *t)
{
	const struct ipx_bnc_report *rep = &t->rep;
	struct ipx_stat_summary e, fu, v, bd, ra;

	printf("NCP to file server '%s', one request outstanding (buffer %u "
	       "bytes, %d MB file, %.1f s per row in %d rounds%s)\n",
	       t->b.n.srvname, rep->bufsize, IPX_BN_LARGE_SIZE >> 20, t->secs,
	       IPX_BNC_ROUNDS, rep->done > 1 ? "; medians of the repeats" : "");
	fsbench_print_conditions(&t->b, stdout);
	ipx_bnc_summary(rep, 0, 3, &e);
	ipx_bnc_summary(rep, 0, 4, &fu);
	printf("  IPX round trip (ping of the server node): %.1f us empty, "
	       "%.1f us with %u bytes\n",
	       e.median, fu.median, rep->bufsize);
	printf("  %-22s %10s %-8s %10s %-8s %6s", "row", "measured", "",
	       "bound", "", "ratio");
	if (rep->done > 1)
		printf("        %-15s", "ratio min..max");
	printf("\n");
	for (int r = 0; r < IPX_BNC_ROWS; r++) {
		const char *unit = ipx_bnc_row_unit(r);

		ipx_bnc_summary(rep, r, 0, &v);
		ipx_bnc_summary(rep, r, 1, &bd);
		ipx_bnc_summary(rep, r, 2, &ra);
		printf("  %-22s %10.1f %-8s %10.1f %-8s %5.1f%%  %s",
		       ipx_bnc_row_what(r), v.median, unit, bd.median, unit,
		       ra.median * 100,
		       ra.median >= IPX_BNC_TARGET ? "PASS" : "MISS");
		if (rep->done > 1)
			printf("  %5.1f..%5.1f%%", ra.min * 100, ra.max * 100);
		printf("\n");
	}
}

/* The packet-burst line: the ratio against the target, or why not. */
static void print_burst(const struct ipx_bnc_report *rep)
{
	const struct ipx_bncb_report *b = &rep->burst;

	if (!rep->o.burst_peer && !rep->o.burst_from_agent)
		return;
	if (!rep->have_burst) {
		printf("  burst read (4 MB): not measured: %s\n", rep->burst_err);
		return;
	}
	printf("  burst read of the 4 MB file against IPX datagrams, %u-byte "
	       "packets both, %u rounds of %d reads:\n"
	       "    burst %.1f kB/s, datagrams %.1f kB/s; ratio %.3f "
	       "(rounds %.3f..%.3f)  %s (target %.2f)\n",
	       b->packet, b->rounds, IPX_BNCB_READS, b->burst_kBps,
	       b->dgram_kBps, b->ratio, b->ratio_min, b->ratio_max,
	       b->pass ? "PASS" : "FAIL", IPX_BNCB_TARGET);
	printf("    %llu bursts, %llu fragments resent, %llu missing-fragment "
	       "lists, %llu timeouts\n",
	       (unsigned long long)b->bursts,
	       (unsigned long long)b->frags_resent,
	       (unsigned long long)b->missing_sent,
	       (unsigned long long)b->timeouts);
}

/* Where the burst target's datagrams come from: --sim a spare node on
 * the server's segment (a flood on the simulated medium); else the
 * workstation agent, a process of its own as the server is, with a
 * credit window of a burst's fragments on the tunnel's own address. */
static void burst_source(struct ncpb *t, struct ipx_bnc_opts *o)
{
	struct sockaddr_in local;
	struct ipx_node *n = NULL;

	if (t->b.n.bsim) {
		if (ipx_bsim_spare_node(t->b.n.bsim, IPX_BSIM_SERVER, &n) ==
		    IPX_OK)
			o->burst_peer = n;
		return;
	}
	o->burst_from_agent = true;
	if (ipx_node_link_count(t->b.n.node) &&
	    ipx_udp_link_local(ipx_node_link(t->b.n.node, 0), &local) ==
		    IPX_OK) {
		o->burst_window = 64;
		o->burst_bind = local.sin_addr;
	}
}

static int parse(struct ncpb *t, int argc, char **argv, int *code)
{
	static const struct option longopts[] = {
		BENCH_SECONDS_LONGOPT,
		FSBENCH_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	int opt, rc;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":s:qvh", longopts, NULL)) !=
	       -1) {
		if (opt == 's') {
			if (bench_seconds_opt(optarg, 3600, &t->secs) < 0)
				return CLI_USAGE;
		} else if (opt == 'h') {
			help_bench_ncp(stdout);
			*code = CLI_OK;
			return -1;
		} else {
			rc = fsbench_opt(&t->b, opt, optarg, 1, code);
			if (rc == 2)
				return -1;
			if (rc <= 0)
				return rc < 0 ? CLI_USAGE
					      : bench_bad_option("ncp", opt,
								 argv);
		}
	}
	if (optind < argc) {
		cli_error(CMD, "ncp: unexpected argument '%s'", argv[optind]);
		return CLI_USAGE;
	}
	return CLI_OK;
}

/* The network up, ipx_bnc_run once, a signal's cut noticed; CLI_ code
 * (CLI_OK with t->rep.interrupted: print what finished, then fail). */
static int run(struct ncpb *t)
{
	struct ipx_bnc_opts o = { .seconds = t->secs, .repeat = t->repeat };
	char err[1024];
	int rc = fsbench_start(&t->b);

	if (rc != CLI_OK)
		return rc;
	fsbench_net(&t->b, &o.net);
	o.node = t->b.n.bsim ? ipx_bsim_station(t->b.n.bsim, 0) : t->b.n.node;
	burst_source(t, &o);
	rc = ipx_bnc_run(&o, fsbench_progress, &t->b, &t->rep, err,
			 sizeof(err));
	if (rc != IPX_OK && t->rep.run_failed &&
	    fsbench_interrupted(&t->b, rc)) {
		cli_error(CMD, "ncp: interrupted; printing the %u repeat%s "
			       "that finished",
			  t->rep.done, cli_s(t->rep.done));
		t->rep.interrupted = true;
		return CLI_OK;
	}
	if (rc != IPX_OK) {
		cli_error(CMD, "ncp: %s", err);
		return CLI_FAIL;
	}
	return CLI_OK;
}

int bench_ncp(int argc, char **argv)
{
	struct ncpb *t = calloc(1, sizeof(*t));
	int rc, code = CLI_OK;

	if (!t) {
		cli_error(CMD, "ncp: out of memory");
		return CLI_FAIL;
	}
	t->b.cmd = "ncp";
	t->b.wait = 10;
	t->b.agents = 1;
	t->secs = 5;
	t->b.max_repeat = IPX_BNC_MAX_REPEAT;
	rc = parse(t, argc, argv, &code);
	if (rc < 0) {	/* --help or --fixtures: done */
		free(t);
		return code;
	}
	if (rc == CLI_OK)
		rc = fsbench_check(&t->b);
	t->repeat = t->b.repeat;	/* --repeat, 1 by default */
	if (rc != CLI_OK) {
		free(t);
		return rc;
	}
	if (ipx_log_get_level() == IPX_LOG_INFO)
		ipx_log_set_level(IPX_LOG_WARN);
	rc = run(t);
	if (rc == CLI_OK && (t->rep.done || t->b.json)) {
		if (t->b.json)
			ipx_bnc_write_json(stdout, &t->rep, fsbench_jw_cond,
					   &t->b);
		else if (t->b.csv)
			ipx_bnc_write_csv(stdout, &t->rep);
		else {
			print_table(t);
			print_burst(&t->rep);
		}
	}
	fsbench_stop(&t->b, rc == CLI_OK && !t->rep.interrupted);
	if (rc == CLI_OK && t->rep.interrupted)
		rc = CLI_FAIL;
	free(t);
	return rc;
}
