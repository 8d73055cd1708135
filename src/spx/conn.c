/*
 * conn.c - one SPX connection: set-up, SPX II size negotiation, sending
 * with stop-and-wait (SPX I) or a window (SPX II), acknowledgements, NAKs,
 * retransmission on an adaptive timer, the watchdog, the orderly release
 * and disconnection.
 */
#include <stdlib.h>
#include <string.h>

#include "ipxlab/buf.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"
#include "spx_int.h"

#define RX_SLOTS_SPX1 4		/* what an SPX I receiver allocates */
#define RTO_MIN (2 * IPX_MSEC)
#define RTO_MAX (5 * IPX_SEC)
#define RTO_INITIAL (500 * IPX_MSEC)
#define CONNECT_RETRY_MAX (2 * IPX_SEC)
#define NEG_TRIES 2		/* per size tried */
#define NEG_MIN 576

static void pump(struct spx_conn *c);
static bool drain(struct spx_conn *c, bool *ack_req, bool *acked);
static void answer_drained(struct spx_conn *c, bool ack_req, bool acked);

struct spx_conn *spx_conn_new(struct spx *spx, struct ipx_socket *sock,
			      const struct ipx_addr *remote, bool incoming)
{
	struct spx_conn *c = calloc(1, sizeof(*c));
	ipx_time now = ipx_loop_now(spx->loop);

	if (!c)
		return NULL;
	c->spx = spx;
	c->sock = sock;
	c->remote = *remote;
	c->incoming = incoming;
	c->remote_id = SPX_CONN_UNKNOWN;
	c->state = SPX_CONNECTING;
	c->version = 1;
	c->offered2 = spx->opts.spx2;
	c->rx_slots = RX_SLOTS_SPX1;
	c->max_pkt = NEG_MIN;
	c->rto = RTO_INITIAL;
	c->last_rx = c->last_tx = c->last_probe = now;
	ipx_timer_init(&c->rexmit, NULL, c);
	return c;
}

static uint16_t my_alloc(const struct spx_conn *c)
{
	return (uint16_t)(c->rcv_nxt + c->rx_slots - 1);
}

static size_t hdr_len(const struct spx_conn *c)
{
	return c->version == 2 ? SPX2_HDR_LEN : SPX_HDR_LEN;
}

/* Build and send one packet; data may be NULL with pad > 0 for the
 * negotiation request (zero padding up to the size tried). */
static int transmit(struct spx_conn *c, uint8_t cc, uint8_t ds, uint16_t seq,
		    const uint8_t *data, size_t len, size_t pad)
{
	_Alignas(struct ipx_buf) uint8_t raw[sizeof(struct ipx_buf) +
					     IPX_BUF_HEADROOM + IPX_MAX_PACKET];
	struct ipx_buf *buf = (struct ipx_buf *)raw;
	struct spx_header h = { .cc = cc, .ds = ds, .src_id = c->local_id,
				.dst_id = c->remote_id, .seq = seq,
				.ack = c->rcv_nxt, .alloc = my_alloc(c) };
	uint8_t *p;
	int rc;

	if (c->version == 2 || (cc & SPX_CC_SPX2)) {
		h.cc |= SPX_CC_SPX2;
		h.hdr_len = h.dst_id == SPX_CONN_UNKNOWN ? SPX_HDR_LEN
							 : SPX2_HDR_LEN;
		h.neg_size = (uint16_t)(pad ? pad : c->max_pkt);
	} else {
		h.hdr_len = SPX_HDR_LEN;
	}
	buf->cap = IPX_BUF_HEADROOM + IPX_MAX_PACKET;
	ipx_buf_reset(buf);
	if (pad && pad > IPX_HDR_LEN + h.hdr_len)
		len = pad - IPX_HDR_LEN - h.hdr_len;
	p = ipx_buf_put(buf, h.hdr_len + len);
	if (!p)
		return IPX_ETOOBIG;
	spx_header_encode(&h, p);
	if (data)
		memcpy(p + h.hdr_len, data, len);
	else
		memset(p + h.hdr_len, 0, len);
	rc = ipx_socket_send_buf(c->sock, &c->remote, IPX_TYPE_SPX, buf);
	c->last_tx = ipx_loop_now(c->spx->loop);
	return rc;
}

void spx_send_ack(struct spx_conn *c, uint8_t extra_cc, uint8_t ds)
{
	/* SPX II acks carry sequence 0 (as NetWare does); SPX I ones our
	 * current sequence number. */
	uint16_t seq = c->version == 2 ? 0 : c->snd_max;

	c->stats.acks_tx++;
	transmit(c, (uint8_t)(SPX_CC_SYS | extra_cc), ds, seq, NULL, 0, 0);
}

