/*
 * cmd_bench.c - "ipxlab bench NAME": benchmarks (not tests). Each prints
 * its figures beside a baseline measured in the same run. The measuring
 * is done by the library (src/bench, ipxlab/bench.h); this is the CLI.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ipxlab/bench.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"

#define MAX_REPEAT 100

void help_bench(FILE *out)
{
	fprintf(out, "benchmarks:\n"
		     "  hub    hub forwarding rate of 255-byte datagrams between\n"
		     "         two nodes, beside plain one-hop UDP\n"
		     "\n'ipxlab bench NAME --help' lists a benchmark's options.\n");
}

static void help_bench_hub(FILE *out)
{
	fprintf(out,
		"usage: ipxlab bench hub [options]\n\n"
		"Measure how many 255-byte IPX datagrams per second the hub relays\n"
		"from one node to another on loopback (hub, sender and receiver are\n"
		"separate processes), beside a plain UDP sender and receiver moving\n"
		"datagrams of the same size (285 bytes) in one hop. Target: the hub\n"
		"path carries at least %.0f%% of the plain rate.\n\n"
		"  -s, --seconds S     measurement window per path (default %g)\n"
		"  -w, --warmup S      sending before the window opens (default %g)\n"
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
		"      --json          machine-readable output\n"
		"  -v, --verbose       CPU use of every process\n"
		"  -h, --help          this text\n\n"
		"See bench/README.md for the method and how to read the figures.\n",
		IPX_BENCH_TARGET_RATIO * 100, IPX_BENCH_DEFAULT_SECONDS,
		IPX_BENCH_DEFAULT_WARMUP, IPX_BENCH_DEFAULT_REPEAT,
		ipx_bench_default_window(IPX_BENCH_DEFAULT_PAYLOAD),
		ipx_bench_default_window(IPX_BENCH_MAX_PAYLOAD),
		IPX_BENCH_DEFAULT_PAYLOAD,
		IPX_BENCH_MAX_PAYLOAD);
}

/* ---- statistics ---- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct spread {
	double median, min, max;
};

static struct spread spread_of(const double *v, size_t n)
{
	double s[MAX_REPEAT];
	struct spread r = { 0, 0, 0 };

	if (!n)
		return r;
	memcpy(s, v, n * sizeof(*v));
	qsort(s, n, sizeof(*s), cmp_double);
	r.min = s[0];
	r.max = s[n - 1];
	r.median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	return r;
}

/* "1234567" -> "1,234,567" */
static const char *grouped(double v, char *buf, size_t len)
{
	char raw[32];
	size_t n, o = 0;

	snprintf(raw, sizeof(raw), "%.0f", v < 0 ? 0 : v);
	n = strlen(raw);
	for (size_t i = 0; i < n && o + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = raw[i];
	}
	buf[o] = '\0';
	return buf;
}

static const char role_letter[IPX_BENCH_ROLES] = { 'S', 'H', 'R' };

/* Where a process ran: the CPUs with at least 5% of its samples. */
static void where_ran(const struct ipx_bench_proc *p, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	if (!p->samples) {
		snprintf(buf, len, "%d", p->last_cpu);
		return;
	}
	for (int c = 0; c < IPX_BENCH_MAX_CPUS; c++) {
		if (p->cpu_samples[c] * 20 < p->samples)
			continue;
		o += (size_t)snprintf(buf + o, len - o, "%s%d", o ? "+" : "",
				      c);
		if (o >= len)
			break;
	}
}

/* CPUs busy with anything but this benchmark during the window. */
static double other_load(const struct ipx_bench_result *r)
{
	double o = r->machine_busy - r->ours;

	return o > 0 ? o : 0;
}

static void print_run_line(int run, const struct ipx_bench_result *r)
{
	char pps[32], cpus[96];
	size_t o = 0;

	for (int i = 0; i < IPX_BENCH_ROLES; i++) {
		char w[48];

		if (!r->proc[i].present)
			continue;
		where_ran(&r->proc[i], w, sizeof(w));
		o += (size_t)snprintf(cpus + o, sizeof(cpus) - o,
				      "%s%c %3.0f%% @%s", o ? "  " : "",
				      role_letter[i], r->proc[i].cpu * 100, w);
		if (o >= sizeof(cpus))
			break;
	}
	printf("%3d  %-5s %11s %8.1f %7.3f%%  %5.2f   %s\n", run,
	       ipx_bench_path_name(r->path), grouped(r->pps, pps, sizeof(pps)),
	       r->mbps, r->loss * 100, other_load(r), cpus);
	fflush(stdout);
}

