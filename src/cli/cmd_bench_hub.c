/*
 * cmd_bench_hub.c - "ipxlab bench hub": the hub's forwarding rate on the
 * benchmark harness. A sender and a receiver agent (each its own process
 * and IPX node) and the hub the harness starts; each pass runs the plain
 * path (the UDP baseline workload: one hop, no IPX, no hub) and the hub
 * path (the IPX datagram workload through the hub), both with the same
 * credit window, and the figure is the receiver's delivered rate.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_common.h"
#include "cli.h"
#include "ipxlab/bench.h"
#include "ipxlab/bench_hub.h"
#include "ipxlab/bench_stat.h"
#include "ipxlab/err.h"
#include "ipxlab/ipx.h"
#include "ipxlab/log.h"

#define CMD "bench"
#define DEFAULT_SECONDS 2.0
#define DEFAULT_WARMUP 0.5
#define DEFAULT_REPEAT 3
#define DEFAULT_PAYLOAD 255
/* The tunnel's 1424-byte datagram limit less the IPX header. */
#define MAX_PAYLOAD (1424 - IPX_HDR_LEN)
/* The target: the hub path carries at least half the plain rate. */

static const char role_letter[IPX_BHUB_ROLES] = { 'S', 'H', 'R' };

struct opts {
	struct ipx_bhub_opts h;	/* the benchmark's */
	struct bench_common c;	/* the shared options */
	const struct ipx_bhub_report *rep;	/* what it measured */
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
		IPX_BHUB_TARGET_RATIO * 100, DEFAULT_SECONDS, DEFAULT_WARMUP,
		DEFAULT_REPEAT, ipx_bench_default_window(DEFAULT_PAYLOAD),
		ipx_bench_default_window(MAX_PAYLOAD), DEFAULT_PAYLOAD, MAX_PAYLOAD,
		cli_docs);
}

/* ---- options ---- */

/* "S,H,R[,s,r]": the hub path's sender, hub and receiver, then the plain
 * path's sender and receiver (default: S and R). "none" unpins. */
static int parse_pin(const char *text, struct opts *o)
{
	char buf[64], *save = NULL, *tok;
	int v5[5], n = 0, cpus = ipx_bench_cpus_online();

	for (int p = 0; p < IPX_BHUB_PATHS; p++)
		for (int i = 0; i < IPX_BHUB_ROLES; i++)
			o->h.pin[p][i] = -1;
	o->h.pinned = false;
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
	o->h.pin[IPX_BHUB_HUB][IPX_BHUB_SND] = v5[0];
	o->h.pin[IPX_BHUB_HUB][IPX_BHUB_HUBP] = v5[1];
	o->h.pin[IPX_BHUB_HUB][IPX_BHUB_RCV] = v5[2];
	o->h.pin[IPX_BHUB_PLAIN][IPX_BHUB_SND] = n == 5 ? v5[3] : v5[0];
	o->h.pin[IPX_BHUB_PLAIN][IPX_BHUB_RCV] = n == 5 ? v5[4] : v5[2];
	o->h.pinned = true;
	return 0;
bad:
	cli_error(CMD, "--pin takes the CPUs S,H,R of the hub path's "
		       "sender, hub and receiver, optionally followed by "
		       ",s,r for the plain path's (default S and R), e.g. "
		       "--pin 0,1,0,0,1 (got '%s')",
		  text);
	return -1;
}

enum { OPT_WINDOW = OPT_FIRST_CMD, OPT_SIZE, OPT_PIN };

