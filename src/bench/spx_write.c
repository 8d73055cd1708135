/*
 * spx_write.c - the JSON and CSV of the SPX benchmark (ipxlab/bench.h),
 * written with the one result writer (bench_result.h) from the report of
 * ipx_spxb_bench; the figures over the runs that the text shares.
 */
#include <math.h>
#include <stdio.h>

#include "ipxlab/bench.h"
#include "ipxlab/bench_result.h"
#include "ipxlab/spx.h"
#include "ipxlab/link_udp.h"

/* One row as the JSON and CSV see it (bench_result.h). */
struct row_view {
	const char *link, *row;
	uint64_t packet, payload;
	double goodput, pps, seconds;
	uint64_t bytes, packets;
	double cpu_sender, cpu_hub, cpu_receiver, busy, other;
	int version;
	unsigned window;
	double srtt_us, rto_us;
	uint64_t rtt_samples, tx_data, retransmits, timeouts, naks_rx, acks_rx;
	uint64_t sent, delivered;
	double bound, us_per_packet;	/* spx1 */
};

#define RV(M, NAME, FMT, TYPE) \
	IPX_RF(struct row_view, M, NAME, "", FMT, TYPE, IPX_RF_JSON)
static const struct ipx_rfield row_fields[] = {
	RV(link, "link", NULL, IPX_RF_STR),
	RV(row, "row", NULL, IPX_RF_STR),
	RV(packet, "packet_bytes", NULL, IPX_RF_U64),
	RV(payload, "payload_bytes", NULL, IPX_RF_U64),
	RV(goodput, "goodput_bytes_per_s", "%.1f", IPX_RF_DOUBLE),
	RV(pps, "pps", "%.1f", IPX_RF_DOUBLE),
	RV(seconds, "seconds", "%.6f", IPX_RF_DOUBLE),
	RV(bytes, "bytes", NULL, IPX_RF_U64),
	RV(packets, "packets", NULL, IPX_RF_U64),
	RV(cpu_sender, "cpu_sender", "%.4f", IPX_RF_DOUBLE),
	RV(cpu_hub, "cpu_hub", "%.4f", IPX_RF_DOUBLE),
	RV(cpu_receiver, "cpu_receiver", "%.4f", IPX_RF_DOUBLE),
	RV(busy, "machine_busy_cpus", "%.3f", IPX_RF_DOUBLE),
	RV(other, "other_cpus", "%.3f", IPX_RF_DOUBLE),
};
static const struct ipx_rfield spx_fields[] = {
	RV(version, "spx_version", NULL, IPX_RF_INT),
	RV(window, "window", NULL, IPX_RF_UINT),
	RV(srtt_us, "srtt_us", "%.1f", IPX_RF_DOUBLE),
	RV(rto_us, "rto_us", "%.1f", IPX_RF_DOUBLE),
	RV(rtt_samples, "rtt_samples", NULL, IPX_RF_U64),
	RV(tx_data, "tx_data", NULL, IPX_RF_U64),
	RV(retransmits, "retransmits", NULL, IPX_RF_U64),
	RV(timeouts, "timeouts", NULL, IPX_RF_U64),
	RV(naks_rx, "naks_rx", NULL, IPX_RF_U64),
	RV(acks_rx, "acks_rx", NULL, IPX_RF_U64),
};
static const struct ipx_rfield ipx_fields[] = {
	RV(window, "window", NULL, IPX_RF_UINT),
	RV(sent, "sent", NULL, IPX_RF_U64),
	RV(delivered, "delivered", NULL, IPX_RF_U64),
};
static const struct ipx_rfield spx1_fields[] = {
	RV(bound, "rtt_bound_bytes_per_s", "%.1f", IPX_RF_DOUBLE),
	RV(us_per_packet, "us_per_packet", "%.4f", IPX_RF_DOUBLE),
};
static const struct ipx_rtable row_table = IPX_RTABLE("row", row_fields);
static const struct ipx_rtable spx_table = IPX_RTABLE("spx", spx_fields);
static const struct ipx_rtable ipx_table = IPX_RTABLE("ipx", ipx_fields);
static const struct ipx_rtable spx1_table = IPX_RTABLE("spx1", spx1_fields);

