/*
 * cmd_router.c - "ipxlab router --link SPEC --link SPEC...": one node on
 * several links, each its own IPX network, forwarding between them and
 * running RIP and SAP as a router (docs/routing.md). SIGUSR1 prints the
 * routing table, the service table and the counters; SIGINT/SIGTERM take
 * the routes and services down (16 hops) before it exits.
 *
 * Here: the options; the --link syntax is cli_link.c's, the running
 * router cmd_router_run.c's.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_router.h"
#include "ipxlab/err.h"
#include "ipxlab/link_udp.h"

void help_router(FILE *out)
{
	fprintf(out,
		"Route IPX between networks: forward packets (hop count raised,\n"
		"16-hop limit), run RIP and SAP as a router, propagate NetBIOS\n"
		"type-20 broadcasts. Runs until interrupted; SIGUSR1 prints the\n"
		"routing and service tables and the counters to stderr.\n\n"
		"  --link SPEC         a network to route (two or more, up to 8,\n"
		"                      each segment once; or one with\n"
		"                      --internal-net):\n"
		"                        hub:HOST[:PORT],net=NNNNNNNN[,ticks=N]\n"
		"                        eth:IFACE,net=NNNNNNNN[,frame=TYPE][,ticks=N]\n"
		"                      net is the link's IPX network number (hex,\n"
		"                      nonzero, one per link: a hub gives every\n"
		"                      client network 0); ticks its delay (1);\n"
		"                      frame ethernet_ii, 802.3, 802.2, snap or\n"
		"                      auto (default: learn it from the LAN)\n"
		"  --pcap FILE         write every frame of every link to FILE\n"
		"  --internal-net NET  an internal network (hex), as a server has\n"
		"  --advertise TYPE:NAME:SOCKET\n"
		"                      also advertise a service (repeatable)\n"
		"  --rip-period S, --sap-period S\n"
		"                      broadcast intervals (default 60)\n"
		"  --config FILE       SHELL.CFG settings\n"
		"  --wait SECONDS      how long to wait for each hub (default 10)\n"
		"  -v, --verbose       more log lines; -q, --quiet fewer\n");
}

static int parse_advert(const char *text, struct advert *a)
{
	char buf[128], *name, *sock;

	if (strlen(text) >= sizeof(buf))
		return -1;
	strcpy(buf, text);
	name = strchr(buf, ':');
	sock = name ? strrchr(name + 1, ':') : NULL;
	if (!sock)
		return -1;
	*name++ = '\0';
	*sock++ = '\0';
	a->type = strtoul(buf, NULL, 0);
	if (!ipx_sap_name_ok(name) || a->type == 0 || a->type >= 0xFFFF ||
	    ipx_socket_parse(sock, &a->socket) != IPX_OK || a->socket == 0)
		return -1;
	strcpy(a->name, name);
	return 0;
}

/* Do two link specs name the same hub (once resolved) or interface? */
static bool same_segment(const struct cli_link_spec *a,
			 const struct cli_link_spec *b)
{
	struct sockaddr_in x, y;
	char err[256];

	if (strcmp(a->kind, b->kind))
		return false;
	if (!strcmp(a->kind, "eth"))
		return !strcmp(a->where, b->where);
	if (ipx_udp_resolve(a->where, IPX_UDP_DEFAULT_PORT, &x, err,
			    sizeof(err)) != IPX_OK ||
	    ipx_udp_resolve(b->where, IPX_UDP_DEFAULT_PORT, &y, err,
			    sizeof(err)) != IPX_OK)
		return false;	/* open_links says what is wrong */
	return x.sin_addr.s_addr == y.sin_addr.s_addr &&
	       x.sin_port == y.sin_port;
}

enum { OPT_LINK = OPT_FIRST_CMD, OPT_INTERNAL, OPT_ADVERTISE, OPT_RIP_PERIOD,
       OPT_SAP_PERIOD };

