/*
 * cmd_bench_retrieval.h - "ipxlab bench retrieval" (B8) between its two
 * files: cmd_bench_retrieval.c parses, runs the network of the other
 * file-server benchmarks and prints; cmd_bench_retrieval_period.c runs
 * --period (the library builds its own networks) and prints it.
 */
#ifndef IPXLAB_CLI_CMD_BENCH_RETRIEVAL_H
#define IPXLAB_CLI_CMD_BENCH_RETRIEVAL_H

#include "fsbench.h"
#include "ipxlab/bench_b8.h"
#include "ipxlab/machine.h"

struct b8 {
	struct fsbench b;
	unsigned n, files;
	bool only[IPX_B8_CONFIGS];
	struct ipx_b8_report rep;
	/* --period */
	const char *period_spec;
	struct ipx_period period;
	struct ipx_b8_period_report *pr;
};

/* The text after the conditions: the tables, the ranking, the series. */
void b8_print_body(const struct b8 *p);
/* --period, after parsing: the checks, the run, the output. CLI_ code. */
int b8_period_main(struct b8 *p);

#endif
