/*
 * cmd_bench_battery.c - "ipxlab bench battery": B2, the Network Test
 * Battery of 1990 (docs/benchmarks.md): the eleven file-server operations,
 * each repeated for 20 s (the directory searches 10 s) by 1 and then by 5
 * workstations at once, as operations per second per workstation and in
 * total, and the analyzer's peak Kbyte/s per test from the hub's capture
 * beside the only per-test figures the 1990 note published (peak Kbyte/s
 * on the wire, one workstation). The single-request operations
 * are set against what the round trip measured in the same run allows.
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fsbench.h"
#include "ipxlab/bench_stat.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"

#define CMD "bench"
#define TARGET 0.80
#define MAX_SETS 8
#define QUICK_SECONDS 1.0
#define PING_SECONDS 2.0
#define RTT_BEFORE 0.5	/* the ping just before a targeted test */

enum { OPT_SECONDS = FSB_OPT_FIRST, OPT_STATIONS, OPT_ONLY, OPT_QUICK };

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
		"                      lock\n" FSBENCH_HELP,
		TARGET * 100, QUICK_SECONDS, IPX_BN_MAX_STATIONS);
}

struct battery {
	struct fsbench b;
	double seconds;		/* 0: the 1990 times */
	unsigned sets[MAX_SETS];
	size_t nsets;
	bool only[IPX_BN_BATTERY_OPS];
	double rtt;		/* seconds per round trip, at the start */
	uint64_t pings;
	/* the round trip measured just before each single-request test
	 * with one workstation (its bound); 0: not measured */
	double rtt_op[IPX_BN_BATTERY_OPS];
	/* each run's figures: run(t, set, op, repeat)[station] */
	struct sta *res;
	/* the analyzer's, all workstations together: wire(t, set, op, rep) */
	struct fsbench_wire *wire;
	/* the tests that finished (every repeat), and whether a signal cut
	 * the run short: then only those are printed ("complete": false) */
	bool done[MAX_SETS][IPX_BN_BATTERY_OPS];
	bool interrupted;
};

/* Is test op with sets[set] workstations in the output? */
static bool shown(const struct battery *t, size_t set, int op)
{
	return t->only[op] && (!t->interrupted || t->done[set][op]);
}

/* One workstation's figures in one run. */
struct sta {
	uint64_t ops, misses, bytes, retransmits;
	double seconds;
};

static struct sta *run_of(const struct battery *t, size_t set, int op,
			  unsigned rep)
{
	return t->res + ((set * IPX_BN_BATTERY_OPS + (size_t)op) * t->b.repeat +
			 rep) * IPX_BN_MAX_STATIONS;
}

static struct fsbench_wire *wire_of(const struct battery *t, size_t set,
				    int op, unsigned rep)
{
	return t->wire + (set * IPX_BN_BATTERY_OPS + (size_t)op) * t->b.repeat +
	       rep;
}

static double op_seconds(const struct battery *t, enum ipx_bn_op op)
{
	double s = ipx_bn_op_seconds(op);

	return t->seconds > 0 ? t->seconds * s / 20 : s;
}

/* ---- printing ---- */

struct row {
	double mean, min, max, total, wire_kB_per_s;
	uint64_t ops, misses;
};

static void summarize(const struct sta *r, unsigned n, struct row *out)
{
	memset(out, 0, sizeof(*out));
	out->min = INFINITY;
	for (unsigned i = 0; i < n; i++) {
		double pps = r[i].seconds > 0 ? r[i].ops / r[i].seconds : 0;

		out->total += pps;
		out->min = pps < out->min ? pps : out->min;
		out->max = pps > out->max ? pps : out->max;
		out->wire_kB_per_s += r[i].seconds > 0 ? r[i].bytes / 1000.0 /
							    r[i].seconds
						  : 0;
		out->ops += r[i].ops;
		out->misses += r[i].misses;
	}
	out->mean = n ? out->total / n : 0;
	out->wire_kB_per_s = n ? out->wire_kB_per_s / n : 0;
	if (!n)
		out->min = 0;
}

