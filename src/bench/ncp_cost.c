/*
 * ncp_cost.c - "bench ncp" (ipxlab/bench_ncp_cost.h): NCP's cost with one
 * request outstanding against the round trip of the same run; the
 * measure loop, the summaries, and the JSON and CSV from one row
 * description (bench_result.h).
 */
#include "ipxlab/bench_ncp_cost.h"

#include <string.h>

#include "ipxlab/err.h"
#include "ipxlab/ncp_client.h"

enum row { R_EMPTY, R_FULL, R_READ, R_OC, R_GET, ROWS };

static const struct {
	enum ipx_bn_op op;
	const char *name;	/* for the progress line and errors */
	double share;		/* of the seconds per round */
} rows[ROWS] = {
	[R_EMPTY] = { IPX_BN_PING, "empty ping", 0.5 },
	[R_FULL] = { IPX_BN_PING, "full ping", 0.5 },
	[R_READ] = { IPX_BN_SHARED_SMALL, "1-byte reads", 1 },
	[R_OC] = { IPX_BN_OPEN_SINGLE, "open+close", 1 },
	[R_GET] = { IPX_BN_GET, "large get", 1 },
};

static const struct {
	const char *what, *unit, *key;
} trow[IPX_BNC_ROWS] = {
	[IPX_BNC_READ] = { "1-byte read", "ops/s", "read1" },
	[IPX_BNC_OC] = { "open+close", "pairs/s", "open_close" },
	[IPX_BNC_GET] = { "large get", "kB/s", "large_get" },
};

const char *ipx_bnc_row_what(int row)
{
	return row >= 0 && row < IPX_BNC_ROWS ? trow[row].what : "?";
}

const char *ipx_bnc_row_unit(int row)
{
	return row >= 0 && row < IPX_BNC_ROWS ? trow[row].unit : "?";
}

const char *ipx_bnc_row_key(int row)
{
	return row >= 0 && row < IPX_BNC_ROWS ? trow[row].key : "?";
}

/* The buffer the server grants a 4096-byte request on this link: asked by
 * a client of its own on the workstation's segment (the agent's own answer
 * is not in its RESULT); the same the agent negotiates. */
static int granted_bufsize(const struct ipx_bnc_opts *o, unsigned *out,
			   char *err, size_t errlen)
{
	struct ncp_client *cl = NULL;
	int rc = ncp_client_new(o->node, NULL, &cl);

	if (rc != IPX_OK) {
		snprintf(err, errlen, "an NCP client: %s", ipx_strerror(rc));
		return rc;
	}
	rc = ncp_connect(cl, &o->net.ro->server);
	if (!rc)
		rc = ncp_login(cl, "GUEST", "");
	if (!rc)
		rc = ncp_negotiate(cl, IPX_BNC_WANT_BUFSIZE);
	if (!rc)
		*out = ncp_bufsize(cl);
	if (!rc)
		ncp_disconnect(cl);
	ncp_client_free(cl);
	if (rc) {
		snprintf(err, errlen, "the file server: %s", ncp_strerror(rc));
		return IPX_EIO;
	}
	return IPX_OK;
}

static void say(const struct ipx_bnc_opts *o, ipx_bench_progress_fn progress,
		void *ctx, unsigned rep, int round, enum row r, double left)
{
	char line[160];
	int n = 0;

	if (!progress)
		return;
	n = snprintf(line, sizeof(line), "ncp: ");
	if (o->repeat > 1)
		n += snprintf(line + n, sizeof(line) - (size_t)n,
			      "repeat %u/%u, ", rep + 1, o->repeat);
	snprintf(line + n, sizeof(line) - (size_t)n,
		 "round %d/%d, %s, %.1f s left", round + 1, IPX_BNC_ROUNDS,
		 rows[r].name, left);
	progress(ctx, line);
}

/* The figures of one repeat from the sums of the agent's times and
 * counts per row. */
static void figures(const double *tsum, const uint64_t *nsum,
		    unsigned bufsize, struct ipx_bnc_fig *fig)
{
	fig->rtt_empty = tsum[R_EMPTY] / (double)nsum[R_EMPTY];
	fig->rtt_full = tsum[R_FULL] / (double)nsum[R_FULL];
	fig->value[IPX_BNC_READ] = (double)nsum[R_READ] / tsum[R_READ];
	fig->value[IPX_BNC_OC] = (double)nsum[R_OC] / tsum[R_OC];
	fig->value[IPX_BNC_GET] = (double)nsum[R_GET] * IPX_BN_GET_PART /
				  tsum[R_GET] / 1000;
	fig->bound[IPX_BNC_READ] = 1 / fig->rtt_empty;
	fig->bound[IPX_BNC_OC] = 1 / (2 * fig->rtt_empty);
	fig->bound[IPX_BNC_GET] =
		bufsize / ((fig->rtt_empty + fig->rtt_full) / 2) / 1000;
}

