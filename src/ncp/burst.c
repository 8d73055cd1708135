/*
 * burst.c - the client's packet burst (ipxlab/ncp_burst.h): 0x65 at
 * connect, then burst reads and writes for ncp_read/ncp_write of more
 * than one buffer. One burst is outstanding: its request goes out as
 * fragments back to back; a missing-fragment list from the server gets
 * exactly those ranges again; the reply's fragments are gathered in any
 * order (duplicates counted), and at its end of burst, or when the wait
 * times out, the list of what is missing goes to the server. A timeout
 * with nothing of the reply resends the request's last fragment (its end
 * of burst), which makes the server say what it lacks or resend its
 * reply's end. Timeouts double from the client's rto up to rto_max, at
 * most 'retries' in a row without progress. The fragments a burst may
 * carry start at FIRST_WINDOW and double after each burst without a loss
 * until the first loss; a loss halves them (not below MIN_WINDOW) and
 * from there a burst without a loss adds one fragment (at most the
 * window of the options): bursts sized to the path, as NetWare's burst
 * sized its own, since a burst larger than a queue on the way loses its
 * tail every time (and a lost tail costs a timeout).
 */
#include <stdlib.h>
#include <string.h>

#include "client_int.h"
#include "ipxlab/bytes.h"
#include "ipxlab/err.h"

#define IPX_HDR 30
#define DEFAULT_WINDOW 256
#define FIRST_WINDOW 16
#define MIN_WINDOW 4
#define BURST_MAX 524288		/* data bytes one burst, each way */
#define MAX_GAPS 128

struct ncp_cli_burst {
	uint32_t id, server_id;
	struct ipx_addr server;	/* where bursts go: the NCP socket */
	size_t frag;		/* data bytes a fragment carries */
	uint32_t srv_recv, srv_send;	/* the server's limits */
	unsigned window;	/* the most fragments a burst */
	unsigned cur;		/* what the next burst may carry */
	unsigned thresh;	/* doubling below, one more above */
	bool lossy;		/* the burst under way lost a packet */
	uint16_t seq;		/* of the next burst */
	uint32_t pkt_seq;
	uint32_t delay;		/* asked of the server, 100 us units */
	/* the burst under way */
	bool waiting;
	uint16_t bseq;
	uint8_t *req;
	size_t req_len;
	uint8_t *rep;
	struct ncp_burst_map map;
	bool got_any;		/* map.len is the reply's length */
	bool progress;		/* something new arrived (resets the wait) */
	ipx_time last_rx, gap;	/* the reply's last arrival, mean gap */
};

bool ncp_burst_active(const struct ncp_client *cl)
{
	return cl->burst != NULL;
}

size_t ncp_burst_packet_size(const struct ncp_client *cl)
{
	return cl->burst ? IPX_HDR + NCP_BURST_HDR_LEN + cl->burst->frag : 0;
}

void ncp_burst_drop(struct ncp_client *cl)
{
	struct ncp_cli_burst *b = cl->burst;

	if (!b)
		return;
	ncp_burst_map_free(&b->map);
	free(b->req);
	free(b->rep);
	free(b);
	cl->burst = NULL;
}

static struct ncp_cli_burst *burst_new(void)
{
	struct ncp_cli_burst *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->req = malloc(NCP_BURST_REQ_LEN + BURST_MAX);
	b->rep = malloc(NCP_BURST_READ_REP + BURST_MAX);
	if (!b->req || !b->rep ||
	    ncp_burst_map_new(&b->map, NCP_BURST_READ_REP + BURST_MAX)) {
		free(b->req);
		free(b->rep);
		free(b);
		return NULL;
	}
	return b;
}

