/*
 * session.c - NetBIOS sessions: CALL and LISTEN by name, SEND and RECEIVE
 * of messages up to 65,535 bytes, HANG UP, and the watchdog.
 *
 * As Novell's emulator did, a session is stop-and-wait: one packet in
 * flight, an acknowledgement for every packet, a resend every NETBIOS
 * RETRY DELAY and the session ended abnormally after NETBIOS RETRY COUNT
 * resends without an answer. A message is cut into fragments of the
 * largest size both ends take; each carries the message length and its
 * offset, and the receiver puts them together in order.
 *
 * A receiver holds what arrives before a RECEIVE asks for it, up to one
 * largest message; beyond that it answers "not ready" (an ack with ATTN
 * that does not take the packet), and the sender polls every retry delay
 * without counting retries until a plain ack says the receiver has room.
 * The watchdog (one tick for all sessions) probes a silent peer after
 * NETBIOS LISTEN TIMEOUT, keeps idle sessions alive every NETBIOS VERIFY
 * TIMEOUT, and ends the session after NETBIOS ABORT TIMEOUT of silence.
 */
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"
#include "nb_int.h"

/* What a session holds for RECEIVEs not yet posted. */
#define HOLD_BYTES NB_MAX_MESSAGE
#define HOLD_CHUNKS 128
/* How long HANG UP waits for SENDs still going (as IBM NetBIOS). */
#define HANGUP_WAIT (20 * IPX_SEC)
#define UNIT_500MS (500 * IPX_MSEC)

static void on_rexmit(struct ipx_loop *loop, struct ipx_timer *t, void *ctx);
static void deliver(struct nb_session *s);

/* ---- the table ---- */

static struct nb_session *by_lsn(struct netbios *nb, uint8_t lsn)
{
	return lsn ? nb->sess[lsn] : NULL;
}

static struct nb_session *by_id(struct netbios *nb, uint16_t id)
{
	struct nb_session *s = nb->sess[id & 0xFF];

	return s && s->local_id == id ? s : NULL;
}

static size_t own_max_data(struct netbios *nb, const struct ipx_addr *to)
{
	size_t m = ipx_node_max_payload(nb->node, to);

	return m > NB_SESS_HDR_LEN ? m - NB_SESS_HDR_LEN : 1;
}

static struct nb_session *sess_new(struct netbios *nb,
				   enum nb_sess_state state, uint8_t num,
				   struct nb_ncb *ncb)
{
	struct nb_session *s;
	uint8_t lsn = nb->next_lsn;

	if (nb->nsess >= nb->max_sessions)
		return NULL;
	while (nb->sess[lsn])
		lsn = lsn >= NB_MAX_LSN ? 1 : (uint8_t)(lsn + 1);
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	nb->next_lsn = lsn >= NB_MAX_LSN ? 1 : (uint8_t)(lsn + 1);
	s->nb = nb;
	s->lsn = lsn;
	s->state = state;
	s->num = num;
	/* The low byte is the session number: packets find it at once. */
	s->local_id = (uint16_t)(nb->gen++ << 8 | lsn);
	s->call = ncb;
	ncb->owner_ = s;
	memcpy(s->local_name, ncb->name, NB_NAME_LEN);
	memcpy(s->remote_name, ncb->callname, NB_NAME_LEN);
	s->rto = ncb->rto * UNIT_500MS;
	s->sto = ncb->sto * UNIT_500MS;
	s->max_data = own_max_data(nb, NULL);
	s->end_reason = NB_RC_CLOSED;
	ipx_timer_init(&s->rexmit, on_rexmit, s);
	s->last_rx = s->last_tx = s->last_probe = ipx_loop_now(nb->loop);
	nb->sess[lsn] = s;
	nb->nsess++;
	{
		struct nb_session **pp = &nb->sessions;

		while (*pp)
			pp = &(*pp)->next;
		*pp = s;
	}
	return s;
}

static void free_chunks(struct nb_session *s)
{
	while (s->rxq) {
		struct nb_chunk *c = s->rxq;

		s->rxq = c->next;
		free(c);
	}
	s->rxq_bytes = 0;
	s->rxq_count = 0;
}

/* Forget the session; its commands must be completed already. */
static void sess_free(struct nb_session *s)
{
	struct netbios *nb = s->nb;
	uint8_t num = s->num;

	ipx_timer_stop(nb->loop, &s->rexmit);
	for (struct nb_session **pp = &nb->sessions; *pp; pp = &(*pp)->next) {
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	}
	nb->sess[s->lsn] = NULL;
	nb->nsess--;
	free_chunks(s);
	free(s);
	nb_name_release(nb, num);
}

/* A session became established. */
static void activated(struct nb_session *s)
{
	ipx_time now = ipx_loop_now(s->nb->loop);

	s->state = NB_S_ACTIVE;
	s->retries = 0;
	s->last_rx = s->last_tx = s->last_probe = now;
	s->nb->stats.sessions_opened++;
	nb_tick_start(s->nb);
}

