/*
 * cmd_spx.c - "ipxlab spx listen [SOCKET]" and "ipxlab spx connect ADDR":
 * netcat over SPX. Standard input goes to the peer, what the peer sends
 * goes to standard output; end of input is an orderly release (our end of
 * data, the peer may go on sending), and the command ends when both
 * directions have ended. SIGINT/SIGTERM send a disconnect at once.
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

struct nc {
	struct cli_node cn;
	struct spx *spx;
	struct spx_conn *conn;
	struct spx_listener *lst;
	struct ipx_hook flush_out;
	bool stdin_regular, stdin_watched, stdin_eof;
	bool peer_done;		/* the peer's end of data arrived */
	bool close_at_eof;	/* --disconnect-at-eof */
	bool we_closed;		/* ... and our disconnect went in */
	bool out_failed;	/* standard output could not take data */
	bool interrupted;	/* by a signal: closing quietly */
	bool done, stats;
	int result;		/* on_closed reason */
	uint64_t bytes_in;	/* from standard input into the session */
	uint64_t bytes_out;	/* from the peer to standard output */
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
			nc.bytes_in += nc.have;
			nc.have = 0;
		}
		if (nc.stdin_eof)
			return;
		n = read(STDIN_FILENO, nc.buf, sizeof(nc.buf));
		if (n > 0) {
			nc.have = (size_t)n;
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			if (nc.stdin_watched)
				ipx_loop_mod_fd(nc.cn.loop, STDIN_FILENO,
						IPX_EV_READ);
			return;
		}
		/* End of input: our end of data follows what is queued; we
		 * go on receiving until the peer's ends too (or, asked to,
		 * disconnect once all of ours is acknowledged). */
		nc.stdin_eof = true;
		if (nc.stdin_watched) {
			ipx_loop_del_fd(nc.cn.loop, STDIN_FILENO);
			nc.stdin_watched = false;
		}
		if (nc.close_at_eof) {
			nc.we_closed = true;
			spx_close(nc.conn);
		} else {
			spx_release(nc.conn);
		}
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
	if (nc.out_failed)
		return;
	if (fwrite(data, 1, len, stdout) != len) {
		nc.out_failed = true;
		cli_error("spx", "standard output closed: disconnecting");
		spx_disconnect(nc.conn);
		return;
	}
	nc.bytes_out += len;
}

static void on_release(struct spx_conn *c, void *ctx)
{
	(void)c;
	(void)ctx;
	nc.peer_done = true;
	ipx_debug("the peer's data has ended (%llu bytes)",
		  (unsigned long long)nc.bytes_out);
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
	if (nc.interrupted) {
		nc.conn = NULL;
		return;
	}
	if (status == IPX_EREFUSED) {
		cli_error("spx", "connect: refused: the listener is busy with "
				 "another session (or out of SPX CONNECTIONS)");
		nc.conn = NULL;
		nc.result = status;
		nc.done = true;
		return;
	}
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
	if (nc.interrupted || nc.out_failed)
		return;
	if (reason != IPX_OK)
		cli_error("spx", "session ended: %s", ipx_strerror(reason));
	else if (!nc.stdin_eof || nc.have)
		cli_error("spx", "session ended by the peer before our input "
				 "ended (%llu bytes sent)",
			  (unsigned long long)nc.bytes_in);
	else if (nc.we_closed && !nc.peer_done)
		ipx_info("session closed by our disconnect (%llu bytes sent, "
			 "received %llu)",
			 (unsigned long long)nc.bytes_in,
			 (unsigned long long)nc.bytes_out);
	else if (!nc.peer_done)
		ipx_info("session closed by the peer's disconnect (%llu bytes "
			 "sent, received %llu)",
			 (unsigned long long)nc.bytes_in,
			 (unsigned long long)nc.bytes_out);
	else
		ipx_info("session closed");
}

static const struct spx_handlers handlers = {
	.on_connected = on_connected,
	.on_data = on_data,
	.on_sendable = on_sendable,
	.on_release = on_release,
	.on_closed = on_closed,
};

static void on_accept(struct spx_listener *l, struct spx_conn *c, void *ctx)
{
	struct spx_status st;
	char a[IPX_ADDR_STRLEN];

	(void)ctx;
	spx_get_status(c, &st);
	nc.conn = c;
	/* One session: later callers are refused at once. */
	spx_listener_set_busy(l, true);
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

/* SIGINT/SIGTERM: the peer is told at once, the user what happened. */
static void interrupted(void)
{
	struct spx_status st;

	nc.interrupted = true;
	nc.done = true;
	nc.result = IPX_ECLOSED;
	if (!nc.conn) {
		cli_error("spx", "interrupted%s", nc.lst ? ": no session" : "");
		return;
	}
	spx_get_status(nc.conn, &st);
	spx_disconnect(nc.conn);	/* calls on_closed, which keeps quiet */
	ipx_loop_run_once(nc.cn.loop, 0);	/* the link sends it now */
	if (st.state == SPX_CONNECTING) {
		cli_error("spx", "interrupted while connecting");
		return;
	}
	cli_error("spx",
		  "interrupted: sent %llu bytes (%llu acknowledged), received "
		  "%llu; disconnect sent",
		  (unsigned long long)(nc.bytes_in),
		  (unsigned long long)(nc.bytes_in - st.queued_bytes),
		  (unsigned long long)nc.bytes_out);
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
		{ "disconnect-at-eof", no_argument, NULL, OPT_FIRST_CMD + 4 },
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
		case OPT_FIRST_CMD + 4:
			nc.close_at_eof = true;
			break;
		case 'h':
			cli_usage_line(stdout, "spx");
			help_spx(stdout);
			return CLI_OK;
		default:
			return cli_bad_option("spx", argv, "vqh", longopts);
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
	if (rc == IPX_ECLOSED && !nc.done)
		interrupted();
	if (fflush(stdout) == EOF && !nc.out_failed) {
		cli_error("spx", "standard output: %s", strerror(errno));
		nc.out_failed = true;
	}
	if (nc.stats && nc.final.version)
		print_stats();
	spx_free(nc.spx);
	ipx_loop_remove_hook(nc.cn.loop, &nc.flush_out);
	cli_node_close(&nc.cn);
	/* 0 only when both directions ended in order: all we read was
	 * acknowledged, all the peer sent is written. */
	return nc.result == IPX_OK && nc.stdin_eof && !nc.have &&
			       !nc.out_failed && !nc.interrupted
		       ? CLI_OK
		       : CLI_FAIL;
}
