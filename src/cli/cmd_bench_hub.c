/*
 * cmd_bench_hub.c - "ipxlab bench hub": the hub's forwarding rate on the
 * benchmark harness. A sender and a receiver agent (each its own process
 * and IPX node) and the hub the harness starts; each pass runs the plain
 * path (the UDP baseline workload: one hop, no IPX, no hub) and the hub
 * path (the IPX datagram workload through the hub), both with the same
 * credit window, and the figure is the receiver's delivered rate.
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_common.h"
#include "ipxlab/bench_result.h"
#include "cli.h"
#include "ipxlab/bench.h"
#include "ipxlab/bench_stat.h"
#include "ipxlab/err.h"
#include "ipxlab/ipx.h"
#include "ipxlab/log.h"

#define CMD "bench"
#define MAX_REPEAT 100
#define DEFAULT_SECONDS 2.0
#define DEFAULT_WARMUP 0.5
#define DEFAULT_REPEAT 3
#define DEFAULT_PAYLOAD 255
/* The tunnel's 1424-byte datagram limit less the IPX header. */
#define MAX_PAYLOAD (1424 - IPX_HDR_LEN)
/* The target: the hub path carries at least half the plain rate. */
#define TARGET_RATIO 0.5

enum path { PLAIN, HUB, PATHS };
enum role { SND, HUBP, RCV, ROLES };

static const char *const path_name[PATHS] = { "plain", "hub" };
static const char *const role_name[ROLES] = { "sender", "hub", "receiver" };
static const char role_letter[ROLES] = { 'S', 'H', 'R' };

struct opts {
	double seconds, warmup;
	unsigned long repeat;
	unsigned window;
	size_t payload;
	int pin[PATHS][ROLES];	/* -1: not pinned */
	bool pinned, json, csv, verbose, quiet;
	bool interrupted;	/* Ctrl-C: the runs that finished */
	const char *pcap;
};

/* One path, one run. */
struct res {
	double pps, mbps, loss, seconds;
	uint64_t sent, send_errors, delivered, lost, stalls;
	double busy, steal, ours;	/* CPUs over the run */
	double other;		/* the JSON's: other_load() */
	bool present[ROLES];
	double cpu[ROLES], user[ROLES], sys[ROLES];	/* share of a CPU */
	int last_cpu[ROLES];
};

static void help_bench_hub(FILE *out)
{
	fprintf(out,
		"usage: ipxlab bench hub [options]\n\n"
		"Measure how many 255-byte IPX datagrams per second the hub relays\n"
		"from one node to another on loopback (hub, sender and receiver are\n"
		"separate processes: the benchmark harness's agents), beside a plain\n"
		"UDP sender and receiver moving datagrams of the same size (285\n"
		"bytes) in one hop between the same agents. Target: the hub path\n"
		"carries at least %.0f%% of the plain rate.\n\n"
		"  -s, --seconds S     sending per path and run (default %g)\n"
		"  -w, --warmup S      one uncounted pass of S s per path first\n"
		"                      (default %g; 0: none)\n"
		"  -r, --repeat N      runs; median, min and max are reported\n"
		"                      (default %d)\n"
		"      --window N      datagrams in flight, returned by receiver\n"
		"                      credits (default %u, or %u above 482 bytes);\n"
		"                      0 floods\n"
		"      --size N        IPX payload bytes (default %d, at most %d)\n"
		"      --pin S,H,R[,s,r]  pin the hub path's sender, hub and\n"
		"                      receiver to these CPUs, and the plain\n"
		"                      path's sender and receiver to s,r (default\n"
		"                      S,R); e.g. 0,1,0,0,1 gives the hub a CPU\n"
		"      --json, --csv   machine-readable output (one of them)\n"
		"      --pcap FILE     the hub records every packet of every run\n"
		"                      to FILE (its writing is part of the\n"
		"                      figures; use a short --seconds)\n"
		"  -v, --verbose       CPU use and counts of every process\n"
		"  -q, --quiet         no progress line\n"
		"  -h, --help          this text\n\n"
		"See %s/benchmarks.md for the method and how to\n"
		"read the figures.\n",
		TARGET_RATIO * 100, DEFAULT_SECONDS, DEFAULT_WARMUP,
		DEFAULT_REPEAT, ipx_bench_default_window(DEFAULT_PAYLOAD),
		ipx_bench_default_window(MAX_PAYLOAD), DEFAULT_PAYLOAD, MAX_PAYLOAD,
		cli_docs);
}

