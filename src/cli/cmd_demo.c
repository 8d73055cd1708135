/*
 * cmd_demo.c - "ipxlab demo" (a first look; `make run` runs the protocol
 * benchmark instead): a hub and two nodes on loopback, in one process but
 * over real UDP sockets, exchanging datagrams. Node A sends numbered greetings
 * to node B, B echoes each back, A prints the round trip; then A
 * broadcasts once and the hub's counters are printed.
 */
#include <arpa/inet.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "ipxlab/capture.h"
#include "ipxlab/err.h"
#include "ipxlab/hub.h"
#include "ipxlab/link_udp.h"
#include "ipxlab/log.h"

void help_demo(FILE *out)
{
	fprintf(out,
		"Start a hub on a free loopback port and two nodes that join it,\n"
		"then show them exchanging datagrams.\n\n"
		"  -c, --count N       datagrams A sends to B (default 5)\n"
		"  --pcap FILE         write what both nodes send and receive to\n"
		"                      FILE (each packet twice: as A and B see it)\n");
}

struct demo_node {
	const char *name;
	struct ipx_node *node;
	struct ipx_link *link;
	struct ipx_socket *sock;
	struct ipx_addr addr;
};

struct demo {
	struct ipx_loop *loop;
	struct demo_node a, b;
	unsigned long echoed, broadcast_seen;
	ipx_time sent_at;
};

static struct demo demo;

static void b_recv(struct ipx_socket *sock, const struct ipx_header *hdr,
		   const uint8_t *data, size_t len, void *ctx)
{
	char src[IPX_ADDR_STRLEN];

	(void)ctx;
	printf("  B got %3zu bytes from %s: \"", len,
	       ipx_addr_format(&hdr->src, src));
	cli_print_escaped(stdout, data, len);
	printf("\"%s\n", ipx_node_is_broadcast(hdr->dst.node) ? " (broadcast)"
							       : "");
	if (ipx_node_is_broadcast(hdr->dst.node)) {
		demo.broadcast_seen++;
		return;
	}
	ipx_socket_sendto(sock, &hdr->src, hdr->type, data, len);
}

static void a_recv(struct ipx_socket *sock, const struct ipx_header *hdr,
		   const uint8_t *data, size_t len, void *ctx)
{
	double ms = (double)(ipx_loop_now(demo.loop) - demo.sent_at) / IPX_MSEC;

	(void)sock;
	(void)hdr;
	(void)ctx;
	if (ipx_node_eq(hdr->src.node, demo.a.addr.node))
		return;	/* our own broadcast, looped back */
	printf("  A got the echo of \"");
	cli_print_escaped(stdout, data, len);
	printf("\" back after %.3f ms\n", ms);
	demo.echoed++;
}

static bool both_up(void *ctx)
{
	(void)ctx;
	return demo.a.link->up && demo.b.link->up;
}

static unsigned long want;
static bool echoed_one(void *ctx)
{
	return demo.echoed >= *(unsigned long *)ctx;
}

static bool broadcast_done(void *ctx)
{
	(void)ctx;
	return demo.broadcast_seen >= 1;
}

static int join(struct demo_node *n, const struct sockaddr_in *hub,
		const char *name)
{
	int rc;

	n->name = name;
	n->node = ipx_node_new(demo.loop, NULL);
	if (!n->node)
		return IPX_ENOMEM;
	rc = ipx_udp_link_open(demo.loop, hub, NULL, &n->link);
	if (rc == IPX_OK)
		rc = ipx_node_add_link(n->node, n->link);
	return rc;
}

/* CLI_OK to go on, -1 after --help, else the exit code. */
static int demo_opts(int argc, char **argv, unsigned long *count,
		     const char **pcap)
{
	static const struct option longopts[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "pcap", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "c:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			if (cli_parse_uint("demo", "--count", optarg, 1, 100000,
					   count) < 0)
				return CLI_USAGE;
			break;
		case 'P':
			*pcap = optarg;
			break;
		case 'h':
			cli_usage_line(stdout, "demo");
			help_demo(stdout);
			return -1;
		default:
			return cli_bad_option("demo", argv, "c:h", longopts);
		}
	}
	return CLI_OK;
}

/* The hub on loopback and the two nodes on it, their sockets open;
 * 0, or -1 after a message. */
