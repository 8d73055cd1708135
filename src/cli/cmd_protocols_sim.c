/*
 * cmd_protocols_sim.c - "ipxlab bench protocols --sim" and "--period":
 * B1 in simulated time (bench_b1sim.h). With a period, the same run on
 * the same wire without machines as well ("today"), and the fidelity
 * table after the figures (in the JSON as "fidelity"); and the options
 * of those runs (--sim, --period, --profile, --seed), with what they
 * exclude.
 */
#include <stdlib.h>

#include "bench_common.h"
#include "cmd_protocols.h"
#include "ipxlab/bench_b1sim.h"
#include "ipxlab/err.h"

/* --sim, --period, --profile, --seed: 1 if opt was one, 0 if not, -1
 * after a message. */
int protocols_sim_opt(struct run_ctx *r, int opt, const char *arg)
{
	unsigned long v;

	switch (opt) {
	case BENCH_OPT_SIM:
		r->sim = true;
		return 1;
	case PROTOCOLS_OPT_PERIOD:
		if (cli_period_opt(CMD, arg, &r->period) < 0)
			return -1;
		r->have_period = r->sim = true;
		return 1;
	case BENCH_OPT_PROFILE:
		if (cli_profile_opt(CMD, "--profile", arg, &r->profile) < 0)
			return -1;
		r->have_profile = true;
		return 1;
	case BENCH_OPT_SEED:
		if (cli_parse_uint(CMD, "--seed", arg, 0, UINT32_MAX, &v) < 0)
			return -1;
		r->seed = v;
		r->seed_given = true;
		return 1;
	default:
		return 0;
	}
}

/* What --sim cannot take: the real network's options. 0, or -1 after a
 * message. */
int protocols_sim_check(const struct run_ctx *r, bool seconds_given,
		     bool repeat_given)
{
	const char *bad = r->hub	    ? "--hub"
			  : r->link	    ? "--link"
			  : r->agents	    ? "--agents"
			  : r->config	    ? "--config"
			  : r->pcap	    ? "--pcap"
			  : r->pin_given    ? "--pin"
			  : seconds_given   ? "--seconds"
			  : repeat_given    ? "--repeat"
			  : r->o.timeout > 0 ? "--timeout"
					    : NULL;

	if (!r->sim) {
		if (r->have_profile || r->seed_given) {
			cli_error(CMD, "%s needs --sim or --period (the "
				       "real-time run's wire is the hub's)",
				  r->have_profile ? "--profile" : "--seed");
			return -1;
		}
		return 0;
	}
	if (bad) {
		cli_error(CMD, "%s is for the real-time run; --sim%s runs the "
			       "whole network here in simulated time (one "
			       "deterministic pass of --count packets)",
			  bad, r->have_period ? " (and --period)" : "");
		return -1;
	}
	if (r->csv) {
		cli_error(CMD, "--csv is for the real-time run; with --sim "
			       "give --json or neither");
		return -1;
	}
	return 0;
}

int protocols_sim(struct run_ctx *r)
{
	struct ipx_b1sim_opts o = {
		.profile = r->have_profile ? &r->profile : NULL,
		.period = r->have_period ? &r->period : NULL,
		.seed = r->seed_given ? r->seed : 1,
		.count = r->o.count,
		.size = r->o.size,
	};
	struct ipx_b1sim_report *rep = calloc(2, sizeof(*rep));
	struct ipx_fid_table fid;
	char err[768];
	int rc;

	if (!rep) {
		cli_error(CMD, "out of memory");
		return CLI_FAIL;
	}
	rc = ipx_b1sim_run(&o, &rep[0], err, sizeof(err));
	/* the 1990 figures are of 255-byte packets */
	bool fidelity = o.period && r->o.size == IPX_B1_DEFAULT_SIZE;

	if (o.period && !fidelity)
		cli_error(CMD, "--size %zu: the 1990 figures are of %d-byte "
			       "packets, so no fidelity table",
			  r->o.size, IPX_B1_DEFAULT_SIZE);
	if (rc == IPX_OK && fidelity) {
		struct ipx_profile wire = o.profile ? *o.profile
						    : o.period->wire;

		o.period = NULL;	/* today: the same wire alone */
		o.profile = &wire;
		rc = ipx_b1sim_run(&o, &rep[1], err, sizeof(err));
		if (rc == IPX_OK)
			ipx_b1sim_fidelity(&rep[0], &rep[1], &fid);
	}
	if (rc != IPX_OK) {
		cli_error(CMD, "protocols --sim: %s", err);
		free(rep);
		return CLI_FAIL;
	}
	if (r->json)
		ipx_b1sim_write_json(stdout, &rep[0], fidelity ? &fid : NULL);
	else
		ipx_b1sim_print(stdout, &rep[0], fidelity ? &fid : NULL);
	free(rep);
	return CLI_OK;
}