static double other_load(const struct res *r)
{
	double o = r->busy - r->ours;

	return o > 0 ? o : 0;
}

/* ---- options ---- */

/* "S,H,R[,s,r]": the hub path's sender, hub and receiver, then the plain
 * path's sender and receiver (default: S and R). "none" unpins. */
static int parse_pin(const char *text, struct opts *o)
{
	char buf[64], *save = NULL, *tok;
	int v5[5], n = 0, cpus = ipx_bench_cpus_online();

	for (int p = 0; p < PATHS; p++)
		for (int i = 0; i < ROLES; i++)
			o->pin[p][i] = -1;
	o->pinned = false;
	if (!strcmp(text, "none"))
		return 0;
	if (strlen(text) >= sizeof(buf))
		goto bad;
	strcpy(buf, text);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		unsigned long v;

		if (n == 5)
			goto bad;
		if (cli_parse_uint(CMD, "each CPU of --pin", tok, 0,
				   (unsigned long)cpus - 1, &v) < 0)
			return -1;
		v5[n++] = (int)v;
	}
	if (n != 3 && n != 5)
		goto bad;
	o->pin[HUB][SND] = v5[0];
	o->pin[HUB][HUBP] = v5[1];
	o->pin[HUB][RCV] = v5[2];
	o->pin[PLAIN][SND] = n == 5 ? v5[3] : v5[0];
	o->pin[PLAIN][RCV] = n == 5 ? v5[4] : v5[2];
	o->pinned = true;
	return 0;
bad:
	cli_error(CMD, "--pin takes the CPUs S,H,R of the hub path's "
		       "sender, hub and receiver, optionally followed by "
		       ",s,r for the plain path's (default S and R), e.g. "
		       "--pin 0,1,0,0,1 (got '%s')",
		  text);
	return -1;
}

enum { OPT_WINDOW = OPT_FIRST_CMD, OPT_SIZE, OPT_PIN, OPT_JSON, OPT_CSV };

/* CLI_OK, CLI_USAGE, or -1 after --help. */
static int parse_options(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "seconds", required_argument, NULL, 's' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "window", required_argument, NULL, OPT_WINDOW },
		{ "size", required_argument, NULL, OPT_SIZE },
		{ "pin", required_argument, NULL, OPT_PIN },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "csv", no_argument, NULL, OPT_CSV },
		{ "pcap", required_argument, NULL, OPT_PCAP },
		{ "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool window_set = false;
	unsigned long v;
	int opt;

	optind = 1;
	opterr = 0;	/* our own messages, naming the command */
	while ((opt = getopt_long(argc, argv, ":s:w:r:vqh", longopts, NULL)) !=
	       -1) {
		switch (opt) {
		case 's':
		case 'w':
		case 'r':
			if (bench_window_opt(opt, optarg, &o->seconds,
					     &o->warmup, &o->repeat,
					     MAX_REPEAT) < 0)
				return CLI_USAGE;
			break;
		case OPT_WINDOW:
			if (cli_parse_uint(CMD, "--window", optarg, 0, 65536,
					   &v) < 0)
				return CLI_USAGE;
			o->window = (unsigned)v;
			window_set = true;
			break;
		case OPT_SIZE:
			if (cli_parse_uint(CMD, "--size", optarg, 1,
					   MAX_PAYLOAD, &v) < 0)
				return CLI_USAGE;
			o->payload = v;
			break;
		case OPT_PIN:
			if (parse_pin(optarg, o) < 0)
				return CLI_USAGE;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case OPT_CSV:
			o->csv = true;
			break;
		case OPT_PCAP:
			o->pcap = optarg;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			help_bench_hub(stdout);
			return -1;
		default:
			return bench_bad_option("hub", opt, argv);
		}
	}
	if (bench_end_of_options("hub", argc, argv, o->json, o->csv) != CLI_OK)
		return CLI_USAGE;
	if (!window_set)
		o->window = ipx_bench_default_window(o->payload);
	return CLI_OK;
}

