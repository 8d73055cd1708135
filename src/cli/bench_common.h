/*
 * bench_common.h - what the "ipxlab bench NAME" commands share beside the
 * option helpers of cli.h: the terminal side of the two-agent network
 * (ipxlab/bench_pair.h): its progress line, Ctrl-C, and the conditions
 * it records, as text and as JSON members.
 */
#ifndef IPXLAB_CLI_BENCH_COMMON_H
#define IPXLAB_CLI_BENCH_COMMON_H

#include <stdbool.h>
#include <stdio.h>

#include "ipxlab/bench_pair.h"
#include "ipxlab/bench_result.h"

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
