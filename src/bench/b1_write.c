/*
 * b1_write.c - B1's writers (ipxlab/bench_b1.h): the names of its rows
 * and targets, and its JSON and CSV through the one result writer
 * (bench_result.h).
 */
#include <math.h>
#include <string.h>

#include "ipxlab/bench_b1.h"
#include "ipxlab/bench_result.h"

const char *ipx_b1_row_name(enum ipx_bw_kind k, bool eth)
{
	static const char *const names[IPX_B1_KINDS] = {
		[IPX_BW_IPX] = "IPX",
		[IPX_BW_SPX] = "SPX",
		[IPX_BW_SPX2] = "SPX II",
		[IPX_BW_NB_DGRAM] = "NetBIOS datagram",
		[IPX_BW_NB_SESSION] = "NetBIOS session",
		[IPX_BW_UDP] = "UDP (baseline)",
		[IPX_BW_RTT] = "IPX round trip",
	};

	if (k == IPX_BW_UDP && eth)
		return "Ethernet baseline";
	return k < IPX_B1_KINDS ? names[k] : "?";
}

const char *ipx_b1_row_why(enum ipx_bw_kind k, bool eth)
{
	if (k == IPX_BW_UDP && eth)
		return "not in 1990: plain frames between the same "
		       "interfaces, no IPX";
	return ipx_b1_why(k);
}

const char *ipx_b1_target_name(const struct ipx_b1_report *rep, int t,
			       bool eth)
{
	return t == IPX_B1_T_IPX_UDP && eth ? "ipx/eth" : rep->target[t].name;
}

const char *ipx_b1_target_what(const struct ipx_b1_report *rep, int t,
			       bool eth)
{
	return t == IPX_B1_T_IPX_UDP && eth
		       ? "IPX datagrams carried vs plain frames carried "
			 "(same interfaces)"
		       : rep->target[t].what;
}

int ipx_b1_row_target(enum ipx_bw_kind k)
{
	switch (k) {
	case IPX_BW_IPX:
		return IPX_B1_T_IPX_UDP;
	case IPX_BW_SPX2:
		return IPX_B1_T_SPX2_IPX;
	case IPX_BW_SPX:
		return IPX_B1_T_SPX_RTT;
	case IPX_BW_NB_SESSION:
		return IPX_B1_T_NBS_RTT;
	default:
		return -1;
	}
}

/* ---- JSON ---- */

#define SUMFMT "%.6g"

static void json_latency(struct ipx_jw *w, const struct ipx_b1_row *x)
{
	if (!x->lat_count) {
		ipx_jw_null(w, "latency_us");
		return;
	}
	ipx_jw_obj(w, "latency_us");
	ipx_jw_dbl(w, "p50", "%.3f", x->lat_p50 / 1e3);
	ipx_jw_dbl(w, "p99", "%.3f", x->lat_p99 / 1e3);
	ipx_jw_dbl(w, "max", "%.3f", x->lat_max / 1e3);
	ipx_jw_dbl(w, "mean", "%.3f", x->lat_mean / 1e3);
	ipx_jw_end(w);
}

/* Every counted pass as measured: the sender's rate, the receiver's
 * count. */
static void json_runs(struct ipx_jw *w, const struct ipx_b1_report *rep,
		      const struct ipx_b1_sample *samples, enum ipx_bw_kind k)
{
	ipx_jw_arr(w, "runs");
	for (unsigned i = 0; i < rep->repeat; i++) {
		const struct ipx_b1_sample *x = &samples[ipx_b1_index(i, k)];

		ipx_jw_obj(w, NULL);
		ipx_jw_dbl(w, "pps", "%.1f", x->snd.pps);
		ipx_jw_u64(w, "sent", x->snd.sent);
		ipx_jw_u64(w, "delivered", x->rcv.delivered);
		ipx_jw_arr(w, "cpu");
		ipx_jw_int(w, NULL, x->snd.cpu);
		ipx_jw_int(w, NULL, x->rcv.cpu);
		ipx_jw_end(w);
		ipx_jw_end(w);
	}
	ipx_jw_end(w);
}

