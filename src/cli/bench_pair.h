/*
 * bench_pair.h - the network of the two-agent benchmarks on the harness
 * (bench hub, bench netbios): the hub and a sender and a receiver agent
 * started as child processes (ipx_hnet_start), the controller's node
 * joined to that hub, one run of one workload through ipx_hctl_run with
 * the machine's load and the hub's CPU use around it, the progress line
 * on a terminal and the conditions every benchmark records. Or (bench
 * eth) the two agents on Ethernet interfaces in their network namespaces
 * and the controller on a third interface of the same segment, no hub.
 */
#ifndef IPXLAB_CLI_BENCH_PAIR_H
#define IPXLAB_CLI_BENCH_PAIR_H

#include <stdbool.h>
#include <stdio.h>

#include "ipxlab/bench_harness.h"

struct bench_pair {
	const char *name;	/* "hub", for messages */
	bool progress;		/* a progress line on stderr */
	double planned;		/* seconds of sending planned in all */
	double spent;		/* of those, done */
	struct ipx_hnet *net;
	struct ipx_loop *loop;
	struct ipx_node *node;
	struct ipx_hctl *ctl;
	char hubtext[64];	/* HOST:PORT */
	/* bench_pair_start_eth: where each is ("IFACE@NETNS"), no hub */
	bool eth;
	char where[3][96];	/* sender, receiver, controller */
	int hub_cpu;		/* pinned there; -1 not pinned */
};

/* One run's figures: the sender's and receiver's RESULTs, the machine
 * over the run and the hub's share. */
struct bench_pair_run {
	struct ipx_bw_result snd, rcv;
	double wall;		/* seconds, PREPARE to the last RESULT */
	double machine_busy, machine_steal;	/* CPUs, over 'wall' */
	double hub_cpu;		/* hub's CPU seconds in the run (-1: ?) */
	double hub_user, hub_sys;	/* the same, split */
	int hub_last_cpu;
};

/* Start the hub and the two agents ("sender", "receiver") and attach
 * (pcap: the hub records to it). IPX_OK or an error with a message;
 * nothing is left running on failure. */
int bench_pair_start(struct bench_pair *b, const char *pcap, char *err,
		     size_t errlen);
/* The same on Ethernet: the agents on ends[0] (sender) and ends[1]
 * (receiver), each a child entering its namespace; this process enters
 * ctl's namespace and puts the controller's node on ctl's interface. */
int bench_pair_start_eth(struct bench_pair *b, const struct ipx_hnet_eth *ends,
			 const struct ipx_hnet_eth *ctl, char *err,
			 size_t errlen);
/* Pin the hub to cpu (cpu >= 0). IPX_OK or an error with a message. */
int bench_pair_pin_hub(struct bench_pair *b, int cpu, char *err,
		       size_t errlen);
/* QUIT the agents, stop everything (ok: give them time to exit). */
void bench_pair_stop(struct bench_pair *b, bool ok);
/*
 * Run p with the sender on agent 0 (CPU cpu_s, -1 not pinned) and the
 * receiver on agent 1 (cpu_r); 'label' names it in messages and on the
 * progress line. IPX_OK or an error with a message naming the agent.
 */
int bench_pair_run(struct bench_pair *b, const char *label, unsigned repeat,
		   const struct ipx_bw_params *p, int cpu_s, int cpu_r,
		   struct bench_pair_run *out, char *err, size_t errlen);
/* Clear the progress line (before the results are printed). */
void bench_pair_progress_end(struct bench_pair *b);
/* "# ipxlab VERSION on MACHINE, ..." lines: versions, CPUs, the hub and
 * the agents, CPU placement (text). */
void bench_pair_conditions(const struct bench_pair *b, const char *placement,
			   FILE *out);
/* The same as JSON members (no braces): "conditions": {...} inside. */
void bench_pair_json_conditions(const struct bench_pair *b,
				const char *placement, FILE *out);

#endif
