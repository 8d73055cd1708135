/*
 * benchwan.h - what "ipxlab bench wan" (cmd_bench_wan.c), its output
 * (benchwan_print.c) and its --sim network (benchwan_sim.c) share: the
 * run's options, network and figures. In real time the network, its far
 * side behind the WAN bridge among it, is the library's (bench_fsnet.h).
 */
#ifndef IPXLAB_CLI_BENCHWAN_H
#define IPXLAB_CLI_BENCHWAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "fsbench.h"
#include "ipxlab/bench_b6.h"
#include "ipxlab/bench_stat.h"
#include "ipxlab/bench_wan.h"
#include "ipxlab/link_profile.h"

#define WAN_MAX_SETS IPX_B6_MAX_SETS
#define WAN_QUICK_SECONDS 1.0	/* --quick: per test */
#define WAN_FAR_BUFFER "512"	/* the bridged server's --max-buffer */
#define WAN_FAR_MAX_BUFFER 512u	/* the same, as a number */

enum {
	PART_BATTERY = IPX_B6_BATTERY,
	PART_LIMIT = IPX_B6_LIMIT,
	PART_SCALING = IPX_B6_SCALING
};

/* One run of the command: options, the networks, the figures. */
struct wan {
	struct fsbench b;
	struct ipx_b6_opts o;	/* the run: parts, sets, limit, networks */
	struct ipx_b6_report r;	/* its figures */
	/* whether a signal cut the run short (then only r.parts_done are
	 * printed, the JSON with "complete": false) */
	bool interrupted;
	const char *wan_profile;
	struct ipx_profile prof;
	uint64_t max_load;
	const char *lan_arg;	/* --profile as given: the bridge's --segment */
	struct ipx_bsim *sim[2];	/* --sim: local, bridged */
	double sim_seconds[2];
	/* the far side (in real time the library's: b.n.far) */
	char far_hub[32], far_name[48];
	struct ipx_bwan_flood *flood_up;	/* --sim: the load back */
};

/* --sim (benchwan_sim.c): build both networks (CLI_ code, the error
 * printed); note their simulated seconds (before printing); free them. */
int wan_sim_start(struct wan *t);
void wan_sim_seconds(struct wan *t);
void wan_sim_stop(struct wan *t);
/* Real time: the network started (fsbench_start, its far side behind the
 * bridge the library forked) into the run's options; and let go of it
 * before fsbench_stop stops it. */
void wan_far_take(struct wan *t);
void wan_far_drop(struct wan *t);
/* The table's helpers the JSON shares (benchwan_print.c): part of whole
 * in %; the mean bridged/local traffic of set s; the 1990 figure for ws
 * workstations (0: none); the limit searches' completed loads (how many). */
double wan_pct(double part, double whole);
double wan_mean_traffic_pct(const struct wan *t, size_t s);
double wan_published_pct(unsigned ws);
size_t wan_limit_loads(const struct wan *t, struct ipx_stat_summary *st);
/* The figures: the table (with the run's conditions); JSON, CSV
 * (benchwan_json.c). */
void wan_print_table(const struct wan *t);
void wan_print_json(const struct wan *t);
void wan_print_csv(const struct wan *t);

#endif
