/*
 * benchwan_json.c - the JSON and CSV of "ipxlab bench wan" (benchwan.h),
 * through the result writer (bench_result.h): a point's fields and the
 * CSV line described once each.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "benchwan.h"
#include "ipxlab/bench_result.h"
#include "ipxlab/bench_stat.h"

#define PT(M, NAME, UNIT, FMT, TYPE) \
	IPX_RF(struct ipx_bwan_point, M, NAME, UNIT, FMT, TYPE, IPX_RF_JSON)

static const struct ipx_rfield point_fields[] = {
	PT(ops, "ops", "", NULL, IPX_RF_U64),
	PT(active, "active", "", NULL, IPX_RF_UINT),
	PT(per_ws, "ops_per_s_per_ws", "ops/s", "%.4f", IPX_RF_DOUBLE),
	PT(min, "min", "ops/s", "%.4f", IPX_RF_DOUBLE),
	PT(max, "max", "ops/s", "%.4f", IPX_RF_DOUBLE),
	PT(total, "total_ops_per_s", "ops/s", "%.4f", IPX_RF_DOUBLE),
	PT(wire_kB_per_s, "wire_kB_per_s", "kB/s", "%.4f", IPX_RF_DOUBLE),
	PT(retransmits, "retransmits", "", NULL, IPX_RF_U64),
};
static const struct ipx_rtable point_table =
	IPX_RTABLE("point", point_fields);

/* One CSV line: a run of a test on one side, or a limit step. Cells
 * that do not apply are NaN (or NULL): empty. */
struct csv_row {
	const char *part, *test;
	unsigned ws;
	const char *side;
	double per_ws, total, wire, load, ws_sent, ws_carried, srv_sent,
		srv_carried, copy, copy_max_s;
	const char *ok;
	unsigned repeat;
};

#define CR(M, NAME, UNIT, FMT, TYPE) \
	IPX_RF(struct csv_row, M, NAME, UNIT, FMT, TYPE, IPX_RF_CSV)

static const struct ipx_rfield csv_fields[] = {
	CR(part, "part", "", NULL, IPX_RF_STR),
	CR(test, "test", "", NULL, IPX_RF_STR),
	CR(ws, "workstations", "", NULL, IPX_RF_UINT),
	CR(side, "side", "", NULL, IPX_RF_STR),
	CR(per_ws, "ops_per_s_per_ws", "ops/s", "%.4f", IPX_RF_DOUBLE),
	CR(total, "total_ops_per_s", "ops/s", "%.4f", IPX_RF_DOUBLE),
	CR(wire, "wire_kB_per_s", "kB/s", "%.4f", IPX_RF_DOUBLE),
	CR(load, "load_kbit_per_s", "kbit/s", "%.1f", IPX_RF_DOUBLE),
	CR(ws_sent, "to_ws_sent_kbit_per_s", "kbit/s", "%.1f", IPX_RF_DOUBLE),
	CR(ws_carried, "to_ws_carried_kbit_per_s", "kbit/s", "%.1f",
	   IPX_RF_DOUBLE),
	CR(srv_sent, "to_server_sent_kbit_per_s", "kbit/s", "%.1f",
	   IPX_RF_DOUBLE),
	CR(srv_carried, "to_server_carried_kbit_per_s", "kbit/s", "%.1f",
	   IPX_RF_DOUBLE),
	CR(copy, "copy_kbit_per_s", "kbit/s", "%.1f", IPX_RF_DOUBLE),
	CR(copy_max_s, "copy_max_s", "s", "%.4f", IPX_RF_DOUBLE),
	CR(ok, "ok", "", NULL, IPX_RF_STR),
	CR(repeat, "repeat", "", NULL, IPX_RF_UINT),
};
static const struct ipx_rtable csv_table = IPX_RTABLE("wan", csv_fields);

/* "local":{...},"bridged":{...} */
static void json_sides(struct ipx_jw *w, const struct ipx_bwan_point *l,
		       const struct ipx_bwan_point *b)
{
	ipx_res_json_row(w, "local", &point_table, l);
	ipx_res_json_row(w, "bridged", &point_table, b);
}

/* "runs":[{"local":{...},"bridged":{...}},...]: every run of a test. */
static void json_runs(struct ipx_jw *w, const struct wan *t,
		      const struct ipx_bwan_point *l,
		      const struct ipx_bwan_point *b)
{
	ipx_jw_arr(w, "runs");
	for (unsigned k = 0; k < t->b.repeat; k++) {
		ipx_jw_obj(w, NULL);
		json_sides(w, &l[k], &b[k]);
		ipx_jw_end(w);
	}
	ipx_jw_end(w);
}

