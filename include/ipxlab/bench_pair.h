/*
 * bench_pair.h - the network of the two-agent benchmarks on the harness
 * (bench hub, netbios, spx): the hub and a sender and a receiver agent
 * started as child processes (ipx_hnet_start), the controller's node
 * joined to that hub, one run of one workload through ipx_hctl_run with
 * the machine's load and the hub's CPU use around it. Or (bench eth) the
 * two agents on Ethernet interfaces in their network namespaces and the
 * controller on a third interface of the same segment, no hub. Nothing
 * here prints: progress goes to the caller's callback.
 */
#ifndef IPXLAB_BENCH_PAIR_H
#define IPXLAB_BENCH_PAIR_H

#include <stdbool.h>
#include <stdio.h>

#include "ipxlab/bench_harness.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ipx_bpair;
/* Before each run: 'label' names it; b->planned - b->spent is the
 * sending left. */
typedef void (*ipx_bpair_progress_cb)(void *ctx, const struct ipx_bpair *b,
				      const char *label);

struct ipx_bpair {
	const char *name;	/* "hub", for messages */
	ipx_bpair_progress_cb progress;	/* or NULL */
	void *progress_ctx;
	/* Once the controller's loop exists (e.g. to stop it on SIGINT),
	 * or NULL. */
	void (*on_loop)(struct ipx_loop *loop);
	double planned;		/* seconds of sending planned in all */
	double spent;		/* of those, done */
	struct ipx_hnet *net;
	struct ipx_loop *loop;
	struct ipx_node *node;
	struct ipx_hctl *ctl;
	char hubtext[64];	/* HOST:PORT */
	/* what the conditions record, kept after ipx_bpair_stop */
	int hub_pid;		/* 0: none (Ethernet) */
	struct ipx_hctl_agent agents[2];	/* sender, receiver */
	/* bench_pair_start_eth: where each is ("IFACE@NETNS"), no hub */
	bool eth;
	char where[3][96];	/* sender, receiver, controller */
	int hub_cpu;		/* pinned there; -1 not pinned */
};

/* One run's figures: the sender's and receiver's RESULTs, the machine
 * over the run and the hub's share. */
struct ipx_bpair_run {
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
int ipx_bpair_start(struct ipx_bpair *b, const char *pcap, char *err,
		     size_t errlen);
/* The same on Ethernet: the agents on ends[0] (sender) and ends[1]
 * (receiver), each a child entering its namespace; this process enters
 * ctl's namespace and puts the controller's node on ctl's interface. */
int ipx_bpair_start_eth(struct ipx_bpair *b, const struct ipx_hnet_eth *ends,
			 const struct ipx_hnet_eth *ctl, char *err,
			 size_t errlen);
/* Pin the hub to cpu (cpu >= 0). IPX_OK or an error with a message. */
int ipx_bpair_pin_hub(struct ipx_bpair *b, int cpu, char *err,
		       size_t errlen);
/*
 * After a run returned rc: did a signal (read on the controller's loop,
 * see on_loop) end it? An agent killed by the same Ctrl-C may have been
 * noticed first, so a failed run looks at the loop once more.
 */
bool ipx_bpair_interrupted(struct ipx_bpair *b, int rc);
/* b cleared for a new run but for the caller's hooks (name, progress and
 * its context, on_loop), which it keeps. */
void ipx_bpair_reset(struct ipx_bpair *b);
/* QUIT the agents, stop everything (ok: give them time to exit). */
void ipx_bpair_stop(struct ipx_bpair *b, bool ok);
/*
 * Run p with the sender on agent 0 (CPU cpu_s, -1 not pinned) and the
 * receiver on agent 1 (cpu_r); 'label' names it in messages and on the
 * progress line. IPX_OK or an error with a message naming the agent.
 */
int ipx_bpair_run(struct ipx_bpair *b, const char *label, unsigned repeat,
		   const struct ipx_bw_params *p, int cpu_s, int cpu_r,
		   struct ipx_bpair_run *out, char *err, size_t errlen);
#ifdef __cplusplus
}
#endif

#endif
