/*
 * fsbench.h - what the file-server benchmarks' commands (bench battery,
 * bench copy) share: their common options, and the network they run on:
 * a hub and N workstation agents as child processes (or an existing hub),
 * ipxlab's file server started on a scratch volume filled with the
 * fixtures (or an existing server by name), and the controller attached.
 * With --sim the whole network is built in this process on a fake clock
 * instead (bench_sim.h); --profile gives the link either way.
 */
#ifndef IPXLAB_CLI_FSBENCH_H
#define IPXLAB_CLI_FSBENCH_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "ipxlab/bench_harness.h"
#include "ipxlab/bench_ncp.h"
#include "ipxlab/bench_sim.h"
#include "ipxlab/link_profile.h"

struct fsbench {
	/* options */
	const char *cmd;	/* "battery" or "copy", for messages */
	const char *hub;	/* --hub: join this one */
	const char *server;	/* --server NAME: use it */
	double wait;		/* --wait */
	bool json, csv, quiet;
	bool progress;		/* a terminal and not --quiet */
	unsigned agents;	/* workstations to start */
	/* --sim, --profile, --seed */
	bool sim;		/* the whole network here, simulated time */
	bool have_profile;	/* --profile given (or --sim's default) */
	bool profile_default;	/* --sim without --profile: eth10 */
	struct ipx_profile profile;
	uint64_t seed;		/* --sim: the segments' randomness */
	bool seed_given;
	struct ipx_bsim *bsim;
	/* the run */
	char dir[64];		/* the scratch volume ("" none) */
	char srvname[48];
	char hubtext[64];
	pid_t srv;
	struct ipx_hnet *net;
	struct ipx_loop *loop;
	struct ipx_node *node;
	struct ipx_hctl *ctl;
	struct ipx_bn_run_opts ro;
};

/*
 * What an analyzer saw on the wire during one test: with --sim the
 * simulated network's analyzer of the workstations' segment fills it
 * (fsbench_wire_end); in real time another source (the hub's capture) can,
 * through the same struct. valid is false when nothing measured it.
 */
struct fsbench_wire {
	bool valid;
	const char *source;	/* "simulated analyzer", ... */
	double peak_kbs;	/* the busiest whole second, Kbyte/s */
	double mean_kbs;	/* first to last packet */
	uint64_t packets, bytes;
	uint64_t gaps[IPX_ANALYZE_GAPS];	/* arrival gaps, analyze.h */
};

/* Before a test: the analyzer starts afresh (nothing in real time). */
void fsbench_wire_begin(struct fsbench *b);
/* After it: what was seen since fsbench_wire_begin, or valid false. */
void fsbench_wire_end(struct fsbench *b, struct fsbench_wire *out);

/* The options both commands take (fsbench_opt); for their help texts. */
#define FSBENCH_HELP                                                          \
	"      --server NAME   use this running file server (its SYS volume\n"  \
	"                      must hold the fixtures: see --fixtures); default:\n" \
	"                      start 'ipxlab server' here on a scratch volume\n" \
	"      --hub HOST[:PORT]  join this hub (default: start one on a free\n" \
	"                      loopback port); the workstations start here\n"   \
	"      --fixtures DIR  write the fixtures into DIR (a SYS volume for\n"  \
	"                      'ipxlab server') and exit\n"                     \
	"      --wait S        for the hub, agents and server (default 10)\n"  \
	"      --profile NAME|FILE  the link: eth10, tr4, tr16, isn or a\n"    \
	"                      profile file; in real time the hub started\n"  \
	"                      here becomes one segment of it (default:\n"    \
	"                      today's link, no profile)\n"                  \
	"      --sim           the whole network in this process in simulated\n" \
	"                      time on an in-memory segment of the profile\n"  \
	"                      (default eth10): only the wire takes time, the\n" \
	"                      server's and workstations' CPU is not modelled;\n" \
	"                      deterministic; not with --hub or --server\n"    \
	"      --seed N        --sim's randomness (default 1): same seed,\n"   \
	"                      same output\n"                                  \
	"      --json, --csv   machine-readable output instead of the table\n" \
	"  -q, --quiet         no progress line; -v, --verbose more log lines\n"

enum {
	FSB_OPT_SERVER = 1200,
	FSB_OPT_FIXTURES,
	FSB_OPT_JSON,
	FSB_OPT_CSV,
	FSB_OPT_PROFILE,
	FSB_OPT_SIM,
	FSB_OPT_SEED,
	FSB_OPT_FIRST,		/* each command's own from here */
};

#define FSBENCH_LONGOPTS                                            \
	{ "server", required_argument, NULL, FSB_OPT_SERVER },      \
	{ "hub", required_argument, NULL, OPT_HUB },                \
	{ "fixtures", required_argument, NULL, FSB_OPT_FIXTURES },  \
	{ "wait", required_argument, NULL, OPT_WAIT },              \
	{ "json", no_argument, NULL, FSB_OPT_JSON },                \
	{ "csv", no_argument, NULL, FSB_OPT_CSV },                  \
	{ "profile", required_argument, NULL, FSB_OPT_PROFILE },    \
	{ "sim", no_argument, NULL, FSB_OPT_SIM },                  \
	{ "seed", required_argument, NULL, FSB_OPT_SEED },          \
	{ "quiet", no_argument, NULL, 'q' },                        \
	{ "verbose", no_argument, NULL, 'v' },                      \
	{ "help", no_argument, NULL, 'h' }

/* One of the shared options: 1 taken, 0 not one of them, -1 bad usage
 * (message printed); 2: --fixtures done, exit with *exit_code. */
int fsbench_opt(struct fsbench *b, int opt, const char *arg, unsigned stations,
		int *exit_code);
/* After parsing: checks and the progress decision. CLI_ code. */
int fsbench_check(struct fsbench *b);
/* Build the network, start or find the server, attach the agents. */
int fsbench_start(struct fsbench *b);
/* Stop everything started; remove the scratch volume. */
void fsbench_stop(struct fsbench *b, bool ok);
/* The run's conditions as one JSON object's members (no braces). */
void fsbench_json_conditions(const struct fsbench *b, FILE *out);
/* The same as "# ..." lines above the table. */
void fsbench_print_conditions(const struct fsbench *b, FILE *out);
/* A JSON string (quotes added, escaped). */
void fsbench_json_str(FILE *out, const char *s);

#endif
