/*
 * cmd_bridge.c - "ipxlab bridge A B": the 1990 bridged WAN between two
 * segments (wan.h, docs/links.md "The WAN bridge"). A side is a hub this
 * command serves (hub:[ADDR:]PORT; its tunnel clients are that segment),
 * a running hub it joins as a bridge port (tunnel:HOST[:PORT], hub_port.h)
 * or an Ethernet interface (eth:IFACE[,frame=TYPE], promiscuous). The
 * counters go to stderr on SIGUSR1 and at exit.
 */
#include <getopt.h>
#include <signal.h>
#include <string.h>

#include "cmd_bridge.h"
#include "ipxlab/err.h"
#include "ipxlab/link_udp.h"
#include "ipxlab/log.h"

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

/* The overrides of the trunk profile, applied after --profile whatever
 * the order. */
struct bridge_later {
	struct { int opt; const char *arg; } o[16];
	unsigned n;
};

/* One override, checked now on a copy of the profile. */
static int override(const struct option *longopts,
		    const struct ipx_profile *trunk, int opt, const char *arg,
		    struct bridge_later *later)
{
	static const char *const what[] = {
		['r'] = "a bit rate such as 950k or 1.5M",
		['x'] = "a size such as 182K or 65536",
		['t'] = "a size such as 192K or 65536",
		['R'] = "a size such as 128 or 1K",
		['H'] = "a time such as 3ms or 200ms",
		['d'] = "a time such as 5ms or 0",
		['m'] = "a byte count such as 576, or 0 for no limit",
	};
	struct ipx_profile scratch = *trunk;

	if (set_opt(&scratch, opt, arg) < 0) {
		cli_error("bridge", "--%s must be %s (got '%s')",
			  opt_name(longopts, opt), what[opt], arg);
		return CLI_USAGE;
	}
	if (later->n < 16) {
		later->o[later->n].opt = opt;
		later->o[later->n++].arg = arg;
	}
	return CLI_OK;
}

/* The options: the trunk profile, the segment's (*seg NULL if none).
 * CLI_OK to go on, -1 after --help, else the exit code. */
static int bridge_opts(int argc, char **argv, struct ipx_profile *trunk,
		       struct ipx_profile *segment,
		       const struct ipx_profile **seg)
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
	struct bridge_later later = { .n = 0 };
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "vqh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			if (cli_profile_opt("bridge", "--profile", optarg,
					    trunk) < 0)
				return CLI_USAGE;
			break;
		case 'r': case 'x': case 't': case 'R': case 'H': case 'd':
		case 'm':
			if (override(longopts, trunk, opt, optarg, &later) !=
			    CLI_OK)
				return CLI_USAGE;
			break;
		case 'S':
			if (cli_profile_opt("bridge", "--segment", optarg,
					    segment) < 0)
				return CLI_USAGE;
			*seg = segment;
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
			return -1;
		default:
			return cli_bad_option("bridge", argv, "vqh", longopts);
		}
	}
	if (argc - optind != 2) {
		cli_error("bridge", "give the two sides, e.g. 'ipxlab bridge "
				    "hub:10213 hub:10214'");
		return CLI_USAGE;
	}
	for (unsigned i = 0; i < later.n; i++)
		set_opt(trunk, later.o[i].opt, later.o[i].arg);
	return CLI_OK;
}

/* Side s from its argument; CLI_OK or the exit code. */
static int parse_side(struct bridge_run *run, int s, const char *arg)
{
	struct sockaddr_in sa;
	char err[512];
	size_t kind;
	int rc;

	if (!strncmp(arg, "tunnel:", 7)) {
		rc = tunnel_spec(arg + 7, &run->side[s], err, sizeof(err));
		if (rc != IPX_OK) {
			cli_error("bridge", "side %c: tunnel:%s", s ? 'B' : 'A',
				  err);
			return rc == IPX_EINVAL ? CLI_USAGE : CLI_FAIL;
		}
		return CLI_OK;
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
	if (cli_link_spec_parse(arg, &run->side[s].spec, err, sizeof(err)) <
	    0) {
		cli_error("bridge", "side %c: %s", s ? 'B' : 'A', err);
		return CLI_USAGE;
	}
	if (!strcmp(run->side[s].spec.kind, "hub") &&
	    bridge_hub_addr(run->side[s].spec.where, &sa) < 0) {
		cli_error("bridge", "side %c: '%s': expected "
				    "hub:[ADDR:]PORT to serve on",
			  s ? 'B' : 'A', arg);
		return CLI_USAGE;
	}
	return CLI_OK;
}

int cmd_bridge(int argc, char **argv)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGUSR1 };
	struct ipx_profile trunk, segment;
	const struct ipx_profile *seg = NULL;
	struct bridge_run run = { 0 };
	struct ipx_loop *loop;
	char err[512];
	int rc;

	ipx_profile_named("isn", &trunk);
	rc = bridge_opts(argc, argv, &trunk, &segment, &seg);
	if (rc != CLI_OK)
		return rc < 0 ? CLI_OK : rc;
	if (ipx_profile_check(&trunk, err, sizeof(err)) != IPX_OK ||
	    !trunk.rx_buffer || !trunk.tx_buffer) {
		cli_error("bridge", "the trunk and buffers: %s",
			  !trunk.rx_buffer || !trunk.tx_buffer
				  ? "the profile has no rx-buffer or tx-buffer"
				  : err);
		return CLI_USAGE;
	}
	for (int s = 0; s < 2; s++)
		if ((rc = parse_side(&run, s, argv[optind + s])) != CLI_OK)
			return rc;
	loop = ipx_loop_new(NULL);
	if (!loop) {
		cli_error("bridge", "out of memory");
		return CLI_FAIL;
	}
	run.loop = loop;
	if (ipx_wan_new(loop, &trunk, 1, bridge_to_side, &run, &run.wan) !=
	    IPX_OK) {
		cli_error("bridge", "out of memory");
		return bridge_close(&run, loop, CLI_FAIL);
	}
	for (int s = 0; s < 2; s++) {
		rc = bridge_open_side(&run, s, loop, seg);
		if (rc != CLI_OK)
			return bridge_close(&run, loop, rc);
	}
	signal(SIGPIPE, SIG_IGN);
	ipx_loop_watch_signals(loop, sigs, 3, bridge_on_signal, &run);
	ipx_info("bridge: trunk %llu bit/s each way, buffers %u / %u bytes, "
		 "release %u bytes, hold %.3g ms",
		 (unsigned long long)trunk.rate, trunk.rx_buffer,
		 trunk.tx_buffer, trunk.release ? trunk.release : trunk.rx_buffer,
		 (double)trunk.hold_ns / 1e6);
	rc = ipx_loop_run(loop);
	ipx_info("bridge: stopping");
	bridge_print_stats(&run);
	return bridge_close(&run, loop,
			    rc == IPX_OK && !run.failed ? CLI_OK : CLI_FAIL);
}