/* ---- packets ---- */

static int tx(struct nb_session *s, uint8_t cc, uint8_t ds, uint16_t seq,
	      uint16_t total, uint16_t off, const uint8_t *data, size_t len)
{
	struct netbios *nb = s->nb;
	uint8_t p[NB_SESS_HDR_LEN + IPX_MAX_PACKET + 1];
	struct nb_sess_hdr h = { .cc = cc, .ds = ds, .src_id = s->local_id,
				 .dst_id = s->remote_id, .seq = seq,
				 .total = total, .offset = off,
				 .len = (uint16_t)len, .rcv_seq = s->rcv_seq,
				 .rcv_bytes = s->msg_got };
	size_t n = NB_SESS_HDR_LEN + len;

	if (s->state == NB_S_CALLING)
		h.dst_id = NB_NO_CONN;
	nb_sess_hdr_encode(&h, p);
	if (len)
		memcpy(p + NB_SESS_HDR_LEN, data, len);
	/* A 50-byte packet whose 34th byte is 1..5 would read as a name
	 * packet in Wireshark: one pad byte after the data (the data length
	 * field says what is data). */
	if (n == NB_NAME_PKT_LEN && p[33] >= 1 && p[33] <= 5)
		p[n++] = 0;
	s->last_tx = ipx_loop_now(nb->loop);
	return nb_send_to(nb, &s->remote, p, n);
}

static void send_ack(struct nb_session *s)
{
	if (s->told_busy)
		s->nb->stats.busy_tx++;
	s->nb->stats.acks_tx++;
	tx(s, (uint8_t)(NB_CC_SYS | (s->told_busy ? NB_CC_ATTN : 0)),
	   NB_DS_SESSION_DATA, s->snd_seq, 0, 0, NULL, 0);
}

static void arm(struct nb_session *s)
{
	ipx_timer_start(s->nb->loop, &s->rexmit, s->nb->retry_delay, 0);
}

static void send_call_request(struct nb_session *s)
{
	struct nb_call_req c = { .max_data = (uint16_t)s->max_data };
	uint8_t d[NB_CALL_DATA_LEN];

	memcpy(c.called, s->remote_name, NB_NAME_LEN);
	memcpy(c.calling, s->local_name, NB_NAME_LEN);
	nb_call_req_encode(&c, d);
	tx(s, NB_CC_SYS | NB_CC_ACK, NB_DS_SESSION_DATA, 0, sizeof(d), 0, d,
	   sizeof(d));
}

static void send_accept(struct nb_session *s)
{
	uint8_t d[2];

	ipx_put16le(d, (uint16_t)s->max_data);
	tx(s, NB_CC_SYS, NB_DS_SESSION_DATA, 0, sizeof(d), 0, d, sizeof(d));
}

static void send_end(struct nb_session *s)
{
	s->end_sent = true;
	s->retries = 0;
	tx(s, NB_CC_SYS | NB_CC_ACK, NB_DS_SESSION_END, s->snd_seq, 0, 0, NULL,
	   0);
	arm(s);
}

/* An answer without a session: a call reject, or a session end ack. */
static void reply_bare(struct netbios *nb, const struct ipx_header *ih,
		       const struct nb_sess_hdr *req, uint8_t ds, int reason)
{
	uint8_t p[NB_SESS_HDR_LEN + 1];
	struct nb_sess_hdr h = { .cc = NB_CC_SYS, .ds = ds,
				 .src_id = reason ? NB_NO_CONN : req->dst_id,
				 .dst_id = req->src_id };

	if (reason) {
		h.total = h.len = 1;
		p[NB_SESS_HDR_LEN] = (uint8_t)reason;
	}
	nb_sess_hdr_encode(&h, p);
	nb_reply(nb, ih, p, NB_SESS_HDR_LEN + (reason ? 1 : 0));
}

/* ---- ending ---- */

/* Tell a RECEIVE ANY for the session's name that the session ended
 * (when the application had no RECEIVE on the session itself). */
static bool report_any(struct nb_session *s, uint8_t rc)
{
	struct netbios *nb = s->nb;

	for (struct nb_ncb *r = nb->any_receives; r; r = r->next_) {
		if (r->num == s->num || r->num == 0xFF) {
			nb_q_remove(&nb->any_receives, r);
			r->lsn = s->lsn;
			r->length = 0;
			nb_done(nb, r, rc);
			return true;
		}
	}
	return false;
}

/* End every command of a queue with rc; a receive reports what it got. */
static void end_queue(struct netbios *nb, struct nb_ncb **q, uint8_t rc)
{
	struct nb_ncb *n;

	while ((n = nb_q_pop(q)) != NULL) {
		if (n->command != NB_SEND)
			n->length = (uint16_t)n->filled_;
		nb_done(nb, n, rc);
	}
}

/* The session ends abnormally (or by CANCEL): every command on it
 * completes with rc and it is gone. */
