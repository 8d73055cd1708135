/*
 * cmd_capture.c - "ipxlab capture": join a hub, or an Ethernet interface
 * in promiscuous mode, and print one line per packet as it goes (capture.h
 * has the format), optionally writing a pcap file too. No IPX node runs:
 * the link alone, so what is printed is what the wire carries (on a hub,
 * the broadcasts and what is sent to this client; the hub's own --pcap has
 * everything).
 */
#include <getopt.h>
#include <string.h>

#include "cli.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"

void help_capture(FILE *out)
{
	fprintf(out,
		"Print a line per IPX packet seen: time, in/out, source -> "
		"destination\n"
		"(NET:NODE:SOCKET), IPX type and length, then the protocol: "
		"SPX\n"
		"connection ids, sequence, ack and flags; RIP and SAP "
		"operations;\n"
		"NetBIOS operation and name; ping; diagnostics. On a hub it "
		"sees the\n"
		"broadcasts and what is sent to it (the hub's --pcap has "
		"everything);\n"
		"on an Ethernet interface every IPX frame on the segment.\n\n"
		"  -w, --write FILE    also write the packets to a pcap file\n"
		"  -c, --count N       stop after N packets (lines; its joining\n"
		"                      the hub is not one of them)\n"
		"  -s, --seconds S     stop after S seconds\n"
		"  --analyze           no lines: at the end, what 'ipxlab analyze'\n"
		"                      prints (Kbyte/s, protocols, arrival gaps)\n"
		"  --json              with --analyze: as JSON\n"
		"  --hub HOST[:PORT]   the tunnel server to join (default "
		"$IPXLAB_HUB\n"
		"                      or 127.0.0.1:213)\n"
		"  --link eth:IFACE[,frame=TYPE|auto]\n"
		"                      an Ethernet interface instead, "
		"promiscuous\n"
		"                      (root or CAP_NET_RAW)\n"
		"  --wait SECONDS      how long to wait for the hub (default 10)\n"
		"  -v, --verbose       more log lines; -q, --quiet fewer\n");
}

static void ignore_rx(struct ipx_link *link, const uint8_t *pkt, size_t len,
		      void *ctx)
{
	(void)link;
	(void)pkt;
	(void)len;
	(void)ctx;
}

struct capture_run {
	struct ipx_capture *cap;
	unsigned long want;	/* 0: no limit */
};

static bool enough(void *ctx)
{
	struct capture_run *r = ctx;

	return r->want && ipx_capture_packets(r->cap) >= r->want;
}

/* What the options of "ipxlab capture" asked for. */
struct capture_args {
	struct ipx_capture_options co;
	struct cli_node_opts no;
	double seconds;
	bool analyze, json;
};