/* CLI_OK, CLI_USAGE, or -1 after --help. */
static int parse_options(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		BENCH_COMMON_LONGOPTS,
		BENCH_WARMUP_LONGOPT,
		BENCH_VERBOSE_LONGOPT,
		{ "window", required_argument, NULL, OPT_WINDOW },
		{ "size", required_argument, NULL, OPT_SIZE },
		{ "pin", required_argument, NULL, OPT_PIN },
		{ "pcap", required_argument, NULL, OPT_PCAP },
		{ NULL, 0, NULL, 0 },
	};
	bool window_set = false;
	unsigned long v;
	int opt, rc;

	optind = 1;
	opterr = 0;	/* our own messages, naming the command */
	while ((opt = getopt_long(argc, argv, ":s:w:r:vqh", longopts, NULL)) !=
	       -1) {
		switch (opt) {
		case OPT_WINDOW:
			if (cli_parse_uint(CMD, "--window", optarg, 0, 65536,
					   &v) < 0)
				return CLI_USAGE;
			o->h.window = (unsigned)v;
			window_set = true;
			break;
		case OPT_SIZE:
			if (cli_parse_uint(CMD, "--size", optarg, 1,
					   MAX_PAYLOAD, &v) < 0)
				return CLI_USAGE;
			o->h.payload = v;
			break;
		case OPT_PIN:
			if (parse_pin(optarg, o) < 0)
				return CLI_USAGE;
			break;
		case OPT_PCAP:
			o->h.pcap = optarg;
			break;
		default:
			rc = bench_common_opt(&o->c, opt, optarg, argv);
			if (rc != 1)
				return rc;
		}
	}
	if (bench_common_end(&o->c, argc, argv) != CLI_OK)
		return CLI_USAGE;
	if (!window_set)
		o->h.window = ipx_bench_default_window(o->h.payload);
	return CLI_OK;
}

/* ---- a run ---- */

/* ---- printing ---- */

static void print_run_line(int run, enum ipx_bhub_path p, const struct ipx_bhub_res *r)
{
	char pps[32], cpus[96];
	size_t o = 0;

	for (int i = 0; i < IPX_BHUB_ROLES; i++) {
		if (!r->present[i])
			continue;
		o += (size_t)snprintf(cpus + o, sizeof(cpus) - o,
				      "%s%c %3.0f%% @%d", o ? "  " : "",
				      role_letter[i], r->cpu[i] * 100,
				      r->last_cpu[i]);
		if (o >= sizeof(cpus))
			break;
	}
	printf("%3d  %-5s %11s %8.1f %7.3f%%  %5.2f   %s\n", run, ipx_bhub_path_name[p],
	       bench_grouped(r->pps, pps, sizeof(pps)), r->mbps, r->loss * 100,
	       r->other, cpus);
	fflush(stdout);
}

