/*
 * bench_common.h - what the "ipxlab bench NAME" commands share beside the
 * option helpers of cli.h: the benchmarks' one option table (every option
 * more than one of them takes, with its parser), and the terminal side of
 * the two-agent network (ipxlab/bench_pair.h): its progress line, Ctrl-C,
 * and the conditions it records, as text and as JSON members.
 */
#ifndef IPXLAB_CLI_BENCH_COMMON_H
#define IPXLAB_CLI_BENCH_COMMON_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"

#include "ipxlab/bench_pair.h"
#include "ipxlab/bench_result.h"

/*
 * The benchmarks' one option table: each option more than one benchmark
 * takes is written here once, with its code, and parsed by one function
 * below (or, for the file-server benchmarks' network, fsbench_opt). A
 * command puts the entries it has in its getopt_long table and numbers
 * its own options apart from these codes (below BENCH_OPT_JSON, or from
 * FSB_OPT_FIRST).
 */
enum {
	BENCH_OPT_JSON = OPT_FIRST_CMD + 90,
	BENCH_OPT_CSV,
	BENCH_OPT_PROFILE,
	BENCH_OPT_SIM,
	BENCH_OPT_SEED,
	BENCH_OPT_STATIONS,
	BENCH_OPT_AGENTS,
};
#define BENCH_SECONDS_LONGOPT { "seconds", required_argument, NULL, 's' }
#define BENCH_REPEAT_LONGOPT { "repeat", required_argument, NULL, 'r' }
#define BENCH_OUTPUT_LONGOPTS                                 \
	{ "json", no_argument, NULL, BENCH_OPT_JSON },        \
	{ "csv", no_argument, NULL, BENCH_OPT_CSV }
#define BENCH_SIM_LONGOPTS                                        \
	{ "profile", required_argument, NULL, BENCH_OPT_PROFILE },\
	{ "sim", no_argument, NULL, BENCH_OPT_SIM },              \
	{ "seed", required_argument, NULL, BENCH_OPT_SEED }
#define BENCH_STATIONS_LONGOPT                                    \
	{ "stations", required_argument, NULL, BENCH_OPT_STATIONS }
#define BENCH_AGENTS_LONGOPT                                      \
	{ "agents", required_argument, NULL, BENCH_OPT_AGENTS }
#define BENCH_WARMUP_LONGOPT { "warmup", required_argument, NULL, 'w' }
#define BENCH_VERBOSE_LONGOPT { "verbose", no_argument, NULL, 'v' }

/* --seconds S (0.1 to max), --repeat N (1 to max): 0, or -1 after the
 * message. */
int bench_seconds_opt(const char *arg, double max, double *out);
int bench_repeat_opt(const char *arg, unsigned long max,
		     unsigned long *out);
/* --json with --csv: refused with the message (CLI_USAGE); else CLI_OK. */
int bench_output_check(bool json, bool csv);

/*
 * The two-agent network's commands share -s/--seconds, -w/--warmup
 * (where there is one), -r/--repeat, --json and --csv (one of them), -q,
 * -v, -h: BENCH_COMMON_LONGOPTS (and BENCH_WARMUP_LONGOPT,
 * BENCH_VERBOSE_LONGOPT if they have them) in the table, and every option
 * the command does not know to bench_common_opt.
 */
#define BENCH_COMMON_LONGOPTS                                 \
	BENCH_SECONDS_LONGOPT,                                \
	BENCH_REPEAT_LONGOPT,                                 \
	BENCH_OUTPUT_LONGOPTS,                                \
	{ "quiet", no_argument, NULL, 'q' },                  \
	{ "help", no_argument, NULL, 'h' }

struct bench_common {
	const char *name;	/* "hub", for messages */
	void (*help)(FILE *out);
	double *seconds, *warmup;	/* warmup NULL: no -w */
	unsigned long *repeat, max_repeat;
	bool json, csv, quiet, verbose;
};

/* 1: handled; 0 never (every other option is bad); or the exit code
 * to return: CLI_USAGE after the message, -1 after the help (exit 0). */
int bench_common_opt(struct bench_common *c, int opt, const char *arg,
		     char **argv);
/* After getopt: the leftover argument and --json with --csv refused;
 * CLI_OK or CLI_USAGE. */
int bench_common_end(const struct bench_common *c, int argc, char **argv);

/* Stop b's loop on SIGINT/SIGTERM, and (progress) show a progress line
 * on stderr before each run. */
void bench_pair_ui(struct ipx_bpair *b, bool progress);
/*
 * After the runs, rc the last one's: when a signal ended them (Ctrl-C),
 * say so ("NAME: interrupted; printing the DONE UNITs that finished"),
 * make *rc IPX_OK and return true: the caller prints what finished (its
 * JSON with "complete": false) and exits 1.
 */
bool bench_pair_cut(struct ipx_bpair *b, const char *name, int *rc,
		    unsigned long done, const char *unit);
/* Clear the progress line (before the results are printed). */
void bench_pair_progress_end(const struct ipx_bpair *b);
/* "# ipxlab VERSION on MACHINE, ..." lines: versions, CPUs, the hub and
 * the agents, CPU placement (text). */
void bench_pair_conditions(const struct ipx_bpair *b, const char *placement,
			   FILE *out);
/* The same as the member "conditions" of the JSON object open in w. */
void bench_pair_json_conditions(struct ipx_jw *w, const struct ipx_bpair *b,
				const char *placement);

#endif
