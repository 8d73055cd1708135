/*
 * cmd_bench.c - "ipxlab bench NAME": benchmarks (not tests). Each prints
 * its figures beside a baseline measured in the same run. The measuring
 * is done by the library (src/bench, ipxlab/bench.h); this is the CLI.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_common.h"

#include "cli.h"
#include "ipxlab/bench.h"
#include "ipxlab/err.h"
#include "ipxlab/ipx.h"
#include "ipxlab/link_udp.h"
#include "ipxlab/log.h"
#include "ipxlab/spx.h"

#define MAX_REPEAT 100

void help_bench(FILE *out)
{
	fprintf(out, "benchmarks:\n"
		     "  protocols  B1, the 1990 protocol comparison: IPX, SPX,\n"
		     "         SPX II, NetBIOS datagram and session beside UDP,\n"
		     "         with the 1990 figures (what a bare 'ipxlab bench'\n"
		     "         runs)\n"
		     "  hub    hub forwarding rate of 255-byte datagrams between\n"
		     "         two nodes, beside plain one-hop UDP\n"
		     "  netbios NetBIOS datagram and session message rates beside\n"
		     "         IPX, with the round trip that bounds the session\n"
		     "  spx    bulk goodput of SPX I and SPX II over the tunnel\n"
		     "         and the in-memory link, beside IPX datagrams of\n"
		     "         the same packet size\n"
		     "  ncp    NCP 1-byte reads, open/close and a large get\n"
		     "         beside the round trip measured in the same run\n"
		     "  battery B2, the 1990 Network Test Battery: eleven\n"
		     "         file-server operations with 1 and 5 workstations\n"
		     "  copy   B3, the 1990 file copy test: seven sizes copied\n"
		     "         from the server to a workstation's disk\n"
		     "  perftest B4, the 1990 performance test: 4 KB records\n"
		     "         written overlaid, kB/s as the user sees it\n"
		     "  arrival B5, the 1990 packet arrival times: gaps between\n"
		     "         packets of a 25,184-byte transfer, in buckets\n"
		     "  wan    B6, the 1990 bridged network: the battery with and\n"
		     "         without the WAN bridge, its throughput limit, and\n"
		     "         the workstation scaling curve\n"
		     "  eth    IPX datagram rate over the Ethernet link between\n"
		     "         two interfaces, beside raw AF_PACKET frames\n"
		     "         (bench/eth.sh)\n"
		     "\n'ipxlab bench NAME --help' lists a benchmark's options.\n");
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

/* ---- JSON ---- */

static void json_spread(const char *name, struct spread s, bool last)
{
	printf("\"%s\": {\"median\": %.6g, \"min\": %.6g, \"max\": %.6g}%s",
	       name, s.median, s.min, s.max, last ? "" : ", ");
}

/* ---- the SPX benchmark ---- */

static void help_bench_spx(FILE *out)
{
	fprintf(out,
		"usage: ipxlab bench spx [options]\n\n"
		"Measure bulk goodput (application bytes per second) of SPX I\n"
		"and SPX II beside IPX datagrams of the same IPX packet size,\n"
		"in the same run, on two links:\n"
		"  udp  sender agent -> hub -> receiver agent on 127.0.0.1, three\n"
		"       processes (the benchmark harness), as 'ipxlab bench hub'\n"
		"  mem  two nodes in one process on the in-memory link, real\n"
		"       clock (the CPU cost of the stack)\n"
		"Rows per link: ipx-small (IPX datagrams, %d-byte packets),\n"
		"spx1 (SPX I, %d-byte packets: %d data bytes), ipx-large (IPX\n"
		"datagrams of the link's MTU) and spx2 (SPX II at its\n"
		"negotiated size, the MTU). SPX I is bounded by its round trip:\n"
		"the rate it allows (data per packet / smoothed RTT) is printed\n"
		"beside it. Target: SPX II reaches at least %.0f%% of the IPX\n"
		"datagram goodput at the same packet size.\n\n"
		"  -s, --seconds S     measurement time per row (default %g)\n"
		"  -w, --warmup S      udp: one uncounted pass of S s per row\n"
		"                      first; mem: sending before each row's\n"
		"                      window opens (default %g)\n"
		"  -r, --repeat N      runs; median, min and max are reported\n"
		"                      (default %d)\n"
		"      --links L       mem, udp or mem,udp (default mem,udp)\n"
		"      --mtu N         the in-memory segment's MTU, %d..%d\n"
		"                      (default %d, the tunnel's)\n"
		"      --spx-window N  SPX II window in packets (default: the\n"
		"                      library's, 32)\n"
		"      --send-queue N  bytes spx_send may hold (default: the\n"
		"                      library's, 65536)\n"
		"      --ipx-window N  IPX rows: datagrams in flight, returned\n"
		"                      by receiver credits (default as 'bench\n"
		"                      hub': 1024, or 512 above 482 bytes)\n"
		"      --json, --csv   machine-readable output (one of them)\n"
		"  -v, --verbose       SPX counters and CPU use of each row\n"
		"  -q, --quiet         no progress line\n"
		"  -h, --help          this text\n\n"
		"See %s/benchmarks.md for the method and how to\n"
		"read the figures.\n",
		IPX_SPXB_SMALL_PACKET, IPX_SPXB_SMALL_PACKET,
		IPX_SPXB_SMALL_PACKET - IPX_HDR_LEN - SPX_HDR_LEN,
		IPX_SPXB_TARGET_RATIO * 100, IPX_SPXB_DEFAULT_SECONDS,
		IPX_SPXB_DEFAULT_WARMUP, IPX_SPXB_DEFAULT_REPEAT,
		IPX_SPXB_SMALL_PACKET, IPX_MAX_PACKET, IPX_UDP_MTU, cli_docs);
}

