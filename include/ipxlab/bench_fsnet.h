/*
 * bench_fsnet.h - the network the file-server benchmarks (B2-B6, bench
 * ncp) run on, in the library: a hub and N workstation agents through the
 * harness (or an existing hub and agents), ipxlab's file server forked as
 * a child of this process on a scratch volume with the fixtures (or an
 * existing server, found by SAP), the controller attached; with sim the
 * whole network in this process on a fake clock (bench_sim.h); for B6 in
 * real time a far side behind a forked WAN bridge. And the pieces it is
 * built of: the file server and the WAN bridge forked (as the harness
 * forks its hub and agents: no re-exec of the ipxlab binary, nothing of
 * the command line). Errors into the caller's buffer, no file-scope state.
 */
#ifndef IPXLAB_BENCH_FSNET_H
#define IPXLAB_BENCH_FSNET_H

#include <netinet/in.h>
#include <stddef.h>
#include <sys/types.h>

#include "ipxlab/bench_fs.h"
#include "ipxlab/bench_harness.h"
#include "ipxlab/bench_ncp.h"
#include "ipxlab/bench_sim.h"
#include "ipxlab/clock.h"
#include "ipxlab/link_profile.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Fork the file server 'name' serving the directory 'dir' as volume SYS,
 * joined to the hub at 'hub' (within 'wait'). It serves until SIGTERM or
 * until this process dies; its stdio is /dev/null (errors show as the run
 * failing, or in the report of a server that did not start). IPX_OK with
 * *pid once it is up, or an error with a message (nothing left running).
 */
int ipx_fsrv_fork(const struct sockaddr_in *hub, const char *name,
		  const char *dir, ipx_time wait, pid_t *pid, char *err,
		  size_t errlen);
/* The same with the largest buffer a client may negotiate (0: the
 * server's default; 512 behind a 576-byte bridge). */
int ipx_fsrv_fork_buf(const struct sockaddr_in *hub, const char *name,
		      const char *dir, unsigned max_buffer, ipx_time wait,
		      pid_t *pid, char *err, size_t errlen);

/*
 * Fork the WAN bridge of profile 'trunk' (wan.h; ipx_profile_check'ed,
 * with buffers) between the hub at 'near' (joined as a bridge port) and
 * a hub it serves on 127.0.0.1 at a free port (*far), a segment of
 * 'segment' (NULL: none). IPX_OK with *pid once the far hub is open (the
 * port joins on its own), or an error with a message. Stop it with
 * ipx_fsrv_stop.
 */
int ipx_wanbr_fork(const struct sockaddr_in *near,
		   const struct ipx_profile *trunk,
		   const struct ipx_profile *segment, ipx_time wait,
		   struct sockaddr_in *far, pid_t *pid, char *err,
		   size_t errlen);
/* SIGTERM, then wait for it; *pid becomes 0 (nothing if it is 0). */
void ipx_fsrv_stop(pid_t *pid);

/* ---- the network of a file-server benchmark (fsnet_run.c) ---- */

/* Most bytes of a packet the capture keeps: the IPX header and the
 * first bytes inside (the analyzer counts the rest by its length). */
#define IPX_FSNET_SNAPLEN 64

/* What to build. Zero is a hub and server started here, today's link. */
struct ipx_fsnet_opts {
	const char *name;	/* the benchmark's ("battery"), for messages */
	const char *hub;	/* join this hub; NULL: start one on loopback */
	const char *server;	/* use this file server (needs hub); NULL:
				 * fork one on a scratch volume */
	double wait;		/* seconds for the hub, agents and server */
	unsigned agents;	/* workstations to start (or to use) */
	const char *const *given;	/* these running agents (needs hub) */
	unsigned ngiven;
	bool capture;		/* the hub started here records the wire */
	bool have_profile;	/* the link's profile (else today's link) */
	struct ipx_profile profile;
	bool sim;		/* all of it here, in simulated time */
	uint64_t seed;		/* sim: the segments' randomness */
	bool have_bridge;	/* sim: the server behind a WAN bridge */
	struct ipx_profile bridge;
	/* sim: the server and workstations on this period's machines
	 * (bench_sim.h); NULL: only the wire takes time */
	const struct ipx_period *period;
	const char *fault;	/* the agents' fault injection (harness) */
	/* real time (B6): a far hub behind a forked WAN bridge of this
	 * profile, with a second server there (its largest buffer
	 * far_max_buffer) and a node of the controller's for the load;
	 * NULL: none */
	const struct ipx_profile *far;
	unsigned far_max_buffer;
	bool stop_on_signals;	/* SIGINT, SIGTERM stop the loop (a run
				 * ends with what finished); SIGPIPE ignored */
};

