/*
 * cmd_send.c - "ipxlab send ADDR": join the network and send each line of
 * standard input (without its newline) as one datagram to ADDR. A line
 * too long for one datagram is refused by number, never cut.
 */
#include <getopt.h>
#include <string.h>

#include "cli.h"
#include "ipxlab/err.h"

void help_send(FILE *out)
{
	fprintf(out,
		"Send each line of standard input as one datagram to ADDR\n"
		"(NNNNNNNN:XXXXXXXXXXXX:SSSS; node FFFFFFFFFFFF broadcasts).\n\n"
		"  -s, --socket SOCKET source socket (hex; default: a dynamic one)\n"
		"  --type TYPE         IPX packet type (default 4, PEP)\n"
		"  -i, --interval SECONDS\n"
		"                      pause between datagrams (default 0)\n" CLI_NODE_OPTS_HELP);
}

struct send_state {
	struct cli_node *cn;
	struct ipx_socket *sock;
	struct ipx_addr dst;
	uint8_t type;
	size_t max;
	char line[IPX_MAX_PACKET + 2];
	size_t len;
	unsigned long lineno, sent, refused;
	bool overlong;
	ipx_time interval;
};

static void send_line(struct send_state *st)
{
	int rc;

	st->lineno++;
	if (st->overlong || st->len > st->max) {
		cli_error("send", "line %lu is longer than the %zu bytes a "
				  "datagram can carry: not sent",
			  st->lineno, st->max);
		st->refused++;
	} else {
		rc = ipx_socket_sendto(st->sock, &st->dst, st->type, st->line,
				       st->len);
		if (rc != IPX_OK) {
			cli_error("send", "line %lu: %s", st->lineno,
				  ipx_strerror(rc));
			st->refused++;
		} else {
			st->sent++;
		}
	}
	st->len = 0;
	st->overlong = false;
	if (st->interval)
		ipx_loop_run_for(st->cn->loop, st->interval);
}

/* Take bytes from stdin; every complete line becomes a datagram. */
static void feed(void *ctx, const char *buf, size_t n)
{
	struct send_state *st = ctx;

	for (size_t i = 0; i < n; i++) {
		if (buf[i] == '\n') {
			send_line(st);
			continue;
		}
		if (st->len < sizeof(st->line))
			st->line[st->len++] = buf[i];
		else
			st->overlong = true;
	}
}

int cmd_send(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "type", required_argument, NULL, OPT_FIRST_CMD },
		{ "interval", required_argument, NULL, 'i' },
		CLI_NODE_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	static struct send_state st;
	struct cli_opts o;
	struct cli_node cn;
	uint16_t src_socket = 0;
	unsigned long type = IPX_TYPE_PEP;
	double interval = 0;
	int opt, rc;

	memset(&st, 0, sizeof(st));
	cli_opts_init(&o, "send", "s:i:vqh", longopts, help_send);
	while ((opt = cli_next_opt(&o, argc, argv)) != CLI_OPTS_END) {
		if (opt == CLI_OPTS_EXIT)
			return o.rc;
		switch (opt) {
		case 's':
			if (cli_parse_socket("send", "--socket", optarg,
					     &src_socket) < 0)
				return CLI_USAGE;
			break;
		case OPT_FIRST_CMD:
			if (cli_parse_uint("send", "--type", optarg, 0, 255,
					   &type) < 0)
				return CLI_USAGE;
			break;
		case 'i':
			if (cli_parse_seconds("send", "--interval", optarg, 0,
					      3600, &interval) < 0)
				return CLI_USAGE;
			break;
		default:
			return cli_opts_bad(&o, argv);
		}
	}
	if (argc - optind != 1) {
		cli_error("send", "needs exactly one destination ADDR");
		cli_usage_line(stderr, "send");
		return CLI_USAGE;
	}
	if (ipx_addr_parse(argv[optind], &st.dst) != IPX_OK) {
		cli_error("send", "'%s' is not an IPX address "
				  "(NNNNNNNN:XXXXXXXXXXXX:SSSS, hex)",
			  argv[optind]);
		return CLI_USAGE;
	}
	st.type = (uint8_t)type;
	st.interval = (ipx_time)(interval * IPX_SEC);
	rc = cli_node_open(&cn, &o.node);
	if (rc)
		return rc;
	st.cn = &cn;
	rc = ipx_socket_open(cn.node, src_socket, on_datagram_ignore, NULL,
			     &st.sock);
	if (rc != IPX_OK) {
		cli_error("send", "cannot open socket: %s", ipx_strerror(rc));
		cli_node_close(&cn);
		return CLI_FAIL;
	}
	st.max = ipx_node_max_payload(cn.node, &st.dst);

	/* Interrupted: what was read so far still goes. */
	cli_stdin_lines(cn.loop, feed, &st);
	if (st.len > 0 || st.overlong)
		send_line(&st);		/* a last line without newline */
	/* Let the last batch leave before the socket closes. */
	ipx_loop_run_once(cn.loop, 0);
	cli_node_close(&cn);
	if (st.refused)
		return CLI_FAIL;
	return CLI_OK;
}
