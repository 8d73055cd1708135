/*
 * wan.c - the loops of B6, the bridged network (bench_wan.h): the
 * workstation scaling curve, the paced background load and the
 * throughput-limit search, over a controller and ipx_bn_run, so the same
 * code runs on child processes in real time and on in-memory segments in
 * simulated time.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bench_wan.h"
#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/ipx.h"

#include "bench_util.h"

double ipx_bwan_test_seconds(double seconds, enum ipx_bn_op op)
{
	double s = ipx_bn_op_seconds(op);

	return seconds > 0 ? seconds * s / 20 : s;
}

double ipx_bwan_scale_seconds(double seconds)
{
	return seconds > 0 ? seconds : 20;
}

void ipx_bwan_summarize(const struct ipx_bw_result *r, size_t n,
			struct ipx_bwan_point *out)
{
	memset(out, 0, sizeof(*out));
	out->stations = (unsigned)n;
	out->min = n ? INFINITY : 0;
	for (size_t i = 0; i < n; i++) {
		double ops = r[i].seconds > 0 ? r[i].sent / r[i].seconds : 0;

		out->active += r[i].sent > 0;
		out->ops += r[i].sent;
		out->retransmits += r[i].retransmits;
		out->total += ops;
		out->min = ops < out->min ? ops : out->min;
		out->max = ops > out->max ? ops : out->max;
		out->wire_kB_per_s += r[i].seconds > 0
					 ? r[i].bytes / 1000.0 / r[i].seconds
					 : 0;
	}
	if (n) {
		out->per_ws = out->total / (double)n;
		out->wire_kB_per_s /= (double)n;
	}
}

int ipx_bwan_scale(struct ipx_hctl *c, const struct ipx_bn_run_opts *o,
		   enum ipx_bn_op op, unsigned max_stations, double seconds,
		   ipx_bwan_progress_cb cb, void *ctx,
		   struct ipx_bwan_point *out, char *err, size_t errlen)
{
	struct ipx_bw_result *res;
	char what[64];
	int rc = IPX_OK;

	if (max_stations == 0 || max_stations > IPX_BN_MAX_STATIONS ||
	    max_stations > ipx_hctl_agent_count(c) || !(seconds > 0)) {
		ipx_bench_set_err(err, errlen, "scaling: 1 to %zu workstations "
					       "(the agents attached) and a "
					       "time",
				  ipx_hctl_agent_count(c));
		return IPX_EINVAL;
	}
	res = calloc(max_stations, sizeof(*res));
	if (!res) {
		ipx_bench_set_err(err, errlen, "out of memory");
		return IPX_ENOMEM;
	}
	for (unsigned n = 1; n <= max_stations && rc == IPX_OK; n++) {
		snprintf(what, sizeof(what), "%s, %u workstation%s",
			 ipx_bn_op_name(op), n, n == 1 ? "" : "s");
		if (cb)
			cb(ctx, what, n, max_stations, seconds);
		rc = ipx_bn_run(c, o, op, n, seconds, 0, 0, (uint16_t)n, res,
				err, errlen);
		if (rc == IPX_OK)
			ipx_bwan_summarize(res, n, &out[n - 1]);
	}
	free(res);
	return rc;
}

/* ---- the background load ---- */

struct ipx_bwan_flood {
	struct ipx_loop *loop;
	struct ipx_socket *src, *sink;
	struct ipx_addr to;
	struct ipx_timer tick;
	uint64_t bps;
	uint32_t gen;		/* this rate's number, in every packet */
	ipx_time t0;		/* when this rate began */
	uint64_t due_sent;	/* sent since t0 */
	struct ipx_bwan_flood_count n;
	uint8_t data[IPX_BWAN_FLOOD_SIZE - IPX_HDR_LEN];
};

/* Bursts are capped, so a loop that fell behind catches up gradually. */
#define FLOOD_BURST 32

static void on_sink(struct ipx_socket *s, const struct ipx_header *h,
		    const uint8_t *data, size_t len, void *ctx)
{
	struct ipx_bwan_flood *f = ctx;

	(void)s;
	(void)h;
	/* a packet sent at an earlier rate (still in the bridge's buffers)
	 * is not this one's */
	if (len < 4 || ipx_get32(data) != f->gen) {
		f->n.stale++;
		return;
	}
	if (!f->n.first_at) {
		f->n.first_at = ipx_loop_now(f->loop);
		f->n.got_before_first = f->n.got_bytes;
	}
	f->n.got++;
	f->n.got_bytes += len + IPX_HDR_LEN;
}

/* Nothing is sent to the load's source; anything that comes is ignored. */
static void on_src(struct ipx_socket *s, const struct ipx_header *h,
		   const uint8_t *data, size_t len, void *ctx)
{
	(void)s;
	(void)h;
	(void)data;
	(void)len;
	(void)ctx;
}

