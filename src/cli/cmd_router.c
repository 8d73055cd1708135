/*
 * cmd_router.c - "ipxlab router --link SPEC --link SPEC...": one node on
 * several links, each its own IPX network, forwarding between them and
 * running RIP and SAP as a router (docs/routing.md). SIGUSR1 prints the
 * routing table, the service table and the counters; SIGINT/SIGTERM take
 * the routes and services down (16 hops) before it exits.
 *
 * The --link syntax it reads is cli_link.c's.
 */
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ipxlab/err.h"
#include "ipxlab/link_udp.h"
#include "ipxlab/log.h"
#include "ipxlab/sap.h"

#define MAX_LINKS 8
#define MAX_ADVERTISE 8

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

struct advert {
	unsigned long type;
	char name[IPX_SAP_NAME_FIELD];
	uint16_t socket;
};

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

struct router {
	struct ipx_loop *loop;
	struct ipx_node *node;
	struct ipx_config cfg;
	struct ipx_rip *rip;
	struct ipx_sap *sap;
	struct ipx_diag *diag;
	struct ipx_ping_responder *pong;
	struct ipx_link *links[MAX_LINKS];
	struct cli_link_spec specs[MAX_LINKS];
	size_t nlinks;
	struct ipx_capture *cap;	/* --pcap */
};

static void print_all(const struct router *r)
{
	fprintf(stderr, "--- routes\n");
	ipx_rip_print(r->rip, stderr);
	fprintf(stderr, "--- services\n");
	ipx_sap_print(r->sap, stderr);
	fprintf(stderr, "--- node\n");
	ipx_node_print_stats(r->node, stderr, true);
	fflush(stderr);
}

static void on_signal(struct ipx_loop *loop, int signo, void *ctx)
{
	if (signo == SIGUSR1)
		print_all(ctx);
	else
		ipx_loop_stop(loop);
}

static bool links_ready(void *ctx)
{
	struct router *r = ctx;

	for (size_t i = 0; i < r->nlinks; i++)
		if (!r->links[i]->up && !cli_link_failed(r->links[i]))
			return false;
	return true;
}

static void router_close(struct router *r)
{
	ipx_sap_free(r->sap);
	ipx_rip_free(r->rip);
	ipx_diag_free(r->diag);
	ipx_ping_responder_free(r->pong);
	ipx_node_free(r->node);
	if (ipx_capture_close(r->cap) != IPX_OK)
		cli_error("router", "--pcap: some packets could not be "
				    "written");
	ipx_loop_free(r->loop);
}

/* Join every hub; each link then takes its configured network. */
static int open_links(struct router *r, double wait)
{
	struct ipx_udp_options uo = { .register_timeout =
					      (ipx_time)(wait * IPX_SEC) };
	char err[512];
	int rc;

	for (size_t i = 0; i < r->nlinks; i++) {
		struct sockaddr_in server;

		if (!strcmp(r->specs[i].kind, "eth")) {
			rc = cli_eth_open("router", r->loop, &r->specs[i],
					  false, &r->links[i]);
			if (rc != CLI_OK)
				return rc;
		} else if (ipx_udp_resolve(r->specs[i].where,
					   IPX_UDP_DEFAULT_PORT, &server, err,
					   sizeof(err)) != IPX_OK) {
			cli_error("router", "--link %s", err);
			return CLI_USAGE;
		} else if ((rc = ipx_udp_link_open(r->loop, &server, &uo,
						   &r->links[i])) != IPX_OK) {
			cli_error("router", "cannot open link %zu: %s", i + 1,
				  ipx_strerror(rc));
			return CLI_FAIL;
		}
		if (r->cap)
			ipx_capture_attach(r->cap, r->links[i]);
		rc = ipx_node_add_link(r->node, r->links[i]);
		if (rc != IPX_OK) {
			cli_error("router", "cannot open link %zu: %s", i + 1,
				  ipx_strerror(rc));
			if (r->links[i] && !ipx_node_link_count(r->node))
				ipx_link_close(r->links[i]);
			return CLI_FAIL;
		}
		ipx_node_set_link_ticks(r->node, r->links[i],
					r->specs[i].ticks);
	}
	rc = ipx_loop_run_until(r->loop, links_ready, r,
				uo.register_timeout);
	for (size_t i = 0; i < r->nlinks; i++) {
		char node[13];

		if (!r->links[i]->up) {
			if (rc != IPX_ECLOSED)
				cli_no_hub("router", r->links[i],
					   r->specs[i].where, wait);
			return CLI_FAIL;
		}
		r->links[i]->net = r->specs[i].net;
		ipx_info("router: network %08X on %s %s as node %s (%u tick%s)",
			 (unsigned)r->specs[i].net, r->specs[i].kind,
			 r->specs[i].where,
			 ipx_node_format(r->links[i]->node, node),
			 r->specs[i].ticks, r->specs[i].ticks == 1 ? "" : "s");
	}
	return CLI_OK;
}

