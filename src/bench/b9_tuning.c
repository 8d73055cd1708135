/*
 * b9_tuning.c - B9, the 1990 buffer and frame-size tuning (bench_b9.h):
 * the configurations (one adapter parameter changed at a time from a
 * baseline), the wire ceiling, and each configuration's six workloads on
 * one file-server network (bench_sim.h) whose adapters are set before
 * each: NCP large reads (bench ncp's get) and large writes (perftest's
 * overlaid record) from 1 and 6 workstations, NetBIOS session SENDs
 * between workstation 1 and a node beside the server with the server's
 * adapter. The writers and the changes are b9_report.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "b9_nbserv.h"
#include "bench_util.h"
#include "ipxlab/bench_b9.h"
#include "ipxlab/bench_ncp.h"
#include "ipxlab/bench_sim.h"
#include "ipxlab/bench_work.h"
#include "ipxlab/err.h"
#include "ipxlab/host.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/node.h"

/* Bytes per operation: an NCP get part or perftest record, a NetBIOS
 * message. */
#define NCP_IO (64 * 1024)
#define NB_MESSAGE (32 * 1024)
/* Set-up and drain beyond the workload's own seconds. */
#define SLACK (60 * IPX_SEC)
/* Quiet after the six NetBIOS sessions' end (their HANG UPs). */
#define SETTLE (20 * IPX_MSEC)

void ipx_b9_default_adapter(struct ipx_adapter *out)
{
	*out = (struct ipx_adapter){ .memory = 16 * 1024, .tx_buffers = 1,
				     .tx_size = 2048, .rx_size = 1024,
				     .copy_rate = 8000000,
				     .rx_cost_ns = 20000 };
}

static void add(struct ipx_b9_report *rep, enum ipx_b9_param p, uint32_t v)
{
	struct ipx_b9_config *c = &rep->cfg[rep->ncfg++];

	c->param = p;
	c->value = v;
	c->ws = c->srv = rep->o.base;
	if (rep->o.base_srv.memory)
		c->srv = rep->o.base_srv;
	switch (p) {
	case IPX_B9_TX_SIZE:
		c->ws.tx_size = c->srv.tx_size = v;
		break;
	case IPX_B9_TX_BUFS:
		c->ws.tx_buffers = c->srv.tx_buffers = v;
		break;
	case IPX_B9_RX_WS:
		c->ws.rx_size = v;
		break;
	case IPX_B9_RX_SRV:
		c->srv.rx_size = v;
		break;
	case IPX_B9_BASE:
		break;
	}
}

int ipx_b9_plan(const struct ipx_b9_opts *o, struct ipx_b9_report *rep,
		char *err, size_t errlen)
{
	static const uint32_t sizes[] = { 256, 512, 1024, 2048, 4096 };
	const struct ipx_adapter *b = &o->base;
	char name[48], msg[400];

	memset(rep, 0, sizeof(*rep));
	rep->o = *o;
	add(rep, IPX_B9_BASE, 0);
	/* the sizes the wire's frames hold (eth10: up to 1K) */
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (sizes[i] != b->tx_size && sizes[i] <= o->profile.max_frame)
			add(rep, IPX_B9_TX_SIZE, sizes[i]);
	add(rep, IPX_B9_TX_BUFS, b->tx_buffers == 1 ? 2 : 1);
	add(rep, IPX_B9_RX_WS, b->rx_size == 2048 ? 1024 : 2048);
	add(rep, IPX_B9_RX_SRV, b->rx_size == 2048 ? 1024 : 2048);
	for (size_t i = 0; i < rep->ncfg; i++) {
		const struct ipx_b9_config *c = &rep->cfg[i];

		if (ipx_adapter_check(&c->ws, &o->profile, msg, sizeof(msg)) ==
			    IPX_OK &&
		    ipx_adapter_check(&c->srv, &o->profile, msg,
				      sizeof(msg)) == IPX_OK)
			continue;
		ipx_b9_config_name(c, name, sizeof(name));
		ipx_bench_set_err(err, errlen, "the step '%s': %s", name, msg);
		return IPX_ECONFIG;
	}
	return IPX_OK;
}

/* ---- one network, its adapters ---- */

/* The adapters' links (under a period's host, the host's inner link)
 * and, with a period, the hosts' links the nodes send on. */
