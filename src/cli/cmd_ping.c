/*
 * cmd_ping.c - "ipxlab ping [ADDR]".
 *
 * Without ADDR: DOSBox's IPXNET PING. A 30-byte packet to the broadcast
 * node on socket 2; every DOSBox-compatible client (DOSBox itself, ipxlab
 * nodes) answers to our node on socket 2. One line per answer, then a
 * summary; exit 0 if anyone answered.
 *
 * With ADDR: Novell IPX ping (socket 0x9086, docs/diag.md), to one node on
 * any network, routers included, like ping(8): a line per reply with its
 * time and hops, then loss and min/avg/max/p99.
 *
 * Both: the summary is the last line; a reply later than the last request
 * plus --linger is neither printed nor counted. Exit status as ping(8):
 * 0 if at least one reply came, 1 if none did, 2 for bad usage.
 */
#include <arpa/inet.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ipxlab/err.h"

void help_ping(FILE *out)
{
	fprintf(out,
		"       ipxlab ping ADDR [options]\n\n"
		"Without ADDR: broadcast DOSBox-style echo requests and list who\n"
		"answers, with the round-trip time of each answer.\n"
		"With ADDR (NET:NODE[:SOCKET], socket 9086 by default): Novell\n"
		"IPX pings to that node, across routers too, a line per reply and\n"
		"then min/avg/max/p99 like ping(8); until interrupted unless -c.\n"
		"The summary is the last line. Exit status as ping(8): 0 if any\n"
		"reply came, 1 if none did, 2 for bad usage.\n\n"
		"  -c, --count N       requests to send (default 3; with ADDR:\n"
		"                      until interrupted)\n"
		"  -i, --interval SECONDS\n"
		"                      between requests (default 1)\n"
		"  -s, --size BYTES    data bytes per Novell ping (default 32)\n"
		"  -W, --linger SECONDS\n"
		"                      wait after the last request (default 1);\n"
		"                      later replies are not counted\n" CLI_NODE_OPTS_HELP);
}

/* ---- Novell ping ---- */

#define RING 4096	/* requests remembered for their replies */

struct nping {
	struct cli_node *cn;
	struct ipx_socket *sock;
	struct ipx_addr dst;
	uint8_t pattern[IPX_MAX_PACKET];
	size_t size;
	unsigned long sent, received, dups, corrupt;
	struct {
		uint16_t id;
		bool used, answered;
		ipx_time at;
	} ring[RING];
	double *rtt;
	size_t nrtt, caprtt;
};

