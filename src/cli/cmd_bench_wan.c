/*
 * cmd_bench_wan.c - "ipxlab bench wan": B6, the bridged network of 1990
 * (docs/benchmarks.md): the options, then the networks (in real time the
 * library's, bench_fsnet.h: the workstations' hub with a server and,
 * across the WAN bridge it forks, a far hub with a second server; with
 * --sim two simulated networks in this process, benchwan_sim.c), one
 * ipx_b6_run (bench_b6.h: battery, limit, scaling) and the figures
 * (benchwan_print.c, _json.c).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "benchwan.h"
#include "cli.h"
#include "ipxlab/err.h"
#include "ipxlab/link_profile.h"
#include "ipxlab/log.h"

#define CMD "bench"

enum {
	OPT_ONLY = FSB_OPT_FIRST,

	OPT_QUICK,
	OPT_PARTS,
	OPT_MAXST,
	OPT_WANPROF,
	OPT_STEP,
	OPT_MAXLOAD,
	OPT_DEADLINE,
	OPT_FILE,
	OPT_PROBES,
};


static int parse_parts(struct wan *t, const char *arg)
{
	char *copy = strdup(arg), *save = NULL, *tok;

	t->o.parts = 0;
	for (tok = copy ? strtok_r(copy, ",", &save) : NULL; tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "battery"))
			t->o.parts |= PART_BATTERY;
		else if (!strcmp(tok, "limit"))
			t->o.parts |= PART_LIMIT;
		else if (!strcmp(tok, "scaling"))
			t->o.parts |= PART_SCALING;
		else {
			cli_error(CMD, "--parts: unknown part '%s' (battery, "
				       "limit, scaling)",
				  tok);
			free(copy);
			return -1;
		}
	}
	free(copy);
	if (!t->o.parts) {
		cli_error(CMD, "--parts needs battery, limit or scaling");
		return -1;
	}
	return 0;
}

static int parse_kbit(const char *opt, const char *arg, uint64_t *out)
{
	unsigned long v;

	if (cli_parse_uint(CMD, opt, arg, 1, 100000, &v) < 0)
		return -1;
	*out = (uint64_t)v * 1000;
	return 0;
}


/* The parts on the networks built; CLI_ code, the error printed. */
static int run_parts(struct wan *t)
{
	char err[768];
	int rc;

	t->o.repeat = t->b.repeat;
	rc = ipx_b6_run(&t->o, fsbench_progress, &t->b, &t->r, err,
			sizeof(err));
	for (int side = 0; side < 2 && t->b.sim && rc != IPX_OK; side++)
		t->interrupted |= t->sim[side] &&
				  ipx_loop_stopped(ipx_bsim_loop(t->sim[side]));
	if (t->interrupted || fsbench_interrupted(&t->b, rc)) {	/* SIGINT */
		t->interrupted = true;
		cli_error(CMD, "wan: interrupted during the %s part; printing "
			       "the parts that finished",
			  t->r.part);
		return CLI_FAIL;
	}
	if (rc != IPX_OK) {
		cli_error(CMD, "wan: %s: %s", t->r.part, err);
		return CLI_FAIL;
	}
	return CLI_OK;
}

/* ---- options ---- */

static int parse_own(struct wan *t, int opt, const char *arg, bool *quick,
		     bool *secs_given)
{
	unsigned long v;
	double d;

	switch (opt) {
	case 's':
		if (bench_seconds_opt(arg, 3600, &t->o.seconds) < 0)
			return -1;
		*secs_given = true;
		return 1;
	case OPT_QUICK:
		*quick = true;
		return 1;
	case OPT_PARTS:
		return parse_parts(t, arg) < 0 ? -1 : 1;
	case BENCH_OPT_STATIONS:
		return fsbench_parse_counts("--stations", arg, t->o.sets,
					    WAN_MAX_SETS, &t->o.nsets) < 0
			       ? -1
			       : 1;
	case OPT_ONLY:
		return fsbench_parse_ops(arg, t->o.only) < 0 ? -1 : 1;
	case OPT_MAXST:
		if (cli_parse_uint(CMD, "--max-stations", arg, 1,
				   IPX_BN_MAX_STATIONS, &v) < 0)
			return -1;
		t->o.max_stations = (unsigned)v;
		return 1;
	case OPT_WANPROF:
		t->wan_profile = arg;
		return 1;
	case OPT_STEP:
		return parse_kbit("--load-step", arg, &t->o.lo.step_bps) < 0 ? -1
									   : 1;
	case OPT_MAXLOAD:
		return parse_kbit("--max-load", arg, &t->max_load) < 0 ? -1 : 1;
	case OPT_DEADLINE:
		if (cli_parse_seconds(CMD, "--deadline", arg, 0.01, 3600, &d) <
		    0)
			return -1;
		t->o.lo.deadline = d;
		return 1;
	case OPT_FILE:
		if (cli_parse_uint(CMD, "--file", arg, 1, UINT32_MAX, &v) < 0)
			return -1;
		for (int i = 0; i < IPX_BN_COPY_SIZES; i++)
			if (ipx_bn_copy_size[i] == v) {
				t->o.lo.file_size = (uint32_t)v;
				return 1;
			}
		cli_error(CMD, "--file: %lu is not one of the copy test's "
			       "sizes (1205, 5079, 10752, 25184, 50176, "
			       "108048, 214705)",
			  v);
		return -1;
	case OPT_PROBES:
		if (cli_parse_uint(CMD, "--probes", arg, 1, IPX_BN_MAX_STATIONS,
				   &v) < 0)
			return -1;
		t->o.lo.probes = v;
		return 1;
	default:
		return 0;
	}
}

