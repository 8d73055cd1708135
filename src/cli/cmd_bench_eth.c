/*
 * cmd_bench_eth.c - "ipxlab bench eth": the IPX datagram rate over the
 * Ethernet link beside plain frames of the same length between the same
 * two interfaces, on the harness (bench_pair.h): a sender and a receiver
 * agent as child processes, each entering its network namespace and
 * putting its node on its interface there, and the controller's node on a
 * third interface of the same segment (bench/eth.sh makes the namespaces
 * and a bridge joining the three). Each run is the `ipx` workload and the
 * Ethernet baseline (the `udp` kind on an Ethernet link: AF_PACKET frames,
 * src/bench/work_eth.c), the rate what the receiver counts.
 */
#include <getopt.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_common.h"
#include "ipxlab/bench_eth.h"
#include "cli.h"
#include "ipxlab/bench_stat.h"
#include "ipxlab/err.h"
#include "ipxlab/frame.h"
#include "ipxlab/link_eth.h"
#include "ipxlab/log.h"

#define CMD "bench"
#define DEFAULT_SECONDS 1.0
#define DEFAULT_WARMUP 0.3
#define DEFAULT_REPEAT 5
#define DEFAULT_PAYLOAD 255

void help_bench_eth(FILE *out)
{
	fprintf(out,
		"usage: ipxlab bench eth [options] --controller IFACE[@NETNS] "
		"SENDER RECEIVER\n\n"
		"SENDER, RECEIVER and the controller's interface are IFACE or\n"
		"IFACE@NETNS: three interfaces on one Ethernet segment, e.g. veths\n"
		"of a bridge in network namespaces (bench/eth.sh sets that up).\n"
		"A sender and a receiver agent start here as child processes, each\n"
		"in its namespace with its node on its interface; the controller's\n"
		"node is on the third. Measures how many IPX datagrams per second\n"
		"one ipxlab node gets to another over the Ethernet link, beside\n"
		"plain AF_PACKET frames of the same length between the same two\n"
		"interfaces, in the same run. Target: the IPX path reaches %.0f%%\n"
		"of the raw rate. Needs root (raw sockets, entering namespaces).\n\n"
		"      --controller IFACE[@NETNS]  the controller's interface\n"
		"  -s, --seconds S     sending time per path and run (default %g)\n"
		"  -w, --warmup S      a run of both paths first, not kept\n"
		"                      (default %g; 0: none)\n"
		"  -r, --repeat N      runs; median, min and max are reported\n"
		"                      (default %d)\n"
		"      --size N        IPX payload bytes (default %d)\n"
		"      --frame TYPE    ethernet_ii, 802.3, 802.2 or snap (default\n"
		"                      ethernet_ii)\n"
		"      --json, --csv   machine-readable output\n"
		"  -q, --quiet         no progress line\n"
		"  -h, --help          this text\n",
		IPX_BETH_TARGET * 100, DEFAULT_SECONDS, DEFAULT_WARMUP, DEFAULT_REPEAT,
		DEFAULT_PAYLOAD);
}

struct opts {
	struct ipx_beth_opts e;	/* the benchmark's */
	struct bench_common c;	/* the shared options */
	char text[3][IFNAMSIZ + 200];	/* sender, receiver, controller */
	const struct ipx_beth_report *rep;	/* what it measured */
};

/* IFACE or IFACE@NETNS into e (pointing into buf); -1 with a message. */
static int parse_end(const char *what, const char *text, char *buf,
		     size_t len, struct ipx_hnet_eth *e)
{
	char *at;

	if (strlen(text) >= len) {
		cli_error(CMD, "eth: %s '%s' is too long", what, text);
		return -1;
	}
	strcpy(buf, text);
	at = strchr(buf, '@');
	if (at)
		*at++ = '\0';
	if (!*buf || strlen(buf) >= IFNAMSIZ || (at && !*at)) {
		cli_error(CMD, "eth: %s '%s': give IFACE (1 to %d characters) "
			       "or IFACE@NETNS",
			  what, text, IFNAMSIZ - 1);
		return -1;
	}
	e->ifname = buf;
	e->netns = at;
	return 0;
}