static void view_of(const struct ipx_spxb_result *r, struct row_view *v)
{
	*v = (struct row_view){
		.link = ipx_spxb_link_name(r->link),
		.row = ipx_spxb_kind_name(r->kind),
		.packet = r->packet, .payload = r->payload,
		.goodput = r->goodput, .pps = r->pps, .seconds = r->seconds,
		.bytes = r->bytes, .packets = r->packets,
		.cpu_sender = r->cpu_sender, .cpu_hub = r->cpu_hub,
		.cpu_receiver = r->cpu_receiver, .busy = r->machine_busy,
		.other = ipx_spxb_other(r), .version = r->version,
		.window = r->window, .srtt_us = r->srtt_us,
		.rto_us = r->rto_us, .rtt_samples = r->rtt_samples,
		.tx_data = r->tx_data, .retransmits = r->retransmits,
		.timeouts = r->timeouts, .naks_rx = r->naks_rx,
		.acks_rx = r->acks_rx, .sent = r->sent,
		.delivered = r->delivered,
		/* NAN: null, srtt too short to say */
		.bound = r->srtt_us >= IPX_SPXB_MIN_SRTT_US
				 ? ipx_spxb_rtt_bound(r)
				 : NAN,
		.us_per_packet = r->pps > 0 ? 1e6 / r->pps : 0,
	};
}

static void json_row(struct ipx_jw *w, const struct ipx_spxb_result *r)
{
	struct row_view v;

	view_of(r, &v);
	ipx_jw_obj(w, NULL);
	ipx_res_json_fields(w, &row_table, &v);
	ipx_res_json_fields(w, r->version ? &spx_table : &ipx_table, &v);
	if (r->kind == IPX_SPXB_SPX1)
		ipx_res_json_fields(w, &spx1_table, &v);
	ipx_jw_end(w);
}

double ipx_spxb_fig_goodput(const struct ipx_spxb_result *r, void *ctx)
{
	double scale = ctx ? *(const double *)ctx : 1;

	return r->goodput * scale;
}

double ipx_spxb_fig_bound(const struct ipx_spxb_result *r, void *ctx)
{
	double scale = ctx ? *(const double *)ctx : 1;

	return ipx_spxb_rtt_bound(r) * scale;
}

double ipx_spxb_fig_us_per_packet(const struct ipx_spxb_result *r, void *ctx)
{
	(void)ctx;
	return r->pps > 0 ? 1e6 / r->pps : 0;
}

double ipx_spxb_fig_srtt(const struct ipx_spxb_result *r, void *ctx)
{
	(void)ctx;
	return r->srtt_us;
}

double ipx_spxb_fig_reach(const struct ipx_spxb_result *r, void *ctx)
{
	double b = ipx_spxb_rtt_bound(r);

	(void)ctx;
	return b > 0 ? r->goodput / b : 0;
}

/* The CSV: one line per row of the chosen links. */
struct csv_view {
	const char *link, *row;
	uint64_t packet, payload;
	struct ipx_stat_summary g, q;
	double target;		/* NAN but for spx2 (an empty cell) */
	const char *pass;
};

#define CV(M, NAME, FMT, TYPE) \
	IPX_RF(struct csv_view, M, NAME, "", FMT, TYPE, IPX_RF_CSV)
