/*
 * spxrate.c - the in-memory rows of the SPX goodput benchmark (see
 * ipxlab/bench.h and docs/benchmarks.md): SPX I and SPX II beside IPX
 * datagrams of the same packet size, both nodes in this process on one
 * in-memory segment, the loop driven with ipx_loop_run_once(loop, 0) on
 * the real clock. The udp rows run on the benchmark harness (the
 * workloads of bench_work.h, started by "ipxlab bench spx").
 */
#include "ipxlab/bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bench_sys.h"
#include "ipxlab/err.h"
#include "ipxlab/ipx.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/link_udp.h"
#include "ipxlab/loop.h"
#include "ipxlab/node.h"
#include "ipxlab/spx.h"

#include "bench_util.h"

#define BENCH_SOCKET 0x4546	/* the receiver's IPX socket / SPX listener */
#define MEM_NET 0x00BE4C00
#define CONNECT_WAIT (5 * IPX_SEC)

/* What a process reports at a mark. */
struct snap {
	uint64_t t_ns;
	uint64_t user_ns, sys_ns;
	uint64_t bytes, packets;	/* receiver: delivered */
	uint64_t sent, errors;		/* IPX sender */
	/* SPX sender: its connection */
	uint64_t srtt, rto, rtt_samples;
	uint64_t tx_data, retransmits, timeouts, naks_rx, acks_rx;
};

/* ---- small helpers ---- */

/* ---- names, sizes, defaults ---- */

const char *ipx_spxb_link_name(enum ipx_spxb_link link)
{
	return link == IPX_SPXB_UDP ? "udp" : "mem";
}

const char *ipx_spxb_kind_name(enum ipx_spxb_kind kind)
{
	switch (kind) {
	case IPX_SPXB_IPX_SMALL:
		return "ipx-small";
	case IPX_SPXB_SPX1:
		return "spx1";
	case IPX_SPXB_IPX_LARGE:
		return "ipx-large";
	case IPX_SPXB_SPX2:
		return "spx2";
	default:
		return "?";
	}
}

void ipx_spxb_opts_default(struct ipx_spxb_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->seconds = IPX_SPXB_DEFAULT_SECONDS;
	o->warmup = IPX_SPXB_DEFAULT_WARMUP;
	o->mem_mtu = IPX_UDP_MTU;
}

size_t ipx_spxb_packet_size(const struct ipx_spxb_opts *o,
			    enum ipx_spxb_link link, enum ipx_spxb_kind kind)
{
	size_t mtu = link == IPX_SPXB_UDP ? IPX_UDP_MTU : o->mem_mtu;

	if (kind == IPX_SPXB_IPX_SMALL || kind == IPX_SPXB_SPX1)
		return IPX_SPXB_SMALL_PACKET;
	return mtu;
}

static bool is_spx(enum ipx_spxb_kind kind)
{
	return kind == IPX_SPXB_SPX1 || kind == IPX_SPXB_SPX2;
}

/* Application bytes one full packet of the row carries. */
size_t ipx_spxb_payload(size_t packet, enum ipx_spxb_kind kind)
{
	switch (kind) {
	case IPX_SPXB_SPX1:
		return packet - IPX_HDR_LEN - SPX_HDR_LEN;
	case IPX_SPXB_SPX2:
		return packet - IPX_HDR_LEN - SPX2_HDR_LEN;
	default:
		return packet - IPX_HDR_LEN;
	}
}

static unsigned ipx_window_of(const struct ipx_spxb_opts *o, size_t payload)
{
	return o->ipx_window ? o->ipx_window : ipx_bench_default_window(payload);
}

/* ======================================================================
 * The SPX ends, shared by the udp children and the mem rows
 * ====================================================================== */

struct spx_end {
	struct spx *spx;
	struct spx_listener *lst;
	struct spx_conn *conn;
	int connected;		/* on_connected status + 1000; 0 = not yet */
	bool closed;
	bool going;		/* sender: keep the send queue full */
	const uint8_t *chunk;
	size_t chunk_len;
	uint64_t bytes, packets;	/* receiver: delivered */
};

static void spx_fill(struct spx_end *e)
{
	while (e->going && e->conn && !e->closed) {
		if (spx_send(e->conn, e->chunk, e->chunk_len, 0, 0) != IPX_OK)
			return;	/* EAGAIN: on_sendable calls again */
	}
}

