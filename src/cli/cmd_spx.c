/*
 * cmd_spx.c - "ipxlab spx listen [SOCKET]" and "ipxlab spx connect ADDR":
 * netcat over SPX. Standard input goes to the peer, what the peer sends
 * goes to standard output; end of input is an orderly release (our end of
 * data, the peer may go on sending), and the command ends when both
 * directions have ended. SIGINT/SIGTERM send a disconnect at once.
 */
#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "cmd_spx.h"
#include "ipxlab/err.h"

#define DEFAULT_SOCKET 0x4546

void help_spx(FILE *out)
{
	fprintf(out,
		"  ipxlab spx listen [SOCKET]  wait for one session on SOCKET (hex,\n"
		"                              default 4546)\n"
		"  ipxlab spx connect ADDR     open a session to ADDR\n\n"
		"Carries standard input to the peer and the peer's data to standard\n"
		"output, like netcat. End of input ends our direction only (orderly\n"
		"release); the session ends when the peer's input has ended too\n"
		"(a peer without orderly release: when it disconnects).\n"
		"Exit 0 when everything we sent was acknowledged and everything the\n"
		"peer sent was received and written, 1 otherwise. A listener takes\n"
		"one session and refuses further callers at once. SIGINT/SIGTERM\n"
		"send a disconnect, so the peer learns at once, and exit 1.\n\n"
		"  --spx1              offer SPX I only (stop-and-wait, 534-byte packets)\n"
		"  --window N          SPX II window in packets (default 32)\n"
		"  --stats             print the session's counters at the end\n"
		"  --disconnect-at-eof at the end of input, disconnect once all of it\n"
		"                      is acknowledged, instead of the release (for\n"
		"                      a peer without orderly release that waits\n"
		"                      for us, e.g. ipxcat -l; what it has still to\n"
		"                      send is cut off)\n"
		"  --connect-timeout S give up connecting after S seconds (default 10)\n" CLI_NODE_OPTS_HELP);
}

struct spx_nc sn;

/* SIGINT/SIGTERM: the peer is told at once, the user what happened. */
static void interrupted(void)
{
	struct spx_status st;

	sn.interrupted = true;
	sn.done = true;
	sn.result = IPX_ECLOSED;
	if (!sn.conn) {
		cli_error("spx", "interrupted%s", sn.lst ? ": no session" : "");
		return;
	}
	spx_get_status(sn.conn, &st);
	spx_disconnect(sn.conn);	/* calls on_closed, which keeps quiet */
	ipx_loop_run_once(sn.cn.loop, 0);	/* the link sends it now */
	if (st.state == SPX_CONNECTING) {
		cli_error("spx", "interrupted while connecting");
		return;
	}
	cli_error("spx",
		  "interrupted: sent %llu bytes (%llu acknowledged), received "
		  "%llu; disconnect sent",
		  (unsigned long long)(sn.bytes_in),
		  (unsigned long long)(sn.bytes_in - st.queued_bytes),
		  (unsigned long long)sn.bytes_out);
}

static bool finished(void *ctx)
{
	(void)ctx;
	return sn.done;
}

static void print_stats(void)
{
	const struct spx_conn_stats *s = &sn.final.stats;

	fprintf(stderr,
		"spx: version %d, %zu-byte packets, srtt %.3f ms, rto %.1f ms\n"
		"spx: sent %llu packets (%llu bytes, %llu retransmits, %llu "
		"timeouts), received %llu packets (%llu bytes)\n"
		"spx: acks %llu out / %llu in, naks %llu out / %llu in, "
		"duplicates %llu, out of order %llu, probes %llu, keepalives "
		"%llu\n",
		sn.final.version, sn.final.max_data,
		(double)sn.final.srtt / IPX_MSEC,
		(double)sn.final.rto / IPX_MSEC,
		(unsigned long long)s->tx_data, (unsigned long long)s->tx_bytes,
		(unsigned long long)s->retransmits,
		(unsigned long long)s->timeouts,
		(unsigned long long)s->rx_data, (unsigned long long)s->rx_bytes,
		(unsigned long long)s->acks_tx, (unsigned long long)s->acks_rx,
		(unsigned long long)s->naks_tx, (unsigned long long)s->naks_rx,
		(unsigned long long)s->duplicates,
		(unsigned long long)s->out_of_order,
		(unsigned long long)s->probes_tx,
		(unsigned long long)s->keepalives_tx);
}

/* The mode and the options; the mode's operands from optind of the
 * shifted argv. CLI_OK to go on, -1 after --help, else the exit code. */