int ncp_burst_connect(struct ncp_client *cl)
{
	size_t payload = ipx_node_max_payload(cl->node, &cl->server);
	uint8_t q[18], r[16];
	size_t rl;
	struct ncp_cli_burst *b;
	uint32_t maxpkt;
	int rc;

	ncp_burst_drop(cl);
	if (cl->opts.no_burst)
		return 0;
	if (payload > NCP_CLI_MAX)
		payload = NCP_CLI_MAX;
	b = burst_new();
	if (!b)
		return IPX_ENOMEM;
	/* our ID: the socket and the time, as NetWare shells made theirs */
	b->id = (uint32_t)ipx_socket_number(cl->sock) << 16 |
		(uint16_t)(ipx_loop_now(cl->loop) / IPX_MSEC);
	ipx_put32(q, b->id);
	ipx_put32(q + 4, (uint32_t)(payload + IPX_HDR));
	ipx_put16(q + 8, ipx_socket_number(cl->sock));
	ipx_put32(q + 10, BURST_MAX);
	ipx_put32(q + 14, BURST_MAX);
	rc = ncp_request(cl, 0x65, q, sizeof(q), r, sizeof(r), &rl);
	if (rc == 0 && rl < 16)
		rc = NCP_E_BADREPLY;
	maxpkt = rc ? 0 : ipx_get32(r + 4);
	if (!rc && (maxpkt < IPX_HDR + NCP_BURST_HDR_LEN + 64))
		rc = NCP_E_BADREPLY;
	if (rc) {
		ncp_burst_drop(cl);
		free(b->req);
		free(b->rep);
		ncp_burst_map_free(&b->map);
		free(b);
		/* refused (0xFB, as mars_nwe) or not understood: one
		 * request at a time */
		return rc < 0x100 || rc == NCP_E_BADREPLY ? 0 : rc;
	}
	b->server_id = ipx_get32(r);
	if (maxpkt - IPX_HDR < payload)
		payload = maxpkt - IPX_HDR;
	b->frag = payload - NCP_BURST_HDR_LEN;
	b->srv_send = ipx_get32(r + 8);
	b->srv_recv = ipx_get32(r + 12);
	if (b->srv_send > BURST_MAX)
		b->srv_send = BURST_MAX;
	if (b->srv_recv > BURST_MAX)
		b->srv_recv = BURST_MAX;
	b->window = cl->opts.burst_window ? cl->opts.burst_window
					  : DEFAULT_WINDOW;
	b->cur = b->window < FIRST_WINDOW ? b->window : FIRST_WINDOW;
	b->thresh = b->window;
	b->delay = (uint32_t)(cl->opts.burst_delay / (100 * IPX_USEC));
	b->server = cl->server;
	b->seq = 1;
	cl->burst = b;
	return 0;
}

/* ---- sending ---- */

static void put_hdr(struct ncp_cli_burst *b, uint8_t *pkt, uint8_t flags,
		    uint32_t blen, uint32_t off, uint16_t dlen, uint16_t nmiss)
{
	struct ncp_burst_hdr h = {
		flags, NCP_BURST_STREAM, b->id, b->server_id, b->pkt_seq++,
		b->delay, b->bseq, b->bseq, blen, off, dlen, nmiss,
	};

	ncp_burst_encode(&h, pkt);
}

static void send_pkt(struct ncp_client *cl, const uint8_t *p, size_t len)
{
	ipx_socket_sendto(cl->sock, &cl->burst->server, IPX_TYPE_NCP, p, len);
}

/* The request's bytes [off, off + n) as fragments; EOB on the last when
 * 'end'. */
static void send_range(struct ncp_client *cl, uint32_t off, size_t n,
		       bool end, bool resend)
{
	struct ncp_cli_burst *b = cl->burst;
	uint8_t pkt[NCP_CLI_MAX];

	if (off >= b->req_len)
		return;
	if (n > b->req_len - off)
		n = b->req_len - off;
	while (n) {
		size_t k = n < b->frag ? n : b->frag;
		bool last = end && k == n;

		put_hdr(b, pkt, last ? NCP_BF_EOB : 0, (uint32_t)b->req_len,
			off, (uint16_t)k, 0);
		memcpy(pkt + NCP_BURST_HDR_LEN, b->req + off, k);
		send_pkt(cl, pkt, NCP_BURST_HDR_LEN + k);
		cl->stats.burst_frags_sent++;
		if (resend)
			cl->stats.burst_frags_resent++;
		off += (uint32_t)k;
		n -= k;
	}
}

