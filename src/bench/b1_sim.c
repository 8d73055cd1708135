/*
 * b1_sim.c - B1 in simulated time (bench_b1sim.h): for each of the four
 * 1990 interfaces a fresh network on a fake clock (a segment with the
 * profile, a sender and a receiver node, each on the period's station
 * machine when there is a period, and a probe), the workloads of
 * bench_work.h run on it, the figures taken.
 *
 * The probe is a promiscuous link that never sends: it sees a frame once
 * the wire has carried it, which is when the sender's adapter has
 * finished transmitting it. A datagram send (params.tx_wait) completes
 * then. A frame the wire lost never reaches the probe: a watchdog
 * completes a send that has made no progress for ten times the longest
 * a send has taken so far and 100 ms more (10 s for the first send), so a
 * slow wire's frames are never taken for lost (a 1990 adapter reported
 * transmit complete for a lost frame all the same).
 */
#include "ipxlab/bench_b1sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "ipxlab/bench_b1.h"
#include "ipxlab/clock.h"
#include "ipxlab/config.h"
#include "ipxlab/err.h"
#include "ipxlab/host.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/loop.h"
#include "ipxlab/node.h"

#define NET 0x1990
#define WATCHDOG_TICK (10 * IPX_MSEC)
#define WATCHDOG_SLACK (100 * IPX_MSEC)
#define WATCHDOG_FIRST (10 * IPX_SEC)
/* Offset of the source node in an IPX header. */
#define IPX_SRC_NODE 22

const enum ipx_bw_kind ipx_b1sim_kinds[IPX_B1SIM_ROWS] = {
	IPX_BW_IPX, IPX_BW_SPX, IPX_BW_NB_DGRAM, IPX_BW_NB_SESSION,
};

/* One workload and what its events said (bits 1 << enum ipx_bw_event). */
#define EV(e) (1u << (e))
struct side {
	struct ipx_bw *w;
	unsigned seen;
	struct ipx_bw_result res;
	char err[200];
};

/* One interface's network: the fake clock's loop, the segment, the two
 * nodes with their hosts, the probe. */
struct world {
	struct ipx_loop *loop;
	struct ipx_clock clk;
	struct ipx_config cfg;
	struct ipx_mem_segment *seg;
	struct ipx_node *node[2];	/* sender, receiver */
	struct ipx_host *host[2];
	struct ipx_link *link[2];	/* the mem links under the hosts */
	struct ipx_link *probe;
	struct side s, r;
	struct ipx_timer watchdog;
	uint64_t last_sent;	/* at the last progress */
	ipx_time progress_at;	/* when sent last grew */
	ipx_time longest;	/* the longest a send has taken (a tick's
				 * resolution) */
};

static void on_event(struct ipx_bw *w, enum ipx_bw_event ev, void *ctx)
{
	struct side *sd = ctx;

	sd->seen |= EV(ev);
	if (ev == IPX_BW_READY)
		return;
	if (ev == IPX_BW_FAILED)
		snprintf(sd->err, sizeof(sd->err), "%s", ipx_bw_error(w));
	ipx_bw_result(w, &sd->res);
}

/* The probe: a frame of the sender's has left its adapter. */
static void probe_rx(struct ipx_link *l, const uint8_t *pkt, size_t len,
		     void *ctx)
{
	struct world *w = ctx;

	(void)l;
	if (len >= IPX_SRC_NODE + IPX_NODE_LEN && w->s.w &&
	    !memcmp(pkt + IPX_SRC_NODE, w->link[0]->node, IPX_NODE_LEN))
		ipx_bw_tx_done(w->s.w);
}

/* Run-until predicates: the side has ended (DONE or FAILED), or told
 * anything at all. */
static bool settled(void *ctx)
{
	return ((const struct side *)ctx)->seen &
	       (EV(IPX_BW_DONE) | EV(IPX_BW_FAILED));
}

static bool told(void *ctx)
{
	return ((const struct side *)ctx)->seen != 0;
}

static void on_watchdog(struct ipx_loop *loop, struct ipx_timer *t,
			void *ctx)
{
	struct world *w = ctx;
	struct ipx_bw_result r;
	ipx_time now = ipx_loop_now(loop), limit;

	if (!w->s.w || settled(&w->s))
		return;
	ipx_bw_result(w->s.w, &r);
	if (r.sent != w->last_sent) {
		ipx_time per = (now - w->progress_at) /
			       (ipx_time)(r.sent - w->last_sent);

		if (per > w->longest)
			w->longest = per;
		w->last_sent = r.sent;
		w->progress_at = now;
	} else {
		limit = w->longest ? 10 * w->longest + WATCHDOG_SLACK
				   : WATCHDOG_FIRST;
		if (now - w->progress_at > limit) {
			ipx_bw_tx_done(w->s.w);	/* lost on the wire */
			w->progress_at = now;
		}
	}
	ipx_timer_start(loop, t, WATCHDOG_TICK, 0);
}

