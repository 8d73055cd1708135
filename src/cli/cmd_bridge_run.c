/*
 * cmd_bridge_run.c - the running "ipxlab bridge": each side opened (a
 * hub served, a hub joined as a bridge port, an Ethernet interface), its
 * packets into the trunk and the trunk's out to the other side, the
 * counters on SIGUSR1 and at exit.
 */
#include <arpa/inet.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_bridge.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"

void bridge_print_stats(const struct bridge_run *r)
{
	ipx_wan_print_stats(r->wan, stderr);
	for (int s = 0; s < 2; s++) {
		const struct side *d = &r->side[s];

		fprintf(stderr, "# side %c: %s:%s\ncrossed_to_nobody %llu\n"
				"drop_crossed_tx_refused %llu\n",
			s ? 'b' : 'a', d->spec.kind, d->spec.where,
			(unsigned long long)d->to_nobody,
			(unsigned long long)d->tx_refused);
		if (d->hub)
			ipx_hub_print_stats(d->hub, stderr);
		else if (d->port)
			ipx_hub_port_print_stats(d->port, stderr);
		else if (d->link)
			fprintf(stderr, "rx_packets %llu\ntx_packets %llu\n"
					"tx_errors %llu\n",
				(unsigned long long)d->link->stats.rx_packets,
				(unsigned long long)d->link->stats.tx_packets,
				(unsigned long long)d->link->stats.tx_errors);
	}
}

void bridge_on_signal(struct ipx_loop *loop, int signo, void *ctx)
{
	if (signo == SIGUSR1) {
		bridge_print_stats(ctx);
		return;
	}
	ipx_loop_stop(loop);
}

static void from_hub_a(const uint8_t *pkt, size_t len, void *ctx)
{
	ipx_wan_input(((struct bridge_run *)ctx)->wan, 0, pkt, len);
}

static void from_hub_b(const uint8_t *pkt, size_t len, void *ctx)
{
	ipx_wan_input(((struct bridge_run *)ctx)->wan, 1, pkt, len);
}

static void from_link(struct ipx_link *link, const uint8_t *pkt, size_t len,
		      void *ctx)
{
	struct bridge_run *r = ctx;

	ipx_wan_input(r->wan, link == r->side[1].link, pkt, len);
}

static void from_port(struct ipx_hub_port *p, const uint8_t *pkt, size_t len,
		      void *ctx)
{
	struct bridge_run *r = ctx;

	ipx_wan_input(r->wan, p == r->side[1].port, pkt, len);
}

static void port_state(struct ipx_hub_port *p, enum ipx_hub_port_state st,
		       void *ctx)
{
	struct bridge_run *r = ctx;
	int s = p == r->side[1].port;
	const char *where = r->side[s].spec.where;
	char n[13];
	uint8_t node[6];

	switch (st) {
	case IPX_HUB_PORT_UP:
		ipx_hub_port_node(p, node);
		ipx_info("bridge: side %c is a bridge port on the hub at %s "
			 "(node %s)",
			 s ? 'B' : 'A', where, ipx_node_format(node, n));
		return;
	case IPX_HUB_PORT_NO_ANSWER:
		cli_error("bridge", "side %c: no answer from an IPX tunnel "
				    "server at %s (is 'ipxlab hub' running "
				    "there?)",
			  s ? 'B' : 'A', where);
		break;
	case IPX_HUB_PORT_UNSUPPORTED:
		cli_error("bridge", "side %c: the tunnel server at %s took the "
				    "registration but never answered the "
				    "bridge-port announcement (it needs an "
				    "'ipxlab hub' with bridge ports, not "
				    "DOSBox's server or an older ipxlab)",
			  s ? 'B' : 'A', where);
		break;
	case IPX_HUB_PORT_REFUSED:
		cli_error("bridge", "side %c: the hub at %s refuses this "
				    "address as a bridge port (see its "
				    "--allow-bridge)",
			  s ? 'B' : 'A', where);
		break;
	default:
		return;
	}
	r->failed = true;
	ipx_loop_stop(r->loop);
}

