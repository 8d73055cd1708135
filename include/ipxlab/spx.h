/*
 * spx.h - SPX and SPX II: reliable, sequenced sessions over IPX.
 *
 * Wire format (after the 30-byte IPX header, packet type 5; big-endian):
 *
 *   off size field
 *     0    1 connection control  0x80 SYS, 0x40 ACK requested, 0x20 ATTN,
 *                                0x10 EOM, 0x08 SPX II, 0x04 negotiate size
 *     1    1 datastream type     0xFC orderly release (end of data),
 *                                0xFD its ack, 0xFE disconnect, 0xFF
 *                                disconnect ack; others belong to the
 *                                application
 *     2    2 source connection id
 *     4    2 destination connection id   0xFFFF in a connect request
 *     6    2 sequence number     of this data packet (SYS packets don't
 *                                consume one)
 *     8    2 acknowledge number  next sequence number expected
 *    10    2 allocation number   highest sequence number we can take
 *    12    2 negotiation size    SPX II only, absent in the connect request
 *
 * One 'struct spx' per node runs every connection of that node. SPX I
 * connections are stop-and-wait with an ACK per packet, as the 1990 stacks
 * were; SPX II connections (when both sides offer it) negotiate a packet
 * size, keep a window governed by the allocation number, retransmit on an
 * adaptive timer and report gaps at once with a NAK (format in docs/spx.md).
 *
 * Callbacks run from the event loop. A connection is freed by SPX right
 * after its on_closed callback returns: don't use it afterwards.
 */
#ifndef IPXLAB_SPX_H
#define IPXLAB_SPX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ipxlab/clock.h"
#include "ipxlab/ipx.h"
#include "ipxlab/node.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SPX_HDR_LEN 12
#define SPX2_HDR_LEN 14

enum {
	SPX_CC_SYS = 0x80,
	SPX_CC_ACK = 0x40,
	SPX_CC_ATTN = 0x20,
	SPX_CC_EOM = 0x10,
	SPX_CC_SPX2 = 0x08,
	SPX_CC_NEG = 0x04,
	SPX_CC_XHD = 0x01,
};

enum {
	SPX_DS_NAK = 0xFB,		/* ipxlab's SPX II NAK (docs/spx.md) */
	SPX_DS_RELEASE = 0xFC,		/* orderly release: our data ends */
	SPX_DS_RELEASE_ACK = 0xFD,
	SPX_DS_DISCONNECT = 0xFE,
	SPX_DS_DISCONNECT_ACK = 0xFF,
};

#define SPX_CONN_UNKNOWN 0xFFFF

/* Decoded SPX header. */
struct spx_header {
	uint8_t cc;
	uint8_t ds;
	uint16_t src_id, dst_id;
	uint16_t seq, ack, alloc;
	uint16_t neg_size;	/* SPX II only */
	size_t hdr_len;		/* 12 or 14 */
};

/* Decode the SPX header at the start of an IPX payload of 'len' bytes:
 * IPX_ESHORT when too short for the header its flags announce. */
int spx_header_decode(const uint8_t *p, size_t len, struct spx_header *h);
/* Encode into 12 or 14 bytes (h->hdr_len decides). */
void spx_header_encode(const struct spx_header *h, uint8_t *p);

/* Wrap-safe 16-bit sequence comparison: a before b. */
static inline bool spx_seq_lt(uint16_t a, uint16_t b)
{
	return (int16_t)(uint16_t)(a - b) < 0;
}
static inline bool spx_seq_le(uint16_t a, uint16_t b)
{
	return a == b || spx_seq_lt(a, b);
}

/* Why the SPX module dropped a packet. */
#define SPX_DROPS(X)                                                        \
	X(SHORT, "short", "shorter than its SPX header")                     \
	X(NO_CONN, "no_connection", "for a connection id we do not have")    \
	X(WRONG_PEER, "wrong_peer", "from an address not the connection's")  \
	X(TABLE_FULL, "table_full", "connect request with SPX CONNECTIONS in use") \
	X(NOT_LISTENING, "not_listening", "connect request to a socket nobody listens on") \
	X(DUPLICATE, "duplicate", "data we have already")                    \
	X(OUT_OF_WINDOW, "out_of_window", "data beyond the allocation we gave") \
	X(BAD_STATE, "bad_state", "a packet the connection's state has no use for") \
	X(REFUSED, "refused", "connect request refused: the listener is busy or SPX CONNECTIONS are in use")

#define SPX_DROP_ENUM_(id, name, desc) SPX_DROP_##id,
enum spx_drop { SPX_DROPS(SPX_DROP_ENUM_) SPX_DROP_COUNT };
#undef SPX_DROP_ENUM_

const char *spx_drop_name(enum spx_drop d);

struct spx;
struct spx_conn;
struct spx_listener;

enum spx_state {
	SPX_CONNECTING,		/* connect request sent */
	SPX_NEGOTIATING,	/* SPX II size negotiation */
	SPX_ESTABLISHED,
	SPX_CLOSING,		/* disconnect sent, waiting for its ack */
	SPX_CLOSED,
};

/* Flags of spx_send() and of received data. */
enum { SPX_EOM = SPX_CC_EOM, SPX_ATTN = SPX_CC_ATTN };