/* The last fragment of the request again (its end of burst). */
static void resend_end(struct ncp_client *cl)
{
	struct ncp_cli_burst *b = cl->burst;
	size_t last = (b->req_len - 1) / b->frag * b->frag;

	send_range(cl, (uint32_t)last, b->req_len - last, true, true);
}

/* What of the reply is missing, to the server. */
static void send_missing(struct ncp_client *cl)
{
	struct ncp_cli_burst *b = cl->burst;
	uint8_t pkt[NCP_CLI_MAX];
	struct ncp_burst_gap g[MAX_GAPS];
	size_t max = b->frag / NCP_BURST_GAP_LEN, n;

	if (max > MAX_GAPS)
		max = MAX_GAPS;
	n = ncp_burst_map_gaps(&b->map, g, max);
	put_hdr(b, pkt, NCP_BF_SYS | NCP_BF_LST, (uint32_t)b->map.len, 0, 0,
		(uint16_t)n);
	for (size_t i = 0; i < n; i++)
		ncp_burst_gap_put(pkt + NCP_BURST_HDR_LEN, i, &g[i]);
	send_pkt(cl, pkt, NCP_BURST_HDR_LEN + n * NCP_BURST_GAP_LEN);
	cl->stats.burst_missing_sent++;
	b->lossy = true;
}

/* ---- receiving ---- */

static void on_sys(struct ncp_client *cl, const struct ncp_burst_hdr *h,
		   const uint8_t *list)
{
	struct ncp_cli_burst *b = cl->burst;

	if (b->got_any) {	/* the server has answered: an old list */
		cl->stats.burst_drops[NCP_BURST_DROP_STALE]++;
		return;
	}
	for (size_t i = 0; i < h->nmissing; i++) {
		struct ncp_burst_gap g;

		ncp_burst_gap_get(list, i, &g);
		send_range(cl, g.off, g.len, i + 1 == h->nmissing, true);
	}
	b->progress = true;
	b->lossy = true;
}

static void on_data(struct ncp_client *cl, const struct ncp_burst_hdr *h,
		    const uint8_t *data)
{
	struct ncp_cli_burst *b = cl->burst;

	if (!b->got_any) {
		if (h->burst_len < NCP_BURST_WRITE_REP ||
		    h->burst_len > b->map.cap) {
			cl->stats.burst_drops[NCP_BURST_DROP_BAD_RANGE]++;
			return;
		}
		ncp_burst_map_reset(&b->map, h->burst_len);
		b->got_any = true;
	}
	if (h->burst_len != b->map.len) {
		cl->stats.burst_drops[NCP_BURST_DROP_BAD_RANGE]++;
		return;
	}
	cl->stats.burst_frags_received++;
	memcpy(b->rep + h->offset, data, h->data_len);
	if (ncp_burst_map_mark(&b->map, h->offset, h->data_len)) {
		ipx_time now = ipx_loop_now(cl->loop);

		if (b->last_rx)	/* mean of the gaps, 1/8 the newest */
			b->gap = b->gap ? (7 * b->gap + (now - b->last_rx)) / 8
					: now - b->last_rx;
		b->last_rx = now;
		b->progress = true;
	}
	else
		cl->stats.burst_drops[NCP_BURST_DROP_DUP]++;
	if ((h->flags & NCP_BF_EOB) && !ncp_burst_map_full(&b->map))
		send_missing(cl);
}

void ncp_burst_input(struct ncp_client *cl, const struct ipx_addr *from,
		     const uint8_t *data, size_t len)
{
	struct ncp_cli_burst *b = cl->burst;
	struct ncp_burst_hdr h;
	const uint8_t *body;
	int rc = ncp_burst_decode(data, len, &h, &body);

	if (rc < 0) {
		cl->stats.burst_drops[-1 - rc]++;
		return;
	}
	if (!b || h.dst_id != b->id || h.src_id != b->server_id ||
	    from->socket != cl->server.socket ||
	    !ipx_node_eq(from->node, cl->server.node)) {
		cl->stats.burst_drops[NCP_BURST_DROP_NO_SESSION]++;
		return;
	}
	if (!b->waiting || h.burst_seq != b->bseq) {
		cl->stats.burst_drops[NCP_BURST_DROP_STALE]++;
		return;
	}
	if (h.flags & NCP_BF_SYS)
		on_sys(cl, &h, body);
	else
		on_data(cl, &h, body);
}