static void json_row(struct ipx_jw *w, const char *key,
		     const struct ipx_b1_report *rep,
		     const struct ipx_b1_sample *samples,
		     const struct ipx_b1_row *x, bool eth)
{
	int t = ipx_b1_row_target(x->kind);

	ipx_jw_obj(w, key);
	ipx_jw_str(w, "kind", ipx_bw_kind_name(x->kind));
	ipx_jw_str(w, "name", ipx_b1_row_name(x->kind, eth));
	ipx_jw_summary(w, "pps", SUMFMT, &x->pps);
	ipx_jw_summary(w, "carried_kB_per_s", SUMFMT, &x->kbps);
	ipx_jw_summary(w, "sent", SUMFMT, &x->sent);
	ipx_jw_summary(w, "delivered", SUMFMT, &x->delivered);
	ipx_jw_summary(w, "loss", SUMFMT, &x->loss);
	ipx_jw_summary(w, "carried_pps", SUMFMT, &x->carried);
	ipx_jw_summary(w, "ratio_ipx", SUMFMT, &x->ratio_ipx);
	ipx_jw_summary(w, "retransmits", SUMFMT, &x->retransmits);
	json_latency(w, x);
	ipx_jw_dbl(w, "ref_1990_pps", "%.1f", x->ref_pps > 0 ? x->ref_pps
							     : NAN);
	ipx_jw_dbl(w, "ref_1990_ratio_ipx", "%.4f",
		   x->ref_pps > 0 ? x->ref_ratio : NAN);
	if (t >= 0)
		ipx_jw_str(w, "target", ipx_b1_target_name(rep, t, eth));
	json_runs(w, rep, samples, x->kind);
	ipx_jw_obj(w, "cpu");
	ipx_jw_int(w, "sender", x->cpu_snd);
	ipx_jw_int(w, "receiver", x->cpu_rcv);
	ipx_jw_end(w);
	ipx_jw_str(w, "why", ipx_b1_row_why(x->kind, eth));
	ipx_jw_end(w);
}

static void json_config(struct ipx_jw *w, const struct ipx_b1_opts *o,
			const struct ipx_b1_report *rep,
			const struct ipx_b1_where *wh)
{
	char link[300];

	ipx_jw_obj(w, "config");
	ipx_jw_u64(w, "count", o->count);
	ipx_jw_dbl(w, "seconds", "%g", o->count ? 0 : o->seconds);
	ipx_jw_u64(w, "size", o->size);
	ipx_jw_u64(w, "repeat", rep->repeat);
	ipx_jw_int(w, "warmup", 1);
	ipx_jw_str(w, "pin", ipx_b1_pin_name(o->pin));
	snprintf(link, sizeof(link), "hub:%s", wh->hubtext);
	ipx_jw_str(w, "hub", wh->link ? NULL : wh->hubtext);
	ipx_jw_str(w, "link", wh->link ? wh->hubtext : link);
	ipx_jw_int(w, "hub_cpu", wh->hub_cpu);
	ipx_jw_str(w, "baseline", wh->link ? "ethernet frames" : "udp");
	ipx_jw_arr(w, "agents");
	for (size_t i = 0; i < ipx_hctl_agent_count(wh->ctl); i++) {
		const struct ipx_hctl_agent *g = ipx_hctl_agent_at(wh->ctl, i);

		ipx_jw_obj(w, NULL);
		ipx_jw_str(w, "role", i ? "receiver" : "sender");
		ipx_jw_str(w, "name", g->name);
		ipx_jw_u64(w, "pid", g->pid);
		ipx_jw_u64(w, "cpus", g->cpus);
		ipx_jw_end(w);
	}
	ipx_jw_end(w);
	ipx_jw_end(w);
}

static void json_targets(struct ipx_jw *w, const struct ipx_b1_report *rep,
			 bool eth)
{
	ipx_jw_arr(w, "targets");
	for (int t = 0; t < IPX_B1_TARGETS; t++) {
		const struct ipx_b1_target *x = &rep->target[t];

		ipx_jw_obj(w, NULL);
		ipx_jw_str(w, "name", ipx_b1_target_name(rep, t, eth));
		ipx_jw_str(w, "what", ipx_b1_target_what(rep, t, eth));
		ipx_jw_summary(w, "ratio", SUMFMT, &x->ratio);
		ipx_jw_dbl(w, "want", "%.2f", x->want);
		ipx_jw_bool(w, "pass", x->pass);
		ipx_jw_end(w);
	}
	ipx_jw_end(w);
}

void ipx_b1_write_json(FILE *out, const struct ipx_b1_opts *o,
		       const struct ipx_b1_report *rep,
		       const struct ipx_b1_sample *samples,
		       const struct ipx_b1_where *wh)
{
	struct ipx_jw w;

	ipx_jw_init(&w, out);
	ipx_jw_obj(&w, NULL);
	ipx_jw_str(&w, "benchmark", "protocols");
	ipx_jw_str(&w, "spec", "B1");
	ipx_jw_bool(&w, "complete", wh->complete);
	json_config(&w, o, rep, wh);
	ipx_jw_arr(&w, "rows");
	for (int i = 0; i < IPX_B1_ROWS; i++)
		json_row(&w, NULL, rep, samples, &rep->row[ipx_b1_rows[i]],
			 wh->link);
	ipx_jw_end(&w);
	json_row(&w, "rtt", rep, samples, &rep->row[IPX_BW_RTT], wh->link);
	json_targets(&w, rep, wh->link);
	ipx_jw_bool(&w, "all_pass", rep->all_pass);
	ipx_jw_finish(&w);
}

