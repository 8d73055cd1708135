/*
 * cmd_bench_spx.c - "ipxlab bench spx": the options, then one call of
 * ipx_spxb_bench (src/bench/spx.c), then the figures as a table, JSON
 * or CSV. Ctrl-C prints the runs that finished (JSON marked
 * "complete": false) and exits 1.
 */
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_common.h"
#include "cmd_bench_spx.h"
#include "cli.h"
#include "ipxlab/bench.h"
#include "ipxlab/bench_result.h"
#include "ipxlab/err.h"
#include "ipxlab/ipx.h"
#include "ipxlab/link_udp.h"
#include "ipxlab/log.h"
#include "ipxlab/spx.h"


enum { OPT_LINKS = OPT_FIRST_CMD + 10, OPT_MTU, OPT_SPXWIN, OPT_QUEUE,
       OPT_IPXWIN };

void help_bench_spx(FILE *out)
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
		IPX_SPXB_SMALL_PACKET, IPX_LAN_PACKET, IPX_UDP_MTU, cli_docs);
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


static void print_header(const struct spx_cli *c,
			 const struct ipx_spxb_report *rep)
{
	const struct ipx_spxb_opts *o = &c->o.row;

	printf("ipxlab bench spx: bulk goodput of SPX I and SPX II "
	       "beside IPX datagrams of the same\nIPX packet size; "
	       "goodput = application bytes delivered per second "
	       "(MB = 10^6 bytes)\n");
	printf("%d CPUs online, %d allowed; %lu run%s of %g s per row "
	       "(udp: after a %g s warm-up pass; mem: %g s warm-up "
	       "per row)\n",
	       ipx_bench_cpus_online(), ipx_bench_cpus_allowed(), c->o.repeat,
	       cli_s(c->o.repeat), o->seconds, o->warmup, o->warmup);
	if (c->o.links[IPX_SPXB_UDP]) {
		bench_pair_conditions(&rep->net, "not pinned", stdout);
		printf("udp: sender agent -> hub -> receiver agent on "
		       "127.0.0.1 (3 processes), MTU %d\n",
		       IPX_UDP_MTU);
	} else {
		printf("# ipxlab %s\n", cli_version_text());
	}
	if (c->o.links[IPX_SPXB_MEM])
		printf("mem: both nodes in one process on the "
		       "in-memory link, real clock, MTU %zu\n",
		       o->mem_mtu);
	printf("one SPX connection costs %zu bytes (control block "
	       "without buffers, spx_conn_size())\n\n",
	       spx_conn_size());
	printf("run  link row       packet payload      MB/s     "
	       "pkt/s  other\n");
	fflush(stdout);
}

static void on_progress(void *ctx, enum ipx_spxb_event ev,
			const struct ipx_spxb_report *rep, unsigned long run,
			enum ipx_spxb_kind k)
{
	const struct spx_cli *c = ctx;
	const ipx_spxb_rows *rows;

	if (ev == IPX_SPXB_EV_READY && !c->c.json && !c->c.csv)
		print_header(c, rep);
	if (ev == IPX_SPXB_EV_MEM_ROW && rep->net.progress) {
		fprintf(stderr, "\r\033[K  bench spx: mem %s run %lu",
			ipx_spxb_kind_name(k), run);
		fflush(stderr);
	}
	if (ev != IPX_SPXB_EV_RUN || c->c.json || c->c.csv)
		return;
	/* Printed in order once the run is complete (ratios need both
	 * rows). */
	bench_pair_progress_end(&rep->net);
	rows = (const ipx_spxb_rows *)&rep->runs[run - 1];
	for (int l = 0; l < IPX_SPXB_LINKS; l++)
		for (int kk = 0; c->o.links[l] && kk < IPX_SPXB_KINDS; kk++)
			bench_spx_print_row((int)run, &(*rows)[l][kk], rows,
				       c->c.verbose);
	fflush(stdout);
}

/* Ctrl-C: a signal caught here (no network yet, or mem rows only) or
 * one waiting for the network's loop to read it. */
static volatile sig_atomic_t got_signal;

static void on_signal(int signo)
{
	(void)signo;
	got_signal = 1;
}

static bool cancelled(void *ctx)
{
	sigset_t p;

	(void)ctx;
	sigemptyset(&p);
	sigpending(&p);
	return got_signal || sigismember(&p, SIGINT) ||
	       sigismember(&p, SIGTERM);
}

/* One option of bench spx's own (not the window's); CLI_OK or
 * CLI_USAGE with a message. */
