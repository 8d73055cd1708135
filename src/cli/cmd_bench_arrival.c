/*
 * cmd_bench_arrival.c - "ipxlab bench arrival": B5, the packet arrival
 * time distribution of 1990 (docs/benchmarks.md): while the 25,184-byte
 * file is transferred from the file server to the workstations (1, then
 * 5 at once, behind the barrier), the hub started here records every
 * packet once as it receives it, and the analyzer sorts the gaps between
 * consecutive packets into the published buckets (0-4 ... >=30 ms), for
 * all the traffic together and per workstation. No 1990 figures for
 * this test are at hand: none is printed.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fsbench.h"
#include "ipxlab/bench_stat.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"

#define CMD "bench"
#define FILE_BYTES 25184u	/* C25184.DAT, one of B3's sizes */
#define DEFAULT_TRANSFERS 20
#define QUICK_TRANSFERS 5
#define MAX_TRANSFERS 200
#define MAX_SETS 8
#define SCOPES (1 + IPX_BN_MAX_STATIONS)	/* all, then each station */

enum { OPT_TRANSFERS = FSB_OPT_FIRST, OPT_STATIONS, OPT_QUICK };

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
		"                      1 to %d each)\n" FSBENCH_HELP
		"With --hub there is no capture (the hub is not ours): refused.\n",
		DEFAULT_TRANSFERS, MAX_TRANSFERS, QUICK_TRANSFERS,
		IPX_BN_MAX_STATIONS);
}

/* One workstation in one transfer: its copy time, the IPX bytes its own
 * link sent and received meanwhile, the requests its client sent again. */
struct ws_run {
	double secs;
	uint64_t link, resent;
};

struct arrival {
	struct fsbench b;
	unsigned transfers;
	unsigned sets[MAX_SETS];
	size_t nsets;
	/* wire(t, set, rep, transfer)[scope]: scope 0 all, 1.. a station */
	struct ipx_bfs_wire *wire;
	/* each station's own figures: ws_of(t, set, rep, transfer)[station] */
	struct ws_run *ws;
};

static size_t slot(const struct arrival *t, size_t s, unsigned rep,
		   unsigned j)
{
	return (s * t->b.repeat + rep) * t->transfers + j;
}

static struct ipx_bfs_wire *wire_of(const struct arrival *t, size_t s,
				    unsigned rep, unsigned j)
{
	return t->wire + slot(t, s, rep, j) * SCOPES;
}

static struct ws_run *ws_of(const struct arrival *t, size_t s, unsigned rep,
			    unsigned j)
{
	return t->ws + slot(t, s, rep, j) * IPX_BN_MAX_STATIONS;
}

/* One repeat of one scope, over its transfers. */
struct tally {
	uint64_t packets, bytes, link, resent, gaps[IPX_ANALYZE_GAPS], ngaps;
	double share[IPX_ANALYZE_GAPS];
	double ms;		/* mean copy time (a station's; all: every) */
};

static void tally(const struct arrival *t, size_t s, unsigned rep,
		  unsigned scope, struct tally *out)
{
	double sum = 0;
	unsigned n = 0;

	memset(out, 0, sizeof(*out));
	for (unsigned j = 0; j < t->transfers; j++) {
		const struct ipx_bfs_wire *w = &wire_of(t, s, rep, j)[scope];
		const struct ws_run *c = ws_of(t, s, rep, j);

		out->packets += w->packets;
		out->bytes += w->bytes;
		for (unsigned g = 0; g < IPX_ANALYZE_GAPS; g++)
			out->gaps[g] += w->gaps[g];
		for (unsigned i = 0; i < t->sets[s]; i++) {
			if (scope && i + 1 != scope)
				continue;
			sum += c[i].secs;
			out->link += c[i].link;
			out->resent += c[i].resent;
			n++;
		}
	}
	for (unsigned g = 0; g < IPX_ANALYZE_GAPS; g++)
		out->ngaps += out->gaps[g];
	fsbench_gap_shares(out->gaps, out->share);
	out->ms = n ? sum / n * 1000 : 0;
}

/* Over the repeats: each bucket's share, and the copy time. */
struct spread {
	struct ipx_stat_summary share[IPX_ANALYZE_GAPS], ms;
	uint64_t packets, ngaps;	/* over every repeat */
};

static void spread(const struct arrival *t, size_t s, unsigned scope,
		   struct spread *out)
{
	double v[IPX_ANALYZE_GAPS][FSBENCH_MAX_REPEAT], ms[FSBENCH_MAX_REPEAT];
	unsigned n = t->b.repeat;

	memset(out, 0, sizeof(*out));
	for (unsigned k = 0; k < n; k++) {
		struct tally y;

		tally(t, s, k, scope, &y);
		for (unsigned g = 0; g < IPX_ANALYZE_GAPS; g++)
			v[g][k] = y.share[g];
		ms[k] = y.ms;
		out->packets += y.packets;
		out->ngaps += y.ngaps;
	}
	for (unsigned g = 0; g < IPX_ANALYZE_GAPS; g++)
		ipx_stat_summarize(v[g], n, &out->share[g]);
	ipx_stat_summarize(ms, n, &out->ms);
}