static const struct ipx_rfield csv_fields[] = {
	CV(link, "link", NULL, IPX_RF_STR),
	CV(row, "row", NULL, IPX_RF_STR),
	CV(packet, "packet", NULL, IPX_RF_U64),
	CV(payload, "payload", NULL, IPX_RF_U64),
	CV(g.median, "goodput_median", "%.1f", IPX_RF_DOUBLE),
	CV(g.min, "goodput_min", "%.1f", IPX_RF_DOUBLE),
	CV(g.max, "goodput_max", "%.1f", IPX_RF_DOUBLE),
	CV(q.median, "ratio_median", "%.4f", IPX_RF_DOUBLE),
	CV(q.min, "ratio_min", "%.4f", IPX_RF_DOUBLE),
	CV(q.max, "ratio_max", "%.4f", IPX_RF_DOUBLE),
	CV(target, "target", "%.2f", IPX_RF_DOUBLE),
	CV(pass, "pass", NULL, IPX_RF_STR),
};
static const struct ipx_rtable csv_table = IPX_RTABLE("spx", csv_fields);

void ipx_spxb_write_csv(FILE *out, const struct ipx_spxb_bench_opts *o,
			const struct ipx_spxb_report *rep)
{
	ipx_res_csv_header(out, &csv_table);
	for (int l = 0; l < IPX_SPXB_LINKS; l++) {
		for (int k = 0; o->links[l] && k < IPX_SPXB_KINDS; k++) {
			bool spx = k == IPX_SPXB_SPX1 || k == IPX_SPXB_SPX2;
			struct csv_view v = {
				.link = ipx_spxb_link_name((enum ipx_spxb_link)l),
				.row = ipx_spxb_kind_name((enum ipx_spxb_kind)k),
				.packet = rep->runs[0][l][k].packet,
				.payload = rep->runs[0][l][k].payload,
				.target = NAN,
			};

			ipx_spxb_spread(rep, (enum ipx_spxb_link)l,
					(enum ipx_spxb_kind)k, ipx_spxb_fig_goodput, NULL,
					&v.g);
			v.q = rep->ratio[l][k];
			if (!spx)
				v.q.median = v.q.min = v.q.max = NAN;
			if (k == IPX_SPXB_SPX2) {
				v.target = IPX_SPXB_TARGET_RATIO;
				v.pass = rep->met[l] ? "PASS" : "MISS";
			}
			ipx_res_csv_row(out, &csv_table, &v);
		}
	}
}

static void json_run(struct ipx_jw *w, const struct ipx_spxb_bench_opts *o,
		     const struct ipx_spxb_report *rep, unsigned long i)
{
	const ipx_spxb_rows *run = (const ipx_spxb_rows *)&rep->runs[i];

	ipx_jw_obj(w, NULL);
	ipx_jw_u64(w, "run", i + 1);
	ipx_jw_arr(w, "rows");
	for (int l = 0; l < IPX_SPXB_LINKS; l++)
		for (int k = 0; o->links[l] && k < IPX_SPXB_KINDS; k++)
			json_row(w, &(*run)[l][k]);
	ipx_jw_end(w);
	ipx_jw_obj(w, "ratios");
	for (int l = 0; l < IPX_SPXB_LINKS; l++) {
		if (!o->links[l])
			continue;
		ipx_jw_obj(w, ipx_spxb_link_name((enum ipx_spxb_link)l));
		ipx_jw_dbl(w, "spx1", "%.4f",
			   ipx_spxb_ratio(&(*run)[l][IPX_SPXB_SPX1],
					  &(*run)[l][IPX_SPXB_IPX_SMALL]));
		ipx_jw_dbl(w, "spx2", "%.4f",
			   ipx_spxb_ratio(&(*run)[l][IPX_SPXB_SPX2],
					  &(*run)[l][IPX_SPXB_IPX_LARGE]));
		ipx_jw_end(w);
	}
	ipx_jw_end(w);
	ipx_jw_end(w);
}