static int start_services(struct router *r, uint32_t internal,
			  double rip_period, double sap_period,
			  const struct advert *adv, size_t nadv)
{
	struct ipx_rip_options ro = { .router = true,
				      .period = (ipx_time)(rip_period * IPX_SEC) };
	struct ipx_sap_options so = { .router = true,
				      .period = (ipx_time)(sap_period * IPX_SEC) };
	int rc = internal ? ipx_node_set_internal_net(r->node, internal)
			  : IPX_OK;

	if (rc != IPX_OK) {
		cli_error("router", "--internal-net %08X: %s", (unsigned)internal,
			  rc == IPX_EINUSE ? "a link has that network"
					   : ipx_strerror(rc));
		return CLI_USAGE;
	}
	rc = ipx_rip_new(r->node, &ro, &r->rip);
	if (rc == IPX_OK)
		rc = ipx_sap_new(r->node, &so, &r->sap);
	if (rc == IPX_OK)
		rc = ipx_diag_new(r->node, &r->diag);
	if (rc == IPX_OK)
		rc = ipx_ping_responder_new(r->node, &r->pong);
	for (size_t i = 0; rc == IPX_OK && i < nadv; i++)
		rc = ipx_sap_advertise(r->sap, (uint16_t)adv[i].type,
				       adv[i].name, adv[i].socket);
	if (rc != IPX_OK) {
		cli_error("router", "cannot start RIP, SAP and the responders: "
				    "%s",
			  ipx_strerror(rc));
		return CLI_FAIL;
	}
	return CLI_OK;
}