static void end_on_connected(struct spx_conn *c, int status, void *ctx)
{
	struct spx_end *e = ctx;

	(void)c;
	e->connected = status + 1000;
	if (status != IPX_OK)
		e->conn = NULL;
}

static void end_on_data(struct spx_conn *c, const uint8_t *data, size_t len,
			unsigned flags, uint8_t ds, void *ctx)
{
	struct spx_end *e = ctx;

	(void)c;
	(void)data;
	(void)flags;
	(void)ds;
	e->bytes += len;
	e->packets++;
}

static void end_on_sendable(struct spx_conn *c, void *ctx)
{
	(void)c;
	spx_fill(ctx);
}

static void end_on_closed(struct spx_conn *c, int reason, void *ctx)
{
	struct spx_end *e = ctx;

	(void)c;
	(void)reason;
	e->closed = true;
	e->conn = NULL;
}

static const struct spx_handlers end_handlers = {
	.on_connected = end_on_connected,
	.on_data = end_on_data,
	.on_sendable = end_on_sendable,
	.on_closed = end_on_closed,
};

static void end_on_accept(struct spx_listener *l, struct spx_conn *c,
			  void *ctx)
{
	struct spx_end *e = ctx;

	(void)l;
	if (e->conn) {	/* one connection per run */
		spx_abort(c);
		return;
	}
	e->conn = c;
	spx_set_handlers(c, &end_handlers, e);
}

static void spx_opts_of(const struct ipx_spxb_opts *o, enum ipx_spxb_kind kind,
			bool listener, struct spx_options *so)
{
	memset(so, 0, sizeof(*so));
	/* The listener takes either; the requester offers SPX II only in
	 * the spx2 row, so the spx1 row is a true SPX I connection. */
	so->spx2 = listener || kind == IPX_SPXB_SPX2;
	so->window = o->spx_window;
	so->send_queue = o->send_queue;
}

/* A chunk of whole packets, at most a quarter of the send queue. */
static uint8_t *make_chunk(size_t max_data, size_t queue, size_t *len)
{
	size_t n = queue / 4 / max_data;
	uint8_t *p;

	if (n < 1)
		n = 1;
	*len = n * max_data;
	if (*len > queue)
		*len = queue;
	p = malloc(*len);
	if (p)
		for (size_t i = 0; i < *len; i++)
			p[i] = (uint8_t)(i * 7 + 3);
	return p;
}

static bool end_connected(void *ctx)
{
	return ((struct spx_end *)ctx)->connected != 0;
}

static void snap_spx(const struct spx_conn *c, struct snap *s)
{
	struct spx_status st;

	if (!c)
		return;
	spx_get_status(c, &st);
	s->srtt = st.srtt;
	s->rto = st.rto;
	s->rtt_samples = st.stats.rtt_samples;
	s->tx_data = st.stats.tx_data;
	s->retransmits = st.stats.retransmits;
	s->timeouts = st.stats.timeouts;
	s->naks_rx = st.stats.naks_rx;
	s->acks_rx = st.stats.acks_rx;
}

/* ======================================================================
 * mem: one process, two nodes on an in-memory segment, the real clock
 * ====================================================================== */

struct mem_rx {
	uint64_t bytes, packets;
};

static void mem_on_datagram(struct ipx_socket *sock,
			    const struct ipx_header *hdr, const uint8_t *data,
			    size_t len, void *ctx)
{
	struct mem_rx *rx = ctx;

	(void)sock;
	(void)hdr;
	(void)data;
	rx->bytes += len;
	rx->packets++;
}

struct mem_world {
	struct ipx_loop *loop;
	struct ipx_mem_segment *seg;
	struct ipx_node *node[2];	/* 0 sends, 1 receives */
	struct spx_end end[2];
	struct ipx_socket *sock[2];
	struct ipx_addr dst;		/* the receiver's socket */
	struct mem_rx rx;
	uint8_t *payload;
};

static void mem_free(struct mem_world *w)
{
	for (int i = 0; i < 2; i++) {
		if (w->end[i].spx)
			spx_free(w->end[i].spx);
		if (w->node[i])
			ipx_node_free(w->node[i]);
	}
	if (w->seg)
		ipx_mem_segment_free(w->seg);
	if (w->loop)
		ipx_loop_free(w->loop);
	free(w->payload);
}