static void abort_session(struct nb_session *s, uint8_t rc)
{
	struct netbios *nb = s->nb;
	bool established = s->state != NB_S_LISTENING &&
			   s->state != NB_S_CALLING;
	bool told = s->receives != NULL;

	if (s->call) {
		if (s->resolving)
			nb_resolve_abandon(nb, s->call);
		nb_done(nb, s->call, rc);
		s->call = NULL;
	}
	end_queue(nb, &s->sends, rc);
	end_queue(nb, &s->receives, rc);
	if (s->hangup) {
		nb_done(nb, s->hangup, rc == NB_RC_SABORT ? NB_RC_TIMEOUT : rc);
		s->hangup = NULL;
	} else if (established && !told && !s->told) {
		report_any(s, rc);
	}
	if (established)
		nb->stats.sessions_aborted++;
	sess_free(s);
}

/* Our HANG UP finished: acknowledged (OK) or never (TIMEOUT). */
static void hangup_done(struct nb_session *s, uint8_t rc)
{
	struct netbios *nb = s->nb;
	struct nb_ncb *h = s->hangup;

	s->hangup = NULL;
	end_queue(nb, &s->sends, NB_RC_CLOSED);
	nb->stats.sessions_closed++;
	sess_free(s);
	nb_done(nb, h, rc);
}

/*
 * A session the peer ended stays until the application has read what it
 * holds and has been told (0x0A to a RECEIVE, SEND or HANG UP, or a
 * RECEIVE ANY), or until the abort timeout; then it goes.
 */
static void closed_check(struct nb_session *s)
{
	struct netbios *nb = s->nb;

	if (s->rxq)
		return;
	if (s->receives) {
		end_queue(nb, &s->receives, NB_RC_CLOSED);
		s->told = true;
	}
	if (!s->told && report_any(s, NB_RC_CLOSED))
		s->told = true;
	if (s->told)
		sess_free(s);
}

/* The peer ended the session. */
static void peer_end(struct nb_session *s)
{
	struct netbios *nb = s->nb;

	if (s->state == NB_S_HANGING_UP) {
		/* Both ends hung up at once. */
		hangup_done(s, NB_RC_OK);
		return;
	}
	nb->stats.sessions_closed++;
	s->state = NB_S_CLOSED;
	ipx_timer_stop(nb->loop, &s->rexmit);
	if (s->sends) {
		end_queue(nb, &s->sends, NB_RC_CLOSED);
		s->told = true;
	}
	/* A message cut short by the end never completes: drop its part. */
	if (s->msg_open) {
		struct nb_chunk **pp = &s->rxq, *keep_end = NULL;

		for (struct nb_chunk *c = s->rxq; c; c = c->next)
			if (c->last)
				keep_end = c;
		if (keep_end)
			pp = &keep_end->next;
		while (*pp) {
			struct nb_chunk *c = *pp;

			*pp = c->next;
			s->rxq_bytes -= c->len - c->taken;
			s->rxq_count--;
			free(c);
		}
		s->msg_open = false;
	}
	deliver(s);
}

/* ---- receiving data ---- */

/* Bind a RECEIVE ANY to the session it takes data from. */
static struct nb_ncb *take_any(struct nb_session *s)
{
	struct netbios *nb = s->nb;

	for (struct nb_ncb *r = nb->any_receives; r; r = r->next_) {
		if (r->num == s->num || r->num == 0xFF) {
			nb_q_remove(&nb->any_receives, r);
			r->lsn = s->lsn;
			nb_q_push(&s->receives, r);
			return r;
		}
	}
	return NULL;
}

static bool has_room(const struct nb_session *s, size_t len)
{
	return s->rxq_count == 0 || (s->rxq_count < HOLD_CHUNKS &&
				     s->rxq_bytes + len <= HOLD_BYTES);
}

/* Move held data into the RECEIVEs waiting for it. */
static void deliver(struct nb_session *s)
{
	struct netbios *nb = s->nb;

	while (s->rxq) {
		struct nb_chunk *c = s->rxq;
		struct nb_ncb *r = s->receives ? s->receives : take_any(s);
		size_t n;

		if (!r)
			break;
		n = c->len - c->taken;
		if (n > r->length - r->filled_)
			n = r->length - r->filled_;
		if (n)
			memcpy(r->buffer + r->filled_, c->data + c->taken, n);
		r->filled_ += (uint32_t)n;
		c->taken += n;
		s->rxq_bytes -= n;
		if (c->taken == c->len) {
			bool last = c->last;

			s->rxq = c->next;
			s->rxq_count--;
			free(c);
			if (last) {
				nb_q_remove(&s->receives, r);
				r->length = (uint16_t)r->filled_;
				nb_done(nb, r, NB_RC_OK);
				continue;
			}
		}
		if (r->filled_ == r->length) {
			/* The buffer is full before the message ends: the
			 * rest goes to the next RECEIVE. */
			nb_q_remove(&s->receives, r);
			nb_done(nb, r, NB_RC_INCOMPLETE);
		}
	}
	if (s->state == NB_S_CLOSED) {
		closed_check(s);
		return;
	}
	if (s->told_busy && has_room(s, s->max_data)) {
		/* Room again: a plain ack tells the sender to go on. */
		s->told_busy = false;
		send_ack(s);
	}
}

