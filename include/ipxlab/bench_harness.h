/*
 * bench_harness.h - the benchmark harness every benchmark reuses: a
 * controller and workstation agents, each its own process and its own IPX
 * node, like the separate sender and receiver programs of the original
 * 1990 benchmarks (docs/benchmarks.md). What an agent measures is a
 * workload (bench_work.h); the harness only places, starts and collects.
 *
 *   agent       an IPX node that listens for a controller on an SPX socket
 *               and advertises it by SAP (type IPX_HARNESS_SAP_TYPE, the
 *               agent's name). It runs one workload at a time.
 *   controller  an IPX node on the same network: finds agents by name
 *               through SAP, connects to each over SPX (the network under
 *               test), and runs benchmark runs on them.
 *   network     by default the controller builds it (ipx_hnet_start): a
 *               hub on a free loopback port and the agents as child
 *               processes; or it joins an existing hub, or an Ethernet
 *               segment (the node is the caller's: ipx_hctl_new takes
 *               any node that is up), and uses agents already running
 *               there (`ipxlab agent`, on any machine).
 *
 * A run: every receiver is PREPAREd and answers READY with where to send;
 * then every sender is PREPAREd with its receiver's READY info and answers
 * READY (connected). Only when all are READY (the barrier) does any sender
 * get GO. Each sender answers RESULT when its last send completed; then
 * every receiver gets FINISH and answers RESULT after draining. An agent
 * that reports ERROR, closes, dies or stays silent past the deadline ends
 * the run with a message naming it and what was running.
 *
 * The control protocol (docs/benchmarks.md): length-framed messages, each
 * with an 8-byte header, every field big-endian through byte accessors:
 *
 *   offset size field
 *   0      2    magic 0x4942 ("IB")
 *   2      1    version (IPX_HARNESS_VERSION; a mismatch is refused)
 *   3      1    type (enum ipx_hmsg_type)
 *   4      4    body length (at most IPX_HMSG_MAX_BODY)
 *   8      ...  body, a fixed layout per type (see harness_msg.c)
 *
 * The first message each side sends is HELLO.
 */
#ifndef IPXLAB_BENCH_HARNESS_H
#define IPXLAB_BENCH_HARNESS_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ipxlab/bench_work.h"
#include "ipxlab/clock.h"
#include "ipxlab/config.h"
#include "ipxlab/frame.h"
#include "ipxlab/ipx.h"
#include "ipxlab/link_profile.h"
#include "ipxlab/loop.h"
#include "ipxlab/node.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IPX_HARNESS_VERSION 3
#define IPX_HARNESS_MAGIC 0x4942
/* The SAP service type agents advertise: "ipxlab benchmark agent", from
 * the range no Novell product is known to use. */
#define IPX_HARNESS_SAP_TYPE 0x9B1B
/* Longest agent name (a SAP name, printable ASCII). */
#define IPX_HARNESS_NAME_MAX 31

/* ---- control messages (harness_msg.c) ---- */

enum ipx_hmsg_type {
	IPX_HMSG_HELLO = 1,	/* both ways, first: who is speaking */
	IPX_HMSG_PREPARE,	/* controller: set up a workload */
	IPX_HMSG_READY,		/* agent: set up (receiver: where to send) */
	IPX_HMSG_GO,		/* controller: sender, start now */
	IPX_HMSG_FINISH,	/* controller: receiver, the senders are done */
	IPX_HMSG_RESULT,	/* agent: the workload's figures */
	IPX_HMSG_ERROR,		/* either: what went wrong, as text */
	IPX_HMSG_QUIT,		/* controller: the session is over */
	IPX_HMSG_TYPE_END
};

#define IPX_HMSG_HDR_LEN 8
#define IPX_HMSG_MAX_BODY 32768
#define IPX_HMSG_TEXT_MAX 255

struct ipx_hmsg_hello {
	uint32_t pid;		/* of the speaking process (for messages) */
	uint16_t cpus;		/* CPUs online on its machine */
	char name[IPX_HARNESS_NAME_MAX + 1];
};

struct ipx_hmsg_prepare {
	enum ipx_bw_role role;
	int cpu;		/* run on this CPU; -1: wherever allowed */
	uint16_t repeat;	/* which repeat (0: the warm-up), for messages */
	struct ipx_bw_params params;
};

struct ipx_hmsg_ready {
	struct ipx_bw_info info;	/* receiver: where to send */
	int cpu;		/* where the agent is now */
};

struct ipx_hmsg {
	enum ipx_hmsg_type type;
	uint32_t run;		/* the run (PREPARE .. RESULT, ERROR) */
	union {
		struct ipx_hmsg_hello hello;
		struct ipx_hmsg_prepare prepare;
		struct ipx_hmsg_ready ready;
		struct ipx_bw_result result;
		char text[IPX_HMSG_TEXT_MAX + 1];	/* ERROR */
	} u;
};

