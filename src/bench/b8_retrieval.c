/*
 * b8_retrieval.c - B8, the retrieval test bench (bench_b8.h): the four
 * configurations, each one run of the retrieve workload on every
 * workstation at once (ipx_bn_run: PREPARE all, then GO) with the
 * server's CPU sampled meanwhile, and the summaries and the ranking.
 * The writers are in b8_write.c.
 */
#include <math.h>
#include <string.h>

#include "ipxlab/bench_b8.h"
#include "ipxlab/bench_cpu.h"
#include "ipxlab/bench_stat.h"
#include "ipxlab/err.h"
#include "ipxlab/host.h"
#include "ipxlab/ncp_server.h"

/* The note's set-ups are client/driver bits: 32/32 finished first, then
 * 32/16, 16/16, 16/32 (benchmarks.md B8). */
static const struct ipx_b8_config configs[IPX_B8_CONFIGS] = {
	{ "request/batched", false, false, "16/32", 4 },
	{ "request/single", false, true, "16/16", 3 },
	{ "burst/batched", true, false, "32/32", 1 },
	{ "burst/single", true, true, "32/16", 2 },
};

const struct ipx_b8_config *ipx_b8_config(unsigned k)
{
	return k < IPX_B8_CONFIGS ? &configs[k] : NULL;
}

const char *ipx_b8_status_name(enum ipx_b8_status st)
{
	switch (st) {
	case IPX_B8_MEASURED:
		return "measured";
	case IPX_B8_NO_BURST:
		return "burst not offered";
	default:
		return "not run";
	}
}

const char *ipx_b8_cpu_source(const struct ipx_b8_report *rep)
{
	if (rep->o.sim_host || rep->fidelity)
		return "simulated: the period server machine's CPU busy time";
	if (rep->o.sim_server)
		return "simulated: NCP requests served (a burst one) x 200 us";
	if (rep->o.server_pid > 0)
		return "the server process's user + system time";
	return "not measured (the server is not a process of this run)";
}

/* The simulated server's CPU seconds: requests x the cost of one (a
 * packet-burst read or write counts as one request, as its one command). */
static int sim_source(void *ctx, double *out)
{
	const struct ncp_server_stats *st = ncp_server_stats(ctx);

	*out = (double)(st->requests + st->burst_reads + st->burst_writes) *
	       IPX_B8_SIM_REQUEST_US / 1e6;
	return IPX_OK;
}

/* The period server's CPU seconds: its machine's busy time (host.h). */
static int host_source(void *ctx, double *out)
{
	*out = (double)ipx_host_stats(ctx)->cpu_ns / 1e9;
	return IPX_OK;
}

static void sampler_start(const struct ipx_b8_opts *o,
			  struct ipx_cpu_sampler *s, pid_t *pid,
			  struct ipx_b8_result *x)
{
	int rc = IPX_EINVAL;

	*pid = o->server_pid;
	if (o->loop && o->sim_host)
		rc = ipx_cpu_sampler_start(s, o->loop, IPX_CPU_INTERVAL,
					   host_source, o->sim_host, x->cpu,
					   IPX_B8_MAX_SAMPLES);
	else if (o->loop && o->sim_server)
		rc = ipx_cpu_sampler_start(s, o->loop, IPX_CPU_INTERVAL,
					   sim_source, o->sim_server, x->cpu,
					   IPX_B8_MAX_SAMPLES);
	else if (o->loop && o->server_pid > 0)
		rc = ipx_cpu_sampler_start(s, o->loop, IPX_CPU_INTERVAL,
					   ipx_cpu_pid_source, pid, x->cpu,
					   IPX_B8_MAX_SAMPLES);
	x->cpu_measured = rc == IPX_OK;
}

static void sampler_end(struct ipx_cpu_sampler *s, struct ipx_b8_result *x)
{
	if (!x->cpu_measured)
		return;
	ipx_cpu_sampler_stop(s);
	x->ncpu = s->n;
	x->cpu_dropped = s->dropped;
	x->cpu_base = ipx_stat_median(x->cpu, x->ncpu);
	x->cpu_peak = 0;
	for (size_t i = 0; i < x->ncpu; i++)
		if (x->cpu[i] > x->cpu_peak)
			x->cpu_peak = x->cpu[i];
	if (!x->ncpu)
		x->cpu_measured = false;	/* shorter than one interval */
}

/* The workstations' results into x: times, spread, lag. */
static void keep(const struct ipx_b8_report *rep, struct ipx_b8_result *x,
		 const struct ipx_bw_result *res)
{
	unsigned n = rep->o.stations;
	double done[IPX_BN_MAX_STATIONS];

	x->granted = res[0].ncp_buffer;
	x->total_s = 0;
	x->lag_s = INFINITY;
	x->min_s = INFINITY;
	x->max_s = 0;
	for (unsigned i = 0; i < n; i++) {
		struct ipx_b8_ws *w = &x->ws[i];

		w->files = res[i].sent;
		w->done_s = res[i].seconds;
		w->first_s = (double)res[i].delivered / 1e6;
		done[i] = w->done_s;
		if (w->done_s > x->max_s)
			x->max_s = w->done_s;
		if (w->done_s < x->min_s)
			x->min_s = w->done_s;
		if (w->files && w->first_s < x->lag_s)
			x->lag_s = w->first_s;
		for (uint64_t k = 0; k < w->files; k++)
			x->image_bytes += ipx_bn_image_size(ipx_bn_image_pick(
				i + 1, (unsigned)k, rep->o.files));
	}
	x->total_s = x->max_s;
	x->median_s = ipx_stat_median(done, n);
	if (isinf(x->lag_s))
		x->lag_s = NAN;
}