static void print_verbose(const struct ipx_bench_result *r)
{
	for (int i = 0; i < IPX_BENCH_ROLES; i++) {
		const struct ipx_bench_proc *p = &r->proc[i];
		double ns = r->packets ? p->cpu * r->seconds * 1e9 /
						 (double)r->packets
				       : 0;

		if (!p->present)
			continue;
		printf("       %-8s cpu %5.1f%% (user %4.1f%%, sys %5.1f%%) "
		       "%5.0f ns/pkt  %5.1f pkt/turn  ctxsw %llu+%llu  cpu",
		       ipx_bench_role_name((enum ipx_bench_role)i),
		       p->cpu * 100, p->user * 100, p->sys * 100, ns,
		       p->wakeups ? (double)r->packets / (double)p->wakeups
				  : 0,
		       (unsigned long long)p->vcsw,
		       (unsigned long long)p->ivcsw);
		for (int c = 0; c < IPX_BENCH_MAX_CPUS; c++)
			if (p->cpu_samples[c])
				printf(" %d:%.0f%%", c,
				       100.0 * (double)p->cpu_samples[c] /
					       (double)p->samples);
		printf("\n");
	}
	printf("       sent %llu, delivered %llu, lost %llu, send errors "
	       "%llu, window stalls %llu",
	       (unsigned long long)r->sent, (unsigned long long)r->delivered,
	       (unsigned long long)r->lost,
	       (unsigned long long)r->send_errors,
	       (unsigned long long)r->stalls);
	if (r->path == IPX_BENCH_HUB) {
		uint64_t in = r->hub_relayed + r->hub_drops;

		printf("\n       hub relayed %llu, dropped %llu; lost before "
		       "the hub %llu, after it %llu",
		       (unsigned long long)r->hub_relayed,
		       (unsigned long long)r->hub_drops,
		       (unsigned long long)(r->sent > in ? r->sent - in : 0),
		       (unsigned long long)(r->hub_relayed > r->delivered
						    ? r->hub_relayed -
							      r->delivered
						    : 0));
	}
	printf("\n       machine busy %.2f CPUs (steal %.2f), this benchmark "
	       "%.2f, other %.2f\n",
	       r->machine_busy, r->machine_steal, r->ours, other_load(r));
}

/* ---- JSON ---- */

static void json_spread(const char *name, struct spread s, bool last)
{
	printf("\"%s\": {\"median\": %.6g, \"min\": %.6g, \"max\": %.6g}%s",
	       name, s.median, s.min, s.max, last ? "" : ", ");
}

static void json_result(const struct ipx_bench_result *r)
{
	printf("{\"pps\": %.1f, \"mbps\": %.3f, \"seconds\": %.6f, "
	       "\"machine_busy_cpus\": %.3f, \"machine_steal_cpus\": %.3f, "
	       "\"benchmark_cpus\": %.3f, \"other_cpus\": %.3f, ",
	       r->pps, r->mbps, r->seconds, r->machine_busy, r->machine_steal,
	       r->ours, other_load(r));
	printf("\"packets\": %llu, "
	       "\"sent\": %llu, \"delivered\": %llu, "
	       "\"lost\": %llu, \"loss\": %.6g, \"send_errors\": %llu, "
	       "\"window_stalls\": %llu",
	       (unsigned long long)r->packets,
	       (unsigned long long)r->sent, (unsigned long long)r->delivered,
	       (unsigned long long)r->lost, r->loss,
	       (unsigned long long)r->send_errors,
	       (unsigned long long)r->stalls);
	if (r->path == IPX_BENCH_HUB)
		printf(", \"hub_rx\": %llu, \"hub_relayed\": %llu, "
		       "\"hub_tx\": %llu, \"hub_drops\": %llu",
		       (unsigned long long)r->hub_rx,
		       (unsigned long long)r->hub_relayed,
		       (unsigned long long)r->hub_tx,
		       (unsigned long long)r->hub_drops);
	printf(", \"processes\": [");
	for (int i = 0, first = 1; i < IPX_BENCH_ROLES; i++) {
		const struct ipx_bench_proc *p = &r->proc[i];
		double ns = r->packets ? p->cpu * r->seconds * 1e9 /
						 (double)r->packets
				       : 0;

		if (!p->present)
			continue;
		printf("%s{\"role\": \"%s\", \"cpu\": %.4f, \"user\": %.4f, "
		       "\"sys\": %.4f, \"ns_per_packet\": %.1f, "
		       "\"loop_turns\": %llu, "
		       "\"voluntary_ctxsw\": %llu, \"involuntary_ctxsw\": %llu, "
		       "\"last_cpu\": %d, \"cpu_share\": {",
		       first ? "" : ", ",
		       ipx_bench_role_name((enum ipx_bench_role)i), p->cpu,
		       p->user, p->sys, ns, (unsigned long long)p->wakeups,
		       (unsigned long long)p->vcsw,
		       (unsigned long long)p->ivcsw, p->last_cpu);
		first = 0;
		for (int c = 0, f2 = 1; c < IPX_BENCH_MAX_CPUS; c++) {
			if (!p->cpu_samples[c])
				continue;
			printf("%s\"%d\": %.4f", f2 ? "" : ", ", c,
			       (double)p->cpu_samples[c] / (double)p->samples);
			f2 = 0;
		}
		printf("}}");
	}
	printf("]}");
}

