/*
 * b9_report.c - B9's report (bench_b9.h): the workloads and the note's
 * changes with their published percentages, a configuration's name, the
 * percent change between two configurations, and the JSON and CSV
 * writers. Ours are in kB/s (kB = 1000 bytes, as every benchmark); the
 * note's KB is 1,024 bytes (its 651 KB/s is a 2,000-byte frame every 3
 * ms, 666.7 kB/s): its figures are given as published and converted.
 */
#include <math.h>
#include <string.h>

#include "ipxlab/bench_b9.h"

const struct ipx_b9_workload ipx_b9_workloads[IPX_B9_WORKLOADS] = {
	{ IPX_B9_NETBIOS, IPX_B9_READ, 1 },  { IPX_B9_NETBIOS, IPX_B9_WRITE, 1 },
	{ IPX_B9_NCP, IPX_B9_READ, 1 },	     { IPX_B9_NCP, IPX_B9_WRITE, 1 },
	{ IPX_B9_NCP, IPX_B9_READ, 6 },	     { IPX_B9_NCP, IPX_B9_WRITE, 6 },
	{ IPX_B9_NETBIOS, IPX_B9_READ, 6 },  { IPX_B9_NETBIOS, IPX_B9_WRITE, 6 },
};

const char *ipx_b9_workload_name(unsigned w)
{
	static const char *const names[IPX_B9_WORKLOADS] = {
		"netbios read 1 ws", "netbios write 1 ws", "ncp read 1 ws",
		"ncp write 1 ws",    "ncp read 6 ws",	   "ncp write 6 ws",
		"netbios read 6 ws", "netbios write 6 ws",
	};

	return w < IPX_B9_WORKLOADS ? names[w] : "?";
}

#define ALL 0xFFu
#define WRITES ((1u << 1) | (1u << 3) | (1u << 5) | (1u << 7))
#define READS_1WS ((1u << 0) | (1u << 2))

const struct ipx_b9_change ipx_b9_changes[IPX_B9_CHANGES] = {
	{ "tx 256 -> 512", IPX_B9_TX_SIZE, IPX_B9_TX_SIZE, 256, 512, NAN, NAN,
	  "", 0 },
	{ "tx 512 -> 1K", IPX_B9_TX_SIZE, IPX_B9_TX_SIZE, 512, 1024, NAN, NAN,
	  "", 0 },
	{ "tx 256 -> 1K", IPX_B9_TX_SIZE, IPX_B9_TX_SIZE, 256, 1024, 36, 153,
	  "+36-153 %", ALL },
	{ "tx 1K -> 2K", IPX_B9_TX_SIZE, IPX_B9_TX_SIZE, 1024, 2048, 16, 16,
	  "+16 %", ALL },
	{ "tx 2K -> 4K", IPX_B9_TX_SIZE, IPX_B9_TX_SIZE, 2048, 4096, 0, 0,
	  "nothing (2,000-byte frames)", ALL },
	{ "tx buffers 1 -> 2", IPX_B9_TX_BUFS, IPX_B9_TX_BUFS, 1, 2, 13, 18,
	  "+13-18 % for large I/O", ALL },
	{ "rx ws 1K -> 2K", IPX_B9_RX_WS, IPX_B9_RX_WS, 1024, 2048, -9, -8,
	  "-8-9 % on large writes", WRITES },
	{ "rx ws 1K -> 2K", IPX_B9_RX_WS, IPX_B9_RX_WS, 1024, 2048, 7, 9,
	  "+7-9 % on 1-ws reads", READS_1WS },
	{ "rx srv 1K -> 2K", IPX_B9_RX_SRV, IPX_B9_RX_SRV, 1024, 2048, NAN,
	  NAN, "mattered little", ALL },
};

/* The baseline's value of parameter p. */
static uint32_t base_value(const struct ipx_b9_report *rep,
			   enum ipx_b9_param p)
{
	const struct ipx_adapter *b = &rep->o.base;