/* --quick: what the user did not set, small. */
static void apply_quick(struct wan *t, bool stations_given, bool only_given,
			bool max_given, bool file_given, bool step_given,
			bool load_given)
{
	t->o.seconds = WAN_QUICK_SECONDS;
	if (!stations_given) {
		t->o.sets[0] = 1;
		t->o.nsets = 1;
	}
	if (!only_given) {
		memset(t->o.only, 0, sizeof(t->o.only));
		t->o.only[IPX_BN_OPEN_MULTI] = true;
		t->o.only[IPX_BN_LOCK] = true;
	}
	if (!max_given)
		t->o.max_stations = 3;
	if (!file_given)
		t->o.lo.file_size = 1205;
	if (!step_given)
		t->o.lo.step_bps = 700000;
	if (!load_given)
		t->max_load = 1400000;
	/* the copy's own set-up (connect, log in, open: round trips
	 * across the bridge) runs under the load already */
	t->o.lo.warmup = 0;
	t->o.lo.drain = 1;
}

static int check(struct wan *t)
{
	char err[300];

	if (t->b.have_bridge) {
		cli_error(CMD, "wan builds its own bridge: --bridge is not taken "
			       "(its profile: --wan-profile)");
		return CLI_USAGE;
	}
	if (t->b.server || t->b.hub || t->b.ngiven) {
		cli_error(CMD, "wan builds its own two segments: --server, "
			       "--hub and --agents are not taken");
		return CLI_USAGE;
	}
	if (ipx_profile_resolve(t->wan_profile, &t->prof, err, sizeof(err)) !=
		    IPX_OK ||
	    ipx_profile_check(&t->prof, err, sizeof(err)) != IPX_OK) {
		cli_error(CMD, "--wan-profile: %s", err);
		return CLI_USAGE;
	}
	if (t->b.have_period && t->b.period.have_wan)
		t->prof = t->b.period.wan;	/* the bridge the sim uses */
	if (!t->prof.rx_buffer || !t->prof.tx_buffer) {
		cli_error(CMD, "--wan-profile %s has no bridge buffers "
			       "(rx-buffer, tx-buffer): not a WAN bridge",
			  t->prof.name);
		return CLI_USAGE;
	}
	if (t->max_load < t->o.lo.step_bps) {
		cli_error(CMD, "--max-load must be at least --load-step");
		return CLI_USAGE;
	}
	t->o.lo.max_steps = (size_t)(t->max_load / t->o.lo.step_bps) + 1;
	if (t->o.lo.max_steps > IPX_BWAN_MAX_STEPS) {
		cli_error(CMD, "--max-load / --load-step: at most %d loads "
			       "(the first is none)",
			  IPX_BWAN_MAX_STEPS - 1);
		return CLI_USAGE;
	}
	return fsbench_check(&t->b);
}

static void defaults(struct wan *t)
{
	memset(t, 0, sizeof(*t));
	t->b.cmd = "wan";
	t->b.wait = 10;
	t->o.parts = PART_BATTERY | PART_LIMIT | PART_SCALING;
	t->o.sets[0] = 1;
	t->o.sets[1] = 5;
	t->o.nsets = 2;
	memset(t->o.only, 1, sizeof(t->o.only));
	t->o.max_stations = 8;
	t->wan_profile = "isn";
	t->o.lo.file_size = 25184;
	t->o.lo.step_bps = 100000;
	t->max_load = 2000000;
	t->o.lo.warmup = 5;
	t->o.lo.drain = 2;
}

/* CLI_OK to go on, else the exit code (*done: --help or --fixtures was
 * the whole of it). */