static void send_nak(struct spx_conn *c)
{
	ipx_time now = ipx_loop_now(c->spx->loop);

	/* One NAK per hole per round trip. */
	if (c->nak_for == c->rcv_nxt && now - c->nak_at < c->srtt + RTO_MIN)
		return;
	c->nak_for = c->rcv_nxt;
	c->nak_at = now;
	c->stats.naks_tx++;
	transmit(c, SPX_CC_SYS, SPX_DS_NAK, 0, NULL, 0, 0);
}

/* The retransmit timeout now: the estimate, doubled per timeout since
 * the last progress, capped. */
static ipx_time cur_rto(const struct spx_conn *c)
{
	ipx_time t = c->rto << (c->backoff < 12 ? c->backoff : 12);

	return t > RTO_MAX ? RTO_MAX : t;
}

static void arm(struct spx_conn *c, ipx_time delay)
{
	ipx_timer_start(c->spx->loop, &c->rexmit, delay, 0);
}

/* ---- ending ---- */

static void free_queue(struct spx_conn *c)
{
	while (c->q_head) {
		struct txseg *s = c->q_head;

		c->q_head = s->next;
		free(s);
	}
	c->q_tail = NULL;
	c->unsent = NULL;
	c->queued_bytes = 0;
	if (c->ooo) {
		for (unsigned i = 0; i < c->rx_slots; i++)
			free(c->ooo[i].data);
		free(c->ooo);
		c->ooo = NULL;
	}
}

void spx_conn_destroy(struct spx_conn *c)
{
	ipx_timer_stop(c->spx->loop, &c->rexmit);
	spx_table_remove(c->spx, c);
	free_queue(c);
	free(c);
}

/* Close with a reason, tell the application (once), free when safe. */
void spx_conn_finish(struct spx_conn *c, int reason)
{
	bool was_connecting = c->state == SPX_CONNECTING ||
			      (c->state == SPX_NEGOTIATING && !c->incoming);

	if (c->state == SPX_CLOSED)
		return;
	c->state = SPX_CLOSED;
	ipx_timer_stop(c->spx->loop, &c->rexmit);
	c->busy++;
	/* Closed before it was up: for the caller that is a failed connect,
	 * never a success (a disconnect during negotiation included). */
	if (was_connecting && !c->incoming && c->h.on_connected)
		c->h.on_connected(c, reason == IPX_EABORTED ? IPX_ETIMEOUT
				     : reason == IPX_OK	    ? IPX_ECLOSED
							    : reason,
				  c->ctx);
	else if (c->h.on_closed)
		c->h.on_closed(c, reason, c->ctx);
	c->busy--;
	c->dead = true;
	if (!c->busy)
		spx_conn_destroy(c);
}

void spx_abort(struct spx_conn *c)
{
	if (c && c->state != SPX_CLOSED)
		spx_conn_finish(c, IPX_ECLOSED);
}

/* ---- set-up and negotiation ---- */

static void send_connect_request(struct spx_conn *c)
{
	uint8_t cc = SPX_CC_SYS | SPX_CC_ACK;

	if (c->offered2)
		cc |= SPX_CC_SPX2 | SPX_CC_NEG;
	transmit(c, cc, 0, 0, NULL, 0, 0);
}

static void send_neg_request(struct spx_conn *c)
{
	transmit(c, SPX_CC_SYS | SPX_CC_ACK | SPX_CC_SPX2 | SPX_CC_NEG, 0, 0,
		 NULL, 0, c->neg_try);
}

static void established(struct spx_conn *c)
{
	c->state = SPX_ESTABLISHED;
	c->retries = 0;
	ipx_timer_stop(c->spx->loop, &c->rexmit);
	if (!c->incoming && c->h.on_connected)
		c->h.on_connected(c, IPX_OK, c->ctx);
	if (c->state == SPX_ESTABLISHED)
		pump(c);
	if (c->state == SPX_ESTABLISHED && c->ooo_count) {
		/* Data that came during the negotiation. */
		bool ack_req = false, acked = false;

		if (drain(c, &ack_req, &acked))
			answer_drained(c, ack_req, acked);
	}
}

static size_t path_max(const struct spx_conn *c)
{
	size_t m = ipx_node_max_payload(c->spx->node, &c->remote) + IPX_HDR_LEN;

	return m > IPX_MAX_PACKET ? IPX_MAX_PACKET : m;
}