static int add_node(struct world *w, unsigned i,
		    const struct ipx_period *period, char *err, size_t errlen)
{
	struct ipx_link *l;
	const struct ipx_machine *m = period ? &period->station : NULL;

	w->node[i] = ipx_node_new(w->loop, &w->cfg);
	if (!w->node[i])
		return IPX_ENOMEM;
	l = ipx_mem_link_new(w->seg, NULL);
	if (!l)
		return IPX_ENOMEM;
	w->link[i] = l;
	if (m && m->have_adapter &&
	    ipx_mem_link_set_adapter(l, &m->adapter.adapter, err, errlen) !=
		    IPX_OK) {
		ipx_link_close(l);
		return IPX_EINVAL;
	}
	if (m) {
		w->host[i] = ipx_host_new(l, m, false);
		if (!w->host[i]) {
			ipx_link_close(l);
			return IPX_ENOMEM;
		}
		l = ipx_host_link(w->host[i]);
		if (period->max_packet && period->max_packet < l->mtu)
			l->mtu = period->max_packet;
	}
	if (ipx_node_add_link(w->node[i], l) != IPX_OK) {
		ipx_link_close(l);
		return IPX_ENOMEM;
	}
	return IPX_OK;
}

static void world_free(struct world *w)
{
	if (!w)
		return;
	if (w->loop)
		ipx_timer_stop(w->loop, &w->watchdog);
	ipx_bw_free(w->s.w);
	ipx_bw_free(w->r.w);
	for (unsigned i = 0; i < 2; i++)
		ipx_node_free(w->node[i]);
	if (w->probe)
		ipx_link_close(w->probe);
	ipx_mem_segment_free(w->seg);
	ipx_loop_free(w->loop);
	free(w);
}

static int world_new(const struct ipx_profile *p,
		     const struct ipx_period *period, uint64_t seed,
		     struct world **out, char *err, size_t errlen)
{
	struct world *w = calloc(1, sizeof(*w));
	int rc = IPX_ENOMEM;

	*out = w;
	if (!w)
		return IPX_ENOMEM;
	ipx_clock_fake_init(&w->clk, IPX_SEC);
	w->loop = ipx_loop_new(&w->clk);
	if (!w->loop)
		return IPX_ENOMEM;
	ipx_timer_init(&w->watchdog, on_watchdog, w);
	ipx_config_defaults(&w->cfg);
	w->seg = ipx_mem_segment_new(w->loop, NET, seed);
	if (!w->seg)
		return IPX_ENOMEM;
	if (ipx_mem_segment_set_profile(w->seg, p) != IPX_OK) {
		ipx_bench_set_err(err, errlen, "profile %s: cannot apply it",
				  p->name);
		return IPX_EINVAL;
	}
	for (unsigned i = 0; i < 2; i++)
		if ((rc = add_node(w, i, period, err, errlen)) != IPX_OK)
			return rc;
	w->probe = ipx_mem_link_new(w->seg, NULL);
	if (!w->probe)
		return IPX_ENOMEM;
	ipx_mem_link_set_promiscuous(w->probe, true);
	w->probe->rx = probe_rx;
	w->probe->rx_ctx = w;
	return IPX_OK;
}

/* Start one side and run until it is READY. */
static int start(struct world *w, struct side *sd, enum ipx_bw_role role,
		 const struct ipx_bw_params *p, char *err, size_t errlen)
{
	const char *who = role == IPX_BW_SENDER ? "sender" : "receiver";
	int rc = ipx_bw_new(w->node[role == IPX_BW_SENDER ? 0 : 1], w->loop,
			    role, p, on_event, sd, &sd->w, sd->err,
			    sizeof(sd->err));

	if (rc == IPX_OK)
		rc = ipx_loop_run_until(w->loop, told, sd, 120 * IPX_SEC);
	if (rc == IPX_OK && sd->seen == EV(IPX_BW_READY))
		return IPX_OK;
	ipx_bench_set_err(err, errlen, "%s %s: %s", ipx_bw_kind_name(p->kind),
			  who, sd->err[0] ? sd->err : "not ready in time");
	return rc == IPX_OK ? IPX_EIO : rc;
}

static uint64_t host_cpu(struct ipx_host *h)
{
	return h ? ipx_host_stats(h)->cpu_ns : 0;
}