/* One turn of the sender, then of the loop. */
static int mem_turn(struct mem_world *w, enum ipx_spxb_kind kind,
		    size_t len, unsigned window, uint64_t *sent)
{
	int rc;

	if (!is_spx(kind)) {
		while (*sent - w->rx.packets < window) {
			if (ipx_socket_sendto(w->sock[0], &w->dst, IPX_TYPE_PEP,
					      w->payload, len) != IPX_OK)
				return IPX_EIO;
			(*sent)++;
		}
	}
	rc = ipx_loop_run_once(w->loop, 0);
	return rc < 0 && rc != IPX_EAGAIN ? rc : IPX_OK;
}

static int run_mem(const struct ipx_spxb_opts *o, enum ipx_spxb_kind kind,
		   size_t packet, struct ipx_spxb_result *out, char *err,
		   size_t errlen)
{
	struct mem_world w;
	size_t len = ipx_spxb_payload(packet, kind);
	unsigned window = ipx_window_of(o, len);
	uint64_t sent = 0, t0, t1, t2, u1, s1, u2, s2;
	struct ipx_sys_mark m1, m2;
	double steal;
	uint64_t bytes1 = 0, pk1 = 0;
	struct snap sp1, sp2;
	int rc = IPX_OK;

	memset(&w, 0, sizeof(w));
	memset(&sp1, 0, sizeof(sp1));
	memset(&sp2, 0, sizeof(sp2));
	w.loop = ipx_loop_new(NULL);
	if (!w.loop)
		goto nomem;
	w.seg = ipx_mem_segment_new(w.loop, MEM_NET, 1);
	if (!w.seg)
		goto nomem;
	ipx_mem_segment_set_mtu(w.seg, o->mem_mtu);
	for (int i = 0; i < 2; i++) {
		struct ipx_link *l;

		w.node[i] = ipx_node_new(w.loop, NULL);
		if (!w.node[i])
			goto nomem;
		l = ipx_mem_link_new(w.seg, NULL);	/* 02:..:01, 02:..:02 */
		if (!l)
			goto nomem;
		if ((rc = ipx_node_add_link(w.node[i], l)) != IPX_OK) {
			ipx_bench_set_err(err, errlen, "cannot attach a link: %s",
				ipx_strerror(rc));
			goto out;
		}
	}
	if (is_spx(kind)) {
		struct spx_options so;
		struct spx_status st;
		struct ipx_addr dst;
		size_t queue = o->send_queue ? o->send_queue : 64 * 1024;

		for (int i = 0; i < 2; i++) {
			spx_opts_of(o, kind, i == 1, &so);
			w.end[i].spx = spx_new(w.node[i], &so);
			if (!w.end[i].spx)
				goto nomem;
		}
		rc = spx_listen(w.end[1].spx, BENCH_SOCKET, end_on_accept,
				&w.end[1], &w.end[1].lst);
		ipx_node_address(w.node[1], &dst);
		dst.socket = BENCH_SOCKET;
		if (rc == IPX_OK)
			rc = spx_connect(w.end[0].spx, &dst, &end_handlers,
					 &w.end[0], &w.end[0].conn);
		if (rc == IPX_OK)
			ipx_loop_run_until(w.loop, end_connected, &w.end[0],
					   CONNECT_WAIT);
		if (rc != IPX_OK || w.end[0].connected != IPX_OK + 1000) {
			ipx_bench_set_err(err, errlen,
				"the SPX connection on the in-memory link "
				"failed: %s",
				ipx_strerror(rc != IPX_OK ? rc
				     : w.end[0].connected
					     ? w.end[0].connected - 1000
					     : IPX_ETIMEOUT));
			rc = IPX_EIO;
			goto out;
		}
		/* Let the listener see the negotiation finish. */
		ipx_loop_run_for(w.loop, 10 * IPX_MSEC);
		spx_get_status(w.end[0].conn, &st);
		out->version = st.version;
		out->window = st.window;
		out->payload = st.max_data;
		out->packet = st.max_data + IPX_HDR_LEN +
			      (st.version == 2 ? SPX2_HDR_LEN : SPX_HDR_LEN);
		w.payload = make_chunk(st.max_data, queue, &w.end[0].chunk_len);
		if (!w.payload)
			goto nomem;
		w.end[0].chunk = w.payload;
		w.end[0].going = true;
		spx_fill(&w.end[0]);
	} else {
		w.payload = calloc(1, len);
		if (!w.payload)
			goto nomem;
		if ((rc = ipx_socket_open(w.node[1], BENCH_SOCKET,
					  mem_on_datagram, &w.rx,
					  &w.sock[1])) != IPX_OK ||
		    (rc = ipx_socket_open(w.node[0], 0, mem_on_datagram, &w.rx,
					  &w.sock[0])) != IPX_OK) {
			ipx_bench_set_err(err, errlen, "cannot open an IPX socket: %s",
				ipx_strerror(rc));
			goto out;
		}
		ipx_node_address(w.node[1], &w.dst);
		w.dst.socket = BENCH_SOCKET;
		out->window = window;
	}

	t0 = ipx_bench_now_ns();
	while (ipx_bench_now_ns() - t0 < (uint64_t)(o->warmup * 1e9))
		if ((rc = mem_turn(&w, kind, len, window, &sent)) != IPX_OK)
			goto failed;
	ipx_sys_mark(&m1);
	ipx_bench_cpu_ns(&u1, &s1);
	t1 = ipx_bench_now_ns();
	bytes1 = is_spx(kind) ? w.end[1].bytes : w.rx.bytes;
	pk1 = is_spx(kind) ? w.end[1].packets : w.rx.packets;
	snap_spx(w.end[0].conn, &sp1);
	while (ipx_bench_now_ns() - t1 < (uint64_t)(o->seconds * 1e9)) {
		if ((rc = mem_turn(&w, kind, len, window, &sent)) != IPX_OK)
			goto failed;
		if (is_spx(kind) && w.end[0].closed) {
			ipx_bench_set_err(err, errlen, "the SPX connection closed during "
					     "the run");
			rc = IPX_EIO;
			goto out;
		}
	}
	t2 = ipx_bench_now_ns();
	ipx_bench_cpu_ns(&u2, &s2);
	ipx_sys_mark(&m2);
	snap_spx(w.end[0].conn, &sp2);
	out->seconds = (double)(t2 - t1) / 1e9;
	out->bytes = (is_spx(kind) ? w.end[1].bytes : w.rx.bytes) - bytes1;
	out->packets = (is_spx(kind) ? w.end[1].packets : w.rx.packets) - pk1;
	out->cpu_sender = (double)(u2 + s2 - u1 - s1) / (double)(t2 - t1);
	ipx_sys_busy(&m1, &m2, &out->machine_busy, &steal);
	out->srtt_us = (double)sp2.srtt;
	out->rto_us = (double)sp2.rto;
	out->rtt_samples = sp2.rtt_samples;
	out->tx_data = sp2.tx_data - sp1.tx_data;
	out->retransmits = sp2.retransmits - sp1.retransmits;
	out->timeouts = sp2.timeouts - sp1.timeouts;
	out->naks_rx = sp2.naks_rx - sp1.naks_rx;
	out->acks_rx = sp2.acks_rx - sp1.acks_rx;
	out->sent = sent;
	out->delivered = w.rx.packets;
	rc = IPX_OK;
	goto out;
failed:
	ipx_bench_set_err(err, errlen, "the in-memory run failed: %s", ipx_strerror(rc));
	goto out;
nomem:
	ipx_bench_set_err(err, errlen, "out of memory");
	rc = IPX_ENOMEM;
out:
	mem_free(&w);
	return rc;
}