static void use_version(struct spx_conn *c, int version)
{
	c->version = version;
	if (version == 2 && !c->ooo) {
		c->rx_slots = c->spx->opts.window;
		c->ooo = calloc(c->rx_slots, sizeof(*c->ooo));
		if (!c->ooo) {
			c->version = 1;
			c->rx_slots = RX_SLOTS_SPX1;
		}
	}
}

static void on_rexmit(struct ipx_loop *loop, struct ipx_timer *t, void *ctx);

void spx_conn_start_connect(struct spx_conn *c)
{
	c->rexmit.cb = on_rexmit;
	c->retries = 0;
	c->started = ipx_loop_now(c->spx->loop);
	send_connect_request(c);
	arm(c, c->rto);
}

void spx_conn_accept(struct spx_conn *c, const struct spx_header *req)
{
	c->rexmit.cb = on_rexmit;
	if (c->remote_id == SPX_CONN_UNKNOWN) {
		c->remote_id = req->src_id;
		c->remote_alloc = req->alloc;
		use_version(c, (req->cc & SPX_CC_SPX2) && c->spx->opts.spx2 ? 2
									 : 1);
		/* Until the requester negotiates, the safe IPX size. */
		c->max_pkt = NEG_MIN;
		c->state = SPX_ESTABLISHED;
	}
	/* The accept: SYS (and SPX II + NEG when we speak it). */
	transmit(c, (uint8_t)(SPX_CC_SYS | (c->version == 2 ? SPX_CC_NEG : 0)),
		 0, 0, NULL, 0, 0);
}

static void got_accept(struct spx_conn *c, const struct spx_header *h)
{
	c->remote_id = h->src_id;
	c->remote_alloc = h->alloc;
	c->retries = 0;
	if (c->offered2 && (h->cc & SPX_CC_SPX2)) {
		use_version(c, 2);
		c->state = SPX_NEGOTIATING;
		c->neg_try = path_max(c);
		c->neg_tries = 0;
		if (c->neg_try <= NEG_MIN) {
			c->max_pkt = c->neg_try;
			established(c);
			return;
		}
		send_neg_request(c);
		arm(c, c->rto);
		return;
	}
	/* A peer that only speaks SPX I gets SPX I. */
	use_version(c, 1);
	c->max_pkt = NEG_MIN;
	established(c);
}

/* ---- sending ---- */

static size_t max_data(const struct spx_conn *c)
{
	return c->max_pkt - IPX_HDR_LEN - hdr_len(c);
}

size_t spx_send_space(const struct spx_conn *c)
{
	size_t cap = c->spx->opts.send_queue;

	if (c->state != SPX_ESTABLISHED || c->close_queued ||
	    c->release_queued)
		return 0;
	return c->queued_bytes >= cap ? 0 : cap - c->queued_bytes;
}

static struct txseg *enqueue(struct spx_conn *c, const uint8_t *data,
			     size_t len, uint8_t flags, uint8_t ds)
{
	struct txseg *s = malloc(sizeof(*s) + len);

	if (!s)
		return NULL;
	memset(s, 0, sizeof(*s));
	s->seq = c->snd_nxt++;
	s->flags = flags;
	s->ds = ds;
	s->len = len;
	if (len)
		memcpy(s->data, data, len);
	if (c->q_tail)
		c->q_tail->next = s;
	else
		c->q_head = s;
	c->q_tail = s;
	if (!c->unsent)
		c->unsent = s;
	c->queued_bytes += len;
	return s;
}

int spx_send(struct spx_conn *c, const void *data, size_t len,
	     unsigned flags, uint8_t datastream)
{
	const uint8_t *p = data;
	size_t seg, off = 0;

	if (!c || c->state != SPX_ESTABLISHED || c->close_queued ||
	    c->release_queued)
		return IPX_ENOTCONN;
	if (datastream >= SPX_DS_RELEASE || (!data && len))
		return IPX_EINVAL;
	if (len > c->spx->opts.send_queue)
		return IPX_ETOOBIG;
	if (len > spx_send_space(c)) {
		c->want_sendable = true;
		return IPX_EAGAIN;
	}
	/* Segments of the size negotiated so far; the ones not yet sent are
	 * never larger than later packets may be. */
	seg = max_data(c);
	do {
		size_t n = len - off < seg ? len - off : seg;
		bool last = off + n == len;
		uint8_t f = last ? (uint8_t)(flags & (SPX_EOM | SPX_ATTN)) : 0;

		if (!enqueue(c, p + off, n, f, datastream))
			return IPX_ENOMEM;
		off += n;
	} while (off < len);
	pump(c);
	return IPX_OK;
}

