/*
 * cmd_diag.c - "ipxlab diag [ADDR|--broadcast]": an IPX diagnostics
 * configuration request (docs/diag.md), to one node or broadcast on this
 * network, and every answer: version, components, networks.
 */
#include <getopt.h>
#include <string.h>

#include "cli.h"
#include "ipxlab/err.h"

#define MAX_EXCLUDE 16

void help_diag(FILE *out)
{
	fprintf(out,
		"Send an IPX diagnostics configuration request (socket 456) to\n"
		"ADDR (NET:NODE) or, by default, broadcast it on this network,\n"
		"and print what each node that answers says about itself:\n"
		"version, components and, for routers, their networks. This\n"
		"node leaves itself out (the request's exclusion list). Exit 1\n"
		"if nothing answers.\n\n"
		"  --broadcast         ask every node on this network (default)\n"
		"  -x, --exclude NODE  a node that must not answer (12 hex digits;\n"
		"                      repeatable, up to 16)\n"
		"  -W, --wait-replies SECONDS\n"
		"                      how long to collect answers (default 1)\n"
		CLI_NODE_OPTS_HELP);
}

struct diag_state {
	unsigned long answers, bad;
};

static void print_response(const struct ipx_header *hdr,
			   const struct ipx_diag_response *r)
{
	char a[IPX_ADDR_STRLEN], node[13];

	printf("%s  diagnostics %u.%u, SPX socket %04X, hops %u\n",
	       ipx_addr_format(&hdr->src, a), r->major, r->minor,
	       r->spx_socket, hdr->hops);
	printf("  components:");
	for (size_t i = 0; i < r->count; i++)
		printf("%s %s", i ? "," : "",
		       ipx_diag_component_name(r->comps[i].id));
	printf("\n");
	for (size_t i = 0; i < r->count; i++) {
		static const char *const kinds[] = { "LAN", "virtual", "remote" };

		for (size_t k = 0; k < r->comps[i].nnets; k++) {
			const struct ipx_diag_net *n = &r->comps[i].nets[k];

			printf("  network %08X node %s (%s)\n", (unsigned)n->net,
			       ipx_node_format(n->node, node),
			       n->type < 3 ? kinds[n->type] : "?");
		}
	}
}

static void on_answer(struct ipx_socket *sock, const struct ipx_header *hdr,
		      const uint8_t *data, size_t len, void *ctx)
{
	struct diag_state *st = ctx;
	struct ipx_diag_response r;
	enum ipx_diag_drop why;
	char a[IPX_ADDR_STRLEN];

	(void)sock;
	if (ipx_diag_decode_response(data, len, &r, &why) != IPX_OK) {
		st->bad++;
		fprintf(stderr, "ipxlab diag: %s sent a bad answer (%s)\n",
			ipx_addr_format(&hdr->src, a), ipx_diag_drop_name(why));
		return;
	}
	st->answers++;
	print_response(hdr, &r);
	fflush(stdout);
}

static int parse_node(const char *text, uint8_t node[IPX_NODE_LEN])
{
	struct ipx_addr a;
	char buf[64];

	snprintf(buf, sizeof(buf), "0:%s:0", text);
	if (ipx_addr_parse(buf, &a) != IPX_OK)
		return -1;
	memcpy(node, a.node, IPX_NODE_LEN);
	return 0;
}

int cmd_diag(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "broadcast", no_argument, NULL, 'b' },
		{ "exclude", required_argument, NULL, 'x' },
		{ "wait-replies", required_argument, NULL, 'W' },
		CLI_NODE_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct diag_state st = { 0 };
	struct cli_opts o;
	struct cli_node cn;
	struct ipx_socket *sock;
	struct ipx_addr to = { .socket = IPX_SOCK_DIAG };
	uint8_t excl[MAX_EXCLUDE + 1][IPX_NODE_LEN];
	uint8_t req[1 + (MAX_EXCLUDE + 1) * IPX_NODE_LEN];
	size_t nexcl = 0, n;
	bool bcast = false;
	double wait = 1;
	int opt, rc;

	cli_opts_init(&o, "diag", "bx:W:vqh", longopts, help_diag);
	while ((opt = cli_next_opt(&o, argc, argv)) != CLI_OPTS_END) {
		if (opt == CLI_OPTS_EXIT)
			return o.rc;
		switch (opt) {
		case 'b':
			bcast = true;
			break;
		case 'x':
			if (nexcl == MAX_EXCLUDE ||
			    parse_node(optarg, excl[nexcl]) < 0) {
				cli_error("diag", "--exclude takes a node (12 "
						  "hex digits), at most %d",
					  MAX_EXCLUDE);
				return CLI_USAGE;
			}
			nexcl++;
			break;
		case 'W':
			if (cli_parse_seconds("diag", "--wait-replies", optarg,
					      0.01, 600, &wait) < 0)
				return CLI_USAGE;
			break;
		default:
			return cli_opts_bad(&o, argv);
		}
	}
	if (argc - optind > 1 || (bcast && optind < argc)) {
		cli_error("diag", "ADDR or --broadcast, not both");
		return CLI_USAGE;
	}
	if (optind < argc &&
	    cli_parse_target("diag", argv[optind], IPX_SOCK_DIAG, &to) < 0)
		return CLI_USAGE;
	if (optind == argc)
		memcpy(to.node, ipx_node_broadcast, IPX_NODE_LEN);
	rc = cli_node_open(&cn, &o.node);
	if (rc)
		return rc;
	memcpy(excl[nexcl++], cn.addr.node, IPX_NODE_LEN);
	n = ipx_diag_encode_request((const uint8_t(*)[IPX_NODE_LEN])excl, nexcl,
				    req, sizeof(req));
	rc = cli_open_client_socket(cn.node, on_answer, &st, &sock);
	if (rc == IPX_OK)
		rc = ipx_socket_sendto(sock, &to, 0, req, n);
	if (rc != IPX_OK) {
		cli_error("diag", "cannot send the request: %s",
			  ipx_strerror(rc));
		cli_node_close(&cn);
		return CLI_FAIL;
	}
	ipx_loop_run_for(cn.loop, (ipx_time)(wait * IPX_SEC));
	printf("%lu answer%s\n", st.answers, st.answers == 1 ? "" : "s");
	cli_node_close(&cn);
	return st.answers ? CLI_OK : CLI_FAIL;
}