static void print_verbose(const struct ipx_bhub_res *r)
{
	for (int i = 0; i < IPX_BHUB_ROLES; i++) {
		if (!r->present[i])
			continue;
		printf("       %-8s cpu %5.1f%% (user %4.1f%%, sys %5.1f%%) "
		       "last on CPU %d\n",
		       ipx_bhub_role_name[i], r->cpu[i] * 100, r->user[i] * 100,
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
	       r->busy, r->steal, r->ours, r->other);
}

static void print_summary(const struct opts *o, const struct ipx_bhub_summary *s)
{
	printf("\n%3lu run%s       median          min          max\n",
	       o->rep->done, o->rep->done == 1 ? " " : "s");
	for (int p = 0; p < IPX_BHUB_PATHS; p++) {
		char a[32], b[32], c[32];

		printf("%-5s pkt/s  %13s %12s %12s\n", ipx_bhub_path_name[p],
		       bench_grouped(s->pps[p].median, a, sizeof(a)),
		       bench_grouped(s->pps[p].min, b, sizeof(b)),
		       bench_grouped(s->pps[p].max, c, sizeof(c)));
		printf("%-5s MB/s   %13.1f %12.1f %12.1f\n", ipx_bhub_path_name[p],
		       s->mbps[p].median, s->mbps[p].min, s->mbps[p].max);
		printf("%-5s loss   %12.3f%% %11.3f%% %11.3f%%\n", ipx_bhub_path_name[p],
		       s->loss[p].median * 100, s->loss[p].min * 100,
		       s->loss[p].max * 100);
	}
	printf("hub/plain     %13.3f %12.3f %12.3f\n", s->ratio.median,
	       s->ratio.min, s->ratio.max);
	printf("\nratio hub/plain %.2f (median of %lu); target >= %.2f: %s\n",
	       s->ratio.median, o->rep->done, IPX_BHUB_TARGET_RATIO,
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

	ipx_bhub_placement(&o->h, pl, sizeof(pl));
	printf("ipxlab bench hub: %zu-byte IPX datagrams (%zu bytes of UDP "
	       "payload) on 127.0.0.1\n",
	       o->h.payload, o->h.payload + IPX_HDR_LEN);
	bench_pair_conditions(b, pl, stdout);
	if (o->h.window)
		printf("window %u datagrams; ", o->h.window);
	else
		printf("flooding (no window); ");
	printf("%lu run%s of %g s per path", o->h.repeat,
	       o->h.repeat == 1 ? "" : "s", o->h.seconds);
	if (o->h.warmup > 0)
		printf(" after a %g s warm-up pass", o->h.warmup);
	printf("\n\nrun  path        pkt/s     MB/s     loss  other   "
	       "CPU busy @ last CPU (S sender, H hub, R receiver)\n");
}

static void on_progress(void *ctx, enum ipx_bhub_event ev,
			const struct ipx_bhub_report *rep, unsigned long run,
			enum ipx_bhub_path p)
{
	const struct opts *o = ctx;

	if (o->c.json || o->c.csv)
		return;
	if (ev == IPX_BHUB_EV_READY) {
		print_header(o, &rep->net);
		return;
	}
	bench_pair_progress_end(&rep->net);
	print_run_line((int)run, p, &rep->runs[run - 1][p]);
	if (o->c.verbose)
		print_verbose(&rep->runs[run - 1][p]);
}

static void conditions(struct ipx_jw *w, const void *ctx)
{
	const struct opts *o = ctx;
	char pl[128];

	ipx_bhub_placement(&o->h, pl, sizeof(pl));
	bench_pair_json_conditions(w, &o->rep->net, pl);
}

static void print(const struct opts *o)
{
	if (o->c.json)
		ipx_bhub_write_json(stdout, &o->h, o->rep, conditions, o);
	else if (o->c.csv)
		ipx_bhub_write_csv(stdout, o->rep);
	else
		print_summary(o, &o->rep->sum);
}

int bench_hub(int argc, char **argv)
{
	static struct ipx_bhub_report rep;
	struct opts o = {
		.h.seconds = DEFAULT_SECONDS,
		.h.warmup = DEFAULT_WARMUP,
		.h.repeat = DEFAULT_REPEAT,
		.h.payload = DEFAULT_PAYLOAD,
		.c = { .name = "hub", .help = help_bench_hub },
		.rep = &rep,
	};
	struct ipx_bhub_hooks hooks = { on_progress, &o };
	char err[768];
	int rc;

	o.c.seconds = &o.h.seconds;
	o.c.warmup = &o.h.warmup;
	o.c.repeat = &o.h.repeat;
	o.c.max_repeat = IPX_BHUB_MAX_REPEAT;
	for (int p = 0; p < IPX_BHUB_PATHS; p++)
		for (int i = 0; i < IPX_BHUB_ROLES; i++)
			o.h.pin[p][i] = -1;
	rc = parse_options(&o, argc, argv);
	if (rc != CLI_OK)
		return rc < 0 ? CLI_OK : rc;
	ipx_log_set_level(IPX_LOG_WARN);
	rep.net.name = "hub";
	bench_pair_ui(&rep.net, !o.c.quiet && isatty(STDERR_FILENO));
	rc = ipx_bhub_run(&o.h, &hooks, &rep, err, sizeof(err));
	bench_pair_progress_end(&rep.net);
	if (rc != IPX_OK) {
		cli_error(CMD, "hub: %s", err);
		return CLI_FAIL;
	}
	if (rep.interrupted)
		cli_error(CMD, "hub: interrupted; printing the %lu run%s that "
			       "finished",
			  rep.done, cli_s(rep.done));
	if (rep.done || o.c.json)
		print(&o);
	return rep.interrupted ? CLI_FAIL : CLI_OK;
}