/* ---- a run ---- */

static void params_of(const struct opts *o, enum path p, double seconds,
		      struct ipx_bw_params *w)
{
	memset(w, 0, sizeof(*w));
	/* the plain path's datagram is the tunnel's for the same IPX
	 * packet: payload + 30 bytes */
	w->kind = p == HUB ? IPX_BW_IPX : IPX_BW_UDP;
	w->seconds = seconds;
	w->size = o->payload;
	w->window = o->window;
}

static void share(struct res *r, enum role i, double cpu_s, double user,
		  double sys, int last, double window)
{
	r->present[i] = true;
	r->cpu[i] = window > 0 ? cpu_s / window : 0;
	r->user[i] = window > 0 ? user / window : 0;
	r->sys[i] = window > 0 ? sys / window : 0;
	r->last_cpu[i] = last;
}

static void figures(const struct opts *o, const struct ipx_bpair_run *x,
		    enum path p, struct res *r)
{
	const struct ipx_bw_result *s = &x->snd, *d = &x->rcv;
	double win = s->seconds, ours;

	memset(r, 0, sizeof(*r));
	r->seconds = d->seconds;
	r->pps = d->pps;
	r->mbps = d->pps * (double)(o->payload + IPX_HDR_LEN) / 1e6;
	r->sent = s->sent;
	r->send_errors = s->send_errors;
	r->delivered = d->delivered;
	r->lost = s->sent > d->delivered ? s->sent - d->delivered : 0;
	r->loss = s->sent ? (double)r->lost / (double)s->sent : 0;
	r->stalls = s->stalls;
	r->busy = x->machine_busy;
	r->steal = x->machine_steal;
	share(r, SND, s->cpu_user + s->cpu_sys, s->cpu_user, s->cpu_sys,
	      s->cpu, win);
	share(r, RCV, d->cpu_user + d->cpu_sys, d->cpu_user, d->cpu_sys,
	      d->cpu, win);
	ours = s->cpu_user + s->cpu_sys + d->cpu_user + d->cpu_sys;
	if (p == HUB && x->hub_cpu >= 0) {
		share(r, HUBP, x->hub_cpu, x->hub_user, x->hub_sys,
		      x->hub_last_cpu, win);
		ours += x->hub_cpu;
	}
	r->ours = x->wall > 0 ? ours / x->wall : 0;
}

/* ---- printing ---- */

static void print_run_line(int run, enum path p, const struct res *r)
{
	char pps[32], cpus[96];
	size_t o = 0;

	for (int i = 0; i < ROLES; i++) {
		if (!r->present[i])
			continue;
		o += (size_t)snprintf(cpus + o, sizeof(cpus) - o,
				      "%s%c %3.0f%% @%d", o ? "  " : "",
				      role_letter[i], r->cpu[i] * 100,
				      r->last_cpu[i]);
		if (o >= sizeof(cpus))
			break;
	}
	printf("%3d  %-5s %11s %8.1f %7.3f%%  %5.2f   %s\n", run, path_name[p],
	       bench_grouped(r->pps, pps, sizeof(pps)), r->mbps, r->loss * 100,
	       other_load(r), cpus);
	fflush(stdout);
}

static void print_verbose(const struct res *r)
{
	for (int i = 0; i < ROLES; i++) {
		if (!r->present[i])
			continue;
		printf("       %-8s cpu %5.1f%% (user %4.1f%%, sys %5.1f%%) "
		       "last on CPU %d\n",
		       role_name[i], r->cpu[i] * 100, r->user[i] * 100,
		       r->sys[i] * 100, r->last_cpu[i]);
	}
	printf("       sent %llu, delivered %llu, lost %llu, send errors "
	       "%llu, window stalls %llu\n",
	       (unsigned long long)r->sent, (unsigned long long)r->delivered,
	       (unsigned long long)r->lost,
	       (unsigned long long)r->send_errors,
	       (unsigned long long)r->stalls);
	printf("       machine busy %.2f CPUs (steal %.2f), this benchmark "
	       "%.2f, other %.2f\n",
	       r->busy, r->steal, r->ours, other_load(r));
}

