/*
 * work_int.h - inside a benchmark workload (bench_work.h): the state
 * work.c keeps for every kind, and the operations each interface family
 * (work_ipx.c, work_spx.c, work_nb.c, work_udp.c, work_eth.c) supplies.
 *
 * work.c owns the life cycle, the events, the clock, the counters and the
 * result. A family opens what its kind needs and reports through the
 * bw_* functions below:
 *
 *   datagram kinds (IPX, NetBIOS datagram, UDP): the family hands one
 *     packet to its interface per send_one() call and pushes what it
 *     handed to the kernel in flush(); work.c's pump calls them in bursts
 *     of BW_BURST per loop turn and counts a send complete after flush.
 *   session kinds and the echo: the family drives its own sends from its
 *     interface's callbacks, asks bw_may_start() before each, and calls
 *     bw_completed() when one completes.
 *   receivers: bw_received() for every packet (or message) counted.
 */
#ifndef IPXLAB_WORK_INT_H
#define IPXLAB_WORK_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "ipxlab/bench_work.h"
#include "ipxlab/clock.h"
#include "ipxlab/loop.h"

/* Datagrams handed to the interface per loop turn before a flush. */
#define BW_BURST 32

struct ipx_bw;

struct bw_ops {
	/* Open what the role needs. IPX_OK and then bw_ready() (at once or
	 * later), or a negative ipx_err after bw_set_error(). */
	int (*open)(struct ipx_bw *w);
	/* Receiver: where to send. */
	void (*info)(const struct ipx_bw *w, struct ipx_bw_info *out);
	/* Sender, session kinds and echo: start sending (NULL: datagram
	 * kinds, which work.c pumps). */
	void (*go)(struct ipx_bw *w);
	/* Datagram senders: hand one packet to the interface (IPX_OK;
	 * IPX_EAGAIN: nothing started, try next turn; another negative
	 * ipx_err: a refused send), and push every handed packet to the
	 * kernel, returning how many of them it refused. */
	int (*send_one)(struct ipx_bw *w);
	uint64_t (*flush)(struct ipx_bw *w);
	/* Datagram senders: sends per burst (0: BW_BURST). */
	unsigned (*burst)(const struct ipx_bw *w);
	/* Add family figures (retransmits, srtt) to a result. */
	void (*result)(const struct ipx_bw *w, struct ipx_bw_result *r);
	/* Close and free the family's state. */
	void (*close)(struct ipx_bw *w);
};

enum bw_state { BW_OPENING, BW_READY, BW_RUNNING, BW_DONE, BW_FAILED };

struct ipx_bw {
	struct ipx_node *node;
	struct ipx_loop *loop;
	enum ipx_bw_role role;
	struct ipx_bw_params p;
	const struct bw_ops *ops;
	void *fam;		/* the family's state */
	ipx_bw_event_cb cb;
	void *ctx;
	enum bw_state state;
	bool finishing;		/* receiver: ipx_bw_finish() was called */
	bool stopping;		/* sender, time mode: past the deadline */
	/* events not yet told: bit 1 << enum ipx_bw_event */
	unsigned pending;
	unsigned told;
	struct ipx_timer ev_timer;	/* tells events from the loop */
	struct ipx_timer pump;		/* datagram senders' bursts */
	struct ipx_timer clock;		/* time mode deadline, drain */
	uint8_t *payload;	/* p.size bytes (at least 4) to send */
	uint64_t started;	/* sender: sends started */
	/* t_start: go (sender) or finish (receiver) */
	ipx_time t_start, t_first, t_last;
	bool any;		/* receiver: a packet came */
	uint64_t cpu_user0, cpu_sys0;
	struct ipx_bw_result r;
	char err[200];
	/* a family call that runs the loop is in progress (bw_enter); a
	 * free asked for meanwhile is done by bw_leave */
	unsigned depth;
	bool doomed;
	struct bw_credit *credit;	/* params.window: work_credit.c */
};

/* The families' operations, by kind. */
extern const struct bw_ops bw_ipx_ops, bw_rtt_ops, bw_spx_ops,
	bw_nb_dgram_ops, bw_nb_session_ops, bw_udp_ops, bw_eth_ops,
	bw_ncp_ops;