static int parse_links(const char *text, bool links[IPX_SPXB_LINKS])
{
	char buf[32], *save = NULL, *tok;

	links[IPX_SPXB_MEM] = links[IPX_SPXB_UDP] = false;
	if (strlen(text) >= sizeof(buf))
		goto bad;
	strcpy(buf, text);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "mem"))
			links[IPX_SPXB_MEM] = true;
		else if (!strcmp(tok, "udp"))
			links[IPX_SPXB_UDP] = true;
		else
			goto bad;
	}
	if (links[IPX_SPXB_MEM] || links[IPX_SPXB_UDP])
		return 0;
bad:
	cli_error("bench", "spx: --links takes mem, udp or mem,udp (got '%s')",
		  text);
	return -1;
}

/* Results of one run: [link][kind]. */
typedef struct ipx_spxb_result spxb_run[IPX_SPXB_LINKS][IPX_SPXB_KINDS];

/* srtt counts whole microseconds: below this it says little. */
#define SPXB_MIN_SRTT_US 10

/* The rate SPX I's round trip allows: one packet of data per RTT. */
static double spx1_bound(const struct ipx_spxb_result *r)
{
	return r->srtt_us >= SPXB_MIN_SRTT_US
		       ? (double)r->payload / (r->srtt_us / 1e6)
		       : 0;
}

/* The ratio of an SPX row to the IPX row of the same packet size. */
static double spxb_ratio(const struct ipx_spxb_result *row,
			 const struct ipx_spxb_result *base)
{
	return base->goodput > 0 ? row->goodput / base->goodput : 0;
}

/* CPUs kept busy by anything but this row's processes in its window. */
static double spxb_other(const struct ipx_spxb_result *r)
{
	double o = r->machine_busy - r->cpu_sender - r->cpu_hub -
		   r->cpu_receiver;

	return o > 0 ? o : 0;
}

static const struct ipx_spxb_result *spxb_base(const spxb_run *run, int l,
					       int k)
{
	return &(*run)[l][k == IPX_SPXB_SPX1 ? IPX_SPXB_IPX_SMALL
					     : IPX_SPXB_IPX_LARGE];
}

static void print_spxb_row(int run, const struct ipx_spxb_result *r,
			   const spxb_run *all, bool verbose)
{
	char pps[32];

	printf("%3d  %-3s  %-9s %6zu %7zu %9.1f %9s %6.2f", run,
	       ipx_spxb_link_name(r->link), ipx_spxb_kind_name(r->kind),
	       r->packet, r->payload, r->goodput / 1e6,
	       bench_grouped(r->pps, pps, sizeof(pps)), spxb_other(r));
	if (r->kind == IPX_SPXB_SPX1 || r->kind == IPX_SPXB_SPX2) {
		const struct ipx_spxb_result *b =
			spxb_base(all, r->link, r->kind);

		if (b->goodput > 0)
			printf("  %.2f of %s", spxb_ratio(r, b),
			       ipx_spxb_kind_name(b->kind));
		if (r->kind == IPX_SPXB_SPX1 &&
		    r->srtt_us >= SPXB_MIN_SRTT_US)
			printf("; srtt %.0f us allows %.1f MB/s", r->srtt_us,
			       spx1_bound(r) / 1e6);
		else if (r->kind == IPX_SPXB_SPX1 && r->pps > 0)
			printf("; srtt %.0f us, %.2f us per packet",
			       r->srtt_us, 1e6 / r->pps);
		if (r->kind == IPX_SPXB_SPX2)
			printf("; window %u", r->window);
		if (r->retransmits)
			printf("; %llu retransmits",
			       (unsigned long long)r->retransmits);
	}
	printf("\n");
	if (verbose) {
		printf("                 cpu: sender %.0f%%", r->cpu_sender * 100);
		if (r->link == IPX_SPXB_UDP)
			printf(", hub %.0f%%, receiver %.0f%%",
			       r->cpu_hub * 100, r->cpu_receiver * 100);
		else
			printf(" (both nodes: one process)");
		printf("; machine busy %.2f CPUs, other work %.2f\n",
		       r->machine_busy, spxb_other(r));
		if (r->version && r->link == IPX_SPXB_UDP)
			/* what the agent's RESULT has of its connection */
			printf("                 SPX %s: %llu messages sent "
			       "and acknowledged, %llu retransmits; srtt %.0f "
			       "us\n",
			       r->version == 2 ? "II" : "I",
			       (unsigned long long)r->tx_data,
			       (unsigned long long)r->retransmits, r->srtt_us);
		else if (r->version)
			printf("                 SPX %s: %llu data packets "
			       "sent, %llu retransmits, %llu timeouts, %llu "
			       "NAKs and %llu ACKs in; srtt %.0f us (%llu "
			       "samples), rto %.0f us\n",
			       r->version == 2 ? "II" : "I",
			       (unsigned long long)r->tx_data,
			       (unsigned long long)r->retransmits,
			       (unsigned long long)r->timeouts,
			       (unsigned long long)r->naks_rx,
			       (unsigned long long)r->acks_rx, r->srtt_us,
			       (unsigned long long)r->rtt_samples, r->rto_us);
		else
			printf("                 IPX: window %u datagrams; sent "
			       "%llu, delivered %llu over the whole run\n",
			       r->window, (unsigned long long)r->sent,
			       (unsigned long long)r->delivered);
	}
	fflush(stdout);
}

