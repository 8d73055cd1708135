/*
 * cmd_bench_netbios.c - "ipxlab bench netbios": NetBIOS datagram and
 * session message rates beside IPX on the benchmark harness. A sender and
 * a receiver agent (each its own process and IPX node) and the hub the
 * harness starts; each pass runs five workloads between them: the IPX
 * echo (round trips), IPX and NetBIOS datagrams under a credit window,
 * and NetBIOS session SENDs of SIZE and of 65,535 bytes.
 */
#include <getopt.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "bench_common.h"
#include "ipxlab/bench_netbios.h"
#include "cli.h"
#include "ipxlab/bench_stat.h"
#include "ipxlab/err.h"
#include "ipxlab/ipx.h"
#include "ipxlab/link_udp.h"
#include "ipxlab/log.h"
#include "ipxlab/netbios.h"

#define CMD "bench"
#define DEFAULT_SECONDS 1.0
#define DEFAULT_SIZE 512
#define DEFAULT_WINDOW 16

struct opts {
	struct ipx_bnb_opts n;	/* the benchmark's */
	struct bench_common c;	/* the shared options */
	const struct ipx_bnb_report *rep;	/* what it measured */
};

static void help_bench_netbios(FILE *out)
{
	fprintf(out,
		"usage: ipxlab bench netbios [options]\n\n"
		"NetBIOS datagram and session message rates beside IPX, in one run\n"
		"over one hub on 127.0.0.1 (hub, sender and receiver are three\n"
		"processes: the benchmark harness's agents). Rows: IPX round trips\n"
		"(ping-pong), IPX datagrams, NetBIOS datagrams, NetBIOS session\n"
		"messages of SIZE bytes, and 65,535-byte session messages. The\n"
		"session is stop-and-wait (one packet in flight, an ack for each),\n"
		"so its message rate is bounded by its round trip: the output\n"
		"gives both, beside IPX's. One uncounted warm-up pass (%g s a row)\n"
		"comes first.\n\n"
		"  -s, --seconds S     sending per row and run (default %g)\n"
		"  -r, --repeat N      runs; medians with min and max (default 3)\n"
		"      --size N        datagram and message bytes (default %d, <= %d)\n"
		"      --window N      datagrams not yet credited (default %d)\n"
		"      --json, --csv   machine-readable output (every run)\n"
		"  -q, --quiet         no progress line\n"
		"  -h, --help          this text\n",
		IPX_BNB_WARMUP, DEFAULT_SECONDS, DEFAULT_SIZE, NB_MAX_DATAGRAM,
		DEFAULT_WINDOW);
}

enum { OPT_SIZE = OPT_FIRST_CMD, OPT_WINDOW };

static int parse_options(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		BENCH_COMMON_LONGOPTS,
		{ "size", required_argument, NULL, OPT_SIZE },
		{ "window", required_argument, NULL, OPT_WINDOW },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long v;
	int opt, rc;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":s:r:qh", longopts, NULL)) !=
	       -1) {
		switch (opt) {
		case OPT_SIZE:
			if (cli_parse_uint(CMD, "--size", optarg, 1,
					   NB_MAX_DATAGRAM, &v) < 0)
				return CLI_USAGE;
			o->n.size = v;
			break;
		case OPT_WINDOW:
			if (cli_parse_uint(CMD, "--window", optarg, 4, 4096,
					   &v) < 0)
				return CLI_USAGE;
			o->n.window = (unsigned)v;
			break;
		default:
			rc = bench_common_opt(&o->c, opt, optarg, argv);
			if (rc != 1)
				return rc;
		}
	}
	return bench_common_end(&o->c, argc, argv);
}

/* ---- printing ---- */

static const char *label_of(const struct opts *o, enum ipx_bnb_row r, char *buf,
			    size_t len)
{
	switch (r) {
	case IPX_BNB_RTT:
		snprintf(buf, len, "IPX round trips (ping-pong)");
		break;
	case IPX_BNB_IPX:
	case IPX_BNB_NB:
		snprintf(buf, len, "%s datagrams, %zu bytes",
			 r == IPX_BNB_IPX ? "IPX" : "NetBIOS", o->n.size);
		break;
	case IPX_BNB_SESSION:
		snprintf(buf, len, "NetBIOS session, %zu-byte msgs", o->n.size);
		break;
	default:
		snprintf(buf, len, "NetBIOS session, 65535-byte msgs");
		break;
	}
	return buf;
}

static void print_rows(const struct opts *o)
{
	char label[64];

	printf("%-33s %8s %-17s %-6s %10s %10s\n", "", "rate", " (min-max)", "",
	       "p50", "p99");
	for (int k = 0; k < IPX_BNB_ROWS; k++) {
		struct ipx_stat_summary rate = ipx_bnb_spread(o->rep, k, IPX_BNB_RATE);

		printf("%-33s %8.0f %8.0f-%-8.0f %-6s",
		       label_of(o, (enum ipx_bnb_row)k, label, sizeof(label)),
		       rate.median, rate.min, rate.max, ipx_bnb_rows[k].unit);
		if (ipx_bnb_rows[k].timed)
			printf(" %7.1f us %7.1f us",
			       ipx_bnb_spread(o->rep, k, IPX_BNB_P50).median,
			       ipx_bnb_spread(o->rep, k, IPX_BNB_P99).median);
		else
			printf("%22s loss %.2f%%", "",
			       100.0 * ipx_bnb_loss(o->rep, k));
		putchar('\n');
	}
}

