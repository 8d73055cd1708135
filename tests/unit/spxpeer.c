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

struct spxpeer {
	struct ipx_socket *sock;
	unsigned window;
	size_t max_pkt;
	bool connected;
	struct ipx_addr remote;
	uint16_t remote_id;
	uint16_t rcv_nxt;
	struct spxpeer_stats st;
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
		p->connected = true;
		reply(p, 0x8C, 0, 0, (uint16_t)p->max_pkt);
		return;
	}
	if (!p->connected || dst != PEER_ID || src != p->remote_id)
		return;
	hl = (cc & 0x08) ? 14 : 12;
	if (len < hl)
		return;
	if (cc & 0x80) {
		if ((cc & 0x44) == 0x44) {
			/* Size negotiation: what arrived, up to our limit. */
			size_t size = ih->length < p->max_pkt ? ih->length
							      : p->max_pkt;

			reply(p, 0x8C, 0, p->rcv_nxt, (uint16_t)size);
		} else if (cc & 0x40) {
			ack(p);	/* a watchdog request */
		}
		return;
	}
	data_in(p, cc, d[1], ipx_get16(d + 6), d + hl, len - hl);
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
	ipx_socket_close(p->sock);
	free(p);
}

const struct spxpeer_stats *spxpeer_stats(const struct spxpeer *p)
{
	return &p->st;
}