static void json_step(struct ipx_jw *w, const struct ipx_bwan_step *st)
{
	ipx_jw_obj(w, NULL);
	ipx_jw_u64(w, "load_bit_per_s", st->load_bps);
	ipx_jw_dbl(w, "to_ws_sent_bit_per_s", "%.1f",
		   st->sent_bps[IPX_BWAN_DOWN]);
	ipx_jw_dbl(w, "to_ws_carried_bit_per_s", "%.1f",
		   st->carried_bps[IPX_BWAN_DOWN]);
	ipx_jw_dbl(w, "to_server_sent_bit_per_s", "%.1f",
		   st->sent_bps[IPX_BWAN_UP]);
	ipx_jw_dbl(w, "to_server_carried_bit_per_s", "%.1f",
		   st->carried_bps[IPX_BWAN_UP]);
	ipx_jw_dbl(w, "copy_bit_per_s", "%.1f", st->copy_bps);
	ipx_jw_dbl(w, "copy_max_s", "%.4f", st->copy_max_s);
	ipx_jw_dbl(w, "copy_mean_s", "%.4f", st->copy_mean_s);
	ipx_jw_dbl(w, "deadline_s", "%.4f", st->deadline);
	ipx_jw_u64(w, "copies", st->copies);
	ipx_jw_u64(w, "retransmits", st->retransmits);
	ipx_jw_bool(w, "ok", st->ok);
	ipx_jw_str(w, "why", st->why);
	ipx_jw_end(w);
}

/* "steps":[...],"last_completed":...,"limit_found":...: one search. */
static void json_search(struct ipx_jw *w, const struct ipx_bwan_step *steps,
			size_t nsteps)
{
	int k = ipx_bwan_limit_found(steps, nsteps);

	ipx_jw_arr(w, "steps");
	for (size_t i = 0; i < nsteps; i++)
		json_step(w, &steps[i]);
	ipx_jw_end(w);
	if (k < 0) {
		ipx_jw_null(w, "last_completed");
	} else {
		ipx_jw_obj(w, "last_completed");
		ipx_jw_int(w, "step", k);
		ipx_jw_u64(w, "load_bit_per_s", steps[k].load_bps);
		ipx_jw_dbl(w, "to_ws_carried_bit_per_s", "%.1f",
			   steps[k].carried_bps[IPX_BWAN_DOWN]);
		ipx_jw_dbl(w, "to_server_carried_bit_per_s", "%.1f",
			   steps[k].carried_bps[IPX_BWAN_UP]);
		ipx_jw_end(w);
	}
	ipx_jw_bool(w, "limit_found", k >= 0 && (size_t)k + 1 < nsteps);
}

/* The limit's repeats: every search, the median search, the loads. */
static void json_limit_runs(struct ipx_jw *w, const struct wan *t)
{
	struct ipx_stat_summary st;
	size_t n = wan_limit_loads(t, &st);

	ipx_jw_int(w, "median_run", t->r.lim_med);
	ipx_jw_arr(w, "runs");
	for (unsigned k = 0; k < t->b.repeat; k++) {
		ipx_jw_obj(w, NULL);
		json_search(w, t->r.lim_runs[k].steps, t->r.lim_runs[k].nsteps);
		ipx_jw_end(w);
	}
	ipx_jw_end(w);
	ipx_jw_obj(w, "last_completed_load_bit_per_s");
	ipx_jw_arr(w, "runs");
	for (unsigned k = 0; k < t->b.repeat; k++)
		ipx_jw_dbl(w, NULL, "%.0f",
			   t->r.lim_load[k] < 0 ? NAN : t->r.lim_load[k]);
	ipx_jw_end(w);
	ipx_jw_dbl(w, "median", "%.1f", n ? st.median : NAN);
	ipx_jw_dbl(w, "min", "%.0f", n ? st.min : NAN);
	ipx_jw_dbl(w, "max", "%.0f", n ? st.max : NAN);
	ipx_jw_end(w);
}