struct net {
	struct ipx_bsim *sim;
	struct ipx_node *peer;	/* NetBIOS's server side */
	struct ipx_link *ws[IPX_B9_MAX_STATIONS], *srv, *peer_link;
	struct ipx_link *ws_out[IPX_B9_MAX_STATIONS], *srv_out;
	const struct ipx_b9_opts *o;
};

/* A node's adapter link: under its host, if it has one. */
static struct ipx_link *adapter_link(struct ipx_link *l)
{
	struct ipx_host *h = ipx_link_host(l);

	return h ? ipx_host_inner(h) : l;
}

/* The host's link carries what its adapter does (a workstation's no
 * more than the period's largest packet, as bench_sim.h caps it). */
static void host_mtu(struct ipx_link *out, const struct ipx_link *in,
		     uint32_t cap)
{
	if (out == in)
		return;
	out->mtu = in->mtu;
	if (cap && cap < out->mtu)
		out->mtu = cap;
}

static int set_adapters(struct net *n, const struct ipx_b9_config *c,
			char *err, size_t errlen)
{
	struct ipx_mem_adapter_stats st;
	int rc = IPX_OK;

	for (unsigned i = 0; rc == IPX_OK && i < IPX_B9_MAX_STATIONS; i++)
		rc = ipx_mem_link_set_adapter(n->ws[i], &c->ws, err, errlen);
	if (rc == IPX_OK)
		rc = ipx_mem_link_set_adapter(n->srv, &c->srv, err, errlen);
	if (rc == IPX_OK && n->peer_link != n->srv)
		rc = ipx_mem_link_set_adapter(n->peer_link, &c->srv, err,
					      errlen);
	for (unsigned i = 0; i < IPX_B9_MAX_STATIONS; i++) {
		host_mtu(n->ws_out[i], n->ws[i],
			 n->o->period ? n->o->period->max_packet : 0);
		ipx_mem_link_adapter_stats(n->ws[i], &st, true);
	}
	host_mtu(n->srv_out, n->srv, 0);
	ipx_mem_link_adapter_stats(n->srv, &st, true);
	ipx_mem_link_adapter_stats(n->peer_link, &st, true);
	return rc;
}

static int net_new(struct net *n, const struct ipx_b9_opts *o, char *err,
		   size_t errlen)
{
	struct ipx_profile bare = o->profile;
	struct ipx_bsim_opts so = { .profile = &bare,
				    .stations = IPX_B9_MAX_STATIONS,
				    .seed = o->seed, .real_clock = !o->sim,
				    .period = o->period };
	int rc;

	memset(n, 0, sizeof(*n));
	n->o = o;
	/* every station starts with no adapter model: the controller and
	 * the analyzers' probes keep none; the measured ones get theirs */
	memset(&bare.adapter, 0, sizeof(bare.adapter));
	rc = ipx_bsim_new(&so, &n->sim, err, errlen);
	if (rc != IPX_OK)
		return rc;
	/* with a period, LAN Manager's server is the server machine: the
	 * file server's node (NetBIOS beside NCP); without, a node of its
	 * own beside it (the output --sim has always given) */
	if (o->period)
		n->peer = ipx_bsim_server_node(n->sim);
	else
		rc = ipx_bsim_spare_node(n->sim, IPX_BSIM_SERVER, &n->peer);
	if (rc != IPX_OK) {
		ipx_bench_set_err(err, errlen, "a NetBIOS node: %s",
				  ipx_strerror(rc));
		return rc;
	}
	for (unsigned i = 0; i < IPX_B9_MAX_STATIONS; i++) {
		n->ws_out[i] = ipx_node_link(ipx_bsim_station(n->sim, i), 0);
		n->ws[i] = adapter_link(n->ws_out[i]);
	}
	n->srv_out = ipx_node_link(ipx_bsim_server_node(n->sim), 0);
	n->srv = adapter_link(n->srv_out);
	n->peer_link = adapter_link(ipx_node_link(n->peer, 0));
	if (o->on_loop)
		o->on_loop(ipx_bsim_loop(n->sim), o->ctx);
	return IPX_OK;
}

/* ---- the workloads ---- */

struct slot {
	struct ipx_bw *w;
	enum ipx_bw_event ev;
	bool got;
};

