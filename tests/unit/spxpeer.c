/*
 * spxpeer.c - the strict SPX II test peer (see spxpeer.h). It parses and
 * builds SPX headers with the byte accessors itself, so a fault in
 * src/spx cannot hide in both ends at once.
 */
#include "spxpeer.h"

#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"

#define PEER_ID 0x7777
#define PEER_DATA 1000		/* bytes of its data packets */
#define PEER_RTO (200 * IPX_MSEC)

struct spxpeer {
	struct ipx_socket *sock;
	unsigned window;
	size_t max_pkt;
	bool connected;
	struct ipx_addr remote;
	uint16_t remote_id;
	uint16_t rcv_nxt;
	struct spxpeer_stats st;
	/* sending: packet i (sequence i) carries bytes i * PEER_DATA on */
	struct ipx_loop *loop;
	struct ipx_timer rexmit;
	uint8_t *tx;
	size_t tx_len;
	bool sending;		/* negotiated: it may send */
	bool close_wanted;
	uint16_t snd_una, snd_nxt, remote_alloc;
};

uint64_t spxpeer_hash(uint64_t h, const uint8_t *data, size_t len)
{
	for (size_t i = 0; i < len; i++)
		h = (h ^ data[i]) * 1099511628211ull;
	return h;
}

/* A system packet with the SPX II header (14 bytes). */
static void reply(struct spxpeer *p, uint8_t cc, uint8_t ds, uint16_t ack,
		  uint16_t neg)
{
	uint8_t b[14];

	b[0] = cc;
	b[1] = ds;
	ipx_put16(b + 2, PEER_ID);
	ipx_put16(b + 4, p->remote_id);
	ipx_put16(b + 6, 0);	/* SPX II acks carry sequence 0 */
	ipx_put16(b + 8, ack);
	ipx_put16(b + 10, (uint16_t)(p->rcv_nxt + p->window - 1));
	ipx_put16(b + 12, neg);
	ipx_socket_sendto(p->sock, &p->remote, IPX_TYPE_SPX, b, sizeof(b));
}

static void ack(struct spxpeer *p)
{
	p->st.acks_tx++;
	reply(p, 0x88, 0, p->rcv_nxt, (uint16_t)p->max_pkt);
}

static void data_in(struct spxpeer *p, uint8_t cc, uint8_t ds, uint16_t seq,
		    const uint8_t *data, size_t len)
{
	bool asked = cc & 0x40;

	if (asked)
		p->st.ack_requests++;
	if (seq != p->rcv_nxt) {
		p->st.dropped++;
		if (asked)
			ack(p);
		return;
	}
	p->rcv_nxt++;
	if (ds == 0xFE) {
		/* The answer covers the data, not the 0xFE itself. */
		p->st.disconnected = true;
		reply(p, 0x80, 0xFF, (uint16_t)(p->rcv_nxt - 1), 0);
		p->connected = false;
		return;
	}
	p->st.data_packets++;
	if (ds >= 0xFB)
		p->st.unknown_ds++;
	p->st.rx_bytes += len;
	p->st.rx_hash = spxpeer_hash(p->st.rx_hash, data, len);
	if (asked)
		ack(p);
}

static uint16_t tx_packets(const struct spxpeer *p)
{
	return (uint16_t)((p->tx_len + PEER_DATA - 1) / PEER_DATA);
}

/* Its packet 'seq': data, or the 0xFE after the last one. */
static void send_packet(struct spxpeer *p, uint16_t seq)
{
	uint8_t b[14 + PEER_DATA];
	size_t off = (size_t)seq * PEER_DATA, n = 0;
	bool fe = seq == tx_packets(p);

	if (!fe)
		n = p->tx_len - off < PEER_DATA ? p->tx_len - off : PEER_DATA;
	b[0] = 0x48;	/* ACK | SPX II */
	b[1] = fe ? 0xFE : 0;
	ipx_put16(b + 2, PEER_ID);
	ipx_put16(b + 4, p->remote_id);
	ipx_put16(b + 6, seq);
	ipx_put16(b + 8, p->rcv_nxt);
	ipx_put16(b + 10, (uint16_t)(p->rcv_nxt + p->window - 1));
	ipx_put16(b + 12, 0);
	if (n)
		memcpy(b + 14, p->tx + off, n);
	if (fe)
		p->st.fe_sent = true;
	ipx_socket_sendto(p->sock, &p->remote, IPX_TYPE_SPX, b, 14 + n);
}

/* Everything the allocation allows; the 0xFE once all data is in. */
static void pump(struct spxpeer *p)
{
	uint16_t last = tx_packets(p);	/* the 0xFE's sequence */

	if (!p->connected || !p->sending)
		return;
	while ((uint16_t)(p->snd_nxt - p->snd_una) <
		       (uint16_t)(p->remote_alloc + 1 - p->snd_una) &&
	       (uint16_t)(p->snd_nxt - last) > 0x8000) {
		send_packet(p, p->snd_nxt);
		p->snd_nxt++;
	}
	if (p->close_wanted && p->snd_nxt == last && p->snd_una == last &&
	    (uint16_t)(p->remote_alloc - last) < 0x8000) {
		send_packet(p, last);
		p->snd_nxt++;
	}
	if (p->snd_una != p->snd_nxt || p->snd_una != last ||
	    (p->close_wanted && !p->st.fe_answered))
		ipx_timer_start(p->loop, &p->rexmit, PEER_RTO, 0);
}