/* One run of one path as its JSON object shows it (bench_result.h). */
#define RF(M, NAME, FMT, TYPE) \
	IPX_RF(struct res, M, NAME, "", FMT, TYPE, IPX_RF_JSON)
static const struct ipx_rfield res_fields[] = {
	RF(pps, "pps", "%.1f", IPX_RF_DOUBLE),
	RF(mbps, "MB_per_s", "%.3f", IPX_RF_DOUBLE),
	RF(seconds, "seconds", "%.6f", IPX_RF_DOUBLE),
	RF(busy, "machine_busy_cpus", "%.3f", IPX_RF_DOUBLE),
	RF(steal, "machine_steal_cpus", "%.3f", IPX_RF_DOUBLE),
	RF(ours, "benchmark_cpus", "%.3f", IPX_RF_DOUBLE),
	RF(other, "other_cpus", "%.3f", IPX_RF_DOUBLE),
	RF(delivered, "packets", NULL, IPX_RF_U64),
	RF(sent, "sent", NULL, IPX_RF_U64),
	RF(delivered, "delivered", NULL, IPX_RF_U64),
	RF(lost, "lost", NULL, IPX_RF_U64),
	RF(loss, "loss", "%.6g", IPX_RF_DOUBLE),
	RF(send_errors, "send_errors", NULL, IPX_RF_U64),
	RF(stalls, "window_stalls", NULL, IPX_RF_U64),
};
static const struct ipx_rtable res_table = IPX_RTABLE("run", res_fields);

static void json_result(struct ipx_jw *w, const char *key,
			const struct res *r)
{
	struct res v = *r;

	v.other = other_load(r);
	ipx_jw_obj(w, key);
	ipx_res_json_fields(w, &res_table, &v);
	ipx_jw_arr(w, "processes");
	for (int i = 0; i < ROLES; i++) {
		if (!r->present[i])
			continue;
		ipx_jw_obj(w, NULL);
		ipx_jw_str(w, "role", role_name[i]);
		ipx_jw_dbl(w, "cpu", "%.4f", r->cpu[i]);
		ipx_jw_dbl(w, "user", "%.4f", r->user[i]);
		ipx_jw_dbl(w, "sys", "%.4f", r->sys[i]);
		ipx_jw_int(w, "last_cpu", r->last_cpu[i]);
		ipx_jw_end(w);
	}
	ipx_jw_end(w);
	ipx_jw_end(w);
}

struct summary {
	struct ipx_stat_summary pps[PATHS], mbps[PATHS], loss[PATHS];
	struct ipx_stat_summary ratio, other;
	bool met;
};

static void summarize(const struct res (*res)[PATHS], unsigned long n,
		      struct summary *s)
{
	double v[2 * MAX_REPEAT];

	for (int p = 0; p < PATHS; p++) {
		for (unsigned long i = 0; i < n; i++)
			v[i] = res[i][p].pps;
		ipx_stat_summarize(v, n, &s->pps[p]);
		for (unsigned long i = 0; i < n; i++)
			v[i] = res[i][p].mbps;
		ipx_stat_summarize(v, n, &s->mbps[p]);
		for (unsigned long i = 0; i < n; i++)
			v[i] = res[i][p].loss;
		ipx_stat_summarize(v, n, &s->loss[p]);
	}
	for (unsigned long i = 0; i < n; i++)
		v[i] = res[i][PLAIN].pps > 0
			       ? res[i][HUB].pps / res[i][PLAIN].pps
			       : 0;
	ipx_stat_summarize(v, n, &s->ratio);
	for (unsigned long i = 0; i < 2 * n; i++)
		v[i] = other_load(&res[i / 2][i % 2]);
	ipx_stat_summarize(v, 2 * n, &s->other);
	s->met = s->ratio.median >= TARGET_RATIO;
}

