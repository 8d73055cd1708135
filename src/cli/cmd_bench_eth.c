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
#include "ipxlab/bench_result.h"
#include "cli.h"
#include "fsbench.h"
#include "ipxlab/bench_stat.h"
#include "ipxlab/err.h"
#include "ipxlab/frame.h"
#include "ipxlab/link_eth.h"
#include "ipxlab/log.h"

#define CMD "bench"
#define MAX_RUNS 100
#define TARGET 0.80
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
		TARGET * 100, DEFAULT_SECONDS, DEFAULT_WARMUP, DEFAULT_REPEAT,
		DEFAULT_PAYLOAD);
}

enum path { RAW, IPX, PATHS };
static const char *const path_name[PATHS] = { "raw", "ipx" };

struct opts {
	double seconds, warmup;
	unsigned long repeat;
	size_t payload;
	enum ipx_frame_type frame;
	bool json, csv, quiet;
	bool interrupted;	/* Ctrl-C: the runs that finished */
	char text[3][IFNAMSIZ + 200];	/* sender, receiver, controller */
	struct ipx_hnet_eth end[3];
};

/* One path of one run. */
struct res {
	double pps, mbps, loss, cpu_s, cpu_r;
	uint64_t sent, delivered;
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

static size_t frame_len(const struct opts *o)
{
	size_t n = IPX_ETH_HDR_LEN + ipx_frame_overhead(o->frame) +
		   IPX_HDR_LEN + o->payload;

	return n < IPX_ETH_MIN_FRAME ? IPX_ETH_MIN_FRAME : n;
}

static const struct option longopts[] = {
	{ "seconds", required_argument, NULL, 's' },
	{ "warmup", required_argument, NULL, 'w' },
	{ "repeat", required_argument, NULL, 'r' },
	{ "size", required_argument, NULL, OPT_FIRST_CMD },
	{ "frame", required_argument, NULL, OPT_FIRST_CMD + 1 },
	{ "controller", required_argument, NULL, OPT_FIRST_CMD + 2 },
	{ "json", no_argument, NULL, OPT_FIRST_CMD + 3 },
	{ "csv", no_argument, NULL, OPT_FIRST_CMD + 4 },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* CLI_OK, CLI_USAGE, or -1 for --help (done). */
static int parse(struct opts *o, int argc, char **argv)
{
	unsigned long n;
	int opt;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":s:w:r:qh", longopts, NULL)) !=
	       -1) {
		switch (opt) {
		case 's':
		case 'w':
		case 'r':
			if (bench_window_opt(opt, optarg, &o->seconds,
					     &o->warmup, &o->repeat,
					     MAX_RUNS) < 0)
				return CLI_USAGE;
			break;
		case OPT_FIRST_CMD:
			if (cli_parse_uint(CMD, "--size", optarg, 1,
					   IPX_ETH_MAX_PAYLOAD - IPX_HDR_LEN,
					   &n) < 0)
				return CLI_USAGE;
			o->payload = n;
			break;
		case OPT_FIRST_CMD + 1:
			if (ipx_frame_type_parse(optarg, &o->frame) < 0 ||
			    o->frame == IPX_FRAME_AUTO) {
				cli_error(CMD, "eth: --frame takes ethernet_ii, "
					       "802.3, 802.2 or snap (got '%s')",
					  optarg);
				return CLI_USAGE;
			}
			break;
		case OPT_FIRST_CMD + 2:
			if (parse_end("--controller", optarg, o->text[2],
				      sizeof(o->text[2]), &o->end[2]) < 0)
				return CLI_USAGE;
			break;
		case OPT_FIRST_CMD + 3:
			o->json = true;
			break;
		case OPT_FIRST_CMD + 4:
			o->csv = true;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			help_bench_eth(stdout);
			return -1;
		default:
			return bench_bad_option("eth", opt, argv);
		}
	}
	if (argc - optind != 2) {
		cli_error(CMD, "eth: give the SENDER and RECEIVER interfaces "
			       "(IFACE or IFACE@NETNS); bench/eth.sh makes "
			       "them");
		return CLI_USAGE;
	}
	if (parse_end("SENDER", argv[optind], o->text[0], sizeof(o->text[0]),
		      &o->end[0]) < 0 ||
	    parse_end("RECEIVER", argv[optind + 1], o->text[1],
		      sizeof(o->text[1]), &o->end[1]) < 0)
		return CLI_USAGE;
	if (!o->end[2].ifname) {
		cli_error(CMD, "eth: --controller IFACE[@NETNS] is needed: the "
			       "controller's node is a third interface on the "
			       "segment (an Ethernet node is its interface's "
			       "MAC); bench/eth.sh makes one");
		return CLI_USAGE;
	}
	if (o->json && o->csv) {
		cli_error(CMD, "--json and --csv exclude each other");
		return CLI_USAGE;
	}
	if (IPX_HDR_LEN + o->payload > ipx_frame_mtu(o->frame)) {
		cli_error(CMD, "eth: a %s frame carries at most %zu payload "
			       "bytes (--size %zu)",
			  ipx_frame_type_name(o->frame),
			  ipx_frame_mtu(o->frame) - IPX_HDR_LEN, o->payload);
		return CLI_USAGE;
	}
	for (int i = 0; i < 3; i++)
		o->end[i].frame = o->frame;
	return CLI_OK;
}

