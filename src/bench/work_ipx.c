/*
 * work_ipx.c - the IPX workloads (work_int.h): IPX datagrams (a send is
 * complete once the link has passed it to the kernel), and the echo that
 * measures the bare round trip (one packet out, the next when it came
 * back; each round trip in the histogram).
 *
 * The echo's packets carry a 32-bit sequence number in their first four
 * bytes, so a late answer to a resent packet is not taken for the next
 * one, and the receiver counts each sequence number once.
 */
#include "work_int.h"

#include <stdlib.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/node.h"

struct ipx_fam {
	struct ipx_socket *sock;
	struct ipx_addr dst;
	/* echo */
	uint32_t seq;		/* sender: of the packet out; receiver:
				 * the highest counted */
	ipx_time sent_at;
	unsigned tries;		/* resends of this packet */
	struct ipx_timer resend;
};

static void ipx_info(const struct ipx_bw *w, struct ipx_bw_info *out)
{
	const struct ipx_fam *f = w->fam;

	ipx_node_address(w->node, &out->addr);
	out->addr.socket = ipx_socket_number(f->sock);
}

/* The receiver counts what comes (bw_received ignores it for a sender). */
static void on_sink(struct ipx_socket *sock, const struct ipx_header *hdr,
		    const uint8_t *data, size_t len, void *ctx)
{
	(void)sock;
	(void)hdr;
	(void)data;
	bw_received(ctx, len);
}

static void on_echo_back(struct ipx_socket *sock, const struct ipx_header *hdr,
			 const uint8_t *data, size_t len, void *ctx);
static void on_echo(struct ipx_socket *sock, const struct ipx_header *hdr,
		    const uint8_t *data, size_t len, void *ctx);
static void on_resend(struct ipx_loop *loop, struct ipx_timer *t, void *ctx);

static int ipx_open(struct ipx_bw *w)
{
	bool rtt = w->p.kind == IPX_BW_RTT;
	bool sender = w->role == IPX_BW_SENDER;
	struct ipx_fam *f = calloc(1, sizeof(*f));
	ipx_recv_cb cb;
	int rc;

	if (!f)
		return IPX_ENOMEM;
	w->fam = f;
	ipx_timer_init(&f->resend, on_resend, w);
	if (sender)
		cb = rtt ? on_echo_back : on_sink;	/* counts nothing */
	else
		cb = rtt ? on_echo : on_sink;
	rc = ipx_socket_open(w->node, 0, cb, w, &f->sock);
	if (rc != IPX_OK) {
		bw_set_error(w, "cannot open an IPX socket: %s",
			     ipx_strerror(rc));
		return rc;
	}
	if (sender) {
		size_t max;

		f->dst = w->p.peer.addr;
		max = ipx_node_max_payload(w->node, &f->dst);
		if (w->p.size > max) {
			bw_set_error(w, "size %zu is more than an IPX packet "
					"to the receiver carries (%zu bytes)",
				     w->p.size, max);
			return IPX_ETOOBIG;
		}
	}
	bw_ready(w);
	return IPX_OK;
}

static int ipx_send_one(struct ipx_bw *w)
{
	struct ipx_fam *f = w->fam;

	return ipx_socket_sendto(f->sock, &f->dst, IPX_TYPE_PEP, w->payload,
				 w->p.size);
}

static uint64_t ipx_flush(struct ipx_bw *w)
{
	return bw_flush_links(w->node);
}

static void ipx_close(struct ipx_bw *w)
{
	struct ipx_fam *f = w->fam;

	if (!f)
		return;
	ipx_timer_stop(w->loop, &f->resend);
	if (f->sock)
		ipx_socket_close(f->sock);
	free(f);
	w->fam = NULL;
}

const struct bw_ops bw_ipx_ops = {
	.open = ipx_open,
	.info = ipx_info,
	.send_one = ipx_send_one,
	.flush = ipx_flush,
	.close = ipx_close,
};

/* ---- the echo ---- */

/* The receiver sends every packet back as it is, and counts each
 * sequence number once. */
static void on_echo(struct ipx_socket *sock, const struct ipx_header *hdr,
		    const uint8_t *data, size_t len, void *ctx)
{
	struct ipx_bw *w = ctx;
	struct ipx_fam *f = w->fam;
	uint32_t seq;

	if (len < 4)
		return;
	ipx_socket_sendto(sock, &hdr->src, IPX_TYPE_PEP, data, len);
	seq = ipx_get32(data);
	if ((int32_t)(seq - f->seq) > 0) {
		f->seq = seq;
		bw_received(w, len);
	}
}

static void send_probe(struct ipx_bw *w)
{
	struct ipx_fam *f = w->fam;
	int rc;

	ipx_put32(w->payload, f->seq);
	f->sent_at = bw_now(w);
	ipx_timer_start(w->loop, &f->resend, IPX_BW_RTT_TIMEOUT, 0);
	rc = ipx_socket_sendto(f->sock, &f->dst, IPX_TYPE_PEP, w->payload,
			       w->p.size);
	if (rc != IPX_OK)
		bw_fail(w, "echo: cannot send to the receiver: %s",
			ipx_strerror(rc));
}

static void rtt_next(struct ipx_bw *w)
{
	struct ipx_fam *f = w->fam;

	if (!bw_may_start(w))
		return;
	f->seq++;
	f->tries = 0;
	send_probe(w);
}

static void on_echo_back(struct ipx_socket *sock, const struct ipx_header *hdr,
			 const uint8_t *data, size_t len, void *ctx)
{
	struct ipx_bw *w = ctx;
	struct ipx_fam *f = w->fam;

	(void)sock;
	(void)hdr;
	if (len < 4 || ipx_get32(data) != f->seq || bw_in_flight(w) == 0)
		return;	/* late, or not ours */
	ipx_timer_stop(w->loop, &f->resend);
	bw_completed(w, f->sent_at);
	rtt_next(w);
}

static void on_resend(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	struct ipx_bw *w = ctx;
	struct ipx_fam *f = w->fam;

	(void)loop;
	(void)t;
	if (w->state != BW_RUNNING)
		return;
	if (++f->tries > IPX_BW_RTT_TRIES) {
		bw_fail(w, "echo: no answer from the receiver after %u tries",
			f->tries);
		return;
	}
	w->r.retransmits++;
	send_probe(w);
}

static void rtt_go(struct ipx_bw *w)
{
	rtt_next(w);
}

const struct bw_ops bw_rtt_ops = {
	.open = ipx_open,
	.info = ipx_info,
	.go = rtt_go,
	.close = ipx_close,
};