/* ====================================================================== */

int ipx_spxb_run(const struct ipx_spxb_opts *o, enum ipx_spxb_link link,
		 enum ipx_spxb_kind kind, struct ipx_spxb_result *out,
		 char *err, size_t errlen)
{
	size_t packet;
	int rc;

	memset(out, 0, sizeof(*out));
	if (link >= IPX_SPXB_LINKS || kind >= IPX_SPXB_KINDS ||
	    o->seconds <= 0 || o->warmup < 0 || o->mem_mtu < 576 ||
	    o->mem_mtu > IPX_MAX_PACKET) {
		ipx_bench_set_err(err, errlen, "bad benchmark options");
		return IPX_EINVAL;
	}
	packet = ipx_spxb_packet_size(o, link, kind);
	out->link = link;
	out->kind = kind;
	out->packet = packet;
	out->payload = ipx_spxb_payload(packet, kind);
	if (link != IPX_SPXB_MEM) {
		ipx_bench_set_err(err, errlen, "the udp rows run on the "
				  "benchmark harness, not here");
		return IPX_EINVAL;
	}
	rc = run_mem(o, kind, packet, out, err, errlen);
	if (rc != IPX_OK)
		return rc;
	out->goodput = out->seconds > 0 ? (double)out->bytes / out->seconds
					: 0;
	out->pps = out->seconds > 0 ? (double)out->packets / out->seconds : 0;
	return IPX_OK;
}
