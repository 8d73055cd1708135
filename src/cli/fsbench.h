/*
 * fsbench.h - what the file-server benchmarks' commands (bench battery,
 * copy, perftest, arrival, ncp, wan) share: their common options, parsed
 * into what the library's network takes (bench_fsnet.h: the hub, agents
 * and file server, or with --sim all of it in this process on a fake
 * clock), the calls that start and stop it with the error printed, and
 * the run's conditions as text and JSON members.
 */
#ifndef IPXLAB_CLI_FSBENCH_H
#define IPXLAB_CLI_FSBENCH_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "bench_common.h"
#include "ipxlab/bench_fs.h"
#include "ipxlab/bench_fsnet.h"
#include "ipxlab/bench_harness.h"
#include "ipxlab/bench_result.h"
#include "ipxlab/bench_ncp.h"
#include "ipxlab/bench_sim.h"
#include "ipxlab/link_profile.h"
#include "ipxlab/machine.h"

struct fsbench {
	/* options */
	const char *cmd;	/* "battery" or "copy", for messages */
	const char *hub;	/* --hub: join this one */
	const char *server;	/* --server NAME: use it */
	double wait;		/* --wait */
	bool json, csv, quiet;
	bool progress;		/* a terminal and not --quiet */
	unsigned agents;	/* workstations to start (or to use) */
	/* --agents: these running agents instead of children (needs --hub) */
	char given[IPX_BN_MAX_STATIONS * (IPX_HARNESS_NAME_MAX + 1)];
	const char *names[IPX_BN_MAX_STATIONS];
	unsigned ngiven;
	bool capture;		/* record the wire (the hub started here) */
	unsigned repeat;	/* --repeat: each test this many times */
	unsigned max_repeat;	/* its bound; 0: FSBENCH_MAX_REPEAT */
	/* --sim, --profile, --seed */
	bool sim;		/* the whole network here, simulated time */
	bool have_profile;	/* --profile given (or --sim's default) */
	bool profile_default;	/* --sim without --profile: eth10 */
	struct ipx_profile profile;
	uint64_t seed;		/* --sim: the segments' randomness */
	bool seed_given;
	bool have_bridge;	/* --bridge: the server behind a WAN bridge */
	struct ipx_profile bridge;
	/* --period NAME|FILE: --sim on the period's machines (machine.h) */
	bool have_period;
	struct ipx_period period;
	/* bench wan in real time: the far side behind a bridge of this
	 * profile, its server's largest buffer (bench_fsnet.h) */
	const struct ipx_profile *far;
	unsigned far_max_buffer;
	/* the network (fsbench_start: the options above, the library's) */
	struct ipx_fsnet n;
};

/* The options both commands take (fsbench_opt); for their help texts. */
#define FSBENCH_HELP                                                          \
	"      --server NAME   use this running file server (its SYS volume\n"  \
	"                      must hold the fixtures: see --fixtures); default:\n" \
	"                      start 'ipxlab server' here on a scratch volume\n" \
	"      --hub HOST[:PORT]  join this hub (default: start one on a free\n" \
	"                      loopback port); the workstations start here\n"   \
	"      --fixtures DIR  write the fixtures into DIR (a SYS volume for\n"  \
	"                      'ipxlab server') and exit\n"                     \
	"      --agents NAMES  use these running agents ('ipxlab agent\n"    \
	"                      --name NAME' on the hub of --hub), e.g.\n"     \
	"                      ws1,ws2: one per workstation, instead of\n"   \
	"                      starting them here\n"                          \
	"      --repeat N      each test N times (1 to 50): the table shows\n" \
	"                      the median [min-max], the JSON every run\n"   \
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
	"      --bridge NAME|FILE  with --sim: the file server alone on a\n"  \
	"                      segment of its own, joined to the workstations'\n" \
	"                      by WAN bridge modules of this profile (isn:\n"  \
	"                      the 1990 WAN switch; see bench wan)\n"         \
	"      --json, --csv   machine-readable output instead of the table\n" \
	"  -q, --quiet         no progress line; -v, --verbose more log lines\n"

/* --period for the commands that take it through fsbench_opt (B2-B6):
 * the long option and its help lines. */
#define FSBENCH_PERIOD_LONGOPT \
	{ "period", required_argument, NULL, FSB_OPT_PERIOD }
#define FSBENCH_PERIOD_HELP \
	"      --period NAME|FILE  --sim on a 1990 period's machines\n"       \
	"                      (netware-1990, or a period file; 'ipxlab\n"  \
	"                      period' lists them): the server's and the\n"  \
	"                      workstations' CPU, disk and adapters take\n"  \
	"                      simulated time; its wire unless --profile; a\n" \
	"                      fidelity table where 1990 figures exist\n"