/* The last scope there are figures for: every workstation's own, or with
 * --sim only all together (the simulated analyzer has no conversation
 * filter). */
static unsigned scopes(const struct arrival *t, size_t s)
{
	return t->b.sim ? 0 : t->sets[s];
}

static const char *scope_name(unsigned scope, char *buf, size_t len)
{
	if (!scope)
		return "all";
	snprintf(buf, len, "ws%u", scope);
	return buf;
}

static void print_table(const struct arrival *t)
{
	char nm[16], ws[16];

	printf("B5 packet arrival: the 25,184-byte file C25184.DAT from file server "
	       "'%s' to every workstation at once, %u transfer%s\n",
	       t->b.srvname, t->transfers, cli_s(t->transfers));
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
	for (size_t s = 0; s < t->nsets; s++) {
		for (unsigned sc = 0; sc <= scopes(t, s); sc++) {
			struct spread y;

			spread(t, s, sc, &y);
			snprintf(ws, sizeof(ws), "%u", t->sets[s]);
			printf("%-4s %-5s %9llu %8llu ", sc ? "" : ws,
			       scope_name(sc, nm, sizeof(nm)),
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
}

static void print_counts_json(const struct tally *y)
{
	printf("{\"packets\":%llu,\"bytes\":%llu,\"link_bytes\":%llu,"
	       "\"retransmits\":%llu,\"gaps\":%llu,\"gaps_ms\":{",
	       (unsigned long long)y->packets, (unsigned long long)y->bytes,
	       (unsigned long long)y->link, (unsigned long long)y->resent,
	       (unsigned long long)y->ngaps);
	for (unsigned g = 0; g < IPX_ANALYZE_GAPS; g++)
		printf("%s\"%s\":%llu", g ? "," : "", ipx_analyze_gap_name(g),
		       (unsigned long long)y->gaps[g]);
	printf("},\"share_percent\":{");
	for (unsigned g = 0; g < IPX_ANALYZE_GAPS; g++)
		printf("%s\"%s\":%.3f", g ? "," : "", ipx_analyze_gap_name(g),
		       y->share[g]);
	printf("},\"copy_ms_mean\":%.4f}", y->ms);
}

static void print_json(const struct arrival *t)
{
	char nm[16];

	printf("{\"benchmark\":\"arrival\",\"conditions\":{");
	fsbench_json_conditions(&t->b, stdout);
	printf(",\"bytes\":%u,\"transfers\":%u,\"repeat\":%u},\"sets\":[",
	       FILE_BYTES, t->transfers, t->b.repeat);
	for (size_t s = 0; s < t->nsets; s++) {
		printf("%s{\"workstations\":%u,\"runs\":[", s ? "," : "",
		       t->sets[s]);
		for (unsigned k = 0; k < t->b.repeat; k++) {
			printf("%s{", k ? "," : "");
			for (unsigned sc = 0; sc <= scopes(t, s); sc++) {
				struct tally y;

				tally(t, s, k, sc, &y);
				printf("%s\"%s\":", sc ? "," : "",
				       scope_name(sc, nm, sizeof(nm)));
				print_counts_json(&y);
			}
			printf(",\"copy_seconds\":[");
			for (unsigned j = 0; j < t->transfers; j++) {
				const struct ws_run *c = ws_of(t, s, k, j);

				printf("%s[", j ? "," : "");
				for (unsigned i = 0; i < t->sets[s]; i++)
					printf("%s%.6f", i ? "," : "",
					       c[i].secs);
				printf("]");
			}
			printf("]}");
		}
		printf("],\"summary\":{");
		for (unsigned sc = 0; sc <= scopes(t, s); sc++) {
			struct spread y;

			spread(t, s, sc, &y);
			printf("%s\"%s\":{\"share_percent\":{", sc ? "," : "",
			       scope_name(sc, nm, sizeof(nm)));
			for (unsigned g = 0; g < IPX_ANALYZE_GAPS; g++)
				printf("%s\"%s\":{\"median\":%.3f,\"min\":%.3f,"
				       "\"max\":%.3f}",
				       g ? "," : "", ipx_analyze_gap_name(g),
				       y.share[g].median, y.share[g].min,
				       y.share[g].max);
			printf("}}");
		}
		printf("}}");
	}
	printf("],\"published\":null}\n");
}

static void print_csv(const struct arrival *t)
{
	char nm[16];

	printf("workstations,repeat,who,packets,gaps");
	for (unsigned g = 0; g < IPX_ANALYZE_GAPS; g++)
		printf(",share_%s", ipx_analyze_gap_name(g));
	printf(",copy_ms_mean\n");
	for (size_t s = 0; s < t->nsets; s++)
		for (unsigned k = 0; k < t->b.repeat; k++)
			for (unsigned sc = 0; sc <= scopes(t, s); sc++) {
				struct tally y;

				tally(t, s, k, sc, &y);
				printf("%u,%u,%s,%llu,%llu", t->sets[s], k + 1,
				       scope_name(sc, nm, sizeof(nm)),
				       (unsigned long long)y.packets,
				       (unsigned long long)y.ngaps);
				for (unsigned g = 0; g < IPX_ANALYZE_GAPS; g++)
					printf(",%.3f", y.share[g]);
				printf(",%.4f\n", y.ms);
			}
}

/* ---- the run ---- */

static int transfer(struct arrival *t, size_t s, unsigned rep, unsigned j,
		    uint16_t label, char *err, size_t errlen)
{
	struct ipx_bw_result r[IPX_BN_MAX_STATIONS];
	struct ipx_bfs_wire *w = wire_of(t, s, rep, j);
	struct ws_run *c = ws_of(t, s, rep, j);
	unsigned n = t->sets[s];
	int rc;

	fsbench_wire_begin(&t->b);
	rc = ipx_bn_run(t->b.ctl, &t->b.ro, IPX_BN_COPY, n, 0, 1, FILE_BYTES,
			label, r, err, errlen);

	for (unsigned i = 0; rc == IPX_OK && i < n; i++) {
		c[i].secs = r[i].seconds;
		c[i].link = r[i].bytes;
		c[i].resent = r[i].retransmits;
	}
	for (unsigned sc = 0; rc == IPX_OK && sc <= scopes(t, s); sc++)
		rc = fsbench_window(&t->b, n,
				    sc ? FSB_WIRE_STATION : FSB_WIRE_ALL,
				    sc ? sc - 1 : 0, &w[sc]);
	return rc;
}

static int run(struct arrival *t)
{
	char err[768];
	unsigned k = 0;
	int rc = IPX_OK;

	for (size_t s = 0; rc == IPX_OK && s < t->nsets; s++)
		for (unsigned rep = 0; rc == IPX_OK && rep < t->b.repeat; rep++)
			for (unsigned j = 0; rc == IPX_OK && j < t->transfers;
			     j++) {
				if (t->b.progress) {
					fprintf(stderr,
						"\r\033[K  arrival: %u "
						"workstation%s, run %u/%u, "
						"transfer %u/%u",
						t->sets[s],
						t->sets[s] == 1 ? "" : "s",
						rep + 1, t->b.repeat, j + 1,
						t->transfers);
					fflush(stderr);
				}
				rc = transfer(t, s, rep, j, (uint16_t)++k, err,
					      sizeof(err));
			}
	if (t->b.progress)
		fprintf(stderr, "\r\033[K");
	if (rc != IPX_OK) {
		cli_error(CMD, "arrival: %s", err);
		return CLI_FAIL;
	}
	if (fsbench_wire_collect(&t->b) != CLI_OK)
		return CLI_FAIL;
	if (t->b.json)
		print_json(t);
	else if (t->b.csv)
		print_csv(t);
	else
		print_table(t);
	return CLI_OK;
}

int bench_arrival(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "transfers", required_argument, NULL, 'n' },
		{ "stations", required_argument, NULL, OPT_STATIONS },
		{ "quick", no_argument, NULL, OPT_QUICK },
		FSBENCH_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct arrival t;
	const char *fixtures = NULL;
	bool quick = false, given = false;
	unsigned long v;
	size_t slots;
	int opt, rc, code = CLI_OK;

	memset(&t, 0, sizeof(t));
	t.b.cmd = "arrival";
	t.b.wait = 10;
	t.transfers = DEFAULT_TRANSFERS;
	t.sets[0] = 1;
	t.sets[1] = 5;
	t.nsets = 2;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":n:qvh", longopts, NULL)) !=
	       -1) {
		switch (opt) {
		case 'n':
			if (cli_parse_uint(CMD, "--transfers", optarg, 1,
					   MAX_TRANSFERS, &v) < 0)
				return CLI_USAGE;
			t.transfers = (unsigned)v;
			given = true;
			continue;
		case OPT_QUICK:
			quick = true;
			continue;
		case OPT_STATIONS:
			if (fsbench_parse_counts("--stations", optarg, t.sets,
						  MAX_SETS, &t.nsets) < 0)
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
		rc = fsbench_opt(&t.b, opt, optarg, 0, &code);
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
		t.transfers = QUICK_TRANSFERS;
	for (size_t s = 0; s < t.nsets; s++)
		t.b.agents = t.sets[s] > t.b.agents ? t.sets[s] : t.b.agents;
	if (fixtures) {
		fsbench_opt(&t.b, FSB_OPT_FIXTURES, fixtures, t.b.agents,
			    &code);
		return code;
	}
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
	slots = t.nsets * t.b.repeat * t.transfers;
	t.wire = calloc(slots * SCOPES, sizeof(*t.wire));
	t.ws = calloc(slots * IPX_BN_MAX_STATIONS, sizeof(*t.ws));
	if (!t.wire || !t.ws) {
		free(t.wire);
		free(t.ws);
		cli_error(CMD, "out of memory");
		return CLI_FAIL;
	}
	if (ipx_log_get_level() == IPX_LOG_INFO)
		ipx_log_set_level(IPX_LOG_WARN);
	rc = fsbench_start(&t.b);
	if (rc == CLI_OK)
		rc = run(&t);
	fsbench_stop(&t.b, rc == CLI_OK);
	free(t.wire);
	free(t.ws);
	return rc;
}
