/*
 * bench_work.h - the measured side of a benchmark: what one workstation
 * agent does on its own IPX node while the harness (bench_harness.h)
 * coordinates. One workload is one interface of B1 (protocol comparison,
 * docs/benchmarks.md) in one role: a sender that sends 'count'
 * packets (or sends for 'seconds') and a receiver that only receives and
 * counts, or the echo pair that measures the bare round trip. The NCP
 * kind (B2-B4) is a sender alone: an NCP client repeating one file-server
 * operation (bench_ncp.h, work_ncp.c).
 *
 * A send completes when the interface says so: an IPX or NetBIOS datagram
 * (and a plain UDP one) when it is handed to the link and the link has
 * passed it to the kernel (bursts of at most 32 per loop turn, flushed);
 * an SPX, SPX II or NetBIOS session packet when it is acknowledged (SPX
 * II keeps its window full and stops the clock at the last
 * acknowledgement); an echo when it came back. docs/benchmarks.md
 * ("Workloads") says why. Times come from the loop's clock (microseconds),
 * so on a simulated clock a run is deterministic.
 *
 * Life of a workload, all inside the agent's event loop:
 *   receiver: ipx_bw_new -> READY (listening; info says where) ...
 *             ipx_bw_finish -> DONE once drained (no packet for the drain
 *             time, or every expected packet counted)
 *   sender:   ipx_bw_new (with the receiver's info) -> READY (connected)
 *             ipx_bw_go -> DONE when the last send completed
 * Any failure is reported as FAILED with a message (ipx_bw_error).
 *
 * Events are told from a timer on the loop, never from inside an ipx_bw_*
 * call, in order (READY before DONE; a workload that fails before READY
 * tells only FAILED); the callback may call ipx_bw_free. Setup is never
 * timed. A node runs one NetBIOS workload at a time (socket 0x455); a
 * NetBIOS datagram receiver lowers its loop's batch (ipx_loop_set_batch)
 * to the RECEIVE DATAGRAMs it keeps posted until it is freed.
 */
#ifndef IPXLAB_BENCH_WORK_H
#define IPXLAB_BENCH_WORK_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ipxlab/bench_stat.h"
#include "ipxlab/ipx.h"
#include "ipxlab/loop.h"
#include "ipxlab/node.h"