/* Encode into out (cap bytes): the frame's length, or 0 if it does not
 * fit or the message is not valid. */
size_t ipx_hmsg_encode(const struct ipx_hmsg *m, uint8_t *out, size_t cap);
/*
 * Decode the frame at the start of p: IPX_OK with *used set, IPX_EAGAIN
 * if more bytes are needed, or IPX_EINVAL with a message in err (bad
 * magic, another version, unknown type, a length or field out of range).
 */
int ipx_hmsg_decode(const uint8_t *p, size_t len, struct ipx_hmsg *out,
		    size_t *used, char *err, size_t errlen);
const char *ipx_hmsg_type_name(enum ipx_hmsg_type t);

/* ---- the agent (harness_agent.c) ---- */

struct ipx_agent_opts {
	const char *name;	/* advertised by SAP; 1-31 printable chars */
	bool once;		/* done after its first controller leaves */
	/* no process of its own (one of many on a simulated network):
	 * its HELLO gives pid 0, so messages naming it compare run to run */
	bool in_process;
	/*
	 * Fault injection for tests: "NAME:KIND:REPEAT:WHAT", WHAT "die"
	 * (SIGKILL itself), "hang" (stop answering) or "vanish" (answer
	 * READY, then SIGKILL itself) when agent NAME gets the PREPARE of
	 * KIND in that repeat. NULL or "" for none.
	 */
	const char *fault;
};

struct ipx_agent;

/* Start an agent on a node that is up: SPX listener, SAP advertisement.
 * Returns IPX_OK or an error with a message in err. */
int ipx_agent_new(struct ipx_node *node, const struct ipx_agent_opts *o,
		  struct ipx_agent **out, char *err, size_t errlen);
/* Withdraws the advertisement and closes everything. */
void ipx_agent_free(struct ipx_agent *a);
/* The agent's SPX control address. */
void ipx_agent_address(const struct ipx_agent *a, struct ipx_addr *out);
/* True once an agent with 'once' has served its controller. */
bool ipx_agent_done(const struct ipx_agent *a);

/* ---- the controller (harness_ctl.c) ---- */

/* What the controller knows of a connected agent. */
struct ipx_hctl_agent {
	char name[IPX_HARNESS_NAME_MAX + 1];
	struct ipx_addr addr;	/* its control socket */
	uint32_t pid;		/* from its HELLO */
	uint16_t cpus;
};

/*
 * Called about every 50 ms while the controller waits for agents: a
 * nonzero return (with a message in err) ends the wait as a failure, e.g.
 * "agent 'receiver' (pid 1234) died: killed by signal 9 (Killed)" when a
 * local child is gone (ipx_hnet_watch).
 */
typedef int (*ipx_hctl_watch_cb)(void *ctx, char *err, size_t errlen);

struct ipx_hctl;

/* A controller on 'node' (which must be up). */
int ipx_hctl_new(struct ipx_node *node, struct ipx_hctl **out);
/* Sends QUIT to every agent still connected, then closes. */
void ipx_hctl_free(struct ipx_hctl *c);
void ipx_hctl_set_watch(struct ipx_hctl *c, ipx_hctl_watch_cb cb, void *ctx);
/*
 * Find the named agents by SAP (queries repeated until all answered or
 * 'wait' passes), connect to each and exchange HELLO. Agent i of the
 * controller is names[i]. Returns IPX_OK, or an error with a message.
 */
int ipx_hctl_attach(struct ipx_hctl *c, const char *const *names, size_t n,
		    ipx_time wait, char *err, size_t errlen);
size_t ipx_hctl_agent_count(const struct ipx_hctl *c);
const struct ipx_hctl_agent *ipx_hctl_agent_at(const struct ipx_hctl *c,
					       size_t i);

/* One agent's part of a run. */
struct ipx_hctl_task {
	size_t agent;		/* index in the controller */
	enum ipx_bw_role role;
	int cpu;		/* -1: not pinned */
	struct ipx_bw_params params;
	/* sender: the task (a receiver) whose READY info becomes
	 * params.peer; -1 for none */
	int peer;
};

/* When a run's measured part happened, on the controller's loop clock:
 * just before the first GO left, and when the last sender's RESULT
 * arrived (the window of a capture that holds the run's traffic). */
struct ipx_hctl_span {
	ipx_time go, results;
};

struct ipx_hctl_run {
	const char *label;	/* "nb-session run 3", for messages */
	struct ipx_hctl_span *span;	/* filled in if not NULL */
	uint16_t repeat;
	const struct ipx_hctl_task *tasks;
	size_t ntasks;
	ipx_time ready_timeout;	/* for each READY (set-up) */
	ipx_time run_timeout;	/* GO to the last sender's RESULT */
	ipx_time finish_timeout;	/* FINISH to the last receiver's RESULT */
};

