/*
 * cmd_sap.c - the SAP commands (docs/sap.md):
 *   "ipxlab slist"            the file servers that answer, as SLIST did;
 *   "ipxlab sap [ADDR]"       every service the network advertises (a
 *                             general query, broadcast or to ADDR);
 *   "ipxlab advertise TYPE NAME SOCKET"
 *                             advertise a service of this node until
 *                             stopped, then take it down (16 hops).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"
#include "ipxlab/sap.h"

#define MAX_SERVICES 1024

void help_slist(FILE *out)
{
	fprintf(out,
		"List the NetWare file servers (SAP type 4) that answer, as\n"
		"SLIST did: a nearest-server query, then a general query. The\n"
		"server that answers the nearest query is marked Default.\n"
		"Exit 1 if none answers.\n\n"
		"  -W, --wait-replies SECONDS\n"
		"                      how long to collect answers (default 1)\n"
		CLI_NODE_OPTS_HELP);
}

void help_sap(FILE *out)
{
	fprintf(out,
		"Ask for the services the network advertises (a SAP general\n"
		"query, broadcast; with ADDR, NET:NODE, only that node's table)\n"
		"and print type, name, address and hops, fewest hops kept per\n"
		"service. Exit 1 if nothing answers. A router prints its whole\n"
		"table on SIGUSR1.\n\n"
		"  --type TYPE         only this service type (e.g. 4 or 0x47)\n"
		"  -W, --wait-replies SECONDS\n"
		"                      how long to collect answers (default 1)\n"
		CLI_NODE_OPTS_HELP);
}

void help_advertise(FILE *out)
{
	fprintf(out,
		"Advertise a service of this node with SAP: TYPE (e.g. 4 for a\n"
		"file server, 0x47 a print server), NAME (1 to 47 printable\n"
		"characters), SOCKET (hex) on this node's address. Broadcast at\n"
		"once and every minute, and nearest/general queries are\n"
		"answered, until interrupted; then it goes down (16 hops).\n\n"
		"  --period SECONDS    broadcast interval (default 60)\n"
		CLI_NODE_OPTS_HELP);
}

struct svc_state {
	struct ipx_sap_entry svc[MAX_SERVICES];
	struct ipx_addr from[MAX_SERVICES];
	size_t n;
	unsigned long answers;
	bool have_default;
	struct ipx_sap_entry def;	/* the nearest-query answer */
};

static void on_response(const struct ipx_header *hdr,
			const struct ipx_sap_msg *msg, void *ctx)
{
	struct svc_state *st = ctx;

	st->answers++;
	for (size_t i = 0; i < msg->count; i++) {
		struct ipx_sap_entry e = msg->entries[i];
		size_t k;

		if (e.hops >= IPX_SAP_DOWN)
			continue;
		/* Network 0 is the sender's: ours, as it is on our segment. */
		if (e.addr.net == 0)
			e.addr.net = hdr->src.net;
		if (msg->op == IPX_SAP_NEAREST_RESPONSE && !st->have_default) {
			st->def = e;
			st->have_default = true;
		}
		for (k = 0; k < st->n; k++)
			if (st->svc[k].type == e.type &&
			    !strcmp(st->svc[k].name, e.name))
				break;
		if (k == MAX_SERVICES)
			continue;
		if (k == st->n)
			st->n++;
		else if (st->svc[k].hops <= e.hops)
			continue;
		st->svc[k] = e;
		st->from[k] = hdr->src;
	}
}