static void figures(const struct opts *o, const struct ipx_bpair_run *x,
		    struct res *r)
{
	const struct ipx_bw_result *s = &x->snd, *d = &x->rcv;

	memset(r, 0, sizeof(*r));
	r->sent = s->sent;
	r->delivered = d->delivered;
	r->pps = d->seconds > 0 ? (double)d->delivered / d->seconds : 0;
	r->mbps = r->pps * (double)frame_len(o) / 1e6;
	r->loss = s->sent > d->delivered
			  ? 1.0 - (double)d->delivered / (double)s->sent
			  : 0;
	r->cpu_s = s->seconds > 0 ? (s->cpu_user + s->cpu_sys) / s->seconds
				  : 0;
	r->cpu_r = d->seconds > 0 ? (d->cpu_user + d->cpu_sys) / d->seconds
				  : 0;
}

/* CPU time per delivered packet (ns) of a process busy 'share'. */
static double ns_per_pkt(const struct res *r, double share)
{
	return r->pps > 0 ? share * 1e9 / r->pps : 0;
}

static void print_run(unsigned long run, enum path p, const struct res *r)
{
	printf("%3lu  %-4s %11.0f %8.1f %7.2f%%  %4.0f%% %5.0f  %4.0f%% %5.0f\n",
	       run, path_name[p], r->pps, r->mbps, r->loss * 100,
	       r->cpu_s * 100, ns_per_pkt(r, r->cpu_s), r->cpu_r * 100,
	       ns_per_pkt(r, r->cpu_r));
	fflush(stdout);
}

/* One run: both paths, every other run the IPX path first. */
static int run_once(const struct opts *o, struct ipx_bpair *b,
		    unsigned long i, struct res out[PATHS], char *err,
		    size_t errlen)
{
	for (int k = 0; k < PATHS; k++) {
		enum path p = (enum path)(i % 2 ? 1 - k : k);
		struct ipx_bw_params w = { 0 };
		struct ipx_bpair_run x;
		char label[48];
		int rc;

		w.kind = p == IPX ? IPX_BW_IPX : IPX_BW_UDP;
		w.size = o->payload;
		w.seconds = i ? o->seconds : o->warmup;
		snprintf(label, sizeof(label), "%s %s %lu", path_name[p],
			 i ? "run" : "warm-up", i);
		rc = ipx_bpair_run(b, label, (unsigned)i, &w, -1, -1, &x, err,
				    errlen);
		if (rc != IPX_OK)
			return rc;
		figures(o, &x, &out[p]);
		if (i && !o->json && !o->csv) {
			bench_pair_progress_end(b);
			print_run(i, p, &out[p]);
		}
	}
	return IPX_OK;
}

static void summarize(struct res (*res)[PATHS], unsigned long n,
		      struct ipx_stat_summary sum[3])
{
	double v[3][MAX_RUNS];