static int parse(struct wan *t, int argc, char **argv, bool *done)
{
	static const struct option longopts[] = {
		BENCH_SECONDS_LONGOPT,
		{ "quick", no_argument, NULL, OPT_QUICK },
		{ "parts", required_argument, NULL, OPT_PARTS },
		BENCH_STATIONS_LONGOPT,
		{ "only", required_argument, NULL, OPT_ONLY },
		{ "max-stations", required_argument, NULL, OPT_MAXST },
		{ "wan-profile", required_argument, NULL, OPT_WANPROF },
		{ "load-step", required_argument, NULL, OPT_STEP },
		{ "max-load", required_argument, NULL, OPT_MAXLOAD },
		{ "deadline", required_argument, NULL, OPT_DEADLINE },
		{ "file", required_argument, NULL, OPT_FILE },
		{ "probes", required_argument, NULL, OPT_PROBES },
		FSBENCH_LONGOPTS, FSBENCH_PERIOD_LONGOPT,
		{ NULL, 0, NULL, 0 },
	};
	const char *fixtures = NULL;
	bool quick = false, secs_given = false, given[OPT_PROBES + 1] = { 0 };
	int opt, rc, code = CLI_OK;

	*done = true;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":s:qvh", longopts, NULL)) !=
	       -1) {
		if (opt == 'h') {
			help_bench_wan(stdout);
			return CLI_OK;
		}
		if (opt == FSB_OPT_FIXTURES) {
			fixtures = optarg;
			continue;
		}
		rc = parse_own(t, opt, optarg, &quick, &secs_given);
		if (rc < 0)
			return CLI_USAGE;
		if (rc > 0) {
			if (opt <= OPT_PROBES)	/* --stations' among them */
				given[opt] = true;
			continue;
		}
		if (opt == BENCH_OPT_PROFILE)
			t->lan_arg = optarg;
		rc = fsbench_opt(&t->b, opt, optarg, 0, &code);
		if (rc < 0)
			return CLI_USAGE;
		if (rc == 0)
			return bench_bad_option("wan", opt, argv);
	}
	if (optind < argc) {
		cli_error(CMD, "wan: unexpected argument '%s'", argv[optind]);
		return CLI_USAGE;
	}
	if (quick && secs_given) {
		cli_error(CMD, "--quick and --seconds exclude each other");
		return CLI_USAGE;
	}
	if (quick)
		apply_quick(t, given[BENCH_OPT_STATIONS], given[OPT_ONLY],
			    given[OPT_MAXST], given[OPT_FILE], given[OPT_STEP],
			    given[OPT_MAXLOAD]);
	/* as many workstations as the parts run need */
	t->b.agents = 1;
	if (t->o.parts & PART_SCALING)
		t->b.agents = t->o.max_stations;
	for (size_t s = 0; s < t->o.nsets && (t->o.parts & PART_BATTERY); s++)
		t->b.agents = t->o.sets[s] > t->b.agents ? t->o.sets[s]
						       : t->b.agents;
	if ((t->o.parts & PART_LIMIT) && t->o.lo.probes > t->b.agents)
		t->b.agents = (unsigned)t->o.lo.probes;
	if (fixtures) {
		fsbench_opt(&t->b, FSB_OPT_FIXTURES, fixtures, t->b.agents,
			    &code);
		return code;
	}
	*done = false;
	return CLI_OK;
}

/* Both networks, the parts, the figures (also when interrupted), and
 * everything stopped; the CLI_ exit code. */
static int run(struct wan *t)
{
	int rc;

	t->b.far = &t->prof;	/* real time: the far side, the library's */
	t->b.far_max_buffer = WAN_FAR_MAX_BUFFER;
	rc = t->b.sim ? wan_sim_start(t) : fsbench_start(&t->b);
	if (rc == CLI_OK && !t->b.sim)
		wan_far_take(t);
	if (rc == CLI_OK)
		rc = run_parts(t);
	if (t->b.sim)
		wan_sim_seconds(t);
	if (t->interrupted)
		t->o.parts = t->r.parts_done;
	if (rc == CLI_OK || t->interrupted) {
		if (t->b.json)
			wan_print_json(t);
		else if (t->b.csv)
			wan_print_csv(t);
		else
			wan_print_table(t);
		fsbench_no_fidelity(&t->b, "B6", stdout);
	}
	if (t->b.sim)
		wan_sim_stop(t);
	wan_far_drop(t);
	fsbench_stop(&t->b, rc == CLI_OK);
	return rc;
}

int bench_wan(int argc, char **argv)
{
	static struct wan t;
	bool done;
	int rc;

	defaults(&t);
	rc = parse(&t, argc, argv, &done);
	if (rc != CLI_OK || done)
		return rc;
	rc = check(&t);
	if (rc != CLI_OK)
		return rc;
	if (ipx_log_get_level() == IPX_LOG_INFO)
		ipx_log_set_level(IPX_LOG_WARN);
	return run(&t);
}