enum { OPT_LINK = OPT_FIRST_CMD, OPT_INTERNAL, OPT_ADVERTISE, OPT_RIP_PERIOD,
       OPT_SAP_PERIOD };

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
	static const int sigs[] = { SIGINT, SIGTERM, SIGUSR1 };
	struct router r;
	struct cli_opts o;
	struct advert adv[MAX_ADVERTISE];
	size_t nadv = 0;
	uint32_t internal = 0;
	double rip_period = 60, sap_period = 60;
	char err[512];
	int opt, rc;

	memset(&r, 0, sizeof(r));
	cli_opts_init(&o, "router", "vqh", longopts, help_router);
	while ((opt = cli_next_opt(&o, argc, argv)) != CLI_OPTS_END) {
		if (opt == CLI_OPTS_EXIT)
			return o.rc;
		switch (opt) {
		case OPT_LINK:
			if (r.nlinks == MAX_LINKS) {
				cli_error("router", "at most %d links",
					  MAX_LINKS);
				return CLI_USAGE;
			}
			if (cli_link_spec_parse(optarg, &r.specs[r.nlinks], err,
						sizeof(err)) < 0) {
				cli_error("router", "--link %s", err);
				return CLI_USAGE;
			}
			if (!r.specs[r.nlinks].net) {
				cli_error("router", "--link '%s': a router's "
						    "link needs its network: "
						    ",net=HEX",
					  optarg);
				return CLI_USAGE;
			}
			for (size_t i = 0; i < r.nlinks; i++) {
				if (r.specs[i].net == r.specs[r.nlinks].net) {
					cli_error("router",
						  "two links on network %08X: "
						  "each link is its own network",
						  (unsigned)r.specs[i].net);
					return CLI_USAGE;
				}
				if (same_segment(&r.specs[i],
						 &r.specs[r.nlinks])) {
					cli_error("router",
						  "links %zu and %zu both join "
						  "%s %s: a router joins each "
						  "segment once",
						  i + 1, r.nlinks + 1,
						  r.specs[i].kind,
						  r.specs[i].where);
					return CLI_USAGE;
				}
			}
			r.nlinks++;
			break;
		case OPT_INTERNAL:
			if (cli_parse_hex32(optarg, &internal) < 0 || !internal ||
			    internal == 0xFFFFFFFFu) {
				cli_error("router", "--internal-net must be 1 to "
						    "8 hex digits, not 0 or "
						    "FFFFFFFF (got '%s')",
					  optarg);
				return CLI_USAGE;
			}
			break;
		case OPT_ADVERTISE:
			if (nadv == MAX_ADVERTISE ||
			    parse_advert(optarg, &adv[nadv]) < 0) {
				cli_error("router", "--advertise takes "
						    "TYPE:NAME:SOCKET, e.g. "
						    "4:FS1:451 (at most %d)",
					  MAX_ADVERTISE);
				return CLI_USAGE;
			}
			nadv++;
			break;
		case OPT_RIP_PERIOD:
		case OPT_SAP_PERIOD:
			if (cli_parse_seconds("router", longopts[opt - OPT_LINK].name,
					      optarg, 0.1, 3600,
					      opt == OPT_RIP_PERIOD
						      ? &rip_period
						      : &sap_period) < 0)
				return CLI_USAGE;
			break;
		default:
			return cli_opts_bad(&o, argv);
		}
	}
	if (optind < argc) {
		cli_error("router", "unexpected argument '%s'", argv[optind]);
		return CLI_USAGE;
	}
	if (r.nlinks < 1) {
		cli_error("router", "needs --link SPEC for each network, e.g. "
				    "--link hub:127.0.0.1:10213,net=0000AA01");
		return CLI_USAGE;
	}
	if (r.nlinks < 2 && !internal) {
		cli_error("router", "one --link is one network: a router needs "
				    "two or more (or --internal-net beside "
				    "one link, as a server)");
		return CLI_USAGE;
	}
	for (size_t i = 0; i < r.nlinks; i++) {
		if (internal && r.specs[i].net == internal) {
			cli_error("router", "--internal-net %08X is a link's "
					    "network too",
				  (unsigned)internal);
			return CLI_USAGE;
		}
	}
	ipx_config_defaults(&r.cfg);
	if (o.node.config &&
	    ipx_config_load(&r.cfg, o.node.config, err, sizeof(err)) != IPX_OK) {
		cli_error("router", "%s", err);
		return CLI_FAIL;
	}
	r.loop = ipx_loop_new(NULL);
	r.node = r.loop ? ipx_node_new(r.loop, &r.cfg) : NULL;
	if (!r.node) {
		cli_error("router", "out of memory");
		router_close(&r);
		return CLI_FAIL;
	}
	signal(SIGPIPE, SIG_IGN);
	ipx_loop_watch_signals(r.loop, sigs, 3, on_signal, &r);
	if (o.node.pcap && (rc = cli_capture_open("router", r.loop, o.node.pcap,
					      &r.cap)) != CLI_OK) {
		router_close(&r);
		return rc;
	}
	rc = open_links(&r, o.node.register_timeout);
	if (rc == CLI_OK)
		rc = start_services(&r, internal, rip_period, sap_period, adv,
				    nadv);
	if (rc != CLI_OK) {
		router_close(&r);
		return rc;
	}
	ipx_info("router: routing between %zu network%s%s", r.nlinks,
		 r.nlinks == 1 ? "" : "s",
		 internal ? " and an internal network" : "");
	rc = ipx_loop_run(r.loop);
	ipx_info("router: stopping; routes and services go down");
	ipx_sap_shutdown(r.sap);
	ipx_rip_shutdown(r.rip);
	ipx_loop_run_once(r.loop, 0);	/* let them leave */
	print_all(&r);
	router_close(&r);
	return rc == IPX_OK || rc == IPX_ECLOSED ? CLI_OK : CLI_FAIL;
}