/* ---- one burst ---- */

static bool woken(void *ctx)
{
	struct ncp_client *cl = ctx;
	struct ncp_cli_burst *b = cl->burst;

	return b->progress || cl->cancel ||
	       (b->got_any && ncp_burst_map_full(&b->map));
}

/* The wait before a timeout: the rto, and the time the server needs to
 * pace the reply's fragments. */
static ipx_time first_wait(const struct ncp_client *cl, size_t reply_len)
{
	const struct ncp_cli_burst *b = cl->burst;
	size_t frags = reply_len / b->frag + 1;

	return cl->opts.rto + (ipx_time)b->delay * 100 * IPX_USEC * frags;
}

/* Send b->req (req_len bytes) and gather the reply (at most reply_max
 * bytes). 0 with the reply in b->rep, b->map.len bytes, or an error. */
static int transact(struct ncp_client *cl, size_t reply_max)
{
	struct ncp_cli_burst *b = cl->burst;
	ipx_time base = first_wait(cl, reply_max), wait = base;
	ipx_time stall_after = cl->opts.stall_after ? cl->opts.stall_after
						     : 2 * IPX_SEC;
	ipx_time heard, deadline;
	bool stalled = false;
	int tries = 0, rc = 0;

	b->bseq = b->seq++;
	b->lossy = false;
	b->last_rx = b->gap = 0;
	b->waiting = true;
	b->got_any = false;
	b->progress = false;
	cl->cancel = false;
	cl->waiting = true;	/* ncp_client_cancel works */
	cl->stats.bursts++;
	send_range(cl, 0, b->req_len, true, false);
	heard = deadline = ipx_loop_now(cl->loop);
	deadline += wait;
	for (;;) {
		ipx_time now = ipx_loop_now(cl->loop), slice;

		slice = ipx_time_before(now, deadline) ? deadline - now : 0;
		/* wake for the "not responding" warning at its time */
		if (!stalled && cl->opts.on_stall &&
		    ipx_time_before(heard + stall_after, now + slice))
			slice = ipx_time_before(now, heard + stall_after)
					? heard + stall_after - now
					: 0;
		b->progress = false;
		rc = ipx_loop_run_until(cl->loop, woken, cl, slice);
		if (rc == IPX_ECLOSED) {
			rc = NCP_E_INTERRUPTED;
			break;
		}
		if (cl->cancel) {
			rc = NCP_E_CANCELLED;
			break;
		}
		now = ipx_loop_now(cl->loop);
		if (b->progress) {
			heard = now;
			if (stalled)
				cl->opts.on_stall(cl->opts.stall_ctx, true);
			stalled = false;
		}
		if (b->got_any && ncp_burst_map_full(&b->map)) {
			rc = 0;
			break;
		}
		if (b->progress) {
			tries = 0;
			/* a reply under way: its tail is taken as lost after
			 * eight of its gaps (at least a quarter rto) without a
			 * fragment, not after a whole rto */
			wait = b->got_any ? 8 * b->gap : base;
			if (wait < cl->opts.rto / 4)
				wait = cl->opts.rto / 4;
			if (wait > base)
				wait = base;
			deadline = now + wait;
			continue;
		}
		if (!stalled && cl->opts.on_stall &&
		    !ipx_time_before(now, heard + stall_after)) {
			stalled = true;
			cl->stats.stalls++;
			cl->opts.on_stall(cl->opts.stall_ctx, false);
		}
		if (ipx_time_before(now, deadline))
			continue;
		if (tries++ >= cl->opts.retries) {
			rc = NCP_E_TIMEOUT;
			break;
		}
		cl->stats.burst_timeouts++;
		b->lossy = true;
		if (b->got_any)
			send_missing(cl);
		else
			resend_end(cl);
		wait = wait * 2 > cl->opts.rto_max ? cl->opts.rto_max
						   : wait * 2;
		deadline = now + wait;
	}
	b->waiting = false;
	cl->waiting = false;
	cl->cancel = false;
	/* the next burst's size */
	if (b->lossy) {
		b->cur = b->cur / 2 > MIN_WINDOW ? b->cur / 2 : MIN_WINDOW;
		b->thresh = b->cur;
	} else if (rc == 0) {
		b->cur = b->cur < b->thresh
				 ? (b->cur * 2 < b->thresh ? b->cur * 2 : b->thresh)
				 : b->cur + 1;
	}
	if (b->cur > b->window)
		b->cur = b->window;
	return rc;
}