static int run_one(const struct ipx_b8_opts *o, struct ipx_bn_run_opts *ro,
		   unsigned count, uint16_t run, struct ipx_bw_result *res,
		   char *err, size_t errlen)
{
	return ipx_bn_run(o->net.ctl, ro, IPX_BN_RETRIEVE, o->stations, 0,
			  count, o->files, run, res, err, errlen);
}

/* Burst asked for: a one-image probe run says whether it was granted. */
static bool burst_granted(const struct ipx_b8_opts *o,
			  struct ipx_bn_run_opts *ro, uint16_t *runs,
			  struct ipx_bw_result *res, char *err, size_t errlen,
			  int *rc)
{
	*rc = run_one(o, ro, 1, ++*runs, res, err, errlen);
	if (*rc != IPX_OK)
		return false;
	for (unsigned i = 0; i < o->stations; i++)
		if (!res[i].ncp_burst)
			return false;
	return true;
}

static int run_config(const struct ipx_b8_opts *o, unsigned k,
		      ipx_bench_progress_fn progress, void *ctx,
		      struct ipx_b8_report *rep, uint16_t *runs, char *err,
		      size_t errlen)
{
	struct ipx_bw_result res[IPX_BN_MAX_STATIONS];
	struct ipx_b8_result *x = &rep->r[k];
	struct ipx_bn_run_opts ro = *o->net.ro;
	struct ipx_cpu_sampler s;
	char line[160];
	pid_t pid;
	int rc;

	ro.ncp_buffer = IPX_B8_BUFFER;
	ro.ncp_no_burst = !configs[k].burst;
	ro.single_frame = configs[k].single_frame;
	ro.timeout = (ipx_time)(IPX_B8_TIMEOUT * IPX_SEC);
	if (progress) {
		snprintf(line, sizeof(line),
			 "retrieval: %s (the note's %s), %u workstation%s x "
			 "%u images",
			 configs[k].name, configs[k].note, o->stations,
			 o->stations == 1 ? "" : "s", o->files);
		progress(ctx, line);
	}
	if (configs[k].burst &&
	    !burst_granted(o, &ro, runs, res, err, errlen, &rc)) {
		if (rc == IPX_OK)
			x->status = IPX_B8_NO_BURST;
		return rc == IPX_OK ? IPX_OK : IPX_EIO;
	}
	sampler_start(o, &s, &pid, x);
	rc = run_one(o, &ro, o->files, ++*runs, res, err, errlen);
	sampler_end(&s, x);
	if (rc != IPX_OK) {
		x->cpu_measured = false;
		return IPX_EIO;
	}
	keep(rep, x, res);
	x->status = IPX_B8_MEASURED;
	return IPX_OK;
}

int ipx_b8_run(const struct ipx_b8_opts *o, ipx_bench_progress_fn progress,
	       void *ctx, struct ipx_b8_report *rep, char *err, size_t errlen)
{
	uint16_t runs = 0;
	int rc = IPX_OK;

	memset(rep, 0, sizeof(*rep));
	rep->o = *o;
	if (o->stations < 1 || o->stations > IPX_BN_MAX_STATIONS ||
	    o->files < 1 || o->files > IPX_BN_IMAGES || !o->net.ctl ||
	    !o->net.ro) {
		snprintf(err, errlen,
			 "retrieval: 1 to %d workstations, 1 to %d images "
			 "each and a network",
			 IPX_BN_MAX_STATIONS, IPX_BN_IMAGES);
		return IPX_EINVAL;
	}
	for (unsigned k = 0; k < IPX_B8_CONFIGS && rc == IPX_OK; k++)
		if (o->only[k])
			rc = run_config(o, k, progress, ctx, rep, &runs, err,
					errlen);
	if (progress)
		progress(ctx, NULL);
	return rc;
}

void ipx_b8_interrupted(struct ipx_b8_report *rep)
{
	rep->interrupted = true;
}

static bool faster(const struct ipx_b8_report *rep, unsigned a, unsigned b)
{
	const struct ipx_b8_result *x = &rep->r[a], *y = &rep->r[b];

	if (x->total_s != y->total_s)
		return x->total_s < y->total_s;
	if (x->cpu_measured && y->cpu_measured && x->cpu_base != y->cpu_base)
		return x->cpu_base < y->cpu_base;
	return a < b;
}

unsigned ipx_b8_rank(const struct ipx_b8_report *rep,
		     unsigned order[IPX_B8_CONFIGS])
{
	unsigned n = 0;

	for (unsigned k = 0; k < IPX_B8_CONFIGS; k++) {
		unsigned j;

		if (rep->r[k].status != IPX_B8_MEASURED)
			continue;
		for (j = n; j > 0 && faster(rep, k, order[j - 1]); j--)
			order[j] = order[j - 1];
		order[j] = k;
		n++;
	}
	return n;
}

unsigned ipx_b8_place(const struct ipx_b8_report *rep, unsigned k)
{
	unsigned order[IPX_B8_CONFIGS], n = ipx_b8_rank(rep, order);

	for (unsigned i = 0; i < n; i++)
		if (order[i] == k)
			return i + 1;
	return 0;
}