/* The slots a wait is about. */
struct run {
	struct slot *s[IPX_B9_MAX_STATIONS];
	unsigned n;
	enum ipx_bw_event want;
};

static void on_event(struct ipx_bw *w, enum ipx_bw_event ev, void *ctx)
{
	struct slot *s = ctx;

	(void)w;
	s->ev = ev;
	s->got = true;
}

static bool all_there(void *ctx)
{
	const struct run *r = ctx;

	for (unsigned i = 0; i < r->n; i++)
		if (!r->s[i]->got ||
		    (r->s[i]->ev != r->want && r->s[i]->ev != IPX_BW_FAILED))
			return false;
	return true;
}

/* Wait until the slots have all reported 'want' (or one failed). */
static int wait_for(struct net *n, struct run *r, enum ipx_bw_event want,
		    ipx_time timeout, char *err, size_t errlen)
{
	int rc;

	r->want = want;
	rc = ipx_loop_run_until(ipx_bsim_loop(n->sim), all_there, r, timeout);
	if (rc == IPX_ECLOSED || ipx_loop_stopped(ipx_bsim_loop(n->sim)))
		return IPX_ECLOSED;
	for (unsigned i = 0; i < r->n; i++) {
		struct slot *s = r->s[i];

		if (s->got && s->ev == IPX_BW_FAILED) {
			ipx_bench_set_err(err, errlen, "%s",
					  ipx_bw_error(s->w));
			return IPX_EIO;
		}
		if (!s->got) {
			ipx_bench_set_err(err, errlen, "a workload did not "
						       "finish in time");
			return IPX_ETIMEOUT;
		}
		s->got = false;
	}
	return IPX_OK;
}

static ipx_time limit(const struct net *n)
{
	return (ipx_time)(n->o->seconds * IPX_SEC) + SLACK;
}

/* Every sender of r READY: go, wait for DONE, add up. */
static int go_and_count(struct net *n, struct run *r, size_t per_op,
			struct ipx_b9_point *pt, char *err, size_t errlen)
{
	double min = INFINITY;
	int rc;

	for (unsigned i = 0; i < r->n; i++)
		ipx_bw_go(r->s[i]->w);
	rc = wait_for(n, r, IPX_BW_DONE, limit(n), err, errlen);
	if (rc != IPX_OK)
		return rc;
	pt->kbs = 0;
	for (unsigned i = 0; i < r->n; i++) {
		struct ipx_bw_result res;
		double kbs;

		ipx_bw_result(r->s[i]->w, &res);
		kbs = res.seconds > 0 ? (double)res.sent * (double)per_op /
						res.seconds / 1000.0
				      : 0;
		pt->kbs += kbs;
		pt->kbs_ws[i] = kbs;
		if (kbs < min)
			min = kbs;
	}
	pt->kbs_ws_min = min;
	return IPX_OK;
}

static int ncp_load(struct net *n, const struct ipx_b9_workload *wl,
		    struct ipx_b9_point *pt, char *err, size_t errlen)
{
	struct slot sl[IPX_B9_MAX_STATIONS] = { { 0 } };
	struct run r = { .n = 0 };
	struct ipx_bw_params p = {
		.kind = IPX_BW_NCP, .seconds = n->o->seconds, .size = NCP_IO,
		.op = wl->dir == IPX_B9_READ ? IPX_BN_GET : IPX_BN_PERFTEST,
		.tasks = true,
	};
	int rc = IPX_OK;

	p.peer.addr = ipx_bsim_run_opts(n->sim)->server;
	for (unsigned i = 0; rc == IPX_OK && i < wl->stations; i++) {
		p.station = (uint16_t)(i + 1);
		r.s[r.n++] = &sl[i];
		rc = ipx_bw_new(ipx_bsim_station(n->sim, i),
				ipx_bsim_loop(n->sim), IPX_BW_SENDER, &p,
				on_event, &sl[i], &sl[i].w, err, errlen);
	}
	if (rc == IPX_OK)
		rc = wait_for(n, &r, IPX_BW_READY, SLACK, err, errlen);
	if (rc == IPX_OK)
		rc = go_and_count(n, &r, NCP_IO, pt, err, errlen);
	for (unsigned i = 0; i < wl->stations; i++)
		ipx_bw_free(sl[i].w);
	return rc;
}