/* ---- the hub benchmark ---- */

/* "S,H,R[,s,r]": the hub path's sender, hub and receiver, then the plain
 * path's sender and receiver (default: S and R). "none" unpins. */
static int parse_pin(const char *text, int pin[2][IPX_BENCH_ROLES])
{
	char buf[64], *save = NULL, *tok;
	int v5[5], n = 0, cpus = ipx_bench_cpus_online();

	for (int p = 0; p < 2; p++)
		for (int i = 0; i < IPX_BENCH_ROLES; i++)
			pin[p][i] = -1;
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
		if (cli_parse_uint("bench", "each CPU of --pin", tok, 0,
				   (unsigned long)cpus - 1, &v) < 0)
			return -1;
		v5[n++] = (int)v;
	}
	if (n != 3 && n != 5)
		goto bad;
	pin[IPX_BENCH_HUB][IPX_BENCH_SENDER] = v5[0];
	pin[IPX_BENCH_HUB][IPX_BENCH_HUBPROC] = v5[1];
	pin[IPX_BENCH_HUB][IPX_BENCH_RECEIVER] = v5[2];
	pin[IPX_BENCH_PLAIN][IPX_BENCH_SENDER] = n == 5 ? v5[3] : v5[0];
	pin[IPX_BENCH_PLAIN][IPX_BENCH_RECEIVER] = n == 5 ? v5[4] : v5[2];
	return 0;
bad:
	cli_error("bench", "--pin takes the CPUs S,H,R of the hub path's "
			   "sender, hub and receiver, optionally followed by "
			   ",s,r for the plain path's (default S and R), e.g. "
			   "--pin 0,1,0,0,1 (got '%s')",
		  text);
	return -1;
}

enum { OPT_WINDOW = OPT_FIRST_CMD, OPT_SIZE, OPT_PIN, OPT_JSON };

