/*
 * cmd_protocols.h - what the files of "ipxlab bench protocols" share: the
 * command's state, its options (cmd_protocols_opts.c) and its text table
 * (cmd_protocols_text.c); the run is cmd_protocols.c.
 */
#ifndef IPXLAB_CLI_CMD_PROTOCOLS_H
#define IPXLAB_CLI_CMD_PROTOCOLS_H

#include "cli.h"
#include "ipxlab/bench_b1.h"
#include "ipxlab/capture.h"
#include "ipxlab/link_profile.h"
#include "ipxlab/machine.h"

#define CMD "bench"
#define DEFAULT_WAIT 10.0

struct run_ctx {
	struct ipx_b1_opts o;
	bool json, csv, progress;
	/* whether SIGINT/SIGTERM cut the run short: then the passes that
	 * finished are printed, the JSON with "complete": false */
	bool interrupted;
	bool pin_given;
	const char *hub, *agents, *config;
	const char *link;	/* --link eth:...: the controller's node */
	char hubwhere[256];	/* --link hub:WHERE */
	struct cli_node cn;	/* the node on 'link' */
	double wait;
	char names[2][IPX_HARNESS_NAME_MAX + 1];	/* --agents S,R */
	struct ipx_b1_net n;	/* the hub, the controller, the agents */
	const char *pcap;	/* --pcap FILE */
	/* --sim, --period (implies --sim), --profile, --seed: the whole
	 * network here in simulated time (cmd_protocols_sim.c) */
	bool sim, have_profile, have_period, seed_given;
	struct ipx_profile profile;
	struct ipx_period period;
	uint64_t seed;
};

/* The options into r: CLI_OK to run, a CLI_ exit code, or -1 after
 * --help. */
int protocols_parse(struct run_ctx *r, int argc, char **argv);
/* --period's getopt code (the command's others are cmd_protocols_opts.c's,
 * numbered from OPT_FIRST_CMD). */
#define PROTOCOLS_OPT_PERIOD (OPT_FIRST_CMD + 40)
/* --sim, --period, --profile, --seed into r: 1 if opt was one, 0 if
 * not, -1 after a message. */
int protocols_sim_opt(struct run_ctx *r, int opt, const char *arg);
/* After getopt: the options --sim excludes, and --profile or --seed
 * without it. 0, or -1 after a message. */
int protocols_sim_check(const struct run_ctx *r, bool seconds_given,
			bool repeat_given);
/* --sim / --period: the run, printed; a CLI_ exit code. */
int protocols_sim(struct run_ctx *r);
/* The table with the 1990 reference beside ours, and the notes. */
void protocols_print_table(const struct run_ctx *r,
			   const struct ipx_b1_report *rep);

#endif