/* One NetBIOS session from workstation 1 to the server's side (write) or
 * back (read): the receiver listens, the sender calls and sends. */
static int nb_load(struct net *n, const struct ipx_b9_workload *wl,
		   struct ipx_b9_point *pt, char *err, size_t errlen)
{
	struct ipx_node *ws = ipx_bsim_station(n->sim, 0);
	struct ipx_node *from = wl->dir == IPX_B9_WRITE ? ws : n->peer;
	struct ipx_node *to = wl->dir == IPX_B9_WRITE ? n->peer : ws;
	struct ipx_loop *loop = ipx_bsim_loop(n->sim);
	struct ipx_bw_params p = { .kind = IPX_BW_NB_SESSION,
				   .seconds = n->o->seconds,
				   .size = NB_MESSAGE };
	struct slot rx = { 0 }, tx = { 0 };
	struct run rr = { .s = { &rx }, .n = 1 }, tr = { .s = { &tx }, .n = 1 };
	int rc;

	rc = ipx_bw_new(to, loop, IPX_BW_RECEIVER, &p, on_event, &rx, &rx.w,
			err, errlen);
	if (rc == IPX_OK)
		rc = wait_for(n, &rr, IPX_BW_READY, SLACK, err, errlen);
	if (rc == IPX_OK) {
		ipx_bw_info(rx.w, &p.peer);
		rc = ipx_bw_new(from, loop, IPX_BW_SENDER, &p, on_event, &tx,
				&tx.w, err, errlen);
	}
	if (rc == IPX_OK)
		rc = wait_for(n, &tr, IPX_BW_READY, SLACK, err, errlen);
	if (rc == IPX_OK)
		rc = go_and_count(n, &tr, NB_MESSAGE, pt, err, errlen);
	if (rc == IPX_OK) {
		ipx_bw_finish(rx.w);
		rc = wait_for(n, &rr, IPX_BW_DONE, SLACK, err, errlen);
	}
	ipx_bw_free(tx.w);
	ipx_bw_free(rx.w);
	return rc;
}

/* ---- NetBIOS, six workstations and one server node ---- */

static bool nbs_listening(void *ctx)
{
	return b9_nbs_listening(ctx);
}

static bool nbs_done(void *ctx)
{
	return b9_nbs_done(ctx);
}

struct nbs_up {
	struct b9_nbs *s;
	unsigned want;
};

/* The server's LISTENs all completed (the workstations' CALLs did). */
static bool nbs_all_up(void *ctx)
{
	const struct nbs_up *u = ctx;

	return b9_nbs_sessions(u->s) >= u->want || *b9_nbs_error(u->s);
}

/* Run the loop until pred or the timeout; the server's failure first. */
static int nbs_wait(struct net *n, struct b9_nbs *s, bool (*pred)(void *),
		    void *ctx, ipx_time timeout, char *err, size_t errlen)
{
	int rc = ipx_loop_run_until(ipx_bsim_loop(n->sim), pred, ctx,
				    timeout);

	if (rc == IPX_ECLOSED || ipx_loop_stopped(ipx_bsim_loop(n->sim)))
		return IPX_ECLOSED;
	if (*b9_nbs_error(s)) {
		ipx_bench_set_err(err, errlen, "%s", b9_nbs_error(s));
		return IPX_EIO;
	}
	if (!pred(ctx)) {
		ipx_bench_set_err(err, errlen, "the NetBIOS server did not "
					       "get its sessions in time");
		return IPX_ETIMEOUT;
	}
	return IPX_OK;
}

/* Reads: the server SENDs on every session for the time; each
 * session's kB/s from go to its last SEND's acknowledgement (every byte
 * of it in the workstation's RECEIVEs: no drain to wait for). */
static int nbs_read(struct net *n, struct b9_nbs *s, struct run *r,
		    struct ipx_b9_point *pt, char *err, size_t errlen)
{
	double min = INFINITY;
	int rc;