void ipx_b1_write_json_empty(FILE *out)
{
	struct ipx_jw w;

	ipx_jw_init(&w, out);
	ipx_jw_obj(&w, NULL);
	ipx_jw_str(&w, "benchmark", "protocols");
	ipx_jw_str(&w, "spec", "B1");
	ipx_jw_bool(&w, "complete", false);
	ipx_jw_arr(&w, "rows");
	ipx_jw_finish(&w);
}

/* ---- CSV ---- */

/* One row of the table (the RTT row last). */
struct csv_line {
	const char *kind, *name;
	double pps_median, pps_min, pps_max;
	double carried_median, carried_min, carried_max, kbps;
	double sent, delivered, loss, ratio_ipx, ref_pps, ref_ratio;
	double lat_p50, lat_p99;
	int cpu_snd, cpu_rcv;
	const char *target;
	double target_ratio, target_want;
	const char *target_pass;
};

#define CF(M, NAME, FMT, TYPE) \
	IPX_RF(struct csv_line, M, NAME, "", FMT, TYPE, IPX_RF_CSV)
static const struct ipx_rfield csv_fields[] = {
	CF(kind, "kind", NULL, IPX_RF_STR),
	CF(name, "name", NULL, IPX_RF_STR),
	CF(pps_median, "pps_median", "%.1f", IPX_RF_DOUBLE),
	CF(pps_min, "pps_min", "%.1f", IPX_RF_DOUBLE),
	CF(pps_max, "pps_max", "%.1f", IPX_RF_DOUBLE),
	CF(carried_median, "carried_median", "%.1f", IPX_RF_DOUBLE),
	CF(carried_min, "carried_min", "%.1f", IPX_RF_DOUBLE),
	CF(carried_max, "carried_max", "%.1f", IPX_RF_DOUBLE),
	CF(kbps, "carried_kB_per_s_median", "%.2f", IPX_RF_DOUBLE),
	CF(sent, "sent_median", "%.0f", IPX_RF_DOUBLE),
	CF(delivered, "delivered_median", "%.0f", IPX_RF_DOUBLE),
	CF(loss, "loss_median", "%.6f", IPX_RF_DOUBLE),
	CF(ratio_ipx, "ratio_ipx_median", "%.4f", IPX_RF_DOUBLE),
	CF(ref_pps, "ref_1990_pps", "%.1f", IPX_RF_DOUBLE),
	CF(ref_ratio, "ref_1990_ratio_ipx", "%.4f", IPX_RF_DOUBLE),
	CF(lat_p50, "latency_p50_us", "%.3f", IPX_RF_DOUBLE),
	CF(lat_p99, "latency_p99_us", "%.3f", IPX_RF_DOUBLE),
	CF(cpu_snd, "cpu_sender", NULL, IPX_RF_INT),
	CF(cpu_rcv, "cpu_receiver", NULL, IPX_RF_INT),
	CF(target, "target", NULL, IPX_RF_STR),
	CF(target_ratio, "target_ratio", "%.4f", IPX_RF_DOUBLE),
	CF(target_want, "target_want", "%.2f", IPX_RF_DOUBLE),
	CF(target_pass, "target_pass", NULL, IPX_RF_STR),
};
static const struct ipx_rtable csv_table = IPX_RTABLE("protocols",
						      csv_fields);

static void csv_fill(const struct ipx_b1_report *rep, enum ipx_bw_kind k,
		     bool eth, struct csv_line *l)
{
	const struct ipx_b1_row *x = &rep->row[k];
	int t = ipx_b1_row_target(k);
	bool ref = x->ref_pps > 0, lat = x->lat_count != 0;

	*l = (struct csv_line){
		ipx_bw_kind_name(k), ipx_b1_row_name(k, eth),
		x->pps.median, x->pps.min, x->pps.max,
		x->carried.median, x->carried.min, x->carried.max,
		x->kbps.median, x->sent.median, x->delivered.median,
		x->loss.median, x->ratio_ipx.median,
		ref ? x->ref_pps : NAN, ref ? x->ref_ratio : NAN,
		lat ? x->lat_p50 / 1e3 : NAN, lat ? x->lat_p99 / 1e3 : NAN,
		x->cpu_snd, x->cpu_rcv,
		NULL, NAN, NAN, NULL,
	};
	if (t >= 0) {
		l->target = ipx_b1_target_name(rep, t, eth);
		l->target_ratio = rep->target[t].ratio.median;
		l->target_want = rep->target[t].want;
		l->target_pass = rep->target[t].pass ? "PASS" : "MISS";
	}
}

void ipx_b1_write_csv(FILE *out, const struct ipx_b1_report *rep, bool eth)
{
	struct csv_line l;

	ipx_res_csv_header(out, &csv_table);
	for (int i = 0; i <= IPX_B1_ROWS; i++) {
		csv_fill(rep, i < IPX_B1_ROWS ? ipx_b1_rows[i] : IPX_BW_RTT,
			 eth, &l);
		ipx_res_csv_row(out, &csv_table, &l);
	}
}
