/*
 * cmd_protocols_opts.c - "ipxlab bench protocols": its help and its
 * options into the command's state (cmd_protocols.h): what a run sends,
 * the network (--hub, --link, --agents, ...) and what excludes what.
 */
#include <getopt.h>
#include <string.h>
#include <unistd.h>

#include "bench_common.h"
#include "cmd_protocols.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"

static void help_protocols(FILE *out)
{
	fprintf(out,
		"usage: ipxlab bench [protocols] [options]\n\n"
		"B1, the protocol comparison of the 1990 AppNote: a sender agent\n"
		"sends %d packets of %d bytes to a receiver agent through each\n"
		"interface in turn (IPX, SPX, SPX II, NetBIOS datagram, NetBIOS\n"
		"session), each send completing when the interface says so, beside\n"
		"plain UDP of the same path and the IPX round trip, all in the same\n"
		"run. One warm-up pass, then --repeat passes: median [min - max].\n"
		"Prints the 1990 figures beside ours and the targets as ratios\n"
		"measured in this run. By default the hub and both agents are\n"
		"child processes on loopback: nothing to set up.\n\n"
		"  -c, --count N       packets per run (default %d)\n"
		"  -s, --seconds S     send for S seconds per run instead of a count\n"
		"      --size N        payload bytes per packet, 1 to %d (default %d)\n"
		"  -r, --repeat N      counted passes, 1 to %d (default %d), after\n"
		"                      one warm-up pass\n"
		"      --pin P         CPU placement: split (sender CPU 0, receiver\n"
		"                      and the hub started here CPU 1; the default\n"
		"                      with 2 CPUs), same (all on CPU 0), none\n"
		"      --json, --csv   machine-readable output (one of them)\n"
		"      --hub HOST[:PORT]  use this hub instead of starting one\n"
		"      --link hub:HOST[:PORT]  the same\n"
		"      --link eth:IFACE[,frame=TYPE|auto][,net=HEX]\n"
		"                      run the controller's node on this Ethernet\n"
		"                      interface (root or CAP_NET_RAW); needs\n"
		"                      --agents started on the other machines\n"
		"                      (ipxlab agent --link eth:...); the baseline\n"
		"                      row is then plain Ethernet frames\n"
		"      --agents S,R    use running agents (ipxlab agent) named S\n"
		"                      (sender) and R (receiver), found by SAP;\n"
		"                      needs --hub or --link\n"
		"      --config FILE   SHELL.CFG for the agents started here\n"
		"                      (without it they claim NetBIOS names with\n"
		"                      a 2-tick broadcast delay: set-up only)\n"
		"      --wait S        joining the hub, finding agents (default %g)\n"
		"      --timeout S     bound on one run (default 10 s + 5 ms a\n"
		"                      packet, or the time + 10 s)\n"
		"      --pcap FILE     record to FILE what the hub started here\n"
		"                      receives and sends (every packet of the run);\n"
		"                      with --hub or --link, what the controller's\n"
		"                      node sends and receives\n"
		"      --sim           the whole network in this process in\n"
		"                      simulated time: a sender and a receiver\n"
		"                      node on an in-memory segment, IPX, SPX,\n"
		"                      NetBIOS datagram and NetBIOS session (no\n"
		"                      SPX II, UDP or round-trip rows); a datagram\n"
		"                      send completes when its frame has left the\n"
		"                      sender's adapter, a session send when its\n"
		"                      acknowledgement is back; deterministic\n"
		"      --profile NAME|FILE  the segment's link with --sim (default\n"
		"                      tr4, B1's 1990 wire; %s)\n"
		"      --period NAME|FILE  --sim with both nodes on the period's\n"
		"                      station machine (CPU per packet, copies,\n"
		"                      adapter) on its wire; prints the fidelity\n"
		"                      table (1990 | as 1990 | error | the wire\n"
		"                      alone); 'ipxlab period' lists them\n"
		"      --seed N        the simulation's randomness (default 1)\n"
		"  -v, --verbose       more log lines; -q, --quiet no progress line\n"
		"  -h, --help          this text\n\n"
		"See %s/benchmarks.md for the method and every\n"
		"column.\n",
		IPX_B1_DEFAULT_COUNT, IPX_B1_DEFAULT_SIZE, IPX_B1_DEFAULT_COUNT,
		IPX_B1_MAX_SIZE, IPX_B1_DEFAULT_SIZE, IPX_B1_MAX_REPEAT,
		IPX_B1_DEFAULT_REPEAT, DEFAULT_WAIT, ipx_profile_names,
		cli_docs);
}