	switch (p) {
	case IPX_B9_TX_SIZE:
		return b->tx_size;
	case IPX_B9_TX_BUFS:
		return b->tx_buffers;
	case IPX_B9_RX_WS:
	case IPX_B9_RX_SRV:
		return b->rx_size;
	case IPX_B9_BASE:
		break;
	}
	return 0;
}

int ipx_b9_find(const struct ipx_b9_report *rep, enum ipx_b9_param p,
		uint32_t v)
{
	for (size_t i = 0; i < rep->ncfg; i++) {
		const struct ipx_b9_config *c = &rep->cfg[i];

		if ((c->param == p && c->value == v) ||
		    (c->param == IPX_B9_BASE && base_value(rep, p) == v))
			return (int)i;
	}
	return -1;
}

double ipx_b9_change_pct(const struct ipx_b9_report *rep,
			 const struct ipx_b9_change *c, unsigned w)
{
	int a = ipx_b9_find(rep, c->from_p, c->from_v);
	int b = ipx_b9_find(rep, c->to_p, c->to_v);

	if (a < 0 || b < 0 || w >= IPX_B9_WORKLOADS || !rep->pt[a][w].done ||
	    !rep->pt[b][w].done || rep->pt[a][w].kbs <= 0)
		return NAN;
	return (rep->pt[b][w].kbs / rep->pt[a][w].kbs - 1) * 100;
}

void ipx_b9_config_name(const struct ipx_b9_config *c, char *buf,
			size_t len)
{
	switch (c->param) {
	case IPX_B9_BASE:
		snprintf(buf, len, "baseline");
		return;
	case IPX_B9_TX_SIZE:
		snprintf(buf, len, "tx size %u", c->value);
		return;
	case IPX_B9_TX_BUFS:
		snprintf(buf, len, "tx buffers %u", c->value);
		return;
	case IPX_B9_RX_WS:
		snprintf(buf, len, "rx ws %u", c->value);
		return;
	case IPX_B9_RX_SRV:
		snprintf(buf, len, "rx srv %u", c->value);
		return;
	}
	snprintf(buf, len, "?");
}

/* ---- the writers ---- */

/* One measurement: a CSV row and a JSON object of "runs". */
struct b9_row {
	const char *config, *workload;
	unsigned ws_tx_size, ws_tx_buffers, ws_rx_size, srv_tx_size,
		srv_tx_buffers, srv_rx_size, stations, frame_up, frame_down;
	double kbs, kbs_min;
	uint64_t drops;
};

#define R(M, N, U, F, T) IPX_RF(struct b9_row, M, N, U, F, T, IPX_RF_BOTH)
static const struct ipx_rfield row_fields[] = {
	R(config, "config", "", NULL, IPX_RF_STR),
	R(workload, "workload", "", NULL, IPX_RF_STR),
	R(stations, "workstations", "", NULL, IPX_RF_UINT),
	R(ws_tx_size, "ws_tx_buffer_bytes", "bytes", NULL, IPX_RF_UINT),
	R(ws_tx_buffers, "ws_tx_buffers", "", NULL, IPX_RF_UINT),
	R(ws_rx_size, "ws_rx_buffer_bytes", "bytes", NULL, IPX_RF_UINT),
	R(srv_tx_size, "srv_tx_buffer_bytes", "bytes", NULL, IPX_RF_UINT),
	R(srv_tx_buffers, "srv_tx_buffers", "", NULL, IPX_RF_UINT),
	R(srv_rx_size, "srv_rx_buffer_bytes", "bytes", NULL, IPX_RF_UINT),
	R(kbs, "kB_per_s", "kB/s", "%.1f", IPX_RF_DOUBLE),
	R(kbs_min, "slowest_ws_kB_per_s", "kB/s", "%.1f",
	  IPX_RF_DOUBLE),
	R(frame_up, "largest_frame_ws_bytes", "bytes", NULL, IPX_RF_UINT),
	R(frame_down, "largest_frame_srv_bytes", "bytes", NULL, IPX_RF_UINT),
	R(drops, "rx_no_buffer_frames", "frames", NULL, IPX_RF_U64),
};
#undef R
static const struct ipx_rtable row_table = IPX_RTABLE("tuning", row_fields);

