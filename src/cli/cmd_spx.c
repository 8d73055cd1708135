/*
 * cmd_spx.c - "ipxlab spx listen [SOCKET]" and "ipxlab spx connect ADDR":
 * netcat over SPX. Standard input goes to the peer, what the peer sends
 * goes to standard output; end of input closes the session with an
 * informed disconnect, and the command ends when the session does.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"
#include "ipxlab/spx.h"

#define DEFAULT_SOCKET 0x4546

void help_spx(FILE *out)
{
	fprintf(out,
		"  ipxlab spx listen [SOCKET]  wait for one session on SOCKET (hex,\n"
		"                              default 4546)\n"
		"  ipxlab spx connect ADDR     open a session to ADDR\n\n"
		"Carries standard input to the peer and the peer's data to standard\n"
		"output, like netcat. End of input closes the session (informed\n"
		"disconnect) once all of it is acknowledged; a side whose input was\n"
		"empty leaves the closing to its peer. Exit 0 when the session\n"
		"closed cleanly, 1 if it broke.\n\n"
		"  --spx1              offer SPX I only (stop-and-wait, 534-byte packets)\n"
		"  --window N          SPX II window in packets (default 32)\n"
		"  --stats             print the session's counters at the end\n"
		"  --connect-timeout S give up connecting after S seconds (default 10)\n" CLI_NODE_OPTS_HELP);
}

struct nc {
	struct cli_node cn;
	struct spx *spx;
	struct spx_conn *conn;
	struct spx_listener *lst;
	struct ipx_hook flush_out;
	bool stdin_regular, stdin_watched, stdin_eof;
	bool read_any;		/* standard input gave us something */
	bool done, stats;
	int result;		/* on_closed reason */
	char buf[16384];
	size_t have;		/* bytes read from stdin not yet queued */
	struct spx_status final;
};

static struct nc nc;

/* Move standard input into the session while it has room. */
static void pump_stdin(void)
{
	for (;;) {
		ssize_t n;
		int rc;

		if (!nc.conn)
			return;
		if (nc.have) {
			rc = spx_send(nc.conn, nc.buf, nc.have, 0, 0);
			if (rc == IPX_EAGAIN) {
				if (nc.stdin_watched)
					ipx_loop_mod_fd(nc.cn.loop, STDIN_FILENO, 0);
				return;	/* on_sendable resumes */
			}
			if (rc != IPX_OK) {
				cli_error("spx", "send: %s", ipx_strerror(rc));
				spx_abort(nc.conn);
				return;
			}
			nc.have = 0;
		}
		if (nc.stdin_eof)
			return;
		n = read(STDIN_FILENO, nc.buf, sizeof(nc.buf));
		if (n > 0) {
			nc.have = (size_t)n;
			nc.read_any = true;
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			if (nc.stdin_watched)
				ipx_loop_mod_fd(nc.cn.loop, STDIN_FILENO,
						IPX_EV_READ);
			return;
		}
		/* End of input: close once everything queued is through.
		 * A side that never had input (stdin is /dev/null) leaves
		 * the closing to its peer instead. */
		nc.stdin_eof = true;
		if (nc.stdin_watched) {
			ipx_loop_del_fd(nc.cn.loop, STDIN_FILENO);
			nc.stdin_watched = false;
		}
		if (nc.read_any)
			spx_close(nc.conn);
		return;
	}
}

static void on_stdin(struct ipx_loop *loop, int fd, unsigned ev, void *ctx)
{
	(void)loop;
	(void)fd;
	(void)ev;
	(void)ctx;
	pump_stdin();
}

static void start_stdin(void)
{
	struct stat sb;

	nc.stdin_regular = fstat(STDIN_FILENO, &sb) == 0 && !S_ISFIFO(sb.st_mode) &&
			   !S_ISCHR(sb.st_mode) && !S_ISSOCK(sb.st_mode);
	if (!nc.stdin_regular) {
		fcntl(STDIN_FILENO, F_SETFL,
		      fcntl(STDIN_FILENO, F_GETFL) | O_NONBLOCK);
		if (ipx_loop_add_fd(nc.cn.loop, STDIN_FILENO, IPX_EV_READ,
				    on_stdin, NULL) == IPX_OK)
			nc.stdin_watched = true;
		else
			nc.stdin_regular = true;	/* not pollable */
	}
	pump_stdin();
}