/* One interface on a fresh network. */
static int run_kind(const struct ipx_profile *prof,
		    const struct ipx_b1sim_opts *o, uint32_t count,
		    size_t size, enum ipx_bw_kind k, struct ipx_b1sim_row *row,
		    char *err, size_t errlen)
{
	struct ipx_bw_params p;
	struct ipx_mem_adapter_stats as;
	struct world *w;
	int rc = world_new(prof, o->period, o->seed + (uint64_t)k, &w, err,
			   errlen);

	memset(&p, 0, sizeof(p));
	p.kind = k;
	p.count = count;
	p.size = size;
	p.drain = 0.5;
	p.tx_wait = !ipx_bw_kind_stop_and_wait(k);
	if (rc == IPX_OK)
		rc = start(w, &w->r, IPX_BW_RECEIVER, &p, err, errlen);
	if (rc == IPX_OK) {
		ipx_bw_info(w->r.w, &p.peer);
		rc = start(w, &w->s, IPX_BW_SENDER, &p, err, errlen);
	}
	if (rc == IPX_OK) {
		for (unsigned i = 0; i < 2; i++)
			if (w->host[i])
				ipx_host_reset_stats(w->host[i]);
		ipx_mem_link_adapter_stats(w->link[1], &as, true);
		w->progress_at = ipx_loop_now(w->loop);
		if (p.tx_wait)
			ipx_timer_start(w->loop, &w->watchdog, WATCHDOG_TICK,
					0);
		rc = ipx_bw_go(w->s.w);
	}
	if (rc == IPX_OK)
		rc = ipx_loop_run_until(w->loop, settled, &w->s,
					(ipx_time)count * 10 * IPX_SEC);
	if (rc == IPX_OK && !(w->s.seen & EV(IPX_BW_FAILED))) {
		ipx_bw_finish(w->r.w);
		rc = ipx_loop_run_until(w->loop, settled, &w->r,
					60 * IPX_SEC);
	}
	if (rc == IPX_OK && ((w->s.seen | w->r.seen) & EV(IPX_BW_FAILED)))
		rc = IPX_EIO;
	if (rc != IPX_OK && err && !err[0])
		ipx_bench_set_err(err, errlen, "%s: %s", ipx_bw_kind_name(k),
				  w && w->s.err[0]   ? w->s.err
				  : w && w->r.err[0] ? w->r.err
						     : ipx_strerror(rc));
	if (rc == IPX_OK) {
		row->kind = k;
		row->sent = w->s.res.sent;
		row->delivered = w->r.res.delivered;
		row->retransmits = w->s.res.retransmits;
		row->seconds = w->s.res.seconds;
		row->pps = w->s.res.pps;
		row->ref_pps = ipx_b1_ref_pps(k);
		ipx_mem_link_adapter_stats(w->link[1], &as, false);
		row->rx_no_buffer = as.rx_no_buffer;
		if (row->sent) {
			row->snd_cpu_us = (double)host_cpu(w->host[0]) / 1e3 /
					  (double)row->sent;
			row->rcv_cpu_us = (double)host_cpu(w->host[1]) / 1e3 /
					  (double)row->sent;
		}
	}
	world_free(w);
	return rc;
}

int ipx_b1sim_run(const struct ipx_b1sim_opts *o,
		  struct ipx_b1sim_report *out, char *err, size_t errlen)
{
	struct ipx_profile prof;
	uint32_t count = o->count ? o->count : IPX_B1_DEFAULT_COUNT;
	size_t size = o->size ? o->size : IPX_B1_DEFAULT_SIZE;
	int rc;

	if (err && errlen)
		err[0] = '\0';
	memset(out, 0, sizeof(*out));
	if (o->profile)
		prof = *o->profile;
	else if (o->period)
		prof = o->period->wire;
	else if ((rc = ipx_profile_named("tr4", &prof)) != IPX_OK)
		return rc;
	snprintf(out->profile, sizeof(out->profile), "%s", prof.name);
	if (o->period)
		snprintf(out->period, sizeof(out->period), "%s",
			 o->period->name);
	out->seed = o->seed;
	out->count = count;
	out->size = size;
	for (unsigned i = 0; i < IPX_B1SIM_ROWS; i++) {
		rc = run_kind(&prof, o, count, size, ipx_b1sim_kinds[i],
			      &out->row[i], err, errlen);
		if (rc != IPX_OK)
			return rc;
	}
	return IPX_OK;
}

void ipx_b1sim_fidelity(const struct ipx_b1sim_report *model,
			const struct ipx_b1sim_report *today,
			struct ipx_fid_table *t)
{
	static const char *const label[IPX_B1SIM_ROWS] = {
		"IPX", "SPX", "NetBIOS datagram", "NetBIOS session",
	};

	ipx_fid_init(t, "B1: packets per second", "pkt/s", model->period);
	if (today)
		snprintf(t->today_what, sizeof(t->today_what),
			 "the wire alone (--sim, %s)", today->profile);
	for (unsigned i = 0; i < IPX_B1SIM_ROWS; i++)
		ipx_fid_add(t, label[i], model->row[i].ref_pps,
			    model->row[i].pps,
			    today ? today->row[i].pps : NAN);
}