static void placement(const struct opts *o, char *buf, size_t len)
{
	if (o->pinned)
		snprintf(buf, len, "pinned: hub path S%d H%d R%d, plain S%d R%d",
			 o->pin[HUB][SND], o->pin[HUB][HUBP], o->pin[HUB][RCV],
			 o->pin[PLAIN][SND], o->pin[PLAIN][RCV]);
	else
		snprintf(buf, len, "not pinned");
}

static void print_json(const struct opts *o, const struct ipx_bpair *b,
		       const struct res (*res)[PATHS], const struct summary *s)
{
	struct ipx_jw w;
	char pl[128];

	placement(o, pl, sizeof(pl));
	ipx_jw_init(&w, stdout);
	ipx_jw_obj(&w, NULL);
	ipx_jw_str(&w, "benchmark", "hub");
	if (o->interrupted)
		ipx_jw_bool(&w, "complete", false);
	bench_pair_json_conditions(&w, b, pl);
	ipx_jw_u64(&w, "ipx_payload_bytes", o->payload);
	ipx_jw_u64(&w, "datagram_bytes", o->payload + IPX_HDR_LEN);
	ipx_jw_int(&w, "cpus_online", ipx_bench_cpus_online());
	ipx_jw_int(&w, "cpus_allowed", ipx_bench_cpus_allowed());
	ipx_jw_dbl(&w, "seconds", "%g", o->seconds);
	ipx_jw_dbl(&w, "warmup", "%g", o->warmup);
	ipx_jw_u64(&w, "repeat", o->repeat);
	ipx_jw_u64(&w, "window", o->window);
	ipx_jw_str(&w, "mode", o->window ? "window" : "flood");
	if (o->pinned) {
		ipx_jw_obj(&w, "pin");
		ipx_jw_obj(&w, "hub");
		ipx_jw_int(&w, "sender", o->pin[HUB][SND]);
		ipx_jw_int(&w, "hub", o->pin[HUB][HUBP]);
		ipx_jw_int(&w, "receiver", o->pin[HUB][RCV]);
		ipx_jw_end(&w);
		ipx_jw_obj(&w, "plain");
		ipx_jw_int(&w, "sender", o->pin[PLAIN][SND]);
		ipx_jw_int(&w, "receiver", o->pin[PLAIN][RCV]);
		ipx_jw_end(&w);
		ipx_jw_end(&w);
	} else {
		ipx_jw_null(&w, "pin");
	}
	ipx_jw_arr(&w, "runs");
	for (unsigned long i = 0; i < o->repeat; i++) {
		ipx_jw_obj(&w, NULL);
		ipx_jw_u64(&w, "run", i + 1);
		json_result(&w, "plain", &res[i][PLAIN]);
		json_result(&w, "hub", &res[i][HUB]);
		ipx_jw_dbl(&w, "ratio", "%.4f",
			   res[i][PLAIN].pps > 0
				   ? res[i][HUB].pps / res[i][PLAIN].pps
				   : 0);
		ipx_jw_end(&w);
	}
	ipx_jw_end(&w);
	ipx_jw_obj(&w, "summary");
	for (int p = 0; p < PATHS; p++) {
		ipx_jw_obj(&w, path_name[p]);
		ipx_jw_summary(&w, "pps", "%.6g", &s->pps[p]);
		ipx_jw_summary(&w, "MB_per_s", "%.6g", &s->mbps[p]);
		ipx_jw_summary(&w, "loss", "%.6g", &s->loss[p]);
		ipx_jw_end(&w);
	}
	ipx_jw_summary(&w, "other_cpus", "%.6g", &s->other);
	ipx_jw_summary(&w, "ratio", "%.6g", &s->ratio);
	ipx_jw_end(&w);
	/* no 1990 figure was published for a hub: none is printed */
	ipx_jw_null(&w, "ref_1990");
	ipx_jw_dbl(&w, "target_ratio", "%.2f", TARGET_RATIO);
	ipx_jw_bool(&w, "pass", s->met);
	ipx_jw_finish(&w);
}