int spx_close(struct spx_conn *c)
{
	if (!c || c->state != SPX_ESTABLISHED)
		return IPX_ENOTCONN;
	if (c->close_queued)
		return IPX_OK;
	c->close_queued = true;
	if (!enqueue(c, NULL, 0, 0, SPX_DS_DISCONNECT))
		return IPX_ENOMEM;
	pump(c);
	return IPX_OK;
}

int spx_release(struct spx_conn *c)
{
	if (!c || c->state != SPX_ESTABLISHED)
		return IPX_ENOTCONN;
	if (c->release_queued || c->close_queued)
		return IPX_OK;
	c->release_queued = true;
	if (!enqueue(c, NULL, 0, 0, SPX_DS_RELEASE))
		return IPX_ENOMEM;
	pump(c);
	return IPX_OK;
}

void spx_disconnect(struct spx_conn *c)
{
	if (!c || c->state == SPX_CLOSED)
		return;
	/* A system packet, so it is taken at once whatever is missing; its
	 * sequence number (the next we would use) tells the peer whether
	 * it has all we sent. */
	if (c->remote_id != SPX_CONN_UNKNOWN)
		transmit(c, SPX_CC_SYS | SPX_CC_ACK, SPX_DS_DISCONNECT,
			 c->snd_nxt, NULL, 0, 0);
	spx_conn_finish(c, IPX_ECLOSED);
}

static unsigned in_flight(const struct spx_conn *c)
{
	return (uint16_t)(c->snd_max - c->snd_una);
}

static void send_seg(struct spx_conn *c, struct txseg *s, bool again)
{
	uint8_t cc = s->flags;
	bool ack_req;

	if (c->version == 1 || s->ds == SPX_DS_DISCONNECT ||
	    s->ds == SPX_DS_RELEASE) {
		ack_req = true;
	} else {
		unsigned every = c->rx_slots / 4 ? c->rx_slots / 4 : 1;
		bool exhausts = s->seq == c->remote_alloc && !c->ack_req_out;

		/* SPX II asks for an ACK only now and then: when the queue
		 * runs dry, on a retransmission, every quarter window (so a
		 * full window always has a request in flight), and when the
		 * packet uses up the peer's allocation unless a request is
		 * still unanswered (a peer that acknowledges only when asked
		 * then always has a question to answer, and a window that
		 * opens a packet at a time does not make every packet ask). */
		ack_req = again || !s->next || exhausts ||
			  ++c->since_ack_req >= every;
		if (ack_req)
			c->since_ack_req = 0;
	}
	if (ack_req) {
		c->ack_req_out = true;
		c->ack_req_seq = s->seq;
	}
	if (ack_req)
		cc |= SPX_CC_ACK;
	if (!again && ack_req && !s->timed) {
		s->timed = true;
		s->sent_at = ipx_loop_now(c->spx->loop);
	}
	if (again) {
		/* Karn: after a retransmission no packet in flight gives a
		 * true round trip (its ACK may have waited for the gap). */
		for (struct txseg *t = c->q_head; t && t->sent; t = t->next)
			t->timed = false;
		s->retransmitted = true;
		c->stats.retransmits++;
	}
	s->sent = true;
	c->stats.tx_data++;
	c->stats.tx_bytes += s->len;
	transmit(c, cc, s->ds, s->seq, s->data, s->len, 0);
	if (!ipx_timer_active(&c->rexmit))
		arm(c, cur_rto(c));
}

/* Send what the window allows. */
static void pump(struct spx_conn *c)
{
	struct txseg *s;

	if (c->state != SPX_ESTABLISHED && c->state != SPX_CLOSING)
		return;
	/* The first unsent segment sits at snd_max. */
	for (s = c->unsent; s; s = s->next) {
		unsigned limit = c->version == 1 ? 1 : c->rx_slots;

		if (in_flight(c) >= limit || !spx_seq_le(s->seq, c->remote_alloc))
			break;
		c->snd_max = (uint16_t)(s->seq + 1);
		c->unsent = s->next;
		send_seg(c, s, false);
		if (s->ds == SPX_DS_DISCONNECT)
			c->state = SPX_CLOSING;
	}
}