	b9_nbs_go(s, n->o->seconds);
	rc = nbs_wait(n, s, nbs_done, s, limit(n), err, errlen);
	pt->kbs = 0;
	for (unsigned i = 0; rc == IPX_OK && i < r->n; i++) {
		uint64_t bytes;
		double sec, kbs;

		b9_nbs_result(s, i, &bytes, &sec);
		kbs = sec > 0 ? (double)bytes / sec / 1000.0 : 0;
		pt->kbs += kbs;
		pt->kbs_ws[i] = kbs;
		if (kbs < min)
			min = kbs;
	}
	pt->kbs_ws_min = min;
	return rc;
}

/* Every session carried data to the server (writes) or from it. */
static int nbs_check(struct b9_nbs *s, const struct run *r, char *err,
		     size_t errlen)
{
	for (unsigned i = 0; i < r->n; i++) {
		uint64_t bytes;
		double sec;

		b9_nbs_result(s, i, &bytes, &sec);
		if (bytes == 0) {
			ipx_bench_set_err(err, errlen, "NetBIOS session %u of "
						       "%u carried no data",
					  i + 1, r->n);
			return IPX_EIO;
		}
	}
	return IPX_OK;
}

/* wl->stations NetBIOS sessions at once to one server node that
 * listened for them all: the workstations CALL; for writes they SEND
 * and the server RECEIVEs, for reads the server SENDs. */
static int nb_many(struct net *n, const struct ipx_b9_workload *wl,
		   struct ipx_b9_point *pt, char *err, size_t errlen)
{
	bool read = wl->dir == IPX_B9_READ;
	struct slot sl[IPX_B9_MAX_STATIONS] = { { 0 } };
	struct run r = { .n = 0 };
	struct nbs_up up = { .want = wl->stations };
	struct ipx_bw_params p = { .kind = IPX_BW_NB_SESSION,
				   .seconds = n->o->seconds,
				   .size = NB_MESSAGE, .nb_call = read };
	struct b9_nbs *s;
	int rc = b9_nbs_open(n->peer, wl->stations, read, NB_MESSAGE, &s,
			     err, errlen);

	if (rc == IPX_OK)
		rc = nbs_wait(n, s, nbs_listening, s, SLACK, err, errlen);
	if (rc == IPX_OK) {
		memcpy(p.peer.nb_name, b9_nbs_name(s), sizeof(p.peer.nb_name));
		ipx_node_address(n->peer, &p.peer.addr);
	}
	for (unsigned i = 0; rc == IPX_OK && i < wl->stations; i++) {
		r.s[r.n++] = &sl[i];
		rc = ipx_bw_new(ipx_bsim_station(n->sim, i),
				ipx_bsim_loop(n->sim),
				read ? IPX_BW_RECEIVER : IPX_BW_SENDER, &p,
				on_event, &sl[i], &sl[i].w, err, errlen);
	}
	if (rc == IPX_OK)
		rc = wait_for(n, &r, IPX_BW_READY, SLACK, err, errlen);
	up.s = s;
	if (rc == IPX_OK)
		rc = nbs_wait(n, s, nbs_all_up, &up, SLACK, err, errlen);
	if (rc == IPX_OK)
		rc = read ? nbs_read(n, s, &r, pt, err, errlen)
			  : go_and_count(n, &r, NB_MESSAGE, pt, err, errlen);
	if (rc == IPX_OK)
		rc = nbs_check(s, &r, err, errlen);
	b9_nbs_free(s);
	for (unsigned i = 0; i < wl->stations; i++)
		ipx_bw_free(sl[i].w);
	/* the HANG UPs off the wire before the next workload starts */
	if (rc == IPX_OK)
		ipx_loop_run_for(ipx_bsim_loop(n->sim), SETTLE);
	return rc;
}

/* The largest frames each side sent, and the receive drops. */
static void frames(struct net *n, struct ipx_b9_point *pt)
{
	const uint32_t hdr = n->o->profile.header;
	struct ipx_mem_adapter_stats st;

	for (unsigned i = 0; i < IPX_B9_MAX_STATIONS; i++) {
		ipx_mem_link_adapter_stats(n->ws[i], &st, true);
		if (st.tx_max && st.tx_max + hdr > pt->frame_up)
			pt->frame_up = (uint32_t)st.tx_max + hdr;
		pt->rx_drops += st.rx_no_buffer;
	}
	ipx_mem_link_adapter_stats(n->srv, &st, true);
	pt->frame_down = st.tx_max ? (uint32_t)st.tx_max + hdr : 0;
	pt->rx_drops += st.rx_no_buffer;
	if (n->peer_link == n->srv)
		return;
	ipx_mem_link_adapter_stats(n->peer_link, &st, true);
	if (st.tx_max && st.tx_max + hdr > pt->frame_down)
		pt->frame_down = (uint32_t)st.tx_max + hdr;
	pt->rx_drops += st.rx_no_buffer;
}