static void fill_row(const struct ipx_b9_report *rep, size_t ci, unsigned w,
		     char *name, size_t nlen, struct b9_row *r)
{
	const struct ipx_b9_config *c = &rep->cfg[ci];
	const struct ipx_b9_point *pt = &rep->pt[ci][w];

	ipx_b9_config_name(c, name, nlen);
	*r = (struct b9_row){
		.config = name, .workload = ipx_b9_workload_name(w),
		.ws_tx_size = c->ws.tx_size, .ws_tx_buffers = c->ws.tx_buffers,
		.ws_rx_size = c->ws.rx_size, .srv_tx_size = c->srv.tx_size,
		.srv_tx_buffers = c->srv.tx_buffers,
		.srv_rx_size = c->srv.rx_size,
		.stations = ipx_b9_workloads[w].stations,
		.frame_up = pt->frame_up, .frame_down = pt->frame_down,
		.kbs = pt->kbs, .kbs_min = pt->kbs_ws_min, .drops = pt->rx_drops,
	};
}

void ipx_b9_write_csv(FILE *out, const struct ipx_b9_report *rep)
{
	char name[48];
	struct b9_row r;

	ipx_res_csv_header(out, &row_table);
	for (size_t i = 0; i < rep->ncfg; i++)
		for (unsigned w = 0; w < IPX_B9_WORKLOADS; w++) {
			if (!rep->pt[i][w].done)
				continue;
			fill_row(rep, i, w, name, sizeof(name), &r);
			ipx_res_csv_row(out, &row_table, &r);
		}
}

static void json_adapter(struct ipx_jw *w, const char *key,
			 const struct ipx_adapter *a)
{
	ipx_jw_obj(w, key);
	ipx_jw_u64(w, "memory_bytes", a->memory);
	ipx_jw_u64(w, "tx_buffers", a->tx_buffers);
	ipx_jw_u64(w, "tx_buffer_bytes", a->tx_size);
	ipx_jw_u64(w, "rx_buffer_bytes", a->rx_size);
	ipx_jw_u64(w, "copy_bit_per_s", a->copy_rate);
	ipx_jw_dbl(w, "rx_buffer_cost_us", "%.3f", a->rx_cost_ns / 1e3);
	ipx_jw_end(w);
}

static void json_changes(struct ipx_jw *w, const struct ipx_b9_report *rep)
{
	static const char *const keys[IPX_B9_WORKLOADS] = {
		"netbios_read_1ws", "netbios_write_1ws", "ncp_read_1ws",
		"ncp_write_1ws",    "ncp_read_6ws",	 "ncp_write_6ws",
		"netbios_read_6ws", "netbios_write_6ws",
	};

	ipx_jw_arr(w, "changes");
	for (size_t i = 0; i < IPX_B9_CHANGES; i++) {
		const struct ipx_b9_change *c = &ipx_b9_changes[i];

		ipx_jw_obj(w, NULL);
		ipx_jw_str(w, "step", c->step);
		ipx_jw_str(w, "published", c->pub_note);
		ipx_jw_dbl(w, "published_low_pct", "%.0f", c->pub_lo);
		ipx_jw_dbl(w, "published_high_pct", "%.0f", c->pub_hi);
		ipx_jw_obj(w, "measured_pct");
		for (unsigned k = 0; k < IPX_B9_WORKLOADS; k++)
			ipx_jw_dbl(w, keys[k], "%.1f",
				   ipx_b9_change_pct(rep, c, k));
		ipx_jw_end(w);
		ipx_jw_end(w);
	}
	ipx_jw_end(w);
}