static const struct option longopts[] = {
	BENCH_COMMON_LONGOPTS,
	BENCH_WARMUP_LONGOPT,
	{ "size", required_argument, NULL, OPT_FIRST_CMD },
	{ "frame", required_argument, NULL, OPT_FIRST_CMD + 1 },
	{ "controller", required_argument, NULL, OPT_FIRST_CMD + 2 },
	{ NULL, 0, NULL, 0 },
};

/* CLI_OK, CLI_USAGE, or -1 for --help (done). */
static int parse(struct opts *o, int argc, char **argv)
{
	unsigned long n;
	int opt, rc;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":s:w:r:qh", longopts, NULL)) !=
	       -1) {
		switch (opt) {
		case OPT_FIRST_CMD:
			if (cli_parse_uint(CMD, "--size", optarg, 1,
					   IPX_ETH_MAX_PAYLOAD - IPX_HDR_LEN,
					   &n) < 0)
				return CLI_USAGE;
			o->e.payload = n;
			break;
		case OPT_FIRST_CMD + 1:
			if (ipx_frame_type_parse(optarg, &o->e.frame) < 0 ||
			    o->e.frame == IPX_FRAME_AUTO) {
				cli_error(CMD, "eth: --frame takes ethernet_ii, "
					       "802.3, 802.2 or snap (got '%s')",
					  optarg);
				return CLI_USAGE;
			}
			break;
		case OPT_FIRST_CMD + 2:
			if (parse_end("--controller", optarg, o->text[2],
				      sizeof(o->text[2]), &o->e.end[2]) < 0)
				return CLI_USAGE;
			break;
		default:
			rc = bench_common_opt(&o->c, opt, optarg, argv);
			if (rc != 1)
				return rc;
		}
	}
	if (argc - optind != 2) {
		cli_error(CMD, "eth: give the SENDER and RECEIVER interfaces "
			       "(IFACE or IFACE@NETNS); bench/eth.sh makes "
			       "them");
		return CLI_USAGE;
	}
	if (parse_end("SENDER", argv[optind], o->text[0], sizeof(o->text[0]),
		      &o->e.end[0]) < 0 ||
	    parse_end("RECEIVER", argv[optind + 1], o->text[1],
		      sizeof(o->text[1]), &o->e.end[1]) < 0)
		return CLI_USAGE;
	if (!o->e.end[2].ifname) {
		cli_error(CMD, "eth: --controller IFACE[@NETNS] is needed: the "
			       "controller's node is a third interface on the "
			       "segment (an Ethernet node is its interface's "
			       "MAC); bench/eth.sh makes one");
		return CLI_USAGE;
	}
	if (bench_output_check(o->c.json, o->c.csv) != CLI_OK)
		return CLI_USAGE;
	if (IPX_HDR_LEN + o->e.payload > ipx_frame_mtu(o->e.frame)) {
		cli_error(CMD, "eth: a %s frame carries at most %zu payload "
			       "bytes (--size %zu)",
			  ipx_frame_type_name(o->e.frame),
			  ipx_frame_mtu(o->e.frame) - IPX_HDR_LEN, o->e.payload);
		return CLI_USAGE;
	}
	for (int i = 0; i < 3; i++)
		o->e.end[i].frame = o->e.frame;
	return CLI_OK;
}

/* CPU time per delivered packet (ns) of a process busy 'share'. */
static double ns_per_pkt(const struct ipx_beth_res *r, double share)
{
	return r->pps > 0 ? share * 1e9 / r->pps : 0;
}

static void print_run(unsigned long run, enum ipx_beth_path p, const struct ipx_beth_res *r)
{
	printf("%3lu  %-4s %11.0f %8.1f %7.2f%%  %4.0f%% %5.0f  %4.0f%% %5.0f\n",
	       run, ipx_beth_path_name[p], r->pps, r->mbps, r->loss * 100,
	       r->cpu_s * 100, ns_per_pkt(r, r->cpu_s), r->cpu_r * 100,
	       ns_per_pkt(r, r->cpu_r));
	fflush(stdout);
}

