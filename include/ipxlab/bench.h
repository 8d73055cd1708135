/*
 * bench.h - benchmarks (not tests): measurement code behind "ipxlab bench".
 *
 * The hub benchmark measures how many IPX datagrams per second the hub
 * relays between two ipxlab nodes on loopback, and, in the same run, how
 * many datagrams of the same size a plain UDP sender gets to a plain UDP
 * receiver (one hop, no IPX). Every party is a real process (fork):
 *
 *   plain path:  sender ---UDP---> receiver
 *   hub path:    sender node ---UDP---> hub ---UDP---> receiver node
 *
 * The parent only coordinates, over one pipe pair per child: it starts
 * the sender, takes two marks (counters, times and CPU use) from every
 * process around the measurement window, stops the sender, waits for the
 * receiver to drain, and collects the totals. The rate is the receiver's
 * delivered count between the marks over its own elapsed time.
 *
 * With a window (the default) the sender keeps at most 'window' datagrams
 * in flight: the receiver returns credits (its delivered count) over a
 * pipe, so the figure is the loss-free rate. Window 0 floods. See
 * bench/README.md for why.
 */
#ifndef IPXLAB_BENCH_H
#define IPXLAB_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* CPUs the per-process histogram covers (sched_getcpu samples). */
#define IPX_BENCH_MAX_CPUS 64

#define IPX_BENCH_DEFAULT_SECONDS 2.0
#define IPX_BENCH_DEFAULT_WARMUP 0.5
#define IPX_BENCH_DEFAULT_REPEAT 3
#define IPX_BENCH_DEFAULT_PAYLOAD 255
/* The tunnel's 1424-byte datagram limit less the IPX header. */
#define IPX_BENCH_MAX_PAYLOAD (1424 - 30)
/* The target: the hub path carries at least half the plain rate. */
#define IPX_BENCH_TARGET_RATIO 0.5

enum ipx_bench_path { IPX_BENCH_PLAIN, IPX_BENCH_HUB };

/* The processes of a path; the plain path has no hub. */
enum ipx_bench_role { IPX_BENCH_SENDER, IPX_BENCH_HUBPROC, IPX_BENCH_RECEIVER,
		      IPX_BENCH_ROLES };

struct ipx_bench_opts {
	double seconds;		/* measurement window per path */
	double warmup;		/* sending before the first mark */
	unsigned window;	/* datagrams in flight; 0 = flood */
	size_t payload;		/* IPX payload bytes (plain: payload + 30) */
	/* CPU per path and role, -1 = not pinned (plain has no hub) */
	int pin[2][IPX_BENCH_ROLES];
	/* The hub records every packet it receives and sends to this pcap
	 * file (truncated first); NULL: none. */
	const char *pcap;
};

/* What one process did between the two marks. */
struct ipx_bench_proc {
	bool present;
	double cpu;		/* CPU time / wall time (1.0 = one core) */
	double user, sys;	/* the same, split */
	uint64_t vcsw, ivcsw;	/* voluntary, involuntary context switches */
	uint64_t wakeups;	/* turns of its main loop (one syscall
				 * batch each) */
	uint64_t cpu_samples[IPX_BENCH_MAX_CPUS];	/* sched_getcpu hits */
	uint64_t samples;
	int last_cpu;
};

struct ipx_bench_result {
	enum ipx_bench_path path;
	size_t datagram;	/* bytes of each UDP datagram */
	/* the measurement window, at the receiver */
	double seconds;
	uint64_t packets;
	double pps;		/* delivered datagrams per second */
	double mbps;		/* delivered datagram bytes, 10^6 per second */
	/* the whole run (warm-up and drain included) */
	uint64_t sent;		/* accepted by the sender's socket */
	uint64_t send_errors;	/* refused by it (ENOBUFS, ...) */
	uint64_t delivered;	/* counted by the receiver */
	uint64_t lost;		/* sent - delivered */
	double loss;		/* lost / sent */
	uint64_t stalls;	/* window stalls (credits lost: never, normally) */
	/* the whole machine over the window (/proc/stat), in CPUs busy */
	double machine_busy;	/* every CPU's non-idle time / wall time */
	double machine_steal;	/* time the hypervisor took (VMs) */
	double ours;		/* this benchmark's processes */
	/* hub path: what the hub did over the whole run */
	uint64_t hub_rx, hub_relayed, hub_tx, hub_drops;
	struct ipx_bench_proc proc[IPX_BENCH_ROLES];
};