struct ipx_bwan_flood;

/* B6's far side (ipx_fsnet_opts.far), once started. */
struct ipx_fsnet_far {
	char hub[32], name[48];		/* "127.0.0.1:PORT", its server */
	pid_t bridge, srv;
	struct ipx_node *node;		/* the load's source, on the far hub */
	struct ipx_bwan_flood *flood, *flood_up;	/* the load, and back */
	struct ipx_bn_run_opts ro;	/* runs against the far server */
};

/* The network, built by ipx_fsnet_start from o (the rest zero). */
struct ipx_fsnet {
	struct ipx_fsnet_opts o;
	char dir[64];		/* the scratch volume ("" none) */
	char srvname[48];
	char hubtext[64];	/* "127.0.0.1:PORT", "in-process" */
	pid_t srv;
	struct ipx_hnet *net;
	struct ipx_loop *loop;
	struct ipx_node *node;	/* the controller's */
	struct ipx_hctl *ctl;
	struct ipx_bn_run_opts ro;
	/* the agents attached (kept for the conditions after the stop) */
	struct ipx_hctl_agent seen[IPX_BN_MAX_STATIONS];
	size_t nseen;
	/* the wire: the capture and its windows (bench_fs.h) */
	struct ipx_bfs_capture cap;
	struct ipx_bfs_wire_ops wire_ops;
	struct ipx_bsim *bsim;
	double sim_seconds;	/* its simulated time, kept when it stops */
	struct ipx_fsnet_far far;
};

/* Build the network of n->o: the hub and agents, the server started (or
 * given) and found by SAP, the far side (o.far), the controller attached.
 * IPX_OK, or an error with a message (what started stays until
 * ipx_fsnet_stop). */
int ipx_fsnet_start(struct ipx_fsnet *n, char *err, size_t errlen);
/* A file server's address by SAP from the controller's node (repeated
 * until o.wait). IPX_OK or an error with a message. */
int ipx_fsnet_find_server(struct ipx_fsnet *n, const char *name,
			  struct ipx_addr *out, char *err, size_t errlen);
/* The network for a bench_fs.h entry point: the controller, the run
 * options and the wire (its windows on the capture or the simulated
 * analyzer). */
void ipx_fsnet_bfs(struct ipx_fsnet *n, struct ipx_bfs_net *out);
/* Did a failed run (rc) fail because a signal stopped the loop? */
bool ipx_fsnet_interrupted(struct ipx_fsnet *n, int rc);
/* With sim: the simulated seconds so far (or at the stop). */
double ipx_fsnet_sim_seconds(const struct ipx_fsnet *n);
/* After the last run: stop the network (the capture closes), then
 * analyze every window in one pass over the file. IPX_OK or an error
 * with a message. */
int ipx_fsnet_collect(struct ipx_fsnet *n, char *err, size_t errlen);
/* Only the processes and the controller (the scratch files stay); safe
 * to call twice. ok: the agents get time to exit. */
void ipx_fsnet_stop_network(struct ipx_fsnet *n, bool ok);
/* Everything: the network, the scratch volume, the capture. */
void ipx_fsnet_stop(struct ipx_fsnet *n, bool ok);

#ifdef __cplusplus
}
#endif

#endif
