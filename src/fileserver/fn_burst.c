/*
 * fn_burst.c - the server's packet burst (ipxlab/ncp_burst.h): 0x65
 * Packet Burst Connection Request, and the 0x7777 packets of a burst
 * connection: a request burst gathered fragment by fragment (any order,
 * duplicates counted), a missing-fragment list sent back at its end of
 * burst while parts are missing, the burst read or write done once
 * whole, and its reply sent as fragments, paced by the delay the client
 * asks for; a missing-fragment list from the client gets only those
 * ranges again, a repeated end of burst the reply's last fragment.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "srv_int.h"

#define TXQ 256			/* ranges queued to send */
#define IPX_HDR 30
#define MAX_DELAY 500		/* 50 ms, in the header's 100 us units */

struct ncp_burst_conn {
	struct ncp_server *srv;
	struct ncp_conn *conn;
	uint32_t id, peer_id;	/* ours, the client's */
	struct ipx_addr to;	/* the client's burst socket */
	size_t frag;		/* data bytes a fragment carries */
	uint32_t max_send, max_recv;	/* data bytes a burst, each way */
	uint32_t pkt_seq;
	/* the request burst being gathered */
	bool rx_active;
	uint16_t rx_seq;
	bool seen;		/* last_seq is the newest burst begun */
	uint16_t last_seq;
	uint8_t *rx;
	struct ncp_burst_map map;
	/* the last burst done, and its reply */
	bool done;
	uint16_t done_seq;
	uint8_t *tx;
	size_t tx_len;
	/* what is left to send, paced by 'delay' */
	ipx_time delay;
	struct ncp_burst_gap q[TXQ];
	size_t qn, qi;
	uint32_t qoff;
	bool resend;		/* the queue is a resend */
	struct ipx_timer timer;
};

void ncp_burst_free(struct ncp_server *srv, struct ncp_conn *conn)
{
	struct ncp_burst_conn *b = conn->burst;

	if (!b)
		return;
	ipx_timer_stop(srv->loop, &b->timer);
	ncp_burst_map_free(&b->map);
	free(b->rx);
	free(b->tx);
	free(b);
	conn->burst = NULL;
}

/* ---- sending ---- */

static void put_hdr(struct ncp_burst_conn *b, uint8_t *pkt, uint8_t flags,
		    uint16_t seq, uint16_t ack, uint32_t blen, uint32_t off,
		    uint16_t dlen, uint16_t nmiss)
{
	struct ncp_burst_hdr h = {
		flags, NCP_BURST_STREAM, b->id, b->peer_id, b->pkt_seq++, 0,
		seq, ack, blen, off, dlen, nmiss,
	};

	ncp_burst_encode(&h, pkt);
}

/* One fragment of the reply: [off, off + n), EOB if 'last'. */
static void send_frag(struct ncp_burst_conn *b, uint32_t off, size_t n,
		      bool last)
{
	uint8_t pkt[NCP_MAX_PACKET];

	put_hdr(b, pkt, last ? NCP_BF_EOB : 0, b->done_seq,
		(uint16_t)(b->done_seq + 1), (uint32_t)b->tx_len, off,
		(uint16_t)n, 0);
	memcpy(pkt + NCP_BURST_HDR_LEN, b->tx + off, n);
	ncp_send_to(b->srv, b->conn, &b->to, pkt, NCP_BURST_HDR_LEN + n);
	b->srv->stats.burst_frags_sent++;
	if (b->resend)
		b->srv->stats.burst_frags_resent++;
}

/* Send the next fragment of the queue; false when it is empty. */
static bool send_next(struct ncp_burst_conn *b)
{
	struct ncp_burst_gap *g;
	size_t n;
	bool last;

	while (b->qi < b->qn && b->qoff >= b->q[b->qi].len) {
		b->qi++;
		b->qoff = 0;
	}
	if (b->qi >= b->qn)
		return false;
	g = &b->q[b->qi];
	n = g->len - b->qoff;
	if (n > b->frag)
		n = b->frag;
	last = b->qi == b->qn - 1 && b->qoff + n >= g->len;
	send_frag(b, g->off + b->qoff, n, last);
	b->qoff += (uint32_t)n;
	return !last;
}

static void on_timer(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	struct ncp_burst_conn *b = ctx;

	(void)t;
	if (send_next(b))
		ipx_timer_start(loop, &b->timer, b->delay, 0);
}