/* Defaults, with the default window for the default payload. */
void ipx_bench_opts_default(struct ipx_bench_opts *o);
/*
 * The default window for a payload size: the largest power of two that
 * cannot overflow a tunnel link's socket (1 MB SO_RCVBUF holds 1638
 * datagrams of up to ~700 bytes, 910 of 1424 bytes) even if the whole
 * window piles up there: 1024 up to 512-byte datagrams, else 512.
 */
unsigned ipx_bench_default_window(size_t payload);

/* CPUs this process may run on (its affinity mask), and online CPUs. */
int ipx_bench_cpus_allowed(void);
int ipx_bench_cpus_online(void);

/*
 * Run one path once: fork its processes, measure, reap them all. Returns
 * 0, or a negative ipx_err with a message in err; no child outlives the
 * call either way.
 */
int ipx_bench_hub_path(const struct ipx_bench_opts *o,
		       enum ipx_bench_path path, struct ipx_bench_result *out,
		       char *err, size_t errlen);

const char *ipx_bench_path_name(enum ipx_bench_path path);
const char *ipx_bench_role_name(enum ipx_bench_role role);

/*
 * ---- The SPX benchmark (src/bench/spxrate.c, "ipxlab bench spx") ----
 *
 * Bulk goodput (application bytes delivered per second) of SPX I and
 * SPX II, beside IPX datagrams of the same IPX packet size, on two links:
 *
 *   udp  sender node --UDP--> hub --UDP--> receiver node: three processes
 *        (fork) on 127.0.0.1, as the hub benchmark; SPX acknowledgements
 *        come back through the hub, IPX datagrams are paced by credits
 *        over a pipe (outside the path), as in the hub benchmark
 *   mem  both nodes in one process on an in-memory segment (no faults,
 *        no delay) with the real clock: what the stack itself costs
 *
 * Four rows per link, each a separate measurement:
 *
 *   ipx-small  IPX datagrams in 576-byte packets (546 payload bytes)
 *   spx1       SPX I: 576-byte packets (534 data bytes), stop-and-wait
 *   ipx-large  IPX datagrams in packets of SPX II's negotiated size (the
 *              link's MTU: 1424 bytes on the tunnel)
 *   spx2       SPX II at its negotiated size (1424 - 44 = 1380 data bytes)
 *
 * The rate is the receiver's delivered bytes between two marks over the
 * time between them on its own clock, after a warm-up.
 */
#define IPX_SPXB_DEFAULT_SECONDS 0.8
#define IPX_SPXB_DEFAULT_WARMUP 0.2
#define IPX_SPXB_DEFAULT_REPEAT 3
/* The IPX packet size of SPX I (and of the first IPX baseline). */
#define IPX_SPXB_SMALL_PACKET 576
/* The target: SPX II reaches 80% of IPX datagram goodput. */
#define IPX_SPXB_TARGET_RATIO 0.8

enum ipx_spxb_link { IPX_SPXB_MEM, IPX_SPXB_UDP, IPX_SPXB_LINKS };
enum ipx_spxb_kind { IPX_SPXB_IPX_SMALL, IPX_SPXB_SPX1, IPX_SPXB_IPX_LARGE,
		     IPX_SPXB_SPX2, IPX_SPXB_KINDS };

struct ipx_spxb_opts {
	double seconds;		/* measurement window per row */
	double warmup;		/* sending before the window opens */
	size_t mem_mtu;		/* the in-memory segment's MTU (default
				 * 1424, the tunnel's) */
	unsigned spx_window;	/* SPX II window; 0: the library's (32) */
	size_t send_queue;	/* SPX send queue; 0: the library's (64 KiB) */
	unsigned ipx_window;	/* IPX rows: datagrams in flight; 0: the hub
				 * benchmark's default for the size */
};