static void print_header(const struct opts *o, const struct ipx_bpair *b)
{
	printf("ipxlab bench eth: %zu-byte IPX datagrams in %s frames of %zu "
	       "bytes, %s -> %s\n",
	       o->e.payload, ipx_frame_type_name(o->e.frame),
	       ipx_beth_frame_len(&o->e), b->where[0], b->where[1]);
	bench_pair_conditions(b, "none (the scheduler's)", stdout);
	printf("%lu run%s of %g s after %g s warm-up; the sender floods, the "
	       "rate is what the receiver counts\n\n",
	       o->e.repeat, o->e.repeat == 1 ? "" : "s", o->e.seconds, o->e.warmup);
	printf("                                          sender       "
	       "receiver\n");
	printf("run  path       pkt/s     MB/s     loss   CPU ns/pkt   CPU "
	       "ns/pkt\n");
}

static void on_progress(void *ctx, enum ipx_beth_event ev,
			const struct ipx_beth_report *rep, unsigned long run,
			enum ipx_beth_path p)
{
	const struct opts *o = ctx;

	if (o->c.json || o->c.csv)
		return;
	if (ev == IPX_BETH_EV_READY) {
		print_header(o, &rep->net);
		return;
	}
	bench_pair_progress_end(&rep->net);
	print_run(run, p, &rep->runs[run - 1][p]);
}

static void conditions(struct ipx_jw *w, const void *ctx)
{
	const struct opts *o = ctx;

	bench_pair_json_conditions(w, &o->rep->net, "none (the scheduler's)");
}

static void print_summary(const struct ipx_beth_report *rep)
{
	const struct ipx_stat_summary *sum = rep->sum;

	printf("\nsummary, median [min - max] of %lu run%s:\n", rep->done,
	       cli_s(rep->done));
	printf("  raw  %11.0f [%.0f - %.0f] pkt/s\n", sum[0].median,
	       sum[0].min, sum[0].max);
	printf("  ipx  %11.0f [%.0f - %.0f] pkt/s\n", sum[1].median,
	       sum[1].min, sum[1].max);
	printf("  ipx / raw: %.2f [%.2f - %.2f]; target >= %.2f: %s\n",
	       sum[2].median, sum[2].min, sum[2].max, IPX_BETH_TARGET,
	       sum[2].median >= IPX_BETH_TARGET ? "PASS" : "MISS");
}

int bench_eth(int argc, char **argv)
{
	static struct ipx_beth_report rep;
	struct opts o = { .e.seconds = DEFAULT_SECONDS,
			  .e.warmup = DEFAULT_WARMUP,
			  .e.repeat = DEFAULT_REPEAT,
			  .e.payload = DEFAULT_PAYLOAD,
			  .e.frame = IPX_FRAME_ETHERNET_II,
			  .c = { .name = "eth", .help = help_bench_eth,
				 .max_repeat = IPX_BETH_MAX_REPEAT },
			  .rep = &rep };
	struct ipx_beth_hooks hooks = { on_progress, &o };
	char err[768];
	int rc;

	o.c.seconds = &o.e.seconds;
	o.c.warmup = &o.e.warmup;
	o.c.repeat = &o.e.repeat;
	rc = parse(&o, argc, argv);
	if (rc != CLI_OK)
		return rc < 0 ? CLI_OK : rc;
	ipx_log_set_level(IPX_LOG_WARN);
	rep.net.name = "eth";
	bench_pair_ui(&rep.net, !o.c.quiet && isatty(STDERR_FILENO));
	rc = ipx_beth_run(&o.e, &hooks, &rep, err, sizeof(err));
	bench_pair_progress_end(&rep.net);
	if (rc != IPX_OK) {
		cli_error(CMD, "eth: %s", err);
		return CLI_FAIL;
	}
	if (rep.interrupted)
		cli_error(CMD, "eth: interrupted; printing the %lu run%s that "
			       "finished",
			  rep.done, cli_s(rep.done));
	if (o.c.json)
		ipx_beth_write_json(stdout, &o.e, &rep, conditions, &o);
	else if (o.c.csv && rep.done)
		ipx_beth_write_csv(stdout, &rep);
	else if (rep.done)
		print_summary(&rep);
	return rep.interrupted ? CLI_FAIL : CLI_OK;
}