static void data_in(struct nb_session *s, const struct nb_sess_hdr *h,
		    const uint8_t *data)
{
	struct netbios *nb = s->nb;
	bool first = !s->msg_open, last;
	struct nb_chunk *c;

	if (h->seq != s->rcv_seq) {
		/* Our ack was lost (the one before), or it is stale. */
		nb->stats.drops[h->seq == (uint16_t)(s->rcv_seq - 1)
					? NB_DROP_DUPLICATE
					: NB_DROP_SEQUENCE]++;
		send_ack(s);
		return;
	}
	if ((first && h->offset != 0) ||
	    (!first && (h->offset != s->msg_got || h->total != s->msg_total)) ||
	    (uint32_t)h->offset + h->len > h->total) {
		nb->stats.drops[NB_DROP_FRAGMENT]++;
		return;
	}
	if (!has_room(s, h->len) ||
	    !(c = malloc(sizeof(*c) + h->len))) {
		s->told_busy = true;
		nb->stats.drops[NB_DROP_BUSY]++;
		send_ack(s);
		return;
	}
	last = (uint32_t)h->offset + h->len == h->total;
	c->next = NULL;
	c->len = h->len;
	c->taken = 0;
	c->last = last;
	if (h->len)
		memcpy(c->data, data, h->len);
	{
		struct nb_chunk **pp = &s->rxq;

		while (*pp)
			pp = &(*pp)->next;
		*pp = c;
	}
	s->rxq_bytes += h->len;
	s->rxq_count++;
	if (first) {
		s->msg_total = h->total;
		s->msg_got = 0;
	}
	s->msg_got = (uint16_t)(s->msg_got + h->len);
	s->msg_open = !last;
	s->rcv_seq++;
	nb->stats.data_rx++;
	nb->stats.bytes_rx += h->len;
	send_ack(s);
	deliver(s);
}

/* ---- sending data ---- */

static void transmit(struct nb_session *s, bool again)
{
	struct netbios *nb = s->nb;
	struct nb_ncb *n = s->sends;
	size_t len = n->length - s->snd_off;
	uint8_t cc = NB_CC_ACK;

	if (len > s->max_data)
		len = s->max_data;
	if (s->snd_off + len == n->length)
		cc |= NB_CC_EOM;
	if (again) {
		cc |= NB_CC_RESEND;
		nb->stats.retransmits++;
	}
	s->flight = len;
	s->in_flight = true;
	nb->stats.data_tx++;
	nb->stats.bytes_tx += len;
	tx(s, cc, NB_DS_SESSION_DATA, s->snd_seq, n->length,
	   (uint16_t)s->snd_off, len ? n->buffer + s->snd_off : NULL, len);
	arm(s);
}

static void pump(struct nb_session *s)
{
	if (s->in_flight || !s->sends ||
	    (s->state != NB_S_ACTIVE && s->state != NB_S_HANGING_UP))
		return;
	transmit(s, false);
}

/* The peer's receive sequence number: does it take our packet? */
static void ack_in(struct nb_session *s, uint16_t rcv_seq)
{
	struct netbios *nb = s->nb;
	struct nb_ncb *n;

	if (!s->in_flight || rcv_seq != (uint16_t)(s->snd_seq + 1))
		return;
	s->in_flight = false;
	s->peer_busy = false;
	s->snd_seq++;
	s->snd_off += s->flight;
	s->retries = 0;
	ipx_timer_stop(nb->loop, &s->rexmit);
	n = s->sends;
	if (s->snd_off >= n->length) {
		nb_q_pop(&s->sends);
		s->snd_off = 0;
		nb_done(nb, n, NB_RC_OK);
	}
	if (s->state == NB_S_HANGING_UP && !s->sends) {
		if (!s->end_sent)
			send_end(s);
		return;
	}
	pump(s);
}

/* A system packet without data: ack, "not ready", or probe. */
static void control_in(struct nb_session *s, const struct nb_sess_hdr *h)
{
	struct netbios *nb = s->nb;

	nb->stats.acks_rx++;
	ack_in(s, h->rcv_seq);
	if (s->in_flight && h->rcv_seq == s->snd_seq) {
		if (h->cc & NB_CC_ATTN) {
			/* Not taken, no room: poll, without counting. */
			if (!s->peer_busy)
				nb->stats.busy_rx++;
			s->peer_busy = true;
			s->retries = 0;
			arm(s);
		} else if (s->peer_busy) {
			/* Room again: send it now. */
			s->peer_busy = false;
			transmit(s, true);
		}
	}
	if (h->cc & NB_CC_ACK)
		send_ack(s);	/* a probe: we are here */
}

/* ---- timers ---- */