static void rtt_sample(struct spx_conn *c, ipx_time sample)
{
	c->stats.rtt_samples++;
	if (c->stats.rtt_samples == 1) {
		c->srtt = sample;
		c->rttvar = sample / 2;
	} else {
		ipx_time err = sample > c->srtt ? sample - c->srtt
						: c->srtt - sample;

		c->rttvar = (3 * c->rttvar + err) / 4;
		c->srtt = (7 * c->srtt + sample) / 8;
	}
	/* A floor of half a round trip plus a millisecond over the estimate,
	 * so a steady link (variance near 0) does not retransmit packets
	 * that are merely a little late. */
	c->rto = c->srtt + (4 * c->rttvar > c->srtt / 2 + IPX_MSEC
				    ? 4 * c->rttvar
				    : c->srtt / 2 + IPX_MSEC);
	if (c->rto < RTO_MIN)
		c->rto = RTO_MIN;
	if (c->rto > RTO_MAX)
		c->rto = RTO_MAX;
}

static void release_done(struct spx_conn *c);

/* Data of ours not yet acknowledged (the release and the disconnect
 * carry none)? */
static bool data_unacked(const struct spx_conn *c)
{
	for (const struct txseg *s = c->q_head; s; s = s->next)
		if (s->ds != SPX_DS_RELEASE && s->ds != SPX_DS_DISCONNECT)
			return true;
	return false;
}

/* The peer acknowledges everything before h->ack (h is the packet that
 * says so: an answer to our release tells whether the peer knows it). */
static void got_ack(struct spx_conn *c, const struct spx_header *h)
{
	ipx_time now = ipx_loop_now(c->spx->loop);
	uint16_t ack = h->ack, alloc = h->alloc;
	bool progress = false, fe_acked = false, fc_acked = false;

	/* Distances, not signed comparisons: a number half the sequence
	 * space away is "ahead" and "behind" at once. The peer allocates at
	 * most a window beyond what it acknowledges; an ACK covers at most
	 * what we have sent. */
	if ((uint16_t)(alloc + 1 - ack) <= 1024 &&
	    (uint16_t)(alloc - c->remote_alloc) < 0x8000)
		c->remote_alloc = alloc;
	if ((uint16_t)(ack - c->snd_una) == 0 ||
	    (uint16_t)(ack - c->snd_una) > (uint16_t)(c->snd_max - c->snd_una))
		return;
	while (c->q_head && spx_seq_lt(c->q_head->seq, ack)) {
		struct txseg *s = c->q_head;

		if (s->timed && !s->retransmitted)
			rtt_sample(c, now - s->sent_at);
		if (s->ds == SPX_DS_DISCONNECT)
			fe_acked = true;
		if (s->ds == SPX_DS_RELEASE)
			fc_acked = true;
		c->q_head = s->next;
		if (!c->q_head)
			c->q_tail = NULL;
		c->queued_bytes -= s->len;
		free(s);
		progress = true;
	}
	c->snd_una = ack;
	c->stats.acks_rx++;
	if (c->ack_req_out && spx_seq_lt(c->ack_req_seq, ack))
		c->ack_req_out = false;
	if (!progress)
		return;
	c->retries = 0;
	c->backoff = 0;
	if (fe_acked) {
		spx_conn_finish(c, IPX_OK);
		return;
	}
	if (fc_acked) {
		/* Our stack answers a release with 0xFD; a plain system ACK
		 * means a peer without orderly release. (An ACK riding on
		 * its data says nothing either way.) */
		c->released = true;
		c->release_plain = (h->cc & SPX_CC_SYS) &&
				   h->ds != SPX_DS_RELEASE_ACK;
		release_done(c);
		if (c->state == SPX_CLOSED)
			return;
	}
	if (c->recovering) {
		if (spx_seq_lt(ack, c->recover_to) && c->q_head &&
		    c->q_head->sent)
			send_seg(c, c->q_head, true);
		else
			c->recovering = false;
	}
	if (in_flight(c))
		arm(c, cur_rto(c));
	else
		ipx_timer_stop(c->spx->loop, &c->rexmit);
	pump(c);
	if (c->want_sendable && c->state == SPX_ESTABLISHED &&
	    spx_send_space(c) >= c->spx->opts.send_queue / 2) {
		c->want_sendable = false;
		if (c->h.on_sendable)
			c->h.on_sendable(c, c->ctx);
	}
}