/* CLI_OK to go on, -1 after --help, else the exit code. */
static int capture_parse(int argc, char **argv, struct capture_run *run,
			 struct capture_args *a)
{
	static const struct option longopts[] = {
		{ "write", required_argument, NULL, 'w' },
		{ "count", required_argument, NULL, 'c' },
		{ "seconds", required_argument, NULL, 's' },
		{ "analyze", no_argument, NULL, 'A' },
		{ "json", no_argument, NULL, 'J' },
		CLI_NODE_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	cli_node_opts_init(&a->no);
	optind = 1;
	while ((opt = getopt_long(argc, argv, "w:c:s:vqh", longopts, NULL)) !=
	       -1) {
		int o = cli_node_opt(&a->no, argv[0], opt, optarg);

		if (o < 0)
			return CLI_USAGE;
		if (o > 0 && opt != OPT_PCAP && opt != OPT_CONFIG)
			continue;
		switch (opt) {
		case 'w':
		case OPT_PCAP:
			a->co.pcap_path = optarg;
			break;
		case 'c':
			if (cli_parse_uint("capture", "--count", optarg, 1,
					   1000000000, &run->want) < 0)
				return CLI_USAGE;
			a->co.limit = run->want;
			break;
		case 's':
			if (cli_parse_seconds("capture", "--seconds", optarg,
					      0.001, 86400 * 365,
					      &a->seconds) < 0)
				return CLI_USAGE;
			break;
		case 'A':
			a->analyze = true;
			break;
		case 'J':
			a->json = true;
			break;
		case 'h':
			cli_usage_line(stdout, "capture");
			help_capture(stdout);
			return -1;
		case OPT_CONFIG:
			cli_error("capture", "--config: capture runs no node");
			return CLI_USAGE;
		default:
			return cli_bad_option("capture", argv, "w:c:s:vqh",
					      longopts);
		}
	}
	if (optind < argc) {
		cli_error("capture", "unexpected argument '%s'", argv[optind]);
		return CLI_USAGE;
	}
	if (a->json && !a->analyze) {
		cli_error("capture", "--json is the form of --analyze's report");
		return CLI_USAGE;
	}
	return CLI_OK;
}

/* The link opened and recorded until the count, the time or a signal;
 * the exit code. *link is the link to close (NULL if none). */
static int capture_link(struct ipx_loop *loop, struct capture_run *run,
			const struct capture_args *a, struct ipx_link **link)
{
	char node[13];
	int rc = cli_link_open("capture", loop, &a->no, true, link);

	if (rc == CLI_OK) {
		(*link)->rx = ignore_rx;
		cli_stop_on_signals(loop);
		rc = cli_link_wait("capture", loop, &a->no, *link);
	}
	if (rc != CLI_OK)
		return rc;
	/* From now on: joining the hub is not a packet of the LAN. */
	ipx_capture_attach(run->cap, *link);
	ipx_info("capture: on %s as node %s", a->no.link ? a->no.link : "the hub",
		 ipx_node_format((*link)->node, node));
	rc = ipx_loop_run_until(loop, enough, run,
				a->seconds > 0
					? (ipx_time)(a->seconds * IPX_SEC)
					: UINT64_MAX / 4);
	rc = rc == IPX_OK || rc == IPX_ETIMEOUT || rc == IPX_ECLOSED ? CLI_OK
								    : CLI_FAIL;
	if (ipx_log_get_level() >= IPX_LOG_DEBUG)
		cli_error("capture", "%llu packets recorded; link rx %llu (%llu "
				     "errors) tx %llu",
			  (unsigned long long)ipx_capture_packets(run->cap),
			  (unsigned long long)(*link)->stats.rx_packets,
			  (unsigned long long)(*link)->stats.rx_errors,
			  (unsigned long long)(*link)->stats.tx_packets);
	return rc;
}

int cmd_capture(int argc, char **argv)
{
	struct capture_run run = { 0 };
	struct capture_args a = { .co = { .print = stdout } };
	struct ipx_loop *loop;
	struct ipx_link *link = NULL;
	struct ipx_analyze an;
	char err[512];
	int rc;

	rc = capture_parse(argc, argv, &run, &a);
	if (rc != CLI_OK)
		return rc < 0 ? CLI_OK : rc;
	ipx_analyze_init(&an, NULL);
	if (a.analyze) {
		a.co.analyze = &an;
		a.co.print = NULL;
	}
	loop = ipx_loop_new(NULL);
	if (!loop) {
		cli_error("capture", "out of memory");
		return CLI_FAIL;
	}
	if (ipx_capture_open(loop, &a.co, &run.cap, err, sizeof(err)) !=
	    IPX_OK) {
		cli_error("capture", "-w %s", err);
		ipx_loop_free(loop);
		return CLI_FAIL;
	}
	rc = capture_link(loop, &run, &a, &link);
	ipx_link_close(link);
	if (ipx_capture_close(run.cap) != IPX_OK) {
		cli_error("capture", "some packets could not be written to %s",
			  a.co.pcap_path ? a.co.pcap_path : "the analyzer");
		rc = CLI_FAIL;
	}
	if (a.analyze && rc == CLI_OK) {
		if (a.json)
			ipx_analyze_print_json(&an, stdout);
		else
			ipx_analyze_print(&an, stdout);
	}
	ipx_analyze_free(&an);
	ipx_loop_free(loop);
	return rc;
}