static void json_ceiling(struct ipx_jw *w, const struct ipx_b9_report *rep)
{
	const struct ipx_b9_ceiling *c = &rep->ceiling;
	int base = ipx_b9_find(rep, IPX_B9_BASE, 0);

	ipx_jw_obj(w, "ceiling");
	ipx_jw_u64(w, "frame_bytes", IPX_B9_CEILING_FRAME);
	ipx_jw_dbl(w, "back_to_back_kB_per_s", "%.1f", c->done ? c->kbs : NAN);
	ipx_jw_dbl(w, "per_frame_ms", "%.3f", c->done ? c->frame_ms : NAN);
	ipx_jw_dbl(w, "wire_alone_kB_per_s", "%.1f",
		   c->done ? c->wire_kbs : NAN);
	ipx_jw_dbl(w, "published_back_to_back_KB_per_s", "%.0f",
		   IPX_B9_PUB_CEILING_KBS_NOTE);
	ipx_jw_dbl(w, "published_back_to_back_in_kB_per_s", "%.1f",
		   IPX_B9_PUB_CEILING_KBS);
	ipx_jw_dbl(w, "six_ws_read_kB_per_s", "%.1f",
		   base >= 0 && rep->pt[base][4].done ? rep->pt[base][4].kbs
						      : NAN);
	ipx_jw_dbl(w, "six_ws_write_kB_per_s", "%.1f",
		   base >= 0 && rep->pt[base][5].done ? rep->pt[base][5].kbs
						      : NAN);
	ipx_jw_dbl(w, "six_ws_netbios_read_kB_per_s", "%.1f",
		   base >= 0 && rep->pt[base][6].done ? rep->pt[base][6].kbs
						      : NAN);
	ipx_jw_dbl(w, "six_ws_netbios_write_kB_per_s", "%.1f",
		   base >= 0 && rep->pt[base][7].done ? rep->pt[base][7].kbs
						      : NAN);
	ipx_jw_dbl(w, "published_six_ws_KB_per_s", "%.0f",
		   IPX_B9_PUB_SIX_KBS_NOTE);
	ipx_jw_dbl(w, "published_six_ws_in_kB_per_s", "%.1f",
		   IPX_B9_PUB_SIX_KBS);
	ipx_jw_u64(w, "published_KB_bytes", (uint64_t)IPX_B9_NOTE_KB);
	ipx_jw_end(w);
}

void ipx_b9_write_json(FILE *out, const struct ipx_b9_report *rep,
		       void (*cond)(struct ipx_jw *w, const void *ctx),
		       const void *ctx)
{
	struct ipx_jw w;
	char name[48];
	struct b9_row r;

	ipx_jw_init(&w, out);
	ipx_jw_obj(&w, NULL);
	ipx_jw_str(&w, "benchmark", "tuning");
	ipx_jw_obj(&w, "conditions");
	if (cond)
		cond(&w, ctx);
	ipx_jw_str(&w, "profile", rep->o.profile.name);
	ipx_jw_bool(&w, "simulated", rep->o.sim);
	if (rep->o.period)
		ipx_jw_str(&w, "period", rep->o.period->name);
	ipx_jw_u64(&w, "seed", rep->o.seed);
	ipx_jw_dbl(&w, "seconds_per_test_s", "%.3f", rep->o.seconds);
	json_adapter(&w, "baseline_adapter", &rep->o.base);
	if (rep->o.base_srv.memory)
		json_adapter(&w, "baseline_server_adapter", &rep->o.base_srv);
	ipx_jw_end(&w);
	json_ceiling(&w, rep);
	ipx_jw_arr(&w, "runs");
	for (size_t i = 0; i < rep->ncfg; i++)
		for (unsigned k = 0; k < IPX_B9_WORKLOADS; k++) {
			if (!rep->pt[i][k].done)
				continue;
			fill_row(rep, i, k, name, sizeof(name), &r);
			ipx_res_json_row(&w, NULL, &row_table, &r);
		}
	ipx_jw_end(&w);
	json_changes(&w, rep);
	if (rep->have_fid)
		ipx_fid_write_json(&w, "fidelity", &rep->fid);
	ipx_jw_bool(&w, "complete", rep->complete);
	ipx_jw_finish(&w);
}
