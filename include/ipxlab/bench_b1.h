/*
 * bench_b1.h - B1, the protocol comparison ("2,000 packets of 255
 * bytes" of a 1990 Novell AppNote, docs/benchmarks.md) on the harness (bench_harness.h):
 * a sender agent and a receiver agent run every interface in turn (IPX,
 * SPX, SPX II, NetBIOS datagram, NetBIOS session), with the plain UDP
 * baseline of the same path and the IPX round trip that bounds the
 * stop-and-wait rows, in the same run. One warm-up pass is not counted;
 * then 'repeat' passes, summarised as median, min and max.
 */
#ifndef IPXLAB_BENCH_B1_H
#define IPXLAB_BENCH_B1_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ipxlab/bench_harness.h"
#include "ipxlab/bench_result.h"
#include "ipxlab/bench_stat.h"
#include "ipxlab/bench_work.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IPX_B1_DEFAULT_COUNT 2000
#define IPX_B1_DEFAULT_SIZE 255
#define IPX_B1_DEFAULT_REPEAT 5
#define IPX_B1_MAX_REPEAT 50
#define IPX_B1_MAX_COUNT 10000000
/* NetBIOS datagrams carry at most 512 bytes (netbios.h). */
#define IPX_B1_MAX_SIZE 512
#define IPX_B1_DEFAULT_DRAIN 0.25
/* B1 measures the kinds up to the echo (the NCP kind is B2-B4). */
#define IPX_B1_KINDS (IPX_BW_RTT + 1)
/* The targets (issue 7). */
#define IPX_B1_TARGET_IPX_UDP 0.5
#define IPX_B1_TARGET_SPX2_IPX 0.8
#define IPX_B1_TARGET_STOP_WAIT 0.8

enum ipx_b1_pin {
	IPX_B1_PIN_SPLIT,	/* sender on CPU 0, receiver on CPU 1 */
	IPX_B1_PIN_SAME,	/* both on CPU 0 */
	IPX_B1_PIN_NONE,	/* wherever the scheduler puts them */
};

struct ipx_b1_opts {
	uint32_t count;		/* sends per run; 0: time mode */
	double seconds;		/* time mode: sending time per run */
	size_t size;		/* payload bytes per packet */
	unsigned repeat;	/* counted passes (after one warm-up) */
	enum ipx_b1_pin pin;
	double drain;		/* receivers: quiet this long = done */
	double timeout;		/* a run's bound (s); 0: from count/seconds */
	/* the network (ipx_b1_net_up): its controller and the two agents */
	struct ipx_hctl *ctl;
	size_t sender, receiver;
	bool eth;		/* on Ethernet: the baseline row is frames */
};

/* The table's rows, in print order (the RTT kind is not a row). */
#define IPX_B1_ROWS 6
extern const enum ipx_bw_kind ipx_b1_rows[IPX_B1_ROWS];

/* One pass of one kind: what the sender and the receiver reported. */
struct ipx_b1_sample {
	struct ipx_bw_result snd, rcv;
};

/* Samples of pass r (0-based, counted passes only) for kind k. */
static inline size_t ipx_b1_index(unsigned r, enum ipx_bw_kind k)
{
	return (size_t)r * IPX_B1_KINDS + (size_t)k;
}

struct ipx_b1_row {
	enum ipx_bw_kind kind;
	/* over the passes */
	struct ipx_stat_summary pps;	/* sends completed per second */
	struct ipx_stat_summary kbps;	/* payload KB (1000 bytes) carried/s */
	struct ipx_stat_summary sent, delivered;
	struct ipx_stat_summary loss;	/* 1 - delivered / sent */
	struct ipx_stat_summary carried;	/* pps x delivered / sent */
	struct ipx_stat_summary ratio_ipx;	/* carried / IPX carried, per pass */
	struct ipx_stat_summary retransmits;
	/* per send (RTT kind: per round trip), every pass merged, ns */
	uint64_t lat_count;	/* 0: no per-send times (datagrams) */
	uint64_t lat_p50, lat_p99, lat_max;
	double lat_mean;
	/* 1990 (0 when the original had no such row) */
	double ref_pps, ref_ratio;
	int cpu_snd, cpu_rcv;	/* where each ran, last pass (-1 unknown) */
	const char *why;	/* the 1990 note's reason, one line */
};