static int spx_parse(int *argc, char ***argv, struct spx_options *so,
		     struct cli_node_opts *no)
{
	static const struct option longopts[] = {
		{ "spx1", no_argument, NULL, OPT_FIRST_CMD },
		{ "window", required_argument, NULL, OPT_FIRST_CMD + 1 },
		{ "stats", no_argument, NULL, OPT_FIRST_CMD + 2 },
		{ "connect-timeout", required_argument, NULL, OPT_FIRST_CMD + 3 },
		{ "disconnect-at-eof", no_argument, NULL, OPT_FIRST_CMD + 4 },
		CLI_NODE_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	unsigned long window = 32;
	double t;
	int opt;

	while ((opt = getopt_long(*argc, *argv, "vqh", longopts, NULL)) != -1) {
		int r = cli_node_opt(no, "spx", opt, optarg);

		if (r < 0)
			return CLI_USAGE;
		if (r > 0)
			continue;
		switch (opt) {
		case OPT_FIRST_CMD:
			so->spx2 = false;
			break;
		case OPT_FIRST_CMD + 1:
			if (cli_parse_uint("spx", "--window", optarg, 1, 1024,
					   &window) < 0)
				return CLI_USAGE;
			break;
		case OPT_FIRST_CMD + 2:
			sn.stats = true;
			break;
		case OPT_FIRST_CMD + 3:
			if (cli_parse_seconds("spx", "--connect-timeout", optarg,
					      0.1, 3600, &t) < 0)
				return CLI_USAGE;
			so->connect_timeout = (ipx_time)(t * IPX_SEC);
			break;
		case OPT_FIRST_CMD + 4:
			sn.close_at_eof = true;
			break;
		case 'h':
			cli_usage_line(stdout, "spx");
			help_spx(stdout);
			return -1;
		default:
			return cli_bad_option("spx", *argv, "vqh", longopts);
		}
	}
	so->window = (unsigned)window;
	return CLI_OK;
}

/* "listen" or "connect" first; CLI_OK, -1 after --help, else the exit
 * code. */
static int spx_mode(int argc, char **argv)
{
	if (argc < 2 || argv[1][0] == '-') {
		if (argc >= 2 && (!strcmp(argv[1], "-h") ||
				  !strcmp(argv[1], "--help"))) {
			cli_usage_line(stdout, "spx");
			help_spx(stdout);
			return -1;
		}
		cli_error("spx", "say 'listen [SOCKET]' or 'connect ADDR'");
		cli_usage_line(stderr, "spx");
		return CLI_USAGE;
	}
	if (strcmp(argv[1], "listen") && strcmp(argv[1], "connect")) {
		cli_error("spx", "unknown mode '%s': say 'listen' or 'connect'",
			  argv[1]);
		return CLI_USAGE;
	}
	return CLI_OK;
}

static int start_connect(const struct spx_options *so,
			 const struct cli_node_opts *no, int argc, char **argv)
{
	struct ipx_addr dst;
	int rc;

	if (argc - optind != 1 || ipx_addr_parse(argv[optind], &dst) != IPX_OK ||
	    ipx_node_is_broadcast(dst.node) || dst.socket == 0) {
		cli_error("spx", "connect needs one address "
				 "NNNNNNNN:XXXXXXXXXXXX:SSSS, not "
				 "broadcast, socket not 0");
		return CLI_USAGE;
	}
	rc = cli_node_open(&sn.cn, no);
	if (rc)
		return rc;
	sn.spx = spx_new(sn.cn.node, so);
	ipx_loop_add_hook(sn.cn.loop, &sn.flush_out, spx_nc_flush_stdout, NULL);
	rc = spx_connect(sn.spx, &dst, &spx_nc_handlers, NULL, &sn.conn);
	if (rc != IPX_OK) {
		cli_error("spx", "connect: %s", ipx_strerror(rc));
		sn.done = true;
		sn.result = rc;
	}
	return CLI_OK;
}

static int start_listen(const struct spx_options *so,
			const struct cli_node_opts *no, int argc, char **argv)
{
	uint16_t number = DEFAULT_SOCKET;
	char a[IPX_ADDR_STRLEN];
	int rc;

	if (argc - optind > 1 ||
	    (optind < argc && (ipx_socket_parse(argv[optind], &number) !=
				       IPX_OK ||
			       number == 0))) {
		cli_error("spx", "listen takes one SOCKET (1 to 4 hex digits, "
				 "not 0)");
		return CLI_USAGE;
	}
	rc = cli_node_open(&sn.cn, no);
	if (rc)
		return rc;
	sn.spx = spx_new(sn.cn.node, so);
	ipx_loop_add_hook(sn.cn.loop, &sn.flush_out, spx_nc_flush_stdout, NULL);
	rc = spx_listen(sn.spx, number, spx_nc_on_accept, NULL, &sn.lst);
	if (rc != IPX_OK) {
		cli_error("spx", "cannot listen on %04X: %s", number,
			  ipx_strerror(rc));
		sn.done = true;
		sn.result = rc;
	} else {
		sn.cn.addr.socket = number;
		fprintf(stderr, "listening on %s\n",
			ipx_addr_format(&sn.cn.addr, a));
	}
	return CLI_OK;
}

int cmd_spx(int argc, char **argv)
{
	struct spx_options so = { .spx2 = true };
	struct cli_node_opts no;
	bool connect;
	int rc;

	memset(&sn, 0, sizeof(sn));
	cli_node_opts_init(&no);
	rc = spx_mode(argc, argv);
	if (rc != CLI_OK)
		return rc < 0 ? CLI_OK : rc;
	connect = !strcmp(argv[1], "connect");
	argc--;
	argv++;
	optind = 1;
	rc = spx_parse(&argc, &argv, &so, &no);
	if (rc != CLI_OK)
		return rc < 0 ? CLI_OK : rc;
	rc = connect ? start_connect(&so, &no, argc, argv)
		     : start_listen(&so, &no, argc, argv);
	if (rc != CLI_OK)
		return rc;
	if (!sn.done)
		rc = ipx_loop_run_until(sn.cn.loop, finished, NULL,
					UINT64_MAX / 4);
	else
		rc = IPX_OK;
	if (rc == IPX_ECLOSED && !sn.done)
		interrupted();
	if (fflush(stdout) == EOF && !sn.out_failed) {
		cli_error("spx", "standard output: %s", strerror(errno));
		sn.out_failed = true;
	}
	if (sn.stats && sn.final.version)
		print_stats();
	spx_free(sn.spx);
	ipx_loop_remove_hook(sn.cn.loop, &sn.flush_out);
	cli_node_close(&sn.cn);
	/* 0 only when both directions ended in order: all we read was
	 * acknowledged, all the peer sent is written. */
	return sn.result == IPX_OK && sn.stdin_eof && !sn.have &&
			       !sn.out_failed && !sn.interrupted
		       ? CLI_OK
		       : CLI_FAIL;
}
