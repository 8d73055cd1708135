/*
 * fsbench.c - the file-server benchmarks' shared options (fsbench.h):
 * parsed, checked, and the --sim defaults filled in; the network they
 * describe is started and its conditions printed by fsbench_net.c.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fsbench.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"

#define CMD "bench"
#define SIM_DEFAULT_PROFILE "eth10"

/* --agents a,b,c: distinct names of running agents. */
static int parse_agents(struct fsbench *b, const char *arg)
{
	char *save = NULL, *tok;

	if (strlen(arg) >= sizeof(b->given)) {
		cli_error(CMD, "--agents: too long (at most %d names)",
			  IPX_BN_MAX_STATIONS);
		return -1;
	}
	snprintf(b->given, sizeof(b->given), "%s", arg);
	b->ngiven = 0;
	for (tok = strtok_r(b->given, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (b->ngiven == IPX_BN_MAX_STATIONS ||
		    strlen(tok) > IPX_HARNESS_NAME_MAX) {
			cli_error(CMD, b->ngiven == IPX_BN_MAX_STATIONS
					       ? "--agents: at most %d agents"
					       : "--agents: a name has at most "
						 "%d characters",
				  b->ngiven == IPX_BN_MAX_STATIONS
					  ? IPX_BN_MAX_STATIONS
					  : IPX_HARNESS_NAME_MAX);
			return -1;
		}
		for (unsigned i = 0; i < b->ngiven; i++)
			if (!strcmp(b->names[i], tok)) {
				cli_error(CMD, "--agents: '%s' twice: each "
					       "workstation is its own agent",
					  tok);
				return -1;
			}
		b->names[b->ngiven++] = tok;
	}
	if (!b->ngiven) {
		cli_error(CMD, "--agents needs agent names, e.g. ws1,ws2");
		return -1;
	}
	return 0;
}

int fsbench_need(const struct fsbench *b, unsigned n)
{
	if (b->ngiven && n > b->ngiven) {
		cli_error(CMD, "%s: %u workstation%s wanted, --agents names "
			       "%u",
			  b->cmd, n, n == 1 ? "" : "s", b->ngiven);
		return CLI_USAGE;
	}
	return CLI_OK;
}

/* --fixtures DIR: write them and say so. The exit code. */
static int write_fixtures(const char *dir, unsigned stations)
{
	char err[300];

	if (ipx_bn_fixtures_make(dir, stations, err, sizeof(err)) != IPX_OK) {
		cli_error(CMD, "--fixtures: %s", err);
		return CLI_FAIL;
	}
	printf("fixtures for %u workstation%s written to %s (serve it as "
	       "SYS)\n",
	       stations, stations == 1 ? "" : "s", dir);
	return CLI_OK;
}

int fsbench_opt(struct fsbench *b, int opt, const char *arg, unsigned stations,
		int *exit_code)
{
	unsigned long v;

	switch (opt) {
	case BENCH_OPT_PROFILE:
		if (cli_profile_opt(CMD, "--profile", arg, &b->profile) < 0)
			return -1;
		b->have_profile = true;
		return 1;
	case BENCH_OPT_SIM:
		b->sim = true;
		return 1;
	case FSB_OPT_PERIOD:
		if (cli_period_opt(CMD, arg, &b->period) < 0)
			return -1;
		b->have_period = b->sim = true;	/* --period is --sim on it */
		return 1;
	case FSB_OPT_BRIDGE:
		if (cli_profile_opt(CMD, "--bridge", arg, &b->bridge) < 0)
			return -1;
		if (!b->bridge.rx_buffer || !b->bridge.tx_buffer) {
			cli_error(CMD, "--bridge %s has no bridge buffers "
				       "(rx-buffer, tx-buffer): not a WAN bridge",
				  b->bridge.name);
			return -1;
		}
		b->have_bridge = true;
		return 1;
	case BENCH_OPT_SEED:
		if (cli_parse_uint(CMD, "--seed", arg, 0, UINT32_MAX, &v) < 0)
			return -1;
		b->seed = v;
		b->seed_given = true;
		return 1;
	case FSB_OPT_SERVER:
		if (!*arg || strlen(arg) > 47) {
			cli_error(CMD, "--server: a server name has 1 to 47 "
				       "characters");
			return -1;
		}
		b->server = arg;
		return 1;
	case OPT_HUB:
		b->hub = arg;
		return 1;
	case OPT_WAIT:
		return cli_parse_seconds(CMD, "--wait", arg, 0.1, 3600,
					 &b->wait) < 0 ? -1 : 1;
	case BENCH_OPT_JSON:
		b->json = true;
		return 1;
	case BENCH_OPT_CSV:
		b->csv = true;
		return 1;
	case BENCH_OPT_AGENTS:
		return parse_agents(b, arg) < 0 ? -1 : 1;
	case 'r':
		if (bench_repeat_opt(arg, b->max_repeat ? b->max_repeat
							: FSBENCH_MAX_REPEAT,
				     &v) < 0)
			return -1;
		b->repeat = (unsigned)v;
		return 1;
	case 'q':
		b->quiet = true;
		ipx_log_set_level(IPX_LOG_ERROR);
		return 1;
	case 'v':
		ipx_log_set_level(IPX_LOG_DEBUG);
		return 1;
	case FSB_OPT_FIXTURES:
		*exit_code = write_fixtures(arg, stations);
		return 2;
	default:
		return 0;
	}
}

int fsbench_parse_counts(const char *opt, const char *arg, unsigned *out,
			 size_t max, size_t *n)
{
	char *copy = strdup(arg), *save = NULL, *tok;
	unsigned long v;

	*n = 0;
	for (tok = copy ? strtok_r(copy, ",", &save) : NULL; tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (*n == max || cli_parse_uint(CMD, opt, tok, 1,
						IPX_BN_MAX_STATIONS, &v) < 0) {
			if (*n == max)
				cli_error(CMD, "%s: at most %zu counts", opt,
					  max);
			free(copy);
			return -1;
		}
		out[(*n)++] = (unsigned)v;
	}
	free(copy);
	if (!*n) {
		cli_error(CMD, "%s needs counts, e.g. 1,5", opt);
		return -1;
	}
	return 0;
}

int fsbench_parse_ops(const char *arg, bool only[IPX_BN_BATTERY_OPS])
{
	char *copy = strdup(arg), *save = NULL, *tok;
	enum ipx_bn_op op;
	int n = 0;

	memset(only, 0, IPX_BN_BATTERY_OPS * sizeof(only[0]));
	for (tok = copy ? strtok_r(copy, ",", &save) : NULL; tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (ipx_bn_op_parse(tok, &op) != IPX_OK ||
		    op >= IPX_BN_BATTERY_OPS) {
			cli_error(CMD, "--only: unknown test '%s' (see --help)",
				  tok);
			free(copy);
			return -1;
		}
		only[op] = true;
		n++;
	}
	free(copy);
	if (!n) {
		cli_error(CMD, "--only needs test names (see --help)");
		return -1;
	}
	return 0;
}

int fsbench_check(struct fsbench *b)
{
	if (bench_output_check(b->json, b->csv) != CLI_OK)
		return CLI_USAGE;
	if (b->have_period && (b->hub || b->server)) {
		cli_error(CMD, "--period %s runs the whole network in this "
			       "process in simulated time on the period's "
			       "machines: not with %s (real time cannot give "
			       "a 1990 machine's speed)",
			  b->period.name, b->hub ? "--hub" : "--server");
		return CLI_USAGE;
	}
	if (b->sim && (b->hub || b->server)) {
		cli_error(CMD, "--sim builds the whole network in this process "
			       "(its own file server and workstations): not "
			       "with %s",
			  b->hub ? "--hub" : "--server");
		return CLI_USAGE;
	}
	if (!b->sim && b->have_bridge) {
		cli_error(CMD, "--bridge is for --sim runs (in real time, 'bench "
			       "wan' builds the bridged network)");
		return CLI_USAGE;
	}
	if (!b->sim && b->seed_given) {
		cli_error(CMD, "--seed is for --sim runs only");
		return CLI_USAGE;
	}
	if (!b->sim && b->have_profile && b->hub) {
		cli_error(CMD, "--profile applies to the hub started here; give "
			       "the hub at %s its profile with 'ipxlab hub "
			       "--profile'",
			  b->hub);
		return CLI_USAGE;
	}
	if (b->have_period && !b->have_profile) {
		b->profile = b->period.wire;	/* the period's wire */
		b->have_profile = true;
	}
	if (b->have_period && b->have_bridge && b->period.have_wan)
		b->bridge = b->period.wan;	/* the period's bridge */
	if (b->sim && !b->have_profile) {
		/* an in-memory link without a profile takes no time at all */
		ipx_profile_named(SIM_DEFAULT_PROFILE, &b->profile);
		b->have_profile = b->profile_default = true;
	}
	if (b->sim && !b->seed_given)
		b->seed = 1;
	if (b->server && !b->hub) {
		cli_error(CMD, "--server %s needs --hub HOST[:PORT]: the network "
			       "the server is on",
			  b->server);
		return CLI_USAGE;
	}
	if (b->ngiven && !b->hub) {
		cli_error(CMD, "--agents needs --hub HOST[:PORT]: the network "
			       "the agents joined");
		return CLI_USAGE;
	}
	if (b->ngiven)
		b->agents = b->ngiven;
	if (!b->repeat)
		b->repeat = 1;
	b->progress = !b->quiet && isatty(STDERR_FILENO);
	return CLI_OK;
}