/* One --link: parsed, with its network, not a network or segment twice. */
static int add_link(struct router *r, const char *arg)
{
	char err[512];

	if (r->nlinks == MAX_LINKS) {
		cli_error("router", "at most %d links", MAX_LINKS);
		return CLI_USAGE;
	}
	if (cli_link_spec_parse(arg, &r->specs[r->nlinks], err, sizeof(err)) <
	    0) {
		cli_error("router", "--link %s", err);
		return CLI_USAGE;
	}
	if (!r->specs[r->nlinks].net) {
		cli_error("router", "--link '%s': a router's link needs its "
				    "network: ,net=HEX",
			  arg);
		return CLI_USAGE;
	}
	for (size_t i = 0; i < r->nlinks; i++) {
		if (r->specs[i].net == r->specs[r->nlinks].net) {
			cli_error("router", "two links on network %08X: each "
					    "link is its own network",
				  (unsigned)r->specs[i].net);
			return CLI_USAGE;
		}
		if (same_segment(&r->specs[i], &r->specs[r->nlinks])) {
			cli_error("router", "links %zu and %zu both join %s %s: "
					    "a router joins each segment once",
				  i + 1, r->nlinks + 1, r->specs[i].kind,
				  r->specs[i].where);
			return CLI_USAGE;
		}
	}
	r->nlinks++;
	return CLI_OK;
}

/* One option of the router's own; CLI_OK or CLI_USAGE. */
static int router_opt(struct router *r, struct router_args *a,
		      const struct option *longopts, int opt, const char *arg)
{
	switch (opt) {
	case OPT_LINK:
		return add_link(r, arg);
	case OPT_INTERNAL:
		if (cli_parse_hex32(arg, &a->internal) < 0 || !a->internal ||
		    a->internal == 0xFFFFFFFFu) {
			cli_error("router", "--internal-net must be 1 to 8 hex "
					    "digits, not 0 or FFFFFFFF (got "
					    "'%s')",
				  arg);
			return CLI_USAGE;
		}
		return CLI_OK;
	case OPT_ADVERTISE:
		if (a->nadv == MAX_ADVERTISE ||
		    parse_advert(arg, &a->adv[a->nadv]) < 0) {
			cli_error("router", "--advertise takes TYPE:NAME:SOCKET, "
					    "e.g. 4:FS1:451 (at most %d)",
				  MAX_ADVERTISE);
			return CLI_USAGE;
		}
		a->nadv++;
		return CLI_OK;
	default:	/* OPT_RIP_PERIOD, OPT_SAP_PERIOD */
		return cli_parse_seconds("router", longopts[opt - OPT_LINK].name,
					 arg, 0.1, 3600,
					 opt == OPT_RIP_PERIOD ? &a->rip_period
							       : &a->sap_period) < 0
			       ? CLI_USAGE
			       : CLI_OK;
	}
}

/* The links and networks together. */
static int router_check(const struct router *r, const struct router_args *a)
{
	if (r->nlinks < 1) {
		cli_error("router", "needs --link SPEC for each network, e.g. "
				    "--link hub:127.0.0.1:10213,net=0000AA01");
		return CLI_USAGE;
	}
	if (r->nlinks < 2 && !a->internal) {
		cli_error("router", "one --link is one network: a router needs "
				    "two or more (or --internal-net beside "
				    "one link, as a server)");
		return CLI_USAGE;
	}
	for (size_t i = 0; i < r->nlinks; i++) {
		if (a->internal && r->specs[i].net == a->internal) {
			cli_error("router", "--internal-net %08X is a link's "
					    "network too",
				  (unsigned)a->internal);
			return CLI_USAGE;
		}
	}
	return CLI_OK;
}

int cmd_router(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "link", required_argument, NULL, OPT_LINK },
		{ "internal-net", required_argument, NULL, OPT_INTERNAL },
		{ "advertise", required_argument, NULL, OPT_ADVERTISE },
		{ "rip-period", required_argument, NULL, OPT_RIP_PERIOD },
		{ "sap-period", required_argument, NULL, OPT_SAP_PERIOD },
		CLI_NODE_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	static struct router r;	/* large; one per process */
	struct router_args a = { .rip_period = 60, .sap_period = 60 };
	struct cli_opts o;
	int opt, rc;

	memset(&r, 0, sizeof(r));
	cli_opts_init(&o, "router", "vqh", longopts, help_router);
	while ((opt = cli_next_opt(&o, argc, argv)) != CLI_OPTS_END) {
		if (opt == CLI_OPTS_EXIT)
			return o.rc;
		if (opt < OPT_LINK || opt > OPT_SAP_PERIOD)
			return cli_opts_bad(&o, argv);
		if (router_opt(&r, &a, longopts, opt, optarg) != CLI_OK)
			return CLI_USAGE;
	}
	if (optind < argc) {
		cli_error("router", "unexpected argument '%s'", argv[optind]);
		return CLI_USAGE;
	}
	rc = router_check(&r, &a);
	return rc == CLI_OK ? router_run(&r, &a, &o.node) : rc;
}