/* The UDP kind on a node whose link is Ethernet runs bw_eth_ops instead:
 * plain frames between the interfaces, the same path without IPX. */
bool bw_eth_baseline(struct ipx_node *node);

ipx_time bw_now(const struct ipx_bw *w);
/* Record an error message (the first one wins). */
void bw_set_error(struct ipx_bw *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Set-up finished: READY. */
void bw_ready(struct ipx_bw *w);
/* Something broke: FAILED with this message (the first one wins). */
void bw_fail(struct ipx_bw *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Sender: may another send start now (count not reached, time left)?
 * True counts it as started. */
bool bw_may_start(struct ipx_bw *w);
/* Sender: one send completed; 'since' is when it started (for the
 * histogram). Reports DONE when it was the last one. */
void bw_completed(struct ipx_bw *w, ipx_time since);
/* Sender: a send the interface refused (counted, not completed). */
void bw_send_error(struct ipx_bw *w);
/* Sender: sends started and not yet completed. */
uint64_t bw_in_flight(const struct ipx_bw *w);
/* Receiver: one packet or message of 'bytes' payload bytes counted. */
void bw_received(struct ipx_bw *w, size_t bytes);
/* Flush every link of the node; returns how many queued packets the
 * links could not pass to the kernel (their tx_errors grew by that). */
uint64_t bw_flush_links(struct ipx_node *node);
/* Datagram senders without a link (UDP, Ethernet baseline): send 'n'
 * (at most BW_BURST) copies of one datagram on the connected or bound
 * socket 'fd' with sendmmsg; a copy the kernel refuses is counted and
 * skipped. Returns how many were refused. */
uint64_t bw_send_copies(int fd, const void *buf, size_t len, unsigned n);

/*
 * The baselines without IPX (UDP, Ethernet frames) share one shape: a
 * socket, one datagram sent again and again (sender) or a receive batch
 * (receiver). Their family structs start with this, so send_one, flush
 * and close can be these functions.
 */
struct bw_sock {
	int fd;			/* -1: none yet */
	bool watched;		/* receiver: the loop watches fd */
	unsigned nq;		/* sender: copies handed, not yet flushed */
	size_t len;		/* sender: bytes per datagram */
	uint8_t *buf;		/* sender: the datagram; receiver: a batch */
};
/* Receiver: have the loop call cb when fd is readable ('what' names the
 * socket in the error). */
int bw_sock_watch(struct ipx_bw *w, ipx_fd_cb cb, const char *what);
int bw_sock_send_one(struct ipx_bw *w);
uint64_t bw_sock_flush(struct ipx_bw *w);
void bw_sock_close(struct ipx_bw *w);
/* Around a family call that runs the loop itself (a synchronous NCP
 * call): ipx_bw_free in between only marks the workload, and bw_leave
 * frees it and returns false (the caller must not touch w then). */
void bw_enter(struct ipx_bw *w);
bool bw_leave(struct ipx_bw *w);
/* True while the workload still runs (neither DONE nor FAILED). */
bool bw_live(const struct ipx_bw *w);
/* Datagram senders: turn the pump now (a credit came). */
void bw_pump_now(struct ipx_bw *w);

/* ---- the credit window (work_credit.c) ---- */

/* A full window with no credit this long: taken as lost (a stall). */
#define BW_CREDIT_STALL (200 * IPX_MSEC)
/* Kinds a window applies to: the datagram kinds. */
bool bw_credit_kind(enum ipx_bw_kind k);
/* Open the credit socket (sender: connect and say hello). IPX_OK, or an
 * error after bw_set_error(). */
int bw_credit_open(struct ipx_bw *w);
void bw_credit_info(const struct ipx_bw *w, struct ipx_bw_info *out);
void bw_credit_go(struct ipx_bw *w);
/* Sender: sends the window allows now (UINT32_MAX without a window); 0
 * blocks the pump until a credit comes or the stall rule fires. */
unsigned bw_credit_allowance(struct ipx_bw *w);
bool bw_credit_blocked(const struct ipx_bw *w);
/* Receiver: one more delivered; a credit goes out each quarter window. */
void bw_credit_received(struct ipx_bw *w);
void bw_credit_close(struct ipx_bw *w);

#endif
