/*
 * cmd_bench_tuning.h - what "ipxlab bench tuning" (cmd_bench_tuning.c)
 * and its table (cmd_bench_tuning_text.c) share.
 */
#ifndef IPXLAB_CLI_CMD_BENCH_TUNING_H
#define IPXLAB_CLI_CMD_BENCH_TUNING_H

#include <stdbool.h>

#include "ipxlab/bench_b9.h"
#include "ipxlab/machine.h"

struct tuning {
	struct ipx_b9_opts o;
	struct ipx_b9_report rep;
	struct ipx_period period;
	bool seed_given, json, csv, quiet, progress, have_period,
		profile_given;
};

/* The text output: every step's kB/s, the changes beside the note's,
 * the ceiling and six workstations, and with a period the fidelity
 * table. */
void bench_tuning_print(const struct tuning *t);

#endif
