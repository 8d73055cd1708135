/*
 * cmd_listen.c - "ipxlab listen [SOCKET]": join the network, open a socket
 * and print one line per datagram: the source address, then the payload
 * as text (non-printable bytes as \xHH) or as hex with --hex.
 */
#include <getopt.h>
#include <string.h>

#include "cli.h"
#include "ipxlab/err.h"

#define DEFAULT_SOCKET 0x4545

void help_listen(FILE *out)
{
	fprintf(out,
		"Print each datagram arriving on SOCKET (hex, default 4545) as\n"
		"'NNNNNNNN:XXXXXXXXXXXX:SSSS payload'. The node's own address is\n"
		"printed to stderr once it has joined.\n\n"
		"  -c, --count N       exit 0 after N datagrams\n"
		"  -t, --timeout SECONDS\n"
		"                      listen that long; with -c, exit 1 if the N\n"
		"                      have not all arrived by then (alone: exit 0)\n"
		"  -x, --hex           print payloads in hex\n"
		"  --type              show the IPX packet type too\n" CLI_NODE_OPTS_HELP);
}

struct listen_state {
	unsigned long want, got;
	bool hex, show_type;
	bool closed;		/* stdout went away */
	struct ipx_loop *loop;
};

static void on_datagram(struct ipx_socket *sock, const struct ipx_header *hdr,
			const uint8_t *data, size_t len, void *ctx)
{
	struct listen_state *st = ctx;
	char src[IPX_ADDR_STRLEN];

	(void)sock;
	fputs(ipx_addr_format(&hdr->src, src), stdout);
	if (st->show_type)
		printf(" type=%u", hdr->type);
	fputc(' ', stdout);
	if (st->hex)
		for (size_t i = 0; i < len; i++)
			printf("%02X", data[i]);
	else
		cli_print_escaped(stdout, data, len);
	fputc('\n', stdout);
	st->got++;
	/* A closed pipe (listen | head -1) ends the command. */
	if (fflush(stdout) == EOF || ferror(stdout)) {
		st->closed = true;
		ipx_loop_stop(st->loop);
		return;
	}
	if (st->want && st->got >= st->want)
		ipx_loop_stop(st->loop);
}

static bool done(void *ctx)
{
	struct listen_state *st = ctx;

	return st->want && st->got >= st->want;
}

int cmd_listen(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "timeout", required_argument, NULL, 't' },
		{ "hex", no_argument, NULL, 'x' },
		{ "type", no_argument, NULL, OPT_FIRST_CMD },
		CLI_NODE_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct listen_state st = { 0 };
	struct cli_opts o;
	struct cli_node cn;
	struct ipx_socket *sock;
	uint16_t number = DEFAULT_SOCKET;
	double timeout = 0;
	char addr[IPX_ADDR_STRLEN];
	int opt, rc;

	cli_opts_init(&o, "listen", "c:t:xvqh", longopts, help_listen);
	while ((opt = cli_next_opt(&o, argc, argv)) != CLI_OPTS_END) {
		if (opt == CLI_OPTS_EXIT)
			return o.rc;
		switch (opt) {
		case 'c':
			if (cli_parse_uint("listen", "--count", optarg, 1,
					   1000000000, &st.want) < 0)
				return CLI_USAGE;
			break;
		case 't':
			if (cli_parse_seconds("listen", "--timeout", optarg,
					      0.001, 86400 * 365, &timeout) < 0)
				return CLI_USAGE;
			break;
		case 'x':
			st.hex = true;
			break;
		case OPT_FIRST_CMD:
			st.show_type = true;
			break;
		default:
			return cli_opts_bad(&o, argv);
		}
	}
	if (argc - optind > 1) {
		cli_error("listen", "one SOCKET at most");
		return CLI_USAGE;
	}
	if (optind < argc &&
	    cli_parse_socket("listen", "SOCKET", argv[optind], &number) < 0)
		return CLI_USAGE;
	rc = cli_node_open(&cn, &o.node);
	if (rc)
		return rc;
	st.loop = cn.loop;
	rc = ipx_socket_open(cn.node, number, on_datagram, &st, &sock);
	if (rc != IPX_OK) {
		cli_error("listen", "cannot open socket %04X: %s", number,
			  ipx_strerror(rc));
		cli_node_close(&cn);
		return CLI_FAIL;
	}
	cn.addr.socket = number;
	fprintf(stderr, "listening on %s\n", ipx_addr_format(&cn.addr, addr));
	if (timeout > 0)
		rc = ipx_loop_run_until(cn.loop, done, &st,
					(ipx_time)(timeout * IPX_SEC));
	else
		rc = ipx_loop_run_until(cn.loop, done, &st, UINT64_MAX / 4);
	cli_node_close(&cn);
	if (st.closed)
		return CLI_OK;
	if (rc != IPX_OK && rc != IPX_ETIMEOUT && rc != IPX_ECLOSED)
		return CLI_FAIL;
	return cli_count_result("listen", st.got, st.want, rc == IPX_ECLOSED);
}