static void call_failed(struct nb_session *s, uint8_t rc)
{
	struct netbios *nb = s->nb;
	struct nb_ncb *ncb = s->call;

	s->call = NULL;
	sess_free(s);
	nb_done(nb, ncb, rc);
}

static void start_call(struct nb_session *s, const struct ipx_addr *to)
{
	s->remote = *to;
	s->remote.socket = IPX_SOCK_NETBIOS;
	s->max_data = own_max_data(s->nb, &s->remote);
	s->retries = 0;
	send_call_request(s);
	arm(s);
}

/* The address called did not answer (or said the name is not there):
 * a cached address may be stale, so look once more on the network. */
static void call_unanswered(struct nb_session *s)
{
	struct netbios *nb = s->nb;
	struct ipx_addr a;
	int rc;

	if (!s->from_cache || s->re_resolved) {
		call_failed(s, NB_RC_NOCALL);
		return;
	}
	s->re_resolved = true;
	s->from_cache = false;
	nb_cache_forget(nb, s->remote_name);
	ipx_timer_stop(nb->loop, &s->rexmit);
	rc = nb_resolve(nb, s->call, s->remote_name, false, &a);
	if (rc == NB_RESOLVED)
		start_call(s, &a);
	else if (rc == NB_LOOKING)
		s->resolving = true;
	else
		call_failed(s, NB_RC_NORES);
}

static void on_rexmit(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	struct nb_session *s = ctx;
	struct netbios *nb = s->nb;

	(void)loop;
	(void)t;
	switch (s->state) {
	case NB_S_CALLING:
		if (++s->retries > nb->retry_count) {
			call_unanswered(s);
			return;
		}
		send_call_request(s);
		arm(s);
		return;
	case NB_S_ACTIVE:
	case NB_S_HANGING_UP:
		if (s->in_flight) {
			if (!s->peer_busy && ++s->retries > nb->retry_count) {
				ipx_info("netbios: session %u ended: no answer "
					 "after %u resends",
					 s->lsn, nb->retry_count);
				abort_session(s, NB_RC_SABORT);
				return;
			}
			transmit(s, true);
			return;
		}
		if (s->end_sent) {
			if (++s->retries > nb->retry_count) {
				hangup_done(s, NB_RC_TIMEOUT);
				return;
			}
			tx(s, NB_CC_SYS | NB_CC_ACK, NB_DS_SESSION_END,
			   s->snd_seq, 0, 0, NULL, 0);
			arm(s);
		}
		return;
	default:
		return;
	}
}

/* RECEIVEs pending longer than the session's RTO end with 0x05 and what
 * they got so far; the session goes on. */
static void receive_timeouts(struct nb_session *s, ipx_time now)
{
	struct nb_ncb *r = s->receives;

	while (r) {
		struct nb_ncb *after = r->next_;

		if (now - r->started_ >= s->rto) {
			nb_q_remove(&s->receives, r);
			r->length = (uint16_t)r->filled_;
			nb_done(s->nb, r, NB_RC_TIMEOUT);
		}
		r = after;
	}
}

void nb_sessions_watchdog(struct netbios *nb, ipx_time now)
{
	struct nb_session *s, *next;

	for (s = nb->sessions; s; s = next) {
		ipx_time silent;

		next = s->next;	/* (s may go) */
		if (s->state == NB_S_LISTENING ||
		    s->state == NB_S_CALLING)
			continue;
		silent = now - s->last_rx;
		if (s->state == NB_S_CLOSED) {
			/* Unread data and untold endings go in time. */
			if (nb->abort_timeout && silent >= nb->abort_timeout) {
				end_queue(nb, &s->receives, NB_RC_CLOSED);
				sess_free(s);
			}
			continue;
		}
		/* RECEIVE and SEND timeouts (RTO, STO of CALL/LISTEN). */
		if (s->rto)
			receive_timeouts(s, now);
		if (s->sto && s->sends && now - s->sends->started_ >= s->sto) {
			nb_done(nb, nb_q_pop(&s->sends), NB_RC_TIMEOUT);
			abort_session(s, NB_RC_SABORT);
			continue;
		}
		if (s->hangup && !s->end_sent &&
		    now - s->hangup->started_ >= HANGUP_WAIT) {
			abort_session(s, NB_RC_SABORT);
			continue;
		}
		if (nb->abort_timeout && silent >= nb->abort_timeout) {
			ipx_info("netbios: session %u ended: peer silent for "
				 "%.1f s",
				 s->lsn, (double)silent / IPX_SEC);
			abort_session(s, NB_RC_SABORT);
			continue;
		}
		if (nb->listen_timeout && silent >= nb->listen_timeout &&
		    now - s->last_probe >= (nb->verify_timeout
						    ? nb->verify_timeout
						    : nb->listen_timeout)) {
			/* Silence: ask whether the peer is still there. */
			s->last_probe = now;
			nb->stats.probes_tx++;
			tx(s, NB_CC_SYS | NB_CC_ACK, NB_DS_SESSION_DATA,
			   s->snd_seq, 0, 0, NULL, 0);
			continue;
		}
		if (nb->verify_timeout && now - s->last_tx >= nb->verify_timeout) {
			nb->stats.keepalives_tx++;
			send_ack(s);
		}
	}
}

