/*
 * protocols.c - B1, the protocol comparison (ipxlab/bench_b1.h): the
 * schedule of runs on the harness, and the summary of repeated passes
 * into rows, ratios, the 1990 reference and the targets.
 */
#include "ipxlab/bench_b1.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/err.h"

const enum ipx_bw_kind ipx_b1_rows[IPX_B1_ROWS] = {
	IPX_BW_IPX,	 IPX_BW_SPX,	    IPX_BW_SPX2,
	IPX_BW_NB_DGRAM, IPX_BW_NB_SESSION, IPX_BW_UDP,
};

/* The order of one pass (reversed every other pass, so that no kind
 * always runs first after a warm machine or last before a tired one). */
static const enum ipx_bw_kind schedule[IPX_B1_KINDS] = {
	IPX_BW_UDP,	 IPX_BW_IPX,	    IPX_BW_SPX, IPX_BW_SPX2,
	IPX_BW_NB_DGRAM, IPX_BW_NB_SESSION, IPX_BW_RTT,
};

/* 8 MHz 80286 machines on 4 Mbit/s Token-Ring (the AppNote). */
double ipx_b1_ref_pps(enum ipx_bw_kind k)
{
	switch (k) {
	case IPX_BW_IPX:
		return 366.0;
	case IPX_BW_SPX:
		return 140.3;
	case IPX_BW_NB_DGRAM:
		return 224.8;
	case IPX_BW_NB_SESSION:
		return 135.9;
	default:
		return 0;
	}
}

const char *ipx_b1_why(enum ipx_bw_kind k)
{
	switch (k) {
	case IPX_BW_IPX:
		return "the base: every other interface is built on IPX";
	case IPX_BW_SPX:
		return "acknowledges every packet, plus connection upkeep";
	case IPX_BW_SPX2:
		return "not in 1990: a window in flight, ACKs now and then";
	case IPX_BW_NB_DGRAM:
		return "IPX datagrams plus the NetBIOS emulator's header";
	case IPX_BW_NB_SESSION:
		return "the NetBIOS emulator is stop-and-wait: one packet, "
		       "one ACK";
	case IPX_BW_UDP:
		return "not in 1990: plain UDP of the same path, no IPX, "
		       "no hub";
	case IPX_BW_RTT:
		return "an IPX echo of the same size: what stop-and-wait "
		       "allows";
	default:
		return "";
	}
}

static const char *const pin_names[] = { "split", "same", "none" };

const char *ipx_b1_pin_name(enum ipx_b1_pin p)
{
	return p <= IPX_B1_PIN_NONE ? pin_names[p] : "?";
}

int ipx_b1_pin_parse(const char *text, enum ipx_b1_pin *out)
{
	for (int i = 0; i <= IPX_B1_PIN_NONE; i++)
		if (!strcmp(text, pin_names[i])) {
			*out = (enum ipx_b1_pin)i;
			return IPX_OK;
		}
	return IPX_EINVAL;
}

int ipx_b1_pin_cpu(enum ipx_b1_pin p, enum ipx_bw_role role)
{
	switch (p) {
	case IPX_B1_PIN_SPLIT:
		return role == IPX_BW_SENDER ? 0 : 1;
	case IPX_B1_PIN_SAME:
		return 0;
	default:
		return -1;
	}
}

/* ---- the summary ---- */

static double carried(const struct ipx_b1_sample *s)
{
	double share, rate;

	if (!s->snd.sent)
		return 0;
	share = (double)s->rcv.delivered / (double)s->snd.sent;
	rate = s->snd.pps * (share > 1 ? 1 : share);
	/* A sender can hand datagrams to its socket faster than the path
	 * takes them (they wait in buffers, or are lost): what the path
	 * carried is at most what the receiver saw per second. */
	if (s->rcv.pps > 0 && s->rcv.pps < rate)
		rate = s->rcv.pps;
	return rate;
}

static void summarize_row(const struct ipx_b1_sample *s, unsigned repeat,
			  enum ipx_bw_kind k, double *v,
			  struct ipx_b1_row *row)
{
	struct ipx_hist *h = malloc(sizeof(*h));

#define SUMMARY(field, expr)                                              \
	do {                                                              \
		for (unsigned r = 0; r < repeat; r++) {                   \
			const struct ipx_b1_sample *x =                   \
				&s[ipx_b1_index(r, k)];                   \
			v[r] = (expr);                                    \
		}                                                         \
		ipx_stat_summarize(v, repeat, &row->field);               \
	} while (0)

