/*
 * cmd_bridge.c - "ipxlab bridge A B": the 1990 bridged WAN between two
 * segments (wan.h, docs/links.md "The WAN bridge"). A side is a hub this
 * command serves (hub:[ADDR:]PORT; its tunnel clients are that segment),
 * a running hub it joins as a bridge port (tunnel:HOST[:PORT], hub_port.h)
 * or an Ethernet interface (eth:IFACE[,frame=TYPE], promiscuous). The
 * counters go to stderr on SIGUSR1 and at exit.
 */
#include <arpa/inet.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ipxlab/err.h"
#include "ipxlab/hub.h"
#include "ipxlab/hub_port.h"
#include "ipxlab/link_eth.h"
#include "ipxlab/link_profile.h"
#include "ipxlab/link_udp.h"
#include "ipxlab/log.h"
#include "ipxlab/wan.h"

/* What a side may be, for messages. */
#define BRIDGE_KINDS "hub:[ADDR:]PORT, tunnel:HOST[:PORT] or eth:IFACE"

void help_bridge(FILE *out)
{
	fprintf(out,
		"Join two segments as a pair of WAN bridge modules over a trunk:\n"
		"frames for the other side wait in the module's receive buffer\n"
		"until a release block fills or the hold timer runs out, then go\n"
		"together into its transmit buffer, which the trunk drains at its\n"
		"rate; what does not fit is dropped and counted, as are IPX\n"
		"packets over the bridge's limit. A and B are each\n"
		"  hub:[ADDR:]PORT     serve a DOSBox-compatible hub there (its\n"
		"                      clients are that segment)\n"
		"  tunnel:HOST[:PORT]  join the 'ipxlab hub' running there as a\n"
		"                      bridge port (default port 213)\n"
		"  eth:IFACE[,frame=TYPE]  an Ethernet interface (root or\n"
		"                      CAP_NET_RAW; promiscuous)\n"
		"Runs until interrupted; SIGUSR1 prints the counters, as does exit.\n\n"
		"  --profile NAME|FILE trunk and buffers (default isn: 950 kbit/s,\n"
		"                      182 KB receive, 192 KB transmit, released\n"
		"                      by fill at 128 bytes or by a 3 ms hold,\n"
		"                      IPX packets over 576 bytes dropped)\n"
		"  --trunk-rate RATE   trunk bit rate each way, e.g. 950k, 1.5M\n"
		"  --rx-buffer SIZE    receive buffer per module, e.g. 182K\n"
		"  --tx-buffer SIZE    transmit buffer per module, e.g. 192K\n"
		"  --release SIZE      bytes held that are sent together (the\n"
		"                      block; 0: the whole receive buffer)\n"
		"  --hold TIME         hold timer, e.g. 3ms\n"
		"  --trunk-delay TIME  trunk propagation delay (default 0)\n"
		"  --bridge-max BYTES  largest IPX packet that crosses (0: any)\n"
		"  --segment NAME|FILE the hub sides are segments of this kind\n"
		"                      (e.g. eth10; default: no wire time)\n"
		"  -v, --verbose / -q, --quiet\n");
}

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

static void print_stats(const struct bridge_run *r)
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