static void json_spxb_row(const struct ipx_spxb_result *r)
{
	printf("{\"link\": \"%s\", \"row\": \"%s\", \"packet_bytes\": %zu, "
	       "\"payload_bytes\": %zu, \"goodput_bytes_per_s\": %.1f, "
	       "\"pps\": %.1f, \"seconds\": %.6f, \"bytes\": %llu, "
	       "\"packets\": %llu, \"cpu_sender\": %.4f, \"cpu_hub\": %.4f, "
	       "\"cpu_receiver\": %.4f, \"machine_busy_cpus\": %.3f, "
	       "\"other_cpus\": %.3f",
	       ipx_spxb_link_name(r->link), ipx_spxb_kind_name(r->kind),
	       r->packet, r->payload, r->goodput, r->pps, r->seconds,
	       (unsigned long long)r->bytes, (unsigned long long)r->packets,
	       r->cpu_sender, r->cpu_hub, r->cpu_receiver, r->machine_busy,
	       spxb_other(r));
	if (r->version)
		printf(", \"spx_version\": %d, \"window\": %u, "
		       "\"srtt_us\": %.1f, \"rto_us\": %.1f, "
		       "\"rtt_samples\": %llu, \"tx_data\": %llu, "
		       "\"retransmits\": %llu, \"timeouts\": %llu, "
		       "\"naks_rx\": %llu, \"acks_rx\": %llu",
		       r->version, r->window, r->srtt_us, r->rto_us,
		       (unsigned long long)r->rtt_samples,
		       (unsigned long long)r->tx_data,
		       (unsigned long long)r->retransmits,
		       (unsigned long long)r->timeouts,
		       (unsigned long long)r->naks_rx,
		       (unsigned long long)r->acks_rx);
	else
		printf(", \"window\": %u, \"sent\": %llu, \"delivered\": %llu",
		       r->window, (unsigned long long)r->sent,
		       (unsigned long long)r->delivered);
	if (r->kind == IPX_SPXB_SPX1) {
		if (r->srtt_us >= SPXB_MIN_SRTT_US)
			printf(", \"rtt_bound_bytes_per_s\": %.1f",
			       spx1_bound(r));
		else
			printf(", \"rtt_bound_bytes_per_s\": null");
		printf(", \"us_per_packet\": %.4f",
		       r->pps > 0 ? 1e6 / r->pps : 0);
	}
	printf("}");
}

/* The udp rows' network: the hub and two agents (bench_pair.h). */
static struct ipx_bpair spx_net = { .name = "spx" };

/* One udp row on the harness: the sender agent runs the row's workload
 * (IPX datagrams under the credit window, or SPX I / SPX II messages of
 * a full packet each) to the receiver agent through the hub; goodput is
 * what the receiver counted over its first to last arrival. */