enum ipx_b1_target_id {
	IPX_B1_T_IPX_UDP,	/* IPX carried >= 0.5 x UDP carried */
	IPX_B1_T_SPX2_IPX,	/* SPX II >= 0.8 x IPX carried */
	IPX_B1_T_SPX_RTT,	/* SPX >= 0.8 x what its round trip allows */
	IPX_B1_T_NBS_RTT,	/* NetBIOS session, the same */
	IPX_B1_TARGETS
};

struct ipx_b1_target {
	const char *name;	/* "ipx/udp" */
	const char *what;	/* a sentence */
	struct ipx_stat_summary ratio;	/* per pass */
	double want;
	bool pass;		/* the median ratio >= want */
};

struct ipx_b1_report {
	unsigned repeat;
	struct ipx_b1_row row[IPX_B1_KINDS];	/* by kind, RTT included */
	struct ipx_b1_target target[IPX_B1_TARGETS];
	bool all_pass;
	/* ipx_b1_run's (kept by ipx_b1_summarize): every counted pass's
	 * samples (ipx_b1_index; ipx_b1_report_free), the pass under way
	 * (0: the warm-up), and whether a signal cut the run short */
	struct ipx_b1_sample *samples;
	unsigned pass;
	bool interrupted;
};

/* The 1990 figure of a kind in packets/s, 0 if none. */
double ipx_b1_ref_pps(enum ipx_bw_kind k);
const char *ipx_b1_why(enum ipx_bw_kind k);
const char *ipx_b1_pin_name(enum ipx_b1_pin p);
int ipx_b1_pin_parse(const char *text, enum ipx_b1_pin *out);
/* The CPU a role runs on under a placement; -1 for none. */
int ipx_b1_pin_cpu(enum ipx_b1_pin p, enum ipx_bw_role role);

/* Summarise 'repeat' passes of samples (see ipx_b1_index); out's
 * samples, pass and interrupted stay. */
void ipx_b1_summarize(const struct ipx_b1_sample *s, unsigned repeat,
		      struct ipx_b1_report *out);

/*
 * Run B1 on agents o->sender and o->receiver of o->ctl: one warm-up pass,
 * then o->repeat passes into rep->samples (allocated here: free with
 * ipx_b1_report_free, also after an error), summarised into rep. The
 * progress line ("run 2/5: SPX") before every run (NULL: none). IPX_OK,
 * or an error naming the agent and run; then ipx_b1_interrupted when a
 * signal cut it short.
 */
int ipx_b1_run(const struct ipx_b1_opts *o, ipx_bench_progress_fn progress,
	       void *ctx, struct ipx_b1_report *rep, char *err,
	       size_t errlen);
/* After a run a signal cut: the passes that finished summarised (their
 * count returned; 0: none, nothing to print but the empty JSON). */
unsigned ipx_b1_interrupted(struct ipx_b1_report *rep);
void ipx_b1_report_free(struct ipx_b1_report *rep);

/* ---- the network (b1_net.c) ---- */

/* What B1's network is built from. */
struct ipx_b1_net_opts {
	const char *hub;	/* join this hub; NULL: start one here */
	/* running agents, sender and receiver (needs hub or a node);
	 * NULL: start both here (on a shared hub, names of this process) */
	const char *const *agents;
	const char *config;	/* SHELL.CFG for the agents started here */
	const char *pcap;	/* the hub started here records; with hub, the
				 * controller's node (not with a node given) */
	const char *fault;	/* the agents' fault injection (harness) */
	double wait;		/* joining the hub, finding the agents */
	bool pin_given;		/* --pin asked for, not the default */
	bool stop_on_signals;	/* SIGINT, SIGTERM stop the loop */
};

/* What a failed ipx_b1_net_up failed at. */
enum ipx_b1_fail {
	IPX_B1_FAIL_NET,	/* the hub, the node or the agents */
	IPX_B1_FAIL_SETUP,	/* the settings or the capture file */
	IPX_B1_FAIL_PIN,	/* --pin split with an agent of one CPU */
};