	memset(row, 0, sizeof(*row));
	row->kind = k;
	SUMMARY(pps, x->snd.pps);
	/* What the path carried, in bytes too (the sender's bytes per
	 * packet times the carried rate). */
	SUMMARY(kbps, x->snd.pps > 0 ? x->snd.kbps * carried(x) / x->snd.pps
				     : 0);
	SUMMARY(sent, (double)x->snd.sent);
	SUMMARY(delivered, (double)x->rcv.delivered);
	SUMMARY(loss, x->snd.sent && x->rcv.delivered < x->snd.sent
			      ? 1.0 - (double)x->rcv.delivered /
					      (double)x->snd.sent
			      : 0.0);
	SUMMARY(carried, carried(x));
	SUMMARY(retransmits, (double)x->snd.retransmits);
	SUMMARY(ratio_ipx,
		carried(&s[ipx_b1_index(r, IPX_BW_IPX)]) > 0
			? carried(x) / carried(&s[ipx_b1_index(r, IPX_BW_IPX)])
			: 0);
#undef SUMMARY
	if (h) {
		ipx_hist_init(h);
		for (unsigned r = 0; r < repeat; r++)
			ipx_hist_merge(h, &s[ipx_b1_index(r, k)].snd.lat);
		row->lat_count = h->count;
		row->lat_p50 = ipx_hist_percentile(h, 50);
		row->lat_p99 = ipx_hist_percentile(h, 99);
		row->lat_max = h->max;
		row->lat_mean = ipx_hist_mean(h);
		free(h);
	}
	row->ref_pps = ipx_b1_ref_pps(k);
	row->ref_ratio = row->ref_pps / ipx_b1_ref_pps(IPX_BW_IPX);
	row->cpu_snd = repeat ? s[ipx_b1_index(repeat - 1, k)].snd.cpu : -1;
	row->cpu_rcv = repeat ? s[ipx_b1_index(repeat - 1, k)].rcv.cpu : -1;
	row->why = ipx_b1_why(k);
}

/* Target t: the per-pass ratio num/den of the figures chosen by 'fig'. */
static void target(struct ipx_b1_report *out, const struct ipx_b1_sample *s,
		   unsigned repeat, double *v, enum ipx_b1_target_id t,
		   enum ipx_bw_kind num, bool num_carried,
		   enum ipx_bw_kind den, bool den_carried, double want,
		   const char *name, const char *what)
{
	struct ipx_b1_target *x = &out->target[t];

	for (unsigned r = 0; r < repeat; r++) {
		const struct ipx_b1_sample *a = &s[ipx_b1_index(r, num)];
		const struct ipx_b1_sample *b = &s[ipx_b1_index(r, den)];
		double n = num_carried ? carried(a) : a->snd.pps;
		double d = den_carried ? carried(b) : b->snd.pps;

		v[r] = d > 0 ? n / d : 0;
	}
	ipx_stat_summarize(v, repeat, &x->ratio);
	x->want = want;
	x->name = name;
	x->what = what;
	x->pass = repeat && x->ratio.median >= want;
}

void ipx_b1_summarize(const struct ipx_b1_sample *s, unsigned repeat,
		      struct ipx_b1_report *out)
{
	double v[IPX_B1_MAX_REPEAT];
	struct ipx_b1_sample *keep = out->samples;
	unsigned pass = out->pass;
	bool interrupted = out->interrupted;

	memset(out, 0, sizeof(*out));
	out->samples = keep;
	out->pass = pass;
	out->interrupted = interrupted;
	if (repeat > IPX_B1_MAX_REPEAT)
		repeat = IPX_B1_MAX_REPEAT;
	out->repeat = repeat;
	for (int k = 0; k < IPX_B1_KINDS; k++)
		summarize_row(s, repeat, (enum ipx_bw_kind)k, v, &out->row[k]);
	/* Datagram rows count what arrived: a sender cannot win by
	 * sending into loss. Session rows deliver everything they send. */
	target(out, s, repeat, v, IPX_B1_T_IPX_UDP, IPX_BW_IPX, true,
	       IPX_BW_UDP, true, IPX_B1_TARGET_IPX_UDP, "ipx/udp",
	       "IPX datagrams carried vs plain UDP carried (one hop)");
	target(out, s, repeat, v, IPX_B1_T_SPX2_IPX, IPX_BW_SPX2, false,
	       IPX_BW_IPX, true, IPX_B1_TARGET_SPX2_IPX, "spx2/ipx",
	       "SPX II vs IPX datagrams carried");
	target(out, s, repeat, v, IPX_B1_T_SPX_RTT, IPX_BW_SPX, false,
	       IPX_BW_RTT, false, IPX_B1_TARGET_STOP_WAIT, "spx/rtt",
	       "SPX vs the rate its measured round trip allows");
	target(out, s, repeat, v, IPX_B1_T_NBS_RTT, IPX_BW_NB_SESSION, false,
	       IPX_BW_RTT, false, IPX_B1_TARGET_STOP_WAIT, "nb-session/rtt",
	       "NetBIOS session vs the rate its round trip allows");
	out->all_pass = true;
	for (int t = 0; t < IPX_B1_TARGETS; t++)
		out->all_pass &= out->target[t].pass;
}

/* ---- the runs ---- */

