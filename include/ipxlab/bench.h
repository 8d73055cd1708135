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

#endif