struct spx_conn_stats {
	uint64_t tx_data, tx_bytes;	/* data packets sent, retransmits too */
	uint64_t rx_data, rx_bytes;	/* data packets delivered in order */
	uint64_t retransmits, timeouts;
	uint64_t acks_tx, acks_rx;
	uint64_t naks_tx, naks_rx;
	uint64_t duplicates, out_of_order;
	uint64_t probes_tx, keepalives_tx;
	uint64_t rtt_samples;
};

struct spx_status {
	enum spx_state state;
	int version;			/* 1 or 2 */
	struct ipx_addr local, remote;
	uint16_t local_id, remote_id;
	size_t max_data;		/* largest payload per packet */
	unsigned window;		/* packets we may have in flight now */
	unsigned in_flight;
	size_t queued_bytes;		/* accepted by spx_send, not yet acked */
	ipx_time srtt, rto;
	ipx_time silent;		/* since the peer was last heard */
	bool released;			/* our end of data is acknowledged */
	bool peer_released;		/* the peer's end of data arrived */
	struct spx_conn_stats stats;
};

struct spx_handlers {
	/* connect() finished: status IPX_OK, IPX_ETIMEOUT (no answer), or
	 * IPX_EREFUSED (the listener is busy). */
	void (*on_connected)(struct spx_conn *c, int status, void *ctx);
	/* In-order data of one packet; flags has SPX_EOM / SPX_ATTN. */
	void (*on_data)(struct spx_conn *c, const uint8_t *data, size_t len,
			unsigned flags, uint8_t datastream, void *ctx);
	/* spx_send() may take more now. */
	void (*on_sendable)(struct spx_conn *c, void *ctx);
	/* The peer's end of data (orderly release): all it sent has come
	 * through on_data; it sends no more, we may go on sending. */
	void (*on_release)(struct spx_conn *c, void *ctx);
	/* The end: IPX_OK when everything we sent was acknowledged and the
	 * peer ended in order (both released, or its informed disconnect
	 * after all its data); IPX_ECLOSED when the peer disconnected with
	 * our data unacknowledged or its own missing, or after spx_abort()
	 * and spx_disconnect(); IPX_EABORTED when the peer went silent or
	 * retries ran out. */
	void (*on_closed)(struct spx_conn *c, int reason, void *ctx);
};

struct spx_options {
	bool spx2;		/* offer SPX II (default true via spx_new) */
	unsigned window;	/* SPX II window in packets (default 32) */
	size_t send_queue;	/* bytes spx_send() may hold (default 64 KiB) */
	ipx_time connect_timeout;	/* give up connecting (default 10 s) */
};

/* The SPX module of a node; limits and timers from its configuration. */
struct spx *spx_new(struct ipx_node *node, const struct spx_options *opts);
/* Aborts every connection (without callbacks) and frees the module. */
void spx_free(struct spx *spx);
const uint64_t *spx_drops(const struct spx *spx);	/* [SPX_DROP_COUNT] */
size_t spx_conn_count(const struct spx *spx);
/* Bytes of one connection's control block, buffers excluded. */
size_t spx_conn_size(void);

/* Accept connections on 'socket' (0: a dynamic one). accept() gets each
 * new established connection and returns its handlers and context. */
typedef void (*spx_accept_cb)(struct spx_listener *l, struct spx_conn *c,
			      void *ctx);
int spx_listen(struct spx *spx, uint16_t socket, spx_accept_cb accept,
	       void *ctx, struct spx_listener **out);
uint16_t spx_listener_socket(const struct spx_listener *l);
/* While busy, new callers are refused at once (a 0xFE answer to their
 * connect request; they see IPX_EREFUSED); a caller already accepted
 * whose accept was lost still gets it again. */
void spx_listener_set_busy(struct spx_listener *l, bool busy);
void spx_listener_close(struct spx_listener *l);

/* Start connecting; on_connected reports the outcome. IPX_ECONNFULL when
 * SPX CONNECTIONS are in use already. */
int spx_connect(struct spx *spx, const struct ipx_addr *dst,
		const struct spx_handlers *h, void *ctx, struct spx_conn **out);
/* Set the handlers of an accepted connection. */
void spx_set_handlers(struct spx_conn *c, const struct spx_handlers *h,
		      void *ctx);

/* Queue data: IPX_OK, IPX_EAGAIN (no room: wait for on_sendable),
 * IPX_ETOOBIG (more than the whole send queue), IPX_ENOTCONN. */
int spx_send(struct spx_conn *c, const void *data, size_t len,
	     unsigned flags, uint8_t datastream);
size_t spx_send_space(const struct spx_conn *c);
/* Informed disconnect once everything queued is acknowledged. */
int spx_close(struct spx_conn *c);
/* Orderly release (half-close): our end of data (0xFC) follows what is
 * queued; we keep receiving. The connection closes with IPX_OK once both
 * sides have released and each release is acknowledged. A peer that
 * answers the release with a plain ACK rather than 0xFD has no orderly
 * release: we go on receiving until it disconnects (IPX_OK when that
 * comes after all our data). */
int spx_release(struct spx_conn *c);
/* Informed disconnect now, without waiting for queued data (an
 * interrupted program): a 0xFE system packet goes out at once and the
 * connection ends, on_closed(IPX_ECLOSED). */
void spx_disconnect(struct spx_conn *c);
/* Unilateral abort: no packet, state dropped, on_closed(IPX_ECLOSED). */
void spx_abort(struct spx_conn *c);
void spx_get_status(const struct spx_conn *c, struct spx_status *st);

#ifdef __cplusplus
}
#endif

#endif