/* One repeat: ten rounds of every row in turn, into fig. */
static int measure(const struct ipx_bnc_opts *o,
		   ipx_bench_progress_fn progress, void *ctx,
		   struct ipx_bnc_report *rep, unsigned k, char *err,
		   size_t errlen)
{
	double tsum[ROWS] = { 0 }, left = o->seconds * 4 * (o->repeat - k);
	uint64_t nsum[ROWS] = { 0 };
	struct ipx_bw_result res;
	char why[768];
	int rc;

	for (int round = 0; round < IPX_BNC_ROUNDS; round++) {
		for (enum row r = 0; r < ROWS; r++) {
			double secs = o->seconds / IPX_BNC_ROUNDS *
				      rows[r].share;
			size_t size = r == R_FULL  ? rep->bufsize
				      : r == R_GET ? IPX_BN_GET_PART
						   : 0;

			say(o, progress, ctx, k, round, r, left);
			rc = ipx_bn_run(o->net.ctl, o->net.ro, rows[r].op, 1,
					secs, 0, size, (uint16_t)(k + 1), &res,
					why, sizeof(why));
			if (rc != IPX_OK) {
				snprintf(err, errlen, "%s: %s", rows[r].name,
					 why);
				rep->run_failed = true;
				return rc;
			}
			tsum[r] += res.seconds;
			nsum[r] += res.sent;
			left -= secs;
		}
	}
	for (enum row r = 0; r < ROWS; r++) {
		if (!nsum[r] || !(tsum[r] > 0)) {
			snprintf(err, errlen, "%s: none completed",
				 rows[r].name);
			return IPX_EIO;
		}
	}
	figures(tsum, nsum, rep->bufsize, &rep->fig[k]);
	return IPX_OK;
}

int ipx_bnc_run(const struct ipx_bnc_opts *o, ipx_bench_progress_fn progress,
		void *ctx, struct ipx_bnc_report *rep, char *err,
		size_t errlen)
{
	int rc;

	memset(rep, 0, sizeof(*rep));
	rep->o = *o;
	if (o->repeat < 1 || o->repeat > IPX_BNC_MAX_REPEAT) {
		snprintf(err, errlen, "1 to %d repeats", IPX_BNC_MAX_REPEAT);
		return IPX_EINVAL;
	}
	rc = granted_bufsize(o, &rep->bufsize, err, errlen);
	for (unsigned k = 0; rc == IPX_OK && k < o->repeat; k++) {
		rc = measure(o, progress, ctx, rep, k, err, errlen);
		if (rc == IPX_OK)
			rep->done = k + 1;
	}
	if (rc == IPX_OK && (o->burst_peer || o->burst_from_agent)) {
		if (progress)
			progress(ctx, "ncp: a burst read of the 4 MB file and "
				      "IPX datagrams of its packet size");
		struct ipx_bncb_opts bo = {
			o->node, o->burst_peer,
			o->burst_from_agent ? o->net.ctl : NULL, 0,
			o->net.ro->server, o->burst_window, o->burst_bind,
		};

		rep->have_burst = ipx_bncb_run(&bo, &rep->burst,
					       rep->burst_err,
					       sizeof(rep->burst_err)) ==
				  IPX_OK;
	}
	if (progress)
		progress(ctx, NULL);
	return rc;
}

void ipx_bnc_summary(const struct ipx_bnc_report *rep, int row, int which,
		     struct ipx_stat_summary *s)
{
	double v[IPX_BNC_MAX_REPEAT];

	for (unsigned i = 0; i < rep->done; i++) {
		const struct ipx_bnc_fig *f = &rep->fig[i];

		v[i] = which == 0   ? f->value[row]
		       : which == 1 ? f->bound[row]
		       : which == 2 ? f->value[row] / f->bound[row]
		       : which == 3 ? f->rtt_empty * 1e6
				    : f->rtt_full * 1e6;
	}
	ipx_stat_summarize(v, rep->done, s);
}

/* "burst_read": the packet-burst target, or why it was not measured. */
static void write_burst_json(struct ipx_jw *w, const struct ipx_bnc_report *rep)
{
	const struct ipx_bncb_report *b = &rep->burst;

	if (!rep->o.burst_peer && !rep->o.burst_from_agent)
		return;
	ipx_jw_obj(w, "burst_read");
	if (!rep->have_burst) {
		ipx_jw_str(w, "not_measured", rep->burst_err);
		ipx_jw_end(w);
		return;
	}
	ipx_jw_u64(w, "packet_bytes", b->packet);
	ipx_jw_u64(w, "rounds", b->rounds);
	ipx_jw_dbl(w, "burst_kB_per_s", "%.3f", b->burst_kBps);
	ipx_jw_dbl(w, "datagram_kB_per_s", "%.3f", b->dgram_kBps);
	ipx_jw_dbl(w, "ratio", "%.4f", b->ratio);
	ipx_jw_dbl(w, "ratio_min", "%.4f", b->ratio_min);
	ipx_jw_dbl(w, "ratio_max", "%.4f", b->ratio_max);
	ipx_jw_dbl(w, "target", "%.2f", IPX_BNCB_TARGET);
	ipx_jw_bool(w, "pass", b->pass);
	ipx_jw_u64(w, "bursts", b->bursts);
	ipx_jw_u64(w, "fragments_resent", b->frags_resent);
	ipx_jw_u64(w, "missing_lists_sent", b->missing_sent);
	ipx_jw_u64(w, "timeouts", b->timeouts);
	ipx_jw_u64(w, "datagrams_sent", b->dgram_sent);
	ipx_jw_u64(w, "datagram_window", rep->o.burst_window);
	ipx_jw_end(w);
}

