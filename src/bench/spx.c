/*
 * spx.c - the whole SPX goodput benchmark (ipxlab/bench.h, "ipxlab bench
 * spx"): the schedule of runs x links x rows, the udp rows on the two
 * agents of the harness (pair.c), the mem rows in this process
 * (spxrate.c), and the ratios of each SPX row to the IPX row of its
 * packet size over the runs (bench_stat.h). Nothing here prints.
 */
#include "ipxlab/bench.h"

#include <stdio.h>
#include <string.h>

#include "ipxlab/err.h"
#include "ipxlab/loop.h"

double ipx_spxb_rtt_bound(const struct ipx_spxb_result *r)
{
	return r->srtt_us >= IPX_SPXB_MIN_SRTT_US
		       ? (double)r->payload / (r->srtt_us / 1e6)
		       : 0;
}

double ipx_spxb_ratio(const struct ipx_spxb_result *row,
		      const struct ipx_spxb_result *base)
{
	return base->goodput > 0 ? row->goodput / base->goodput : 0;
}

double ipx_spxb_other(const struct ipx_spxb_result *r)
{
	double o = r->machine_busy - r->cpu_sender - r->cpu_hub -
		   r->cpu_receiver;

	return o > 0 ? o : 0;
}

const struct ipx_spxb_result *ipx_spxb_base(const ipx_spxb_rows *run,
					    enum ipx_spxb_link l,
					    enum ipx_spxb_kind k)
{
	return &(*run)[l][k == IPX_SPXB_SPX1 ? IPX_SPXB_IPX_SMALL
					     : IPX_SPXB_IPX_LARGE];
}

void ipx_spxb_spread(const struct ipx_spxb_report *rep, enum ipx_spxb_link l,
		     enum ipx_spxb_kind k,
		     double (*f)(const struct ipx_spxb_result *r, void *ctx),
		     void *ctx, struct ipx_stat_summary *out)
{
	double v[IPX_SPXB_MAX_REPEAT];

	for (unsigned long i = 0; i < rep->done; i++)
		v[i] = f(&rep->runs[i][l][k], ctx);
	ipx_stat_summarize(v, rep->done, out);
}

/* The workload of a udp row: IPX datagrams under the credit window, or
 * SPX I / SPX II messages of a full packet each. */
static void udp_params(const struct ipx_spxb_opts *o, enum ipx_spxb_kind k,
		       unsigned run, struct ipx_spxb_result *out,
		       struct ipx_bw_params *w)
{
	memset(out, 0, sizeof(*out));
	memset(w, 0, sizeof(*w));
	out->link = IPX_SPXB_UDP;
	out->kind = k;
	out->packet = ipx_spxb_packet_size(o, IPX_SPXB_UDP, k);
	out->payload = ipx_spxb_payload(out->packet, k);
	w->kind = k == IPX_SPXB_SPX1   ? IPX_BW_SPX
		  : k == IPX_SPXB_SPX2 ? IPX_BW_SPX2
				       : IPX_BW_IPX;
	w->seconds = run ? o->seconds : o->warmup;
	w->size = out->payload;
	if (w->kind == IPX_BW_IPX) {
		w->window = o->ipx_window ? o->ipx_window
					  : ipx_bench_default_window(w->size);
		out->window = w->window;
	} else {
		w->spx_window = (uint16_t)o->spx_window;
		w->send_queue = (uint32_t)o->send_queue;
		out->version = k == IPX_SPXB_SPX1 ? 1 : 2;
		out->window = k == IPX_SPXB_SPX1 ? 1
			      : o->spx_window	 ? o->spx_window
						 : 32;
	}
}

/* One udp row on the harness: the sender agent runs the row's workload
 * to the receiver agent through the hub; goodput is what the receiver
 * counted over its first to last arrival. */
static int udp_row(struct ipx_bpair *net, const struct ipx_spxb_opts *o,
		   enum ipx_spxb_kind k, unsigned run,
		   struct ipx_spxb_result *out, char *err, size_t errlen)
{
	struct ipx_bw_params w;
	struct ipx_bpair_run x;
	double win, ours, other;
	char label[48];
	int rc;