/* One battery test with and without the bridge. */
static void json_test(struct ipx_jw *w, const struct wan *t, size_t s, int op)
{
	const struct ipx_bwan_point *l = &t->r.bat[0][s][op],
				    *b = &t->r.bat[1][s][op];
	double pl, pb;

	ipx_bn_published_kbs(op, &pl, &pb);
	ipx_jw_obj(w, NULL);
	ipx_jw_str(w, "test", ipx_bn_op_name(op));
	ipx_jw_dbl(w, "seconds", "%.3f",
		   ipx_bwan_test_seconds(t->o.seconds, op));
	ipx_jw_u64(w, "workstations", t->o.sets[s]);
	json_sides(w, l, b);
	ipx_jw_dbl(w, "ops_pct", "%.4f", wan_pct(b->per_ws, l->per_ws));
	ipx_jw_dbl(w, "traffic_pct", "%.4f",
		   wan_pct(b->wire_kB_per_s, l->wire_kB_per_s));
	json_runs(w, t, t->r.bat_runs[0][s][op], t->r.bat_runs[1][s][op]);
	if (t->o.sets[s] == 1) {
		ipx_jw_obj(w, "published_peak_kbyte_per_s");
		ipx_jw_dbl(w, "local", "%.0f", pl);
		ipx_jw_dbl(w, "bridged", "%.0f", pb);
		ipx_jw_end(w);
	}
	ipx_jw_end(w);
}

/* The battery part: each test, then the mean traffic ratio per set. */
static void json_battery(struct ipx_jw *w, const struct wan *t)
{
	ipx_jw_arr(w, "battery");
	for (int op = 0; op < IPX_BN_BATTERY_OPS; op++)
		for (size_t s = 0; s < t->o.nsets && t->o.only[op]; s++)
			json_test(w, t, s, op);
	ipx_jw_end(w);
	ipx_jw_arr(w, "traffic_pct_mean");
	for (size_t s = 0; s < t->o.nsets; s++) {
		ipx_jw_obj(w, NULL);
		ipx_jw_u64(w, "workstations", t->o.sets[s]);
		ipx_jw_dbl(w, "pct", "%.4f", wan_mean_traffic_pct(t, s));
		if (wan_published_pct(t->o.sets[s]) > 0)
			ipx_jw_dbl(w, "published_pct", "%.0f",
				   wan_published_pct(t->o.sets[s]));
		ipx_jw_end(w);
	}
	ipx_jw_end(w);
}

static void json_limit(struct ipx_jw *w, const struct wan *t)
{
	ipx_jw_obj(w, "limit");
	ipx_jw_int(w, "packet_bytes", IPX_BWAN_FLOOD_SIZE);
	ipx_jw_u64(w, "file_bytes", t->o.lo.file_size);
	ipx_jw_u64(w, "probes", t->o.lo.probes ? t->o.lo.probes : 1);
	ipx_jw_dbl(w, "warmup_s", "%.3f", t->o.lo.warmup);
	json_search(w, t->r.steps, t->r.nsteps);
	json_limit_runs(w, t);
	ipx_jw_bool(w, "both_ways", t->o.lo.up != NULL);
	ipx_jw_obj(w, "published");
	ipx_jw_u64(w, "trunk_bit_per_s_each_way", 950000);
	ipx_jw_arr(w, "planning_bit_per_s");
	ipx_jw_u64(w, NULL, 1500000);
	ipx_jw_u64(w, NULL, 1700000);
	ipx_jw_end(w);
	ipx_jw_end(w);
	ipx_jw_end(w);
}

static void json_scaling(struct ipx_jw *w, const struct wan *t)
{
	ipx_jw_obj(w, "scaling");
	ipx_jw_str(w, "test", "open-multi");
	ipx_jw_dbl(w, "seconds", "%.3f", ipx_bwan_scale_seconds(t->o.seconds));
	ipx_jw_arr(w, "points");
	for (unsigned n = 0; n < t->o.max_stations; n++) {
		ipx_jw_obj(w, NULL);
		ipx_jw_u64(w, "workstations", n + 1);
		json_sides(w, &t->r.scale[0][n], &t->r.scale[1][n]);
		json_runs(w, t, t->r.scale_runs[0][n], t->r.scale_runs[1][n]);
		ipx_jw_end(w);
	}
	ipx_jw_end(w);
	ipx_jw_end(w);
}

