/*
 * fsbench.h - what the file-server benchmarks' commands (bench battery,
 * bench copy) share: their common options, and the network they run on:
 * a hub and N workstation agents as child processes (or an existing hub),
 * ipxlab's file server started on a scratch volume filled with the
 * fixtures (or an existing server by name), and the controller attached.
 */
#ifndef IPXLAB_CLI_FSBENCH_H
#define IPXLAB_CLI_FSBENCH_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "ipxlab/bench_harness.h"
#include "ipxlab/bench_ncp.h"

struct fsbench {
	/* options */
	const char *cmd;	/* "battery" or "copy", for messages */
	const char *hub;	/* --hub: join this one */
	const char *server;	/* --server NAME: use it */
	double wait;		/* --wait */
	bool json, csv, quiet;
	bool progress;		/* a terminal and not --quiet */
	unsigned agents;	/* workstations to start */
	/* Called by fsbench_start once the server is found, before the
	 * controller opens its sockets (SAP among them): more of the
	 * network, more servers to find. NULL: none. CLI_ code. */
	int (*before_attach)(struct fsbench *b);
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
	"      --json, --csv   machine-readable output instead of the table\n" \
	"  -q, --quiet         no progress line; -v, --verbose more log lines\n"

enum {
	FSB_OPT_SERVER = 1200,
	FSB_OPT_FIXTURES,
	FSB_OPT_JSON,
	FSB_OPT_CSV,
	FSB_OPT_FIRST,		/* each command's own from here */
};

#define FSBENCH_LONGOPTS                                            \
	{ "server", required_argument, NULL, FSB_OPT_SERVER },      \
	{ "hub", required_argument, NULL, OPT_HUB },                \
	{ "fixtures", required_argument, NULL, FSB_OPT_FIXTURES },  \
	{ "wait", required_argument, NULL, OPT_WAIT },              \
	{ "json", no_argument, NULL, FSB_OPT_JSON },                \
	{ "csv", no_argument, NULL, FSB_OPT_CSV },                  \
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
/* Build the network, start or find the server, attach the agents. */
int fsbench_start(struct fsbench *b);
/* A file server's address by SAP from the controller's node (repeated
 * until --wait). CLI_ code, the error printed. */
int fsbench_find_server(struct fsbench *b, const char *name,
			struct ipx_addr *out);
/* Stop everything started; remove the scratch volume. */
void fsbench_stop(struct fsbench *b, bool ok);
/* The run's conditions as one JSON object's members (no braces). */
void fsbench_json_conditions(const struct fsbench *b, FILE *out);
/* The same as "# ..." lines above the table. */
void fsbench_print_conditions(const struct fsbench *b, FILE *out);
/* A JSON string (quotes added, escaped). */
void fsbench_json_str(FILE *out, const char *s);

#endif