static void on_rexmit(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	struct spx_conn *c = ctx;

	(void)t;
	c->busy++;
	c->stats.timeouts++;
	switch (c->state) {
	case SPX_CONNECTING: {
		/* Requests at 0.5, 1, 2, 2, ... s until the connect timeout. */
		ipx_time now = ipx_loop_now(loop), next, end;

		end = c->started + c->spx->opts.connect_timeout;
		if (!ipx_time_before(now, end)) {
			spx_conn_finish(c, IPX_ETIMEOUT);
			break;
		}
		c->retries++;
		send_connect_request(c);
		next = c->rto << (c->retries < 3 ? c->retries : 3);
		if (next > CONNECT_RETRY_MAX)
			next = CONNECT_RETRY_MAX;
		arm(c, now + next < end ? next : end - now);
		break;
	}
	case SPX_NEGOTIATING:
		if (++c->neg_tries >= NEG_TRIES) {
			c->neg_tries = 0;
			c->neg_try /= 2;
			if (c->neg_try < NEG_MIN) {
				c->max_pkt = NEG_MIN;
				established(c);
				break;
			}
		}
		send_neg_request(c);
		arm(c, c->rto);
		break;
	case SPX_ESTABLISHED:
	case SPX_CLOSING:
		if (!in_flight(c) || !c->q_head)
			break;
		if (++c->retries > c->spx->retry_count) {
			ipx_info("spx: connection %04X aborted after %u "
				 "retries",
				 c->local_id, c->retries - 1);
			spx_conn_finish(c, IPX_EABORTED);
			break;
		}
		c->backoff++;
		/* Until what is in flight now is acknowledged, every ACK
		 * that moves resends the next packet (a lost burst costs a
		 * round trip a packet, not a timeout a packet). */
		c->recovering = c->version == 2;
		c->recover_to = c->snd_max;
		send_seg(c, c->q_head, true);
		arm(c, cur_rto(c));
		break;
	default:
		break;
	}
	c->busy--;
	if (c->dead && !c->busy)
		spx_conn_destroy(c);
}

/* ---- receiving ---- */

static void deliver(struct spx_conn *c, uint8_t cc, uint8_t ds,
		    const uint8_t *data, size_t len)
{
	c->stats.rx_data++;
	c->stats.rx_bytes += len;
	if (c->h.on_data)
		c->h.on_data(c, data, len, cc & (SPX_EOM | SPX_ATTN), ds,
			     c->ctx);
}

/*
 * The peer's disconnect: answer, then close. It is a clean end when none
 * of our data waits for an acknowledgement and nothing of the peer's is
 * missing (a disconnect sent as a system packet carries the peer's next
 * sequence number, which must be the one we expect).
 */
static void peer_disconnect(struct spx_conn *c, uint16_t fe_seq, bool sys)
{
	bool complete = !sys || fe_seq == c->rcv_nxt;

	spx_remember_gone(c->spx, c, complete, SPX_DS_DISCONNECT, fe_seq);
	spx_send_ack(c, 0, SPX_DS_DISCONNECT_ACK);
	spx_conn_finish(c, complete && !data_unacked(c) ? IPX_OK
							: IPX_ECLOSED);
}

/* Our release is acknowledged: the end once the peer's is in too. A
 * peer without orderly release (a plain ACK answered it) may still be
 * sending: the session goes on until it disconnects. */
static void release_done(struct spx_conn *c)
{
	if (c->peer_released) {
		spx_remember_gone(c->spx, c, true, SPX_DS_RELEASE,
				  c->peer_fin_seq);
		spx_conn_finish(c, IPX_OK);
		return;
	}
	if (c->release_plain)
		ipx_debug("spx: the peer has no orderly release: receiving "
			  "until it disconnects");
}

/* The peer's release arrived in sequence: answer 0xFD, tell the
 * application; the end if ours is acknowledged already. */
static void peer_release(struct spx_conn *c, uint16_t seq)
{
	c->peer_released = true;
	c->peer_fin_seq = seq;
	spx_send_ack(c, 0, SPX_DS_RELEASE_ACK);
	if (c->h.on_release)
		c->h.on_release(c, c->ctx);
	if (c->state != SPX_CLOSED && c->released)
		release_done(c);
}

/*
 * A packet in sequence: data delivered, or the peer's release or
 * disconnect. Returns false when the connection ended on it; *acked is
 * set when it sent its own answer.
 */
static bool in_sequence(struct spx_conn *c, uint16_t seq, uint8_t cc,
			uint8_t ds, const uint8_t *data, size_t len,
			bool *acked)
{
	c->rcv_nxt++;
	if (ds == SPX_DS_DISCONNECT) {
		peer_disconnect(c, seq, false);
		return false;
	}
	if (c->peer_released) {
		/* Nothing but a disconnect may follow a release. */
		c->spx->drops[SPX_DROP_BAD_STATE]++;
		return true;
	}
	if (ds == SPX_DS_RELEASE) {
		peer_release(c, seq);
		*acked = true;
	} else {
		deliver(c, cc, ds, data, len);
	}
	return !c->dead && c->state != SPX_CLOSED;
}

/* Keep an SPX II packet in its window slot until what is before it is
 * in (the caller makes sure it is within the window). */