/* ---- options ---- */

enum {
	OPT_SIZE = OPT_FIRST_CMD,
	OPT_PIN,
	OPT_LINK,
	OPT_TIMEOUT,
};

static int parse_agents(struct run_ctx *r, const char *text)
{
	const char *comma = strchr(text, ',');
	size_t a = comma ? (size_t)(comma - text) : 0;

	if (!comma || strchr(comma + 1, ',') || !a || !comma[1] ||
	    a > IPX_HARNESS_NAME_MAX ||
	    strlen(comma + 1) > IPX_HARNESS_NAME_MAX) {
		cli_error(CMD, "--agents takes two agent names, the sender's "
			       "and the receiver's, e.g. --agents "
			       "sender,receiver (got '%s')",
			  text);
		return -1;
	}
	snprintf(r->names[0], sizeof(r->names[0]), "%.*s", (int)a, text);
	snprintf(r->names[1], sizeof(r->names[1]), "%s", comma + 1);
	if (!strcmp(r->names[0], r->names[1])) {
		cli_error(CMD, "--agents: the sender and the receiver must be "
			       "two agents (got '%s' twice)",
			  r->names[0]);
		return -1;
	}
	return 0;
}

/* --link: a hub (as --hub) or an Ethernet interface for our node. */
static int parse_link(struct run_ctx *r, const char *text)
{
	struct cli_link_spec spec;
	char err[512];

	if (cli_link_spec_parse(text, &spec, err, sizeof(err)) < 0) {
		cli_error(CMD, "--link %s", err);
		return -1;
	}
	if (!strcmp(spec.kind, "eth")) {
		r->link = text;
		return 0;
	}
	if (spec.net || spec.ticks != 1 || strchr(text, ',')) {
		cli_error(CMD, "--link %s: a hub takes no options (net= and "
			       "frame= are for Ethernet links)",
			  text);
		return -1;
	}
	snprintf(r->hubwhere, sizeof(r->hubwhere), "%s", spec.where);
	r->hub = r->hubwhere;
	return 0;
}

/* The network's options (--hub, --link, --agents, --pcap, --config,
 * --wait, --timeout): 1 if opt was one, 0 if not, -1 after a message. */
static int net_opt(struct run_ctx *r, int opt, const char *arg)
{
	switch (opt) {
	case OPT_HUB:
	case OPT_LINK:
		if (r->hub || r->link) {
			cli_error(CMD, "--hub and --link name the "
				       "network once: give one of them, "
				       "once");
			return -1;
		}
		if (opt == OPT_HUB)
			r->hub = arg;
		else if (parse_link(r, arg) < 0)
			return -1;
		return 1;
	case BENCH_OPT_AGENTS:
		if (parse_agents(r, arg) < 0)
			return -1;
		r->agents = arg;
		return 1;
	case OPT_PCAP:
		r->pcap = arg;
		return 1;
	case OPT_CONFIG:
		r->config = arg;
		return 1;
	case OPT_WAIT:
		if (cli_parse_seconds(CMD, "--wait", arg, 0.1, 3600,
				      &r->wait) < 0)
			return -1;
		return 1;
	case OPT_TIMEOUT:
		if (cli_parse_seconds(CMD, "--timeout", arg, 1, 86400,
				      &r->o.timeout) < 0)
			return -1;
		return 1;
	default:
		return 0;
	}
}

/* What getopt cannot see: an argument left over and the options that
 * exclude or need each other. 0, or -1 after a message. */