/* ---- commands ---- */

uint8_t nb_call(struct netbios *nb, struct nb_ncb *ncb)
{
	struct nb_session *s;
	struct ipx_addr a;
	uint8_t num;
	int rc;

	if (!nb_name_answers(nb, ncb->name, &num) || !nb_name_callable(ncb->callname))
		return NB_RC_NOWILD;
	s = sess_new(nb, NB_S_CALLING, num, ncb);
	if (!s)
		return nb->nsess >= nb->max_sessions ? NB_RC_LOCTFUL
						      : NB_RC_NORES;
	if (nb_cache_get(nb, ncb->callname, &a, NULL)) {
		nb->stats.cache_hits++;
		s->from_cache = true;
		start_call(s, &a);
		return NB_RC_PENDING;
	}
	rc = nb_resolve(nb, ncb, ncb->callname, true, &a);
	if (rc == NB_RESOLVED) {
		start_call(s, &a);
	} else if (rc == NB_LOOKING) {
		s->resolving = true;
	} else {
		s->call = NULL;
		sess_free(s);
		return NB_RC_NORES;
	}
	return NB_RC_PENDING;
}

void nb_call_resolved(struct nb_session *s, const struct ipx_addr *addr)
{
	s->resolving = false;
	if (!addr)
		call_failed(s, NB_RC_NOCALL);
	else
		start_call(s, addr);
}

uint8_t nb_listen(struct netbios *nb, struct nb_ncb *ncb)
{
	struct nb_session *s;
	uint8_t num;

	if (!nb_name_answers(nb, ncb->name, &num) ||
	    (ncb->callname[0] != '*' && !nb_name_callable(ncb->callname)))
		return NB_RC_NOWILD;
	s = sess_new(nb, NB_S_LISTENING, num, ncb);
	if (!s)
		return nb->nsess >= nb->max_sessions ? NB_RC_LOCTFUL
						      : NB_RC_NORES;
	return NB_RC_PENDING;
}

/* A session the application holds an LSN of. */
static struct nb_session *app_session(struct netbios *nb, uint8_t lsn)
{
	struct nb_session *s = by_lsn(nb, lsn);

	if (!s || s->state == NB_S_LISTENING || s->state == NB_S_CALLING)
		return NULL;
	return s;
}

void nb_session_disconnect(struct netbios *nb, uint8_t lsn)
{
	struct nb_session *s = app_session(nb, lsn);

	if (!s)
		return;
	if (s->state != NB_S_CLOSED)
		tx(s, NB_CC_SYS | NB_CC_ACK, NB_DS_SESSION_END, s->snd_seq, 0,
		   0, NULL, 0);
	abort_session(s, NB_RC_SABORT);
}

uint8_t nb_hang_up(struct netbios *nb, struct nb_ncb *ncb)
{
	struct nb_session *s = app_session(nb, ncb->lsn);

	if (!s || s->state == NB_S_HANGING_UP)
		return NB_RC_BADLSN;
	if (s->state == NB_S_CLOSED) {
		/* Ended by the peer already: what it held goes too. */
		end_queue(nb, &s->receives, NB_RC_CLOSED);
		sess_free(s);
		return NB_RC_CLOSED;
	}
	s->state = NB_S_HANGING_UP;
	s->hangup = ncb;
	ncb->owner_ = s;
	/* RECEIVEs end now; SENDs finish first, then the session end. */
	end_queue(nb, &s->receives, NB_RC_CLOSED);
	if (!s->sends)
		send_end(s);
	return NB_RC_PENDING;
}

uint8_t nb_send_cmd(struct netbios *nb, struct nb_ncb *ncb)
{
	struct nb_session *s = app_session(nb, ncb->lsn);
	uint8_t rc;

	if (!s)
		return NB_RC_BADLSN;
	if (s->state != NB_S_ACTIVE) {
		if (s->state == NB_S_CLOSED) {
			s->told = true;
			closed_check(s);
		}
		return NB_RC_CLOSED;
	}
	rc = nb_take_buffer(nb, ncb, true, true);
	if (rc != NB_RC_OK)
		return rc;
	nb_q_push(&s->sends, ncb);
	pump(s);
	return NB_RC_PENDING;
}

uint8_t nb_receive(struct netbios *nb, struct nb_ncb *ncb)
{
	struct nb_session *s = app_session(nb, ncb->lsn);
	uint8_t rc;

	if (!s || s->state == NB_S_HANGING_UP)
		return NB_RC_BADLSN;
	rc = nb_take_buffer(nb, ncb, false, true);
	if (rc != NB_RC_OK)
		return rc;
	nb_q_push(&s->receives, ncb);
	deliver(s);
	return NB_RC_PENDING;
}

