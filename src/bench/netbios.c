/*
 * netbios.c - the NetBIOS benchmark (ipxlab/bench_netbios.h): the passes
 * of five workloads on the harness's two agents (pair.c), each row's
 * figures, the summaries over the runs (bench_stat.h), and the report as
 * JSON and CSV (bench_result.h).
 */
#include "ipxlab/bench_netbios.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ipxlab/bench_result.h"
#include "ipxlab/err.h"
#include "ipxlab/ipx.h"
#include "ipxlab/link_udp.h"
#include "ipxlab/netbios.h"

const struct ipx_bnb_row_info ipx_bnb_rows[IPX_BNB_ROWS] = {
	[IPX_BNB_RTT] = { "ipx_round_trips", "/s", true, IPX_BW_RTT },
	[IPX_BNB_IPX] = { "ipx_datagrams", "pkt/s", false, IPX_BW_IPX },
	[IPX_BNB_NB] = { "netbios_datagrams", "pkt/s", false,
			 IPX_BW_NB_DGRAM },
	[IPX_BNB_SESSION] = { "session_messages", "msg/s", true,
			      IPX_BW_NB_SESSION },
	[IPX_BNB_BIG] = { "session_64k_messages", "msg/s", true,
			  IPX_BW_NB_SESSION },
};

const int ipx_bnb_session_data = IPX_UDP_MTU - IPX_HDR_LEN - NB_SESS_HDR_LEN;

struct ipx_stat_summary ipx_bnb_spread(const struct ipx_bnb_report *rep,
				       enum ipx_bnb_row r,
				       enum ipx_bnb_figure f)
{
	double v[IPX_BNB_MAX_REPEAT];
	struct ipx_stat_summary s;

	for (unsigned long i = 0; i < rep->done; i++) {
		const struct ipx_bnb_rate *x = &rep->runs[i][r];

		v[i] = f == IPX_BNB_RATE ? x->rate
		       : f == IPX_BNB_P50 ? x->p50_us
					  : x->p99_us;
	}
	ipx_stat_summarize(v, rep->done, &s);
	return s;
}

double ipx_bnb_loss(const struct ipx_bnb_report *rep, enum ipx_bnb_row r)
{
	uint64_t sent = 0, delivered = 0;

	for (unsigned long i = 0; i < rep->done; i++) {
		const struct ipx_bnb_rate *x = &rep->runs[i][r];

		sent += x->sent;
		delivered += x->delivered < x->sent ? x->delivered : x->sent;
	}
	return sent ? (double)(sent - delivered) / (double)sent : 0;
}

static void params_of(const struct ipx_bnb_opts *o, enum ipx_bnb_row r, double seconds,
		      struct ipx_bw_params *w)
{
	memset(w, 0, sizeof(*w));
	w->kind = ipx_bnb_rows[r].kind;
	w->seconds = seconds;
	w->size = r == IPX_BNB_RTT ? IPX_BNB_ECHO_SIZE : r == IPX_BNB_BIG ? NB_MAX_MESSAGE : o->size;
	if (r == IPX_BNB_IPX || r == IPX_BNB_NB)
		w->window = o->window;
}

static void rate_of(enum ipx_bnb_row r, const struct ipx_bpair_run *x,
		    struct ipx_bnb_rate *out)
{
	const struct ipx_bw_result *s = &x->snd, *d = &x->rcv;

	memset(out, 0, sizeof(*out));
	if (ipx_bnb_rows[r].timed) {
		out->seconds = s->seconds;
		out->count = s->sent;
		out->rate = s->pps;
		out->p50_us = (double)ipx_hist_percentile(&s->lat, 50) / 1e3;
		out->p99_us = (double)ipx_hist_percentile(&s->lat, 99) / 1e3;
	} else {	/* datagrams: what arrived */
		out->seconds = d->seconds;
		out->count = d->delivered;
		out->rate = d->pps;
		out->sent = s->sent;
		out->delivered = d->delivered;
		out->stalls = s->stalls;
	}
	out->retransmits = s->retransmits;
}

/* One row of one run as its JSON object shows it (bench_result.h). */
#define RF(M, NAME, FMT, TYPE) \
	IPX_RF(struct ipx_bnb_rate, M, NAME, "", FMT, TYPE, IPX_RF_JSON)