/* B1's network: the hub (started here or joined, ipx_hnet_start), the
 * controller's node on it or on an Ethernet link (opened by the caller:
 * loop and node set before ipx_b1_net_up), and the two agents attached. */
struct ipx_b1_net {
	struct ipx_hnet *net;	/* NULL on an Ethernet link */
	struct ipx_loop *loop;
	struct ipx_node *node;
	struct ipx_hctl *ctl;
	char hubtext[280];	/* the hub HOST:PORT, or the --link text */
	int hub_cpu;		/* the hub started here, pinned; -1: not */
	bool pin_fallback;	/* split asked by default, 1 CPU: none */
	bool own_node;		/* loop and node are ipx_b1_net_up's */
	struct ipx_capture *cap;	/* pcap with hub: the controller's */
	char names[2][IPX_HARNESS_NAME_MAX + 1];
	enum ipx_b1_fail fail;	/* after ipx_b1_net_up failed */
};

/* The controller's node: SPX notices a silent agent within seconds. */
void ipx_b1_controller_config(struct ipx_config *cfg);
/* The settings of a controller's node the caller opens on an Ethernet
 * link: the defaults as the agents', then ipx_b1_controller_config. */
void ipx_b1_link_config(struct ipx_config *cfg);
/*
 * Build n (zeroed but for a caller's loop and node): the agents' settings,
 * the hub and the controller's node on it (unless given), the agents
 * attached, the placement chosen (o->pin: split falls back to none on an
 * agent of one CPU unless pin_given) and the hub pinned; o->ctl, sender
 * and receiver set. IPX_OK, or an error in err (n->fail says of what);
 * ipx_b1_net_down either way.
 */
int ipx_b1_net_up(struct ipx_b1_net *n, const struct ipx_b1_net_opts *no,
		  struct ipx_b1_opts *o, char *err, size_t errlen);
/* Stop it: the controller (the agents started here exit), the node and
 * loop if they are n's (a caller's node stays the caller's), the hub.
 * ok: the agents get time to exit. IPX_OK, or IPX_EIO when the capture
 * lost packets. */
int ipx_b1_net_down(struct ipx_b1_net *n, bool ok);
/* Did a failed run (rc) fail because a signal stopped n's loop? */
bool ipx_b1_net_interrupted(struct ipx_b1_net *n, int rc);

/* ---- the writers (b1_write.c) ---- */

/* Where the run ran, for the header, the JSON and the row names. */
struct ipx_b1_where {
	const char *hubtext;	/* the hub HOST:PORT, or the --link text */
	bool link;		/* an Ethernet link: the baseline is frames */
	int hub_cpu;		/* the hub started here, pinned; -1: not */
	const struct ipx_hctl *ctl;	/* the agents: sender, receiver */
	bool complete;		/* false: cut short ("complete": false) */
};

/* A row's name and its 1990 reason; on Ethernet (eth) the baseline row
 * is plain frames between the agents' interfaces, not UDP. */
const char *ipx_b1_row_name(enum ipx_bw_kind k, bool eth);
const char *ipx_b1_row_why(enum ipx_bw_kind k, bool eth);
/* A target's name and sentence (the IPX one names the baseline). */
const char *ipx_b1_target_name(const struct ipx_b1_report *rep, int t,
			       bool eth);
const char *ipx_b1_target_what(const struct ipx_b1_report *rep, int t,
			       bool eth);
/* The target a row is judged by, or -1. */
int ipx_b1_row_target(enum ipx_bw_kind k);

/* JSON of the report (every counted pass of samples too), and CSV: one
 * description of the row each (bench_result.h). */
void ipx_b1_write_json(FILE *out, const struct ipx_b1_opts *o,
		       const struct ipx_b1_report *rep,
		       const struct ipx_b1_sample *samples,
		       const struct ipx_b1_where *wh);
/* Cut short before a pass finished: no rows. */
void ipx_b1_write_json_empty(FILE *out);
void ipx_b1_write_csv(FILE *out, const struct ipx_b1_report *rep, bool eth);

#ifdef __cplusplus
}
#endif

#endif