static void hold(struct spx_conn *c, const struct spx_header *h,
		 const uint8_t *data, size_t len)
{
	struct rxslot *s = &c->ooo[h->seq % c->rx_slots];
	uint8_t *copy;

	if (s->used) {
		c->stats.duplicates++;
		c->spx->drops[SPX_DROP_DUPLICATE]++;
		return;
	}
	copy = realloc(s->data, len ? len : 1);
	if (!copy)
		return;
	s->data = copy;
	memcpy(s->data, data, len);
	s->len = len;
	s->seq = h->seq;
	s->cc = h->cc;
	s->ds = h->ds;
	s->used = true;
	c->ooo_count++;
	c->stats.out_of_order++;
}

/* Deliver the held packets that are now in order; false when the
 * connection ended on one. */
static bool drain(struct spx_conn *c, bool *ack_req, bool *acked)
{
	while (c->ooo) {
		struct rxslot *s = &c->ooo[c->rcv_nxt % c->rx_slots];

		if (!s->used || s->seq != c->rcv_nxt)
			break;
		s->used = false;
		c->ooo_count--;
		*acked = false;
		if (!in_sequence(c, s->seq, s->cc, s->ds, s->data, s->len,
				 acked))
			return false;
		*ack_req = true;
	}
	return true;
}

/* After a drain: report the next hole, or acknowledge what was asked. */
static void answer_drained(struct spx_conn *c, bool ack_req, bool acked)
{
	if (c->ooo_count)
		send_nak(c);
	else if (ack_req && !acked)
		spx_send_ack(c, 0, 0);
}

static void data_packet(struct spx_conn *c, const struct spx_header *h,
			const uint8_t *data, size_t len)
{
	bool ack_req = h->cc & SPX_CC_ACK, acked = false;

	if (h->seq == c->rcv_nxt) {
		/* Whatever waited behind it follows. */
		if (in_sequence(c, h->seq, h->cc, h->ds, data, len, &acked) &&
		    drain(c, &ack_req, &acked))
			answer_drained(c, ack_req, acked);
		return;
	}
	if (spx_seq_lt(h->seq, c->rcv_nxt)) {
		/* We have it: our ACK was lost; say so again (a repeated
		 * release gets its own answer again). */
		c->stats.duplicates++;
		c->spx->drops[SPX_DROP_DUPLICATE]++;
		spx_send_ack(c, 0, h->ds == SPX_DS_RELEASE && c->peer_released
					   ? SPX_DS_RELEASE_ACK
					   : 0);
		return;
	}
	if (!c->ooo || !spx_seq_le(h->seq, my_alloc(c))) {
		c->spx->drops[SPX_DROP_OUT_OF_WINDOW]++;
		spx_send_ack(c, 0, 0);
		return;
	}
	hold(c, h, data, len);
	send_nak(c);
}

static void system_packet(struct spx_conn *c, const struct ipx_header *ih,
			  const struct spx_header *h)
{
	bool ack_bit = h->cc & SPX_CC_ACK;

	switch (c->state) {
	case SPX_CONNECTING:
		if (h->ds == SPX_DS_DISCONNECT && h->src_id == SPX_CONN_UNKNOWN)
			spx_conn_finish(c, IPX_EREFUSED);	/* busy */
		else if (!ack_bit && h->src_id != SPX_CONN_UNKNOWN)
			got_accept(c, h);
		else
			c->spx->drops[SPX_DROP_BAD_STATE]++;
		return;
	case SPX_NEGOTIATING:
		if ((h->cc & SPX_CC_NEG) && !ack_bit) {
			size_t size = h->neg_size;

			c->max_pkt = size >= NEG_MIN && size <= c->neg_try
					     ? size
					     : c->neg_try;
			got_ack(c, h);
			established(c);
			return;
		}
		break;
	default:
		break;
	}
	if (c->state == SPX_CLOSED)
		return;
	/* Size negotiation from the requester: the padded packet made it,
	 * so that size works on the path; answer and use it. */
	if (c->version == 2 && (h->cc & SPX_CC_NEG) && ack_bit) {
		size_t size = ih->length;

		if (size > path_max(c))
			size = path_max(c);
		if (size >= NEG_MIN)
			c->max_pkt = size;
		transmit(c, SPX_CC_SYS | SPX_CC_NEG, 0, 0, NULL, 0, 0);
		return;
	}
	if (h->ds == SPX_DS_DISCONNECT) {
		/* Some stacks send the disconnect as a system packet. */
		peer_disconnect(c, h->seq, true);
		return;
	}
	if (h->ds == SPX_DS_DISCONNECT_ACK) {
		/* Any answer to our disconnect ends the session; cleanly when
		 * it acknowledges all our data before the disconnect (some
		 * stacks do not count the disconnect itself). Any other means
		 * the peer is gone without confirming our data. */
		struct txseg *fe = c->q_tail;
		bool clean = c->state == SPX_CLOSING && fe &&
			     fe->ds == SPX_DS_DISCONNECT && fe->sent &&
			     (uint16_t)(h->ack - fe->seq) <= 1;

		spx_conn_finish(c, clean ? IPX_OK : IPX_ECLOSED);
		return;
	}
	got_ack(c, h);
	if (c->dead || c->state == SPX_CLOSED)
		return;
	if (h->ds == SPX_DS_NAK && c->version == 2) {
		struct txseg *s = c->q_head;
		ipx_time now = ipx_loop_now(c->spx->loop);

		c->stats.naks_rx++;
		/* Resend the missing packet at once, unless we just did. */
		if (s && s->seq == h->ack && s->sent &&
		    (!s->retransmitted || now - s->sent_at > c->srtt)) {
			s->sent_at = now;
			send_seg(c, s, true);
		}
		return;
	}
	if (ack_bit) {
		/* A watchdog request: we are here. */
		spx_send_ack(c, 0, 0);
	}
}