/* ---- the wire ceiling ---- */

struct ceil_rx {
	struct ipx_loop *loop;
	unsigned got;
	ipx_time last;
};

static void ceil_on_rx(struct ipx_link *l, const uint8_t *pkt, size_t len,
		       void *ctx)
{
	struct ceil_rx *c = ctx;

	(void)l;
	(void)pkt;
	(void)len;
	c->got++;
	c->last = ipx_loop_now(c->loop);
}

static bool ceil_done(void *ctx)
{
	return ((struct ceil_rx *)ctx)->got >= IPX_B9_CEILING_FRAMES;
}

/* A NetBIOS session data packet (IPX type 4, socket 0x455 both ways,
 * data stream type 6), so a period machine charges the frames what its
 * software takes for a session packet (host.h). */
static void nb_shape(uint8_t *pkt)
{
	pkt[5] = 4;
	pkt[16] = pkt[28] = 0x04;
	pkt[17] = pkt[29] = 0x55;
	pkt[31] = 6;
}

/* Back-to-back 2,000-byte frames from a station with the baseline
 * adapter (the server's side's) to one with none, on a segment of their
 * own; with a period, sent through the server machine's host as
 * NetBIOS session packets, so the frames wait for its CPU too. */
static int ceiling(const struct ipx_b9_opts *o, struct ipx_b9_ceiling *out)
{
	static uint8_t pkt[IPX_B9_CEILING_FRAME];
	const struct ipx_adapter *a =
		o->base_srv.memory ? &o->base_srv : &o->base;
	struct ipx_link *send = NULL;
	const size_t len = IPX_B9_CEILING_FRAME - o->profile.header;
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_mem_segment *seg;
	struct ipx_link *tx, *rx;
	struct ceil_rx c = { 0 };
	struct ipx_profile p = o->profile;
	char err[256];
	ipx_time t0;
	int rc;

	memset(&p.adapter, 0, sizeof(p.adapter));
	memset(pkt, 0, sizeof(pkt));
	ipx_clock_fake_init(&clk, 0);
	loop = ipx_loop_new(o->sim ? &clk : ipx_clock_system());
	seg = loop ? ipx_mem_segment_new(loop, 1, o->seed) : NULL;
	if (!seg || ipx_mem_segment_set_profile(seg, &p) != IPX_OK) {
		ipx_mem_segment_free(seg);
		ipx_loop_free(loop);
		return IPX_ENOMEM;
	}
	c.loop = loop;
	tx = ipx_mem_link_new(seg, NULL);
	rx = ipx_mem_link_new(seg, NULL);
	rc = tx && rx ? ipx_mem_link_set_adapter(tx, a, err, sizeof(err))
		      : IPX_ENOMEM;
	if (rc == IPX_OK && len > tx->mtu)
		rc = IPX_ETOOBIG;	/* transmit buffers under 2,000 */
	send = tx;
	if (rc == IPX_OK && o->period) {
		struct ipx_host *h = ipx_host_new(tx, &o->period->server, true);

		if (!h)
			rc = IPX_ENOMEM;
		else
			send = ipx_host_link(h);
		nb_shape(pkt);
	}
	if (rc == IPX_OK) {
		rx->rx = ceil_on_rx;
		rx->rx_ctx = &c;
		t0 = ipx_loop_now(loop);
		for (unsigned i = 0; i < IPX_B9_CEILING_FRAMES; i++)
			ipx_link_send(send, pkt, len, rx->node);
		ipx_loop_run_until(loop, ceil_done, &c, 10 * IPX_SEC);
		if (c.got == IPX_B9_CEILING_FRAMES && c.last != t0) {
			double s = (double)(c.last - t0) / IPX_SEC;

			out->frame_ms = s * 1000 / IPX_B9_CEILING_FRAMES;
			out->kbs = IPX_B9_CEILING_FRAMES *
				   (double)IPX_B9_CEILING_FRAME / s / 1000;
			out->wire_kbs =
				IPX_B9_CEILING_FRAME /
				((double)(ipx_profile_wire_ns(&p, len) +
					  (p.rate ? p.token_bits * 1e9 /
							    (double)p.rate
						  : 0)) /
				 1e9) /
				1000;
			out->done = true;
		}
	}
	if (send)	/* a host closes its inner link */
		ipx_link_close(send);
	else if (tx)
		ipx_link_close(tx);
	if (rx)
		ipx_link_close(rx);
	ipx_mem_segment_free(seg);
	ipx_loop_free(loop);
	return rc == IPX_ETOOBIG ? IPX_OK : rc;
}