static void on_tick(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	struct ipx_bwan_flood *f = ctx;
	const double bits = IPX_BWAN_FLOOD_SIZE * 8.0;
	ipx_time now = ipx_loop_now(loop), next;
	uint64_t due;

	(void)t;
	if (!f->bps)
		return;
	/* the packets whose time has come: the k-th (from 1) at k packets'
	 * time after t0, so what is sent by any moment is never more than
	 * the rate allows (sent <= offered) */
	due = (uint64_t)((double)(now - f->t0) / IPX_SEC * (double)f->bps /
			 bits);
	for (unsigned i = 0; i < FLOOD_BURST && f->due_sent < due; i++) {
		f->due_sent++;
		if (ipx_socket_sendto(f->src, &f->to, IPX_TYPE_PEP, f->data,
				      sizeof(f->data)) == IPX_OK) {
			f->n.sent++;
			f->n.sent_bytes += IPX_BWAN_FLOOD_SIZE;
		}
	}
	/* the next packet's time, at least 1 us on */
	next = f->t0 + (ipx_time)ceil((double)(f->due_sent + 1) * bits /
				      (double)f->bps * IPX_SEC);
	ipx_timer_start(loop, &f->tick, next > now ? next - now : 1, 0);
}

int ipx_bwan_flood_new(struct ipx_node *from, struct ipx_node *to,
		       struct ipx_bwan_flood **out)
{
	struct ipx_bwan_flood *f = calloc(1, sizeof(*f));
	int rc;

	if (!f)
		return IPX_ENOMEM;
	f->loop = ipx_node_loop(from);
	memset(f->data, 0x5A, sizeof(f->data));
	rc = ipx_socket_open(to, 0, on_sink, f, &f->sink);
	if (rc == IPX_OK)
		rc = ipx_socket_open(from, 0, on_src, NULL, &f->src);
	if (rc != IPX_OK) {
		ipx_bwan_flood_free(f);
		return rc;
	}
	ipx_node_address(to, &f->to);
	f->to.socket = ipx_socket_number(f->sink);
	ipx_timer_init(&f->tick, on_tick, f);
	*out = f;
	return IPX_OK;
}

void ipx_bwan_flood_rate(struct ipx_bwan_flood *f, uint64_t bps)
{
	ipx_timer_stop(f->loop, &f->tick);
	f->bps = bps;
	f->gen++;
	ipx_put32(f->data, f->gen);
	f->t0 = ipx_loop_now(f->loop);
	f->n.first_at = 0;
	f->due_sent = 0;
	if (bps)
		ipx_timer_start(f->loop, &f->tick, 0, 0);
}

void ipx_bwan_flood_count(const struct ipx_bwan_flood *f,
			  struct ipx_bwan_flood_count *out)
{
	*out = f->n;
}

void ipx_bwan_flood_free(struct ipx_bwan_flood *f)
{
	if (!f)
		return;
	ipx_timer_stop(f->loop, &f->tick);
	if (f->src)
		ipx_socket_close(f->src);
	if (f->sink)
		ipx_socket_close(f->sink);
	free(f);
}

/* ---- the throughput-limit search ---- */

int ipx_bwan_limit_found(const struct ipx_bwan_step *steps, size_t n)
{
	int last = -1;

	for (size_t k = 0; k < n && steps[k].ok; k++)
		last = (int)k;
	return last;
}

/*
 * One step: the load (each way there is a flood for), the warm-up, the
 * copies, the verdict. Sent and carried are over the same time, from
 * the load's start to the end of the copies: sent is what left the
 * source, carried what of it (packets of this step only) reached the
 * sink by then, so carried <= sent by construction.
 */
static int limit_step(struct ipx_hctl *c, struct ipx_bwan_flood *const *f,
		       const struct ipx_bwan_limit_opts *o, size_t probes,
		       uint32_t copies, double deadline, uint16_t repeat,
		       struct ipx_bw_result *res, struct ipx_bwan_step *st)
{
	struct ipx_bn_run_opts ro = o->run;
	struct ipx_bwan_flood_count n0[IPX_BWAN_DIRS], n1[IPX_BWAN_DIRS];
	struct ipx_loop *loop = f[IPX_BWAN_DOWN]->loop;
	ipx_time on0, on1;
	double secs = 0, on, bytes = 0, sum_s = 0;
	char why[sizeof(st->why) - 40];
	int rc;