/* Over the repeats of one test: the median row (each figure's median),
 * the spread of the per-workstation mean and of the analyzer's peak. */
struct rows {
	struct row med;
	struct ipx_stat_summary mean, peak;
	bool wire;		/* the analyzer's figures exist */
	bool short_span;	/* a run shorter than the 1 s window */
	uint64_t ops, misses;	/* summed over the repeats */
};

static void summarize_repeats(const struct battery *t, size_t set, int op,
			      struct rows *out)
{
	double mean[FSBENCH_MAX_REPEAT], min[FSBENCH_MAX_REPEAT],
		max[FSBENCH_MAX_REPEAT], total[FSBENCH_MAX_REPEAT],
		kbs[FSBENCH_MAX_REPEAT], peak[FSBENCH_MAX_REPEAT];
	unsigned n = t->b.repeat;

	memset(out, 0, sizeof(*out));
	out->wire = true;
	for (unsigned k = 0; k < n; k++) {
		struct row w;

		summarize(run_of(t, set, op, k), t->sets[set], &w);
		mean[k] = w.mean;
		min[k] = w.min;
		max[k] = w.max;
		total[k] = w.total;
		kbs[k] = w.wire_kB_per_s;
		peak[k] = wire_of(t, set, op, k)->peak_kB_per_s;
		out->wire &= wire_of(t, set, op, k)->valid;
		out->short_span |= wire_of(t, set, op, k)->short_span;
		out->ops += w.ops;
		out->misses += w.misses;
	}
	out->med.mean = ipx_stat_median(mean, n);
	out->med.min = ipx_stat_median(min, n);
	out->med.max = ipx_stat_median(max, n);
	out->med.total = ipx_stat_median(total, n);
	out->med.wire_kB_per_s = ipx_stat_median(kbs, n);
	ipx_stat_summarize(mean, n, &out->mean);
	ipx_stat_summarize(peak, n, &out->peak);
}

/* The round-trip bound of a single-request test: ops/s. */
static double bound(const struct battery *t, enum ipx_bn_op op)
{
	unsigned req = ipx_bn_op_requests(op);

	return req && t->rtt_op[op] > 0 ? 1.0 / (req * t->rtt_op[op]) : 0;
}

/* ws1 pings the server for 'secs': the mean round trip in *rtt. */
static int measure_rtt(struct battery *t, double secs, double *rtt,
		       uint64_t *n, char *err, size_t errlen)
{
	struct ipx_bw_result ping;
	int rc = ipx_bn_run(t->b.ctl, &t->b.ro, IPX_BN_PING, 1, secs, 0, 0, 0,
			    &ping, err, errlen);

	if (rc == IPX_OK && ping.sent) {
		*rtt = ping.seconds / (double)ping.sent;
		if (n)
			*n = ping.sent;
	}
	return rc;
}