/* A frame the trunk carried, onto its side. */
void bridge_to_side(unsigned s, const uint8_t *pkt, size_t len, void *ctx)
{
	struct side *d = &((struct bridge_run *)ctx)->side[s];

	if (d->hub) {
		/* A flooded unicast for a node not there: on a real LAN it
		 * would go by unread. */
		if (ipx_hub_deliver(d->hub, pkt, len) == 0)
			d->to_nobody++;
	} else if (d->port) {
		/* Not up (yet, or any more): counted by the port too. */
		if (ipx_hub_port_send(d->port, pkt, len) != IPX_OK)
			d->tx_refused++;
	} else if (ipx_link_send(d->link, pkt, len, pkt + 10) != IPX_OK) {
		d->tx_refused++;
	}
}

/* "hub:[ADDR:]PORT" as an address to serve on. */
int bridge_hub_addr(const char *where, struct sockaddr_in *sa)
{
	char ip[64] = "0.0.0.0";
	const char *colon = strrchr(where, ':');
	unsigned long port;
	char *end;

	if (colon) {
		if ((size_t)(colon - where) >= sizeof(ip))
			return -1;
		memcpy(ip, where, (size_t)(colon - where));
		ip[colon - where] = '\0';
		where = colon + 1;
	}
	port = strtoul(where, &end, 10);
	if (!*where || *end || port > 65535)
		return -1;
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_port = htons((uint16_t)port);
	return inet_pton(AF_INET, ip, &sa->sin_addr) == 1 ? 0 : -1;
}

int bridge_open_side(struct bridge_run *r, int s, struct ipx_loop *loop,
		     const struct ipx_profile *segment)
{
	struct side *d = &r->side[s];
	char err[512];

	if (!strcmp(d->spec.kind, "tunnel")) {
		int rc = ipx_hub_port_open(loop, &d->tunnel, 0, from_port,
					   port_state, r, &d->port);

		if (rc != IPX_OK) {
			cli_error("bridge", "side %c: %s", s ? 'B' : 'A',
				  ipx_strerror(rc));
			return CLI_FAIL;
		}
		return CLI_OK;
	}
	if (!strcmp(d->spec.kind, "eth")) {
		int rc = cli_eth_open("bridge", loop, &d->spec, true, &d->link);

		if (rc != CLI_OK)
			return rc;
		d->link->rx = from_link;
		d->link->rx_ctx = r;
		return CLI_OK;
	}
	{
		struct ipx_hub_options ho = { .profile = segment };
		struct sockaddr_in local;
		char ip[INET_ADDRSTRLEN];

		bridge_hub_addr(d->spec.where, &ho.bind);	/* checked before */
		if (ipx_hub_open(loop, &ho, &d->hub, err, sizeof(err)) !=
		    IPX_OK) {
			cli_error("bridge", "side %c: %s", s ? 'B' : 'A', err);
			return CLI_FAIL;
		}
		ipx_hub_set_uplink(d->hub, s ? from_hub_b : from_hub_a, r);
		ipx_hub_local(d->hub, &local);
		inet_ntop(AF_INET, &local.sin_addr, ip, sizeof(ip));
		ipx_info("bridge: side %c is a hub on %s:%u", s ? 'B' : 'A', ip,
			 ntohs(local.sin_port));
	}
	return CLI_OK;
}

int bridge_close(struct bridge_run *r, struct ipx_loop *loop, int rc)
{
	for (int s = 0; s < 2; s++) {
		ipx_hub_close(r->side[s].hub);
		ipx_hub_port_close(r->side[s].port);
		ipx_link_close(r->side[s].link);
	}
	ipx_wan_free(r->wan);
	ipx_loop_free(loop);
	return rc;
}