static int spxb_udp_row(const struct ipx_spxb_opts *o, enum ipx_spxb_kind k,
			unsigned run, struct ipx_spxb_result *out, char *err,
			size_t errlen)
{
	struct ipx_bw_params w;
	struct ipx_bpair_run x;
	double win, ours, other;
	char label[48];
	int rc;

	memset(out, 0, sizeof(*out));
	memset(&w, 0, sizeof(w));
	out->link = IPX_SPXB_UDP;
	out->kind = k;
	out->packet = ipx_spxb_packet_size(o, IPX_SPXB_UDP, k);
	out->payload = ipx_spxb_payload(out->packet, k);
	w.kind = k == IPX_SPXB_SPX1   ? IPX_BW_SPX
		 : k == IPX_SPXB_SPX2 ? IPX_BW_SPX2
				      : IPX_BW_IPX;
	w.seconds = run ? o->seconds : o->warmup;
	w.size = out->payload;
	if (w.kind == IPX_BW_IPX) {
		w.window = o->ipx_window ? o->ipx_window
					 : ipx_bench_default_window(w.size);
		out->window = w.window;
	} else {
		w.spx_window = (uint16_t)o->spx_window;
		w.send_queue = (uint32_t)o->send_queue;
		out->version = k == IPX_SPXB_SPX1 ? 1 : 2;
		out->window = k == IPX_SPXB_SPX1 ? 1
			      : o->spx_window	 ? o->spx_window
						 : 32;
	}
	snprintf(label, sizeof(label), "udp %s %s", ipx_spxb_kind_name(k),
		 run ? "run" : "warm-up");
	if (run)
		snprintf(label + strlen(label), sizeof(label) - strlen(label),
			 " %u", run);
	rc = ipx_bpair_run(&spx_net, label, run, &w, -1, -1, &x, err, errlen);
	if (rc != IPX_OK)
		return rc;
	out->seconds = x.rcv.seconds;
	out->bytes = x.rcv.bytes;
	out->packets = x.rcv.delivered;
	out->goodput = x.rcv.kbps * 1000;
	out->pps = x.rcv.pps;
	out->srtt_us = x.snd.srtt_us;
	out->retransmits = x.snd.retransmits;
	out->tx_data = out->version ? x.snd.sent : 0;
	out->sent = x.snd.sent;
	out->delivered = x.rcv.delivered;
	win = x.snd.seconds;
	if (win > 0) {
		out->cpu_sender = (x.snd.cpu_user + x.snd.cpu_sys) / win;
		out->cpu_receiver = (x.rcv.cpu_user + x.rcv.cpu_sys) / win;
		out->cpu_hub = x.hub_cpu > 0 ? x.hub_cpu / win : 0;
	}
	/* machine_busy is kept as this row's processes over the sending
	 * plus everything else over the whole run, so that 'other' is the
	 * rest of the machine's load */
	ours = x.snd.cpu_user + x.snd.cpu_sys + x.rcv.cpu_user +
	       x.rcv.cpu_sys + (x.hub_cpu > 0 ? x.hub_cpu : 0);
	other = x.wall > 0 ? x.machine_busy - ours / x.wall : 0;
	out->machine_busy = out->cpu_sender + out->cpu_hub + out->cpu_receiver +
			    (other > 0 ? other : 0);
	return IPX_OK;
}

static int spxb_row(const struct ipx_spxb_opts *o, enum ipx_spxb_link l,
		    enum ipx_spxb_kind k, unsigned run,
		    struct ipx_spxb_result *out, char *err, size_t errlen)
{
	if (l == IPX_SPXB_UDP)
		return spxb_udp_row(o, k, run, out, err, errlen);
	return ipx_spxb_run(o, l, k, out, err, errlen);
}

static void spxb_csv(spxb_run *res, unsigned long repeat,
		     const bool *links,
		     struct spread ratio[IPX_SPXB_LINKS][IPX_SPXB_KINDS],
		     const bool *met)
{
	static double v[MAX_REPEAT];

	printf("link,row,packet,payload,goodput_median,goodput_min,"
	       "goodput_max,ratio_median,ratio_min,ratio_max,target,pass\n");
	for (int l = 0; l < IPX_SPXB_LINKS; l++) {
		for (int k = 0; links[l] && k < IPX_SPXB_KINDS; k++) {
			struct spread g;

			for (unsigned long i = 0; i < repeat; i++)
				v[i] = res[i][l][k].goodput;
			g = spread_of(v, repeat);
			printf("%s,%s,%zu,%zu,%.1f,%.1f,%.1f,",
			       ipx_spxb_link_name((enum ipx_spxb_link)l),
			       ipx_spxb_kind_name((enum ipx_spxb_kind)k),
			       res[0][l][k].packet, res[0][l][k].payload,
			       g.median, g.min, g.max);
			if (k == IPX_SPXB_SPX1 || k == IPX_SPXB_SPX2)
				printf("%.4f,%.4f,%.4f,", ratio[l][k].median,
				       ratio[l][k].min, ratio[l][k].max);
			else
				printf(",,,");
			if (k == IPX_SPXB_SPX2)
				printf("%.2f,%s\n", IPX_SPXB_TARGET_RATIO,
				       met[l] ? "PASS" : "MISS");
			else
				printf(",\n");
		}
	}
}

static int bench_spx_run(int argc, char **argv);

static int bench_spx(int argc, char **argv)
{
	int rc = bench_spx_run(argc, argv);

	bench_pair_progress_end(&spx_net);
	ipx_bpair_stop(&spx_net, rc == CLI_OK);
	return rc;
}

