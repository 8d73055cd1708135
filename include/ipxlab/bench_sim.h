/*
 * bench_sim.h - the file-server benchmarks' whole network in one process,
 * in simulated time (`--sim`, docs/benchmarks.md): a fake clock drives
 * one loop that carries the file server, the workstation agents and the
 * controller, each its own IPX node on in-memory segments.
 *
 *   one segment   server, controller and workstations on one segment with
 *                 a link profile (eth10, tr4, ...): every frame takes its
 *                 wire time, the stations share the medium as the profile
 *                 says;
 *   bridged       the server alone on segment A, controller and
 *                 workstations on segment B, both of the segment profile,
 *                 joined by the WAN bridge modules (wan.h) with the WAN
 *                 profile (isn): what crosses waits in the modules'
 *                 buffers and the trunk. The segments' IPX packets are
 *                 limited to the bridge's bridge_max (576 for isn), so the
 *                 NCP buffer the server grants fits across, as a 1990
 *                 workstation's did.
 *
 * The server is ncp_server on a scratch volume the module creates and fills
 * with the fixtures (ipx_bn_fixtures_make), with the ping responder; the
 * agents are named ws1..wsN; the controller is attached to all of them.
 *
 * An analyzer per segment (analyze.h) sees every frame when it has crossed
 * that segment's wire (a promiscuous probe station that never sends),
 * counted as the segment profile's wire bytes (ipx_profile_wire_bytes;
 * with no profile the IPX packet plus a 14-byte Ethernet II header, as
 * ipxlab's captures are). ipx_bsim_reset starts both afresh, so each test
 * gets its own peak Kbyte/s and arrival gaps.
 *
 * With no period only the wire takes time: the server's and the
 * workstations' processing and the disk are instantaneous in simulated
 * time. With a period (machine.h, `--period`) the server and every
 * workstation run on its machines (host.h): CPU time per packet and per
 * request, the server's disk and cache, each machine's adapter, and the
 * workstations' IPX packets no larger than the period's max-packet. The
 * same options give the same run, packet for packet.
 */
#ifndef IPXLAB_BENCH_SIM_H
#define IPXLAB_BENCH_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ipxlab/analyze.h"
#include "ipxlab/bench_harness.h"
#include "ipxlab/bench_ncp.h"
#include "ipxlab/host.h"
#include "ipxlab/link_profile.h"
#include "ipxlab/machine.h"
#include "ipxlab/wan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Analyzer sides: the server's segment, the workstations' (the same one
 * when not bridged). */
enum ipx_bsim_side { IPX_BSIM_SERVER, IPX_BSIM_STATIONS };

struct ipx_bsim_opts {
	/* The segments' link; NULL: none (no wire time, only 'delay'). */
	const struct ipx_profile *profile;
	/* Non-NULL: two segments joined by WAN bridge modules of this
	 * profile (it needs rx_buffer and tx_buffer, as isn has). */
	const struct ipx_profile *wan;
	unsigned stations;	/* workstation agents, 1..IPX_BN_MAX_STATIONS */
	uint64_t seed;		/* segments' and the trunk's randomness */
	ipx_time delay;		/* extra delay of every frame on a segment */
	const char *name;	/* the server's name; NULL: "BENCHSRV" */
	/* The same network on the system clock (B9's real-time runs): the
	 * wire still takes the profile's time, the processing its own; a
	 * NetBIOS name claim is one broadcast and 2 ticks (not 2 and 18:
	 * one lossless segment), so a session starts in a fraction of a
	 * second. */
	bool real_clock;
	/* Non-NULL: the server and the workstations on this period's
	 * machines. 'profile' is then its wire unless given, and when
	 * 'wan' is given (bridged) the period's bridge replaces it if the
	 * period has one. The controller costs nothing. */
	const struct ipx_period *period;
};

struct ipx_bsim;

/*
 * Build it all and attach the controller (in simulated time: SAP, SPX
 * connects). IPX_OK, or an error with a message in err (nothing is left:
 * the scratch volume is removed).
 */
int ipx_bsim_new(const struct ipx_bsim_opts *o, struct ipx_bsim **out,
		 char *err, size_t errlen);
/* Free everything and remove the scratch volume. Safe on NULL. */
void ipx_bsim_free(struct ipx_bsim *s);

struct ipx_loop *ipx_bsim_loop(struct ipx_bsim *s);
struct ipx_hctl *ipx_bsim_ctl(struct ipx_bsim *s);
/* Where ipx_bn_run finds the server (socket 0x451). */
const struct ipx_bn_run_opts *ipx_bsim_run_opts(const struct ipx_bsim *s);
struct ncp_server *ipx_bsim_server(struct ipx_bsim *s);
const char *ipx_bsim_server_name(const struct ipx_bsim *s);
/* The scratch volume (the host directory served as SYS). */
const char *ipx_bsim_root(const struct ipx_bsim *s);
/* The file server's node (its link: an adapter of its own, B9). */
struct ipx_node *ipx_bsim_server_node(struct ipx_bsim *s);
/* Workstation i's node (0-based), for workloads run directly. */
struct ipx_node *ipx_bsim_station(struct ipx_bsim *s, unsigned i);
/*
 * A spare node on one side's segment, owned by the network (freed with
 * it), for traffic of the caller's own beside the benchmark's: e.g. the
 * throughput-limit search's background load (bench_wan.h) from the
 * server's side to the workstations'. At most IPX_BSIM_MAX_SPARE in all.
 * IPX_OK, IPX_ERANGE when there are that many, or IPX_ENOMEM.
 */
#define IPX_BSIM_MAX_SPARE 4
int ipx_bsim_spare_node(struct ipx_bsim *s, enum ipx_bsim_side side,
			struct ipx_node **out);
/* The server's and workstation i's period machine, or NULL (no
 * period). */
struct ipx_host *ipx_bsim_server_host(struct ipx_bsim *s);
struct ipx_host *ipx_bsim_station_host(struct ipx_bsim *s, unsigned i);
/* The period, or NULL. */
const struct ipx_period *ipx_bsim_period(const struct ipx_bsim *s);
/* The bridge, or NULL when not bridged. */
const struct ipx_wan *ipx_bsim_wan(const struct ipx_bsim *s);
bool ipx_bsim_bridged(const struct ipx_bsim *s);

/* Seconds of simulated time since the network was built. */
double ipx_bsim_seconds(struct ipx_bsim *s);
/* Start both analyzers afresh (before a test), the controller's own
 * traffic left out. */
void ipx_bsim_reset(struct ipx_bsim *s);
/* The analyzer of one side since the last reset. */
const struct ipx_analyze *ipx_bsim_analyze(const struct ipx_bsim *s,
					   enum ipx_bsim_side side);

#ifdef __cplusplus
}
#endif

#endif
