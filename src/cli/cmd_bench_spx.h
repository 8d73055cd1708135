/*
 * cmd_bench_spx.h - what "ipxlab bench spx" (cmd_bench_spx.c) and its
 * table (cmd_bench_spx_text.c) share.
 */
#ifndef IPXLAB_CLI_CMD_BENCH_SPX_H
#define IPXLAB_CLI_CMD_BENCH_SPX_H

#include <stdbool.h>

#include "bench_common.h"
#include "ipxlab/bench.h"

struct spx_cli {
	struct ipx_spxb_bench_opts o;
	struct bench_common c;	/* the shared options */
};

/* One row of run 'run' (with its ratio to the IPX row in 'all'), and
 * with verbose its counters and CPU use. */
void bench_spx_print_row(int run, const struct ipx_spxb_result *r,
			 const ipx_spxb_rows *all, bool verbose);
/* The summary over the runs: the table, SPX I's round trip, the verdict. */
void bench_spx_print_summary(const struct spx_cli *c,
			     const struct ipx_spxb_report *rep);

#endif