uint8_t nb_receive_any(struct netbios *nb, struct nb_ncb *ncb)
{
	uint8_t rc = nb_named_receive(nb, ncb, &nb->any_receives);

	if (rc != NB_RC_PENDING)
		return rc;
	/* Data already held for a session of that name. */
	for (struct nb_session *s = nb->sessions; s; s = s->next) {
		if (s->rxq && !s->receives &&
		    (ncb->num == 0xFF || ncb->num == s->num)) {
			deliver(s);
			break;
		}
	}
	return NB_RC_PENDING;
}

bool nb_session_cancel(struct netbios *nb, struct nb_ncb *t)
{
	struct nb_session *s;

	switch (t->command) {
	case NB_LISTEN:
	case NB_CALL:
		s = t->owner_;
		if (!s || s->call != t)
			return false;
		if (s->state == NB_S_LISTENING) {
			s->call = NULL;
			sess_free(s);
			nb_done(nb, t, NB_RC_CANCELLED);
		} else {
			if (s->resolving)
				nb_resolve_abandon(nb, t);
			call_failed(s, NB_RC_CANCELLED);
		}
		return true;
	case NB_SEND:
		s = by_lsn(nb, t->lsn);
		if (!s || !nb_q_remove(&s->sends, t))
			return false;
		/* A message cut off midway ends the session (as IBM's). */
		nb_done(nb, t, NB_RC_CANCELLED);
		abort_session(s, NB_RC_SABORT);
		return true;
	case NB_RECEIVE:
	case NB_RECEIVE_ANY:
		for (s = nb->sessions; s; s = s->next) {
			if (nb_q_remove(&s->receives, t)) {
				t->length = (uint16_t)t->filled_;
				nb_done(nb, t, NB_RC_CANCELLED);
				return true;
			}
		}
		return false;
	default:
		return false;
	}
}

void nb_sessions_of_name(struct netbios *nb, uint8_t num, bool listens_only,
			 uint8_t rc)
{
	struct nb_session *s, *next;

	for (s = nb->sessions; s; s = next) {
		next = s->next;	/* (s may go) */
		if (s->num != num)
			continue;
		if (s->state == NB_S_LISTENING)
			abort_session(s, rc);
		else if (!listens_only)
			abort_session(s, rc);
	}
}

unsigned nb_sessions_using(struct netbios *nb, uint8_t num)
{
	unsigned n = 0;

	for (const struct nb_session *s = nb->sessions; s; s = s->next)
		n += s->num == num && s->state != NB_S_LISTENING;
	return n;
}

int nb_session_info(const struct netbios *nb, uint8_t lsn,
		    struct nb_session_info *out)
{
	const struct nb_session *s = lsn ? nb->sess[lsn] : NULL;

	if (!s)
		return IPX_ENOTFOUND;
	memset(out, 0, sizeof(*out));
	out->state = (uint8_t)s->state;
	out->local_id = s->local_id;
	out->remote_id = s->remote_id;
	out->remote = s->remote;
	out->max_data = s->max_data;
	out->snd_seq = s->snd_seq;
	out->rcv_seq = s->rcv_seq;
	return IPX_OK;
}

void nb_sessions_free(struct netbios *nb)
{
	while (nb->sessions) {
		struct nb_session *s = nb->sessions;

		nb->sessions = s->next;
		ipx_timer_stop(nb->loop, &s->rexmit);
		free_chunks(s);
		nb->sess[s->lsn] = NULL;
		free(s);
	}
	nb->nsess = 0;
}

/* ---- receiving packets ---- */

static void incoming_call(struct netbios *nb, const struct ipx_header *ih,
			  const struct nb_sess_hdr *h, const uint8_t *data)
{
	struct nb_call_req req;
	struct nb_session *s = NULL;
	struct nb_ncb *l;
	uint8_t num;

	if (nb_call_req_decode(data, h->len, &req) != IPX_OK) {
		nb->stats.drops[NB_DROP_SHORT]++;
		return;
	}
	/* A repeated request: our accept was lost. */
	for (struct nb_session *o = nb->sessions; o; o = o->next) {
		if (o->state == NB_S_ACTIVE && o->remote_id == h->src_id &&
		    ipx_addr_match(&o->remote, &ih->src)) {
			send_accept(o);
			return;
		}
	}
	if (!nb_name_answers(nb, req.called, &num)) {
		nb->stats.calls_rejected++;
		reply_bare(nb, ih, h, NB_DS_SESSION_END, NB_REJECT_NOT_HERE);
		return;
	}
	/* The oldest LISTEN for the name (the list is in the order the
	 * sessions came), from that caller or anyone. */
	for (s = nb->sessions; s; s = s->next)
		if (s->state == NB_S_LISTENING && s->num == num &&
		    (s->remote_name[0] == '*' ||
		     !memcmp(s->remote_name, req.calling, NB_NAME_LEN)))
			break;
	if (!s) {
		nb->stats.calls_rejected++;
		reply_bare(nb, ih, h, NB_DS_SESSION_END, NB_REJECT_NO_LISTEN);
		return;
	}
	s->remote = ih->src;
	s->remote_id = h->src_id;
	memcpy(s->remote_name, req.calling, NB_NAME_LEN);
	s->max_data = own_max_data(nb, &s->remote);
	if (req.max_data && req.max_data < s->max_data)
		s->max_data = req.max_data;
	activated(s);
	send_accept(s);
	l = s->call;
	s->call = NULL;
	l->lsn = s->lsn;
	memcpy(l->callname, req.calling, NB_NAME_LEN);
	l->remote = s->remote;
	nb_done(nb, l, NB_RC_OK);
}

