/*
 * benchwan.h - what "ipxlab bench wan" (cmd_bench_wan.c), its output
 * (benchwan_print.c) and its --sim network (benchwan_sim.c) share: the
 * run's options, network and figures.
 */
#ifndef IPXLAB_CLI_BENCHWAN_H
#define IPXLAB_CLI_BENCHWAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "fsbench.h"
#include "ipxlab/bench_wan.h"
#include "ipxlab/link_profile.h"

#define WAN_MAX_SETS 8
#define WAN_FAR_BUFFER "512"	/* the bridged server's --max-buffer */

enum { PART_BATTERY = 1, PART_LIMIT = 2, PART_SCALING = 4 };

/* One run of the command: options, the far side, the figures. */
struct wan {
	struct fsbench b;
	/* options */
	double seconds;		/* 0: the 1990 times */
	unsigned parts;
	/* the parts that finished, and whether a signal cut the run short
	 * (then only those are printed, the JSON with "complete": false) */
	unsigned parts_done;
	bool interrupted;
	unsigned sets[WAN_MAX_SETS];
	size_t nsets;
	bool only[IPX_BN_BATTERY_OPS];
	unsigned max_stations;
	const char *wan_profile;
	struct ipx_profile prof;
	struct ipx_bwan_limit_opts lo;
	uint64_t max_load;
	const char *lan_arg;	/* --profile as given: the bridge's --segment */
	/* each side's controller and server: in real time the one
	 * controller for both; with --sim each network's own */
	struct ipx_hctl *ctl[2];
	struct ipx_bn_run_opts side[2];
	struct ipx_bsim *sim[2];	/* --sim: local, bridged */
	double sim_seconds[2];
	/* the far side */
	int far_port;
	char far_hub[32], far_name[48], far_spec[120];
	pid_t bridge, far_srv;
	struct ipx_node *far_node;	/* real time: the load's source, on
					 * the far hub */
	struct ipx_bwan_flood *flood, *flood_up;	/* the load, each way */
	struct ipx_bn_run_opts far;
	/* results: the medians over the repeats (--repeat, b.repeat runs;
	 * the limit: the median search, lim_med) and every run */
	struct ipx_bwan_point bat[2][WAN_MAX_SETS][IPX_BN_BATTERY_OPS];
	struct ipx_bwan_step steps[IPX_BWAN_MAX_STEPS];
	size_t nsteps;
	struct ipx_bwan_point scale[2][IPX_BN_MAX_STATIONS];
	struct ipx_bwan_point bat_runs[2][WAN_MAX_SETS][IPX_BN_BATTERY_OPS]
				      [FSBENCH_MAX_REPEAT];
	struct ipx_bwan_point scale_runs[2][IPX_BN_MAX_STATIONS]
					[FSBENCH_MAX_REPEAT];
	struct ipx_bwan_search lim_runs[FSBENCH_MAX_REPEAT];
	double lim_load[FSBENCH_MAX_REPEAT];	/* last completed; -1 none */
	int lim_med;		/* the median search */
	/* progress */
	unsigned done, total, rep;	/* rep: the repeat running, from 0 */
	const char *phase;	/* "scaling, bridged: " before the loop's */
};

/* --sim (benchwan_sim.c): build both networks (CLI_ code, the error
 * printed); note their simulated seconds (before printing); free them. */
int wan_sim_start(struct wan *t);
void wan_sim_seconds(struct wan *t);
void wan_sim_stop(struct wan *t);
/* The figures: the table (with the run's conditions), JSON, CSV. */
void wan_print_table(const struct wan *t);
void wan_print_json(const struct wan *t);
void wan_print_csv(const struct wan *t);

#endif