/* The options only the file-server benchmarks take; the rest are the
 * benchmarks' one table's (bench_common.h). */
enum {
	FSB_OPT_SERVER = 1200,
	FSB_OPT_FIXTURES,
	FSB_OPT_BRIDGE,
	FSB_OPT_PERIOD,
	FSB_OPT_FIRST,		/* each command's own from here */
};

#define FSBENCH_LONGOPTS                                            \
	{ "server", required_argument, NULL, FSB_OPT_SERVER },      \
	{ "hub", required_argument, NULL, OPT_HUB },                \
	{ "fixtures", required_argument, NULL, FSB_OPT_FIXTURES },  \
	{ "wait", required_argument, NULL, OPT_WAIT },              \
	BENCH_OUTPUT_LONGOPTS,                                      \
	BENCH_SIM_LONGOPTS,                                         \
	{ "bridge", required_argument, NULL, FSB_OPT_BRIDGE },      \
	BENCH_AGENTS_LONGOPT,                                       \
	BENCH_REPEAT_LONGOPT,                                       \
	{ "quiet", no_argument, NULL, 'q' },                        \
	{ "verbose", no_argument, NULL, 'v' },                      \
	{ "help", no_argument, NULL, 'h' }

/* One of the shared options: 1 taken, 0 not one of them, -1 bad usage
 * (message printed); 2: --fixtures done, exit with *exit_code. */
int fsbench_opt(struct fsbench *b, int opt, const char *arg, unsigned stations,
		int *exit_code);
/* "1,5": workstation counts (1..IPX_BN_MAX_STATIONS, at most max of
 * them) into out[*n]; 0, or -1 with the message printed. */
int fsbench_parse_counts(const char *opt, const char *arg, unsigned *out,
			 size_t max, size_t *n);
/* --only "lock,shared-small": the battery tests chosen. 0 or -1. */
int fsbench_parse_ops(const char *arg, bool only[IPX_BN_BATTERY_OPS]);
/* After parsing: checks and the progress decision. CLI_ code. */
int fsbench_check(struct fsbench *b);
/* Build the network (bench_fsnet.h's ipx_fsnet_start on the options
 * parsed; Ctrl-C stops its loop). CLI_ code, the error printed. */
int fsbench_start(struct fsbench *b);
/* After parsing, the whole life of a file-server benchmark: the checks,
 * need workstations (0: no count to check), quieter logging, the
 * network, run(ctx) on it, and the stop. CLI_ code. */
int fsbench_main(struct fsbench *b, unsigned need, int (*run)(void *ctx),
		 void *ctx);
/* Stop everything started; remove the scratch volume. */
void fsbench_stop(struct fsbench *b, bool ok);
/* Did a failed run (rc) fail because SIGINT or SIGTERM stopped it? Then
 * the command prints what finished, marked incomplete, and exits 1. */
bool fsbench_interrupted(struct fsbench *b, int rc);
/* The run's conditions as members of the object open in w
 * (bench_result.h). */
void fsbench_jw_conditions(const struct fsbench *b, struct ipx_jw *w);
/* The network started, for a bench_fs.h entry point. */
void fsbench_net(struct fsbench *b, struct ipx_bfs_net *out);
/* fsbench_jw_conditions as a bench_fs.h conditions callback (ctx: b). */
void fsbench_jw_cond(struct ipx_jw *w, const void *b);
/* The progress callback of the benchmark entry points (ctx: b): the line
 * on stderr when b->progress, NULL clears it. */
void fsbench_progress(void *ctx, const char *line);
/* The same as "# ..." lines above the table. */
void fsbench_print_conditions(const struct fsbench *b, FILE *out);
/* --stations needs n workstations: with --agents, n of them given?
 * (CLI_USAGE with a message if not.) */
int fsbench_need(const struct fsbench *b, unsigned n);

#define FSBENCH_MAX_REPEAT IPX_BFS_MAX_REPEAT	/* as FSBENCH_HELP says */

/*
 * A --period run's "today" (fidelity tables): the same options on the
 * wire alone (--sim, no machines), 'stations' workstations, a network of
 * its own that run(today, ctx) runs on, then stopped. CLI_ code (run's).
 */
int fsbench_today(const struct fsbench *b, unsigned stations,
		  int (*run)(struct fsbench *today, void *ctx), void *ctx);
/* With --period on a benchmark the 1990 note gave no figures of its
 * own: the line that says so (text output only). */
void fsbench_no_fidelity(const struct fsbench *b, const char *bench,
			 FILE *out);

/* After the last run: stop the network (the capture closes), then
 * analyze every window in one pass over the file. CLI_ code. */
int fsbench_wire_collect(struct fsbench *b);

#endif