static void on_data(struct spx_conn *c, const uint8_t *data, size_t len,
		    unsigned flags, uint8_t ds, void *ctx)
{
	(void)c;
	(void)flags;
	(void)ds;
	(void)ctx;
	if (fwrite(data, 1, len, stdout) != len) {
		cli_error("spx", "standard output closed");
		spx_abort(nc.conn);
	}
}

static void on_sendable(struct spx_conn *c, void *ctx)
{
	(void)c;
	(void)ctx;
	pump_stdin();
}

static const char *version_text(struct spx_conn *c, char *out, size_t n)
{
	struct spx_status st;

	spx_get_status(c, &st);
	snprintf(out, n, "SPX%s, %zu-byte packets", st.version == 2 ? " II" : "",
		 st.max_data);
	return out;
}

static void on_connected(struct spx_conn *c, int status, void *ctx)
{
	char v[64];

	(void)ctx;
	if (status != IPX_OK) {
		cli_error("spx", "connect: %s (nobody listening there?)",
			  ipx_strerror(status));
		nc.conn = NULL;
		nc.result = status;
		nc.done = true;
		return;
	}
	ipx_info("connected (%s)", version_text(c, v, sizeof(v)));
	start_stdin();
}

static void on_closed(struct spx_conn *c, int reason, void *ctx)
{
	(void)ctx;
	spx_get_status(c, &nc.final);
	nc.conn = NULL;
	nc.result = reason;
	nc.done = true;
	if (reason == IPX_OK)
		ipx_info("session closed");
	else
		cli_error("spx", "session ended: %s", ipx_strerror(reason));
}

static const struct spx_handlers handlers = {
	.on_connected = on_connected,
	.on_data = on_data,
	.on_sendable = on_sendable,
	.on_closed = on_closed,
};

static void on_accept(struct spx_listener *l, struct spx_conn *c, void *ctx)
{
	struct spx_status st;
	char a[IPX_ADDR_STRLEN];

	(void)l;
	(void)ctx;
	spx_get_status(c, &st);
	if (nc.conn || nc.done) {
		ipx_warn("refusing a second session from %s",
			 ipx_addr_format(&st.remote, a));
		spx_abort(c);
		return;
	}
	nc.conn = c;
	spx_set_handlers(c, &handlers, NULL);
	ipx_info("session from %s (SPX%s)", ipx_addr_format(&st.remote, a),
		 st.version == 2 ? " II" : "");
	start_stdin();
}

static void flush_stdout(struct ipx_loop *loop, void *ctx)
{
	(void)loop;
	(void)ctx;
	fflush(stdout);
}

static bool finished(void *ctx)
{
	(void)ctx;
	return nc.done;
}