/* The CSV: one line per figure. */
struct csv_line {
	const char *figure;
	struct ipx_stat_summary s;
	double target;		/* NAN: an empty cell */
	const char *pass;
};

#define CF(M, NAME, FMT, TYPE) \
	IPX_RF(struct csv_line, M, NAME, "", FMT, TYPE, IPX_RF_CSV)
static const struct ipx_rfield csv_fields[] = {
	CF(figure, "figure", NULL, IPX_RF_STR),
	CF(s.median, "median", "%.6g", IPX_RF_DOUBLE),
	CF(s.min, "min", "%.6g", IPX_RF_DOUBLE),
	CF(s.max, "max", "%.6g", IPX_RF_DOUBLE),
	CF(target, "target", "%.2f", IPX_RF_DOUBLE),
	CF(pass, "pass", NULL, IPX_RF_STR),
};
static const struct ipx_rtable csv_table = IPX_RTABLE("hub", csv_fields);

static void csv_row(const char *path, const char *what,
		    const struct ipx_stat_summary *s)
{
	char name[32];
	struct csv_line l = { name, *s, NAN, NULL };

	snprintf(name, sizeof(name), "%s_%s", path, what);
	ipx_res_csv_row(stdout, &csv_table, &l);
}

static void print_csv(const struct summary *s)
{
	struct csv_line ratio = { "ratio_hub_plain", s->ratio, TARGET_RATIO,
				  s->met ? "PASS" : "MISS" };

	ipx_res_csv_header(stdout, &csv_table);
	for (int p = 0; p < PATHS; p++) {
		csv_row(path_name[p], "pps", &s->pps[p]);
		csv_row(path_name[p], "MB_per_s", &s->mbps[p]);
		csv_row(path_name[p], "loss", &s->loss[p]);
	}
	ipx_res_csv_row(stdout, &csv_table, &ratio);
}

static void print_summary(const struct opts *o, const struct summary *s)
{
	printf("\n%3lu run%s       median          min          max\n",
	       o->repeat, o->repeat == 1 ? " " : "s");
	for (int p = 0; p < PATHS; p++) {
		char a[32], b[32], c[32];

		printf("%-5s pkt/s  %13s %12s %12s\n", path_name[p],
		       bench_grouped(s->pps[p].median, a, sizeof(a)),
		       bench_grouped(s->pps[p].min, b, sizeof(b)),
		       bench_grouped(s->pps[p].max, c, sizeof(c)));
		printf("%-5s MB/s   %13.1f %12.1f %12.1f\n", path_name[p],
		       s->mbps[p].median, s->mbps[p].min, s->mbps[p].max);
		printf("%-5s loss   %12.3f%% %11.3f%% %11.3f%%\n", path_name[p],
		       s->loss[p].median * 100, s->loss[p].min * 100,
		       s->loss[p].max * 100);
	}
	printf("hub/plain     %13.3f %12.3f %12.3f\n", s->ratio.median,
	       s->ratio.min, s->ratio.max);
	printf("\nratio hub/plain %.2f (median of %lu); target >= %.2f: %s\n",
	       s->ratio.median, o->repeat, TARGET_RATIO,
	       s->met ? "PASS" : "MISS");
	printf("(no 1990 figure: the AppNote measured no hub)\n");
	if (s->other.max >= 0.25)
		printf("note: other work kept up to %.2f of the %d CPUs busy "
		       "during the runs (column 'other');\n      these "
		       "figures are lower and noisier than on an idle "
		       "machine.\n",
		       s->other.max, ipx_bench_cpus_online());
}

static void print_header(const struct opts *o, const struct ipx_bpair *b)
{
	char pl[128];

	placement(o, pl, sizeof(pl));
	printf("ipxlab bench hub: %zu-byte IPX datagrams (%zu bytes of UDP "
	       "payload) on 127.0.0.1\n",
	       o->payload, o->payload + IPX_HDR_LEN);
	bench_pair_conditions(b, pl, stdout);
	if (o->window)
		printf("window %u datagrams; ", o->window);
	else
		printf("flooding (no window); ");
	printf("%lu run%s of %g s per path", o->repeat,
	       o->repeat == 1 ? "" : "s", o->seconds);
	if (o->warmup > 0)
		printf(" after a %g s warm-up pass", o->warmup);
	printf("\n\nrun  path        pkt/s     MB/s     loss  other   "
	       "CPU busy @ last CPU (S sender, H hub, R receiver)\n");
}