static const struct ipx_rfield rate_fields[] = {
	RF(rate, "rate", "%.1f", IPX_RF_DOUBLE),
	RF(count, "count", NULL, IPX_RF_U64),
	RF(seconds, "seconds", "%.4f", IPX_RF_DOUBLE),
	RF(p50_us, "p50_us", "%.1f", IPX_RF_DOUBLE),
	RF(p99_us, "p99_us", "%.1f", IPX_RF_DOUBLE),
	RF(sent, "sent", NULL, IPX_RF_U64),
	RF(delivered, "delivered", NULL, IPX_RF_U64),
	RF(stalls, "stalls", NULL, IPX_RF_U64),
};
static const struct ipx_rtable rate_table = IPX_RTABLE("row", rate_fields);

void ipx_bnb_write_json(FILE *out, const struct ipx_bnb_opts *o,
			const struct ipx_bnb_report *rep,
			ipx_bnb_conditions_fn cond, const void *ctx)
{
	const struct ipx_bnb_rate(*res)[IPX_BNB_ROWS] = rep->runs;
	struct ipx_jw w;

	ipx_jw_init(&w, out);
	ipx_jw_obj(&w, NULL);
	ipx_jw_str(&w, "benchmark", "netbios");
	if (rep->interrupted)
		ipx_jw_bool(&w, "complete", false);
	if (cond)
		cond(&w, ctx);
	ipx_jw_u64(&w, "size", o->size);
	ipx_jw_u64(&w, "window", o->window);
	ipx_jw_dbl(&w, "seconds", "%g", o->seconds);
	ipx_jw_u64(&w, "repeat", rep->done);
	ipx_jw_dbl(&w, "warmup", "%g", IPX_BNB_WARMUP);
	ipx_jw_null(&w, "ref_1990");
	ipx_jw_arr(&w, "runs");
	for (unsigned long i = 0; i < rep->done; i++) {
		ipx_jw_obj(&w, NULL);
		ipx_jw_int(&w, "session_packet_data", ipx_bnb_session_data);
		ipx_jw_u64(&w, "session_retransmits",
			   res[i][IPX_BNB_SESSION].retransmits +
				   res[i][IPX_BNB_BIG].retransmits);
		for (int k = 0; k < IPX_BNB_ROWS; k++)
			ipx_res_json_row(&w, ipx_bnb_rows[k].json, &rate_table,
					 &res[i][k]);
		ipx_jw_end(&w);
	}
	ipx_jw_end(&w);
	ipx_jw_obj(&w, "summary");
	for (int k = 0; k < IPX_BNB_ROWS; k++) {
		struct ipx_stat_summary s = ipx_bnb_spread(rep, k, IPX_BNB_RATE);

		ipx_jw_obj(&w, ipx_bnb_rows[k].json);
		ipx_jw_summary(&w, "rate", "%.6g", &s);
		ipx_jw_dbl(&w, "p50_us", "%.6g",
			   ipx_bnb_spread(rep, k, IPX_BNB_P50).median);
		ipx_jw_dbl(&w, "loss", "%.6g", ipx_bnb_loss(rep, k));
		ipx_jw_end(&w);
	}
	ipx_jw_end(&w);
	ipx_jw_finish(&w);
}

/* The CSV: one line per row (timed rows: p50 and p99; others: loss). */
struct csv_line {
	const char *row, *unit;
	struct ipx_stat_summary s;
	double p50, p99, loss;	/* NAN: an empty cell */
};

#define CF(M, NAME, FMT, TYPE) \
	IPX_RF(struct csv_line, M, NAME, "", FMT, TYPE, IPX_RF_CSV)
static const struct ipx_rfield csv_fields[] = {
	CF(row, "row", NULL, IPX_RF_STR),
	CF(unit, "unit", NULL, IPX_RF_STR),
	CF(s.median, "rate_median", "%.1f", IPX_RF_DOUBLE),
	CF(s.min, "rate_min", "%.1f", IPX_RF_DOUBLE),
	CF(s.max, "rate_max", "%.1f", IPX_RF_DOUBLE),
	CF(p50, "p50_us", "%.1f", IPX_RF_DOUBLE),
	CF(p99, "p99_us", "%.1f", IPX_RF_DOUBLE),
	CF(loss, "loss", "%.6f", IPX_RF_DOUBLE),
};
static const struct ipx_rtable csv_table = IPX_RTABLE("netbios", csv_fields);