/* Send the queued ranges: all at once, or one fragment per delay. */
static void start_send(struct ncp_burst_conn *b, bool resend)
{
	ipx_timer_stop(b->srv->loop, &b->timer);
	b->qi = 0;
	b->qoff = 0;
	b->resend = resend;
	if (b->delay) {
		if (send_next(b))
			ipx_timer_start(b->srv->loop, &b->timer, b->delay, 0);
		return;
	}
	while (send_next(b))
		;
}

/* Queue a range of the reply, clipped to it. */
static void queue(struct ncp_burst_conn *b, uint32_t off, uint32_t len)
{
	if (off >= b->tx_len || b->qn >= TXQ || !len)
		return;
	if (len > b->tx_len - off)
		len = (uint32_t)(b->tx_len - off);
	while (len && b->qn < TXQ) {
		uint16_t n = len > 0xFFFF ? 0xFFFF : (uint16_t)len;

		b->q[b->qn].off = off;
		b->q[b->qn].len = n;
		b->qn++;
		off += n;
		len -= n;
	}
}

/* The request is not whole at its end of burst: what is missing. */
static void send_missing(struct ncp_burst_conn *b)
{
	uint8_t pkt[NCP_MAX_PACKET];
	struct ncp_burst_gap g[TXQ];
	size_t max = b->frag / NCP_BURST_GAP_LEN, n;

	if (max > TXQ)
		max = TXQ;
	n = ncp_burst_map_gaps(&b->map, g, max);
	put_hdr(b, pkt, NCP_BF_SYS | NCP_BF_LST, b->rx_seq, b->rx_seq,
		(uint32_t)b->map.len, 0, 0, (uint16_t)n);
	for (size_t i = 0; i < n; i++)
		ncp_burst_gap_put(pkt + NCP_BURST_HDR_LEN, i, &g[i]);
	ncp_send_to(b->srv, b->conn, &b->to, pkt,
		    NCP_BURST_HDR_LEN + n * NCP_BURST_GAP_LEN);
	b->srv->stats.burst_missing_sent++;
}

/* ---- doing the request ---- */

static void put32le(uint8_t *p, uint32_t v)
{
	ipx_put16le(p, (uint16_t)v);
	ipx_put16le(p + 2, (uint16_t)(v >> 16));
}

/* The open file of a burst handle (bytes 2..5 of the NCP handle). */
static struct ncp_file *file_of(struct ncp_burst_conn *b, const uint8_t *h4)
{
	struct ncp_call c;
	uint8_t h[NCP_HANDLE_LEN] = { 0, 0, h4[0], h4[1], h4[2], h4[3] };

	memset(&c, 0, sizeof(c));
	c.srv = b->srv;
	c.conn = b->conn;
	return ncp_file_of(&c, h);
}

static uint32_t do_read(struct ncp_burst_conn *b, struct ncp_file *f,
			const struct ncp_burst_req *r, uint32_t *got)
{
	uint32_t n = r->count;
	ssize_t k;

	*got = 0;
	if (!f || !f->readable)
		return NCP_BURST_E_INIT;
	if (n > b->max_send)
		n = b->max_send;
	if (ncp_locks_blocked(b->srv, b->conn, f->dev, f->ino, r->offset, n,
			      false))
		return NCP_BURST_E_NODATA;
	k = pread(f->fd, b->tx + NCP_BURST_READ_REP, n, r->offset);
	if (k < 0)
		return NCP_BURST_E_IO;
	*got = (uint32_t)k;
	ncp_disk(b->srv, f->dev, f->ino, r->offset, (uint64_t)k, false);
	b->srv->stats.bytes_read += (uint64_t)k;
	return NCP_BURST_OK;
}