void spx_conn_input(struct spx_conn *c, const struct ipx_header *ih,
		    const struct spx_header *h, const uint8_t *data,
		    size_t len)
{
	c->last_rx = ipx_loop_now(c->spx->loop);
	if (h->cc & SPX_CC_SYS) {
		system_packet(c, ih, h);
		return;
	}
	if (c->state == SPX_NEGOTIATING) {
		/* Data before our negotiation finished (the listener is up
		 * as soon as it accepts): held, delivered and acknowledged
		 * once the packet size is settled. */
		got_ack(c, h);
		if (c->ooo && !spx_seq_lt(h->seq, c->rcv_nxt) &&
		    spx_seq_le(h->seq, my_alloc(c)))
			hold(c, h, data, len);
		else
			c->spx->drops[SPX_DROP_OUT_OF_WINDOW]++;
		return;
	}
	if (c->state != SPX_ESTABLISHED && c->state != SPX_CLOSING) {
		c->spx->drops[SPX_DROP_BAD_STATE]++;
		return;
	}
	got_ack(c, h);
	if (c->dead || c->state == SPX_CLOSED)
		return;
	data_packet(c, h, data, len);
}

/* ---- the watchdog (called every tick) ---- */

void spx_conn_watchdog(struct spx_conn *c, ipx_time now)
{
	struct spx *spx = c->spx;
	ipx_time silent = now - c->last_rx;

	if (c->state == SPX_CONNECTING || c->state == SPX_CLOSED)
		return;
	if (spx->abort_timeout && silent >= spx->abort_timeout) {
		ipx_info("spx: connection %04X aborted: peer silent for %.1f s",
			 c->local_id, (double)silent / IPX_SEC);
		spx_conn_finish(c, IPX_EABORTED);
		return;
	}
	if (spx->listen_timeout && silent >= spx->listen_timeout &&
	    now - c->last_probe >= (spx->verify_timeout ? spx->verify_timeout
							: spx->listen_timeout)) {
		/* Silence: ask the peer whether it is still there. */
		c->last_probe = now;
		c->stats.probes_tx++;
		transmit(c, SPX_CC_SYS | SPX_CC_ACK, 0,
			 c->version == 2 ? 0 : c->snd_max, NULL, 0, 0);
		return;
	}
	if (spx->verify_timeout && now - c->last_tx >= spx->verify_timeout) {
		/* Idle: show we are alive. */
		c->stats.keepalives_tx++;
		spx_send_ack(c, 0, 0);
	}
}

void spx_get_status(const struct spx_conn *c, struct spx_status *st)
{
	memset(st, 0, sizeof(*st));
	st->state = c->state;
	st->version = c->version;
	ipx_node_address(c->spx->node, &st->local);
	st->local.socket = ipx_socket_number(c->sock);
	st->remote = c->remote;
	st->local_id = c->local_id;
	st->remote_id = c->remote_id;
	st->max_data = max_data(c);
	st->window = c->version == 1 ? 1 : c->rx_slots;
	st->in_flight = in_flight(c);
	st->queued_bytes = c->queued_bytes;
	st->released = c->released;
	st->peer_released = c->peer_released;
	st->silent = ipx_loop_now(c->spx->loop) - c->last_rx;
	st->srtt = c->srtt;
	st->rto = c->rto;
	st->stats = c->stats;
}
