/*
 * cmd_router_run.c - the running "ipxlab router": one node on every link,
 * RIP and SAP as a router, the diagnostics and ping responders; SIGUSR1
 * prints the tables and counters, SIGINT/SIGTERM take the routes and
 * services down (16 hops) before it exits.
 */
#include <signal.h>
#include <string.h>

#include "cmd_router.h"
#include "ipxlab/err.h"
#include "ipxlab/link_udp.h"
#include "ipxlab/log.h"

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

int router_run(struct router *r, const struct router_args *a,
	       const struct cli_node_opts *no)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGUSR1 };
	char err[512];
	int rc;

	ipx_config_defaults(&r->cfg);
	if (no->config &&
	    ipx_config_load(&r->cfg, no->config, err, sizeof(err)) != IPX_OK) {
		cli_error("router", "%s", err);
		return CLI_FAIL;
	}
	r->loop = ipx_loop_new(NULL);
	r->node = r->loop ? ipx_node_new(r->loop, &r->cfg) : NULL;
	if (!r->node) {
		cli_error("router", "out of memory");
		router_close(r);
		return CLI_FAIL;
	}
	signal(SIGPIPE, SIG_IGN);
	ipx_loop_watch_signals(r->loop, sigs, 3, on_signal, r);
	if (no->pcap && (rc = cli_capture_open("router", r->loop, no->pcap,
					       &r->cap)) != CLI_OK) {
		router_close(r);
		return rc;
	}
	rc = open_links(r, no->register_timeout);
	if (rc == CLI_OK)
		rc = start_services(r, a->internal, a->rip_period,
				    a->sap_period, a->adv, a->nadv);
	if (rc != CLI_OK) {
		router_close(r);
		return rc;
	}
	ipx_info("router: routing between %zu network%s%s", r->nlinks,
		 r->nlinks == 1 ? "" : "s",
		 a->internal ? " and an internal network" : "");
	rc = ipx_loop_run(r->loop);
	ipx_info("router: stopping; routes and services go down");
	ipx_sap_shutdown(r->sap);
	ipx_rip_shutdown(r->rip);
	ipx_loop_run_once(r->loop, 0);	/* let them leave */
	print_all(r);
	router_close(r);
	return rc == IPX_OK || rc == IPX_ECLOSED ? CLI_OK : CLI_FAIL;
}