	for (unsigned long i = 0; i < n; i++) {
		v[0][i] = res[i][RAW].pps;
		v[1][i] = res[i][IPX].pps;
		v[2][i] = v[0][i] > 0 ? v[1][i] / v[0][i] : 0;
	}
	for (int k = 0; k < 3; k++)
		ipx_stat_summarize(v[k], n, &sum[k]);
}

/* One path of one run: a CSV line, and its JSON object (bench_result.h). */
struct line {
	uint64_t run;
	const char *path;
	struct res r;
};

#define LF(M, NAME, FMT, TYPE, WHERE) \
	IPX_RF(struct line, M, NAME, "", FMT, TYPE, WHERE)
static const struct ipx_rfield line_fields[] = {
	LF(run, "run", NULL, IPX_RF_U64, IPX_RF_CSV),
	LF(path, "path", NULL, IPX_RF_STR, IPX_RF_CSV),
	LF(r.pps, "pps", "%.1f", IPX_RF_DOUBLE, IPX_RF_BOTH),
	LF(r.mbps, "MB_per_s", "%.3f", IPX_RF_DOUBLE, IPX_RF_BOTH),
	LF(r.sent, "sent", NULL, IPX_RF_U64, IPX_RF_BOTH),
	LF(r.delivered, "delivered", NULL, IPX_RF_U64, IPX_RF_BOTH),
	LF(r.loss, "loss", "%.6f", IPX_RF_DOUBLE, IPX_RF_BOTH),
	LF(r.cpu_s, "cpu_sender", "%.3f", IPX_RF_DOUBLE, IPX_RF_BOTH),
	LF(r.cpu_r, "cpu_receiver", "%.3f", IPX_RF_DOUBLE, IPX_RF_BOTH),
};
static const struct ipx_rtable line_table = IPX_RTABLE("eth", line_fields);

static void print_json(const struct opts *o, const struct ipx_bpair *b,
		       struct res (*res)[PATHS],
		       const struct ipx_stat_summary sum[3])
{
	static const char *const sum_name[3] = { "raw_pps", "ipx_pps",
						 "ratio" };
	struct ipx_jw w;

	ipx_jw_init(&w, stdout);
	ipx_jw_obj(&w, NULL);
	ipx_jw_str(&w, "benchmark", "eth");
	if (o->interrupted)
		ipx_jw_bool(&w, "complete", false);
	bench_pair_json_conditions(&w, b, "none (the scheduler's)");
	ipx_jw_str(&w, "frame", ipx_frame_type_name(o->frame));
	ipx_jw_u64(&w, "payload_bytes", o->payload);
	ipx_jw_u64(&w, "frame_bytes", frame_len(o));
	ipx_jw_dbl(&w, "seconds", "%g", o->seconds);
	ipx_jw_dbl(&w, "warmup", "%g", o->warmup);
	ipx_jw_u64(&w, "repeat", o->repeat);
	ipx_jw_arr(&w, "runs");
	for (unsigned long i = 0; i < o->repeat; i++) {
		ipx_jw_obj(&w, NULL);
		for (int p = 0; p < PATHS; p++) {
			struct line l = { i + 1, path_name[p], res[i][p] };

			ipx_res_json_row(&w, path_name[p], &line_table, &l);
		}
		ipx_jw_dbl(&w, "ratio", "%.4f",
			   res[i][RAW].pps > 0
				   ? res[i][IPX].pps / res[i][RAW].pps
				   : 0);
		ipx_jw_end(&w);
	}
	ipx_jw_end(&w);
	ipx_jw_obj(&w, "summary");
	for (int k = 0; k < 3; k++)
		ipx_jw_summary(&w, sum_name[k], "%.4g", &sum[k]);
	ipx_jw_end(&w);
	ipx_jw_dbl(&w, "target_ratio", "%.2f", TARGET);
	ipx_jw_bool(&w, "pass", sum[2].median >= TARGET);
	ipx_jw_finish(&w);
}

