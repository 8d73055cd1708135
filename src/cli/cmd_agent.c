/*
 * cmd_agent.c - "ipxlab agent": a standing benchmark agent (see
 * ipxlab/bench_harness.h and docs/benchmarks.md). It joins the network,
 * advertises itself by SAP under its name, and runs what a controller
 * ("ipxlab bench protocols --agents ...") tells it, on any machine: on a
 * hub or an Ethernet interface (--link eth:IFACE, cli_node_open).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "ipxlab/bench_harness.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"

void help_agent(FILE *out)
{
	fprintf(out,
		"Run a benchmark agent: an IPX node that advertises itself by\n"
		"SAP (service type %04X, its name) and runs the workloads a\n"
		"controller sends it over SPX, one at a time. Start one on each\n"
		"machine, then the controller elsewhere on the same network\n"
		"(a hub, or an Ethernet segment: --link eth:IFACE, one agent\n"
		"per interface, as its node is the interface's MAC):\n"
		"  ipxlab agent --hub H:P --name sender        (machine A)\n"
		"  ipxlab agent --hub H:P --name receiver      (machine B)\n"
		"  ipxlab bench protocols --hub H:P --agents sender,receiver\n"
		"  ipxlab agent --link eth:eth0 --name sender  (or on Ethernet)\n\n"
		"  -n, --name NAME     the name to advertise, 1 to %d printable\n"
		"                      characters (default: the host name)\n"
		"      --once          exit after the first controller is done\n"
		CLI_NODE_OPTS_HELP,
		IPX_HARNESS_SAP_TYPE, IPX_HARNESS_NAME_MAX);
}

enum { OPT_ONCE = OPT_FIRST_CMD };

/* The host name, cut to a SAP name: the default agent name. */
static void default_name(char *buf, size_t len)
{
	char host[256] = "agent";

	if (gethostname(host, sizeof(host) - 1) < 0 || !host[0])
		strcpy(host, "agent");
	host[sizeof(host) - 1] = '\0';
	snprintf(buf, len, "%.*s", IPX_HARNESS_NAME_MAX, host);
	for (char *p = buf; *p; p++)
		if (*p < 0x21 || *p > 0x7E)
			*p = '-';
}

int cmd_agent(int argc, char **argv)
{
	static const struct option longopts[] = {
		CLI_NODE_LONGOPTS,
		{ "name", required_argument, NULL, 'n' },
		{ "once", no_argument, NULL, OPT_ONCE },
		{ NULL, 0, NULL, 0 },
	};
	struct ipx_agent_opts ao = { 0 };
	struct cli_node_opts no;
	struct cli_node cn;
	struct ipx_agent *a;
	struct ipx_addr addr;
	char name[IPX_HARNESS_NAME_MAX + 1], err[256], as[IPX_ADDR_STRLEN];
	int opt, rc;

	cli_node_opts_init(&no);
	default_name(name, sizeof(name));
	ao.name = name;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "n:vqh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'n':
			ao.name = optarg;
			break;
		case OPT_ONCE:
			ao.once = true;
			break;
		case 'h':
			cli_usage_line(stdout, "agent");
			help_agent(stdout);
			return CLI_OK;
		default:
			rc = cli_node_opt(&no, "agent", opt, optarg);
			if (rc < 0)
				return CLI_USAGE;
			if (rc == 0) {
				return cli_bad_option("agent", argv, "n:vqh",
						      longopts);
			}
		}
	}
	if (optind < argc) {
		cli_error("agent", "unexpected argument '%s'", argv[optind]);
		return CLI_USAGE;
	}
	if (strlen(ao.name) > IPX_HARNESS_NAME_MAX || !ao.name[0]) {
		cli_error("agent", "--name must be 1 to %d printable characters "
				   "(got '%s')",
			  IPX_HARNESS_NAME_MAX, ao.name);
		return CLI_USAGE;
	}
	ao.fault = getenv("IPXLAB_AGENT_FAULT");
	rc = cli_node_open(&cn, &no);
	if (rc != CLI_OK)
		return rc;
	if (ipx_agent_new(cn.node, &ao, &a, err, sizeof(err)) != IPX_OK) {
		cli_error("agent", "%s", err);
		cli_node_close(&cn);
		return CLI_FAIL;
	}
	ipx_agent_address(a, &addr);
	fprintf(stderr, "agent '%s' ready at %s (SAP type %04X, pid %d)\n",
		ao.name, ipx_addr_format(&addr, as), IPX_HARNESS_SAP_TYPE,
		(int)getpid());
	while (!ipx_agent_done(a) && !ipx_loop_stopped(cn.loop) &&
	       ipx_loop_run_once(cn.loop, IPX_SEC) >= 0)
		;
	ipx_agent_free(a);	/* SAP: going down */
	ipx_loop_run_once(cn.loop, 0);
	cli_node_close(&cn);
	return CLI_OK;
}