static void on_signal(struct ipx_loop *loop, int signo, void *ctx)
{
	if (signo == SIGUSR1) {
		print_stats(ctx);
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
static void to_side(unsigned s, const uint8_t *pkt, size_t len, void *ctx)
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

/* "tunnel:HOST[:PORT]" (after the colon) as the hub to join. */
static int tunnel_spec(const char *where, struct side *d, char *err,
		       size_t errlen)
{
	int rc;

	strcpy(d->spec.kind, "tunnel");
	snprintf(d->spec.where, sizeof(d->spec.where), "%s", where);
	rc = ipx_udp_resolve(where, IPX_UDP_DEFAULT_PORT, &d->tunnel, err,
			     errlen);
	if (rc == IPX_OK && d->tunnel.sin_addr.s_addr == htonl(INADDR_ANY)) {
		snprintf(err, errlen, "%s: the hub's address cannot be 0.0.0.0",
			 where);
		rc = IPX_EINVAL;
	}
	return rc;
}

/* "hub:[ADDR:]PORT" as an address to serve on. */
static int hub_addr(const char *where, struct sockaddr_in *sa)
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

static int open_side(struct bridge_run *r, int s, struct ipx_loop *loop,
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

		hub_addr(d->spec.where, &ho.bind);	/* checked before */
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

static int bridge_close(struct bridge_run *r, struct ipx_loop *loop, int rc)
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

/* Apply one override option to the trunk profile; -1 if bad. */
static int set_opt(struct ipx_profile *p, int opt, const char *arg)
{
	uint32_t size;
	int rc = IPX_OK;

	switch (opt) {
	case 'r':
		rc = ipx_profile_parse_rate(arg, &p->rate);
		if (rc == IPX_OK && !p->rate)
			rc = IPX_EINVAL;
		break;
	case 'x':
		rc = ipx_profile_parse_size(arg, &p->rx_buffer);
		break;
	case 't':
		rc = ipx_profile_parse_size(arg, &p->tx_buffer);
		break;
	case 'R':
		rc = ipx_profile_parse_size(arg, &p->release);
		break;
	case 'H':
		rc = ipx_profile_parse_time(arg, &p->hold_ns);
		break;
	case 'd':
		rc = ipx_profile_parse_time(arg, &p->delay_ns);
		break;
	case 'm':
		rc = ipx_profile_parse_size(arg, &size);
		p->bridge_max = size;
		break;
	}
	return rc == IPX_OK ? 0 : -1;
}

static const char *opt_name(const struct option *opts, int val)
{
	for (; opts->name; opts++)
		if (opts->val == val)
			return opts->name;
	return "?";
}

int cmd_bridge(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "profile", required_argument, NULL, 'p' },
		{ "trunk-rate", required_argument, NULL, 'r' },
		{ "rx-buffer", required_argument, NULL, 'x' },
		{ "tx-buffer", required_argument, NULL, 't' },
		{ "release", required_argument, NULL, 'R' },
		{ "hold", required_argument, NULL, 'H' },
		{ "trunk-delay", required_argument, NULL, 'd' },
		{ "bridge-max", required_argument, NULL, 'm' },
		{ "segment", required_argument, NULL, 'S' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const what[] = {
		['r'] = "a bit rate such as 950k or 1.5M",
		['x'] = "a size such as 182K or 65536",
		['t'] = "a size such as 192K or 65536",
		['R'] = "a size such as 128 or 1K",
		['H'] = "a time such as 3ms or 200ms",
		['d'] = "a time such as 5ms or 0",
		['m'] = "a byte count such as 576, or 0 for no limit",
	};
	static const int sigs[] = { SIGINT, SIGTERM, SIGUSR1 };
	struct ipx_profile trunk, segment;
	const struct ipx_profile *seg = NULL;
	struct bridge_run run = { 0 };
	struct { int opt; const char *arg; } later[16];
	unsigned nlater = 0;
	struct ipx_loop *loop;
	char err[512];
	int opt, rc;

	ipx_profile_named("isn", &trunk);
	optind = 1;
	while ((opt = getopt_long(argc, argv, "vqh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			if (cli_profile_opt("bridge", "--profile", optarg,
					    &trunk) < 0)
				return CLI_USAGE;
			break;
		case 'r': case 'x': case 't': case 'R': case 'H': case 'd':
		case 'm': {
			/* After --profile, whatever the order. */
			struct ipx_profile scratch = trunk;

			if (set_opt(&scratch, opt, optarg) < 0) {
				cli_error("bridge", "--%s must be %s (got '%s')",
					  opt_name(longopts, opt), what[opt],
					  optarg);
				return CLI_USAGE;
			}
			if (nlater < 16) {
				later[nlater].opt = opt;
				later[nlater++].arg = optarg;
			}
			break;
		}
		case 'S':
			if (cli_profile_opt("bridge", "--segment", optarg,
					    &segment) < 0)
				return CLI_USAGE;
			seg = &segment;
			break;
		case 'v':
			ipx_log_set_level(IPX_LOG_DEBUG);
			break;
		case 'q':
			ipx_log_set_level(IPX_LOG_ERROR);
			break;
		case 'h':
			cli_usage_line(stdout, "bridge");
			help_bridge(stdout);
			return CLI_OK;
		default:
			return cli_bad_option("bridge", argv, "vqh", longopts);
		}
	}
	if (argc - optind != 2) {
		cli_error("bridge", "give the two sides, e.g. 'ipxlab bridge "
				    "hub:10213 hub:10214'");
		return CLI_USAGE;
	}
	for (unsigned i = 0; i < nlater; i++)
		set_opt(&trunk, later[i].opt, later[i].arg);
	if (ipx_profile_check(&trunk, err, sizeof(err)) != IPX_OK ||
	    !trunk.rx_buffer || !trunk.tx_buffer) {
		cli_error("bridge", "the trunk and buffers: %s",
			  !trunk.rx_buffer || !trunk.tx_buffer
				  ? "the profile has no rx-buffer or tx-buffer"
				  : err);
		return CLI_USAGE;
	}
	for (int s = 0; s < 2; s++) {
		struct sockaddr_in sa;
		const char *arg = argv[optind + s];
		size_t kind;

		if (!strncmp(arg, "tunnel:", 7)) {
			struct side *d = &run.side[s];

			rc = tunnel_spec(arg + 7, d, err, sizeof(err));
			if (rc != IPX_OK) {
				cli_error("bridge", "side %c: tunnel:%s",
					  s ? 'B' : 'A', err);
				return rc == IPX_EINVAL ? CLI_USAGE : CLI_FAIL;
			}
			continue;
		}
		/* (the --link parser knows hub and eth, not tunnel) */
		kind = strcspn(arg, ":");
		if (!arg[kind] || kind != 3 ||
		    (strncmp(arg, "hub", 3) && strncmp(arg, "eth", 3))) {
			if (arg[kind])
				cli_error("bridge", "side %c: '%s': unknown kind "
						    "'%.*s' (" BRIDGE_KINDS ")",
					  s ? 'B' : 'A', arg, (int)kind, arg);
			else
				cli_error("bridge", "side %c: '%s': expected "
						    BRIDGE_KINDS,
					  s ? 'B' : 'A', arg);
			return CLI_USAGE;
		}
		if (cli_link_spec_parse(arg, &run.side[s].spec, err,
					sizeof(err)) < 0) {
			cli_error("bridge", "side %c: %s", s ? 'B' : 'A', err);
			return CLI_USAGE;
		}
		if (!strcmp(run.side[s].spec.kind, "hub") &&
		    hub_addr(run.side[s].spec.where, &sa) < 0) {
			cli_error("bridge", "side %c: '%s': expected "
					    "hub:[ADDR:]PORT to serve on",
				  s ? 'B' : 'A', arg);
			return CLI_USAGE;
		}
	}
	loop = ipx_loop_new(NULL);
	if (!loop) {
		cli_error("bridge", "out of memory");
		return CLI_FAIL;
	}
	run.loop = loop;
	if (ipx_wan_new(loop, &trunk, 1, to_side, &run, &run.wan) != IPX_OK) {
		cli_error("bridge", "out of memory");
		return bridge_close(&run, loop, CLI_FAIL);
	}
	for (int s = 0; s < 2; s++) {
		rc = open_side(&run, s, loop, seg);
		if (rc != CLI_OK)
			return bridge_close(&run, loop, rc);
	}
	signal(SIGPIPE, SIG_IGN);
	ipx_loop_watch_signals(loop, sigs, 3, on_signal, &run);
	ipx_info("bridge: trunk %llu bit/s each way, buffers %u / %u bytes, "
		 "release %u bytes, hold %.3g ms",
		 (unsigned long long)trunk.rate, trunk.rx_buffer,
		 trunk.tx_buffer, trunk.release ? trunk.release : trunk.rx_buffer,
		 (double)trunk.hold_ns / 1e6);
	rc = ipx_loop_run(loop);
	ipx_info("bridge: stopping");
	print_stats(&run);
	return bridge_close(&run, loop,
			    rc == IPX_OK && !run.failed ? CLI_OK : CLI_FAIL);
}