	udp_params(o, k, run, out, &w);
	snprintf(label, sizeof(label), "udp %s %s", ipx_spxb_kind_name(k),
		 run ? "run" : "warm-up");
	if (run)
		snprintf(label + strlen(label), sizeof(label) - strlen(label),
			 " %u", run);
	rc = ipx_bpair_run(net, label, run, &w, -1, -1, &x, err, errlen);
	if (rc != IPX_OK)
		return rc;
	out->seconds = x.rcv.seconds;
	out->bytes = x.rcv.bytes;
	out->packets = x.rcv.delivered;
	out->goodput = x.rcv.kbps * 1000;
	out->pps = x.rcv.pps;
	out->srtt_us = x.snd.srtt_us;
	out->retransmits = x.snd.retransmits;
	out->tx_data = out->version ? x.snd.sent : 0;
	out->sent = x.snd.sent;
	out->delivered = x.rcv.delivered;
	win = x.snd.seconds;
	if (win > 0) {
		out->cpu_sender = (x.snd.cpu_user + x.snd.cpu_sys) / win;
		out->cpu_receiver = (x.rcv.cpu_user + x.rcv.cpu_sys) / win;
		out->cpu_hub = x.hub_cpu > 0 ? x.hub_cpu / win : 0;
	}
	/* machine_busy is kept as this row's processes over the sending
	 * plus everything else over the whole run, so that 'other' is the
	 * rest of the machine's load */
	ours = x.snd.cpu_user + x.snd.cpu_sys + x.rcv.cpu_user +
	       x.rcv.cpu_sys + (x.hub_cpu > 0 ? x.hub_cpu : 0);
	other = x.wall > 0 ? x.machine_busy - ours / x.wall : 0;
	out->machine_busy = out->cpu_sender + out->cpu_hub + out->cpu_receiver +
			    (other > 0 ? other : 0);
	return IPX_OK;
}

static void progress(const struct ipx_spxb_hooks *h, enum ipx_spxb_event ev,
		     const struct ipx_spxb_report *rep, unsigned long run,
		     enum ipx_spxb_kind k)
{
	if (h && h->progress)
		h->progress(h->ctx, ev, rep, run, k);
}

/* Did a signal (on the network's loop) or the caller end the run? */
static bool stopped(const struct ipx_spxb_hooks *h, struct ipx_bpair *net,
		    int rc)
{
	if (ipx_bpair_interrupted(net, rc))
		return true;
	/* between rows: a signal not read yet is the caller's to see */
	return h && h->cancelled && h->cancelled(h->ctx);
}

/* An interruption, or the error in err with the row named in front. */
static int row_failed(const struct ipx_spxb_hooks *h,
		      struct ipx_spxb_report *rep, int rc, const char *row,
		      char *err, size_t errlen)
{
	char why[400];

	if (stopped(h, &rep->net, rc)) {
		rep->interrupted = true;
		return IPX_OK;
	}
	snprintf(why, sizeof(why), "%s", err);
	snprintf(err, errlen, "%s: %s", row, why);
	return rc;
}

/* Run i: every row of the chosen links, backwards when i is odd. */
static int one_run(const struct ipx_spxb_bench_opts *o,
		   const struct ipx_spxb_hooks *h, struct ipx_spxb_report *rep,
		   unsigned long i, char *err, size_t errlen)
{
	for (int n = 0; n < IPX_SPXB_LINKS * IPX_SPXB_KINDS; n++) {
		int m = i % 2 ? IPX_SPXB_LINKS * IPX_SPXB_KINDS - 1 - n : n;
		enum ipx_spxb_link l = (enum ipx_spxb_link)(m / IPX_SPXB_KINDS);
		enum ipx_spxb_kind k = (enum ipx_spxb_kind)(m % IPX_SPXB_KINDS);
		struct ipx_spxb_result *r = &rep->runs[i][l][k];
		char row[64];
		int rc;

		if (!o->links[l])
			continue;
		if (stopped(h, &rep->net, IPX_OK)) {
			rep->interrupted = true;
			return IPX_OK;
		}
		if (l == IPX_SPXB_MEM)
			progress(h, IPX_SPXB_EV_MEM_ROW, rep, i + 1, k);
		rc = l == IPX_SPXB_UDP
			     ? udp_row(&rep->net, &o->row, k, (unsigned)i + 1,
				       r, err, errlen)
			     : ipx_spxb_run(&o->row, l, k, r, err, errlen);
		snprintf(row, sizeof(row), "%s %s, run %lu",
			 ipx_spxb_link_name(l), ipx_spxb_kind_name(k), i + 1);
		if (rc != IPX_OK)
			return row_failed(h, rep, rc, row, err, errlen);
		if (l == IPX_SPXB_MEM)
			rep->net.spent += o->row.warmup + o->row.seconds;
	}
	return IPX_OK;
}

