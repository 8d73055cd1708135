/*
 * cmd_routes.c - "ipxlab routes [ADDR]": a RIP general request, broadcast
 * on this network (or sent to the router at ADDR), and the routes that
 * come back, network by network, best first: what a workstation here
 * would use. A router prints its own whole table on SIGUSR1.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ipxlab/err.h"

#define MAX_ROWS 4096

void help_routes(FILE *out)
{
	fprintf(out,
		"Ask the routers for their routes (a RIP general request) and\n"
		"print what they answer: network, hops, ticks and the router to\n"
		"go through; the best route to each network first. With ADDR\n"
		"(NET:NODE) ask that router only. Exit 1 if nobody answers.\n\n"
		"  -W, --wait-replies SECONDS\n"
		"                      how long to collect answers (default 1)\n"
		CLI_NODE_OPTS_HELP);
}

struct row {
	uint32_t net;
	uint16_t hops, ticks;
	struct ipx_addr router;
};

struct routes_state {
	struct row rows[MAX_ROWS];
	size_t n;
	unsigned long answers;
	/* routes ADDR: only ADDR's answers count (the node's own look-up of
	 * a route to ADDR's network brings other routers' answers too). */
	bool only_from;
	uint8_t from_node[6];
};

static void on_response(const struct ipx_header *hdr,
			const struct ipx_rip_msg *msg, void *ctx)
{
	struct routes_state *st = ctx;

	if (st->only_from && !ipx_node_eq(hdr->src.node, st->from_node))
		return;
	st->answers++;
	for (size_t i = 0; i < msg->count && st->n < MAX_ROWS; i++) {
		struct row *r = &st->rows[st->n];
		size_t k;

		if (msg->entries[i].hops >= IPX_RIP_UNREACHABLE)
			continue;
		/* One row per network and router: the latest word. */
		for (k = 0; k < st->n; k++)
			if (st->rows[k].net == msg->entries[i].net &&
			    ipx_addr_eq(&st->rows[k].router, &hdr->src))
				break;
		r = &st->rows[k];
		r->net = msg->entries[i].net;
		r->hops = msg->entries[i].hops;
		r->ticks = msg->entries[i].ticks;
		r->router = hdr->src;
		if (k == st->n)
			st->n++;
	}
}

static int by_net_then_metric(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->net != y->net)
		return x->net < y->net ? -1 : 1;
	if (x->ticks != y->ticks)
		return x->ticks < y->ticks ? -1 : 1;
	return (x->hops > y->hops) - (x->hops < y->hops);
}

/* The routes heard, sorted, the best of each network first. */
static void print_routes(struct routes_state *st, const struct cli_node *cn)
{
	char a[IPX_ADDR_STRLEN];

	qsort(st->rows, st->n, sizeof(st->rows[0]), by_net_then_metric);
	if (ipx_node_link(cn->node, 0)->net)
		printf("this network is %08X\n",
		       (unsigned)ipx_node_link(cn->node, 0)->net);
	if (!st->n)
		return;
	printf("%-8s %4s %5s  %s\n", "network", "hops", "ticks", "router");
	for (size_t i = 0; i < st->n; i++) {
		bool best = i == 0 || st->rows[i - 1].net != st->rows[i].net;

		ipx_addr_format(&st->rows[i].router, a);
		a[21] = '\0';	/* NET:NODE */
		printf("%08X %4u %5u  %s%s\n", (unsigned)st->rows[i].net,
		       st->rows[i].hops, st->rows[i].ticks, a,
		       best ? "" : " (alternative)");
	}
}

int cmd_routes(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "wait-replies", required_argument, NULL, 'W' },
		CLI_NODE_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	static struct routes_state st;
	struct cli_opts o;
	struct cli_node cn;
	struct ipx_addr to;
	bool unicast = false;
	double wait = 1;
	int opt, rc;

	memset(&st, 0, sizeof(st));
	cli_opts_init(&o, "routes", "W:vqh", longopts, help_routes);
	while ((opt = cli_next_opt(&o, argc, argv)) != CLI_OPTS_END) {
		if (opt == CLI_OPTS_EXIT)
			return o.rc;
		if (opt != 'W')
			return cli_opts_bad(&o, argv);
		if (cli_parse_seconds("routes", "--wait-replies", optarg, 0.01,
				      600, &wait) < 0)
			return CLI_USAGE;
	}
	if (argc - optind > 1) {
		cli_error("routes", "one ADDR at most");
		return CLI_USAGE;
	}
	if (optind < argc) {
		if (cli_parse_target("routes", argv[optind], IPX_SOCK_RIP, &to) < 0)
			return CLI_USAGE;
		unicast = true;
		if (!ipx_node_is_broadcast(to.node)) {
			st.only_from = true;
			memcpy(st.from_node, to.node, sizeof(st.from_node));
		}
	}
	rc = cli_node_open(&cn, &o.node);
	if (rc)
		return rc;
	if (!cn.rip) {
		cli_error("routes", "RIP could not start (see above)");
		cli_node_close(&cn);
		return CLI_FAIL;
	}
	ipx_rip_on_response(cn.rip, on_response, &st);
	rc = unicast ? ipx_rip_request_to(cn.rip, &to, IPX_RIP_ALL_NETS)
		     : ipx_rip_request(cn.rip, IPX_RIP_ALL_NETS);
	if (rc != IPX_OK) {
		cli_error("routes", "cannot send the request: %s",
			  ipx_strerror(rc));
		cli_node_close(&cn);
		return CLI_FAIL;
	}
	ipx_loop_run_for(cn.loop, (ipx_time)(wait * IPX_SEC));
	print_routes(&st, &cn);
	printf("%lu answer%s, %zu route%s\n", st.answers,
	       st.answers == 1 ? "" : "s", st.n, st.n == 1 ? "" : "s");
	if (!st.answers)
		cli_frame_hint("routes", cn.link, wait);
	cli_node_close(&cn);
	return st.answers ? CLI_OK : CLI_FAIL;
}