/*
 * Run it: results[i] is task i's RESULT. On any failure returns an error
 * with a message naming the agent and the run, e.g. "agent 'receiver'
 * (pid 1234) died: killed by signal 9 (Killed) during nb-session run 3";
 * never waits past the run's timeouts.
 */
int ipx_hctl_run(struct ipx_hctl *c, const struct ipx_hctl_run *run,
		 struct ipx_bw_result *results, char *err, size_t errlen);

/* ---- the network the controller builds (harness_net.c) ---- */

#define IPX_HNET_MAX_AGENTS 24

/* An agent on an Ethernet interface instead of the hub (bench eth): its
 * node is the interface's MAC, on the segment the interface is on. */
struct ipx_hnet_eth {
	const char *ifname;
	/* enter this network namespace first (a name under /var/run/netns
	 * or a path); NULL or "": the caller's */
	const char *netns;
	enum ipx_frame_type frame;	/* IPX_FRAME_AUTO: learn it */
};

struct ipx_hnet_opts {
	/* Join this hub ("HOST[:PORT]"); NULL: start one on a free
	 * loopback port as a child process. */
	const char *hub;
	/* Per agent (nagents of them): each on its Ethernet interface, and
	 * no hub at all (hub must be NULL); NULL: every agent on the hub. */
	const struct ipx_hnet_eth *eth;
	/* Agents to start as child processes (none: they run elsewhere). */
	const char *const *agents;
	size_t nagents;
	const struct ipx_config *cfg;	/* the agents' SHELL.CFG; NULL: defaults */
	const char *fault;	/* ipx_agent_opts.fault for the children */
	ipx_time wait;		/* registration with the hub */
	/* The hub started here records what it receives and sends to this
	 * pcap file (ipxlab/hub_capture.h); NULL: no capture. */
	const char *pcap;
	/* The hub started here is one segment of this link profile
	 * (link_profile.h; the hub's --profile); NULL: none. */
	const struct ipx_profile *profile;
	/* With pcap: only what the hub receives (each packet once, for the
	 * analyzer), stamped with the loop clock (ipx_loop_now of any
	 * process here: a run's span compares directly), and at most this
	 * many bytes of each (0: whole). */
	bool pcap_received;
	size_t pcap_snaplen;
};

struct ipx_hnet;

/*
 * Start the hub (unless one is given) and the agent children; children
 * die with the caller (PR_SET_PDEATHSIG). Returns IPX_OK or an error
 * with a message; nothing is left running on failure.
 */
int ipx_hnet_start(const struct ipx_hnet_opts *o, struct ipx_hnet **out,
		   char *err, size_t errlen);
/* The hub's address, for the controller's own node. */
void ipx_hnet_hub(const struct ipx_hnet *n, struct sockaddr_in *out);
/*
 * Pin the hub this network started to one CPU (sched_setaffinity on its
 * pid). IPX_OK; IPX_ENOTFOUND if the hub is not ours (--hub); else an
 * error with a message.
 */
int ipx_hnet_pin_hub(struct ipx_hnet *n, int cpu, char *err, size_t errlen);
/* The pid of the hub this network started (its CPU use is part of a
 * run's figures); 0 when it joined one (--hub). */
pid_t ipx_hnet_hub_pid(const struct ipx_hnet *n);
/* An ipx_hctl_watch_cb: nonzero with a message once a child is gone. */
int ipx_hnet_watch(void *net, char *err, size_t errlen);
/* Give the children 'grace' to exit (after QUIT), then kill and reap
 * every one. Safe on NULL. */
void ipx_hnet_stop(struct ipx_hnet *n, ipx_time grace);

/*
 * Join the hub at 'server' as a fresh node on a fresh loop (what agents,
 * children and the controller do): returns IPX_OK with both, or an error
 * with a message.
 */
int ipx_hnet_join(const struct sockaddr_in *server,
		  const struct ipx_config *cfg, ipx_time wait,
		  struct ipx_loop **loop, struct ipx_node **node, char *err,
		  size_t errlen);

/* The same on a loop the caller has (a second node beside another). */
int ipx_hnet_join_on(struct ipx_loop *loop, const struct sockaddr_in *server,
		     const struct ipx_config *cfg, ipx_time wait,
		     struct ipx_node **node, char *err, size_t errlen);
/* Enter network namespace 'name' (as ipx_hnet_eth.netns; NULL or "": stay).
 * IPX_OK, or an error with a message. */
int ipx_hnet_enter_netns(const char *name, char *err, size_t errlen);
/* A fresh node on a fresh loop on the Ethernet interface e->ifname (in the
 * current namespace: e->netns is not entered here). IPX_OK, or an error
 * with a message. */
int ipx_hnet_join_eth(const struct ipx_hnet_eth *e,
		      const struct ipx_config *cfg, struct ipx_loop **loop,
		      struct ipx_node **node, char *err, size_t errlen);

/* "exited with status 3", "killed by signal 9 (Killed)". */
const char *ipx_hnet_exit_text(int status, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