	on0 = ipx_loop_now(loop);
	for (int d = 0; d < IPX_BWAN_DIRS; d++)
		if (f[d]) {
			ipx_bwan_flood_rate(f[d], st->load_bps);
			ipx_bwan_flood_count(f[d], &n0[d]);
		}
	if (st->load_bps && o->warmup > 0)
		ipx_loop_run_for(loop, (ipx_time)(o->warmup * IPX_SEC));
	/* Beyond the copies' own time the run waits: the deadline of every
	 * copy (a copy still going then has missed it anyway). */
	if (deadline > 0)
		ro.timeout = (ipx_time)((deadline * copies + 1) * IPX_SEC);
	rc = ipx_bn_run(c, &ro, IPX_BN_COPY, probes, 0, copies, o->file_size,
			repeat, res, why, sizeof(why));
	on1 = ipx_loop_now(loop);
	on = (double)(on1 - on0) / IPX_SEC;
	for (int d = 0; d < IPX_BWAN_DIRS; d++) {
		if (!f[d])
			continue;
		ipx_bwan_flood_count(f[d], &n1[d]);
		ipx_bwan_flood_rate(f[d], 0);
		if (st->load_bps && on > 0) {
			st->sent_bps[d] = (double)(n1[d].sent_bytes -
						   n0[d].sent_bytes) * 8 / on;
			st->carried_bps[d] = (double)(n1[d].got_bytes -
						      n0[d].got_bytes) * 8 / on;
		}
	}
	if (o->drain > 0)
		ipx_loop_run_for(loop, (ipx_time)(o->drain * IPX_SEC));
	st->deadline = deadline;
	st->ok = rc == IPX_OK;
	if (!st->ok) {
		snprintf(st->why, sizeof(st->why), "a copy did not complete: "
						   "%s",
			 why);
		return rc;
	}
	for (size_t i = 0; i < probes; i++) {
		double mx = (double)res[i].lat.max / 1e9;

		st->copies += res[i].sent;
		st->retransmits += res[i].retransmits;
		bytes += (double)res[i].sent * o->file_size;
		sum_s += (double)res[i].lat.sum / 1e9;
		st->copy_max_s = mx > st->copy_max_s ? mx : st->copy_max_s;
	}
	st->copy_mean_s = st->copies ? sum_s / (double)st->copies : 0;
	/* over the copies' own time (GO to the last one done), not the
	 * set-up's connect and login */
	for (size_t i = 0; i < probes; i++)
		secs = i == 0 || res[i].seconds > secs ? res[i].seconds : secs;
	st->copy_bps = secs > 0 ? bytes * 8 / secs : 0;
	if (deadline > 0 && st->copy_max_s > deadline) {
		st->ok = false;
		snprintf(st->why, sizeof(st->why), "a copy took %.2f s, over "
						   "the deadline of %.2f s",
			 st->copy_max_s, deadline);
	}
	return IPX_OK;
}

int ipx_bwan_limit(struct ipx_hctl *c, struct ipx_bwan_flood *f,
		   const struct ipx_bwan_limit_opts *o,
		   struct ipx_bwan_step *steps, size_t *nsteps, char *err,
		   size_t errlen)
{
	struct ipx_bwan_flood *const floods[IPX_BWAN_DIRS] = { f, o->up };
	size_t probes = o->probes ? o->probes : 1;
	uint32_t copies = o->copies ? o->copies : 1;
	double deadline = o->deadline;
	struct ipx_bw_result *res;
	char what[96];
	int rc = IPX_OK;

	*nsteps = 0;
	if (o->max_steps == 0 || o->max_steps > IPX_BWAN_MAX_STEPS ||
	    probes > IPX_BN_MAX_STATIONS || probes > ipx_hctl_agent_count(c) ||
	    o->file_size == 0 || (o->max_steps > 1 && o->step_bps == 0) ||
	    deadline < 0) {
		ipx_bench_set_err(err, errlen, "limit: 1 to %d steps, a load "
					       "step, a file, 1 to %zu "
					       "workstations",
				  IPX_BWAN_MAX_STEPS, ipx_hctl_agent_count(c));
		return IPX_EINVAL;
	}
	res = calloc(probes, sizeof(*res));
	if (!res) {
		ipx_bench_set_err(err, errlen, "out of memory");
		return IPX_ENOMEM;
	}
	for (size_t k = 0; k < o->max_steps; k++) {
		struct ipx_bwan_step *st = &steps[k];

		memset(st, 0, sizeof(*st));
		st->load_bps = o->step_bps * k;
		snprintf(what, sizeof(what), "limit: %.0f kbit/s of load, %zu "
					     "workstation%s copying",
			 st->load_bps / 1000.0, probes, probes == 1 ? "" : "s");
		if (o->progress)
			o->progress(o->ctx, what, (unsigned)k + 1,
				    (unsigned)o->max_steps,
				    o->warmup + deadline * copies);
		rc = limit_step(c, floods, o, probes, copies, deadline,
				(uint16_t)(k + 1), res, st);
		*nsteps = k + 1;
		/* A copy still going at the deadline missed it; anything else
		 * (an agent that died, a copy that failed) is no limit. */
		if (rc != IPX_OK && rc != IPX_ETIMEOUT) {
			ipx_bench_set_err(err, errlen, "limit at %.0f kbit/s: "
						       "%s",
					  st->load_bps / 1000.0, st->why);
			break;
		}
		rc = IPX_OK;
		if (!st->ok)
			break;
		if (k == 0 && o->deadline == 0)
			deadline = 2 * st->copy_max_s;
	}
	free(res);
	return rc;
}