/* ---- the run ---- */

static int load(struct net *n, const struct ipx_b9_workload *wl,
		struct ipx_b9_point *pt, char *err, size_t errlen)
{
	if (wl->proto == IPX_B9_NCP)
		return ncp_load(n, wl, pt, err, errlen);
	return wl->stations > 1 ? nb_many(n, wl, pt, err, errlen)
				: nb_load(n, wl, pt, err, errlen);
}

int ipx_b9_measure(const struct ipx_b9_opts *o, const struct ipx_b9_config *c,
		   unsigned workload, struct ipx_b9_point *out, char *err,
		   size_t errlen)
{
	const struct ipx_b9_workload *wl = &ipx_b9_workloads[workload];
	struct net n = { 0 };
	int rc;

	memset(out, 0, sizeof(*out));
	if (workload >= IPX_B9_WORKLOADS)
		return IPX_EINVAL;
	rc = net_new(&n, o, err, errlen);
	if (rc == IPX_OK)
		rc = set_adapters(&n, c, err, errlen);
	if (rc == IPX_OK)
		rc = load(&n, wl, out, err, errlen);
	if (n.sim)
		frames(&n, out);
	out->done = rc == IPX_OK;
	ipx_bsim_free(n.sim);
	return rc;
}

static int one_config(struct net *n, struct ipx_b9_report *rep, size_t ci,
		      ipx_bench_progress_fn progress, void *ctx, char *err,
		      size_t errlen)
{
	char name[48], line[120];
	int rc = set_adapters(n, &rep->cfg[ci], err, errlen);

	ipx_b9_config_name(&rep->cfg[ci], name, sizeof(name));
	for (unsigned w = 0; rc == IPX_OK && w < IPX_B9_WORKLOADS; w++) {
		const struct ipx_b9_workload *wl = &ipx_b9_workloads[w];
		struct ipx_b9_point *pt = &rep->pt[ci][w];

		if (wl->proto == IPX_B9_NCP &&
		    (ipx_adapter_mtu(&rep->cfg[ci].ws, &n->o->profile) <
			     IPX_B9_NCP_MIN_IPX ||
		     ipx_adapter_mtu(&rep->cfg[ci].srv, &n->o->profile) <
			     IPX_B9_NCP_MIN_IPX)) {
			pt->skipped = true;
			continue;
		}
		if (progress) {
			snprintf(line, sizeof(line), "tuning %zu/%zu: %s, %s",
				 ci * IPX_B9_WORKLOADS + w + 1,
				 rep->ncfg * IPX_B9_WORKLOADS, name,
				 ipx_b9_workload_name(w));
			progress(ctx, line);
		}
		rc = load(n, wl, pt, err, errlen);
		frames(n, pt);
		if (rc == IPX_OK)
			pt->done = true;
		else if (rc != IPX_ECLOSED) {
			char e[256];

			snprintf(e, sizeof(e), "%s", err);
			ipx_bench_set_err(err, errlen, "%s, %s: %s", name,
					  ipx_b9_workload_name(w), e);
		}
	}
	return rc;
}

/* The fidelity rows' own runs: the baseline's six-workstation NetBIOS
 * reads and writes with the period's server machine replaced by the
 * named ISA and MCA servers (at386-25, ps2-80-25: the same CPU, their
 * bus in their copies and their adapters); each the mean of the two. */
#define FID_ISA_MACHINE "at386-25"
#define FID_MCA_MACHINE "ps2-80-25"