static void fill_task(struct ipx_hctl_task *t, size_t agent,
		      enum ipx_bw_role role, enum ipx_bw_kind k,
		      const struct ipx_b1_opts *o)
{
	memset(t, 0, sizeof(*t));
	t->agent = agent;
	t->role = role;
	t->cpu = ipx_b1_pin_cpu(o->pin, role);
	t->params.kind = k;
	t->params.count = o->count;
	t->params.seconds = o->count ? 0 : o->seconds;
	t->params.size = o->size;
	t->params.drain = o->drain;
	t->peer = role == IPX_BW_SENDER ? 1 : -1;
}

static ipx_time run_bound(const struct ipx_b1_opts *o)
{
	double s = o->timeout;

	if (s <= 0)
		s = o->count ? 10 + o->count * 0.005 : o->seconds + 10;
	return (ipx_time)(s * IPX_SEC);
}

/* The progress line of a run: "warm-up: IPX", "run 2/5: SPX". */
static void say(const struct ipx_b1_opts *o, unsigned pass,
		enum ipx_bw_kind k, ipx_bench_progress_fn progress, void *ctx)
{
	char line[96];

	if (!progress)
		return;
	if (pass)
		snprintf(line, sizeof(line), "run %u/%u: %s", pass, o->repeat,
			 ipx_b1_row_name(k, o->eth));
	else
		snprintf(line, sizeof(line), "warm-up: %s",
			 ipx_b1_row_name(k, o->eth));
	progress(ctx, line);
}

/* One run of kind k in pass 'pass' (0: the warm-up), its samples kept. */
static int run_one(const struct ipx_b1_opts *o, struct ipx_hctl_run *run,
		   unsigned pass, enum ipx_bw_kind k,
		   struct ipx_b1_report *rep, char *err, size_t errlen)
{
	struct ipx_hctl_task task[2];
	struct ipx_bw_result res[2];
	char label[64];
	int rc;

	run->tasks = task;
	fill_task(&task[0], o->sender, IPX_BW_SENDER, k, o);
	fill_task(&task[1], o->receiver, IPX_BW_RECEIVER, k, o);
	if (pass)
		snprintf(label, sizeof(label), "%s run %u",
			 ipx_bw_kind_name(k), pass);
	else
		snprintf(label, sizeof(label), "%s warm-up",
			 ipx_bw_kind_name(k));
	run->label = label;
	run->repeat = (uint16_t)pass;
	rc = ipx_hctl_run(o->ctl, run, res, err, errlen);
	if (rc == IPX_OK && pass) {
		struct ipx_b1_sample *x =
			&rep->samples[ipx_b1_index(pass - 1, k)];

		x->snd = res[0];
		x->rcv = res[1];
	}
	return rc;
}

int ipx_b1_run(const struct ipx_b1_opts *o, ipx_bench_progress_fn progress,
	       void *ctx, struct ipx_b1_report *rep, char *err,
	       size_t errlen)
{
	struct ipx_hctl_run run = {
		.ntasks = 2,
		.ready_timeout = 15 * IPX_SEC,
		.run_timeout = run_bound(o),
		.finish_timeout = (ipx_time)((o->drain + 10) * IPX_SEC),
	};
	int rc = IPX_OK;

	memset(rep, 0, sizeof(*rep));
	rep->samples = calloc((size_t)o->repeat * IPX_B1_KINDS,
			      sizeof(*rep->samples));
	if (!rep->samples) {
		snprintf(err, errlen, "out of memory");
		return IPX_ENOMEM;
	}
	/* An explicit bound covers every wait, set-up included. */
	if (o->timeout > 0 && run.ready_timeout > run.run_timeout)
		run.ready_timeout = run.run_timeout;
	if (o->timeout > 0 && run.finish_timeout > run.run_timeout)
		run.finish_timeout = run.run_timeout;
	for (unsigned pass = 0; pass <= o->repeat && rc == IPX_OK; pass++) {
		for (int i = 0; i < IPX_B1_KINDS && rc == IPX_OK; i++) {
			enum ipx_bw_kind k =
				schedule[pass % 2 ? IPX_B1_KINDS - 1 - i : i];

			rep->pass = pass;
			say(o, pass, k, progress, ctx);
			rc = run_one(o, &run, pass, k, rep, err, errlen);
		}
	}
	if (progress)
		progress(ctx, NULL);	/* the line cleared */
	if (rc == IPX_OK)
		ipx_b1_summarize(rep->samples, o->repeat, rep);
	return rc;
}

unsigned ipx_b1_interrupted(struct ipx_b1_report *rep)
{
	unsigned done = rep->pass ? rep->pass - 1 : 0;

	rep->interrupted = true;
	if (done)
		ipx_b1_summarize(rep->samples, done, rep);
	return done;
}

void ipx_b1_report_free(struct ipx_b1_report *rep)
{
	free(rep->samples);
	rep->samples = NULL;
}