static int by_type_then_name(const void *a, const void *b)
{
	const struct ipx_sap_entry *x = a, *y = b;

	if (x->type != y->type)
		return x->type < y->type ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Shared by slist and sap: options, then join and start SAP. */
struct query_cmd {
	const char *name;
	void (*help)(FILE *out);
	bool takes_addr, takes_type;
	double wait;
	long type;		/* -1: any */
	bool unicast;
	struct ipx_addr to;
	struct cli_node cn;
	struct ipx_sap *sap;
};

static int query_open(struct query_cmd *q, int argc, char **argv,
		      struct svc_state *st)
{
	static const struct option longopts[] = {
		{ "wait-replies", required_argument, NULL, 'W' },
		{ "type", required_argument, NULL, OPT_FIRST_CMD },
		CLI_NODE_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct cli_node_opts no;
	unsigned long v;
	int opt, rc;

	cli_node_opts_init(&no);
	optind = 1;
	while ((opt = getopt_long(argc, argv, "W:vqh", longopts, NULL)) != -1) {
		int r = cli_node_opt(&no, argv[0], opt, optarg);

		if (r < 0)
			return CLI_USAGE;
		if (r > 0)
			continue;
		if (opt == 'W') {
			if (cli_parse_seconds(q->name, "--wait-replies", optarg,
					      0.01, 600, &q->wait) < 0)
				return CLI_USAGE;
		} else if (opt == OPT_FIRST_CMD && q->takes_type) {
			if (cli_parse_uint(q->name, "--type", optarg, 1, 0xFFFE,
					   &v) < 0)
				return CLI_USAGE;
			q->type = (long)v;
		} else if (opt == 'h') {
			cli_usage_line(stdout, q->name);
			q->help(stdout);
			return -1;
		} else {
			return cli_bad_option(q->name, argv, "W:vqh", longopts);
		}
	}
	if (argc - optind > (q->takes_addr ? 1 : 0)) {
		cli_error(q->name, "unexpected argument '%s'", argv[argc - 1]);
		return CLI_USAGE;
	}
	if (optind < argc) {
		if (cli_parse_target(q->name, argv[optind], IPX_SOCK_SAP,
				     &q->to) < 0)
			return CLI_USAGE;
		q->unicast = true;
	}
	rc = cli_node_open(&q->cn, &no);
	if (rc)
		return rc;
	rc = ipx_sap_new(q->cn.node, NULL, &q->sap);
	if (rc != IPX_OK) {
		cli_error(q->name, "cannot start SAP: %s", ipx_strerror(rc));
		cli_node_close(&q->cn);
		return CLI_FAIL;
	}
	ipx_sap_on_response(q->sap, on_response, st);
	return CLI_OK;
}

static int query_send(struct query_cmd *q, uint16_t op)
{
	uint16_t type = q->type < 0 ? IPX_SAP_ANY_TYPE : (uint16_t)q->type;
	int rc = q->unicast ? ipx_sap_query_to(q->sap, &q->to, op, type)
			    : ipx_sap_query(q->sap, op, type);

	if (rc != IPX_OK)
		cli_error(q->name, "cannot send the query: %s",
			  ipx_strerror(rc));
	return rc;
}

static void query_close(struct query_cmd *q)
{
	ipx_sap_free(q->sap);
	cli_node_close(&q->cn);
}

int cmd_slist(int argc, char **argv)
{
	static struct svc_state st;
	struct query_cmd q = { .name = "slist", .help = help_slist,
			       .wait = 1, .type = IPX_SAP_FILE_SERVER };
	char node[13];
	int rc;

	memset(&st, 0, sizeof(st));
	rc = query_open(&q, argc, argv, &st);
	if (rc)
		return rc < 0 ? CLI_OK : rc;
	if (query_send(&q, IPX_SAP_NEAREST_QUERY) != IPX_OK ||
	    query_send(&q, IPX_SAP_GENERAL_QUERY) != IPX_OK) {
		query_close(&q);
		return CLI_FAIL;
	}
	ipx_loop_run_for(q.cn.loop, (ipx_time)(q.wait * IPX_SEC));
	qsort(st.svc, st.n, sizeof(st.svc[0]), by_type_then_name);
	if (st.n) {
		printf("%-47s %-8s  %-12s  %s\n", "Known NetWare File Servers",
		       "Network", "Node Address", "Status");
		printf("%-47s %-8s  %-12s  %s\n", "--------------------------",
		       "-------", "------------", "------");
	}
	for (size_t i = 0; i < st.n; i++) {
		bool def = st.have_default && !strcmp(st.def.name, st.svc[i].name);

		printf("%-47s %08X  %s  %s\n", st.svc[i].name,
		       (unsigned)st.svc[i].addr.net,
		       ipx_node_format(st.svc[i].addr.node, node),
		       def ? "Default" : "");
	}
	if (st.n)
		printf("\nTotal of %zu file server%s found\n", st.n,
		       st.n == 1 ? "" : "s");
	else
		printf("No file servers found\n");
	if (!st.n)
		cli_frame_hint("slist", q.cn.link, q.wait);
	query_close(&q);
	return st.n ? CLI_OK : CLI_FAIL;
}

int cmd_sap(int argc, char **argv)
{
	static struct svc_state st;
	struct query_cmd q = { .name = "sap", .help = help_sap, .wait = 1,
			       .type = -1, .takes_addr = true,
			       .takes_type = true };
	char addr[IPX_ADDR_STRLEN];
	int rc;

	memset(&st, 0, sizeof(st));
	rc = query_open(&q, argc, argv, &st);
	if (rc)
		return rc < 0 ? CLI_OK : rc;
	if (query_send(&q, IPX_SAP_GENERAL_QUERY) != IPX_OK) {
		query_close(&q);
		return CLI_FAIL;
	}
	ipx_loop_run_for(q.cn.loop, (ipx_time)(q.wait * IPX_SEC));
	qsort(st.svc, st.n, sizeof(st.svc[0]), by_type_then_name);
	if (st.n)
		printf("%-6s %-47s %-26s %4s  %s\n", "type", "name", "address",
		       "hops", "kind");
	for (size_t i = 0; i < st.n; i++) {
		const char *kind = ipx_sap_type_name(st.svc[i].type);

		printf("0x%04X %-47s %s %4u  %s\n", st.svc[i].type,
		       st.svc[i].name, ipx_addr_format(&st.svc[i].addr, addr),
		       st.svc[i].hops, kind ? kind : "");
	}
	printf("%lu answer%s, %zu service%s\n", st.answers,
	       st.answers == 1 ? "" : "s", st.n, st.n == 1 ? "" : "s");
	if (!st.n)
		cli_frame_hint("sap", q.cn.link, q.wait);
	query_close(&q);
	return st.n ? CLI_OK : CLI_FAIL;
}

static bool net_known(void *ctx)
{
	return ipx_node_link(ctx, 0)->net != 0;
}

/* TYPE NAME SOCKET, checked; CLI_OK or CLI_USAGE after a message. */
static int advertise_args(int argc, char **argv, unsigned long *type,
			  uint16_t *socket)
{
	if (argc - optind != 3) {
		cli_error("advertise", "needs TYPE NAME SOCKET");
		cli_usage_line(stderr, "advertise");
		return CLI_USAGE;
	}
	if (cli_parse_uint("advertise", "TYPE", argv[optind], 1, 0xFFFE,
			   type) < 0)
		return CLI_USAGE;
	if (!ipx_sap_name_ok(argv[optind + 1])) {
		cli_error("advertise", "NAME must be 1 to %d printable ASCII "
				       "characters (got '%s')",
			  IPX_SAP_NAME_MAX, argv[optind + 1]);
		return CLI_USAGE;
	}
	if (cli_parse_socket("advertise", "SOCKET", argv[optind + 2],
			     socket) < 0)
		return CLI_USAGE;
	return CLI_OK;
}

int cmd_advertise(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "period", required_argument, NULL, OPT_FIRST_CMD },
		CLI_NODE_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct ipx_sap_options so = { 0 };
	struct cli_opts o;
	struct cli_node cn;
	struct ipx_sap *sap = NULL;
	struct ipx_addr at;
	unsigned long type;
	uint16_t socket;
	double period = 60;
	char a[IPX_ADDR_STRLEN];
	int opt, rc;

	cli_opts_init(&o, "advertise", "vqh", longopts, help_advertise);
	while ((opt = cli_next_opt(&o, argc, argv)) != CLI_OPTS_END) {
		if (opt == CLI_OPTS_EXIT)
			return o.rc;
		if (opt != OPT_FIRST_CMD)
			return cli_opts_bad(&o, argv);
		if (cli_parse_seconds("advertise", "--period", optarg, 0.1,
				      3600, &period) < 0)
			return CLI_USAGE;
	}
	if (advertise_args(argc, argv, &type, &socket) != CLI_OK)
		return CLI_USAGE;
	rc = cli_node_open(&cn, &o.node);
	if (rc)
		return rc;
	/* Learn this network's number first, if a router will say it, so
	 * the service is advertised with an address that routes. */
	if (cn.rip && !net_known(cn.node) &&
	    ipx_rip_request(cn.rip, IPX_RIP_ALL_NETS) == IPX_OK)
		ipx_loop_run_until(cn.loop, net_known, cn.node, IPX_SEC / 2);
	so.period = (ipx_time)(period * IPX_SEC);
	rc = ipx_sap_new(cn.node, &so, &sap);
	if (rc == IPX_OK)
		rc = ipx_sap_advertise(sap, (uint16_t)type, argv[optind + 1],
				       socket);
	if (rc != IPX_OK) {
		cli_error("advertise", "cannot advertise: %s", ipx_strerror(rc));
		ipx_sap_free(sap);
		cli_node_close(&cn);
		return CLI_FAIL;
	}
	ipx_node_address(cn.node, &at);
	at.socket = socket;
	fprintf(stderr, "advertising 0x%04lX %s at %s\n", type,
		argv[optind + 1], ipx_addr_format(&at, a));
	rc = ipx_loop_run(cn.loop);
	ipx_sap_shutdown(sap);
	ipx_loop_run_once(cn.loop, 0);	/* let the going-down leave */
	ipx_sap_free(sap);
	cli_node_close(&cn);
	return rc == IPX_OK || rc == IPX_ECLOSED ? CLI_OK : CLI_FAIL;
}