static int bench_hub(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "seconds", required_argument, NULL, 's' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "window", required_argument, NULL, OPT_WINDOW },
		{ "size", required_argument, NULL, OPT_SIZE },
		{ "pin", required_argument, NULL, OPT_PIN },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct ipx_bench_result res[MAX_REPEAT][2];
	struct ipx_bench_opts o;
	unsigned long repeat = IPX_BENCH_DEFAULT_REPEAT, v;
	double pps[2][MAX_REPEAT], mbps[2][MAX_REPEAT], loss[2][MAX_REPEAT];
	double ratio[MAX_REPEAT], other[2 * MAX_REPEAT];
	bool json = false, verbose = false, pinned = false, met;
	bool window_set = false;
	struct spread rs;
	char err[512];
	int opt;

	ipx_bench_opts_default(&o);
	optind = 1;
	opterr = 0;	/* our own messages, naming the command */
	while ((opt = getopt_long(argc, argv, ":s:w:r:vh", longopts, NULL)) !=
	       -1) {
		switch (opt) {
		case 's':
			if (cli_parse_seconds("bench", "--seconds", optarg, 0.1,
					      60, &o.seconds) < 0)
				return CLI_USAGE;
			break;
		case 'w':
			if (cli_parse_seconds("bench", "--warmup", optarg, 0, 10,
					      &o.warmup) < 0)
				return CLI_USAGE;
			break;
		case 'r':
			if (cli_parse_uint("bench", "--repeat", optarg, 1,
					   MAX_REPEAT, &repeat) < 0)
				return CLI_USAGE;
			break;
		case OPT_WINDOW:
			if (cli_parse_uint("bench", "--window", optarg, 0, 65536,
					   &v) < 0)
				return CLI_USAGE;
			o.window = (unsigned)v;
			window_set = true;
			break;
		case OPT_SIZE:
			if (cli_parse_uint("bench", "--size", optarg, 1,
					   IPX_BENCH_MAX_PAYLOAD, &v) < 0)
				return CLI_USAGE;
			o.payload = v;
			break;
		case OPT_PIN:
			if (parse_pin(optarg, o.pin) < 0)
				return CLI_USAGE;
			pinned = o.pin[IPX_BENCH_HUB][0] >= 0;
			break;
		case OPT_JSON:
			json = true;
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			help_bench_hub(stdout);
			return CLI_OK;
		case ':':
			cli_error("bench", "hub: option '%s' needs a value",
				  argv[optind - 1]);
			return CLI_USAGE;
		default:
			if (optopt)
				cli_error("bench", "hub: unknown option '-%c'",
					  optopt);
			else
				cli_error("bench", "hub: unknown option '%s'",
					  argv[optind - 1]);
			fprintf(stderr, "usage: ipxlab bench hub [options] "
					"('ipxlab bench hub --help')\n");
			return CLI_USAGE;
		}
	}
	if (optind < argc) {
		cli_error("bench", "hub: unexpected argument '%s'",
			  argv[optind]);
		return CLI_USAGE;
	}
	if (!window_set)
		o.window = ipx_bench_default_window(o.payload);
	ipx_log_set_level(IPX_LOG_WARN);

	if (!json) {
		printf("ipxlab bench hub: %zu-byte IPX datagrams (%zu bytes of "
		       "UDP payload) on 127.0.0.1\n",
		       o.payload, o.payload + 30);
		printf("%d CPUs online, %d allowed; ", ipx_bench_cpus_online(),
		       ipx_bench_cpus_allowed());
		if (o.window)
			printf("window %u datagrams; ", o.window);
		else
			printf("flooding (no window); ");
		printf("%lu run%s of %g s after %g s warm-up; ", repeat,
		       repeat == 1 ? "" : "s", o.seconds, o.warmup);
		if (pinned)
			printf("pinned: hub path S%d H%d R%d, plain S%d R%d\n",
			       o.pin[1][0], o.pin[1][1], o.pin[1][2],
			       o.pin[0][0], o.pin[0][2]);
		else
			printf("not pinned\n");
		printf("\nrun  path        pkt/s     MB/s     loss  other   "
		       "CPU busy @ CPUs ran on (S sender, H hub, R receiver)"
		       "\n");
	}
	for (unsigned long i = 0; i < repeat; i++) {
		/* Alternate the order so neither path always goes first. */
		for (int k = 0; k < 2; k++) {
			enum ipx_bench_path path =
				(i % 2 ? 1 - k : k) ? IPX_BENCH_HUB
						    : IPX_BENCH_PLAIN;
			struct ipx_bench_result *r = &res[i][path];

			if (ipx_bench_hub_path(&o, path, r, err,
					       sizeof(err)) != IPX_OK) {
				cli_error("bench", "hub: %s path, run %lu: %s",
					  ipx_bench_path_name(path), i + 1,
					  err);
				return CLI_FAIL;
			}
			if (!json) {
				print_run_line((int)i + 1, r);
				if (verbose)
					print_verbose(r);
			}
		}
		for (int p = 0; p < 2; p++) {
			pps[p][i] = res[i][p].pps;
			mbps[p][i] = res[i][p].mbps;
			loss[p][i] = res[i][p].loss;
			other[2 * i + (unsigned long)p] =
				other_load(&res[i][p]);
		}
		ratio[i] = res[i][IPX_BENCH_PLAIN].pps > 0
				   ? res[i][IPX_BENCH_HUB].pps /
					     res[i][IPX_BENCH_PLAIN].pps
				   : 0;
	}
	rs = spread_of(ratio, repeat);
	met = rs.median >= IPX_BENCH_TARGET_RATIO;

	if (json) {
		printf("{\"benchmark\": \"hub\", \"ipx_payload_bytes\": %zu, "
		       "\"datagram_bytes\": %zu, \"cpus_online\": %d, "
		       "\"cpus_allowed\": %d, \"seconds\": %g, \"warmup\": %g, "
		       "\"repeat\": %lu, \"window\": %u, \"mode\": \"%s\", "
		       "\"pin\": ",
		       o.payload, o.payload + 30, ipx_bench_cpus_online(),
		       ipx_bench_cpus_allowed(), o.seconds, o.warmup, repeat,
		       o.window, o.window ? "window" : "flood");
		if (pinned)
			printf("{\"hub\": {\"sender\": %d, \"hub\": %d, "
			       "\"receiver\": %d}, \"plain\": {\"sender\": %d, "
			       "\"receiver\": %d}}",
			       o.pin[1][0], o.pin[1][1], o.pin[1][2],
			       o.pin[0][0], o.pin[0][2]);
		else
			printf("null");
		printf(", \"runs\": [");
		for (unsigned long i = 0; i < repeat; i++) {
			printf("%s{\"run\": %lu, \"plain\": ", i ? ", " : "",
			       i + 1);
			json_result(&res[i][IPX_BENCH_PLAIN]);
			printf(", \"hub\": ");
			json_result(&res[i][IPX_BENCH_HUB]);
			printf(", \"ratio\": %.4f}", ratio[i]);
		}
		printf("], \"summary\": {");
		for (int p = 0; p < 2; p++) {
			printf("\"%s\": {", ipx_bench_path_name(
						    (enum ipx_bench_path)p));
			json_spread("pps", spread_of(pps[p], repeat), false);
			json_spread("mbps", spread_of(mbps[p], repeat), false);
			json_spread("loss", spread_of(loss[p], repeat), true);
			printf("}, ");
		}
		json_spread("other_cpus", spread_of(other, 2 * repeat), false);
		json_spread("ratio", rs, true);
		printf("}, \"target_ratio\": %.2f, \"target_met\": %s}\n",
		       IPX_BENCH_TARGET_RATIO, met ? "true" : "false");
		return CLI_OK;
	}

	printf("\n%3lu run%s       median          min          max\n",
	       repeat, repeat == 1 ? " " : "s");
	for (int p = 0; p < 2; p++) {
		struct spread s = spread_of(pps[p], repeat);
		struct spread m = spread_of(mbps[p], repeat);
		struct spread l = spread_of(loss[p], repeat);
		char a[32], b[32], c[32];

		printf("%-5s pkt/s  %13s %12s %12s\n",
		       ipx_bench_path_name((enum ipx_bench_path)p),
		       grouped(s.median, a, sizeof(a)),
		       grouped(s.min, b, sizeof(b)),
		       grouped(s.max, c, sizeof(c)));
		printf("%-5s MB/s   %13.1f %12.1f %12.1f\n",
		       ipx_bench_path_name((enum ipx_bench_path)p), m.median,
		       m.min, m.max);
		printf("%-5s loss   %12.3f%% %11.3f%% %11.3f%%\n",
		       ipx_bench_path_name((enum ipx_bench_path)p),
		       l.median * 100, l.min * 100, l.max * 100);
	}
	printf("hub/plain     %13.3f %12.3f %12.3f\n", rs.median, rs.min,
	       rs.max);
	printf("\nratio hub/plain %.2f (median of %lu); target >= %.2f: %s\n",
	       rs.median, repeat, IPX_BENCH_TARGET_RATIO,
	       met ? "MET" : "NOT MET");
	{
		struct spread os = spread_of(other, 2 * repeat);

		if (os.max >= 0.25)
			printf("note: other work kept up to %.2f of the %d "
			       "CPUs busy during the windows (column "
			       "'other');\n      these figures are lower and "
			       "noisier than on an idle machine.\n",
			       os.max, ipx_bench_cpus_online());
	}
	return CLI_OK;
}

int cmd_bench(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		cli_usage_line(argc < 2 ? stderr : stdout, "bench");
		help_bench(argc < 2 ? stderr : stdout);
		return argc < 2 ? CLI_USAGE : CLI_OK;
	}
	if (!strcmp(argv[1], "hub"))
		return bench_hub(argc - 1, argv + 1);
	cli_error("bench", "unknown benchmark '%s'", argv[1]);
	help_bench(stderr);
	return CLI_USAGE;
}