static int bus_runs(const struct ipx_b9_opts *o,
		    const struct ipx_b9_report *rep, struct ipx_b9_fid_runs *fr,
		    char *err, size_t errlen)
{
	static const char *const names[2] = { FID_ISA_MACHINE,
					      FID_MCA_MACHINE };
	static const unsigned loads[2] = { 6, 7 };	/* nb rd6, nb wr6 */
	int base = ipx_b9_find(rep, IPX_B9_BASE, 0);
	struct ipx_period p = *o->period;
	struct ipx_b9_opts bo = *o;
	struct ipx_b9_point pt;
	int rc = IPX_OK;

	fr->isa_kbs = fr->mca_kbs = NAN;
	bo.period = &p;
	for (int i = 0; rc == IPX_OK && i < 2 && base >= 0; i++) {
		struct ipx_b9_config c = rep->cfg[base];
		double sum = 0;

		rc = ipx_machine_resolve(names[i], &p.server, err, errlen);
		if (rc != IPX_OK)
			return rc;
		c.srv = p.server.adapter.adapter;
		snprintf(i ? fr->mca : fr->isa, sizeof(fr->isa), "%s",
			 names[i]);
		for (int k = 0; rc == IPX_OK && k < 2; k++) {
			rc = ipx_b9_measure(&bo, &c, loads[k], &pt, err,
					    errlen);
			sum += pt.kbs;
		}
		if (rc == IPX_OK)
			*(i ? &fr->mca_kbs : &fr->isa_kbs) = sum / 2;
	}
	return rc;
}

/* A --period run's fidelity table: today's run (the same benchmark with
 * no period: `bench tuning --sim`, the default adapter on the period's
 * wire) and the bus runs beside it. */
static int fidelity(const struct ipx_b9_opts *o, ipx_bench_progress_fn progress,
		    void *ctx, struct ipx_b9_report *rep, char *err,
		    size_t errlen)
{
	struct ipx_b9_opts to = *o;
	struct ipx_b9_report *today = calloc(1, sizeof(*today));
	int rc;

	if (!today)
		return IPX_ENOMEM;
	to.period = NULL;
	memset(&to.base_srv, 0, sizeof(to.base_srv));
	ipx_b9_default_adapter(&to.base);
	rc = ipx_b9_run(&to, progress, ctx, today, err, errlen);
	if (rc == IPX_OK) {
		if (progress)
			progress(ctx, "tuning: the ISA and MCA servers");
		rc = bus_runs(o, rep, &rep->fr, err, errlen);
	}
	if (rc == IPX_OK) {
		ipx_b9_fidelity(rep, today, &rep->fr, &rep->fid);
		rep->have_fid = true;
	}
	free(today);
	return rc;
}

int ipx_b9_run(const struct ipx_b9_opts *o, ipx_bench_progress_fn progress,
	       void *ctx, struct ipx_b9_report *rep, char *err, size_t errlen)
{
	struct net n = { 0 };
	int rc = ipx_b9_plan(o, rep, err, errlen);

	if (rc != IPX_OK)
		return rc;
	if (o->period && !o->sim) {
		ipx_bench_set_err(err, errlen, "tuning: --period runs in "
					       "simulated time only");
		return IPX_EINVAL;
	}
	if (o->seconds <= 0 || o->seconds > 3600) {
		ipx_bench_set_err(err, errlen, "tuning: 0 to 3600 seconds a "
					       "test");
		return IPX_EINVAL;
	}
	if (progress)
		progress(ctx, "tuning: the wire ceiling");
	rc = ceiling(o, &rep->ceiling);
	if (rc == IPX_OK)
		rc = net_new(&n, o, err, errlen);
	else
		ipx_bench_set_err(err, errlen, "the ceiling: %s",
				  ipx_strerror(rc));
	for (size_t i = 0; rc == IPX_OK && i < rep->ncfg; i++)
		rc = one_config(&n, rep, i, progress, ctx, err, errlen);
	if (n.sim)
		ipx_bsim_free(n.sim);
	if (rc == IPX_OK && o->period)
		rc = fidelity(o, progress, ctx, rep, err, errlen);
	if (progress)
		progress(ctx, NULL);
	rep->interrupted = rc == IPX_ECLOSED;
	rep->complete = rc == IPX_OK;
	return rc;
}
