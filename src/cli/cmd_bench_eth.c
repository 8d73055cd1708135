/*
 * cmd_bench_eth.c - "ipxlab bench eth": the IPX datagram rate over the
 * Ethernet link beside a plain AF_PACKET sender and receiver of the same
 * frames (src/bench/ethrate.c, bench/README.md). bench/eth.sh creates the
 * two network namespaces and the veth pair it runs on.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ipxlab/bench_eth.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"

#define MAX_RUNS 100

void help_bench_eth(FILE *out)
{
	fprintf(out,
		"usage: ipxlab bench eth [options] SENDER RECEIVER\n\n"
		"SENDER and RECEIVER are IFACE or IFACE@NETNS: two interfaces on\n"
		"one Ethernet segment, e.g. the two ends of a veth pair in two\n"
		"network namespaces (bench/eth.sh sets that up). Measures how many\n"
		"IPX datagrams per second one ipxlab node gets to another over the\n"
		"Ethernet link, beside a plain raw-socket (AF_PACKET) sender and\n"
		"receiver moving the same frames, in the same run. Target: the IPX\n"
		"path reaches %.0f%% of the raw rate. Needs root (raw sockets,\n"
		"entering namespaces).\n\n"
		"  -s, --seconds S     measurement window per path (default %g)\n"
		"  -w, --warmup S      sending before the window opens (default %g)\n"
		"  -r, --repeat N      runs; median, min and max are reported\n"
		"                      (default %d)\n"
		"      --size N        IPX payload bytes (default %d)\n"
		"      --frame TYPE    ethernet_ii, 802.3, 802.2 or snap (default\n"
		"                      ethernet_ii)\n"
		"      --json          machine-readable output\n"
		"  -h, --help          this text\n",
		IPX_ETHB_TARGET_RATIO * 100, IPX_ETHB_DEFAULT_SECONDS,
		IPX_ETHB_DEFAULT_WARMUP, IPX_ETHB_DEFAULT_REPEAT,
		IPX_ETHB_DEFAULT_PAYLOAD);
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median, min and max of n > 0 values (v is sorted in place). */
static void med_min_max(double *v, size_t n, double out[3])
{
	qsort(v, n, sizeof(*v), by_value);
	out[0] = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	out[1] = v[0];
	out[2] = v[n - 1];
}

static const char *end_text(const struct ipx_ethb_end *e, char *buf,
			    size_t len)
{
	snprintf(buf, len, "%s%s%s", e->ifname, *e->netns ? "@" : "",
		 e->netns);
	return buf;
}

static void print_json(const struct ipx_ethb_opts *o, unsigned long runs,
		       struct ipx_ethb_result res[][IPX_ETHB_PATHS],
		       double sum[3][3], bool met)
{
	printf("{\"benchmark\": \"eth\", \"frame\": \"%s\", "
	       "\"payload_bytes\": %zu, \"frame_bytes\": %zu, "
	       "\"seconds\": %g, \"warmup\": %g, \"repeat\": %lu, \"runs\": [",
	       ipx_frame_type_name(o->frame), o->payload,
	       ipx_ethb_frame_len(o), o->seconds, o->warmup, runs);
	for (unsigned long i = 0; i < runs; i++) {
		printf("%s{", i ? ", " : "");
		for (int p = 0; p < IPX_ETHB_PATHS; p++) {
			const struct ipx_ethb_result *r = &res[i][p];

			printf("\"%s\": {\"pps\": %.1f, \"mbps\": %.3f, "
			       "\"seconds\": %.6f, \"packets\": %llu, "
			       "\"sent\": %llu, \"delivered\": %llu, "
			       "\"loss\": %.6f, \"rx_drops\": %llu, "
			       "\"cpu_sender\": %.3f, \"cpu_receiver\": %.3f}, ",
			       ipx_ethb_path_name((enum ipx_ethb_path)p),
			       r->pps, r->mbps, r->seconds,
			       (unsigned long long)r->packets,
			       (unsigned long long)r->sent,
			       (unsigned long long)r->delivered, r->loss,
			       (unsigned long long)r->rx_drops, r->cpu_sender,
			       r->cpu_receiver);
		}
		printf("\"ratio\": %.4f}",
		       res[i][IPX_ETHB_RAW].pps > 0
			       ? res[i][IPX_ETHB_IPX].pps /
					 res[i][IPX_ETHB_RAW].pps
			       : 0);
	}
	printf("], \"summary\": {");
	for (int k = 0; k < 3; k++)
		printf("%s\"%s\": {\"median\": %.4g, \"min\": %.4g, "
		       "\"max\": %.4g}",
		       k ? ", " : "",
		       k == 0 ? "raw_pps" : k == 1 ? "ipx_pps" : "ratio",
		       sum[k][0], sum[k][1], sum[k][2]);
	printf("}, \"target_ratio\": %.2f, \"pass\": %s}\n",
	       IPX_ETHB_TARGET_RATIO, met ? "true" : "false");
}