static void print_stats(void)
{
	const struct spx_conn_stats *s = &nc.final.stats;

	fprintf(stderr,
		"spx: version %d, %zu-byte packets, srtt %.3f ms, rto %.1f ms\n"
		"spx: sent %llu packets (%llu bytes, %llu retransmits, %llu "
		"timeouts), received %llu packets (%llu bytes)\n"
		"spx: acks %llu out / %llu in, naks %llu out / %llu in, "
		"duplicates %llu, out of order %llu, probes %llu, keepalives "
		"%llu\n",
		nc.final.version, nc.final.max_data,
		(double)nc.final.srtt / IPX_MSEC,
		(double)nc.final.rto / IPX_MSEC,
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

int cmd_spx(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "spx1", no_argument, NULL, OPT_FIRST_CMD },
		{ "window", required_argument, NULL, OPT_FIRST_CMD + 1 },
		{ "stats", no_argument, NULL, OPT_FIRST_CMD + 2 },
		{ "connect-timeout", required_argument, NULL, OPT_FIRST_CMD + 3 },
		CLI_NODE_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct spx_options so = { .spx2 = true };
	struct cli_node_opts no;
	const char *mode;
	unsigned long window = 32;
	int opt, rc;

	memset(&nc, 0, sizeof(nc));
	cli_node_opts_init(&no);
	if (argc < 2 || argv[1][0] == '-') {
		if (argc >= 2 && (!strcmp(argv[1], "-h") ||
				  !strcmp(argv[1], "--help"))) {
			cli_usage_line(stdout, "spx");
			help_spx(stdout);
			return CLI_OK;
		}
		cli_error("spx", "say 'listen [SOCKET]' or 'connect ADDR'");
		cli_usage_line(stderr, "spx");
		return CLI_USAGE;
	}
	mode = argv[1];
	if (strcmp(mode, "listen") && strcmp(mode, "connect")) {
		cli_error("spx", "unknown mode '%s': say 'listen' or 'connect'",
			  mode);
		return CLI_USAGE;
	}
	argc--;
	argv++;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "vqh", longopts, NULL)) != -1) {
		int r = cli_node_opt(&no, "spx", opt, optarg);

		if (r < 0)
			return CLI_USAGE;
		if (r > 0)
			continue;
		switch (opt) {
		case OPT_FIRST_CMD:
			so.spx2 = false;
			break;
		case OPT_FIRST_CMD + 1:
			if (cli_parse_uint("spx", "--window", optarg, 1, 1024,
					   &window) < 0)
				return CLI_USAGE;
			break;
		case OPT_FIRST_CMD + 2:
			nc.stats = true;
			break;
		case OPT_FIRST_CMD + 3: {
			double t;

			if (cli_parse_seconds("spx", "--connect-timeout", optarg,
					      0.1, 3600, &t) < 0)
				return CLI_USAGE;
			so.connect_timeout = (ipx_time)(t * IPX_SEC);
			break;
		}
		case 'h':
			cli_usage_line(stdout, "spx");
			help_spx(stdout);
			return CLI_OK;
		default:
			cli_usage_line(stderr, "spx");
			return CLI_USAGE;
		}
	}
	so.window = (unsigned)window;
	if (!strcmp(mode, "connect")) {
		struct ipx_addr dst;

		if (argc - optind != 1 ||
		    ipx_addr_parse(argv[optind], &dst) != IPX_OK ||
		    ipx_node_is_broadcast(dst.node) || dst.socket == 0) {
			cli_error("spx", "connect needs one address "
					 "NNNNNNNN:XXXXXXXXXXXX:SSSS, not "
					 "broadcast, socket not 0");
			return CLI_USAGE;
		}
		rc = cli_node_open(&nc.cn, &no);
		if (rc)
			return rc;
		nc.spx = spx_new(nc.cn.node, &so);
		ipx_loop_add_hook(nc.cn.loop, &nc.flush_out, flush_stdout, NULL);
		rc = spx_connect(nc.spx, &dst, &handlers, NULL, &nc.conn);
		if (rc != IPX_OK) {
			cli_error("spx", "connect: %s", ipx_strerror(rc));
			nc.done = true;
			nc.result = rc;
		}
	} else {
		uint16_t number = DEFAULT_SOCKET;
		char a[IPX_ADDR_STRLEN];

		if (argc - optind > 1 ||
		    (optind < argc &&
		     (ipx_socket_parse(argv[optind], &number) != IPX_OK ||
		      number == 0))) {
			cli_error("spx", "listen takes one SOCKET (1 to 4 hex "
					 "digits, not 0)");
			return CLI_USAGE;
		}
		rc = cli_node_open(&nc.cn, &no);
		if (rc)
			return rc;
		nc.spx = spx_new(nc.cn.node, &so);
		ipx_loop_add_hook(nc.cn.loop, &nc.flush_out, flush_stdout, NULL);
		rc = spx_listen(nc.spx, number, on_accept, NULL, &nc.lst);
		if (rc != IPX_OK) {
			cli_error("spx", "cannot listen on %04X: %s", number,
				  ipx_strerror(rc));
			nc.done = true;
			nc.result = rc;
		} else {
			nc.cn.addr.socket = number;
			fprintf(stderr, "listening on %s\n",
				ipx_addr_format(&nc.cn.addr, a));
		}
	}
	if (!nc.done)
		rc = ipx_loop_run_until(nc.cn.loop, finished, NULL,
					UINT64_MAX / 4);
	else
		rc = IPX_OK;
	fflush(stdout);
	if (nc.stats && nc.final.version)
		print_stats();
	if (rc == IPX_ECLOSED && !nc.done)
		nc.result = IPX_ECLOSED;	/* interrupted */
	spx_free(nc.spx);
	ipx_loop_remove_hook(nc.cn.loop, &nc.flush_out);
	cli_node_close(&nc.cn);
	return nc.result == IPX_OK ? CLI_OK : CLI_FAIL;
}