void ipx_bnb_write_csv(FILE *out, const struct ipx_bnb_report *rep)
{
	ipx_res_csv_header(out, &csv_table);
	for (int k = 0; k < IPX_BNB_ROWS; k++) {
		struct csv_line l = {
			ipx_bnb_rows[k].json, ipx_bnb_rows[k].unit,
			ipx_bnb_spread(rep, k, IPX_BNB_RATE), NAN, NAN, NAN,
		};

		if (ipx_bnb_rows[k].timed) {
			l.p50 = ipx_bnb_spread(rep, k, IPX_BNB_P50).median;
			l.p99 = ipx_bnb_spread(rep, k, IPX_BNB_P99).median;
		} else {
			l.loss = ipx_bnb_loss(rep, k);
		}
		ipx_res_csv_row(out, &csv_table, &l);
	}
}

/* One pass of every row; pass 0 is the warm-up (not kept). */
static int pass(const struct ipx_bnb_opts *o, struct ipx_bpair *b, unsigned i,
		struct ipx_bnb_rate *out, char *err, size_t errlen)
{
	for (int k = 0; k < IPX_BNB_ROWS; k++) {
		struct ipx_bw_params w;
		struct ipx_bpair_run x;
		char label[64];
		int rc;

		params_of(o, (enum ipx_bnb_row)k, i ? o->seconds : IPX_BNB_WARMUP, &w);
		snprintf(label, sizeof(label), "%s, %s", ipx_bnb_rows[k].json,
			 i ? "run" : "warm-up");
		if (i)
			snprintf(label + strlen(label),
				 sizeof(label) - strlen(label), " %u", i);
		rc = ipx_bpair_run(b, label, i, &w, -1, -1, &x, err, errlen);
		if (rc != IPX_OK)
			return rc;
		rate_of((enum ipx_bnb_row)k, &x, &out[k]);
	}
	return IPX_OK;
}

static int passes(const struct ipx_bnb_opts *o, const struct ipx_bnb_hooks *h,
		  struct ipx_bnb_report *rep, char *err, size_t errlen)
{
	struct ipx_bnb_rate warm[IPX_BNB_ROWS];
	int rc = ipx_bpair_start(&rep->net, NULL, err, errlen);

	if (rc != IPX_OK)
		return rc;
	if (h && h->ready)
		h->ready(h->ctx, rep);
	rc = pass(o, &rep->net, 0, warm, err, errlen);
	for (unsigned i = 1; rc == IPX_OK && i <= o->repeat; i++) {
		rc = pass(o, &rep->net, i, rep->runs[i - 1], err, errlen);
		rep->done = rc == IPX_OK ? i : rep->done;
	}
	if (rc != IPX_OK && ipx_bpair_interrupted(&rep->net, rc)) {
		rep->interrupted = true;
		rc = IPX_OK;
	}
	return rc;
}

int ipx_bnb_run(const struct ipx_bnb_opts *o, const struct ipx_bnb_hooks *h,
		struct ipx_bnb_report *rep, char *err, size_t errlen)
{
	struct ipx_bpair net = rep->net;
	int rc;

	if (o->repeat < 1 || o->repeat > IPX_BNB_MAX_REPEAT) {
		snprintf(err, errlen, "repeat %lu is not 1 to %d", o->repeat,
			 IPX_BNB_MAX_REPEAT);
		return IPX_EINVAL;
	}
	ipx_bpair_reset(&net);
	memset(rep, 0, sizeof(*rep));
	rep->net = net;
	rep->net.planned = IPX_BNB_ROWS *
			   (IPX_BNB_WARMUP + o->seconds * (double)o->repeat);
	rc = passes(o, h, rep, err, errlen);
	ipx_bpair_stop(&rep->net, rc == IPX_OK && !rep->interrupted);
	return rc;
}
