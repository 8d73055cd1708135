/*
 * cmd_bridge.h - what the two files of "ipxlab bridge" share: the
 * running bridge (cmd_bridge_run.c: its sides, the packets between them
 * and the trunk, the counters) and the command (cmd_bridge.c: options
 * and side specs). Private to src/cli.
 */
#ifndef IPXLAB_CLI_CMD_BRIDGE_H
#define IPXLAB_CLI_CMD_BRIDGE_H

#include <netinet/in.h>

#include "cli.h"
#include "ipxlab/hub.h"
#include "ipxlab/hub_port.h"
#include "ipxlab/link_profile.h"
#include "ipxlab/wan.h"

struct side {
	struct cli_link_spec spec;
	struct ipx_hub *hub;		/* hub: */
	struct ipx_link *link;		/* eth: */
	struct ipx_hub_port *port;	/* tunnel: */
	struct sockaddr_in tunnel;	/* tunnel: the hub's address */
	uint64_t to_nobody;		/* crossed, but no client has the node */
	uint64_t tx_refused;		/* crossed, but the link refused it */
};

struct bridge_run {
	struct ipx_loop *loop;
	struct ipx_wan *wan;
	struct side side[2];
	bool failed;			/* a tunnel side could not join */
};

/* The trunk's and the sides' counters, to stderr. */
void bridge_print_stats(const struct bridge_run *r);
/* SIGUSR1: the counters; SIGINT, SIGTERM: stop. */
void bridge_on_signal(struct ipx_loop *loop, int signo, void *ctx);
/* What leaves the trunk towards side s. */
void bridge_to_side(unsigned s, const uint8_t *pkt, size_t len, void *ctx);
/* "hub:[ADDR:]PORT" (after the colon) as an address to serve on; -1 if
 * not one. */
int bridge_hub_addr(const char *where, struct sockaddr_in *sa);
/* Side s opened as its spec says; CLI_OK or the exit code. */
int bridge_open_side(struct bridge_run *r, int s, struct ipx_loop *loop,
		     const struct ipx_profile *segment);
/* Everything closed and freed; rc. */
int bridge_close(struct bridge_run *r, struct ipx_loop *loop, int rc);

#endif