static void json_conditions(struct ipx_jw *w, const struct wan *t)
{
	const struct ipx_profile *p = &t->prof;

	ipx_jw_obj(w, "conditions");
	fsbench_jw_conditions(&t->b, w);
	ipx_jw_str(w, "wan_profile", p->name);
	ipx_jw_u64(w, "trunk_bit_per_s", p->rate);
	ipx_jw_u64(w, "rx_buffer", p->rx_buffer);
	ipx_jw_u64(w, "tx_buffer", p->tx_buffer);
	ipx_jw_dbl(w, "hold_ms", "%.3f", p->hold_ns / 1e6);
	ipx_jw_u64(w, "bridge_max", p->bridge_max);
	ipx_jw_str(w, "far_hub", t->far_hub);
	ipx_jw_str(w, "far_server", t->far_name);
	if (t->b.sim) {
		ipx_jw_dbl(w, "simulated_seconds_local", "%.6f",
			   t->sim_seconds[0]);
		ipx_jw_dbl(w, "simulated_seconds_bridged", "%.6f",
			   t->sim_seconds[1]);
	} else {
		ipx_jw_u64(w, "far_max_buffer", WAN_FAR_MAX_BUFFER);
	}
	ipx_jw_end(w);
}

void wan_print_json(const struct wan *t)
{
	struct ipx_jw w;

	ipx_jw_init(&w, stdout);
	ipx_jw_obj(&w, NULL);
	ipx_jw_str(&w, "benchmark", "wan");
	json_conditions(&w, t);
	ipx_jw_u64(&w, "repeat", t->b.repeat);
	ipx_jw_bool(&w, "complete", !t->interrupted);
	if (t->o.parts & PART_BATTERY)
		json_battery(&w, t);
	if (t->o.parts & PART_LIMIT)
		json_limit(&w, t);
	if (t->o.parts & PART_SCALING)
		json_scaling(&w, t);
	ipx_jw_finish(&w);
}

/* One CSV line for each run (the last column: its number, from 1) of a
 * test on both sides. */
static void csv_runs(const struct wan *t, const char *part, const char *test,
		     unsigned ws, const struct ipx_bwan_point *l,
		     const struct ipx_bwan_point *b)
{
	struct csv_row r = { .part = part, .test = test, .ws = ws,
			     .load = NAN, .ws_sent = NAN, .ws_carried = NAN,
			     .srv_sent = NAN, .srv_carried = NAN, .copy = NAN,
			     .copy_max_s = NAN };

	for (unsigned k = 0; k < t->b.repeat; k++)
		for (int side = 0; side < 2; side++) {
			const struct ipx_bwan_point *p = side ? &b[k] : &l[k];

			r.side = side ? "bridged" : "local";
			r.per_ws = p->per_ws;
			r.total = p->total;
			r.wire = p->wire_kB_per_s;
			r.repeat = k + 1;
			ipx_res_csv_row(stdout, &csv_table, &r);
		}
}

static void csv_step(const struct wan *t, const struct ipx_bwan_step *st,
		     unsigned k)
{
	struct csv_row r = {
		.part = "limit", .test = "copy", .side = "bridged",
		.ws = (unsigned)(t->o.lo.probes ? t->o.lo.probes : 1),
		.per_ws = NAN, .total = NAN, .wire = NAN,
		.load = st->load_bps / 1000.0,
		.ws_sent = st->sent_bps[IPX_BWAN_DOWN] / 1000.0,
		.ws_carried = st->carried_bps[IPX_BWAN_DOWN] / 1000.0,
		.srv_sent = st->sent_bps[IPX_BWAN_UP] / 1000.0,
		.srv_carried = st->carried_bps[IPX_BWAN_UP] / 1000.0,
		.copy = st->copy_bps / 1000.0, .copy_max_s = st->copy_max_s,
		.ok = st->ok ? "1" : "0", .repeat = k + 1,
	};

	ipx_res_csv_row(stdout, &csv_table, &r);
}

void wan_print_csv(const struct wan *t)
{
	ipx_res_csv_header(stdout, &csv_table);
	for (int op = 0; op < IPX_BN_BATTERY_OPS && (t->o.parts & PART_BATTERY);
	     op++)
		for (size_t s = 0; s < t->o.nsets && t->o.only[op]; s++)
			csv_runs(t, "battery", ipx_bn_op_name(op), t->o.sets[s],
				 t->r.bat_runs[0][s][op],
				 t->r.bat_runs[1][s][op]);
	for (unsigned k = 0; k < t->b.repeat && (t->o.parts & PART_LIMIT); k++)
		for (size_t i = 0; i < t->r.lim_runs[k].nsteps; i++)
			csv_step(t, &t->r.lim_runs[k].steps[i], k);
	for (unsigned n = 0; n < t->o.max_stations && (t->o.parts & PART_SCALING);
	     n++)
		csv_runs(t, "scaling", "open-multi", n + 1,
			 t->r.scale_runs[0][n], t->r.scale_runs[1][n]);
}