/* One pass: both paths, every other run the hub first (so neither path
 * always goes first); pass 0 is the warm-up (not kept). */
static int pass(const struct opts *o, struct ipx_bpair *b, unsigned i,
		struct res *out, char *err, size_t errlen)
{
	for (int k = 0; k < PATHS; k++) {
		enum path p = (enum path)(i && i % 2 == 0 ? 1 - k : k);
		struct ipx_bw_params w;
		struct ipx_bpair_run x;
		char label[48];
		int rc;

		params_of(o, p, i ? o->seconds : o->warmup, &w);
		if (i)
			snprintf(label, sizeof(label), "%s run %u",
				 path_name[p], i);
		else
			snprintf(label, sizeof(label), "%s warm-up",
				 path_name[p]);
		rc = ipx_bpair_run(b, label, i, &w, o->pin[p][SND],
				    o->pin[p][RCV], &x, err, errlen);
		if (rc != IPX_OK)
			return rc;
		figures(o, &x, p, &out[p]);
		if (i && !o->json && !o->csv) {
			bench_pair_progress_end(b);
			print_run_line((int)i, p, &out[p]);
			if (o->verbose)
				print_verbose(&out[p]);
		}
	}
	return IPX_OK;
}

int bench_hub(int argc, char **argv)
{
	static struct res res[MAX_REPEAT][PATHS];
	struct res warm[PATHS];
	struct opts o = {
		.seconds = DEFAULT_SECONDS,
		.warmup = DEFAULT_WARMUP,
		.repeat = DEFAULT_REPEAT,
		.payload = DEFAULT_PAYLOAD,
	};
	struct ipx_bpair b = { .name = "hub" };
	struct summary s;
	char err[768];
	unsigned done = 0;
	int rc;

	for (int p = 0; p < PATHS; p++)
		for (int i = 0; i < ROLES; i++)
			o.pin[p][i] = -1;
	rc = parse_options(&o, argc, argv);
	if (rc != CLI_OK)
		return rc < 0 ? CLI_OK : rc;
	ipx_log_set_level(IPX_LOG_WARN);
	bench_pair_ui(&b, !o.quiet && isatty(STDERR_FILENO));
	b.planned = PATHS * (o.warmup + o.seconds * (double)o.repeat);
	rc = ipx_bpair_start(&b, o.pcap, err, sizeof(err));
	if (rc == IPX_OK && o.pinned)
		rc = ipx_bpair_pin_hub(&b, o.pin[HUB][HUBP], err, sizeof(err));
	if (rc == IPX_OK && !o.json && !o.csv)
		print_header(&o, &b);
	if (rc == IPX_OK && o.warmup > 0)
		rc = pass(&o, &b, 0, warm, err, sizeof(err));
	for (unsigned i = 1; rc == IPX_OK && i <= o.repeat; i++) {
		rc = pass(&o, &b, i, res[i - 1], err, sizeof(err));
		done = rc == IPX_OK ? i : done;
	}
	bench_pair_progress_end(&b);
	if (b.ctl && bench_pair_cut(&b, "hub", &rc, done, "run")) {
		o.interrupted = true;
		o.repeat = done;	/* what is printed: the runs done */
	}
	if (rc == IPX_OK && (o.repeat || o.json)) {
		summarize((const struct res(*)[PATHS])res, o.repeat, &s);
		if (o.json)
			print_json(&o, &b, (const struct res(*)[PATHS])res,
				   &s);
		else if (o.csv)
			print_csv(&s);
		else
			print_summary(&o, &s);
	}
	ipx_bpair_stop(&b, rc == IPX_OK && !o.interrupted);
	if (rc != IPX_OK) {
		cli_error(CMD, "hub: %s", err);
		return CLI_FAIL;
	}
	return o.interrupted ? CLI_FAIL : CLI_OK;
}