static uint32_t do_write(struct ncp_burst_conn *b, struct ncp_file *f,
			 const struct ncp_burst_req *r)
{
	const uint8_t *data = b->rx + NCP_BURST_REQ_LEN;
	uint32_t n = r->count;
	size_t done = 0;

	if (!f || !f->writable)
		return NCP_BURST_E_INIT;
	if (n != b->map.len - NCP_BURST_REQ_LEN)
		return NCP_BURST_E_WRITE;
	if (n && ncp_locks_blocked(b->srv, b->conn, f->dev, f->ino, r->offset,
				   n, true))
		return NCP_BURST_E_NODATA;
	while (done < n) {
		ssize_t w = pwrite(f->fd, data + done, n - done,
				   (off_t)r->offset + (off_t)done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return NCP_BURST_E_WRITE;
		done += (size_t)w;
	}
	ncp_disk(b->srv, f->dev, f->ino, r->offset, n, true);
	b->srv->stats.bytes_written += n;
	return NCP_BURST_OK;
}

/* The whole request is here: do it and send the reply. */
static void execute(struct ncp_burst_conn *b)
{
	struct ncp_burst_req r;
	struct ncp_file *f;
	uint32_t res, got = 0;

	ncp_burst_req_decode(b->rx, b->map.len, &r);
	f = file_of(b, r.handle);
	if (r.command == NCP_BURST_READ) {
		res = do_read(b, f, &r, &got);
		put32le(b->tx, res);
		ipx_put32(b->tx + 4, got);
		b->tx_len = NCP_BURST_READ_REP + got;
		b->srv->stats.burst_reads++;
	} else {
		res = r.command == NCP_BURST_WRITE ? do_write(b, f, &r)
						   : NCP_BURST_E_INIT;
		put32le(b->tx, res);
		b->tx_len = NCP_BURST_WRITE_REP;
		b->srv->stats.burst_writes++;
	}
	b->rx_active = false;
	b->done = true;
	b->done_seq = b->rx_seq;
	b->qn = 0;
	queue(b, 0, (uint32_t)b->tx_len);
	start_send(b, false);
}

/* ---- receiving ---- */

static void drop(struct ncp_server *srv, enum ncp_burst_drop d)
{
	srv->stats.burst_drops[d]++;
}

/* The client's list of what of the reply it lacks: those ranges again. */
static void on_sys(struct ncp_burst_conn *b, const struct ncp_burst_hdr *h,
		   const uint8_t *list)
{
	if (!b->done || h->burst_seq != b->done_seq) {
		drop(b->srv, NCP_BURST_DROP_STALE);
		return;
	}
	b->srv->stats.burst_missing_received++;
	b->qn = 0;
	for (size_t i = 0; i < h->nmissing; i++) {
		struct ncp_burst_gap g;

		ncp_burst_gap_get(list, i, &g);
		queue(b, g.off, g.len);
	}
	if (b->qn)
		start_send(b, true);
}

/* A fragment of a request burst. */
static void on_data(struct ncp_burst_conn *b, const struct ncp_burst_hdr *h,
		    const uint8_t *data)
{
	bool eob = h->flags & NCP_BF_EOB;

	if (b->done && h->burst_seq == b->done_seq) {
		/* done already: a repeated end of burst means our reply (or
		 * its end) was lost; the last fragment tells what it was */
		if (!eob) {
			drop(b->srv, NCP_BURST_DROP_STALE);
			return;
		}
		b->qn = 0;
		queue(b, (uint32_t)(b->tx_len - (b->tx_len - 1) % b->frag - 1),
		      (uint32_t)b->frag);
		start_send(b, true);
		return;
	}
	if (!b->rx_active || h->burst_seq != b->rx_seq) {
		/* a straggler of an older burst (late, or twice) must not
		 * begin one */
		if (b->seen && (int16_t)(h->burst_seq - b->last_seq) <= 0) {
			drop(b->srv, NCP_BURST_DROP_STALE);
			return;
		}
		if (h->burst_len < NCP_BURST_REQ_LEN ||
		    h->burst_len > NCP_BURST_REQ_LEN + b->max_recv) {
			drop(b->srv, NCP_BURST_DROP_BAD_RANGE);
			return;
		}
		ipx_timer_stop(b->srv->loop, &b->timer);
		b->done = false;
		b->rx_active = true;
		b->rx_seq = h->burst_seq;
		b->seen = true;
		b->last_seq = h->burst_seq;
		ncp_burst_map_reset(&b->map, h->burst_len);
	}
	if (h->burst_len != b->map.len) {
		drop(b->srv, NCP_BURST_DROP_BAD_RANGE);
		return;
	}
	/* 100 us units, at most MAX_DELAY (a gap of seconds is no pace) */
	b->delay = h->delay > MAX_DELAY ? MAX_DELAY * 100 * IPX_USEC
					 : (ipx_time)h->delay * 100 * IPX_USEC;
	b->srv->stats.burst_frags_received++;
	memcpy(b->rx + h->offset, data, h->data_len);
	if (!ncp_burst_map_mark(&b->map, h->offset, h->data_len) && !eob)
		drop(b->srv, NCP_BURST_DROP_DUP);
	if (ncp_burst_map_full(&b->map))
		execute(b);
	else if (eob)
		send_missing(b);
}

void ncp_burst_packet(struct ncp_server *srv, const struct ipx_header *ih,
		      const uint8_t *data, size_t len)
{
	struct ncp_burst_hdr h;
	const uint8_t *body;
	struct ncp_conn *conn;
	struct ncp_burst_conn *b;
	int rc;

	if (srv->no_burst) {
		drop(srv, NCP_BURST_DROP_REFUSED);
		return;
	}
	rc = ncp_burst_decode(data, len, &h, &body);
	if (rc < 0) {
		drop(srv, (enum ncp_burst_drop)(-1 - rc));
		return;
	}
	conn = ncp_conn_by_number(srv, (uint16_t)(h.dst_id & 0xFFFF));
	b = conn ? conn->burst : NULL;
	if (!b || b->id != h.dst_id || b->peer_id != h.src_id ||
	    !ipx_addr_eq(&conn->addr, &ih->src)) {
		drop(srv, NCP_BURST_DROP_NO_SESSION);
		return;
	}
	conn->last_heard = ipx_loop_now(srv->loop);
	conn->next_wdog = 0;
	conn->wdog_left = srv->wdog_count;
	if (h.flags & NCP_BF_SYS)
		on_sys(b, &h, body);
	else
		on_data(b, &h, body);
}

/* ---- 0x65 ---- */

/* The state and buffers for bursts of 'send' and 'recv' data bytes (what
 * was granted, not the most the server would: memory per connection). */
static int burst_alloc(struct ncp_server *srv, struct ncp_conn *conn,
		       uint32_t send, uint32_t recv)
{
	struct ncp_burst_conn *b = conn->burst;
	uint8_t *rx, *tx;

	if (!b) {
		b = calloc(1, sizeof(*b));
		if (!b)
			return IPX_ENOMEM;
		b->srv = srv;
		b->conn = conn;
		ipx_timer_init(&b->timer, on_timer, b);
		conn->burst = b;
	}
	rx = realloc(b->rx, NCP_BURST_REQ_LEN + recv);
	if (rx)
		b->rx = rx;
	tx = realloc(b->tx, NCP_BURST_READ_REP + send);
	if (tx)
		b->tx = tx;
	ncp_burst_map_free(&b->map);
	if (!rx || !tx ||
	    ncp_burst_map_new(&b->map, NCP_BURST_REQ_LEN + recv) != IPX_OK) {
		ncp_burst_free(srv, conn);
		return IPX_ENOMEM;
	}
	return IPX_OK;
}

/*
 * Request: the client's ID BE4, its largest packet BE4 (IPX header
 * included), its socket for burst packets BE2, the most it sends and
 * receives in one burst BE4 + BE4. Reply: our ID, the largest packet,
 * the most we send and receive in one burst (mars_nwe's layout).
 */
void ncp_fn_burst_connect(struct ncp_call *c)
{
	struct ncp_server *srv = c->srv;
	uint32_t peer = ncp_rd32(&c->rd), maxpkt = ncp_rd32(&c->rd);
	uint16_t sock = ncp_rd16(&c->rd);
	uint32_t csend = ncp_rd32(&c->rd), crecv = ncp_rd32(&c->rd);
	size_t payload = ipx_node_max_payload(srv->node, &c->conn->addr);
	struct ncp_burst_conn *b;

	if (srv->no_burst) {
		srv->stats.burst_refused++;
		c->cc = NCP_CC_UNKNOWN_REQUEST;
		return;
	}
	if (c->rd.bad) {
		ncp_malformed(c);
		return;
	}
	if (payload > NCP_MAX_PACKET)
		payload = NCP_MAX_PACKET;
	if (maxpkt > IPX_HDR && maxpkt - IPX_HDR < payload)
		payload = maxpkt - IPX_HDR;
	if (maxpkt <= IPX_HDR || payload < NCP_BURST_HDR_LEN + 64) {
		ncp_malformed(c);
		return;
	}
	if (crecv > srv->burst_max)
		crecv = srv->burst_max;
	if (csend > srv->burst_max)
		csend = srv->burst_max;
	if (c->conn->burst)
		ipx_timer_stop(srv->loop, &c->conn->burst->timer);
	if (burst_alloc(srv, c->conn, crecv, csend) != IPX_OK) {
		c->cc = NCP_CC_NO_MEMORY;
		return;
	}
	b = c->conn->burst;
	b->id = (uint32_t)++srv->burst_gen << 16 | c->conn->number;
	b->peer_id = peer;
	b->to = c->conn->addr;
	b->to.socket = sock ? sock : c->conn->addr.socket;
	b->frag = payload - NCP_BURST_HDR_LEN;
	b->max_send = crecv;
	b->max_recv = csend;
	b->rx_active = b->done = b->seen = false;
	b->qn = 0;
	b->delay = 0;
	srv->stats.burst_sessions++;
	ncp_wr32(&c->wr, b->id);
	ncp_wr32(&c->wr, (uint32_t)(payload + IPX_HDR));
	ncp_wr32(&c->wr, b->max_send);
	ncp_wr32(&c->wr, b->max_recv);
}