/* The ratios over the done runs, and whether the target was met. */
static void summarize(const struct ipx_spxb_bench_opts *o,
		      struct ipx_spxb_report *rep)
{
	double v[IPX_SPXB_MAX_REPEAT];

	rep->met_all = true;
	for (int l = 0; l < IPX_SPXB_LINKS; l++) {
		for (int k = 0; k < IPX_SPXB_KINDS; k++) {
			for (unsigned long i = 0; i < rep->done; i++)
				v[i] = ipx_spxb_ratio(
					&rep->runs[i][l][k],
					ipx_spxb_base(
						(const ipx_spxb_rows *)&rep->runs[i],
						(enum ipx_spxb_link)l,
						(enum ipx_spxb_kind)k));
			ipx_stat_summarize(v, rep->done, &rep->ratio[l][k]);
		}
		rep->met[l] = rep->ratio[l][IPX_SPXB_SPX2].median >=
			      IPX_SPXB_TARGET_RATIO;
		if (o->links[l] && !rep->met[l])
			rep->met_all = false;
	}
}

/* The uncounted udp pass (the agents stay up between runs; a mem row
 * warms up on its own, in its own process). */
static int warm_up(const struct ipx_spxb_bench_opts *o,
		   const struct ipx_spxb_hooks *h, struct ipx_spxb_report *rep,
		   char *err, size_t errlen)
{
	struct ipx_spxb_result warm;
	char row[64];

	for (int k = 0; o->links[IPX_SPXB_UDP] && o->row.warmup > 0 &&
			k < IPX_SPXB_KINDS;
	     k++) {
		int rc = udp_row(&rep->net, &o->row, (enum ipx_spxb_kind)k, 0,
				 &warm, err, errlen);

		snprintf(row, sizeof(row), "udp %s, warm-up",
			 ipx_spxb_kind_name((enum ipx_spxb_kind)k));
		if (rc != IPX_OK)
			return row_failed(h, rep, rc, row, err, errlen);
	}
	return IPX_OK;
}

static int schedule(const struct ipx_spxb_bench_opts *o,
		    const struct ipx_spxb_hooks *h, struct ipx_spxb_report *rep,
		    char *err, size_t errlen)
{
	int rc;

	if (o->links[IPX_SPXB_UDP]) {
		rc = ipx_bpair_start(&rep->net, NULL, err, errlen);
		if (rc != IPX_OK)
			return rc;
	}
	progress(h, IPX_SPXB_EV_READY, rep, 0, IPX_SPXB_IPX_SMALL);
	rc = warm_up(o, h, rep, err, errlen);
	for (unsigned long i = 0;
	     rc == IPX_OK && !rep->interrupted && i < o->repeat; i++) {
		rc = one_run(o, h, rep, i, err, errlen);
		if (rc == IPX_OK && !rep->interrupted) {
			rep->done = i + 1;
			progress(h, IPX_SPXB_EV_RUN, rep, i + 1,
				 IPX_SPXB_IPX_SMALL);
		}
	}
	return rc;
}

int ipx_spxb_bench(const struct ipx_spxb_bench_opts *o,
		   const struct ipx_spxb_hooks *h,
		   struct ipx_spxb_report *rep, char *err, size_t errlen)
{
	struct ipx_bpair net = rep->net;
	int rc;

	if (o->repeat < 1 || o->repeat > IPX_SPXB_MAX_REPEAT) {
		snprintf(err, errlen, "repeat %lu is not 1 to %d", o->repeat,
			 IPX_SPXB_MAX_REPEAT);
		return IPX_EINVAL;
	}
	ipx_bpair_reset(&net);
	memset(rep, 0, sizeof(*rep));
	rep->net = net;
	rep->net.planned = IPX_SPXB_KINDS *
			   (o->links[IPX_SPXB_UDP] + o->links[IPX_SPXB_MEM]) *
			   (o->row.warmup + o->row.seconds * (double)o->repeat);
	rc = schedule(o, h, rep, err, errlen);
	summarize(o, rep);
	ipx_bpair_stop(&rep->net, rc == IPX_OK && !rep->interrupted);
	return rc;
}