static void print_csv(const struct opts *o, struct res (*res)[PATHS])
{
	ipx_res_csv_header(stdout, &line_table);
	for (unsigned long i = 0; i < o->repeat; i++)
		for (int p = 0; p < PATHS; p++) {
			struct line l = { i + 1, path_name[p], res[i][p] };

			ipx_res_csv_row(stdout, &line_table, &l);
		}
}

static void print_header(const struct opts *o, const struct ipx_bpair *b)
{
	printf("ipxlab bench eth: %zu-byte IPX datagrams in %s frames of %zu "
	       "bytes, %s -> %s\n",
	       o->payload, ipx_frame_type_name(o->frame), frame_len(o),
	       b->where[0], b->where[1]);
	bench_pair_conditions(b, "none (the scheduler's)", stdout);
	printf("%lu run%s of %g s after %g s warm-up; the sender floods, the "
	       "rate is what the receiver counts\n\n",
	       o->repeat, o->repeat == 1 ? "" : "s", o->seconds, o->warmup);
	printf("                                          sender       "
	       "receiver\n");
	printf("run  path       pkt/s     MB/s     loss   CPU ns/pkt   CPU "
	       "ns/pkt\n");
}

int bench_eth(int argc, char **argv)
{
	static struct res res[MAX_RUNS][PATHS];
	struct opts o = { .seconds = DEFAULT_SECONDS,
			  .warmup = DEFAULT_WARMUP,
			  .repeat = DEFAULT_REPEAT,
			  .payload = DEFAULT_PAYLOAD,
			  .frame = IPX_FRAME_ETHERNET_II };
	struct ipx_bpair b = { .name = "eth" };
	struct ipx_stat_summary sum[3];
	struct res warm[PATHS];
	char err[768];
	unsigned long done = 0;
	int rc = parse(&o, argc, argv);

	if (rc != CLI_OK)
		return rc < 0 ? CLI_OK : rc;
	ipx_log_set_level(IPX_LOG_WARN);
	bench_pair_ui(&b, !o.quiet && isatty(STDERR_FILENO));
	b.planned = PATHS * (o.warmup + o.seconds * (double)o.repeat);
	rc = ipx_bpair_start_eth(&b, o.end, &o.end[2], err, sizeof(err));
	if (rc == IPX_OK && !o.json && !o.csv)
		print_header(&o, &b);
	if (rc == IPX_OK && o.warmup > 0)
		rc = run_once(&o, &b, 0, warm, err, sizeof(err));
	for (unsigned long i = 1; rc == IPX_OK && i <= o.repeat; i++) {
		rc = run_once(&o, &b, i, res[i - 1], err, sizeof(err));
		done = rc == IPX_OK ? i : done;
	}
	bench_pair_progress_end(&b);
	if (b.ctl && bench_pair_cut(&b, "eth", &rc, done, "run")) {
		o.interrupted = true;
		o.repeat = done;	/* what is printed: the runs done */
	}
	if (rc == IPX_OK && (o.repeat || o.json)) {
		summarize(res, o.repeat, sum);
		if (o.json) {
			print_json(&o, &b, res, sum);
		} else if (o.csv) {
			print_csv(&o, res);
		} else {
			printf("\nsummary, median [min - max] of %lu run%s:\n",
			       o.repeat, o.repeat == 1 ? "" : "s");
			printf("  raw  %11.0f [%.0f - %.0f] pkt/s\n",
			       sum[0].median, sum[0].min, sum[0].max);
			printf("  ipx  %11.0f [%.0f - %.0f] pkt/s\n",
			       sum[1].median, sum[1].min, sum[1].max);
			printf("  ipx / raw: %.2f [%.2f - %.2f]; target >= "
			       "%.2f: %s\n",
			       sum[2].median, sum[2].min, sum[2].max, TARGET,
			       sum[2].median >= TARGET ? "PASS" : "MISS");
		}
	}
	ipx_bpair_stop(&b, rc == IPX_OK && !o.interrupted);
	if (rc != IPX_OK) {
		cli_error(CMD, "eth: %s", err);
		return CLI_FAIL;
	}
	return o.interrupted ? CLI_FAIL : CLI_OK;
}
