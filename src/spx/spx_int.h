/*
 * spx_int.h - SPX internals shared by the module (spx.c) and the
 * per-connection state machine (conn.c). Not a public header.
 */
#ifndef IPXLAB_SPX_INT_H
#define IPXLAB_SPX_INT_H

#include "ipxlab/spx.h"

/* A queued outgoing packet: data, the release or the disconnect. */
struct txseg {
	struct txseg *next;
	uint16_t seq;
	uint8_t flags;		/* SPX_EOM / SPX_ATTN */
	uint8_t ds;
	bool sent;
	bool retransmitted;
	bool timed;		/* its ACK gives an RTT sample */
	ipx_time sent_at;
	size_t len;
	uint8_t data[];
};

/* An out-of-order packet held by an SPX II receiver. */
struct rxslot {
	bool used;
	uint16_t seq;
	uint8_t cc, ds;
	size_t len;
	uint8_t *data;
};

struct spx_conn {
	struct spx *spx;
	struct spx_conn *hnext;		/* in the id hash */
	struct ipx_socket *sock;	/* we send from it */
	enum spx_state state;
	int version;			/* 1 or 2 */
	bool offered2;			/* we asked for SPX II */
	bool incoming;
	uint16_t local_id, remote_id;
	struct ipx_addr remote;
	struct spx_handlers h;
	void *ctx;
	int busy;			/* callbacks running: free later */
	bool dead;

	/* sending */
	uint16_t snd_una;		/* oldest unacknowledged */
	uint16_t snd_nxt;		/* next sequence number to assign */
	uint16_t snd_max;		/* one past the highest sent */
	uint16_t remote_alloc;
	struct txseg *q_head, *q_tail;
	struct txseg *unsent;		/* first segment never sent (at snd_max) */
	size_t queued_bytes;
	bool want_sendable;
	bool close_queued;
	bool release_queued;		/* spx_release: our 0xFC is queued */
	bool released;			/* our 0xFC is acknowledged */
	bool release_plain;		/* ... by a plain ACK: no orderly release */
	bool peer_released;		/* the peer's 0xFC arrived */
	uint16_t peer_fin_seq;		/* its sequence number */
	unsigned since_ack_req;
	bool ack_req_out;		/* an ACK request is unanswered ... */
	uint16_t ack_req_seq;		/* ... the latest, on this packet */
	size_t max_pkt;			/* IPX packet size, headers included */

	/* receiving */
	uint16_t rcv_nxt;
	unsigned rx_slots;
	struct rxslot *ooo;		/* SPX II only */
	unsigned ooo_count;
	uint16_t nak_for;
	ipx_time nak_at;

	/* timers */
	struct ipx_timer rexmit;	/* connect, negotiation, retransmit */
	ipx_time srtt, rttvar, rto;	/* rto: from the estimate */
	unsigned backoff;		/* timeouts since progress: rto << it */
	bool recovering;		/* after a timeout, until recover_to */
	uint16_t recover_to;
	unsigned retries;
	ipx_time last_rx, last_tx, last_probe;
	ipx_time started;		/* when connect() was called */
	size_t neg_try;
	unsigned neg_tries;

	struct spx_conn_stats stats;
};

struct spx_listener {
	struct spx *spx;
	struct spx_listener *next;
	struct ipx_socket *sock;
	bool busy;			/* refuse new callers */
	spx_accept_cb accept;
	void *ctx;
};

struct spx {
	struct ipx_node *node;
	struct ipx_loop *loop;
	struct spx_options opts;
	unsigned max_conns;
	unsigned retry_count;
	ipx_time listen_timeout, verify_timeout, abort_timeout;
	struct spx_conn *table[256];	/* by local id */
	size_t nconns;
	uint16_t next_id;
	struct spx_listener *listeners;
	struct ipx_socket *client_sock;	/* shared by outgoing connections */
	struct ipx_timer tick;		/* the watchdog sweep */
	/* Recently closed connections, to answer a repeated disconnect
	 * truthfully after the connection is gone. */
	struct spx_gone {
		struct ipx_addr remote;
		uint16_t local_id, remote_id;
		uint16_t fin_seq;	/* the peer's last packet we took */
		uint8_t fin_ds;		/* its type: 0xFE or 0xFC */
		bool clean;		/* we took it: it is acknowledged */
	} gone[16];
	unsigned ngone;
	uint64_t drops[SPX_DROP_COUNT];
};

/* conn.c */
struct spx_conn *spx_conn_new(struct spx *spx, struct ipx_socket *sock,
			      const struct ipx_addr *remote, bool incoming);
void spx_conn_input(struct spx_conn *c, const struct ipx_header *ih,
		    const struct spx_header *h, const uint8_t *data,
		    size_t len);
void spx_conn_start_connect(struct spx_conn *c);
void spx_conn_accept(struct spx_conn *c, const struct spx_header *req);
void spx_conn_watchdog(struct spx_conn *c, ipx_time now);
void spx_conn_finish(struct spx_conn *c, int reason);
void spx_conn_destroy(struct spx_conn *c);
void spx_send_ack(struct spx_conn *c, uint8_t extra_cc, uint8_t ds);

/* spx.c */
void spx_table_remove(struct spx *spx, struct spx_conn *c);
struct spx_conn *spx_table_find(const struct spx *spx, uint16_t id);
void spx_remember_gone(struct spx *spx, const struct spx_conn *c, bool clean,
		       uint8_t fin_ds, uint16_t fin_seq);

#endif
