/*
 * spxpeer.h - a minimal SPX II listener for the SPX tests, written from
 * the wire format and independent of src/spx: it behaves as a strict
 * third-party stack may (ipx_wrap, tested against NetWare, was the model).
 * It acknowledges only when a packet asks (the ACK bit), grants a small
 * allocation, drops out-of-order data without a word, and answers a
 * disconnect (0xFE) with 0xFF whose acknowledge number covers the data
 * before it but not the 0xFE itself. Datastream types it does not know
 * (an orderly release, 0xFC) are ordinary data to it. It can also send
 * (spxpeer_send): go-back-N within the allocation we grant, the ACK bit
 * on every packet, then its informed disconnect (0xFE as a sequenced
 * data packet) once all of it is acknowledged, as ipxcat does at the end
 * of its input; it has no orderly release of its own.
 */
#ifndef IPXLAB_TEST_SPXPEER_H
#define IPXLAB_TEST_SPXPEER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ipxlab/node.h"

struct spxpeer_stats {
	uint64_t rx_bytes;	/* data delivered in order */
	uint64_t rx_hash;	/* FNV-1a over those bytes */
	unsigned data_packets;	/* in order */
	unsigned ack_requests;	/* data packets with the ACK bit */
	unsigned acks_tx;	/* every ACK it sent was asked for */
	unsigned dropped;	/* out of order or duplicate */
	unsigned unknown_ds;	/* in-order packets of a type it ignores */
	bool disconnected;	/* took a 0xFE and answered 0xFF */
	/* sending */
	uint64_t tx_acked;	/* of its bytes, acknowledged */
	unsigned retransmits;	/* go-back-N restarts */
	bool fe_sent;		/* its own 0xFE went out */
	bool fe_answered;	/* ... and a 0xFF came back */
	/* the largest allocation (alloc - ack + 1) the other side granted
	 * in any packet: never more than the receive slots it holds */
	unsigned granted_max;
};

struct spxpeer;

/* Listen on 'socket' of 'node': one connection, 'window' packets of
 * allocation, packets of at most 'max_pkt' bytes (IPX header included). */
struct spxpeer *spxpeer_new(struct ipx_node *node, uint16_t socket,
			    unsigned window, size_t max_pkt);
void spxpeer_free(struct spxpeer *p);
const struct spxpeer_stats *spxpeer_stats(const struct spxpeer *p);
/* Send 'len' bytes (copied) once connected; spxpeer_close(): the
 * disconnect, as soon as everything queued is acknowledged. */
void spxpeer_send(struct spxpeer *p, const uint8_t *data, size_t len);
void spxpeer_close(struct spxpeer *p);
/* The FNV-1a hash spxpeer keeps, for the expected bytes. */
uint64_t spxpeer_hash(uint64_t h, const uint8_t *data, size_t len);
#define SPXPEER_HASH_INIT 14695981039346656037ull

#endif