#ifdef __cplusplus
extern "C" {
#endif

enum ipx_bw_kind {
	IPX_BW_IPX,		/* IPX datagrams */
	IPX_BW_SPX,		/* SPX I session */
	IPX_BW_SPX2,		/* SPX II session */
	IPX_BW_NB_DGRAM,	/* NetBIOS datagrams */
	IPX_BW_NB_SESSION,	/* NetBIOS session SENDs */
	IPX_BW_UDP,		/* plain UDP of the tunnel's datagram size:
				 * the baseline of the same path, no IPX */
	IPX_BW_RTT,		/* IPX echo: one packet out, one back */
	IPX_BW_NCP,		/* a file-server operation (bench_ncp.h): a
				 * sender alone, an NCP client of the server
				 * at peer.addr */
	IPX_BW_KINDS
};

enum ipx_bw_role { IPX_BW_SENDER, IPX_BW_RECEIVER };
enum ipx_bw_event { IPX_BW_READY, IPX_BW_DONE, IPX_BW_FAILED };

/* What the receiver tells the sender (through the controller). */
struct ipx_bw_info {
	struct ipx_addr addr;	/* its IPX socket / SPX listener */
	char nb_name[16];	/* its NetBIOS name, space padded */
	struct sockaddr_in udp;	/* IPX_BW_UDP: where to send */
	/* params.window: where the sender says hello for credits (a UDP
	 * socket outside the path, work_credit.c) */
	struct sockaddr_in credit;
};

struct ipx_bw_params {
	enum ipx_bw_kind kind;
	uint32_t count;		/* sends; 0 = time mode */
	double seconds;		/* time mode: send for this long */
	size_t size;		/* payload bytes per packet or message */
	double drain;		/* receiver: quiet this long = done (s) */
	struct ipx_bw_info peer;	/* sender: the receiver's info */
	/* UDP kind: the IPv4 address the receiver binds (the tunnel's
	 * local address, so the baseline runs the same path) */
	struct in_addr udp_bind;
	/* set-up (SPX connect) gives up after this long; 0: 10 s. NetBIOS
	 * names and calls follow the node's NETBIOS timeouts instead. */
	double setup_timeout;
	/* IPX_BW_NCP: the operation (enum ipx_bn_op, bench_ncp.h) and this
	 * workstation's number (1..; its private file and scratch names) */
	uint8_t op;
	uint16_t station;
	/* datagram kinds (IPX, NetBIOS datagram, UDP): at most this many
	 * datagrams not yet counted by the receiver, which returns credits
	 * outside the path (a UDP socket pair, work_credit.c); 0 floods */
	uint32_t window;
	/* SPX kinds: the SPX II window in packets and the bytes spx_send
	 * may hold (struct spx_options); 0: the library's (32, 64 KiB) */
	uint16_t spx_window;
	uint32_t send_queue;
	/* IPX_BW_NCP: the buffer the client asks for (0x61; 0: 4,096, the
	 * link allowing), and no packet burst (ncp_client_opts.no_burst) */
	uint16_t ncp_buffer;
	bool ncp_no_burst;
	/* IPX_BW_NCP: the workstation's links send and receive one frame
	 * per system call (ipx_link.single_frame) during the run */
	bool single_frame;
	/* IPX_BW_NCP: run the client's calls as loop tasks on a real clock
	 * too (several workstations on one loop in real time: B9) */
	bool tasks;
	/* IPX_BW_NB_SESSION receiver: CALL peer.nb_name instead of
	 * LISTENing (a workstation reading from a server that listens) */
	bool nb_call;
	/* Datagram kinds (IPX, NetBIOS datagram) on a simulated network:
	 * one send at a time, complete when the caller says its frame has
	 * left the sender's adapter (ipx_bw_tx_done), not when handed to
	 * the link (B1's --sim, b1_sim.c) */
	bool tx_wait;
};

/* The receiver's drain when params.drain is 0 (seconds). */
#define IPX_BW_DEFAULT_DRAIN 0.2
/* The echo (RTT) sender resends a packet not back after this long, and
 * gives up after IPX_BW_RTT_TRIES resends in a row. */
#define IPX_BW_RTT_TIMEOUT (500 * IPX_MSEC)
#define IPX_BW_RTT_TRIES 10

struct ipx_bw_result {
	enum ipx_bw_kind kind;
	enum ipx_bw_role role;
	uint64_t sent;		/* sender: sends completed */
	uint64_t send_errors;	/* sender: sends the interface refused */
	uint64_t delivered;	/* receiver: packets counted */
	uint64_t bytes;		/* payload bytes sent (sender) or counted */
	double seconds;		/* sender: first send to last completion;
				 * receiver: first to last packet */
	double pps;		/* per second over 'seconds' */
	double kbps;		/* payload KB (1000 bytes) per second */
	uint64_t retransmits;	/* sender: session kinds, and RTT resends */
	uint64_t stalls;	/* sender, with a window: windows taken as
				 * lost (no credit for 200 ms) */
	double srtt_us;		/* SPX kinds: the connection's own estimate */
	/* sender: per-send completion time, start of the send to its
	 * acknowledgement (session kinds) or return (RTT kind); empty for
	 * datagram kinds */
	struct ipx_hist lat;
	/* seconds of CPU used by the whole process during the run (sender:
	 * go to DONE; receiver: READY to DONE) */
	double cpu_user, cpu_sys;
	int cpu;		/* CPU it ended on (sched_getcpu) */
	/* IPX_BW_NCP with params.ncp_buffer: the buffer the server
	 * granted, and whether it granted packet burst (ncp_burst_active);
	 * 0 and false otherwise */
	uint16_t ncp_buffer;
	bool ncp_burst;
	/* IPX_BW_NCP: 'sent' counts operations, 'delivered' the searches
	 * that found nothing (random directory search; for retrieve, B8,
	 * the microseconds from go to the first retrieval's end), 'bytes' the IPX
	 * bytes the workstation's link sent and received during the run
	 * (so kbps is its traffic on the wire, both ways). */
};

struct ipx_bw;
typedef void (*ipx_bw_event_cb)(struct ipx_bw *w, enum ipx_bw_event ev,
				void *ctx);

/* Start a workload on 'node' (whose loop it runs in). Returns IPX_OK or a
 * negative ipx_err with a message in err; events follow through cb. */
int ipx_bw_new(struct ipx_node *node, struct ipx_loop *loop,
	       enum ipx_bw_role role, const struct ipx_bw_params *p,
	       ipx_bw_event_cb cb, void *ctx, struct ipx_bw **out, char *err,
	       size_t errlen);
/* Receiver, after READY: where the sender must send. */
void ipx_bw_info(const struct ipx_bw *w, struct ipx_bw_info *out);
/* Sender, after READY: start sending now. IPX_EINVAL if not READY (or a
 * receiver). */
int ipx_bw_go(struct ipx_bw *w);
/* Receiver: the sender is done; report DONE after the drain (at once if
 * every expected packet is in). */
void ipx_bw_finish(struct ipx_bw *w);
/* Sender with params.tx_wait: the frame of the send in flight has left
 * the sender's adapter, so the send is complete and the next starts.
 * Nothing in flight (a set-up frame): ignored. */
void ipx_bw_tx_done(struct ipx_bw *w);
/* The figures so far (final after DONE or FAILED). */
void ipx_bw_result(const struct ipx_bw *w, struct ipx_bw_result *out);
/* The failure's message; "" when there is none (never NULL). */
const char *ipx_bw_error(const struct ipx_bw *w);
/* Close everything it opened (a sender's SPX connection with an informed
 * disconnect, its NetBIOS session with HANG UP); NULL is ignored. */
void ipx_bw_free(struct ipx_bw *w);

/* "ipx", "spx", "spx2", "nb-dgram", "nb-session", "udp", "rtt". */
const char *ipx_bw_kind_name(enum ipx_bw_kind k);
int ipx_bw_kind_parse(const char *text, enum ipx_bw_kind *out);
/* True for kinds whose sends are acknowledged one at a time. */
bool ipx_bw_kind_stop_and_wait(enum ipx_bw_kind k);

#ifdef __cplusplus
}
#endif

#endif