static int bench_spx_run(int argc, char **argv)
{
	enum { OPT_LINKS = OPT_FIRST_CMD + 10, OPT_MTU, OPT_SPXWIN,
	       OPT_QUEUE, OPT_IPXWIN, OPT_SJSON, OPT_SCSV };
	static const struct option longopts[] = {
		{ "seconds", required_argument, NULL, 's' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "links", required_argument, NULL, OPT_LINKS },
		{ "mtu", required_argument, NULL, OPT_MTU },
		{ "spx-window", required_argument, NULL, OPT_SPXWIN },
		{ "send-queue", required_argument, NULL, OPT_QUEUE },
		{ "ipx-window", required_argument, NULL, OPT_IPXWIN },
		{ "json", no_argument, NULL, OPT_SJSON },
		{ "csv", no_argument, NULL, OPT_SCSV },
		{ "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static spxb_run res[MAX_REPEAT];
	struct ipx_spxb_result warm;
	bool csv = false, quiet = false;
	static double v[MAX_REPEAT];
	struct ipx_spxb_opts o;
	unsigned long repeat = IPX_SPXB_DEFAULT_REPEAT, val;
	bool links[IPX_SPXB_LINKS] = { true, true };
	bool json = false, verbose = false, met_all = true;
	bool met[IPX_SPXB_LINKS] = { false, false };
	struct spread ratio[IPX_SPXB_LINKS][IPX_SPXB_KINDS];
	char err[512];
	int opt;

	ipx_spxb_opts_default(&o);
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":s:w:r:vqh", longopts, NULL)) !=
	       -1) {
		switch (opt) {
		case 's':
		case 'w':
		case 'r':
			if (bench_window_opt(opt, optarg, &o.seconds,
						 &o.warmup, &repeat,
						 MAX_REPEAT) < 0)
				return CLI_USAGE;
			break;
		case OPT_SCSV:
			csv = true;
			break;
		case 'q':
			quiet = true;
			break;
		case OPT_LINKS:
			if (parse_links(optarg, links) < 0)
				return CLI_USAGE;
			break;
		case OPT_MTU:
			if (cli_parse_uint("bench", "--mtu", optarg,
					   IPX_SPXB_SMALL_PACKET, IPX_MAX_PACKET,
					   &val) < 0)
				return CLI_USAGE;
			o.mem_mtu = val;
			break;
		case OPT_SPXWIN:
			if (cli_parse_uint("bench", "--spx-window", optarg, 1,
					   1024, &val) < 0)
				return CLI_USAGE;
			o.spx_window = (unsigned)val;
			break;
		case OPT_QUEUE:
			if (cli_parse_uint("bench", "--send-queue", optarg, 2048,
					   64ul << 20, &val) < 0)
				return CLI_USAGE;
			o.send_queue = val;
			break;
		case OPT_IPXWIN:
			if (cli_parse_uint("bench", "--ipx-window", optarg, 1,
					   65536, &val) < 0)
				return CLI_USAGE;
			o.ipx_window = (unsigned)val;
			break;
		case OPT_SJSON:
			json = true;
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			help_bench_spx(stdout);
			return CLI_OK;
		default:
			return bench_bad_option("spx", opt, argv);
		}
	}
	if (bench_end_of_options("spx", argc, argv, json, csv) != CLI_OK)
		return CLI_USAGE;
	ipx_log_set_level(IPX_LOG_WARN);
	bench_pair_ui(&spx_net, !quiet && isatty(STDERR_FILENO));
	spx_net.planned = IPX_SPXB_KINDS * (links[IPX_SPXB_UDP] +
					    links[IPX_SPXB_MEM]) *
			  (o.warmup + o.seconds * (double)repeat);
	if (links[IPX_SPXB_UDP] &&
	    ipx_bpair_start(&spx_net, NULL, err, sizeof(err)) != IPX_OK) {
		cli_error("bench", "spx: %s", err);
		return CLI_FAIL;
	}

	if (!json && !csv) {
		printf("ipxlab bench spx: bulk goodput of SPX I and SPX II "
		       "beside IPX datagrams of the same\nIPX packet size; "
		       "goodput = application bytes delivered per second "
		       "(MB = 10^6 bytes)\n");
		printf("%d CPUs online, %d allowed; %lu run%s of %g s per row "
		       "(udp: after a %g s warm-up pass; mem: %g s warm-up "
		       "per row)\n",
		       ipx_bench_cpus_online(), ipx_bench_cpus_allowed(),
		       repeat, repeat == 1 ? "" : "s", o.seconds, o.warmup,
		       o.warmup);
		if (links[IPX_SPXB_UDP]) {
			bench_pair_conditions(&spx_net, "not pinned", stdout);
			printf("udp: sender agent -> hub -> receiver agent on "
			       "127.0.0.1 (3 processes), MTU %d\n",
			       IPX_UDP_MTU);
		} else {
			printf("# ipxlab %s\n", cli_version_text());
		}
		if (links[IPX_SPXB_MEM])
			printf("mem: both nodes in one process on the "
			       "in-memory link, real clock, MTU %zu\n",
			       o.mem_mtu);
		printf("one SPX connection costs %zu bytes (control block "
		       "without buffers, spx_conn_size())\n\n",
		       spx_conn_size());
		printf("run  link row       packet payload      MB/s     "
		       "pkt/s  other\n");
		fflush(stdout);
	}
	/* udp: one uncounted pass first (the agents stay up between runs;
	 * a mem row warms up on its own, in its own process) */
	for (int k = 0; links[IPX_SPXB_UDP] && o.warmup > 0 &&
			k < IPX_SPXB_KINDS;
	     k++)
		if (spxb_udp_row(&o, (enum ipx_spxb_kind)k, 0, &warm, err,
				 sizeof(err)) != IPX_OK) {
			cli_error("bench", "spx: udp %s, warm-up: %s",
				  ipx_spxb_kind_name((enum ipx_spxb_kind)k),
				  err);
			return CLI_FAIL;
		}
	for (unsigned long i = 0; i < repeat; i++) {
		/* Every other run goes backwards, so no row always comes
		 * first or last. */
		for (int n = 0; n < IPX_SPXB_LINKS * IPX_SPXB_KINDS; n++) {
			int m = i % 2 ? IPX_SPXB_LINKS * IPX_SPXB_KINDS - 1 - n
				      : n;
			enum ipx_spxb_link l = (enum ipx_spxb_link)(m /
								    IPX_SPXB_KINDS);
			enum ipx_spxb_kind k = (enum ipx_spxb_kind)(m %
								    IPX_SPXB_KINDS);

			if (!links[l])
				continue;
			if (l == IPX_SPXB_MEM && spx_net.progress) {
				fprintf(stderr, "\r\033[K  bench spx: mem %s "
						"run %lu",
					ipx_spxb_kind_name(k), i + 1);
				fflush(stderr);
			}
			if (spxb_row(&o, l, k, (unsigned)i + 1, &res[i][l][k],
				     err, sizeof(err)) != IPX_OK) {
				cli_error("bench", "spx: %s %s, run %lu: %s",
					  ipx_spxb_link_name(l),
					  ipx_spxb_kind_name(k), i + 1, err);
				return CLI_FAIL;
			}
			if (l == IPX_SPXB_MEM)
				spx_net.spent += o.warmup + o.seconds;
		}
		if (json || csv)
			continue;
		bench_pair_progress_end(&spx_net);
		/* Printed in order once the run is complete (ratios need
		 * both rows). */
		for (int l = 0; l < IPX_SPXB_LINKS; l++)
			for (int k = 0; links[l] && k < IPX_SPXB_KINDS; k++)
				print_spxb_row((int)i + 1, &res[i][l][k],
					       (const spxb_run *)&res[i],
					       verbose);
		fflush(stdout);
	}
	bench_pair_progress_end(&spx_net);

	for (int l = 0; l < IPX_SPXB_LINKS; l++) {
		for (int k = 0; k < IPX_SPXB_KINDS; k++) {
			for (unsigned long i = 0; i < repeat; i++)
				v[i] = spxb_ratio(
					&res[i][l][k],
					spxb_base((const spxb_run *)&res[i], l,
						  k));
			ratio[l][k] = spread_of(v, repeat);
		}
		met[l] = ratio[l][IPX_SPXB_SPX2].median >= IPX_SPXB_TARGET_RATIO;
		if (links[l] && !met[l])
			met_all = false;
	}

	if (csv) {
		spxb_csv(res, repeat, links, ratio, met);
		return CLI_OK;
	}
	if (json) {
		printf("{\"benchmark\": \"spx\", ");
		if (links[IPX_SPXB_UDP]) {
			bench_pair_json_conditions(&spx_net, "not pinned",
						   stdout);
			printf(", ");
		}
		printf("\"ref_1990\": null, \"cpus_online\": %d, "
		       "\"cpus_allowed\": %d, \"seconds\": %g, \"warmup\": %g, "
		       "\"repeat\": %lu, \"mem_mtu\": %zu, \"udp_mtu\": %d, "
		       "\"spx_window\": %u, \"send_queue\": %zu, "
		       "\"ipx_window\": %u, \"spx_conn_size_bytes\": %zu, "
		       "\"runs\": [",
		       ipx_bench_cpus_online(), ipx_bench_cpus_allowed(),
		       o.seconds, o.warmup, repeat, o.mem_mtu, IPX_UDP_MTU,
		       o.spx_window, o.send_queue, o.ipx_window,
		       spx_conn_size());
		for (unsigned long i = 0; i < repeat; i++) {
			bool first = true;

			printf("%s{\"run\": %lu, \"rows\": [", i ? ", " : "",
			       i + 1);
			for (int l = 0; l < IPX_SPXB_LINKS; l++)
				for (int k = 0; links[l] && k < IPX_SPXB_KINDS;
				     k++) {
					printf("%s", first ? "" : ", ");
					json_spxb_row(&res[i][l][k]);
					first = false;
				}
			printf("], \"ratios\": {");
			first = true;
			for (int l = 0; l < IPX_SPXB_LINKS; l++) {
				if (!links[l])
					continue;
				printf("%s\"%s\": {\"spx1\": %.4f, \"spx2\": "
				       "%.4f}",
				       first ? "" : ", ", ipx_spxb_link_name(
							     (enum ipx_spxb_link)l),
				       spxb_ratio(&res[i][l][IPX_SPXB_SPX1],
						  &res[i][l][IPX_SPXB_IPX_SMALL]),
				       spxb_ratio(&res[i][l][IPX_SPXB_SPX2],
						  &res[i][l][IPX_SPXB_IPX_LARGE]));
				first = false;
			}
			printf("}}");
		}
		printf("], \"summary\": {");
		for (int l = 0, first = 1; l < IPX_SPXB_LINKS; l++) {
			if (!links[l])
				continue;
			printf("%s\"%s\": {", first ? "" : ", ",
			       ipx_spxb_link_name((enum ipx_spxb_link)l));
			first = 0;
			for (int k = 0; k < IPX_SPXB_KINDS; k++) {
				for (unsigned long i = 0; i < repeat; i++)
					v[i] = res[i][l][k].goodput;
				printf("\"%s\": {",
				       ipx_spxb_kind_name((enum ipx_spxb_kind)k));
				json_spread("goodput_bytes_per_s",
					    spread_of(v, repeat), false);
				if (k == IPX_SPXB_SPX1) {
					for (unsigned long i = 0; i < repeat;
					     i++)
						v[i] = spx1_bound(&res[i][l][k]);
					json_spread("rtt_bound_bytes_per_s",
						    spread_of(v, repeat), false);
					for (unsigned long i = 0; i < repeat;
					     i++)
						v[i] = res[i][l][k].pps > 0
							       ? 1e6 / res[i][l][k].pps
							       : 0;
					json_spread("us_per_packet",
						    spread_of(v, repeat), false);
					for (unsigned long i = 0; i < repeat;
					     i++)
						v[i] = res[i][l][k].srtt_us;
					json_spread("srtt_us",
						    spread_of(v, repeat), false);
				}
				if (k == IPX_SPXB_SPX1 || k == IPX_SPXB_SPX2)
					json_spread("ratio", ratio[l][k], false);
				printf("\"packet_bytes\": %zu, "
				       "\"payload_bytes\": %zu}%s",
				       res[0][l][k].packet, res[0][l][k].payload,
				       k + 1 < IPX_SPXB_KINDS ? ", " : "");
			}
			printf(", \"pass\": %s}",
			       met[l] ? "true" : "false");
		}
		printf("}, \"target_ratio\": %.2f, \"pass\": %s}\n",
		       IPX_SPXB_TARGET_RATIO, met_all ? "true" : "false");
		return CLI_OK;
	}

	printf("\nsummary, %lu run%s: median [min - max]\n", repeat,
	       repeat == 1 ? "" : "s");
	printf("link row       packet payload  goodput MB/s                "
	       "ratio to IPX of the same packet size\n");
	for (int l = 0; l < IPX_SPXB_LINKS; l++) {
		for (int k = 0; links[l] && k < IPX_SPXB_KINDS; k++) {
			const struct ipx_spxb_result *r0 = &res[0][l][k];
			struct spread g;
			char rng[40];

			for (unsigned long i = 0; i < repeat; i++)
				v[i] = res[i][l][k].goodput / 1e6;
			g = spread_of(v, repeat);
			snprintf(rng, sizeof(rng), "[%.1f - %.1f]", g.min,
				 g.max);
			printf("%-4s %-9s %6zu %7zu %8.1f %-17s",
			       ipx_spxb_link_name((enum ipx_spxb_link)l),
			       ipx_spxb_kind_name((enum ipx_spxb_kind)k),
			       r0->packet, r0->payload, g.median, rng);
			if (k == IPX_SPXB_SPX1 || k == IPX_SPXB_SPX2)
				printf(" %.2f [%.2f - %.2f] of %s",
				       ratio[l][k].median, ratio[l][k].min,
				       ratio[l][k].max,
				       k == IPX_SPXB_SPX1 ? "ipx-small"
							  : "ipx-large");
			printf("\n");
		}
	}
	printf("\n");
	for (int l = 0; l < IPX_SPXB_LINKS; l++) {
		struct spread rtt, bound, reach, cycle;
		const struct ipx_spxb_result *s2 = &res[0][l][IPX_SPXB_SPX2];
		const struct ipx_spxb_result *il = &res[0][l][IPX_SPXB_IPX_LARGE];

		if (!links[l])
			continue;
		for (unsigned long i = 0; i < repeat; i++)
			v[i] = res[i][l][IPX_SPXB_SPX1].srtt_us;
		rtt = spread_of(v, repeat);
		for (unsigned long i = 0; i < repeat; i++)
			v[i] = spx1_bound(&res[i][l][IPX_SPXB_SPX1]) / 1e6;
		bound = spread_of(v, repeat);
		for (unsigned long i = 0; i < repeat; i++) {
			double b = spx1_bound(&res[i][l][IPX_SPXB_SPX1]);

			v[i] = b > 0 ? res[i][l][IPX_SPXB_SPX1].goodput / b : 0;
		}
		reach = spread_of(v, repeat);
		for (unsigned long i = 0; i < repeat; i++)
			v[i] = res[i][l][IPX_SPXB_SPX1].pps > 0
				       ? 1e6 / res[i][l][IPX_SPXB_SPX1].pps
				       : 0;
		cycle = spread_of(v, repeat);
		printf("%s: SPX I is bounded by its round trip: one %zu-byte "
		       "packet, then wait for its ACK.\n",
		       ipx_spxb_link_name((enum ipx_spxb_link)l),
		       res[0][l][IPX_SPXB_SPX1].payload);
		if (rtt.min >= SPXB_MIN_SRTT_US)
			printf("     srtt %.0f us [%.0f - %.0f] allows %.1f "
			       "MB/s; SPX I reached %.0f%% of that "
			       "(%.1f us per packet).\n",
			       rtt.median, rtt.min, rtt.max, bound.median,
			       reach.median * 100, cycle.median);
		else
			printf("     The round trip (srtt %.0f us) is too short "
			       "for srtt's 1-us resolution: here it\n"
			       "     is the CPU time of a data packet and its "
			       "ACK, %.2f us per packet [%.2f - %.2f].\n",
			       rtt.median, cycle.median, cycle.min, cycle.max);
		if (s2->packet != il->packet)
			printf("     note: SPX II negotiated %zu-byte packets, "
			       "not the %zu of the ipx-large row.\n",
			       s2->packet, il->packet);
		printf("     SPX II / IPX datagrams at %zu-byte packets: "
		       "%.2f (median); target >= %.2f: %s\n",
		       il->packet, ratio[l][IPX_SPXB_SPX2].median,
		       IPX_SPXB_TARGET_RATIO, met[l] ? "PASS" : "MISS");
	}
	{
		double most = 0;

		for (unsigned long i = 0; i < repeat; i++)
			for (int l = 0; l < IPX_SPXB_LINKS; l++)
				for (int k = 0; links[l] && k < IPX_SPXB_KINDS;
				     k++)
					if (spxb_other(&res[i][l][k]) > most)
						most = spxb_other(&res[i][l][k]);
		if (most >= 0.25)
			printf("note: other work kept up to %.2f of the %d "
			       "CPUs busy during the windows (column "
			       "'other');\n      these figures are lower and "
			       "noisier than on an idle machine.\n",
			       most, ipx_bench_cpus_online());
	}
	return CLI_OK;
}