static int demo_start(struct ipx_hub **hub, struct ipx_capture *cap)
{
	struct ipx_hub_options ho = { 0 };
	struct sockaddr_in where;
	char err[256], a1[IPX_ADDR_STRLEN], a2[IPX_ADDR_STRLEN];

	ho.bind.sin_family = AF_INET;
	ho.bind.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (ipx_hub_open(demo.loop, &ho, hub, err, sizeof(err)) != IPX_OK) {
		cli_error("demo", "%s", err);
		return -1;
	}
	ipx_hub_local(*hub, &where);
	printf("hub listening on 127.0.0.1:%u (DOSBox: IPXNET CONNECT "
	       "127.0.0.1 %u)\n",
	       ntohs(where.sin_port), ntohs(where.sin_port));
	if (join(&demo.a, &where, "A") || join(&demo.b, &where, "B")) {
		cli_error("demo", "cannot open the nodes' links");
		return -1;
	}
	if (cap) {	/* from the registration on */
		ipx_capture_attach(cap, demo.a.link);
		ipx_capture_attach(cap, demo.b.link);
	}
	if (ipx_loop_run_until(demo.loop, both_up, NULL, 5 * IPX_SEC)) {
		cli_error("demo", "the nodes could not join the hub");
		return -1;
	}
	if (ipx_socket_open(demo.a.node, 0, a_recv, NULL, &demo.a.sock) ||
	    ipx_socket_open(demo.b.node, 0x4545, b_recv, NULL, &demo.b.sock)) {
		cli_error("demo", "cannot open sockets");
		return -1;
	}
	ipx_node_address(demo.a.node, &demo.a.addr);
	ipx_node_address(demo.b.node, &demo.b.addr);
	demo.a.addr.socket = ipx_socket_number(demo.a.sock);
	demo.b.addr.socket = 0x4545;
	printf("node A joined as %s\nnode B joined as %s\n\n",
	       ipx_addr_format(&demo.a.addr, a1),
	       ipx_addr_format(&demo.b.addr, a2));
	return 0;
}

/* count datagrams from A to B, each echoed, then a broadcast; 0, or -1
 * after a message. */
static int demo_talk(unsigned long count)
{
	struct ipx_addr all = demo.b.addr;
	int rc;

	for (unsigned long i = 1; i <= count; i++) {
		char msg[64];
		int n = snprintf(msg, sizeof(msg), "hello #%lu from A", i);

		printf("A sends \"%s\" to B\n", msg);
		demo.sent_at = ipx_loop_now(demo.loop);
		rc = ipx_socket_sendto(demo.a.sock, &demo.b.addr, IPX_TYPE_PEP,
				       msg, (size_t)n);
		want = i;
		if (rc || ipx_loop_run_until(demo.loop, echoed_one, &want,
					     2 * IPX_SEC)) {
			cli_error("demo", "no echo for datagram %lu", i);
			return -1;
		}
	}
	memcpy(all.node, ipx_node_broadcast, IPX_NODE_LEN);
	printf("A broadcasts \"anyone there?\"\n");
	ipx_socket_sendto(demo.a.sock, &all, IPX_TYPE_PEP, "anyone there?", 13);
	if (ipx_loop_run_until(demo.loop, broadcast_done, NULL, 2 * IPX_SEC)) {
		cli_error("demo", "the broadcast did not arrive");
		return -1;
	}
	return 0;
}

int cmd_demo(int argc, char **argv)
{
	struct ipx_hub *hub = NULL;
	struct ipx_capture *cap = NULL;
	const char *pcap = NULL;
	unsigned long count = 5;
	unsigned long long relayed;
	int rc, status = CLI_FAIL;

	rc = demo_opts(argc, argv, &count, &pcap);
	if (rc != CLI_OK)
		return rc < 0 ? CLI_OK : rc;
	memset(&demo, 0, sizeof(demo));
	ipx_log_set_level(IPX_LOG_WARN);
	demo.loop = ipx_loop_new(NULL);
	if (!demo.loop)
		return CLI_FAIL;
	cli_stop_on_signals(demo.loop);
	if (pcap && cli_capture_open("demo", demo.loop, pcap, &cap) != CLI_OK)
		goto out;
	if (demo_start(&hub, cap) < 0 || demo_talk(count) < 0)
		goto out;
	printf("\nhub counters:\n");
	ipx_hub_print_stats(hub, stdout);
	relayed = ipx_hub_stats(hub)->tx_packets;
	printf("\n%lu of %lu datagram%s echoed; the hub relayed %llu packet%s.\n",
	       demo.echoed, count, cli_s(count), relayed, cli_s(relayed));
	status = CLI_OK;
out:
	ipx_node_free(demo.a.node);	/* closes the links first */
	ipx_node_free(demo.b.node);
	ipx_hub_close(hub);
	if (cap && ipx_capture_close(cap) != IPX_OK) {
		cli_error("demo", "--pcap: some packets could not be written");
		status = CLI_FAIL;
	}
	ipx_loop_free(demo.loop);
	return status;
}