struct ipx_spxb_result {
	enum ipx_spxb_link link;
	enum ipx_spxb_kind kind;
	size_t packet;		/* IPX packet bytes, headers included */
	size_t payload;		/* application bytes per full packet */
	/* the measurement window, at the receiver */
	double seconds;
	uint64_t bytes, packets;
	double goodput;		/* application bytes per second */
	double pps;		/* packets delivered per second */
	/* SPX rows: the connection as negotiated, and its sender's view */
	int version;		/* 1 or 2; 0 for IPX rows */
	unsigned window;	/* packets in flight allowed */
	double srtt_us, rto_us;	/* at the end of the window */
	uint64_t rtt_samples;
	uint64_t tx_data, retransmits, timeouts, naks_rx, acks_rx;
				/* during the window */
	/* IPX rows, the whole run: datagrams sent and delivered */
	uint64_t sent, delivered;
	/* CPU time / wall time during the window (mem: one process) */
	double cpu_sender, cpu_hub, cpu_receiver;
	double machine_busy;	/* every CPU's non-idle time, in CPUs */
};

void ipx_spxb_opts_default(struct ipx_spxb_opts *o);
/* The IPX packet size of a row on a link (ipx-large and spx2: the MTU). */
size_t ipx_spxb_packet_size(const struct ipx_spxb_opts *o,
			    enum ipx_spxb_link link, enum ipx_spxb_kind kind);
/*
 * Measure one row once. udp: forks the hub, receiver and sender and
 * reaps them all, whatever happens. Returns 0, or a negative ipx_err with
 * a message in err.
 */
int ipx_spxb_run(const struct ipx_spxb_opts *o, enum ipx_spxb_link link,
		 enum ipx_spxb_kind kind, struct ipx_spxb_result *out,
		 char *err, size_t errlen);
const char *ipx_spxb_link_name(enum ipx_spxb_link link);
const char *ipx_spxb_kind_name(enum ipx_spxb_kind kind);

/*
 * ---- The NetBIOS benchmark (src/bench/nbrate.c, "ipxlab bench netbios") ----
 *
 * NetBIOS datagram and session message rates beside IPX, measured in one
 * run over one hub on loopback: the hub, a responder node and the
 * measuring node are three processes. Rows: IPX round trips (ping-pong),
 * IPX datagrams and NetBIOS datagrams of 'size' bytes (at most 'window'
 * not yet credited by the responder), session messages of 'size' bytes
 * and of 65,535 bytes (each SEND timed from submission to its POST).
 * The session is stop-and-wait, so its message rate is bounded by the
 * round trip: the result has both to compare.
 */
#define IPX_NBB_DEFAULT_SECONDS 1.0
#define IPX_NBB_DEFAULT_WARMUP 0.2
#define IPX_NBB_DEFAULT_SIZE 512
#define IPX_NBB_DEFAULT_WINDOW 16

struct ipx_nbb_opts {
	double seconds;		/* measurement window per row */
	double warmup;		/* before it */
	size_t size;		/* datagram and small message bytes (<= 512) */
	unsigned window;	/* datagrams not yet credited (>= 4) */
};

/* One row. */
struct ipx_nbb_rate {
	double seconds;		/* the measurement window */
	uint64_t count;		/* round trips, datagrams or messages in it */
	double rate;		/* count per second */
	double rtt_p50_us, rtt_p99_us;	/* per round trip or SEND */
	uint64_t samples;
	uint64_t sent, delivered, stalls;	/* datagram rows, whole run */
};

struct ipx_nbb_result {
	size_t size;
	unsigned window;
	size_t max_data;	/* session bytes per packet */
	struct ipx_nbb_rate ipx_rtt, ipx_dgram, nb_dgram, session, big;
	uint64_t retransmits;	/* by the session's sender */
};

void ipx_nbb_opts_default(struct ipx_nbb_opts *o);
/* Fork the hub and the responder, measure every row, reap them all.
 * Returns 0, or a negative ipx_err with a message in err. */
int ipx_nbb_run(const struct ipx_nbb_opts *o, struct ipx_nbb_result *out,
		char *err, size_t errlen);

#endif