static int check_options(struct run_ctx *r, int argc, char **argv,
			 bool count_given, bool seconds_given,
			 bool repeat_given)
{
	if (optind < argc) {
		cli_error(CMD, "protocols: unexpected argument '%s'",
			  argv[optind]);
		return -1;
	}
	if (count_given && seconds_given) {
		cli_error(CMD, "--count and --seconds exclude each other: a run "
			       "sends a number of packets or for a time");
		return -1;
	}
	if (bench_output_check(r->json, r->csv) != CLI_OK)
		return -1;
	if (protocols_sim_check(r, seconds_given, repeat_given) < 0)
		return -1;
	if (seconds_given)
		r->o.count = 0;
	if (r->link && !r->agents) {
		cli_error(CMD, "--link %s needs --agents S,R: on Ethernet the "
			       "agents run on the other machines (start 'ipxlab "
			       "agent --link eth:IFACE --name NAME' on each; "
			       "an agent's node is its interface's MAC, so two "
			       "cannot share this machine's interface)",
			  r->link);
		return -1;
	}
	if (r->agents && !r->hub && !r->link) {
		cli_error(CMD, "--agents needs --hub HOST[:PORT] (or --link): "
			       "the network the agents joined");
		return -1;
	}
	if (r->agents && r->config) {
		cli_error(CMD, "--config applies to agents started here; with "
			       "--agents give it to each 'ipxlab agent'");
		return -1;
	}
	return 0;
}

/* What a run sends (--count, --seconds, --size, --repeat, --pin): 1 if
 * opt was one, 0 if not, -1 after a message. */
static int run_opt(struct run_ctx *r, int opt, const char *arg,
		   bool *count_given, bool *seconds_given, bool *repeat_given)
{
	unsigned long v;

	switch (opt) {
	case 'c':
		if (cli_parse_uint(CMD, "--count", arg, 1,
				   IPX_B1_MAX_COUNT, &v) < 0)
			return -1;
		r->o.count = (uint32_t)v;
		*count_given = true;
		return 1;
	case 's':
		if (bench_seconds_opt(arg, 600, &r->o.seconds) < 0)
			return -1;
		*seconds_given = true;
		return 1;
	case OPT_SIZE:
		if (cli_parse_uint(CMD, "--size", arg, 1,
				   IPX_B1_MAX_SIZE, &v) < 0) {
			fprintf(stderr, "(NetBIOS datagrams carry at most "
					"%d bytes)\n",
				IPX_B1_MAX_SIZE);
			return -1;
		}
		r->o.size = v;
		return 1;
	case 'r':
		if (bench_repeat_opt(arg, IPX_B1_MAX_REPEAT, &v) < 0)
			return -1;
		r->o.repeat = (unsigned)v;
		*repeat_given = true;
		return 1;
	case OPT_PIN:
		if (ipx_b1_pin_parse(arg, &r->o.pin) != IPX_OK) {
			cli_error(CMD, "--pin must be split, same or "
				       "none (got '%s')",
				  arg);
			return -1;
		}
		r->pin_given = true;
		return 1;
	default:
		return 0;
	}
}

int protocols_parse(struct run_ctx *r, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "count", required_argument, NULL, 'c' },
		BENCH_SECONDS_LONGOPT,
		{ "size", required_argument, NULL, OPT_SIZE },
		BENCH_REPEAT_LONGOPT,
		{ "pin", required_argument, NULL, OPT_PIN },
		BENCH_OUTPUT_LONGOPTS,
		{ "link", required_argument, NULL, OPT_LINK },
		BENCH_AGENTS_LONGOPT,
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		BENCH_SIM_LONGOPTS,
		{ "period", required_argument, NULL, PROTOCOLS_OPT_PERIOD },
		CLI_NODE_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	bool count_given = false, seconds_given = false, quiet = false;
	bool repeat_given = false;
	int opt, rc;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":c:s:r:vqh", longopts, NULL)) !=
	       -1) {
		switch (opt) {
		case BENCH_OPT_JSON:
			r->json = true;
			break;
		case BENCH_OPT_CSV:
			r->csv = true;
			break;
		case 'v':
			ipx_log_set_level(IPX_LOG_DEBUG);
			break;
		case 'q':
			quiet = true;
			ipx_log_set_level(IPX_LOG_ERROR);
			break;
		case 'h':
			help_protocols(stdout);
			return -1;
		default:
			rc = run_opt(r, opt, optarg, &count_given,
				     &seconds_given, &repeat_given);
			if (!rc)
				rc = net_opt(r, opt, optarg);
			if (!rc)
				rc = protocols_sim_opt(r, opt, optarg);
			if (rc < 0)
				return CLI_USAGE;
			if (!rc)
				return bench_bad_option("protocols", opt,
							argv);
		}
	}
	if (check_options(r, argc, argv, count_given, seconds_given,
			  repeat_given) < 0)
		return CLI_USAGE;
	r->progress = !quiet && isatty(STDERR_FILENO);
	return CLI_OK;
}

