/*
 * cmd_router.h - what the two files of "ipxlab router" share: the router
 * (cmd_router_run.c opens its links, starts RIP, SAP and the responders
 * and runs it) and what the options asked for (cmd_router.c). Private to
 * src/cli.
 */
#ifndef IPXLAB_CLI_CMD_ROUTER_H
#define IPXLAB_CLI_CMD_ROUTER_H

#include "cli.h"
#include "ipxlab/sap.h"

#define MAX_LINKS 8
#define MAX_ADVERTISE 8

struct advert {
	unsigned long type;
	char name[IPX_SAP_NAME_FIELD];
	uint16_t socket;
};

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

/* What the options other than --link asked for. */
struct router_args {
	struct advert adv[MAX_ADVERTISE];
	size_t nadv;
	uint32_t internal;
	double rip_period, sap_period;
};

/* The router of r's link specs, run until a signal; the exit code. */
int router_run(struct router *r, const struct router_args *a,
	       const struct cli_node_opts *no);

#endif