static int own_opt(struct spx_cli *c, int opt, const char *arg)
{
	struct ipx_spxb_opts *o = &c->o.row;
	unsigned long val;

	switch (opt) {
	case OPT_LINKS:
		return parse_links(arg, c->o.links) < 0 ? CLI_USAGE : CLI_OK;
	case OPT_MTU:
		if (cli_parse_uint("bench", "--mtu", arg, IPX_SPXB_SMALL_PACKET,
				   IPX_LAN_PACKET, &val) < 0)
			return CLI_USAGE;
		o->mem_mtu = val;
		return CLI_OK;
	case OPT_SPXWIN:
		if (cli_parse_uint("bench", "--spx-window", arg, 1, 1024,
				   &val) < 0)
			return CLI_USAGE;
		o->spx_window = (unsigned)val;
		return CLI_OK;
	case OPT_QUEUE:
		if (cli_parse_uint("bench", "--send-queue", arg, 2048,
				   64ul << 20, &val) < 0)
			return CLI_USAGE;
		o->send_queue = val;
		return CLI_OK;
	case OPT_IPXWIN:
		if (cli_parse_uint("bench", "--ipx-window", arg, 1, 65536,
				   &val) < 0)
			return CLI_USAGE;
		o->ipx_window = (unsigned)val;
		return CLI_OK;
	default:
		return -1;
	}
}

/* CLI_OK to run, else the exit code (-h: CLI_OK after the help, as
 * -1 here). Own options first (own_opt), then the shared ones. */
static int parse(struct spx_cli *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		BENCH_COMMON_LONGOPTS,
		BENCH_WARMUP_LONGOPT,
		BENCH_VERBOSE_LONGOPT,
		{ "links", required_argument, NULL, OPT_LINKS },
		{ "mtu", required_argument, NULL, OPT_MTU },
		{ "spx-window", required_argument, NULL, OPT_SPXWIN },
		{ "send-queue", required_argument, NULL, OPT_QUEUE },
		{ "ipx-window", required_argument, NULL, OPT_IPXWIN },
		{ NULL, 0, NULL, 0 },
	};
	int opt, rc;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":s:w:r:vqh", longopts, NULL)) !=
	       -1) {
		rc = own_opt(c, opt, optarg);
		if (rc < 0)
			rc = bench_common_opt(&c->c, opt, optarg, argv);
		else if (rc == CLI_OK)
			rc = 1;
		if (rc != 1)
			return rc;
	}
	return bench_common_end(&c->c, argc, argv);
}

static void conditions(struct ipx_jw *w, const void *ctx)
{
	const struct ipx_spxb_report *rep = ctx;

	bench_pair_json_conditions(w, &rep->net, "not pinned");
}

static void print(const struct spx_cli *c, const struct ipx_spxb_report *rep)
{
	if (c->c.csv)
		ipx_spxb_write_csv(stdout, &c->o, rep);
	else if (c->c.json)
		ipx_spxb_write_json(stdout, &c->o, rep, conditions, rep);
	else
		bench_spx_print_summary(c, rep);
}

int bench_spx(int argc, char **argv)
{
	static struct spx_cli c;
	struct ipx_spxb_hooks hooks = { on_progress, cancelled, &c };
	struct ipx_spxb_report *rep;
	char err[512];
	int rc;

	memset(&c, 0, sizeof(c));
	c.c = (struct bench_common){ .name = "spx", .help = help_bench_spx,
				     .seconds = &c.o.row.seconds,
				     .warmup = &c.o.row.warmup,
				     .repeat = &c.o.repeat,
				     .max_repeat = IPX_SPXB_MAX_REPEAT };
	ipx_spxb_opts_default(&c.o.row);
	c.o.repeat = IPX_SPXB_DEFAULT_REPEAT;
	c.o.links[IPX_SPXB_MEM] = c.o.links[IPX_SPXB_UDP] = true;
	rc = parse(&c, argc, argv);
	if (rc != CLI_OK)
		return rc < 0 ? CLI_OK : rc;
	rep = calloc(1, sizeof(*rep));
	if (!rep) {
		cli_error("bench", "spx: out of memory");
		return CLI_FAIL;
	}
	ipx_log_set_level(IPX_LOG_WARN);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	rep->net.name = "spx";
	bench_pair_ui(&rep->net, !c.c.quiet && isatty(STDERR_FILENO));
	rc = ipx_spxb_bench(&c.o, &hooks, rep, err, sizeof(err));
	bench_pair_progress_end(&rep->net);
	if (rc != IPX_OK) {
		cli_error("bench", "spx: %s", err);
		free(rep);
		return CLI_FAIL;
	}
	if (rep->interrupted)
		cli_error("bench", "spx: interrupted; printing the %lu run%s "
				   "that finished",
			  rep->done, cli_s(rep->done));
	if (rep->done || c.c.json)
		print(&c, rep);
	rc = rep->interrupted ? CLI_FAIL : CLI_OK;
	free(rep);
	return rc;
}