static void print_text(const struct opts *o)
{
	const struct ipx_bnb_rate(*res)[IPX_BNB_ROWS] = o->rep->runs;
	int packets = (NB_MAX_MESSAGE + ipx_bnb_session_data - 1) / ipx_bnb_session_data;
	double ipx_rtt = ipx_bnb_spread(o->rep, IPX_BNB_RTT, IPX_BNB_P50).median;
	double msg_rtt = ipx_bnb_spread(o->rep, IPX_BNB_SESSION, IPX_BNB_P50).median;
	double big_us = ipx_bnb_spread(o->rep, IPX_BNB_BIG, IPX_BNB_P50).median;
	double msg_rate = ipx_bnb_spread(o->rep, IPX_BNB_SESSION, IPX_BNB_RATE).median;
	uint64_t resent = 0;

	for (unsigned long i = 0; i < o->rep->done; i++)
		resent += res[i][IPX_BNB_SESSION].retransmits +
			  res[i][IPX_BNB_BIG].retransmits;
	print_rows(o);
	printf("\nThe session is stop-and-wait: one packet in flight, an ack "
	       "for each.\n");
	printf("round trip measured: IPX %.1f us; session message (SEND to "
	       "its POST) %.1f us\n",
	       ipx_rtt, msg_rtt);
	if (msg_rtt > 0)
		printf("bound: one message per round trip = %.0f msg/s; the "
		       "session reached %.0f (%.0f%%)\n",
		       1e6 / msg_rtt, msg_rate, 100.0 * msg_rate * msg_rtt / 1e6);
	printf("65,535-byte messages: %d packets of %d bytes, one round "
	       "trip each: %.1f us per packet\n(%.0f us a message), %.1f "
	       "MB/s\n",
	       packets, ipx_bnb_session_data, big_us / packets, big_us,
	       ipx_bnb_spread(o->rep, IPX_BNB_BIG, IPX_BNB_RATE).median * NB_MAX_MESSAGE /
		       1e6);
	printf("(no 1990 figure beside these: B1, 'ipxlab bench protocols', "
	       "has the AppNote's)\n");
	if (resent)
		printf("note: the sessions sent %llu packets again (loss on "
		       "loopback: the machine was busy)\n",
		       (unsigned long long)resent);
}

static void on_ready(void *ctx, const struct ipx_bnb_report *rep)
{
	const struct opts *o = ctx;

	if (o->c.json || o->c.csv)
		return;
	printf("ipxlab bench netbios: hub, sender and receiver agents on "
	       "127.0.0.1; %lu run%s of %g s per row\n",
	       o->n.repeat, cli_s(o->n.repeat), o->n.seconds);
	bench_pair_conditions(&rep->net, "not pinned", stdout);
	printf("\n");
	fflush(stdout);
}

static void conditions(struct ipx_jw *w, const void *ctx)
{
	const struct opts *o = ctx;

	bench_pair_json_conditions(w, &o->rep->net, "not pinned");
}

int bench_netbios(int argc, char **argv)
{
	static struct ipx_bnb_report rep;
	struct opts o = {
		.n.seconds = DEFAULT_SECONDS,
		.n.repeat = 3,
		.n.size = DEFAULT_SIZE,
		.n.window = DEFAULT_WINDOW,
		.c = { .name = "netbios", .help = help_bench_netbios,
		       .max_repeat = IPX_BNB_MAX_REPEAT },
		.rep = &rep,
	};
	struct ipx_bnb_hooks hooks = { on_ready, &o };
	char err[768];
	int rc;

	o.c.seconds = &o.n.seconds;
	o.c.repeat = &o.n.repeat;
	rc = parse_options(&o, argc, argv);
	if (rc != CLI_OK)
		return rc < 0 ? CLI_OK : rc;
	ipx_log_set_level(IPX_LOG_WARN);
	rep.net.name = "netbios";
	bench_pair_ui(&rep.net, !o.c.quiet && isatty(STDERR_FILENO));
	rc = ipx_bnb_run(&o.n, &hooks, &rep, err, sizeof(err));
	bench_pair_progress_end(&rep.net);
	if (rc != IPX_OK) {
		cli_error(CMD, "netbios: %s", err);
		return CLI_FAIL;
	}
	if (rep.interrupted)
		cli_error(CMD, "netbios: interrupted; printing the %lu run%s "
			       "that finished",
			  rep.done, cli_s(rep.done));
	if (o.c.json)
		ipx_bnb_write_json(stdout, &o.n, &rep, conditions, &o);
	else if (o.c.csv && rep.done)
		ipx_bnb_write_csv(stdout, &rep);
	else if (rep.done)
		print_text(&o);
	return rep.interrupted ? CLI_FAIL : CLI_OK;
}