static void json_link_summary(struct ipx_jw *w,
			      const struct ipx_spxb_report *rep,
			      enum ipx_spxb_link l)
{
	for (int k = 0; k < IPX_SPXB_KINDS; k++) {
		enum ipx_spxb_kind kk = (enum ipx_spxb_kind)k;
		struct ipx_stat_summary s;

		ipx_jw_obj(w, ipx_spxb_kind_name(kk));
		ipx_spxb_spread(rep, l, kk, ipx_spxb_fig_goodput, NULL, &s);
		ipx_jw_summary(w, "goodput_bytes_per_s", "%.6g", &s);
		if (k == IPX_SPXB_SPX1) {
			ipx_spxb_spread(rep, l, kk, ipx_spxb_fig_bound, NULL, &s);
			ipx_jw_summary(w, "rtt_bound_bytes_per_s", "%.6g", &s);
			ipx_spxb_spread(rep, l, kk, ipx_spxb_fig_us_per_packet, NULL, &s);
			ipx_jw_summary(w, "us_per_packet", "%.6g", &s);
			ipx_spxb_spread(rep, l, kk, ipx_spxb_fig_srtt, NULL, &s);
			ipx_jw_summary(w, "srtt_us", "%.6g", &s);
		}
		if (k == IPX_SPXB_SPX1 || k == IPX_SPXB_SPX2)
			ipx_jw_summary(w, "ratio", "%.6g", &rep->ratio[l][k]);
		ipx_jw_u64(w, "packet_bytes", rep->runs[0][l][k].packet);
		ipx_jw_u64(w, "payload_bytes", rep->runs[0][l][k].payload);
		ipx_jw_end(w);
	}
}

void ipx_spxb_write_json(FILE *out, const struct ipx_spxb_bench_opts *o,
			 const struct ipx_spxb_report *rep,
			 ipx_spxb_conditions_fn cond, const void *ctx)
{
	const struct ipx_spxb_opts *ro = &o->row;
	struct ipx_jw w;

	ipx_jw_init(&w, out);
	ipx_jw_obj(&w, NULL);
	ipx_jw_str(&w, "benchmark", "spx");
	if (rep->interrupted)
		ipx_jw_bool(&w, "complete", false);
	if (cond && o->links[IPX_SPXB_UDP] && rep->net.hub_pid)
		cond(&w, ctx);
	ipx_jw_null(&w, "ref_1990");
	ipx_jw_int(&w, "cpus_online", ipx_bench_cpus_online());
	ipx_jw_int(&w, "cpus_allowed", ipx_bench_cpus_allowed());
	ipx_jw_dbl(&w, "seconds", "%g", ro->seconds);
	ipx_jw_dbl(&w, "warmup", "%g", ro->warmup);
	ipx_jw_u64(&w, "repeat", o->repeat);
	ipx_jw_u64(&w, "mem_mtu", ro->mem_mtu);
	ipx_jw_int(&w, "udp_mtu", IPX_UDP_MTU);
	ipx_jw_u64(&w, "spx_window", ro->spx_window);
	ipx_jw_u64(&w, "send_queue", ro->send_queue);
	ipx_jw_u64(&w, "ipx_window", ro->ipx_window);
	ipx_jw_u64(&w, "spx_conn_size_bytes", spx_conn_size());
	ipx_jw_arr(&w, "runs");
	for (unsigned long i = 0; i < rep->done; i++)
		json_run(&w, o, rep, i);
	ipx_jw_end(&w);
	ipx_jw_obj(&w, "summary");
	for (int l = 0; l < IPX_SPXB_LINKS; l++) {
		if (!o->links[l])
			continue;
		ipx_jw_obj(&w, ipx_spxb_link_name((enum ipx_spxb_link)l));
		json_link_summary(&w, rep, (enum ipx_spxb_link)l);
		ipx_jw_bool(&w, "pass", rep->met[l]);
		ipx_jw_end(&w);
	}
	ipx_jw_end(&w);
	ipx_jw_dbl(&w, "target_ratio", "%.2f", IPX_SPXB_TARGET_RATIO);
	ipx_jw_bool(&w, "pass", rep->met_all);
	ipx_jw_finish(&w);
}