/* CPU time per delivered packet, in ns, of a process busy 'cpu' of the
 * window. */
static double ns_per_pkt(const struct ipx_ethb_result *r, double cpu)
{
	return r->packets ? cpu * r->seconds * 1e9 / (double)r->packets : 0;
}

static void print_run(unsigned long run, const struct ipx_ethb_result *r)
{
	printf("%3lu  %-4s %11.0f %8.1f %7.2f%%  %4.0f%% %5.0f  %4.0f%% %5.0f",
	       run, ipx_ethb_path_name(r->path), r->pps, r->mbps,
	       r->loss * 100, r->cpu_sender * 100,
	       ns_per_pkt(r, r->cpu_sender), r->cpu_receiver * 100,
	       ns_per_pkt(r, r->cpu_receiver));
	if (r->rx_drops)
		printf("  (%llu frames dropped by the link)",
		       (unsigned long long)r->rx_drops);
	printf("\n");
	fflush(stdout);
}

enum { OPT_SIZE = OPT_FIRST_CMD, OPT_FRAME, OPT_JSON };

int bench_eth(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "seconds", required_argument, NULL, 's' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "size", required_argument, NULL, OPT_SIZE },
		{ "frame", required_argument, NULL, OPT_FRAME },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct ipx_ethb_result res[MAX_RUNS][IPX_ETHB_PATHS];
	double v[3][MAX_RUNS], sum[3][3];
	struct ipx_ethb_opts o;
	unsigned long runs = IPX_ETHB_DEFAULT_REPEAT, n;
	bool json = false, met;
	char err[512], a[160], b[160];
	int opt;

	ipx_ethb_opts_default(&o);
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":s:w:r:h", longopts, NULL)) !=
	       -1) {
		switch (opt) {
		case 's':
		case 'w':
		case 'r':
			if (bench_window_opt(opt, optarg, &o.seconds,
						 &o.warmup, &runs,
						 MAX_RUNS) < 0)
				return CLI_USAGE;
			break;
		case OPT_SIZE:
			if (cli_parse_uint("bench", "--size", optarg, 1,
					   IPX_ETH_MAX_PAYLOAD - IPX_HDR_LEN,
					   &n) < 0)
				return CLI_USAGE;
			o.payload = n;
			break;
		case OPT_FRAME:
			if (ipx_frame_type_parse(optarg, &o.frame) < 0 ||
			    o.frame == IPX_FRAME_AUTO) {
				cli_error("bench", "eth: --frame takes "
						   "ethernet_ii, 802.3, 802.2 "
						   "or snap (got '%s')",
					  optarg);
				return CLI_USAGE;
			}
			break;
		case OPT_JSON:
			json = true;
			break;
		case 'h':
			help_bench_eth(stdout);
			return CLI_OK;
		default:
			cli_error("bench", "eth: %s '%s'",
				  opt == ':' ? "missing value for"
					     : "unknown option",
				  argv[optind - 1]);
			fprintf(stderr, "usage: ipxlab bench eth [options] "
					"SENDER RECEIVER ('ipxlab bench eth "
					"--help')\n");
			return CLI_USAGE;
		}
	}
	if (argc - optind != 2) {
		cli_error("bench", "eth: give the SENDER and RECEIVER "
				   "interfaces (IFACE or IFACE@NETNS); "
				   "bench/eth.sh makes a veth pair for them");
		return CLI_USAGE;
	}
	if (ipx_ethb_parse_end(argv[optind], &o.sender, err, sizeof(err)) ||
	    ipx_ethb_parse_end(argv[optind + 1], &o.receiver, err,
			       sizeof(err))) {
		cli_error("bench", "eth: %s", err);
		return CLI_USAGE;
	}
	if (IPX_HDR_LEN + o.payload > ipx_frame_mtu(o.frame)) {
		cli_error("bench", "eth: a %s frame carries at most %zu "
				   "payload bytes (--size %zu)",
			  ipx_frame_type_name(o.frame),
			  ipx_frame_mtu(o.frame) - IPX_HDR_LEN, o.payload);
		return CLI_USAGE;
	}
	ipx_log_set_level(IPX_LOG_WARN);
	if (!json) {
		printf("ipxlab bench eth: %zu-byte IPX datagrams in %s frames "
		       "of %zu bytes, %s -> %s\n",
		       o.payload, ipx_frame_type_name(o.frame),
		       ipx_ethb_frame_len(&o),
		       end_text(&o.sender, a, sizeof(a)),
		       end_text(&o.receiver, b, sizeof(b)));
		printf("%lu run%s of %g s after %g s warm-up; the sender "
		       "floods, the rate is what the receiver counts\n\n",
		       runs, runs == 1 ? "" : "s", o.seconds, o.warmup);
		printf("                                          sender       "
		       "receiver\n");
		printf("run  path       pkt/s     MB/s     loss   CPU ns/pkt   "
		       "CPU ns/pkt\n");
	}
	for (unsigned long i = 0; i < runs; i++) {
		for (int k = 0; k < IPX_ETHB_PATHS; k++) {
			/* Alternate the order: neither path always first. */
			enum ipx_ethb_path p = (enum ipx_ethb_path)(i % 2 ? 1 - k
									 : k);

			if (ipx_ethb_run(&o, p, &res[i][p], err,
					 sizeof(err)) != IPX_OK) {
				cli_error("bench", "eth: %s path, run %lu: %s",
					  ipx_ethb_path_name(p), i + 1, err);
				return CLI_FAIL;
			}
			if (!json)
				print_run(i + 1, &res[i][p]);
		}
		v[0][i] = res[i][IPX_ETHB_RAW].pps;
		v[1][i] = res[i][IPX_ETHB_IPX].pps;
		v[2][i] = v[0][i] > 0 ? v[1][i] / v[0][i] : 0;
	}
	for (int k = 0; k < 3; k++)
		med_min_max(v[k], runs, sum[k]);
	met = sum[2][0] >= IPX_ETHB_TARGET_RATIO;
	if (json) {
		print_json(&o, runs, res, sum, met);
		return CLI_OK;
	}
	printf("\nsummary, median [min - max] of %lu run%s:\n", runs,
	       runs == 1 ? "" : "s");
	printf("  raw  %11.0f [%.0f - %.0f] pkt/s\n", sum[0][0], sum[0][1],
	       sum[0][2]);
	printf("  ipx  %11.0f [%.0f - %.0f] pkt/s\n", sum[1][0], sum[1][1],
	       sum[1][2]);
	printf("  ipx / raw: %.2f [%.2f - %.2f]; target >= %.2f: %s\n",
	       sum[2][0], sum[2][1], sum[2][2], IPX_ETHB_TARGET_RATIO,
	       met ? "PASS" : "MISS");
	return CLI_OK;
}