static void print_table(const struct battery *t)
{
	unsigned targets = 0;

	printf("B2 Network Test Battery: ipxlab file server '%s', NCP over "
	       "IPX\n",
	       t->b.srvname);
	fsbench_print_conditions(&t->b, stdout);
	printf("# round trip %.1f us (ping of the server by ws1, %llu in "
	       "%.1f s)\n",
	       t->rtt * 1e6, (unsigned long long)t->pings, PING_SECONDS);
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
	for (int op = 0; op < IPX_BN_BATTERY_OPS; op++) {
		if (!t->only[op])
			continue;
		for (size_t s = 0; s < t->nsets; s++) {
			struct rows r;
			double l, br;

			if (!shown(t, s, op))
				continue;
			summarize_repeats(t, s, op, &r);
			ipx_bn_published_kbs(op, &l, &br);
			printf("%-38s %3u %9.0f %9.0f %9.0f %10.0f %9.1f ",
			       s ? "" : ipx_bn_op_title(op), t->sets[s],
			       r.med.mean, r.med.min, r.med.max, r.med.total,
			       r.med.wire_kB_per_s);
			if (r.wire && r.short_span)
				printf("%8.1f*  ", r.peak.median);
			else if (r.wire)
				printf("%9.1f  ", r.peak.median);
			else
				printf("%9s  ", "-");
			if (t->sets[s] == 1)
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
	}
	printf("Per-test seconds: %.1f (searches %.1f). Link kB/s (kB = 1000 bytes): IPX bytes "
	       "the workstation's link sent and received, mean over the "
	       "test. Analyzer peak: the busiest 1 s window %s, as the "
	       "1990 analyzer saw the LAN (a test shorter than the window, "
	       "marked *, over its whole span instead; never below the "
	       "mean); 1990 figures are for one workstation only, in the "
	       "note's Kbyte (it does not say 1000 or 1024 bytes).\n",
	       op_seconds(t, IPX_BN_LOCK), op_seconds(t, IPX_BN_DIR_SEARCH),
	       t->b.sim ? "of simulated time on the workstations' segment "
			  "(every frame once, as the profile's wire bytes)"
	       : t->b.pcap[0] ? "on the hub (every workstation's and the "
				"server's packets, each once, 14-byte "
				"Ethernet header included; recorded on the "
				"hub started here)"
			      : "on the hub ('-': a given hub is not "
				"recorded)");
	printf("Round-trip targets (1 workstation alone; %.0f%% of one round "
	       "trip per request, the round trip pinged just before the "
	       "test):\n",
	       TARGET * 100);
	for (int op = 0; op < IPX_BN_BATTERY_OPS; op++) {
		double bnd = bound(t, op);

		for (size_t s = 0; s < t->nsets && t->only[op] && bnd > 0;
		     s++) {
			struct rows r;
			struct row w;

			if (t->sets[s] != 1 || !shown(t, s, op))
				continue;
			targets++;
			summarize_repeats(t, s, op, &r);
			w = r.med;
			printf("  %-36s %9.0f ops/s  bound %9.0f (%u request%s "
			       "x %.1f us)  %5.1f%%  %s\n",
			       ipx_bn_op_title(op), w.mean, bnd,
			       ipx_bn_op_requests(op),
			       ipx_bn_op_requests(op) == 1 ? "" : "s",
			       t->rtt_op[op] * 1e6, w.mean / bnd * 100,
			       w.mean >= TARGET * bnd ? "PASS" : "MISS");
			break;
		}
	}
	if (!targets)
		printf("  none: no 1-byte read or lock test ran with 1 "
		       "workstation\n");
}

static void print_sta_json(const struct sta *r, unsigned i)
{
	printf("%s{\"ops\":%llu,\"seconds\":%.6f,\"ops_per_s\":%.3f,"
	       "\"wire_bytes\":%llu,\"misses\":%llu,\"retransmits\":%llu}",
	       i ? "," : "", (unsigned long long)r->ops, r->seconds,
	       r->seconds > 0 ? r->ops / r->seconds : 0,
	       (unsigned long long)r->bytes, (unsigned long long)r->misses,
	       (unsigned long long)r->retransmits);
}

static void print_wire_json(const struct fsbench_wire *w)
{
	if (!w->valid) {
		printf("null");
		return;
	}
	printf("{\"source\":");
	fsbench_json_str(stdout, w->source ? w->source : "");
	printf(",\"packets\":%llu,\"bytes\":%llu,\"seconds\":%.6f,"
	       "\"peak_kB_per_s\":%.3f,\"mean_kB_per_s\":%.3f,"
	       "\"short_span\":%s,\"gaps\":[",
	       (unsigned long long)w->packets, (unsigned long long)w->bytes,
	       w->seconds, w->peak_kB_per_s, w->mean_kB_per_s,
	       w->short_span ? "true" : "false");
	for (unsigned g = 0; g < IPX_ANALYZE_GAPS; g++)
		printf("%s%llu", g ? "," : "", (unsigned long long)w->gaps[g]);
	printf("]}");
}

static void print_json(const struct battery *t)
{
	printf("{\"benchmark\":\"battery\",\"conditions\":{");
	fsbench_json_conditions(&t->b, stdout);
	printf(",\"repeat\":%u,\"seconds\":%.3f,\"search_seconds\":%.3f,"
	       "\"rtt_us\":%.3f},\"complete\":%s,"
	       "\"target\":%.2f,\"tests\":[",
	       t->b.repeat, op_seconds(t, IPX_BN_LOCK), op_seconds(t, IPX_BN_DIR_SEARCH),
	       t->rtt * 1e6, t->interrupted ? "false" : "true", TARGET);
	bool first = true;

	for (int op = 0; op < IPX_BN_BATTERY_OPS; op++) {
		for (size_t s = 0; s < t->nsets && t->only[op]; s++) {
			struct rows rs;
			struct row w;
			double l, br, bnd = bound(t, op);

			if (!shown(t, s, op))
				continue;
			summarize_repeats(t, s, op, &rs);
			w = rs.med;
			ipx_bn_published_kbs(op, &l, &br);
			printf("%s{\"test\":\"%s\",\"title\":", first ? "" : ",",
			       ipx_bn_op_name(op));
			first = false;
			fsbench_json_str(stdout, ipx_bn_op_title(op));
			/* the first run's, then every run's */
			printf(",\"workstations\":%u,\"per_workstation\":[",
			       t->sets[s]);
			for (unsigned i = 0; i < t->sets[s]; i++)
				print_sta_json(&run_of(t, s, op, 0)[i], i);
			printf("],\"runs\":[");
			for (unsigned k = 0; k < t->b.repeat; k++) {
				const struct sta *r = run_of(t, s, op, k);

				printf("%s{\"per_workstation\":[", k ? "," : "");
				for (unsigned i = 0; i < t->sets[s]; i++)
					print_sta_json(&r[i], i);
				printf("],\"analyzer\":");
				print_wire_json(wire_of(t, s, op, k));
				printf("}");
			}
			printf("],\"mean_ops_per_s\":%.3f,\"mean_ops_per_s_min\":"
			       "%.3f,\"mean_ops_per_s_max\":%.3f,"
			       "\"total_ops_per_s\":%.3f,\"wire_kB_per_s\":"
			       "%.3f,\"analyzer_peak_kB_per_s\":",
			       w.mean, rs.mean.min, rs.mean.max, w.total,
			       w.wire_kB_per_s);
			if (rs.wire)
				printf("{\"median\":%.3f,\"min\":%.3f,\"max\":"
				       "%.3f}",
				       rs.peak.median, rs.peak.min, rs.peak.max);
			else
				printf("null");
			if (t->sets[s] == 1)
				printf(",\"published_peak_kbyte_per_s\":"
				       "{\"local\":%.0f,\"bridged\":%.0f}",
				       l, br);
			if (t->sets[s] == 1 && bnd > 0)
				printf(",\"rtt_us\":%.3f,\"round_trip_bound\":"
				       "%.3f,\"ratio\":%.4f,\"pass\":%s",
				       t->rtt_op[op] * 1e6, bnd, w.mean / bnd,
				       w.mean >= TARGET * bnd ? "true"
							      : "false");
			printf("}");
		}
	}
	printf("]}\n");
}

static void print_csv(const struct battery *t)
{
	printf("test,workstations,repeat,station,ops,seconds,ops_per_s,"
	       "wire_kB_per_s,misses,analyzer_peak_kB_per_s\n");
	for (int op = 0; op < IPX_BN_BATTERY_OPS; op++)
		for (size_t s = 0; s < t->nsets && t->only[op]; s++)
			for (unsigned k = 0; shown(t, s, op) && k < t->b.repeat;
			     k++)
				for (unsigned i = 0; i < t->sets[s]; i++) {
					const struct sta *r =
						&run_of(t, s, op, k)[i];
					const struct fsbench_wire *w =
						wire_of(t, s, op, k);
					double secs = r->seconds;

					printf("%s,%u,%u,%u,%llu,%.6f,%.3f,"
					       "%.3f,%llu,",
					       ipx_bn_op_name(op), t->sets[s],
					       k + 1, i + 1,
					       (unsigned long long)r->ops, secs,
					       secs > 0 ? r->ops / secs : 0,
					       secs > 0 ? r->bytes / 1000.0 /
								  secs
							: 0,
					       (unsigned long long)r->misses);
					if (w->valid)
						printf("%.3f\n", w->peak_kB_per_s);
					else
						printf("\n");
				}
}

/* ---- the run ---- */

/* "battery 3/23: open-single, 1 workstation, 20.0 s (about 7 min left)" */
static void progress(const struct battery *t, unsigned k, unsigned n,
		     const char *what, unsigned ws, double secs, double left)
{
	if (!t->b.progress)
		return;
	if (t->b.sim) {	/* simulated seconds say nothing of the time left */
		fprintf(stderr, "\r\033[K  battery %u/%u: %s, %u workstation%s, "
				"%.1f simulated s",
			k, n, what, ws, ws == 1 ? "" : "s", secs);
		fflush(stderr);
		return;
	}
	fprintf(stderr, "\r\033[K  battery %u/%u: %s, %u workstation%s, "
			"%.1f s (about %.0f %s left)",
		k, n, what, ws, ws == 1 ? "" : "s", secs,
		left >= 120 ? left / 60 : left, left >= 120 ? "min" : "s");
	fflush(stderr);
}

/* One test once: each workstation's figures and the analyzer's window. */
static int run_one(struct battery *t, size_t s, int op, unsigned rep,
		   uint16_t k, char *err, size_t errlen)
{
	struct ipx_bw_result r[IPX_BN_MAX_STATIONS];
	struct sta *out = run_of(t, s, op, rep);
	int rc;

	fsbench_wire_begin(&t->b);
	rc = ipx_bn_run(t->b.ctl, &t->b.ro, op, t->sets[s],
			op_seconds(t, op), 0, 0, k, r, err, errlen);
	if (rc != IPX_OK)
		return rc;
	for (unsigned i = 0; i < t->sets[s]; i++) {
		out[i].ops = r[i].sent;
		out[i].misses = r[i].delivered;
		out[i].bytes = r[i].bytes;
		out[i].retransmits = r[i].retransmits;
		out[i].seconds = r[i].seconds;
	}
	rc = fsbench_window(&t->b, t->sets[s], FSB_WIRE_ALL, 0,
			    wire_of(t, s, op, rep));
	if (rc != IPX_OK)
		snprintf(err, errlen, "out of memory");
	return rc;
}

static int run(struct battery *t)
{
	char err[768];
	unsigned k = 0, n = 1;
	double left = PING_SECONDS;
	int rc;

	for (int op = 0; op < IPX_BN_BATTERY_OPS; op++) {
		n += t->only[op] ? (unsigned)t->nsets * t->b.repeat : 0;
		left += t->only[op] ? t->nsets * t->b.repeat * op_seconds(t, op)
				    : 0;
	}
	progress(t, ++k, n, "round trip (ping)", 1, PING_SECONDS, left);
	left -= PING_SECONDS;
	rc = measure_rtt(t, PING_SECONDS, &t->rtt, &t->pings, err,
			 sizeof(err));
	for (size_t s = 0; rc == IPX_OK && s < t->nsets; s++) {
		for (int op = 0; rc == IPX_OK && op < IPX_BN_BATTERY_OPS;
		     op++) {
			if (!t->only[op])
				continue;
			if (t->sets[s] == 1 && ipx_bn_op_requests(op))
				rc = measure_rtt(t, RTT_BEFORE, &t->rtt_op[op],
						 NULL, err, sizeof(err));
			if (rc != IPX_OK)
				break;
			for (unsigned rep = 0; rc == IPX_OK && rep < t->b.repeat;
			     rep++) {
				progress(t, ++k, n, ipx_bn_op_name(op),
					 t->sets[s], op_seconds(t, op), left);
				left -= op_seconds(t, op);
				rc = run_one(t, s, op, rep, (uint16_t)k, err,
					     sizeof(err));
			}
			t->done[s][op] = rc == IPX_OK;
		}
	}
	if (t->b.progress)
		fprintf(stderr, "\r\033[K");
	if (fsbench_interrupted(&t->b, rc)) {	/* SIGINT, SIGTERM */
		t->interrupted = true;
		cli_error(CMD, "battery: interrupted; printing the tests that "
			       "finished");
	} else if (rc != IPX_OK) {
		cli_error(CMD, "battery: %s", err);
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
	if (t->interrupted && !t->b.json && !t->b.csv)
		printf("Interrupted: only the tests above finished.\n");
	return t->interrupted ? CLI_FAIL : CLI_OK;
}

int bench_battery(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "seconds", required_argument, NULL, 's' },
		{ "stations", required_argument, NULL, OPT_STATIONS },
		{ "only", required_argument, NULL, OPT_ONLY },
		{ "quick", no_argument, NULL, OPT_QUICK },
		FSBENCH_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct battery t;
	const char *fixtures = NULL;
	bool seconds_given = false, quick = false;
	unsigned want;
	int opt, rc, code = CLI_OK;

	memset(&t, 0, sizeof(t));
	t.b.cmd = "battery";
	t.b.wait = 10;
	t.sets[0] = 1;
	t.sets[1] = 5;
	t.nsets = 2;
	memset(t.only, 1, sizeof(t.only));
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":s:qvh", longopts, NULL)) !=
	       -1) {
		switch (opt) {
		case 's':
			if (cli_parse_seconds(CMD, "--seconds", optarg, 0.1,
					      3600, &t.seconds) < 0)
				return CLI_USAGE;
			seconds_given = true;
			continue;
		case OPT_QUICK:
			quick = true;
			continue;
		case OPT_STATIONS:
			if (fsbench_parse_counts("--stations", optarg, t.sets,
						  MAX_SETS, &t.nsets) < 0)
				return CLI_USAGE;
			continue;
		case OPT_ONLY:
			if (fsbench_parse_ops(optarg, t.only) < 0)
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
		rc = fsbench_opt(&t.b, opt, optarg, 0, &code);
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
		t.seconds = QUICK_SECONDS;
	for (size_t s = 0; s < t.nsets; s++)
		t.b.agents = t.sets[s] > t.b.agents ? t.sets[s] : t.b.agents;
	if (fixtures) {
		fsbench_opt(&t.b, FSB_OPT_FIXTURES, fixtures, t.b.agents,
			    &code);
		return code;
	}
	want = t.b.agents;
	rc = fsbench_check(&t.b);
	if (rc == CLI_OK)
		rc = fsbench_need(&t.b, want);
	if (rc != CLI_OK)
		return rc;
	t.b.capture = true;
	t.res = calloc(t.nsets * IPX_BN_BATTERY_OPS * t.b.repeat *
			       IPX_BN_MAX_STATIONS,
		       sizeof(*t.res));
	t.wire = calloc(t.nsets * IPX_BN_BATTERY_OPS * t.b.repeat,
			sizeof(*t.wire));
	if (!t.res || !t.wire) {
		free(t.res);
		free(t.wire);
		cli_error(CMD, "out of memory");
		return CLI_FAIL;
	}
	if (ipx_log_get_level() == IPX_LOG_INFO)
		ipx_log_set_level(IPX_LOG_WARN);
	rc = fsbench_start(&t.b);
	if (rc == CLI_OK)
		rc = run(&t);
	fsbench_stop(&t.b, rc == CLI_OK);
	free(t.res);
	free(t.wire);
	return rc;
}