static void on_pong(struct ipx_socket *sock, const struct ipx_header *hdr,
		    const uint8_t *data, size_t len, void *ctx)
{
	struct nping *np = ctx;
	struct ipx_ping p;
	char a[IPX_ADDR_STRLEN];
	double ms;
	bool dup, bad;

	(void)sock;
	if (ipx_ping_decode(data, len, &p, NULL) != IPX_OK ||
	    p.type != IPX_PING_REPLY || !np->ring[p.id % RING].used ||
	    np->ring[p.id % RING].id != p.id)
		return;		/* not an answer to us */
	ms = (double)(ipx_loop_now(np->cn->loop) - np->ring[p.id % RING].at) /
	     IPX_MSEC;
	dup = np->ring[p.id % RING].answered;
	bad = p.len != np->size || (p.len && memcmp(p.data, np->pattern, p.len));
	if (dup) {
		np->dups++;
	} else {
		np->ring[p.id % RING].answered = true;
		np->received++;
		if (np->nrtt == np->caprtt) {
			size_t cap = np->caprtt ? np->caprtt * 2 : 64;
			double *v = realloc(np->rtt, cap * sizeof(*v));

			if (v) {
				np->rtt = v;
				np->caprtt = cap;
			}
		}
		if (np->nrtt < np->caprtt)
			np->rtt[np->nrtt++] = ms;
	}
	if (bad)
		np->corrupt++;
	printf("%zu bytes from %s: id=%u hops=%u time=%.3f ms%s%s\n", len,
	       ipx_addr_format(&hdr->src, a), p.id, hdr->hops, ms,
	       dup ? " (DUP!)" : "", bad ? " (data differs)" : "");
	fflush(stdout);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void nping_summary(struct nping *np, ipx_time took)
{
	char a[IPX_ADDR_STRLEN];
	double sum = 0;

	printf("\n--- %s ping statistics ---\n", ipx_addr_format(&np->dst, a));
	printf("%lu sent, %lu received", np->sent, np->received);
	if (np->dups)
		printf(", +%lu duplicate%s", np->dups, cli_s(np->dups));
	if (np->corrupt)
		printf(", %lu with wrong data", np->corrupt);
	printf(", %.0f%% loss, time %.0f ms\n",
	       np->sent ? 100.0 * (double)(np->sent - np->received) /
				  (double)np->sent
			: 0.0,
	       (double)took / IPX_MSEC);
	if (!np->nrtt)
		return;
	qsort(np->rtt, np->nrtt, sizeof(np->rtt[0]), cmp_double);
	for (size_t i = 0; i < np->nrtt; i++)
		sum += np->rtt[i];
	/* p99 by nearest rank. */
	printf("rtt min/avg/max/p99 = %.3f/%.3f/%.3f/%.3f ms\n", np->rtt[0],
	       sum / (double)np->nrtt, np->rtt[np->nrtt - 1],
	       np->rtt[(size_t)ceil(0.99 * (double)np->nrtt) - 1]);
}

static int novell_ping(const struct cli_node_opts *no,
		       const struct ipx_addr *dst, unsigned long count,
		       double interval, double linger, size_t size)
{
	static struct nping np;
	struct cli_node cn;
	uint8_t pkt[IPX_MAX_PACKET];
	char a[IPX_ADDR_STRLEN];
	ipx_time start;
	int rc;

	memset(&np, 0, sizeof(np));
	rc = cli_node_open(&cn, no);
	if (rc)
		return rc;
	np.cn = &cn;
	np.dst = *dst;
	np.size = size;
	if (size + IPX_PING_HDR_LEN > ipx_node_max_payload(cn.node, dst)) {
		cli_error("ping", "--size %zu is more than a datagram here "
				  "carries (%zu)",
			  size, ipx_node_max_payload(cn.node, dst) -
					IPX_PING_HDR_LEN);
		cli_node_close(&cn);
		return CLI_USAGE;
	}
	for (size_t i = 0; i < size; i++)
		np.pattern[i] = (uint8_t)('a' + i % 26);
	rc = cli_open_client_socket(cn.node, on_pong, &np, &np.sock);
	if (rc != IPX_OK) {
		cli_error("ping", "cannot open a socket: %s", ipx_strerror(rc));
		cli_node_close(&cn);
		return CLI_FAIL;
	}
	printf("PING %s: %zu data bytes\n", ipx_addr_format(dst, a), size);
	fflush(stdout);
	start = ipx_loop_now(cn.loop);
	for (unsigned long seq = 1; !count || seq <= count; seq++) {
		uint16_t id = (uint16_t)seq;
		size_t n = ipx_ping_encode(IPX_PING_REQUEST, id, np.pattern,
					   size, pkt, sizeof(pkt));

		np.ring[id % RING].id = id;
		np.ring[id % RING].used = true;
		np.ring[id % RING].answered = false;
		np.ring[id % RING].at = ipx_loop_now(cn.loop);
		rc = ipx_socket_sendto(np.sock, dst, IPX_TYPE_PEP, pkt, n);
		if (rc != IPX_OK)
			cli_error("ping", "id=%u: %s", id, ipx_strerror(rc));
		else
			np.sent++;
		rc = ipx_loop_run_for(cn.loop,
				      (ipx_time)((count && seq == count
							  ? linger
							  : interval) *
						 IPX_SEC));
		if (rc == IPX_ECLOSED || ipx_loop_stopped(cn.loop))
			break;
	}
	/* What comes after the summary is not counted or printed. */
	ipx_socket_close(np.sock);
	nping_summary(&np, ipx_loop_now(cn.loop) - start);
	free(np.rtt);
	cli_node_close(&cn);
	return np.received ? CLI_OK : CLI_FAIL;
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

/* Without ADDR: DOSBox's broadcast echo on socket 2, count requests;
 * the exit code. */
static int echo_ping(const struct cli_node_opts *no, unsigned long count,
		     double interval, double linger)
{
	struct ping_state st = { 0 };
	struct ipx_addr bcast = { .socket = IPX_SOCK_ECHO };
	struct cli_node cn;
	int rc;

	rc = cli_node_open(&cn, no);
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
	ipx_socket_close(st.sock);	/* nothing after the summary */
	unsigned asked = st.seq - 1 < count ? st.seq : (unsigned)count;

	printf("%u request%s, %lu repl%s from %zu node%s", asked, cli_s(asked),
	       st.replies, st.replies == 1 ? "y" : "ies", st.npeers,
	       cli_s(st.npeers));
	if (st.replies)
		printf(", rtt min/avg/max %.3f/%.3f/%.3f ms", st.min_ms,
		       st.sum_ms / (double)st.replies, st.max_ms);
	printf("\n");
	cli_node_close(&cn);
	return st.replies ? CLI_OK : CLI_FAIL;
}

int cmd_ping(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "interval", required_argument, NULL, 'i' },
		{ "linger", required_argument, NULL, 'W' },
		{ "size", required_argument, NULL, 's' },
		CLI_NODE_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct cli_opts o;
	unsigned long count = 3, size = 32;
	double interval = 1, linger = 1;
	bool count_set = false, size_set = false;
	struct ipx_addr target;
	int opt;

	cli_opts_init(&o, "ping", "c:i:W:s:vqh", longopts, help_ping);
	while ((opt = cli_next_opt(&o, argc, argv)) != CLI_OPTS_END) {
		if (opt == CLI_OPTS_EXIT)
			return o.rc;
		switch (opt) {
		case 'c':
			if (cli_parse_uint("ping", "--count", optarg, 1, 1000000,
					   &count) < 0)
				return CLI_USAGE;
			count_set = true;
			break;
		case 's':
			if (cli_parse_uint("ping", "--size", optarg, 0,
					   IPX_LAN_PACKET, &size) < 0)
				return CLI_USAGE;
			size_set = true;
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
		default:
			return cli_opts_bad(&o, argv);
		}
	}
	if (argc - optind > 1) {
		cli_error("ping", "one ADDR at most");
		return CLI_USAGE;
	}
	if (optind < argc) {
		if (cli_parse_target("ping", argv[optind], IPX_SOCK_PING,
				     &target) < 0)
			return CLI_USAGE;
		return novell_ping(&o.node, &target, count_set ? count : 0,
				   interval, linger, size);
	}
	if (size_set) {
		cli_error("ping", "--size is for Novell pings to an ADDR");
		return CLI_USAGE;
	}
	return echo_ping(&o.node, count, interval, linger);
}