int cmd_bench(int argc, char **argv)
{
	/* A bare "ipxlab bench [options]" is B1, the protocol comparison. */
	if (argc < 2 || (argv[1][0] == '-' && strcmp(argv[1], "--help") &&
			 strcmp(argv[1], "-h")))
		return bench_protocols(argc, argv);
	if (!strcmp(argv[1], "protocols"))
		return bench_protocols(argc - 1, argv + 1);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		cli_usage_line(argc < 2 ? stderr : stdout, "bench");
		help_bench(argc < 2 ? stderr : stdout);
		return argc < 2 ? CLI_USAGE : CLI_OK;
	}
	if (!strcmp(argv[1], "hub"))
		return bench_hub(argc - 1, argv + 1);
	if (!strcmp(argv[1], "eth"))
		return bench_eth(argc - 1, argv + 1);
	if (!strcmp(argv[1], "netbios"))
		return bench_netbios(argc - 1, argv + 1);
	if (!strcmp(argv[1], "spx"))
		return bench_spx(argc - 1, argv + 1);
	if (!strcmp(argv[1], "ncp"))
		return bench_ncp(argc - 1, argv + 1);
	if (!strcmp(argv[1], "battery"))
		return bench_battery(argc - 1, argv + 1);
	if (!strcmp(argv[1], "copy"))
		return bench_copy(argc - 1, argv + 1);
	if (!strcmp(argv[1], "perftest"))
		return bench_perftest(argc - 1, argv + 1);
	if (!strcmp(argv[1], "arrival"))
		return bench_arrival(argc - 1, argv + 1);
	if (!strcmp(argv[1], "wan"))
		return bench_wan(argc - 1, argv + 1);
	cli_error("bench", "unknown benchmark '%s'", argv[1]);
	help_bench(stderr);
	return CLI_USAGE;
}