/* Answers to our call request. */
static void calling_input(struct nb_session *s, const struct ipx_header *ih,
			  const struct nb_sess_hdr *h, const uint8_t *data)
{
	struct netbios *nb = s->nb;
	struct nb_ncb *c;

	/* Network 0 in the address called means this network: the answer
	 * tells its number. */
	if ((s->remote.net && s->remote.net != ih->src.net) ||
	    !ipx_node_eq(s->remote.node, ih->src.node) || s->resolving) {
		nb->stats.drops[NB_DROP_WRONG_PEER]++;
		return;
	}
	if (h->ds == NB_DS_SESSION_END && h->src_id == NB_NO_CONN) {
		if (h->len >= 1 && data[0] == NB_REJECT_NO_LISTEN) {
			ipx_timer_stop(nb->loop, &s->rexmit);
			call_failed(s, NB_RC_REJECT);
		} else {
			call_unanswered(s);
		}
		return;
	}
	if (h->ds != NB_DS_SESSION_DATA || !(h->cc & NB_CC_SYS) || h->len < 2 ||
	    h->src_id == NB_NO_CONN) {
		nb->stats.drops[NB_DROP_UNEXPECTED]++;
		return;
	}
	s->remote.net = ih->src.net;
	s->remote_id = h->src_id;
	if (ipx_get16le(data) && ipx_get16le(data) < s->max_data)
		s->max_data = ipx_get16le(data);
	ipx_timer_stop(nb->loop, &s->rexmit);
	activated(s);
	c = s->call;
	s->call = NULL;
	c->lsn = s->lsn;
	c->remote = s->remote;
	nb_done(nb, c, NB_RC_OK);
}

void nb_session_input(struct netbios *nb, const struct ipx_header *ih,
		      const struct nb_packet *pk)
{
	struct nb_sess_hdr h;
	const uint8_t *data = pk->body + NB_SESS_HDR_LEN;
	struct nb_session *s;

	if (nb_sess_hdr_decode(pk->body, pk->len, &h) != IPX_OK) {
		nb->stats.drops[NB_DROP_SHORT]++;
		return;
	}
	if (h.dst_id == NB_NO_CONN) {
		if (h.ds == NB_DS_SESSION_DATA &&
		    (h.cc & (NB_CC_SYS | NB_CC_ACK)) == (NB_CC_SYS | NB_CC_ACK))
			incoming_call(nb, ih, &h, data);
		else
			nb->stats.drops[NB_DROP_UNEXPECTED]++;
		return;
	}
	s = by_id(nb, h.dst_id);
	if (!s || s->state == NB_S_LISTENING) {
		/* Our end ack was lost and the session is gone: answer
		 * again so the peer can finish too. */
		if (h.ds == NB_DS_SESSION_END && h.src_id != NB_NO_CONN)
			reply_bare(nb, ih, &h, NB_DS_SESSION_END_ACK, 0);
		nb->stats.drops[NB_DROP_NO_SESSION]++;
		return;
	}
	if (s->state == NB_S_CALLING) {
		calling_input(s, ih, &h, data);
		return;
	}
	if (!ipx_addr_match(&s->remote, &ih->src)) {
		nb->stats.drops[NB_DROP_WRONG_PEER]++;
		return;
	}
	/* The right peer, but an old session of its (or a made-up id). */
	if (h.src_id != s->remote_id) {
		nb->stats.drops[NB_DROP_STALE_ID]++;
		return;
	}
	s->last_rx = ipx_loop_now(nb->loop);
	if (s->state == NB_S_CLOSED) {
		if (h.ds == NB_DS_SESSION_END)
			reply_bare(nb, ih, &h, NB_DS_SESSION_END_ACK, 0);
		return;
	}
	switch (h.ds) {
	case NB_DS_SESSION_DATA:
		if (!(h.cc & NB_CC_SYS)) {
			ack_in(s, h.rcv_seq);
			data_in(s, &h, data);
		} else if (h.len == 0) {
			control_in(s, &h);
		}
		/* (a system packet with data: a repeated accept) */
		break;
	case NB_DS_SESSION_END:
		reply_bare(nb, ih, &h, NB_DS_SESSION_END_ACK, 0);
		peer_end(s);
		break;
	case NB_DS_SESSION_END_ACK:
		if (s->state == NB_S_HANGING_UP && s->end_sent)
			hangup_done(s, NB_RC_OK);
		break;
	default:
		break;
	}
}
