/*
 * cmd_ping.c - "ipxlab ping": DOSBox's IPXNET PING. A 30-byte packet to
 * the broadcast node on socket 2; every DOSBox-compatible client (DOSBox
 * itself, ipxlab nodes) answers to our node on socket 2. One line per
 * answer, then a summary; exit 0 if anyone answered.
 */
#include <arpa/inet.h>
#include <getopt.h>
#include <string.h>

#include "cli.h"
#include "ipxlab/err.h"

void help_ping(FILE *out)
{
	fprintf(out,
		"Broadcast DOSBox-style echo requests and list who answers, with\n"
		"the round-trip time of each answer.\n\n"
		"  -c, --count N       requests to send (default 3)\n"
		"  -i, --interval SECONDS\n"
		"                      between requests (default 1)\n"
		"  -W, --linger SECONDS\n"
		"                      wait after the last request (default 1)\n" CLI_NODE_OPTS_HELP);
}

#define MAX_PEERS 256

struct ping_state {
	struct cli_node *cn;
	struct ipx_socket *sock;
	ipx_time sent_at;
	unsigned seq;
	unsigned long replies;
	size_t npeers;
	uint8_t peers[MAX_PEERS][IPX_NODE_LEN];
	double min_ms, max_ms, sum_ms;
};

static void remember(struct ping_state *st, const uint8_t node[IPX_NODE_LEN])
{
	for (size_t i = 0; i < st->npeers; i++)
		if (ipx_node_eq(st->peers[i], node))
			return;
	if (st->npeers < MAX_PEERS)
		memcpy(st->peers[st->npeers++], node, IPX_NODE_LEN);
}

static void on_reply(struct ipx_socket *sock, const struct ipx_header *hdr,
		     const uint8_t *data, size_t len, void *ctx)
{
	struct ping_state *st = ctx;
	double ms;
	char node[13];
	struct in_addr ip;
	uint16_t port;

	(void)sock;
	(void)data;
	(void)len;
	/* Our own broadcast, looped back locally, is not an answer. */
	if (ipx_node_eq(hdr->src.node, st->cn->addr.node) ||
	    ipx_node_is_broadcast(hdr->dst.node))
		return;
	ms = (double)(ipx_loop_now(st->cn->loop) - st->sent_at) / IPX_MSEC;
	st->replies++;
	st->sum_ms += ms;
	if (st->replies == 1 || ms < st->min_ms)
		st->min_ms = ms;
	if (ms > st->max_ms)
		st->max_ms = ms;
	remember(st, hdr->src.node);
	/* DOSBox-protocol nodes are IPv4 address + UDP port. */
	memcpy(&ip.s_addr, hdr->src.node, 4);
	memcpy(&port, hdr->src.node + 4, 2);
	printf("reply from %s (%s:%u) seq=%u time=%.3f ms\n",
	       ipx_node_format(hdr->src.node, node), inet_ntoa(ip),
	       ntohs(port), st->seq, ms);
	fflush(stdout);
}

int cmd_ping(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "interval", required_argument, NULL, 'i' },
		{ "linger", required_argument, NULL, 'W' },
		CLI_NODE_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct ping_state st = { 0 };
	struct cli_node_opts no;
	struct cli_node cn;
	struct ipx_addr bcast = { .socket = IPX_SOCK_ECHO };
	unsigned long count = 3;
	double interval = 1, linger = 1;
	int opt, rc;

	cli_node_opts_init(&no);
	optind = 1;
	while ((opt = getopt_long(argc, argv, "c:i:W:vqh", longopts, NULL)) !=
	       -1) {
		int r = cli_node_opt(&no, argv[0], opt, optarg);

		if (r < 0)
			return CLI_USAGE;
		if (r > 0)
			continue;
		switch (opt) {
		case 'c':
			if (cli_parse_uint("ping", "--count", optarg, 1, 1000000,
					   &count) < 0)
				return CLI_USAGE;
			break;
		case 'i':
			if (cli_parse_seconds("ping", "--interval", optarg, 0.001,
					      3600, &interval) < 0)
				return CLI_USAGE;
			break;
		case 'W':
			if (cli_parse_seconds("ping", "--linger", optarg, 0, 3600,
					      &linger) < 0)
				return CLI_USAGE;
			break;
		case 'h':
			cli_usage_line(stdout, "ping");
			help_ping(stdout);
			return CLI_OK;
		default:
			cli_usage_line(stderr, "ping");
			return CLI_USAGE;
		}
	}
	if (optind < argc) {
		cli_error("ping", "unexpected argument '%s' (this is the DOSBox "
				  "broadcast echo; it takes no address)",
			  argv[optind]);
		return CLI_USAGE;
	}
	rc = cli_node_open(&cn, &no);
	if (rc)
		return rc;
	st.cn = &cn;
	rc = ipx_socket_open(cn.node, IPX_SOCK_ECHO, on_reply, &st, &st.sock);
	if (rc != IPX_OK) {
		cli_error("ping", "cannot open socket 2: %s", ipx_strerror(rc));
		cli_node_close(&cn);
		return CLI_FAIL;
	}
	memcpy(bcast.node, ipx_node_broadcast, IPX_NODE_LEN);
	for (st.seq = 1; st.seq <= count; st.seq++) {
		st.sent_at = ipx_loop_now(cn.loop);
		rc = ipx_socket_sendto(st.sock, &bcast, 0, NULL, 0);
		if (rc != IPX_OK) {
			cli_error("ping", "send: %s", ipx_strerror(rc));
			break;
		}
		rc = ipx_loop_run_for(cn.loop,
				      (ipx_time)((st.seq < count ? interval
								 : linger) *
						 IPX_SEC));
		if (rc == IPX_ECLOSED || ipx_loop_stopped(cn.loop))
			break;
	}
	printf("%u requests, %lu replies from %zu nodes", st.seq - 1 < count
							   ? st.seq
							   : (unsigned)count,
	       st.replies, st.npeers);
	if (st.replies)
		printf(", rtt min/avg/max %.3f/%.3f/%.3f ms", st.min_ms,
		       st.sum_ms / (double)st.replies, st.max_ms);
	printf("\n");
	cli_node_close(&cn);
	return st.replies ? CLI_OK : CLI_FAIL;
}