/* Go back to the first packet not acknowledged; with nothing in flight
 * ask for an acknowledgement (the allocation may have opened). */
static void on_rexmit(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	struct spxpeer *p = ctx;

	(void)loop;
	(void)t;
	if (!p->connected || !p->sending)
		return;
	if (p->snd_una != p->snd_nxt) {
		p->st.retransmits++;
		p->snd_nxt = p->snd_una;
	} else {
		reply(p, 0xC8, 0, p->rcv_nxt, 0);
	}
	pump(p);
}

/* Acknowledge and allocation numbers of any packet of the other side. */
static void acked(struct spxpeer *p, const uint8_t *d)
{
	uint16_t ack = ipx_get16(d + 8), alloc = ipx_get16(d + 10);
	unsigned granted = (uint16_t)(alloc + 1 - ack);

	if (granted > p->st.granted_max && granted < 0x8000)
		p->st.granted_max = granted;
	if ((uint16_t)(ack - p->snd_una) <= (uint16_t)(p->snd_nxt - p->snd_una) &&
	    ack != p->snd_una) {
		uint16_t data_end = tx_packets(p);
		uint64_t upto = (uint16_t)(ack - data_end) < 0x8000
					? p->tx_len
					: (uint64_t)ack * PEER_DATA;

		p->snd_una = ack;
		p->st.tx_acked = upto;
	}
	if ((uint16_t)(alloc - p->remote_alloc) < 0x8000)
		p->remote_alloc = alloc;
}

static void on_packet(struct ipx_socket *sock, const struct ipx_header *ih,
		      const uint8_t *d, size_t len, void *ctx)
{
	struct spxpeer *p = ctx;
	uint8_t cc;
	uint16_t dst, src;
	size_t hl;

	(void)sock;
	if (len < 12)
		return;
	cc = d[0];
	src = ipx_get16(d + 2);
	dst = ipx_get16(d + 4);
	if (dst == 0xFFFF) {
		if ((cc & 0xC0) != 0xC0)
			return;
		/* A connect request: accept it (again, if repeated). */
		p->remote = ih->src;
		p->remote_id = src;
		p->remote_alloc = ipx_get16(d + 10);
		p->connected = true;
		reply(p, 0x8C, 0, 0, (uint16_t)p->max_pkt);
		return;
	}
	if (!p->connected || dst != PEER_ID || src != p->remote_id)
		return;
	hl = (cc & 0x08) ? 14 : 12;
	if (len < hl)
		return;
	acked(p, d);
	if (cc & 0x80) {
		if (d[1] == 0xFF && p->st.fe_sent) {
			p->st.fe_answered = true;
			p->connected = false;
			ipx_timer_stop(p->loop, &p->rexmit);
			return;
		}
		if ((cc & 0x44) == 0x44) {
			/* Size negotiation: what arrived, up to our limit. */
			size_t size = ih->length < p->max_pkt ? ih->length
							      : p->max_pkt;

			reply(p, 0x8C, 0, p->rcv_nxt, (uint16_t)size);
			p->sending = true;
		} else if (cc & 0x40) {
			ack(p);	/* a watchdog request */
		}
		pump(p);
		return;
	}
	data_in(p, cc, d[1], ipx_get16(d + 6), d + hl, len - hl);
	pump(p);
}

struct spxpeer *spxpeer_new(struct ipx_node *node, uint16_t socket,
			    unsigned window, size_t max_pkt)
{
	struct spxpeer *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->window = window;
	p->max_pkt = max_pkt;
	p->st.rx_hash = SPXPEER_HASH_INIT;
	p->loop = ipx_node_loop(node);
	ipx_timer_init(&p->rexmit, on_rexmit, p);
	if (ipx_socket_open(node, socket, on_packet, p, &p->sock) != IPX_OK) {
		free(p);
		return NULL;
	}
	return p;
}

void spxpeer_free(struct spxpeer *p)
{
	if (!p)
		return;
	ipx_timer_stop(p->loop, &p->rexmit);
	ipx_socket_close(p->sock);
	free(p->tx);
	free(p);
}

void spxpeer_send(struct spxpeer *p, const uint8_t *data, size_t len)
{
	uint8_t *tx = realloc(p->tx, p->tx_len + len);

	if (!tx)
		return;
	memcpy(tx + p->tx_len, data, len);
	p->tx = tx;
	p->tx_len += len;
	pump(p);
}

void spxpeer_close(struct spxpeer *p)
{
	p->close_wanted = true;
	pump(p);
}

const struct spxpeer_stats *spxpeer_stats(const struct spxpeer *p)
{
	return &p->st;
}