static uint32_t get32le(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* A burst reply's result code as a completion code. */
static int result_cc(uint32_t res)
{
	switch (res) {
	case NCP_BURST_OK:
		return 0;
	case NCP_BURST_E_INIT:
		return NCP_CC_BAD_HANDLE;
	case NCP_BURST_E_NODATA:
		return NCP_CC_REGION_LOCKED;
	case NCP_BURST_E_IO:
	case NCP_BURST_E_WRITE:
		return NCP_CC_IO;
	default:
		return NCP_E_BADREPLY;
	}
}

static void put_req(struct ncp_cli_burst *b, uint32_t cmd,
		    const struct ncp_fh *fh, uint32_t off, uint32_t count)
{
	struct ncp_burst_req r = { cmd, { 0 }, off, count };

	memcpy(r.handle, fh->h + 2, 4);
	ncp_burst_req_encode(&r, b->req);
}

int ncp_burst_read(struct ncp_client *cl, const struct ncp_fh *fh,
		   uint32_t off, void *buf, size_t n, size_t *got)
{
	struct ncp_cli_burst *b = cl->burst;
	size_t done = 0;

	*got = 0;
	while (done < n) {
		size_t most = b->cur * b->frag - NCP_BURST_READ_REP, want;

		if (most > b->srv_send)
			most = b->srv_send;
		want = n - done < most ? n - done : most;
		uint32_t cnt;
		int rc;

		put_req(b, NCP_BURST_READ, fh, off + (uint32_t)done,
			(uint32_t)want);
		b->req_len = NCP_BURST_REQ_LEN;
		rc = transact(cl, NCP_BURST_READ_REP + want);
		if (rc)
			return rc;
		if (b->map.len < NCP_BURST_READ_REP)
			return NCP_E_BADREPLY;
		rc = result_cc(get32le(b->rep));
		if (rc)
			return rc;
		cnt = ipx_get32(b->rep + 4);
		if (cnt > want || cnt != b->map.len - NCP_BURST_READ_REP)
			return NCP_E_BADREPLY;
		memcpy((uint8_t *)buf + done, b->rep + NCP_BURST_READ_REP, cnt);
		done += cnt;
		*got = done;
		if (cnt < want)
			break;
	}
	return 0;
}

int ncp_burst_write(struct ncp_client *cl, const struct ncp_fh *fh,
		    uint32_t off, const void *buf, size_t n)
{
	struct ncp_cli_burst *b = cl->burst;
	size_t done = 0;

	while (done < n) {
		size_t most = b->cur * b->frag - NCP_BURST_REQ_LEN, len;

		if (most > b->srv_recv)
			most = b->srv_recv;
		len = n - done < most ? n - done : most;
		int rc;

		put_req(b, NCP_BURST_WRITE, fh, off + (uint32_t)done,
			(uint32_t)len);
		memcpy(b->req + NCP_BURST_REQ_LEN, (const uint8_t *)buf + done,
		       len);
		b->req_len = NCP_BURST_REQ_LEN + len;
		rc = transact(cl, NCP_BURST_WRITE_REP);
		if (rc)
			return rc;
		if (b->map.len < NCP_BURST_WRITE_REP)
			return NCP_E_BADREPLY;
		rc = result_cc(get32le(b->rep));
		if (rc)
			return rc;
		done += len;
	}
	return 0;
}