void ipx_bnc_write_json(FILE *out, const struct ipx_bnc_report *rep,
			ipx_bfs_conditions_fn cond, const void *ctx)
{
	struct ipx_stat_summary s;
	struct ipx_jw w;

	ipx_jw_init(&w, out);
	ipx_jw_obj(&w, NULL);
	ipx_jw_str(&w, "benchmark", "ncp");
	if (rep->interrupted)
		ipx_jw_bool(&w, "complete", false);
	ipx_jw_obj(&w, "conditions");
	if (cond)
		cond(&w, ctx);
	ipx_jw_dbl(&w, "seconds_per_row", "%.3f", rep->o.seconds);
	ipx_jw_int(&w, "rounds", IPX_BNC_ROUNDS);
	ipx_jw_u64(&w, "repeat", rep->done);
	ipx_jw_u64(&w, "bufsize", rep->bufsize);
	ipx_jw_int(&w, "get_part", IPX_BN_GET_PART);
	ipx_jw_dbl(&w, "target", "%.2f", IPX_BNC_TARGET);
	ipx_jw_end(&w);
	ipx_jw_obj(&w, "round_trip_us");
	ipx_bnc_summary(rep, 0, 3, &s);
	ipx_jw_summary(&w, "empty", "%.3f", &s);
	ipx_bnc_summary(rep, 0, 4, &s);
	ipx_jw_summary(&w, "full", "%.3f", &s);
	ipx_jw_end(&w);
	ipx_jw_arr(&w, "rows");
	for (int r = 0; r < IPX_BNC_ROWS; r++) {
		ipx_jw_obj(&w, NULL);
		ipx_jw_str(&w, "row", trow[r].key);
		ipx_jw_str(&w, "unit", trow[r].unit);
		ipx_bnc_summary(rep, r, 0, &s);
		ipx_jw_summary(&w, "measured", "%.3f", &s);
		ipx_bnc_summary(rep, r, 1, &s);
		ipx_jw_summary(&w, "bound", "%.3f", &s);
		ipx_bnc_summary(rep, r, 2, &s);
		ipx_jw_summary(&w, "ratio", "%.3f", &s);
		ipx_jw_bool(&w, "pass", s.median >= IPX_BNC_TARGET);
		ipx_jw_end(&w);
	}
	ipx_jw_end(&w);
	write_burst_json(&w, rep);
	ipx_jw_finish(&w);
}

/* One row of one repeat: a CSV line. */
struct line {
	unsigned repeat;
	const char *row, *unit;
	double measured, bound, ratio, rtt_empty_us, rtt_full_us;
};

#define LF(M, NAME, FMT, TYPE) \
	IPX_RF(struct line, M, NAME, "", FMT, TYPE, IPX_RF_CSV)
static const struct ipx_rfield line_fields[] = {
	LF(repeat, "repeat", NULL, IPX_RF_UINT),
	LF(row, "row", NULL, IPX_RF_STR),
	LF(measured, "measured", "%.3f", IPX_RF_DOUBLE),
	LF(unit, "unit", NULL, IPX_RF_STR),
	LF(bound, "bound", "%.3f", IPX_RF_DOUBLE),
	LF(ratio, "ratio", "%.4f", IPX_RF_DOUBLE),
	LF(rtt_empty_us, "rtt_empty_us", "%.3f", IPX_RF_DOUBLE),
	LF(rtt_full_us, "rtt_full_us", "%.3f", IPX_RF_DOUBLE),
};
static const struct ipx_rtable line_table = IPX_RTABLE("ncp", line_fields);

void ipx_bnc_write_csv(FILE *out, const struct ipx_bnc_report *rep)
{
	ipx_res_csv_header(out, &line_table);
	for (unsigned i = 0; i < rep->done; i++) {
		const struct ipx_bnc_fig *f = &rep->fig[i];

		for (int r = 0; r < IPX_BNC_ROWS; r++) {
			struct line l = {
				i + 1, trow[r].key, trow[r].unit,
				f->value[r], f->bound[r],
				f->value[r] / f->bound[r],
				f->rtt_empty * 1e6, f->rtt_full * 1e6,
			};

			ipx_res_csv_row(out, &line_table, &l);
		}
	}
}
